/*
 * test_context.c -- Chapter 5 tests: long context, KV bytes read off prices, cache
 * tiers, speculative decoding, cache schedules.
 *
 * Built twice: against exercises/05-long-context/context.c (yours) and against
 * the reference solution (in the instructor's copy). Each test states one fact;
 * the comment above it names where the expected value comes from. Expected values
 * are closed forms with published inputs, never copied from output.
 *
 * Published inputs used below:
 *   DeepSeek-V3   671e9 total, 37e9 active parameters (DeepSeek-V3 README); MLA
 *                 cache 61 layers x (512 + 64) elements (config_671B.json), stored
 *                 in fp8 (the book's assumption; the reference inference code keeps
 *                 it in bf16): 35,136 bytes/token; 128 query heads that score in
 *                 512 + 64 dimensions and sum in 512 (absorbed MLA): 2 x 61 x 128 x
 *                 1,088 attention FLOPs per context token
 *   Llama 3 70B   80 layers, 8 KV heads of 128 (config.json)
 *   GPT-3 175B    96 layers, 96 heads of 128, multi-head (Brown et al. 2020)
 *   PaLM 540B     118 layers, 1 KV head of 256, multi-query (Chowdhery et al. 2022)
 *   GB200 NVL72   72 GPUs, 10e15 dense fp4 FLOP/s, 8e12 B/s, 186e9 B each (NVIDIA)
 *   The lecture   100e9 active parameters, a hardware ratio of 300 at half a byte
 *                 per fp4 weight, a price step at 200k tokens [lecture, 1:36:01]
 *   Gemini 3.1 Pro  $2 / $12 per million tokens up to 200k, $4 / $18 above
 *                 (lib/price.c: Google's list as quoted by a third party, 2026-03-28)
 *   Claude Opus 4.6 $5 in, $25 out, hits $0.50, writes $6.25 (5 min) / $10 (1 h)
 *                 (lib/price.c: Anthropic's pricing page)
 *   Devices       DDR5-6400: 6400e6 x 8 B/s per channel (JEDEC); Micron 9550 PRO
 *                 30.72 TB at 14 GB/s; Seagate Exos X24 24 TB at 285 MB/s (data
 *                 sheets); prices as in lib/tier.c
 *   Speculation   a step keeps 1 + a + ... + a^q tokens on average when q guesses
 *                 are each accepted with chance a (Leviathan et al. 2023, eq. 1)
 */
#include "../test_util.h"

#include "context.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* DeepSeek-V3's absorbed MLA: 61 layers of 128 heads, 576 + 512 per cached token. */
#define DSV3_ATTN_FLOPS (2.0 * 61 * 128 * (576 + 512))

/* DeepSeek-V3 in fp4 on a GB200 NVL72, its MLA cache in fp8, attention counted. */
static context_deploy deepseek_on_nvl72(void)
{
    context_deploy d = {
        .params_total = 671e9, .params_active = 37e9, .bytes_per_param = 0.5,
        .kv_bytes_per_token = 61 * (512 + 64) * 1.0,
        .attn_flops_per_context_token = DSV3_ATTN_FLOPS, .chips = 72,
        .flops_per_s = 10e15, .hbm_bytes_per_s = 8e12,
    };
    return d;
}

/* The same without attention's arithmetic, as the lecture draws it. */
static context_deploy deepseek_without_attention(void)
{
    context_deploy d = deepseek_on_nvl72();
    d.attn_flops_per_context_token = 0;
    return d;
}

/* Per-token compute, and one sequence's memory traffic per pass, written out. */
static double compute_per_token(const context_deploy *d, double ctx)
{
    return (2.0 * d->params_active + ctx * d->attn_flops_per_context_token) /
           (d->chips * d->flops_per_s);
}
static double memory_per_sequence(const context_deploy *d, double batch, double ctx)
{
    return (d->params_total * d->bytes_per_param / batch + ctx * d->kv_bytes_per_token) /
           (d->chips * d->hbm_bytes_per_s);
}

/* A toy chip whose numbers are exact in binary: one chip, F FLOP/s, W B/s. */
static context_deploy toy(double params_total, double params_active, double kv, double attn,
                          double flops_per_s, double bytes_per_s)
{
    context_deploy d = {
        .params_total = params_total, .params_active = params_active, .bytes_per_param = 1,
        .kv_bytes_per_token = kv, .attn_flops_per_context_token = attn, .chips = 1,
        .flops_per_s = flops_per_s, .hbm_bytes_per_s = bytes_per_s,
    };
    return d;
}

/* The four tiers of lib/tier.c, written out with their sources. A bought device is
 * spread over five years of 365.25 days. */
#define LIFE_H (5 * 365.25 * 24)
static const cost_tier HBM = {"hbm", "B200 HBM", 186e9, 8e12, 2.0, "", ""};
static const cost_tier DDR = {"ddr", "DDR5-6400 RDIMM", 256e9, 6400e6 * 8,
                              76999.0 / 16 / LIFE_H, "", ""};
static const cost_tier NVME = {"nvme", "Micron 9550", 30.72e12, 14e9,
                               0.079 * 30.72e3 / LIFE_H, "", ""};
static const cost_tier HDD = {"hdd", "Exos X24", 24e12, 285e6, 0.014 * 24e3 / LIFE_H, "", ""};

/* Closed form of a tier's cost per byte held for t seconds and read once. */
static double tier_cost(const cost_tier *t, double hold_s)
{
    return t->usd_per_hour / 3600 * fmax(hold_s / t->capacity_bytes, 1 / t->bytes_per_s);
}

/* ---- 5.4 kv_shape ---------------------------------------------------------- */

/* Lecture 6.3: one shared context, K and V, head_dim 128, 8 KV heads, one byte per
 * element: 1 x 2 x 128 x 8 = 2,048 bytes ("gives exactly this number"); 4,096 at bf16. */
static void lecture_shared_context_gives_2048_bytes(void **state)
{
    (void)state;
    assert_close(context_kv_bytes_per_token(1, 8, 128, 1), 2048, TIGHT, "B");
    assert_close(context_kv_bytes_per_token(1, 8, 128, 2), 4096, TIGHT, "B");
}

/* Scaling book: Llama 3 70B, 2 x 80 x 8 x 128 x 2 bytes = 327,680 bytes in bf16. */
static void llama3_70b_grouped_query_cache_is_327680_bytes_in_bf16(void **state)
{
    (void)state;
    assert_close(context_kv_bytes_per_token(80, 8, 128, 2), 327680, TIGHT, "B");
}

/* GPT-3 is multi-head (96 KV heads): 2 x 96 x 96 x 128 x 2 = 4,718,592 bytes; PaLM is
 * multi-query (1 KV head of 256): 2 x 118 x 256 x 2 = 120,832 bytes. */
static void multi_head_gpt3_and_multi_query_palm_differ_by_39x(void **state)
{
    (void)state;
    assert_close(context_kv_bytes_per_token(96, 96, 128, 2), 4718592, TIGHT, "B");
    assert_close(context_kv_bytes_per_token(118, 1, 256, 2), 120832, TIGHT, "B");
}

/* Layers that share one cache (Character.AI, Gemma) count once: 80 layers in pairs
 * keep 40 caches, half the bytes. */
static void layers_sharing_a_cache_count_once(void **state)
{
    (void)state;
    assert_close(context_kv_bytes_per_token(40, 8, 128, 2), 327680 / 2.0, TIGHT, "B");
}

/* DeepSeek-V3 config: 61 layers x (512 latent + 64 RoPE) = 35,136 elements, one
 * latent for K and V: 70,272 bytes in bf16, 35,136 in fp8. */
static void deepseek_mla_cache_is_one_latent_per_layer(void **state)
{
    (void)state;
    assert_close(context_mla_kv_bytes_per_token(61, 512, 64, 2), 70272, TIGHT, "B");
    assert_close(context_mla_kv_bytes_per_token(61, 512, 64, 1), 35136, TIGHT, "B");
}

/* ---- 5.1 context_roofline -------------------------------------------------- */

/* Lecture 6.1: without attention's arithmetic, compute per token is flat in context,
 * 2 N_active / (chips F). */
static void without_attention_compute_per_token_is_flat(void **state)
{
    (void)state;
    context_deploy d = deepseek_without_attention();
    double c = 2 * 37e9 / (72 * 10e15);
    assert_close(context_time_per_token(&d, 16384, 0).compute_s, c, TIGHT, "s");
    assert_close(context_time_per_token(&d, 16384, 1e6).compute_s, c, TIGHT, "s");
}

/* What HBM holds: DeepSeek-V3's 671e9 weights at half a byte, and 16,384 caches of
 * 8,192 tokens at 35,136 bytes a token (61 layers x (512 + 64) fp8 numbers). */
static void hbm_holds_the_weights_and_every_cache(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    assert_close(context_hbm_bytes(&d, 16384, 8192), 671e9 * 0.5 + 16384.0 * 8192 * 35136,
                 TIGHT, "B");
    assert_close(context_hbm_bytes(&d, 16384, 0), 335.5e9, TIGHT, "B");
}

/* A token that takes 10 ms of 72 chips at $2 an hour: 72 x 2 x 0.01 / 3600 USD, or
 * $4 per million tokens. */
static void cost_per_million_tokens_is_the_rent_of_a_tokens_time(void **state)
{
    (void)state;
    assert_close(context_usd_per_mtok(72, 2.0, 0.01), 72 * 2.0 * 0.01 / 3600 * 1e6, TIGHT,
                 "USD/Mtok");
    assert_close(context_usd_per_mtok(72, 2.0, 0.01), 400.0, TIGHT, "USD/Mtok");
}

/* Attention adds f_attn FLOPs per token of context: at 32,768 tokens DeepSeek-V3's
 * token costs (2 x 37e9 + 32,768 x 2 x 61 x 128 x 1,088) / (72 x 10e15) seconds,
 * 8.5 times its weight arithmetic alone. */
static void attention_adds_its_flops_per_context_token(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    double c = (2 * 37e9 + 32768 * DSV3_ATTN_FLOPS) / (72 * 10e15);
    assert_close(context_time_per_token(&d, 16384, 32768).compute_s, c, TIGHT, "s");
    assert_close(context_time_per_token(&d, 16384, 0).compute_s, 2 * 37e9 / (72 * 10e15),
                 TIGHT, "s");
}

/* Lecture 6.1: memory per token is the batch's share of the weights plus one
 * context's KV: (671e9 x 0.5 / B + L x 35,136) / (72 x 8e12). */
static void memory_per_token_rises_linearly_with_context(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    for (double ctx = 0; ctx <= 200e3; ctx += 50e3) {
        double m = (671e9 * 0.5 / 8192 + ctx * 35136) / (72 * 8e12);
        assert_close(context_time_per_token(&d, 8192, ctx).memory_s, m, TIGHT, "s");
    }
}

/* The max of two rising lines: compute-bound at short context, memory-bound at long
 * (DeepSeek-V3's cache fetch grows faster than its attention arithmetic). */
static void short_context_is_compute_bound_long_context_memory_bound(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_token_time short_ctx = context_time_per_token(&d, 65536, 256);
    context_token_time long_ctx = context_time_per_token(&d, 65536, 200e3);
    assert_int_equal(short_ctx.bound, COST_BOUND_COMPUTE);
    assert_close(short_ctx.time_s, compute_per_token(&d, 256), TIGHT, "s");
    assert_int_equal(long_ctx.bound, COST_BOUND_MEMORY);
    assert_close(long_ctx.time_s, memory_per_sequence(&d, 65536, 200e3), TIGHT, "s");
}

/* The contract's tie rule: 2 x 1 FLOP at 2 FLOP/s and 1 byte at 1 B/s take 1 s each;
 * equal times are compute-bound. */
static void a_tie_is_compute_bound(void **state)
{
    (void)state;
    context_deploy d = toy(1, 1, 1, 0, 2, 1);
    context_token_time t = context_time_per_token(&d, 1, 0);
    assert_close(t.compute_s, 1, TIGHT, "s");
    assert_close(t.memory_s, 1, TIGHT, "s");
    assert_int_equal(t.bound, COST_BOUND_COMPUTE);
}

/* ---- 5.2 context_kink ------------------------------------------------------ */

/* Closed form: setting (2 N_a + L f) / F = (N_total beta / B + L b_kv) / W gives
 * L = (2 N_a W / F - N_total beta / B) / (b_kv - f W / F); at a batch of 20,000,
 * 1,969 tokens for DeepSeek-V3 on the NVL72. */
static void kink_is_where_the_two_lines_cross(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    double fetchable = 2 * 37e9 * 8e12 / 10e15; /* bytes per sequence in its compute time */
    double slope = 35136 - DSV3_ATTN_FLOPS * 8e12 / 10e15;
    context_kink k = context_kink_tokens(&d, 20000);
    assert_true(k.exists);
    assert_close(k.tokens, (fetchable - 671e9 * 0.5 / 20000) / slope, TIGHT, "tokens");
}

/* Without attention the kink is the lecture's, (2 N_a W / F - N_total beta / B) / b_kv:
 * 1,203 tokens at a batch of 20,000, where attention's arithmetic puts it at 1,969. */
static void without_attention_the_kink_comes_earlier(void **state)
{
    (void)state;
    context_deploy d = deepseek_without_attention();
    double fetchable = 2 * 37e9 * 8e12 / 10e15;
    context_kink k = context_kink_tokens(&d, 20000);
    assert_true(k.exists);
    assert_close(k.tokens, (fetchable - 671e9 * 0.5 / 20000) / 35136, TIGHT, "tokens");
}

/* As the batch grows the weight share vanishes: at an unbounded batch the kink is
 * the balance context 2 N_a W / F / (b_kv - f W / F) = 2,748 tokens (1,685 without
 * attention). */
static void kink_tends_to_the_balance_context_as_the_batch_grows(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    double l_star = 2 * 37e9 * 8e12 / 10e15 / (35136 - DSV3_ATTN_FLOPS * 8e12 / 10e15);
    assert_close(context_kink_tokens(&d, INFINITY).tokens, l_star, TIGHT, "tokens");
    assert_close(context_kink_tokens(&d, 1e12).tokens, l_star, 1e-6, "tokens");
}

/* Chapter 1: below the balance batch without KV (312.5 x 671 / 37 = 5,667 for this
 * rack and model) the weight fetch alone exceeds compute: no context is balanced. */
static void no_kink_below_the_balance_batch(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_kink none = context_kink_tokens(&d, 5000);
    assert_false(none.exists);
    assert_close(none.tokens, 0, TIGHT, "tokens");
    assert_true(context_kink_tokens(&d, 6000).exists);
}

/* The boundary: 2 x 1 FLOP at 1 FLOP/s is 2 s; 2 bytes of weights at 1 B/s over a
 * batch of 1 is 2 s: balanced at zero context, memory-bound past it: no kink. At a
 * batch of 2 the weight share is 1 s and the kink is at (2 - 1) / 1 = 1 token. */
static void weights_exactly_balancing_compute_give_no_kink(void **state)
{
    (void)state;
    context_deploy d = toy(2, 1, 1, 0, 1, 1);
    assert_false(context_kink_tokens(&d, 1).exists);
    context_kink k = context_kink_tokens(&d, 2);
    assert_true(k.exists);
    assert_close(k.tokens, 1, TIGHT, "tokens");
}

/* When attention's FLOPs per context token take as long as that token's cache fetch
 * (f / F == b_kv / W: 1 FLOP at 1 FLOP/s, 1 byte at 1 B/s) the lines never cross: no
 * kink. With half the attention the kink is at 2 / (1 - 0.5) = 4 tokens (unbounded
 * batch, 2 x 1 FLOP of weights). */
static void attention_outgrowing_the_cache_fetch_gives_no_kink(void **state)
{
    (void)state;
    context_deploy equal = toy(1, 1, 1, 1, 1, 1);
    context_kink none = context_kink_tokens(&equal, INFINITY);
    assert_false(none.exists);
    assert_close(none.tokens, 0, TIGHT, "tokens");
    context_deploy half = toy(1, 1, 1, 0.5, 1, 1);
    context_kink k = context_kink_tokens(&half, INFINITY);
    assert_true(k.exists);
    assert_close(k.tokens, 4, TIGHT, "tokens");
}

/* ---- 5.3 kv_from_price ----------------------------------------------------- */

/* Lecture 6.2 in consistent units: a ratio of 300 multiplies per fp4 weight is 600
 * multiplies per byte, so b_kv = 0.5 x 1e11 / (300 x 2e5) = 833 bytes. The same chip
 * as rates: F = 1,200 FLOP per byte of bandwidth. */
static void lecture_inputs_give_833_bytes_in_consistent_units(void **state)
{
    (void)state;
    assert_close(context_kv_bytes_from_ratio(300, 0.5, 1e11, 2e5), 2500.0 / 3, TIGHT, "B");
    assert_close(context_kv_bytes_from_crossover(1e11, 2e5, 1200, 1), 2500.0 / 3, TIGHT, "B");
}

/* Lecture 6.2: 1e11 / (300 x 2e5) = 1,667 is the answer for a ratio counted per BYTE:
 * one byte per weight (fp8), or a chip with 600 FLOPs per byte of bandwidth. */
static void lecture_1667_bytes_is_the_answer_for_a_ratio_per_byte(void **state)
{
    (void)state;
    assert_close(context_kv_bytes_from_ratio(300, 1.0, 1e11, 2e5), 5000.0 / 3, TIGHT, "B");
    assert_close(context_kv_bytes_from_crossover(1e11, 2e5, 600, 1), 5000.0 / 3, TIGHT, "B");
}

/* GB200 in fp4, 8e12 / 10e15 bytes per FLOP: a 200k step with 100e9 active parameters
 * puts b_kv at 8e-4 x 2e11 / 2e5 = 800 bytes. */
static void gb200_fp4_puts_a_200k_step_at_800_bytes(void **state)
{
    (void)state;
    assert_close(context_kv_bytes_from_crossover(1e11, 2e5, 10e15, 8e12), 800, TIGHT, "B");
}

/* Inverse of chapter 1's balance context L* = 2 N_a W / (F b_kv) (attention left
 * out): reading b_kv back from DeepSeek-V3's L* on the NVL72 gives its 35,136 bytes. */
static void kv_from_crossover_inverts_the_balance_context(void **state)
{
    (void)state;
    double l_star = 2 * 37e9 * 8e12 / (10e15 * 35136);
    assert_close(context_kv_bytes_from_crossover(37e9, l_star, 10e15, 8e12), 35136, TIGHT,
                 "B");
    assert_close(context_kv_bytes_from_crossover(37e9, 2 * l_star, 10e15, 8e12), 35136 / 2.0,
                 TIGHT, "B");
}

/* Chapter 1: r = (F / 2) x bytes per weight / BW, so both forms give the same bytes
 * on any chip: H100 in bf16 (r = 296), a step at 100k, 70e9 active parameters:
 * 3.35e12 / 989e12 x 1.4e11 / 1e5 = 4,742 bytes. */
static void ratio_and_rate_forms_agree(void **state)
{
    (void)state;
    double r = 989e12 / 2 * 2.0 / 3.35e12;
    double expected = 3.35e12 / 989e12 * 2 * 70e9 / 1e5;
    assert_close(context_kv_bytes_from_ratio(r, 2.0, 70e9, 1e5), expected, TIGHT, "B");
    assert_close(context_kv_bytes_from_crossover(70e9, 1e5, 989e12, 3.35e12), expected, TIGHT,
                 "B");
}

/* ---- 5.9 api_bill ---------------------------------------------------------- */

static const cost_api_price *api(const char *name)
{
    const cost_api_price *p = cost_api_find(name);
    assert_non_null(p);
    return p;
}

/* Gemini 3.1 Pro: 100k in, 10k out, short tier: 0.1 x $2 + 0.01 x $12 = $0.32. */
static void gemini_short_prompt_pays_2_and_12_per_million(void **state)
{
    (void)state;
    context_bill b = context_api_usd(api("gemini-3.1-pro"), 100e3, 10e3, 0, COST_CACHE_WRITE_NONE);
    assert_true(b.exists);
    assert_false(b.long_tier);
    assert_close(b.usd, 0.1 * 2 + 0.01 * 12, TIGHT, "USD");
}

/* Gemini's rule: a prompt over 200k bills every token at $4 / $18, not only the
 * tokens past the threshold: 0.3 x $4 + 0.01 x $18 = $1.38. */
static void gemini_long_prompt_bills_every_token_at_the_long_tier(void **state)
{
    (void)state;
    context_bill b = context_api_usd(api("gemini-3.1-pro"), 300e3, 10e3, 0, COST_CACHE_WRITE_NONE);
    assert_true(b.long_tier);
    assert_close(b.input_usd, 0.3 * 4, TIGHT, "USD");
    assert_close(b.output_usd, 0.01 * 18, TIGHT, "USD");
    assert_close(b.usd, 1.38, TIGHT, "USD");
}

/* Gemini: "<= 200k" is short: 200,000 tokens cost $0.40, one more token $0.800004. */
static void gemini_prompt_of_exactly_200k_is_still_short(void **state)
{
    (void)state;
    const cost_api_price *g = api("gemini-3.1-pro");
    assert_close(context_api_usd(g, 200e3, 0, 0, COST_CACHE_WRITE_NONE).usd, 0.4, TIGHT, "USD");
    assert_close(context_api_usd(g, 200001, 0, 0, COST_CACHE_WRITE_NONE).usd, 200001 * 4e-6,
                 TIGHT, "USD");
}

/* Gemini: the prompt picks the tier, not prompt plus output: 150k in and 100k out is
 * short, 0.15 x $2 + 0.1 x $12 = $1.50. */
static void output_tokens_do_not_choose_the_tier(void **state)
{
    (void)state;
    context_bill b = context_api_usd(api("gemini-3.1-pro"), 150e3, 100e3, 0, COST_CACHE_WRITE_NONE);
    assert_false(b.long_tier);
    assert_close(b.usd, 1.5, TIGHT, "USD");
}

/* Anthropic: hits cost 0.1x. Opus, 100k prompt of which 90k cached: 10k x $5 + 90k x
 * $0.50 per million = $0.095. */
static void claude_cache_hits_cost_a_tenth_of_input(void **state)
{
    (void)state;
    context_bill b = context_api_usd(api("claude-opus-4.6"), 100e3, 0, 90e3, COST_CACHE_WRITE_NONE);
    assert_true(b.exists);
    assert_close(b.cached_usd, 90e3 * 0.5e-6, TIGHT, "USD");
    assert_close(b.usd, 0.05 + 0.045, TIGHT, "USD");
}

/* Anthropic: writes cost 1.25x (5 minutes) and 2x (1 hour): a 100k-token write is
 * $0.625 or $1.00 against $0.50 unwritten; hits in the same request stay at 0.1x. */
static void claude_writes_cost_1_25x_for_5_minutes_and_2x_for_an_hour(void **state)
{
    (void)state;
    const cost_api_price *o = api("claude-opus-4.6");
    assert_close(context_api_usd(o, 100e3, 0, 0, COST_CACHE_WRITE_5M).usd, 0.625, TIGHT, "USD");
    assert_close(context_api_usd(o, 100e3, 0, 0, COST_CACHE_WRITE_1H).usd, 1.0, TIGHT, "USD");
    context_bill mixed = context_api_usd(o, 100e3, 0, 60e3, COST_CACHE_WRITE_1H);
    assert_close(mixed.usd, 40e3 * 10e-6 + 60e3 * 0.5e-6, TIGHT, "USD");
}

/* No price, no bill: Gemini 3.1's long-tier cache read and GPT-5's 5-minute write
 * are not on the lists. Every amount is then 0. */
static void a_price_the_list_lacks_gives_no_bill(void **state)
{
    (void)state;
    context_bill none =
        context_api_usd(api("gemini-3.1-pro"), 300e3, 0, 100e3, COST_CACHE_WRITE_NONE);
    assert_false(none.exists);
    assert_close(none.usd, 0, TIGHT, "USD");
    assert_close(none.input_usd, 0, TIGHT, "USD");
    assert_true(context_api_usd(api("gemini-3.1-pro"), 100e3, 0, 50e3, COST_CACHE_WRITE_NONE)
                    .exists);
    assert_false(context_api_usd(api("gpt-5"), 100e3, 0, 0, COST_CACHE_WRITE_5M).exists);
}

/* The contract: long_tier reports the prompt's tier even when there is no bill (a
 * 300k-token Gemini 3.1 prompt with cached tokens has no long-tier read price). */
static void long_tier_is_reported_even_without_a_bill(void **state)
{
    (void)state;
    context_bill b = context_api_usd(api("gemini-3.1-pro"), 300e3, 0, 100e3, COST_CACHE_WRITE_NONE);
    assert_false(b.exists);
    assert_true(b.long_tier);
}

/* The contract: a write price belongs to the list, not to a tier. A two-tier list
 * ($3 short, $6 long input) with a $3.75 5-minute write bills a 300k-token write at
 * 0.3 x $3.75 = $1.125, and its output at the long tier's $22.50. */
static void a_write_price_is_the_lists_at_either_tier(void **state)
{
    (void)state;
    cost_api_price p = {
        .name = "two-tier-with-writes", .base = {3, 15, 0.3},
        .long_threshold_tokens = 200e3, .long_prompt = {6, 22.5, 0.6},
        .cache_write_5m_usd_per_mtok = 3.75, .cache_write_1h_usd_per_mtok = 6,
    };
    context_bill b = context_api_usd(&p, 300e3, 1e3, 0, COST_CACHE_WRITE_5M);
    assert_true(b.long_tier);
    assert_close(b.input_usd, 0.3 * 3.75, TIGHT, "USD");
    assert_close(b.output_usd, 1e3 * 22.5e-6, TIGHT, "USD");
}

/* The contract: a tier without an output price bills no output (a request with none
 * still has a bill: 100k tokens at $2, $0.20), and a tier without an input price bills
 * no request that asks for it, even one whose prompt is all cached; a write price,
 * the list's, still bills it: 100k at $2.50 = $0.25, and 10 output tokens at $10. */
static void a_tier_without_an_output_or_input_price_gives_no_bill(void **state)
{
    (void)state;
    cost_api_price no_out = {.name = "no-output", .base = {2, 0, 0.5}};
    context_bill b = context_api_usd(&no_out, 100e3, 0, 0, COST_CACHE_WRITE_NONE);
    assert_true(b.exists);
    assert_close(b.usd, 0.2, TIGHT, "USD");
    context_bill one = context_api_usd(&no_out, 100e3, 1, 0, COST_CACHE_WRITE_NONE);
    assert_false(one.exists);
    assert_close(one.usd, 0, TIGHT, "USD");
    cost_api_price no_in = {.name = "no-input", .base = {0, 10, 0.5},
                            .cache_write_5m_usd_per_mtok = 2.5};
    assert_false(context_api_usd(&no_in, 100e3, 0, 100e3, COST_CACHE_WRITE_NONE).exists);
    context_bill w = context_api_usd(&no_in, 100e3, 10, 0, COST_CACHE_WRITE_5M);
    assert_true(w.exists);
    assert_close(w.input_usd, 0.25, TIGHT, "USD");
    assert_close(w.output_usd, 10 * 10e-6, TIGHT, "USD");
}

/* ---- 5.6 pass_length ------------------------------------------------------- */

/* Lecture 6.4: decode (a one-token pass) pays the memory term; a long prefill pass
 * spreads it over its tokens and sits on the compute floor. */
static void decode_pays_memory_prefill_pays_compute(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_token_time decode = context_pass_time_per_token(&d, 64, 8192, 1);
    context_token_time prefill = context_pass_time_per_token(&d, 64, 8192, 4096);
    assert_int_equal(decode.bound, COST_BOUND_MEMORY);
    assert_close(decode.time_s, memory_per_sequence(&d, 64, 8192), TIGHT, "s");
    assert_int_equal(prefill.bound, COST_BOUND_COMPUTE);
    assert_close(prefill.time_s, compute_per_token(&d, 8192), TIGHT, "s");
}

/* Lecture 6.4: memory per token falls as 1 / L_pass; compute per token, weights and
 * attention over the context before the pass, does not. */
static void memory_per_token_falls_as_one_over_the_pass_length(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    double m1 = memory_per_sequence(&d, 256, 32768);
    for (double pass = 1; pass <= 64; pass *= 4) {
        context_token_time t = context_pass_time_per_token(&d, 256, 32768, pass);
        assert_close(t.memory_s, m1 / pass, TIGHT, "s");
        assert_close(t.compute_s, compute_per_token(&d, 32768), TIGHT, "s");
    }
}

/* The contract: a pass of one token is a decode step, memory and all. */
static void a_one_token_pass_is_a_decode_step(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_token_time pass = context_pass_time_per_token(&d, 2048, 50000, 1);
    context_token_time step = context_time_per_token(&d, 2048, 50000);
    assert_close(pass.compute_s, step.compute_s, TIGHT, "s");
    assert_close(pass.memory_s, step.memory_s, TIGHT, "s");
    assert_close(pass.memory_s, memory_per_sequence(&d, 2048, 50000), TIGHT, "s");
}

/* Closed form: the pass is balanced at L_pass = one-token memory / compute: for
 * DeepSeek-V3 at a batch of 1,024 and 8,192 tokens of context, 3.6 tokens with
 * attention's arithmetic and 10.4 without it. */
static void attention_shortens_the_balanced_pass(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_deploy bare = deepseek_without_attention();
    double m = memory_per_sequence(&d, 1024, 8192);
    assert_close(context_crossover_pass_tokens(&d, 1024, 8192),
                 m / ((2 * 37e9 + 8192 * DSV3_ATTN_FLOPS) / (72 * 10e15)), TIGHT, "tokens");
    assert_close(context_crossover_pass_tokens(&bare, 1024, 8192), m / (2 * 37e9 / (72 * 10e15)),
                 TIGHT, "tokens");
}

/* Lecture 6.4 and flashcard 24: output at 5x input means decode MFU about 1/5 of
 * prefill, and a 5-token pass would balance; Gemini's 6x gives 1/6; a ratio below 1
 * has no reading, and 1 exactly is a balanced decode. */
static void price_ratio_5_means_decode_mfu_one_fifth(void **state)
{
    (void)state;
    context_price_ratio r = context_read_price_ratio(5);
    assert_true(r.exists);
    assert_close(r.decode_mfu_over_prefill, 0.2, TIGHT, "");
    assert_close(r.crossover_pass_tokens, 5, TIGHT, "tokens");
    assert_close(context_read_price_ratio(12.0 / 2).decode_mfu_over_prefill, 1.0 / 6, TIGHT, "");
    context_price_ratio none = context_read_price_ratio(0.5);
    assert_false(none.exists);
    assert_close(none.decode_mfu_over_prefill, 0, TIGHT, "");
    context_price_ratio one = context_read_price_ratio(1);
    assert_true(one.exists);
    assert_close(one.crossover_pass_tokens, 1, TIGHT, "tokens");
}

/* ---- 5.8 cache_tiers ------------------------------------------------------- */

/* Drain time = capacity / bandwidth: the lecture's Rubin 288 GB / 20 TB/s = 14.4 ms;
 * a DDR5-6400 channel's 256 GB DIMM 5 s; the Micron 9550 30.72 TB / 14 GB/s = 2,194 s;
 * the Exos X24 24 TB / 285 MB/s = 84,211 s (23 h). */
static void drain_time_is_capacity_over_bandwidth(void **state)
{
    (void)state;
    assert_close(context_drain_s(288e9, 20e12), 14.4e-3, TIGHT, "s");
    assert_close(context_drain_s(256e9, 51.2e9), 5.0, TIGHT, "s");
    assert_close(context_drain_s(30.72e12, 14e9), 30.72e12 / 14e9, TIGHT, "s");
    assert_close(context_drain_s(24e12, 285e6), 24e12 / 285e6, TIGHT, "s");
}

/* A device of 100 bytes read at 10 bytes/s for $3,600 an hour ($1/s): a byte held
 * 1 s pays its bandwidth share (0.1 s of device), held 100 s its capacity share
 * (1 s); at the drain time, 10 s, the two shares are equal (0.1 s), not added. */
static void a_byte_pays_its_larger_share_of_the_device(void **state)
{
    (void)state;
    cost_tier t = {"toy", "toy", 100, 10, 3600, "", ""};
    assert_close(context_tier_usd_per_byte(&t, 1), 0.1, TIGHT, "USD/B");
    assert_close(context_tier_usd_per_byte(&t, 100), 1.0, TIGHT, "USD/B");
    assert_close(context_tier_usd_per_byte(&t, 10), 0.1, TIGHT, "USD/B");
}

/* Each tier of lib/tier.c is cheapest near its own drain time: HBM at 10 ms, DDR at
 * 1 s, flash at 5 minutes and 1 hour, disk at a day. */
static void each_tier_is_cheapest_near_its_own_drain_time(void **state)
{
    (void)state;
    const cost_tier *tiers[] = {&HBM, &DDR, &NVME, &HDD};
    double holds[] = {0.01, 1, 300, 3600, 86400};
    size_t expected[] = {0, 1, 2, 2, 3};
    for (size_t i = 0; i < 5; i++) {
        context_tier_choice c = context_cheapest_tier(tiers, 4, holds[i], INFINITY);
        assert_false(c.remat);
        assert_int_equal(c.tier, expected[i]);
        assert_close(c.usd_per_byte, tier_cost(tiers[expected[i]], holds[i]), TIGHT, "USD/B");
    }
}

/* Lecture 6.5: recomputing one token costs its forward pass, 2 x 37e9 / 10e15 s of a
 * $2/h GPU, over its 35,136 bytes of cache. */
static void recomputing_one_token_costs_its_weight_arithmetic(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    double expected = 2 * 37e9 / 10e15 * (2.0 / 3600) / 35136;
    assert_close(context_remat_usd_per_byte(&d, 1, 2.0), expected, TIGHT, "USD/B");
}

/* A prefill of L tokens does sum_{i<L} i = L (L - 1) / 2 token-attentions: at 128k
 * tokens each token costs 2 x 37e9 + 65,535.5 x f_attn FLOPs, 16 times its weight
 * arithmetic for DeepSeek-V3. */
static void recomputing_a_long_context_pays_its_attention(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    double flops = 2 * 37e9 + (131072 - 1) / 2.0 * DSV3_ATTN_FLOPS;
    double expected = flops / 10e15 * (2.0 / 3600) / 35136;
    assert_close(context_remat_usd_per_byte(&d, 131072, 2.0), expected, TIGHT, "USD/B");
}

/* Lecture 6.5: HBM holds a byte for $2/h / 186e9 per second, so it loses to
 * recomputing one token past 2 x 37e9 x 186e9 / (10e15 x 35,136) = 39 s. */
static void recomputing_beats_hbm_for_long_holds(void **state)
{
    (void)state;
    const cost_tier *only_hbm[] = {&HBM};
    double remat = 2 * 37e9 / 10e15 * (2.0 / 3600) / 35136;
    context_tier_choice held = context_cheapest_tier(only_hbm, 1, 10, remat);
    assert_false(held.remat);
    assert_close(held.usd_per_byte, tier_cost(&HBM, 10), TIGHT, "USD/B");
    context_tier_choice redone = context_cheapest_tier(only_hbm, 1, 60, remat);
    assert_true(redone.remat);
    assert_int_equal(redone.tier, 0);
    assert_close(redone.usd_per_byte, remat, TIGHT, "USD/B");
}

/* The contract's ties: of two tiers that cost the same the earlier wins, and
 * recomputing wins when it costs exactly what the cheapest tier does (the toy device
 * costs 0.1 USD a byte at its 10 s drain time, 0.1 = 10 / 100 = 1 / 10 exactly). */
static void ties_go_to_the_earlier_tier_and_to_recomputing(void **state)
{
    (void)state;
    cost_tier a = {"a", "a", 100, 10, 3600, "", ""};
    cost_tier b = {"b", "b", 100, 10, 3600, "", ""};
    const cost_tier *twins[] = {&a, &b};
    context_tier_choice c = context_cheapest_tier(twins, 2, 10, INFINITY);
    assert_false(c.remat);
    assert_int_equal(c.tier, 0);
    assert_true(context_cheapest_tier(twins, 2, 10, 0.1).remat);
    assert_false(context_cheapest_tier(twins, 2, 10, 0.1000001).remat);
    /* recomputing below the cheaper, later tier: tier is 0, as the contract says,
     * not the index of the tier it beat (`half`, at half a's price: 0.05 USD a
     * byte at its drain time) */
    cost_tier half = {"half", "half", 100, 10, 1800, "", ""};
    const cost_tier *pair[] = {&a, &half};
    context_tier_choice r = context_cheapest_tier(pair, 2, 10, 0.01);
    assert_true(r.remat);
    assert_int_equal(r.tier, 0);
    assert_close(r.usd_per_byte, 0.01, TIGHT, "USD/B");
}

/* ---- 5.5 windows_sparse ---------------------------------------------------- */

/* Character.AI-style layout: 1 global layer in 6, the others a 1,024-token window.
 * At 512 tokens all six layers hold 512 tokens; at 100k the five local layers still
 * hold 1,024 each. */
static void sliding_window_layers_stop_growing_at_the_window(void **state)
{
    (void)state;
    double b = 2 * 8 * 128 * 2.0; /* one layer's K and V per token, 8 heads, bf16 */
    assert_close(context_window_kv_bytes(1, 5, 1024, b, 512), 6 * 512 * b, TIGHT, "B");
    assert_close(context_window_kv_bytes(1, 5, 1024, b, 100e3), (100e3 + 5 * 1024) * b, TIGHT,
                 "B");
}

/* DeepSeek-V3.2's sparse attention reads 2,048 selected tokens' KV plus every token's
 * index key: at 128k, 2,048 b + 131,072 b_idx; below 2,048 tokens it reads them all. */
static void sparse_attention_reads_the_selection_plus_the_index(void **state)
{
    (void)state;
    assert_close(context_sparse_read_bytes(35136, 61 * 128, 2048, 131072),
                 2048 * 35136.0 + 131072 * 61 * 128.0, TIGHT, "B");
    assert_close(context_sparse_read_bytes(35136, 61 * 128, 2048, 1000),
                 1000 * (35136.0 + 61 * 128), TIGHT, "B");
}

/* DeepSeek-V3.2's lightning indexer: 128 numbers per token in each of 61 layers, in
 * fp8: 7,808 bytes a token (DeepSeek-V3.2 report). */
static void the_index_is_index_dim_numbers_per_layer(void **state)
{
    (void)state;
    assert_close(context_index_bytes_per_token(61, 128, 1.0), 7808.0, TIGHT, "B");
    assert_close(context_index_bytes_per_token(61, 128, 2.0), 2 * 7808.0, TIGHT, "B");
}

/* The square-root what-if: at 4 times the kink a step reads 2 kinks' worth; at or
 * below the kink, the whole context. */
static void past_the_kink_reads_grow_as_the_square_root(void **state)
{
    (void)state;
    assert_close(context_sqrt_read_tokens(400e3, 100e3), 200e3, TIGHT, "tokens");
    assert_close(context_sqrt_read_tokens(1e8, 1e6), 1e7, TIGHT, "tokens");
    assert_close(context_sqrt_read_tokens(50e3, 100e3), 50e3, TIGHT, "tokens");
}

/* The contract allows a context of zero: nothing is held, nothing read. At exactly
 * the window a local layer holds the whole context, as a global one does. */
static void an_empty_context_holds_and_reads_nothing(void **state)
{
    (void)state;
    assert_close(context_window_kv_bytes(2, 6, 1024, 100, 0), 0, TIGHT, "B");
    assert_close(context_sparse_read_bytes(100, 10, 2048, 0), 0, TIGHT, "B");
    assert_close(context_window_kv_bytes(2, 6, 1024, 100, 1024), 8 * 1024 * 100.0, TIGHT, "B");
}

/* ---- 5.7 attention_parity -------------------------------------------------- */

/* Lecture notes open point 16: 60 layers of 64 heads of 128 spend 2 x 60 x 64 x 256
 * = 1,966,080 FLOPs per context token, and reach a 100e9-active model's 2e11 FLOPs
 * at 101,725 tokens: "near 100k". */
static void conventional_layout_reaches_parity_near_100k(void **state)
{
    (void)state;
    double a = context_attention_flops_per_context_token(60, 64, 128, 128);
    assert_close(a, 2.0 * 60 * 64 * 256, TIGHT, "FLOP");
    assert_close(context_attention_parity_tokens(1e11, a), 2e11 / 1966080.0, TIGHT, "tokens");
}

/* An aggressive layout, global attention in 10 layers of 16 heads, reaches parity
 * only at 2e11 / (2 x 10 x 16 x 256) = 2.44 million tokens: the lecture's "millions". */
static void aggressive_layout_reaches_parity_in_the_millions(void **state)
{
    (void)state;
    double a = context_attention_flops_per_context_token(10, 16, 128, 128);
    assert_close(context_attention_parity_tokens(1e11, a), 2e11 / 81920.0, TIGHT, "tokens");
}

/* DeepSeek-V3's absorbed MLA: 128 heads score 576 dims and sum 512 in 61 layers:
 * 2 x 61 x 128 x 1,088 FLOPs per context token; parity with 2 x 37e9 at 4,355 tokens. */
static void deepseek_mla_reaches_parity_at_a_few_thousand_tokens(void **state)
{
    (void)state;
    double a = context_attention_flops_per_context_token(61, 128, 576, 512);
    assert_close(a, DSV3_ATTN_FLOPS, TIGHT, "FLOP");
    assert_close(context_attention_parity_tokens(37e9, a), 74e9 / a, TIGHT, "tokens");
}

/* ---- 5.10 draft_length ----------------------------------------------------- */

/* A toy decode whose numbers are exact: one sequence, 1 s of arithmetic per token
 * (2 x 0.5 FLOP at 1 FLOP/s) and 5 s to read 5 bytes of weights at 1 B/s, so a pass
 * of q + 1 tokens takes max(q + 1, 5) s and balances at 5 tokens. */
static context_deploy five_second_decode(void)
{
    return toy(5, 0.5, 1, 0, 1, 1);
}

/* Expected tokens a step yields: 1 + a + ... + a^q (Leviathan et al. 2023, eq. 1). */
static double kept(double a, int q)
{
    return a == 1 ? q + 1 : (1 - pow(a, q + 1)) / (1 - a);
}

/* With no drafting cost the best draft fills the balanced pass: 4 guesses at a = 0.8
 * keep (1 - 0.8^5) / 0.2 = 3.36 tokens in the 5 s a plain step takes; a fifth guess
 * makes the pass compute-bound and each step longer than it gains. */
static void free_drafts_fill_the_balanced_pass(void **state)
{
    (void)state;
    context_deploy d = five_second_decode();
    context_draft_plan p = context_best_draft(&d, 1, 0, 0.8, 0, 16);
    assert_int_equal(p.draft_tokens, 4);
    assert_close(p.tokens_per_step, kept(0.8, 4), TIGHT, "tokens");
    assert_close(p.s_per_token, 5 / kept(0.8, 4), TIGHT, "s");
    assert_close(p.speedup, kept(0.8, 4), TIGHT, "x");
}

/* Drafting costs: at a = 0.8 with a balanced pass of 20 tokens (20 bytes of weights)
 * and drafts at 0.1 of a plain step each, a step of q guesses takes 20 + 2q s and
 * the expected time per token (20 + 2q) / kept(q) is least at q = 6: 8.10 s, against
 * 8.13 s at q = 5 and 8.17 s at q = 7. */
static void drafting_cost_shortens_the_best_draft(void **state)
{
    (void)state;
    context_deploy d = toy(20, 0.5, 1, 0, 1, 1);
    context_draft_plan p = context_best_draft(&d, 1, 0, 0.8, 0.1, 16);
    assert_int_equal(p.draft_tokens, 6);
    assert_close(p.s_per_token, (20 + 2 * 6) / kept(0.8, 6), TIGHT, "s");
    assert_close(p.speedup, 20 / ((20 + 2 * 6) / kept(0.8, 6)), TIGHT, "x");
}

/* The tie rule: with every guess accepted (a = 1) each q from 4 up keeps q + 1 tokens
 * in q + 1 s, 1 s a token: the smallest, q = 4, wins; with none accepted (a = 0)
 * every q up to 4 takes 5 s a token, and q = 0 wins. */
static void ties_go_to_the_shorter_draft(void **state)
{
    (void)state;
    context_deploy d = five_second_decode();
    context_draft_plan all = context_best_draft(&d, 1, 0, 1, 0, 12);
    assert_int_equal(all.draft_tokens, 4);
    assert_close(all.s_per_token, 1, TIGHT, "s");
    assert_close(all.speedup, 5, TIGHT, "x");
    context_draft_plan none = context_best_draft(&d, 1, 0, 0, 0, 12);
    assert_int_equal(none.draft_tokens, 0);
    /* plain decode keeps one token a step, at the 5 s of its step */
    assert_close(none.tokens_per_step, 1, TIGHT, "tokens");
    assert_close(none.s_per_token, 5, TIGHT, "s");
    assert_close(none.speedup, 1, TIGHT, "x");
}

/* When decode is already compute-bound (0.5 s of weights under 1 s of arithmetic)
 * every guess lengthens the step by a whole token's arithmetic and keeps less than
 * a token: plain decode is best. max_draft = 0 allows nothing else. */
static void a_compute_bound_decode_gains_nothing_from_drafts(void **state)
{
    (void)state;
    context_deploy d = toy(0.5, 0.5, 1, 0, 1, 1);
    context_draft_plan p = context_best_draft(&d, 1, 0, 0.9, 0, 8);
    assert_int_equal(p.draft_tokens, 0);
    assert_close(p.s_per_token, 1, TIGHT, "s");
    context_deploy slow = five_second_decode();
    assert_int_equal(context_best_draft(&slow, 1, 0, 0.8, 0, 0).draft_tokens, 0);
}

/* ---- 5.11 cache_schedule --------------------------------------------------- */

/* Claude Opus 4.6, per million tokens: input $5, 5-minute write $6.25, 1-hour write
 * $10, hit $0.50; a prefix of a million tokens bills those amounts exactly. */
#define MTOK 1e6

static double schedule(const cost_api_price *p, const double *t, size_t n,
                       context_cache_action *actions)
{
    for (size_t i = 0; i < n; i++)
        actions[i] = (context_cache_action)-1;
    return context_cheapest_cache_schedule(p, MTOK, t, n, actions);
}

static void assert_actions(const context_cache_action *got, const context_cache_action *want,
                           size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
}

/* One request has nothing to reuse: it is sent uncached, $5. */
static void a_single_request_is_sent_uncached(void **state)
{
    (void)state;
    double t[] = {0};
    context_cache_action a[1];
    assert_close(schedule(api("claude-opus-4.6"), t, 1, a), 5, TIGHT, "USD");
    assert_int_equal(a[0], CONTEXT_SEND_UNCACHED);
}

/* Requests 4 minutes apart: one 5-minute write and two hits, 6.25 + 2 x 0.5 = $7.25
 * against $15 uncached. */
static void requests_minutes_apart_use_a_5_minute_entry(void **state)
{
    (void)state;
    double t[] = {0, 240, 480};
    context_cache_action a[3];
    context_cache_action want[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), t, 3, a), 7.25, TIGHT, "USD");
    assert_actions(a, want, 3);
}

/* Half-hour gaps outlive a 5-minute entry: a 1-hour write and two hits cost
 * 10 + 2 x 0.5 = $11 against $15; for two requests 10.5 > 10, so none is cached. */
static void half_hour_gaps_need_the_1_hour_entry(void **state)
{
    (void)state;
    double t3[] = {0, 1800, 3600};
    context_cache_action a[3];
    context_cache_action want[] = {CONTEXT_WRITE_1H, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), t3, 3, a), 11, TIGHT, "USD");
    assert_actions(a, want, 3);
    double t2[] = {0, 1800};
    context_cache_action b[2];
    context_cache_action none[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(api("claude-opus-4.6"), t2, 2, b), 10, TIGHT, "USD");
    assert_actions(b, none, 2);
}

/* The boundary: an entry exactly 300 s old is still live (6.25 + 0.5 = $6.75); half
 * a second later it is gone, and the two requests are cheapest uncached ($10). */
static void an_entry_exactly_its_life_old_is_live(void **state)
{
    (void)state;
    double live[] = {0, 300};
    context_cache_action a[2];
    context_cache_action hit[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), live, 2, a), 6.75, TIGHT, "USD");
    assert_actions(a, hit, 2);
    double gone[] = {0, 300.5};
    context_cache_action none[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(api("claude-opus-4.6"), gone, 2, a), 10, TIGHT, "USD");
    assert_actions(a, none, 2);
}

/* A hit restarts the entry's life: requests every 4 minutes for 12 minutes keep one
 * 5-minute entry alive, 6.25 + 3 x 0.5 = $7.75. */
static void a_hit_restarts_the_entry_life(void **state)
{
    (void)state;
    double t[] = {0, 240, 480, 720};
    context_cache_action a[4];
    context_cache_action want[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE,
                                   CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), t, 4, a), 7.75, TIGHT, "USD");
    assert_actions(a, want, 4);
}

/* Looking ahead pays: a pair a minute apart, a half-hour pause, another pair. Two
 * 5-minute entries cost 2 x (6.25 + 0.5) = $13.50; one 1-hour entry read three times
 * costs 10 + 3 x 0.5 = $11.50. */
static void one_long_entry_beats_two_short_ones(void **state)
{
    (void)state;
    double t[] = {0, 60, 2000, 2060};
    context_cache_action a[4];
    context_cache_action want[] = {CONTEXT_WRITE_1H, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE,
                                   CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), t, 4, a), 11.5, TIGHT, "USD");
    assert_actions(a, want, 4);
}

/* The tie rule: on a list of $0.90 input, $1.40 5-minute write and $0.40 hit, two
 * requests cost 0.9 + 0.9 = 1.4 + 0.4 = $1.80 either way (in doubles the second sum
 * is 1.7999999999999998): uncached comes first in the order, and wins. */
static void ties_go_to_the_earlier_action(void **state)
{
    (void)state;
    cost_api_price p = {.name = "tie", .base = {0.9, 1, 0.4}, .cache_write_5m_usd_per_mtok = 1.4};
    double t[] = {0, 100};
    context_cache_action a[2];
    context_cache_action want[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(&p, t, 2, a), 1.8, TIGHT, "USD");
    assert_actions(a, want, 2);
}

/* The tie rule's tolerance is relative to the least total. With the write $1.8e-10
 * cheaper, write-then-read totals $1.8 - 1.8e-10, within 1e-9 of the least (itself):
 * uncached still comes first. With it $1.8e-8 cheaper (a relative 1e-8, past the
 * tolerance) the write and the hit are the one cheapest schedule. */
static void the_tie_tolerance_is_relative_to_the_least_total(void **state)
{
    (void)state;
    double t[] = {0, 100};
    context_cache_action a[2];
    cost_api_price near = {.name = "near", .base = {0.9, 1, 0.4},
                           .cache_write_5m_usd_per_mtok = 1.4 - 1.8e-10};
    context_cache_action uncached[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(&near, t, 2, a), 1.8, TIGHT, "USD");
    assert_actions(a, uncached, 2);
    cost_api_price past = {.name = "past", .base = {0.9, 1, 0.4},
                           .cache_write_5m_usd_per_mtok = 1.4 - 1.8e-8};
    context_cache_action cached[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE};
    assert_close(schedule(&past, t, 2, a), 1.8 - 1.8e-8, TIGHT, "USD");
    assert_actions(a, cached, 2);
}

/* A list without write prices (GPT-5) cannot write: every request uncached, 3 x $1.25. */
static void a_list_without_writes_sends_everything_uncached(void **state)
{
    (void)state;
    double t[] = {0, 10, 20};
    context_cache_action a[3];
    context_cache_action want[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED,
                                   CONTEXT_SEND_UNCACHED};
    assert_close(schedule(api("gpt-5"), t, 3, a), 3 * 1.25, TIGHT, "USD");
    assert_actions(a, want, 3);
}

/* ---- 5.12 longest_context -------------------------------------------------- */

/* A toy whose numbers are exact in binary: one chip of 1,000 bytes of HBM, 1 FLOP/s and
 * 100 B/s, rented at 3,600 USD an hour (1 USD a second, so a token's cost in USD per
 * million is its time in seconds times 1e6); 100 bytes of weights (100 parameters at 1
 * byte), 1 FLOP of arithmetic per token (0.5 active parameters), 1 byte of cache per
 * token of context, no attention arithmetic. At context L and batch B, from the
 * roofline of §5.1 (The roofline against context):
 *     a token takes  max(1, (100 / B + L) / 100) s
 *     a step takes   B times that, max(B, 1 + B L / 100) s
 *     the HBM holds  100 + B L bytes. */
static context_deploy reach_toy(void)
{
    return toy(100, 0.5, 1, 0, 1, 100);
}
#define TOY_HBM 1000.0
#define TOY_USD_PER_HOUR 3600.0
#define NO_LIMIT 1e12

static void assert_reach(context_reach r, double context, double batch, double step_s,
                         double usd_per_mtok)
{
    assert_true(r.exists);
    assert_close(r.context_tokens, context, TIGHT, "tokens");
    assert_close(r.batch, batch, TIGHT, "sequences");
    assert_close(r.step_s, step_s, TIGHT, "s");
    assert_close(r.usd_per_mtok, usd_per_mtok, TIGHT, "USD/Mtok");
}

/* With speed and price free, HBM alone limits the context: one sequence of L tokens
 * fits while 100 + L <= 1,000, so L = 900, exactly full (a limit met exactly is met).
 * Its step is max(1, 1 + 900 / 100) = 10 s, and a token costs 10 s = 1e7 USD/Mtok. */
static void a_full_hbm_ends_the_context_weights_included(void **state)
{
    (void)state;
    context_deploy d = reach_toy();
    context_reach r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, NO_LIMIT,
                                              NO_LIMIT, 1e6);
    assert_reach(r, 900, 1, 10, 1e7);
}

/* A price of 2e6 USD/Mtok (2 s a token) is met while 100 / B + L <= 200, and the
 * cheapest batch at L is the largest that fits, B = floor(900 / L): at L = 180 that is
 * 5 sequences, 100 / 5 + 180 = 200, exactly the price; at L = 181 only 4 fit, and
 * 25 + 181 = 206 is too dear. The step: max(5, 1 + 5 x 180 / 100) = 10 s. */
static void a_price_limit_is_met_by_the_largest_batch_that_fits(void **state)
{
    (void)state;
    context_deploy d = reach_toy();
    context_reach r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, NO_LIMIT,
                                              2e6, 1e6);
    assert_reach(r, 180, 5, 10, 2e6);
}

/* A step of at most 4 s bounds the WHOLE step, max(B, 1 + B L / 100), not one token's
 * share of it: one sequence meets it while L <= 300 (1 + 3 = 4 s exactly), and at
 * L = 300 a second sequence would step 1 + 6 = 7 s. A token then costs 4e6 USD/Mtok. */
static void a_step_limit_bounds_the_whole_step(void **state)
{
    (void)state;
    context_deploy d = reach_toy();
    context_reach r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, 4, NO_LIMIT,
                                              1e6);
    assert_reach(r, 300, 1, 4, 4e6);
}

/* Past the balance batch a larger batch costs no less per token: at the model's window
 * of 20 tokens a token takes max(1, (100 / B + 20) / 100) s, 1 s (1e6 USD/Mtok) for
 * every B >= 2 up to the 45 that fit, and the smallest, 2, is the answer (step 2 s).
 * At a window of 50 the balance is exactly B = 2 (100 / 2 + 50 = 100): a tie between
 * compute and memory costs the same 1 s, and 2 still wins. */
static void past_the_balance_batch_the_smallest_cheapest_batch_wins(void **state)
{
    (void)state;
    context_deploy d = reach_toy();
    context_reach r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, NO_LIMIT,
                                              NO_LIMIT, 20);
    assert_reach(r, 20, 2, 2, 1e6);
    r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, NO_LIMIT, NO_LIMIT, 50);
    assert_reach(r, 50, 2, 2, 1e6);
}

/* The rounding rule: three chips of 0.3 bytes hold 0.9 bytes, and 0.1 bytes of weights
 * plus 80 tokens of 0.01 bytes fill them exactly: L = 80. In doubles 3 x 0.3 is
 * 0.8999999999999999 and 0.1 + 80 x 0.01 is 0.9, a hair above; within the relative
 * 1e-9 it counts as met. (1 FLOP/s and 10 B/s a chip; the step and the price are left
 * free.) */
static void an_hbm_full_to_the_last_bit_of_a_double_still_fits(void **state)
{
    (void)state;
    context_deploy d = toy(0.1, 0.05, 0.01, 0, 1, 10);
    d.chips = 3;
    context_reach r = context_longest_context(&d, 0.3, TOY_USD_PER_HOUR, NO_LIMIT, NO_LIMIT,
                                              1e6);
    assert_true(r.exists);
    assert_close(r.context_tokens, 80, TIGHT, "tokens");
    assert_close(r.batch, 1, TIGHT, "sequences");
}

/* No answer when not even one token of context is served: weights of 100 bytes leave
 * no room in 100 bytes of HBM (101 bytes hold one token: L = 1, B = 1, a step of
 * max(1, 1 + 1 / 100) = 1.01 s); that 1.01 s step misses a 0.5 s target; a token
 * never costs less than its 1 s of arithmetic, 1e6 USD/Mtok. */
static void nothing_served_gives_no_answer(void **state)
{
    (void)state;
    context_deploy d = reach_toy();
    context_reach none[] = {
        context_longest_context(&d, 100, TOY_USD_PER_HOUR, NO_LIMIT, NO_LIMIT, 1e6),
        context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, 0.5, NO_LIMIT, 1e6),
        context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, NO_LIMIT, 999999, 1e6),
    };
    assert_reach(context_longest_context(&d, 101, TOY_USD_PER_HOUR, NO_LIMIT, NO_LIMIT, 1e6),
                 1, 1, 1.01, 1.01e6);
    for (int i = 0; i < 3; i++) {
        assert_false(none[i].exists);
        assert_true(none[i].context_tokens == 0 && none[i].batch == 0 &&
                    none[i].step_s == 0 && none[i].usd_per_mtok == 0);
    }
}

/* DeepSeek-V3 on a GB200 NVL72 (fp4, fp8 MLA cache, attention counted) at 2 USD a
 * chip-hour (chapter 1's rent, our assumption), its 131,072-token window (128K, the
 * DeepSeek-V3 README), steps of at most 50 ms and DeepSeek's own output price of
 * 1.10 USD/Mtok (lib/price.c, early 2025). The rack's HBM holds
 * 72 x 186e9 - 335.5e9 = 13,056.5e9 bytes of cache: K = 13,056.5e9 / 35,136 =
 * 371,598,929.9 tokens of context in all. At L = 131,072 a token's fetch,
 * (335.5e9 / B + 131,072 x 35,136) / (72 x 8e12), outweighs its arithmetic,
 * (74e9 + 131,072 x 17,000,448) / (72 x 10e15), at every batch that fits, so the
 * cheapest batch is the largest, B = floor(K / L) = 2,835; its step, HBM's drain time
 * or less (13,392e9 / 576e12 = 23.25 ms), meets 50 ms, and a token costs
 * 72 x 2 / 3600 x 1e6 x fetch = 0.328 USD/Mtok, under the price: the window binds. */
static void deepseek_v3_on_an_nvl72_sells_its_whole_window(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    double L = 131072, B = 2835;
    double fetch_s = (671e9 * 0.5 / B + L * d.kv_bytes_per_token) / (72 * 8e12);
    context_reach r = context_longest_context(&d, 186e9, 2, 0.05, 1.10, L);
    assert_reach(r, L, B, B * fetch_s, 72 * 2 / 3600.0 * 1e6 * fetch_s);
    assert_true(671e9 * 0.5 + B * L * d.kv_bytes_per_token <= 72 * 186e9);
    assert_true(671e9 * 0.5 + (B + 1) * L * d.kv_bytes_per_token > 72 * 186e9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(context_roofline, without_attention_compute_per_token_is_flat),
        CHALK_TEST(context_roofline, attention_adds_its_flops_per_context_token),
        CHALK_TEST(context_roofline, memory_per_token_rises_linearly_with_context),
        CHALK_TEST(context_roofline, short_context_is_compute_bound_long_context_memory_bound),
        CHALK_TEST(context_roofline, a_tie_is_compute_bound),
        CHALK_TEST(context_kink, kink_is_where_the_two_lines_cross),
        CHALK_TEST(context_kink, without_attention_the_kink_comes_earlier),
        CHALK_TEST(context_kink, kink_tends_to_the_balance_context_as_the_batch_grows),
        CHALK_TEST(context_kink, no_kink_below_the_balance_batch),
        CHALK_TEST(context_kink, weights_exactly_balancing_compute_give_no_kink),
        CHALK_TEST(context_kink, attention_outgrowing_the_cache_fetch_gives_no_kink),
        CHALK_TEST(context_roofline, hbm_holds_the_weights_and_every_cache),
        CHALK_TEST(context_roofline, cost_per_million_tokens_is_the_rent_of_a_tokens_time),
        CHALK_TEST(kv_from_price, lecture_inputs_give_833_bytes_in_consistent_units),
        CHALK_TEST(kv_from_price, lecture_1667_bytes_is_the_answer_for_a_ratio_per_byte),
        CHALK_TEST(kv_from_price, gb200_fp4_puts_a_200k_step_at_800_bytes),
        CHALK_TEST(kv_from_price, kv_from_crossover_inverts_the_balance_context),
        CHALK_TEST(kv_from_price, ratio_and_rate_forms_agree),
        CHALK_TEST(kv_shape, lecture_shared_context_gives_2048_bytes),
        CHALK_TEST(kv_shape, llama3_70b_grouped_query_cache_is_327680_bytes_in_bf16),
        CHALK_TEST(kv_shape, multi_head_gpt3_and_multi_query_palm_differ_by_39x),
        CHALK_TEST(kv_shape, layers_sharing_a_cache_count_once),
        CHALK_TEST(kv_shape, deepseek_mla_cache_is_one_latent_per_layer),
        CHALK_TEST(windows_sparse, sliding_window_layers_stop_growing_at_the_window),
        CHALK_TEST(windows_sparse, sparse_attention_reads_the_selection_plus_the_index),
        CHALK_TEST(windows_sparse, an_empty_context_holds_and_reads_nothing),
        CHALK_TEST(pass_length, decode_pays_memory_prefill_pays_compute),
        CHALK_TEST(pass_length, memory_per_token_falls_as_one_over_the_pass_length),
        CHALK_TEST(pass_length, a_one_token_pass_is_a_decode_step),
        CHALK_TEST(pass_length, attention_shortens_the_balanced_pass),
        CHALK_TEST(pass_length, price_ratio_5_means_decode_mfu_one_fifth),
        CHALK_TEST(attention_parity, conventional_layout_reaches_parity_near_100k),
        CHALK_TEST(attention_parity, aggressive_layout_reaches_parity_in_the_millions),
        CHALK_TEST(attention_parity, deepseek_mla_reaches_parity_at_a_few_thousand_tokens),
        CHALK_TEST(cache_tiers, drain_time_is_capacity_over_bandwidth),
        CHALK_TEST(cache_tiers, a_byte_pays_its_larger_share_of_the_device),
        CHALK_TEST(cache_tiers, each_tier_is_cheapest_near_its_own_drain_time),
        CHALK_TEST(cache_tiers, recomputing_one_token_costs_its_weight_arithmetic),
        CHALK_TEST(cache_tiers, recomputing_a_long_context_pays_its_attention),
        CHALK_TEST(cache_tiers, recomputing_beats_hbm_for_long_holds),
        CHALK_TEST(cache_tiers, ties_go_to_the_earlier_tier_and_to_recomputing),
        CHALK_TEST(api_bill, gemini_short_prompt_pays_2_and_12_per_million),
        CHALK_TEST(api_bill, gemini_long_prompt_bills_every_token_at_the_long_tier),
        CHALK_TEST(api_bill, gemini_prompt_of_exactly_200k_is_still_short),
        CHALK_TEST(api_bill, output_tokens_do_not_choose_the_tier),
        CHALK_TEST(api_bill, claude_cache_hits_cost_a_tenth_of_input),
        CHALK_TEST(api_bill, claude_writes_cost_1_25x_for_5_minutes_and_2x_for_an_hour),
        CHALK_TEST(api_bill, a_price_the_list_lacks_gives_no_bill),
        CHALK_TEST(api_bill, long_tier_is_reported_even_without_a_bill),
        CHALK_TEST(api_bill, a_write_price_is_the_lists_at_either_tier),
        CHALK_TEST(api_bill, a_tier_without_an_output_or_input_price_gives_no_bill),
        CHALK_TEST(draft_length, free_drafts_fill_the_balanced_pass),
        CHALK_TEST(draft_length, drafting_cost_shortens_the_best_draft),
        CHALK_TEST(draft_length, ties_go_to_the_shorter_draft),
        CHALK_TEST(draft_length, a_compute_bound_decode_gains_nothing_from_drafts),
        CHALK_TEST(cache_schedule, a_single_request_is_sent_uncached),
        CHALK_TEST(cache_schedule, requests_minutes_apart_use_a_5_minute_entry),
        CHALK_TEST(cache_schedule, half_hour_gaps_need_the_1_hour_entry),
        CHALK_TEST(cache_schedule, an_entry_exactly_its_life_old_is_live),
        CHALK_TEST(cache_schedule, a_hit_restarts_the_entry_life),
        CHALK_TEST(cache_schedule, one_long_entry_beats_two_short_ones),
        CHALK_TEST(cache_schedule, ties_go_to_the_earlier_action),
        CHALK_TEST(cache_schedule, the_tie_tolerance_is_relative_to_the_least_total),
        CHALK_TEST(cache_schedule, a_list_without_writes_sends_everything_uncached),
        CHALK_TEST(windows_sparse, the_index_is_index_dim_numbers_per_layer),
        CHALK_TEST(windows_sparse, past_the_kink_reads_grow_as_the_square_root),
        CHALK_TEST(longest_context, a_full_hbm_ends_the_context_weights_included),
        CHALK_TEST(longest_context, a_price_limit_is_met_by_the_largest_batch_that_fits),
        CHALK_TEST(longest_context, a_step_limit_bounds_the_whole_step),
        CHALK_TEST(longest_context, past_the_balance_batch_the_smallest_cheapest_batch_wins),
        CHALK_TEST(longest_context, an_hbm_full_to_the_last_bit_of_a_double_still_fits),
        CHALK_TEST(longest_context, nothing_served_gives_no_answer),
        CHALK_TEST(longest_context, deepseek_v3_on_an_nvl72_sells_its_whole_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
