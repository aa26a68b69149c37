/*
 * fixtures.h -- what chapter 2's public test files share: defined once in
 * test_moe.c, declared here for test_moe_layout.c too (one binary).
 */
#ifndef CHALK_TESTS_02_FIXTURES_H
#define CHALK_TESTS_02_FIXTURES_H

#include "moe.h"

/* DeepSeek-V3 in fp4 on the 64 GPUs of a GB200 NVL72 that hold its 256 experts. */
moe_deploy deepseek_on_nvl72(void);
/* A roof's name ("compute", "memory", "network"), for assert_named. */
const char *bound_name(int b);

#endif
