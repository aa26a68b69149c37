-- problems_draw.lua -- the practice problems' instances: numbers drawn for a
-- template, its answer and texts from chalk (not a filter: problems.lua loads it).
--
-- instance(p, seed) draws the template p (problems_template.lua) for a seed:
-- each variable drawn with a seeded generator of our own (splitmix64 on an FNV-1a
-- hash of "SEED\0ID\0ATTEMPT"), so a seed gives the same numbers on every machine
-- and in the web edition's page (book/web/chalk-draw.js draws the same way); the
-- answer command run through build/chalk (util.chalk_json; CHALK overrides the
-- path), and the draw drawn again (attempt 2, 3, ... up to TRIES) while the
-- command fails, the answer is null or a require: condition does not hold. The
-- question and each worked step get their {var} placeholders and their
-- {chalk CMD -> key [unit] [digits=N] [scale=X]} live values filled in. It
-- returns
--     { vals = {name = value}, command, attempt, value (in the unit asked),
--       shown (markdown), number (the key's "shown"), question, steps,
--       degenerate = {why, kind} or nil }
-- Also exported: raw(x) (a number as chalk reads it), unit_name(p, inst) (the
-- answer's unit as the reader writes it), tex_argument(text, at) (a brace that
-- opens a TeX command's argument, never a placeholder), TRIES.
-- Stops the build (util.fail, as "problems.lua: ...") on: an unknown or bad
-- placeholder, a malformed live value or a failing one, a condition on a key the
-- answer's JSON lacks or comparing what is not a number, no draw in TRIES.
--
-- Loaded by problems.lua after it put book/filters/ on package.path:
--     local draw = require 'problems_draw'
-- Lua 5.4 integers (pandoc 2.17) for the generator.

local util = require 'util'

local WHO = 'problems.lua'
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

-- ---- a variable's draw -----------------------------------------------------------

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

-- ---- the regime: require conditions and degenerate answers -----------------------

-- The value of a term for one draw; nil and a reason when the JSON has null there.
local function term_value(p, t, json, vals, answer, cond)
  local v
  if t.number then v = t.number
  elseif t.literal ~= nil then v = t.literal
  elseif t.answer then v = answer
  elseif t.var then v = vals[t.var]
  else
    v = util.lookup(json, t.key)
    if v == nil then
      util.fail(WHO, 'problem ' .. p.id .. ': require "' .. cond.text .. '": the answer\'s JSON has no key "' .. t.key .. '"')
    end
    if v == util.null then return nil, t.key .. ' is null' end
  end
  if t.factor then
    if type(v) ~= 'number' then
      util.fail(WHO, 'problem ' .. p.id .. ': require "' .. cond.text .. '": ' .. tostring(v) .. ' is not a number')
    end
    v = t.factor * v
  end
  return v
end

-- nil when every condition holds for this draw; else why not (for the redraw).
local function unmet(p, json, vals, answer)
  for _, c in ipairs(p.require or {}) do
    if c.flag then
      local v = util.lookup(json, c.flag)
      if v == nil then
        util.fail(WHO, 'problem ' .. p.id .. ': require "' .. c.text .. '": the answer\'s JSON has no key "' .. c.flag .. '"')
      end
      if v ~= true then return 'require "' .. c.text .. '" does not hold (' .. c.flag .. ' = ' .. tostring(v) .. ')' end
    else
      local a, why = term_value(p, c.lhs, json, vals, answer, c)
      if a == nil then return 'require "' .. c.text .. '": ' .. why end
      local b, why2 = term_value(p, c.rhs, json, vals, answer, c)
      if b == nil then return 'require "' .. c.text .. '": ' .. why2 end
      local numeric = type(a) == 'number' and type(b) == 'number'
      if not numeric and c.op ~= '==' and c.op ~= '!=' then
        util.fail(WHO, 'problem ' .. p.id .. ': require "' .. c.text .. '": ' .. c.op .. ' compares numbers, not ' ..
          tostring(a) .. ' and ' .. tostring(b))
      end
      local holds
      if c.op == '<' then holds = a < b
      elseif c.op == '<=' then holds = a <= b
      elseif c.op == '>' then holds = a > b
      elseif c.op == '>=' then holds = a >= b
      elseif c.op == '==' then holds = a == b
      else holds = a ~= b end
      if not holds then
        return 'require "' .. c.text .. '" does not hold (' .. tostring(a) .. ' ' .. c.op .. ' ' .. tostring(b) .. ')'
      end
    end
  end
end

-- Why an answer is degenerate (the automatic rule, book/problems.md), or nil: 0,
-- equal to a drawn number (chalk's value, or the value in the unit asked), or 1
-- for a whole-number answer. (A null answer is never drawn: it is redrawn.)
local function degenerate(p, vals, v)
  if type(v) ~= 'number' then return nil end
  local shown = v * p.scale / util.units[p.unit].div
  local function same(a, b) return math.abs(a - b) <= 1e-9 * math.max(math.abs(a), math.abs(b)) end
  if v == 0 or shown == 0 then return 'the answer is 0', 'the answer is 0' end
  if p.unit == 'int' and math.abs(shown - 1) < 0.5 then
    return 'the answer is 1 (a whole number)', 'the answer is 1 (a whole number)'
  end
  for _, name in ipairs(p.order) do
    local x = vals[name]
    if type(x) == 'number' and (same(v, x) or same(shown, x)) then
      local kind = 'the answer equals the drawn {' .. name .. '}'
      return kind .. ' (' .. raw(x) .. ')', kind
    end
  end
end

-- ---- instances -----------------------------------------------------------------

-- True when the brace at position `at` of text opens the argument of a TeX command:
-- a backslash and letters right before it.
local function tex_argument(text, at)
  return at > 1 and text:sub(1, at - 1):match('\\%a+$') ~= nil
end

-- Replaces {name} and {name:raw} in text; `raw_only` gives chalk's spelling.
local function substitute(p, text, vals, raw_only)
  return (text:gsub('()({([%a_][%w_]*)(:?r?a?w?)})', function(at, whole, name, suffix)
    if name == 'chalk' then return nil end
    -- The argument of a TeX command (\text{hop}, \mathrm{active}) is never a
    -- placeholder, even where a variable has that name.
    if tex_argument(text, at) then return whole end
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

-- Runs `chalk CMD --json` and returns the value at key (number or string) and the
-- whole JSON, or nil and a reason when the command fails or the value is null.
local function chalk_value(cmd, key)
  local ok, json = pcall(util.chalk_json, WHO, cmd)
  if not ok then return nil, json end
  local v = util.lookup(json, key)
  if v == nil then return nil, 'chalk ' .. cmd .. ' --json: no key "' .. key .. '"' end
  if v == util.null then
    local reason = util.lookup(json, key .. '_reason')
    return nil, 'chalk ' .. cmd .. ': ' .. key .. ' is null' .. (type(reason) == 'string' and (' (' .. reason .. ')') or '')
  end
  if type(v) ~= 'number' and type(v) ~= 'string' and type(v) ~= 'boolean' then
    return nil, 'chalk ' .. cmd .. ' --json: "' .. key .. '" is not a number or a string'
  end
  return v, nil, json
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

-- Draws an instance of p for seed: its values, answer and texts (markdown). A
-- draw is drawn again (attempt 2, 3, ...) while its answer command fails, its
-- answer is null or a require condition does not hold. A degenerate answer (the
-- automatic rule: degenerate()) is not drawn again, which would hide a template
-- that does not state its regime: inst.degenerate says why it is one (unless the
-- template says degenerate-ok:), and make test's regime check fails on it.
local function instance(p, seed)
  local last
  for attempt = 1, TRIES do
    local u = generator(seed .. '\0' .. p.id .. '\0' .. attempt)
    local vals = {}
    for _, name in ipairs(p.order) do vals[name] = draw(p.vars[name], u) end
    local cmd = substitute(p, p.command, vals, true)
    local v, why, json = chalk_value(cmd, p.key)
    if v ~= nil then why = unmet(p, json, vals, v) end
    if v ~= nil and not why then
      local inst = { vals = vals, command = cmd, attempt = attempt }
      if not p.degenerate_ok then
        local reason, kind = degenerate(p, vals, v)
        if reason then inst.degenerate = { why = reason, kind = kind } end
      end
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

return {
  instance = instance,
  raw = raw,
  unit_name = unit_name,
  tex_argument = tex_argument,
  TRIES = TRIES,
}
