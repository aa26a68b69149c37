#!/usr/bin/env bash
# grade-all.sh -- the body of `make grade-all DIR=submissions/`: grades every
# submission in DIR (each subdirectory or tarball is one student, named by it) with
# grade.sh and writes a CSV gradebook.
#
#   tests/grade/grade-all.sh DIR [CHAPTER...]     OUT=gradebook path
#                                                 (default build/grade/gradebook.csv)
#                                                 GRADE_JOBS=gradings at once
#                                                 (default: one per core)
# The gradebook (RFC 4180 CSV, one line per row):
#   kind,student,NN-topic...,total,note
#   max,"",60,60,"points possible"     <- the first column tells it from a student
#   student,"alice",60,60,""
# A student's name is the entry's name without its tarball extension, exactly
# (no byte of it dropped). A name holding a control character (a newline, a tab,
# C1 controls) or an invisible direction mark is refused: not graded, the note
# says why, the name written with \n, \t or \xHH. Two entries whose names are one
# after folding case, spaces and Unicode composition (alice/ and alice.tar.gz,
# Alice and "alice ") are both graded and both flagged DUPLICATE in the note, never
# merged. Every text cell (student, note) is quoted, so that a comma or a
# semicolon (the separator of many locales) inside it starts no new cell, and one
# that starts, after any blanks, with = + - @ (OWASP's CSV injection list: also
# tab, carriage return and line feed, which are escaped here) gets a leading '
# so that no spreadsheet runs it as a formula. A chapter a student did not submit
# scores 0; a refused submission scores 0 with the reason in the note. Each
# entry's results.json goes to build/grade/all/ENTRY/results.json.
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
# In user mode a submission's code runs as a fresh uid, which can read what any
# user may: the other submissions too, unless DIR is closed to other users.
[ "$(id -u)" != 0 ] || [ -z "$(find "$DIR" -maxdepth 0 -perm /o+rx)" ] ||
    echo "grade-all: WARNING: other users may read $DIR: chmod o-rwx it (in user mode one submission's code could read the others)" >&2
[ $# -gt 0 ] || set -- $(loop_chapters)

# One CSV text field: control characters escaped, formulas defused, quoted.
csv() {
    local s lead
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
    # the first character a spreadsheet sees once it skips blanks (also no-break
    # and ideographic spaces); a tab, CR or LF is never first: they are escaped
    lead=$(printf '%s' "$s" | LC_ALL=C sed -e 's/^\([[:space:]]\|\xc2\xa0\|\xe3\x80\x80\)*//')
    case $lead in [=+@-]*) s="'$s" ;; esac
    printf '"%s"' "${s//\"/\"\"}"
}

# What makes name $1 unfit for a gradebook, escaped as csv() would write it ("" when
# nothing): a control character (C0, DEL, C1) or an invisible direction mark
# (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069).
bad_char() {
    printf '%s' "$1" | LC_ALL=C awk 'BEGIN { RS = "\001\002"; ctl = "\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\177" }
        match($0, /[\001-\037\177]/) { k = index(ctl, substr($0, RSTART, 1)); printf "\\x%02x", (k == 32 ? 127 : k); exit }
        match($0, /\302[\200-\237]/) { print "a C1 control character"; exit }
        match($0, /\342\200[\216\217\252-\256]|\342\201[\246-\251]/) { print "an invisible direction mark"; exit }'
}

# Folds the NUL-separated names on stdin to the keys that tell duplicates, one a
# line: Unicode NFC (perl, when it is here), case folded, blanks collapsed and
# trimmed.
dup_keys() {
    if perl -MUnicode::Normalize -e 1 2>/dev/null; then
        perl -CSD -MUnicode::Normalize -Mfeature=fc -0 -ne 'chomp; $_ = fc(NFC($_)); s/\s+/ /g; s/^ | $//g; print "$_\n"' 2>/dev/null
    else
        tr '\0\n' '\n ' | LC_ALL=C awk '{ $0 = tolower($0); gsub(/[ \t]+/, " "); sub(/^ /, ""); sub(/ $/, ""); print }'
    fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GRADE_CACHE=$tmp/cache # the instructor's tests compile once for everyone
mkdir -m 700 "$GRADE_CACHE"
mkdir -p "$(dirname "$OUT")"

# The entries, each with its student name, NUL-separated (names may hold anything:
# never through $(...), which would drop trailing newlines).
n=0
: >"$tmp/entries"
: >"$tmp/names"
for entry in "$DIR"/* "$DIR"/.[!.]*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    name=${entry##*/}
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
    printf '%s\0' "$student" >>"$tmp/names"
    n=$((n + 1))
done
[ $n -gt 0 ] || die "no submissions in $DIR (expected one directory or tarball per student)"
dup_keys <"$tmp/names" >"$tmp/keys" # line i: the key of entry i
[ "$(wc -l <"$tmp/keys")" = $n ] || die "cannot compare the names for duplicates"

# grade_one I ENTRY CHAPTER...: entry I graded (or refused for its name): its scores
# in $tmp/I.scores, the grader's messages in $tmp/I.err, its exit status in $tmp/I.rc.
grade_one() {
    local i=$1 entry=$2 name badc err rc
    shift 2
    name=${entry##*/}
    : >"$tmp/$i.scores"
    badc=$(bad_char "$name")
    if [ -n "$badc" ]; then
        err="refused: the name holds $badc (a control or invisible character): rename it to grade it"
        [[ $badc == \\* ]] && err="refused: the name holds a control character ($badc): rename it to grade it"
        rc=2
    elif [ -L "$entry" ]; then
        err="refused: $name is a symbolic link"
        rc=2
    else
        err=$(SCORES=$tmp/$i.scores ALLOW_MISSING=1 OUT="build/grade/all/$name/results.json" \
            tests/grade/grade.sh "$entry" "$@" 2>&1 >/dev/null)
        rc=$?
    fi
    printf '%s' "$err" >"$tmp/$i.err"
    echo $rc >"$tmp/$i.rc"
}

# Every entry graded, GRADE_JOBS at a time (default: one per core; the gradings
# share the cache, which the first to need a chapter builds while the others wait
# on its lock). wait -n: no polling.
jobs_max=${GRADE_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs_max in '' | *[!0-9]* | 0*) die "GRADE_JOBS must be a whole number over 0, not '$jobs_max'" ;; esac
i=0
while IFS= read -r -d '' entry && IFS= read -r -d '' _; do
    i=$((i + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    grade_one $i "$entry" "$@" &
done <"$tmp/entries"
wait

bad=0 maxrow="" i=0
: >"$tmp/rows"
while IFS= read -r -d '' entry && IFS= read -r -d '' student; do
    i=$((i + 1))
    key=$(sed -n "${i}p" "$tmp/keys")
    dup=$(grep -cxF -- "$key" "$tmp/keys")
    note=""
    [ "$dup" -le 1 ] || note="DUPLICATE: $dup submissions for this name (case, blanks and Unicode forms aside)"
    cp "$tmp/$i.scores" "$tmp/scores"
    err=$(cat "$tmp/$i.err") rc=$(cat "$tmp/$i.rc")
    row="student,$(csv "$student")" total=0 maxtotal=0 mrow="max,\"\""
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
        maxrow="$mrow,$maxtotal,\"points possible\""
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
