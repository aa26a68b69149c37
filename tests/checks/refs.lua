-- refs.lua -- every `§N.M (Title)` in the code names a section of the book, with its title.
--
-- A pandoc filter that checks and prints findings; it changes nothing. Run by
-- tests/checks/run.sh on the whole book, after cards.lua (which adds each
-- chapter's "Review cards" section, numbered like any other):
--     pandoc book/preface.md chapters/*.md book/appendix.md -L book/filters/cards.lua \
--         -L tests/checks/refs.lua -M refs-chapters="01-batching 02-moe" -t native -o /dev/null
-- Numbers sections as the book prints them (pandoc's numbering, as
-- book/filters/crossref.lua counts): a numbered level-1 header opens chapter N
-- (after an .appendix header, A, B, ...); its level-2 and level-3 headers are N.M
-- and N.M.K; unnumbered headers (.unnumbered, {-}) and the sections of an
-- unnumbered chapter (the preface) get no number.
-- Then reads, for each chapter NN-topic of refs-chapters (default: every chapter
-- file given), the files that point readers at the book (formats.md, "Section
-- references"): exercises/NN-topic/*.h, *.c, exercises.txt (contracts, stubs,
-- the exercise list), tests/NN-topic/hints.txt and mistakes.txt (hints, mistake
-- diagnoses), tests/NN-topic/*.c and hidden/*.c (test messages), and
-- solutions/NN-topic/*.c (the reference, printed in the instructor edition). A
-- reference read across a line break is read whole: a comment's next line (its
-- " * " or "// ") and a C string's continuation ("..." "...") join it.
-- Prints "FILE:LINE: message" for each reference that
--   * names no section of the book (§7.2, §2.14);
--   * has no title: `§N.M` must be followed by ` (Title)`;
--   * has a title that is not its section's: the heading, or the heading up to
--     its first colon; compared without case, with runs of spaces as one, ’ as ',
--     “” as ", and dashes as -.
-- `lecture §N` is the lecture's numbering, not the book's: not checked.
-- Pandoc 2.17.

local findings = {}
local function say(where, msg) findings[#findings + 1] = where .. ': ' .. msg end

local function norm(s)
  s = s:gsub('\u{2019}', "'"):gsub('\u{2018}', "'"):gsub('\u{201C}', '"'):gsub('\u{201D}', '"')
  s = s:gsub('\u{2014}', '-'):gsub('\u{2013}', '-'):gsub('%-%-+', '-')
  s = s:gsub('%s+', ' '):gsub('^ ', ''):gsub(' $', '')
  return s:lower()
end

-- A heading as code writes it: ASCII quotes and dashes.
local function ascii(s)
  s = s:gsub('\u{2019}', "'"):gsub('\u{2018}', "'"):gsub('\u{201C}', '"'):gsub('\u{201D}', '"')
  return (s:gsub('\u{2014}', '--'):gsub('\u{2013}', '-'))
end

local LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

-- number -> heading text, from the whole book's headers
local function sections(doc)
  local out = {}
  local chapter, appendix, unnumbered = 0, false, false
  local count = {}
  local function label()
    return appendix and LETTERS:sub(chapter, chapter) or tostring(chapter)
  end
  for _, b in ipairs(doc.blocks) do
    if b.t == 'Header' then
      local title = pandoc.utils.stringify(b.content)
      if b.level == 1 then
        if b.classes:includes('appendix') and not appendix then appendix, chapter = true, 0 end
        unnumbered = b.classes:includes('unnumbered')
        if not unnumbered then
          chapter = chapter + 1
          count = {}
          out[label()] = title
        end
      elseif b.level <= 3 and not unnumbered and not b.classes:includes('unnumbered') and chapter > 0 then
        for l = b.level + 1, 6 do count[l] = nil end
        count[b.level] = (count[b.level] or 0) + 1
        local parts = { label() }
        for l = 2, b.level do parts[#parts + 1] = tostring(count[l] or 0) end
        out[table.concat(parts, '.')] = title
      end
    end
  end
  return out
end

local function read(path)
  local h = io.open(path, 'r')
  if not h then return nil end
  local s = h:read('a')
  h:close()
  return s
end

local function files_of(chapter)
  local globs = {
    'exercises/' .. chapter .. '/*.h', 'exercises/' .. chapter .. '/*.c',
    'exercises/' .. chapter .. '/exercises.txt', 'tests/' .. chapter .. '/hints.txt',
    'tests/' .. chapter .. '/mistakes.txt', 'tests/' .. chapter .. '/*.c',
    'tests/' .. chapter .. '/hidden/*.c', 'solutions/' .. chapter .. '/*.c',
  }
  local out = {}
  local p = io.popen('ls -d ' .. table.concat(globs, ' ') .. ' 2>/dev/null')
  for f in p:lines() do out[#out + 1] = f end
  p:close()
  table.sort(out)
  return out
end

-- The text from `pos` on, as a reader reads it: comment and string continuations joined.
local function logical(text, pos)
  local s = text:sub(pos, pos + 400)
  s = s:gsub('"%s*\n%s*"', '')        -- "... (Anatomy " "of an MoE layer)"
  s = s:gsub('\n%s*%*+/?%s*', ' ')     -- block comment: " * " on the next line
  s = s:gsub('\n%s*//+%s*', ' ')       -- line comments
  s = s:gsub('\n%s*', ' ')
  return s
end

local function check_file(path, secs)
  local text = read(path)
  if not text then return end
  local pos = 1
  while true do
    local at = text:find('\u{00A7}', pos, true)
    if not at then break end
    pos = at + 2
    local _, nl = text:sub(1, at):gsub('\n', '')
    local where = path .. ':' .. (nl + 1)
    local before = text:sub(math.max(1, at - 12), at - 1):lower()
    if not before:match('lecture%s*$') then
      local s = logical(text, at + 2)
      local num = s:match('^(%d+[%.%d]*%d)') or s:match('^(%d+)') or s:match('^(%u[%.%d]*%d)') or s:match('^(%u)%f[^%w]')
      -- a capital letter is an appendix only when the book has one by that letter
      -- (§N.M in a comment that explains the convention is no reference)
      if num and num:match('^%u') and not secs[num:sub(1, 1)] then
        -- not a reference
      elseif not num then
        say(where, '\u{00A7} without a section number')
      else
        local rest = s:sub(#num + 1)
        local title = rest:match('^%s*(%b())')
        local shown = '\u{00A7}' .. num .. (title and (' ' .. title) or '')
        local heading = secs[num]
        if not heading then
          say(where, shown .. ': the book has no section ' .. num)
        elseif not title then
          say(where, shown .. ' has no title: write \u{00A7}' .. num .. ' (' .. ascii(heading):gsub(':.*$', '') .. ')')
        else
          local t = norm(title:sub(2, -2))
          local full = norm(heading)
          local short = norm((heading:gsub(':.*$', '')))
          if t ~= full and t ~= short then
            say(where, shown .. ': the book\'s \u{00A7}' .. num .. ' is "' .. heading .. '"')
          end
        end
      end
    end
  end
end

return {
  {
    Pandoc = function(doc)
      local secs = sections(doc)
      local chosen = doc.meta['refs-chapters'] and pandoc.utils.stringify(doc.meta['refs-chapters']) or ''
      local chapters = {}
      for c in chosen:gmatch('%S+') do chapters[#chapters + 1] = c end
      if #chapters == 0 then
        for _, f in ipairs(PANDOC_STATE.input_files or {}) do
          local c = f:match('^chapters/(%d%d%-[^/]+)%.md$')
          if c then chapters[#chapters + 1] = c end
        end
      end
      for _, c in ipairs(chapters) do
        for _, f in ipairs(files_of(c)) do check_file(f, secs) end
      end
      if doc.meta['refs-list'] then
        local nums = {}
        for k in pairs(secs) do nums[#nums + 1] = k end
        table.sort(nums)
        for _, k in ipairs(nums) do io.stdout:write('# ', k, ' ', secs[k], '\n') end
      end
      for _, f in ipairs(findings) do io.stdout:write(f, '\n') end
      return doc
    end,
  },
}
