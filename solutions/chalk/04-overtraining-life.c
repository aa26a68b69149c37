/*
 * 04-overtraining-life.c -- chapter 4's commands on a model's whole life, its
 * target quality and the traffic it serves (04-overtraining.c holds the chapter's
 * flags and table, and the loss law's own commands):
 *
 *   chalk iso-loss           every model that reaches a loss, against N (4.4)
 *   chalk equal-cost         token weights and counts for equal costs, slipped and corrected (4.7)
 *   chalk overtrain          the lecture's ~100x, and published runs (4.5, 4.8)
 *   chalk lifetime           pre-training plus inference FLOPs at a loss, against N (4.9)
 *   chalk inference-optimal  the model of least lifetime FLOPs for a loss (4.9)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "04-overtraining.h"

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


/* ---- the checks ---------------------------------------------------------------------------- */

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

const chalk_command overtraining_iso_loss_cmd = {
    .name = "iso-loss",
    .summary = "the tokens each model size needs to reach a loss (4.4)",
    .title = "chalk iso-loss: what models of each size need to reach a loss (4.4)",
    .inputs = ISO_LOSS, .check = check_iso_loss, .build = build_iso_loss,
    .about = ABOUT_ISO_LOSS, .examples = EXAMPLES_ISO_LOSS
};
const chalk_command overtraining_lifetime_cmd = {
    .name = "lifetime",
    .summary = "pre-training plus inference FLOPs of a model at a loss (4.9)",
    .title = "chalk lifetime: pre-training plus inference FLOPs of a model at a loss (4.9)",
    .inputs = LIFETIME, .check = check_lifetime, .build = build_lifetime,
    .about = ABOUT_LIFETIME, .examples = EXAMPLES_LIFETIME
};
const chalk_command overtraining_inference_optimal_cmd = {
    .name = "inference-optimal",
    .summary = "the model of least lifetime FLOPs for a loss (4.9)",
    .title = "chalk inference-optimal: least pre-training plus inference FLOPs for a loss (4.9)",
    .inputs = OPTIMAL, .check = check_inference_optimal, .build = build_inference_optimal,
    .about = ABOUT_OPTIMAL, .examples = EXAMPLES_OPTIMAL
};
const chalk_command overtraining_overtrain_cmd = {
    .name = "overtrain",
    .summary = "how far past 20 tokens per parameter: the lecture's ~100x (4.8)",
    .title = "chalk overtrain: how far past Chinchilla's 20 tokens per parameter (4.8)",
    .inputs = OVERTRAIN, .check = check_overtrain, .build = build_overtrain,
    .about = ABOUT_OVERTRAIN, .examples = EXAMPLES_OVERTRAIN
};
const chalk_command overtraining_equal_cost_cmd = {
    .name = "equal-cost",
    .summary = "RL and served tokens per pre-training token, slip and fix (4.7)",
    .title = "chalk equal-cost: RL and served tokens per pre-training token at equal costs (4.7)",
    .inputs = EQUAL_COST, .check = check_shares, .build = build_equal_cost,
    .about = ABOUT_EQUAL_COST, .examples = EXAMPLES_EQUAL_COST
};
