/*
 * test_batching.c -- Chapter 1 tests, first part: one decode step and what it costs
 * (exercises 1.1 to 1.6, §1.2 (The roofline of one decode step) to §1.5.1 (With the
 * KV term: when there is no balance batch)), the fixtures every part shares, and main(), which runs both parts.
 * test_batching_serving.c holds the second part: a server's schedule, the caps on
 * its batch, fast mode, the cheapest deployment and how far sparsity can go
 * (exercises 1.7 to 1.11). The build links every .c file of tests/01-batching/ into one binary (tests/test_util.h,
 * "The registry").
 *
 * Built twice: against exercises/01-batching/batching.c (yours) and against
 * the reference solution (in the instructor's copy). Each test states one fact;
 * the comment above it names where the expected value comes from. Expected values
 * come from closed forms with published inputs, never copied from output; where
 * deriving the formula is the exercise (two and three stars), the value is an E_ name
 * of expected.h, derived in the instructor's copy with its source named there.
 *
 * Published inputs used below:
 *   DeepSeek-V3   671e9 total, 37e9 active parameters (DeepSeek-V3 README);
 *                 MLA cache 70,272 bytes/token in bf16 (config_671B.json:
 *                 61 layers x (512 + 64) x 2 bytes)
 *   Llama 3 70B   70.6e9 parameters; KV 2 x 80 layers x 8 heads x 128 x 2 bytes
 *                 = 327,680 bytes/token in bf16 (config.json)
 *   GB200 NVL72   72 GPUs, 10e15 dense fp4 FLOP/s, 8e12 B/s, 186e9 B per GPU (NVIDIA)
 *   DeepSeek-V3   256 routed experts per MoE layer, 8 chosen per token (config_671B.json)
 *   H100 SXM      989e12 dense bf16 FLOP/s (1,979 with sparsity), 3.35e12 B/s, 80e9 B
 *                 (NVIDIA H100 Tensor Core GPU datasheet)
 *   B200          9e15 dense fp4 FLOP/s, 8e12 B/s (NVIDIA HGX B200 datasheet)
 *   A100 SXM      312e12 bf16 FLOP/s, 2.039e12 B/s (NVIDIA A100 datasheet)
 *   Prices        H100 $4.25 per GPU-hour (CoreWeave, 2024-02-07, as in lib/hw.c);
 *                 the lecture's $2 per GPU-hour for the GB200
 * (test_batching_serving.c lists the inputs only its tests use.)
 */
#include "../test_util.h"

#include "batching.h"
#include "expected.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* The fixtures test_batching_serving.c shares (fixtures.h declares them). */
#include "fixtures.h"

/* A step's bound by name, for assert_named: "compute", "memory", or the number. */
static const char *bound_name(int bound)
{
    static char other[24];
    if (bound == COST_BOUND_COMPUTE || bound == COST_BOUND_MEMORY)
        return cost_bound_name((cost_bound)bound);
    snprintf(other, sizeof other, "%d (no bound)", bound);
    return other;
}

/* DeepSeek-V3 with fp4 weights and arithmetic on a GB200 NVL72 rack, at the lecture's
 * $2/GPU-hour. Its MLA cache is in bf16 (70,272 bytes/token), unlike the chapter's
 * running example, which keeps the cache in fp4: the contexts at which this fixture
 * has a balance batch are not the chapter's. */
batching_deploy deepseek_on_nvl72(void)
{
    batching_deploy d = {
        .params_total = 671e9, .params_active = 37e9, .bytes_per_param = 0.5,
        .kv_bytes_per_token = 70272.0, .chips = 72, .flops_per_s = 10e15,
        .hbm_bytes_per_s = 8e12, .hbm_bytes = 186e9, .usd_per_chip_hour = 2.0,
        .experts_routed = 256, .experts_per_token = 8,
    };
    return d;
}

/* Llama 3 70B in bf16 on one 8-GPU H100 node. */
batching_deploy llama70b_on_h100x8(void)
{
    batching_deploy d = {
        .params_total = 70.6e9, .params_active = 70.6e9, .bytes_per_param = 2.0,
        .kv_bytes_per_token = 2.0 * 80 * 8 * 128 * 2, .chips = 8,
        .flops_per_s = 989e12, .hbm_bytes_per_s = 3.35e12, .hbm_bytes = 80e9,
        .usd_per_chip_hour = 4.25,
    };
    return d;
}

/* A made-up model and chip whose every figure is a power of two, so that sums and
 * quotients are exact whatever the order of operations: boundaries (a tie, a limit
 * of exactly one sequence) are then exactly on the boundary in every program.
 * By hand from the terms of §1.2 (The roofline of one decode step): compute 2^-21 s
 * per sequence; weights 2^-10 s; KV T x 2^-32 s per sequence at T tokens. */
batching_deploy power_of_two_toy(void)
{
    batching_deploy d = {
        .params_total = 0x1p33, .params_active = 0x1p30, .bytes_per_param = 2.0,
        .kv_bytes_per_token = 0x1p12, .chips = 4, .flops_per_s = 0x1p50,
        .hbm_bytes_per_s = 0x1p42, .hbm_bytes = 0x1p32 + 0x1p20, .usd_per_chip_hour = 1.0,
    };
    return d;
}

/* Per-sequence compute and KV slopes and the weight term, written out. */
double compute_slope(const batching_deploy *d)
{
    return 2.0 * d->params_active / (d->chips * d->flops_per_s);
}
double kv_slope(const batching_deploy *d, double ctx)
{
    return ctx * d->kv_bytes_per_token / (d->chips * d->hbm_bytes_per_s);
}
double weights_term(const batching_deploy *d)
{
    return d->params_total * d->bytes_per_param / (d->chips * d->hbm_bytes_per_s);
}

/* ---- 1.1 roofline_terms ---------------------------------------------------- */

/* Closed form: the compute term of §1.2 (The roofline of one decode step), 2 FLOPs
 * per multiply-accumulate (batching.h). */
static void compute_time_is_batch_times_two_flops_per_active_param(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_close(batching_compute_s(&d, 2400), 2400 * 2.0 * 37e9 / (72 * 10e15), TIGHT,
                 "s");
    assert_close(batching_compute_s(&d, 1), 2.0 * 37e9 / (72 * 10e15), TIGHT, "s");
}

/* Closed form: the weights term of §1.2 (The roofline of one decode step); total,
 * not active, parameters. */
static void weight_fetch_reads_every_parameter_not_just_active_ones(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_close(batching_weights_s(&d), 671e9 * 0.5 / (72 * 8e12), TIGHT, "s");
    d.params_active = 1e9; /* fewer active parameters fetch no fewer weights */
    assert_close(batching_weights_s(&d), 671e9 * 0.5 / (72 * 8e12), TIGHT, "s");
}

/* Closed form: the KV term of §1.2 (The roofline of one decode step). */
static void kv_fetch_grows_with_batch_and_with_context(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    double one = 327680.0 / (8 * 3.35e12); /* one token of context, one sequence */
    assert_close(batching_kv_s(&d, 64, 8192), 64 * 8192 * one, TIGHT, "s");
    assert_close(batching_kv_s(&d, 128, 8192), 2 * 64 * 8192 * one, TIGHT, "s");
    assert_close(batching_kv_s(&d, 64, 32768), 4 * 64 * 8192 * one, TIGHT, "s");
}

/* batching.h: a batch of 0 does no arithmetic and reads no cache, and a context of 0
 * reads no cache at any batch; the weights are read all the same. */
static void an_empty_batch_or_context_costs_no_compute_and_no_kv(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    assert_true(batching_compute_s(&d, 0) == 0.0);
    assert_true(batching_kv_s(&d, 0, 8192) == 0.0);
    assert_true(batching_kv_s(&d, 64, 0) == 0.0);
    assert_close(batching_weights_s(&d), 70.6e9 * 2 / (8 * 3.35e12), TIGHT, "s");
}

/* ---- 1.2 step_time --------------------------------------------------------- */

/* The lecture at 7:55: at tiny batch the weight fetch dominates. */
static void decode_at_batch_1_is_memory_bound(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_step s = batching_step_at(&d, 1, 4096);
    assert_named(s.bound, COST_BOUND_MEMORY, bound_name);
    assert_close(s.step_s, weights_term(&d) + kv_slope(&d, 4096), TIGHT, "s");
    assert_close(s.memory_s, s.weights_s + s.kv_s, TIGHT, "s");
}

/* The lecture at 7:55: past the balance point compute dominates (short context). */
static void decode_at_large_batch_and_short_context_is_compute_bound(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_step s = batching_step_at(&d, 20000, 256);
    assert_named(s.bound, COST_BOUND_COMPUTE, bound_name);
    assert_close(s.step_s, 20000 * compute_slope(&d), TIGHT, "s");
}

/* The lecture at 2:37: the engines overlap, so the step is the max, not the sum. */
static void step_time_is_the_max_of_compute_and_memory_not_their_sum(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    for (double b = 1; b <= 4096; b *= 4) {
        batching_step s = batching_step_at(&d, b, 2048);
        double c = b * compute_slope(&d), m = weights_term(&d) + b * kv_slope(&d, 2048);
        assert_close(s.compute_s, c, TIGHT, "s");
        assert_close(s.step_s, fmax(c, m), TIGHT, "s");
        assert_close(s.mfu, c / fmax(c, m), TIGHT, ""); /* MFU: compute's share of the step */
    }
}

/* A step reads every weight and every cache once, so the memory term at the chips'
 * bandwidth is what HBM holds: 70.6e9 x 2 bytes of weights and 64 caches of 2,048
 * tokens at 327,680 bytes each (Llama 3 70B's GQA: 2 x 80 x 8 x 128 x 2). */
static void a_step_reads_what_hbm_holds(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    batching_step s = batching_step_at(&d, 64, 2048);
    assert_close(s.hbm_bytes, 70.6e9 * 2 + 64.0 * 2048 * 327680, TIGHT, "bytes");
}

/* The lecture at 7:55: the floor is streaming all weights once (§1.3 (Latency against
 * batch)); for Llama 3 70B in bf16 on 8 H100s that is 5.27 ms. */
static void latency_floor_is_one_read_of_all_weights(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    assert_close(batching_latency_floor_s(&d), 70.6e9 * 2 / (8 * 3.35e12), TIGHT, "s");
    for (double b = 1; b <= 1 << 14; b *= 2)
        assert_true(batching_step_at(&d, b, 1000).step_s >= batching_latency_floor_s(&d));
}

/* The lecture at 7:55 and batching.h: the floor streams N_total, every expert, not only the
 * active ones. DeepSeek-V3 in fp4 on 72 GPUs: 0.58 ms. */
static void latency_floor_of_an_moe_reads_every_expert(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_close(batching_latency_floor_s(&d), 671e9 * 0.5 / (72 * 8e12), TIGHT, "s");
}

/* batching.h: the bound compares compute with the memory part, weights and KV. At
 * batch 8,000 and 4k context DeepSeek-V3's compute (0.82 ms) is past the weights
 * (0.58 ms) but far below weights and KV together (4.6 ms): memory-bound. */
static void decode_is_memory_bound_when_kv_outweighs_compute_beyond_the_weights(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    double c = 8000 * compute_slope(&d), tw = weights_term(&d), m = tw + 8000 * kv_slope(&d, 4096);
    assert_true(tw < c && c < m); /* the regime this test is about */
    batching_step s = batching_step_at(&d, 8000, 4096);
    assert_named(s.bound, COST_BOUND_MEMORY, bound_name);
    assert_close(s.step_s, m, TIGHT, "s");
}

/* batching.h: COST_BOUND_COMPUTE when compute_s >= memory_s, so a tie is
 * compute-bound. On the power-of-two toy at 1,024 tokens of context, batch 4,096:
 * compute 4096 x 2^-21 = 2^-9 s; memory 2^-10 + 4096 x 1024 x 2^-32 = 2^-9 s. */
static void a_tie_between_compute_and_memory_counts_as_compute_bound(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    batching_step s = batching_step_at(&d, 4096, 1024);
    assert_true(s.compute_s == 0x1p-9 && s.memory_s == 0x1p-9);
    assert_named(s.bound, COST_BOUND_COMPUTE, bound_name);
    assert_true(s.step_s == 0x1p-9);
}

/* ---- 1.3 experts_fetched -------------------------------------------------- */

/* Definition of N_active: the parameters one token multiplies through, so a batch of
 * one reads exactly those: DeepSeek-V3's 37e9 of 671e9. */
static void one_sequence_reads_exactly_its_active_parameters(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_close(batching_params_fetched(&d, 1), 37e9, TIGHT, "params");
}

/* A dense model's every token multiplies through every weight. */
static void a_dense_model_reads_every_weight_at_every_batch(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    assert_close(batching_params_fetched(&d, 1), 70.6e9, TIGHT, "params");
    assert_close(batching_params_fetched(&d, 1000), 70.6e9, TIGHT, "params");
}

/* A toy MoE of 9 x 2^30 parameters, 3 x 2^30 of them active, whose router picks
 * k = 1 of E = 4 experts, read by batches of 3, 2 and 2.5 (the batch is a real number,
 * batching.h): the values of expected.h, counted by hand. */
static void a_batch_reads_the_experts_some_token_wants(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    d.params_total = 0x1.2p33;  /* 9 x 2^30 */
    d.params_active = 0x1.8p31; /* 3 x 2^30 */
    d.experts_routed = 4;
    d.experts_per_token = 1;
    assert_close(batching_params_fetched(&d, 3), E_FETCHED_TOY_B3, TIGHT, "params");
    assert_close(batching_params_fetched(&d, 2), E_FETCHED_TOY_B2, TIGHT, "params");
    assert_close(batching_params_fetched(&d, 2.5), E_FETCHED_TOY_B2_5, TIGHT, "params");
}

/* A batch of 1,000 leaves fewer than 1e-13 of DeepSeek-V3's experts unread: within
 * TIGHT of all 671e9 parameters. */
static void a_large_batch_reads_nearly_every_expert(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_close(batching_params_fetched(&d, 1000), 671e9, TIGHT, "params");
}

/* DeepSeek-V3's routing (8 of 256 experts a token, config_671B.json) at an idle share
 * of 1%: the smallest batch, derived in the instructor's copy. */
static void deepseek_all_experts_batch_at_one_percent_idle(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_int_equal(batching_all_experts_batch(&d, 0.01), E_ALL_EXPERTS_DEEPSEEK_1PCT);
}

/* batching.h's "at most": with k = 1 of E = 2 experts, idle shares of 1/8 and 1/2
 * are each met exactly by a whole batch, exact in binary (counted by hand): that
 * batch is the answer, not the next one. */
static void an_idle_share_met_exactly_counts_as_met(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    d.experts_routed = 2;
    d.experts_per_token = 1;
    assert_int_equal(batching_all_experts_batch(&d, 0.125), 3);
    assert_int_equal(batching_all_experts_batch(&d, 0.5), 1);
}

/* batching.h's rounding rule: with k = 1 of E = 4, an idle share of 27/64 (a double)
 * is met exactly by a whole batch, though floating point can put the real-valued
 * batch a hair above it; a share a little lower needs one more sequence. */
static void an_idle_share_a_rounding_error_above_a_whole_batch_counts_as_met(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    d.experts_routed = 4;
    d.experts_per_token = 1;
    assert_int_equal(batching_all_experts_batch(&d, 27.0 / 64), E_ALL_EXPERTS_K1_E4_EXACT);
    assert_int_equal(batching_all_experts_batch(&d, 27.0 / 64 * 0.999), E_ALL_EXPERTS_K1_E4_BELOW);
}

/* batching.h's boundary: a router that picks all E experts makes every weight an
 * active one (N_active = N_total); every batch reads N_total and a batch of 1 leaves
 * no expert idle. */
static void routing_to_every_expert_reads_every_weight_from_one_sequence(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    d.params_active = d.params_total;
    d.experts_routed = 8;
    d.experts_per_token = 8;
    assert_close(batching_params_fetched(&d, 1), 0x1p33, TIGHT, "params");
    assert_close(batching_params_fetched(&d, 5), 0x1p33, TIGHT, "params");
    assert_int_equal(batching_all_experts_batch(&d, 0.01), 1);
}

/* ---- 1.4 throughput_cost --------------------------------------------------- */

/* The lecture at 26:10 and §1.4 (Cost against batch): a step gives each sequence one
 * token. */
static void tokens_per_second_is_batch_over_step_time(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    double step = fmax(2000 * compute_slope(&d), weights_term(&d) + 2000 * kv_slope(&d, 8192));
    assert_close(batching_tokens_per_s(&d, 2000, 8192), 2000 / step, TIGHT, "tokens/s");
}

/* The lecture at 12:52: once compute-bound, a system's tokens per second are set by its
 * arithmetic alone, whatever the batch (§1.4 (Cost against batch)): DeepSeek-V3 on 72
 * GPUs at 10e15 FLOP/s, 9.7 million. Batch 20,000 at 256 tokens of context is
 * compute-bound (2.1 ms of compute against 1.2 ms of memory). */
static void tokens_per_second_once_compute_bound_is_chips_times_flops_over_2_n_active(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_true(20000 * compute_slope(&d) > weights_term(&d) + 20000 * kv_slope(&d, 256));
    assert_close(batching_tokens_per_s(&d, 20000, 256), 72 * 10e15 / (2 * 37e9), TIGHT,
                 "tokens/s");
}

/* The lecture at 12:52 and §1.4 (Cost against batch): a token costs the rent of all
 * chips for a step over the tokens the step makes. */
static void cost_per_million_tokens_is_rent_per_step_over_tokens(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    double step = fmax(3000 * compute_slope(&d), weights_term(&d) + 3000 * kv_slope(&d, 8192));
    double expected = 72 * 2.0 * step / 3600.0 / 3000 * 1e6;
    assert_close(batching_usd_per_mtok(&d, 3000, 8192), expected, TIGHT, "USD/Mtok");
}

/* The lecture at 12:52: once compute-bound, cost per token stops falling (the floor). */
static void cost_per_token_flattens_once_compute_bound(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    double floor = 72 * 2.0 * compute_slope(&d) / 3600.0 * 1e6;
    assert_close(batching_usd_per_mtok(&d, 40000, 0), floor, TIGHT, "USD/Mtok");
    assert_close(batching_usd_per_mtok(&d, 80000, 0), floor, TIGHT, "USD/Mtok");
    assert_true(batching_usd_per_mtok(&d, 100, 0) > 10 * floor);
}

/* The lecture at 12:52 ("about 1000x worse"): at batch 1 and no context, a token costs
 * the floor times the balance batch of §1.5 (The balance batch) (DeepSeek-V3 on GB200
 * NVL72). */
static void unbatched_cost_over_floor_equals_the_balance_batch(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    double ratio = batching_usd_per_mtok(&d, 1, 0) / batching_usd_per_mtok(&d, 1e6, 0);
    assert_close(ratio, E_BALANCE_DEEPSEEK_CTX0, TIGHT, "x");
}

/* ---- 1.5 hardware_ratio ---------------------------------------------------- */

/* Scaling book gpus.md: H100's critical intensity in bf16 is 295 (§1.5 (The balance
 * batch)). */
static void h100_bf16_ratio_is_about_295(void **state)
{
    (void)state;
    assert_close(batching_hw_ratio(989e12, 3.35e12, 2.0), 295.0, 0.005, "");
}

/* The lecture at 16:07, checked against the datasheets: B200 in fp4 gives 281;
 * GB200's 10e15 FLOP/s gives 312.5 (§1.5 (The balance batch)). */
static void blackwell_fp4_ratio_is_about_300(void **state)
{
    (void)state;
    assert_close(batching_hw_ratio(9e15, 8e12, 0.5), 9e15 / 2 * 0.5 / 8e12, TIGHT, "");
    assert_close(batching_hw_ratio(10e15, 8e12, 0.5), 312.5, TIGHT, "");
}

/* Lecture open point 4: A100 in bf16 gives ~153, the outlier of "stable ~300". */
static void a100_bf16_ratio_is_about_half_of_300(void **state)
{
    (void)state;
    assert_close(batching_hw_ratio(312e12, 2.039e12, 2.0), 153.0, 0.005, "");
}

/* The lecture at 16:07: DeepSeek "32 of 256 experts", sparsity 8, at a ratio of 300:
 * 2,400 (§1.5 (The balance batch)). */
static void deepseek_balance_batch_is_300_times_8(void **state)
{
    (void)state;
    assert_close(batching_balance_batch_approx(300, 256.0 / 32), 2400, TIGHT, "sequences");
    assert_close(batching_balance_batch_approx(300, 671e9 / 37e9), 300 * 671e9 / 37e9,
                 TIGHT, "sequences");
}

/* ---- 1.6 balance_batch ----------------------------------------------------- */

/* batching.h: at no context, the balance batch of exercise 1.5 (DeepSeek-V3 on GB200
 * NVL72, hardware ratio 312.5). */
static void balance_batch_of_deepseek_at_no_context(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_balance b = batching_balance_batch(&d, 0);
    assert_true(b.exists);
    assert_close(b.batch, E_BALANCE_DEEPSEEK_CTX0, TIGHT, "sequences");
}

/* The lecture at 16:07: adding KV back raises the balance batch (DeepSeek-V3 on GB200 NVL72 at
 * 256 tokens of context). */
static void kv_traffic_raises_the_balance_batch(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    batching_balance b = batching_balance_batch(&d, 256);
    assert_true(b.exists);
    assert_close(b.batch, E_BALANCE_DEEPSEEK_CTX256, TIGHT, "sequences");
    assert_true(b.batch > E_BALANCE_DEEPSEEK_CTX0);
}

/* The lecture at 7:55: past some context no batch is compute-bound. Llama 3 70B on 8 H100s
 * has a balance batch at 1,000 tokens and none at 4,000. */
static void no_balance_batch_for_llama_on_h100s_at_4k_context(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    assert_true(batching_balance_batch(&d, 1000).exists);
    batching_balance b = batching_balance_batch(&d, 4000);
    assert_false(b.exists);
}

/* §1.5.1 (With the KV term: when there is no balance batch): Llama 3 70B on H100s, and a
 * balance batch just below that context, none just above. */
static void max_balanced_context_of_llama_on_h100s(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    double t = E_MAX_CTX_LLAMA_H100;
    assert_close(batching_max_balanced_context_tokens(&d), t, TIGHT, "tokens");
    assert_true(batching_balance_batch(&d, 0.99 * t).exists);
    assert_false(batching_balance_batch(&d, 1.01 * t).exists);
}

/* §1.5.1 (With the KV term: when there is no balance batch) on an MoE: DeepSeek-V3 in fp4
 * on GB200 NVL72. */
static void max_balanced_context_of_deepseek_on_nvl72(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    assert_close(batching_max_balanced_context_tokens(&d), E_MAX_CTX_DEEPSEEK_NVL72, TIGHT,
                 "tokens");
}

/* batching.h: none at exactly the max balanced context. On the power-of-two toy that
 * context is a whole number, exact in every program. */
static void at_exactly_the_max_balanced_context_there_is_no_balance_batch(void **state)
{
    (void)state;
    batching_deploy d = power_of_two_toy();
    assert_true(batching_max_balanced_context_tokens(&d) == E_MAX_CTX_TOY);
    assert_false(batching_balance_batch(&d, E_MAX_CTX_TOY).exists);
    assert_true(batching_balance_batch(&d, 1024).exists);
}

/* batching.h's rounding rule: a context within a relative 1e-9 of the max balanced
 * context L* counts as L*, and has no balance batch. Llama 3 70B on H100 (awkward
 * decimals): at L* (1 - 1e-12) an exact comparison reports a balance batch of about
 * 3e14 sequences. A relative 1e-6 below L* is outside the rule: there the balance
 * batch exists (to first order in 1e-6). */
static void a_context_a_rounding_error_below_the_max_balanced_context_has_none(void **state)
{
    (void)state;
    batching_deploy d = llama70b_on_h100x8();
    double t = E_MAX_CTX_LLAMA_H100;
    assert_false(batching_balance_batch(&d, t).exists);
    batching_balance b = batching_balance_batch(&d, t * (1 - 1e-12));
    assert_false(b.exists);
    assert_true(b.batch == 0.0);
    b = batching_balance_batch(&d, t * (1 - 1e-6));
    assert_true(b.exists);
    assert_close(b.batch, E_BALANCE_LLAMA_1E6_BELOW, 1e-6, "sequences");
}

/* batching.h: with no KV cache (kv_bytes_per_token 0) there is no max balanced
 * context, and the answer at every context is the balance batch of exercise 1.5.
 * DeepSeek-V3 on GB200 NVL72 with its cache left out, at no context and at 4,096
 * tokens (past the max balanced context of the fixture with its bf16 cache). */
static void with_no_kv_cache_every_context_has_the_balance_batch(void **state)
{
    (void)state;
    batching_deploy d = deepseek_on_nvl72();
    d.kv_bytes_per_token = 0.0;
    double contexts[] = {0.0, 4096.0};
    for (int i = 0; i < 2; i++) {
        batching_balance b = batching_balance_batch(&d, contexts[i]);
        assert_true(b.exists);
        assert_close(b.batch, E_BALANCE_DEEPSEEK_CTX0, TIGHT, "sequences");
    }
}

CHALK_PART(step) = {
    CHALK_TEST(roofline_terms, compute_time_is_batch_times_two_flops_per_active_param),
    CHALK_TEST(roofline_terms, weight_fetch_reads_every_parameter_not_just_active_ones),
    CHALK_TEST(roofline_terms, kv_fetch_grows_with_batch_and_with_context),
    CHALK_TEST(roofline_terms, an_empty_batch_or_context_costs_no_compute_and_no_kv),
    CHALK_TEST(step_time, decode_at_batch_1_is_memory_bound),
    CHALK_TEST(step_time, decode_at_large_batch_and_short_context_is_compute_bound),
    CHALK_TEST(step_time, step_time_is_the_max_of_compute_and_memory_not_their_sum),
    CHALK_TEST(step_time, a_step_reads_what_hbm_holds),
    CHALK_TEST(step_time, latency_floor_is_one_read_of_all_weights),
    CHALK_TEST(step_time, latency_floor_of_an_moe_reads_every_expert),
    CHALK_TEST(step_time, decode_is_memory_bound_when_kv_outweighs_compute_beyond_the_weights),
    CHALK_TEST(step_time, a_tie_between_compute_and_memory_counts_as_compute_bound),
    CHALK_TEST(experts_fetched, one_sequence_reads_exactly_its_active_parameters),
    CHALK_TEST(experts_fetched, a_dense_model_reads_every_weight_at_every_batch),
    CHALK_TEST(experts_fetched, a_batch_reads_the_experts_some_token_wants),
    CHALK_TEST(experts_fetched, a_large_batch_reads_nearly_every_expert),
    CHALK_TEST(experts_fetched, deepseek_all_experts_batch_at_one_percent_idle),
    CHALK_TEST(experts_fetched, an_idle_share_met_exactly_counts_as_met),
    CHALK_TEST(experts_fetched, an_idle_share_a_rounding_error_above_a_whole_batch_counts_as_met),
    CHALK_TEST(experts_fetched, routing_to_every_expert_reads_every_weight_from_one_sequence),
    CHALK_TEST(throughput_cost, tokens_per_second_is_batch_over_step_time),
    CHALK_TEST(throughput_cost, tokens_per_second_once_compute_bound_is_chips_times_flops_over_2_n_active),
    CHALK_TEST(throughput_cost, cost_per_million_tokens_is_rent_per_step_over_tokens),
    CHALK_TEST(throughput_cost, cost_per_token_flattens_once_compute_bound),
    CHALK_TEST(throughput_cost, unbatched_cost_over_floor_equals_the_balance_batch),
    CHALK_TEST(hardware_ratio, h100_bf16_ratio_is_about_295),
    CHALK_TEST(hardware_ratio, blackwell_fp4_ratio_is_about_300),
    CHALK_TEST(hardware_ratio, a100_bf16_ratio_is_about_half_of_300),
    CHALK_TEST(hardware_ratio, deepseek_balance_batch_is_300_times_8),
    CHALK_TEST(balance_batch, balance_batch_of_deepseek_at_no_context),
    CHALK_TEST(balance_batch, kv_traffic_raises_the_balance_batch),
    CHALK_TEST(balance_batch, no_balance_batch_for_llama_on_h100s_at_4k_context),
    CHALK_TEST(balance_batch, max_balanced_context_of_llama_on_h100s),
    CHALK_TEST(balance_batch, max_balanced_context_of_deepseek_on_nvl72),
    CHALK_TEST(balance_batch, at_exactly_the_max_balanced_context_there_is_no_balance_batch),
    CHALK_TEST(balance_batch, a_context_a_rounding_error_below_the_max_balanced_context_has_none),
    CHALK_TEST(balance_batch, with_no_kv_cache_every_context_has_the_balance_batch),
};
CHALK_PART_END(step);

CHALK_PART_DECLARE(serving);

int main(void)
{
    return chalk_run_parts("01-batching", CHALK_PART_REF(step), CHALK_PART_REF(serving));
}
