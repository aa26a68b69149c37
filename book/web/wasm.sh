#!/usr/bin/env bash
# wasm.sh -- the calculator compiled to WebAssembly for the web edition (issue 22, item 3).
#
#   book/web/wasm.sh OUT.js CFLAG... -- SOURCE.c...
#
# The Makefile calls it with the calculator's own include flags and sources
# ($(CHALK_INC), $(CHALK_SRC) $(LIB_SRC)), so a file added to solutions/chalk/ or lib/ is
# compiled here too; nothing lists them twice. Debian's emscripten (3.1.6; tests/deps.sh
# web installs it and node-acorn, which its optimiser needs under NODE_PATH) writes one
# file, OUT.js: the WebAssembly inlined as base64 (SINGLE_FILE), so the pages load it
# from file:// too, where a browser refuses to fetch a separate .wasm. The module is a
# factory, ChalkWasm(options) (MODULARIZE): main is not run at load (INVOKE_RUN=0) and
# the runtime stays up (EXIT_RUNTIME=0), so assets/chalk-web.js calls main (and fflush) once per
# command on one instance (callMain), with its stdout and stderr captured byte by byte,
# in a Web Worker: OUT.js defines window.ChalkWasmSource, emcc's script as a string.
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
    -sMODULARIZE=1 -sEXPORT_NAME=ChalkWasm -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 -sSINGLE_FILE=1 \
    -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web,worker,node -sEXPORTED_RUNTIME_METHODS=callMain,FS -sEXPORTED_FUNCTIONS=_main,_fflush \
    -o "$out.tmp.js"
# The page runs the calculator in a Web Worker, which a page from file:// may start
# only from a blob: so OUT.js holds emcc's script as a string, for assets/chalk-web.js
# to make the worker of.
node -e '
const fs = require("fs");
const text = fs.readFileSync(process.argv[1], "utf8");
fs.writeFileSync(process.argv[2], "// chalk-wasm.js -- the calculator as WebAssembly (book/web/wasm.sh), as the text\n" +
  "// of a script: assets/chalk-web.js runs it in a Web Worker.\nwindow.ChalkWasmSource = " + JSON.stringify(text) + ";\n");
' "$out.tmp.js" "$out.wrapped.js"
rm "$out.tmp.js"
mv "$out.wrapped.js" "$out"
