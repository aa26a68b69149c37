-- flashcards.lua -- the chapters' flashcards as one Anki import file (make flashcards).
--
-- Consumes (book/README.md, "Flashcards"), at the top level of each chapter:
--     ::: {.card id=ch1-latency-floor tags="roofline latency"}
--     ::: front
--     Question ... $\beta N$ ...
--     :::
--     ::: back
--     Answer ... `decode ...`{.chalk key=latency_floor_s unit=ms} ...
--     :::
--     :::
-- Writes the side file named by the metadata field flashcards-out (default
-- build/flashcards.tsv; written whole to a .tmp file, then renamed), a plain-text
-- file Anki (2.1.55 or later) imports as is, with these header lines
-- (docs.ankiweb.net/importing/text-files.html, "File Headers"):
--     #separator:tab
--     #html:true
--     #notetype:Basic
--     #guid column:1
--     #tags column:4
--     #deck column:5
--     #if matches:update current
-- then one note per card: GUID, front, back, tags, deck.
-- No #columns line: it names the columns, and Anki then matches those names with
-- the fields of the profile's Basic note type, which are "Vorderseite"/"Rückseite"
-- or "Recto"/"Verso" in other languages; nothing matched, and each card came out
-- with its GUID as the front and an empty back. Without it, the columns the guid,
-- tags and deck lines do not claim fill the note's fields in order: front, back.
-- "#if matches:update current" makes a re-import update each note whose GUID is
-- already in the collection (an edited card, a corrected number) instead of
-- skipping it; the note's tags are then replaced by the file's.
--   GUID   "chalk-" .. id: the card id alone, so a rebuilt file keeps it and
--          re-importing an edited card updates the note in place, keeping its
--          review history.
--   front, back  HTML from pandoc's writer; math as Anki's MathJax \( \) and \[ \];
--          a tab becomes &#9;, a newline a space (<br> inside <pre>), so each
--          note is one line.
--   tags   the card's tags plus chalk::NN-topic (the chapter).
--   deck   "Chalk::02 MoE": one deck per chapter, named as the book names it: NN is
--          the chapter's number (its file's), then the chapter's short title, the
--          attribute short= of its level-1 header (`# Mixture of experts on a rack:
--          ... {#sec:moe short="MoE"}`), or else its title up to the first colon
--          ("Batching: how batch size sets ..." -> "Chalk::01 Batching"). Renaming a
--          deck moves no card: Anki matches notes by GUID.
-- Why a deck column and not `#deck:NAME`: that header only presets one deck
-- for the whole file (and only if it already exists); the deck column puts each
-- note in its own deck and creates the deck when missing (same page, "Deck Column").
--
-- Chapters: run pandoc on every chapter file at once, in order
-- (pandoc chapters/*.md ...); each file starts with its one level-1 header, and
-- the Nth level-1 header opens the Nth input file's chapter.
-- Stops the build on: a card without id, an id that is not [A-Za-z0-9._-],
-- an id used twice (naming both chapters), a card without exactly one front and
-- one back, a card inside another block (the checks of util.card, shared with
-- cards.lua), a live number not yet resolved, a file
-- count that does not match the level-1 headers.
--
-- Order: after chalk.lua, which turns live numbers into text first:
--     pandoc chapters/*.md -L book/filters/chalk.lua -L book/filters/flashcards.lua \
--         -M flashcards-out=build/flashcards.tsv -t html -o /dev/null
-- It changes nothing in the document. Pandoc 2.17 (pandoc.write for the HTML).

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'flashcards.lua'

local HEADER = {
  '#separator:tab',
  '#html:true',
  '#notetype:Basic',
  '#guid column:1',
  '#tags column:4',
  '#deck column:5',
  '#if matches:update current',
}

-- The deck of a chapter: "Chalk::" .. NN .. " " .. its short title (see above).
-- A '::' in the title would nest decks in Anki, and a tab would split the row.
local function deck_of(chapter, header)
  local nn = chapter:match('^(%d+)') or chapter
  local short = header and header.attributes.short
  if not short or short == '' then
    short = header and pandoc.utils.stringify(header.content) or chapter
    short = short:gsub(':.*$', '')
  end
  short = short:gsub('::', ':'):gsub('%s+', ' '):gsub('^ ', ''):gsub(' $', '')
  if short == '' then util.fail(WHO, chapter .. ': the chapter title gives an empty deck name') end
  return 'Chalk::' .. nn .. ' ' .. short
end

-- The chapter names (file names without directory and .md), in input order.
local function chapters()
  local out = {}
  for _, f in ipairs(PANDOC_STATE.input_files or {}) do
    out[#out + 1] = (f:match('([^/]+)$') or f):gsub('%.md$', '')
  end
  return out
end

local function html_escape(s)
  return (s:gsub('&', '&amp;'):gsub('<', '&lt;'):gsub('>', '&gt;'))
end

-- Blocks -> one line of HTML with MathJax delimiters.
local function html(blocks, where)
  local doc = pandoc.Pandoc(blocks):walk({
    Math = function(m)
      if m.mathtype == 'DisplayMath' then
        return pandoc.RawInline('html', '\\[' .. html_escape(m.text) .. '\\]')
      end
      return pandoc.RawInline('html', '\\(' .. html_escape(m.text) .. '\\)')
    end,
    Code = function(c)
      if c.classes:includes('chalk') then
        util.fail(WHO, where .. ': live number `' .. c.text ..
          '` is not resolved; run book/filters/chalk.lua before flashcards.lua')
      end
    end,
  })
  local text = pandoc.write(doc, 'html')
  text = text:gsub('\r', ''):gsub('\t', '&#9;')
  -- Newlines: kept as <br> inside <pre>, a space elsewhere; then one line.
  text = text:gsub('(<pre.-</pre>)', function(pre) return (pre:gsub('\n', '<br>')) end)
  text = text:gsub('%s*\n%s*', ' '):gsub('^%s+', ''):gsub('%s+$', '')
  -- A field that starts with a double quote would read as a quoted field.
  if text:sub(1, 1) == '"' then text = '&quot;' .. text:sub(2) end
  return text
end

return {
  {
    Pandoc = function(doc)
      local out = util.meta_string(doc.meta, 'flashcards-out', 'build/flashcards.tsv')
      local names = chapters()
      local seen = {} -- id -> chapter
      local lines = {}
      for _, h in ipairs(HEADER) do lines[#lines + 1] = h end
      local h1 = 0
      local count = 0
      local header
      for _, b in ipairs(doc.blocks) do
        if b.t == 'Header' and b.level == 1 then
          h1 = h1 + 1
          header = b
        elseif b.t == 'Div' and b.classes:includes('card') then
          if h1 == 0 then util.fail(WHO, 'a card comes before the first chapter title (# ...)') end
          local chapter = names[h1] or ('chapter ' .. h1)
          local id, tags, front, back = util.card(WHO, b, chapter)
          if seen[id] then
            util.fail(WHO, 'card id "' .. id .. '" is used twice (' .. seen[id] .. ' and ' .. chapter ..
              '); ids are Anki GUIDs and must be unique')
          end
          seen[id] = chapter
          tags[#tags + 1] = 'chalk::' .. chapter
          lines[#lines + 1] = table.concat({
            'chalk-' .. id,
            html(front, 'card ' .. id .. ' (front)'),
            html(back, 'card ' .. id .. ' (back)'),
            table.concat(tags, ' '),
            deck_of(chapter, header),
          }, '\t')
          count = count + 1
        elseif b.t == 'Div' then
          util.no_nested_card(WHO, b.content)
        end
      end
      if #names > 0 and h1 ~= #names then
        util.fail(WHO, #names .. ' input files but ' .. h1 ..
          ' chapter titles (# ...): each chapter file starts with exactly one level-1 header')
      end
      util.write_file(WHO, out, table.concat(lines, '\n') .. '\n')
      io.stderr:write(WHO .. ': ' .. count .. ' cards -> ' .. out .. '\n')
      return nil
    end,
  },
}
