-- parens.lua -- no double parentheses around a reference (issue 20.11).
--
-- A pandoc filter that checks and prints findings; it changes nothing. Run by
-- tests/checks/run.sh on the book's files:
--     pandoc FILE.md... -L tests/checks/parens.lua -t native -o /dev/null
-- An equation reference prints with its parentheses, @eq:step as "(1.3)"
-- (book/filters/crossref.lua), so "(@eq:step)" prints "((1.3))" and "(see
-- @eq:step)" ends in "(1.3))". Prints "FILE:LINE: message" for
--   * a reference to an equation right after "(" or right before ")": write
--     "by @eq:step", or "(the step time, @eq:step, ...)" with words after it;
--   * "((" or "))" in the text (not in maths or code, where they are the
--     formula's own).
-- Each input file is read as one part of the book; in a file of several level-1
-- headers the findings name the file.
-- Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local sources = require 'sources'

local findings = {}

local function eq_ids(cite)
  local first, last = cite.citations[1], cite.citations[#cite.citations]
  return first and first.id:match('^eq:') and first.id, last and last.id:match('^eq:') and last.id
end

return {
  {
    Pandoc = function(doc)
      local inputs = sources.inputs()
      -- which file a block comes from: the one whose text holds it (the Nth
      -- level-1 header opens the Nth file when each file has one)
      local part = 0
      local function where(probe)
        local input = inputs[part] or inputs[1] or { file = 'input' }
        return input.file .. ':' .. sources.line(input.text, probe)
      end
      local function inlines(list)
        for i, el in ipairs(list) do
          if el.t == 'Cite' then
            local first, last = eq_ids(el)
            local prev, nxt = list[i - 1], list[i + 1]
            if first and prev and prev.t == 'Str' and prev.text:match('%($') then
              findings[#findings + 1] = where({ '(@' .. first, '([-@' .. first, '([@' .. first, '@' .. first }) .. ': "(" before @' .. first ..
                ', which prints its own parentheses: "((' .. '..." in the book'
            end
            if last and nxt and nxt.t == 'Str' and nxt.text:match('^%)') then
              findings[#findings + 1] = where({ '@' .. last .. ')', '@' .. last .. '])', '@' .. last }) .. ': ")" after @' .. last ..
                ', which prints its own parentheses: "...))" in the book'
            end
          elseif el.t == 'Str' and (el.text:find('((', 1, true) or el.text:find('))', 1, true)) then
            findings[#findings + 1] = where(el.text) .. ': doubled parentheses in the text: "' .. el.text .. '"'
          end
        end
      end
      local walker = {
        Inlines = function(list) inlines(list) end,
      }
      for _, b in ipairs(doc.blocks) do
        if b.t == 'Header' and b.level == 1 then part = math.min(part + 1, #inputs) end
        pandoc.walk_block(pandoc.Div({ b }), walker)
      end
      sources.print(findings)
      return doc
    end,
  },
}
