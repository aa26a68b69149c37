#!/usr/bin/env bash
# bench-class.sh -- how fast `make grade-all` grades a class: a generated class of
# CLASS submissions of every chapter, graded by tests/grade/grade-all.sh as an
# instructor runs it (its own cache, built once for the class, GRADE_JOBS at a
# time), in a scratch copy of the tree (your build/ and exercises/ are left alone).
# Prints the submissions per minute and the time for the issue's class (300 in
# under 30 minutes on 2 cores), then checks the gradebook: the honest submissions
# full marks, the others less.
#
#   tests/grade/bench-class.sh        CLASS=n      submissions (default 20)
#                                     GRADE_JOBS=n gradings at once (default: cores)
# The class, in turns of five: three honest (the reference of every chapter), one
# half done (the reference in chapters 1, 3, 5, the stubs elsewhere), one hostile
# (the reference elsewhere, chapter 1 made over by a fixture of
# tests/grade/fixtures/: forkbomb, exit-ok and memory in turn: refused by the
# object check, or run until the address-space limit stops it).
# Figures depend on the machine and its load: the load average is printed first.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
class=${CLASS:-20}
case $class in '' | *[!0-9]* | 0*) echo "bench-class: CLASS must be a whole number over 0, not '$class'" >&2; exit 2 ;; esac

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tree=$scratch/tree
mkdir -p "$tree"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -co --exclude-standard
else
    find . -type f -not -path './build/*' -not -path './.git/*' | sed 's|^\./||'
fi | grep -v '/\.backup/' | tar -cf - -T - | tar -xf - -C "$tree"
cd "$tree" || exit 2
. tests/loop/lib.sh
chapters=$(loop_chapters)
fixtures=(forkbomb exit-ok memory)

# put CH FROM DEST: chapter CH's .c files from FROM (solutions or exercises) into
# submission DEST
put() {
    mkdir -p "$3/exercises/$1"
    cp "$2/$1"/*.c "$3/exercises/$1/"
}
# hostile FIXTURE DEST: chapter 1's stub with the fixture's functions spliced in
# (as test_grade.sh builds its attacks)
hostile() {
    local fx=tests/grade/fixtures/$1.c dest=$2/exercises/01-batching/batching.c fns
    fns=$(sed -n 's/^ \* how: splice //p' "$fx")
    cp exercises/01-batching/batching.c "$scratch/stub.c"
    loop_splice "$scratch/stub.c" "$fx" "$fns" >"$scratch/spliced.c" || return 1
    loop_c_functions "$fx" | awk -F'\t' -v fns=" $fns " 'index(fns, " " $1 " ") { print $4, $3 }' >"$scratch/cut"
    { echo '#include "batching.h"'
      awk 'BEGIN { while ((getline l < "'"$scratch/cut"'") > 0) { split(l, r, " "); from[++n] = r[1]; to[n] = r[2] } }
           { for (i = 1; i <= n; i++) if (FNR >= from[i] && FNR <= to[i]) next; print }' "$fx"
      cat "$scratch/spliced.c"; } >"$dest"
}

mkdir -m 700 "$scratch/class"
honest=0 half=0 bad=0
for i in $(seq 1 "$class"); do
    s=$scratch/class/$(printf 'student%03d' "$i")
    case $((i % 5)) in
    1 | 2 | 3)
        for c in $chapters; do put "$c" solutions "$s"; done
        honest=$((honest + 1)) ;;
    4)
        k=0
        for c in $chapters; do
            k=$((k + 1))
            if [ $((k % 2)) = 1 ]; then put "$c" solutions "$s"; else put "$c" exercises "$s"; fi
        done
        half=$((half + 1)) ;;
    0)
        for c in $chapters; do put "$c" solutions "$s"; done
        hostile "${fixtures[$((bad % ${#fixtures[@]}))]}" "$s" || { echo "bench-class: cannot build a hostile submission" >&2; exit 2; }
        bad=$((bad + 1)) ;;
    esac
done

jobs=${GRADE_JOBS:-$(nproc)}
echo "bench: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) (other work slows every figure)"
# wall seconds, and the CPU seconds of grade-all and all it started (user + system)
TIMEFORMAT='%R %U %S'
{ time OUT=$scratch/book.csv GRADE_JOBS=$jobs tests/grade/grade-all.sh "$scratch/class" $chapters \
    >"$scratch/grade-all.log" 2>&1; } 2>"$scratch/time"
rc=$?
if [ $rc != 0 ]; then
    echo "bench-class: grade-all failed (exit $rc): $(tail -1 "$scratch/grade-all.log")" >&2
    exit 1
fi
read -r secs user sys <"$scratch/time"
awk -v n="$class" -v t="$secs" -v cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" -v j="$jobs" \
    -v c="$(echo $chapters | wc -w)" -v h="$honest" -v f="$half" -v b="$bad" 'BEGIN {
    printf "grade-all: %d submissions of %d chapters (%d honest, %d half done, %d hostile), %d at a time: %.1f s, %.1f submissions per minute; 300 in %.1f min (goal < 30 min on 2 cores)\n",
        n, c, h, f, b, j, t, 60 * n / t, 300 * t / n / 60
    printf "  CPU: %.1f s a submission (building the tests once included): 300 on 2 idle cores in about %.1f min\n",
        cpu / n, 300 * cpu / n / 2 / 60 }'
# the gradebook: full marks for the honest ones, less for the others
full=$(awk -F, '$1 == "max" { print $(NF - 1) }' "$scratch/book.csv")
wrong=$(awk -F, -v full="$full" '$1 == "student" {
        gsub(/"/, "", $2); t = $(NF - 1)
        honest = ($2 ~ /student[0-9]*/) && (substr($2, 8) % 5 >= 1 && substr($2, 8) % 5 <= 3)
        if (honest ? t != full : t >= full) print $2 ": " t }' "$scratch/book.csv" | head -3)
if [ -n "$wrong" ] || [ -z "$full" ]; then
    echo "bench-class: the gradebook is wrong (full marks ${full:-none}): $wrong" >&2
    exit 1
fi
echo "  (the gradebook: the honest $full of $full, the half done and hostile less)"
