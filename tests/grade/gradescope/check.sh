#!/usr/bin/env bash
# check.sh -- the body of `make gradescope-check`: every chapter's Gradescope
# autograder, run the way Gradescope runs it, in a fresh minimal Debian 12 root.
#
#   tests/grade/gradescope/check.sh [CHAPTER...]      (default: every chapter)
#
# Gradescope's contract (its "Autograder Specifications",
# https://gradescope-autograders.readthedocs.io/en/latest/specs/, and its sample
# Dockerfile, manual_docker/Dockerfile of github.com/gradescope/autograder_samples):
# the zip is unpacked to /autograder/source; run_autograder is copied to
# /autograder/run_autograder and made executable; the image is built by
#   apt-get update && bash /autograder/source/setup.sh && apt-get clean &&
#   rm -rf /var/lib/apt/lists/* /tmp/* /var/tmp/*
# as root, once, with network. Then, for each submission, a fresh container of that
# image: the student's upload in /autograder/submission, /autograder/run_autograder
# run as root from /autograder, its output in /autograder/results/stdout, and
# /autograder/results/results.json read back in the documented format.
#
# Here, with one root for the whole check (tests/debian-root.sh: the bare root that
# make fresh-check uses, from the same cache; setup.sh runs in it once per chapter,
# as each assignment's image build runs it: the first installs the packages, the
# others find them installed):
#   1. a scratch copy of the course; in it `make gradescope CH=NN` for each chapter
#      and `make handout` (NO_PDF=1: the book plays no part in grading).
#   2. the uploads of each chapter, as students make them: (files) the chapter's .c
#      files side by side, and (tarball) build/submission.tar.gz written by the
#      handout's `make submission`; each three ways: the reference (solutions/),
#      the stub (exercises/) and half done (the reference with the second half of
#      the chapter's exercises, exercises.txt's order, put back to the stub).
#   3. per chapter, the image: the zip unpacked into /autograder/source, then the
#      commands above in the root, as a container (below) with network.
#   4. per upload and sandbox mode, a fresh container of that image: an overlay on
#      the root (so no run sees another's files), the upload and a results directory
#      mounted at /autograder/submission and /autograder/results, no network, and
#        bwrap  nothing more: bubblewrap can make its namespaces, and must;
#        user   tests/grade/gradescope/refuse-ns.c in front of run_autograder: the
#               namespace part of Docker's default seccomp profile and Docker's
#               default capabilities, so that bwrap fails as in a container that
#               refuses namespaces, and the grader must fall back to its user mode.
#      Two containers run at a time (JOBS, default: the number of cores).
#   A container: unshare (new mount, PID, IPC, UTS and, for a run, network
#   namespaces), the root mounted and pivot_root'ed into (not chroot: the kernel
#   refuses new user namespaces inside a chroot, which Docker is not), /proc, /dev/pts,
#   /dev/shm, /dev/mqueue and a read-only /sys of its own; killed whole at its time
#   limit (Gradescope's default, 600 s).
#
# Each results.json must follow Gradescope's format (results.jq) and score: the
# reference full marks with every test passed, the stub zero, half done strictly in
# between, with the same tests in all three; each run must say it ran in the mode
# asked for, and must not warn that the sandbox uid can read the course. Each run
# must leave the image's packages as they were (run_autograder installs nothing) and
# see no network but loopback. Once: in a user-mode container, bwrap and unshare
# really fail; in a bwrap-mode one, bwrap works.
#
# Prints the steps, every fact that failed, a table (chapter, mode, upload: the three
# scores), the time each part took, and "gradescope-check: N passed, N failed"; exit 0
# when none failed. Keeps build/gradescope-check/: facts (every fact, ok or FAIL),
# log, table, and each run's results.json, stdout and container.log under runs/.
#   VERBOSE=1 print the facts that held too
#   KEEP=1    keep the root in build/gradescope-check/root for a look
#   JOBS=n    containers at a time
# Needs root (mount, unshare, pivot_root) or sudo.
set -uo pipefail
cd "$(dirname "$0")/../../.."
top=$PWD
. tests/debian-root.sh
debroot_as_root gradescope-check "$0" "$@"
tests/deps.sh gradescope || exit 2
. tests/loop/lib.sh

JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
LIMIT_S=600 # Gradescope's default time limit for one submission
[ $# -gt 0 ] || set -- $(loop_chapters)
for ch in "$@"; do
    [ -d "exercises/$ch" ] && [ -d "solutions/$ch" ] || {
        echo "gradescope-check: no chapter $ch" >&2
        exit 2
    }
done

out=$top/build/gradescope-check
rm -rf "$out"
mkdir -p "$out/runs"
log=$out/log
: >"$log"
work=$(mktemp -d /var/tmp/chalk-gradescope.XXXXXX)
trap 'debroot_cleanup "$out/root"; rm -rf --one-file-system "$work"' EXIT
t_begin=$(debroot_now)

passes=0 fails=0
verdict() { # verdict ok|FAIL FACT: counted, kept in build/gradescope-check/facts, FAILs shown
    echo "$1 - $2" >>"$out/facts"
    [ "$1" = ok ] && [ "${VERBOSE:-0}" != 1 ] || echo "$1 - $2"
    if [ "$1" = ok ]; then passes=$((passes + 1)); else fails=$((fails + 1)); fi
}
expect() { if "${@:2}"; then verdict ok "$1"; else verdict FAIL "$1"; fi; } # expect FACT COMMAND...
finish() {
    echo "gradescope-check: took $(debroot_took "$t_begin") s in all (log, table, results: build/gradescope-check/)"
    echo "gradescope-check: $passes passed, $fails failed"
    [ $fails = 0 ]
    exit
}
step() { echo "gradescope-check: $*"; }

# ---- 1. the course, its zips, its handout ------------------------------------------
t0=$(debroot_now)
tree=$work/tree
mkdir -p "$tree"
git ls-files -co --exclude-standard | grep -v '/\.backup/' | tar -cf - -T - | tar -xf - -C "$tree"
# the built mistakes and objects, times kept, so that make handout rebuilds only
# what is out of date (after make test, nothing)
for d in build/mistakes build/obj; do [ -d "$d" ] && tar -cf - "$d" | tar -xf - -C "$tree"; done
for ch in "$@"; do
    (cd "$tree" && make -s --no-print-directory gradescope CH="${ch%%-*}") >>"$log" 2>&1 ||
        { verdict FAIL "make gradescope CH=${ch%%-*} (see $log)"; finish; }
done
(cd "$tree" && NO_PDF=1 MAKEFLAGS=-j"$JOBS" make -s --no-print-directory handout) >>"$log" 2>&1 ||
    { verdict FAIL "make handout (see $log)"; finish; }
mkdir -p "$work/handout"
tar -xzf "$tree/build/chalk-handout.tar.gz" -C "$work/handout"
handout=$work/handout/chalk
step "the zips and the handout built in a scratch copy of the course ($(debroot_took "$t0") s)"

# ---- 2. the uploads -------------------------------------------------------------------
# upload CH KIND: $work/up/CH/KIND/{files,tarball}/
upload() {
    local ch=$1 kind=$2 f names up=$work/up/$1/$2 hand
    mkdir -p "$up/files" "$up/tarball" "$up/c"
    for f in "$tree/exercises/$ch"/*.c; do
        f=$(basename "$f")
        case $kind in
        reference) cp "$tree/solutions/$ch/$f" "$up/c/$f" ;;
        stub) cp "$tree/exercises/$ch/$f" "$up/c/$f" ;;
        half)
            # the second half of the exercises back to the stub's functions
            names=$(cd "$tree" && loop_exercises "$ch" | awk -F'\t' '{ n++; fns[n] = $5 }
                END { for (i = int(n / 2) + 1; i <= n; i++) printf "%s ", fns[i] }')
            (cd "$tree" && loop_splice "solutions/$ch/$f" "exercises/$ch/$f" "$names") >"$up/c/$f" || return 1
            ;;
        esac
    done
    cp "$up/c"/*.c "$up/files/"
    # the handout with this chapter's files in place, then its make submission
    hand=$work/hand-$ch-$kind
    cp -a "$handout" "$hand"
    cp "$up/c"/*.c "$hand/exercises/$ch/"
    (cd "$hand" && make -s --no-print-directory submission) >>"$log" 2>&1 || return 1
    cp "$hand/build/submission.tar.gz" "$up/tarball/"
    rm -rf "$hand" "$up/c"
}
t0=$(debroot_now)
kinds=(reference half stub)
for ch in "$@"; do
    for kind in "${kinds[@]}"; do
        upload "$ch" "$kind" || { verdict FAIL "the $kind upload of $ch could not be made (see $log)"; finish; }
    done
done
step "the uploads: ${#kinds[@]} per chapter (${kinds[*]}), as .c files and as make submission's tarball ($(debroot_took "$t0") s)"

# ---- 3. the root ----------------------------------------------------------------------
debroot_make "$work" "$log" || { verdict FAIL "a minimal Debian 12 root (see $log)"; finish; }
root=$DEBROOT
debroot_network
mkdir -p "$root/.oldroot" "$root/.chalk-check" "$root/dev/mqueue"
cc -std=c11 -O2 -static -o "$root/.chalk-check/refuse-ns" tests/grade/gradescope/refuse-ns.c -lseccomp >>"$log" 2>&1 ||
    { verdict FAIL "tests/grade/gradescope/refuse-ns.c does not build (see $log)"; finish; }

# container image|run NET RESTRICT JOB -- COMMAND...: COMMAND in the root as a
# container runs it (see the header). image: the root itself, written (an image
# build); run: an overlay on it, JOB/submission and JOB/results mounted at
# /autograder/submission and /autograder/results. NET: net (the machine's) or nonet
# (loopback only). RESTRICT: docker (refuse-ns in front of COMMAND) or none.
# After a run COMMAND, the container prints what the run left: its exit status,
# the checksum of dpkg's status file, and its network interfaces.
container_script='
set -u
root=$1 kind=$2 restrict=$3 job=$4
shift 4
if [ "$kind" = run ]; then
    mkdir -p "$job/ovl" "$job/merged"
    mount -t tmpfs -o mode=755 ovl "$job/ovl" && mkdir "$job/ovl/up" "$job/ovl/work" &&
        mount -t overlay overlay -o "lowerdir=$root,upperdir=$job/ovl/up,workdir=$job/ovl/work" "$job/merged" ||
        { echo "container: no overlay" >&2; exit 125; }
    new=$job/merged
    mkdir -p "$new/autograder/submission" "$new/autograder/results"
    mount --bind "$job/submission" "$new/autograder/submission" &&
        mount --bind "$job/results" "$new/autograder/results" || exit 125
else
    new=$root
    mount --bind "$root" "$root" || exit 125
fi
mount -t proc proc "$new/proc" &&
    mount -t tmpfs -o nosuid,nodev,mode=1777 shm "$new/dev/shm" &&
    mount -t devpts -o newinstance,ptmxmode=0666 devpts "$new/dev/pts" &&
    mount -t mqueue mqueue "$new/dev/mqueue" || { echo "container: mounts failed" >&2; exit 125; }
mount -t sysfs -o ro sysfs "$new/sys" 2>/dev/null
cd "$new" && pivot_root . .oldroot && cd / || { echo "container: pivot_root failed" >&2; exit 125; }
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
umount -l /.oldroot
pre=()
[ "$restrict" = docker ] && pre=(/.chalk-check/refuse-ns)
"${pre[@]}" /usr/bin/env -i PATH="$PATH" HOME=/root LANG=C.UTF-8 "$@"
rc=$?
if [ "$kind" = run ]; then
    echo "container-exit: $rc"
    echo "container-dpkg: $(sha256sum </var/lib/dpkg/status | cut -c1-16)"
    echo "container-net: $(awk "NR > 2 { sub(\":\", \"\", \$1); printf \"%s \", \$1 }" /proc/net/dev)"
fi
exit $rc
'
container() {
    local kind=$1 net=$2 restrict=$3 job=$4 ns
    shift 5
    ns=(--mount --propagation private --pid --fork --kill-child --ipc --uts)
    [ "$net" = nonet ] && ns+=(--net)
    timeout -k 10 "$LIMIT_S" unshare "${ns[@]}" -- /bin/bash -c "$container_script" container \
        "$root" "$kind" "$restrict" "$job" "$@"
}

# ---- the runs -------------------------------------------------------------------------
# run_one CH MODE FORM KIND: one fresh container grading one upload, into
# $out/runs/CH.MODE.FORM.KIND/ (results/, container.log, secs).
run_one() {
    local ch=$1 mode=$2 form=$3 kind=$4 job=$work/jobs/$1.$2.$3.$4 keep=$out/runs/$1.$2.$3.$4 t0 restrict=none
    [ "$mode" = user ] && restrict=docker
    rm -rf "$job" "$keep"
    mkdir -p "$job/submission" "$job/results" "$keep"
    cp "$work/up/$ch/$kind/$form"/* "$job/submission/"
    t0=$(debroot_now)
    container run nonet "$restrict" "$job" -- /bin/sh -c \
        'cd /autograder && /autograder/run_autograder >/autograder/results/stdout 2>&1' \
        >"$keep/container.log" 2>&1
    debroot_took "$t0" >"$keep/secs"
    cp -r "$job/results/." "$keep/"
    rm -rf "$job"
}

jq_true() { jq -e "$@" >/dev/null 2>&1; } # jq_true FILTER FILE: the filter gives true

# The facts of a finished run, and its cell of the table.
judge() {
    local ch=$1 mode=$2 form=$3 kind=$4 d=$out/runs/$1.$2.$3.$4 r name bad score max n sandbox
    r=$d/results.json
    name="$ch $mode $form $kind"
    if ! jq -e 'type == "object"' "$r" >/dev/null 2>&1; then
        verdict FAIL "$name: no results.json, or not JSON (exit $(sed -n 's/^container-exit: //p' "$d/container.log"); see $d)"
        cell[$ch.$mode.$form.$kind]="none"
        return
    fi
    bad=$(jq -r -f tests/grade/gradescope/results.jq "$r" | head -3)
    expect "$name: results.json follows Gradescope's format${bad:+: $bad}" test -z "$bad"
    read -r score max n < <(jq -r '[.score, ([.tests[].max_score] | add // 0), (.tests | length)] | @tsv' "$r")
    sandbox=$(jq -r '.extra_data.sandbox // ""' "$r")
    cell[$ch.$mode.$form.$kind]="$score/$max"
    tests[$ch.$mode.$form.$kind]=$n
    case $kind in
    reference) expect "$name: full marks, every test passed ($score of $max, $n tests, $(cat "$d/secs") s)" \
        jq_true '.score == ([.tests[].max_score] | add) and .score > 0 and all(.tests[]; .status == "passed")' "$r" ;;
    stub) expect "$name: zero ($score of $max, $n tests)" \
        jq_true '.score == 0 and (.tests | length) > 0' "$r" ;;
    half) expect "$name: strictly between zero and full marks ($score of $max)" \
        awk -v s="$score" -v m="$max" 'BEGIN { exit !(s > 0 && s < m) }' ;;
    esac
    expect "$name: graded in $mode mode (${sandbox%% *})" test "${sandbox%% *}" = "$mode"
    expect "$name: no warning that the sandbox uid can read the course" \
        eval '! grep -q "WARNING" "$d/stdout"'
    expect "$name: installed nothing, saw no network but loopback" \
        eval 'grep -qx "container-dpkg: $image_dpkg" "$d/container.log" && grep -qx "container-net: lo " "$d/container.log"'
}

modes=(bwrap user)
forms=(files tarball)
declare -A cell=() tests=()
t_runs=0 t_images=0
table=$out/table
printf '%-18s %-6s %-8s %12s %12s %12s\n' chapter mode upload reference half stub >"$table"
for ch in "$@"; do
    # ---- 3. the image of this chapter's autograder ----
    t0=$(debroot_now)
    rm -rf "$root/autograder"
    mkdir -p "$root/autograder/source"
    unzip -q "$tree/build/gradescope-${ch%%-*}.zip" -d "$root/autograder/source"
    cp "$root/autograder/source/run_autograder" "$root/autograder/run_autograder"
    chmod +x "$root/autograder/run_autograder"
    mkdir -p "$work/jobs/image"
    if ! container image net docker "$work/jobs/image" -- /bin/sh -c \
        'cd / && apt-get update && bash /autograder/source/setup.sh && apt-get clean &&
         rm -rf /var/lib/apt/lists/* /tmp/* /var/tmp/*' >>"$log" 2>&1; then
        verdict FAIL "$ch: the image: setup.sh failed (see $log)"
        continue
    fi
    image_dpkg=$(sha256sum <"$root/var/lib/dpkg/status" | cut -c1-16)
    took=$(debroot_took "$t0")
    t_images=$(awk -v a="$t_images" -v b="$took" 'BEGIN { print a + b }')
    verdict ok "$ch: the image: zip unpacked to /autograder/source, setup.sh run as root ($took s)"
    step "$ch: the image built: zip unpacked to /autograder/source, setup.sh run as root ($took s)"

    if [ -z "${probed:-}" ]; then # once: the two modes are what they claim
        probe='bwrap --unshare-all --ro-bind /usr /usr --symlink usr/lib64 /lib64 --symlink usr/lib /lib'
        probe+=' --symlink usr/bin /bin --dev /dev --tmpfs /tmp -- /bin/true && echo bwrap-works;'
        probe+=' unshare --user /bin/true && echo unshare-works; echo probed'
        mkdir -p "$work/jobs/probe/submission" "$work/jobs/probe/results"
        p_user=$(container run nonet docker "$work/jobs/probe" -- /bin/sh -c "$probe" 2>&1)
        p_bwrap=$(container run nonet none "$work/jobs/probe" -- /bin/sh -c "$probe" 2>&1)
        printf 'probe, user mode:\n%s\nprobe, bwrap mode:\n%s\n' "$p_user" "$p_bwrap" >>"$log"
        expect "user-mode containers refuse namespaces: bwrap and unshare --user fail there" \
            eval 'grep -qx probed <<<"$p_user" && ! grep -q -e bwrap-works -e unshare-works <<<"$p_user"'
        expect "bwrap-mode containers allow them: bwrap runs there" grep -qx bwrap-works <<<"$p_bwrap"
        probed=1
    fi

    # ---- 4. every upload, in both modes, JOBS containers at a time ----
    t0=$(debroot_now)
    for mode in "${modes[@]}"; do
        for form in "${forms[@]}"; do
            for kind in "${kinds[@]}"; do
                while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
                run_one "$ch" "$mode" "$form" "$kind" &
            done
        done
    done
    wait
    took=$(debroot_took "$t0")
    t_runs=$(awk -v a="$t_runs" -v b="$took" 'BEGIN { print a + b }')
    step "$ch: $((${#modes[@]} * ${#forms[@]} * ${#kinds[@]})) runs of run_autograder in $took s"
    for mode in "${modes[@]}"; do
        for form in "${forms[@]}"; do
            for kind in "${kinds[@]}"; do judge "$ch" "$mode" "$form" "$kind"; done
            n=${tests[$ch.$mode.$form.reference]:-}
            expect "$ch $mode $form: the same tests in all three (${n:-?})" \
                test -n "$n" -a "${tests[$ch.$mode.$form.half]:-}" = "$n" -a "${tests[$ch.$mode.$form.stub]:-}" = "$n"
            printf '%-18s %-6s %-8s %12s %12s %12s\n' "$ch" "$mode" "$form" "${cell[$ch.$mode.$form.reference]}" \
                "${cell[$ch.$mode.$form.half]}" "${cell[$ch.$mode.$form.stub]}" >>"$table"
        done
    done
done

echo
cat "$table"
echo
step "images (unzip + setup.sh) took $t_images s, the runs $t_runs s ($JOBS containers at a time)"
finish
