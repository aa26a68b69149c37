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

#include "chalk.h"
#include "overtraining.h"

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
static const chalk_flag F_FIT              = {"--fit", "NAME", "fit", U(WORD), 0, 0, 0, "a scaling-law fit", G_FIT,
    "besiroglu (default), hoffmann (as printed) or hoffmann-unrounded (chalk list fits)", .kind = &KIND_FITS};
static const chalk_flag F_PARAMS           = {"--params", "N", "params", U(PARAMS), 1e3, 1e16, 0, "parameters", G_MODEL,
    "parameters N (for a mixture of experts, the active ones); may be a sweep"};
static const chalk_flag F_TOKENS           = {"--tokens", "D", "tokens", U(TOKENS), 1e3, 1e20, 0, "training tokens", G_MODEL,
    "training tokens D; may be a sweep"};
static const chalk_flag F_FLOPS            = {"--flops", "C", "flops", U(FLOPS), 1e9, 1e36, 0, "pre-training compute, FLOPs", G_MODEL,
    "pre-training compute C = 6 N D, FLOPs; may be a sweep"};
static const chalk_flag F_LOSS             = {"--loss", "L", "loss", U(PLAIN), 0, 20, ABOVE, "nats per token", G_TARGET,
    "the target loss, nats per token; may be a sweep"};
static const chalk_flag F_MATCH_PARAMS     = {"--match-params", "N", "match_params", U(PARAMS), 1e3, 1e16, 0, "parameters", G_TARGET,
    "the target is the loss of a model of N parameters, trained compute-optimally unless --match-tokens or --match-equal-cost says otherwise"};
static const chalk_flag F_MATCH_TOKENS     = {"--match-tokens", "D", "match_tokens", U(TOKENS), 1e3, 1e20, 0, "training tokens", G_TARGET,
    "with --match-params: that model is trained on D tokens"};
static const chalk_flag F_MATCH_EQUAL_COST = {"--match-equal-cost", NULL, NULL, U(WORD), 0, 0, 0, NULL, G_TARGET,
    "with --match-params: that model is trained as the lecture's heuristic says, on as many tokens as equal thirds of the cost allow for the traffic served"};
static const chalk_flag F_INFERENCE_TOKENS = {"--inference-tokens", "D", "inference_tokens", U(TOKENS), 0, 1e22, 0, "tokens served", G_SERVING,
    "tokens served over the model's life; may be a sweep"};
static const chalk_flag F_TOKENS_PER_S     = {"--tokens-per-s", "R", "tokens_per_s", U(TOKENS_PER_S), 0, 1e12, 0, "tokens served per second", G_SERVING,
    "tokens one model serves per second; may be a sweep"};
static const chalk_flag F_DAYS             = {"--days", "T", "days", U(PLAIN), 0, 36525, 0, "days served", G_SERVING,
    "how long the model is served, days; may be a sweep"};
static const chalk_flag F_USE_PROBABILITY  = {"--use-probability", "P", "use_probability", U(PLAIN), 0, 1, 0, "the chance it is deployed", G_SERVING,
    "the chance the run is deployed at all (default 1): derates the served tokens"};
static const chalk_flag F_INFERENCE_EFFICIENCY = {"--inference-efficiency", "E", "inference_efficiency", U(PLAIN), 1e-6, 1, 0, "serving's utilisation", G_LIFE,
    "serving's FLOP utilisation over pre-training's, 1e-6 to 1"};
static const chalk_flag F_RL_FLOPS         = {"--rl-flops-per-param", "K", "rl_flops_per_param", U(PLAIN), 0, 100, ABOVE, "FLOPs per parameter per RL token", G_LIFE,
    "FLOPs per parameter per RL token: 2 (rollouts only) to 6 (all trained on); default 3"};
static const chalk_flag F_RL_EFFICIENCY    = {"--rl-efficiency", "E", "rl_efficiency", U(PLAIN), 1e-6, 1, 0, "RL's utilisation", G_LIFE,
    "RL's FLOP utilisation over pre-training's, 1e-6 to 1; default 1/3"};
static const chalk_flag F_RL_SHARE         = {"--rl-share", "S", "rl_share", U(FRACTION), 0, 1, 0, "RL's share of the cost", G_LIFE,
    "fraction of the lifetime cost spent on RL (default 1/3)"};
static const chalk_flag F_INFERENCE_SHARE  = {"--inference-share", "S", "inference_share", U(FRACTION), 0, 1, 0, "serving's share of the cost", G_LIFE,
    "fraction of the lifetime cost spent on serving (default 1/3); pre-training gets the rest"};
static const chalk_flag F_TOKENS_PER_PARAM = {"--tokens-per-param", "X", "tokens_per_param_rule", U(PLAIN), 0, 1e6, ABOVE, "tokens per parameter", G_MODEL,
    "the rule to measure against (default 20, Chinchilla's)"};
static const chalk_flag F_PRETRAIN_TOKENS  = {"--pretrain-tokens", "D", "pretrain_tokens", U(TOKENS), 1e3, 1e20, 0, "pre-training tokens", G_MODEL,
    "pre-training tokens, instead of deriving them from the traffic; may be a sweep"};
static const chalk_flag F_RUN              = {"--run", "NAME", "run", U(WORD), 0, 0, 0, "a published run", G_MODEL,
    "a published training run: its parameters and tokens (chalk list runs)", .kind = &KIND_RUNS};
static const chalk_flag F_FALLING          = {"--falling-exponent", "MU", "falling_exponent", U(PLAIN), 0, 100, ABOVE, "mu", "exponents",
    "exponent mu of the falling term, u^-mu; may be a sweep"};
static const chalk_flag F_RISING           = {"--rising-exponent", "NU", "rising_exponent", U(PLAIN), 0, 100, ABOVE, "nu", "exponents",
    "exponent nu of the rising term, u^nu; may be a sweep"};
/* clang-format on */

/* ---- the flashcards' defaults (lecture notes 5.4, flashcard 18) ----------------------- */

#define DEFAULT_RL_FLOPS_PER_PARAM 3.0
#define DEFAULT_EFFICIENCY (1.0 / 3.0)
#define DEFAULT_SHARE (1.0 / 3.0)
#define CHINCHILLA_TOKENS_PER_PARAM 20.0 /* Hoffmann et al. 2022: 70B on 1.4T tokens */

/* ---- what a point names -------------------------------------------------------------------- */

/* `f` at this point when the command takes it, else `fallback`. */
static double in_or(const chalk_point *p, const chalk_flag *f, double fallback)
{
    return chalk_takes(p, f) ? chalk_in(p, f) : fallback;
}

static bool has(const chalk_point *p, const chalk_flag *f)
{
    return chalk_takes(p, f) && chalk_has(p, f);
}

/* The fit --fit names, or the default (the first of lib/scaling.c). */
static const cost_scaling_fit *fit_at(const chalk_point *p)
{
    size_t n;
    long i = chalk_pick(p, &F_FIT);
    return cost_scaling_fits(&n)[i >= 0 ? i : 0];
}

static const cost_training_run *run_at(const chalk_point *p)
{
    size_t n;
    long i = chalk_takes(p, &F_RUN) ? chalk_pick(p, &F_RUN) : -1;
    return i >= 0 ? cost_training_runs(&n)[i] : NULL;
}

static const cost_model *model_at(const chalk_point *p)
{
    return chalk_takes(p, &CHALK_F_MODEL) ? chalk_model_at(p) : NULL;
}

/* Active (and total) parameters: --params-active, else --run's, else --model's. */
static double params_active_at(const chalk_point *p)
{
    if (has(p, &CHALK_F_PARAMS_ACTIVE))
        return chalk_in(p, &CHALK_F_PARAMS_ACTIVE);
    const cost_training_run *run = run_at(p);
    const cost_model *m = model_at(p);
    return run ? run->params_active : m ? cost_model_params_active(m) : 0.0;
}

static double params_total_at(const chalk_point *p)
{
    const cost_training_run *run = run_at(p);
    const cost_model *m = model_at(p);
    return run ? run->params_total : m ? cost_model_params_total(m) : 0.0;
}

static void put_fit(chalk_record *r, const cost_scaling_fit *fit)
{
    chalk_put_string(r, "fit", "scaling law", CHALK_INPUT, fit->name);
}

/* Echoes the number given for `f` as an input, under the flag's key. */
static void put_input(chalk_record *r, const chalk_point *p, const chalk_flag *f, chalk_unit unit)
{
    if (has(p, f))
        chalk_put_number(r, f->key, f->key, unit, CHALK_INPUT, chalk_in(p, f));
}

/* ---- the target quality and the traffic ------------------------------------------------------ */

/* A quality to reach: --loss, or the loss of a model to match. */
typedef struct target {
    double loss;       /* nats per token */
    double ref_params; /* the matched model (the compute-optimal one for --loss) */
    double ref_tokens;
} target;

/* Tokens served: --inference-tokens, or rate x days x use probability. */
static double served_tokens(const chalk_point *p)
{
    if (has(p, &F_INFERENCE_TOKENS))
        return chalk_in(p, &F_INFERENCE_TOKENS);
    overtraining_fleet fleet = {
        .tokens_per_s = in_or(p, &F_TOKENS_PER_S, 0.0),
        .days = in_or(p, &F_DAYS, 0.0),
        .use_probability = in_or(p, &F_USE_PROBABILITY, 1.0),
    };
    return overtraining_inference_tokens(&fleet);
}

static overtraining_factors factors_at(const chalk_point *p)
{
    overtraining_factors f = {
        .rl_flops_per_param = in_or(p, &F_RL_FLOPS, DEFAULT_RL_FLOPS_PER_PARAM),
        .rl_efficiency = in_or(p, &F_RL_EFFICIENCY, 1.0),
        .inference_efficiency = in_or(p, &F_INFERENCE_EFFICIENCY, 1.0),
    };
    return f;
}

/* The lecture's thirds unless --rl-share / --inference-share say otherwise. */
static overtraining_split split_at(const chalk_point *p)
{
    overtraining_split s;
    s.rl_share = in_or(p, &F_RL_SHARE, DEFAULT_SHARE);
    s.inference_share = in_or(p, &F_INFERENCE_SHARE, DEFAULT_SHARE);
    s.pretrain_share = 1.0 - s.rl_share - s.inference_share;
    return s;
}

/* Every point must leave pre-training a share of the cost. */
static int check_shares(const chalk_point *p)
{
    overtraining_split s = split_at(p);
    if (s.pretrain_share <= 0.0)
        return chalk_fail("--rl-share %g and --inference-share %g leave nothing for "
                          "pre-training: they must sum to less than 1",
                          s.rl_share, s.inference_share);
    return CHALK_OK;
}

static target target_at(const chalk_point *p)
{
    const cost_scaling_fit *fit = fit_at(p);
    target t;
    if (has(p, &F_LOSS)) {
        t.loss = chalk_in(p, &F_LOSS);
        overtraining_optimum o = overtraining_chinchilla_for_loss(fit, t.loss);
        t.ref_params = o.params;
        t.ref_tokens = o.tokens;
        return t;
    }
    t.ref_params = chalk_in(p, &F_MATCH_PARAMS);
    if (has(p, &F_MATCH_TOKENS)) {
        t.ref_tokens = chalk_in(p, &F_MATCH_TOKENS);
    } else if (has(p, &F_MATCH_EQUAL_COST)) {
        /* the heuristic: pre-train on the tokens equal costs give for this traffic */
        overtraining_factors f = factors_at(p);
        overtraining_split s = split_at(p);
        t.ref_tokens = served_tokens(p) / overtraining_equal_cost(&f, &s).inference_per_pretrain;
    } else {
        t.ref_tokens = overtraining_chinchilla_for_params(fit, t.ref_params).tokens;
    }
    t.loss = overtraining_loss(fit, t.ref_params, t.ref_tokens);
    return t;
}

/* Why a loss cannot be reached at all. */
static const char *unreachable(chalk_record *r, const cost_scaling_fit *fit, double loss)
{
    return chalk_fmt(r,
                     "a loss of %.4g nats is not above the %s fit's irreducible %.4g: no model "
                     "reaches it",
                     loss, fit->name, fit->irreducible);
}

/* The target and serving flags a command was given. */
static int check_target(const chalk_point *p)
{
    const char *cmd = p->cmd->name;
    static const chalk_flag *const one[] = {&F_LOSS, &F_MATCH_PARAMS, NULL};
    int status = chalk_exactly_one(p, one);
    bool matching = has(p, &F_MATCH_PARAMS);
    if (!status && !matching && (has(p, &F_MATCH_TOKENS) || has(p, &F_MATCH_EQUAL_COST)))
        status =
            chalk_fail("%s: --match-tokens and --match-equal-cost go with --match-params", cmd);
    if (!status && has(p, &F_MATCH_TOKENS) && has(p, &F_MATCH_EQUAL_COST))
        status = chalk_fail("%s: give --match-tokens or --match-equal-cost, not both", cmd);
    if (!status && has(p, &F_MATCH_EQUAL_COST) && !(served_tokens(p) > 0.0))
        status = chalk_fail("%s: --match-equal-cost trains the matched model on tokens in "
                            "proportion to the traffic, and the traffic here is 0 tokens",
                            cmd);
    return status;
}

static int check_serving(const chalk_point *p)
{
    const char *cmd = p->cmd->name;
    static const chalk_flag *const one[] = {&F_INFERENCE_TOKENS, &F_TOKENS_PER_S, NULL};
    int status = chalk_exactly_one(p, one);
    if (!status)
        status = chalk_together(p, &F_TOKENS_PER_S, &F_DAYS);
    if (!status && has(p, &F_INFERENCE_TOKENS) &&
        (has(p, &F_DAYS) || has(p, &F_USE_PROBABILITY)))
        status = chalk_fail("%s: --days and --use-probability go with --tokens-per-s, not "
                            "--inference-tokens",
                            cmd);
    return status;
}

/* Echoes the target and the traffic. */
static void put_target(chalk_record *r, const chalk_point *p, const target *t)
{
    put_fit(r, fit_at(p));
    if (has(p, &F_LOSS)) {
        put_input(r, p, &F_LOSS, CHALK_U_PLAIN);
        return;
    }
    put_input(r, p, &F_MATCH_PARAMS, CHALK_U_PARAMS);
    chalk_put_number(r, "match_tokens", "matched model's tokens", CHALK_U_TOKENS, CHALK_INPUT,
                     t->ref_tokens);
    chalk_put_number(r, "loss", "target loss (nats/token)", CHALK_U_PLAIN, 0, t->loss);
}

static void put_serving(chalk_record *r, const chalk_point *p, double served)
{
    put_input(r, p, &F_TOKENS_PER_S, CHALK_U_TOKENS_PER_S);
    put_input(r, p, &F_DAYS, CHALK_U_PLAIN);
    put_input(r, p, &F_USE_PROBABILITY, CHALK_U_PLAIN);
    chalk_put_number(r, "inference_tokens", "served tokens", CHALK_U_TOKENS,
                     has(p, &F_INFERENCE_TOKENS) ? CHALK_INPUT : 0, served);
    chalk_put_number(r, "inference_efficiency", "serving efficiency", CHALK_U_PLAIN, CHALK_INPUT,
                     factors_at(p).inference_efficiency);
}
/* Training FLOPs, 6 N D, from the chapter's cost terms. */
static double train_flops(double params, double tokens)
{
    overtraining_plan p = {
        .params_active = params,
        .pretrain_tokens = tokens,
        .factors = {.rl_flops_per_param = 2, .rl_efficiency = 1, .inference_efficiency = 1}};
    return overtraining_cost_terms(&p).pretrain_flops;
}

/* ---- loss -------------------------------------------------------------------------------------
 */

/* The loss terms at (N, D): the law with the other variable unlimited. */
static void put_terms(chalk_record *r, const cost_scaling_fit *fit, double params, double tokens,
                      unsigned flags)
{
    double params_term = overtraining_loss(fit, params, INFINITY) - fit->irreducible;
    double tokens_term = overtraining_loss(fit, INFINITY, tokens) - fit->irreducible;
    chalk_put_number(r, "params_term", "parameter term", CHALK_U_PLAIN, flags, params_term);
    chalk_put_number(r, "tokens_term", "data term", CHALK_U_PLAIN, flags, tokens_term);
    chalk_put_number(r, "term_ratio", "parameter / data term", CHALK_U_PLAIN, CHALK_DETAIL,
                     params_term / tokens_term);
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
    double sum = f->alpha_params + f->alpha_tokens;
    chalk_put_number(r, "gamma_params", "N_opt ~ C^gamma", CHALK_U_PLAIN, CHALK_DETAIL,
                     f->alpha_tokens / sum);
    chalk_put_number(r, "gamma_tokens", "D_opt ~ C^gamma", CHALK_U_PLAIN, CHALK_DETAIL,
                     f->alpha_params / sum);
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


/* ---- iso-loss ----------------------------------------------------------------------------------
 */

static void build_iso_loss(const chalk_point *p, chalk_record *r)
{
    const cost_scaling_fit *fit = fit_at(p);
    target t = target_at(p);
    double params = chalk_in(p, &F_PARAMS);
    chalk_clear(r);
    put_target(r, p, &t);
    chalk_put_number(r, "params", "parameters", CHALK_U_PARAMS, CHALK_INPUT, params);

    overtraining_tokens d = overtraining_tokens_for_loss(fit, params, t.loss);
    overtraining_optimum cheapest = overtraining_chinchilla_for_loss(fit, t.loss);
    overtraining_size smallest = overtraining_min_params(fit, t.loss);
    double floor = overtraining_loss(fit, params, INFINITY);
    const char *why = !cheapest.exists ? unreachable(r, fit, t.loss)
                                       : chalk_fmt(r,
                                                   "with unlimited data this model still leaves "
                                                   "%.4g nats: it must be larger than %.4g",
                                                   floor, smallest.params);
    chalk_put_result(r, "tokens", "tokens to reach the loss", CHALK_U_TOKENS, 0, d.exists, d.tokens,
                     why);
    chalk_put_result(r, "flops", "training FLOPs, 6ND", CHALK_U_FLOPS, 0, d.exists,
                     d.exists ? train_flops(params, d.tokens) : 0.0, why);
    /* N D over the cheapest model's N D is 6ND over its 6ND */
    chalk_put_result(
        r, "flops_over_optimum", "compute over the cheapest", CHALK_U_RATIO, 0,
        d.exists && cheapest.exists,
        d.exists && cheapest.exists ? params * d.tokens / (cheapest.params * cheapest.tokens) : 0.0,
        why);
    chalk_put_number(r, "tokens_opt", "compute-optimal tokens for N", CHALK_U_TOKENS, 0,
                     overtraining_chinchilla_for_params(fit, params).tokens);
    /* the tokens that spend the cheapest model's compute on N parameters: same N D */
    chalk_put_result(r, "tokens_same_flops", "tokens at the cheapest's compute", CHALK_U_TOKENS,
                     CHALK_DETAIL, cheapest.exists,
                     cheapest.exists ? cheapest.params * cheapest.tokens / params : 0.0, why);
    chalk_put_result(r, "params_min", "smallest model that reaches it", CHALK_U_PARAMS,
                     CHALK_DETAIL, smallest.exists, smallest.params, why);
    chalk_put_number(r, "loss_floor", "loss with unlimited data", CHALK_U_PLAIN, CHALK_DETAIL,
                     floor);
}


/* ---- lifetime and inference-optimal -----------------------------------------------------------
 */

/* Served tokens as pre-training FLOPs see them: divided by serving's efficiency. */
static double effective_served(const chalk_point *p, double served)
{
    return served / factors_at(p).inference_efficiency;
}

/* A lifetime's fields, keyed PREFIX + name ("chinchilla_train_tokens"); `who` starts
 * their labels. The parameters are left out when they are the row's input. */
static void put_lifetime(chalk_record *r, const char *prefix, const char *who,
                         const overtraining_lifetime *l, const char *why, bool with_params)
{
#define KEY(k) chalk_fmt(r, "%s%s", prefix, k)
#define LABEL(k) chalk_fmt(r, "%s%s", who, k)
    if (with_params)
        chalk_put_result(r, KEY("params"), LABEL("parameters"), CHALK_U_PARAMS, 0, l->exists,
                         l->params, why);
    chalk_put_result(r, KEY("train_tokens"), LABEL("training tokens"), CHALK_U_TOKENS, 0, l->exists,
                     l->train_tokens, why);
    chalk_put_result(r, KEY("tokens_per_param"), LABEL("tokens per parameter"), CHALK_U_PLAIN, 0,
                     l->exists, l->tokens_per_param, why);
    chalk_put_result(r, KEY("train_flops"), LABEL("pre-training FLOPs"), CHALK_U_FLOPS,
                     CHALK_DETAIL, l->exists, l->train_flops, why);
    chalk_put_result(r, KEY("inference_flops"), LABEL("inference FLOPs"), CHALK_U_FLOPS,
                     CHALK_DETAIL, l->exists, l->inference_flops, why);
    chalk_put_result(r, KEY("total_flops"), LABEL("lifetime FLOPs"), CHALK_U_FLOPS, 0, l->exists,
                     l->total_flops, why);
#undef KEY
#undef LABEL
}

static void build_lifetime(const chalk_point *p, chalk_record *r)
{
    const cost_scaling_fit *fit = fit_at(p);
    double served = served_tokens(p), params = chalk_in(p, &F_PARAMS);
    target t = target_at(p);
    chalk_clear(r);
    put_target(r, p, &t);
    put_serving(r, p, served);
    chalk_put_number(r, "params", "parameters", CHALK_U_PARAMS, CHALK_INPUT, params);
    overtraining_lifetime l =
        overtraining_lifetime_at(fit, params, t.loss, effective_served(p, served));
    overtraining_size smallest = overtraining_min_params(fit, t.loss);
    const char *why = smallest.exists ? chalk_fmt(r,
                                                  "a model of %.4g parameters cannot reach "
                                                  "the loss; the smallest that can is %.4g",
                                                  params, smallest.params)
                                      : unreachable(r, fit, t.loss);
    put_lifetime(r, "", "", &l, why, false);
}


static void build_inference_optimal(const chalk_point *p, chalk_record *r)
{
    const cost_scaling_fit *fit = fit_at(p);
    double served = served_tokens(p);
    double effective = effective_served(p, served);
    target t = target_at(p);
    chalk_clear(r);
    put_target(r, p, &t);
    put_serving(r, p, served);

    const char *why = unreachable(r, fit, t.loss);
    overtraining_lifetime best = overtraining_inference_optimal(fit, t.loss, effective);
    put_lifetime(r, "", "", &best, why, true);
    chalk_put_result(r, "inference_to_train_flops", "inference / pre-training cost", CHALK_U_PLAIN,
                     0, best.exists, best.exists ? best.inference_flops / best.train_flops : 0.0,
                     why);

    overtraining_optimum cheapest = overtraining_chinchilla_for_loss(fit, t.loss);
    overtraining_lifetime chin = overtraining_lifetime_at(
        fit, cheapest.exists ? cheapest.params : 1.0, t.loss, effective);
    put_lifetime(r, "chinchilla_", "compute-optimal: ", &chin, why, true);
    chalk_put_result(r, "overtrain_factor", "tokens per parameter over compute-optimal",
                     CHALK_U_RATIO, 0, best.exists,
                     best.exists ? best.tokens_per_param / chin.tokens_per_param : 0.0, why);

    overtraining_lifetime none = {.exists = false}; /* no reference for an unreachable loss */
    overtraining_lifetime ref = cheapest.exists
                                    ? overtraining_lifetime_at(fit, t.ref_params, t.loss, effective)
                                    : none;
    put_lifetime(r, "reference_", "reference: ", &ref, why, true);
    bool known = best.exists && ref.exists;
    double saved = known ? overtraining_saved_flops(&ref, &best) : 0.0;
    chalk_put_result(r, "saved_flops", "saved against the reference", CHALK_U_FLOPS, 0, known,
                     saved, why);
    chalk_put_result(r, "saved_fraction", "saved, fraction", CHALK_U_FRACTION, 0, known,
                     known ? saved / ref.total_flops : 0.0, why);
}


/* ---- overtrain ---------------------------------------------------------------------------------
 */

static void build_overtrain(const chalk_point *p, chalk_record *r)
{
    const cost_scaling_fit *fit = has(p, &F_FIT) ? fit_at(p) : NULL; /* the rule alone */
    bool serving = has(p, &F_TOKENS_PER_S);
    double served = serving ? served_tokens(p) : 0.0;
    overtraining_factors f = factors_at(p);
    overtraining_split s = split_at(p);
    overtraining_token_ratios ratios = overtraining_equal_cost(&f, &s);
    const cost_training_run *run = run_at(p);
    const cost_model *model = model_at(p);
    double pretrain = run       ? run->tokens
                      : serving ? served / ratios.inference_per_pretrain
                                : chalk_in(p, &F_PRETRAIN_TOKENS);
    double n = params_active_at(p), params_total = params_total_at(p);
    double rule = chalk_in(p, &F_TOKENS_PER_PARAM);
    chalk_clear(r);
    if (run)
        chalk_put_string(r, "run", "run", CHALK_INPUT, run->name);
    if (model)
        chalk_put_string(r, "model", "model", CHALK_INPUT, model->name);
    chalk_put_number(r, "params_active", "active parameters", CHALK_U_PARAMS, CHALK_INPUT, n);
    put_input(r, p, &F_TOKENS_PER_S, CHALK_U_TOKENS_PER_S);
    put_input(r, p, &F_DAYS, CHALK_U_PLAIN);
    put_input(r, p, &F_USE_PROBABILITY, CHALK_U_PLAIN);
    chalk_put_number(r, "tokens_per_param_rule", "rule, tokens per parameter", CHALK_U_PLAIN,
                     CHALK_INPUT, rule);

    const char *no_traffic = "no traffic given: pass --tokens-per-s R and --days T";
    chalk_put_result(r, "inference_tokens", "served tokens", CHALK_U_TOKENS, 0, serving, served,
                     no_traffic);
    chalk_put_number(r, "pretrain_tokens", "pre-training tokens", CHALK_U_TOKENS,
                     serving ? 0 : CHALK_INPUT, pretrain);
    chalk_put_number(r, "chinchilla_tokens", "the rule's tokens", CHALK_U_TOKENS, 0, rule * n);
    chalk_put_number(r, "tokens_per_param", "tokens per parameter", CHALK_U_PLAIN, 0, pretrain / n);
    chalk_put_result(r, "tokens_per_total_param", "tokens per total parameter", CHALK_U_PLAIN, 0,
                     params_total > 0.0, pretrain / params_total,
                     "no total parameter count: pass --model NAME or --run NAME");
    bool trained = pretrain > 0.0;
    const char *untrained = "no pre-training tokens: the traffic (rate x days x use "
                            "probability) is zero";
    chalk_put_result(r, "overtrain_factor", "over-training factor", CHALK_U_RATIO, 0, trained,
                     trained ? overtraining_factor(pretrain, n, rule) : 0.0, untrained);

    bool fitted = fit != NULL;
    double fit_rule = fitted ? overtraining_chinchilla_for_params(fit, n).tokens_per_param : 0.0;
    const char *no_fit = !fitted ? "no --fit given: pass --fit NAME to measure against a fit's "
                                   "optimum"
                                 : untrained;
    chalk_put_result(r, "fit_tokens_per_param", "the fit's compute-optimal ratio", CHALK_U_PLAIN, 0,
                     fitted, fit_rule, no_fit);
    chalk_put_result(r, "overtrain_factor_fit", "over-training against the fit", CHALK_U_RATIO, 0,
                     fitted && trained,
                     fitted && trained ? overtraining_factor(pretrain, n, fit_rule) : 0.0, no_fit);

    /* with traffic, the plan equal costs give: RL tokens in proportion to pre-training's */
    if (!serving)
        return;
    overtraining_plan plan = {.params_active = n,
                              .pretrain_tokens = pretrain,
                              .rl_tokens = pretrain * ratios.rl_per_pretrain,
                              .inference_tokens = served,
                              .factors = f};
    overtraining_costs cost = overtraining_cost_terms(&plan);
    chalk_put_number(r, "rl_tokens", "RL tokens (equal costs)", CHALK_U_TOKENS, 0, plan.rl_tokens);
    chalk_put_number(r, "pretrain_flops", "pre-training FLOPs", CHALK_U_FLOPS, CHALK_DETAIL,
                     cost.pretrain_flops);
    chalk_put_number(r, "rl_flops", "RL FLOPs (at pre-training's utilisation)", CHALK_U_FLOPS,
                     CHALK_DETAIL, cost.rl_flops);
    chalk_put_number(r, "inference_flops", "inference FLOPs (at pre-training's utilisation)",
                     CHALK_U_FLOPS, CHALK_DETAIL, cost.inference_flops);
    chalk_put_number(r, "total_flops", "lifetime FLOPs", CHALK_U_FLOPS, CHALK_DETAIL,
                     cost.total_flops);
}


/* ---- equal-cost
 * ---------------------------------------------------------------------------------- */

/* The board's first pass multiplied by the efficiency: k eta / 6 is k / (6 (1/eta)), the
 * corrected weight at efficiency 1/eta. So the slipped token counts are the corrected
 * ones at the inverted efficiencies (exercise 4.6's contract: slipped = corrected x eta^2). */
static overtraining_factors inverted(overtraining_factors f)
{
    f.rl_efficiency = 1.0 / f.rl_efficiency;
    f.inference_efficiency = 1.0 / f.inference_efficiency;
    return f;
}

static void build_equal_cost(const chalk_point *p, chalk_record *r)
{
    overtraining_factors f = factors_at(p);
    overtraining_split s = split_at(p);
    chalk_clear(r);
    chalk_put_number(r, "rl_flops_per_param", "k_RL", CHALK_U_PLAIN, CHALK_INPUT,
                     f.rl_flops_per_param);
    chalk_put_number(r, "rl_efficiency", "RL efficiency", CHALK_U_PLAIN, CHALK_INPUT,
                     f.rl_efficiency);
    chalk_put_number(r, "inference_efficiency", "serving efficiency", CHALK_U_PLAIN, CHALK_INPUT,
                     f.inference_efficiency);
    chalk_put_number(r, "pretrain_share", "pre-training share", CHALK_U_FRACTION, CHALK_INPUT,
                     s.pretrain_share);
    chalk_put_number(r, "rl_share", "RL share", CHALK_U_FRACTION, CHALK_INPUT, s.rl_share);
    chalk_put_number(r, "inference_share", "serving share", CHALK_U_FRACTION, CHALK_INPUT,
                     s.inference_share);

    overtraining_weights w = overtraining_token_weights(&f);
    overtraining_token_ratios t = overtraining_equal_cost(&f, &s);
    chalk_put_number(r, "rl_weight", "an RL token, in pre-training tokens", CHALK_U_PLAIN, 0, w.rl);
    chalk_put_number(r, "inference_weight", "a served token, in pre-training tokens", CHALK_U_PLAIN,
                     0, w.inference);
    chalk_put_number(r, "rl_tokens_per_pretrain_token", "RL tokens per pre-training token",
                     CHALK_U_PLAIN, 0, t.rl_per_pretrain);
    chalk_put_number(r, "inference_tokens_per_pretrain_token",
                     "served tokens per pre-training token", CHALK_U_PLAIN, 0,
                     t.inference_per_pretrain);

    overtraining_weights slip = overtraining_token_weights_slipped(&f);
    overtraining_factors inv = inverted(f);
    overtraining_token_ratios ts = overtraining_equal_cost(&inv, &s);
    chalk_put_number(r, "rl_weight_slipped", "slipped: an RL token", CHALK_U_PLAIN, CHALK_DETAIL,
                     slip.rl);
    chalk_put_number(r, "inference_weight_slipped", "slipped: a served token", CHALK_U_PLAIN,
                     CHALK_DETAIL, slip.inference);
    chalk_put_number(r, "rl_tokens_per_pretrain_token_slipped", "slipped: RL tokens per token",
                     CHALK_U_PLAIN, CHALK_DETAIL, ts.rl_per_pretrain);
    chalk_put_number(r, "inference_tokens_per_pretrain_token_slipped",
                     "slipped: served tokens per token", CHALK_U_PLAIN, CHALK_DETAIL,
                     ts.inference_per_pretrain);
    chalk_put_number(r, "slip_factor_rl", "corrected / slipped, RL", CHALK_U_RATIO, 0,
                     w.rl / slip.rl);
    chalk_put_number(r, "slip_factor_inference", "corrected / slipped, serving", CHALK_U_RATIO,
                     CHALK_DETAIL, w.inference / slip.inference);
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

static int check_iso_loss(const chalk_point *p)
{
    int status = check_target(p);
    if (!status && has(p, &F_MATCH_EQUAL_COST))
        status = chalk_fail("iso-loss: --match-equal-cost needs traffic; use --match-tokens");
    if (!status && !has(p, &F_PARAMS))
        status = chalk_fail("iso-loss needs --params N (a value or a sweep)");
    return status;
}

static int check_lifetime(const chalk_point *p)
{
    int status = check_target(p);
    if (!status)
        status = check_serving(p);
    if (!status && !has(p, &F_PARAMS))
        status = chalk_fail("lifetime needs --params N (a value or a sweep)");
    return status;
}

static int check_inference_optimal(const chalk_point *p)
{
    int status = check_target(p);
    return status ? status : check_serving(p);
}

static int check_overtrain(const chalk_point *p)
{
    const char *cmd = "overtrain";
    int status = CHALK_OK;
    if (has(p, &F_RUN)) {
        const chalk_flag *const not_with_run[] = {&CHALK_F_PARAMS_ACTIVE, &CHALK_F_MODEL,
                                                  &F_PRETRAIN_TOKENS, &F_TOKENS_PER_S};
        for (int i = 0; i < 4 && !status; i++)
            if (has(p, not_with_run[i]))
                status = chalk_fail("%s: --run sets the parameters and the tokens; drop %s", cmd,
                                    not_with_run[i]->name);
    } else {
        static const chalk_flag *const size[] = {&CHALK_F_PARAMS_ACTIVE, &CHALK_F_MODEL, &F_RUN,
                                                 NULL};
        static const chalk_flag *const tokens[] = {&F_TOKENS_PER_S, &F_PRETRAIN_TOKENS, &F_RUN,
                                                   NULL};
        status = chalk_exactly_one(p, size);
        if (!status)
            status = chalk_exactly_one(p, tokens);
    }
    if (!status)
        status = chalk_together(p, &F_TOKENS_PER_S, &F_DAYS);
    if (!status && has(p, &F_USE_PROBABILITY) && !has(p, &F_TOKENS_PER_S))
        status = chalk_fail("%s: --use-probability derates served tokens: it goes with "
                            "--tokens-per-s",
                            cmd);
    return status ? status : check_shares(p);
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
#define TARGET {&F_LOSS, SWEEPS}, {&F_MATCH_PARAMS}, {&F_MATCH_TOKENS}, {&F_MATCH_EQUAL_COST}
#define SERVING                                                                                    \
    {&F_INFERENCE_TOKENS, SWEEPS}, {&F_TOKENS_PER_S, SWEEPS}, {&F_DAYS, SWEEPS},                    \
        {&F_USE_PROBABILITY, SWEEPS, 1}
#define LIFE                                                                                       \
    {&F_RL_FLOPS, SWEEPS, DEFAULT_RL_FLOPS_PER_PARAM},                                             \
        {&F_RL_EFFICIENCY, SWEEPS, DEFAULT_EFFICIENCY},                                            \
        {&F_INFERENCE_EFFICIENCY, SWEEPS, DEFAULT_EFFICIENCY}, {&F_RL_SHARE, SWEEPS, DEFAULT_SHARE}, \
        {&F_INFERENCE_SHARE, SWEEPS, DEFAULT_SHARE}

static const chalk_input LOSS[] = {{&F_PARAMS, SWEEPS}, {&CHALK_F_MODEL}, {&F_TOKENS, SWEEPS},
                                   {&F_FIT}, {NULL}};
static const chalk_input CHINCHILLA[] = {{&F_FLOPS, SWEEPS}, {&F_PARAMS, SWEEPS}, {&F_LOSS, SWEEPS},
                                         {&F_FIT}, {NULL}};
static const chalk_input ISO_LOSS[] = {{&F_LOSS, SWEEPS}, {&F_MATCH_PARAMS}, {&F_MATCH_TOKENS},
                                       {&F_PARAMS, SWEEPS}, {&F_FIT}, {NULL}};
static const chalk_input LIFETIME[] = {TARGET, {&F_PARAMS, SWEEPS}, SERVING,
                                       {&F_INFERENCE_EFFICIENCY, SWEEPS, 1}, {&F_FIT}, {NULL}};
static const chalk_input OPTIMAL[] = {TARGET, SERVING, {&F_INFERENCE_EFFICIENCY, SWEEPS, 1},
                                      {&F_FIT}, {NULL}};
static const chalk_input OVERTRAIN[] = {{&CHALK_F_PARAMS_ACTIVE}, {&CHALK_F_MODEL}, {&F_RUN},
                                        {&F_TOKENS_PER_S, SWEEPS}, {&F_DAYS, SWEEPS},
                                        {&F_USE_PROBABILITY, SWEEPS, 1},
                                        {&F_PRETRAIN_TOKENS, SWEEPS},
                                        {&F_TOKENS_PER_PARAM, SWEEPS, CHINCHILLA_TOKENS_PER_PARAM},
                                        LIFE, {&F_FIT}, {NULL}};
static const chalk_input EQUAL_COST[] = {LIFE, {NULL}};
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

static const char *const ABOUT_ISO_LOSS[] = {
    "The tokens a model of --params N needs to reach a loss (--loss L, or the loss of",
    "a model of --match-params N trained compute-optimally or on --match-tokens D):",
    "  D(N) = (B / (L - E - A / N^alpha))^(1/beta)   null below the smallest model",
    "beside the compute-optimal tokens for N (tokens_opt) and the cheapest model's",
    "compute spread over N parameters (tokens_same_flops). --params may be a sweep.",
    NULL};
static const char *const EXAMPLES_ISO_LOSS[] = {"chalk iso-loss --loss 1.96 --params 3e10:1e12:9",
                                                "chalk iso-loss --match-params 100e9 --params 50e9",
                                                NULL};

static const char *const ABOUT_LIFETIME[] = {
    "The lifetime cost of a model of --params N trained just long enough to reach a",
    "loss (as for iso-loss; --match-equal-cost: the model the lecture's heuristic",
    "trains for this traffic) and then serving the traffic:",
    "  6 N D(N) + 2 N D_inf / eta_inf      FLOPs at pre-training's utilisation",
    "The traffic is --inference-tokens, or --tokens-per-s x --days x --use-probability.",
    "--params (or one traffic input) may be a sweep.",
    NULL};
static const char *const EXAMPLES_LIFETIME[] = {
    "chalk lifetime --match-params 100e9 --inference-tokens 2.6e14 --params 4e10:4e11:7", NULL};

static const char *const ABOUT_OPTIMAL[] = {
    "The model of least pre-training plus inference FLOPs that reaches a loss (Sardana",
    "et al. 2023): the root, found by bisection, of 6 D (1 - psi) + 2 D_inf / eta_inf,",
    "psi = alpha A N^-alpha / (beta B D^-beta), where inference costs psi - 1 times",
    "pre-training. Beside it the compute-optimal model of the same loss (chinchilla_*)",
    "and the matched model (reference_*), with the FLOPs saved against the latter.",
    "The target and traffic flags are as for lifetime; one traffic input may be a sweep.",
    NULL};
static const char *const EXAMPLES_OPTIMAL[] = {
    "chalk inference-optimal --match-params 13e9 --inference-tokens 2e12 --fit "
    "hoffmann-unrounded",
    "chalk inference-optimal --loss 1.95 --inference-tokens 1e11:1e16:6",
    "chalk inference-optimal --match-params 100e9 --match-equal-cost --tokens-per-s 5e7 --days "
    "60 --inference-efficiency 0.3",
    NULL};

static const char *const ABOUT_OVERTRAIN[] = {
    "How far past a tokens-per-parameter rule (Chinchilla's 20) a model is trained:",
    "  overtrain_factor = pretrain_tokens / (20 x params_active)",
    "The model: --params-active N, --model NAME, or a published --run NAME (which also",
    "sets its tokens). The tokens: --pretrain-tokens D, or the traffic --tokens-per-s R",
    "for --days T (derated by --use-probability), trained on as many tokens as equal",
    "costs allow (chalk equal-cost; by default D_pre = D_inf). With --fit, also against",
    "that fit's compute-optimal ratio for the model. One number may be a sweep.",
    NULL};
static const char *const EXAMPLES_OVERTRAIN[] = {
    "chalk overtrain --tokens-per-s 5e7 --days 60 --params-active 100e9",
    "chalk overtrain --pretrain-tokens 150e12 --params-active 100e9",
    "chalk overtrain --run llama3-8b", NULL};

static const char *const ABOUT_EQUAL_COST[] = {
    "A model's life costs 6 N D + k N D_RL / eta_RL + 2 N D_inf / eta_inf. In",
    "pre-training tokens of the same model an RL token costs w_RL = k / (6 eta_RL) and a",
    "served token w_inf = 2 / (6 eta_inf); spending the shares given (thirds by default)",
    "gives D_RL / D = share_RL / (share_pre w_RL), and likewise for serving. The *_slipped",
    "keys redo it as the lecture first did, multiplying by the efficiency. Defaults are",
    "the flashcards': k = 3, both efficiencies 1/3 (D = 1.5 D_RL = D_inf).",
    NULL};
static const char *const EXAMPLES_EQUAL_COST[] = {
    "chalk equal-cost",
    "chalk equal-cost --rl-flops-per-param 2 --rl-efficiency 0.3 --inference-efficiency 0.3",
    "chalk equal-cost --rl-share 0.25 --inference-share 0.5", NULL};

static const char *const ABOUT_HEURISTIC[] = {
    "For a cost a u^-mu + b u^nu, at its minimum the falling term is nu / mu times the",
    "rising one (equal only when mu = nu), and the point where the",
    "two terms are equal costs equal_cost_penalty times the minimum.", NULL};
static const char *const EXAMPLES_HEURISTIC[] = {
    "chalk heuristic --falling-exponent 1 --rising-exponent 2",
    "chalk heuristic --falling-exponent 0.34 --rising-exponent 0.28", NULL};

static const chalk_command COMMANDS[] = {
    {.name = "loss",
     .summary = "Chinchilla's loss law at N parameters and D tokens (4.2)",
     .title = "chalk loss: the Chinchilla loss law, L = E + A/N^alpha + B/D^beta",
     .inputs = LOSS, .check = check_loss, .build = build_loss,
     .about = ABOUT_LOSS, .examples = EXAMPLES_LOSS},
    {.name = "chinchilla",
     .summary = "the compute-optimal model of a budget, a size or a loss (4.3)",
     .title = "chalk chinchilla: the compute-optimal model under C = 6ND (4.3)",
     .inputs = CHINCHILLA, .check = check_chinchilla, .build = build_chinchilla,
     .about = ABOUT_CHINCHILLA, .examples = EXAMPLES_CHINCHILLA},
    {.name = "iso-loss",
     .summary = "the tokens each model size needs to reach a loss (4.4)",
     .title = "chalk iso-loss: what models of each size need to reach a loss (4.4)",
     .inputs = ISO_LOSS, .check = check_iso_loss, .build = build_iso_loss,
     .about = ABOUT_ISO_LOSS, .examples = EXAMPLES_ISO_LOSS},
    {.name = "heuristic",
     .summary = "the equal-cost heuristic, exactly (4.6)",
     .title = "chalk heuristic: the two terms of a u^-mu + b u^nu at its minimum (4.6)",
     .inputs = HEURISTIC, .check = check_heuristic, .build = build_heuristic,
     .about = ABOUT_HEURISTIC, .examples = EXAMPLES_HEURISTIC},
    {.name = "equal-cost",
     .summary = "RL and served tokens per pre-training token, slip and fix (4.7)",
     .title = "chalk equal-cost: RL and served tokens per pre-training token at equal costs (4.7)",
     .inputs = EQUAL_COST, .check = check_shares, .build = build_equal_cost,
     .about = ABOUT_EQUAL_COST, .examples = EXAMPLES_EQUAL_COST},
    {.name = "overtrain",
     .summary = "how far past 20 tokens per parameter: the lecture's ~100x (4.8)",
     .title = "chalk overtrain: how far past Chinchilla's 20 tokens per parameter (4.8)",
     .inputs = OVERTRAIN, .check = check_overtrain, .build = build_overtrain,
     .about = ABOUT_OVERTRAIN, .examples = EXAMPLES_OVERTRAIN},
    {.name = "lifetime",
     .summary = "pre-training plus inference FLOPs of a model at a loss (4.9)",
     .title = "chalk lifetime: pre-training plus inference FLOPs of a model at a loss (4.9)",
     .inputs = LIFETIME, .check = check_lifetime, .build = build_lifetime,
     .about = ABOUT_LIFETIME, .examples = EXAMPLES_LIFETIME},
    {.name = "inference-optimal",
     .summary = "the model of least lifetime FLOPs for a loss (4.9)",
     .title = "chalk inference-optimal: least pre-training plus inference FLOPs for a loss (4.9)",
     .inputs = OPTIMAL, .check = check_inference_optimal, .build = build_inference_optimal,
     .about = ABOUT_OPTIMAL, .examples = EXAMPLES_OPTIMAL},
};

const chalk_chapter chalk_chapter_04_overtraining = {
    .number = 4,
    .title = "over-training: why frontier models are trained far past Chinchilla",
    .commands = COMMANDS,
    .count = CHALK_COUNT(COMMANDS),
    .presets = PRESETS,
};
