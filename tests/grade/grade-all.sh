#!/usr/bin/env bash
# grade-all.sh -- the body of `make grade-all DIR=submissions/`: grades every
# submission in DIR (each subdirectory or tarball is one student, named by it) and
# writes a CSV gradebook: student, points per chapter, total, note. Its second
# row, "max", holds the points possible. Each student's Gradescope results.json
# goes to build/grade/all/STUDENT/results.json.
#
#   tests/grade/grade-all.sh DIR [CHAPTER...]     OUT=gradebook path
#                                                 (default build/grade/gradebook.csv)
# A chapter a student did not submit scores 0; a submission grade.sh rejects gets
# an empty row with the reason in "note".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/loop/lib.sh

DIR=${1:-}
[ $# -gt 0 ] && shift
OUT=${OUT:-build/grade/gradebook.csv}
die() {
    echo "grade-all: $*" >&2
    exit 2
}
[ -n "$DIR" ] || die "say where the submissions are: make grade-all DIR=submissions/"
[ -d "$DIR" ] || die "$DIR is not a directory"
[ $# -gt 0 ] || set -- $(loop_chapters)

csv() { # one CSV field, quoted when it needs to be
    case $1 in *[,\"]* | *$'\n'*) printf '"%s"' "${1//\"/\"\"}" ;; *) printf '%s' "$1" ;; esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$OUT")"
{
    printf 'student'
    for ch in "$@"; do printf ',%s' "$ch"; done
    printf ',total,note\n'
} >"$tmp/book.csv"
n=0 bad=0 maxrow=""
for entry in "$DIR"/*; do
    [ -e "$entry" ] || continue
    name=$(basename "$entry")
    case $name in
    *.tar.gz | *.tgz | *.tar | *.tar.xz | *.tar.bz2) student=${name%.tar.*} student=${student%.tgz} student=${student%.tar} ;;
    *) if [ -d "$entry" ]; then student=$name; else
        echo "grade-all: skipping $entry (not a directory or a tarball)" >&2
        continue
    fi ;;
    esac
    n=$((n + 1))
    : >"$tmp/scores"
    if err=$(SCORES=$tmp/scores ALLOW_MISSING=1 OUT="build/grade/all/$student/results.json" \
        tests/grade/grade.sh "$entry" "$@" 2>&1 >/dev/null); then
        row=$(csv "$student") total=0 maxtotal=0 mrow=max
        for ch in "$@"; do
            s=$(awk -F'\t' -v c="$ch" '$1 == c { print $2 }' "$tmp/scores")
            m=$(awk -F'\t' -v c="$ch" '$1 == c { print $3 }' "$tmp/scores")
            row="$row,${s:-0}" mrow="$mrow,${m:-0}"
            total=$(awk -v a="$total" -v b="${s:-0}" 'BEGIN { print a + b }')
            maxtotal=$(awk -v a="$maxtotal" -v b="${m:-0}" 'BEGIN { print a + b }')
        done
        printf '%s,%s,\n' "$row" "$total" >>"$tmp/rows"
        maxrow="$mrow,$maxtotal,"
    else
        bad=$((bad + 1))
        row=$(csv "$student")
        for ch in "$@"; do row="$row,"; done
        printf '%s,,%s\n' "$row" "$(csv "$(printf '%s' "$err" | tail -1)")" >>"$tmp/rows"
    fi
done
[ $n -gt 0 ] || die "no submissions in $DIR (expected one directory or tarball per student)"
{
    cat "$tmp/book.csv"
    [ -z "$maxrow" ] || echo "$maxrow"
    sort "$tmp/rows"
} >"$OUT"
echo "grade-all: $n submissions graded ($bad rejected); gradebook $OUT"
