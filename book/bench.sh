#!/usr/bin/env bash
# bench.sh -- how long `make book` takes after editing one chapter, as one line.
#
#   book/bench.sh [N]        (default N=6: the book as it will be with six chapters)
#
# Works in a scratch copy of the tree (your build/ and files are left alone). When
# the tree has fewer than N chapters, the copy is padded with copies of chapter 1
# whose ids are renamed (sec:/eq:/fig:/tbl: ids, card and problem ids, exercise
# ids, each with a chapter suffix), so the book has N chapters' worth of pages,
# live numbers, plots and diagrams. The copies never leave the scratch directory.
# Then: one `make book` from clean (its time is printed too), and three rounds of
# "add a sentence to the last chapter, make book", timed; the line gives the median
# wall time, the median CPU time (user + system, of make and all it ran: what other
# work on the machine does not inflate) and where the last round's time went
# (book/build.sh's times.txt: pandoc per file converted, each pdflatex run).
# `make bench` calls it. Needs what `make book` needs (tests/deps.sh book).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

want=${1:-6}
case $want in [1-9]) ;; *)
    echo "usage: book/bench.sh [N]   (N: chapters, 1-9)" >&2
    exit 2
    ;;
esac
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$scratch"
cd "$scratch" || exit 2

# pad N: chapters/0K-copyK.md (and its exercises/0K-copyK/) from chapter 1, K = 2..N.
first=$(ls chapters/[0-9][0-9]-*.md | head -1)
first_ex=exercises/$(basename "$first" .md)
have=$(ls chapters/[0-9][0-9]-*.md | wc -l)
for k in $(seq $((have + 1)) "$want"); do
    name=0$k-copy$k
    sed -E -e "s/\\b(sec|eq|fig|tbl):/\\1:c$k-/g" -e "s/\\bch1-/ch$k-/g" \
        -e "s/(\\{\\.exercise id=)([a-z_]+)/\\1\\2_c$k/" "$first" >"chapters/$name.md"
    mkdir -p "exercises/$name"
    cp "$first_ex"/*.[ch] "exercises/$name/"
    sed -E "s/^exercise: (.*)$/exercise: \\1_c$k/" "$first_ex/exercises.txt" >"exercises/$name/exercises.txt"
done


make -s build/chalk >/dev/null 2>&1 || { echo "book bench: make build/chalk failed" >&2; exit 1; }
# timed MAKE-ARGS...: runs make, sets $wall and $cpu (user + system seconds of make
# and everything it ran: the figure other work on the machine does not inflate)
timed() {
    local TIMEFORMAT='%R %U %S' t
    t=$({ time make -s "$@" >"$scratch/book.log" 2>&1; } 2>&1) || {
        echo "book bench: make $* failed:" >&2
        tail -20 "$scratch/book.log" >&2
        exit 1
    }
    read -r wall u s <<<"$t"
    cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
}
timed book
clean=$wall clean_cpu=$cpu
last=$(ls chapters/[0-9][0-9]-*.md | tail -1)
runs=() cpus=()
for r in 1 2 3; do
    # a new sentence in the chapter's opening paragraph (after its title line)
    sed -i "2a\\
Bench edit $r." "$last"
    timed book
    runs+=("$wall") cpus+=("$cpu")
done
median=$(printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p)
median_cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n 2p)
pages=$(pdfinfo build/chalk.pdf 2>/dev/null | sed -n 's/^Pages: *//p')
last=$(cat build/book-student/times.txt 2>/dev/null)
echo "book after editing one chapter ($want chapters, ${pages:-?} pages): median $median s of 3 runs" \
    "(${runs[*]}; CPU median $median_cpu s; last: ${last:-?}); from clean $clean s (CPU $clean_cpu s);" \
    "goal < 15 s after an edit, < 45 s from clean"
