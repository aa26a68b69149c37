/*
 * test_revnets_memory.c -- Chapter 6 tests, third part: training memory of a real
 * transformer (exercises 6.12 to 6.14: activation_memory, checkpoint_plan,
 * longest_sequence). Linked with test_revnets.c, which has main(). Sources:
 * Korthikanti et al. 2022, arXiv:2205.05198 (eq. 1-6, Tables 2 and 3, section 5,
 * Appendix A); Megatron-LM, megatron/model/transformer.py (what a checkpoint keeps);
 * ZeRO section 3.1 (mixed-precision Adam); the book's model of section 6.8 worked by
 * hand. Where deriving a value is the exercise, it is an E_ name of expected.h.
 */
#include "../test_util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "expected.h"
#include "revnets.h"

#define TIGHT 1e-12 /* closed forms: only rounding differs */

/* ---- 6.12 activation_memory -------------------------------------------------- */

/* Korthikanti et al. Table 3: GPT-3 175B, a = 96, h = 12288, 96 layers, s = 2048,
 * b = 1, t = 8. */
static revnets_layer gpt3(double t, bool sp, revnets_recompute r)
{
    revnets_layer l = {.seq_tokens = 2048,
                       .microbatch = 1,
                       .hidden = 12288,
                       .heads = 96,
                       .tensor_parallel = t,
                       .sequence_parallel = sp,
                       .recompute = r};
    return l;
}

/* Korthikanti et al. eq. 1: GPT-3's undivided layer. */
static void gpt3_layer_matches_korthikanti_eq_1(void **state)
{
    (void)state;
    revnets_layer l = gpt3(1, false, REVNETS_RECOMPUTE_NONE);
    assert_close(revnets_act_bytes_per_layer(&l), E_ACT_GPT3, TIGHT, "B");
}

/* Korthikanti et al. eq. 2: GPT-3 with tensor parallelism, t = 8. */
static void tensor_parallelism_matches_korthikanti_eq_2(void **state)
{
    (void)state;
    revnets_layer l = gpt3(8, false, REVNETS_RECOMPUTE_NONE);
    assert_close(revnets_act_bytes_per_layer(&l), E_ACT_GPT3_TP8, TIGHT, "B");
}

/* Korthikanti et al. eq. 4: GPT-3 with tensor and sequence parallelism, t = 8; with
 * t = 1 there is nothing to split (eq. 1). */
static void sequence_parallelism_matches_korthikanti_eq_4(void **state)
{
    (void)state;
    revnets_layer l = gpt3(8, true, REVNETS_RECOMPUTE_NONE);
    assert_close(revnets_act_bytes_per_layer(&l), E_ACT_GPT3_TP8_SP, TIGHT, "B");
    revnets_layer one = gpt3(1, true, REVNETS_RECOMPUTE_NONE);
    assert_close(revnets_act_bytes_per_layer(&one), E_ACT_GPT3, TIGHT, "B");
}

/* Section 5: selective recomputation saves 70% of GPT-3's activation memory and 65%
 * of MT-NLG's (a = 128, h = 20480); Table 2's rows for MT-NLG at t = 8. */
static void selective_recompute_saves_70_percent_for_gpt3_and_65_for_mt_nlg(void **state)
{
    (void)state;
    revnets_layer none = gpt3(1, false, REVNETS_RECOMPUTE_NONE);
    revnets_layer sel = gpt3(1, false, REVNETS_RECOMPUTE_SELECTIVE);
    double saved = 1 - revnets_act_bytes_per_layer(&sel) / revnets_act_bytes_per_layer(&none);
    assert_true(fabs(saved - 0.70) < 0.005);
    revnets_layer mt = {.seq_tokens = 2048,
                        .microbatch = 1,
                        .hidden = 20480,
                        .heads = 128,
                        .tensor_parallel = 8,
                        .sequence_parallel = false};
    double base = revnets_act_bytes_per_layer(&mt);
    mt.recompute = REVNETS_RECOMPUTE_SELECTIVE;
    assert_close(revnets_act_bytes_per_layer(&mt), E_ACT_MTNLG_TP8_SELECTIVE, TIGHT, "B");
    mt.sequence_parallel = true;
    assert_close(revnets_act_bytes_per_layer(&mt), E_ACT_MTNLG_TP8_SP_SELECTIVE, TIGHT, "B");
    assert_close(base, E_ACT_MTNLG_TP8, TIGHT, "B");
}

/* Section 5 and Table 2: full recomputation keeps each layer's 16-bit input, as the
 * GPU holds it (Megatron-LM, megatron/model/transformer.py: with sequence
 * parallelism the input arrives split along the sequence); for one layer and for
 * GPT-3's 96; t = 1 has nothing to split. */
static void full_recompute_keeps_the_layer_input_as_the_gpu_holds_it(void **state)
{
    (void)state;
    revnets_layer whole = gpt3(8, false, REVNETS_RECOMPUTE_FULL);
    assert_close(revnets_act_bytes_per_layer(&whole), E_ACT_GPT3_FULL, TIGHT, "B");
    assert_close(revnets_act_bytes_per_model(&whole, 96), E_ACT_GPT3_FULL_MODEL, TIGHT, "B");
    revnets_layer split = gpt3(8, true, REVNETS_RECOMPUTE_FULL);
    assert_close(revnets_act_bytes_per_layer(&split), E_ACT_GPT3_FULL_TP8_SP, TIGHT, "B");
    revnets_layer one = gpt3(1, true, REVNETS_RECOMPUTE_FULL);
    assert_close(revnets_act_bytes_per_layer(&one), E_ACT_GPT3_FULL, TIGHT, "B");
}

/* Korthikanti et al. eq. 5: the first pipeline stage holds all 96 layers' worth;
 * memory is linear in depth and in the micro-batch, so 48 layers of micro-batch 2
 * hold as much as 96 of 1. */
static void model_activation_memory_is_linear_in_layers_and_batch(void **state)
{
    (void)state;
    revnets_layer l = gpt3(8, true, REVNETS_RECOMPUTE_NONE);
    assert_close(revnets_act_bytes_per_model(&l, 96), E_ACT_GPT3_TP8_SP_MODEL, TIGHT, "B");
    l.microbatch = 2;
    assert_close(revnets_act_bytes_per_model(&l, 48), E_ACT_GPT3_TP8_SP_MODEL, TIGHT, "B");
}

/* Korthikanti et al. Appendix A: what full and selective recomputation add to a
 * training step of GPT-3, as a fraction; none adds nothing. */
static void recomputation_flops_match_korthikanti_appendix_a(void **state)
{
    (void)state;
    revnets_layer full = gpt3(8, true, REVNETS_RECOMPUTE_FULL);
    revnets_layer sel = gpt3(8, true, REVNETS_RECOMPUTE_SELECTIVE);
    revnets_layer none = gpt3(8, true, REVNETS_RECOMPUTE_NONE);
    assert_close(revnets_recompute_flops_fraction(&full), E_RECOMPUTE_FULL, TIGHT, "");
    assert_close(revnets_recompute_flops_fraction(&sel), E_RECOMPUTE_SELECTIVE_GPT3, TIGHT, "");
    assert_true(revnets_recompute_flops_fraction(&none) == 0.0);
}

/* Korthikanti et al. eq. 1 and section 5: the attention core's share of GPT-3's
 * undivided layer, whatever the parallelism asked for. */
static void attention_core_share_of_gpt3_matches_korthikanti_eq_1(void **state)
{
    (void)state;
    revnets_layer l = gpt3(8, true, REVNETS_RECOMPUTE_SELECTIVE);
    assert_close(revnets_attention_core_share(&l), E_ATTENTION_CORE_SHARE_GPT3, TIGHT, "");
}

/* Korthikanti et al. section 6.1: sequence parallelism and selective recomputation
 * together bring the tensor-parallel baseline down about 5x for GPT-3. */
static void sequence_parallelism_and_selective_recompute_together_save_about_5x(void **state)
{
    (void)state;
    revnets_layer base = gpt3(8, false, REVNETS_RECOMPUTE_NONE);
    revnets_layer both = gpt3(8, true, REVNETS_RECOMPUTE_SELECTIVE);
    double ratio = revnets_act_bytes_per_layer(&base) / revnets_act_bytes_per_layer(&both);
    assert_close(ratio, E_SP_SELECTIVE_SAVING_GPT3, TIGHT, "x");
    assert_true(ratio > 4.5 && ratio < 6.0);
}

/* ZeRO section 3.1 (mixed-precision Adam): GPT-3's 175e9 parameters on t = 8, p = 8
 * (Korthikanti Table 3), and 1e9 parameters on one GPU. */
static void adam_model_state_per_gpu_matches_zero(void **state)
{
    (void)state;
    assert_close(revnets_model_state_bytes_per_gpu(175e9, 8, 8), E_MODEL_STATE_GPT3_T8_P8, TIGHT,
                 "B");
    assert_close(revnets_model_state_bytes_per_gpu(1e9, 1, 1), E_MODEL_STATE_1B, TIGHT, "B");
}

/* ---- 6.13 checkpoint_plan ---------------------------------------------------- */

/* A plan's fields, compared one by one (FLOPs as a fraction, exact here). */
static void assert_plan(revnets_checkpoint_plan got, bool exists, int stored, int segment,
                        int segments, double peak, double extra)
{
    if (got.exists == exists && got.stored == stored && got.segment == segment &&
        got.segments == segments && got.peak_bytes == peak && got.extra_flops_fraction == extra)
        return;
    fail_msg("plan {exists %d, stored %d, segment %d, segments %d, peak %g, extra %g}, expected "
             "{%d, %d, %d, %d, %g, %g}",
             got.exists, got.stored, got.segment, got.segments, got.peak_bytes,
             got.extra_flops_fraction, exists, stored, segment, segments, peak, extra);
}

/* Section 6.8's model by hand, eight layers of 4 bytes with checkpoints of 1: a budget of
 * exactly what storing every layer takes fits (equal counts), and so does a larger
 * one, with nothing recomputed. */
static void checkpoint_plan_stores_every_layer_when_they_fit_exactly(void **state)
{
    (void)state;
    assert_plan(revnets_plan_checkpoints(8, 4, 1, 32), true, E_PLAN_ALL_FIT_STORED,
                E_PLAN_ALL_FIT_SEGMENT, E_PLAN_ALL_FIT_SEGMENTS, E_PLAN_ALL_FIT_PEAK,
                E_PLAN_ALL_FIT_EXTRA);
    assert_plan(revnets_plan_checkpoints(8, 4, 1, 1000), true, E_PLAN_ALL_FIT_STORED,
                E_PLAN_ALL_FIT_SEGMENT, E_PLAN_ALL_FIT_SEGMENTS, E_PLAN_ALL_FIT_PEAK,
                E_PLAN_ALL_FIT_EXTRA);
}

/* Section 6.8's model by hand: the same eight layers, one byte short of storing them all. */
static void checkpoint_plan_one_byte_below_storing_every_layer(void **state)
{
    (void)state;
    assert_plan(revnets_plan_checkpoints(8, 4, 1, 31), true, E_PLAN_ONE_SHORT_STORED,
                E_PLAN_ONE_SHORT_SEGMENT, E_PLAN_ONE_SHORT_SEGMENTS, E_PLAN_ONE_SHORT_PEAK,
                E_PLAN_ONE_SHORT_EXTRA);
}

/* Section 6.8's model by hand, four layers of 2 bytes, checkpoints of 1, budget 6: more
 * than one segment length fits; the contract's rule picks among them. */
static void checkpoint_plan_takes_the_segment_length_with_the_least_peak(void **state)
{
    (void)state;
    assert_plan(revnets_plan_checkpoints(4, 2, 1, 6), true, E_PLAN_LEAST_PEAK_STORED,
                E_PLAN_LEAST_PEAK_SEGMENT, E_PLAN_LEAST_PEAK_SEGMENTS, E_PLAN_LEAST_PEAK_PEAK,
                E_PLAN_LEAST_PEAK_EXTRA);
}

/* Section 6.8's model by hand, seven layers of 2 bytes, checkpoints of 1, budget 8: two
 * segment lengths tie on the least peak. */
static void checkpoint_plan_breaks_a_tie_with_the_shorter_segment(void **state)
{
    (void)state;
    assert_plan(revnets_plan_checkpoints(7, 2, 1, 8), true, E_PLAN_TIE_STORED, E_PLAN_TIE_SEGMENT,
                E_PLAN_TIE_SEGMENTS, E_PLAN_TIE_PEAK, E_PLAN_TIE_EXTRA);
}

/* Section 6.8's model by hand, five layers of 2 bytes, checkpoints of 1, budget 6: the
 * recomputed layers do not divide evenly into segments, and the last segment is
 * shorter. */
static void checkpoint_plan_rounds_the_segment_count_up(void **state)
{
    (void)state;
    assert_plan(revnets_plan_checkpoints(5, 2, 1, 6), true, E_PLAN_ROUND_UP_STORED,
                E_PLAN_ROUND_UP_SEGMENT, E_PLAN_ROUND_UP_SEGMENTS, E_PLAN_ROUND_UP_PEAK,
                E_PLAN_ROUND_UP_EXTRA);
}

/* Section 6.8's model by hand, two layers of 2 bytes, checkpoints of 1, budget 3: the
 * order of the backward pass decides what is held at once. */
static void checkpoint_plan_frees_the_stored_layers_before_any_segment(void **state)
{
    (void)state;
    assert_plan(revnets_plan_checkpoints(2, 2, 1, 3), true, E_PLAN_FREES_STORED,
                E_PLAN_FREES_SEGMENT, E_PLAN_FREES_SEGMENTS, E_PLAN_FREES_PEAK, E_PLAN_FREES_EXTRA);
}

/* Section 6.8's model by hand, four layers of 4 bytes, checkpoints of 1: a budget of 7 has
 * a plan; 6.5, or 0, has none, and every field of the answer is 0. */
static void checkpoint_plan_does_not_exist_below_the_least_peak(void **state)
{
    (void)state;
    assert_plan(revnets_plan_checkpoints(4, 4, 1, 7), true, E_PLAN_LEAST_STORED,
                E_PLAN_LEAST_SEGMENT, E_PLAN_LEAST_SEGMENTS, E_PLAN_LEAST_PEAK, E_PLAN_LEAST_EXTRA);
    assert_plan(revnets_plan_checkpoints(4, 4, 1, 6.5), false, 0, 0, 0, 0.0, 0.0);
    assert_plan(revnets_plan_checkpoints(4, 4, 1, 0), false, 0, 0, 0, 0.0, 0.0);
}

/* GPT-3's first stage with tensor and sequence parallelism (Korthikanti et al. eq. 4
 * for a stored layer, section 5 for a checkpoint), 96 layers, and a budget of 96
 * checkpoints and one stored layer: section 6.8's model. */
static void checkpoint_plan_for_gpt3s_first_stage(void **state)
{
    (void)state;
    double a = E_ACT_GPT3_TP8_SP, c = E_ACT_GPT3_FULL_TP8_SP;
    assert_plan(revnets_plan_checkpoints(96, a, c, 96 * c + a), true, E_PLAN_GPT3_STORED,
                E_PLAN_GPT3_SEGMENT, E_PLAN_GPT3_SEGMENTS, E_PLAN_GPT3_PEAK, E_PLAN_GPT3_EXTRA);
}

/* A long chain, §6.8 (Checkpoints under a memory budget): 10^6 identical steps of
 * a scan over time, a checkpoint as large as a step's activations, and a budget of
 * 1999 steps' worth, met exactly by the one plan that fits (section 6.8's model, the
 * plan derived by hand). The contract allows 10^7 layers within the tests' time
 * limit. */
static void checkpoint_plan_for_a_chain_of_a_million_steps(void **state)
{
    (void)state;
    assert_plan(revnets_plan_checkpoints(1000000, 4096, 4096, 1999.0 * 4096), true,
                E_PLAN_CHAIN_1000_STORED, E_PLAN_CHAIN_1000_SEGMENT, E_PLAN_CHAIN_1000_SEGMENTS,
                E_PLAN_CHAIN_1000_PEAK, E_PLAN_CHAIN_1000_EXTRA);
}

/* The budget is the HBM the model state leaves, §6.8 (Checkpoints under a memory
 * budget): an 80 GB A100 holding 43.75 GB of state leaves 36.25 GB; a state larger
 * than the HBM leaves nothing, not a negative budget. */
static void checkpoint_plan_budget_is_what_the_model_state_leaves(void **state)
{
    (void)state;
    assert_close(revnets_activation_budget_bytes(80e9, 43.75e9), 36.25e9, TIGHT, "B");
    assert_close(revnets_activation_budget_bytes(80e9, 80e9), 0.0, TIGHT, "B");
    assert_close(revnets_activation_budget_bytes(80e9, 100e9), 0.0, TIGHT, "B");
}

/* A plan of 8 layers storing 6 (segments given), with no, selective and full
 * recomputation of the stored layers at GPT-3's s = 2048, h = 12,288: §6.8
 * (Checkpoints under a memory budget), with a layer's FLOPs from Korthikanti et al.
 * 2022, Appendix A. Under full recomputation a stored layer, too, runs its forward
 * once more (the contract). No plan, no FLOPs. */
static void checkpoint_plan_flops_add_the_stored_layers_recomputation(void **state)
{
    (void)state;
    revnets_checkpoint_plan plan = {.exists = true, .stored = 6, .segment = 1, .segments = 2,
                                    .extra_flops_fraction = 2.0 / 24};
    revnets_layer l = {.seq_tokens = 2048, .microbatch = 1, .hidden = 12288, .heads = 96,
                       .tensor_parallel = 1, .recompute = REVNETS_RECOMPUTE_NONE};
    assert_close(revnets_plan_flops_fraction(&plan, 8, &l), 2.0 / 24, TIGHT, "");
    l.recompute = REVNETS_RECOMPUTE_SELECTIVE;
    assert_close(revnets_plan_flops_fraction(&plan, 8, &l), E_PLAN_FLOPS_SELECTIVE, TIGHT, "");
    l.recompute = REVNETS_RECOMPUTE_FULL;
    assert_close(revnets_plan_flops_fraction(&plan, 8, &l), E_PLAN_FLOPS_FULL, TIGHT,
                 "full recomputation: every layer, stored ones too, runs its forward again");
    revnets_checkpoint_plan none = {0};
    assert_close(revnets_plan_flops_fraction(&none, 8, &l), 0.0, TIGHT, "");
}

/* ---- 6.14 longest_sequence --------------------------------------------------- */

/* GPT-3 as Megatron trains it (Korthikanti et al. Table 3): B_micro = 1,
 * d_model = 12288, n_h = 96, 96 layers, t = 8, p = 8, on A100s of 80 GB (NVIDIA's
 * A100 datasheet), with the budget the model state leaves (ZeRO section 3.1). */
static revnets_layer gpt3_t8(bool sequence_parallel, revnets_recompute recompute)
{
    revnets_layer l = {.seq_tokens = 2048, .microbatch = 1, .hidden = 12288, .heads = 96,
                       .tensor_parallel = 8, .sequence_parallel = sequence_parallel,
                       .recompute = recompute};
    return l;
}

/* Korthikanti et al. eq. 2 and 5 solved for S: with tensor parallelism alone and every
 * layer stored, GPT-3's first stage fits shorter sequences than the 2048 it trained
 * on: the book's example in §6.7 (Activation memory of a transformer layer) finds
 * that 2048 does not fit. */
static void longest_sequence_of_gpt3_storing_every_layer(void **state)
{
    (void)state;
    revnets_layer l = gpt3_t8(false, REVNETS_RECOMPUTE_NONE);
    assert_int_equal(revnets_longest_sequence(&l, 96, false, E_LONGEST_BUDGET_GPT3),
                     E_LONGEST_GPT3_TP8);
    assert_true(E_LONGEST_GPT3_TP8 < 2048);
}

/* Korthikanti et al. eq. 6 solved for S: with sequence parallelism and selective
 * recomputation the bytes grow only linearly in S. */
static void longest_sequence_with_selective_recomputation(void **state)
{
    (void)state;
    revnets_layer l = gpt3_t8(true, REVNETS_RECOMPUTE_SELECTIVE);
    assert_int_equal(revnets_longest_sequence(&l, 96, false, E_LONGEST_BUDGET_GPT3),
                     E_LONGEST_GPT3_TP8_SP_SELECTIVE);
}

/* §6.9 (Which way to trade): reversible layers keep one layer's activations, not the first stage's 96:
 * eq. 4 and eq. 6 for one layer, solved for S. */
static void longest_sequence_of_reversible_layers_holds_one_layer(void **state)
{
    (void)state;
    revnets_layer l = gpt3_t8(true, REVNETS_RECOMPUTE_NONE);
    assert_int_equal(revnets_longest_sequence(&l, 96, true, E_LONGEST_BUDGET_GPT3),
                     E_LONGEST_GPT3_TP8_SP_REVERSIBLE);
    revnets_layer sel = gpt3_t8(true, REVNETS_RECOMPUTE_SELECTIVE);
    assert_int_equal(revnets_longest_sequence(&sel, 96, true, E_LONGEST_BUDGET_GPT3),
                     E_LONGEST_GPT3_TP8_SP_SELECTIVE_REVERSIBLE);
    /* the contract's rule: full recomputation counts as none in a reversible backward,
     * which regenerates and holds the whole layer (eq. 4) */
    revnets_layer full = gpt3_t8(true, REVNETS_RECOMPUTE_FULL);
    assert_int_equal(revnets_longest_sequence(&full, 96, true, E_LONGEST_BUDGET_GPT3),
                     E_LONGEST_GPT3_TP8_SP_REVERSIBLE);
    /* the depth does not matter to a reversible stack */
    assert_int_equal(revnets_longest_sequence(&sel, 1, true, E_LONGEST_BUDGET_GPT3),
                     E_LONGEST_GPT3_TP8_SP_SELECTIVE_REVERSIBLE);
}

/* The contract's boundary: a budget of exactly one GPT-3 layer at 2048 tokens (eq. 2),
 * or 96 of them, fits 2048 tokens; one byte less fits 2047. l->seq_tokens is not read. */
static void longest_sequence_fits_a_budget_met_exactly(void **state)
{
    (void)state;
    revnets_layer l = gpt3_t8(false, REVNETS_RECOMPUTE_NONE);
    l.seq_tokens = 7;
    assert_int_equal(revnets_longest_sequence(&l, 96, true, E_LONGEST_GPT3_TP8_LAYER_2048),
                     2048);
    assert_int_equal(revnets_longest_sequence(&l, 96, true, E_LONGEST_GPT3_TP8_LAYER_2048 - 1),
                     2047);
    assert_int_equal(revnets_longest_sequence(&l, 96, false, 96 * E_LONGEST_GPT3_TP8_LAYER_2048),
                     2048);
    assert_int_equal(
        revnets_longest_sequence(&l, 96, false, 96 * E_LONGEST_GPT3_TP8_LAYER_2048 - 1), 2047);
}

/* The contract's range: answers up to 2^50 tokens. Five tiny layers (B_micro = 1,
 * d_model = 3) under full recomputation keep each its 16-bit input (Korthikanti et al.
 * section 5), 30 bytes a token for the stage: a budget just below 30 x 1.5e14 bytes
 * fits an answer near 2^47 tokens, to the token, within the test's time. */
static void longest_sequence_answers_near_2_to_the_47_tokens(void **state)
{
    (void)state;
    revnets_layer l = {.seq_tokens = 1, .microbatch = 1, .hidden = 3, .heads = 1,
                       .tensor_parallel = 1, .recompute = REVNETS_RECOMPUTE_FULL};
    assert_true(E_LONGEST_TINY_FULL > (1LL << 47));
    assert_int_equal(revnets_longest_sequence(&l, 5, false, (double)E_LONGEST_TINY_FULL_BUDGET),
                     E_LONGEST_TINY_FULL);
    assert_int_equal(
        revnets_longest_sequence(&l, 5, false, (double)(E_LONGEST_TINY_FULL_BUDGET + 1)),
        E_LONGEST_TINY_FULL + 1);
}

/* The contract's boundary at a large S: one tiny layer (B_micro = 1, d_model = 5,
 * n_h = 2, t = 1, every activation stored; Korthikanti et al. eq. 1) at S = 75925008
 * tokens meets this budget exactly, a whole number of bytes the double holds exactly;
 * it fits 75925008 tokens, not one fewer. */
static void longest_sequence_fits_a_large_budget_met_exactly(void **state)
{
    (void)state;
    revnets_layer l = {.seq_tokens = 1, .microbatch = 1, .hidden = 5, .heads = 2,
                       .tensor_parallel = 1, .recompute = REVNETS_RECOMPUTE_NONE};
    assert_int_equal(E_LONGEST_TINY_EXACT, 75925008);
    assert_int_equal(revnets_longest_sequence(&l, 1, false, (double)E_LONGEST_TINY_EXACT_BUDGET),
                     E_LONGEST_TINY_EXACT);
    assert_int_equal(revnets_longest_sequence(&l, 1, true, (double)E_LONGEST_TINY_EXACT_BUDGET),
                     E_LONGEST_TINY_EXACT);
    assert_int_equal(
        revnets_longest_sequence(&l, 1, false, (double)E_LONGEST_TINY_EXACT_BUDGET - 8.0),
        E_LONGEST_TINY_EXACT - 1);
}

/* No answer: a budget below one token's bytes, and an empty budget, fit nothing. */
static void longest_sequence_is_zero_when_one_token_does_not_fit(void **state)
{
    (void)state;
    revnets_layer l = gpt3_t8(true, REVNETS_RECOMPUTE_SELECTIVE);
    assert_int_equal(revnets_longest_sequence(&l, 96, false, 0.0), 0);
    assert_int_equal(revnets_longest_sequence(&l, 96, true, 1000.0), 0);
    assert_int_equal(revnets_longest_sequence(&l, 96, false, E_LONGEST_BUDGET_GPT3 / 1e7), 0);
}

CHALK_PART(memory) = {
        CHALK_TEST(activation_memory, gpt3_layer_matches_korthikanti_eq_1),
        CHALK_TEST(activation_memory, tensor_parallelism_matches_korthikanti_eq_2),
        CHALK_TEST(activation_memory, sequence_parallelism_matches_korthikanti_eq_4),
        CHALK_TEST(activation_memory,
                   selective_recompute_saves_70_percent_for_gpt3_and_65_for_mt_nlg),
        CHALK_TEST(activation_memory, full_recompute_keeps_the_layer_input_as_the_gpu_holds_it),
        CHALK_TEST(activation_memory, model_activation_memory_is_linear_in_layers_and_batch),
        CHALK_TEST(activation_memory,
                   recomputation_flops_match_korthikanti_appendix_a),
        CHALK_TEST(activation_memory, attention_core_share_of_gpt3_matches_korthikanti_eq_1),
        CHALK_TEST(activation_memory,
                   sequence_parallelism_and_selective_recompute_together_save_about_5x),
        CHALK_TEST(activation_memory, adam_model_state_per_gpu_matches_zero),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_stores_every_layer_when_they_fit_exactly),
        CHALK_TEST(checkpoint_plan,
                   checkpoint_plan_one_byte_below_storing_every_layer),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_takes_the_segment_length_with_the_least_peak),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_breaks_a_tie_with_the_shorter_segment),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_rounds_the_segment_count_up),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_frees_the_stored_layers_before_any_segment),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_does_not_exist_below_the_least_peak),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_for_gpt3s_first_stage),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_for_a_chain_of_a_million_steps),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_budget_is_what_the_model_state_leaves),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_flops_add_the_stored_layers_recomputation),
        CHALK_TEST(longest_sequence, longest_sequence_of_gpt3_storing_every_layer),
        CHALK_TEST(longest_sequence, longest_sequence_with_selective_recomputation),
        CHALK_TEST(longest_sequence, longest_sequence_of_reversible_layers_holds_one_layer),
        CHALK_TEST(longest_sequence, longest_sequence_fits_a_budget_met_exactly),
        CHALK_TEST(longest_sequence, longest_sequence_answers_near_2_to_the_47_tokens),
        CHALK_TEST(longest_sequence, longest_sequence_fits_a_large_budget_met_exactly),
        CHALK_TEST(longest_sequence, longest_sequence_is_zero_when_one_token_does_not_fit),
};
CHALK_PART_END(memory);
