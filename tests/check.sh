#!/usr/bin/env bash
# check.sh -- the body of `make check`: builds your exercises against the tests and
# reports, per exercise: ✓ or ✗, its stars, tests passed of total; for a failure,
# what your code computed against what was expected, with units; then one hint
# for the first failing exercise. Exits 1 while anything fails.
#
# Usage: tests/check.sh CHAPTER...      (make check [CH=01])
#   VERBOSE=1        explain every failing test, not only each exercise's first
#   CHALK_TIMEOUT=N  seconds a test run may take before it counts as hung (2)
#   NO_HINT=1        leave the hint out (make watch keeps it)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. tests/loop/lib.sh

if [ $# = 0 ]; then
    mapfile -t chapters < <(loop_chapters)
    set -- "${chapters[@]}"
fi
status=0 first_ch="" first_ex="" first_test="" first_section=""
for ch in "$@"; do
    if [ ! -d "exercises/$ch" ]; then
        echo "check: no chapter $ch (chapters: $(loop_chapters | tr '\n' ' '))" >&2
        exit 2
    fi
    if [ ! -f "exercises/$ch/exercises.txt" ]; then
        echo "check: $ch has no exercises/$ch/exercises.txt (ids, stars, functions): its tests as they are:"
        make -s --no-print-directory "build/ex/$ch/test" && "build/ex/$ch/test" 2>&1 | grep -e '^\[  FAILED  \]' -e '^\[  PASSED  \]' | head -20
        status=1
        continue
    fi
    if ! loop_run_chapter "$ch" mistakes; then
        printf '%s✗ %s does not compile%s (fix the first error; the rest often follow from it):\n' "$C_BAD" "$ch" "$C_OFF"
        grep -v '^make' "$LOOP_DIR/$ch.build" | head -25 | sed 's/^/    /'
        status=1
        [ -n "$first_ch" ] || first_ch=$ch
        continue
    fi
    # the values of the catalogued mistakes: built here, or shipped with a handout
    table=build/mistakes/$ch.tsv
    [ -f "$table" ] || table=tests/$ch/mistakes.tsv
    [ -f "$table" ] || table=""
    : >"$LOOP_DIR/$ch.first"
    awk -f tests/loop/explain.awk -f tests/loop/report.awk -v ch="$ch" -v tsv="$LOOP_DIR/$ch.tsv" \
        -v table="$table" -v verbose="${VERBOSE:-0}" -v first="$LOOP_DIR/$ch.first" \
        -v ok="$C_OK" -v bad="$C_BAD" -v dim="$C_DIM" -v bold="$C_BOLD" -v off="$C_OFF" \
        "exercises/$ch/exercises.txt" || status=1
    if [ -z "$first_ex" ] && [ -s "$LOOP_DIR/$ch.first" ]; then
        IFS=$'\t' read -r first_ex first_test first_section <"$LOOP_DIR/$ch.first"
        first_ch=$ch
    fi
done

if [ "$status" = 0 ]; then
    printf '\n%sEverything passes.%s make progress shows every chapter' "$C_OK" "$C_OFF"
    if [ -d solutions ]; then echo "; make solution EX=... shows a reference to compare with."; else echo "."; fi
    exit 0
fi
if [ -n "$first_ex" ] && [ "${NO_HINT:-0}" != 1 ]; then
    if h=$(loop_hint_next "$first_ch" "$first_ex" "$first_test" again); then
        IFS=$'\t' read -r n total text <<<"$h"
        printf '\nHint %s of %s for %s%s%s (make hint CH=%s shows the next):\n' "$n" "$total" "$C_BOLD" "$first_ex" "$C_OFF" "${first_ch%%-*}"
        printf '%s\n' "$text" | fold -s -w 86 | sed 's/^/  /'
        [ -n "$first_section" ] && printf 'Read: chapters/%s.md, section "%s".\n' "$first_ch" "$first_section"
    fi
fi
exit 1
