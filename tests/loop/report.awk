# report.awk -- make check's report of one chapter (tests/check.sh runs it, after
# explain.awk): per exercise ✓ or ✗, stars, tests passed of total, title; under a
# failing exercise its first failing test (every one with verbose=1) in plain
# words, and the catalogued mistake that gives the same value, if one does.
#
# Variables: ch (NN-topic), tsv (the parsed run: name, status, detail), table (the
# mistake table: test, where, value, id, says; "" when none), verbose, ok, bad,
# dim, bold, off (colours, "" off a terminal), first (a file: the first failing
# exercise, its test and its section are written there, tab-separated), zero (1 when
# the grader would score the chapter 0 as it stands: its rules, or an error).
# Reads exercises/CH/exercises.txt as its input. Exits 1 when anything fails.

function val(s) { sub(/^[^:]*:[ \t]*/, "", s); sub(/[ \t]+$/, "", s); return s }

/^exercise:/ { n++; id[n] = val($0); stars[n] = 1; title[n] = ""; section[n] = ""; known[id[n]] = 1 }
/^stars:/ { stars[n] = val($0) + 0 }
/^title:/ { title[n] = val($0) }
/^section:/ { section[n] = val($0) }

# Words wrapped at width, every line after the first indented by pad.
function wrap(text, width, pad,   w, nw, i, out, line) {
    nw = split(text, w, " ")
    out = ""; line = ""
    for (i = 1; i <= nw; i++) {
        if (line != "" && length(line) + 1 + length(w[i]) > width) { out = out line "\n" pad; line = w[i] }
        else line = (line == "" ? w[i] : line " " w[i])
    }
    return out line
}

# The catalogued mistakes that compute what this failure computed, as one sentence.
function mistake_for(name, detail,   at, v, i, says, k) {
    at = failure_at(detail)
    if (at == "" || !((name SUBSEP at) in nrows)) return ""
    v = failure_value(detail)
    says = ""
    k = name SUBSEP at
    for (i = 1; i <= nrows[k]; i++)
        if (same_value(v, rowval[k, i])) says = says (says == "" ? "" : ", or if you ") rowsays[k, i]
    return says == "" ? "" : "this is the value you get if you " says
}

# One failing test: its name, then its explanation indented, the mistake before
# the line that says where the test is.
function show(name, detail,   text, lines, nl, i, m, short) {
    short = name; sub(/^[^:]*: /, "", short)
    printf "      %s%s%s\n", bold, short, off
    m = mistake_for(name, detail)
    nl = split(explain(detail), lines, "\n")
    for (i = 1; i <= nl; i++) {
        if (lines[i] == "") continue
        if (m != "" && lines[i] ~ /^\(the test: /) { printf "        %s\n", wrap(m, 80, "          "); m = "" }
        printf "        %s\n", lines[i]
    }
    if (m != "") printf "        %s\n", wrap(m, 80, "          ")
}

END {
    while ((getline l < tsv) > 0) {
        split(l, f, "\t")
        ex = f[1]; sub(/: .*/, "", ex)
        total[ex]++
        if (f[2] == "ok") passed[ex]++
        else { nfail[ex]++; fname[ex, nfail[ex]] = f[1]; fdetail[ex, nfail[ex]] = f[3] }
        if (!(ex in known) && !(ex in stray)) { stray[ex] = 1; strays = strays " " ex }
    }
    if (table != "") while ((getline l < table) > 0) {
        if (l ~ /^#/) continue
        split(l, f, "\t")
        k = f[1] SUBSEP f[2]
        nrows[k]++
        rowval[k, nrows[k]] = f[3]; rowsays[k, nrows[k]] = f[5]
    }
    if (strays != "")
        printf "check: tests/%s names exercises that exercises/%s/exercises.txt lacks:%s\n", ch, ch, strays > "/dev/stderr"

    width = 0
    for (i = 1; i <= n; i++) {
        if (length(id[i]) > width) width = length(id[i])
        all_stars += stars[i]
        if (total[id[i]] > 0 && passed[id[i]] == total[id[i]]) { done++; got_stars += stars[i] }
    }
    printf "%s%s%s: %d of %d exercises done, %d of %d stars%s\n", bold, ch, off, done, n, got_stars, all_stars, \
        (zero == 1 ? bad " (but the grader would score this chapter 0 as it stands: see the end)" off : "")
    status = 0
    for (i = 1; i <= n; i++) {
        e = id[i]
        good = total[e] > 0 && passed[e] == total[e]
        s = ""; for (j = 0; j < stars[i]; j++) s = s "★"
        for (; j < 3; j++) s = s " "
        printf "  %s %-" width "s %s %2d/%-2d  %s\n", (good ? ok "✓" : bad "✗") off, e, s, passed[e], total[e], title[i]
        if (good) continue
        status = 1
        if (total[e] == 0) { print "      no test ran for this exercise (see the messages above, or tests/" ch "/)"; continue }
        if (!wrote) { printf "%s\t%s\t%s\n", e, fname[e, 1], section[i] > first; wrote = 1 }
        shown = (verbose == 1 ? nfail[e] : 1)
        for (j = 1; j <= shown; j++) show(fname[e, j], fdetail[e, j])
        more = nfail[e] - shown
        if (more > 0)
            printf "      %sand %d more failing test%s (VERBOSE=1 explains them all)%s\n", dim, more, (more == 1 ? "" : "s"), off
    }
    exit status
}
