#!/usr/bin/env bash
# zip.sh -- builds build/gradescope-NN.zip, the autograder for one chapter's
# assignment: setup.sh and run_autograder at the top, a file chapter holding NN,
# and the course tree (solutions and hidden tests included; not build/) under chalk/.
#   tests/grade/gradescope/zip.sh 01        (make gradescope CH=01)
set -euo pipefail
cd "$(dirname "$0")/../../.."
ch=${1:-}
[ -n "$ch" ] && ls -d exercises/"$ch"-* >/dev/null 2>&1 || {
    echo "gradescope: say which chapter: make gradescope CH=01" >&2
    exit 2
}
command -v zip >/dev/null 2>&1 || {
    echo "gradescope: zip is missing (apt-get install zip)" >&2
    exit 2
}
out=build/gradescope-$ch.zip
stage=build/gradescope-stage
rm -rf "$stage" "$out"
mkdir -p "$stage/chalk"
# the files of the tree: git's list (tracked and new, not ignored), else find
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -co --exclude-standard
else
    find . -type f -not -path './build/*' -not -path './.git/*' | sed 's|^\./||'
fi | grep -v -e '/\.backup/' -e '^build/' | tar -cf - -T - | tar -xf - -C "$stage/chalk"
cp tests/grade/gradescope/setup.sh tests/grade/gradescope/run_autograder "$stage/"
printf '%s\n' "$ch" >"$stage/chapter"
(cd "$stage" && zip -qr "../$(basename "$out")" setup.sh run_autograder chapter chalk)
rm -rf "$stage"
echo "gradescope: $out (chapter $ch): upload it as the assignment's autograder"
