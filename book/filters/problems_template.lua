-- problems_template.lua -- the practice problems' templates: reading one ```{.problem}
-- block into a template (not a filter: problems.lua loads it).
--
-- parse(block) reads the block's attributes (id, stars, title) and its YAML-ish
-- body (book/problems.md has the full syntax): the variables and their specs
-- ("a | b | c", a constant, "LO..HI [int] [log] [step S] [sig N]"), the question,
-- `answer: CHALK COMMAND -> key`, unit, tol, digits, scale, the `require:`
-- conditions (the template's regime, book/problems.md "The regime"),
-- degenerate-ok: and the worked steps. It returns the template p:
--     { id, stars, title, vars = {name = spec}, order = {names in order}, question,
--       command, key, unit, tol, digits, scale, require = {conditions},
--       degenerate_ok, steps = {texts} }
-- which problems_draw.lua draws instances of. A condition is { text, flag } (a
-- true/false key of the answer's JSON) or { text, op, lhs, rhs } with terms
-- { number | answer | var | key | literal [, factor] }; the web edition's page
-- reads the same tables (problems.lua, web_template).
-- Stops the build (util.fail, as "problems.lua: ...") on: no id, a bad id or
-- stars, an unknown key or attribute, a key twice, a malformed range or
-- condition, a condition on a {var} the template lacks, a missing question or
-- answer. Reads nothing but the block, runs nothing.
--
-- Loaded by problems.lua after it put book/filters/ on package.path:
--     local template = require 'problems_template'

local util = require 'util'

local WHO = 'problems.lua'
local KEYS = { vars = true, question = true, answer = true, unit = true, tol = true,
  digits = true, scale = true, require = true, steps = true, ['degenerate-ok'] = true }
local ATTRS = { id = true, stars = true, title = true }

-- ---- variables -----------------------------------------------------------------

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

-- ---- the regime: require conditions -------------------------------------------

local parse_condition

-- A term of a condition (book/problems.md, "The regime"): a number; `answer`; a
-- {var}; a key of the answer's JSON (dotted: rows.0.step_s); a number times
-- one of those (2 * {stages}, {stages} * 2); true, false or a "string".
local function parse_term(pid, where, text, cond)
  local t = text:match('^%s*(.-)%s*$')
  local function atom(a)
    if tonumber(a) then return { number = tonumber(a) } end
    if a == 'answer' then return { answer = true } end
    if a == 'true' or a == 'false' then return { literal = (a == 'true') } end
    local str = a:match('^"(.*)"$')
    if str then return { literal = str } end
    local var = a:match('^{([%a_][%w_]*)}$')
    if var then return { var = var } end
    if a:match('^[%a_][%w_.]*$') then return { key = a } end
    util.fail(WHO, where .. ': require "' .. cond .. '": cannot read "' .. a .. '" (a number, answer, ' ..
      '{var}, a key of the answer\'s JSON, or a number times one of them)')
  end
  local a, b = t:match('^(%S+)%s*%*%s*(%S+)$')
  if a then
    local x, y = atom(a), atom(b)
    if x.number and not y.number then y.factor = x.number; return y end
    if y.number and not x.number then x.factor = y.number; return x end
    util.fail(WHO, where .. ': require "' .. cond .. '": a product is a number times one term')
  end
  return atom(t)
end

local OPS = { ['<'] = true, ['<='] = true, ['>'] = true, ['>='] = true, ['=='] = true, ['!='] = true }

-- One condition: `KEY` (a true/false key of the answer's JSON) or `TERM OP TERM`.
parse_condition = function(pid, where, text)
  local l, op, r = text:match('^(.-)%s*([<>=!]=?)%s*(.-)$')
  if not l then
    if not text:match('^[%a_][%w_.]*$') then
      util.fail(WHO, where .. ': require "' .. text .. '": a true/false key, or TERM OP TERM (< <= > >= == !=)')
    end
    return { text = text, flag = text }
  end
  if not OPS[op] or l == '' or r == '' then
    util.fail(WHO, where .. ': require "' .. text .. '": the operators are < <= > >= == !=')
  end
  return { text = text, op = op, lhs = parse_term(pid, where, l, text), rhs = parse_term(pid, where, r, text) }
end

-- ---- the block ----------------------------------------------------------------

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
    local k, rest = line:match('^(%a[%w-]*):%s*(.-)%s*$')
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
        p.require = {}
        if rest ~= '' then
          if rest:match('[<>=!]') then
            p.require[1] = parse_condition(pid, where, rest)
          else
            -- the one-line form: true/false keys of the answer's JSON
            for key in rest:gmatch('%S+') do p.require[#p.require + 1] = parse_condition(pid, where, key) end
          end
        end
      elseif k == 'degenerate-ok' then
        if rest == '' then util.fail(WHO, where .. ': degenerate-ok: REASON (why a degenerate answer teaches here)') end
        p.degenerate_ok = rest
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
      elseif key == 'require' then
        local cond = line:match('^%s+%-%s+(.-)%s*$')
        if not cond or cond == '' then util.fail(WHO, where .. ': require: lists conditions as "  - CONDITION"') end
        p.require[#p.require + 1] = parse_condition(pid, where, cond)
      elseif key == 'steps' then
        local item = line:match('^%s+%-%s+(.*)$')
        if item then p.steps[#p.steps + 1] = item
        elseif #p.steps > 0 then p.steps[#p.steps] = p.steps[#p.steps] .. '\n' .. line:gsub('^%s+', '')
        else util.fail(WHO, where .. ': steps are "  - text" items') end
      else
        util.fail(WHO, where .. ': indented line outside question, vars, require or steps')
      end
    else
      util.fail(WHO, where .. ': expected "key: value" (vars, question, answer, unit, tol, digits, scale, require, degenerate-ok, steps)')
    end
  end
  flush_text()
  if not p.question or p.question == '' then util.fail(WHO, 'problem ' .. pid .. ': needs question:') end
  if not p.command then util.fail(WHO, 'problem ' .. pid .. ': needs answer: CHALK COMMAND -> key') end
  -- every {var} of a condition is a variable of the template
  for _, c in ipairs(p.require or {}) do
    for _, t in ipairs({ c.lhs, c.rhs }) do
      if t and t.var and not p.vars[t.var] then
        util.fail(WHO, 'problem ' .. pid .. ': require "' .. c.text .. '": no variable {' .. t.var .. '}')
      end
    end
  end
  return p
end

return { parse = parse }
