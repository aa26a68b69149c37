#!/usr/bin/env bash
# build.sh -- markdown to PDF: pandoc 2.17 with the book's Lua filters, then pdflatex.
#
#   book/build.sh EDITION OUT.pdf FILE.md...
#
# EDITION is student or instructor. The FILEs are read in order as one book
# (the Makefile passes book/preface.md, chapters/NN-*.md, book/appendix.md).
# Intermediate files go to OUT's directory + /book-EDITION/ (chalk.tex, plots/,
# diagrams/, the LaTeX log, times.txt: where the time went); chalk's answers, plots
# and diagrams are cached by content in OUT's directory + /cache/, shared by both
# editions. On any error, pandoc's or LaTeX's message is printed and the script
# exits 1 without writing OUT. Run from the repository root; CHALK overrides the
# calculator (default build/chalk), CHALK_CACHE the cache of its answers.
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
# Both editions share one cache: chalk's answers (book/filters/util.lua), plots and
# diagrams by content, so what did not change is not computed again.
cache="$(dirname "$out")/cache"
export CHALK_CACHE=${CHALK_CACHE-$cache/chalk}
mkdir -p "$work"
rm -f "$work/chalk.tex"

# The filters, in the order their header comments require.
# --citeproc stands where pandoc runs it: after crossref.lua (which takes @sec:, @eq:,
# @fig:, @tbl:), before cite.lua (which stops on a key no entry has).
filters=(include chalk plot gantt diagram presets notation boxes cards problems crossref --citeproc cite book)
args=(--bibliography book/references.bib --csl book/chalk.csl)
for f in "${filters[@]}"; do
    case $f in --*) args+=("$f") ;; *) args+=(--lua-filter "book/filters/$f.lua") ;; esac
done

# The title page says which sources this PDF was built from: the book's version
# (book/metadata.yaml), the commit and its date, "+ local changes" when the working
# tree differs from it; outside a git checkout (a handout), "not a git checkout".
commit="not a git checkout" built=""
if git rev-parse --git-dir >/dev/null 2>&1; then
    commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo "no commit yet")
    built=$(git log -1 --format=%cs 2>/dev/null || true)
    [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || commit="$commit + local changes"
fi

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
t_pandoc=$(now)
if ! pandoc --from markdown --to latex --standalone \
    --template book/template.tex --metadata-file book/metadata.yaml \
    --top-level-division=chapter --highlight-style=tango \
    -M edition="$edition" -M build-dir="$work" -M cache-dir="$cache" \
    -M commit="$commit" ${built:+-M commit-date="$built"} \
    "${args[@]}" -o "$work/chalk.tex" "$@" 2>"$work/pandoc.err"; then
    # the filter's own message, without Lua's stack traceback
    sed '/^stack traceback:/,$d' "$work/pandoc.err" >&2
    echo "book: pandoc failed; nothing written to $out" >&2
    exit 1
fi
grep -v '^\[WARNING\] Missing character' "$work/pandoc.err" >&2 || true
t_pandoc=$(seconds "$t_pandoc")

# pdflatex until the cross-references and the table of contents settle: again only
# while a run changes what the next one prints: label numbers and anchors in the .aux
# (in any order: a float that moves writes its label elsewhere), and the .toc. Page
# numbers of labels, bookmarks' source lines and the page count are left out of the
# comparison: nothing prints them but the table of contents, which is compared whole.
# The .aux of the last build is kept, so an edit that moves no section to another page
# costs one run. At most 4 runs.
state() {
    local aux
    aux=$(sed -E -e '/^\\@writefile/d' -e '/^\\gdef ?\\@abspage@last/d' -e 's/srcline=\{[0-9]+\}//' \
        -e 's/^(\\newlabel\{[^}]*\}\{\{[^}]*\})\{[^}]*\}/\1{}/' "$work/chalk.aux" 2>/dev/null || true)
    {
        grep -v -E '^\\(newlabel|BKM@entry)' <<<"$aux" || true
        grep -E '^\\(newlabel|BKM@entry)' <<<"$aux" | sort || true
        cat "$work/chalk.toc" 2>/dev/null || true
    } | cksum
}
t_latex=$(now)
runs=0
for run in 1 2 3 4; do
    before=$(state)
    runs=$run
    if ! pdflatex -interaction=nonstopmode -halt-on-error -file-line-error \
        -output-directory="$work" "$work/chalk.tex" >"$work/pdflatex.out" 2>&1; then
        echo "book: pdflatex failed (run $run); the first errors of $work/chalk.log:" >&2
        grep -A3 -E '^(!|.*:[0-9]+: )' "$work/chalk.log" | head -30 >&2
        rm -f "$work/chalk.aux" # a half-written .aux would break the next run
        exit 1
    fi
    [ "$(state)" != "$before" ] || break
done
t_latex=$(seconds "$t_latex")
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
# where the time went, for book/bench.sh
echo "pandoc $t_pandoc s, pdflatex $t_latex s ($runs runs)" >"$work/times.txt"
