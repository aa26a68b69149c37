#!/usr/bin/env bash
# submission.sh -- the body of `make submission`: packs what you hand in, the .c files
# of one chapter (or of the chapters you changed), into build/submission.tar.gz.
#
#   make submission CH=01   chapter 1's exercises/01-batching/*.c, nothing else
#   make submission         the chapters whose .c files differ from the stubs as
#                           handed out (tests/stubs/, else git: loop_pristine)
#
# Never headers, backups or other files. Runs the grader's source and object rules
# on each file first (tests/loop/rules.sh, as make check does) and packs nothing
# when the grader would score a file zero, naming the rule and its fix, unless
# FORCE=1 (then it packs and warns). Exits 2, packing nothing, when no chapter
# matches CH, nothing changed, or a file breaks a rule without FORCE=1.
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
    chapters=$(loop_changed_chapters) || exit 2
    [ -n "$chapters" ] || {
        echo "submission: no chapter differs from its stub; say which to pack: make submission CH=01" >&2
        exit 2
    }
fi

files=()
for c in $chapters; do
    for f in exercises/"$c"/*.c; do [ -f "$f" ] && files+=("$f"); done
done
# The grader's rules on every file to pack (build/rules/CH/FILE.txt: "ok" or
# "refused: WHY"); a file that does not even preprocess has no verdict file.
refused=0
for f in "${files[@]}"; do
    c=$(basename "$(dirname "$f")")
    v=build/rules/$c/$(basename "$f" .c).txt
    make -s --no-print-directory "$v" >/dev/null 2>&1
    if [ -f "$v" ] && [ ! "$v" -ot "$f" ] && [ "$(head -1 "$v")" = ok ]; then
        echo "  $f: the grader's rules pass (make check CH=${c%%-*} for the tests)"
    else
        why="the grader's rules did not run on it (make check CH=${c%%-*} says why)"
        [ -f "$v" ] && [ ! "$v" -ot "$f" ] && why=$(sed '1s/^refused: //' "$v" | head -3)
        if [ "${FORCE:-}" = 1 ]; then
            echo "  $f: WARNING: the grader would score it zero: $why"
        else
            echo "submission: the grader would score $f zero: $why" >&2
            refused=1
        fi
    fi
done
if [ $refused = 1 ]; then
    echo "submission: nothing packed; fix the file (make check shows the rules), or pack it as it is with FORCE=1" >&2
    exit 2
fi
mkdir -p build
if ! tar -czf "$out.tmp" "${files[@]}" || ! mv "$out.tmp" "$out"; then
    rm -f "$out.tmp"
    echo "submission: could not write $out" >&2
    exit 2
fi
echo "$out: ${files[*]}"
