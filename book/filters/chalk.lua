-- chalk.lua -- live numbers: inline `chalk` invocations become formatted numbers.
--
-- Consumes (book/README.md, "Live numbers"):
--     `decode --model llama3-70b --hw h100-sxm --batch 1 --context 0`{.chalk key=latency_floor_s unit=ms}
-- Runs `build/chalk ARGS --json` (CHALK overrides the path), takes `key` (dotted
-- paths reach into objects and arrays: hw_ratio.bf16, rows.0.step_s) and prints
-- it with `unit` to `digits` significant figures (default 3), after multiplying
-- by `scale`. A string value (a word: bound, a date) prints as is when no
-- unit, scale or digits is given. A JSON null prints the key's `*_reason` string when `null=reason`
-- is given and stops the build otherwise. A failing command, a missing key, an
-- unknown unit or a bad attribute stops the build, naming the command.
--
-- HTML (the web edition): each number is a span that says how it was computed,
--     <span class="chalk-live" data-chalk="ARGS" data-key="KEY" data-unit="UNIT"
--           data-digits="N" data-scale="X" data-null="reason">VALUE</span>
-- (unit, digits, scale and null only when the chapter gave them), so that the page
-- shows the number with scripts off and a script can run the command again.
--
-- Order: runs before plot.lua, boxes.lua and cards.lua, so numbers inside
-- captions, boxes and cards are already text when those filters move them.
-- Pandoc 2.17 (Lua filters; JSON decoded by util.lua).

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'chalk.lua'
local KNOWN = { key = true, unit = true, digits = true, scale = true, null = true }

-- One inline `...`{.chalk}: the number, as pandoc inlines.
local function number(code)
  local cmd = code.text
  local where = '`' .. cmd .. '`'
  for k, _ in pairs(code.attributes) do
    if not KNOWN[k] then util.fail(WHO, where .. ': unknown attribute "' .. k .. '"') end
  end
  local key = code.attributes.key
  if not key or key == '' then util.fail(WHO, where .. ': needs key=NAME') end
  local unit = code.attributes.unit or ''
  if not util.units[unit] then util.fail(WHO, where .. ': unknown unit "' .. unit .. '"') end
  local digits = 3
  if code.attributes.digits then
    digits = tonumber(code.attributes.digits)
    if not digits or digits < 1 or digits > 15 or digits % 1 ~= 0 then
      util.fail(WHO, where .. ': digits must be a whole number 1..15')
    end
  end
  local scale = 1
  if code.attributes.scale then
    scale = tonumber(code.attributes.scale)
    if not scale then util.fail(WHO, where .. ': scale must be a number') end
  end
  local null = code.attributes.null
  if null and null ~= 'reason' then util.fail(WHO, where .. ': null= takes only "reason"') end

  local json = util.chalk_json(WHO, cmd)
  local v = util.lookup(json, key)
  if v == nil then util.fail(WHO, 'chalk ' .. cmd .. ' --json: no key "' .. key .. '"') end
  if v == util.null then
    local reason = util.lookup(json, key .. '_reason')
    if null == 'reason' and type(reason) == 'string' then return { pandoc.Str(reason) } end
    util.fail(WHO, 'chalk ' .. cmd .. ' --json: "' .. key .. '" is null' ..
      (type(reason) == 'string' and (' (' .. reason .. ')') or '') ..
      (null == 'reason' and '' or '; add null=reason to print the reason'))
  end
  -- a word (bound, cheapest_tier, a preset's date) prints as is, without a unit
  if type(v) == 'string' and unit == '' and not code.attributes.scale and not code.attributes.digits then
    return { pandoc.Str(v) }
  end
  if type(v) ~= 'number' then
    util.fail(WHO, 'chalk ' .. cmd .. ' --json: "' .. key .. '" is not a number' ..
      (type(v) == 'string' and ' (a word prints only without unit, scale or digits)' or ''))
  end
  local text, math = util.format(WHO .. ': ' .. where, v, unit, digits, scale)
  if math then return { pandoc.Math('InlineMath', math) } end
  return { pandoc.Str(text) }
end

-- For HTML: the number in its chalk-live span.
local function live(code, inlines)
  if not util.is_html() then return inlines end
  local attrs = { { 'chalk', code.text } } -- pairs, in this order
  for _, k in ipairs({ 'key', 'unit', 'digits', 'scale', 'null' }) do
    if code.attributes[k] then attrs[#attrs + 1] = { k, code.attributes[k] } end
  end
  return { pandoc.Span(inlines, pandoc.Attr('', { 'chalk-live' }, attrs)) }
end

return {
  {
    Code = function(code)
      if code.classes:includes('chalk') then return live(code, number(code)) end
    end,
  },
}
