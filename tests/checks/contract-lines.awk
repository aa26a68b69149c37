# contract-lines.awk -- contract and stub comments that keep their lines (formats.md).
#
#   awk -f tests/checks/contract-lines.awk exercises/NN-topic/*.h exercises/NN-topic/*.c
#
# Prints "FILE:LINE: message" for each comment line a formatter has joined into
# prose, and nothing when there is none. A formula, table or list in a contract
# or stub comment must keep its lines: wrapped in `// clang-format off` ...
# `// clang-format on`, or laid out on lines indented deeper than the comment's
# prose. The rule, for two consecutive lines L and L' of one comment (a /* */
# block, or a run of // lines), outside clang-format off regions, where L' is at
# the comment's prose indentation (its text starts in the comment's leftmost
# text column) -- that is, where L's formula ran on into the prose:
#   1. L ends with an operator: + - * / = == != <= >= < > << >> <- -> ^ % & |
#      && || += -= *= /= xor shl shr mod, or one of the Unicode ones (⊕ × · ≤ ≥
#      ← → ↦), unless the word before it ends with a comma (a list of operators,
#      "for +, -, *");
#   2. L' starts with one (not "-" or "*", which start list items and bullets).
# (A bracket left open at the end of L is not a sign by itself: prose in brackets
# runs over lines, "(8 x 80 GB = 640 GB for a / Hopper tray)".)
# And: a banner, "/* ---- Exercise ...", whose dashes a formatter pushed to the
# next line (" * ------- */"): a banner is one line, or its second line says
# something (a section reference).
# A deliberate layout is untouched: a formula's continuation line indented deeper
# than the prose (" *     + batch * context") is not at prose indentation.
# A comment line is the text after "/*", after a leading "*" inside a block, or
# after "//"; a line of code with a trailing comment starts a comment at its "/*".

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

function is_op(t,    ops) {
    ops = " + - * / = == != <= >= < > << >> <- -> ^ % & | && || += -= *= /= xor shl shr mod ⊕ × · ≤ ≥ ← → ↦ "
    return t != "" && index(ops, " " t " ") > 0
}

# The last and first whitespace-separated words of a text.
function last_word(s,    n, w) { s = trim(s); n = split(s, w, /[ \t]+/); return n ? w[n] : "" }
function word_before_last(s,    n, w) { s = trim(s); n = split(s, w, /[ \t]+/); return n > 1 ? w[n - 1] : "" }
function first_word(s,    n, w) { s = trim(s); n = split(s, w, /[ \t]+/); return n ? w[1] : "" }

function flush_comment(    i, base, a, b, why) {
    base = 1e9
    for (i = 1; i <= n; i++) if (text[i] != "" && col[i] < base) base = col[i]
    for (i = 1; i < n; i++) {
        if (text[i] == "" || text[i + 1] == "" || off[i] || off[i + 1]) continue
        if (col[i + 1] != base) continue
        a = text[i]; b = text[i + 1]
        why = ""
        if (is_op(last_word(a)) && word_before_last(a) !~ /,$/) why = "ends with \"" last_word(a) "\""
        else if (is_op(first_word(b)) && first_word(b) != "-" && first_word(b) != "*") why = "the next line starts with \"" first_word(b) "\""
        if (why != "")
            printf "%s:%d: a formula runs on into the prose (%s): \"%s\" / \"%s\"\n", FILENAME, line[i], why, trim(a), trim(b)
    }
    n = 0
}

# Adds a comment line: its text and the column where the text starts.
function add(t, c, ln) {
    n++
    line[n] = ln
    off[n] = cf_off
    if (t ~ /^[ \t]*$/) { text[n] = ""; col[n] = 0; return }
    match(t, /^[ \t]*/)
    col[n] = c + RLENGTH
    text[n] = t
}

FNR == 1 { if (n) flush_comment(); in_block = 0; cf_off = 0; in_line = 0 }

{
    raw = $0
    if (raw ~ /clang-format off/) cf_off = 1
    if (banner && raw ~ /^[ \t]*\*[ \t]*-+[ \t]*\*\/[ \t]*$/)
        printf "%s:%d: a banner split over lines, its dashes pushed to the next: \"%s\"\n", FILENAME, FNR - 1, trim(banner)
    banner = (raw ~ /^\/\* ----/ && raw !~ /\*\//) ? raw : ""
    if (in_block) {
        t = raw
        c = 1
        if (t ~ /^[ \t]*\*\//) {
            t = ""
        } else if (match(t, /^[ \t]*\*[ \t]?/)) {
            # " * text": the text after the star
            c = RLENGTH + 1
            t = substr(t, RLENGTH + 1)
        }
        end = index(t, "*/")
        if (end) { add(substr(t, 1, end - 1), c, FNR); in_block = 0; flush_comment() }
        else add(t, c, FNR)
    } else {
        s = index(raw, "/*")
        d = index(raw, "//")
        if (d && (!s || d < s)) {
            # a // comment: consecutive lines with // in the same column form one comment
            if (!(in_line && d == line_col)) { if (n) flush_comment() }
            in_line = 1
            line_col = d
            t = substr(raw, d + 2)
            add(t, d + 2, FNR)
        } else {
            if (in_line) { flush_comment(); in_line = 0 }
            if (s) {
                t = substr(raw, s + 2)
                end = index(t, "*/")
                if (end) { add(substr(t, 1, end - 1), s + 2, FNR); flush_comment() }
                else { in_block = 1; add(t, s + 2, FNR) }
            }
        }
    }
    if (raw ~ /clang-format on/) cf_off = 0
}

END { if (n) flush_comment() }
