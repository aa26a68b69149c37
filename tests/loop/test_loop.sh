#!/usr/bin/env bash
# test_loop.sh -- make test's proof of the reader's loop and the classroom tools,
# run in a scratch copy of the tree (your exercises/ and build/ are not touched).
#
#   reader:     check on the stubs; fix one exercise and see check and progress
#               change; progressive and test-specific hints; solution only after
#               success; reset (one exercise, then the chapter) with backups that
#               survive make clean; a hung exercise in check; watch (poll, inotify)
#   instructor: handout (it runs make check, fails on the stubs, leaks nothing;
#               the leak check itself catches a leak); grade a correct submission
#               (full marks), the stubs (zero), one that segfaults, allocates
#               without bound and loops forever (those tests zero, the rest full);
#               bad submissions (one line, exit 2); grade-all's gradebook
#
# Prints "ok - ..." or "FAIL - ..." per fact, then "loop and classroom: N passed,
# N failed", which run.sh adds to make test's totals. Exits 1 on a FAIL.
#   KEEP=1   leave the scratch copy in place (its path is in the output) to look at
set -uo pipefail
cd "$(dirname "$0")/../.."
here=$(pwd)
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
mkdir -p "$scratch/pdfs" # the books, if built, for the handout (make clean comes first)
for pdf in build/chalk.pdf build/chalk-instructor.pdf; do [ -f "$pdf" ] && cp "$pdf" "$scratch/pdfs/"; done
echo "scratch copy: $scratch"
cd "$scratch"
git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm pristine
. tests/loop/lib.sh
CH=01-batching
stub=exercises/$CH/batching.c
ref=solutions/$CH/batching.c
funcs_of() { loop_exercises "$CH" | awk -F'\t' -v ex="$1" '$1 == ex { print $5 }'; }
# Makes the reader's file pass exercise $1: the reference's functions spliced in.
solve() { loop_splice "$stub" "$ref" "$(funcs_of "$1")" >"$scratch/x.c" && cp "$scratch/x.c" "$stub"; }

echo "-- every chapter: tests, exercises.txt and functions agree"
CFLAGS_STRICT="-std=c11 -O1 -g -Wall -Wextra -Wpedantic -Werror -Wshadow -Wmissing-prototypes -Wstrict-prototypes"
for c in $(loop_chapters); do
    make -s "build/ex/$c/test" >/dev/null 2>&1
    ids=$(loop_exercises "$c" | cut -f1)
    names=$(CHALK_LIST=1 "build/ex/$c/test")
    if ls tests/"$c"/hidden/*.c >/dev/null 2>&1; then
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
done

echo "-- the reader's loop"
out=$(make -s check CH=01 2>&1)
rc=$?
expect "check on the stubs exits non-zero" test $rc -ne 0
expect "check prints a ✗ line per exercise (8)" test "$(printf '%s\n' "$out" | grep -c '^  ✗ ')" = 8
expect "check says what was computed and expected, with the unit" \
    has "$out" "computed batching_compute_s(&d, 2400) = 0 s"
expect "check gives the first hint of the first failing exercise" has "$out" "Hint 1 of 3 for roofline_terms"
out=$(make -s progress 2>&1)
expect "progress on the stubs: 0/8 exercises, 0%" has "$out" "0/8"

solve hardware_ratio
out=$(make -s check CH=01 2>&1)
rc=$?
expect "after fixing hardware_ratio, check marks it ✓ 4/4" \
    test "$(printf '%s\n' "$out" | grep -c '✓ hardware_ratio *★ *4/4')" = 1
expect "check still fails while other exercises fail" test $rc -ne 0
out=$(make -s progress 2>&1)
expect "progress changes: 1/8 exercises, 1/12 stars, 12%" \
    test "$(printf '%s\n' "$out" | grep -c '^01-batching *1/8 *1/12 *12%')" = 1

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
make -s clean
expect "make clean keeps the backups" test -d exercises/$CH/.backup
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

echo "-- the handout"
mkdir -p build && cp "$scratch"/pdfs/*.pdf build/ 2>/dev/null
out=$(BOOK=0 make -s handout 2>&1)
expect "make handout writes build/chalk-handout.tar.gz" test -f build/chalk-handout.tar.gz
h=$scratch/handout
mkdir -p "$h"
tar -xzf build/chalk-handout.tar.gz -C "$h"
expect "the handout has no solutions/, calculator, hidden tests, answers or reference code" \
    tests/grade/handout-check.sh "$h/chalk"
expect "the leak check catches a leak (it flags the instructor tree)" \
    eval '! tests/grade/handout-check.sh . >/dev/null'
if [ -f build/chalk.pdf ]; then
    expect "the handout carries the book as chalk.pdf" test -s "$h/chalk/chalk.pdf"
fi
if [ -f build/chalk-instructor.pdf ] && command -v pdftotext >/dev/null 2>&1; then
    cp -r "$h/chalk" "$scratch/leaky" && cp build/chalk-instructor.pdf "$scratch/leaky/chalk.pdf"
    expect "the leak check catches the instructor edition passed off as chalk.pdf" \
        eval '! tests/grade/handout-check.sh "$scratch/leaky" >/dev/null'
fi
out=$(cd "$h/chalk" && make -s check CH=01 2>&1)
rc=$?
expect "the handout's make check runs and fails on the stubs" test $rc -ne 0
expect "  with the per-exercise report (8 ✗)" test "$(printf '%s\n' "$out" | grep -c '^  ✗ ')" = 8
out=$(cd "$h/chalk" && make -s progress 2>&1)
expect "the handout's make progress works" has "$out" "0/8"
(cd "$h/chalk" && echo '/* mine */' >>"$stub" && make -s reset CH=01 >/dev/null 2>&1)
expect "the handout's make reset restores from its pristine copy (no git)" cmp -s "$h/chalk/$stub" "$here/$stub"

echo "-- grading"
total_tests=$(( $(grep -c 'CHALK_TEST(' tests/$CH/*.c) + $(grep -c 'CHALK_TEST(' tests/$CH/hidden/*.c) ))
field() { sed -n "s/^  \"$1\": \\([0-9.]*\\).*/\\1/p" "$2"; }
maxof() { sed -n 's/.*"extra_data": {"max_score": \([0-9.]*\)}.*/\1/p' "$1"; }
OUT=$scratch/good.json tests/grade/grade.sh solutions "$CH" >/dev/null
expect "a correct submission gets full marks ($(field score "$scratch/good.json") of $(maxof "$scratch/good.json"))" \
    test "$(field score "$scratch/good.json")" = "$(maxof "$scratch/good.json")"
expect "  every test, hidden ones too, is in results.json ($total_tests)" \
    test "$(grep -c '"status": ' "$scratch/good.json")" = "$total_tests"
expect "  hidden tests carry their visibility" \
    test "$(grep -c '"visibility": "after_published"' "$scratch/good.json")" = "$(grep -c 'CHALK_TEST(' tests/$CH/hidden/*.c)"
mkdir -p "$scratch/flat"
cp "$ref" "$scratch/flat/"
OUT=$scratch/flat.json tests/grade/grade.sh "$scratch/flat" "$CH" >/dev/null
expect "a submission of the bare .c file (a Gradescope upload) is graded too" \
    test "$(field score "$scratch/flat.json")" = "$(maxof "$scratch/good.json")"
tar -czf "$scratch/stub.tar.gz" exercises
OUT=$scratch/stub.json tests/grade/grade.sh "$scratch/stub.tar.gz" "$CH" >/dev/null
expect "the stubs (as a tarball) score zero" test "$(field score "$scratch/stub.json")" = 0

mkdir -p "$scratch/bad/exercises/$CH"
{
    echo '#include <stdlib.h>'
    echo '#include <string.h>'
    cat "$ref"
} >"$scratch/bad.c"
cat >"$scratch/broken.c" <<'C'
double batching_hw_ratio(double flops_per_s, double hbm_bytes_per_s, double bytes_per_param)
{
    size_t n = (size_t)1 << 36; /* 64 GiB: beyond the grader's memory limit */
    char *p = malloc(n);
    memset(p, 1, n);
    return p[n - 1] * flops_per_s * hbm_bytes_per_s * bytes_per_param;
}
double batching_balance_batch_approx(double hw_ratio, double sparsity)
{
    volatile double *p = NULL;
    return *p * hw_ratio * sparsity;
}
batching_departures batching_train_departures(double hbm_bytes, double hbm_bytes_per_s)
{
    batching_departures t = {0};
    for (volatile double x = hbm_bytes; x >= 0; x = hbm_bytes_per_s) {
    }
    return t;
}
C
loop_splice "$scratch/bad.c" "$scratch/broken.c" "batching_hw_ratio batching_balance_batch_approx batching_train_departures" \
    >"$scratch/bad/exercises/$CH/batching.c"
t0=$(date +%s)
OUT=$scratch/bad.json TIMEOUT=1 timeout 120 tests/grade/grade.sh "$scratch/bad" "$CH" >/dev/null
rc=$?
t1=$(date +%s)
expect "a submission that crashes, over-allocates and loops is graded ($((t1 - t0)) s)" test $rc = 0
bad_zero=$(grep -E '"tags": \["01-batching", "(hardware_ratio|train_departures)"\]' "$scratch/bad.json" | grep -c '"score": 0,')
bad_all=$(grep -cE '"tags": \["01-batching", "(hardware_ratio|train_departures)"\]' "$scratch/bad.json")
expect "  the broken exercises' tests score zero ($bad_zero of $bad_all)" test "$bad_zero" = "$bad_all" -a "$bad_all" -gt 0
good_full=$(grep '"status": ' "$scratch/bad.json" | grep -vE '"(hardware_ratio|train_departures)"\]' |
    awk '{ s = $0; sub(/.*"score": /, "", s); sub(/,.*/, "", s); m = $0; sub(/.*"max_score": /, "", m); sub(/,.*/, "", m); if (s != m) bad++ } END { print bad + 0 }')
expect "  every other test gets its full points" test "$good_full" = 0
expect "  the loop is reported as such" grep -q 'did not finish within 1 s' "$scratch/bad.json"
expect "  the crash is reported as such" grep -q 'crashed: Segmentation fault' "$scratch/bad.json"

for sub in "" /nonexistent README.md lib; do
    err=$(tests/grade/grade.sh "$sub" 2>&1 >/dev/null)
    rc=$?
    expect "grade SUBMISSION='$sub' is rejected: one line, exit 2" test $rc = 2 -a "$(printf '%s\n' "$err" | wc -l)" = 1
done
mkdir -p "$scratch/nofile/exercises/$CH"
err=$(tests/grade/grade.sh "$scratch/nofile" "$CH" 2>&1 >/dev/null)
expect "a submission missing batching.c is rejected: exit 2" test $? = 2

mkdir -p "$scratch/class/alice" "$scratch/class/carol"
cp -r "solutions/$CH" "$scratch/class/alice/"
cp "$scratch/stub.tar.gz" "$scratch/class/bob.tar.gz"
echo notes >"$scratch/class/carol/notes.txt"
OUT=$scratch/book.csv tests/grade/grade-all.sh "$scratch/class" "$CH" >/dev/null 2>&1
max=$(maxof "$scratch/good.json")
expect "grade-all: a CSV gradebook with a header and a max row" grep -qx "student,$CH,total,note" "$scratch/book.csv"
expect "  alice (a directory) has full marks" grep -qx "alice,$max,$max," "$scratch/book.csv"
expect "  bob (a tarball) has zero" grep -qx "bob,0,0," "$scratch/book.csv"
expect "  carol's unusable submission has a note" grep -q '^carol,,,.*grade:' "$scratch/book.csv"

echo "loop and classroom: $passes passed, $fails failed"
[ $fails = 0 ]
