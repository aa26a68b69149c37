/*
 * context.h -- Chapter 5: long context, and reading a model's memory costs off its
 * API prices.
 *
 * The contract for chapter 5. You implement these functions in
 * exercises/05-long-context/context.c; the tests in tests/05-long-context/ check them,
 * and the reference in solutions/05-long-context/context.c is what the book's numbers
 * come from. Read chapters/05-long-context.md alongside.
 *
 * The model (lecture section 6) is chapter 1's roofline, seen along the context
 * length L instead of the batch. On `chips` chips sharing a step of `batch` sequences,
 * each with L tokens of context,
 *
 *   compute_s = batch * 2 * N_active                   / (chips * flops_per_s)
 *   memory_s  = (N_total * bytes_per_param + batch * L * kv_bytes) / (chips * BW)
 *
 * and a step takes max(compute_s, memory_s). Divided by the batch, compute is flat in
 * L and memory rises linearly: the kink where they meet is where a provider's price
 * steps up. FLOPs are 2 per multiply-accumulate (spec sheets count them so), and
 * every parameter or cached element is multiplied by its bytes. All quantities are SI
 * doubles: seconds, bytes, FLOP/s, bytes/s, USD; token counts are doubles too.
 */
#ifndef CHALK_CONTEXT_H
#define CHALK_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "cost.h"

/* One model served on one scale-up domain. Per-chip figures are per chip. */
typedef struct context_deploy {
    double params_total;       /* N_total: all weights, fetched every step */
    double params_active;      /* N_active: weights one token multiplies through */
    double bytes_per_param;    /* 2 for bf16, 1 for fp8, 0.5 for fp4 */
    double kv_bytes_per_token; /* b_kv: KV cache per token of context, all layers */
    int chips;                 /* chips sharing the work */
    double flops_per_s;        /* per chip, at the precision of the math */
    double hbm_bytes_per_s;    /* per chip */
} context_deploy;

/* ---- Exercise 5.1 (*) context_roofline: cost per token against context -- §5.1 */

/* One token's share of a step: the step divided by the batch. */
typedef struct context_token_time {
    double compute_s; /* 2 N_active / (chips F): flat in the context */
    double memory_s;  /* (N_total bytes / batch + L b_kv) / (chips BW) */
    double time_s;    /* max(compute_s, memory_s) */
    cost_bound bound; /* COST_BOUND_COMPUTE when compute_s >= memory_s */
} context_token_time;

/* Time per generated token at this batch and context, the roofline of a decode step
 * divided by the batch. Preconditions: batch > 0, context_tokens >= 0. */
context_token_time context_time_per_token(const context_deploy *d, double batch,
                                          double context_tokens);

/* The context where the memory line meets the compute line: the kink. */
typedef struct context_kink {
    bool exists;   /* false when the weights alone keep memory above compute */
    double tokens; /* L where memory_s == compute_s per token; 0 when !exists */
} context_kink;

/* Solves  (N_total bytes / batch + L b_kv) / BW = 2 N_active / F  for L. It exists
 * only when the batch is past chapter 1's balance batch without KV (the weight
 * fetch shared by the batch is already below compute); as the batch grows it tends
 * to 2 N_active BW / (F b_kv). Preconditions: batch > 0, kv_bytes_per_token > 0. */
context_kink context_kink_tokens(const context_deploy *d, double batch);

/* Bytes in the chips' HBM at this batch and context: every weight, and `batch`
 * caches of `context_tokens` tokens. Preconditions: batch >= 0, context_tokens >= 0. */
double context_hbm_bytes(const context_deploy *d, double batch, double context_tokens);

/* What a token costs, USD per million tokens, when it takes `time_per_token_s` of
 * `chips` chips rented at usd_per_chip_hour each:
 *     chips * usd_per_chip_hour * time_per_token_s / 3600 * 1e6.
 * Preconditions: all >= 0. */
double context_usd_per_mtok(int chips, double usd_per_chip_hour, double time_per_token_s);

/* ---- Exercise 5.2 (**) kv_from_price: the price step read as a crossover - §5.2 */

/* KV bytes per token that put the compute/KV crossover at `crossover_tokens`, with
 * the weight fetch negligible (a large batch):
 *     b_kv = (hbm_bytes_per_s / flops_per_s) * 2 * N_active / L.
 * flops_per_s counts 2 FLOPs per multiply-accumulate. Preconditions: all > 0. */
double context_kv_bytes_from_crossover(double params_active, double crossover_tokens,
                                       double flops_per_s, double hbm_bytes_per_s);

/* The same from chapter 1's hardware ratio r = (F / 2) * bytes_per_weight / BW (the
 * lecture's "~300": multiplies per weight fetched), which hides bytes per weight:
 *     b_kv = bytes_per_weight * N_active / (r * L).
 * Preconditions: all > 0. */
double context_kv_bytes_from_ratio(double hw_ratio, double bytes_per_weight,
                                   double params_active, double crossover_tokens);

/* ---- Exercise 5.3 (*) kv_shape: KV bytes per token from the shape ------ §5.3 */

/* Bytes of K and V one token leaves in the cache, summed over the layers that keep
 * their own KV (`kv_contexts`; fewer than the layers when layers share a cache):
 *     kv_contexts * 2 * kv_heads * head_dim * bytes_per_element.
 * The 2 is K and V. Multi-head attention has kv_heads = query heads, grouped-query
 * fewer, multi-query 1. Preconditions: all inputs >= 0. */
double context_kv_bytes_per_token(double kv_contexts, double kv_heads, double head_dim,
                                  double bytes_per_element);

/* DeepSeek's multi-head latent attention caches ONE latent vector per token and
 * layer, from which K and V are both rebuilt, plus a small decoupled RoPE key:
 *     layers * (latent_dim + rope_dim) * bytes_per_element    (no factor 2).
 * Preconditions: all inputs >= 0. */
double context_mla_kv_bytes_per_token(double layers, double latent_dim, double rope_dim,
                                      double bytes_per_element);

/* ---- Exercise 5.4 (**) windows_sparse: local layers and sparse reads ----- §5.3 */

/* KV bytes one sequence of `context_tokens` holds when `global_layers` attend to the
 * whole context and `local_layers` to a sliding window of `window_tokens` only (they
 * keep at most that many tokens of KV). `kv_bytes_per_layer_token` is one layer's KV
 * for one token. Preconditions: all inputs >= 0. */
double context_window_kv_bytes(double global_layers, double local_layers,
                               double window_tokens, double kv_bytes_per_layer_token,
                               double context_tokens);

/* Bytes one decode step reads for one sequence under sparse attention: the KV of the
 * `selected_tokens` it attends to (all of them, if the context is shorter), plus a
 * small index entry (`index_bytes_per_token`) for every token of the context, which a
 * light scorer reads to choose them. Preconditions: all inputs >= 0. */
double context_sparse_read_bytes(double kv_bytes_per_token, double index_bytes_per_token,
                                 double selected_tokens, double context_tokens);

/* The index sparse attention keeps: `index_dim` numbers per token in each of `layers`
 * layers, at bytes_per_element (DeepSeek-V3.2: 61 x 128 x 1 byte in fp8).
 * Preconditions: all inputs >= 0. */
double context_index_bytes_per_token(double layers, double index_dim, double bytes_per_element);

/* The tokens a step would read if, past the kink, they grew as the square root of
 * the context: sqrt(context * kink_tokens) above the kink, the context itself at or
 * below it (the book's what-if for sparse attention). Preconditions: both >= 0. */
double context_sqrt_read_tokens(double context_tokens, double kink_tokens);

/* ---- Exercise 5.5 (**) pass_length: output against input price ----------- §5.4 */

/* A pass of `pass_tokens` new tokens per sequence (1 for decode, many for prefill)
 * computes on every new token but reads the weights and the existing KV once. Per
 * new token:
 *   compute_s = 2 N_active / (chips F)
 *   memory_s  = (N_total bytes / batch + L b_kv) / (chips BW * pass_tokens).
 * Preconditions: batch > 0, context_tokens >= 0, pass_tokens >= 1. */
context_token_time context_pass_time_per_token(const context_deploy *d, double batch,
                                               double context_tokens, double pass_tokens);

/* The pass length at which a pass stops being memory-bound: memory_s of a one-token
 * pass over compute_s. Below 1 the decode step itself is compute-bound. */
double context_crossover_pass_tokens(const context_deploy *d, double batch,
                                     double context_tokens);

/* What an output-over-input price ratio says, read as a cost ratio. */
typedef struct context_price_ratio {
    bool exists;                    /* false for a ratio below 1 (see below) */
    double decode_mfu_over_prefill; /* 1 / ratio */
    double crossover_pass_tokens;   /* the pass length where the two meet: ratio */
} context_price_ratio;

/* If prefill sits on the compute floor and decode pays memory, a decode token costs
 * `output_over_input` times a prefill token, so decode's arithmetic is busy 1/ratio
 * of the time prefill's is, and a pass of `ratio` tokens would be balanced. No
 * answer for a ratio below 1: on the roofline a decode token never costs less than a
 * prefill token. Precondition: output_over_input > 0. */
context_price_ratio context_read_price_ratio(double output_over_input);

/* ---- Exercise 5.6 (***) cache_tiers: where to keep a cached context ------ §5.5 */

/* The drain time of a device: seconds to read all of it once, capacity / bandwidth.
 * Preconditions: both > 0. */
double context_drain_s(double capacity_bytes, double bytes_per_s);

/* USD per byte to hold a cached context on tier `t` for `hold_s` seconds and read it
 * back once. The device's cost buys capacity and bandwidth together, so a byte pays
 * for whichever share it uses more of:
 *     (usd_per_hour / 3600) * max(hold_s / capacity_bytes, 1 / bytes_per_s).
 * The two meet at hold_s = the drain time. Precondition: hold_s >= 0. */
double context_tier_usd_per_byte(const cost_tier *t, double hold_s);

/* Where a cached context is cheapest to keep. */
typedef struct context_tier_choice {
    bool remat;          /* recomputing beats every tier */
    size_t tier;         /* index into the tiers given; unused when remat */
    double usd_per_byte; /* the cost of the choice */
} context_tier_choice;

/* The cheapest of `count` tiers for a hold of `hold_s` seconds, or rematerialisation
 * (recomputing the KV from the tokens) when that costs `remat_usd_per_byte` or less
 * than every tier. On a tie the earlier tier wins. Preconditions: count >= 1,
 * hold_s >= 0, remat_usd_per_byte > 0. */
context_tier_choice context_cheapest_tier(const cost_tier *const *tiers, size_t count,
                                          double hold_s, double remat_usd_per_byte);

/* USD per byte of cache to recompute it instead (rematerialisation, lecture 6.5): a
 * token's arithmetic, 2 N_active FLOPs, on a chip of flops_per_s rented at
 * usd_per_chip_hour, over the kv_bytes_per_token it rebuilds:
 *     (2 N_active / flops_per_s) * usd_per_chip_hour / 3600 / kv_bytes_per_token.
 * Preconditions: all > 0. */
double context_remat_usd_per_byte(double params_active, double flops_per_s,
                                  double usd_per_chip_hour, double kv_bytes_per_token);

/* ---- Exercise 5.7 (**) attention_parity: the quadratic term ------------- §5.6 */

/* Attention FLOPs one new token spends per token of context: in each of `attn_layers`
 * layers, each of `q_heads` query heads takes a dot product with every cached key
 * (`qk_dim` multiply-accumulates) and adds up every cached value (`v_dim`):
 *     2 * attn_layers * q_heads * (qk_dim + v_dim)     FLOPs per context token.
 * For MLA with absorbed projections, qk_dim = latent + RoPE and v_dim = latent.
 * Preconditions: all inputs >= 0. */
double context_attention_flops_per_context_token(double attn_layers, double q_heads,
                                                 double qk_dim, double v_dim);

/* The context at which attention's FLOPs per token equal the weight multiplies',
 * 2 N_active. Preconditions: both > 0. */
double context_attention_parity_tokens(double params_active,
                                       double attn_flops_per_context_token);

/* ---- Exercise 5.8 (**) api_bill: what a request costs -------------------- §5.7 */

/* A request's bill, or the reason there is none. */
typedef struct context_bill {
    bool exists;        /* false when the price list has no price for what was asked */
    bool long_tier;     /* the prompt was billed at the long-prompt tier */
    double input_usd;   /* uncached prompt tokens, at the input or cache-write price */
    double cached_usd;  /* prompt tokens read from the cache */
    double output_usd;  /* generated tokens */
    double usd;         /* the sum; 0 when !exists */
} context_bill;

/* Bills one request of `input_tokens` prompt tokens (of which `cached_tokens` are
 * read from the cache) and `output_tokens` generated tokens:
 *   - the tier is chosen by the whole prompt length: longer than the threshold bills
 *     EVERY token, input and output, at the long tier;
 *   - cached tokens pay the tier's cache-read price;
 *   - the uncached rest pays the input price, or with `write` the 5-minute or 1-hour
 *     cache-write price.
 * No answer (exists = false) when cached_tokens > 0 and the tier has no cache-read
 * price, or `write` asks for a write price the list does not have.
 * Preconditions: 0 <= cached_tokens <= input_tokens, output_tokens >= 0. */
context_bill context_api_usd(const cost_api_price *p, double input_tokens,
                             double output_tokens, double cached_tokens,
                             cost_cache_write write);

#endif /* CHALK_CONTEXT_H */
