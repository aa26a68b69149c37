// chalk-draw.js -- the web edition's practice problems drawn by seed: loaded by every
// page with `defer` after chalk-web.js (book/web/assemble.js copies both to assets/),
// whose calculator, elements and answer fields it uses (window.Chalk). It adds the
// seed form before a chapter's first problem and window.Chalk.drawProblem.
'use strict';

(function () {
  const { run, splitArgs, el, answerField } = window.Chalk;
  // ---- practice problems drawn by seed (problems.lua's generator, in the page) -----------
  // Each div.problem carries its template (data-problem-spec and a hidden
  // div.problem-template: problems.lua, web_template). A seed draws each template as
  // problems_draw.lua's instance() does: splitmix64 on an FNV-1a hash of "SEED\0ID\0ATTEMPT"
  // (BigInt: the 64-bit wrap-around of Lua's integers), the same rounding of each
  // drawn number, the answer from the calculator (`chalk CMD --json`, KEY), a draw
  // drawn again while its command fails, its answer is null or a require condition
  // does not hold; the numbers printed as util.format prints them. So the page's key
  // is `make problems SEED=...`'s (build/answers-SEED.json), and check-answers grades.

  const MASK64 = (1n << 64n) - 1n;
  function fnv1a(bytes) {
    let h = 0xcbf29ce484222325n;
    for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & MASK64;
    return h;
  }
  // Uniforms in [0, 1) from splitmix64 (Steele, Lea, Flood 2014), seeded by the text's FNV-1a.
  function generator(text) {
    let state = fnv1a(new TextEncoder().encode(text));
    return () => {
      state = (state + 0x9e3779b97f4a7c15n) & MASK64;
      let z = state;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
      z ^= z >> 31n;
      return Number(z >> 11n) / 9007199254740992;
    };
  }
  const pow10 = (k) => Number('1e' + k); // correctly rounded, as glibc's pow(10, k)
  // C's %.0f: ties to even
  function fixed0(v) {
    if (Math.abs(v) >= 1e21) return BigInt(Math.round(v)).toString();
    const t = Math.trunc(v);
    if (Math.abs(v - t) === 0.5) return String(t % 2 === 0 ? t : t + Math.sign(v)).replace(/^-0$/, '0');
    return v.toFixed(0);
  }
  // C's %.Pg
  function fmtG(x, prec) {
    if (x === 0) return '0';
    const [m, e] = x.toExponential(prec - 1).split('e');
    const X = Number(e);
    const strip = (t) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
    if (X < -4 || X >= prec) return strip(m) + 'e' + (X < 0 ? '-' : '+') + String(Math.abs(X)).padStart(2, '0');
    return strip(x.toFixed(prec - 1 - X));
  }
  function roundSig(x, n) { // problems_draw.lua round_sig
    if (x === 0) return 0;
    const f = pow10(Math.floor(Math.log10(Math.abs(x))) - n + 1);
    return Number((Math.floor(x / f + 0.5) * f).toPrecision(n));
  }
  function drawVar(v, u) { // problems_draw.lua draw
    if (v.kind === 'list') return v.items[Math.floor(u() * v.items.length)];
    let x;
    if (v.step) x = v.lo + Math.floor(u() * (Math.floor((v.hi - v.lo) / v.step + 1e-9) + 1)) * v.step;
    else if (v.log) x = Math.exp(Math.log(v.lo) + u() * (Math.log(v.hi) - Math.log(v.lo)));
    else if (v.int) x = v.lo + Math.floor(u() * (v.hi - v.lo + 1));
    else x = v.lo + u() * (v.hi - v.lo);
    x = roundSig(x, v.sig || 3);
    if (v.int) x = Math.floor(x + 0.5);
    return Math.min(Math.max(x, v.lo), v.hi);
  }
  function group(digits) { // util.lua group
    const m = /^(\d+)(.*)$/.exec(digits);
    if (!m || m[1].length <= 3) return digits;
    return m[1].replace(/\B(?=(\d{3})+$)/g, ',') + m[2];
  }
  function sig(x, digits) { // util.sig
    if (x === 0) return '0';
    const neg = x < 0;
    x = Math.abs(x);
    const e = Math.floor(Math.log10(Number(x.toExponential(digits - 1))) + 1e-9);
    let s;
    if (e >= digits - 1) { const step = pow10(e - digits + 1); s = fixed0(Math.floor(x / step + 0.5) * step); }
    else s = x.toFixed(digits - 1 - e).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
    return (neg ? '-' : '') + group(s);
  }
  // util.format: {text} or, for a plain number too large or small, {mant, exp}
  function formatValue(value, unit, digits, scale, units) {
    const u = units[unit || ''];
    const v = value * (scale || 1) / u.div;
    if (!Number.isFinite(v)) throw new Error('not a finite number: ' + v);
    if (u.int) return { text: group(fixed0(v)) };
    const a = Math.abs(v);
    if (!unit && a !== 0 && (a >= 1e9 || a < 1e-3)) {
      let e = Math.floor(Math.log10(a));
      let m = sig(v / pow10(e), digits || 3);
      if (/^-?10$/.test(m)) { m = m.replace('10', '1'); e += 1; }
      return { mant: m, exp: e };
    }
    let s = sig(v, digits || 3);
    if (u.money && /\.\d$/.test(s)) s += '0';
    return { text: (u.prefix || '') + s + (u.suffix || '') };
  }
  // problems_draw.lua number_text: the key's "shown" (no unit; 6.71e11)
  function numberText(value, unit, digits, scale, units) {
    const f = formatValue(value, unit, digits, scale, units);
    if (f.mant !== undefined) return f.mant + 'e' + f.exp;
    let t = f.text;
    const u = units[unit];
    if (u.prefix && t.startsWith(u.prefix)) t = t.slice(u.prefix.length);
    if (u.suffix && t.endsWith(u.suffix)) t = t.slice(0, -u.suffix.length);
    return t;
  }
  const rawNumber = (x) => (typeof x !== 'number' ? String(x) : Number.isInteger(x) && Math.abs(x) < 1e15 ? String(x) : fmtG(x, 10));
  const pretty = (x) => (typeof x !== 'number' ? String(x) : Number.isInteger(x) && Math.abs(x) < 1e15 ? group(fixed0(x)) : sig(x, 6));
  function substitute(text, vals, rawOnly) {
    return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)(:?r?a?w?)\}/g, (whole, name, suffix) =>
      (name === 'chalk' || !(name in vals) ? whole : rawOnly || suffix === ':raw' ? rawNumber(vals[name]) : pretty(vals[name])));
  }
  function lookup(v, key) { // util.lookup
    for (const part of key.split('.').filter(Boolean)) {
      if (v === null || typeof v !== 'object') return undefined;
      v = Array.isArray(v) && /^\d+$/.test(part) ? v[Number(part)] : v[part];
    }
    return v;
  }
  // `chalk CMD --json` in the page: the decoded JSON, or {error}
  async function chalkJson(cmd) {
    const r = await run(splitArgs(cmd).concat('--json'));
    if (r.status !== 0) return { error: `chalk ${cmd} --json failed (exit ${r.status}): ${r.stderr.trim()}` };
    try { return { json: JSON.parse(r.stdout) }; } catch (e) { return { error: `chalk ${cmd} --json: ${e.message}` }; }
  }
  // problems_draw.lua unmet: nil when every condition holds, else why not
  function unmet(spec, json, vals, answer) {
    for (const c of spec.require || []) {
      if (c.flag) {
        const v = lookup(json, c.flag);
        if (v === undefined) throw new Error(`problem ${spec.id}: require "${c.text}": no key ${c.flag}`);
        if (v !== true) return `require "${c.text}" does not hold`;
        continue;
      }
      const term = (t) => {
        let v;
        if ('number' in t) v = t.number;
        else if ('literal' in t) v = t.literal;
        else if (t.answer) v = answer;
        else if (t.var) v = vals[t.var];
        else {
          v = lookup(json, t.key);
          if (v === undefined) throw new Error(`problem ${spec.id}: require "${c.text}": no key ${t.key}`);
          if (v === null) return null;
        }
        return t.factor !== undefined ? t.factor * v : v;
      };
      const a = term(c.lhs), b = term(c.rhs);
      if (a === null || b === null) return `require "${c.text}": null`;
      const holds = { '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b, '==': a === b, '!=': a !== b }[c.op];
      if (!holds) return `require "${c.text}" does not hold`;
    }
    return null;
  }
  // problems_draw.lua instance: {vals, command, attempt, value, number (the key's shown), shownText, key (check-answers' entry)}
  async function drawProblem(spec, seed) {
    let last;
    for (let attempt = 1; attempt <= 100; attempt++) {
      const u = generator(seed + '\0' + spec.id + '\0' + attempt);
      const vals = {};
      for (const v of spec.vars) vals[v.name] = drawVar(v, u);
      const command = substitute(spec.command, vals, true);
      const r = await chalkJson(command);
      let why = r.error, v;
      if (!why) {
        v = lookup(r.json, spec.key);
        if (v === undefined) why = `no key ${spec.key}`;
        else if (v === null) why = `${spec.key} is null`;
        else if (!['number', 'string', 'boolean'].includes(typeof v)) why = `${spec.key} is not a number or a string`;
        else why = unmet(spec, r.json, vals, v);
      }
      if (why) { last = why; continue; }
      const inst = { vals, command, attempt };
      if (typeof v === 'number') {
        inst.value = v * spec.scale / spec.units[spec.unit].div;
        inst.number = numberText(v, spec.unit, spec.digits, spec.scale, spec.units);
        const f = formatValue(v, spec.unit, spec.digits, spec.scale, spec.units);
        inst.shownText = f.text !== undefined ? f.text : f.mant + '\u00d710^' + f.exp;
        inst.key = { value: inst.value, unit: spec.label, tolerance: spec.tol, shown: inst.number };
      } else {
        inst.value = String(v);
        inst.shownText = inst.value;
        inst.key = { value: inst.value, unit: 'choice', tolerance: null };
      }
      return inst;
    }
    throw new Error(`problem ${spec.id}: no draw in 100 gave an answer; the last: ${last}`);
  }
  // The question of an instance: the template's copy with each token replaced
  async function drawnQuestion(p, spec, inst) {
    const texts = {};
    for (let i = 0; i < spec.lives.length; i++) {
      const l = spec.lives[i];
      const cmd = substitute(l.cmd, inst.vals, true);
      const key = substitute(l.key, inst.vals, true); // (problems_draw.lua live: the key may hold a {var} too)
      const r = await chalkJson(cmd);
      const v = r.error ? undefined : lookup(r.json, key);
      if (v === undefined || v === null) throw new Error(`problem ${spec.id}: ${r.error || 'chalk ' + cmd + ': ' + key + ' is null'}`);
      texts['L' + (i + 1)] = typeof v === 'number' ? formatValue(v, l.unit, l.digits, l.scale, spec.units) : { text: String(v) };
    }
    spec.holes.forEach((h, i) => { texts['V' + (i + 1)] = { text: h.raw ? rawNumber(inst.vals[h.name]) : pretty(inst.vals[h.name]) }; });
    const box = p.querySelector('.problem-template').cloneNode(true);
    box.hidden = false;
    box.className = 'problem-question';
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) if (/XCHALK[LV]\d+X/.test(walker.currentNode.data)) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const frag = document.createDocumentFragment();
      node.data.split(/XCHALK([LV]\d+)X/).forEach((part, k) => {
        if (k % 2 === 0) { if (part) frag.append(part); return; }
        const t = texts[part];
        if (!t) frag.append('?');
        else if (t.text !== undefined) frag.append(t.text);
        else { const e = el('span', { class: 'problem-sci' }, t.mant + '\u00d710'); e.append(el('sup', { text: String(t.exp) })); frag.append(e); }
      });
      node.replaceWith(frag);
    }
    return box;
  }

  // A form before the first problem: a seed draws every problem of the page with it,
  // each under the book's instance with an answer field, "Check" and its key on request.
  function attachDraws() {
    const probs = [...document.querySelectorAll('div.problem[id][data-problem-spec]')];
    if (probs.length === 0) return;
    const input = el('input', { type: 'text', class: 'problem-seed-input', 'aria-label': 'seed', placeholder: 'e.g. alice', size: 12 });
    try { input.value = localStorage.getItem('chalk-seed') || ''; } catch (e) { /* storage off */ }
    const button = el('button', { type: 'button', class: 'problem-draw', text: 'Draw' });
    const status = el('span', { class: 'problem-seed-status', 'aria-live': 'polite' });
    const form = el('div', { class: 'problem-seed' },
      el('p', {}, el('strong', { text: 'Your own numbers. ' }),
        'A seed draws every problem below again, with the same numbers and the same key as ',
        el('code', { text: 'make problems SEED=...' }), ' (checked by the calculator in this page, as ',
        el('code', { text: 'chalk check-answers' }), ' checks).'),
      el('p', {}, el('label', { text: 'Seed: ' }, input), ' ', button, ' ', status));
    probs[0].before(form);
    const go = async () => {
      const seed = input.value.trim();
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(seed)) { status.textContent = 'a seed is letters, digits, ".", "_" or "-" (as make problems takes)'; return; }
      try { localStorage.setItem('chalk-seed', seed); } catch (e) { /* storage off */ }
      button.disabled = true;
      delete form.dataset.drawn;
      const t0 = performance.now();
      let n = 0;
      for (const p of probs) {
        status.textContent = `drawing ${++n} of ${probs.length} ...`;
        const old = p.querySelector('.problem-drawn');
        if (old) old.remove();
        let spec, inst, question;
        try {
          spec = JSON.parse(p.dataset.problemSpec);
          inst = await drawProblem(spec, seed);
          question = await drawnQuestion(p, spec, inst);
        } catch (e) { p.append(el('div', { class: 'problem-drawn', 'data-error': e.message }, el('p', { text: e.message }))); continue; }
        p.append(drawnBox(p, spec, seed, inst, question));
      }
      button.disabled = false;
      status.textContent = `seed ${seed}: ${probs.length} problems drawn in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
      form.dataset.drawn = seed;
    };
    button.addEventListener('click', go);
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') go(); });
  }
  function drawnBox(p, spec, seed, inst, question) {
    const id = spec.id, key = inst.key;
    const record = { value: inst.value, unit: key.unit, tolerance: key.tolerance, shown: key.shown,
      command: inst.command, key: spec.key, params: inst.vals };
    const box = el('div', { class: 'problem-drawn', 'data-seed': seed, 'data-key': JSON.stringify(record) });
    const tol = typeof inst.value === 'number' ? (spec.tol > 0 ? ` (within ${sig(spec.tol * 100, 3)}%)` : ' (exactly)') : '';
    const params = spec.vars.map((v) => v.name + '=' + rawNumber(inst.vals[v.name])).join(' ');
    const shown = el('details', { class: 'problem-key' }, el('summary', { text: 'Show the key' }),
      el('p', {}, el('strong', { text: 'Answer: ' }), inst.shownText + tol),
      el('p', {}, 'Computed by (key ', el('code', { text: spec.key }), '): ', el('code', { text: 'build/chalk ' + inst.command + ' --json' })),
      params ? el('p', {}, 'Parameters: ', el('code', { text: params })) : null);
    box.append(el('p', { class: 'problem-seed-label' }, el('strong', { text: 'Seed ' + seed + ':' })), question,
      ...answerField(box, id, key, `your answer to ${id}, seed ${seed}`), shown);
    return box;
  }


  window.Chalk.drawProblem = drawProblem;
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', attachDraws); else attachDraws();
})();
