/*
 * overtraining.c -- Chapter 4 reference solution: the Chinchilla frontier, the
 * three costs of a model's life, the lecture's equal-cost estimate and the
 * inference-optimal model.
 *
 * Contract and equations: exercises/04-overtraining/overtraining.h. Everything
 * is a closed form except the inference-optimal model, which is a bisection
 * (lib/numeric.h) on the logarithm of the parameter count.
 */
#include "overtraining.h"

#include <math.h>

#define SECONDS_PER_DAY 86400.0

/* ---- the loss law's two reducible terms ---------------------------------- */

/* region: terms */
/* Loss left by a finite model: A_N / N^alpha_N. */
static double params_term(const cost_scaling_fit *f, double params)
{
    return f->a_params / pow(params, f->alpha_params);
}

/* Loss left by finite data: A_D / D^alpha_D. */
static double tokens_term(const cost_scaling_fit *f, double tokens)
{
    return f->a_tokens / pow(tokens, f->alpha_tokens);
}
/* endregion: terms */

/* ---- Exercise 4.1 -------------------------------------------------------- */

/* region: loss */
double overtraining_loss(const cost_scaling_fit *fit, double params,
                         double tokens)
{
    COST_ASSERT(params > 0.0 && tokens > 0.0 && "need a model and some data");
    return fit->irreducible + params_term(fit, params) +
           tokens_term(fit, tokens);
}

overtraining_terms overtraining_loss_terms(const cost_scaling_fit *fit,
                                           double params, double tokens)
{
    /* the law with the other resource unlimited, less what nothing removes */
    overtraining_terms t;
    t.params_term = overtraining_loss(fit, params, INFINITY) - fit->irreducible;
    t.tokens_term = overtraining_loss(fit, INFINITY, tokens) - fit->irreducible;
    return t;
}
/* endregion: loss */

/* ---- Exercise 4.2 -------------------------------------------------------- */

/* The optimum with n parameters and d tokens: its flops, ratio and loss. */
static overtraining_optimum optimum_of(const cost_scaling_fit *f, double n,
                                       double d)
{
    overtraining_optimum o = {.exists = true, .params = n, .tokens = d};
    o.flops = 6.0 * n * d;
    o.tokens_per_param = d / n;
    o.loss = overtraining_loss(f, n, d);
    return o;
}

/* region: frontier */
overtraining_exponents
overtraining_frontier_exponents(const cost_scaling_fit *fit)
{
    double sum = fit->alpha_params + fit->alpha_tokens;
    overtraining_exponents e = {fit->alpha_tokens / sum,
                                fit->alpha_params / sum};
    return e;
}

overtraining_optimum overtraining_chinchilla(const cost_scaling_fit *fit,
                                             double flops)
{
    COST_ASSERT(flops > 0.0 && "need a compute budget");
    double a = fit->alpha_params, b = fit->alpha_tokens;
    double g = pow(a * fit->a_params / (b * fit->a_tokens), 1.0 / (a + b));
    double n_times_d = flops / 6.0; /* the product the budget fixes */
    double params = g * pow(n_times_d, b / (a + b));
    return optimum_of(fit, params, n_times_d / params);
}

overtraining_optimum
overtraining_chinchilla_for_params(const cost_scaling_fit *fit, double params)
{
    COST_ASSERT(params > 0.0 && "need a model");
    /* at the optimum alpha_N A_N N^-alpha_N = alpha_D A_D D^-alpha_D */
    double a = fit->alpha_params, b = fit->alpha_tokens;
    double data_term = a * params_term(fit, params) / b;
    return optimum_of(fit, params, pow(fit->a_tokens / data_term, 1.0 / b));
}
/* endregion: frontier */

/* ---- Exercise 4.3 -------------------------------------------------------- */

/* region: iso-loss */
overtraining_tokens overtraining_tokens_for_loss(const cost_scaling_fit *fit,
                                                 double params, double loss)
{
    COST_ASSERT(params > 0.0 && "need a model");
    overtraining_tokens t = {.exists = false, .tokens = 0.0};
    double data_term = loss - fit->irreducible - params_term(fit, params);
    if (data_term <= 0.0)
        return t; /* even infinite data leaves the loss above the target */
    t.exists = true;
    t.tokens = pow(fit->a_tokens / data_term, 1.0 / fit->alpha_tokens);
    return t;
}

overtraining_size overtraining_min_params(const cost_scaling_fit *fit,
                                          double loss)
{
    overtraining_size n = {.exists = false, .params = 0.0};
    double reducible = loss - fit->irreducible;
    if (reducible <= 0.0)
        return n;
    n.exists = true;
    n.params = pow(fit->a_params / reducible, 1.0 / fit->alpha_params);
    return n;
}

overtraining_optimum
overtraining_chinchilla_for_loss(const cost_scaling_fit *fit, double loss)
{
    overtraining_optimum o = {.exists = false};
    double reducible = loss - fit->irreducible;
    if (reducible <= 0.0)
        return o; /* no finite model reaches the irreducible loss */
    double a = fit->alpha_params, b = fit->alpha_tokens;
    double params = pow(fit->a_params * (a + b) / (b * reducible), 1.0 / a);
    double tokens = pow(fit->a_tokens * (a + b) / (a * reducible), 1.0 / b);
    return optimum_of(fit, params, tokens);
}
/* endregion: iso-loss */

/* ---- Exercise 4.4 -------------------------------------------------------- */

/* region: cost-terms */
overtraining_costs overtraining_cost_terms(const overtraining_plan *plan)
{
    const overtraining_factors *f = &plan->factors;
    COST_ASSERT(plan->params_active > 0.0 && f->rl_efficiency > 0.0 &&
                f->inference_efficiency > 0.0 &&
                "need a model and efficiencies");
    double n = plan->params_active;
    overtraining_costs c;
    c.pretrain_flops = 6.0 * n * plan->pretrain_tokens;
    c.rl_flops = f->rl_flops_per_param * n * plan->rl_tokens / f->rl_efficiency;
    c.inference_flops =
        2.0 * n * plan->inference_tokens / f->inference_efficiency;
    c.total_flops = c.pretrain_flops + c.rl_flops + c.inference_flops;
    return c;
}
/* endregion: cost-terms */

/* ---- Exercise 4.5 -------------------------------------------------------- */

/* region: heuristic */
double overtraining_optimum_term_ratio(double mu, double nu)
{
    COST_ASSERT(mu > 0.0 && nu > 0.0 && "need positive exponents");
    /* d/du: -mu c_down u^-mu + nu c_up u^nu = 0 (times u) */
    return nu / mu;
}

double overtraining_equal_cost_penalty(double mu, double nu)
{
    COST_ASSERT(mu > 0.0 && nu > 0.0 && "need positive exponents");
    /* Scale u so the terms are equal at u = 1: the cost is u^-mu + u^nu.
     */
    double u_min = pow(mu / nu, 1.0 / (mu + nu));
    double at_min = pow(u_min, -mu) + pow(u_min, nu);
    return 2.0 / at_min;
}
/* endregion: heuristic */

/* ---- Exercise 4.6 -------------------------------------------------------- */

/* region: weights */
overtraining_weights overtraining_token_weights(const overtraining_factors *f)
{
    COST_ASSERT(f->rl_efficiency > 0.0 && f->inference_efficiency > 0.0 &&
                "need positive efficiencies");
    overtraining_weights w;
    w.rl = f->rl_flops_per_param / (6.0 * f->rl_efficiency);
    w.inference = 2.0 / (6.0 * f->inference_efficiency);
    return w;
}

overtraining_weights
overtraining_token_weights_slipped(const overtraining_factors *f)
{
    overtraining_weights
        w; /* as first written on the board: efficiency multiplied */
    w.rl = f->rl_flops_per_param * f->rl_efficiency / 6.0;
    w.inference = 2.0 * f->inference_efficiency / 6.0;
    return w;
}
/* endregion: weights */

/* ---- Exercise 4.7 -------------------------------------------------------- */

/* region: equal-cost */
overtraining_token_ratios overtraining_equal_cost(const overtraining_factors *f,
                                                  const overtraining_split *s)
{
    COST_ASSERT(s->pretrain_share > 0.0 && s->rl_share >= 0.0 &&
                s->inference_share >= 0.0 && "need a share for pre-training");
    /* C_RL / C_pre = w_RL D_RL / D must equal phi_RL / phi_pre; likewise
     * inference */
    overtraining_weights w = overtraining_token_weights(f);
    overtraining_token_ratios r;
    r.rl_per_pretrain = s->rl_share / (s->pretrain_share * w.rl);
    r.inference_per_pretrain =
        s->inference_share / (s->pretrain_share * w.inference);
    return r;
}
/* endregion: equal-cost */

/* ---- Exercise 4.8 -------------------------------------------------------- */

/* region: estimate */
double overtraining_inference_tokens(const overtraining_fleet *fleet)
{
    COST_ASSERT(fleet->tokens_per_s >= 0.0 && fleet->days >= 0.0 &&
                fleet->use_probability >= 0.0 &&
                fleet->use_probability <= 1.0 &&
                "need a rate, a duration and a probability");
    double seconds = fleet->days * SECONDS_PER_DAY;
    return fleet->tokens_per_s * seconds * fleet->use_probability;
}

double overtraining_factor(double pretrain_tokens, double params_active,
                           double tokens_per_param)
{
    COST_ASSERT(pretrain_tokens > 0.0 && params_active > 0.0 &&
                tokens_per_param > 0.0 && "need tokens, a model and a ratio");
    double rule_tokens = tokens_per_param * params_active;
    return pretrain_tokens / rule_tokens;
}
/* endregion: estimate */

/* ---- Exercise 4.9 -------------------------------------------------------- */

/* region: lifetime */
overtraining_lifetime overtraining_lifetime_at(const cost_scaling_fit *fit,
                                               double params, double loss,
                                               double inference_tokens)
{
    COST_ASSERT(inference_tokens >= 0.0 && "need a non-negative demand");
    overtraining_lifetime l = {.exists = false};
    overtraining_tokens t = overtraining_tokens_for_loss(fit, params, loss);
    if (!t.exists)
        return l;
    l.exists = true;
    l.params = params;
    l.train_tokens = t.tokens;
    l.tokens_per_param = t.tokens / params;
    l.train_flops = 6.0 * params * t.tokens;
    l.inference_flops = 2.0 * params * inference_tokens;
    l.total_flops = l.train_flops + l.inference_flops;
    return l;
}
/* endregion: lifetime */

/* region: inference-optimal */
typedef struct target {
    const cost_scaling_fit *fit;
    double loss, inference_tokens;
} target;

/* d(total FLOPs)/dN divided by 6, as a function of ln N: D (1 - psi) + D_inf
 * / 3. Negative for small models (which need huge D), positive past the
 * optimum. */
static double slope_of_total(double log_params, const void *ctx)
{
    const target *t = ctx;
    double params = exp(log_params);
    double tokens =
        overtraining_tokens_for_loss(t->fit, params, t->loss).tokens;
    double psi = t->fit->alpha_params * params_term(t->fit, params) /
                 (t->fit->alpha_tokens * tokens_term(t->fit, tokens));
    return tokens * (1.0 - psi) + t->inference_tokens / 3.0;
}

overtraining_lifetime
overtraining_inference_optimal(const cost_scaling_fit *fit, double loss,
                               double inference_tokens)
{
    COST_ASSERT(inference_tokens >= 0.0 && "need a non-negative demand");
    overtraining_lifetime none = {.exists = false};
    overtraining_optimum chinchilla =
        overtraining_chinchilla_for_loss(fit, loss);
    if (!chinchilla.exists)
        return none;
    /* Bracket: just above the smallest model that reaches the loss (where the
     * parameter term takes all of it: the slope is very negative) to just above
     * the compute-optimal model (psi = 1 there: the slope is D_inf / 3 >= 0).
     */
    double smallest = overtraining_min_params(fit, loss).params;
    target t = {fit, loss, inference_tokens};
    double log_params = log(chinchilla.params);
    double lo = log(smallest) + 1e-9, hi = log(chinchilla.params) + 1e-9;
    /* no sign change: the slope at the compute-optimal end is rounding, so the
     * demand is too small to move the optimum from it */
    if (!cost_bisect(slope_of_total, &t, lo, hi, 1e-12, &log_params))
        log_params = log(chinchilla.params);
    return overtraining_lifetime_at(fit, exp(log_params), loss,
                                    inference_tokens);
}
/* endregion: inference-optimal */

/* region: saved */
double overtraining_saved_flops(const overtraining_lifetime *reference,
                                const overtraining_lifetime *best)
{
    double saved = reference->total_flops - best->total_flops;
    return saved > 1e-9 * reference->total_flops ? saved : 0.0;
}
/* endregion: saved */
