/*
 * context.h -- Chapter 5: long context, and what API prices reveal about a
 * model's memory.
 *
 * The contract for chapter 5. You implement these functions in
 * exercises/05-long-context/context.c; the tests in tests/05-long-context/
 * check them. Read chapter 5 of the book (chalk.pdf) alongside: each
 * function names the section that derives it.
 *
 * The model is chapter 1's decode step seen along the context length L
 * instead of the batch: a step of `batch` sequences, each holding L tokens
 * of context, on `chips` chips that share the work evenly. FLOPs are 2 per
 * multiply-accumulate (spec sheets count them so), and every parameter or
 * cached element is multiplied by its bytes. All quantities are SI doubles:
 * seconds, bytes, FLOP/s, bytes/s, USD; token counts are doubles too.
 */
#ifndef CHALK_CONTEXT_H
#define CHALK_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "cost.h"

/* One model served on one scale-up domain. Rates are per chip. */
typedef struct context_deploy {
    double params_total;       /* N_total: all weights, read every step */
    double params_active;      /* N_active: weights one token uses */
    double bytes_per_param;    /* beta: 2 bf16, 1 fp8, 0.5 fp4 */
    double kv_bytes_per_token; /* b_kv: cache per context token */
    /* f_attn: attention FLOPs a new token spends per token of context
     * (context_attention_flops_per_context_token); 0 leaves attention's
     * arithmetic out, as the lecture does */
    double attn_flops_per_context_token;
    int chips;              /* n: chips sharing the work */
    double flops_per_s;     /* F: per chip, all arithmetic at this peak */
    double hbm_bytes_per_s; /* W_BW: per chip */
} context_deploy;

/* ---- Exercise 5.1 (*) context_roofline ---------------------------------
 * §5.1 (The roofline against context) */

/* One new token's share of a step or a pass, in seconds. */
typedef struct context_token_time {
    double compute_s; /* its arithmetic, on all chips together */
    double memory_s;  /* its share of the memory traffic */
    double time_s;    /* the larger of the two: the roofline */
    cost_bound bound; /* COST_BOUND_COMPUTE when compute_s >= memory_s */
} context_token_time;

/* Time per generated token of a decode step of `batch` sequences, each
 * holding `context_tokens` tokens of context, in seconds: the per-token
 * roofline of §5.1 (The roofline against context), chapter 1's step divided
 * by the batch, with attention's arithmetic counted. compute_s is its
 * compute term (the token's arithmetic: its weights and its attention over
 * its context, d's FLOPs on all of d's chips); memory_s is its memory term
 * (the token's share of the step's reads: the weights, which the batch
 * shares, and its own sequence's cache, on all of d's chips); time_s is the
 * larger. Every field of d is read. A tie (compute_s == memory_s) is
 * compute-bound. Preconditions: batch > 0, context_tokens >= 0. */
context_token_time context_time_per_token(const context_deploy *d,
                                          double batch,
                                          double context_tokens);

/* Bytes in the chips' HBM at this batch and context: every weight, and `batch`
 * caches of `context_tokens` tokens. Preconditions: batch >= 0, context_tokens >= 0. */
double context_hbm_bytes(const context_deploy *d, double batch, double context_tokens);

/* What a token costs, in USD per million tokens, when it takes `time_per_token_s`
 * seconds of all `chips` chips, each rented at usd_per_chip_hour (USD per chip-hour):
 * the cost per token of §1.4 (Cost against batch), with a token's time for the step's
 * time over its batch, converted from a rent per hour to one per second and from
 * one token to a million. Preconditions: all >= 0. */
double context_usd_per_mtok(int chips, double usd_per_chip_hour, double time_per_token_s);

/* ---- Exercise 5.2 (**) context_kink ------------------------------------
 * §5.1 (The roofline against context) */

/* The context at which a token's cost starts to climb, if it does. */
typedef struct context_kink {
    bool exists;   /* false: no such context (see below) */
    double tokens; /* L_kink in tokens; 0 when !exists */
} context_kink;

/* The kink of context_time_per_token at this batch: the context L_kink > 0
 * such that a token is compute-bound at every context up to L_kink and
 * memory-bound at every context beyond it. It is a real number, not
 * rounded. No kink (exists = false, tokens = 0) when there is no such
 * context: when a token is memory-bound, or exactly balanced, at zero
 * context, and when it is compute-bound at every context.
 * `batch` may be INFINITY: a batch so large that the weights' share of a
 * token vanishes. Preconditions: batch > 0, kv_bytes_per_token > 0. */
context_kink context_kink_tokens(const context_deploy *d, double batch);

/* ---- Exercise 5.3 (*) kv_from_price -----------------------------------
 * §5.2 (Solving for the bytes per token) */

/* The KV bytes per token of context that put a kink at `crossover_tokens`
 * when the batch is so large that the weight fetch is negligible and, as
 * in the lecture, attention's arithmetic is left out: the cache for which
 * one token's fetch of its whole context takes exactly as long as its
 * arithmetic. flops_per_s counts 2 FLOPs per multiply-accumulate.
 * Preconditions: all > 0. */
double context_kv_bytes_from_crossover(double params_active,
                                       double crossover_tokens,
                                       double flops_per_s,
                                       double hbm_bytes_per_s);

/* The same answer from chapter 1's hardware ratio r instead of the chip's
 * rates: r is multiplies per second times bytes per weight over bytes per
 * second (the lecture's "~300"), so it counts multiplies per WEIGHT
 * fetched, and a weight is `bytes_per_weight` bytes. Both functions agree
 * on any chip. Preconditions: all > 0. */
double context_kv_bytes_from_ratio(double hw_ratio, double bytes_per_weight,
                                   double params_active,
                                   double crossover_tokens);

/* ---- Exercise 5.4 (*) kv_shape -----------------------------------------
 * §5.3 (Is 833 bytes a plausible cache?) */

/* Bytes of keys and values one token leaves in the cache, summed over the
 * `kv_contexts` layers that keep a cache of their own (fewer than the
 * layers when layers share one): in each, a key and a value of `head_dim`
 * numbers for each of `kv_heads` heads, at `bytes_per_element` each.
 * Multi-head attention has as many KV heads as query heads, grouped-query
 * fewer, multi-query one. Preconditions: all inputs >= 0. */
double context_kv_bytes_per_token(double kv_contexts, double kv_heads,
                                  double head_dim,
                                  double bytes_per_element);

/* DeepSeek's multi-head latent attention (MLA): in each of `layers`
 * layers, ONE latent vector of `latent_dim` numbers per token, from which
 * keys and values are both rebuilt, plus a decoupled RoPE key of
 * `rope_dim` numbers, at `bytes_per_element` each. Preconditions: all
 * inputs >= 0. */
double context_mla_kv_bytes_per_token(double layers, double latent_dim,
                                      double rope_dim,
                                      double bytes_per_element);

/* ---- Exercise 5.5 (*) windows_sparse -----------------------------------
 * §5.3 (Is 833 bytes a plausible cache?) */

/* KV bytes one sequence of `context_tokens` holds when `global_layers`
 * keep the whole context and `local_layers` keep only the last
 * `window_tokens` of it (all of it while the context is shorter).
 * `kv_bytes_per_layer_token` is one layer's cache for one token.
 * Preconditions: all inputs >= 0. */
double context_window_kv_bytes(double global_layers, double local_layers,
                               double window_tokens,
                               double kv_bytes_per_layer_token,
                               double context_tokens);

/* Bytes one decode step reads for one sequence under sparse attention:
 * the cache of the `selected_tokens` it attends to (every token, while the
 * context is shorter than that), plus an index entry of
 * `index_bytes_per_token` for every token of the context, which a light
 * scorer reads to choose them. Preconditions: all inputs >= 0. */
double context_sparse_read_bytes(double kv_bytes_per_token,
                                 double index_bytes_per_token,
                                 double selected_tokens,
                                 double context_tokens);

/* The index sparse attention keeps: `index_dim` numbers per token in each of `layers`
 * layers, at bytes_per_element (DeepSeek-V3.2: 61 x 128 x 1 byte in fp8).
 * Preconditions: all inputs >= 0. */
double context_index_bytes_per_token(double layers, double index_dim, double bytes_per_element);

/* ---- Exercise 5.6 (**) pass_length -------------------------------------
 * §5.4 (Output against input price) */

/* Time per NEW token of a forward pass in which each of `batch` sequences,
 * holding `context_tokens` of context, adds `pass_tokens` new tokens (1 in
 * decode, many in prefill). Every new token does its own arithmetic (its
 * attention over the context_tokens before the pass; the new tokens'
 * attention to one another is left out), while the weights and the
 * existing caches are read once per pass, however many tokens ride on it.
 * A pass of one token is exactly context_time_per_token. Preconditions:
 * batch > 0, context_tokens >= 0, pass_tokens >= 1. */
context_token_time context_pass_time_per_token(const context_deploy *d,
                                               double batch,
                                               double context_tokens,
                                               double pass_tokens);

/* The balanced pass length: the number of new tokens per sequence (a real
 * number, not rounded) at which a pass's memory time per token equals its
 * compute time per token. Below 1 when decode itself is compute-bound.
 * Preconditions: batch > 0, context_tokens >= 0. */
double context_crossover_pass_tokens(const context_deploy *d, double batch,
                                     double context_tokens);

/* What an output-over-input price ratio says, read as a cost ratio. */
typedef struct context_price_ratio {
    bool exists;                    /* false for a ratio below 1 */
    double decode_mfu_over_prefill; /* decode MFU over prefill MFU */
    double crossover_pass_tokens;   /* the balanced pass it implies */
} context_price_ratio;

/* Reads a price ratio theta = output price / input price as the roofline
 * does: prefill on the compute floor, decode paying memory, prices
 * following costs. No reading (exists = false, both numbers 0) for
 * theta < 1: on the roofline a decode token never costs less than a
 * prefill token. theta == 1 (equal prices) has a reading.
 * Precondition: output_over_input > 0. */
context_price_ratio context_read_price_ratio(double output_over_input);

/* ---- Exercise 5.7 (**) draft_length -----------------------------------
 * §5.4 (Output against input price) */

/* A speculative-decoding plan: how many tokens to draft ahead. */
typedef struct context_draft_plan {
    int draft_tokens;       /* q: tokens drafted per sequence and step */
    double tokens_per_step; /* expected tokens a sequence gains a step */
    double s_per_token;     /* expected seconds between its tokens */
    double speedup;         /* plain decode's s_per_token over this one */
} context_draft_plan;

/* The draft length q, from 0 to max_draft, that makes speculative decoding
 * fastest here: the q with the least expected time between a sequence's
 * tokens when every sequence of the batch drafts q tokens ahead and this
 * model checks them, as §5.4 (Output against input price) prices it in
 * "How far ahead to draft". A step is the drafting of q tokens per
 * sequence followed by ONE pass of this model in which every sequence of
 * the batch adds q + 1 new tokens (its q guesses and the token after
 * them); a sequence keeps the guesses up to its first rejected one, plus
 * the one token the pass itself produces. s_per_token is the expected
 * time of a step over the expected tokens a sequence keeps. The inputs:
 *   - accept: the chance that a drafted token is accepted, each guess
 *     independently of the others;
 *   - draft_cost: what drafting one token costs, in plain decode steps
 *     (this deployment's step of one new token per sequence, at this
 *     batch and context).
 * q = 0 is plain decode (one token a step, speedup 1). On a tie (times
 * equal within a relative 1e-12) the smaller q wins. accept may be 0 (q = 0
 * is then best) and 1 (every guess is kept). Preconditions:
 * 0 <= accept <= 1, draft_cost >= 0, max_draft >= 0, batch > 0,
 * context_tokens >= 0. */
context_draft_plan context_best_draft(const context_deploy *d, double batch,
                                      double context_tokens, double accept,
                                      double draft_cost, int max_draft);

/* ---- Exercise 5.8 (**) cache_tiers -------------------------------------
 * §5.5 (Cache hits and memory tiers) */

/* The drain time of a device in seconds: how long it takes to read all of
 * it once. Preconditions: both > 0. */
double context_drain_s(double capacity_bytes, double bytes_per_s);

/* USD per byte to hold a cached context on one device of tier `t` for
 * `hold_s` seconds and then read it back once: the byte's share of the
 * device's t->usd_per_hour (which it costs whatever it is used for), shared
 * out as §5.5 (Cache hits and memory tiers) shares it on a device kept
 * full of caches. Precondition: hold_s >= 0. */
double context_tier_usd_per_byte(const cost_tier *t, double hold_s);

/* USD per byte of KV cache to rematerialise a context of `context_tokens`
 * tokens: the cost of the one prefill that rebuilds it, attention's
 * arithmetic included (a token attends only to the tokens before it in
 * the context), on chips rented at `usd_per_chip_hour` that run all of it
 * at their peak F, over the bytes of cache it rebuilds; derived in
 * §5.5 (Cache hits and memory tiers). Preconditions: context_tokens >= 1, kv_bytes_per_token > 0,
 * usd_per_chip_hour > 0. */
double context_remat_usd_per_byte(const context_deploy *d,
                                  double context_tokens,
                                  double usd_per_chip_hour);

/* Where a cached context is cheapest to keep. */
typedef struct context_tier_choice {
    bool remat;          /* recomputing is no dearer than every tier */
    size_t tier;         /* index into tiers[]; 0 when remat */
    double usd_per_byte; /* what the choice costs */
} context_tier_choice;

/* The cheapest of `count` tiers for a hold of `hold_s` seconds, or
 * rematerialisation when `remat_usd_per_byte` is less than or EQUAL to the
 * cheapest tier's cost. Between tiers of equal cost the earlier in tiers[]
 * wins. Preconditions: count >= 1, hold_s >= 0, remat_usd_per_byte > 0
 * (INFINITY when recomputing is not an option). */
context_tier_choice context_cheapest_tier(const cost_tier *const *tiers,
                                          size_t count, double hold_s,
                                          double remat_usd_per_byte);

/* ---- Exercise 5.9 (*) attention_parity ---------------------------------
 * §5.6 (Why context stopped near 200k) */

/* f_attn: the attention FLOPs one new token spends per token of context:
 * in each of `attn_layers` layers, each of `q_heads` query heads scores
 * the cached key (`qk_dim` multiply-accumulates) and adds in the cached
 * value (`v_dim`), counted at 2 FLOPs per multiply-accumulate. For MLA
 * with absorbed projections, qk_dim is the latent width plus the RoPE
 * width, and v_dim the latent width. Preconditions: all inputs >= 0. */
double context_attention_flops_per_context_token(double attn_layers,
                                                 double q_heads,
                                                 double qk_dim,
                                                 double v_dim);

/* L_par: the context at which a token's attention FLOPs equal its weight
 * FLOPs, 2 N_active. Preconditions: both > 0. */
double context_attention_parity_tokens(double params_active,
                                       double attn_flops_per_context_token);

/* The tokens a step would read if, past the kink, they grew as the square root of
 * the context: sqrt(context * kink_tokens) above the kink, the context itself at or
 * below it: the what-if for sparse attention of §5.6 (Why context stopped near
 * 200k). Preconditions: both >= 0. */
double context_sqrt_read_tokens(double context_tokens, double kink_tokens);

/* ---- Exercise 5.10 (***) longest_context --------------------------------
 * §5.6 (Why context stopped near 200k) */

/* The longest context a deployment sells within a speed and a price. */
typedef struct context_reach {
    bool exists;           /* false: not even a context of 1 token is served */
    double context_tokens; /* L: the longest context served, whole tokens */
    double batch;          /* B: the batch that serves it most cheaply, whole */
    double step_s;         /* the decode step at L and B */
    double usd_per_mtok;   /* what a generated token costs at L and B */
} context_reach;

/* The longest context_reach accepts for max_context_tokens. */
#define CONTEXT_REACH_MAX_TOKENS 1e15

/* The longest whole context L, from 1 to max_context_tokens (the model's
 * window), at which d's n chips (d->chips, each holding hbm_bytes_per_chip
 * and rented at usd_per_chip_hour) can decode a batch of B sequences that
 * each hold L tokens of context, B a whole number >= 1 chosen freely for
 * each L, within three limits:
 *   - the weights and the B caches fit in the n chips' HBM together
 *     (context_hbm_bytes);
 *   - a step, the time between two tokens of one sequence (each sequence
 *     gains one token a step), takes at most max_step_s;
 *   - a generated token costs at most max_usd_per_mtok (context_usd_per_mtok
 *     of its time, context_time_per_token's time_s).
 * A limit met exactly counts as met, and so does a value above its limit by
 * at most a relative 1e-9 (a product such as 3 x 0.1 s can land a hair
 * above the 0.3 s it equals). At the longest L, batch is the batch whose
 * token costs least, and among costs equal within a relative 1e-9 the
 * smallest such batch; step_s and usd_per_mtok are its step and cost.
 * No answer (exists false, every number 0) when a context of one token
 * cannot be served within the three limits.
 * Preconditions: every count and rate of d positive, except
 * attn_flops_per_context_token, which may be 0; kv_bytes_per_token,
 * hbm_bytes_per_chip, usd_per_chip_hour, max_step_s and max_usd_per_mtok
 * positive; max_context_tokens from 1 to CONTEXT_REACH_MAX_TOKENS. */
context_reach context_longest_context(const context_deploy *d, double hbm_bytes_per_chip,
                                      double usd_per_chip_hour, double max_step_s,
                                      double max_usd_per_mtok, double max_context_tokens);

/* ---- Exercise 5.11 (*) api_bill -----------------------------------------
 * §5.7 (Price lists as data) */

/* A request's bill, or the reason there is none. */
typedef struct context_bill {
    bool exists;      /* false: the list lacks a price this request needs */
    bool long_tier;   /* the prompt's length picked the long tier */
    double input_usd; /* uncached prompt tokens (input or write price) */
    double cached_usd; /* prompt tokens read from the cache */
    double output_usd; /* generated tokens, thinking included */
    double usd;        /* the sum */
} context_bill;

/* Bills one request of `input_tokens` prompt tokens, of which
 * `cached_tokens` are read from the cache, and `output_tokens` generated
 * tokens, on price list `p` (USD per million tokens; a price of 0 is one
 * the list does not have, never a free one). The rules, in order:
 *   1. the tier: the long tier when the list has one
 *      (long_threshold_tokens > 0) and input_tokens is strictly greater
 *      than long_threshold_tokens; a prompt of exactly the threshold is
 *      short. Output tokens never count towards the threshold. long_tier
 *      reports this choice whether or not a bill exists;
 *   2. the tier's prices apply to EVERY token of the request, input,
 *      cached and output alike, not only to the tokens past the threshold;
 *   3. cached tokens pay the tier's cache-read price;
 *   4. the other prompt tokens pay the tier's input price, or with `write`
 *      the list's 5-minute or 1-hour write price (a write price belongs to
 *      the list, not to a tier: the same at either tier).
 * No bill (exists = false, long_tier set, every USD field 0) when the
 * request needs a price the list lacks:
 *   - cached_tokens > 0 and the tier has no cache-read price;
 *   - output_tokens > 0 and the tier has no output price (no output, no
 *     output price needed);
 *   - without `write`, the tier has no input price (even when every prompt
 *     token is cached: the request asks for that price);
 *   - `write` asks for a write price the list does not have (likewise).
 * Preconditions: 0 <= cached_tokens <= input_tokens, output_tokens >= 0. */
context_bill context_api_usd(const cost_api_price *p, double input_tokens,
                             double output_tokens, double cached_tokens,
                             cost_cache_write write);

/* ---- Exercise 5.12 (***) cache_schedule --------------------------------
 * §5.8 (A conversation's cache bill) */

/* How one request bills the conversation's prefix. */
typedef enum context_cache_action {
    CONTEXT_SEND_UNCACHED = 0, /* input price; any entry left as is */
    CONTEXT_READ_CACHE,        /* read price; the entry's life restarts */
    CONTEXT_WRITE_5M,          /* write price; a new 5-minute entry */
    CONTEXT_WRITE_1H,          /* write price; a new 1-hour entry */
} context_cache_action;

/* Lives of the two cache entries, in seconds (Anthropic's 5-minute and
 * 1-hour caches). */
#define CONTEXT_CACHE_5M_S 300.0
#define CONTEXT_CACHE_1H_S 3600.0

/* The most requests context_cheapest_cache_schedule takes. */
#define CONTEXT_SCHEDULE_MAX_REQUESTS 256

/* The least a conversation can pay for a prefix of `prefix_tokens` that
 * its `count` requests each send again, at times request_times_s[0..count)
 * in seconds, on price list `p`; the chosen action for each request is
 * written to actions[0..count). Only the prefix is billed: each action
 * costs what context_api_usd charges for a request of prefix_tokens input
 * tokens and no output (READ: all of them cached; WRITE: written with that
 * life), and an action whose price the list lacks is not available. The
 * rules of the cache:
 *   - there is at most one entry; none before the first request;
 *   - an entry written or last read at time t, with life T, can be read at
 *     time u when u - t <= T (an entry exactly T old is still live);
 *     reading it makes u its new start; after that it is gone;
 *   - a write replaces any entry; sending uncached leaves it as it is.
 * There is always an answer: sending every request uncached is a schedule.
 * Ties: of the schedules whose totals are within a relative 1e-9 of the
 * LEAST total (at most least x (1 + 1e-9)), the one chosen comes first
 * when schedules are compared request by request in the order
 * UNCACHED < READ < WRITE_5M < WRITE_1H (the first request at which they
 * differ decides). The value returned is the least total itself, in USD,
 * not the chosen schedule's (which is within that 1e-9 of it).
 * Preconditions: 1 <= count <= CONTEXT_SCHEDULE_MAX_REQUESTS, times not
 * decreasing, prefix_tokens > 0, the list has an input price. */
double context_cheapest_cache_schedule(const cost_api_price *p,
                                       double prefix_tokens,
                                       const double *request_times_s,
                                       size_t count,
                                       context_cache_action *actions);

/* ---- Exercise 5.13 (**) price_window ------------------------------------
 * §5.7 (Price lists as data), on the model of §5.1 (The roofline against context) */

/* The longest window a price list sells without a loss. */
typedef struct context_window {
    bool exists;           /* false: not even a prompt of 1 token is covered */
    double context_tokens; /* the window: whole tokens; 0 when !exists */
    bool long_tier;        /* a prompt of the window's length is billed at the long tier */
} context_window;

/* The longest context_price_window accepts for max_context_tokens. */
#define CONTEXT_WINDOW_MAX_TOKENS 1e15

/* The longest window, in whole tokens from 1 to max_context_tokens, that price list
 * `p` sells on deployment d, run at `batch` sequences on chips rented at
 * usd_per_chip_hour (USD per chip-hour) each, without a loss on any prompt: the
 * largest L such that, for EVERY prompt length P from 1 to L tokens, the first token
 * generated after a prompt of P tokens is paid for, i.e. what p charges for that
 * token is at least what serving it on d at this batch costs.
 *   - The charge is what the rules of §5.7 (Price lists as data) bill for that one
 *     generated token, at the tier a prompt of P tokens picks (the prompt decides the
 *     tier; the token does not count towards the threshold). Only the tier's output
 *     price is needed: the prompt is not part of this charge, so the tier's input and
 *     cache-read prices and the list's write prices are not read, and a tier with an
 *     output price but an input price of 0 bills the token (context_api_usd, which
 *     bills the prompt too, would not). A price of 0 is one the list lacks: a prompt
 *     whose tier has no output price is not covered.
 *   - The cost is the rent of all of d's chips, each at usd_per_chip_hour, for the
 *     time serving that token takes, under the model of §5.1 (The roofline against
 *     context).
 *     HBM's capacity is not a limit here (longest_context's is).
 * A cost equal to the charge is covered, and so is one above it by at most a
 * relative 1e-9 (charge x (1 + 1e-9)). No window (exists false, 0, long_tier false)
 * when a prompt of 1 token is not covered. When every prompt up to
 * max_context_tokens is covered, the window is max_context_tokens (its floor).
 * Preconditions: batch > 0; usd_per_chip_hour > 0; every count and rate of d
 * positive, except attn_flops_per_context_token, which may be 0; the list's
 * long_threshold_tokens 0 (one tier) or a whole number >= 1; max_context_tokens
 * from 1 to CONTEXT_WINDOW_MAX_TOKENS. */
context_window context_price_window(const context_deploy *d, double batch,
                                    double usd_per_chip_hour, const cost_api_price *p,
                                    double max_context_tokens);

#endif /* CHALK_CONTEXT_H */
