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
cd "$(dirname "$0")/.."
. tests/loop/lib.sh

[ $# -gt 0 ] || set -- $(loop_chapters)
status=0 first_ch="" first_ex="" first_test=""
for ch in "$@"; do
    if [ ! -d "exercises/$ch" ]; then
        echo "check: no chapter $ch (chapters: $(loop_chapters | tr '\n' ' '))" >&2
        exit 2
    fi
    if [ ! -f "exercises/$ch/exercises.txt" ]; then
        echo "check: $ch has no exercises/$ch/exercises.txt (ids, stars, hints): its tests as they are:"
        make -s --no-print-directory "build/ex/$ch/test" && "build/ex/$ch/test" 2>&1 | grep -e '^\[  FAILED  \]' -e '^\[  PASSED  \]' | head -20
        status=1
        continue
    fi
    if ! loop_run_chapter "$ch"; then
        printf '%s✗ %s does not compile%s (fix the first error; the rest often follow from it):\n' "$C_BAD" "$ch" "$C_OFF"
        grep -v '^make' "$LOOP_DIR/$ch.build" | head -25 | sed 's/^/    /'
        status=1
        [ -n "$first_ch" ] || first_ch=$ch
        continue
    fi
    summary=$(loop_summary "$ch")
    # a test whose exercise id is not in exercises.txt would never be reported
    stray=$(cut -f1 "$LOOP_DIR/$ch.tsv" | sed 's/: .*//' | sort -u | grep -vxF -f <(printf '%s\n' "$summary" | cut -f1) | tr '\n' ' ')
    [ -z "$stray" ] || echo "check: tests/$ch names exercises that exercises/$ch/exercises.txt lacks: $stray" >&2
    done_n=0 all_n=0 stars=0 all_stars=0
    while IFS=$'\t' read -r ex st ok total _; do
        all_n=$((all_n + 1))
        all_stars=$((all_stars + st))
        if [ "$total" -gt 0 ] && [ "$ok" = "$total" ]; then
            done_n=$((done_n + 1))
            stars=$((stars + st))
        fi
    done <<<"$summary"
    printf '%s%s%s: %d of %d exercises done, %d of %d stars\n' "$C_BOLD" "$ch" "$C_OFF" \
        "$done_n" "$all_n" "$stars" "$all_stars"
    width=$(printf '%s\n' "$summary" | cut -f1 | awk '{ if (length($0) > w) w = length($0) } END { print w }')
    while IFS=$'\t' read -r ex st ok total title section ftest fdetail; do
        if [ "$total" -gt 0 ] && [ "$ok" = "$total" ]; then
            mark="$C_OK✓$C_OFF"
        else
            mark="$C_BAD✗$C_OFF"
            status=1
        fi
        stars_txt=$(loop_stars "$st")
        pad=$(printf '%*s' $((3 - st > 0 ? 3 - st : 0)) '')
        printf '  %s %-*s %s%s %2d/%-2d  %s\n' "$mark" "$width" "$ex" "$stars_txt" "$pad" "$ok" "$total" "$title"
        if [ "$total" = 0 ]; then
            echo "      no test ran for this exercise (see the messages above, or tests/$ch/)"
            continue
        fi
        [ "$ok" = "$total" ] && continue
        if [ -z "$first_ex" ]; then first_ch=$ch first_ex=$ex first_test=$ftest; fi
        if [ "${VERBOSE:-0}" = 1 ]; then
            fails=$(awk -F'\t' -v ex="$ex" 'index($1, ex ": ") == 1 && $2 != "ok" { print $1 "\t" $3 }' "$LOOP_DIR/$ch.tsv")
        else
            fails=$(printf '%s\t%s' "$ftest" "$fdetail")
        fi
        while IFS=$'\t' read -r name detail; do
            printf '      %s%s%s\n' "$C_BOLD" "${name#*: }" "$C_OFF"
            loop_explain "$detail" | sed 's/^/        /'
        done <<<"$fails"
        more=$((total - ok - 1))
        if [ "${VERBOSE:-0}" != 1 ] && [ "$more" -gt 0 ]; then
            printf '      %sand %d more failing test%s (VERBOSE=1 explains them all)%s\n' "$C_DIM" "$more" "$([ $more = 1 ] || echo s)" "$C_OFF"
        fi
    done <<<"$summary"
done

if [ "$status" = 0 ]; then
    printf '\n%sEverything passes.%s make progress shows every chapter' "$C_OK" "$C_OFF"
    if [ -d solutions ]; then echo "; make solution EX=... shows a reference to compare with."; else echo "."; fi
    exit 0
fi
if [ -n "$first_ex" ] && [ "${NO_HINT:-0}" != 1 ]; then
    if h=$(loop_hint_next "$first_ch" "$first_ex" "$first_test" again); then
        IFS=$'\t' read -r n total text <<<"$h"
        section=$(loop_exercises "$first_ch" | awk -F'\t' -v ex="$first_ex" '$1 == ex { print $4 }')
        printf '\nHint %s of %s for %s%s%s (make hint CH=%s shows the next):\n' "$n" "$total" "$C_BOLD" "$first_ex" "$C_OFF" "${first_ch%%-*}"
        printf '%s\n' "$text" | fold -s -w 86 | sed 's/^/  /'
        [ -n "$section" ] && printf 'Read: chapters/%s.md, section "%s".\n' "$first_ch" "$section"
    fi
fi
exit 1
