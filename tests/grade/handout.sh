#!/usr/bin/env bash
# handout.sh -- the body of `make handout`: builds build/chalk-handout.tar.gz, the
# student's copy of the course, and proves it gives nothing away.
#
# In it (under chalk/): exercises/ (the stubs), tests/ (the public tests and their
# expected values, tests/NN-topic/expected.h, the fixtures its test files share
# (fixtures.h), each chapter's hints.txt for make hint, the reader's-loop scripts but
# not their own test, deps.sh), tests/stubs/ (pristine
# stubs for make reset),
# lib/, chapters/ (with every ::: {.solution} block removed), book/ (without its own
# tests: their golden files include instructor-edition output; nor book/slides/, the
# instructor's lecture decks, which may show solutions), the student
# edition of the book as chalk.pdf, the review cards as flashcards.tsv (when the
# book build makes them), the values of each chapter's catalogued mistakes
# (tests/NN-topic/mistakes.b64, for make check to name them), and its own Makefile
# and README (tests/grade/handout.mk, handout-README.md), practice problem sets with
# their keys (practice/) and the calculator's framework without its chapters
# (tools/chalk/: list, show and check-answers, to grade a practice set).
# Not in it: solutions/, the chapters' calculator commands, hidden tests, points,
# the derivations of the expected values (tests/NN-topic/derive/), the grader.
#
#   BOOK=0   do not (re)build the book: take build/chalk.pdf as it is, if present
#   NO_PDF=1 make the handout without the PDF (says so)
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/loop/lib.sh
die() {
    echo "handout: $*" >&2
    exit 2
}

out=build/chalk-handout.tar.gz
stage=build/handout
rm -rf "$stage"
mkdir -p "$stage/chalk"
dest=$stage/chalk

# The files of the tree: git's list (tracked and new, not ignored), else find.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -co --exclude-standard >"$stage/files"
else
    find . -type f -not -path './build/*' -not -path './.git/*' | sed 's|^\./||' >"$stage/files"
fi
grep -E '^(exercises/[0-9][0-9]-[^/]+/[^/]+|tests/[0-9][0-9]-[^/]+/([^/]+\.c|expected\.h|fixtures\.h|hints\.txt)|tests/test_util\.h|tests/check\.sh|tests/deps\.sh|tests/loop/[^/]+|lib/.+|chapters/.+|book/.+|\.clang-format)$' "$stage/files" |
    grep -v -e '/\.backup/' -e '^book/tests/' -e '^book/slides/' -e '^tests/loop/test_loop\.sh$' >"$stage/keep"
while IFS= read -r f; do
    [ -f "$f" ] || continue
    mkdir -p "$dest/$(dirname "$f")"
    cp -p "$f" "$dest/$f"
done <"$stage/keep"

# The hints, not in plain sight: each chapter's hints.txt ships base64-encoded as
# hints.b64, which make hint decodes one hint at a time (tests/loop/lib.sh,
# loop_hints_text); reading the handout's files shows none of them.
for h in "$dest"/tests/[0-9][0-9]-*/hints.txt; do
    [ -f "$h" ] || continue
    base64 "$h" >"${h%.txt}.b64" && rm -f "$h" || die "cannot encode $h"
done

# Instructor answers out of the chapters: every ::: {.solution} fenced div, and the
# worked steps of every practice-problem template (a ```{.problem} block's steps:
# key and its indented items: the worked keys stay in the instructor edition; the
# handout's practice sets print answers only).
for md in "$dest"/chapters/*.md; do
    [ -f "$md" ] || continue
    awk '
        skip == 0 && /^:::+[ \t]*(\{[^}]*\.solution[^}]*\}|solution[ \t]*$)/ { skip = 1; next }
        skip > 0 && /^:::+[ \t]*[^: \t]/ { skip++; next }
        skip > 0 && /^:::+[ \t]*$/ { skip--; next }
        skip > 0 { next }
        !inprob && /^```+[ \t]*\{[^}]*\.problem[ \t}]/ { inprob = 1; print; next }
        inprob && /^```+[ \t]*$/ { inprob = 0; steps = 0; print; next }
        inprob && /^steps:/ { steps = 1; next }
        inprob && steps && /^[ \t]/ { next }
        inprob && steps { steps = 0 }
        { print }
    ' "$md" >"$md.tmp" && mv "$md.tmp" "$md"
done

# The values of each chapter's catalogued mistakes, so that the handout's make check
# can name one (tests/check.sh reads tests/NN-topic/mistakes.b64, the table base64-encoded): test, value and the
# one-line description, never the catalogue itself (its lines quote the reference).
for cat in tests/[0-9][0-9]-*/mistakes.txt; do
    [ -f "$cat" ] || continue
    ch=$(basename "$(dirname "$cat")")
    make -s --no-print-directory "build/mistakes/$ch.tsv" >"$stage/mistakes-$ch.log" 2>&1 ||
        die "the values of $ch's mistakes could not be built (see $stage/mistakes-$ch.log)"
    base64 "build/mistakes/$ch.tsv" >"$dest/tests/$ch/mistakes.b64" || die "cannot encode $ch's mistakes"
done

# Pristine stubs for make reset (a handout has no git history).
for d in "$dest"/exercises/[0-9][0-9]-*/; do
    ch=$(basename "$d")
    mkdir -p "$dest/tests/stubs/$ch"
    cp -p "$d"/*.c "$dest/tests/stubs/$ch/"
done
cp tests/grade/handout.mk "$dest/Makefile"
cp tests/grade/handout-README.md "$dest/README.md"

# The student edition of the book.
pdf=""
if [ "${NO_PDF:-0}" = 1 ]; then
    echo "handout: NO_PDF=1: no chalk.pdf in this handout"
else
    if [ "${BOOK:-1}" != 0 ] && grep -q '^book:' Makefile; then
        make -s --no-print-directory book EDITION=student >"$stage/book.log" 2>&1 ||
            die "make book failed (see $stage/book.log); NO_PDF=1 makes a handout without the book"
    fi
    if [ -f build/chalk.pdf ]; then
        cp build/chalk.pdf "$dest/chalk.pdf"
        pdf=" and chalk.pdf"
    elif [ "${BOOK:-1}" = 0 ]; then
        echo "handout: BOOK=0 and no build/chalk.pdf: no chalk.pdf in this handout"
    else
        die "no build/chalk.pdf after make book; NO_PDF=1 makes a handout without the book"
    fi
fi

# The review cards for Anki, when the book build made them (make flashcards).
if [ "${BOOK:-1}" != 0 ] && [ "${NO_PDF:-0}" != 1 ] && grep -q '^flashcards:' Makefile; then
    make -s --no-print-directory flashcards >>"$stage/book.log" 2>&1 || true
fi
[ ! -f build/flashcards.tsv ] || cp build/flashcards.tsv "$dest/flashcards.tsv"

# Practice a self-learner can check (book/problems.md): problem sets drawn by the
# calculator, each its questions (practice/problems-SEED.pdf) and its key
# (practice/answers-SEED.json: the answers, not their worked steps), and the
# calculator without its chapters (tools/chalk/, tests/practice/checker.sh), which the
# handout's `make check-answers` builds to grade an answers file against a key. The
# book's own problems have their answers in chalk.pdf, Appendix C.
#   PRACTICE_SEEDS  the sets' seeds (default: practice-1 practice-2 practice-3)
practice=""
if [ "${NO_PDF:-0}" != 1 ]; then
    make -s --no-print-directory build/chalk >"$stage/practice.log" 2>&1 ||
        die "build/chalk, which draws the practice problems, did not build (see $stage/practice.log)"
    mkdir -p "$dest/practice"
    for seed in ${PRACTICE_SEEDS:-practice-1 practice-2 practice-3}; do
        OUT="$stage/practice" book/problems.sh "$seed" >>"$stage/practice.log" 2>&1 ||
            die "the practice problems of seed $seed were not drawn (see $stage/practice.log)"
        cp "$stage/practice/problems-$seed.pdf" "$stage/practice/answers-$seed.json" "$dest/practice/"
        practice+=" $seed"
    done
fi
tests/practice/checker.sh "$dest/tools/chalk" >/dev/null || die "the answer checker's sources were not copied"

tests/grade/handout-check.sh "$dest" >"$stage/check.log" || {
    cat "$stage/check.log" >&2
    die "the handout would give answers away; not written"
}
tar -czf "$out" -C "$stage" chalk || die "tar failed"
echo "handout: $out (${pdf# and }${pdf:+, }${practice:+practice sets$practice, }$(tail -1 "$stage/check.log" | sed 's/^handout-check: //'))"
