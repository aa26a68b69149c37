-- crossref.lua -- numbered equations, figures, tables and sections, and
-- @-references to them (pandoc-crossref is not available; this replaces it).
--
-- Consumes (book/README.md, "Chapter file shape" and "Equations"):
--     # Title {#sec:batching}            ## Section {#sec:roofline}
--     $$ ... $$ {#eq:step}               a display equation, then its id
--     ![Caption](f.pdf){#fig:x}          a figure (plot.lua makes these too)
--     Table: Caption {#tbl:x}            a table caption ending in its id
--     @sec:x  @eq:x  @fig:x  @tbl:x      references; [-@fig:x] gives the number only
-- Numbers are per chapter: Chapter 1, Section 1.2, (1.3), Figure 1.4, Table 1.1;
-- chapters from the first level-1 header with class .appendix on are lettered
-- (Appendix A, Table A.1). Headers with class .unnumbered are not counted; the
-- sections of an unnumbered chapter (the preface) get .unnumbered too.
-- Output: for LaTeX, \label{id} on each item and \hyperref[id]{Figure~\ref*{id}}
-- for each reference, so the printed number is always LaTeX's own (the template
-- numbers equations, figures and tables per chapter, as counted here); for
-- other formats the numbers counted here ("Figure 1.4", \tag{1.3} in the math).
-- A reference to an id that does not exist, an id defined twice, or an
-- equation label that follows no display equation stops the build.
-- Per-file builds (book/build.sh converts each file alone, LaTeX only): the
-- numbering starts from util.context (chapters-before, in-appendix); the metadata
-- field xref-table names the table of every sec: id of the book and its kind, so a
-- reference to another file's section says Chapter, Appendix or Section as it
-- should (recorded, util.record 'xref-sec': the fragment is made again when that
-- kind changes); a reference to another file's figure, table or equation is
-- recorded ('xref-uses') and book/build.sh checks that some file defines it. Every
-- id defined is recorded too ('ids'), for the check that no id is defined twice.
--
-- Order: runs after plot.lua (which makes figures) and cards.lua (which adds
-- unnumbered sections); last among the book filters except book.lua.
-- Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'crossref.lua'
local LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

local targets = {}      -- id -> { kind = 'sec'|'chap'|'app'|'eq'|'fig'|'tbl', num = '1.2' }
local external          -- per-file builds: id -> kind of every sec: id of the book

local function define(id, kind, num)
  if targets[id] then util.fail(WHO, 'id "' .. id .. '" is defined twice') end
  targets[id] = { kind = kind, num = num }
  util.record('ids', 'label ' .. id)
  if external and id:match('^sec:') and external[id] ~= kind then
    util.fail(WHO, id .. ' is a ' .. kind .. ' here, but book/build.sh\'s scan of the headers ' ..
      'says ' .. tostring(external[id]) .. ' (a header the scan misread?)')
  end
end

-- The table of a per-file build (metadata xref-table, written by book/build.sh):
-- one line "ID<TAB>KIND" per sec: id of the whole book, KIND chap, app, sec or
-- unnumbered, from a scan of every file's headers.
local function load_table(path)
  local text = util.read_file(path)
  if not text then util.fail(WHO, 'cannot read the xref-table ' .. path) end
  external = {}
  for id, kind in text:gmatch('([^\t\n]+)\t([^\n]+)') do external[id] = kind end
end

-- ---- pass 1: number everything in document order ----------------------------------

local state = { chapter = 0, appendix = false, sec = {}, eq = 0, fig = 0, tbl = 0 }

local function start(meta)
  local ctx = util.context(meta)
  state.chapter, state.appendix = ctx.chapters, ctx.appendix
  local path = util.meta_string(meta, 'xref-table', nil)
  if path then load_table(path) end
end

local function chapter_label()
  if state.appendix then return LETTERS:sub(state.chapter, state.chapter) end
  return tostring(state.chapter)
end

local function eq_label_of(el)
  if el and el.t == 'Str' then return el.text:match('^{#(eq:[^}%s]+)}$') end
end

-- Finds "$$...$$ {#eq:id}" in a list of inlines: numbers the equation and
-- replaces the pair by one labelled equation.
local function equations(inlines)
  local out, i = pandoc.List(), 1
  while i <= #inlines do
    local el = inlines[i]
    local j = i + 1
    while inlines[j] and (inlines[j].t == 'Space' or inlines[j].t == 'SoftBreak') do j = j + 1 end
    local id = el.t == 'Math' and el.mathtype == 'DisplayMath' and eq_label_of(inlines[j])
    if id then
      state.eq = state.eq + 1
      local num = chapter_label() .. '.' .. state.eq
      define(id, 'eq', num)
      if util.is_latex() then
        out:insert(pandoc.RawInline('latex',
          '\\begin{equation}\\label{' .. id .. '}' .. el.text .. '\\end{equation}'))
      else
        out:insert(pandoc.Span({ pandoc.Math('DisplayMath', el.text .. ' \\tag{' .. num .. '}') },
          pandoc.Attr(id)))
      end
      i = j + 1
    else
      if el.t == 'Str' and el.text:match('^{#eq:') then
        util.fail(WHO, el.text .. ' follows no display equation ($$ ... $$)')
      end
      out:insert(el)
      i = i + 1
    end
  end
  return out
end

-- "Caption text {#tbl:id}" -> id, caption without it.
local function table_id(tbl)
  if tbl.attr and tbl.attr.identifier ~= '' then return tbl.attr.identifier end
  local long = tbl.caption.long
  local last = long[#long]
  if not last or (last.t ~= 'Para' and last.t ~= 'Plain') then return nil end
  local inl = last.content
  local tail = inl[#inl]
  local id = tail and tail.t == 'Str' and tail.text:match('^{#(tbl:[^}%s]+)}$')
  if not id then return nil end
  inl:remove(#inl)
  while #inl > 0 and (inl[#inl].t == 'Space' or inl[#inl].t == 'SoftBreak') do inl:remove(#inl) end
  tbl.attr = pandoc.Attr(id, tbl.attr.classes, tbl.attr.attributes)
  return id
end

local function caption_prefix(inlines, text)
  inlines:insert(1, pandoc.Space())
  inlines:insert(1, pandoc.Str(text))
end

local number_blocks

local function number_block(b)
  if b.t == 'Header' then
    local id = b.identifier
    if b.level == 1 then
      if b.classes:includes('appendix') and not state.appendix then
        state.appendix, state.chapter = true, 0
      end
      state.unnumbered = b.classes:includes('unnumbered')
      if state.unnumbered then
        if id:match('^sec:') then define(id, 'unnumbered', nil) end
        return b
      end
      state.chapter = state.chapter + 1
      state.sec, state.eq, state.fig, state.tbl = {}, 0, 0, 0
      if id:match('^sec:') then define(id, state.appendix and 'app' or 'chap', chapter_label()) end
    else
      -- the sections of an unnumbered chapter (the preface) are unnumbered too
      if state.unnumbered and not b.classes:includes('unnumbered') then b.classes:insert('unnumbered') end
      if b.classes:includes('unnumbered') then
        if id:match('^sec:') then define(id, 'unnumbered', nil) end
        return b
      end
      for l = b.level + 1, 6 do state.sec[l] = nil end
      state.sec[b.level] = (state.sec[b.level] or 0) + 1
      local parts = { chapter_label() }
      for l = 2, b.level do parts[#parts + 1] = tostring(state.sec[l] or 0) end
      if id:match('^sec:') then define(id, 'sec', table.concat(parts, '.')) end
    end
    return b
  elseif b.t == 'Para' or b.t == 'Plain' then
    local img = #b.content == 1 and b.content[1]
    if b.t == 'Para' and img and img.t == 'Image' and #img.caption > 0 then
      state.fig = state.fig + 1
      local num = chapter_label() .. '.' .. state.fig
      if img.identifier:match('^fig:') then define(img.identifier, 'fig', num) end
      if not util.is_latex() then caption_prefix(img.caption, 'Figure ' .. num .. ':') end
      return b
    end
    b.content = equations(b.content)
    return b
  elseif b.t == 'Table' then
    local has_caption = #b.caption.long > 0
    local id = table_id(b)
    if has_caption then
      state.tbl = state.tbl + 1
      local num = chapter_label() .. '.' .. state.tbl
      if id then
        if not id:match('^tbl:') then util.fail(WHO, 'table id "' .. id .. '" must start with tbl:') end
        define(id, 'tbl', num)
        local last = b.caption.long[#b.caption.long]
        if util.is_latex() then
          last.content:insert(pandoc.RawInline('latex', '\\label{' .. id .. '}'))
        else
          caption_prefix(b.caption.long[1].content, 'Table ' .. num .. ':')
        end
      elseif not util.is_latex() then
        caption_prefix(b.caption.long[1].content, 'Table ' .. num .. ':')
      end
    elseif id then
      util.fail(WHO, 'table "' .. id .. '" needs a caption to be numbered')
    end
    return b
  elseif b.t == 'Div' or b.t == 'BlockQuote' then
    b.content = number_blocks(b.content)
    return b
  elseif b.t == 'BulletList' or b.t == 'OrderedList' then
    for k, item in ipairs(b.content) do b.content[k] = number_blocks(item) end
    return b
  end
  return b
end

number_blocks = function(blocks)
  local out = pandoc.List()
  for _, b in ipairs(blocks) do out:insert(number_block(b)) end
  return out
end

-- ---- pass 2: references ---------------------------------------------------------

local WORDS = { chap = 'Chapter', app = 'Appendix', sec = 'Section', fig = 'Figure', tbl = 'Table', eq = '' }

local function reference(cite)
  local ours, out = false, pandoc.List()
  for k, c in ipairs(cite.citations) do
    local prefix = c.id:match('^(%a+):')
    if prefix == 'sec' or prefix == 'eq' or prefix == 'fig' or prefix == 'tbl' then
      ours = true
      local t = targets[c.id]
      if not t and external then
        -- another file's: a section's kind is in the table; a figure, table or
        -- equation is one by its prefix, and book/build.sh checks that it exists
        if prefix == 'sec' then
          t = external[c.id] and { kind = external[c.id], num = external[c.id] ~= 'unnumbered' or nil }
          if t then util.record('xref-sec', c.id .. '\t' .. t.kind) end
        else
          t = { kind = prefix, num = true }
          util.record('xref-uses', c.id)
        end
        if t and not util.is_latex() then
          util.fail(WHO, '@' .. c.id .. ': a reference to another file needs its number, which only ' ..
            'LaTeX output leaves to LaTeX: convert the whole book at once for ' .. FORMAT)
        end
      end
      if not t then util.fail(WHO, '@' .. c.id .. ': no such ' .. prefix .. ' id in the book') end
      if not t.num then util.fail(WHO, '@' .. c.id .. ': refers to an unnumbered section') end
      if k > 1 then out:insert(pandoc.Str(k == #cite.citations and ' and ' or ', ')) end
      local bare = c.mode == 'SuppressAuthor'
      local word = WORDS[t.kind]
      if util.is_latex() then
        local num = t.kind == 'eq' and ('(\\ref*{' .. c.id .. '})') or ('\\ref*{' .. c.id .. '}')
        local text = (bare or word == '') and num or (word .. '~' .. num)
        out:insert(pandoc.RawInline('latex', '\\hyperref[' .. c.id .. ']{' .. text .. '}'))
      else
        local num = t.kind == 'eq' and ('(' .. t.num .. ')') or t.num
        local text = (bare or word == '') and num or (word .. '\u{a0}' .. num)
        out:insert(pandoc.Link(text, '#' .. c.id))
      end
    elseif ours then
      util.fail(WHO, '@' .. c.id .. ' mixed with cross-references in one [...]')
    end
  end
  if ours then return out end
end

return {
  {
    Pandoc = function(doc)
      start(doc.meta)
      doc.blocks = number_blocks(doc.blocks)
      -- where the numbering ended, for book/build.sh's check of its header scan
      util.record('xref-end', state.chapter .. ' ' .. tostring(state.appendix))
      return doc
    end,
  },
  { Cite = reference },
}
