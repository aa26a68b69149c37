/*
 * harness-internal.h -- what the grading harness's own files share, and nothing
 * else includes (the test files get harness.h). The harness is three files, one
 * object (tests/grade/harness-build.sh links them and makes every chalk_harness_*
 * name local to it, so that no other object of a graded binary, the student's
 * least, can call, read or override one):
 *   harness.c         the harness process: one process per test, its CPU limit and
 *                     wall-clock backstop, the verdicts (the design is there);
 *   harness-call.c    a call: the student's function in a process of its own (the
 *                     call server, or a fresh child), its arguments and buffers
 *                     carried there and its answer back, the strings it hands back;
 *   harness-filter.c  the system-call filter every call runs under.
 */
#ifndef CHALK_GRADE_HARNESS_INTERNAL_H
#define CHALK_GRADE_HARNESS_INTERNAL_H

#include "harness.h"

#include <stddef.h>
#include <stdint.h>

enum {
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

/* ---- harness.c ----------------------------------------------------------------- */

/* What the test tells the harness, written by the test, read by the harness: a
 * shared page, which a call unmaps first (harness-call.c, enter_call), so no call
 * process can write it. The calls the test completed; the CPU time of the calls it
 * has reaped (its RUSAGE_CHILDREN, nanoseconds); the pids of its call server and of
 * the fresh call running now (0: none), whose CPU clocks the harness reads while
 * they run. NULL when it could not be mapped (no allowance: the limit alone). */
typedef struct {
    uint64_t server, fork;
    uint64_t reaped_cpu_ns;
    int32_t server_pid, fork_pid;
} chalk_harness_call_counts;
extern chalk_harness_call_counts *chalk_harness_counts;

/* In a test: where its calls send what they print (-1: nowhere of its own). */
extern int chalk_harness_printed_fd;

/* An anonymous file (memfd; a tmpfile where there is none): a descriptor, or -1. */
int chalk_harness_capture_file(const char *name);

/* ---- harness-call.c ------------------------------------------------------------ */

/* write(2) of all n bytes (retried on EINTR): the bytes written, fewer when the
 * descriptor ended or failed. */
size_t chalk_harness_write_all(int fd, const void *p, size_t n);

/* Finds the program's read-only segments, where the string constants a call may
 * hand back are (once, in the harness, before any test forks). */
void chalk_harness_find_strings(void);

/* ---- harness-filter.c ---------------------------------------------------------- */

/* In the harness, before any test: builds the filter (once per binary). */
void chalk_harness_build_filter(void);

/* NULL when the filter was built; else why there is none (no call runs then). */
const char *chalk_harness_filter_missing(void);

/* In a call, last before the student's code: a refused system call reported on
 * REPLY_FD (REPLY_FORBIDDEN, its number) and the call ends; then the filter,
 * installed. 0, or the errno of why it could not be. */
int chalk_harness_filter_call(void);

#endif /* CHALK_GRADE_HARNESS_INTERNAL_H */
