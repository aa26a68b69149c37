#!/usr/bin/env bash
# submission.sh -- the body of `make submission`: packs what you hand in, the .c files
# of one chapter (or of the chapters you changed), into build/submission.tar.gz.
#
#   make submission CH=01   chapter 1's exercises/01-batching/*.c, nothing else
#   make submission         the chapters whose .c files differ from the stubs as
#                           handed out (tests/stubs/, else git: loop_pristine)
#
# Never headers, backups or other files. Says, per file, whether the grader would
# accept it as it stands when make check has looked at it (build/rules/), and how to
# find out when it has not. Exits 2, packing nothing, when no chapter matches CH or
# nothing changed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
. tests/loop/lib.sh
CH=${CH:-}
out=build/submission.tar.gz

if [ -n "$CH" ]; then
    chapters=$(loop_pick "$CH") || {
        echo "submission: no chapter matches CH=$CH; chapters: $(loop_chapters | tr '\n' ' ')" >&2
        exit 2
    }
else
    chapters=""
    tmp=$(mktemp) || exit 2
    for c in $(loop_chapters); do
        for f in exercises/"$c"/*.c; do
            [ -f "$f" ] || continue
            if ! loop_pristine "$c" "$(basename "$f")" >"$tmp" 2>/dev/null || ! cmp -s "$tmp" "$f"; then
                chapters="$chapters $c"
                break
            fi
        done
    done
    rm -f "$tmp"
    [ -n "$chapters" ] || {
        echo "submission: no chapter differs from its stub; say which to pack: make submission CH=01" >&2
        exit 2
    }
fi

files=()
for c in $chapters; do
    for f in exercises/"$c"/*.c; do [ -f "$f" ] && files+=("$f"); done
done
mkdir -p build
if ! tar -czf "$out.tmp" "${files[@]}" || ! mv "$out.tmp" "$out"; then
    rm -f "$out.tmp"
    echo "submission: could not write $out" >&2
    exit 2
fi
echo "$out: ${files[*]}"
for f in "${files[@]}"; do
    c=$(basename "$(dirname "$f")")
    v=build/rules/$c/$(basename "$f" .c).txt
    if [ ! -f "$v" ] || [ "$v" -ot "$f" ]; then
        echo "  $f: make check CH=${c%%-*} says whether the grader accepts it as it stands"
    elif [ "$(head -1 "$v")" = ok ]; then
        echo "  $f: the grader's rules pass (make check CH=${c%%-*} for the tests)"
    else
        echo "  $f: WARNING: the grader would score it zero: $(sed '1s/^refused: //' "$v" | head -3)"
    fi
done
