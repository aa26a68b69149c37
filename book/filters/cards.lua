-- cards.lua -- flashcards leave the chapter body for a "Review cards" section.
--
-- Consumes (book/README.md, "Flashcards"):
--     ::: {.card id=ch1-latency-floor tags="roofline latency"}
--     ::: front
--     Question ...
--     :::
--     ::: back
--     Answer ...
--     :::
--     :::
-- Every card is removed where it stands and printed, in order, in a numbered
-- section "Review cards" at the end of its chapter: just before the chapter's
-- "## Practice problems" section when it has one (that section stays last and
-- untouched), otherwise before the next level-1 header or the end of the book.
-- For LaTeX each card is the template's chalkcard box (front above the rule,
-- back below); other formats get Div.review-card with the front and back Divs.
-- Stops the build on: a card without id, an id used twice, a card without
-- exactly one front and one back, anything else inside a card, a card nested in
-- another box (the checks of util.card, shared with flashcards.lua).
-- (make flashcards reads the same cards for Anki; this filter only lays them out.)
-- Each id is recorded (util.record 'ids'): book/build.sh, which converts each file
-- alone, checks that no id is used twice in the whole book.
--
-- Order: after chalk.lua (numbers on the cards are text by then); before
-- crossref.lua. Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'cards.lua'
local ids = {}

local function render(id, front, back)
  if util.is_latex() then
    local out = pandoc.List({ pandoc.RawBlock('latex', '\\begin{chalkcard}') })
    out:extend(front)
    out:insert(pandoc.RawBlock('latex', '\\tcblower'))
    out:extend(back)
    out:insert(pandoc.RawBlock('latex', '\\end{chalkcard}'))
    return out
  end
  return { pandoc.Div({ pandoc.Div(front, pandoc.Attr('', { 'front' })),
    pandoc.Div(back, pandoc.Attr('', { 'back' })) }, pandoc.Attr(id, { 'review-card' })) }
end

local function review_section(cards)
  local out = pandoc.List({ pandoc.Header(2, 'Review cards', pandoc.Attr('', { 'review-cards' })) })
  if util.is_latex() then
    out:insert(pandoc.Para({ pandoc.Emph({
      pandoc.Str('Cover the answer below each rule, recall it, then check. '),
      pandoc.Code('make flashcards'), pandoc.Str(' exports these cards for Anki.') }) }))
  end
  for _, c in ipairs(cards) do out:extend(c) end
  return out
end

return {
  {
    Pandoc = function(doc)
      local out, cards = pandoc.List(), pandoc.List()
      local function flush()
        if #cards > 0 then out:extend(review_section(cards)) end
        cards = pandoc.List()
      end
      for _, b in ipairs(doc.blocks) do
        if b.t == 'Div' and b.classes:includes('card') then
          local id, _, front, back = util.card(WHO, b)
          if ids[id] then util.fail(WHO, 'card id "' .. id .. '" is used twice') end
          ids[id] = true
          util.record('ids', 'card ' .. id)
          cards:insert(render(id, front, back))
        else
          if b.t == 'Header' and (b.level == 1 or
              (b.level == 2 and pandoc.utils.stringify(b.content) == 'Practice problems')) then
            flush()
          elseif b.t == 'Div' then
            util.no_nested_card(WHO, b.content)
          end
          out:insert(b)
        end
      end
      flush()
      doc.blocks = out
      return doc
    end,
  },
}
