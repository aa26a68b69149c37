// test.js -- the web edition in a real browser: Debian's chromium, headless, driven
// by playwright-core (book/web/package-lock.json; it never downloads a browser).
//
//   NODE_PATH=build/web-tools/node_modules node book/web/test.js SITE-DIR SHOTS-DIR [--bench]
//
// Loads every page of SITE-DIR from file:// at 375 and 1,400 pixels wide, with every
// request watched: one outside SITE-DIR (another scheme, host or directory) is
// refused and is a failure. Checks, per page and width: no console error and no
// uncaught exception; no failed request (a missing font, figure or script); no
// KaTeX error (.katex-error); every image loaded; nothing wider than the window
// (wide tables, listings and equations scroll inside their own box); every link
// to a page of the site reaches an existing page and, with #ID, an element of
// that page; every plot names a JSON spec that exists and parses, and holds the
// table of its numbers; every live number (.chalk-live) has its command
// (data-chalk) and a shown value; text is readable (contrast at least 4.5:1 against
// its background, WCAG AA). Per page at 1,400 pixels: the keyboard works (Tab
// first reaches the skip link, which takes the focus to the text; a figure's
// table opens with Enter on its summary; on a chapter page, at least two figures move
// and each one's control, moved twice, redraws it differently: the redraw times are
// printed, not tested), and with scripts off the page still
// shows its numbers and typeset equations. Saves what a person would look at in SHOTS-DIR:
// the top of each page (NAME-WIDTH.png) and, per page, the first figure, table,
// display equation, box and listing (NAME-WIDTH-WHAT.png; with SHOTS=top, only the
// top of each page).
// Before the pages, a self-test: a page that asks for an outside resource must be
// caught, or the watch proves nothing. Then the calculator in the page (chalk-web.js,
// on the first chapter page): every command the book runs (each data-chalk as written
// and with --json and --csv, each plot's sweep and marks, the presets' lists) gives
// the same exit status and the same bytes on stdout and stderr as the native
// build/chalk (or $CHALK), every one (both link the same libm routines,
// book/web/libm/, and neither contracts into FMA); the page is not frozen while
// one runs (a timer on its main thread ticks during each command that takes half a second
// natively: the calculator runs in a worker); a live number's panel opens with Enter, shows its key and the
// native --json output, and reruns when a flag is edited, showing the native output of
// the edited command; a card graded "good" is due in one day after a reload; where the
// page has a problem's key (the instructor edition), the checker accepts the key's value
// and its shown form and refuses a value off by three tolerances
// (calculator-panel.png, calculator-card.png, calculator-problem.png in SHOTS-DIR).
// Then practice problems drawn in the page by seed, against problems.lua's own key
// (checkDraws below; calculator-drawn.png).
// Prints "web-test: PAGE@WIDTH: problem" lines, then "web-test: N pages x 2 widths:
// N passed, N failed"; exits 1 when any check failed.
// --bench: instead, prints each chapter page's first render (first contentful
// paint, and the load event) at 1,400 pixels and its weight (the bytes of the page
// and of every file it loaded), for `make bench` (book/web/bench.sh).
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');
const { chromium } = require('playwright-core');

const [siteArg, shotsArg, mode] = process.argv.slice(2);
if (!siteArg || !shotsArg) {
  process.stderr.write('usage: node book/web/test.js SITE-DIR SHOTS-DIR [--bench]\n');
  process.exit(2);
}
const site = path.resolve(siteArg);
const shots = path.resolve(shotsArg);
const bench = mode === '--bench';
const WIDTHS = [375, 1400];
const EXE = process.env.CHROMIUM || '/usr/bin/chromium';
// (the flags that keep Debian's chromium from reaching out on its own)
const FLAGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-extensions'];

// (PAGES="a.html b.html" checks only those: for a quick look while working)
const only = (process.env.PAGES || '').split(/\s+/).filter(Boolean);
const pages = fs.readdirSync(site).filter((f) => f.endsWith('.html') && (only.length === 0 || only.includes(f))).sort();
const failures = [];
let passed = 0;
let failed = 0; // checks (the self-test, each page at each width) with a problem
const fail = (where, msg) => failures.push(`${where}: ${msg}`);
// A screenshot for a person to look at: one that times out (a busy machine) is said, not fatal.
async function shot(handle, file) {
  try { await handle.screenshot({ path: file, timeout: 60000 }); } catch (e) { console.log(`web-test: no screenshot ${path.basename(file)}: ${String(e.message || e).split('\n')[0]}`); }
}
const redraws = []; // [figure, ms] of the moving figures' second redraw (printed, not a test)

// ids of every page, for the link check
const idsOf = new Map();
for (const p of fs.readdirSync(site).filter((f) => f.endsWith('.html'))) {
  const html = fs.readFileSync(path.join(site, p), 'utf8');
  idsOf.set(p, new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'))));
}

// Opens `file` at `width`; returns what happened and the page (caller closes).
async function visit(browser, file, width, inside) {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 780 : 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const seen = { outside: [], errors: [], failed: [], files: new Set() };
  const allowed = (url) => url.startsWith('file://') && decodeURIComponent(new URL(url).pathname).startsWith(`${inside}/`);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    // (data: and blob: are the page's own bytes: the calculator's worker is a blob)
    if (allowed(url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    seen.outside.push(url);
    return route.abort('blockedbyclient');
  });
  page.on('request', (r) => {
    const url = r.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (allowed(url)) seen.files.add(decodeURIComponent(new URL(url).pathname));
    else if (!seen.outside.includes(url)) seen.outside.push(url);
  });
  page.on('requestfailed', (r) => {
    if (allowed(r.url())) seen.failed.push(`${r.url()} (${r.failure() && r.failure().errorText})`);
  });
  page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(m.text()); });
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(`file://${file}`, { waitUntil: 'load' });
  seen.loadMs = Date.now() - t0;
  return { page, context, seen };
}

async function selfTest(browser) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-test-'));
  fs.writeFileSync(path.join(dir, 'leak.html'),
    '<!DOCTYPE html><title>x</title><img src="https://example.invalid/x.png"><link rel="stylesheet" href="/etc/hostname">');
  const { context, seen } = await visit(browser, path.join(dir, 'leak.html'), 375, dir);
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const caught = seen.outside.some((u) => u.startsWith('https://example.invalid')) && seen.outside.some((u) => u.includes('/etc/hostname'));
  if (caught) passed++;
  else failed++, fail('self-test', `a page asking for https://example.invalid/x.png and /etc/hostname was not caught (saw: ${seen.outside.join(' ') || 'nothing'})`);
}

async function checkPage(browser, name, width) {
  const where = `${name}@${width}`;
  const { page, context, seen } = await visit(browser, path.join(site, name), width, site);
  const before = failures.length;
  for (const u of seen.outside) fail(where, `a request outside the site: ${u}`);
  for (const e of seen.errors) fail(where, `console error: ${e}`);
  // every image, below the fold too (loading=lazy), before they are checked
  await page.evaluate(async () => {
    for (const i of document.images) i.loading = 'eager';
    await Promise.all([...document.images].map((i) => (i.complete ? null : new Promise((ok) => { i.onload = ok; i.onerror = ok; }))));
  });
  for (const f of seen.failed) fail(where, `a request failed: ${f}`);
  const r = await page.evaluate(() => {
    const out = {};
    out.katexErrors = [...document.querySelectorAll('.katex-error')].map((e) => e.getAttribute('title') || e.textContent).slice(0, 3);
    out.images = [...document.images].filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => i.getAttribute('src'));
    out.scrollWidth = document.documentElement.scrollWidth;
    out.innerWidth = window.innerWidth;
    // the outermost things that stick out of the window, for the message
    const out_ = (e) => e.getBoundingClientRect().right > window.innerWidth + 1;
    out.wide = [...document.querySelectorAll('body *')].filter((e) => out_(e) && !(e.parentElement && out_(e.parentElement)))
      .slice(0, 3).map((e) => `${e.tagName.toLowerCase()}.${e.className}: "${e.textContent.trim().slice(0, 50)}"`);
    out.links = [...document.querySelectorAll('a[href], link[href], script[src], img[src]')]
      .map((a) => [a.tagName.toLowerCase(), a.getAttribute('href') || a.getAttribute('src')]);
    out.plots = [...document.querySelectorAll('figure.chalk-plot')].map((f) => ({
      id: f.id, spec: f.dataset.plot, table: !!f.querySelector('details table'), img: !!f.querySelector('img[alt]') }));
    out.diagrams = [...document.querySelectorAll('figure.chalk-diagram')].map((f) => ({ id: f.id, img: !!f.querySelector('img[alt]') }));
    out.live = [...document.querySelectorAll('.chalk-live')].filter((s) => !s.dataset.chalk || !s.textContent.trim()).length;
    out.main = document.querySelector('main') ? document.querySelector('main').textContent.trim().length : 0;
    // contrast (WCAG 2): each text element's colour against the first opaque background behind it
    const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
      .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
    const bg = (e) => {
      for (let x = e; x; x = x.parentElement) {
        const c = rgb(getComputedStyle(x).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    out.contrast = [];
    const texts = [...document.querySelectorAll('p, li, td, th, a, summary, figcaption, caption, h1, h2, h3, .secnum, code, pre')]
      .filter((e) => e.offsetParent !== null && e.textContent.trim() !== '');
    for (const e of texts.slice(0, 600)) {
      const [a, b] = [lum(rgb(getComputedStyle(e).color)), lum(bg(e))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 4.5) out.contrast.push(`${e.tagName.toLowerCase()}.${e.className} ${ratio.toFixed(2)}:1 "${e.textContent.trim().slice(0, 30)}"`);
    }
    return out;
  });
  if (r.contrast.length) fail(where, `text below 4.5:1 contrast: ${r.contrast.slice(0, 3).join('; ')}`);
  if (r.katexErrors.length) fail(where, `KaTeX errors: ${r.katexErrors.join(' | ')}`);
  if (r.images.length) fail(where, `images that did not load: ${r.images.join(' ')}`);
  if (r.scrollWidth > r.innerWidth + 1) fail(where, `the page is ${r.scrollWidth} px wide in a ${r.innerWidth} px window (${r.wide.join(', ')})`);
  if (r.main < 100) fail(where, 'the page has almost no text');
  if (r.live) fail(where, `${r.live} live number(s) without data-chalk or a value`);
  for (const p of r.plots) {
    if (!p.spec) { fail(where, `plot ${p.id} has no data-plot`); continue; }
    try { JSON.parse(fs.readFileSync(path.join(site, p.spec), 'utf8')); } catch (e) { fail(where, `plot ${p.id}: ${p.spec}: ${e.message}`); }
    if (!p.table) fail(where, `plot ${p.id} has no table of its numbers`);
    if (!p.img) fail(where, `plot ${p.id} has no image with alt text`);
  }
  for (const d of r.diagrams) if (!d.img) fail(where, `diagram ${d.id} has no image with alt text`);
  if (width === WIDTHS[0]) { // the links once per page
    for (const [tag, href] of r.links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) {
        // a link to a paper's page is not loaded by the page; a stylesheet, script or image is
        if (tag !== 'a') fail(where, `<${tag}> from outside the site: ${href}`);
        continue;
      }
      const [file, anchor] = href.split('#');
      const target = file === '' ? name : path.posix.normalize(path.posix.join(path.posix.dirname(name), file));
      if (file !== '' && !fs.existsSync(path.join(site, target))) { fail(where, `a link to ${href}: no such file`); continue; }
      if (anchor !== undefined && anchor !== '') {
        if (!idsOf.has(target)) fail(where, `a link to ${href}: ${target} is not a page`);
        else if (!idsOf.get(target).has(decodeURIComponent(anchor))) fail(where, `a link to ${href}: no id "${anchor}" there`);
      }
    }
  }
  const base = `${name.replace(/\.html$/, '')}-${width}`;
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, path.join(shots, `${base}.png`));
  if (width === WIDTHS[1]) {
    // the keyboard: Tab reaches the skip link first, Enter on it moves the focus to the text
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement && document.activeElement.className);
    if (first !== 'skip') fail(where, `the first Tab reaches "${first}", not the skip link`);
    await page.keyboard.press('Enter');
    const after = await page.evaluate(() => location.hash);
    if (after !== '#main') fail(where, `Enter on the skip link goes to "${after}", not #main`);
    // a figure's numbers open from the keyboard
    const summary = await page.$('details.figure-data > summary');
    if (summary) {
      await summary.focus();
      await page.keyboard.press('Enter');
      if (!await page.evaluate(() => document.querySelector('details.figure-data').open)) fail(where, 'Enter on a figure\'s summary does not open its table');
    }
    // figures that move: each slider moved twice redraws its figure, and the drawing changes
    if (/^\d\d-/.test(name)) {
      const figs = await page.$$eval('figure.chalk-plot', (fs) => fs.map((f) => ({ id: f.id, move: !!f.querySelector('.chalk-move input[type=range]') })));
      const moving = figs.filter((f) => f.move);
      if (moving.length < 2) fail(where, `${moving.length} figure(s) that move (of ${figs.length} plots); the issue asks for two per chapter`);
      for (const f of moving) {
        const draws = [];
        for (const [k, pos] of [[1, 800], [2, 200]]) {
          await page.evaluate(([id, p]) => {
            const s = document.getElementById(id).querySelector('.chalk-move input[type=range]');
            s.value = String(p);
            s.dispatchEvent(new Event('input'));
          }, [f.id, pos]);
          await page.waitForFunction(([id, n]) => +(document.getElementById(id).dataset.redraws || 0) >= n, [f.id, k], { timeout: 60000 })
            .catch(() => fail(where, `figure ${f.id}: moving its control did not redraw it`));
          draws.push(await page.evaluate((id) => {
            const fig = document.getElementById(id);
            const svg = fig.querySelector('svg.chalk-moved');
            const printed = fig.querySelector('img, svg:not(.chalk-moved)');
            return { ms: +fig.dataset.redrawMs, points: svg ? [...svg.querySelectorAll('polyline')].map((p) => p.getAttribute('points')).join('|') : '',
              status: fig.querySelector('.chalk-move-status').textContent,
              both: !!(svg && printed && printed.getBoundingClientRect().height > 0) };
          }, f.id));
        }
        if (draws[1].both) fail(where, `figure ${f.id}: the printed figure still shows beside the redrawn one`);
        if (!draws[0].points || draws[0].points === draws[1].points) fail(where, `figure ${f.id}: two positions of its control drew the same figure (${draws[1].status})`);
        redraws.push([`${name.replace(/\.html$/, '')} ${f.id}`, draws[1].ms]);
        if (f === moving[0]) {
          const figEl = await page.$(`[id="${f.id}"]`);
          if (figEl) await shot(figEl, path.join(shots, `${name.replace(/\.html$/, '')}-${width}-moved.png`));
        }
      }
    }
    // scripts off: the numbers and the equations are in the page
    const off = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
    await off.route('**/*', (route) => (route.request().url().startsWith('file://') ? route.continue() : route.abort()));
    const quiet = await off.newPage();
    await quiet.goto(`file://${path.join(site, name)}`, { waitUntil: 'load' });
    const shown = await quiet.evaluate(() => ({
      live: [...document.querySelectorAll('.chalk-live')].filter((s) => s.textContent.trim() !== '').length,
      all: document.querySelectorAll('.chalk-live').length,
      katex: document.querySelectorAll('.katex').length,
      tex: document.querySelectorAll('span.math').length,
    }));
    await off.close();
    if (shown.live !== shown.all) fail(where, `with scripts off, ${shown.all - shown.live} live numbers are empty`);
    if (shown.tex > 0) fail(where, `with scripts off, ${shown.tex} equations are untypeset TeX`);
  }
  // what a person looks at: the first of each kind of thing (the top of the page: above)
  for (const [what, sel] of process.env.SHOTS === 'top' ? [] : [['figure', 'figure'], ['table', 'main table:not(.figure-numbers)'], ['equation', '.katex-display'],
    ['box', '.exercise, .slip, .reality, .example'], ['listing', '.listing'], ['card', '.card'], ['problem', '.problem']]) {
    const el = await page.$(sel);
    const box = el && await el.boundingBox();
    if (!box || box.height < 2) continue;
    await shot(el, path.join(shots, `${base}-${what}.png`));
  }
  await context.close();
  if (failures.length === before) passed++;
  else failed++;
}

// ---- the calculator in the page, the panels, the cards (chalk-web.js) ----------------

const CHALK = path.resolve(process.env.CHALK || 'build/chalk');
const unescape = (s) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
// util.split_args: blanks split, "double quotes" group
function splitArgs(s) {
  const args = [];
  let cur = '', quoted = false, any = false;
  for (const ch of s) {
    if (ch === '"') { quoted = !quoted; any = true; } else if (/\s/.test(ch) && !quoted) { if (any) { args.push(cur); cur = ''; any = false; } } else { cur += ch; any = true; }
  }
  if (any) args.push(cur);
  return args;
}
// Every command the book runs: each live number's and each shown command's data-chalk
// (as written, and with --json: what the build and the panel run), each plot's sweep
// and marks (with --csv and --json), and the presets' lists the panel shows.
function bookCommands() {
  const lines = new Set();
  for (const p of pages) {
    for (const m of fs.readFileSync(path.join(site, p), 'utf8').matchAll(/\sdata-chalk="([^"]*)"/g)) lines.add(unescape(m[1]));
  }
  const figures = path.join(site, 'figures');
  for (const f of fs.existsSync(figures) ? fs.readdirSync(figures).filter((x) => x.endsWith('.json')) : []) {
    const spec = JSON.parse(fs.readFileSync(path.join(figures, f), 'utf8'));
    if (spec.command) lines.add(spec.command);
    for (const m of spec.marks || []) if (m.command) lines.add(m.command);
  }
  const out = new Map([['list models', ['list', 'models']], ['list hw', ['list', 'hw']]]);
  for (const line of lines) {
    const args = splitArgs(line);
    const plain = args.filter((a) => a !== '--json' && a !== '--csv');
    for (const a of [args, plain.concat('--json'), plain.concat('--csv')]) out.set(a.join('\u0000'), a);
  }
  return [...out.values()];
}

async function checkCalculator(browser) {
  const where = 'calculator';
  const before = failures.length;
  const page0 = pages.find((p) => /^\d\d-/.test(p)) || pages[0];
  const { page, context, seen } = await visit(browser, path.join(site, page0), 1400, site);
  const commands = bookCommands();
  // the page's calculator, every command, in one go
  const t0 = Date.now();
  // (with a timer ticking on the page's main thread: the ticks during each command)
  const got = await page.evaluate(async (list) => {
    const out = [];
    let ticks = 0, on = true;
    (function tick() { ticks++; if (on) setTimeout(tick, 0); })();
    for (const args of list) {
      const t = ticks;
      const r = await window.Chalk.run(args);
      let bin = '';
      for (const b of r.bytes) bin += String.fromCharCode(b);
      out.push({ status: r.status, stdout: btoa(bin), stderr: r.stderr, ticks: ticks - t });
    }
    on = false;
    return out;
  }, commands);
  const pageMs = Date.now() - t0;
  let same = 0;
  const { spawnSync } = require('child_process');
  const slow = []; // commands that take half a second natively: the page's timers must tick while they run
  commands.forEach((args, i) => {
    const tn = Date.now();
    const n = spawnSync(CHALK, args, { maxBuffer: 64 << 20 });
    if (Date.now() - tn >= 500) {
      slow.push(`${args.join(' ')} (${Date.now() - tn} ms natively, ${got[i].ticks} ticks in the page)`);
      if (got[i].ticks < 1) fail(where, `chalk ${args.join(' ')} froze the page: no timer of its main thread ran while it ran (the calculator runs in a worker)`);
    }
    const w = got[i], wout = Buffer.from(w.stdout, 'base64');
    const problems = [];
    if (n.status !== w.status) problems.push(`exit ${w.status} in the page, ${n.status} native`);
    if (!wout.equals(n.stdout)) {
      let k = 0;
      while (k < wout.length && wout[k] === n.stdout[k]) k++;
      problems.push(`stdout differs at byte ${k} (page ${wout.length} bytes, native ${n.stdout.length}): ` +
        `page "${wout.slice(k, k + 40)}", native "${n.stdout.slice(k, k + 40)}"`);
    }
    if (w.stderr !== n.stderr.toString('utf8')) problems.push(`stderr differs: page "${w.stderr.slice(0, 80)}", native "${n.stderr.toString().slice(0, 80)}"`);
    if (problems.length) fail(where, `chalk ${args.join(' ')}: ${problems.join('; ')} (the page and the native calculator must print the same bytes)`);
    else same++;
  });
  if (commands.length < 100) fail(where, `only ${commands.length} commands found in the site`);
  // a live number's panel, from the keyboard: it opens, runs, shows the key; an edited flag reruns
  const panel = await page.evaluate(async () => {
    const hook = [...document.querySelectorAll('.chalk-live[data-chalk][data-key]')].find((h) => / --\S+ \S+/.test(h.dataset.chalk));
    if (!hook) return { error: 'no live number with a flag' };
    hook.focus();
    return { chalk: hook.dataset.chalk, key: hook.dataset.key, focused: document.activeElement === hook };
  });
  if (panel.error) fail(where, panel.error);
  else {
    if (!panel.focused) fail(where, 'a live number does not take the keyboard focus');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.chalk-panel[data-ran="1"]', { timeout: 10000 }).catch(() => fail(where, `Enter on the live number "${panel.chalk}" opened no panel that ran`));
    const first = await page.evaluate(() => {
      const p = document.querySelector('.chalk-panel');
      return p && { answer: p.querySelector('.chalk-answer').textContent, table: p.querySelector('.chalk-table').textContent, json: p.querySelector('.chalk-json').textContent };
    });
    if (first) {
      const args = splitArgs(panel.chalk);
      const plain = args.filter((a) => a !== '--json' && a !== '--csv');
      const native = spawnSync(CHALK, plain.concat('--json')).stdout.toString();
      if (first.json !== native) fail(where, `the panel's JSON for "${panel.chalk}" is not the native --json output`);
      if (!first.answer.startsWith(panel.key + ' = ')) fail(where, `the panel's answer is "${first.answer}", not "${panel.key} = ..."`);
      // edit the last flag's value: a number doubled, else the word kept and --digits 3 added
      const edit = await page.evaluate(() => {
        const p = document.querySelector('.chalk-panel');
        const inputs = [...p.querySelectorAll('.chalk-flag input')];
        const numeric = inputs.find((i) => !i.disabled && /^[0-9.e+]+$/.test(i.value) && Number(i.value) > 0);
        if (numeric) { numeric.value = String(Number(numeric.value) * 2); numeric.focus(); return numeric.getAttribute('aria-label') + ' ' + numeric.value; }
        const more = inputs[inputs.length - 1];
        more.value = '--digits 3'; more.focus();
        return '--digits 3';
      });
      await page.keyboard.press('Enter');
      await page.waitForSelector('.chalk-panel[data-ran="2"]', { timeout: 10000 }).catch(() => fail(where, 'Enter in an edited flag did not rerun'));
      const second = await page.evaluate(() => ({ line: document.querySelector('.chalk-panel .chalk-line').textContent,
        table: document.querySelector('.chalk-panel .chalk-table').textContent }));
      const edited = splitArgs(second.line.replace(/^chalk /, ''));
      const n = spawnSync(CHALK, edited);
      if (second.table !== n.stdout.toString() + n.stderr.toString()) fail(where, `after editing ${edit}, the panel's table is not the native output of "${second.line}"`);
      if (second.table === first.table) fail(where, `editing ${edit} changed nothing in the table`);
      const panelEl = await page.$('.chalk-panel');
      if (panelEl) await shot(panelEl, path.join(shots, 'calculator-panel.png'));
    }
  }
  // a card review survives a reload
  const card = await page.$('div.card[id] .card-show');
  if (!card) fail(where, `${page0} has no card with a Show answer button`);
  else {
    await card.click();
    await page.click('div.card[id] .card-good');
    const id = await page.evaluate(() => document.querySelector('div.card[id]').id);
    await page.reload({ waitUntil: 'load' });
    const after = await page.evaluate((cid) => ({
      stored: JSON.parse(localStorage.getItem('chalk-cards') || '{}')[cid],
      status: document.querySelector(`#${CSS.escape(cid)} .card-status`).textContent,
      hidden: document.querySelector(`#${CSS.escape(cid)} .card-a`).hidden,
    }), id);
    if (!after.stored || !(after.stored.interval_days === 1 && after.stored.due_ms > Date.now())) fail(where, `card ${id}: "good" stored ${JSON.stringify(after.stored)}, not a one-day interval`);
    if (after.status !== 'next review in 1 day') fail(where, `card ${id} after a reload says "${after.status}"`);
    if (!after.hidden) fail(where, `card ${id}: the answer shows before "Show answer"`);
  }
  // the checker (where the page has keys: the instructor edition): the key is right, a wrong answer is not
  const problem = await page.evaluate(() => {
    const p = document.querySelector('div.problem[data-answer-json]');
    return p && { id: p.id, key: JSON.parse(p.dataset.answerJson), input: !!p.querySelector('.problem-input') };
  });
  if (problem) {
    if (!problem.input) fail(where, `problem ${problem.id} has a key but no answer field`);
    const wrong = typeof problem.key.value === 'number' ? String(problem.key.value * (1 + 3 * (problem.key.tolerance || 0.01)) + 1) : 'not-' + problem.key.value;
    for (const [answer, want] of [[String(problem.key.value), 'right'], [wrong, 'wrong'], [problem.key.shown || String(problem.key.value), 'right']]) {
      await page.fill(`#${problem.id} .problem-input`, answer);
      await page.evaluate((pid) => { delete document.getElementById(pid).dataset.checked; }, problem.id);
      await page.press(`#${problem.id} .problem-input`, 'Enter');
      await page.waitForSelector(`#${problem.id}[data-checked]`, { timeout: 10000 }).catch(() => {});
      const got = await page.evaluate((pid) => document.getElementById(pid).dataset.checked, problem.id);
      if (got !== want) fail(where, `problem ${problem.id}: the answer "${answer}" is ${got || 'not checked'}, not ${want} (key ${JSON.stringify(problem.key)})`);
    }
    const verdict = await page.$(`#${problem.id}`);
    if (verdict) await shot(verdict, path.join(shots, 'calculator-problem.png'));
  } else if (/instructor/.test(site)) fail(where, `${page0} has no problem with its key`);
  for (const e of seen.errors) fail(where, `console error: ${e}`);
  for (const u of seen.outside) fail(where, `a request outside the site: ${u}`);
  const card1 = await page.$('div.card[id]');
  if (card1) await shot(card1, path.join(shots, 'calculator-card.png'));
  await context.close();
  console.log(`web-test: calculator: ${same} of ${commands.length} commands byte-identical to ${CHALK} (${pageMs} ms in the page)`);
  console.log(`web-test: calculator: the page's timers ran during each slow command (in a worker): ${slow.join('; ') || 'no command took 0.5 s natively'}`);
  if (failures.length === before) passed++; else failed++;
}

// Practice problems drawn in the page: for two seeds, every chapter page draws its
// problems with the seed (the form chalk-web.js puts before them), and each draw's
// value, unit, tolerance, shown number, command, key and parameters equal the key
// problems.lua writes natively for that seed (-M problems=answers: the
// build/answers-SEED.json of `make problems SEED=...`, here without the PDFs); no
// token of the template is left in a drawn question; and on the first page, a drawn
// problem's key (its shown number) and a value three tolerances off are judged by the
// page as the native `chalk check-answers` judges them with the native key.
const SEEDS = ['alice', 'w4-seed.2'];
async function checkDraws(browser) {
  const where = 'problems';
  const before = failures.length;
  const { spawnSync } = require('child_process');
  const repo = path.resolve(__dirname, '..', '..');
  const chapters = fs.readdirSync(path.join(repo, 'chapters')).filter((f) => /^\d\d-.*\.md$/.test(f)).sort().map((f) => path.join('chapters', f));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'web-draws-'));
  const drawPages = pages.filter((p) => /^\d\d-/.test(p));
  let compared = 0, judged = 0, pageMs = 0;
  // each seed's key, as make problems writes it
  const keys = new Map();
  for (const seed of SEEDS) {
    const keyFile = path.join(tmp, `answers-${seed}.json`);
    const r = spawnSync('pandoc', [...chapters, '--lua-filter', 'book/filters/problems.lua', '-M', 'problems=answers',
      '-M', `problems-seed=${seed}`, '-M', `problems-json=${keyFile}`, '-t', 'plain', '-o', path.join(tmp, 'key.txt')],
    { cwd: repo, env: { ...process.env, CHALK } });
    if (r.status !== 0) fail(where, `problems.lua, seed ${seed}: ${r.stderr}`);
    else keys.set(seed, { file: keyFile, want: JSON.parse(fs.readFileSync(keyFile, 'utf8')), drawn: new Set() });
  }
  for (const name of drawPages) {
    const { page, context, seen } = await visit(browser, path.join(site, name), 1400, site);
    if (!(await page.$('.problem-seed-input'))) {
      if (await page.$('div.problem')) fail(where, `${name} has problems but no seed to draw them with`);
      await context.close();
      continue;
    }
    for (const [seed, { file: keyFile, want, drawn }] of keys) {
      const t0 = Date.now();
      await page.fill('.problem-seed-input', seed);
      await page.click('.problem-draw');
      await page.waitForSelector(`.problem-seed[data-drawn="${seed}"]`, { timeout: 300000 })
        .catch(() => fail(where, `${name}: seed ${seed}: the draw did not finish`));
      pageMs += Date.now() - t0;
      const got = await page.evaluate(() => [...document.querySelectorAll('div.problem[id]')].map((p) => {
        const d = p.querySelector('.problem-drawn');
        return { id: p.id.replace(/^prob-/, ''), key: d && d.dataset.key ? JSON.parse(d.dataset.key) : null,
          error: d ? d.dataset.error : 'no draw', text: d ? d.textContent : '' };
      }));
      for (const g of got) {
        drawn.add(g.id);
        const w = want[g.id];
        if (!w) { fail(where, `${name}: problem ${g.id} is not in problems.lua's key for seed ${seed}`); continue; }
        if (!g.key) { fail(where, `${name}: seed ${seed}: problem ${g.id} not drawn: ${g.error}`); continue; }
        const diffs = [];
        for (const f of ['value', 'unit', 'tolerance', 'shown', 'command', 'key']) {
          if (g.key[f] !== w[f]) diffs.push(`${f} ${JSON.stringify(g.key[f])} in the page, ${JSON.stringify(w[f])} in the key`);
        }
        if (JSON.stringify(g.key.params) !== JSON.stringify(w.params)) diffs.push(`params ${JSON.stringify(g.key.params)} in the page, ${JSON.stringify(w.params)} in the key`);
        if (/XCHALK[LV]\d+X/.test(g.text)) diffs.push('a token of the template is left in the question');
        if (diffs.length) fail(where, `${name}: seed ${seed}: problem ${g.id}: ${diffs.join('; ')}`); else compared++;
      }
      if (seed === SEEDS[0] && judged === 0) {
        const g = got.find((x) => x.key && typeof x.key.value === 'number');
        const w = g && want[g.id];
        if (!w) fail(where, `${name}: no drawn problem with a number to check`);
        else {
          for (const [answer, meant] of [[w.shown, 'right'], [String(w.value * (1 + 3 * w.tolerance) + 1), 'wrong']]) {
            fs.writeFileSync(path.join(tmp, 'mine.txt'), `${g.id} ${answer}\n`);
            // (the whole book's key: the other problems are missing, so the verdict is this id's record)
            const out = spawnSync(CHALK, ['check-answers', keyFile, path.join(tmp, 'mine.txt'), '--json']).stdout.toString();
            let native = 'no verdict';
            try { const rec = JSON.parse(out).find((x) => x.id === g.id); native = rec ? rec.status : native; } catch (e) { native = out.trim(); }
            const sel = `#prob-${g.id} .problem-drawn`;
            await page.fill(`${sel} .problem-input`, answer);
            await page.press(`${sel} .problem-input`, 'Enter');
            await page.waitForSelector(`${sel}[data-checked]`, { timeout: 10000 }).catch(() => {});
            const verdict = await page.evaluate((s) => { const d = document.querySelector(s); const v = d.dataset.checked; delete d.dataset.checked; return v; }, sel);
            const nativeVerdict = native === 'right' ? 'right' : native === 'off' ? 'wrong' : native; // (check.c: right, off, missing)
            if (nativeVerdict !== meant) fail(where, `problem ${g.id}: chalk check-answers calls "${answer}" ${nativeVerdict}, not ${meant}: this check proves nothing`);
            if (verdict !== nativeVerdict) fail(where, `${name}: seed ${seed}: problem ${g.id}: "${answer}" is ${verdict || 'not checked'} in the page, ${nativeVerdict} by chalk check-answers`);
            judged++;
          }
          if (judged === 2) {
            await page.click(`#prob-${g.id} .problem-drawn .problem-key summary`);
            const box = await page.$(`#prob-${g.id}`);
            if (box) await shot(box, path.join(shots, 'calculator-drawn.png'));
          }
        }
      }
    }
    for (const e of seen.errors) fail(where, `${name}: console error: ${e}`);
    for (const u of seen.outside) fail(where, `${name}: a request outside the site: ${u}`);
    await context.close();
  }
  if (only.length === 0) {
    for (const [seed, { want, drawn }] of keys) for (const id of Object.keys(want)) if (!drawn.has(id)) fail(where, `seed ${seed}: problem ${id} of the key was drawn on no page`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`web-test: problems: seeds ${SEEDS.join(', ')}: ${compared} draws in the page equal to problems.lua's key, ` +
    `${judged} answers judged as chalk check-answers judges them (${pageMs} ms drawing in the pages)`);
  if (failures.length === before) passed++; else failed++;
}

async function benchPages(browser) {
  for (const name of pages.filter((p) => /^\d\d-/.test(p))) {
    const { page, context, seen } = await visit(browser, path.join(site, name), 1400, site);
    const paint = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      const nav = performance.getEntriesByType('navigation')[0];
      return { fcp: fcp ? fcp.startTime : NaN, load: nav ? nav.loadEventEnd : NaN };
    });
    // every file the page asked for, figures below the fold too (loading=lazy)
    await page.evaluate(async () => {
      for (const i of document.images) { i.loading = 'eager'; }
      await Promise.all([...document.images].map((i) => (i.complete ? null : new Promise((ok) => { i.onload = ok; i.onerror = ok; }))));
      await document.fonts.ready;
    });
    // the calculator, as a reader's first panel loads it (counted in the weight)
    const calc = await page.evaluate(async () => {
      const t0 = performance.now();
      const r = await window.Chalk.run(['list', 'hw']);
      const t1 = performance.now();
      await window.Chalk.run(['list', 'hw']);
      return { first: t1 - t0, again: performance.now() - t1, ok: r.status === 0 };
    });
    // each moving figure, its control moved once: the redraw's time
    const moved = await page.evaluate(async () => {
      const out = [];
      for (const f of document.querySelectorAll('figure.chalk-plot')) {
        const s = f.querySelector('.chalk-move input[type=range]');
        if (!s) continue;
        s.value = '700';
        s.dispatchEvent(new Event('input'));
        for (let i = 0; i < 600 && !f.dataset.redraws; i++) await new Promise((ok) => setTimeout(ok, 50));
        out.push(`${f.id.replace(/^fig:/, '')} ${f.dataset.redrawMs || '?'} ms`);
      }
      return out;
    });
    let bytes = 0;
    for (const f of seen.files) bytes += fs.statSync(f).size;
    await context.close();
    console.log(`web-bench: ${name}: first render ${paint.fcp.toFixed(0)} ms (load ${paint.load.toFixed(0)} ms), ` +
      `weight ${(bytes / 1e6).toFixed(2)} MB in ${seen.files.size} files with the calculator ` +
      `(its first command ${calc.first.toFixed(0)} ms after the page, then ${calc.again.toFixed(0)} ms${calc.ok ? '' : ', FAILED'}); ` +
      `figures redrawn: ${moved.join(', ') || 'none'}`);
  }
}

(async () => {
  fs.mkdirSync(shots, { recursive: true });
  const browser = await chromium.launch({ executablePath: EXE, headless: true, args: FLAGS });
  try {
    if (bench) { await benchPages(browser); return; }
    await selfTest(browser);
    await checkCalculator(browser);
    await checkDraws(browser);
    for (const name of pages) for (const w of WIDTHS) await checkPage(browser, name, w);
  } finally {
    await browser.close();
  }
  if (redraws.length) {
    const ms = redraws.map((r) => r[1]).sort((a, b) => a - b);
    console.log(`web-test: figures that move: ${redraws.length}, redraw median ${ms[ms.length >> 1].toFixed(0)} ms, ` +
      `${ms.filter((m) => m < 100).length} under 100 ms; slowest: ${redraws.sort((a, b) => b[1] - a[1]).slice(0, 3).map((r) => `${r[0]} ${r[1].toFixed(0)} ms`).join(', ')}`);
  }
  for (const f of failures) console.log(`web-test: ${f}`);
  console.log(`web-test: ${pages.length} pages x ${WIDTHS.length} widths (${site}): ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log(`web-test: ${e.stack || e}`);
  process.exit(1);
});
