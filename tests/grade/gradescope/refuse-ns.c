/*
 * refuse-ns.c -- runs a command as root runs in a Docker container with Docker's
 * defaults, as far as namespaces go: it can make no new namespace and mount nothing.
 * tests/grade/gradescope/check.sh runs run_autograder under it, to prove the grader's
 * fallback ("user" mode) where Gradescope's containers refuse bubblewrap.
 *
 *   refuse-ns COMMAND ARG...      (as root; built static, so it runs in any root)
 *
 * What it takes away, before it execs COMMAND:
 *   - the system calls that Docker's default seccomp profile allows only with
 *     CAP_SYS_ADMIN (moby, profiles/seccomp/default.json): unshare, setns, mount,
 *     umount2, pivot_root, the new mount API, sethostname, bpf, perf_event_open...
 *     fail with EPERM; clone with any CLONE_NEW* flag (the profile's mask
 *     0x7E020000) fails with EPERM, and clone3 with ENOSYS (the C library then
 *     falls back to clone, as the profile intends);
 *   - every capability outside Docker's default set (moby, oci/caps/defaults.go:
 *     CHOWN, DAC_OVERRIDE, FSETID, FOWNER, MKNOD, NET_RAW, SETGID, SETUID, SETFCAP,
 *     SETPCAP, NET_BIND_SERVICE, SYS_CHROOT, KILL, AUDIT_WRITE): dropped from the
 *     bounding set, so COMMAND, exec'd as root, holds only those. No CAP_SYS_ADMIN,
 *     no CAP_SYS_RESOURCE (rlimits can be lowered, never raised).
 * The rest of Docker's profile (an allow-list of some 350 calls) is not copied: the
 * check needs namespaces refused, not a second copy of the grader's own filter.
 * Like Docker, it does not set no_new_privs. Exit status: COMMAND's, or 125 when the
 * filter cannot be installed or COMMAND cannot be run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Docker's profile: allowed only with CAP_SYS_ADMIN, refused (EPERM) without. */
static const char *const admin_calls[] = {
    "bpf",      "fanotify_init", "fsconfig",      "fsmount",    "fsopen",    "fspick",
    "lookup_dcookie", "mount",   "mount_setattr", "move_mount", "open_tree", "perf_event_open",
    "quotactl", "quotactl_fd",   "setdomainname", "sethostname", "setns",    "syslog",
    "umount",   "umount2",       "unshare",       "pivot_root",
};

/* clone's namespace flags: their union is Docker's mask 0x7E020000. */
static const unsigned long clone_ns_flags[] = {
    CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
    CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
};

/* Docker's default capabilities (oci/caps/defaults.go). */
static const int docker_caps[] = {
    CAP_CHOWN,  CAP_DAC_OVERRIDE, CAP_FSETID, CAP_FOWNER,  CAP_MKNOD,
    CAP_NET_RAW, CAP_SETGID,      CAP_SETUID, CAP_SETFCAP, CAP_SETPCAP,
    CAP_NET_BIND_SERVICE, CAP_SYS_CHROOT, CAP_KILL, CAP_AUDIT_WRITE,
};

static int fail(const char *what, int err)
{
    fprintf(stderr, "refuse-ns: %s: %s\n", what, strerror(err));
    return 125;
}

static int kept(int cap)
{
    for (size_t i = 0; i < sizeof docker_caps / sizeof docker_caps[0]; i++)
        if (docker_caps[i] == cap)
            return 1;
    return 0;
}

/* The filter: everything allowed but the calls above. Loaded while the process
 * still holds CAP_SYS_ADMIN, so no_new_privs is not needed (Docker does the same). */
static int load_filter(void)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int rc;
    if (!ctx)
        return -ENOMEM;
    rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
    for (size_t i = 0; rc == 0 && i < sizeof admin_calls / sizeof admin_calls[0]; i++) {
        int nr = seccomp_syscall_resolve_name(admin_calls[i]);
        if (nr != __NR_SCMP_ERROR)
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
    }
    for (size_t i = 0; rc == 0 && i < sizeof clone_ns_flags / sizeof clone_ns_flags[0]; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, clone_ns_flags[i], clone_ns_flags[i]));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    int rc;
    if (argc < 2) {
        fprintf(stderr, "usage: refuse-ns COMMAND ARG...   (as root)\n");
        return 2;
    }
    if (geteuid() != 0) {
        fprintf(stderr, "refuse-ns: must run as root (it stands for a container's root)\n");
        return 2;
    }
    rc = load_filter();
    if (rc != 0)
        return fail("installing the seccomp filter", -rc);
    /* every capability the kernel knows, up to the first it does not */
    for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
        if (!kept(cap) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0)
            return fail("dropping a capability", errno);
    execvp(argv[1], argv + 1);
    return fail(argv[1], errno);
}
