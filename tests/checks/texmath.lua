-- texmath.lua -- the symbols of a TeX formula, for the notation check (notation.lua).
--
-- Not a filter: notation.lua loads it with require. It reads the maths the book
-- writes (a pandoc Math element's text, a notation table's symbol column) and
-- returns the symbols in it, each as a canonical key, so that `N_\text{total}`,
-- `N_{\text{total}}`, `N_\mathrm{total}` and `N_{total}` are one symbol, as a reader
-- sees them.
--
-- What a symbol is (the rule the check enforces, book/README.md "Notation"):
--   * a base: a Latin letter, a Greek letter (\alpha, \Gamma, \ell, \varepsilon,
--     ...), or a letter under a decoration or alphabet (\bar{X}, \hat{x},
--     \mathcal{L}, \tilde{q}); a prime (x') belongs to it;
--   * with its subscript when the subscript is a name or an index: \text{total},
--     \mathrm{e}, {qk}, F, 1, \infty (`N_\text{total}`, `t_F`, `x_1`,
--     `\mathcal{L}_\infty`); a subscript that is an expression (x_{i+1},
--     k_{\sigma \bmod 4}) is maths in its own right, and the base stands alone;
--   * with a star superscript (`B^*`, `B^*_\text{e}`); any other superscript is an
--     exponent (N^2, N^{-\alpha_N}, W^\top), whose own symbols count;
--   * a \Delta directly before a base is kept with it as a prefix (`\Delta\mathcal{L}`):
--     the check accepts the pair when the table has it, else each alone.
-- Not symbols: digits, operators and punctuation; words and units (\text{...},
-- \mathrm{...}, \operatorname{...}, \textbf{...}, \mbox{...}: their content is
-- skipped whole, unless it is the subscript of a base); known functions and
-- operators (\max, \ln, \exp, \tanh, \sum, \frac, \sqrt, \lceil, \oplus, ...: any
-- control word that is not a Greek letter, \ell, a decoration or an alphabet);
-- the expectation and probability operators \mathbb{E} and \mathbb{P}; the
-- label under an \underbrace or over an \overbrace; environment names
-- (\begin{aligned}). The index of a sum or product (j in \sum_{j=1}^{E}) is bound:
-- returned as `bound`, not as a symbol.
--
-- API:
--   texmath.atoms(text) -> list of { key = 'N_total', shown = 'N_\text{total}',
--       base = 'N', sub = 'total' or nil, family = 'K_' when the subscript is a
--       single index letter or a digit, prefix = '\Delta' or nil }, and a set of
--       bound index letters
--   texmath.symbol_key(text) -> the key of a notation table's symbol (its first
--       atom; `N_\text{read}(B)` is N_read), or nil and a reason

local M = {}

local GREEK = {}
for w in ([[alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa
  lambda mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega
  Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega ell]]):gmatch('%a+') do
  GREEK['\\' .. w] = true
end
-- a decoration or alphabet over one argument: part of the base
local DECOR = { ['\\bar'] = true, ['\\hat'] = true, ['\\tilde'] = true, ['\\vec'] = true,
  ['\\dot'] = true, ['\\ddot'] = true, ['\\overline'] = true, ['\\widehat'] = true,
  ['\\widetilde'] = true, ['\\mathcal'] = true, ['\\mathbb'] = true, ['\\mathfrak'] = true,
  ['\\mathscr'] = true, ['\\check'] = true, ['\\breve'] = true }
-- one argument whose content is words or a unit: skipped whole
local WORDS = { ['\\text'] = true, ['\\mathrm'] = true, ['\\textrm'] = true, ['\\operatorname'] = true,
  ['\\textbf'] = true, ['\\textit'] = true, ['\\texttt'] = true, ['\\mbox'] = true,
  ['\\textsf'] = true, ['\\label'] = true, ['\\tag'] = true, ['\\begin'] = true, ['\\end'] = true,
  ['\\hbox'] = true, ['\\textup'] = true, ['\\mathit'] = false }
-- one argument whose content is maths (a style that changes nothing of the symbol)
local STYLE = { ['\\mathbf'] = true, ['\\boldsymbol'] = true, ['\\bm'] = true, ['\\mathit'] = true,
  ['\\displaystyle'] = false, ['\\mathbin'] = true, ['\\mathrel'] = true, ['\\mathop'] = true,
  ['\\underbrace'] = true, ['\\overbrace'] = true, ['\\underline'] = true, ['\\boxed'] = true }
-- operators whose subscript binds an index
local BINDS = { ['\\sum'] = true, ['\\prod'] = true, ['\\bigoplus'] = true, ['\\max'] = true,
  ['\\min'] = true, ['\\argmax'] = true, ['\\argmin'] = true }
-- standard operators written as an alphabet: not symbols of the book
local OPERATOR_LETTERS = { ['\\mathbb{E}'] = true, ['\\mathbb{P}'] = true, ['\\mathbb{R}'] = true,
  ['\\mathbb{Z}'] = true, ['\\mathbb{N}'] = true }

-- ---- tokens ------------------------------------------------------------------------

-- Tokens of a TeX text: { t = 'cs', v = '\\alpha' }, { t = 'ch', v = 'B' },
-- { t = 'group', v = { tokens } }. Comments (%) are dropped.
local function tokenize(s)
  local pos = 1
  local function list(closing)
    local out = {}
    while pos <= #s do
      local c = s:sub(pos, pos)
      if c == '}' then
        pos = pos + 1
        if closing then return out end
        -- a stray closing brace: ignored
      elseif c == '{' then
        pos = pos + 1
        out[#out + 1] = { t = 'group', v = list(true) }
      elseif c == '\\' then
        local w = s:match('^\\%a+', pos)
        if w then
          pos = pos + #w
          out[#out + 1] = { t = 'cs', v = w }
        else
          out[#out + 1] = { t = 'cs', v = s:sub(pos, pos + 1) }
          pos = pos + 2
        end
      elseif c == '%' then
        pos = (s:find('\n', pos, true) or #s) + 1
      elseif c:match('%s') then
        pos = pos + 1
      else
        -- one UTF-8 character
        local ch = s:match('^[%z\1-\127\194-\244][\128-\191]*', pos)
        pos = pos + #ch
        out[#out + 1] = { t = 'ch', v = ch }
      end
    end
    return out
  end
  return list(false)
end

-- The TeX text of tokens, spaces only where TeX needs them.
local function render(toks)
  local out = {}
  for _, tk in ipairs(toks) do
    if tk.t == 'group' then
      out[#out + 1] = '{' .. render(tk.v) .. '}'
    elseif tk.t == 'cs' and tk.v:match('^\\%a+$') then
      out[#out + 1] = tk.v .. ' '
    else
      out[#out + 1] = tk.v
    end
  end
  return (table.concat(out):gsub(' ([^%a])', '%1'):gsub(' $', ''))
end

-- The tokens of an argument: a group's content, or the one token.
local function arg_tokens(tk)
  if not tk then return {} end
  if tk.t == 'group' then return tk.v end
  return { tk }
end

-- The script after _ or ^ at toks[i]: its tokens and the index after it. A
-- command that takes an argument takes it along (N_\text{total}, x^\bar{y}).
local TAKES_ARG
local function script_at(toks, i)
  local tk = toks[i]
  if tk and tk.t == 'cs' and TAKES_ARG(tk.v) and toks[i + 1] then
    return { tk, toks[i + 1] }, i + 2
  end
  return arg_tokens(tk), i + 1
end

-- A subscript as a name, or nil when it is an expression: letters and digits
-- (F, 1, qk, 12), one Greek letter or \infty, or words (\text{total}, \mathrm{e}).
local function sub_name(toks)
  if #toks == 1 and toks[1].t == 'group' then return sub_name(toks[1].v) end
  if #toks == 2 and toks[1].t == 'cs' and WORDS[toks[1].v] and toks[2] then
    local inner = arg_tokens(toks[2])
    local text = {}
    for _, tk in ipairs(inner) do
      if tk.t ~= 'ch' then return nil end
      text[#text + 1] = tk.v
    end
    return table.concat(text)
  end
  -- a letter in an alphabet or under a decoration: W_\mathcal{F}, a_\bar{x}
  if #toks == 2 and toks[1].t == 'cs' and DECOR[toks[1].v] then
    local inner = arg_tokens(toks[2])
    if #inner == 1 and inner[1].t == 'ch' and inner[1].v:match('^%a$') then
      return toks[1].v .. '{' .. inner[1].v .. '}'
    end
  end
  local text = {}
  for _, tk in ipairs(toks) do
    if tk.t == 'ch' and tk.v:match('^%w$') then
      text[#text + 1] = tk.v
    elseif tk.t == 'cs' and (GREEK[tk.v] or tk.v == '\\infty' or tk.v == '\\downarrow' or tk.v == '\\uparrow')
        and #toks == 1 then
      text[#text + 1] = tk.v
    else
      return nil
    end
  end
  if #text == 0 then return nil end
  return table.concat(text)
end

TAKES_ARG = function(cs) return WORDS[cs] or STYLE[cs] or DECOR[cs] end

-- ---- atoms --------------------------------------------------------------------------

local function is_star(toks)
  if #toks == 1 and toks[1].t == 'group' then return is_star(toks[1].v) end
  return #toks == 1 and ((toks[1].t == 'ch' and toks[1].v == '*') or (toks[1].t == 'cs' and toks[1].v == '\\ast'))
end

local function is_prime(toks)
  if #toks == 1 and toks[1].t == 'group' then return is_prime(toks[1].v) end
  return #toks >= 1 and toks[1].t == 'cs' and toks[1].v == '\\prime'
end

-- Walks tokens, appending atoms to `out` and bound letters to `bound`.
local function walk(toks, out, bound)
  local i = 1
  local prefix
  while i <= #toks do
    local tk = toks[i]
    local base, shown
    if tk.t == 'cs' and WORDS[tk.v] then
      i = i + 2 -- the command and its argument
      prefix = nil
    elseif tk.t == 'cs' and STYLE[tk.v] then
      walk(arg_tokens(toks[i + 1]), out, bound)
      i = i + 2
      -- a script after \underbrace{...} is its label: words, or maths to check
      while toks[i] and toks[i].t == 'ch' and (toks[i].v == '_' or toks[i].v == '^') do
        local label
        label, i = script_at(toks, i + 1)
        walk(label, out, bound)
      end
      prefix = nil
    elseif tk.t == 'cs' and tk.v == '\\Delta' and toks[i + 1] and
        ((toks[i + 1].t == 'ch' and toks[i + 1].v:match('^%a$')) or
          (toks[i + 1].t == 'cs' and (GREEK[toks[i + 1].v] or DECOR[toks[i + 1].v]))) then
      prefix = '\\Delta'
      i = i + 1
    elseif tk.t == 'cs' and BINDS[tk.v] then
      i = i + 1
      -- \sum_{j=1}^{E}: j is bound; the limits are maths
      while toks[i] and toks[i].t == 'ch' and (toks[i].v == '_' or toks[i].v == '^') do
        local under = toks[i].v == '_'
        local script
        script, i = script_at(toks, i + 1)
        if under and script[1] and script[1].t == 'ch' and script[1].v:match('^%a$') then
          bound[script[1].v] = true
          local rest = {}
          for k = 2, #script do rest[#rest + 1] = script[k] end
          walk(rest, out, bound)
        else
          walk(script, out, bound)
        end
      end
      prefix = nil
    elseif tk.t == 'group' then
      walk(tk.v, out, bound)
      i = i + 1
      prefix = nil
    else
      if tk.t == 'ch' and tk.v:match('^%a$') then
        base, shown = tk.v, tk.v
        i = i + 1
      elseif tk.t == 'cs' and GREEK[tk.v] then
        base, shown = tk.v, tk.v
        i = i + 1
      elseif tk.t == 'cs' and DECOR[tk.v] then
        local inner = render(arg_tokens(toks[i + 1]))
        base = tk.v .. '{' .. inner .. '}'
        shown = base
        i = i + 2
        if OPERATOR_LETTERS[base] then base = nil end
      else
        i = i + 1
        prefix = nil
      end
      if base then
        local atom = { base = base, prefix = prefix }
        prefix = nil
        -- primes and scripts, in any order
        local sub_toks
        while toks[i] do
          local s = toks[i]
          if s.t == 'ch' and s.v == "'" then
            atom.prime = (atom.prime or '') .. "'"
            i = i + 1
          elseif s.t == 'ch' and s.v == '_' and not sub_toks then
            sub_toks, i = script_at(toks, i + 1)
          elseif s.t == 'ch' and s.v == '^' then
            local sup
            sup, i = script_at(toks, i + 1)
            if is_star(sup) then atom.star = true
            elseif is_prime(sup) then atom.prime = (atom.prime or '') .. "'"
            else walk(sup, out, bound) end -- an exponent: its symbols count
          else
            break
          end
        end
        local expr
        if sub_toks then
          local name = sub_name(sub_toks)
          if name then
            atom.sub = name
            atom.sub_shown = render(sub_toks)
            if name:match('^%d+$') or (#name == 1 and name:match('%l')) then atom.index = true end
          else
            expr = sub_toks -- an expression: its symbols count, the base stands alone
            atom.expr_sub = true
          end
        end
        atom.key = M.key(atom)
        atom.shown = shown .. (atom.prime or '') .. (atom.star and '^*' or '') ..
          (atom.sub and ('_' .. (#atom.sub_shown > 1 and not atom.sub_shown:match('^[{\\]') and
            ('{' .. atom.sub_shown .. '}') or atom.sub_shown)) or '')
        out[#out + 1] = atom
        if expr then walk(expr, out, bound) end
      end
    end
  end
end

-- The canonical key of an atom: base, prime, star, subscript.
function M.key(atom, without)
  without = without or {}
  local k = atom.base
  if not without.prime then k = k .. (atom.prime or '') end
  if atom.star then k = k .. '^*' end
  if atom.sub and not without.sub then k = k .. '_' .. atom.sub end
  return k
end

function M.atoms(text)
  local out, bound = {}, {}
  walk(tokenize(text), out, bound)
  return out, bound
end

-- The key of a notation table's symbol: its first atom, with a \Delta prefix if
-- it has one; an operator symbol (\oplus) is its control word.
function M.symbol_key(text)
  local atoms = M.atoms(text)
  if #atoms == 0 then
    local toks = tokenize(text)
    if #toks == 1 and toks[1].t == 'cs' then return toks[1].v end
    -- a name in upright type (\text{MFU}): the prose's word, a symbol by itself
    if #toks == 2 and toks[1].t == 'cs' and WORDS[toks[1].v] then
      local name = sub_name(toks)
      if name then return '\\text{' .. name .. '}' end
    end
    return nil, 'no symbol in "' .. text .. '"'
  end
  local a = atoms[1]
  return (a.prefix or '') .. a.key, a
end

M.tokenize, M.render = tokenize, render
return M
