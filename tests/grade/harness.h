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
#undef chalk_run_group
#define chalk_run_group chalk_grade_run_group

int chalk_grade_run_group(const char *group, const struct CMUnitTest *tests,
                          size_t count, CMFixtureFunction setup,
                          CMFixtureFunction teardown);

/* Called by the generated wrappers (tests/grade/wrap.sh): runs thunk(ret, args),
 * which calls the student's function fn, in a child process and copies its
 * result (size bytes) back into ret. defined is 0 when the submission lacks fn. */
void chalk_grade_call(void *ret, size_t size, void (*thunk)(void *ret, void *args),
                      void *args, const char *fn, int defined);

/* The same, in this process: for a contract function whose result the child could
 * not hand back (a writable pointer argument, a pointer result). */
void chalk_grade_call_here(void (*thunk)(void *ret, void *args), void *ret, void *args,
                           const char *fn, int defined);

#endif /* CHALK_GRADE_HARNESS_H */
