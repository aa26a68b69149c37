/*
 * test_context_hidden.c -- Chapter 5 instructor-only tests, run by `make grade` beside
 * the public tests and never shipped in a handout. They check the same contract
 * (exercises/05-long-context/context.h) on other models, chips, price lists and
 * devices than the public tests. Expected values are closed forms with published
 * inputs, never program output.
 *
 * Published inputs:
 *   Llama 3 8B    32 layers, 8 KV heads of 128 (config.json); 8.03e9 parameters
 *   Mixtral 8x7B  46.7e9 total, 12.9e9 active; 32 layers, 8 KV heads of 128
 *   H100 SXM      989e12 bf16 FLOP/s, 3.35e12 B/s (scaling-book gpus.md)
 *   Gemini 2.5 Pro  $1.25 / $10 up to 200k, $2.50 / $15 above; cache reads $0.125
 *                 / $0.25 (Google's pricing page, 2025)
 *   DeepSeek-V3.2 $0.28 miss, $0.028 hit, $0.42 out (DeepSeek's pricing page)
 *   Grace CPU     480 GB LPDDR5X at 512 GB/s (NVIDIA GB200 specifications)
 */
#include "../../test_util.h"

#include "context.h"

#define TIGHT 1e-9

static context_deploy mixtral_on_h100x2(void)
{
    context_deploy d = {
        .params_total = 46.7e9, .params_active = 12.9e9, .bytes_per_param = 2.0,
        .kv_bytes_per_token = 2.0 * 32 * 8 * 128 * 2, .chips = 2,
        .flops_per_s = 989e12, .hbm_bytes_per_s = 3.35e12,
    };
    return d;
}

/* Llama 3 8B, GQA in bf16: 2 x 32 x 8 x 128 x 2 = 131,072 bytes; fp8 half of it. */
static void llama3_8b_cache_is_131072_bytes(void **state)
{
    (void)state;
    assert_close(context_kv_bytes_per_token(32, 8, 128, 2), 131072, TIGHT, "B");
    assert_close(context_kv_bytes_per_token(32, 8, 128, 1), 65536, TIGHT, "B");
}

/* DeepSeek-V2's MLA: 60 layers x (512 + 64) elements in bf16 = 69,120 bytes. */
static void deepseek_v2_mla_cache(void **state)
{
    (void)state;
    assert_close(context_mla_kv_bytes_per_token(60, 512, 64, 2), 69120, TIGHT, "B");
}

/* Closed forms on Mixtral on two H100s: compute 2 x 12.9e9 / (2 x 989e12) per token;
 * memory (46.7e9 x 2 / 512 + 4096 x 131,072) / (2 x 3.35e12). */
static void mixtral_time_per_token(void **state)
{
    (void)state;
    context_deploy d = mixtral_on_h100x2();
    context_token_time t = context_time_per_token(&d, 512, 4096);
    assert_close(t.compute_s, 2 * 12.9e9 / (2 * 989e12), TIGHT, "s");
    assert_close(t.memory_s, (46.7e9 * 2 / 512 + 4096 * 131072.0) / (2 * 3.35e12), TIGHT, "s");
    assert_close(t.time_s, fmax(t.compute_s, t.memory_s), TIGHT, "s");
}

/* Kink for Mixtral at a batch of 4,096: (2 x 12.9e9 x 3.35e12 / 989e12 - 46.7e9 x 2 /
 * 4096) / 131,072; none at a batch of 100 (weights alone exceed compute). */
static void mixtral_kink(void **state)
{
    (void)state;
    context_deploy d = mixtral_on_h100x2();
    double fetchable = 2 * 12.9e9 * 3.35e12 / 989e12;
    context_kink k = context_kink_tokens(&d, 4096);
    assert_true(k.exists);
    assert_close(k.tokens, (fetchable - 46.7e9 * 2 / 4096) / 131072, TIGHT, "tokens");
    assert_false(context_kink_tokens(&d, 100).exists);
}

/* H100 bf16, a step at 128k with 12.9e9 active: 3.35e12 / 989e12 x 2.58e10 / 128,000. */
static void kv_from_an_h100_step(void **state)
{
    (void)state;
    double expected = 3.35e12 / 989e12 * 2 * 12.9e9 / 128e3;
    assert_close(context_kv_bytes_from_crossover(12.9e9, 128e3, 989e12, 3.35e12), expected,
                 TIGHT, "B");
    assert_close(context_kv_bytes_from_ratio(250, 2.0, 12.9e9, 128e3), 2.0 * 12.9e9 / (250 * 128e3),
                 TIGHT, "B");
}

/* Gemini 2.5 Pro: 300k prompt, 50k of it cached, 20k out, all at the long tier:
 * 250k x $2.50 + 50k x $0.25 + 20k x $15 per million = $0.9375. */
static void gemini_25_long_prompt_with_cache_hits(void **state)
{
    (void)state;
    const cost_api_price *g = cost_api_find("gemini-2.5-pro");
    assert_non_null(g);
    context_bill b = context_api_usd(g, 300e3, 20e3, 50e3, COST_CACHE_WRITE_NONE);
    assert_true(b.exists && b.long_tier);
    assert_close(b.usd, 0.25 * 2.5 + 0.05 * 0.25 + 0.02 * 15, TIGHT, "USD");
}

/* DeepSeek-V3.2 has one tier: a 1M-token prompt is billed at $0.28 (and 90% of it
 * cached at $0.028): 0.1 x 0.28 + 0.9 x 0.028 = $0.0532. */
static void deepseek_has_one_tier(void **state)
{
    (void)state;
    const cost_api_price *p = cost_api_find("deepseek-v3.2");
    assert_non_null(p);
    context_bill b = context_api_usd(p, 1e6, 0, 0.9e6, COST_CACHE_WRITE_NONE);
    assert_false(b.long_tier);
    assert_close(b.usd, 0.1 * 0.28 + 0.9 * 0.028, TIGHT, "USD");
    assert_false(context_api_usd(p, 1e6, 0, 0, COST_CACHE_WRITE_1H).exists);
}

/* Claude Haiku 4.5's ratio, $5 / $1: decode MFU 1/5; DeepSeek-V3.2's $0.42 / $0.28:
 * 1.5, so 2/3. */
static void price_ratios_of_other_lists(void **state)
{
    (void)state;
    assert_close(context_read_price_ratio(5.0 / 1.0).decode_mfu_over_prefill, 0.2, TIGHT, "");
    context_price_ratio d = context_read_price_ratio(0.42 / 0.28);
    assert_close(d.decode_mfu_over_prefill, 2.0 / 3, TIGHT, "");
    assert_close(d.crossover_pass_tokens, 1.5, TIGHT, "tokens");
}

/* Grace: 480 GB at 512 GB/s drains in 0.9375 s. A device at $7,200/h with 1,000 bytes
 * at 100 B/s ($2/s): 5 s held costs max(5/1000, 1/100) x 2 = $0.02 a byte. */
static void grace_drain_and_a_toy_tier(void **state)
{
    (void)state;
    assert_close(context_drain_s(480e9, 512e9), 0.9375, TIGHT, "s");
    cost_tier t = {"toy", "toy", 1000, 100, 7200, "", ""};
    assert_close(context_tier_usd_per_byte(&t, 5), 0.02, TIGHT, "USD/B");
    assert_close(context_tier_usd_per_byte(&t, 50), 0.1, TIGHT, "USD/B");
}

/* Two toy tiers, fast-small ($1/s, 10 B, 10 B/s) and slow-big ($1/s, 1,000 B, 1 B/s):
 * at 0.5 s the fast one costs 0.1, the slow 1; at 100 s, 10 against 1. Remat at 0.05
 * a byte beats both at 100 s. */
static void cheapest_of_two_toy_tiers(void **state)
{
    (void)state;
    cost_tier fast = {"f", "f", 10, 10, 3600, "", ""};
    cost_tier slow = {"s", "s", 1000, 1, 3600, "", ""};
    const cost_tier *tiers[] = {&fast, &slow};
    context_tier_choice c = context_cheapest_tier(tiers, 2, 0.5, 100);
    assert_false(c.remat);
    assert_int_equal(c.tier, 0);
    c = context_cheapest_tier(tiers, 2, 100, 100);
    assert_int_equal(c.tier, 1);
    assert_close(c.usd_per_byte, 1.0, TIGHT, "USD/B");
    assert_true(context_cheapest_tier(tiers, 2, 100, 0.05).remat);
}

/* Gemma 3-style layout: 5 local layers (window 1,024) per global one, 48 layers in
 * all (40 local, 8 global): at 32k, (8 x 32,768 + 40 x 1,024) x b. */
static void gemma_style_windows(void **state)
{
    (void)state;
    double b = 2 * 8 * 256 * 2.0;
    assert_close(context_window_kv_bytes(8, 40, 1024, b, 32768), (8 * 32768.0 + 40 * 1024) * b,
                 TIGHT, "B");
    assert_close(context_sparse_read_bytes(1000, 10, 4096, 1e6), 4096 * 1000.0 + 1e6 * 10, TIGHT,
                 "B");
}

/* Llama 3 70B: 80 layers of 64 query heads of 128: 2 x 80 x 64 x 256 FLOPs per
 * context token; parity with 2 x 70.6e9 at 53,864 tokens. */
static void llama3_70b_attention_parity(void **state)
{
    (void)state;
    double a = context_attention_flops_per_context_token(80, 64, 128, 128);
    assert_close(a, 2.0 * 80 * 64 * 256, TIGHT, "FLOP");
    assert_close(context_attention_parity_tokens(70.6e9, a), 2 * 70.6e9 / a, TIGHT, "tokens");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(kv_shape, llama3_8b_cache_is_131072_bytes),
        CHALK_TEST(kv_shape, deepseek_v2_mla_cache),
        CHALK_TEST(context_roofline, mixtral_time_per_token),
        CHALK_TEST(context_roofline, mixtral_kink),
        CHALK_TEST(kv_from_price, kv_from_an_h100_step),
        CHALK_TEST(api_bill, gemini_25_long_prompt_with_cache_hits),
        CHALK_TEST(api_bill, deepseek_has_one_tier),
        CHALK_TEST(pass_length, price_ratios_of_other_lists),
        CHALK_TEST(cache_tiers, grace_drain_and_a_toy_tier),
        CHALK_TEST(cache_tiers, cheapest_of_two_toy_tiers),
        CHALK_TEST(windows_sparse, gemma_style_windows),
        CHALK_TEST(attention_parity, llama3_70b_attention_parity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
