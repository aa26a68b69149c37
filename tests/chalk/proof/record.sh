#!/usr/bin/env bash
# record.sh -- the command lines of tests/chalk/proof/commands.txt, re-recorded from a
# calculator's readers: every `chalk` command the book (both editions), the flashcards,
# a problem set and the calculator's own tests run, in a tree (a checkout or a
# `git archive` of the commit to compare against, e.g. main).
#
# How: a wrapper in place of the tree's build/chalk (CHALK=..., which book/build.sh,
# the Lua filters, book/problems.sh and tests/chalk/harness.c all honour) appends each
# argv, shell-quoted, to a log and runs the real calculator; the log is then merged
# with the current list, --json and --csv dropped (proof.sh runs every line three
# ways), one line per command, sorted.
#
# Usage: tests/chalk/proof/record.sh TREE     (writes tests/chalk/proof/commands.txt)
# Takes a few minutes (two book builds); run it with nice on a shared machine.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "${1:?usage: record.sh TREE}" && pwd) || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/chalk-record.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
cd "$tree" || exit 2
make -s build/chalk build/chalk-test >/dev/null || { echo "record: $tree does not build" >&2; exit 2; }
cat >"$work/chalk" <<WRAP
#!/usr/bin/env bash
line=\$(printf '%q ' "\$@")
printf '%s\n' "\${line% }" >>"$work/log"
exec "$tree/build/chalk" "\$@"
WRAP
chmod +x "$work/chalk"
export CHALK=$work/chalk CHALK_CACHE=
md=(book/preface.md chapters/[0-9][0-9]-*.md book/appendix.md book/bibliography.md)
for edition in student instructor; do
    OUT=$work book/build.sh "$edition" "$work/$edition.pdf" "${md[@]}" >"$work/book.log" 2>&1 ||
        echo "record: the $edition book failed (see $work/book.log)" >&2
done
pandoc chapters/[0-9][0-9]-*.md --lua-filter book/filters/chalk.lua \
    --lua-filter book/filters/flashcards.lua -M flashcards-out="$work/cards.tsv" -t native \
    -o /dev/null >/dev/null 2>&1 || echo "record: the flashcards failed" >&2
OUT=$work book/problems.sh proof chapters/[0-9][0-9]-*.md >/dev/null 2>&1 ||
    echo "record: the problem set failed" >&2
build/chalk-test >/dev/null 2>&1 || echo "record: the calculator's tests failed" >&2
cat "$here/commands.txt" "$work/log" | python3 -c '
import shlex, sys
lines = set()
for line in sys.stdin:
    try:
        words = [w for w in shlex.split(line) if w not in ("--json", "--csv")]
    except ValueError:
        continue
    lines.add(" ".join(shlex.quote(w) for w in words))
print("\n".join(sorted(lines)))' >"$work/commands.txt" && mv "$work/commands.txt" "$here/commands.txt"
echo "record: $(wc -l <"$here/commands.txt") command lines in $here/commands.txt"
