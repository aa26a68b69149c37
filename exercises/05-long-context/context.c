/*
 * context.c -- Chapter 5 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests run
 * and fail. Replace each body with what the contract in context.h beside
 * this file asks for (units, preconditions, what "no answer" looks like);
 * the section named in each TODO derives it.
 *
 *   make check CH=05     run the chapter's tests against this file
 *   make hint CH=05      show the next hint for the first failing exercise
 */
#include "context.h"

#include <math.h>
#include <stdlib.h>

/* ---- Exercise 5.1 (*) context_roofline ------------------------------- */

context_token_time context_time_per_token(const context_deploy *d,
                                          double batch,
                                          double context_tokens)
{
    /* TODO §5.1 (The roofline against context): chapter 1's step divided
     * by the batch; fill every field. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    context_token_time t = {0};
    return t;
}

double context_hbm_bytes(const context_deploy *d, double batch, double context_tokens)
{
    /* TODO §5.1 (The roofline against context): the weights, and every sequence's cache. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

double context_usd_per_mtok(int chips, double usd_per_chip_hour, double time_per_token_s)
{
    /* TODO §1.4 (Cost against batch): the chips' rent for a token's time, per million tokens. */
    (void)chips;
    (void)usd_per_chip_hour;
    (void)time_per_token_s;
    return 0.0;
}

/* ---- Exercise 5.2 (**) context_kink ---------------------------------- */

context_kink context_kink_tokens(const context_deploy *d, double batch)
{
    /* TODO §5.1 (The roofline against context): two straight lines in the
     * context; where do they cross, and when do they not? */
    (void)d;
    (void)batch;
    context_kink k = {0};
    return k;
}

/* ---- Exercise 5.3 (*) kv_from_price --------------------------------- */

double context_kv_bytes_from_crossover(double params_active,
                                       double crossover_tokens,
                                       double flops_per_s,
                                       double hbm_bytes_per_s)
{
    /* TODO §5.2 (Solving for the bytes per token): run the kink
     * backwards. */
    (void)params_active;
    (void)crossover_tokens;
    (void)flops_per_s;
    (void)hbm_bytes_per_s;
    return 0.0;
}

double context_kv_bytes_from_ratio(double hw_ratio, double bytes_per_weight,
                                   double params_active,
                                   double crossover_tokens)
{
    /* TODO §5.2 (Solving for the bytes per token): the ratio counts
     * multiplies per WEIGHT, not per byte. */
    (void)hw_ratio;
    (void)bytes_per_weight;
    (void)params_active;
    (void)crossover_tokens;
    return 0.0;
}

/* ---- Exercise 5.4 (*) kv_shape --------------------------------------- */

double context_kv_bytes_per_token(double kv_contexts, double kv_heads,
                                  double head_dim, double bytes_per_element)
{
    /* TODO §5.3 (Is 833 bytes a plausible cache?): every layer with its
     * own cache keeps a key AND a value per head. */
    (void)kv_contexts;
    (void)kv_heads;
    (void)head_dim;
    (void)bytes_per_element;
    return 0.0;
}

double context_mla_kv_bytes_per_token(double layers, double latent_dim,
                                      double rope_dim,
                                      double bytes_per_element)
{
    /* TODO §5.3 (Is 833 bytes a plausible cache?): one latent (plus its
     * RoPE key) per token and layer. */
    (void)layers;
    (void)latent_dim;
    (void)rope_dim;
    (void)bytes_per_element;
    return 0.0;
}

/* ---- Exercise 5.5 (*) windows_sparse --------------------------------- */

double context_window_kv_bytes(double global_layers, double local_layers,
                               double window_tokens,
                               double kv_bytes_per_layer_token,
                               double context_tokens)
{
    /* TODO §5.3 (Is 833 bytes a plausible cache?): a local layer keeps at
     * most its window of tokens. */
    (void)global_layers;
    (void)local_layers;
    (void)window_tokens;
    (void)kv_bytes_per_layer_token;
    (void)context_tokens;
    return 0.0;
}

double context_sparse_read_bytes(double kv_bytes_per_token,
                                 double index_bytes_per_token,
                                 double selected_tokens,
                                 double context_tokens)
{
    /* TODO §5.3 (Is 833 bytes a plausible cache?): the selected tokens'
     * cache, plus the index over every token. */
    (void)kv_bytes_per_token;
    (void)index_bytes_per_token;
    (void)selected_tokens;
    (void)context_tokens;
    return 0.0;
}

double context_index_bytes_per_token(double layers, double index_dim, double bytes_per_element)
{
    /* TODO §5.3 (Is 833 bytes a plausible cache?): one index entry per token in every layer. */
    (void)layers;
    (void)index_dim;
    (void)bytes_per_element;
    return 0.0;
}

/* ---- Exercise 5.6 (**) pass_length ----------------------------------- */

context_token_time context_pass_time_per_token(const context_deploy *d,
                                               double batch,
                                               double context_tokens,
                                               double pass_tokens)
{
    /* TODO §5.4 (Output against input price): what grows with the pass,
     * and what is paid once per pass? */
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
    /* TODO §5.4 (Output against input price): how many tokens must share
     * one pass's memory traffic? */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

context_price_ratio context_read_price_ratio(double output_over_input)
{
    /* TODO §5.4 (Output against input price): a price ratio read as a
     * ratio of times. */
    (void)output_over_input;
    context_price_ratio r = {0};
    return r;
}

/* ---- Exercise 5.7 (**) draft_length --------------------------------- */

context_draft_plan context_best_draft(const context_deploy *d, double batch,
                                      double context_tokens, double accept,
                                      double draft_cost, int max_draft)
{
    /* TODO §5.4 (Output against input price): what a step costs and what
     * it yields, for each draft length. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    (void)accept;
    (void)draft_cost;
    (void)max_draft;
    context_draft_plan plan = {0};
    return plan;
}

/* ---- Exercise 5.8 (**) cache_tiers ----------------------------------- */

double context_drain_s(double capacity_bytes, double bytes_per_s)
{
    /* TODO §5.5 (Cache hits and memory tiers): the time to read the whole
     * device once. */
    (void)capacity_bytes;
    (void)bytes_per_s;
    return 0.0;
}

double context_tier_usd_per_byte(const cost_tier *t, double hold_s)
{
    /* TODO §5.5 (Cache hits and memory tiers): what holding a byte for hold_s
     * and reading it back once costs, in USD, as that section prices it. */
    (void)t;
    (void)hold_s;
    return 0.0;
}

double context_remat_usd_per_byte(const context_deploy *d,
                                  double context_tokens,
                                  double usd_per_chip_hour)
{
    /* TODO §5.5 (Cache hits and memory tiers): the prefill that rebuilds
     * the context, token by token. */
    (void)d;
    (void)context_tokens;
    (void)usd_per_chip_hour;
    return 0.0;
}

context_tier_choice context_cheapest_tier(const cost_tier *const *tiers,
                                          size_t count, double hold_s,
                                          double remat_usd_per_byte)
{
    /* TODO §5.5 (Cache hits and memory tiers): the cheapest tier, unless
     * recomputing is no dearer. */
    (void)tiers;
    (void)count;
    (void)hold_s;
    (void)remat_usd_per_byte;
    context_tier_choice c = {0};
    return c;
}

/* ---- Exercise 5.9 (*) attention_parity ------------------------------- */

double context_attention_flops_per_context_token(double attn_layers,
                                                 double q_heads,
                                                 double qk_dim,
                                                 double v_dim)
{
    /* TODO §5.6 (Why context stopped near 200k): two products per head per
     * cached token, 2 FLOPs per multiply-accumulate. */
    (void)attn_layers;
    (void)q_heads;
    (void)qk_dim;
    (void)v_dim;
    return 0.0;
}

double context_attention_parity_tokens(double params_active,
                                       double attn_flops_per_context_token)
{
    /* TODO §5.6 (Why context stopped near 200k): when do attention FLOPs
     * reach the weights'? */
    (void)params_active;
    (void)attn_flops_per_context_token;
    return 0.0;
}

double context_sqrt_read_tokens(double context_tokens, double kink_tokens)
{
    /* TODO §5.6 (Why context stopped near 200k): the context up to the kink, the square root's growth past it. */
    (void)context_tokens;
    (void)kink_tokens;
    return 0.0;
}

/* ---- Exercise 5.10 (***) longest_context --------------------------- */

context_reach context_longest_context(const context_deploy *d, double hbm_bytes_per_chip,
                                      double usd_per_chip_hour, double max_step_s,
                                      double max_usd_per_mtok, double max_context_tokens)
{
    /* TODO §5.6 (Why context stopped near 200k): at one context, which batch
     * is cheapest, and what bounds it? Then, how do the answers change as
     * the context grows? */
    (void)d;
    (void)hbm_bytes_per_chip;
    (void)usd_per_chip_hour;
    (void)max_step_s;
    (void)max_usd_per_mtok;
    (void)max_context_tokens;
    context_reach reach = {0};
    return reach;
}

/* ---- Exercise 5.11 (*) api_bill ------------------------------------- */

context_bill context_api_usd(const cost_api_price *p, double input_tokens,
                             double output_tokens, double cached_tokens,
                             cost_cache_write write)
{
    /* TODO §5.7 (Price lists as data): pick the tier by the prompt, then
     * price each kind of token. */
    (void)p;
    (void)input_tokens;
    (void)output_tokens;
    (void)cached_tokens;
    (void)write;
    context_bill b = {0};
    return b;
}

/* ---- Exercise 5.12 (***) cache_schedule ---------------------------- */

double context_cheapest_cache_schedule(const cost_api_price *p,
                                       double prefix_tokens,
                                       const double *request_times_s,
                                       size_t count,
                                       context_cache_action *actions)
{
    /* TODO §5.8 (A conversation's cache bill): what must you know about
     * the cache before each request, and what does each choice leave? */
    (void)p;
    (void)prefix_tokens;
    (void)request_times_s;
    (void)count;
    (void)actions;
    return 0.0;
}


/* ---- Exercise 5.13 (**) price_window -------------------------------- */

context_window context_price_window(const context_deploy *d, double batch,
                                    double usd_per_chip_hour, const cost_api_price *p,
                                    double max_context_tokens)
{
    /* TODO §5.7 (Price lists as data) with §5.1 (The roofline against context):
     * which price pays for that token, and how does its cost move as the prompt
     * grows? Where can a covered prompt follow one that is not? */
    (void)d;
    (void)batch;
    (void)usd_per_chip_hour;
    (void)p;
    (void)max_context_tokens;
    context_window w = {0};
    return w;
}
