#!/usr/bin/env bash
# handout-check.sh -- proves that an unpacked handout DIR gives no answers away:
#   - no solutions/, no calculator source but its framework without the chapters
#     (tools/chalk/: list, show, check-answers; none of its files a chapter's),
#     no grading scripts, no hidden tests, no points tables, no derivations of the
#     public tests' expected values (tests/NN-topic/derive/, tests/derive/);
#   - no ::: {.solution} block (instructor answers) left in chapters/*.md, nor a
#     practice problem's worked steps (a ```{.problem} block's steps:);
#   - no pointer to solutions/ in the contracts, stubs, exercise lists, hints, tests;
#   - no line of a reference function body (solutions/NN-topic/*.c, lines of 20+
#     characters that the stub does not have) in any text file of DIR (an HTML
#     file's text: its tags dropped and its entities decoded, as a browser shows a
#     listing of the web edition), nor in the text of its PDFs (pdftotext, when
#     installed). So `tests/grade/handout-check.sh build/web` checks the student
#     web edition too.
# Prints what it found; exits 1 when anything leaks. Run from the instructor tree.
# Usage: tests/grade/handout-check.sh DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/loop/lib.sh
dir=${1:?usage: tests/grade/handout-check.sh DIR}
[ -d "$dir" ] || {
    echo "handout-check: $dir is not a directory" >&2
    exit 2
}
bad=0
leak() {
    echo "handout-check: LEAK: $*"
    bad=1
}

[ ! -e "$dir/solutions" ] || leak "solutions/ is in the handout"
[ ! -e "$dir/tests/grade" ] || leak "tests/grade/ (the grader) is in the handout"
found=$(find "$dir" \( -name hidden -o -name points.txt -o -path '*/solutions/chalk' -o -path '*/tests/chalk' \
    -o -path '*/tests/[0-9][0-9]-*/derive' -o -path '*/tests/derive' \) -print | head -5)
[ -z "$found" ] || leak "instructor files: $(echo $found)"
found=$(find "$dir/tools/chalk" -name '[0-9][0-9]-*' -print 2>/dev/null | head -5)
[ -z "$found" ] || leak "a chapter of the calculator in tools/chalk/: $(echo $found)"
for md in "$dir"/chapters/*.md; do
    [ -f "$md" ] || continue
    grep -nE '^:{3,}[[:space:]]*(\{[^}]*\.solution[^}]*\}|solution[[:space:]]*$)' "$md" | head -3 | while IFS= read -r l; do
        echo "handout-check: LEAK: $md:$l"
    done | grep . && bad=1
done

# No practice problem's worked steps in the chapters (the instructor edition's keys).
for md in "$dir"/chapters/*.md; do
    [ -f "$md" ] || continue
    awk '!p && /^```+[ \t]*\{[^}]*\.problem[ \t}]/ { p = 1; next }
        p && /^```+[ \t]*$/ { p = 0; next }
        p && /^steps:/ { print FILENAME ":" NR ": a practice problem'"'"'s worked steps" }' "$md" |
        head -3 | while IFS= read -r l; do echo "handout-check: LEAK: $l"; done | grep . && bad=1
done

# Nothing points a student to a file the handout lacks: no solutions/ in what the
# student reads (contracts, stubs, exercise lists, hints, tests).
found=$(grep -rlF 'solutions/' "$dir/exercises" "$dir"/tests/[0-9][0-9]-*/ 2>/dev/null | head -5)
[ -z "$found" ] || leak "points to solutions/, which a handout lacks: $(echo $found)"

# Reference body lines that are not also stub lines.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in solutions/[0-9][0-9]-*/*.c; do
    [ -f "$f" ] || continue
    ch=$(basename "$(dirname "$f")")
    # lines the handout shows anyway: the stubs', and the public tests' (whose closed
    # forms may read like a line of the reference)
    cat "exercises/$ch"/*.c "tests/$ch"/*.c 2>/dev/null | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' >>"$tmp/stub-lines"
    # a body: the lines after the one that opens it (a signature may span lines)
    loop_c_functions "$f" | while IFS=$'\t' read -r _ start end _ _; do
        sed -n "${start},${end}p" "$f" | awk 'body { print } /\{/ { body = 1 }'
    done | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' |
        awk 'length($0) >= 20 && $0 !~ /^(\/\*|\*|\/\/)/' >>"$tmp/ref-lines"
done
# and the calculator's framework without its chapters, shipped in tools/chalk/ to
# grade practice sets (tests/practice/checker.sh): a generic line of it, such as a
# for loop over i, is no reference code
cat "$dir"/tools/chalk/*.c 2>/dev/null | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' >>"$tmp/stub-lines"
touch "$tmp/ref-lines" "$tmp/stub-lines"
sort -u "$tmp/ref-lines" | grep -vxF -f "$tmp/stub-lines" >"$tmp/secret" || true
n=$(wc -l <"$tmp/secret")
if [ "$n" -gt 0 ]; then
    # a whole line of the reference, whatever its indentation (a fragment such as
    # "(d->chips * d->flops_per_s);" may well stand in a public test's closed form)
    hits=() shown=0
    while IFS= read -r -d '' f; do
        grep -Iq . "$f" 2>/dev/null || continue # text files only
        found=$(case $f in
            *.html) sed -e 's/<[^>]*>//g' -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g' "$f" ;;
            *) cat "$f" ;;
            esac | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep -xF -f "$tmp/secret" | head -3)
        [ -n "$found" ] || continue
        hits+=("$f")
        [ $shown -ge 3 ] || printf '%s\n' "$found" | sed 's/^/    /'
        shown=$((shown + 1))
    done < <(find "$dir" -type f -print0)
    [ ${#hits[@]} -eq 0 ] || leak "reference code found in: ${hits[*]:0:5}"
fi
# The PDFs' text too (pdftotext, poppler-utils): the student edition has no listing
# from solutions/, the instructor edition has many.
if [ "$n" -gt 0 ] && command -v pdftotext >/dev/null 2>&1; then
    while IFS= read -r pdf; do
        pdftotext "$pdf" "$tmp/pdf.txt" 2>/dev/null || continue
        sed 's/^[[:space:]]*//' "$tmp/pdf.txt" >"$tmp/pdf.trim"
        grep -qF -f "$tmp/secret" "$tmp/pdf.trim" &&
            leak "reference code in the text of $pdf (the instructor edition?)"
    done < <(find "$dir" -name '*.pdf')
fi
files=$(find "$dir" -type f | wc -l)
[ $bad = 0 ] && echo "handout-check: ok: $files files; no solutions/, hidden tests, grader or .solution blocks; none of $n reference code lines"
exit $bad
