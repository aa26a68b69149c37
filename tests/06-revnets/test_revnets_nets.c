/*
 * test_revnets_nets.c -- Chapter 6 tests, second part: RevNet blocks and stacks, in
 * float and in double, and what training them stores and computes (exercises 6.7 to
 * 6.11: revnet_block, reconstruction, training_cost, stored_backprop,
 * reversible_backprop). Linked with test_revnets.c, which has main() and the
 * sources of every expected value (Gomez et al. 2017, the chapter's section 6.6).
 * Each test states one fact; the comment above it names where the expected value
 * comes from; where deriving it is the exercise, it is an E_ name of expected.h.
 */
#include "../test_util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "expected.h"
#include "revnets.h"

#define TIGHT 1e-12 /* closed forms: only rounding differs */

/* The tests draw their own inputs with xorshift64* (Vigna 2016), not with your
 * generator, so that a test of one exercise never depends on another. */
static uint64_t test_word(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Du;
}

/* n numbers uniform in [-scale, scale]. */
static void test_fill(double *v, size_t n, double scale, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15u + 1;
    for (size_t i = 0; i < n; i++)
        v[i] = scale * ((double)(test_word(&s) >> 11) * 0x1p-52 - 1.0);
}

/* A network with weights drawn uniform in [-scale, scale], on the heap. */
typedef struct test_net {
    revnets_net net;
    double *w;
} test_net;

static test_net make_net(int layers, int half, double gain, uint64_t seed)
{
    test_net t;
    size_t n = (size_t)layers * 2 * half * half;
    t.w = malloc((n ? n : 1) * sizeof *t.w);
    assert_non_null(t.w);
    test_fill(t.w, n, gain * sqrt(3.0 / half), seed);
    t.net.layers = layers;
    t.net.half = half;
    t.net.weights = t.w;
    return t;
}

static double *make_vector(int n, uint64_t seed)
{
    double *v = malloc((size_t)n * sizeof *v);
    assert_non_null(v);
    test_fill(v, (size_t)n, 1.0, seed);
    return v;
}

/* ---- 6.7 revnet_block -------------------------------------------------------- */

/* Gomez et al. eq. 2 with one number per stream: y1 = x1 + tanh(wf x2),
 * y2 = x2 + tanh(wg y1). G reads y1, the updated first stream. */
static void block_forward_follows_the_revnet_equations(void **state)
{
    (void)state;
    const double wf = 0.7, wg = -1.3;
    double x1 = 0.25, x2 = -0.5;
    revnets_block_forward(&wf, &wg, 1, &x1, &x2, REVNETS_DOUBLE);
    double y1 = 0.25 + tanh(0.7 * -0.5);
    double y2 = -0.5 + tanh(-1.3 * y1);
    assert_close(x1, y1, TIGHT, "");
    assert_close(x2, y2, TIGHT, "");
}

/* Two streams of two: F(h)_i = tanh(sum_j W_F[i][j] h_j), G likewise. */
static void block_forward_multiplies_rows_of_the_weight_matrices(void **state)
{
    (void)state;
    const double wf[4] = {1.0, 2.0, -0.5, 0.25}, wg[4] = {0.0, -1.0, 3.0, 0.5};
    double x1[2] = {0.1, 0.2}, x2[2] = {-0.3, 0.4};
    revnets_block_forward(wf, wg, 2, x1, x2, REVNETS_DOUBLE);
    double y1[2] = {0.1 + tanh(1.0 * -0.3 + 2.0 * 0.4), 0.2 + tanh(-0.5 * -0.3 + 0.25 * 0.4)};
    double y2[2] = {-0.3 + tanh(0.0 * y1[0] - 1.0 * y1[1]), 0.4 + tanh(3.0 * y1[0] + 0.5 * y1[1])};
    for (int i = 0; i < 2; i++) {
        assert_close(x1[i], y1[i], TIGHT, "");
        assert_close(x2[i], y2[i], TIGHT, "");
    }
}

/* The contract's float path, worked here with C's float arithmetic (each float op
 * rounds its exact result, FLT_EVAL_METHOD 0): every weight rounded to float, each
 * product and partial sum in float, in the order j = 0, 1, tanh taken in double of
 * the float sum and rounded, and the stream's update rounded. The weights are not
 * floats, and for these a dot product in double, rounded only at its tanh, gives
 * other bits in three of the four outputs (worked below too, so the test is seen to
 * tell the two apart). */
static float float_branch_row(const double *w, const float *h, bool every_op)
{
    float s = 0.0f;
    double sd = 0.0;
    for (int j = 0; j < 2; j++) {
        s = s + (float)w[j] * h[j];
        sd += w[j] * (double)h[j];
    }
    return (float)tanh(every_op ? (double)s : sd);
}

static void float_block(const double *wf, const double *wg, float *f1, float *f2, bool every_op)
{
    for (int i = 0; i < 2; i++)
        f1[i] = f1[i] + float_branch_row(wf + 2 * i, f2, every_op);
    for (int i = 0; i < 2; i++)
        f2[i] = f2[i] + float_branch_row(wg + 2 * i, f1, every_op);
}

static void block_forward_in_float_rounds_every_operation(void **state)
{
    (void)state;
    const double wf[4] = {0.091, -0.977, -0.357, -0.912}, wg[4] = {-0.405, -0.131, 0.064, -0.153};
    float f1[2] = {0.25f, 0.5f}, f2[2] = {-0.5f, 0.375f};
    float g1[2] = {0.25f, 0.5f}, g2[2] = {-0.5f, 0.375f};
    float_block(wf, wg, f1, f2, true);
    float_block(wf, wg, g1, g2, false);
    assert_true(f1[0] != g1[0] && f1[1] != g1[1] && f2[0] != g2[0]);
    double x1[2] = {0.25, 0.5}, x2[2] = {-0.5, 0.375};
    revnets_block_forward(wf, wg, 2, x1, x2, REVNETS_FLOAT);
    for (int i = 0; i < 2; i++) {
        assert_true(x1[i] == (double)f1[i]);
        assert_true(x2[i] == (double)f2[i]);
    }
}

/* Gomez et al. eq. 3: x2 = y2 - G(y1), x1 = y1 - F(x2) recovers the input. In
 * double one block comes back within a few units of 2^-53 of the values' size. */
static void block_inverse_recovers_the_input(void **state)
{
    (void)state;
    test_net t = make_net(1, 8, 1.0, 5);
    double *x = make_vector(16, 6), y[16];
    memcpy(y, x, sizeof y);
    revnets_block_forward(revnets_wf(&t.net, 0), revnets_wg(&t.net, 0), 8, y, y + 8,
                          REVNETS_DOUBLE);
    assert_true(fabs(y[0] - x[0]) > 1e-3); /* the block did something */
    revnets_block_inverse(revnets_wf(&t.net, 0), revnets_wg(&t.net, 0), 8, y, y + 8,
                          REVNETS_DOUBLE);
    for (int i = 0; i < 16; i++)
        assert_true(fabs(y[i] - x[i]) <= 16 * 0x1p-53 * 4.0);
    free(x);
    free(t.w);
}

/* The lecture's step [@the lecture at 2:10:06], lecture notes section 7.5: (x, y) -> (y + f(x), x) twice, f = F then G, from (x2, x1), ends at
 * (y2, y1): the same operations, so the same bits, in double and in float. */
static void two_lecture_steps_are_one_revnet_block(void **state)
{
    (void)state;
    test_net t = make_net(1, 6, 1.5, 8);
    double *x = make_vector(12, 9);
    for (int p = 0; p < 2; p++) {
        revnets_dtype dt = p ? REVNETS_FLOAT : REVNETS_DOUBLE;
        double a[12], lx[6], ly[6];
        for (int i = 0; i < 12; i++)
            a[i] = revnets_round(x[i], dt);
        memcpy(ly, a, sizeof ly);     /* y = x1 */
        memcpy(lx, a + 6, sizeof lx); /* x = x2 */
        revnets_block_forward(revnets_wf(&t.net, 0), revnets_wg(&t.net, 0), 6, a, a + 6, dt);
        revnets_lecture_step(revnets_wf(&t.net, 0), 6, lx, ly, dt);
        revnets_lecture_step(revnets_wg(&t.net, 0), 6, lx, ly, dt);
        assert_true(lx[0] != revnets_round(x[6], dt)); /* the block did something */
        assert_memory_equal(lx, a + 6, sizeof lx);     /* x'' = y2 */
        assert_memory_equal(ly, a, sizeof ly);         /* y'' = y1 */
    }
    free(x);
    free(t.w);
}

/* ---- 6.8 reconstruction ------------------------------------------------------ */

/* With F = G = 0 every block adds and subtracts exact zeros: nothing is lost, in
 * either precision (and the error is measured against the input as rounded). */
static void zero_branches_reconstruct_exactly_in_both_precisions(void **state)
{
    (void)state;
    test_net t = make_net(5, 4, 0.0, 1);
    double x[8] = {0.1, 1.0 / 3, -2.7, 1e-3, 123.456, -0.2, 0.3, 7.0}, work[8];
    assert_true(revnets_reconstruction_error(&t.net, x, x + 4, REVNETS_DOUBLE, work) == 0.0);
    assert_true(revnets_reconstruction_error(&t.net, x, x + 4, REVNETS_FLOAT, work) == 0.0);
    free(t.w);
}

/* Rounding: one block forward and back rounds each stored number a few times, so
 * the error is a few units of 2^-53 (double) or 2^-24 (float) of the values' size
 * (here |y| < 4); more than that means the inverse is wrong. */
static void one_block_reconstructs_within_a_few_units_of_rounding(void **state)
{
    (void)state;
    test_net t = make_net(1, 16, 1.0, 21);
    double *x = make_vector(32, 22), work[32];
    double ed = revnets_reconstruction_error(&t.net, x, x + 16, REVNETS_DOUBLE, work);
    double ef = revnets_reconstruction_error(&t.net, x, x + 16, REVNETS_FLOAT, work);
    assert_true(ed >= 0.0 && ed <= 16 * 0x1p-53 * 4.0);
    assert_true(ef > 0.0 && ef <= 16 * 0x1p-24 * 4.0); /* float does lose something */
    free(x);
    free(t.w);
}

/* Float keeps 24 bits, double 53: after 16 blocks the float reconstruction is off
 * by at least one float rounding of the smallest value's order (2^-24 x 2^-4), far
 * above anything double arithmetic loses (16 x 16 units of 2^-53 at |y| < 16). */
static void float_reconstruction_loses_far_more_than_double(void **state)
{
    (void)state;
    test_net t = make_net(16, 16, 1.0, 31);
    double *x = make_vector(32, 32), work[32];
    double ed = revnets_reconstruction_error(&t.net, x, x + 16, REVNETS_DOUBLE, work);
    double ef = revnets_reconstruction_error(&t.net, x, x + 16, REVNETS_FLOAT, work);
    assert_true(ef >= 0x1p-28);
    assert_true(ed <= 16 * 16 * 0x1p-53 * 16.0);
    free(x);
    free(t.w);
}

/* ---- 6.9 training_cost ------------------------------------------------------- */

/* §6.6 (Training memory: store or regenerate): the stored network's workspace grows
 * with depth, the reversible one's does not. The counts are the section's, for 96
 * and for 1 block of 32 numbers a stream (width 64). */
static void stored_memory_grows_with_depth_and_reversible_memory_does_not(void **state)
{
    (void)state;
    assert_int_equal(revnets_work_stored(96, 32), 12288);
    assert_int_equal(revnets_work_stored(1, 32), 128);
    assert_int_equal(revnets_work_reversible(96, 32), 96);
    assert_int_equal(revnets_work_reversible(1, 32), 96);
}

/* §6.6 (Training memory: store or regenerate), after Gomez et al. 2017: a reversible
 * step recomputes the forward pass once more during the backward, a third more
 * FLOPs than a step that stores. */
static void reversible_training_costs_one_forward_pass_more(void **state)
{
    (void)state;
    assert_close(revnets_train_flops(10, 32, false), 12.0 * 32 * 32 * 10, TIGHT, "FLOP");
    assert_close(revnets_train_flops(10, 32, true), 16.0 * 32 * 32 * 10, TIGHT, "FLOP");
    assert_close(revnets_train_flops(7, 5, true) / revnets_train_flops(7, 5, false), 4.0 / 3, TIGHT,
                 "x");
    /* one forward more of three: a third extra, at any depth and width */
    assert_close(revnets_extra_flops_fraction(10, 32), 1.0 / 3, TIGHT, "");
    assert_close(revnets_extra_flops_fraction(96, 1), 1.0 / 3, TIGHT, "");
}

/* ---- 6.10 stored_backprop ----------------------------------------------------- */

/* One block of one number a stream, W_F = 0.9, W_G = -0.6, at (x1, x2) = (0.3, -0.8):
 * the loss and its five derivatives by the chain rule, worked by hand (Gomez et al.
 * 2017, eq. 2). */
static void stored_gradients_follow_the_chain_rule_by_hand(void **state)
{
    (void)state;
    const double f = 0.9, g = -0.6, x1 = 0.3, x2 = -0.8;
    double w[2] = {f, g}, grad[2], gx1, gx2, work[4];
    revnets_net net = {.layers = 1, .half = 1, .weights = w};
    double loss = revnets_backward_stored(&net, &x1, &x2, grad, &gx1, &gx2, work);
    assert_close(loss, E_CHAIN_LOSS, TIGHT, "");
    assert_close(gx1, E_CHAIN_GRAD_X1, TIGHT, "");
    assert_close(gx2, E_CHAIN_GRAD_X2, TIGHT, "");
    assert_close(grad[1], E_CHAIN_GRAD_WG, TIGHT, "");
    assert_close(grad[0], E_CHAIN_GRAD_WF, TIGHT, "");
}

/* Loss of the net at (x1, x2) with weight k moved by h, by a plain forward pass. */
static double loss_at(const revnets_net *net, double *w, size_t k, double h, const double *x)
{
    int n = net->half;
    double saved = w[k], y[64];
    w[k] = saved + h;
    memcpy(y, x, (size_t)2 * n * sizeof *y);
    revnets_stack_forward(net, y, y + n, REVNETS_DOUBLE);
    w[k] = saved;
    double loss = 0.0;
    for (int i = 0; i < 2 * n; i++)
        loss += 0.5 * y[i] * y[i];
    return loss;
}

/* Central differences (L(w + h) - L(w - h)) / 2h agree with the derivative to
 * O(h^2); h = 1e-5 gives about 1e-9 here, so 1e-6 relative is a fair bound. Every
 * weight of a 3-block net of 4 numbers a stream is checked. */
typedef double (*backward_fn)(const revnets_net *, const double *, const double *, double *,
                              double *, double *, double *);

static void check_against_finite_differences(backward_fn backward, size_t work_doubles)
{
    test_net t = make_net(3, 4, 1.2, 41);
    double *x = make_vector(8, 42), grad[3 * 2 * 16], gx[8];
    double *work = malloc(work_doubles * sizeof *work);
    assert_non_null(work);
    backward(&t.net, x, x + 4, grad, gx, gx + 4, work);
    for (size_t k = 0; k < 3 * 2 * 16; k++) {
        double h = 1e-5;
        double fd = (loss_at(&t.net, t.w, k, h, x) - loss_at(&t.net, t.w, k, -h, x)) / (2 * h);
        assert_true(fabs(grad[k] - fd) <= 1e-6 * fmax(1.0, fabs(fd)));
    }
    for (int i = 0; i < 8; i++) { /* the input gradient, the same way */
        double xp[8], xm[8];
        memcpy(xp, x, sizeof xp);
        memcpy(xm, x, sizeof xm);
        xp[i] += 1e-5;
        xm[i] -= 1e-5;
        double fd = (loss_at(&t.net, t.w, 0, 0.0, xp) - loss_at(&t.net, t.w, 0, 0.0, xm)) / 2e-5;
        assert_true(fabs(gx[i] - fd) <= 1e-6 * fmax(1.0, fabs(fd)));
    }
    free(work);
    free(x);
    free(t.w);
}

static void stored_gradients_match_finite_differences(void **state)
{
    (void)state;
    check_against_finite_differences(revnets_backward_stored, revnets_work_stored(3, 4));
}

/* ---- 6.11 reversible_backprop ------------------------------------------------ */

static void reversible_gradients_match_finite_differences(void **state)
{
    (void)state;
    check_against_finite_differences(revnets_backward_reversible, revnets_work_reversible(3, 4));
}

/* Regenerated activations differ from stored ones only by rounding (about 1e-15
 * here), so the two backward passes agree to 1e-10 on a 24-block net. */
static void reversible_gradients_equal_stored_gradients(void **state)
{
    (void)state;
    enum { L = 24, H = 8, N = L * 2 * H * H };
    test_net t = make_net(L, H, 1.0, 51);
    double *x = make_vector(2 * H, 52);
    double *gs = malloc(N * sizeof *gs), *gr = malloc(N * sizeof *gr);
    double *ws = malloc(revnets_work_stored(L, H) * sizeof *ws);
    double wr[3 * H], xs[2 * H], xr[2 * H];
    assert_non_null(gs);
    assert_non_null(gr);
    assert_non_null(ws);
    for (int k = 0; k < N; k++)
        gs[k] = gr[k] = NAN; /* every entry must be written */
    double ls = revnets_backward_stored(&t.net, x, x + H, gs, xs, xs + H, ws);
    double lr = revnets_backward_reversible(&t.net, x, x + H, gr, xr, xr + H, wr);
    assert_true(ls > 0.0);
    assert_close(lr, ls, 1e-12, "");
    for (int k = 0; k < N; k++)
        assert_true(fabs(gr[k] - gs[k]) <= 1e-10 * fmax(1.0, fabs(gs[k])));
    for (int i = 0; i < 2 * H; i++)
        assert_true(fabs(xr[i] - xs[i]) <= 1e-10 * fmax(1.0, fabs(xs[i])));
    free(ws);
    free(gr);
    free(gs);
    free(x);
    free(t.w);
}

/* The whole point: 3 x half doubles of workspace at depth 200 as at depth 1. The
 * words just past the workspace hold a pattern that must survive. */
static void reversible_backward_runs_in_constant_memory(void **state)
{
    (void)state;
    enum { L = 200, H = 4, GUARD = 64 };
    test_net t = make_net(L, H, 0.8, 61);
    double *x = make_vector(2 * H, 62), *grad = malloc((size_t)L * 2 * H * H * sizeof *grad);
    double work[3 * H + GUARD], gx[2 * H] = {0};
    assert_non_null(grad);
    for (int i = 0; i < GUARD; i++)
        work[3 * H + i] = -12345.0 - i;
    revnets_backward_reversible(&t.net, x, x + H, grad, gx, gx + H, work);
    for (int i = 0; i < GUARD; i++)
        assert_true(work[3 * H + i] == -12345.0 - i);
    assert_true(isfinite(gx[0]) && gx[0] != 0.0);
    free(grad);
    free(x);
    free(t.w);
}

CHALK_PART(nets) = {
        CHALK_TEST(revnet_block, block_forward_follows_the_revnet_equations),
        CHALK_TEST(revnet_block, block_forward_multiplies_rows_of_the_weight_matrices),
        CHALK_TEST(revnet_block, block_forward_in_float_rounds_every_operation),
        CHALK_TEST(revnet_block, block_inverse_recovers_the_input),
        CHALK_TEST(revnet_block, two_lecture_steps_are_one_revnet_block),
        CHALK_TEST(reconstruction, zero_branches_reconstruct_exactly_in_both_precisions),
        CHALK_TEST(reconstruction, one_block_reconstructs_within_a_few_units_of_rounding),
        CHALK_TEST(reconstruction, float_reconstruction_loses_far_more_than_double),
        CHALK_TEST(training_cost, stored_memory_grows_with_depth_and_reversible_memory_does_not),
        CHALK_TEST(training_cost, reversible_training_costs_one_forward_pass_more),
        CHALK_TEST(stored_backprop, stored_gradients_follow_the_chain_rule_by_hand),
        CHALK_TEST(stored_backprop, stored_gradients_match_finite_differences),
        CHALK_TEST(reversible_backprop, reversible_gradients_match_finite_differences),
        CHALK_TEST(reversible_backprop, reversible_gradients_equal_stored_gradients),
        CHALK_TEST(reversible_backprop, reversible_backward_runs_in_constant_memory),
};
CHALK_PART_END(nets);
