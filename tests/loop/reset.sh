#!/usr/bin/env bash
# reset.sh -- the body of `make reset`: puts the stub back, keeping your version.
#
#   make reset EX=step_time   only that exercise's functions (listed in
#                             exercises.txt) go back to the stub; the rest of the
#                             file, your other exercises included, stays as it is
#   make reset CH=01          every file of the chapter goes back to the stub
#
# Before any file changes, your whole file is copied to
# exercises/NN-topic/.backup/FILE.YYYYmmdd-HHMMSS (beside your work, not in build/,
# so make clean never removes it). A file that is already the stub is left alone.
#
# The stub comes from the handout's pristine copy (tests/stubs/), or from git: the
# upstream branch of a clone (your own commits do not count), else HEAD.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/loop/lib.sh
CH=${CH:-} EX=${EX:-}

die() {
    echo "reset: $*" >&2
    exit 2
}

if [ -n "$EX" ]; then
    ch=$(loop_chapter_of "$EX") || die "no exercise '$EX'; make progress lists them"
    [ -z "$CH" ] || [ "${ch#"$CH"}" != "$ch" ] || die "exercise $EX is in chapter $ch, not CH=$CH"
    chapters=$ch
elif [ -n "$CH" ]; then
    chapters=$(loop_pick "$CH") || die "no chapter matches CH=$CH; chapters: $(loop_chapters | tr '\n' ' ')"
    [ "$(printf '%s\n' "$chapters" | wc -l)" = 1 ] || die "CH=$CH names several chapters; name one"
else
    die "say what to reset: make reset EX=exercise_id (its functions) or make reset CH=01 (the whole chapter)"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
changed=0
for ch in $chapters; do
    funcs=""
    [ -z "$EX" ] || funcs=$(loop_exercises "$ch" | awk -F'\t' -v ex="$EX" '$1 == ex { print $5 }')
    found=""
    for path in "exercises/$ch"/*.c; do
        file=$(basename "$path")
        loop_pristine "$ch" "$file" >"$tmp/stub.c" ||
            die "cannot find the original stub of $path (no tests/stubs/ and no git history); nothing changed"
        if [ -z "$EX" ]; then
            cp "$tmp/stub.c" "$tmp/new.c"
        else
            # splice: each function of the exercise, header to closing brace, from the stub
            loop_c_functions "$path" >"$tmp/mine.tsv"
            loop_c_functions "$tmp/stub.c" >"$tmp/stub.tsv"
            : >"$tmp/plan"
            for fn in $funcs; do
                s=$(awk -F'\t' -v f="$fn" '$1 == f { print $2, $3 }' "$tmp/stub.tsv")
                [ -n "$s" ] || continue # not in this file
                m=$(awk -F'\t' -v f="$fn" '$1 == f { print $2, $3 }' "$tmp/mine.tsv")
                [ -n "$m" ] || die "cannot find the definition of $fn in $path; it is unchanged. make reset CH=${ch%%-*} restores the whole file (with a backup)"
                echo "$m $s" >>"$tmp/plan"
                found="$found $fn"
            done
            awk -v plan="$tmp/plan" -v stub="$tmp/stub.c" '
                BEGIN {
                    while ((getline l < stub) > 0) s[++n] = l
                    while ((getline l < plan) > 0) { split(l, p, " "); to[p[1]] = p[2]; from_s[p[1]] = p[3]; to_s[p[1]] = p[4] }
                }
                FNR in to { for (i = from_s[FNR]; i <= to_s[FNR]; i++) print s[i]; skip = to[FNR]; next }
                FNR <= skip { next }
                { print }
            ' "$path" >"$tmp/new.c"
        fi
        if cmp -s "$path" "$tmp/new.c"; then
            continue
        fi
        backup=$(loop_backup "$path") || die "could not back up $path; nothing changed"
        cat "$tmp/new.c" >"$path"
        echo "reset: $path${EX:+ ($EX: $funcs)} is the stub again; your version is in $backup"
        changed=1
    done
    if [ -n "$EX" ] && [ -z "$found" ]; then
        die "none of $EX's functions ($funcs) is in exercises/$ch/*.c"
    fi
done
[ $changed = 1 ] || echo "reset: already the stub; nothing changed"
exit 0
