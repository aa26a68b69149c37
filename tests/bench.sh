#!/usr/bin/env bash
# bench.sh -- the body of `make bench`: speed figures, measured in a scratch copy of
# the tree so your build/ and your exercises are left as they are.
#
#   reader's loop   touch the chapter 1 stub, then `make check CH=01` (median of 5)
#   make test       from clean (one run)
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$scratch"
cd "$scratch"

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

make -s build/ex/01-batching/test >/dev/null 2>&1
runs=()
for _ in 1 2 3 4 5; do
    touch exercises/01-batching/batching.c
    t0=$(now)
    make -s check CH=01 >/dev/null 2>&1
    runs+=("$(seconds "$t0" "$(now)")")
done
median=$(printf '%s\n' "${runs[@]}" | sort -n | sed -n 3p)
echo "reader's loop (touch stub; make check CH=01): median ${median} s of 5 runs (${runs[*]}); goal < 1 s"

t0=$(now)
make -s clean >/dev/null
if make -s test >"$scratch/test.log" 2>&1; then verdict=green; else verdict=RED; fi
echo "make test from clean: $(seconds "$t0" "$(now)") s ($verdict: $(tail -1 "$scratch/test.log"))"
