/*
 * test_01_batching.c -- chapter 1's commands (decode, balance-batch, departures,
 * max-batch, fast-mode), tested from the outside as readers use them.
 *
 * Sources:
 *   lecture  Reiner Pope's blackboard lecture, sections as in reference/lecture-notes.md
 *   DS       the vendor's datasheet (NVIDIA H100: 989 TFLOPS dense bf16, 3.35 TB/s; the
 *            GB200 NVL72 page: 10 PFLOPS dense fp4, 8 TB/s and 186 GB per GPU); model
 *            configs as cited in lib/model.c (DeepSeek-V3: 8 of 256 routed experts)
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- lecture figures, from flags alone ------------------------------------------------ */

/* lecture 1.6: Rubin reads its 288 GB of HBM at 20 TB/s in 288e9 / 20e12 = 14.4 ms; a
 * model whose weights fill that HBM has this as its latency floor. */
static void decode_json_reproduces_rubin_drain_time_from_flags_alone(void **state)
{
    (void)state;
    run *r = chalk("decode --params-total 288e9 --weight-bytes 1 --flops-per-s 50e15 "
                   "--hbm-bytes-per-s 20e12 --batch 1 --context 0 --json");
    expect_status(r, 0, "decode");
    assert_close(json_number(r->out, "latency_floor_s"), 288e9 / 20e12, TIGHT, "s");
    assert_close(json_number(r->out, "weights_s"), 14.4e-3, 1e-9, "s");
    assert_true(json_string_is(r->out, "bound", "memory"));
    run_free(r);
}

/* lecture 1.6: the train leaves every 288e9 / 20e12 = 14.4 ms; worst latency is a wait
 * of one step plus a ride of one, 28.8 ms; the mean is 1.5 steps. */
static void departures_from_flags_give_rubin_a_14_4_ms_train(void **state)
{
    (void)state;
    run *r = chalk("departures --hbm-bytes 288e9 --hbm-bytes-per-s 20e12 --json");
    expect_status(r, 0, "departures");
    double step_s = 288e9 / 20e12;
    assert_close(json_number(r->out, "step_s"), step_s, TIGHT, "s");
    assert_close(json_number(r->out, "worst_wait_s"), step_s, TIGHT, "s");
    assert_close(json_number(r->out, "mean_wait_s"), step_s / 2, TIGHT, "s");
    assert_close(json_number(r->out, "worst_latency_s"), 2 * step_s, TIGHT, "s");
    assert_close(json_number(r->out, "mean_latency_s"), 1.5 * step_s, TIGHT, "s");
    run_free(r);
}

/* lecture 1.6 (inferred there from SB): H100 drains 80 GB at 3.35 TB/s in ~23.9 ms. */
static void departures_on_the_h100_preset_take_about_24_ms(void **state)
{
    (void)state;
    run *r = chalk("departures --hw h100-sxm --json");
    expect_status(r, 0, "departures");
    assert_close(json_number(r->out, "step_s"), 80e9 / 3.35e12, 1e-9, "s");
    assert_close(json_number(r->out, "step_s"), 23.9e-3, 0.01, "s");
    run_free(r);
}

/* lecture 1.5: a chip whose ratio is 300 (here 600e12 FLOP/s = 300e12 multiplies/s, 1
 * byte per weight, 1e12 B/s) and DeepSeek's sparsity 8 (8 total per 1 active) give a
 * balance batch of 300 x 8 = 2,400, with and (at no context) without the KV term. */
static void balance_batch_is_300_times_deepseek_sparsity_8(void **state)
{
    (void)state;
    run *r = chalk("balance-batch --params-total 8 --params-active 1 --flops-per-s 600e12 "
                   "--hbm-bytes-per-s 1e12 --weight-bytes 1 --context 0 --json");
    expect_status(r, 0, "balance-batch");
    assert_close(json_number(r->out, "hw_ratio"), 300.0, TIGHT, "");
    assert_close(json_number(r->out, "sparsity"), 8.0, TIGHT, "");
    assert_close(json_number(r->out, "balance_batch_approx"), 2400.0, TIGHT, "sequences");
    assert_close(json_number(r->out, "balance_batch"), 2400.0, TIGHT, "sequences");
    assert_true(json_is_null(r->out, "balance_batch_reason"));
    /* compute-bound, a token costs 2 x 1 FLOPs of a 600e12 FLOP/s chip */
    assert_close(json_number(r->out, "compute_tokens_per_s"), 600e12 / 2, TIGHT, "tokens/s");
    run_free(r);
}

/* DS: H100 bf16, 989e12 / 3.35e12 = 295 multiplies per weight (the lecture's ~300);
 * the preset holds 989e12 dense bf16 FLOP/s. */
static void h100_bf16_hardware_ratio_is_about_295(void **state)
{
    (void)state;
    run *r = chalk("balance-batch --model llama3-70b --hw h100-sxm --json");
    expect_status(r, 0, "balance-batch");
    assert_close(json_number(r->out, "hw_ratio"), 295.0, 0.005, "");
    run_free(r);
}

/* lecture 1.5 table: a Blackwell GPU at 10e15 dense fp4 FLOP/s, 0.5 byte per weight and
 * 8e12 B/s has ratio 5e15 x 0.5 / 8e12 = 312, "around 300". */
static void blackwell_fp4_hardware_ratio_is_about_300(void **state)
{
    (void)state;
    run *r = chalk("balance-batch --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --json");
    expect_status(r, 0, "balance-batch");
    assert_close(json_number(r->out, "hw_ratio"), 10e15 / 2 * 0.5 / 8e12, 1e-9, "");
    run_free(r);
}

/* lecture 1.7: 2,000 sequences at a 15.6 ms step make about 2,000 x 64 = 128,000 tokens/s
 * (exactly 2000 / 0.0156). Here 312e9 one-byte weights at 20e12 B/s take 15.6 ms, and a
 * huge peak keeps compute out of the way. */
static void two_thousand_sequences_at_a_15_6_ms_step_make_128k_tokens_per_s(void **state)
{
    (void)state;
    run *r = chalk("decode --params-total 312e9 --weight-bytes 1 --hbm-bytes-per-s 20e12 "
                   "--flops-per-s 1e20 --batch 2000 --context 0 --json");
    expect_status(r, 0, "decode");
    assert_close(json_number(r->out, "step_s"), 15.6e-3, 1e-9, "s");
    assert_close(json_number(r->out, "tokens_per_s"), 2000 / 15.6e-3, 1e-9, "tokens/s");
    assert_close(json_number(r->out, "tokens_per_s"), 128e3, 0.01, "tokens/s");
    run_free(r);
}

/* SB inference.md: Llama 3 70B with an int8 KV cache holds 2 x 8 heads x 128 x 80 layers
 * = 160 kB (163,840 bytes) per token, 5.3 GB for one 32k-token sequence. */
static void llama3_70b_int8_kv_is_160_kb_per_token_and_5_3_gb_at_32k(void **state)
{
    (void)state;
    run *r = chalk("show model llama3-70b --kv-dtype int8 --json");
    expect_status(r, 0, "show model");
    assert_close(json_number(r->out, "kv_bytes_per_token"), 2.0 * 8 * 128 * 80, TIGHT, "bytes");
    assert_close(json_number(r->out, "bytes_per_param"), 2.0, TIGHT, "bytes"); /* bf16 */
    run_free(r);

    /* KV fetch time x aggregate bandwidth = the bytes the KV cache holds */
    r = chalk("decode --model llama3-70b --hw h100-sxm --kv-dtype int8 --batch 1 "
              "--context 32768 --json");
    expect_status(r, 0, "decode");
    double kv_bytes = json_number(r->out, "kv_s") * json_number(r->out, "chips") *
                      json_number(r->out, "hbm_bytes_per_s");
    assert_close(kv_bytes, 5.3e9, 0.02, "bytes");
    run_free(r);
}

/* lecture 1.3: at batch 1 a step streams every weight and does almost no arithmetic;
 * at a large batch and no context, compute dominates (Llama 3 70B on 8 H100s, ratio
 * ~295, so batch 4096 is far past the balance). */
static void decode_at_batch_1_is_memory_bound_and_at_4096_compute_bound(void **state)
{
    (void)state;
    run *r = chalk("decode --model llama3-70b --hw h100-sxm --batch 1 --context 1024 --json");
    expect_status(r, 0, "decode");
    assert_true(json_string_is(r->out, "bound", "memory"));
    run_free(r);
    r = chalk("decode --model llama3-70b --hw h100-sxm --batch 4096 --context 0 --json");
    expect_status(r, 0, "decode");
    assert_true(json_string_is(r->out, "bound", "compute"));
    run_free(r);
}

/* batching.h: step = max(compute, weights + KV), with every term written out here for
 * 1e9 bf16 weights on one chip of 1e15 FLOP/s and 1e12 B/s, 1e5 KV bytes per token. */
static void decode_terms_are_the_closed_forms_of_chapter_1(void **state)
{
    (void)state;
    run *r = chalk("decode --params-total 1e9 --params-active 5e8 --kv-bytes-per-token 1e5 "
                   "--flops-per-s 1e15 --hbm-bytes-per-s 1e12 --batch 100 --context 1000 --json");
    expect_status(r, 0, "decode");
    double compute_s = 100 * 2 * 5e8 / 1e15, weights_s = 1e9 * 2 / 1e12,
           kv_s = 100 * 1000 * 1e5 / 1e12;
    assert_close(json_number(r->out, "compute_s"), compute_s, TIGHT, "s");
    assert_close(json_number(r->out, "weights_s"), weights_s, TIGHT, "s");
    assert_close(json_number(r->out, "kv_s"), kv_s, TIGHT, "s");
    assert_close(json_number(r->out, "memory_s"), weights_s + kv_s, TIGHT, "s");
    assert_close(json_number(r->out, "step_s"), fmax(compute_s, weights_s + kv_s), TIGHT, "s");
    assert_close(json_number(r->out, "mfu"), compute_s / fmax(compute_s, weights_s + kv_s), TIGHT,
                 "MFU");
    /* what HBM holds = weights + KV caches; no --hbm-bytes, so no verdict on fitting */
    assert_close(json_number(r->out, "hbm_used_bytes"), 1e9 * 2 + 100 * 1000 * 1e5, 1e-9, "bytes");
    assert_true(json_is_null(r->out, "fits_hbm"));
    run_free(r);
}

/* lecture 1.4 at its $2 per GPU-hour: a 2 ms step (2e9 bytes of weights at 1e12 B/s)
 * making 100 tokens costs 2 x 0.002 / 3600 / 100 x 1e6 USD per million tokens. */
static void cost_per_million_tokens_is_rent_per_step_over_tokens(void **state)
{
    (void)state;
    run *r = chalk("decode --params-total 1e9 --flops-per-s 1e15 --hbm-bytes-per-s 1e12 "
                   "--usd-per-chip-hour 2 --batch 100 --context 0 --json");
    expect_status(r, 0, "decode");
    assert_close(json_number(r->out, "usd_per_mtok"), 2.0 * 0.002 / 3600 / 100 * 1e6, 1e-9, "USD");
    assert_close(json_number(r->out, "tokens_per_s"), 100 / 0.002, 1e-9, "tokens/s");
    run_free(r);
}

/* hw.c: the H200 preset has no sourced price, so there is no cost, and chalk says why
 * instead of inventing one. */
static void cost_is_null_with_a_reason_when_the_chip_has_no_price(void **state)
{
    (void)state;
    run *r = chalk("decode --model llama3-8b --hw h200 --batch 8 --context 0 --json");
    expect_status(r, 0, "decode");
    assert_true(json_is_null(r->out, "usd_per_mtok"));
    assert_true(json_is_null(r->out, "usd_per_chip_hour"));
    assert_false(json_is_null(r->out, "usd_per_mtok_reason"));
    run_free(r);
}

/* A flag beats its preset whichever comes first: 1e9 parameters and 1e15 FLOP/s. */
static void override_wins_whatever_the_flag_order(void **state)
{
    (void)state;
    const char *orders[] = {
        "--model llama3-8b --params-total 1e9 --hw h100-sxm --flops-per-s 1e15",
        "--params-total 1e9 --model llama3-8b --flops-per-s 1e15 --hw h100-sxm",
        "--flops-per-s 1e15 --params-total 1e9 --hw h100-sxm --model llama3-8b",
    };
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        run *r = chalk("decode %s --batch 1 --context 0 --json", orders[i]);
        expect_status(r, 0, orders[i]);
        assert_close(json_number(r->out, "params_total"), 1e9, TIGHT, "params");
        assert_close(json_number(r->out, "flops_per_s"), 1e15, TIGHT, "FLOP/s");
        assert_close(json_number(r->out, "hbm_bytes_per_s"), 3.35e12, TIGHT, "B/s"); /* kept */
        run_free(r);
    }
}

/* SB gpus.md: H100 989e12 dense bf16, 1979e12 fp8; base.h: bf16 2 bytes, fp8 1. Llama 3
 * 8B caches 2 x 32 layers x 8 heads x 128 elements per token (config.json). */
static void dtype_sets_the_peak_and_the_bytes_per_weight_and_kv_element(void **state)
{
    (void)state;
    const char *base = "decode --model llama3-8b --hw h100-sxm --batch 1 --context 0 --json";
    double kv_elements = 2.0 * 32 * 8 * 128;
    run *r = chalk("%s", base);
    expect_status(r, 0, "decode bf16");
    assert_true(json_string_is(r->out, "dtype", "bf16")); /* the default */
    assert_close(json_number(r->out, "flops_per_s"), 989e12, TIGHT, "FLOP/s");
    assert_close(json_number(r->out, "bytes_per_param"), 2.0, TIGHT, "bytes");
    assert_close(json_number(r->out, "kv_bytes_per_token"), kv_elements * 2, TIGHT, "bytes");
    run_free(r);
    r = chalk("%s --dtype fp8", base);
    expect_status(r, 0, "decode fp8");
    assert_close(json_number(r->out, "flops_per_s"), 1979e12, TIGHT, "FLOP/s");
    assert_close(json_number(r->out, "bytes_per_param"), 1.0, TIGHT, "bytes");
    assert_close(json_number(r->out, "kv_bytes_per_token"), kv_elements * 1, TIGHT, "bytes");
    run_free(r);
}

/* --kv-dtype changes only the KV element; --weight-bytes only the weights. */
static void kv_dtype_and_weight_bytes_each_change_one_thing(void **state)
{
    (void)state;
    run *r = chalk("decode --model llama3-8b --hw h100-sxm --kv-dtype fp4 --weight-bytes 4 "
                   "--dtype fp8 --batch 1 --context 0 --json");
    expect_status(r, 0, "decode");
    assert_close(json_number(r->out, "flops_per_s"), 1979e12, TIGHT, "FLOP/s"); /* fp8 */
    assert_close(json_number(r->out, "bytes_per_param"), 4.0, TIGHT, "bytes");
    assert_close(json_number(r->out, "kv_bytes_per_token"), 2.0 * 32 * 8 * 128 * 0.5, TIGHT,
                 "bytes");
    run_free(r);
}

/* hw.c: H100 has no fp4 peak and the Rubin preset only fp4; chalk names the choices. */
static void dtype_without_a_peak_on_the_chip_is_an_error_naming_the_choices(void **state)
{
    (void)state;
    run *r = chalk("decode --model llama3-8b --hw h100-sxm --dtype fp4 --batch 1 --context 0");
    expect_status(r, 2, "h100 fp4");
    assert_string_equal(r->err, "chalk: error: h100-sxm has no fp4 peak; pick --dtype "
                                "bf16|fp8|int8 or pass --flops-per-s\n");
    run_free(r);
    r = chalk("decode --model llama3-8b --hw rubin-nvl72 --batch 1 --context 0");
    expect_status(r, 2, "rubin bf16");
    assert_string_equal(r->err, "chalk: error: rubin-nvl72 has no bf16 peak; pick --dtype "
                                "fp4 or pass --flops-per-s\n");
    run_free(r);
    r = chalk("decode --model llama3-8b --hw rubin-nvl72 --flops-per-s 1e15 --batch 1 "
              "--context 0 --json");
    expect_status(r, 0, "rubin with --flops-per-s");
    assert_close(json_number(r->out, "flops_per_s"), 1e15, TIGHT, "FLOP/s");
    run_free(r);
}

/* NVIDIA: an NVL72 rack is one NVLink domain of 72 GPUs; without --hw, one chip. */
static void chips_default_to_the_scaleup_domain_or_to_one_without_hw(void **state)
{
    (void)state;
    run *r = chalk("decode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 1 "
                   "--context 0 --json");
    expect_status(r, 0, "decode");
    assert_close(json_number(r->out, "chips"), 72, TIGHT, "chips");
    run_free(r);
    r = chalk("decode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 1 --context 0");
    expect_status(r, 0, "decode table");
    assert_non_null(strstr(r->out, "default: the scale-up domain of gb200-nvl72"));
    run_free(r);
    r = chalk("decode --params-total 1e9 --flops-per-s 1e15 --hbm-bytes-per-s 1e12 "
              "--batch 1 --context 0 --json");
    expect_status(r, 0, "decode flags");
    assert_close(json_number(r->out, "chips"), 1, TIGHT, "chips");
    assert_true(json_is_null(r->out, "model"));
    assert_true(json_is_null(r->out, "hw"));
    /* batching.h: a model from flags alone is dense unless --params-active says not */
    assert_close(json_number(r->out, "params_active"), 1e9, TIGHT, "params");
    run_free(r);
}

/* The default table echoes every input the numbers came from. */
static void table_echoes_model_hw_chips_dtype_batch_and_context(void **state)
{
    (void)state;
    run *r = chalk("decode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 2048 "
                   "--context 4096");
    expect_status(r, 0, "decode");
    const char *echoes[] = {"deepseek-v3", "gb200-nvl72", "72", "fp4", "2,048", "4,096", "ms"};
    for (size_t i = 0; i < sizeof echoes / sizeof echoes[0]; i++)
        if (!strstr(r->out, echoes[i]))
            fail_msg("table lacks \"%s\":\n%s", echoes[i], r->out);
    run_free(r);
}

/* batching.h: KV outgrows compute past 2 N_active BW / (F kv): for Llama 3 70B (70.6e9,
 * 327,680 bytes/token in bf16) on H100 (989e12, 3.35e12) about 1,460 tokens. Below it the
 * balance batch is W / (c - k); beyond it there is none, and chalk says why. */
static void balance_batch_is_null_with_a_reason_past_the_balanced_context(void **state)
{
    (void)state;
    double n = 70.6e9, kv = 327680, f = 989e12, bw = 3.35e12, ctx = 1000;
    run *r = chalk("balance-batch --model llama3-70b --hw h100-sxm --context %g --json", ctx);
    expect_status(r, 0, "balance-batch");
    assert_close(json_number(r->out, "max_balanced_context_tokens"), 2 * n * bw / (f * kv), 0.002,
                 "tokens");
    double per_seq_compute = 2 * n / f, per_seq_kv = ctx * kv / bw, weights = n * 2 / bw;
    assert_close(json_number(r->out, "balance_batch"), weights / (per_seq_compute - per_seq_kv),
                 0.005, "sequences");
    run_free(r);
    r = chalk("balance-batch --model llama3-70b --hw h100-sxm --context 200000 --json");
    expect_status(r, 0, "balance-batch long");
    assert_true(json_is_null(r->out, "balance_batch"));
    assert_false(json_is_null(r->out, "balance_batch_reason"));
    run_free(r);
}

/* batching.h: the largest batch with N bytes + B T kv <= chips x HBM. 70e9 one-byte
 * weights and 160 kB/token at 32k tokens on 8 x 80 GB: floor(570e9 / (32768 x 163840)). */
static void max_batch_fills_the_hbm_left_after_the_weights(void **state)
{
    (void)state;
    const char *deploy = "--params-total 70e9 --weight-bytes 1 --kv-bytes-per-token 163840 "
                         "--hbm-bytes 80e9 --hbm-bytes-per-s 3.35e12 --flops-per-s 989e12 "
                         "--chips 8";
    run *r = chalk("max-batch %s --context 32768 --json", deploy);
    expect_status(r, 0, "max-batch");
    assert_close(json_number(r->out, "max_batch_hbm"),
                 floor((8 * 80e9 - 70e9) / (32768 * 163840.0)), TIGHT, "sequences");
    assert_true(json_is_null(r->out, "max_batch_latency")); /* no target given */
    run_free(r);

    /* a 20 ms target at 4k tokens: min(target / c, (target - w) / k), whole */
    double c = 2 * 70e9 / (8 * 989e12), w = 70e9 / (8 * 3.35e12), k = 4096 * 163840 / (8 * 3.35e12);
    r = chalk("max-batch %s --context 4096 --target-step-s 0.02 --json", deploy);
    expect_status(r, 0, "max-batch target");
    assert_close(json_number(r->out, "max_batch_latency"), floor(fmin(0.02 / c, (0.02 - w) / k)),
                 TIGHT, "sequences");
    run_free(r);
}

/* Llama 3.1 405B in bf16 needs ~810 GB for weights; 8 H100s hold 640 GB (SB gpus.md). */
static void max_batch_is_null_with_a_reason_when_the_weights_do_not_fit(void **state)
{
    (void)state;
    run *r = chalk("max-batch --model llama3-405b --hw h100-sxm --context 8192 "
                   "--target-step-s 0.001 --json");
    expect_status(r, 0, "max-batch");
    assert_true(json_is_null(r->out, "max_batch_hbm"));
    assert_false(json_is_null(r->out, "max_batch_hbm_reason"));
    /* 1 ms is below the floor of reading 810 GB at 8 x 3.35 TB/s (~30 ms) */
    assert_true(json_is_null(r->out, "max_batch_latency"));
    assert_false(json_is_null(r->out, "max_batch_latency_reason"));
    run_free(r);
}

/* Exercise 1.3: a batch of one reads exactly the weights its token multiplies through,
 * N_active (DeepSeek-V3 in fp4 over 72 GPUs at 8 TB/s: N_active x 0.5 / (72 x 8e12)),
 * and a dense model reads every weight at every batch. */
static void decode_at_batch_1_reads_only_the_active_experts(void **state)
{
    (void)state;
    run *r = chalk("decode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 1 "
                   "--context 0 --json");
    expect_status(r, 0, "decode deepseek");
    double active = json_number(r->out, "params_active");
    assert_close(json_number(r->out, "params_fetched"), active, TIGHT, "params");
    assert_close(json_number(r->out, "fetched_weights_s"), active * 0.5 / (72 * 8e12), TIGHT,
                 "s");
    assert_close(json_number(r->out, "fetched_step_s"), active * 0.5 / (72 * 8e12), TIGHT, "s");
    run_free(r);
    r = chalk("decode --model llama3-70b --hw h100-sxm --batch 1 --context 0 --json");
    expect_status(r, 0, "decode llama");
    assert_close(json_number(r->out, "params_fetched"), json_number(r->out, "params_total"),
                 TIGHT, "params");
    assert_close(json_number(r->out, "all_experts_batch"), 1, TIGHT, "sequences");
    run_free(r);
}

/* Closed form: DeepSeek-V3 routes 8 of 256 experts, so fewer than 1% are idle from
 * ceil(ln 0.01 / ln(31/32)) = 146 sequences on; an MoE given by flags alone has no
 * expert counts, and its expected read is null with the reason. */
static void decode_knows_when_a_batch_reads_every_expert(void **state)
{
    (void)state;
    run *r = chalk("decode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 2048 "
                   "--context 0 --json");
    expect_status(r, 0, "decode deepseek");
    assert_close(json_number(r->out, "all_experts_batch"), ceil(log(0.01) / log(31.0 / 32)),
                 TIGHT, "sequences");
    assert_close(json_number(r->out, "params_fetched"), json_number(r->out, "params_total"),
                 1e-12, "params");
    run_free(r);
    r = chalk("decode --params-total 8e9 --params-active 1e9 --flops-per-s 1e15 "
              "--hbm-bytes-per-s 1e12 --batch 4 --context 0 --json");
    expect_status(r, 0, "decode flags");
    assert_true(json_is_null(r->out, "params_fetched"));
    assert_false(json_is_null(r->out, "params_fetched_reason"));
    run_free(r);
}

/* A practice problem's deployment must exist: DeepSeek-V3's 671e9 weights in fp8 take
 * 671 GB, more than 8 H100s' 8 x 80 GB; in fp4 they take 335.5 GB of a GB200 NVL72's
 * 72 x 186 GB. */
static void balance_batch_says_whether_the_deployment_fits(void **state)
{
    (void)state;
    run *r = chalk("balance-batch --model deepseek-v3 --hw h100-sxm --dtype fp8 --context 0 "
                   "--json");
    expect_status(r, 0, "balance-batch h100");
    assert_true(strstr(r->out, "\"fits_hbm\": false") != NULL);
    run_free(r);
    r = chalk("balance-batch --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 1024 "
              "--json");
    expect_status(r, 0, "balance-batch gb200");
    assert_true(strstr(r->out, "\"fits_hbm\": true") != NULL);
    run_free(r);
}

/* lecture 1.9: the normal service at 2.5 times the balance batch (here 2.5 x 2,400 =
 * 6,000: ratio 300 times sparsity 8), sped up 2.5 times, lands on the balance batch
 * at the same cost per token. Past the balance context there is no balance batch to
 * multiply: an error. */
static void fast_mode_takes_the_normal_batch_as_a_multiple_of_the_balance_batch(void **state)
{
    (void)state;
    const char *deploy = "--params-total 8e9 --params-active 1e9 --flops-per-s 600e12 "
                         "--hbm-bytes-per-s 1e12 --weight-bytes 1";
    run *r = chalk("fast-mode %s --context 0 --balance-multiple 2.5 --speedup 2.5 --json", deploy);
    expect_status(r, 0, "fast-mode");
    assert_close(json_number(r->out, "batch"), 6000, 1e-9, "sequences");
    assert_close(json_number(r->out, "fast_batch"), 2400, 1e-9, "sequences");
    assert_close(json_number(r->out, "cost_ratio"), 1.0, 1e-9, "");
    run_free(r);
    /* DeepSeek-V3 at 1,024 tokens: 3 times as fast as 2.5 x B* (7,971) needs fewer
     * sequences than B*, left of the knee: memory-bound; 1.5 times as fast as 20,000
     * at no context leaves 13,333 > B* (5,584): compute-bound. */
    r = chalk("fast-mode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 1024 "
              "--balance-multiple 2.5 --speedup 3 --json");
    expect_status(r, 0, "fast-mode left of the knee");
    assert_true(strstr(r->out, "\"fast_memory_bound\": true") != NULL);
    assert_true(json_number(r->out, "fast_batch") < 7971);
    run_free(r);
    r = chalk("fast-mode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 0 "
              "--batch 20000 --speedup 1.5 --json");
    expect_status(r, 0, "fast-mode right of the knee");
    assert_true(strstr(r->out, "\"fast_memory_bound\": false") != NULL);
    run_free(r);
    const char *bad[] = {
        "fast-mode --params-total 8e9 --params-active 1e9 --flops-per-s 600e12 "
        "--hbm-bytes-per-s 1e12 --kv-bytes-per-token 1e6 --context 1e6 --balance-multiple 2 "
        "--speedup 2",
        "fast-mode --params-total 8e9 --flops-per-s 600e12 --hbm-bytes-per-s 1e12 --context 0 "
        "--balance-multiple 2 --batch 8 --speedup 2",
        "fast-mode --params-total 8e9 --flops-per-s 600e12 --hbm-bytes-per-s 1e12 --context 0 "
        "--balance-multiple 0 --speedup 2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run *e = chalk("%s", bad[i]);
        expect_one_error_line(e, bad[i]);
        run_free(e);
    }
}

/* lecture 1.9: serve at 2.5x the balance batch (6,000 = 2.5 x 2,400, compute-bound, a
 * step of 2.5 floors); a 2.5x faster step is the floor itself, reached at the balance
 * batch 2,400, and on a sharp-kneed roofline it costs the same per token. 3x is below
 * the floor: impossible. */
static void fast_mode_at_2_5x_the_balance_batch_costs_the_same_per_token(void **state)
{
    (void)state;
    const char *deploy = "--params-total 8e9 --params-active 1e9 --flops-per-s 600e12 "
                         "--hbm-bytes-per-s 1e12 --weight-bytes 1 --context 0 --batch 6000";
    run *r = chalk("fast-mode %s --speedup 2.5 --json", deploy);
    expect_status(r, 0, "fast-mode");
    assert_true(strstr(r->out, "\"possible\": true") != NULL);
    assert_close(json_number(r->out, "fast_batch"), 2400, 1e-9, "sequences");
    assert_close(json_number(r->out, "fast_step_s"), 8e9 / 1e12, 1e-9, "s");
    assert_close(json_number(r->out, "normal_step_s"), 2.5 * 8e9 / 1e12, 1e-9, "s");
    assert_close(json_number(r->out, "cost_ratio"), 1.0, 1e-9, "");
    run_free(r);
    r = chalk("fast-mode %s --speedup 3 --json", deploy);
    expect_status(r, 0, "fast-mode 3x");
    assert_true(strstr(r->out, "\"possible\": false") != NULL);
    assert_true(json_is_null(r->out, "fast_batch"));
    assert_false(json_is_null(r->out, "reason"));
    run_free(r);
}

/* lecture 1.4-1.5 and the H100 datasheet: past the balance batch a token costs its
 * arithmetic, 2 N / F of a chip at $4.25 an hour, on any number of chips; Llama 3 70B
 * at 1,024 tokens within 30 ms gets there on 6 H100s (HBM: 6 x 80 GB hold the weights
 * and 1,009 caches, past B* = 990), and no priced preset does better per token. */
static void cheapest_llama_at_short_context_is_six_h100s_at_their_arithmetic(void **state)
{
    (void)state;
    run *r = chalk("cheapest --model llama3-70b --context 1024 --target-step-s 0.03 --json");
    expect_status(r, 0, "cheapest");
    assert_true(json_string_is(r->out, "best_hw", "h100-sxm"));
    assert_close(json_number(r->out, "best_chips"), 6, TIGHT, "chips");
    double n = json_number(r->out, "params_total");
    assert_close(json_number(r->out, "usd_per_mtok"), 4.25 * 2 * n / 989e12 / 3600 * 1e6, 1e-9,
                 "USD/Mtok");
    assert_true(json_number(r->out, "step_s") <= 0.03);
    run_free(r);
    /* one offer at a price of one's own: DeepSeek-V3 on a GB200 rack at $2 */
    r = chalk("cheapest --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --usd-per-chip-hour 2 "
              "--context 1024 --target-step-s 0.02 --json");
    expect_status(r, 0, "cheapest on one rack");
    assert_true(json_string_is(r->out, "best_hw", "gb200-nvl72"));
    assert_true(json_number(r->out, "best_chips") < 72);
    run_free(r);
    /* below every latency floor: no deployment, null with a reason */
    r = chalk("cheapest --model llama3-70b --context 1024 --target-step-s 1e-6 --json");
    expect_status(r, 0, "cheapest, none");
    assert_true(strstr(r->out, "\"found\": false") != NULL);
    assert_true(json_is_null(r->out, "best_chips"));
    assert_false(json_is_null(r->out, "best_chips_reason"));
    run_free(r);
    const char *bad[] = {
        "cheapest --model llama3-70b --context 1024",
        "cheapest --model llama3-70b --context 0 --target-step-s 0.03",
        "cheapest --model llama3-70b --hw b200 --context 1024 --target-step-s 0.03",
        "cheapest --model llama3-70b --chips 4 --context 1024 --target-step-s 0.03",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run *e = chalk("%s", bad[i]);
        expect_one_error_line(e, bad[i]);
        run_free(e);
    }
}

const struct CMUnitTest chalk_tests_01_batching[] = {
    CHALK_TEST(chalk, decode_json_reproduces_rubin_drain_time_from_flags_alone),
    CHALK_TEST(chalk, departures_from_flags_give_rubin_a_14_4_ms_train),
    CHALK_TEST(chalk, departures_on_the_h100_preset_take_about_24_ms),
    CHALK_TEST(chalk, balance_batch_is_300_times_deepseek_sparsity_8),
    CHALK_TEST(chalk, h100_bf16_hardware_ratio_is_about_295),
    CHALK_TEST(chalk, blackwell_fp4_hardware_ratio_is_about_300),
    CHALK_TEST(chalk, two_thousand_sequences_at_a_15_6_ms_step_make_128k_tokens_per_s),
    CHALK_TEST(chalk, llama3_70b_int8_kv_is_160_kb_per_token_and_5_3_gb_at_32k),
    CHALK_TEST(chalk, decode_at_batch_1_is_memory_bound_and_at_4096_compute_bound),
    CHALK_TEST(chalk, decode_terms_are_the_closed_forms_of_chapter_1),
    CHALK_TEST(chalk, cost_per_million_tokens_is_rent_per_step_over_tokens),
    CHALK_TEST(chalk, cost_is_null_with_a_reason_when_the_chip_has_no_price),
    CHALK_TEST(chalk, override_wins_whatever_the_flag_order),
    CHALK_TEST(chalk, dtype_sets_the_peak_and_the_bytes_per_weight_and_kv_element),
    CHALK_TEST(chalk, kv_dtype_and_weight_bytes_each_change_one_thing),
    CHALK_TEST(chalk, dtype_without_a_peak_on_the_chip_is_an_error_naming_the_choices),
    CHALK_TEST(chalk, chips_default_to_the_scaleup_domain_or_to_one_without_hw),
    CHALK_TEST(chalk, table_echoes_model_hw_chips_dtype_batch_and_context),
    CHALK_TEST(chalk, balance_batch_is_null_with_a_reason_past_the_balanced_context),
    CHALK_TEST(chalk, max_batch_fills_the_hbm_left_after_the_weights),
    CHALK_TEST(chalk, max_batch_is_null_with_a_reason_when_the_weights_do_not_fit),
    CHALK_TEST(chalk, decode_at_batch_1_reads_only_the_active_experts),
    CHALK_TEST(chalk, decode_knows_when_a_batch_reads_every_expert),
    CHALK_TEST(chalk, balance_batch_says_whether_the_deployment_fits),
    CHALK_TEST(chalk, fast_mode_takes_the_normal_batch_as_a_multiple_of_the_balance_batch),
    CHALK_TEST(chalk, fast_mode_at_2_5x_the_balance_batch_costs_the_same_per_token),
    CHALK_TEST(chalk, cheapest_llama_at_short_context_is_six_h100s_at_their_arithmetic),
};
const size_t chalk_tests_01_batching_count =
    sizeof chalk_tests_01_batching / sizeof chalk_tests_01_batching[0];
