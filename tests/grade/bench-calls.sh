#!/usr/bin/env bash
# bench-calls.sh -- what one call from a test into a student's function costs under
# the grading harness (tests/grade/harness*.c), by the kind of call, in microseconds:
#
#   by value        batching_hw_ratio (three doubles): the test's call server
#   pointer         moe_rng_next (a writable uint64_t): the call server, state copied
#                   in and back
#   fresh process   revnets_cipher_mix (a const void *: the server cannot copy it): a
#                   fork per call, with the system-call filter installed in each
#
#   tests/grade/bench-calls.sh [TREE]     TREE: a checkout whose grader to measure
#                                         (default: this one), e.g. an older commit's
#   CALLS=n                               calls per kind (default 20000; a tenth of
#                                         that for the fresh process)
#
# It builds what grade.sh builds (the harness, the wrappers of chapters 1, 2 and 6,
# lib/, the reference objects renamed as a student's are) and one timing test per
# kind, runs them outside any sandbox (the sandbox adds nothing per call), and prints
# one line per kind. Figures depend on the machine and its load: the load average
# is printed first.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
tree=$(cd "${1:-$here}" && pwd)
calls=${CALLS:-20000}
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tree"
flags=(-std=c11 -O1 -w)
chapters=(01-batching 02-moe 06-revnets)

for f in lib/*.c; do $cc "${flags[@]}" -Ilib -c "$f" -o "$tmp/lib-$(basename "$f" .c).o"; done
if [ -x tests/grade/harness-build.sh ]; then # the harness as grade.sh builds it
    CC=$cc tests/grade/harness-build.sh "$tmp/harness.o" "${flags[@]}"
else # a tree from before the harness was split into files
    $cc "${flags[@]}" -Itests/grade -c tests/grade/harness.c -o "$tmp/harness.o"
fi
incs=()
for ch in "${chapters[@]}"; do
    tests/grade/wrap.sh "$ch" "$tmp/wrap-$ch.c" >"$tmp/fns-$ch" 2>/dev/null
    $cc "${flags[@]}" -Itests/grade -Ilib -Iexercises/"$ch" -c "$tmp/wrap-$ch.c" -o "$tmp/wrap-$ch.o"
    $cc "${flags[@]}" -Ilib -Iexercises/"$ch" -c solutions/"$ch"/*.c -o "$tmp/sol-$ch.o"
    sed 's/.*/& chalk_student_&/' "$tmp/fns-$ch" >"$tmp/rename-$ch"
    objcopy --redefine-syms="$tmp/rename-$ch" "$tmp/sol-$ch.o"
    incs+=(-Iexercises/"$ch")
done

cat >"$tmp/bench.c" <<EOF
#include <time.h>
#include "batching.h"
#include "moe.h"
#include "revnets.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
#define TIMED(name, n, call)                                                            \\
    do {                                                                                \\
        double t0 = now_s(), sink = 0;                                                  \\
        for (long i = 0; i < (n); i++)                                                  \\
            sink += (double)(call);                                                     \\
        print_message("%s %.2f %g\n", name, (now_s() - t0) / (double)(n) * 1e6, sink);   \\
    } while (0)

static void by_value(void **state)
{
    (void)state;
    TIMED("by-value", $calls, batching_hw_ratio(2e15, 3.35e12, 1.0 + (double)i));
}
static void pointer(void **state)
{
    uint64_t s = 1;
    (void)state;
    TIMED("pointer", $calls, moe_rng_next(&s));
}
static void fresh_process(void **state)
{
    revnets_keyed k = {REVNETS_CIPHER_TEA, {1, 2, 3, 4}, 4};
    (void)state;
    TIMED("fresh-process", $((calls / 10)), revnets_cipher_mix((uint64_t)i, &k));
}
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(by_value), cmocka_unit_test(pointer), cmocka_unit_test(fresh_process),
    };
    return chalk_run_group("bench", tests, sizeof tests / sizeof tests[0], NULL, NULL);
}
EOF
$cc "${flags[@]}" -D_GNU_SOURCE -include tests/grade/harness.h -Ilib "${incs[@]}" -c "$tmp/bench.c" -o "$tmp/bench.o"
$cc -o "$tmp/bench" "$tmp"/bench.o "$tmp"/harness.o "$tmp"/wrap-*.o "$tmp"/sol-*.o "$tmp"/lib-*.o \
    -lcmocka -lseccomp -lm
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); grader of $tree ($(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo '?'))"
CHALK_TIMEOUT=600 "$tmp/bench" 3>&1 >/dev/null | jq -r '.detail' |
    awk '$1 ~ /^(by-value|pointer|fresh-process)$/ { printf "%-14s %8.2f us a call\n", $1, $2 }'
