#!/usr/bin/env bash
# bench.sh -- how long one lecture deck takes to rebuild after an edit of its chapter
# (make bench prints its last line). Builds deck 01 once (caches warm), then 5 times
# after appending a different comment line to a scratch copy of chapter 1 in a
# scratch tree (so the working tree is left as it is), and prints the median.
#
#   book/slides/bench.sh [NN]      (default 01)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
ch=${1:-01}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/slides-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp -r book chapters solutions exercises lib "$scratch/"
mkdir -p "$scratch/build"
cp build/chalk "$scratch/build/chalk" 2>/dev/null || { make -s build/chalk && cp build/chalk "$scratch/build/chalk"; }
[ -d build/cache ] && cp -r build/cache "$scratch/build/cache"
cd "$scratch" || exit 2
src=$(ls chapters/"$ch"-*.md)
book/slides/build.sh "$ch" build/slides-"$ch".pdf >/dev/null 2>&1 || { echo "slides: deck $ch does not build"; exit 1; }
runs=""
for i in 1 2 3 4 5; do
    printf '\n<!-- bench edit %s -->\n' "$i" >>"$src"
    t0=$EPOCHREALTIME
    book/slides/build.sh "$ch" build/slides-"$ch".pdf >/dev/null 2>&1 || { echo "slides: deck $ch failed on rebuild"; exit 1; }
    runs+="$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') "
done
median=$(printf '%s\n' $runs | sort -n | sed -n 3p)
echo "one deck after editing its chapter (make slides CH=$ch): median $median s of 5 ($(echo $runs)); goal < 10 s"
