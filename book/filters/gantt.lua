-- gantt.lua -- gantt blocks become diagrams: pipeline timelines drawn from the
-- schedule simulator's output (`chalk schedule ... --csv`), one panel per command.
--
-- Consumes:
--     ```{.gantt #fig:ID}
--     schedule --stages 4 --microbatches 8 --schedule gpipe
--     schedule --stages 4 --microbatches 8 --schedule 1f1b
--     ```
--
--     Caption: what the figure shows ...
-- Each line is a `chalk schedule` command (an indented line continues the one
-- before it). Its --csv output (one row per pass:
-- stage, microbatch, chunk, pass, start_s, end_s) gives the boxes; its --json output
-- gives the panel's title (the schedule, the batch time and the measured idle share).
-- Stage 0 is the top row of a panel; every panel shares one time scale, so that
-- shorter schedules look shorter. A forward pass is a light box, a backward pass a
-- dark one, each labelled with its micro-batch counted from 1 (primes mark the
-- second and later chunks of the interleaved schedule, and a box too narrow for
-- them keeps only the digits, its shade telling the chunk) when it fits.
-- Produces: the same block as a ```{.diagram #fig:ID}``` holding the tikzpicture
-- (about 12 cm wide), which diagram.lua compiles, sizes and captions with the
-- "Caption:" paragraph that follows; nothing is drawn here. In a lecture deck
-- (FORMAT beamer) the block holds one tikzpicture per command instead, in larger
-- type (deck_tikz below): a page of the diagram and a slide each.
-- Stops the build on: an id not starting with fig:, an attribute, a line that is
-- not a `schedule` command, a failing chalk, or a CSV without the timeline's columns.
--
-- Order: after chalk.lua, before diagram.lua (which compiles what this writes).
-- Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'gantt.lua'
local WIDTH_CM = 10.8      -- the time axis; stage labels take the rest of the text width
local ROW_CM = 0.42        -- one stage
local PANEL_GAP_CM = 0.95  -- between panels, room for the next title
local LABEL_MIN_CM = 0.26  -- narrower boxes drop the primes (their shade tells
local DIGIT_CM = 0.14      -- the chunk) and keep the digits if these fit
local NAMES = { gpipe = 'GPipe', ['1f1b'] = '1F1B', interleaved = 'Interleaved 1F1B' }


local function num(s, what, id)
  local x = tonumber(s)
  if not x then util.fail(WHO, id .. ': the timeline\'s ' .. what .. ' is "' .. tostring(s) .. '", not a number') end
  return x
end

-- One panel: the passes of `cmd` and its summary.
local function panel_of(cmd, id)
  if not cmd:match('^schedule%s') then
    util.fail(WHO, id .. ': each line must be a `chalk schedule` command, not "' .. cmd .. '"')
  end
  local csv = util.run_chalk(WHO .. ': ' .. id, cmd, '--csv')
  local ok, header, rows = pcall(util.parse_csv, csv)
  if not ok then util.fail(WHO, id .. ': chalk ' .. cmd .. ' --csv: ' .. header) end
  local have = {}
  for _, h in ipairs(header) do have[h] = true end
  for _, c in ipairs({ 'stage', 'microbatch', 'chunk', 'pass', 'start_s', 'end_s' }) do
    if not have[c] then util.fail(WHO, id .. ': chalk ' .. cmd .. ' --csv has no column "' .. c .. '"') end
  end
  local json = util.chalk_json(WHO .. ': ' .. id, cmd)
  local p = { passes = {}, stages = 0, makespan = 0, json = json }
  for _, r in ipairs(rows) do
    local pass = {
      stage = num(r.stage, 'stage', id), mb = num(r.microbatch, 'microbatch', id),
      chunk = num(r.chunk, 'chunk', id), forward = r.pass == 'forward',
      from = num(r.start_s, 'start', id), to = num(r.end_s, 'end', id),
    }
    p.passes[#p.passes + 1] = pass
    p.stages = math.max(p.stages, pass.stage + 1)
    p.makespan = math.max(p.makespan, pass.to)
  end
  if #p.passes == 0 then util.fail(WHO, id .. ': chalk ' .. cmd .. ' --csv gave no passes') end
  return p
end

-- A time on the axis: in units of the forward pass when every panel's is 1 s.
local function time_of(t, unit_tf)
  return unit_tf and ('$' .. util.sig(t, 3) .. '\\,t_F$') or (util.sig(t, 3) .. ' s')
end

-- The panel's title: "GPipe: the batch takes 33 t_F, 27.3% idle".
local function title_of(p, unit_tf)
  local j = p.json
  local name = NAMES[j.schedule] or tostring(j.schedule)
  if j.schedule == 'interleaved' then name = name .. string.format(', $v = %d$', j.chunks) end
  local idle = util.format(WHO, j.bubble_fraction, '%', 3):gsub('%%', '\\%%')
  return string.format('%s: the batch takes %s, %s idle', name, time_of(j.makespan_s, unit_tf), idle)
end

-- Fill and text colours: forward light, backward dark; later chunks a shade darker.
local function style_of(pass)
  local shade = pass.forward and (12 + 14 * pass.chunk) or (62 + 14 * pass.chunk)
  return string.format('fill=black!%d, text=%s', math.min(shade, 90), pass.forward and 'black' or 'white')
end

-- The longest makespan of the panels, and whether all of them count time in t_F.
local function extent(panels)
  local span, unit_tf = 0, true
  for _, p in ipairs(panels) do
    span = math.max(span, p.makespan)
    unit_tf = unit_tf and p.json.forward_s == 1
  end
  return span, unit_tf
end

-- One schedule's stage rows and passes, its first row's top at y, in look L (row
-- height, stage label offset, the widths under which a box drops its primes, then its
-- digits); returns the largest chunk number drawn.
local function schedule_rows(out, p, y, cm, L)
  for s = 0, p.stages - 1 do
    local top = y - s * L.row
    out[#out + 1] = string.format('\\draw[black!30, line width=0.3pt] (0, %.3f) rectangle (%.3f, %.3f);',
      top, p.makespan * cm, top - L.row)
    out[#out + 1] = string.format('\\node[anchor=east] at (%s, %.3f) {stage %d};', -L.label_off, top - L.row / 2, s)
  end
  local chunks = 0
  for _, a in ipairs(p.passes) do
    chunks = math.max(chunks, a.chunk)
    local x0, x1 = a.from * cm, a.to * cm
    local label = ''
    local digits = tostring(math.floor(a.mb + 1))
    if x1 - x0 >= L.label_min then
      label = digits .. string.rep("'", math.floor(a.chunk))
      if a.chunk > 0 then label = '$' .. label .. '$' end
    elseif x1 - x0 >= #digits * L.digit + 0.02 then
      label = digits
    end
    out[#out + 1] = string.format('\\node[pass, %s, minimum width=%.3fcm, minimum height=%.3fcm, anchor=north west] at (%.3f, %.3f) {%s};',
      style_of(a), x1 - x0, L.row, x0, y - a.stage * L.row, label)
  end
  return chunks
end

-- The time axis at height base: ticks of length L.tick every 5, 10, 20, ... units (at
-- most 8 of them), and its caption L.caption_gap below.
local function time_axis(out, base, span, cm, unit_tf, L)
  local step = 5
  while span / step > 8 do step = step * 2 end
  out[#out + 1] = string.format('\\draw[black!60, line width=0.4pt] (0, %.3f) -- (%.3f, %.3f);', base, span * cm, base)
  local t = 0
  while t <= span + 1e-9 do
    out[#out + 1] = string.format('\\draw[black!60, line width=0.4pt] (%.3f, %.3f) -- ++(0, %s) node[below] {%s};',
      t * cm, base, -L.tick, util.sig(t, 3))
    t = t + step
  end
  out[#out + 1] = string.format('\\node[anchor=north] at (%.3f, %.3f) {%s};', span * cm / 2,
    base - L.caption_gap, unit_tf and 'time, in units of the forward pass $t_F$' or 'time (s)')
end

-- The legend's keys: forward and backward, and the second chunk's when there is one;
-- key k at where(k) (a TikZ position ending in "]"), its box box_cm high.
local function legend_keys(out, chunks, box_cm, where)
  local legend = { { 'fill=black!12', 'forward' }, { 'fill=black!62', 'backward' } }
  if chunks > 0 then
    legend[#legend + 1] = { 'fill=black!26', 'forward, chunk 2' }
    legend[#legend + 1] = { 'fill=black!76', 'backward, chunk 2' }
  end
  for k, l in ipairs(legend) do
    out[#out + 1] = string.format('\\node[pass, %s, minimum width=0.5cm, minimum height=%.3fcm, %s (gantt-box-%d) {};',
      l[1], box_cm, where(k), k)
    out[#out + 1] = string.format('\\node[right=2pt of gantt-box-%d] (gantt-key-%d) {%s};', k, k, l[2])
  end
end

-- Print: every schedule stacked in one picture over a shared time axis and legend.
local PRINT = { row = ROW_CM, label_off = 0.08, label_min = LABEL_MIN_CM, digit = DIGIT_CM, tick = 0.08, caption_gap = 0.45 }

local function tikz_of(panels)
  local span, unit_tf = extent(panels)
  local cm = WIDTH_CM / span
  local out = {
    '\\begin{tikzpicture}[x=1cm, y=1cm, font=\\footnotesize,',
    '  pass/.style={draw=white, line width=0.35pt, inner sep=0pt, outer sep=0pt}]',
  }
  local y, chunks = 0, 0
  for _, p in ipairs(panels) do
    out[#out + 1] = string.format('\\node[anchor=south west, inner sep=0pt] at (0, %.3f) {\\small %s};',
      y + 0.12, title_of(p, unit_tf))
    chunks = math.max(chunks, schedule_rows(out, p, y, cm, PRINT))
    y = y - p.stages * ROW_CM - PANEL_GAP_CM
  end
  local base = y + PANEL_GAP_CM - 0.08
  time_axis(out, base, span, cm, unit_tf, PRINT)
  -- each key sits right of the previous one's text (TikZ's positioning library)
  legend_keys(out, chunks, ROW_CM, function(k)
    return k == 1 and string.format('anchor=west] at (0, %.3f)', base - 1.05) or
        string.format('right=0.35cm of gantt-key-%d]', k - 1)
  end)
  out[#out + 1] = '\\end{tikzpicture}'
  return table.concat(out, '\n')
end

-- A lecture deck (FORMAT beamer): one picture per schedule, each a page of the
-- diagram's PDF and a slide of its own (book/slides/frames.lua), in larger type than
-- print (everything \small, titles \normalsize: at least 20 pt at slide size); each
-- with its own time axis and legend, on the time scale all of them share.
local DECK_FONT = '\\small'
local DECK_WIDTH_CM, DECK_ROW_CM = 12.0, 0.62
local DECK = { row = DECK_ROW_CM, label_off = 0.1, label_min = 0.40, digit = 0.21, tick = 0.1, caption_gap = 0.55 }

local function deck_tikz(panels)
  local span, unit_tf = extent(panels)
  local cm = DECK_WIDTH_CM / span
  local pictures = {}
  for _, p in ipairs(panels) do
    local out = {
      '\\begin{tikzpicture}[x=1cm, y=1cm, font=' .. DECK_FONT .. ',',
      '  pass/.style={draw=white, line width=0.4pt, inner sep=0pt, outer sep=0pt}]',
      string.format('\\node[anchor=south west, inner sep=0pt] at (0, 0.15) {\\normalsize %s};', title_of(p, unit_tf)),
    }
    local chunks = schedule_rows(out, p, 0, cm, DECK)
    local base = -p.stages * DECK_ROW_CM - 0.1
    time_axis(out, base, span, cm, unit_tf, DECK)
    -- (two keys to a row: the picture no wider than its axis)
    legend_keys(out, chunks, DECK_ROW_CM * 0.7, function(k)
      return k % 2 == 1 and string.format('anchor=west] at (0, %.3f)', base - 1.35 - (k - 1) / 2 * 0.6) or
          string.format('right=0.35cm of gantt-key-%d]', k - 1)
    end)
    out[#out + 1] = '\\end{tikzpicture}'
    pictures[#pictures + 1] = table.concat(out, '\n')
  end
  return table.concat(pictures, '\n')
end

local function diagram(b)
  local id = b.identifier
  if not id:match('^fig:') then util.fail(WHO, (id ~= '' and id or 'a .gantt block') .. ': a gantt id must be fig:NAME') end
  for k, _ in pairs(b.attributes) do util.fail(WHO, id .. ': unknown attribute "' .. k .. '"') end
  -- one command per line; an indented line continues the one before it
  local cmds = {}
  for line in b.text:gmatch('[^\n]+') do
    if line:match('^%s') and #cmds > 0 then cmds[#cmds] = cmds[#cmds] .. ' ' .. line
    elseif line:match('%S') then cmds[#cmds + 1] = line end
  end
  local panels = {}
  for _, line in ipairs(cmds) do
    panels[#panels + 1] = panel_of((line:gsub('%s+', ' '):gsub('^ ', ''):gsub(' $', '')), id)
  end
  if #panels == 0 then util.fail(WHO, id .. ': no `chalk schedule` command in the block') end
  if FORMAT == 'beamer' then return pandoc.CodeBlock(deck_tikz(panels), pandoc.Attr(id, { 'diagram' })) end
  return pandoc.CodeBlock(tikz_of(panels), pandoc.Attr(id, { 'diagram' }))
end

return {
  {
    CodeBlock = function(b)
      if b.classes:includes('gantt') then return diagram(b) end
    end,
  },
}
