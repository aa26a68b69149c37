/*
 * test_util.h -- what every Chalk test file shares: cmocka's preamble, a
 * relative-tolerance assertion, and a test-naming macro that ties each test to an
 * exercise.
 *
 * cmocka 1.1.5 has no double assertion, and assert_float_equal is absolute and in
 * float, so a 5x error on 1e-9 passes. assert_close compares doubles relatively
 * and, on failure, prints the expression, both values with %.6g and their unit;
 * assert_named compares enums and prints their names, not their numbers.
 */
#ifndef CHALK_TEST_UTIL_H
#define CHALK_TEST_UTIL_H

/* clang-format off: cmocka needs these before its header */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fails the current test unless |actual - expected| <= rel_tol * max(|a|, |e|). */
#define assert_close(actual, expected, rel_tol, unit)                                \
    chalk_assert_close((actual), (expected), (rel_tol), (unit), #actual, __FILE__, \
                       __LINE__)

static inline void chalk_assert_close(double actual, double expected, double rel_tol,
                                      const char *unit, const char *expr,
                                      const char *file, int line)
{
    double scale = fmax(fabs(actual), fabs(expected));
    if (isfinite(actual) && isfinite(expected) && fabs(actual - expected) <= rel_tol * scale)
        return;
    /* six digits, or all seventeen when six would print the two values alike */
    char a[40], e[40];
    snprintf(a, sizeof a, "%.6g", actual);
    snprintf(e, sizeof e, "%.6g", expected);
    if (strcmp(a, e) == 0) {
        snprintf(a, sizeof a, "%.17g", actual);
        snprintf(e, sizeof e, "%.17g", expected);
    }
    print_error("%s = %s %s, expected %s %s (within %g relative)\n", expr, a, unit, e, unit,
                rel_tol);
    _fail(file, line);
}

/* Fails the current test unless two values of an enum are equal, and prints both by
 * name ("EXPR = memory, expected compute"), name_of giving each value's name. */
#define assert_named(actual, expected, name_of)                                      \
    chalk_assert_named((int)(actual), (int)(expected), (name_of), #actual, __FILE__, \
                       __LINE__)

static inline void chalk_assert_named(int actual, int expected, const char *(*name_of)(int),
                                      const char *expr, const char *file, int line)
{
    if (actual == expected)
        return;
    print_error("%s = %s, expected %s\n", expr, name_of(actual), name_of(expected));
    _fail(file, line);
}

/* A roof's name, for messages about the bound enums (cost_bound of lib/roofline.h,
 * moe_bound of chapter 2: compute 0, memory 1, network 2), written here so that a
 * message never calls the code under test: "step.bound = memory, expected compute". */
static inline const char *chalk_roof_name(int bound)
{
    static const char *const names[] = {"compute", "memory", "network"};
    static char other[32];
    if (bound >= 0 && bound < 3)
        return names[bound];
    snprintf(other, sizeof other, "%d (not a roof)", bound);
    return other;
}
#define assert_roof(actual, expected) assert_named(actual, expected, chalk_roof_name)

/* A named test: cmocka prints it as "exercise: fact", which `make check`, hints
 * and grading read to know which exercise a test belongs to. */
#define CHALK_TEST(exercise, fn) \
    { #exercise ": " #fn, fn, NULL, NULL, NULL }

/*
 * The registry: a chapter's public tests in several files, run as one group.
 *
 * The build links every .c file of tests/NN-topic/ into one binary (make check, make test,
 * make grade), so exactly one file has main(). Each file lists its own tests as a
 * part, at file scope, after the test functions:
 *
 *     CHALK_PART(sim) = {
 *         CHALK_TEST(simulate, a_uniform_router_loads_every_expert_alike),
 *         ...
 *     };
 *     CHALK_PART_END(sim);
 *
 * and the file with main() declares the other files' parts and runs them all, in
 * the order named (the order `make check` lists the exercises in):
 *
 *     CHALK_PART_DECLARE(sim);
 *     int main(void)
 *     {
 *         return chalk_run_parts("02-moe", CHALK_PART_REF(basics), CHALK_PART_REF(sim));
 *     }
 *
 * chalk_run_parts hands the tests, concatenated, to the group runner the build
 * force-includes (tests/loop/runner.h, or the grader's tests/grade/harness.h), so
 * CHALK_LIST, CHALK_ONLY and grading see one group, exactly as with one file.
 */
typedef struct chalk_part {
    const struct CMUnitTest *tests;
    size_t count;
} chalk_part;

typedef int (*chalk_group_runner)(const char *group, const struct CMUnitTest *tests,
                                  size_t count, CMFixtureFunction setup,
                                  CMFixtureFunction teardown);

#define CHALK_PART_DECLARE(part)                                                 \
    extern const struct CMUnitTest chalk_part_##part[];                          \
    extern const size_t chalk_part_##part##_count
#define CHALK_PART(part)                                                         \
    CHALK_PART_DECLARE(part);                                                    \
    const struct CMUnitTest chalk_part_##part[]
#define CHALK_PART_END(part)                                                     \
    const size_t chalk_part_##part##_count =                                     \
        sizeof chalk_part_##part / sizeof chalk_part_##part[0]
#define CHALK_PART_REF(part) ((chalk_part){chalk_part_##part, chalk_part_##part##_count})
#define chalk_run_parts(group, ...)                                              \
    chalk_run_gathered(chalk_run_group, (group), (const chalk_part[]){__VA_ARGS__}, \
                       sizeof((const chalk_part[]){__VA_ARGS__}) / sizeof(chalk_part))

/* Runs the parts' tests as one group; 1 (a failure) when memory for them runs out. */
static inline int chalk_run_gathered(chalk_group_runner run, const char *group,
                                     const chalk_part *parts, size_t n_parts)
{
    size_t total = 0, k = 0;
    for (size_t p = 0; p < n_parts; p++)
        total += parts[p].count;
    struct CMUnitTest *all = calloc(total ? total : 1, sizeof *all);
    if (all == NULL) {
        fprintf(stderr, "%s: no memory for %zu tests\n", group, total);
        return 1;
    }
    for (size_t p = 0; p < n_parts; p++)
        for (size_t i = 0; i < parts[p].count; i++)
            all[k++] = parts[p].tests[i];
    int failed = run(group, all, total, NULL, NULL);
    free(all);
    return failed;
}

#endif /* CHALK_TEST_UTIL_H */
