#!/usr/bin/env bash
# tools.sh -- the web edition's node modules, installed from the npm registry.
#
#   book/web/tools.sh DIR      (book/build.sh --web passes build/web-tools)
#
# DIR/node_modules gets exactly what book/web/package-lock.json pins (katex, which
# typesets the equations at build time, and playwright-core, which drives Debian's
# chromium in the browser test), with `npm ci --ignore-scripts`: no install script
# runs, so no browser is ever downloaded. Nothing is done while DIR holds the
# modules of the same lock file; a changed lock installs them again. Says what it
# does; exits 1 naming the cause when node or npm is missing or npm ci fails.
set -euo pipefail
dir=${1:?usage: book/web/tools.sh DIR}
src=$(cd "$(dirname "$0")" && pwd)
if [ -f "$dir/node_modules/.package-lock.json" ] && cmp -s "$src/package-lock.json" "$dir/package-lock.json"; then
    exit 0
fi
for c in node npm; do
    command -v "$c" >/dev/null 2>&1 || {
        echo "web: $c is missing (tests/deps.sh web installs it)" >&2
        exit 1
    }
done
echo "web: installing katex and playwright-core from the npm registry into $dir (npm ci, book/web/package-lock.json)"
mkdir -p "$dir"
rm -rf "$dir/node_modules"
cp "$src/package.json" "$src/package-lock.json" "$dir/"
if ! (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >"$dir/npm.log" 2>&1; then
    grep -v 'Unknown user config' "$dir/npm.log" | tail -15 >&2
    rm -f "$dir/package-lock.json" # (so that the next run tries again)
    echo "web: npm ci failed in $dir (its last lines are above)" >&2
    exit 1
fi
