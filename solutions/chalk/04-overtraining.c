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

#define G_FIT "scaling law"
#define G_TARGET "target quality (one of)"
#define G_SERVING "serving (inference tokens, or a rate and a duration)"
#define G_LIFE "RL and serving (defaults: the lecture's flashcards)"
#define G_MODEL "model"

/* ---- this chapter's flags ---------------------------------------------------------------- */

static const chalk_flag F_FIT = {
    .name = "--fit",
    .arg = "NAME",
    .key = "fit",
    .group = G_FIT,
    .help = "besiroglu (default), hoffmann (as printed) or hoffmann-unrounded (chalk list fits)",
};
static const chalk_flag F_PARAMS = {
    .name = "--params",
    .arg = "N",
    .key = "params",
    .group = G_MODEL,
    .help = "parameters N (for a mixture of experts, the active ones); may be a sweep",
    .min = 1e3,
    .max = 1e16,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_TOKENS = {
    .name = "--tokens",
    .arg = "D",
    .key = "tokens",
    .group = G_MODEL,
    .help = "training tokens D; may be a sweep",
    .min = 1e3,
    .max = 1e20,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_FLOPS = {
    .name = "--flops",
    .arg = "C",
    .key = "flops",
    .group = G_MODEL,
    .help = "pre-training compute C = 6 N D, FLOPs; may be a sweep",
    .min = 1e9,
    .max = 1e36,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_LOSS = {
    .name = "--loss",
    .arg = "L",
    .key = "loss",
    .group = G_TARGET,
    .help = "the target loss, nats per token; may be a sweep",
    .min = 0,
    .max = 20,
    .rules = CHALK_ABOVE_MIN | CHALK_SWEEPS,
};
static const chalk_flag F_MATCH_PARAMS = {
    .name = "--match-params",
    .arg = "N",
    .key = "match_params",
    .group = G_TARGET,
    .help = "the target is the loss of a model of N parameters, trained compute-optimally "
            "unless --match-tokens or --match-equal-cost says otherwise",
    .min = 1e3,
    .max = 1e16,
};
static const chalk_flag F_MATCH_TOKENS = {
    .name = "--match-tokens",
    .arg = "D",
    .key = "match_tokens",
    .group = G_TARGET,
    .help = "with --match-params: that model is trained on D tokens",
    .min = 1e3,
    .max = 1e20,
};
static const chalk_flag F_MATCH_EQUAL_COST = {
    .name = "--match-equal-cost",
    .arg = NULL,
    .key = NULL,
    .group = G_TARGET,
    .help = "with --match-params: that model is trained as the lecture's heuristic says, on "
            "as many tokens as equal thirds of the cost allow for the traffic served",
};
static const chalk_flag F_INFERENCE_TOKENS = {
    .name = "--inference-tokens",
    .arg = "D",
    .key = "inference_tokens",
    .group = G_SERVING,
    .help = "tokens served over the model's life; may be a sweep",
    .min = 0,
    .max = 1e22,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_TOKENS_PER_S = {
    .name = "--tokens-per-s",
    .arg = "R",
    .key = "tokens_per_s",
    .group = G_SERVING,
    .help = "tokens one model serves per second; may be a sweep",
    .min = 0,
    .max = 1e12,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_DAYS = {
    .name = "--days",
    .arg = "T",
    .key = "days",
    .group = G_SERVING,
    .help = "how long the model is served, days; may be a sweep",
    .min = 0,
    .max = 36525,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_USE_PROBABILITY = {
    .name = "--use-probability",
    .arg = "P",
    .key = "use_probability",
    .group = G_SERVING,
    .help = "the chance the run is deployed at all (default 1): derates the served tokens",
    .min = 0,
    .max = 1,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_INFERENCE_EFFICIENCY = {
    .name = "--inference-efficiency",
    .arg = "E",
    .key = "inference_efficiency",
    .group = G_LIFE,
    .help = "serving's FLOP utilisation over pre-training's, (0, 1]",
    .min = 0,
    .max = 1,
    .rules = CHALK_ABOVE_MIN | CHALK_SWEEPS,
};
static const chalk_flag F_RL_FLOPS = {
    .name = "--rl-flops-per-param",
    .arg = "K",
    .key = "rl_flops_per_param",
    .group = G_LIFE,
    .help = "FLOPs per parameter per RL token: 2 (rollouts only) to 6 (all trained on); "
            "default 3",
    .min = 0,
    .max = 100,
    .rules = CHALK_ABOVE_MIN | CHALK_SWEEPS,
};
static const chalk_flag F_RL_EFFICIENCY = {
    .name = "--rl-efficiency",
    .arg = "E",
    .key = "rl_efficiency",
    .group = G_LIFE,
    .help = "RL's FLOP utilisation over pre-training's, (0, 1]; default 1/3",
    .min = 0,
    .max = 1,
    .rules = CHALK_ABOVE_MIN | CHALK_SWEEPS,
};
static const chalk_flag F_RL_SHARE = {
    .name = "--rl-share",
    .arg = "S",
    .key = "rl_share",
    .group = G_LIFE,
    .help = "fraction of the lifetime cost spent on RL (default 1/3)",
    .min = 0,
    .max = 1,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_INFERENCE_SHARE = {
    .name = "--inference-share",
    .arg = "S",
    .key = "inference_share",
    .group = G_LIFE,
    .help = "fraction of the lifetime cost spent on serving (default 1/3); pre-training gets "
            "the rest",
    .min = 0,
    .max = 1,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_TOKENS_PER_PARAM = {
    .name = "--tokens-per-param",
    .arg = "X",
    .key = "tokens_per_param_rule",
    .group = G_MODEL,
    .help = "the rule to measure against (default 20, Chinchilla's)",
    .min = 0,
    .max = 1e6,
    .rules = CHALK_ABOVE_MIN | CHALK_SWEEPS,
};
static const chalk_flag F_PRETRAIN_TOKENS = {
    .name = "--pretrain-tokens",
    .arg = "D",
    .key = "pretrain_tokens",
    .group = G_MODEL,
    .help = "pre-training tokens, instead of deriving them from the traffic; may be a sweep",
    .min = 1e3,
    .max = 1e20,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_RUN = {
    .name = "--run",
    .arg = "NAME",
    .key = "run",
    .group = G_MODEL,
    .help = "a published training run: its parameters and tokens (chalk list runs)",
};
static const chalk_flag F_FALLING = {
    .name = "--falling-exponent",
    .arg = "MU",
    .key = "falling_exponent",
    .group = "exponents",
    .help = "exponent mu of the falling term, u^-mu; may be a sweep",
    .min = 0,
    .max = 100,
    .rules = CHALK_ABOVE_MIN | CHALK_SWEEPS,
};
static const chalk_flag F_RISING = {
    .name = "--rising-exponent",
    .arg = "NU",
    .key = "rising_exponent",
    .group = "exponents",
    .help = "exponent nu of the rising term, u^nu; may be a sweep",
    .min = 0,
    .max = 100,
    .rules = CHALK_ABOVE_MIN | CHALK_SWEEPS,
};

/* ---- the flashcards' defaults (lecture notes 5.4, flashcard 18) ----------------------- */

#define DEFAULT_RL_FLOPS_PER_PARAM 3.0
#define DEFAULT_EFFICIENCY (1.0 / 3.0)
#define DEFAULT_SHARE (1.0 / 3.0)
#define CHINCHILLA_TOKENS_PER_PARAM 20.0 /* Hoffmann et al. 2022: 70B on 1.4T tokens */

/* ---- inputs ----------------------------------------------------------------------------- */

enum { MAX_INPUTS = 12 };

/* The flags a command read, each a value or a sweep, at most one varying. */
typedef struct inputs {
    chalk_sweep s[MAX_INPUTS];
    int n;
    const chalk_sweep *swept;
} inputs;

static void inputs_free(inputs *in)
{
    for (int i = 0; i < in->n; i++)
        chalk_sweep_free(&in->s[i]);
}

/* Reads the flags of a NULL-terminated list that take numbers; then checks that at
 * most one sweeps. Frees what it read on failure. */
static int inputs_read(const chalk_args *a, const chalk_flag *const *flags, inputs *in)
{
    *in = (inputs){0};
    int status = CHALK_OK;
    for (int i = 0; flags[i] && !status; i++) {
        if (!flags[i]->arg || flags[i]->max <= flags[i]->min)
            continue; /* a switch or a name */
        in->s[in->n].flag = flags[i];
        status = chalk_sweep_read(a, flags[i], &in->s[in->n++]);
    }
    chalk_sweep *ptrs[MAX_INPUTS];
    for (int i = 0; i < in->n; i++)
        ptrs[i] = &in->s[i];
    if (!status)
        status = chalk_one_sweep(ptrs, in->n, &in->swept);
    if (status)
        inputs_free(in);
    return status;
}

static const chalk_sweep *input_of(const inputs *in, const chalk_flag *f)
{
    for (int i = 0; i < in->n; i++)
        if (in->s[i].flag == f)
            return &in->s[i];
    return NULL;
}

static bool given(const inputs *in, const chalk_flag *f)
{
    const chalk_sweep *s = input_of(in, f);
    return s && s->given;
}

/* The value of `f` at `row`, or `fallback` when it was not given. */
static double value_at(const inputs *in, const chalk_flag *f, long row, double fallback)
{
    const chalk_sweep *s = input_of(in, f);
    return s && s->given ? chalk_sweep_at(s, row) : fallback;
}

static long rows_of(const inputs *in)
{
    return in->swept ? in->swept->points : 1;
}

/* ---- names of fits and runs ------------------------------------------------------------- */

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

/* "unknown KIND \"NAME\" (did you mean ...?)", as chalk_fail. */
static int unknown_name(const char *kind, const char *name, size_t (*count)(void),
                        const char *(*name_at)(size_t))
{
    enum { MAX_NAMES = 32 };
    const char *names[MAX_NAMES];
    size_t n = count() < MAX_NAMES ? count() : MAX_NAMES;
    for (size_t i = 0; i < n; i++)
        names[i] = name_at(i);
    char hint[256];
    chalk_suggest(hint, sizeof hint, name, names, n);
    return chalk_fail("unknown %s \"%s\"%s", kind, name, hint);
}

/* The fit named by --fit, or the default (the first of lib/scaling.c). */
static int fit_read(const chalk_args *a, const cost_scaling_fit **fit)
{
    size_t n;
    const cost_scaling_fit *const *all = cost_scaling_fits(&n);
    const char *name = chalk_value(a, &F_FIT);
    if (!name) {
        *fit = all[0];
        return CHALK_OK;
    }
    *fit = cost_scaling_fit_find(name);
    return *fit ? CHALK_OK : unknown_name("fit", name, fit_count, fit_name);
}

static void put_fit(chalk_record *r, const cost_scaling_fit *fit)
{
    chalk_put_string(r, "fit", "scaling law", CHALK_INPUT, fit->name);
}

/* Exactly one of `flags` (n of them) was given: fails naming them otherwise. */
static int exactly_one(const chalk_args *a, const char *cmd, const chalk_flag *const *flags, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        count += chalk_given(a, flags[i]);
    if (count == 1)
        return CHALK_OK;
    char list[192] = "";
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 i == 0       ? ""
                 : i == n - 1 ? " or "
                              : ", ",
                 flags[i]->name);
    return chalk_fail("%s needs exactly one of %s%s", cmd, list, count ? " (not several)" : "");
}

/* ---- what a command read ----------------------------------------------------------------- */

typedef struct ctx {
    const cost_scaling_fit *fit;
    inputs in;
    bool match_equal_cost;        /* --match-equal-cost */
    double default_efficiency;    /* RL's and serving's when not given */
    double params_active;         /* overtrain, loss: --params-active, --model or --run */
    double params_total;          /* 0 when unknown */
    const cost_training_run *run; /* overtrain --run */
    const cost_model *model;      /* --model */
} ctx;

/* Reads --fit, the numbers of `flags`, and --model / --run when the command takes them. */
static int ctx_read(const chalk_args *a, const chalk_flag *const *flags, double efficiency, ctx *c)
{
    *c = (ctx){.default_efficiency = efficiency};
    int status = fit_read(a, &c->fit);
    if (!status)
        status = inputs_read(a, flags, &c->in);
    if (status)
        return status;
    c->match_equal_cost = chalk_given(a, &F_MATCH_EQUAL_COST);
    const char *name = chalk_value(a, &CHALK_F_MODEL);
    if (name && !(c->model = cost_model_find(name)))
        status = chalk_unknown_model(name);
    name = chalk_value(a, &F_RUN);
    if (!status && name && !(c->run = cost_training_run_find(name)))
        status = unknown_name("run", name, run_count, run_name);
    if (!status && c->model) {
        c->params_active = cost_model_params_active(c->model);
        c->params_total = cost_model_params_total(c->model);
    }
    if (!status && c->run) {
        c->params_active = c->run->params_active;
        c->params_total = c->run->params_total;
    }
    if (!status && chalk_given(a, &CHALK_F_PARAMS_ACTIVE))
        status = chalk_number(a, &CHALK_F_PARAMS_ACTIVE, &c->params_active);
    if (status)
        inputs_free(&c->in);
    return status;
}

static int ctx_emit(const chalk_args *a, ctx *c, const char *title,
                    void (*build)(const void *, long, chalk_record *))
{
    chalk_report rep = {
        .title = title, .rows = rows_of(&c->in), .swept = c->in.swept, .build = build, .ctx = c};
    int status = chalk_emit(a, &rep);
    inputs_free(&c->in);
    return status;
}

/* Echoes the number given for `f` at `row` as an input, under the flag's key. */
static void put_input(chalk_record *r, const ctx *c, const chalk_flag *f, long row, chalk_unit unit)
{
    if (given(&c->in, f))
        chalk_put_number(r, f->key, f->key, unit, CHALK_INPUT, value_at(&c->in, f, row, 0.0));
}

/* ---- the target quality and the traffic ------------------------------------------------------ */

/* A quality to reach: --loss, or the loss of a model to match. */
typedef struct target {
    double loss;       /* nats per token */
    double ref_params; /* the matched model (the compute-optimal one for --loss) */
    double ref_tokens;
} target;

/* Tokens served in a row: --inference-tokens, or rate x days x use probability. */
static double served_tokens(const ctx *c, long row)
{
    if (given(&c->in, &F_INFERENCE_TOKENS))
        return value_at(&c->in, &F_INFERENCE_TOKENS, row, 0.0);
    overtraining_fleet fleet = {
        .tokens_per_s = value_at(&c->in, &F_TOKENS_PER_S, row, 0.0),
        .days = value_at(&c->in, &F_DAYS, row, 0.0),
        .use_probability = value_at(&c->in, &F_USE_PROBABILITY, row, 1.0),
    };
    return overtraining_inference_tokens(&fleet);
}

static overtraining_factors factors_at(const ctx *c, long row)
{
    overtraining_factors f = {
        .rl_flops_per_param = value_at(&c->in, &F_RL_FLOPS, row, DEFAULT_RL_FLOPS_PER_PARAM),
        .rl_efficiency = value_at(&c->in, &F_RL_EFFICIENCY, row, c->default_efficiency),
        .inference_efficiency =
            value_at(&c->in, &F_INFERENCE_EFFICIENCY, row, c->default_efficiency),
    };
    return f;
}

/* The lecture's thirds unless --rl-share / --inference-share say otherwise. */
static overtraining_split split_at(const ctx *c, long row)
{
    overtraining_split s;
    s.rl_share = value_at(&c->in, &F_RL_SHARE, row, DEFAULT_SHARE);
    s.inference_share = value_at(&c->in, &F_INFERENCE_SHARE, row, DEFAULT_SHARE);
    s.pretrain_share = 1.0 - s.rl_share - s.inference_share;
    return s;
}

/* Every row must leave pre-training a share of the cost. */
static int check_shares(const ctx *c)
{
    for (long row = 0; row < rows_of(&c->in); row++) {
        overtraining_split s = split_at(c, row);
        if (s.pretrain_share <= 0.0)
            return chalk_fail("--rl-share %g and --inference-share %g leave nothing for "
                              "pre-training: they must sum to less than 1",
                              s.rl_share, s.inference_share);
    }
    return CHALK_OK;
}

static target target_at(const ctx *c, long row)
{
    target t;
    if (given(&c->in, &F_LOSS)) {
        t.loss = value_at(&c->in, &F_LOSS, row, 0.0);
        overtraining_optimum o = overtraining_chinchilla_for_loss(c->fit, t.loss);
        t.ref_params = o.params;
        t.ref_tokens = o.tokens;
        return t;
    }
    t.ref_params = value_at(&c->in, &F_MATCH_PARAMS, row, 0.0);
    if (given(&c->in, &F_MATCH_TOKENS)) {
        t.ref_tokens = value_at(&c->in, &F_MATCH_TOKENS, row, 0.0);
    } else if (c->match_equal_cost) {
        /* the heuristic: pre-train on the tokens equal costs give for this traffic */
        overtraining_factors f = factors_at(c, row);
        overtraining_split s = split_at(c, row);
        t.ref_tokens =
            served_tokens(c, row) / overtraining_equal_cost(&f, &s).inference_per_pretrain;
    } else {
        t.ref_tokens = overtraining_chinchilla_for_params(c->fit, t.ref_params).tokens;
    }
    t.loss = overtraining_loss(c->fit, t.ref_params, t.ref_tokens);
    return t;
}

/* Why a loss cannot be reached at all. */
static const char *unreachable(chalk_record *r, const ctx *c, double loss)
{
    return chalk_fmt(r,
                     "a loss of %.4g nats is not above the %s fit's irreducible %.4g: no model "
                     "reaches it",
                     loss, c->fit->name, c->fit->irreducible);
}

/* Checks the target and serving flags a command was given. */
static int check_target(const chalk_args *a, const char *cmd)
{
    const chalk_flag *const one[] = {&F_LOSS, &F_MATCH_PARAMS};
    int status = exactly_one(a, cmd, one, 2);
    bool matching = chalk_given(a, &F_MATCH_PARAMS);
    if (!status && !matching &&
        (chalk_given(a, &F_MATCH_TOKENS) || chalk_given(a, &F_MATCH_EQUAL_COST)))
        status =
            chalk_fail("%s: --match-tokens and --match-equal-cost go with --match-params", cmd);
    if (!status && chalk_given(a, &F_MATCH_TOKENS) && chalk_given(a, &F_MATCH_EQUAL_COST))
        status = chalk_fail("%s: give --match-tokens or --match-equal-cost, not both", cmd);
    return status;
}

static int check_serving(const chalk_args *a, const char *cmd)
{
    const chalk_flag *const one[] = {&F_INFERENCE_TOKENS, &F_TOKENS_PER_S};
    int status = exactly_one(a, cmd, one, 2);
    if (!status && chalk_given(a, &F_TOKENS_PER_S) != chalk_given(a, &F_DAYS))
        status = chalk_fail("%s: --tokens-per-s and --days go together", cmd);
    if (!status && chalk_given(a, &F_INFERENCE_TOKENS) &&
        (chalk_given(a, &F_DAYS) || chalk_given(a, &F_USE_PROBABILITY)))
        status = chalk_fail("%s: --days and --use-probability go with --tokens-per-s, not "
                            "--inference-tokens",
                            cmd);
    return status;
}

/* Echoes the target and the traffic. */
static void put_target(chalk_record *r, const ctx *c, long row, const target *t)
{
    put_fit(r, c->fit);
    if (given(&c->in, &F_LOSS)) {
        put_input(r, c, &F_LOSS, row, CHALK_U_PLAIN);
        return;
    }
    put_input(r, c, &F_MATCH_PARAMS, row, CHALK_U_PARAMS);
    chalk_put_number(r, "match_tokens", "matched model's tokens", CHALK_U_TOKENS, CHALK_INPUT,
                     t->ref_tokens);
    chalk_put_number(r, "loss", "target loss (nats/token)", CHALK_U_PLAIN, 0, t->loss);
}

static void put_serving(chalk_record *r, const ctx *c, long row, double served)
{
    put_input(r, c, &F_TOKENS_PER_S, row, CHALK_U_TOKENS_PER_S);
    put_input(r, c, &F_DAYS, row, CHALK_U_PLAIN);
    put_input(r, c, &F_USE_PROBABILITY, row, CHALK_U_PLAIN);
    chalk_put_number(r, "inference_tokens", "served tokens", CHALK_U_TOKENS,
                     given(&c->in, &F_INFERENCE_TOKENS) ? CHALK_INPUT : 0, served);
    chalk_put_number(r, "inference_efficiency", "serving efficiency", CHALK_U_PLAIN, CHALK_INPUT,
                     factors_at(c, row).inference_efficiency);
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

static double params_at(const ctx *c, long row)
{
    return given(&c->in, &F_PARAMS) ? value_at(&c->in, &F_PARAMS, row, 0.0) : c->params_active;
}

static void build_loss(const void *p, long row, chalk_record *r)
{
    const ctx *c = p;
    double params = params_at(c, row), tokens = value_at(&c->in, &F_TOKENS, row, 0.0);
    chalk_clear(r);
    put_fit(r, c->fit);
    if (c->model)
        chalk_put_string(r, "model", "model", CHALK_INPUT, c->model->name);
    chalk_put_number(r, "params", "parameters", CHALK_U_PARAMS, CHALK_INPUT, params);
    chalk_put_number(r, "tokens", "training tokens", CHALK_U_TOKENS, CHALK_INPUT, tokens);
    chalk_put_number(r, "loss", "loss (nats/token)", CHALK_U_PLAIN, 0,
                     overtraining_loss(c->fit, params, tokens));
    chalk_put_number(r, "irreducible", "irreducible loss", CHALK_U_PLAIN, CHALK_DETAIL,
                     c->fit->irreducible);
    put_terms(r, c->fit, params, tokens, 0);
    chalk_put_number(r, "tokens_per_param", "tokens per parameter", CHALK_U_PLAIN, 0,
                     tokens / params);
    chalk_put_number(r, "flops", "training FLOPs, 6ND", CHALK_U_FLOPS, 0,
                     train_flops(params, tokens));
}

static int run_loss(const chalk_args *a)
{
    const chalk_flag *const one[] = {&F_PARAMS, &CHALK_F_MODEL};
    int status = exactly_one(a, "loss", one, 2);
    if (!status && !chalk_given(a, &F_TOKENS))
        status = chalk_fail("loss needs --tokens D (training tokens)");
    ctx c;
    static const chalk_flag *const flags[] = {&F_PARAMS, &F_TOKENS, NULL};
    if (!status)
        status = ctx_read(a, flags, 1.0, &c);
    if (status)
        return status;
    return ctx_emit(a, &c, "chalk loss: the Chinchilla loss law, L = E + A/N^alpha + B/D^beta",
                    build_loss);
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

static void build_chinchilla(const void *p, long row, chalk_record *r)
{
    const ctx *c = p;
    chalk_clear(r);
    put_fit(r, c->fit);
    overtraining_optimum o;
    const char *why = NULL;
    if (given(&c->in, &F_FLOPS)) {
        put_input(r, c, &F_FLOPS, row, CHALK_U_FLOPS);
        o = overtraining_chinchilla(c->fit, value_at(&c->in, &F_FLOPS, row, 0.0));
    } else if (given(&c->in, &F_PARAMS)) {
        put_input(r, c, &F_PARAMS, row, CHALK_U_PARAMS);
        o = overtraining_chinchilla_for_params(c->fit, value_at(&c->in, &F_PARAMS, row, 0.0));
    } else {
        double loss = value_at(&c->in, &F_LOSS, row, 0.0);
        put_input(r, c, &F_LOSS, row, CHALK_U_PLAIN);
        o = overtraining_chinchilla_for_loss(c->fit, loss);
        why = o.exists ? NULL : unreachable(r, c, loss);
        overtraining_size smallest = overtraining_min_params(c->fit, loss);
        chalk_put_result(r, "params_min", "smallest model that reaches it", CHALK_U_PARAMS, 0,
                         smallest.exists, smallest.params, why);
    }
    if (!given(&c->in, &F_FLOPS))
        chalk_put_result(r, "flops", "compute, 6ND", CHALK_U_FLOPS, 0, o.exists, o.flops, why);
    if (!given(&c->in, &F_PARAMS))
        chalk_put_result(r, "params_opt", "compute-optimal parameters", CHALK_U_PARAMS, 0, o.exists,
                         o.params, why);
    chalk_put_result(r, "tokens_opt", "compute-optimal tokens", CHALK_U_TOKENS, 0, o.exists,
                     o.tokens, why);
    chalk_put_result(r, "tokens_per_param", "tokens per parameter", CHALK_U_PLAIN, 0, o.exists,
                     o.tokens_per_param, why);
    if (!given(&c->in, &F_LOSS))
        chalk_put_number(r, "loss", "loss (nats/token)", CHALK_U_PLAIN, 0, o.loss);
    if (o.exists) {
        put_terms(r, c->fit, o.params, o.tokens, CHALK_DETAIL);
        /* ln(C/6): an error d in an exponent of C/6 is a factor e^(d ln(C/6)) (4.3) */
        chalk_put_number(r, "ln_budget_over_6", "ln(C/6) = ln(N D)", CHALK_U_PLAIN, CHALK_DETAIL,
                         log(o.params * o.tokens));
    }
    put_fit_constants(r, c->fit);
}

static int run_chinchilla(const chalk_args *a)
{
    const chalk_flag *const one[] = {&F_FLOPS, &F_PARAMS, &F_LOSS};
    int status = exactly_one(a, "chinchilla", one, 3);
    ctx c;
    static const chalk_flag *const flags[] = {&F_FLOPS, &F_PARAMS, &F_LOSS, NULL};
    if (!status)
        status = ctx_read(a, flags, 1.0, &c);
    if (status)
        return status;
    return ctx_emit(a, &c, "chalk chinchilla: the compute-optimal model under C = 6ND (4.3)",
                    build_chinchilla);
}

/* ---- iso-loss ----------------------------------------------------------------------------------
 */

static void build_iso_loss(const void *p, long row, chalk_record *r)
{
    const ctx *c = p;
    target t = target_at(c, row);
    double params = value_at(&c->in, &F_PARAMS, row, 0.0);
    chalk_clear(r);
    put_target(r, c, row, &t);
    chalk_put_number(r, "params", "parameters", CHALK_U_PARAMS, CHALK_INPUT, params);

    overtraining_tokens d = overtraining_tokens_for_loss(c->fit, params, t.loss);
    overtraining_optimum cheapest = overtraining_chinchilla_for_loss(c->fit, t.loss);
    overtraining_size smallest = overtraining_min_params(c->fit, t.loss);
    double floor = overtraining_loss(c->fit, params, INFINITY);
    const char *why = !cheapest.exists ? unreachable(r, c, t.loss)
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
                     overtraining_chinchilla_for_params(c->fit, params).tokens);
    /* the tokens that spend the cheapest model's compute on N parameters: same N D */
    chalk_put_result(r, "tokens_same_flops", "tokens at the cheapest's compute", CHALK_U_TOKENS,
                     CHALK_DETAIL, cheapest.exists,
                     cheapest.exists ? cheapest.params * cheapest.tokens / params : 0.0, why);
    chalk_put_result(r, "params_min", "smallest model that reaches it", CHALK_U_PARAMS,
                     CHALK_DETAIL, smallest.exists, smallest.params, why);
    chalk_put_number(r, "loss_floor", "loss with unlimited data", CHALK_U_PLAIN, CHALK_DETAIL,
                     floor);
}

static int run_iso_loss(const chalk_args *a)
{
    int status = check_target(a, "iso-loss");
    if (!status && chalk_given(a, &F_MATCH_EQUAL_COST))
        status = chalk_fail("iso-loss: --match-equal-cost needs traffic; use --match-tokens");
    if (!status && !chalk_given(a, &F_PARAMS))
        status = chalk_fail("iso-loss needs --params N (a value or a sweep)");
    ctx c;
    static const chalk_flag *const flags[] = {&F_LOSS, &F_MATCH_PARAMS, &F_MATCH_TOKENS, &F_PARAMS,
                                              NULL};
    if (!status)
        status = ctx_read(a, flags, 1.0, &c);
    if (status)
        return status;
    return ctx_emit(a, &c, "chalk iso-loss: what models of each size need to reach a loss (4.4)",
                    build_iso_loss);
}

/* ---- lifetime and inference-optimal -----------------------------------------------------------
 */

/* Served tokens as pre-training FLOPs see them: divided by serving's efficiency. */
static double effective_served(const ctx *c, long row, double served)
{
    return served / factors_at(c, row).inference_efficiency;
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

static void build_lifetime(const void *p, long row, chalk_record *r)
{
    const ctx *c = p;
    double served = served_tokens(c, row), params = value_at(&c->in, &F_PARAMS, row, 0.0);
    target t = target_at(c, row);
    chalk_clear(r);
    put_target(r, c, row, &t);
    put_serving(r, c, row, served);
    chalk_put_number(r, "params", "parameters", CHALK_U_PARAMS, CHALK_INPUT, params);
    overtraining_lifetime l =
        overtraining_lifetime_at(c->fit, params, t.loss, effective_served(c, row, served));
    overtraining_size smallest = overtraining_min_params(c->fit, t.loss);
    const char *why = smallest.exists ? chalk_fmt(r,
                                                  "a model of %.4g parameters cannot reach "
                                                  "the loss; the smallest that can is %.4g",
                                                  params, smallest.params)
                                      : unreachable(r, c, t.loss);
    put_lifetime(r, "", "", &l, why, false);
}

static int run_lifetime(const chalk_args *a)
{
    int status = check_target(a, "lifetime");
    if (!status)
        status = check_serving(a, "lifetime");
    if (!status && !chalk_given(a, &F_PARAMS))
        status = chalk_fail("lifetime needs --params N (a value or a sweep)");
    ctx c;
    static const chalk_flag *const flags[] = {
        &F_LOSS, &F_MATCH_PARAMS,    &F_MATCH_TOKENS,         &F_INFERENCE_TOKENS, &F_TOKENS_PER_S,
        &F_DAYS, &F_USE_PROBABILITY, &F_INFERENCE_EFFICIENCY, &F_PARAMS,           NULL};
    if (!status)
        status = ctx_read(a, flags, 1.0, &c);
    if (status)
        return status;
    return ctx_emit(a, &c,
                    "chalk lifetime: pre-training plus inference FLOPs of a model at a loss (4.9)",
                    build_lifetime);
}

static void build_inference_optimal(const void *p, long row, chalk_record *r)
{
    const ctx *c = p;
    double served = served_tokens(c, row);
    double effective = effective_served(c, row, served);
    target t = target_at(c, row);
    chalk_clear(r);
    put_target(r, c, row, &t);
    put_serving(r, c, row, served);

    const char *why = unreachable(r, c, t.loss);
    overtraining_lifetime best = overtraining_inference_optimal(c->fit, t.loss, effective);
    put_lifetime(r, "", "", &best, why, true);
    chalk_put_result(r, "inference_to_train_flops", "inference / pre-training cost", CHALK_U_PLAIN,
                     0, best.exists, best.exists ? best.inference_flops / best.train_flops : 0.0,
                     why);

    overtraining_optimum cheapest = overtraining_chinchilla_for_loss(c->fit, t.loss);
    overtraining_lifetime chin = overtraining_lifetime_at(
        c->fit, cheapest.exists ? cheapest.params : 1.0, t.loss, effective);
    put_lifetime(r, "chinchilla_", "compute-optimal: ", &chin, why, true);
    chalk_put_result(r, "overtrain_factor", "tokens per parameter over compute-optimal",
                     CHALK_U_RATIO, 0, best.exists,
                     best.exists ? best.tokens_per_param / chin.tokens_per_param : 0.0, why);

    overtraining_lifetime ref = overtraining_lifetime_at(c->fit, t.ref_params, t.loss, effective);
    put_lifetime(r, "reference_", "reference: ", &ref, why, true);
    bool saved = best.exists && ref.exists;
    chalk_put_result(r, "saved_flops", "saved against the reference", CHALK_U_FLOPS, 0, saved,
                     saved ? ref.total_flops - best.total_flops : 0.0, why);
    chalk_put_result(r, "saved_fraction", "saved, fraction", CHALK_U_FRACTION, 0, saved,
                     saved ? (ref.total_flops - best.total_flops) / ref.total_flops : 0.0, why);
}

static int run_inference_optimal(const chalk_args *a)
{
    int status = check_target(a, "inference-optimal");
    if (!status)
        status = check_serving(a, "inference-optimal");
    ctx c;
    static const chalk_flag *const flags[] = {&F_LOSS,
                                              &F_MATCH_PARAMS,
                                              &F_MATCH_TOKENS,
                                              &F_INFERENCE_TOKENS,
                                              &F_TOKENS_PER_S,
                                              &F_DAYS,
                                              &F_USE_PROBABILITY,
                                              &F_INFERENCE_EFFICIENCY,
                                              NULL};
    if (!status)
        status = ctx_read(a, flags, 1.0, &c);
    if (status)
        return status;
    return ctx_emit(
        a, &c, "chalk inference-optimal: least pre-training plus inference FLOPs for a loss (4.9)",
        build_inference_optimal);
}

/* ---- overtrain ---------------------------------------------------------------------------------
 */

static void build_overtrain(const void *p, long row, chalk_record *r)
{
    const ctx *c = p;
    bool serving = given(&c->in, &F_TOKENS_PER_S);
    double served = serving ? served_tokens(c, row) : 0.0;
    overtraining_factors f = factors_at(c, row);
    overtraining_split s = split_at(c, row);
    overtraining_token_ratios ratios = overtraining_equal_cost(&f, &s);
    double pretrain = c->run    ? c->run->tokens
                      : serving ? served / ratios.inference_per_pretrain
                                : value_at(&c->in, &F_PRETRAIN_TOKENS, row, 0.0);
    double n = c->params_active;
    double rule = value_at(&c->in, &F_TOKENS_PER_PARAM, row, CHINCHILLA_TOKENS_PER_PARAM);
    chalk_clear(r);
    if (c->run)
        chalk_put_string(r, "run", "run", CHALK_INPUT, c->run->name);
    if (c->model)
        chalk_put_string(r, "model", "model", CHALK_INPUT, c->model->name);
    chalk_put_number(r, "params_active", "active parameters", CHALK_U_PARAMS, CHALK_INPUT, n);
    put_input(r, c, &F_TOKENS_PER_S, row, CHALK_U_TOKENS_PER_S);
    put_input(r, c, &F_DAYS, row, CHALK_U_PLAIN);
    put_input(r, c, &F_USE_PROBABILITY, row, CHALK_U_PLAIN);
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
                     c->params_total > 0.0, pretrain / c->params_total,
                     "no total parameter count: pass --model NAME or --run NAME");
    bool trained = pretrain > 0.0;
    const char *untrained = "no pre-training tokens: the traffic (rate x days x use "
                            "probability) is zero";
    chalk_put_result(r, "overtrain_factor", "over-training factor", CHALK_U_RATIO, 0, trained,
                     trained ? overtraining_factor(pretrain, n, rule) : 0.0, untrained);

    bool fitted = c->fit != NULL;
    double fit_rule = fitted ? overtraining_chinchilla_for_params(c->fit, n).tokens_per_param : 0.0;
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

static int run_overtrain(const chalk_args *a)
{
    const char *cmd = "overtrain";
    int status = CHALK_OK;
    if (chalk_given(a, &F_RUN)) {
        const chalk_flag *const not_with_run[] = {&CHALK_F_PARAMS_ACTIVE, &CHALK_F_MODEL,
                                                  &F_PRETRAIN_TOKENS, &F_TOKENS_PER_S};
        for (int i = 0; i < 4 && !status; i++)
            if (chalk_given(a, not_with_run[i]))
                status = chalk_fail("%s: --run sets the parameters and the tokens; drop %s", cmd,
                                    not_with_run[i]->name);
    } else {
        const chalk_flag *const size[] = {&CHALK_F_PARAMS_ACTIVE, &CHALK_F_MODEL, &F_RUN};
        const chalk_flag *const tokens[] = {&F_TOKENS_PER_S, &F_PRETRAIN_TOKENS, &F_RUN};
        status = exactly_one(a, cmd, size, 3);
        if (!status)
            status = exactly_one(a, cmd, tokens, 3);
    }
    if (!status && chalk_given(a, &F_TOKENS_PER_S) != chalk_given(a, &F_DAYS))
        status = chalk_fail("%s: --tokens-per-s and --days go together", cmd);
    if (!status && chalk_given(a, &F_USE_PROBABILITY) && !chalk_given(a, &F_TOKENS_PER_S))
        status = chalk_fail("%s: --use-probability derates served tokens: it goes with "
                            "--tokens-per-s",
                            cmd);
    ctx c;
    static const chalk_flag *const flags[] = {&F_TOKENS_PER_S,
                                              &F_DAYS,
                                              &F_USE_PROBABILITY,
                                              &F_PRETRAIN_TOKENS,
                                              &F_TOKENS_PER_PARAM,
                                              &F_RL_FLOPS,
                                              &F_RL_EFFICIENCY,
                                              &F_INFERENCE_EFFICIENCY,
                                              &F_RL_SHARE,
                                              &F_INFERENCE_SHARE,
                                              NULL};
    if (!status)
        status = ctx_read(a, flags, DEFAULT_EFFICIENCY, &c);
    if (status)
        return status;
    if (!chalk_given(a, &F_FIT))
        c.fit = NULL; /* measured against the rule only */
    status = check_shares(&c);
    if (status) {
        inputs_free(&c.in);
        return status;
    }
    return ctx_emit(a, &c,
                    "chalk overtrain: how far past Chinchilla's 20 tokens per parameter (4.8)",
                    build_overtrain);
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

static void build_equal_cost(const void *p, long row, chalk_record *r)
{
    const ctx *c = p;
    overtraining_factors f = factors_at(c, row);
    overtraining_split s = split_at(c, row);
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

static int run_equal_cost(const chalk_args *a)
{
    ctx c;
    static const chalk_flag *const flags[] = {
        &F_RL_FLOPS, &F_RL_EFFICIENCY,   &F_INFERENCE_EFFICIENCY,
        &F_RL_SHARE, &F_INFERENCE_SHARE, NULL};
    int status = ctx_read(a, flags, DEFAULT_EFFICIENCY, &c);
    if (status)
        return status;
    status = check_shares(&c);
    if (status) {
        inputs_free(&c.in);
        return status;
    }
    return ctx_emit(a, &c,
                    "chalk equal-cost: RL and served tokens per pre-training token at equal "
                    "costs (4.7)",
                    build_equal_cost);
}

/* ---- heuristic ----------------------------------------------------------------------------------
 */

static void build_heuristic(const void *p, long row, chalk_record *r)
{
    const ctx *c = p;
    double mu = value_at(&c->in, &F_FALLING, row, 0.0);
    double nu = value_at(&c->in, &F_RISING, row, 0.0);
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

static int run_heuristic(const chalk_args *a)
{
    int status = CHALK_OK;
    if (!chalk_given(a, &F_FALLING) || !chalk_given(a, &F_RISING))
        status = chalk_fail("heuristic needs --falling-exponent MU and --rising-exponent NU");
    ctx c;
    static const chalk_flag *const flags[] = {&F_FALLING, &F_RISING, NULL};
    if (!status)
        status = ctx_read(a, flags, 1.0, &c);
    if (status)
        return status;
    return ctx_emit(a, &c,
                    "chalk heuristic: the two terms of a u^-mu + b u^nu at its minimum (4.6)",
                    build_heuristic);
}

/* ---- presets: chalk list fits, chalk list runs ------------------------------------------------
 */

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

static const chalk_preset_kind KIND_FITS = {
    .word = "fits",
    .alias = "fit",
    .about = "scaling-law fits of L(N, D) = E + A/N^alpha + B/D^beta, with sources",
    .count = fit_count,
    .name = fit_name,
    .put = fit_put,
};

static const chalk_preset_kind KIND_RUNS = {
    .word = "runs",
    .alias = "run",
    .about = "published training runs: parameters and pre-training tokens, with sources",
    .count = run_count,
    .name = run_name,
    .put = run_put,
};

static const chalk_preset_kind *const PRESETS[] = {&KIND_FITS, &KIND_RUNS, NULL};

/* ---- the commands ------------------------------------------------------------------------------
 */

#define TARGET_FLAGS &F_LOSS, &F_MATCH_PARAMS, &F_MATCH_TOKENS, &F_MATCH_EQUAL_COST
#define SERVING_FLAGS &F_INFERENCE_TOKENS, &F_TOKENS_PER_S, &F_DAYS, &F_USE_PROBABILITY
#define LIFE_FLAGS                                                                                 \
    &F_RL_FLOPS, &F_RL_EFFICIENCY, &F_INFERENCE_EFFICIENCY, &F_RL_SHARE, &F_INFERENCE_SHARE

static const chalk_flag *const LOSS_FLAGS[] = {&F_PARAMS, &CHALK_F_MODEL, &F_TOKENS, &F_FIT, NULL};
static const chalk_flag *const CHINCHILLA_FLAGS[] = {&F_FLOPS, &F_PARAMS, &F_LOSS, &F_FIT, NULL};
static const chalk_flag *const ISO_LOSS_FLAGS[] = {&F_LOSS,   &F_MATCH_PARAMS, &F_MATCH_TOKENS,
                                                   &F_PARAMS, &F_FIT,          NULL};
static const chalk_flag *const LIFETIME_FLAGS[] = {
    TARGET_FLAGS, &F_PARAMS, SERVING_FLAGS, &F_INFERENCE_EFFICIENCY, &F_FIT, NULL};
static const chalk_flag *const OPTIMAL_FLAGS[] = {TARGET_FLAGS, SERVING_FLAGS,
                                                  &F_INFERENCE_EFFICIENCY, &F_FIT, NULL};
static const chalk_flag *const OVERTRAIN_FLAGS[] = {&CHALK_F_PARAMS_ACTIVE,
                                                    &CHALK_F_MODEL,
                                                    &F_RUN,
                                                    &F_TOKENS_PER_S,
                                                    &F_DAYS,
                                                    &F_USE_PROBABILITY,
                                                    &F_PRETRAIN_TOKENS,
                                                    &F_TOKENS_PER_PARAM,
                                                    LIFE_FLAGS,
                                                    &F_FIT,
                                                    NULL};
static const chalk_flag *const EQUAL_COST_FLAGS[] = {LIFE_FLAGS, NULL};
static const chalk_flag *const HEURISTIC_FLAGS[] = {&F_FALLING, &F_RISING, NULL};

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
    {"loss", "[flags]", "Chinchilla's loss law at N parameters and D tokens (4.2)", LOSS_FLAGS,
     ABOUT_LOSS, EXAMPLES_LOSS, run_loss},
    {"chinchilla", "[flags]", "the compute-optimal model of a budget, a size or a loss (4.3)",
     CHINCHILLA_FLAGS, ABOUT_CHINCHILLA, EXAMPLES_CHINCHILLA, run_chinchilla},
    {"iso-loss", "[flags]", "the tokens each model size needs to reach a loss (4.4)",
     ISO_LOSS_FLAGS, ABOUT_ISO_LOSS, EXAMPLES_ISO_LOSS, run_iso_loss},
    {"heuristic", "[flags]", "the equal-cost heuristic, exactly (4.6)", HEURISTIC_FLAGS,
     ABOUT_HEURISTIC, EXAMPLES_HEURISTIC, run_heuristic},
    {"equal-cost", "[flags]", "RL and served tokens per pre-training token, slip and fix (4.7)",
     EQUAL_COST_FLAGS, ABOUT_EQUAL_COST, EXAMPLES_EQUAL_COST, run_equal_cost},
    {"overtrain", "[flags]", "how far past 20 tokens per parameter: the lecture's ~100x (4.8)",
     OVERTRAIN_FLAGS, ABOUT_OVERTRAIN, EXAMPLES_OVERTRAIN, run_overtrain},
    {"lifetime", "[flags]", "pre-training plus inference FLOPs of a model at a loss (4.9)",
     LIFETIME_FLAGS, ABOUT_LIFETIME, EXAMPLES_LIFETIME, run_lifetime},
    {"inference-optimal", "[flags]", "the model of least lifetime FLOPs for a loss (4.9)",
     OPTIMAL_FLAGS, ABOUT_OPTIMAL, EXAMPLES_OPTIMAL, run_inference_optimal},
};

const chalk_chapter chalk_chapter_04_overtraining = {
    .number = 4,
    .title = "over-training: why frontier models are trained far past Chinchilla",
    .commands = COMMANDS,
    .count = sizeof COMMANDS / sizeof COMMANDS[0],
    .presets = PRESETS,
};
