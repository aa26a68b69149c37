/*
 * test_pipelining_hidden.c -- Chapter 3 instructor-only tests, run by `make grade`
 * beside the public tests and never shipped in a handout. They check the same
 * contract (exercises/03-pipelining/pipelining.h) on other inputs than the public
 * tests, so an answer shaped to the public tests' inputs does not pass. Expected
 * values are closed forms with published inputs, never program output.
 *
 * Sources: GPipe (Huang et al. 2019) and Megatron (Narayanan et al. 2021) for the
 * bubbles; Megatron-LM's interleaved warm-up 2 (p - rank - 1) + (v - 1) p.
 * Published inputs: Mixtral 8x7B d_model 4,096, top-2 of 8 experts (config.json);
 * H100 NVLink 450e9 B/s and NIC 50e9 B/s per GPU each way; TPU v5e ICI 1.8e11 B/s
 * and DCN 3.125e9 B/s per chip (scaling-book gpus.md, tpus.md); TPU v5p 9e10 B/s
 * per ICI link one way (scaling-book tpus.md), a 4x4x4 cube with wraparound links.
 */
#include "../../test_util.h"

#include <stdlib.h>
#include <string.h>

#include "pipelining.h"

#define TIGHT 1e-9

static pipelining_timeline simulate_plan(pipelining_schedule schedule, int p, int m, int v,
                                         double f, double b)
{
    pipelining_plan plan = {.schedule = schedule, .stages = p, .microbatches = m,
                            .chunks = v, .forward_s = f, .backward_s = b};
    size_t n = (size_t)p * 2 * m * v;
    pipelining_op *ops = calloc(n, sizeof *ops);
    assert_non_null(ops);
    pipelining_timeline t = {0};
    bool ok = pipelining_simulate(&plan, ops, n, &t);
    free(ops);
    assert_true(ok);
    return t;
}

/* Mixtral 8x7B on 8 H100s, 512 tokens, 2 layers per stage, bf16: the two times. */
static void mixtral_on_an_h100_node(void **state)
{
    (void)state;
    pipelining_hop h = {
        .tokens = 512, .d_model = 4096, .activation_bytes = 2, .experts_per_token = 2,
        .layers_per_stage = 2, .chips = 8, .scaleup_bytes_per_s = 450e9,
        .scaleout_bytes_per_s = 50e9,
    };
    assert_close(pipelining_scaleup_s(&h), 512 * 2.0 * 2 * 2 * 4096 * 2 / (8 * 450e9), TIGHT,
                 "s");
    assert_close(pipelining_scaleout_s(&h), 512 * 4096 * 2.0 / (8 * 50e9), TIGHT, "s");
}

/* H100's gap of 9 needs ceil(9 / 4) = 3 layers for top-2; TPU v5e's 57.6 (its
 * full ICI rate over its network, an upper bound on the gap by
 * §3.2.1 (When the scale-up network is a torus)) needs
 * ceil(57.6 / 16) = 4 for top-8 and the ratio at 4 layers is 64 / 57.6. */
static void h100_top2_needs_three_layers_tpu_v5e_top8_four(void **state)
{
    (void)state;
    assert_int_equal(pipelining_min_layers_per_stage(450e9 / 50e9, 2), 3);
    assert_int_equal(pipelining_min_layers_per_stage(1.8e11 / 3.125e9, 8), 4);
    assert_close(pipelining_hop_ratio(1.8e11 / 3.125e9, 8, 4), 64 / 57.6, TIGHT, "x");
}

/* GPipe with 16 stages and 64 micro-batches: 15/79 of the time idle, 15/64 of the
 * ideal; interleaving by 8 makes it 15/512 of the ideal. */
static void sixteen_stages_sixty_four_microbatches(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_fraction(16, 64, 1), 15.0 / 79.0, TIGHT, "");
    assert_close(pipelining_bubble_over_ideal(16, 64, 1), 15.0 / 64.0, TIGHT, "");
    assert_close(pipelining_bubble_over_ideal(16, 64, 8), 15.0 / 512.0, TIGHT, "");
    assert_close(pipelining_bubble_fraction(16, 64, 8), 15.0 / 527.0, TIGHT, "");
}

/* 1F1B on 6 stages, 3 micro-batches: stage 1 warms up min(4, 3) = 3, so it runs
 * every forward before the first backward; stage 4 warms up 1. */
static void short_1f1b_warm_ups(void **state)
{
    (void)state;
    pipelining_plan plan = {.schedule = PIPELINING_1F1B, .stages = 6, .microbatches = 3,
                            .chunks = 1, .forward_s = 1, .backward_s = 1};
    for (int k = 0; k < 3; k++)
        assert_int_equal(pipelining_1f1b_op(&plan, 1, k).pass, PIPELINING_FORWARD);
    assert_int_equal(pipelining_1f1b_op(&plan, 1, 3).pass, PIPELINING_BACKWARD);
    assert_int_equal(pipelining_1f1b_op(&plan, 4, 1).pass, PIPELINING_FORWARD);
    assert_int_equal(pipelining_1f1b_op(&plan, 4, 1).microbatch, 1);
    assert_int_equal(pipelining_1f1b_op(&plan, 4, 2).pass, PIPELINING_BACKWARD);
    assert_int_equal(pipelining_1f1b_op(&plan, 4, 2).microbatch, 0);
    assert_int_equal(pipelining_gpipe_op(&plan, 5, 3).microbatch, 2);
}

/* Interleaved, 3 stages, 6 micro-batches, 3 chunks, stage 1: a warm-up of
 * 2 x 1 + 2 x 3 = 8; forward 7 is micro-batch (7 / 9) x 3 + 7 % 3 = 1 on chunk
 * (7 / 3) % 3 = 2; the first backward is micro-batch 0 on chunk 2. */
static void interleaved_three_chunks(void **state)
{
    (void)state;
    pipelining_plan plan = {.schedule = PIPELINING_INTERLEAVED, .stages = 3,
                            .microbatches = 6, .chunks = 3, .forward_s = 1,
                            .backward_s = 2};
    pipelining_op op = pipelining_interleaved_op(&plan, 1, 7);
    assert_int_equal(op.pass, PIPELINING_FORWARD);
    assert_int_equal(op.microbatch, 1);
    assert_int_equal(op.chunk, 2);
    op = pipelining_interleaved_op(&plan, 1, 9);
    assert_int_equal(op.pass, PIPELINING_BACKWARD);
    assert_int_equal(op.microbatch, 0);
    assert_int_equal(op.chunk, 2);
}

/* Measured against the closed forms on other shapes and times: 7 stages with
 * b = 3f, and interleaved 5 stages x 10 micro-batches x 4 chunks. */
static void simulated_bubbles_on_other_shapes(void **state)
{
    (void)state;
    pipelining_timeline g = simulate_plan(PIPELINING_GPIPE, 7, 5, 1, 0.5, 1.5);
    assert_close(g.makespan_s, (5 + 6) * 2.0, TIGHT, "s");
    pipelining_timeline o = simulate_plan(PIPELINING_1F1B, 7, 20, 1, 0.5, 1.5);
    assert_close(o.bubble_fraction, 6.0 / 26.0, TIGHT, "");
    assert_close(o.peak_microbatches_in_flight, 7, TIGHT, "microbatches");
    pipelining_timeline i = simulate_plan(PIPELINING_INTERLEAVED, 5, 10, 4, 1.0, 2.0);
    assert_close(i.bubble_over_ideal, 4.0 / 40.0, TIGHT, "");
    assert_close(i.peak_microbatches_in_flight, 5 + 4.0 / 4, TIGHT, "microbatches");
}

/* Two racks, 8 ms stages, 5 ms hops: 26 ms a token, ceil(26 / 8) = 4 micro-batches. */
static void two_racks_with_slow_hops(void **state)
{
    (void)state;
    assert_close(pipelining_decode_token_s(2, 8e-3, 5e-3), 26e-3, TIGHT, "s");
    assert_int_equal(pipelining_decode_microbatches(2, 8e-3, 5e-3), 4);
    assert_int_equal(pipelining_decode_microbatches(3, 4e-3, 4e-3), 6); /* exactly */
}

/* A 671 GB model on 72-GPU racks, 2,048 sequences of 32k at 70,272 B/token:
 * KV = 2048 x 32768 x 70272 / 72 = 65.5 GB per GPU whatever P; a 80 GB GPU then
 * has 14.5 GB for 671e9 / (72 P): P = 1; a 70 GB GPU needs ceil(9.32 / 4.50) = 3. */
static void deepseek_sized_capacity(void **state)
{
    (void)state;
    pipelining_memory m = {
        .weight_bytes = 671e9, .kv_bytes_per_token = 70272, .context_tokens = 32768,
        .microbatch_seqs = 2048, .microbatches = 3, .chips = 72, .stages = 3,
    };
    double kv = 2048.0 * 32768 * 70272 / 72;
    assert_close(pipelining_kv_bytes_per_gpu(&m), kv, TIGHT, "B");
    assert_close(pipelining_weight_bytes_per_gpu(&m), 671e9 / 216, TIGHT, "B");
    pipelining_fit fit = pipelining_min_stages_to_fit(&m, 80e9);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, (int)ceil(671e9 / (72 * (80e9 - kv))));
    fit = pipelining_min_stages_to_fit(&m, 70e9);
    assert_true(fit.exists);
    assert_int_equal(fit.stages, (int)ceil(671e9 / (72 * (70e9 - kv))));
    assert_false(pipelining_min_stages_to_fit(&m, 60e9).exists);
}

/* A TPU v5p cube of 4x4x4 chips with wraparound links: a cut into halves crosses
 * 2 x 16 links of 9e10 B/s each way, 2.88e12 B/s; an all-to-all among its 64
 * chips runs at 4 x 2.88e12 / 64 = 1.8e11 B/s per chip, a third of the chip's
 * 6 x 9e10 = 5.4e11. A 2x2x1 slice's cut (2 links, 1.8e11) would allow
 * 4 x 1.8e11 / 4 = 1.8e11, below its chips' 4 links: 1.8e11 again. */
static void tpu_v5p_cube_alltoall_is_a_third_of_its_ici(void **state)
{
    (void)state;
    assert_close(pipelining_alltoall_bytes_per_s(5.4e11, 2 * 16 * 9e10, 64), 1.8e11, TIGHT,
                 "B/s");
    assert_close(pipelining_alltoall_bytes_per_s(3.6e11, 2 * 9e10, 4), 1.8e11, TIGHT, "B/s");
    assert_close(pipelining_alltoall_bytes_per_s(450e9, 0, 8), 450e9, TIGHT, "B/s");
}

/* The rounding rule on another quotient: 2.1 / 0.35 = 6.000000000000001, so
 * top-3 routing needs 6 / 6 = 1 layer, not 2; and 1.8 / 0.03 = 60 with top-6
 * needs 5. */
static void whole_gaps_that_compute_a_hair_above(void **state)
{
    (void)state;
    assert_int_equal(pipelining_min_layers_per_stage(2.1 / 0.35, 3), 1);
    assert_int_equal(pipelining_min_layers_per_stage(1.8 / 0.03, 6), 5);
}

/* One stage, 2 stages and the rounding rule: one rack at 12 ms has no hop; two
 * racks of 6 ms with 3 ms hops take 18 ms and need ceil(18 / 6) = 3; six racks
 * of 5 ms with no hop need 6 x 5e-3 / 5e-3 = 6 (it computes to 6.000000000000001). */
static void decode_loop_edges(void **state)
{
    (void)state;
    assert_close(pipelining_decode_token_s(1, 12e-3, 3e-3), 12e-3, TIGHT, "s");
    assert_int_equal(pipelining_decode_microbatches(1, 12e-3, 3e-3), 1);
    assert_close(pipelining_decode_token_s(2, 6e-3, 3e-3), 18e-3, TIGHT, "s");
    assert_int_equal(pipelining_decode_microbatches(2, 6e-3, 3e-3), 3);
    assert_int_equal(pipelining_decode_microbatches(6, 5e-3, 0), 6);
}

/* Interleaved with p = 3, m = 3, v = 3: the first stage's warm-up 2 x 2 + 2 x 3 =
 * 10 is capped at m v = 9, so its tenth pass is the first backward: micro-batch 0
 * on chunk 2. */
static void interleaved_cap_with_three_chunks(void **state)
{
    (void)state;
    pipelining_plan plan = {.schedule = PIPELINING_INTERLEAVED, .stages = 3,
                            .microbatches = 3, .chunks = 3, .forward_s = 1,
                            .backward_s = 2};
    pipelining_op op = pipelining_interleaved_op(&plan, 0, 8);
    assert_int_equal(op.pass, PIPELINING_FORWARD);
    assert_int_equal(op.microbatch, 2);
    assert_int_equal(op.chunk, 2);
    op = pipelining_interleaved_op(&plan, 0, 9);
    assert_int_equal(op.pass, PIPELINING_BACKWARD);
    assert_int_equal(op.microbatch, 0);
    assert_int_equal(op.chunk, 2);
}

/* A 2 TB model of 80 layers on racks of 72 GPUs of 186 GB, 1,024 sequences of
 * 32,768 tokens at 70,272 B per micro-batch (2.36e12 B of cache), a 30 ms step
 * and 3 ms hops, 4 layers hiding a hop. One stage: 2e12 / 72 + 2.36e12 / 72 =
 * 60.5 GB fits. With 40 GB GPUs: P = 2 (M = ceil(36 / 15) = 3) holds
 * (1/2)(2e12 + 3 x 2.36e12) / 72 = 63.0 GB; P = 3 (27 of 80 layers,
 * M = ceil(39 / 10.125) = 4) 53.6 GB; P = 4 (M = ceil(42 / 7.5) = 6) 56.1 GB;
 * beyond, more still: no split. Without hops M = P for stages that divide the
 * layers and P = 3 holds 42.5 GB, P = 4 (20 layers) 39.7 GB: 4 stages. */
static void deepseek_sized_split(void **state)
{
    (void)state;
    double cache = 1024.0 * 32768 * 70272;
    pipelining_deployment d = {
        .layers = 80, .weight_bytes = 2e12, .kv_bytes_per_token = 70272,
        .context_tokens = 32768, .microbatch_seqs = 1024, .chips = 72, .hbm_bytes = 186e9,
        .step_s = 30e-3, .hop_s = 3e-3, .min_layers_per_stage = 4, .max_stages = 20,
    };
    pipelining_split s = pipelining_best_split(&d);
    assert_int_equal(s.stages, 1);
    assert_close(s.bytes_per_gpu, (2e12 + cache) / 72, TIGHT, "B");
    d.hbm_bytes = 40e9;
    assert_false(pipelining_best_split(&d).exists);
    d.hop_s = 0;
    s = pipelining_best_split(&d);
    assert_int_equal(s.stages, 4);
    assert_int_equal(s.max_layers_per_stage, 20);
    assert_int_equal(s.microbatches, 4);
    assert_close(s.bytes_per_gpu, 20.0 / 80 * (2e12 + 4 * cache) / 72, TIGHT, "B");
}

/* ---- balance: sizes where trying every cut cannot finish -------------------------- */

/* The least slowest stage over every cut and the contract's cut, by a dynamic
 * programme independent of the reference (instructor-only): ok[k][j] says layers j..
 * split into exactly k runs of at most `limit`; bisection over the limit. */
enum { H_LAYERS = 1000, H_STAGES = 32 };
static unsigned char ok[H_STAGES + 1][H_LAYERS + 1];

static void cuts_within(const long long *ns, int layers, int stages, long long limit)
{
    memset(ok, 0, sizeof ok);
    ok[0][layers] = 1;
    for (int k = 1; k <= stages; k++) {
        /* ok[k][j] = some e > j with sum(j..e-1) <= limit and ok[k-1][e]: a window */
        int e = layers, count = 0; /* ok[k-1][e'] for e' in (j, e] within the limit */
        long long window = 0;
        for (int j = layers - 1; j >= 0; j--) {
            window += ns[j];
            count += ok[k - 1][j + 1];
            while (window > limit && e > j) {
                window -= ns[e - 1];
                count -= ok[k - 1][e];
                e--;
            }
            ok[k][j] = count > 0;
        }
    }
}

static long long least_slowest(const long long *ns, int layers, int stages, int *first)
{
    long long lo = 1, hi = 0;
    for (int i = 0; i < layers; i++)
        hi += ns[i];
    while (lo < hi) {
        long long mid = lo + (hi - lo) / 2;
        cuts_within(ns, layers, stages, mid);
        if (ok[stages][0])
            hi = mid;
        else
            lo = mid + 1;
    }
    cuts_within(ns, layers, stages, lo);
    int j = 0;
    for (int s = 0; s < stages; s++) {
        first[s] = j;
        long long t = 0;
        int take = j;
        for (int e = j + 1; e <= layers; e++) {
            t += ns[e - 1];
            if (t > lo)
                break;
            if (ok[stages - s - 1][e])
                take = e;
        }
        j = take;
    }
    return lo;
}

static void check_against_programme(const long long *ns, int layers, int stages)
{
    int want[H_STAGES], got[H_STAGES];
    long long least = least_slowest(ns, layers, stages, want);
    pipelining_cuts c = pipelining_balanced_cuts(ns, layers, stages, got);
    assert_true(c.exists);
    assert_true(c.slowest_stage_ns == least);
    for (int s = 0; s < stages; s++)
        assert_int_equal(got[s], want[s]);
}

/* 1,000 layers on 32 stages (C(999, 31) cuts), two profiles. */
static void a_thousand_layers_on_thirty_two_stages(void **state)
{
    (void)state;
    static long long ns[H_LAYERS];
    for (int i = 0; i < H_LAYERS; i++)
        ns[i] = 500000 + 997LL * ((7919 * i) % 1009);
    check_against_programme(ns, H_LAYERS, H_STAGES);
    for (int i = 0; i < H_LAYERS; i++)
        ns[i] = i % 50 == 0 ? 9000000 : 100000 + i;
    check_against_programme(ns, H_LAYERS, 20);
}

/* The ties on a model whose first and last layers are heavy: 2, six of 1, 2 on 3
 * stages. By hand: 10 over 3 stages is above 3, so no cut beats 4; stage 0 takes the
 * most layers within 4 (2+1+1), stage 1 then the most (1+1+1+1), and stage 2 the last
 * layer (2). */
static void heavy_ends_and_the_ties(void **state)
{
    (void)state;
    long long ns[8] = {2, 1, 1, 1, 1, 1, 1, 2};
    int first[9]; /* the contract: `stages` ints, 9 in the last call */
    pipelining_cuts c = pipelining_balanced_cuts(ns, 8, 3, first);
    assert_true(c.exists);
    assert_true(c.slowest_stage_ns == 4);
    assert_int_equal(first[0], 0);
    assert_int_equal(first[1], 3);
    assert_int_equal(first[2], 7);
    assert_false(pipelining_balanced_cuts(ns, 8, 9, first).exists);
}

/* A 671 GB model (DeepSeek-V3's parameters in fp8) on racks of 72 GPUs of 186 GB,
 * 32k tokens of context at 70,272 B per token (61 layers x 576 x 2 B), a 30 ms step
 * on one rack. By hand, with B = floor((C n P - W) / (M L b)):
 *   P = 1: M = 1, (186e9 x 72 - 671e9) / 2,302,672,896 = 5,524.4 -> 5,524;
 *   P = 3, 1 ms hops: trip 30 + 3 ms over 10 ms stages, M = ceil(3.3) = 4,
 *     (186e9 x 216 - 671e9) / (4 x 2,302,672,896) = 4,289.04 -> 4,289;
 *   P = 3, no hops: M = 3, 5,718.8 -> 5,718;
 *   P = 2, 5 ms hops: trip 30 + 10 over 15, M = ceil(2.67) = 3, 3,780.1 -> 3,780.
 * HBM below the weights' share, 671e9 / 72 = 9.32 GB on one rack: no answer. */
static void deepseek_sized_microbatch(void **state)
{
    (void)state;
    pipelining_memory m = {
        .weight_bytes = 671e9, .kv_bytes_per_token = 70272, .context_tokens = 32768,
        .microbatch_seqs = 1, .microbatches = 1, .chips = 72, .stages = 1,
    };
    double seq = 32768.0 * 70272;
    const int stages[4] = {1, 3, 3, 2};
    const double hop[4] = {1e-3, 1e-3, 0, 5e-3};
    const int mbs[4] = {1, 4, 3, 3};
    for (int i = 0; i < 4; i++) {
        m.stages = stages[i];
        double want = floor((186e9 * 72 * stages[i] - 671e9) / (mbs[i] * seq));
        pipelining_batch b = pipelining_max_microbatch(&m, 186e9, 30e-3, hop[i]);
        assert_true(b.exists);
        assert_int_equal(b.microbatches, mbs[i]);
        assert_close(b.microbatch_seqs, want, TIGHT, "sequences");
        assert_close(b.sequences_in_flight, mbs[i] * want, TIGHT, "sequences");
    }
    m.stages = 1;
    assert_false(pipelining_max_microbatch(&m, 9e9, 30e-3, 0).exists);
}

/* Edges: a model without weights holds floor(C n P / (M L b)); on 8 GPUs of 80 GB, 2
 * stages, 1 ms hops on a 10 ms step (M = 2 + ceil(4 x 1 / 10) = 3), 1M tokens of 1 kB:
 * 80e9 x 16 / (3 x 1.024e9) = 416.7 -> 416. A cache of one sequence larger than a
 * GPU's share of the HBM: no answer. */
static void microbatch_edges(void **state)
{
    (void)state;
    pipelining_memory m = {
        .weight_bytes = 0, .kv_bytes_per_token = 1024, .context_tokens = 1e6,
        .microbatch_seqs = 0, .microbatches = 0, .chips = 8, .stages = 2,
    };
    pipelining_batch b = pipelining_max_microbatch(&m, 80e9, 10e-3, 1e-3);
    assert_true(b.exists);
    assert_int_equal(b.microbatches, 3);
    assert_close(b.microbatch_seqs, 416, TIGHT, "sequences");
    assert_close(b.sequences_in_flight, 1248, TIGHT, "sequences");
    m.context_tokens = 1e9; /* 1.024 TB a sequence: 64 GB a GPU, x 3 micro-batches */
    assert_false(pipelining_max_microbatch(&m, 80e9, 10e-3, 1e-3).exists);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(rack_hop, mixtral_on_an_h100_node),
        CHALK_TEST(hop_condition, h100_top2_needs_three_layers_tpu_v5e_top8_four),
        CHALK_TEST(bubble, sixteen_stages_sixty_four_microbatches),
        CHALK_TEST(schedule_order, short_1f1b_warm_ups),
        CHALK_TEST(interleaved_order, interleaved_three_chunks),
        CHALK_TEST(simulate, simulated_bubbles_on_other_shapes),
        CHALK_TEST(decode_loop, two_racks_with_slow_hops),
        CHALK_TEST(capacity, deepseek_sized_capacity),
        CHALK_TEST(rack_hop, tpu_v5p_cube_alltoall_is_a_third_of_its_ici),
        CHALK_TEST(hop_condition, whole_gaps_that_compute_a_hair_above),
        CHALK_TEST(decode_loop, decode_loop_edges),
        CHALK_TEST(interleaved_order, interleaved_cap_with_three_chunks),
        CHALK_TEST(split, deepseek_sized_split),
        CHALK_TEST(balance, a_thousand_layers_on_thirty_two_stages),
        CHALK_TEST(balance, heavy_ends_and_the_ties),
        CHALK_TEST(max_microbatch, deepseek_sized_microbatch),
        CHALK_TEST(max_microbatch, microbatch_edges),
    };
    return cmocka_run_group_tests_name("03-pipelining hidden", tests, NULL, NULL);
}
