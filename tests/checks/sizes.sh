#!/usr/bin/env bash
# sizes.sh -- no source file grows past 800 lines (tests/checks/run.sh, check "sizes").
#
#   tests/checks/sizes.sh [DIR]        (default: the project's root)
#
# Prints "FILE: over 800 lines: split it by meaning" for every source file under DIR
# (C, headers, shell, Lua, JavaScript, awk, make, CSS, Python, the Makefile) past 800
# lines; build/, .git/, node_modules/ and vendored third-party code (a directory
# holding a LICENSE file beside its sources, e.g. book/web/cjson/) are not ours to split.
# The solutions/chalk/ files have their own test (tests/chalk/test_core.c); this one is
# the same rule for the rest of the house. Findings are listed in
# tests/checks/outstanding/sizes.txt until they are split: that list only shrinks.
set -uo pipefail
dir=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$dir" || { echo "sizes.sh: no directory $dir" >&2; exit 2; }
limit=800
find . \( -name build -o -name .git -o -name node_modules \) -prune -o -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.lua' -o -name '*.js' -o -name '*.awk' \
    -o -name '*.mk' -o -name '*.css' -o -name '*.py' -o -name Makefile \) -print |
    sed 's|^\./||' | sort | while IFS= read -r f; do
    [ -e "$(dirname "$f")/LICENSE" ] && continue
    n=$(wc -l <"$f")
    [ "$n" -le "$limit" ] || echo "$f: over $limit lines: split it by meaning"
done
