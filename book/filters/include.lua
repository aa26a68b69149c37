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
-- the region is missing, unterminated, duplicated or empty, or the block has
-- text of its own.
-- Editions: a file under solutions/ is solution code; the student edition
-- (default; -M edition=instructor shows it) leaves the listing out.
--
-- Order: independent of the other filters (it only reads CodeBlocks with
-- `include`). Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'include.lua'
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
  if is_solution(path) and edition == 'student' then return {} end
  cb.text = code
  cb.attributes.include = nil
  cb.attributes.region = nil
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
