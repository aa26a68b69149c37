/*
 * test_pipelining.c -- Chapter 3 tests, part 1 of 3: the rack hop (Exercises 3.1
 * and 3.2) and the bubble's closed forms (3.3); main() runs all three parts.
 * Part 2, test_pipelining_schedules.c: the orders of GPipe, 1F1B and the
 * interleaved schedule, and the schedule simulator (3.4-3.6). Part 3,
 * test_pipelining_decode.c: the decode loop, memory per GPU, the split of a model
 * over racks and the cut of layers of unequal cost (3.7-3.10). The three files
 * are linked into one test binary and run as one group (the registry of
 * tests/test_util.h).
 *
 * Built twice: against exercises/03-pipelining/pipelining.c (yours) and against
 * the reference solution (in the instructor's copy). Each test states one fact;
 * the comment above it names where the expected value comes from. Most one-star
 * exercises' expected values are written as the chapter's formulas with published
 * inputs; the rest (E_ names) are in expected.h, derived from their sources in
 * the instructor's copy, never copied from a program's output.
 *
 * Sections of the book are cited as §N.M (Title), the lecture by timestamp.
 *
 * Sources of the closed forms (all three files):
 *   [lecture]   Pope and Patel, Dwarkesh Podcast, 2026: the rack-hop condition,
 *               scale-up time at least scale-out time, with a gap of 8
 *               (48:34-53:54); 4 racks, one micro-batch, 3/4 idle (57:06); M = P micro-batches in decode and
 *               the capacity equation (64:06-72:48); hops of "a few
 *               milliseconds" (72:48-76:39), which the book takes as 2 ms
 *   [GPipe]     Huang et al. 2019, arXiv:1811.06965: the bubble as a share of
 *               the total time (section 2.3); figure 2 (forwards, then
 *               backwards in reverse order)
 *   [Megatron]  Narayanan et al. 2021, arXiv:2104.04473: the bubble over the
 *               ideal time of 1F1B (PipeDream-Flush), section 2.2.1, and of
 *               the interleaved schedule, section 2.2.2; figure 4 (the orders
 *               of both schedules, p = 4, m = 8)
 *   [Megatron-LM] megatron/core/pipeline_parallel/schedules.py: the interleaved
 *               order (get_pp_rank_microbatches, get_model_chunk_id)
 *   [torus]     a uniform all-to-all is held to each chip's share of the
 *               bisection, or to the chip's own links if they carry less
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

static pipelining_hop deepseek_stage(int layers_per_stage)
{
    pipelining_hop h = {
        .tokens = 2048, .d_model = 7168, .activation_bytes = 2, .experts_per_token = 8,
        .layers_per_stage = layers_per_stage, .chips = 72,
        .scaleup_bytes_per_s = 900e9, .scaleout_bytes_per_s = 50e9,
    };
    return h;
}

/* ---- 3.1 rack_hop ----------------------------------------------------------- */

/* §3.2 (Is a rack hop a bottleneck?), [lecture, 48:34]: the scale-up time, each
 * token going out to each of its routed experts and coming back, in every
 * layer, over the rack's NVLink; DeepSeek-V3 on an NVL72, one layer. */
static void scaleup_time_counts_dispatch_and_combine_for_each_chosen_expert(void **state)
{
    (void)state;
    pipelining_hop h = deepseek_stage(1);
    assert_close(pipelining_scaleup_s(&h), 2048 * 2.0 * 8 * 1 * 7168 * 2 / (72 * 900e9),
                 TIGHT, "s");
}

/* §3.2 (Is a rack hop a bottleneck?): the scale-out time, each token's
 * activation crossing the stage boundary once. */
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
 * sends an all-to-all at its chips' share of the bisection, 2.5e10 B/s per
 * chip, a seventh of the chip's own 1.8e11 B/s of ICI (4 links x 4.5e10, the
 * scaling book). */
static void torus_pod_alltoall_is_held_to_the_chips_share_of_the_bisection(void **state)
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
 * limited by the chips' own links: 4 chips' share of a 2e11 B/s cut is more
 * than 1.8e11 B/s. At a tie (a 1e11 B/s cut, 1e11 B/s links) both limits
 * give the same rate. */
static void alltoall_never_beats_the_chips_own_links(void **state)
{
    (void)state;
    assert_close(pipelining_alltoall_bytes_per_s(1.8e11, 2e11, 4), 1.8e11, TIGHT, "B/s");
    assert_close(pipelining_alltoall_bytes_per_s(1e11, 1e11, 4), 1e11, TIGHT, "B/s");
    assert_close(pipelining_alltoall_bytes_per_s(1e11, 0.5e11, 4), 0.5e11, TIGHT, "B/s");
}

/* ---- 3.2 hop_condition ------------------------------------------------------ */

/* [lecture, 48:34-53:54]: a gap of 8, top-8 routing and one layer per rack
 * give a ratio of 2, a 2x margin. */
static void lecture_top8_with_one_layer_per_rack_has_a_2x_margin(void **state)
{
    (void)state;
    assert_close(pipelining_hop_ratio(8, 8, 1), 2.0, TIGHT, "x");
    assert_int_equal(pipelining_min_layers_per_stage(8, 8), 1);
}

/* §3.2 (Is a rack hop a bottleneck?): a top-2 MoE with a gap of 8 needs
 * exactly 2 layers per stage, where the ratio is exactly 1, which is enough. */
static void top2_routing_needs_exactly_two_layers_per_stage(void **state)
{
    (void)state;
    assert_close(pipelining_hop_ratio(8, 2, 1), 0.5, TIGHT, "x");
    assert_close(pipelining_hop_ratio(8, 2, 2), 1.0, TIGHT, "x");
    assert_int_equal(pipelining_min_layers_per_stage(8, 2), 2);
}

/* GB200 NVL72: NVLink 900e9 B/s over a 50e9 B/s NIC per GPU is a gap of 18, not 8
 * (§3.2 (Is a rack hop a bottleneck?), its table of gaps): top-8 needs 2 layers
 * per rack, top-2 needs 5. */
static void gb200_bandwidth_gap_of_18_needs_two_layers_for_top8(void **state)
{
    (void)state;
    assert_close(pipelining_hop_ratio(900e9 / 50e9, 8, 1), 16.0 / 18.0, TIGHT, "x");
    assert_int_equal(pipelining_min_layers_per_stage(900e9 / 50e9, 8), 2);
    assert_int_equal(pipelining_min_layers_per_stage(900e9 / 50e9, 2), 5);
}

/* §3.2 (Is a rack hop a bottleneck?): d_model and bytes cancel; the ratio of
 * the two times of Exercise 3.1 is the section's ratio, whatever the width and
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
 * computes to 30.000000000000004, and top-5 routing then needs exactly 3
 * layers (§3.2 (Is a rack hop a bottleneck?)), not 4. */
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

/* The speedup over one stage, the model of §3.4.3 (Interleaved stages)'s reality
 * check (GPipe's Table 2): 8 stages, 32 micro-batches in 4 chunks. */
static void the_speedup_counts_only_the_stages_busy_share(void **state)
{
    (void)state;
    assert_close(pipelining_speedup(8, 32, 4), 8.0 * 128 / 135, TIGHT, "x");
    assert_close(pipelining_speedup(1, 5, 1), 1.0, TIGHT, "x");
}

/* [GPipe] section 2.3, §3.4.1 (The bubble of GPipe): the bubble as a share of
 * the total time. */
static void gpipe_bubble_is_the_idle_share_of_the_total_time(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_fraction(4, 8, 1), 3.0 / 11.0, TIGHT, "");
    assert_close(pipelining_bubble_fraction(8, 32, 1), 7.0 / 39.0, TIGHT, "");
}

/* [Megatron] section 2.2.1, §3.4.1 (The bubble of GPipe): the bubble over the
 * ideal time; the section relates the two conventions. */
static void bubble_over_ideal_is_megatrons_convention(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_over_ideal(8, 32, 1), 7.0 / 32.0, TIGHT, "");
    double f = pipelining_bubble_fraction(8, 32, 1);
    assert_close(pipelining_bubble_over_ideal(8, 32, 1), f / (1 - f), TIGHT, "");
}

/* [Megatron] section 2.2.2, §3.4.3 (Interleaved stages): v chunks per stage
 * divide the bubble over the ideal time by v, and shrink the idle share. */
static void interleaving_divides_the_bubble_by_the_chunks(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_over_ideal(8, 32, 4), 7.0 / (4 * 32), TIGHT, "");
    assert_close(pipelining_bubble_fraction(8, 32, 4), 7.0 / (4 * 32 + 7), TIGHT, "");
}

/* A single stage has nothing to fill or drain; a second stage has
 * (§3.4.1 (The bubble of GPipe)). */
static void one_stage_has_no_bubble(void **state)
{
    (void)state;
    assert_close(pipelining_bubble_fraction(2, 3, 1), 1.0 / 4.0, TIGHT, "");
    assert_close(pipelining_bubble_fraction(1, 1, 1), 0.0, TIGHT, "");
    assert_close(pipelining_bubble_over_ideal(1, 5, 1), 0.0, TIGHT, "");
}

CHALK_PART(hops_and_bubbles) = {
    CHALK_TEST(rack_hop, scaleup_time_counts_dispatch_and_combine_for_each_chosen_expert),
    CHALK_TEST(rack_hop, scaleout_time_is_one_crossing_per_token),
    CHALK_TEST(rack_hop, layers_per_stage_multiply_scaleup_traffic_not_the_hop),
    CHALK_TEST(rack_hop, traffic_goes_to_activated_experts_not_to_every_gpu),
    CHALK_TEST(rack_hop, torus_pod_alltoall_is_held_to_the_chips_share_of_the_bisection),
    CHALK_TEST(rack_hop, switched_rack_alltoall_runs_at_the_full_nvlink_rate),
    CHALK_TEST(rack_hop, alltoall_never_beats_the_chips_own_links),
    CHALK_TEST(hop_condition, lecture_top8_with_one_layer_per_rack_has_a_2x_margin),
    CHALK_TEST(hop_condition, top2_routing_needs_exactly_two_layers_per_stage),
    CHALK_TEST(hop_condition, gb200_bandwidth_gap_of_18_needs_two_layers_for_top8),
    CHALK_TEST(hop_condition, hop_ratio_is_the_ratio_of_the_two_times_whatever_the_width),
    CHALK_TEST(hop_condition, one_layer_suffices_when_the_gap_is_small),
    CHALK_TEST(hop_condition, gap_of_30_as_a_quotient_of_tb_per_s_needs_exactly_3_layers),
    CHALK_TEST(bubble, one_microbatch_on_four_racks_idles_three_quarters),
    CHALK_TEST(bubble, the_speedup_counts_only_the_stages_busy_share),
    CHALK_TEST(bubble, gpipe_bubble_is_the_idle_share_of_the_total_time),
    CHALK_TEST(bubble, bubble_over_ideal_is_megatrons_convention),
    CHALK_TEST(bubble, interleaving_divides_the_bubble_by_the_chunks),
    CHALK_TEST(bubble, one_stage_has_no_bubble),
};
CHALK_PART_END(hops_and_bubbles);

CHALK_PART_DECLARE(schedules); /* test_pipelining_schedules.c */
CHALK_PART_DECLARE(decode);    /* test_pipelining_decode.c */

int main(void)
{
    return chalk_run_parts("03-pipelining", CHALK_PART_REF(hops_and_bubbles),
                           CHALK_PART_REF(schedules), CHALK_PART_REF(decode));
}
