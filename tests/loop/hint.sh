#!/usr/bin/env bash
# hint.sh -- the body of `make hint`: shows one more hint for an exercise each time.
#
#   make hint CH=01          the first failing exercise of chapter 1
#   make hint EX=step_time   that exercise (its chapter is found from exercises.txt)
#   make hint                the first failing exercise of the chapter you edited
#                            last (of those whose files differ from their stubs);
#                            none edited yet: it asks for CH= or EX= and shows nothing
#
# The hints are in tests/NN-topic/hints.txt. When the failing test has its own
# hint (hint@TEST there), that one comes first. Which hints you have seen is kept
# in build/loop/hints-seen, never in your files (make clean forgets it; nothing
# else does).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
. tests/loop/lib.sh
CH=${CH:-} EX=${EX:-}

if [ -n "$EX" ]; then
    ch=$(loop_chapter_of "$EX") || {
        echo "hint: no exercise '$EX'; make progress lists them" >&2
        exit 2
    }
    chapters=$ch
elif [ -z "$CH" ]; then
    # not the first failing chapter of all (chapter 1's stubs fail while you work
    # on chapter 4): the one you edited last, said so
    chapters=$(loop_changed_chapters | head -1)
    [ -n "$chapters" ] || {
        echo "hint: no chapter's files differ from their stubs yet; say which: make hint CH=01, or make hint EX=step_time" >&2
        exit 2
    }
    echo "(chapter $chapters: the one you edited last; make hint CH=NN for another)"
else
    chapters=$(loop_pick "$CH") || {
        echo "hint: no chapter matches CH=$CH; chapters: $(loop_chapters | tr '\n' ' ')" >&2
        exit 2
    }
fi

# Find the exercise and its first failing test by running the tests.
ex="" ch="" test=""
for c in $chapters; do
    if ! loop_run_chapter "$c"; then
        echo "hint: $c does not compile yet; make check CH=${c%%-*} shows the compiler's errors" >&2
        [ -n "$EX" ] && { ch=$c ex=$EX; break; }
        continue
    fi
    while IFS=$'\t' read -r id _ ok total _ _ ftest _; do
        if [ -n "$EX" ] && [ "$id" = "$EX" ]; then
            ch=$c ex=$id test=$ftest
            [ "$ok" = "$total" ] && [ "$total" -gt 0 ] && echo "($EX passes already; hints anyway)"
            break 2
        fi
        if [ -z "$EX" ] && [ "$ok" != "$total" ]; then
            ch=$c ex=$id test=$ftest
            break 2
        fi
    done < <(loop_summary "$c")
done
if [ -z "$ex" ]; then
    if [ -d solutions ]; then
        echo "Every exercise passes: no hint needed. make solution EX=... shows a reference to compare with."
    else
        echo "Every exercise passes: no hint needed."
    fi
    exit 0
fi

title=$(loop_exercises "$ch" | awk -F'\t' -v ex="$ex" '$1 == ex { print $3 }')
section=$(loop_exercises "$ch" | awk -F'\t' -v ex="$ex" '$1 == ex { print $4 }')
h=$(loop_hint_next "$ch" "$ex" "$test" next)
case $? in
0)
    IFS=$'\t' read -r n total text <<<"$h"
    printf 'Hint %s of %s for %s (%s), chapter %s:\n' "$n" "$total" "$ex" "$title" "$ch"
    printf '%s\n' "$text" | fold -s -w 86 | sed 's/^/  /'
    [ "$n" -lt "$total" ] && echo "(make hint again for the next one)"
    ;;
3)
    echo "You have seen every hint for $ex ($title):"
    loop_hint_order "$ch" "$ex" "$test" | cut -f2 | while IFS= read -r text; do
        printf '%s\n' "$text" | fold -s -w 82 | sed '1s/^/  - /; 2,$s/^/    /'
    done
    ;;
*)
    echo "$ex has no hints in tests/$ch/hints.txt."
    ;;
esac
[ -n "$section" ] && printf 'Read: chapters/%s.md, section "%s".\n' "$ch" "$section"
exit 0
