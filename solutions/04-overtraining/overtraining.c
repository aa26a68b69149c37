/*
 * overtraining.c -- Chapter 4 reference solution: the Chinchilla frontier,
 * the three costs of a model's life, the lecture's equal-cost estimate, the
 * inference-optimal model and its dual, the best model a lifetime budget
 * buys.
 *
 * Contract: exercises/04-overtraining/overtraining.h. Everything is a
 * closed form except the two searches, each a bisection (lib/numeric.h) on
 * the logarithm of the parameter count, of a slope the book derives:
 *     §4.9 (Beyond the lecture: the inference-optimal model)
 *     §4.10 (The best model a lifetime budget buys)
 * No function asserts: an input outside its domain, or an answer that
 * overflows, gives NaN or exists = false with a reason, as the contract
 * says.
 */
#include "overtraining.h"

#include <math.h>

#define SECONDS_PER_DAY 86400.0

/* The contract's ranges for the two searches. */
#define MAX_LOSS 20.0             /* nats per token */
#define MAX_INFERENCE_TOKENS 1e30 /* tokens */
#define MAX_LIFETIME_FLOPS 1e40   /* FLOPs */
/* A lifetime budget's most demand: serving alone could spend it on a model of
 * 5,000 parameters (2 N D_inf = C). */
#define MIN_FLOPS_PER_SERVED_TOKEN 1e4 /* FLOPs per token */

/* ---- domains --------------------------------------------------------- */

/* x > 0 and finite; false for NaN. */
static bool positive(double x)
{
    return x > 0.0 && x < INFINITY;
}

/* x >= 0 and finite; false for NaN. */
static bool non_negative(double x)
{
    return x >= 0.0 && x < INFINITY;
}

/* An efficiency: a fraction of pre-training's utilisation, > 0 (above 1 is
 * unphysical but computable: the slip is the weight at 1 / eta). */
static bool efficiency(double e)
{
    return positive(e);
}

static bool valid_factors(const overtraining_factors *f)
{
    return positive(f->rl_flops_per_param) &&
           efficiency(f->rl_efficiency) &&
           efficiency(f->inference_efficiency);
}

static bool valid_split(const overtraining_split *s)
{
    return positive(s->pretrain_share) && non_negative(s->rl_share) &&
           non_negative(s->inference_share);
}

/* ---- the loss law's two reducible terms ------------------------------ */

/* region: terms */
/* Loss left by a finite model: A_N / N^alpha_N (0 for an unlimited one). */
static double params_term(const cost_scaling_fit *f, double params)
{
    return f->a_params / pow(params, f->alpha_params);
}

/* Loss left by finite data: A_D / D^alpha_D (0 for unlimited data). */
static double tokens_term(const cost_scaling_fit *f, double tokens)
{
    return f->a_tokens / pow(tokens, f->alpha_tokens);
}
/* endregion: terms */

/* ---- Exercise 4.1 ---------------------------------------------------- */

/* region: loss */
double overtraining_loss(const cost_scaling_fit *fit, double params,
                         double tokens)
{
    if (!(params > 0.0 && tokens > 0.0)) /* also catches NaN */
        return NAN;
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

/* ---- Exercise 4.2 ---------------------------------------------------- */

static overtraining_optimum no_optimum(const char *why)
{
    return (overtraining_optimum){.exists = false, .reason = why};
}

/* The optimum with n parameters and d tokens: its flops, ratio and loss, or
 * no answer when any of them overflows. */
static overtraining_optimum optimum_of(const cost_scaling_fit *f, double n,
                                       double d)
{
    overtraining_optimum o = {.exists = true, .params = n, .tokens = d};
    o.flops = 6.0 * n * d;
    o.tokens_per_param = d / n;
    o.loss = overtraining_loss(f, n, d);
    if (!(positive(o.flops) && positive(o.params) && positive(o.tokens) &&
          positive(o.tokens_per_param) && o.loss < INFINITY))
        return no_optimum("the answer overflows a double");
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
    if (!positive(flops))
        return no_optimum(
            "the budget must be a positive, finite FLOP count");
    double a = fit->alpha_params, b = fit->alpha_tokens;
    double g = pow(a * fit->a_params / (b * fit->a_tokens), 1.0 / (a + b));
    double n_times_d = flops / 6.0; /* the product the budget fixes */
    double params = g * pow(n_times_d, b / (a + b));
    return optimum_of(fit, params, n_times_d / params);
}

overtraining_optimum
overtraining_chinchilla_for_params(const cost_scaling_fit *fit,
                                   double params)
{
    if (!positive(params))
        return no_optimum("the model must have a positive, finite size");
    /* at the optimum alpha_N A_N N^-alpha_N = alpha_D A_D D^-alpha_D */
    double a = fit->alpha_params, b = fit->alpha_tokens;
    double data_term = a * params_term(fit, params) / b;
    return optimum_of(fit, params, pow(fit->a_tokens / data_term, 1.0 / b));
}
/* endregion: frontier */

/* ---- Exercise 4.3 ---------------------------------------------------- */

/* region: iso-loss */
overtraining_tokens
overtraining_tokens_for_loss(const cost_scaling_fit *fit, double params,
                             double loss)
{
    overtraining_tokens none = {.exists = false};
    if (!positive(params) || !isfinite(loss)) {
        none.reason =
            "need a positive, finite model size and a finite loss";
        return none;
    }
    double data_term = loss - fit->irreducible - params_term(fit, params);
    if (!(data_term > 0.0)) {
        none.reason =
            "even unlimited data leaves the loss at or above the target";
        return none;
    }
    double tokens = pow(fit->a_tokens / data_term, 1.0 / fit->alpha_tokens);
    if (isinf(tokens) || tokens == 0.0) {
        none.reason = "the tokens needed are beyond a double's range";
        return none;
    }
    return (overtraining_tokens){.exists = true, .tokens = tokens};
}

overtraining_size overtraining_min_params(const cost_scaling_fit *fit,
                                          double loss)
{
    overtraining_size none = {.exists = false};
    double reducible = loss - fit->irreducible;
    if (!isfinite(loss) || !(reducible > 0.0)) {
        none.reason =
            "no model reaches a loss at or below the irreducible loss";
        return none;
    }
    double params = pow(fit->a_params / reducible, 1.0 / fit->alpha_params);
    if (!positive(params)) {
        none.reason = "the size overflows a double";
        return none;
    }
    return (overtraining_size){.exists = true, .params = params};
}

overtraining_optimum
overtraining_chinchilla_for_loss(const cost_scaling_fit *fit, double loss)
{
    double reducible = loss - fit->irreducible;
    if (!isfinite(loss) || !(reducible > 0.0))
        return no_optimum(
            "no model reaches a loss at or below the irreducible loss");
    /* the two terms split the reducible loss as alpha_D : alpha_N */
    double a = fit->alpha_params, b = fit->alpha_tokens;
    double params = pow(fit->a_params * (a + b) / (b * reducible), 1.0 / a);
    double tokens = pow(fit->a_tokens * (a + b) / (a * reducible), 1.0 / b);
    return optimum_of(fit, params, tokens);
}
/* endregion: iso-loss */

/* ---- Exercise 4.4 ---------------------------------------------------- */

/* region: cost-terms */
overtraining_costs overtraining_cost_terms(const overtraining_plan *plan)
{
    const overtraining_factors *f = &plan->factors;
    overtraining_costs none = {.exists = false};
    if (!positive(plan->params_active) ||
        !non_negative(plan->pretrain_tokens) ||
        !non_negative(plan->rl_tokens) ||
        !non_negative(plan->inference_tokens) || !valid_factors(f)) {
        none.reason = "need a model, token counts >= 0 and valid factors";
        return none;
    }
    double n = plan->params_active;
    overtraining_costs c = {.exists = true};
    c.pretrain_flops = 6.0 * n * plan->pretrain_tokens;
    c.rl_flops =
        f->rl_flops_per_param * n * plan->rl_tokens / f->rl_efficiency;
    c.inference_flops =
        2.0 * n * plan->inference_tokens / f->inference_efficiency;
    c.total_flops = c.pretrain_flops + c.rl_flops + c.inference_flops;
    if (!isfinite(c.total_flops)) {
        none.reason = "a cost overflows a double";
        return none;
    }
    return c;
}
/* endregion: cost-terms */

/* ---- Exercise 4.5 ---------------------------------------------------- */

/* region: heuristic */
double overtraining_optimum_term_ratio(double mu, double nu)
{
    if (!positive(mu) || !positive(nu))
        return NAN;
    /* d/du: -mu c_down u^-mu + nu c_up u^nu = 0 (times u) */
    double ratio = nu / mu;
    return positive(ratio) ? ratio : NAN;
}

double overtraining_equal_cost_penalty(double mu, double nu)
{
    if (!positive(mu) || !positive(nu))
        return NAN;
    /* Scale u so the terms are equal at u = 1: the cost is u^-mu + u^nu, 2
     * there; at the minimum u^-mu / u^nu = nu / mu. */
    double u_min = pow(mu / nu, 1.0 / (mu + nu));
    double at_min = pow(u_min, -mu) + pow(u_min, nu);
    double penalty = 2.0 / at_min;
    return positive(penalty) ? penalty : NAN;
}
/* endregion: heuristic */

/* ---- Exercise 4.6 ---------------------------------------------------- */

/* region: weights */
overtraining_weights
overtraining_token_weights(const overtraining_factors *f)
{
    if (!valid_factors(f))
        return (overtraining_weights){.reason =
                                          "the factors are not valid"};
    overtraining_weights w = {.exists = true};
    w.rl = f->rl_flops_per_param / (6.0 * f->rl_efficiency);
    w.inference = 2.0 / (6.0 * f->inference_efficiency);
    if (!positive(w.rl) || !positive(w.inference))
        return (overtraining_weights){.reason =
                                          "a weight overflows a double"};
    return w;
}

overtraining_weights
overtraining_token_weights_slipped(const overtraining_factors *f)
{
    if (!valid_factors(f))
        return (overtraining_weights){.reason =
                                          "the factors are not valid"};
    /* as first written on the board: efficiency multiplied */
    overtraining_weights w = {.exists = true};
    w.rl = f->rl_flops_per_param * f->rl_efficiency / 6.0;
    w.inference = 2.0 * f->inference_efficiency / 6.0;
    return w;
}
/* endregion: weights */

/* ---- Exercise 4.7 ---------------------------------------------------- */

/* region: equal-cost */
overtraining_token_ratios
overtraining_equal_cost(const overtraining_factors *f,
                        const overtraining_split *s)
{
    overtraining_token_ratios none = {.exists = false};
    overtraining_weights w = overtraining_token_weights(f);
    if (!w.exists || !valid_split(s)) {
        none.reason =
            "need valid factors and a split with a share for pre-training";
        return none;
    }
    /* C_RL / C_pre = w_RL D_RL / D must equal phi_RL / phi_pre; likewise
     * inference */
    overtraining_token_ratios r = {.exists = true};
    r.rl_per_pretrain = s->rl_share / (s->pretrain_share * w.rl);
    r.inference_per_pretrain =
        s->inference_share / (s->pretrain_share * w.inference);
    if (!non_negative(r.rl_per_pretrain) ||
        !non_negative(r.inference_per_pretrain)) {
        none.reason = "a ratio overflows a double";
        return none;
    }
    return r;
}
/* endregion: equal-cost */

/* ---- Exercise 4.8 ---------------------------------------------------- */

/* region: estimate */
double overtraining_inference_tokens(const overtraining_fleet *fleet)
{
    if (!non_negative(fleet->tokens_per_s) || !non_negative(fleet->days) ||
        !(fleet->use_probability >= 0.0 && fleet->use_probability <= 1.0))
        return NAN;
    double seconds = fleet->days * SECONDS_PER_DAY;
    double tokens = fleet->tokens_per_s * seconds * fleet->use_probability;
    return isfinite(tokens) ? tokens : NAN;
}

double overtraining_factor(double pretrain_tokens, double params_active,
                           double tokens_per_param)
{
    if (!positive(pretrain_tokens) || !positive(params_active) ||
        !positive(tokens_per_param))
        return NAN;
    double rule_tokens = tokens_per_param * params_active;
    double factor = pretrain_tokens / rule_tokens;
    return positive(factor) ? factor : NAN;
}
/* endregion: estimate */

/* ---- Exercise 4.9 ---------------------------------------------------- */

/* region: from-traffic */
overtraining_estimate
overtraining_from_traffic(const overtraining_fleet *fleet,
                          const overtraining_factors *f,
                          const overtraining_split *s, double params_active,
                          double tokens_per_param)
{
    overtraining_estimate none = {.exists = false};
    double served = overtraining_inference_tokens(fleet);
    overtraining_token_ratios r = overtraining_equal_cost(f, s);
    if (isnan(served) || !r.exists || !positive(params_active) ||
        !positive(tokens_per_param)) {
        none.reason = "need a valid fleet, factors, split, model and rule";
        return none;
    }
    if (!(r.inference_per_pretrain > 0.0)) {
        none.reason =
            "with no share for serving, traffic does not set pre-training";
        return none;
    }
    /* D_inf / D is the split's ratio: D = D_inf / (D_inf / D) */
    overtraining_estimate e = {.exists = true, .inference_tokens = served};
    e.pretrain_tokens = served / r.inference_per_pretrain;
    e.tokens_per_param = e.pretrain_tokens / params_active;
    e.overtrain_factor = e.tokens_per_param / tokens_per_param;
    if (!non_negative(e.pretrain_tokens) ||
        !non_negative(e.tokens_per_param) ||
        !non_negative(e.overtrain_factor)) {
        none.reason = "the answer overflows a double";
        return none;
    }
    return e;
}
/* endregion: from-traffic */

/* ---- Exercise 4.10 --------------------------------------------------- */

/* region: lifetime */
overtraining_lifetime overtraining_lifetime_at(const cost_scaling_fit *fit,
                                               double params, double loss,
                                               double inference_tokens)
{
    overtraining_lifetime none = {.exists = false};
    if (!positive(params) || !non_negative(inference_tokens)) {
        none.reason = "need a positive, finite model and a demand >= 0";
        return none;
    }
    overtraining_tokens t = overtraining_tokens_for_loss(fit, params, loss);
    if (!t.exists) {
        none.reason = t.reason;
        return none;
    }
    overtraining_lifetime l = {
        .exists = true, .params = params, .loss = loss};
    l.train_tokens = t.tokens;
    l.tokens_per_param = t.tokens / params;
    l.train_flops = 6.0 * params * t.tokens;
    l.inference_flops = 2.0 * params * inference_tokens;
    l.total_flops = l.train_flops + l.inference_flops;
    if (!isfinite(l.total_flops) || !isfinite(l.tokens_per_param)) {
        none.reason = "a FLOP count overflows a double";
        return none;
    }
    return l;
}
/* endregion: lifetime */

/* region: inference-optimal */
/* region: inference-optimal-slope */
/* psi: the parameter term over the data term, each times its exponent.
 * It is 1 on the compute-optimal frontier and above 1 for smaller models:
 * §4.3 (The compute-optimal frontier). */
static double psi_of(const cost_scaling_fit *f, double params,
                     double tokens)
{
    return f->alpha_params * params_term(f, params) /
           (f->alpha_tokens * tokens_term(f, tokens));
}

typedef struct target {
    const cost_scaling_fit *fit;
    double loss, inference_tokens;
} target;

/* d(total FLOPs)/dN divided by 6, as a function of ln N:
 *     D (1 - psi) + D_inf / 3.
 * Negative for small models (which need huge D), positive past the
 * optimum. */
static double slope_of_total(double log_params, const void *ctx)
{
    const target *t = ctx;
    double params = exp(log_params);
    double tokens =
        overtraining_tokens_for_loss(t->fit, params, t->loss).tokens;
    double psi = psi_of(t->fit, params, tokens);
    return tokens * (1.0 - psi) + t->inference_tokens / 3.0;
}
/* endregion: inference-optimal-slope */

/* region: inference-optimal-search */
overtraining_lifetime
overtraining_inference_optimal(const cost_scaling_fit *fit, double loss,
                               double inference_tokens)
{
    overtraining_lifetime none = {.exists = false};
    if (!(loss > fit->irreducible && loss <= MAX_LOSS)) {
        none.reason =
            "the loss must lie above the irreducible loss, at most 20 nats";
        return none;
    }
    if (!(inference_tokens >= 0.0 &&
          inference_tokens <= MAX_INFERENCE_TOKENS)) {
        none.reason = "the demand must lie in [0, 1e30] tokens";
        return none;
    }
    overtraining_optimum chinchilla =
        overtraining_chinchilla_for_loss(fit, loss);
    overtraining_size smallest = overtraining_min_params(fit, loss);
    if (!chinchilla.exists || !smallest.exists) {
        none.reason =
            "the compute-optimal model for the loss overflows a double";
        return none;
    }
    /* Bracket: just above the smallest model that reaches the loss (where
     * the parameter term takes all of it: the slope is very negative) to
     * just above the compute-optimal model (psi = 1 there, so the slope is
     * D_inf / 3, never negative, and a hair past it the slope is positive
     * even with no inference).
     */
    target t = {fit, loss, inference_tokens};
    double log_params = log(chinchilla.params);
    double lo = log(smallest.params) + 1e-9,
           hi = log(chinchilla.params) + 1e-9;
    if (!cost_bisect(slope_of_total, &t, lo, hi, 1e-12, &log_params)) {
        none.reason = "the slope has no sign change in the bracket";
        return none;
    }
    return overtraining_lifetime_at(fit, exp(log_params), loss,
                                    inference_tokens);
}
/* endregion: inference-optimal-search */
/* endregion: inference-optimal */

/* region: saved */
double overtraining_saved_flops(const overtraining_lifetime *reference,
                                const overtraining_lifetime *best)
{
    double saved = reference->total_flops - best->total_flops;
    return saved > 1e-9 * reference->total_flops ? saved : 0.0;
}
/* endregion: saved */

/* ---- Exercise 4.11 --------------------------------------------------- */

/* region: budget-optimal */
/* region: budget-optimal-slope */
typedef struct budget {
    const cost_scaling_fit *fit;
    double lifetime_flops, inference_tokens;
} budget;

/* What the budget leaves for training a model of `params`, from
 *     6 N D + 2 N D_inf = C. */
static double budget_tokens(const budget *b, double params)
{
    return b->lifetime_flops / (6.0 * params) - b->inference_tokens / 3.0;
}

/* d(loss)/d(ln N) along the budget, over alpha_D l_D:
 *     psi - 1 - D_inf / (3 D).
 * Positive for small models, negative for large ones; -infinity once the
 * budget leaves nothing for training. */
static double slope_of_loss(double log_params, const void *ctx)
{
    const budget *b = ctx;
    double params = exp(log_params);
    double tokens = budget_tokens(b, params);
    if (!(tokens > 0.0))
        return -INFINITY;
    return psi_of(b->fit, params, tokens) - 1.0 -
           b->inference_tokens / (3.0 * tokens);
}
/* endregion: budget-optimal-slope */

/* region: budget-optimal-search */
overtraining_lifetime
overtraining_budget_optimal(const cost_scaling_fit *fit,
                            double lifetime_flops, double inference_tokens)
{
    overtraining_lifetime none = {.exists = false};
    if (!(lifetime_flops > 0.0 && lifetime_flops <= MAX_LIFETIME_FLOPS) ||
        !(inference_tokens >= 0.0 &&
          inference_tokens <= MAX_INFERENCE_TOKENS)) {
        none.reason =
            "need a budget in (0, 1e40] FLOPs and a demand in [0, 1e30]";
        return none;
    }
    if (!(inference_tokens <= lifetime_flops / MIN_FLOPS_PER_SERVED_TOKEN)) {
        none.reason = "the demand must be at most the budget / 1e4 tokens";
        return none;
    }
    /* The optimum is smaller than the compute-optimal model of the whole
     * budget and than the model whose serving alone spends it,
     *     C / (2 D_inf). */
    budget b = {fit, lifetime_flops, inference_tokens};
    double largest = overtraining_chinchilla(fit, lifetime_flops).params;
    if (inference_tokens > 0.0)
        largest = fmin(largest, lifetime_flops / (2.0 * inference_tokens));
    double hi = log(largest) + 1e-9, lo = hi - 60.0;
    double log_params = hi;
    if (!cost_bisect(slope_of_loss, &b, lo, hi, 1e-12, &log_params)) {
        none.reason = "the slope has no sign change in the bracket";
        return none;
    }
    double params = exp(log_params), tokens = budget_tokens(&b, params);
    overtraining_lifetime l = {.exists = true, .params = params};
    l.train_tokens = tokens;
    l.tokens_per_param = tokens / params;
    l.loss = overtraining_loss(fit, params, tokens);
    l.train_flops = 6.0 * params * tokens;
    l.inference_flops = 2.0 * params * inference_tokens;
    l.total_flops = l.train_flops + l.inference_flops;
    return l;
}
/* endregion: budget-optimal-search */
/* endregion: budget-optimal */
