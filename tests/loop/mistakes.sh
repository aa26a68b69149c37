#!/usr/bin/env bash
# mistakes.sh -- the mistake catalogue's machinery; make runs it (tests/loop/mistakes.mk).
#
# tests/NN-topic/mistakes.txt holds one block per likely mistake, blocks separated
# by a blank line, "#" starting a comment line:
#
#   mistake: mac-counted-once                  a kebab-case id, unique in the chapter
#   says: count a multiply-accumulate as one FLOP instead of two
#                                              ends "this is the value you get if you ..."
#   file: solutions/01-batching/batching.c     optional when the reference has one .c
#   replace: COST_FLOPS_PER_MAC * d->params_active / (d->chips * d->flops_per_s)
#   with: d->params_active / (d->chips * d->flops_per_s)
#
# One or more replace:/with: pairs, applied in order to a copy of the reference;
# each replace: text must occur exactly once in the file at that point (one line,
# whitespace exact; the blanks right after the colon are not part of it).
#
#   mistakes.sh split CH         check the catalogue; one build/mistakes/CH/blocks/ID.block
#                                per mistake (rewritten only when it changed, so make
#                                rebuilds only that mistake), and its errors
#   mistakes.sh build CH ID OBJ...   the reference with that mistake, linked with the
#                                chapter's public test objects OBJ..., run once:
#                                build/mistakes/CH/ID/result
#   mistakes.sh stub CH OBJ...   the same for the stub as handed out (its failures are
#                                no mistake's signature: a stub's 0 names nothing)
#   mistakes.sh table CH ID...   build/mistakes/CH.tsv, the table make check reads
#                                (test, where, value, id, says: what each caught
#                                mistake computes in each public test it fails), and
#                                build/mistakes/CH.status (id, verdict, message)
#
# A result file: "verdict<TAB>message" on its first line (caught, survived,
# does-not-apply, does-not-compile), then one "test<TAB>where<TAB>value" line per
# public test it fails. CC, CFLAGS and LDLIBS come from make.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
. tests/loop/lib.sh

cmd=${1:-}
ch=${2:-}
if [ -z "$cmd" ] || [ -z "$ch" ]; then
    echo "usage: tests/loop/mistakes.sh split|build|stub|table CHAPTER ..." >&2
    exit 2
fi
shift 2
top=build/mistakes/$ch

# write-if-changed: FILE gets stdin only when that differs from what it holds
put() {
    local tmp=$1.tmp.$$
    cat >"$tmp"
    if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv "$tmp" "$1"; fi
}

# The catalogue as records: "ID<TAB>KEY<TAB>VALUE" per line of a block, and
# "-<TAB>error<TAB>MESSAGE" for what is wrong with it.
parse() {
    awk -v ch="$ch" '
        function val(s) { sub(/^[a-z]+:[ \t]*/, "", s); sub(/\r$/, "", s); return s }
        function err(m) { print (id == "" ? "-" : id) "\terror\t" m }
        function close_block() {
            if (open && !skip && id != "") {
                if (says == "") err("no says: line (it completes \"this is the value you get if you ...\")")
                else if (says !~ /^[a-z]/) err("says: must start with a verb in lower case (\"count\", \"use\", \"forget\"): \"" says "\"")
                if (pairs == 0) err("no replace:/with: pair")
                if (pending) err("a replace: without its with:")
            }
            open = 0; skip = 0
        }
        /^#/ { next }
        /^[ \t\r]*$/ { close_block(); next }
        {
            if (!open) { open = 1; id = ""; says = ""; pairs = 0; pending = 0; skip = 0 }
            if (skip) next
            key = $0; sub(/:.*/, "", key)
            if ($0 !~ /^[a-z]+:/) { err("line " NR ": not a key: value line: " $0); next }
            v = val($0)
            if (key != "mistake" && id == "") { err("line " NR ": a block starts with its mistake: line"); next }
            if (key == "mistake") {
                if (id != "") { err("line " NR ": a second mistake: line in one block (a blank line between blocks?)"); next }
                id = v
                if (id !~ /^[a-z0-9]+(-[a-z0-9]+)*$/) { err("line " NR ": the id is not kebab-case (a-z, 0-9, -)"); skip = 1; next }
                if (id in seen) { err("line " NR ": the id is used twice in tests/" ch "/mistakes.txt"); skip = 1; next }
                if (id == "stub") { err("line " NR ": \"stub\" is reserved (build/mistakes/CH/stub is the stub)"); skip = 1; next }
                seen[id] = 1
            } else if (key == "says") says = v
            else if (key == "file") { }
            else if (key == "replace") {
                if (pending) err("line " NR ": replace: after replace: (its with: is missing)")
                if (v == "") err("line " NR ": an empty replace:")
                pending = 1
            } else if (key == "with") {
                if (!pending) { err("line " NR ": with: without a replace: before it"); next }
                pending = 0; pairs++
            } else { err("line " NR ": unknown key \"" key "\" (mistake, says, file, replace, with)"); next }
            if (id != "") print id "\t" key "\t" v
        }
        END { close_block() }
    ' "tests/$ch/mistakes.txt"
}

split_catalogue() {
    local recs id
    mkdir -p "$top/blocks"
    recs=$(parse)
    printf '%s\n' "$recs" | awk -F'\t' '$2 == "error" { print $1 "\t" $3 }' | put "$top/errors"
    for id in $(printf '%s\n' "$recs" | awk -F'\t' '$2 != "error" { print $1 }' | sort -u); do
        printf '%s\n' "$recs" | awk -F'\t' -v id="$id" '$1 == id && $2 != "error" { print $2 "\t" substr($0, length($1 $2) + 3) }' |
            put "$top/blocks/$id.block"
    done
    # blocks of mistakes no longer in the catalogue
    for f in "$top"/blocks/*.block; do
        [ -f "$f" ] || continue
        id=$(basename "$f" .block)
        printf '%s\n' "$recs" | cut -f1 | grep -xF -- "$id" >/dev/null || rm -f "$f"
    done
    touch "$top/blocks/.split"
}

# Applies the block's replace:/with: pairs to FILE in place; prints what went
# wrong (and returns 1) when a replace: text is not there exactly once.
apply() {
    local block=$1 file=$2 name=$3
    awk -F'\t' -v file="$file" -v name="$name" '
        BEGIN { while ((getline l < file) > 0) src = src l "\n"; close(file) }
        $1 == "replace" { what = substr($0, 9); next }
        $1 == "with" {
            with = substr($0, 6)
            n = 0; rest = src; at = 0
            while ((k = index(rest, what)) > 0) { n++; if (n == 1) at += k; else break; rest = substr(rest, k + length(what)) }
            if (n != 1) {
                printf "replace: text found %s in %s: %s\n", (n == 0 ? "nowhere" : "more than once"), name, what
                bad = 1; exit
            }
            src = substr(src, 1, at - 1) with substr(src, at + length(what))
        }
        END { if (bad) exit 1; printf "%s", src > file }
    ' "$block"
}

# Compiles the .c files of DIR and links them with OBJ...: DIR/test. Prints the
# first error when that fails.
compile() {
    local dir=$1 f objs=()
    shift
    for f in "$dir"/src/*.c; do
        # shellcheck disable=SC2086 # CFLAGS is a list of flags
        ${CC:-cc} $CFLAGS -Ilib -Iexercises/"$ch" -c -o "${f%.c}.o" "$f" >"$dir/build.log" 2>&1 || {
            grep -m1 -e 'error' "$dir/build.log" || head -1 "$dir/build.log"
            return 1
        }
        objs+=("${f%.c}.o")
    done
    # shellcheck disable=SC2086
    ${CC:-cc} $CFLAGS -o "$dir/test" "${objs[@]}" "$@" ${LDLIBS:--lcmocka -lm} >"$dir/build.log" 2>&1 || {
        grep -m1 -e 'error' "$dir/build.log" || head -1 "$dir/build.log"
        return 1
    }
}

# Runs DIR/test once (values with all their digits) and writes DIR/result.
run() {
    local dir=$1 raw rc
    raw=$(
        CHALK_VALUES=1 timeout -k 1 10 "$dir/test" 2>&1 | head -c 1000000
        exit "${PIPESTATUS[0]}"
    )
    rc=$?
    printf '%s\n' "$raw" | loop_parse | loop_cut_reason "$rc" 10 >"$dir/run.tsv"
    {
        if [ "$rc" = 0 ] && ! cut -f2 "$dir/run.tsv" | grep -vx ok >/dev/null; then
            printf 'survived\tpasses every public test of tests/%s\n' "$ch"
        else
            printf 'caught\t%s\n' "$(cut -f2 "$dir/run.tsv" | grep -cvx ok) failing public tests"
        fi
        loop_values <"$dir/run.tsv"
    } | put "$dir/result"
}

build_one() {
    local id=$1 dir=$top/$1 block=$top/blocks/$1.block file refs why
    shift
    rm -rf "$dir"
    mkdir -p "$dir/src"
    if [ ! -f "$block" ]; then
        printf 'does-not-apply\tno block for %s (is its mistake: line well formed?)\n' "$id" | put "$dir/result"
        return 0
    fi
    refs=(solutions/"$ch"/*.c)
    file=$(awk -F'\t' '$1 == "file" { print $2; exit }' "$block")
    if [ -z "$file" ]; then
        if [ ${#refs[@]} -ne 1 ]; then
            printf 'does-not-apply\tsolutions/%s has %d .c files: say which with file:\n' "$ch" ${#refs[@]} >"$dir/result"
            return 0
        fi
        file=${refs[0]}
    fi
    case " ${refs[*]} " in
    *" $file "*) ;;
    *)
        printf 'does-not-apply\tfile: %s is not a .c file of solutions/%s\n' "$file" "$ch" >"$dir/result"
        return 0
        ;;
    esac
    cp "${refs[@]}" "$dir/src/"
    if ! why=$(apply "$block" "$dir/src/$(basename "$file")" "$file"); then
        printf 'does-not-apply\t%s\n' "$why" >"$dir/result"
        return 0
    fi
    if ! why=$(compile "$dir" "$@"); then
        printf 'does-not-compile\t%s\n' "$why" >"$dir/result"
        return 0
    fi
    run "$dir"
}

build_stub() {
    local dir=$top/stub f
    rm -rf "$dir"
    mkdir -p "$dir/src"
    for f in exercises/"$ch"/*.c; do
        loop_pristine "$ch" "$(basename "$f")" >"$dir/src/$(basename "$f")" 2>/dev/null || cp "$f" "$dir/src/"
    done
    if compile "$dir" "$@" >/dev/null; then run "$dir"; else printf 'does-not-compile\tthe stub\n' >"$dir/result"; fi
}

table() {
    local id says verdict msg
    {
        printf '# %s: what each catalogued mistake computes in the public tests it fails\n' "$ch"
        printf '# (tests/loop/mistakes.sh). test<TAB>where<TAB>value<TAB>mistake<TAB>says\n'
        for id in "$@"; do
            if [ ! -f "$top/$id/result" ] || [ ! -f "$top/blocks/$id.block" ]; then continue; fi
            IFS=$'\t' read -r verdict _ <"$top/$id/result"
            [ "$verdict" = caught ] || continue
            says=$(awk -F'\t' '$1 == "says" { print $2; exit }' "$top/blocks/$id.block")
            # rows the stub gives too say nothing about a mistake
            tail -n +2 "$top/$id/result" | grep -vxF -f <(tail -n +2 "$top/stub/result" 2>/dev/null; echo $'\001') |
                awk -F'\t' -v OFS='\t' -v id="$id" -v says="$says" '{ print $1, $2, $3, id, says }'
        done
    } >"$top.tsv"
    {
        [ ! -f "$top/errors" ] || awk -F'\t' -v OFS='\t' '{ print $1, "malformed", $2 }' "$top/errors"
        for id in "$@"; do
            # an id the catalogue's check already rejected needs no second line
            cut -f1 "$top/errors" 2>/dev/null | grep -xF -- "$id" >/dev/null && [ ! -f "$top/blocks/$id.block" ] && continue
            if [ -f "$top/$id/result" ]; then
                IFS=$'\t' read -r verdict msg <"$top/$id/result"
                printf '%s\t%s\t%s\n' "$id" "$verdict" "$msg"
            else
                printf '%s\tdoes-not-apply\tnot built\n' "$id"
            fi
        done
    } >"$top.status"
}

case $cmd in
split) split_catalogue ;;
build)
    id=${1:?usage: mistakes.sh build CH ID OBJ...}
    shift
    build_one "$id" "$@"
    ;;
stub) build_stub "$@" ;;
table) table "$@" ;;
*)
    echo "mistakes.sh: no command $cmd (split, build, stub, table)" >&2
    exit 2
    ;;
esac
