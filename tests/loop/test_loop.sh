#!/usr/bin/env bash
# test_loop.sh -- make test's proof of the reader's loop, run in a scratch copy of
# the tree (your exercises/ and build/ are not touched).
#
#   reader:     check on the stubs; fix one exercise and see check and progress
#               change; progressive and test-specific hints; solution only after
#               success; reset (one exercise, then the chapter) with backups that
#               survive make clean; a hung exercise in check; watch (poll, inotify)
#   hostile:    the calculator review's rows 12-15 (../shared/reviews/calculator-2026-11.md):
#               CH=, EX= and FORCE= reach the scripts as text, never as shell; CH='01 02'
#               runs both; CH with a newline matches nothing; reset restores a
#               deleted stub
#   (the handout and the grader have their own: tests/grade/test_grade.sh)
#
# Prints "ok - ..." or "FAIL - ..." per fact, then "loop: N passed, N failed",
# which run.sh adds to make test's totals. Exits 1 on a FAIL.
# Usage: tests/loop/test_loop.sh
#   KEEP=1        leave the scratch copy in place (its path is in the output) to look at
# shellcheck disable=SC2012,SC2016 # ls to count backups; eval's argument is quoted on purpose
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
here=$(pwd)
[ $# -eq 0 ] || {
    echo "usage: tests/loop/test_loop.sh (no arguments)" >&2
    exit 2
}
fails=0 passes=0
ok() {
    echo "ok - $*"
    passes=$((passes + 1))
}
fail() {
    echo "FAIL - $*"
    fails=$((fails + 1))
}
# expect DESCRIPTION COMMAND...: the command must succeed
expect() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else fail "$what"; fi
}
# (no grep -q after a pipe: under pipefail an early exit would fail the writer)
has() { printf '%s\n' "$1" | grep -F -- "$2" >/dev/null; }
hasnt() { ! has "$@"; }

scratch=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$scratch"' EXIT
git ls-files -co --exclude-standard | grep -v '/\.backup/' | tar -cf - -T - | tar -xf - -C "$scratch"
echo "scratch copy: $scratch"
cd "$scratch" || exit 2
git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm pristine
. tests/loop/lib.sh
CH=01-batching
stub=exercises/$CH/batching.c
ref=solutions/$CH/batching.c
funcs_of() { loop_exercises "$CH" | awk -F'\t' -v ex="$1" '$1 == ex { print $5 }'; }
# Makes the reader's file pass exercise $1: the reference's functions spliced in.
solve() { loop_splice "$stub" "$ref" "$(funcs_of "$1")" >"$scratch/x.c" && cp "$scratch/x.c" "$stub"; }
# A reader's functions with catalogued mistakes (a MAC counted once, a search one
# past its limit) and one that is wrong in a way no mistake of the catalogue is.
# (Written unlike the reference: the handout carries this file, and its leak check
# looks for reference lines.)
cat >"$scratch/mistaken.c" <<'C'
double batching_compute_s(const batching_deploy *d, double batch)
{
    return batch * d->params_active / (d->chips * d->flops_per_s); /* a FLOP a weight */
}

batching_limit batching_max_batch_hbm(const batching_deploy *d, double context_tokens)
{
    batching_limit l = {false, 0};
    double room = d->chips * d->hbm_bytes - d->params_total * d->bytes_per_param;
    long n = (long)floor(room / (context_tokens * d->kv_bytes_per_token)) + 1;
    if (n > 1) {
        l.exists = true;
        l.batch = n;
    }
    return l;
}

double batching_hw_ratio(double flops_per_s, double hbm_bytes_per_s, double bytes_per_param)
{
    return 3.0 * flops_per_s * bytes_per_param / hbm_bytes_per_s;
}
C

if true; then # the reader
    echo "-- every chapter: tests, exercises.txt and functions agree"
    CFLAGS_STRICT="-std=c11 -O1 -g -Wall -Wextra -Wpedantic -Werror -Wshadow -Wmissing-prototypes -Wstrict-prototypes"
    for c in $(loop_chapters); do
        make -s "build/ex/$c/test" >/dev/null 2>&1
        ids=$(loop_exercises "$c" | cut -f1)
        names=$(CHALK_LIST=1 "build/ex/$c/test")
        if ls tests/"$c"/hidden/*.c >/dev/null 2>&1; then
            # shellcheck disable=SC2086 # a list of flags
            if cc $CFLAGS_STRICT -include tests/loop/runner.h -Ilib -Iexercises/"$c" -o "$scratch/hidden-$c" \
                tests/"$c"/hidden/*.c solutions/"$c"/*.c lib/*.c -lcmocka -lm; then
                ok "$c: hidden tests compile warning-free (-Werror)"
                names=$(printf '%s\n%s\n' "$names" "$(CHALK_LIST=1 "$scratch/hidden-$c")")
            else
                fail "$c: hidden tests do not compile warning-free"
            fi
        fi
        # (make check builds without -Werror: the stub's own proof is here)
        # shellcheck disable=SC2086 # a list of flags
        expect "$c: the stub compiles warning-free (-Werror)" \
            cc $CFLAGS_STRICT -Ilib -Iexercises/"$c" -fsyntax-only exercises/"$c"/*.c
        stray=$(printf '%s\n' "$names" | sed 's/: .*//' | sort -u | grep -vxF -f <(printf '%s\n' "$ids") | tr '\n' ' ')
        expect "$c: every test names an exercise of exercises.txt${stray:+ (not: $stray)}" test -z "$stray"
        untested=$(for id in $ids; do printf '%s\n' "$names" | grep "^$id: " >/dev/null || printf '%s ' "$id"; done)
        expect "$c: every exercise has tests${untested:+ (not: $untested)}" test -z "$untested"
        missing=""
        for fn in $(loop_exercises "$c" | cut -f5); do
            for tree in exercises solutions; do
                cat "$tree/$c"/*.c | loop_c_functions /dev/stdin | cut -f1 | grep -xF "$fn" >/dev/null || missing="$missing $tree:$fn"
            done
        done
        expect "$c: every functions: name is defined in the stub and the reference${missing:+ (not:$missing)}" test -z "$missing"
        # (each exercise's "hint:" line is only the command that shows its hints)
        chn=${c%%-*}
        want=$(awk -v n="$chn" '/^exercise:/ { print "hint: make hint CH=" n " EX=" $2 " shows its hints, one at a time" }' "exercises/$c/exercises.txt")
        expect "$c: exercises.txt shows no hint, only how to ask for one (they are in tests/$c/hints.txt)" \
            test "$(grep -i "^hint" "exercises/$c/exercises.txt")" = "$want"
        hid=$(awk '/^exercise:/ { print $2 }' "tests/$c/hints.txt" 2>/dev/null | sort -u)
        stray=$(printf '%s\n' "$hid" | grep -vxF -f <(printf '%s\n' "$ids") | tr '\n' ' ')
        expect "$c: hints.txt names only exercises of exercises.txt${stray:+ (not: $stray)}" test -z "$stray"
        nohint=$(for id in $ids; do [ -n "$(loop_hints "$c" "$id" | grep '^general')" ] || printf '%s ' "$id"; done)
        expect "$c: every exercise has hints in tests/$c/hints.txt${nohint:+ (not: $nohint)}" test -z "$nohint"
    done

    echo "-- the reader's loop"
    n_ex=$(loop_exercises "$CH" | wc -l)
    n_stars=$(loop_exercises "$CH" | awk -F'\t' '{ s += $2 } END { print s }')
    out=$(make -s check CH=01 2>&1)
    rc=$?
    expect "check on the stubs exits non-zero" test $rc -ne 0
    expect "check prints a ✗ line per exercise ($n_ex)" test "$(printf '%s\n' "$out" | grep -c '^  ✗ ')" = "$n_ex"
    expect "check says what was computed and expected, with the unit" \
        has "$out" "computed batching_compute_s(&d, 2400) = 0 s"
    expect "check says how to ask for a hint (make hint CH=01 EX=roofline_terms), none seen" \
        has "$out" "make hint CH=01 EX=roofline_terms shows a hint (0 of its 3 seen so far)"
    first_hint=$(loop_hint_order "$CH" roofline_terms | head -1 | cut -f2)
    expect "check never shows a hint by itself (not the first of roofline_terms)" hasnt "$out" "${first_hint:0:60}"
    expect "  and counts none as seen (build/loop/hints-seen empty)" test ! -s build/loop/hints-seen
    out=$(make -s hint 2>&1)
    rc=$?
    expect "make hint without CH= or EX=, no file edited yet: asks which (exit 2), counts no hint" \
        eval '[ $rc = 2 ] && has "$out" "say which: make hint CH=01" && [ ! -s build/loop/hints-seen ]'
    expect "check on the stubs names no mistake (a placeholder is no mistake's value)" \
        hasnt "$out" "this is the value you get"
    expect "check builds the table of the mistakes' values when it is missing" test -s build/mistakes/$CH.tsv
    out=$(make -s progress 2>&1)
    expect "progress on the stubs: 0/$n_ex exercises, 0%" has "$out" "0/$n_ex"

    solve hardware_ratio
    out=$(make -s check CH=01 2>&1)
    rc=$?
    expect "after fixing hardware_ratio, check marks it ✓ 4/4" \
        test "$(printf '%s\n' "$out" | grep -c '✓ hardware_ratio *★ *4/4')" = 1
    expect "check still fails while other exercises fail" test $rc -ne 0
    out=$(make -s progress 2>&1)
    pct=$((100 / n_ex))
    expect "progress changes: 1/$n_ex exercises, 1/$n_stars stars, $pct%" \
        test "$(printf '%s\n' "$out" | grep -c "^01-batching *1/$n_ex *1/$n_stars *$pct%")" = 1

    out=$(make -s hint CH=01 2>&1)
    expect "make hint shows the first hint (1 of 3)" has "$out" "Hint 1 of 3 for roofline_terms"
    expect "  (the idea, first in hints.txt)" has "$out" "${first_hint:0:40}"
    out=$(make -s check CH=01 2>&1)
    expect "check counts the hints asked for, and only those (1 of 3)" has "$out" "(1 of its 3 seen so far)"
    out=$(NO_HINT=1 make -s check CH=01 2>&1)
    expect "NO_HINT=1 leaves out the line on hints" hasnt "$out" "make hint CH="
    out=$(make -s hint 2>&1)
    expect "make hint without CH= shows one more hint (2 of 3) of the chapter edited last" has "$out" "Hint 2 of 3 for roofline_terms"
    expect "  and says which chapter that is" has "$out" "(chapter 01-batching: the one you edited last"
    # "Edited last" between two chapters, and within one chapter the newest file that
    # differs (not the first): chapter 02 gets an old extra file (first by name) and
    # its own file edited after chapter 01's, so 02 comes first; then 01's, newer again.
    other=$(loop_chapters | sed -n 2p)
    ofile=$(ls exercises/"$other"/*.c | head -1)
    cp -p "$ofile" "$scratch/other.c"
    t1=$(stat -c %Y "$stub")
    printf '/* a note */\n' >exercises/"$other"/000-note.c
    touch -d "@$((t1 - 100))" exercises/"$other"/000-note.c
    printf '/* edited */\n' >>"$ofile"
    touch -d "@$((t1 + 100))" "$ofile"
    expect "the chapters edited, newest file first: $other (its newest differing file, not its first), then $CH" \
        test "$(loop_changed_chapters | tr '\n' ' ')" = "$other $CH "
    touch -d "@$((t1 + 200))" "$stub"
    expect "  and $CH first once its file is the newest" test "$(loop_changed_chapters | tr '\n' ' ')" = "$CH $other "
    rm -f exercises/"$other"/000-note.c
    cp -p "$scratch/other.c" "$ofile"
    expect "  and $other drops out once its file is its stub again" test "$(loop_changed_chapters | tr '\n' ' ')" = "$CH "
    out=$(make -s hint CH=01 2>&1)
    expect "and again (3 of 3)" has "$out" "Hint 3 of 3 for roofline_terms"
    out=$(make -s hint CH=01 2>&1)
    expect "then lists every hint" has "$out" "You have seen every hint for roofline_terms"
    out=$(make -s hint EX=step_time 2>&1)
    expect "the failing test's own hint comes first (hint@decode_at_batch_1...)" \
        has "$out" "At batch 1 the weight fetch dwarfs"
    expect "hint state lives in build/, not in exercises/" test -s build/loop/hints-seen

    out=$(make -s solution EX=hardware_ratio 2>&1)
    rc=$?
    expect "solution for a passing exercise shows the reference" \
        test $rc = 0 -a "$(printf '%s\n' "$out" | grep -c 'multiplies_per_s \* bytes_per_param')" = 1
    out=$(make -s solution EX=step_time 2>&1)
    rc=$?
    expect "solution for a failing exercise refuses, shows no code" test $rc -ne 0
    expect "  (no reference line in its output)" hasnt "$out" "s.step_s = fmax"
    out=$(make -s solution EX=step_time FORCE=1 2>&1)
    expect "FORCE=1 shows it with a warning" has "$out" "WARNING: FORCE=1"
    expect "  (and only that exercise's functions)" hasnt "$out" "batching_train_departures"

    solve train_departures
    cp "$stub" "$scratch/mine.c"
    out=$(make -s reset EX=hardware_ratio 2>&1)
    backups=$(ls exercises/$CH/.backup/ 2>/dev/null | wc -l)
    expect "reset EX= keeps a timestamped backup of the reader's file" test "$backups" = 1
    expect "  (the backup is the reader's version)" cmp -s "$scratch/mine.c" exercises/$CH/.backup/batching.c.*
    out=$(make -s check CH=01 2>&1)
    expect "reset EX= puts that exercise back to the stub (✗ hardware_ratio)" has "$out" "✗ hardware_ratio"
    expect "  and leaves the reader's other work (✓ train_departures)" has "$out" "✓ train_departures"
    make -s reset CH=01 >/dev/null 2>&1
    expect "reset CH= restores the whole chapter's stub" cmp -s "$stub" "$here/$stub"
    expect "  with a second backup" test "$(ls exercises/$CH/.backup/ | wc -l)" = 2
    out=$(make -s reset 2>&1)
    expect "reset without EX or CH: one line, exit 2" test $? -ne 0 -a "$(printf '%s\n' "$out" | grep -c '^reset:')" = 1
    out=$(make -s check CH=99 2>&1)
    expect "check CH=99 (no such chapter) fails with a message" test $? -ne 0 -a -n "$out"

    solve hardware_ratio
    cp "$stub" "$scratch/hung.c"
    cat >"$scratch/hang.c" <<'C'
batching_departures batching_train_departures(double hbm_bytes, double hbm_bytes_per_s)
{
    batching_departures t = {0};
    for (volatile double x = hbm_bytes; x >= 0; x = hbm_bytes_per_s) {
    }
    return t;
}
C
    loop_splice "$scratch/hung.c" "$scratch/hang.c" batching_train_departures >"$stub"
    t0=$(date +%s)
    out=$(CHALK_TIMEOUT=1 make -s check CH=01 2>&1)
    t1=$(date +%s)
    expect "check with an endless loop finishes ($((t1 - t0)) s) and names it" has "$out" "did not finish within 1 s"
    expect "  and still reports the other exercises (✓ hardware_ratio)" has "$out" "✓ hardware_ratio"
    git show HEAD:"$stub" >"$stub"

    echo "-- warnings never hide results; a function that does not compile fails alone"
    solve hardware_ratio
    solve train_departures
    cp "$stub" "$scratch/solved2.c"
    # an unused variable and a set-but-unused one (the students' moe.c:173 and :255)
    cat >"$scratch/warn.c" <<'C'
double batching_compute_s(const batching_deploy *d, double batch)
{
    int unused_count;
    double set_but_unused;
    set_but_unused = batch;
    (void)d;
    return 0.0;
}
C
    loop_splice "$scratch/solved2.c" "$scratch/warn.c" batching_compute_s >"$stub"
    out=$(make -s check CH=01 2>&1)
    expect "a file with warnings: check shows them (unused variable)" eval 'has "$out" "warning: unused variable ‘unused_count’" || has "$out" "warning: unused variable '"'"'unused_count'"'"'"'
    expect "  and still reports every exercise ($n_ex lines, ✓ hardware_ratio)" \
        eval 'test "$(printf "%s\n" "$out" | grep -cE "^  (✓|✗) ")" = "$n_ex" && has "$out" "✓ hardware_ratio"'
    expect "  and says the grader would accept it (it ignores warnings)" \
        has "$out" "The grader would accept exercises/$CH/batching.c as it stands"
    out=$(make -s check CH=01 2>&1)
    expect "  and shows the warnings again on a run that recompiles nothing" has "$out" "unused_count"
    cat >"$scratch/broken.c" <<'C'
double batching_compute_s(const batching_deploy *d, double batch)
{
    return batch * d->params_active / undeclared_rate;
}
C
    loop_splice "$scratch/solved2.c" "$scratch/broken.c" batching_compute_s >"$stub"
    out=$(make -s check CH=01 2>&1)
    expect "a function that does not compile: its exercise fails, saying so" \
        has "$out" "does not compile: batching_compute_s ($stub:"
    expect "  the other exercises still report (✓ hardware_ratio, ✓ train_departures)" \
        eval 'has "$out" "✓ hardware_ratio" && has "$out" "✓ train_departures"'
    expect "  and no mistake is named while a function is put back (its callers fail for that reason)" \
        eval 'hasnt "$out" "this is the value you get if" && has "$out" "no mistake is named until they compile"'
    expect "  the compiler's error is shown" eval 'has "$out" "‘undeclared_rate’ undeclared" || has "$out" "'"'"'undeclared_rate'"'"' undeclared"'
    expect "  and the grader would score the chapter zero (it compiles the whole file)" \
        has "$out" "The grader would score chapter $CH zero: $stub does not compile"
    printf 'int stray_line_outside_any_function(;\n' >>"$stub"
    out=$(make -s check CH=01 2>&1)
    expect "an error outside any function: the chapter does not compile, said once" \
        has "$out" "✗ $CH does not compile"

    echo "-- the grader's rules in make check, and the grader agrees"
    # each known case added to a file that passes hardware_ratio: make check must name
    # the rule and its fix and exit non-zero, and make grade must score it zero; the
    # same file without the case is accepted by both
    rule_cases=("int g_counter;|a global variable g_counter (make it static"
        "#include \"../02-moe/moe.h\"|remove the #include"
        "__attribute__((constructor)) static void early(void) { }|the attribute constructor is not allowed (it places code or runs it outside the tests): remove it"
        "double helper_twice(double x) { return 2 * x; }|a global function helper_twice that is not one of the contract's functions (make it static)")
    graded() { # graded NAME FILE: the score make grade gives FILE as chapter 1's batching.c
        mkdir -p "$scratch/sub-$1/exercises/$CH" && cp "$2" "$scratch/sub-$1/exercises/$CH/batching.c"
        OUT="$scratch/grade-$1.json" GRADE_CACHE="$scratch/grade-cache" tests/grade/grade.sh "$scratch/sub-$1" "$CH" >/dev/null 2>&1
        jq -r .score "$scratch/grade-$1.json" 2>/dev/null
    }
    git show HEAD:"$stub" >"$stub"
    solve hardware_ratio
    cp "$stub" "$scratch/solved1.c"
    if tests/deps.sh grade >/dev/null 2>&1; then can_grade=1; else can_grade=0; fi
    out=$(make -s check CH=01 2>&1)
    expect "a file that keeps the rules: check says the grader would accept it" \
        has "$out" "The grader would accept exercises/$CH/batching.c as it stands"
    if [ $can_grade = 1 ]; then
        base=$(graded base "$stub")
        expect "  and make grade scores it above zero ($base)" awk -v s="$base" 'BEGIN { exit !(s > 0) }'
    else
        fail "make grade cannot run here (tests/deps.sh grade failed): the agreement is unproven"
    fi
    i=0
    for c in "${rule_cases[@]}"; do
        i=$((i + 1))
        { cat "$scratch/solved1.c"; printf '%s\n' "${c%%|*}"; } >"$stub"
        out=$(make -s check CH=01 2>&1)
        rc=$?
        expect "check on a file with: ${c%%|*}: exits non-zero and names the rule with its fix" \
            eval '[ $rc -ne 0 ] && has "$out" "The grader would score chapter $CH zero" && has "$out" "${c#*|}"'
        expect "  and its summary line says so too, beside the stars" \
            eval 'printf "%s\n" "$out" | grep -q "^$CH: [0-9]* of [0-9]* exercises done, .* stars (but the grader would score this chapter 0 as it stands"'
        if [ $can_grade = 1 ]; then
            score=$(graded "case$i" "$stub")
            expect "  and make grade scores it zero (${score:-no score})" test "$score" = 0
        fi
    done
    # a source rule and an object rule in one file: both named, by make check and by the grader
    { cat "$scratch/solved1.c"; printf '%s\n' "${rule_cases[2]%%|*}" "${rule_cases[0]%%|*}"; } >"$stub"
    out=$(make -s check CH=01 2>&1)
    expect "check on a file that breaks a source rule and an object rule names both in one run" \
        eval 'has "$out" "the attribute constructor is not allowed" && has "$out" "a global variable g_counter"'
    if [ $can_grade = 1 ]; then
        score=$(graded both "$stub")
        expect "  and so does make grade (score ${score:-none}; both in its results.json)" \
            eval '[ "$score" = 0 ] && grep -q "the attribute constructor.*is not allowed" "$scratch/grade-both.json" && grep -q "a global variable g_counter" "$scratch/grade-both.json"'
    fi
    cp "$scratch/solved1.c" "$stub"
    out=$(make -s check CH=01 2>&1)
    expect "  (and the file without them is accepted again)" has "$out" "The grader would accept"
    expect "  (and its summary line no longer warns)" hasnt "$out" "but the grader would score this chapter 0"

    echo "-- the sanitizers"
    cat >"$scratch/overflow.c" <<'C'
double batching_hw_ratio(double flops_per_s, double hbm_bytes_per_s, double bytes_per_param)
{
    double seen[2] = {flops_per_s, hbm_bytes_per_s};
    volatile int i = 2;
    int big = 2147483647;
    big += i; /* signed overflow: undefined */
    return seen[i % 2] * bytes_per_param + big;
}
C
    loop_splice "$scratch/solved1.c" "$scratch/overflow.c" batching_hw_ratio >"$stub"
    out=$(make -s check CH=01 2>&1)
    expect "check runs the tests under UBSan: a signed overflow is named, with its line" \
        has "$out" "UndefinedBehaviorSanitizer: $stub:"
    out=$(CHALK_SANITIZE=0 make -s check CH=01 2>&1)
    expect "  CHALK_SANITIZE=0 builds without them (no sanitizer's report)" hasnt "$out" "Sanitizer"
    git show HEAD:"$stub" >"$stub"

    echo "-- a failing assertion that ends in a comment (issue 24.5)"
    # the failure message quotes the assertion; a /* comment */ after its semicolon
    # once made check join the lines that follow, up to the next statement's end
    t=$(grep -l '^    assert_true(b\.exists);$' tests/$CH/*.c | head -1) # the public file that has it
    n=$(grep -n -m1 '^    assert_true(b\.exists);$' "$t" | cut -d: -f1)
    expect "  (the public test has the line: $t:$n assert_true(b.exists);)" test -n "$n"
    sed -i "${n}s|;\$|; /* the balance batch exists */|" "$t"
    out=$(make -s check CH=01 2>&1)
    expect "check quotes the assertion alone: expected true, but it is false: b.exists" \
        test "$(printf '%s\n' "$out" | grep -c '^ *expected true, but it is false: b\.exists$')" = 1
    expect "  without its comment" hasnt "$out" "the balance batch exists"
    expect "  nor the next line of the test" hasnt "$out" "b.exists); assert_close"
    sed -i "${n}s|; /\* the balance batch exists \*/\$|; // the balance batch exists; \"quoted\" /*|" "$t"
    out=$(make -s check CH=01 2>&1)
    expect "  and the same with a // comment (holding a ; a string and a /*)" \
        test "$(printf '%s\n' "$out" | grep -c '^ *expected true, but it is false: b\.exists$')" = 1
    git show HEAD:"$t" >"$t"

    echo "-- an integer assertion: a negative value is negative, a literal said once"
    # cmocka prints assert_int_equal's values as 64-bit hex: a stub's -1 is
    # 0xffffffffffffffff, once shown as 1.84467e+19; a literal expected value was
    # shown as "expected 3 = 3" (trial readers of chapters 5 and 6)
    git show HEAD:"$stub" >"$stub"
    awk '/^long batching_all_experts_batch/ { f = 1 } f && /^    return 0;$/ { sub(/return 0;/, "return -1;"); f = 0 } { print }' \
        "$stub" >"$stub.tmp" && mv "$stub.tmp" "$stub"
    out=$(make -s check CH=01 VERBOSE=1 2>&1)
    expect "check shows a stub's -1 as -1 (batching_all_experts_batch returning -1)" \
        has "$out" "computed batching_all_experts_batch(&d, 0.125) = -1"
    expect "  and a literal expected value once (expected 3)" \
        eval 'printf "%s\n" "$out" | grep -qx " *expected 3" && ! has "$out" "expected 3 = 3" && ! has "$out" "e+19"'
    git show HEAD:"$stub" >"$stub"

    echo "-- every setting of the loop is in make help and the README"
    knobs=$(for f in tests/check.sh tests/loop/hint.sh tests/loop/watch.sh tests/loop/solution.sh \
        tests/loop/reset.sh tests/loop/progress.sh tests/loop/submission.sh; do
        awk 'NR > 1 && !/^#/ { exit } { print }' "$f" | grep -oE '\<[A-Z][A-Z_]+=' | sort -u
    done | sort -u)
    expect "  (the scripts' headers name settings: $(printf '%s' "$knobs" | tr '\n' ' '))" \
        eval 'has "$knobs" NO_HINT= && has "$knobs" CHALK_TIMEOUT='
    help=$(make -s help 2>&1)
    hhelp=$(make -s -f tests/grade/handout.mk help 2>&1)
    for k in $knobs; do
        expect "$k is in make help, the handout's make help and README.md" \
            eval 'has "$help" "$k" && has "$hhelp" "$k" && grep -qF "\`$k" README.md'
    done

    echo "-- nothing in a handout points to solutions/"
    mkdir -p "$scratch/pointer/exercises/$CH"
    cp exercises/$CH/*.h exercises/$CH/*.c "$scratch/pointer/exercises/$CH/"
    printf '/* the reference is solutions/%s/batching.c */\n' "$CH" >>"$scratch/pointer/exercises/$CH/batching.h"
    out=$(tests/grade/handout-check.sh "$scratch/pointer" 2>&1)
    expect "the handout check refuses a contract that points to solutions/" has "$out" "points to solutions/"
    out=$(grep -rlF 'solutions/' exercises tests/[0-9][0-9]-*/ --include='*.[ch]' --include=exercises.txt --include=hints.txt | grep -v '/hidden/' | tr '\n' ' ')
    expect "no contract, stub, exercise list, hint or public test points to solutions/${out:+ (}${out}${out:+)}" test -z "$out"
    cp solutions/$CH/batching.c "$stub"
    mv solutions "$scratch/solutions.away"
    out=$( (make -s check CH=01; make -s hint CH=01) 2>&1)
    expect "without solutions/ (a handout), check and hint on a passing chapter name no make solution" \
        eval 'has "$out" "Everything passes" && hasnt "$out" "make solution"'
    mv "$scratch/solutions.away" solutions
    git show HEAD:"$stub" >"$stub"

    echo "-- the handout says how to get and check more practice problems"
    out=$(make -s -f tests/grade/handout.mk problems SEED=alice 2>&1)
    expect "its make problems SEED=alice says it cannot draw them, why, where they come from and how to check them" \
        eval 'has "$out" "cannot draw them (not even SEED=alice)" && has "$out" "reference solutions" &&
            has "$out" "make problems SEED=yourname" && has "$out" "make check-answers"'
    expect "  and its README says the same" grep -q "this handout cannot draw them" tests/grade/handout-README.md

    echo "-- make submission"
    git show HEAD:"$stub" >"$stub"
    rm -f build/submission.tar.gz
    out=$(make -s submission 2>&1)
    rc=$?
    expect "with nothing changed and no CH: packs nothing, says to name CH, exits non-zero" \
        eval '[ $rc != 0 ] && has "$out" "make submission CH=01" && [ ! -e build/submission.tar.gz ]'
    solve hardware_ratio
    out=$(make -s submission 2>&1)
    expect "by default: the chapters the reader changed (chapter 1 only)" \
        test "$(tar -tzf build/submission.tar.gz | tr '\n' ' ')" = "$(ls exercises/$CH/*.c | tr '\n' ' ')"
    out=$(make -s submission CH=02 2>&1)
    expect "CH=02: that chapter's .c files, nothing else" \
        test "$(tar -tzf build/submission.tar.gz | tr '\n' ' ')" = "$(ls exercises/02-*/*.c | tr '\n' ' ')"
    printf 'int g_counter;\n' >>"$stub"
    rm -f build/submission.tar.gz
    out=$(make -s submission CH=01 2>&1)
    rc=$?
    expect "  a file the grader would refuse (a global), make check not run: it applies the rules itself and packs nothing (exit 2, the rule and FORCE=1 named)" \
        eval '[ $rc = 2 ] && has "$out" "a global variable g_counter (make it static" && has "$out" "FORCE=1" && [ ! -e build/submission.tar.gz ]'
    out=$(make -s submission CH=01 FORCE=1 2>&1)
    expect "  and FORCE=1 packs it, with a warning" \
        eval 'has "$out" "WARNING: the grader would score it zero" && [ -f build/submission.tar.gz ]'
    printf 'double g_a;\nint g_b(void) { return 1; }\n' >>"$stub"
    make -s check CH=01 >/dev/null 2>&1
    expect "make check names every object rule a file breaks in one run (two globals and a global function)" \
        eval 'v=$(cat build/rules/$CH/batching.txt); has "$v" "g_counter" && has "$v" "g_a" && has "$v" "global function g_b"'
    git show HEAD:"$stub" >"$stub"

    echo "-- hostile values (the calculator review, rows 12-15)"
    pwned=$scratch/pwned
    for goal in hint reset solution check watch; do
        for var in CH EX; do
            [ "$goal $var" != "watch EX" ] || continue # watch takes no EX: it would watch
            rm -f "$pwned"
            timeout 20 make -s $goal "$var=x'; touch $pwned; echo '" >/dev/null 2>&1
            timeout 20 make -s $goal "$var=\"; touch $pwned; echo \"" >/dev/null 2>&1
            timeout 20 make -s $goal "$var=\`touch $pwned\`" >/dev/null 2>&1
            timeout 20 make -s $goal "$var=\$(touch $pwned)" >/dev/null 2>&1
            expect "row 12: make $goal $var=<a quote, backquotes, \$()> runs no command" test ! -e "$pwned"
        done
    done
    rm -f "$pwned"
    timeout 20 make -s solution EX=step_time "FORCE=x'; touch $pwned; echo '" >/dev/null 2>&1
    expect "row 12: make solution FORCE=<a quote> runs no command" test ! -e "$pwned"
    out=$(make -s check CH=$'a\nb' 2>&1)
    rc=$?
    expect "row 13: make check CH=<a newline> says no chapter matches (exit $rc)" \
        test $rc -ne 0 -a "$(printf '%s\n' "$out" | grep -c 'no chapter matches')" = 1
    out=$(make -s hint CH=$'a\nb' 2>&1)
    expect "row 13: make hint CH=<a newline> says no chapter matches" has "$out" "no chapter matches"
    out=$(make -s check CH='01 02' 2>&1)
    expect "row 15: make check CH='01 02' checks chapter 1" has "$out" "01-batching"
    expect "row 15:   and chapter 2" has "$out" "02-moe"
    out=$(make -s check CH='01 zz' 2>&1)
    expect "row 15: make check CH='01 zz' (zz matches nothing) says so" has "$out" "no chapter matches"
    rm -f "$stub"
    out=$(make -s reset CH=01 2>&1)
    expect "row 14: make reset CH=01 restores a deleted stub" cmp -s "$stub" "$here/$stub"
    expect "row 14:   and says so" has "$out" "was missing"
    rm -f "$stub"
    make -s reset EX=hardware_ratio >/dev/null 2>&1
    expect "row 14: make reset EX=hardware_ratio restores a deleted stub too" cmp -s "$stub" "$here/$stub"
    git show HEAD:"$stub" >"$stub"

    echo "-- the mistake catalogue names a reader's mistake"
    loop_splice "$stub" "$scratch/mistaken.c" "batching_compute_s batching_max_batch_hbm batching_hw_ratio" >"$scratch/x.c" &&
        cp "$scratch/x.c" "$stub"
    out=$(make -s check CH=01 2>&1)
    expect "check names the catalogued mistake whose value a failure computes (MAC counted once)" \
        has "$out" "this is the value you get if you count a multiply-accumulate as one FLOP"
    expect "  (shown with 6 digits, matched on all 17: the reader multiplies in another order)" \
        has "$out" "computed batching_compute_s(&d, 2400) = 0.000123333 s"
    expect "  and an integer search one past its limit (186, not 185)" \
        has "$out" "this is the value you get if you return the first batch that breaks the limit"
    expect "  and no mistake for a value none of them gives (3x the ratio)" \
        test "$(printf '%s\n' "$out" | grep -c 'this is the value you get')" = 2
    out=$(VERBOSE=1 make -s check CH=01 2>&1)
    expect "  VERBOSE=1 names it under every failing test it explains" \
        test "$(printf '%s\n' "$out" | grep -c 'return the first batch that breaks')" -gt 1
    git show HEAD:"$stub" >"$stub"

    echo "-- make test fails, naming it, on a mistake not caught, not applying, not compiling or malformed"
    cp tests/$CH/mistakes.txt "$scratch/mistakes.txt"
    # (the reference's line read from it: the handout carries this file, and its leak
    # check looks for reference lines)
    r=$(grep -m1 'hw_ratio \* sparsity' "$ref" | sed 's/^[[:space:]]*//')
    expect "  (the fixtures' reference line: $r)" test -n "$r"
    {
        printf '\nmistake: survives-the-tests\nsays: write it the other way round\n'
        printf 'replace: %s\nwith: return sparsity * hw_ratio;\n' "$r"
        printf '\nmistake: replaces-nothing\nsays: change a line the reference does not have\n'
        printf 'replace: return 42.0;\nwith: return 43.0;\n'
        printf '\nmistake: replaces-twice\nsays: change a text the reference has twice\n'
        printf 'replace: return b;\nwith: return b;\n'
        printf '\nmistake: does-not-compile\nsays: forget a semicolon\n'
        printf 'replace: %s\nwith: %s\n' "$r" "${r%;}"
        printf '\nmistake: Not_Kebab\nsays: use an id with capitals\n'
        printf 'replace: %s\nwith: return 2 * hw_ratio * sparsity;\n' "$r"
    } >>tests/$CH/mistakes.txt
    make -s build/mistakes/$CH.tsv >/dev/null 2>&1
    out=$(PHASES=3 tests/run.sh $CH 2>&1)
    rc=$?
    expect "  the phase fails" test $rc -ne 0
    for what in "survives-the-tests survived" "replaces-nothing does-not-apply" "replaces-twice does-not-apply" \
        "does-not-compile does-not-compile" "Not_Kebab malformed"; do
        expect "  it names ${what% *}: ${what#* }" has "$out" "FAILURE: mistake $what"
    done
    expect "  and counts the caught ones" has "$out" "$CH: $(grep -c '^mistake: ' "$scratch/mistakes.txt") mistakes caught"
    cp "$scratch/mistakes.txt" tests/$CH/mistakes.txt

    echo "-- make watch"
    for how in poll inotify; do
        if [ $how = inotify ] && ! command -v inotifywait >/dev/null 2>&1; then
            echo "skip - watch with inotify: no inotifywait here (tests/deps.sh watch installs it)"
            continue
        fi
        poll=0
        [ $how = poll ] && poll=1
        CHALK_WATCH_POLL=$poll CHALK_WATCH_RUNS=2 timeout 30 tests/loop/watch.sh $CH >"$scratch/watch.out" 2>&1 &
        pid=$!
        for _ in $(seq 100); do grep -q 'watching exercises' "$scratch/watch.out" && break; sleep 0.1; done
        # save until watch has seen it (robust to a slow start of inotifywait)
        for _ in $(seq 40); do
            sleep 0.3
            kill -0 $pid 2>/dev/null || break
            echo "/* saved */" >>"$stub"
        done
        wait $pid
        rc=$?
        expect "watch ($how) re-runs check when a file changes" \
            test $rc = 0 -a "$(grep -c '^01-batching: ' "$scratch/watch.out")" = 2
        git show HEAD:"$stub" >"$stub"
    done

    make -s clean
    expect "make clean keeps the reader's backups" test -d exercises/$CH/.backup
fi

echo "loop: $passes passed, $fails failed"
[ $fails = 0 ]
