#!/usr/bin/env bash
# run.sh -- the body of `make test` (make has built every binary and mistake first):
# runs the phases below side by side, prints each one's output whole, in order, and
# ends with one line "N passed, N failed".
#
#   1. every chapter's tests against solutions/        (build/sol/NN-topic/test)
#   2. the same tests against exercises/: every stub compiles (make built it with
#      -Werror) and fails some of its tests; a stub that passes is a failure here
#   3. the mistake catalogues: every mistake of tests/NN-topic/mistakes.txt applies,
#      compiles and fails a public test (tests/loop/mistakes.sh; make built them)
#   4. the solution tests again under AddressSanitizer and UBSan (build/asan/...)
#   5. the calculator's own tests, against the sanitized build/asan/chalk
#   6. flashcards, practice problems and chalk check-answers (tests/practice/run.sh,
#      with pandoc and pdflatex: tests/deps.sh book); the checks over the book's
#      sources and the contracts: notation, contract lines, § references, cards,
#      doubled parentheses (tests/checks/run.sh)
#   7. the reader's loop (tests/loop/test_loop.sh, in a scratch copy)
#   8. the book (book/tests/run.sh): golden tests of every Lua filter, bad input that
#      must stop the build, a smoke book, and build/chalk.pdf in both editions
#   9. the classroom (tests/grade/test_grade.sh): the handout, sandboxed grading
#      against every attack fixture, reports and the gradebook
#
# Usage: tests/run.sh CHAPTER...   (make test passes every chapter)
#   PHASES="1 2 3"   run only these phases
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

logs=build/test-run
rm -rf "$logs"
mkdir -p "$logs"
# the books as they are now, for the handout test, so that phase 8 rebuilding them
# meanwhile cannot hand phase 7 a half-written file
mkdir -p "$logs/pdfs"
cp build/chalk.pdf build/chalk-instructor.pdf "$logs/pdfs/" 2>/dev/null
export CHALK_PDFS=$PWD/$logs/pdfs

passed=0 failed=0
pass() { passed=$((passed + ${1:-1})); }
fail() { failed=$((failed + ${1:-1})); }

# Runs a cmocka binary and adds its counts to the totals. Its output is shown
# whole, or with QUIET=1 without the lines of tests that passed.
cmocka() {
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    if [ "${QUIET:-0}" = 1 ]; then
        printf '%s\n' "$out" | grep -v -e '^\[ RUN      \]' -e '^\[       OK \]'
    else
        printf '%s\n' "$out"
    fi
    local ok bad
    ok=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    bad=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    if [ -z "$ok$bad" ] || { [ "$rc" -ne 0 ] && [ -z "$bad" ]; }; then
        echo "run.sh: $1 ended without a cmocka summary (exit $rc): counted as a failure"
        fail
        return
    fi
    pass "${ok:-0}"
    fail "${bad:-0}"
}

# Runs a script that ends with "PREFIX: N passed, N failed"; shows its output but
# the lines matching the grep pattern $2 (the passes), and adds its counts.
counted() {
    local prefix=$1 hide=$2 out counts
    shift 2
    out=$("$@" 2>&1)
    printf '%s\n' "$out" | grep -v -e "$hide" || true
    counts=$(printf '%s\n' "$out" | sed -n "s/^$prefix: \\([0-9]*\\) passed, \\([0-9]*\\) failed\$/\\1 \\2/p")
    if [ -n "$counts" ]; then
        pass "${counts% *}"
        fail "${counts#* }"
    else
        echo "run.sh: $1 ended without its summary: counted as a failure"
        fail
    fi
}

# The library's tests: tests/lib/test_lib.c as build/VARIANT/lib/test, each further
# tests/lib/test_NAME.c as build/VARIANT/lib/test_NAME.
lib_tests() {
    local t
    cmocka "build/$1/lib/test"
    for t in tests/lib/test_*.c; do
        t=$(basename "$t" .c)
        [ "$t" = test_lib ] || cmocka "build/$1/lib/$t"
    done
}

phase_1() {
    lib_tests sol
    for ch in "$@"; do cmocka "build/sol/$ch/test"; done
}

phase_2() {
    local out total bad
    for ch in "$@"; do
        out=$("build/ex/$ch/test" 2>&1)
        total=$(printf '%s\n' "$out" | grep -c '^\[ RUN      \]')
        bad=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
        bad=${bad:-0}
        if [ "$bad" -gt 0 ]; then
            echo "stub $ch: compiles with -Werror; $bad of $total tests fail, as a stub should"
            pass
        else
            echo "stub $ch: FAILURE: all $total tests pass against the stub in exercises/$ch"
            fail
        fi
    done
}

phase_3() {
    local ch id verdict msg n rows
    for ch in "$@"; do
        if [ ! -f "tests/$ch/mistakes.txt" ]; then
            echo "$ch: no mistake catalogue yet (tests/$ch/mistakes.txt; CHAPTER.md asks for 10 or more)"
            continue
        fi
        if [ ! -f "build/mistakes/$ch.status" ]; then
            echo "$ch: FAILURE: build/mistakes/$ch.status was not built (make build/mistakes/$ch.tsv)"
            fail
            continue
        fi
        n=0
        while IFS=$'\t' read -r id verdict msg; do
            if [ "$verdict" = caught ]; then
                n=$((n + 1))
                pass
            else
                echo "$ch: FAILURE: mistake $id $verdict: $msg"
                fail
            fi
        done <"build/mistakes/$ch.status"
        rows=$(grep -vc '^#' "build/mistakes/$ch.tsv")
        echo "$ch: $n mistakes caught by the public tests; make check can name them by $rows values (build/mistakes/$ch.tsv)"
    done
}

phase_4() {
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
    QUIET=1 lib_tests asan
    for ch in "$@"; do QUIET=1 cmocka "build/asan/$ch/test"; done
}

phase_5() {
    CHALK=build/asan/chalk QUIET=1 cmocka build/chalk-test
}

phase_6() {
    if tests/deps.sh book; then
        counted practice '^ok - ' tests/practice/run.sh
        counted checks '^ok - .*catches its planted' tests/checks/run.sh "$@"
    else
        echo "run.sh: pandoc/TeX Live missing and not installable: counted as a failure"
        fail
    fi
}

phase_7() {
    counted loop '^ok - ' tests/loop/test_loop.sh
}

phase_8() {
    QUIET=1 cmocka book/tests/run.sh
}

phase_9() {
    counted grading '^ok - \|^handout-check: ok' tests/grade/test_grade.sh
}

titles=(""
    "1. chapter tests against solutions/"
    "2. exercise stubs: they compile warning-free and fail their tests"
    "3. mistake catalogues: every mistake is caught by a public test"
    "4. solutions under AddressSanitizer and UBSan"
    "5. the calculator: answers, sweeps and bad input (sanitized build)"
    "6. flashcards, practice problems, chalk check-answers; checks over the sources (notation, contracts, § references, cards)"
    "7. the reader's loop (tests/loop/test_loop.sh, in a scratch copy)"
    "8. the book: filter golden tests, bad input stops the build, both editions build"
    "9. the classroom: handout, sandboxed grading, reports (tests/grade/test_grade.sh)")

# Each phase in the background, its output and its counts in build/test-run/; the
# slowest start first. Then each is shown, in order, as soon as it and those before
# it are done.
run_phase() {
    local t0=$EPOCHREALTIME
    "phase_$1" "${@:2}" >"$logs/$1.out" 2>&1
    echo "$passed $failed $t0 $EPOCHREALTIME" >"$logs/$1.counts"
}
phases=${PHASES:-1 2 3 4 5 6 7 8 9}
declare -A pid
for p in 8 9 7 6 5 4 3 2 1; do
    case " $phases " in *" $p "*) ;; *) continue ;; esac
    run_phase "$p" "$@" &
    pid[$p]=$!
done
total_passed=0 total_failed=0
for p in $phases; do
    wait "${pid[$p]}"
    if read -r a b t0 t1 <"$logs/$p.counts" 2>/dev/null; then
        printf '\n==== %s (%s s)\n' "${titles[$p]}" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
        cat "$logs/$p.out"
        total_passed=$((total_passed + a))
        total_failed=$((total_failed + b))
    else
        printf '\n==== %s\n' "${titles[$p]}"
        cat "$logs/$p.out"
        echo "run.sh: phase $p ended without its counts: counted as a failure"
        total_failed=$((total_failed + 1))
    fi
done

printf '\n%d passed, %d failed\n' "$total_passed" "$total_failed"
[ "$total_failed" -eq 0 ]
