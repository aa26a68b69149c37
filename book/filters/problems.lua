-- problems.lua -- practice problems: templates with drawn numbers, answers from chalk.
--
-- Consumes (book/problems.md has the full syntax), in a chapter's last section
-- `## Practice problems`:
--     ```{.problem id=ch1-floor stars=1 title="The latency floor"}
--     vars:
--       model: llama3-8b | llama3-70b
--       batch: 16..4096 int log
--     question: |
--       How long does one decode step of `{model}` take at batch {batch}?
--     answer: decode --model {model} --hw h100-sxm --batch {batch} --context 0 -> step_s
--     unit: ms
--     tol: 0.02
--     steps:
--       - The weights take {chalk decode --model {model} --hw h100-sxm --batch 1 --context 0 -> weights_s ms}.
--     ```
-- Numbers are drawn with a seeded generator of our own (splitmix64 on an FNV-1a
-- hash of seed, problem id and attempt), so a seed gives the same numbers on
-- every machine; a draw whose answer command fails or gives null, or that misses
-- a `require:` condition (the template's regime: `answer >= 2`, `{m} >= 2 * {s}`,
-- `fits_hbm`, book/problems.md "The regime"), is drawn again.
-- Every answer and every {chalk ... -> key unit} value is computed by running
-- build/chalk (util.run_chalk, CHALK overrides the path); none is typed.
--
-- Three files: this filter (the modes below: the documents it makes, for LaTeX
-- and HTML, the answer key's JSON, the regime check, the web edition's template),
-- problems_template.lua (a ```{.problem} block read into a template) and
-- problems_draw.lua (an instance of a template drawn with a seed, its answer and
-- texts from chalk), loaded with require from this file's own directory.
--
-- Modes, by the metadata field `problems`:
--   questions  the document becomes the problem set of seed `problems-seed`
--              (questions only, with the unit and id to answer in);
--   answers    the document becomes the answer key (answer, tolerance, worked
--              steps, parameters) and the side file `problems-json` is written:
--              { "ID": {"value", "unit", "tolerance", "shown", "stars", "chapter",
--              "command", "key", "scale", "params"}, ... }, one problem per line,
--              in document order;
--   regime     make test's proof over seeds regime-1 ... regime-N (problems-seeds,
--              default 200): prints each template whose draws are degenerate (0,
--              1 for a whole number, a drawn number itself; unless degenerate-ok:)
--              or that some seed cannot draw, and notes (regime() below);
--   (absent)   the book: each template is printed where it stands as one
--              instance drawn with seed "book"; its answer and steps only in the
--              instructor edition (-M edition=instructor). For HTML each problem
--              is a Div.problem with id prob-ID (the web edition's hook); in the
--              instructor edition its data-answer-json holds the key: {"value",
--              "unit", "tolerance", "shown"}.
-- Chapters: the Nth level-1 header opens chapter N (problem N.K); run pandoc
-- on the chapter files in order. (book/build.sh converts each file alone and says
-- how many chapters came before it: util.context.) In the book, each problem id is
-- recorded (util.record 'ids') for book/build.sh's check that none is used twice.
-- Stops the build on: a template with no id, a duplicate id, bad stars, an
-- unknown key, attribute or placeholder, a malformed range or condition, a
-- condition on a {var} the template lacks or a key the answer's JSON lacks, a
-- missing question or answer, no successful draw in 100 attempts, a failing live
-- value.
--
-- Order: independent of chalk.lua (it runs chalk itself); in the book chain it
-- goes before crossref.lua. Pandoc 2.17 (Lua 5.4 integers for the generator).

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'
local template = require 'problems_template' -- reading a ```{.problem} block
local draw = require 'problems_draw'         -- drawing an instance of it with a seed

local WHO = 'problems.lua'
local parse = template.parse
local instance, raw, unit_name, tex_argument, TRIES =
  draw.instance, draw.raw, draw.unit_name, draw.tex_argument, draw.TRIES

-- ---- JSON of the answer key -------------------------------------------------------

-- JSON text of a number, string or list (keys come in the order given).
local function json_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    local map = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\t'] = '\\t', ['\r'] = '\\r' }
    return map[c] or string.format('\\u%04x', c:byte())
  end) .. '"'
end

local function json_number(x)
  if x == math.floor(x) and math.abs(x) < 1e15 then return string.format('%d', math.floor(x)) end
  return string.format('%.17g', x)
end

-- ---- documents -----------------------------------------------------------------

local function md(text)
  return pandoc.read(text, 'markdown').blocks
end

local function stars_inlines(n)
  local out = {}
  for i = 1, n do
    out[#out + 1] = pandoc.Math('InlineMath', '\\star')
    if i < n then out[#out + 1] = pandoc.Str('') end
  end
  return out
end

-- The title line of a problem: "Problem 1.3 ★★  Title".
local function title_para(label, p)
  local inl = pandoc.List({ pandoc.Strong({ pandoc.Str('Problem ' .. label) }), pandoc.Space() })
  if util.is_latex() then inl:insert(1, pandoc.RawInline('latex', '\\noindent ')) end
  inl:extend(stars_inlines(p.stars))
  if p.title ~= '' then
    inl:insert(pandoc.Space())
    inl:insert(pandoc.Str('\u{2014}'))
    inl:insert(pandoc.Space())
    inl:insert(pandoc.Emph({ pandoc.Str(p.title) }))
  end
  return pandoc.Para(inl)
end

local function answer_line(p, inst)
  local tol = p.tol > 0 and (' (within ' .. util.sig(p.tol * 100, 3) .. '%)') or ' (exactly)'
  if type(inst.value) ~= 'number' then tol = '' end
  return md('**Answer:** ' .. inst.shown .. tol)
end

local function steps_blocks(inst)
  if #inst.steps == 0 then return {} end
  local items = {}
  for i, s in ipairs(inst.steps) do items[i] = md(s) end
  return { pandoc.OrderedList(items) }
end

-- A shell command broken before 76 columns with " \" continuations.
local function wrap_command(cmd)
  local lines, cur = {}, ''
  for w in cmd:gmatch('%S+') do
    if cur ~= '' and #cur + 1 + #w > 74 then
      lines[#lines + 1] = cur .. ' \\'
      cur = '    ' .. w
    else
      cur = cur == '' and w or (cur .. ' ' .. w)
    end
  end
  lines[#lines + 1] = cur
  return table.concat(lines, '\n')
end

local function params_line(p, inst)
  local parts = {}
  for _, name in ipairs(p.order) do
    local v = inst.vals[name]
    parts[#parts + 1] = name .. '=' .. (type(v) == 'number' and raw(v) or v)
  end
  local out = { pandoc.Para({ pandoc.Str('Computed by'), pandoc.Space(), pandoc.Str('(key'), pandoc.Space(),
      pandoc.Code(p.key), pandoc.Str('):') }),
    pandoc.CodeBlock(wrap_command('build/chalk ' .. inst.command .. ' --json')) }
  if #parts > 0 then
    out[#out + 1] = pandoc.Para({ pandoc.Str('Parameters:'), pandoc.Space(), pandoc.Code(table.concat(parts, ' ')) })
  end
  return out
end

-- The chapters and their problems, in document order.
local function collect(doc)
  local chapters, cur = {}, nil
  local ids = {}
  local names = {}
  for _, f in ipairs(PANDOC_STATE.input_files or {}) do
    names[#names + 1] = (f:match('([^/]+)$') or f):gsub('%.md$', '')
  end
  local function visit(blocks)
    for _, b in ipairs(blocks) do
      if b.t == 'Header' and b.level == 1 then
        cur = { title = b.content, number = #chapters + 1, problems = {} }
        cur.name = names[cur.number] or string.format('%02d', cur.number)
        chapters[#chapters + 1] = cur
      elseif b.t == 'CodeBlock' and b.classes:includes('problem') then
        local p = parse(b)
        if ids[p.id] then util.fail(WHO, 'problem id "' .. p.id .. '" is used twice') end
        ids[p.id] = true
        if not cur then util.fail(WHO, 'problem ' .. p.id .. ' comes before the first chapter title (# ...)') end
        cur.problems[#cur.problems + 1] = p
      elseif b.t == 'Div' or b.t == 'BlockQuote' then
        visit(b.content)
      end
    end
  end
  visit(doc.blocks)
  return chapters
end

-- The problem set or the answer key of one seed, and the JSON key.
local function problem_set(doc, mode)
  local seed = util.meta_string(doc.meta, 'problems-seed', '')
  if seed == '' then util.fail(WHO, 'problems=' .. mode .. ' needs -M problems-seed=NAME') end
  local chapters = collect(doc)
  local blocks = pandoc.List()
  local json = {}
  local total = 0
  for _, ch in ipairs(chapters) do
    if #ch.problems > 0 then
      local title = pandoc.List({ pandoc.Str('Chapter ' .. ch.number .. '.'), pandoc.Space() })
      title:extend(ch.title)
      blocks:insert(pandoc.Header(1, title, pandoc.Attr('', { 'unnumbered' })))
      for k, p in ipairs(ch.problems) do
        local inst = instance(p, seed)
        local label = ch.number .. '.' .. k
        if util.is_latex() then blocks:insert(pandoc.RawBlock('latex', '\\bigskip')) end
        blocks:insert(title_para(label, p))
        blocks:extend(md(inst.question))
        local uname = unit_name(p, inst)
        if mode == 'questions' then
          local how = type(inst.value) == 'number'
            and ('answer in ' .. (({ x = 'times (a ratio)', count = 'a count', [''] = 'a plain number' })[uname] or uname) ..
              ', within ' .. util.sig(p.tol * 100, 3) .. '%')
            or 'answer with one word'
          blocks:insert(pandoc.Para({ pandoc.Emph({ pandoc.Str('Id'), pandoc.Space() }),
            pandoc.Code(p.id), pandoc.Emph({ pandoc.Str(';'), pandoc.Space(), pandoc.Str(how) }) }))
        else
          blocks:extend(answer_line(p, inst))
          blocks:extend(steps_blocks(inst))
          blocks:extend(params_line(p, inst))
          local v = type(inst.value) == 'number' and json_number(inst.value) or json_string(inst.value)
          local params = {}
          for _, name in ipairs(p.order) do
            local x = inst.vals[name]
            params[#params + 1] = json_string(name) .. ': ' .. (type(x) == 'number' and json_number(x) or json_string(x))
          end
          json[#json + 1] = '  ' .. json_string(p.id) .. ': {"value": ' .. v ..
            ', "unit": ' .. json_string(uname) ..
            ', "tolerance": ' .. (type(inst.value) == 'number' and json_number(p.tol) or 'null') ..
            (inst.number and (', "shown": ' .. json_string(inst.number)) or '') ..
            ', "stars": ' .. p.stars ..
            ', "chapter": ' .. json_string(ch.name) ..
            ', "command": ' .. json_string(inst.command) ..
            ', "key": ' .. json_string(p.key) ..
            ', "scale": ' .. json_number(p.scale / util.units[p.unit].div) ..
            ', "params": {' .. table.concat(params, ', ') .. '}}'
        end
        total = total + 1
      end
    end
  end
  if total == 0 then util.fail(WHO, 'no ```{.problem} templates in the input') end
  if mode == 'answers' then
    local out = util.meta_string(doc.meta, 'problems-json', '')
    if out ~= '' then util.write_file(WHO, out, '{\n' .. table.concat(json, ',\n') .. '\n}\n') end
  end
  local intro
  if mode == 'questions' then
    intro = md('Seed **' .. seed .. '**: your own numbers; another seed gives others. ' ..
      'Stars: $\\star$ direct, $\\star\\star$ needs a derivation, $\\star\\star\\star$ puts ideas together. ' ..
      'Work each problem by hand, then check it with the calculator.\n\n' ..
      'Write your answers to a file, one `id value` per line (e.g. `' ..
      chapters[1].problems[1].id .. ' 12.5`, in the unit asked, without the unit), ' ..
      'then grade them:\n\n' ..
      '```\nbuild/chalk check-answers build/answers-' .. seed .. '.json my-answers.txt\n```')
  else
    intro = md('Answer key for seed **' .. seed .. '**. Every answer and every number in ' ..
      'the worked steps was computed by `build/chalk`; the command is given under each answer.')
  end
  local out = pandoc.List(intro)
  out:extend(blocks)
  doc.blocks = out
  doc.meta.title = pandoc.MetaInlines({ pandoc.Str(mode == 'questions' and 'Chalk: practice problems' or 'Chalk: answer key') })
  doc.meta.subtitle = pandoc.MetaInlines({ pandoc.Str('seed ' .. seed) })
  return doc
end

-- make test's proof that every template lands in its regime (tests/checks/run.sh):
-- each template of the input drawn with the seeds regime-1 ... regime-N (N: the
-- metadata field problems-seeds, default 200), question and worked steps
-- included. Prints to stdout, per template, "FILE:LINE: problem ID: ..." when
--   * a seed's draw is degenerate (the automatic rule: the template leaves a
--     degenerate answer in its range: state the regime with require:, or say
--     degenerate-ok: REASON), once per kind (0, 1, equal to {var});
--   * a seed finds no draw in 100 (its conditions are too narrow, or the answer
--     command fails);
-- and a "note: " line with the attempts it took (mean, most) and the first
-- example of each finding. The document is left as it is.
local function regime(doc)
  local n = tonumber(util.meta_string(doc.meta, 'problems-seeds', '200'))
  local files, texts = {}, {}
  for k, f in ipairs(PANDOC_STATE.input_files or {}) do
    files[k] = f
    texts[k] = util.read_file(f) or ''
  end
  local function where(chapter, id)
    local text = texts[chapter] or ''
    local at = text:find('id=' .. id, 1, true)
    local line = 0
    if at then local _, nl = text:sub(1, at):gsub('\n', ''); line = nl + 1 end
    return (files[chapter] or ('chapter ' .. chapter)) .. ':' .. line
  end
  local out = {}
  for c, ch in ipairs(collect(doc)) do
    for _, p in ipairs(ch.problems) do
      local at = where(c, p.id)
      local attempts, most, kinds, first, stuck = 0, 0, {}, {}, nil
      for k = 1, n do
        local seed = 'regime-' .. k
        local ok, inst = pcall(instance, p, seed)
        if not ok then
          stuck = stuck or (seed .. ': ' .. tostring(inst):gsub('^problems%.lua: ', ''))
        else
          attempts = attempts + inst.attempt
          if inst.attempt > most then most = inst.attempt end
          local d = inst.degenerate
          if d then
            if not kinds[d.kind] then
              kinds[d.kind] = 0
              local vals = {}
              for _, name in ipairs(p.order) do
                local x = inst.vals[name]
                vals[#vals + 1] = name .. '=' .. (type(x) == 'number' and raw(x) or tostring(x))
              end
              first[#first + 1] = 'seed ' .. seed .. ': ' .. d.why .. ' at ' .. table.concat(vals, ' ')
            end
            kinds[d.kind] = kinds[d.kind] + 1
          end
        end
      end
      local names = {}
      for kind in pairs(kinds) do names[#names + 1] = kind end
      table.sort(names)
      for _, kind in ipairs(names) do
        out[#out + 1] = at .. ': problem ' .. p.id .. ': draws a degenerate answer, ' .. kind ..
          ': state its regime (require:) or say degenerate-ok: REASON'
      end
      if stuck then
        out[#out + 1] = at .. ': problem ' .. p.id .. ': a seed finds no draw in ' .. TRIES .. ' attempts'
      end
      local note = 'note: ' .. at .. ': problem ' .. p.id .. ': ' .. n .. ' seeds, ' ..
        util.sig(attempts / n, 3) .. ' attempts on average, ' .. most .. ' at most'
      for _, kind in ipairs(names) do note = note .. '; ' .. kinds[kind] .. ' of ' .. n .. ' seeds: ' .. kind end
      out[#out + 1] = note
      for _, f in ipairs(first) do out[#out + 1] = 'note: ' .. at .. ': problem ' .. p.id .. ': first: ' .. f end
      if stuck then out[#out + 1] = 'note: ' .. at .. ': problem ' .. p.id .. ': ' .. stuck end
    end
  end
  for _, line in ipairs(out) do io.stdout:write(line, '\n') end
  return doc
end

-- The final answer of an instance as the answers appendix prints it: the answer
-- with its unit, and how close a reader's must be.
local function final_answer(p, inst)
  if type(inst.value) ~= 'number' then return tostring(inst.value) end
  local text = inst.shown
  if p.tol > 0 then return text .. ' (\u{00B1}' .. util.sig(p.tol * 100, 3) .. '%)' end
  return text .. ' (exactly)'
end

-- ::: {.problem-answers chapters=GLOB}: the final answer of every problem of the
-- chapters (GLOB, default chapters/[0-9][0-9]-*.md, in name order: chapter N is
-- the Nth file, as the Makefile orders them), drawn with seed "book" as the
-- chapters print them; per chapter a line naming it and a table (problem,
-- title, answer with its unit and tolerance). The div's own content, if any,
-- comes first. The worked steps stay in the instructor edition's chapters.
local function answers_div(div)
  local glob = div.attributes.chapters or 'chapters/[0-9][0-9]-*.md'
  if glob:find("'", 1, true) then util.fail(WHO, 'problem-answers: chapters= takes a file pattern without quotes') end
  local files = {}
  local h = io.popen('ls -1 ' .. glob .. ' 2>/dev/null')
  for f in h:lines() do files[#files + 1] = f end
  h:close()
  table.sort(files)
  if #files == 0 then util.fail(WHO, 'problem-answers: no chapter matches ' .. glob) end
  local out = pandoc.List(div.content)
  local total = 0
  for n, file in ipairs(files) do
    util.depend(file)
    local text = util.read_file(file)
    if not text then util.fail(WHO, 'problem-answers: cannot read ' .. file) end
    local blocks = pandoc.read(text, 'markdown').blocks
    local title, rows, k = nil, {}, 0
    for _, b in ipairs(blocks) do
      if b.t == 'Header' and b.level == 1 and not title then
        title = pandoc.utils.stringify(b.content):gsub(':.*$', '')
      elseif b.t == 'CodeBlock' and b.classes:includes('problem') then
        local p = parse(b)
        k = k + 1
        local answer = md(final_answer(p, instance(p, 'book')))[1]
        rows[#rows + 1] = { { pandoc.Plain({ pandoc.Str(n .. '.' .. k) }) },
          { pandoc.Plain({ pandoc.Str(p.title ~= '' and p.title or p.id) }) },
          { pandoc.Plain(answer and answer.content or {}) } }
      end
    end
    if #rows > 0 then
      total = total + #rows
      if util.is_latex() then out:insert(pandoc.RawBlock('latex', '\\needspace{6\\baselineskip}')) end
      local name = pandoc.List({ pandoc.Strong({ pandoc.Str('Chapter ' .. n .. ':'), pandoc.Space(),
        pandoc.Str(title or file) }) })
      if util.is_latex() then name:insert(1, pandoc.RawInline('latex', '\\noindent ')) end
      out:insert(pandoc.Para(name))
      local head = { { pandoc.Plain({ pandoc.Str('problem') }) }, { pandoc.Plain({ pandoc.Str('title') }) },
        { pandoc.Plain({ pandoc.Str('answer') }) } }
      out:insert(pandoc.utils.from_simple_table(pandoc.SimpleTable({},
        { pandoc.AlignLeft, pandoc.AlignLeft, pandoc.AlignRight }, { 0.1, 0.56, 0.34 }, head, rows)))
    end
  end
  if total == 0 then util.fail(WHO, 'problem-answers: the chapters ' .. glob .. ' hold no ```{.problem} templates') end
  return out
end

-- (HTML only) The template of p as the web page draws it with another seed
-- (book/web/chalk-web.js, "practice problems"): a spec, and the question as markdown
-- with a token XCHALKLnX for its n-th {chalk ...} value and XCHALKVnX for its n-th
-- {var} (in TeX, as \text{XCHALKVnX}). The page draws the variables with the same
-- generator as instance(), runs the commands in its calculator and puts each value,
-- formatted as util.format does, in place of its token. The spec: id, vars (in
-- order: name, kind, items or lo/hi/int/log/step/sig), command, key, unit, tol,
-- digits, scale, require (the parsed conditions), lives ({cmd, key, unit, digits,
-- scale} per L token), holes ({name, raw} per V token), units (util.units' entry
-- of each unit used), label (the answer's unit as the reader writes it).
local function web_template(p)
  local A = util.json_array
  local vars = A()
  for _, name in ipairs(p.order) do
    local v = p.vars[name]
    vars[#vars + 1] = { name = name, kind = v.kind, items = v.items and A(v.items), lo = v.lo, hi = v.hi,
      int = v.int, log = v.log, step = v.step, sig = v.sig }
  end
  local units = { [p.unit] = util.units[p.unit] }
  local lives, holes = A(), A()
  local q = p.question:gsub('(%b{})', function(span)
    local body = span:match('^{chalk%s+(.*)}$')
    if not body then return nil end
    local cmd, key, opts = body:match('^(.-)%s*%->%s*(%S+)%s*(.-)%s*$')
    local l = { cmd = cmd, key = key, unit = '', digits = 3, scale = 1 }
    for w in opts:gmatch('%S+') do
      local k, x = w:match('^(%a+)=(.+)$')
      if k == 'digits' then l.digits = tonumber(x) elseif k == 'scale' then l.scale = tonumber(x) else l.unit = w end
    end
    units[l.unit] = util.units[l.unit]
    lives[#lives + 1] = l
    return 'XCHALKL' .. #lives .. 'X'
  end)
  q = q:gsub('()({([%a_][%w_]*)(:?r?a?w?)})', function(at, whole, name, suffix)
    if name == 'chalk' or not p.vars[name] or tex_argument(q, at) then return whole end
    holes[#holes + 1] = { name = name, raw = suffix == ':raw' }
    local token = 'XCHALKV' .. #holes .. 'X'
    if at > 1 and q:sub(at - 1, at - 1) == '{' then return '\\text{' .. token .. '}' end
    return token
  end)
  local conds = A()
  for _, c in ipairs(p.require or {}) do conds[#conds + 1] = c end
  return { id = p.id, vars = vars, command = p.command, key = p.key, unit = p.unit, tol = p.tol,
    digits = p.digits, scale = p.scale, require = conds, lives = lives, holes = holes, units = units,
    label = unit_name(p, { value = 0 }) }, q
end

-- The book: one instance of each template with seed "book", in place.
local function book(doc)
  local edition = util.edition(WHO, doc.meta)
  -- the answers appendix, in this file or (a per-file build) in the book's table
  local answers = false
  for _, b in ipairs(doc.blocks) do
    if b.t == 'Header' and b.identifier == 'sec:answers' then answers = true end
  end
  local xref = util.meta_string(doc.meta, 'xref-table', '')
  if xref ~= '' then
    local t = util.read_file(xref)
    if t and t:find('\nsec:answers\t') or (t and t:sub(1, 12) == 'sec:answers\t') then answers = true end
  end
  local chapter, k, ids = util.context(doc.meta).chapters, 0, {}
  local function render(b)
    local p = parse(b)
    if ids[p.id] then util.fail(WHO, 'problem id "' .. p.id .. '" is used twice') end
    ids[p.id] = true
    util.record('ids', 'problem ' .. p.id)
    k = k + 1
    local inst = instance(p, 'book')
    local out = pandoc.List({ title_para(chapter .. '.' .. k, p) })
    -- (the book's template loads needspace: a title never ends a page alone)
    if util.is_latex() then out:insert(1, pandoc.RawBlock('latex', '\\medskip\\needspace{5\\baselineskip}')) end
    out:extend(md(inst.question))
    if edition == 'instructor' then
      out:extend(answer_line(p, inst))
      out:extend(steps_blocks(inst))
    end
    if util.is_html() then
      local attrs = {}
      if edition == 'instructor' then
        local number = type(inst.value) == 'number'
        attrs = { { 'answer-json', util.json_encode({ value = inst.value, unit = unit_name(p, inst),
          tolerance = number and p.tol or util.null, shown = inst.number or inst.value }) } }
      end
      -- the template, for the page to draw other seeds (chalk-web.js): its spec and
      -- its question with a token for each number, hidden
      local spec, question = web_template(p)
      attrs[#attrs + 1] = { 'problem-spec', util.json_encode(spec) }
      out:insert(pandoc.Div(md(question), pandoc.Attr('', { 'problem-template' }, { { 'hidden', '' } })))
      return { pandoc.Div(out, pandoc.Attr('prob-' .. p.id, { 'problem' }, attrs)) }
    end
    return out
  end
  local out = pandoc.List()
  for _, b in ipairs(doc.blocks) do
    if b.t == 'Header' and b.level == 1 and not b.classes:includes('unnumbered') then
      chapter, k = chapter + 1, 0
      out:insert(b)
    elseif b.t == 'Header' and b.level == 2 and pandoc.utils.stringify(b.content) == 'Practice problems' then
      out:insert(b)
      out:extend(md('Each problem below is one instance of a template, drawn with the seed ' ..
        '"book"' .. (answers and (', and its final answer is in @sec:answers') or '') .. '. ' ..
        'Other seeds give other numbers: the web edition draws any seed in the page and checks ' ..
        'your answers there; the student handout carries three drawn sets in `practice/` and ' ..
        '`make check-answers` grades your answers against their keys; in the full course, ' ..
        '`make problems SEED=yourname` draws a set and its key.'))
    elseif b.t == 'Div' and b.classes:includes('problem-answers') then
      out:extend(answers_div(b))
    elseif b.t == 'CodeBlock' and b.classes:includes('problem') then
      out:extend(render(b))
    else
      out:insert(b)
    end
  end
  doc.blocks = out
  return doc
end

return {
  {
    Pandoc = function(doc)
      local mode = util.meta_string(doc.meta, 'problems', '')
      if mode == 'questions' or mode == 'answers' then return problem_set(doc, mode) end
      if mode == 'regime' then return regime(doc) end
      if mode ~= '' then util.fail(WHO, 'problems= takes questions, answers or regime, not "' .. mode .. '"') end
      return book(doc)
    end,
  },
}
