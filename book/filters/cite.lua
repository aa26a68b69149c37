-- cite.lua -- citations: every key resolves, and the bibliography reads as the book's.
--
-- Consumes (book/README.md, "Citations and the bibliography"): what pandoc's
-- --citeproc (book/chalk.csl, book/references.bib) made of
--     [@deepseek-v3]   [@lecture, 16:07--21:58]   [@clark2022; @lecture, 27:40]
-- and the bibliography it put in the ::: {#refs} div.
-- Does:
--   * stops the build on a citation whose key is in no bibliography file (citeproc
--     itself only warns and prints the key in bold), naming the key and the input
--     file(s): "cite.lua: chapters/02-moe.md: citation @nosuch: no entry in
--     book/references.bib";
--   * in the bibliography, "A. Clark and others" (BibTeX's "and others") reads
--     "A. Clark et al.";
--   * writes the keys it saw cited, one per line in document order, to the side file
--     named by the metadata field cites-out when it is set, and records them as
--     `cites` for book/build.sh (util.record), which checks that every entry of the
--     bibliography is cited somewhere; the bibliography and the style are recorded as
--     what the document depends on (util.depend) when it cites anything.
-- Output is the same in every format (it edits pandoc's own elements, emits no LaTeX).
--
-- Order: right after --citeproc (pandoc runs --citeproc where it stands among the
-- filters), which runs after crossref.lua (so that @sec:, @eq:, @fig: and @tbl: are
-- cross-references, not citations). Pandoc 2.17 (pandoc.read of biblatex).

package.path = (PANDOC_SCRIPT_FILE:match('(.*/)') or './') .. '?.lua;' .. package.path
local util = require 'util'

local WHO = 'cite.lua'

-- The bibliography files of the metadata field `bibliography` (one or a list).
local function bib_files(meta)
  local b = meta.bibliography
  if not b then return {} end
  if b.t == 'MetaList' or (type(b) == 'table' and b[1] and not b.t) then
    local out = {}
    for _, v in ipairs(b) do out[#out + 1] = pandoc.utils.stringify(v) end
    return out
  end
  return { pandoc.utils.stringify(b) }
end

-- Every key of the bibliography files (and of inline `references`).
local function known_keys(meta)
  local keys = {}
  for _, file in ipairs(bib_files(meta)) do
    local text = util.read_file(file)
    if not text then util.fail(WHO, 'cannot read the bibliography ' .. file) end
    util.depend(file)
    local ok, doc = pcall(pandoc.read, text, 'biblatex')
    if not ok then util.fail(WHO, file .. ': ' .. tostring(doc)) end
    for _, ref in ipairs(doc.meta.references or {}) do keys[pandoc.utils.stringify(ref.id)] = true end
  end
  for _, ref in ipairs(meta.references or {}) do keys[pandoc.utils.stringify(ref.id)] = true end
  return keys
end

local function where()
  local files = PANDOC_STATE and PANDOC_STATE.input_files or {}
  if #files == 0 then return 'stdin' end
  return table.concat(files, ', ')
end

-- "X and others" -> "X et al." in a list of inlines.
local function et_al(inlines)
  local out, i = pandoc.List(), 1
  while i <= #inlines do
    local a, s, o = inlines[i], inlines[i + 1], inlines[i + 2]
    if a.t == 'Str' and a.text == 'and' and s and s.t == 'Space' and o and o.t == 'Str'
        and o.text:match('^others') then
      out:extend({ pandoc.Str('et'), pandoc.Space(), pandoc.Str('al.' .. o.text:sub(7):gsub('^%.', '')) })
      i = i + 3
    else
      out:insert(a)
      i = i + 1
    end
  end
  return out
end

return {
  {
    Pandoc = function(doc)
      local keys, cited, seen = nil, {}, {}
      doc:walk({
        Cite = function(c)
          for _, citation in ipairs(c.citations) do
            local id = citation.id
            keys = keys or known_keys(doc.meta)
            if id ~= '*' and not keys[id] then
              local files = table.concat(bib_files(doc.meta), ', ')
              util.fail(WHO, where() .. ': citation @' .. id .. ': no entry in ' ..
                (files ~= '' and files or 'any bibliography (no --bibliography given)'))
            end
            if id ~= '*' and not seen[id] then
              seen[id] = true
              cited[#cited + 1] = id
              util.record('cites', id)
            end
          end
        end,
      })
      if keys and doc.meta.csl then util.depend(pandoc.utils.stringify(doc.meta.csl)) end
      local out = util.meta_string(doc.meta, 'cites-out', nil)
      if out then util.write_file(WHO, out, table.concat(cited, '\n') .. (#cited > 0 and '\n' or '')) end
      return doc:walk({
        Div = function(div)
          if div.identifier == 'refs' then
            return div:walk({ Inlines = et_al })
          end
        end,
      })
    end,
  },
}
