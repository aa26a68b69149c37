/*
 * main.c -- runs every tests/chalk/test_NAME.c as one cmocka group, "chalk".
 *
 * Each file defines `const struct CMUnitTest chalk_tests_NAME[]` and
 * `const size_t chalk_tests_NAME_count` (harness.h). The Makefile passes their names
 * as -DCHALK_TEST_GROUPS="X(01_batching) X(core) ...", one per file, so a new file is
 * picked up without naming it here.
 */
#include <stdlib.h>

#include "../test_util.h"

#ifndef CHALK_TEST_GROUPS
#error "build with -DCHALK_TEST_GROUPS='X(name) ...' (the Makefile does)"
#endif

#define X(name)                                                                                    \
    extern const struct CMUnitTest chalk_tests_##name[];                                          \
    extern const size_t chalk_tests_##name##_count;
CHALK_TEST_GROUPS
#undef X

typedef struct group {
    const struct CMUnitTest *tests;
    size_t count;
} group;

int main(void)
{
#define X(name) {chalk_tests_##name, 0},
    group groups[] = {CHALK_TEST_GROUPS};
#undef X
    size_t n = 0, g = 0;
#define X(name) groups[g++].count = chalk_tests_##name##_count;
    CHALK_TEST_GROUPS
#undef X
    size_t total = 0;
    for (g = 0; g < sizeof groups / sizeof groups[0]; g++)
        total += groups[g].count;
    struct CMUnitTest *all = malloc(total * sizeof *all);
    if (!all)
        return 1;
    for (g = 0; g < sizeof groups / sizeof groups[0]; g++)
        for (size_t i = 0; i < groups[g].count; i++)
            all[n++] = groups[g].tests[i];
    int failed = _cmocka_run_group_tests("chalk", all, total, NULL, NULL);
    free(all);
    return failed;
}
