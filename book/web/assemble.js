// assemble.js -- the web edition's pages, from the fragments book/build.sh --web made.
//
//   NODE_PATH=build/web-tools/node_modules node book/web/assemble.js \
//     --fragments LIST.tsv --out SITE-DIR --edition student|instructor \
//     --commit C --date D --metadata book/metadata.yaml --highlight CSS --tools DIR
//
// LIST.tsv has one line per input file, in book order: FILE<TAB>FRAGMENT-DIR, where
// FRAGMENT-DIR holds frag.html (the file's HTML, equations typeset), xref-defs
// ("ID<TAB>KIND<TAB>NUM" per numbered item, crossref.lua) and site/ (figures' SVGs
// and JSON specs, util.site_file). Writes SITE-DIR whole or not at all (it is built
// beside it and moved into place):
//   index.html          the contents: title page, every page with its sections
//   NN-topic.html       one page per chapter (chapters/NN-topic.md); the preface,
//                       each appendix and the bibliography a page of their own,
//                       named by their level-1 header's id (sec:presets: presets.html)
//   book-index.html     the index: every term index.lua marked, by letter, each
//                       place linked with its section number
//   figures/            the SVGs and JSON specs; assets/ the stylesheet, KaTeX's
//                       stylesheet and fonts (woff2), chalk-web.js and chalk-draw.js (loaded with defer)
// Across pages: a reference to another file's item (a.xref, crossref.lua) gets its
// text ("Figure 2.4", "(3.1)", "Chapter 2") and every link to #ID an ID on another
// page points at that page. A link to an id no page has, or a reference to an
// item no file numbered, stops with a message naming the page and the id.
// Prints "web: wrote SITE-DIR (N pages, EDITION edition)". Exits 1 on any error.
'use strict';
const fs = require('fs');
const path = require('path');

const opt = {};
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const die = (msg) => { process.stderr.write(`web: ${msg}\n`); process.exit(1); };
for (const k of ['fragments', 'out', 'edition', 'metadata', 'tools']) if (!opt[k]) die(`assemble.js needs --${k}`);

const here = __dirname;
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const unesc = (s) => s.replace(/&(lt|gt|quot|#39|amp);/g, (_, e) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]);
// A header's HTML for a list of contents: without its number, ids and links.
const entry = (html) => html.replace(/<span class="secnum">[^<]*<\/span>\s*/, '').replace(/\sid="[^"]*"/g, '')
  .replace(/<\/?a\b[^>]*>/g, '').trim();
const text = (html) => unesc(html.replace(/<span class="katex-mathml">[\s\S]*?<\/math><\/span>/g, '')
  .replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();

// ---- the book's metadata (book/metadata.yaml: "key: value" lines, "key: |" blocks) ----
function readMetadata(file) {
  const meta = {};
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(/^([\w-]+):\s*(.*)$/);
    if (!m) continue;
    if (m[2] === '|') {
      const block = [];
      while (i + 1 < lines.length && /^\s+\S|^\s*$/.test(lines[i + 1]) && !/^[\w-]+:/.test(lines[i + 1])) block.push(lines[++i].trim());
      meta[m[1]] = block.join(' ').trim();
    } else {
      meta[m[1]] = m[2].replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
    }
  }
  return meta;
}
const meta = readMetadata(opt.metadata);
const edition = opt.edition;
const editionTitle = edition === 'instructor' ? 'Instructor edition, with worked solutions' : 'Student edition';

// inline markdown of the metadata (`code`, *emphasis*) as HTML
const mdInline = (s) => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*([^*]+)\*/g, '<em>$1</em>');

// ---- the fragments, split into pages at their level-1 headers -------------------------
const WORDS = { chap: 'Chapter', app: 'Appendix', sec: 'Section', fig: 'Figure', tbl: 'Table', eq: '' };
const defs = new Map(); // id -> { kind, num }
const pages = [];
const siteFiles = []; // [from, to]
const list = fs.readFileSync(opt.fragments, 'utf8').split('\n').filter((l) => l !== '');
for (const line of list) {
  const [file, dir] = line.split('\t');
  const html = fs.readFileSync(path.join(dir, 'frag.html'), 'utf8');
  const defsFile = path.join(dir, 'xref-defs');
  if (fs.existsSync(defsFile)) {
    for (const d of fs.readFileSync(defsFile, 'utf8').split('\n')) {
      if (d === '') continue;
      const [id, kind, num] = d.split('\t');
      defs.set(id, { kind, num });
    }
  }
  const site = path.join(dir, 'site');
  if (fs.existsSync(site)) {
    const walk = (d, rel) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name), path.join(rel, e.name));
        else siteFiles.push([path.join(d, e.name), path.join(rel, e.name)]);
      }
    };
    walk(site, '');
  }
  // level-1 headers start pages; anything before the first belongs to it
  const parts = html.split(/(?=^<h1[ >])/m);
  if (parts.length > 1 && !/^<h1[ >]/.test(parts[0])) parts[1] = parts.shift() + parts[0];
  const chapterFile = /^chapters\/\d\d-[^/]+\.md$/.test(file);
  for (const part of parts) {
    const h1 = part.match(/^<h1([^>]*)>([\s\S]*?)<\/h1>/);
    if (!h1) die(`${file}: no level-1 header (# Title) to make a page of`);
    const id = (h1[1].match(/id="([^"]*)"/) || [])[1] || '';
    const secnum = (h1[2].match(/<span class="secnum">([^<]*)<\/span>/) || [])[1] || '';
    const title = text(h1[2].replace(/<span class="secnum">[^<]*<\/span>/, ''));
    let slug = chapterFile && parts.length === 1 ? path.basename(file, '.md') : id.replace(/^sec:/, '');
    if (!slug) slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    pages.push({ file, slug, name: `${slug}.html`, id, secnum, title, titleHtml: entry(h1[2]), html: part });
  }
}
const seen = new Set();
for (const p of pages) {
  if (seen.has(p.name)) die(`two pages would be named ${p.name} (${p.file})`);
  seen.add(p.name);
}

// ---- ids: every header gets one; where each id lives ------------------------------------
const owner = new Map(); // id -> page name
for (const p of pages) {
  p.ids = new Set();
  let n = 0;
  p.html = p.html.replace(/<h([2-6])((?: [^>]*)?)>/g, (all, level, attrs) => {
    if (/\sid="/.test(attrs)) return all;
    const cls = (attrs.match(/class="([^"]*)"/) || [])[1];
    n += 1;
    return `<h${level} id="${cls ? cls.split(' ')[0] : `h-${n}`}"${attrs}>`;
  });
  for (const m of p.html.matchAll(/\sid="([^"]*)"/g)) {
    const id = unesc(m[1]);
    if (p.ids.has(id)) die(`${p.name}: id "${id}" is defined twice on the page`);
    p.ids.add(id);
    if (!owner.has(id)) owner.set(id, p.name);
  }
}

// ---- references across pages, and links to other pages ---------------------------------
for (const p of pages) {
  p.html = p.html.replace(/<a href="#([^"]*)" class="xref" data-xref="([^"]*)"( data-bare="true")?>[^<]*<\/a>/g,
    (all, href, id, bare) => {
      const d = defs.get(unesc(id));
      if (!d) die(`${p.name}: @${unesc(id)}: no file of the book numbers it`);
      if (!d.num) die(`${p.name}: @${unesc(id)}: refers to an unnumbered section`);
      const num = d.kind === 'eq' ? `(${d.num})` : d.num;
      const word = WORDS[d.kind];
      const shown = bare || word === '' ? num : `${word}\u00a0${num}`;
      return `<a href="#${href}" class="xref">${esc(shown)}</a>`;
    });
  p.html = p.html.replace(/href="#([^"]*)"/g, (all, raw) => {
    const id = unesc(raw);
    if (p.ids.has(id)) return all;
    const where = owner.get(id);
    if (!where) die(`${p.name}: a link to #${id}, which no page has`);
    return `href="${where}#${raw}"`;
  });
}

// ---- each page's sections (for its own contents and the book's) ------------------------
for (const p of pages) {
  p.sections = [];
  for (const m of p.html.matchAll(/<h([23]) id="([^"]*)"[^>]*>([\s\S]*?)<\/h\1>/g)) {
    const num = (m[3].match(/<span class="secnum">([^<]*)<\/span>/) || [])[1] || '';
    p.sections.push({ level: +m[1], id: m[2], num, title: entry(m[3]) });
  }
}

// ---- the index ------------------------------------------------------------------------
// makeindex's key syntax (index.lua): "!" separates levels, "@" the sort key from the
// shown text, '"' quotes the next character.
function splitUnquoted(s, sep) {
  const out = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '"' && i + 1 < s.length) { cur += s[i] + s[i + 1]; i++; } else if (s[i] === sep) { out.push(cur); cur = ''; } else cur += s[i];
  }
  out.push(cur);
  return out;
}
const unquote = (s) => s.replace(/"(.)/g, '$1');
// The HTML inside a <span> whose opening tag ends at `from`, nested spans included.
function spanContent(html, from) {
  const re = /<span[\s>]|<\/span>/g;
  re.lastIndex = from;
  let depth = 1;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[0] === '</span>' ? -1 : 1;
    if (depth === 0) return html.slice(from, m.index);
  }
  return html.slice(from);
}
const terms = new Map(); // sort path -> { levels: [shown...], places: [] }
for (const p of pages) {
  let section = p.secnum.replace(/^(Chapter|Appendix) /, '') || p.title;
  const re = /<h([1-6]) id="[^"]*"[^>]*>([\s\S]*?)<\/h\1>|<span id="(idx-\d+)" class="index-term" data-index-key="([^"]*)">/g;
  for (const m of p.html.matchAll(re)) {
    if (m[1]) {
      const num = (m[2].match(/<span class="secnum">([^<]*)<\/span>/) || [])[1];
      if (num) section = num.replace(/^(Chapter|Appendix) /, '');
      continue;
    }
    const levels = splitUnquoted(unesc(m[4]), '!').map((lv) => {
      const [sort, shown] = splitUnquoted(lv, '@');
      return { sort: unquote(sort).toLowerCase(), shown: shown === undefined ? unquote(sort) : unquote(shown) };
    });
    // a shown text in LaTeX (a term with code or maths): the term as the page prints it
    const last = levels[levels.length - 1];
    if (/\\/.test(last.shown)) last.shown = text(spanContent(p.html, m.index + m[0].length));
    const key = levels.map((l) => l.sort).join('\u0000');
    if (!terms.has(key)) terms.set(key, { levels, places: [] });
    terms.get(key).places.push({ href: `${p.name}#${m[3]}`, label: section });
  }
}
function indexHtml() {
  const groups = new Map();
  const keys = [...terms.keys()].sort((a, b) => a.localeCompare(b, 'en'));
  for (const k of keys) {
    const t = terms.get(k);
    const c = t.levels[0].sort[0] || '?';
    const letter = /[a-z]/.test(c) ? c.toUpperCase() : 'Symbols and numbers';
    if (!groups.has(letter)) groups.set(letter, []);
    groups.get(letter).push(t);
  }
  const out = ['<h1 id="book-index">Index</h1>',
    '<p>Every term where the book defines it (in bold in the text) or marks it, with the section it is in. ' +
    'The symbols are in the <a href="' + (owner.get('sec:notation') || '') + '#sec:notation">notation table</a>, ' +
    'the hardware and model presets in <a href="' + (owner.get('sec:presets') || '') + '#sec:presets">the presets appendix</a>.</p>',
    '<nav class="index-letters" aria-label="Letters">' +
    [...groups.keys()].map((l, i) => `<a href="#letter-${i}">${esc(l)}</a>`).join(' ') + '</nav>'];
  let i = 0;
  for (const [letter, ts] of groups) {
    out.push(`<h2 id="letter-${i++}">${esc(letter)}</h2>`, '<ul class="index-entries">');
    let prev = [];
    for (const t of ts) {
      // a subentry's parent line, once, when the parent itself has no places
      t.levels.forEach((lv, d) => {
        if (d < t.levels.length - 1 && prev[d] !== lv.sort) {
          out.push(`<li class="level-${d}">${esc(lv.shown)}</li>`);
        }
      });
      const lv = t.levels[t.levels.length - 1];
      const places = t.places.map((pl) => `<a href="${esc(pl.href)}">${esc(pl.label)}</a>`).join(', ');
      out.push(`<li class="level-${t.levels.length - 1}">${esc(lv.shown)}, ${places}</li>`);
      prev = t.levels.map((l) => l.sort);
    }
    out.push('</ul>');
  }
  return out.join('\n');
}

// ---- the contents ----------------------------------------------------------------------
function contentsHtml() {
  const item = (p) => {
    const subs = p.sections.filter((s) => s.level === 2)
      .map((s) => `<li><a href="${p.name}#${esc(s.id)}">${s.num ? `<span class="secnum">${esc(s.num)}</span> ` : ''}${s.title}</a></li>`);
    return `<li><a href="${p.name}">${p.secnum ? `<span class="secnum">${esc(p.secnum)}</span> ` : ''}${p.titleHtml}</a>` +
      (subs.length ? `\n<ol class="contents-sections">${subs.join('')}</ol>` : '') + '</li>';
  };
  return [
    `<h1 id="title" class="book-title">${esc(meta.title || 'Chalk')}</h1>`,
    meta.subtitle ? `<p class="subtitle">${esc(meta.subtitle)}</p>` : '',
    meta.description ? `<p class="description">${esc(meta.description)}</p>` : '',
    `<p class="edition">${esc(editionTitle)} · version ${esc(meta.version || '?')} · ` +
    `built from ${esc(opt.commit || 'an unknown commit')}${opt.date ? ` of ${esc(opt.date)}` : ''}</p>`,
    meta.colophon ? `<p class="colophon">${mdInline(meta.colophon)}</p>` : '',
    '<h2 id="contents">Contents</h2>',
    '<ol class="contents">',
    ...pages.map(item),
    '<li><a href="book-index.html">Index</a></li>',
    '</ol>',
  ].filter((s) => s !== '').join('\n');
}

// ---- the page around the text ----------------------------------------------------------
function pageToc(p) {
  if (p.sections.length < 2) return '';
  const items = p.sections.map((s) => `<li class="toc-${s.level}"><a href="#${esc(s.id)}">` +
    `${s.num ? `<span class="secnum">${esc(s.num)}</span> ` : ''}${s.title}</a></li>`);
  return `<nav class="page-toc" aria-label="Sections of this page"><p class="page-toc-title">On this page</p><ol>${items.join('')}</ol></nav>`;
}
function layout({ name, title, body, prev, next, toc }) {
  // the page's title first, then its own contents, then the text (a grid on wide screens)
  const h1 = body.match(/^\s*(<h1[ >][\s\S]*?<\/h1>)/);
  const head = h1 ? `${h1[1]}\n` : '';
  const rest = h1 ? body.slice(h1[0].length) : body;
  const link = (p, rel, label) => p
    ? `<a href="${p.name}" rel="${rel}"><span class="nav-dir">${label}</span> ${esc(p.secnum ? `${p.secnum}: ${p.title}` : p.title)}</a>`
    : '<span></span>';
  const navTop = `<nav class="site-nav" aria-label="Book"><a class="home" href="index.html">${esc(meta.title || 'Chalk')}</a>` +
    `<a href="index.html#contents">Contents</a><a href="book-index.html">Index</a>` +
    `${prev ? `<a href="${prev.name}" rel="prev" aria-label="Previous: ${esc(prev.title)}">← Previous</a>` : ''}` +
    `${next ? `<a href="${next.name}" rel="next" aria-label="Next: ${esc(next.title)}">Next →</a>` : ''}` +
    `<span class="edition-tag">${edition === 'instructor' ? 'Instructor edition' : 'Student edition'}</span></nav>`;
  return `<!DOCTYPE html>
<html lang="${esc(meta.lang || 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<meta name="generator" content="Chalk book/build.sh --web (${esc(editionTitle)}, ${esc(opt.commit || '')})">
<link rel="stylesheet" href="assets/katex/katex.min.css">
<link rel="stylesheet" href="assets/chalk.css">
<script src="assets/chalk-web.js" defer></script>
<script src="assets/chalk-draw.js" defer></script>
</head>
<body class="page-${esc(name.replace(/\.html$/, ''))} edition-${esc(edition)}">
<a class="skip" href="#main">Skip to the text</a>
<header class="site-header">${navTop}</header>
<main id="main" class="page${toc ? ' with-toc' : ''}">
${head}${toc || ''}
<div class="text">
${rest}
</div>
</main>
<footer class="site-footer"><nav class="prev-next" aria-label="Previous and next">${link(prev, 'prev', '←')}${link(next, 'next', '→')}</nav>
<p>${esc(meta.title || 'Chalk')} ${esc(meta.version || '')}, ${esc(editionTitle.toLowerCase())}: every number on this page was computed by the <code>chalk</code> calculator when the book was built (${esc(opt.commit || '')}).</p></footer>
</body>
</html>
`;
}

// ---- write the site beside OUT, then move it into place --------------------------------
const out = path.resolve(opt.out);
const tmp = `${out}.new`;
fs.rmSync(tmp, { recursive: true, force: true });
fs.mkdirSync(path.join(tmp, 'assets', 'katex', 'fonts'), { recursive: true });
const indexPage = { name: 'book-index.html', title: 'Index', secnum: '' };
// Each plot's JSON spec also inside its figure (<script type="application/json">), for
// chalk-web.js's moving figures: a page opened from file:// may not fetch a file.
const specFrom = new Map(siteFiles.map(([from, to]) => [to.split(path.sep).join('/'), from]));
const withSpecs = (html) => html.replace(/(<figure class="chalk-plot"[^>]*\sdata-plot="([^"]+)"[^>]*>)/g, (all, open, spec) => {
  const from = specFrom.get(spec);
  if (!from) die(`a plot names ${spec}, which no fragment wrote`);
  const json = JSON.stringify(JSON.parse(fs.readFileSync(from, 'utf8'))).replace(/</g, '\\u003c');
  return `${open}<script type="application/json" class="chalk-plot-spec">${json}</script>`;
});
pages.forEach((p, i) => {
  const title = `${p.secnum ? `${p.secnum}: ` : ''}${p.title} – ${meta.title || 'Chalk'}`;
  fs.writeFileSync(path.join(tmp, p.name), layout({
    name: p.name, title, body: withSpecs(p.html), prev: pages[i - 1], next: pages[i + 1] || indexPage, toc: pageToc(p),
  }));
});
fs.writeFileSync(path.join(tmp, 'index.html'), layout({
  name: 'index.html', title: `${meta.title || 'Chalk'}: ${meta.subtitle || ''}`, body: contentsHtml(), prev: null, next: pages[0],
}));
fs.writeFileSync(path.join(tmp, 'book-index.html'), layout({
  name: 'book-index.html', title: `Index – ${meta.title || 'Chalk'}`, body: indexHtml(), prev: pages[pages.length - 1], next: null,
}));
for (const [from, to] of siteFiles) {
  fs.mkdirSync(path.dirname(path.join(tmp, to)), { recursive: true });
  fs.copyFileSync(from, path.join(tmp, to));
}
// KaTeX's stylesheet with its fonts as woff2 only (every browser KaTeX supports reads
// it), in the variant whose fonts swap in when they arrive (font-display: swap): the
// text shows at once, the mathematics in a fallback font for the first moment
const katexDist = path.join(opt.tools, 'node_modules', 'katex', 'dist');
const css = fs.readFileSync(path.join(katexDist, 'katex-swap.min.css'), 'utf8')
  .replace(/src:url\((fonts\/[^)]+\.woff2)\) format\("woff2"\)(,url\([^)]+\) format\("[^"]+"\))*/g, 'src:url($1) format("woff2")');
if (/\.woff\)|\.ttf\)/.test(css)) die('KaTeX\'s stylesheet still names woff or ttf fonts after trimming');
fs.writeFileSync(path.join(tmp, 'assets', 'katex', 'katex.min.css'), css);
for (const f of fs.readdirSync(path.join(katexDist, 'fonts'))) {
  if (f.endsWith('.woff2')) fs.copyFileSync(path.join(katexDist, 'fonts', f), path.join(tmp, 'assets', 'katex', 'fonts', f));
}
fs.writeFileSync(path.join(tmp, 'assets', 'chalk.css'), fs.readFileSync(path.join(here, 'chalk.css'), 'utf8') +
  (opt.highlight ? `\n/* pandoc's highlighting (tango), for the listings */\n${fs.readFileSync(opt.highlight, 'utf8')}` : ''));
for (const f of ['chalk-web.js', 'chalk-draw.js']) fs.copyFileSync(path.join(here, f), path.join(tmp, 'assets', f));
const old = `${out}.old`;
fs.rmSync(old, { recursive: true, force: true });
if (fs.existsSync(out)) fs.renameSync(out, old);
fs.renameSync(tmp, out);
fs.rmSync(old, { recursive: true, force: true });
console.log(`web: wrote ${opt.out} (${pages.length + 2} pages, ${edition} edition)`);
