# test_grade_handout.sh -- the student handout, sourced by tests/grade/test_grade.sh
# (its variables, expect/has/grade/score, and the scratch directory are the caller's):
# make handout, the leak check and what it catches, and the handout's own make
# check, progress, hint, reset, help and submission as a student runs them.

section "the handout"
mkdir -p build && cp "$scratch"/pdfs/*.pdf build/ 2>/dev/null
out=$(BOOK=0 make -s handout 2>&1)
expect "make handout writes build/chalk-handout.tar.gz" test -f build/chalk-handout.tar.gz
hd=$scratch/handout
mkdir -p "$hd"
tar -xzf build/chalk-handout.tar.gz -C "$hd"
expect "the handout has no solutions/, calculator, hidden tests, answers or reference code" \
    tests/grade/handout-check.sh "$hd/chalk"
expect "  nor the grader's tests (tests/loop/test_loop.sh, tests/grade/)" \
    test ! -e "$hd/chalk/tests/loop/test_loop.sh" -a ! -e "$hd/chalk/tests/grade"
expect "the leak check catches a leak (it flags the instructor tree)" \
    eval '! tests/grade/handout-check.sh . >/dev/null'
# each kind of instructor file planted alone in a copy of the handout is caught
for plant in "tests/$CH/hidden/test_planted.c" "tests/$CH/derive/expected.c" tests/derive/derive.h \
    "tests/$CH/points.txt"; do
    rm -rf "$scratch/planted" && cp -r "$hd/chalk" "$scratch/planted"
    mkdir -p "$scratch/planted/$(dirname "$plant")" && echo '/* planted */' >"$scratch/planted/$plant"
    expect "  and catches $plant planted in a handout" \
        eval '! tests/grade/handout-check.sh "$scratch/planted" >/dev/null'
done
rm -rf "$scratch/planted" && cp -r "$hd/chalk" "$scratch/planted"
printf '\n```{.problem id=planted stars=1 title="Planted"}\nquestion: |\n  Why?\nsteps:\n  - Because.\n```\n' \
    >>"$scratch/planted/chapters/$CH.md"
expect "  and catches a practice problem's worked steps planted in a chapter" \
    eval '! tests/grade/handout-check.sh "$scratch/planted" >/dev/null'
rm -rf "$scratch/planted"
missing=""
for d in tests/[0-9][0-9]-*/derive/expected.c; do
    [ -f "$d" ] || continue
    c=${d#tests/}; c=${c%%/*}
    [ -f "$hd/chalk/tests/$c/expected.h" ] || missing="$missing $c"
done
expect "the handout carries each chapter's expected values (tests/NN-topic/expected.h), not their derivations${missing:+; missing:$missing}" \
    eval '[ -z "$missing" ] && ! find "$hd/chalk/tests" -name derive | grep -q .'
if [ -f build/chalk.pdf ]; then
    expect "the handout carries the book as chalk.pdf" test -s "$hd/chalk/chalk.pdf"
fi
if [ -f build/chalk-instructor.pdf ] && command -v pdftotext >/dev/null 2>&1; then
    cp -r "$hd/chalk" "$scratch/leaky" && cp build/chalk-instructor.pdf "$scratch/leaky/chalk.pdf"
    expect "the leak check catches the instructor edition passed off as chalk.pdf" \
        eval '! tests/grade/handout-check.sh "$scratch/leaky" >/dev/null'
fi
out=$(cd "$hd/chalk" && make -s check CH=01 2>&1)
rc=$?
expect "the handout's make check runs and fails on the stubs" test $rc -ne 0
n_ex=$(grep -c '^exercise:' exercises/$CH/exercises.txt)
expect "  with the per-exercise report ($n_ex ✗)" test "$(printf '%s\n' "$out" | grep -c '^  ✗ ')" = "$n_ex"
out=$(cd "$hd/chalk" && make -s progress 2>&1)
expect "the handout's make progress works" has "$out" "0/$n_ex"
expect "the handout's exercise lists show no hint, only how to ask for one (cat exercises/*/exercises.txt)" \
    eval '! cat "$hd"/chalk/exercises/*/exercises.txt | grep -i "^hint" | grep -vE "^hint: make hint CH=[0-9]{2} EX=[a-z0-9_]+ shows its hints, one at a time$" >/dev/null'
out=$(cd "$hd/chalk" && make -s hint CH=01 2>&1)
expect "the handout's make hint shows a hint (from tests/$CH/hints.b64, decoded)" \
    eval 'test -s "$hd/chalk/tests/$CH/hints.b64" && printf "%s\n" "$out" | grep -qE "^Hint [0-9]+ of [0-9]+ for"'
# No file of the handout shows a hint before make hint is asked: the hints ship
# encoded, and the text of each chapter's first hint is in no file, PDF aside.
plain=""
for h in tests/[0-9][0-9]-*/hints.txt; do
    first=$(awk '/^hint:/ { sub(/^hint:[ \t]*/, ""); print substr($0, 1, 50); exit }' "$h")
    [ -n "$first" ] && grep -rlF --exclude='*.pdf' -- "$first" "$hd/chalk" >/dev/null && plain="$plain $h"
done
expect "  and no file of the handout shows a hint in plain text (each chapter's first hint found in none)${plain:+ (found:$plain)}" \
    eval 'test -z "$plain" && test -z "$(ls "$hd"/chalk/tests/*/hints.txt 2>/dev/null)"'
for cat in tests/[0-9][0-9]-*/mistakes.txt; do
    ch=$(basename "$(dirname "$cat")")
    expect "the handout carries $ch's mistake values (tests/$ch/mistakes.b64, encoded), not its catalogue" \
        test -s "$hd/chalk/tests/$ch/mistakes.b64" -a ! -e "$hd/chalk/tests/$ch/mistakes.txt" -a ! -e "$hd/chalk/tests/$ch/mistakes.tsv"
done
cat >"$scratch/mac.c" <<'C'
double batching_compute_s(const batching_deploy *d, double batch)
{
    return batch * d->params_active / (d->chips * d->flops_per_s); /* a FLOP a weight */
}
C
(cd "$hd/chalk" && . tests/loop/lib.sh && loop_splice "$stub" "$scratch/mac.c" batching_compute_s >"$scratch/mac-stub.c") &&
    cp "$scratch/mac-stub.c" "$hd/chalk/$stub"
out=$(cd "$hd/chalk" && make -s check CH=01 2>&1)
expect "the handout's make check names a catalogued mistake (from tests/$CH/mistakes.b64)" \
    has "$out" "this is the value you get if you count a multiply-accumulate as one FLOP"
cp "$here/$stub" "$hd/chalk/$stub"
(cd "$hd/chalk" && echo '/* mine */' >>"$stub" && make -s reset CH=01 >/dev/null 2>&1)
expect "the handout's make reset restores from its pristine copy (no git)" cmp -s "$hd/chalk/$stub" "$here/$stub"
out=$(cd "$hd/chalk" && make -s check CMOCKA_LIBS=-lno-such-cmocka 2>&1)
rc=$?
expect "make check without cmocka (a test compile fails) says so and how to get it, exit 2, installs nothing" \
    eval '[ $rc = 2 ] && has "$out" "cmocka" && has "$out" "make deps" && ! has "$out" "installing"'
expect "make watch, make check, make hint and make progress do not install packages (no deps.sh on their way)" \
    eval '! (cd "$hd/chalk" && make -n check watch hint progress CH=01 2>/dev/null | grep "deps.sh" >/dev/null)'
out=$(cd "$hd/chalk" && make -s help 2>&1)
expect "the handout's make help does not offer make solution (it has no solutions/)" eval '! has "$out" "solution"'
out=$(cd "$hd/chalk" && make -s submission CH=01 2>&1)
expect "make submission CH=01 packs chapter 1's .c files, only them, into one tarball the grader takes" \
    eval 'test "$(tar -tzf "$hd/chalk/build/submission.tar.gz")" = "exercises/$CH/batching.c"'
grade handout-sub "$hd/chalk/build/submission.tar.gz"
expect "  (graded: the stubs' score)" test "$(score "$scratch/out/handout-sub.json")" = "$stub_score"
# A file the grader would score zero (a global variable) is not packed without FORCE=1.
cp "$hd/chalk/$stub" "$scratch/stub-keep.c" && echo 'int my_calls;' >>"$hd/chalk/$stub"
rm -f "$hd/chalk/build/submission.tar.gz"
out=$(cd "$hd/chalk" && make -s submission CH=01 2>&1)
rc=$?
expect "make submission refuses a file the grader would score zero (exit 2, the rule named, nothing packed)" \
    eval '[ $rc = 2 ] && has "$out" "a global variable my_calls (make it static" && has "$out" "FORCE=1" && test ! -e "$hd/chalk/build/submission.tar.gz"'
out=$(cd "$hd/chalk" && make -s submission CH=01 FORCE=1 2>&1)
expect "  and packs it with FORCE=1, with a warning" \
    eval 'has "$out" "WARNING: the grader would score it zero" && test -f "$hd/chalk/build/submission.tar.gz"'
cp "$scratch/stub-keep.c" "$hd/chalk/$stub"
