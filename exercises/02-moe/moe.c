/*
 * moe.c -- Chapter 2 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests
 * run and fail. Replace each body with your implementation; its comment
 * names the section of the book (chapter 2 of chalk.pdf) that derives
 * it, and the contract (units, valid inputs, ties, what to return when
 * there is no answer) is in moe.h beside this file.
 *
 * The placeholders return their results directly, with no local
 * variable. `make check` shows the compiler's warnings (an unused
 * variable, say) and still runs every test; it also says whether the
 * grader would accept the file as it stands. Delete each function's
 * (void) lines as you start using its parameters.
 *
 *   make check CH=02     run the chapter's tests against this file
 *   make hint EX=ID      show the next hint for exercise ID
 */
#include "moe.h"

#include <math.h>
#include <stdlib.h>

/* ---- Exercise 2.1 (*) expert_params ------------------------------- */

double moe_expert_params(int d_model, int d_ff)
{
    /* TODO §2.1 (Anatomy of an MoE layer): a SwiGLU MLP is three
     * matrices. */
    (void)d_model;
    (void)d_ff;
    return 0.0;
}

moe_layer_count moe_layer_params(const moe_shape *s)
{
    /* TODO §2.1 (Anatomy of an MoE layer): what the layer stores, and
     * what one token multiplies through. */
    (void)s;
    return (moe_layer_count){0};
}

/* ---- Exercise 2.2 (*) expert_placement ---------------------------- */

moe_placement moe_place_experts(int experts, int domain_chips)
{
    /* TODO §2.2 (Expert parallelism on a rack): the most GPUs that split
     * the experts evenly, and the busiest GPU if every chip took some. */
    (void)experts;
    (void)domain_chips;
    return (moe_placement){0};
}

double moe_expert_bytes_per_gpu(const moe_placement *p, int moe_layers, int d_model, int d_ff,
                                double bytes_per_param)
{
    /* TODO §2.2 (Expert parallelism on a rack): a GPU's experts, in every MoE
     * layer, at their bytes. */
    (void)p;
    (void)moe_layers;
    (void)d_model;
    (void)d_ff;
    (void)bytes_per_param;
    return 0.0;
}

/* ---- Exercise 2.3 (*) a2a_bytes ----------------------------------- */

double moe_a2a_bytes_per_token(int d_model, int top_k, double act_bytes)
{
    /* TODO §2.3 (The all-to-all): out to each expert, and back. */
    (void)d_model;
    (void)top_k;
    (void)act_bytes;
    return 0.0;
}

double moe_a2a_remote_fraction(int gpus)
{
    /* TODO §2.3 (The all-to-all): the chance that a copy's expert is on
     * another GPU. */
    (void)gpus;
    return 0.0;
}

/* ---- Exercise 2.4 (*) three_roofs --------------------------------- */

const char *moe_bound_name(moe_bound bound)
{
    /* TODO §2.4 (Three roofs): the roof's name. */
    (void)bound;
    return "";
}

moe_step moe_step_at(const moe_deploy *d, double batch,
                     double context_tokens)
{
    /* TODO §2.4 (Three roofs): chapter 1's two roofs over every GPU,
     * the all-to-all of every MoE layer (§2.5 (Two racks) when
     * racks > 1), the largest of the three, and which it is. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return (moe_step){0};
}

double moe_network_over_compute(const moe_deploy *d)
{
    /* TODO §2.4 (Three roofs): the network roof over the compute roof.
     */
    (void)d;
    return 0.0;
}

moe_knee moe_knee_batch(const moe_deploy *d, double context_tokens)
{
    /* TODO §2.4 (Three roofs): where the steeper of compute and network
     * meets memory, if it ever does. */
    (void)d;
    (void)context_tokens;
    return (moe_knee){0};
}

/* ---- Exercise 2.5 (**) two_racks ---------------------------------- */

moe_racks moe_span_racks(int racks, double scaleup_bytes_per_s,
                         double scaleout_bytes_per_s)
{
    /* TODO §2.5 (Two racks): the share of copies that crosses racks,
     * and how much longer a GPU's all-to-all takes with the same
     * tokens. */
    (void)racks;
    (void)scaleup_bytes_per_s;
    (void)scaleout_bytes_per_s;
    return (moe_racks){0};
}

moe_link moe_scaleout_for_slowdown(int racks, double scaleup_bytes_per_s,
                                   double max_slowdown, bool serial)
{
    /* TODO §2.5 (Two racks): the slowest scale-out link whose slowdown
     * stays within max_slowdown, or that there is none. */
    (void)racks;
    (void)scaleup_bytes_per_s;
    (void)max_slowdown;
    (void)serial;
    return (moe_link){0};
}

/* ---- Exercise 2.6 (*) expert_batch -------------------------------- */

double moe_tokens_per_expert(double batch, int experts, int top_k)
{
    /* TODO §2.6 (Tokens per expert): the batch's visits, shared. */
    (void)batch;
    (void)experts;
    (void)top_k;
    return 0.0;
}

double moe_min_batch(double hw_ratio, int experts, int top_k)
{
    /* TODO §2.6 (Tokens per expert): each expert needs hw_ratio tokens.
     */
    (void)hw_ratio;
    (void)experts;
    (void)top_k;
    return 0.0;
}

/* ---- Exercise 2.7 (*) rng ----------------------------------------- */

uint64_t moe_rng_next(uint64_t *state)
{
    /* TODO §2.7 (Routing is random): SplitMix64, steps in moe.h. */
    (void)state;
    return 0;
}

uint64_t moe_rng_below(uint64_t *state, uint64_t n)
{
    /* TODO §2.7 (Routing is random): reject the draws that would make
     * x % n favour small values. */
    (void)state;
    (void)n;
    return 0;
}

/* ---- Exercise 2.8 (**) load_closed_forms -------------------------- */

double moe_binomial_tail(int n, double p, int c)
{
    /* TODO §2.7 (Routing is random): the probabilities above c. */
    (void)n;
    (void)p;
    (void)c;
    return 0.0;
}

double moe_expected_drop_fraction(int batch, int experts, int top_k,
                                  int capacity)
{
    /* TODO §2.7 (Routing is random): the expected share of the
     * assignments that are dropped. */
    (void)batch;
    (void)experts;
    (void)top_k;
    (void)capacity;
    return 0.0;
}

int moe_capacity_for_drop(int batch, int experts, int top_k,
                          double max_drop)
{
    /* TODO §2.7 (Routing is random): the smallest capacity whose
     * expected drops are below max_drop. */
    (void)batch;
    (void)experts;
    (void)top_k;
    (void)max_drop;
    return 0;
}

moe_max_bounds moe_expected_max_load(int batch, int experts, int top_k)
{
    /* TODO §2.7 (Routing is random): two bounds on the busiest
     * expert's expected load, and one load's spread. */
    (void)batch;
    (void)experts;
    (void)top_k;
    return (moe_max_bounds){0};
}

/* ---- Exercise 2.9 (***) routing_simulation ------------------------ */

void moe_route_batch(uint64_t *rng, int batch, int experts, int top_k,
                     int *load)
{
    /* TODO §2.7 (Routing is random): zero the loads, then give each
     * token top_k distinct experts. */
    (void)rng;
    (void)batch;
    (void)top_k;
    for (int j = 0; j < experts; j++)
        load[j] = 0;
}

moe_imbalance moe_simulate(uint64_t seed, int experts, int top_k, int batch,
                           int trials, double capacity_factor)
{
    /* TODO §2.7 (Routing is random): route `trials` batches and
     * summarise them as moe.h's moe_imbalance asks. */
    (void)seed;
    (void)experts;
    (void)top_k;
    (void)batch;
    (void)trials;
    (void)capacity_factor;
    return (moe_imbalance){0};
}

/* ---- Exercise 2.10 (**) rack_capacity ----------------------------- */

double moe_domain_hbm_bytes(int chips, double hbm_bytes)
{
    /* TODO §2.8 (Why a rack is the unit): every chip's HBM. */
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
    /* TODO §2.8 (Why a rack is the unit): the largest model that fits
     * beside the caches of the batch it needs. */
    (void)domain_hbm_bytes;
    (void)bytes_per_param;
    (void)hw_ratio;
    (void)context_tokens;
    (void)kv_bytes_per_token;
    (void)params_active;
    return (moe_largest){0};
}

/* ---- Exercise 2.11 (*) routed_scaling ----------------------------- */

double moe_dense_equivalent_params(double params_active, double experts)
{
    /* TODO §2.9 (The routed scaling law): "64x for 4x" sets the
     * exponent. */
    (void)params_active;
    (void)experts;
    return 0.0;
}

double moe_expert_multiplier(double active_ratio)
{
    /* TODO §2.9 (The routed scaling law): the same law, inverted. */
    (void)active_ratio;
    return 0.0;
}

/* ---- Exercise 2.12 (***) cheapest_layout -------------------------- */

moe_layout moe_cheapest_layout(const moe_layout_query *q)
{
    /* TODO §2.10 (The cheapest layout for a latency target): the
     * layout moe.h asks for, or why there is none. */
    (void)q;
    return (moe_layout){0};
}
