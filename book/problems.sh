#!/usr/bin/env bash
# problems.sh -- the body of `make problems SEED=NAME`: one reader's practice problems.
#
#   book/problems.sh SEED [CHAPTER.md...]    (default: every chapters/NN-*.md)
#
# Writes, from the ```{.problem} templates of the chapters (syntax: book/problems.md):
#   build/problems-SEED.pdf    that seed's numbers, questions only
#   build/answers-SEED.pdf     the key: answers, worked steps, the chalk commands
#   build/answers-SEED.json    problem id -> {value, unit, tolerance, ...},
#                              graded by `build/chalk check-answers`
# The same seed gives byte-identical files (a seeded generator of our own in
# book/filters/problems.lua; SOURCE_DATE_EPOCH, no PDF dates, an empty trailer
# ID); another seed gives other numbers. Each file is written whole or not at all.
# Environment: CHALK (default build/chalk), OUT (default build).
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: make problems SEED=NAME   (NAME: letters, digits, '.', '_' or '-')"
seed=${1:-}
if [ -z "$seed" ]; then
    echo "$usage" >&2
    exit 2
fi
if ! [[ $seed =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]]; then
    echo "problems: bad seed \"$seed\"; $usage" >&2
    exit 2
fi
shift
chapters=("$@")
if [ ${#chapters[@]} -eq 0 ]; then
    chapters=(chapters/[0-9][0-9]-*.md)
fi
out=${OUT:-build}
tmp="$out/problems-tmp/$seed"
mkdir -p "$tmp"

# Deterministic PDFs: a fixed date, no dates in the info dictionary, no trailer ID.
export SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1
header="$tmp/header.tex"
cat >"$header" <<'EOF'
\pdftrailerid{}
\pdfinfoomitdate=1
\usepackage{mathpazo}
\usepackage{microtype}
\usepackage{enumitem}
\setlist{itemsep=2pt}
\usepackage{fancyvrb}
\fvset{fontsize=\small}
\RecustomVerbatimEnvironment{verbatim}{Verbatim}{fontsize=\small}
EOF

# pdf PART NAME: build/NAME.pdf from the chapters with -M problems=PART.
pdf() {
    local part=$1 name=$2
    if ! pandoc "${chapters[@]}" \
        --lua-filter book/filters/problems.lua \
        -M problems="$part" \
        -M problems-seed="$seed" \
        -M problems-json="$tmp/answers.json" \
        -V documentclass=article \
        -V papersize=a4 \
        -V geometry:margin=2.4cm \
        -V fontsize=11pt \
        -V colorlinks=true \
        --include-in-header="$header" \
        --standalone \
        -o "$tmp/$name.tex" 2>"$tmp/$name.err"; then
        # the filter's own message, without Lua's stack traceback
        sed -e '/^stack traceback:/,$d' -e '/^Error running filter/d' "$tmp/$name.err" >&2
        echo "problems: nothing written for seed $seed" >&2
        exit 1
    fi
    if ! (cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error "$name.tex" >"$name.out" 2>&1); then
        echo "problems: pdflatex failed on $tmp/$name.tex; see $tmp/$name.log" >&2
        exit 1
    fi
    mv "$tmp/$name.pdf" "$out/$name.pdf"
}

pdf questions "problems-$seed"
pdf answers "answers-$seed"
mv "$tmp/answers.json" "$out/answers-$seed.json"
echo "problems: $out/problems-$seed.pdf $out/answers-$seed.pdf $out/answers-$seed.json"
