#!/usr/bin/env bash
# build.sh -- markdown to PDF: pandoc 2.17 with the book's Lua filters, then pdflatex.
#
#   book/build.sh EDITION OUT.pdf FILE.md...
#
# EDITION is student or instructor. The FILEs are read in order as one book
# (the Makefile passes book/preface.md, chapters/NN-*.md, book/appendix.md).
# Intermediate files go to OUT's directory + /book-EDITION/ (chalk.tex, plots/,
# the LaTeX log). On any error, pandoc's or LaTeX's message is printed and the
# script exits 1 without writing OUT. Run from the repository root; CHALK
# overrides the calculator (default build/chalk).
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: book/build.sh student|instructor OUT.pdf FILE.md..." >&2; exit 2; }
edition=$1 out=$2
shift 2
case $edition in student | instructor) ;; *)
    echo "book: EDITION must be student or instructor, not '$edition'" >&2
    exit 2
    ;;
esac

work="$(dirname "$out")/book-$edition"
mkdir -p "$work"
rm -f "$work/chalk.tex"

# The filters, in the order their header comments require.
filters=(include chalk plot gantt presets boxes cards problems crossref book)
args=()
for f in "${filters[@]}"; do args+=(--lua-filter "book/filters/$f.lua"); done

if ! pandoc --from markdown --to latex --standalone \
    --template book/template.tex --metadata-file book/metadata.yaml \
    --top-level-division=chapter --highlight-style=tango \
    -M edition="$edition" -M build-dir="$work" \
    "${args[@]}" -o "$work/chalk.tex" "$@" 2>"$work/pandoc.err"; then
    # the filter's own message, without Lua's stack traceback
    sed '/^stack traceback:/,$d' "$work/pandoc.err" >&2
    echo "book: pandoc failed; nothing written to $out" >&2
    exit 1
fi
grep -v '^\[WARNING\] Missing character' "$work/pandoc.err" >&2 || true

# pdflatex until the cross-references and the table of contents settle (at most 4 runs).
for run in 1 2 3 4; do
    if ! pdflatex -interaction=nonstopmode -halt-on-error -file-line-error \
        -output-directory="$work" "$work/chalk.tex" >"$work/pdflatex.out" 2>&1; then
        echo "book: pdflatex failed (run $run); the first errors of $work/chalk.log:" >&2
        grep -A3 -E '^(!|.*:[0-9]+: )' "$work/chalk.log" | head -30 >&2
        rm -f "$work/chalk.aux" # a half-written .aux would break the next run
        exit 1
    fi
    grep -q -E 'Rerun to get|Label\(s\) may have changed|rerunfilecheck' "$work/chalk.log" || break
done
if grep -q -E 'There were undefined references|Reference .* undefined' "$work/chalk.log"; then
    grep -E 'Reference .* undefined' "$work/chalk.log" >&2
    echo "book: undefined references" >&2
    exit 1
fi
overfull=$(grep -c '^Overfull \\hbox' "$work/chalk.log" || true)
[ "$overfull" -eq 0 ] || echo "book: note: $overfull overfull line(s), see $work/chalk.log" >&2
cp "$work/chalk.pdf" "$out"
pages=$(pdfinfo "$out" 2>/dev/null | sed -n 's/^Pages: *//p')
echo "book: wrote $out (${pages:-?} pages, $edition edition)"
