/*
 * test_overtraining.c -- Chapter 4 tests: the Chinchilla frontier, the three costs of
 * a model's life, the equal-cost estimate and the inference-optimal model.
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
 *   Sardana et al. 2024 (ICML; arXiv:2401.00448) Figure 1: a 13B model facing 2T
 *       tokens of inference is best replaced by a 7B model, saving 1.7e22 FLOPs (17%).
 *   De Vries 2023 ("Go smol or go home"), as coded in the Harm's-law app
 *       (huggingface.co/spaces/lvwerra/harms-law, app.py): alpha 0.336, beta 0.283
 *       with the printed A and B (lib/scaling.c, fit "devries").
 *   The lecture (section 5) and its flashcards: k_RL 2 to 6, efficiency ~30% or
 *       1/3; 50M tokens/s for 60 days; 100B active parameters; 20 tokens/param.
 *   Meta's Llama 3 8B model card: 8.03e9 parameters, 15T tokens.
 *
 * No answer (overtraining.h): a double result is NaN, a struct result has exists =
 * false and a reason; every such rule is tested at the point where it starts.
 */
#include "../test_util.h"

#include "overtraining.h"

#include "expected.h"

#define TIGHT 1e-9   /* closed forms: only rounding differs */
#define SEARCHED 1e-10 /* a searched minimiser: the contract asks a relative 1e-10 in N */
#define DAY_S 86400.0

static const cost_scaling_fit *fit(const char *name)
{
    const cost_scaling_fit *f = cost_scaling_fit_find(name);
    assert_non_null(f);
    return f;
}

/* The loss law written out, independently of the code under test. */
static double law(const cost_scaling_fit *f, double n, double d)
{
    return f->irreducible + f->a_params / pow(n, f->alpha_params) +
           f->a_tokens / pow(d, f->alpha_tokens);
}

/* How close a searched minimiser is to the true one, as a name `make check` can match
 * (the contract asks a relative 1e-10 in N): within it; only within 1e-3 (the search
 * found the right minimum but stopped short of the contract's accuracy); or further. */
enum { WITHIN_1E_10, WITHIN_1E_3_ONLY, FURTHER };
static const char *closeness_name(int c)
{
    static const char *const names[] = {"within-1e-10", "within-1e-3-but-not-1e-10",
                                        "further-than-1e-3"};
    return c >= 0 && c <= FURTHER ? names[c] : "?";
}
static int closeness(double found, double truth)
{
    double rel = fabs(found - truth) / fabs(truth);
    if (rel <= SEARCHED)
        return WITHIN_1E_10;
    return rel <= 1e-3 ? WITHIN_1E_3_ONLY : FURTHER; /* NaN is further */
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

/* A double result without an answer: NaN. */
#define assert_nan(x) chalk_assert_nan((x), #x, __FILE__, __LINE__)
static void chalk_assert_nan(double x, const char *expr, const char *file, int line)
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
static overtraining_factors factors(double k, double eta_rl, double eta_inf)
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

/* Hoffmann et al. eq. 4 with the printed constants: how the optimal model and its
 * data grow with compute (their Table 2 prints both to two digits). */
static void printed_fit_frontier_exponents_match_hoffmanns_table_2(void **state)
{
    (void)state;
    overtraining_exponents e = overtraining_frontier_exponents(fit("hoffmann"));
    assert_close(e.params, E_FRONTIER_PARAMS_EXPONENT_HOFFMANN, TIGHT, "");
    assert_close(e.tokens, E_FRONTIER_TOKENS_EXPONENT_HOFFMANN, TIGHT, "");
}

/* §4.3 (The compute-optimal frontier): the parameter term over the data term of the
 * compute-optimal model of 3.8e25 FLOPs (printed constants). */
static void loss_terms_at_the_optimum_of_3_8e25_flops(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    overtraining_optimum o = overtraining_chinchilla(f, 3.8e25);
    double param_term = 406.4 / pow(o.params, 0.34), data_term = 410.7 / pow(o.tokens, 0.28);
    assert_close(param_term / data_term, E_FRONTIER_TERM_RATIO_HOFFMANN, 1e-9, "");
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
 * from the closed form in the instructor edition's solution to exercise iso_loss. */
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

/* Lecture section 5.3: pre-training is 6 N D (2 forward, 4 backward). */
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

/* Lecture section 5.3: inference is forward only, 2 N per token, over its efficiency. */
static void serving_costs_2_flops_per_parameter_per_token_over_its_efficiency(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 100e9, .inference_tokens = 2e14,
                           .factors = factors(3, 1.0 / 3, 1.0 / 3)};
    assert_close(overtraining_cost_terms(&p).inference_flops, 2.0 * 100e9 * 2e14 * 3, TIGHT,
                 "FLOPs");
}

/* Lecture section 5.3: an RL token costs k N / eta; k = 2 without a backward pass,
 * 6 with one. */
static void rl_costs_k_flops_per_parameter_per_token_over_its_efficiency(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 100e9, .rl_tokens = 1e13,
                           .factors = factors(2, 0.3, 1)};
    assert_close(overtraining_cost_terms(&p).rl_flops, 2 * 100e9 * 1e13 / 0.3, TIGHT, "FLOPs");
    p.factors.rl_flops_per_param = 6;
    assert_close(overtraining_cost_terms(&p).rl_flops, 6 * 100e9 * 1e13 / 0.3, TIGHT, "FLOPs");
}

/* Lecture section 5.4: lower efficiency costs MORE; halving it doubles the term. */
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
 * heuristic): for 3/u + 5 u^2 (exponents 1 and 2), and for the printed fit's
 * exponents 0.34 and 0.28. */
static void the_term_ratio_at_the_least_cost_of_two_cost_curves(void **state)
{
    (void)state;
    assert_close(overtraining_optimum_term_ratio(1, 2), E_HEURISTIC_TERM_RATIO_1_2, 1e-12, "");
    assert_close(overtraining_optimum_term_ratio(0.34, 0.28), E_HEURISTIC_TERM_RATIO_HOFFMANN,
                 TIGHT, "");
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

/* ---- 4.6 sign_slip --------------------------------------------------------------- */

/* Flashcard 18 (lecture notes section 5.4): RL factor 3 and decode at 1/3 of
 * pre-training's utilisation give 6 D_pre = 3 x 3 D_RL = 2 x 3 D_inf: an RL token
 * costs 1.5 pre-training tokens and a served token 1. */
static void flashcard_weights_are_1_5_for_rl_and_1_for_inference(void **state)
{
    (void)state;
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3);
    overtraining_weights w = overtraining_token_weights(&f);
    assert_close(w.rl, 1.5, TIGHT, "");
    assert_close(w.inference, 1.0, TIGHT, "");
}

/* Lecture section 5.4, the first pass: (2..6)/6 times 30% and (1/3) times 30%,
 * "about a tenth". */
static void the_lectures_first_pass_gives_about_a_tenth(void **state)
{
    (void)state;
    overtraining_factors f = factors(2, 0.3, 0.3);
    overtraining_weights w = overtraining_token_weights_slipped(&f);
    assert_close(w.rl, 2.0 / 6.0 * 0.3, TIGHT, "");
    assert_close(w.inference, 2.0 / 6.0 * 0.3, TIGHT, "");
    f.rl_flops_per_param = 6;
    assert_close(overtraining_token_weights_slipped(&f).rl, 0.3, TIGHT, "");
}

/* Multiplying instead of dividing by eta is off by eta^2: at 30%, about 11x. */
static void the_slip_understates_each_weight_by_eta_squared(void **state)
{
    (void)state;
    overtraining_factors f = factors(4, 0.3, 0.25);
    overtraining_weights right = overtraining_token_weights(&f);
    overtraining_weights slip = overtraining_token_weights_slipped(&f);
    assert_close(right.rl, 4.0 / (6.0 * 0.3), TIGHT, "");
    assert_close(right.rl / slip.rl, 1.0 / (0.3 * 0.3), TIGHT, "x");
    assert_close(right.inference / slip.inference, 1.0 / (0.25 * 0.25), TIGHT, "x");
}

/* At perfect efficiency the slip does not show: an RL token with a backward pass
 * (k = 6) costs exactly one pre-training token either way. */
static void at_full_efficiency_a_trained_rl_token_costs_one_pretraining_token(void **state)
{
    (void)state;
    overtraining_factors f = factors(6, 1, 1);
    assert_close(overtraining_token_weights(&f).rl, 1.0, TIGHT, "");
    assert_close(overtraining_token_weights_slipped(&f).rl, 1.0, TIGHT, "");
    assert_close(overtraining_token_weights(&f).inference, 1.0 / 3.0, TIGHT, "");
    assert_answer(overtraining_token_weights(&f));
    assert_answer(overtraining_token_weights_slipped(&f));
}

/* The slip multiplies by eta where the correction divides: k eta / 6 is the corrected
 * weight k / (6 x (1/eta)) at the (unphysical, but valid) efficiency 1/eta. */
static void the_slipped_weight_is_the_corrected_one_at_efficiency_1_over_eta(void **state)
{
    (void)state;
    overtraining_factors f = factors(4, 0.3, 0.25), inv = factors(4, 1.0 / 0.3, 1.0 / 0.25);
    overtraining_weights slip = overtraining_token_weights_slipped(&f);
    overtraining_weights right = overtraining_token_weights(&inv);
    assert_answer(right);
    assert_close(slip.rl, right.rl, TIGHT, "");
    assert_close(slip.inference, right.inference, TIGHT, "");
}

/* The contract: weights exist only for valid factors (k_RL > 0, efficiencies > 0,
 * all finite), slipped or not. */
static void weights_of_invalid_factors_do_not_exist(void **state)
{
    (void)state;
    overtraining_factors zero = factors(3, 0.0, 0.3), infinite = factors(3, 0.3, INFINITY),
                         no_k = factors(0, 0.3, 0.3);
    assert_no_answer(overtraining_token_weights(&zero));
    assert_no_answer(overtraining_token_weights(&infinite));
    assert_no_answer(overtraining_token_weights(&no_k));
    assert_no_answer(overtraining_token_weights_slipped(&zero));
    assert_no_answer(overtraining_token_weights_slipped(&infinite));
    assert_no_answer(overtraining_token_weights_slipped(&no_k));
}

/* ---- 4.7 equal_cost -------------------------------------------------------------- */

/* Flashcard 18: thirds, k = 3, eta = 1/3 give D_pre = 1.5 D_RL = D_inf. */
static void thirds_give_d_pre_equal_1_5_d_rl_equal_d_inf(void **state)
{
    (void)state;
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3);
    overtraining_split s = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    overtraining_token_ratios r = overtraining_equal_cost(&f, &s);
    assert_close(r.rl_per_pretrain, 1.0 / 1.5, TIGHT, "");
    assert_close(r.inference_per_pretrain, 1.0, TIGHT, "");
}

/* Lecture section 5.3, the host's split: pre-training and RL a quarter each,
 * inference half. Inference then gets twice the pre-training tokens. */
static void half_the_budget_on_inference_doubles_its_tokens(void **state)
{
    (void)state;
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3);
    overtraining_split s = {0.25, 0.25, 0.5};
    overtraining_token_ratios r = overtraining_equal_cost(&f, &s);
    assert_close(r.inference_per_pretrain, 2.0, TIGHT, "");
    assert_close(r.rl_per_pretrain, 1.0 / 1.5, TIGHT, "");
}

/* Lecture section 5.4: RL tokens cost more machine time, so equal cost buys fewer:
 * with a backward pass (k = 6) a third as many as without (k = 2). */
static void costlier_rl_tokens_mean_fewer_of_them(void **state)
{
    (void)state;
    overtraining_split s = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    overtraining_factors two = factors(2, 0.3, 0.3), six = factors(6, 0.3, 0.3);
    double r2 = overtraining_equal_cost(&two, &s).rl_per_pretrain;
    double r6 = overtraining_equal_cost(&six, &s).rl_per_pretrain;
    assert_close(r2, 6.0 * 0.3 / 2.0, TIGHT, "");
    assert_close(r2 / r6, 3.0, TIGHT, "x");
}

/* The contract: a share of 0 is allowed and gives 0 tokens of that kind (here a
 * lab that does no RL: pre-training and serving half each, so D_inf = D). */
static void no_share_for_rl_means_no_rl_tokens(void **state)
{
    (void)state;
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3);
    overtraining_split s = {0.5, 0.0, 0.5};
    overtraining_token_ratios r = overtraining_equal_cost(&f, &s);
    assert_answer(r);
    assert_true(r.rl_per_pretrain == 0.0);
    assert_close(r.inference_per_pretrain, 1.0, TIGHT, "");
}

/* The contract: pre-training's share must be > 0 (the ratios are per pre-training
 * token); no share, a negative or NaN one has no answer. */
static void no_share_for_pretraining_has_no_answer(void **state)
{
    (void)state;
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3);
    overtraining_split none = {0.0, 0.5, 0.5}, negative = {-0.1, 0.5, 0.6},
                       nan = {NAN, 0.5, 0.5}, bad_rl = {0.5, -0.5, 1.0};
    assert_no_answer(overtraining_equal_cost(&f, &none));
    assert_no_answer(overtraining_equal_cost(&f, &negative));
    assert_no_answer(overtraining_equal_cost(&f, &nan));
    assert_no_answer(overtraining_equal_cost(&f, &bad_rl));
}

/* ---- 4.8 estimate ---------------------------------------------------------------- */

/* Lecture notes open point 12: 50M tokens/s for 60 days is 2.59e14, "about 200T". */
static void fifty_million_tokens_per_second_for_60_days_is_259_trillion(void **state)
{
    (void)state;
    overtraining_fleet f = {.tokens_per_s = 50e6, .days = 60, .use_probability = 1};
    assert_close(overtraining_inference_tokens(&f), 50e6 * 60 * DAY_S, TIGHT, "tokens");
    assert_close(overtraining_inference_tokens(&f), 2.592e14, TIGHT, "tokens");
}

/* Lecture section 5.5: the fleet, 500M tokens/s for 2 months, is 2.6e15 tokens. */
static void the_fleet_serves_2_6e15_tokens_in_two_months(void **state)
{
    (void)state;
    overtraining_fleet f = {.tokens_per_s = 500e6, .days = 60, .use_probability = 1};
    assert_close(overtraining_inference_tokens(&f), 2.6e15, 0.005, "tokens");
}

/* Open point 12: 100B active parameters at 20 tokens each is 2T; 259T of them is
 * 130x, the lecture's rounded 200T is 100x and the rumoured 150T is 75x. */
static void the_lectures_numbers_give_130x_and_its_rounding_100x(void **state)
{
    (void)state;
    assert_close(overtraining_factor(50e6 * 60 * DAY_S, 100e9, 20), 129.6, TIGHT, "x");
    assert_close(overtraining_factor(200e12, 100e9, 20), 100.0, TIGHT, "x");
    assert_close(overtraining_factor(150e12, 100e9, 20), 75.0, TIGHT, "x");
}

/* Lecture section 5.4: derate the inference term by the chance the run is used. */
static void derating_scales_the_tokens_by_the_chance_of_use(void **state)
{
    (void)state;
    overtraining_fleet f = {.tokens_per_s = 50e6, .days = 60, .use_probability = 0.5};
    assert_close(overtraining_inference_tokens(&f), 0.5 * 50e6 * 60 * DAY_S, TIGHT, "tokens");
    f.use_probability = 0;
    assert_close(overtraining_inference_tokens(&f), 0.0, TIGHT, "tokens");
}

/* Meta's model card: Llama 3 8B (8.03e9 parameters) saw 15T tokens, 1,868 per
 * parameter: 93x Chinchilla's 20. */
static void llama3_8b_is_trained_93x_past_20_tokens_per_parameter(void **state)
{
    (void)state;
    assert_close(overtraining_factor(15e12, 8.03e9, 20), 15e12 / 8.03e9 / 20, TIGHT, "x");
    assert_close(overtraining_factor(15e12, 8.03e9, 1), 1868, 0.001, "tokens/param");
}

/* The contract: a chance of use lies in [0, 1] (exactly 1 allowed, the next double
 * above it not); a negative rate or duration, NaN, or an overflowing product has
 * no answer. */
static void a_chance_above_one_or_a_negative_duration_has_no_answer(void **state)
{
    (void)state;
    overtraining_fleet f = {.tokens_per_s = 50e6, .days = 60, .use_probability = 1.0};
    assert_close(overtraining_inference_tokens(&f), 50e6 * 60 * DAY_S, TIGHT, "tokens");
    f.use_probability = nextafter(1.0, 2.0);
    assert_nan(overtraining_inference_tokens(&f));
    f.use_probability = -0.1;
    assert_nan(overtraining_inference_tokens(&f));
    f.use_probability = 1.0;
    f.days = -1.0;
    assert_nan(overtraining_inference_tokens(&f));
    f.days = 60;
    f.tokens_per_s = NAN;
    assert_nan(overtraining_inference_tokens(&f));
    f.tokens_per_s = 1e300;
    f.days = 1e300; /* 1e300 x 8.64e304 s overflows */
    assert_nan(overtraining_inference_tokens(&f));
}

/* The contract: the factor needs tokens, a model and a rule, all positive. */
static void the_factor_of_no_model_or_no_rule_has_no_answer(void **state)
{
    (void)state;
    assert_nan(overtraining_factor(15e12, 0.0, 20));
    assert_nan(overtraining_factor(15e12, 8e9, 0.0));
    assert_nan(overtraining_factor(0.0, 8e9, 20));
    assert_nan(overtraining_factor(NAN, 8e9, 20));
}

/* ---- 4.9 from_traffic ------------------------------------------------------------ */

/* Lecture section 5.4-5.5 with flashcard 18's numbers (k 3, both efficiencies 1/3,
 * thirds): a served token costs exactly one pre-training token, so D = D_inf =
 * 50M tokens/s x 60 days = 2.592e14, and 2.592e14 / (20 x 100e9) = 129.6x. */
static void the_lectures_traffic_at_a_third_pretrains_on_259t_tokens(void **state)
{
    (void)state;
    overtraining_fleet fleet = {.tokens_per_s = 50e6, .days = 60, .use_probability = 1};
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3);
    overtraining_split s = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    overtraining_estimate e = overtraining_from_traffic(&fleet, &f, &s, 100e9, 20);
    assert_answer(e);
    assert_close(e.inference_tokens, 50e6 * 60 * DAY_S, TIGHT, "tokens");
    assert_close(e.pretrain_tokens, 50e6 * 60 * DAY_S, TIGHT, "tokens");
    assert_close(e.tokens_per_param, 2592.0, TIGHT, "tokens/param");
    assert_close(e.overtrain_factor, 129.6, TIGHT, "x");
}

/* At the lecture's 30% a served token costs w_inf = 2 / (6 x 0.3) = 1/0.9
 * pre-training tokens; equal thirds then ask D_inf / D = 0.9, so D = 2.592e14 / 0.9
 * = 2.88e14: the 288 trillion of the lecture's check in section 4.9. */
static void at_the_lectures_30_percent_the_same_traffic_asks_for_288t_tokens(void **state)
{
    (void)state;
    overtraining_fleet fleet = {.tokens_per_s = 50e6, .days = 60, .use_probability = 1};
    overtraining_factors f = factors(3, 1.0 / 3, 0.3);
    overtraining_split s = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    overtraining_estimate e = overtraining_from_traffic(&fleet, &f, &s, 100e9, 20);
    assert_answer(e);
    assert_close(e.pretrain_tokens, 2.88e14, TIGHT, "tokens");
    assert_close(e.overtrain_factor, 144.0, TIGHT, "x");
}

/* The host's split (a quarter each to pre-training and RL, half to serving) at a
 * third: D_inf / D = 0.5 / (0.25 x 1) = 2, so D is half the served tokens; derated
 * by even odds of use, a quarter. */
static void half_the_budget_for_serving_halves_the_pretraining_tokens(void **state)
{
    (void)state;
    overtraining_fleet fleet = {.tokens_per_s = 50e6, .days = 60, .use_probability = 0.5};
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3);
    overtraining_split s = {0.25, 0.25, 0.5};
    overtraining_estimate e = overtraining_from_traffic(&fleet, &f, &s, 100e9, 20);
    assert_answer(e);
    assert_close(e.inference_tokens, 0.5 * 50e6 * 60 * DAY_S, TIGHT, "tokens");
    assert_close(e.pretrain_tokens, 0.25 * 50e6 * 60 * DAY_S, TIGHT, "tokens");
}

/* The contract: no traffic gives 0 tokens and a factor of 0 (an answer); no share
 * for serving leaves pre-training unset (no answer). */
static void no_traffic_means_no_pretraining_but_no_share_means_no_answer(void **state)
{
    (void)state;
    overtraining_fleet idle = {.tokens_per_s = 0, .days = 60, .use_probability = 1};
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3);
    overtraining_split thirds = {1.0 / 3, 1.0 / 3, 1.0 / 3}, no_serving = {0.5, 0.5, 0.0};
    overtraining_estimate e = overtraining_from_traffic(&idle, &f, &thirds, 100e9, 20);
    assert_answer(e);
    assert_true(e.pretrain_tokens == 0.0 && e.overtrain_factor == 0.0);
    overtraining_fleet busy = {.tokens_per_s = 50e6, .days = 60, .use_probability = 1};
    assert_no_answer(overtraining_from_traffic(&busy, &f, &no_serving, 100e9, 20));
}

/* The contract: an invalid fleet, factors, model or rule has no answer. */
static void an_invalid_fleet_model_or_rule_has_no_estimate(void **state)
{
    (void)state;
    overtraining_fleet fleet = {.tokens_per_s = 50e6, .days = 60, .use_probability = 1};
    overtraining_fleet bad = {.tokens_per_s = 50e6, .days = -60, .use_probability = 1};
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3), bad_f = factors(3, 1.0 / 3, 0.0);
    overtraining_split s = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    assert_no_answer(overtraining_from_traffic(&bad, &f, &s, 100e9, 20));
    assert_no_answer(overtraining_from_traffic(&fleet, &bad_f, &s, 100e9, 20));
    assert_no_answer(overtraining_from_traffic(&fleet, &f, &s, 0.0, 20));
    assert_no_answer(overtraining_from_traffic(&fleet, &f, &s, 100e9, 0.0));
    assert_no_answer(overtraining_from_traffic(&fleet, &f, &s, NAN, 20));
}

/* ---- 4.10 inference_optimal ----------------------------------------------------- */

/* The life of a given model at a loss (printed fit, 20B, 1.95 nats): the tokens of
 * §4.4 (Holding quality fixed), then the costs of §4.5 (Three costs of a model's
 * life), 6 N D and 2 N D_inf. */
static void a_lifetime_trains_just_to_the_loss_and_counts_both_terms(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    overtraining_lifetime l = overtraining_lifetime_at(f, 20e9, 1.95, 1e13);
    assert_answer(l);
    assert_close(l.loss, 1.95, TIGHT, "nats");
    double d = E_LIFETIME_TOKENS_20B_1_95_NATS_HOFFMANN;
    assert_close(l.train_tokens, d, 1e-9, "tokens");
    assert_close(l.tokens_per_param, d / 20e9, 1e-9, "tokens/param");
    assert_close(l.train_flops, 6 * 20e9 * d, 1e-9, "FLOPs");
    assert_close(l.inference_flops, 2 * 20e9 * 1e13, TIGHT, "FLOPs");
    assert_close(l.total_flops, 6 * 20e9 * d + 2 * 20e9 * 1e13, 1e-9, "FLOPs");
    assert_no_answer(overtraining_lifetime_at(f, 1e9, 1.95, 1e13)); /* too small */
}

/* The contract: no demand is allowed (no inference FLOPs); a negative or NaN demand,
 * or one whose FLOPs overflow (2 x 2e10 x 1e300), has no answer. */
static void a_lifetime_needs_a_demand_of_zero_or_more_that_fits_a_double(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    overtraining_lifetime l = overtraining_lifetime_at(f, 20e9, 1.95, 0.0);
    assert_answer(l);
    assert_true(l.inference_flops == 0.0);
    assert_no_answer(overtraining_lifetime_at(f, 20e9, 1.95, -1.0));
    assert_no_answer(overtraining_lifetime_at(f, 20e9, 1.95, NAN));
    assert_no_answer(overtraining_lifetime_at(f, 20e9, 1.95, 1e300));
    assert_no_answer(overtraining_lifetime_at(f, 0.0, 1.95, 1e13));
}

/* The saving against a reference is the difference of the two lifetimes' totals
 * (overtraining.h): 3e21 - 2e21 = 1e21 FLOPs. */
static void the_saving_is_the_difference_of_the_totals(void **state)
{
    (void)state;
    overtraining_lifetime reference = {.exists = true, .total_flops = 3e21};
    overtraining_lifetime best = {.exists = true, .total_flops = 2e21};
    assert_close(overtraining_saved_flops(&reference, &best), 1e21, TIGHT, "FLOPs saved");
}

/* Issue 21: the optimum against itself "saved -8.389 MFLOP" out of 2e22, rounding
 * shown as a saving. A difference under 1e-9 of the total, or a negative one, is no
 * saving: 0, not -0. */
static void rounding_is_no_saving(void **state)
{
    (void)state;
    overtraining_lifetime reference = {.exists = true, .total_flops = 2e22};
    overtraining_lifetime below = {.exists = true, .total_flops = 2e22 + 8388608.0};
    overtraining_lifetime above = {.exists = true, .total_flops = 2e22 - 8388608.0};
    double s1 = overtraining_saved_flops(&reference, &below);
    double s2 = overtraining_saved_flops(&reference, &above);
    assert_true(s1 == 0.0 && !signbit(s1));
    assert_true(s2 == 0.0 && !signbit(s2));
    /* the same model as the reference saves exactly nothing */
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_optimum c = overtraining_chinchilla_for_params(f, 13e9);
    double loss = overtraining_loss(f, 13e9, c.tokens);
    overtraining_lifetime ref = overtraining_lifetime_at(f, 13e9, loss, 0.0);
    overtraining_lifetime best = overtraining_inference_optimal(f, loss, 0.0);
    double s3 = overtraining_saved_flops(&ref, &best);
    assert_true(s3 == 0.0 && !signbit(s3));
}

/* The contract's two zeros, each side of its edge: against a reference of 1e18 FLOPs
 * the edge is 1e9. A best 0.99e9 cheaper saves 0 (rounding), one 1.01e9 cheaper saves
 * exactly that (1e18 - 1.01e9 is a double, so the difference is exact); a best that
 * costs 1e21 MORE than the reference saves 0, not -1e21, and not -0. */
static void a_dearer_best_saves_0_and_the_rounding_edge_is_1e_minus_9(void **state)
{
    (void)state;
    overtraining_lifetime reference = {.exists = true, .total_flops = 1e18};
    overtraining_lifetime inside = {.exists = true, .total_flops = 1e18 - 0.99e9};
    overtraining_lifetime outside = {.exists = true, .total_flops = 1e18 - 1.01e9};
    overtraining_lifetime dearer = {.exists = true, .total_flops = 1e18 + 1e21};
    double s_in = overtraining_saved_flops(&reference, &inside);
    assert_true(s_in == 0.0 && !signbit(s_in));
    assert_close(overtraining_saved_flops(&reference, &outside), 1.01e9, TIGHT, "FLOPs saved");
    double s_dear = overtraining_saved_flops(&reference, &dearer);
    assert_true(s_dear == 0.0 && !signbit(s_dear));
}

/* Sardana et al.: with no inference the optimum is the compute-optimal model. */
static void without_inference_the_optimum_is_the_chinchilla_model(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_optimum c = overtraining_chinchilla_for_loss(f, 2.0);
    overtraining_lifetime l = overtraining_inference_optimal(f, 2.0, 0);
    assert_answer(l);
    assert_close(l.params, c.params, SEARCHED, "params");
    assert_close(l.train_tokens, c.tokens, SEARCHED, "tokens");
}

/* The lecture's fleet, 2.6e14 tokens served (§4.8 (The worked estimate)), at 1.86
 * nats under the unrounded Hoffmann fit: the optimum's size from §4.9 (Beyond the
 * lecture: the inference-optimal model), and a life that reaches the loss. */
static void the_optimum_for_the_lectures_demand_at_1_86_nats(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    overtraining_lifetime l = overtraining_inference_optimal(f, 1.86, 2.6e14);
    assert_answer(l);
    assert_close(law(f, l.params, l.train_tokens), 1.86, 1e-12, "nats");
    assert_close(l.loss, 1.86, TIGHT, "nats");
    assert_close(l.params, E_INFERENCE_OPTIMAL_PARAMS_1_86_NATS_2_6E14_UNROUNDED, SEARCHED,
                 "params");
    assert_close(l.inference_flops, 2 * l.params * 2.6e14, TIGHT, "FLOPs");
}

/* Definition of a minimum: a 1% larger or smaller model reaching the same loss
 * costs more over the same life; so does the compute-optimal model. */
static void the_optimum_costs_less_than_its_neighbours_and_than_chinchilla(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_lifetime l = overtraining_inference_optimal(f, 1.95, 1e14);
    double bigger = overtraining_lifetime_at(f, l.params * 1.01, 1.95, 1e14).total_flops;
    double smaller = overtraining_lifetime_at(f, l.params / 1.01, 1.95, 1e14).total_flops;
    double chin = overtraining_chinchilla_for_loss(f, 1.95).params;
    assert_true(l.total_flops < bigger && l.total_flops < smaller);
    assert_true(l.total_flops < overtraining_lifetime_at(f, chin, 1.95, 1e14).total_flops);
}

/* Sardana et al. Figure 1: more demand, a smaller model trained longer. */
static void more_demand_makes_the_model_smaller_and_longer_trained(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    double chin = overtraining_chinchilla_for_loss(f, 1.9).params;
    overtraining_lifetime lo = overtraining_inference_optimal(f, 1.9, 1e12);
    overtraining_lifetime hi = overtraining_inference_optimal(f, 1.9, 1e15);
    assert_true(hi.params < lo.params && lo.params < chin);
    assert_true(hi.tokens_per_param > lo.tokens_per_param);
}

/* At or below the irreducible loss there is no model at all; just above it there is. */
static void no_model_is_inference_optimal_for_an_unreachable_loss(void **state)
{
    (void)state;
    assert_no_answer(overtraining_inference_optimal(fit("hoffmann"), 1.69, 1e12));
    assert_no_answer(overtraining_inference_optimal(fit("besiroglu"), 1.7, 1e12));
    assert_answer(overtraining_inference_optimal(fit("besiroglu"), 1.82, 1e12));
    assert_no_answer(overtraining_inference_optimal(fit("besiroglu"), NAN, 1e12));
}

/* The contract's ranges, at their edges: a loss up to 20 nats and a demand up to
 * 1e30 tokens have an answer; the next double beyond either, a negative or NaN
 * demand have none. */
static void the_search_answers_up_to_20_nats_and_1e30_tokens_and_no_further(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    assert_answer(overtraining_inference_optimal(f, 20.0, 1e12));
    assert_no_answer(overtraining_inference_optimal(f, nextafter(20.0, 21.0), 1e12));
    overtraining_lifetime l = overtraining_inference_optimal(f, 1.95, 1e30);
    assert_answer(l);
    assert_close(l.params, E_INFERENCE_OPTIMAL_PARAMS_1_95_NATS_1E30_BESIROGLU, SEARCHED,
                 "params");
    assert_no_answer(overtraining_inference_optimal(f, 1.95, nextafter(1e30, INFINITY)));
    assert_no_answer(overtraining_inference_optimal(f, 1.95, -1.0));
    assert_no_answer(overtraining_inference_optimal(f, 1.95, NAN));
}

/* The contract's accuracy, 1e-10 relative in N, at the lecture's demand (unrounded
 * Hoffmann fit, 1.86 nats, 2.6e14 tokens) and at the largest demand (refit, 1.95 nats,
 * 1e30 tokens): the true minimisers solve the optimality condition of §4.9 (Beyond the
 * lecture: the inference-optimal model), found in the instructor's copy by bisection in
 * long double. */
static void the_optimum_is_within_1e_minus_10_of_the_true_minimiser(void **state)
{
    (void)state;
    overtraining_lifetime a = overtraining_inference_optimal(fit("hoffmann-unrounded"), 1.86,
                                                             2.6e14);
    overtraining_lifetime b = overtraining_inference_optimal(fit("besiroglu"), 1.95, 1e30);
    assert_answer(a);
    assert_answer(b);
    assert_named(closeness(a.params, E_INFERENCE_OPTIMAL_PARAMS_1_86_NATS_2_6E14_UNROUNDED),
                 WITHIN_1E_10, closeness_name);
    assert_named(closeness(b.params, E_INFERENCE_OPTIMAL_PARAMS_1_95_NATS_1E30_BESIROGLU),
                 WITHIN_1E_10, closeness_name);
}

/* Sardana et al. Figure 1: the loss of a compute-optimal 13B model with 2T tokens of
 * demand is best reached by a 7B model, saving 1.7e22 FLOPs, 17%. The unrounded
 * Hoffmann fit reproduces it within 5% (the paper's constants differ in the third
 * digit, which section 4.3 shows is enough to move such answers). */
static void sardanas_13b_with_2t_tokens_of_demand_becomes_about_7b(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    overtraining_optimum ref = overtraining_chinchilla_for_params(f, 13e9);
    overtraining_lifetime l = overtraining_inference_optimal(f, ref.loss, 2e12);
    double ref_total = ref.flops + 2 * 13e9 * 2e12;
    assert_close(l.params, 7e9, 0.05, "params");
    assert_close(ref_total - l.total_flops, 1.7e22, 0.05, "FLOPs");
    assert_close((ref_total - l.total_flops) / ref_total, 0.17, 0.05, "");
}

/* Sardana et al. Figure 1 again, with de Vries's exponents (0.336, 0.283; A and B
 * as printed): the paper's 7B, 1.7e22 FLOPs and 17% to every digit it prints. */
static void de_vriess_constants_give_sardanas_7b_1_7e22_and_17_percent(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("devries");
    overtraining_optimum ref = overtraining_chinchilla_for_params(f, 13e9);
    overtraining_lifetime l = overtraining_inference_optimal(f, ref.loss, 2e12);
    double ref_total = ref.flops + 2 * 13e9 * 2e12, saved = ref_total - l.total_flops;
    assert_true(l.params >= 6.5e9 && l.params < 7.5e9);         /* "7B" */
    assert_true(saved >= 1.65e22 && saved < 1.75e22);            /* "1.7 x 10^22" */
    assert_true(saved / ref_total >= 0.165 && saved / ref_total < 0.175); /* "17%" */
}

/* ---- 4.11 budget_optimal -------------------------------------------------------- */

/* With no inference, the best loss a budget buys is Chinchilla's: the compute-optimal
 * model of Hoffmann et al. eq. 4 at Gopher's 5.76e23 FLOPs (unrounded fit). */
static void without_inference_a_budget_buys_the_compute_optimal_model(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    overtraining_lifetime b = overtraining_budget_optimal(f, 5.76e23, 0.0);
    assert_answer(b);
    assert_close(b.params, E_BUDGET_GOPHER_NO_DEMAND_PARAMS_UNROUNDED, SEARCHED, "params");
    assert_close(b.train_tokens, E_BUDGET_GOPHER_NO_DEMAND_TOKENS_UNROUNDED, SEARCHED, "tokens");
    assert_close(b.loss, E_BUDGET_GOPHER_NO_DEMAND_LOSS_UNROUNDED, 1e-9, "nats");
    assert_true(b.inference_flops == 0.0);
}

/* The answer spends the budget exactly, 6 N D + 2 N D_inf = C, and its fields are
 * the law and the cost terms at (N, D). */
static void the_best_model_spends_the_budget_exactly(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_lifetime b = overtraining_budget_optimal(f, 3e26, 2.6e14);
    assert_answer(b);
    double n = b.params, d = b.train_tokens;
    assert_close(6 * n * d + 2 * n * 2.6e14, 3e26, TIGHT, "FLOPs");
    assert_close(b.total_flops, 3e26, TIGHT, "FLOPs");
    assert_close(b.train_flops, 6 * n * d, TIGHT, "FLOPs");
    assert_close(b.inference_flops, 2 * n * 2.6e14, TIGHT, "FLOPs");
    assert_close(b.tokens_per_param, d / n, TIGHT, "tokens/param");
    assert_close(b.loss, law(f, n, d), TIGHT, "nats");
}

/* A lifetime of 1e25 FLOPs serving 1e13 tokens (printed fit): the best model's size
 * and loss, §4.10 (The best model a lifetime budget buys). */
static void the_best_model_for_1e25_flops_serving_1e13_tokens(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    overtraining_lifetime b = overtraining_budget_optimal(f, 1e25, 1e13);
    assert_answer(b);
    assert_close(b.params, E_BUDGET_PARAMS_1E25_FLOPS_1E13_HOFFMANN, SEARCHED, "params");
    assert_close(b.loss, E_BUDGET_LOSS_1E25_FLOPS_1E13_HOFFMANN, TIGHT, "nats");
}

/* The contract's accuracy, 1e-10 relative in N, with demand (printed fit, 1e25 FLOPs,
 * 1e13 tokens: the condition of §4.10 (The best model a lifetime budget buys), bisected
 * in long double in the instructor's copy) and without (unrounded fit at Gopher's
 * 5.76e23 FLOPs: Hoffmann et al. eq. 4). */
static void the_best_model_is_within_1e_minus_10_of_the_true_minimiser(void **state)
{
    (void)state;
    overtraining_lifetime a = overtraining_budget_optimal(fit("hoffmann"), 1e25, 1e13);
    overtraining_lifetime b = overtraining_budget_optimal(fit("hoffmann-unrounded"), 5.76e23, 0.0);
    assert_answer(a);
    assert_answer(b);
    assert_named(closeness(a.params, E_BUDGET_PARAMS_1E25_FLOPS_1E13_HOFFMANN), WITHIN_1E_10,
                 closeness_name);
    assert_named(closeness(b.params, E_BUDGET_GOPHER_NO_DEMAND_PARAMS_UNROUNDED), WITHIN_1E_10,
                 closeness_name);
}

/* Definition of a minimum: 1% larger or smaller models on the same budget (their
 * D what the budget leaves) reach a higher loss, by the law. */
static void neighbours_on_the_same_budget_reach_a_higher_loss(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_lifetime b = overtraining_budget_optimal(f, 1e26, 1e14);
    assert_answer(b);
    for (int k = -1; k <= 1; k += 2) {
        double n = b.params * pow(1.01, k);
        double d = (1e26 - 2 * n * 1e14) / (6 * n); /* the budget left after serving */
        assert_true(law(f, n, d) > b.loss);
    }
}

/* The two problems are one: the budget-optimal model's loss, asked of the search
 * for the least FLOPs at that loss and demand, gives back the same model and the
 * same budget. */
static void the_best_loss_for_a_budget_and_the_least_flops_for_that_loss_agree(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_lifetime b = overtraining_budget_optimal(f, 1e26, 2.6e14);
    overtraining_lifetime l = overtraining_inference_optimal(f, b.loss, 2.6e14);
    assert_answer(b);
    assert_answer(l);
    assert_close(l.params, b.params, SEARCHED, "params");
    assert_close(l.total_flops, 1e26, SEARCHED, "FLOPs");
}

/* More demand on the same budget leaves less for training: a smaller model, more
 * tokens per parameter, and a higher loss. */
static void more_demand_on_the_same_budget_buys_a_smaller_model_and_a_higher_loss(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_lifetime lo = overtraining_budget_optimal(f, 1e26, 1e13);
    overtraining_lifetime hi = overtraining_budget_optimal(f, 1e26, 1e15);
    assert_answer(lo);
    assert_answer(hi);
    assert_true(hi.params < lo.params && hi.loss > lo.loss);
    assert_true(hi.tokens_per_param > lo.tokens_per_param);
}

/* Serving 1e20 tokens at 2 FLOPs per parameter would spend a 1e24 budget on a
 * model of 5,000 parameters: the best model is smaller still, and it exists. */
static void a_demand_that_could_spend_the_whole_budget_still_leaves_a_model(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_lifetime b = overtraining_budget_optimal(f, 1e24, 1e20);
    assert_answer(b);
    assert_true(b.params < 1e24 / (2 * 1e20) && b.train_tokens > 0.0);
    assert_close(6 * b.params * b.train_tokens + 2 * b.params * 1e20, 1e24, TIGHT, "FLOPs");
}

/* The contract's ranges, at their edges: a budget in (0, 1e40] and a demand in
 * [0, 1e30]; none, a negative, NaN or larger value has no answer. */
static void a_budget_needs_flops_in_0_to_1e40_and_a_demand_in_0_to_1e30(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    assert_answer(overtraining_budget_optimal(f, 1e40, 1e30));
    assert_no_answer(overtraining_budget_optimal(f, nextafter(1e40, INFINITY), 1e13));
    assert_no_answer(overtraining_budget_optimal(f, 1e26, nextafter(1e30, INFINITY)));
    assert_no_answer(overtraining_budget_optimal(f, 0.0, 1e13));
    assert_no_answer(overtraining_budget_optimal(f, -1e26, 1e13));
    assert_no_answer(overtraining_budget_optimal(f, NAN, 1e13));
    assert_no_answer(overtraining_budget_optimal(f, 1e26, -1.0));
    assert_no_answer(overtraining_budget_optimal(f, 1e26, NAN));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
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
        CHALK_TEST(frontier, printed_fit_frontier_exponents_match_hoffmanns_table_2),
        CHALK_TEST(frontier, doubling_compute_grows_the_besiroglu_model_by_the_refits_exponent),
        CHALK_TEST(frontier, besiroglu_refit_gives_about_20_tokens_per_parameter),
        CHALK_TEST(frontier, a_models_compute_optimal_tokens_lead_back_to_its_budget),
        CHALK_TEST(frontier, no_budget_buys_no_model),
        CHALK_TEST(frontier, a_model_of_1e300_parameters_needs_more_flops_than_a_double_holds),
        CHALK_TEST(iso_loss, tokens_for_a_loss_invert_the_loss_law),
        CHALK_TEST(iso_loss, no_amount_of_data_saves_a_model_that_is_too_small),
        CHALK_TEST(iso_loss, a_loss_exactly_at_the_models_floor_needs_infinite_data),
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
        CHALK_TEST(sign_slip, flashcard_weights_are_1_5_for_rl_and_1_for_inference),
        CHALK_TEST(sign_slip, the_lectures_first_pass_gives_about_a_tenth),
        CHALK_TEST(sign_slip, the_slip_understates_each_weight_by_eta_squared),
        CHALK_TEST(sign_slip, at_full_efficiency_a_trained_rl_token_costs_one_pretraining_token),
        CHALK_TEST(sign_slip, the_slipped_weight_is_the_corrected_one_at_efficiency_1_over_eta),
        CHALK_TEST(sign_slip, weights_of_invalid_factors_do_not_exist),
        CHALK_TEST(equal_cost, thirds_give_d_pre_equal_1_5_d_rl_equal_d_inf),
        CHALK_TEST(equal_cost, half_the_budget_on_inference_doubles_its_tokens),
        CHALK_TEST(equal_cost, costlier_rl_tokens_mean_fewer_of_them),
        CHALK_TEST(equal_cost, no_share_for_rl_means_no_rl_tokens),
        CHALK_TEST(equal_cost, no_share_for_pretraining_has_no_answer),
        CHALK_TEST(estimate, fifty_million_tokens_per_second_for_60_days_is_259_trillion),
        CHALK_TEST(estimate, the_fleet_serves_2_6e15_tokens_in_two_months),
        CHALK_TEST(estimate, the_lectures_numbers_give_130x_and_its_rounding_100x),
        CHALK_TEST(estimate, derating_scales_the_tokens_by_the_chance_of_use),
        CHALK_TEST(estimate, llama3_8b_is_trained_93x_past_20_tokens_per_parameter),
        CHALK_TEST(estimate, a_chance_above_one_or_a_negative_duration_has_no_answer),
        CHALK_TEST(estimate, the_factor_of_no_model_or_no_rule_has_no_answer),
        CHALK_TEST(from_traffic, the_lectures_traffic_at_a_third_pretrains_on_259t_tokens),
        CHALK_TEST(from_traffic, at_the_lectures_30_percent_the_same_traffic_asks_for_288t_tokens),
        CHALK_TEST(from_traffic, half_the_budget_for_serving_halves_the_pretraining_tokens),
        CHALK_TEST(from_traffic, no_traffic_means_no_pretraining_but_no_share_means_no_answer),
        CHALK_TEST(from_traffic, an_invalid_fleet_model_or_rule_has_no_estimate),
        CHALK_TEST(inference_optimal, a_lifetime_trains_just_to_the_loss_and_counts_both_terms),
        CHALK_TEST(inference_optimal, a_lifetime_needs_a_demand_of_zero_or_more_that_fits_a_double),
        CHALK_TEST(inference_optimal, without_inference_the_optimum_is_the_chinchilla_model),
        CHALK_TEST(inference_optimal, the_optimum_for_the_lectures_demand_at_1_86_nats),
        CHALK_TEST(inference_optimal, the_optimum_costs_less_than_its_neighbours_and_than_chinchilla),
        CHALK_TEST(inference_optimal, more_demand_makes_the_model_smaller_and_longer_trained),
        CHALK_TEST(inference_optimal, no_model_is_inference_optimal_for_an_unreachable_loss),
        CHALK_TEST(inference_optimal, the_search_answers_up_to_20_nats_and_1e30_tokens_and_no_further),
        CHALK_TEST(inference_optimal, the_optimum_is_within_1e_minus_10_of_the_true_minimiser),
        CHALK_TEST(inference_optimal, sardanas_13b_with_2t_tokens_of_demand_becomes_about_7b),
        CHALK_TEST(inference_optimal, de_vriess_constants_give_sardanas_7b_1_7e22_and_17_percent),
        CHALK_TEST(budget_optimal, without_inference_a_budget_buys_the_compute_optimal_model),
        CHALK_TEST(budget_optimal, the_best_model_spends_the_budget_exactly),
        CHALK_TEST(budget_optimal, the_best_model_for_1e25_flops_serving_1e13_tokens),
        CHALK_TEST(budget_optimal, the_best_model_is_within_1e_minus_10_of_the_true_minimiser),
        CHALK_TEST(budget_optimal, neighbours_on_the_same_budget_reach_a_higher_loss),
        CHALK_TEST(budget_optimal, the_best_loss_for_a_budget_and_the_least_flops_for_that_loss_agree),
        CHALK_TEST(budget_optimal, more_demand_on_the_same_budget_buys_a_smaller_model_and_a_higher_loss),
        CHALK_TEST(budget_optimal, a_demand_that_could_spend_the_whole_budget_still_leaves_a_model),
        CHALK_TEST(budget_optimal, a_budget_needs_flops_in_0_to_1e40_and_a_demand_in_0_to_1e30),
        CHALK_TEST(inference_optimal, the_saving_is_the_difference_of_the_totals),
        CHALK_TEST(inference_optimal, rounding_is_no_saving),
        CHALK_TEST(inference_optimal, a_dearer_best_saves_0_and_the_rounding_edge_is_1e_minus_9),
    };
    return cmocka_run_group_tests_name("04-overtraining", tests, NULL, NULL);
}
