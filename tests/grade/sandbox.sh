# sandbox.sh -- how the grader runs anything a student wrote (the compiler on their
# source, the tests on their object). Sourced by grade.sh; defines functions only.
#
# Three modes, the strongest available chosen by sandbox_init (GRADE_SANDBOX=mode
# forces one; it fails if that mode cannot run here):
#   bwrap  bubblewrap with every namespace unshared: no network, no /proc, a
#          read-only /usr and the few paths the step needs and nothing else (no
#          course tree, no solutions, no hidden sources, no points, no results), a
#          private /tmp of GRADE_TMPFS_MB, /dev read-only; run as a uid of its own
#          when the grader is root. When bwrap ends, the kernel kills its PID
#          namespace: nothing started inside outlives the step.
#   user   no namespaces (a container that refuses them, as Gradescope's may), but
#          root: the step runs as a fresh unprivileged uid that owns nothing, with
#          the same limits; at the end every process of that uid is killed and its
#          files in /tmp, /var/tmp and /dev/shm are removed. The course tree must not
#          be readable by other users (tests/grade/gradescope/setup.sh makes it so);
#          sandbox_init says when it is.
#   none   neither: the step runs as you, with the limits and the object checks only.
#          Said loudly; grade untrusted code in one of the modes above.
# In every mode the step runs under tests/grade/jail.c: a wall-clock deadline, after
# which the whole process tree is killed, and rlimits on CPU time, address space,
# processes, file size and open files.
#
#   GRADE_SANDBOX   bwrap | user | none (default: the first that works)
#   GRADE_TMPFS_MB  size of the private /tmp under bwrap (16)

# The jail binary, the mode, the uid: sets JAIL, SANDBOX_MODE, SANDBOX_UID and
# SANDBOX_NOTE (one line for the report). $1: a directory only the grader can write.
sandbox_init() {
    local dir=$1 want=${GRADE_SANDBOX:-auto}
    JAIL=$dir/jail
    if [ ! -x "$JAIL" ]; then
        ${CC:-cc} -std=c11 -O1 -o "$JAIL" tests/grade/jail.c 2>"$dir/jail.log" || {
            echo "grade: cannot build tests/grade/jail.c: $(head -1 "$dir/jail.log")" >&2
            return 1
        }
    fi
    SANDBOX_UID="" SANDBOX_NPROC=32
    if [ "$(id -u)" = 0 ]; then
        SANDBOX_UID=$(sandbox_free_uid)
    else # RLIMIT_NPROC counts all of your processes: leave room above them
        SANDBOX_NPROC=$(($(ps -u "$(id -u)" -o pid= 2>/dev/null | wc -l) + 64))
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
    local who=${SANDBOX_UID:+uid $SANDBOX_UID}
    case $SANDBOX_MODE in
    bwrap) SANDBOX_NOTE="bwrap (no network, no /proc, read-only /usr, private /tmp; ${who:-your uid})" ;;
    user) SANDBOX_NOTE="user (no namespaces here: $who, rlimits, object checks)" ;;
    none) SANDBOX_NOTE="none (WARNING: no namespaces and not root: the code runs as you, with rlimits and object checks only)" ;;
    esac
    SANDBOX_NOTE="$SANDBOX_NOTE; limits: ${MEM_MB} MiB, ${TIMEOUT} s a test"
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
# paths. Exit status as jail's: 124 at the deadline.
sandbox_exec() {
    local mode=$1 secs=$2 mem=$3 rw=$4 ro=$5 p
    shift 6
    local jail=("$JAIL" -t "$secs" -c "$(((${secs%.*} + 2)))" -m "$mem" -p "${SANDBOX_NPROC:-32}" -f 16 -n 64 -x 3)
    [ -n "$SANDBOX_UID" ] && jail+=(-u "$SANDBOX_UID")
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

# After the last step of user mode: what the sandbox uid left in shared places.
sandbox_cleanup() {
    [ "$SANDBOX_MODE" = user ] && [ -n "$SANDBOX_UID" ] || return 0
    "$JAIL" -u "$SANDBOX_UID" -t 5 -- /bin/true 2>/dev/null # kills any process of the uid
    find /tmp /var/tmp /dev/shm -xdev -user "$SANDBOX_UID" -delete 2>/dev/null || true
}
