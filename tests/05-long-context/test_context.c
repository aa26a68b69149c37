/*
 * test_context.c -- Chapter 5 tests: long context, KV bytes read off prices, cache
 * tiers, speculative decoding, cache schedules.
 *
 * Built twice: against exercises/05-long-context/context.c (yours) and against
 * the reference solution (in the instructor's copy). Each test states one fact;
 * the comment above it names where the expected value comes from. Expected values
 * are closed forms with published inputs, never copied from output; where deriving
 * them is the exercise (two and three stars) they are the E_ numbers of expected.h,
 * whose derivations, with their sources, stay in the instructor's copy.
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
 */
#include "../test_util.h"

#include "context.h"
#include "expected.h"

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

/* ---- 5.4 kv_shape ---------------------------------------------------------- */

/* The lecture at 1:38:50: one shared context, K and V, head_dim 128, 8 KV heads, one byte per
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

/* The lecture at 1:32:56: without attention's arithmetic, compute per token is flat in context,
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

/* The lecture at 1:32:56: memory per token is the batch's share of the weights plus one
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
    assert_roof(short_ctx.bound, COST_BOUND_COMPUTE);
    assert_close(short_ctx.time_s, (2 * 37e9 + 256 * DSV3_ATTN_FLOPS) / (72 * 10e15), TIGHT,
                 "s");
    assert_roof(long_ctx.bound, COST_BOUND_MEMORY);
    assert_close(long_ctx.time_s, (671e9 * 0.5 / 65536 + 200e3 * 35136) / (72 * 8e12), TIGHT,
                 "s");
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
    assert_roof(t.bound, COST_BOUND_COMPUTE);
}

/* ---- 5.2 context_kink ------------------------------------------------------ */

/* DeepSeek-V3 on the NVL72 at a batch of 20,000: the kink, attention's arithmetic counted
 * (E_KINK_DSV3_B20000_TOKENS: §5.1 (The roofline against context), derived in the instructor's
 * copy). */
static void deepseek_v3_kink_at_a_batch_of_20000(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_kink k = context_kink_tokens(&d, 20000);
    assert_true(k.exists);
    assert_close(k.tokens, E_KINK_DSV3_B20000_TOKENS, TIGHT, "tokens");
}

/* The same without attention's arithmetic, as the lecture at 1:32:56 draws it: an earlier kink
 * (E_KINK_DSV3_NO_ATTN_B20000_TOKENS). */
static void without_attention_the_kink_comes_earlier(void **state)
{
    (void)state;
    context_deploy d = deepseek_without_attention();
    context_kink k = context_kink_tokens(&d, 20000);
    assert_true(k.exists);
    assert_close(k.tokens, E_KINK_DSV3_NO_ATTN_B20000_TOKENS, TIGHT, "tokens");
    context_deploy with = deepseek_on_nvl72();
    assert_true(k.tokens < context_kink_tokens(&with, 20000).tokens);
}

/* The contract's unbounded batch, and a batch so large that it is all but unbounded:
 * the same kink (E_KINK_DSV3_UNBOUNDED_BATCH_TOKENS: §5.1 (The roofline against
 * context)). */
static void kink_at_an_unbounded_batch(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    assert_close(context_kink_tokens(&d, INFINITY).tokens, E_KINK_DSV3_UNBOUNDED_BATCH_TOKENS,
                 TIGHT, "tokens");
    assert_close(context_kink_tokens(&d, 1e12).tokens, E_KINK_DSV3_UNBOUNDED_BATCH_TOKENS, 1e-6,
                 "tokens");
}

/* DeepSeek-V3 on the NVL72 has no kink at a batch of 5,000 (a token is memory-bound at
 * every context) and has one at 6,000 (§5.1 (The roofline against context)). */
static void no_kink_at_a_small_batch(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_kink none = context_kink_tokens(&d, 5000);
    assert_false(none.exists);
    assert_close(none.tokens, 0, TIGHT, "tokens");
    assert_true(context_kink_tokens(&d, 6000).exists);
}

/* The contract's boundary: 2 bytes of weights and 1 active parameter at 1 FLOP/s and
 * 1 B/s, 1 byte a token. At a batch of 1 a token is exactly balanced at zero context:
 * no kink. At a batch of 2 there is one (E_KINK_TOY_B2_TOKENS). */
static void weights_exactly_balancing_compute_give_no_kink(void **state)
{
    (void)state;
    context_deploy d = toy(2, 1, 1, 0, 1, 1);
    assert_false(context_kink_tokens(&d, 1).exists);
    context_kink k = context_kink_tokens(&d, 2);
    assert_true(k.exists);
    assert_close(k.tokens, E_KINK_TOY_B2_TOKENS, TIGHT, "tokens");
}

/* The contract's other no-kink case, a token compute-bound at every context: a toy of
 * 1 active parameter, 1 attention FLOP per context token at 1 FLOP/s and 1 byte of
 * cache a token at 1 B/s, at an unbounded batch. With half the attention there is a
 * kink (E_KINK_TOY_HALF_ATTN_TOKENS). */
static void compute_bound_at_every_context_gives_no_kink(void **state)
{
    (void)state;
    context_deploy equal = toy(1, 1, 1, 1, 1, 1);
    context_kink none = context_kink_tokens(&equal, INFINITY);
    assert_false(none.exists);
    assert_close(none.tokens, 0, TIGHT, "tokens");
    context_deploy half = toy(1, 1, 1, 0.5, 1, 1);
    context_kink k = context_kink_tokens(&half, INFINITY);
    assert_true(k.exists);
    assert_close(k.tokens, E_KINK_TOY_HALF_ATTN_TOKENS, TIGHT, "tokens");
}

/* ---- 5.3 kv_from_price ----------------------------------------------------- */

/* The lecture at 1:36:01 in consistent units: a ratio of 300 multiplies per fp4 weight is 600
 * multiplies per byte, so b_kv = 0.5 x 1e11 / (300 x 2e5) = 833 bytes. The same chip
 * as rates: F = 1,200 FLOP per byte of bandwidth. */
static void lecture_inputs_give_833_bytes_in_consistent_units(void **state)
{
    (void)state;
    assert_close(context_kv_bytes_from_ratio(300, 0.5, 1e11, 2e5), 2500.0 / 3, TIGHT, "B");
    assert_close(context_kv_bytes_from_crossover(1e11, 2e5, 1200, 1), 2500.0 / 3, TIGHT, "B");
}

/* The lecture at 1:36:01: 1e11 / (300 x 2e5) = 1,667 is the answer for a ratio counted per BYTE:
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

/* ---- 5.11 api_bill --------------------------------------------------------- */

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

/* The lecture at 1:41:33: decode (a one-token pass) pays the memory term; a long prefill pass
 * sits on the compute floor (E_PASS_DSV3_DECODE_B64_L8192_S,
 * E_PASS_DSV3_COMPUTE_L8192_S: §5.4 (Output against input price)). */
static void decode_pays_memory_prefill_pays_compute(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_token_time decode = context_pass_time_per_token(&d, 64, 8192, 1);
    context_token_time prefill = context_pass_time_per_token(&d, 64, 8192, 4096);
    assert_roof(decode.bound, COST_BOUND_MEMORY);
    assert_close(decode.time_s, E_PASS_DSV3_DECODE_B64_L8192_S, TIGHT, "s");
    assert_roof(prefill.bound, COST_BOUND_COMPUTE);
    assert_close(prefill.time_s, E_PASS_DSV3_COMPUTE_L8192_S, TIGHT, "s");
}

/* The lecture at 1:41:33: a pass's memory time per new token at passes of 1, 4, 16 and 64 new tokens, and
 * its compute time per new token, the same at every length
 * (E_PASS_DSV3_MEMORY_B256_L32768_P*_S, E_PASS_DSV3_COMPUTE_L32768_S: §5.4 (Output against
 * input price)). */
static void memory_and_compute_per_token_against_the_pass_length(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    const double pass[] = {1, 4, 16, 64};
    const double memory_s[] = {
        E_PASS_DSV3_MEMORY_B256_L32768_P1_S, E_PASS_DSV3_MEMORY_B256_L32768_P4_S,
        E_PASS_DSV3_MEMORY_B256_L32768_P16_S, E_PASS_DSV3_MEMORY_B256_L32768_P64_S};
    for (int i = 0; i < 4; i++) {
        context_token_time t = context_pass_time_per_token(&d, 256, 32768, pass[i]);
        assert_close(t.memory_s, memory_s[i], TIGHT, "s");
        assert_close(t.compute_s, E_PASS_DSV3_COMPUTE_L32768_S, TIGHT, "s");
    }
}

/* The contract: a pass of one token is a decode step, memory and all
 * (E_PASS_DSV3_MEMORY_B2048_L50000_S). */
static void a_one_token_pass_is_a_decode_step(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_token_time pass = context_pass_time_per_token(&d, 2048, 50000, 1);
    context_token_time step = context_time_per_token(&d, 2048, 50000);
    assert_close(pass.compute_s, step.compute_s, TIGHT, "s");
    assert_close(pass.memory_s, step.memory_s, TIGHT, "s");
    assert_close(pass.memory_s, E_PASS_DSV3_MEMORY_B2048_L50000_S, TIGHT, "s");
    assert_roof(pass.bound, step.bound);
}

/* The balanced pass of DeepSeek-V3 at a batch of 1,024 and 8,192 tokens of context, with and
 * without attention's arithmetic (E_PASS_BALANCED_DSV3_*: §5.4 (Output against input price)).
 */
static void attention_shortens_the_balanced_pass(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    context_deploy bare = deepseek_without_attention();
    assert_close(context_crossover_pass_tokens(&d, 1024, 8192),
                 E_PASS_BALANCED_DSV3_B1024_L8192_TOKENS, TIGHT, "tokens");
    assert_close(context_crossover_pass_tokens(&bare, 1024, 8192),
                 E_PASS_BALANCED_DSV3_NO_ATTN_B1024_L8192_TOKENS, TIGHT, "tokens");
}

/* The lecture at 1:41:33 and its flashcard on output prices: what output at 5x input says, and Gemini's 6x; the
 * contract's rules: a ratio below 1 has no reading, 1 exactly has one
 * (E_PRICE_RATIO_*). */
static void a_price_ratio_read_as_a_cost_ratio(void **state)
{
    (void)state;
    context_price_ratio r = context_read_price_ratio(5);
    assert_true(r.exists);
    assert_close(r.decode_mfu_over_prefill, E_PRICE_RATIO_5_DECODE_MFU, TIGHT, "");
    assert_close(r.crossover_pass_tokens, E_PRICE_RATIO_5_PASS_TOKENS, TIGHT, "tokens");
    assert_close(context_read_price_ratio(12.0 / 2).decode_mfu_over_prefill,
                 E_PRICE_RATIO_6_DECODE_MFU, TIGHT, "");
    context_price_ratio none = context_read_price_ratio(0.5);
    assert_false(none.exists);
    assert_close(none.decode_mfu_over_prefill, 0, TIGHT, "");
    context_price_ratio one = context_read_price_ratio(1);
    assert_true(one.exists);
    assert_close(one.crossover_pass_tokens, E_PRICE_RATIO_1_PASS_TOKENS, TIGHT, "tokens");
}

/* ---- 5.8 cache_tiers ------------------------------------------------------- */

/* Drain times of the lecture's Rubin (288 GB at 20 TB/s), a 256 GB DIMM on a
 * DDR5-6400 channel, the Micron 9550 and the Exos X24 (E_DRAIN_*: data sheets). */
static void drain_times_of_four_devices(void **state)
{
    (void)state;
    assert_close(context_drain_s(288e9, 20e12), E_DRAIN_RUBIN_S, TIGHT, "s");
    assert_close(context_drain_s(256e9, 51.2e9), E_DRAIN_DDR5_6400_S, TIGHT, "s");
    assert_close(context_drain_s(30.72e12, 14e9), E_DRAIN_MICRON_9550_S, TIGHT, "s");
    assert_close(context_drain_s(24e12, 285e6), E_DRAIN_EXOS_X24_S, TIGHT, "s");
}

/* Two toy devices (§5.5 (Cache hits and memory tiers)): one of 96 bytes read at 12 bytes/s
 * for $2,700 an hour, its bytes held 3 s and 20 s (E_TIER_TOY_HOLD_3S_USD_PER_B,
 * E_TIER_TOY_HOLD_20S_USD_PER_B), and one of 64 bytes read at 16 bytes/s for $7,200 an
 * hour, held its 4 s drain time (E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B). */
static void toy_devices_held_below_at_and_above_their_drain_times(void **state)
{
    (void)state;
    cost_tier t = {"toy", "toy", 96, 12, 2700, "", ""};
    assert_close(context_tier_usd_per_byte(&t, 3), E_TIER_TOY_HOLD_3S_USD_PER_B, TIGHT,
                 "USD/B");
    assert_close(context_tier_usd_per_byte(&t, 20), E_TIER_TOY_HOLD_20S_USD_PER_B, TIGHT,
                 "USD/B");
    cost_tier small = {"small", "small", 64, 16, 7200, "", ""};
    assert_close(context_tier_usd_per_byte(&small, 4), E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B,
                 TIGHT, "USD/B");
}

/* The cheapest of lib/tier.c's four tiers for holds of 10 ms, 1 s, 5 minutes, an hour and a
 * day, and what it costs (E_CHEAPEST_TIER_*, E_TIER_*: §5.5 (Cache hits and memory tiers)). */
static void the_cheapest_of_four_tiers_across_holds(void **state)
{
    (void)state;
    const cost_tier *tiers[] = {&HBM, &DDR, &NVME, &HDD};
    const double holds[] = {0.01, 1, 300, 3600, 86400};
    const size_t expected[] = {E_CHEAPEST_TIER_10MS, E_CHEAPEST_TIER_1S, E_CHEAPEST_TIER_300S,
                               E_CHEAPEST_TIER_3600S, E_CHEAPEST_TIER_86400S};
    const double usd[] = {E_TIER_HBM_10MS_USD_PER_B, E_TIER_DDR_1S_USD_PER_B,
                          E_TIER_NVME_300S_USD_PER_B, E_TIER_NVME_3600S_USD_PER_B,
                          E_TIER_HDD_86400S_USD_PER_B};
    for (size_t i = 0; i < 5; i++) {
        context_tier_choice c = context_cheapest_tier(tiers, 4, holds[i], INFINITY);
        assert_false(c.remat);
        assert_int_equal(c.tier, expected[i]);
        assert_close(c.usd_per_byte, usd[i], TIGHT, "USD/B");
    }
}

/* The lecture at 1:48:58: recomputing one token of DeepSeek-V3 on $2/h chips, per byte of its
 * cache (E_REMAT_DSV3_1_TOKEN_USD_PER_B: §5.5 (Cache hits and memory tiers)). */
static void recomputing_one_token_of_deepseek_v3(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    assert_close(context_remat_usd_per_byte(&d, 1, 2.0), E_REMAT_DSV3_1_TOKEN_USD_PER_B, TIGHT,
                 "USD/B");
}

/* Recomputing a 131,072-token context of DeepSeek-V3, attention included
 * (E_REMAT_DSV3_131072_TOKENS_USD_PER_B: §5.5 (Cache hits and memory tiers)). */
static void recomputing_a_128k_context_of_deepseek_v3(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    assert_close(context_remat_usd_per_byte(&d, 131072, 2.0),
                 E_REMAT_DSV3_131072_TOKENS_USD_PER_B, TIGHT, "USD/B");
}

/* The lecture at 1:48:58: held 10 s, HBM is cheaper than recomputing one token; held a minute, it
 * is not (E_TIER_HBM_10S_USD_PER_B, E_REMAT_DSV3_1_TOKEN_USD_PER_B). */
static void recomputing_beats_hbm_for_long_holds(void **state)
{
    (void)state;
    const cost_tier *only_hbm[] = {&HBM};
    double remat = E_REMAT_DSV3_1_TOKEN_USD_PER_B;
    context_tier_choice held = context_cheapest_tier(only_hbm, 1, 10, remat);
    assert_false(held.remat);
    assert_close(held.usd_per_byte, E_TIER_HBM_10S_USD_PER_B, TIGHT, "USD/B");
    context_tier_choice redone = context_cheapest_tier(only_hbm, 1, 60, remat);
    assert_true(redone.remat);
    assert_int_equal(redone.tier, 0);
    assert_close(redone.usd_per_byte, remat, TIGHT, "USD/B");
}

/* The contract's ties: of two tiers that cost the same the earlier wins, and
 * recomputing wins when it costs exactly what the cheapest tier does (the second toy
 * device held its drain time, E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B, exact in a double). */
static void ties_go_to_the_earlier_tier_and_to_recomputing(void **state)
{
    (void)state;
    cost_tier a = {"a", "a", 64, 16, 7200, "", ""};
    cost_tier b = {"b", "b", 64, 16, 7200, "", ""};
    const cost_tier *twins[] = {&a, &b};
    context_tier_choice c = context_cheapest_tier(twins, 2, 4, INFINITY);
    assert_false(c.remat);
    assert_int_equal(c.tier, 0);
    assert_true(context_cheapest_tier(twins, 2, 4, E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B).remat);
    assert_false(
        context_cheapest_tier(twins, 2, 4, E_TIER_SMALL_TOY_HOLD_4S_USD_PER_B * 1.000001).remat);
    /* recomputing below the cheaper, later tier: tier is 0, as the contract says,
     * not the index of the tier it beat (`half`, a at half its price) */
    cost_tier half = {"half", "half", 64, 16, 3600, "", ""};
    const cost_tier *pair[] = {&a, &half};
    context_tier_choice r = context_cheapest_tier(pair, 2, 4, 0.01);
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

/* The contract allows a context of zero: nothing is held, nothing read. At exactly
 * the window a local layer holds the whole context, as a global one does. */
static void an_empty_context_holds_and_reads_nothing(void **state)
{
    (void)state;
    assert_close(context_window_kv_bytes(2, 6, 1024, 100, 0), 0, TIGHT, "B");
    assert_close(context_sparse_read_bytes(100, 10, 2048, 0), 0, TIGHT, "B");
    assert_close(context_window_kv_bytes(2, 6, 1024, 100, 1024), 8 * 1024 * 100.0, TIGHT, "B");
}

/* ---- 5.9 attention_parity -------------------------------------------------- */

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

/* The square-root what-if: at 4 times the kink a step reads 2 kinks' worth; at or
 * below the kink, the whole context. */
static void past_the_kink_reads_grow_as_the_square_root(void **state)
{
    (void)state;
    assert_close(context_sqrt_read_tokens(400e3, 100e3), 200e3, TIGHT, "tokens");
    assert_close(context_sqrt_read_tokens(1e8, 1e6), 1e7, TIGHT, "tokens");
    assert_close(context_sqrt_read_tokens(50e3, 100e3), 50e3, TIGHT, "tokens");
}

/* ---- 5.7 draft_length ------------------------------------------------------ */

/* A toy decode whose numbers are exact: one sequence, 0.5 active parameters (1 s of
 * arithmetic per token at 1 FLOP/s) and 5 bytes of weights read at 1 B/s (5 s); no
 * context. */
static context_deploy five_second_decode(void)
{
    return toy(5, 0.5, 1, 0, 1, 1);
}

/* Free drafts, each guess accepted with chance 0.8, on the toy: the best draft and what it
 * gains (E_DRAFT_FREE_A08_*: Leviathan et al. 2023, eq. 1, and §5.4 (Output against input
 * price)). */
static void free_drafts_at_accept_0_8(void **state)
{
    (void)state;
    context_deploy d = five_second_decode();
    context_draft_plan p = context_best_draft(&d, 1, 0, 0.8, 0, 16);
    assert_int_equal(p.draft_tokens, E_DRAFT_FREE_A08_Q);
    assert_close(p.tokens_per_step, E_DRAFT_FREE_A08_TOKENS, TIGHT, "tokens");
    assert_close(p.s_per_token, E_DRAFT_FREE_A08_S_PER_TOKEN, TIGHT, "s");
    assert_close(p.speedup, E_DRAFT_FREE_A08_SPEEDUP, TIGHT, "x");
}

/* Drafts at 0.1 of a plain step each, accept 0.8, on a toy with 20 bytes of weights:
 * the best draft, shorter than the one free drafts would allow on the same toy
 * (E_DRAFT_COSTLY_A08_*: eq. 1 and §5.4 (Output against input price)). */
static void drafting_cost_shortens_the_best_draft(void **state)
{
    (void)state;
    context_deploy d = toy(20, 0.5, 1, 0, 1, 1);
    context_draft_plan p = context_best_draft(&d, 1, 0, 0.8, 0.1, 16);
    assert_int_equal(p.draft_tokens, E_DRAFT_COSTLY_A08_Q);
    assert_close(p.s_per_token, E_DRAFT_COSTLY_A08_S_PER_TOKEN, TIGHT, "s");
    assert_close(p.speedup, E_DRAFT_COSTLY_A08_SPEEDUP, TIGHT, "x");
}

/* The tie rule: with every guess accepted (a = 1) several q are equally fast, and the
 * smallest wins (E_DRAFT_ALL_ACCEPTED_*); with none accepted (a = 0) q = 0 wins, plain
 * decode: one token a step at the toy's 5 s step. */
static void ties_go_to_the_shorter_draft(void **state)
{
    (void)state;
    context_deploy d = five_second_decode();
    context_draft_plan all = context_best_draft(&d, 1, 0, 1, 0, 12);
    assert_int_equal(all.draft_tokens, E_DRAFT_ALL_ACCEPTED_Q);
    assert_close(all.s_per_token, E_DRAFT_ALL_ACCEPTED_S_PER_TOKEN, TIGHT, "s");
    assert_close(all.speedup, E_DRAFT_ALL_ACCEPTED_SPEEDUP, TIGHT, "x");
    context_draft_plan none = context_best_draft(&d, 1, 0, 0, 0, 12);
    assert_int_equal(none.draft_tokens, 0);
    assert_close(none.tokens_per_step, 1, TIGHT, "tokens");
    assert_close(none.s_per_token, 5, TIGHT, "s");
    assert_close(none.speedup, 1, TIGHT, "x");
}

/* When decode is already compute-bound (0.5 s of weights under 1 s of arithmetic)
 * no draft helps: plain decode is best, at its 1 s step. max_draft = 0 allows
 * nothing else. */
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

/* ---- 5.12 cache_schedule --------------------------------------------------- */

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

/* One request has nothing to reuse: it is sent uncached (E_SCHEDULE_ONE_REQUEST_USD). */
static void a_single_request_is_sent_uncached(void **state)
{
    (void)state;
    double t[] = {0};
    context_cache_action a[1];
    assert_close(schedule(api("claude-opus-4.6"), t, 1, a), E_SCHEDULE_ONE_REQUEST_USD, TIGHT,
                 "USD");
    assert_int_equal(a[0], CONTEXT_SEND_UNCACHED);
}

/* Three requests 4 minutes apart, Claude Opus 4.6 (E_SCHEDULE_4_MIN_APART_USD: §5.8 (A
 * conversation's cache bill)). */
static void requests_four_minutes_apart(void **state)
{
    (void)state;
    double t[] = {0, 240, 480};
    context_cache_action a[3];
    context_cache_action want[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), t, 3, a), E_SCHEDULE_4_MIN_APART_USD, TIGHT,
                 "USD");
    assert_actions(a, want, 3);
}

/* Three requests half an hour apart, and two (E_SCHEDULE_HALF_HOUR_*: §5.8 (A conversation's
 * cache bill)). */
static void requests_half_an_hour_apart(void **state)
{
    (void)state;
    double t3[] = {0, 1800, 3600};
    context_cache_action a[3];
    context_cache_action want[] = {CONTEXT_WRITE_1H, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), t3, 3, a), E_SCHEDULE_HALF_HOUR_3_USD, TIGHT,
                 "USD");
    assert_actions(a, want, 3);
    double t2[] = {0, 1800};
    context_cache_action b[2];
    context_cache_action none[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(api("claude-opus-4.6"), t2, 2, b), E_SCHEDULE_HALF_HOUR_2_USD, TIGHT,
                 "USD");
    assert_actions(b, none, 2);
}

/* The contract's boundary: an entry exactly 300 s old is still live; half a second
 * later it is gone (E_SCHEDULE_300S_APART_USD, E_SCHEDULE_300_5S_APART_USD). */
static void an_entry_exactly_its_life_old_is_live(void **state)
{
    (void)state;
    double live[] = {0, 300};
    context_cache_action a[2];
    context_cache_action hit[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), live, 2, a), E_SCHEDULE_300S_APART_USD, TIGHT,
                 "USD");
    assert_actions(a, hit, 2);
    double gone[] = {0, 300.5};
    context_cache_action none[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(api("claude-opus-4.6"), gone, 2, a), E_SCHEDULE_300_5S_APART_USD,
                 TIGHT, "USD");
    assert_actions(a, none, 2);
}

/* The contract: a hit restarts the entry's life. Requests every 4 minutes for 12
 * minutes (E_SCHEDULE_EVERY_4_MIN_FOR_12_USD). */
static void a_hit_restarts_the_entry_life(void **state)
{
    (void)state;
    double t[] = {0, 240, 480, 720};
    context_cache_action a[4];
    context_cache_action want[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE,
                                   CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), t, 4, a), E_SCHEDULE_EVERY_4_MIN_FOR_12_USD,
                 TIGHT, "USD");
    assert_actions(a, want, 4);
}

/* A pair a minute apart, a pause of 2,000 s, another pair
 * (E_SCHEDULE_PAIR_PAUSE_PAIR_USD: §5.8 (A conversation's cache bill)). */
static void a_pair_a_pause_and_a_pair(void **state)
{
    (void)state;
    double t[] = {0, 60, 2000, 2060};
    context_cache_action a[4];
    context_cache_action want[] = {CONTEXT_WRITE_1H, CONTEXT_READ_CACHE, CONTEXT_READ_CACHE,
                                   CONTEXT_READ_CACHE};
    assert_close(schedule(api("claude-opus-4.6"), t, 4, a), E_SCHEDULE_PAIR_PAUSE_PAIR_USD,
                 TIGHT, "USD");
    assert_actions(a, want, 4);
}

/* The tie rule: on a list of $0.90 input, $1.40 5-minute write and $0.40 hit, two
 * requests 100 s apart cost $1.80 uncached and $1.80 written then read (in doubles the
 * two sums differ in the last bit): uncached comes first in the order, and wins
 * (E_SCHEDULE_TIE_USD). */
static void ties_go_to_the_earlier_action(void **state)
{
    (void)state;
    cost_api_price p = {.name = "tie", .base = {0.9, 1, 0.4}, .cache_write_5m_usd_per_mtok = 1.4};
    double t[] = {0, 100};
    context_cache_action a[2];
    context_cache_action want[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(&p, t, 2, a), E_SCHEDULE_TIE_USD, TIGHT, "USD");
    assert_actions(a, want, 2);
}

/* The tie rule's tolerance is relative to the least total. With the write $1.8e-10
 * cheaper, written then read is within 1e-9 of the least: uncached still comes first.
 * With it $1.8e-8 cheaper (a relative 1e-8, past the tolerance) the write and the hit
 * are the one cheapest schedule (E_SCHEDULE_PAST_TIE_USD). */
static void the_tie_tolerance_is_relative_to_the_least_total(void **state)
{
    (void)state;
    double t[] = {0, 100};
    context_cache_action a[2];
    cost_api_price near = {.name = "near", .base = {0.9, 1, 0.4},
                           .cache_write_5m_usd_per_mtok = 1.4 - 1.8e-10};
    context_cache_action uncached[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED};
    assert_close(schedule(&near, t, 2, a), E_SCHEDULE_TIE_USD, TIGHT, "USD");
    assert_actions(a, uncached, 2);
    cost_api_price past = {.name = "past", .base = {0.9, 1, 0.4},
                           .cache_write_5m_usd_per_mtok = 1.4 - 1.8e-8};
    context_cache_action cached[] = {CONTEXT_WRITE_5M, CONTEXT_READ_CACHE};
    assert_close(schedule(&past, t, 2, a), E_SCHEDULE_PAST_TIE_USD, TIGHT, "USD");
    assert_actions(a, cached, 2);
}

/* A list without write prices (GPT-5) cannot write: every request uncached
 * (E_SCHEDULE_GPT5_3_USD). */
static void a_list_without_writes_sends_everything_uncached(void **state)
{
    (void)state;
    double t[] = {0, 10, 20};
    context_cache_action a[3];
    context_cache_action want[] = {CONTEXT_SEND_UNCACHED, CONTEXT_SEND_UNCACHED,
                                   CONTEXT_SEND_UNCACHED};
    assert_close(schedule(api("gpt-5"), t, 3, a), E_SCHEDULE_GPT5_3_USD, TIGHT, "USD");
    assert_actions(a, want, 3);
}

/* ---- 5.10 longest_context -------------------------------------------------- */

/* A toy whose numbers are exact in binary: one chip of 1,000 bytes of HBM, 1 FLOP/s and
 * 100 B/s, rented at 3,600 USD an hour (1 USD a second); 100 bytes of weights (100
 * parameters at 1 byte), 0.5 active parameters, 1 byte of cache per token of context,
 * no attention arithmetic. Its times are those of §5.1 (The roofline against
 * context); the expected answers (E_REACH_TOY_*) are derived in the instructor's
 * copy. */
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

/* With speed and price free, HBM alone limits the context; it holds the weights as
 * well as the caches, and a limit met exactly is met (E_REACH_TOY_HBM_ONLY_*). */
static void a_full_hbm_ends_the_context_weights_included(void **state)
{
    (void)state;
    context_deploy d = reach_toy();
    context_reach r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, NO_LIMIT,
                                              NO_LIMIT, 1e6);
    assert_reach(r, E_REACH_TOY_HBM_ONLY_TOKENS, E_REACH_TOY_HBM_ONLY_BATCH,
                 E_REACH_TOY_HBM_ONLY_STEP_S, E_REACH_TOY_HBM_ONLY_USD_PER_MTOK);
}

/* A price of at most 2e6 USD per million tokens, the step free
 * (E_REACH_TOY_PRICE_*). */
static void a_price_limit_alone(void **state)
{
    (void)state;
    context_deploy d = reach_toy();
    context_reach r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, NO_LIMIT,
                                              2e6, 1e6);
    assert_reach(r, E_REACH_TOY_PRICE_TOKENS, E_REACH_TOY_PRICE_BATCH,
                 E_REACH_TOY_PRICE_STEP_S, E_REACH_TOY_PRICE_USD_PER_MTOK);
}

/* A step of at most 4 s, the contract's time between two tokens of one sequence, the
 * price free (E_REACH_TOY_STEP_*). */
static void a_step_limit_bounds_the_whole_step(void **state)
{
    (void)state;
    context_deploy d = reach_toy();
    context_reach r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, 4, NO_LIMIT,
                                              1e6);
    assert_reach(r, E_REACH_TOY_STEP_TOKENS, E_REACH_TOY_STEP_BATCH, E_REACH_TOY_STEP_STEP_S,
                 E_REACH_TOY_STEP_USD_PER_MTOK);
}

/* The contract's tie: at the model's window of 20 tokens, and of 50, several batches
 * cost the same least amount, and the smallest is the answer
 * (E_REACH_TOY_WINDOW_20_*, E_REACH_TOY_WINDOW_50_*). */
static void equally_cheap_batches_go_to_the_smallest(void **state)
{
    (void)state;
    context_deploy d = reach_toy();
    context_reach r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, NO_LIMIT,
                                              NO_LIMIT, 20);
    assert_reach(r, E_REACH_TOY_WINDOW_20_TOKENS, E_REACH_TOY_WINDOW_20_BATCH,
                 E_REACH_TOY_WINDOW_20_STEP_S, E_REACH_TOY_WINDOW_20_USD_PER_MTOK);
    r = context_longest_context(&d, TOY_HBM, TOY_USD_PER_HOUR, NO_LIMIT, NO_LIMIT, 50);
    assert_reach(r, E_REACH_TOY_WINDOW_50_TOKENS, E_REACH_TOY_WINDOW_50_BATCH,
                 E_REACH_TOY_WINDOW_50_STEP_S, E_REACH_TOY_WINDOW_50_USD_PER_MTOK);
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

/* No answer when not even one token of context is served: 100 bytes of HBM hold the
 * toy's weights and nothing else; a 0.5 s step target is under the toy's shortest
 * step; a price under a token's 1 s of arithmetic (999,999 USD/Mtok). 101 bytes of HBM
 * serve one token (E_REACH_TOY_HBM_101_*). */
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
                 E_REACH_TOY_HBM_101_TOKENS, E_REACH_TOY_HBM_101_BATCH,
                 E_REACH_TOY_HBM_101_STEP_S, E_REACH_TOY_HBM_101_USD_PER_MTOK);
    for (int i = 0; i < 3; i++) {
        assert_false(none[i].exists);
        assert_true(none[i].context_tokens == 0 && none[i].batch == 0 &&
                    none[i].step_s == 0 && none[i].usd_per_mtok == 0);
    }
}

/* DeepSeek-V3 on a GB200 NVL72 (fp4, fp8 MLA cache, attention counted) at 2 USD a chip-hour
 * (chapter 1's rent, our assumption), its 131,072-token window (128K, the DeepSeek-V3 README),
 * steps of at most 50 ms and DeepSeek's own output price (lib/price.c, early 2025): the window
 * is sold whole (E_REACH_DSV3_*: §5.6 (Why context stopped near 200k)). */
static void deepseek_v3_on_an_nvl72_at_deepseeks_price(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    double L = 131072, price = api("deepseek-v3")->base.output_usd_per_mtok;
    context_reach r = context_longest_context(&d, 186e9, 2, 0.05, price, L);
    assert_reach(r, L, E_REACH_DSV3_BATCH, E_REACH_DSV3_STEP_S, E_REACH_DSV3_USD_PER_MTOK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(context_roofline, without_attention_compute_per_token_is_flat),
        CHALK_TEST(context_roofline, attention_adds_its_flops_per_context_token),
        CHALK_TEST(context_roofline, memory_per_token_rises_linearly_with_context),
        CHALK_TEST(context_roofline, short_context_is_compute_bound_long_context_memory_bound),
        CHALK_TEST(context_roofline, a_tie_is_compute_bound),
        CHALK_TEST(context_kink, deepseek_v3_kink_at_a_batch_of_20000),
        CHALK_TEST(context_kink, without_attention_the_kink_comes_earlier),
        CHALK_TEST(context_kink, kink_at_an_unbounded_batch),
        CHALK_TEST(context_kink, no_kink_at_a_small_batch),
        CHALK_TEST(context_kink, weights_exactly_balancing_compute_give_no_kink),
        CHALK_TEST(context_kink, compute_bound_at_every_context_gives_no_kink),
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
        CHALK_TEST(pass_length, memory_and_compute_per_token_against_the_pass_length),
        CHALK_TEST(pass_length, a_one_token_pass_is_a_decode_step),
        CHALK_TEST(pass_length, attention_shortens_the_balanced_pass),
        CHALK_TEST(pass_length, a_price_ratio_read_as_a_cost_ratio),
        CHALK_TEST(attention_parity, conventional_layout_reaches_parity_near_100k),
        CHALK_TEST(attention_parity, aggressive_layout_reaches_parity_in_the_millions),
        CHALK_TEST(attention_parity, deepseek_mla_reaches_parity_at_a_few_thousand_tokens),
        CHALK_TEST(attention_parity, past_the_kink_reads_grow_as_the_square_root),
        CHALK_TEST(cache_tiers, drain_times_of_four_devices),
        CHALK_TEST(cache_tiers, toy_devices_held_below_at_and_above_their_drain_times),
        CHALK_TEST(cache_tiers, the_cheapest_of_four_tiers_across_holds),
        CHALK_TEST(cache_tiers, recomputing_one_token_of_deepseek_v3),
        CHALK_TEST(cache_tiers, recomputing_a_128k_context_of_deepseek_v3),
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
        CHALK_TEST(draft_length, free_drafts_at_accept_0_8),
        CHALK_TEST(draft_length, drafting_cost_shortens_the_best_draft),
        CHALK_TEST(draft_length, ties_go_to_the_shorter_draft),
        CHALK_TEST(draft_length, a_compute_bound_decode_gains_nothing_from_drafts),
        CHALK_TEST(cache_schedule, a_single_request_is_sent_uncached),
        CHALK_TEST(cache_schedule, requests_four_minutes_apart),
        CHALK_TEST(cache_schedule, requests_half_an_hour_apart),
        CHALK_TEST(cache_schedule, an_entry_exactly_its_life_old_is_live),
        CHALK_TEST(cache_schedule, a_hit_restarts_the_entry_life),
        CHALK_TEST(cache_schedule, a_pair_a_pause_and_a_pair),
        CHALK_TEST(cache_schedule, ties_go_to_the_earlier_action),
        CHALK_TEST(cache_schedule, the_tie_tolerance_is_relative_to_the_least_total),
        CHALK_TEST(cache_schedule, a_list_without_writes_sends_everything_uncached),
        CHALK_TEST(windows_sparse, the_index_is_index_dim_numbers_per_layer),
        CHALK_TEST(longest_context, a_full_hbm_ends_the_context_weights_included),
        CHALK_TEST(longest_context, a_price_limit_alone),
        CHALK_TEST(longest_context, a_step_limit_bounds_the_whole_step),
        CHALK_TEST(longest_context, equally_cheap_batches_go_to_the_smallest),
        CHALK_TEST(longest_context, an_hbm_full_to_the_last_bit_of_a_double_still_fits),
        CHALK_TEST(longest_context, nothing_served_gives_no_answer),
        CHALK_TEST(longest_context, deepseek_v3_on_an_nvl72_at_deepseeks_price),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
