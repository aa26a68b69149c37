/*
 * harness.c -- the grading harness: the main loop of a graded test binary, and the
 * wall between the tests and the student's code. Trusted code, linked by grade.sh.
 *
 * A graded test binary is linked from the chapter's test files (each with
 * harness.h force-included), this harness, wrappers generated from the contract
 * header and tests/grade/buffers.txt (wrap.sh), lib/, and the student's object,
 * whose contract functions were renamed chalk_student_NAME (objcopy) once it had
 * passed the object checks. The wrappers define the contract's names, so a test
 * that calls batching_step_at() calls a wrapper, and the wrapper has
 * chalk_student_batching_step_at() run in a call process (chalk_grade_call).
 *
 * Three kinds of process:
 *   the harness  runs no test code and no student code. It builds the system-call
 *                filter, forks one process per test, waits for it under the test's
 *                CPU-time limit (and a wall-clock backstop), and alone writes the
 *                verdicts, to descriptor 3, which only it holds.
 *   a test       runs one cmocka test (trusted) with its output going to a capture
 *                file; it closed descriptor 3 first. Its exit status is the
 *                verdict: 0 when cmocka counted no failure. It never runs the
 *                student's code.
 *   a call       runs the student's code, and nothing else of the grader's but the
 *                loop that feeds it. Every call from a test into a contract function
 *                goes to one, in one of two ways:
 *                - the test's call server, forked at the test's first call, when
 *                  every pointer argument's data has a size in buffers.txt and holds
 *                  no pointer but strings ("portable", decided by wrap.sh), each of
 *                  those strings is NULL or a string constant (below), and no two
 *                  buffers overlap: the test sends the argument block and a copy of
 *                  each buffer, the server runs the function on its copies and
 *                  replies with the result and the bytes of each buffer the function
 *                  writes. About 8 us a call (a pipe's round trip), so a test may
 *                  make 100,000 calls;
 *                - else a fresh child forked for the one call (a function pointer,
 *                  a const void *, a struct holding pointers among the arguments),
 *                  which sees the test's memory as it is and replies the same way.
 *                Either way the test copies the reply into the caller's result and
 *                buffers, by the sizes it computed itself before the call: a call
 *                chooses the bytes of its answer, never where they go or how many.
 *                A string result is copied (capped) and the test returns its own
 *                copy.
 *
 * Strings inside data (a const char * field, such as chapter 4's `reason`, "a
 * string constant of your choice, never NULL"; a cost_scaling_fit's `name`) are
 * not copied: they must be string constants of the test binary (string_constant():
 * NULL, or a pointer into one of the program's read-only segments, which the
 * harness finds once with dl_iterate_phdr, with a NUL within STRING_CAP bytes and
 * within the segment). Every call process is a fork of the test, so such a pointer
 * means the same bytes in the call and in the test, and no process can change
 * them. In a struct result or an OUT buffer the test accepts the pointer a call
 * handed back only when it is one (or, in a buffer, the pointer the test itself
 * left there); a string the call built (a static buffer, the heap, the stack)
 * exists only in the call's process, and the call fails: "reason must be a string
 * constant". Checking is a range test and no change to the protocol, and it is
 * what the contracts ask; copying strings back by field offset would accept
 * strings they do not. An argument's buffer whose strings are all constants can
 * go to the call server, which holds them at the same address; else the call
 * takes a fresh process, which sees them in place.
 *
 * In a call, before the student's code runs, a seccomp filter (built once per
 * binary by the harness, attached in each call process): compute, allocate without
 * PROT_EXEC, write to what the call prints and to its reply, read the server's
 * requests, abort itself, exit. Any other system call traps: on_sigsys() reports
 * its number and the call ends, a failed call that names the system call.
 *
 * Why the verdict cannot be forged by the student's code: a call holds no
 * descriptor to the verdicts (closed in the test before any call), cannot reopen
 * the harness's (no open, no /proc under bwrap; elsewhere /proc/PID/fd of a
 * non-dumpable process is closed to it), and cannot reach the memory of the test or
 * of the harness: they are other processes, made non-dumpable (PR_SET_DUMPABLE 0),
 * and the filter denies ptrace, process_vm_writev, open, kill, fork and exec
 * anyway. What the student's code prints goes to a file of its own, shown as "your
 * code printed", never parsed. So a call can only hand back an answer, print,
 * crash, hang, or exit, and each of these fails the test it is in and nothing else.
 * Printing "[       OK ]" and exiting, as a submission once did, or calling _exit
 * found through libc's own symbol table, or a system call hidden in a constant, is
 * just a call that did not return. The object checks (grade.sh) are a lint that
 * explains such a refusal early; the sandbox keeps the whole run from reaching
 * anything outside.
 *
 * Protocol: CHALK_LIST=1 prints the test names, one a line, and runs nothing.
 * Otherwise every test runs, each under CHALK_TIMEOUT seconds of CPU time (default
 * 2), the test's processes together (plus an allowance for each call it completed,
 * up to 3 times as much: see ALLOWANCE_*), and a wall-clock backstop of 10 times
 * that (WALL_BACKSTOP) for a test whose processes are stopped or blocked; and the
 * harness writes one line per test to descriptor 3 (to stdout when 3 is not open):
 *   {"name": "...", "status": "passed|failed|crashed|timeout|stalled", "signal": N,
 *    "seconds": wall, "cpu_seconds": CPU, "detail": "cmocka's output",
 *    "printed": "what the student's code printed"}
 * (timeout: over the CPU limit; stalled: over the wall-clock backstop.)
 * Strings are JSON-escaped with invalid UTF-8 replaced by U+FFFD, each capped.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    VERDICT_FD = 3,
    DETAIL_CAP = 16384,  /* bytes of cmocka's output kept per test */
    PRINTED_CAP = 4096,  /* bytes of the student's printing kept per test */
    CALL_UNDEFINED = 97, /* a call's exit status: it called a function nobody defines */
    CALL_FORBIDDEN = 98, /* ... it made a system call the filter refused */
    CALL_NOFILTER = 99,  /* ... its filter could not be installed */
    CALL_PROTOCOL = 100, /* ... (the call server) a request it could not read */
    REPLY_FD = 3,        /* in a call: its reply to the test */
    REQUEST_FD = 4,      /* in the call server: the test's requests */
    REPLY_OK = 'R',      /* a reply's first byte: the result follows */
    REPLY_FORBIDDEN = 'S', /* a system call the filter refused: its number follows */
    REPLY_NOFILTER = 'F',  /* the filter could not be installed: the errno follows */
};

static int printed_fd = -1; /* in a test: where calls send what they print */
static void build_filter(void);
static int find_readonly(struct dl_phdr_info *info, size_t size, void *data);
static int in_call = 0;     /* in a call */

/* A test's limit is CPU time: CHALK_TIMEOUT seconds of CPU used by the test's
 * processes together (the test, its call server, its fresh call processes), so a
 * test's verdict does not depend on how busy the machine is. What a stopped or
 * blocked process does (no CPU at all) is ended by a wall-clock backstop of
 * WALL_BACKSTOP times the CPU limit in force.
 *
 * What carrying calls to another process costs (the pipes, the forks, the filters)
 * is not the student's: each completed call adds this much to the test's CPU limit,
 * up to ALLOWANCE_CAP times the limit. A round trip to the call server costs a few
 * microseconds of CPU; a fresh process, with its filter, about 0.5 ms. A call that
 * does not return earns nothing, so an endless loop in the student's code still
 * meets the limit itself. */
#define ALLOWANCE_SERVER_S 50e-6
#define ALLOWANCE_FORK_S 2e-3
#define ALLOWANCE_CAP 3.0
#define WALL_BACKSTOP 10.0
#define POLL_S 0.05 /* how often the harness reads a running test's CPU time */

/* What the test tells the harness, written by the test, read by the harness: a
 * shared page, which enter_call() unmaps, so no call process can write it. The
 * calls the test completed; the CPU time of the calls it has reaped (its
 * RUSAGE_CHILDREN, nanoseconds); the pids of its call server and of the fresh call
 * running now (0: none), whose CPU clocks the harness reads while they run. */
typedef struct {
    uint64_t server, fork;
    uint64_t reaped_cpu_ns;
    int32_t server_pid, fork_pid;
} call_counts;
static call_counts *counts;

/* The CPU time process pid has used (its threads; not its children), in seconds;
 * 0 when there is no such process. Any process may read another's CPU clock. */
static double cpu_of(pid_t pid)
{
    clockid_t clock;
    struct timespec t;
    if (pid <= 0 || clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &t) != 0)
        return 0;
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The CPU time of a test's processes: the test's own, the calls it reaped, and its
 * call server and fresh call while they run. A pid is cleared after its process is
 * reaped and counted, so a process is counted once (a moment's undercount at most,
 * while the test does both). */
static double test_cpu_s(pid_t test)
{
    double s = cpu_of(test);
    if (counts != NULL)
        s += (double)__atomic_load_n(&counts->reaped_cpu_ns, __ATOMIC_RELAXED) * 1e-9 +
             cpu_of(__atomic_load_n(&counts->server_pid, __ATOMIC_RELAXED)) +
             cpu_of(__atomic_load_n(&counts->fork_pid, __ATOMIC_RELAXED));
    return s;
}

/* In the test, after it reaped a call: the CPU time of all its reaped calls. */
static void note_reaped(void)
{
    struct rusage ru;
    if (counts == NULL || getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return;
    uint64_t ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
                  (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
    __atomic_store_n(&counts->reaped_cpu_ns, ns, __ATOMIC_RELAXED);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* An anonymous file for one test's output (memfd; a tmpfile where there is none). */
static int capture_file(const char *name)
{
    int fd = memfd_create(name, 0);
    if (fd < 0) {
        FILE *f = tmpfile();
        fd = f != NULL ? dup(fileno(f)) : -1;
        if (f != NULL)
            fclose(f);
    }
    return fd;
}

/* ---- a growing buffer and JSON strings ---------------------------------------- */

typedef struct {
    char *p;
    size_t len, cap;
} buf;

static void put(buf *b, const void *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (p == NULL)
            return; /* out of memory: the record comes out short, jq rejects it */
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned cp, min;
    size_t k;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        k = 2, cp = s[0] & 0x1fu, min = 0x80;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        k = 3, cp = s[0] & 0x0fu, min = 0x800;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        k = 4, cp = s[0] & 0x07u, min = 0x10000;
    else
        return 0;
    if (n < k)
        return 0;
    for (size_t j = 1; j < k; j++) {
        if ((s[j] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[j] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return k;
}

static void json_string(buf *b, const unsigned char *s, size_t n)
{
    puts_(b, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned c = s[i];
        char esc[8];
        size_t k;
        if (c == '"' || c == '\\') {
            esc[0] = '\\', esc[1] = (char)c;
            put(b, esc, 2);
        } else if (c == '\n') {
            puts_(b, "\\n");
        } else if (c == '\t') {
            puts_(b, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            puts_(b, esc);
        } else if (c < 0x80) {
            put(b, s + i, 1);
        } else if ((k = utf8_len(s + i, n - i)) > 0) {
            put(b, s + i, k);
            i += k - 1;
        } else {
            puts_(b, "\\ufffd");
        }
    }
    puts_(b, "\"");
}

/* Appends the first cap bytes of capture file fd as a JSON string. */
static void json_capture(buf *b, int fd, size_t cap)
{
    static unsigned char data[DETAIL_CAP + 64];
    size_t n = 0;
    ssize_t r;
    if (cap > DETAIL_CAP)
        cap = DETAIL_CAP;
    if (fd >= 0 && lseek(fd, 0, SEEK_SET) == 0)
        while (n < cap && (r = read(fd, data + n, cap - n)) > 0)
            n += (size_t)r;
    if (n == cap && fd >= 0 && read(fd, data + n, 1) == 1) {
        memcpy(data + n, " [...]", 6);
        n += 6;
    }
    json_string(b, data, n);
}

static size_t write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, c + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    return done;
}

static size_t read_all(int fd, void *p, size_t n)
{
    char *c = p;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, c + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    return got;
}

/* ---- the harness: one process per test ---------------------------------------- */

static void run_one(const char *group, const struct CMUnitTest *test,
                    CMFixtureFunction setup, CMFixtureFunction teardown, double limit,
                    int out_fd)
{
    int detail = capture_file("detail"), printed = capture_file("printed");
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    fflush(stdout);
    fflush(stderr);
    if (counts != NULL)
        *counts = (call_counts){0, 0, 0, 0, 0};
    struct rusage ru0, ru1;
    getrusage(RUSAGE_CHILDREN, &ru0);
    double start = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        setpgid(0, 0);
        close(VERDICT_FD);
        if (detail >= 0) {
            dup2(detail, 1);
            dup2(detail, 2);
            close(detail);
        }
        setvbuf(stdout, NULL, _IONBF, 0);
        signal(SIGPIPE, SIG_IGN); /* a call that died: a failed write, not a dead test */
        printed_fd = printed;
        int failed = _cmocka_run_group_tests(group, test, 1, setup, teardown);
        _exit(failed == 0 ? 0 : 1);
    }
    int status = 0, timed_out = 0; /* 1: over its CPU limit, 2: over the wall backstop */
    double cpu_used = 0;
    if (pid > 0) {
        setpgid(pid, pid);
        for (;;) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid || (w < 0 && errno != EINTR))
                break;
            double extra = 0;
            if (counts != NULL) {
                extra = (double)__atomic_load_n(&counts->server, __ATOMIC_RELAXED) *
                            ALLOWANCE_SERVER_S +
                        (double)__atomic_load_n(&counts->fork, __ATOMIC_RELAXED) *
                            ALLOWANCE_FORK_S;
                if (extra > ALLOWANCE_CAP * limit)
                    extra = ALLOWANCE_CAP * limit;
            }
            cpu_used = test_cpu_s(pid);
            double cpu_left = limit + extra - cpu_used;
            double wall_left = WALL_BACKSTOP * (limit + extra) - (now_s() - start);
            if (cpu_left <= 0 || wall_left <= 0) {
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                timed_out = cpu_left <= 0 ? 1 : 2;
                break;
            }
            /* CPU time cannot run ahead of the wall clock by more than the cores in
             * use: look again after a short while, or at the backstop */
            double left = cpu_left < wall_left ? cpu_left : wall_left;
            if (left > POLL_S)
                left = POLL_S;
            struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
            sigtimedwait(&chld, NULL, &ts);
        }
        kill(-pid, SIGKILL); /* calls still running */
        for (;;) { /* reaped now (they are ours: we are a subreaper), counted with this test */
            pid_t r = waitpid(-pid, NULL, 0);
            if (r < 0 && errno != EINTR)
                break;
        }
    }
    while (waitpid(-1, NULL, WNOHANG) > 0) { /* orphaned calls (we are a subreaper) */
    }
    /* what the test and every process of it that was reaped used, to report */
    if (pid > 0 && getrusage(RUSAGE_CHILDREN, &ru1) == 0) {
        double all = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec + ru1.ru_stime.tv_sec -
                              ru0.ru_stime.tv_sec) +
                     (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec + ru1.ru_stime.tv_usec -
                              ru0.ru_stime.tv_usec) * 1e-6;
        if (all > cpu_used)
            cpu_used = all;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);

    const char *verdict = "crashed";
    int sig = 0;
    if (pid < 0)
        verdict = "crashed";
    else if (timed_out == 1)
        verdict = "timeout";
    else if (timed_out == 2)
        verdict = "stalled";
    else if (WIFEXITED(status))
        verdict = WEXITSTATUS(status) == 0 ? "passed" : "failed";
    else if (WIFSIGNALED(status))
        sig = WTERMSIG(status);
    buf b = {0};
    char num[192];
    puts_(&b, "{\"name\": ");
    json_string(&b, (const unsigned char *)test->name, strlen(test->name));
    snprintf(num, sizeof num, ", \"status\": \"%s\", \"signal\": %d, \"seconds\": %.3f, \"cpu_seconds\": %.3f",
             verdict, sig, now_s() - start, cpu_used);
    puts_(&b, num);
    puts_(&b, ", \"detail\": ");
    json_capture(&b, detail, DETAIL_CAP);
    puts_(&b, ", \"printed\": ");
    json_capture(&b, printed, PRINTED_CAP);
    puts_(&b, "}\n");
    write_all(out_fd, b.p, b.len);
    free(b.p);
    if (detail >= 0)
        close(detail);
    if (printed >= 0)
        close(printed);
}

int chalk_grade_run_group(const char *group, const struct CMUnitTest *tests,
                          size_t count, CMFixtureFunction setup,
                          CMFixtureFunction teardown)
{
    prctl(PR_SET_DUMPABLE, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (getenv("CHALK_LIST") != NULL) {
        for (size_t i = 0; i < count; i++)
            printf("%s\n", tests[i].name);
        fflush(stdout);
        return 0;
    }
    build_filter();
    dl_iterate_phdr(find_readonly, NULL); /* where string constants are, for every test */
    counts = mmap(NULL, sizeof *counts, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (counts == MAP_FAILED)
        counts = NULL; /* no allowance: the limit alone */
    const char *t = getenv("CHALK_TIMEOUT");
    double limit = t != NULL ? atof(t) : 2.0;
    if (!(limit > 0))
        limit = 2.0;
    int out_fd = fcntl(VERDICT_FD, F_GETFD) >= 0 ? VERDICT_FD : 1;
    for (size_t i = 0; i < count; i++)
        run_one(group, &tests[i], setup, teardown, limit, out_fd);
    return 0;
}

/* ---- strings a call hands back: string constants of this binary ---------------- */

enum { STRING_CAP = 4096 }; /* bytes a string constant may hold, its NUL included */

static struct {
    uintptr_t lo, hi;
} readonly[16];          /* the program's read-only segments (PT_LOAD without PF_W) */
static int nreadonly = -1; /* -1: not looked up */

static int find_readonly(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    nreadonly = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) == 0 &&
            nreadonly < (int)(sizeof readonly / sizeof *readonly)) {
            readonly[nreadonly].lo = info->dlpi_addr + ph->p_vaddr;
            readonly[nreadonly].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
            nreadonly++;
        }
    }
    return 1; /* the first object is the program itself: stop there */
}

/* s is NULL or a string constant of the test binary: it points into one of the
 * program's read-only segments, and a NUL follows within STRING_CAP bytes without
 * leaving the segment. Reads nothing outside those segments. */
static int string_constant(const char *s)
{
    if (s == NULL)
        return 1;
    if (nreadonly < 0)
        dl_iterate_phdr(find_readonly, NULL);
    uintptr_t a = (uintptr_t)s;
    for (int i = 0; i < nreadonly; i++)
        if (a >= readonly[i].lo && a < readonly[i].hi) {
            size_t room = readonly[i].hi - a;
            return memchr(s, '\0', room < STRING_CAP ? room : STRING_CAP) != NULL;
        }
    return 0;
}

/* ---- the system-call filter of a call ------------------------------------------- */

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

static void build_filter(void)
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
        int fd = capture_file("chalk-bpf");
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

/* ---- a call: the student's function in a process of its own -------------------- */

/* A pointer argument as a call carries it: where it is in the argument block, the
 * bytes it points to, and what happens to them. */
typedef struct {
    uint64_t slot, bytes;
    uint32_t kind, null;
} carry;

/* The request of a portable call to the call server; then its body, body_size bytes:
 * the argument block, the carries, and the bytes of every IN and OUT buffer (read
 * at once: a call costs the server two reads and one write). */
typedef struct {
    void (*thunk)(void *ret, void *args);
    uint64_t args_size, ret_size, string_cap, ncarry, body_size;
} request;

enum { CARRY_MAX = 1 << 30 }; /* bytes a call's buffers may hold together */

static void *slot_ptr(void *args, uint64_t slot) { return *(void **)((char *)args + slot); }

/* In a call, from a fresh fork: the descriptors a call holds (0, 1 and 2 what it
 * prints, 3 its reply, 4 the server's requests), default signal actions, the filter. */
static void enter_call(int reply, int requests)
{
    in_call = 1;
    if (counts != NULL)
        munmap(counts, sizeof *counts);
    counts = NULL;
    for (int sig = 1; sig < NSIG; sig++) /* cmocka's crash handlers belong to the test */
        if (sig != SIGKILL && sig != SIGSTOP)
            signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int r = fcntl(reply, F_DUPFD, 10), q = requests >= 0 ? fcntl(requests, F_DUPFD, 10) : -1;
    if (printed_fd >= 0) {
        dup2(printed_fd, 1);
        dup2(printed_fd, 2);
    }
    dup2(1, 0); /* stdin too: a call reads nothing but its requests */
    dup2(r, REPLY_FD);
    if (q >= 0)
        dup2(q, REQUEST_FD);
    int first = q >= 0 ? REQUEST_FD + 1 : REPLY_FD + 1;
    if (close_range((unsigned)first, ~0U, 0) != 0)
        for (int fd = first; fd < 1024; fd++)
            close(fd);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSYS, &sa, NULL);
    int err = install_filter();
    if (err != 0) {
        unsigned char rec[1 + sizeof(int32_t)] = {REPLY_NOFILTER};
        int32_t e = err;
        memcpy(rec + 1, &e, sizeof e);
        write_all(REPLY_FD, rec, sizeof rec);
        _exit(CALL_NOFILTER);
    }
}

/* In a call, after the student's function returned: the reply. REPLY_OK, the result,
 * every OUT buffer, and for a string result its length (UINT32_MAX: NULL) and bytes. */
static void send_reply(const void *ret, uint64_t ret_size, uint64_t string_cap, void *args,
                       const carry *c, size_t n)
{
    unsigned char small[4096];
    size_t len = 1 + ret_size;
    fflush(stdout);
    fflush(stderr);
    if (len <= sizeof small) {
        small[0] = REPLY_OK;
        memcpy(small + 1, ret, ret_size);
    } else {
        write_all(REPLY_FD, (const unsigned char[]){REPLY_OK}, 1);
        write_all(REPLY_FD, ret, ret_size);
        len = 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (c[i].kind != CHALK_GRADE_OUT || c[i].bytes == 0)
            continue;
        if (len + c[i].bytes <= sizeof small) {
            memcpy(small + len, slot_ptr(args, c[i].slot), c[i].bytes);
            len += c[i].bytes;
        } else {
            write_all(REPLY_FD, small, len);
            len = 0;
            write_all(REPLY_FD, slot_ptr(args, c[i].slot), c[i].bytes);
        }
    }
    if (string_cap > 0) {
        const char *s = *(const char *const *)ret;
        uint32_t k = s == NULL ? UINT32_MAX : (uint32_t)strnlen(s, string_cap);
        if (len + sizeof k + (s != NULL ? k : 0) > sizeof small) {
            write_all(REPLY_FD, small, len);
            len = 0;
        }
        memcpy(small + len, &k, sizeof k);
        len += sizeof k;
        if (s != NULL) {
            if (len + k <= sizeof small) {
                memcpy(small + len, s, k);
                len += k;
            } else {
                write_all(REPLY_FD, small, len);
                len = 0;
                write_all(REPLY_FD, s, k);
            }
        }
    }
    write_all(REPLY_FD, small, len);
}

/* The call server: one process per test, forked at its first portable call, that
 * runs portable calls on copies of their buffers until the test ends. */
static void serve(void)
{
    unsigned char *body = NULL;
    size_t body_cap = 0;
    for (;;) {
        request h;
        size_t got = read_all(REQUEST_FD, &h, sizeof h);
        if (got != sizeof h)
            _exit(got == 0 ? 0 : CALL_PROTOCOL);
        if (h.body_size > (uint64_t)CARRY_MAX * 2 || h.args_size > h.body_size ||
            h.ncarry > (h.body_size - h.args_size) / sizeof(carry))
            _exit(CALL_PROTOCOL);
        if (h.body_size > body_cap) {
            free(body);
            body_cap = h.body_size;
            if ((body = malloc(body_cap)) == NULL)
                _exit(CALL_PROTOCOL);
        }
        if (read_all(REQUEST_FD, body, h.body_size) != h.body_size)
            _exit(CALL_PROTOCOL);
        const unsigned char *b = body, *end = body + h.body_size;
        void *args = malloc(h.args_size + 1);
        carry *c = malloc(h.ncarry * sizeof *c + 1);
        void **mem = calloc(h.ncarry + 1, sizeof *mem);
        void *ret = calloc(1, h.ret_size + sizeof(void *));
        if (args == NULL || c == NULL || mem == NULL || ret == NULL)
            _exit(CALL_PROTOCOL);
        memcpy(args, b, h.args_size), b += h.args_size;
        memcpy(c, b, h.ncarry * sizeof *c), b += h.ncarry * sizeof *c;
        for (size_t i = 0; i < h.ncarry; i++) {
            if (c[i].null)
                continue;
            if (c[i].bytes > CARRY_MAX || (mem[i] = calloc(1, c[i].bytes + 1)) == NULL)
                _exit(CALL_PROTOCOL);
            if (c[i].kind != CHALK_GRADE_SCRATCH) {
                if (c[i].bytes > (size_t)(end - b))
                    _exit(CALL_PROTOCOL);
                memcpy(mem[i], b, c[i].bytes), b += c[i].bytes;
            }
            *(void **)((char *)args + c[i].slot) = mem[i];
        }
        if (b != end)
            _exit(CALL_PROTOCOL);
        h.thunk(ret, args);
        send_reply(ret, h.ret_size, h.string_cap, args, c, h.ncarry);
        for (size_t i = 0; i < h.ncarry; i++)
            free(mem[i]);
        free(mem);
        free(c);
        free(args);
        free(ret);
    }
}

/* The test's side of the call server. */
static pid_t server_pid;
static int server_requests = -1, server_replies = -1;

/* A string a call handed back, kept for the rest of the test (one copy per value). */
static const char *intern(const char *s, size_t n)
{
    static struct kept {
        struct kept *next;
        size_t n;
        char s[];
    } *kept;
    for (struct kept *k = kept; k != NULL; k = k->next)
        if (k->n == n && memcmp(k->s, s, n) == 0)
            return k->s;
    struct kept *k = malloc(sizeof *k + n + 1);
    if (k == NULL)
        return NULL;
    memcpy(k->s, s, n);
    k->s[n] = '\0';
    k->n = n;
    k->next = kept;
    kept = k;
    return k->s;
}

/* The test's side of a reply, read into rep (1 + need + 4 bytes): the tag, then the
 * result and the OUT buffers (need bytes, at rep + 1), then the string, at one read
 * when the reply is whole. REPLY_OK when whole; REPLY_FORBIDDEN or REPLY_NOFILTER
 * with *num set; 0 when the reply ended short. */
static int read_reply(int fd, unsigned char *rep, size_t need, uint64_t string_cap,
                      const char **str, int32_t *num)
{
    size_t want = 1 + need + (string_cap > 0 ? sizeof(uint32_t) : 0);
    size_t got = read_all(fd, rep, want);
    if (got < 1)
        return 0;
    if (rep[0] == REPLY_FORBIDDEN || rep[0] == REPLY_NOFILTER) { /* 4 bytes follow */
        unsigned char n[1 + sizeof *num];
        memcpy(n, rep, got < sizeof n ? got : sizeof n);
        if (got < sizeof n && read_all(fd, n + got, sizeof n - got) != sizeof n - got)
            return 0;
        memcpy(num, n + 1, sizeof *num);
        return rep[0];
    }
    if (rep[0] != REPLY_OK || got != want)
        return 0;
    if (string_cap > 0) {
        uint32_t k;
        memcpy(&k, rep + 1 + need, sizeof k);
        if (k != UINT32_MAX && k > string_cap)
            return 0;
        *str = NULL;
        if (k != UINT32_MAX) {
            char *s = malloc((size_t)k + 1);
            if (s == NULL || read_all(fd, s, k) != k) {
                free(s);
                return 0;
            }
            *str = intern(s, k);
            free(s);
            if (*str == NULL)
                return 0;
        }
    }
    return REPLY_OK;
}

/* Why a call failed, for the test's output; then the test fails there. */
static void call_failed(const char *fn, int reply, int32_t num, int status)
{
    if (reply == REPLY_FORBIDDEN) {
        char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, num);
        print_error("%s: your code made a system call the grader does not allow: %s\n", fn,
                    name != NULL ? name : "(unknown)");
        free(name);
    } else if (reply == REPLY_NOFILTER ||
               (WIFEXITED(status) && WEXITSTATUS(status) == CALL_NOFILTER)) {
        print_error("grading: %s: the system-call filter could not be installed (%s); no call "
                    "runs without it\n",
                    fn, reply == REPLY_NOFILTER ? strerror(num) : "?");
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
        print_error("%s: your code made a system call the grader does not allow\n", fn);
    } else if (WIFSIGNALED(status)) {
        print_error("Test failed with exception: %s in %s(%d)\n", strsignal(WTERMSIG(status)), fn,
                    WTERMSIG(status));
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == CALL_UNDEFINED) {
        print_error("%s calls a contract function your files do not define\n", fn);
    } else if (status == -1) {
        print_error("%s did not return (its reply was not the grader's)\n", fn);
    } else {
        print_error("%s did not return (its process ended with exit status %d)\n", fn,
                    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    _fail(fn, 0);
}

static int wait_for(pid_t pid)
{
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return st;
}

/* Starts the test's call server: 1, or 0 (errno says why). */
static int server_start(void)
{
    int req[2], rep[2];
    if (pipe(req) != 0)
        return 0;
    if (pipe(rep) != 0) {
        close(req[0]);
        close(req[1]);
        return 0;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t c = fork();
    if (c == 0) {
        enter_call(rep[1], req[0]);
        serve();
        _exit(0);
    }
    int e = errno;
    close(req[0]);
    close(rep[1]);
    if (c < 0) {
        close(req[1]);
        close(rep[0]);
        errno = e;
        return 0;
    }
    server_pid = c;
    if (counts != NULL)
        __atomic_store_n(&counts->server_pid, (int32_t)c, __ATOMIC_RELAXED);
    server_requests = req[1];
    server_replies = rep[0];
    return 1;
}

/* A portable call, in the call server: the request, then the reply into rep (read_reply). */
static void call_server(const chalk_grade_fn *fn, void *args, const carry *c, size_t n,
                        unsigned char *rep, size_t need, const char **str)
{
    size_t len = sizeof(request) + fn->args_size + n * sizeof *c;
    for (size_t i = 0; i < n; i++)
        if (c[i].kind != CHALK_GRADE_SCRATCH)
            len += c[i].bytes;
    unsigned char *msg = malloc(len), *m = msg;
    if (msg == NULL) {
        print_error("grading: no memory for a call to %s\n", fn->name);
        _fail(fn->name, 0);
    }
    request h = {fn->thunk, fn->args_size, fn->ret_size, fn->string_cap, n, len - sizeof h};
    memcpy(m, &h, sizeof h), m += sizeof h;
    memcpy(m, args, fn->args_size), m += fn->args_size;
    memcpy(m, c, n * sizeof *c), m += n * sizeof *c;
    for (size_t i = 0; i < n; i++)
        if (c[i].kind != CHALK_GRADE_SCRATCH && c[i].bytes > 0) {
            memcpy(m, slot_ptr(args, c[i].slot), c[i].bytes);
            m += c[i].bytes;
        }
    if (server_pid == 0 && !server_start()) {
        free(msg);
        print_error("grading: cannot start a process for %s: %s\n", fn->name, strerror(errno));
        _fail(fn->name, 0);
    }
    int32_t num = 0;
    int reply = 0;
    if (write_all(server_requests, msg, len) == len)
        reply = read_reply(server_replies, rep, need, fn->string_cap, str, &num);
    free(msg);
    if (reply != REPLY_OK) {
        pid_t pid = server_pid;
        kill(pid, SIGKILL); /* a reply cut short: the server is dead, or must be */
        close(server_requests);
        close(server_replies);
        server_pid = 0;
        server_requests = server_replies = -1;
        int st = wait_for(pid);
        note_reaped();
        if (counts != NULL)
            __atomic_store_n(&counts->server_pid, 0, __ATOMIC_RELAXED);
        /* killed by us: it was still running when its reply ended, so it did not return */
        call_failed(fn->name, reply, num, WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? -1 : st);
    }
}

/* A call in a fresh process, forked now: it sees the test's memory as it is. */
static void call_fork(const chalk_grade_fn *fn, void *ret, void *args, const carry *c, size_t n,
                      unsigned char *rep, size_t need, const char **str)
{
    int p[2];
    if (pipe(p) != 0) {
        print_error("grading: no pipe for %s: %s\n", fn->name, strerror(errno));
        _fail(fn->name, 0);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        print_error("grading: cannot start %s: %s\n", fn->name, strerror(errno));
        _fail(fn->name, 0);
    }
    if (pid == 0) {
        close(p[0]);
        enter_call(p[1], -1);
        fn->thunk(ret, args);
        send_reply(ret, fn->ret_size, fn->string_cap, args, c, n);
        _exit(0);
    }
    close(p[1]);
    if (counts != NULL)
        __atomic_store_n(&counts->fork_pid, (int32_t)pid, __ATOMIC_RELAXED);
    int32_t num = 0;
    int reply = read_reply(p[0], rep, need, fn->string_cap, str, &num);
    close(p[0]); /* a call still writing gets EPIPE, and ends */
    int st = wait_for(pid);
    note_reaped();
    if (counts != NULL)
        __atomic_store_n(&counts->fork_pid, 0, __ATOMIC_RELAXED);
    if (reply != REPLY_OK || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        call_failed(fn->name, reply == REPLY_OK ? 0 : reply, num, st);
}

/* The strings of a reply (data: the result, then each OUT buffer's bytes): 1 when
 * each is NULL or a string constant (or, in a buffer, the pointer the test left
 * there); else 0, the first other one named in the test's output. */
static int strings_ok(const chalk_grade_fn *fn, const unsigned char *data, void *args,
                      const chalk_grade_buf *bufs, const carry *c, size_t nbufs)
{
    const char *s;
    for (size_t k = 0; k < fn->nstrings; k++) {
        memcpy(&s, data + fn->strings[k].offset, sizeof s);
        if (!string_constant(s)) {
            print_error("%s: %s must be a string constant (a \"...\" in your code) or NULL; "
                        "it points elsewhere\n",
                        fn->name, fn->strings[k].name);
            return 0;
        }
    }
    const unsigned char *d = data + fn->ret_size;
    for (size_t i = 0; i < nbufs; i++) {
        if (bufs[i].kind != CHALK_GRADE_OUT || c[i].bytes == 0)
            continue;
        for (size_t e = 0; bufs[i].nstrings > 0 && e < c[i].bytes / bufs[i].elem; e++)
            for (size_t k = 0; k < bufs[i].nstrings; k++) {
                const chalk_grade_str *f = &bufs[i].strings[k];
                const char *was;
                memcpy(&s, d + e * bufs[i].elem + f->offset, sizeof s);
                memcpy(&was, (char *)slot_ptr(args, c[i].slot) + e * bufs[i].elem + f->offset,
                       sizeof was);
                if (s == was || string_constant(s)) /* the test's own pointer, or a constant */
                    continue;
                char what[256];
                const char *n = bufs[i].name, *m = f->name;
                if (c[i].bytes / bufs[i].elem > 1)
                    snprintf(what, sizeof what, "%s[%zu]%s%s", n, e, m[0] ? "." : "", m);
                else if (m[0])
                    snprintf(what, sizeof what, "%s->%s", n, m);
                else
                    snprintf(what, sizeof what, "*%s", n);
                print_error("%s: %s must be a string constant (a \"...\" in your code) or NULL; "
                            "it points elsewhere\n",
                            fn->name, what);
                return 0;
            }
        d += c[i].bytes;
    }
    return 1;
}

void chalk_grade_call(const chalk_grade_fn *fn, int defined, void *ret, void *args,
                      const chalk_grade_buf *bufs, size_t nbufs)
{
    if (in_call) { /* the student's code calling a contract function: already a call */
        if (!defined) {
            dprintf(2, "%s is not defined in your files\n", fn->name);
            _exit(CALL_UNDEFINED);
        }
        fn->thunk(ret, args);
        return;
    }
    if (!defined) {
        print_error("%s is not defined in your file\n", fn->name);
        _fail(fn->name, 0);
    }
    if (bpf == NULL) {
        print_error("grading: %s: no system-call filter: %s; no call runs without it\n",
                    fn->name, bpf_error);
        _fail(fn->name, 0);
    }
    /* the bytes of each buffer, from the sizes the wrapper evaluated on the arguments */
    carry c[nbufs + 1];
    size_t need = fn->ret_size, total = 0;
    int portable = fn->portable;
    for (size_t i = 0; i < nbufs; i++) {
        const chalk_grade_buf *b = &bufs[i];
        void *p = slot_ptr(args, b->slot);
        c[i] = (carry){b->slot, 0, (uint32_t)b->kind, p == NULL};
        if (p == NULL || b->negative || b->count == 0)
            continue;
        if (b->count > CARRY_MAX / b->elem || total + b->count * b->elem > CARRY_MAX) {
            if (b->kind == CHALK_GRADE_OUT) {
                print_error("grading: %s: %s holds %ju elements by the size in "
                            "tests/grade/buffers.txt: too many to copy back\n",
                            fn->name, b->name, b->count);
                _fail(fn->name, 0);
            }
            portable = 0; /* a fresh process sees the input in place */
            continue;
        }
        c[i].bytes = b->count * b->elem;
        total += c[i].bytes;
        if (b->kind == CHALK_GRADE_OUT)
            need += c[i].bytes;
    }
    /* strings in the buffers: the server sees the test's memory as it was when it
     * started, where string constants are what they are here, and nothing else is */
    for (size_t i = 0; portable && i < nbufs; i++)
        for (size_t e = 0; bufs[i].nstrings > 0 && e < c[i].bytes / bufs[i].elem; e++)
            for (size_t k = 0; k < bufs[i].nstrings; k++) {
                const char *s;
                memcpy(&s, (char *)slot_ptr(args, c[i].slot) + e * bufs[i].elem +
                               bufs[i].strings[k].offset, sizeof s);
                if (!string_constant(s))
                    portable = 0; /* a fresh process sees it in place */
            }
    /* buffers that overlap stay overlapped only in the test's own memory */
    for (size_t i = 0; portable && i < nbufs; i++)
        for (size_t j = i + 1; j < nbufs; j++) {
            uintptr_t a = (uintptr_t)slot_ptr(args, c[i].slot);
            uintptr_t b = (uintptr_t)slot_ptr(args, c[j].slot);
            if (c[i].bytes > 0 && c[j].bytes > 0 && a < b + c[j].bytes && b < a + c[i].bytes)
                portable = 0;
        }
    /* the reply: its tag, the result and the OUT buffers (data), a string's length */
    unsigned char *rep = malloc(1 + need + sizeof(uint32_t) + 1), *data = rep + 1;
    const char *str = NULL;
    if (rep == NULL) {
        print_error("grading: no memory for a call to %s\n", fn->name);
        _fail(fn->name, 0);
    }
    if (portable)
        call_server(fn, args, c, nbufs, rep, need, &str);
    else
        call_fork(fn, ret, args, c, nbufs, rep, need, &str);
    if (counts != NULL)
        __atomic_fetch_add(portable ? &counts->server : &counts->fork, 1, __ATOMIC_RELAXED);
    if (!strings_ok(fn, data, args, bufs, c, nbufs)) {
        free(rep);
        _fail(fn->name, 0);
    }
    /* the call returned: its result, and what it wrote into the caller's buffers */
    memcpy(ret, data, fn->ret_size);
    unsigned char *d = data + fn->ret_size;
    for (size_t i = 0; i < nbufs; i++)
        if (c[i].kind == CHALK_GRADE_OUT && c[i].bytes > 0) {
            memcpy(slot_ptr(args, c[i].slot), d, c[i].bytes);
            d += c[i].bytes;
        }
    if (fn->string_cap > 0)
        *(const char **)ret = str;
    free(rep);
}
