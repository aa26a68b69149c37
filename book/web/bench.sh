#!/usr/bin/env bash
# bench.sh -- the web edition's speed figures, each beside its goal, as lines.
#
#   book/web/bench.sh
#
# Works in a scratch copy of the tree (the tracked and untracked files git knows;
# your build/ is left alone). Prints:
#   - `make web` from clean (the calculator, npm ci of the web tools from the npm
#     cache or registry, every chalk answer, plot, diagram and equation) and after
#     editing one chapter (a sentence added to the last chapter, three rounds, the
#     median; book/build.sh --web's times.txt says where the last round's time went);
#   - each chapter page's first render from file:// in headless chromium at 1,400
#     pixels (first contentful paint, and the load event) and its weight: the bytes
#     of the page and of every file it loads (stylesheets, KaTeX's fonts, figures).
#     With the calculator loaded (its first command timed) and each moving figure
#     redrawn once (its time printed). The weight counts the files as they are on disk; a static host that
#     compresses (gzip) sends less, printed too for the heaviest page.
# `make bench` calls it (tests/bench.sh, BENCH=web). Needs what `make web` needs
# and chromium (tests/deps.sh web).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$scratch"
cd "$scratch" || exit 2

# timed MAKE-ARGS...: sets $wall and $cpu (user + system seconds of make and all it
# ran: the figure other work on the machine does not inflate)
timed() {
    local TIMEFORMAT='%R %U %S' t u s
    t=$({ time make -s "$@" >"$scratch/web.log" 2>&1; } 2>&1) || {
        echo "web bench: make $* failed:" >&2
        tail -20 "$scratch/web.log" >&2
        exit 1
    }
    read -r wall u s <<<"$t"
    cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.1f", u + s }')
}
echo "web: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) (other work slows every figure)"
timed web
clean=$wall clean_cpu=$cpu
last=$(ls chapters/[0-9][0-9]-*.md | tail -1)
runs=() cpus=()
for r in 1 2 3; do
    sed -i "2a\\
Bench edit $r." "$last"
    timed web
    runs+=("$wall") cpus+=("$cpu")
done
median=$(printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p)
median_cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n 2p)
echo "web: make web from clean $clean s (CPU $clean_cpu s; goal < 90 s); after editing one chapter median" \
    "$median s of 3 (${runs[*]}; CPU median $median_cpu s; last: $(cat build/web-build-student/times.txt)) (goal < 15 s)"
NODE_PATH=build/web-tools/node_modules node book/web/test.js build/web "$scratch/shots" --bench >"$scratch/pages.txt" 2>&1 ||
    { cat "$scratch/pages.txt" >&2; exit 1; }
sed 's/^web-bench: /web: /' "$scratch/pages.txt"
awk '/first render/ { gsub(/ ms/, "", $5); if ($5 + 0 > fcp) fcp = $5 + 0;
    for (i = 1; i <= NF; i++) if ($i == "weight") { w = $(i + 1) + 0; if (w > mb) { mb = w; page = $2 } } }
    END { printf "web: slowest first render %d ms (goal < 1000 ms); heaviest page %s %.2f MB (goal < 1.5 MB with the calculator)\n", fcp, page, mb }' "$scratch/pages.txt"
heavy=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "weight") print $(i + 1), $2 }' "$scratch/pages.txt" | sort -rn | head -1 | cut -d' ' -f2 | tr -d :)
[ -z "$heavy" ] || echo "web: $heavy gzipped (as a compressing host sends it): $(gzip -9c "build/web/$heavy" | wc -c) bytes of HTML, $(wc -c <"build/web/$heavy") on disk"
