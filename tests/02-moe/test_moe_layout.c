/*
 * test_moe_layout.c -- Chapter 2 tests, exercise 2.12: the cheapest layout of racks,
 * GPUs and batch for a latency target (cheapest_layout), on a toy model in powers of
 * two (exact in binary) and on DeepSeek-V3 on GB200 GPUs. test_moe.c's main() runs
 * them last, in one binary; its header says where the expected values come from and
 * lists the published inputs.
 */
#include "../test_util.h"

#include "expected.h"
#include "moe.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

#include "fixtures.h" /* test_moe.c's DeepSeek-V3 on an NVL72 and bound_name */

/* ---- 2.12 cheapest_layout ---------------------------------------------------- */

/* A toy model in powers of two (exact in binary): 2^33 weights of one byte, 2^30
 * active, 8 experts of which each token visits 2, one MoE layer of d_model 1,024
 * sending one byte an element, 2^20 bytes of cache a token. Per GPU: 2^40 FLOP/s,
 * 2^36 B/s of HBM, 2^36 B/s of NVLink and of NIC, 2^32 bytes of HBM, $3.60 an hour.
 * Racks of 8 GPUs, one rack, a step of at most 1/8 s, no context. */
static moe_layout_query toy_query(void)
{
    moe_layout_query q = {
        .model = {
            .params_total = 0x1p33, .params_active = 0x1p30, .bytes_per_param = 1,
            .kv_bytes_per_token = 0x1p20, .d_model = 1024, .moe_layers = 1,
            .experts = 8, .top_k = 2, .act_bytes = 1, .gpus = 0, .racks = 0,
            .flops_per_s = 0x1p40, .hbm_bytes_per_s = 0x1p36,
            .scaleup_bytes_per_s = 0x1p36, .scaleout_bytes_per_s = 0x1p36,
        },
        .context_tokens = 0, .hbm_bytes = 0x1p32, .domain_chips = 8, .max_racks = 1,
        .usd_per_gpu_hour = 3.6, .max_step_s = 0x1p-3,
    };
    return q;
}

/* §2.10 (The cheapest layout for a latency target): the toy as it is, no context
 * (one GPU cannot hold its weights; two fill their HBM exactly, which fits). */
static void toy_model_with_no_context(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.why, MOE_LAYOUT_FOUND);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_NOCTX_GPUS);
    assert_int_equal(l.experts_per_gpu, E_LAYOUT_NOCTX_EXPERTS_PER_GPU);
    assert_close(l.batch, E_LAYOUT_NOCTX_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_COMPUTE, bound_name);
    assert_close(l.step.step_s, 0x1p-3, TIGHT, "s");
    assert_close(l.tokens_per_s, E_LAYOUT_NOCTX_TOKENS_PER_S, TIGHT, "tokens/s");
    assert_close(l.usd_per_token, E_LAYOUT_NOCTX_USD_PER_TOKEN, TIGHT, "USD");
}

/* §2.10 (The cheapest layout for a latency target), moe.h's "filling it exactly fits"
 * with caches: 1,024 tokens of context, racks of 2 GPUs of 2^32 + 2^31 bytes, whose
 * HBM the weights and the batch's caches fill exactly (every number a power of two
 * or a sum of two, exact in doubles in any order). */
static void caches_that_fill_the_hbm_exactly_fit(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.context_tokens = 1024;
    q.hbm_bytes = 0x1p32 + 0x1p31;
    q.domain_chips = 2;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, 2);
    assert_close(l.batch, E_LAYOUT_FULL_HBM_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_MEMORY, bound_name);
    assert_close(l.step.step_s, E_LAYOUT_FULL_HBM_STEP_S, TIGHT, "s");
    assert_close(l.usd_per_token, E_LAYOUT_FULL_HBM_USD_PER_TOKEN, TIGHT, "USD");
}

/* §2.10 (The cheapest layout for a latency target): the toy at 1,024 tokens of
 * context (a GiB of cache a sequence) on GPUs of 2^34 bytes. */
static void toy_model_at_long_context(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.context_tokens = 1024;
    q.hbm_bytes = 0x1p34;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_LONG_GPUS);
    assert_int_equal(l.experts_per_gpu, 8 / E_LAYOUT_LONG_GPUS);
    assert_close(l.batch, E_LAYOUT_LONG_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_MEMORY, bound_name);
    assert_close(l.step.step_s, 0x1p-3, TIGHT, "s");
    assert_close(l.usd_per_token, E_LAYOUT_LONG_USD_PER_TOKEN, TIGHT, "USD");
}

/* §2.10 (The cheapest layout for a latency target) and §2.5 (Two racks): GPUs of 2^30
 * bytes, so that all 8 are needed to hold the weights, in racks of 4, up to 2 racks,
 * with a NIC of 2^19 B/s; then with one rack allowed, where no layout fits. */
static void toy_model_whose_weights_need_two_racks(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.hbm_bytes = 0x1p30;
    q.domain_chips = 4;
    q.max_racks = 2;
    q.model.scaleout_bytes_per_s = 0x1p19;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, E_LAYOUT_2R_RACKS);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_2R_GPUS_PER_RACK);
    assert_int_equal(l.experts_per_gpu, 1);
    assert_close(l.batch, E_LAYOUT_2R_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_NETWORK, bound_name);
    assert_close(l.usd_per_token, E_LAYOUT_2R_USD_PER_TOKEN, TIGHT, "USD");
    q.max_racks = 1;
    assert_false(moe_cheapest_layout(&q).exists);
}

/* moe.h's second tie rule: GPUs of 2^30 bytes (8 of them hold the weights), racks of
 * 8, up to 8 racks, a NIC as fast as NVLink. One rack of 8, 2 of 4, 4 of 2 and 8 of 1
 * use the same GPUs at the same cost: the fewest racks win. */
static void the_same_gpus_in_fewer_racks_win_a_tie(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.hbm_bytes = 0x1p30;
    q.max_racks = 8;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_TIE_GPUS);
    assert_close(l.batch, E_LAYOUT_TIE_BATCH, TIGHT, "sequences");
    assert_named(l.step.bound, MOE_BOUND_COMPUTE, bound_name);
}

/* The running example, §2.10 (The cheapest layout for a latency target): DeepSeek-V3
 * (671e9 and 37e9 parameters, published) in fp4 on GB200 GPUs (10e15 FLOP/s, 8e12
 * B/s, 186e9 B), 1,024 tokens of fp4 MLA cache (61 x 576 x 0.5 = 17,568 B a token),
 * $2 a GPU-hour, a 20 ms step, one rack. Several layouts cost the same but for
 * rounding: only the contract's 1e-9 tie rule picks the answer. */
static void deepseek_at_a_20_ms_step_on_one_rack(void **state)
{
    (void)state;
    moe_layout_query q = {
        .model = deepseek_on_nvl72(),
        .context_tokens = 1024, .hbm_bytes = 186e9, .domain_chips = 72,
        .max_racks = 1, .usd_per_gpu_hour = 2.0, .max_step_s = 0.020,
    };
    q.model.kv_bytes_per_token = 17568.0;
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, E_LAYOUT_V3_GPUS);
    assert_int_equal(l.experts_per_gpu, E_LAYOUT_V3_EXPERTS_PER_GPU);
    assert_close(l.batch, E_LAYOUT_V3_BATCH, 1e-12, "sequences");
    assert_named(l.step.bound, MOE_BOUND_COMPUTE, bound_name);
    assert_close(l.usd_per_token, E_LAYOUT_V3_USD_PER_TOKEN, 1e-12, "USD");
}

/* moe.h's rounding rule. One GPU, 3e9 parameters, all active, at 1e15 FLOP/s (the
 * weights take 1 ms), at targets of 45 ms and 15 ms: in exact arithmetic 7,500 and
 * 2,500 sequences meet them exactly, but a quotient computed in doubles can land a
 * hair below 7,500 (7499.999999999999), and 2,500 sequences take 0.015000000000000001 s
 * in doubles. The contract's test is moe_step_at's own step time, so the batch B must
 * pass it and B + 1 must fail. */
static void a_batch_quotient_a_hair_off_a_whole_number_is_checked(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.model.params_total = 3e9;
    q.model.params_active = 3e9;
    q.model.flops_per_s = 1e15;
    q.model.hbm_bytes_per_s = 3e12;
    q.hbm_bytes = 1e12;
    q.domain_chips = 1;
    const double targets[] = {0.045, 0.015};
    const double near[] = {E_LAYOUT_QUOTIENT_BATCH_45MS, E_LAYOUT_QUOTIENT_BATCH_15MS};
    for (int i = 0; i < 2; i++) {
        q.max_step_s = targets[i];
        moe_layout l = moe_cheapest_layout(&q);
        assert_true(l.exists);
        assert_int_equal(l.gpus_per_rack, 1);
        assert_close(l.batch, near[i], 1.0 / 2000, "sequences");
        assert_close(l.batch, floor(l.batch), 0.0, "sequences");
        moe_deploy d = q.model;
        d.gpus = 1;
        d.racks = 1;
        assert_true(moe_step_at(&d, l.batch, 0).step_s <= targets[i]);
        assert_false(moe_step_at(&d, l.batch + 1, 0).step_s <= targets[i]);
    }
}

/* moe.h's no-answer rule: the toy at a target of 1/128 s has no layout (exists false,
 * why NONE_FITS, every number 0); at 1/64 s, met exactly (at most, not below), it
 * has one. */
static void no_layout_for_a_target_too_short(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.max_step_s = 0x1p-7;
    moe_layout l = moe_cheapest_layout(&q);
    assert_false(l.exists);
    assert_int_equal(l.why, MOE_LAYOUT_NONE_FITS);
    assert_int_equal(l.racks, 0);
    assert_int_equal(l.gpus_per_rack, 0);
    assert_close(l.batch, 0.0, TIGHT, "sequences");
    assert_close(l.usd_per_token, 0.0, TIGHT, "USD");
    q.max_step_s = 0x1p-6;
    moe_layout edge = moe_cheapest_layout(&q);
    assert_true(edge.exists);
    assert_int_equal(edge.gpus_per_rack, E_LAYOUT_EDGE_GPUS);
    assert_close(edge.batch, E_LAYOUT_EDGE_BATCH, TIGHT, "sequences");
    assert_close(edge.step.step_s, 0x1p-6, TIGHT, "s");
}

/* Fails unless a batch is exactly the whole number expected, printed in full (assert_close's
 * %.6g cannot tell 2^53 from 2^53 - 1). */
#define assert_batch_exactly(actual, expected, why)                                       \
    do {                                                                                  \
        double got_ = (actual), want_ = (expected);                                       \
        if (!(got_ == want_)) {                                                           \
            print_error("%s = %.17g sequences, expected exactly %.17g (%s)\n", #actual,   \
                        got_, want_, (why));                                              \
            _fail(__FILE__, __LINE__);                                                    \
        }                                                                                 \
    } while (0)

/* moe.h's cap, B <= 2^53, at exactly the cap and one double past it. One GPU, one
 * rack, one active parameter at F = 2^54 FLOP/s, no cache, no MoE layer, weights
 * read in 1e-12 s. Without the cap the largest batch would be:
 *   t = 1 s:          2^53 exactly, the target met exactly: not capped, and not
 *                     2^53 - 1 (JavaScript's MAX_SAFE_INTEGER is not the cap);
 *   t = 1 + 2^-52 s:  2^53 + 2, the next double past 2^53: capped at 2^53;
 *   t = 2 s:          2^54, far past: capped at 2^53. */
static void the_batch_reaches_2_to_the_53_and_stops_there(void **state)
{
    (void)state;
    const double cap = 9007199254740992.0; /* 2^53, moe.h */
    moe_layout_query q = {
        .model = {
            .params_total = 1, .params_active = 1, .bytes_per_param = 1,
            .kv_bytes_per_token = 0, .d_model = 1, .moe_layers = 0, .experts = 1,
            .top_k = 1, .act_bytes = 1, .flops_per_s = 0x1p54, .hbm_bytes_per_s = 1e12,
            .scaleup_bytes_per_s = 1e12, .scaleout_bytes_per_s = 1e12,
        },
        .context_tokens = 0, .hbm_bytes = 1e9, .domain_chips = 1, .max_racks = 1,
        .usd_per_gpu_hour = 1.0, .max_step_s = 1.0,
    };
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_batch_exactly(l.batch, cap, "2^53: the target met exactly, not capped");
    assert_close(l.step.step_s, 1.0, TIGHT, "s");
    q.max_step_s = 1.0 + 0x1p-52; /* uncapped: 2^53 + 2 */
    l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_batch_exactly(l.batch, cap, "one double past 2^53: capped at 2^53");
    q.max_step_s = 2.0; /* uncapped: 2^54 */
    l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_batch_exactly(l.batch, cap, "2^54 uncapped: capped at 2^53");
}

/* moe.h's ranges: a target, price or HBM of 0 or NaN, no GPU, no rack, or two racks
 * with no scale-out network: no answer, why BAD_QUERY. */
static void a_query_out_of_range_has_no_layout(void **state)
{
    (void)state;
    moe_layout_query q = toy_query();
    q.max_step_s = 0;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.usd_per_gpu_hour = NAN;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.hbm_bytes = 0;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.domain_chips = 0;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.max_racks = 0;
    assert_int_equal(moe_cheapest_layout(&q).why, MOE_LAYOUT_BAD_QUERY);
    q = toy_query();
    q.max_racks = 2;
    q.model.scaleout_bytes_per_s = 0;
    moe_layout l = moe_cheapest_layout(&q);
    assert_false(l.exists);
    assert_int_equal(l.why, MOE_LAYOUT_BAD_QUERY);
    assert_close(l.batch, 0.0, TIGHT, "sequences");
}

CHALK_PART(layout) = {
    CHALK_TEST(cheapest_layout, toy_model_with_no_context),
    CHALK_TEST(cheapest_layout, caches_that_fill_the_hbm_exactly_fit),
    CHALK_TEST(cheapest_layout, toy_model_at_long_context),
    CHALK_TEST(cheapest_layout, toy_model_whose_weights_need_two_racks),
    CHALK_TEST(cheapest_layout, the_same_gpus_in_fewer_racks_win_a_tie),
    CHALK_TEST(cheapest_layout, deepseek_at_a_20_ms_step_on_one_rack),
    CHALK_TEST(cheapest_layout, a_batch_quotient_a_hair_off_a_whole_number_is_checked),
    CHALK_TEST(cheapest_layout, no_layout_for_a_target_too_short),
    CHALK_TEST(cheapest_layout, the_batch_reaches_2_to_the_53_and_stops_there),
    CHALK_TEST(cheapest_layout, a_query_out_of_range_has_no_layout),
};
CHALK_PART_END(layout);
