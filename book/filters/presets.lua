-- presets.lua -- the appendix tables, generated from the library's presets.
--
-- Consumes (book/appendix.md):
--     ::: {.presets #tbl:hw-compute table=hw-compute}
--     Caption of the table.
--     :::
-- with table= one of
--     hw-compute  per chip: peak TFLOP/s at bf16/fp8/fp4, HBM GB and TB/s, and the
--                 derived ridge (FLOP/s / HBM bytes/s, FLOPs per byte, at bf16 or the
--                 widest precision the chip has) and drain time (HBM / bandwidth)
--     hw-network  scale-up and scale-out GB/s, scale-up domain, USD per chip-hour
--                 and where the price comes from
--     models      parameters total and active (billions), sparsity, layers, width (d_model),
--                 attention, KV cache bytes per token and weight bytes at bf16
--     sources     every preset (hardware, then models) with its source
-- The data come from `chalk list hw --json` and `chalk list models --json`
-- (CHALK overrides build/chalk), so the tables are the presets lib/ holds.
-- The div's paragraph becomes the caption; the div's id (tbl:...) is kept for
-- crossref.lua. For LaTeX the table is set in \footnotesize (\chalktablefont), and
-- each preset's name in hw-compute and models is indexed, under its name and under
-- "presets" (book/filters/index.lua has the rest of the index).
-- Stops the build on an unknown table, a missing caption or a
-- failing chalk.
--
-- Order: before crossref.lua (which numbers the tables). Pandoc 2.17
-- (pandoc.SimpleTable and pandoc.utils.from_simple_table).

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'presets.lua'

local function cell(text)
  if text == nil or text == util.null then text = '–' end
  return { pandoc.Plain(pandoc.read(tostring(text), 'markdown').blocks[1] and
    pandoc.read(tostring(text), 'markdown').blocks[1].content or { pandoc.Str(tostring(text)) }) }
end

local function plain(text)
  if text == nil or text == util.null then text = '–' end
  return { pandoc.Plain({ pandoc.Str(tostring(text)) }) }
end

-- A preset's name, indexed (LaTeX): under its own name and under "presets, KIND"
-- (makeindex's special characters " @ ! | quoted with ").
local function indexed(name, kind)
  local cell = plain(name)
  if util.is_latex() and type(name) == 'string' then
    local q = name:gsub('(["@!|])', '"%1')
    local shown = util.latex_of({ pandoc.Code(name) })
    cell[1].content:insert(pandoc.RawInline('latex', '\\index{' .. q .. '@' .. shown .. '}' ..
      '\\index{presets!' .. kind .. '!' .. q .. '@' .. shown .. '}'))
  end
  return cell
end

local function num(v, div, digits)
  if type(v) ~= 'number' then return '–' end
  return util.sig(v / (div or 1), digits or 3)
end

local DTYPES = { 'bf16', 'fp8', 'fp4' }

local function ridge(h)
  for _, d in ipairs({ 'bf16', 'fp8', 'int8', 'fp4' }) do
    local f = h.flops_per_s[d]
    if type(f) == 'number' then
      return util.sig(f / h.hbm_bytes_per_s, 3) .. (d == 'bf16' and '' or (' (' .. d .. ')'))
    end
  end
  return '–'
end

local function attention(m)
  if m.attn == 'mla' then return 'MLA, rank ' .. tostring(m.kv_lora_rank) end
  if m.kv_heads == 1 then return 'MQA' end
  if m.kv_heads == m.heads then return 'MHA, ' .. m.heads .. ' heads' end
  return 'GQA, ' .. tostring(m.kv_heads) .. ' KV heads'
end

local TABLES = {
  ['hw-compute'] = {
    data = 'hw',
    head = { 'preset', 'bf16 TFLOP/s', 'fp8 TFLOP/s', 'fp4 TFLOP/s', 'HBM GB', 'HBM TB/s', 'ridge FLOP/B', 'drain ms' },
    widths = { 0.16, 0.115, 0.115, 0.115, 0.09, 0.09, 0.15, 0.09 },
    row = function(h)
      local r = { indexed(h.name, 'hardware') }
      for _, d in ipairs(DTYPES) do r[#r + 1] = plain(num(h.flops_per_s[d], 1e12)) end
      r[#r + 1] = plain(num(h.hbm_bytes, 1e9))
      r[#r + 1] = plain(num(h.hbm_bytes_per_s, 1e12))
      r[#r + 1] = plain(ridge(h))
      r[#r + 1] = plain(num(h.hbm_drain_s, 1e-3))
      return r
    end,
  },
  ['hw-network'] = {
    data = 'hw',
    head = { 'preset', 'chip', 'scale-up', 'scale-out', 'domain', 'USD/h', 'price from' },
    widths = { 0.14, 0.36, 0.09, 0.09, 0.09, 0.08, 0.15 },
    row = function(h)
      local price = type(h.usd_per_chip_hour) == 'number' and util.format(WHO, h.usd_per_chip_hour, 'USD', 3) or '–'
      local title = h.title
      if h.preliminary and not title:lower():match('preliminary') then title = title .. ' (preliminary)' end
      return { plain(h.name), plain(title),
        plain(num(h.scaleup_bytes_per_s, 1e9)), plain(num(h.scaleout_bytes_per_s, 1e9)),
        plain(num(h.scaleup_domain_chips, 1, 6)), plain(price),
        plain(type(h.price_source) == 'string' and h.price_source or '–') }
    end,
  },
  models = {
    data = 'models',
    head = { 'preset', 'params (B)', 'active (B)', 'sparsity', 'layers', 'width', 'attention', 'KV KB per token', 'weights GB' },
    -- widths (of the text width less the column gaps) that hold each column's longest
    -- word and value on one line at \\footnotesize: chinchilla-70b 54 pt, "GQA, 8 KV heads"
    -- 70 pt, "sparsity" 31 pt, of 334 pt
    widths = { 0.18, 0.09, 0.07, 0.095, 0.07, 0.08, 0.23, 0.075, 0.095 },
    row = function(m)
      return { indexed(m.name, 'models'), plain(num(m.params_total, 1e9)), plain(num(m.params_active, 1e9)),
        plain(num(m.sparsity, 1, 3)), plain(num(m.layers, 1, 6)), plain(num(m.d_model, 1, 6)),
        plain(attention(m)), plain(num(m.kv_bytes_per_token, 1e3)),
        plain(num(m.params_total * m.bytes_per_param, 1e9)) }
    end,
  },
  sources = {
    data = 'both',
    head = { 'preset', 'source' },
    widths = { 0.2, 0.8 },
    row = function(p) return { plain(p.name), cell(p.source) } end,
  },
}

local data = {}
local function presets(kind)
  if not data[kind] then data[kind] = util.chalk_json(WHO, 'list ' .. kind) end
  if type(data[kind]) ~= 'table' or #data[kind] == 0 then
    util.fail(WHO, 'chalk list ' .. kind .. ' --json gave no presets')
  end
  return data[kind]
end

local function make(div)
  local name = div.attributes.table
  local spec = TABLES[name or '']
  if not spec then
    util.fail(WHO, '::: {.presets table=' .. tostring(name) ..
      '}: table must be hw-compute, hw-network, models or sources')
  end
  local cap = div.content[1]
  if #div.content ~= 1 or not (cap.t == 'Para' or cap.t == 'Plain') then
    util.fail(WHO, 'table ' .. name .. ': the div holds one paragraph, the caption')
  end
  local items = {}
  if spec.data == 'both' then
    for _, p in ipairs(presets('hw')) do items[#items + 1] = p end
    for _, p in ipairs(presets('models')) do items[#items + 1] = p end
  else
    items = presets(spec.data)
  end
  local rows = {}
  for _, p in ipairs(items) do rows[#rows + 1] = spec.row(p) end
  local head, aligns = {}, {}
  for k, h in ipairs(spec.head) do
    head[k] = plain(h)
    aligns[k] = (k == 1 or h == 'chip' or h == 'attention' or h == 'source' or h == 'price from')
        and pandoc.AlignLeft or pandoc.AlignRight
  end
  local t = pandoc.utils.from_simple_table(pandoc.SimpleTable(cap.content, aligns, spec.widths, head, rows))
  t.attr = pandoc.Attr(div.identifier, {}, {})
  if util.is_latex() then
    -- wide tables in footnote size (the template's \\chalktablefont), on a new page
    -- unless the caption, the header and a few rows fit on this one
    return { pandoc.RawBlock('latex', '\\needspace{12\\baselineskip}\\begingroup\\renewcommand{\\chalktablefont}{\\footnotesize}'),
      t, pandoc.RawBlock('latex', '\\endgroup') }
  end
  return t
end

return {
  {
    Div = function(div)
      if div.classes:includes('presets') then return make(div) end
    end,
  },
}
