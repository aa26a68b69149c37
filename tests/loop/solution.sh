#!/usr/bin/env bash
# solution.sh -- the body of `make solution EX=...`: shows the reference functions
# of one exercise, but only once your version passes that exercise's tests.
#
#   make solution EX=step_time          its chapter is found from exercises.txt
#   make solution CH=01 EX=step_time
#   make solution EX=step_time FORCE=1  show it anyway (with a warning)
#
# Only that exercise's functions are shown, with the static helpers they call;
# other exercises' references stay hidden.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
. tests/loop/lib.sh
CH=${CH:-} EX=${EX:-} FORCE=${FORCE:-0}

if [ -z "$EX" ]; then
    echo "usage: make solution EX=exercise_id [CH=NN] [FORCE=1]; make progress lists the exercises" >&2
    exit 2
fi
ch=$(loop_chapter_of "$EX") || {
    echo "solution: no exercise '$EX'; make progress lists them" >&2
    exit 2
}
if [ -n "$CH" ] && [ "${ch#"$CH"}" = "$ch" ]; then
    echo "solution: exercise $EX is in chapter $ch, not CH=$CH" >&2
    exit 2
fi
if ! ls "solutions/$ch"/*.c >/dev/null 2>&1; then
    echo "solution: this copy has no solutions/ (a handout): ask your instructor for the reference" >&2
    exit 2
fi

passed=0 ok=0 total=0
if loop_run_chapter "$ch"; then
    IFS=$'\t' read -r _ _ ok total _ < <(loop_summary "$ch" | awk -F'\t' -v ex="$EX" '$1 == ex')
    [ "$total" -gt 0 ] && [ "$ok" = "$total" ] && passed=1
fi
if [ $passed = 0 ]; then
    if [ "$FORCE" != 1 ]; then
        echo "solution: $EX does not pass yet ($ok of $total tests): make check CH=${ch%%-*} says what fails, make hint EX=$EX helps; FORCE=1 shows the reference anyway" >&2
        exit 1
    fi
    echo "WARNING: FORCE=1: the reference for $EX, before your version passes ($ok of $total tests)."
    echo "Reading it first takes away the part of the exercise that teaches. Try make hint EX=$EX."
    echo
fi

funcs=$(loop_exercises "$ch" | awk -F'\t' -v ex="$EX" '$1 == ex { print $5 }')
shown=0
for f in "solutions/$ch"/*.c; do
    code=$(loop_c_extract "$f" "$funcs")
    [ -n "$code" ] || continue
    printf '==== %s: the reference for %s (%s)\n\n%s\n\n' "$f" "$EX" "$funcs" "$code"
    shown=1
done
if [ $shown = 0 ]; then
    echo "solution: none of $funcs is defined in solutions/$ch/*.c" >&2
    exit 2
fi
[ $passed = 1 ] && echo "Your version passes too. Compare: where do they differ, and does it matter?"
exit 0
