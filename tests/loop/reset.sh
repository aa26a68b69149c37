#!/usr/bin/env bash
# reset.sh -- the body of `make reset`: puts the stub back, keeping your version.
#
#   make reset EX=step_time   only that exercise's functions (listed in
#                             exercises.txt) go back to the stub; the rest of the
#                             file, your other exercises included, stays as it is
#   make reset CH=01          every file of the chapter goes back to the stub, a
#                             deleted one included
#
# Before any file changes, your whole file is copied to
# exercises/NN-topic/.backup/FILE.YYYYmmdd-HHMMSS (beside your work, not in build/,
# so make clean never removes it). A file that is already the stub is left alone.
#
# The stub comes from the handout's pristine copy (tests/stubs/), or from git: the
# upstream branch of a clone (your own commits do not count), else HEAD.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
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
    # the stub's files, and any other .c the reader has there
    files=$({ loop_pristine_files "$ch"; for f in "exercises/$ch"/*.c; do [ -f "$f" ] && basename "$f"; done; } | sort -u)
    for file in $files; do
        path=exercises/$ch/$file
        loop_pristine "$ch" "$file" >"$tmp/stub.c" ||
            die "cannot find the original stub of $path (no tests/stubs/ and no git history); nothing changed"
        if [ -z "$EX" ] || [ ! -e "$path" ]; then # a deleted file comes back whole
            cp "$tmp/stub.c" "$tmp/new.c"
            found="$found $funcs"
        else
            # splice: each function of the exercise, header to closing brace, from the stub
            if ! loop_splice "$path" "$tmp/stub.c" "$funcs" >"$tmp/new.c" 2>"$tmp/err"; then
                die "cannot find the definition of $(cat "$tmp/err") in $path; it is unchanged. make reset CH=${ch%%-*} restores the whole file (with a backup)"
            fi
            for fn in $funcs; do
                loop_c_functions "$tmp/stub.c" | cut -f1 | grep -xF "$fn" >/dev/null && found="$found $fn"
            done
        fi
        if [ ! -e "$path" ]; then # deleted: the stub comes back, nothing to back up
            cat "$tmp/new.c" >"$path"
            echo "reset: $path was missing; it is the stub again"
            changed=1
            continue
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
