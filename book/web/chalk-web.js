// chalk-web.js -- the web edition's script: loaded by every page with `defer`
// (book/web/assemble.js copies it to assets/chalk-web.js).
//
// An empty stub for now. The page is whole without it: every number, table and
// figure is in the HTML. It is where the calculator in the page goes (issue 22:
// chalk compiled to WebAssembly, the panels on .chalk-live and .chalk-cmd, the
// figures that move from figure.chalk-plot's data-plot spec, the review of
// .card elements, the checker of .problem elements); book/web/README.md lists
// the hooks the pages leave for it.
'use strict';
