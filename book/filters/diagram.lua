-- diagram.lua -- diagram blocks (TikZ) become numbered figures, compiled standalone.
--
-- Consumes (book/README.md, "Diagrams"):
--     ```{.diagram #fig:ID}
--     \begin{tikzpicture}[...]
--     ...
--     \end{tikzpicture}
--     ```
--
--     Caption: what the drawing shows ...
-- The block holds one whole tikzpicture (in a lecture deck it may hold several,
-- each then a page of the PDF: gantt.lua's schedules). It is compiled on its own by pdflatex
-- (class standalone) with the book's type (Palatino text and maths at 10.5 pt),
-- the book's colours (the \definecolor lines of book/template.tex: chalkblue,
-- chalkgreen, chalkred, chalkgold, chalkgrey) and the TikZ libraries arrows.meta,
-- positioning, calc, fit, backgrounds, shapes.geometric, shapes.misc,
-- decorations.pathreplacing and patterns. The PDF is included at its natural size
-- (draw at the text width, 14 cm at most; a wider drawing is scaled down, with
-- its type, and the filter says so on stderr). The next paragraph, which must
-- start with "Caption:", becomes the caption; crossref.lua numbers the figure
-- like a plot (@fig:ID).
-- Cache: the compiled PDF is kept as CACHE/diagrams/SHA1.pdf, SHA1 of the whole
-- standalone source (preamble included), where CACHE is the metadata field
-- cache-dir (book/build.sh: build/cache; default BUILD/cache). An unchanged
-- diagram is not compiled again, in either edition. The source and the LaTeX log
-- of the last compile are in BUILD/diagrams/ID.{tex,log} (BUILD: build-dir).
-- HTML (the web edition): the same document with TikZ's dvisvgm driver, compiled by
-- latex to DVI and turned into SVG by dvisvgm (glyphs as paths: no font to load;
-- 1.2 times the printed size, so that its type matches the page's),
-- cached as CACHE/diagrams/SHA1.svg; the image's text alternative is its caption.
-- Stops the build on: a missing id or caption, an id not starting with fig:, any
-- attribute, a block without \begin{tikzpicture} ... \end{tikzpicture}, \tiny
-- (too small to read in print), and a diagram that does not compile: the message
-- names the id and quotes TeX's error with its line in the diagram.
--
-- Order: after chalk.lua (live numbers in the caption), before crossref.lua
-- (which numbers the figure). Pandoc 2.17; pdflatex and TikZ (texlive-pictures).

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'diagram.lua'
local TEXT_WIDTH_PT = 14 / 2.54 * 72 -- the template's 14 cm text block, in PDF points
local LIBRARIES = 'arrows.meta, positioning, calc, fit, backgrounds, shapes.geometric, ' ..
    'shapes.misc, decorations.pathreplacing, patterns'

local builddir = 'build/book'
local cachedir = 'build/book/cache'

-- The book's colours, read once from the template next to the filters.
local colours
local function book_colours()
  if colours then return colours end
  local template = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '../template.tex'
  local text = util.read_file(template)
  if not text then util.fail(WHO, 'cannot read ' .. template .. ' (the book\'s colours)') end
  util.depend(template)
  local lines = {}
  for line in text:gmatch('[^\n]+') do
    if line:match('^\\definecolor') then lines[#lines + 1] = line end
  end
  colours = table.concat(lines, '\n')
  return colours
end

-- The standalone document around a tikzpicture, and the number of lines before it.
-- A lecture deck (book/slides/, FORMAT beamer) sets the same drawing in larger type,
-- which the frame then scales: the standalone class at 12 pt (\small 10.95 pt,
-- \footnotesize 10 pt) and text at 12.5 pt, for at least 20 pt at slide size.
local CLASS_OPTIONS, TEXT_SIZE = 'border=1pt', '\\fontsize{10.5pt}{13pt}\\selectfont'
if FORMAT == 'beamer' then
  CLASS_OPTIONS, TEXT_SIZE = 'border=1pt,12pt', '\\fontsize{12.5pt}{15pt}\\selectfont'
end

local function document(tikz)
  local options = CLASS_OPTIONS
  -- (a deck's diagram of several pictures, such as gantt.lua's one per schedule:
  -- a page each, which book/slides/frames.lua shows as a slide each)
  if FORMAT == 'beamer' and select(2, tikz:gsub('\\begin{tikzpicture}', '')) > 1 then
    options = options .. ',multi=tikzpicture'
  end
  local head = table.concat({
    '\\documentclass[' .. options .. ']{standalone}',
    '\\usepackage[T1]{fontenc}',
    '\\usepackage[utf8]{inputenc}',
    '\\usepackage{lmodern}',
    '\\usepackage[sc]{mathpazo}',
    '\\usepackage{amsmath,amssymb}',
    '\\usepackage[dvipsnames,svgnames]{xcolor}',
    book_colours(),
    '\\usepackage{tikz}',
    '\\usetikzlibrary{' .. LIBRARIES .. '}',
    '\\begin{document}',
    TEXT_SIZE,
  }, '\n') .. '\n'
  -- (for SVG: TikZ's dvisvgm driver, before TikZ loads)
  if util.is_html() then head = head:gsub('\\usepackage{tikz}', '\\def\\pgfsysdriver{pgfsys-dvisvgm.def}\n%0', 1) end
  local _, offset = head:gsub('\n', '')
  return head .. tikz .. '\n\\end{document}\n', offset
end

-- TeX's error from a log: the "!" line and what follows up to the "l.N" line
-- (N turned into the line of the diagram), without TeX's help boilerplate.
local BOILERPLATE = { '^See the ', '^Type  H ', '^%s*%.%.%.%s*$', '^%s*$', '^<%*>', '^<inserted text>' }
local function tex_error(log, offset)
  local out, on = {}, false
  for line in log:gmatch('[^\n]*') do
    if line:match('^!') then on = true end
    if on then
      if line:match('^Here is how much') then break end
      local n, rest = line:match('^l%.(%d+)(.*)$')
      if n then
        local k = tonumber(n) - offset
        out[#out + 1] = (k >= 1 and ('at line ' .. k .. ' of the diagram: ') or ('l.' .. n .. ' ')) .. rest:gsub('^%s+', '')
        break
      end
      local noise = false
      for _, pat in ipairs(BOILERPLATE) do noise = noise or line:match(pat) ~= nil end
      if not noise then out[#out + 1] = line end
      if #out >= 6 then break end
    end
  end
  if #out == 0 then return 'no error message in the log' end
  return table.concat(out, '\n  ')
end

-- Width of a one-page PDF in points (pdfinfo), or nil.
local function pdf_width(pdf)
  local p = io.popen('pdfinfo ' .. util.shell_quote(pdf) .. ' 2>/dev/null')
  local info = p:read('a')
  p:close()
  return tonumber(info:match('Page size:%s*([%d.]+)'))
end

-- Compiles the diagram (or finds it in the cache); returns the PDF's path.
local function draw(cb)
  local id = cb.identifier
  if id == '' then util.fail(WHO, 'a .diagram block needs an id: {.diagram #fig:NAME}') end
  if not id:match('^fig:') then util.fail(WHO, id .. ': a diagram id must start with fig:') end
  for k, _ in pairs(cb.attributes) do util.fail(WHO, id .. ': unknown attribute "' .. k .. '"') end
  local tikz = cb.text
  if not (tikz:match('\\begin{tikzpicture}') and tikz:match('\\end{tikzpicture}%s*$')) then
    util.fail(WHO, id .. ': the block must hold one \\begin{tikzpicture} ... \\end{tikzpicture}')
  end
  if tikz:match('\\tiny%f[^%a]') then
    util.fail(WHO, id .. ': \\tiny is too small to read in print; use \\footnotesize at the least')
  end
  local source, offset = document(tikz)
  local html = util.is_html()
  local pdf = util.cache_file(cachedir, 'diagrams', source, html and '.svg' or '.pdf')
  if not util.exists(pdf) then
    local dir = builddir .. '/diagrams'
    local name = id:gsub('[^%w_-]', '-')
    os.execute('mkdir -p ' .. util.shell_quote(dir))
    util.write_file(WHO, dir .. '/' .. name .. '.tex', source)
    local ok = os.execute((html and 'latex' or 'pdflatex') .. ' -interaction=nonstopmode -halt-on-error -output-directory=' ..
      util.shell_quote(dir) .. ' ' .. util.shell_quote(dir .. '/' .. name .. '.tex') .. ' >/dev/null 2>&1')
    local log = util.read_file(dir .. '/' .. name .. '.log') or ''
    local product = dir .. '/' .. name .. (html and '.dvi' or '.pdf')
    if not ok or not util.exists(product) then
      util.fail(WHO, id .. ': the diagram does not compile (' .. dir .. '/' .. name .. '.log):\n  ' ..
        tex_error(log, offset))
    end
    if html then
      util.run(WHO .. ': ' .. id, 'dvisvgm --no-fonts --exact-bbox --zoom=1.2 --optimize --verbosity=1 -o ' ..
        util.shell_quote(dir .. '/' .. name .. '.svg') .. ' ' .. util.shell_quote(product), dir .. '/' .. name .. '.svg')
      product = dir .. '/' .. name .. '.svg'
    end
    util.store(WHO, product, pdf)
  end
  if html then return pdf end
  local w = pdf_width(pdf)
  if w and w > TEXT_WIDTH_PT + 2 then
    io.stderr:write(string.format('%s: %s is %.1f cm wide, wider than the text (14 cm): ' ..
      'it is scaled down, and its type with it\n', WHO, id, w * 2.54 / 72))
  end
  return pdf
end

return {
  {
    Meta = function(meta)
      builddir = util.meta_string(meta, 'build-dir', 'build/book')
      cachedir = util.cache_dir(meta, builddir)
    end,
  },
  { Blocks = util.figures(WHO, 'diagram', function(b) return draw(b), {} end) },
}
