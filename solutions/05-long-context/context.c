/*
 * context.c -- Chapter 5 reference solution: long context, KV bytes read
 * off prices, cache tiers, speculative decoding, cache schedules.
 *
 * Contract: exercises/05-long-context/context.h. The closed forms are
 * short; the care goes into units (bytes per weight, 2 FLOPs per
 * multiply-accumulate), into saying plainly when there is no answer, and
 * into the tie rules of the two searches.
 */
#include "context.h"

#include <math.h>
#include <stdlib.h>

/* ---- Exercise 5.1 ---------------------------------------------------- */

/* region: per-token */
/* FLOPs of one new token at this context: the weights and its attention
 * over every cached token. */
static double token_flops(const context_deploy *d, double context_tokens)
{
    double weight_flops = COST_FLOPS_PER_MAC * d->params_active;
    double attn_flops = context_tokens * d->attn_flops_per_context_token;
    return weight_flops + attn_flops;
}

/* Seconds of arithmetic per new token, on all chips together. */
static double compute_per_token_s(const context_deploy *d,
                                  double context_tokens)
{
    return token_flops(d, context_tokens) / (d->chips * d->flops_per_s);
}

/* Seconds of memory traffic per sequence for one pass: its share of the
 * weights, which the batch shares, and its own KV cache. */
static double memory_per_sequence_s(const context_deploy *d, double batch,
                                    double context_tokens)
{
    double weight_bytes = d->params_total * d->bytes_per_param / batch;
    double kv_bytes = context_tokens * d->kv_bytes_per_token;
    return (weight_bytes + kv_bytes) / (d->chips * d->hbm_bytes_per_s);
}

static context_token_time token_time(double compute_s, double memory_s)
{
    context_token_time t;
    t.compute_s = compute_s;
    t.memory_s = memory_s;
    t.time_s = fmax(compute_s, memory_s);
    t.bound = cost_bound_of(compute_s, memory_s);
    return t;
}
/* endregion: per-token */

/* region: roofline */
context_token_time context_time_per_token(const context_deploy *d,
                                          double batch,
                                          double context_tokens)
{
    COST_ASSERT(batch > 0 && context_tokens >= 0 &&
                "need batch > 0, context >= 0");
    return token_time(compute_per_token_s(d, context_tokens),
                      memory_per_sequence_s(d, batch, context_tokens));
}

/* region: hbm-bytes */
double context_hbm_bytes(const context_deploy *d, double batch, double context_tokens)
{
    COST_ASSERT(batch >= 0 && context_tokens >= 0 && "need a workload");
    return d->params_total * d->bytes_per_param + batch * context_tokens * d->kv_bytes_per_token;
}

double context_usd_per_mtok(int chips, double usd_per_chip_hour, double time_per_token_s)
{
    return chips * usd_per_chip_hour * time_per_token_s / COST_HOUR_S * 1e6;
}
/* endregion: hbm-bytes */
/* endregion: roofline */

/* ---- Exercise 5.2 ---------------------------------------------------- */

/* region: kink */
context_kink context_kink_tokens(const context_deploy *d, double batch)
{
    COST_ASSERT(batch > 0 && d->kv_bytes_per_token > 0 &&
                "need a batch and a KV cache");
    context_kink k = {.exists = false, .tokens = 0.0};
    /* Both lines in bytes of HBM traffic, times n W_BW: compute is
     * c0 + c1 L, memory is m0 + m1 L. */
    double bytes_per_flop = d->hbm_bytes_per_s / d->flops_per_s;
    double c0 = COST_FLOPS_PER_MAC * d->params_active * bytes_per_flop;
    double c1 = d->attn_flops_per_context_token * bytes_per_flop;
    double m0 = d->params_total * d->bytes_per_param / batch;
    double m1 = d->kv_bytes_per_token;
    if (c0 <= m0)
        return k; /* the weight share alone: memory-bound from the start */
    if (m1 <= c1)
        return k; /* attention's arithmetic outgrows the cache fetch */
    k.exists = true;
    k.tokens = (c0 - m0) / (m1 - c1);
    return k;
}
/* endregion: kink */

/* ---- Exercise 5.3 ---------------------------------------------------- */

/* region: kv-from-price */
double context_kv_bytes_from_crossover(double params_active,
                                       double crossover_tokens,
                                       double flops_per_s,
                                       double hbm_bytes_per_s)
{
    COST_ASSERT(params_active > 0 && crossover_tokens > 0 &&
                flops_per_s > 0 && hbm_bytes_per_s > 0 &&
                "need positive inputs");
    /* L b_kv / BW = 2 N_active / F: one token's KV fetch takes as long as
     * its math */
    double bytes_per_flop = hbm_bytes_per_s / flops_per_s;
    double flops_per_token = COST_FLOPS_PER_MAC * params_active;
    return bytes_per_flop * flops_per_token / crossover_tokens;
}

double context_kv_bytes_from_ratio(double hw_ratio, double bytes_per_weight,
                                   double params_active,
                                   double crossover_tokens)
{
    COST_ASSERT(hw_ratio > 0 && bytes_per_weight > 0 && params_active > 0 &&
                crossover_tokens > 0 && "need positive inputs");
    /* r multiplies per weight fetched = r / bytes_per_weight multiplies per
     * byte */
    double bytes_per_multiply = bytes_per_weight / hw_ratio;
    return bytes_per_multiply * params_active / crossover_tokens;
}
/* endregion: kv-from-price */

/* ---- Exercise 5.4 ---------------------------------------------------- */

/* region: kv-shape */
double context_kv_bytes_per_token(double kv_contexts, double kv_heads,
                                  double head_dim, double bytes_per_element)
{
    COST_ASSERT(kv_contexts >= 0 && kv_heads >= 0 && head_dim >= 0 &&
                bytes_per_element >= 0);
    double k_and_v = 2.0; /* a key and a value per head */
    return kv_contexts * k_and_v * kv_heads * head_dim * bytes_per_element;
}

double context_mla_kv_bytes_per_token(double layers, double latent_dim,
                                      double rope_dim,
                                      double bytes_per_element)
{
    COST_ASSERT(layers >= 0 && latent_dim >= 0 && rope_dim >= 0 &&
                bytes_per_element >= 0);
    /* one latent serves as both K and V, so there is no factor 2 */
    return layers * (latent_dim + rope_dim) * bytes_per_element;
}
/* endregion: kv-shape */

/* ---- Exercise 5.5 ---------------------------------------------------- */

/* region: windows */
double context_window_kv_bytes(double global_layers, double local_layers,
                               double window_tokens,
                               double kv_bytes_per_layer_token,
                               double context_tokens)
{
    COST_ASSERT(global_layers >= 0 && local_layers >= 0 &&
                window_tokens >= 0 && kv_bytes_per_layer_token >= 0 &&
                context_tokens >= 0);
    /* a local layer keeps no more than its window */
    double local_tokens = fmin(context_tokens, window_tokens);
    double layer_tokens =
        global_layers * context_tokens + local_layers * local_tokens;
    return layer_tokens * kv_bytes_per_layer_token;
}

double context_sparse_read_bytes(double kv_bytes_per_token,
                                 double index_bytes_per_token,
                                 double selected_tokens,
                                 double context_tokens)
{
    COST_ASSERT(kv_bytes_per_token >= 0 && index_bytes_per_token >= 0 &&
                selected_tokens >= 0 && context_tokens >= 0);
    double read_tokens = fmin(selected_tokens, context_tokens);
    return read_tokens * kv_bytes_per_token +
           context_tokens * index_bytes_per_token;
}

double context_index_bytes_per_token(double layers, double index_dim,
                                     double bytes_per_element)
{
    return layers * index_dim * bytes_per_element;
}
/* endregion: windows */

/* ---- Exercise 5.6 ---------------------------------------------------- */

/* region: pass */
context_token_time context_pass_time_per_token(const context_deploy *d,
                                               double batch,
                                               double context_tokens,
                                               double pass_tokens)
{
    COST_ASSERT(batch > 0 && context_tokens >= 0 && pass_tokens >= 1 &&
                "bad pass");
    /* the weights and the old KV are read once per pass, whatever its
     * length */
    double pass_memory_s = memory_per_sequence_s(d, batch, context_tokens);
    double memory_s = pass_memory_s / pass_tokens;
    return token_time(compute_per_token_s(d, context_tokens), memory_s);
}

double context_crossover_pass_tokens(const context_deploy *d, double batch,
                                     double context_tokens)
{
    COST_ASSERT(batch > 0 && context_tokens >= 0 && "bad pass");
    /* memory / L_pass = compute  =>  L_pass = memory / compute */
    return memory_per_sequence_s(d, batch, context_tokens) /
           compute_per_token_s(d, context_tokens);
}

context_price_ratio context_read_price_ratio(double output_over_input)
{
    COST_ASSERT(output_over_input > 0 && "need a positive price ratio");
    context_price_ratio r = {.exists = false};
    if (output_over_input < 1.0)
        return r; /* a decode token is never cheaper than a prefill token */
    r.exists = true;
    r.decode_mfu_over_prefill = 1.0 / output_over_input;
    r.crossover_pass_tokens = output_over_input;
    return r;
}
/* endregion: pass */

/* ---- Exercise 5.9 ---------------------------------------------------- */

/* region: parity */
double context_attention_flops_per_context_token(double attn_layers,
                                                 double q_heads,
                                                 double qk_dim,
                                                 double v_dim)
{
    COST_ASSERT(attn_layers >= 0 && q_heads >= 0 && qk_dim >= 0 &&
                v_dim >= 0);
    /* a score, then a weighted sum, per head and cached token */
    double macs = attn_layers * q_heads * (qk_dim + v_dim);
    return COST_FLOPS_PER_MAC * macs;
}

double context_attention_parity_tokens(double params_active,
                                       double attn_flops_per_context_token)
{
    COST_ASSERT(params_active > 0 && attn_flops_per_context_token > 0);
    double weight_flops =
        COST_FLOPS_PER_MAC * params_active; /* per token */
    return weight_flops / attn_flops_per_context_token;
}

double context_sqrt_read_tokens(double context_tokens, double kink_tokens)
{
    return context_tokens > kink_tokens ? sqrt(context_tokens * kink_tokens)
                                        : context_tokens;
}
/* endregion: parity */

/* ---- Exercise 5.8 ---------------------------------------------------- */

/* region: tiers */
double context_drain_s(double capacity_bytes, double bytes_per_s)
{
    COST_ASSERT(capacity_bytes > 0 && bytes_per_s > 0 && "need a device");
    return capacity_bytes / bytes_per_s;
}

double context_tier_usd_per_byte(const cost_tier *t, double hold_s)
{
    COST_ASSERT(hold_s >= 0 && "need a hold time >= 0");
    double usd_per_s = t->usd_per_hour / COST_HOUR_S;
    /* seconds of the whole device each byte claims */
    double capacity_share_s = hold_s / t->capacity_bytes;
    double bandwidth_share_s = 1.0 / t->bytes_per_s;
    return usd_per_s * fmax(capacity_share_s, bandwidth_share_s);
}
/* endregion: tiers */

/* region: remat */
double context_remat_usd_per_byte(const context_deploy *d,
                                  double context_tokens,
                                  double usd_per_chip_hour)
{
    COST_ASSERT(context_tokens >= 1 && d->kv_bytes_per_token > 0 &&
                usd_per_chip_hour > 0 && "need a context and a price");
    /* token i attends to the i tokens before it: on average (L - 1) / 2 */
    double mean_attended = (context_tokens - 1.0) / 2.0;
    double chip_s = token_flops(d, mean_attended) / d->flops_per_s;
    double usd = chip_s * usd_per_chip_hour / COST_HOUR_S;
    return usd / d->kv_bytes_per_token;
}
/* endregion: remat */

/* region: cheapest */
context_tier_choice context_cheapest_tier(const cost_tier *const *tiers,
                                          size_t count, double hold_s,
                                          double remat_usd_per_byte)
{
    COST_ASSERT(count >= 1 && remat_usd_per_byte > 0 &&
                "need a tier and a remat cost");
    context_tier_choice c = {.remat = false, .tier = 0};
    c.usd_per_byte = context_tier_usd_per_byte(tiers[0], hold_s);
    for (size_t i = 1; i < count; i++) {
        double usd = context_tier_usd_per_byte(tiers[i], hold_s);
        if (usd < c.usd_per_byte) { /* strictly: the earlier wins a tie */
            c.tier = i;
            c.usd_per_byte = usd;
        }
    }
    if (remat_usd_per_byte <= c.usd_per_byte) {
        c.remat = true;
        c.tier = 0;
        c.usd_per_byte = remat_usd_per_byte;
    }
    return c;
}
/* endregion: cheapest */

/* ---- Exercise 5.11 --------------------------------------------------- */

/* region: bill */
static double per_token_usd(double usd_per_mtok)
{
    return usd_per_mtok / 1e6;
}

context_bill context_api_usd(const cost_api_price *p, double input_tokens,
                             double output_tokens, double cached_tokens,
                             cost_cache_write write)
{
    COST_ASSERT(cached_tokens >= 0 && cached_tokens <= input_tokens &&
                output_tokens >= 0 &&
                "need 0 <= cached <= input and output >= 0");
    context_bill b = {.exists = false};
    /* the whole prompt decides the tier, and the tier prices every token */
    bool two_tiers = cost_api_has_long_tier(p);
    b.long_tier = two_tiers && input_tokens > p->long_threshold_tokens;
    const cost_price_tier *tier = b.long_tier ? &p->long_prompt : &p->base;
    double uncached_usd_per_mtok = tier->input_usd_per_mtok;
    if (write == COST_CACHE_WRITE_5M)
        uncached_usd_per_mtok = p->cache_write_5m_usd_per_mtok;
    if (write == COST_CACHE_WRITE_1H)
        uncached_usd_per_mtok = p->cache_write_1h_usd_per_mtok;
    if (uncached_usd_per_mtok <= 0.0)
        return b; /* no such write price on this list */
    if (cached_tokens > 0.0 && tier->cache_read_usd_per_mtok <= 0.0)
        return b; /* no cache-read price for this tier */
    if (output_tokens > 0.0 && tier->output_usd_per_mtok <= 0.0)
        return b; /* no output price for this tier */
    b.exists = true;
    double uncached_tokens = input_tokens - cached_tokens;
    b.input_usd = uncached_tokens * per_token_usd(uncached_usd_per_mtok);
    double read_usd_per_mtok = tier->cache_read_usd_per_mtok;
    b.cached_usd = cached_tokens * per_token_usd(read_usd_per_mtok);
    b.output_usd = output_tokens * per_token_usd(tier->output_usd_per_mtok);
    b.usd = b.input_usd + b.cached_usd + b.output_usd;
    return b;
}
/* endregion: bill */

/* ---- Exercise 5.7 ---------------------------------------------------- */

/* region: draft */
/* Expected tokens a step yields with q guesses kept up to the first
 * rejected one: 1 + a + a^2 + ... + a^q (exact for a = 1 too). */
static double expected_tokens(double accept, int q)
{
    double sum = 0.0, term = 1.0;
    for (int i = 0; i <= q; i++) {
        sum += term;
        term *= accept;
    }
    return sum;
}

/* Seconds of one pass of `pass_tokens` new tokens per sequence. */
static double pass_s(const context_deploy *d, double batch,
                     double context_tokens, double pass_tokens)
{
    context_token_time t =
        context_pass_time_per_token(d, batch, context_tokens, pass_tokens);
    return batch * pass_tokens * t.time_s;
}

context_draft_plan context_best_draft(const context_deploy *d, double batch,
                                      double context_tokens, double accept,
                                      double draft_cost, int max_draft)
{
    COST_ASSERT(accept >= 0 && accept <= 1 && draft_cost >= 0 &&
                max_draft >= 0 && "bad speculation");
    double decode_s = pass_s(d, batch, context_tokens, 1.0);
    context_draft_plan best = {.draft_tokens = 0,
                               .tokens_per_step = 1.0,
                               .s_per_token = decode_s,
                               .speedup = 1.0};
    for (int q = 1; q <= max_draft; q++) {
        double step_s = pass_s(d, batch, context_tokens, q + 1.0) +
                        q * draft_cost * decode_s;
        double tokens = expected_tokens(accept, q);
        double s_per_token = step_s / tokens;
        /* a smaller q wins a tie within a relative 1e-12 */
        if (s_per_token < best.s_per_token * (1.0 - 1e-12)) {
            best.draft_tokens = q;
            best.tokens_per_step = tokens;
            best.s_per_token = s_per_token;
        }
    }
    best.speedup = decode_s / best.s_per_token;
    return best;
}
/* endregion: draft */

/* ---- Exercise 5.12 --------------------------------------------------- */

/* region: schedule */
/* region: schedule-state */
/* The state between requests: the entry's kind (none, 5m, 1h) and the
 * request that last wrote or read it. */
enum { NO_ENTRY = 0, ENTRY_5M = 1, ENTRY_1H = 2, ENTRY_KINDS = 3 };

/* What one action costs for the prefix, or INFINITY when the list lacks
 * its price. */
static double action_usd(const cost_api_price *p, double prefix,
                         context_cache_action a)
{
    context_bill b;
    if (a == CONTEXT_READ_CACHE)
        b = context_api_usd(p, prefix, 0, prefix, COST_CACHE_WRITE_NONE);
    else if (a == CONTEXT_WRITE_5M)
        b = context_api_usd(p, prefix, 0, 0, COST_CACHE_WRITE_5M);
    else if (a == CONTEXT_WRITE_1H)
        b = context_api_usd(p, prefix, 0, 0, COST_CACHE_WRITE_1H);
    else
        b = context_api_usd(p, prefix, 0, 0, COST_CACHE_WRITE_NONE);
    return b.exists ? b.usd : INFINITY;
}

/* Whether an entry of `kind`, last touched at `since`, is live at `now`. */
static bool live(int kind, double since, double now)
{
    if (kind == NO_ENTRY)
        return false;
    double life =
        kind == ENTRY_5M ? CONTEXT_CACHE_5M_S : CONTEXT_CACHE_1H_S;
    return now - since <= life;
}

/* The state after taking action a at request i from state (kind, j). */
static void next_state(context_cache_action a, size_t i, int kind, size_t j,
                       int *next_kind, size_t *next_j)
{
    *next_kind = kind;
    *next_j = j; /* sent uncached: the entry ages on */
    if (a == CONTEXT_READ_CACHE)
        *next_j = i; /* a hit: the same entry, its life restarted */
    if (a == CONTEXT_WRITE_5M || a == CONTEXT_WRITE_1H) {
        *next_kind = a == CONTEXT_WRITE_5M ? ENTRY_5M : ENTRY_1H;
        *next_j = i; /* a new entry replaces the old */
    }
}

/* cost[(i * ENTRY_KINDS + kind) * count + j]: the least the requests i..
 * still cost from the state (kind, j) before request i; 0 past the end. */
static size_t slot(size_t count, size_t i, int kind, size_t j)
{
    return ((i * ENTRY_KINDS) + (size_t)kind) * count + j;
}

/* endregion: schedule-state */
/* region: schedule-step */
/* The action taken at request i from state (kind, j), and what the rest
 * then costs; the first action of the order that is cheapest within a
 * relative 1e-9 (when `best` is known), else the cheapest. */
static double best_action(const cost_api_price *p, double prefix,
                          const double *t, size_t count, const double *cost,
                          size_t i, int kind, size_t j, double best,
                          context_cache_action *chosen)
{
    double least = INFINITY;
    for (int a = CONTEXT_SEND_UNCACHED; a <= CONTEXT_WRITE_1H; a++) {
        if (a == CONTEXT_READ_CACHE && !live(kind, t[j], t[i]))
            continue;
        double usd = action_usd(p, prefix, (context_cache_action)a);
        if (!isfinite(usd))
            continue;
        int nk;
        size_t nj;
        next_state((context_cache_action)a, i, kind, j, &nk, &nj);
        double rest = i + 1 < count ? cost[slot(count, i + 1, nk, nj)] : 0;
        double total = usd + rest;
        if (isfinite(best) && total <= best * (1.0 + 1e-9)) {
            *chosen = (context_cache_action)a;
            return total;
        }
        if (total < least) {
            least = total;
            *chosen = (context_cache_action)a;
        }
    }
    return least;
}
/* endregion: schedule-step */

/* region: schedule-search */
double context_cheapest_cache_schedule(const cost_api_price *p,
                                       double prefix_tokens,
                                       const double *request_times_s,
                                       size_t count,
                                       context_cache_action *actions)
{
    COST_ASSERT(count >= 1 && count <= CONTEXT_SCHEDULE_MAX_REQUESTS &&
                prefix_tokens > 0 && "bad conversation");
    for (size_t i = 1; i < count; i++)
        COST_ASSERT(request_times_s[i] >= request_times_s[i - 1] &&
                    "times must not decrease");
    double *cost = malloc(count * ENTRY_KINDS * count * sizeof *cost);
    COST_ASSERT(cost && "out of memory");
    /* backwards: the least cost of requests i.. from every state */
    for (size_t i = count; i-- > 0;) {
        for (int kind = NO_ENTRY; kind < ENTRY_KINDS; kind++) {
            size_t states = kind == NO_ENTRY ? 1 : i; /* j < i */
            for (size_t j = 0; j < states; j++) {
                context_cache_action a;
                cost[slot(count, i, kind, j)] =
                    best_action(p, prefix_tokens, request_times_s, count,
                                cost, i, kind, j, INFINITY, &a);
            }
        }
    }
    /* forwards: the first cheapest action at each request */
    double total = cost[slot(count, 0, NO_ENTRY, 0)];
    int kind = NO_ENTRY;
    size_t j = 0;
    for (size_t i = 0; i < count; i++) {
        context_cache_action a = CONTEXT_SEND_UNCACHED;
        best_action(p, prefix_tokens, request_times_s, count, cost, i, kind,
                    j, cost[slot(count, i, kind, j)], &a);
        actions[i] = a;
        next_state(a, i, kind, j, &kind, &j);
    }
    free(cost);
    return total;
}
/* endregion: schedule-search */
/* endregion: schedule */

/* ---- Exercise 5.10 --------------------------------------------------- */

/* region: reach-limits */
/* The deployment and the three limits a context must meet. */
typedef struct reach_limits {
    const context_deploy *d;
    double hbm_bytes;    /* all n chips together */
    double usd_per_chip_hour;
    double max_step_s;
    double max_usd_per_mtok;
} reach_limits;

/* Whether `value` meets `limit`: at most the limit, within a relative 1e-9. */
static bool within(double value, double limit)
{
    return value <= limit * (1.0 + 1e-9);
}

/* The step of `batch` sequences at this context: the time between a sequence's
 * tokens, the batch's tokens times each one's time. */
static double reach_step_s(const reach_limits *r, double context, double batch)
{
    return batch * context_time_per_token(r->d, batch, context).time_s;
}

static double reach_usd_per_mtok(const reach_limits *r, double context, double batch)
{
    double token_s = context_time_per_token(r->d, batch, context).time_s;
    return context_usd_per_mtok(r->d->chips, r->usd_per_chip_hour, token_s);
}

/* Whether `batch` sequences of `context` tokens fit in HBM and step in time. Both
 * get harder as the batch grows, so the batches that pass are 1..some largest. */
static bool reach_fits(const reach_limits *r, double context, double batch)
{
    return within(context_hbm_bytes(r->d, batch, context), r->hbm_bytes) &&
           within(reach_step_s(r, context, batch), r->max_step_s);
}

/* endregion: reach-limits */

/* region: reach-batch */
/* The largest whole batch that fits at this context, or 0. Bisection between 1
 * and a bound past which the HBM or the step's arithmetic must fail. */
static double reach_max_batch(const reach_limits *r, double context)
{
    if (!reach_fits(r, context, 1.0))
        return 0.0;
    const context_deploy *d = r->d;
    double cache_cap = (r->hbm_bytes * (1.0 + 1e-9) -
                        d->params_total * d->bytes_per_param) /
                       (context * d->kv_bytes_per_token);
    double compute_cap = r->max_step_s * (1.0 + 1e-9) /
                         context_time_per_token(d, 1.0, context).compute_s;
    /* fits(lo), not hi; whole numbers stay exact in a double up to 2^53 */
    double lo = 1.0, hi = fmin(floor(fmin(cache_cap, compute_cap)) + 2.0, 0x1p53);
    while (hi - lo > 1.0) {
        double mid = floor((lo + hi) / 2.0);
        if (reach_fits(r, context, mid))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The batch of least cost at this context and that cost (a larger batch never
 * costs more per token: it shares the weights more widely); the smallest batch
 * within a relative 1e-9 of it. 0 when no batch fits. */
static double reach_best_batch(const reach_limits *r, double context, double *usd)
{
    double top = reach_max_batch(r, context);
    if (top < 1.0)
        return 0.0;
    double least = reach_usd_per_mtok(r, context, top);
    double lo = 0.0, hi = top; /* cost(lo) above the least (or lo = 0), cost(hi) not */
    while (hi - lo > 1.0) {
        double mid = floor((lo + hi) / 2.0);
        if (within(reach_usd_per_mtok(r, context, mid), least))
            hi = mid;
        else
            lo = mid;
    }
    *usd = reach_usd_per_mtok(r, context, hi);
    return hi;
}

/* endregion: reach-batch */

/* region: reach-search */
/* Whether some batch serves this context within all three limits. Served
 * contexts are 1..some longest: a longer context fits fewer sequences, steps
 * longer and costs more per token at every batch. */
static bool reach_serves(const reach_limits *r, double context)
{
    double usd = 0.0;
    return reach_best_batch(r, context, &usd) >= 1.0 && within(usd, r->max_usd_per_mtok);
}

context_reach context_longest_context(const context_deploy *d, double hbm_bytes_per_chip,
                                      double usd_per_chip_hour, double max_step_s,
                                      double max_usd_per_mtok, double max_context_tokens)
{
    COST_ASSERT(hbm_bytes_per_chip > 0 && usd_per_chip_hour > 0 && max_step_s > 0 &&
                max_usd_per_mtok > 0 && max_context_tokens >= 1 &&
                max_context_tokens <= CONTEXT_REACH_MAX_TOKENS &&
                d->kv_bytes_per_token > 0 && "bad service targets");
    reach_limits r = {d, d->chips * hbm_bytes_per_chip, usd_per_chip_hour, max_step_s,
                      max_usd_per_mtok};
    context_reach out = {.exists = false};
    double top = floor(max_context_tokens);
    if (!reach_serves(&r, 1.0))
        return out;
    double lo = 1.0, hi = top + 1.0; /* serves(lo), not hi (or past the window) */
    if (reach_serves(&r, top))
        lo = top;
    while (hi - lo > 1.0) {
        double mid = floor((lo + hi) / 2.0);
        if (reach_serves(&r, mid))
            lo = mid;
        else
            hi = mid;
    }
    out.exists = true;
    out.context_tokens = lo;
    out.batch = reach_best_batch(&r, lo, &out.usd_per_mtok);
    out.step_s = reach_step_s(&r, lo, out.batch);
    return out;
}
/* endregion: reach-search */

/* ---- Exercise 5.13 --------------------------------------------------- */

/* region: window-terms */
/* What the first token after a prompt of `prompt` tokens costs, USD per
 * million: the rent of all the chips it occupies for its share of a decode
 * step at that context, the larger of its arithmetic and its reads. */
static double window_cost_usd_per_mtok(const context_deploy *d,
                                       double batch,
                                       double usd_per_chip_hour,
                                       double prompt)
{
    double token_s = context_time_per_token(d, batch, prompt).time_s;
    return context_usd_per_mtok(d->chips, usd_per_chip_hour, token_s);
}

/* What the list charges for that token: it is generated, so the output
 * price, of the tier the prompt picks (0 when the list lacks it). */
static double window_price_usd_per_mtok(const cost_api_price *p,
                                        double prompt)
{
    bool long_tier = cost_api_has_long_tier(p) &&
                     prompt > p->long_threshold_tokens;
    const cost_price_tier *tier = long_tier ? &p->long_prompt : &p->base;
    return tier->output_usd_per_mtok;
}
/* endregion: window-terms */

/* region: window-tier */
typedef struct window_case {
    const context_deploy *d;
    double batch;
    double usd_per_chip_hour;
    const cost_api_price *p;
} window_case;

/* Whether the charge covers the cost at this prompt length, within a
 * relative 1e-9. */
static bool window_covered(const window_case *w, double prompt)
{
    double price = window_price_usd_per_mtok(w->p, prompt);
    double cost = window_cost_usd_per_mtok(w->d, w->batch,
                                           w->usd_per_chip_hour, prompt);
    return price > 0.0 && cost <= price * (1.0 + 1e-9);
}

/* The last covered prompt of [lo, hi], lo covered and all of [lo, hi] in
 * one tier: there the price is fixed and the cost never falls as the prompt
 * grows, so the covered prompts are lo up to some last one. Bisection on
 * whole tokens. */
static double window_last_covered(const window_case *w, double lo,
                                  double hi)
{
    while (lo < hi) {
        double mid = lo + ceil((hi - lo) / 2.0);
        if (window_covered(w, mid))
            lo = mid;
        else
            hi = mid - 1.0;
    }
    return lo;
}
/* endregion: window-tier */

/* region: window-search */
context_window context_price_window(const context_deploy *d, double batch,
                                    double usd_per_chip_hour,
                                    const cost_api_price *p,
                                    double max_context_tokens)
{
    COST_ASSERT(d && p && batch > 0 && usd_per_chip_hour > 0 &&
                d->chips > 0 && d->params_active > 0 &&
                d->params_total > 0 && d->bytes_per_param > 0 &&
                d->kv_bytes_per_token > 0 &&
                d->attn_flops_per_context_token >= 0 &&
                d->flops_per_s > 0 && d->hbm_bytes_per_s > 0 &&
                max_context_tokens >= 1 &&
                max_context_tokens <= CONTEXT_WINDOW_MAX_TOKENS &&
                "see context_price_window's preconditions");
    window_case w = {d, batch, usd_per_chip_hour, p};
    context_window out = {.exists = false};
    double window_end = floor(max_context_tokens);
    if (!window_covered(&w, 1.0))
        return out;
    /* the short tier's prompts: 1 up to the threshold, or to the window */
    bool two_tiers = cost_api_has_long_tier(p);
    double threshold = p->long_threshold_tokens;
    double short_end = two_tiers ? fmin(window_end, threshold) : window_end;
    double last = window_last_covered(&w, 1.0, short_end);
    /* past the threshold: the window goes on, its next prompt covered */
    bool more = short_end < window_end &&
                window_covered(&w, short_end + 1.0);
    /* ... but only if every short prompt is covered */
    if (last == short_end && more)
        last = window_last_covered(&w, short_end + 1.0, window_end);
    out.exists = true;
    out.context_tokens = last;
    out.long_tier = two_tiers && last > threshold;
    return out;
}
/* endregion: window-search */
