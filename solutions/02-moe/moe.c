/*
 * moe.c -- Chapter 2 reference solution: an MoE layer laid out across
 * a rack.
 *
 * Contract: exercises/02-moe/moe.h; equations: chapter 2 of the book.
 * Everything is a closed form except the routing simulation, which
 * draws from SplitMix64 (never rand(): its numbers differ between C
 * libraries) and is checked against the binomial closed forms below
 * it, and the layout search of exercise 2.12. The regions the book
 * prints keep within 70 columns.
 */
#include "moe.h"

#include <math.h>
#include <stdlib.h>

/* ---- Exercise 2.1 ---------------------------------------------------- */

/* region: expert-params */
double moe_expert_params(int d_model, int d_ff)
{
    COST_ASSERT(d_model >= 1 && d_ff >= 1 && "need widths");
    return 3.0 * d_model * d_ff; /* SwiGLU: gate, up, down */
}

moe_layer_count moe_layer_params(const moe_shape *s)
{
    COST_ASSERT(s->top_k >= 1 && s->top_k <= s->experts &&
                s->experts_shared >= 0 && "need 1 <= k <= E");
    double expert = moe_expert_params(s->d_model, s->d_ff);
    /* the router scores every expert: d_model x experts */
    double router = (double)s->d_model * s->experts;
    int stored = s->experts + s->experts_shared;
    int used = s->top_k + s->experts_shared;
    moe_layer_count c;
    c.total = stored * expert + router;
    c.active = used * expert + router;
    c.router = router;
    return c;
}
/* endregion: expert-params */

/* ---- Exercise 2.2 ---------------------------------------------------- */

/* region: expert-bytes */
double moe_expert_bytes_per_gpu(const moe_placement *p, int moe_layers, int d_model, int d_ff,
                                double bytes_per_param)
{
    return p->experts_per_gpu * moe_layers * moe_expert_params(d_model, d_ff) * bytes_per_param;
}
/* endregion: expert-bytes */

/* region: placement */
moe_placement moe_place_experts(int experts, int domain_chips)
{
    COST_ASSERT(experts >= 1 && domain_chips >= 1 && "need both");
    moe_placement p;
    p.gpus_used = 1;
    int most = domain_chips < experts ? domain_chips : experts;
    for (int g = most; g >= 1; g--) {
        if (experts % g == 0) { /* splits them evenly */
            p.gpus_used = g;
            break;
        }
    }
    p.experts_per_gpu = experts / p.gpus_used;
    p.gpus_idle = domain_chips - p.gpus_used;
    p.busiest_if_all = (experts + domain_chips - 1) / domain_chips;
    return p;
}
/* endregion: placement */

/* ---- Exercise 2.3 ---------------------------------------------------- */

/* region: a2a-bytes */
double moe_a2a_bytes_per_token(int d_model, int top_k, double act_bytes)
{
    COST_ASSERT(d_model >= 1 && top_k >= 1 && act_bytes > 0.0 &&
                "need positive sizes");
    /* a copy of the token to each of its experts */
    double one_way = (double)top_k * d_model * act_bytes;
    return 2.0 * one_way; /* dispatch and combine */
}
/* endregion: a2a-bytes */

double moe_a2a_remote_fraction(int gpus)
{
    COST_ASSERT(gpus >= 1 && "need a GPU");
    return 1.0 - 1.0 / gpus;
}

/* ---- Exercise 2.4 ---------------------------------------------------- */

const char *moe_bound_name(moe_bound bound)
{
    switch (bound) {
    case MOE_BOUND_COMPUTE:
        return "compute";
    case MOE_BOUND_MEMORY:
        return "memory";
    case MOE_BOUND_NETWORK:
        return "network";
    }
    return "?";
}

/* region: slopes */
/* All GPUs of all racks share the work. */
static double all_gpus(const moe_deploy *d)
{
    COST_ASSERT(d->gpus >= 1 && d->racks >= 1 && "need GPUs");
    return (double)d->gpus * d->racks;
}

/* Seconds of compute each sequence adds to a step. */
static double compute_slope_s(const moe_deploy *d)
{
    double flops = COST_FLOPS_PER_MAC * d->params_active;
    return flops / (all_gpus(d) * d->flops_per_s);
}

/* Seconds of KV fetch each sequence adds to a step. */
static double kv_slope_s(const moe_deploy *d, double context_tokens)
{
    double bytes = context_tokens * d->kv_bytes_per_token;
    return bytes / (all_gpus(d) * d->hbm_bytes_per_s);
}

/* Seconds of all-to-all each sequence adds to a step: its bytes
 * over every MoE layer, spread over all GPUs. Each GPU sends the
 * in-rack share (1/R) over NVLink and the rest over its NIC at
 * the same time, so the slower of the two sets the time. */
static double a2a_slope_s(const moe_deploy *d)
{
    double r = d->racks;
    double per_layer =
        moe_a2a_bytes_per_token(d->d_model, d->top_k, d->act_bytes);
    double bytes = d->moe_layers * per_layer;
    double per_byte_s = 1.0 / (r * d->scaleup_bytes_per_s);
    double cross_s = (r - 1.0) / (r * d->scaleout_bytes_per_s);
    if (d->racks > 1)
        per_byte_s = fmax(per_byte_s, cross_s);
    return bytes / all_gpus(d) * per_byte_s;
}
/* endregion: slopes */

static double weights_s(const moe_deploy *d)
{
    double bytes = d->params_total * d->bytes_per_param;
    return cost_transfer_s(bytes, all_gpus(d) * d->hbm_bytes_per_s);
}

/* region: step */
moe_step moe_step_at(const moe_deploy *d, double batch,
                     double context_tokens)
{
    COST_ASSERT(batch >= 0.0 && context_tokens >= 0.0 &&
                "need non-negative inputs");
    moe_step s;
    s.compute_s = batch * compute_slope_s(d);
    s.weights_s = weights_s(d);
    s.kv_s = batch * kv_slope_s(d, context_tokens);
    s.memory_s = s.weights_s + s.kv_s;
    s.a2a_s = batch * a2a_slope_s(d);
    s.step_s = fmax(fmax(s.compute_s, s.memory_s), s.a2a_s);
    if (s.a2a_s > fmax(s.compute_s, s.memory_s))
        s.bound = MOE_BOUND_NETWORK;
    else if (s.compute_s >= s.memory_s)
        s.bound = MOE_BOUND_COMPUTE;
    else
        s.bound = MOE_BOUND_MEMORY;
    s.a2a_dispatch_s_per_layer = d->moe_layers > 0 ? s.a2a_s / (2.0 * d->moe_layers) : 0.0;
    double gpus = (double)d->racks * d->gpus; /* a step reads it all once */
    s.hbm_bytes = s.memory_s * gpus * d->hbm_bytes_per_s;
    return s;
}
/* endregion: step */

double moe_network_over_compute(const moe_deploy *d)
{
    return a2a_slope_s(d) / compute_slope_s(d);
}

/* region: knee */
moe_knee moe_knee_batch(const moe_deploy *d, double context_tokens)
{
    moe_knee k = {.exists = false, .batch = 0.0};
    double c = compute_slope_s(d), a = a2a_slope_s(d);
    k.after = a > c ? MOE_BOUND_NETWORK : MOE_BOUND_COMPUTE;
    /* max(c, a) B = W + kv B  =>  B = W / (max(c, a) - kv) */
    double net_slope_s = fmax(c, a) - kv_slope_s(d, context_tokens);
    if (net_slope_s <= 0.0)
        return k; /* memory keeps ahead of both other roofs */
    k.exists = true;
    k.batch = weights_s(d) / net_slope_s;
    return k;
}
/* endregion: knee */

/* ---- Exercise 2.5 ---------------------------------------------------- */

/* region: racks */
moe_racks moe_span_racks(int racks, double scaleup_bytes_per_s,
                         double scaleout_bytes_per_s)
{
    COST_ASSERT(racks >= 1 && scaleup_bytes_per_s > 0.0 &&
                scaleout_bytes_per_s > 0.0 && "need bandwidths");
    double r = racks;
    double slower = scaleup_bytes_per_s / scaleout_bytes_per_s;
    moe_racks m;
    m.scaleup_over_scaleout = slower;
    m.cross_fraction = (r - 1.0) / r;
    /* per GPU, the same tokens as in one rack: 1/R of the bytes
     * at W_up, the rest `slower` times as long per byte */
    double in_rack = 1.0 / r, cross = m.cross_fraction * slower;
    m.slowdown_overlap = fmax(in_rack, cross);
    m.slowdown_serial = in_rack + cross;
    return m;
}

moe_link moe_scaleout_for_slowdown(int racks,
                                   double scaleup_bytes_per_s,
                                   double max_slowdown, bool serial)
{
    COST_ASSERT(racks >= 1 && scaleup_bytes_per_s > 0.0 &&
                max_slowdown > 0.0 && "need a bandwidth, a target");
    moe_link l = {.exists = false, .scaleout_bytes_per_s = 0.0};
    double r = racks;
    if (racks == 1) { /* nothing crosses: one rack's time, any link */
        l.exists = max_slowdown >= 1.0;
        return l;
    }
    /* the in-rack 1/R takes its time whatever the link; serial, the
     * cross part gets what it leaves of the target */
    double budget = serial ? max_slowdown - 1.0 / r : max_slowdown;
    if (serial ? budget <= 0.0 : max_slowdown < 1.0 / r)
        return l; /* only an infinitely fast link, or none */
    /* (R - 1)/R * W_up / W_out <= budget */
    l.exists = true;
    l.scaleout_bytes_per_s =
        scaleup_bytes_per_s * (r - 1.0) / (r * budget);
    return l;
}
/* endregion: racks */

/* ---- Exercise 2.6 ---------------------------------------------------- */

/* region: expert-batch */
double moe_tokens_per_expert(double batch, int experts, int top_k)
{
    COST_ASSERT(batch >= 0.0 && top_k >= 1 && top_k <= experts &&
                "need 1 <= k <= E");
    return batch * top_k / experts;
}

double moe_min_batch(double hw_ratio, int experts, int top_k)
{
    COST_ASSERT(hw_ratio > 0.0 && top_k >= 1 && top_k <= experts &&
                "need 1 <= k <= E");
    return hw_ratio * experts / top_k; /* B k / E >= hw_ratio */
}
/* endregion: expert-batch */

/* ---- Exercise 2.7 ---------------------------------------------------- */

/* region: rng */
uint64_t moe_rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint64_t moe_rng_below(uint64_t *state, uint64_t n)
{
    COST_ASSERT(n >= 1 && "need a non-empty range");
    /* 2^64 = q n + rem: the last rem values would favour small
     * results, so draws there are rejected. rem = 2^64 mod n. */
    uint64_t rem = (UINT64_MAX % n + 1) % n;
    uint64_t x;
    do
        x = moe_rng_next(state);
    while (x > UINT64_MAX - rem);
    return x % n;
}
/* endregion: rng */

/* ---- Exercise 2.8 ---------------------------------------------------- */

/* ln P(X = x) for X ~ Binomial(n, p), 0 < p < 1. */
static double binomial_log_pmf(int n, double p, int x)
{
    return lgamma(n + 1.0) - lgamma(x + 1.0) - lgamma(n - x + 1.0) +
           x * log(p) + (n - x) * log1p(-p);
}

static double binomial_pmf(int n, double p, int x)
{
    if (x < 0 || x > n)
        return 0.0;
    if (p <= 0.0)
        return x == 0 ? 1.0 : 0.0;
    if (p >= 1.0)
        return x == n ? 1.0 : 0.0;
    return exp(binomial_log_pmf(n, p, x));
}

/* region: tail */
double moe_binomial_tail(int n, double p, int c)
{
    COST_ASSERT(n >= 0 && p >= 0.0 && p <= 1.0 && "need 0 <= p <= 1");
    if (c < 0)
        return 1.0;
    double sum = 0.0;
    for (int x = n; x > c; x--) /* smallest terms first */
        sum += binomial_pmf(n, p, x);
    return fmin(sum, 1.0);
}
/* endregion: tail */

/* E[(X - cap)+] for one expert's load, from the top down. */
static double expected_excess(int n, double p, int capacity)
{
    double sum = 0.0;
    for (int x = n; x > capacity; x--)
        sum += (x - capacity) * binomial_pmf(n, p, x);
    return sum;
}

/* region: drops */
double moe_expected_drop_fraction(int batch, int experts, int top_k,
                                  int capacity)
{
    COST_ASSERT(batch >= 1 && top_k >= 1 && top_k <= experts &&
                capacity >= 0 && "need a batch and 1 <= k <= E");
    double p = (double)top_k / experts;
    double excess = expected_excess(batch, p, capacity);
    /* every expert's expected excess, over all assignments */
    return experts * excess / ((double)batch * top_k);
}

typedef struct drop_query {
    int batch, experts, top_k;
    double max_drop;
} drop_query;

static bool drops_too_many(long capacity, const void *ctx)
{
    const drop_query *q = ctx;
    double drop = moe_expected_drop_fraction(q->batch, q->experts, q->top_k,
                                             (int)capacity);
    return drop >= q->max_drop;
}

int moe_capacity_for_drop(int batch, int experts, int top_k,
                          double max_drop)
{
    COST_ASSERT(max_drop > 0.0 && max_drop < 1.0 && "need 0 < x < 1");
    drop_query q = {batch, experts, top_k, max_drop};
    /* drops fall as capacity grows: one past the last capacity
     * that drops too many (capacity = batch drops nothing) */
    long last = cost_last_true(drops_too_many, &q, 0, batch);
    return (int)last + 1;
}
/* endregion: drops */

/* region: max-bounds */
moe_max_bounds moe_expected_max_load(int batch, int experts, int top_k)
{
    COST_ASSERT(batch >= 1 && top_k >= 1 && top_k <= experts &&
                "need 1 <= k <= E");
    double p = (double)top_k / experts;
    moe_max_bounds m = {0.0, 0.0, sqrt(batch * p * (1.0 - p))};
    /* E[max] = sum over c >= 0 of P(max > c), with the tail
     * P(X > c) built up from c = batch - 1 down */
    double tail = 0.0;
    for (int c = batch - 1; c >= 0; c--) {
        tail = fmin(1.0, tail + binomial_pmf(batch, p, c + 1));
        /* 1 - (1 - tail)^E, accurate for small tails */
        m.lower += -expm1(experts * log1p(-tail));
        m.upper += fmin(1.0, experts * tail);
    }
    return m;
}
/* endregion: max-bounds */

/* ---- Exercise 2.9 ---------------------------------------------------- */

/* region: route */
void moe_route_batch(uint64_t *rng, int batch, int experts, int top_k,
                     int *load)
{
    COST_ASSERT(batch >= 0 && top_k >= 1 && top_k <= experts &&
                top_k <= MOE_MAX_TOP_K && "need 1 <= k <= E, 64");
    for (int j = 0; j < experts; j++)
        load[j] = 0;
    for (int t = 0; t < batch; t++) {
        /* Floyd: k distinct experts in k draws. For j = E-k..E-1
         * draw e in [0, j]; take e, or j if e is taken already. */
        int chosen[MOE_MAX_TOP_K], n = 0;
        for (int j = experts - top_k; j < experts; j++) {
            int e = (int)moe_rng_below(rng, (uint64_t)j + 1);
            for (int i = 0; i < n; i++)
                if (chosen[i] == e)
                    e = j; /* j is free: earlier picks are < j */
            chosen[n++] = e;
            load[e]++;
        }
    }
}
/* endregion: route */

/* region: simulate */
moe_imbalance moe_simulate(uint64_t seed, int experts, int top_k, int batch,
                           int trials, double capacity_factor)
{
    COST_ASSERT(batch >= 1 && trials >= 1 && capacity_factor >= 0.0 &&
                "need a batch, trials and a factor >= 0");
    moe_imbalance m = {.ok = false};
    int *load = malloc(sizeof *load * (size_t)experts);
    /* seen[x]: how many expert loads equal x, over all trials */
    double *seen = calloc((size_t)batch + 1, sizeof *seen);
    if (load == NULL || seen == NULL) {
        free(load);
        free(seen);
        return m;
    }
    uint64_t rng = seed;
    m.mean_load = moe_tokens_per_expert(batch, experts, top_k);
    double sum_max = 0.0;
    for (int t = 0; t < trials; t++) {
        moe_route_batch(&rng, batch, experts, top_k, load);
        int busiest = 0;
        for (int j = 0; j < experts; j++) {
            busiest = load[j] > busiest ? load[j] : busiest;
            seen[load[j]] += 1.0;
        }
        sum_max += busiest;
    }
    m.max_load_over_mean = sum_max / trials / m.mean_load;

    /* floor(factor x mean), forgiving a product that lands a hair
     * below a whole number (1.15 x 100 = 114.99999999999999) */
    double cap = floor(capacity_factor * m.mean_load * (1 + 1e-9));
    m.capacity = cap < batch ? (int)cap : batch;
    /* dropped(c) = sum over loads x > c of (x - c), from c = B
     * down: each step down adds the count of loads above c */
    double assignments = (double)trials * batch * top_k;
    double dropped = 0.0, above = 0.0;
    int c99 = batch;
    for (int c = batch; c >= 0; c--) {
        if (c == m.capacity)
            m.drop_fraction = dropped / assignments;
        if (dropped / assignments < 0.01)
            c99 = c; /* drops only grow as c falls */
        above += seen[c];
        dropped += above;
    }
    m.capacity_factor_p99 = c99 / m.mean_load;
    m.ok = true;
    free(load);
    free(seen);
    return m;
}
/* endregion: simulate */

/* ---- Exercise 2.10 --------------------------------------------------- */

/* region: capacity */
double moe_domain_hbm_bytes(int chips, double hbm_bytes)
{
    COST_ASSERT(chips >= 1 && hbm_bytes > 0.0 && "need HBM");
    return chips * hbm_bytes;
}

moe_largest moe_largest_model(double domain_hbm_bytes,
                              double bytes_per_param, double hw_ratio,
                              double context_tokens,
                              double kv_bytes_per_token,
                              double params_active)
{
    COST_ASSERT(domain_hbm_bytes > 0.0 && bytes_per_param > 0.0 &&
                hw_ratio > 0.0 && context_tokens >= 0.0 &&
                kv_bytes_per_token >= 0.0 && params_active > 0.0 &&
                "need positive sizes");
    moe_largest m = {.exists = false};
    /* each parameter costs its bytes, plus the caches of the
     * r / N_active sequences it adds to the batch r N / N_active */
    double seqs_per_param = hw_ratio / params_active;
    double kv_per_param =
        seqs_per_param * context_tokens * kv_bytes_per_token;
    double n = domain_hbm_bytes / (bytes_per_param + kv_per_param);
    if (n < params_active)
        return m; /* not even N_active fits with its batch */
    m.exists = true;
    m.params_total = n;
    m.sparsity = n / params_active;
    m.batch = hw_ratio * m.sparsity;
    m.kv_bytes = m.batch * context_tokens * kv_bytes_per_token;
    return m;
}
/* endregion: capacity */

/* ---- Exercise 2.11 --------------------------------------------------- */

/* region: scaling */
/* "64x for 4x": 64^a = 4, so a = ln 4 / ln 64 = 1/3. */
static const double ROUTED_EXPONENT = 1.0 / 3.0;

double moe_dense_equivalent_params(double params_active, double experts)
{
    COST_ASSERT(params_active > 0.0 && experts >= 1.0 && "need both");
    return params_active * pow(experts, ROUTED_EXPONENT);
}

double moe_expert_multiplier(double active_ratio)
{
    COST_ASSERT(active_ratio > 0.0 && active_ratio <= 1.0 &&
                "need 0 < ratio <= 1");
    return pow(1.0 / active_ratio, 1.0 / ROUTED_EXPONENT);
}
/* endregion: scaling */

/* ---- Exercise 2.12 --------------------------------------------------- */

/* 2^53: past it a double no longer holds every whole number. */
static const double MOE_MAX_BATCH = 9007199254740992.0;

static bool positive(double x)
{
    return x > 0.0 && isfinite(x);
}

/* NULL when the query is in range, else why not. */
static const char *layout_query_error(const moe_layout_query *q)
{
    const moe_deploy *m = &q->model;
    if (!positive(m->params_active) || !isfinite(m->params_total) ||
        !(m->params_total >= m->params_active))
        return "the model needs params_total >= params_active > 0";
    if (!positive(m->bytes_per_param) || !positive(m->act_bytes))
        return "bytes per parameter and per activation must be > 0";
    if (!(m->kv_bytes_per_token >= 0.0) || !isfinite(m->kv_bytes_per_token))
        return "KV bytes per token must be >= 0";
    if (m->d_model < 1 || m->moe_layers < 0 || m->top_k < 1 ||
        m->top_k > m->experts)
        return "the layer needs d_model >= 1, moe_layers >= 0, 1 <= k <= E";
    if (!positive(m->flops_per_s) || !positive(m->hbm_bytes_per_s) ||
        !positive(m->scaleup_bytes_per_s))
        return "FLOP/s, HBM and scale-up bandwidths must be > 0";
    if (q->max_racks > 1 && !positive(m->scaleout_bytes_per_s))
        return "more than one rack needs a scale-out bandwidth > 0";
    if (!(q->context_tokens >= 0.0) || !isfinite(q->context_tokens))
        return "the context must be >= 0";
    if (!positive(q->hbm_bytes) || !positive(q->usd_per_gpu_hour) ||
        !positive(q->max_step_s))
        return "HBM, price and latency target must be > 0";
    if (q->domain_chips < 1 || q->max_racks < 1)
        return "a layout needs at least one GPU and one rack";
    return NULL;
}

/* region: layout */
/* region: layout-batch */
/* Does a step of `batch` sequences meet the target, in time and in
 * HBM? The contract's test, exactly. */
static bool layout_fits(const moe_deploy *d, const moe_layout_query *q,
                        double batch)
{
    double weights = d->params_total * d->bytes_per_param;
    double caches = batch * q->context_tokens * d->kv_bytes_per_token;
    double hbm = all_gpus(d) * q->hbm_bytes;
    if (weights + caches > hbm)
        return false;
    moe_step s = moe_step_at(d, batch, q->context_tokens);
    return s.step_s <= q->max_step_s;
}

/* The largest whole batch that fits, or 0. */
static double layout_batch(const moe_deploy *d, const moe_layout_query *q)
{
    double t = q->max_step_s, L = q->context_tokens;
    double room =
        all_gpus(d) * q->hbm_bytes - d->params_total * d->bytes_per_param;
    if (room < 0.0 || weights_s(d) > t)
        return 0.0; /* the weights alone do not fit, in HBM or time */
    /* each roof that grows with the batch caps it, and so does HBM */
    double b = t / fmax(compute_slope_s(d), a2a_slope_s(d));
    double kv_s = kv_slope_s(d, L);
    if (kv_s > 0.0)
        b = fmin(b, (t - weights_s(d)) / kv_s);
    double seq_bytes = L * d->kv_bytes_per_token;
    if (seq_bytes > 0.0)
        b = fmin(b, room / seq_bytes);
    b = fmin(floor(b), MOE_MAX_BATCH);
    if (!(b >= 1.0))
        b = 1.0; /* the loops below decide */
    /* the quotients may land a hair off a whole number: settle it
     * on the test itself */
    while (b >= 1.0 && !layout_fits(d, q, b))
        b -= 1.0;
    while (b >= 1.0 && b < MOE_MAX_BATCH && layout_fits(d, q, b + 1.0))
        b += 1.0;
    return b;
}
/* endregion: layout-batch */

/* region: layout-one */
/* One layout at its largest batch; exists = false if none fits. */
static moe_layout layout_at(const moe_layout_query *q, int racks, int gpus)
{
    moe_layout l = {.exists = false, .why = MOE_LAYOUT_NONE_FITS};
    moe_deploy d = q->model;
    d.racks = racks;
    d.gpus = gpus;
    double b = layout_batch(&d, q);
    if (b < 1.0)
        return l;
    l.exists = true;
    l.why = MOE_LAYOUT_FOUND;
    l.racks = racks;
    l.gpus_per_rack = gpus;
    l.experts_per_gpu = d.experts / (racks * gpus);
    l.batch = b;
    l.step = moe_step_at(&d, b, q->context_tokens);
    l.tokens_per_s = b / l.step.step_s;
    /* the rent of every GPU for one step, over its B tokens */
    double usd_per_s = all_gpus(&d) * q->usd_per_gpu_hour / 3600.0;
    l.usd_per_token = usd_per_s * l.step.step_s / b;
    return l;
}

/* Fewer GPUs in all, then fewer racks. */
static bool smaller(const moe_layout *a, const moe_layout *b)
{
    long ga = (long)a->racks * a->gpus_per_rack;
    long gb = (long)b->racks * b->gpus_per_rack;
    return ga < gb || (ga == gb && a->racks < b->racks);
}
/* endregion: layout-one */

/* region: layout-search */
moe_layout moe_cheapest_layout(const moe_layout_query *q)
{
    moe_layout best = {.exists = false, .why = MOE_LAYOUT_BAD_QUERY};
    if (layout_query_error(q) != NULL)
        return best;
    int experts = q->model.experts;
    double least = INFINITY;
    /* pass 0 finds the least cost; pass 1 the smallest layout
     * within 1e-9 of it */
    for (int pass = 0; pass < 2; pass++) {
        for (int r = 1; r <= q->max_racks && r <= experts; r++) {
            if (experts % r != 0)
                continue;
            int per_rack = experts / r;
            for (int n = 1; n <= q->domain_chips && n <= per_rack; n++) {
                if (per_rack % n != 0)
                    continue; /* not the same experts on each GPU */
                moe_layout l = layout_at(q, r, n);
                if (!l.exists)
                    continue;
                if (pass == 0)
                    least = fmin(least, l.usd_per_token);
                else if (l.usd_per_token <= least * (1 + 1e-9) &&
                         (!best.exists || smaller(&l, &best)))
                    best = l;
            }
        }
    }
    if (!best.exists)
        best.why = MOE_LAYOUT_NONE_FITS;
    return best;
}
/* endregion: layout-search */
/* endregion: layout */
