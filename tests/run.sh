#!/usr/bin/env bash
# run.sh -- the body of `make test`: runs the built test binaries in order and ends
# with one line "N passed, N failed".
#
#   1. every chapter's tests against solutions/        (build/sol/NN-topic/test)
#   2. the same tests against exercises/: every stub compiles (make built it with
#      -Werror) and fails some of its tests; a stub that passes is a failure here
#   3. the solution tests again under AddressSanitizer and UBSan (build/asan/...)
#   4. the calculator's own tests, against the sanitized build/asan/chalk
#   5. flashcards, practice problems and chalk check-answers (tests/practice/run.sh,
#      with pandoc and pdflatex: tests/deps.sh book)
#   6. the reader's loop and the classroom: check, progress, hint, solution, reset,
#      watch, handout, grade, grade-all (tests/loop/test_loop.sh)
#   7. the book (book/tests/run.sh): golden tests of every Lua filter, bad input that
#      must stop the build, a smoke book, and build/chalk.pdf in both editions
#
# Usage: tests/run.sh CHAPTER...   (make test passes every chapter)
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0 failed=0

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
        failed=$((failed + 1))
        return
    fi
    passed=$((passed + ${ok:-0}))
    failed=$((failed + ${bad:-0}))
}

phase() { printf '\n==== %s\n' "$*"; }

phase "1. chapter tests against solutions/"
cmocka build/sol/lib/test
for t in tests/lib/test_*.c; do
    t=$(basename "$t" .c)
    [ "$t" = test_lib ] || cmocka "build/sol/lib/$t"
done
for ch in "$@"; do cmocka "build/sol/$ch/test"; done

phase "2. exercise stubs: they compile warning-free and fail their tests"
for ch in "$@"; do
    out=$("build/ex/$ch/test" 2>&1)
    total=$(printf '%s\n' "$out" | grep -c '^\[ RUN      \]')
    bad=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    bad=${bad:-0}
    if [ "$bad" -gt 0 ]; then
        echo "stub $ch: compiles with -Werror; $bad of $total tests fail, as a stub should"
        passed=$((passed + 1))
    else
        echo "stub $ch: FAILURE: all $total tests pass against the stub in exercises/$ch"
        failed=$((failed + 1))
    fi
done

phase "3. solutions under AddressSanitizer and UBSan"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
QUIET=1 cmocka build/asan/lib/test
for t in tests/lib/test_*.c; do
    t=$(basename "$t" .c)
    [ "$t" = test_lib ] || QUIET=1 cmocka "build/asan/lib/$t"
done
for ch in "$@"; do QUIET=1 cmocka "build/asan/$ch/test"; done

phase "4. the calculator: answers, sweeps and bad input (sanitized build)"
CHALK=build/asan/chalk QUIET=1 cmocka build/chalk-test

phase "5. flashcards, practice problems, chalk check-answers"
if tests/deps.sh book; then
    out=$(tests/practice/run.sh 2>&1)
    printf '%s\n' "$out" | grep -v '^ok - ' || true
    counts=$(printf '%s\n' "$out" | sed -n 's/^practice: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
    if [ -n "$counts" ]; then
        passed=$((passed + ${counts% *}))
        failed=$((failed + ${counts#* }))
    else
        echo "run.sh: tests/practice/run.sh ended without its summary: counted as a failure"
        failed=$((failed + 1))
    fi
else
    echo "run.sh: pandoc/TeX Live missing and not installable: counted as a failure"
    failed=$((failed + 1))
fi

phase "6. the reader's loop and the classroom (tests/loop/test_loop.sh, in a scratch copy)"
out=$(tests/loop/test_loop.sh 2>&1)
printf '%s\n' "$out" | grep -v -e '^ok - ' -e '^handout-check: ok' || true
counts=$(printf '%s\n' "$out" | sed -n 's/^loop and classroom: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
if [ -n "$counts" ]; then
    passed=$((passed + ${counts% *}))
    failed=$((failed + ${counts#* }))
else
    echo "run.sh: tests/loop/test_loop.sh ended without its summary: counted as a failure"
    failed=$((failed + 1))
fi

phase "7. the book: filter golden tests, bad input stops the build, both editions build"
QUIET=1 cmocka book/tests/run.sh

printf '\n%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
