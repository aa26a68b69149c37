// katex.js -- typesets every equation of one web fragment with KaTeX, at build time.
//
//   NODE_PATH=build/web-tools/node_modules node book/web/katex.js FILE.md <frag.html >out.html
//
// Reads the HTML pandoc wrote with --katex (book/build.sh --web): each equation is
// <span class="math inline">TEX</span> or <span class="math display">TEX</span>,
// the TeX HTML-escaped. Writes the same HTML with each one typeset by KaTeX
// (katex.renderToString: KaTeX's HTML for the eye, MathML for screen readers), so
// the page shows its mathematics with scripts off and loads no script for it; the
// page links KaTeX's stylesheet and fonts (book/web/assemble.js copies them).
// The MathML's <annotation encoding="application/x-tex">, a copy of the TeX that
// screen readers do not read, is left out: 4% of a chapter page's bytes (issue 22,
// item 9: a page under 1.5 MB).
// A TeX error (an unknown command, a brace left open) stops: it prints
// "katex: FILE.md: $TEX$: KaTeX's message" for each bad equation and exits 1.
'use strict';
const katex = require('katex');

const file = process.argv[2] || 'stdin';
const unescape = (s) => s.replace(/&(lt|gt|quot|#39|amp);/g,
  (_, e) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]);

let html = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { html += d; });
process.stdin.on('end', () => {
  const errors = [];
  const out = html.replace(/<span class="math (inline|display)">([\s\S]*?)<\/span>/g, (all, kind, body) => {
    const tex = unescape(body);
    try {
      return katex.renderToString(tex, {
        displayMode: kind === 'display',
        throwOnError: true,
        strict: (code, msg) => { errors.push(`${file}: $${tex}$: ${msg} (${code})`); return 'ignore'; },
        output: 'htmlAndMathml',
      }).replace(/<annotation encoding="application\/x-tex">[\s\S]*?<\/annotation>/, '');
    } catch (e) {
      errors.push(`${file}: $${tex}$: ${e.message}`);
      return all;
    }
  });
  if (errors.length > 0) {
    for (const e of errors) process.stderr.write(`katex: ${e}\n`);
    process.exit(1);
  }
  process.stdout.write(out);
});
