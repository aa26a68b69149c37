/*
 * test_pipelining_decode.c -- Chapter 3 tests, part 3 of 3: serving a model in
 * decode on several racks. The decode loop's time between tokens, micro-batches
 * and rate (Exercise 3.7), memory per GPU and the fewest stages that fit (3.8),
 * the fewest racks a model can be served on (3.9), the cut of layers of unequal
 * cost whose slowest stage is fastest (3.10) and the largest micro-batch a decode
 * loop holds (3.11). Run with parts 1 and 2 as one group by test_pipelining.c's
 * main(); its header names the sources cited here ([lecture]). Each test states one fact; the comment above it names where
 * the expected value comes from (E_ names: expected.h).
 */
#include "../test_util.h"

#include <stdlib.h>

#include "expected.h"
#include "pipelining.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* ---- 3.7 decode_loop -------------------------------------------------------- */

/* §3.5 (Decode is a loop): a 20 ms step over 4 racks, 2 ms per hop (the book's
 * figure for the lecture's "a few milliseconds"; the lecturer's time between tokens
 * is "20 to 30" ms, [lecture, 72:48-76:39]). */
static void lecture_step_of_20_ms_over_four_racks(void **state)
{
    (void)state;
    assert_close(pipelining_decode_token_s(4, 20e-3 / 4, 2e-3), E_DECODE_P4_TOKEN_S, TIGHT,
                 "s");
}

/* The same loop whole, micro-batches of 2,048 sequences (§3.5 (Decode is a loop)). */
static void the_lecture_loop_field_by_field(void **state)
{
    (void)state;
    pipelining_decode_loop l = pipelining_decode_loop_at(4, 20e-3, 2e-3, 2048);
    assert_close(l.stage_s, 5e-3, TIGHT, "s");
    assert_close(l.token_s, E_DECODE_P4_TOKEN_S, TIGHT, "s");
    assert_close(l.hops_s, E_DECODE_P4_HOPS_S, TIGHT, "s");
    assert_int_equal(l.microbatches, E_DECODE_P4_MICROBATCHES);
    assert_close(l.sequences_in_flight, E_DECODE_P4_MICROBATCHES * 2048.0, TIGHT, "sequences");
    assert_close(l.tokens_per_s, E_DECODE_P4_TOKENS_PER_S, TIGHT, "tokens/s");
}

/* [lecture, 60:58]: without hops pipelining is latency-neutral: P stages of
 * t/P each. */
static void without_hops_pipelining_is_latency_neutral(void **state)
{
    (void)state;
    for (int p = 1; p <= 16; p *= 2)
        assert_close(pipelining_decode_token_s(p, 20e-3 / p, 0), 20e-3, TIGHT, "s");
}

/* §3.5 (Decode is a loop), [lecture, 67:30-70:40]: P micro-batches keep P
 * stages busy. The quotient is P exactly, but 7 x 5e-3 / 5e-3 computes to
 * 7.000000000000001: the contract's rounding rule makes it 7. */
static void decode_needs_as_many_microbatches_as_stages(void **state)
{
    (void)state;
    for (int p = 1; p <= 8; p++)
        assert_int_equal(pipelining_decode_microbatches(p, 5e-3, 0), p);
}

/* §3.5 (Decode is a loop): 4 stages of 5 ms and of 2 ms with hops of 2 ms (the
 * second a quotient that is whole in exact arithmetic). */
static void hop_latency_needs_more_microbatches_than_stages(void **state)
{
    (void)state;
    assert_int_equal(pipelining_decode_microbatches(4, 5e-3, 2e-3), E_DECODE_P4_MICROBATCHES);
    assert_int_equal(pipelining_decode_microbatches(4, 2e-3, 2e-3),
                     E_DECODE_P4_STAGE_2MS_MICROBATCHES);
}

/* The contract: one stage crosses no network, so its token takes the step alone
 * and one micro-batch keeps it busy, whatever the hop would cost. */
static void one_stage_crosses_no_network(void **state)
{
    (void)state;
    assert_close(pipelining_decode_token_s(1, 20e-3, 2e-3), 20e-3, TIGHT, "s");
    assert_int_equal(pipelining_decode_microbatches(1, 20e-3, 2e-3), 1);
}

/* The contract: from two stages on, a hop follows every stage; 2 stages of 10 ms,
 * hops of 2 ms (§3.5 (Decode is a loop)). */
static void two_stages_pay_two_hops(void **state)
{
    (void)state;
    assert_close(pipelining_decode_token_s(2, 10e-3, 2e-3), E_DECODE_P2_TOKEN_S, TIGHT, "s");
    assert_int_equal(pipelining_decode_microbatches(2, 10e-3, 2e-3), E_DECODE_P2_MICROBATCHES);
}

/* ---- 3.8 capacity ----------------------------------------------------------- */

/* The lecture's numbers [lecture, 64:06-72:48]: 1 TB of weights, n = 64 GPUs per
 * stage, B_micro = 2,000 sequences per micro-batch, 200k context, 2 KB (2,048 B)
 * per token. */
static pipelining_memory lecture_memory(int stages, int microbatches)
{
    pipelining_memory m = {
        .weight_bytes = 1e12, .kv_bytes_per_token = 2048, .context_tokens = 200e3,
        .microbatch_seqs = 2000, .microbatches = microbatches, .chips = 64,
        .stages = stages,
    };
    return m;
}

/* §3.6 (The capacity equation): the lecture's weights per GPU on 1, 2, 4 and 8
 * stages. */
static void weights_per_gpu_of_the_lecture_model(void **state)
{
    (void)state;
    const double want[4] = {E_CAP_WEIGHTS_PER_GPU_P1, E_CAP_WEIGHTS_PER_GPU_P2,
                            E_CAP_WEIGHTS_PER_GPU_P4, E_CAP_WEIGHTS_PER_GPU_P8};
    for (int i = 0, p = 1; p <= 8; i++, p *= 2) {
        pipelining_memory m = lecture_memory(p, p);
        assert_close(pipelining_weight_bytes_per_gpu(&m), want[i], TIGHT, "B");
    }
}

/* §3.6 (The capacity equation), [lecture, 70:40-72:48]: the KV per GPU of the
 * lecture's model with M = P micro-batches in flight on 1 to 8 stages. */
static void kv_per_gpu_with_p_microbatches_on_p_stages(void **state)
{
    (void)state;
    for (int p = 1; p <= 8; p++) {
        pipelining_memory m = lecture_memory(p, p);
        assert_close(pipelining_kv_bytes_per_gpu(&m), E_CAP_KV_PER_GPU, TIGHT, "B");
    }
}

/* [lecture, 70:40-72:48] (the host's objection): the KV per GPU of one
 * micro-batch on 4 stages. */
static void kv_per_gpu_of_one_microbatch_on_four_stages(void **state)
{
    (void)state;
    pipelining_memory m = lecture_memory(4, 1);
    assert_close(pipelining_kv_bytes_per_gpu(&m), E_CAP_KV_PER_GPU_ONE_MICROBATCH_P4, TIGHT,
                 "B");
}

/* §3.6 (The capacity equation): the lecture's model on GPUs of 186 GB (a GB200's),
 * 20 GB and 12 GB. */
static void fewest_stages_to_fit_or_none_when_the_kv_overflows(void **state)
{
    (void)state;
    pipelining_memory m = lecture_memory(0, 0);
    pipelining_fit fit = pipelining_min_stages_to_fit(&m, 186e9);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, 1);
    fit = pipelining_min_stages_to_fit(&m, 20e9);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, E_CAP_STAGES_20GB);
    fit = pipelining_min_stages_to_fit(&m, 12e9);
    assert_false(fit.exists);
    assert_int_equal(fit.stages, 0);
}

/* The contract's boundary: the HBM that 5 stages fill exactly (§3.6 (The capacity
 * equation)). */
static void fewest_stages_is_exact_at_the_boundary(void **state)
{
    (void)state;
    pipelining_memory m = lecture_memory(0, 0);
    pipelining_fit fit = pipelining_min_stages_to_fit(&m, E_CAP_HBM_FIVE_STAGES_EXACTLY);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, 5);
}

/* The contract's rounding rule: the lecture's model on 72 GPUs per stage of
 * 14.85 GB, where the quotient that counts the stages is whole in exact arithmetic
 * and a hair above it in floating point (§3.6 (The capacity equation)). */
static void lecture_model_on_72_gpus_fits_4_stages_exactly(void **state)
{
    (void)state;
    pipelining_memory m = lecture_memory(0, 0);
    m.chips = 72;
    pipelining_fit fit = pipelining_min_stages_to_fit(&m, 14.85e9);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, E_CAP_STAGES_72_CHIPS);
}

/* The contract: a KV cache exactly filling the HBM leaves no room for any share of
 * the weights; the HBM that 1,000 stages fill exactly (§3.6 (The capacity
 * equation)). */
static void kv_filling_the_hbm_exactly_leaves_no_stages(void **state)
{
    (void)state;
    pipelining_memory m = lecture_memory(0, 0);
    pipelining_fit fit = pipelining_min_stages_to_fit(&m, E_CAP_KV_PER_GPU);
    assert_false(fit.exists);
    assert_int_equal(fit.stages, 0);
    fit = pipelining_min_stages_to_fit(&m, E_CAP_HBM_THOUSAND_STAGES_EXACTLY);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, 1000);
}

/* The contract's boundary for a model with no weights (weight_bytes 0): a GPU whose
 * HBM the lecture's KV cache fills exactly, and one byte less (§3.6 (The capacity
 * equation)). */
static void a_model_without_weights_filling_the_hbm_exactly_fits_one_stage(void **state)
{
    (void)state;
    pipelining_memory m = lecture_memory(0, 0);
    m.weight_bytes = 0.0;
    pipelining_fit fit = pipelining_min_stages_to_fit(&m, E_CAP_KV_PER_GPU);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, 1);
    fit = pipelining_min_stages_to_fit(&m, E_CAP_KV_PER_GPU - 1);
    assert_false(fit.exists);
    assert_int_equal(fit.stages, 0);
}

/* The contract's "no answer" when the fewest stages would not fit in an int: 7 and 8
 * bytes of HBM left over after the lecture's KV cache (§3.6 (The capacity
 * equation)). */
static void fewest_stages_beyond_an_int_are_no_answer(void **state)
{
    (void)state;
    pipelining_memory m = lecture_memory(0, 0);
    pipelining_fit fit = pipelining_min_stages_to_fit(&m, E_CAP_KV_PER_GPU + 7);
    assert_false(fit.exists);
    assert_int_equal(fit.stages, 0);
    fit = pipelining_min_stages_to_fit(&m, E_CAP_KV_PER_GPU + 8);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, E_CAP_STAGES_8_BYTES_LEFT);
}

/* Zero-valued inputs the contract allows: no KV cache (0 bytes per token, or 0
 * tokens of context), GPUs of 5 GB (§3.6 (The capacity equation)). */
static void a_model_without_kv_cache_needs_the_weights_alone(void **state)
{
    (void)state;
    pipelining_memory m = lecture_memory(0, 0);
    m.kv_bytes_per_token = 0;
    pipelining_fit fit = pipelining_min_stages_to_fit(&m, 5e9);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, E_CAP_STAGES_WEIGHTS_ALONE_5GB);
    m = lecture_memory(0, 0);
    m.context_tokens = 0;
    assert_int_equal(pipelining_min_stages_to_fit(&m, 5e9).stages,
                     E_CAP_STAGES_WEIGHTS_ALONE_5GB);
    m = lecture_memory(4, 4);
    m.kv_bytes_per_token = 0;
    assert_close(pipelining_kv_bytes_per_gpu(&m) + 1.0, 1.0, TIGHT, "B");
}

/* ---- 3.9 split -------------------------------------------------------------- */

/* The lecture's frontier model [lecture, 64:06-72:48] cut into `layers` layers:
 * 1 TB of weights, 2,000 sequences of 200k tokens at 2,048 B per token per
 * micro-batch, racks of 64 GPUs; a 20 ms step on one rack. */
static pipelining_deployment lecture_deployment(int layers, double hbm_bytes, double hop_s)
{
    pipelining_deployment d = {
        .layers = layers, .weight_bytes = 1e12, .kv_bytes_per_token = 2048,
        .context_tokens = 200e3, .microbatch_seqs = 2000, .chips = 64,
        .hbm_bytes = hbm_bytes, .step_s = 20e-3, .hop_s = hop_s,
        .min_layers_per_stage = 1, .max_stages = 64,
    };
    return d;
}

/* §3.7 (The best split of a model over racks): the lecture's model in 60 layers on
 * GPUs of 186 GB (a GB200's), hops of 2 ms. */
static void a_model_that_fits_one_rack_is_served_on_one(void **state)
{
    (void)state;
    pipelining_deployment d = lecture_deployment(60, 186e9, 2e-3);
    pipelining_split s = pipelining_best_split(&d);
    assert_true(s.exists);
    assert_int_equal(s.stages, 1);
    assert_int_equal(s.max_layers_per_stage, 60);
    assert_int_equal(s.microbatches, 1);
    assert_close(s.token_s, 20e-3, TIGHT, "s");
    assert_close(s.bytes_per_gpu, E_SPLIT_ONE_RACK_BYTES_PER_GPU, TIGHT, "B");
}

/* §3.6 (The capacity equation), §3.7 (The best split of a model over racks): the
 * lecture's model in 60 layers on GPUs of 20 GB, without hops (a micro-batch count
 * that is whole in exact arithmetic and a hair above it in floating point). */
static void lecture_model_on_20_gb_gpus_without_hops(void **state)
{
    (void)state;
    pipelining_deployment d = lecture_deployment(60, 20e9, 0);
    pipelining_split s = pipelining_best_split(&d);
    assert_true(s.exists);
    assert_int_equal(s.stages, E_SPLIT_NO_HOPS_STAGES);
    assert_int_equal(s.max_layers_per_stage, 60 / E_SPLIT_NO_HOPS_STAGES);
    assert_int_equal(s.microbatches, E_SPLIT_NO_HOPS_STAGES);
    assert_close(s.token_s, 20e-3, TIGHT, "s");
    assert_close(s.bytes_per_gpu, E_SPLIT_NO_HOPS_BYTES_PER_GPU, TIGHT, "B");
}

/* §3.7 (The best split of a model over racks): the lecture's model in 60 layers on
 * GPUs of 20 GB with hops of 2 ms, then without them. */
static void lecture_model_on_20_gb_gpus_with_2_ms_hops(void **state)
{
    (void)state;
    pipelining_deployment d = lecture_deployment(60, 20e9, 2e-3);
    pipelining_split s = pipelining_best_split(&d);
    assert_false(s.exists);
    assert_int_equal(s.stages, 0);
    assert_int_equal(s.max_layers_per_stage, 0);
    assert_int_equal(s.microbatches, 0);
    assert_close(s.token_s + 1.0, 1.0, TIGHT, "s");
    assert_close(s.bytes_per_gpu + 1.0, 1.0, TIGHT, "B");
    d.hop_s = 0;
    assert_int_equal(pipelining_best_split(&d).stages, E_SPLIT_NO_HOPS_STAGES);
}

/* §3.7 (The best split of a model over racks), layers that do not divide evenly:
 * DeepSeek-V3's 61 layers (config_671B.json), 1 TB on 8 GPUs of 80 GB a stage, hops
 * of 0.1 ms. */
static void deepseek_v3_61_layers_on_80_gb_gpus(void **state)
{
    (void)state;
    pipelining_deployment d = {
        .layers = 61, .weight_bytes = 1e12, .kv_bytes_per_token = 1000,
        .context_tokens = 1000, .microbatch_seqs = 100, .chips = 8, .hbm_bytes = 80e9,
        .step_s = 20e-3, .hop_s = 0.1e-3, .min_layers_per_stage = 1, .max_stages = 8,
    };
    pipelining_split s = pipelining_best_split(&d);
    assert_true(s.exists);
    assert_int_equal(s.stages, E_SPLIT_61_STAGES);
    assert_int_equal(s.max_layers_per_stage, E_SPLIT_61_FULLEST);
    assert_int_equal(s.microbatches, E_SPLIT_61_MICROBATCHES);
    assert_close(s.token_s, E_SPLIT_61_TOKEN_S, TIGHT, "s");
    assert_close(s.bytes_per_gpu, E_SPLIT_61_BYTES_PER_GPU, TIGHT, "B");
}

/* §3.7 (The best split of a model over racks), the contract's caps: 61 layers, 1 TB
 * on 8 GPUs of 40 GB a stage, at least 15 layers a stage, then 16, then 3 racks. */
static void the_hop_condition_and_the_racks_cap_the_stages(void **state)
{
    (void)state;
    pipelining_deployment d = {
        .layers = 61, .weight_bytes = 1e12, .kv_bytes_per_token = 0,
        .context_tokens = 0, .microbatch_seqs = 1, .chips = 8, .hbm_bytes = 40e9,
        .step_s = 20e-3, .hop_s = 0, .min_layers_per_stage = 15, .max_stages = 8,
    };
    pipelining_split s = pipelining_best_split(&d);
    assert_true(s.exists);
    assert_int_equal(s.stages, E_SPLIT_61_MIN15_STAGES);
    assert_int_equal(s.max_layers_per_stage, E_SPLIT_61_MIN15_FULLEST);
    assert_close(s.bytes_per_gpu, E_SPLIT_61_MIN15_BYTES_PER_GPU, TIGHT, "B");
    d.min_layers_per_stage = 16;
    assert_false(pipelining_best_split(&d).exists);
    d.min_layers_per_stage = 15;
    d.max_stages = 3;
    assert_false(pipelining_best_split(&d).exists);
}

/* The contract's boundaries: a GPU filled exactly fits. 8e9 bytes of weights in
 * 4 layers on 2 GPUs of 2e9 a stage, then a hair less HBM. */
static void a_gpu_filled_exactly_fits(void **state)
{
    (void)state;
    pipelining_deployment d = {
        .layers = 4, .weight_bytes = 8e9, .kv_bytes_per_token = 0, .context_tokens = 0,
        .microbatch_seqs = 1, .chips = 2, .hbm_bytes = 2e9, .step_s = 1e-3, .hop_s = 0,
        .min_layers_per_stage = 1, .max_stages = 4,
    };
    pipelining_split s = pipelining_best_split(&d);
    assert_true(s.exists);
    assert_int_equal(s.stages, 2);
    assert_close(s.bytes_per_gpu, 2e9, TIGHT, "B");
    d.hbm_bytes = 2e9 * (1 - 1e-6);
    s = pipelining_best_split(&d);
    assert_int_equal(s.stages, 4);
    assert_int_equal(s.max_layers_per_stage, 1);
    assert_close(s.bytes_per_gpu, 1e9, TIGHT, "B");
}

/* The contract: no more stages than layers, even with 8 racks; 3 layers of 3 GB on
 * GPUs of 2 GB, then of 3 GB. */
static void there_are_no_more_stages_than_layers(void **state)
{
    (void)state;
    pipelining_deployment d = {
        .layers = 3, .weight_bytes = 9e9, .kv_bytes_per_token = 0, .context_tokens = 0,
        .microbatch_seqs = 1, .chips = 1, .hbm_bytes = 2e9, .step_s = 1e-3, .hop_s = 0,
        .min_layers_per_stage = 1, .max_stages = 8,
    };
    assert_false(pipelining_best_split(&d).exists);
    d.hbm_bytes = 3e9;
    pipelining_split s = pipelining_best_split(&d);
    assert_int_equal(s.stages, 3);
    assert_int_equal(s.microbatches, 3);
}

/* ---- 3.10 balance ----------------------------------------------------------- */

#define MAX_CUT 16

/* Asserts that a cut exists, that its slowest stage is `slowest_ns`, that its stages
 * begin at first[0 .. stages-1], and that those stages do take slowest_ns at most,
 * the slowest exactly; fails at the caller's line. */
#define assert_cut(ns, layers, stages, slowest_ns, first)                                    \
    check_cut((ns), (layers), (stages), (slowest_ns), (first), __FILE__, __LINE__)

static void check_cut(const long long *ns, int layers, int stages, long long slowest_ns,
                      const int *first, const char *file, int line)
{
    int got[MAX_CUT];
    for (int s = 0; s < MAX_CUT; s++)
        got[s] = -1;
    pipelining_cuts c = pipelining_balanced_cuts(ns, layers, stages, got);
    if (!c.exists) {
        print_error("no cut of %d layers into %d stages was returned; one exists\n", layers,
                    stages);
        _fail(file, line);
    }
    if (c.slowest_stage_ns != slowest_ns) {
        print_error("the slowest stage takes %lld ns; the fastest cut's takes %lld ns\n",
                    c.slowest_stage_ns, slowest_ns);
        _fail(file, line);
    }
    for (int s = 0; s < stages; s++)
        if (got[s] != first[s]) {
            print_error("stage %d begins at layer %d; expected layer %d (the contract's "
                        "cut, ties included)\n",
                        s, got[s], first[s]);
            _fail(file, line);
        }
}

/* §3.7.1 (Layers of unequal cost), the contract's ties: 10 layers of 2 ms on 4
 * stages. Source: expected.h, the least slowest stage over every cut of the
 * layers into 4 runs of consecutive layers, each cut counted in the instructor's
 * copy, ties broken as the contract says. */
static void ten_equal_layers_on_four_stages(void **state)
{
    (void)state;
    long long ns[10];
    for (int i = 0; i < 10; i++)
        ns[i] = 2000000;
    const int first[4] = {0, E_BALANCE_EQUAL_FIRST_LAYER_1, E_BALANCE_EQUAL_FIRST_LAYER_2,
                          E_BALANCE_EQUAL_FIRST_LAYER_3};
    assert_cut(ns, 10, 4, E_BALANCE_EQUAL_SLOWEST_NS, first);
}

/* DeepSeek-V3's 61 layers, the first 3 dense (first_k_dense_replace = 3,
 * config_671B.json), in a profile of 300 us per dense and 400 us per MoE layer, on 4
 * stages. Source: expected.h, the least slowest stage over every cut of the
 * layers into 4 runs of consecutive layers, each cut counted in the instructor's copy. */
static void deepseek_v3_dense_and_moe_layers_on_four_stages(void **state)
{
    (void)state;
    long long ns[61];
    for (int i = 0; i < 61; i++)
        ns[i] = i < 3 ? 300000 : 400000;
    const int first[4] = {0, E_BALANCE_DENSE_MOE_FIRST_LAYER_1,
                          E_BALANCE_DENSE_MOE_FIRST_LAYER_2, E_BALANCE_DENSE_MOE_FIRST_LAYER_3};
    assert_cut(ns, 61, 4, E_BALANCE_DENSE_MOE_SLOWEST_NS, first);
}

/* 8 layers of 1 ms and an output layer (the unembedding) of 5 ms on 4 stages.
 * Source: expected.h, the least slowest stage over every cut of the layers into
 * 4 runs of consecutive layers, each cut counted in the instructor's copy. */
static void a_heavy_output_layer_on_four_stages(void **state)
{
    (void)state;
    long long ns[9] = {1000000, 1000000, 1000000, 1000000, 1000000,
                       1000000, 1000000, 1000000, 5000000};
    const int first[4] = {0, E_BALANCE_HEAD_FIRST_LAYER_1, E_BALANCE_HEAD_FIRST_LAYER_2,
                          E_BALANCE_HEAD_FIRST_LAYER_3};
    assert_cut(ns, 9, 4, E_BALANCE_HEAD_SLOWEST_NS, first);
}

/* Llama 3.1 405B's depth, 126 layers (Llama 3 report, table 3), with a profile
 * of 1 ms + 1 us x ((37 i) mod 101) for layer i, on 16 stages: C(125, 15) cuts.
 * Source: expected.h, the least slowest stage over every cut, each counted in
 * the instructor's copy. */
static void llama_405b_depth_with_a_profile_on_sixteen_stages(void **state)
{
    (void)state;
    long long ns[126];
    for (int i = 0; i < 126; i++)
        ns[i] = 1000000 + 1000LL * ((37 * i) % 101);
    const int first[16] = {
        0,
        E_BALANCE_PROFILE_FIRST_LAYER_1,
        E_BALANCE_PROFILE_FIRST_LAYER_2,
        E_BALANCE_PROFILE_FIRST_LAYER_3,
        E_BALANCE_PROFILE_FIRST_LAYER_4,
        E_BALANCE_PROFILE_FIRST_LAYER_5,
        E_BALANCE_PROFILE_FIRST_LAYER_6,
        E_BALANCE_PROFILE_FIRST_LAYER_7,
        E_BALANCE_PROFILE_FIRST_LAYER_8,
        E_BALANCE_PROFILE_FIRST_LAYER_9,
        E_BALANCE_PROFILE_FIRST_LAYER_10,
        E_BALANCE_PROFILE_FIRST_LAYER_11,
        E_BALANCE_PROFILE_FIRST_LAYER_12,
        E_BALANCE_PROFILE_FIRST_LAYER_13,
        E_BALANCE_PROFILE_FIRST_LAYER_14,
        E_BALANCE_PROFILE_FIRST_LAYER_15,
    };
    assert_cut(ns, 126, 16, E_BALANCE_PROFILE_SLOWEST_NS, first);
}

/* The contract's boundaries: one stage holds every layer; as many stages as layers
 * put one on each, and the heaviest sets the pace. */
static void one_stage_and_one_layer_per_stage(void **state)
{
    (void)state;
    long long ns[5] = {3, 1, 4, 1, 5};
    const int whole[1] = {0}, each[5] = {0, 1, 2, 3, 4};
    assert_cut(ns, 5, 1, 3 + 1 + 4 + 1 + 5, whole);
    assert_cut(ns, 5, 5, 5, each);
}

/* The contract's no-answer: more stages than layers, no stage, or no layer; nothing
 * is written into first_layer. */
static void no_cut_without_a_layer_for_every_stage(void **state)
{
    (void)state;
    long long ns[3] = {1, 2, 3};
    int first[4] = {-7, -7, -7, -7};
    pipelining_cuts c = pipelining_balanced_cuts(ns, 3, 4, first);
    assert_false(c.exists);
    assert_true(c.slowest_stage_ns == 0);
    assert_false(pipelining_balanced_cuts(ns, 3, 0, first).exists);
    assert_false(pipelining_balanced_cuts(ns, 0, 1, first).exists);
    for (int s = 0; s < 4; s++)
        assert_int_equal(first[s], -7);
    assert_true(pipelining_balanced_cuts(ns, 3, 3, first).exists);
}

/* ---- 3.11 max_microbatch ----------------------------------------------------- */

/* The lecture's model [lecture, 64:06-72:48] on `stages` racks of 64 GPUs: 1 TB of
 * weights, 200k tokens of context at 2,048 B per token; a 20 ms step on one rack.
 * The micro-batch fields are left at values the function must ignore. */
static pipelining_memory lecture_racks(int stages)
{
    pipelining_memory m = {
        .weight_bytes = 1e12, .kv_bytes_per_token = 2048, .context_tokens = 200e3,
        .microbatch_seqs = 7, .microbatches = 99, .chips = 64, .stages = stages,
    };
    return m;
}

static void assert_batch(pipelining_batch b, int microbatches, double seqs)
{
    assert_true(b.exists);
    assert_int_equal(b.microbatches, microbatches);
    assert_close(b.microbatch_seqs, seqs, TIGHT, "sequences");
    assert_close(b.sequences_in_flight, microbatches * seqs, TIGHT, "sequences");
}

/* §3.6 (The capacity equation) and §3.5 (Decode is a loop): the lecture's model on
 * 4 stages of 64 GPUs of 20 GB, no hops. Source: expected.h, the closed form for
 * the largest micro-batch that these two sections give. */
static void four_racks_without_hops_on_20_gb_gpus(void **state)
{
    (void)state;
    pipelining_memory m = lecture_racks(4);
    assert_batch(pipelining_max_microbatch(&m, 20e9, 20e-3, 0), 4, E_MAXMB_P4_SEQS);
}

/* §3.5 (Decode is a loop) and §3.6 (The capacity equation): the same racks with 2 ms
 * hops, the micro-batches in flight and the largest micro-batch. Source: expected.h,
 * the closed forms of these two sections. */
static void hops_shrink_the_microbatch_on_four_racks(void **state)
{
    (void)state;
    pipelining_memory m = lecture_racks(4);
    assert_batch(pipelining_max_microbatch(&m, 20e9, 20e-3, 2e-3),
                 E_MAXMB_P4_HOPS_MICROBATCHES, E_MAXMB_P4_HOPS_SEQS);
}

/* The contract (hops as in §3.5 (Decode is a loop)): one rack crosses no network,
 * whatever a hop would cost. Source: expected.h, the closed form of §3.6 (The
 * capacity equation) on one rack of 64 GPUs. */
static void one_rack_holds_one_microbatch_whatever_the_hop(void **state)
{
    (void)state;
    pipelining_memory m = lecture_racks(1);
    assert_batch(pipelining_max_microbatch(&m, 20e9, 20e-3, 2e-3), 1, E_MAXMB_P1_SEQS);
}

/* §3.6 (The capacity equation): the largest micro-batch without hops on 1, 2, 4 and
 * 8 stages. Source: expected.h, that section's closed form. */
static void more_stages_make_room_for_a_larger_microbatch(void **state)
{
    (void)state;
    const int stages[4] = {1, 2, 4, 8};
    const double want[4] = {E_MAXMB_P1_SEQS, E_MAXMB_P2_SEQS, E_MAXMB_P4_SEQS,
                            E_MAXMB_P8_SEQS};
    for (int i = 0; i < 4; i++) {
        pipelining_memory m = lecture_racks(stages[i]);
        assert_batch(pipelining_max_microbatch(&m, 20e9, 20e-3, 0), stages[i], want[i]);
    }
}

/* The contract's boundary: the HBM that 2,000 sequences a micro-batch fill exactly on
 * 4 stages with 2 ms hops (expected.h, from §3.6 (The capacity equation)) fits 2,000;
 * 10 kB less (outside the rounding rule's 1e-9), 1,999. */
static void a_gpu_filled_exactly_fits_the_microbatch(void **state)
{
    (void)state;
    pipelining_memory m = lecture_racks(4);
    assert_batch(pipelining_max_microbatch(&m, E_MAXMB_HBM_P4_2000_EXACTLY, 20e-3, 2e-3),
                 E_MAXMB_P4_HOPS_MICROBATCHES, 2000);
    assert_batch(pipelining_max_microbatch(&m, E_MAXMB_HBM_P4_2000_EXACTLY - 1e4, 20e-3, 2e-3),
                 E_MAXMB_P4_HOPS_MICROBATCHES, 1999);
}

/* The contract's rounding rule: on 6 stages with 2 ms hops (10 micro-batches) the HBM
 * that 1,001 sequences a micro-batch fill exactly, 13.2815 GB, gives a quotient that
 * is 1,001 in exact arithmetic and can compute to 1000.9999999999999. */
static void a_whole_quotient_a_hair_below_counts_as_whole(void **state)
{
    (void)state;
    pipelining_memory m = lecture_racks(6);
    assert_batch(pipelining_max_microbatch(&m, E_MAXMB_HBM_P6_1001_EXACTLY, 20e-3, 2e-3),
                 E_MAXMB_P6_HOPS_MICROBATCHES, 1001);
}

/* The contract's no-answer: on 4 stages without hops, HBM that the weights' share
 * fills exactly, or less, holds not one sequence; HBM that one sequence a micro-batch
 * fills exactly holds one. */
static void no_microbatch_when_the_weights_fill_the_hbm(void **state)
{
    (void)state;
    pipelining_memory m = lecture_racks(4);
    assert_batch(pipelining_max_microbatch(&m, E_MAXMB_HBM_P4_ONE_SEQ_EXACTLY, 20e-3, 0), 4,
                 1);
    const double hbm[2] = {E_MAXMB_HBM_P4_WEIGHTS_ONLY, 3e9};
    for (int i = 0; i < 2; i++) {
        pipelining_batch b = pipelining_max_microbatch(&m, hbm[i], 20e-3, 0);
        assert_false(b.exists);
        assert_int_equal(b.microbatches, 0);
        assert_true(b.microbatch_seqs == 0.0 && b.sequences_in_flight == 0.0);
    }
}

CHALK_PART(decode) = {
    CHALK_TEST(decode_loop, lecture_step_of_20_ms_over_four_racks),
    CHALK_TEST(decode_loop, the_lecture_loop_field_by_field),
    CHALK_TEST(decode_loop, without_hops_pipelining_is_latency_neutral),
    CHALK_TEST(decode_loop, decode_needs_as_many_microbatches_as_stages),
    CHALK_TEST(decode_loop, hop_latency_needs_more_microbatches_than_stages),
    CHALK_TEST(decode_loop, one_stage_crosses_no_network),
    CHALK_TEST(decode_loop, two_stages_pay_two_hops),
    CHALK_TEST(capacity, weights_per_gpu_of_the_lecture_model),
    CHALK_TEST(capacity, kv_per_gpu_with_p_microbatches_on_p_stages),
    CHALK_TEST(capacity, kv_per_gpu_of_one_microbatch_on_four_stages),
    CHALK_TEST(capacity, fewest_stages_to_fit_or_none_when_the_kv_overflows),
    CHALK_TEST(capacity, fewest_stages_is_exact_at_the_boundary),
    CHALK_TEST(capacity, a_model_without_weights_filling_the_hbm_exactly_fits_one_stage),
    CHALK_TEST(capacity, lecture_model_on_72_gpus_fits_4_stages_exactly),
    CHALK_TEST(capacity, kv_filling_the_hbm_exactly_leaves_no_stages),
    CHALK_TEST(capacity, a_model_without_kv_cache_needs_the_weights_alone),
    CHALK_TEST(capacity, fewest_stages_beyond_an_int_are_no_answer),
    CHALK_TEST(split, a_model_that_fits_one_rack_is_served_on_one),
    CHALK_TEST(split, lecture_model_on_20_gb_gpus_without_hops),
    CHALK_TEST(split, lecture_model_on_20_gb_gpus_with_2_ms_hops),
    CHALK_TEST(split, deepseek_v3_61_layers_on_80_gb_gpus),
    CHALK_TEST(split, the_hop_condition_and_the_racks_cap_the_stages),
    CHALK_TEST(split, a_gpu_filled_exactly_fits),
    CHALK_TEST(split, there_are_no_more_stages_than_layers),
    CHALK_TEST(balance, ten_equal_layers_on_four_stages),
    CHALK_TEST(balance, deepseek_v3_dense_and_moe_layers_on_four_stages),
    CHALK_TEST(balance, a_heavy_output_layer_on_four_stages),
    CHALK_TEST(balance, llama_405b_depth_with_a_profile_on_sixteen_stages),
    CHALK_TEST(balance, one_stage_and_one_layer_per_stage),
    CHALK_TEST(balance, no_cut_without_a_layer_for_every_stage),
    CHALK_TEST(max_microbatch, four_racks_without_hops_on_20_gb_gpus),
    CHALK_TEST(max_microbatch, hops_shrink_the_microbatch_on_four_racks),
    CHALK_TEST(max_microbatch, one_rack_holds_one_microbatch_whatever_the_hop),
    CHALK_TEST(max_microbatch, more_stages_make_room_for_a_larger_microbatch),
    CHALK_TEST(max_microbatch, a_gpu_filled_exactly_fits_the_microbatch),
    CHALK_TEST(max_microbatch, a_whole_quotient_a_hair_below_counts_as_whole),
    CHALK_TEST(max_microbatch, no_microbatch_when_the_weights_fill_the_hbm),
};
CHALK_PART_END(decode);
