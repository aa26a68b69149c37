-- slides.lua -- what a chapter marks for the lecture slides (book/slides/README.md).
--
-- Consumes, in a chapter:
--     ## Section {#sec:x .slide}                 a section of the deck (a divider slide)
--     $$ ... $$ {#eq:x .slide}                    an equation's slide
--     : Table caption {#tbl:x .slide}             a table's slide
--     ```{.plot #fig:x .slide ...}  (also .diagram, .gantt, .c include=...)
--                                                 a figure's (or listing's) slide
--     ::: {.card id=... .slide}                   a review question of the deck
--     ::: {.slide title="..."}                    a slide's own short text: it joins the
--     Text for the slide.                         marked element right before it (its
--     :::                                         title and its one-line point), or is a
--                                                 slide of its own
-- Every edition but the slides (FORMAT ~= 'beamer': the PDF, the web edition) ignores
-- the marks: the `::: slide` blocks are dropped and `.slide` is taken out of the
-- labels and attributes, so the other filters see the chapter as before.
-- For the slides (FORMAT == 'beamer', book/slides/build.sh) each marked element is
-- wrapped, with its figure's "Caption:" paragraph and the `::: slide` block that
-- follows it, in a Div of class slide-frame (attributes kind = head | eq | tbl | fig
-- | code | text | review, and title); the practice problems are dropped (no slide
-- shows them). book/slides/frames.lua, the last filter of the deck, makes the frames.
--
-- Records (beamer): 'slide-chalk', each live number of a slide block.
-- Order: first, before include.lua (which would read a marked listing) and
-- crossref.lua (which reads "{#eq:x}" and "{#tbl:x}" whole). Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local BEAMER = FORMAT == 'beamer'

-- The slides' own live numbers, recorded (util.record 'slide-chalk': the command, then
-- its attributes) for the test that a slide prints what the book prints for the same
-- command (book/slides/test.sh).
local function record_numbers(blocks)
  pandoc.walk_block(pandoc.Div(blocks), {
    Code = function(c)
      if c.classes:includes('chalk') then
        local attrs = {}
        for k, v in pairs(c.attributes) do attrs[#attrs + 1] = k .. '=' .. v end
        table.sort(attrs)
        util.record('slide-chalk', c.text .. '\t' .. table.concat(attrs, ' '))
      end
    end,
  })
end

-- "{#eq:x .slide}" (one Str or several, pandoc splits it at the blank) -> "{#eq:x}".
-- Returns the new inlines and whether the mark was there.
local function unmark_label(inlines)
  local out, marked, i = pandoc.List(), false, 1
  while i <= #inlines do
    local el = inlines[i]
    if el.t == 'Str' and el.text:match('^{#[%a]+:[^}%s]+$') and inlines[i + 1] and inlines[i + 1].t == 'Space'
        and inlines[i + 2] and inlines[i + 2].t == 'Str' and inlines[i + 2].text == '.slide}' then
      out:insert(pandoc.Str(el.text .. '}'))
      marked = true
      i = i + 3
    else
      out:insert(el)
      i = i + 1
    end
  end
  return out, marked
end

local function drop_class(classes)
  local keep = pandoc.List()
  for _, c in ipairs(classes) do if c ~= 'slide' then keep:insert(c) end end
  return keep
end

local function is_slide_div(b)
  return b and b.t == 'Div' and b.classes:includes('slide')
end

local function frame(kind, blocks, title)
  return pandoc.Div(blocks, pandoc.Attr('', { 'slide-frame' }, { kind = kind, title = title or '' }))
end

local function has_caption(b)
  return b and b.t == 'Para' and b.content[1] and b.content[1].t == 'Str' and b.content[1].text == 'Caption:'
end

-- One list of blocks: unmarks everything; for the slides, wraps what is marked.
local function blocks_of(blocks)
  local out, cards, i = pandoc.List(), pandoc.List(), 1
  while i <= #blocks do
    local b = blocks[i]
    local kind, group = nil, { b }
    if b.t == 'Header' and b.classes:includes('slide') then
      b.classes = drop_class(b.classes)
      kind = 'head'
    elseif b.t == 'CodeBlock' and b.classes:includes('slide') then
      b.classes = drop_class(b.classes)
      if b.classes:includes('plot') or b.classes:includes('diagram') or b.classes:includes('gantt') then
        kind = 'fig'
        if has_caption(blocks[i + 1]) then group[2] = blocks[i + 1] end
      else
        kind = 'code'
      end
    elseif b.t == 'Para' then
      local marked
      b.content, marked = unmark_label(b.content)
      if marked then kind = 'eq' end
    elseif b.t == 'Table' then
      local long = b.caption.long
      local last = long[#long]
      if last and (last.t == 'Para' or last.t == 'Plain') then
        local marked
        last.content, marked = unmark_label(last.content)
        if marked then kind = 'tbl' end
      end
    elseif b.t == 'Div' and b.classes:includes('card') and b.classes:includes('slide') then
      b.classes = drop_class(b.classes)
      if BEAMER then
        for _, part in ipairs(b.content) do
          if part.t == 'Div' and part.classes:includes('front') then
            cards:insert(frame('review', part.content:clone(), ''))
          end
        end
      end
    elseif is_slide_div(b) then
      if BEAMER then
        record_numbers(b.content)
        out:insert(frame('text', b.content, b.attributes.title))
      end
      i = i + 1
      goto continue
    elseif b.t == 'CodeBlock' and b.classes:includes('problem') and BEAMER then
      i = i + 1
      goto continue
    end
    if b.t == 'Div' then
      local inner, inner_cards = blocks_of(b.content)
      b.content = inner
      cards:extend(inner_cards)
    end
    i = i + #group
    if kind and BEAMER then
      local title
      -- the slide block right after the element: its title and its point
      if is_slide_div(blocks[i]) then
        title = blocks[i].attributes.title
        record_numbers(blocks[i].content)
        for _, x in ipairs(blocks[i].content) do group[#group + 1] = x end
        i = i + 1
      end
      out:insert(frame(kind, group, title))
    else
      for _, x in ipairs(group) do out:insert(x) end
      -- a slide block after an element is dropped with the others (non-beamer)
    end
    ::continue::
  end
  return out, cards
end

return {
  {
    Pandoc = function(doc)
      local blocks, cards = blocks_of(doc.blocks)
      -- the review questions close the deck, in the chapter's order
      blocks:extend(cards)
      doc.blocks = blocks
      return doc
    end,
  },
}
