/*
 * batching.h -- Chapter 1: how batch size sets the cost and speed of a
 * token.
 *
 * The contract for chapter 1. You implement these functions in
 * exercises/01-batching/batching.c; `make check CH=01` runs the tests of
 * tests/01-batching/ against it. Each function says what it returns, in
 * which units, for which inputs, what it returns when there is no answer,
 * and which section of the book (chapter 1 of chalk.pdf) derives it.
 *
 * The model, §1.2 (The roofline of one decode step): one decode step
 * gives each of `batch` sequences one new token. The `chips` chips of one
 * scale-up domain share the work evenly, so every time, rate and byte
 * count the functions below return is that of all the chips together
 * (batching_deploy's own fields are per chip). A step's time is a lower
 * bound set by the slower of two machines that run at the same time:
 * the arithmetic units, which multiply each token through the active
 * weights, and the memory system, which streams every weight once and
 * each sequence's KV cache once. Attention's own arithmetic is left out, as in the
 * lecture. FLOPs are 2 per multiply-accumulate (the spec sheets'
 * convention) and every parameter count is multiplied by its bytes.
 *
 * All quantities are SI doubles: seconds, bytes, FLOP/s, bytes/s, USD;
 * batches and contexts are doubles unless a function returns a whole
 * batch (long).
 */
#ifndef CHALK_BATCHING_H
#define CHALK_BATCHING_H

#include <stdbool.h>

#include "cost.h"

/* One model served on one scale-up domain; rates and sizes are per chip.
 * Valid: every count and rate > 0 except the KV bytes and the expert
 * counts, which may be 0; params_active <= params_total. */
typedef struct batching_deploy {
    double params_total;       /* N_total: every weight of the model */
    double params_active;      /* N_active: the weights one token uses */
    double bytes_per_param;    /* beta: 2 bf16, 1 fp8, 0.5 fp4 */
    double kv_bytes_per_token; /* b_kv: KV cache per token, all layers */
    int chips;                 /* n: one scale-up domain */
    double flops_per_s;        /* F: at the precision of the math */
    double hbm_bytes_per_s;    /* W_BW: HBM bandwidth */
    double hbm_bytes;          /* C_HBM: HBM capacity */
    double usd_per_chip_hour;  /* p_chip: rental price */
    int experts_routed;        /* E: routed experts a layer; 0 if dense */
    int experts_per_token;     /* k: experts a token's router picks */
} batching_deploy;

/* The three roofline terms of one decode step, and what they add up to. */
typedef struct batching_step {
    double compute_s; /* the weight multiplies of every token */
    double weights_s; /* fetching every weight once */
    double kv_s;      /* fetching every sequence's KV cache once */
    double memory_s;  /* the memory part: the weights and the KV caches,
                       * both through HBM, §1.2 (The roofline of one decode step) */
    double step_s;    /* the step time, the roofline's lower bound of
                       * §1.2 (The roofline of one decode step) */
    cost_bound bound; /* COST_BOUND_COMPUTE when compute_s >= memory_s */
    double mfu;       /* the share of the step spent multiplying (model FLOPs
                       * utilisation), §1.3 (Latency against batch) */
    double hbm_bytes; /* the bytes a step reads from the HBM of all the chips
                       * together (not per chip): every weight and every
                       * sequence's cache once, so memory_s at the bandwidth of
                       * all the chips */
} batching_step;

/* ---- Exercise 1.1 (*) roofline_terms: the three terms -------------------- */

/* Seconds of weight arithmetic in one step: every token of the batch
 * multiplied through the active weights (N_active), on the arithmetic of
 * all the chips; the compute term of §1.2 (The roofline of one decode
 * step). FLOPs as the header says.
 * Preconditions: batch >= 0 (0 gives 0). */
double batching_compute_s(const batching_deploy *d, double batch);

/* Seconds to fetch every weight (N_total, in its bytes) once from the
 * HBM of all the chips; the weights term of §1.2 (The roofline of one
 * decode step). Independent of the batch: every weight is read once per step, whoever
 * uses it. */
double batching_weights_s(const batching_deploy *d);

/* Seconds to fetch the batch's KV caches from the HBM of all the chips:
 * each sequence's cache of context_tokens tokens, once; the KV term of
 * §1.2 (The roofline of one decode step).
 * Preconditions: batch >= 0, context_tokens >= 0 (either 0 gives 0). */
double batching_kv_s(const batching_deploy *d, double batch,
                     double context_tokens);

/* ---- Exercise 1.2 (*) step_time: the roofline of a step ------------------ */

/* Every field of one decode step at this batch and context,
 * §1.3 (Latency against batch), the section of this exercise, on the
 * roofline of §1.2 (The roofline of one decode step): the three terms
 * above, memory_s their memory part, step_s the step time that roofline
 * bounds (the two machines run at the same time, as the header says),
 * mfu and hbm_bytes as the struct says.
 * bound is COST_BOUND_COMPUTE when compute_s >= memory_s (a tie is
 * compute-bound), else COST_BOUND_MEMORY.
 * Preconditions: batch >= 0, context_tokens >= 0. */
batching_step batching_step_at(const batching_deploy *d, double batch,
                               double context_tokens);

/* The latency floor, §1.3 (Latency against batch): the step time as the
 * batch shrinks to nothing, which is the time to stream every weight once.
 * No batch gets below it on this hardware. */
double batching_latency_floor_s(const batching_deploy *d);

/* ---- Exercise 1.3 (**) experts_fetched: what a small batch reads --------- */

/* The expected number of parameters one decode step at this batch reads
 * from HBM, §1.3 (Latency against batch). The model: in every MoE layer
 * each token's router picks k of the E routed experts uniformly at
 * random, each token independently of the others; the routed experts of
 * a layer are all the same size. Every weight outside the routed experts
 * (attention, dense layers, shared experts) is read by every step; a
 * routed expert is read when at least one token of the batch picks it.
 * N_active is what one token reads; no other figure of the model is given.
 * Boundaries: exactly N_active at batch 1; N_total at every batch for a
 * dense model (experts_routed == 0) and for a router that picks every
 * expert (k == E).
 * Preconditions: batch >= 1 (a real number: the expectation is smooth in
 * it); 0 < k <= E for an MoE. Result in parameters. */
double batching_params_fetched(const batching_deploy *d, double batch);

/* The smallest whole batch (at least 1) at which the expected share of
 * routed experts that no token of the batch picks is at most idle_share,
 * §1.3 (Latency against batch), in the model above. A share met exactly
 * counts as met. 1 for a dense model and for k == E.
 * Precondition: 0 < idle_share < 1.
 * Rounding: where the exact answer is a whole number, floating point can
 * put the real-valued batch that meets the share a hair above it
 * (3.0000000000000004 where the exact answer is 3): count a value within a
 * relative 1e-9 of a whole number as that whole number before rounding
 * up. */
long batching_all_experts_batch(const batching_deploy *d,
                                double idle_share);

/* ---- Exercise 1.4 (*) throughput_cost: tokens/s, USD per token ----------- */

/* Tokens per second the whole system produces at the step time of
 * batching_step_at, §1.4 (Cost against batch): each step gives each
 * sequence one token.
 * Preconditions: batch > 0, context_tokens >= 0. */
double batching_tokens_per_s(const batching_deploy *d, double batch,
                             double context_tokens);

/* USD per million generated tokens, §1.4 (Cost against batch): the rent
 * of all the chips (usd_per_chip_hour is per chip and per hour of 3600 s)
 * for one step of batching_step_at, over the tokens the step produces.
 * Preconditions: batch > 0, context_tokens >= 0. */
double batching_usd_per_mtok(const batching_deploy *d, double batch,
                             double context_tokens);

/* ---- Exercise 1.5 (*) hardware_ratio: the lecture's "~300" --------------- */

/* The chip's hardware ratio r, §1.5 (The balance batch): how many
 * multiply-accumulates the chip does in the time its HBM delivers one
 * weight of bytes_per_param bytes (FLOPs as the header says).
 * A pure number: about 300 for H100 in bf16 or B200 in fp4.
 * Preconditions: all three > 0. */
double batching_hw_ratio(double flops_per_s, double hbm_bytes_per_s,
                         double bytes_per_param);

/* The balance batch without the KV term, in sequences (a real number),
 * for a chip of hardware ratio hw_ratio and a model of sparsity
 * N_total / N_active, §1.5 (The balance batch).
 * Preconditions: both > 0. */
double batching_balance_batch_approx(double hw_ratio, double sparsity);

/* ---- Exercise 1.6 (**) balance_batch: with the KV term ------------------- */

/* The balance batch at a context length, or the reason there is none. */
typedef struct batching_balance {
    bool exists;  /* false when no batch makes the step compute-bound */
    double batch; /* where compute_s == memory_s; 0 when !exists */
} batching_balance;

/* The batch, a real number not rounded, at which a step's compute_s
 * equals its memory_s (weights and KV caches) at this context,
 * §1.5.1 (With the KV term: when there is no balance batch). In sequences.
 * No answer (exists false, batch 0) when memory_s exceeds compute_s at
 * every batch; §1.5.1 (With the KV term: when there is no balance batch)
 * derives when that is.
 * Boundary: at exactly the max balanced context (below) there is no
 * answer.
 * Rounding: that context is a quotient, so floating point can put a
 * context meant to be exactly it a hair below it, where an exact
 * comparison finds a balance batch of about 1e18 sequences: count a
 * context within a relative 1e-9 of the max balanced context as that
 * context (no answer).
 * No KV cache (kv_bytes_per_token 0): there is no KV term and no max
 * balanced context (so neither rule above applies); the answer exists at
 * every context and is the balance batch without the KV term
 * (exercise 1.5).
 * Precondition: context_tokens >= 0 (at 0, the balance batch without the
 * KV term). */
batching_balance batching_balance_batch(const batching_deploy *d,
                                        double context_tokens);

/* The max balanced context L*, in tokens (a real number),
 * §1.5.1 (With the KV term: when there is no balance batch), the section
 * of this exercise: the context at which one sequence's KV fetch takes
 * exactly as long as its weight arithmetic (the balance of slopes that
 * §1.3 (Latency against batch) sets up and leaves to this exercise to
 * solve). At and beyond it no batch is compute-bound.
 * Precondition: kv_bytes_per_token > 0. */
double batching_max_balanced_context_tokens(const batching_deploy *d);

/* ---- Exercise 1.7 (*) train_departures: when does the train go? ---------- */

typedef struct batching_departures {
    double step_s;          /* the HBM drain time: one read of all of HBM */
    double worst_wait_s;    /* the wait of a request arriving just after a
                             * departure */
    double mean_wait_s;     /* the mean wait, arrivals uniform in time */
    double worst_latency_s; /* worst wait, then ride one step */
    double mean_latency_s;  /* mean wait, then ride one step */
} batching_departures;

/* The train schedule of a full server, §1.6 (Train departures): a step
 * reads all of HBM (hbm_bytes) once at hbm_bytes_per_s, and a new batch
 * departs every step, full or not; a request boards the first departure
 * after it arrives. In seconds, the fields above.
 * Preconditions: both > 0. */
batching_departures batching_train_departures(double hbm_bytes,
                                              double hbm_bytes_per_s);

/* ---- Exercise 1.8 (**) batch_limits: memory and latency caps ------------- */

/* The largest whole batch meeting a limit, or the reason there is none.
 * Both functions below: a limit met exactly counts as met (when exactly
 * one sequence fits, exists is true and batch is 1); exists is false and
 * batch 0 when not even one sequence meets it; a batch beyond what a long
 * holds is LONG_MAX.
 * Rounding: where the exact answer is a whole number, floating point can
 * put the real-valued batch that meets the limit a hair below it
 * (0.9999999999998 for exactly one sequence): count a value within a
 * relative 1e-9 of a whole number as that whole number before rounding
 * down. */
typedef struct batching_limit {
    bool exists; /* false when not even a batch of 1 meets the limit */
    long batch;  /* the largest batch that does; 0 when !exists */
} batching_limit;

/* The largest whole batch whose weights (every parameter, N_total) and
 * one KV cache of context_tokens tokens per sequence fit in the HBM of all
 * the chips together, §1.6 (Train departures); filling it exactly fits.
 * No answer when not even one sequence's cache fits beside the weights.
 * Preconditions: context_tokens > 0, kv_bytes_per_token > 0. */
batching_limit batching_max_batch_hbm(const batching_deploy *d,
                                      double context_tokens);

/* The largest whole batch whose step time (the time between a
 * sequence's tokens, batching_step_at's step_s) is at most target_step_s,
 * §1.6 (Train departures). No answer when one sequence's step already
 * exceeds the target (so whenever the target is below the latency
 * floor).
 * Preconditions: target_step_s > 0, context_tokens >= 0. */
batching_limit batching_max_batch_latency(const batching_deploy *d,
                                          double context_tokens,
                                          double target_step_s);

/* ---- Exercise 1.9 (***) fast_mode: buying speed with batch --------------- */

/* Fast mode against the normal service; when possible is false, every
 * other field is 0. */
typedef struct batching_fast {
    bool possible;     /* some batch of at least 1 meets the fast step */
    double batch;      /* the largest batch whose step is that fast */
    double step_s;     /* the fast step: normal step / speedup */
    double cost_ratio; /* fast cost per token / normal cost per token */
} batching_fast;

/* Fast mode on the same hardware and context, §1.9 (Fast mode): the fast
 * step is 1/speedup of the step at normal_batch; run the largest batch
 * whose step is that fast, and report what a token then costs relative
 * to normal. That batch is usually smaller than normal_batch but can lie
 * beyond it: with speedup 1, left of the knee every batch up to the knee
 * steps as fast as the normal one.
 *
 * The step in this exercise is that of exercise 1.2 with one change: a
 * step reads only the parameters its batch is expected to fetch
 * (batching_params_fetched of exercise 1.3), not every parameter. So
 * both the normal and the fast step of an MoE read fewer weights at a
 * small batch; for a dense model (experts_routed == 0) or k == E the step
 * is batching_step_at's step_s. A batch is a real number >= 1.
 *
 * batch is the largest real batch >= 1 whose step is at most the fast
 * step (a step equal to it counts), to within a relative 1e-9 of that
 * batch (steps compared exactly; the tests keep clear of a batch where
 * the answer would hang on the last bit of a flat step); step_s is
 * the fast step itself (normal step / speedup), not the step of the batch
 * found; cost_ratio compares step / batch at the two batches, taking
 * step_s as the fast batch's step (the two differ only at the batch-1
 * boundary below, by at most its 1e-9; the chips and their price are the
 * same). Not possible when
 * even a batch of 1 steps longer than the fast step. Boundary: a batch
 * of exactly 1 whose step equals the fast step is possible, and since
 * the fast step is a quotient, the step of a batch of 1 within a relative
 * 1e-9 of it counts as equal.
 * Preconditions: normal_batch >= 1, speedup >= 1, context_tokens >= 0;
 * the model valid as batching_deploy says. */
batching_fast batching_fast_mode(const batching_deploy *d,
                                 double context_tokens, double normal_batch,
                                 double speedup);

/* ---- Exercise 1.10 (***) cheapest: a deployment to buy ------------- */

/* One kind of hardware on offer: per-chip figures at the precision the
 * model runs in, its price, and the most of its chips one deployment may
 * use (treated as one scale-up domain, as everywhere in this chapter).
 * Valid: every number > 0 and max_chips >= 1. max_chips may be any int up
 * to INT_MAX: the tests offer 2^31 - 1 chips of several kinds and give a
 * whole test run 2 seconds (CHALK_TIMEOUT), so the search must find the
 * answer without trying every chip count. */
typedef struct batching_offer {
    const char *name;         /* for reports only; may be NULL */
    double flops_per_s;       /* F, per chip */
    double hbm_bytes_per_s;   /* W_BW, per chip */
    double hbm_bytes;         /* C_HBM, per chip */
    double usd_per_chip_hour; /* p_chip */
    int max_chips;            /* n may be any whole number 1..max_chips,
                               * up to INT_MAX */
} batching_offer;

/* The cheapest deployment, or the reason there is none. */
typedef struct batching_plan {
    bool exists;         /* false when no deployment meets the target */
    int offer;           /* index into offers[]; -1 when !exists */
    int chips;           /* n; 0 when !exists */
    long batch;          /* sequences per step; 0 when !exists */
    double step_s;       /* the step at that batch; 0 when !exists */
    double usd_per_mtok; /* what a million tokens cost; 0 when !exists */
} batching_plan;

/* The cheapest way to serve `model` at this context with a step of at
 * most target_step_s,
 * §1.10 (The cheapest deployment for a latency target).
 * A deployment is an offer, a whole number of its chips n from 1
 * to its max_chips, and a whole batch of at least 1 sequence; it runs the
 * model's weights and KV caches (model's params_total, params_active,
 * bytes_per_param and kv_bytes_per_token; its other fields are not read)
 * on the offer's chips at the offer's price. It is feasible when the
 * weights and the batch's KV caches fit in the n chips' HBM and its step
 * (batching_step_at's step_s) is at most target_step_s; a limit met
 * exactly counts as met, and the rounding rule of exercise 1.8 applies.
 * Its cost is its USD per million generated tokens (exercise 1.4).
 * The answer is the feasible deployment of least cost. Ties: costs
 * within a relative 1e-9 of the least count as equal (floating point
 * cannot make equal costs bit for bit); among equal costs, the fewest
 * chips; then the earlier offer in offers[]; then the largest batch.
 * No answer (exists false, offer -1, every number 0) when no deployment
 * is feasible, including when count is 0.
 * Preconditions: context_tokens > 0, kv_bytes_per_token > 0,
 * target_step_s > 0, count >= 0, every offer valid. */
batching_plan batching_cheapest(const batching_deploy *model,
                                double context_tokens, double target_step_s,
                                const batching_offer *offers, int count);

/* ---- Exercise 1.11 (**) max_sparsity: how far can sparsity go? --------- */

/* The largest sparsity a deployment can serve at, or the reason there is
 * none. */
typedef struct batching_sparsity {
    bool exists;     /* false when no sparsity >= 1 qualifies */
    double sparsity; /* the largest one, N_total / N_active; 0 when !exists */
    double batch;    /* the balance batch at that sparsity, sequences (a real
                      * number, not rounded); 0 when !exists */
} batching_sparsity;

/* How far sparsity can go on this deployment at this context,
 * §1.8 (How far can sparsity go?), the section of this exercise: the
 * largest sparsity s = N_total / N_active at which the deployment serves the
 * model at its balance batch (under the model of §1.5.1 (With the KV term:
 * when there is no balance batch), exercise 1.6's batch at this context)
 * within HBM (under the capacity model of §1.6 (Train departures));
 * filling HBM exactly fits.
 * Inputs: params_active and every other figure of d stay as given, and the
 * model of sparsity s has s * params_active parameters in total (d's own
 * params_total, experts_routed and experts_per_token are not read; nor is
 * usd_per_chip_hour).
 * s is a real number, not rounded, and at least 1. batch is the balance
 * batch of the model of sparsity s, sequences (a real number, not rounded).
 * No answer (exists false, both numbers 0): at and beyond the max balanced
 * context (exercise 1.6, with its rounding rule), where no sparsity has a
 * balance batch; and when not even sparsity 1 (a dense model of
 * params_active weights) fits at its balance batch.
 * Boundary: a largest sparsity of exactly 1 is an answer. It is a
 * quotient, so floating point can put a sparsity meant to be exactly 1 a
 * hair below it: count a value within a relative 1e-9 below 1 as 1 (the
 * answer is then 1).
 * Preconditions: context_tokens >= 0 (tokens); d valid as batching_deploy
 * says. */
batching_sparsity batching_max_sparsity(const batching_deploy *d,
                                        double context_tokens);

#endif /* CHALK_BATCHING_H */
