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
--     into the margin.
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
  { Code = code },
  { Pandoc = headers },
}
