#!/usr/bin/env bash
# harness-build.sh -- builds the grading harness as one object, the way every graded
# test binary links it (grade.sh, bench-calls.sh, test_grade_boundaries.sh).
#
#   tests/grade/harness-build.sh OUT.o [CFLAGS...]     (CC: the compiler, default cc)
#
# Compiles harness.c, harness-call.c and harness-filter.c (harness-internal.h says
# which does what) with CFLAGS and -Itests/grade, links them into one relocatable
# object, and makes every name they share (chalk_harness_*) local to it: in a graded
# binary no other object, the student's least, can call, read or override one, as
# when they were statics of one file. Fails (a one-line message, exit 1) when the
# object defines any global but harness.h's two, chalk_grade_run_group and
# chalk_grade_call. OUT.o appears whole or not at all.
set -euo pipefail
[ $# -ge 1 ] || {
    echo "usage: tests/grade/harness-build.sh OUT.o [CFLAGS...]" >&2
    exit 2
}
out=$1
shift
cc=${CC:-cc}
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/harness-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for f in harness harness-call harness-filter; do
    $cc "$@" -I"$src" -c "$src/$f.c" -o "$tmp/$f.o"
done
$cc -r -nostdlib -o "$tmp/all.o" "$tmp"/harness.o "$tmp"/harness-call.o "$tmp"/harness-filter.o
objcopy --wildcard --localize-symbol='chalk_harness_*' "$tmp/all.o"
globals=$(nm -P --defined-only -g "$tmp/all.o" | awk '{ print $1 }' | sort | paste -sd' ')
if [ "$globals" != "chalk_grade_call chalk_grade_run_group" ]; then
    echo "harness-build.sh: the harness defines globals beyond harness.h's: $globals" >&2
    exit 1
fi
cp "$tmp/all.o" "$out.$$.tmp" && mv -f "$out.$$.tmp" "$out"
