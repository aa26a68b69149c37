/*
 * test_pipelining_schedules.c -- Chapter 3 tests, part 2 of 3: the orders in which
 * each stage runs its passes under GPipe and 1F1B (Exercise 3.4) and Megatron's
 * interleaved schedule (3.5), and the schedule simulator that times them and
 * measures the bubble (3.6). Run with parts 1 and 3 as one group by
 * test_pipelining.c's main(); its header names the sources cited here ([GPipe],
 * [Megatron], [Megatron-LM]). Each test states one fact; the comment above it
 * names where the expected value comes from (E_ names: expected.h).
 */
#include "../test_util.h"

#include <stdlib.h>

#include "expected.h"
#include "pipelining.h"

#define TIGHT 1e-9 /* closed forms: only rounding differs */

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

/* Megatron figure 4 (top), P = 4 and M = 8, every stage after its first backward:
 * a forward and a backward alternately, the backward first here (the steady phase's
 * forward ran just before it), until every forward has run, then the backwards left;
 * forwards and backwards each in increasing order of micro-batch (the contract,
 * §3.4.2 (A schedule simulator)). With the forwards each stage runs before its first
 * backward (expected.h, checked by the next test) this is each stage's whole order. */
static void every_stage_of_1f1b_in_megatron_figure_4(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 4, 8, 1, 1, 2);
    const int first[4] = {E_1F1B_P4_M8_STAGE0_FORWARDS_FIRST, E_1F1B_P4_M8_STAGE1_FORWARDS_FIRST,
                          E_1F1B_P4_M8_STAGE2_FORWARDS_FIRST, E_1F1B_P4_M8_STAGE3_FORWARDS_FIRST};
    for (int s = 0; s < 4; s++) {
        int forwards = first[s], backwards = 0;
        for (int k = first[s]; k < 16; k++) {
            if (forwards == 8 || (k - first[s]) % 2 == 0)
                assert_op(pipelining_1f1b_op(&plan, s, k), B, backwards++, 0);
            else
                assert_op(pipelining_1f1b_op(&plan, s, k), F, forwards++, 0);
        }
    }
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
 * 2.2.1; Megatron-LM schedules.py). Under 1F1B a stage starts a forward as its
 * previous backward ends: the contract's tie, released before acquired. */
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

/* The contract's tie (pipelining_simulate, pipelining.h): activations are held from
 * a forward's start to its backward's end, the end excluded, so a backward that ends
 * as its stage's next forward starts frees them first. On one stage under 1F1B every
 * forward after the first starts at the instant the backward before it ends: one
 * micro-batch is held at a time, never two. */
static void a_backward_ending_as_a_forward_starts_frees_its_activations_first(void **state)
{
    (void)state;
    pipelining_plan plan = plan_of(PIPELINING_1F1B, 1, 3, 1, 1.0, 2.0);
    pipelining_op *ops = NULL;
    pipelining_timeline t = simulated(&plan, &ops);
    for (int k = 1; k + 1 < 6; k += 2)
        if (ops[k].pass != PIPELINING_BACKWARD || ops[k + 1].pass != PIPELINING_FORWARD ||
            ops[k].end_s != ops[k + 1].start_s) {
            free(ops);
            fail_msg("passes %d and %d of one stage under 1F1B are not a backward that "
                     "ends as a forward starts (the order of §3.4.2 (A schedule "
                     "simulator), no bubble on one stage)",
                     k, k + 1);
        }
    free(ops);
    assert_close(t.peak_microbatches_in_flight, 1.0, TIGHT, "microbatches");
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

CHALK_PART(schedules) = {
    CHALK_TEST(schedule_order, gpipe_runs_every_forward_then_the_backwards_in_reverse),
    CHALK_TEST(schedule_order, every_stage_of_1f1b_in_megatron_figure_4),
    CHALK_TEST(schedule_order, each_1f1b_stage_before_its_first_backward),
    CHALK_TEST(schedule_order, last_stage_of_1f1b_in_megatron_figure_4),
    CHALK_TEST(schedule_order, fewer_microbatches_than_stages_under_1f1b),
    CHALK_TEST(schedule_order, three_microbatches_on_four_stages_under_1f1b),
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
    CHALK_TEST(simulate, a_backward_ending_as_a_forward_starts_frees_its_activations_first),
    CHALK_TEST(simulate, timeline_runs_one_pass_at_a_time_and_waits_for_inputs),
    CHALK_TEST(simulate, simulator_refuses_an_invalid_plan_or_a_short_buffer),
    CHALK_TEST(simulate, one_stage_simulates_without_a_bubble),
    CHALK_TEST(simulate, simulator_writes_exactly_the_passes_and_nothing_past_them),
};
CHALK_PART_END(schedules);
