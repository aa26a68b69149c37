#!/usr/bin/env bash
# expected.sh -- the public tests' expected values, kept apart from their derivations.
#
#   tests/derive/expected.sh write CHAPTER...   (make expected CH=NN): writes
#       tests/NN-topic/expected.h from what tests/NN-topic/derive/expected.c prints
#   tests/derive/expected.sh check [ROOT]       (make test, tests/checks/run.sh "expected"):
#       prints its findings over ROOT/tests/NN-*/ (default: this tree), "FILE: message"
#
# Why: a chapter's public tests ship in the student handout. For two- and three-star
# exercises the closed form of an expected value is the derivation the exercise asks
# for, so it lives in tests/NN-topic/derive/expected.c (the instructor's copy; the
# handout leaves derive/ out) and the public test compares with the number it prints,
# through expected.h (tests/derive/derive.h says how a derivation is written).
# The check's findings:
#   - a derivation that includes anything but the C library and derive.h (an expected
#     value must not come from lib/, solutions/ or exercises/, the code it checks), or
#     that does not compile (-Wall -Wextra -Werror) or run
#   - an expected.h that is not what its derivation prints (a value that differs by
#     more than 1e-12 relative, a name only one side has, a source comment changed),
#     or that no derivation writes
#   - an E_ value no public test of the chapter uses (stale)
# Exits 0 after a check whatever it found (the findings are the result), 2 on bad use.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
W=$(mktemp -d "${TMPDIR:-/tmp}/chalk-expected.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT

# derive DIR OUT: compiles and runs DIR/derive/expected.c into OUT; prints a finding
# and fails when it cannot.
derive() {
    local d=$1 out=$2 src=$1/derive/expected.c bad
    bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include' "$src" |
        grep -vE '#[[:space:]]*include[[:space:]]*(<(assert|ctype|float|inttypes|limits|math|stdbool|stddef|stdint|stdio|stdlib|string)\.h>|"(\.\./\.\./derive/)?derive\.h")' |
        head -1)
    if [ -n "$bad" ]; then
        echo "$src: includes ${bad#*:}: a derivation uses only the C library and derive.h"
        return 1
    fi
    if ! $CC -std=c11 -Wall -Wextra -Werror -ffp-contract=off -I"$here" "$src" -o "$W/derive" -lm \
        2>"$W/cc.err"; then
        echo "$src: does not compile: $(grep -m1 'error' "$W/cc.err")"
        return 1
    fi
    if ! "$W/derive" >"$out" 2>"$W/run.err"; then
        echo "$src: its run failed: $(head -1 "$W/run.err")"
        return 1
    fi
}

# the #define lines as "NAME VALUE", the rest as they are
defines() { sed -n 's/^#define \(E_[A-Z0-9_]*\) \(.*\)$/\1 \2/p' "$1" | sort; }
others() { grep -v '^#define E_' "$1"; }

check_chapter() {
    local d=$1 h=$1/expected.h
    if [ ! -f "$d/derive/expected.c" ]; then
        [ ! -f "$h" ] || echo "$h: no derive/expected.c derives it"
        return
    fi
    derive "$d" "$W/new.h" || return
    if [ ! -f "$h" ]; then
        echo "$h: missing: make expected CH=$(basename "$d" | cut -c1-2) writes it"
        return
    fi
    defines "$h" >"$W/old.d"
    defines "$W/new.h" >"$W/new.d"
    join -a1 -a2 -e MISSING -o 0,1.2,2.2 "$W/old.d" "$W/new.d" | awk -v h="$h" '
        function rel(a, b) { return a == b ? 0 : (a - b < 0 ? b - a : a - b) / ((a < 0 ? -a : a) > (b < 0 ? -b : b) ? (a < 0 ? -a : a) : (b < 0 ? -b : b)) }
        { v1 = $2; v2 = $3; sub(/LL$/, "", v1); sub(/LL$/, "", v2) }
        $2 == "MISSING" { print h ": " $1 " is derived but not in the file (make expected)"; next }
        $3 == "MISSING" { print h ": " $1 " is in the file but no longer derived (make expected)"; next }
        rel(v1 + 0, v2 + 0) > 1e-12 { print h ": " $1 " is " $2 " in the file, " $3 " by its derivation (make expected)" }'
    if ! cmp -s <(others "$h") <(others "$W/new.h"); then
        echo "$h: its comments are not what its derivation prints (make expected)"
    fi
    # every value is used by a public test of the chapter
    local n
    for n in $(sed -n 's/^#define \(E_[A-Z0-9_]*\) .*/\1/p' "$h"); do
        grep -qw "$n" "$d"/*.c 2>/dev/null || echo "$h: $n is used by no public test (tests/$(basename "$d")/*.c)"
    done
}

case ${1:-} in
write)
    shift
    [ $# -gt 0 ] || { echo "usage: tests/derive/expected.sh write CHAPTER..." >&2; exit 2; }
    cd "$here/../.." || exit 2
    status=0
    for c in "$@"; do
        d=tests/$c
        [ -d "$d" ] || { echo "expected: no chapter $c" >&2; exit 2; }
        if [ ! -f "$d/derive/expected.c" ]; then
            echo "expected: $c has no $d/derive/expected.c (nothing to write)"
            continue
        fi
        if derive "$d" "$W/new.h" >&2; then
            if cmp -s "$W/new.h" "$d/expected.h"; then echo "expected: $d/expected.h unchanged"
            else cp "$W/new.h" "$d/expected.h" && echo "expected: wrote $d/expected.h ($(grep -c '^#define E_' "$d/expected.h") values)"; fi
        else
            status=1
        fi
    done
    exit $status
    ;;
check)
    root=${2:-$here/../..}
    for d in "$root"/tests/[0-9][0-9]-*/; do
        d=${d%/}
        (cd "$root" && check_chapter "tests/$(basename "$d")")
    done
    exit 0
    ;;
*)
    echo "usage: tests/derive/expected.sh write CHAPTER... | check [ROOT]" >&2
    exit 2
    ;;
esac
