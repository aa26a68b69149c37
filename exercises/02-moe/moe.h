/*
 * moe.h -- Chapter 2: how a mixture-of-experts layer is laid out
 * across a rack.
 *
 * The contract for chapter 2. You implement these functions in
 * exercises/02-moe/moe.c; `make check CH=02` runs the tests of
 * tests/02-moe/ against it. Each function says what it returns, in
 * which units, for which inputs, what it returns when there is no
 * answer, how ties are broken, and which section of the book (chapter
 * 2 of chalk.pdf) derives it.
 *
 * The model. An MoE layer sends each token to top_k of its `experts`
 * routed experts, §2.1 (Anatomy of an MoE layer). Expert parallelism
 * puts whole experts on different GPUs,
 * §2.2 (Expert parallelism on a rack),
 * so every MoE layer moves each token out to its experts and back: an
 * all-to-all, §2.3 (The all-to-all). A decode step then has
 * three roofs, compute, memory and the network, §2.4 (Three roofs);
 * an expert layer spread over several racks sends part of that
 * traffic over the slower scale-out network, §2.5 (Two racks).
 *
 * Units. SI doubles: seconds, bytes, FLOPs (2 per multiply-
 * accumulate), FLOP/s, bytes/s, US dollars. Counts of experts, GPUs,
 * racks and layers are ints; batches and contexts are doubles (whole
 * numbers where the comment says so). Bandwidths of the scale-up
 * (NVLink) and scale-out (NIC) networks are per GPU, in ONE
 * direction.
 *
 * Pointers. Every pointer parameter must point to valid memory of the
 * size its comment states; none may be NULL. A `const` pointer is
 * only read. A string returned (a roof's name) is a string constant
 * with static storage: never modify or free it.
 *
 * Preconditions. Where a comment says "Preconditions", the tests call
 * the function only with inputs that meet them. Where it says "No
 * answer", the function must return what it says for such inputs.
 */
#ifndef CHALK_MOE_H
#define CHALK_MOE_H

#include <stdbool.h>
#include <stdint.h>

#include "cost.h"

/* ---- Exercise 2.1 (*) expert_params: anatomy of an MoE layer ------------- */

/* The shape of one MoE layer, as a model's configuration gives it. */
typedef struct moe_shape {
    int d_model;        /* width of the residual stream, elements */
    int d_ff;           /* hidden width of ONE expert's MLP, elements */
    int experts;        /* E: routed experts in the layer */
    int experts_shared; /* E_sh: shared experts, visited by every token */
    int top_k;          /* k: routed experts each token visits */
} moe_shape;

/* Parameters of one expert, a SwiGLU MLP,
 * §2.1 (Anatomy of an MoE layer):
 * three d_model x d_ff matrices (gate, up and down), so
 *     3 * d_model * d_ff.
 * Compute it in double: 3 * 7168 * 2048 fits an int, but a layer's
 * total below does not. Preconditions: d_model >= 1, d_ff >= 1. */
double moe_expert_params(int d_model, int d_ff);

/* The parameters of one MoE layer. */
typedef struct moe_layer_count {
    double total;  /* stored: every routed and shared expert, router */
    double active; /* one token multiplies through: top_k routed
                    * experts, every shared expert, the router */
    double router; /* the router alone: d_model x experts */
} moe_layer_count;

/* The parameters of the layer `*s` describes (s points to one
 * moe_shape), §2.1 (Anatomy of an MoE layer). The router is a
 * d_model x experts matrix: it scores every expert for every token, so
 * it is in both counts. Preconditions: d_model >= 1, d_ff >= 1,
 * 1 <= top_k <= experts, experts_shared >= 0. */
moe_layer_count moe_layer_params(const moe_shape *s);

/* ---- Exercise 2.2 (*) expert_placement: experts on a domain -------------- */

/* Where E experts go on a scale-up domain of `domain_chips` GPUs. */
typedef struct moe_placement {
    int gpus_used;       /* n: GPUs that hold experts */
    int experts_per_gpu; /* experts / gpus_used */
    int gpus_idle;       /* domain_chips - gpus_used */
    int busiest_if_all;  /* experts on the busiest GPU if every one of
                          * the domain_chips GPUs held experts, spread
                          * as evenly as whole experts allow */
} moe_placement;

/* Expert parallelism with one copy of each expert and the same number
 * of whole experts on every GPU used,
 * §2.2 (Expert parallelism on a rack):
 * gpus_used is the largest count g <= domain_chips that divides
 * `experts` (not the largest power of two; when
 * experts <= domain_chips it is `experts` itself, one expert a GPU).
 * 256 experts on a 72-GPU rack use 64 GPUs. busiest_if_all is
 * experts / domain_chips rounded UP. Preconditions: experts >= 1,
 * domain_chips >= 1. */
moe_placement moe_place_experts(int experts, int domain_chips);

/* The expert weights one GPU of a placement holds: its experts_per_gpu experts in
 * each of `moe_layers` layers, moe_expert_params(d_model, d_ff) parameters each, at
 * bytes_per_param. Preconditions: moe_layers >= 0, widths >= 1, bytes > 0. */
double moe_expert_bytes_per_gpu(const moe_placement *p, int moe_layers, int d_model, int d_ff,
                                double bytes_per_param);

/* ---- Exercise 2.3 (*) a2a_bytes: what a token sends ---------------------- */

/* Bytes one token moves in one MoE layer, §2.3 (The all-to-all): its
 * d_model activations out to each of its top_k experts (the dispatch)
 * and each expert's d_model outputs back (the combine), at act_bytes
 * bytes per element:
 *     2 * top_k * d_model * act_bytes.
 * Every copy counts, also one whose expert is on the token's own GPU
 * (the lecture's convention). Preconditions: d_model >= 1,
 * top_k >= 1, act_bytes > 0. */
double moe_a2a_bytes_per_token(int d_model, int top_k, double act_bytes);

/* The share of those bytes that leaves the token's GPU when the
 * experts are spread evenly over `gpus` GPUs, §2.3 (The all-to-all): a
 * copy stays home with chance 1 / gpus, so 1 - 1 / gpus; 0 for one
 * GPU. Precondition: gpus >= 1. */
double moe_a2a_remote_fraction(int gpus);

/* ---- Exercise 2.4 (*) three_roofs: compute, memory, network -------------- */

/* One MoE model decoding on `racks` racks of `gpus` GPUs each. Every
 * GPU holds experts, runs attention and the router for its share of
 * the sequences, and holds an equal share of every weight; the batch's
 * sequences are spread evenly over all racks * gpus GPUs. Figures
 * marked "per GPU" are one GPU's. */
typedef struct moe_deploy {
    double params_total;       /* N_total: every weight, read every step */
    double params_active;      /* N_active: weights one token multiplies */
    double bytes_per_param;    /* beta: 2 bf16, 1 fp8, 0.5 fp4 */
    double kv_bytes_per_token; /* KV cache per token of context, all
                                * layers together, bytes */
    int d_model;      /* activations per token sent to each expert */
    int moe_layers;   /* layers whose MLP is an MoE (an all-to-all each) */
    int experts;      /* E: routed experts per MoE layer */
    int top_k;        /* k: routed experts per token */
    double act_bytes; /* bytes per activation element on the network */
    int gpus;         /* n: GPUs per rack that hold experts */
    int racks;        /* R: racks one expert layer spans */
    double flops_per_s;          /* F per GPU, at the math's precision */
    double hbm_bytes_per_s;      /* HBM bandwidth per GPU */
    double scaleup_bytes_per_s;  /* W_up: NVLink per GPU, one way */
    double scaleout_bytes_per_s; /* W_out: NIC per GPU, one way; read
                                  * only when racks > 1 */
} moe_deploy;

/* A moe_deploy is valid when params_total >= params_active > 0,
 * bytes_per_param > 0, kv_bytes_per_token >= 0, d_model >= 1,
 * moe_layers >= 0, 1 <= top_k <= experts, act_bytes > 0, gpus >= 1,
 * racks >= 1, each of flops_per_s, hbm_bytes_per_s and
 * scaleup_bytes_per_s > 0, and scaleout_bytes_per_s > 0 when
 * racks > 1, all finite. */

/* Which roof sets the step. */
typedef enum moe_bound {
    MOE_BOUND_COMPUTE,
    MOE_BOUND_MEMORY,
    MOE_BOUND_NETWORK,
} moe_bound;

/* The roof's name: "compute", "memory" or "network" for the three
 * values above, "?" for any other value. The result is a string
 * constant of at most 7 characters and its NUL (8 bytes), with static
 * storage: the caller never frees or writes it. */
const char *moe_bound_name(moe_bound bound);

/* The three roofs of one decode step, in seconds. */
typedef struct moe_step {
    double compute_s; /* the step's arithmetic on the weights, every
                       * sequence's, at the peak of all racks * gpus
                       * GPUs */
    double weights_s; /* reading every weight once, each GPU its share,
                       * at its HBM bandwidth */
    double kv_s;      /* reading every sequence's KV cache once, the
                       * same way */
    double memory_s;  /* weights_s + kv_s: the memory roof */
    double a2a_s;     /* the network roof: the time the step's
                       * all-to-all traffic takes, every copy counted
                       * as moe_a2a_bytes_per_token counts it, each GPU
                       * sending its share (§2.3 (The all-to-all);
                       * with racks > 1, §2.5 (Two racks)) */
    double step_s;    /* the largest of compute_s, memory_s, a2a_s */
    moe_bound bound;  /* which of the three step_s is. Ties: NETWORK
                       * only when a2a_s is strictly larger than both
                       * others; otherwise COMPUTE when
                       * compute_s >= memory_s (a tie is COMPUTE),
                       * else MEMORY */
    double a2a_dispatch_s_per_layer; /* the dispatch of one MoE layer alone, the
                                      * same way; 0 when moe_layers = 0 (no layer,
                                      * no all-to-all) */
    double hbm_bytes; /* the bytes the step reads from HBM, weights and caches,
                       * all R n GPUs together */
} moe_step;

/* The three roofs of one step of `batch` sequences with
 * `context_tokens` tokens of context each, on the deployment `*d`
 * (one moe_deploy, valid), §2.4 (Three roofs). The network roof
 * assumes the NVSwitches let every GPU send at its full scale-up rate
 * at once, and with racks > 1 (§2.5 (Two racks)) that each GPU sends
 * the share of its copies whose expert is in its own rack over NVLink
 * and the rest over its NIC AT THE SAME TIME, experts spread evenly
 * over the racks. batch = 0 is a step that only reads the weights:
 * MEMORY. Preconditions: *d valid, batch >= 0, context_tokens >= 0. */
moe_step moe_step_at(const moe_deploy *d, double batch,
                     double context_tokens);

/* The network roof over the compute roof, a2a_s / compute_s, at any
 * batch > 0 (it does not depend on the batch), §2.4 (Three roofs):
 * above 1 the network is the steeper of the two roofs that grow with
 * the batch. Precondition: *d valid (one moe_deploy). */
double moe_network_over_compute(const moe_deploy *d);

/* The knee: the batch at which the step stops being memory-bound. */
typedef struct moe_knee {
    bool exists;     /* false when there is no knee (below) */
    double batch;    /* the knee, sequences (not rounded); 0 when
                      * !exists */
    moe_bound after; /* which roof binds past the knee: the steeper of
                      * compute and network; a tie is COMPUTE. Set
                      * whether or not the knee exists */
} moe_knee;

/* The batch at which the steeper of the compute and network roofs
 * meets the memory roof (weights plus KV), §2.4 (Three roofs). No knee
 * (exists = false, batch = 0) when each sequence's KV fetch adds at
 * least as much time as it adds to the steeper roof (a tie is no
 * knee): memory then binds at every batch. Preconditions: *d valid,
 * context_tokens >= 0. */
moe_knee moe_knee_batch(const moe_deploy *d, double context_tokens);

/* ---- Exercise 2.5 (**) two_racks: the scale-out network ------------------ */

/* One expert layer spread over R racks, experts spread evenly. */
typedef struct moe_racks {
    double cross_fraction;   /* the share of a token's expert visits
                              * whose expert is in another rack */
    double scaleup_over_scaleout; /* W_up / W_out: how much slower the scale-out link is */
    double slowdown_overlap; /* the all-to-all's time over one rack's,
                              * with the same tokens on each GPU, when
                              * each GPU sends its in-rack and its
                              * cross-rack copies at the same time */
    double slowdown_serial;  /* the same when it sends them one part
                              * after the other */
} moe_racks;

/* The cost of spanning `racks` racks, §2.5 (Two racks), for GPUs with
 * scale-up and scale-out bandwidths as given (one direction each).
 * racks = 1 gives cross_fraction 0, slowdown_overlap 1 and slowdown_serial 1
 * (nothing crosses; scaleup_over_scaleout is W_up / W_out whatever the racks).
 * Rounding: each share of a GPU's copies, those that stay in its rack
 * and those that cross, is one division in doubles, a whole number of
 * racks over `racks`, never 1 minus the other share.
 * Preconditions:
 * racks >= 1, both bandwidths > 0 and finite. */
moe_racks moe_span_racks(int racks, double scaleup_bytes_per_s,
                         double scaleout_bytes_per_s);

/* The slowest scale-out link that keeps the all-to-all within a target. */
typedef struct moe_link {
    bool exists;                 /* false when no link, however fast, meets
                                  * the target (below) */
    double scaleout_bytes_per_s; /* W_out: the least scale-out bandwidth per
                                  * GPU, one direction, bytes/s; 0 when
                                  * racks = 1 (nothing crosses) or !exists */
} moe_link;

/* The least scale-out bandwidth W_out at which an expert layer spread
 * over `racks` racks takes at most `max_slowdown` times one rack's
 * all-to-all, with the same tokens on each GPU, for GPUs whose scale-up
 * bandwidth is scaleup_bytes_per_s, §2.5 (Two racks). The slowdown is
 * moe_span_racks's: slowdown_serial when `serial`, slowdown_overlap
 * otherwise. Rounding: W_out is the exact answer to a relative 1e-9,
 * and moe_span_racks at the W_out returned gives max_slowdown to a
 * relative 1e-9; it may come out an ulp above max_slowdown (do not
 * nudge W_out to hide that). max_slowdown = 1 asks for the link at
 * which the extra racks cost nothing. racks = 1: nothing crosses, so
 * any link meets a target of 1 or more (exists, W_out 0) and none
 * meets a target below 1.
 * No answer (exists = false, W_out 0) when no finite W_out meets the
 * target: a target that a link would only reach in the limit of
 * infinite bandwidth is no answer. Whether a target has an answer is
 * decided in doubles, against the in-rack part exactly as
 * moe_span_racks computes it: a target equal to that double is decided
 * by the double, not by the exact fraction it rounds, and the
 * comparison is made with the target itself (never a multiple of it,
 * which rounds again). Preconditions: racks >= 1,
 * scaleup_bytes_per_s > 0 and finite, max_slowdown > 0 and finite. */
moe_link moe_scaleout_for_slowdown(int racks, double scaleup_bytes_per_s,
                                   double max_slowdown, bool serial);

/* ---- Exercise 2.6 (*) expert_batch: tokens per expert -------------------- */

/* Tokens one expert receives on average in a step,
 * §2.6 (Tokens per expert):
 * the batch makes batch * top_k token-expert visits, shared
 * by `experts` experts:
 *     batch * top_k / experts.
 * Preconditions: batch >= 0, 1 <= top_k <= experts. */
double moe_tokens_per_expert(double batch, int experts, int top_k);

/* The smallest batch at which an average expert is compute-bound,
 * §2.6 (Tokens per expert): each expert must see hw_ratio tokens
 * (chapter 1's r, multiplies per weight fetched), so
 *     hw_ratio * experts / top_k
 * sequences (not rounded). Preconditions: hw_ratio > 0,
 * 1 <= top_k <= experts. */
double moe_min_batch(double hw_ratio, int experts, int top_k);

/* ---- Exercise 2.7 (*) rng: a seeded generator of our own ----------------- */

/* SplitMix64 (Steele, Lea and Flood 2014; Vigna's splitmix64.c),
 * §2.7 (Routing is random). `state` points to ONE uint64_t, read and
 * written. Add 0x9E3779B97F4A7C15 to *state (mod 2^64), then mix a
 * copy z of the NEW state and return it:
 *     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
 *     z = (z ^ (z >> 27)) * 0x94D049BB133111EB
 *     z =  z ^ (z >> 31)
 * (uint64_t arithmetic, which wraps mod 2^64). From *state = 0 the
 * first output is 0xE220A8397B1DCDAF and *state becomes
 * 0x9E3779B97F4A7C15. */
uint64_t moe_rng_next(uint64_t *state);

/* A uniform integer in [0, n), every value equally likely, drawn with
 * moe_rng_next from `state` (ONE uint64_t, read and written), §2.7
 * (Routing is random). x % n alone favours small values when n does
 * not divide 2^64: reject every draw x in the last, incomplete block
 * of n values (the 2^64 mod n largest ones) and draw again. n = 1
 * returns 0 (after one draw). Precondition: n >= 1. */
uint64_t moe_rng_below(uint64_t *state, uint64_t n);

/* ---- Exercise 2.8 (**) load_closed_forms: loads, exactly ----------------- */

/* Each of `batch` tokens picks top_k DISTINCT experts of `experts`,
 * uniformly at random and independently of the other tokens, §2.7
 * (Routing is random). One expert's load is the number of tokens it
 * receives; the same section derives its distribution. */

/* P(X > c), strictly greater, for X ~ Binomial(n, p): 1 for c < 0,
 * 0 for c >= n. p = 0 gives 0 for every c >= 0; p = 1 gives 1 for
 * every c < n. Accurate far into the tail (1e-30 and below must come
 * out right to 1e-9 relative). Preconditions: n >= 0, 0 <= p <= 1. */
double moe_binomial_tail(int n, double p, int c);

/* The expected share of all batch * top_k token-expert assignments
 * that are dropped when every expert accepts at most `capacity` tokens
 * and drops the rest, §2.7 (Routing is random): the exact expectation,
 * not an estimate. capacity = 0 drops everything (1);
 * capacity >= batch drops nothing (0). With top_k = experts every
 * expert receives every token. Preconditions: batch >= 1,
 * 1 <= top_k <= experts, capacity >= 0. */
double moe_expected_drop_fraction(int batch, int experts, int top_k,
                                  int capacity);

/* The smallest whole capacity c, 0 <= c <= batch, whose expected drop
 * fraction is STRICTLY below max_drop (a capacity whose drops equal
 * max_drop is not enough), §2.7 (Routing is random). It always
 * exists: c = batch drops nothing. Preconditions as above, and
 * 0 < max_drop < 1. */
int moe_capacity_for_drop(int batch, int experts, int top_k,
                          double max_drop);

/* Two closed-form bounds on the expected load of the busiest expert,
 * E[max_j X_j], in tokens, §2.7 (Routing is random). */
typedef struct moe_max_bounds {
    double lower; /* what E[max] would be if the experts' loads were
                   * independent (they are negatively associated, so
                   * this is a lower bound) */
    double upper; /* the upper bound of §2.7 (Routing is random),
                   * from the union bound */
    double sd;    /* the standard deviation of one expert's load,
                   * tokens */
} moe_max_bounds;

/* Both bounds for the routing above. With top_k = experts every load
 * is exactly `batch`, and both bounds are `batch`.
 * Preconditions: batch >= 1, 1 <= top_k <= experts. */
moe_max_bounds moe_expected_max_load(int batch, int experts, int top_k);

/* ---- Exercise 2.9 (***) routing_simulation: busiest expert --------------- */

/* The most experts a token may visit in the simulation (real models
 * use 1 to 16), so that a token's choices fit in a small array. */
enum { MOE_MAX_TOP_K = 64 };

/* Routes one batch, §2.7 (Routing is random). `rng` points to ONE
 * uint64_t, the generator's state (moe_rng_next), read and written.
 * `load` points to an array of EXACTLY `experts` ints: the function
 * writes load[0] .. load[experts - 1] and no other element, and never
 * reads one before writing it. Each of `batch` tokens picks top_k
 * DISTINCT experts uniformly at random (every set of top_k experts
 * equally likely), independently of the other tokens; load[j] ends as
 * the number of tokens that picked expert j, so the loads sum to
 * batch * top_k. batch = 0 leaves every load 0. Preconditions:
 * batch >= 0, experts >= 1, 1 <= top_k <= min(experts, MOE_MAX_TOP_K).
 */
void moe_route_batch(uint64_t *rng, int batch, int experts, int top_k,
                     int *load);

/* What `trials` routed batches show. */
typedef struct moe_imbalance {
    bool ok;          /* false when memory ran out (then the rest 0) */
    double mean_load; /* batch * top_k / experts, tokens */
    double max_load_over_mean;  /* the busiest expert's load over the
                                 * mean, averaged over the trials */
    int capacity;               /* the capacity, tokens: see moe_simulate */
    double drop_fraction;       /* assignments beyond `capacity` at their
                                 * expert, over all trials * batch * top_k
                                 * assignments */
    double capacity_factor_p99; /* the smallest whole capacity c,
                                 * 0 <= c <= batch, that drops STRICTLY
                                 * fewer than 1% of all assignments of
                                 * all trials, over mean_load */
} moe_imbalance;

/* Routes `trials` batches with moe_route_batch from a generator whose
 * state starts at `seed` (the same seed gives the same result) and
 * summarises them, §2.7 (Routing is random). The capacity is
 * capacity_factor * mean_load rounded DOWN to a whole number of tokens,
 * and at most batch. The product may land a hair below a whole number
 * (1.15 * 100 is 114.99999999999999 in doubles): forgive it, by
 * rounding down capacity_factor * mean_load * (1 + 1e-9). Memory for
 * the loads comes from malloc or calloc and is freed before returning.
 * Preconditions: batch >= 1, experts >= 1, 1 <= top_k <= min(experts,
 * MOE_MAX_TOP_K), trials >= 1, capacity_factor >= 0 and finite. */
moe_imbalance moe_simulate(uint64_t seed, int experts, int top_k, int batch,
                           int trials, double capacity_factor);

/* ---- Exercise 2.10 (**) rack_capacity: what a domain holds --------------- */

/* The HBM of a whole scale-up domain, bytes,
 * §2.8 (Why a rack is the unit):
 * every chip's, chips * hbm_bytes. Preconditions: chips >= 1,
 * hbm_bytes > 0. */
double moe_domain_hbm_bytes(int chips, double hbm_bytes);

/* The largest model a domain holds beside the caches of its batch. */
typedef struct moe_largest {
    bool exists;         /* false when not even N_total = N_active fits;
                          * every number below is then 0 */
    double params_total; /* N_total, the largest, parameters */
    double sparsity;     /* params_total / params_active */
    double batch;        /* the batch it needs at this sparsity,
                          * §1.5 (The balance batch), sequences */
    double kv_bytes;     /* the KV caches of that batch, bytes */
} moe_largest;

/* The largest total parameter count N_total (not rounded) whose
 * weights, at bytes_per_param each, fit in one domain's
 * domain_hbm_bytes beside the KV caches of the batch that model needs
 * (§2.8 (Why a rack is the unit); hw_ratio is chapter 1's r, and each
 * sequence holds context_tokens tokens of kv_bytes_per_token bytes).
 * No answer when that N_total is below params_active (a model has at
 * least its active parameters); exactly params_active is an answer,
 * sparsity 1.
 * Compare the N_total you computed with params_active directly, with no
 * tolerance: the tests put this boundary only where N_total comes out
 * exact in doubles (a domain that holds exactly params_active weights
 * and no cache), so the order of your operations does not matter there.
 * Preconditions: domain_hbm_bytes > 0, bytes_per_param > 0,
 * hw_ratio > 0, context_tokens >= 0, kv_bytes_per_token >= 0,
 * params_active > 0, all finite. */
moe_largest moe_largest_model(double domain_hbm_bytes,
                              double bytes_per_param, double hw_ratio,
                              double context_tokens,
                              double kv_bytes_per_token,
                              double params_active);

/* ---- Exercise 2.11 (*) routed_scaling: what an expert is worth ----------- */

/* The routed scaling law as §2.9 (The routed scaling law) reads the
 * lecture: 64 experts at 370M active parameters match a dense 1.3B
 * model, "64x for 4x", so quality grows as the cube root of the expert
 * count; the dense parameters a routed model is worth:
 *     params_active * experts^(1/3).
 * Preconditions: params_active > 0, experts >= 1. */
double moe_dense_equivalent_params(double params_active, double experts);

/* How many times the experts must grow to keep quality when the
 * active parameters are multiplied by active_ratio (0.5 = halved),
 * §2.9 (The routed scaling law):
 *     (1 / active_ratio)^3.
 * Precondition: 0 < active_ratio <= 1. */
double moe_expert_multiplier(double active_ratio);

/* ---- Exercise 2.12 (***) cheapest_layout: a design ----------------- */

/* What to serve, on what chip, and how fast. */
typedef struct moe_layout_query {
    moe_deploy model;      /* the model and ONE GPU's rates; model.gpus and
                            * model.racks are ignored (the search sets
                            * them) */
    double context_tokens; /* L: tokens of context per sequence */
    double hbm_bytes;      /* HBM capacity of one GPU, bytes */
    int domain_chips;      /* GPUs in one rack (scale-up domain) */
    int max_racks;         /* the most racks a layout may span */
    double usd_per_gpu_hour; /* rental price of one GPU */
    double max_step_s;       /* the latency target: a step (the time
                              * between two tokens of a sequence) may
                              * take at most this long */
} moe_layout_query;

/* Whether a layout was found, and if not, why not. */
typedef enum moe_layout_why {
    MOE_LAYOUT_FOUND,     /* exists: the cheapest layout below */
    MOE_LAYOUT_BAD_QUERY, /* an input is out of range (below) */
    MOE_LAYOUT_NONE_FITS, /* no layout meets the target in its HBM */
} moe_layout_why;

/* The cheapest layout, or why there is none. */
typedef struct moe_layout {
    bool exists;          /* false when there is no answer */
    moe_layout_why why;   /* FOUND exactly when exists */
    int racks;            /* R */
    int gpus_per_rack;    /* n */
    int experts_per_gpu;  /* experts / (R n) */
    double batch;         /* B: sequences per step, a whole number */
    moe_step step;        /* moe_step_at for this layout at B */
    double tokens_per_s;  /* B / step.step_s: the layout's throughput */
    double usd_per_token; /* see moe_cheapest_layout */
} moe_layout;

/* The cheapest way to serve q->model within the latency target,
 * §2.10 (The cheapest layout for a latency target). `q` points to one
 * moe_layout_query, only read.
 *
 * A layout is R racks (1 <= R <= max_racks, R divides experts: each
 * rack holds experts / R of them) of n GPUs each
 * (1 <= n <= domain_chips, n divides experts / R: every GPU holds the
 * same whole number of experts, one copy of each), deployed as moe_step_at
 * assumes with gpus = n and racks = R.
 *
 * Its batch B is the largest whole number of sequences, B >= 1, for
 * which both hold:
 *   - the step fits the target: moe_step_at(...).step_s <= max_step_s,
 *     exactly as moe_step_at computes it in doubles (a quotient that
 *     lands a hair off a whole number must be checked against this
 *     test, not trusted);
 *   - the memory fits: the weights (params_total * bytes_per_param)
 *     plus B caches of context_tokens tokens (kv_bytes_per_token each)
 *     take at most the R n GPUs' HBM, R * n * hbm_bytes (filling it
 *     exactly fits). The tests put that boundary (caches that fill
 *     the HBM exactly) only where every product and sum is exact in
 *     doubles (powers of two), so the order in which you multiply
 *     does not matter there;
 * and B <= 2^53 (= 9007199254740992, where doubles stop holding every
 * whole number): a larger batch is capped there. A layout with no such
 * B >= 1 is infeasible.
 *
 * Its cost per token, usd_per_token, is the rent of its R n GPUs for
 * one step, over the B tokens the step produces (one per sequence).
 *
 * The answer is the feasible layout of least cost. Ties: let c_min be
 * the least cost of any feasible layout; among the layouts whose cost
 * is at most c_min * (1 + 1e-9) (layouts that cost the same in exact
 * arithmetic may differ in the last bits), take the one with the
 * fewest GPUs in all (R n), and among those the fewest racks.
 *
 * No answer (exists = false, every number 0, step.bound COMPUTE):
 * why = MOE_LAYOUT_NONE_FITS when no layout is feasible, and
 * why = MOE_LAYOUT_BAD_QUERY when an input is out of range (checked
 * first): the model must be valid as moe_step_at requires, except gpus
 * and racks;
 * scaleout_bytes_per_s > 0 when max_racks > 1; context_tokens >= 0;
 * hbm_bytes, usd_per_gpu_hour and max_step_s > 0; domain_chips >= 1,
 * max_racks >= 1; every double it reads finite (scaleout_bytes_per_s
 * is read only when max_racks > 1). */
moe_layout moe_cheapest_layout(const moe_layout_query *q);

#endif /* CHALK_MOE_H */
