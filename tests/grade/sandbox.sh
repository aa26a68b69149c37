# sandbox.sh -- how the grader runs anything a student wrote (the compiler on their
# source, the source check on its output, the tests on their object). Sourced by
# grade.sh; defines functions only.
#
# Three modes, the strongest available chosen by sandbox_init (GRADE_SANDBOX=mode
# forces one; it fails if that mode cannot run here):
#   bwrap  bubblewrap with every namespace unshared: no network, no /proc, a
#          read-only /usr and the few paths the step needs and nothing else (no
#          course tree, no solutions, no hidden sources, no points, no results), a
#          private /tmp of GRADE_TMPFS_MB, /dev read-only; run as a uid of its own
#          when the grader is root. When bwrap ends, the kernel kills its PID
#          namespace, and its IPC namespace goes with it.
#   user   no namespaces (a container that refuses them, as Gradescope's may), but
#          root: the step runs as a fresh unprivileged uid that owns nothing, with
#          the same limits; at the end every process of that uid is killed, its
#          System V IPC objects removed (jail.c) and its files removed from every
#          directory any user may write (found once: sandbox_writable_dirs); it
#          can create no POSIX message queue (RLIMIT_MSGQUEUE 0). The course tree
#          must not be readable by other users (tests/grade/gradescope/setup.sh
#          makes it so); sandbox_init says when it is.
#   none   neither: the step runs as you, with the limits and the object checks only.
#          Said loudly; grade untrusted code in one of the modes above.
# In every mode the step runs under tests/grade/jail.c: a wall-clock deadline, after
# which the whole process tree is killed, and limits on CPU time, address space,
# file size and open files for each process; and for the step as a whole:
#   - memory: a cgroup's memory limit of GRADE_MEM_TOTAL_MB, swap none, where this
#     machine enforces one (jail -Q tries);
#   - else a number of processes such that processes times the address space of
#     each stays within GRADE_MEM_TOTAL_MB (bwrap's own two processes, which
#     allocate nothing of the student's, on top): a cgroup's pids.max where there
#     is one, else RLIMIT_NPROC on the fresh uid. Not root and no cgroup: RLIMIT_NPROC
#     counts all of your processes, so it only stops fork bombs: said so.
# SANDBOX_NOTE says which held; SANDBOX_LIMITS_JSON says the same for results.json.
#
#   GRADE_SANDBOX       bwrap | user | none (default: the first that works)
#   GRADE_TMPFS_MB      size of the private /tmp under bwrap (16)
#   GRADE_MEM_TOTAL_MB  memory of one step's processes together (3072)
#   GRADE_CGROUP=0      use no cgroup even where one would hold (the fallback)

# The grader's own helpers, built once into DIR: jail and srccheck (each through a
# name of its own, renamed into place: gradings that share DIR may build at once).
sandbox_build() {
    local dir=$1 t tmp
    for t in jail srccheck; do
        [ -x "$dir/$t" ] && [ "$dir/$t" -nt "tests/grade/$t.c" ] && continue
        tmp=$(mktemp "$dir/$t.XXXXXX") || return 1
        ${CC:-cc} -std=c11 -O2 -o "$tmp" "tests/grade/$t.c" -lm 2>"$tmp.log" && mv -f "$tmp" "$dir/$t" || {
            echo "grade: cannot build tests/grade/$t.c: $(head -1 "$tmp.log")" >&2
            rm -f "$tmp" "$tmp.log"
            return 1
        }
        rm -f "$tmp.log"
    done
    JAIL=$dir/jail SRCCHECK=$dir/srccheck
}

# The mode, the uid, the limits: sets JAIL, SRCCHECK, SANDBOX_MODE, SANDBOX_UID
# (CHALK_GRADE_UID when the caller chose it), SANDBOX_NOTE and SANDBOX_LIMITS_JSON.
# $1: a directory only the grader can write (the probe's findings are kept there).
sandbox_init() {
    local dir=$1 want=${GRADE_SANDBOX:-auto} probe
    sandbox_build "$dir" || return 1
    SANDBOX_UID="" SANDBOX_OWN_NPROC=""
    if [ "$(id -u)" = 0 ]; then
        SANDBOX_UID=${CHALK_GRADE_UID:-$(sandbox_free_uid)}
    else # RLIMIT_NPROC counts all of your processes: leave room above them
        SANDBOX_OWN_NPROC=$(($(ps -u "$(id -u)" -o pid= 2>/dev/null | wc -l) + 64))
    fi
    case $want in
    auto)
        if sandbox_bwrap_works; then
            SANDBOX_MODE=bwrap
        elif [ -n "$SANDBOX_UID" ]; then
            SANDBOX_MODE=user
        else
            SANDBOX_MODE=none
        fi
        ;;
    bwrap)
        sandbox_bwrap_works || {
            echo "grade: GRADE_SANDBOX=bwrap but bubblewrap cannot run here (installed? namespaces allowed?)" >&2
            return 1
        }
        SANDBOX_MODE=bwrap
        ;;
    user)
        [ -n "$SANDBOX_UID" ] || {
            echo "grade: GRADE_SANDBOX=user needs root (it runs the code as a fresh uid)" >&2
            return 1
        }
        SANDBOX_MODE=user
        ;;
    none) SANDBOX_MODE=none ;;
    *)
        echo "grade: GRADE_SANDBOX must be bwrap, user or none, not '$want'" >&2
        return 1
        ;;
    esac
    # Which whole-step limits this machine enforces (jail -Q, kept in $dir).
    SANDBOX_MEM_TOTAL_MB=${GRADE_MEM_TOTAL_MB:-3072}
    case $SANDBOX_MEM_TOTAL_MB in '' | *[!0-9]* | 0*)
        echo "grade: GRADE_MEM_TOTAL_MB must be a whole number of MiB over 0, not '$SANDBOX_MEM_TOTAL_MB'" >&2
        return 1 ;;
    esac
    if [ "${GRADE_CGROUP:-1}" = 0 ]; then
        probe="memory: none (GRADE_CGROUP=0); processes: none (GRADE_CGROUP=0)"
    elif [ -f "$dir/cgroup-probe" ]; then
        probe=$(cat "$dir/cgroup-probe")
    else
        probe=$("$JAIL" -Q -M 64 -P 64 2>&1 | head -1)
        printf '%s\n' "$probe" >"$dir/cgroup-probe.$$" && mv -f "$dir/cgroup-probe.$$" "$dir/cgroup-probe"
    fi
    SANDBOX_CG_MEM="" SANDBOX_CG_PIDS=""
    case $probe in "memory: cgroup"*) SANDBOX_CG_MEM=${probe#memory: } SANDBOX_CG_MEM=${SANDBOX_CG_MEM%%;*} ;; esac
    case $probe in *"; processes: cgroup"*) SANDBOX_CG_PIDS=${probe#*; processes: } ;; esac
    SANDBOX_CG_WHY=${probe#memory: } SANDBOX_CG_WHY=${SANDBOX_CG_WHY%%;*}
    SANDBOX_CG_WHY=${SANDBOX_CG_WHY#none (} SANDBOX_CG_WHY=${SANDBOX_CG_WHY%)}
    [ "$SANDBOX_MODE" != user ] || SANDBOX_WRITABLE=$(sandbox_writable_dirs "$dir")
    sandbox_note
}

# SANDBOX_NOTE (one line) and SANDBOX_LIMITS_JSON: the mode and the limits that hold.
sandbox_note() {
    local who=${SANDBOX_UID:+uid $SANDBOX_UID} run_n step procs by_mem by_n
    case $SANDBOX_MODE in
    bwrap) SANDBOX_NOTE="bwrap (no network, no /proc, read-only /usr, private /tmp; ${who:-your uid})" ;;
    user) SANDBOX_NOTE="user (no namespaces here: $who; its processes, IPC objects and files removed after)" ;;
    none) SANDBOX_NOTE="none (WARNING: no namespaces and not root: the code runs as you, with rlimits and object checks only)" ;;
    esac
    run_n=$(sandbox_step_nproc "$MEM_MB")
    if [ -n "$SANDBOX_CG_MEM" ]; then
        by_mem=$SANDBOX_CG_MEM procs=64 by_n=${SANDBOX_CG_PIDS:-RLIMIT_NPROC}
        step="$SANDBOX_MEM_TOTAL_MB MiB a step ($by_mem), $procs processes a step ($by_n)"
    elif [ -n "$run_n" ]; then
        by_mem="processes times address space" procs=$run_n by_n=${SANDBOX_CG_PIDS:-RLIMIT_NPROC on uid $SANDBOX_UID}
        step="$SANDBOX_MEM_TOTAL_MB MiB a step as $run_n processes of $MEM_MB MiB a run ($by_n; no memory cgroup: $SANDBOX_CG_WHY)"
    else
        by_mem="not bounded" procs="" by_n="RLIMIT_NPROC of your uid: fork bombs only"
        step="memory NOT bounded for a step as a whole (no memory cgroup: $SANDBOX_CG_WHY; not root: RLIMIT_NPROC counts all your processes)"
    fi
    SANDBOX_NOTE="$SANDBOX_NOTE; limits: $MEM_MB MiB a process, $step, $TIMEOUT s of CPU a test (wall-clock backstop $(awk -v t="$TIMEOUT" -v w="${WALL_BACKSTOP:-10}" 'BEGIN { print t * w }') s), $BUDGET s the submission (watchdog at $((BUDGET + GRADE_MARGIN_S)) s)"
    SANDBOX_LIMITS_JSON=$(jq -cn --arg mode "$SANDBOX_MODE" --argjson mem "$MEM_MB" --arg total "$SANDBOX_MEM_TOTAL_MB" \
        --arg by_mem "$by_mem" --arg procs "$procs" --arg by_n "$by_n" \
        --argjson test_s "$TIMEOUT" --argjson backstop "${WALL_BACKSTOP:-10}" --argjson budget "$BUDGET" --argjson margin "$GRADE_MARGIN_S" '
        {mode: $mode, memory_mb_per_process: $mem,
         memory_mb_per_step: (if $by_mem == "not bounded" then null else ($total | tonumber) end),
         memory_per_step_by: $by_mem,
         processes_per_step: (if $procs == "" then null else ($procs | tonumber) end),
         processes_by: $by_n, test_cpu_s: $test_s, test_wall_backstop_s: ($test_s * $backstop), budget_s: $budget, watchdog_s: ($budget + $margin)}')
}

# The processes a step whose processes each have MB of address space may have,
# so that together they stay within SANDBOX_MEM_TOTAL_MB; "" when nothing can
# bound them here (not root and no cgroup). bwrap's own two are not counted.
sandbox_step_nproc() {
    local mb=$1 n
    [ -z "${SANDBOX_CG_MEM:-}" ] || return 0
    [ -n "${SANDBOX_CG_PIDS:-}" ] || [ -n "${SANDBOX_UID:-}" ] || return 0
    n=$((${SANDBOX_MEM_TOTAL_MB:-3072} / mb))
    [ $n -ge 1 ] || n=1
    echo "$n"
}

# A uid no process uses, from a range no distribution allocates.
sandbox_free_uid() {
    local uid
    while :; do
        uid=$((1000000000 + (RANDOM << 15 | RANDOM) % 1000000000))
        ps -e -o uid= 2>/dev/null | tr -d ' ' | grep -qx "$uid" || break
    done
    echo "$uid"
}

sandbox_bwrap_works() {
    command -v bwrap >/dev/null 2>&1 || return 1
    sandbox_exec bwrap 10 256 "" "" -- /bin/true >/dev/null 2>&1
}

# Every directory any user may write, on every mount of a real file system
# (directories a stranger cannot enter are not looked into): where the user mode's
# uid can leave files. Found once, before the grading's clock starts (grade.sh),
# and kept in $1/writable-dirs: a walk of the whole tree, a second or a few (more
# on a big, busy disk; it stops at GRADE_WALK_S, 300 s, and then the usual places
# stand in for it, said so and not kept). A directory made world-writable later is
# missed. The walk starts at / too, and the usual places are always kept: in a chroot
# (make fresh-check's root) the root is no mount point of its own, so
# /proc/self/mounts alone would leave its /run/lock unwalked.
sandbox_writable_dirs() {
    local dir=$1 m usual=(/tmp /var/tmp /dev/shm /run/lock /var/lock /dev/mqueue)
    if [ ! -f "$dir/writable-dirs" ]; then
        if timeout "${GRADE_WALK_S:-300}" bash -c '
            awk '\''$3 !~ /^(proc|sysfs|cgroup2?|devpts|debugfs|tracefs|securityfs|pstore|bpf|configfs|fusectl|autofs|binfmt_misc|hugetlbfs|rpc_pipefs|nsfs|efivarfs)$/ { print $2 }'\'' /proc/self/mounts |
                { sed "s/\\\\040/ /g"; echo /; } | sort -u | while IFS= read -r m; do
                find "$m" -xdev \( -type d ! -perm -0001 -prune \) -o \( -type d -perm -0002 -print -prune \) 2>/dev/null
            done' >"$dir/writable-dirs.$$"; then
            for m in "${usual[@]}"; do [ -d "$m" ] && echo "$m"; done >>"$dir/writable-dirs.$$"
            sort -u "$dir/writable-dirs.$$" >"$dir/writable-dirs.$$.s" && mv -f "$dir/writable-dirs.$$.s" "$dir/writable-dirs"
            rm -f "$dir/writable-dirs.$$"
        else
            echo "grade: WARNING: finding the world-writable directories took over ${GRADE_WALK_S:-300} s: cleaning ${usual[*]} and what was found" >&2
            for m in "${usual[@]}"; do [ -d "$m" ] && echo "$m"; done | sort -u - "$dir/writable-dirs.$$"
            rm -f "$dir/writable-dirs.$$"
            return
        fi
    fi
    cat "$dir/writable-dirs"
}

# The root of a bwrap sandbox: /usr read-only and the top-level links into it
# (computed once: SB_BASE).
SB_BASE=()
sandbox_bwrap_base() {
    local d
    if [ ${#SB_BASE[@]} -gt 0 ]; then
        SB=("${SB_BASE[@]}")
        return
    fi
    SB=("$(command -v bwrap)" --unshare-all --die-with-parent --new-session --cap-drop ALL
        --clearenv --setenv PATH /usr/bin:/bin --setenv LC_ALL C --setenv HOME /tmp
        --setenv TMPDIR /tmp --ro-bind /usr /usr)
    for d in bin sbin lib lib32 lib64 libx32; do
        if [ -L "/$d" ]; then
            SB+=(--symlink "$(readlink "/$d")" "/$d")
        elif [ -d "/$d" ]; then
            SB+=(--ro-bind "/$d" "/$d")
        fi
    done
    [ -f /etc/ld.so.cache ] && SB+=(--ro-bind /etc/ld.so.cache /etc/ld.so.cache)
    SB+=(--dev /dev --remount-ro /dev --size $((${GRADE_TMPFS_MB:-16} << 20)) --tmpfs /tmp)
    SB_BASE=("${SB[@]}")
}

# sandbox_exec MODE SECONDS MEM_MB RW_DIR "RO_PATH..." -- COMMAND...
# Runs COMMAND in MODE with cwd RW_DIR (writable; /tmp under bwrap when empty) and
# the RO_PATHs (space-separated, no spaces in them) visible read-only at their own
# paths. Exit status as jail's: 124 at the deadline, 125 when SECONDS is not over 0
# (no step starts without a deadline).
sandbox_exec() {
    local mode=$1 secs=$2 mem=$3 rw=$4 ro=$5 p n extra=0
    shift 6
    [ "$mode" = bwrap ] && extra=2 # bwrap itself and its PID 1
    local jail=("$JAIL" -t "$secs" -c "$((${secs%.*} + 2))" -m "$mem" -f 16 -n 64 -x 3)
    [ -n "${SANDBOX_UID:-}" ] && jail+=(-u "$SANDBOX_UID")
    n=$(sandbox_step_nproc "$mem")
    if [ -n "${SANDBOX_CG_MEM:-}" ]; then
        jail+=(-M "$SANDBOX_MEM_TOTAL_MB")
        [ -z "${SANDBOX_CG_PIDS:-}" ] || jail+=(-P 64)
        jail+=(-p "${SANDBOX_OWN_NPROC:-64}")
    elif [ -n "$n" ] && [ -n "${SANDBOX_CG_PIDS:-}" ]; then
        jail+=(-P "$((n + extra))" -p "${SANDBOX_OWN_NPROC:-$((n + extra))}")
    elif [ -n "$n" ]; then
        jail+=(-p "$((n + extra))")
    else
        jail+=(-p "${SANDBOX_OWN_NPROC:-32}")
    fi
    case $mode in
    bwrap)
        sandbox_bwrap_base
        for p in $ro; do SB+=(--ro-bind "$p" "$p"); done
        if [ -n "$rw" ]; then SB+=(--bind "$rw" "$rw" --chdir "$rw"); else SB+=(--chdir /tmp); fi
        "${jail[@]}" -- "${SB[@]}" -- "$@"
        ;;
    *)
        "${jail[@]}" -- env -i PATH=/usr/bin:/bin LC_ALL=C HOME="${rw:-/tmp}" TMPDIR="${rw:-/tmp}" \
            env -C "${rw:-/tmp}" "$@"
        ;;
    esac
}

# sandbox_run SECONDS MEM_MB RW_DIR "RO_PATH..." -- COMMAND...: sandbox_exec in the
# chosen mode.
sandbox_run() {
    sandbox_exec "$SANDBOX_MODE" "$@"
}

# tool_run SECONDS MEM_MB -- COMMAND...: a trusted tool (binutils, the linker) on
# the student's object, as the grader, under a deadline and an address-space
# limit: its input is hostile, its time is charged to the budget.
tool_run() {
    local secs=$1 mem=$2
    shift 3
    "$JAIL" -t "$secs" -c "$((${secs%.*} + 2))" -m "$mem" -- "$@"
}

# Gives RW_DIR to the sandbox's uid (when there is one).
sandbox_own() {
    [ -z "$SANDBOX_UID" ] || chown -R "$SANDBOX_UID:$SANDBOX_UID" "$@"
}

# In user mode: paths the sandbox uid can read that it must not ("" when none).
sandbox_exposed() {
    local p seen=""
    [ "$SANDBOX_MODE" = user ] || return 0
    for p in "$@"; do
        [ -e "$p" ] || continue
        "$JAIL" -u "$SANDBOX_UID" -t 5 -- /usr/bin/test -r "$p" 2>/dev/null && seen="$seen $p"
    done
    printf '%s' "${seen# }"
}

# After the last step (and after the watchdog): every process of the sandbox uid
# killed, its System V IPC objects and the cgroups of a jail killed before its end
# removed (jail does all three at the end of any run as that uid); in user mode its
# files removed wherever any user may write.
sandbox_cleanup() {
    local d
    [ -n "${SANDBOX_UID:-}" ] || return 0
    "$JAIL" -u "$SANDBOX_UID" -t 5 -- /bin/true 2>/dev/null # and cgroups a killed jail left
    [ "${SANDBOX_MODE:-}" = user ] || return 0
    printf '%s\n' "${SANDBOX_WRITABLE:-/tmp}" | while IFS= read -r d; do
        [ -d "$d" ] && find "$d" -xdev -user "$SANDBOX_UID" -delete 2>/dev/null
    done
    return 0
}
