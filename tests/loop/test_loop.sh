#!/usr/bin/env bash
# test_loop.sh -- make test's proof of the reader's loop, run in a scratch copy of
# the tree (your exercises/ and build/ are not touched).
#
#   reader:     check on the stubs; fix one exercise and see check and progress
#               change; progressive and test-specific hints; solution only after
#               success; reset (one exercise, then the chapter) with backups that
#               survive make clean; a hung exercise in check; watch (poll, inotify)
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
        expect "$c: exercises.txt shows no hint (they are in tests/$c/hints.txt)" \
            eval '! grep -i "^hint" "exercises/$c/exercises.txt" >/dev/null'
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
    expect "check gives the first hint of the first failing exercise" has "$out" "Hint 1 of 3 for roofline_terms"
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
    expect "make hint shows one more hint (2 of 3)" has "$out" "Hint 2 of 3 for roofline_terms"
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
