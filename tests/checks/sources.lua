-- sources.lua -- what the checks' filters share: the input files and line numbers.
--
-- Not a filter: tests/checks/{notation,cards,parens}.lua load it with require.
--   sources.inputs() -> list of { file = PATH, text = CONTENTS } in input order
--       (pandoc's AST has no line numbers; a check finds its element in the text)
--   sources.line(text, probes) -> the line of the first probe (a string, or a
--       list tried in order) found in text, plain; 0 when none is
--   sources.print(findings) -> writes each finding on its own line to stdout

local M = {}

function M.inputs()
  local out = {}
  for k, f in ipairs(PANDOC_STATE.input_files or {}) do
    local h = io.open(f, 'r')
    out[k] = { file = f, text = h and h:read('a') or '' }
    if h then h:close() end
  end
  return out
end

function M.line(text, probes)
  if not text then return 0 end
  if type(probes) ~= 'table' then probes = { probes } end
  for _, p in ipairs(probes) do
    local at = p ~= '' and text:find(p, 1, true)
    if at then
      local _, n = text:sub(1, at):gsub('\n', '')
      return n + 1
    end
  end
  return 0
end

function M.print(findings)
  for _, f in ipairs(findings) do io.stdout:write(f, '\n') end
end

return M
