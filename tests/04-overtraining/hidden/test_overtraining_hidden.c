/*
 * test_overtraining_hidden.c -- Chapter 4 instructor-only tests, run by `make grade`
 * beside the public tests and never shipped in a handout. They check the same
 * contract (exercises/04-overtraining/overtraining.h) on other fits, budgets, losses
 * and lecture variants than the public tests, so an answer shaped to the public
 * inputs does not pass. Expected values are closed forms with published inputs,
 * never program output.
 *
 * Published inputs: the three fits of lib/scaling.c (Hoffmann et al. 2022 printed and
 * unrounded, Besiroglu et al. 2024 Table 1); Hoffmann Table 1 (Gopher 280B and GPT-3
 * 175B on 300B tokens); DeepSeek-V3 README (37B active, 14.8T tokens); the lecture's
 * k_RL = 2..6 and 30% efficiency. No answer (overtraining.h): NaN for a double,
 * exists = false with a reason for a struct.
 */
#include "../../test_util.h"

#include "overtraining.h"

#define TIGHT 1e-9

static const cost_scaling_fit *fit(const char *name)
{
    const cost_scaling_fit *f = cost_scaling_fit_find(name);
    assert_non_null(f);
    return f;
}

/* Closed form with the unrounded constants: GPT-3, 175B on 300B tokens. */
static void gpt3_loss_follows_the_unrounded_law(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    double expected = f->irreducible + f->a_params / pow(175e9, f->alpha_params) +
                      f->a_tokens / pow(300e9, f->alpha_tokens);
    assert_close(overtraining_loss(f, 175e9, 300e9), expected, TIGHT, "nats");
}

/* Hoffmann's closed form at 1e26 FLOPs with the refit: N = G (C/6)^a. */
static void besiroglu_frontier_at_1e26_follows_the_closed_form(void **state)
{
    (void)state;
    double a = 0.3478, b = 0.3658;
    double g = pow(a * 482.01 / (b * 2085.43), 1.0 / (a + b));
    overtraining_optimum o = overtraining_chinchilla(fit("besiroglu"), 1e26);
    assert_close(o.params, g * pow(1e26 / 6.0, b / (a + b)), TIGHT, "params");
    assert_close(o.tokens * o.params * 6.0, 1e26, TIGHT, "FLOPs");
}

/* Gopher, 280B: its compute-optimal data under the printed fit satisfies
 * alpha A N^-alpha = beta B D^-beta. */
static void gophers_compute_optimal_data_balances_the_two_terms(void **state)
{
    (void)state;
    overtraining_optimum o = overtraining_chinchilla_for_params(fit("hoffmann"), 280e9);
    assert_true(o.exists);
    double d = pow(0.28 * 410.7 * pow(280e9, 0.34) / (0.34 * 406.4), 1 / 0.28);
    assert_close(o.tokens, d, 1e-9, "tokens");
    assert_close(0.34 * 406.4 / pow(280e9, 0.34), 0.28 * 410.7 / pow(o.tokens, 0.28), 1e-9,
                 "nats");
    assert_close(o.flops, 6.0 * 280e9 * o.tokens, TIGHT, "FLOPs");
}

/* The refit's iso-loss: 70B params need D = (B / (L - E - A N^-alpha))^(1/beta). */
static void tokens_for_loss_2_on_a_70b_model(void **state)
{
    (void)state;
    overtraining_tokens t = overtraining_tokens_for_loss(fit("besiroglu"), 70e9, 2.0);
    double left = 2.0 - 1.8172 - 482.01 / pow(70e9, 0.3478);
    assert_true(t.exists);
    assert_close(t.tokens, pow(2085.43 / left, 1.0 / 0.3658), 1e-9, "tokens");
    assert_false(overtraining_tokens_for_loss(fit("besiroglu"), 70e9, 1.85).exists);
}

/* DeepSeek-V3's run (37B active, 14.8T tokens) with RL and serving at the lecture's
 * 30%: each term is its FLOPs over its efficiency. */
static void deepseek_v3_cost_terms_at_thirty_percent(void **state)
{
    (void)state;
    overtraining_plan p = {.params_active = 37e9, .pretrain_tokens = 14.8e12,
                           .rl_tokens = 5e12, .inference_tokens = 3e13,
                           .factors = {.rl_flops_per_param = 4, .rl_efficiency = 0.3,
                                       .inference_efficiency = 0.3}};
    overtraining_costs c = overtraining_cost_terms(&p);
    assert_close(c.pretrain_flops, 6 * 37e9 * 14.8e12, TIGHT, "FLOPs");
    assert_close(c.rl_flops, 4 * 37e9 * 5e12 / 0.3, TIGHT, "FLOPs");
    assert_close(c.inference_flops, 2 * 37e9 * 3e13 / 0.3, TIGHT, "FLOPs");
}

/* Closed form for u^-2 + u^0.5: the minimum at u = 4^(1/2.5); the penalty is 2 over
 * the cost there. */
static void penalty_for_exponents_2_and_a_half(void **state)
{
    (void)state;
    double u = pow(4.0, 1.0 / 2.5);
    assert_close(overtraining_equal_cost_penalty(2, 0.5), 2.0 / (pow(u, -2) + sqrt(u)), 1e-12,
                 "x");
    assert_close(overtraining_optimum_term_ratio(2, 0.5), 0.25, TIGHT, "");
}

/* The lecture at 30% with k = 6 (every rollout trained on): corrected 6 / 1.8 = 3.33,
 * slipped 0.3; DP's split (1/4, 1/4, 1/2) then gives D_RL / D = 0.3. */
static void thirty_percent_with_a_backward_pass(void **state)
{
    (void)state;
    overtraining_factors f = {.rl_flops_per_param = 6, .rl_efficiency = 0.3,
                              .inference_efficiency = 0.3};
    assert_close(overtraining_token_weights(&f).rl, 6 / 1.8, TIGHT, "");
    assert_close(overtraining_token_weights_slipped(&f).rl, 6 * 0.3 / 6, TIGHT, "");
    overtraining_split s = {0.25, 0.25, 0.5};
    overtraining_token_ratios r = overtraining_equal_cost(&f, &s);
    assert_close(r.rl_per_pretrain, 1.8 / 6, TIGHT, "");
    assert_close(r.inference_per_pretrain, 2 * 1.8 / 2, TIGHT, "");
}

/* DeepSeek-V3: 14.8T tokens over 37B active parameters, 400 per parameter, 20x the
 * rule; a 90-day deployment at 20M tokens/s with a 70% chance of use. */
static void deepseek_v3_is_20x_past_chinchilla(void **state)
{
    (void)state;
    assert_close(overtraining_factor(14.8e12, 37e9, 20), 14.8e12 / (20 * 37e9), TIGHT, "x");
    overtraining_fleet f = {.tokens_per_s = 20e6, .days = 90, .use_probability = 0.7};
    assert_close(overtraining_inference_tokens(&f), 20e6 * 90 * 86400 * 0.7, TIGHT, "tokens");
}

/* The condition of the inference-optimal root with the printed fit and 1e15 tokens
 * of demand: inference over training FLOPs is psi - 1, and the loss is met. The
 * contract's 1e-10 in N moves the two sides apart by at most about 7e-10 relative
 * here (their difference grows about 7 times as fast as N's error); a search that
 * stops at 1e-8 is 7e-8 out. */
static void printed_fit_inference_optimum_meets_its_condition(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    overtraining_lifetime l = overtraining_inference_optimal(f, 1.95, 1e15);
    assert_true(l.exists);
    double x = 406.4 / pow(l.params, 0.34), y = 410.7 / pow(l.train_tokens, 0.28);
    assert_close(1.69 + x + y, 1.95, 1e-12, "nats");
    assert_close(l.inference_flops / l.train_flops, 0.34 * x / (0.28 * y) - 1.0, 2e-9, "");
}

/* A fit whose arithmetic is exact (every constant 1): at N = 1 the floor is 2. */
static const cost_scaling_fit UNIT_FIT = {
    .name = "unit", .title = "unit test fit", .irreducible = 1.0, .a_params = 1.0,
    .alpha_params = 1.0, .a_tokens = 1.0, .alpha_tokens = 1.0, .source = "this test"};

/* psi = alpha_N l_N / (alpha_D l_D), from the law. */
static double psi(const cost_scaling_fit *f, double n, double d)
{
    return f->alpha_params * f->a_params / pow(n, f->alpha_params) /
           (f->alpha_tokens * f->a_tokens / pow(d, f->alpha_tokens));
}

/* A DeepSeek-V3-like deployment: 20M tokens/s for 90 days at a 70% chance of use;
 * serving at a quarter of training's utilisation, so w_inf = 2 / (6 x 0.25) = 4/3;
 * a split of 40/20/40 gives D_inf / D = 0.4 / (0.4 x 4/3) = 0.75, so D = D_inf / 0.75;
 * against 20 tokens per parameter of 37B. */
static void a_deepseek_like_deployment_pretrains_on_the_traffic_over_0_75(void **state)
{
    (void)state;
    overtraining_fleet fleet = {.tokens_per_s = 20e6, .days = 90, .use_probability = 0.7};
    overtraining_factors f = {.rl_flops_per_param = 6, .rl_efficiency = 0.3,
                              .inference_efficiency = 0.25};
    overtraining_split s = {0.4, 0.2, 0.4};
    overtraining_estimate e = overtraining_from_traffic(&fleet, &f, &s, 37e9, 20);
    double served = 20e6 * 90 * 86400 * 0.7;
    assert_true(e.exists);
    assert_null(e.reason);
    assert_close(e.pretrain_tokens, served / 0.75, TIGHT, "tokens");
    assert_close(e.overtrain_factor, served / 0.75 / (20 * 37e9), TIGHT, "x");
}

/* Exact arithmetic: at N = 1 with every constant 1, a loss of 2.5 needs D = 2
 * tokens; serving 4 tokens costs 2 x 1 x 4 = 8 FLOPs, training 6 x 1 x 2 = 12. At
 * the floor, a loss of 2, there is no lifetime. */
static void an_exact_lifetime_and_one_exactly_at_the_floor(void **state)
{
    (void)state;
    overtraining_lifetime l = overtraining_lifetime_at(&UNIT_FIT, 1.0, 2.5, 4.0);
    assert_true(l.exists);
    assert_close(l.train_tokens, 2.0, TIGHT, "tokens");
    assert_close(l.train_flops, 12.0, TIGHT, "FLOPs");
    assert_close(l.inference_flops, 8.0, TIGHT, "FLOPs");
    assert_close(l.total_flops, 20.0, TIGHT, "FLOPs");
    assert_false(overtraining_lifetime_at(&UNIT_FIT, 1.0, 2.0, 4.0).exists);
    assert_non_null(overtraining_lifetime_at(&UNIT_FIT, 1.0, 2.0, 4.0).reason);
}

/* The refit at a loss of 2.1 with 1e15 tokens of demand: the root's condition. The
 * contract's 1e-10 in N allows about 1.5e-9 between the two sides here; 1e-8 in N
 * gives 1.5e-7. */
static void refit_inference_optimum_at_2_1_nats_meets_its_condition(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    overtraining_lifetime l = overtraining_inference_optimal(f, 2.1, 1e15);
    assert_true(l.exists);
    assert_close(l.loss, 2.1, TIGHT, "nats");
    assert_close(l.inference_flops / l.train_flops, psi(f, l.params, l.train_tokens) - 1.0,
                 4e-9, "");
}

/* The printed fit: a 1e25 budget with 1e13 tokens of demand; the budget is spent
 * and psi = 1 + D_inf / (3 D) at the best loss. The contract's 1e-10 in N allows
 * about 9e-11 between the two sides here; 1e-8 in N gives 9e-9. */
static void printed_fit_budget_optimum_meets_its_condition(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    overtraining_lifetime b = overtraining_budget_optimal(f, 1e25, 1e13);
    assert_true(b.exists);
    assert_close(6 * b.params * b.train_tokens + 2 * b.params * 1e13, 1e25, TIGHT, "FLOPs");
    assert_close(psi(f, b.params, b.train_tokens), 1.0 + 1e13 / (3 * b.train_tokens), 3e-10,
                 "");
    assert_close(b.loss, 1.69 + 406.4 / pow(b.params, 0.34) + 410.7 / pow(b.train_tokens, 0.28),
                 TIGHT, "nats");
}

/* With no demand the refit's best model for 1e26 FLOPs is its closed form, to the
 * contract's 1e-10. */
static void refit_budget_without_demand_is_the_closed_form_at_1e26(void **state)
{
    (void)state;
    double a = 0.3478, b = 0.3658;
    double g = pow(a * 482.01 / (b * 2085.43), 1.0 / (a + b));
    overtraining_lifetime o = overtraining_budget_optimal(fit("besiroglu"), 1e26, 0.0);
    assert_true(o.exists);
    assert_close(o.params, g * pow(1e26 / 6.0, b / (a + b)), 1e-10, "params");
}

/* No answer for NaN anywhere the contract reads a number. */
static void nan_inputs_have_no_answer(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    assert_false(overtraining_chinchilla(f, NAN).exists);
    overtraining_plan p = {.params_active = 1e9,
                           .factors = {.rl_flops_per_param = NAN, .rl_efficiency = 0.3,
                                       .inference_efficiency = 0.3}};
    assert_false(overtraining_cost_terms(&p).exists);
    overtraining_factors bad = {.rl_flops_per_param = 3, .rl_efficiency = NAN,
                                .inference_efficiency = 0.3};
    assert_false(overtraining_token_weights(&bad).exists);
    overtraining_factors ok = {.rl_flops_per_param = 3, .rl_efficiency = 0.3,
                               .inference_efficiency = 0.3};
    overtraining_split s = {0.5, 0.25, NAN};
    assert_false(overtraining_equal_cost(&ok, &s).exists);
    assert_true(isnan(overtraining_equal_cost_penalty(NAN, NAN)));
    assert_false(overtraining_budget_optimal(f, 1e25, NAN).exists);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(loss, gpt3_loss_follows_the_unrounded_law),
        CHALK_TEST(frontier, besiroglu_frontier_at_1e26_follows_the_closed_form),
        CHALK_TEST(frontier, gophers_compute_optimal_data_balances_the_two_terms),
        CHALK_TEST(iso_loss, tokens_for_loss_2_on_a_70b_model),
        CHALK_TEST(cost_terms, deepseek_v3_cost_terms_at_thirty_percent),
        CHALK_TEST(heuristic, penalty_for_exponents_2_and_a_half),
        CHALK_TEST(equal_cost, thirty_percent_with_a_backward_pass),
        CHALK_TEST(estimate, deepseek_v3_is_20x_past_chinchilla),
        CHALK_TEST(inference_optimal, printed_fit_inference_optimum_meets_its_condition),
        CHALK_TEST(from_traffic, a_deepseek_like_deployment_pretrains_on_the_traffic_over_0_75),
        CHALK_TEST(inference_optimal, an_exact_lifetime_and_one_exactly_at_the_floor),
        CHALK_TEST(inference_optimal, refit_inference_optimum_at_2_1_nats_meets_its_condition),
        CHALK_TEST(budget_optimal, printed_fit_budget_optimum_meets_its_condition),
        CHALK_TEST(budget_optimal, refit_budget_without_demand_is_the_closed_form_at_1e26),
        CHALK_TEST(cost_terms, nan_inputs_have_no_answer),
    };
    return cmocka_run_group_tests_name("04-overtraining hidden", tests, NULL, NULL);
}
