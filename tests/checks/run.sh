#!/usr/bin/env bash
# run.sh -- checks over the book's sources and the chapters' contracts (make test, phase 6).
#
#   tests/checks/run.sh [CHAPTER...]     (default: every chapters/NN-topic.md)
#
# Each check reads the sources and prints its findings, "FILE:LINE: message":
#   notation   one symbol, one meaning: every symbol of the chapters' maths is in
#              book/notation/*.tsv, once (notation.lua, texmath.lua)
#   contracts  contract and stub comments keep their lines: no formula run on
#              into the prose, no banner split (contract-lines.awk)
#   refs       every §N.M (Title) in contracts, stubs, hints, mistakes, tests and
#              references names a section of the book with its title (refs.lua)
#   cards      every review card's front asks one question (cards.lua); its
#              "suspect" lines (two things in one question? trivia?) are written to
#              build/checks/cards-suspect.txt for a reader to judge, not counted
#   sizes      no source file of ours past 800 lines (sizes.sh; vendored code, a
#              directory with its own LICENSE, is not ours to split)
#   parens     no "((" around an equation reference, none in the text (parens.lua)
#   exnums     no exercise number typed into the prose ("Exercise 2.4"): the box
#              numbers itself from exercises.txt (exnums.awk)
#   expected   every tests/NN-topic/expected.h is what its derivation,
#              tests/NN-topic/derive/expected.c, prints; a derivation reads only the C
#              library; every value is used by a public test (tests/derive/expected.sh)
#   layout     (its fixture only: book/tests/run.sh runs it on the built book, both
#              editions) overfull lines and pages, unresolved references, "??",
#              equation numbers alone on their line (layout.sh)
#   problems   every practice-problem template lands in its regime: drawn with the
#              seeds regime-1 ... regime-200 (book/filters/problems.lua,
#              problems=regime), no seed's answer is degenerate (0, 1 for a whole
#              number, a drawn number itself) unless the template says
#              degenerate-ok:, and every seed finds a draw that meets its require:
#              conditions; its notes (attempts, the first degenerate draw) go to
#              build/checks/problems-note.txt. The chapters run side by side;
#              chalk's answers are kept in build/cache/chalk between runs
# A finding fails the check unless tests/checks/outstanding/CHECK.txt lists it (the
# same line without its line number: "FILE: message"): the list of what the
# chapters must still clear, so that a check can be strict the day it is added
# without hiding anything. A listed finding that no longer occurs fails too, until
# its line is deleted: the lists only shrink. Each check says how many of its
# findings are outstanding, per chapter.
# Every check is also run on its fixture, tests/checks/fixtures/CHECK/, with
# planted defects: its findings must be exactly the fixture's `expect` file, so a
# check that stops catching a defect (or starts flagging sound text) fails.
# Prints "ok - ..." or "FAIL - ..." per test and ends with "checks: N passed, N
# failed". Needs pandoc (tests/deps.sh book) and awk.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

C=tests/checks
O=$C/outstanding
mkdir -p build/checks
W=$(mktemp -d "${TMPDIR:-/tmp}/chalk-checks.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
bad() { echo "FAIL - $1"; failed=$((failed + 1)); }

all=()
for f in chapters/[0-9][0-9]-*.md; do all+=("$(basename "$f" .md)"); done
chosen=("$@")
[ ${#chosen[@]} -gt 0 ] || chosen=("${all[@]}")
md=()
for c in "${all[@]}"; do md+=("chapters/$c.md"); done

# ---- the checks ---------------------------------------------------------------------
# Each prints findings for the whole tree (a check needs every chapter to number
# chapters and sections); mine() keeps the chosen chapters'.

check_notation() { pandoc "${md[@]}" -L $C/notation.lua -t native -o /dev/null; }
check_contracts() {
    local c files=()
    for c in "${chosen[@]}"; do files+=(exercises/"$c"/*.h exercises/"$c"/*.c); done
    awk -f $C/contract-lines.awk "${files[@]}"
}
check_refs() {
    pandoc book/preface.md "${md[@]}" book/appendix.md -L book/filters/cards.lua -L $C/refs.lua \
        -M refs-chapters="${chosen[*]}" -t native -o /dev/null
}
check_cards() { pandoc "${md[@]}" -L $C/cards.lua -t native -o /dev/null; }
check_sizes() { $C/sizes.sh; }
check_parens() { pandoc book/preface.md "${md[@]}" book/appendix.md -L $C/parens.lua -t native -o /dev/null; }
check_exnums() { awk -f $C/exnums.awk book/preface.md "${md[@]}" book/appendix.md; }
check_expected() { tests/derive/expected.sh check; }
# one pandoc per chosen chapter, as many at once as there are cores
check_problems() {
    local c
    for c in "${chosen[@]}"; do echo "chapters/$c.md"; done |
        CHALK_CACHE=${CHALK_CACHE-build/cache/chalk} xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} \
            pandoc {} -L book/filters/problems.lua -M problems=regime -M problems-seeds="${SEEDS:-200}" \
            -t native -o /dev/null
}

# A finding's chapter: the NN-topic in its path, or NN of book/notation/NN-*.tsv.
chapter_of() {
    local c
    for c in "${all[@]}"; do
        case $1 in *"/$c/"* | *"/$c."* | *"$c.tsv"*) echo "$c"; return ;; esac
    done
    echo book
}
mine() { # keeps the lines of chosen chapters (and of the book's own files)
    local line c
    while IFS= read -r line; do
        c=$(chapter_of "${line%%:*}")
        if [ "$c" = book ]; then echo "$line"; continue; fi
        case " ${chosen[*]} " in *" $c "*) echo "$line" ;; esac
    done
}

# real NAME: the check on the sources, against tests/checks/outstanding/NAME.txt
# (tests/checks/outstanding.sh says how).
real() {
    local name=$1 list=$O/$1.txt
    if ! "check_$name" >"$W/$name.raw" 2>"$W/$name.err"; then
        bad "$name: the check itself failed: $(head -3 "$W/$name.err")"
        return
    fi
    # the notes a reader judges, kept apart from the findings
    local notes=""
    case $name in cards) notes=suspect ;; problems) notes=note ;; esac
    if [ -n "$notes" ]; then
        grep "^$notes: " "$W/$name.raw" | sed "s/^$notes: //" >"build/checks/$name-$notes.txt"
        grep -v "^$notes: " "$W/$name.raw" >"$W/$name.raw2"
        mv "$W/$name.raw2" "$W/$name.raw"
    fi
    mine <"$W/$name.raw" | sort -u >"$W/$name.found"
    local out status summary
    out=$($C/outstanding.sh "$name" "$W/$name.found" "${chosen[@]}")
    status=$?
    summary=$(sed -n 's/^outstanding: //p' <<<"$out")
    while IFS= read -r line; do
        case $line in
        new:*) echo "FAIL - $name: ${line#new: }"; failed=$((failed + 1)) ;;
        fixed:*) bad "$name: fixed, so delete its line from $list: ${line#fixed: }" ;;
        esac
    done <<<"$out"
    if [ "$status" -eq 0 ]; then
        if [ "${summary%% *}" = 0 ]; then ok "$name: no findings"
        else ok "$name: no findings but the ${summary%% *} outstanding in $list ${summary#* }"; fi
    elif [ "$status" -ne 1 ]; then
        bad "$name: tests/checks/outstanding.sh failed: $out"
    fi
}

# fixture NAME COMMAND...: the check on its fixture gives exactly the fixture's expect.
fixture() {
    local name=$1
    shift
    local dir=$C/fixtures/$name
    if ! "$@" >"$W/fx-$name.out" 2>"$W/fx-$name.err"; then
        bad "$name catches its planted defects: the check failed: $(head -3 "$W/fx-$name.err")"
        return
    fi
    sort "$W/fx-$name.out" >"$W/fx-$name.got"
    sort "$dir/expect" >"$W/fx-$name.want"
    if cmp -s "$W/fx-$name.got" "$W/fx-$name.want"; then
        ok "$name catches its planted defects ($(wc -l <"$W/fx-$name.want") in $dir) and nothing else"
    else
        bad "$name catches its planted defects ($dir/expect; < expected, > found):"
        diff "$W/fx-$name.want" "$W/fx-$name.got" | grep '^[<>]' | sed 's/^/    /'
    fi
}

F=$C/fixtures
fixture notation pandoc $F/notation/01-first.md $F/notation/02-second.md -L $C/notation.lua \
    -M notation-dir=$F/notation/tables -M notation-allow=$F/notation/allow.txt -t native -o /dev/null
fixture contracts awk -f $C/contract-lines.awk $F/contracts/demo.h $F/contracts/demo.c
fixture refs sh -c "cd $F/refs && pandoc chapters/01-demo.md chapters/02-other.md \
    -L ../../../../book/filters/cards.lua -L ../../refs.lua -t native -o /dev/null"
fixture cards pandoc $F/cards/01-cards.md -L $C/cards.lua -t native -o /dev/null
fixture parens pandoc $F/parens/01-parens.md -L $C/parens.lua -t native -o /dev/null
fixture exnums awk -f $C/exnums.awk $F/exnums/01-exnums.md
fixture expected tests/derive/expected.sh check $F/expected
fixture problems sh -c "CHALK_CACHE=\${CHALK_CACHE-build/cache/chalk} pandoc $F/problems/01-problems.md \
    -L book/filters/problems.lua -M problems=regime -M problems-seeds=20 -t native -o /dev/null | grep -v '^note: '"

# sizes.sh on a tree made here (a fixture of 801 lines would be a finding of the real
# check): 800 lines is allowed, 801 is not, in any source kind; vendored code, build/,
# and text that is not source are left alone
sizes_fixture() {
    local d=$W/sizes k
    rm -rf "$d"
    mkdir -p "$d/sub" "$d/vendor" "$d/build"
    lines() { seq "$1" | sed 's/^/-- /'; }
    lines 800 >"$d/a.c"
    lines 801 >"$d/b.lua"
    lines 900 >"$d/sub/Makefile"
    lines 900 >"$d/vendor/big.c"
    : >"$d/vendor/LICENSE"
    lines 900 >"$d/build/gen.c"
    lines 900 >"$d/notes.txt"
    $C/sizes.sh "$d"
}
fixture sizes sizes_fixture

# layout.sh reads a built book; its fixture is a small LaTeX file with planted
# defects, compiled here (the book itself is checked in book/tests/run.sh, phase 8)
layout_fixture() {
    cp $F/layout/layout.tex "$W/layout.tex"
    (cd "$W" && pdflatex -interaction=nonstopmode layout.tex && pdflatex -interaction=nonstopmode layout.tex) >/dev/null 2>&1
    $C/layout.sh "$W/layout.log" "$W/layout.pdf" fixture
}
fixture layout layout_fixture

for name in notation contracts refs cards parens exnums expected problems sizes; do real "$name"; done
echo "note - card suspects (two things in one question? trivia?), for a reader to judge:" \
    "$(wc -l <build/checks/cards-suspect.txt) in build/checks/cards-suspect.txt"
echo "note - each template's draws (attempts, the first degenerate one): build/checks/problems-note.txt"

echo "checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
