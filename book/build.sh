#!/usr/bin/env bash
# build.sh -- markdown to PDF: pandoc 2.17 with the book's Lua filters, each input file
# converted alone to a LaTeX fragment (cached by content), then pdflatex.
#
#   book/build.sh EDITION OUT.pdf FILE.md...
#
# EDITION is student or instructor. The FILEs are read in order as one book (the
# Makefile passes book/preface.md, chapters/NN-*.md, book/appendix.md,
# book/bibliography.md). Run from the repository root; CHALK overrides the calculator
# (default build/chalk), CHALK_CACHE the cache of its answers.
#
# How (it says what it does, file by file, as it goes):
#  1. A scan of every file's headers (awk, no pandoc) says where each file starts in
#     the book (numbered chapters before it, appendix or not, \mainmatter or not) and
#     lists every sec: id with its kind (chapter, appendix, section, unnumbered):
#     the xref table, so a file converted alone still writes "Chapter 3" or
#     "Section 3.2" for another file's section (book/filters/crossref.lua).
#  2. Each file becomes a LaTeX fragment (pandoc --to latex with every filter,
#     --citeproc), several at once, in OUT's directory + /cache/book/KEY/. KEY is the
#     SHA-1 of the file, its place in the book (step 1), the edition, the filters,
#     this script, book/metadata.yaml and pandoc's version. A fragment is used again
#     while every file its filters read is unchanged: they record each one
#     (util.depend: the calculator, included sources, exercises.txt, notation
#     tables, the bibliography and its style, drawn figures), and their SHA-1 sums
#     are kept with the fragment; and while the kinds of the other files' sections
#     it refers to are unchanged. So editing one chapter converts that chapter alone;
#     a rebuilt calculator converts every file that runs it. Both editions share
#     the cache.
#  3. Checks over the whole book, from what each conversion recorded
#     (util.record): no id (label, card, exercise, problem) defined twice, every
#     figure, table and equation referred to across files exists, the scan's chapter
#     count agrees with the filters', every citation resolved (cite.lua stops on a
#     key the bibliography lacks, naming it; a citeproc warning stops the build too),
#     and every entry of the bibliography is cited.
#  4. chalk.tex: pandoc's template (book/template.tex) with the title page's
#     metadata, around \input{body.tex}, the fragments in order.
#  5. pdflatex (from a format of the preamble, made once), then makeindex, again
#     only while a run changes what the next one
#     prints: label numbers and anchors in the .aux (in any order), the .toc and the
#     index (.ind). The .aux of the last build is kept, so an edit that moves no page
#     costs one run. At most 4 runs.
# Intermediate files go to OUT's directory + /book-EDITION/ (chalk.tex, body.tex,
# plots/, diagrams/, the LaTeX log, times.txt: where the time went). On any error
# the cause is printed, naming the file, and the script exits 1 without writing OUT.
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: book/build.sh student|instructor OUT.pdf FILE.md..." >&2; exit 2; }
edition=$1 out=$2
shift 2
files=("$@")
case $edition in student | instructor) ;; *)
    echo "book: EDITION must be student or instructor, not '$edition'" >&2
    exit 2
    ;;
esac
for f in "${files[@]}"; do [ -f "$f" ] || { echo "book: $f: no such file" >&2; exit 2; }; done

work="$(dirname "$out")/book-$edition"
# Both editions share one cache: chalk's answers (book/filters/util.lua), plots and
# diagrams by content (plot.lua, diagram.lua), the fragments by key (below).
cache="$(dirname "$out")/cache"
store=$cache/book
export CHALK_CACHE=${CHALK_CACHE-$cache/chalk}
mkdir -p "$work" "$store"
rm -f "$work/chalk.tex"

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
say() { echo "book: $*"; }
die() {
    echo "book: $*" >&2
    echo "book: nothing written to $out" >&2
    exit 1
}

# The filters, in the order their header comments require; --citeproc stands where
# pandoc runs it: after crossref.lua (which takes @sec:, @eq:, @fig:, @tbl:), before
# cite.lua (which stops on a key no entry has).
filters=(include chalk plot gantt diagram presets notation index boxes cards problems crossref --citeproc cite book)
args=(--from markdown --to latex --top-level-division=chapter --highlight-style=tango
    --metadata-file book/metadata.yaml --bibliography book/references.bib --csl book/chalk.csl
    -M edition="$edition" -M build-dir="$work" -M cache-dir="$cache")
for f in "${filters[@]}"; do
    case $f in --*) args+=("$f") ;; *) args+=(--lua-filter "book/filters/$f.lua") ;; esac
done

# A filter's error as pandoc prints it, without Lua's stack traceback and pandoc's
# wrapping ('Error running filter F:' and 'PandocLuaError "...\n..."').
filter_error() {
    sed -e '/^Error running filter/d' -e '/^\[WARNING\]/d' -e '/^stack traceback:/,$d' "$1" |
        sed -E -e '/^PandocLuaError "/{s/^PandocLuaError "//; s/\\nstack traceback:.*$//; s/\\n/\n/g; s/\\"/"/g;}'
}

t_pandoc=$(now)

# ---- 1. the scan: each file's place in the book, and every section's kind ----------
# Prints "F<TAB>FILE<TAB>CHAPTERS<TAB>APPENDIX<TAB>MAINMATTER" as each file starts
# (what came before it) and "S<TAB>ID<TAB>KIND" for each header with a sec: id, and
# "E<TAB>FILE<TAB>CHAPTERS<TAB>APPENDIX" as each ends. Headers are ATX lines ("# ...")
# outside fenced code; {.unnumbered} or {-} leaves one unnumbered, {.appendix} starts
# the lettered chapters, and an unnumbered chapter's sections are unnumbered too
# (book/filters/crossref.lua counts the same way; it checks each kind, and the
# E lines are checked against what it counted).
scan() {
    awk '
    function bool(b) { return b ? "true" : "false" }
    function endfile() { if (file != "") printf "E\t%s\t%d\t%s\n", file, ch, bool(app) }
    FNR == 1 {
        endfile(); file = FILENAME; fence = ""
        printf "F\t%s\t%d\t%s\t%s\n", FILENAME, ch, bool(app), bool(main)
    }
    {
        if (match($0, /^(```+|~~~+)/)) {
            run = substr($0, 1, RLENGTH)
            if (fence == "") { fence = run; next }
            rest = substr($0, RLENGTH + 1)
            if (substr(run, 1, 1) == substr(fence, 1, 1) && length(run) >= length(fence) && rest ~ /^[ \t]*$/) fence = ""
            next
        }
        if (fence != "" || !match($0, /^#+[ \t]/)) next
        level = RLENGTH - 1
        attrs = ""
        if (match($0, /\{[^}]*\}[ \t]*$/)) attrs = " " substr($0, RSTART + 1, RLENGTH - 2) " "
        unnum = (attrs ~ /[ \t]\.unnumbered[ \t]/ || attrs ~ /[ \t]-[ \t]/)
        id = ""
        if (match(attrs, /#sec:[^ \t}]+/)) id = substr(attrs, RSTART + 1, RLENGTH - 1)
        if (level == 1) {
            if (attrs ~ /[ \t]\.appendix[ \t]/ && !app) { app = 1; ch = 0 }
            chunnum = unnum
            if (unnum) kind = "unnumbered"
            else { ch++; main = 1; kind = app ? "app" : "chap" }
        } else {
            kind = (unnum || chunnum) ? "unnumbered" : "sec"
        }
        if (id != "") printf "S\t%s\t%s\n", id, kind
    }
    END { endfile() }
    ' "$@"
}
scan "${files[@]}" >"$work/scan.tsv"
{ grep '^S' "$work/scan.tsv" || true; } | cut -f2,3 >"$work/xref-table.tsv"
args+=(-M xref-table="$work/xref-table.tsv")

# What every fragment is made with, whatever file it comes from; and the names of
# the files the filters look for by pattern (a new exercises.txt, stub or notation
# table changes it).
global=$({
    cat book/filters/*.lua book/metadata.yaml "$0"
    pandoc --version | head -1
    echo "$edition"
    ls -d exercises/[0-9][0-9]-*/*.c exercises/[0-9][0-9]-*/exercises.txt book/notation/*.tsv 2>/dev/null || true
} | sha1sum | cut -c1-40)

# ---- 2. the fragments ----------------------------------------------------------------
declare -A ctx_of end_of key_of
while IFS=$'\t' read -r tag f a b c; do
    case $tag in
    F) ctx_of[$f]="$a $b $c" ;;
    E) end_of[$f]="$a $b" ;;
    esac
done <"$work/scan.tsv"

# valid KEY: the fragment of KEY exists, every file it was made from is unchanged,
# and every section of another file it refers to has the kind it had.
valid() {
    local dir=$store/$1 id kind
    [ -f "$dir/frag.tex" ] || return 1
    if [ -s "$dir/deps.sha1" ]; then sha1sum --check --status "$dir/deps.sha1" 2>/dev/null || return 1; fi
    [ -s "$dir/xref-sec" ] || return 0
    while IFS=$'\t' read -r id kind; do
        [ "$(awk -F'\t' -v id="$id" '$1 == id { print $2; exit }' "$work/xref-table.tsv")" = "$kind" ] || return 1
    done <"$dir/xref-sec"
}

# convert FILE KEY: one fragment, with its records, moved whole into the store.
convert() {
    local f=$1 key=$2 tmp
    local -a c refs=(-M suppress-bibliography=true)
    read -r -a c <<<"${ctx_of[$f]}"
    # citeproc prints the bibliography in the one file that has a ::: {#refs} div;
    # alone, every other file would end with a bibliography of its own citations
    if grep -q '^:::* *{#refs' "$f"; then refs=(); fi
    tmp=$(mktemp -d "$store/.tmp.XXXXXX")
    local t0
    t0=$(now)
    if ! CHALK_BOOK_SIDE=$tmp pandoc "${args[@]}" -M chapters-before="${c[0]}" -M in-appendix="${c[1]}" \
        -M in-mainmatter="${c[2]}" "${refs[@]}" -o "$tmp/frag.tex" "$f" 2>"$tmp/err"; then
        filter_error "$tmp/err" >"$work/failed-$(basename "$f").err"
        rm -rf "$tmp"
        return 1
    fi
    # what the filters read, by content (a product of the build itself, like a
    # drawing in the cache, is a file like any other: deleted, it is made again)
    if [ -s "$tmp/deps" ]; then sort -u "$tmp/deps" | tr '\n' '\0' | xargs -0 sha1sum >"$tmp/deps.sha1"; fi
    grep -v '^\[WARNING\] Missing character' "$tmp/err" >"$tmp/notes" || true
    seconds "$t0" >"$tmp/seconds"
    rm -rf "${store:?}/$key"
    mv "$tmp" "$store/$key"
}

todo=()
for f in "${files[@]}"; do
    key=$({
        echo "$global ${ctx_of[$f]}"
        sha1sum <"$f"
    } | sha1sum | cut -c1-40)
    key_of[$f]=$key
    if valid "$key"; then say "$f: cached"; else todo+=("$f"); fi
done

# Several at once (one per core), in order; a failure is reported after all end.
jobs=$(nproc 2>/dev/null || echo 2)
rm -f "$work"/failed-*.err
running=0
for f in "${todo[@]}"; do
    say "$f: converting (pandoc and the filters)"
    convert "$f" "${key_of[$f]}" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true
failed=0
for f in "${todo[@]}"; do
    dir=$store/${key_of[$f]}
    if [ -f "$dir/frag.tex" ]; then
        say "$f: converted in $(cat "$dir/seconds") s"
    else
        echo "book: $f: $(cat "$work/failed-$(basename "$f").err" 2>/dev/null || echo 'pandoc failed')" >&2
        failed=1
    fi
done
[ "$failed" -eq 0 ] || die "pandoc failed"
# the filters' notes (a diagram scaled down, ...), of every file, as one run would say them
for f in "${files[@]}"; do
    notes=$store/${key_of[$f]}/notes
    [ ! -s "$notes" ] || grep -v '^\[WARNING\] Citeproc: citation .* not found' "$notes" | sed "s|^|book: $f: |" >&2 || true
done

# ---- 3. checks over the whole book -------------------------------------------------
# records F: each file's record F, prefixed by the file's name
records() {
    local f
    for f in "${files[@]}"; do
        [ ! -f "$store/${key_of[$f]}/$1" ] || sed "s|^|$f\t|" "$store/${key_of[$f]}/$1"
    done
}
problems=""
# the filters' count of chapters against the scan's
for f in "${files[@]}"; do
    got=$(cat "$store/${key_of[$f]}/xref-end" 2>/dev/null || true)
    [ "$got" = "${end_of[$f]}" ] || problems+="$f: the filters counted chapters '$got' where the scan of its headers counted '${end_of[$f]}' (a '# ' line the scan misread?)"$'\n'
done
# ids defined twice, in two files (within one file the filters stop on them)
dups=$(records ids | awk -F'\t' '{ n[$2]++; where[$2] = where[$2] (where[$2] == "" ? "" : " and ") $1 }
    END { for (k in n) if (n[k] > 1) print k " is defined twice: " where[k] }' | sort)
[ -z "$dups" ] || problems+="$dups"$'\n'
# figures, tables and equations of other files
records ids | awk -F'\t' '$2 ~ /^label / { sub(/^label /, "", $2); print $2 }' | sort -u >"$work/labels"
missing=$(records xref-uses | sort -u -k2 | while IFS=$'\t' read -r f id; do
    grep -qxF -- "$id" "$work/labels" || echo "$f: @$id: no such ${id%%:*} id in the book"
done)
[ -z "$missing" ] || problems+="$missing"$'\n'
# citations: citeproc's own warnings, and entries nothing cites
unresolved=$(for f in "${files[@]}"; do
    sed -n "s|^\[WARNING\] Citeproc: citation \(.*\) not found|$f: citation @\1: no entry in book/references.bib|p" \
        "$store/${key_of[$f]}/notes"
done)
[ -z "$unresolved" ] || problems+="$unresolved"$'\n'
records cites | cut -f2 | sort -u >"$work/cited"
uncited=$(sed -n 's/^@[a-zA-Z]*{\([^,]*\),.*/\1/p' book/references.bib | sort -u | comm -23 - "$work/cited" | tr '\n' ' ')
if grep -q 'nocite' "${files[@]}" 2>/dev/null && [ -n "$uncited" ]; then
    problems+="book/references.bib: cited by no file: $uncited(cite it, or delete the entry)"$'\n'
fi
[ -z "$problems" ] || die "$(printf '%s' "$problems")"
t_pandoc=$(seconds "$t_pandoc")

# ---- 4. chalk.tex around the fragments --------------------------------------------
# The title page says which sources this PDF was built from: the book's version
# (book/metadata.yaml), the commit and its date, "+ local changes" when the working
# tree differs from it; outside a git checkout (a handout), "not a git checkout".
commit="not a git checkout" built=""
if git rev-parse --git-dir >/dev/null 2>&1; then
    commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo "no commit yet")
    built=$(git log -1 --format=%cs 2>/dev/null || true)
    [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || commit="$commit + local changes"
fi
# (each fragment announced in the log, "chalk-file: FILE", so that a check of the log
# -- tests/checks/layout.sh -- names the file an overfull line comes from)
for f in "${files[@]}"; do
    printf '\\typeout{chalk-file: %s}\n' "$f"
    cat "$store/${key_of[$f]}/frag.tex"
done >"$work/body.tex.new"
cmp -s "$work/body.tex.new" "$work/body.tex" 2>/dev/null && rm "$work/body.tex.new" || mv "$work/body.tex.new" "$work/body.tex"
# (the one code block makes pandoc write its highlighting macros, which the
# fragments use; the template puts \input{body.tex} where the body would go)
if ! printf '```c\nint x;\n```\n' | pandoc --from markdown --to latex --standalone \
    --template book/template.tex --metadata-file book/metadata.yaml --highlight-style=tango \
    -M edition="$edition" -M commit="$commit" ${built:+-M commit-date="$built"} \
    -V body-input="$work/body" --lua-filter book/filters/book.lua -o "$work/chalk.tex" 2>"$work/pandoc.err"; then
    die "pandoc failed on the template: $(filter_error "$work/pandoc.err")"
fi

# ---- 5. pdflatex until the cross-references, the contents and the index settle -----
# Page numbers of labels, bookmarks' source lines and the page count are left out of
# the comparison: nothing prints them but the table of contents and the index,
# which are compared whole.
state() {
    local aux
    aux=$(sed -E -e '/^\\@writefile/d' -e '/^\\gdef ?\\@abspage@last/d' -e 's/srcline=\{[0-9]+\}//' \
        -e 's/^(\\newlabel\{[^}]*\}\{\{[^}]*\})\{[^}]*\}/\1{}/' "$work/chalk.aux" 2>/dev/null || true)
    {
        grep -v -E '^\\(newlabel|BKM@entry)' <<<"$aux" || true
        grep -E '^\\(newlabel|BKM@entry)' <<<"$aux" | sort || true
        cat "$work/chalk.toc" "$work/chalk.ind" 2>/dev/null || true
    } | cksum
}
t_latex=$(now)
# The preamble (the template up to \begin{document}: packages, fonts, colours) is
# loaded once into a format file (mylatexformat) kept in OUT's directory +
# /cache/latex/, named by a hash of the preamble and of pdflatex's version; each run
# then starts from it (about a second less per run). Should it fail to build, runs
# load the preamble themselves.
fmtdir=$cache/latex
fmtkey=$({
    sed '/\\begin{document}/q' "$work/chalk.tex"
    pdflatex --version | head -1
} | sha1sum | cut -c1-40)
fmt=()
if [ -f "$fmtdir/$fmtkey.fmt" ]; then
    fmt=(-fmt="$fmtdir/$fmtkey")
else
    mkdir -p "$fmtdir"
    say "pdflatex: loading the preamble into a format (once)"
    if pdflatex -ini -interaction=nonstopmode -jobname="$fmtkey" -output-directory="$fmtdir" \
        '&pdflatex' mylatexformat.ltx "$work/chalk.tex" >"$work/format.out" 2>&1 &&
        [ -f "$fmtdir/$fmtkey.fmt" ]; then
        fmt=(-fmt="$fmtdir/$fmtkey")
        find "$fmtdir" -name '*.fmt' ! -name "$fmtkey.fmt" -delete
    else
        echo "book: note: no format from the preamble ($work/format.out); pdflatex loads it each run" >&2
    fi
fi
runs=0
each=()
for run in 1 2 3 4; do
    before=$(state)
    runs=$run
    t_run=$(now)
    say "pdflatex, run $run"
    if ! pdflatex -interaction=nonstopmode -halt-on-error -file-line-error "${fmt[@]}" \
        -output-directory="$work" "$work/chalk.tex" >"$work/pdflatex.out" 2>&1; then
        echo "book: pdflatex failed (run $run); the first errors of $work/chalk.log:" >&2
        grep -A3 -E '^(!|.*:[0-9]+: )' "$work/chalk.log" | head -30 >&2
        rm -f "$work/chalk.aux" # a half-written .aux would break the next run
        die "pdflatex failed"
    fi
    if [ -f "$work/chalk.idx" ]; then
        # (in the directory it writes to: TeX Live's makeindex writes nowhere else)
        (cd "$work" && makeindex -q -s "$OLDPWD/book/index.ist" -t chalk.ilg -o chalk.ind chalk.idx) \
            >"$work/makeindex.out" 2>&1 ||
            die "makeindex failed: $(cat "$work/makeindex.out" "$work/chalk.ilg" 2>/dev/null | head -20)"
    fi
    each+=("$(seconds "$t_run")")
    [ "$(state)" != "$before" ] || break
done
t_latex=$(seconds "$t_latex")
if grep -q -E 'There were undefined references|Reference .* undefined' "$work/chalk.log"; then
    grep -E 'Reference .* undefined' "$work/chalk.log" >&2
    die "undefined references"
fi
overfull=$(grep -c '^Overfull \\hbox' "$work/chalk.log" || true)
[ "$overfull" -eq 0 ] || echo "book: note: $overfull overfull line(s), see $work/chalk.log" >&2
cp "$work/chalk.pdf" "$out"
pages=$(pdfinfo "$out" 2>/dev/null | sed -n 's/^Pages: *//p')
say "wrote $out (${pages:-?} pages, $edition edition)"

# where the time went, for book/bench.sh: pandoc's total, then each file converted
converted=""
for f in "${todo[@]}"; do converted+=" $(basename "$f" .md) $(cat "$store/${key_of[$f]}/seconds") s,"; done
echo "pandoc $t_pandoc s (${#todo[@]} of ${#files[@]} files converted${converted:+:}${converted%,}), pdflatex $t_latex s ($runs runs: $(printf '%s s, ' "${each[@]}" | sed 's/, $//'))" >"$work/times.txt"

# The store keeps what either edition's last build used; the rest goes once it is an
# hour old (a build running beside this one may be using what it just made).
printf '%s\n' "${key_of[@]}" >"$work/keys"
keep=$(cat "$(dirname "$out")"/book-*/keys 2>/dev/null | sort -u)
find "$store" -mindepth 1 -maxdepth 1 -type d -mmin +60 | while read -r d; do
    grep -qxF "$(basename "$d")" <<<"$keep" || rm -rf "$d"
done
