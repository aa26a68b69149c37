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
 */
#include "../../test_util.h"

#include "batching.h"

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

/* Lecture §1.3: at a batch of 2,000 with no context Mixtral is compute-bound
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

/* Lecture §1.4: USD per million tokens = chips x USD/h x step / 3600 / batch x 1e6. */
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

/* Lecture §1.6 on other chips: TPU v5e 16 GB / 0.819 TB/s = 19.54 ms; H200
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
 * cost per token stay as they were. */
static void fast_mode_without_speedup_changes_nothing(void **state)
{
    (void)state;
    batching_deploy d = mixtral_on_h100x2();
    batching_fast f = batching_fast_mode(&d, 8192, 100, 1.0);
    assert_true(f.possible);
    assert_close(f.batch, 100, 1e-9, "sequences");
    assert_close(f.cost_ratio, 1.0, 1e-9, "x");
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
    };
    return cmocka_run_group_tests_name("01-batching hidden", tests, NULL, NULL);
}
