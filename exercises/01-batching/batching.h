/*
 * batching.h -- Chapter 1: how batch size sets the cost and speed of a
 * token.
 *
 * The contract for chapter 1. You implement these functions in
 * exercises/01-batching/batching.c; the tests in tests/01-batching/ check
 * them, and the reference in solutions/01-batching/batching.c is what the
 * book's numbers come from. Read chapters/01-batching.md alongside.
 *
 * The model (lecture section 1): one decode step gives each of `batch`
 * sequences one new token. On `chips` chips that split the work evenly,
 *
 *   compute_s = batch * 2 * N_active            / (chips * flops_per_s)
 *   weights_s = N_total * bytes_per_param       / (chips * hbm_bytes_per_s)
 *   kv_s      = batch * context * kv_bytes      / (chips * hbm_bytes_per_s)
 *   step_s    = max(compute_s, weights_s + kv_s)          (a lower bound)
 *
 * FLOPs are 2 per multiply-accumulate (the spec sheets' convention), so a
 * token costs 2 * N_active FLOPs. Attention's own arithmetic is left out,
 * as in the lecture. All quantities are SI doubles: seconds, bytes, FLOP/s,
 * bytes/s, USD.
 */
#ifndef CHALK_BATCHING_H
#define CHALK_BATCHING_H

#include <stdbool.h>

#include "cost.h"

/* One model served on one scale-up domain; rates and sizes are per chip. */
typedef struct batching_deploy {
    double params_total;       /* N_total: every weight, read each step */
    double params_active;      /* N_active: the weights one token uses */
    double bytes_per_param;    /* 2 for bf16, 1 for fp8, 0.5 for fp4 */
    double kv_bytes_per_token; /* KV cache per token, all layers */
    int chips;                 /* n: one scale-up domain */
    double flops_per_s;        /* at the precision of the math */
    double hbm_bytes_per_s;    /* HBM bandwidth */
    double hbm_bytes;          /* HBM capacity */
    double usd_per_chip_hour;  /* rental price */
    int experts_routed;        /* E: routed experts a layer; 0 if dense */
    int experts_per_token;     /* k: experts a token's router picks */
} batching_deploy;

/* The three roofline terms of one decode step, and what they add up to. */
typedef struct batching_step {
    double compute_s; /* weight multiplies */
    double weights_s; /* fetching every weight once */
    double kv_s;      /* fetching every sequence's KV cache once */
    double memory_s;  /* weights_s + kv_s */
    double step_s;    /* max(compute_s, memory_s) */
    cost_bound bound; /* COST_BOUND_COMPUTE when compute_s >= memory_s */
    double mfu;       /* compute_s / step_s: the share of the step spent multiplying */
    double hbm_bytes; /* what HBM holds, every weight and every cache: a step reads
                       * each once, so memory_s at the chips' bandwidth */
} batching_step;

/* ---- Exercise 1.1 (*) roofline_terms: the three terms ----------- §1.2 */

/* Seconds of weight arithmetic for one step:
 *     batch * 2 * N_active / (chips * F).
 * Preconditions: batch >= 0, chips >= 1, flops_per_s > 0. */
double batching_compute_s(const batching_deploy *d, double batch);

/* Seconds to fetch every weight once:
 *     N_total * bytes_per_param / (chips * BW).
 * Independent of batch: every weight is read once per step, whoever uses
 * it. */
double batching_weights_s(const batching_deploy *d);

/* Seconds to fetch the KV caches:
 *     batch * context_tokens * kv_bytes / (chips * BW).
 * Preconditions: batch >= 0, context_tokens >= 0. */
double batching_kv_s(const batching_deploy *d, double batch,
                     double context_tokens);

/* ---- Exercise 1.2 (*) step_time: the roofline of a step --------- §1.3 */

/* All terms of one decode step at this batch and context,
 * step_s = max(compute, weights + KV), and which bound applies. */
batching_step batching_step_at(const batching_deploy *d, double batch,
                               double context_tokens);

/* The latency floor: the step time as the batch shrinks to nothing, which
 * is the time to stream every weight once. No batch size gets below it on
 * this hardware. */
double batching_latency_floor_s(const batching_deploy *d);

/* ---- Exercise 1.3 (**) experts_fetched: what a small batch reads §1.3 */

/* The parameters one step at this batch is expected to read from HBM when
 * each token's router picks k of the E routed experts of every MoE layer
 * uniformly at random, independently of the other tokens. An expert is then
 * wanted by no token with probability (1 - k/E)^batch, and the step reads
 *     N_total - (N_total - N_active) * (1 - k/E)^(batch - 1)
 * parameters: exactly N_active for one sequence, nearly N_total for a large
 * batch. A dense model (experts_routed == 0) reads N_total at every batch.
 * Preconditions: batch >= 1; 0 < experts_per_token <= experts_routed for an
 * MoE. */
double batching_params_fetched(const batching_deploy *d, double batch);

/* The smallest whole batch at which the expected share of routed experts
 * that no token wants, (1 - k/E)^batch, is at most idle_share: from there
 * on a step reads at least 1 - idle_share of its weights, and the N_total
 * weight term holds. A share met exactly counts as met. 1 for a dense
 * model. Precondition: 0 < idle_share < 1. */
long batching_all_experts_batch(const batching_deploy *d,
                                double idle_share);

/* ---- Exercise 1.4 (*) throughput_cost: tokens/s, USD per token - §1.4 */

/* Tokens per second the whole system produces: batch / step_s. */
double batching_tokens_per_s(const batching_deploy *d, double batch,
                             double context_tokens);

/* USD per million generated tokens: the rent of all chips for one step,
 * divided by the batch tokens that step produces, times 1e6.
 * Precondition: batch > 0. */
double batching_usd_per_mtok(const batching_deploy *d, double batch,
                             double context_tokens);

/* ---- Exercise 1.5 (*) hardware_ratio: the lecture's "~300" ------ §1.5 */

/* The chip's balance ratio in the lecture's units: multiplies per second
 * times bytes per weight, divided by bytes per second of HBM bandwidth:
 *     (flops_per_s / 2) * bytes_per_param / hbm_bytes_per_s.
 * Dimensionless; about 300 for H100 in bf16 or B200 in fp4. */
double batching_hw_ratio(double flops_per_s, double hbm_bytes_per_s,
                         double bytes_per_param);

/* The balance batch without the KV term: ratio * sparsity, where sparsity
 * is N_total / N_active. */
double batching_balance_batch_approx(double hw_ratio, double sparsity);

/* ---- Exercise 1.6 (**) balance_batch: with the KV term ---------- §1.5 */

/* The balance batch at a context length, or the reason there is none. */
typedef struct batching_balance {
    bool exists;  /* false when no batch makes the step compute-bound */
    double batch; /* where compute_s == weights_s + kv_s; 0 when !exists */
} batching_balance;

/* Solves for batch
 *     batch * 2 N_active / F = N_total * bytes / BW + batch * context * kv
 * / BW. When the KV slope kappa (per sequence) is at least the compute
 * slope c, the memory line never falls below compute and there is no
 * balance batch: at exactly the max balanced context the slopes are equal
 * and there is none either. */
batching_balance batching_balance_batch(const batching_deploy *d,
                                        double context_tokens);

/* The context length at which the KV slope equals the compute slope,
 *     2 N_active * BW / (F * kv_bytes_per_token) tokens:
 * at and beyond it no batch is compute-bound (at exactly this context the
 * slopes are equal and there is no balance batch). Precondition:
 * kv_bytes_per_token > 0. */
double batching_max_balanced_context_tokens(const batching_deploy *d);

/* ---- Exercise 1.7 (*) train_departures: when does the train go? §1.6 */

typedef struct batching_departures {
    double step_s;       /* a step reads all of HBM once: capacity / BW */
    double worst_wait_s; /* just after a departure: a whole step */
    double mean_wait_s;  /* arrivals uniform in time: half a step */
    double worst_latency_s; /* worst wait, then ride one step */
    double mean_latency_s;  /* mean wait, then ride one step */
} batching_departures;

/* A new batch departs every step, full or not, and the step is the HBM
 * drain time hbm_bytes / hbm_bytes_per_s. Preconditions: both positive. */
batching_departures batching_train_departures(double hbm_bytes,
                                              double hbm_bytes_per_s);

/* ---- Exercise 1.8 (**) batch_limits: memory and latency caps ---- §1.6 */

/* The largest whole batch meeting a limit, or the reason there is none. A
 * limit met exactly counts as met: when exactly one sequence fits, exists
 * is true and batch is 1. */
typedef struct batching_limit {
    bool exists; /* false when not even a batch of 1 meets the limit */
    long batch;  /* the largest batch that does; 0 when !exists */
} batching_limit;

/* The largest batch whose weights and KV caches fit in the HBM of all
 * chips:
 *     N_total * bytes + batch * context * kv_bytes <= chips * hbm_bytes. */
batching_limit batching_max_batch_hbm(const batching_deploy *d,
                                      double context_tokens);

/* The largest batch whose step time (the time between a sequence's tokens)
 * is at most target_step_s. Precondition: target_step_s > 0. */
batching_limit batching_max_batch_latency(const batching_deploy *d,
                                          double context_tokens,
                                          double target_step_s);

/* ---- Exercise 1.9 (***) fast_mode: buying speed with batch ------ §1.9 */

/* possible is false when the fast step is below the latency floor, or
 * leaves room for less than one sequence (batch < 1); the other fields are
 * then 0. batch is not rounded to a whole number: it is where the roofline
 * meets the fast step. */
typedef struct batching_fast {
    bool possible;     /* some batch of at least 1 meets the fast step */
    double batch;      /* the largest batch whose step is that fast */
    double step_s;     /* the fast step: normal step / speedup */
    double cost_ratio; /* fast cost per token / normal cost per token */
} batching_fast;

/* Fast mode on the same hardware and context: run a smaller batch so that
 * a step takes 1/speedup of the step at normal_batch, and report what a
 * token then costs relative to normal.
 * Preconditions: normal_batch > 0, speedup >= 1. */
batching_fast batching_fast_mode(const batching_deploy *d,
                                 double context_tokens, double normal_batch,
                                 double speedup);

#endif /* CHALK_BATCHING_H */
