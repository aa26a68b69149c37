/*
 * test_batching_hidden.c -- Chapter 1 instructor-only tests, run by `make grade`
 * beside the public tests and never shipped in a handout. They check the same
 * contract (exercises/01-batching/batching.h) on other models and chips than the
 * public tests, so an answer shaped to the public tests' inputs does not pass.
 * Expected values are closed forms with published inputs, never program output.
 *
 * Published inputs (figures as in reference/specs.md, with its sources):
 *   Mixtral 8x7B  46.7e9 total, 12.9e9 active parameters (Mistral AI, "Mixtral of
 *                 experts"); KV 2 x 32 layers x 8 KV heads x 128 x 2 bytes
 *                 = 131,072 bytes/token in bf16 (config.json)
 *   H100 SXM      989e12 dense bf16 FLOP/s, 3.35e12 B/s, 80e9 B (NVIDIA H100 datasheet)
 *   H200 SXM      989e12 bf16 FLOP/s, 4.8e12 B/s, 141e9 B (NVIDIA H200 datasheet)
 *   TPU v5e       1.97e14 bf16 FLOP/s, 8.19e11 B/s, 16e9 B (Google Cloud TPU v5e docs)
 *   TPU v5p       4.59e14 bf16 FLOP/s, 2.765e12 B/s (Google Cloud TPU v5p docs)
 *   TPU v5e pod   256 chips of 16e9 B at 8.2e11 B/s, $1.20 per chip-hour (Google Cloud
 *                 list price as in lib/hw.c); A100 SXM 312e12 bf16 FLOP/s, 2.039e12
 *                 B/s, 80e9 B, $2.21; H100 $4.25 (CoreWeave, 2024-02-07, lib/hw.c)
 *   Llama 3 70B   70.6e9 parameters, 327,680 KV bytes per token in bf16 (config.json)
 *   DeepSeek-V3   671e9 / 37e9 parameters, MLA cache 70,272 bytes per token in bf16;
 *                 GB200 NVL72: 72 GPUs of 10e15 fp4 FLOP/s, 8e12 B/s, 186e9 B (NVIDIA),
 *                 at the lecture's $2 per GPU-hour
 */
#include "../../test_util.h"

#include "batching.h"

#include <limits.h>

#define TIGHT 1e-9

/* A step's bound by name, for assert_named: "compute", "memory", or the number. */
static const char *bound_name(int bound)
{
    static char other[24];
    if (bound == COST_BOUND_COMPUTE || bound == COST_BOUND_MEMORY)
        return cost_bound_name((cost_bound)bound);
    snprintf(other, sizeof other, "%d (no bound)", bound);
    return other;
}

/* Mixtral 8x7B in bf16 on two H100s, at $3 per GPU-hour. */
static batching_deploy mixtral_on_h100x2(void)
{
    batching_deploy d = {
        .params_total = 46.7e9, .params_active = 12.9e9, .bytes_per_param = 2.0,
        .kv_bytes_per_token = 2.0 * 32 * 8 * 128 * 2, .chips = 2,
        .flops_per_s = 989e12, .hbm_bytes_per_s = 3.35e12, .hbm_bytes = 80e9,
        .usd_per_chip_hour = 3.0, .experts_routed = 8, .experts_per_token = 2,
    };
    return d;
}

/* Closed forms of the three terms, on an MoE with a GQA cache. */
static void mixtral_terms_on_two_h100s(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    assert_close(batching_compute_s(&d, 64), 64 * 2 * 12.9e9 / (2 * 989e12), TIGHT, "s");
    assert_close(batching_weights_s(&d), 46.7e9 * 2 / (2 * 3.35e12), TIGHT, "s");
    assert_close(batching_kv_s(&d, 64, 4096), 64 * 4096 * 131072.0 / (2 * 3.35e12), TIGHT,
                 "s");
}

/* Lecture 1.3: at a batch of 2,000 with no context Mixtral is compute-bound
 * (2000 x 2 x 12.9e9 / 1.978e15 = 26 ms against 46.7e9 x 2 / 6.7e12 = 14 ms). */
static void mixtral_large_batch_is_compute_bound_small_batch_memory_bound(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    batching_step big = batching_step_at(&d, 2000, 0);
    assert_named(big.bound, COST_BOUND_COMPUTE, bound_name);
    assert_close(big.step_s, 2000 * 2 * 12.9e9 / (2 * 989e12), TIGHT, "s");
    batching_step one = batching_step_at(&d, 1, 1024);
    assert_named(one.bound, COST_BOUND_MEMORY, bound_name);
    assert_close(one.step_s, (46.7e9 * 2 + 1024 * 131072.0) / (2 * 3.35e12), TIGHT, "s");
}

/* Mixtral routes each token to 2 of 8 experts (Mistral AI, "Mixtral of experts"). Its
 * routed weights R satisfy N_total - N_active = R (1 - 2/8), so R = 33.8e9 / 0.75 and
 * the rest D = 46.7e9 - R; two tokens leave an expert idle with probability (3/4)^2,
 * so a batch of 2 reads D + R (1 - 9/16). From 17 sequences on, fewer than 1% of the
 * experts are idle: (3/4)^16 = 1.002%, (3/4)^17 = 0.75%. */
static void mixtral_two_sequences_read_seven_sixteenths_of_its_experts(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    double routed = (46.7e9 - 12.9e9) / 0.75, dense = 46.7e9 - routed;
    assert_close(batching_params_fetched(&d, 1), 12.9e9, TIGHT, "params");
    assert_close(batching_params_fetched(&d, 2), dense + routed * 7.0 / 16, TIGHT, "params");
    assert_int_equal(batching_all_experts_batch(&d, 0.01), 17);
}

/* Lecture 1.4: USD per million tokens = chips x USD/h x step / 3600 / batch x 1e6. */
static void mixtral_cost_per_million_tokens(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    double step = (46.7e9 * 2 + 256 * 2048 * 131072.0) / (2 * 3.35e12); /* memory-bound */
    assert_close(batching_usd_per_mtok(&d, 256, 2048), 2 * 3.0 * step / 3600 / 256 * 1e6,
                 TIGHT, "USD/Mtok");
    assert_close(batching_tokens_per_s(&d, 256, 2048), 256 / step, TIGHT, "tokens/s");
}

/* Google Cloud's TPU pages: 197 TFLOPs over 819 GB/s is 240.5 for TPU v5e, 459 over
 * 2,765 is 166.0 for v5p, in bf16 (2 bytes per weight cancel the halving); H200 has
 * H100's compute and 4.8 TB/s: 989e12 / 4.8e12 = 206. */
static void tpu_and_h200_ratios(void **state)
{
    (void)state;
    assert_close(batching_hw_ratio(1.97e14, 8.19e11, 2.0), 240.5, 0.002, "");
    assert_close(batching_hw_ratio(4.59e14, 2.765e12, 2.0), 166.0, 0.002, "");
    assert_close(batching_hw_ratio(989e12, 4.8e12, 2.0), 989e12 / 4.8e12, TIGHT, "");
}

/* Closed form: with no context the balance batch is ratio x sparsity, here
 * (989e12 / 3.35e12) x (46.7 / 12.9); past 2 N_active BW / (F kv) tokens, none. */
static void mixtral_balance_batch_and_its_context_limit(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    batching_balance b = batching_balance_batch(&d, 0);
    assert_true(b.exists);
    assert_close(b.batch, 989e12 / 3.35e12 * 46.7e9 / 12.9e9, TIGHT, "sequences");
    double t = 2 * 12.9e9 * 3.35e12 / (989e12 * 131072.0);
    assert_close(batching_max_balanced_context_tokens(&d), t, TIGHT, "tokens");
    assert_false(batching_balance_batch(&d, 1.05 * t).exists);
}

/* Lecture 1.6 on other chips: TPU v5e 16 GB / 0.819 TB/s = 19.54 ms; H200
 * 141 GB / 4.8 TB/s = 29.4 ms. Mean latency: half a step's wait, one step's ride. */
static void tpu_v5e_and_h200_drain_times(void **state)
{
    (void)state;
    batching_departures v5e = batching_train_departures(16e9, 8.19e11);
    assert_close(v5e.step_s, 16e9 / 8.19e11, TIGHT, "s");
    assert_close(v5e.step_s, 19.54e-3, 0.001, "s");
    batching_departures h200 = batching_train_departures(141e9, 4.8e12);
    assert_close(h200.mean_latency_s, 1.5 * 141e9 / 4.8e12, TIGHT, "s");
    assert_close(h200.worst_latency_s, 2 * 141e9 / 4.8e12, TIGHT, "s");
}

/* Closed form: floor((2 x 80e9 - 46.7e9 x 2) / (4096 x 131,072)) = floor(124.05). */
static void mixtral_on_two_h100s_fits_124_sequences_of_4k(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    batching_limit l = batching_max_batch_hbm(&d, 4096);
    assert_true(l.exists);
    assert_int_equal(l.batch, 124);
    d.chips = 1; /* 93.4 GB of weights do not fit in one 80 GB H100 */
    assert_false(batching_max_batch_hbm(&d, 4096).exists);
}

/* Definition: a "speedup" of 1 asks for the normal step, so the batch and the
 * cost per token stay as they were: at a large batch, and at a batch that leaves
 * experts unread (Mixtral: 2 of 8 experts a token, so 5 tokens leave (3/4)^5 of them
 * idle), since the step grows strictly with the batch. */
static void fast_mode_without_speedup_changes_nothing(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    const double batches[] = {100, 5};
    for (int i = 0; i < 2; i++) {
        batching_fast f = batching_fast_mode(&d, 8192, batches[i], 1.0);
        assert_true(f.possible);
        assert_close(f.batch, batches[i], 1e-9, "sequences");
        assert_close(f.cost_ratio, 1.0, 1e-9, "x");
    }
}

/* Dense routing, and a zero batch: a router that takes both of two experts makes every
 * weight active; a batch of 0 multiplies nothing. */
static void dense_routing_and_an_empty_batch(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    d.params_active = d.params_total;
    d.experts_routed = d.experts_per_token = 2;
    assert_close(batching_params_fetched(&d, 3), 46.7e9, TIGHT, "params");
    assert_int_equal(batching_all_experts_batch(&d, 0.5), 1);
    assert_true(batching_compute_s(&d, 0) == 0.0);
}

/* The rounding rule on Mixtral: (3/4)^17 is the idle share of a batch of 17 exactly,
 * though ln((3/4)^17) / ln(3/4) is 17.000000000000004 in floating point. */
static void mixtral_idle_share_of_exactly_17_sequences(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    assert_int_equal(batching_all_experts_batch(&d, pow(0.75, 17)), 17);
}

static batching_offer offer(const char *name, double flops, double bw, double hbm,
                            double usd, int chips)
{
    batching_offer o = {name, flops, bw, hbm, usd, chips};
    return o;
}

/* Only a large domain meets a tight target: Llama 3 70B at 1,024 tokens within 5 ms is
 * below the floor of 8 H100s (141.2e9 / 26.8e12 = 5.27 ms) and of 8 A100s; on TPU v5e
 * chips a token reaches its arithmetic (B* = t_w1 / (c1 - kappa1) = 559.9, so 560
 * sequences) once (t_w1 + 560 kappa1) / n <= 5 ms and 560 c1 / n <= 5 ms, i.e. from
 * n = 81 (HBM needs only 21), at 1.2 x 2 x 70.6e9 / 1.97e14 / 3600 x 1e6 USD per Mtok. */
static void a_5_ms_target_is_met_by_81_chips_of_a_tpu_pod(void **state)
{
    (void)state;
    batching_deploy m = mixtral_on_h100x2();
    m.params_total = m.params_active = 70.6e9;
    m.kv_bytes_per_token = 327680.0;
    batching_offer offers[] = {offer("h100", 989e12, 3.35e12, 80e9, 4.25, 8),
                               offer("a100", 312e12, 2.039e12, 80e9, 2.21, 8),
                               offer("tpu-v5e", 1.97e14, 8.2e11, 16e9, 1.2, 256)};
    batching_plan p = batching_cheapest(&m, 1024, 0.005, offers, 3);
    assert_true(p.exists);
    assert_int_equal(p.offer, 2);
    double tw1 = 70.6e9 * 2 / 8.2e11, c1 = 2 * 70.6e9 / 1.97e14;
    double k1 = 1024 * 327680.0 / 8.2e11, b = ceil(tw1 / (c1 - k1));
    assert_int_equal(p.chips, (int)ceil(fmax((tw1 + b * k1) / 0.005, b * c1 / 0.005)));
    assert_int_equal(p.chips, 81);
    assert_true(p.step_s <= 0.005);
    assert_close(p.usd_per_mtok, 1.2 * c1 / 3600 * 1e6, TIGHT, "USD/Mtok");
}

/* Past its balance context (842 tokens with a bf16 cache) DeepSeek-V3 is memory-bound
 * at every batch: each GPU added shares the weight fetch among more caches, so the
 * cheapest deployment is the whole rack, at its largest batch: HBM holds
 * floor((72 x 186e9 - 335.5e9) / (1024 x 70,272)) = 181,456 sequences, a 20 ms step
 * floor((0.02 x 72 x 8e12 - 335.5e9) / (1024 x 70,272)) = 155,429. */
static void deepseek_past_its_balance_context_takes_the_whole_rack(void **state)
{
    (void)state;
    batching_deploy m = mixtral_on_h100x2();
    m.params_total = 671e9;
    m.params_active = 37e9;
    m.bytes_per_param = 0.5;
    m.kv_bytes_per_token = 70272.0;
    batching_offer o = offer("gb200", 10e15, 8e12, 186e9, 2.0, 72);
    batching_plan p = batching_cheapest(&m, 1024, 0.02, &o, 1);
    assert_true(p.exists);
    assert_int_equal(p.chips, 72);
    long b = (long)floor((0.02 * 72 * 8e12 - 335.5e9) / (1024 * 70272.0));
    assert_int_equal(p.batch, b);
    double step = (335.5e9 + b * 1024 * 70272.0) / (72 * 8e12);
    assert_close(p.step_s, step, TIGHT, "s");
    assert_close(p.usd_per_mtok, 72 * 2.0 * step / 3600 / b * 1e6, TIGHT, "USD/Mtok");
}

/* Mixtral on H100s at 256 tokens within 10 ms: the balance batch is 1,735 sequences
 * (t_w1 / (c1 - kappa1)); a token costs its arithmetic from (t_w1 + 1735 kappa1) /
 * 10 ms = 4.53 chips on, so 5 (the A100's arithmetic costs more: 2.21 / 312 against
 * 4.25 / 989 per TFLOP/s); the largest batch on 5 is the smaller of HBM's and the
 * target's. */
static void mixtral_at_short_context_fits_five_h100s(void **state)
{
    (void)state;
    batching_deploy m = mixtral_on_h100x2();
    batching_offer offers[] = {offer("a100", 312e12, 2.039e12, 80e9, 2.21, 8),
                               offer("h100", 989e12, 3.35e12, 80e9, 4.25, 8)};
    batching_plan p = batching_cheapest(&m, 256, 0.01, offers, 2);
    assert_true(p.exists);
    assert_int_equal(p.offer, 1);
    assert_int_equal(p.chips, 5);
    double tw = 46.7e9 * 2 / (5 * 3.35e12), c = 2 * 12.9e9 / (5 * 989e12);
    double kappa = 256 * 131072.0 / (5 * 3.35e12);
    long by_hbm = (long)floor((5 * 80e9 - 93.4e9) / (256 * 131072.0));
    long by_step = (long)floor(fmin(0.01 / c, (0.01 - tw) / kappa));
    assert_int_equal(p.batch, by_hbm < by_step ? by_hbm : by_step);
    assert_close(p.usd_per_mtok, 4.25 * 2 * 12.9e9 / 989e12 / 3600 * 1e6, TIGHT, "USD/Mtok");
}

/* Three offers of 2^31 - 1 chips each (a scan of every chip count is 6.4e9 deployments,
 * minutes, where a run has 2 s): Mixtral at 256 tokens within 1 ms. Below the balance
 * context each offer's least cost is its arithmetic, p c1 per token, and the H100's
 * (4.25 / 989e12) is the least; its fewest chips reach ceil(B*) = 1,735 sequences
 * under all three limits: (t_w1 + 1735 kappa1) / 1 ms = 45.26 and 1735 c1 / 1 ms =
 * 45.26 chips, so 46; the largest batch on 46 the least of the three limits. */
static void three_offers_of_int_max_chips_within_1_ms(void **state)
{
    (void)state;
    batching_deploy m = mixtral_on_h100x2();
    batching_offer offers[] = {offer("a100", 312e12, 2.039e12, 80e9, 2.21, INT_MAX),
                               offer("tpu-v5e", 1.97e14, 8.2e11, 16e9, 1.2, INT_MAX),
                               offer("h100", 989e12, 3.35e12, 80e9, 4.25, INT_MAX)};
    batching_plan p = batching_cheapest(&m, 256, 1e-3, offers, 3);
    assert_true(p.exists);
    assert_int_equal(p.offer, 2);
    double tw1 = 46.7e9 * 2 / 3.35e12, c1 = 2 * 12.9e9 / 989e12, k1 = 256 * 131072.0 / 3.35e12;
    double b = ceil(tw1 / (c1 - k1));
    int n = (int)ceil(fmax((46.7e9 * 2 + b * 256 * 131072.0) / 80e9,
                           fmax((tw1 + b * k1) / 1e-3, b * c1 / 1e-3)));
    assert_int_equal(p.chips, n);
    assert_int_equal(p.chips, 46);
    double by_hbm = floor((n * 80e9 - 93.4e9) / (256 * 131072.0));
    double by_step = floor(fmin(n * 1e-3 / c1, (n * 1e-3 - tw1) / k1));
    assert_int_equal(p.batch, (long)fmin(by_hbm, by_step));
    assert_true(p.step_s <= 1e-3);
    assert_close(p.usd_per_mtok, 4.25 * c1 / 3600 * 1e6, TIGHT, "USD/Mtok");
}

/* §1.8 (How far can sparsity go?): at sparsity s the weights s beta N_active and the
 * caches of a balance batch s B*(1) both grow as s; where they fill HBM the balance
 * step is the drain time C / W_BW, so the batch is n C F / (2 N_active W_BW), and
 * s_max = n C (1 - L / L*) / (beta N_active). Mixtral's 12.9e9 active parameters on two
 * H100s (L* = 2 x 12.9e9 x 3.35e12 / (989e12 x 131,072) = 667 tokens) at 512 tokens. */
static void mixtral_active_parameters_on_two_h100s_at_512_tokens(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    double lstar = 2 * 12.9e9 * 3.35e12 / (989e12 * 131072.0);
    batching_sparsity s = batching_max_sparsity(&d, 512);
    assert_true(s.exists);
    assert_close(s.sparsity, 2 * 80e9 * (1 - 512 / lstar) / (2 * 12.9e9), TIGHT, "");
    assert_close(s.batch, 2 * 80e9 * 989e12 / (2 * 12.9e9 * 3.35e12), TIGHT, "sequences");
    /* at 640 tokens the dense model's caches overflow: (1 - 640 / 667) x 6.2 < 1 */
    assert_false(batching_max_sparsity(&d, 640).exists);
    assert_false(batching_max_sparsity(&d, 700).exists); /* past L* */
}

/* Without a KV cache only the weights bound the sparsity, at any context, and the
 * balance batch is r s (§1.5 (The balance batch)). */
static void mixtral_without_a_cache_is_bound_by_its_weights_alone(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    d.kv_bytes_per_token = 0.0;
    d.params_total = 1e12; /* not read */
    batching_sparsity s = batching_max_sparsity(&d, 4096);
    assert_true(s.exists);
    assert_close(s.sparsity, 2 * 80e9 / (2 * 12.9e9), TIGHT, "");
    assert_close(s.batch, 989e12 / 3.35e12 * 2 * 80e9 / (2 * 12.9e9), TIGHT, "sequences");
}

/* DeepSeek-V3's 37e9 active parameters in fp4 with its 70,272-byte cache on a GB200
 * NVL72 (72 x 186e9 B, 10e15 FLOP/s, 8e12 B/s) at 256 tokens; L* = 842 tokens. */
static void deepseek_active_parameters_on_nvl72_at_256_tokens(void **state)
{
    (void)state;
    batching_deploy d = {
        .params_total = 671e9, .params_active = 37e9, .bytes_per_param = 0.5,
        .kv_bytes_per_token = 70272.0, .chips = 72, .flops_per_s = 10e15,
        .hbm_bytes_per_s = 8e12, .hbm_bytes = 186e9, .usd_per_chip_hour = 2.0,
        .experts_routed = 256, .experts_per_token = 8,
    };
    double lstar = 2 * 37e9 * 8e12 / (10e15 * 70272.0);
    batching_sparsity s = batching_max_sparsity(&d, 256);
    assert_true(s.exists);
    assert_close(s.sparsity, 72 * 186e9 * (1 - 256 / lstar) / (0.5 * 37e9), TIGHT, "");
    assert_close(s.batch, 72 * 186e9 * 10e15 / (2 * 37e9 * 8e12), TIGHT, "sequences");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(roofline_terms, mixtral_terms_on_two_h100s),
        CHALK_TEST(step_time, mixtral_large_batch_is_compute_bound_small_batch_memory_bound),
        CHALK_TEST(experts_fetched, mixtral_two_sequences_read_seven_sixteenths_of_its_experts),
        CHALK_TEST(throughput_cost, mixtral_cost_per_million_tokens),
        CHALK_TEST(hardware_ratio, tpu_and_h200_ratios),
        CHALK_TEST(balance_batch, mixtral_balance_batch_and_its_context_limit),
        CHALK_TEST(train_departures, tpu_v5e_and_h200_drain_times),
        CHALK_TEST(batch_limits, mixtral_on_two_h100s_fits_124_sequences_of_4k),
        CHALK_TEST(fast_mode, fast_mode_without_speedup_changes_nothing),
        CHALK_TEST(experts_fetched, dense_routing_and_an_empty_batch),
        CHALK_TEST(experts_fetched, mixtral_idle_share_of_exactly_17_sequences),
        CHALK_TEST(cheapest, a_5_ms_target_is_met_by_81_chips_of_a_tpu_pod),
        CHALK_TEST(cheapest, deepseek_past_its_balance_context_takes_the_whole_rack),
        CHALK_TEST(cheapest, mixtral_at_short_context_fits_five_h100s),
        CHALK_TEST(cheapest, three_offers_of_int_max_chips_within_1_ms),
        CHALK_TEST(max_sparsity, mixtral_active_parameters_on_two_h100s_at_512_tokens),
        CHALK_TEST(max_sparsity, mixtral_without_a_cache_is_bound_by_its_weights_alone),
        CHALK_TEST(max_sparsity, deepseek_active_parameters_on_nvl72_at_256_tokens),
    };
    return cmocka_run_group_tests_name("01-batching hidden", tests, NULL, NULL);
}
