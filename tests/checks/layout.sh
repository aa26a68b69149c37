#!/usr/bin/env bash
# layout.sh -- what a build of the book can tell about its layout (issue 20.11).
#
#   tests/checks/layout.sh LOG PDF [EDITION]
#
# LOG is pdflatex's log of the book (build/book-EDITION/chalk.log), PDF the book.
# Prints one finding a line, "FILE: EDITION: message", FILE the source file the
# finding comes from (book/build.sh announces each file's fragment in the log,
# "chalk-file: FILE"; what comes before the first is the template, chalk.tex) or
# "PDF page N" for what only the PDF shows:
#   * an overfull line: "Overfull \hbox" wider than OVERFULL_PT points (default 1;
#     LaTeX reports anything over its \hfuzz of 0.1 pt), quoting the line's text;
#   * a page whose content runs into the bottom margin: "Overfull \vbox" over
#     OVERFULL_PT while the page is output (an unbreakable box taller than the page);
#   * a reference or citation LaTeX could not resolve (its warnings), and "??" in
#     the PDF's text (pdftotext), where an unresolved reference prints;
#   * an equation number alone on its line (the equation too wide for it): in the
#     PDF (pdftotext -bbox-layout), a word "(N.M)" in the right part of the page
#     with no word to its left within one tag height of its centre (the number of
#     a two-line aligned equation, centred between its lines, is within 0.85).
# Prints nothing when all is well; exits 2 when a file cannot be read. Doubled
# parentheses are checked in the sources (tests/checks/parens.lua), boxes and
# tables are kept whole by the template (book/template.tex), not found here.
set -uo pipefail
log=${1:?usage: tests/checks/layout.sh LOG PDF [EDITION]}
pdf=${2:?usage: tests/checks/layout.sh LOG PDF [EDITION]}
edition=${3:-book}
[ -r "$log" ] || { echo "layout.sh: cannot read $log" >&2; exit 2; }
[ -r "$pdf" ] || { echo "layout.sh: cannot read $pdf" >&2; exit 2; }
limit=${OVERFULL_PT:-1}

# ---- the log -------------------------------------------------------------------------
awk -v limit="$limit" -v ed="$edition" '
    BEGIN { file = "book/template.tex" }
    /^chalk-file: / { file = substr($0, 13); next }
    /^Overfull \\[hv]box \([0-9.]+pt too / {
        match($0, /\([0-9.]+pt/)
        pt = substr($0, RSTART + 1, RLENGTH - 3) + 0
        if (pt <= limit) next
        if ($0 ~ /\\vbox/) {
            printf "%s: %s: a page overfull by %s pt (content runs into the bottom margin)\n", file, ed, pt
            next
        }
        # the line itself is on the next line of the log: fonts and [] dropped
        getline text
        gsub(/\\[A-Za-z0-9]+\/[a-z0-9]+\/[a-z]+\/[a-z]+\/[0-9.]+ ?/, "", text)
        gsub(/\[\]|\$|\\[A-Za-z]+/, "", text)
        gsub(/^ +| +$/, "", text)
        printf "%s: %s: an overfull line, %s pt too wide: \"%s\"\n", file, ed, pt, substr(text, 1, 60)
        next
    }
    /LaTeX Warning: (Reference|Citation) `[^'"'"']*'"'"' .*undefined/ {
        w = $0; sub(/.*LaTeX Warning: /, "", w); sub(/ on page [0-9]+/, "", w); sub(/ on input line [0-9]+\.?/, "", w)
        printf "%s: %s: %s\n", file, ed, w
    }
' "$log" | sort -u

# ---- the PDF -------------------------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/chalk-layout.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pdftotext "$pdf" "$tmp/text" 2>/dev/null || { echo "layout.sh: pdftotext failed on $pdf" >&2; exit 2; }
awk -v ed="$edition" 'BEGIN { RS = "\f" }
    { n = split($0, lines, "\n")
      for (i = 1; i <= n; i++) if (index(lines[i], "??"))
          printf "PDF page %d: %s: \"??\" in the text (an unresolved reference?): \"%s\"\n", NR, ed, substr(lines[i], 1, 60) }
' "$tmp/text"
pdftotext -bbox-layout "$pdf" "$tmp/bbox.html" 2>/dev/null || { echo "layout.sh: pdftotext -bbox-layout failed on $pdf" >&2; exit 2; }
awk -v ed="$edition" '
    function attr(s, name) { match(s, name "=\"[0-9.]+\""); return substr(s, RSTART + length(name) + 2, RLENGTH - length(name) - 3) + 0 }
    /<page / { page++; n = 0; pw = attr($0, "width") }
    /<word / {
        n++
        x0[n] = attr($0, "xMin"); y0[n] = attr($0, "yMin"); x1[n] = attr($0, "xMax"); y1[n] = attr($0, "yMax")
        t = $0; sub(/.*">/, "", t); sub(/<\/word>.*/, "", t); w[n] = t
    }
    /<\/page>/ {
        for (i = 1; i <= n; i++) {
            if (w[i] !~ /^\(([0-9]+|[A-Z])\.[0-9]+\)$/ || x0[i] < 0.6 * pw) continue
            c = (y0[i] + y1[i]) / 2; h = y1[i] - y0[i]
            best = 1e9
            for (j = 1; j <= n; j++) {
                if (j == i || x1[j] > x0[i]) continue
                d = (y0[j] + y1[j]) / 2 - c
                if (d < 0) d = -d
                if (d < best) best = d
            }
            if (best > h) printf "PDF page %d: %s: equation number %s alone on its line\n", page, ed, w[i]
        }
    }
' "$tmp/bbox.html"
exit 0
