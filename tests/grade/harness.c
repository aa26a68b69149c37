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
 *
 * Files (one object: harness-build.sh links them and makes what they share local):
 * this one, the harness process (the tests, their limits, the verdicts);
 * harness-call.c, the calls (where each runs, its arguments and buffers carried
 * there and its answer back, the strings it hands back); harness-filter.c, the
 * system-call filter; harness-internal.h, what they share.
 */
#define _GNU_SOURCE
#include "harness-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    VERDICT_FD = 3,
    DETAIL_CAP = 16384, /* bytes of cmocka's output kept per test */
    PRINTED_CAP = 4096, /* bytes of the student's printing kept per test */
};

int chalk_harness_printed_fd = -1;

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

chalk_harness_call_counts *chalk_harness_counts; /* harness-internal.h */

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
    if (chalk_harness_counts != NULL)
        s += (double)__atomic_load_n(&chalk_harness_counts->reaped_cpu_ns, __ATOMIC_RELAXED) *
                 1e-9 +
             cpu_of(__atomic_load_n(&chalk_harness_counts->server_pid, __ATOMIC_RELAXED)) +
             cpu_of(__atomic_load_n(&chalk_harness_counts->fork_pid, __ATOMIC_RELAXED));
    return s;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* An anonymous file for one test's output (memfd; a tmpfile where there is none). */
int chalk_harness_capture_file(const char *name)
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

/* ---- the harness: one process per test ---------------------------------------- */

static void run_one(const char *group, const struct CMUnitTest *test,
                    CMFixtureFunction setup, CMFixtureFunction teardown, double limit,
                    int out_fd)
{
    int detail = chalk_harness_capture_file("detail");
    int printed = chalk_harness_capture_file("printed");
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    fflush(stdout);
    fflush(stderr);
    if (chalk_harness_counts != NULL)
        *chalk_harness_counts = (chalk_harness_call_counts){0, 0, 0, 0, 0};
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
        chalk_harness_printed_fd = printed;
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
            if (chalk_harness_counts != NULL) {
                extra = (double)__atomic_load_n(&chalk_harness_counts->server, __ATOMIC_RELAXED) *
                            ALLOWANCE_SERVER_S +
                        (double)__atomic_load_n(&chalk_harness_counts->fork, __ATOMIC_RELAXED) *
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
    chalk_harness_write_all(out_fd, b.p, b.len);
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
    chalk_harness_build_filter();
    chalk_harness_find_strings(); /* where string constants are, for every test */
    chalk_harness_counts = mmap(NULL, sizeof *chalk_harness_counts, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (chalk_harness_counts == MAP_FAILED)
        chalk_harness_counts = NULL; /* no allowance: the limit alone */
    const char *t = getenv("CHALK_TIMEOUT");
    double limit = t != NULL ? atof(t) : 2.0;
    if (!(limit > 0))
        limit = 2.0;
    int out_fd = fcntl(VERDICT_FD, F_GETFD) >= 0 ? VERDICT_FD : 1;
    for (size_t i = 0; i < count; i++)
        run_one(group, &tests[i], setup, teardown, limit, out_fd);
    return 0;
}
