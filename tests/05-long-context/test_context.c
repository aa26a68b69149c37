/*
 * test_context.c -- Chapter 5 tests, first file: the roofline against context and a
 * token's cache (context_roofline, context_kink, kv_from_price, kv_shape,
 * windows_sparse: §5.1 (The roofline against context) to §5.3 (Is 833 bytes a
 * plausible cache?)), the fixtures every file shares, and main(), which runs the parts
 * of all three files in the exercise list's order. The other two, linked into the
 * same binary (tests/test_util.h's registry): test_context_pass.c, passes, drafts,
 * attention and the longest context (§5.4 (Output against input price), §5.6 (Why
 * context stopped near 200k)); test_context_cache.c, cache tiers, bills and
 * schedules (§5.5 (Cache hits and memory tiers), §5.7 (Price lists as data), §5.8 (A
 * conversation's cache bill)).
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
 */
#include "../test_util.h"

#include "context.h"
#include "expected.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* The fixtures every file of these tests shares, defined in test_context.c. */
#include "fixtures.h"

/* DeepSeek-V3 in fp4 on a GB200 NVL72, its MLA cache in fp8, attention counted. */
context_deploy deepseek_on_nvl72(void)
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
context_deploy deepseek_without_attention(void)
{
    context_deploy d = deepseek_on_nvl72();
    d.attn_flops_per_context_token = 0;
    return d;
}

/* A toy chip whose numbers are exact in binary: one chip, F FLOP/s, W B/s. */
context_deploy toy_deploy(double params_total, double params_active, double kv, double attn,
                          double flops_per_s, double bytes_per_s)
{
    context_deploy d = {
        .params_total = params_total, .params_active = params_active, .bytes_per_param = 1,
        .kv_bytes_per_token = kv, .attn_flops_per_context_token = attn, .chips = 1,
        .flops_per_s = flops_per_s, .hbm_bytes_per_s = bytes_per_s,
    };
    return d;
}

/* A price list of lib/price.c by name. */
const cost_api_price *api_prices(const char *name)
{
    const cost_api_price *p = cost_api_find(name);
    assert_non_null(p);
    return p;
}

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

/* The lecture at 1:32:56: without attention's arithmetic, a token's compute term of §5.1 (The
 * roofline against context) is its weights' arithmetic alone, flat in context: the same at 0
 * and at a million tokens. */
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

/* The cost per token of §1.4 (Cost against batch): a token that takes 10 ms of 72 chips
 * rented at $2 a chip-hour costs $400 per million tokens. */
static void cost_per_million_tokens_is_the_rent_of_a_tokens_time(void **state)
{
    (void)state;
    assert_close(context_usd_per_mtok(72, 2.0, 0.01), 72 * 2.0 * 0.01 / 3600 * 1e6, TIGHT,
                 "USD/Mtok");
    assert_close(context_usd_per_mtok(72, 2.0, 0.01), 400.0, TIGHT, "USD/Mtok");
}

/* Attention adds f_attn FLOPs per token of context to the compute term of §5.1 (The
 * roofline against context): at 32,768 tokens DeepSeek-V3's token (f_attn of the
 * published inputs above) does 8.5 times its weight arithmetic alone. */
static void attention_adds_its_flops_per_context_token(void **state)
{
    (void)state;
    context_deploy d = deepseek_on_nvl72();
    double c = (2 * 37e9 + 32768 * DSV3_ATTN_FLOPS) / (72 * 10e15);
    assert_close(context_time_per_token(&d, 16384, 32768).compute_s, c, TIGHT, "s");
    assert_close(context_time_per_token(&d, 16384, 0).compute_s, 2 * 37e9 / (72 * 10e15),
                 TIGHT, "s");
}

/* The lecture at 1:32:56: a token's memory term of §5.1 (The roofline against context) is
 * the batch's share of the weights plus its own context's KV, so it rises linearly with
 * the context (DeepSeek-V3's 35,136 bytes a token). */
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
    context_deploy d = toy_deploy(1, 1, 1, 0, 2, 1);
    context_token_time t = context_time_per_token(&d, 1, 0);
    assert_close(t.compute_s, 1, TIGHT, "s");
    assert_close(t.memory_s, 1, TIGHT, "s");
    assert_roof(t.bound, COST_BOUND_COMPUTE);
}

/* ---- 5.2 context_kink ------------------------------------------------------ */

/* DeepSeek-V3 on the NVL72 at a batch of 20,000: the kink, attention's arithmetic counted
 * (E_KINK_DSV3_B20000_TOKENS: §5.1 (The roofline against context); deriving it is the
 * exercise, so the handout has no derivation). */
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
    context_deploy d = toy_deploy(2, 1, 1, 0, 1, 1);
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
    context_deploy equal = toy_deploy(1, 1, 1, 1, 1, 1);
    context_kink none = context_kink_tokens(&equal, INFINITY);
    assert_false(none.exists);
    assert_close(none.tokens, 0, TIGHT, "tokens");
    context_deploy half = toy_deploy(1, 1, 1, 0.5, 1, 1);
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

CHALK_PART(context_basics) = {
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
};
CHALK_PART_END(context_basics);

CHALK_PART(context_index) = {
    CHALK_TEST(windows_sparse, the_index_is_index_dim_numbers_per_layer),
};
CHALK_PART_END(context_index);

/* The parts of the three files, run in the order the tests have always run in (the order
 * make check lists them in): the windows_sparse index test keeps its place after the
 * cache schedules, so it is a part of its own. */
CHALK_PART_DECLARE(context_passes);
CHALK_PART_DECLARE(context_tiers_and_bills);
CHALK_PART_DECLARE(context_drafts);
CHALK_PART_DECLARE(context_schedules);
CHALK_PART_DECLARE(context_reach);
CHALK_PART_DECLARE(context_windows);

int main(void)
{
    return chalk_run_parts("05-long-context", CHALK_PART_REF(context_basics),
                           CHALK_PART_REF(context_passes), CHALK_PART_REF(context_tiers_and_bills),
                           CHALK_PART_REF(context_drafts), CHALK_PART_REF(context_schedules),
                           CHALK_PART_REF(context_index), CHALK_PART_REF(context_reach),
                           CHALK_PART_REF(context_windows));
}
