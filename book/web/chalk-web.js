// chalk-web.js -- the web edition's script: loaded by every page with `defer`
// (book/web/assemble.js copies it to assets/chalk-web.js). The page is whole without
// it: every number, table and figure is in the HTML; this script only adds.
//
// 1. The calculator in the page. assets/chalk-wasm.js is build/chalk compiled to
//    WebAssembly (book/web/wasm.sh), one file with the module inside (gzipped), so it loads
//    from file:// too. It is loaded on first use, once per page, by a <script> of the
//    same address on every page, so the browser's cache serves it to the next page.
//    It runs in a Web Worker (started from a blob: the calculator's text, which
//    chalk-wasm.js holds as a string), so a slow command does not freeze the page.
//    Chalk.run(ARGS) -> Promise of {status, stdout, stderr} (stdout and stderr as
//    the bytes chalk wrote, decoded as UTF-8; stdout also as `bytes`): main is called
//    on one instance per page (chalk keeps no state between commands that changes an
//    answer), a fresh instance after a crash.
// 2. Panels. Every live number (span.chalk-live) and every chalk command shown in the
//    text (code.chalk-cmd, pre.chalk-cmd) is a button (click, Enter or Space) that
//    opens a panel under its paragraph: the command's words, each --flag as a field,
//    a field for more flags, "Run" (or Enter in a field), the table chalk prints and
//    its --json output, and the presets (`chalk list models`, `chalk list hw`). For a
//    live number, the panel also shows its key's value in the new output.
// 3. Review cards. Each div.card hides its answer behind "Show answer", then offers
//    "Again" (due again in 10 minutes) and "Good" (the interval grows: 1 day, then
//    x2.5). The schedule is kept in localStorage under "chalk-cards" (id -> {due_ms,
//    interval_days, reps}); each chapter's "Review cards" heading says how many are due.
// 4. Practice problems. A problem whose key is in the page (div.problem with
//    data-answer-json: the instructor edition, seed "book") gets an answer field and
//    "Check", graded by the page's `chalk check-answers` itself; the key on request.
//    In both editions (book/web/chalk-draw.js) a form before the first problem takes a seed (kept in
//    localStorage "chalk-seed") and draws every problem of the page with it, from the
//    template problems.lua leaves in each div.problem (data-problem-spec): the same
//    generator, the answers and the question's numbers run by the calculator in the
//    page, so the numbers and the key are `make problems SEED=...`'s; each drawn
//    problem (div.problem-drawn) has its answer field, and its key on request.
// 5. Figures that move. Each plot (figure.chalk-plot with its spec inlined by
//    assemble.js) gets a slider per control: the spec's (the chapter's move=), else its
//    command's scalar numeric flags (at most two; not --seed or --trials), over a
//    factor 8 each way (whole numbers stay whole, powers of two powers of two; a value
//    chalk refuses shows chalk's error line). Moving one reruns the sweep with --csv in the page and draws
//    it as an SVG in place of the printed one, on axes that span the printed numbers
//    (read from the figure's table) too, so a change shows as a move. A sweep over a
//    list of points (--depth 1,2,4,...) runs point by point, with one trial where it
//    has --trials, for 40 ms (and 3 points at least), and what is done is drawn at once,
//    the status saying so;
//    a second calculator (its own worker, ended when the figure moves again) finishes
//    it in the background and redraws: the rest with one trial, then the whole sweep
//    as printed (data-redraw-ms: the first drawing's time; data-redraws: the moves
//    drawn; data-refined: set when the full sweep is drawn).
//    "Reset" shows the printed figure again. The data table keeps the printed numbers.
'use strict';

(function () {
  const SCRIPT = document.currentScript;
  const ASSETS = SCRIPT ? SCRIPT.src.replace(/[^/]*$/, '') : 'assets/';

  // ---- the calculator ------------------------------------------------------------------

  // Splits a command line on blanks; "double quotes" group words (util.split_args).
  function splitArgs(s) {
    const args = [];
    let cur = '', quoted = false, any = false;
    for (const ch of s) {
      if (ch === '"') { quoted = !quoted; any = true; }
      else if (/\s/.test(ch) && !quoted) { if (any) { args.push(cur); cur = ''; any = false; } }
      else { cur += ch; any = true; }
    }
    if (quoted) throw new Error('unbalanced " in: ' + s);
    if (any) args.push(cur);
    return args;
  }

  // The calculator runs in a Web Worker, so a slow command (chapter 6's avalanche
  // figure: seconds of Monte Carlo) never freezes the page. A page opened from file://
  // may start a worker only from a blob: URL, which may load no file, so
  // assets/chalk-wasm.js (book/web/wasm.sh) holds the compiled calculator as text,
  // window.ChalkWasmSource (emcc's script) and window.ChalkWasmGzip (the WebAssembly,
  // gzipped, in base64), and the worker is that text, the gzip as a constant, then
  // workerMain.
  let loading = null; // Promise of the worker's source text
  function source() {
    const text = () => window.ChalkWasmSource + '\n;var ChalkWasmGzip = ' + JSON.stringify(window.ChalkWasmGzip) + ';\n';
    const loaded = () => typeof window.ChalkWasmSource === 'string' && typeof window.ChalkWasmGzip === 'string';
    if (!loading) {
      loading = new Promise((resolve, reject) => {
        if (loaded()) return resolve(text());
        const s = document.createElement('script');
        s.src = ASSETS + 'chalk-wasm.js';
        s.onload = () => (loaded() ? resolve(text())
          : reject(new Error('chalk-wasm.js defined no ChalkWasmSource and ChalkWasmGzip')));
        s.onerror = () => { loading = null; reject(new Error('could not load ' + s.src)); };
        document.head.appendChild(s);
      });
    }
    return loading;
  }

  // The worker's code (run as text in the worker, after the calculator's, which
  // defines ChalkWasm and ChalkWasmGzip): one instance, its WebAssembly gunzipped by
  // the browser (DecompressionStream); per message {args, files}, the files (path ->
  // text) written to its memory file system, then main called with args and stdout
  // flushed; replies {status, out, err} (the bytes chalk wrote). A crashed instance
  // is not reused.
  function workerMain() {
    let instance = null;
    const out = [], err = [];
    self.onmessage = async (e) => {
      const { args, files } = e.data;
      let status;
      try {
        if (!instance) {
          const gz = Uint8Array.from(atob(ChalkWasmGzip), (c) => c.charCodeAt(0));
          instance = new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()
            .then((wasm) => ChalkWasm({ wasmBinary: new Uint8Array(wasm), stdin: () => null, print: () => {}, printErr: () => {},
              stdout: (c) => { if (c !== null) out.push(c & 255); },
              stderr: (c) => { if (c !== null) err.push(c & 255); } }));
        }
        const m = await instance;
        out.length = 0; err.length = 0;
        for (const [name, text] of Object.entries(files)) m.FS.writeFile(name, text);
        status = m.callMain(args);
        m._fflush(0);
      } catch (x) {
        instance = null;
        status = x && typeof x.status === 'number' ? x.status : 134;
        for (const b of new TextEncoder().encode('chalk (in the page): ' + (x && x.message || x) + '\n')) err.push(b);
      }
      self.postMessage({ status, out: Uint8Array.from(out), err: Uint8Array.from(err) });
    };
  }

  let workerUrl = null; // Promise of the blob: URL of the worker's script
  function newWorker() {
    if (!workerUrl) {
      workerUrl = source().then((text) => URL.createObjectURL(
        new Blob([text, '\n;(', workerMain.toString(), ')();\n'], { type: 'text/javascript' })));
      workerUrl.catch(() => { workerUrl = null; });
    }
    return workerUrl.then((url) => new Worker(url));
  }

  const decoder = new TextDecoder('utf-8');
  // A calculator in a worker that runs one command at a time, in order. Two of them:
  // `run`'s, for everything a reader asks for, and the figures' background one, which
  // finishes a slow sweep after its first look is drawn (below) and never delays the
  // first: a command it no longer needs (a figure moved again) is stopped by ending
  // that worker (`stop`); the next command starts another.
  function calculator() {
    let worker = null, queue = Promise.resolve(), current = null;
    // Runs `chalk ARGS`, FILES (path -> text) written first: a Promise of
    // {status, bytes (stdout's), stdout, stderr}, or {stopped: true}.
    function exec(args, files, token) {
      const job = queue.then(async () => {
        if (token && token.stale()) return { stopped: true };
        if (!worker) { worker = newWorker(); worker.catch(() => { worker = null; }); }
        const w = await worker;
        const r = await new Promise((resolve) => {
          current = { token, resolve };
          w.onmessage = (e) => resolve(e.data);
          w.onerror = (e) => { // (the worker itself failed: the next command starts another)
            e.preventDefault();
            worker = null;
            resolve({ status: 134, out: new Uint8Array(0), err: new TextEncoder().encode('chalk (in the page): ' + e.message + '\n') });
          };
          w.postMessage({ args: args.slice(), files: files || {} });
        });
        current = null;
        if (r.stopped) return r;
        return { status: r.status, bytes: r.out, stdout: decoder.decode(r.out), stderr: decoder.decode(r.err) };
      });
      queue = job.catch(() => {});
      return job;
    }
    // Ends the command running for OWNER, if any (its worker with it).
    function stop(owner) {
      if (!current || !current.token || current.token.owner !== owner || !worker) return;
      const w = worker, c = current;
      worker = null; current = null;
      w.then((x) => x.terminate());
      c.resolve({ stopped: true });
    }
    return { exec, stop };
  }
  const front = calculator(), back = calculator();
  const run = (args, files) => front.exec(args, files);

  // ---- panels ------------------------------------------------------------------------

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
    }
    for (const k of kids) if (k) e.append(k);
    return e;
  }

  // "decode --model m --batch 4 --json" -> {words: ["decode"], flags: [["--model","m"], ["--batch","4"], ["--json", null]]}
  function parse(args) {
    const words = [], flags = [];
    let i = 0;
    while (i < args.length && !args[i].startsWith('--')) words.push(args[i++]);
    while (i < args.length) {
      const f = args[i++];
      if (i < args.length && !args[i].startsWith('--')) flags.push([f, args[i++]]); else flags.push([f, null]);
    }
    return { words, flags };
  }

  function jsonValue(text, key) {
    try {
      let v = JSON.parse(text);
      if (Array.isArray(v)) v = v[0];
      return v && key in v ? v[key] : undefined;
    } catch (e) { return undefined; }
  }

  let panelCount = 0;
  function openPanel(hook) {
    if (hook._panel) { // a second press closes it
      hook._panel.remove(); hook._panel = null; hook.setAttribute('aria-expanded', 'false'); return;
    }
    const args = splitArgs(hook.dataset.chalk);
    const { words, flags } = parse(args);
    const id = 'chalk-panel-' + (++panelCount);
    const fields = el('div', { class: 'chalk-flags' });
    const inputs = [];
    for (const [flag, value] of flags) {
      const input = el('input', { type: 'text', value: value === null ? '' : value, 'aria-label': flag, size: Math.max(6, (value || '').length + 2) });
      if (value === null) { input.disabled = true; input.placeholder = '(no value)'; }
      inputs.push([flag, input, value === null]);
      fields.append(el('label', { class: 'chalk-flag' }, el('code', { text: flag }), input));
    }
    const more = el('input', { type: 'text', value: '', 'aria-label': 'more flags', placeholder: 'more flags, e.g. --digits 6', size: 24 });
    fields.append(el('label', { class: 'chalk-flag' }, el('span', { text: 'more: ' }), more));
    const line = el('code', { class: 'chalk-line' });
    const runButton = el('button', { type: 'button', class: 'chalk-run', text: 'Run' });
    const answer = el('p', { class: 'chalk-answer', 'aria-live': 'polite' });
    const table = el('pre', { class: 'chalk-table' });
    const json = el('pre', { class: 'chalk-json' });
    const presets = el('pre', { class: 'chalk-presets' });
    const presetsBox = el('details', { class: 'chalk-presets-box' }, el('summary', { text: 'Presets (chalk list models, chalk list hw)' }), presets);
    presetsBox.addEventListener('toggle', async () => {
      if (!presetsBox.open || presets.textContent) return;
      const m = await run(['list', 'models']), h = await run(['list', 'hw']);
      presets.textContent = m.stdout + '\n' + h.stdout + m.stderr + h.stderr;
    }, { once: false });
    const close = el('button', { type: 'button', class: 'chalk-close', text: 'Close' });
    const panel = el('div', { class: 'chalk-panel', id, role: 'region', 'aria-label': 'chalk ' + hook.dataset.chalk },
      el('p', { class: 'chalk-cmdline' }, el('code', { text: 'chalk ' + words.join(' ') })),
      fields, el('p', {}, runButton, ' ', close, ' ', line), answer,
      el('details', { class: 'chalk-table-box', open: '' }, el('summary', { text: 'Table' }), table),
      el('details', { class: 'chalk-json-box' }, el('summary', { text: 'JSON (--json)' }), json),
      presetsBox);

    function current() {
      const out = words.slice();
      for (const [flag, input, bare] of inputs) {
        if (bare) out.push(flag);
        else if (input.value.trim() !== '') out.push(flag, ...splitArgs(input.value.trim()));
      }
      if (more.value.trim()) out.push(...splitArgs(more.value.trim()));
      return out;
    }
    async function rerun() {
      let a;
      try { a = current(); } catch (e) { answer.textContent = e.message; return; }
      line.textContent = 'chalk ' + a.join(' ');
      panel.setAttribute('aria-busy', 'true');
      answer.textContent = 'running ...';
      // the table as written; the JSON without the command's own output mode
      const plain = a.filter((x) => x !== '--json' && x !== '--csv');
      const t = await run(a), j = await run(plain.concat('--json'));
      table.textContent = t.stdout + t.stderr;
      json.textContent = j.stdout + j.stderr;
      const key = hook.dataset.key;
      if (key) {
        const v = jsonValue(j.stdout, key);
        answer.textContent = v === undefined ? key + ': not in the output' + (j.status ? ' (chalk exited with ' + j.status + ')' : '')
          : key + ' = ' + (typeof v === 'number' ? v.toPrecision(Math.min(17, Math.max(1, +(hook.dataset.digits || 6)))) : JSON.stringify(v))
            + (hook.dataset.unit ? ' (the page shows it in ' + hook.dataset.unit + (hook.dataset.scale ? ', x ' + hook.dataset.scale : '') + ')'
              : hook.dataset.scale ? ' (the page shows it x ' + hook.dataset.scale + ')' : '');
      } else {
        answer.textContent = t.status === 0 ? 'exit status 0' : 'exit status ' + t.status;
      }
      panel.removeAttribute('aria-busy');
      panel.dataset.ran = String((+panel.dataset.ran || 0) + 1);
    }
    runButton.addEventListener('click', rerun);
    for (const i of [...inputs.map((x) => x[1]), more]) i.addEventListener('keydown', (e) => { if (e.key === 'Enter') rerun(); });
    close.addEventListener('click', () => { openPanel(hook); hook.focus(); });
    const block = hook.closest('p, li, pre, td, th, dd, figure, div.chalk-box') || hook;
    (block.tagName === 'TD' || block.tagName === 'TH' ? block.closest('table') : block).after(panel);
    hook._panel = panel;
    hook.setAttribute('aria-expanded', 'true');
    hook.setAttribute('aria-controls', id);
    rerun();
    return panel;
  }

  function attachPanels() {
    for (const hook of document.querySelectorAll('.chalk-live[data-chalk], .chalk-cmd[data-chalk]')) {
      hook.setAttribute('role', 'button');
      hook.setAttribute('tabindex', '0');
      hook.setAttribute('aria-expanded', 'false');
      hook.title = 'chalk ' + hook.dataset.chalk + ' (open to rerun it)';
      hook.classList.add('chalk-hook');
      hook.addEventListener('click', (e) => { if (!window.getSelection().toString()) { e.preventDefault(); openPanel(hook); } });
      hook.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); openPanel(hook); }
      });
    }
  }

  // ---- review cards ------------------------------------------------------------------

  const STORE = 'chalk-cards';
  const MINUTE_MS = 60 * 1000, DAY_MS = 24 * 60 * MINUTE_MS;
  function loadSchedule() {
    try { return JSON.parse(localStorage.getItem(STORE) || '{}') || {}; } catch (e) { return {}; }
  }
  function saveSchedule(s) {
    try { localStorage.setItem(STORE, JSON.stringify(s)); } catch (e) { /* private mode: no schedule kept */ }
  }
  // the next state of a card after a grade (pure: now_ms given)
  function review(state, grade, nowMs) {
    const s = state || { interval_days: 0, reps: 0 };
    if (grade === 'again') return { interval_days: 0, reps: 0, due_ms: nowMs + 10 * MINUTE_MS };
    const interval = s.interval_days >= 1 ? s.interval_days * 2.5 : 1;
    return { interval_days: interval, reps: s.reps + 1, due_ms: nowMs + interval * DAY_MS };
  }
  function describe(state, nowMs) {
    if (!state) return 'new';
    if (state.due_ms <= nowMs) return 'due now';
    const min = Math.round((state.due_ms - nowMs) / MINUTE_MS);
    if (min < 60 * 24) return 'next review in ' + Math.max(1, min) + ' min';
    const days = Math.round((state.due_ms - nowMs) / DAY_MS);
    return 'next review in ' + days + (days === 1 ? ' day' : ' days');
  }

  function attachCards() {
    const cards = [...document.querySelectorAll('div.card[id]')];
    if (!cards.length) return;
    const counters = [];
    function recount() {
      const s = loadSchedule(), now = Date.now();
      for (const { heading, list } of counters) {
        const due = list.filter((c) => !s[c.id] || s[c.id].due_ms <= now).length;
        heading.textContent = due + ' of ' + list.length + ' cards due for review on this page';
      }
    }
    const head = document.querySelector('h2.review-cards');
    if (head) {
      const note = el('p', { class: 'card-due', 'aria-live': 'polite' });
      head.after(note);
      counters.push({ heading: note, list: cards });
    }
    for (const card of cards) {
      const a = card.querySelector('.card-a');
      if (!a) continue;
      a.hidden = true;
      const status = el('span', { class: 'card-status' });
      const show = el('button', { type: 'button', class: 'card-show', text: 'Show answer' });
      const again = el('button', { type: 'button', class: 'card-again', text: 'Again' });
      const good = el('button', { type: 'button', class: 'card-good', text: 'Good' });
      again.hidden = good.hidden = true;
      const bar = el('p', { class: 'card-bar' }, show, ' ', again, ' ', good, ' ', status);
      card.append(bar);
      const paint = () => { status.textContent = describe(loadSchedule()[card.id], Date.now()); };
      show.addEventListener('click', () => { a.hidden = false; show.hidden = true; again.hidden = good.hidden = false; again.focus(); });
      for (const [b, grade] of [[again, 'again'], [good, 'good']]) {
        b.addEventListener('click', () => {
          const s = loadSchedule();
          s[card.id] = review(s[card.id], grade, Date.now());
          saveSchedule(s);
          a.hidden = true; show.hidden = false; again.hidden = good.hidden = true;
          paint(); recount(); show.focus();
        });
      }
      paint();
    }
    recount();
  }

  // ---- practice problems: the drawn instance's answer checked by check-answers -----------

  // Grades ANSWER for problem ID against KEY (its key entry, {"value", "unit",
  // "tolerance", "shown"}) with the calculator's own `chalk check-answers` (the same
  // rules and tolerance as `make problems`' key): files in the page's memory only.
  async function check(id, key, answer) {
    const line = String(answer).replace(/[\r\n]+/g, ' ').trim();
    const r = await run(['check-answers', '/key.json', '/answers.txt'],
      { '/key.json': JSON.stringify({ [id]: key }), '/answers.txt': line === '' ? '' : id + ' ' + line + '\n' });
    return { right: r.status === 0, status: r.status, output: r.stdout + r.stderr };
  }

  // An answer field for problem ID graded against KEY: "Check" (or Enter) runs
  // check-answers, shows its verdict and sets OWNER's data-checked (right or wrong).
  // Returns [the field's paragraph, the verdict].
  function answerField(owner, id, key, label) {
    const input = el('input', { type: 'text', class: 'problem-input', 'aria-label': label,
      placeholder: key.unit && key.unit !== 'choice' ? 'in ' + key.unit : 'your answer', size: 14 });
    const button = el('button', { type: 'button', class: 'problem-check', text: 'Check' });
    const verdict = el('pre', { class: 'problem-verdict', 'aria-live': 'polite' });
    const go = async () => {
      verdict.textContent = 'checking ...';
      const r = await check(id, key, input.value);
      verdict.textContent = (r.right ? 'Right. ' : r.status === 1 ? 'Not yet. ' : '') + r.output;
      owner.dataset.checked = r.right ? 'right' : 'wrong';
    };
    button.addEventListener('click', go);
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') go(); });
    return [el('p', { class: 'problem-answer' }, el('label', { text: 'Your answer: ' }, input), ' ', button), verdict];
  }

  // Each problem with its key in the page (data-answer-json: the instructor edition)
  // gets an answer field, "Check" (or Enter) and the key behind "Show the key".
  function attachProblems() {
    for (const p of document.querySelectorAll('div.problem[id][data-answer-json]')) {
      let key;
      try { key = JSON.parse(p.dataset.answerJson); } catch (e) { continue; }
      const id = p.id.replace(/^prob-/, '');
      const shown = el('details', { class: 'problem-key' }, el('summary', { text: 'Show the key' }),
        el('p', { text: (key.shown || String(key.value)) + (key.unit ? ' ' + key.unit : '') +
          (key.tolerance ? ' (within ' + key.tolerance * 100 + '%)' : ' (exactly)') }));
      p.append(...answerField(p, id, key, 'your answer to ' + id), shown);
    }
  }

  // ---- figures that move ----------------------------------------------------------------

  const SVGNS = 'http://www.w3.org/2000/svg';
  const NUMBER = /^-?[0-9]*\.?[0-9]+(e[+-]?[0-9]+)?$/i;
  // flags a reader may not usefully slide: a seed, a sample count, output settings
  const FIXED = new Set(['--seed', '--trials', '--digits', '--columns']);

  // The controls of a plot: its spec's (the chapter's move= attribute), else each
  // scalar numeric flag of its command (not the swept one), at most two, over
  // [value / 8, value x 8] on a log scale, whole numbers kept whole.
  function controlsOf(spec) {
    if (spec.controls && spec.controls.length) return spec.controls.map((c) => ({ ...c, int: Number.isInteger(c.value) }));
    const args = splitArgs(spec.command), out = [];
    for (let i = 0; i + 1 < args.length && out.length < 2; i++) {
      if (!args[i].startsWith('--') || FIXED.has(args[i]) || !NUMBER.test(args[i + 1])) continue;
      const v = Number(args[i + 1]);
      if (!(v > 0)) continue;
      // (a power of two stays one: widths, stages and racks that must divide evenly)
      const pow2 = Number.isInteger(v) && v >= 2 && (v & (v - 1)) === 0;
      // (and moves over [v/4, 2v], at least 1: a larger width or rack count soon exceeds chalk's limits)
      out.push({ flag: args[i], value: v, min: pow2 ? Math.max(1, v / 4) : v / 8, max: pow2 ? 2 * v : v * 8, log: true, int: Number.isInteger(v), pow2 });
    }
    return out;
  }

  // (how long a redraw computes before it draws what it has: see redraw below)
  const FIRST_MS = 40;
  // (and at least this many points: one point can look the same for every value of a
  // control, as the avalanche of one tanh layer does for every gain)
  const MIN_POINTS = 3;
  // a list of plain numbers (--depth 1,2,4,8): a sweep point by point; a list with a
  // range in it (1,200:12000:60) runs as one command
  const POINTS = /^-?[0-9.]+(e[+-]?[0-9]+)?(,-?[0-9.]+(e[+-]?[0-9]+)?)+$/i;

  // The printed figure's numbers, as rows of the spec's keys, from the figure's table
  // (book/filters/plot.lua: x, then each series, in the axes' units, as printed):
  // the redrawn figure's axes span them too, so a change shows as a move.
  function printedRows(fig, spec) {
    const num = (t) => {
      const m = t.replace(/[,\s]/g, '').replace(/[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]/g, (c) => '-0123456789'['⁻⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)])
        .match(/^(-?[0-9.]+)(?:×10(-?[0-9]+))?/);
      return m ? Number(m[1]) * 10 ** Number(m[2] || 0) : NaN;
    };
    const xd = (spec.x && spec.x.divide_by) || 1, yd = (spec.y && spec.y.divide_by) || 1;
    return [...fig.querySelectorAll('table.figure-numbers tbody tr')].map((tr) => {
      const cells = [...tr.cells].map((c) => num(c.textContent));
      const row = { [spec.x.key]: cells[0] * xd };
      spec.series.forEach((s, k) => { row[s.key] = cells[k + 1] * yd; });
      return row;
    });
  }

  function parseCsv(text) {
    const lines = text.trim().split('\n');
    const head = lines.shift().split(',');
    return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [head[i], v === '' ? NaN : Number(v)])));
  }

  const plain = (label) => String(label || '').replace(/\\(text|mathrm|mathit)\b/g, '').replace(/[${}\\]/g, '');

  // Draws ROWS as an SVG line plot: x and each series of SPEC, its own axes.
  function drawPlot(spec, rows, base) {
    const W = 640, H = 360, L = 70, R = 16, T = 14, B = 44;
    const xd = (spec.x && spec.x.divide_by) || 1, yd = (spec.y && spec.y.divide_by) || 1;
    const xs = rows.map((r) => r[spec.x.key] / xd);
    const series = spec.series.map((s) => ({ ...s, ys: rows.map((r) => r[s.key] / yd) }));
    const ok = (v, log) => Number.isFinite(v) && (!log || v > 0);
    const range = (vals, log) => {
      const v = vals.filter((x) => ok(x, log));
      let lo = Math.min(...v), hi = Math.max(...v);
      if (!(lo < hi)) { lo = log ? lo / 2 : lo - 1; hi = log ? hi * 2 : hi + 1; }
      return [lo, hi];
    };
    const xl = !!spec.x.log, yl = !!(spec.y && spec.y.log);
    // (the axes span the printed figure's numbers, BASE, and the new ones: a change shows as a move)
    const bx = (base || []).map((r) => r[spec.x.key] / xd), by = (base || []).flatMap((r) => spec.series.map((s) => r[s.key] / yd));
    const [x0, x1] = range(xs.concat(bx), xl), [y0, y1] = range(series.flatMap((s) => s.ys).concat(by), yl);
    const f = (v, lo, hi, log) => (log ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo));
    const px = (v) => L + f(v, x0, x1, xl) * (W - L - R), py = (v) => H - B - f(v, y0, y1, yl) * (H - T - B);
    const svg = document.createElementNS(SVGNS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'chalk-moved');
    svg.setAttribute('role', 'img');
    const add = (tag, attrs, text) => {
      const e = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.appendChild(e);
      return e;
    };
    const ticks = (lo, hi, log) => {
      if (log) {
        const out = [];
        for (let e = Math.ceil(Math.log10(lo) - 1e-9); e <= Math.floor(Math.log10(hi) + 1e-9); e++) out.push(10 ** e);
        return out.length >= 2 ? out : [lo, hi];
      }
      const step = 10 ** Math.floor(Math.log10((hi - lo) / 4)), n = [1, 2, 5, 10].find((m) => (hi - lo) / (m * step) <= 6) * step;
      const out = [];
      for (let v = Math.ceil(lo / n) * n; v <= hi + 1e-9 * n; v += n) out.push(v);
      return out;
    };
    const fmt = (v) => (v !== 0 && (Math.abs(v) >= 1e6 || Math.abs(v) < 1e-2) ? v.toExponential(Math.abs(v / 10 ** Math.floor(Math.log10(Math.abs(v))) - 1) < 1e-9 ? 0 : 1)
      : v.toLocaleString('en-US', { maximumSignificantDigits: 3 }));
    add('rect', { x: L, y: T, width: W - L - R, height: H - T - B, fill: '#fff', stroke: '#555' });
    for (const t of ticks(x0, x1, xl)) {
      add('line', { x1: px(t), x2: px(t), y1: T, y2: H - B, stroke: '#ddd' });
      add('text', { x: px(t), y: H - B + 16, 'text-anchor': 'middle', 'font-size': 12, fill: '#222' }, fmt(t));
    }
    for (const t of ticks(y0, y1, yl)) {
      add('line', { x1: L, x2: W - R, y1: py(t), y2: py(t), stroke: '#ddd' });
      add('text', { x: L - 6, y: py(t) + 4, 'text-anchor': 'end', 'font-size': 12, fill: '#222' }, fmt(t));
    }
    add('text', { x: (L + W - R) / 2, y: H - B + 36, 'text-anchor': 'middle', 'font-size': 13, fill: '#222' }, plain(spec.x.label));
    add('text', { x: 14, y: (T + H - B) / 2, 'text-anchor': 'middle', 'font-size': 13, fill: '#222',
      transform: `rotate(-90 14 ${(T + H - B) / 2})` }, plain(spec.y && spec.y.label));
    series.forEach((s, k) => {
      const pts = xs.map((x, i) => [x, s.ys[i]]).filter(([x, y]) => ok(x, xl) && ok(y, yl)).map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`);
      add('polyline', { points: pts.join(' '), fill: 'none', stroke: s.colour || '#000', 'stroke-width': s.role === 'result' ? 2.5 : 1.5 });
    });
    svg.setAttribute('aria-label', plain(spec.y && spec.y.label) + ' against ' + plain(spec.x.label) + ', redrawn in the page');
    // the key under the plot: a stroke of each series' colour, its label in the text colour
    const key = el('p', { class: 'chalk-legend' });
    for (const s of series) {
      key.append(el('span', { class: 'chalk-key' }, el('span', { class: 'chalk-swatch', style: `border-top-color: ${s.colour || '#000'}` }), plain(s.label)));
    }
    const wrap = el('div', { class: 'chalk-moved-plot' });
    wrap.append(svg, key);
    return wrap;
  }

  function attachFigures() {
    for (const fig of document.querySelectorAll('figure.chalk-plot')) {
      const tag = fig.querySelector('script.chalk-plot-spec');
      if (!tag) continue;
      let spec;
      try { spec = JSON.parse(tag.textContent); } catch (e) { continue; }
      const controls = controlsOf(spec);
      if (!controls.length || !spec.command || !spec.x || !spec.series) continue;
      const img = fig.querySelector('img, svg');
      const box = el('div', { class: 'chalk-move' });
      const status = el('span', { class: 'chalk-move-status', 'aria-live': 'polite' });
      const values = controls.map((c) => c.value);
      const sliders = controls.map((c, k) => {
        const pos = (v) => Math.round(1000 * (c.log ? Math.log(v / c.min) / Math.log(c.max / c.min) : (v - c.min) / (c.max - c.min)));
        const val = (p) => { const v = c.log ? c.min * (c.max / c.min) ** (p / 1000) : c.min + (c.max - c.min) * p / 1000; return c.pow2 ? Math.max(1, 2 ** Math.round(Math.log2(v))) : c.int ? Math.max(1, Math.round(+v.toPrecision(3))) : +v.toPrecision(3); };
        const out = el('output', { text: String(c.value) });
        const input = el('input', { type: 'range', min: 0, max: 1000, step: 1, value: pos(c.value), 'aria-label': c.flag + ' for this figure' });
        input.addEventListener('input', () => { values[k] = val(+input.value); out.textContent = values[k].toLocaleString('en-US'); redraw(); });
        box.append(el('label', { class: 'chalk-flag' }, el('code', { text: c.flag }), ' ', input, ' ', out));
        return input;
      });
      const reset = el('button', { type: 'button', text: 'Reset' });
      box.append(reset, ' ', status);
      let drawn = null, base = null, gen = 0;
      const token = (g) => ({ owner: fig, stale: () => g !== gen });
      reset.addEventListener('click', () => {
        gen++;
        back.stop(fig);
        controls.forEach((c, k) => { values[k] = c.value; });
        sliders.forEach((s, k) => { s.value = String(Math.round(1000 * (controls[k].log ? Math.log(controls[k].value / controls[k].min) / Math.log(controls[k].max / controls[k].min) : 0.5))); s.nextSibling.nextSibling.textContent = String(controls[k].value); });
        if (drawn) { drawn.remove(); drawn = null; }
        if (img) img.style.display = '';
        status.textContent = 'as printed';
      });
      const show = (rows) => {
        const svg = drawPlot(spec, rows, base);
        if (drawn) drawn.replaceWith(svg); else (img || box).after(svg);
        drawn = svg;
        if (img) img.style.display = 'none';
      };
      // A redraw shows the moved figure within about 100 ms (issue 22, item 4), honestly:
      // a sweep over a list of points (--depth 1,2,4,...) runs point by point, cheapest
      // (first) first, for FIRST_MS (MIN_POINTS at least), with one trial where the command has
      // --trials; what is done by then is drawn at once, and the status says so
      // ("1 of 16 trials, 5 of 12 points; refining"). The background calculator then
      // runs the rest: the remaining points with one trial, drawn, and the whole sweep
      // as printed (one command: the same bytes as natively), drawn when it is done.
      // A sweep over a range (8e10:1e12:41) is one command, as fast as it is.
      async function redraw() {
        const g = ++gen;
        back.stop(fig);
        const t0 = performance.now();
        const said = controls.map((c, k) => c.flag + ' ' + values[k]).join(', ');
        status.textContent = said + ' (computing ...)';
        const args = splitArgs(spec.command);
        controls.forEach((c, k) => { const i = args.indexOf(c.flag); if (i >= 0) args[i + 1] = String(values[k]); });
        if (!base) base = printedRows(fig, spec);
        const li = args.findIndex((a, i) => i > 0 && args[i - 1].startsWith('--') && POINTS.test(a));
        const ti = args.indexOf('--trials'), trials = ti >= 0 ? Number(args[ti + 1]) : 1;
        const quick = args.slice();
        if (trials > 1) quick[ti + 1] = '1';
        const points = li >= 0 ? args[li].split(',') : [];
        const rows = [];
        let failed = null;
        if (li < 0) {
          const r = await run(args.concat('--csv'));
          if (g !== gen) return;
          if (r.status === 0) rows.push(...parseCsv(r.stdout)); else failed = r;
        } else {
          for (const v of points) {
            const a = quick.slice();
            a[li] = v;
            const r = await run(a.concat('--csv'));
            if (g !== gen) return;
            if (r.status !== 0) { failed = r; break; }
            rows.push(...parseCsv(r.stdout));
            if (performance.now() - t0 > FIRST_MS && rows.length >= MIN_POINTS) break;
          }
        }
        if (failed) { status.textContent = failed.stderr.trim(); return; }
        show(rows);
        const ms = performance.now() - t0;
        fig.dataset.redrawMs = ms.toFixed(1);
        fig.dataset.redraws = String((+fig.dataset.redraws || 0) + 1);
        const done = li < 0 || (rows.length === points.length && trials <= 1);
        if (done) {
          fig.dataset.refined = String(g);
          status.textContent = said + ` (redrawn in ${ms.toFixed(0)} ms)`;
          return;
        }
        const first = trials > 1 ? `1 of ${trials} trials, ` : '';
        status.textContent = said + ` (${first}${rows.length} of ${points.length} points in ${ms.toFixed(0)} ms; refining ...)`;
        // the rest in the background: the remaining points with one trial, then the whole sweep
        if (trials > 1 && rows.length < points.length) {
          const a = quick.slice();
          a[li] = points.slice(rows.length).join(',');
          const r = await back.exec(a.concat('--csv'), {}, token(g));
          if (g !== gen || r.stopped) return;
          if (r.status === 0) {
            rows.push(...parseCsv(r.stdout));
            show(rows);
            status.textContent = said + ` (1 of ${trials} trials, every point in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
              `refining with all ${trials} ...)`;
          }
        }
        const r = await back.exec(args.concat('--csv'), {}, token(g));
        if (g !== gen || r.stopped) return;
        if (r.status !== 0) { status.textContent = r.stderr.trim(); return; }
        show(parseCsv(r.stdout));
        fig.dataset.refined = String(g);
        status.textContent = said + ` (first drawn in ${ms.toFixed(0)} ms; ` +
          `${trials > 1 ? `all ${trials} trials, ` : ''}every point in ${((performance.now() - t0) / 1000).toFixed(1)} s)`;
      }
      fig.insertBefore(box, fig.querySelector('figcaption'));
    }
  }

  // (chalk-draw.js, loaded after this file, adds drawProblem and the seed form)
  window.Chalk = { run, splitArgs, openPanel, review, check, controlsOf, el, answerField };
  function start() { attachPanels(); attachCards(); attachProblems(); attachFigures(); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
