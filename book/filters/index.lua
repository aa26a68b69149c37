-- index.lua -- the book's index: every term where it is defined, and terms marked by hand.
--
-- Consumes (book/README.md, "The index"):
--     the **balance batch** is ...          a term in bold is a definition: indexed
--     [balance batch]{.idx}                 this place is indexed under the text
--     [the batch's ratio]{.idx key="batch!ratio"}   ... under makeindex's KEY as given
--                                           (! a subentry, @ sort key @ display)
--     [**kept**]{.noidx}                    bold that defines nothing: not indexed
-- A bold term is indexed when it stands in running text (a paragraph, a list, a
-- footnote, a box): not in a header, a caption, a table, a flashcard (the Review
-- cards repeat what the chapter defined) or a ::: {.noidx} div; not when it ends in
-- . : ? or ! or starts with a quotation mark, a digit or $ (a run-in heading, a
-- quoted claim or a result, not a term: mark such a definition by hand,
-- [**The KV cache.**]{.idx key="KV cache"}). An entry is the term as printed,
-- without a leading "a", "an" or "the"; it is sorted by its text in lower case.
-- Output: for LaTeX, the term followed by \index{SORT@DISPLAY} (makeindex's
-- special characters " @ ! | quoted with "), which book/build.sh runs makeindex
-- on (book/index.ist) and the template prints at the end (\printindex); symbols and
-- presets are indexed by notation.lua and presets.lua. Other formats get the term in
-- a Span with class index-term, an id (idx-N: an anchor to link to) and the entry in
-- the attribute index-key, for a web edition's own index.
-- Stops the build on an {.idx} span with an empty text and no key.
--
-- Order: after chalk.lua (a live number in a term is text by then), before
-- boxes.lua and cards.lua (it knows a card by its div) and before citeproc.
-- Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'index.lua'
local count = 0

-- makeindex's special characters, quoted.
local function quote(s)
  return (s:gsub('(["@!|])', '"%1'))
end

-- The inlines of a term without a leading article.
local function term_inlines(inlines)
  local out = pandoc.List() -- a copy: pandoc.List(inlines) would be the same table
  for _, x in ipairs(inlines) do out:insert(x) end
  local first = out[1]
  if first and first.t == 'Str' and (first.text == 'a' or first.text == 'an' or first.text == 'the'
      or first.text == 'A' or first.text == 'An' or first.text == 'The') and out[2] and out[2].t == 'Space' then
    out:remove(1)
    out:remove(1)
  end
  return out
end

-- The makeindex entry of a term: SORT@DISPLAY (or DISPLAY when they agree).
local function entry_of(inlines)
  local term = term_inlines(inlines)
  local sort = pandoc.utils.stringify(term):lower():gsub('%s+', ' ')
  local display = util.latex_of(term)
  if sort == '' then return nil end
  if display == sort then return quote(display) end
  return quote(sort) .. '@' .. quote(display)
end

-- The index mark after a term: LaTeX \index, or an anchor Span around it.
local function mark(inlines, entry)
  count = count + 1
  if util.is_latex() then
    local out = pandoc.List()
    for _, x in ipairs(inlines) do out:insert(x) end
    out:insert(pandoc.RawInline('latex', '\\index{' .. entry .. '}'))
    return out
  end
  return { pandoc.Span(inlines, pandoc.Attr('idx-' .. count, { 'index-term' }, { ['index-key'] = entry })) }
end

local function defines(strong)
  local text = pandoc.utils.stringify(strong)
  return text:match('%S') and not text:match('[.:?!]%s*$') and not text:match('^%s*[“"‘\'$%d]')
end

local walk_blocks
local CONTAINERS = { Emph = true, Underline = true, Strikeout = true, Superscript = true,
  Subscript = true, SmallCaps = true, Quoted = true, Link = true, Span = true }

local function walk_inlines(inlines)
  local out = pandoc.List()
  for _, el in ipairs(inlines) do
    if el.t == 'Span' and el.classes:includes('idx') then
      local key = el.attributes.key
      local entry = key and key ~= '' and key or entry_of(el.content)
      if not entry then util.fail(WHO, 'an {.idx} span needs a text or key="..."') end
      out:extend(mark(el.content, entry))
    elseif el.t == 'Span' and el.classes:includes('noidx') then
      out:insert(el)
    elseif el.t == 'Strong' then
      if defines(el) then
        local entry = entry_of(el.content)
        if entry then out:extend(mark({ el }, entry)) else out:insert(el) end
      else
        out:insert(el)
      end
    elseif el.t == 'Note' then
      el.content = walk_blocks(el.content)
      out:insert(el)
    elseif el.t == 'Image' or el.t == 'Cite' or el.t == 'Math' or el.t == 'Code' then
      out:insert(el)
    elseif CONTAINERS[el.t] then
      el.content = walk_inlines(el.content)
      out:insert(el)
    else
      out:insert(el)
    end
  end
  return out
end

-- Drops the idx class of spans where no entry may go (headers, captions): the text stays.
local function strip(el)
  return el:walk({ Span = function(s)
    if s.classes:includes('idx') or s.classes:includes('noidx') then return s.content end
  end })
end

walk_blocks = function(blocks)
  local out = pandoc.List()
  for _, b in ipairs(blocks) do
    if b.t == 'Para' or b.t == 'Plain' then
      b.content = walk_inlines(b.content)
    elseif b.t == 'Div' then
      if b.classes:includes('card') or b.classes:includes('noidx') then b = strip(b)
      else b.content = walk_blocks(b.content) end
    elseif b.t == 'BlockQuote' then
      b.content = walk_blocks(b.content)
    elseif b.t == 'BulletList' or b.t == 'OrderedList' then
      for k, item in ipairs(b.content) do b.content[k] = walk_blocks(item) end
    elseif b.t == 'Header' or b.t == 'Table' or b.t == 'DefinitionList' then
      b = strip(b)
    end
    out:insert(b)
  end
  return out
end

return {
  {
    Pandoc = function(doc)
      doc.blocks = walk_blocks(doc.blocks)
      return doc
    end,
  },
}
