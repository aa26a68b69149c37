/*
 * test_batching_serving.c -- Chapter 1 tests, second part: serving a model (exercises
 * 1.7 to 1.11): the train schedule of a full server and the caps HBM and a step target
 * put on the batch (§1.6 (Train departures)), fast mode (§1.9 (Fast mode)), the
 * cheapest deployment for a latency target (§1.10 (The cheapest deployment for a
 * latency target)) and how far sparsity can go (§1.8 (How far can sparsity go?)).
 * test_batching.c holds the first part, the fixtures both use (declared below) and
 * main(), which runs this part after its own.
 *
 * Each test states one fact; the comment above it names where the expected value
 * comes from: closed forms with published inputs, never copied from output; where
 * deriving the formula is the exercise (two and three stars), an E_ name of
 * expected.h, derived in the instructor's copy with its source named there.
 *
 * Published inputs, beyond the fixtures' (test_batching.c's header lists those):
 *   Rubin         288e9 B HBM at 20e12 B/s, the lecture's round figures
 *   H100 SXM      80e9 B at 3.35e12 B/s; B200 192e9 B at 8e12 B/s (the scaling
 *                 book's figures of the datasheets)
 *   Llama 3.1 405B  405e9 parameters (Meta's model card)
 *   A100 SXM      312e12 bf16 FLOP/s, 2.039e12 B/s, 80e9 B (NVIDIA A100 datasheet)
 *   Prices        H100 $4.25, A100 $2.21 per GPU-hour (CoreWeave, 2024-02-07, as in
 *                 lib/hw.c)
 */
#include "../test_util.h"

#include "batching.h"
#include "expected.h"

#include <limits.h>

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* The fixtures of test_batching.c (fixtures.h says which). */
#include "fixtures.h"

/* ---- 1.7 train_departures -------------------------------------------------- */

/* The lecture at 21:58: Rubin's 288 GB at 20 TB/s drain in 14.4 ms (the lecture says
 * "about 15"); §1.6 (Train departures). */
static void rubin_drain_time_is_14_4_ms(void **state)
{
    (void)state;
    assert_close(batching_train_departures(288e9, 20e12).step_s, 14.4e-3, TIGHT, "s");
}

/* Scaling-book specs: H100's 80 GB at 3.35 TB/s drain in 23.9 ms; B200's 192 GB at
 * 8 TB/s in 24 ms. */
static void hopper_and_blackwell_drain_in_about_24_ms(void **state)
{
    (void)state;
    assert_close(batching_train_departures(80e9, 3.35e12).step_s, 23.88e-3, 0.001, "s");
    assert_close(batching_train_departures(192e9, 8e12).step_s, 24e-3, TIGHT, "s");
}

/* The lecture at 21:58: with 20 ms trains, the worst case is 40 ms: wait one, ride one. */
static void worst_case_latency_is_two_steps(void **state)
{
    (void)state;
    batching_departures t = batching_train_departures(160e9, 8e12); /* 20 ms */
    assert_close(t.worst_wait_s, 20e-3, TIGHT, "s");
    assert_close(t.worst_latency_s, 40e-3, TIGHT, "s");
}

/* §1.6 (Train departures): the mean wait and latency of arrivals uniform in time,
 * 10 ms and 30 ms with 20 ms trains. */
static void mean_latency_is_one_and_a_half_steps(void **state)
{
    (void)state;
    batching_departures t = batching_train_departures(160e9, 8e12);
    assert_close(t.mean_wait_s, 10e-3, TIGHT, "s");
    assert_close(t.mean_latency_s, 30e-3, TIGHT, "s");
}

/* ---- 1.8 batch_limits ------------------------------------------------------ */

/* §1.6 (Train departures): Llama 3 70B in bf16 on 8 x 80 GB at 8,192 tokens. */
static void hbm_capacity_of_llama_on_h100s_at_8k_context(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    batching_limit l = batching_max_batch_hbm(&d, 8192);
    assert_true(l.exists);
    assert_int_equal(l.batch, E_MAX_BATCH_HBM_LLAMA_8K);
}

/* Llama 3.1 405B in bf16 (811 GB) cannot fit on one H100, whatever the batch. */
static void no_batch_fits_when_the_weights_alone_overflow_hbm(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    d.params_total = d.params_active = 405e9;
    d.chips = 1;
    assert_false(batching_max_batch_hbm(&d, 1024).exists);
    d.chips = 16;
    assert_true(batching_max_batch_hbm(&d, 1024).exists);
}

/* §1.6 (Train departures) on an MoE: DeepSeek-V3 in fp4 on 72 x 186 GB at 8,192
 * tokens. */
static void hbm_capacity_of_an_moe_holds_every_expert(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_limit l = batching_max_batch_hbm(&d, 8192);
    assert_true(l.exists);
    assert_int_equal(l.batch, E_MAX_BATCH_HBM_DEEPSEEK_8K);
}

/* Definition: the largest B with step(B) <= target, so step(B + 1) > target. */
static void latency_target_admits_the_largest_batch_under_it(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    double target = 15e-3;
    batching_limit l = batching_max_batch_latency(&d, 4096, target);
    assert_true(l.exists);
    assert_true(batching_step_at(&d, (double)l.batch, 4096).step_s <= target);
    assert_true(batching_step_at(&d, (double)l.batch + 1, 4096).step_s > target);
    assert_int_equal(l.batch, E_MAX_BATCH_LAT_DEEPSEEK_4K_15MS);
}

/* §1.6 (Train departures): DeepSeek-V3 at a short context, 256 tokens, within 15 ms. */
static void latency_target_of_deepseek_at_short_context(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_limit l = batching_max_batch_latency(&d, 256, 15e-3);
    assert_true(l.exists);
    assert_int_equal(l.batch, E_MAX_BATCH_LAT_DEEPSEEK_256_15MS);
}

/* batching.h: "at most" the limit, so a limit met exactly by one sequence admits a
 * batch of 1. Power-of-two toy at 1,024 tokens: its HBM (4 chips of 2^32 + 2^20
 * bytes) holds its weights and exactly one sequence's cache, and a target of
 * 2^-10 + 2^-22 s is exactly the step of one sequence (all exact in binary). */
static void a_limit_met_by_exactly_one_sequence_admits_a_batch_of_1(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    batching_limit m = batching_max_batch_hbm(&d, 1024);
    assert_true(m.exists);
    assert_int_equal(m.batch, 1);
    batching_limit l = batching_max_batch_latency(&d, 1024, 0x1p-10 + 0x1p-22);
    assert_true(l.exists);
    assert_int_equal(l.batch, 1);
}

/* batching.h's rounding rule: a target of exactly one sequence's step (DeepSeek-V3 at
 * 1,024 tokens) admits that sequence, though floating point can put the real-valued
 * batch a hair below 1. */
static void a_target_of_exactly_one_sequences_step_admits_it_despite_rounding(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    double target = E_STEP_ONE_DEEPSEEK_1K;
    assert_true(batching_step_at(&d, 1, 1024).step_s <= target);
    batching_limit l = batching_max_batch_latency(&d, 1024, target);
    assert_true(l.exists);
    assert_int_equal(l.batch, 1);
}

/* batching.h: a target met exactly counts. With no KV cache, a target of exactly the
 * floor (power-of-two toy: 2^-10 s) still admits a batch. */
static void a_target_exactly_at_the_floor_admits_a_batch_when_there_is_no_cache(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    batching_limit l = batching_max_batch_latency(&d, 0, 0x1p-10);
    assert_true(l.exists);
    assert_int_equal(l.batch, E_MAX_BATCH_TOY_FLOOR_NO_CACHE);
}

/* batching.h: no answer when the weights alone fill HBM. Power-of-two toy: 4 chips of
 * 2^32 bytes hold exactly its weights; with 2^21 more bytes a chip, some caches of
 * 1,024 tokens fit (how many: expected.h). */
static void weights_that_exactly_fill_hbm_leave_room_for_no_sequence(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    d.hbm_bytes = 0x1p32 + 0x1p21;
    batching_limit two = batching_max_batch_hbm(&d, 1024);
    assert_true(two.exists);
    assert_int_equal(two.batch, E_MAX_BATCH_TOY_HBM_2_21);
    d.hbm_bytes = 0x1p32;
    batching_limit l = batching_max_batch_hbm(&d, 1024);
    assert_false(l.exists);
    assert_int_equal(l.batch, 0);
}

/* batching.h: a batch beyond what a long holds is LONG_MAX. With no KV cache and a
 * target of 1e300 s the toy admits far more sequences than a long holds. */
static void a_batch_beyond_what_a_long_holds_is_long_max(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    batching_limit l = batching_max_batch_latency(&d, 0, 1e300);
    assert_true(l.exists);
    assert_true(l.batch == LONG_MAX);
}

/* The lecture at 7:55: no batch, not even 1, steps faster than the latency floor. */
static void latency_target_below_the_floor_admits_no_batch(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_false(batching_max_batch_latency(&d, 4096, 0.5 * weights_term(&d)).exists);
    assert_true(batching_max_batch_latency(&d, 4096, 2.0 * weights_term(&d)).exists);
}

/* ---- 1.9 fast_mode --------------------------------------------------------- */

/* §1.9 (Fast mode): on an ideal roofline with no KV, fast mode from a batch far past
 * the knee (DeepSeek-V3, speedup 2.5) costs no more per token. (At that fast batch a
 * batch reads every expert: DeepSeek-V3's unread share is below 1e-70. The fast batch
 * lies on the compute line, clear of the knee, where a step that reads every weight
 * and one that leaves 1e-70 of them unread differ only in rounding.) */
static void fast_mode_on_an_ideal_roofline(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_fast f = batching_fast_mode(&d, 0, E_FAST_IDEAL_FAR_NORMAL_BATCH, 2.5);
    assert_true(f.possible);
    assert_close(f.batch, E_FAST_IDEAL_FAR_BATCH, 1e-9, "sequences");
    assert_close(f.cost_ratio, 1.0, 1e-9, "x");
}

/* §1.9 (Fast mode) with KV: DeepSeek-V3 at 32,768 tokens of context, normal batch 8,000,
 * speedup 2.5 (a fast batch of about 3,100 reads every expert); a token then costs more. */
static void fast_mode_of_deepseek_at_32k_context(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_fast f = batching_fast_mode(&d, 32768, 8000, 2.5);
    assert_true(f.possible);
    assert_close(f.batch, E_FAST_KV_BATCH, 1e-9, "sequences");
    assert_close(f.step_s, E_FAST_KV_STEP, 1e-9, "s");
    assert_close(f.cost_ratio, E_FAST_KV_COST_RATIO, 1e-9, "x");
    assert_true(f.cost_ratio > 1.0);
}

/* A 2.5x faster step than that of one sequence does not exist. */
static void fast_mode_below_the_step_of_one_sequence_is_impossible(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_fast f = batching_fast_mode(&d, 4096, 1, 2.5);
    assert_false(f.possible);
    assert_true(f.batch == 0 && f.step_s == 0 && f.cost_ratio == 0);
    assert_true(batching_fast_mode(&d, 4096, 20000, 2.5).possible);
}

/* A batch holds at least one sequence. Llama 3 70B (dense) at 4k context, normal batch
 * 2 (memory-bound: its KV slope is above its compute slope): one speedup leaves room
 * for one and a half sequences, a larger one for half a sequence, which is impossible. */
static void fast_mode_with_room_for_less_than_one_sequence_is_impossible(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    assert_true(kv_slope(&d, 4096) > compute_slope(&d));
    batching_fast f = batching_fast_mode(&d, 4096, 2, E_FAST_SPEEDUP_ROOM_1_5);
    assert_true(f.possible);
    assert_close(f.batch, E_FAST_ROOM_1_5_BATCH, 1e-6, "sequences");
    assert_false(batching_fast_mode(&d, 4096, 2, E_FAST_SPEEDUP_ROOM_0_5).possible);
}

/* batching.h: a fast batch of exactly 1 is possible. Power-of-two toy (dense) at 4,096
 * tokens, normal batch 1,026 (memory-bound), twice as fast: the fast step is exactly
 * the step of one sequence, in every program. */
static void fast_mode_with_room_for_exactly_one_sequence_is_possible(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    batching_fast f = batching_fast_mode(&d, 4096, 1026, 2.0);
    assert_true(f.possible);
    assert_close(f.batch, 1.0, TIGHT, "sequences");
    assert_close(f.step_s, E_FAST_TOY_ONE_STEP, TIGHT, "s");
    assert_close(f.cost_ratio, E_FAST_TOY_ONE_COST_RATIO, TIGHT, "x");
}

/* batching.h: a step of one sequence within a relative 1e-9 above the fast step
 * counts as equal, and step_s is the fast step itself (normal step / speedup), also
 * in cost_ratio. The same toy at a speedup 2 x (1 + 2^-31): the step of one sequence
 * is 2^-31 (about 4.7e-10) above the fast step. */
static void fast_mode_a_hair_short_of_one_sequence_takes_the_fast_step(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    double hair = 1.0 + 0x1p-31;
    batching_fast f = batching_fast_mode(&d, 4096, 1026, 2.0 * hair);
    assert_true(f.possible);
    assert_close(f.batch, 1.0, TIGHT, "sequences");
    assert_close(f.step_s, E_FAST_TOY_ONE_STEP / hair, 1e-12, "s");
    assert_close(f.cost_ratio, E_FAST_TOY_ONE_COST_RATIO / hair, 1e-12, "x");
}

/* Fast mode with exercise 1.3: a small batch of an MoE leaves experts unread, so it can
 * go below the roofline's floor (every weight read). DeepSeek-V3, no context, a normal
 * batch 2.5 times its knee, and the speedup whose fast step is the step of a batch of
 * 64 (derived in the instructor's copy): the answer is that batch. */
static void fast_mode_of_an_moe_goes_below_the_floor_with_a_small_batch(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_true(E_FAST_MOE_STEP_64 < weights_term(&d)); /* below the floor of every weight */
    batching_fast f = batching_fast_mode(&d, 0, E_FAST_IDEAL_NORMAL_BATCH, E_FAST_MOE_SPEEDUP_TO_64);
    assert_true(f.possible);
    assert_close(f.batch, 64, 1e-9, "sequences");
    assert_close(f.step_s, E_FAST_MOE_STEP_64, 1e-9, "s");
    assert_close(f.cost_ratio, E_FAST_MOE_COST_RATIO_64, 1e-9, "x");
}

/* The same with KV, and a normal batch that itself leaves experts unread: DeepSeek-V3
 * at 4,096 tokens, normal batch 200, and the speedup whose fast step is the step of a
 * batch of 12. */
static void fast_mode_of_an_moe_counts_the_experts_of_both_batches(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_fast f = batching_fast_mode(&d, 4096, 200, E_FAST_MOE_SPEEDUP_200_TO_12);
    assert_true(f.possible);
    assert_close(f.batch, 12, 1e-9, "sequences");
    assert_close(f.step_s, E_FAST_MOE_STEP_12, 1e-9, "s");
    assert_close(f.cost_ratio, E_FAST_MOE_COST_RATIO_12, 1e-9, "x");
}

/* batching.h: a batch of exactly 1 is possible. DeepSeek-V3 at 4,096 tokens from a
 * normal batch of 100, at the speedup whose fast step is one sequence's (expected.h):
 * met by a batch of 1; a hair shorter is met by none. */
static void fast_mode_of_an_moe_with_room_for_exactly_one_sequence(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_fast f = batching_fast_mode(&d, 4096, 100, E_FAST_MOE_SPEEDUP_100_TO_1);
    assert_true(f.possible);
    assert_close(f.batch, 1.0, 1e-9, "sequences");
    assert_false(batching_fast_mode(&d, 4096, 100, E_FAST_MOE_SPEEDUP_100_TO_1 * (1 + 1e-6)).possible);
}

/* batching.h: the answer is the largest batch whose step is that fast, which may be
 * larger than the normal batch. Llama 3 70B (dense) with no context, normal batch 100,
 * left of the knee, no speedup. */
static void fast_mode_without_speedup_left_of_the_knee(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    batching_fast f = batching_fast_mode(&d, 0, 100, 1.0);
    assert_true(f.possible);
    assert_close(f.batch, E_FAST_KNEE_BATCH, 1e-9, "sequences");
    assert_close(f.step_s, E_FAST_KNEE_STEP, 1e-9, "s");
    assert_close(f.cost_ratio, E_FAST_KNEE_COST_RATIO, 1e-9, "x");
}

/* ---- 1.10 cheapest --------------------------------------------------------- */

/* The offers of the tests below: per-GPU datasheet figures in bf16 and the prices of
 * lib/hw.c, 8 GPUs to a server. */
static batching_offer h100_offer(void)
{
    batching_offer o = {"h100", 989e12, 3.35e12, 80e9, 4.25, 8};
    return o;
}
static batching_offer a100_offer(void)
{
    batching_offer o = {"a100", 312e12, 2.039e12, 80e9, 2.21, 8};
    return o;
}

/* The power-of-two toy as an offer: one chip's figures, 4 to a domain, $1 an hour. */
static batching_offer toy_offer(void)
{
    batching_offer o = {"toy", 0x1p50, 0x1p42, 0x1p32 + 0x1p20, 1.0, 4};
    return o;
}

/* §1.10 (The cheapest deployment for a latency target): Llama 3 70B on up to 8 H100s
 * at 1,024 tokens within 30 ms. */
static void llama_on_h100s_at_1k_context_within_30_ms(void **state)
{
    (void)state;
    batching_deploy m = llama70b_on_h100x8();
    batching_offer o = h100_offer();
    batching_plan p = batching_cheapest(&m, 1024, 0.03, &o, 1);
    assert_true(p.exists);
    assert_int_equal(p.offer, 0);
    assert_int_equal(p.chips, E_CHEAP_1K_30MS_CHIPS);
    assert_int_equal(p.batch, E_CHEAP_1K_30MS_BATCH);
    assert_close(p.step_s, E_CHEAP_1K_30MS_STEP, TIGHT, "s");
    assert_close(p.usd_per_mtok, E_CHEAP_H100_ARITHMETIC_USD, TIGHT, "USD/Mtok");
}

/* The same within 20 ms. */
static void llama_on_h100s_at_1k_context_within_20_ms(void **state)
{
    (void)state;
    batching_deploy m = llama70b_on_h100x8();
    batching_offer o = h100_offer();
    batching_plan p = batching_cheapest(&m, 1024, 0.02, &o, 1);
    assert_true(p.exists);
    assert_int_equal(p.chips, E_CHEAP_1K_20MS_CHIPS);
    assert_int_equal(p.batch, E_CHEAP_1K_20MS_BATCH);
    assert_true(p.step_s <= 0.02);
    assert_close(p.usd_per_mtok, E_CHEAP_H100_ARITHMETIC_USD, TIGHT, "USD/Mtok");
}

/* The cheapest chip-hour is not the cheapest token: at 1,024 tokens within 30 ms the
 * A100 ($2.21 an hour) against the H100 ($4.25). */
static void the_cheapest_chip_hour_is_not_the_cheapest_token(void **state)
{
    (void)state;
    batching_deploy m = llama70b_on_h100x8();
    batching_offer offers[] = {a100_offer(), h100_offer()};
    batching_plan p = batching_cheapest(&m, 1024, 0.03, offers, 2);
    assert_true(p.exists);
    assert_int_equal(p.offer, 1);
    assert_int_equal(p.chips, E_CHEAP_1K_30MS_CHIPS);
    assert_close(p.usd_per_mtok, E_CHEAP_H100_ARITHMETIC_USD, TIGHT, "USD/Mtok");
}

/* Past its max balanced context (§1.5.1 (With the KV term: when there is no balance batch)) every
 * batch is memory-bound: Llama 3 70B at 32,768 tokens within 50 ms, on up to 8 H100s
 * or 8 A100s. */
static void llama_at_32k_context_on_h100s_or_a100s(void **state)
{
    (void)state;
    batching_deploy m = llama70b_on_h100x8();
    batching_offer offers[] = {h100_offer(), a100_offer()};
    batching_plan p = batching_cheapest(&m, 32768, 0.05, offers, 2);
    assert_true(p.exists);
    assert_int_equal(p.offer, 1);
    assert_int_equal(p.chips, 8);
    assert_int_equal(p.batch, E_CHEAP_32K_BATCH);
    assert_close(p.step_s, E_CHEAP_32K_STEP, TIGHT, "s");
    assert_close(p.usd_per_mtok, E_CHEAP_32K_USD, TIGHT, "USD/Mtok");
}

/* No deployment steps faster than its latency floor: Llama 3 70B's 141.2 GB take
 * 141.2e9 / (8 x 3.35e12) = 5.27 ms on 8 H100s and 8.66 ms on 8 A100s, so a 5 ms
 * target has no answer. */
static void a_target_below_every_floor_has_no_deployment(void **state)
{
    (void)state;
    batching_deploy m = llama70b_on_h100x8();
    batching_offer offers[] = {h100_offer(), a100_offer()};
    batching_plan p = batching_cheapest(&m, 1024, 0.005, offers, 2);
    assert_false(p.exists);
    assert_int_equal(p.offer, -1);
    assert_int_equal(p.chips, 0);
    assert_int_equal(p.batch, 0);
    assert_true(p.step_s == 0.0 && p.usd_per_mtok == 0.0);
}

/* Llama 3.1 405B in bf16, 810 GB of weights, fits no 8 x 80 GB server; and with no
 * offers at all there is nothing to buy. */
static void weights_that_fit_no_domain_or_no_offers_have_no_deployment(void **state)
{
    (void)state;
    batching_deploy m = llama70b_on_h100x8();
    m.params_total = m.params_active = 405e9;
    batching_offer offers[] = {h100_offer(), a100_offer()};
    assert_false(batching_cheapest(&m, 1024, 10.0, offers, 2).exists);
    batching_deploy small = llama70b_on_h100x8();
    batching_plan none = batching_cheapest(&small, 1024, 0.03, offers, 0);
    assert_false(none.exists);
    assert_int_equal(none.offer, -1);
}

/* batching.h's tie rule: two offers alike in every figure cost the same on the same
 * chips, and the earlier one wins. */
static void equal_costs_on_equal_chips_go_to_the_earlier_offer(void **state)
{
    (void)state;
    batching_deploy m = llama70b_on_h100x8();
    batching_offer offers[] = {h100_offer(), h100_offer()};
    offers[1].name = "h100 again";
    batching_plan p = batching_cheapest(&m, 1024, 0.03, offers, 2);
    assert_true(p.exists);
    assert_int_equal(p.offer, 0);
    assert_int_equal(p.chips, E_CHEAP_1K_30MS_CHIPS);
}

/* Limits met exactly count, and a deployment may use an offer's max_chips. The toy
 * model on toy chips at 1,024 tokens: only 4 chips hold the weights and a cache (4 x
 * (2^32 + 2^20) B), and the target is exactly their step at batch 1. */
static void a_deployment_that_meets_both_limits_exactly_is_served(void **state)
{
    (void)state;
    batching_deploy m = power_of_two_toy();
    batching_offer o = toy_offer();
    batching_plan p = batching_cheapest(&m, 1024, E_CHEAP_TOY_STEP, &o, 1);
    assert_true(p.exists);
    assert_int_equal(p.chips, 4);
    assert_int_equal(p.batch, 1);
    assert_true(p.step_s == E_CHEAP_TOY_STEP);
    assert_close(p.usd_per_mtok, E_CHEAP_TOY_USD, TIGHT, "USD/Mtok");
}

/* batching.h: max_chips may be as large as an int holds. The case of the first test
 * with every chip count up to 2^31 - 1 on offer: the same answer. */
static void an_offer_of_up_to_int_max_chips(void **state)
{
    (void)state;
    batching_deploy m = llama70b_on_h100x8();
    batching_offer o = h100_offer();
    o.max_chips = INT_MAX;
    batching_plan p = batching_cheapest(&m, 1024, 0.03, &o, 1);
    assert_true(p.exists);
    assert_int_equal(p.chips, E_CHEAP_1K_30MS_CHIPS);
    assert_int_equal(p.batch, E_CHEAP_1K_30MS_BATCH);
    assert_close(p.usd_per_mtok, E_CHEAP_H100_ARITHMETIC_USD, TIGHT, "USD/Mtok");
}

/* A 10 us step target, which only thousands of chips meet: Llama 3 70B at 1,024
 * tokens on A100s or H100s, each up to 2^31 - 1 of them. */
static void a_10_us_target_over_offers_of_up_to_int_max_chips(void **state)
{
    (void)state;
    batching_deploy m = llama70b_on_h100x8();
    batching_offer offers[] = {a100_offer(), h100_offer()};
    offers[0].max_chips = offers[1].max_chips = INT_MAX;
    batching_plan p = batching_cheapest(&m, 1024, 1e-5, offers, 2);
    assert_true(p.exists);
    assert_int_equal(p.offer, 1);
    assert_int_equal(p.chips, E_CHEAP_10US_CHIPS);
    assert_int_equal(p.batch, E_CHEAP_10US_BATCH);
    assert_true(p.step_s <= 1e-5);
    assert_close(p.usd_per_mtok, E_CHEAP_H100_ARITHMETIC_USD, TIGHT, "USD/Mtok");
}

/* ---- 1.11 max_sparsity ----------------------------------------------------- */

/* §1.8 (How far can sparsity go?): DeepSeek-V3's 37e9 active parameters in fp4 on a
 * GB200 NVL72 at 512 tokens, short of the max balanced context of the fixture (its
 * cache in bf16). */
static void sparsity_of_deepseek_on_nvl72_at_512_tokens(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_sparsity s = batching_max_sparsity(&d, 512);
    assert_true(s.exists);
    assert_close(s.sparsity, E_SPARSITY_DEEPSEEK_512, TIGHT, "");
    assert_close(s.batch, E_SPARSITY_DEEPSEEK_512_BATCH, TIGHT, "sequences");
}

/* The same rack with no context. */
static void with_no_context_only_the_weights_bound_the_sparsity(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_sparsity s = batching_max_sparsity(&d, 0);
    assert_true(s.exists);
    assert_close(s.sparsity, E_SPARSITY_DEEPSEEK_CTX0, TIGHT, "");
    assert_close(s.batch, E_SPARSITY_DEEPSEEK_CTX0_BATCH, TIGHT, "sequences");
}

/* Llama 3 70B's 70.6e9 active parameters in bf16 on 8 H100s at 1,024 tokens, below
 * the max balanced context of the fixture. */
static void llama_on_h100s_at_1k_context_has_little_room_for_sparsity(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    batching_sparsity s = batching_max_sparsity(&d, 1024);
    assert_true(s.exists);
    assert_close(s.sparsity, E_SPARSITY_LLAMA_1K, TIGHT, "");
    assert_close(s.batch, E_SPARSITY_LLAMA_1K_BATCH, TIGHT, "sequences");
}

/* Past the max balanced context of the fixtures (DeepSeek-V3 with its bf16 cache at
 * 1,024 tokens, Llama 3 70B on H100s at 4,096) no sparsity has a balance batch
 * (§1.5.1 (With the KV term)); short of it (800 and 1,024 tokens) some sparsity fits. */
static void no_sparsity_qualifies_past_the_max_balanced_context(void **state)
{
    (void)state;
    batching_deploy ds = deepseek_on_nvl72(), ll = llama70b_on_h100x8();
    batching_sparsity s = batching_max_sparsity(&ds, 1024);
    assert_false(s.exists);
    assert_close(s.sparsity, 0.0, 0.0, "");
    assert_close(s.batch, 0.0, 0.0, "sequences");
    assert_false(batching_max_sparsity(&ll, 4096).exists);
    assert_true(batching_max_sparsity(&ds, 800).exists);
    assert_true(batching_max_sparsity(&ll, 1024).exists);
}

/* The power-of-two toy balances up to exactly 2^11 = 2,048 tokens (c = kappa there):
 * at exactly that context there is no balance batch, so no answer; at half of it
 * there is one. */
static void at_exactly_the_max_balanced_context_no_sparsity_qualifies(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    assert_false(batching_max_sparsity(&d, 2048).exists);
    assert_true(batching_max_sparsity(&d, 1024).exists);
}

/* Llama 3 70B on 8 H100s at 1,400 tokens, short of the fixture's max balanced
 * context: not even sparsity 1 fits (at 1,024 tokens it does). */
static void when_the_dense_model_cannot_hold_its_balance_batch_no_sparsity_qualifies(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    batching_sparsity s = batching_max_sparsity(&d, 1400);
    assert_false(s.exists);
    assert_close(s.sparsity, 0.0, 0.0, "");
    assert_true(batching_max_sparsity(&d, 1024).exists);
}

/* The power-of-two toy (every figure exact) at 1,024 tokens, half its balance
 * context, with 4 chips of 2^30 B: sparsity 1 fills HBM exactly, so it fits. */
static void a_sparsity_of_exactly_1_that_fills_hbm_exactly_is_an_answer(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    d.hbm_bytes = 0x1p30;
    batching_sparsity s = batching_max_sparsity(&d, 1024);
    assert_true(s.exists);
    assert_close(s.sparsity, 1.0, TIGHT, "");
    assert_close(s.batch, E_SPARSITY_TOY_EXACT_BATCH, TIGHT, "sequences");
}

/* Llama 3 70B on 8 H100s at 120 tokens, with the HBM per chip at which sparsity 1
 * fills HBM exactly: the answer is meant to be exactly 1, and the contract counts a
 * value within a relative 1e-9 below 1 as 1. */
static void a_sparsity_a_rounding_error_below_1_counts_as_1(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    d.hbm_bytes = E_SPARSITY_EXACT_HBM_LLAMA_120;
    batching_sparsity s = batching_max_sparsity(&d, 120);
    assert_true(s.exists);
    assert_close(s.sparsity, 1.0, TIGHT, "");
}

/* The toy as it is (params_total 8 x params_active, which the contract does not read),
 * 4 chips of 2^32 + 2^20 B at 1,024 tokens: exact in binary. */
static void the_given_total_parameters_play_no_part(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    batching_sparsity s = batching_max_sparsity(&d, 1024);
    assert_true(s.exists);
    assert_close(s.sparsity, E_SPARSITY_TOY, TIGHT, "");
    assert_close(s.batch, E_SPARSITY_TOY_BATCH, TIGHT, "sequences");
    d.params_total = d.params_active;
    assert_close(batching_max_sparsity(&d, 1024).sparsity, E_SPARSITY_TOY, TIGHT, "");
}

CHALK_PART(serving) = {
    CHALK_TEST(train_departures, rubin_drain_time_is_14_4_ms),
    CHALK_TEST(train_departures, hopper_and_blackwell_drain_in_about_24_ms),
    CHALK_TEST(train_departures, worst_case_latency_is_two_steps),
    CHALK_TEST(train_departures, mean_latency_is_one_and_a_half_steps),
    CHALK_TEST(batch_limits, hbm_capacity_of_llama_on_h100s_at_8k_context),
    CHALK_TEST(batch_limits, no_batch_fits_when_the_weights_alone_overflow_hbm),
    CHALK_TEST(batch_limits, hbm_capacity_of_an_moe_holds_every_expert),
    CHALK_TEST(batch_limits, latency_target_admits_the_largest_batch_under_it),
    CHALK_TEST(batch_limits, latency_target_of_deepseek_at_short_context),
    CHALK_TEST(batch_limits, a_limit_met_by_exactly_one_sequence_admits_a_batch_of_1),
    CHALK_TEST(batch_limits, a_target_of_exactly_one_sequences_step_admits_it_despite_rounding),
    CHALK_TEST(batch_limits, a_target_exactly_at_the_floor_admits_a_batch_when_there_is_no_cache),
    CHALK_TEST(batch_limits, weights_that_exactly_fill_hbm_leave_room_for_no_sequence),
    CHALK_TEST(batch_limits, a_batch_beyond_what_a_long_holds_is_long_max),
    CHALK_TEST(batch_limits, latency_target_below_the_floor_admits_no_batch),
    CHALK_TEST(fast_mode, fast_mode_on_an_ideal_roofline),
    CHALK_TEST(fast_mode, fast_mode_of_deepseek_at_32k_context),
    CHALK_TEST(fast_mode, fast_mode_below_the_step_of_one_sequence_is_impossible),
    CHALK_TEST(fast_mode, fast_mode_with_room_for_less_than_one_sequence_is_impossible),
    CHALK_TEST(fast_mode, fast_mode_with_room_for_exactly_one_sequence_is_possible),
    CHALK_TEST(fast_mode, fast_mode_a_hair_short_of_one_sequence_takes_the_fast_step),
    CHALK_TEST(fast_mode, fast_mode_of_an_moe_goes_below_the_floor_with_a_small_batch),
    CHALK_TEST(fast_mode, fast_mode_of_an_moe_counts_the_experts_of_both_batches),
    CHALK_TEST(fast_mode, fast_mode_of_an_moe_with_room_for_exactly_one_sequence),
    CHALK_TEST(fast_mode, fast_mode_without_speedup_left_of_the_knee),
    CHALK_TEST(cheapest, llama_on_h100s_at_1k_context_within_30_ms),
    CHALK_TEST(cheapest, llama_on_h100s_at_1k_context_within_20_ms),
    CHALK_TEST(cheapest, the_cheapest_chip_hour_is_not_the_cheapest_token),
    CHALK_TEST(cheapest, llama_at_32k_context_on_h100s_or_a100s),
    CHALK_TEST(cheapest, a_target_below_every_floor_has_no_deployment),
    CHALK_TEST(cheapest, weights_that_fit_no_domain_or_no_offers_have_no_deployment),
    CHALK_TEST(cheapest, equal_costs_on_equal_chips_go_to_the_earlier_offer),
    CHALK_TEST(cheapest, a_deployment_that_meets_both_limits_exactly_is_served),
    CHALK_TEST(cheapest, an_offer_of_up_to_int_max_chips),
    CHALK_TEST(cheapest, a_10_us_target_over_offers_of_up_to_int_max_chips),
    CHALK_TEST(max_sparsity, sparsity_of_deepseek_on_nvl72_at_512_tokens),
    CHALK_TEST(max_sparsity, with_no_context_only_the_weights_bound_the_sparsity),
    CHALK_TEST(max_sparsity, llama_on_h100s_at_1k_context_has_little_room_for_sparsity),
    CHALK_TEST(max_sparsity, no_sparsity_qualifies_past_the_max_balanced_context),
    CHALK_TEST(max_sparsity, at_exactly_the_max_balanced_context_no_sparsity_qualifies),
    CHALK_TEST(max_sparsity, when_the_dense_model_cannot_hold_its_balance_batch_no_sparsity_qualifies),
    CHALK_TEST(max_sparsity, a_sparsity_of_exactly_1_that_fills_hbm_exactly_is_an_answer),
    CHALK_TEST(max_sparsity, a_sparsity_a_rounding_error_below_1_counts_as_1),
    CHALK_TEST(max_sparsity, the_given_total_parameters_play_no_part),
};
CHALK_PART_END(serving);
