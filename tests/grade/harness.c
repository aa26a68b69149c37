/*
 * harness.c -- the grading harness: the main loop of a graded test binary, and the
 * wall between the tests and the student's code. Trusted code, linked by grade.sh.
 *
 * A graded test binary is linked from the chapter's test files (each with
 * harness.h force-included), this harness, wrappers generated from the contract
 * header (wrap.sh), lib/, and the student's object, whose contract functions were
 * renamed chalk_student_NAME (objcopy) once it had passed the object checks. The
 * wrappers define the contract's names, so a test that calls batching_step_at()
 * calls a wrapper, and the wrapper runs chalk_student_batching_step_at() in a child.
 *
 * Three kinds of process:
 *   the harness  runs no test code and no student code. It forks one process per
 *                test, waits for it under the test's time limit, and alone writes
 *                the verdicts, to descriptor 3, which only it holds.
 *   a test       runs one cmocka test (trusted) with its output going to a capture
 *                file; it closed descriptor 3 first. Its exit status is the
 *                verdict: 0 when cmocka counted no failure.
 *   a call       every call from a test into a contract function forks: the child
 *                (a "call") runs the student's function, writes its return value
 *                on a pipe and exits. The student's code runs only in calls.
 *
 * Why the verdict cannot be forged by the student's code: a call holds no
 * descriptor to the verdicts (closed in the test before any call), cannot reopen
 * the harness's (no /proc under bwrap; elsewhere /proc/PID/fd of a non-dumpable
 * process is closed to it), and cannot reach the memory of the test or of the
 * harness: they are other processes, made non-dumpable (PR_SET_DUMPABLE 0), so a
 * process of the same uid can neither ptrace them nor open /proc/PID/mem. What
 * the student's code prints goes to a file of its own, shown as "your code
 * printed", never parsed. So a call can only hand back a value (its answer),
 * print, crash, hang, or kill its parent, and each of these fails the test it is in
 * and nothing else. Printing "[       OK ]" and exiting, as a submission once did,
 * is now just a call that did not return. The object checks (grade.sh) keep the
 * student's object from defining anything but the contract's functions, running
 * code at load time or making system calls; the sandbox keeps a call that gets
 * round them from reaching anything outside.
 *
 * Protocol: CHALK_LIST=1 prints the test names, one a line, and runs nothing.
 * Otherwise every test runs, each under CHALK_TIMEOUT seconds (default 2), and the
 * harness writes one line per test to descriptor 3 (to stdout when 3 is not open):
 *   {"name": "...", "status": "passed|failed|crashed|timeout", "signal": N,
 *    "detail": "cmocka's output", "printed": "what the student's code printed"}
 * Strings are JSON-escaped with invalid UTF-8 replaced by U+FFFD, each capped.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    VERDICT_FD = 3,
    DETAIL_CAP = 16384,  /* bytes of cmocka's output kept per test */
    PRINTED_CAP = 4096,  /* bytes of the student's printing kept per test */
    CALL_UNDEFINED = 97, /* a call's exit status: it called a function nobody defines */
};

static int printed_fd = -1; /* in a test: where calls send what they print */
static int in_call = 0;     /* in a call */

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

static void write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        c += w;
        n -= (size_t)w;
    }
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
        printed_fd = printed;
        int failed = _cmocka_run_group_tests(group, test, 1, setup, teardown);
        _exit(failed == 0 ? 0 : 1);
    }
    int status = 0, timed_out = 0;
    if (pid > 0) {
        setpgid(pid, pid);
        for (;;) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid || (w < 0 && errno != EINTR))
                break;
            double left = limit - (now_s() - start);
            if (left <= 0) {
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                timed_out = 1;
                break;
            }
            struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
            sigtimedwait(&chld, NULL, &ts);
        }
        kill(-pid, SIGKILL); /* calls still running */
    }
    while (waitpid(-1, NULL, WNOHANG) > 0) { /* orphaned calls (we are a subreaper) */
    }
    sigprocmask(SIG_SETMASK, &old, NULL);

    const char *verdict = "crashed";
    int sig = 0;
    if (pid < 0)
        verdict = "crashed";
    else if (timed_out)
        verdict = "timeout";
    else if (WIFEXITED(status))
        verdict = WEXITSTATUS(status) == 0 ? "passed" : "failed";
    else if (WIFSIGNALED(status))
        sig = WTERMSIG(status);
    buf b = {0};
    char num[64];
    puts_(&b, "{\"name\": ");
    json_string(&b, (const unsigned char *)test->name, strlen(test->name));
    snprintf(num, sizeof num, ", \"status\": \"%s\", \"signal\": %d, \"seconds\": %.3f",
             verdict, sig, now_s() - start);
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
    const char *t = getenv("CHALK_TIMEOUT");
    double limit = t != NULL ? atof(t) : 2.0;
    if (!(limit > 0))
        limit = 2.0;
    int out_fd = fcntl(VERDICT_FD, F_GETFD) >= 0 ? VERDICT_FD : 1;
    for (size_t i = 0; i < count; i++)
        run_one(group, &tests[i], setup, teardown, limit, out_fd);
    return 0;
}

/* ---- a call: the student's function in a process of its own -------------------- */

void chalk_grade_call(void *ret, size_t size, void (*thunk)(void *ret, void *args),
                      void *args, const char *fn, int defined)
{
    if (in_call) { /* the student's code calling a contract function */
        if (!defined) {
            dprintf(2, "%s is not defined in your files\n", fn);
            _exit(CALL_UNDEFINED);
        }
        thunk(ret, args);
        return;
    }
    if (!defined) {
        print_error("%s is not defined in your file\n", fn);
        _fail(fn, 0);
    }
    int p[2];
    if (pipe(p) != 0) {
        print_error("grading: no pipe for %s: %s\n", fn, strerror(errno));
        _fail(fn, 0);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t c = fork();
    if (c < 0) {
        print_error("grading: cannot start %s: %s\n", fn, strerror(errno));
        _fail(fn, 0);
    }
    if (c == 0) {
        in_call = 1;
        for (int sig = 1; sig < NSIG; sig++) /* cmocka's crash handlers belong to the test */
            if (sig != SIGKILL && sig != SIGSTOP)
                signal(sig, SIG_DFL);
        if (printed_fd >= 0) {
            dup2(printed_fd, 1);
            dup2(printed_fd, 2);
        }
        if (p[1] != 3) {
            dup2(p[1], 3);
            close(p[1]);
        }
        if (close_range(4, ~0U, 0) != 0)
            for (int fd = 4; fd < 1024; fd++)
                close(fd);
        thunk(ret, args);
        fflush(stdout);
        fflush(stderr);
        write_all(3, ret, size);
        _exit(0);
    }
    close(p[1]);
    size_t got = read_all(p[0], ret, size);
    close(p[0]);
    int st = 0;
    while (waitpid(c, &st, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(st)) {
        print_error("Test failed with exception: %s in %s(%d)\n", strsignal(WTERMSIG(st)), fn,
                    WTERMSIG(st));
        _fail(fn, 0);
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || got != size) {
        if (WIFEXITED(st) && WEXITSTATUS(st) == CALL_UNDEFINED)
            print_error("%s calls a contract function your files do not define\n", fn);
        else
            print_error("%s did not return (its process ended with exit status %d)\n", fn,
                        WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        _fail(fn, 0);
    }
}

void chalk_grade_call_here(void (*thunk)(void *ret, void *args), void *ret, void *args,
                           const char *fn, int defined)
{
    if (!defined) {
        if (in_call) {
            dprintf(2, "%s is not defined in your files\n", fn);
            _exit(CALL_UNDEFINED);
        }
        print_error("%s is not defined in your file\n", fn);
        _fail(fn, 0);
    }
    thunk(ret, args);
}
