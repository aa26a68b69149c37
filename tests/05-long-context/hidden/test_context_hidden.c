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
 *   Claude Sonnet 4.6  $3 in, hits $0.30, writes $3.75 (5 min) / $6 (1 h)
 *                 (Anthropic's pricing page)
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

/* Mixtral's attention: 32 layers of 32 query heads of 128, 2 x 32 x 32 x 256 FLOPs per
 * context token. At 16k tokens a token computes (2 x 12.9e9 + 16,384 x 524,288) /
 * (2 x 989e12) seconds. */
static void mixtral_with_attention_time_per_token(void **state)
{
    (void)state;
    context_deploy d = mixtral_on_h100x2();
    d.attn_flops_per_context_token = 2.0 * 32 * 32 * 256;
    context_token_time t = context_time_per_token(&d, 1024, 16384);
    assert_close(t.compute_s, (2 * 12.9e9 + 16384 * 524288.0) / (2 * 989e12), TIGHT, "s");
    assert_roof(t.bound, COST_BOUND_MEMORY);
}

/* The kink with attention: (2 N_a W / F - N_total beta / B) / (b_kv - f W / F) at a
 * batch of 4,096, and the balance context at an unbounded batch. */
static void mixtral_kink_with_attention(void **state)
{
    (void)state;
    context_deploy d = mixtral_on_h100x2();
    d.attn_flops_per_context_token = 2.0 * 32 * 32 * 256;
    double w_over_f = 3.35e12 / 989e12;
    double slope = 131072 - 524288.0 * w_over_f;
    context_kink k = context_kink_tokens(&d, 4096);
    assert_true(k.exists);
    assert_close(k.tokens, (2 * 12.9e9 * w_over_f - 46.7e9 * 2 / 4096) / slope, TIGHT, "tokens");
    assert_close(context_kink_tokens(&d, INFINITY).tokens, 2 * 12.9e9 * w_over_f / slope, TIGHT,
                 "tokens");
}

/* Recomputing a 16k-token Mixtral context on H100s at $4.25/h: each token's
 * 2 x 12.9e9 FLOPs plus 8,191.5 x 524,288 of attention, at 989e12 FLOP/s, over its
 * 131,072 bytes. */
static void mixtral_remat_over_a_context(void **state)
{
    (void)state;
    context_deploy d = mixtral_on_h100x2();
    d.attn_flops_per_context_token = 2.0 * 32 * 32 * 256;
    double flops = 2 * 12.9e9 + 8191.5 * 524288.0;
    assert_close(context_remat_usd_per_byte(&d, 16384, 4.25), flops / 989e12 * 4.25 / 3600 / 131072,
                 TIGHT, "USD/B");
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

/* A toy decode that balances at a pass of 3 tokens: 3 s to read 3 bytes of weights
 * at 1 B/s, 1 s of arithmetic a token (2 x 0.5 FLOP at 1 FLOP/s). */
static context_deploy three_second_decode(void)
{
    context_deploy d = {.params_total = 3, .params_active = 0.5, .bytes_per_param = 1,
                        .kv_bytes_per_token = 1, .chips = 1, .flops_per_s = 1,
                        .hbm_bytes_per_s = 1};
    return d;
}

/* With a = 0.5 and free drafts, q = 2 keeps 1.75 tokens in 3 s; q = 3 would keep
 * 1.875 in 4 s. */
static void a_short_balanced_pass_takes_two_guesses(void **state)
{
    (void)state;
    context_deploy d = three_second_decode();
    context_draft_plan p = context_best_draft(&d, 1, 0, 0.5, 0, 10);
    assert_int_equal(p.draft_tokens, 2);
    assert_close(p.tokens_per_step, 1.75, TIGHT, "tokens");
    assert_close(p.speedup, 1.75, TIGHT, "x");
}

/* The same decode with drafts at half a plain step each: q = 1 costs (3 + 1.5) / 1.5
 * = 3 s a token, q = 2 (3 + 3) / 1.75 = 3.43: none is better than 3 s, and the tie
 * at q = 1 goes to q = 0. */
static void dear_drafts_tie_with_plain_decode(void **state)
{
    (void)state;
    context_deploy d = three_second_decode();
    context_draft_plan p = context_best_draft(&d, 1, 0, 0.5, 0.5, 10);
    assert_int_equal(p.draft_tokens, 0);
    assert_close(p.s_per_token, 3, TIGHT, "s");
}

/* Claude Sonnet 4.6: three requests 200 s apart, then a pause of exactly an hour and
 * one more request. A 1-hour entry read four times, its last read exactly 3,600 s
 * after the one before, costs 6 + 4 x 0.3 = $7.20 per million prefix tokens; two
 * 5-minute entries 3.75 + 0.6 + 3.75 + 0.3 = $8.40. */
static void an_hour_long_pause_is_bridged_by_the_1_hour_entry(void **state)
{
    (void)state;
    const cost_api_price *p = cost_api_find("claude-sonnet-4.6");
    assert_non_null(p);
    double t[] = {0, 200, 400, 4000, 4100};
    context_cache_action a[5];
    assert_close(context_cheapest_cache_schedule(p, 1e6, t, 5, a), 7.2, TIGHT, "USD");
    assert_int_equal(a[0], CONTEXT_WRITE_1H);
    for (int i = 1; i < 5; i++)
        assert_int_equal(a[i], CONTEXT_READ_CACHE);
}

/* 200 requests 10 s apart on Sonnet 4.6 with a 50k-token prefix: one 5-minute write,
 * then 199 hits, (3.75 + 199 x 0.3) x 0.05 = $3.1725. */
static void a_long_busy_conversation_writes_once(void **state)
{
    (void)state;
    const cost_api_price *p = cost_api_find("claude-sonnet-4.6");
    assert_non_null(p);
    double t[200];
    context_cache_action a[200];
    for (int i = 0; i < 200; i++)
        t[i] = 10.0 * i;
    assert_close(context_cheapest_cache_schedule(p, 50e3, t, 200, a), (3.75 + 199 * 0.3) * 0.05,
                 TIGHT, "USD");
    assert_int_equal(a[0], CONTEXT_WRITE_5M);
    assert_int_equal(a[199], CONTEXT_READ_CACHE);
}

/* ---- longest_context ---------------------------------------------------------- */

/* DeepSeek-V3 in fp4 on a GB200 NVL72 (72 GPUs of 10e15 FLOP/s, 8e12 B/s, 186e9 B;
 * NVIDIA), its MLA cache in fp8 (61 x 576 = 35,136 B a token), attention counted
 * (2 x 61 x 128 x 1,088 FLOPs a context token), rented at 2 USD a chip-hour. */
static context_deploy deepseek_nvl72(void)
{
    context_deploy d = {
        .params_total = 671e9, .params_active = 37e9, .bytes_per_param = 0.5,
        .kv_bytes_per_token = 61 * 576.0, .attn_flops_per_context_token = 2.0 * 61 * 128 * 1088,
        .chips = 72, .flops_per_s = 10e15, .hbm_bytes_per_s = 8e12,
    };
    return d;
}

/* Past its window, at DeepSeek's output price of 1.10 USD/Mtok and steps of 50 ms:
 * every batch that fits is memory-bound and steps within HBM's 23.25 ms drain, so
 * the cheapest batch at L is B = floor(K / L), K = (72 x 186e9 - 335.5e9) / 35,136 =
 * 371,598,929.9 tokens of cache, and a token costs 72 x 2 / 3600 x 1e6 x
 * (335.5e9 / B + 35,136 L) / 576e12. Worked in exact fractions (python): L = 439,519
 * (B = 845) costs 1.0999987; L = 439,520 (B = 845) costs 1.1000011. */
static void deepseek_at_its_own_price_sells_439519_tokens(void **state)
{
    (void)state;
    context_deploy d = deepseek_nvl72();
    context_reach r = context_longest_context(&d, 186e9, 2, 0.05, 1.10, 1e9);
    assert_true(r.exists);
    assert_close(r.context_tokens, 439519, TIGHT, "tokens");
    assert_close(r.batch, 845, TIGHT, "sequences");
    double fetch_s = (335.5e9 / 845 + 35136.0 * 439519) / 576e12;
    assert_close(r.step_s, 845 * fetch_s, TIGHT, "s");
    assert_close(r.usd_per_mtok, 72 * 2 / 3600.0 * 1e6 * fetch_s, TIGHT, "USD/Mtok");
}

/* At 0.50 USD/Mtok and steps of 20 ms the step binds before HBM: the batch's cache may
 * hold K = (576e12 x 0.02 - 335.5e9) / 35,136 = 318,320,241.3 tokens. Worked in exact
 * fractions: L = 198,950 (B = 1,600) costs 0.4999996; L = 198,951 costs 0.5000112. */
static void a_20_ms_step_at_half_a_dollar_sells_198950_tokens(void **state)
{
    (void)state;
    context_deploy d = deepseek_nvl72();
    context_reach r = context_longest_context(&d, 186e9, 2, 0.02, 0.5, 1e9);
    assert_true(r.exists);
    assert_close(r.context_tokens, 198950, TIGHT, "tokens");
    assert_close(r.batch, 1600, TIGHT, "sequences");
    assert_true(r.step_s <= 0.02);
}

/* Attention's arithmetic bounds the context too. A toy on one chip of 1 FLOP/s and
 * 100 B/s, HBM to spare, 100 B of weights, 1 FLOP a token plus 0.01 FLOP per token
 * of context, 1 B of cache a token: compute, 1 + 0.01 L s a token, is never below
 * memory, 1 / B + 0.01 L s, so every batch costs the same and B = 1 answers. A price
 * of 3e6 USD/Mtok (3 s at 1 USD a second) allows L = 200; a step of 2.5 s, L = 150;
 * a window of one token answers 1. */
static void attention_arithmetic_bounds_the_context(void **state)
{
    (void)state;
    context_deploy d = {.params_total = 100, .params_active = 0.5, .bytes_per_param = 1,
                        .kv_bytes_per_token = 1, .attn_flops_per_context_token = 0.01,
                        .chips = 1, .flops_per_s = 1, .hbm_bytes_per_s = 100};
    context_reach r = context_longest_context(&d, 1e9, 3600, 1e12, 3e6, 1e6);
    assert_close(r.context_tokens, 200, TIGHT, "tokens");
    assert_close(r.batch, 1, TIGHT, "sequences");
    assert_close(r.usd_per_mtok, 3e6, TIGHT, "USD/Mtok");
    r = context_longest_context(&d, 1e9, 3600, 2.5, 1e12, 1e6);
    assert_close(r.context_tokens, 150, TIGHT, "tokens");
    assert_close(r.step_s, 2.5, TIGHT, "s");
    r = context_longest_context(&d, 1e9, 3600, 1e12, 1e12, 1);
    assert_true(r.exists);
    assert_close(r.context_tokens, 1, TIGHT, "tokens");
}

/* ---- price_window ---------------------------------------------------------- */

/* DeepSeek-V3 on an NVL72 with all its arithmetic in bf16 (2.5e15 FLOP/s a GPU, a
 * quarter of fp4), a batch of 4,096, $2 a chip-hour, DeepSeek's $1.10 out: attention's
 * arithmetic outgrows the reads (16,990,208 / 2.5e15 > 35,136 / 8e12 s a token), so the
 * window ends where the arithmetic's cost, 72 x 2 / 3600 x 1e6 x (74e9 + L f) / (72 x
 * 2.5e15), reaches $1.10. */
static void deepseek_in_bf16_is_bound_by_its_arithmetic(void **state)
{
    (void)state;
    double f = 2.0 * 61 * 128 * (576 + 512);
    context_deploy d = {
        .params_total = 671e9, .params_active = 37e9, .bytes_per_param = 0.5,
        .kv_bytes_per_token = 61 * 576.0, .attn_flops_per_context_token = f, .chips = 72,
        .flops_per_s = 2.5e15, .hbm_bytes_per_s = 8e12,
    };
    double k = 72 * 2.0 / 3600 * 1e6;
    double L = floor((1.10 / k * 72 * 2.5e15 - 2 * 37e9) / f);
    context_window w = context_price_window(&d, 4096, 2.0, cost_api_find("deepseek-v3"), 1e7);
    assert_true(w.exists);
    assert_close(w.context_tokens, L, 0, "tokens");
    assert_false(w.long_tier);
}

/* Mixtral 8x7B on two H100s in bf16 (attention left out), a batch of 8, $2 a GPU-hour,
 * Gemini 2.5 Pro's list ($10 out up to 200k, $15 above): the short tier covers past
 * 200k, so the window ends where the reads' cost, 2 x 2 / 3600 x 1e6 x (46.7e9 x 2 / 8
 * + L x 131,072) / (2 x 3.35e12), reaches $15, at the long tier. */
static void mixtral_on_gemini_25s_list_ends_in_the_long_tier(void **state)
{
    (void)state;
    context_deploy d = mixtral_on_h100x2();
    double k = 2 * 2.0 / 3600 * 1e6;
    double L = floor((15.0 / k * 2 * 3.35e12 - 46.7e9 * 2 / 8) / 131072.0);
    context_window w = context_price_window(&d, 8, 2.0, cost_api_find("gemini-2.5-pro"), 1e7);
    assert_true(w.exists);
    assert_close(w.context_tokens, L, 0, "tokens");
    assert_true(w.long_tier);
}

/* A toy (one chip of 1e6 FLOP/s and B/s at $3,600 an hour, 64 parameters, 1 active, 2 B
 * and 1 FLOP a context token, batch 4: a token costs max(2 + L, 16 + 2 L) USD per
 * million): $60 out up to 50 tokens, $500 above, ends at (60 - 16) / 2 = 22; $100 up to
 * 42 and $101 above ends at the threshold, 42 (16 + 2 x 43 = 102 > 101). */
static void toy_tiers_end_below_and_at_the_threshold(void **state)
{
    (void)state;
    context_deploy d = {
        .params_total = 64, .params_active = 1, .bytes_per_param = 1, .kv_bytes_per_token = 2,
        .attn_flops_per_context_token = 1, .chips = 1, .flops_per_s = 1e6,
        .hbm_bytes_per_s = 1e6,
    };
    cost_api_price p = {.name = "toy", .base = {.input_usd_per_mtok = 10,
                                                .output_usd_per_mtok = 60},
                        .long_threshold_tokens = 50,
                        .long_prompt = {.input_usd_per_mtok = 20, .output_usd_per_mtok = 500}};
    context_window w = context_price_window(&d, 4, 3600, &p, 1000);
    assert_true(w.exists);
    assert_close(w.context_tokens, 22, 0, "tokens");
    assert_false(w.long_tier);
    p.base.output_usd_per_mtok = 100;
    p.long_threshold_tokens = 42;
    p.long_prompt.output_usd_per_mtok = 101;
    w = context_price_window(&d, 4, 3600, &p, 1000);
    assert_true(w.exists);
    assert_close(w.context_tokens, 42, 0, "tokens");
    assert_false(w.long_tier);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(kv_shape, llama3_8b_cache_is_131072_bytes),
        CHALK_TEST(kv_shape, deepseek_v2_mla_cache),
        CHALK_TEST(context_roofline, mixtral_time_per_token),
        CHALK_TEST(context_kink, mixtral_kink),
        CHALK_TEST(context_roofline, mixtral_with_attention_time_per_token),
        CHALK_TEST(context_kink, mixtral_kink_with_attention),
        CHALK_TEST(cache_tiers, mixtral_remat_over_a_context),
        CHALK_TEST(kv_from_price, kv_from_an_h100_step),
        CHALK_TEST(api_bill, gemini_25_long_prompt_with_cache_hits),
        CHALK_TEST(api_bill, deepseek_has_one_tier),
        CHALK_TEST(pass_length, price_ratios_of_other_lists),
        CHALK_TEST(cache_tiers, grace_drain_and_a_toy_tier),
        CHALK_TEST(cache_tiers, cheapest_of_two_toy_tiers),
        CHALK_TEST(windows_sparse, gemma_style_windows),
        CHALK_TEST(attention_parity, llama3_70b_attention_parity),
        CHALK_TEST(draft_length, a_short_balanced_pass_takes_two_guesses),
        CHALK_TEST(draft_length, dear_drafts_tie_with_plain_decode),
        CHALK_TEST(cache_schedule, an_hour_long_pause_is_bridged_by_the_1_hour_entry),
        CHALK_TEST(cache_schedule, a_long_busy_conversation_writes_once),
        CHALK_TEST(longest_context, deepseek_at_its_own_price_sells_439519_tokens),
        CHALK_TEST(longest_context, a_20_ms_step_at_half_a_dollar_sells_198950_tokens),
        CHALK_TEST(longest_context, attention_arithmetic_bounds_the_context),
        CHALK_TEST(price_window, deepseek_in_bf16_is_bound_by_its_arithmetic),
        CHALK_TEST(price_window, mixtral_on_gemini_25s_list_ends_in_the_long_tier),
        CHALK_TEST(price_window, toy_tiers_end_below_and_at_the_threshold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
