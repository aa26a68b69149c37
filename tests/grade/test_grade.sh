#!/usr/bin/env bash
# test_grade.sh -- make test's proof of the classroom tools: the handout, the grader
# (make grade) and the gradebook (make grade-all), run in a scratch copy of the tree
# (your exercises/ and build/ are not touched).
#
#   grading:  the reference scores full marks, the stubs zero, a half-done
#             submission partial marks; every attack in tests/grade/fixtures/ scores
#             no more than the stubs, leaves the graded tree as it was (a checksum
#             of every file before and after) and ends in bounded time; the runtime
#             attacks again with the object checks off (GRADE_TRUST_OBJECT=1), under
#             bwrap and under the user fallback, to prove the sandbox holds alone;
#             tarballs refused before unpacking; results.json valid for hostile
#             output; the Gradescope wrapper; the gradebook for hostile names
#   handout:  it builds, leaves out the grader's tests, runs make check, leaks no
#             answer; the leak check catches a leak; make check names a missing
#             cmocka without installing anything
#
# Prints "ok - ..." or "FAIL - ..." per fact, then "grading: N passed, N failed",
# which run.sh adds to make test's totals. Exits 1 on a FAIL.
#   KEEP=1   leave the scratch copy in place (its path is in the output)
set -uo pipefail
cd "$(dirname "$0")/../.."
here=$(pwd)
fails=0 passes=0
verdict() { # verdict ok|FAIL FACT: one line, counted
    echo "$1 - $2"
    if [ "$1" = ok ]; then passes=$((passes + 1)); else fails=$((fails + 1)); fi
}
ok() { verdict ok "$*"; }
fail() { verdict FAIL "$*"; }
expect() { if "${@:2}"; then ok "$1"; else fail "$1"; fi; } # expect FACT COMMAND...
has() { printf '%s\n' "$1" | grep -F -- "$2" >/dev/null; }
t_begin=$(date +%s)
section() { echo "-- $* ($(($(date +%s) - t_begin)) s)"; }
finish() {
    echo "(test_grade.sh took $(($(date +%s) - t_begin)) s)"
    echo "grading: $passes passed, $fails failed"
    [ $fails = 0 ]
    exit
}
if ! tests/deps.sh grade >/dev/null 2>&1; then
    fail "tests/deps.sh grade: bubblewrap, jq and binutils are not installable here"
    finish
fi

scratch=$(mktemp -d)
# The gradings' own scratch directories: a TMPDIR of this run's, apart from $scratch
# (which stays closed: it holds the course's tree), open to the sandbox's uid
# (o+x) so that grade.sh can use it where the caller's TMPDIR lets it.
gradetmp=$(mktemp -d) && chmod 711 "$gradetmp"
# opentmp: where a program the sandbox's uid runs goes: in $gradetmp when every
# directory above it lets other users through, else in /tmp (as grade.sh chooses)
passable() { local d=$1; while [ -n "$(find "$d" -maxdepth 0 -perm -0001)" ]; do [ "$d" != / ] || return 0; d=$(dirname "$d"); done; return 1; }
if passable "$(realpath "$gradetmp")"; then opentmp=$gradetmp/open; mkdir -m 711 "$opentmp"; else opentmp=$(mktemp -d /tmp/chalk-test.XXXXXX) && chmod 711 "$opentmp"; fi
trap '[ -n "${KEEP:-}" ] || rm -rf "$scratch" "$gradetmp" "$opentmp"' EXIT
export TMPDIR=$gradetmp
tree=$scratch/tree
mkdir -p "$tree" "$scratch/out" "$scratch/sub"
git ls-files -co --exclude-standard | grep -v '/\.backup/' | tar -cf - -T - | tar -xf - -C "$tree"
# the copy is no git checkout, even when TMPDIR lies inside one (make gradescope and
# make handout then list its files, not the enclosing checkout's)
export GIT_CEILING_DIRECTORIES=$scratch
mkdir -p "$scratch/pdfs" # the books, if built, for the handout
for pdf in build/chalk.pdf build/chalk-instructor.pdf; do [ -f "$pdf" ] && cp "$pdf" "$scratch/pdfs/"; done
echo "scratch copy: $scratch"
cd "$tree"
. tests/loop/lib.sh
CH=01-batching
stub=exercises/$CH/batching.c
ref=solutions/$CH/batching.c
fixtures=tests/grade/fixtures
export GRADE_CACHE=$scratch/cache # the instructor's side is compiled once
mkdir -m 700 "$GRADE_CACHE"

# Every file of the graded tree, hashed: an attack must leave it as it was.
checksum() { (cd "$tree" && find . -path ./.git -prune -o -print0 | sort -z | xargs -0 sha256sum 2>&1 | sha256sum); }
score() { jq -r '.score' "$1" 2>/dev/null; }
maxof() { jq -r '.extra_data.max_score' "$1" 2>/dev/null; }

# grade NAME SUBMISSION [CHAPTER]: grades into $scratch/out/NAME.json; sets rc, secs
# (also kept in NAME.rc and NAME.secs).
grade() {
    local name=$1 sub=$2 t0
    shift 2
    t0=$(date +%s.%N)
    OUT=$scratch/out/$name.json timeout 300 tests/grade/grade.sh "$sub" "${@:-$CH}" \
        >"$scratch/out/$name.log" 2>&1
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "$rc" >"$scratch/out/$name.rc"
    echo "$secs" >"$scratch/out/$name.secs"
}
# grade_bg NAME SUBMISSION: the same in the background, two at a time.
grade_bg() {
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
    grade "$@" &
}

# fixture_chapter FIXTURE: the chapter it attacks (its "chapter:" line; else $CH).
fixture_chapter() {
    local c
    c=$(sed -n 's/^ \* chapter: //p' "$fixtures/$1.c")
    echo "${c:-$CH}"
}

# submission NAME FIXTURE...: a directory with chapter 1's stub and exercises/CH/FILE.c
# for each chapter the fixtures attack (CH from a fixture's "chapter:" line; one without, such as a
# prepended helper, goes to the first fixture's chapter, else 01-batching): the
# chapter's stub made over by the fixtures and the fixtures they name on a "needs:"
# line, first (how: whole, append, prepend, or splice FUNCTIONS), placeholders
# @TREE@, @OUT@ and @FF@ filled in.
submission() {
    local name=$1 fx how fns ch=$CH fch file dir done=" " list=()
    shift
    [ $# = 0 ] || ch=$(fixture_chapter "$1")
    for fch in $CH $ch; do # chapter 1's stub is always there (graded beside another)
        file=$(cd "exercises/$fch" && ls -- *.c)
        mkdir -p "$scratch/sub/$name/exercises/$fch"
        cp "exercises/$fch/$file" "$scratch/sub/$name/exercises/$fch/$file"
    done
    for fx in "$@"; do list+=($(sed -n 's/^ \* needs: //p' "$fixtures/$fx.c") "$fx"); done
    for fx in "${list[@]}"; do
        case $done in *" $fx "*) continue ;; esac
        done="$done$fx "
        fch=$ch
        grep -q '^ \* chapter: ' "$fixtures/$fx.c" && fch=$(fixture_chapter "$fx")
        file=$(cd "exercises/$fch" && ls -- *.c)
        dir=$scratch/sub/$name/exercises/$fch
        mkdir -p "$dir"
        [ -f "$dir/$file" ] || cp "exercises/$fch/$file" "$dir/$file"
        how=$(sed -n 's/^ \* how: //p' "$fixtures/$fx.c")
        sed -e "s|@TREE@|$tree|g" -e "s|@OUT@|$scratch/out/$name.json|g" -e "s|@FF@|$(printf '\377')|g" \
            "$fixtures/$fx.c" >"$scratch/fx.c"
        case $how in
        whole) cp "$scratch/fx.c" "$dir/$file" ;;
        append) cat "$scratch/fx.c" >>"$dir/$file" ;;
        prepend) cat "$scratch/fx.c" "$dir/$file" >"$scratch/prepended.c" && cp "$scratch/prepended.c" "$dir/$file" ;;
        splice*)
            fns=${how#splice }
            loop_splice "$dir/$file" "$scratch/fx.c" "$fns" >"$scratch/spliced.c"
            # the contract, the rest of the fixture (includes, helpers), then the stub
            # with those functions replaced
            loop_c_functions "$scratch/fx.c" | awk -F'\t' -v fns=" $fns " 'index(fns, " " $1 " ") { print $4, $3 }' >"$scratch/cut"
            { echo "#include \"${file%.c}.h\""
              awk 'BEGIN { while ((getline l < "'"$scratch/cut"'") > 0) { split(l, r, " "); from[++n] = r[1]; to[n] = r[2] } }
                   { for (i = 1; i <= n; i++) if (FNR >= from[i] && FNR <= to[i]) next; print }' "$scratch/fx.c"
              cat "$scratch/spliced.c"; } >"$dir/$file"
            ;;
        *) fail "fixture $fx has no 'how:' line" ;;
        esac
    done
    echo "$scratch/sub/$name"
}

# Text that must never reach a report: a line of the hidden tests, of the
# reference's function bodies, and the points table's rule for hidden tests.
{
    sed -n 's/^ \* test_batching_hidden.c -- //p' tests/$CH/hidden/test_batching_hidden.c
    loop_c_functions "$ref" | head -3 | while IFS=$'\t' read -r _ s e _ _; do
        sed -n "$((s + 2)),${e}p" "$ref" | awk 'length($0) > 30' | head -1
    done
    grep '^hidden/' tests/$CH/points.txt
} | sed 's/^[[:space:]]*//' | grep . >"$scratch/secrets"
leaks() { grep -oF -f "$scratch/secrets" "$1" | head -1; } # the first secret line in file $1
expect "the checks below can fail: the leak finder finds $(wc -l <"$scratch/secrets") secret lines in their sources" \
    test "$(cat tests/$CH/hidden/*.c "$ref" tests/$CH/points.txt | grep -cF -f "$scratch/secrets")" -ge 3
before=$(checksum)
touch "$tree/x" && after=$(checksum) && rm "$tree/x"
expect "  and the tree's checksum changes when a file appears" test "$before" != "$after"

before=$(checksum)

section "grading: the reference, the stubs, half done"
grade ref solutions
echo "sandbox on this machine: $(sed -n 's/^grade: sandbox: //p' "$scratch/out/ref.log")"
full=$(maxof "$scratch/out/ref.json")
expect "the reference scores full marks ($(score "$scratch/out/ref.json") of $full, ${secs} s)" \
    test -n "$full" -a "$(score "$scratch/out/ref.json")" = "$full"
expect "  the grader says which sandbox ran" grep -qE '^grade: sandbox: (bwrap|user|none) ' "$scratch/out/ref.log"
n_tests=$(($(cat tests/$CH/*.c | grep -c 'CHALK_TEST(') + $(cat tests/$CH/hidden/*.c | grep -c 'CHALK_TEST(')))
n_hidden=$(cat tests/$CH/hidden/*.c | grep -c 'CHALK_TEST(')
expect "  every test is in results.json ($n_tests), hidden ones with their visibility ($n_hidden)" \
    test "$(jq '.tests | length' "$scratch/out/ref.json")" = "$n_tests" \
    -a "$(jq '[.tests[] | select(.visibility == "after_published")] | length' "$scratch/out/ref.json")" = "$n_hidden"
expect "  output_format is text" test "$(jq -r .output_format "$scratch/out/ref.json")" = text
top=$(jq -r .output "$scratch/out/ref.json")
expect "  the always-visible output counts public tests only (no hidden name, no total)" \
    eval '! has "$top" hidden/ && ! has "$top" " of $n_tests" && ! has "$top" "$full of" && has "$top" "public tests"'

tar -czf "$scratch/sub/stub.tar.gz" exercises
grade stub "$scratch/sub/stub.tar.gz"
stub_score=$(score "$scratch/out/stub.json")
# The watchdog: a grading stuck where no step's deadline reaches (a base64 that
# never returns, on the grader's own side) must end at its budget plus the margin.
# It waits 33 s doing nothing: in the background, out of grade_bg's count (checked
# in the section on deadlines).
mkdir -p "$scratch/stuck-bin" && printf '#!/bin/sh\nexec sleep 987\n' >"$scratch/stuck-bin/base64" && chmod 755 "$scratch/stuck-bin/base64"
PATH=$scratch/stuck-bin:$PATH GRADE_BUDGET=3 grade watchdog "$scratch/sub/stub.tar.gz" &
disown
expect "the stubs (a tarball) score zero ($stub_score, ${secs} s)" test "$stub_score" = 0

half=$(submission half)
for ex in hardware_ratio train_departures; do
    fns=$(loop_exercises "$CH" | awk -F'\t' -v ex="$ex" '$1 == ex { print $5 }')
    loop_splice "$half/exercises/$CH/batching.c" "$ref" "$fns" >"$scratch/x.c" && cp "$scratch/x.c" "$half/exercises/$CH/batching.c"
done
grade half "$half"
h=$(score "$scratch/out/half.json")
expect "a half-done submission scores partial marks ($h of $full)" awk -v h="$h" -v f="$full" 'BEGIN { exit !(h > 0 && h < f) }'
expect "  and only the solved exercises' tests pass" \
    test -z "$(jq -r '.tests[] | select(.status == "passed") | .tags[1]' "$scratch/out/half.json" | grep -vx -e hardware_ratio -e train_departures)"

mkdir -p "$scratch/sub/flat"
cp "$ref" "$scratch/sub/flat/"
grade flat "$scratch/sub/flat"
expect "the bare .c file (a Gradescope upload) is graded: full marks" test "$(score "$scratch/out/flat.json")" = "$full"

section "grading: every chapter: the reference full marks, the stubs zero"
chapters=$(loop_chapters)
# every contract on the tree can be carried to a call process (else make grade stops)
unwrapped=""
for c in $chapters; do
    tests/grade/wrap.sh "$c" "$scratch/wrap-$c.c" >/dev/null 2>"$scratch/wrap-$c.log" ||
        unwrapped="$unwrapped $c: $(grep -v 'no wrappers written' "$scratch/wrap-$c.log" | head -2 | tr '\n' ' ')"
done
expect "wrap.sh builds the wrappers of every chapter ($(echo $chapters | wc -w))${unwrapped:+; not:$unwrapped}" \
    test -z "$unwrapped"
# one at a time: the first run compiles each chapter's tests into the shared cache
SCORES=$scratch/out/ref-all.scores grade ref-all solutions $chapters
SCORES=$scratch/out/stub-all.scores grade stub-all exercises $chapters
declare -A stub_of=()
for c in $chapters; do
    read -r rs rm < <(awk -F'\t' -v c="$c" '$1 == c { print $2, $3 }' "$scratch/out/ref-all.scores")
    read -r ss sm < <(awk -F'\t' -v c="$c" '$1 == c { print $2, $3 }' "$scratch/out/stub-all.scores")
    stub_of[$c]=${ss:-none}
    expect "$c: the reference scores full marks (${rs:-none} of ${rm:-none}), the stubs zero (${ss:-none})" \
        test -n "$rs" -a "$rs" = "$rm" -a "${rm:-0}" -gt 0 -a "$ss" = 0
done
expect "  (all chapters graded in one run each: $(cat "$scratch/out/ref-all.secs") s and $(cat "$scratch/out/stub-all.secs") s)" \
    test "$(cat "$scratch/out/ref-all.rc")" = 0 -a "$(cat "$scratch/out/stub-all.rc")" = 0

section "grading: attacks (tests/grade/fixtures/), each at most the stubs' score"
# Each attack: a submission graded (two at a time); then, for each, no more than the
# stubs' score, bounded time, no secret in its report, the report naming the rule;
# and the graded tree unchanged by them all.
attacks=(
    "ctor-ok|constructor" "exit-ok|_exit" "include-scratch|does not compile"
    "include-repo|does not compile" "include-abs|" "include-hidden|"
    "include-devzero|went over its limits" "proc-run|popen"
    "cmocka-defs|not one of the contract's functions" "points-write|fopen" "detached|fork"
    "read-secrets|fopen" "stdout-open|fork" "sigterm|signal" "forkbomb|setsid" "devshm|fopen"
    "asm|inline assembly" "text-bytes|the attribute section" "globals|make it static"
    "macro-line|inline assembly (__asm__" "line-blind|a #line directive" "linemarker-blind|a linemarker directive"
    # from the functions that take or return pointers, in chapters 2, 3, 5 and 6
    # (they once ran in the test's own process): found through libc's symbol table,
    # hidden in a constant, or named (the object check names those)
    "elf-exit-06|did not return (its process ended with exit status 0)"
    "elf-exit-03|did not return (its process ended with exit status 0)"
    "elf-exit-05|did not return (its process ended with exit status 0)"
    "movabs|did not return (its process ended with exit status 0)"
    "execve|calls to execl" "kill-parent|calls to getppid, kill" "socket|socket"
    "open-file|calls to open" "mprotect-exec|mprotect"
    # a string in a result that only the call's process could read
    "reason-not-constant|reason must be a string constant"
)
# Each is graded with a budget of ATTACK_BUDGET s: it must end within that and the
# watchdog's margin (GRADE_MARGIN_S) without the watchdog (exit 0): a bound that
# holds on a slow or loaded machine, and catches a step with no deadline.
ATTACK_BUDGET=60 MARGIN=30
within() { awk -v t="$1" -v b="$2" -v m="$MARGIN" 'BEGIN { exit !(t < b + m) }'; } # within SECS BUDGET
for a in "${attacks[@]}"; do
    name=${a%%|*}
    GRADE_BUDGET=$ATTACK_BUDGET grade_bg "$name" "$(submission "$name" "$name")" "$(fixture_chapter "$name")"
done
wait
for a in "${attacks[@]}"; do
    name=${a%%|*} rule=${a#*|}
    z=${stub_of[$(fixture_chapter "$name")]}
    s=$(score "$scratch/out/$name.json") secs=$(cat "$scratch/out/$name.secs") rc=$(cat "$scratch/out/$name.rc")
    leaked=$(leaks "$scratch/out/$name.json")
    named=1
    [ -z "$rule" ] || grep -qF -- "$rule" "$scratch/out/$name.json" || named=0
    if [ -n "$s" ] && [ "$rc" = 0 ] && awk -v s="$s" -v z="$z" 'BEGIN { exit !(s <= z) }' &&
        within "$secs" $ATTACK_BUDGET && [ -z "$leaked" ] && [ $named = 1 ]; then
        ok "$name: $s points, ${secs} s${rule:+, says \"$rule\"}"
    else
        fail "$name: score ${s:-none} (stubs $z), exit $rc, ${secs} s (bound $((ATTACK_BUDGET + MARGIN)) s)${leaked:+, leaked: $leaked}${rule:+, rule \"$rule\" $([ $named = 1 ] && echo named || echo NOT named)}"
    fi
done
expect "the graded tree is unchanged by all ${#attacks[@]} (a checksum of every file)" test "$(checksum)" = "$before"
grade memory "$(submission memory memory)"
expect "memory: the allocation really runs and hits the limit (crashed, not passed; ${secs} s)" \
    test "$(jq -r '[.tests[] | select(.tags[1] == "batch_limits") | .output] | map(select(test("crashed|Segmentation"))) | length' "$scratch/out/memory.json")" -gt 0
expect "  and scores no more than the stubs" test "$(score "$scratch/out/memory.json")" = "$stub_score"
expect "  the crash is named, with the function" grep -q 'crashed: Segmentation fault in batching_max_batch_hbm' "$scratch/out/memory.json"
expect "include-abs: refused for what it includes, not found (bwrap) or not readable (user)" \
    grep -qE 'refused: it includes|No such file|Permission denied' "$scratch/out/include-abs.json"

section "grading: the runtime attacks with the object checks off (the sandbox alone)"
runtime=(exit-ok cmocka-defs proc-run points-write detached read-secrets stdout-open sigterm forkbomb devshm memory)
leftovers() { ls -d /dev/shm/chalk-fixture-* /tmp/chalk-fixture-* /var/tmp/chalk-fixture-* "$tree"/fixture-* 2>/dev/null; }
modes=()
if grep -q '^grade: sandbox: bwrap' "$scratch/out/ref.log"; then modes+=(bwrap); else echo "skip - bwrap cannot run here"; fi
if [ "$(id -u)" = 0 ]; then modes+=(user); else echo "skip - the user fallback needs root"; fi
for mode in "${modes[@]}"; do
    GRADE_BUDGET=$ATTACK_BUDGET GRADE_SANDBOX=$mode GRADE_TRUST_OBJECT=1 TIMEOUT=0.3 grade_bg "trust-$mode" "$(submission "trust-$mode" "${runtime[@]}")"
    GRADE_BUDGET=$ATTACK_BUDGET GRADE_SANDBOX=$mode GRADE_TRUST_OBJECT=1 grade_bg "trust-ctor-$mode" "$(submission "trust-ctor-$mode" ctor-ok)"
done
wait
for mode in "${modes[@]}"; do cp "$scratch/out/trust-$mode.json" "$scratch/trust-$mode.saved"; done
sleep 1.5 # the detached grandchildren would write now
for mode in "${modes[@]}"; do
    rc=$(cat "$scratch/out/trust-$mode.rc") secs=$(cat "$scratch/out/trust-$mode.secs")
    if [ "$rc" != 0 ]; then
        fail "trust-$mode: the grader failed (exit $rc): $(tail -1 "$scratch/out/trust-$mode.log")"
        continue
    fi
    s=$(score "$scratch/out/trust-$mode.json")
    expect "$mode, no object checks: ${#runtime[@]} runtime attacks together score $s (stubs $stub_score) in ${secs} s" \
        eval 'awk -v s="$s" -v z="$stub_score" "BEGIN { exit !(s <= z) }" && within "$secs" $ATTACK_BUDGET'
    expect "  no secret in the report" test -z "$(leaks "$scratch/out/trust-$mode.json")"
    expect "  results.json is as the grader wrote it, 1.5 s later (the detached child is dead)" \
        cmp -s "$scratch/out/trust-$mode.json" "$scratch/trust-$mode.saved"
    expect "  a constructor that prints success and exits scores $(score "$scratch/out/trust-ctor-$mode.json")" \
        test "$(score "$scratch/out/trust-ctor-$mode.json")" = "$stub_score"
done
expect "the graded tree is unchanged by them" test "$(checksum)" = "$before"
expect "nothing left in /dev/shm, /tmp, /var/tmp or the tree" test -z "$(leftovers)"
rm -rf $(leftovers) 2>/dev/null
before=$(checksum)

section "grading: deadlines, the source check, limits of a run as a whole, user mode"
# The grader's supervisor and source check themselves (built in GRADE_CACHE by the
# gradings above), then the attacks on them: each with the score it must not
# exceed and a bound on its wall time.
jail=$GRADE_CACHE/jail srccheck=$GRADE_CACHE/srccheck
for t in 0 -1 abc ""; do
    out=$("$jail" ${t:+-t "$t"} -- /bin/true 2>&1)
    rc=$?
    expect "jail refuses $([ -n "$t" ] && echo "-t $t" || echo "no -t") (exit 125, with a message: ${out:-none})" test $rc = 125 -a -n "$out"
done
"$jail" -t 0.3 -- /bin/sleep 5
expect "  and kills a command at its deadline (exit 124)" test $? = 124
# srccheck: each line a case, "ok" or the start of the refusal, then the source
# (printf %b); the linemarkers a #line would write are the attack (line-blind)
cat >"$scratch/srccases" <<'CASES'
ok|#include <stdio.h>\nint f(void) { return printf("asm __attribute__((section(\\"x\\")))"); }\n
ok|#include <asm/errno.h>\nint x = EPERM; double y = 0x1asm; /* asm */ // asm\n
ok|#define ATTR __attribute__\nint f(int section) { return section; }\n
ok|int w; /*\n*/ # line 40 "/usr/include/d.h"\n
ok|int __attribute__((unused)) x;\n
a #line directive|#line 1 "/usr/include/stdio.h"\nint x;\n
a #line directive|%:line 1 "/usr/include/stdio.h"\nint x;\n
a #line directive|??=line 1 "/usr/include/stdio.h"\nint x;\n
a #line directive|# /* c */ line 1 "/usr/include/stdio.h"\nint x;\n
a #line directive|#\\\nline 1 "/usr/include/stdio.h"\nint x;\n
a #line directive|#l\\\nine 2\n
a #line directive|/*\n*/ # line 30 "/usr/include/c.h"\nint w;\n
a #line directive|\\  \n# line 60 "/usr/include/f.h"\n
a linemarker directive|int a;\r# 1 "/usr/include/stdio.h" 3\rint x;\n
a linemarker directive|%: 20 "/usr/include/v.h" 1 3\nint y;\n
inline assembly|void f(void) { __asm__ volatile(""); }\n
inline assembly|#define A a##sm\nvoid f(void) { A(""); }\n
the attribute constructor|#define C construc##tor\n#define AT(x) __attribute__((x))\nstatic void AT(C) f(void) {}\n
the attribute __section__|static void __attribute__ ((__section__(".text.x"))) f(void) {}\n
the attribute section|#define H #\nH 1 "/usr/include/stdio.h" 3\n__attribute__((section(".x"))) int z;\n
CASES
n=0 wrong=""
while IFS='|' read -r want src; do
    n=$((n + 1))
    printf '%b' "$src" >"$scratch/case.c"
    rm -f "$scratch/case.i"
    cc -std=c11 -E "$scratch/case.c" -o "$scratch/case.i" 2>/dev/null || : >"$scratch/case.i"
    got=$("$srccheck" "$scratch/case.c" "$scratch/case.i" "$scratch/case.c" 2>&1)
    case $want in
    ok) [ -z "$got" ] || wrong="$wrong; case $n: $got" ;;
    *) case $got in "$want"*) ;; *) wrong="$wrong; case $n: '${got:-nothing}', not '$want'" ;; esac ;;
    esac
done <"$scratch/srccases"
expect "srccheck: $n cases (#line and linemarkers however spelled, macro-built asm, a # a macro puts first)${wrong:+$wrong}" test -z "$wrong"
# Linear: a 15 MB line is read a character at a time. Counted, not timed: the
# check runs under ulimit -t (CPU seconds) far below what a quadratic pass takes.
head -c 15000000 /dev/zero | tr '\0' 'a' >"$scratch/long.c" && printf ' __asm__("");\n' >>"$scratch/long.c"
out=$(ulimit -t 20; "$srccheck" "$scratch/long.c" "$scratch/long.c" "$scratch/long.c")
expect "  a 15 MB line, read to its end within 20 s of CPU (the old check: quadratic, about an hour): ${out:-nothing}" \
    has "$out" "inline assembly (__asm__, line 1)"
wrong=""
for f in solutions/[0-9][0-9]-*/*.c exercises/[0-9][0-9]-*/*.c; do
    c=$(basename "$(dirname "$f")")
    if cc -std=c11 -Iexercises/"$c" -Ilib -E "$PWD/$f" -o "$scratch/case.i" 2>/dev/null; then
        out=$("$srccheck" "$PWD/$f" "$scratch/case.i" "$PWD/$f" 2>&1)
    else
        out="cc -E fails"
    fi
    [ -z "$out" ] || wrong="$wrong; $f: $out"
done
expect "  every reference and stub passes it${wrong:+$wrong}" test -z "$wrong"
# one copy of the allow-list: tests/loop/rules.sh's rules_allow_list, which make
# check and grade.sh both use (grade.sh sources rules.sh)
allow_in=$(ls tests/grade/*.sh tests/loop/*.sh | grep -v '/test_' | xargs grep -l '__stack_chk_fail')
expect "the allow-list is written in one place ($(echo $allow_in))" test "$allow_in" = tests/loop/rules.sh

# The cgroup of a run: what this machine enforces (jail -Q tries to go over each).
probe=$("$jail" -Q -M 64 -P 64 2>&1)
echo "limits on this machine: $probe"
expect "the grader's sandbox line says which limits hold for a step as a whole" \
    grep -qE '^grade: sandbox: .*limits: [0-9]+ MiB a process, .*(a step|NOT bounded)' "$scratch/out/ref.log"
expect "  and results.json's extra_data.limits the same" \
    test "$(jq -r '.extra_data.limits | has("memory_per_step_by") and has("processes_by") and .watchdog_s == .budget_s + 30' "$scratch/out/ref.json")" = true
cat >"$scratch/hog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
/* hog MB [hold]: writes MB MiB (a byte a page), prints the sum, then holds it until
 * killed when asked; hog fork N: starts N children that wait, prints how many. */
int main(int argc, char **argv)
{
    if (argv[1][0] == 'f') {
        int n = atoi(argv[2]), started = 0;
        pid_t kid[64];
        for (int i = 0; i < n && i < 64; i++)
            if ((kid[started] = fork()) == 0) {
                pause();
                _exit(0);
            } else if (kid[started] > 0) {
                started++;
            }
        printf("%d\n", started);
        for (int i = 0; i < started; i++)
            kill(kid[i], SIGKILL), waitpid(kid[i], NULL, 0);
        return 0;
    }
    long mb = atol(argv[1]), sum = 0;
    volatile char *p = malloc((size_t)mb << 20);
    for (long i = 0; p != NULL && i < (mb << 20); i += 4096)
        sum += p[i] = 1;
    printf("%ld\n", sum);
    fflush(stdout);
    while (argc > 2)
        pause();
    return p == NULL;
}
C
hog=$opentmp/hog # run as the sandbox's uid too
cc -O1 -D_DEFAULT_SOURCE -include signal.h -o "$hog" "$scratch/hog.c" && chmod 755 "$hog"
case $probe in
"memory: cgroup"*)
    "$jail" -t 30 -M 64 -- "$hog" 256 >/dev/null 2>&1
    expect "jail -M 64: a process that writes 256 MiB is killed (exit 137)" test $? = 137
    "$jail" -t 5 -M 64 -- /bin/sh -c "$hog 40 hold & $hog 40 hold & $hog 40 hold & wait" >"$scratch/hog.out" 2>&1
    expect "  three processes that each hold 40 MiB do not fit together: $(grep -c '^10240$' "$scratch/hog.out") of 3 got there" \
        test "$(grep -c '^10240$' "$scratch/hog.out")" -lt 3
    "$jail" -t 30 -M 64 -- "$hog" 16 >/dev/null 2>&1
    expect "  one of 16 MiB runs" test $? = 0
    ;;
*) echo "skip - no memory cgroup enforced here (${probe%%;*}): the fallback, processes times address space, holds instead" ;;
esac
case $probe in
*"processes: cgroup"*)
    out=$("$jail" -t 30 -P 6 -- "$hog" fork 10 2>&1)
    expect "jail -P 6: a process starts $out of 10 children (at most 5: it is the sixth)" test "$out" -le 5
    ;;
*) echo "skip - no pids cgroup here (${probe#*; }): RLIMIT_NPROC on the run's uid holds instead" ;;
esac
out=$("$jail" -t 30 -u 1999999999 -p 4 -- "$hog" fork 10 2>&1)
[ "$(id -u)" != 0 ] || expect "jail -u UID -p 4: the uid starts $out of 10 more (RLIMIT_NPROC, the fallback)" test "$out" -le 3

# The review's hang: chapter 1's first call stops every process (the harness too),
# so its run waits out its deadline and spends the budget; chapter 2 includes
# /dev/ptmx. The budget scales with the machine (it must at least compile
# chapter 1), the bound is the budget plus the margin.
sub=$(submission sigstop sigstop include-ptmx)
b=$(sed -n 's/^grade: where the time went: //p' "$scratch/out/stub.log" | tr ',' '\n' |
    awk '$1 ~ /^(intake|prepare|compile|check|link)$/ { s += $2 } END { printf "%d", 4 * s + 12 }')
for mode in "${modes[@]}"; do
    GRADE_SANDBOX=$mode GRADE_TRUST_OBJECT=1 GRADE_BUDGET=$b grade_bg "sigstop-$mode" "$sub" $CH 02-moe
done
# The attacks below fork, open files, make IPC objects: the system-call filter
# stops them all first (the section on the call boundary shows it does), so they
# run without it (GRADE_TRUST_FILTER=1) to prove the limits and cleanups behind it.
# memory across processes: 8 children of 200 MiB each, 256 MiB a process, 1024 MiB
# a step: with a memory cgroup where there is one (bwrap), and with the fallback
# of processes times address space (user, GRADE_CGROUP=0)
sub=$(submission memory-procs memory-procs)
for mc in "${modes[0]:-}:1" "${modes[1]:-}:0"; do
    [ -n "${mc%:*}" ] || continue
    GRADE_SANDBOX=${mc%:*} GRADE_CGROUP=${mc#*:} GRADE_TRUST_OBJECT=1 GRADE_TRUST_FILTER=1 MEM_MB=256 GRADE_MEM_TOTAL_MB=1024 TIMEOUT=10 \
        GRADE_BUDGET=$ATTACK_BUDGET grade_bg "memory-procs-${mc%:*}" "$sub"
done
wait
for mode in "${modes[@]}"; do
    name=sigstop-$mode rc=$(cat "$scratch/out/sigstop-$mode.rc") secs=$(cat "$scratch/out/sigstop-$mode.secs")
    expect "sigstop + include-ptmx ($mode): $(score "$scratch/out/$name.json") points, ${secs} s for a budget of $b s, exit $rc (not the watchdog)" \
        eval '[ $rc = 0 ] && [ "$(score "$scratch/out/$name.json")" = 0 ] && within $secs $b'
    expect "  chapter 2 was not compiled once the budget was spent, or stopped at its deadline" \
        grep -qE "02-moe: (not compiled: the submission's grading time|does not compile: the compiler went over its limits)" "$scratch/out/$name.json"
done
for mode in "${modes[@]}"; do
    name=memory-procs-$mode
    [ -f "$scratch/out/$name.rc" ] || continue
    held=$(grep -o 'fixture memory-procs: [0-9]* of 8 hold 200 MiB' "$scratch/out/$name.json" | awk '{ print $3 }' | sort -n | tail -1)
    how=$(sed -n 's/^grade: sandbox: .*limits: [0-9]* MiB a process, \([^,]*\),.*/\1/p' "$scratch/out/$name.log")
    expect "memory-procs ($mode; $how): at most ${held:-?} of 8 children held 200 MiB at once, within 1024 MiB a step; $(score "$scratch/out/$name.json") points, $(cat "$scratch/out/$name.secs") s" \
        eval '[ -n "$held" ] && [ $((held * 200)) -le 1024 ] && [ "$(score "$scratch/out/$name.json")" = 0 ] && within $(cat "$scratch/out/$name.secs") $ATTACK_BUDGET'
done

# User mode: no other test binary while one runs; nothing left where any user may
# write, nor in System V IPC, nor a POSIX message queue.
if [ "$(id -u)" = 0 ]; then
    sub=$(submission read-hidden-bin read-hidden-bin)
    GRADE_SANDBOX=user GRADE_TRUST_OBJECT=1 GRADE_TRUST_FILTER=1 GRADE_BUDGET=$ATTACK_BUDGET grade_bg read-hidden-bin "$sub" $CH 02-moe
    GRADE_SANDBOX=user GRADE_TRUST_OBJECT=1 GRADE_TRUST_FILTER=1 GRADE_BUDGET=$ATTACK_BUDGET grade_bg leave-behind "$(submission leave-behind leave-behind)"
    wait
    read_bytes=$(grep -o 'fixture read-hidden-bin: read [0-9]* bytes' "$scratch/out/read-hidden-bin.json" | awk '{ print $4 }' | sort -n | tail -1)
    expect "read-hidden-bin (user): chapter 2's public tests read ${read_bytes:-?} bytes of chapter 1's hidden test binary (the old grader: all of it); $(score "$scratch/out/read-hidden-bin.json") points" \
        eval '[ "$read_bytes" = 0 ] && [ "$(score "$scratch/out/read-hidden-bin.json")" = 0 ]'
    made=$(grep -o 'fixture leave-behind: made [a-z0-9 ]*' "$scratch/out/leave-behind.json" | head -1)
    cat >"$scratch/mq.c" <<'C'
#include <fcntl.h>
#include <mqueue.h>
int main(void) { return mq_open("/chalk-fixture-mq", O_RDONLY) == (mqd_t)-1 ? 0 : 1; } /* 0: none */
C
    cc -o "$scratch/mq" "$scratch/mq.c" 2>/dev/null
    left=$(ls /run/lock/chalk-fixture-* 2>/dev/null; ipcs 2>/dev/null | grep -i 0x43484c4b; "$scratch/mq" || echo "a POSIX message queue")
    expect "leave-behind (user): it ran ($made), and left nothing in /run/lock, System V IPC or a message queue${left:+: $left}" \
        eval 'has "$made" "made lock 1 mq 0 shm 1 sem 1 msg 1" && [ -z "$left" ]'
else
    echo "skip - user mode needs root: read-hidden-bin, leave-behind"
fi

# The watchdog (started in the background after the stubs were graded).
while [ ! -f "$scratch/out/watchdog.secs" ]; do sleep 1; done
rc=$(cat "$scratch/out/watchdog.rc") secs=$(cat "$scratch/out/watchdog.secs")
# When it fired, from the budget's start (results.json): the clean-up after it (the
# wall time, $secs s) depends on the machine's load, the firing does not.
fired=$(jq -r '.extra_data.watchdog_fired_s // "none"' "$scratch/out/watchdog.json" 2>/dev/null)
expect "the watchdog ends a grading stuck outside any step at 3 + $MARGIN s (it fired at $fired s; all done in $secs s): exit 2, results.json score 0 saying so" \
    eval '[ $rc = 2 ] && [ "$(score "$scratch/out/watchdog.json")" = 0 ] && grep -q "the grading was stopped" "$scratch/out/watchdog.json" && awk -v t="$fired" -v w=$((3 + MARGIN)) "BEGIN { exit !(t + 0 == t && t >= w - 1 && t < w + 5) }"'
expect "  and nothing it started is left running" eval '! pgrep -f "sleep 987" >/dev/null'
expect "the graded tree is unchanged by these" test "$(checksum)" = "$before"
before=$(checksum)

# The call boundary, buffers, strings, TMPDIR and tarballs: a file of their own.
. "$here/tests/grade/test_grade_boundaries.sh"

section "grading: the time budget"
# The budget: twice what it took here to get the stubs ready to run (intake,
# compile, checks, link: grade.sh says where its time went), plus 3.5 s for a few of
# the hanging tests (1 s each, wall clock). It scales with the machine's speed and
# load, and stays below the 15 s that chapter 1's 15 hanging tests alone take.
sub=$(submission budget hang)
ready=$(sed -n 's/^grade: where the time went: //p' "$scratch/out/stub.log" | tr ',' '\n' |
    awk '$1 ~ /^(intake|prepare|compile|check|link)$/ { s += $2 } END { printf "%.2f", s }')
b=$(awk -v s="$ready" 'BEGIN { printf "%d", 2 * s + 3.5 }')
GRADE_TRUST_OBJECT=1 GRADE_BUDGET=$b TIMEOUT=1 grade budget "$sub"
expect "a submission whose tests all hang ends within its budget and the margin, not by the watchdog ($b s budget: ${secs} s, exit $rc)" \
    eval '[ $rc = 0 ] && within $secs $b'
expect "  the tests it could not run say so" grep -q 'ran out' "$scratch/out/budget.json"
expect "  the ones it ran name the endless loop" grep -q 'did not finish within 1 s' "$scratch/out/budget.json"

section "grading: a test's limit is CPU time, with a wall-clock backstop"
# TIMEOUT is CPU seconds of a test's processes together (harness.c), so a loaded
# machine does not fail a correct test; a test that uses no CPU (stopped, blocked)
# ends at the backstop, WALL_BACKSTOP (10) times TIMEOUT of wall-clock time.
GRADE_BUDGET=$ATTACK_BUDGET TIMEOUT=0.5 grade_bg cpu-hang "$(submission cpu-hang hang)"
GRADE_BUDGET=$ATTACK_BUDGET TIMEOUT=0.3 GRADE_TRUST_OBJECT=1 grade_bg stall "$(submission stall stall)"
wait
n_cpu=$(jq '[.tests[] | select(.output | test("did not finish within 0.5 s of CPU time"))] | length' "$scratch/out/cpu-hang.json")
expect "a busy loop (hang) fails at its CPU limit: $n_cpu tests \"did not finish within 0.5 s of CPU time\", $(score "$scratch/out/cpu-hang.json") points, $(cat "$scratch/out/cpu-hang.secs") s" \
    eval '[ "$(cat "$scratch/out/cpu-hang.rc")" = 0 ] && [ "$n_cpu" -gt 0 ] && [ "$(score "$scratch/out/cpu-hang.json")" = "$stub_score" ] && within "$(cat "$scratch/out/cpu-hang.secs")" $ATTACK_BUDGET'
n_wall=$(jq '[.tests[] | select(.output | test("did not finish within 3 s of wall-clock time"))] | length' "$scratch/out/stall.json")
expect "calls that stop themselves or block (stall) end at the backstop: $n_wall tests \"did not finish within 3 s of wall-clock time\", $(score "$scratch/out/stall.json") points, $(cat "$scratch/out/stall.secs") s" \
    eval '[ "$(cat "$scratch/out/stall.rc")" = 0 ] && [ "$n_wall" -gt 0 ] && [ "$(score "$scratch/out/stall.json")" = "$stub_score" ] && within "$(cat "$scratch/out/stall.secs")" $ATTACK_BUDGET'
# The reference beside 4 x cores busy loops at our own niceness (gradescope-check
# once lost 3 points of 02-moe at a load of 40 when the limit was wall-clock: its
# rng tests use about 0.4 s of CPU each, several seconds of wall time there).
hogs=$((4 * $(nproc))) hog_pids=()
for _ in $(seq "$hogs"); do
    timeout 900 sh -c 'while :; do :; done' & # ended below; at the latest in 15 minutes
    hog_pids+=($!)
done
grade ref-hogs solutions 01-batching 02-moe
load=$(cut -d' ' -f1 /proc/loadavg)
kill "${hog_pids[@]}" 2>/dev/null
wait "${hog_pids[@]}" 2>/dev/null
full_hogs=$(maxof "$scratch/out/ref-hogs.json")
expect "the reference scores full marks in chapters 1 and 2 beside $hogs busy loops ($(score "$scratch/out/ref-hogs.json") of $full_hogs, ${secs} s, load $load)" \
    test "$rc" = 0 -a -n "$full_hogs" -a "$(score "$scratch/out/ref-hogs.json")" = "$full_hogs"
expect "  the sandbox line says the limit is CPU time, and its backstop" \
    grep -q '^grade: sandbox: .*, 2 s of CPU a test (wall-clock backstop 20 s), ' "$scratch/out/ref-hogs.log"

section "grading: reports"
grade hostile-output "$(submission hostile-output hostile-output)"
expect "results.json is valid JSON when the code prints backslashes, quotes, control bytes, invalid UTF-8" \
    eval 'jq -e ".tests | length > 0" "$scratch/out/hostile-output.json" >/dev/null'
printed=$(jq -r '[.tests[].output | select(test("Your code printed"))][0]' "$scratch/out/hostile-output.json")
expect "  and shows what was printed, invalid bytes replaced" eval 'has "$printed" "back\\slash \"quote\"" && has "$printed" "invalid �"'
grade compile-hostile "$(submission compile-hostile compile-hostile)"
expect "results.json is valid JSON for a compiler message with the same" \
    eval 'jq -r ".tests[0].output" "$scratch/out/compile-hostile.json" | grep -F "back\\slash \"quote\" invalid" >/dev/null'
bad_json=$(for f in "$scratch"/out/*.json; do jq -e . "$f" >/dev/null 2>&1 || echo "$(basename "$f")"; done)
expect "every results.json written above is valid JSON${bad_json:+ (not: $bad_json)}" test -z "$bad_json"
bad_format=$(for f in "$scratch"/out/*.json; do
    jq -r -f tests/grade/gradescope/results.jq "$f" 2>&1 | sed "s|^|$(basename "$f"): |"; done | head -3)
expect "  and follows Gradescope's format (tests/grade/gradescope/results.jq)${bad_format:+: $bad_format}" test -z "$bad_format"
expect "  (that format check finds a score that is a string and a status Gradescope does not know)" \
    test "$(jq -r -f tests/grade/gradescope/results.jq <<<'{"score": "1", "tests": [{"name": "t", "score": 1,
        "max_score": 1, "status": "ok"}]}' | grep -c -e 'score is not a number' -e 'status is "ok"')" = 2

section "grading: Gradescope's wrapper"
ag=$scratch/autograder
mkdir -p "$ag/source" "$ag/submission" "$ag/results"
ln -s "$tree" "$ag/source/chalk"
cp tests/grade/gradescope/run_autograder "$ag/"
cp "$ref" "$ag/submission/"
out=$(AUTOGRADER=$ag "$ag/run_autograder" 2>&1)
expect "run_autograder without a configured chapter: results.json says so, score 0" \
    test "$(score "$ag/results/results.json")" = 0 -a "$(grep -c 'chapter' "$ag/results/results.json")" -gt 0
echo 01 >"$ag/source/chapter"
out=$(AUTOGRADER=$ag "$ag/run_autograder" 2>&1)
expect "run_autograder grades the uploaded .c file for the configured chapter (full marks)" \
    test "$(score "$ag/results/results.json")" = "$full"
rm "$ag/source/chapter" "$ag/submission/batching.c"
printf '{"assignment": {"title": "Chapter 1: batching"}}\n' >"$ag/submission_metadata.json"
cp "$scratch/sub/stub.tar.gz" "$ag/submission/"
out=$(AUTOGRADER=$ag "$ag/run_autograder" 2>&1)
expect "  or the chapter from the assignment's title, and an uploaded tarball (stubs: 0)" \
    test "$(score "$ag/results/results.json")" = 0 -a "$(jq '.tests | length' "$ag/results/results.json")" = "$n_tests"

if command -v zip >/dev/null 2>&1 && command -v unzip >/dev/null 2>&1; then
    out=$(make -s gradescope CH=01 2>&1)
    expect "make gradescope CH=01 zips setup.sh, run_autograder, the chapter and the course at the top" \
        eval 'unzip -Z1 build/gradescope-01.zip | grep -xc -e setup.sh -e run_autograder -e chapter -e chalk/solutions/$CH/batching.c | grep -x 4 >/dev/null'
else
    echo "skip - make gradescope: no zip/unzip here"
fi

section "grading: the gradebook (make grade-all)"
class=$scratch/class
mkdir -p "$class"
# graded: alice (the reference), bob twice (a directory and a tarball of the stubs);
# refused for its name, not graded: "alice<newline>" (the stubs: graded as "alice",
# as the old gradebook did, it would overwrite alice's results.json), a tab, an
# invisible direction mark; refused at once (nothing to grade in them), for their
# names: the rest
mkdir -p "$class/alice" "$class/bob, the \"builder\"" "$class/alice"$'\n' && cp -r "solutions/$CH" "$class/alice/" &&
    cp -r "exercises/$CH" "$class/bob, the \"builder\"/" && cp -r "exercises/$CH" "$class/alice"$'\n/'
cp "$scratch/sub/stub.tar.gz" "$class/bob, the \"builder\".tar.gz" # a second submission for bob
formulas=("=HYPERLINK(\"http://x\")" '+1' '-2' '@SUM(A1)' ' =1+1' '  @A1')
for n in "${formulas[@]}" ';=1+1' 'x;=2+2' 'max' $'new\nline' $'\t=1+1' $'\xe2\x80\xaeevil' carol $'Jos\xc3\xa9' $'Jose\xcc\x81'; do
    mkdir -p "$class/$n" && echo notes >"$class/$n/notes.txt"
done
OUT=$scratch/book.csv tests/grade/grade-all.sh "$class" "$CH" >"$scratch/book.log" 2>&1
book=$scratch/book.csv
# the gradebook as a CSV reader (RFC 4180) sees it: a line per row, its fields
# separated by \037
awk '{
    out = ""; f = ""; q = 0
    for (i = 1; i <= length($0); i++) {
        c = substr($0, i, 1)
        if (q) { if (c == "\"" && substr($0, i + 1, 1) == "\"") { f = f c; i++ } else if (c == "\"") q = 0; else f = f c }
        else if (c == "\"") q = 1
        else if (c == ",") { out = out f "\037"; f = "" }
        else f = f c
    }
    print out f
}' "$book" >"$scratch/book.cells"
expect "grade-all writes a gradebook with a header" grep -qx "kind,student,$CH,total,note" "$book"
expect "  the max row is marked as such ($(grep '^max,' "$book")), apart from a student called max" \
    test "$(grep -c "^max,\"\",$full,$full,\"points possible\"" "$book")" = 1 -a "$(grep -c '^student,"max",' "$book")" = 1
expect "  alice has full marks, flagged: \"alice<newline>\" is her name once folded" \
    grep -q "^student,\"alice\",$full,$full,\"DUPLICATE: 2 submissions" "$book"
expect "  \"alice<newline>\" is refused for its name, not graded, and alice's results.json is hers" \
    eval 'grep -qF "student,\"alice\\n\",0,0,\"DUPLICATE: 2 submissions" "$book" && grep -F "student,\"alice\\n\"" "$book" | grep -qF "refused: the name holds a control character (\\x0a)" &&
        [ "$(ls build/grade/all/ | grep -c "^alice")" = 1 ] && [ "$(score build/grade/all/alice/results.json)" = "$full" ]'
expect "  so are names with a tab or an invisible direction mark" \
    test "$(grep -cE 'refused: the name holds (a control character \(\\x09\)|an invisible direction mark)' "$book")" = 2
expect "  a name with a comma and quotes is quoted and escaped" grep -qF 'student,"bob, the ""builder""",' "$book"
expect "  two submissions for one name are both there, flagged" \
    test "$(grep -F 'bob, the' "$book" | grep -c 'DUPLICATE')" = 2
if perl -MUnicode::Normalize -e 1 2>/dev/null; then
    expect "  José composed and decomposed (NFC, NFD) are one name: both flagged" \
        test "$(grep -F 'Jos' "$book" | grep -c 'DUPLICATE')" = 2
else
    echo "skip - no perl Unicode::Normalize here: names are compared without Unicode composition"
fi
expect "  every text cell is quoted (a comma or a ; inside starts no cell)" \
    test "$(grep -vc '^kind,' "$book")" = "$(grep -cE '^(student|max),"([^"]|"")*",.*,"([^"]|"")*"$' "$book")"
bad_cells=$(awk -F'\037' '{ for (i = 2; i <= NF; i++) { c = $i; sub(/^[ ]+/, "", c); if (c ~ /^[=+@\t\r\n-]/) print $i } }' "$scratch/book.cells")
defused=$(grep -c "^student,\"'" "$book")
expect "  no cell starts with = + - @ (OWASP's list, after any blanks) or a tab, CR or LF: $defused names defused with a '${bad_cells:+; not: $bad_cells}" \
    test -z "$bad_cells" -a "$defused" = ${#formulas[@]}
expect "  a name with a newline is escaped, never split" grep -qF 'student,"new\nline",' "$book"
expect "  every row has the same number of fields (a CSV reader agrees)" \
    test "$(awk -F'\037' '{ print NF }' "$scratch/book.cells" | sort -u | wc -l)" = 1
expect "  carol's unusable submission has a note" grep -q '^student,"carol",0,0,".*refused' "$book"
expect "  each submission's results.json is kept apart (both of bob's)" \
    test "$(ls build/grade/all/ | grep -c '^bob, the')" = 2

# The student handout: a file of its own.
. "$here/tests/grade/test_grade_handout.sh"

finish
