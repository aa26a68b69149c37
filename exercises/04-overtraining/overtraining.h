/*
 * overtraining.h -- Chapter 4: over-training, or why frontier models are
 * trained far past Chinchilla.
 *
 * The contract for chapter 4. You implement these functions in
 * exercises/04-overtraining/overtraining.c; `make check CH=04` runs the
 * tests of tests/04-overtraining/ against it. Each function says what it
 * returns, in which units, for which inputs, what it returns when there is
 * no answer, and which section of the book (chapter 4 of chalk.pdf)
 * derives it.
 *
 * The model. A model of N parameters (for a mixture of experts, its active
 * parameters) trained on D tokens reaches a loss, in nats per token, given
 * by Chinchilla's loss law, §4.2 (The loss law and its fits):
 *
 *     L(N, D) = L_inf + A_N / N^alpha_N + A_D / D^alpha_D
 *
 * (a cost_scaling_fit, lib/scaling.h), and its life costs three terms, in
 * FLOPs at pre-training's utilisation, §4.5 (Three costs of a model's
 * life):
 *
 *     pre-training   6 N D                  (2 forward + 4 backward)
 *     RL             k_RL N D_RL / eta_RL   (k_RL from 2 to 6)
 *     inference      2 N D_inf / eta_inf    (forward only)
 *
 * Compute-optimal ("Chinchilla") means the lowest loss for a pre-training
 * budget of C FLOPs, C = 6 N D; inference-optimal means the least
 * pre-training plus inference FLOPs for a loss. Parameters and tokens are
 * counts, FLOPs a count, losses nats per token, all doubles.
 *
 * No answer. No function here asserts or crashes on an input it is given.
 * A function that returns a double returns NaN when an input is outside
 * the range its comment states or the answer would not be finite (it
 * overflows). A function that returns a struct, in the same cases, sets
 * exists = false, a short reason (a string constant of your choice, never
 * NULL) and every number to 0; when exists is true, reason is NULL. An
 * input is in range only if it is a number (not NaN) in the stated range;
 * +INFINITY only where the comment says so.
 */
#ifndef CHALK_OVERTRAINING_H
#define CHALK_OVERTRAINING_H

#include <stdbool.h>

#include "cost.h"

/* ---- Exercise 4.1 (*) loss: the Chinchilla loss law --------------- */

/* The loss, in nats per token, of a model of `params` parameters trained
 * on `tokens` tokens, §4.2 (The loss law and its fits):
 *     L_inf + A_N / N^alpha_N + A_D / D^alpha_D
 * with the fit's constants. Inputs: params > 0, tokens > 0; either may be
 * +INFINITY, meaning unlimited (its term is then 0). NaN otherwise. */
double overtraining_loss(const cost_scaling_fit *fit, double params,
                         double tokens);

/* The two reducible terms of L(N, D), each the loss with the other resource
 * unlimited less L_inf: params_term = L(N, inf) - L_inf = A_N / N^alpha_N, and
 * tokens_term = L(inf, D) - L_inf = A_D / D^alpha_D, nats per token, §4.2 (The loss law
 * and its fits). Each term depends on its own input only: params_term is NaN unless
 * params > 0, tokens_term NaN unless tokens > 0 (NaN is not > 0); an input of
 * +INFINITY (unlimited) gives its term 0. A bad input spoils only its own term. */
typedef struct overtraining_terms {
    double params_term;
    double tokens_term;
} overtraining_terms;

overtraining_terms overtraining_loss_terms(const cost_scaling_fit *fit, double params,
                                           double tokens);

/* ---- Exercise 4.2 (**) frontier: the compute-optimal model -------- */

/* A model and its training on the compute-optimal frontier. */
typedef struct overtraining_optimum {
    bool exists;             /* false when there is no answer */
    const char *reason;      /* why not; NULL when exists */
    double flops;            /* C, the pre-training FLOPs: 6 N D */
    double params;           /* N, parameters */
    double tokens;           /* D, training tokens */
    double tokens_per_param; /* D / N */
    double loss;             /* L(N, D), nats per token */
} overtraining_optimum;

/* The model of least loss that `flops` FLOPs of pre-training buy: its
 * size, its tokens, their ratio and its loss, §4.3 (The compute-optimal
 * frontier). No answer unless flops > 0 and finite, or if the answer
 * overflows. */
overtraining_optimum overtraining_chinchilla(const cost_scaling_fit *fit,
                                             double flops);

/* The exponents of the frontier, §4.3 (The compute-optimal frontier): along it the
 * compute-optimal model's parameters grow as C^gamma_N and its tokens as C^gamma_D
 * (dimensionless, the same at every budget). They depend on the fit's two exponents
 * alone; the fit's exponents are > 0, so each is in (0, 1). */
typedef struct overtraining_exponents {
    double params; /* gamma_N */
    double tokens; /* gamma_D */
} overtraining_exponents;

overtraining_exponents overtraining_frontier_exponents(const cost_scaling_fit *fit);

/* The compute-optimal training of a model of `params` parameters: the
 * tokens D for which this N is the compute-optimal model of its own
 * budget, and the FLOPs, ratio and loss that go with them, §4.3 (The
 * compute-optimal frontier). No answer unless params > 0 and finite, or if
 * the answer overflows (a model of 1e300 parameters needs more FLOPs than
 * a double holds). */
overtraining_optimum
overtraining_chinchilla_for_params(const cost_scaling_fit *fit,
                                   double params);

/* ---- Exercise 4.3 (**) iso_loss: what it takes to reach a loss ---- */

/* Tokens a model of some size needs to reach a loss. */
typedef struct overtraining_tokens {
    bool exists;        /* see overtraining_tokens_for_loss */
    const char *reason; /* why not; NULL when exists */
    double tokens;      /* D with L(N, D) = loss; 0 when !exists */
} overtraining_tokens;

/* The training tokens with which a model of `params` parameters reaches
 * exactly `loss` nats per token, §4.4 (Holding quality fixed). No answer
 * when params is not > 0 and finite, when loss is not finite, when even
 * unlimited data leaves the loss at or above the target (a target exactly
 * at the model's floor needs infinite data: no answer), or when the answer
 * is not representable: it overflows to infinity, or it underflows to 0 (a
 * target of 1e300 nats is met by fewer tokens than the smallest double). */
overtraining_tokens
overtraining_tokens_for_loss(const cost_scaling_fit *fit, double params,
                             double loss);

/* A model size. */
typedef struct overtraining_size {
    bool exists;        /* see overtraining_min_params */
    const char *reason; /* why not; NULL when exists */
    double params;      /* parameters; 0 when !exists */
} overtraining_size;

/* The smallest model that reaches `loss` nats per token with unlimited
 * data (below it no amount of data will do), §4.4 (Holding quality fixed).
 * No answer when loss is not finite or is at or below the fit's
 * irreducible loss L_inf, or when the answer overflows. */
overtraining_size overtraining_min_params(const cost_scaling_fit *fit,
                                          double loss);

/* The compute-optimal model that reaches `loss` nats per token: the (N, D)
 * on the frontier whose loss is `loss`, with its FLOPs and ratio, §4.4
 * (Holding quality fixed). No answer when loss is not finite or is at or
 * below L_inf (no finite model reaches it), or when the answer overflows.
 */
overtraining_optimum
overtraining_chinchilla_for_loss(const cost_scaling_fit *fit, double loss);

/* ---- Exercise 4.4 (*) cost_terms: the three costs of a life ------- */

/* How expensive an RL token and a served token are, next to a
 * pre-training token. Valid: rl_flops_per_param > 0 and finite; each
 * efficiency > 0 and finite. (An efficiency above 1, decode beating
 * training, is unphysical but computable: the lecture's slip, §4.7
 * (Sizing the coefficients, and the slip), is the corrected weight at
 * efficiency 1 / eta.) */
typedef struct overtraining_factors {
    double rl_flops_per_param;   /* k_RL: 2 rollouts only, 6 trained on */
    double rl_efficiency;        /* eta_RL: RL's utilisation / training's */
    double inference_efficiency; /* eta_inf: serving's / training's */
} overtraining_factors;

/* One model's life: its size, its tokens, and the factors above. */
typedef struct overtraining_plan {
    double params_active;    /* N: parameters one token multiplies */
    double pretrain_tokens;  /* D */
    double rl_tokens;        /* D_RL: tokens generated in RL rollouts */
    double inference_tokens; /* D_inf: tokens served over its life */
    overtraining_factors factors;
} overtraining_plan;

/* The three terms, in FLOPs at pre-training's utilisation (machine time
 * times pre-training's FLOP/s). */
typedef struct overtraining_costs {
    bool exists;            /* see overtraining_cost_terms */
    const char *reason;     /* why not; NULL when exists */
    double pretrain_flops;  /* 6 N D */
    double rl_flops;        /* k_RL N D_RL / eta_RL */
    double inference_flops; /* 2 N D_inf / eta_inf */
    double total_flops;     /* their sum */
} overtraining_costs;

/* The three terms of a plan and their total, §4.5 (Three costs of a
 * model's life): each decode term is its FLOPs divided by its efficiency.
 * A token count of 0 gives a term of 0. No answer unless params_active > 0
 * and finite, every token count >= 0 and finite, the factors valid, and
 * every term finite (an efficiency of 1e-320 is valid but overflows the
 * inference term: no answer). */
overtraining_costs overtraining_cost_terms(const overtraining_plan *plan);

/* ---- Exercise 4.5 (**) heuristic: "equal costs" exactly ----------- */

/* A total cost c_down u^-mu + c_up u^nu, one term falling and one rising
 * with a knob u > 0 (c_down, c_up > 0): the falling term over the rising
 * term at the minimum, which depends on the exponents only, §4.6 (The
 * equal-cost heuristic). Inputs: mu > 0, nu > 0, both finite; NaN
 * otherwise. */
double overtraining_optimum_term_ratio(double mu, double nu);

/* The same cost taken at the u where its two terms are equal, over its
 * minimum: how many times the least cost the equal-cost heuristic spends,
 * §4.6 (The equal-cost heuristic). It depends on the exponents only; it is
 * exactly 1 when mu == nu, and the same with mu and nu swapped. Inputs as
 * above; NaN otherwise. */
double overtraining_equal_cost_penalty(double mu, double nu);

/* ---- Exercise 4.6 (*) sign_slip: slipped and corrected ------------ */

/* What one RL token and one served token cost, in pre-training tokens of
 * the same model (N cancels): their FLOP cost over a pre-training token's
 * 6 N. */
typedef struct overtraining_weights {
    bool exists;        /* false unless the factors are valid */
    const char *reason; /* why not; NULL when exists */
    double rl;          /* w_RL = k_RL / (6 eta_RL) */
    double inference;   /* w_inf = 2 / (6 eta_inf) */
} overtraining_weights;

/* The corrected weights, §4.7 (Sizing the coefficients, and the slip):
 * lower efficiency makes a token cost MORE, so the efficiency divides. No
 * answer unless the factors are valid, or if a weight overflows. */
overtraining_weights
overtraining_token_weights(const overtraining_factors *f);

/* The lecture's first pass, kept so the slip can be shown beside its
 * correction, §4.7 (Sizing the coefficients, and the slip): the
 * efficiency multiplied,
 *     rl = k_RL eta_RL / 6,   inference = 2 eta_inf / 6,
 * each the corrected weight times eta^2. No answer unless the factors are
 * valid. */
overtraining_weights
overtraining_token_weights_slipped(const overtraining_factors *f);

/* ---- Exercise 4.7 (*) equal_cost: tokens per pre-training token --- */

/* How the lifetime cost is to be split: fractions of it. Valid:
 * pretrain_share > 0, the other two >= 0, all finite. Only their ratios
 * matter, so they need not sum to 1. */
typedef struct overtraining_split {
    double pretrain_share;  /* phi_pre */
    double rl_share;        /* phi_RL */
    double inference_share; /* phi_inf */
} overtraining_split;

/* Token counts per pre-training token that spend the budget in the shares
 * given. */
typedef struct overtraining_token_ratios {
    bool exists;                   /* false unless the inputs are valid */
    const char *reason;            /* why not; NULL when exists */
    double rl_per_pretrain;        /* D_RL / D = phi_RL / (phi_pre w_RL) */
    double inference_per_pretrain; /* D_inf / D, likewise with w_inf */
} overtraining_token_ratios;

/* The ratios above, §4.7 (Sizing the coefficients, and the slip). A share
 * of 0 gives 0 tokens of that kind. No answer unless the factors and the
 * split are valid. */
overtraining_token_ratios
overtraining_equal_cost(const overtraining_factors *f,
                        const overtraining_split *s);

/* ---- Exercise 4.8 (*) estimate: the lecture's ~100x --------------- */

/* One model's traffic over its deployment. Valid: tokens_per_s >= 0 and
 * days >= 0, both finite; 0 <= use_probability <= 1. */
typedef struct overtraining_fleet {
    double tokens_per_s;    /* tokens this model serves per second */
    double days;            /* how long it is served, days of 86,400 s */
    double use_probability; /* the chance the run is deployed at all */
} overtraining_fleet;

/* Lifetime inference tokens, derated by the chance of use, §4.8 (The
 * worked estimate):
 *     tokens_per_s x seconds x use_probability.
 * A rate, a duration or a chance of 0 gives 0 tokens. NaN unless the fleet
 * is valid and the answer finite. */
double overtraining_inference_tokens(const overtraining_fleet *fleet);

/* How many times past a tokens-per-parameter rule (Chinchilla's 20) a
 * model of `params_active` parameters trained on `pretrain_tokens` tokens
 * is, §4.8 (The worked estimate):
 *     pretrain_tokens / (tokens_per_param x params_active).
 * Inputs: all three > 0 and finite; NaN otherwise, or when the answer is
 * not finite. */
double overtraining_factor(double pretrain_tokens, double params_active,
                           double tokens_per_param);

/* ---- Exercise 4.9 (*) from_traffic: from traffic to tokens -------- */

/* The lecture's estimate carried through: what a model should be
 * pre-trained on, and how far past the rule that is, when its costs follow
 * a split. */
typedef struct overtraining_estimate {
    bool exists;             /* see overtraining_from_traffic */
    const char *reason;      /* why not; NULL when exists */
    double inference_tokens; /* D_inf: served over its life, derated */
    double pretrain_tokens;  /* D: what the split asks it to train on */
    double tokens_per_param; /* D / N */
    double overtrain_factor; /* D over the rule's tokens for N */
} overtraining_estimate;

/* The pre-training tokens that give serving the fleet's traffic its share
 * of the lifetime cost (the split's ratio of serving to pre-training, at
 * the factors' efficiencies), and the over-training factor they give
 * against `tokens_per_param` tokens per parameter, for a model of
 * `params_active` parameters, §4.8 (The worked estimate). No traffic gives
 * 0 tokens and a factor of 0. No answer unless the fleet, factors and
 * split are valid, params_active and tokens_per_param are > 0 and finite,
 * and the split gives serving a share > 0 (with none, the traffic says
 * nothing about pre-training). */
overtraining_estimate
overtraining_from_traffic(const overtraining_fleet *fleet,
                          const overtraining_factors *f,
                          const overtraining_split *s, double params_active,
                          double tokens_per_param);

/* ---- Exercise 4.10 (***) inference_optimal: least FLOPs ----------- */

/* A model that reaches a loss, and what its life costs with D_inf tokens
 * served. */
typedef struct overtraining_lifetime {
    bool exists;             /* see each function */
    const char *reason;      /* why not; NULL when exists */
    double params;           /* N */
    double train_tokens;     /* D, just enough to reach the loss */
    double tokens_per_param; /* D / N */
    double loss;             /* the loss it reaches, nats per token */
    double train_flops;      /* 6 N D */
    double inference_flops;  /* 2 N D_inf */
    double total_flops;      /* their sum */
} overtraining_lifetime;

/* The life of a model of `params` parameters trained just long enough to
 * reach `loss`, then serving `inference_tokens` tokens, §4.9 (Beyond the
 * lecture: the inference-optimal model). No answer when params is not > 0 and finite, when
 * inference_tokens is not >= 0 and finite, when no amount of data reaches
 * the loss (overtraining_tokens_for_loss), or when a FLOP count would not
 * be finite. */
overtraining_lifetime overtraining_lifetime_at(const cost_scaling_fit *fit,
                                               double params, double loss,
                                               double inference_tokens);

/* The model of least lifetime FLOPs, pre-training plus serving
 * `inference_tokens` tokens, among all models that reach `loss`, §4.9
 * (Beyond the lecture: the inference-optimal model). It has no closed form:
 * the search is yours to design. With no inference it is the compute-optimal model for the loss.
 * `params` must be within a relative 1e-10 of the true minimiser (a double
 * holds about 16 digits; 1e-10 leaves room for rounding); the other fields
 * are those of overtraining_lifetime_at there.
 * Inputs: L_inf < loss <= 20 nats per token (a uniform guess over 100,000
 * tokens is 11.5) and 0 <= inference_tokens <= 1e30 (far beyond any
 * traffic): in that range every answer is representable in doubles. No
 * answer otherwise, or for NaN. */
overtraining_lifetime
overtraining_inference_optimal(const cost_scaling_fit *fit, double loss,
                               double inference_tokens);

/* ---- Exercise 4.11 (***) budget_optimal: a lifetime budget ------- */

/* The model of least loss among all (N, D) whose lifetime FLOPs,
 * pre-training plus serving `inference_tokens` tokens, are exactly
 * `lifetime_flops`, §4.10 (The best model a lifetime budget buys). It has
 * no closed form: the search is yours to design. With no inference it is
 * the compute-optimal model of the budget (exercise 4.2). `params` must be
 * within a relative 1e-10 of the true minimiser; train_tokens is then what
 * the budget leaves for training, and loss, tokens_per_param and the FLOP
 * fields follow from (params, train_tokens) as in overtraining_lifetime.
 * Inputs: 0 < lifetime_flops <= 1e40 and 0 <= inference_tokens <= 1e30,
 * with inference_tokens <= lifetime_flops / 1e4 (serving alone could then
 * spend the whole budget on a model of 5,000 parameters, no fewer): in
 * that range every answer is representable in doubles, and what the budget
 * leaves for training stays positive within the 1e-10 (a demand of 1e30
 * tokens on a budget of 1e-300 FLOPs would need a model below the smallest
 * double). No answer otherwise, or for NaN. */
overtraining_lifetime
overtraining_budget_optimal(const cost_scaling_fit *fit,
                            double lifetime_flops, double inference_tokens);

/* The lifetime FLOPs `best` saves against `reference`, §4.9 (Beyond the lecture: the
 * inference-optimal model): reference's total_flops minus best's when that difference
 * is more than 1e-9 of reference's total_flops, and 0 (+0.0, never -0.0) otherwise.
 * Two cases give 0: a difference of at most 1e-9 of the total is rounding (the optimum
 * against itself can differ by 8 MFLOP out of 2e22), and a negative one means best
 * costs more than the reference, which is no saving. Preconditions: both exist. */
double overtraining_saved_flops(const overtraining_lifetime *reference,
                                const overtraining_lifetime *best);

#endif /* CHALK_OVERTRAINING_H */
