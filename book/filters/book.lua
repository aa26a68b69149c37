-- book.lua -- the book's structure and LaTeX details the other filters leave.
--
-- Consumes: the whole book, as the Makefile passes it: book/preface.md (a
-- level-1 header with .unnumbered), chapters/NN-*.md, book/appendix.md (its
-- first level-1 header has class .appendix).
-- Does, for LaTeX only (other formats pass through unchanged):
--   * \mainmatter before the first numbered level-1 header, \appendix before
--     the first header with class .appendix (the template opens \frontmatter);
--   * unnumbered headers become KOMA's \addchap / \addsec, so they get running
--     heads and a table-of-contents line;
--   * inline code becomes \chalkcode{...} with break points after / _ . and
--     hyphens inside words (not inside --), so long paths and flags never run
--     into the margin;
--   * a table never leaves one row alone on a page: one of 10 rows or fewer is
--     one unbreakable block (a caption and a tabular in a minipage), a longer one
--     pandoc's longtable with no page break after its first row nor after the row
--     before its last (`\\*`), so two rows stand on each side of a break (a table
--     holding a footnote is left as pandoc writes it).
-- Per-file builds: util.context says whether \mainmatter and \appendix came in
-- an earlier file.
-- Metadata: sets edition-title ("Student edition" / "Instructor edition") for
-- the title page from edition (util.edition: student unless -M edition=instructor).
--
-- Order: last (after crossref.lua, which must see headers as headers to count
-- them). Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'book.lua'

-- Break points in pandoc's escaped \texttt text.
local function breakable(tex)
  local body = tex:match('^\\texttt{(.*)}$')
  if not body then return nil end
  body = body:gsub('\\/', '\0') -- pandoc's -\/- (no ligature) is no break point
  body = body:gsub('/', '/\\chalkbreak{}')
  body = body:gsub('%z', '\\/')
  body = body:gsub('\\_', '\\_\\chalkbreak{}')
  body = body:gsub('%.(%a)', '.\\chalkbreak{}%1')
  body = body:gsub('(%w)%-(%w)', '%1-\\chalkbreak{}%2')
  return '\\chalkcode{' .. body .. '}'
end

local function code(c)
  if not util.is_latex() or #c.classes > 0 then return nil end
  local tex = breakable(util.latex_of({ c }))
  if tex then return pandoc.RawInline('latex', tex) end
end

-- The text of the brace group that opens at s:sub(i, i) == '{', and the index
-- after it; nil when it does not close.
local function group_at(s, i)
  local depth = 0
  for j = i, #s do
    local c = s:sub(j, j)
    if c == '\\' then
      -- an escaped character is no brace
    elseif c == '{' and s:sub(j - 1, j - 1) ~= '\\' then depth = depth + 1
    elseif c == '}' and s:sub(j - 1, j - 1) ~= '\\' then
      depth = depth - 1
      if depth == 0 then return s:sub(i + 1, j - 1), j + 1 end
    end
  end
end

-- A short table (SHORT_ROWS rows or fewer) as one unbreakable block: its caption
-- (\captionof, numbered and labelled as the longtable's) and a tabular, in a
-- minipage that moves whole to the next page when it does not fit. (A longtable
-- also miscounts the page it starts on when a float sits at its top, and runs
-- into the bottom margin by that float's height.) nil when the LaTeX is not the
-- shape pandoc writes.
local SHORT_ROWS = 10
local function short_table(tex, body)
  local open = tex:find('\\begin{longtable}[]', 1, true)
  if not open then return nil end
  local spec, after = group_at(tex, open + #'\\begin{longtable}[]')
  if not spec then return nil end
  local rest = tex:sub(after)
  local caption = ''
  local cap_at = rest:find('^%s*\\caption{')
  if cap_at then
    local brace = rest:find('{', cap_at, true)
    local text, after_cap = group_at(rest, brace)
    if not text then return nil end
    caption = '\\captionof{table}{' .. text .. '}\n'
    rest = rest:sub(after_cap):gsub('^\\tabularnewline%s*', '')
  end
  -- the first head: up to \endfirsthead (the head repeated after it is dropped), or \endhead
  local head = rest:match('^(.-)\\endfirsthead') or rest:match('^(.-)\\endhead')
  if not head then return nil end
  return '\\par\\addvspace{\\bigskipamount}\\noindent\\begin{minipage}{\\linewidth}\n' ..
    '\\chalktablefont\\setlength{\\tabcolsep}{4pt}\n' .. caption ..
    '\\begin{tabular}{' .. spec .. '}\n' .. head:gsub('^%s+', '') .. body .. '\\bottomrule\n\\end{tabular}\n' ..
    '\\end{minipage}\\par\\addvspace{\\bigskipamount}\n'
end

-- A table as pandoc writes it, kept from leaving one row alone on a page: a short
-- one whole (short_table); a longer longtable with `\\*` (no page break) after its
-- first row and after the row before its last. nil to leave it alone.
local function table_rows_together(tbl)
  if not util.is_latex() then return nil end
  local note = false
  pandoc.walk_block(pandoc.Div({ tbl }), { Note = function() note = true end })
  if note then return nil end
  local tex = pandoc.write(pandoc.Pandoc({ tbl }), 'latex')
  local head, body, tail = tex:match('^(.-\\endhead\n)(.-)(\\bottomrule.*)$')
  if not head then return nil end
  -- the rows: each ends with " \\" at the end of a line
  local rows, from = {}, 1
  while true do
    local a, b = body:find(' \\\\\n', from)
    if not a then break end
    rows[#rows + 1] = { text = body:sub(from, a - 1), ends = body:sub(a, b) }
    from = b + 1
  end
  local rest = body:sub(from)
  if #rows < 1 or rest:match('%S') then return nil end
  if #rows <= SHORT_ROWS then
    local whole = short_table(tex, body)
    if whole then return pandoc.RawBlock('latex', whole) end
  end
  if #rows < 2 then return nil end
  local out = {}
  for i, r in ipairs(rows) do
    local keep = i == 1 or i == #rows - 1
    out[#out + 1] = r.text .. (keep and ' \\\\*\n' or r.ends)
  end
  return pandoc.RawBlock('latex', head .. table.concat(out) .. rest .. tail)
end

local function headers(doc)
  if not util.is_latex() then return doc end
  local ctx = util.context(doc.meta)
  local out, main, app = pandoc.List(), ctx.main, ctx.appendix
  for _, b in ipairs(doc.blocks) do
    if b.t == 'Header' and b.level == 1 and b.classes:includes('appendix') and not app then
      if not main then out:insert(pandoc.RawBlock('latex', '\\mainmatter')); main = true end
      out:insert(pandoc.RawBlock('latex', '\\appendix'))
      app = true
    end
    if b.t == 'Header' and b.level == 1 and not b.classes:includes('unnumbered') and not main then
      out:insert(pandoc.RawBlock('latex', '\\mainmatter'))
      main = true
    end
    if b.t == 'Header' and b.classes:includes('unnumbered') and b.level <= 2 then
      local cmd = b.level == 1 and '\\addchap' or '\\addsec'
      local label = b.identifier ~= '' and ('\\label{' .. b.identifier .. '}') or ''
      out:insert(pandoc.RawBlock('latex', cmd .. '{' .. util.latex_of(b.content) .. '}' .. label))
    else
      out:insert(b)
    end
  end
  doc.blocks = out
  return doc
end

return {
  {
    Meta = function(meta)
      local e = util.edition(WHO, meta)
      meta['edition-title'] = pandoc.MetaInlines({ pandoc.Str(
        e == 'instructor' and 'Instructor edition, with worked solutions' or 'Student edition') })
      return meta
    end,
  },
  { Code = code, Table = table_rows_together },
  { Pandoc = headers },
}
