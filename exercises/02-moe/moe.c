/*
 * moe.c -- Chapter 2 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests run and
 * fail. Replace each body with the formula from chapters/02-moe.md; the contract
 * (units, preconditions) is in moe.h beside this file.
 *
 *   make check CH=02     run the chapter's tests against this file
 *   make hint CH=02      show the next hint for the first failing exercise
 */
#include "moe.h"

#include <math.h>
#include <stdlib.h>

/* ---- Exercise 2.1 (*) expert_params ------------------------------------------ */

double moe_expert_params(int d_model, int d_ff)
{
    /* TODO(ch2 §2.1): a SwiGLU MLP has three d_model x d_ff matrices. */
    (void)d_model;
    (void)d_ff;
    return 0.0;
}

moe_layer_count moe_layer_params(const moe_shape *s)
{
    /* TODO(ch2 §2.1): every expert and the router are stored; a token uses top_k
     * routed experts, the shared ones and the router. */
    (void)s;
    moe_layer_count c = {0};
    return c;
}

/* ---- Exercise 2.2 (*) expert_placement --------------------------------------- */

moe_placement moe_place_experts(int experts, int domain_chips)
{
    /* TODO(ch2 §2.2): the most GPUs, at most domain_chips, that split the experts
     * evenly; and the busiest GPU if every chip took some. */
    (void)experts;
    (void)domain_chips;
    moe_placement p = {0};
    return p;
}

double moe_expert_bytes_per_gpu(const moe_placement *p, int moe_layers, int d_model, int d_ff,
                                double bytes_per_param)
{
    /* TODO(ch2 §2.2): a GPU's experts, in every MoE layer, at their bytes. */
    (void)p;
    (void)moe_layers;
    (void)d_model;
    (void)d_ff;
    (void)bytes_per_param;
    return 0.0;
}

/* ---- Exercise 2.3 (*) a2a_bytes ---------------------------------------------- */

double moe_a2a_bytes_per_token(int d_model, int top_k,
                               double act_bytes)
{
    /* TODO(ch2 §2.3): out to each expert, and back. */
    (void)d_model;
    (void)top_k;
    (void)act_bytes;
    return 0.0;
}

double moe_a2a_remote_fraction(int gpus)
{
    /* TODO(ch2 §2.3): the chance a copy's expert is on another GPU. */
    (void)gpus;
    return 0.0;
}

/* ---- Exercise 2.4 (**) three_roofs ------------------------------------------- */

const char *moe_bound_name(moe_bound bound)
{
    /* TODO(ch2 §2.4): the roof's name. */
    (void)bound;
    return "";
}

moe_step moe_step_at(const moe_deploy *d, double batch,
                     double context_tokens)
{
    /* TODO(ch2 §2.4): chapter 1's two roofs over racks * gpus GPUs, plus the
     * all-to-all of every MoE layer; the step is the largest. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    moe_step s = {0};
    return s;
}

double moe_network_over_compute(const moe_deploy *d)
{
    /* TODO(ch2 §2.4): network seconds per token over compute seconds per token. */
    (void)d;
    return 0.0;
}

moe_knee moe_knee_batch(const moe_deploy *d, double context_tokens)
{
    /* TODO(ch2 §2.4): where the steeper of compute and network meets memory. */
    (void)d;
    (void)context_tokens;
    moe_knee k = {0};
    return k;
}

/* ---- Exercise 2.5 (**) two_racks --------------------------------------------- */

moe_racks moe_span_racks(int racks, double scaleup_bytes_per_s,
                         double scaleout_bytes_per_s)
{
    /* TODO(ch2 §2.5): the share of bytes that crosses racks, and how much longer a
     * GPU's all-to-all takes with its tokens unchanged. */
    (void)racks;
    (void)scaleup_bytes_per_s;
    (void)scaleout_bytes_per_s;
    moe_racks r = {0};
    return r;
}

/* ---- Exercise 2.6 (*) expert_batch ------------------------------------------- */

double moe_tokens_per_expert(double batch, int experts, int top_k)
{
    /* TODO(ch2 §2.6): batch * top_k visits shared by the experts. */
    (void)batch;
    (void)experts;
    (void)top_k;
    return 0.0;
}

double moe_min_batch(double hw_ratio, int experts, int top_k)
{
    /* TODO(ch2 §2.6): each expert needs hw_ratio tokens. */
    (void)hw_ratio;
    (void)experts;
    (void)top_k;
    return 0.0;
}

/* ---- Exercise 2.7 (*) rng ---------------------------------------------------- */

uint64_t moe_rng_next(uint64_t *state)
{
    /* TODO(ch2 §2.7): SplitMix64, constants in moe.h. */
    (void)state;
    return 0;
}

uint64_t moe_rng_below(uint64_t *state, uint64_t n)
{
    /* TODO(ch2 §2.7): reject the draws that would make x % n favour small values. */
    (void)state;
    (void)n;
    return 0;
}

/* ---- Exercise 2.8 (**) load_closed_forms ------------------------------------- */

double moe_binomial_tail(int n, double p, int c)
{
    /* TODO(ch2 §2.7): sum the binomial probabilities above c. */
    (void)n;
    (void)p;
    (void)c;
    return 0.0;
}

double moe_expected_drop_fraction(int batch, int experts, int top_k,
                                  int capacity)
{
    /* TODO(ch2 §2.7): the expected excess of one expert's load over capacity, for
     * every expert, over all assignments. */
    (void)batch;
    (void)experts;
    (void)top_k;
    (void)capacity;
    return 0.0;
}

int moe_capacity_for_drop(int batch, int experts, int top_k,
                          double max_drop)
{
    /* TODO(ch2 §2.7): the smallest capacity whose expected drops are below max_drop. */
    (void)batch;
    (void)experts;
    (void)top_k;
    (void)max_drop;
    return 0;
}

moe_max_bounds moe_expected_max_load(int batch, int experts,
                                     int top_k)
{
    /* TODO(ch2 §2.7): sum P(max > c) over c, both ways. */
    (void)batch;
    (void)experts;
    (void)top_k;
    moe_max_bounds m = {0};
    return m;
}

/* ---- Exercise 2.9 (***) routing_simulation ----------------------------------- */

void moe_route_batch(uint64_t *rng, int batch, int experts, int top_k,
                     int *load)
{
    /* TODO(ch2 §2.7): zero the loads, then give each token top_k distinct experts. */
    (void)rng;
    (void)batch;
    (void)top_k;
    for (int j = 0; j < experts; j++)
        load[j] = 0;
}

moe_imbalance moe_simulate(uint64_t seed, int experts, int top_k,
                           int batch, int trials,
                           double capacity_factor)
{
    /* TODO(ch2 §2.7): route `trials` batches; keep the busiest load of each and how
     * often each load occurs, then read the drops off those counts. */
    (void)seed;
    (void)experts;
    (void)top_k;
    (void)batch;
    (void)trials;
    (void)capacity_factor;
    moe_imbalance m = {0};
    return m;
}

/* ---- Exercise 2.10 (**) rack_capacity ---------------------------------------- */

double moe_domain_hbm_bytes(int chips, double hbm_bytes)
{
    /* TODO(ch2 §2.8): the HBM of every chip in the domain. */
    (void)chips;
    (void)hbm_bytes;
    return 0.0;
}

moe_largest moe_largest_model(double domain_hbm_bytes,
                              double bytes_per_param, double hw_ratio,
                              double context_tokens,
                              double kv_bytes_per_token,
                              double params_active)
{
    /* TODO(ch2 §2.8): each parameter costs its bytes plus its share of the KV of
     * the batch it needs; say plainly when not even N_active fits. */
    (void)domain_hbm_bytes;
    (void)bytes_per_param;
    (void)hw_ratio;
    (void)context_tokens;
    (void)kv_bytes_per_token;
    (void)params_active;
    moe_largest m = {0};
    return m;
}

/* ---- Exercise 2.11 (*) routed_scaling ---------------------------------------- */

double moe_dense_equivalent_params(double params_active,
                                   double experts)
{
    /* TODO(ch2 §2.9): "64x for 4x" sets the exponent. */
    (void)params_active;
    (void)experts;
    return 0.0;
}

double moe_expert_multiplier(double active_ratio)
{
    /* TODO(ch2 §2.9): invert the same law. */
    (void)active_ratio;
    return 0.0;
}
