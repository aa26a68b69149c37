#!/usr/bin/env bash
# proof.sh -- the calculator's output before and after a change, compared byte for byte.
#
# Runs every command of tests/chalk/proof/commands.txt (each one the tests, the book,
# the flashcards and the problem sets ran, recorded by a wrapper around build/chalk:
# tests/chalk/proof/record.sh;
# one shell-quoted command line a line) three ways, as a table, with --json and with
# --csv, through two calculators: BEFORE, built from the commit in
# tests/chalk/proof/BASE (or the binary given), and AFTER (default build/chalk).
# Renamed flags and keys (tests/chalk/proof/renames.tsv) are applied to the old
# command line and the old output (tests/chalk/proof/rename.py); then stdout and
# the exit status must be identical.
# Error lines (stderr) are compared too and listed when they differ, since a
# redesign may reword an error (each difference is read and judged).
#
# Usage: tests/chalk/proof.sh [BEFORE-BINARY] [AFTER-BINARY]
#   PROOF_ONLY=REGEX    only the command lines matching it (grep -E)
# Prints one line per difference and ends "proof: N outputs compared, N identical,
# N differ (stdout or status), N error lines reworded"; exits 1 when any stdout or
# status differs.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
P=tests/chalk/proof
W=$(mktemp -d "${TMPDIR:-/tmp}/chalk-proof.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT

before=${1:-}
after=${2:-build/chalk}
if [ -z "$before" ]; then
    base=$(cat "$P/BASE")
    mkdir -p "$W/base"
    git archive "$base" | tar -x -C "$W/base" || exit 2
    make -s -C "$W/base" build/chalk >/dev/null || { echo "proof: the base $base does not build" >&2; exit 2; }
    before=$W/base/build/chalk
fi
[ -x "$after" ] || { echo "proof: no calculator at $after (make chalk)" >&2; exit 2; }

# run BINARY OUT ARGS...: stdout to OUT.out, stderr to OUT.err, the status to OUT.rc
run() {
    local exe=$1 out=$2
    shift 2
    timeout 120 "$exe" "$@" >"$out.out" 2>"$out.err" </dev/null
    echo $? >"$out.rc"
}

compared=0 same=0 differ=0 reworded=0 n=0
while IFS= read -r line; do
    n=$((n + 1))
    eval "args=($line)"
    plain=()
    for a in "${args[@]}"; do
        case $a in --json | --csv) ;; *) plain+=("$a") ;; esac
    done
    renamed=false
    grep -q "^${plain[0]:-none}	" "$P/renames.tsv" && renamed=true
    new_line=$line
    ! $renamed || new_line=$(python3 "$P/rename.py" line "$line")
    eval "new_args=($new_line)"
    new_plain=()
    for a in "${new_args[@]}"; do
        case $a in --json | --csv) ;; *) new_plain+=("$a") ;; esac
    done
    for fmt in table --json --csv; do
        extra=()
        [ "$fmt" = table ] || extra=("$fmt")
        run "$before" "$W/b" "${plain[@]}" "${extra[@]}"
        run "$after" "$W/a" "${new_plain[@]}" "${extra[@]}"
        if $renamed; then
            python3 "$P/rename.py" output "${plain[0]}" <"$W/b.out" >"$W/b.renamed"
        else
            cp "$W/b.out" "$W/b.renamed"
        fi
        compared=$((compared + 1))
        if cmp -s "$W/b.renamed" "$W/a.out" && cmp -s "$W/b.rc" "$W/a.rc"; then
            same=$((same + 1))
        else
            differ=$((differ + 1))
            echo "DIFFERS ($fmt, status $(cat "$W/b.rc") -> $(cat "$W/a.rc")): chalk $line"
            diff "$W/b.renamed" "$W/a.out" | head -${PROOF_LINES:-6} | sed 's/^/    /'
        fi
        if ! cmp -s "$W/b.err" "$W/a.err"; then
            reworded=$((reworded + 1))
            echo "stderr ($fmt): chalk $line"
            echo "    before: $(head -c 300 "$W/b.err")"
            echo "    after:  $(head -c 300 "$W/a.err")"
        fi
    done
done < <(grep -E -- "${PROOF_ONLY:-.}" "$P/commands.txt")
echo "proof: $n commands, $compared outputs compared, $same identical, $differ differ (stdout or status), $reworded error lines reworded"
[ "$differ" -eq 0 ]
