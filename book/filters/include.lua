-- include.lua -- code listings from named regions of the real, tested sources.
--
-- Consumes (book/README.md, "Code from the real sources"):
--     ```{.c include="solutions/01-batching/batching.c" region="balance"}
--     ```
-- The block's text becomes the lines strictly between `/* region: balance */`
-- and `/* endregion: balance */` (other region markers inside are dropped, the
-- common indentation removed). Paths are relative to the directory pandoc runs
-- in (the repository root). Never line numbers.
-- Stops the build, naming the file and the region, when the file is missing,
-- the region is missing, unterminated, duplicated or empty, the block has
-- text of its own, or the listing prints as more than MAX_LINES lines: a listing sits in a
-- box that does not break across pages, so a longer one runs past the foot of
-- the page and its last lines never print. Split it into regions (book/README.md).
-- Editions: a file under solutions/ is solution code; the student edition
-- (default; -M edition=instructor shows it) leaves the listing out.
--
-- Output: for LaTeX the listing and \chalksource{FILE, region NAME} under it; for
-- HTML a Div.listing holding the listing and a paragraph .listing-source naming
-- the file and region; other formats get the listing with attribute source.
--
-- Order: independent of the other filters (it only reads CodeBlocks with
-- `include`). Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'include.lua'

-- The most printed lines a listing may have: what one page's body holds of
-- \footnotesize code in its grey box under a solution's title (book/template.tex:
-- A4, top 2.8 cm and bottom 3.2 cm leave a 672 pt body; code lines are 11.09 pt
-- apart and 4.58 pt a character, measured with pdftotext -bbox on the instructor
-- edition; the boxes' padding and the title take about 30 pt: (672 - 30) / 11.09
-- = 57.9 lines, less a line to spare). A line longer than LINE_CHARS wraps
-- (fvextra breaklines) and counts as the lines it prints as.
local MAX_LINES = 56
local LINE_CHARS = 80 -- 368 pt inside the boxes / 4.58 pt

-- The lines `code` prints as in the PDF.
local function printed_lines(code)
  local n = 0
  for line in (code .. '\n'):gmatch('(.-)\n') do
    local expanded = line:gsub('\t', '        ')
    local width = utf8.len(expanded) or #expanded
    n = n + math.max(1, math.ceil(width / LINE_CHARS))
  end
  return n
end
local edition = 'student'

-- Escapes a region name for a Lua pattern.
local function pat(s)
  return (s:gsub('[%^%$%(%)%%%.%[%]%*%+%-%?]', '%%%0'))
end

-- The lines of `path` inside region `name`, dedented, joined by newlines.
local function region(path, name)
  local text = util.read_file(path)
  if not text then util.fail(WHO, path .. ': no such file (wanted region "' .. name .. '")') end
  util.depend(path)
  local open = '/%*%s*region:%s*' .. pat(name) .. '%s*%*/'
  local close = '/%*%s*endregion:%s*' .. pat(name) .. '%s*%*/'
  local lines, inside, found, done = {}, false, 0, false
  for line in (text .. (text:sub(-1) == '\n' and '' or '\n')):gmatch('(.-)\n') do
    if line:match(open) then
      found = found + 1
      if found > 1 then util.fail(WHO, path .. ': region "' .. name .. '" appears twice') end
      inside = true
    elseif line:match(close) then
      if not inside then util.fail(WHO, path .. ': region "' .. name .. '" ends before it begins') end
      inside, done = false, true
    elseif inside and not line:match('/%*%s*e?n?d?region:.-%*/') then
      lines[#lines + 1] = line
    end
  end
  if found == 0 then util.fail(WHO, path .. ': no region "' .. name .. '"') end
  if not done then util.fail(WHO, path .. ': region "' .. name .. '" has no endregion') end
  local indent
  for _, l in ipairs(lines) do
    if l:match('%S') then
      local w = #l:match('^[ \t]*')
      if not indent or w < indent then indent = w end
    end
  end
  if not indent then util.fail(WHO, path .. ': region "' .. name .. '" is empty') end
  for i, l in ipairs(lines) do lines[i] = l:sub(indent + 1) end
  while #lines > 0 and not lines[#lines]:match('%S') do table.remove(lines) end
  while #lines > 0 and not lines[1]:match('%S') do table.remove(lines, 1) end
  return table.concat(lines, '\n')
end

local function is_solution(path)
  return path:match('^solutions/') or path:match('/solutions/')
end

local function codeblock(cb)
  local path = cb.attributes.include
  if not path then return nil end
  local name = cb.attributes.region
  if not name or name == '' then
    util.fail(WHO, path .. ': needs region="NAME" (whole files and line numbers are not included)')
  end
  if cb.text:match('%S') then
    util.fail(WHO, path .. ', region "' .. name .. '": the block must be empty')
  end
  local code = region(path, name)
  local printed = printed_lines(code)
  if printed > MAX_LINES then
    util.fail(WHO, path .. ', region "' .. name .. '": ' .. printed .. ' printed lines, more than the ' ..
      MAX_LINES .. ' a page holds; split it into regions of at most ' .. MAX_LINES .. ' lines')
  end
  if is_solution(path) and edition == 'student' then return {} end
  cb.text = code
  cb.attributes.include = nil
  cb.attributes.region = nil
  if util.is_html() then
    return pandoc.Div({ cb, pandoc.Para({ pandoc.Code(path), pandoc.Str(', region '), pandoc.Str(name) }) },
      pandoc.Attr('', { 'listing' }))
  end
  if not util.is_latex() then
    cb.attributes.source = path .. ', region ' .. name
    return cb
  end
  -- Under the listing, in small type: where it comes from.
  local src = util.latex_of({ pandoc.Code(path) }) .. ', region ' ..
      util.latex_of({ pandoc.Str(name) })
  return { cb, pandoc.RawBlock('latex', '\\chalksource{' .. src .. '}') }
end

return {
  { Meta = function(meta) edition = util.edition(WHO, meta) end },
  { CodeBlock = codeblock },
}
