/*
 * test_context_pass.c -- Chapter 5 tests, second file: passes of many tokens and what
 * they say about prices (pass_length) and how far ahead to draft (draft_length), both
 * §5.4 (Output against input price); attention's arithmetic against the weights'
 * (attention_parity) and the longest context a deployment sells (longest_context),
 * both §5.6 (Why context stopped near 200k). main() and the shared fixtures are in
 * test_context.c, whose header names the published inputs; the same rules hold here:
 * each test states one fact, its source named above it.
 */
#include "../test_util.h"

#include "context.h"
#include "expected.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* The fixtures every file of these tests shares, defined in test_context.c. */
#include "fixtures.h"

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

/* The lecture at 1:41:33: a pass's memory time per new token at passes of 1, 4, 16 and 64 new
 * tokens, and its compute time per new token, the same at every length
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

/* The lecture at 1:41:33 on output prices: what output at 5x input says, and Gemini's 6x; the contract's rules: a ratio below 1 has no reading, 1 exactly has one
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
    return toy_deploy(5, 0.5, 1, 0, 1, 1);
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
    context_deploy d = toy_deploy(20, 0.5, 1, 0, 1, 1);
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

/* A batch of 4 sequences, each 10 tokens into its context, on a toy with 20 bytes of
 * weights, 1 byte of cache and 0.1 FLOP of attention per token of context, 0.5 active
 * parameters, 1 FLOP/s and 1 B/s; free drafts, each guess accepted with chance 0.8: the
 * best draft, what a sequence keeps a step, the time between its tokens and the gain
 * (E_DRAFT_BATCH4_L10_A08_*: Leviathan et al. 2023, eq. 1, and §5.4 (Output against
 * input price)). */
static void a_batch_deep_in_its_context_drafts_further(void **state)
{
    (void)state;
    context_deploy d = toy_deploy(20, 0.5, 1, 0.1, 1, 1);
    context_draft_plan p = context_best_draft(&d, 4, 10, 0.8, 0, 16);
    assert_int_equal(p.draft_tokens, E_DRAFT_BATCH4_L10_A08_Q);
    assert_close(p.tokens_per_step, E_DRAFT_BATCH4_L10_A08_TOKENS, TIGHT, "tokens");
    assert_close(p.s_per_token, E_DRAFT_BATCH4_L10_A08_S_PER_TOKEN, TIGHT, "s");
    assert_close(p.speedup, E_DRAFT_BATCH4_L10_A08_SPEEDUP, TIGHT, "x");
}

/* When decode is already compute-bound (0.5 s of weights under 1 s of arithmetic)
 * no draft helps: plain decode is best, at its 1 s step. max_draft = 0 allows
 * nothing else. */
static void a_compute_bound_decode_gains_nothing_from_drafts(void **state)
{
    (void)state;
    context_deploy d = toy_deploy(0.5, 0.5, 1, 0, 1, 1);
    context_draft_plan p = context_best_draft(&d, 1, 0, 0.9, 0, 8);
    assert_int_equal(p.draft_tokens, 0);
    assert_close(p.s_per_token, 1, TIGHT, "s");
    context_deploy slow = five_second_decode();
    assert_int_equal(context_best_draft(&slow, 1, 0, 0.8, 0, 0).draft_tokens, 0);
}

/* ---- 5.10 longest_context -------------------------------------------------- */

/* A toy whose numbers are exact in binary: one chip of 1,000 bytes of HBM, 1 FLOP/s and
 * 100 B/s, rented at 3,600 USD an hour (1 USD a second); 100 bytes of weights (100
 * parameters at 1 byte), 0.5 active parameters, 1 byte of cache per token of context,
 * no attention arithmetic. Its times are those of §5.1 (The roofline against
 * context); the expected answers are E_REACH_TOY_* (deriving them is the exercise, so
 * the handout has no derivation). */
static context_deploy reach_toy(void)
{
    return toy_deploy(100, 0.5, 1, 0, 1, 100);
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
    context_deploy d = toy_deploy(0.1, 0.05, 0.01, 0, 1, 10);
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
    double L = 131072, price = api_prices("deepseek-v3")->base.output_usd_per_mtok;
    context_reach r = context_longest_context(&d, 186e9, 2, 0.05, price, L);
    assert_reach(r, L, E_REACH_DSV3_BATCH, E_REACH_DSV3_STEP_S, E_REACH_DSV3_USD_PER_MTOK);
}

CHALK_PART(context_passes) = {
    CHALK_TEST(pass_length, decode_pays_memory_prefill_pays_compute),
    CHALK_TEST(pass_length, memory_and_compute_per_token_against_the_pass_length),
    CHALK_TEST(pass_length, a_one_token_pass_is_a_decode_step),
    CHALK_TEST(pass_length, attention_shortens_the_balanced_pass),
    CHALK_TEST(pass_length, a_price_ratio_read_as_a_cost_ratio),
    CHALK_TEST(attention_parity, conventional_layout_reaches_parity_near_100k),
    CHALK_TEST(attention_parity, aggressive_layout_reaches_parity_in_the_millions),
    CHALK_TEST(attention_parity, deepseek_mla_reaches_parity_at_a_few_thousand_tokens),
    CHALK_TEST(attention_parity, past_the_kink_reads_grow_as_the_square_root),
};
CHALK_PART_END(context_passes);

CHALK_PART(context_drafts) = {
    CHALK_TEST(draft_length, free_drafts_at_accept_0_8),
    CHALK_TEST(draft_length, drafting_cost_shortens_the_best_draft),
    CHALK_TEST(draft_length, ties_go_to_the_shorter_draft),
    CHALK_TEST(draft_length, a_compute_bound_decode_gains_nothing_from_drafts),
    CHALK_TEST(draft_length, a_batch_deep_in_its_context_drafts_further),
};
CHALK_PART_END(context_drafts);

CHALK_PART(context_reach) = {
    CHALK_TEST(longest_context, a_full_hbm_ends_the_context_weights_included),
    CHALK_TEST(longest_context, a_price_limit_alone),
    CHALK_TEST(longest_context, a_step_limit_bounds_the_whole_step),
    CHALK_TEST(longest_context, equally_cheap_batches_go_to_the_smallest),
    CHALK_TEST(longest_context, an_hbm_full_to_the_last_bit_of_a_double_still_fits),
    CHALK_TEST(longest_context, nothing_served_gives_no_answer),
    CHALK_TEST(longest_context, deepseek_v3_on_an_nvl72_at_deepseeks_price),
};
CHALK_PART_END(context_reach);
