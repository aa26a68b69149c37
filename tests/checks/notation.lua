-- notation.lua -- one symbol, one meaning: the chapters' maths against the notation tables.
--
-- A pandoc filter that checks and prints findings; it changes nothing. Run by
-- tests/checks/run.sh:
--     pandoc chapters/NN-*.md -L tests/checks/notation.lua -t native -o /dev/null
--         [-M notation-dir=book/notation] [-M notation-allow=tests/checks/notation-allow.txt]
-- Each input file is one chapter (its one level-1 header opens it); chapter N is
-- the Nth file. Prints one finding per line, "FILE:LINE: message", and nothing when
-- all is well:
--   1. a symbol in a chapter's maths that no table has ("$k_0$ is not in the
--      notation tables"), once per chapter, at its first use;
--   2. a symbol a chapter uses before the table that introduces it (its chapter
--      comes later): the table's "first chapter" is wrong, or the letter means
--      something else here;
--   3. two rows that are one symbol (`d_v` and `d_{v}`, `N_\text{e}` and `N_e`: one
--      key, texmath.lua), which stop nothing in the build but are two meanings;
--   4. two rows with one meaning (the meaning's text without parentheticals, in
--      lower case, equal): one meaning, two symbols (`b` and `B_\text{micro}`);
--   5. a table symbol with no symbol in it, and allow-list lines that are malformed,
--      name a symbol the tables have, or allow what the chapter never uses.
-- "The maths" of a chapter: every Math element (text, captions, tables, boxes,
-- cards), and the $...$ inside its practice-problem templates (a template's
-- {var} placeholders read as a number), its TikZ diagrams (not calc's ($(a)+(b)$))
-- and its plots' labels. What a symbol is: tests/checks/texmath.lua. A symbol is
-- in the tables when its key is a row's key; or when it is a base with an index
-- subscript (a digit, one letter, or an expression) and a row defines that base's
-- family with the index i or j (K_i covers K_0 and K_{r+1}); a \Delta before a
-- symbol is accepted with it or as two symbols.
-- The allow-list (notation-allow, default tests/checks/notation-allow.txt): lines
-- "CHAPTER<TAB>SYMBOL<TAB>why", CHAPTER a file's name without .md (01-batching),
-- SYMBOL TeX maths: a letter the chapter binds for a moment (an index, a
-- dummy variable of a definition) and that the tables rightly leave out.
-- Pandoc 2.17.

local dir = (PANDOC_SCRIPT_FILE:match('(.*/)') or './')
package.path = dir .. '?.lua;' .. package.path
local texmath = require 'texmath'
local sources = require 'sources'

local findings = {}
local function say(where, msg) findings[#findings + 1] = where .. ': ' .. msg end

local function meta_string(meta, key, default)
  local v = meta[key]
  if v == nil then return default end
  return pandoc.utils.stringify(v)
end

-- ---- the tables -----------------------------------------------------------------------

local function table_rows(ndir)
  local p = io.popen("ls '" .. ndir .. "'/*.tsv 2>/dev/null")
  local files = {}
  for f in p:lines() do files[#files + 1] = f end
  p:close()
  table.sort(files)
  local rows = {}
  for _, file in ipairs(files) do
    local chapter = tonumber((file:match('([^/]+)$') or ''):match('^(%d%d)%-'))
    local n = 0
    for line in io.lines(file) do
      n = n + 1
      line = line:gsub('\r$', '')
      if n > 1 and line:match('%S') then
        local f = {}
        for field in (line .. '\t'):gmatch('([^\t]*)\t') do f[#f + 1] = field:match('^%s*(.-)%s*$') end
        rows[#rows + 1] = { symbol = f[1] or '', meaning = f[2] or '', chapter = chapter, where = file .. ':' .. n }
      end
    end
  end
  return rows
end

-- "sequences in one micro-batch (Korthikanti et al.'s $b$)" -> "sequences in one micro-batch"
local function meaning_key(m)
  -- (maths kept: "weight matrix of $\mathcal{F}$" and "... of $\mathcal{G}$" differ)
  local s = m:gsub('%b()', ''):gsub('%$(.-)%$', '%1'):lower():gsub('[^%w\\]+', ' ')
  return (s:gsub('^ +', ''):gsub(' +$', ''))
end

local defs, families, decorations = {}, {}, {}
local function load_tables(ndir)
  local by_meaning = {}
  for _, r in ipairs(table_rows(ndir)) do
    local key, atom = texmath.symbol_key(r.symbol)
    if not key then
      say(r.where, 'the symbol "' .. r.symbol .. '" holds no symbol the check can read (texmath.lua)')
    else
      if defs[key] then
        say(r.where, '$' .. r.symbol .. '$ and $' .. defs[key].symbol .. '$ (' .. defs[key].where ..
          ') are one symbol with two meanings: "' .. r.meaning .. '" and "' .. defs[key].meaning .. '"')
      else
        defs[key] = r
        if atom and atom.sub and (atom.sub == 'i' or atom.sub == 'j') then
          families[(atom.prefix or '') .. texmath.key(atom, { sub = true })] = r
        end
        -- \bar{v}, "... (for any quantity $v$)": \bar over any symbol of the tables
        local deco = atom and not atom.sub and atom.base:match('^(\\%a+){%a}$')
        if deco and r.meaning:match('for any') then decorations[deco] = r end
      end
      local mk = meaning_key(r.meaning)
      local other = by_meaning[mk]
      if other and other.symbol ~= r.symbol then
        say(r.where, 'one meaning, two symbols: $' .. r.symbol .. '$ and $' .. other.symbol .. '$ (' ..
          other.where .. ') both mean "' .. mk .. '"')
      elseif not other then
        by_meaning[mk] = r
      end
    end
  end
end

-- The row of a symbol of the maths, or nil.
local find
find = function(a)
  local k = texmath.key(a)
  if defs[k] then return defs[k] end
  local deco, inner = a.base:match('^(\\%a+){(.*)}$')
  if deco and decorations[deco] then
    -- the generic decoration over a symbol: \bar{x}_1 is \bar over x_1
    local plain = { base = inner, prime = a.prime, star = a.star, sub = a.sub, index = a.index, expr_sub = a.expr_sub }
    if texmath.atoms(inner)[1] and #texmath.atoms(inner) == 1 then
      local ia = texmath.atoms(inner)[1]
      plain.base = ia.base
      if find(plain) then return decorations[deco] end
    end
  end
  if a.prime and defs[texmath.key(a, { prime = true })] then return defs[texmath.key(a, { prime = true })] end
  if a.index or a.expr_sub then return families[texmath.key(a, { sub = true })] end
end

-- The row of an atom (nil when missing), and what of it is missing: { key, shown }.
local function lookup(a)
  local missing = {}
  if a.prefix then
    local r = defs[a.prefix .. texmath.key(a)]
    if r then return r, missing end
    if not defs[a.prefix] then missing[#missing + 1] = { key = a.prefix, shown = a.prefix } end
  end
  local r = find(a)
  if not r then
    local tail = a.expr_sub and '_{...}' or ''
    missing[#missing + 1] = { key = texmath.key(a) .. tail, shown = a.shown .. tail }
  end
  return r, missing
end

-- ---- the maths of each chapter ----------------------------------------------------------

-- Every $...$ and $$...$$ of a text (not calc's ($...$) coordinates).
local function dollars(text)
  local out = {}
  local pos = 1
  while true do
    local s, e, body = text:find('%$%$(.-)%$%$', pos)
    local s1, e1, body1 = text:find('%$([^$]+)%$', pos)
    if s1 and (not s or s1 < s) then s, e, body = s1, e1, body1 end
    if not s then break end
    if not (s > 1 and text:sub(s - 1, s - 1) == '(') then out[#out + 1] = body end
    pos = e + 1
  end
  return out
end

-- The line of a formula in its file: the formula with its dollar, else anywhere;
-- shorter probes for a formula the source breaks over lines.
local function line_of(src, text)
  local body = text:match('^%s*(.-)%s*$')
  local probes = {}
  for _, n in ipairs({ 40, 16, 6 }) do
    local probe = body:sub(1, n):match('^[^\n]*'):gsub('%s+$', '')
    probes[#probes + 1] = '$' .. probe
    probes[#probes + 1] = '$ ' .. probe
  end
  probes[#probes + 1] = body:sub(1, 16)
  return sources.line(src, probes)
end

-- The maths of a problem template, with its {var} placeholders read as numbers.
local function problem_maths(text)
  local vars = {}
  local in_vars = false
  for line in (text .. '\n'):gmatch('(.-)\n') do
    if line:match('^%a+:') then in_vars = line:match('^vars:') ~= nil
    elseif in_vars then
      local name = line:match('^%s+([%a_][%w_]*):')
      if name then vars[name] = true end
    end
  end
  local out = {}
  for _, m in ipairs(dollars(text)) do
    -- as problems.lua substitutes: not a TeX group such as \text{step} or t_{kv}
    local math_text = m:gsub('()({([%a_][%w_]*)(:?r?a?w?)})', function(at, whole, name, suffix)
      if at > 1 and m:sub(at - 1, at - 1):match('[%a_^}]') then return whole end
      if vars[name] and (suffix == '' or suffix == ':raw') then return '1' end
    end)
    out[#out + 1] = { math = math_text, source = m }
  end
  return out
end

local function check(doc)
  local ndir = meta_string(doc.meta, 'notation-dir', 'book/notation')
  local allow_file = meta_string(doc.meta, 'notation-allow', dir .. 'notation-allow.txt')
  load_tables(ndir)

  local inputs = sources.inputs()
  local names = {}
  for k, input in ipairs(inputs) do names[k] = (input.file:match('([^/]+)$') or input.file):gsub('%.md$', '') end

  -- the allow-list
  local allow, allow_used = {}, {}
  local h = io.open(allow_file, 'r')
  if h then
    local n = 0
    for line in h:lines() do
      n = n + 1
      if line:match('%S') and not line:match('^#') then
        local ch, sym, why = line:match('^([^\t]+)\t([^\t]+)\t(.-)%s*$')
        local where = allow_file .. ':' .. n
        if not ch or why == '' then
          say(where, 'an allow-list line is CHAPTER<TAB>SYMBOL<TAB>why')
        else
          local key = texmath.symbol_key(sym)
          if not key then say(where, 'no symbol in "' .. sym .. '"')
          elseif defs[key] then
            say(where, '$' .. sym .. '$ is in the notation tables (' .. defs[key].where .. '): the allow-list cannot give it another meaning')
          else
            allow[ch .. '\0' .. key] = where
          end
        end
      end
    end
    h:close()
  end

  local chapter = 0
  local reported = {}
  local function visit_math(text, source)
    if chapter == 0 then return end
    source = source or text
    local atoms, bound = texmath.atoms(text)
    local name = names[chapter] or ('chapter ' .. chapter)
    local src = inputs[chapter] or {}
    for _, a in ipairs(atoms) do
      local row, missing = lookup(a)
      for _, m in ipairs(missing) do
        local akey = name .. '\0' .. m.key
        if not a.sub and not a.prefix and bound[a.base] then
          -- a sum's index, bound in this formula
        elseif allow[akey] then
          allow_used[akey] = true
        elseif not reported[akey] then
          reported[akey] = true
          say((src.file or name) .. ':' .. line_of(src.text, source),
            '$' .. m.shown .. '$ is not in the notation tables (' .. ndir .. '/*.tsv)')
        end
      end
      if row and row.chapter and row.chapter > chapter then
        local key = 'late\0' .. name .. '\0' .. texmath.key(a)
        if not reported[key] then
          reported[key] = true
          say((src.file or name) .. ':' .. line_of(src.text, source),
            '$' .. a.shown .. '$ is used in chapter ' .. chapter .. ', but ' .. row.where ..
            ' introduces it in chapter ' .. row.chapter .. ' ("' .. row.meaning .. '")')
        end
      end
    end
  end
  local function visit_code(cb)
    local list
    if cb.classes:includes('problem') then list = problem_maths(cb.text)
    elseif cb.classes:includes('diagram') then list = dollars(cb.text)
    elseif cb.classes:includes('plot') then
      list = {}
      for k, v in pairs(cb.attributes) do
        if k ~= 'mark' then for _, m in ipairs(dollars(v)) do list[#list + 1] = m end end
      end
    end
    for _, m in ipairs(list or {}) do
      if type(m) == 'table' then visit_math(m.math, m.source) else visit_math(m) end
    end
  end
  local walker = {
    Math = function(m) visit_math(m.text) end,
    CodeBlock = visit_code,
    RawBlock = function() end,
    Code = function() end,
  }
  for _, b in ipairs(doc.blocks) do
    if b.t == 'Header' and b.level == 1 then chapter = chapter + 1 end
    if b.t == 'CodeBlock' then visit_code(b) else pandoc.walk_block(b, walker) end
  end
  for key, where in pairs(allow) do
    if not allow_used[key] then
      local ch = key:match('^(.-)%z')
      local used = false
      for _, n in ipairs(names) do if n == ch then used = true end end
      if used then say(where, 'allowed, but ' .. ch .. ' uses no such symbol outside the tables: delete the line') end
    end
  end
end

return {
  {
    Pandoc = function(doc)
      check(doc)
      table.sort(findings)
      sources.print(findings)
      return doc
    end,
  },
}
