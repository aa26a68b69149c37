/*
 * test_moe_routing.c -- Chapter 2 tests, exercises 2.7 to 2.11: a seeded generator
 * (rng), the loads routing gives in closed form (load_closed_forms) and simulated
 * (routing_simulation), what a scale-up domain holds (rack_capacity) and the routed
 * scaling law (routed_scaling). test_moe.c's main() runs them after 2.1 to 2.6, in one
 * binary; its header says where the expected values come from and lists the published
 * inputs (DeepSeek-V3's routing, GB200 NVL72 and H100 HBM, SplitMix64's outputs).
 *
 * The routing simulation is random, so its tests hold it to the closed forms of §2.7
 * (Routing is random) within five standard errors.
 */
#include "../test_util.h"

#include "expected.h"
#include "moe.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* Passes when lo <= actual <= hi; on failure prints what assert_close prints,
 * with the middle of the interval as the expected value. */
#define assert_between(actual, lo, hi, unit)                                          \
    assert_close((actual), ((lo) + (hi)) / 2.0, ((hi) - (lo)) / ((lo) + (hi)), (unit))

/* ---- 2.7 rng ----------------------------------------------------------------- */

/* Vigna's splitmix64.c from state 0: the published first four outputs. */
static void splitmix64_matches_its_published_outputs(void **state)
{
    (void)state;
    uint64_t s = 0;
    assert_int_equal(moe_rng_next(&s), UINT64_C(0xE220A8397B1DCDAF));
    assert_int_equal(moe_rng_next(&s), UINT64_C(0x6E789E6AA1B965F4));
    assert_int_equal(moe_rng_next(&s), UINT64_C(0x06C45D188009454F));
    assert_int_equal(moe_rng_next(&s), UINT64_C(0xF88BB8A8724C81EC));
    assert_int_equal(s, UINT64_C(4) * UINT64_C(0x9E3779B97F4A7C15));
}

/* A fair die: 60,000 rolls stay in [0, 6) and each face comes up 10,000 times give
 * or take 5 standard deviations (sqrt(60,000 x 1/6 x 5/6) = 91). */
static void rng_below_is_in_range_and_uniform(void **state)
{
    (void)state;
    uint64_t s = 12345;
    long face[6] = {0};
    for (int i = 0; i < 60000; i++) {
        uint64_t x = moe_rng_below(&s, 6);
        assert_true(x < 6);
        face[x]++;
    }
    double sd = sqrt(60000 * (1.0 / 6) * (5.0 / 6));
    for (int f = 0; f < 6; f++)
        assert_between((double)face[f], 10000 - 5 * sd, 10000 + 5 * sd, "rolls");
    assert_int_equal(moe_rng_below(&s, 1), 0);
}

/* n = 3 x 2^62: 2^64 mod n = 2^62, so x % n without rejection lands below 2^62 half
 * the time instead of a third (5 sd of 30,000 draws = 0.0136). */
static void rng_below_has_no_modulo_bias(void **state)
{
    (void)state;
    uint64_t s = 7, n = UINT64_C(3) << 62, quarter = UINT64_C(1) << 62;
    long low = 0;
    for (int i = 0; i < 30000; i++)
        low += moe_rng_below(&s, n) < quarter;
    double sd = sqrt(30000 * (1.0 / 3) * (2.0 / 3)) / 30000;
    assert_between(low / 30000.0, 1.0 / 3 - 5 * sd, 1.0 / 3 + 5 * sd, "");
}

/* ---- 2.8 load_closed_forms --------------------------------------------------- */

/* Ten fair coins, counted by hand: P(X > 7) and P(X > 4); and moe.h's edges. */
static void binomial_tail_of_ten_fair_coins(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(10, 0.5, 7), E_TAIL_N10_HALF_GT7, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.5, 4), E_TAIL_N10_HALF_GT4, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.5, -1), 1.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.5, 10), 0.0, TIGHT, "");
}

/* By hand, §2.7 (Routing is random): 4 tokens, 4 experts, 2 each; the expected drop
 * fraction at capacities 2 and 3, and moe.h's ends (0 drops all, the batch none). */
static void expected_drops_of_four_tokens_on_four_experts(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(4, 4, 2, 2), E_DROP_B4_E4_K2_C2, TIGHT, "");
    assert_close(moe_expected_drop_fraction(4, 4, 2, 3), E_DROP_B4_E4_K2_C3, TIGHT, "");
    assert_close(moe_expected_drop_fraction(4, 4, 2, 0), 1.0, TIGHT, "");
    assert_close(moe_expected_drop_fraction(4, 4, 2, 4), 0.0, TIGHT, "");
}

/* The same case: the smallest capacity under 20%, 5% and 1% drops. */
static void capacity_for_a_drop_target_is_the_smallest_that_meets_it(void **state)
{
    (void)state;
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.20), E_CAP_B4_E4_K2_DROP20);
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.05), E_CAP_B4_E4_K2_DROP5);
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.01), E_CAP_B4_E4_K2_DROP1);
}

/* By hand, §2.7 (Routing is random): 2 tokens, 2 experts, 1 each: both bounds on the
 * busiest expert's expected load and one load's standard deviation; and that
 * deviation for DeepSeek's routing (256 experts, 8 each) at 8,192 tokens. */
static void busiest_expert_bounds_of_two_tokens_on_two_experts(void **state)
{
    (void)state;
    moe_max_bounds m = moe_expected_max_load(2, 2, 1);
    assert_close(m.lower, E_MAX_B2_E2_K1_LOWER, TIGHT, "tokens");
    assert_close(m.upper, E_MAX_B2_E2_K1_UPPER, TIGHT, "tokens");
    assert_close(m.sd, E_MAX_B2_E2_K1_SD, TIGHT, "tokens");
    assert_close(moe_expected_max_load(8192, 256, 8).sd, E_MAX_B8192_E256_K8_SD, TIGHT,
                 "tokens");
}

/* moe.h's edges of the tail: the top value alone, past the top, below zero, p = 0
 * and p = 1, no trials. */
static void binomial_tail_at_its_edges(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(10, 0.25, 9), E_TAIL_N10_QUARTER_GT9, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.25, 10), 0.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.25, 1000), 0.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.25, -5), 1.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 0.0, 0), 0.0, TIGHT, "");
    assert_close(moe_binomial_tail(10, 1.0, 9), 1.0, TIGHT, "");
    assert_close(moe_binomial_tail(0, 0.5, 0), 0.0, TIGHT, "");
}

/* moe.h's accuracy far in the tail: 100 fair coins, 99 or more heads and all 100
 * (about 1e-28 and 1e-30). */
static void a_tail_of_1e_minus_30_is_accurate(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(100, 0.5, 99), E_TAIL_N100_HALF_GT99, 1e-9, "");
    assert_close(moe_binomial_tail(100, 0.5, 98), E_TAIL_N100_HALF_GT98, 1e-9, "");
}

/* moe.h: with top_k = experts every expert receives every token. 10 tokens at
 * capacities 7, 10 and 25; the capacity for 1% of 100 tokens (strictly below) and
 * for 1.01%. */
static void dense_routing_drops_and_capacity(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(10, 4, 4, 7), E_DROP_DENSE_B10_C7, TIGHT, "");
    assert_close(moe_expected_drop_fraction(10, 4, 4, 10), 0.0, TIGHT, "");
    assert_close(moe_expected_drop_fraction(10, 4, 4, 25), 0.0, TIGHT, "");
    assert_int_equal(moe_capacity_for_drop(100, 4, 4, 0.01), E_CAP_DENSE_B100_DROP1);
    assert_int_equal(moe_capacity_for_drop(100, 4, 4, 0.0101), E_CAP_DENSE_B100_DROP101);
}

/* moe.h's "strictly below", on the hand case above: a target equal to capacity 2's
 * expected drops, and one a hair above them. */
static void a_drop_equal_to_the_target_is_not_enough(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(4, 4, 2, 2), E_DROP_B4_E4_K2_C2, TIGHT, "");
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, E_DROP_B4_E4_K2_C2),
                     E_CAP_B4_E4_K2_AT_C2_DROPS);
    assert_int_equal(moe_capacity_for_drop(4, 4, 2, 0.1876), E_CAP_B4_E4_K2_JUST_ABOVE);
}

/* moe.h: with top_k = experts both bounds are the batch. */
static void dense_routing_makes_both_bounds_the_batch(void **state)
{
    (void)state;
    moe_max_bounds m = moe_expected_max_load(5, 3, 3);
    assert_close(m.lower, 5.0, TIGHT, "tokens");
    assert_close(m.upper, 5.0, TIGHT, "tokens");
}


/* ---- 2.9 routing_simulation -------------------------------------------------- */

/* moe.h: each token adds 1 to k different experts: loads sum to B k, and with k = E
 * every expert gets every token. */
static void each_token_visits_k_distinct_experts(void **state)
{
    (void)state;
    uint64_t s = 1;
    int load[256];
    moe_route_batch(&s, 1000, 256, 8, load);
    long sum = 0;
    for (int j = 0; j < 256; j++) {
        assert_true(load[j] >= 0 && load[j] <= 1000);
        sum += load[j];
    }
    assert_int_equal(sum, 1000 * 8);
    moe_route_batch(&s, 300, 16, 16, load);
    for (int j = 0; j < 16; j++)
        assert_int_equal(load[j], 300);
}

/* Every expert equally likely: with E = 4, k = 2, over 40 batches of 10,000 each
 * expert's mean load is 5,000 (§2.6 (Tokens per expert)) within 5 standard errors
 * (one load's sd, §2.7 (Routing is random), over sqrt(40)). */
static void every_expert_is_equally_likely(void **state)
{
    (void)state;
    uint64_t s = 2;
    int load[4];
    double sum[4] = {0};
    for (int t = 0; t < 40; t++) {
        moe_route_batch(&s, 10000, 4, 2, load);
        for (int j = 0; j < 4; j++)
            sum[j] += load[j];
    }
    double se = E_SIM_LOAD_SD_B10000_E4_K2 / sqrt(40);
    for (int j = 0; j < 4; j++)
        assert_between(sum[j] / 40, 5000 - 5 * se, 5000 + 5 * se, "tokens");
}

/* §2.7 (Routing is random): one expert's load at 100 tokens, 4 experts, 2 each, has
 * the variance that section derives; over 4,000 batches, within 5 standard errors
 * of a sample variance (var x sqrt(2 / 3999) each). Picking with replacement gives
 * a variance half as large again. */
static void one_experts_load_has_the_variance_of_2_7(void **state)
{
    (void)state;
    uint64_t s = 3;
    int load[4];
    double sum = 0, sum2 = 0;
    const int trials = 4000;
    for (int run = 0; run < trials; run++) {
        moe_route_batch(&s, 100, 4, 2, load);
        sum += load[0];
        sum2 += (double)load[0] * load[0];
    }
    double mean = sum / trials, var = (sum2 - trials * mean * mean) / (trials - 1);
    double want = E_SIM_LOAD_VAR_B100_E4_K2, tol = want * 5 * sqrt(2.0 / (trials - 1));
    assert_between(var, want - tol, want + tol, "tokens^2");
}

/* DeepSeek's routing at B = 4,096 (mean 128): the busiest expert's mean load lies
 * between the bounds of §2.7 (Routing is random), give or take 5 standard errors
 * (a load's sd over sqrt(400 trials) bounds the max's). */
static void busiest_expert_lies_between_the_closed_form_bounds(void **state)
{
    (void)state;
    moe_imbalance m = moe_simulate(42, 256, 8, 4096, 400, 1.0);
    assert_true(m.ok);
    assert_close(m.mean_load, 128.0, TIGHT, "tokens");
    double se = E_SIM_LOAD_SD_B4096 / sqrt(400);
    assert_between(m.max_load_over_mean, (E_SIM_MAX_LOWER_B4096 - 5 * se) / 128,
                   (E_SIM_MAX_UPPER_B4096 + 5 * se) / 128, "x");
}

/* Drops at capacity factor 1 (capacity 128) match the exact expectation of §2.7
 * (Routing is random) within 3% (5 standard errors); the simulated 1% capacity is
 * the exact one, +-1 token. */
static void simulated_drops_match_the_binomial_expectation(void **state)
{
    (void)state;
    moe_imbalance m = moe_simulate(7, 256, 8, 4096, 400, 1.0);
    assert_true(m.ok);
    assert_int_equal(m.capacity, 128);
    assert_close(m.drop_fraction, E_SIM_DROP_B4096_C128, 0.03, "");
    double c99 = E_SIM_CAP_1PCT_B4096;
    assert_between(m.capacity_factor_p99, (c99 - 1) / 128, (c99 + 1) / 128, "x");
}

/* A seeded generator repeats itself: the same seed, the same loads; another seed,
 * other loads. */
static void the_same_seed_gives_the_same_routing(void **state)
{
    (void)state;
    int a[256], b[256], c[256];
    uint64_t s1 = 99, s2 = 99, s3 = 100;
    moe_route_batch(&s1, 2048, 256, 8, a);
    moe_route_batch(&s2, 2048, 256, 8, b);
    moe_route_batch(&s3, 2048, 256, 8, c);
    int same = 1, differ = 0;
    for (int j = 0; j < 256; j++) {
        same &= a[j] == b[j];
        differ |= a[j] != c[j];
    }
    assert_true(same);
    assert_true(differ);
    moe_imbalance x = moe_simulate(5, 256, 8, 1024, 20, 1.25);
    moe_imbalance y = moe_simulate(5, 256, 8, 1024, 20, 1.25);
    assert_close(x.max_load_over_mean, y.max_load_over_mean, 0.0, "x");
}

/* The law of large numbers: the busiest expert's excess over the mean shrinks as
 * the batch grows; at 65,536 tokens (mean 2,048) it lies between the bounds of §2.7
 * (Routing is random), give or take 5 standard errors. */
static void imbalance_shrinks_as_the_batch_grows(void **state)
{
    (void)state;
    moe_imbalance small = moe_simulate(11, 256, 8, 256, 200, 1.0);
    moe_imbalance large = moe_simulate(11, 256, 8, 65536, 20, 1.0);
    assert_true(small.max_load_over_mean > large.max_load_over_mean);
    double se = E_SIM_LOAD_SD_B65536 / sqrt(20);
    assert_between(large.max_load_over_mean, (E_SIM_MAX_LOWER_B65536 - 5 * se) / 2048,
                   (E_SIM_MAX_UPPER_B65536 + 5 * se) / 2048, "x");
}
/* moe.h: load has exactly `experts` entries; they are zeroed first, whatever they
 * held, and no other element is touched (the guards past the end keep their value). */
static void routing_writes_exactly_the_experts_loads(void **state)
{
    (void)state;
    int load[10];
    for (int j = 0; j < 10; j++)
        load[j] = 12345;
    uint64_t s = 4;
    moe_route_batch(&s, 0, 8, 2, load);
    for (int j = 0; j < 8; j++)
        assert_int_equal(load[j], 0);
    assert_int_equal(load[8], 12345);
    assert_int_equal(load[9], 12345);
    moe_route_batch(&s, 50, 8, 8, load);
    for (int j = 0; j < 8; j++)
        assert_int_equal(load[j], 50);
    assert_int_equal(load[8], 12345);
}

/* moe.h's rounding rule: 16 experts, 8 per token, 200 tokens: a mean load of 100.
 * 1.15 x 100 is 114.99999999999999 in doubles and 0.29 x 100 is 28.999999999999996,
 * but the capacities are 115 and 29 tokens. Factor 0 drops every assignment; a
 * factor of 10 is capped at the batch, 200, and drops none. */
static void capacity_rounds_the_factor_times_the_mean_down_forgivingly(void **state)
{
    (void)state;
    assert_int_equal(moe_simulate(1, 16, 8, 200, 2, 1.15).capacity, 115);
    assert_int_equal(moe_simulate(1, 16, 8, 200, 2, 0.29).capacity, 29);
    moe_imbalance zero = moe_simulate(1, 16, 8, 200, 2, 0.0);
    assert_int_equal(zero.capacity, 0);
    assert_close(zero.drop_fraction, 1.0, TIGHT, "");
    moe_imbalance big = moe_simulate(1, 16, 8, 200, 2, 10.0);
    assert_int_equal(big.capacity, 200);
    assert_close(big.drop_fraction, 0.0, TIGHT, "");
}

/* Dense routing: every load is the batch, 100, and so is the busiest; a capacity of
 * 99 drops exactly 1% of the assignments, not fewer, so the 1% capacity is 100, a
 * factor of 1.00. */
static void dense_routing_needs_every_token_of_capacity_for_1_percent(void **state)
{
    (void)state;
    moe_imbalance m = moe_simulate(9, 4, 4, 100, 3, 1.0);
    assert_true(m.ok);
    assert_close(m.mean_load, 100.0, TIGHT, "tokens");
    assert_close(m.max_load_over_mean, 1.0, TIGHT, "x");
    assert_int_equal(m.capacity, 100);
    assert_close(m.drop_fraction, 0.0, TIGHT, "");
    assert_close(m.capacity_factor_p99, 1.0, TIGHT, "x");
}



/* ---- 2.10 rack_capacity ------------------------------------------------------ */

/* The lecture at 44:58: 8 Hoppers hold 8 x 80 GB = 640 GB; a GB200 NVL72 72 x 186 GB. */
static void hopper_tray_holds_640_gb_and_an_nvl72_13_tb(void **state)
{
    (void)state;
    assert_close(moe_domain_hbm_bytes(8, 80e9), 640e9, TIGHT, "B");
    assert_close(moe_domain_hbm_bytes(72, 186e9), 13.392e12, TIGHT, "B");
}

/* §2.8 (Why a rack is the unit): the largest fp4 model a GB200 NVL72 holds with no
 * context, and beside its batch's caches of 4,096 tokens of DeepSeek-V3's MLA cache
 * (37e9 active, r = 312.5): parameters, sparsity, batch and the caches' bytes. */
static void largest_model_on_an_nvl72_with_and_without_context(void **state)
{
    (void)state;
    double h = 72 * 186e9, r = 312.5;
    moe_largest bare = moe_largest_model(h, 0.5, r, 0, 35136.0, 37e9);
    assert_true(bare.exists);
    assert_close(bare.params_total, E_NVL72_FP4_PARAMS_NO_CONTEXT, TIGHT, "params");
    moe_largest kv = moe_largest_model(h, 0.5, r, 4096, 35136.0, 37e9);
    assert_true(kv.exists);
    assert_close(kv.params_total, E_NVL72_FP4_PARAMS_L4096, TIGHT, "params");
    assert_close(kv.sparsity, E_NVL72_FP4_SPARSITY_L4096, TIGHT, "");
    assert_close(kv.batch, E_NVL72_FP4_BATCH_L4096, TIGHT, "sequences");
    assert_close(kv.kv_bytes, E_NVL72_FP4_KV_BYTES_L4096, TIGHT, "B");
}

/* moe.h's no-answer rule: 8 x 80 GB cannot hold N_active = 400e9 in bf16, and can
 * hold 300e9. */
static void no_model_fits_when_even_the_active_part_overflows(void **state)
{
    (void)state;
    assert_false(moe_largest_model(640e9, 2.0, 295, 0, 0, 400e9).exists);
    assert_true(moe_largest_model(640e9, 2.0, 295, 0, 0, 300e9).exists);
}

/* moe.h's boundary: with no context, HBM of exactly N_active x bytes holds the model
 * with nothing to spare, sparsity 1 and the batch r; one byte less holds nothing,
 * and then every number is 0. */
static void a_domain_exactly_full_of_active_weights_is_an_answer(void **state)
{
    (void)state;
    moe_largest m = moe_largest_model(2e9, 1.0, 295, 0, 0, 2e9);
    assert_true(m.exists);
    assert_close(m.params_total, 2e9, TIGHT, "params");
    assert_close(m.sparsity, 1.0, TIGHT, "");
    assert_close(m.batch, 295.0, TIGHT, "sequences");
    moe_largest none = moe_largest_model(2e9 - 1, 1.0, 295, 0, 0, 2e9);
    assert_false(none.exists);
    assert_close(none.params_total, 0.0, TIGHT, "params");
    assert_close(none.sparsity, 0.0, TIGHT, "");
    assert_close(none.batch, 0.0, TIGHT, "sequences");
    assert_close(none.kv_bytes, 0.0, TIGHT, "B");
}

/* ---- 2.11 routed_scaling ----------------------------------------------------- */

/* The lecture at 27:40 (Clark et al. 2022): 64 experts at 370M active ~ a dense 1.3B; the
 * cube root of 64 is 4, so 370M x 4 = 1.48e9, within 15% of 1.3e9. */
static void sixty_four_experts_at_370m_match_about_a_dense_1_3b(void **state)
{
    (void)state;
    assert_close(moe_dense_equivalent_params(370e6, 64), 370e6 * 4, TIGHT, "params");
    assert_close(moe_dense_equivalent_params(370e6, 64), 1.3e9, 0.15, "params");
    assert_close(moe_dense_equivalent_params(1e9, 1), 1e9, TIGHT, "params");
}

/* The lecture at 27:40: halving active parameters at equal quality costs 8x the experts. */
static void halving_active_parameters_costs_8x_the_experts(void **state)
{
    (void)state;
    assert_close(moe_expert_multiplier(0.5), 8.0, TIGHT, "x");
    assert_close(moe_expert_multiplier(0.25), 64.0, TIGHT, "x");
    assert_close(moe_expert_multiplier(1.0), 1.0, TIGHT, "x");
}

CHALK_PART(routing) = {
    CHALK_TEST(rng, splitmix64_matches_its_published_outputs),
    CHALK_TEST(rng, rng_below_is_in_range_and_uniform),
    CHALK_TEST(rng, rng_below_has_no_modulo_bias),
    CHALK_TEST(load_closed_forms, binomial_tail_of_ten_fair_coins),
    CHALK_TEST(load_closed_forms, expected_drops_of_four_tokens_on_four_experts),
    CHALK_TEST(load_closed_forms, capacity_for_a_drop_target_is_the_smallest_that_meets_it),
    CHALK_TEST(load_closed_forms, busiest_expert_bounds_of_two_tokens_on_two_experts),
    CHALK_TEST(load_closed_forms, binomial_tail_at_its_edges),
    CHALK_TEST(load_closed_forms, a_tail_of_1e_minus_30_is_accurate),
    CHALK_TEST(load_closed_forms, dense_routing_drops_and_capacity),
    CHALK_TEST(load_closed_forms, a_drop_equal_to_the_target_is_not_enough),
    CHALK_TEST(load_closed_forms, dense_routing_makes_both_bounds_the_batch),
    CHALK_TEST(routing_simulation, each_token_visits_k_distinct_experts),
    CHALK_TEST(routing_simulation, every_expert_is_equally_likely),
    CHALK_TEST(routing_simulation, one_experts_load_has_the_variance_of_2_7),
    CHALK_TEST(routing_simulation, busiest_expert_lies_between_the_closed_form_bounds),
    CHALK_TEST(routing_simulation, simulated_drops_match_the_binomial_expectation),
    CHALK_TEST(routing_simulation, the_same_seed_gives_the_same_routing),
    CHALK_TEST(routing_simulation, imbalance_shrinks_as_the_batch_grows),
    CHALK_TEST(routing_simulation, routing_writes_exactly_the_experts_loads),
    CHALK_TEST(routing_simulation, capacity_rounds_the_factor_times_the_mean_down_forgivingly),
    CHALK_TEST(routing_simulation, dense_routing_needs_every_token_of_capacity_for_1_percent),
    CHALK_TEST(rack_capacity, hopper_tray_holds_640_gb_and_an_nvl72_13_tb),
    CHALK_TEST(rack_capacity, largest_model_on_an_nvl72_with_and_without_context),
    CHALK_TEST(rack_capacity, no_model_fits_when_even_the_active_part_overflows),
    CHALK_TEST(rack_capacity, a_domain_exactly_full_of_active_weights_is_an_answer),
    CHALK_TEST(routed_scaling, sixty_four_experts_at_370m_match_about_a_dense_1_3b),
    CHALK_TEST(routed_scaling, halving_active_parameters_costs_8x_the_experts),
};
CHALK_PART_END(routing);
