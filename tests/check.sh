#!/usr/bin/env bash
# check.sh -- the body of `make check`: builds your exercises against the tests and
# reports, per exercise: ✓ or ✗, its stars, tests passed of total; for a failure,
# what your code computed against what was expected, with units. Then, per file,
# whether the grader would accept it as it stands (its source and object rules,
# tests/loop/rules.sh: the grader's rules, which make grade runs with binutils in its jail), and how to ask for a hint
# (make hint CH=NN EX=id): it never shows one itself. Exits 1 while anything fails
# or the grader would refuse a file.
#
# The compiler's warnings are shown and never stop the tests (the grader compiles
# with -w); a function that does not compile is put back to the stub for the run,
# so only its exercise fails. The tests run under AddressSanitizer and UBSan.
#
# Usage: tests/check.sh CHAPTER...      (make check [CH=01])
#   VERBOSE=1         explain every failing test, not only each exercise's first
#   CHALK_TIMEOUT=N   seconds a test run may take before it counts as hung (2)
#   CHALK_SANITIZE=0  build without AddressSanitizer and UBSan (a compiler without them)
#   NO_HINT=1         leave out the line that says how to ask for a hint
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. tests/loop/lib.sh

if [ $# = 0 ]; then
    mapfile -t chapters < <(loop_chapters)
    set -- "${chapters[@]}"
fi
# One line per file of chapter $1: would the grader accept it as it stands? Returns 1
# when it would not (the grader would score the chapter zero).
grader_line() {
    local ch=$1 f v ret=0
    for f in exercises/"$ch"/*.c; do
        v=build/rules/$ch/$(basename "$f" .c).txt
        if loop_compiler_log "$ch" "$f" | grep -q ': error: '; then
            printf '%sThe grader would score chapter %s zero:%s %s does not compile (fix the errors above).\n' "$C_BAD" "$ch" "$C_OFF" "$f"
            ret=1
        elif [ ! -f "$v" ]; then
            printf 'The grader: its rules did not run on %s (see build/loop/%s.build).\n' "$f" "$ch"
            ret=1
        elif [ "$(head -1 "$v")" = ok ]; then
            printf '%sThe grader would accept %s as it stands%s (its source and object rules pass).\n' "$C_DIM" "$f" "$C_OFF"
        else
            printf '%sThe grader would score chapter %s zero:%s %s: %s\n' "$C_BAD" "$ch" "$C_OFF" "$f" "$(sed '1s/^refused: //; 2,$s/^/    /' "$v")"
            ret=1
        fi
    done
    return $ret
}

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
    loop_run_chapter "$ch" mistakes
    rc=$?
    for f in exercises/"$ch"/*.c; do
        msgs=$(loop_compiler_log "$ch" "$f")
        [ -n "$msgs" ] || continue
        [ $rc = 2 ] && continue # shown below, whole
        if printf '%s\n' "$msgs" | grep -q ': error: '; then
            printf '%sThe compiler on %s%s (an error: the functions it is in are put back to the stub for this run):\n' "$C_DIM" "$f" "$C_OFF"
        else
            printf '%sThe compiler on %s%s (a warning never stops the tests; the grader ignores warnings):\n' "$C_DIM" "$f" "$C_OFF"
        fi
        printf '%s\n' "$msgs" | grep -v '^In file included' | head -30 | sed 's/^/    /'
    done
    if [ -s "$LOOP_DIR/$ch.broken" ]; then
        printf '(put back to the stub for this run, as they do not compile: %s; their exercises fail, and so may tests that call them: no mistake is named until they compile)\n' \
            "$(cut -f1 "$LOOP_DIR/$ch.broken" | tr '\n' ' ' | sed 's/ $//')"
    fi
    if [ $rc = 2 ]; then
        printf '%s✗ %s does not compile%s (fix the first error; the rest often follow from it):\n' "$C_BAD" "$ch" "$C_OFF"
        grep -v '^make' "$LOOP_DIR/$ch.build" | head -25 | sed 's/^/    /'
        status=1
        [ -n "$first_ch" ] || first_ch=$ch
        grader_line "$ch"
        continue
    fi
    # the values of the catalogued mistakes: built here, or shipped with a handout
    table=build/mistakes/$ch.tsv enc=""
    if [ ! -f "$table" ] && [ -f "tests/$ch/mistakes.b64" ]; then table=/dev/stdin enc=tests/$ch/mistakes.b64; fi
    [ -f "$table" ] || [ -n "$enc" ] || table=""
    # a function put back to its stub makes the tests that call it fail for that
    # reason alone: naming a mistake then would blame the wrong step (trial round 3)
    if [ -s "$LOOP_DIR/$ch.broken" ]; then table="" enc=""; fi
    : >"$LOOP_DIR/$ch.first"
    # would the grader score the chapter zero as it stands? (said on the summary line too)
    zero=0
    for f in exercises/"$ch"/*.c; do
        v=build/rules/$ch/$(basename "$f" .c).txt
        if loop_compiler_log "$ch" "$f" | grep -q ': error: ' || { [ -f "$v" ] && [ "$(head -1 "$v")" != ok ]; }; then zero=1; fi
    done
    awk -f tests/loop/explain.awk -f tests/loop/report.awk -v ch="$ch" -v tsv="$LOOP_DIR/$ch.tsv" -v zero="$zero" \
        -v table="$table" -v verbose="${VERBOSE:-0}" -v first="$LOOP_DIR/$ch.first" \
        -v ok="$C_OK" -v bad="$C_BAD" -v dim="$C_DIM" -v bold="$C_BOLD" -v off="$C_OFF" \
        "exercises/$ch/exercises.txt" < <(if [ -n "$enc" ]; then loop_b64_decode "$enc"; fi) || status=1
    if [ -z "$first_ex" ] && [ -s "$LOOP_DIR/$ch.first" ]; then
        IFS=$'\t' read -r first_ex first_test first_section <"$LOOP_DIR/$ch.first"
        first_ch=$ch
    fi
    grader_line "$ch" || status=1
done

if [ "$status" = 0 ]; then
    printf '\n%sEverything passes.%s make progress shows every chapter' "$C_OK" "$C_OFF"
    if [ -d solutions ]; then echo "; make solution EX=... shows a reference to compare with."; else echo "."; fi
    exit 0
fi
if [ -n "$first_ex" ] && [ "${NO_HINT:-0}" != 1 ]; then
    # how to ask, never a hint itself: only the hints asked for with make hint count
    total=$(loop_hint_order "$first_ch" "$first_ex" "$first_test" | wc -l)
    if [ "$total" -gt 0 ]; then
        seen=$([ -f "$LOOP_HINTS" ] && loop_seen_count "$first_ch" "$first_ex" || echo 0)
        printf '\nStuck on %s%s%s? make hint CH=%s EX=%s shows a hint (%s of its %s seen so far).\n' \
            "$C_BOLD" "$first_ex" "$C_OFF" "${first_ch%%-*}" "$first_ex" "$seen" "$total"
    fi
    [ -n "$first_section" ] && printf 'Read: chapter %d of chalk.pdf, section "%s".\n' "$((10#${first_ch%%-*}))" "$first_section"
fi
exit 1
