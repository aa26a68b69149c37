/*
 * test_overtraining.c -- Chapter 4 tests, first file: the loss law, the compute-optimal
 * frontier, holding quality fixed, the three costs of a model's life and the equal-cost
 * heuristic (exercises 4.1 to 4.5), and main(), which runs the chapter's tests in the
 * order of its exercises. The lecture's estimate (4.6 to 4.9) is in
 * test_overtraining_estimate.c, the two searches (4.10, 4.11) in test_overtraining_search.c;
 * the build links the three into one binary (the registry of tests/test_util.h).
 *
 * Built twice: against exercises/04-overtraining/overtraining.c (yours) and against
 * the reference solution (in the instructor's copy). Each test states one fact;
 * the comment above it names where the expected value comes from. Expected values
 * of the one-star exercises are written as the formula the chapter states, with
 * published inputs; those of the two- and three-star exercises, where deriving the
 * formula is the exercise, are the E_ names of expected.h (derived from published
 * inputs in the instructor's copy, never copied from output).
 *
 * Published inputs used below:
 *   Hoffmann et al. 2022 (arXiv:2203.15556): the loss law's constants as printed
 *       (E 1.69, A 406.4, B 410.7, alpha 0.34, beta 0.28) and unrounded (via
 *       Besiroglu et al.); Figure 4: Approach 3 puts a 40B model at Gopher's budget,
 *       5.76e23 FLOPs; Table 1: Chinchilla, 70B parameters on 1.4T tokens.
 *   Besiroglu et al. 2024 (arXiv:2404.10102) Table 1: E 1.8172, A 482.01,
 *       B 2085.43, alpha 0.3478, beta 0.3658.
 *   The lecture (1:18:59-1:33:02) and its flashcards: k_RL 2 to 6, efficiency ~30% or 1/3.
 *
 * No answer (overtraining.h): a double result is NaN, a struct result has exists =
 * false and a reason; every such rule is tested at the point where it starts.
 */
#include "../test_util.h"

#include "overtraining.h"

#include "expected.h"

#define TIGHT 1e-9   /* closed forms: only rounding differs */

/* Helpers the chapter's three test files share: this file defines them, fixtures.h
 * declares them. */
#include "fixtures.h"

/* A fit by its name in lib/scaling.c. */
const cost_scaling_fit *chalk4_fit(const char *name)
{
    const cost_scaling_fit *f = cost_scaling_fit_find(name);
    assert_non_null(f);
    return f;
}

/* The loss law written out, independently of the code under test. */
double chalk4_law(const cost_scaling_fit *f, double n, double d)
{
    return f->irreducible + f->a_params / pow(n, f->alpha_params) +
           f->a_tokens / pow(d, f->alpha_tokens);
}

/* A struct result with an answer: exists, and no reason. */
#define assert_answer(r)                                                                  \
    do {                                                                                  \
        assert_true((r).exists);                                                          \
        assert_null((r).reason);                                                          \
    } while (0)

/* A struct result without one: !exists, and a reason to show. */
#define assert_no_answer(r)                                                               \
    do {                                                                                  \
        assert_false((r).exists);                                                         \
        assert_non_null((r).reason);                                                      \
    } while (0)

/* A double result without an answer: NaN (assert_nan, above). */
void chalk4_assert_nan(double x, const char *expr, const char *file, int line)
{
    if (isnan(x))
        return;
    print_error("%s = %.6g, expected NaN (no answer)\n", expr, x);
    _fail(file, line);
}

/* `back`, found another way, is the compute-optimal model `o` of budget `flops`
 * (a macro, so that a failure points at the test's line). */
#define assert_same_optimum(back, o, budget)                                              \
    do {                                                                                  \
        overtraining_optimum back_ = (back);                                              \
        assert_answer(back_);                                                             \
        assert_close(back_.params, (o).params, 1e-9, "params");                           \
        assert_close(back_.tokens, (o).tokens, 1e-9, "tokens");                           \
        assert_close(back_.flops, (budget), 1e-9, "FLOPs");                               \
    } while (0)

/* A fit whose arithmetic is exact (every constant 1). */
static const cost_scaling_fit UNIT_FIT = {
    .name = "unit", .title = "unit test fit", .irreducible = 1.0, .a_params = 1.0,
    .alpha_params = 1.0, .a_tokens = 1.0, .alpha_tokens = 1.0, .source = "this test"};

/* The lecture's factors: RL with or without a backward pass, at an efficiency. */
overtraining_factors chalk4_factors(double k, double eta_rl, double eta_inf)
{
    overtraining_factors f = {
        .rl_flops_per_param = k, .rl_efficiency = eta_rl, .inference_efficiency = eta_inf};
    return f;
}

/* ---- 4.1 loss -------------------------------------------------------------------- */

/* Closed form with the printed constants: Chinchilla itself, 70B on 1.4T tokens. */
static void chinchilla_70b_on_1_4t_tokens_follows_the_printed_law(void **state)
{
    (void)state;
    double expected = 1.69 + 406.4 / pow(70e9, 0.34) + 410.7 / pow(1.4e12, 0.28);
    assert_close(overtraining_loss(fit("hoffmann"), 70e9, 1.4e12), expected, TIGHT, "nats");
}

/* Besiroglu's refit has very different data and parameter terms, so swapping them
 * shows: A / N^alpha goes with the parameters, B / D^beta with the tokens. */
static void parameters_pair_with_alpha_and_tokens_with_beta(void **state)
{
    (void)state;
    double expected = 1.8172 + 482.01 / pow(1e9, 0.3478) + 2085.43 / pow(1e12, 0.3658);
    assert_close(overtraining_loss(fit("besiroglu"), 1e9, 1e12), expected, TIGHT, "nats");
}

/* An unlimited model on unlimited data (the contract allows +INFINITY for either)
 * leaves exactly E; an unlimited model on finite data leaves E + B / D^beta. */
static void an_infinite_model_on_infinite_data_keeps_the_irreducible_loss(void **state)
{
    (void)state;
    assert_close(overtraining_loss(fit("hoffmann"), INFINITY, INFINITY), 1.69, TIGHT, "nats");
    assert_close(overtraining_loss(fit("besiroglu"), INFINITY, INFINITY), 1.8172, TIGHT, "nats");
    assert_close(overtraining_loss(fit("besiroglu"), INFINITY, 1e12),
                 1.8172 + 2085.43 / pow(1e12, 0.3658), TIGHT, "nats");
}

/* The contract: a model of no parameters, or trained on no data (or on a negative
 * or NaN amount), has no loss: NaN. */
static void a_model_without_parameters_or_data_has_no_loss(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    assert_nan(overtraining_loss(f, 0.0, 1e12));
    assert_nan(overtraining_loss(f, 7e9, 0.0));
    assert_nan(overtraining_loss(f, -7e9, 1e12));
    assert_nan(overtraining_loss(f, NAN, 1e12));
    assert_nan(overtraining_loss(f, 7e9, NAN));
}

/* Closed form: doubling the data removes a fraction 1 - 2^-beta of the data term. */
static void doubling_data_shrinks_the_data_term_by_2_to_the_minus_beta(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    double drop = overtraining_loss(f, 7e9, 1e12) - overtraining_loss(f, 7e9, 2e12);
    double data_term = f->a_tokens / pow(1e12, f->alpha_tokens);
    assert_close(drop, data_term * (1.0 - pow(2.0, -f->alpha_tokens)), 1e-9, "nats");
}

/* ---- 4.2 frontier ---------------------------------------------------------------- */

/* Hoffmann et al. Figure 4: Approach 3 projects a 40B-parameter optimum at Gopher's
 * 5.76e23 FLOPs. The unrounded constants reproduce it (to the figure's 2 digits). */
static void unrounded_fit_puts_40b_at_gophers_budget(void **state)
{
    (void)state;
    overtraining_optimum o = overtraining_chinchilla(fit("hoffmann-unrounded"), 5.76e23);
    assert_close(o.params, 40e9, 0.02, "params");
}

/* The same budget with the printed constants (Hoffmann et al. eq. 4): the rounded
 * exponents move the answer far from 40B. */
static void printed_fit_at_gophers_budget_lands_far_from_40b(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    overtraining_optimum o = overtraining_chinchilla(f, 5.76e23);
    assert_answer(o);
    assert_close(o.params, E_FRONTIER_GOPHER_PARAMS_HOFFMANN, TIGHT, "params");
    assert_close(o.tokens, E_FRONTIER_GOPHER_TOKENS_HOFFMANN, TIGHT, "tokens");
    assert_true(o.params < 0.85 * 40e9);
}

/* The optimum spends exactly the budget: 6 N D = C, and reports its loss. */
static void the_optimum_spends_exactly_the_budget(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_optimum o = overtraining_chinchilla(f, 1e25);
    assert_close(6.0 * o.params * o.tokens, 1e25, TIGHT, "FLOPs");
    assert_close(o.flops, 1e25, TIGHT, "FLOPs");
    assert_close(o.tokens_per_param, o.tokens / o.params, TIGHT, "tokens/param");
    assert_close(o.loss, law(f, o.params, o.tokens), TIGHT, "nats");
}

/* Hoffmann's printed fit: the parameter term of a 70B model is 406.4 / 70e9^0.34 and
 * the data term of 1.4T tokens 410.7 / 1.4e12^0.28, what the law adds to E for each. */
static void the_terms_are_what_each_resource_leaves(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    overtraining_terms t = overtraining_loss_terms(f, 70e9, 1.4e12);
    assert_close(t.params_term, 406.4 / pow(70e9, 0.34), 1e-9, "nats");
    assert_close(t.tokens_term, 410.7 / pow(1.4e12, 0.28), 1e-9, "nats");
    assert_close(1.69 + t.params_term + t.tokens_term, law(f, 70e9, 1.4e12), 1e-12, "nats");
}

/* The contract (overtraining.h): each term depends on its own input only. A model
 * of 0 parameters has no parameter term (NaN, not A_N / 0 = +inf) and NaN tokens no
 * data term, while the other term is still the printed law's, 410.7 / 1.4e12^0.28 and
 * 406.4 / 70e9^0.34; unlimited parameters or data leave a term of exactly 0. */
static void a_bad_input_spoils_only_its_own_term_and_unlimited_leaves_0(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    overtraining_terms t = overtraining_loss_terms(f, 0.0, 1.4e12);
    assert_nan(t.params_term);
    assert_close(t.tokens_term, 410.7 / pow(1.4e12, 0.28), 1e-9, "nats");
    t = overtraining_loss_terms(f, 70e9, NAN);
    assert_close(t.params_term, 406.4 / pow(70e9, 0.34), 1e-9, "nats");
    assert_nan(t.tokens_term);
    t = overtraining_loss_terms(f, -1.0, -1.0);
    assert_nan(t.params_term);
    assert_nan(t.tokens_term);
    t = overtraining_loss_terms(f, INFINITY, INFINITY);
    assert_true(t.params_term == 0.0 && t.tokens_term == 0.0);
}

/* Hoffmann et al. eq. 4 with the unrounded constants: how the optimal model and its
 * data grow with compute (their Table 2 prints both to two digits, 0.46 and 0.54). */
static void unrounded_fit_frontier_exponents_match_hoffmanns_table_2(void **state)
{
    (void)state;
    overtraining_exponents e = overtraining_frontier_exponents(fit("hoffmann-unrounded"));
    assert_close(e.params, E_FRONTIER_PARAMS_EXPONENT_UNROUNDED, TIGHT, "");
    assert_close(e.tokens, E_FRONTIER_TOKENS_EXPONENT_UNROUNDED, TIGHT, "");
    assert_close(e.params, 0.46, 0.011, "");
    assert_close(e.tokens, 0.54, 0.011, "");
}

/* §4.3 (The compute-optimal frontier): the parameter term over the data term of the
 * compute-optimal model of 3.8e25 FLOPs (unrounded constants: Hoffmann et al.'s TeX
 * source, log A 6.0073404, log B 6.0179186, alpha 0.33917084, beta 0.2849083). */
static void loss_terms_at_the_optimum_of_3_8e25_flops(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    overtraining_optimum o = overtraining_chinchilla(f, 3.8e25);
    double param_term = exp(6.0073404) / pow(o.params, 0.33917084);
    double data_term = exp(6.0179186) / pow(o.tokens, 0.2849083);
    assert_close(param_term / data_term, E_FRONTIER_TERM_RATIO_UNROUNDED, 1e-9, "");
}

/* Besiroglu et al. 2024: doubling compute grows the optimal model and its data by
 * the refit's exponents in C, read here as log2 of the growth. */
static void doubling_compute_grows_the_besiroglu_model_by_the_refits_exponent(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_optimum one = overtraining_chinchilla(f, 1e24);
    overtraining_optimum two = overtraining_chinchilla(f, 2e24);
    assert_close(log2(two.params / one.params), E_FRONTIER_PARAMS_EXPONENT_BESIROGLU, 2e-4, "");
    assert_close(log2(two.tokens / one.tokens), E_FRONTIER_TOKENS_EXPONENT_BESIROGLU, 2e-4, "");
}

/* Hoffmann Table 1: Chinchilla's 70B on 1.4T tokens is 20 tokens per parameter.
 * Besiroglu's refit agrees within 10% at Chinchilla's budget, 6 x 70e9 x 1.4e12. */
static void besiroglu_refit_gives_about_20_tokens_per_parameter(void **state)
{
    (void)state;
    overtraining_optimum o = overtraining_chinchilla(fit("besiroglu"), 6.0 * 70e9 * 1.4e12);
    assert_close(o.tokens_per_param, 1.4e12 / 70e9, 0.1, "tokens/param");
}

/* The frontier read backwards: the optimum of budget C, asked for its own size,
 * gives back the same tokens and the same C. */
static void a_models_compute_optimal_tokens_lead_back_to_its_budget(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    overtraining_optimum o = overtraining_chinchilla(f, 5.76e23);
    assert_same_optimum(overtraining_chinchilla_for_params(f, o.params), o, 5.76e23);
}

/* The contract: no budget, a negative, NaN or infinite one buys no model. */
static void no_budget_buys_no_model(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    assert_no_answer(overtraining_chinchilla(f, 0.0));
    assert_no_answer(overtraining_chinchilla(f, -1e24));
    assert_no_answer(overtraining_chinchilla(f, NAN));
    assert_no_answer(overtraining_chinchilla(f, INFINITY));
    assert_no_answer(overtraining_chinchilla_for_params(f, 0.0));
    assert_no_answer(overtraining_chinchilla_for_params(f, NAN));
    overtraining_optimum none = overtraining_chinchilla(f, 0.0);
    assert_true(none.params == 0.0 && none.tokens == 0.0 && none.flops == 0.0);
}

/* Under the refit a 1e300-parameter model's compute-optimal tokens are a finite
 * double, but 6 N D is beyond one (1.8e308): the contract's overflow rule, no answer. */
static void a_model_of_1e300_parameters_needs_more_flops_than_a_double_holds(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    double d = E_FRONTIER_TOKENS_FOR_1E300_PARAMS_BESIROGLU;
    assert_true(isfinite(d) && !isfinite(6.0 * 1e300 * d)); /* the premise */
    assert_no_answer(overtraining_chinchilla_for_params(f, 1e300));
}

/* ---- 4.3 iso_loss ---------------------------------------------------------------- */

/* The refit (Besiroglu et al. Table 1): an 8B model trained on the tokens it needs
 * for 2.1 nats reaches 2.1 nats by the law, and the count is that of §4.4 (Holding
 * quality fixed). */
static void tokens_for_a_loss_invert_the_loss_law(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_tokens t = overtraining_tokens_for_loss(f, 8e9, 2.1);
    assert_answer(t);
    assert_close(law(f, 8e9, t.tokens), 2.1, 1e-12, "nats");
    assert_close(t.tokens, E_ISO_TOKENS_8B_2_1_NATS_BESIROGLU, 1e-9, "tokens");
}

/* The printed fit: a 1B model has a least loss no data takes it below, §4.4 (Holding
 * quality fixed); under it the answer does not exist, above it it does. */
static void no_amount_of_data_saves_a_model_that_is_too_small(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    double floor = E_ISO_FLOOR_1B_HOFFMANN; /* 1B parameters */
    assert_no_answer(overtraining_tokens_for_loss(f, 1e9, floor - 0.01));
    assert_no_answer(overtraining_tokens_for_loss(f, 1e9, floor - 1e-6));
    assert_answer(overtraining_tokens_for_loss(f, 1e9, floor + 0.01));
}

/* Exactly at a model's floor only infinite data gets there, so the contract says
 * no answer. With every constant 1 the arithmetic is exact: a 1-parameter model's
 * floor is 2 nats, and 2.5 nats has an exact token count. */
static void a_loss_exactly_at_the_models_floor_needs_infinite_data(void **state)
{
    (void)state;
    assert_no_answer(overtraining_tokens_for_loss(&UNIT_FIT, 1.0, 2.0));
    overtraining_tokens t = overtraining_tokens_for_loss(&UNIT_FIT, 1.0, 2.5);
    assert_answer(t);
    assert_close(t.tokens, E_ISO_TOKENS_UNIT_FIT_N1_2_5_NATS, TIGHT, "tokens");
}

/* The contract: an answer that underflows to 0 is no answer. Even the smallest
 * positive double of tokens (4.9e-324) takes an 8B model below 1e300 nats under the
 * printed law, so that target needs fewer tokens than a double holds; a target of
 * 1e50 nats is still met by a representable count. */
static void a_target_met_by_fewer_tokens_than_a_double_holds_has_no_answer(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    assert_true(law(f, 8e9, 4.9406564584124654e-324) < 1e300); /* the premise */
    assert_no_answer(overtraining_tokens_for_loss(f, 8e9, 1e300));
    overtraining_tokens t = overtraining_tokens_for_loss(f, 8e9, 1e50);
    assert_answer(t);
    assert_true(t.tokens > 0.0);
    assert_close(law(f, 8e9, t.tokens), 1e50, 1e-9, "nats");
}

/* The contract: a size that is not positive and finite, or a loss that is not
 * finite, has no answer. */
static void a_non_finite_loss_or_size_has_no_answer(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    assert_no_answer(overtraining_tokens_for_loss(f, 0.0, 2.0));
    assert_no_answer(overtraining_tokens_for_loss(f, INFINITY, 2.0));
    assert_no_answer(overtraining_tokens_for_loss(f, 8e9, NAN));
    assert_no_answer(overtraining_tokens_for_loss(f, 8e9, INFINITY));
    assert_no_answer(overtraining_min_params(f, NAN));
    assert_no_answer(overtraining_min_params(f, INFINITY));
    assert_no_answer(overtraining_chinchilla_for_loss(f, NAN));
    assert_no_answer(overtraining_chinchilla_for_loss(f, INFINITY));
}

/* No finite model reaches the irreducible loss, nor anything below it; just above
 * it there is a smallest model that can (printed fit, 2 nats: §4.4 (Holding quality
 * fixed)). */
static void no_model_reaches_the_irreducible_loss(void **state)
{
    (void)state;
    assert_no_answer(overtraining_min_params(fit("hoffmann"), 1.69));
    overtraining_size n = overtraining_min_params(fit("hoffmann"), 2.0);
    assert_answer(n);
    assert_close(n.params, E_ISO_MIN_PARAMS_2_NATS_HOFFMANN, 1e-12, "params");
    assert_no_answer(overtraining_chinchilla_for_loss(fit("hoffmann"), 1.69));
    assert_no_answer(overtraining_chinchilla_for_loss(fit("besiroglu"), 1.5));
    assert_answer(overtraining_chinchilla_for_loss(fit("besiroglu"), 1.9));
}

/* The compute-optimal model for a loss is on the frontier: asked for the loss of the
 * compute-optimal model of 1e24 FLOPs (unrounded Hoffmann fit, Hoffmann et al. eq. 4
 * then eq. 2), it gives back that model, its tokens and its 1e24 FLOPs. */
static void the_cheapest_model_for_a_loss_is_on_the_frontier(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    overtraining_optimum o = {.params = E_ISO_FRONTIER_PARAMS_1E24_FLOPS_UNROUNDED,
                              .tokens = E_ISO_FRONTIER_TOKENS_1E24_FLOPS_UNROUNDED};
    assert_same_optimum(
        overtraining_chinchilla_for_loss(f, E_ISO_FRONTIER_LOSS_1E24_FLOPS_UNROUNDED), o, 1e24);
}

/* The cheapest model for a loss, §4.4 (Holding quality fixed), under the refit
 * (E 1.8172, A 482.01, alpha 0.3478, B 2085.43, beta 0.3658): its two terms at 2 nats,
 * the two equations of §4.4 (Holding quality fixed) solved in closed form. */
static void the_compute_optimal_model_for_2_nats_splits_its_loss_as_the_refit_says(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_optimum o = overtraining_chinchilla_for_loss(f, 2.0);
    assert_close(482.01 / pow(o.params, 0.3478), E_ISO_PARAMS_TERM_2_NATS_BESIROGLU, 1e-9,
                 "nats");
    assert_close(2085.43 / pow(o.tokens, 0.3658), E_ISO_TOKENS_TERM_2_NATS_BESIROGLU, 1e-9,
                 "nats");
}

/* ---- 4.4 cost_terms ------------------------------------------------------------ */

/* The lecture at 1:22:13, §4.5 (Three costs of a model's life): pre-training is 6 N D
 * (2 forward, 4 backward). */
static void pretraining_costs_6_flops_per_parameter_per_token(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 70e9, .pretrain_tokens = 1.4e12,
                           .factors = factors(2, 1, 1)};
    overtraining_costs c = overtraining_cost_terms(&p);
    assert_close(c.pretrain_flops, 6.0 * 70e9 * 1.4e12, TIGHT, "FLOPs");
    assert_close(c.rl_flops, 0.0, TIGHT, "FLOPs");
    assert_close(c.inference_flops, 0.0, TIGHT, "FLOPs");
}

/* The lecture at 1:22:13, §4.5 (Three costs of a model's life): inference is forward
 * only, 2 N per token, over its efficiency. */
static void serving_costs_2_flops_per_parameter_per_token_over_its_efficiency(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 100e9, .inference_tokens = 2e14,
                           .factors = factors(3, 1.0 / 3, 1.0 / 3)};
    assert_close(overtraining_cost_terms(&p).inference_flops, 2.0 * 100e9 * 2e14 * 3, TIGHT,
                 "FLOPs");
}

/* The lecture at 1:22:13, §4.5 (Three costs of a model's life): an RL token costs
 * k N / eta; k = 2 without a backward pass, 6 with one. */
static void rl_costs_k_flops_per_parameter_per_token_over_its_efficiency(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 100e9, .rl_tokens = 1e13,
                           .factors = factors(2, 0.3, 1)};
    assert_close(overtraining_cost_terms(&p).rl_flops, 2 * 100e9 * 1e13 / 0.3, TIGHT, "FLOPs");
    p.factors.rl_flops_per_param = 6;
    assert_close(overtraining_cost_terms(&p).rl_flops, 6 * 100e9 * 1e13 / 0.3, TIGHT, "FLOPs");
}

/* The lecture at 1:25:28-1:28:08, §4.7 (Sizing the coefficients, and the slip): lower
 * efficiency costs MORE; halving it doubles the term. */
static void lower_efficiency_makes_every_token_cost_more(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 37e9, .rl_tokens = 1e12, .inference_tokens = 1e13,
                           .factors = factors(4, 0.5, 0.5)};
    overtraining_costs half = overtraining_cost_terms(&p);
    p.factors.rl_efficiency = p.factors.inference_efficiency = 0.25;
    overtraining_costs quarter = overtraining_cost_terms(&p);
    assert_close(quarter.rl_flops, 2.0 * half.rl_flops, TIGHT, "FLOPs");
    assert_close(quarter.rl_flops, 4 * 37e9 * 1e12 / 0.25, TIGHT, "FLOPs");
    assert_close(quarter.inference_flops, 2.0 * half.inference_flops, TIGHT, "FLOPs");
}

/* The total is the sum of the three terms. */
static void the_total_is_the_sum_of_the_three_terms(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 100e9, .pretrain_tokens = 2e14,
                           .rl_tokens = 1e14, .inference_tokens = 2e14,
                           .factors = factors(3, 1.0 / 3, 1.0 / 3)};
    overtraining_costs c = overtraining_cost_terms(&p);
    double expected = 6 * 100e9 * 2e14 + 3 * 100e9 * 1e14 * 3 + 2 * 100e9 * 2e14 * 3;
    assert_answer(c);
    assert_close(c.total_flops, expected, TIGHT, "FLOPs");
}

/* The contract: token counts of 0 are allowed and cost 0; a model of 0 parameters,
 * a negative or NaN token count are not. */
static void no_tokens_cost_nothing_but_a_model_without_parameters_has_no_costs(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 100e9, .factors = factors(3, 1.0 / 3, 1.0 / 3)};
    overtraining_costs c = overtraining_cost_terms(&p);
    assert_answer(c);
    assert_true(c.total_flops == 0.0);
    p.params_active = 0.0;
    assert_no_answer(overtraining_cost_terms(&p));
    p.params_active = 100e9;
    p.rl_tokens = -1.0;
    assert_no_answer(overtraining_cost_terms(&p));
    p.rl_tokens = NAN;
    assert_no_answer(overtraining_cost_terms(&p));
}

/* The contract: an efficiency is > 0 and finite; exactly 1 (decode as good as
 * training) is fine, and so, computably, is 2; 0, infinity and NaN are not, nor is
 * k_RL = 0. */
static void an_efficiency_must_be_positive_and_finite(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 1e9, .pretrain_tokens = 1e12, .rl_tokens = 1e11,
                           .inference_tokens = 1e12, .factors = factors(2, 1.0, 1.0)};
    overtraining_costs c = overtraining_cost_terms(&p);
    assert_answer(c);
    assert_close(c.inference_flops, 2 * 1e9 * 1e12, TIGHT, "FLOPs");
    p.factors.inference_efficiency = 2.0;
    assert_close(overtraining_cost_terms(&p).inference_flops, 1e9 * 1e12, TIGHT, "FLOPs");
    p.factors.inference_efficiency = 0.0;
    assert_no_answer(overtraining_cost_terms(&p));
    p.factors.inference_efficiency = INFINITY;
    assert_no_answer(overtraining_cost_terms(&p));
    p.factors.inference_efficiency = NAN;
    assert_no_answer(overtraining_cost_terms(&p));
    p.factors = factors(0, 1.0, 1.0);
    assert_no_answer(overtraining_cost_terms(&p));
}

/* 1e-320 is a valid efficiency (a denormal above 0), but 2 N D_inf / 1e-320 is
 * beyond a double: the contract's overflow rule, no answer. */
static void an_efficiency_of_1e_minus_320_overflows_to_no_answer(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 1e9, .inference_tokens = 1e12,
                           .factors = factors(2, 1.0, 1e-320)};
    assert_true(!isfinite(2 * 1e9 * 1e12 / 1e-320)); /* the premise */
    assert_no_answer(overtraining_cost_terms(&p));
}

/* ---- 4.5 heuristic --------------------------------------------------------------- */

/* §4.6 (The equal-cost heuristic): with equal exponents (1/x + x) the heuristic is
 * exact. */
static void equal_exponents_put_the_minimum_where_the_terms_are_equal(void **state)
{
    (void)state;
    assert_close(overtraining_optimum_term_ratio(1, 1), 1.0, TIGHT, "");
    assert_close(overtraining_equal_cost_penalty(1, 1), 1.0, TIGHT, "x");
    assert_close(overtraining_equal_cost_penalty(0.3, 0.3), 1.0, TIGHT, "x");
}

/* The falling term over the rising one at the least cost, §4.6 (The equal-cost
 * heuristic): for 3 u^-0.35 + 5 u^1.15 (exponents 0.35 and 1.15), and for
 * 2 u^-1.45 + 7 u^0.55 (exponents 1.45 and 0.55, the falling term the steeper). */
static void the_term_ratio_at_the_least_cost_of_two_cost_curves(void **state)
{
    (void)state;
    assert_close(overtraining_optimum_term_ratio(0.35, 1.15), E_HEURISTIC_TERM_RATIO_0_35_1_15,
                 1e-12, "");
    assert_close(overtraining_optimum_term_ratio(1.45, 0.55), E_HEURISTIC_TERM_RATIO_1_45_0_55,
                 1e-12, "");
}

/* §4.6 (The equal-cost heuristic), its example u^-1 + u^2: the point of equal terms
 * costs under 6% more than the least cost. */
static void the_heuristic_costs_under_6_percent_for_exponents_1_and_2(void **state)
{
    (void)state;
    assert_close(overtraining_equal_cost_penalty(1, 2), E_HEURISTIC_PENALTY_1_2, 1e-12, "x");
    assert_true(overtraining_equal_cost_penalty(1, 2) < 1.06);
}

/* The penalty of u^-0.5 + u^3, §4.6 (The equal-cost heuristic), and the same with
 * the exponents swapped (u -> 1/u keeps both points): symmetric, and above 1. */
static void the_penalty_is_the_same_with_the_exponents_swapped(void **state)
{
    (void)state;
    double expected = E_HEURISTIC_PENALTY_0_5_3;
    assert_close(overtraining_equal_cost_penalty(0.5, 3), expected, 1e-12, "x");
    assert_close(overtraining_equal_cost_penalty(3, 0.5), expected, 1e-12, "x");
    assert_true(expected > 1.0);
}

/* The contract: exponents are positive and finite; otherwise NaN. */
static void exponents_must_be_positive_and_finite(void **state)
{
    (void)state;
    assert_nan(overtraining_optimum_term_ratio(0.0, 1.0));
    assert_nan(overtraining_optimum_term_ratio(1.0, -1.0));
    assert_nan(overtraining_optimum_term_ratio(NAN, 1.0));
    assert_nan(overtraining_optimum_term_ratio(1.0, INFINITY));
    assert_nan(overtraining_equal_cost_penalty(0.0, 1.0));
    assert_nan(overtraining_equal_cost_penalty(1.0, NAN));
    assert_nan(overtraining_equal_cost_penalty(INFINITY, 1.0));
}

CHALK_PART(basics) = {
    CHALK_TEST(loss, chinchilla_70b_on_1_4t_tokens_follows_the_printed_law),
    CHALK_TEST(loss, parameters_pair_with_alpha_and_tokens_with_beta),
    CHALK_TEST(loss, an_infinite_model_on_infinite_data_keeps_the_irreducible_loss),
    CHALK_TEST(loss, a_model_without_parameters_or_data_has_no_loss),
    CHALK_TEST(loss, doubling_data_shrinks_the_data_term_by_2_to_the_minus_beta),
    CHALK_TEST(loss, the_terms_are_what_each_resource_leaves),
    CHALK_TEST(loss, a_bad_input_spoils_only_its_own_term_and_unlimited_leaves_0),
    CHALK_TEST(frontier, unrounded_fit_puts_40b_at_gophers_budget),
    CHALK_TEST(frontier, printed_fit_at_gophers_budget_lands_far_from_40b),
    CHALK_TEST(frontier, the_optimum_spends_exactly_the_budget),
    CHALK_TEST(frontier, loss_terms_at_the_optimum_of_3_8e25_flops),
    CHALK_TEST(frontier, unrounded_fit_frontier_exponents_match_hoffmanns_table_2),
    CHALK_TEST(frontier, doubling_compute_grows_the_besiroglu_model_by_the_refits_exponent),
    CHALK_TEST(frontier, besiroglu_refit_gives_about_20_tokens_per_parameter),
    CHALK_TEST(frontier, a_models_compute_optimal_tokens_lead_back_to_its_budget),
    CHALK_TEST(frontier, no_budget_buys_no_model),
    CHALK_TEST(frontier, a_model_of_1e300_parameters_needs_more_flops_than_a_double_holds),
    CHALK_TEST(iso_loss, tokens_for_a_loss_invert_the_loss_law),
    CHALK_TEST(iso_loss, no_amount_of_data_saves_a_model_that_is_too_small),
    CHALK_TEST(iso_loss, a_loss_exactly_at_the_models_floor_needs_infinite_data),
    CHALK_TEST(iso_loss, a_target_met_by_fewer_tokens_than_a_double_holds_has_no_answer),
    CHALK_TEST(iso_loss, a_non_finite_loss_or_size_has_no_answer),
    CHALK_TEST(iso_loss, no_model_reaches_the_irreducible_loss),
    CHALK_TEST(iso_loss, the_cheapest_model_for_a_loss_is_on_the_frontier),
    CHALK_TEST(iso_loss, the_compute_optimal_model_for_2_nats_splits_its_loss_as_the_refit_says),
    CHALK_TEST(cost_terms, pretraining_costs_6_flops_per_parameter_per_token),
    CHALK_TEST(cost_terms, serving_costs_2_flops_per_parameter_per_token_over_its_efficiency),
    CHALK_TEST(cost_terms, rl_costs_k_flops_per_parameter_per_token_over_its_efficiency),
    CHALK_TEST(cost_terms, lower_efficiency_makes_every_token_cost_more),
    CHALK_TEST(cost_terms, the_total_is_the_sum_of_the_three_terms),
    CHALK_TEST(cost_terms, no_tokens_cost_nothing_but_a_model_without_parameters_has_no_costs),
    CHALK_TEST(cost_terms, an_efficiency_must_be_positive_and_finite),
    CHALK_TEST(cost_terms, an_efficiency_of_1e_minus_320_overflows_to_no_answer),
    CHALK_TEST(heuristic, equal_exponents_put_the_minimum_where_the_terms_are_equal),
    CHALK_TEST(heuristic, the_term_ratio_at_the_least_cost_of_two_cost_curves),
    CHALK_TEST(heuristic, the_heuristic_costs_under_6_percent_for_exponents_1_and_2),
    CHALK_TEST(heuristic, the_penalty_is_the_same_with_the_exponents_swapped),
    CHALK_TEST(heuristic, exponents_must_be_positive_and_finite),
};
CHALK_PART_END(basics);

CHALK_PART_DECLARE(estimate); /* test_overtraining_estimate.c */
CHALK_PART_DECLARE(search);   /* test_overtraining_search.c */

int main(void)
{
    return chalk_run_parts("04-overtraining", CHALK_PART_REF(basics), CHALK_PART_REF(estimate),
                           CHALK_PART_REF(search));
}
