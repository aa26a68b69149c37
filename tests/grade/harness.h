/*
 * harness.h -- force-included (gcc -include) into the test files `make grade` builds,
 * in place of tests/loop/runner.h. It routes cmocka's group runner to the grading
 * harness (harness.c), which runs every test in its own process and reports each
 * verdict itself; the design, and why the student's code cannot forge a verdict, is
 * in harness.c. The test files are unchanged.
 */
#ifndef CHALK_GRADE_HARNESS_H
#define CHALK_GRADE_HARNESS_H

/* runner.h's group runner, renamed out of the way: its macros call
 * chalk_run_group(), which from here on means the grading harness's. */
#define chalk_run_group chalk_run_group_unused
#include "../loop/runner.h"
#include <stdint.h>
#undef chalk_run_group
#define chalk_run_group chalk_grade_run_group

int chalk_grade_run_group(const char *group, const struct CMUnitTest *tests,
                          size_t count, CMFixtureFunction setup,
                          CMFixtureFunction teardown);

/* A string (a pointer to const char) inside a result or a buffer's element: its
 * offset there and its designator ("reason", "a[1].name"; "" for the element
 * itself). The call hands back its value; the harness accepts it only when it is
 * NULL or a string constant of the test binary (harness-call.c, string_constant). */
typedef struct chalk_grade_str {
    size_t offset;
    const char *name;
} chalk_grade_str;

/* One pointer argument of a call, as the generated wrapper describes it from
 * tests/grade/buffers.txt (wrap.sh): where the pointer is in the argument block and
 * how many bytes it points to. */
typedef struct chalk_grade_buf {
    size_t slot;      /* offset of the pointer in the argument block */
    size_t elem;      /* bytes per element (sizeof *p) */
    int negative;     /* the size's expression was negative: no element */
    uintmax_t count;  /* elements */
    int kind;         /* CHALK_GRADE_IN, _OUT or _SCRATCH */
    const char *name; /* the parameter, for messages */
    const chalk_grade_str *strings; /* an OUT buffer: the strings in each element */
    size_t nstrings;
} chalk_grade_buf;

enum {
    CHALK_GRADE_IN = 1, /* read by the function */
    CHALK_GRADE_OUT,    /* read and written: copied back after the call */
    CHALK_GRADE_SCRATCH /* the function's workspace: neither read nor copied back */
};

/* A contract function, as its wrapper calls it. */
typedef struct chalk_grade_fn {
    const char *name;
    void (*thunk)(void *ret, void *args); /* calls chalk_student_NAME(args), result in ret */
    size_t args_size;                     /* the argument block */
    size_t ret_size;                      /* bytes of the result (0: void or a string) */
    size_t string_cap;                    /* a string result: bytes copied back at most */
    int portable; /* every pointer argument's data is in the bufs: the call server may run it */
    const chalk_grade_str *strings; /* the strings in a struct result */
    size_t nstrings;
} chalk_grade_fn;

/* Called by the generated wrappers (tests/grade/wrap.sh): runs fn with the argument
 * block args in another process (harness-call.c: the test's call server, or a fresh
 * child), then copies its result into ret and the bytes of every CHALK_GRADE_OUT
 * buffer back into the caller's. defined is 0 when the submission lacks fn. */
void chalk_grade_call(const chalk_grade_fn *fn, int defined, void *ret, void *args,
                      const chalk_grade_buf *bufs, size_t nbufs);

#endif /* CHALK_GRADE_HARNESS_H */
