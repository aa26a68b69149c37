-- util.lua -- helpers shared by the book's Lua filters (not a filter itself).
--
-- Purpose: run the `chalk` calculator (its answers cached on disk) and read its
-- JSON/CSV output, format a number with a unit the way book/README.md ("Live
-- numbers") specifies, split a command line, read the edition and build directory
-- from the metadata, turn inlines into LaTeX, make figures from code blocks with
-- their captions (plot.lua, diagram.lua), check flashcards (cards.lua,
-- flashcards.lua), and keep files whole and cached products by content. Every
-- filter loads it with
--     package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
--     local util = require 'util'
--
-- Consumes: nothing from the document by itself.
-- Environment: CHALK names the calculator (default build/chalk, relative to the
-- directory pandoc runs in, the repository root); CHALK_CACHE the directory of
-- its cached answers (unset: none kept between runs).
-- Pandoc 2.17: no pandoc.json, so JSON is decoded here; pandoc.write exists.
-- Every error is raised with error(msg, 0): pandoc prints it and stops the build.

local M = {}

-- ---- errors -------------------------------------------------------------------

-- Stops the build with one message; `who` names the filter.
function M.fail(who, msg)
  error(who .. ': ' .. msg, 0)
end

-- ---- JSON ---------------------------------------------------------------------

-- Decodes a JSON text into Lua values; JSON null becomes M.null.
M.null = setmetatable({}, { __tostring = function() return 'null' end })

function M.json_decode(text)
  local pos = 1
  local function err(what)
    error('bad JSON at byte ' .. pos .. ': ' .. what, 0)
  end
  local function skip()
    pos = text:find('[^ \t\r\n]', pos) or #text + 1
  end
  local value
  local function str()
    local out = {}
    pos = pos + 1
    while true do
      local c = text:sub(pos, pos)
      if c == '' then err('unterminated string') end
      if c == '"' then pos = pos + 1; break end
      if c == '\\' then
        local e = text:sub(pos + 1, pos + 1)
        local map = { ['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t' }
        if map[e] then
          out[#out + 1] = map[e]; pos = pos + 2
        elseif e == 'u' then
          local hex = text:sub(pos + 2, pos + 5)
          if not hex:match('^%x%x%x%x$') then err('bad \\u escape') end
          out[#out + 1] = utf8.char(tonumber(hex, 16)); pos = pos + 6
        else
          err('bad escape')
        end
      else
        out[#out + 1] = c; pos = pos + 1
      end
    end
    return table.concat(out)
  end
  value = function()
    skip()
    local c = text:sub(pos, pos)
    if c == '{' then
      local obj = {}
      pos = pos + 1; skip()
      if text:sub(pos, pos) == '}' then pos = pos + 1; return obj end
      while true do
        skip()
        if text:sub(pos, pos) ~= '"' then err('expected a key') end
        local k = str(); skip()
        if text:sub(pos, pos) ~= ':' then err('expected :') end
        pos = pos + 1
        obj[k] = value(); skip()
        local d = text:sub(pos, pos); pos = pos + 1
        if d == '}' then return obj end
        if d ~= ',' then err('expected , or }') end
      end
    elseif c == '[' then
      local arr = {}
      pos = pos + 1; skip()
      if text:sub(pos, pos) == ']' then pos = pos + 1; return arr end
      while true do
        arr[#arr + 1] = value(); skip()
        local d = text:sub(pos, pos); pos = pos + 1
        if d == ']' then return arr end
        if d ~= ',' then err('expected , or ]') end
      end
    elseif c == '"' then
      return str()
    elseif text:sub(pos, pos + 3) == 'true' then pos = pos + 4; return true
    elseif text:sub(pos, pos + 4) == 'false' then pos = pos + 5; return false
    elseif text:sub(pos, pos + 3) == 'null' then pos = pos + 4; return M.null
    else
      local num = text:match('^-?%d+%.?%d*[eE]?[-+]?%d*', pos)
      if not num or num == '' then err('unexpected ' .. (c == '' and 'end' or c)) end
      pos = pos + #num
      return tonumber(num) or err('bad number ' .. num)
    end
  end
  local v = value(); skip()
  if pos <= #text then err('trailing text') end
  return v
end

-- ---- running chalk --------------------------------------------------------------

-- Splits a command line on blanks; "double quotes" group words.
function M.split_args(s)
  local args, cur, quoted, any = {}, {}, false, false
  for ch in s:gmatch('.') do
    if ch == '"' then
      quoted = not quoted; any = true
    elseif ch:match('%s') and not quoted then
      if any then args[#args + 1] = table.concat(cur); cur = {}; any = false end
    else
      cur[#cur + 1] = ch; any = true
    end
  end
  if quoted then error('unbalanced " in: ' .. s, 0) end
  if any then args[#args + 1] = table.concat(cur) end
  return args
end

-- A word for sh, in single quotes.
function M.shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

local cache = {}

-- The on-disk cache of chalk's answers: a directory named by the environment
-- variable CHALK_CACHE (book/build.sh sets build/cache/chalk), one file per
-- command whose name is the SHA-1 of the calculator's own bytes, the mode and the
-- command line. A rebuilt calculator has other bytes, so none of its old answers
-- is used; a failing command is never cached. Without CHALK_CACHE, answers are
-- kept for the one pandoc run only.
local digests = {}
local function cache_path(exe, shown)
  local dir = os.getenv('CHALK_CACHE')
  if not dir or dir == '' then return nil end
  if not digests[exe] then
    local bytes = M.read_file(exe, 'rb')
    if not bytes then return nil end
    digests[exe] = pandoc.utils.sha1(bytes)
    os.execute('mkdir -p ' .. M.shell_quote(dir))
  end
  return dir .. '/' .. pandoc.utils.sha1(digests[exe] .. '\0' .. shown)
end

-- Runs `chalk ARGS MODE` (MODE is --json or --csv) and returns its stdout.
-- A missing calculator or a non-zero exit stops the build, naming the command
-- and quoting chalk's own error line.
function M.run_chalk(who, cmdline, mode)
  local exe = os.getenv('CHALK') or 'build/chalk'
  local shown = 'chalk ' .. cmdline .. ' ' .. mode
  local key = exe .. '\0' .. shown
  if cache[key] then return cache[key] end
  local f = io.open(exe, 'r')
  if not f then M.fail(who, exe .. ' not found (run `make chalk`), needed by: ' .. shown) end
  f:close()
  M.depend(exe)
  local stored = cache_path(exe, shown)
  local hit = stored and M.read_file(stored)
  if hit then
    cache[key] = hit
    return hit
  end
  local args = M.split_args(cmdline)
  local quoted = { M.shell_quote(exe) }
  for _, a in ipairs(args) do quoted[#quoted + 1] = M.shell_quote(a) end
  quoted[#quoted + 1] = mode
  local errfile = os.tmpname()
  local p = io.popen(table.concat(quoted, ' ') .. ' 2>' .. M.shell_quote(errfile), 'r')
  local out = p:read('a')
  local ok, _, code = p:close()
  local ef = io.open(errfile, 'r')
  local stderr = ef and ef:read('a') or ''
  if ef then ef:close() end
  os.remove(errfile)
  if not ok then
    stderr = stderr:gsub('%s+$', '')
    M.fail(who, 'command failed (exit ' .. tostring(code) .. '): ' .. shown ..
      (stderr ~= '' and ('\n  ' .. stderr) or ''))
  end
  cache[key] = out
  if stored then M.write_file(who, stored, out, true) end
  return out
end

-- Runs chalk with --json and returns the decoded value.
function M.chalk_json(who, cmdline)
  local out = M.run_chalk(who, cmdline, '--json')
  local ok, v = pcall(M.json_decode, out)
  if not ok then M.fail(who, 'chalk ' .. cmdline .. ' --json: ' .. v) end
  return v
end

-- Looks a dotted key (e.g. "hw_ratio.bf16", "rows.3.step_s") up in a JSON value.
function M.lookup(v, key)
  for part in key:gmatch('[^.]+') do
    if type(v) ~= 'table' or v == M.null then return nil end
    local n = tonumber(part)
    if n and v[1] ~= nil then v = v[n + 1] else v = v[part] end
  end
  return v
end

-- Parses chalk's CSV (a header row, then rows; "quoted" fields may hold commas).
-- Returns header (list of names) and rows (list of name -> string).
function M.parse_csv(text)
  local lines = {}
  for line in text:gmatch('[^\r\n]+') do lines[#lines + 1] = line end
  local function fields(line)
    local out, i = {}, 1
    while i <= #line + 1 do
      if line:sub(i, i) == '"' then
        local buf, j = {}, i + 1
        while true do
          local c = line:sub(j, j)
          if c == '' then error('unterminated quote in CSV', 0) end
          if c == '"' then
            if line:sub(j + 1, j + 1) == '"' then buf[#buf + 1] = '"'; j = j + 2
            else j = j + 1; break end
          else buf[#buf + 1] = c; j = j + 1 end
        end
        out[#out + 1] = table.concat(buf)
        i = j + 1
      else
        local j = line:find(',', i, true) or #line + 1
        out[#out + 1] = line:sub(i, j - 1)
        i = j + 1
      end
    end
    return out
  end
  if #lines == 0 then error('empty CSV', 0) end
  local header = fields(lines[1])
  local rows = {}
  for k = 2, #lines do
    local f, row = fields(lines[k]), {}
    for c, name in ipairs(header) do row[name] = f[c] or '' end
    rows[#rows + 1] = row
  end
  return header, rows
end

-- ---- numbers with units ----------------------------------------------------------

-- Each unit: the factor the SI value is divided by, the text after the number
-- (a leading non-breaking space when it is a word), a prefix, or a rule.
M.units = {
  ['s'] = { div = 1, suffix = '\u{a0}s' },
  ['ms'] = { div = 1e-3, suffix = '\u{a0}ms' },
  ['us'] = { div = 1e-6, suffix = '\u{a0}µs' },
  ['B'] = { div = 1, suffix = '\u{a0}B' },
  ['KB'] = { div = 1e3, suffix = '\u{a0}KB' },
  ['MB'] = { div = 1e6, suffix = '\u{a0}MB' },
  ['GB'] = { div = 1e9, suffix = '\u{a0}GB' },
  ['TB'] = { div = 1e12, suffix = '\u{a0}TB' },
  ['KiB'] = { div = 1024, suffix = '\u{a0}KiB' },
  ['GiB'] = { div = 2 ^ 30, suffix = '\u{a0}GiB' },
  ['tok/s'] = { div = 1, suffix = '\u{a0}tokens/s' },
  ['USD'] = { div = 1, prefix = '$', money = true },
  ['x'] = { div = 1, suffix = '×' },
  ['%'] = { div = 0.01, suffix = '%' },
  ['FLOP'] = { div = 1, suffix = '\u{a0}FLOPs' },
  ['GFLOP'] = { div = 1e9, suffix = '\u{a0}GFLOPs' },
  ['TFLOP'] = { div = 1e12, suffix = '\u{a0}TFLOPs' },
  ['FLOP/s'] = { div = 1, suffix = '\u{a0}FLOP/s' },
  ['TFLOP/s'] = { div = 1e12, suffix = '\u{a0}TFLOP/s' },
  ['PFLOP/s'] = { div = 1e15, suffix = '\u{a0}PFLOP/s' },
  ['B/s'] = { div = 1, suffix = '\u{a0}B/s' },
  ['GB/s'] = { div = 1e9, suffix = '\u{a0}GB/s' },
  ['TB/s'] = { div = 1e12, suffix = '\u{a0}TB/s' },
  ['billion'] = { div = 1e9, suffix = '\u{a0}billion' },
  ['trillion'] = { div = 1e12, suffix = '\u{a0}trillion' },
  ['int'] = { div = 1, int = true },
  [''] = { div = 1 },
}

-- Axis-label text of a unit: "ms" -> "ms", "tok/s" -> "tokens/s", "x" -> "×".
function M.unit_label(unit)
  local u = M.units[unit]
  if not u or unit == '' or unit == 'int' then return nil end
  if u.money then return 'USD' end
  return ((u.suffix or ''):gsub('^\u{a0}', ''))
end

-- "1234567" -> "1,234,567" (the integer part of a decimal string).
local function group(digits)
  local int, rest = digits:match('^(%d+)(.*)$')
  if not int or #int <= 3 then return digits end
  int = int:reverse():gsub('(%d%d%d)', '%1,'):reverse():gsub('^,', '')
  return int .. rest
end

-- Rounds x to `digits` significant figures and writes it without an exponent,
-- dropping trailing zeros after the point: 0.01443 -> "0.0144", 128456 -> "128,000".
function M.sig(x, digits)
  if x == 0 then return '0' end
  local neg = x < 0
  x = math.abs(x)
  local e = math.floor(math.log(tonumber(string.format('%.' .. (digits - 1) .. 'e', x)), 10) + 1e-9)
  local s
  if e >= digits - 1 then
    local step = 10 ^ (e - digits + 1)
    s = string.format('%.0f', math.floor(x / step + 0.5) * step)
  else
    s = string.format('%.' .. (digits - 1 - e) .. 'f', x)
    s = s:gsub('(%.%d-)0+$', '%1'):gsub('%.$', '')
  end
  return (neg and '-' or '') .. group(s)
end

-- Formats an SI value for print: returns a plain string (the filter makes the
-- pandoc inlines) or, for a plain number too large or small for digits alone,
-- nil and a LaTeX math string "1.23\times10^{15}".
function M.format(who, value, unit, digits, scale)
  local u = M.units[unit or '']
  if not u then M.fail(who, 'unknown unit "' .. tostring(unit) .. '"') end
  if type(value) ~= 'number' then M.fail(who, 'not a number: ' .. tostring(value)) end
  digits = digits or 3
  local v = value * (scale or 1) / u.div
  if v ~= v or v == math.huge or v == -math.huge then
    M.fail(who, 'not a finite number: ' .. tostring(v))
  end
  if u.int then return group(string.format('%.0f', v)) end
  local a = math.abs(v)
  if unit == '' or unit == nil then
    if a ~= 0 and (a >= 1e9 or a < 1e-3) then
      local e = math.floor(math.log(a, 10))
      local m = M.sig(v / 10 ^ e, digits)
      if m:match('^%-?10$') then m = m:gsub('10', '1'); e = e + 1 end
      return nil, m .. '\\times10^{' .. e .. '}'
    end
  end
  local s = M.sig(v, digits)
  if u.money and s:match('%.%d$') then s = s .. '0' end
  return (u.prefix or '') .. s .. (u.suffix or '')
end

-- ---- metadata -------------------------------------------------------------------

-- The edition ("student" unless -M edition=instructor); anything else stops the build.
function M.edition(who, meta)
  local e = meta.edition and pandoc.utils.stringify(meta.edition) or 'student'
  if e ~= 'student' and e ~= 'instructor' then
    M.fail(who, 'edition must be student or instructor, not "' .. e .. '"')
  end
  return e
end

-- A metadata string with a default (e.g. build-dir, exercises-dir).
function M.meta_string(meta, key, default)
  local v = meta[key]
  if v == nil then return default end
  return pandoc.utils.stringify(v)
end

-- ---- LaTeX ----------------------------------------------------------------------

function M.is_latex()
  return FORMAT == 'latex' or FORMAT == 'beamer'
end

-- Inlines -> a LaTeX string (through pandoc's own writer, so escaping is right).
function M.latex_of(inlines)
  local doc = pandoc.Pandoc({ pandoc.Plain(inlines) })
  return (pandoc.write(doc, 'latex'):gsub('%s+$', ''))
end

-- ---- figures --------------------------------------------------------------------

-- The caption of a "Caption: ..." paragraph (its inlines without the word), or nil.
local function caption_of(b)
  if not b or b.t ~= 'Para' then return nil end
  local first = b.content[1]
  if not (first and first.t == 'Str' and first.text == 'Caption:') then return nil end
  local inl = pandoc.List(b.content)
  inl:remove(1)
  while #inl > 0 and (inl[1].t == 'Space' or inl[1].t == 'SoftBreak') do inl:remove(1) end
  return inl
end

-- A Blocks filter for figures drawn from code blocks (plot.lua, diagram.lua): each
-- code block of class `class`, with the "Caption: ..." paragraph that must follow
-- it, becomes one figure. draw(block) returns the image's path and attributes.
function M.figures(who, class, draw)
  return function(blocks)
    local out, i = pandoc.List(), 1
    while i <= #blocks do
      local b = blocks[i]
      if b.t == 'CodeBlock' and b.classes:includes(class) then
        local cap = caption_of(blocks[i + 1])
        if not cap or #cap == 0 then
          M.fail(who, (b.identifier ~= '' and b.identifier or ('a .' .. class .. ' block')) ..
            ': needs a paragraph "Caption: ..." right after it')
        end
        local path, attrs = draw(b)
        M.depend(path)
        out:insert(pandoc.Para({ pandoc.Image(cap, path, 'fig:', pandoc.Attr(b.identifier, {}, attrs)) }))
        i = i + 2
      else
        out:insert(b)
        i = i + 1
      end
    end
    return out
  end
end

-- ---- flashcards -----------------------------------------------------------------

-- One ::: {.card id=ID tags="..."} (book/README.md, "Flashcards"), checked the same
-- way for the book (cards.lua) and for Anki (flashcards.lua): an id of letters,
-- digits, ".", "_" and "-" (it becomes the Anki GUID), no attribute but id and
-- tags, exactly one ::: front and one ::: back and nothing else, no card inside.
-- `where` names the card's place for the messages (e.g. the chapter). Returns
-- id, tags (a list), front and back (block lists).
function M.card(who, div, where)
  -- pandoc reads id=NAME in the braces as the identifier
  local id = div.identifier ~= '' and div.identifier or div.attributes.id
  if not id or id == '' then
    M.fail(who, (where and (where .. ': ') or '') .. 'a ::: {.card} has no id=... (its stable Anki id)')
  end
  if not id:match('^[%w][%w._-]*$') then
    M.fail(who, (where and (where .. ': ') or '') .. 'card id "' .. id ..
      '" may hold only letters, digits, ".", "_" and "-"')
  end
  for k, _ in pairs(div.attributes) do
    if k ~= 'id' and k ~= 'tags' then M.fail(who, 'card ' .. id .. ': unknown attribute "' .. k .. '"') end
  end
  local front, back
  for _, b in ipairs(div.content) do
    if b.t == 'Div' and b.classes:includes('front') and not front then front = b.content
    elseif b.t == 'Div' and b.classes:includes('back') and not back then back = b.content
    else M.fail(who, 'card ' .. id .. ': holds only one ::: front and one ::: back') end
  end
  if not front or not back then M.fail(who, 'card ' .. id .. ': needs ::: front and ::: back') end
  if M.nested_card(front) or M.nested_card(back) then M.fail(who, 'card ' .. id .. ' holds another card') end
  local tags = {}
  for t in (div.attributes.tags or ''):gmatch('%S+') do tags[#tags + 1] = t end
  return id, tags, front, back
end

-- The first card Div nested anywhere in `blocks` (a card must stand at the top
-- level of its chapter), or nil.
function M.nested_card(blocks)
  for _, b in ipairs(blocks) do
    if b.t == 'Div' then
      if b.classes:includes('card') then return b end
      local inner = M.nested_card(b.content)
      if inner then return inner end
    end
  end
end

-- Stops the build when a card sits inside another block of `blocks`.
function M.no_nested_card(who, blocks)
  local inner = M.nested_card(blocks)
  if inner then
    local id = inner.identifier ~= '' and inner.identifier or inner.attributes.id
    M.fail(who, 'card ' .. tostring(id) .. ' sits inside another block; put it at the top level')
  end
end

-- ---- per-file builds ---------------------------------------------------------------

-- book/build.sh converts each input file alone (so an edit converts one file again)
-- and tells each conversion what came before it in the book, in metadata:
--   chapters-before   numbered level-1 headers before this file (counted from the
--                     first .appendix header on, once there is one): the number the
--                     next numbered chapter gets is this + 1
--   in-appendix       true when an .appendix header came before this file
--   in-mainmatter     true when a numbered chapter came before this file
-- Without them (one pandoc run over the whole book) each starts at 0 / false.
function M.context(meta)
  local n = tonumber(M.meta_string(meta, 'chapters-before', '0'))
  if not n or n < 0 or n % 1 ~= 0 then
    M.fail('util.lua', 'chapters-before must be a whole number, not "' ..
      M.meta_string(meta, 'chapters-before', '') .. '"')
  end
  return {
    chapters = n,
    appendix = M.meta_string(meta, 'in-appendix', 'false') == 'true',
    main = M.meta_string(meta, 'in-mainmatter', 'false') == 'true',
  }
end

-- Side records of a per-file build: when the environment variable CHALK_BOOK_SIDE
-- names a directory, record(NAME, LINE) appends LINE to the file DIR/NAME. book/build.sh
-- reads them after the conversion: `deps` (every file the filters read, whose bytes
-- then key the cached conversion), `ids` (ids that must be unique in the whole book:
-- "card ID", "exercise ID", "problem ID", "label ID"), `xref-uses` and `cites`.
-- Without CHALK_BOOK_SIDE nothing is written.
function M.record(name, line)
  local dir = os.getenv('CHALK_BOOK_SIDE')
  if not dir or dir == '' then return end
  local f = io.open(dir .. '/' .. name, 'a')
  if not f then M.fail('util.lua', 'cannot append to ' .. dir .. '/' .. name) end
  f:write(line, '\n')
  f:close()
end

-- Records that the document being converted was made from the file at `path`.
local depended = {}
function M.depend(path)
  if depended[path] then return end
  depended[path] = true
  M.record('deps', path)
end

-- ---- files, commands, the build cache ----------------------------------------------

-- The directory of cached drawings: the metadata field cache-dir (book/build.sh
-- passes build/cache, shared by both editions), else BUILD-DIR/cache.
function M.cache_dir(meta, builddir)
  return M.meta_string(meta, 'cache-dir', builddir .. '/cache')
end

-- The path of a cached product made from `source`: CACHE/KIND/SHA1(source)EXT
-- (the directory is created). Same source, same path: an unchanged drawing is
-- found where the last build left it.
function M.cache_file(cachedir, kind, source, ext)
  local dir = cachedir .. '/' .. kind
  os.execute('mkdir -p ' .. M.shell_quote(dir))
  return dir .. '/' .. pandoc.utils.sha1(source) .. ext
end

function M.exists(path)
  local f = io.open(path, 'r')
  if f then f:close() end
  return f ~= nil
end

-- Moves a finished product into the cache (a rename: whole or not at all).
function M.store(who, from, to)
  local ok, err = os.rename(from, to)
  if not ok then M.fail(who, 'cannot move ' .. from .. ' to ' .. to .. ': ' .. tostring(err)) end
end

-- `text` with every occurrence of the plain string `old` replaced by `new`.
function M.replace(text, old, new)
  local out, i = {}, 1
  while true do
    local a, b = text:find(old, i, true)
    if not a then break end
    out[#out + 1] = text:sub(i, a - 1) .. new
    i = b + 1
  end
  out[#out + 1] = text:sub(i)
  return table.concat(out)
end

-- Runs a shell command; when it fails, or does not make `product`, stops the
-- build naming `who` and quoting the command's stderr. Returns its stdout.
function M.run(who, cmd, product)
  local errfile = os.tmpname()
  local p = io.popen(cmd .. ' 2>' .. M.shell_quote(errfile), 'r')
  local out = p:read('a')
  local ok = p:close()
  local err = (M.read_file(errfile) or ''):gsub('%s+$', '')
  os.remove(errfile)
  if not ok or (product and not M.exists(product)) then
    M.fail(who, (cmd:match('^(%S+)') or cmd) .. ' failed' .. (err ~= '' and (': ' .. err) or ''))
  end
  return out
end

-- Reads a whole file, or returns nil (mode 'rb' for bytes).
function M.read_file(path, mode)
  local f = io.open(path, mode or 'r')
  if not f then return nil end
  local s = f:read('a')
  f:close()
  return s
end

-- Writes `text` to `path` whole or not at all (a temporary file of a name no other
-- process uses, then a rename), so a failed build never leaves a half-written side
-- file and two builds at once never mix theirs. With `soft`, a failure is ignored
-- (for caches: the build goes on without storing).
function M.write_file(who, path, text, soft)
  local unique = os.tmpname() -- made by mkstemp: held until the rename is done
  local tmp = path .. '.' .. unique:match('([^/]+)$')
  local f, err = io.open(tmp, 'wb')
  if not f then
    os.remove(unique)
    if soft then return end
    M.fail(who, 'cannot write ' .. tmp .. ': ' .. tostring(err))
  end
  f:write(text)
  f:close()
  local ok, rerr = os.rename(tmp, path)
  os.remove(unique)
  if not ok then
    os.remove(tmp)
    if soft then return end
    M.fail(who, 'cannot rename ' .. tmp .. ' to ' .. path .. ': ' .. tostring(rerr))
  end
end

return M
