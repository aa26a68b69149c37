/*
 * fixtures.h -- the fixtures chapter 1's public test files share: defined once in
 * test_batching.c, declared here for test_batching_serving.c too (one binary).
 * DeepSeek-V3 in fp4 on a GB200 NVL72 at $2 a GPU-hour (its cache in bf16, unlike
 * the chapter's fp4-cache running example), Llama 3 70B in bf16 on
 * 8 H100s, the power-of-two toy, and the per-sequence compute and KV slopes and the
 * weight term (formulas chapter 1 states: 1-star work).
 */
#ifndef CHALK_TESTS_01_FIXTURES_H
#define CHALK_TESTS_01_FIXTURES_H

#include "batching.h"

batching_deploy deepseek_on_nvl72(void);
batching_deploy llama70b_on_h100x8(void);
batching_deploy power_of_two_toy(void);
double compute_slope(const batching_deploy *d);
double kv_slope(const batching_deploy *d, double ctx);
double weights_term(const batching_deploy *d);

#endif
