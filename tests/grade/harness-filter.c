/*
 * harness-filter.c -- the system-call filter of a call (the grading harness's third
 * file: harness-internal.h). Built once per test binary in the harness, before any
 * test (chalk_harness_build_filter, with libseccomp, exported as a BPF program);
 * installed in every call process after fork and before the student's code runs
 * (chalk_harness_filter_call), where a refused system call is reported on the
 * call's reply pipe and ends the call. harness.c says why the filter is one wall
 * of several. Built with -DCHALK_GRADE_NO_FILTER (grade.sh, GRADE_TRUST_FILTER=1,
 * the grader's own tests only) a call installs none: the layers behind it proved
 * on their own.
 */
#define _GNU_SOURCE
#include "harness-internal.h"

#include <errno.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* Built once per test binary (in the harness, before any test), installed in every
 * call process after fork and before the student's code runs. What a call may do:
 * compute; allocate (brk, anonymous mmap, mremap, munmap, madvise, mprotect, never
 * with PROT_EXEC); write to the descriptors it holds (0, 1 and 2: what it prints, 3:
 * its reply) and read its requests (4, the call server's); abort itself (tgkill of
 * its own pid: the placeholder below is patched to it in each call); read the clock;
 * exit. Anything else traps (SIGSYS): on_sigsys() reports the system call's number
 * on the reply pipe and the call ends, a failed call. A system call of another
 * architecture (int $0x80) kills the process. Each rule lengthens the program, and
 * attaching it costs about 2 us an instruction in every fresh call process (61
 * instructions): keep it short. */

#define PID_PLACEHOLDER 0x7ec0ffeeu /* above any pid_max: patched in each call */

static struct sock_filter *bpf;    /* the filter, as seccomp_export_bpf wrote it */
static unsigned short bpf_len;     /* instructions */
static size_t bpf_pid[4], bpf_npid; /* the instructions comparing with PID_PLACEHOLDER */
static char bpf_error[200];        /* why there is no filter ("" when there is) */

static int filter_rules(scmp_filter_ctx ctx, int self_kill)
{
    int rc = 0;
#define ALLOW(call, ...) (rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(call), __VA_ARGS__))
    /* 0, 1 and 2 are what the call prints, 3 its reply (enter_call) */
    ALLOW(write, 1, SCMP_A0(SCMP_CMP_LE, (scmp_datum_t)REPLY_FD));
    ALLOW(writev, 1, SCMP_A0(SCMP_CMP_LE, (scmp_datum_t)REPLY_FD));
    ALLOW(read, 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)REQUEST_FD));
    ALLOW(brk, 0);
    ALLOW(mmap, 2, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0),
          SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS, MAP_ANONYMOUS));
    ALLOW(mprotect, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
    ALLOW(munmap, 0);
    ALLOW(mremap, 0);
    ALLOW(madvise, 0);
    ALLOW(rt_sigprocmask, 0);
    ALLOW(rt_sigreturn, 0);
    ALLOW(getpid, 0);
    ALLOW(clock_gettime, 0);
    ALLOW(gettimeofday, 0);
    ALLOW(time, 0);
    ALLOW(exit, 0);
    ALLOW(exit_group, 0);
    if (self_kill) /* raise() and abort(): tgkill(getpid(), gettid(), sig), one thread */
        ALLOW(tgkill, 2, SCMP_A0(SCMP_CMP_EQ, PID_PLACEHOLDER),
              SCMP_A1(SCMP_CMP_EQ, PID_PLACEHOLDER));
#undef ALLOW
    return rc;
}

void chalk_harness_build_filter(void)
{
    /* with tgkill unless the placeholder cannot be found in the program to patch */
    for (int self_kill = 1; self_kill >= 0; self_kill--) {
        free(bpf);
        bpf = NULL;
        scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
        if (ctx == NULL) {
            snprintf(bpf_error, sizeof bpf_error, "seccomp_init failed");
            return;
        }
        int fd = chalk_harness_capture_file("chalk-bpf");
        int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
        rc |= filter_rules(ctx, self_kill);
        if (rc == 0 && fd >= 0)
            rc = seccomp_export_bpf(ctx, fd);
        seccomp_release(ctx);
        off_t n = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
        if (rc != 0 || n <= 0 || n % (off_t)sizeof *bpf != 0 ||
            n / (off_t)sizeof *bpf > USHRT_MAX || (bpf = malloc((size_t)n)) == NULL ||
            pread(fd, bpf, (size_t)n, 0) != n) {
            snprintf(bpf_error, sizeof bpf_error, "libseccomp could not build it (%s)",
                     rc < 0 ? strerror(-rc) : "no program");
            free(bpf);
            bpf = NULL;
            if (fd >= 0)
                close(fd);
            return;
        }
        close(fd);
        bpf_len = (unsigned short)(n / (off_t)sizeof *bpf);
        bpf_npid = 0;
        for (size_t i = 0; i < bpf_len; i++)
            if (bpf[i].k == PID_PLACEHOLDER && bpf_npid < sizeof bpf_pid / sizeof *bpf_pid)
                bpf_pid[bpf_npid++] = i;
        if (!self_kill || bpf_npid == 2)
            break;
    }
    bpf_error[0] = '\0';
}

/* In a call: the filter, its placeholder patched to this process. 0, or an errno. */
static int install_filter(void)
{
#ifdef CHALK_GRADE_NO_FILTER
    /* only the grader's own tests (GRADE_TRUST_FILTER=1): the layers behind the
     * filter (the sandbox, its limits and cleanups), proved on their own */
    return 0;
#endif
    if (bpf == NULL)
        return ENOSYS;
    for (size_t i = 0; i < bpf_npid; i++)
        bpf[bpf_pid[i]].k = (uint32_t)getpid();
    struct sock_fprog prog = {.len = bpf_len, .filter = bpf};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return errno;
    /* SPEC_ALLOW: no speculative-store-bypass mitigation forced on the call (it
     * slows every store and context switch, and a call holds nothing it cannot
     * read anyway); a kernel older than 4.17 refuses the flag */
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog) == 0)
        return 0;
    if (errno == EINVAL && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0)
        return 0;
    return errno;
}

/* A system call the filter refused: its number on the reply pipe, and the call ends. */
static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
    unsigned char rec[1 + sizeof(int32_t)] = {REPLY_FORBIDDEN};
    int32_t nr = si->si_syscall;
    (void)sig, (void)uc;
    memcpy(rec + 1, &nr, sizeof nr);
    (void)!write(REPLY_FD, rec, sizeof rec);
    _exit(CALL_FORBIDDEN);
}

const char *chalk_harness_filter_missing(void)
{
    return bpf == NULL ? bpf_error : NULL;
}

int chalk_harness_filter_call(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSYS, &sa, NULL);
    return install_filter();
}
