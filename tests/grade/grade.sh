#!/usr/bin/env bash
# grade.sh -- the body of `make grade SUBMISSION=path`: grades a student's exercises
# against the instructor's tests, the hidden ones (tests/NN-topic/hidden/) included,
# without trusting anything the student wrote.
#
#   tests/grade/grade.sh SUBMISSION [CHAPTER...]     (default: every chapter)
#
# SUBMISSION: a directory or tarball (see tests/grade/intake.sh for what is taken and
# what is refused). Headers, tests and points are always the instructor's. A
# submission is graded in steps, each under a deadline charged to the submission's
# budget (GRADE_BUDGET); no step starts once the budget is spent:
#   1. intake    its .c files are copied out as plain files (intake.sh);
#   2. compile   in the sandbox (sandbox.sh), where the compiler sees the student's
#                .c files, the chapter's contract (exercises/NN-topic/*.h, lib/*.h)
#                and /usr, nothing else; first preprocessed, and refused unless every
#                file it included is a system header or the contract and the source
#                check (srccheck.c, in the sandbox too: linear in its input) finds
#                no #line or linemarker directive in the file, and no asm and no
#                attribute that places code or runs it at load time in the
#                student's own lines; then compiled, under a time and memory
#                limit, with caret diagnostics off (no line of any file is quoted);
#   3. check     the object (objcheck below; binutils under a deadline): it defines
#                as globals only the contract's functions, calls only the
#                allow-list (libm, lib/, the compiler's own helpers, memory,
#                printing, a few pure C library functions), has no constructor,
#                destructor, ifunc, executable stack or system call instruction. A
#                broken rule scores the chapter zero, the message naming the rule. A
#                lint that explains refusals early: the boundary is step 4's
#                processes and system-call filter;
#   4. run       the tests, linked with the checked object and the grading harness
#                (harness.c: each test in its own process, every call into the
#                student's code in another process under a seccomp filter, its
#                buffers carried as tests/grade/buffers.txt sizes them (wrap.sh),
#                verdicts written by the harness alone on a descriptor the student's
#                code never holds), in the sandbox, one process tree per test
#                binary, killed whole at its deadline. Each binary is linked into a
#                directory of its own just before it runs and removed after: no
#                other test binary exists while it runs.
# The points (tests/NN-topic/points.txt, else the exercise's stars), the hidden test
# sources and the results stay outside anything a step can read or write.
#
# A watchdog (jail.c, the same that bounds each step) surrounds the whole grading:
# at GRADE_BUDGET plus a fixed margin of GRADE_MARGIN_S (30 s, for the work after
# the budget runs out: the last step's end, the report) it kills everything the
# grading started and writes a results.json with score 0 that says so. Nothing a
# submission holds can keep grade.sh running longer. Before it, what does not
# depend on the submission and is done once per GRADE_CACHE: building jail.c and
# srccheck.c, and in user mode finding where any user may write (sandbox.sh).
#
# Writes OUT (default build/grade/results.json) in Gradescope's format with jq,
# prints the sandbox mode and its limits, where the time went (intake, prepare: the
# instructor's side and the sandbox, compile: with the source check, check: the
# object, link, run, report; also in extra_data.seconds) and one summary line,
# exits 0. A
# submission refused at intake still gets an OUT with score 0 and the reason, and
# one line on stderr, exit 2; so does a missing SUBMISSION, and a grading the
# watchdog ended.
#   TIMEOUT=s            CPU seconds per test (2), its processes together; a test
#                        also ends at WALL_BACKSTOP (10) times that in wall-clock
#                        time (a stopped or blocked one: harness.c)
#   MEM_MB=n             address space (512)
#   GRADE_BUDGET=s       the whole submission (240): when it runs out, the steps
#                        not yet run score 0, marked so
#   GRADE_SANDBOX=mode   bwrap | user | none (sandbox.sh; default: the best here)
#   GRADE_MEM_TOTAL_MB=n one step's processes together (3072; sandbox.sh)
#   ALLOW_MISSING=1      a chapter missing from the submission scores 0 (grade-all)
#   HIDDEN_VISIBILITY=v  Gradescope visibility of hidden tests (after_published)
#   SCORES=file          also write "chapter<TAB>score<TAB>max" lines there
#   GRADE_CACHE=dir      keep the instructor's compiled tests there (grade-all)
#   GRADE_KEEP=1         leave the scratch directory (its path on stderr)
#   GRADE_TRUST_OBJECT=1 skip step 3 (only for the grader's own tests: it proves
#                        the sandbox holds without the object checks)
#   GRADE_TRUST_FILTER=1 no system-call filter in the calls (only for the grader's
#                        own tests: they prove the sandbox's limits and cleanups
#                        hold behind it)
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/loop/lib.sh
. tests/grade/intake.sh
. tests/grade/sandbox.sh
# the object rules' filters (rules_why_sections, rules_why_symbols) and the allow-list
# (rules_allow_list), shared with make check; grade.sh defines its own objcheck
# (binutils run in its jail) after this line; its source check is srccheck.c
. tests/loop/rules.sh

SUB=${1:-}
[ $# -gt 0 ] && shift
OUT=${OUT:-build/grade/results.json}
TIMEOUT=${TIMEOUT:-2}
WALL_BACKSTOP=10 # a test's wall-clock backstop, in multiples of its CPU limit (harness.c's)
MEM_MB=${MEM_MB:-512}
BUDGET=${GRADE_BUDGET:-240}
GRADE_MARGIN_S=30
STEP_MIN_S=0.5 # no step starts with less of the budget left
HIDDEN_VISIBILITY=${HIDDEN_VISIBILITY:-after_published}
CC=$(readlink -f "$(command -v "${CC:-cc}")") && [ -x "$CC" ] || {
    echo "grade: no C compiler (${CC:-cc}); tests/deps.sh test installs one" >&2
    exit 2
}
TRUSTED_CFLAGS=(-std=c11 -O1 -w)
STUDENT_CFLAGS=(-std=c11 -O1 -w -pipe -fno-diagnostics-show-caret -fdiagnostics-color=never)
t_start=${CHALK_GRADE_T0:-$(date +%s.%N)}

# Writes stdin to OUT through a new file beside it (mktemp: never through a name
# someone else made, even in a shared directory), renamed into place at the end.
write_out() {
    local tmp
    mkdir -p "$(dirname "$OUT")" && tmp=$(mktemp "$OUT.XXXXXX") || return 1
    cat >"$tmp" && chmod 644 "$tmp" && mv -f "$tmp" "$OUT" || {
        rm -f "$tmp"
        return 1
    }
}

# A results.json for a submission refused whole: score 0, the reason; exit 2.
# (reject WHY [WHAT]: WHAT happened, "refused" unless said.)
reject() {
    local why=$1 what=${2:-refused}
    # (WATCHDOG_FIRED_S: when the watchdog ended the grading, before its clean-up)
    jq -n --arg why "$why" --arg what "$what" --argjson t "$(elapsed)" --argjson fired "${WATCHDOG_FIRED_S:-null}" \
        '{score: 0, execution_time: $t,
        output: ("Chalk: submission " + $what + ": " + $why), output_format: "text",
        visibility: "visible", stdout_visibility: "hidden", tests: []}
        + (if $fired == null then {} else {extra_data: {watchdog_fired_s: $fired}} end)' 2>/dev/null | write_out
    echo "grade: ${SUB:-(no submission)}: $what: $why" >&2
    exit 2
}
die() {
    echo "grade: $*" >&2
    exit 2
}
elapsed() { awk -v a="$t_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
# The seconds a step capped at $1 may take: the cap or what is left of the budget,
# whichever is less; fails (prints nothing) when less than STEP_MIN_S is left.
step_secs() { awk -v a="$t_start" -v b="$(date +%s.%N)" -v B="$BUDGET" -v c="$1" -v m="$STEP_MIN_S" \
    'BEGIN { l = B - (b - a); if (l < m) exit 1; print (c < l ? c : l) }'; }

# Where the time goes, per kind of step (printed at the end, and in results.json):
# charge KIND gives KIND the time since the last charge (microseconds, no fork).
declare -A spent_us=()
since_us=${EPOCHREALTIME//[!0-9]/}
charge() {
    local now=${EPOCHREALTIME//[!0-9]/}
    spent_us[$1]=$((${spent_us[$1]:-0} + now - since_us))
    since_us=$now
}
spent() { # "intake 0.12 s, ..." in the order the steps come
    local k out=""
    for k in intake prepare compile check link run report; do
        [ -n "${spent_us[$k]:-}" ] || continue
        out="${out:+$out, }$k $(printf '%d.%02d' $((spent_us[$k] / 1000000)) $((spent_us[$k] % 1000000 / 10000))) s"
    done
    printf '%s' "$out"
}

case $BUDGET in '' | *[!0-9]* | 0*) die "GRADE_BUDGET must be a whole number of seconds over 0, not '$BUDGET'" ;; esac
command -v jq >/dev/null 2>&1 || tests/deps.sh grade >&2 || die "jq is needed (tests/deps.sh grade installs it)"

# ---- the watchdog: this script again, under jail, at most BUDGET + GRADE_MARGIN_S --
# The scratch directory (traversable, not listable) holds secret/ (the grader's
# alone) and box/ (what a sandboxed step may be shown); the watchdog makes it and
# the sandbox's uid, so that it can clean up after a grading it had to kill.
# others_can_pass DIR: every directory from / down to DIR (symbolic links resolved)
# lets any user through (o+x): the sandbox's uid must reach box/ (bwrap binds it as
# that uid; user mode runs as it).
others_can_pass() {
    local d
    d=$(realpath -e -- "$1" 2>/dev/null) && [ -d "$d" ] || return 1
    while :; do
        [ -n "$(find "$d" -maxdepth 0 -perm -0001 2>/dev/null)" ] || return 1
        [ "$d" != / ] || return 0
        d=$(dirname "$d")
    done
}
# scratch_base: where the scratch directory goes: the first of TMPDIR (else /tmp),
# /tmp and /var/tmp, resolved, whose path has no blank (the sandbox's lists of
# paths are split at blanks) and, as root (the sandbox runs as another uid), that
# any user can pass through. make grade's sandbox line says when it is not TMPDIR;
# none: an error.
scratch_base() {
    local d r
    for d in "${TMPDIR:-/tmp}" /tmp /var/tmp; do
        r=$(realpath -e -- "$d" 2>/dev/null) && [ -d "$r" ] || continue
        [[ $r != *[[:space:]]* ]] || continue
        if [ "$(id -u)" != 0 ] || others_can_pass "$r"; then
            printf '%s\n' "$r"
            return
        fi
    done
    die "no scratch directory: TMPDIR (${TMPDIR:-/tmp}), /tmp and /var/tmp each have a blank in their path or are closed to other users (the sandbox's uid must pass through): set TMPDIR to a directory without blanks that every user may pass through (o+x on it and each above it)"
}

if [ -z "${CHALK_GRADE_INNER:-}" ]; then
    base=$(scratch_base) || exit 2
    work=$(mktemp -d "$base/chalk-grade.XXXXXX") || die "no scratch directory in $base"
    chmod 711 "$work"
    mkdir -m 700 "$work/secret" && mkdir -m 755 "$work/box" || die "no scratch directory"
    cache=${GRADE_CACHE:-$work/secret/cache}
    mkdir -p "$cache" && sandbox_build "$cache" || die "the grader's helpers (tests/grade/jail.c, srccheck.c) do not build"
    uid=""
    [ "$(id -u)" != 0 ] || uid=$(sandbox_free_uid)
    trap 'if [ -n "${GRADE_KEEP:-}" ]; then echo "grade: GRADE_KEEP: the scratch directory is $work" >&2; else rm -rf "$work"; fi' EXIT
    # User mode's list of the places any user may write: a walk of the whole tree,
    # once per cache, whatever the submission: before the clock starts
    SANDBOX_UID=$uid
    if [ -n "$uid" ] && { [ "${GRADE_SANDBOX:-}" = user ] || { [ "${GRADE_SANDBOX:-auto}" = auto ] && ! sandbox_bwrap_works; }; }; then
        sandbox_writable_dirs "$cache" >/dev/null
    fi
    t_start=$(date +%s.%N) # the budget and the watchdog count from here
    CHALK_GRADE_INNER=1 CHALK_GRADE_WORK=$work CHALK_GRADE_UID=$uid CHALK_GRADE_T0=$t_start \
        "$JAIL" -t "$(awk -v a="$t_start" -v b="$(date +%s.%N)" -v B="$((BUDGET + GRADE_MARGIN_S))" \
        'BEGIN { l = B - (b - a); printf "%.2f", (l > 1 ? l : 1) }')" -- "$PWD/tests/grade/grade.sh" "$SUB" "$@"
    rc=$?
    [ $rc != 125 ] || die "the watchdog (tests/grade/jail.c) could not run the grading"
    [ $rc = 124 ] || exit $rc
    WATCHDOG_FIRED_S=$(elapsed) # the time it fired: what follows is its clean-up
    # the watchdog fired: what the grading left, removed; a results.json that says so
    if [ -n "$uid" ]; then
        SANDBOX_MODE=user SANDBOX_UID=$uid
        # the list user mode made before its first step (none: no step ran as user)
        SANDBOX_WRITABLE=$(cat "$cache/writable-dirs" 2>/dev/null)
        sandbox_cleanup
    fi
    reject "it ran over its time (GRADE_BUDGET $BUDGET s plus $GRADE_MARGIN_S s; this should not happen, please report it)" "not graded: the grading was stopped"
fi

work=$CHALK_GRADE_WORK
cleanup() {
    sandbox_cleanup 2>/dev/null
    [ -n "${GRADE_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

[ -n "$SUB" ] || reject "say what to grade: make grade SUBMISSION=path (a directory or tarball of exercises/)"
[ -e "$SUB" ] || [ -L "$SUB" ] || reject "no such file or directory: $SUB"
[ $# -gt 0 ] || set -- $(loop_chapters)
for ch in "$@"; do [ -d "tests/$ch" ] && [ -d "exercises/$ch" ] || die "no chapter $ch"; done

secret=$work/secret box=$work/box
mkdir -m 755 "$box/src" "$box/cc" "$box/run" "$box/contract" "$box/tools"
chmod 711 "$box/run"
cache=${GRADE_CACHE:-$secret/cache}
mkdir -p "$cache"

intake "$SUB" "$secret/in" "$@" || reject "$INTAKE_WHY"
charge intake
sandbox_init "$cache" || die "no way to run the submission here"
cp "$SRCCHECK" "$box/tools/srccheck" && chmod 755 "$box/tools/srccheck" || die "cannot copy srccheck"
# the compiler's address space: 1 GiB, less when the step's processes (the driver,
# cc1, as) times it would not stay within GRADE_MEM_TOTAL_MB
COMPILE_MB=$((SANDBOX_MEM_TOTAL_MB / 3 < 1024 ? SANDBOX_MEM_TOTAL_MB / 3 : 1024))
case $work in "$(realpath -m -- "${TMPDIR:-/tmp}")"/*) ;;
*) SANDBOX_NOTE="$SANDBOX_NOTE; scratch in ${work%/*}, as TMPDIR ($TMPDIR) is closed to other users or has a blank in its path" ;;
esac
echo "grade: sandbox: $SANDBOX_NOTE"
exposed=$(sandbox_exposed solutions tests/*/hidden tests/*/points.txt)
[ -z "$exposed" ] || echo "grade: WARNING: the sandbox uid can read $exposed: chmod -R o-rwx them (setup.sh does on Gradescope)" >&2

# ---- the instructor's side, compiled once (and kept in GRADE_CACHE) ----------------

# Objects of lib/, the allow-list of what a student's object may call, the harness.
prep_common() {
    local f
    [ -f "$cache/allow.syms" ] && return 0
    mkdir -p "$cache/lib"
    for f in lib/*.c; do
        $CC "${TRUSTED_CFLAGS[@]}" -Ilib -c "$f" -o "$cache/lib/$(basename "$f" .c).o" || return 1
    done
    CC=$CC tests/grade/harness-build.sh "$cache/harness.o" "${TRUSTED_CFLAGS[@]}" || return 1
    # the allow-list: make check's (tests/loop/rules.sh), one copy for both
    CC=$CC rules_allow_list "$cache"/lib/*.o >"$cache/allow.syms.tmp" && [ -s "$cache/allow.syms.tmp" ] &&
        mv "$cache/allow.syms.tmp" "$cache/allow.syms"
}

# Chapter $1: the contract in the box, the wrappers, the test objects, the names.
prep_chapter() {
    local ch=$1 kind f files key
    mkdir -p "$cache/$ch" "$box/contract/$ch"
    # readable by the sandbox uid whatever the course's modes (setup.sh makes them 600)
    install -m 644 exercises/"$ch"/*.h lib/*.h "$box/contract/$ch/"
    [ -f "$cache/$ch/ready" ] && return 0
    tests/grade/wrap.sh "$ch" "$cache/$ch/wrap.c" >"$cache/$ch/fns" || return 1
    $CC "${TRUSTED_CFLAGS[@]}" -Itests/grade -Ilib -Iexercises/"$ch" -c "$cache/$ch/wrap.c" -o "$cache/$ch/wrap.o" || return 1
    for kind in public hidden; do
        if [ $kind = public ]; then files=(tests/"$ch"/*.c); else files=(tests/"$ch"/hidden/*.c); fi
        [ -f "${files[0]}" ] || continue
        mkdir -p "$cache/$ch/$kind"
        printf '%s\n' "${files[@]}" >"$cache/$ch/$kind.sources"
        for f in "${files[@]}"; do # relative paths: cmocka's messages name tests/... files
            $CC "${TRUSTED_CFLAGS[@]}" -include tests/grade/harness.h -Ilib -Iexercises/"$ch" \
                -c "$f" -o "$cache/$ch/$kind/$(basename "$f" .c).o" || return 1
        done
        # the names, from the tests alone (no student object: its functions are null)
        $CC -o "$cache/$ch/$kind.names-bin" "$cache/$ch/$kind"/*.o "$cache/harness.o" \
            "$cache/$ch/wrap.o" "$cache"/lib/*.o -lcmocka -lseccomp -lm || return 1
        CHALK_LIST=1 "$cache/$ch/$kind.names-bin" >"$cache/$ch/$kind.names" || return 1
        # name <TAB> points
        while IFS= read -r f; do
            if [ $kind = hidden ]; then key="hidden/$f"; else key=$f; fi
            printf '%s\t%s\n' "$f" "$(points_of "$ch" "$key" "${f%%: *}")"
        done <"$cache/$ch/$kind.names" >"$cache/$ch/$kind.points"
    done
    touch "$cache/$ch/ready"
}

# ---- the student's side ---------------------------------------------------------------

# What binutils say of object $1, into directory $2 (sections, symbols, the count of
# system call instructions), within $3 seconds: the object is the student's, so
# the tools run under a deadline and limits (jail), charged to the budget.
inspect() {
    local o=$1 d=$2 secs=$3
    mkdir -p "$d"
    tool_run "$secs" 1024 -- /bin/bash -c 'readelf -SW "$1" >"$2/sections" && nm -P "$1" >"$2/symbols" || exit 1
        objdump -d --no-show-raw-insn "$1" | grep -cE "[[:space:]](syscall|sysenter|int[[:space:]]+\\\$0x80)([[:space:]]|\$)" >"$2/syscalls"
        [ "${PIPESTATUS[0]}" = 0 ]' bash "$o" "$d" 2>/dev/null
}

# Object check of what inspect found in directory $1 (the chapter's contract
# function names in $2): prints every rule broken, joined by "; ", nothing when
# there is none.
objcheck() {
    local d=$1 fns=$2 why="" w
    w=$(sed -n 's/^ *\[ *[0-9]*\] //p' "$d/sections" | rules_why_sections)
    [ -z "$w" ] || why=$w
    w=$(rules_why_symbols "$fns" "$cache/allow.syms" <"$d/symbols")
    [ -z "$w" ] || why=${why:+$why; }$w
    [ "$(cat "$d/syscalls")" = 0 ] || why=${why:+$why; }"a system call instruction"
    [ -z "$why" ] || echo "$why"
}

# Compiles chapter $1's submitted files in the sandbox and checks them. On success
# the renamed objects are in $secret/$1/sub/; on failure, $why says what happened.
compile_chapter() {
    local ch=$1 f b rc dep bad srcbad o cc=$box/cc/$1 src=$box/src/$1 con=$box/contract/$1 step secs
    local out_of_time="not compiled: the submission's grading time ($BUDGET s) ran out"
    mkdir -m 755 -p "$src" "$cc" "$secret/$ch/sub"
    cp "$secret/in/$ch"/*.c "$src/" && chmod 644 "$src"/*.c
    sandbox_own "$cc"
    for f in "$src"/*.c; do
        b=$(basename "$f" .c)
        srcbad=""
        for step in preprocess check compile; do
            secs=$(step_secs 30) || {
                why=$out_of_time
                return 1
            }
            case $step in
            preprocess)
                sandbox_run "$secs" "$COMPILE_MB" "$cc" "$src $con" -- \
                    "$CC" "${STUDENT_CFLAGS[@]}" -I"$con" -E -MD -MF "$cc/$b.d" -MT "$b.o" "$f" -o "$cc/$b.i" \
                    >"$secret/$ch/$b.$step.log" 2>&1
                ;;
            check) # the source check: the preprocessor's output as it wrote it
                sandbox_run "$secs" 256 "" "$src $cc $box/tools" -- "$box/tools/srccheck" "$f" "$cc/$b.i" "$f" \
                    >"$secret/$ch/$b.$step.log" 2>&1
                ;;
            compile)
                cp "$secret/$ch/$b.i" "$cc/$b.i.ok" && sandbox_own "$cc/$b.i.ok"
                sandbox_run "$secs" "$COMPILE_MB" "$cc" "$con" -- \
                    "$CC" "${STUDENT_CFLAGS[@]}" -fpreprocessed -x cpp-output -c "$cc/$b.i.ok" -o "$cc/$b.o" \
                    >"$secret/$ch/$b.$step.log" 2>&1
                ;;
            esac
            rc=$?
            charge compile
            if [ $step = check ]; then
                if [ $rc != 0 ]; then
                    why="refused: $b.c: the source check did not finish (exit $rc, $secs s)"
                    return 1
                fi
                # a broken source rule refuses the file, after the object's rules are read
                # too (compiled in the sandbox, never run): every rule named in one
                # run, as make check names them
                srcbad=$(head -1 "$secret/$ch/$b.$step.log")
                continue
            fi
            if [ $rc = 124 ] || [ $rc -gt 128 ] ||
                grep -qE 'out of memory|virtual memory exhausted|Killed signal|File size limit|jail: the memory' "$secret/$ch/$b.$step.log"; then
                why="does not compile: the compiler went over its limits ($secs s, $COMPILE_MB MiB) on $b.c"
                return 1
            elif [ $rc != 0 ] && [ -n "$srcbad" ]; then
                why="refused: $b.c: $srcbad"
                return 1
            elif [ $rc != 0 ]; then
                # only the messages about the student's own file (never another file's lines)
                why=$(LC_ALL=C grep -aF "$f:" "$secret/$ch/$b.$step.log" | LC_ALL=C grep -av '^In file included' |
                    sed "s|$src/|exercises/$ch/|g" | head -20)
                if [ -z "$why" ]; then # nothing about the file: for the instructor's eyes only
                    echo "grade: $ch/$b.c: the $step step failed (exit $rc): $(head -1 "$secret/$ch/$b.$step.log")" >&2
                    why="(the compiler gave no message about $b.c)"
                fi
                why="does not compile:"$'\n'$why
                return 1
            fi
            if [ $step = preprocess ]; then
                cp "$cc/$b.i" "$secret/$ch/$b.i" && cp "$cc/$b.d" "$secret/$ch/$b.d" || {
                    why="does not compile: no output from the preprocessor"
                    return 1
                }
                # every file it read: the submitted file, the contract, system headers
                bad=$(sed -e 's/\\$//' -e '1s/^[^:]*://' "$secret/$ch/$b.d" | tr ' ' '\n' | grep . |
                    while IFS= read -r dep; do
                        case $dep in
                        *..*) echo "$dep" ;;
                        "$f" | /usr/include/* | /usr/lib/gcc/*/include/*) ;;
                        "$con"/*) [ -f "$con/${dep##*/}" ] && [ "$dep" = "$con/${dep##*/}" ] || echo "$dep" ;;
                        *) echo "$dep" ;;
                        esac
                    done | head -1)
                if [ -n "$bad" ]; then
                    why="refused: it includes ${bad//$src\//} (only system headers and the chapter's own headers may be included)"
                    return 1
                fi
            fi
        done
        cp "$cc/$b.o" "$secret/$ch/sub/$b.o" || {
            why="does not compile: no object"
            return 1
        }
        secs=$(step_secs 30) || {
            why=$out_of_time
            return 1
        }
        inspect "$secret/$ch/sub/$b.o" "$secret/$ch/$b.inspect" "$secs" || {
            charge check
            why="refused: $b.c: its object could not be read by binutils within $secs s"
            return 1
        }
        charge check
        bad=""
        [ "${GRADE_TRUST_OBJECT:-0}" = 1 ] || bad=$(objcheck "$secret/$ch/$b.inspect" "$cache/$ch/fns")
        if [ -n "$srcbad" ] && [ -n "$bad" ]; then
            why="refused: $b.c: $srcbad; it has $bad"
            return 1
        elif [ -n "$srcbad" ]; then
            why="refused: $b.c: $srcbad"
            return 1
        elif [ -n "$bad" ]; then
            why="refused: $b.c has $bad"
            return 1
        fi
    done
    # the contract functions it defines become chalk_student_NAME (the wrappers call them),
    awk '$2 == "T" { print $1 }' "$secret/$ch"/*.inspect/symbols | grep -xF -f "$cache/$ch/fns" | sort -u |
        sed 's/.*/& chalk_student_&/' >"$secret/$ch/rename"
    # and every other global of the object becomes local: even an object that got
    # past the checks could not stand in for a function of cmocka, libc or the tests
    cut -d' ' -f2 "$secret/$ch/rename" >"$secret/$ch/keep"
    for o in "$secret/$ch/sub"/*.o; do
        secs=$(step_secs 30) || {
            why=$out_of_time
            return 1
        }
        tool_run "$secs" 1024 -- objcopy --redefine-syms="$secret/$ch/rename" --keep-global-symbols="$secret/$ch/keep" "$o" || {
            why="does not compile: objcopy failed"
            return 1
        }
    done
    charge check
}

# Links and runs chapter $1's $2 (public|hidden) tests against the checked objects;
# the harness's verdicts go to $secret/$1.$2.jsonl. Sets run_rc. The binary is
# linked into a directory of its own (traversable, not listable) just before its
# run and removed after: while it runs, no other test binary exists.
run_tests() {
    local ch=$1 kind=$2 n secs run bin harness
    secs=$(step_secs 30) || {
        run_rc=budget
        return
    }
    run=$(mktemp -d "$box/run/XXXXXXXX") && chmod 711 "$run" || {
        run_rc=link
        return
    }
    bin=$run/$ch-$kind
    harness=$cache/harness.o
    if [ "${GRADE_TRUST_FILTER:-0}" = 1 ]; then
        harness=$cache/harness-nofilter.o
        [ -f "$harness" ] || CC=$CC tests/grade/harness-build.sh "$harness" "${TRUSTED_CFLAGS[@]}" \
            -DCHALK_GRADE_NO_FILTER || {
            rm -rf "$run"
            run_rc=link
            return
        }
    fi
    if ! tool_run "$secs" 1024 -- "$CC" -o "$bin" "$cache/$ch/$kind"/*.o "$harness" "$cache/$ch/wrap.o" \
        "$secret/$ch/sub"/*.o "$cache"/lib/*.o -lcmocka -lseccomp -lm -Wl,-z,noexecstack \
        >"$secret/$ch.$kind.link" 2>&1; then
        rm -rf "$run"
        run_rc=link
        return
    fi
    charge link
    chmod 711 "$bin" # run, not read
    n=$(wc -l <"$cache/$ch/$kind.names")
    # each test ends by its CPU limit or its wall-clock backstop, whichever comes
    # first: the run's deadline leaves every test its backstop (a loaded machine
    # slows an honest test; the budget still bounds a hostile one)
    secs=$(step_secs "$(awk -v n="$n" -v t="$TIMEOUT" -v w="$WALL_BACKSTOP" 'BEGIN { print n * (w * t + 0.5) + 5 }')") || {
        rm -rf "$run"
        run_rc=budget
        return
    }
    sandbox_run "$secs" "$MEM_MB" "" "$bin" -- /usr/bin/env CHALK_TIMEOUT="$TIMEOUT" "$bin" \
        3>"$secret/$ch.$kind.jsonl" >"$secret/$ch.$kind.log" 2>&1
    run_rc=$?
    charge run
    rm -rf "$run"
    [ $run_rc != 124 ] || run_rc=deadline
}

# The words for one test's record: status, signal, cmocka's failure lines (as
# loop_parse gives them), what the code printed.
explain() {
    local status=$1 sig=$2 detail=$3 printed=$4 out
    case $status in
    passed) out="passed" ;;
    timeout) out="did not finish within $TIMEOUT s of CPU time: an endless loop?" ;;
    stalled) out="did not finish within $(awk -v t="$TIMEOUT" -v w="$WALL_BACKSTOP" 'BEGIN { print t * w }') s of wall-clock time, using less than $TIMEOUT s of CPU: stopped, or waiting for something that never comes?" ;;
    crashed) out="crashed: the test's process was killed (signal $sig)" ;;
    *)
        out=$(loop_explain "$detail")
        [ -n "$out" ] || out="failed"
        ;;
    esac
    [ -z "$printed" ] || out="$out"$'\n'"Your code printed:"$'\n'"$printed"
    printf '%s' "$out"
}

unbase64() { [ -z "$1" ] || base64 -d <<<"$1" 2>/dev/null | tr -d '\0'; }

# Points of a test: the first matching rule of tests/CH/points.txt, else stars.
points_of() {
    local ch=$1 key=$2 ex=$3 pat pts line
    if [ -f "tests/$ch/points.txt" ]; then
        while IFS= read -r line; do
            line=${line%%#*}
            [ -n "${line// /}" ] || continue
            pts=${line##* }
            pat=${line% *}
            pat=${pat%"${pat##*[! ]}"}
            # shellcheck disable=SC2053
            if [[ $key == $pat ]]; then
                echo "$pts"
                return
            fi
        done < <(sed 's/[ \t]*$//' "tests/$ch/points.txt")
    fi
    loop_exercises "$ch" | awk -F'\t' -v ex="$ex" '$1 == ex { s = $2 } END { print (s == "" ? 1 : s) }'
}

# One test's entry of results.json, a line of $secret/tests.tsv: the instructor's
# fields as they are (no tab or newline in them), the output in base64, since it
# may hold any byte; one jq call turns the lines into JSON at the end.
entry_last="" entry_b64=""
entry() { # ch key ex points score status visibility output
    local f
    if [ "$8" != "$entry_last" ] || [ -z "$entry_b64" ]; then # many tests share one output
        entry_last=$8 entry_b64=$(printf '%s' "$8" | base64 -w0)
    fi
    for f in "${@:1:7}"; do printf '%s\t' "${f//[$'\t\n']/ }"; done >>"$secret/tests.tsv"
    printf '%s\n' "$entry_b64" >>"$secret/tests.tsv"
}

# locked COMMAND...: COMMAND in a subshell holding a lock on the cache: gradings that
# share a GRADE_CACHE build the instructor's side one at a time.
locked() { (flock 9 && "$@") 9>"$cache/.lock"; }
# The instructor's side of every chapter first, before any of the student's steps:
# once the budget is spent, only the report is left to write (the watchdog's
# margin is for that, not for compiling tests).
locked prep_common || die "the grader's own parts do not build (lib/, tests/grade/harness.c)"
for ch in "$@"; do
    locked prep_chapter "$ch" || die "the instructor's tests of $ch do not build with the grading harness"
done
charge prepare
: >"$secret/tests.tsv"
[ -z "${SCORES:-}" ] || : >"$SCORES"
summary="" notes=""
: >"$secret/scores"
for ch in "$@"; do
    why="" built=0
    if [ ! -d "$secret/in/$ch" ]; then
        why="not submitted: the submission has no exercises/$ch/ files"
    elif charge report && compile_chapter "$ch"; then
        built=1
    fi
    [ -z "$why" ] || notes="$notes"$'\n'"$ch: ${why%%$'\n'*}"
    for kind in public hidden; do
        [ -f "$cache/$ch/$kind.names" ] || continue
        : >"$secret/$ch.$kind.jsonl"
        run_rc=""
        kind_why=$why
        if [ $built = 1 ]; then
            charge report
            run_tests "$ch" "$kind"
            case $run_rc in
            link) kind_why="does not link:"$'\n'$(grep -v '^collect2' "$secret/$ch.$kind.link" | sed "s|$secret/$ch/sub/||g; s|$cache/||g; s|$box/run/[^/]*/||g" | head -10) ;;
            budget) kind_why="not run: the submission's grading time ($BUDGET s) ran out" ;;
            esac
        fi
        # the verdicts, a line per test: name, status, signal, cmocka's failure lines
        # (between "[ RUN ]" and its end, \036-joined as loop_parse would give them,
        # failure locations kept only when they name this binary's test files:
        # cmocka's and the tests' own words, one line) and what the code printed, in
        # base64 (it may hold any byte). jq drops a line cut short.
        declare -A rst=() rsig=() rdet=() rpr=()
        while IFS=$'\t' read -r name st sg det pr; do
            [ -n "${rst[$name]+x}" ] && continue # the first verdict for a name counts
            rst[$name]=$st rsig[$name]=$sg rdet[$name]=$det rpr[$name]=$pr
        done < <(jq -Rr --rawfile srcs "$cache/$ch/$kind.sources" '
            ($srcs | split("\n") | map(select(length > 0))) as $ok
            | fromjson? | select(type == "object")
            | (.detail | split("\n")) as $l
            | ([$l | to_entries[] | select(.value | test("^\\[ RUN ")) | .key] | first // -1) as $a
            | ([$l | to_entries[] | select(.key > $a and (.value | test("^\\[ *(OK|FAILED|SKIPPED) *\\]"))) | .key]
               | first // ($l | length)) as $b
            | [.name, .status, (.signal | tostring),
               ($l[$a + 1:$b] | map(sub("^\\[  ERROR   \\] --- "; "") | sub("^\\[   LINE   \\] --- "; ""))
                | map(select(length > 0)
                      | select((test(": error: Failure!$") | not)
                               or (sub(":[0-9]+: error: Failure!$"; "") as $f | any($ok[]; . == $f))))
                | join("\u001e")),
               (.printed | @base64)] | @tsv' <"$secret/$ch.$kind.jsonl" 2>/dev/null)
        while IFS=$'\t' read -r name pts; do
            [ -n "$name" ] || continue
            ex=${name%%: *} key=$name vis=visible
            [ $kind = hidden ] && key="hidden/$name" vis=$HIDDEN_VISIBILITY
            score=0 status=failed
            if [ -n "$kind_why" ]; then
                output=$kind_why
            elif [ -n "${rst[$name]+x}" ]; then
                output=$(explain "${rst[$name]}" "${rsig[$name]}" "${rdet[$name]}" "$(unbase64 "${rpr[$name]}")")
                if [ "${rst[$name]}" = passed ]; then score=$pts status=passed; fi
            elif [ "$run_rc" = deadline ]; then
                output="not run: the time for this chapter's tests, or the submission's ($BUDGET s), ran out"
            else
                output="no result: the test program ended before this test (exit status $run_rc)"
            fi
            entry "$ch" "$key" "$ex" "$pts" "$score" "$status" "$vis" "$output"
            printf '%s\t%s\t%s\t%s\t%s\n' "$ch" "$kind" "$score" "$pts" "$status" >>"$secret/scores"
        done <"$cache/$ch/$kind.points"
        unset rst rsig rdet rpr
    done
    read -r ch_score ch_max < <(awk -F'\t' -v c="$ch" '$1 == c { s += $3; m += $4 } END { print s + 0, m + 0 }' "$secret/scores")
    summary="${summary:+$summary, }$ch $ch_score/$ch_max"
    [ -z "${SCORES:-}" ] || printf '%s\t%s\t%s\n' "$ch" "$ch_score" "$ch_max" >>"$SCORES"
done
# totals: all tests, and the public ones alone
read -r total max n_pass n_all pub_pts pub_max pub_pass pub_all < <(awk -F'\t' '
    { s += $3; m += $4; n++; p += $5 == "passed" }
    $2 == "public" { ps += $3; pm += $4; pn++; pp += $5 == "passed" }
    END { print s + 0, m + 0, p + 0, n + 0, ps + 0, pm + 0, pp + 0, pn + 0 }' "$secret/scores")

# What every student sees at once: the public tests only (hidden results wait for
# the grades to be published, with their own visibility).
visible="Chalk: public tests: $pub_pass of $pub_all passed ($pub_pts of $pub_max points)."
[ $n_all -eq $pub_all ] || visible="$visible Hidden tests: $((n_all - pub_all)) more, shown when grades are published."
[ -z "$notes" ] || visible="$visible$notes"
line="$total/$max points ($summary); $n_pass of $n_all tests passed, hidden tests included"
charge report
jq -Rs --argjson score "$total" --argjson max "$max" --argjson t "$(elapsed)" --arg out "$visible" \
    --arg sandbox "$SANDBOX_NOTE" --argjson limits "$SANDBOX_LIMITS_JSON" --arg line "$line" --arg spent "$(spent)" '
    [split("\n")[] | select(length > 0) | split("\t")
       | {name: (.[0] + " " + .[1]), score: (.[4] | tonumber), max_score: (.[3] | tonumber),
          status: .[5], visibility: .[6], tags: [.[0], .[2]], output: (.[7] | @base64d)}]
    | {score: $score, execution_time: $t, output: $out, output_format: "text",
       visibility: "visible", stdout_visibility: "hidden",
       extra_data: {max_score: $max, summary: $line, sandbox: $sandbox, limits: $limits, seconds: $spent}, tests: .}' \
    "$secret/tests.tsv" | write_out || die "cannot write $OUT"
echo "grade: where the time went: $(spent)"
echo "grade: $SUB: $line; $OUT"
