#!/usr/bin/env bash
# outstanding.sh -- a check's findings against the list of what is still outstanding.
#
#   tests/checks/outstanding.sh NAME FOUND [CHAPTER...]
#
# FOUND holds a check's findings, "FILE:LINE: message" (or "FILE: message"), one a
# line; tests/checks/outstanding/NAME.txt lists the findings the chapters must still
# clear, each as the check prints it without its line number ('#' lines are
# comments). With CHAPTERs, only the list's lines of those chapters (and of files of
# no chapter) count, as the caller kept only theirs in FOUND.
# Prints, one a line:
#   new: FINDING           found, not listed: it fails
#   fixed: KEY             listed, no longer found: it fails until its line is deleted
#   outstanding: N (per chapter: 01-batching 3, ...)   the listed ones still found
# Exits 0 when nothing is new or fixed, 1 otherwise, 2 on bad usage. Used by
# tests/checks/run.sh (the source checks) and book/tests/run.sh (the layout of the
# built book): a check is strict from the day it is added, and what it still finds
# is a list the lead can read, never a silently weaker rule.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
name=${1:?usage: tests/checks/outstanding.sh NAME FOUND [CHAPTER...]}
found=${2:?usage: tests/checks/outstanding.sh NAME FOUND [CHAPTER...]}
shift 2
list=tests/checks/outstanding/$name.txt
W=$(mktemp -d "${TMPDIR:-/tmp}/chalk-outstanding.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT

# The chapter of a file: NN-topic in its path, or book/notation/NN-topic.tsv's.
chapter_of() {
    if [[ $1 =~ (^|/)([0-9][0-9]-[a-z0-9-]+)(/|\.md$|\.tsv$) ]]; then
        echo "${BASH_REMATCH[2]}"
    else
        echo book
    fi
}
key() { sed -E 's/^([^:]+):[0-9]+:/\1:/'; }

key <"$found" | sort -u >"$W/keys"
{ [ -f "$list" ] && grep -v -e '^#' -e '^[[:space:]]*$' "$list" || true; } | sort -u >"$W/all"
if [ $# -gt 0 ]; then
    while IFS= read -r line; do
        c=$(chapter_of "${line%%:*}")
        case " book $* " in *" $c "*) echo "$line" ;; esac
    done <"$W/all" >"$W/listed"
else
    cp "$W/all" "$W/listed"
fi
status=0
while IFS= read -r k; do
    [ -n "$k" ] || continue
    # the finding as the check printed it, with its line number
    line=$(grep -F -- "${k#*: }" "$found" | grep -F -- "${k%%: *}:" | head -1)
    echo "new: ${line:-$k}"
    status=1
done < <(comm -23 "$W/keys" "$W/listed")
while IFS= read -r k; do
    [ -n "$k" ] || continue
    echo "fixed: $k"
    status=1
done < <(comm -13 "$W/keys" "$W/listed")
comm -12 "$W/keys" "$W/listed" >"$W/still"
n=$(wc -l <"$W/still")
per=$(while IFS= read -r k; do chapter_of "${k%%:*}"; done <"$W/still" | sort | uniq -c |
    awk '{ printf "%s%s %d", sep, $2, $1; sep = ", " }')
echo "outstanding: $n${per:+ ($per)}"
exit $status
