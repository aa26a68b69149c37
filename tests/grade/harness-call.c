/*
 * harness-call.c -- a call: the student's function in a process of its own (the
 * grading harness's second file: harness-internal.h; the design, and why the
 * student's code cannot forge a verdict, is in harness.c).
 *
 * The test's side: chalk_grade_call(), which the generated wrappers (wrap.sh) call
 * for every contract function, decides where the call runs (the test's call
 * server for a portable call, else a fresh child), sends the argument block and a
 * copy of each buffer (by the sizes the wrapper computed, buffers.txt), reads the
 * reply and copies the result and every OUT buffer back into the caller's, after
 * checking that each string the call handed back is NULL or a string constant of
 * the test binary (string_constant()). A call that fails (a crash, a refused
 * system call, a reply cut short, an exit) fails the test there, with why.
 * The call's side: enter_call() (the descriptors it holds, the filter), the call
 * server's loop (serve()), and the reply (send_reply()).
 */
#define _GNU_SOURCE
#include "harness-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int in_call = 0; /* in a call */

/* ---- pipes ------------------------------------------------------------------------ */

size_t chalk_harness_write_all(int fd, const void *p, size_t n)
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

/* In the test, after it reaped a call: the CPU time of all its reaped calls. */
static void note_reaped(void)
{
    struct rusage ru;
    if (chalk_harness_counts == NULL || getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return;
    uint64_t ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
                  (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
    __atomic_store_n(&chalk_harness_counts->reaped_cpu_ns, ns, __ATOMIC_RELAXED);
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

void chalk_harness_find_strings(void)
{
    dl_iterate_phdr(find_readonly, NULL);
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
    if (chalk_harness_counts != NULL)
        munmap(chalk_harness_counts, sizeof *chalk_harness_counts);
    chalk_harness_counts = NULL;
    for (int sig = 1; sig < NSIG; sig++) /* cmocka's crash handlers belong to the test */
        if (sig != SIGKILL && sig != SIGSTOP)
            signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int r = fcntl(reply, F_DUPFD, 10), q = requests >= 0 ? fcntl(requests, F_DUPFD, 10) : -1;
    if (chalk_harness_printed_fd >= 0) {
        dup2(chalk_harness_printed_fd, 1);
        dup2(chalk_harness_printed_fd, 2);
    }
    dup2(1, 0); /* stdin too: a call reads nothing but its requests */
    dup2(r, REPLY_FD);
    if (q >= 0)
        dup2(q, REQUEST_FD);
    int first = q >= 0 ? REQUEST_FD + 1 : REPLY_FD + 1;
    if (close_range((unsigned)first, ~0U, 0) != 0)
        for (int fd = first; fd < 1024; fd++)
            close(fd);
    int err = chalk_harness_filter_call();
    if (err != 0) {
        unsigned char rec[1 + sizeof(int32_t)] = {REPLY_NOFILTER};
        int32_t e = err;
        memcpy(rec + 1, &e, sizeof e);
        chalk_harness_write_all(REPLY_FD, rec, sizeof rec);
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
        chalk_harness_write_all(REPLY_FD, (const unsigned char[]){REPLY_OK}, 1);
        chalk_harness_write_all(REPLY_FD, ret, ret_size);
        len = 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (c[i].kind != CHALK_GRADE_OUT || c[i].bytes == 0)
            continue;
        if (len + c[i].bytes <= sizeof small) {
            memcpy(small + len, slot_ptr(args, c[i].slot), c[i].bytes);
            len += c[i].bytes;
        } else {
            chalk_harness_write_all(REPLY_FD, small, len);
            len = 0;
            chalk_harness_write_all(REPLY_FD, slot_ptr(args, c[i].slot), c[i].bytes);
        }
    }
    if (string_cap > 0) {
        const char *s = *(const char *const *)ret;
        uint32_t k = s == NULL ? UINT32_MAX : (uint32_t)strnlen(s, string_cap);
        if (len + sizeof k + (s != NULL ? k : 0) > sizeof small) {
            chalk_harness_write_all(REPLY_FD, small, len);
            len = 0;
        }
        memcpy(small + len, &k, sizeof k);
        len += sizeof k;
        if (s != NULL) {
            if (len + k <= sizeof small) {
                memcpy(small + len, s, k);
                len += k;
            } else {
                chalk_harness_write_all(REPLY_FD, small, len);
                len = 0;
                chalk_harness_write_all(REPLY_FD, s, k);
            }
        }
    }
    chalk_harness_write_all(REPLY_FD, small, len);
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
    if (chalk_harness_counts != NULL)
        __atomic_store_n(&chalk_harness_counts->server_pid, (int32_t)c, __ATOMIC_RELAXED);
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
    if (chalk_harness_write_all(server_requests, msg, len) == len)
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
        if (chalk_harness_counts != NULL)
            __atomic_store_n(&chalk_harness_counts->server_pid, 0, __ATOMIC_RELAXED);
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
    if (chalk_harness_counts != NULL)
        __atomic_store_n(&chalk_harness_counts->fork_pid, (int32_t)pid, __ATOMIC_RELAXED);
    int32_t num = 0;
    int reply = read_reply(p[0], rep, need, fn->string_cap, str, &num);
    close(p[0]); /* a call still writing gets EPIPE, and ends */
    int st = wait_for(pid);
    note_reaped();
    if (chalk_harness_counts != NULL)
        __atomic_store_n(&chalk_harness_counts->fork_pid, 0, __ATOMIC_RELAXED);
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
    const char *no_filter = chalk_harness_filter_missing();
    if (no_filter != NULL) {
        print_error("grading: %s: no system-call filter: %s; no call runs without it\n",
                    fn->name, no_filter);
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
    if (chalk_harness_counts != NULL)
        __atomic_fetch_add(portable ? &chalk_harness_counts->server : &chalk_harness_counts->fork,
                           1, __ATOMIC_RELAXED);
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
