-- frames.lua -- the last filter of a deck: the chapter's slide-marked elements, and
-- nothing else, as Beamer frames (book/slides/README.md).
--
-- Consumes: a chapter after book/filters/slides.lua wrapped each marked element in a
-- Div.slide-frame (kind, title) and the book's filters made its numbers, figures,
-- listings and cross-references.
-- Makes, in order: the title slide (the chapter's number, title and short title from
-- its level-1 header); for each slide-frame, by kind:
--   head    a section of the deck (beamer's section page), and a frame with the
--           section's slide text when the mark has some
--   eq      the equation, numbered as in the book (\tag), and its one-line point
--   fig     the figure, as large as the frame allows, without its caption (the
--           frame's title names it: "... (Figure 1.4)"), and its point; a figure
--           whose PDF has several pages (gantt.lua's schedules) a frame per page
--   tbl     the table, without its caption, and its point
--   code    the listing from its tested region, and its point
--   text    the slide's own text
--   review  the review questions (cards' fronts), three to a frame, at the end
-- A frame's title is the slide block's title= or else the section it stands in.
-- Cross-references on a slide print the book's numbers: every eq:, fig:, tbl: and
-- sec: label of the chapter is defined with its book number (\chalklabel), counted
-- in document order as crossref.lua counts them.
-- Records (util.record 'slides'): one line "KIND<TAB>ID-or-title" per frame made, for
-- the test that every marked element is in the deck (book/slides/test.sh).
-- Pandoc 2.17, --to beamer with book/slides/template.tex.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '../filters/?.lua;' .. package.path
local util = require 'util'

local WHO = 'frames.lua'
local REVIEW_PER_FRAME = 3

local chapter = 1
local chapter_title, chapter_short
local labels = {}           -- id -> number as the book prints it
local eq, fig, tbl, sec = 0, 0, 0, {}
local section_title = nil   -- inlines of the latest header
local out = pandoc.List()
local reviews = pandoc.List()

local function raw(s) return pandoc.RawInline('beamer', s) end
local function rawb(s) return pandoc.RawBlock('beamer', s) end

local function frame_header(title, classes, attrs)
  return pandoc.Header(2, title, pandoc.Attr('', classes or {}, attrs or {}))
end

local function title_of(div)
  local t = div.attributes.title
  if t and t ~= '' then
    -- a title may hold markdown ($maths$): read it as such
    local doc = pandoc.read(t, 'markdown')
    if doc.blocks[1] then return doc.blocks[1].content end
  end
  return section_title and section_title:clone() or pandoc.List({ pandoc.Str('') })
end

-- Counting, as crossref.lua does: figures, tables, equations, sections.
local function count(b)
  if b.t == 'Header' then
    if b.level == 1 then
      chapter_title = b.content
      chapter_short = b.attributes.short
      return
    end
    section_title = b.content
    if b.classes:includes('unnumbered') then return end
    for l = b.level + 1, 6 do sec[l] = nil end
    sec[b.level] = (sec[b.level] or 0) + 1
    local parts = { tostring(chapter) }
    for l = 2, b.level do parts[#parts + 1] = tostring(sec[l] or 0) end
    if b.identifier:match('^sec:') then labels[b.identifier] = table.concat(parts, '.') end
  elseif b.t == 'Para' or b.t == 'Plain' then
    local img = #b.content == 1 and b.content[1]
    if b.t == 'Para' and img and img.t == 'Image' and #img.caption > 0 then
      fig = fig + 1
      if img.identifier ~= '' then labels[img.identifier] = chapter .. '.' .. fig end
      return
    end
    for _, el in ipairs(b.content) do
      local id = el.t == 'RawInline' and el.text:match('^\\begin{equation}\\label{([^}]+)}')
      if id then
        eq = eq + 1
        labels[id] = chapter .. '.' .. eq
      end
    end
  elseif b.t == 'Table' then
    if #b.caption.long > 0 then
      tbl = tbl + 1
      if b.attr.identifier ~= '' then labels[b.attr.identifier] = chapter .. '.' .. tbl end
    end
  end
end

-- The blocks of a frame: figures without captions and at the frame's size,
-- equations with the book's number.
-- The pages of a figure's PDF (pdfinfo): a diagram of several pictures, such as
-- gantt.lua's one per schedule in a deck, has one page each.
local function pages_of(pdf)
  local p = io.popen('pdfinfo ' .. util.shell_quote(pdf) .. ' 2>/dev/null')
  local info = p:read('a')
  p:close()
  return tonumber(info:match('Pages:%s*(%d+)')) or 1
end

local function figure_pages(blocks)
  for _, b in ipairs(blocks) do
    local img = b.t == 'Para' and #b.content == 1 and b.content[1]
    if img and img.t == 'Image' and #img.caption > 0 then return pages_of(img.src) end
  end
  return 1
end

-- (page: the page of a figure of several pages this frame shows, or nil)
local function slide_blocks(blocks, page)
  local res = pandoc.List()
  -- a figure alone on its frame gets the text's room too
  local others = 0
  for _, b in ipairs(blocks) do
    local img = b.t == 'Para' and #b.content == 1 and b.content[1]
    local cap = b.t == 'Para' and b.content[1] and b.content[1].t == 'Str' and b.content[1].text == 'Caption:'
    if not (img and img.t == 'Image') and not cap then others = others + 1 end
  end
  for _, b in ipairs(blocks) do
    local img = b.t == 'Para' and #b.content == 1 and b.content[1]
    if img and img.t == 'Image' and #img.caption > 0 then
      local height = others == 0 and '[\\chalkfigheightalone]' or ''
      if page then
        res:insert(rawb('\\chalkfigurepage' .. height .. '{' .. page .. '}{' .. img.src .. '}'))
      else
        res:insert(rawb('\\chalkfigure' .. height .. '{' .. img.src .. '}'))
      end
    elseif b.t == 'Para' and #b.content >= 1 and b.content[1].t == 'Str' and b.content[1].text == 'Caption:' then
      -- the figure's caption stays in the book
    elseif b.t == 'Table' then
      b.caption = { long = {}, short = nil }
      res:insert(b)
    elseif b.t == 'Para' or b.t == 'Plain' then
      b.content = b.content:map(function(el)
        if el.t == 'RawInline' then
          local id = el.text:match('^\\begin{equation}\\label{([^}]+)}')
          if id then
            el.text = el.text:gsub('^\\begin{equation}', '\\begin{equation}\\tag{' .. labels[id] .. '}', 1)
          end
        end
        return el
      end)
      res:insert(b)
    else
      res:insert(b)
    end
  end
  return res
end

local function record(kind, what)
  util.record('slides', kind .. '\t' .. what)
end

local function id_in(blocks)
  local found = ''
  pandoc.walk_block(pandoc.Div(blocks), {
    Image = function(i) if found == '' then found = i.identifier end end,
    RawInline = function(r)
      if found == '' then found = r.text:match('^\\begin{equation}\\label{([^}]+)}') or '' end
    end,
    Table = function(t) if found == '' then found = t.attr.identifier end end,
    CodeBlock = function(c)
      if found == '' and c.attributes.include then found = c.attributes.include .. '#' .. (c.attributes.region or '') end
    end,
  })
  return found
end

local function make_frame(div)
  local kind = div.attributes.kind
  local blocks = div.content
  if kind == 'head' then
    local h = blocks[1]
    out:insert(pandoc.Header(1, h.content, pandoc.Attr(h.identifier ~= '' and ('slides-' .. h.identifier) or '')))
    record('head', h.identifier)
    if #blocks > 1 then
      local rest = pandoc.List(blocks)
      rest:remove(1)
      local t = (div.attributes.title or '') ~= '' and title_of(div) or h.content
      out:insert(frame_header(t))
      out:extend(slide_blocks(rest))
    end
  elseif kind == 'review' then
    reviews:insert(blocks)
  else
    local title = title_of(div)
    if kind == 'fig' or kind == 'tbl' or kind == 'eq' then
      local id = id_in(blocks)
      -- (an equation shows its number in its \tag; a figure or table in the title)
      if labels[id] and kind ~= 'eq' then
        local word = ({ fig = 'Figure', tbl = 'Table', eq = '' })[kind]
        title = title:clone()
        title:insert(raw('\\chalkframeref{' .. (word ~= '' and (word .. '~' .. labels[id]) or ('(' .. labels[id] .. ')')) .. '}'))
      end
      record(kind, id)
    elseif kind == 'code' then
      record(kind, id_in(blocks))
    else
      record(kind, pandoc.utils.stringify(title))
    end
    local pages = kind == 'fig' and figure_pages(blocks) or 1
    if pages > 1 then
      -- a figure of several pages: a frame each, the same title and point
      for page = 1, pages do
        out:insert(frame_header(title:clone(), { 'c' }))
        out:extend(slide_blocks(pandoc.List(blocks):map(function(b) return b:clone() end), page))
      end
      return
    end
    out:insert(frame_header(title, (kind == 'fig' or kind == 'eq') and { 'c' } or {}))
    local body = slide_blocks(blocks)
    if kind == 'eq' then
      -- the equation large, its point below it at the normal size
      body:insert(1, rawb('\\begin{chalkbig}'))
      body:insert(3, rawb('\\end{chalkbig}\\medskip'))
    end
    out:extend(body)
  end
end

local function walk(blocks)
  for _, b in ipairs(blocks) do
    if b.t == 'Div' and b.classes:includes('slide-frame') then
      -- count what is inside first (a marked figure is a figure of the book)
      for _, x in ipairs(b.content) do count(x) end
      make_frame(b)
    else
      count(b)
      if b.t == 'Div' or b.t == 'BlockQuote' then
        walk(b.content)
      elseif b.t == 'BulletList' or b.t == 'OrderedList' then
        for _, item in ipairs(b.content) do walk(item) end
      end
    end
  end
end

return {
  {
    Pandoc = function(doc)
      chapter = util.context(doc.meta).chapters + 1
      walk(doc.blocks)
      -- the review questions: the cards' fronts, a few to a frame
      if #reviews > 0 then
        out:insert(pandoc.Header(1, { pandoc.Str('Review') }))
        local k = 0
        while k < #reviews do
          local items = pandoc.List()
          for j = k + 1, math.min(k + REVIEW_PER_FRAME, #reviews) do items:insert(reviews[j]) end
          out:insert(frame_header({ pandoc.Str('Review questions') }))
          out:insert(pandoc.OrderedList(items, { k + 1, 'Decimal', 'Period' }))
          k = k + REVIEW_PER_FRAME
        end
        record('review', tostring(#reviews))
      end
      -- every label of the chapter with its book number, before the first frame
      local defs = {}
      local ids = {}
      for id in pairs(labels) do ids[#ids + 1] = id end
      table.sort(ids)
      for _, id in ipairs(ids) do defs[#defs + 1] = '\\chalklabel{' .. id .. '}{' .. labels[id] .. '}' end
      doc.meta['chalk-labels'] = pandoc.MetaBlocks({ rawb(table.concat(defs, '\n')) })
      doc.meta['chapter-number'] = tostring(chapter)
      if chapter_title then doc.meta['chapter-title'] = pandoc.MetaInlines(chapter_title) end
      local short = chapter_short or (chapter_title and pandoc.utils.stringify(chapter_title):match('^([^:]+)'))
      if short then doc.meta['chapter-short'] = short end
      doc.blocks = out
      return doc
    end,
  },
}
