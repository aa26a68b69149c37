/*
 * overtraining.c -- Chapter 4 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests run
 * and fail. Replace each body with your implementation; its comment names
 * the section of the book (chapter 4 of chalk.pdf) that derives it, and the
 * contract (units, valid inputs, what to return when there is no answer) is
 * in overtraining.h beside this file.
 *
 *   make check CH=04     run the chapter's tests against this file
 *   make hint CH=04      show the next hint for the first failing exercise
 */
#include "overtraining.h"

#include <math.h>

/* ---- Exercise 4.1 (*) loss ------------------------------------------- */

double overtraining_loss(const cost_scaling_fit *fit, double params,
                         double tokens)
{
    /* TODO §4.2 (The loss law and its fits): the irreducible loss plus one
     * term for the model, one for the data. */
    (void)fit;
    (void)params;
    (void)tokens;
    return 0.0;
}

overtraining_terms overtraining_loss_terms(const cost_scaling_fit *fit, double params,
                                           double tokens)
{
    /* TODO §4.2 (The loss law and its fits): each term is the loss with the
     * other resource unlimited, less the irreducible loss; a bad input spoils
     * only its own term (NaN). */
    (void)fit;
    (void)params;
    (void)tokens;
    overtraining_terms t = {0};
    return t;
}

/* ---- Exercise 4.2 (**) frontier -------------------------------------- */

overtraining_optimum overtraining_chinchilla(const cost_scaling_fit *fit,
                                             double flops)
{
    /* TODO §4.3 (The compute-optimal frontier): the model and data of least
     * loss for the budget; fill every field. */
    (void)fit;
    (void)flops;
    overtraining_optimum o = {0};
    return o;
}

overtraining_exponents overtraining_frontier_exponents(const cost_scaling_fit *fit)
{
    /* TODO §4.3 (The compute-optimal frontier): the powers of the budget that
     * the compute-optimal model and its data grow as. */
    (void)fit;
    overtraining_exponents e = {0};
    return e;
}

overtraining_optimum
overtraining_chinchilla_for_params(const cost_scaling_fit *fit,
                                   double params)
{
    /* TODO §4.3 (The compute-optimal frontier): the tokens for which this
     * size is the best model of its own budget; fill every field. */
    (void)fit;
    (void)params;
    overtraining_optimum o = {0};
    return o;
}

/* ---- Exercise 4.3 (**) iso_loss -------------------------------------- */

overtraining_tokens
overtraining_tokens_for_loss(const cost_scaling_fit *fit, double params,
                             double loss)
{
    /* TODO §4.4 (Holding quality fixed): the tokens with which this model's
     * loss is exactly the target; say so when no amount of data is enough. */
    (void)fit;
    (void)params;
    (void)loss;
    overtraining_tokens t = {0};
    return t;
}

overtraining_size overtraining_min_params(const cost_scaling_fit *fit,
                                          double loss)
{
    /* TODO §4.4 (Holding quality fixed): the size below which no amount of
     * data reaches the loss. */
    (void)fit;
    (void)loss;
    overtraining_size n = {0};
    return n;
}

overtraining_optimum
overtraining_chinchilla_for_loss(const cost_scaling_fit *fit, double loss)
{
    /* TODO §4.4 (Holding quality fixed): the model on the compute-optimal
     * frontier whose loss is the target; fill every field. */
    (void)fit;
    (void)loss;
    overtraining_optimum o = {0};
    return o;
}

/* ---- Exercise 4.4 (*) cost_terms ------------------------------------- */

overtraining_costs overtraining_cost_terms(const overtraining_plan *plan)
{
    /* TODO §4.5 (Three costs of a model's life): pre-training, RL and
     * inference FLOPs, and their total. */
    (void)plan;
    overtraining_costs c = {0};
    return c;
}

/* ---- Exercise 4.5 (**) heuristic ------------------------------------- */

double overtraining_optimum_term_ratio(double mu, double nu)
{
    /* TODO §4.6 (The equal-cost heuristic): the falling term over the rising
     * term where their sum is least. */
    (void)mu;
    (void)nu;
    return 0.0;
}

double overtraining_equal_cost_penalty(double mu, double nu)
{
    /* TODO §4.6 (The equal-cost heuristic): the cost where the terms are
     * equal over the least cost. */
    (void)mu;
    (void)nu;
    return 0.0;
}

/* ---- Exercise 4.6 (*) sign_slip -------------------------------------- */

overtraining_weights
overtraining_token_weights(const overtraining_factors *f)
{
    /* TODO §4.7 (Sizing the coefficients, and the slip): an RL token and a
     * served token, in pre-training tokens. */
    (void)f;
    overtraining_weights w = {0};
    return w;
}

overtraining_weights
overtraining_token_weights_slipped(const overtraining_factors *f)
{
    /* TODO §4.7 (Sizing the coefficients, and the slip): the lecture's
     * first pass, as it was written on the board. */
    (void)f;
    overtraining_weights w = {0};
    return w;
}

/* ---- Exercise 4.7 (*) equal_cost ------------------------------------- */

overtraining_token_ratios
overtraining_equal_cost(const overtraining_factors *f,
                        const overtraining_split *s)
{
    /* TODO §4.7 (Sizing the coefficients, and the slip): token counts that
     * give each term its share of the cost. */
    (void)f;
    (void)s;
    overtraining_token_ratios r = {0};
    return r;
}

/* ---- Exercise 4.8 (*) estimate --------------------------------------- */

double overtraining_inference_tokens(const overtraining_fleet *fleet)
{
    /* TODO §4.8 (The worked estimate): tokens per second over the whole
     * deployment, derated. */
    (void)fleet;
    return 0.0;
}

double overtraining_factor(double pretrain_tokens, double params_active,
                           double tokens_per_param)
{
    /* TODO §4.8 (The worked estimate): how many times the rule's token
     * count the model saw. */
    (void)pretrain_tokens;
    (void)params_active;
    (void)tokens_per_param;
    return 0.0;
}

/* ---- Exercise 4.9 (*) from_traffic ----------------------------------- */

overtraining_estimate
overtraining_from_traffic(const overtraining_fleet *fleet,
                          const overtraining_factors *f,
                          const overtraining_split *s, double params_active,
                          double tokens_per_param)
{
    /* TODO §4.8 (The worked estimate): from the traffic to the pre-training
     * tokens the split asks for, and how far past the rule they are. */
    (void)fleet;
    (void)f;
    (void)s;
    (void)params_active;
    (void)tokens_per_param;
    overtraining_estimate e = {0};
    return e;
}

/* ---- Exercise 4.10 (***) inference_optimal --------------------------- */

overtraining_lifetime overtraining_lifetime_at(const cost_scaling_fit *fit,
                                               double params, double loss,
                                               double inference_tokens)
{
    /* TODO §4.9 (Beyond the lecture: the inference-optimal model): train just
     * long enough to reach the loss, then serve. */
    (void)fit;
    (void)params;
    (void)loss;
    (void)inference_tokens;
    overtraining_lifetime l = {0};
    return l;
}

overtraining_lifetime
overtraining_inference_optimal(const cost_scaling_fit *fit, double loss,
                               double inference_tokens)
{
    /* TODO §4.9 (Beyond the lecture: the inference-optimal model): search the
     * models that reach the loss for the one of least lifetime FLOPs. */
    (void)fit;
    (void)loss;
    (void)inference_tokens;
    overtraining_lifetime l = {0};
    return l;
}

double overtraining_saved_flops(const overtraining_lifetime *reference,
                                const overtraining_lifetime *best)
{
    /* TODO §4.9 (Beyond the lecture: the inference-optimal model): what best
     * saves; rounding, and a best that costs more, save nothing (0). */
    (void)reference;
    (void)best;
    return -1.0;
}

/* ---- Exercise 4.11 (***) budget_optimal ------------------------------ */

overtraining_lifetime
overtraining_budget_optimal(const cost_scaling_fit *fit,
                            double lifetime_flops, double inference_tokens)
{
    /* TODO §4.10 (The best model a lifetime budget buys): search the models
     * the budget can pay for, training and serving, for the least loss. */
    (void)fit;
    (void)lifetime_flops;
    (void)inference_tokens;
    overtraining_lifetime l = {0};
    return l;
}
