/*
 * fixtures.h -- the fixtures chapter 5's public test files share: defined once in
 * test_context.c, declared here for the others (one binary).
 */
#ifndef CHALK_TESTS_05_FIXTURES_H
#define CHALK_TESTS_05_FIXTURES_H

#include "context.h"

/* DeepSeek-V3's absorbed MLA: 61 layers of 128 heads, 576 + 512 per cached token. */
#define DSV3_ATTN_FLOPS (2.0 * 61 * 128 * (576 + 512))

context_deploy deepseek_on_nvl72(void);
context_deploy deepseek_without_attention(void);
context_deploy toy_deploy(double params_total, double params_active, double kv, double attn,
                          double flops_per_s, double bytes_per_s);
const cost_api_price *api_prices(const char *name);

#endif
