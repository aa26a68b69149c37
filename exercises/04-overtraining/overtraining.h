/*
 * overtraining.h -- Chapter 4: over-training, or why frontier models are trained far
 * past Chinchilla.
 *
 * The contract for chapter 4. You implement these functions in
 * exercises/04-overtraining/overtraining.c; the tests in tests/04-overtraining/ check
 * them, and the reference in solutions/04-overtraining/overtraining.c is what the
 * book's numbers come from. Read chapters/04-overtraining.md alongside.
 *
 * The model (lecture section 5). A model of N parameters (for a mixture of experts,
 * its active parameters) trained on D tokens reaches the loss, in nats per token,
 *
 *   L(N, D) = L_inf + A_N / N^alpha_N + A_D / D^alpha_D          (a cost_scaling_fit)
 *
 * and its life costs three terms, in FLOPs at pre-training's utilisation:
 *
 *   pre-training  6 N D                    (2 forward + 4 backward per parameter)
 *   RL            k_RL N D_RL / eta_RL     (k_RL from 2 to 6)
 *   inference     2 N D_inf / eta_inf      (forward only)
 *
 * Compute-optimal ("Chinchilla") means the lowest loss for C = 6 N D FLOPs;
 * inference-optimal means the least pre-training plus inference FLOPs for a loss.
 * All quantities are doubles: parameters and tokens are counts, FLOPs a count,
 * losses in nats per token, times in days where the name says so.
 */
#ifndef CHALK_OVERTRAINING_H
#define CHALK_OVERTRAINING_H

#include <stdbool.h>

#include "cost.h"

/* ---- Exercise 4.1 (*) loss: the Chinchilla loss law ---------------- §4.2 */

/* L(N, D) = L_inf + A_N / N^alpha_N + A_D / D^alpha_D, in nats per token, for a
 * model of `params` parameters trained on `tokens` tokens.
 * Preconditions: params > 0, tokens > 0. */
double overtraining_loss(const cost_scaling_fit *fit, double params, double tokens);

/* The two reducible terms of L(N, D), each the loss with the other resource
 * unlimited less L_inf: params_term = L(N, inf) - L_inf = A_N / N^alpha_N, and
 * tokens_term = L(inf, D) - L_inf = A_D / D^alpha_D. Preconditions: both > 0. */
typedef struct overtraining_terms {
    double params_term;
    double tokens_term;
} overtraining_terms;

overtraining_terms overtraining_loss_terms(const cost_scaling_fit *fit, double params,
                                           double tokens);

/* ---- Exercise 4.2 (**) frontier: the compute-optimal model --------- §4.3 */

/* A point of the compute-optimal frontier. */
typedef struct overtraining_optimum {
    bool exists;             /* false only from overtraining_chinchilla_for_loss */
    double flops;            /* C = 6 N D */
    double params;           /* N_opt */
    double tokens;           /* D_opt */
    double tokens_per_param; /* D_opt / N_opt */
    double loss;             /* L(N_opt, D_opt), nats per token */
} overtraining_optimum;

/* The model of least loss that `flops` of pre-training can buy, C = 6 N D:
 * N_opt = G (C/6)^gamma_N, D_opt = (C/6) / N_opt, with
 * G = (alpha_N A_N / (alpha_D A_D))^(1 / (alpha_N + alpha_D)) and
 * gamma_N = alpha_D / (alpha_N + alpha_D). Precondition: flops > 0. */
overtraining_optimum overtraining_chinchilla(const cost_scaling_fit *fit, double flops);

/* The exponents of the frontier: N_opt grows as C^gamma_N and D_opt as C^gamma_D,
 * gamma_N = alpha_D / (alpha_N + alpha_D), gamma_D = alpha_N / (alpha_N + alpha_D). */
typedef struct overtraining_exponents {
    double params; /* gamma_N */
    double tokens; /* gamma_D */
} overtraining_exponents;

overtraining_exponents overtraining_frontier_exponents(const cost_scaling_fit *fit);

/* The compute-optimal training of a model of `params` parameters: the tokens D for
 * which N is the optimum of C = 6 N D, D = (alpha_D A_D N^alpha_N / (alpha_N A_N))^(1/alpha_D),
 * and the FLOPs, ratio and loss that go with them. Precondition: params > 0. */
overtraining_optimum overtraining_chinchilla_for_params(const cost_scaling_fit *fit,
                                                        double params);

/* ---- Exercise 4.3 (**) iso_loss: what it takes to reach a loss ------ §4.4 */

/* Tokens a model of some size needs to reach a loss, or the reason there are none. */
typedef struct overtraining_tokens {
    bool exists;   /* false when even infinite data leaves the loss above the target */
    double tokens; /* D with L(N, D) = loss; 0 when !exists */
} overtraining_tokens;

/* Solves L(params, D) = loss for D: D = (A_D / (loss - L_inf - A_N / N^alpha_N))^(1/alpha_D).
 * No D exists when loss <= L_inf + A_N / N^alpha_N. Preconditions: params > 0. */
overtraining_tokens overtraining_tokens_for_loss(const cost_scaling_fit *fit, double params,
                                                 double loss);

/* A model size, or the reason there is none. */
typedef struct overtraining_size {
    bool exists;   /* false when no model reaches the loss */
    double params; /* 0 when !exists */
} overtraining_size;

/* The smallest model that reaches `loss` with unlimited data, where the parameter
 * term alone is the reducible loss: N_min = (A_N / (loss - L_inf))^(1/alpha_N).
 * exists is false when loss <= L_inf. */
overtraining_size overtraining_min_params(const cost_scaling_fit *fit, double loss);

/* The compute-optimal model that reaches `loss`: the parameter and data terms split
 * the reducible loss dL = loss - L_inf as alpha_D : alpha_N, so
 * N = (A_N (alpha_N + alpha_D) / (alpha_D dL))^(1/alpha_N) and
 * D = (A_D (alpha_N + alpha_D) / (alpha_N dL))^(1/alpha_D).
 * exists is false (all else 0) when loss <= L_inf: no model reaches it. */
overtraining_optimum overtraining_chinchilla_for_loss(const cost_scaling_fit *fit,
                                                      double loss);

/* ---- Exercise 4.4 (*) cost_terms: the three costs of a model's life --- §4.5 */

/* How expensive an RL token and a served token are, next to a pre-training token. */
typedef struct overtraining_factors {
    double rl_flops_per_param;   /* k_RL: 2 if rollouts are only generated, 6 if all trained on */
    double rl_efficiency;        /* eta_RL: RL's FLOP utilisation over pre-training's, in (0, 1] */
    double inference_efficiency; /* eta_inf: serving's utilisation over pre-training's, (0, 1] */
} overtraining_factors;

/* One model's life: its size, its tokens, and the factors above. */
typedef struct overtraining_plan {
    double params_active;    /* N: parameters one token multiplies through */
    double pretrain_tokens;  /* D */
    double rl_tokens;        /* D_RL: tokens generated in RL rollouts */
    double inference_tokens; /* D_inf: tokens served over the model's life */
    overtraining_factors factors;
} overtraining_plan;

/* The three terms, in FLOPs at pre-training's utilisation (machine time times
 * pre-training's FLOP/s): the FLOPs RL and inference do, divided by their efficiency. */
typedef struct overtraining_costs {
    double pretrain_flops;  /* 6 N D */
    double rl_flops;        /* k_RL N D_RL / eta_RL */
    double inference_flops; /* 2 N D_inf / eta_inf */
    double total_flops;     /* their sum */
} overtraining_costs;

/* Preconditions: params_active > 0, token counts >= 0, k_RL > 0, efficiencies > 0. */
overtraining_costs overtraining_cost_terms(const overtraining_plan *plan);

/* ---- Exercise 4.5 (**) heuristic: "the minimum is where the costs are equal" §4.6 */

/* For a total cost c_down u^-mu + c_up u^nu, one term falling and one rising
 * with a knob u (c_down, c_up, mu, nu > 0): at the minimum the falling term
 * over the rising term is nu / mu, whatever c_down and c_up are.
 * Preconditions: mu > 0, nu > 0. */
double overtraining_optimum_term_ratio(double mu, double nu);

/* How much the heuristic costs: the total at the u where the two terms are equal,
 * over the minimum total. 1 when mu == nu, above 1 otherwise; it depends on
 * the exponents only. Preconditions: mu > 0, nu > 0. */
double overtraining_equal_cost_penalty(double mu, double nu);

/* ---- Exercise 4.6 (*) sign_slip: the coefficients, slipped and corrected  §4.7 */

/* What one RL token and one served token cost, in pre-training tokens of the same
 * model (N cancels): their FLOP cost over a pre-training token's 6 N. */
typedef struct overtraining_weights {
    double rl;        /* w_RL = k_RL / (6 eta_RL) */
    double inference; /* w_inf = 2 / (6 eta_inf) */
} overtraining_weights;

/* The corrected coefficients: lower efficiency makes a token cost MORE, so the
 * efficiency divides. Preconditions: as for overtraining_cost_terms. */
overtraining_weights overtraining_token_weights(const overtraining_factors *f);

/* The lecture's first pass, kept so the slip can be shown beside its correction:
 * the efficiency multiplied, k_RL eta_RL / 6 and 2 eta_inf / 6. Each is the
 * corrected weight times eta^2. */
overtraining_weights overtraining_token_weights_slipped(const overtraining_factors *f);

/* ---- Exercise 4.7 (**) equal_cost: tokens per pre-training token ------ §4.7 */

/* How the total cost is to be split; the shares are fractions that sum to 1. */
typedef struct overtraining_split {
    double pretrain_share;  /* phi_pre */
    double rl_share;        /* phi_RL */
    double inference_share; /* phi_inf */
} overtraining_split;

/* Token counts per pre-training token that spend the budget in the shares given. */
typedef struct overtraining_token_ratios {
    double rl_per_pretrain;        /* D_RL / D = phi_RL / (phi_pre w_RL) */
    double inference_per_pretrain; /* D_inf / D = phi_inf / (phi_pre w_inf) */
} overtraining_token_ratios;

/* Preconditions: pretrain_share > 0, the other shares >= 0. */
overtraining_token_ratios overtraining_equal_cost(const overtraining_factors *f,
                                                  const overtraining_split *s);

/* ---- Exercise 4.8 (*) estimate: the lecture's ~100x ------------------ §4.8 */

/* One model's traffic over its deployment. */
typedef struct overtraining_fleet {
    double tokens_per_s;    /* tokens this model serves per second */
    double days;            /* how long it is served */
    double use_probability; /* the chance the run is deployed at all, in [0, 1] */
} overtraining_fleet;

/* Lifetime inference tokens, derated by the chance of use: rate x seconds x p.
 * Preconditions: tokens_per_s >= 0, days >= 0, 0 <= use_probability <= 1. */
double overtraining_inference_tokens(const overtraining_fleet *fleet);

/* How many times past a tokens-per-parameter rule (Chinchilla's 20) a model of
 * `params_active` parameters trained on `pretrain_tokens` tokens is:
 * D / (tokens_per_param x N). Preconditions: all three > 0. */
double overtraining_factor(double pretrain_tokens, double params_active,
                           double tokens_per_param);

/* ---- Exercise 4.9 (***) inference_optimal: the least FLOPs for a loss -- §4.9 */

/* A model that reaches a loss, and what its life costs with D_inf tokens served. */
typedef struct overtraining_lifetime {
    bool exists;             /* false when the model cannot reach the loss */
    double params;           /* N */
    double train_tokens;     /* D with L(N, D) = loss */
    double tokens_per_param; /* D / N */
    double train_flops;      /* 6 N D */
    double inference_flops;  /* 2 N D_inf */
    double total_flops;      /* their sum */
} overtraining_lifetime;

/* The life of a model of `params` parameters trained just long enough to reach
 * `loss`; exists is false (all else 0) when no amount of data gets it there.
 * Preconditions: params > 0, inference_tokens >= 0. */
overtraining_lifetime overtraining_lifetime_at(const cost_scaling_fit *fit, double params,
                                               double loss, double inference_tokens);

/* The model of least total FLOPs 6 N D + 2 N D_inf that reaches `loss` (Sardana et
 * al. 2023). There is no closed form: the minimum is the root, in N, of
 *     6 D (1 - psi) + 2 D_inf,   psi = alpha_N A_N N^-alpha_N / (alpha_D A_D D^-alpha_D),
 * which lies between the smallest model that can reach the loss and the
 * compute-optimal one (where psi = 1); find it with cost_bisect (lib/numeric.h).
 * With no inference it is the compute-optimal model. exists is false (all else 0)
 * when loss <= L_inf. Precondition: inference_tokens >= 0 and finite. */
overtraining_lifetime overtraining_inference_optimal(const cost_scaling_fit *fit,
                                                     double loss, double inference_tokens);

/* The lifetime FLOPs `best` saves against `reference`: reference's total minus
 * best's. A difference below rounding, under 1e-9 of the reference's total, is 0,
 * and so is a negative one when best is the inference-optimal model of the same loss
 * and demand (it is never the dearer: only rounding makes it look so, e.g. 8 MFLOP
 * out of 2e22 when the reference is the optimum itself). Preconditions: both exist. */
double overtraining_saved_flops(const overtraining_lifetime *reference,
                                const overtraining_lifetime *best);

#endif /* CHALK_OVERTRAINING_H */
