-- boxes.lua -- exercise, solution, slip, example and reality-check boxes.
--
-- Consumes (book/README.md, "Boxes"):
--     ::: {.exercise id=balance_batch}   prose ...   :::
--     ::: {.solution}                    worked answer ...   :::
--     ::: {.slip title="Where the lecture slips"}   ...   :::
--     ::: {.example title="Latency floor of Llama 3 70B"}   ...   :::
--     ::: {.reality title="Reality check: the roofline against MLPerf"}   ...   :::
-- An exercise's title, stars and functions come from the block "exercise: ID"
-- of exercises/NN-topic/exercises.txt (the directory is the metadata field
-- exercises-dir, default "exercises"); its number is NN.K where K is the
-- block's position in that file (the numbering the sources' comments use).
-- The box ends with its id (the EX= of make hint, solution and reset), what to
-- implement, the command that checks it and the one that gives a hint (for
-- LaTeX after \chalkexercisefoot, which sets it apart in small type).
-- A solution is titled after the exercise before it; the student edition
-- (default) drops it, -M edition=instructor shows it. Examples are numbered per
-- chapter (level-1 headers without .unnumbered; lettered after .appendix;
-- an unnumbered chapter's examples are not numbered). A reality check (the
-- chapter's model against a published measurement) shows in both editions;
-- its title defaults to "Reality check".
-- For LaTeX the boxes are the template's tcolorbox environments chalkexercise,
-- chalksolution, chalkslip, chalkexample, chalkreality; other formats get a Div whose first
-- paragraph is the bold title.
-- Stops the build on: an exercise with no id or an id in no exercises.txt, an
-- id used twice, an unknown attribute, a solution with no exercise before it
-- in its chapter, a slip, example or reality check without content, a div of
-- two of these classes.
--
-- Per-file builds: numbering starts from util.context (chapters-before,
-- in-appendix); each exercise id is recorded (util.record 'ids') for book/build.sh's
-- check that none appears twice in the book.
--
-- Order: after chalk.lua (numbers in the boxes are text by then) and
-- include.lua; before crossref.lua. Pandoc 2.17.

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'boxes.lua'
local LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
local KINDS = { 'exercise', 'solution', 'slip', 'example', 'reality' }

local edition = 'student'
local exdir = 'exercises'
local catalog -- id -> { title, stars, functions, number, dir }

-- Reads every exercises/NN-topic/exercises.txt into the catalog.
local function load_catalog()
  catalog = {}
  local p = io.popen('ls -d ' .. exdir .. '/[0-9][0-9]-*/exercises.txt 2>/dev/null')
  local files = {}
  for f in p:lines() do files[#files + 1] = f end
  p:close()
  if #files == 0 then util.fail(WHO, 'no ' .. exdir .. '/NN-topic/exercises.txt found') end
  for _, file in ipairs(files) do
    local dir = file:match('^(.*)/exercises%.txt$')
    local chapter = tonumber(dir:match('/(%d%d)%-[^/]*$'))
    local k, cur = 0, nil
    util.depend(file)
    for line in io.lines(file) do
      local key, val = line:match('^([%w@_]+):%s*(.-)%s*$')
      if key == 'exercise' then
        k = k + 1
        if catalog[val] then util.fail(WHO, file .. ': exercise "' .. val .. '" defined twice') end
        cur = { id = val, number = chapter .. '.' .. k, dir = dir, file = file }
        catalog[val] = cur
      elseif cur and (key == 'title' or key == 'stars' or key == 'functions') then
        cur[key] = val
      end
    end
  end
  for id, e in pairs(catalog) do
    if not e.title or not tonumber(e.stars) then
      util.fail(WHO, e.file .. ': exercise "' .. id .. '" needs title: and stars:')
    end
  end
end

-- The stub the reader edits: the one .c file in the exercise's directory.
local function stub_of(dir)
  local p = io.popen('ls ' .. dir .. '/*.c 2>/dev/null')
  local f = p:read('l')
  p:close()
  return f
end

local function latex_env(name, args, content)
  local out = pandoc.List({ pandoc.RawBlock('latex', '\\begin{' .. name .. '}' .. args) })
  out:extend(content)
  out:insert(pandoc.RawBlock('latex', '\\end{' .. name .. '}'))
  return out
end

-- A box: a LaTeX environment, or a Div led by its bold title elsewhere.
local function box(kind, title_inlines, stars, content)
  if util.is_latex() then
    local args = '{' .. util.latex_of(title_inlines) .. '}'
    if kind == 'exercise' then args = args .. '{' .. stars .. '}' end
    return latex_env('chalk' .. kind, args, content)
  end
  local head = pandoc.List(title_inlines)
  if stars then head:extend({ pandoc.Space(), pandoc.Str(string.rep('★', stars)) }) end
  local blocks = pandoc.List({ pandoc.Para({ pandoc.Strong(head) }) })
  blocks:extend(content)
  return { pandoc.Div(blocks, pandoc.Attr('', { kind })) }
end

local function check_attrs(div, allowed, what)
  for k, _ in pairs(div.attributes) do
    if not allowed[k] then util.fail(WHO, what .. ': unknown attribute "' .. k .. '"') end
  end
end

local state = { chapter = 0, numbered = false, appendix = false, example = 0, last_exercise = nil, seen = {} }

local function chapter_label()
  if state.appendix then return LETTERS:sub(state.chapter, state.chapter) end
  return tostring(state.chapter)
end

local function exercise(div)
  -- pandoc reads id=NAME in the braces as the identifier
  local id = (div.identifier ~= '' and div.identifier) or div.attributes.id
  if not id then util.fail(WHO, '::: {.exercise} needs id=NAME (the exercise: line of exercises.txt)') end
  check_attrs(div, { id = true }, 'exercise ' .. id)
  if not catalog then load_catalog() end
  local e = catalog[id]
  if not e then util.fail(WHO, 'exercise "' .. id .. '" is in no ' .. exdir .. '/NN-topic/exercises.txt') end
  if state.seen[id] then util.fail(WHO, 'exercise "' .. id .. '" appears twice') end
  state.seen[id] = true
  util.record('ids', 'exercise ' .. id)
  state.last_exercise = e
  local content = pandoc.List(div.content)
  -- the id first: make hint, make solution and make reset take it as EX=
  local tail = pandoc.List({ pandoc.Str('Id'), pandoc.Space(), pandoc.Code(id), pandoc.Str('. ') })
  if e.functions and e.functions:match('%S') then
    local fns = util.split_args(e.functions)
    tail:insert(pandoc.Str('Implement'))
    for k, f in ipairs(fns) do
      tail:insert(pandoc.Str(k == 1 and ' ' or (k == #fns and ' and ' or ', ')))
      tail:insert(pandoc.Code(f))
    end
    local stub = stub_of(e.dir)
    if stub then tail:extend({ pandoc.Str(' in '), pandoc.Code(stub) }) end
    tail:insert(pandoc.Str('; check with '))
  else
    tail:insert(pandoc.Str('Check with '))
  end
  local ch = e.dir:match('/(%d%d)%-[^/]*$')
  tail:insert(pandoc.Code('make check CH=' .. ch))
  tail:insert(pandoc.Str('; a hint: '))
  tail:insert(pandoc.Code('make hint CH=' .. ch .. ' EX=' .. id))
  tail:insert(pandoc.Str('.'))
  if util.is_latex() then content:insert(pandoc.RawBlock('latex', '\\chalkexercisefoot')) end
  content:insert(pandoc.Para(tail))
  -- the title is read as markdown, so "quotes" become typographic quotes
  local title = pandoc.List({ pandoc.Str('Exercise ' .. e.number .. ':'), pandoc.Space() })
  local parsed = pandoc.read(e.title, 'markdown').blocks[1]
  title:extend(parsed and parsed.content or { pandoc.Str(e.title) })
  return box('exercise', title, tonumber(e.stars), content)
end

local function solution(div)
  check_attrs(div, {}, 'solution')
  local e = state.last_exercise
  if not e then util.fail(WHO, '::: {.solution} with no ::: {.exercise} before it in its chapter') end
  if edition == 'student' then return {} end
  return box('solution', { pandoc.Str('Solution to Exercise ' .. e.number) }, nil, div.content)
end

local function titled(div, kind, default)
  check_attrs(div, { title = true }, kind)
  if #div.content == 0 then util.fail(WHO, '::: {.' .. kind .. '} is empty') end
  local title = div.attributes.title or default
  if not title then util.fail(WHO, '::: {.' .. kind .. '} needs title="..."') end
  local inl = pandoc.read(title, 'markdown').blocks
  inl = inl[1] and inl[1].content or {}
  if kind == 'example' then
    state.example = state.example + 1
    local n = state.numbered and (' ' .. chapter_label() .. '.' .. state.example) or ''
    local head = pandoc.List({ pandoc.Str('Example' .. n .. ':'), pandoc.Space() })
    head:extend(inl)
    inl = head
  end
  return box(kind, inl, nil, div.content)
end

local walk

local function block(b)
  if b.t == 'Header' and b.level == 1 then
    if b.classes:includes('appendix') and not state.appendix then state.appendix, state.chapter = true, 0 end
    state.numbered = not b.classes:includes('unnumbered')
    if state.numbered then state.chapter = state.chapter + 1 end
    state.example, state.last_exercise = 0, nil
    return { b }
  elseif b.t == 'Div' then
    local c = b.classes
    local n = 0
    for _, kind in ipairs(KINDS) do n = n + (c:includes(kind) and 1 or 0) end
    if n > 1 then util.fail(WHO, 'a div may be only one of ' .. table.concat(KINDS, ', ')) end
    b.content = walk(b.content)
    if c:includes('exercise') then return exercise(b) end
    if c:includes('solution') then return solution(b) end
    if c:includes('slip') then return titled(b, 'slip', 'Where the lecture slips') end
    if c:includes('example') then return titled(b, 'example', nil) end
    if c:includes('reality') then return titled(b, 'reality', 'Reality check') end
    return { b }
  elseif b.t == 'BlockQuote' then
    b.content = walk(b.content)
  end
  return { b }
end

walk = function(blocks)
  local out = pandoc.List()
  for _, b in ipairs(blocks) do out:extend(block(b)) end
  return out
end

return {
  {
    Meta = function(meta)
      edition = util.edition(WHO, meta)
      exdir = util.meta_string(meta, 'exercises-dir', 'exercises')
      local ctx = util.context(meta)
      state.chapter, state.appendix = ctx.chapters, ctx.appendix
      state.numbered = ctx.chapters > 0
    end,
  },
  {
    Pandoc = function(doc)
      doc.blocks = walk(doc.blocks)
      return doc
    end,
  },
}
