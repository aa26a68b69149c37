/*
 * test_moe_hidden.c -- Chapter 2 instructor-only tests, run by `make grade` beside
 * the public tests and never shipped in a handout. They check the same contract
 * (exercises/02-moe/moe.h) on other models, chips and cases than the public tests,
 * so an answer shaped to the public tests' inputs does not pass. Expected values
 * are closed forms with published inputs, never program output.
 *
 * Published inputs:
 *   Qwen3-235B-A22B  d_model 4,096; 128 experts, 8 per token, width 1,536; 94
 *                    layers, all MoE, no shared expert (config.json); 235e9 total,
 *                    22e9 active (Qwen3 technical report)
 *   GLM-4.5          160 routed experts + 1 shared (config.json)
 *   Mixtral 8x7B     d_model 4,096; 8 experts, 2 per token; 32 layers; 46.7e9
 *                    total, 12.9e9 active (Mistral AI)
 *   H100 SXM         989e12 bf16, 1,979e12 fp8 FLOP/s; 3.35e12 B/s; NVLink 4
 *                    450e9 B/s each way; 400 Gb/s NIC (scaling book gpus.md)
 *   GB200 NVL72      10e15 fp4 FLOP/s; NVLink 5 900e9 B/s each way (NVIDIA)
 *   TPU v5p          8,960 chips of 96e9 B in a pod (scaling book tpus.md)
 *   GB300 NVL72      72 GPUs of 288e9 B HBM3e (NVIDIA)
 */
#include "../../test_util.h"

#include "moe.h"

#define TIGHT 1e-9

#define assert_between(actual, lo, hi, unit)                                          \
    assert_close((actual), ((lo) + (hi)) / 2.0, ((hi) - (lo)) / ((lo) + (hi)), (unit))

/* Mixtral 8x7B in bf16 on one 8-GPU H100 node, activations in bf16. */
static moe_deploy mixtral_on_h100x8(void)
{
    moe_deploy d = {
        .params_total = 46.7e9, .params_active = 12.9e9, .bytes_per_param = 2.0,
        .kv_bytes_per_token = 2.0 * 32 * 8 * 128 * 2, .d_model = 4096, .moe_layers = 32,
        .experts = 8, .top_k = 2, .act_bytes = 2.0, .gpus = 8, .racks = 1,
        .flops_per_s = 989e12, .hbm_bytes_per_s = 3.35e12,
        .scaleup_bytes_per_s = 450e9, .scaleout_bytes_per_s = 50e9,
    };
    return d;
}

/* Qwen3-235B: 128 experts of 3 x 4,096 x 1,536 and a 4,096 x 128 router per layer;
 * over 94 layers the 120 idle experts are the published 235e9 - 22e9. */
static void qwen3_layer_and_its_idle_experts(void **state)
{
    (void)state;
    moe_shape s = {.d_model = 4096, .d_ff = 1536, .experts = 128, .top_k = 8};
    moe_layer_count c = moe_layer_params(&s);
    double expert = 3.0 * 4096 * 1536, router = 4096.0 * 128;
    assert_close(c.total, 128 * expert + router, TIGHT, "params");
    assert_close(c.active, 8 * expert + router, TIGHT, "params");
    assert_close(94 * (c.total - c.active), 235e9 - 22e9, 0.005, "params");
}

/* GLM-4.5's 160 experts on an NVL72 use 40 GPUs; Qwen3's 128 use 64 (2 each, and
 * ceil(128 / 72) = 2 as well); Mixtral's 8 fill an H100 node; 128 experts on a
 * 256-chip TPU v5e pod leave half the chips without experts. */
static void placements_of_other_models(void **state)
{
    (void)state;
    moe_placement glm = moe_place_experts(160, 72);
    assert_int_equal(glm.gpus_used, 40);
    assert_int_equal(glm.gpus_idle, 32);
    moe_placement qwen = moe_place_experts(128, 72);
    assert_int_equal(qwen.gpus_used, 64);
    assert_int_equal(qwen.experts_per_gpu, 2);
    assert_int_equal(qwen.busiest_if_all, 2);
    moe_placement mixtral = moe_place_experts(8, 8);
    assert_int_equal(mixtral.gpus_used, 8);
    assert_int_equal(mixtral.experts_per_gpu, 1);
    assert_int_equal(mixtral.gpus_idle, 0);
    moe_placement pod = moe_place_experts(128, 256);
    assert_int_equal(pod.gpus_used, 128);
    assert_int_equal(pod.gpus_idle, 128);
    assert_int_equal(pod.busiest_if_all, 1);
}

/* Qwen3 in bf16: 2 x 8 x 4,096 x 2 = 131,072 bytes per token per layer; with 40 GPUs
 * 39 copies in 40 leave home. */
static void qwen3_token_bytes_and_remote_share(void **state)
{
    (void)state;
    assert_close(moe_a2a_bytes_per_token(4096, 8, 2.0), 131072.0, TIGHT, "B");
    assert_close(moe_a2a_remote_fraction(40), 39.0 / 40, TIGHT, "");
}

/* Mixtral on 8 H100s: the three roofs by their closed forms; network over compute
 * 32 x 2 x 2 x 4,096 x 2 x 989e12 / (2 x 12.9e9 x 450e9) = 0.089: compute binds. */
static void mixtral_on_h100_roofs_and_compute_bound_knee(void **state)
{
    (void)state;
    moe_deploy d = mixtral_on_h100x8();
    moe_step s = moe_step_at(&d, 4000, 512);
    assert_close(s.compute_s, 4000 * 2 * 12.9e9 / (8 * 989e12), TIGHT, "s");
    assert_close(s.memory_s, (46.7e9 * 2 + 4000 * 512 * 131072.0) / (8 * 3.35e12), TIGHT, "s");
    assert_close(s.a2a_s, 4000 * 32 * 2.0 * 2 * 4096 * 2 / (8 * 450e9), TIGHT, "s");
    double ratio = 32 * 2.0 * 2 * 4096 * 2 * 989e12 / (2 * 12.9e9 * 450e9);
    assert_close(moe_network_over_compute(&d), ratio, TIGHT, "x");
    moe_knee k = moe_knee_batch(&d, 0);
    assert_true(k.exists);
    assert_int_equal(k.after, MOE_BOUND_COMPUTE);
    assert_close(k.batch, 46.7e9 * 2 / 3.35e12 / (2 * 12.9e9 / 989e12), TIGHT, "sequences");
}

/* Qwen3 on 64 GB200 GPUs, fp4 math but bf16 activations on NVLink: network over
 * compute = 94 x 131,072 x 10e15 / (2 x 22e9 x 900e9) = 3.1, so past the knee the
 * network binds. */
static void qwen3_with_bf16_activations_is_network_bound(void **state)
{
    (void)state;
    moe_deploy d = {
        .params_total = 235e9, .params_active = 22e9, .bytes_per_param = 0.5,
        .kv_bytes_per_token = 0, .d_model = 4096, .moe_layers = 94, .experts = 128,
        .top_k = 8, .act_bytes = 2.0, .gpus = 64, .racks = 1, .flops_per_s = 10e15,
        .hbm_bytes_per_s = 8e12, .scaleup_bytes_per_s = 900e9, .scaleout_bytes_per_s = 50e9,
    };
    double ratio = 94 * 131072.0 * 10e15 / (2 * 22e9 * 900e9);
    assert_close(moe_network_over_compute(&d), ratio, TIGHT, "x");
    moe_knee k = moe_knee_batch(&d, 0);
    assert_int_equal(k.after, MOE_BOUND_NETWORK);
    double a = 94 * 131072.0 / (64 * 900e9);
    assert_close(k.batch, 235e9 * 0.5 / (64 * 8e12) / a, TIGHT, "sequences");
    assert_int_equal(moe_step_at(&d, 10000, 0).bound, MOE_BOUND_NETWORK);
    assert_int_equal(moe_step_at(&d, 100, 0).bound, MOE_BOUND_MEMORY);
}

/* Three racks with a 10x slower link: 2/3 cross, max(1/3, 20/3) overlapped and
 * 1/3 + 20/3 = 7 serial; H100 nodes (450 / 50 = 9x) over two: 4.5 and 5. */
static void three_racks_and_hopper_nodes(void **state)
{
    (void)state;
    moe_racks three = moe_span_racks(3, 1000e9, 100e9);
    assert_close(three.cross_fraction, 2.0 / 3, TIGHT, "");
    assert_close(three.slowdown_overlap, 20.0 / 3, TIGHT, "x");
    assert_close(three.slowdown_serial, 7.0, TIGHT, "x");
    moe_racks h100 = moe_span_racks(2, 450e9, 50e9);
    assert_close(h100.slowdown_overlap, 4.5, TIGHT, "x");
    assert_close(h100.slowdown_serial, 5.0, TIGHT, "x");
}

/* The links, by the closed forms of §2.5 (Two racks): H100 nodes (NVLink 450e9 B/s) over
 * two racks at 4.5x overlapped, W_up / (2 x 4.5), and at 5x serial, W_up / (2 x 5 - 1):
 * both the H100's own 50e9 B/s NIC; the lecture's two racks at 4x over NVLink 800e9:
 * 100e9 (and the lecture's slowdowns themselves); three racks at 1/3 overlapped, 2 W_up, and serial, no answer; one rack at 2x
 * serial, no link needed. */
static void links_for_hopper_nodes_and_the_lectures_racks(void **state)
{
    (void)state;
    moe_link h = moe_scaleout_for_slowdown(2, 450e9, 4.5, false);
    assert_true(h.exists);
    assert_close(h.scaleout_bytes_per_s, 50e9, TIGHT, "B/s");
    moe_link hs = moe_scaleout_for_slowdown(2, 450e9, 5.0, true);
    assert_true(hs.exists);
    assert_close(hs.scaleout_bytes_per_s, 50e9, TIGHT, "B/s");
    assert_close(moe_scaleout_for_slowdown(2, 800e9, 4.0, false).scaleout_bytes_per_s, 100e9,
                 TIGHT, "B/s");
    moe_racks lec = moe_span_racks(2, 800e9, 100e9); /* the lecture's 4x, 4.5x serial */
    assert_close(lec.slowdown_overlap, 4.0, TIGHT, "x");
    assert_close(lec.slowdown_serial, 4.5, TIGHT, "x");
    moe_link third = moe_scaleout_for_slowdown(3, 900e9, 1.0 / 3, false);
    assert_true(third.exists);
    assert_close(third.scaleout_bytes_per_s, 1800e9, TIGHT, "B/s");
    assert_false(moe_scaleout_for_slowdown(3, 900e9, 1.0 / 3, true).exists);
    /* moe.h's rounding rule where the closed form lands an ulp above the target: two
     * racks, W_up 900e9, 0.77 overlapped, W_up / (2 x 0.77), and 1.43 serial,
     * W_up / (2 x 1.43 - 1); moe_span_racks gives the targets back to 1e-9 */
    moe_link ulp_o = moe_scaleout_for_slowdown(2, 900e9, 0.77, false);
    assert_true(ulp_o.exists);
    assert_close(ulp_o.scaleout_bytes_per_s, 900e9 / 1.54, TIGHT, "B/s");
    assert_close(moe_span_racks(2, 900e9, ulp_o.scaleout_bytes_per_s).slowdown_overlap, 0.77,
                 TIGHT, "x");
    moe_link ulp_s = moe_scaleout_for_slowdown(2, 900e9, 1.43, true);
    assert_true(ulp_s.exists);
    assert_close(ulp_s.scaleout_bytes_per_s, 900e9 / 1.86, TIGHT, "B/s");
    assert_close(moe_span_racks(2, 900e9, ulp_s.scaleout_bytes_per_s).slowdown_serial, 1.43,
                 TIGHT, "x");
    /* the boundary in doubles: 1.0 / 49 on 49 racks has an answer overlapped (48 W_up,
     * to rounding), none serial */
    moe_link r49 = moe_scaleout_for_slowdown(49, 900e9, 1.0 / 49, false);
    assert_true(r49.exists);
    assert_close(r49.scaleout_bytes_per_s, 48 * 900e9, TIGHT, "B/s");
    assert_false(moe_scaleout_for_slowdown(49, 900e9, 1.0 / 49, true).exists);
    moe_link one = moe_scaleout_for_slowdown(1, 900e9, 2.0, true);
    assert_true(one.exists);
    assert_close(one.scaleout_bytes_per_s, 0.0, TIGHT, "B/s");
}

/* H100 in fp8: r = 1,979e12 / 2 x 1 / 3.35e12 = 295.4; Qwen3 (E/k = 16) needs 4,726
 * sequences; Mixtral in bf16 (r = 295.2, E/k = 4) needs 1,181. */
static void expert_batches_on_hopper(void **state)
{
    (void)state;
    double r8 = 1979e12 / 2 * 1.0 / 3.35e12, r16 = 989e12 / 2 * 2.0 / 3.35e12;
    assert_close(moe_min_batch(r8, 128, 8), r8 * 16, TIGHT, "sequences");
    assert_close(moe_min_batch(r16, 8, 2), r16 * 4, TIGHT, "sequences");
    assert_close(moe_tokens_per_expert(4726, 128, 8), 4726.0 / 16, TIGHT, "tokens");
}

/* n = 5 x 2^61: 2^64 mod n = 3 x 2^61, so plain x % n falls below 3 x 2^61 three
 * times in four instead of 3/5 of the time; a ten-sided die stays in range and is
 * fair. */
static void rng_below_is_fair_for_other_ranges(void **state)
{
    (void)state;
    uint64_t s = 2024, n = UINT64_C(5) << 61, cut = UINT64_C(3) << 61;
    long low = 0;
    for (int i = 0; i < 20000; i++)
        low += moe_rng_below(&s, n) < cut;
    double sd = sqrt(20000 * 0.6 * 0.4) / 20000;
    assert_between(low / 20000.0, 0.6 - 5 * sd, 0.6 + 5 * sd, "");
    long face[10] = {0};
    for (int i = 0; i < 50000; i++) {
        uint64_t x = moe_rng_below(&s, 10);
        assert_true(x < 10);
        face[x]++;
    }
    double fsd = sqrt(50000 * 0.1 * 0.9);
    for (int f = 0; f < 10; f++)
        assert_between((double)face[f], 5000 - 5 * fsd, 5000 + 5 * fsd, "rolls");
}

/* By hand, 3 tokens over 3 experts, 1 each: X ~ Binomial(3, 1/3) = 8, 12, 6, 1 / 27.
 * P(X > 1) = 7/27; capacity 1 drops E[(X - 1)+] = 8/27 per expert (all 3 of 3
 * assignments: 8/27), capacity 2 drops 1/27, so 10% needs capacity 2. Exact
 * E[max] = (3 x 3 + 6 x 1 + 18 x 2) / 27 = 51/27, which the upper bound
 * 1 + 7/9 + 1/9 meets and the lower bound stays under. */
static void three_tokens_in_three_experts_by_hand(void **state)
{
    (void)state;
    assert_close(moe_binomial_tail(3, 1.0 / 3, 1), 7.0 / 27, TIGHT, "");
    assert_close(moe_expected_drop_fraction(3, 3, 1, 1), 8.0 / 27, TIGHT, "");
    assert_close(moe_expected_drop_fraction(3, 3, 1, 2), 1.0 / 27, TIGHT, "");
    assert_int_equal(moe_capacity_for_drop(3, 3, 1, 0.10), 2);
    moe_max_bounds m = moe_expected_max_load(3, 3, 1);
    assert_close(m.upper, 51.0 / 27, TIGHT, "tokens");
    double t0 = 19.0 / 27, t1 = 7.0 / 27, t2 = 1.0 / 27;
    double lower = 3 - pow(1 - t0, 3) - pow(1 - t1, 3) - pow(1 - t2, 3);
    assert_close(m.lower, lower, TIGHT, "tokens");
    assert_true(m.lower < 51.0 / 27);
}

/* Mixtral's routing (E = 8, k = 2): a load is Binomial(100, 1/4), variance 18.75;
 * with replacement it would be Binomial(200, 1/8), 21.9. */
static void mixtral_loads_have_binomial_variance(void **state)
{
    (void)state;
    uint64_t s = 8;
    int load[8];
    double sum = 0, sum2 = 0;
    const int trials = 4000;
    for (int run = 0; run < trials; run++) {
        moe_route_batch(&s, 100, 8, 2, load);
        long total = 0;
        for (int j = 0; j < 8; j++)
            total += load[j];
        assert_int_equal(total, 200);
        sum += load[5];
        sum2 += (double)load[5] * load[5];
    }
    double mean = sum / trials, var = (sum2 - trials * mean * mean) / (trials - 1);
    double tol = 18.75 * 5 * sqrt(2.0 / (trials - 1));
    assert_between(var, 18.75 - tol, 18.75 + tol, "tokens^2");
}

/* The closed forms the simulation is held to, computed here (not by the reader's
 * exercise 2.8, whose mistakes or slowness would otherwise show up as a failed or
 * hung simulation test): one expert's load is Binomial(n, p), p = k / E. */
static double ref_pmf(int n, double p, int x)
{
    return exp(lgamma(n + 1.0) - lgamma(x + 1.0) - lgamma(n - x + 1.0) + x * log(p) +
               (n - x) * log1p(-p));
}

/* Expected drops over all n k assignments at capacity c: E E[(X - c)+] / (n k). */
static double ref_drop_fraction(int n, int experts, int k, int c)
{
    double p = (double)k / experts, excess = 0.0;
    for (int x = n; x > c; x--)
        excess += (x - c) * ref_pmf(n, p, x);
    return experts * excess / ((double)n * k);
}

/* The smallest capacity whose expected drops are strictly below max_drop (drops
 * fall as the capacity grows: bisection). */
static int ref_capacity_for_drop(int n, int experts, int k, double max_drop)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (ref_drop_fraction(n, experts, k, mid) < max_drop)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* E[max] = sum over c of P(max > c), bounded below as if the loads were
 * independent, 1 - (1 - P(X > c))^E, and above by the union bound min(1, E P(X > c)). */
static void ref_max_bounds(int n, int experts, int k, double *lower, double *upper)
{
    double p = (double)k / experts, tail = 0.0;
    *lower = *upper = 0.0;
    for (int c = n - 1; c >= 0; c--) {
        tail = fmin(1.0, tail + ref_pmf(n, p, c + 1));
        *lower += -expm1(experts * log1p(-tail));
        *upper += fmin(1.0, experts * tail);
    }
}

/* Qwen3's routing at B = 2,048 (mean 128): the busiest expert within the bounds,
 * and drops at capacity factor 1.25 (capacity 160) near their exact expectation. */
static void qwen3_busiest_expert_and_drops(void **state)
{
    (void)state;
    moe_imbalance m = moe_simulate(314, 128, 8, 2048, 400, 1.25);
    assert_true(m.ok);
    assert_int_equal(m.capacity, 160);
    double lower, upper;
    ref_max_bounds(2048, 128, 8, &lower, &upper);
    double se = sqrt(128.0 * 15 / 16) / sqrt(400);
    assert_between(m.max_load_over_mean, (lower - 5 * se) / 128, (upper + 5 * se) / 128,
                   "x");
    double c99 = ref_capacity_for_drop(2048, 128, 8, 0.01);
    assert_between(m.capacity_factor_p99, (c99 - 1) / 128, (c99 + 1) / 128, "x");
    moe_imbalance one = moe_simulate(315, 128, 8, 2048, 400, 1.0);
    assert_close(one.drop_fraction, ref_drop_fraction(2048, 128, 8, 128), 0.03, "");
}

/* Scaling book: a v5p pod holds 8,960 x 96 GB = 860 TB; a GB300 NVL72 72 x 288 GB.
 * A dense 70B in bf16 whose balance batch (r = 295) holds 8k-token caches of
 * 327,680 B/token cannot fit 8 H100s: the KV alone is 11 bytes per parameter. */
static void pods_racks_and_a_dense_model_that_does_not_fit(void **state)
{
    (void)state;
    assert_close(moe_domain_hbm_bytes(8960, 96e9), 860.16e12, TIGHT, "B");
    assert_close(moe_domain_hbm_bytes(72, 288e9), 20.736e12, TIGHT, "B");
    assert_false(moe_largest_model(640e9, 2.0, 295, 8192, 327680.0, 70e9).exists);
    moe_largest short_ctx = moe_largest_model(640e9, 2.0, 295, 512, 327680.0, 70e9);
    double n = 640e9 / (2.0 + 295 / 70e9 * 512 * 327680.0);
    assert_true(short_ctx.exists);
    assert_close(short_ctx.params_total, n, TIGHT, "params");
}

/* The cube-root law: 8 experts double the dense equivalent; a third of the active
 * parameters needs 27x the experts. */
static void cube_root_law_at_other_points(void **state)
{
    (void)state;
    assert_close(moe_dense_equivalent_params(1e9, 8), 2e9, TIGHT, "params");
    assert_close(moe_expert_multiplier(1.0 / 3), 27.0, TIGHT, "x");
}

/* ---- edges, on other inputs ------------------------------------------------ */

/* One expert on one chip; 12 experts on a 10-chip tray use 6 (not 10, not 8). */
static void placements_at_the_smallest_and_odd_sizes(void **state)
{
    (void)state;
    moe_placement one = moe_place_experts(1, 1);
    assert_int_equal(one.gpus_used, 1);
    assert_int_equal(one.experts_per_gpu, 1);
    assert_int_equal(one.gpus_idle, 0);
    moe_placement twelve = moe_place_experts(12, 10);
    assert_int_equal(twelve.gpus_used, 6);
    assert_int_equal(twelve.experts_per_gpu, 2);
    assert_int_equal(twelve.busiest_if_all, 2);
}

/* Powers of two again, other numbers: per sequence 2 s of compute (2 x 2 / 2),
 * 2 s of all-to-all (2 layers x 2 x 1 x 1 x 0.5 B at 1 B/s), weights 8 s. At B = 4
 * all three tie at 8 s: COMPUTE. The slopes tie too: the knee is 8 / 2 = 4 at no
 * context, after COMPUTE; a KV slope of exactly 2 s (context 2) leaves no knee. */
static void other_exact_ties(void **state)
{
    (void)state;
    moe_deploy d = {
        .params_total = 8, .params_active = 2, .bytes_per_param = 1,
        .kv_bytes_per_token = 1, .d_model = 1, .moe_layers = 2, .experts = 4,
        .top_k = 1, .act_bytes = 0.5, .gpus = 1, .racks = 1, .flops_per_s = 2,
        .hbm_bytes_per_s = 1, .scaleup_bytes_per_s = 1, .scaleout_bytes_per_s = 1,
    };
    moe_step s = moe_step_at(&d, 4, 0);
    assert_close(s.step_s, 8.0, TIGHT, "s");
    assert_roof(s.bound, MOE_BOUND_COMPUTE);
    moe_knee k = moe_knee_batch(&d, 0);
    assert_true(k.exists);
    assert_int_equal(k.after, MOE_BOUND_COMPUTE);
    assert_close(k.batch, 4.0, TIGHT, "sequences");
    assert_false(moe_knee_batch(&d, 2).exists);
}

/* Dense routing on other sizes: 7 tokens each to all 3 experts, capacity 5 drops
 * 2/7; the capacity for 10% drops is 7 (capacity 6 drops 1/7 = 14%). */
static void dense_routing_on_other_sizes(void **state)
{
    (void)state;
    assert_close(moe_expected_drop_fraction(7, 3, 3, 5), 2.0 / 7, TIGHT, "");
    assert_int_equal(moe_capacity_for_drop(7, 3, 3, 0.10), 7);
    assert_close(moe_binomial_tail(7, 1.0, 6), 1.0, TIGHT, "");
    moe_max_bounds m = moe_expected_max_load(7, 3, 3);
    assert_close(m.lower, 7.0, TIGHT, "tokens");
    assert_close(m.upper, 7.0, TIGHT, "tokens");
}

/* The rounding rule on other numbers: 8 experts, 2 a token, 400 tokens: a mean of
 * 100; 0.57 x 100 = 56.99999999999999 in doubles, a capacity of 57 tokens. */
static void capacity_rounding_on_other_numbers(void **state)
{
    (void)state;
    assert_int_equal(moe_simulate(3, 8, 2, 400, 1, 0.57).capacity, 57);
}

/* Mixtral 8x7B in bf16 (46.7e9, 12.9e9) on H100s of 80 GB (989e12 FLOP/s,
 * 3.35e12 B/s, 450e9 B/s NVLink), no context, $2 a GPU-hour, a 50 ms step. The
 * 93.4 GB of weights need 2 GPUs; on 2 they take 13.9 ms and the batch is
 * floor(50 ms / (2 x 12.9e9 / (2 x 989e12))) = 3,833, compute-bound (the network
 * adds 32 x 32,768 B / (2 x 450e9) = 1.2e-6 s a sequence, the compute 1.3e-5).
 * Compute-bound costs the least any layout can, p / 3600 x 2 N_active / F. */
static void mixtral_on_hopper_at_50_ms_needs_2_gpus(void **state)
{
    (void)state;
    moe_layout_query q = {
        .model = mixtral_on_h100x8(), .context_tokens = 0, .hbm_bytes = 80e9,
        .domain_chips = 8, .max_racks = 1, .usd_per_gpu_hour = 2.0,
        .max_step_s = 0.050,
    };
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.gpus_per_rack, 2);
    assert_int_equal(l.experts_per_gpu, 4);
    assert_close(l.batch, floor(0.050 / (2 * 12.9e9 / (2 * 989e12))), 1e-12, "sequences");
    assert_roof(l.step.bound, MOE_BOUND_COMPUTE);
    assert_close(l.usd_per_token, 2.0 / 3600 * 2 * 12.9e9 / 989e12, 1e-12, "USD");
}

/* DeepSeek-V3 (671e9, 37e9; fp4 MLA cache 17,568 B a token) on GB200 GPUs at 8,192
 * tokens of context and a 20 ms step: every layout is memory-bound, a token then
 * costs p / 3600 x (beta N_total / B + L b_kv) / W_HBM, falling as B grows, and B
 * grows with the GPUs: the most a rack splits 256 experts over, 64, at
 * B = floor((20 ms - W) / kv) with W and kv the weights' and one cache's time on 64
 * GPUs (below the HBM's 80,383 and the compute's 172,972). */
static void deepseek_at_long_context_fills_the_rack(void **state)
{
    (void)state;
    moe_deploy m = {
        .params_total = 671e9, .params_active = 37e9, .bytes_per_param = 0.5,
        .kv_bytes_per_token = 17568.0, .d_model = 7168, .moe_layers = 58,
        .experts = 256, .top_k = 8, .act_bytes = 0.5, .flops_per_s = 10e15,
        .hbm_bytes_per_s = 8e12, .scaleup_bytes_per_s = 900e9,
        .scaleout_bytes_per_s = 50e9,
    };
    moe_layout_query q = {
        .model = m, .context_tokens = 8192, .hbm_bytes = 186e9, .domain_chips = 72,
        .max_racks = 1, .usd_per_gpu_hour = 2.0, .max_step_s = 0.020,
    };
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.gpus_per_rack, 64);
    assert_roof(l.step.bound, MOE_BOUND_MEMORY);
    double w = 671e9 * 0.5 / (64 * 8e12), kv = 8192 * 17568.0 / (64 * 8e12);
    assert_close(l.batch, floor((0.020 - w) / kv), 1e-12, "sequences");
}

/* moe.h's cap: 1 active parameter at 1e15 FLOP/s adds 2e-15 s a sequence, so a
 * 100 s target would allow 5e16 sequences; the batch stops at 2^53. */
static void the_batch_stops_at_2_to_the_53(void **state)
{
    (void)state;
    moe_layout_query q = {
        .model = {
            .params_total = 1, .params_active = 1, .bytes_per_param = 1,
            .kv_bytes_per_token = 0, .d_model = 1, .moe_layers = 0, .experts = 1,
            .top_k = 1, .act_bytes = 1, .flops_per_s = 1e15, .hbm_bytes_per_s = 1e12,
            .scaleup_bytes_per_s = 1e12, .scaleout_bytes_per_s = 1e12,
        },
        .context_tokens = 0, .hbm_bytes = 1e9, .domain_chips = 1, .max_racks = 1,
        .usd_per_gpu_hour = 1.0, .max_step_s = 100,
    };
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_close(l.batch, 9007199254740992.0, 0.0, "sequences");
}

/* 7 experts (prime) and racks of 8 GPUs: only 1 or 7 GPUs hold them evenly, and 7
 * racks of 1; with weights that need 7 GPUs the answer is one rack of 7, a tie on
 * GPUs with 7 racks broken by racks. */
static void a_prime_expert_count_leaves_few_layouts(void **state)
{
    (void)state;
    moe_layout_query q = {
        .model = {
            .params_total = 0x1p33, .params_active = 0x1p30, .bytes_per_param = 1,
            .kv_bytes_per_token = 0, .d_model = 1024, .moe_layers = 1, .experts = 7,
            .top_k = 2, .act_bytes = 1, .flops_per_s = 0x1p40,
            .hbm_bytes_per_s = 0x1p36, .scaleup_bytes_per_s = 0x1p36,
            .scaleout_bytes_per_s = 0x1p36,
        },
        .context_tokens = 0, .hbm_bytes = 0x1p30 * 1.25, .domain_chips = 8,
        .max_racks = 7, .usd_per_gpu_hour = 3.6, .max_step_s = 0x1p-3,
    };
    moe_layout l = moe_cheapest_layout(&q);
    assert_true(l.exists);
    assert_int_equal(l.racks, 1);
    assert_int_equal(l.gpus_per_rack, 7);
    assert_int_equal(l.experts_per_gpu, 1);
}

/* No layout: DeepSeek's 335.5 GB of fp4 weights on GPUs of 16 GB, two racks of 8
 * at most, 256 GB in all. */
static void no_layout_when_no_layout_holds_the_weights(void **state)
{
    (void)state;
    moe_layout_query q = {
        .model = mixtral_on_h100x8(), .context_tokens = 0, .hbm_bytes = 16e9,
        .domain_chips = 8, .max_racks = 2, .usd_per_gpu_hour = 2.0,
        .max_step_s = 1.0,
    };
    q.model.params_total = 671e9;
    q.model.bytes_per_param = 0.5;
    moe_layout l = moe_cheapest_layout(&q);
    assert_false(l.exists);
    assert_int_equal(l.why, MOE_LAYOUT_NONE_FITS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(expert_params, qwen3_layer_and_its_idle_experts),
        CHALK_TEST(expert_placement, placements_of_other_models),
        CHALK_TEST(a2a_bytes, qwen3_token_bytes_and_remote_share),
        CHALK_TEST(three_roofs, mixtral_on_h100_roofs_and_compute_bound_knee),
        CHALK_TEST(three_roofs, qwen3_with_bf16_activations_is_network_bound),
        CHALK_TEST(two_racks, three_racks_and_hopper_nodes),
        CHALK_TEST(two_racks, links_for_hopper_nodes_and_the_lectures_racks),
        CHALK_TEST(expert_batch, expert_batches_on_hopper),
        CHALK_TEST(rng, rng_below_is_fair_for_other_ranges),
        CHALK_TEST(load_closed_forms, three_tokens_in_three_experts_by_hand),
        CHALK_TEST(routing_simulation, mixtral_loads_have_binomial_variance),
        CHALK_TEST(routing_simulation, qwen3_busiest_expert_and_drops),
        CHALK_TEST(rack_capacity, pods_racks_and_a_dense_model_that_does_not_fit),
        CHALK_TEST(routed_scaling, cube_root_law_at_other_points),
        CHALK_TEST(expert_placement, placements_at_the_smallest_and_odd_sizes),
        CHALK_TEST(three_roofs, other_exact_ties),
        CHALK_TEST(load_closed_forms, dense_routing_on_other_sizes),
        CHALK_TEST(routing_simulation, capacity_rounding_on_other_numbers),
        CHALK_TEST(cheapest_layout, mixtral_on_hopper_at_50_ms_needs_2_gpus),
        CHALK_TEST(cheapest_layout, deepseek_at_long_context_fills_the_rack),
        CHALK_TEST(cheapest_layout, the_batch_stops_at_2_to_the_53),
        CHALK_TEST(cheapest_layout, a_prime_expert_count_leaves_few_layouts),
        CHALK_TEST(cheapest_layout, no_layout_when_no_layout_holds_the_weights),
    };
    return cmocka_run_group_tests_name("02-moe hidden", tests, NULL, NULL);
}
