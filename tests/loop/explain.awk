# explain.awk -- functions that read a failed test's detail (the lines cmocka
# printed for it, joined by \036, as lib.sh's loop_parse stores them). Loaded with
# awk -f before the program that uses them (check's report.awk, lib.sh's
# loop_explain and loop_values, mistakes.sh).
#
#   explain(detail)        the failure in plain words: what was computed, what was
#                          expected, with units; where the test is (lines, each
#                          ending in \n)
#   failure_at(detail)     where the failing assertion is: FILE:LINE ("" if unknown)
#   failure_value(detail)  the value computed there: assert_close's number with all
#                          its digits or assert_named's name (CHALK_VALUES=1),
#                          assert_int_equal's left side
#                          in decimal, else "-" (a true/false check failed there)
#   same_value(a, b)       equal values: numbers within 1e-6 relative, else the
#                          same text

# cmocka prints integers as 64-bit hex: 0xffffffffffffffff is -1, a negative value in
# two's complement (the sum of the complemented digits, plus one, negated)
function hex2dec(s,   i, n, c, neg) {
    if (s !~ /^0x[0-9a-fA-F]+$/) return s
    neg = length(s) == 18 && index("89abcdef", tolower(substr(s, 3, 1))) > 0
    n = 0
    for (i = 3; i <= length(s); i++) {
        c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
        n = n * 16 + (neg ? 15 - c : c)
    }
    return neg ? -(n + 1) : n
}

# Line `l` of C without its comments (/* */, also across lines, and //), string and
# character literals kept whole. `in_comment` carries an open /* from line to line:
# strip_comments sets the global stmt_in_comment for the next call.
function strip_comments(l, in_comment,   out, i, c, d, q) {
    out = ""; q = ""
    for (i = 1; i <= length(l); i++) {
        c = substr(l, i, 1); d = substr(l, i, 2)
        if (in_comment) { if (d == "*/") { in_comment = 0; i++ } ; continue }
        if (q != "") {
            out = out c
            if (c == "\\") { out = out substr(l, i + 1, 1); i++ }
            else if (c == q) q = ""
            continue
        }
        if (d == "/*") { in_comment = 1; i++; out = out " "; continue }
        if (d == "//") break
        if (c == "\"" || c == "'") q = c
        out = out c
    }
    stmt_in_comment = in_comment
    return out
}

# The statement starting at line `line` of `file`, joined up to its semicolon, without
# comments (an assertion ending in /* why */ is still one statement).
function statement(file, line,   l, s, n, inc) {
    s = ""; n = 0; inc = 0
    while ((getline l < file) > 0) {
        n++
        if (n >= line) {
            l = strip_comments(l, inc); inc = stmt_in_comment
            sub(/^[ \t]+/, "", l); sub(/[ \t]+$/, "", l)
            if (l != "") s = s (s == "" ? "" : " ") l
            if (l ~ /;$/) break
        }
        if (n > line + 5) break
    }
    close(file)
    return s
}

function failure_at(detail,   L, nl, i, loc) {
    nl = split(detail, L, "\036")
    loc = ""
    for (i = 1; i <= nl; i++) if (L[i] ~ /: error: Failure!$/) {
        loc = L[i]; sub(/: error: Failure!$/, "", loc); sub(/^.*\] --- /, "", loc)
    }
    return loc
}

function failure_value(detail,   L, nl, i, s, v) {
    nl = split(detail, L, "\036")
    for (i = 1; i <= nl; i++) {
        s = L[i]
        if (s ~ /^chalk-value: /) return substr(s, 14)
        if (s ~ /^[-0-9a-fx.]+ != [-0-9a-fx.]+$/) { split(s, v, " != "); return hex2dec(v[1]) }
    }
    return "-"
}

function is_number(s) {
    return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/
}

function same_value(a, b,   x, y, d, m) {
    if (!is_number(a) || !is_number(b)) return a == b
    x = a + 0; y = b + 0
    d = x - y; if (d < 0) d = -d
    m = (x < 0 ? -x : x); if ((y < 0 ? -y : y) > m) m = (y < 0 ? -y : y)
    return d <= 1e-6 * m
}

function explain(detail,   L, nl, i, loc, file, line, stmt, said, raw, out, s, p, rest, q, k,
                 computed, expected, sig, why, v, args, depth, cut, j, c, got, want, e) {
    nl = split(detail, L, "\036")
    loc = failure_at(detail); file = ""; line = 0
    if (loc != "") { file = loc; sub(/:[0-9]+$/, "", file); line = loc; sub(/^.*:/, "", line) }
    stmt = (file != "" ? statement(file, line + 0) : "")
    said = 0; raw = ""; out = ""
    # a sanitizer's report (make check runs the tests under ASan and UBSan): what it
    # found, and the first place in the reader's code it names
    for (i = 1; i <= nl; i++) {
        s = L[i]
        if (s ~ /runtime error: /) { sub(/^[^ ]*exercises\//, "exercises/", s); return "UndefinedBehaviorSanitizer: " s "\n" }
        if (s ~ /ERROR: AddressSanitizer: /) {
            sub(/^.*ERROR: /, "", s); sub(/ on address 0x[0-9a-f]+.*$/, "", s)
            for (k = i + 1; k <= nl; k++) if (L[k] ~ /^ *#[0-9]+ 0x[0-9a-f]+ in .*exercises\//) {
                p = L[k]; sub(/^ *#[0-9]+ 0x[0-9a-f]+ in /, "", p); sub(/ [^ ]*exercises\//, " at exercises/", p)
                return s " in " p "\n"
            }
            return s "\n"
        }
    }
    for (i = 1; i <= nl; i++) {
        s = L[i]
        if (s ~ /: error: Failure!$/ || s ~ /^chalk-value: /) continue
        if (s ~ /, expected .* \(within .* relative\)$/) {
            # the last ", expected " splits computed from expected
            rest = s; q = 0
            while ((k = index(rest, ", expected ")) > 0) { q += k; rest = substr(rest, k + 1) }
            computed = substr(s, 1, q - 1); expected = substr(s, q + 11)
            sub(/ \(within /, " (to within ", expected); sub(/ relative\)$/, " relative)", expected)
            gsub(/  +/, " ", expected); sub(/ +$/, "", computed)
            out = out "computed " computed "\nexpected " expected "\n"
            said = 1
        } else if (s ~ /^[^ ].* = [^ ,]+, expected [^ ]+$/) {
            # assert_named: an enum's value and the one expected, by name
            q = index(s, ", expected ")
            out = out "computed " substr(s, 1, q - 1) "\nexpected " substr(s, q + 11) "\n"
            said = 1
        } else if (s ~ /^Test failed with exception: /) {
            sub(/^Test failed with exception: /, "", s)
            sig = s; sub(/^.*\(/, "", sig); sub(/\)$/, "", sig); sub(/\([0-9]+\)$/, "", s)
            why = (sig == 11 || sig == 7) ? ": reading or writing through a bad pointer?" : (sig == 8 ? ": an integer division by zero?" : "")
            out = out "crashed: " s " (signal " sig ")" why "\n"
            said = 1
        } else if (s ~ /^[-0-9a-fx.]+ != [-0-9a-fx.]+$/ && stmt ~ /^assert_int_equal\(/) {
            split(s, v, " != ")
            args = stmt; sub(/^assert_int_equal\(/, "", args); sub(/\);$/, "", args)
            # split the two arguments at the comma outside parentheses
            depth = 0; cut = 0
            for (j = 1; j <= length(args); j++) {
                c = substr(args, j, 1)
                if (c == "(") depth++
                else if (c == ")") depth--
                else if (c == "," && depth == 0) { cut = j; break }
            }
            got = substr(args, 1, cut - 1); want = substr(args, cut + 1); sub(/^ +/, "", want)
            # a literal expected value is said once ("expected 3", not "expected 3 = 3")
            out = out "computed " got " = " hex2dec(v[1]) "\nexpected " \
                (want ~ /^-?[0-9]+[uUlL]*$/ ? hex2dec(v[2]) : want " = " hex2dec(v[2])) "\n"
            said = 1
        } else if (stmt ~ /^assert_true\(/ && !said) {
            e = stmt; sub(/^assert_true\(/, "", e); sub(/\);$/, "", e)
            out = out "expected true, but it is false: " e "\n"
            said = 1
        } else if (stmt ~ /^assert_false\(/ && !said) {
            e = stmt; sub(/^assert_false\(/, "", e); sub(/\);$/, "", e)
            out = out "expected false, but it is true: " e "\n"
            said = 1
        } else if (raw == "") {
            raw = s   # the program's own printing: shown when no known assertion explains it
        }
    }
    # a check of the test's own (a helper, a macro): its message says what went wrong,
    # then the statement that failed
    if (!said && raw != "") out = out raw "\n"
    if (!said && stmt != "") { out = out "failed: " stmt "\n"; said = 1 }
    if (loc != "") out = out "(the test: " loc ")\n"
    return out
}

# As a program: mode=explain prints explain(detail); mode=values reads a parsed run
# (name<TAB>status<TAB>detail lines) on stdin and prints "name<TAB>where<TAB>value"
# for each test that failed at an assertion.
BEGIN {
    if (mode == "explain") { printf "%s", explain(detail); exit }
    if (mode == "values") {
        while ((getline l) > 0) {
            split(l, f, "\t")
            if (f[2] == "fail" && (w = failure_at(f[3])) != "") print f[1] "\t" w "\t" failure_value(f[3])
        }
        exit
    }
}
