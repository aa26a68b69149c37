-- cards.lua -- each review card asks one thing (issue 20.7; book/README.md "Flashcards").
--
-- A pandoc filter that checks and prints findings; it changes nothing. Run by
-- tests/checks/run.sh on the chapters:
--     pandoc chapters/NN-*.md -L tests/checks/cards.lua -t native -o /dev/null
-- For each ::: {.card} (each input file is one chapter), reads its front's text
-- (what a reader sees: maths and code left out, so `a ? b : c` in code does not
-- count) and prints "FILE:LINE: card ID: message" when
--   * the front asks no question: it holds no "?";
--   * the front asks two: it holds two or more "?".
-- It also prints, prefixed "suspect: ", fronts that may ask two things in one
-- question (", and why", "and what", "and how", "and which", "and when", "; why")
-- and fronts that may be trivia (who said what: "lecture", "Reiner", "Dwarkesh",
-- "Axel", "say"); tests/checks/run.sh lists these for a reader to judge and does
-- not count them as failures: a heuristic that cannot tell "what and why" from
-- "the cost of compute and memory" must not fail the build.
-- Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local sources = require 'sources'

local findings = {}

local SUSPECT_TWO = { ', and why', ' and why', ' and what', ' and how', ' and which', ' and when', '; why', '; what', '; how' }
local SUSPECT_TRIVIA = { 'lecture', 'reiner', 'dwarkesh', 'axel', ' say', ' said', ' says' }

-- A "suspect: " line when the front holds one of the words.
local function suspect(low, words, what, text)
  for _, w in ipairs(words) do
    if low:find(w, 1, true) then
      findings[#findings + 1] = 'suspect: ' .. what .. '("' .. w:gsub('^[ ,;]+', '') .. '"): ' .. text
      return
    end
  end
end

-- The reader's text of blocks: no maths, no code.
local function text_of(blocks)
  local out = {}
  pandoc.walk_block(pandoc.Div(blocks), {
    Str = function(s) out[#out + 1] = s.text end,
    Space = function() out[#out + 1] = ' ' end,
    SoftBreak = function() out[#out + 1] = ' ' end,
    LineBreak = function() out[#out + 1] = ' ' end,
    Math = function() out[#out + 1] = ' x ' end,
    Code = function() out[#out + 1] = ' c ' end,
  })
  return table.concat(out)
end

return {
  {
    Pandoc = function(doc)
      local inputs = sources.inputs()
      local chapter = 0
      local function visit(blocks)
        for _, b in ipairs(blocks) do
          if b.t == 'Header' and b.level == 1 then chapter = chapter + 1 end
          if b.t == 'Div' and b.classes:includes('card') then
            local id = b.identifier ~= '' and b.identifier or (b.attributes.id or '?')
            local front
            for _, inner in ipairs(b.content) do
              if inner.t == 'Div' and inner.classes:includes('front') then front = inner.content end
            end
            local input = inputs[chapter] or { file = 'chapter ' .. chapter }
            local where = input.file .. ':' .. sources.line(input.text, 'id=' .. id)
            local text = text_of(front or {})
            local _, q = text:gsub('%?', '')
            if q == 0 then
              findings[#findings + 1] = where .. ': card ' .. id .. ': the front asks no question (no "?")'
            elseif q > 1 then
              findings[#findings + 1] = where .. ': card ' .. id .. ': the front asks ' .. q .. ' questions (' .. q .. ' "?"); a card asks one thing'
            end
            local low = ' ' .. text:lower()
            suspect(low, SUSPECT_TWO, where .. ': card ' .. id .. ': two things in one question? ', text)
            suspect(low, SUSPECT_TRIVIA, where .. ': card ' .. id .. ': trivia (who said what)? ', text)
          elseif b.t == 'Div' then
            visit(b.content)
          end
        end
      end
      visit(doc.blocks)
      sources.print(findings)
      return doc
    end,
  },
}
