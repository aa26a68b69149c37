/*
 * 04-overtraining.c -- chapter 4's commands: the Chinchilla frontier, a model's
 * lifetime cost, the lecture's equal-cost estimate and the inference-optimal model.
 *
 *   chalk loss               the loss law at (N, D) and its terms (4.1, 4.2)
 *   chalk chinchilla         the compute-optimal model of a budget, a size or a loss (4.3, 4.4)
 *   chalk iso-loss           every model that reaches a loss, against N (4.4)
 *   chalk equal-cost         token weights and counts for equal costs, slipped and corrected (4.7)
 *   chalk heuristic          the exact equal-cost rule for a u^-mu + b u^nu (4.6)
 *   chalk overtrain          the lecture's ~100x, and published runs (4.5, 4.8)
 *   chalk lifetime           pre-training plus inference FLOPs at a loss, against N (4.9)
 *   chalk inference-optimal  the model of least lifetime FLOPs for a loss (4.9)
 *   chalk list fits|runs     the scaling-law fits and published training runs (lib/scaling.c)
 *
 * Every chapter-4 quantity of the lecture notes' quick reference (section 10), and the
 * command that reproduces it:
 *   FLOP factors 6 (train), 2 (forward), 2-6 (RL)   overtrain (pretrain_flops, rl_flops,
 *                                                   inference_flops), equal-cost (weights)
 *   cost split 33/33/33 (vs 25/25/50)               equal-cost [--rl-share --inference-share]
 *   efficiency ~30% -> coefficients ~1.5 and 1;     equal-cost --rl-efficiency 0.3 ...
 *     the slip's ~1/10 and 2/10                     (rl_weight, rl_weight_slipped, slip_factor_rl)
 *   D_pre = 1.5 D_RL = D_inf                        equal-cost (the defaults: k 3, efficiency 1/3)
 *   fleet 500M tokens/s, 2.6e15 tokens in 2 months  overtrain --tokens-per-s 5e8 --days 60
 *   per model 50M tokens/s -> ~200T (259T)          overtrain --tokens-per-s 5e7 --days 60
 *   rumoured pre-training corpus 150T -> 75x        overtrain --pretrain-tokens 150e12
 *   frontier active params ~100B; Chinchilla 20     overtrain --params-active 100e9
 *     tokens/param -> 2T; ratio ~100x (130x)        (chinchilla_tokens, overtrain_factor)
 *
 * Every number comes from the chapter's reference (overtraining_*, through
 * exercises/04-overtraining/overtraining.h) and the fits of lib/scaling.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "04-overtraining.h"

/* ---- presets: chalk list fits, chalk list runs, which --fit and --run name -------------- */

static size_t fit_count(void)
{
    size_t n;
    cost_scaling_fits(&n);
    return n;
}

static const char *fit_name(size_t i)
{
    size_t n;
    return cost_scaling_fits(&n)[i]->name;
}

static size_t run_count(void)
{
    size_t n;
    cost_training_runs(&n);
    return n;
}

static const char *run_name(size_t i)
{
    size_t n;
    return cost_training_runs(&n)[i]->name;
}

static void put_fit_constants(chalk_record *r, const cost_scaling_fit *f);
static void fit_put(chalk_record *r, size_t i, const chalk_preset_options *o);
static void run_put(chalk_record *r, size_t i, const chalk_preset_options *o);

static const chalk_preset_kind KIND_FITS = {
    .word = "fits",
    .alias = "fit",
    .about = "scaling-law fits of L(N, D) = E + A/N^alpha + B/D^beta, with sources",
    .count = fit_count,
    .name = fit_name,
    .put = fit_put,
    .singular = "fit",
};

static const chalk_preset_kind KIND_RUNS = {
    .word = "runs",
    .alias = "run",
    .about = "published training runs: parameters and pre-training tokens, with sources",
    .count = run_count,
    .name = run_name,
    .put = run_put,
    .singular = "run",
};

/* ---- this chapter's flags ---------------------------------------------------------------- */

#define G_FIT "scaling law"
#define G_TARGET "target quality (one of)"
#define G_SERVING "serving (inference tokens, or a rate and a duration)"
#define G_LIFE "RL and serving (defaults: the lecture's flashcards)"
#define G_MODEL "model"
#define ABOVE CHALK_ABOVE_MIN
#define U(x) CHALK_U_##x

/* clang-format off */
const chalk_flag F_FIT              = {"--fit", "NAME", "fit", U(WORD), 0, 0, 0, "a scaling-law fit", G_FIT,
    "besiroglu (default), hoffmann (as printed) or hoffmann-unrounded (chalk list fits)", .kind = &KIND_FITS};
const chalk_flag F_PARAMS           = {"--params", "N", "params", U(PARAMS), 1e3, 1e16, 0, "parameters", G_MODEL,
    "parameters N (for a mixture of experts, the active ones); may be a sweep"};
const chalk_flag F_TOKENS           = {"--tokens", "D", "tokens", U(TOKENS), 1e3, 1e20, 0, "training tokens", G_MODEL,
    "training tokens D; may be a sweep"};
const chalk_flag F_FLOPS            = {"--flops", "C", "flops", U(FLOPS), 1e9, 1e36, 0, "pre-training compute, FLOPs", G_MODEL,
    "pre-training compute C = 6 N D, FLOPs; may be a sweep"};
const chalk_flag F_LOSS             = {"--loss", "L", "loss", U(PLAIN), 0, 20, ABOVE, "nats per token", G_TARGET,
    "the target loss, nats per token; may be a sweep"};
const chalk_flag F_MATCH_PARAMS     = {"--match-params", "N", "match_params", U(PARAMS), 1e3, 1e16, 0, "parameters", G_TARGET,
    "the target is the loss of a model of N parameters, trained compute-optimally unless --match-tokens or --match-equal-cost says otherwise"};
const chalk_flag F_MATCH_TOKENS     = {"--match-tokens", "D", "match_tokens", U(TOKENS), 1e3, 1e20, 0, "training tokens", G_TARGET,
    "with --match-params: that model is trained on D tokens"};
const chalk_flag F_MATCH_EQUAL_COST = {"--match-equal-cost", NULL, NULL, U(WORD), 0, 0, 0, NULL, G_TARGET,
    "with --match-params: that model is trained as the lecture's heuristic says, on as many tokens as equal thirds of the cost allow for the traffic served"};
const chalk_flag F_INFERENCE_TOKENS = {"--inference-tokens", "D", "inference_tokens", U(TOKENS), 0, 1e22, 0, "tokens served", G_SERVING,
    "tokens served over the model's life; may be a sweep"};
const chalk_flag F_TOKENS_PER_S     = {"--tokens-per-s", "R", "tokens_per_s", U(TOKENS_PER_S), 0, 1e12, 0, "tokens served per second", G_SERVING,
    "tokens one model serves per second; may be a sweep"};
const chalk_flag F_DAYS             = {"--days", "T", "days", U(PLAIN), 0, 36525, 0, "days served", G_SERVING,
    "how long the model is served, days; may be a sweep"};
const chalk_flag F_USE_PROBABILITY  = {"--use-probability", "P", "use_probability", U(PLAIN), 0, 1, 0, "the chance it is deployed", G_SERVING,
    "the chance the run is deployed at all (default 1): derates the served tokens"};
const chalk_flag F_INFERENCE_EFFICIENCY = {"--inference-efficiency", "E", "inference_efficiency", U(PLAIN), 1e-6, 1, 0, "serving's utilisation", G_LIFE,
    "serving's FLOP utilisation over pre-training's, 1e-6 to 1"};
const chalk_flag F_RL_FLOPS         = {"--rl-flops-per-param", "K", "rl_flops_per_param", U(PLAIN), 0, 100, ABOVE, "FLOPs per parameter per RL token", G_LIFE,
    "FLOPs per parameter per RL token: 2 (rollouts only) to 6 (all trained on); default 3"};
const chalk_flag F_RL_EFFICIENCY    = {"--rl-efficiency", "E", "rl_efficiency", U(PLAIN), 1e-6, 1, 0, "RL's utilisation", G_LIFE,
    "RL's FLOP utilisation over pre-training's, 1e-6 to 1; default 1/3"};
const chalk_flag F_RL_SHARE         = {"--rl-share", "S", "rl_share", U(FRACTION), 0, 1, 0, "RL's share of the cost", G_LIFE,
    "fraction of the lifetime cost spent on RL (default 1/3)"};
const chalk_flag F_INFERENCE_SHARE  = {"--inference-share", "S", "inference_share", U(FRACTION), 0, 1, 0, "serving's share of the cost", G_LIFE,
    "fraction of the lifetime cost spent on serving (default 1/3); pre-training gets the rest"};
const chalk_flag F_TOKENS_PER_PARAM = {"--tokens-per-param", "X", "tokens_per_param_rule", U(PLAIN), 0, 1e6, ABOVE, "tokens per parameter", G_MODEL,
    "the rule to measure against (default 20, Chinchilla's)"};
const chalk_flag F_PRETRAIN_TOKENS  = {"--pretrain-tokens", "D", "pretrain_tokens", U(TOKENS), 1e3, 1e20, 0, "pre-training tokens", G_MODEL,
    "pre-training tokens, instead of deriving them from the traffic; may be a sweep"};
const chalk_flag F_RUN              = {"--run", "NAME", "run", U(WORD), 0, 0, 0, "a published run", G_MODEL,
    "a published training run: its parameters and tokens (chalk list runs)", .kind = &KIND_RUNS};
const chalk_flag F_FALLING          = {"--falling-exponent", "MU", "falling_exponent", U(PLAIN), 0, 100, ABOVE, "mu", "exponents",
    "exponent mu of the falling term, u^-mu; may be a sweep"};
const chalk_flag F_RISING           = {"--rising-exponent", "NU", "rising_exponent", U(PLAIN), 0, 100, ABOVE, "nu", "exponents",
    "exponent nu of the rising term, u^nu; may be a sweep"};
/* clang-format on */

/* ---- loss -------------------------------------------------------------------------------------
 */

/* The loss terms at (N, D): the law with the other variable unlimited. */
static void put_terms(chalk_record *r, const cost_scaling_fit *fit, double params, double tokens,
                      unsigned flags)
{
    overtraining_terms t = overtraining_loss_terms(fit, params, tokens);
    chalk_put_number(r, "params_term", "parameter term", CHALK_U_PLAIN, flags, t.params_term);
    chalk_put_number(r, "tokens_term", "data term", CHALK_U_PLAIN, flags, t.tokens_term);
    chalk_put_number(r, "term_ratio", "parameter / data term", CHALK_U_PLAIN, CHALK_DETAIL,
                     t.params_term / t.tokens_term);
}

static double params_at(const chalk_point *p)
{
    return has(p, &F_PARAMS) ? chalk_in(p, &F_PARAMS) : params_active_at(p);
}

static void build_loss(const chalk_point *p, chalk_record *r)
{
    const cost_scaling_fit *fit = fit_at(p);
    double params = params_at(p), tokens = chalk_in(p, &F_TOKENS);
    chalk_clear(r);
    put_fit(r, fit);
    if (model_at(p))
        chalk_put_string(r, "model", "model", CHALK_INPUT, model_at(p)->name);
    chalk_put_number(r, "params", "parameters", CHALK_U_PARAMS, CHALK_INPUT, params);
    chalk_put_number(r, "tokens", "training tokens", CHALK_U_TOKENS, CHALK_INPUT, tokens);
    chalk_put_number(r, "loss", "loss (nats/token)", CHALK_U_PLAIN, 0,
                     overtraining_loss(fit, params, tokens));
    chalk_put_number(r, "irreducible", "irreducible loss", CHALK_U_PLAIN, CHALK_DETAIL,
                     fit->irreducible);
    put_terms(r, fit, params, tokens, 0);
    chalk_put_number(r, "tokens_per_param", "tokens per parameter", CHALK_U_PLAIN, 0,
                     tokens / params);
    chalk_put_number(r, "flops", "training FLOPs, 6ND", CHALK_U_FLOPS, 0,
                     train_flops(params, tokens));
}


/* ---- chinchilla --------------------------------------------------------------------------------
 */

static void put_fit_constants(chalk_record *r, const cost_scaling_fit *f)
{
    chalk_put_number(r, "irreducible", "E (irreducible loss)", CHALK_U_PLAIN, CHALK_DETAIL,
                     f->irreducible);
    chalk_put_number(r, "a_params", "A", CHALK_U_PLAIN, CHALK_DETAIL, f->a_params);
    chalk_put_number(r, "alpha_params", "alpha", CHALK_U_PLAIN, CHALK_DETAIL, f->alpha_params);
    chalk_put_number(r, "a_tokens", "B", CHALK_U_PLAIN, CHALK_DETAIL, f->a_tokens);
    chalk_put_number(r, "alpha_tokens", "beta", CHALK_U_PLAIN, CHALK_DETAIL, f->alpha_tokens);
    /* the exponents of compute in the frontier (chapter 4.3): N ~ C^gamma_N, D ~ C^gamma_D */
    overtraining_exponents e = overtraining_frontier_exponents(f);
    chalk_put_number(r, "gamma_params", "N_opt ~ C^gamma", CHALK_U_PLAIN, CHALK_DETAIL, e.params);
    chalk_put_number(r, "gamma_tokens", "D_opt ~ C^gamma", CHALK_U_PLAIN, CHALK_DETAIL, e.tokens);
}

static void build_chinchilla(const chalk_point *p, chalk_record *r)
{
    const cost_scaling_fit *fit = fit_at(p);
    chalk_clear(r);
    put_fit(r, fit);
    overtraining_optimum o;
    const char *why = NULL;
    if (has(p, &F_FLOPS)) {
        put_input(r, p, &F_FLOPS, CHALK_U_FLOPS);
        o = overtraining_chinchilla(fit, chalk_in(p, &F_FLOPS));
    } else if (has(p, &F_PARAMS)) {
        put_input(r, p, &F_PARAMS, CHALK_U_PARAMS);
        o = overtraining_chinchilla_for_params(fit, chalk_in(p, &F_PARAMS));
    } else {
        double loss = chalk_in(p, &F_LOSS);
        put_input(r, p, &F_LOSS, CHALK_U_PLAIN);
        o = overtraining_chinchilla_for_loss(fit, loss);
        why = o.exists ? NULL : unreachable(r, fit, loss);
        overtraining_size smallest = overtraining_min_params(fit, loss);
        chalk_put_result(r, "params_min", "smallest model that reaches it", CHALK_U_PARAMS, 0,
                         smallest.exists, smallest.params, why);
    }
    if (!has(p, &F_FLOPS))
        chalk_put_result(r, "flops", "compute, 6ND", CHALK_U_FLOPS, 0, o.exists, o.flops, why);
    if (!has(p, &F_PARAMS))
        chalk_put_result(r, "params_opt", "compute-optimal parameters", CHALK_U_PARAMS, 0, o.exists,
                         o.params, why);
    chalk_put_result(r, "tokens_opt", "compute-optimal tokens", CHALK_U_TOKENS, 0, o.exists,
                     o.tokens, why);
    chalk_put_result(r, "tokens_per_param", "tokens per parameter", CHALK_U_PLAIN, 0, o.exists,
                     o.tokens_per_param, why);
    if (!has(p, &F_LOSS))
        chalk_put_number(r, "loss", "loss (nats/token)", CHALK_U_PLAIN, 0, o.loss);
    if (o.exists) {
        put_terms(r, fit, o.params, o.tokens, CHALK_DETAIL);
        /* ln(C/6): an error d in an exponent of C/6 is a factor e^(d ln(C/6)) (4.3) */
        chalk_put_number(r, "ln_budget_over_6", "ln(C/6) = ln(N D)", CHALK_U_PLAIN, CHALK_DETAIL,
                         log(o.params * o.tokens));
    }
    put_fit_constants(r, fit);
}


/* ---- heuristic ----------------------------------------------------------------------------------
 */

static void build_heuristic(const chalk_point *p, chalk_record *r)
{
    double mu = chalk_in(p, &F_FALLING);
    double nu = chalk_in(p, &F_RISING);
    chalk_clear(r);
    chalk_put_number(r, "falling_exponent", "falling exponent mu", CHALK_U_PLAIN, CHALK_INPUT, mu);
    chalk_put_number(r, "rising_exponent", "rising exponent nu", CHALK_U_PLAIN, CHALK_INPUT, nu);
    double penalty = overtraining_equal_cost_penalty(mu, nu);
    chalk_put_number(r, "term_ratio", "falling / rising at the minimum", CHALK_U_PLAIN, 0,
                     overtraining_optimum_term_ratio(mu, nu));
    chalk_put_number(r, "equal_cost_penalty", "cost at equal terms / least", CHALK_U_RATIO, 0,
                     penalty);
    chalk_put_number(r, "equal_cost_excess", "excess of the heuristic", CHALK_U_FRACTION, 0,
                     penalty - 1.0);
}



/* ---- the commands' checks ------------------------------------------------------------------ */

static int check_loss(const chalk_point *p)
{
    static const chalk_flag *const one[] = {&F_PARAMS, &CHALK_F_MODEL, NULL};
    int status = chalk_exactly_one(p, one);
    if (!status && !has(p, &F_TOKENS))
        status = chalk_fail("loss needs --tokens D (training tokens)");
    return status;
}

static int check_chinchilla(const chalk_point *p)
{
    static const chalk_flag *const one[] = {&F_FLOPS, &F_PARAMS, &F_LOSS, NULL};
    return chalk_exactly_one(p, one);
}





static int check_heuristic(const chalk_point *p)
{
    if (!has(p, &F_FALLING) || !has(p, &F_RISING))
        return chalk_fail("heuristic needs --falling-exponent MU and --rising-exponent NU");
    return CHALK_OK;
}

/* ---- presets: chalk list fits, chalk list runs ------------------------------------------------ */

static void fit_put(chalk_record *r, size_t i, const chalk_preset_options *o)
{
    (void)o;
    size_t n;
    const cost_scaling_fit *f = cost_scaling_fits(&n)[i];
    chalk_put_string(r, "name", "name", 0, f->name);
    chalk_put_string(r, "title", "title", 0, f->title);
    put_fit_constants(r, f);
    overtraining_optimum gopher = overtraining_chinchilla(f, 5.76e23); /* Hoffmann's Figure 4 */
    chalk_put_number(r, "gopher_budget_params_opt", "optimum at 5.76e23 FLOPs", CHALK_U_PARAMS, 0,
                     gopher.params);
    chalk_put_number(r, "gopher_budget_tokens_per_param", "tokens per parameter there",
                     CHALK_U_PLAIN, 0, gopher.tokens_per_param);
    chalk_put_string(r, "source", "source", CHALK_DETAIL, f->source);
}

static void run_put(chalk_record *r, size_t i, const chalk_preset_options *o)
{
    (void)o;
    size_t n;
    const cost_training_run *run = cost_training_runs(&n)[i];
    chalk_put_string(r, "name", "name", 0, run->name);
    chalk_put_string(r, "title", "title", 0, run->title);
    chalk_put_number(r, "params_active", "active parameters", CHALK_U_PARAMS, 0,
                     run->params_active);
    chalk_put_number(r, "params_total", "total parameters", CHALK_U_PARAMS, CHALK_DETAIL,
                     run->params_total);
    chalk_put_number(r, "tokens", "pre-training tokens", CHALK_U_TOKENS, 0, run->tokens);
    chalk_put_number(r, "tokens_per_param", "tokens per active parameter", CHALK_U_PLAIN, 0,
                     run->tokens / run->params_active);
    chalk_put_string(r, "source", "source", CHALK_DETAIL, run->source);
}

static const chalk_preset_kind *const PRESETS[] = {&KIND_FITS, &KIND_RUNS, NULL};

/* ---- the commands ------------------------------------------------------------------------------ */

#define SWEEPS CHALK_SWEEPS

static const chalk_input LOSS[] = {{&F_PARAMS, SWEEPS}, {&CHALK_F_MODEL}, {&F_TOKENS, SWEEPS},
                                   {&F_FIT}, {NULL}};
static const chalk_input CHINCHILLA[] = {{&F_FLOPS, SWEEPS}, {&F_PARAMS, SWEEPS}, {&F_LOSS, SWEEPS},
                                         {&F_FIT}, {NULL}};
static const chalk_input HEURISTIC[] = {{&F_FALLING, SWEEPS}, {&F_RISING, SWEEPS}, {NULL}};

static const char *const ABOUT_LOSS[] = {
    "Chinchilla's loss law for a model of --params N (or a --model preset's active",
    "parameters) trained on --tokens D:",
    "  loss = E + A / N^alpha + B / D^beta          nats per token",
    "with the constants of --fit (chalk list fits), and its terms, D / N and 6ND.",
    "--params or --tokens may be a sweep.",
    NULL};
static const char *const EXAMPLES_LOSS[] = {
    "chalk loss --params 70e9 --tokens 1.4e12 --fit hoffmann",
    "chalk loss --model llama3-8b --tokens 1e12:1e14 --csv", NULL};

static const char *const ABOUT_CHINCHILLA[] = {
    "The compute-optimal model under C = 6 N D, from one of:",
    "  --flops C    N_opt = G (C/6)^(beta/(alpha+beta)), D_opt = (C/6) / N_opt,",
    "               G = (alpha A / (beta B))^(1/(alpha+beta))",
    "  --params N   the tokens D that make N optimal: alpha A N^-alpha = beta B D^-beta",
    "  --loss L     the cheapest model that reaches L (null, with a reason, at or below E),",
    "               and params_min, the smallest model that reaches it at all",
    "The given input may be a sweep.",
    NULL};
static const char *const EXAMPLES_CHINCHILLA[] = {
    "chalk chinchilla --flops 5.76e23 --fit hoffmann-unrounded", "chalk chinchilla --params 100e9",
    "chalk chinchilla --loss 1.9:2.5:7 --fit besiroglu", NULL};






static const char *const ABOUT_HEURISTIC[] = {
    "For a cost a u^-mu + b u^nu, at its minimum the falling term is nu / mu times the",
    "rising one (equal only when mu = nu), and the point where the",
    "two terms are equal costs equal_cost_penalty times the minimum.", NULL};
static const char *const EXAMPLES_HEURISTIC[] = {
    "chalk heuristic --falling-exponent 1 --rising-exponent 2",
    "chalk heuristic --falling-exponent 0.34 --rising-exponent 0.28", NULL};

static const chalk_command CMD_LOSS = {
    .name = "loss",
    .summary = "Chinchilla's loss law at N parameters and D tokens (4.2)",
    .title = "chalk loss: the Chinchilla loss law, L = E + A/N^alpha + B/D^beta",
    .inputs = LOSS, .check = check_loss, .build = build_loss,
    .about = ABOUT_LOSS, .examples = EXAMPLES_LOSS
};
static const chalk_command CMD_CHINCHILLA = {
    .name = "chinchilla",
    .summary = "the compute-optimal model of a budget, a size or a loss (4.3)",
    .title = "chalk chinchilla: the compute-optimal model under C = 6ND (4.3)",
    .inputs = CHINCHILLA, .check = check_chinchilla, .build = build_chinchilla,
    .about = ABOUT_CHINCHILLA, .examples = EXAMPLES_CHINCHILLA
};
static const chalk_command CMD_HEURISTIC = {
    .name = "heuristic",
    .summary = "the equal-cost heuristic, exactly (4.6)",
    .title = "chalk heuristic: the two terms of a u^-mu + b u^nu at its minimum (4.6)",
    .inputs = HEURISTIC, .check = check_heuristic, .build = build_heuristic,
    .about = ABOUT_HEURISTIC, .examples = EXAMPLES_HEURISTIC
};

const chalk_chapter chalk_chapter_04_overtraining = {
    .number = 4,
    .title = "over-training: why frontier models are trained far past Chinchilla",
    .commands = (const chalk_command *const[]){&CMD_LOSS, &CMD_CHINCHILLA, &overtraining_iso_loss_cmd, &CMD_HEURISTIC, &overtraining_equal_cost_cmd, &overtraining_overtrain_cmd, &overtraining_lifetime_cmd, &overtraining_inference_optimal_cmd, NULL},
    .presets = PRESETS,
};
