#!/usr/bin/env bash
# grade-all.sh -- the body of `make grade-all DIR=submissions/`: grades every
# submission in DIR (each subdirectory or tarball is one student, named by it) with
# grade.sh and writes a CSV gradebook.
#
#   tests/grade/grade-all.sh DIR [CHAPTER...]     OUT=gradebook path
#                                                 (default build/grade/gradebook.csv)
# The gradebook (RFC 4180 CSV, one line per row):
#   kind,student,NN-topic...,total,note
#   max,,60,60,points possible          <- the first column tells it from a student
#   student,alice,60,60,
# A student's name is the entry's name without its tarball extension. Fields with a
# comma or a quote are quoted; control characters (a newline...) are written as
# \n, \t or \xHH, so a row is always one line; a name starting with = + - @ (or a
# tab or carriage return) gets a leading ' so that no spreadsheet runs it as a
# formula. Two entries with one name (alice/ and alice.tar.gz) are both graded and
# both flagged DUPLICATE in the note, never merged. A chapter a student did not
# submit scores 0; a refused submission scores 0 with the reason in the note.
# Each entry's results.json goes to build/grade/all/ENTRY/results.json.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/loop/lib.sh
. tests/grade/intake.sh

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

# One CSV field: control characters escaped, formulas defused, quoted when needed.
csv() {
    local s
    s=$(printf '%s' "$1" | LC_ALL=C awk 'BEGIN { RS = "\001\002"; ORS = "" }
        {
            out = ""
            for (i = 1; i <= length($0); i++) {
                c = substr($0, i, 1)
                if (c == "\n") out = out "\\n"
                else if (c == "\t") out = out "\\t"
                else if (c == "\r") out = out "\\r"
                else if (c < " " || c == "\177") out = out sprintf("\\x%02x", index("\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037", c))
                else out = out c
            }
            print out
        }')
    case $s in [=+@-]* | \\t* | \\r*) s="'$s" ;; esac
    case $s in *[,\"]*) s="\"${s//\"/\"\"}\"" ;; esac
    printf '%s' "$s"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GRADE_CACHE=$tmp/cache # the instructor's tests compile once for everyone
mkdir -m 700 "$GRADE_CACHE"
mkdir -p "$(dirname "$OUT")"

# The entries, each with its student name, NUL-separated (names may hold anything).
n=0
: >"$tmp/entries"
for entry in "$DIR"/* "$DIR"/.[!.]*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    name=$(basename "$entry")
    if [ -f "$entry" ] && intake_is_tarball "$name"; then
        student=$name
        for ext in .tar.gz .tgz .tar.xz .txz .tar.bz2 .tbz2 .tar.zst .tar; do student=${student%"$ext"}; done
    elif [ -d "$entry" ] || [ -L "$entry" ]; then
        student=$name
    else
        echo "grade-all: skipping $entry (not a directory or a tarball)" >&2
        continue
    fi
    printf '%s\0%s\0' "$entry" "$student" >>"$tmp/entries"
    n=$((n + 1))
done
[ $n -gt 0 ] || die "no submissions in $DIR (expected one directory or tarball per student)"

bad=0 maxrow=""
: >"$tmp/rows"
while IFS= read -r -d '' entry && IFS= read -r -d '' student; do
    dup=$(tr '\0' '\n' <"$tmp/entries" | awk 'NR % 2 == 0' | grep -cxF -- "$student" || true)
    note=""
    [ "$dup" -le 1 ] || note="DUPLICATE: $dup submissions for this name"
    : >"$tmp/scores"
    res="build/grade/all/$(basename "$entry")/results.json"
    if [ -L "$entry" ]; then
        err="refused: $(basename "$entry") is a symbolic link"
        rc=2
    else
        err=$(SCORES=$tmp/scores ALLOW_MISSING=1 OUT=$res tests/grade/grade.sh "$entry" "$@" 2>&1 >/dev/null)
        rc=$?
    fi
    row="student,$(csv "$student")" total=0 maxtotal=0 mrow="max,"
    for ch in "$@"; do
        s=$(awk -F'\t' -v c="$ch" '$1 == c { print $2 }' "$tmp/scores")
        m=$(awk -F'\t' -v c="$ch" '$1 == c { print $3 }' "$tmp/scores")
        row="$row,${s:-0}" mrow="$mrow,${m:-0}"
        total=$(awk -v a="$total" -v b="${s:-0}" 'BEGIN { print a + b }')
        maxtotal=$(awk -v a="$maxtotal" -v b="${m:-0}" 'BEGIN { print a + b }')
    done
    if [ $rc != 0 ]; then
        bad=$((bad + 1))
        why=$(printf '%s' "$err" | tail -1)
        why=${why#grade: }
        note="${note:+$note; }${why#"$entry": }"
    else
        maxrow="$mrow,$maxtotal,points possible"
    fi
    printf '%s,%s,%s\n' "$row" "$total" "$(csv "$note")" >>"$tmp/rows"
done <"$tmp/entries"
{
    printf 'kind,student'
    for ch in "$@"; do printf ',%s' "$ch"; done
    printf ',total,note\n'
    [ -z "$maxrow" ] || echo "$maxrow"
    cat "$tmp/rows"
} >"$tmp/book.csv" && out_tmp=$(mktemp "$OUT.XXXXXX") && cp "$tmp/book.csv" "$out_tmp" && chmod 644 "$out_tmp" &&
    mv -f "$out_tmp" "$OUT" || die "cannot write $OUT"
echo "grade-all: $n submissions graded ($bad refused); gradebook $OUT"
