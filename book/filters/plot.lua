-- plot.lua -- plot blocks become numbered figures drawn by gnuplot from a chalk sweep.
--
-- Consumes (book/README.md, "Figures: plot blocks"):
--     ```{.plot #fig:ID x=batch y="compute_s:compute,step_s:step time"
--          xlabel="batch (sequences per step)" ylabel="time per step" yunit=ms
--          logx=true mark="balance-batch ... -> balance_batch" marklabel="balance batch"}
--     decode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 16:16384 --context 256
--     ```
--
--     Caption: what the figure shows ...
-- The block's text is a chalk command that sweeps one variable. It runs with
-- --csv; the columns in `y` (each `column:legend label`) are drawn against the
-- column `x`. `xunit`/`yunit` scale an axis like the inline units and append
-- "(unit)" to its label; `logx`/`logy` (true/false) make it logarithmic;
-- `mark` draws a vertical dashed line at the value `chalk CMD --json` gives for
-- KEY, labelled "marklabel = value" (the value in `markunit`, default `xunit`, e.g.
-- markunit=int for 7,971), in a colour no curve has; several marks are separated
-- by ";" (up to 3, their labels likewise). `{chalk CMD -> KEY}` in the command adds
-- that computed value to a sweep (`--batch 0:12000:61:linear,{chalk ... -> key}`),
-- so an exact knee is a point of the curve. Labels, legends and axis titles may
-- hold $maths$ ($r \cdot s$, $L^*$, $N_\text{total}$): letters italic, scripts
-- raised or lowered, as gnuplot's enhanced text; `legend` places the key (gnuplot words,
-- e.g. "top left", "bottom right"; default top left). The last series in `y`
-- is drawn as the thick black result line, the others as coloured, dashed
-- components (distinct in greyscale too). The next paragraph, which must start
-- with "Caption:", becomes the caption.
-- Files: BUILD/plots/ID.{csv,dat,gp}, where BUILD is the metadata field
-- build-dir (default build/book); the drawing is CACHE/plots/SHA1.pdf, SHA1 of the
-- script (its paths left out) and the data, CACHE the metadata field cache-dir
-- (book/build.sh: build/cache; default BUILD/cache), so an unchanged plot is not
-- drawn again, in either edition. The figure is an image at the text width; the
-- plot is drawn at that size (14 cm) in P052 (Palatino) so that type prints at 9 pt
-- (pdfcairo draws a font of size S at 4/3 S points, so the script asks for 6.75).
-- HTML (the web edition): the same script with gnuplot's svg terminal (type in
-- Palatino or the reader's serif, sized for a 720-pixel figure), cached as
-- CACHE/plots/SHA1.svg; after the figure, a Div.figure-data holding the plotted data
-- as a table (its text alternative); and beside the SVG a JSON spec,
-- figures/ID.json (the image's data-plot attribute), that says how the figure was
-- computed: the command, the x and y columns with their labels, units and scales,
-- the marks, and the parameters a reader may change. Those are the block's
-- `move` attribute, for a figure the text invites the reader to move: flags of the
-- command separated by ";", each FLAG (from a tenth to ten times the command's
-- value, on a log scale when the value is positive) or FLAG:MIN:MAX[:log].
-- Stops the build on: a missing id or caption, an id not starting with fig:,
-- an unknown attribute or column, a column with no numbers, a failing chalk
-- or gnuplot.
--
-- Order: after chalk.lua (live numbers in the caption), before crossref.lua
-- (which numbers the figure). Pandoc 2.17; gnuplot 5 with the pdfcairo terminal.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'plot.lua'
local KNOWN = { x = true, y = true, xlabel = true, ylabel = true, xunit = true, yunit = true,
  logx = true, logy = true, mark = true, marklabel = true, markunit = true, legend = true,
  move = true }
local COLOURS = { '#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00' }
-- The marks' colours: none of them is a curve's (purple, brown, dark grey).
local MARK_COLOURS = { '#7B3294', '#8C510A', '#4D4D4D' }
local WIDTH_CM, HEIGHT_CM = 14, 8.2
local FONT = 6.75 -- prints at 9 pt
-- A lecture deck (book/slides/): drawn at the frame's size with 10 pt type, which is
-- 21 pt on a 13.33-inch slide; the deck includes it unscaled.
if FORMAT == 'beamer' then WIDTH_CM, HEIGHT_CM, FONT = 14, 6.2, 7.5 end
-- The web edition's figure: the PDF's proportions (type 1/44 of the width), in
-- pixels; the page scales it to its column.
local WEB_WIDTH_PX, WEB_HEIGHT_PX = 580, 340
local WEB_FONTS = 'Palatino Linotype,Palatino,Book Antiqua,P052,serif'

local builddir = 'build/book'
local cachedir = 'build/book/cache'

-- A string for a gnuplot script, in double quotes.
local function gq(s)
  return '"' .. s:gsub('\\', '\\\\'):gsub('"', '\\"') .. '"'
end

-- ---- text: plain, or with $maths$ as gnuplot's enhanced text ----------------------

local GREEK = { alpha = 'α', beta = 'β', gamma = 'γ', delta = 'δ', epsilon = 'ε', eta = 'η',
  theta = 'θ', kappa = 'κ', lambda = 'λ', mu = 'μ', rho = 'ρ', sigma = 'σ', tau = 'τ',
  phi = 'φ', psi = 'ψ', omega = 'ω' }
local SYMBOLS = { cdot = '·', times = '×', infty = '∞', [','] = ' ', [' '] = ' ' }

-- A literal for enhanced text: its special characters escaped.
local function literal(t)
  return (t:gsub('[%^_@&~{}\\]', '\\%0'))
end

-- LaTeX maths (the subset a label needs: letters, Greek, \text{}, ^, _, \cdot)
-- as enhanced text: letters italic, \text upright, scripts raised or lowered.
local function maths(m, id)
  local out, i = {}, 1
  local group
  group = function(j) -- the argument at j: {...}, a command or one character; text, next index
    if m:sub(j, j) == '{' then
      local depth, k = 0, j
      repeat
        local c = m:sub(k, k)
        if c == '{' then depth = depth + 1 elseif c == '}' then depth = depth - 1 end
        k = k + 1
      until depth == 0 or k > #m
      if depth ~= 0 then util.fail(WHO, id .. ': unbalanced braces in $' .. m .. '$') end
      return m:sub(j + 1, k - 2), k
    end
    if m:sub(j, j) == '\\' then -- a command: \kappa, or \text{...} with its argument
      local name = m:match('^%a+', j + 1) or m:sub(j + 1, j + 1)
      local k = j + 1 + #name
      if (name == 'text' or name == 'mathrm') and m:sub(k, k) == '{' then
        local _, after = group(k)
        k = after
      end
      return m:sub(j, k - 1), k
    end
    return m:sub(j, j), j + 1
  end
  while i <= #m do
    local c = m:sub(i, i)
    if c == '\\' then
      local name = m:match('^%a+', i + 1) or m:sub(i + 1, i + 1)
      i = i + 1 + #name
      if name == 'text' or name == 'mathrm' then
        local arg
        arg, i = group(i)
        out[#out + 1] = literal(arg)
      elseif GREEK[name] then
        out[#out + 1] = '{/:Italic ' .. GREEK[name] .. '}'
      elseif SYMBOLS[name] then
        out[#out + 1] = SYMBOLS[name]
      else
        util.fail(WHO, id .. ': \\' .. name .. ' in $' .. m .. '$ is not a symbol plot labels know')
      end
    elseif c == '^' or c == '_' then
      local arg
      arg, i = group(i + 1)
      out[#out + 1] = c .. '{' .. maths(arg, id) .. '}'
    elseif c:match('%a') then
      local run = m:match('^%a+', i)
      out[#out + 1] = '{/:Italic ' .. run .. '}'
      i = i + #run
    elseif c:match('%s') then
      i = i + 1 -- spaces in maths are TeX's to decide: none
    else
      out[#out + 1] = literal(c)
      i = i + 1
    end
  end
  return table.concat(out)
end

-- A label for gnuplot: the quoted string and the keyword that goes with it,
-- "enhanced" when the text holds $maths$, else "noenhanced" (printed as written).
local function label_text(t, id)
  if not t:find('%$') then return gq(t), 'noenhanced' end
  local out, pos = {}, 1
  while true do
    local a, b, m = t:find('%$([^$]*)%$', pos)
    if not a then break end
    out[#out + 1] = literal(t:sub(pos, a - 1))
    out[#out + 1] = maths(m, id)
    pos = b + 1
  end
  if t:find('%$', pos) then util.fail(WHO, id .. ': an unclosed $ in "' .. t .. '"') end
  out[#out + 1] = literal(t:sub(pos))
  return gq(table.concat(out)), 'enhanced'
end

-- The value of `chalk CMD --json` at KEY, for a mark or a point added to a sweep.
local function chalk_value(id, spec, what)
  local cmd, key = spec:match('^%s*(.-)%s*%->%s*([%w_.]+)%s*$')
  if not cmd then util.fail(WHO, id .. ': ' .. what .. ' must be "chalk command -> key"') end
  local json = util.chalk_json(WHO .. ': ' .. id, cmd)
  local v = util.lookup(json, key)
  if type(v) ~= 'number' then
    local reason = util.lookup(json, key .. '_reason')
    util.fail(WHO, id .. ': chalk ' .. cmd .. ' --json: "' .. key .. '" is not a number' ..
      (type(reason) == 'string' and (' (' .. reason .. ')') or ''))
  end
  return v
end

local function bool(v, name, id)
  if v == nil or v == 'false' then return false end
  if v == 'true' then return true end
  util.fail(WHO, id .. ': ' .. name .. ' must be true or false')
end

local function axis_label(text, unit, id)
  if unit and not util.units[unit] then util.fail(WHO, id .. ': unknown unit "' .. unit .. '"') end
  local u = unit and util.unit_label(unit)
  return text .. (u and (' (' .. u .. ')') or '')
end

local SUPERSCRIPT = { ['-'] = '⁻', ['0'] = '⁰', ['1'] = '¹', ['2'] = '²', ['3'] = '³',
  ['4'] = '⁴', ['5'] = '⁵', ['6'] = '⁶', ['7'] = '⁷', ['8'] = '⁸', ['9'] = '⁹' }

-- A tic label: 1,024 or 0.01, or 10⁷ when the number is large or small.
local function tic_label(t)
  if t >= 1e6 or t < 1e-3 then
    local e = math.floor(math.log(t, 10) + 0.5)
    if math.abs(t / 10 ^ e - 1) < 1e-9 then
      return '10' .. tostring(e):gsub('.', SUPERSCRIPT)
    end
  end
  return util.sig(t, 6)
end

-- Tics for a log axis from lo to hi: on x, powers of 2 (every 4x) for narrow
-- ranges, else powers of 10; on y always powers of 10. Labels from tic_label.
local function log_tics(lo, hi, axis)
  local tics = {}
  local base = (axis == 'x' and hi / lo <= 2 ^ 18) and 4 or 10
  local start = base ^ math.floor(math.log(lo, base) + 1e-9)
  if base == 4 and lo / start >= 2 - 1e-9 then start = start * 2 end
  local t = start
  while t <= hi * (1 + 1e-9) do
    if t >= lo * (1 - 1e-9) then tics[#tics + 1] = gq(tic_label(t)) .. ' ' .. string.format('%.17g', t) end
    t = t * base
  end
  if #tics < 2 then return nil end
  return 'set ' .. axis .. 'tics (' .. table.concat(tics, ', ') .. ')'
end

-- Tics for a linear axis from lo to hi, every 1, 2 or 5 times a power of ten
-- (at most 7 intervals), labelled with thousands separators (2,000, not 2000).
local function linear_tics(lo, hi, axis)
  local span = hi - lo
  if span <= 0 then return nil end
  local p = 10 ^ math.floor(math.log(span / 7, 10))
  local step
  for _, m in ipairs({ 1, 2, 5, 10 }) do
    if span / (m * p) <= 7 then step = m * p; break end
  end
  local tics, t = {}, math.ceil(lo / step - 1e-9) * step
  while t <= hi + step * 1e-9 do
    tics[#tics + 1] = gq(util.sig(t, 6)) .. ' ' .. string.format('%.10g', t)
    t = t + step
  end
  if #tics < 2 then return nil end
  return 'set ' .. axis .. 'tics (' .. table.concat(tics, ', ') .. ')'
end

local function write(path, text)
  local f = io.open(path, 'w')
  if not f then util.fail(WHO, 'cannot write ' .. path) end
  f:write(text)
  f:close()
end

-- ---- the web edition: the figure's data and its JSON spec ----------------------------

-- The parameters a reader may change (the block's `move`): FLAG or FLAG:MIN:MAX[:log].
local function controls_of(id, move, cmd)
  local out = util.json_array({})
  for item in (move .. ';'):gmatch('(.-);') do
    item = item:match('^%s*(.-)%s*$')
    if item ~= '' then
      local flag, rest = item:match('^(%-%-[%w-]+)(.*)$')
      if not flag then util.fail(WHO, id .. ': move takes flags (--context;--batch:1:4096:log), not "' .. item .. '"') end
      local value = cmd:match('%s' .. flag:gsub('%-', '%%-') .. '%s+(%S+)')
      if not value then util.fail(WHO, id .. ': move names ' .. flag .. ', which the command does not set') end
      local c = { flag = flag, value = value }
      local lo, hi, scale = rest:match('^:([^:]+):([^:]+):?(%a*)$')
      local v = tonumber(value)
      if lo then
        c.min, c.max = tonumber(lo), tonumber(hi)
        if not c.min or not c.max or c.min >= c.max then util.fail(WHO, id .. ': move ' .. item .. ': MIN:MAX must be numbers, MIN < MAX') end
        c.log = scale == 'log'
      elseif rest ~= '' then
        util.fail(WHO, id .. ': move ' .. item .. ': want FLAG or FLAG:MIN:MAX[:log]')
      elseif v then
        c.min, c.max, c.log = v > 0 and v / 10 or v - 10, v > 0 and v * 10 or v + 10, v > 0
      else
        util.fail(WHO, id .. ': move ' .. flag .. ': the command\'s value "' .. value .. '" is not a number; give FLAG:MIN:MAX')
      end
      out[#out + 1] = c
    end
  end
  return out
end

-- The JSON spec beside the SVG (book/web/README.md, "Hooks").
local function web_spec(cb, cmd, series, marks, ax)
  local a = cb.attributes
  local ys = {}
  for k, s in ipairs(series) do
    ys[k] = { key = s.col, label = s.label, role = k == #series and 'result' or 'component',
      colour = k == #series and '#000000' or COLOURS[(k - 1) % #COLOURS + 1] }
  end
  return util.json_encode({
    id = cb.identifier,
    source = (cb.text:gsub('%s+', ' '):gsub('^ ', ''):gsub(' $', '')),
    command = cmd,
    x = { key = a.x, label = ax.xlabel, unit = a.xunit or '', divide_by = ax.xdiv, log = ax.logx },
    y = { label = ax.ylabel, unit = a.yunit or '', divide_by = ax.ydiv, log = ax.logy },
    series = ys,
    marks = util.json_array(marks),
    legend = a.legend or 'top left',
    rows = #ax.rows,
    controls = util.json_array(a.move and controls_of(cb.identifier, a.move, cmd) or {}),
  }) .. '\n'
end

-- The plotted numbers as a table (the figure's text alternative): x and each
-- series, in the axes' units, x to 6 and y to 4 significant figures; a number too
-- large or small for digits alone as 6.71×10¹¹. Written as compact raw HTML (a
-- sweep has hundreds of cells; equations in the labels stay TeX for KaTeX), in a
-- Div.figure-data that says the y axis's label and the series (web.lua's alt text).
local function html_escape(s)
  return (s:gsub('&', '&amp;'):gsub('<', '&lt;'):gsub('>', '&gt;'):gsub('"', '&quot;'))
end
local function html_label(t) -- "text $maths$ text": maths as KaTeX's input spans
  local out, pos = {}, 1
  while true do
    local a, b, m = t:find('%$([^$]*)%$', pos)
    if not a then break end
    out[#out + 1] = html_escape(t:sub(pos, a - 1)) .. '<span class="math inline">' .. html_escape(m) .. '</span>'
    pos = b + 1
  end
  out[#out + 1] = html_escape(t:sub(pos))
  return table.concat(out)
end
local SUPER = { ['-'] = '⁻', ['0'] = '⁰', ['1'] = '¹', ['2'] = '²', ['3'] = '³',
  ['4'] = '⁴', ['5'] = '⁵', ['6'] = '⁶', ['7'] = '⁷', ['8'] = '⁸', ['9'] = '⁹' }
local function cell_number(v, digits)
  if not v then return '–' end
  local text, m = util.format(WHO, v, '', digits)
  if text then return text end
  local mant, e = m:match('^(.-)\\times10%^{(%-?%d+)}$')
  return mant .. '×10' .. e:gsub('.', SUPER)
end
local function data_table(series, rows, a, xlabel, ylabel, xdiv, ydiv)
  local u = a.yunit and util.unit_label(a.yunit)
  local out = { '<table class="figure-numbers">', '<thead><tr><th>' .. html_label(xlabel) }
  local names = {}
  for _, s in ipairs(series) do
    out[#out + 1] = '<th>' .. html_label(s.label .. (u and (' (' .. u .. ')') or ''))
    names[#names + 1] = s.label
  end
  out[#out + 1] = '</tr></thead><tbody>'
  for _, r in ipairs(rows) do
    local row = { '<tr><td>' .. cell_number(tonumber(r[a.x]) / xdiv, 6) }
    for _, s in ipairs(series) do
      local y = tonumber(r[s.col])
      row[#row + 1] = '<td>' .. cell_number(y and y / ydiv, 4)
    end
    out[#out + 1] = table.concat(row)
  end
  out[#out + 1] = '</tbody></table>'
  return { pandoc.Div({ pandoc.RawBlock('html', table.concat(out, '\n')) }, pandoc.Attr('', { 'figure-data' },
    { { 'x', xlabel }, { 'y', ylabel }, { 'series', table.concat(names, '; ') } })) }
end

-- Draws the figure; returns the PDF's path (for HTML: the SVG's, the image's
-- attributes and the data table).
local function draw(cb)
  local id = cb.identifier
  if id == '' then util.fail(WHO, 'a .plot block needs an id: {.plot #fig:NAME ...}') end
  if not id:match('^fig:') then util.fail(WHO, id .. ': a plot id must start with fig:') end
  local a = cb.attributes
  for k, _ in pairs(a) do
    if not KNOWN[k] then util.fail(WHO, id .. ': unknown attribute "' .. k .. '"') end
  end
  if not a.x or not a.y then util.fail(WHO, id .. ': needs x=COLUMN and y="COLUMN:label,..."') end
  local logx, logy = bool(a.logx, 'logx', id), bool(a.logy, 'logy', id)
  local xdiv = a.xunit and util.units[a.xunit] and util.units[a.xunit].div or 1
  local ydiv = a.yunit and util.units[a.yunit] and util.units[a.yunit].div or 1
  local xlabel = axis_label(a.xlabel or a.x, a.xunit, id)
  local ylabel = axis_label(a.ylabel or '', a.yunit, id)

  local series = {}
  for item in a.y:gmatch('[^,]+') do
    local col, label = item:match('^%s*([%w_]+)%s*:%s*(.-)%s*$')
    if not col then col, label = item:match('^%s*([%w_]+)%s*$'), nil end
    if not col then util.fail(WHO, id .. ': bad y entry "' .. item .. '" (want column:label)') end
    series[#series + 1] = { col = col, label = label or col }
  end

  local cmd = cb.text:gsub('%s+', ' '):gsub('^ ', ''):gsub(' $', '')
  -- a computed point in the sweep: {chalk CMD -> key} becomes the value, all digits
  cmd = cmd:gsub('(%b{})', function(span)
    local spec = span:match('^{chalk%s+(.*)}$')
    if not spec then return nil end
    return string.format('%.17g', chalk_value(id, spec, 'a {chalk ...} point'))
  end)
  local csv = util.run_chalk(WHO .. ': ' .. id, cmd, '--csv')
  local ok, header, rows = pcall(util.parse_csv, csv)
  if not ok then util.fail(WHO, id .. ': chalk ' .. cmd .. ' --csv: ' .. header) end
  local have = {}
  for _, h in ipairs(header) do have[h] = true end
  for _, c in ipairs({ a.x, table.unpack((function()
    local t = {}
    for _, s in ipairs(series) do t[#t + 1] = s.col end
    return t
  end)()) }) do
    if not have[c] then
      util.fail(WHO, id .. ': chalk ' .. cmd .. ' --csv has no column "' .. c ..
        '"; it has: ' .. table.concat(header, ' '))
    end
  end
  if #rows < 2 then util.fail(WHO, id .. ': chalk ' .. cmd .. ' gave ' .. #rows .. ' row(s); a plot needs a sweep') end

  local lines, xmin, xmax, ymin, ymax = {}, math.huge, -math.huge, math.huge, -math.huge
  local counts = {}
  for _, r in ipairs(rows) do
    local x = tonumber(r[a.x])
    if not x then util.fail(WHO, id .. ': column ' .. a.x .. ' holds "' .. r[a.x] .. '", not a number') end
    x = x / xdiv
    xmin, xmax = math.min(xmin, x), math.max(xmax, x)
    local f = { string.format('%.10g', x) }
    for k, s in ipairs(series) do
      local y = tonumber(r[s.col])
      if y then
        counts[k] = (counts[k] or 0) + 1
        f[#f + 1] = string.format('%.10g', y / ydiv)
        if y > 0 then ymin, ymax = math.min(ymin, y / ydiv), math.max(ymax, y / ydiv) end
      else f[#f + 1] = 'NaN' end
    end
    lines[#lines + 1] = table.concat(f, ' ')
  end
  for k, s in ipairs(series) do
    if not counts[k] then
      local reason = rows[1][s.col .. '_reason']
      util.fail(WHO, id .. ': column ' .. s.col .. ' has no numbers' ..
        ((reason and reason ~= '') and (' (' .. reason .. ')') or ''))
    end
  end

  local base = builddir .. '/plots/' .. id:gsub('[^%w_-]', '-')
  os.execute('mkdir -p ' .. util.shell_quote(builddir .. '/plots'))
  write(base .. '.csv', csv)
  local dat = '# ' .. a.x .. ' ' .. table.concat((function()
    local t = {}
    for _, s in ipairs(series) do t[#t + 1] = s.col end
    return t
  end)(), ' ') .. '\n' .. table.concat(lines, '\n') .. '\n'
  write(base .. '.dat', dat)

  local ext = util.is_html() and '.svg' or '.pdf'
  local gp = {
    'set encoding utf8',
    util.is_html() and string.format('set terminal svg size %d,%d font "%s,13" linewidth 1.2 rounded enhanced background "#ffffff"',
      WEB_WIDTH_PX, WEB_HEIGHT_PX, WEB_FONTS) or
    string.format('set terminal pdfcairo size %gcm,%gcm font "P052,%g" fontscale 1 linewidth 1 rounded enhanced', WIDTH_CM, HEIGHT_CM, FONT),
    'set output ' .. gq(base .. ext),
    'set border 3 lw 0.8',
    'set tics nomirror out scale 0.6',
    'set grid xtics ytics lw 0.4 lc rgb "#d9d9d9" dt 1',
    'set xlabel ' .. table.concat({ label_text(xlabel, id) }, ' '),
    'set ylabel ' .. table.concat({ label_text(ylabel, id) }, ' '),
    'set key ' .. (a.legend or 'top left') .. ' reverse Left samplen 3 spacing 1.15 box lw 0.5 lc rgb "#999999" opaque',
    'set offsets 0, 0, graph 0.05, 0',
    'set format y "%g"',
    'set xrange [' .. string.format('%.10g', xmin) .. ':' .. string.format('%.10g', xmax) .. ']',
  }
  if a.legend and not a.legend:match('^[%a ]+$') then util.fail(WHO, id .. ': legend takes gnuplot words only') end
  if logx then
    gp[#gp + 1] = 'set logscale x'
    local tics = log_tics(xmin, xmax, 'x')
    if tics then gp[#gp + 1] = tics end
  else
    gp[#gp + 1] = 'set format x "%g"'
    if xmax >= 1000 then
      local tics = linear_tics(xmin, xmax, 'x')
      if tics then gp[#gp + 1] = tics end
    end
  end
  if logy then
    gp[#gp + 1] = 'set logscale y'
    -- tics from the decade below the smallest value to the one above the largest
    if ymin > 0 and ymax > 0 then
      local tics = log_tics(10 ^ math.floor(math.log(ymin, 10) + 1e-9), 10 ^ math.ceil(math.log(ymax, 10) - 1e-9), 'y')
      if tics then gp[#gp + 1] = tics end
    end
  else
    gp[#gp + 1] = 'set yrange [0:*]'
  end

  -- tic labels are printed as written (2,000; 10⁷)
  gp[#gp + 1] = 'set xtics noenhanced'
  gp[#gp + 1] = 'set ytics noenhanced'

  -- marks: a vertical line at each value, in a colour no curve has, labelled
  -- "marklabel = value" (several separated by ";", labels likewise)
  local marks = {}
  if a.mark then
    local labels = {}
    for l in ((a.marklabel or '') .. ';'):gmatch('(.-);') do labels[#labels + 1] = l:match('^%s*(.-)%s*$') end
    local k = 0
    for spec in (a.mark .. ';'):gmatch('(.-);') do
      if spec:match('%S') then
        k = k + 1
        if k > #MARK_COLOURS then util.fail(WHO, id .. ': at most ' .. #MARK_COLOURS .. ' marks') end
        local v = chalk_value(id, spec, 'mark')
        local mx = v / xdiv
        local shown = util.format(WHO, v, a.markunit or a.xunit or '', 3)
        local name = labels[k] or ''
        local text, mode = label_text((name ~= '' and (name .. ' = ') or '') .. (shown or util.sig(mx, 3)), id)
        -- the label goes on the side of the line with more room
        local frac
        if logx then frac = math.log(mx / xmin) / math.log(xmax / xmin) else frac = (mx - xmin) / (xmax - xmin) end
        local colour = MARK_COLOURS[k]
        local mcmd, mkey = spec:match('^%s*(.-)%s*%->%s*([%w_.]+)%s*$')
        marks[#marks + 1] = { command = mcmd, key = mkey, label = name, value = v,
          unit = a.markunit or a.xunit or '', colour = colour }
        gp[#gp + 1] = string.format('set arrow from %.10g, graph 0 to %.10g, graph 1 nohead lw 1.6 dt (6,4) lc rgb "%s" front', mx, mx, colour)
        -- at the top, unless the key sits at the top right: then at the bottom, clear of it
        local key_at = a.legend or 'top left'
        local bottom = key_at:match('top') and key_at:match('right')
        local y = bottom and (0.04 + 0.07 * (k - 1)) or (0.97 - 0.07 * (k - 1))
        gp[#gp + 1] = string.format('set label %s %s at %.10g, graph %g %s offset %s,0 tc rgb "%s" front',
          text, mode, mx, y, frac > 0.75 and "right" or "left", frac > 0.75 and "-0.6" or "0.6", colour)
      end
    end
  end

  local plots = {}
  for k, s in ipairs(series) do
    local style
    if k == #series then
      style = 'lw 3 lc rgb "#000000" dt 1'
    else
      style = string.format('lw 1.8 lc rgb "%s" dt %d', COLOURS[(k - 1) % #COLOURS + 1], (k - 1) % 4 + 2)
    end
    local title, mode = label_text(s.label, id)
    plots[#plots + 1] = string.format('%s using 1:%d with lines %s title %s %s',
      k == 1 and gq(base .. '.dat') or '""', k + 1, style, title, mode)
  end
  gp[#gp + 1] = 'plot ' .. table.concat(plots, ', \\\n     ')
  local script = table.concat(gp, '\n') .. '\n'
  write(base .. '.gp', script)
  -- The drawing is cached by its script (its own paths left out) and data, so an
  -- unchanged plot costs no gnuplot run, in either edition.
  local pdf = util.cache_file(cachedir, 'plots', util.replace(script, base, '') .. '\0' .. dat, ext)
  if not util.exists(pdf) then
    util.run(WHO .. ': ' .. id, 'gnuplot ' .. util.shell_quote(base .. '.gp'), base .. ext)
    util.store(WHO, base .. ext, pdf)
  end
  if not util.is_html() then return pdf end
  local spec = web_spec(cb, cmd, series, marks, { xdiv = xdiv, ydiv = ydiv, logx = logx, logy = logy,
    xlabel = xlabel, ylabel = ylabel, rows = rows })
  local json = util.site_file(nil, 'figures/' .. id:gsub('[^%w_-]', '-') .. '.json', spec)
  return pdf, { { 'plot', json } }, data_table(series, rows, a, xlabel, ylabel, xdiv, ydiv)
end

return {
  {
    Meta = function(meta)
      builddir = util.meta_string(meta, 'build-dir', 'build/book')
      cachedir = util.cache_dir(meta, builddir)
    end,
  },
  {
    Blocks = util.figures(WHO, 'plot', function(b)
      local path, attrs, after = draw(b)
      if not attrs then attrs = { width = '100%' } end
      return path, attrs, after
    end),
  },
}
