#!/usr/bin/env bash
# wasm.sh -- the calculator compiled to WebAssembly for the web edition (issue 22, item 3).
#
#   book/web/wasm.sh OUT.js CFLAG... -- SOURCE.c...
#
# The Makefile calls it with the calculator's own include flags and sources
# ($(CHALK_INC), $(CHALK_SRC) $(LIB_SRC)), so a file added to solutions/chalk/ or lib/ is
# compiled here too; nothing lists them twice. Debian's emscripten (3.1.6; tests/deps.sh
# web installs it and node-acorn, which its optimiser needs under NODE_PATH) writes one
# file, OUT.js, that a page loads with a <script> (from file:// too, where a browser
# refuses to fetch a separate .wasm): window.ChalkWasmSource, emcc's script as a string,
# and window.ChalkWasmGzip, the WebAssembly gzipped (-9) and in base64: 316 KB of
# WebAssembly is 421 KB as emcc's inlined base64 (SINGLE_FILE) and 179 KB gzipped first,
# which keeps a chapter page under issue 22's 1.5 MB with the calculator;
# assets/chalk-web.js gunzips it in the worker (the browser's DecompressionStream) and
# hands it to the module (wasmBinary). The module is a
# factory, ChalkWasm(options) (MODULARIZE): main is not run at load (INVOKE_RUN=0) and
# the runtime stays up (EXIT_RUNTIME=0), so assets/chalk-web.js calls main (and fflush) once per
# command on one instance (callMain), with its stdout and stderr captured byte by byte,
# in a Web Worker.
# cJSON (for check-answers) is compiled in from book/web/cjson/: cJSON 1.7.15, Debian
# 12's libcjson version, from github.com/DaveGamble/cJSON tag v1.7.15 (commit
# d348621ca93571343a56862df7de4ff3bc9b5667), MIT licence in book/web/cjson/LICENSE.
# The same flags as build/chalk (-O2 -fno-math-errno -ffp-contract=off, the course's
# -std=c11) and the same libm routines (the Makefile passes book/web/libm/*.c, musl's
# pow, exp, log, ... which build/chalk links too) so the numbers are the same doubles:
# book/web/test.js compares every command the book runs with the native build/chalk,
# byte for byte.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: book/web/wasm.sh OUT.js CFLAG... -- SOURCE.c..." >&2; exit 2; }
out=$1
shift
flags=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do flags+=("$1"); shift; done
[ "${1:-}" = -- ] || { echo "wasm.sh: no -- before the sources" >&2; exit 2; }
shift
here=$(dirname "$0")
command -v emcc >/dev/null || { echo "wasm.sh: emcc is missing (tests/deps.sh web installs emscripten)" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
emcc -std=c11 -O2 -fno-math-errno -ffp-contract=off "${flags[@]}" -I"$here/cjson" -I"$here/cjson/cjson" \
    "$@" "$here/cjson/cJSON.c" \
    -sMODULARIZE=1 -sEXPORT_NAME=ChalkWasm -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 \
    -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web,worker,node -sEXPORTED_RUNTIME_METHODS=callMain,FS -sEXPORTED_FUNCTIONS=_main,_fflush \
    -o "$out.tmp.js"
# The page runs the calculator in a Web Worker, which a page from file:// may start
# only from a blob: so OUT.js holds emcc's script as a string, for assets/chalk-web.js
# to make the worker of, and the WebAssembly as gzip in base64 (gzip's header without
# a name or time: the same bytes every build).
node -e '
const fs = require("fs"), zlib = require("zlib");
const [js, wasm, dest] = process.argv.slice(1);
const text = fs.readFileSync(js, "utf8");
const gz = zlib.gzipSync(fs.readFileSync(wasm), { level: 9 }).toString("base64");
fs.writeFileSync(dest, "// chalk-wasm.js -- the calculator as WebAssembly (book/web/wasm.sh): emcc'"'"'s script as\n" +
  "// text and the WebAssembly gzipped in base64; assets/chalk-web.js runs them in a Web Worker.\n" +
  "window.ChalkWasmSource = " + JSON.stringify(text) + ";\nwindow.ChalkWasmGzip = \"" + gz + "\";\n");
' "$out.tmp.js" "$out.tmp.wasm" "$out.wrapped.js"
rm "$out.tmp.js" "$out.tmp.wasm"
mv "$out.wrapped.js" "$out"
