/*
 * test_04_overtraining.c -- chapter 4's commands (loss, chinchilla, iso-loss, heuristic,
 * equal-cost, overtrain, lifetime, inference-optimal; list fits, list runs), tested
 * from the outside as readers use them.
 *
 * Sources:
 *   lecture  Reiner Pope's blackboard lecture, section 5 of reference/lecture-notes.md
 *            (and flashcard 18: k = 3, decode at 1/3 gives D_pre = 1.5 D_RL = D_inf)
 *   CHIN     Hoffmann et al. 2022 (arXiv:2203.15556): printed constants; Figure 4, a 40B
 *            optimum at Gopher's 5.76e23 FLOPs (reproduced by the unrounded constants)
 *   BES      Besiroglu et al. 2024 (arXiv:2404.10102) Table 1
 *   SAR      Sardana et al. 2023 (arXiv:2401.00448) Figure 1: a compute-optimal 13B with
 *            2T tokens of demand is best replaced by a 7B model, saving 17%
 *   LLAMA    Meta's Llama 3 8B model card: 8.03e9 parameters, 15T tokens
 */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DAY_S 86400.0

/* ---- loss and the frontier ---------------------------------------------------------- */

/* CHIN, printed constants, at Chinchilla itself: 70B parameters on 1.4T tokens. */
static void loss_of_chinchilla_follows_the_printed_law(void **state)
{
    (void)state;
    run *r = chalk("loss --params 70e9 --tokens 1.4e12 --fit hoffmann --json");
    expect_status(r, 0, "loss");
    double expected = 1.69 + 406.4 / pow(70e9, 0.34) + 410.7 / pow(1.4e12, 0.28);
    assert_close(json_number(r->out, "loss"), expected, 1e-12, "nats");
    assert_close(json_number(r->out, "params_term"), 406.4 / pow(70e9, 0.34), 1e-9, "nats");
    assert_close(json_number(r->out, "tokens_term"), 410.7 / pow(1.4e12, 0.28), 1e-9, "nats");
    assert_close(json_number(r->out, "flops"), 6 * 70e9 * 1.4e12, TIGHT, "FLOPs");
    assert_true(json_string_is(r->out, "fit", "hoffmann"));
    run_free(r);
}

/* The default fit is BES's refit (lib/scaling.c puts it first); --model reads the
 * preset's active parameters (DeepSeek-V3: 37e9 of 671e9, README). */
static void loss_defaults_to_the_refit_and_reads_a_models_active_parameters(void **state)
{
    (void)state;
    run *r = chalk("loss --model deepseek-v3 --tokens 14.8e12 --json");
    expect_status(r, 0, "loss --model");
    assert_true(json_string_is(r->out, "fit", "besiroglu"));
    assert_close(json_number(r->out, "params"), 37e9, 0.02, "params");
    double n = json_number(r->out, "params");
    double expected = 1.8172 + 482.01 / pow(n, 0.3478) + 2085.43 / pow(14.8e12, 0.3658);
    assert_close(json_number(r->out, "loss"), expected, 1e-12, "nats");
    run_free(r);
}

/* CHIN Figure 4: Approach 3 puts a 40B model at Gopher's budget; the unrounded constants
 * give it (to the figure's two digits) and spend exactly the budget, 6 N D = C. */
static void chinchilla_unrounded_puts_40b_at_gophers_budget(void **state)
{
    (void)state;
    run *r = chalk("chinchilla --flops 5.76e23 --fit hoffmann-unrounded --json");
    expect_status(r, 0, "chinchilla --flops");
    double n = json_number(r->out, "params_opt"), d = json_number(r->out, "tokens_opt");
    assert_close(n, 40e9, 0.02, "params");
    assert_close(6 * n * d, 5.76e23, 1e-9, "FLOPs");
    assert_close(json_number(r->out, "tokens_per_param"), d / n, 1e-12, "");
    run_free(r);
}

/* BES: at the optimum alpha A N^-alpha = beta B D^-beta, so a 100B model wants
 * D = (beta B N^alpha / (alpha A))^(1/beta) tokens, about 18 per parameter. */
static void chinchilla_for_100b_gives_the_refits_closed_form(void **state)
{
    (void)state;
    run *r = chalk("chinchilla --params 100e9 --json");
    expect_status(r, 0, "chinchilla --params");
    double d = pow(0.3658 * 2085.43 * pow(100e9, 0.3478) / (0.3478 * 482.01), 1 / 0.3658);
    assert_close(json_number(r->out, "tokens_opt"), d, 1e-9, "tokens");
    assert_close(json_number(r->out, "flops"), 6 * 100e9 * d, 1e-9, "FLOPs");
    assert_close(json_number(r->out, "gamma_params"), 0.3658 / (0.3478 + 0.3658), 1e-12, "");
    run_free(r);
}

/* A loss at or below E (BES: 1.8172) has no model: null, with a reason, exit 0. */
static void chinchilla_for_an_unreachable_loss_is_null_with_a_reason(void **state)
{
    (void)state;
    run *r = chalk("chinchilla --loss 1.8 --json");
    expect_status(r, 0, "chinchilla --loss");
    assert_true(json_is_null(r->out, "params_opt"));
    assert_false(json_is_null(r->out, "params_opt_reason"));
    assert_true(json_is_null(r->out, "params_min"));
    run_free(r);
    r = chalk("chinchilla --loss 2 --json");
    expect_status(r, 0, "chinchilla --loss 2");
    double reducible = 2 - 1.8172, sum = 0.3478 + 0.3658;
    assert_close(json_number(r->out, "params_opt"),
                 pow(482.01 * sum / (0.3658 * reducible), 1 / 0.3478), 1e-9, "params");
    assert_close(json_number(r->out, "params_min"), pow(482.01 / reducible, 1 / 0.3478), 1e-9,
                 "params");
    run_free(r);
}

/* Closed form of iso-loss: D = (B / (L - E - A N^-alpha))^(1/beta); below the smallest
 * model there is none, and the reason says so. */
static void iso_loss_gives_the_tokens_or_says_the_model_is_too_small(void **state)
{
    (void)state;
    run *r = chalk("iso-loss --loss 2.0 --params 30e9 --fit hoffmann --json");
    expect_status(r, 0, "iso-loss");
    double left = 2.0 - 1.69 - 406.4 / pow(30e9, 0.34);
    assert_close(json_number(r->out, "tokens"), pow(410.7 / left, 1 / 0.28), 1e-9, "tokens");
    assert_close(json_number(r->out, "loss_floor"), 1.69 + 406.4 / pow(30e9, 0.34), 1e-12, "");
    run_free(r);
    r = chalk("iso-loss --loss 2.0 --params 1e8 --fit hoffmann --json");
    expect_status(r, 0, "iso-loss, too small");
    assert_true(json_is_null(r->out, "tokens"));
    assert_non_null(strstr(r->out, "larger than"));
    run_free(r);
}

/* ---- the lecture's estimate ------------------------------------------------------------ */

/* lecture 5.5: 50M tokens/s for 60 days is 2.592e14 tokens; pre-trained on as many,
 * a 100B model is 2.592e14 / (20 x 100e9) = 129.6x past Chinchilla; the fleet, 500M
 * tokens/s, serves 2.6e15 in two months. */
static void overtrain_reproduces_the_lectures_estimate(void **state)
{
    (void)state;
    run *r = chalk("overtrain --tokens-per-s 5e7 --days 60 --params-active 100e9 --json");
    expect_status(r, 0, "overtrain");
    assert_close(json_number(r->out, "inference_tokens"), 5e7 * 60 * DAY_S, 1e-12, "tokens");
    assert_close(json_number(r->out, "pretrain_tokens"), 5e7 * 60 * DAY_S, 1e-12, "tokens");
    assert_close(json_number(r->out, "chinchilla_tokens"), 2e12, 1e-12, "tokens");
    assert_close(json_number(r->out, "overtrain_factor"), 129.6, 1e-12, "x");
    run_free(r);
    r = chalk("overtrain --tokens-per-s 5e8 --days 60 --params-active 100e9 --json");
    expect_status(r, 0, "overtrain, fleet");
    assert_close(json_number(r->out, "inference_tokens"), 2.6e15, 0.005, "tokens");
    run_free(r);
}

/* lecture 5.5 and open point 12: the rumoured 150T corpus gives 75x. */
static void the_rumoured_150t_corpus_gives_75x(void **state)
{
    (void)state;
    run *r = chalk("overtrain --pretrain-tokens 150e12 --params-active 100e9 --json");
    expect_status(r, 0, "overtrain --pretrain-tokens");
    assert_close(json_number(r->out, "overtrain_factor"), 75, 1e-12, "x");
    assert_true(json_is_null(r->out, "inference_tokens"));
    run_free(r);
}

/* lecture 5.4: derating by the chance of use scales the served tokens, and so (equal
 * costs) the pre-training tokens and the factor. */
static void derating_halves_the_factor_at_even_odds(void **state)
{
    (void)state;
    run *r = chalk("overtrain --tokens-per-s 5e7 --days 60 --params-active 100e9 "
                   "--use-probability 0.5 --json");
    expect_status(r, 0, "overtrain --use-probability");
    assert_close(json_number(r->out, "overtrain_factor"), 129.6 / 2, 1e-12, "x");
    run_free(r);
    r = chalk("overtrain --tokens-per-s 5e7 --days 60 --params-active 100e9 "
              "--use-probability 0 --fit hoffmann --json");
    expect_status(r, 0, "overtrain, never used");
    assert_true(json_is_null(r->out, "overtrain_factor"));
    assert_false(json_is_null(r->out, "overtrain_factor_reason"));
    assert_true(json_is_null(r->out, "overtrain_factor_fit"));
    run_free(r);
}

/* Flashcard 18 with equal thirds: the three terms cost the same, 6 N D each. */
static void overtrains_three_costs_are_equal_by_construction(void **state)
{
    (void)state;
    run *r = chalk("overtrain --tokens-per-s 5e7 --days 60 --params-active 100e9 --json");
    expect_status(r, 0, "overtrain");
    double d = 5e7 * 60 * DAY_S, each = 6 * 100e9 * d;
    assert_close(json_number(r->out, "pretrain_flops"), each, 1e-12, "FLOPs");
    assert_close(json_number(r->out, "rl_flops"), each, 1e-12, "FLOPs");
    assert_close(json_number(r->out, "inference_flops"), each, 1e-12, "FLOPs");
    assert_close(json_number(r->out, "rl_tokens"), d / 1.5, 1e-12, "tokens");
    run_free(r);
}

/* LLAMA: 15e12 tokens over 8.03e9 parameters, 1,868 per parameter, 93x the rule. */
static void published_runs_give_their_tokens_per_parameter(void **state)
{
    (void)state;
    run *r = chalk("overtrain --run llama3-8b --json");
    expect_status(r, 0, "overtrain --run");
    assert_close(json_number(r->out, "tokens_per_param"), 15e12 / 8.03e9, 1e-12, "");
    assert_close(json_number(r->out, "overtrain_factor"), 15e12 / 8.03e9 / 20, 1e-12, "x");
    run_free(r);
    r = chalk("overtrain --run deepseek-v3 --json");
    expect_status(r, 0, "overtrain --run deepseek-v3");
    assert_close(json_number(r->out, "tokens_per_param"), 14.8e12 / 37e9, 1e-12, "");
    assert_close(json_number(r->out, "tokens_per_total_param"), 14.8e12 / 671e9, 1e-12, "");
    run_free(r);
}

/* ---- equal costs, the slip and the heuristic ------------------------------------------ */

/* Flashcard 18: k = 3, efficiency 1/3 (the defaults): an RL token is 1.5 pre-training
 * tokens, a served one 1; D = 1.5 D_RL = D_inf; the slip (times eta) is off by 9x. */
static void equal_cost_defaults_give_the_flashcards_answer(void **state)
{
    (void)state;
    run *r = chalk("equal-cost --json");
    expect_status(r, 0, "equal-cost");
    assert_close(json_number(r->out, "rl_weight"), 1.5, 1e-12, "");
    assert_close(json_number(r->out, "inference_weight"), 1.0, 1e-12, "");
    assert_close(json_number(r->out, "rl_tokens_per_pretrain_token"), 1 / 1.5, 1e-12, "");
    assert_close(json_number(r->out, "inference_tokens_per_pretrain_token"), 1.0, 1e-12, "");
    assert_close(json_number(r->out, "slip_factor_rl"), 9.0, 1e-12, "x");
    run_free(r);
}

/* lecture 5.4: the first pass, (2/6) x 30% = 0.1 for RL and (1/3) x 30% = 0.1 for
 * inference; corrected, 2 / (6 x 0.3) for both. Equal costs with the slip call for ten
 * served tokens per pre-training token. */
static void equal_cost_at_thirty_percent_shows_the_slip_and_its_fix(void **state)
{
    (void)state;
    run *r = chalk("equal-cost --rl-flops-per-param 2 --rl-efficiency 0.3 "
                   "--inference-efficiency 0.3 --json");
    expect_status(r, 0, "equal-cost 30%");
    assert_close(json_number(r->out, "rl_weight_slipped"), 0.1, 1e-12, "");
    assert_close(json_number(r->out, "inference_weight_slipped"), 0.1, 1e-12, "");
    assert_close(json_number(r->out, "rl_weight"), 2 / 1.8, 1e-12, "");
    assert_close(json_number(r->out, "inference_tokens_per_pretrain_token_slipped"), 10, 1e-12,
                 "");
    assert_close(json_number(r->out, "inference_tokens_per_pretrain_token"), 0.9, 1e-12, "");
    run_free(r);
}

/* lecture 5.3, the host's split: a quarter, a quarter, half for inference: twice the
 * served tokens. Shares that leave pre-training nothing are refused. */
static void equal_cost_with_half_for_inference_doubles_the_served_tokens(void **state)
{
    (void)state;
    run *r = chalk("equal-cost --rl-share 0.25 --inference-share 0.5 --json");
    expect_status(r, 0, "equal-cost split");
    assert_close(json_number(r->out, "inference_tokens_per_pretrain_token"), 2, 1e-12, "");
    assert_close(json_number(r->out, "pretrain_share"), 0.25, 1e-12, "");
    run_free(r);
    r = chalk("equal-cost --rl-share 0.5 --inference-share 0.5");
    expect_one_error_line(r, "--rl-share 0.5 --inference-share 0.5");
    run_free(r);
}

/* Closed form: 1/u + u^2 is least at u^3 = 1/2, where the terms are 2 : 1; the
 * equal-terms point costs 2 / (2^(1/3) + 2^(-2/3)) of the minimum. */
static void heuristic_gives_the_exact_ratio_and_the_penalty(void **state)
{
    (void)state;
    run *r = chalk("heuristic --falling-exponent 1 --rising-exponent 2 --json");
    expect_status(r, 0, "heuristic");
    assert_close(json_number(r->out, "term_ratio"), 2, 1e-12, "");
    double penalty = 2 / (cbrt(2.0) + pow(2.0, -2.0 / 3));
    assert_close(json_number(r->out, "equal_cost_penalty"), penalty, 1e-12, "x");
    assert_close(json_number(r->out, "equal_cost_excess"), penalty - 1, 1e-9, "");
    run_free(r);
}

/* ---- lifetime and the inference-optimal model ---------------------------------------- */

/* SAR Figure 1: 13B, 2T tokens of demand -> about 7B, saving about 17% (the unrounded
 * constants, within 5%; chapter 4.9's reality check). */
static void inference_optimal_reproduces_sardanas_13b_example(void **state)
{
    (void)state;
    run *r = chalk("inference-optimal --match-params 13e9 --inference-tokens 2e12 "
                   "--fit hoffmann-unrounded --json");
    expect_status(r, 0, "inference-optimal");
    assert_close(json_number(r->out, "params"), 7e9, 0.05, "params");
    assert_close(json_number(r->out, "saved_fraction"), 0.17, 0.05, "");
    assert_close(json_number(r->out, "reference_params"), 13e9, 1e-12, "params");
    run_free(r);
}

/* With no inference the optimum is the compute-optimal model of the loss; the saving
 * against it is nothing. */
static void with_no_inference_the_optimum_is_the_compute_optimal_model(void **state)
{
    (void)state;
    run *r = chalk("inference-optimal --loss 2.0 --inference-tokens 0 --json");
    expect_status(r, 0, "inference-optimal, no demand");
    double reducible = 2 - 1.8172, sum = 0.3478 + 0.3658;
    double n = pow(482.01 * sum / (0.3658 * reducible), 1 / 0.3478);
    assert_close(json_number(r->out, "params"), n, 1e-7, "params");
    assert_close(json_number(r->out, "chinchilla_params"), n, 1e-9, "params");
    assert_close(json_number(r->out, "saved_fraction") + 1, 1, 1e-9, "");
    run_free(r);
}

/* The condition the optimum solves, at the lecture's traffic counted at 30% efficiency:
 * inference over pre-training FLOPs is rho - 1, and serving counts 2 N D / 0.3. */
static void inference_optimal_meets_its_condition_with_an_efficiency(void **state)
{
    (void)state;
    run *r = chalk("inference-optimal --loss 1.9 --tokens-per-s 5e7 --days 60 "
                   "--inference-efficiency 0.3 --json");
    expect_status(r, 0, "inference-optimal, efficiency");
    double n = json_number(r->out, "params"), d = json_number(r->out, "train_tokens");
    double served = 5e7 * 60 * DAY_S;
    assert_close(json_number(r->out, "inference_flops"), 2 * n * served / 0.3, 1e-12, "FLOPs");
    double x = 482.01 / pow(n, 0.3478), y = 2085.43 / pow(d, 0.3658);
    assert_close(1.8172 + x + y, 1.9, 1e-12, "nats");
    assert_close(json_number(r->out, "inference_to_train_flops"), 0.3478 * x / (0.3658 * y) - 1,
                 1e-7, "");
    run_free(r);
}

/* A sweep of demand: one row per point, and the optimal model shrinks as demand grows
 * while the compute-optimal one stays. */
static void a_demand_sweep_shrinks_the_optimal_model(void **state)
{
    (void)state;
    run *r = chalk("inference-optimal --match-params 100e9 --inference-tokens 1e11:1e16:6 --csv");
    expect_status(r, 0, "inference-optimal sweep");
    assert_int_equal(count_of(r->out, "\n"), 1 + 6);
    int params = csv_column(r->out, "params"), chin = csv_column(r->out, "chinchilla_params");
    assert_true(params >= 0 && chin >= 0);
    const char *line = strchr(r->out, '\n') + 1;
    double previous = INFINITY;
    for (int row = 0; row < 6; row++, line = strchr(line, '\n') + 1) {
        assert_true(csv_number(line, params) < previous);
        assert_true(csv_number(line, params) <= csv_number(line, chin) * (1 + 1e-9));
        previous = csv_number(line, params);
    }
    run_free(r);
}

/* lifetime: the training tokens are the iso-loss tokens and the total adds 2 N D_inf. */
static void lifetime_adds_serving_to_training(void **state)
{
    (void)state;
    run *r = chalk("lifetime --loss 2.0 --params 30e9 --inference-tokens 1e13 --fit hoffmann "
                   "--json");
    expect_status(r, 0, "lifetime");
    double d = pow(410.7 / (2.0 - 1.69 - 406.4 / pow(30e9, 0.34)), 1 / 0.28);
    assert_close(json_number(r->out, "train_tokens"), d, 1e-9, "tokens");
    assert_close(json_number(r->out, "total_flops"), 6 * 30e9 * d + 2 * 30e9 * 1e13, 1e-9,
                 "FLOPs");
    run_free(r);
}

/* ---- presets and bad input ------------------------------------------------------------- */

/* chalk list fits and show fit: four fits, BES's constants as in its Table 1. */
static void fits_and_runs_are_listed_with_their_sources(void **state)
{
    (void)state;
    run *r = chalk("list fits --json");
    expect_status(r, 0, "list fits");
    assert_int_equal(count_of(r->out, "\"name\""), 4);
    run_free(r);
    r = chalk("show fit besiroglu --json");
    expect_status(r, 0, "show fit");
    assert_close(json_number(r->out, "irreducible"), 1.8172, TIGHT, "nats");
    assert_close(json_number(r->out, "a_tokens"), 2085.43, TIGHT, "");
    run_free(r);
    r = chalk("list runs --json");
    expect_status(r, 0, "list runs");
    assert_true(count_of(r->out, "\"source\"") >= 7);
    run_free(r);
}

/* Every kind of bad input: one line on stderr, exit 2. */
static void every_bad_input_to_chapter_4_commands_exits_2_with_one_error_line(void **state)
{
    (void)state;
    const char *const cases[] = {
        "loss --params 70e9 --tokens 1.4e12 --fit kaplan",
        "loss --params -70e9 --tokens 1.4e12",
        "loss --params 70e9",
        "loss --tokens 1e12",
        "loss --params 70e9 --model llama3-8b --tokens 1e12",
        "loss --params 7O --tokens 1e12",
        "loss --model llama9 --tokens 1e12",
        "chinchilla",
        "chinchilla --flops 1e24 --params 7e9",
        "chinchilla --loss 0",
        "iso-loss --loss 2 --match-params 7e9 --params 1e9",
        "iso-loss --params 1e9",
        "iso-loss --loss 2",
        "lifetime --loss 2 --params 1e10",
        "lifetime --loss 2 --params 1e10 --tokens-per-s 1e6",
        "inference-optimal --loss 2",
        "inference-optimal --match-tokens 1e12 --inference-tokens 1e12",
        "inference-optimal --loss 2 --inference-tokens 1e12 --inference-efficiency 0",
        "inference-optimal --loss 2 --inference-tokens 1e12 --inference-efficiency 1.5",
        "inference-optimal --loss 2 --inference-tokens 1e12 --days 5",
        "inference-optimal --match-params 1e10 --match-tokens 1e12 --match-equal-cost "
        "--inference-tokens 1e12",
        "overtrain --params-active 100e9",
        "overtrain --tokens-per-s 5e7 --days 60",
        "overtrain --tokens-per-s 5e7 --params-active 100e9",
        "overtrain --run llama3-8b --params-active 8e9",
        "overtrain --run llama-8b",
        "overtrain --pretrain-tokens 1e12 --params-active 1e9 --use-probability 0.5",
        "overtrain --tokens-per-s 5e7 --days 60 --params-active 1e11 --use-probability 2",
        "equal-cost --rl-efficiency 0",
        "equal-cost --rl-flops-per-param x",
        "heuristic --falling-exponent 1",
        "heuristic --falling-exponent 0 --rising-exponent 1",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_one_error_line(r, cases[i]);
        run_free(r);
    }
}

const struct CMUnitTest chalk_tests_04_overtraining[] = {
    CHALK_TEST(chalk, loss_of_chinchilla_follows_the_printed_law),
    CHALK_TEST(chalk, loss_defaults_to_the_refit_and_reads_a_models_active_parameters),
    CHALK_TEST(chalk, chinchilla_unrounded_puts_40b_at_gophers_budget),
    CHALK_TEST(chalk, chinchilla_for_100b_gives_the_refits_closed_form),
    CHALK_TEST(chalk, chinchilla_for_an_unreachable_loss_is_null_with_a_reason),
    CHALK_TEST(chalk, iso_loss_gives_the_tokens_or_says_the_model_is_too_small),
    CHALK_TEST(chalk, overtrain_reproduces_the_lectures_estimate),
    CHALK_TEST(chalk, the_rumoured_150t_corpus_gives_75x),
    CHALK_TEST(chalk, derating_halves_the_factor_at_even_odds),
    CHALK_TEST(chalk, overtrains_three_costs_are_equal_by_construction),
    CHALK_TEST(chalk, published_runs_give_their_tokens_per_parameter),
    CHALK_TEST(chalk, equal_cost_defaults_give_the_flashcards_answer),
    CHALK_TEST(chalk, equal_cost_at_thirty_percent_shows_the_slip_and_its_fix),
    CHALK_TEST(chalk, equal_cost_with_half_for_inference_doubles_the_served_tokens),
    CHALK_TEST(chalk, heuristic_gives_the_exact_ratio_and_the_penalty),
    CHALK_TEST(chalk, inference_optimal_reproduces_sardanas_13b_example),
    CHALK_TEST(chalk, with_no_inference_the_optimum_is_the_compute_optimal_model),
    CHALK_TEST(chalk, inference_optimal_meets_its_condition_with_an_efficiency),
    CHALK_TEST(chalk, a_demand_sweep_shrinks_the_optimal_model),
    CHALK_TEST(chalk, lifetime_adds_serving_to_training),
    CHALK_TEST(chalk, fits_and_runs_are_listed_with_their_sources),
    CHALK_TEST(chalk, every_bad_input_to_chapter_4_commands_exits_2_with_one_error_line),
};
const size_t chalk_tests_04_overtraining_count =
    sizeof chalk_tests_04_overtraining / sizeof chalk_tests_04_overtraining[0];
