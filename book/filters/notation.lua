-- notation.lua -- the book's one notation table, from each chapter's symbol file.
--
-- Consumes (book/README.md, "Notation"): the files NOTATION/NN-topic.tsv, where
-- NOTATION is the metadata field notation-dir (default book/notation), each
-- tab-separated with this header line and one symbol per line:
--     symbol	meaning	unit
--     N_\text{total}	all parameters of the model, fetched every step	parameters
-- The symbol is TeX math without dollar signs; meaning and unit are markdown
-- (math in $...$ allowed); blank lines are skipped. NN is the chapter that
-- introduces the symbols. And, in book/appendix.md:
--     ::: {.notation #tbl:notation}
--     Caption of the table.
--     :::
-- which becomes one table: symbol, meaning, unit, first chapter; rows by chapter,
-- in each file's order. The div's id (tbl:...) is kept for crossref.lua.
-- A symbol has one meaning in the whole book: two rows with the same symbol
-- (spaces ignored: "B^*" and "B^{*}" differ, "B ^*" does not) stop the build,
-- naming both files and lines. So does a malformed file: a header other than
-- "symbol<TAB>meaning<TAB>unit", a row without exactly three fields or with an
-- empty one, a symbol holding "$", a file name not starting with two digits, an
-- empty or missing directory, and a div without its one caption paragraph.
--
-- For LaTeX, each symbol is indexed (book/filters/index.lua has the rest of the
-- index): in the index's Symbols group, pointing at this table.
--
-- Order: before crossref.lua (which numbers the table). Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'notation.lua'
local HEADER = 'symbol\tmeaning\tunit'

local dir = 'book/notation'

local function inlines(text)
  local blocks = pandoc.read(text, 'markdown').blocks
  return blocks[1] and blocks[1].content or { pandoc.Str(text) }
end

-- Every row of every file, checked: { symbol, meaning, unit, chapter, where }.
local function read_rows()
  local p = io.popen('ls ' .. util.shell_quote(dir) .. '/*.tsv 2>/dev/null')
  local files = {}
  for f in p:lines() do files[#files + 1] = f end
  p:close()
  if #files == 0 then util.fail(WHO, 'no ' .. dir .. '/NN-topic.tsv found') end
  table.sort(files)
  local rows, seen = {}, {}
  for _, file in ipairs(files) do
    local chapter = tonumber((file:match('([^/]+)$') or ''):match('^(%d%d)%-'))
    if not chapter then util.fail(WHO, file .. ': the file name must start with the chapter, NN-') end
    local n = 0
    util.depend(file)
    for line in io.lines(file) do
      n = n + 1
      local where = file .. ':' .. n
      line = line:gsub('\r$', '')
      if n == 1 then
        if line ~= HEADER then
          util.fail(WHO, where .. ': the first line must be the header "symbol<TAB>meaning<TAB>unit"')
        end
      elseif line:match('%S') then
        local f = {}
        for field in (line .. '\t'):gmatch('([^\t]*)\t') do f[#f + 1] = field:match('^%s*(.-)%s*$') end
        if #f ~= 3 then
          util.fail(WHO, where .. ': want 3 tab-separated fields (symbol, meaning, unit), found ' .. #f)
        end
        for k, name in ipairs({ 'symbol', 'meaning', 'unit' }) do
          if f[k] == '' then util.fail(WHO, where .. ': the ' .. name .. ' is empty') end
        end
        if f[1]:find('$', 1, true) then
          util.fail(WHO, where .. ': the symbol is TeX math without dollar signs: ' .. f[1])
        end
        local key = f[1]:gsub('%s+', '')
        if seen[key] then
          util.fail(WHO, 'symbol ' .. f[1] .. ' is defined twice: ' .. seen[key].where .. ' (' ..
            seen[key].meaning .. ') and ' .. where .. ' (' .. f[2] .. '); a symbol has one meaning ' ..
            'in the whole book: reuse it with its meaning or pick another')
        end
        local row = { symbol = f[1], meaning = f[2], unit = f[3], chapter = chapter, where = where }
        seen[key] = row
        rows[#rows + 1] = row
      end
    end
    if n == 0 then util.fail(WHO, file .. ':1: empty file; the first line must be the header') end
  end
  return rows
end

-- The index entry of a symbol (LaTeX): sorted by its TeX without backslashes, braces
-- and \text ("N_total", "beta") after a "$", so that makeindex puts every symbol in
-- its Symbols group, first; shown as the symbol, pointing at this table.
local function index_entry(symbol)
  local sort = symbol:gsub('\\text%s*', ''):gsub('\\', ''):gsub('[{}%s]', '')
  local function q(s) return (s:gsub('(["@!|])', '"%1')) end
  return '\\index{$' .. q(sort) .. '@$' .. q(symbol) .. '$}'
end

local function make(div)
  local cap = div.content[1]
  if #div.content ~= 1 or not (cap.t == 'Para' or cap.t == 'Plain') then
    util.fail(WHO, '::: {.notation}: the div holds one paragraph, the caption')
  end
  local body = {}
  for _, r in ipairs(read_rows()) do
    local sym = pandoc.List({ pandoc.Math('InlineMath', r.symbol) })
    if util.is_latex() then sym:insert(pandoc.RawInline('latex', index_entry(r.symbol))) end
    body[#body + 1] = {
      { pandoc.Plain(sym) },
      { pandoc.Plain(inlines(r.meaning)) },
      { pandoc.Plain(inlines(r.unit)) },
      { pandoc.Plain({ pandoc.Str(tostring(r.chapter)) }) },
    }
  end
  local head = {}
  for k, h in ipairs({ 'symbol', 'meaning', 'unit', 'chapter' }) do head[k] = { pandoc.Plain({ pandoc.Str(h) }) } end
  local t = pandoc.utils.from_simple_table(pandoc.SimpleTable(cap.content,
    { pandoc.AlignLeft, pandoc.AlignLeft, pandoc.AlignLeft, pandoc.AlignRight },
    { 0.13, 0.59, 0.18, 0.10 }, head, body))
  t.attr = pandoc.Attr(div.identifier, {}, {})
  return t
end

return {
  { Meta = function(meta) dir = util.meta_string(meta, 'notation-dir', 'book/notation') end },
  {
    Div = function(div)
      if div.classes:includes('notation') then return make(div) end
    end,
  },
}
