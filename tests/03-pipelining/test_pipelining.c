/*
 * test_pipelining.c -- Chapter 3 tests: rack hops, bubbles, the schedule simulator,
 * the decode loop and memory per GPU.
 *
 * Built twice: against exercises/03-pipelining/pipelining.c (yours) and against
 * the reference solution (in the instructor's copy). Each test states one fact;
 * the comment above it names where the expected value comes from. The one-star
 * exercises' expected values are written as the chapter's formulas with published
 * inputs; the others' (E_ names) are in expected.h, derived from their sources in
 * the instructor's copy, never copied from a program's output.
 *
 * Sections of the book are cited as §N.M (Title), the lecture by timestamp.
 *
 * Sources of the closed forms:
 *   [lecture]   Pope and Patel, Dwarkesh Podcast, 2026: the rack-hop ratio
 *               (1/8) x 2 x n_act x L_stage >= 1 (48:34-53:54); 4 racks, one
 *               micro-batch, 3/4 idle (57:06); M = P micro-batches in decode and
 *               the capacity equation (64:06-72:48); hops of "a few
 *               milliseconds" (72:48-76:39), which the book takes as 2 ms
 *   [GPipe]     Huang et al. 2019, arXiv:1811.06965: bubble (p-1)/(m+p-1) of the
 *               total; figure 2 (forwards, then backwards in reverse order)
 *   [Megatron]  Narayanan et al. 2021, arXiv:2104.04473: 1F1B (PipeDream-Flush)
 *               bubble (p-1)/m of the ideal time, interleaved (1/v)(p-1)/m;
 *               figure 4 (the orders of both schedules, p = 4, m = 8)
 *   [Megatron-LM] megatron/core/pipeline_parallel/schedules.py: the interleaved
 *               order (get_pp_rank_microbatches, get_model_chunk_id)
 *   [torus]     an all-to-all among n chips sends n D / 4 bytes across a cut
 *               into halves each way, so each chip's D goes at 4 W_bis / n
 *               (§3.2.1 (When the scale-up network is a torus))
 * Published inputs: DeepSeek-V3 d_model 7,168, top-8 routing (config_671B.json);
 * GB200 NVL72 72 GPUs, NVLink 900e9 B/s and NIC 50e9 B/s per GPU each way
 * (scaling-book gpus.md); TPU v5e pod of 256 chips, bisection 1.6 TB/s, ICI
 * 400 GB/s per chip both ways together (cloud.google.com/tpu/docs/v5e, read
 * 2026-11-24), 4.5e10 B/s per link one way, 4 links (scaling-book tpus.md).
 */
#include "../test_util.h"

#include <stdlib.h>

#include "expected.h"
#include "pipelining.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

/* DeepSeek-V3 decode step on one GB200 NVL72 rack: 2,048 tokens, bf16 activations. */
static pipelining_hop deepseek_stage(int layers_per_stage)
{
    pipelining_hop h = {
        .tokens = 2048, .d_model = 7168, .activation_bytes = 2, .experts_per_token = 8,
        .layers_per_stage = layers_per_stage, .chips = 72,
        .scaleup_bytes_per_s = 900e9, .scaleout_bytes_per_s = 50e9,
    };
    return h;
}

static pipelining_plan plan_of(pipelining_schedule schedule, int p, int m, int v, double f,
                               double b)
{
    pipelining_plan plan = {.schedule = schedule, .stages = p, .microbatches = m,
                            .chunks = v, .forward_s = f, .backward_s = b};
    return plan;
}

static const char *pass_name(pipelining_pass pass)
{
    return pass == PIPELINING_FORWARD ? "the forward" : "the backward";
}

/* Simulates a plan into a fresh buffer (freed unless ops_out takes it); a refusal
 * fails the test at the caller's line. */
#define simulated(plan, ops_out) simulate_at((plan), (ops_out), __FILE__, __LINE__)

static pipelining_timeline simulate_at(const pipelining_plan *plan, pipelining_op **ops_out,
                                       const char *file, int line)
{
    size_t n = (size_t)plan->stages * 2 * plan->microbatches * plan->chunks;
    pipelining_op *ops = calloc(n, sizeof *ops);
    assert_non_null(ops);
    pipelining_timeline t = {0};
    if (!pipelining_simulate(plan, ops, n, &t)) {
        free(ops);
        print_error("pipelining_simulate returned false for a valid plan (%d stages, %d "
                    "micro-batches, %d chunks) and a buffer of %zu passes\n",
                    plan->stages, plan->microbatches, plan->chunks, n);
        _fail(file, line);
    }
    if (ops_out)
        *ops_out = ops;
    else
        free(ops);
    return t;
}

/* Asserts that a pass is (F|B, micro-batch, chunk), failing at the caller's line. */
#define assert_op(op, pass, microbatch, chunk)                                               \
    check_op((op), (pass), (microbatch), (chunk), __FILE__, __LINE__)

static void check_op(pipelining_op got, pipelining_pass pass, int microbatch, int chunk,
                     const char *file, int line)
{
    if (got.pass == pass && got.microbatch == microbatch && got.chunk == chunk)
        return;
    print_error("the pass is %s of micro-batch %d on chunk %d; expected %s of micro-batch "
                "%d on chunk %d\n",
                pass_name(got.pass), got.microbatch, got.chunk, pass_name(pass), microbatch,
                chunk);
    _fail(file, line);
}

#define F PIPELINING_FORWARD
#define B PIPELINING_BACKWARD

/* ---- 3.1 rack_hop ----------------------------------------------------------- */

/* §3.2 (Is a rack hop a bottleneck?), [lecture, 48:34]: each token goes out to
 * each of its n_act experts and comes back, in every layer:
 * tokens x 2 x n_act x L x d x bytes over the rack's NVLink. */
static void scaleup_time_counts_dispatch_and_combine_for_each_chosen_expert(void **state)
{
    (void)state;
    pipelining_hop h = deepseek_stage(1);
    assert_close(pipelining_scaleup_s(&h), 2048 * 2.0 * 8 * 1 * 7168 * 2 / (72 * 900e9),
                 TIGHT, "s");
}

/* §3.2 (Is a rack hop a bottleneck?): at the stage boundary each token's
 * activation crosses once. */
static void scaleout_time_is_one_crossing_per_token(void **state)
{
    (void)state;
    pipelining_hop h = deepseek_stage(1);
    assert_close(pipelining_scaleout_s(&h), 2048 * 7168 * 2.0 / (72 * 50e9), TIGHT, "s");
}

/* §3.2 (Is a rack hop a bottleneck?): more layers per rack mean more
 * all-to-alls inside it, and still one hop out of it. */
static void layers_per_stage_multiply_scaleup_traffic_not_the_hop(void **state)
{
    (void)state;
    pipelining_hop one = deepseek_stage(1), four = deepseek_stage(4);
    assert_close(pipelining_scaleup_s(&four), 4 * pipelining_scaleup_s(&one), TIGHT, "s");
    assert_close(pipelining_scaleout_s(&four), pipelining_scaleout_s(&one), TIGHT, "s");
    assert_close(pipelining_scaleup_s(&four), 2048 * 2.0 * 8 * 4 * 7168 * 2 / (72 * 900e9),
                 TIGHT, "s");
}

/* [lecture, 48:34-53:54] (the lecturer correcting the host): traffic goes only
 * to the activated experts' GPUs, not to every GPU: top-2 routing moves a
 * quarter of top-8's bytes. */
static void traffic_goes_to_activated_experts_not_to_every_gpu(void **state)
{
    (void)state;
    pipelining_hop h = deepseek_stage(1);
    h.experts_per_token = 2;
    assert_close(pipelining_scaleup_s(&h), 2048 * 2.0 * 2 * 7168 * 2 / (72 * 900e9), TIGHT,
                 "s");
}

/* [torus], Google's TPU v5e page: a 256-chip pod with a bisection of 1.6 TB/s
 * sends an all-to-all at 4 x 1.6e12 / 256 = 2.5e10 B/s per chip, a seventh of
 * the chip's own 1.8e11 B/s of ICI (4 links x 4.5e10, the scaling book). */
static void torus_pod_alltoall_runs_at_four_bisections_over_the_chips(void **state)
{
    (void)state;
    assert_close(pipelining_alltoall_bytes_per_s(1.8e11, 1.6e12, 256), 4 * 1.6e12 / 256,
                 TIGHT, "B/s");
    assert_close(pipelining_alltoall_bytes_per_s(2e11, 1.6e12, 256), 2.5e10, TIGHT, "B/s");
}

/* The contract: a bisection of 0 is a switched network (an NVLink rack), where
 * the all-to-all runs at each GPU's own 900e9 B/s. */
static void switched_rack_alltoall_runs_at_the_full_nvlink_rate(void **state)
{
    (void)state;
    assert_close(pipelining_alltoall_bytes_per_s(900e9, 0, 72), 900e9, TIGHT, "B/s");
}

/* [torus]: a small torus whose cut carries more than its chips can send is
 * limited by the chips' own links: 4 x 2e11 / 4 = 2e11 > 1.8e11. At a tie,
 * 4 x 1e11 / 4 = 1e11, both limits give the same rate. */
static void alltoall_never_beats_the_chips_own_links(void **state)
{
    (void)state;
    assert_close(pipelining_alltoall_bytes_per_s(1.8e11, 2e11, 4), 1.8e11, TIGHT, "B/s");
    assert_close(pipelining_alltoall_bytes_per_s(1e11, 1e11, 4), 1e11, TIGHT, "B/s");
    assert_close(pipelining_alltoall_bytes_per_s(1e11, 0.5e11, 4), 0.5e11, TIGHT, "B/s");
}

/* ---- 3.2 hop_condition ------------------------------------------------------ */

/* [lecture, 48:34-53:54]: (1/8) x 2 x 8 x 1 = 2, a 2x margin for one layer per
 * rack. */
static void lecture_top8_with_one_layer_per_rack_has_a_2x_margin(void **state)
{
    (void)state;
    assert_close(pipelining_hop_ratio(8, 8, 1), 2.0, TIGHT, "x");
    assert_int_equal(pipelining_min_layers_per_stage(8, 8), 1);
}

/* §3.2 (Is a rack hop a bottleneck?): a top-2 MoE needs L_stage >= 2;
 * 8 / (2 x 2) is exactly 2, and a ratio of exactly 1 is enough. */
static void top2_routing_needs_exactly_two_layers_per_stage(void **state)
{
    (void)state;
    assert_close(pipelining_hop_ratio(8, 2, 1), 0.5, TIGHT, "x");
    assert_close(pipelining_hop_ratio(8, 2, 2), 1.0, TIGHT, "x");
    assert_int_equal(pipelining_min_layers_per_stage(8, 2), 2);
}

/* GB200 NVL72: NVLink 900e9 B/s over a 50e9 B/s NIC per GPU is a gap of 18, not 8:
 * top-8 needs ceil(18 / 16) = 2 layers per rack, top-2 ceil(18 / 4) = 5. */
static void gb200_bandwidth_gap_of_18_needs_two_layers_for_top8(void **state)
{
    (void)state;
    assert_close(pipelining_hop_ratio(900e9 / 50e9, 8, 1), 16.0 / 18.0, TIGHT, "x");
    assert_int_equal(pipelining_min_layers_per_stage(900e9 / 50e9, 8), 2);
    assert_int_equal(pipelining_min_layers_per_stage(900e9 / 50e9, 2), 5);
}

/* §3.2 (Is a rack hop a bottleneck?): d_model and bytes cancel; the ratio of
 * the two times is 2 n_act L / (bandwidth gap) whatever the width and
 * precision. */
static void hop_ratio_is_the_ratio_of_the_two_times_whatever_the_width(void **state)
{
    (void)state;
    pipelining_hop h = deepseek_stage(3);
    for (int i = 0; i < 2; i++) {
        h.d_model = i == 0 ? 7168 : 4096;
        h.activation_bytes = i == 0 ? 2 : 1;
        assert_close(pipelining_scaleup_s(&h) / pipelining_scaleout_s(&h),
                     pipelining_hop_ratio(900e9 / 50e9, 8, 3), TIGHT, "x");
    }
    assert_close(pipelining_hop_ratio(900e9 / 50e9, 8, 3), 2.0 * 8 * 3 / 18, TIGHT, "x");
}

/* A stage holds at least one layer, even when the gap is small. */
static void one_layer_suffices_when_the_gap_is_small(void **state)
{
    (void)state;
    assert_int_equal(pipelining_min_layers_per_stage(1, 8), 1);
    assert_int_equal(pipelining_min_layers_per_stage(16, 8), 1); /* 16 / 16 exactly */
    assert_int_equal(pipelining_min_layers_per_stage(16.5, 8), 2);
}

/* The contract's rounding rule: a gap of 30 given as 0.9 TB/s over 0.03 TB/s
 * computes to 30.000000000000004, and top-5 routing then needs 30 / 10 = 3
 * layers exactly, not 4. */
static void gap_of_30_as_a_quotient_of_tb_per_s_needs_exactly_3_layers(void **state)
{
    (void)state;
    assert_int_equal(pipelining_min_layers_per_stage(0.9 / 0.03, 5), 3);
    assert_int_equal(pipelining_min_layers_per_stage(0.9 / 0.03 + 0.5, 5), 4);
}

/* ---- 3.3 bubble ------------------------------------------------------------- */

/* [lecture, 57:06]: one inference through 4 racks, each idle three quarters of
 * the time. */
static void one_microbatch_on_four_racks_idles_three_quarters(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_fraction(4, 1, 1), 0.75, TIGHT, "");
    assert_close(pipelining_bubble_over_ideal(4, 1, 1), 3.0, TIGHT, "");
    /* four racks idling 3/4 of the time do the work of one */
    assert_close(pipelining_speedup(4, 1, 1), 1.0, TIGHT, "x");
}

/* The speedup over one stage is P (1 - f): 8 stages, 32 micro-batches in 4 chunks
 * idle 7 / (128 + 7) of the time and do 8 x 128 / 135 stages' work. */
static void the_speedup_is_the_stages_less_their_idle_share(void **state)
{
    (void)state;
    assert_close(pipelining_speedup(8, 32, 4), 8.0 * 128 / 135, TIGHT, "x");
    assert_close(pipelining_speedup(1, 5, 1), 1.0, TIGHT, "x");
}

/* GPipe: the bubble is (p - 1) / (m + p - 1) of the total time. */
static void gpipe_bubble_is_p_minus_1_over_m_plus_p_minus_1(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_fraction(4, 8, 1), 3.0 / 11.0, TIGHT, "");
    assert_close(pipelining_bubble_fraction(8, 32, 1), 7.0 / 39.0, TIGHT, "");
}

/* Megatron: the bubble over the ideal time is (p - 1) / m; the two conventions are
 * related by x = f / (1 - f). */
static void bubble_over_ideal_is_p_minus_1_over_m(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_over_ideal(8, 32, 1), 7.0 / 32.0, TIGHT, "");
    double f = pipelining_bubble_fraction(8, 32, 1);
    assert_close(pipelining_bubble_over_ideal(8, 32, 1), f / (1 - f), TIGHT, "");
}

/* Megatron: v chunks per stage divide the bubble over the ideal by v:
 * (1/v)(p - 1)/m, and the idle share becomes (p - 1)/(v m + p - 1). */
static void interleaving_divides_the_bubble_by_the_chunks(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_over_ideal(8, 32, 4), 7.0 / (4 * 32), TIGHT, "");
    assert_close(pipelining_bubble_fraction(8, 32, 4), 7.0 / (4 * 32 + 7), TIGHT, "");
}

/* A single stage has nothing to fill or drain; a second stage has: 1/(m + 1). */
static void one_stage_has_no_bubble(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_fraction(2, 3, 1), 1.0 / 4.0, TIGHT, "");
    assert_close(pipelining_bubble_fraction(1, 1, 1), 0.0, TIGHT, "");
    assert_close(pipelining_bubble_over_ideal(1, 5, 1), 0.0, TIGHT, "");
}

/* ---- 3.4 schedule_order ----------------------------------------------------- */

/* GPipe figure 2: every stage runs F0..F3, a hard stop, then B3..B0. */
static void gpipe_runs_every_forward_then_the_backwards_in_reverse(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_GPIPE, 4, 4, 1, 1, 2);
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 8; k++)
            assert_op(pipelining_gpipe_op(&plan, s, k), k < 4 ? F : B, k < 4 ? k : 7 - k, 0);
    assert_int_equal(pipelining_gpipe_op(&plan, 2, 5).stage, 2);
}

/* Megatron figure 4 (top), device 1 of 4 with 8 micro-batches (1-indexed there),
 * forwards dark, backwards light: the order of stage 0. */
static void first_stage_of_1f1b_in_megatron_figure_4(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 4, 8, 1, 1, 2);
    const int mb[16] = {0, 1, 2, 3, 0, 4, 1, 5, 2, 6, 3, 7, 4, 5, 6, 7};
    const pipelining_pass pass[16] = {F, F, F, F, B, F, B, F, B, F, B, F, B, B, B, B};
    for (int k = 0; k < 16; k++)
        assert_op(pipelining_1f1b_op(&plan, 0, k), pass[k], mb[k], 0);
}

/* Megatron figure 4 (top), P = 4 and M = 8: how many forwards each stage runs before
 * its first backward (Narayanan et al. 2021, section 2.2.1; §3.4.2 (A schedule
 * simulator)), and that its first backward is micro-batch 0's. */
static void each_1f1b_stage_before_its_first_backward(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 4, 8, 1, 1, 2);
    const int first[4] = {E_1F1B_P4_M8_STAGE0_FORWARDS_FIRST, E_1F1B_P4_M8_STAGE1_FORWARDS_FIRST,
                          E_1F1B_P4_M8_STAGE2_FORWARDS_FIRST, E_1F1B_P4_M8_STAGE3_FORWARDS_FIRST};
    for (int s = 0; s < 4; s++) {
        for (int k = 0; k < first[s]; k++)
            assert_op(pipelining_1f1b_op(&plan, s, k), F, k, 0);
        assert_op(pipelining_1f1b_op(&plan, s, first[s]), B, 0, 0);
    }
}

/* Megatron figure 4 (top), device 4: the order of the last stage. */
static void last_stage_of_1f1b_in_megatron_figure_4(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 4, 8, 1, 1, 2);
    for (int k = 0; k < 16; k++)
        assert_op(pipelining_1f1b_op(&plan, 3, k), k % 2 == 0 ? F : B, k / 2, 0);
}

/* The contract's cap on the warm-up: 2 micro-batches on 8 stages, the first and the
 * last stage's orders (§3.4.2 (A schedule simulator)). */
static void fewer_microbatches_than_stages_under_1f1b(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 8, 2, 1, 1, 2);
    assert_op(pipelining_1f1b_op(&plan, 0, 0), F, 0, 0);
    assert_op(pipelining_1f1b_op(&plan, 0, 1), F, 1, 0);
    assert_op(pipelining_1f1b_op(&plan, 0, 2), B, 0, 0);
    assert_op(pipelining_1f1b_op(&plan, 0, 3), B, 1, 0);
    assert_op(pipelining_1f1b_op(&plan, 7, 0), F, 0, 0);
    assert_op(pipelining_1f1b_op(&plan, 7, 1), B, 0, 0);
    assert_op(pipelining_1f1b_op(&plan, 7, 2), F, 1, 0);
}

/* At the boundary of the contract's cap on the warm-up: 3 micro-batches on 4 stages,
 * stages 0 and 2 (§3.4.2 (A schedule simulator)). */
static void three_microbatches_on_four_stages_under_1f1b(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 4, 3, 1, 1, 2);
    for (int k = 0; k < 6; k++)
        assert_op(pipelining_1f1b_op(&plan, 0, k), k < 3 ? F : B, k % 3, 0);
    assert_op(pipelining_1f1b_op(&plan, 2, 0), F, 0, 0);
    assert_op(pipelining_1f1b_op(&plan, 2, 1), F, 1, 0);
    assert_op(pipelining_1f1b_op(&plan, 2, 2), B, 0, 0);
}

/* ---- 3.5 interleaved_order -------------------------------------------------- */

/* Megatron figure 4 (bottom), device 1 of 4, 8 micro-batches, 2 chunks (1-indexed
 * there): stage 0's forwards up to its first backward, of micro-batch 1 on chunk 2
 * (Megatron-LM schedules.py). */
static void interleaved_first_stage_cycles_chunks_in_groups_of_p(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_INTERLEAVED, 4, 8, 2, 1, 2);
    const int mb[12] = {0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 0};
    const int chunk[12] = {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1};
    const int forwards = E_INTERLEAVED_P4_M8_V2_STAGE0_FORWARDS_FIRST;
    for (int k = 0; k <= forwards; k++)
        assert_op(pipelining_interleaved_op(&plan, 0, k), k < forwards ? F : B, mb[k],
                  chunk[k]);
}

/* Megatron-LM schedules.py, p = 4, m = 8, v = 2: the last stage's warm-up on chunk 0,
 * then its chunk 1, the last virtual stage. */
static void interleaved_last_stage_turns_round_on_its_last_chunk(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_INTERLEAVED, 4, 8, 2, 1, 2);
    const int w = E_INTERLEAVED_P4_M8_V2_LAST_STAGE_WARMUP;
    for (int k = 0; k < w; k++)
        assert_op(pipelining_interleaved_op(&plan, 3, k), F, k, 0);
    assert_op(pipelining_interleaved_op(&plan, 3, w), F, 0, 1);
    assert_op(pipelining_interleaved_op(&plan, 3, w + 1), B, 0, 1);
    assert_op(pipelining_interleaved_op(&plan, 3, w + 2), F, 1, 1);
    assert_op(pipelining_interleaved_op(&plan, 3, w + 3), B, 1, 1);
}

/* The contract's backwards, p = 2, m = 4, v = 3 (Megatron-LM schedules.py): the last
 * pass of every stage, and where stage 0's first and third backwards run, on which
 * chunk. */
static void interleaved_backwards_come_down_the_chunks(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_INTERLEAVED, 2, 4, 3, 1, 1);
    int last = 2 * 4 * 3 - 1;
    for (int s = 0; s < 2; s++)
        assert_op(pipelining_interleaved_op(&plan, s, last), B, 3, 0);
    assert_op(pipelining_interleaved_op(&plan, 0, E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD0_AT),
              B, 0, E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD0_CHUNK);
    assert_op(pipelining_interleaved_op(&plan, 0, E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD2_AT),
              B, 0, E_INTERLEAVED_P2_M4_V3_STAGE0_BACKWARD2_CHUNK);
}

/* The contract's cap on the warm-up (Megatron-LM schedules.py), p = 4, m = 4, v = 2:
 * stage 0's whole order. */
static void interleaved_warm_up_stops_at_every_chunk_pass(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_INTERLEAVED, 4, 4, 2, 1, 2);
    for (int k = 0; k < 16; k++) {
        int chunk = k < 8 ? k / 4 : 1 - (k - 8) / 4;
        assert_op(pipelining_interleaved_op(&plan, 0, k), k < 8 ? F : B, k % 4, chunk);
    }
}

/* Exactly at the contract's cap, p = 2, m = 2, v = 2 (Megatron-LM schedules.py): the
 * whole orders of both stages. */
static void interleaved_warm_up_equal_to_every_pass_leaves_no_pairs(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_INTERLEAVED, 2, 2, 2, 1, 2);
    const int mb0[8] = {0, 1, 0, 1, 0, 1, 0, 1}, ch0[8] = {0, 0, 1, 1, 1, 1, 0, 0};
    for (int k = 0; k < 8; k++)
        assert_op(pipelining_interleaved_op(&plan, 0, k), k < 4 ? F : B, mb0[k], ch0[k]);
    const int mb1[8] = {0, 1, 0, 0, 1, 1, 0, 1}, ch1[8] = {0, 0, 1, 1, 1, 1, 0, 0};
    const pipelining_pass pass1[8] = {F, F, F, B, F, B, B, B};
    for (int k = 0; k < 8; k++)
        assert_op(pipelining_interleaved_op(&plan, 1, k), pass1[k], mb1[k], ch1[k]);
}

/* ---- 3.6 simulate ----------------------------------------------------------- */

/* GPipe, 4 stages, 8 micro-batches, t_F = 1, t_B = 2: the batch's time, work, idle time
 * and bubble (Huang et al. 2019, section 2.3; §3.4.1 (The bubble of GPipe)). */
static void simulated_gpipe_on_four_stages(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_GPIPE, 4, 8, 1, 1.0, 2.0);
    pipelining_timeline t = simulated(&plan, NULL);
    assert_int_equal(t.ops, 4 * 2 * 8);
    assert_close(t.makespan_s, E_SIM_P4_M8_GPIPE_MAKESPAN_S, TIGHT, "s");
    assert_close(t.busy_s, E_SIM_P4_M8_BUSY_S, TIGHT, "s");
    assert_close(t.idle_s, E_SIM_P4_M8_GPIPE_IDLE_S, TIGHT, "s");
    assert_close(t.bubble_fraction, E_SIM_P4_M8_BUBBLE_FRACTION, TIGHT, "");
    assert_close(t.bubble_over_ideal, E_SIM_P4_M8_BUBBLE_OVER_IDEAL, TIGHT, "");
}

/* Megatron, section 2.2.1: 1F1B has the same bubble as GPipe. */
static void simulated_1f1b_has_the_same_bubble_as_gpipe(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 4, 8, 1, 1.0, 2.0);
    pipelining_timeline t = simulated(&plan, NULL);
    assert_close(t.makespan_s, E_SIM_P4_M8_GPIPE_MAKESPAN_S, TIGHT, "s");
    assert_close(t.bubble_fraction, E_SIM_P4_M8_BUBBLE_FRACTION, TIGHT, "");
}

/* Megatron, section 2.2.2, p = 4, m = 8, v = 2: the interleaved batch's time and
 * bubble. */
static void simulated_interleaved_on_four_stages(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_INTERLEAVED, 4, 8, 2, 1.0, 2.0);
    pipelining_timeline t = simulated(&plan, NULL);
    assert_close(t.makespan_s, E_SIM_P4_M8_V2_MAKESPAN_S, TIGHT, "s");
    assert_close(t.bubble_fraction, E_SIM_P4_M8_V2_BUBBLE_FRACTION, TIGHT, "");
    assert_close(t.bubble_over_ideal, E_SIM_P4_M8_V2_BUBBLE_OVER_IDEAL, TIGHT, "");
}

/* The measured bubble equals the book's stated closed forms, @eq:pipe-bubble and
 * @eq:pipe-interleaved (§3.4.1 (The bubble of GPipe), §3.4.3 (Interleaved stages)),
 * for every p and m (interleaved: m a multiple of p) and unequal forward and
 * backward times. */
static void measured_bubble_equals_the_closed_form_for_every_schedule(void **state)
{
    (void)state;
    for (int p = 1; p <= 6; p++)
        for (int m = 1; m <= 12; m++)
            for (int s = 0; s < 3; s++) {
                int v = s == PIPELINING_INTERLEAVED ? 3 : 1;
                if (s == PIPELINING_INTERLEAVED && m % p != 0)
                    continue;
                pipelining_plan plan = plan_of((pipelining_schedule)s, p, m, v, 1.5, 2.5);
                pipelining_timeline t = simulated(&plan, NULL);
                assert_close(t.bubble_fraction + 1.0,
                             (double)(p - 1) / (v * m + p - 1) + 1.0, TIGHT, "");
                assert_close(t.makespan_s, (m + (p - 1.0) / v) * 4.0, TIGHT, "s");
            }
}

/* The peak micro-batches in flight of the three schedules of Megatron figure 4, and
 * of 1F1B with fewer micro-batches than stages (Narayanan et al. 2021, section
 * 2.2.1; Megatron-LM schedules.py). */
static void peak_activations_of_the_three_schedules(void **state)
{
    (void)state;
    pipelining_plan g = plan_of(PIPELINING_GPIPE, 4, 8, 1, 1, 2);
    pipelining_plan o = plan_of(PIPELINING_1F1B, 4, 8, 1, 1, 2);
    pipelining_plan i = plan_of(PIPELINING_INTERLEAVED, 4, 8, 2, 1, 2);
    assert_close(simulated(&g, NULL).peak_microbatches_in_flight, E_SIM_P4_M8_GPIPE_PEAK,
                 TIGHT, "microbatches");
    assert_close(simulated(&o, NULL).peak_microbatches_in_flight, E_SIM_P4_M8_1F1B_PEAK,
                 TIGHT, "microbatches");
    assert_close(simulated(&i, NULL).peak_microbatches_in_flight, E_SIM_P4_M8_V2_PEAK,
                 TIGHT, "microbatches");
    pipelining_plan few = plan_of(PIPELINING_1F1B, 8, 2, 1, 1, 2);
    assert_close(simulated(&few, NULL).peak_microbatches_in_flight, E_SIM_P8_M2_1F1B_PEAK,
                 TIGHT, "microbatches");
}

/* The timeline obeys the pipeline: a stage runs one pass at a time in its order, a
 * forward never starts before the previous stage's forward of that micro-batch ends,
 * and the first forward starts at 0. */
static void timeline_runs_one_pass_at_a_time_and_waits_for_inputs(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 3, 5, 1, 1.0, 2.0);
    pipelining_op *ops = NULL;
    simulated(&plan, &ops);
    int per_stage = 2 * 5;
    assert_op(ops[0], F, 0, 0);
    assert_close(ops[0].start_s + 1.0, 1.0, TIGHT, "s");
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < per_stage; i++) {
            pipelining_op op = ops[s * per_stage + i];
            assert_int_equal(op.stage, s);
            assert_close(op.end_s - op.start_s, op.pass == F ? 1.0 : 2.0, TIGHT, "s");
            if (i > 0)
                assert_true(op.start_s >= ops[s * per_stage + i - 1].end_s - 1e-12);
            for (int j = 0; s > 0 && op.pass == F && j < per_stage; j++) {
                pipelining_op in = ops[(s - 1) * per_stage + j];
                if (in.pass == F && in.microbatch == op.microbatch)
                    assert_true(op.start_s >= in.end_s - 1e-12);
            }
        }
    free(ops);
}

/* The contract: an interleaved plan whose micro-batches are not a multiple of the
 * stages, or a buffer too small for every pass, is refused and *out left alone. */
static void simulator_refuses_an_invalid_plan_or_a_short_buffer(void **state)
{
    (void)state;
    pipelining_op ops[64];
    pipelining_timeline t = {.makespan_s = -7.0};
    pipelining_plan bad = plan_of(PIPELINING_INTERLEAVED, 4, 6, 2, 1, 2);
    assert_false(pipelining_plan_valid(&bad));
    assert_false(pipelining_simulate(&bad, ops, 64, &t));
    pipelining_plan big = plan_of(PIPELINING_GPIPE, 4, 9, 1, 1, 2); /* 72 passes */
    assert_true(pipelining_plan_valid(&big));
    assert_false(pipelining_simulate(&big, ops, 64, &t));
    pipelining_plan chunked = plan_of(PIPELINING_1F1B, 4, 8, 2, 1, 2);
    assert_false(pipelining_plan_valid(&chunked));
    assert_close(t.makespan_s, -7.0, TIGHT, "s");
    pipelining_plan fits = plan_of(PIPELINING_GPIPE, 4, 8, 1, 1, 2); /* 64 passes */
    assert_true(pipelining_simulate(&fits, ops, 64, &t));
}

/* A single stage: the batch's time, and no bubble (§3.4.1 (The bubble of GPipe)). */
static void one_stage_simulates_without_a_bubble(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 1, 5, 1, 1.0, 2.0);
    pipelining_timeline t = simulated(&plan, NULL);
    assert_close(t.makespan_s, 5 * 3.0, TIGHT, "s");
    assert_close(t.bubble_fraction + 1.0, 1.0, TIGHT, "");
}

/* The contract's buffers: a buffer one pass short is refused with nothing
 * written into it or into *out; a buffer one pass long gets exactly n passes and
 * its last element is left alone. */
static void simulator_writes_exactly_the_passes_and_nothing_past_them(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 3, 4, 1, 1.0, 2.0);
    enum { N = 3 * 2 * 4 };
    pipelining_op ops[N + 1];
    for (int i = 0; i < N + 1; i++)
        ops[i] = (pipelining_op){.stage = -9, .microbatch = -9, .start_s = -9, .end_s = -9};
    pipelining_timeline t = {.makespan_s = -7.0};
    assert_false(pipelining_simulate(&plan, ops, N - 1, &t));
    assert_close(t.makespan_s, -7.0, TIGHT, "s");
    for (int i = 0; i < N + 1; i++)
        assert_int_equal(ops[i].stage, -9);
    assert_true(pipelining_simulate(&plan, ops, N + 1, &t));
    assert_int_equal(t.ops, N);
    assert_int_equal(ops[N].stage, -9);
    assert_close(ops[N].end_s, -9, TIGHT, "s");
    assert_int_equal(ops[N - 1].stage, 2);
}

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
 * stages. Source: every cut, counted (derive/expected.c). */
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
 * stages. Source: every cut, counted (derive/expected.c). */
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
 * Source: every cut, counted (derive/expected.c). */
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
 * Source: the least slowest stage over every cut (derive/expected.c). */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(rack_hop, scaleup_time_counts_dispatch_and_combine_for_each_chosen_expert),
        CHALK_TEST(rack_hop, scaleout_time_is_one_crossing_per_token),
        CHALK_TEST(rack_hop, layers_per_stage_multiply_scaleup_traffic_not_the_hop),
        CHALK_TEST(rack_hop, traffic_goes_to_activated_experts_not_to_every_gpu),
        CHALK_TEST(rack_hop, torus_pod_alltoall_runs_at_four_bisections_over_the_chips),
        CHALK_TEST(rack_hop, switched_rack_alltoall_runs_at_the_full_nvlink_rate),
        CHALK_TEST(rack_hop, alltoall_never_beats_the_chips_own_links),
        CHALK_TEST(hop_condition, lecture_top8_with_one_layer_per_rack_has_a_2x_margin),
        CHALK_TEST(hop_condition, top2_routing_needs_exactly_two_layers_per_stage),
        CHALK_TEST(hop_condition, gb200_bandwidth_gap_of_18_needs_two_layers_for_top8),
        CHALK_TEST(hop_condition, hop_ratio_is_the_ratio_of_the_two_times_whatever_the_width),
        CHALK_TEST(hop_condition, one_layer_suffices_when_the_gap_is_small),
        CHALK_TEST(hop_condition, gap_of_30_as_a_quotient_of_tb_per_s_needs_exactly_3_layers),
        CHALK_TEST(bubble, one_microbatch_on_four_racks_idles_three_quarters),
        CHALK_TEST(bubble, the_speedup_is_the_stages_less_their_idle_share),
        CHALK_TEST(bubble, gpipe_bubble_is_p_minus_1_over_m_plus_p_minus_1),
        CHALK_TEST(bubble, bubble_over_ideal_is_p_minus_1_over_m),
        CHALK_TEST(bubble, interleaving_divides_the_bubble_by_the_chunks),
        CHALK_TEST(bubble, one_stage_has_no_bubble),
        CHALK_TEST(schedule_order, gpipe_runs_every_forward_then_the_backwards_in_reverse),
        CHALK_TEST(schedule_order, first_stage_of_1f1b_in_megatron_figure_4),
        CHALK_TEST(schedule_order, each_1f1b_stage_before_its_first_backward),
        CHALK_TEST(schedule_order, last_stage_of_1f1b_in_megatron_figure_4),
        CHALK_TEST(schedule_order, fewer_microbatches_than_stages_under_1f1b),
        CHALK_TEST(schedule_order,
                   three_microbatches_on_four_stages_under_1f1b),
        CHALK_TEST(interleaved_order, interleaved_first_stage_cycles_chunks_in_groups_of_p),
        CHALK_TEST(interleaved_order, interleaved_last_stage_turns_round_on_its_last_chunk),
        CHALK_TEST(interleaved_order, interleaved_backwards_come_down_the_chunks),
        CHALK_TEST(interleaved_order, interleaved_warm_up_stops_at_every_chunk_pass),
        CHALK_TEST(interleaved_order, interleaved_warm_up_equal_to_every_pass_leaves_no_pairs),
        CHALK_TEST(simulate, simulated_gpipe_on_four_stages),
        CHALK_TEST(simulate, simulated_1f1b_has_the_same_bubble_as_gpipe),
        CHALK_TEST(simulate, simulated_interleaved_on_four_stages),
        CHALK_TEST(simulate, measured_bubble_equals_the_closed_form_for_every_schedule),
        CHALK_TEST(simulate, peak_activations_of_the_three_schedules),
        CHALK_TEST(simulate, timeline_runs_one_pass_at_a_time_and_waits_for_inputs),
        CHALK_TEST(simulate, simulator_refuses_an_invalid_plan_or_a_short_buffer),
        CHALK_TEST(simulate, one_stage_simulates_without_a_bubble),
        CHALK_TEST(simulate, simulator_writes_exactly_the_passes_and_nothing_past_them),
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
    };
    return cmocka_run_group_tests_name("03-pipelining", tests, NULL, NULL);
}
