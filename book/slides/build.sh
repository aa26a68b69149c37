#!/usr/bin/env bash
# build.sh -- one chapter's lecture deck: pandoc to Beamer with the book's filters,
# then pdflatex (book/slides/README.md).
#
#   book/slides/build.sh NN OUT.pdf
#
# NN is the chapter's number (chapters/NN-*.md). Run from the repository root; CHALK
# and CHALK_CACHE as for book/build.sh (the decks share build/cache with the book:
# chalk's answers, the diagrams).
#
# How:
#  1. The chapter's place in the book and the kind of every sec: id of the book, by
#     book/build.sh's own scan (its scan() function, read from that file), so that
#     numbers and references print as in the book.
#  2. pandoc --to beamer with book/slides/template.tex and the filters: slides
#     (wraps the marked elements), include, chalk, plot and gantt (drawn at slide
#     size), diagram, crossref, citeproc, cite, then book/slides/frames.lua (the
#     frames, nothing else). The filters' records go to WORK/side/ (frames.lua's
#     'slides': one line per frame made).
#  3. pdflatex, again while the .aux changes (the slide count in the footer); the
#     .aux is kept, so a rebuild after an edit usually costs one run.
#  4. The deck fails, and OUT is not written, on an overfull frame or line (an
#     Overfull \vbox or \hbox in the log) or an undefined reference.
# Intermediate files: OUT's directory + /slides-NN/ (deck.tex, deck.log, side/).
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: book/slides/build.sh NN OUT.pdf" >&2; exit 2; }
ch=$1 out=$2
case $ch in [0-9][0-9]) ;; *) echo "slides: chapter must be two digits (01), not '$ch'" >&2; exit 2 ;; esac
src=$(ls chapters/"$ch"-*.md 2>/dev/null | head -1)
[ -n "$src" ] || { echo "slides: no chapter $ch (chapters/$ch-*.md)" >&2; exit 2; }

work="$(dirname "$out")/slides-$ch"
cache="$(dirname "$out")/cache"
export CHALK_CACHE=${CHALK_CACHE-$cache/chalk}
mkdir -p "$work"
say() { echo "slides: $*"; }
die() {
    echo "slides: $ch: $*" >&2
    echo "slides: nothing written to $out" >&2
    rm -f "$out"
    exit 1
}
now() { date +%s.%N; }
t0=$(now)

# ---- 1. the chapter's place in the book -------------------------------------------
eval "$(sed -n '/^scan() {$/,/^}$/p' book/build.sh)"
declare -F scan >/dev/null || die "book/build.sh has no scan() function to read the book's headers with"
files=(book/preface.md $(ls chapters/[0-9][0-9]-*.md | sort) book/appendix.md)
scan "${files[@]}" >"$work/scan.tsv"
{ grep '^S' "$work/scan.tsv" || true; } | cut -f2,3 >"$work/xref-table.tsv"
read -r before appendix main < <(awk -F'\t' -v f="$src" '$1 == "F" && $2 == f { print $3, $4, $5 }' "$work/scan.tsv")

# ---- 2. pandoc ----------------------------------------------------------------------
commit="not a git checkout"
if git rev-parse --git-dir >/dev/null 2>&1; then
    commit="commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo none)"
    [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || commit="$commit + local changes"
fi
filters=(book/filters/slides.lua book/filters/include.lua book/filters/chalk.lua book/filters/plot.lua
    book/filters/gantt.lua book/filters/diagram.lua book/filters/crossref.lua --citeproc
    book/filters/cite.lua book/slides/frames.lua)
args=(--from markdown --to beamer --slide-level=2 --template book/slides/template.tex
    --highlight-style=tango --metadata-file book/metadata.yaml
    --bibliography book/references.bib --csl book/chalk.csl -M suppress-bibliography=true
    -M edition=instructor -M build-dir="$work" -M cache-dir="$cache"
    -M chapters-before="$before" -M in-appendix="$appendix" -M in-mainmatter="$main"
    -M xref-table="$work/xref-table.tsv" -M commit="$commit")
for f in "${filters[@]}"; do
    case $f in --*) args+=("$f") ;; *) args+=(--lua-filter "$f") ;; esac
done
rm -rf "$work/side"
mkdir -p "$work/side"
say "$src: pandoc and the filters"
if ! CHALK_BOOK_SIDE=$work/side pandoc "${args[@]}" -o "$work/deck.tex.new" "$src" 2>"$work/pandoc.err"; then
    sed -e '/^stack traceback:/,$d' "$work/pandoc.err" >&2
    die "pandoc failed"
fi
grep -v '^\[WARNING\] Missing character' "$work/pandoc.err" >&2 || true
cmp -s "$work/deck.tex.new" "$work/deck.tex" 2>/dev/null && rm "$work/deck.tex.new" || mv "$work/deck.tex.new" "$work/deck.tex"
t_pandoc=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')

# ---- 3. pdflatex ----------------------------------------------------------------------
runs=0
for run in 1 2 3; do
    before_aux=$(cksum 2>/dev/null <"$work/deck.aux" || true)
    runs=$run
    if ! pdflatex -interaction=nonstopmode -halt-on-error -file-line-error \
        -output-directory="$work" "$work/deck.tex" >"$work/pdflatex.out" 2>&1; then
        grep -A3 -E '^(!|.*:[0-9]+: )' "$work/deck.log" | head -20 >&2
        rm -f "$work/deck.aux"
        die "pdflatex failed ($work/deck.log)"
    fi
    [ "$(cksum <"$work/deck.aux")" != "$before_aux" ] || break
done

# ---- 4. checks ------------------------------------------------------------------------
over=$(grep -E '^Overfull \\[hv]box' "$work/deck.log" || true)
if [ -n "$over" ]; then
    # the frame each one is in: the page it was shipped on, counted in the log
    awk '/^Overfull \\[hv]box/ { print "slides: " $0 " on slide " (pages + 1) } /\[[0-9]+/ { n = gsub(/\[[0-9]+/, "&"); pages += n }' \
        "$work/deck.log" >&2
    die "$(printf '%s\n' "$over" | wc -l) overfull frame(s) or line(s): shorten the slide text or split the slide"
fi
if grep -q -E "Reference .* undefined|There were undefined references" "$work/deck.log"; then
    grep -E "Reference .* undefined" "$work/deck.log" >&2
    die "undefined references"
fi
cp "$work/deck.pdf" "$out"
pages=$(pdfinfo "$out" 2>/dev/null | sed -n 's/^Pages: *//p')
say "wrote $out (${pages:-?} slides; pandoc $t_pandoc s, pdflatex $runs run(s), $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s in all)"
