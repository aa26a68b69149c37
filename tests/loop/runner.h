/*
 * runner.h -- force-included (gcc -include) into the test files that `make check`
 * and `make grade` build, so one test binary can also
 *
 *   CHALK_LIST=1 ./test          print its test names, one a line, and run nothing
 *   CHALK_ONLY='ex: fact' ./test run that one test only (in its own process:
 *                                the graders run each test this way under limits)
 *
 * It includes cmocka.h first, then replaces cmocka's group-runner macros with a
 * function that honours those two variables; without them the binary runs every
 * test, exactly as cmocka would. The test files themselves are unchanged.
 */
#ifndef CHALK_RUNNER_H
#define CHALK_RUNNER_H

/* clang-format off: cmocka needs these before its header */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int chalk_run_group(const char *group, const struct CMUnitTest *tests,
                                  size_t count, CMFixtureFunction setup,
                                  CMFixtureFunction teardown)
{
    const char *only = getenv("CHALK_ONLY");
    if (getenv("CHALK_LIST") != NULL) {
        for (size_t i = 0; i < count; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    if (only != NULL) {
        for (size_t i = 0; i < count; i++)
            if (strcmp(tests[i].name, only) == 0)
                return _cmocka_run_group_tests(group, &tests[i], 1, setup, teardown);
        fprintf(stderr, "no test named '%s'\n", only);
        return 99;
    }
    return _cmocka_run_group_tests(group, tests, count, setup, teardown);
}

#undef cmocka_run_group_tests
#undef cmocka_run_group_tests_name
#define cmocka_run_group_tests(tests, setup, teardown) \
    chalk_run_group(#tests, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)
#define cmocka_run_group_tests_name(name, tests, setup, teardown) \
    chalk_run_group(name, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)

#endif /* CHALK_RUNNER_H */
