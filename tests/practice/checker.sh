#!/usr/bin/env bash
# checker.sh -- the sources of a calculator without chapters, for the student handout.
#
#   tests/practice/checker.sh DEST
#
# Copies into DEST the calculator's framework: every solutions/chalk/*.c and *.h that
# is not a chapter's (not NN-topic*), that is the command line, the presets (lib/
# holds their numbers) and `chalk check-answers`, and none of the chapters' reference
# math. Built alone (the handout's `make check-answers` does, with lib/), it is a
# `chalk` with list, show and check-answers: a reader grades the answers to a problem
# set with the course's own checker, and no chapter command is there to compute them.
# When main.c takes its chapter table from the build (-DCHALK_CHAPTERS, absent: no
# chapters) nothing more is needed; otherwise DEST/chapters.c is written, an empty
# table. Stops, naming it, when a framework file calls a chapter's code (it would not
# link without the chapters). Run from anywhere; prints the files it copied.
set -euo pipefail
dest=${1:?usage: tests/practice/checker.sh DEST}
cd "$(dirname "$0")/../.."
mkdir -p "$dest"
files=()
for f in solutions/chalk/*.c solutions/chalk/*.h; do
    case $(basename "$f") in [0-9][0-9]-*) continue ;; esac
    files+=("$f")
done
[ ${#files[@]} -gt 0 ] || { echo "checker: no framework files in solutions/chalk/" >&2; exit 1; }
# a chapter's symbol in the framework would need the chapters to link
chapters=$(sed -n 's/^const chalk_chapter \(chalk_chapter_[a-z0-9_]*\) *=.*/\1/p' solutions/chalk/[0-9][0-9]-*.c | sort -u)
for sym in $chapters; do
    if grep -lw "$sym" "${files[@]}" >/dev/null 2>&1; then
        echo "checker: $(grep -lw "$sym" "${files[@]}" | head -1) names $sym: the framework must not depend on a chapter" >&2
        exit 1
    fi
done
cp "${files[@]}" "$dest/"
if ! grep -q 'CHALK_CHAPTERS' "$dest/main.c" 2>/dev/null && ! grep -q 'chalk_chapters\[\] *=' "$dest"/*.c; then
    printf '%s\n' '/* chapters.c -- written by tests/practice/checker.sh: no chapters, the shared commands */' \
        '#include "chalk.h"' 'const chalk_chapter *const chalk_chapters[] = {NULL};' >"$dest/chapters.c"
fi
ls "$dest"
