-- gantt.lua -- gantt blocks become numbered figures: pipeline timelines drawn from
-- the simulator's output (`chalk schedule ... --csv`), one panel per command.
--
-- Consumes:
--     ```{.gantt #fig:ID}
--     schedule --stages 4 --microbatches 8 --schedule gpipe
--     schedule --stages 4 --microbatches 8 --schedule 1f1b
--     ```
--
--     Caption: what the figure shows ...
-- Each line is a `chalk schedule` command. Its --csv output (one row per pass:
-- stage, microbatch, chunk, pass, start_s, end_s) gives the boxes; its --json output
-- gives the panel's title (the schedule, the batch time and the measured idle share).
-- Stage 0 is the top row of a panel; every panel shares one time scale, so that
-- shorter schedules look shorter. A forward pass is a light box, a backward pass a
-- dark one, each labelled with its micro-batch counted from 1 (primes mark the
-- second and later chunks of the interleaved schedule) when the box is wide enough.
-- The paragraph right after the block, which must start with "Caption:", becomes
-- the caption.
-- Files: BUILD/plots/ID.{tex,pdf,log} (BUILD: the metadata field build-dir, default
-- build/book). The picture is TikZ in a standalone document with the book's fonts,
-- compiled by pdflatex only when its source changed, and included at the text width.
-- Stops the build on: a missing id or caption, an id not starting with fig:, a line
-- that is not a `schedule` command, a failing chalk, a CSV without the timeline's
-- columns, or a TikZ error (the first lines of pdflatex's log are shown).
--
-- Order: after chalk.lua (live numbers in the caption), before crossref.lua (which
-- numbers the figure). Pandoc 2.17; pdflatex with TikZ (texlive-pictures).

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'gantt.lua'
local WIDTH_CM = 10.6      -- the time axis; stage labels take the rest of the text width
local ROW_CM = 0.42        -- one stage
local PANEL_GAP_CM = 0.95  -- between panels, room for the next title
local LABEL_MIN_CM = 0.26  -- narrower boxes stay unlabelled
local NAMES = { gpipe = 'GPipe', ['1f1b'] = '1F1B', interleaved = 'Interleaved 1F1B' }

local builddir = 'build/book'

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

local function tikz_of(panels)
  local span, unit_tf = 0, true
  for _, p in ipairs(panels) do
    span = math.max(span, p.makespan)
    unit_tf = unit_tf and p.json.forward_s == 1
  end
  local cm = WIDTH_CM / span
  local out = {
    '\\begin{tikzpicture}[x=1cm, y=1cm, font=\\footnotesize,',
    '  pass/.style={draw=white, line width=0.35pt, inner sep=0pt, outer sep=0pt}]',
  }
  local y = 0
  for _, p in ipairs(panels) do
    out[#out + 1] = string.format('\\node[anchor=south west, inner sep=0pt] at (0, %.3f) {\\small %s};',
      y + 0.12, title_of(p, unit_tf))
    for s = 0, p.stages - 1 do
      local top = y - s * ROW_CM
      out[#out + 1] = string.format('\\draw[black!30, line width=0.3pt] (0, %.3f) rectangle (%.3f, %.3f);',
        top, p.makespan * cm, top - ROW_CM)
      out[#out + 1] = string.format('\\node[anchor=east] at (-0.08, %.3f) {stage %d};', top - ROW_CM / 2, s)
    end
    for _, a in ipairs(p.passes) do
      local top = y - a.stage * ROW_CM
      local x0, x1 = a.from * cm, a.to * cm
      local label = ''
      if x1 - x0 >= LABEL_MIN_CM then
        label = tostring(math.floor(a.mb + 1)) .. string.rep("'", math.floor(a.chunk))
        if a.chunk > 0 then label = '$' .. label .. '$' end
      end
      out[#out + 1] = string.format('\\node[pass, %s, minimum width=%.3fcm, minimum height=%.3fcm, anchor=north west] at (%.3f, %.3f) {%s};',
        style_of(a), x1 - x0, ROW_CM, x0, top, label)
    end
    y = y - p.stages * ROW_CM - PANEL_GAP_CM
  end
  -- the shared time axis under the last panel
  local base = y + PANEL_GAP_CM - 0.08
  local step = 5
  while span / step > 8 do step = step * 2 end
  out[#out + 1] = string.format('\\draw[black!60, line width=0.4pt] (0, %.3f) -- (%.3f, %.3f);', base, span * cm, base)
  local t = 0
  while t <= span + 1e-9 do
    out[#out + 1] = string.format('\\draw[black!60, line width=0.4pt] (%.3f, %.3f) -- ++(0, -0.08) node[below] {%s};',
      t * cm, base, util.sig(t, 3))
    t = t + step
  end
  out[#out + 1] = string.format('\\node[anchor=north] at (%.3f, %.3f) {%s};', span * cm / 2,
    base - 0.45, unit_tf and 'time, in units of the forward pass $t_F$' or 'time (s)')
  -- the legend
  local ly = base - 1.05
  local legend = {
    { 'fill=black!12', 'forward' }, { 'fill=black!62', 'backward' },
  }
  local chunks = 0
  for _, p in ipairs(panels) do
    for _, a in ipairs(p.passes) do chunks = math.max(chunks, a.chunk) end
  end
  if chunks > 0 then
    legend[#legend + 1] = { 'fill=black!26', "forward, second chunk ($1'$)" }
    legend[#legend + 1] = { 'fill=black!76', 'backward, second chunk' }
  end
  local x = 0
  for _, l in ipairs(legend) do
    out[#out + 1] = string.format('\\node[pass, %s, minimum width=0.5cm, minimum height=%.3fcm, anchor=west] at (%.3f, %.3f) {};',
      l[1], ROW_CM, x, ly)
    out[#out + 1] = string.format('\\node[anchor=west] at (%.3f, %.3f) {%s};', x + 0.55, ly, l[2])
    x = x + 0.9 + 0.11 * #l[2]:gsub('%$.-%$', 'xx')
  end
  out[#out + 1] = '\\end{tikzpicture}'
  return table.concat(out, '\n')
end

local PREAMBLE = [[
\documentclass[border=2pt]{standalone}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{lmodern}
\usepackage[sc]{mathpazo}
\usepackage{tikz}
\begin{document}
]]

-- Compiles the picture when its source changed; returns the PDF's path.
local function compile(id, tikz)
  local base = builddir .. '/plots/' .. id:gsub('[^%w_-]', '-')
  os.execute('mkdir -p ' .. builddir .. '/plots')
  local tex = PREAMBLE .. tikz .. '\n\\end{document}\n'
  local pdf = io.open(base .. '.pdf', 'r')
  if pdf then pdf:close() end
  if pdf and util.read_file(base .. '.tex') == tex then return base .. '.pdf' end
  util.write_file(WHO, base .. '.tex', tex)
  local dir, name = base:match('^(.*)/([^/]+)$')
  local ok = os.execute('cd ' .. dir .. ' && pdflatex -interaction=nonstopmode -halt-on-error ' ..
    name .. '.tex >/dev/null 2>&1')
  if not ok then
    os.remove(base .. '.pdf')
    local log = util.read_file(base .. '.log') or ''
    local first = log:match('\n(!.-)\n\n') or log:sub(-600)
    util.fail(WHO, id .. ': pdflatex failed on ' .. base .. '.tex:\n' .. first)
  end
  return base .. '.pdf'
end

local function caption_of(b)
  if not b or b.t ~= 'Para' then return nil end
  local first = b.content[1]
  if not (first and first.t == 'Str' and first.text == 'Caption:') then return nil end
  local inl = pandoc.List(b.content)
  inl:remove(1)
  while #inl > 0 and (inl[1].t == 'Space' or inl[1].t == 'SoftBreak') do inl:remove(1) end
  return inl
end

local function figure(b, cap)
  local id = b.identifier
  if id == '' then util.fail(WHO, 'a .gantt block needs an id: {.gantt #fig:NAME}') end
  if not id:match('^fig:') then util.fail(WHO, id .. ': a gantt id must start with fig:') end
  local panels = {}
  for line in b.text:gmatch('[^\n]+') do
    local cmd = line:gsub('%s+', ' '):gsub('^ ', ''):gsub(' $', '')
    if cmd ~= '' then panels[#panels + 1] = panel_of(cmd, id) end
  end
  if #panels == 0 then util.fail(WHO, id .. ': no `chalk schedule` command in the block') end
  local pdf = compile(id, tikz_of(panels))
  return pandoc.Para({ pandoc.Image(cap, pdf, 'fig:', pandoc.Attr(id, {}, { width = '100%' })) })
end

return {
  { Meta = function(meta) builddir = util.meta_string(meta, 'build-dir', 'build/book') end },
  {
    Blocks = function(blocks)
      local out, i = pandoc.List(), 1
      while i <= #blocks do
        local b = blocks[i]
        if b.t == 'CodeBlock' and b.classes:includes('gantt') then
          local cap = caption_of(blocks[i + 1])
          if not cap or #cap == 0 then
            util.fail(WHO, (b.identifier ~= '' and b.identifier or 'a .gantt block') ..
              ': needs a paragraph "Caption: ..." right after it')
          end
          out:insert(figure(b, cap))
          i = i + 2
        else
          out:insert(b)
          i = i + 1
        end
      end
      return out
    end,
  },
}
