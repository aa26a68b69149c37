/*
 * batching.c -- Chapter 1 reference solution: batch size, step time, cost
 * per token.
 *
 * Contract: exercises/01-batching/batching.h; the equations are chapter
 * 1's. Every function but the last is a closed form; the subtleties are
 * reporting "no such batch" plainly when the roofline says there is none,
 * and rounding a quotient that is meant to be whole. batching_cheapest is
 * a search over hardware and chip counts.
 */
#include "batching.h"

#include <limits.h>
#include <math.h>

/* ---- per-sequence slopes and the constant ---------------------------- */

/* region: slopes */
/* Seconds of compute each extra sequence adds to a step. */
static double compute_slope_s(const batching_deploy *d)
{
    double flops_per_s = d->chips * d->flops_per_s;
    return COST_FLOPS_PER_MAC * d->params_active / flops_per_s;
}

/* Seconds of KV fetch each extra sequence adds to a step. */
static double kv_slope_s(const batching_deploy *d, double context)
{
    double bytes_per_s = d->chips * d->hbm_bytes_per_s;
    return context * d->kv_bytes_per_token / bytes_per_s;
}
/* endregion: slopes */

/* ---- Exercise 1.1 ---------------------------------------------------- */

/* region: roofline-terms */
double batching_compute_s(const batching_deploy *d, double batch)
{
    COST_ASSERT(batch >= 0.0 && d->chips >= 1 && "need batch, chip");
    return batch * compute_slope_s(d);
}

double batching_weights_s(const batching_deploy *d)
{
    double bytes = d->params_total * d->bytes_per_param;
    return cost_transfer_s(bytes, d->chips * d->hbm_bytes_per_s);
}

double batching_kv_s(const batching_deploy *d, double batch,
                     double context_tokens)
{
    COST_ASSERT(batch >= 0.0 && context_tokens >= 0.0 && "need >= 0");
    return batch * kv_slope_s(d, context_tokens);
}
/* endregion: roofline-terms */

/* ---- Exercise 1.2 ---------------------------------------------------- */

/* region: step */
batching_step batching_step_at(const batching_deploy *d, double batch,
                               double context_tokens)
{
    batching_step s;
    s.compute_s = batching_compute_s(d, batch);
    s.weights_s = batching_weights_s(d);
    s.kv_s = batching_kv_s(d, batch, context_tokens);
    s.memory_s = s.weights_s + s.kv_s;
    s.bound = cost_bound_of(s.compute_s, s.memory_s);
    s.step_s = fmax(s.compute_s, s.memory_s);
    s.mfu = s.compute_s / s.step_s;
    s.hbm_bytes = s.memory_s * d->chips * d->hbm_bytes_per_s;
    return s;
}
/* endregion: step */

double batching_latency_floor_s(const batching_deploy *d)
{
    return batching_weights_s(d); /* compute and KV vanish with the batch */
}

/* ---- Exercise 1.3 ---------------------------------------------------- */

/* region: experts-fetched */
/* The share of routed experts one token leaves unread: 1 - k/E (0 for
 * a dense model, whose every token reads every weight). */
static double idle_per_token(const batching_deploy *d)
{
    int k = d->experts_per_token, e = d->experts_routed;
    if (e == 0)
        return 0.0;
    COST_ASSERT(k > 0 && k <= e && "need 0 < k <= E");
    return 1.0 - (double)k / e;
}

double batching_params_fetched(const batching_deploy *d, double batch)
{
    COST_ASSERT(batch >= 1.0 && "a step holds at least one sequence");
    if (d->experts_routed == 0)
        return d->params_total; /* dense: every token reads all */
    /* routed weights R: R (1 - k/E) = N_total - N_active is unread
     * after one token, and R (1 - k/E)^B after B of them */
    double unread_after_one = d->params_total - d->params_active;
    double still_idle = pow(idle_per_token(d), batch - 1.0);
    return d->params_total - unread_after_one * still_idle;
}

long batching_all_experts_batch(const batching_deploy *d, double idle_share)
{
    COST_ASSERT(idle_share > 0.0 && idle_share < 1.0 && "need 0<x<1");
    double q = idle_per_token(d);
    if (q == 0.0)
        return 1; /* one token already reads every weight */
    /* q^B <= idle_share <=> B >= ln(idle_share) / ln(q), q = 1 - k/E */
    double b = ceil(log(idle_share) / log(q) * (1.0 - 1e-9));
    return b < 1.0 ? 1 : (long)b;
}
/* endregion: experts-fetched */

/* ---- Exercise 1.4 ---------------------------------------------------- */

double batching_tokens_per_s(const batching_deploy *d, double batch,
                             double context_tokens)
{
    return batch / batching_step_at(d, batch, context_tokens).step_s;
}

/* region: cost */
double batching_usd_per_mtok(const batching_deploy *d, double batch,
                             double context_tokens)
{
    COST_ASSERT(batch > 0.0 && "a step must produce tokens");
    double step_s = batching_step_at(d, batch, context_tokens).step_s;
    double usd_per_hour = d->chips * d->usd_per_chip_hour;
    double usd_per_step = usd_per_hour * step_s / COST_HOUR_S;
    return usd_per_step / batch * 1e6;
}
/* endregion: cost */

/* ---- Exercise 1.5 ---------------------------------------------------- */

/* region: hw-ratio */
double batching_hw_ratio(double flops_per_s, double hbm_bytes_per_s,
                         double bytes_per_param)
{
    double multiplies_per_s = flops_per_s / COST_FLOPS_PER_MAC;
    return multiplies_per_s * bytes_per_param / hbm_bytes_per_s;
}
/* endregion: hw-ratio */

double batching_balance_batch_approx(double hw_ratio, double sparsity)
{
    return hw_ratio * sparsity;
}

/* ---- Exercise 1.6 ---------------------------------------------------- */

/* region: balance */
batching_balance batching_balance_batch(const batching_deploy *d,
                                        double context_tokens)
{
    batching_balance b = {.exists = false, .batch = 0.0};
    /* B c = t_weights + B kappa  =>  B = t_weights / (c - kappa) */
    double kappa = kv_slope_s(d, context_tokens);
    double c = compute_slope_s(d);
    double net_slope_s = c - kappa;
    /* kappa >= c: memory stays ahead at every batch. L* is a quotient, so a
     * context within a relative 1e-9 of it counts as L* (the contract):
     * else a rounding error in c - kappa makes a batch of 1e18. */
    if (net_slope_s <= 1e-9 * c)
        return b;
    b.exists = true;
    b.batch = batching_weights_s(d) / net_slope_s;
    return b;
}
/* endregion: balance */

double batching_max_balanced_context_tokens(const batching_deploy *d)
{
    COST_ASSERT(d->kv_bytes_per_token > 0.0 && "need a KV cache");
    /* c == kappa:  2 N_active / F = L b_kv / BW, solved for L */
    return COST_FLOPS_PER_MAC * d->params_active * d->hbm_bytes_per_s /
           (d->flops_per_s * d->kv_bytes_per_token);
}

/* ---- Exercise 1.7 ---------------------------------------------------- */

/* region: departures */
batching_departures batching_train_departures(double hbm_bytes,
                                              double hbm_bytes_per_s)
{
    COST_ASSERT(hbm_bytes > 0.0 && hbm_bytes_per_s > 0.0 && "need HBM");
    batching_departures t;
    t.step_s = hbm_bytes / hbm_bytes_per_s;
    t.worst_wait_s = t.step_s;
    t.mean_wait_s = t.step_s / 2.0;
    t.worst_latency_s = t.worst_wait_s + t.step_s;
    t.mean_latency_s = t.mean_wait_s + t.step_s;
    return t;
}
/* endregion: departures */

/* ---- Exercise 1.8 ---------------------------------------------------- */

/* floor() that forgives the rounding of a quotient meant to be whole: a
 * value within a relative 1e-9 below a whole number counts as it (the
 * contract's rule). A limit beyond what a long holds (or an infinite one)
 * saturates at LONG_MAX: converting such a double to long would be
 * undefined. */
static long whole_floor(double x)
{
    double n = floor(x * (1.0 + 1e-9));
    return n < (double)LONG_MAX ? (long)n : LONG_MAX;
}

static batching_limit limit_of(double largest)
{
    batching_limit l = {.exists = false, .batch = 0};
    long n = whole_floor(largest);
    if (n >= 1) {
        l.exists = true;
        l.batch = n;
    }
    return l;
}

/* region: limits */
batching_limit batching_max_batch_hbm(const batching_deploy *d,
                                      double context_tokens)
{
    double cache_bytes = context_tokens * d->kv_bytes_per_token;
    COST_ASSERT(cache_bytes > 0.0 && "need a KV cache");
    double weight_bytes = d->params_total * d->bytes_per_param;
    double free_bytes = d->chips * d->hbm_bytes - weight_bytes;
    if (free_bytes <= 0.0)
        return limit_of(0.0); /* the weights alone do not fit */
    return limit_of(free_bytes / cache_bytes);
}

/* The largest batch, not rounded, whose step takes at most target_s:
 * both lines stay under it, B c <= target_s and t_weights + B kappa <=
 * target_s. 0 when the target is below the latency floor. */
static double batch_under(const batching_deploy *d, double context_tokens,
                          double target_s)
{
    double weights_s = batching_weights_s(d);
    if (target_s < weights_s)
        return 0.0; /* below the latency floor: not even one sequence */
    double by_compute = target_s / compute_slope_s(d);
    double kappa = kv_slope_s(d, context_tokens);
    double by_memory = INFINITY; /* no KV: the memory line is flat */
    if (kappa > 0.0)
        by_memory = (target_s - weights_s) / kappa;
    return fmin(by_compute, by_memory);
}

batching_limit batching_max_batch_latency(const batching_deploy *d,
                                          double context_tokens,
                                          double target_step_s)
{
    COST_ASSERT(target_step_s > 0.0 && "need a positive target");
    return limit_of(batch_under(d, context_tokens, target_step_s));
}
/* endregion: limits */

/* ---- Exercise 1.9 ---------------------------------------------------- */

/* region: fast-mode */
/* The step of a batch that reads only the weights it fetches (1.3): a
 * small batch of an MoE leaves experts unread, and its step is shorter. */
static double fetched_step_s(const batching_deploy *d, double batch,
                             double context_tokens)
{
    double bytes = batching_params_fetched(d, batch) * d->bytes_per_param;
    double weights_s = cost_transfer_s(bytes, d->chips * d->hbm_bytes_per_s);
    double memory_s = weights_s + batching_kv_s(d, batch, context_tokens);
    return fmax(batching_compute_s(d, batch), memory_s);
}

batching_fast batching_fast_mode(const batching_deploy *d,
                                 double context_tokens, double normal_batch,
                                 double speedup)
{
    COST_ASSERT(normal_batch >= 1.0 && speedup >= 1.0 && "B>=1, S>=1");
    batching_fast f = {.possible = false};
    double normal_s = fetched_step_s(d, normal_batch, context_tokens);
    double target_s = normal_s / speedup;
    if (fetched_step_s(d, 1.0, context_tokens) > target_s * (1.0 + 1e-9))
        return f; /* even one sequence is slower than the fast step */
    /* the step never falls as the batch grows, and no batch past the
     * compute line's T / c meets T: bisect [lo, hi], step(lo) <= T */
    double lo = 1.0, hi = target_s / batching_compute_s(d, 1.0);
    if (fetched_step_s(d, hi, context_tokens) <= target_s)
        lo = hi; /* the compute line itself is the limit */
    while (hi - lo > 1e-12 * hi) {
        double mid = lo + (hi - lo) / 2.0;
        if (mid <= lo || mid >= hi)
            break; /* no double left between them */
        if (fetched_step_s(d, mid, context_tokens) <= target_s)
            lo = mid;
        else
            hi = mid;
    }
    f.possible = true;
    f.batch = lo;
    f.step_s = target_s;
    f.cost_ratio = (target_s / lo) / (normal_s / normal_batch);
    return f;
}
/* endregion: fast-mode */

/* ---- Exercise 1.10 --------------------------------------------------- */

/* region: cheapest */
/* region: cheapest-cost */
/* The model on n chips of one offer. */
static batching_deploy on_offer(const batching_deploy *model,
                                const batching_offer *o, int n)
{
    batching_deploy d = *model;
    d.chips = n;
    d.flops_per_s = o->flops_per_s;
    d.hbm_bytes_per_s = o->hbm_bytes_per_s;
    d.hbm_bytes = o->hbm_bytes;
    d.usd_per_chip_hour = o->usd_per_chip_hour;
    return d;
}

/* The cheapest batch of one deployment: the largest that meets both
 * limits, since step / batch never grows with the batch. 0 when none. */
static long cheapest_batch(const batching_deploy *d, double context,
                           double target_s)
{
    batching_limit hbm = batching_max_batch_hbm(d, context);
    batching_limit fast = batching_max_batch_latency(d, context, target_s);
    if (!hbm.exists || !fast.exists)
        return 0;
    return hbm.batch < fast.batch ? hbm.batch : fast.batch;
}

/* The cost of offer i on n chips at its cheapest batch, in USD per
 * million tokens; INFINITY when it serves no batch within the target. */
static double cost_on(const batching_deploy *model, double context,
                      double target_s, const batching_offer *o, int n,
                      long *batch)
{
    batching_deploy d = on_offer(model, o, n);
    *batch = cheapest_batch(&d, context, target_s);
    if (*batch < 1)
        return INFINITY;
    return batching_usd_per_mtok(&d, (double)*batch, context);
}
/* endregion: cheapest-cost */

/* region: cheapest-fewest */
/* The fewest chips of offer o, 1 to its max_chips, whose cheapest batch
 * costs at most `bar`; 0 when not even all of them do. More chips allow
 * a batch at least as large (more HBM, more bandwidth, more arithmetic),
 * and a token's cost depends on the batch alone (n cancels in
 * n t_step / B), so the cost never grows with n: bisect on n. */
static int fewest_chips(const batching_deploy *model, double context,
                        double target_s, const batching_offer *o, double bar)
{
    long b;
    if (!(cost_on(model, context, target_s, o, o->max_chips, &b) <= bar))
        return 0;
    int lo = 0, hi = o->max_chips; /* lo's cost exceeds bar (or lo is 0),
                                      hi's does not */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (cost_on(model, context, target_s, o, mid, &b) <= bar)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}
/* endregion: cheapest-fewest */

/* region: cheapest-search */
batching_plan batching_cheapest(const batching_deploy *model,
                                double context_tokens, double target_step_s,
                                const batching_offer *offers, int count)
{
    COST_ASSERT(context_tokens > 0.0 && target_step_s > 0.0 && count >= 0 &&
                "need a context, a target, offers");
    batching_plan plan = {.exists = false, .offer = -1};
    /* the least cost: each offer's is on all its chips, by the same
     * argument */
    double least = INFINITY;
    long b;
    for (int i = 0; i < count; i++) {
        COST_ASSERT(offers[i].max_chips >= 1 && "need chips");
        least = fmin(least, cost_on(model, context_tokens, target_step_s,
                                    &offers[i], offers[i].max_chips, &b));
    }
    if (least == INFINITY)
        return plan; /* no offer serves one sequence within the target */
    /* the fewest chips, then the earliest offer, among equal costs */
    double bar = least * (1.0 + 1e-9);
    int best = -1, best_n = 0;
    for (int j = 0; j < count; j++) {
        int n = fewest_chips(model, context_tokens, target_step_s,
                             &offers[j], bar);
        if (n > 0 && (best < 0 || n < best_n)) {
            best = j;
            best_n = n;
        }
    }
    batching_deploy d = on_offer(model, &offers[best], best_n);
    plan.exists = true;
    plan.offer = best;
    plan.chips = best_n;
    plan.usd_per_mtok = cost_on(model, context_tokens, target_step_s,
                                &offers[best], best_n, &plan.batch);
    plan.step_s = batching_step_at(&d, (double)plan.batch, context_tokens).step_s;
    return plan;
}
/* endregion: cheapest-search */
/* endregion: cheapest */

/* ---- Exercise 1.11 --------------------------------------------------- */

/* region: max-sparsity */
batching_sparsity batching_max_sparsity(const batching_deploy *d,
                                        double context_tokens)
{
    batching_sparsity none = {.exists = false};
    /* the model at sparsity 1: every weight is active */
    batching_deploy dense = *d;
    dense.params_total = d->params_active;
    batching_balance b1 = batching_balance_batch(&dense, context_tokens);
    if (!b1.exists)
        return none; /* at or past L*: no sparsity has a balance batch */
    /* Sparsity s multiplies t_weights and leaves the slopes c and kappa
     * alone, so the balance batch t_weights / (c - kappa) is s times b1:
     * the weights and the balance batch's caches both grow as s. */
    double weight_bytes = dense.params_total * d->bytes_per_param;
    double cache_bytes = b1.batch * context_tokens * d->kv_bytes_per_token;
    double all_hbm_bytes = d->chips * d->hbm_bytes;
    double most = all_hbm_bytes / (weight_bytes + cache_bytes);
    /* a quotient meant to be exactly 1 may land a hair below it */
    if (most < 1.0 && most >= 1.0 - 1e-9)
        most = 1.0;
    if (most < 1.0)
        return none; /* not even the dense model fits at its balance batch */
    batching_sparsity s = {true, most, most * b1.batch};
    return s;
}
/* endregion: max-sparsity */
