/*
 * test_03_pipelining.c -- chapter 3's commands (rack-hop, bubble, schedule,
 * decode-pipelined, pipeline-memory, weight-read), tested from the outside as readers
 * use them.
 *
 * Sources:
 *   lecture   Reiner Pope's blackboard lecture, sections as in reference/lecture-notes.md
 *   GPipe     Huang et al. 2019 (arXiv:1811.06965): idle share (P-1)/(M+P-1)
 *   Megatron  Narayanan et al. 2021 (arXiv:2104.04473): (P-1)/M, interleaved (P-1)/(vM),
 *             and Megatron-LM's interleaved warm-up 2(P-1) + (v-1)P on the first stage
 *   SB        "How to Scale Your Model": NVLink 900e9 B/s and NIC 50e9 B/s per B200 each
 *             way; H100 NVLink 450e9 B/s, 8 GPUs per node, 3.35e12 B/s HBM
 *   DS        DeepSeek-V3 config_671B.json: d_model 7,168, top-8 of 256 routed experts
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */

#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- rack-hop ---------------------------------------------------------------------------- */

/* lecture 3.2: (1/8) x 2 x 8 x 1 = 2, a 2x margin; top-2 needs 8 / 4 = 2 layers. */
static void rack_hop_reproduces_the_lecture_condition(void **state)
{
    (void)state;
    run *r = chalk("rack-hop --bandwidth-ratio 8 --top-k 8 --layers-per-stage 1 --json");
    expect_status(r, 0, "rack-hop");
    assert_close(json_number(r->out, "scale_up_over_scale_out"), 2.0, TIGHT, "x");
    assert_close(json_number(r->out, "min_layers_per_stage"), 1, TIGHT, "layers");
    assert_true(strstr(r->out, "\"hop_hidden\": true") != NULL);
    run_free(r);
    r = chalk("rack-hop --bandwidth-ratio 8 --top-k 2 --layers-per-stage 1 --json");
    expect_status(r, 0, "rack-hop");
    assert_close(json_number(r->out, "scale_up_over_scale_out"), 0.5, TIGHT, "x");
    assert_close(json_number(r->out, "min_layers_per_stage"), 2, TIGHT, "layers");
    assert_true(strstr(r->out, "\"hop_hidden\": false") != NULL);
    run_free(r);
}

/* SB: a GB200 GPU's gap is 900e9 / 50e9 = 18; DeepSeek-V3 routes to 8 experts, so it
 * needs ceil(18 / 16) = 2 layers; with 2 layers and 2,048 bf16 tokens of width 7,168
 * on 72 GPUs the two times are 2048 x 2 x 8 x 2 x 7168 x 2 / (72 x 900e9) and
 * 2048 x 7168 x 2 / (72 x 50e9). */
static void rack_hop_of_deepseek_on_gb200_uses_the_preset_gap_and_width(void **state)
{
    (void)state;
    run *r = chalk("rack-hop --model deepseek-v3 --hw gb200-nvl72 --layers-per-stage 2 "
                   "--tokens 2048 --json");
    expect_status(r, 0, "rack-hop");
    assert_close(json_number(r->out, "bandwidth_ratio"), 18.0, TIGHT, "x");
    assert_close(json_number(r->out, "top_k"), 8, TIGHT, "experts");
    assert_close(json_number(r->out, "min_layers_per_stage"), 2, TIGHT, "layers");
    assert_close(json_number(r->out, "scaleup_s"), 2048 * 2.0 * 8 * 2 * 7168 * 2 / (72 * 900e9),
                 1e-12, "s");
    assert_close(json_number(r->out, "scaleout_s"), 2048 * 7168 * 2.0 / (72 * 50e9), 1e-12, "s");
    assert_close(json_number(r->out, "scale_up_over_scale_out"), 2.0 * 8 * 2 / 18, TIGHT, "x");
    run_free(r);
}

/* Without --layers-per-stage the ratio and the times are null, each with a reason;
 * the fewest layers still come out. */
static void rack_hop_without_layers_gives_nulls_with_reasons(void **state)
{
    (void)state;
    run *r = chalk("rack-hop --hw h100-sxm --top-k 2 --json");
    expect_status(r, 0, "rack-hop");
    assert_true(json_is_null(r->out, "scale_up_over_scale_out"));
    assert_false(json_is_null(r->out, "scale_up_over_scale_out_reason"));
    assert_true(json_is_null(r->out, "scaleup_s"));
    assert_false(json_is_null(r->out, "scaleup_s_reason"));
    assert_close(json_number(r->out, "min_layers_per_stage"), 3, TIGHT, "layers"); /* 9/4 */
    run_free(r);
}

/* ---- bubble ------------------------------------------------------------------------------ */

/* lecture 3.5: 4 racks, one inference: 3/4 idle; Megatron: bubble over ideal 3/1. */
static void bubble_of_four_racks_and_one_inference_is_three_quarters(void **state)
{
    (void)state;
    run *r = chalk("bubble --stages 4 --microbatches 1 --json");
    expect_status(r, 0, "bubble");
    assert_close(json_number(r->out, "bubble_fraction"), 0.75, TIGHT, "");
    assert_close(json_number(r->out, "bubble_over_ideal"), 3.0, TIGHT, "");
    assert_close(json_number(r->out, "speedup"), 1.0, TIGHT, "x");
    run_free(r);
}

/* Megatron: 8 stages, 32 micro-batches, 4 chunks: (P-1)/(vM) = 7/128 over the ideal,
 * 7/135 of the total; GPipe: speedup P M / (M + P - 1). */
static void bubble_with_chunks_and_a_sweep_of_microbatches(void **state)
{
    (void)state;
    run *r = chalk("bubble --stages 8 --microbatches 32 --chunks 4 --json");
    expect_status(r, 0, "bubble");
    assert_close(json_number(r->out, "bubble_over_ideal"), 7.0 / 128, TIGHT, "");
    assert_close(json_number(r->out, "bubble_fraction"), 7.0 / 135, TIGHT, "");
    run_free(r);
    r = chalk("bubble --stages 8 --microbatches 1,4,32 --json");
    expect_status(r, 0, "bubble");
    const int m[] = {1, 4, 32};
    for (int i = 0; i < 3; i++) {
        char path[32];
        snprintf(path, sizeof path, "rows.%d.speedup", i);
        assert_close(json_path(r->out, path), 8.0 * m[i] / (m[i] + 7), TIGHT, "x");
    }
    run_free(r);
}

/* ---- schedule ------------------------------------------------------------------------------ */

/* GPipe and 1F1B: (M + P - 1)(f + b); interleaved: (M + (P - 1)/v)(f + b); peaks M, P,
 * P + (P - 1)/v; the closed form printed beside the measured bubble. */
static void schedule_json_measures_the_closed_forms(void **state)
{
    (void)state;
    struct {
        const char *schedule;
        int chunks;
        double makespan, peak;
    } cases[] = {
        {"gpipe", 1, (8 + 3) * 3.0, 8},
        {"1f1b", 1, (8 + 3) * 3.0, 4},
        {"interleaved", 2, (8 + 1.5) * 3.0, 4 + 1.5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("schedule --stages 4 --microbatches 8 --schedule %s --chunks %d "
                       "--forward-s 1 --backward-s 2 --json",
                       cases[i].schedule, cases[i].chunks);
        expect_status(r, 0, "schedule");
        assert_close(json_number(r->out, "makespan_s"), cases[i].makespan, 1e-12, "s");
        assert_close(json_number(r->out, "busy_s"), 8 * 3.0, TIGHT, "s");
        assert_close(json_number(r->out, "peak_microbatches_in_flight"), cases[i].peak, TIGHT,
                     "microbatches");
        double closed = 3.0 / (cases[i].chunks * 8 + 3);
        assert_close(json_number(r->out, "bubble_fraction_closed_form"), closed, TIGHT, "");
        assert_close(json_number(r->out, "bubble_fraction"), closed, 1e-12, "");
        run_free(r);
    }
}

/* --csv is the timeline: one row per stage, micro-batch, chunk and pass (P x 2 x M x v
 * rows after the header), columns stage, microbatch, chunk, pass, start_s, end_s; every
 * pass lasts f/v or b/v, and the last end is the makespan. */
static void schedule_csv_is_the_timeline_row_by_pass(void **state)
{
    (void)state;
    run *r = chalk("schedule --stages 4 --microbatches 8 --schedule interleaved --chunks 2 "
                   "--forward-s 1 --backward-s 2 --csv");
    expect_status(r, 0, "schedule");
    char *save = NULL, *line = strtok_r(r->out, "\n", &save);
    assert_non_null(line);
    assert_string_equal(line, "stage,microbatch,chunk,pass,start_s,end_s");
    int rows = 0;
    double last = 0;
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        bool forward = strstr(line, ",forward,") != NULL;
        assert_true(forward || strstr(line, ",backward,") != NULL);
        double start = csv_number(line, 4), end = csv_number(line, 5);
        assert_close(end - start, forward ? 0.5 : 1.0, 1e-12, "s");
        last = fmax(last, end);
        rows++;
    }
    assert_int_equal(rows, 4 * 2 * 8 * 2);
    assert_close(last, (8 + 1.5) * 3.0, 1e-12, "s");
    run_free(r);
}

/* The first stage's order, as the book prints it: Megatron's figure 4 (top),
 * device 1 of 4 with 8 micro-batches, numbered from 1 there and from 0 here:
 * 4 forwards, 4 pairs of a backward and a forward, 4 backwards. With 2 chunks
 * the words carry the chunk; past 64 passes a stage, the key is null. */
static void schedule_json_names_the_first_stages_order(void **state)
{
    (void)state;
    run *r = chalk("schedule --stages 4 --microbatches 8 --schedule 1f1b --json");
    expect_status(r, 0, "schedule");
    assert_true(json_string_is(r->out, "first_stage_order",
                               "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7"));
    run_free(r);
    r = chalk("schedule --stages 2 --microbatches 2 --schedule interleaved --chunks 2 --json");
    expect_status(r, 0, "schedule");
    /* 2(2 - 0 - 1) + (2 - 1)2 = 4 = m v: every forward, then every backward */
    assert_true(json_string_is(r->out, "first_stage_order",
                               "F0:0 F1:0 F0:1 F1:1 B0:1 B1:1 B0:0 B1:0"));
    run_free(r);
    r = chalk("schedule --stages 4 --microbatches 33 --schedule gpipe --json");
    expect_status(r, 0, "schedule");
    assert_true(json_is_null(r->out, "first_stage_order"));
    run_free(r);
}

/* The table draws the timeline as text, one line per stage. */
static void schedule_table_draws_one_line_per_stage(void **state)
{
    (void)state;
    run *r = chalk("schedule --stages 3 --microbatches 4 --schedule gpipe");
    expect_status(r, 0, "schedule");
    assert_int_equal(count_of(r->out, "\nstage "), 3);
    assert_true(strstr(r->out, "stage  0 |0123") != NULL); /* forwards back to back */
    run_free(r);
}

/* ---- decode-pipelined ----------------------------------------------------------------------- */

/* lecture 4.5: a 20 ms step over 4 racks with 2 ms hops: 4 x 2 = 8 ms of hops, 28 ms
 * a token; ceil(4 x (5 + 2) / 5) = 6 micro-batches; without hops, 4 (lecture 4.3). */
static void decode_pipelined_adds_p_hops_and_needs_more_microbatches(void **state)
{
    (void)state;
    run *r = chalk("decode-pipelined --step-s 0.02 --stages 4 --hop-s 0.002 --json");
    expect_status(r, 0, "decode-pipelined");
    assert_close(json_number(r->out, "hops_s"), 8e-3, 1e-12, "s");
    assert_close(json_number(r->out, "step_s"), 28e-3, 1e-12, "s");
    assert_close(json_number(r->out, "stage_s"), 5e-3, TIGHT, "s");
    assert_close(json_number(r->out, "microbatches"), 6, TIGHT, "microbatches");
    run_free(r);
    r = chalk("decode-pipelined --step-s 0.02 --stages 1:8:8:linear --hop-s 0 --json");
    expect_status(r, 0, "decode-pipelined");
    for (int p = 1; p <= 8; p++) {
        char path[32];
        snprintf(path, sizeof path, "rows.%d.microbatches", p - 1);
        assert_close(json_path(r->out, path), p, TIGHT, "microbatches");
        snprintf(path, sizeof path, "rows.%d.step_s", p - 1);
        assert_close(json_path(r->out, path), 20e-3, 1e-12, "s");
    }
    run_free(r);
}

/* With a model the one-rack step is chapter 1's: 671e9 fp4 weights read by 72 GPUs at
 * 8e12 B/s plus 2,048 x 4,096 KV tokens of 35,136 fp4 elements (17,568 B), memory-bound. */
static void decode_pipelined_takes_the_one_rack_step_from_chapter_1(void **state)
{
    (void)state;
    run *r = chalk("decode-pipelined --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 2048 "
                   "--context 4096 --stages 4 --hop-s 0.002 --json");
    expect_status(r, 0, "decode-pipelined");
    double weights = json_number(r->out, "params_total") * 0.5 / (72 * 8e12);
    double kv = 2048.0 * 4096 * 17568 / (72 * 8e12);
    assert_close(json_number(r->out, "step_without_hops_s"), weights + kv, 1e-9, "s");
    assert_close(json_number(r->out, "step_s"), weights + kv + 4 * 2e-3, 1e-9, "s");
    assert_true(json_string_is(r->out, "bound", "memory"));
    run_free(r);
}

/* ---- pipeline-memory --------------------------------------------------------------------- */

/* lecture 4.4: 1e12 B / (64 P) of weights, 2000 x 200000 x 2048 / 64 = 12.8 GB of KV per
 * GPU whatever P; M = P micro-batches by default. */
static void pipeline_memory_reproduces_the_lecture_cancellation(void **state)
{
    (void)state;
    run *r = chalk("pipeline-memory --params-total 1e12 --weight-bytes 1 --kv-bytes-per-token "
                   "2048 --context 200000 --expert-parallel 64 --microbatch 2000 "
                   "--stages 1:8:8:linear --json");
    expect_status(r, 0, "pipeline-memory");
    for (int p = 1; p <= 8; p++) {
        char path[48];
        snprintf(path, sizeof path, "rows.%d.weight_bytes_per_gpu", p - 1);
        assert_close(json_path(r->out, path), 1e12 / (64.0 * p), TIGHT, "B");
        snprintf(path, sizeof path, "rows.%d.kv_bytes_per_gpu", p - 1);
        assert_close(json_path(r->out, path), 12.8e9, 1e-12, "B");
        snprintf(path, sizeof path, "rows.%d.microbatches", p - 1);
        assert_close(json_path(r->out, path), p, TIGHT, "microbatches");
    }
    run_free(r);
}

/* --microbatches overrides M = P: 6 micro-batches on 4 stages hold 6/4 of the KV. */
static void pipeline_memory_with_more_microbatches_holds_more_kv(void **state)
{
    (void)state;
    run *r = chalk("pipeline-memory --params-total 1e12 --weight-bytes 1 --kv-bytes-per-token "
                   "2048 --context 200000 --expert-parallel 64 --microbatch 2000 --stages 4 "
                   "--microbatches 6 --json");
    expect_status(r, 0, "pipeline-memory");
    assert_close(json_number(r->out, "kv_bytes_per_gpu"), 12.8e9 * 6 / 4, 1e-12, "B");
    run_free(r);
}

/* 12.8 GB of KV and 15.625/P GB of weights: 20 GB per GPU needs ceil(15.625/7.2) = 3
 * stages; 12 GB, none, with a reason; a GB200 GPU (186 GB) fits one. */
static void pipeline_memory_finds_the_fewest_stages_or_says_none_fit(void **state)
{
    (void)state;
    const char *base = "pipeline-memory --params-total 1e12 --weight-bytes 1 "
                       "--kv-bytes-per-token 2048 --context 200000 --expert-parallel 64 "
                       "--microbatch 2000 --stages 1";
    run *r = chalk("%s --hbm-bytes 20e9 --json", base);
    expect_status(r, 0, "pipeline-memory");
    assert_close(json_number(r->out, "min_stages_to_fit"), 3, TIGHT, "stages");
    assert_true(strstr(r->out, "\"fits_hbm\": false") != NULL);
    run_free(r);
    r = chalk("%s --hbm-bytes 12e9 --json", base);
    expect_status(r, 0, "pipeline-memory");
    assert_true(json_is_null(r->out, "min_stages_to_fit"));
    assert_false(json_is_null(r->out, "min_stages_to_fit_reason"));
    run_free(r);
    r = chalk("%s --hw gb200-nvl72 --json", base);
    expect_status(r, 0, "pipeline-memory");
    assert_close(json_number(r->out, "min_stages_to_fit"), 1, TIGHT, "stages");
    assert_true(strstr(r->out, "\"fits_hbm\": true") != NULL);
    run_free(r);
}

/* ---- weight-read --------------------------------------------------------------------------- */

/* lecture 4.6: 1e12 bytes read by 72 x 8e12 B/s (GB200) against 8 x 3.35e12 B/s (H100):
 * the domain grows 72 / 8 = 9x (the lecture says 8x); the weight read per token does not
 * change with the stages, and the weights per GPU fall as 1/P. */
static void weight_read_compares_domains_and_ignores_stages(void **state)
{
    (void)state;
    run *r = chalk("weight-read --params-total 1e12 --weight-bytes 1 --hw gb200-nvl72 "
                   "--versus h100-sxm --json");
    expect_status(r, 0, "weight-read");
    assert_close(json_number(r->out, "weight_read_s"), 1e12 / (72 * 8e12), TIGHT, "s");
    assert_close(json_number(r->out, "versus_weight_read_s"), 1e12 / (8 * 3.35e12), TIGHT, "s");
    assert_close(json_number(r->out, "domain_growth"), 9.0, TIGHT, "x");
    assert_close(json_number(r->out, "weight_read_speedup"), 72 * 8e12 / (8 * 3.35e12), TIGHT,
                 "x");
    assert_close(json_number(r->out, "domain_hbm_bytes"), 72 * 186e9, TIGHT, "B");
    run_free(r);
    r = chalk("weight-read --params-total 1e12 --weight-bytes 1 --hw gb200-nvl72 --stages 8 "
              "--json");
    expect_status(r, 0, "weight-read");
    assert_close(json_number(r->out, "weight_read_s"), 1e12 / (72 * 8e12), TIGHT, "s");
    assert_close(json_number(r->out, "weight_bytes_per_gpu"), 1e12 / (72 * 8.0), TIGHT, "B");
    run_free(r);
}

/* ---- rack-hop on a torus, pipeline-split ---------------------------------------------- */

/* Google's TPU v5e page: a 256-chip pod with 1.6 TB/s of bisection; an all-to-all
 * among its chips runs at 4 x 1.6e12 / 256 = 2.5e10 B/s per chip (section 3.2.1),
 * against 3.125e9 of network per chip: a gap of 8, so top-8 needs 1 layer, top-2 2. */
static void rack_hop_on_a_torus_is_held_to_its_bisection(void **state)
{
    (void)state;
    run *r = chalk("rack-hop --hw tpu-v5e --bisection-bytes-per-s 1.6e12 --top-k 2 --json");
    expect_status(r, 0, "rack-hop");
    assert_close(json_number(r->out, "alltoall_bytes_per_s"), 4 * 1.6e12 / 256, TIGHT, "B/s");
    assert_close(json_number(r->out, "bandwidth_ratio"), 2.5e10 / 3.125e9, TIGHT, "x");
    assert_close(json_number(r->out, "min_layers_per_stage"), 2, TIGHT, "layers");
    run_free(r);
    r = chalk("rack-hop --hw gb200-nvl72 --bisection-bytes-per-s 0 --top-k 8 --json");
    expect_status(r, 0, "rack-hop");
    assert_close(json_number(r->out, "alltoall_bytes_per_s"), 900e9, TIGHT, "B/s");
    run_free(r);
}

/* Section 3.7: the lecture's model in 100 layers on 64 GPUs of 20 GB, a 20 ms step.
 * Without hops 3 stages fit: the fullest holds 34 layers and 3 micro-batches,
 * 0.34 x (1e12 + 3 x 2000 x 200000 x 2048) / 64 B per GPU. With 2 ms hops none fits. */
static void pipeline_split_finds_the_fewest_racks_or_says_none_fit(void **state)
{
    (void)state;
    const char *base = "pipeline-split --params-total 1e12 --weight-bytes 1 "
                       "--kv-bytes-per-token 2048 --layers 100 --expert-parallel 64 "
                       "--hbm-bytes 20e9 --microbatch 2000 --context 200000 --step-s 0.02";
    run *r = chalk("%s --hop-s 0 --json", base);
    expect_status(r, 0, "pipeline-split");
    assert_close(json_number(r->out, "stages"), 3, TIGHT, "stages");
    assert_close(json_number(r->out, "max_layers_per_stage"), 34, TIGHT, "layers");
    assert_close(json_number(r->out, "microbatches"), 3, TIGHT, "microbatches");
    assert_close(json_number(r->out, "token_s"), 0.02, TIGHT, "s");
    assert_close(json_number(r->out, "bytes_per_gpu"),
                 0.34 * (1e12 + 3 * 2000 * 200000 * 2048.0) / 64, 1e-12, "B");
    run_free(r);
    r = chalk("%s --hop-s 0.002 --json", base);
    expect_status(r, 0, "pipeline-split");
    assert_true(strstr(r->out, "\"stages\": null") != NULL);
    assert_true(strstr(r->out, "\"stages_reason\": \"none of 1 to 64 stages") != NULL);
    assert_true(json_string_is(r->out, "verdict", "none"));
    run_free(r);
}

/* ---- bad input ------------------------------------------------------------------------------ */

/* Every mistake in the input is one line on stderr and exit 2. */
static void every_bad_input_to_chapter_3_commands_exits_2_with_one_error_line(void **state)
{
    (void)state;
    const char *cases[] = {
        "rack-hop --top-k 8",                                    /* no gap */
        "rack-hop --bandwidth-ratio 8",                          /* no top-k, no model */
        "rack-hop --bandwidth-ratio 8 --hw h100-sxm --top-k 2",  /* both gaps */
        "rack-hop --model llama3-70b --bandwidth-ratio 8",       /* dense model */
        "rack-hop --bandwidth-ratio 0 --top-k 8",                /* out of range */
        "rack-hop --bandwidth-ratio -8 --top-k 8",
        "rack-hop --bandwidth-ratio 8 --top-k 2.5",
        "rack-hop --bandwidth-ratio 8 --top-k 8 --layers-per-stage 0",
        "rack-hop --bandwidth-ratio 8 --top-k 8 --tokens 100",   /* times need hw and width */
        "rack-hop --hw nosuch --top-k 8",                        /* unknown preset */
        "rack-hop --bandwidth-ratio 8 --top-k 1:8 --layers-per-stage 1:4", /* two sweeps */
        "bubble --stages 4",                                     /* missing */
        "bubble --microbatches 4",
        "bubble --stages 0 --microbatches 4",
        "bubble --stages 4 --microbatches 1.5",
        "bubble --stages 4 --microbatches x",
        "bubble --stages 4 --microbatches 4 --chunks 0",
        "schedule --stages 4 --microbatches 8",                  /* no schedule */
        "schedule --stages 4 --microbatches 8 --schedule pipedream", /* unknown */
        "schedule --stages 4 --microbatches 8 --schedule interleaved", /* no chunks */
        "schedule --stages 4 --microbatches 6 --schedule interleaved --chunks 2", /* m % p */
        "schedule --stages 4 --microbatches 8 --schedule 1f1b --chunks 2",
        "schedule --stages 65 --microbatches 8 --schedule gpipe", /* too big to draw */
        "schedule --stages 4 --microbatches 300 --schedule gpipe",
        "schedule --stages 4 --microbatches 8 --schedule gpipe --forward-s 0",
        "schedule --stages 4 --microbatches 8 --schedule gpipe --backward-s -1",
        "schedule --stages 4 --schedule gpipe",
        "schedule --stages 1:4 --microbatches 8 --schedule gpipe", /* no sweeps */
        "decode-pipelined --step-s 0.02 --stages 4",             /* no hop */
        "decode-pipelined --step-s 0.02 --hop-s 0.002",          /* no stages */
        "decode-pipelined --step-s 0 --stages 4 --hop-s 0.002",
        "decode-pipelined --step-s 0.02 --stages 4 --hop-s -1",
        "decode-pipelined --step-s 0.02 --stages 4 --hop-s 0.002 --model deepseek-v3",
        "decode-pipelined --model deepseek-v3 --hw gb200-nvl72 --stages 4 --hop-s 0.002",
        "pipeline-memory --model deepseek-v3 --stages 2 --microbatch 2048 --context 4096",
        "pipeline-memory --model deepseek-v3 --expert-parallel 64 --microbatch 2048 --context 1",
        "pipeline-memory --params-total 1e12 --expert-parallel 64 --stages 2 --microbatch 8 "
        "--context 8",                                           /* no KV size */
        "pipeline-memory --model deepseek-v3 --expert-parallel 0 --stages 2 --microbatch 8 "
        "--context 8",
        "pipeline-memory --model deepseek-v3 --hw gb200-nvl72 --stages 1:4 --microbatch 1:8 "
        "--context 8",
        "weight-read --params-total 1e12",                       /* no bandwidth */
        "weight-read --params-total 1e12 --hw h100-sxm --versus nosuch",
        "weight-read --params-total 1e12 --hbm-bytes-per-s 1e12 --versus h100-sxm",
        "weight-read --params-total 1e12 --hw h100-sxm --stages 0",
        "bubble --stages 4 --microbatches 4 --frob 1",           /* unknown flag */
        "rack-hop --bandwidth-ratio 8 --top-k 8 --bisection-bytes-per-s 1e12", /* no hw */
        "rack-hop --hw tpu-v5e --top-k 8 --bisection-bytes-per-s -1",
        "pipeline-split --params-total 1e12 --kv-bytes-per-token 2048 --expert-parallel 64 "
        "--hbm-bytes 20e9 --microbatch 2000 --context 1 --step-s 0.02 --hop-s 0", /* layers */
        "pipeline-split --params-total 1e12 --kv-bytes-per-token 2048 --layers 60 "
        "--expert-parallel 64 --hbm-bytes 20e9 --microbatch 2000 --context 1 --step-s 0.02",
        "pipeline-split --params-total 1e12 --kv-bytes-per-token 2048 --layers 60 "
        "--expert-parallel 64 --microbatch 2000 --context 1 --step-s 0.02 --hop-s 0", /* hbm */
        "pipeline-split --params-total 1e12 --kv-bytes-per-token 2048 --layers 60 "
        "--expert-parallel 64 --hbm-bytes 20e9 --microbatch 1:8 --context 1:8 --step-s 0.02 "
        "--hop-s 0",                                             /* two sweeps */
        "pipeline-split --params-total 1e12 --kv-bytes-per-token 2048 --layers 60 "
        "--expert-parallel 64 --hbm-bytes 20e9 --microbatch 2000 --context 1 --step-s 0.02 "
        "--hop-s 0 --max-stages 0",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_one_error_line(r, cases[i]);
        run_free(r);
    }
}

const struct CMUnitTest chalk_tests_03_pipelining[] = {
    CHALK_TEST(chalk, rack_hop_reproduces_the_lecture_condition),
    CHALK_TEST(chalk, rack_hop_of_deepseek_on_gb200_uses_the_preset_gap_and_width),
    CHALK_TEST(chalk, rack_hop_without_layers_gives_nulls_with_reasons),
    CHALK_TEST(chalk, bubble_of_four_racks_and_one_inference_is_three_quarters),
    CHALK_TEST(chalk, bubble_with_chunks_and_a_sweep_of_microbatches),
    CHALK_TEST(chalk, schedule_json_measures_the_closed_forms),
    CHALK_TEST(chalk, schedule_csv_is_the_timeline_row_by_pass),
    CHALK_TEST(chalk, schedule_json_names_the_first_stages_order),
    CHALK_TEST(chalk, schedule_table_draws_one_line_per_stage),
    CHALK_TEST(chalk, decode_pipelined_adds_p_hops_and_needs_more_microbatches),
    CHALK_TEST(chalk, decode_pipelined_takes_the_one_rack_step_from_chapter_1),
    CHALK_TEST(chalk, pipeline_memory_reproduces_the_lecture_cancellation),
    CHALK_TEST(chalk, pipeline_memory_with_more_microbatches_holds_more_kv),
    CHALK_TEST(chalk, pipeline_memory_finds_the_fewest_stages_or_says_none_fit),
    CHALK_TEST(chalk, weight_read_compares_domains_and_ignores_stages),
    CHALK_TEST(chalk, rack_hop_on_a_torus_is_held_to_its_bisection),
    CHALK_TEST(chalk, pipeline_split_finds_the_fewest_racks_or_says_none_fit),
    CHALK_TEST(chalk, every_bad_input_to_chapter_3_commands_exits_2_with_one_error_line),
};
const size_t chalk_tests_03_pipelining_count =
    sizeof chalk_tests_03_pipelining / sizeof chalk_tests_03_pipelining[0];
