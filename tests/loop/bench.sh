#!/usr/bin/env bash
# bench.sh -- the reader's loop's speed figure for `make bench` (tests/bench.sh runs
# it in its scratch copy): the median time of `make check CH=01` when nothing
# changed, the loop as a reader sees it between two saves that changed nothing
# (sanitizers on, the grader's rules cached), against its goal, 0.3 s. One line.
#
#   tests/loop/bench.sh [RUNS]   RUNS timed runs after one to build (default 9)
# Measures in the tree it is run in; changes no file of it (build/ only).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
runs=${1:-9}
make -s check CH=01 >/dev/null 2>&1 # builds the objects, the rules' verdicts and the mistake table once
times=$(for _ in $(seq "$runs"); do
    t0=$EPOCHREALTIME
    make -s check CH=01 >/dev/null 2>&1
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }'
done)
median=$(printf '%s\n' "$times" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "reader's loop, nothing changed (make check CH=01, under ASan+UBSan, rules checked):" \
    "median $median s of $runs ($(printf '%s\n' "$times" | tr '\n' ' ' | sed 's/ $//')); goal < 0.3 s"
