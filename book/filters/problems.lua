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
-- every machine; a draw whose answer command fails or gives null is drawn again.
-- Every answer and every {chalk ... -> key unit} value is computed by running
-- build/chalk (util.run_chalk, CHALK overrides the path); none is typed.
--
-- Modes, by the metadata field `problems`:
--   questions  the document becomes the problem set of seed `problems-seed`
--              (questions only, with the unit and id to answer in);
--   answers    the document becomes the answer key (answer, tolerance, worked
--              steps, parameters) and the side file `problems-json` is written:
--              { "ID": {"value", "unit", "tolerance", "shown", "stars", "chapter",
--              "command", "key", "scale", "params"}, ... }, one problem per line,
--              in document order;
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
-- unknown key, attribute or placeholder, a malformed range, a missing question
-- or answer, no successful draw in 100 attempts, a failing live value.
--
-- Order: independent of chalk.lua (it runs chalk itself); in the book chain it
-- goes before crossref.lua. Pandoc 2.17 (Lua 5.4 integers for the generator).

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'problems.lua'
local KEYS = { vars = true, question = true, answer = true, unit = true, tol = true,
  digits = true, scale = true, require = true, steps = true }
local ATTRS = { id = true, stars = true, title = true }
local TRIES = 100

-- ---- the generator -------------------------------------------------------------

-- FNV-1a, 64 bits, over the bytes of s (Lua integers wrap around).
local function fnv1a(s)
  local h = -3750763034362895579 -- 0xcbf29ce484222325
  for i = 1, #s do
    h = h ~ s:byte(i)
    h = h * 1099511628211
  end
  return h
end

-- splitmix64 (Steele, Lea, Flood 2014): returns a generator of uniforms in [0, 1).
local function generator(seed_text)
  local state = fnv1a(seed_text)
  return function()
    state = state + -7046029254386353131 -- 0x9e3779b97f4a7c15
    local z = state
    z = (z ~ (z >> 30)) * -4658895280553007687 -- 0xbf58476d1ce4e5b9
    z = (z ~ (z >> 27)) * -7723592293110705685 -- 0x94d049bb133111eb
    z = z ~ (z >> 31)
    return (z >> 11) * (1.0 / 9007199254740992.0) -- 53 bits / 2^53
  end
end

-- ---- numbers --------------------------------------------------------------------

-- Rounds x to n significant figures.
local function round_sig(x, n)
  if x == 0 then return 0 end
  local e = math.floor(math.log(math.abs(x), 10))
  local f = 10 ^ (e - n + 1)
  local r = math.floor(x / f + 0.5) * f
  return tonumber(string.format('%.' .. n .. 'g', r))
end

-- A number as chalk reads it (no grouping, no exponent when avoidable).
local function raw(x)
  if math.type(x) == 'integer' then return string.format('%d', x) end
  if x == math.floor(x) and math.abs(x) < 1e15 then return string.format('%d', math.floor(x)) end
  return string.format('%.10g', x)
end

-- A number as a reader reads it: 2,300 or 1.5.
local function pretty(x)
  if type(x) ~= 'number' then return tostring(x) end
  if x == math.floor(x) and math.abs(x) < 1e15 then
    return util.format(WHO, x, 'int')
  end
  return (util.sig(x, 6))
end

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

-- ---- the template --------------------------------------------------------------

-- Parses one variable spec: "a | b | c", a constant, or "LO..HI [int] [log] [step S] [sig N]".
local function parse_var(pid, name, spec)
  local where = 'problem ' .. pid .. ': var ' .. name
  local lo, hi, opts = spec:match('^(%S+)%.%.(%S+)%s*(.*)$')
  if lo then
    local v = { kind = 'range', lo = tonumber(lo), hi = tonumber(hi) }
    if not v.lo or not v.hi then util.fail(WHO, where .. ': range "' .. spec .. '" needs numbers LO..HI') end
    if v.lo > v.hi then util.fail(WHO, where .. ': range "' .. spec .. '" has LO > HI') end
    local words = {}
    for w in opts:gmatch('%S+') do words[#words + 1] = w end
    local i = 1
    while i <= #words do
      local w = words[i]
      if w == 'int' then v.int = true
      elseif w == 'log' then v.log = true
      elseif w == 'step' or w == 'sig' then
        local n = tonumber(words[i + 1] or '')
        if not n or n <= 0 then util.fail(WHO, where .. ': "' .. w .. '" needs a positive number') end
        v[w] = n; i = i + 1
      else
        util.fail(WHO, where .. ': unknown range option "' .. w .. '" (int, log, step S, sig N)')
      end
      i = i + 1
    end
    if v.log and v.lo <= 0 then util.fail(WHO, where .. ': a log range needs LO > 0') end
    if v.sig and v.sig % 1 ~= 0 then util.fail(WHO, where .. ': sig takes a whole number') end
    return v
  end
  local items = {}
  for item in (spec .. '|'):gmatch('%s*(.-)%s*|') do
    if item == '' then util.fail(WHO, where .. ': empty item in "' .. spec .. '"') end
    items[#items + 1] = tonumber(item) or item
  end
  return { kind = 'list', items = items }
end

-- Draws one value of a variable.
local function draw(v, u)
  if v.kind == 'list' then
    return v.items[math.floor(u() * #v.items) + 1]
  end
  local x
  if v.step then
    local n = math.floor((v.hi - v.lo) / v.step + 1e-9)
    x = v.lo + math.floor(u() * (n + 1)) * v.step
  elseif v.log then
    x = math.exp(math.log(v.lo) + u() * (math.log(v.hi) - math.log(v.lo)))
  elseif v.int then
    x = v.lo + math.floor(u() * (v.hi - v.lo + 1))
  else
    x = v.lo + u() * (v.hi - v.lo)
  end
  x = round_sig(x, v.sig or 3)
  if v.int then x = math.floor(x + 0.5) end
  if x < v.lo then x = v.lo end
  if x > v.hi then x = v.hi end
  if v.int then x = math.tointeger(x) or x end
  return x
end

-- Parses the YAML-ish body of a ```{.problem} block.
local function parse(block)
  local a = block.attributes
  local pid = a.id or block.identifier
  if not pid or pid == '' then util.fail(WHO, 'a ```{.problem} block has no id=...') end
  if not pid:match('^[%w][%w._-]*$') then
    util.fail(WHO, 'problem id "' .. pid .. '" may hold only letters, digits, ".", "_" and "-"')
  end
  for k, _ in pairs(a) do
    if not ATTRS[k] then util.fail(WHO, 'problem ' .. pid .. ': unknown attribute "' .. k .. '" (id, stars, title)') end
  end
  local stars = tonumber(a.stars or '')
  if not stars or (stars ~= 1 and stars ~= 2 and stars ~= 3) then
    util.fail(WHO, 'problem ' .. pid .. ': stars=1, 2 or 3')
  end
  local p = { id = pid, stars = math.tointeger(stars), title = a.title or '', vars = {}, order = {},
    steps = {}, unit = '', tol = 0.02, digits = 3, scale = 1 }
  local key, seen = nil, {}
  local text = {}
  local function flush_text()
    if key == 'question' then
      p.question = table.concat(text, '\n'):gsub('^%s+', ''):gsub('%s+$', '')
    end
    text = {}
  end
  local lines = {}
  for line in (block.text .. '\n'):gmatch('(.-)\n') do lines[#lines + 1] = line end
  for n, line in ipairs(lines) do
    local where = 'problem ' .. pid .. ', line ' .. n
    local k, rest = line:match('^(%a+):%s*(.-)%s*$')
    if k then
      flush_text()
      if not KEYS[k] then util.fail(WHO, where .. ': unknown key "' .. k .. '"') end
      if seen[k] then util.fail(WHO, where .. ': key "' .. k .. '" appears twice') end
      seen[k] = true
      key = k
      if k == 'question' then
        if rest ~= '|' and rest ~= '' then text[#text + 1] = rest end
      elseif k == 'answer' then
        local cmd, akey = rest:match('^(.-)%s*%->%s*(%S+)$')
        if not cmd or cmd == '' then util.fail(WHO, where .. ': answer: CHALK COMMAND -> key') end
        p.command, p.key = cmd, akey
      elseif k == 'require' then
        if not rest:match('^[%w_.]+[%w_. ]*$') then util.fail(WHO, where .. ': require: KEY... (true/false keys of the answer\'s JSON)') end
        p.require = rest
      elseif k == 'unit' then
        if not util.units[rest] then util.fail(WHO, where .. ': unknown unit "' .. rest .. '"') end
        p.unit = rest
      elseif k == 'tol' or k == 'digits' or k == 'scale' then
        local x = tonumber(rest)
        if not x or x < 0 or (k == 'digits' and (x < 1 or x % 1 ~= 0)) then
          util.fail(WHO, where .. ': ' .. k .. ' must be a ' .. (k == 'digits' and 'whole number' or 'number'))
        end
        p[k] = x
      elseif (k == 'vars' or k == 'steps') and rest ~= '' then
        util.fail(WHO, where .. ': ' .. k .. ': takes indented lines below it')
      end
    elseif line:match('^%s*$') then
      if key == 'question' then text[#text + 1] = '' end
    elseif line:match('^%s') then
      if key == 'vars' then
        local name, spec = line:match('^%s+([%a_][%w_]*):%s*(.-)%s*$')
        if not name or spec == '' then util.fail(WHO, where .. ': a var is "  name: spec"') end
        if p.vars[name] then util.fail(WHO, where .. ': var ' .. name .. ' is defined twice') end
        p.vars[name] = parse_var(pid, name, spec)
        p.order[#p.order + 1] = name
      elseif key == 'question' then
        text[#text + 1] = line:gsub('^%s%s?', '')
      elseif key == 'steps' then
        local item = line:match('^%s+%-%s+(.*)$')
        if item then p.steps[#p.steps + 1] = item
        elseif #p.steps > 0 then p.steps[#p.steps] = p.steps[#p.steps] .. '\n' .. line:gsub('^%s+', '')
        else util.fail(WHO, where .. ': steps are "  - text" items') end
      else
        util.fail(WHO, where .. ': indented line outside question, vars or steps')
      end
    else
      util.fail(WHO, where .. ': expected "key: value" (vars, question, answer, unit, tol, digits, scale, require, steps)')
    end
  end
  flush_text()
  if not p.question or p.question == '' then util.fail(WHO, 'problem ' .. pid .. ': needs question:') end
  if not p.command then util.fail(WHO, 'problem ' .. pid .. ': needs answer: CHALK COMMAND -> key') end
  return p
end

-- ---- instances -----------------------------------------------------------------

-- Replaces {name} and {name:raw} in text; `raw_only` gives chalk's spelling.
local function substitute(p, text, vals, raw_only)
  return (text:gsub('()({([%a_][%w_]*)(:?r?a?w?)})', function(at, whole, name, suffix)
    if name == 'chalk' then return nil end
    if vals[name] == nil then
      -- TeX groups such as \text{step} or t_{kv} are not placeholders.
      if at > 1 and text:sub(at - 1, at - 1):match('[%a_^}]') then return whole end
      util.fail(WHO, 'problem ' .. p.id .. ': unknown placeholder {' .. name .. '}')
    end
    if suffix ~= '' and suffix ~= ':raw' then
      util.fail(WHO, 'problem ' .. p.id .. ': bad placeholder {' .. name .. suffix .. '}')
    end
    if raw_only or suffix == ':raw' then return type(vals[name]) == 'number' and raw(vals[name]) or vals[name] end
    return type(vals[name]) == 'number' and pretty(vals[name]) or vals[name]
  end))
end

-- Runs `chalk CMD --json` and returns the value at key (number or string), or nil
-- and a reason when the command fails or the value is null.
local function chalk_value(cmd, key, require)
  local ok, json = pcall(util.chalk_json, WHO, cmd)
  if not ok then return nil, json end
  for want in (require or ''):gmatch('%S+') do
    if util.lookup(json, want) ~= true then
      return nil, 'chalk ' .. cmd .. ': ' .. want .. ' is not true'
    end
  end
  local v = util.lookup(json, key)
  if v == nil then return nil, 'chalk ' .. cmd .. ' --json: no key "' .. key .. '"' end
  if v == util.null then
    local reason = util.lookup(json, key .. '_reason')
    return nil, 'chalk ' .. cmd .. ': ' .. key .. ' is null' .. (type(reason) == 'string' and (' (' .. reason .. ')') or '')
  end
  if type(v) ~= 'number' and type(v) ~= 'string' and type(v) ~= 'boolean' then
    return nil, 'chalk ' .. cmd .. ' --json: "' .. key .. '" is not a number or a string'
  end
  return v
end

-- Text of a value with a unit, escaped for markdown.
local function shown(where, v, unit, digits, scale)
  if type(v) ~= 'number' then return tostring(v) end
  local text, math_text = util.format(where, v, unit, digits, scale)
  if math_text then return '$' .. math_text .. '$' end
  return (text:gsub('%$', '\\$'))
end

-- The number of a value as the key prints it, without its unit, in plain text for
-- the JSON key's "shown" (chalk check-answers prints it, so both agree): "418.6"
-- printed as "419" is "419"; "$0.42" is "0.42"; 6.71\times10^{11} is "6.71e11".
local function number_text(where, v, unit, digits, scale)
  local text, math_text = util.format(where, v, unit, digits, scale)
  if math_text then
    local m, e = math_text:match('^(.-)\\times10^{(.-)}$')
    return m .. 'e' .. e
  end
  local u = util.units[unit]
  if u.prefix and text:sub(1, #u.prefix) == u.prefix then text = text:sub(#u.prefix + 1) end
  if u.suffix and text:sub(-#u.suffix) == u.suffix then text = text:sub(1, -#u.suffix - 1) end
  return text
end

-- Replaces each {chalk CMD -> key [unit] [digits=N] [scale=X]} with its value.
local function live(p, text, vals)
  return (text:gsub('(%b{})', function(span)
    local body = span:match('^{chalk%s+(.*)}$')
    if not body then return nil end
    body = substitute(p, body, vals, true)
    local cmd, key, opts = body:match('^(.-)%s*%->%s*(%S+)%s*(.-)%s*$')
    if not cmd then util.fail(WHO, 'problem ' .. p.id .. ': live value is {chalk COMMAND -> key [unit]}: ' .. span) end
    local unit, digits, scale = '', 3, 1
    for w in opts:gmatch('%S+') do
      local k, x = w:match('^(%a+)=(.+)$')
      if k == 'digits' and tonumber(x) then digits = tonumber(x)
      elseif k == 'scale' and tonumber(x) then scale = tonumber(x)
      elseif not k and util.units[w] then unit = w
      else util.fail(WHO, 'problem ' .. p.id .. ': unknown option "' .. w .. '" in ' .. span) end
    end
    local v, why = chalk_value(cmd, key)
    if v == nil then util.fail(WHO, 'problem ' .. p.id .. ': ' .. why) end
    return shown(WHO .. ': problem ' .. p.id, v, unit, digits, scale)
  end))
end

-- Draws an instance of p for seed: its values, answer and texts (markdown).
local function instance(p, seed)
  local last
  for attempt = 1, TRIES do
    local u = generator(seed .. '\0' .. p.id .. '\0' .. attempt)
    local vals = {}
    for _, name in ipairs(p.order) do vals[name] = draw(p.vars[name], u) end
    local cmd = substitute(p, p.command, vals, true)
    local v, why = chalk_value(cmd, p.key, p.require)
    if v ~= nil then
      local inst = { vals = vals, command = cmd, attempt = attempt }
      if type(v) == 'number' then
        inst.value = v * p.scale / util.units[p.unit].div
        inst.shown = shown(WHO .. ': problem ' .. p.id, v, p.unit, p.digits, p.scale)
        inst.number = number_text(WHO .. ': problem ' .. p.id, v, p.unit, p.digits, p.scale)
      else
        inst.value = tostring(v)
        inst.shown = '**' .. tostring(v) .. '**'
      end
      inst.question = substitute(p, live(p, p.question, vals), vals)
      inst.steps = {}
      for i, s in ipairs(p.steps) do inst.steps[i] = substitute(p, live(p, s, vals), vals) end
      return inst
    end
    last = why
  end
  util.fail(WHO, 'problem ' .. p.id .. ': no draw in ' .. TRIES .. ' gave an answer; the last: ' .. tostring(last))
end

-- The unit of an answer as the reader writes it.
local function unit_name(p, inst)
  if type(inst.value) ~= 'number' then return 'choice' end
  if p.unit == 'int' then return 'count' end
  if p.unit == 'USD' then return 'USD' end
  if p.unit == 'x' then return 'x' end
  return util.unit_label(p.unit) or ''
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

-- The book: one instance of each template with seed "book", in place.
local function book(doc)
  local edition = util.edition(WHO, doc.meta)
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
        '"book". `make problems SEED=yourname` draws your own numbers and writes ' ..
        'the problems, the answer key and a key `build/chalk check-answers` grades against.'))
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
      if mode ~= '' then util.fail(WHO, 'problems= takes questions or answers, not "' .. mode .. '"') end
      return book(doc)
    end,
  },
}
