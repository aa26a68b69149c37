-- web.lua -- the web edition's page structure, for HTML only (other formats pass
-- through unchanged).
--
-- Consumes what the other filters made for HTML (book/web/README.md, "Hooks"):
--   * a figure: a paragraph holding one image with a caption, of class chalk-plot
--     (plot.lua: data-plot names its JSON spec, and a Div.figure-data with the
--     plotted numbers follows it) or chalk-diagram (diagram.lua, gantt.lua);
--   * inline code `chalk ARGS` and code blocks whose lines run `build/chalk ARGS`.
-- Does:
--   * each figure becomes <figure class="chalk-plot|chalk-diagram" id="fig:ID"
--     data-plot="figures/ID.json"> with the SVG (<img>, its size from the SVG, so
--     the page does not jump as it loads), the numbered caption (<figcaption>) and,
--     for a plot, <details> holding the data table: the figure's text alternative.
--     The image's alt text says what the figure is (a plot of what against what,
--     with which curves; a diagram: its caption);
--   * inline code `chalk ARGS` (a command that runs as written: no NAME or ...
--     placeholder) gets class chalk-cmd and data-chalk=ARGS; a code block with a
--     line `build/chalk ARGS` becomes <pre class="chalk-cmd" data-chalk="ARGS">
--     (its first such command): the hooks a script may open a calculator panel on.
-- Reads the SVGs where util.site_file put them (CHALK_BOOK_SIDE/site/).
--
-- Order: last (after crossref.lua numbered the captions, after cite.lua).
-- Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'web.lua'

local function attr_escape(s)
  return (s:gsub('&', '&amp;'):gsub('"', '&quot;'):gsub('<', '&lt;'):gsub('>', '&gt;'))
end

-- The intrinsic size of an SVG the site holds, in CSS pixels (gnuplot writes
-- width="580", dvisvgm width='468.5pt'): width, height, or nil.
local PX = { [''] = 1, px = 1, pt = 4 / 3 }
local function svg_size(src)
  local dir = os.getenv('CHALK_BOOK_SIDE')
  local text = dir and dir ~= '' and util.read_file(dir .. '/site/' .. src)
  if not text then return nil end
  local head = text:match('<svg.->') or ''
  local function dim(name)
    local v, u = head:match('%s' .. name .. '=["\']([%d.]+)(%a*)["\']')
    return v and PX[u] and tonumber(v) * PX[u]
  end
  local w, h = dim('width'), dim('height')
  if w and h then return math.floor(w + 0.5), math.floor(h + 0.5) end
end

-- The alt text of a plot: what is drawn against what (plot.lua's Div.figure-data
-- says: attributes x, y and series). Labels' $maths$ are read as plain text.
local function plot_alt(data, caption)
  if not data then return 'Plot: ' .. pandoc.utils.stringify(caption) end
  local a = data.attributes
  local function plain(t) return ((t or ''):gsub('%$', '')) end
  local series = plain(a.series)
  return 'Plot of ' .. plain(a.y) .. ' against ' .. plain(a.x) ..
      (series:find(';') and ('; curves: ' .. series:gsub(';', ',')) or '') ..
      '. The numbers are in the table under the figure.'
end

-- The figure label ("Figure 1.4") crossref.lua put first in the caption, or nil.
local function label_of(caption)
  local first = caption[1]
  if first and first.t == 'Str' and first.text == 'Figure' and caption[3] and caption[3].t == 'Str' then
    return 'Figure ' .. caption[3].text:gsub(':$', '')
  end
end

local function figure(img, data)
  local kind = img.classes:includes('chalk-plot') and 'chalk-plot' or 'chalk-diagram'
  local open = '<figure class="' .. kind .. '" id="' .. attr_escape(img.identifier) .. '"'
  if img.attributes.plot then open = open .. ' data-plot="' .. attr_escape(img.attributes.plot) .. '"' end
  local alt = kind == 'chalk-plot' and plot_alt(data, img.caption) or
      ('Diagram: ' .. pandoc.utils.stringify(img.caption):gsub('^Figure [%w.]+:%s*', ''))
  local w, h = svg_size(img.src)
  local out = pandoc.List({
    pandoc.RawBlock('html', open .. '>'),
    pandoc.RawBlock('html', '<img src="' .. attr_escape(img.src) .. '" alt="' .. attr_escape(alt) .. '"' ..
      (w and (' width="' .. w .. '" height="' .. h .. '"') or '') .. ' loading="lazy" decoding="async">'),
    pandoc.RawBlock('html', '<figcaption>'),
    pandoc.Plain(img.caption),
    pandoc.RawBlock('html', '</figcaption>'),
  })
  if data then
    local label = label_of(img.caption)
    out:insert(pandoc.RawBlock('html', '<details class="figure-data"><summary>The numbers' ..
      (label and (' of ' .. label) or '') .. ', as a table</summary>'))
    out:extend(data.content)
    out:insert(pandoc.RawBlock('html', '</details>'))
  end
  out:insert(pandoc.RawBlock('html', '</figure>'))
  return out
end

local function figure_image(b)
  if b.t ~= 'Para' or #b.content ~= 1 then return nil end
  local img = b.content[1]
  if img.t == 'Image' and (img.classes:includes('chalk-plot') or img.classes:includes('chalk-diagram')) then return img end
end

-- ARGS of a chalk command that runs as written, or nil (placeholders: NAME, ..., R).
local function runnable(args)
  if args:match('%.%.%.') or args:match('%f[%w]%u%u+%f[^%w]') or args:match('%f[%w]%u%f[^%w]') then return nil end
  return args
end

local function blocks(list)
  local out, i = pandoc.List(), 1
  while i <= #list do
    local b = list[i]
    local img = figure_image(b)
    if img then
      local nxt = list[i + 1]
      local data = nxt and nxt.t == 'Div' and nxt.classes:includes('figure-data') and nxt or nil
      out:extend(figure(img, data))
      i = i + (data and 2 or 1)
    else
      if b.t == 'CodeBlock' then
        local first
        for line in b.text:gmatch('[^\n]+') do
          first = first or line:match('^%s*build/chalk%s+(.-)%s*$')
        end
        if first and runnable(first) then
          b.classes:insert('chalk-cmd')
          b.attributes.chalk = first
        end
      end
      out:insert(b)
      i = i + 1
    end
  end
  return out
end

return {
  {
    Blocks = function(list)
      if util.is_html() then return blocks(list) end
    end,
    Code = function(c)
      if not util.is_html() or #c.classes > 0 then return nil end
      local args = c.text:match('^chalk%s+(.+)$')
      if args and runnable(args) then
        return pandoc.Code(c.text, pandoc.Attr('', { 'chalk-cmd' }, { { 'chalk', args } }))
      end
    end,
  },
}
