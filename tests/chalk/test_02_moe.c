/*
 * test_02_moe.c -- chapter 2's commands (moe, place, expert-batch, moe-imbalance,
 * domain, routed-scaling), tested from the outside as readers use them.
 *
 * Sources:
 *   lecture  Reiner Pope's blackboard lecture, sections as in reference/lecture-notes.md
 *   DSV3     DeepSeek-V3 inference/configs/config_671B.json: d_model 7,168; 256 routed
 *            experts + 1 shared, 8 per token, width 2,048; 61 layers, the first 3 dense
 *   NVIDIA   GB200 NVL72: 72 GPUs, 10e15 dense fp4 FLOP/s, 8e12 B/s and 186e9 B HBM,
 *            NVLink 5 at 900e9 B/s each way, a 400 Gb/s NIC (50e9 B/s) per GPU
 *   SB       "How to Scale Your Model": gpus.md (H100 8 x 80 GB), transformers.md Q8
 *            (v5e: B > 120 E / k = 3,840 for DeepSeek), tpus.md (v5e 1.97e14, 8.2e11)
 */
#include "harness.h"

#include <math.h>
#include <string.h>

#define DSV3_NVL72 "--model deepseek-v3 --hw gb200-nvl72 --dtype fp4"

/* lecture 2.2: 256 experts on a 72-GPU rack: 64 GPUs, 4 experts each, 8 left over. */
static void moe_places_deepseek_on_64_of_72_gpus_4_experts_each(void **state)
{
    (void)state;
    run *r = chalk("moe " DSV3_NVL72 " --batch 2048 --context 0 --json");
    expect_status(r, 0, "moe");
    assert_close(json_number(r->out, "gpus_used"), 64, TIGHT, "GPUs");
    assert_close(json_number(r->out, "experts_per_gpu"), 4, TIGHT, "experts");
    assert_close(json_number(r->out, "gpus_idle"), 8, TIGHT, "GPUs");
    assert_close(json_number(r->out, "experts"), 256, TIGHT, "experts");
    assert_close(json_number(r->out, "top_k"), 8, TIGHT, "experts");
    assert_close(json_number(r->out, "moe_layers"), 61 - 3, TIGHT, "layers");
    run_free(r);
}

/* lecture 2.2: out to k experts and back, k d_model x bytes each way: 2 x 8 x 7,168 x
 * 0.5 bytes in fp4; a SwiGLU expert is 3 x 7,168 x 2,048 parameters (DSV3). */
static void moe_a2a_bytes_are_two_k_d_model_bytes(void **state)
{
    (void)state;
    run *r = chalk("moe " DSV3_NVL72 " --batch 2048 --context 0 --json");
    expect_status(r, 0, "moe");
    assert_close(json_number(r->out, "a2a_bytes_per_token_per_layer"), 2.0 * 8 * 7168 * 0.5,
                 TIGHT, "B");
    assert_close(json_number(r->out, "a2a_bytes_per_token"), 58 * 2.0 * 8 * 7168 * 0.5, TIGHT,
                 "B");
    assert_close(json_number(r->out, "a2a_remote_fraction"), 63.0 / 64, TIGHT, "");
    assert_close(json_number(r->out, "expert_params"), 3.0 * 7168 * 2048, TIGHT, "params");
    run_free(r);
    r = chalk("moe " DSV3_NVL72 " --act-bytes 2 --batch 2048 --context 0 --json");
    expect_status(r, 0, "moe bf16 activations");
    assert_close(json_number(r->out, "a2a_bytes_per_token_per_layer"), 2.0 * 8 * 7168 * 2,
                 TIGHT, "B");
    run_free(r);
}

/* moe.h: three roofs over the 64 GPUs used, each from its closed form; the step is the
 * largest. */
static void moe_three_roofs_are_their_closed_forms(void **state)
{
    (void)state;
    run *r = chalk("moe " DSV3_NVL72 " --batch 8192 --context 1024 --json");
    expect_status(r, 0, "moe");
    double n_total = json_number(r->out, "params_total");
    double n_active = json_number(r->out, "params_active");
    double kv = json_number(r->out, "kv_bytes_per_token");
    double compute = 8192 * 2 * n_active / (64 * 10e15);
    double memory = (n_total * 0.5 + 8192 * 1024 * kv) / (64 * 8e12);
    double a2a = 58 * 8192 * 2.0 * 8 * 7168 * 0.5 / (64 * 900e9);
    assert_close(json_number(r->out, "compute_s"), compute, 1e-9, "s");
    assert_close(json_number(r->out, "memory_s"), memory, 1e-9, "s");
    assert_close(json_number(r->out, "a2a_s"), a2a, 1e-9, "s");
    assert_close(json_number(r->out, "step_s"), fmax(fmax(compute, memory), a2a), 1e-9, "s");
    assert_close(json_number(r->out, "a2a_dispatch_s_per_layer"), a2a / (2 * 58), 1e-9, "s");
    assert_close(json_number(r->out, "network_over_compute"), a2a / compute, 1e-9, "x");
    run_free(r);
}

/* The three bounds, each reached: memory at a small batch, compute at a large one with
 * fp4 activations, network when they cross in bf16 (network / compute = 4 x 0.49). */
static void moe_bound_is_memory_then_compute_or_network(void **state)
{
    (void)state;
    run *r = chalk("moe " DSV3_NVL72 " --batch 64 --context 0 --json");
    expect_status(r, 0, "moe small");
    assert_true(json_string_is(r->out, "bound", "memory"));
    run_free(r);
    r = chalk("moe " DSV3_NVL72 " --batch 20000 --context 0 --json");
    expect_status(r, 0, "moe large");
    assert_true(json_string_is(r->out, "bound", "compute"));
    assert_true(json_string_is(r->out, "steeper_roof", "compute"));
    run_free(r);
    r = chalk("moe " DSV3_NVL72 " --act-bytes 2 --batch 20000 --context 0 --json");
    expect_status(r, 0, "moe bf16 activations");
    assert_true(json_string_is(r->out, "bound", "network"));
    assert_true(json_string_is(r->out, "steeper_roof", "network"));
    run_free(r);
}

/* lecture 2.3: two racks with a scale-out network 8x slower (900e9 / 112.5e9): half the
 * tokens cross, the all-to-all is 0.5 x 8 = 4 times slower per token (4.5 serial). */
static void moe_two_racks_at_8x_slow_the_all_to_all_4x(void **state)
{
    (void)state;
    run *r = chalk("moe " DSV3_NVL72 " --batch 8192 --context 0 --racks 2 "
                   "--scale-out-bytes-per-s 112.5e9 --json");
    expect_status(r, 0, "moe 2 racks");
    assert_close(json_number(r->out, "scaleup_over_scaleout"), 8.0, TIGHT, "x");
    assert_close(json_number(r->out, "cross_rack_fraction"), 0.5, TIGHT, "");
    assert_close(json_number(r->out, "slowdown_vs_one_rack"), 4.0, TIGHT, "x");
    assert_close(json_number(r->out, "slowdown_serial_vs_one_rack"), 4.5, TIGHT, "x");
    /* 128 experts per rack on 64 GPUs: 2 each */
    assert_close(json_number(r->out, "experts_per_gpu"), 2, TIGHT, "experts");
    run_free(r);
}

/* NVIDIA: NVLink 5 900e9 B/s against a 400 Gb/s NIC (50e9 B/s) is 18x, so two racks cost
 * 9x per token; on one rack the same command reports no slowdown. A NIC half as fast as
 * NVLink would make two racks free (overlapped). */
static void moe_gb200_presets_give_18x_and_one_rack_no_slowdown(void **state)
{
    (void)state;
    run *r = chalk("moe " DSV3_NVL72 " --batch 8192 --context 0 --racks 1,2 --json");
    expect_status(r, 0, "moe racks sweep");
    assert_close(json_path(r->out, "rows.0.scaleup_over_scaleout"), 18.0, TIGHT, "x");
    assert_close(json_path(r->out, "rows.0.slowdown_vs_one_rack"), 1.0, TIGHT, "x");
    assert_close(json_path(r->out, "rows.1.slowdown_vs_one_rack"), 9.0, TIGHT, "x");
    /* §2.5: the NIC at which the racks cost nothing extra: none needed on one rack;
     * on two, (R - 1)/R of NVLink overlapped, all of it serial */
    assert_close(json_path(r->out, "rows.0.scaleout_for_no_slowdown"), 0.0, TIGHT, "B/s");
    assert_close(json_path(r->out, "rows.1.scaleout_for_no_slowdown"), 450e9, TIGHT, "B/s");
    assert_close(json_path(r->out, "rows.1.scaleout_for_no_slowdown_serial"), 900e9, TIGHT,
                 "B/s");
    double c1 = json_path(r->out, "rows.0.compute_s"), c2 = json_path(r->out, "rows.1.compute_s");
    assert_close(c2, c1 / 2, 1e-9, "s"); /* the same batch over twice the GPUs */
    run_free(r);
}

/* moe.h: no knee when each sequence's KV fetch outgrows both compute and network: past
 * 2 N_active W_HBM / (F b_kv) tokens with fp4 activations (compute the steeper). */
static void moe_knee_is_null_with_a_reason_at_long_context(void **state)
{
    (void)state;
    run *r = chalk("moe " DSV3_NVL72 " --batch 8192 --context 65536 --json");
    expect_status(r, 0, "moe");
    assert_true(json_is_null(r->out, "knee_batch"));
    assert_false(json_is_null(r->out, "knee_batch_reason"));
    assert_true(json_string_is(r->out, "bound", "memory"));
    run_free(r);
    r = chalk("moe " DSV3_NVL72 " --batch 8192 --context 0 --json");
    expect_status(r, 0, "moe");
    double knee = json_number(r->out, "knee_batch"); /* weights over the compute slope */
    double w = json_number(r->out, "weights_s"), c = json_number(r->out, "compute_s") / 8192;
    assert_close(knee, w / c, 1e-9, "sequences");
    run_free(r);
}

/* A batch sweep writes one CSV row per point, and every row's step is its largest roof. */
static void moe_batch_sweep_writes_a_row_per_point(void **state)
{
    (void)state;
    run *r = chalk("moe " DSV3_NVL72 " --batch 256:32768:8 --context 1024 --csv");
    expect_status(r, 0, "moe sweep");
    char *line = strtok(r->out, "\n");
    int step = csv_column(line, "step_s"), comp = csv_column(line, "compute_s");
    int mem = csv_column(line, "memory_s"), net = csv_column(line, "a2a_s");
    assert_true(step >= 0 && comp >= 0 && mem >= 0 && net >= 0);
    int rows = 0;
    while ((line = strtok(NULL, "\n")) != NULL) {
        double m = fmax(fmax(csv_number(line, comp), csv_number(line, mem)), csv_number(line, net));
        assert_close(csv_number(line, step), m, TIGHT, "s");
        rows++;
    }
    assert_int_equal(rows, 8);
    run_free(r);
}

/* place: the largest divisor of E at most the domain: DeepSeek-V2's 160 experts on 72
 * GPUs use 40; Mixtral's 8 fill an 8-GPU H100 node. */
static void place_uses_the_largest_divisor_of_the_experts(void **state)
{
    (void)state;
    run *r = chalk("place --experts 160 --hw gb200-nvl72 --json");
    expect_status(r, 0, "place");
    assert_close(json_number(r->out, "gpus_used"), 40, TIGHT, "GPUs");
    assert_close(json_number(r->out, "experts_per_gpu"), 4, TIGHT, "experts");
    assert_close(json_number(r->out, "experts_on_busiest_if_all"), 3, TIGHT, "experts");
    run_free(r);
    r = chalk("place --model mixtral-8x7b --hw h100-sxm --json");
    expect_status(r, 0, "place mixtral");
    assert_close(json_number(r->out, "gpus_used"), 8, TIGHT, "GPUs");
    assert_close(json_number(r->out, "gpus_idle"), 0, TIGHT, "GPUs");
    run_free(r);
}

/* B k / E >= r: DeepSeek on GB200 in fp4 needs 312.5 x 256 / 8 = 10,000 sequences;
 * chapter 1's r s uses the model's published sparsity and is smaller. */
static void expert_batch_for_deepseek_on_gb200_is_10000(void **state)
{
    (void)state;
    run *r = chalk("expert-batch --hw gb200-nvl72 --dtype fp4 --model deepseek-v3 --json");
    expect_status(r, 0, "expert-batch");
    assert_close(json_number(r->out, "hw_ratio"), 312.5, TIGHT, "");
    assert_close(json_number(r->out, "min_batch"), 10000.0, TIGHT, "sequences");
    assert_close(json_number(r->out, "tokens_per_expert"), 312.5, TIGHT, "tokens");
    double s = json_number(r->out, "params_total") / json_number(r->out, "params_active");
    assert_close(json_number(r->out, "balance_batch"), 312.5 * s, TIGHT, "sequences");
    assert_true(json_number(r->out, "balance_batch") < 10000.0);
    run_free(r);
}

/* SB transformers.md Q8: int8 weights, bf16 arithmetic on TPU v5e: B > 120 E / k, 3,840
 * tokens for DeepSeek's 256 / 8. */
static void expert_batch_reproduces_the_scaling_book_v5e_figure(void **state)
{
    (void)state;
    run *r = chalk("expert-batch --hw tpu-v5e --weight-bytes 1 --experts 256 --top-k 8 --json");
    expect_status(r, 0, "expert-batch v5e");
    assert_close(json_number(r->out, "min_batch"), 3840.0, 0.002, "sequences");
    run_free(r);
}

/* Little's law: sequences in flight = throughput / per-sequence rate; 21,000 tokens/s
 * at 21 tokens/s each is 1,000 sequences, each expert seeing 1,000 x 8 / 256. */
static void expert_batch_from_rates_uses_littles_law(void **state)
{
    (void)state;
    run *r = chalk("expert-batch --hw h100-sxm --dtype fp8 --model deepseek-v3 "
                   "--throughput-tokens-per-s 21000 --user-tokens-per-s 21 --json");
    expect_status(r, 0, "expert-batch rates");
    assert_close(json_number(r->out, "batch"), 1000.0, TIGHT, "sequences");
    assert_close(json_number(r->out, "tokens_per_expert"), 1000.0 * 8 / 256, TIGHT, "tokens");
    assert_false(json_number(r->out, "batch") >= json_number(r->out, "min_batch"));
    assert_true(count_of(r->out, "\"experts_compute_bound\": false") == 1);
    run_free(r);
}

/* By hand: 4 tokens over 4 experts, 2 each: a load is Binomial(4, 1/2) (1, 4, 6, 4, 1
 * / 16), mean 2. Capacity 2 (factor 1) drops 4 x 6/16 of 8 assignments = 3/16; under 1%
 * needs capacity 4, factor 2. */
static void imbalance_closed_forms_match_a_hand_computed_case(void **state)
{
    (void)state;
    run *r = chalk("moe-imbalance --experts 4 --top-k 2 --tokens 4 --capacity-factor 1 --json");
    expect_status(r, 0, "moe-imbalance");
    assert_close(json_number(r->out, "mean_load"), 2.0, TIGHT, "tokens");
    assert_close(json_number(r->out, "capacity_tokens"), 2.0, TIGHT, "tokens");
    assert_close(json_number(r->out, "drop_fraction_exact"), 3.0 / 16, TIGHT, "");
    assert_close(json_number(r->out, "capacity_factor_p99_exact"), 2.0, TIGHT, "x");
    assert_close(json_number(r->out, "load_sd"), 1.0, TIGHT, "tokens");
    run_free(r);
}

/* DeepSeek's routing at 4,096 tokens (mean 128): the simulated busiest expert lies
 * between the closed-form bounds (5 standard errors: a load's sd over sqrt(100)); the
 * same seed repeats the result exactly, another seed changes it. */
static void imbalance_simulation_is_seeded_and_within_its_bounds(void **state)
{
    (void)state;
    const char *cmd = "moe-imbalance --model deepseek-v3 --tokens 4096 --trials 100 --json";
    run *a = chalk("%s --seed 3", cmd), *b = chalk("%s --seed 3", cmd), *c = chalk("%s --seed 4", cmd);
    expect_status(a, 0, "seed 3");
    expect_status(c, 0, "seed 4");
    double max_a = json_number(a->out, "max_load_over_mean");
    assert_close(json_number(b->out, "max_load_over_mean"), max_a, 0.0, "x");
    assert_true(json_number(c->out, "max_load_over_mean") != max_a);
    double se = sqrt(128.0 * 31 / 32) / sqrt(100) / 128;
    double lo = json_number(a->out, "max_load_over_mean_lower") - 5 * se;
    double hi = json_number(a->out, "max_load_over_mean_upper") + 5 * se;
    assert_true(max_a >= lo && max_a <= hi);
    assert_close(json_number(a->out, "mean_load"), 4096.0 * 8 / 256, TIGHT, "tokens");
    run_free(a);
    run_free(b);
    run_free(c);
}

/* lecture 2.5: 8 Hoppers hold 8 x 80 GB = 640 GB; a GB200 NVL72 72 x 186 GB; a 5T model
 * in fp4 (2.5 TB) fits the rack, a 1T model in bf16 (2 TB) does not fit the tray. */
static void domain_memory_and_what_fits(void **state)
{
    (void)state;
    run *r = chalk("domain --hw h100-sxm --params-total 1e12 --json");
    expect_status(r, 0, "domain h100");
    assert_close(json_number(r->out, "domain_hbm_bytes"), 640e9, TIGHT, "B");
    assert_close(json_number(r->out, "domain_chips"), 8, TIGHT, "chips");
    assert_true(count_of(r->out, "\"fits_weights\": false") == 1);
    run_free(r);
    r = chalk("domain --hw gb200-nvl72 --dtype fp4 --params-total 5e12 --json");
    expect_status(r, 0, "domain nvl72");
    assert_close(json_number(r->out, "domain_hbm_bytes"), 72 * 186e9, TIGHT, "B");
    assert_close(json_number(r->out, "weights_bytes"), 2.5e12, TIGHT, "B");
    assert_true(count_of(r->out, "\"fits_weights\": true") == 1);
    run_free(r);
}

/* moe.h: the largest model with its balance batch's caches,
 * H / (bytes + r L b_kv / N_active), with r = 312.5 for GB200 fp4. */
static void domain_largest_model_is_its_closed_form(void **state)
{
    (void)state;
    run *r = chalk("domain --hw gb200-nvl72 --dtype fp4 --params-total 5e12 --params-active 100e9 "
                   "--kv-bytes-per-token 2000 --context 32768 --json");
    expect_status(r, 0, "domain largest");
    double h = 72 * 186e9, n = h / (0.5 + 312.5 / 100e9 * 32768 * 2000);
    assert_close(json_number(r->out, "largest_params_total"), n, 1e-9, "params");
    assert_close(json_number(r->out, "largest_sparsity"), n / 100e9, 1e-9, "");
    run_free(r);
    r = chalk("domain --hw h100-sxm --params-total 1e12 --params-active 400e9 --context 0 --json");
    expect_status(r, 0, "domain none");
    assert_true(json_is_null(r->out, "largest_params_total"));
    assert_false(json_is_null(r->out, "largest_params_total_reason"));
    run_free(r);
}

/* lecture 1.8: 64 experts at 370M active ~ a dense 1.3B: 370M x 64^(1/3) = 1.48e9; halving
 * active parameters costs 2^3 = 8 times the experts. */
static void routed_scaling_is_the_cube_root_law(void **state)
{
    (void)state;
    run *r = chalk("routed-scaling --params-active 370e6 --experts 64 --json");
    expect_status(r, 0, "routed-scaling");
    assert_close(json_number(r->out, "exponent"), 1.0 / 3, 1e-12, "");
    assert_close(json_number(r->out, "dense_equivalent_params"), 370e6 * 4, 1e-12, "params");
    assert_close(json_number(r->out, "expert_multiplier"), 8.0, 1e-12, "x");
    run_free(r);
}

/* Bad input: one line on stderr, exit 2, never a default. */
static void chapter_2_bad_inputs_get_one_line_and_exit_2(void **state)
{
    (void)state;
    const char *bad[] = {
        "moe --hw gb200-nvl72 --batch 1 --context 0",
        "moe --model llama3-70b --hw h100-sxm --batch 1 --context 0",
        "moe --model deepseek-v3 --hw gb200-nvl72 --batch 1",
        "moe --model deepseek-v3 --hw gb200-nvl72 --context 0",
        "moe --model deepseek-v3 --hw gb200-nvl72 --batch 1 --context 0 --racks 3",
        "moe --model deepseek-v3 --hw rubin-nvl72 --dtype fp4 --batch 1 --context 0 --racks 2",
        "moe --model deepseek-v3 --hw gb200-nvl72 --batch 1 --context 0 --act-bytes -1",
        "moe --model nosuch --hw gb200-nvl72 --batch 1 --context 0",
        "place --experts 256",
        "place --hw gb200-nvl72",
        "expert-batch --hw gb200-nvl72 --experts 8 --top-k 9",
        "expert-batch --hw gb200-nvl72 --model deepseek-v3 --throughput-tokens-per-s 5",
        "expert-batch --model deepseek-v3",
        "moe-imbalance --experts 256 --top-k 8",
        "moe-imbalance --experts 256 --top-k 80 --tokens 100",
        "moe-imbalance --experts 256 --top-k 8 --tokens 1e6 --trials 1000",
        "moe-imbalance --experts 256 --top-k 8 --tokens 4096 --seed 1.5",
        "domain",
        "domain --hbm-bytes 80e9",
        "routed-scaling --experts 64",
        "routed-scaling --params-active 1e9 --experts 64 --active-ratio 2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run *r = chalk("%s", bad[i]);
        expect_one_error_line(r, bad[i]);
        run_free(r);
    }
}

/* Section 2.10: at short context every layout that reaches a compute-bound batch costs
 * the floor, p x 2 N_active / (3600 F) per token, whatever its size: at $2 a GPU-hour
 * and the B200's 10 PFLOP/s dense fp4 (NVIDIA GB200 NVL72 spec sheet), 2 x 2 x
 * N_active / (3600 x 10e15) USD, and the fewest GPUs win the tie. A target below the
 * time to read the weights once on a whole rack (335.5 GB over 72 x 8 TB/s, 0.58 ms)
 * has no layout: null, with its reason. */
static void moe_layout_at_short_context_costs_the_compute_floor(void **state)
{
    (void)state;
    run *r = chalk("moe-layout " DSV3_NVL72 " --usd-per-chip-hour 2 --context 1024 "
                   "--target-step-s 0.05 --json");
    expect_status(r, 0, "moe-layout");
    double active = json_number(r->out, "params_active");
    assert_close(json_number(r->out, "usd_per_mtok"), 2.0 * 2 * active / (3600 * 10e15) * 1e6,
                 1e-9, "USD/Mtok");
    assert_true(json_string_is(r->out, "bound", "compute"));
    assert_close(json_number(r->out, "racks"), 1, TIGHT, "racks");
    run_free(r);
    r = chalk("moe-layout " DSV3_NVL72 " --usd-per-chip-hour 2 --context 1024 "
              "--target-step-s 1e-4 --json");
    expect_status(r, 0, "moe-layout");
    assert_true(json_is_null(r->out, "racks"));
    assert_non_null(strstr(r->out, "\"racks_reason\""));
    run_free(r);
}

const struct CMUnitTest chalk_tests_02_moe[] = {
    CHALK_TEST(chalk, moe_places_deepseek_on_64_of_72_gpus_4_experts_each),
    CHALK_TEST(chalk, moe_a2a_bytes_are_two_k_d_model_bytes),
    CHALK_TEST(chalk, moe_three_roofs_are_their_closed_forms),
    CHALK_TEST(chalk, moe_bound_is_memory_then_compute_or_network),
    CHALK_TEST(chalk, moe_two_racks_at_8x_slow_the_all_to_all_4x),
    CHALK_TEST(chalk, moe_gb200_presets_give_18x_and_one_rack_no_slowdown),
    CHALK_TEST(chalk, moe_knee_is_null_with_a_reason_at_long_context),
    CHALK_TEST(chalk, moe_batch_sweep_writes_a_row_per_point),
    CHALK_TEST(chalk, place_uses_the_largest_divisor_of_the_experts),
    CHALK_TEST(chalk, expert_batch_for_deepseek_on_gb200_is_10000),
    CHALK_TEST(chalk, expert_batch_reproduces_the_scaling_book_v5e_figure),
    CHALK_TEST(chalk, expert_batch_from_rates_uses_littles_law),
    CHALK_TEST(chalk, imbalance_closed_forms_match_a_hand_computed_case),
    CHALK_TEST(chalk, imbalance_simulation_is_seeded_and_within_its_bounds),
    CHALK_TEST(chalk, domain_memory_and_what_fits),
    CHALK_TEST(chalk, domain_largest_model_is_its_closed_form),
    CHALK_TEST(chalk, routed_scaling_is_the_cube_root_law),
    CHALK_TEST(chalk, chapter_2_bad_inputs_get_one_line_and_exit_2),
    CHALK_TEST(chalk, moe_layout_at_short_context_costs_the_compute_floor),
};
const size_t chalk_tests_02_moe_count = sizeof chalk_tests_02_moe / sizeof chalk_tests_02_moe[0];
