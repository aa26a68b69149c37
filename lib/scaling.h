/*
 * scaling.h -- scaling-law fits and published training runs: inputs, with sources.
 *
 * A fit is the five constants of the parametric loss law of Hoffmann et al. 2022
 * ("Approach 3"), which predicts the loss, in nats per token, of a model of N
 * parameters trained on D tokens:
 *
 *     L(N, D) = irreducible + a_params / N^alpha_params + a_tokens / D^alpha_tokens
 *
 * The papers write it E + A / N^alpha + B / D^beta. This library, like the book,
 * names the terms after what they scale with (the book has used B for the batch and
 * beta for bytes per parameter): irreducible = E, a_params = A, alpha_params =
 * alpha, a_tokens = B, alpha_tokens = beta. The law itself, and everything derived
 * from it, is chapter math (exercises/04-overtraining/overtraining.h); this file
 * holds only the published numbers.
 *
 * A training run is a published model's parameter count and the tokens it was
 * pre-trained on. Every number names its source beside it in scaling.c.
 */
#ifndef COST_SCALING_H
#define COST_SCALING_H

#include <stddef.h>

typedef struct cost_scaling_fit {
    const char *name;    /* preset key, e.g. "hoffmann" */
    const char *title;   /* e.g. "Hoffmann et al. 2022, as printed" */
    double irreducible;  /* E: loss of an infinite model on infinite data, nats/token */
    double a_params;     /* A: coefficient of the parameter term */
    double alpha_params; /* alpha: exponent of the parameter term */
    double a_tokens;     /* B: coefficient of the data term */
    double alpha_tokens; /* beta: exponent of the data term */
    const char *source;  /* where the five numbers come from */
} cost_scaling_fit;

/* Every fit, in a fixed order (the first is the default); *count receives their
 * number. */
const cost_scaling_fit *const *cost_scaling_fits(size_t *count);

/* The fit named `name` (case-insensitive), or NULL when there is none. */
const cost_scaling_fit *cost_scaling_fit_find(const char *name);

typedef struct cost_training_run {
    const char *name;     /* preset key, e.g. "llama3-8b" */
    const char *title;    /* e.g. "Llama 3 8B" */
    double params_active; /* parameters one token multiplies through (all, if dense) */
    double params_total;  /* all parameters */
    double tokens;        /* pre-training tokens */
    const char *source;   /* where both numbers come from */
} cost_training_run;

/* Every run, in a fixed order; *count receives their number. */
const cost_training_run *const *cost_training_runs(size_t *count);

/* The run named `name` (case-insensitive), or NULL when there is none. */
const cost_training_run *cost_training_run_find(const char *name);

#endif /* COST_SCALING_H */
