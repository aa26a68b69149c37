#!/usr/bin/env bash
# test.sh -- the lecture decks' tests (phase 10 of make test; book/slides/README.md).
# Prints "ok - ..." or "FAIL - ..." per check and ends with "slides: N passed, N failed".
#
#   book/slides/test.sh [NN...]     (default: every chapter)
#
# For each chapter:
#   - its deck builds (book/slides/build.sh: which itself fails on an overfull frame
#     or line, or an undefined reference) with 20 to 40 slides;
#   - every element the chapter marks (.slide on a heading, equation, table, figure,
#     listing or card, and every ::: slide block) is in the deck: frames.lua's record
#     of the frames it made, and the deck's text (each equation's and figure's book
#     number, each slide's title);
#   - every figure of the chapter is on a slide;
#   - every live number on a slide prints as the book prints the same command: each
#     one is rendered again through the book's own chalk.lua (LaTeX, as the book
#     does) and must be in the deck's text, whole (no digit next to it; a number in
#     TeX maths, such as 6.71x10^11, with its exponent: "6.71 × 1011" in the text);
#   - the type of every figure is at least 20 pt at slide size: 9.45 pt on this
#     160 mm frame (a 13.33-inch slide is 2.12 times wider), from how the figure is
#     drawn (a plot's gnuplot font; a diagram's smallest size command, sub- and
#     superscripts aside; gantt.lua's DECK_FONT for a schedule) times the scale the
#     frame gives it (its natural size, pdfinfo, into the frame's figure box), page
#     by page for a figure of several (a slide each). No exceptions: a figure under
#     20 pt fails; the check says the least size of the deck.
# Once: a planted overfull slide stops the build; and the student handout, built by
# make handout in a scratch copy, holds no deck and nothing that builds one (a deck
# or the builder planted in a copy of it is caught).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

passed=0 failed=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
bad() { echo "FAIL - $*"; failed=$((failed + 1)); }

chapters=("$@")
if [ ${#chapters[@]} -eq 0 ]; then
    for f in chapters/[0-9][0-9]-*.md; do chapters+=("$(basename "$f" | cut -c1-2)"); done
fi
out=build
min_pt=9.45

# type_of TEXT: the smallest type size, in points, that TEXT's size commands give a
# deck's diagram (book/filters/diagram.lua: the standalone class at 12 pt, text at
# 12.5 pt; sub- and superscripts aside)
type_of() {
    local t=12.5
    case $1 in *'\small'*) t=10.95 ;; esac
    case $1 in *'\footnotesize'*) t=10 ;; esac
    case $1 in *'\scriptsize'*) t=8 ;; esac
    echo "$t"
}

for ch in "${chapters[@]}"; do
    src=$(ls chapters/"$ch"-*.md)
    deck=$out/slides-$ch.pdf
    if ! log=$(book/slides/build.sh "$ch" "$deck" 2>&1); then
        bad "$ch: the deck does not build: $(printf '%s\n' "$log" | grep -v '^slides: .*pandoc and the filters' | tail -5)"
        continue
    fi
    n=$(pdfinfo "$deck" | sed -n 's/^Pages: *//p')
    if [ "$n" -ge 20 ] && [ "$n" -le 40 ]; then ok "$ch: the deck builds, no overfull frame, $n slides"; else bad "$ch: $n slides, not 20 to 40"; fi
    work=$out/slides-$ch
    rec=$work/side/slides
    # (typographic quotes as typed, for titles; runs of blanks as one)
    text=$(pdftotext -layout "$deck" - | sed -e "s/’/'/g" -e "s/‘/'/g" -e 's/[“”]/"/g' | tr -s ' \n' ' ')

    # marked elements against the frames made
    missing=""
    for id in $(grep -oE '\{#(eq|tbl):[^ }]+ \.slide\}' "$src" | sed -E 's/\{#([^ ]+) .*/\1/'); do
        kind=${id%%:*}
        grep -qxF "$kind	$id" "$rec" 2>/dev/null || missing+=" $id"
    done
    for id in $(grep -E '^```\{\.(plot|diagram|gantt) ' "$src" | grep -E ' \.slide( |\})' | grep -oE '#fig:[^ }]+' | tr -d '#'); do
        grep -qxF "fig	$id" "$rec" 2>/dev/null || missing+=" $id"
    done
    for id in $(grep -E '^#+ .*\{[^}]*\.slide[ }]' "$src" | grep -oE '#sec:[^ }]+' | tr -d '#'); do
        grep -qxF "head	$id" "$rec" 2>/dev/null || missing+=" $id"
    done
    for t in $(grep -E '^:::+ *\{\.slide [^}]*title="' "$src" | sed -E 's/.*title="([^"]*)".*/\1/' | tr ' ' '\a'); do
        t=${t//$'\a'/ }
        case $t in *'$'*) continue ;; esac # maths in a title: checked by the record only
        grep -qF "$t" <<<"$text" || missing+=" \"$t\""
    done
    cards=$(grep -cE '^:::+ *\{\.card [^}]*\.slide\}' "$src")
    got=$(sed -n 's/^review\t//p' "$rec" 2>/dev/null)
    [ "${got:-0}" = "$cards" ] || missing+=" ($cards marked cards, ${got:-0} review questions)"
    texts=$(grep -cE '^:::+ *(slide *$|\{\.slide[ }])' "$src")
    if [ -z "$missing" ]; then
        ok "$ch: every marked element is in the deck ($(wc -l <"$rec") frames made; $texts slide blocks, $cards review questions)"
    else
        bad "$ch: marked but not in the deck:$missing"
    fi
    # the numbers of the marked equations and figures, as the book prints them
    nums=$(awk -F'\t' '$1 == "eq" || $1 == "fig" || $1 == "tbl" { print $1 " " $2 }' "$rec")
    misnum=""
    while read -r kind id; do
        [ -n "$id" ] || continue
        num=$(grep -oE "chalklabel\{$id\}\{[^}]*\}" "$work/deck.tex" | sed -E 's/.*\{([^}]*)\}$/\1/')
        case $kind in eq) want="($num)" ;; fig) want="Figure $num" ;; tbl) want="Table $num" ;; esac
        [ -n "$num" ] && grep -qF "$want" <<<"$text" || misnum+=" $id"
    done <<<"$nums"
    [ -z "$misnum" ] && ok "$ch: each marked equation, figure and table shows its book number" ||
        bad "$ch: no book number on the slide of:$misnum"

    # every figure of the chapter on a slide
    nofig=""
    for id in $(grep -E '^```\{\.(plot|diagram|gantt)' "$src" | grep -oE '#fig:[^ }]+' | tr -d '#'); do
        grep -qxF "fig	$id" "$rec" || nofig+=" $id"
    done
    [ -z "$nofig" ] && ok "$ch: every figure of the chapter is on a slide" || bad "$ch: figures on no slide:$nofig"

    # live numbers: rendered again by the book's chalk.lua, found in the deck
    if [ -s "$work/side/slide-chalk" ]; then
        md=$work/numbers.md
        while IFS=$'\t' read -r cmd attrs; do
            printf '`%s`{.chalk %s}\n\n' "$cmd" "$attrs"
        done <"$work/side/slide-chalk" >"$md"
        if rendered=$(pandoc --from markdown --to latex --lua-filter book/filters/chalk.lua "$md" 2>&1); then
            nbad="" count=0
            while IFS= read -r line; do
                [ -n "$line" ] || continue
                count=$((count + 1))
                # TeX maths as the PDF's text (pdftotext): 6.71\times10^{11} is "6.71 × 1011",
                # the exponent in full, its minus "−"; \$ is $; thin spaces go
                want=$(sed -E -e 's/\\\$//g' -e 's/\\([%&#_])/\1/g' -e 's/\\[()]//g' -e 's/\$//g' \
                    -e 's/ *\\times *10\^\{?-([0-9]+)\}?/ × 10−\1/g' -e 's/ *\\times *10\^\{?([0-9]+)\}?/ × 10\1/g' \
                    -e 's/\\,//g' -e 's/\{\}//g' -e 's/~/ /g' <<<"$line")
                # whole: no digit (or a point before it) on either side in the deck's text
                re=$(sed 's/[][\.*^$+?(){}|/]/\\&/g' <<<"$want")
                grep -qE -- "(^|[^0-9.])$re([^0-9]|$)" <<<"$text" || nbad+=" [$line as \"$want\"]"
            done <<<"$rendered"
            [ -z "$nbad" ] && ok "$ch: the slides' $count live numbers print as the book prints them" ||
                bad "$ch: live numbers not found in the deck as the book prints them:$nbad"
        else
            bad "$ch: the slides' numbers could not be rendered again: $rendered"
        fi
    fi

    # type in figures: at least 20 pt at slide size, from how each is drawn and how
    # much the frame scales it (\chalkfigure: 14 cm wide, 6.2 cm high, or 7.1 cm
    # alone); a figure of several pages (\chalkfigurepage: a slide each) page by page
    small="" sizes=""
    k=0
    figs=$(awk -F'\t' '$1 == "fig" { print $2 }' "$rec")
    while read -r box page path; do
        [ "$page" -le 1 ] && k=$((k + 1))
        id=$(sed -n "${k}p" <<<"$figs")
        p1=$((page > 1 ? page : 1))
        read -r w h < <(pdfinfo -f "$p1" -l "$p1" "$path" | sed -n 's/^Page *[0-9]* size: *\([0-9.]*\) x \([0-9.]*\).*/\1 \2/p')
        if [ -f "$work/plots/${id//:/-}.gp" ]; then
            # gnuplot's pdfcairo prints a font of size S at 4/3 S points
            type=$(sed -n 's/.*font "[^,]*,\([0-9.]*\)".*/\1/p' "$work/plots/${id//:/-}.gp" | awk '{ print $1 * 4 / 3 }')
        elif grep -qE '^```\{\.gantt .*#'"$id"'[ }]' "$src"; then
            # book/filters/gantt.lua draws a deck's schedules in its DECK_FONT
            type=$(type_of "$(sed -n 's/^local DECK_FONT = //p' book/filters/gantt.lua)")
        else
            # a diagram: its smallest size command
            type=$(type_of "$(awk -v id="$id" 'index($0, "#" id) && /^```/ { on = 1; next } on && /^```/ { exit } on' "$src")")
        fi
        at=$(awk -v t="$type" -v w="$w" -v h="$h" -v box="$box" 'BEGIN {
            bw = 14 / 2.54 * 72; bh = box / 2.54 * 72; s = bw / w; if (bh / h < s) s = bh / h; printf "%.1f", t * s }')
        [ "$page" -ge 1 ] && id="$id page $page"
        sizes+="$at $id"$'\n'
        if [ -z "$w" ] || [ -z "$type" ] || awk -v a="$at" -v m="$min_pt" 'BEGIN { exit !(a < m) }'; then
            small+=" $id (${at} pt)"
        fi
    done < <(sed -n -e 's/^\\chalkfigure\(\[\\chalkfigheightalone\]\)\{0,1\}{\(.*\)}$/\1 0 \2/p' \
        -e 's/^\\chalkfigurepage\(\[\\chalkfigheightalone\]\)\{0,1\}{\([0-9]*\)}{\(.*\)}$/\1 \2 \3/p' "$work/deck.tex" |
        awk '{ if (NF == 2) print 6.2, $1, $2; else print 7.1, $2, $3 }')
    least=$(grep . <<<"$sizes" | sort -n | sed -n '1s/^\([0-9.]*\) \(.*\)/\1 pt (\2)/p')
    if [ "$k" -ne "$(grep -c . <<<"$figs")" ]; then
        bad "$ch: $k figures drawn on the frames, $(grep -c . <<<"$figs") recorded"
    elif [ -z "$small" ]; then
        ok "$ch: type in figures at least 20 pt at slide size (the least: ${least:-no figure}, $min_pt pt on the frame)"
    else
        bad "$ch: figures with type under 20 pt at slide size ($min_pt pt on the 160 mm frame):$small"
    fi
done

# ---- once: a planted overfull slide stops the build -------------------------------
scratch=$(mktemp -d "${TMPDIR:-/tmp}/slides-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/chapters" "$scratch/build"
cp -r book "$scratch/"
ln -s "$PWD/build/chalk" "$scratch/build/chalk"
{
    echo '# Overfull {#sec:over}'
    echo
    echo '::: {.slide title="Too much"}'
    for i in $(seq 1 30); do echo "- line $i of a slide that holds far too much text for one frame"; done
    echo ':::'
} >"$scratch/chapters/01-over.md"
if (cd "$scratch" && book/slides/build.sh 01 build/slides-01.pdf) >"$scratch/out" 2>&1; then
    bad "a planted overfull slide built without an error"
elif grep -q 'overfull' "$scratch/out" && [ ! -f "$scratch/build/slides-01.pdf" ]; then
    ok "a planted overfull slide stops the build, naming it ($(grep -m1 'on slide' "$scratch/out" | sed 's/^slides: //'))"
else
    bad "a planted overfull slide failed for another reason: $(tail -3 "$scratch/out")"
fi

# ---- once: the student handout holds no deck, and nothing that builds one ----------
# make handout (tests/grade/handout.sh) in a scratch copy of the tree, as the
# classroom test makes it (BOOK=0: the book as built, if it is; what make has built,
# the calculator and the mistakes' values, copied with their times so that it is not
# built again). Then the unpacked handout against deck_leaks, and copies of it with a
# deck or a deck's builder planted, which deck_leaks must catch.
#
# deck_leaks DIR: prints what in the unpacked handout DIR is a deck or builds one (its
# path in DIR). A deck with solutions needs book/slides/ (build.sh, template.tex,
# frames.lua: the handout's chapters have no ::: solution block and it has no
# solutions/, which tests/grade/handout-check.sh proves). So: a file under book/slides/; a file equal to
# one of book/slides/ wherever it lies; a PDF named slides-NN.pdf, or made by Beamer
# (its Creator), or of a deck's page size (a deck of this run: pdfinfo).
deck_size=$(pdfinfo "$(ls "$out"/slides-[0-9][0-9].pdf 2>/dev/null | head -1)" 2>/dev/null | sed -n 's/^Page size: *\([0-9.]* x [0-9.]*\).*/\1/p')
deck_size=${deck_size:-453.543 x 255.118}
deck_leaks() { deck_leaks_in "$1" | sed "s|$1/||"; }
deck_leaks_in() {
    local dir=$1 f sums
    find "$dir" -path '*/book/slides/*' -type f | sed 's/^/under book\/slides\/: /'
    sums=$(sha256sum book/slides/* | cut -d' ' -f1)
    find "$dir" -type f -exec sha256sum {} + | while read -r sum f; do
        grep -qxF "$sum" <<<"$sums" && echo "a copy of a file of book/slides/: $f"
    done
    find "$dir" -type f -name 'slides-[0-9]*.pdf' | sed 's/^/a deck by its name: /'
    find "$dir" -type f | while IFS= read -r f; do
        [ "$(head -c 5 "$f")" = "%PDF-" ] || continue
        info=$(pdfinfo "$f" 2>/dev/null)
        grep -q '^Creator:.*Beamer' <<<"$info" && echo "a PDF made by Beamer: $f"
        grep -q "^Page size: *$deck_size pts" <<<"$info" && echo "a PDF of a deck's page size ($deck_size pt): $f"
    done
    return 0
}
tree=$scratch/tree
mkdir -p "$tree/build"
git ls-files -co --exclude-standard | grep -v '/\.backup/' | tar -cf - -T - | tar -xf - -C "$tree"
for b in build/chalk build/chalk.pdf build/mistakes build/obj; do [ ! -e "$b" ] || cp -a "$b" "$tree/build/"; done
if ! hlog=$(cd "$tree" && GIT_CEILING_DIRECTORIES=$scratch BOOK=0 make -s handout 2>&1); then
    bad "make handout failed in a scratch copy: $(tail -3 <<<"$hlog")"
else
    mkdir -p "$scratch/h"
    tar -xzf "$tree/build/chalk-handout.tar.gz" -C "$scratch/h"
    leaks=$(deck_leaks "$scratch/h/chalk")
    pdfs=$(find "$scratch/h/chalk" -type f -name '*.pdf' | wc -l)
    [ -z "$leaks" ] && ok "make handout: no deck and nothing that builds one in it ($(find "$scratch/h/chalk" -type f | wc -l) files, $pdfs PDFs; nothing of book/slides/)" ||
        bad "make handout: a deck or its builder in the student handout: $(echo $leaks)"
    # each plant in a copy of the handout: a deck renamed, a deck's PDF under its own
    # name, the builder where it was, the builder renamed
    deck=$(ls "$out"/slides-[0-9][0-9].pdf 2>/dev/null | head -1)
    for plant in "$deck notes/lecture.pdf" "$deck slides-01.pdf" "book/slides/build.sh book/slides/build.sh" \
        "book/slides/frames.lua tools/deck.lua"; do
        read -r from to <<<"$plant"
        [ -f "$from" ] || { bad "nothing to plant from: $from"; continue; }
        rm -rf "$scratch/planted" && cp -r "$scratch/h/chalk" "$scratch/planted"
        mkdir -p "$scratch/planted/$(dirname "$to")" && cp "$from" "$scratch/planted/$to"
        [ -n "$(deck_leaks "$scratch/planted")" ] && ok "  a handout with $from planted as $to is caught" ||
            bad "  a handout with $from planted as $to passes the check"
    done
fi

echo "slides: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
