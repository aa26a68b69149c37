/*
 * test_overtraining_estimate.c -- Chapter 4 tests, second file: the lecture's estimate
 * of how far past Chinchilla to train: the sign slip and its correction, equal cost in
 * tokens, the worked ~100x estimate and the estimate from traffic (exercises 4.6 to
 * 4.9). Linked with test_overtraining.c (which has main() and says how the tests are
 * built and where their values come from) and test_overtraining_search.c into one
 * binary; its tests run after the first file's, in the order listed at the end.
 *
 * Published inputs used below:
 *   The lecture (1:18:59-1:33:02) and its flashcards: k_RL 2 to 6, efficiency ~30% or
 *       1/3; 50M tokens/s for 60 days; 100B active parameters; 20 tokens/param.
 *   Meta's Llama 3 8B model card: 8.03e9 parameters, 15T tokens.
 *
 * No answer (overtraining.h): a double result is NaN, a struct result has exists =
 * false and a reason; every such rule is tested at the point where it starts.
 */
#include "../test_util.h"

#include "overtraining.h"

#define TIGHT 1e-9   /* closed forms: only rounding differs */
#define DAY_S 86400.0

/* A struct result with an answer (exists, no reason), or without one (!exists, and a
 * reason to show); macros, so that a failure points at the test's line. */
#define assert_answer(r) do { assert_true((r).exists); assert_null((r).reason); } while (0)
#define assert_no_answer(r) do { assert_false((r).exists); assert_non_null((r).reason); } while (0)

/* Shared with test_overtraining.c, which defines them: the lecture's factors, and
 * the check that a double result has no answer (NaN). */
#include "fixtures.h"

/* ---- 4.6 sign_slip --------------------------------------------------------------- */

/* Flashcard 18, §4.7 (Sizing the coefficients, and the slip): RL factor 3 and decode
 * at 1/3 of
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

/* The lecture at 1:25:28-1:28:08, §4.7 (Sizing the coefficients, and the slip), the
 * first pass: (2..6)/6 times 30% and (1/3) times 30%,
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

/* The lecture at 1:22:13, §4.7 (Sizing the coefficients, and the slip), the host's split:
 * pre-training and RL a quarter each, inference half. Inference then gets twice the
 * pre-training tokens. */
static void half_the_budget_on_inference_doubles_its_tokens(void **state)
{
    (void)state;
    overtraining_factors f = factors(3, 1.0 / 3, 1.0 / 3);
    overtraining_split s = {0.25, 0.25, 0.5};
    overtraining_token_ratios r = overtraining_equal_cost(&f, &s);
    assert_close(r.inference_per_pretrain, 2.0, TIGHT, "");
    assert_close(r.rl_per_pretrain, 1.0 / 1.5, TIGHT, "");
}

/* The lecture at 1:25:28-1:28:08, §4.7 (Sizing the coefficients, and the slip): RL
 * tokens cost more machine time, so equal cost buys fewer: with a backward pass (k = 6) a third as many as without (k = 2). */
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

/* §4.8 (The worked estimate), its table: 50M tokens/s for 60 days is 2.59e14, "about 200T". */
static void fifty_million_tokens_per_second_for_60_days_is_259_trillion(void **state)
{
    (void)state;
    overtraining_fleet f = {.tokens_per_s = 50e6, .days = 60, .use_probability = 1};
    assert_close(overtraining_inference_tokens(&f), 50e6 * 60 * DAY_S, TIGHT, "tokens");
    assert_close(overtraining_inference_tokens(&f), 2.592e14, TIGHT, "tokens");
}

/* The lecture at 1:29:45, §4.8 (The worked estimate): the fleet, 500M tokens/s for
 * 2 months, is 2.6e15 tokens. */
static void the_fleet_serves_2_6e15_tokens_in_two_months(void **state)
{
    (void)state;
    overtraining_fleet f = {.tokens_per_s = 500e6, .days = 60, .use_probability = 1};
    assert_close(overtraining_inference_tokens(&f), 2.6e15, 0.005, "tokens");
}

/* §4.8 (The worked estimate): 100B active parameters at 20 tokens each is 2T; 259T of them is
 * 130x, the lecture's rounded 200T is 100x and the rumoured 150T is 75x. */
static void the_lectures_numbers_give_130x_and_its_rounding_100x(void **state)
{
    (void)state;
    assert_close(overtraining_factor(50e6 * 60 * DAY_S, 100e9, 20), 129.6, TIGHT, "x");
    assert_close(overtraining_factor(200e12, 100e9, 20), 100.0, TIGHT, "x");
    assert_close(overtraining_factor(150e12, 100e9, 20), 75.0, TIGHT, "x");
}

/* The lecture at 1:25:28-1:28:08, §4.8 (The worked estimate): derate the inference
 * term by the chance the run is used. */
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

/* The lecture at 1:25:28-1:32:22, §4.7 (Sizing the coefficients, and the slip) and
 * §4.8 (The worked estimate), with flashcard 18's numbers (k 3, both efficiencies 1/3,
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

CHALK_PART(estimate) = {
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
};
CHALK_PART_END(estimate);
