#!/usr/bin/env bash
# run.sh -- the book's tests: golden tests of every Lua filter, bad input that must
# stop the build, a smoke build of a small book and the whole book in both editions.
# `make test` runs it (tests/run.sh, phase 8); it prints cmocka-style lines and ends
# with "[  PASSED  ] N test(s)." and, if any failed, "[  FAILED  ] M test(s), listed below:".
#
#   golden/NAME/   sample.md, args (pandoc options, one line: filters, -t native|latex,
#                  -M ...), optional env (VAR=value lines, e.g. CHALK=fake-chalk),
#                  expected.native, .tex or .txt (pandoc's output, reviewed by hand),
#                  optional expected-files/F compared with build/book-tests/NAME/F
#   errors/NAME/   sample.md, args, optional env, expect: lines that must all appear
#                  in pandoc's error output; pandoc must fail
#   smoke/         book.md: a small book with every construct, built to PDF
#   build/caches   chalk answers, plots and diagrams are not computed again when
#                  nothing changed, and are when the calculator or the drawing did
#   build/per-file perfile/: a book of two files, each converted alone; references
#                  across them, the index and a citation are in the PDF; an edit of
#                  one file converts that file alone and costs one pdflatex run
#   build/layout   the built book's layout, both editions: no overfull line or page, no
#                  unresolved reference, no equation number alone on its line
#                  (tests/checks/layout.sh; tests/checks/outstanding/layout.txt lists
#                  what the chapters must still clear)
#   build/stops-*  book/build.sh stops, naming the cause: a missing region, a listing
#                  longer than a page holds (include.lua's MAX_LINES), a failing
#                  chalk, a bad diagram, a notation clash, an unknown citation key,
#                  an id defined in two files, a reference to a table no file has
#   web/*          the web edition (book/web/README.md; tests/deps.sh web installs
#                  dvisvgm, node, npm and chromium, and says so): make web in both
#                  editions; the student site holds no solution (handout-check.sh,
#                  which the instructor site must fail); its numbers of figures,
#                  tables, equations and sections are the PDF's (build/book-*/chalk.aux);
#                  a TeX error in an equation stops it, naming the equation; every page
#                  in headless chromium (book/web/test.js; screenshots in build/web-shots/)
#
# Usage: book/tests/run.sh [NAME...]   (default: every test; run from anywhere)
# UPDATE=1 writes the actual outputs over expected.* (then review them with git diff).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

T=book/tests
OUT=build/book-tests
mkdir -p "$OUT"
passed=0 failed=0 failures=()

selected() {
    [ ${#names[@]} -eq 0 ] && return 0
    local n
    for n in "${names[@]}"; do [ "$n" = "$1" ] && return 0; done
    return 1
}
names=("$@")

ok() { echo "[       OK ] $1"; passed=$((passed + 1)); }
bad() {
    echo "[  FAILED  ] $1"
    [ -n "${2:-}" ] && printf '%s\n' "$2" | head -40 | sed 's/^/    /'
    failed=$((failed + 1))
    failures+=("$1")
}

# Runs pandoc on a test directory's sample.md with its args and env.
# Output to $OUT/NAME/out, errors to $OUT/NAME/err; returns pandoc's status.
run_pandoc() {
    local dir=$1 name=$2 args envs=()
    rm -rf "${OUT:?}/$name" # from nothing: a diagram or plot is drawn, not found cached
    mkdir -p "$OUT/$name"
    read -r -a args <"$dir/args"
    if [ -f "$dir/env" ]; then mapfile -t envs < <(grep -v '^#' "$dir/env"); fi
    env "${envs[@]}" pandoc -f markdown "${args[@]}" "$dir/sample.md" \
        -o "$OUT/$name/out" 2>"$OUT/$name/err"
}

# The web edition's tools (dvisvgm for the golden *-html diagrams; node, chromium and
# the npm modules for web/*), installed before the first test that needs them.
web_ready=1
needs_web=0
for n in web/site web/numbers web/stops-on-bad-equation web/browser; do selected "$n" && needs_web=1; done
for d in "$T"/golden/*-html/; do selected "golden/$(basename "$d")" && needs_web=1; done
if [ "$needs_web" = 1 ]; then
    tests/deps.sh web >"$OUT/web-deps.log" 2>&1 || web_ready=0
    cat "$OUT/web-deps.log"
    [ "$web_ready" = 0 ] || book/web/tools.sh build/web-tools >"$OUT/web-tools.log" 2>&1 || web_ready=0
    grep -v '^$' "$OUT/web-tools.log" 2>/dev/null || true
fi

# ---- golden tests ------------------------------------------------------------------
for dir in "$T"/golden/*/; do
    dir=${dir%/}
    name=golden/$(basename "$dir")
    selected "$name" || continue
    echo "[ RUN      ] $name"
    expected=$(find "$dir" -maxdepth 1 -name "expected.*" | head -1)
    if [ -z "$expected" ]; then bad "$name" "no expected.native or expected.tex"; continue; fi
    if ! run_pandoc "$dir" "$name"; then bad "$name" "$(cat "$OUT/$name/err")"; continue; fi
    if [ "${UPDATE:-0}" = 1 ]; then cp "$OUT/$name/out" "$expected"; fi
    diffs=$(diff -u "$expected" "$OUT/$name/out")
    if [ -d "$dir/expected-files" ]; then
        for f in $(find "$dir/expected-files" -type f | sort); do
            actual="$OUT/$name/${f#"$dir"/expected-files/}"
            [ "${UPDATE:-0}" = 1 ] && [ -f "$actual" ] && cp "$actual" "$f"
            diffs+=$(diff -u "$f" "$actual" 2>&1)
        done
    fi
    if [ -z "$diffs" ]; then ok "$name"; else bad "$name" "$diffs"; fi
done

# ---- bad input stops the filters ------------------------------------------------------
for dir in "$T"/errors/*/; do
    dir=${dir%/}
    name=errors/$(basename "$dir")
    selected "$name" || continue
    echo "[ RUN      ] $name"
    if run_pandoc "$dir" "$name"; then bad "$name" "pandoc succeeded; it must stop"; continue; fi
    missing=""
    while IFS= read -r line; do
        [ -z "$line" ] && continue
        grep -qF -- "$line" "$OUT/$name/err" || missing+="expected in the error: $line"$'\n'
    done <"$dir/expect"
    if [ -z "$missing" ]; then ok "$name"; else bad "$name" "$missing$(cat "$OUT/$name/err")"; fi
done

# ---- the build script: a small book, and bad input stopping it ----------------------------
if selected build/smoke; then
    echo "[ RUN      ] build/smoke"
    rm -f "$OUT/smoke.pdf"
    if log=$(CHALK=build/chalk book/build.sh instructor "$OUT/smoke.pdf" "$T/smoke/book.md" 2>&1) &&
        text=$(pdftotext "$OUT/smoke.pdf" - 2>&1); then
        missing=""
        while IFS= read -r line; do
            [ -z "$line" ] && continue
            grep -qF -- "$line" <<<"$text" || missing+="not in the PDF's text: $line"$'\n'
        done <"$T/smoke/expect"
        # nothing runs into the margin: long code lines wrap, long inline code breaks
        overfull=$(grep -c '^Overfull \\hbox' "$OUT/book-instructor/chalk.log")
        [ "$overfull" -eq 0 ] || missing+="$overfull overfull line(s) in $OUT/book-instructor/chalk.log"$'\n'
        # an unchanged rebuild settles in one pdflatex run (the .aux of the last is kept)
        CHALK=build/chalk book/build.sh instructor "$OUT/smoke.pdf" "$T/smoke/book.md" >/dev/null 2>&1
        grep -q '(1 runs' "$OUT/book-instructor/times.txt" ||
            missing+="an unchanged rebuild took more than one pdflatex run: $(cat "$OUT/book-instructor/times.txt")"$'\n'
        if [ -z "$missing" ]; then ok build/smoke; else bad build/smoke "$missing"; fi
    else
        bad build/smoke "$log"
    fi
fi

# ---- caches: what did not change is not computed again ------------------------------------
if selected build/caches; then
    echo "[ RUN      ] build/caches"
    C=$OUT/caches
    rm -rf "$C"
    mkdir -p "$C/bin" "$C/stubs"
    why=""
    # chalk: a stand-in calculator that logs each run
    printf '#!/bin/sh\necho "$*" >>"%s/runs"\nexec "%s/%s/fixtures/fake-chalk" "$@"\n' "$C" "$PWD" "$T" >"$C/bin/chalk"
    chmod +x "$C/bin/chalk"
    live() {
        CHALK=$C/bin/chalk CHALK_CACHE=$C/chalk pandoc -f markdown --lua-filter book/filters/chalk.lua \
            "$T/golden/chalk-format/sample.md" -t native -o "$C/live$1" 2>>"$C/err" || why+="chalk.lua failed (run $1)"$'\n'
        wc -l <"$C/runs"
    }
    n1=$(live 1) n2=$(live 2)
    [ "$n1" -gt 0 ] || why+="the first build ran no chalk"$'\n'
    [ "$n2" = "$n1" ] || why+="an unchanged rebuild ran chalk $((n2 - n1)) more time(s)"$'\n'
    cmp -s "$C/live1" "$C/live2" || why+="the cached numbers differ from the computed ones"$'\n'
    echo "# a new calculator: other bytes" >>"$C/bin/chalk"
    n3=$(live 3)
    [ "$n3" -gt "$n2" ] || why+="a changed calculator was not run again (its old answers were used)"$'\n'
    # plots and diagrams: a second build must not need gnuplot or pdflatex at all
    printf '#!/bin/sh\necho "stub: $0 ran" >&2\nexit 1\n' >"$C/stubs/gnuplot"
    chmod +x "$C/stubs/gnuplot"
    cp "$C/stubs/gnuplot" "$C/stubs/pdflatex"
    cat "$T/golden/plot/sample.md" "$T/golden/diagram/sample.md" >"$C/figs.md"
    sed 's/chalkblue!20/chalkblue!30/' "$C/figs.md" >"$C/figs-changed.md"
    figs() { # figs PATH IN OUT
        PATH=$1 pandoc -f markdown --lua-filter book/filters/plot.lua --lua-filter book/filters/diagram.lua \
            -M build-dir="$C/build" -M cache-dir="$C/cache" "$2" -t native -o "$3" 2>>"$C/err"
    }
    figs "$PATH" "$C/figs.md" "$C/figs1" || why+="the first figure build failed"$'\n'
    figs "$C/stubs:$PATH" "$C/figs.md" "$C/figs2" ||
        why+="an unchanged rebuild ran gnuplot or pdflatex"$'\n'
    cmp -s "$C/figs1" "$C/figs2" || why+="the rebuilt figures differ"$'\n'
    if figs "$C/stubs:$PATH" "$C/figs-changed.md" "$C/figs3"; then
        why+="a changed diagram was not compiled again (a stale drawing was used)"$'\n'
    fi
    if [ -z "$why" ]; then ok build/caches; else bad build/caches "$why$(cat "$C/err")"; fi
fi

# book/build.sh on a chapter with a bad include / a failing chalk command: it must
# fail, name the cause, and leave no PDF behind.
stops() { # stops NAME FILE.md [FILE.md... --] EXPECTED...
    local name=$1 md=("$2")
    shift 2
    if [ "${2:-}" = -- ]; then md+=("$1"); shift 2; fi
    selected "$name" || return 0
    echo "[ RUN      ] $name"
    rm -f "$OUT/stop.pdf"
    local log
    if log=$(book/build.sh student "$OUT/stop.pdf" "${md[@]}" 2>&1); then
        bad "$name" "book/build.sh succeeded on ${md[*]}"
        return
    fi
    local missing="" want
    for want in "$@"; do grep -qF -- "$want" <<<"$log" || missing+="expected: $want"$'\n'; done
    [ -e "$OUT/stop.pdf" ] && missing+="a PDF was written"$'\n'
    if [ -z "$missing" ]; then ok "$name"; else bad "$name" "$missing$log"; fi
}
stops build/stops-on-missing-region "$T/errors/include-missing-region/sample.md" \
    'book/tests/fixtures/solutions/07-demo/demo.c' 'no region "nosuch"' 'nothing written'
stops build/stops-on-long-listing "$T/errors/include-too-long/sample.md" \
    'book/tests/fixtures/solutions/07-demo/long.c, region "one-more": 57 printed lines, more than the 56 a page holds' 'nothing written'
stops build/stops-on-failing-chalk "$T/errors/chalk-command-fails/sample.md" \
    'chalk decode --model no-such-model' 'chalk: error' 'nothing written'
stops build/stops-on-bad-diagram "$T/errors/diagram-bad-tikz/sample.md" \
    'fig:bad: the diagram does not compile' "I do not know the key '/tikz/nosuchkey'" 'nothing written'
stops build/stops-on-notation-clash "$T/stops/notation-clash.md" \
    'symbol N_\text{total} is defined twice' 'notation-dup/01-first.tsv:3' 'notation-dup/02-second.tsv:3' 'nothing written'
stops build/stops-on-unknown-citation "$T/stops/unknown-citation.md" \
    'citation @nosuch-source: no entry in book/references.bib' 'book/tests/stops/unknown-citation.md' 'nothing written'
stops build/stops-on-id-twice-across-files "$T/perfile/one.md" "$T/perfile/dup.md" -- \
    'label sec:one-s is defined twice: book/tests/perfile/one.md and book/tests/perfile/dup.md' 'nothing written'
stops build/stops-on-missing-table-across-files "$T/perfile/one.md" "$T/perfile/missing.md" -- \
    'book/tests/perfile/missing.md: @tbl:nosuch: no such tbl id in the book' 'nothing written'

# ---- each file converted alone: references across files, and one file converted again --
if selected build/per-file; then
    echo "[ RUN      ] build/per-file"
    rm -f "$OUT/perfile.pdf"
    why=""
    pf=("$T/perfile/one.md" "$T/perfile/two.md")
    if log=$(book/build.sh student "$OUT/perfile.pdf" "${pf[@]}" 2>&1); then
        text=$(pdftotext "$OUT/perfile.pdf" - 2>/dev/null)
        for want in 'From the second file: Chapter 1, Section 1.1 and Table 1.1.' 'first term, 1' \
            '[lecture, 0:00]' 'Index'; do
            grep -qF -- "$want" <<<"$(tr '\n' ' ' <<<"$text" | sed 's/  */ /g')" || why+="not in the PDF's text: $want"$'\n'
        done
        # the second file edited: it alone is converted again, and no page moved
        cp "$T/perfile/two.md" "$OUT/two.md"
        echo "One more sentence." >>"$OUT/two.md"
        book/build.sh student "$OUT/perfile.pdf" "$T/perfile/one.md" "$OUT/two.md" >/dev/null 2>&1 ||
            why+="the build after the edit failed"$'\n'
        book/build.sh student "$OUT/perfile.pdf" "$T/perfile/one.md" "$OUT/two.md" >"$OUT/perfile.log" 2>&1
        # (a sentence no earlier run wrote: the fragment store keeps an hour's fragments,
        # so a fixed edit would be found cached by the next make test within the hour)
        nonce="$$x$RANDOM"
        sed -i "s/One more sentence./Two more sentences, run $nonce./" "$OUT/two.md"
        book/build.sh student "$OUT/perfile.pdf" "$T/perfile/one.md" "$OUT/two.md" >"$OUT/perfile.log" 2>&1
        grep -q '(1 of 2 files converted: two ' "$OUT/book-student/times.txt" ||
            why+="an edit of one file converted: $(cat "$OUT/book-student/times.txt")"$'\n'
        grep -q 'book/tests/perfile/one.md: cached' "$OUT/perfile.log" ||
            why+="the unchanged file was not taken from the cache: $(cat "$OUT/perfile.log")"$'\n'
        grep -q '(1 runs' "$OUT/book-student/times.txt" ||
            why+="an edit that moves no page took more than one pdflatex run: $(cat "$OUT/book-student/times.txt")"$'\n'
        pdftotext "$OUT/perfile.pdf" - | tr '\n' ' ' | grep -q "Two more sentences, run $nonce." || why+="the edit is not in the PDF"$'\n'
    else
        why+="$log"$'\n'
    fi
    if [ -z "$why" ]; then ok build/per-file; else bad build/per-file "$why"; fi
fi

# ---- the whole book, both editions (make's own rules) ------------------------------------
if selected build/book; then
    echo "[ RUN      ] build/book"
    if log=$(make -s --no-print-directory build/chalk.pdf build/chalk-instructor.pdf 2>&1); then
        s=$(pdftotext build/chalk.pdf - 2>/dev/null)
        i=$(pdftotext build/chalk-instructor.pdf - 2>/dev/null)
        why=""
        grep -q 'Student edition' <<<"$s" || why+="student title page lacks 'Student edition'"$'\n'
        grep -q 'Instructor edition' <<<"$i" || why+="instructor title page lacks 'Instructor edition'"$'\n'
        grep -q 'Contents' <<<"$s" || why+="no table of contents"$'\n'
        grep -q 'Hardware and model presets' <<<"$s" || why+="no presets appendix"$'\n'
        grep -q 'The book’s symbols' <<<"$s" || why+="no notation appendix"$'\n'
        grep -q 'Answers to the practice problems' <<<"$s" || why+="the student edition has no answers to the practice problems"$'\n'
        if grep -q '^Answer:' <<<"$s"; then why+="the student edition shows a worked answer (Answer: ...)"$'\n'; fi
        grep -q '^Answer:' <<<"$i" || why+="the instructor edition shows no worked answer to a practice problem"$'\n'
        again=$(make -s --no-print-directory book 2>&1)
        grep -q 'already up to date' <<<"$again" || why+="make book on an unchanged book does not say it is up to date: $again"$'\n'
        if grep -q 'Solution to Exercise' <<<"$s"; then why+="the student edition shows a solution"$'\n'; fi
        grep -q 'Solution to Exercise' <<<"$i" || why+="the instructor edition shows no solution"$'\n'
        if grep -q '\\[a-z]\+{' <<<"$s"; then why+="raw TeX in the PDF's text: $(grep -o '\\[a-z]\+{' <<<"$s" | head -3)"$'\n'; fi
        if grep -q '{\.chalk\|{#fig:\|{#eq:\|@fig:\|@sec:\|@eq:\|@tbl:' <<<"$s"; then why+="unprocessed markdown in the PDF"$'\n'; fi
        if [ -z "$why" ]; then ok build/book; else bad build/book "$why"; fi
    else
        bad build/book "$log"
    fi
fi

# ---- the layout of the whole book, both editions (tests/checks/layout.sh) ------------
# Overfull lines and pages, unresolved references, equation numbers alone on their
# line, against what tests/checks/outstanding/layout.txt still lists.
if selected build/layout; then
    echo "[ RUN      ] build/layout"
    why="" found=$OUT/layout.found
    : >"$found"
    for e in student instructor; do
        pdf=build/chalk$([ $e = instructor ] && echo -instructor).pdf
        if [ -f "build/book-$e/chalk.log" ] && [ -f "$pdf" ]; then
            tests/checks/layout.sh "build/book-$e/chalk.log" "$pdf" "$e edition" >>"$found" ||
                why+="tests/checks/layout.sh failed on the $e edition"$'\n'
        else
            why+="no build/book-$e/chalk.log or $pdf: build/book did not build it"$'\n'
        fi
    done
    result=$(tests/checks/outstanding.sh layout "$found")
    why+=$(grep -E '^(new|fixed):' <<<"$result" | sed 's/^fixed: /fixed, delete its line from tests\/checks\/outstanding\/layout.txt: /')
    if [ -z "$why" ]; then ok "build/layout ($(sed -n 's/^outstanding: //p' <<<"$result") outstanding)"; else bad build/layout "$why"; fi
fi

# ---- the web edition ---------------------------------------------------------------------
if selected web/site; then
    echo "[ RUN      ] web/site"
    why=""
    if [ "$web_ready" = 0 ]; then
        why="dvisvgm, node, npm, chromium or the node modules are missing and could not be installed: $(cat "$OUT/web-deps.log" "$OUT/web-tools.log" 2>/dev/null)"
    elif ! log=$(make -s --no-print-directory web 2>&1 && make -s --no-print-directory web EDITION=instructor 2>&1); then
        why="make web failed: $log"
    else
        for ed in web web-instructor; do
            for f in index.html book-index.html preface.html presets.html notation.html answers.html bibliography.html \
                $(cd chapters && ls [0-9][0-9]-*.md | sed 's/\.md$/.html/'); do
                [ -s "build/$ed/$f" ] || why+="build/$ed/$f is missing"$'\n'
            done
        done
        # the student edition gives nothing away; the instructor edition does (so the check can fail)
        student=$(tests/grade/handout-check.sh build/web 2>&1) || why+="the student site leaks: $student"$'\n'
        tests/grade/handout-check.sh build/web-instructor >/dev/null 2>&1 &&
            why+="handout-check.sh finds no reference code in the instructor site: it checks nothing"$'\n'
        # (a solution box, its title, a problem's key, a listing of reference code)
        for pat in 'class="solution"' 'Solution to Exercise' 'data-answer-json' '<p><code>solutions/[^<]*</code>, region '; do
            if grep -qE -- "$pat" build/web/*.html; then why+="the student site holds $pat: $(grep -lE -- "$pat" build/web/*.html | head -3 | tr '\n' ' ')"$'\n'; fi
            grep -qE -- "$pat" build/web-instructor/*.html || why+="the instructor site lacks $pat"$'\n'
        done
        # the hooks the calculator in the page relies on (book/web/README.md)
        for pat in 'class="chalk-live" data-chalk=' '<figure class="chalk-plot" id="fig:' 'data-plot="figures/' \
            'class="card" data-deck="Chalk::' 'class="problem"' 'src="assets/chalk-web.js" defer'; do
            grep -qF -- "$pat" build/web/*.html || why+="no page has $pat"$'\n'
        done
        # every figure of the sources is a figure of the site
        want=$(cat chapters/*.md | grep -cE '^```\{\.(plot|diagram|gantt)')
        got=$(cat build/web/*.html | grep -cE '<figure class="chalk-(plot|diagram)"')
        [ "$want" = "$got" ] || why+="the chapters have $want plot, diagram and gantt blocks; the site $got figures"$'\n'
    fi
    if [ -z "$why" ]; then ok web/site; else bad web/site "$why"; fi
fi
# The numbers of figures, tables, equations and sections: the web's (crossref.lua's
# xref-defs) against the PDF's (LaTeX's own, in the .aux of the build/book test).
if selected web/numbers; then
    echo "[ RUN      ] web/numbers"
    why="" n=0
    for ed in student instructor; do
        aux=build/book-$ed/chalk.aux list=build/web-build-$ed/fragments.tsv
        if [ ! -f "$aux" ] || [ ! -f "$list" ]; then why+="$aux or $list is missing (build/book and web/site first)"$'\n'; continue; fi
        sed -n 's/^\\newlabel{\([^}]*\)}{{\([^}]*\)}.*/\1\t\2/p' "$aux" | sort -u >"$OUT/pdf-numbers-$ed"
        cut -f2 "$list" | while read -r d; do cat "$d/xref-defs" 2>/dev/null; done |
            awk -F'\t' '$3 != "" { print $1 "\t" $3 }' | sort -u >"$OUT/web-numbers-$ed"
        n=$(wc -l <"$OUT/web-numbers-$ed")
        [ "$n" -gt 100 ] || why+="$ed: only $n numbered items in the web edition"$'\n'
        differ=$(join -t $'\t' "$OUT/web-numbers-$ed" "$OUT/pdf-numbers-$ed" | awk -F'\t' '$2 != $3 { print "  " $1 ": web " $2 ", PDF " $3 }')
        [ -z "$differ" ] || why+="$ed: numbered differently:"$'\n'"$differ"$'\n'
        missing=$(grep -E '^(fig|tbl|eq):' "$OUT/pdf-numbers-$ed" | awk -F'\t' '$2 ~ /[0-9A-Z]/' | cut -f1 |
            comm -23 - <(cut -f1 "$OUT/web-numbers-$ed"))
        [ -z "$missing" ] || why+="$ed: numbered in the PDF, not in the web edition: $(echo $missing)"$'\n'
    done
    if [ -z "$why" ]; then ok web/numbers; else bad web/numbers "$why"; fi
fi
# A TeX error KaTeX cannot typeset stops the web build, naming the file and the equation.
if selected web/stops-on-bad-equation; then
    echo "[ RUN      ] web/stops-on-bad-equation"
    rm -rf "$OUT/web-stop"
    if [ "$web_ready" = 0 ]; then
        bad web/stops-on-bad-equation "the web tools are missing"
    elif log=$(book/build.sh --web student "$OUT/web-stop" "$T/stops/bad-equation.md" 2>&1); then
        bad web/stops-on-bad-equation "book/build.sh --web succeeded on $T/stops/bad-equation.md"
    else
        why=""
        for want in 'book/tests/stops/bad-equation.md' '\frac{1}{\nosuchcommand}' 'nothing written'; do
            grep -qF -- "$want" <<<"$log" || why+="expected: $want"$'\n'
        done
        [ ! -e "$OUT/web-stop" ] || why+="a site was written"$'\n'
        if [ -z "$why" ]; then ok web/stops-on-bad-equation; else bad web/stops-on-bad-equation "$why$log"; fi
    fi
fi
# Every page of both sites in headless chromium (book/web/test.js says what it checks).
if selected web/browser; then
    for ed in web web-instructor; do
        name=web/browser${ed#web}
        echo "[ RUN      ] $name"
        shots=build/web-shots${ed#web}
        [ "$ed" = web ] || shots=build/web-shots/instructor
        if [ "$web_ready" = 0 ] || [ ! -f "build/$ed/index.html" ]; then bad "$name" "no build/$ed (web/site first)"; continue; fi
        rm -rf "$shots"
        # (the instructor site: the top of each page only; the student site's shots show the rest)
        if log=$(SHOTS=$([ "$ed" = web ] && echo all || echo top) NODE_PATH=build/web-tools/node_modules \
            node book/web/test.js "build/$ed" "$shots" 2>&1); then
            ok "$name"
            tail -1 <<<"$log" | sed 's/^/    /'
        else
            bad "$name" "$log"
        fi
    done
fi

total=$((passed + failed))
echo "[==========] $total test(s) run."
echo "[  PASSED  ] $passed test(s)."
if [ "$failed" -gt 0 ]; then
    echo "[  FAILED  ] $failed test(s), listed below:"
    for f in "${failures[@]}"; do echo "[  FAILED  ] $f"; done
    exit 1
fi
