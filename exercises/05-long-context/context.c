/*
 * context.c -- Chapter 5 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests run and
 * fail. Replace each body with the formula from chapters/05-long-context.md; the
 * contract (units, preconditions, what "no answer" looks like) is in context.h
 * beside this file.
 *
 *   make check CH=05     run the chapter's tests against this file
 *   make hint CH=05      show the next hint for the first failing exercise
 */
#include "context.h"

#include <math.h>

/* ---- Exercise 5.1 (*) context_roofline --------------------------------------- */

context_token_time context_time_per_token(const context_deploy *d, double batch,
                                          double context_tokens)
{
    /* TODO(ch5 §5.1): chapter 1's step divided by the batch; fill every field. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    context_token_time t = {0};
    return t;
}

context_kink context_kink_tokens(const context_deploy *d, double batch)
{
    /* TODO(ch5 §5.1): where the memory line (weights / batch + KV) meets compute. */
    (void)d;
    (void)batch;
    context_kink k = {0};
    return k;
}

double context_hbm_bytes(const context_deploy *d, double batch, double context_tokens)
{
    /* TODO(ch5 §5.1): the weights, and every sequence's cache. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

double context_usd_per_mtok(int chips, double usd_per_chip_hour, double time_per_token_s)
{
    /* TODO(ch5 §5.1): the chips' rent for a token's time, per million tokens. */
    (void)chips;
    (void)usd_per_chip_hour;
    (void)time_per_token_s;
    return 0.0;
}

/* ---- Exercise 5.2 (**) kv_from_price ----------------------------------------- */

double context_kv_bytes_from_crossover(double params_active, double crossover_tokens,
                                       double flops_per_s, double hbm_bytes_per_s)
{
    /* TODO(ch5 §5.2): one token's KV fetch at L tokens takes as long as its math. */
    (void)params_active;
    (void)crossover_tokens;
    (void)flops_per_s;
    (void)hbm_bytes_per_s;
    return 0.0;
}

double context_kv_bytes_from_ratio(double hw_ratio, double bytes_per_weight,
                                   double params_active, double crossover_tokens)
{
    /* TODO(ch5 §5.2): the ratio counts multiplies per WEIGHT, not per byte. */
    (void)hw_ratio;
    (void)bytes_per_weight;
    (void)params_active;
    (void)crossover_tokens;
    return 0.0;
}

/* ---- Exercise 5.3 (*) kv_shape ----------------------------------------------- */

double context_kv_bytes_per_token(double kv_contexts, double kv_heads, double head_dim,
                                  double bytes_per_element)
{
    /* TODO(ch5 §5.3): every layer with its own KV keeps a key AND a value per head. */
    (void)kv_contexts;
    (void)kv_heads;
    (void)head_dim;
    (void)bytes_per_element;
    return 0.0;
}

double context_mla_kv_bytes_per_token(double layers, double latent_dim, double rope_dim,
                                      double bytes_per_element)
{
    /* TODO(ch5 §5.3): one latent (plus its RoPE key) per token and layer. */
    (void)layers;
    (void)latent_dim;
    (void)rope_dim;
    (void)bytes_per_element;
    return 0.0;
}

/* ---- Exercise 5.4 (**) windows_sparse ---------------------------------------- */

double context_window_kv_bytes(double global_layers, double local_layers,
                               double window_tokens, double kv_bytes_per_layer_token,
                               double context_tokens)
{
    /* TODO(ch5 §5.3): a local layer keeps at most its window of tokens. */
    (void)global_layers;
    (void)local_layers;
    (void)window_tokens;
    (void)kv_bytes_per_layer_token;
    (void)context_tokens;
    return 0.0;
}

double context_sparse_read_bytes(double kv_bytes_per_token, double index_bytes_per_token,
                                 double selected_tokens, double context_tokens)
{
    /* TODO(ch5 §5.3): the selected tokens' KV, plus the index over every token. */
    (void)kv_bytes_per_token;
    (void)index_bytes_per_token;
    (void)selected_tokens;
    (void)context_tokens;
    return 0.0;
}

double context_index_bytes_per_token(double layers, double index_dim, double bytes_per_element)
{
    /* TODO(ch5 §5.3): one index entry per token in every layer. */
    (void)layers;
    (void)index_dim;
    (void)bytes_per_element;
    return 0.0;
}

double context_sqrt_read_tokens(double context_tokens, double kink_tokens)
{
    /* TODO(ch5 §5.3): the context up to the kink, the square root's growth past it. */
    (void)context_tokens;
    (void)kink_tokens;
    return 0.0;
}

/* ---- Exercise 5.5 (**) pass_length ------------------------------------------- */

context_token_time context_pass_time_per_token(const context_deploy *d, double batch,
                                               double context_tokens, double pass_tokens)
{
    /* TODO(ch5 §5.4): compute per new token; memory once per pass, shared by its tokens. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    (void)pass_tokens;
    context_token_time t = {0};
    return t;
}

double context_crossover_pass_tokens(const context_deploy *d, double batch,
                                     double context_tokens)
{
    /* TODO(ch5 §5.4): how many tokens must share one pass's memory traffic? */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

context_price_ratio context_read_price_ratio(double output_over_input)
{
    /* TODO(ch5 §5.4): read the price ratio as memory time over compute time. */
    (void)output_over_input;
    context_price_ratio r = {0};
    return r;
}

/* ---- Exercise 5.6 (***) cache_tiers ------------------------------------------ */

double context_drain_s(double capacity_bytes, double bytes_per_s)
{
    /* TODO(ch5 §5.5): the time to read the whole device once. */
    (void)capacity_bytes;
    (void)bytes_per_s;
    return 0.0;
}

double context_tier_usd_per_byte(const cost_tier *t, double hold_s)
{
    /* TODO(ch5 §5.5): a byte pays for its larger share: capacity or bandwidth. */
    (void)t;
    (void)hold_s;
    return 0.0;
}

context_tier_choice context_cheapest_tier(const cost_tier *const *tiers, size_t count,
                                          double hold_s, double remat_usd_per_byte)
{
    /* TODO(ch5 §5.5): the cheapest tier, unless recomputing is no dearer. */
    (void)tiers;
    (void)count;
    (void)hold_s;
    (void)remat_usd_per_byte;
    context_tier_choice c = {0};
    return c;
}

/* ---- Exercise 5.7 (**) attention_parity -------------------------------------- */

double context_attention_flops_per_context_token(double attn_layers, double q_heads,
                                                 double qk_dim, double v_dim)
{
    /* TODO(ch5 §5.6): two products per head per cached token, 2 FLOPs per MAC. */
    (void)attn_layers;
    (void)q_heads;
    (void)qk_dim;
    (void)v_dim;
    return 0.0;
}

double context_attention_parity_tokens(double params_active,
                                       double attn_flops_per_context_token)
{
    /* TODO(ch5 §5.6): when do attention FLOPs reach the weights' 2 N_active? */
    (void)params_active;
    (void)attn_flops_per_context_token;
    return 0.0;
}

/* ---- Exercise 5.8 (**) api_bill ---------------------------------------------- */

context_bill context_api_usd(const cost_api_price *p, double input_tokens,
                             double output_tokens, double cached_tokens,
                             cost_cache_write write)
{
    /* TODO(ch5 §5.7): pick the tier by the prompt, then price each kind of token. */
    (void)p;
    (void)input_tokens;
    (void)output_tokens;
    (void)cached_tokens;
    (void)write;
    context_bill b = {0};
    return b;
}

double context_remat_usd_per_byte(double params_active, double flops_per_s,
                                  double usd_per_chip_hour, double kv_bytes_per_token)
{
    /* TODO(ch5 §5.5): a token's arithmetic at the chip's rent, over its cache bytes. */
    (void)params_active;
    (void)flops_per_s;
    (void)usd_per_chip_hour;
    (void)kv_bytes_per_token;
    return 0.0;
}
