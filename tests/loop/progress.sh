#!/usr/bin/env bash
# progress.sh -- the body of `make progress`: every chapter's exercises, done or
# not, with stars earned and the share done. Runs the tests (as make check does),
# and says so beside a chapter whose file the grader would score zero (its rules).
# Usage: tests/loop/progress.sh [CHAPTER...]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
. tests/loop/lib.sh
if [ $# = 0 ]; then
    mapfile -t chapters < <(loop_chapters)
    set -- "${chapters[@]}"
fi

sum_done=0 sum_all=0 sum_stars=0 sum_all_stars=0 next=""
printf '%-18s %-9s %-8s %5s  %s\n' chapter exercises stars "done" "each exercise (✓ done, ✗ not yet)"
for ch in "$@"; do
    compiled=1
    loop_run_chapter "$ch" || compiled=0
    d=0 a=0 s=0 as=0 marks=""
    while IFS=$'\t' read -r ex st ok total _; do
        a=$((a + 1)) as=$((as + st))
        if [ "$total" -gt 0 ] && [ "$ok" = "$total" ]; then
            d=$((d + 1)) s=$((s + st)) marks="$marks✓"
        else
            marks="$marks✗"
            [ -n "$next" ] || next="$ex (chapter $ch)"
        fi
    done < <(loop_summary "$ch")
    [ $compiled = 1 ] || marks="$marks (does not compile: make check CH=${ch%%-*})"
    # the grader's rules (make check's build/rules/): a file it would score zero says so
    for f in exercises/"$ch"/*.c; do
        v=build/rules/$ch/$(basename "$f" .c).txt
        if [ $compiled = 1 ] && [ -f "$v" ] && [ "$(head -1 "$v")" != ok ]; then
            marks="$marks (but the grader would score it zero: make check CH=${ch%%-*} says why)"
            break
        fi
    done
    pct=$((a > 0 ? 100 * d / a : 0))
    printf '%-18s %-9s %-8s %4d%%  %s\n' "$ch" "$d/$a" "$s/$as" "$pct" "$marks"
    sum_done=$((sum_done + d)) sum_all=$((sum_all + a)) sum_stars=$((sum_stars + s)) sum_all_stars=$((sum_all_stars + as))
done
pct=$((sum_all > 0 ? 100 * sum_done / sum_all : 0))
printf '%-18s %-9s %-8s %4d%%\n' total "$sum_done/$sum_all" "$sum_stars/$sum_all_stars" "$pct"
if [ -n "$next" ]; then echo "next: $next"; else echo "every exercise done"; fi
