/*
 * runner.h -- force-included (gcc -include) into the test files that `make check`
 * and `make grade` build, so one test binary can also
 *
 *   CHALK_LIST=1 ./test          print its test names, one a line, and run nothing
 *   CHALK_ONLY='ex: fact' ./test run that one test only (in its own process:
 *                                the graders run each test this way under limits)
 *   CHALK_VALUES=1 ./test        after a failed assert_close, also print the value
 *                                computed with all its digits, on a line
 *                                "chalk-value: VALUE" (make check compares it with
 *                                the values of the catalogued mistakes)
 *
 * It includes cmocka.h first, then replaces cmocka's group-runner macros with a
 * function that honours the first two, and print_error (which assert_close of
 * tests/test_util.h calls) with one that honours the third. Without them the binary
 * runs and prints exactly as cmocka would. The test files themselves are unchanged.
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

/* print_error; with CHALK_VALUES set, it formats the message again with every %.6g
 * as %.17g (the same argument types) and prints the number that follows the last
 * " = " before ", expected": assert_close's "EXPR = VALUE UNIT, expected ...". */
static inline void chalk_print_error(const char *format, ...) CMOCKA_PRINTF_ATTRIBUTE(1, 2);
static inline void chalk_print_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vprint_error(format, args);
    va_end(args);
    if (getenv("CHALK_VALUES") == NULL)
        return;
    char precise[512], line[1024];
    size_t n = 0;
    for (const char *p = format; *p != '\0' && n + 6 < sizeof precise; p++) {
        if (strncmp(p, "%.6g", 4) == 0) {
            memcpy(precise + n, "%.17g", 5);
            n += 5;
            p += 3;
        } else {
            precise[n++] = *p;
        }
    }
    precise[n] = '\0';
    va_start(args, format);
    vsnprintf(line, sizeof line, precise, args);
    va_end(args);
    char *end = strstr(line, ", expected ");
    if (end == NULL)
        return;
    *end = '\0';
    const char *value = NULL;
    for (const char *p = line; (p = strstr(p, " = ")) != NULL; p++)
        value = p + 3;
    if (value != NULL)
        print_error("chalk-value: %.*s\n", (int)strcspn(value, " "), value);
}
#define print_error chalk_print_error

#undef cmocka_run_group_tests
#undef cmocka_run_group_tests_name
#define cmocka_run_group_tests(tests, setup, teardown) \
    chalk_run_group(#tests, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)
#define cmocka_run_group_tests_name(name, tests, setup, teardown) \
    chalk_run_group(name, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)

#endif /* CHALK_RUNNER_H */
