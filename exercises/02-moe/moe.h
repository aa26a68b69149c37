/*
 * moe.h -- Chapter 2: how a mixture-of-experts layer is laid out across a rack.
 *
 * The contract for chapter 2. You implement these functions in
 * exercises/02-moe/moe.c; the tests in tests/02-moe/ check them, and the reference
 * in solutions/02-moe/moe.c is what the book's numbers come from. Read
 * chapters/02-moe.md alongside.
 *
 * The model (lecture section 2). An MoE layer sends each token to top_k of its
 * `experts` routed experts. Expert parallelism puts different experts on different
 * GPUs, so every MoE layer moves each token's activations out to its experts and
 * back (an all-to-all). A decode step of `batch` sequences on `gpus` GPUs in each of
 * `racks` racks then has THREE roofs:
 *
 *   compute_s = batch * 2 * N_active                      / (R n F)
 *   memory_s  = (N_total * bytes_per_param
 *                + batch * context * kv_bytes)            / (R n W_HBM)
 *   a2a_s     = moe_layers * batch * 2 k d act_bytes      / (R n)
 *               * max(1 / (R W_up), (R - 1) / (R W_out))
 *   step_s    = max(compute_s, memory_s, a2a_s)           (a lower bound)
 *
 * with R = racks, n = gpus per rack, k = top_k, d = d_model, W_up and W_out the
 * scale-up and scale-out bandwidth of one GPU in one direction. FLOPs are 2 per
 * multiply-accumulate. All quantities are SI doubles: seconds, bytes, FLOP/s,
 * bytes/s; counts of experts, GPUs and layers are ints.
 */
#ifndef CHALK_MOE_H
#define CHALK_MOE_H

#include <stdbool.h>
#include <stdint.h>

#include "cost.h"

/* ---- Exercise 2.1 (*) expert_params: the anatomy of an MoE layer --------- §2.1 */

/* The shape of one MoE layer, as a model's configuration gives it. */
typedef struct moe_shape {
    int d_model;        /* width of the residual stream (elements per token) */
    int d_ff;           /* hidden width of ONE expert's MLP */
    int experts;        /* E: routed experts in the layer */
    int experts_shared; /* shared experts: every token visits them */
    int top_k;          /* k: routed experts each token visits */
} moe_shape;

/* Parameters of one expert, a SwiGLU MLP: gate, up (d_model x d_ff each) and
 * down (d_ff x d_model), so 3 * d_model * d_ff. Precondition: both widths >= 1. */
double moe_expert_params(int d_model, int d_ff);

/* Parameters of one MoE layer: every routed and shared expert, plus the router (a
 * d_model x experts matrix that scores each expert for each token). */
typedef struct moe_layer_count {
    double total;  /* (experts + shared) experts + router */
    double active; /* what one token multiplies through: (top_k + shared) + router */
    double router; /* the router alone: d_model x experts */
} moe_layer_count;

/* Precondition: 1 <= top_k <= experts, experts_shared >= 0. */
moe_layer_count moe_layer_params(const moe_shape *s);

/* ---- Exercise 2.2 (*) expert_placement: experts on a scale-up domain ------ §2.2 */

typedef struct moe_placement {
    int gpus_used;       /* the largest GPU count <= domain that divides experts */
    int experts_per_gpu; /* experts / gpus_used, the same on every GPU used */
    int gpus_idle;       /* domain_chips - gpus_used */
    int busiest_if_all;  /* experts on the busiest GPU if all domain_chips held
                          * experts as evenly as they can: ceil(experts / domain) */
} moe_placement;

/* Expert parallelism with one copy of each expert and the same number of experts
 * on every GPU used: the most GPUs (at most domain_chips) that split `experts`
 * evenly. 256 experts on a 72-GPU rack use 64 GPUs, 4 experts each, 8 idle.
 * Preconditions: experts >= 1, domain_chips >= 1. */
moe_placement moe_place_experts(int experts, int domain_chips);

/* The expert weights one GPU of a placement holds: its experts_per_gpu experts in
 * each of `moe_layers` layers, moe_expert_params(d_model, d_ff) parameters each, at
 * bytes_per_param. Preconditions: moe_layers >= 0, widths >= 1, bytes > 0. */
double moe_expert_bytes_per_gpu(const moe_placement *p, int moe_layers, int d_model, int d_ff,
                                double bytes_per_param);

/* ---- Exercise 2.3 (*) a2a_bytes: what a token sends ---------------------- §2.3 */

/* Bytes one token moves per MoE layer: its d_model activations out to each of its
 * top_k experts (dispatch) and each expert's d_model outputs back (combine),
 * 2 * top_k * d_model * act_bytes. Counts every copy, including those whose expert
 * sits on the token's own GPU (the lecture's convention).
 * Preconditions: d_model >= 1, top_k >= 1, act_bytes > 0. */
double moe_a2a_bytes_per_token(int d_model, int top_k, double act_bytes);

/* The share of those bytes that leaves the token's GPU when experts are spread
 * evenly over `gpus` GPUs: 1 - 1/gpus (0 for one GPU). Precondition: gpus >= 1. */
double moe_a2a_remote_fraction(int gpus);

/* ---- Exercise 2.4 (**) three_roofs: compute, memory and network ----------- §2.4 */

/* One MoE model on `racks` racks of `gpus` GPUs each. All per-GPU figures are per
 * GPU; bandwidths of the scale-up (NVLink) and scale-out (NIC) networks are one
 * direction. Every GPU holds experts, runs the router, attention and everything
 * else, and the weights are spread evenly over all racks * gpus GPUs. */
typedef struct moe_deploy {
    double params_total;         /* N_total: every weight, fetched every step */
    double params_active;        /* N_active: weights one token multiplies through */
    double bytes_per_param;      /* 2 bf16, 1 fp8, 0.5 fp4 */
    double kv_bytes_per_token;   /* KV cache per token of context, all layers */
    int d_model;                 /* activations per token crossing the network */
    int moe_layers;              /* layers whose MLP is an MoE (each does an all-to-all) */
    int experts;                 /* E: routed experts per MoE layer */
    int top_k;                   /* k: routed experts per token */
    double act_bytes;            /* bytes per activation element on the network */
    int gpus;                    /* n: GPUs per rack (from moe_place_experts) */
    int racks;                   /* R >= 1: racks one expert layer spans */
    double flops_per_s;          /* per GPU, at the precision of the math */
    double hbm_bytes_per_s;      /* per GPU */
    double scaleup_bytes_per_s;  /* per GPU, one direction (NVLink) */
    double scaleout_bytes_per_s; /* per GPU, one direction (NIC); unused when R = 1 */
} moe_deploy;

/* Which roof sets the step. */
typedef enum moe_bound {
    MOE_BOUND_COMPUTE,
    MOE_BOUND_MEMORY,
    MOE_BOUND_NETWORK,
} moe_bound;

/* "compute", "memory" or "network". */
const char *moe_bound_name(moe_bound bound);

typedef struct moe_step {
    double compute_s; /* weight arithmetic: batch * 2 N_active / (R n F) */
    double weights_s; /* every weight once: N_total * bytes / (R n W_HBM) */
    double kv_s;      /* every sequence's cache: batch * context * kv / (R n W_HBM) */
    double memory_s;  /* weights_s + kv_s */
    double a2a_s;     /* every MoE layer's dispatch and combine (formula above) */
    double step_s;    /* max(compute_s, memory_s, a2a_s) */
    moe_bound bound;  /* NETWORK when a2a_s > max(compute_s, memory_s); otherwise
                       * COMPUTE when compute_s >= memory_s, else MEMORY */
    double a2a_dispatch_s_per_layer; /* one layer's dispatch alone: a2a_s / (2 moe_layers) */
    double hbm_bytes; /* what the step reads, weights and caches, all in HBM: memory_s
                       * at the R n GPUs' bandwidth (0 without MoE layers: no a2a) */
} moe_step;

/* The three roofs of one decode step. Preconditions: batch >= 0, context >= 0,
 * gpus >= 1, racks >= 1, positive rates. */
moe_step moe_step_at(const moe_deploy *d, double batch, double context_tokens);

/* Network time over compute time, per token: both grow linearly with the batch,
 * so their ratio does not depend on it. Above 1 the network is the binding roof
 * at every batch past the knee. */
double moe_network_over_compute(const moe_deploy *d);

/* The batch at which the step stops being memory-bound, or the reason there is
 * none. */
typedef struct moe_knee {
    bool exists;     /* false when memory grows at least as fast as both other roofs */
    double batch;    /* where max(compute, a2a) == memory; 0 when !exists */
    moe_bound after; /* the roof that binds past it: COMPUTE or NETWORK */
} moe_knee;

/* Solves max(c, a) * batch = weights + kv * batch for the batch, with c, a and kv
 * the compute, network and KV time each sequence adds. No knee when the KV slope
 * is at least the larger of the other two. A tie between c and a counts as
 * COMPUTE. */
moe_knee moe_knee_batch(const moe_deploy *d, double context_tokens);

/* ---- Exercise 2.5 (**) two_racks: crossing the scale-out network ----------- §2.5 */

typedef struct moe_racks {
    double scaleup_over_scaleout; /* W_up / W_out: how much slower the scale-out link is */
    double cross_fraction;     /* share of a token's expert visits in another rack,
                                * (R - 1) / R with experts spread evenly */
    double slowdown_overlap;   /* all-to-all time over one rack's, at the same tokens
                                * per GPU, when the in-rack and cross-rack parts run
                                * at the same time: max(1/R, (R-1)/R * W_up/W_out) */
    double slowdown_serial;    /* the same when they run one after the other:
                                * 1/R + (R-1)/R * W_up/W_out */
} moe_racks;

/* Spreading one expert layer over `racks` racks. With 2 racks and a scale-out
 * network 8 times slower, the lecture's 0.5 x 8 = 4 and 4.5. racks == 1 gives 0,
 * 1 and 1. Preconditions: racks >= 1, both bandwidths > 0. */
moe_racks moe_span_racks(int racks, double scaleup_bytes_per_s, double scaleout_bytes_per_s);

/* ---- Exercise 2.6 (*) expert_batch: tokens per expert ---------------------- §2.6 */

/* Tokens one expert receives on average in a step: batch * top_k / experts.
 * Preconditions: batch >= 0, 1 <= top_k <= experts. */
double moe_tokens_per_expert(double batch, int experts, int top_k);

/* The smallest batch at which an average expert is compute-bound: each expert must
 * see hw_ratio tokens (chapter 1's r, multiplies per weight fetched), so
 * batch >= hw_ratio * experts / top_k. Preconditions: hw_ratio > 0,
 * 1 <= top_k <= experts. */
double moe_min_batch(double hw_ratio, int experts, int top_k);

/* ---- Exercise 2.7 (*) rng: a seeded generator of our own ------------------- §2.7 */

/* SplitMix64 (Steele, Lea and Flood 2014; Vigna's splitmix64.c): add
 * 0x9E3779B97F4A7C15 to *state, then mix the new state with two xor-shift-multiply
 * rounds (30, 0xBF58476D1CE4E5B9; 27, 0x94D049BB133111EB; 31) and return it. The
 * same seed gives the same numbers on every machine; from state 0 the first output
 * is 0xE220A8397B1DCDAF. */
uint64_t moe_rng_next(uint64_t *state);

/* A uniform integer in [0, n), every value equally likely (no modulo bias: reject
 * draws from the incomplete last block of n values). Precondition: n >= 1. */
uint64_t moe_rng_below(uint64_t *state, uint64_t n);

/* ---- Exercise 2.8 (**) load_closed_forms: what the loads must look like ----- §2.7 */

/* With each token picking top_k distinct experts uniformly at random, one expert's
 * load (tokens it receives) is Binomial(batch, top_k / experts). */

/* P(X > c) for X ~ Binomial(n, p): 1 for c < 0, 0 for c >= n.
 * Preconditions: n >= 0, 0 <= p <= 1. */
double moe_binomial_tail(int n, double p, int c);

/* The expected share of all batch * top_k token-expert assignments dropped when
 * each expert accepts at most `capacity` tokens: experts * E[(X - capacity)+]
 * / (batch * top_k), exact by linearity of expectation (no independence needed).
 * Preconditions: batch >= 1, 1 <= top_k <= experts, capacity >= 0. */
double moe_expected_drop_fraction(int batch, int experts, int top_k, int capacity);

/* The smallest whole capacity whose expected drop fraction is below max_drop
 * (e.g. 0.01): always exists, since capacity = batch drops nothing.
 * Precondition: 0 < max_drop < 1. */
int moe_capacity_for_drop(int batch, int experts, int top_k, double max_drop);

/* Two closed-form bounds on the expected load of the busiest expert, E[max_j X_j],
 * written as sums over c of P(max > c):
 *   lower: as if the loads were independent, sum_c 1 - (1 - P(X > c))^experts
 *          (the loads are negatively associated, so this is a lower bound)
 *   upper: the union bound, sum_c min(1, experts * P(X > c)). */
typedef struct moe_max_bounds {
    double lower;
    double upper;
    double sd; /* one expert's load's standard deviation, sqrt(batch p (1 - p)),
                * p = top_k / experts */
} moe_max_bounds;

moe_max_bounds moe_expected_max_load(int batch, int experts, int top_k);

/* ---- Exercise 2.9 (***) routing_simulation: the busiest expert -------------- §2.7 */

/* The most experts a token may visit in the simulation (real models use 1 to 16),
 * so that a token's choices fit in a small array. */
enum { MOE_MAX_TOP_K = 64 };

/* Routes one batch: each of `batch` tokens picks top_k DISTINCT experts of
 * `experts`, uniformly at random with *rng, and load[j] receives the number of
 * tokens expert j got (load has `experts` entries; it is zeroed first). The loads
 * then sum to batch * top_k. Preconditions: batch >= 0,
 * 1 <= top_k <= min(experts, MOE_MAX_TOP_K). */
void moe_route_batch(uint64_t *rng, int batch, int experts, int top_k, int *load);

/* What `trials` routed batches show. */
typedef struct moe_imbalance {
    bool ok;                     /* false when memory for the loads ran out */
    double mean_load;            /* batch * top_k / experts */
    double max_load_over_mean;   /* the busiest expert's load over the mean,
                                  * averaged over the trials */
    int capacity;                /* floor(capacity_factor * mean_load), at most batch */
    double drop_fraction;        /* assignments above `capacity`, over all
                                  * trials * batch * top_k assignments */
    double capacity_factor_p99;  /* the smallest whole capacity dropping fewer
                                  * than 1% of the assignments, over the mean */
} moe_imbalance;

/* Runs `trials` batches from a generator whose state starts at `seed` (the same
 * seed gives the same result) and summarises them. The capacity is capped at
 * batch (no expert can receive more). Preconditions: batch >= 1,
 * 1 <= top_k <= min(experts, MOE_MAX_TOP_K), trials >= 1, capacity_factor >= 0. */
moe_imbalance moe_simulate(uint64_t seed, int experts, int top_k, int batch, int trials,
                           double capacity_factor);

/* ---- Exercise 2.10 (**) rack_capacity: what a scale-up domain holds -------- §2.8 */

/* HBM of a whole scale-up domain: chips * hbm_bytes (8 x 80 GB = 640 GB for a
 * Hopper tray). Preconditions: chips >= 1, hbm_bytes > 0. */
double moe_domain_hbm_bytes(int chips, double hbm_bytes);

/* The largest model a domain holds together with the KV caches of the batch that
 * amortises its weights (chapter 1's r * s sequences of `context` tokens). */
typedef struct moe_largest {
    bool exists;         /* false when not even N_total = N_active fits */
    double params_total; /* the largest N_total */
    double sparsity;     /* params_total / params_active */
    double batch;        /* hw_ratio * sparsity: the batch that needs */
    double kv_bytes;     /* the caches of that batch: batch * context * kv_bytes */
} moe_largest;

/* Solves bytes_per_param * N + (hw_ratio * N / params_active) * context * kv_bytes
 * = domain_hbm_bytes for N. Preconditions: domain_hbm_bytes > 0,
 * bytes_per_param > 0, hw_ratio > 0, context >= 0, kv_bytes >= 0,
 * params_active > 0. */
moe_largest moe_largest_model(double domain_hbm_bytes, double bytes_per_param,
                              double hw_ratio, double context_tokens,
                              double kv_bytes_per_token, double params_active);

/* ---- Exercise 2.11 (*) routed_scaling: how much are experts worth? --------- §2.9 */

/* The routed scaling law as the lecture reads it: 64 experts at 370M active
 * parameters match a dense 1.3B model, "64x for 4x", so quality grows as the
 * cube root of the expert count: params_active * experts^(1/3).
 * Preconditions: params_active > 0, experts >= 1. */
double moe_dense_equivalent_params(double params_active, double experts);

/* How many times the experts (so, roughly, the total parameters) must grow to keep
 * quality when active parameters are multiplied by active_ratio (0.5 = halved):
 * (1 / active_ratio)^3. Precondition: 0 < active_ratio <= 1. */
double moe_expert_multiplier(double active_ratio);

#endif /* CHALK_MOE_H */
