/*
 * pipelining.c -- Chapter 3 reference solution: rack hops, bubbles, the
 * schedule simulator, the decode loop and memory per GPU.
 *
 * Contract and equations: exercises/03-pipelining/pipelining.h. Everything
 * is a closed form except the simulator, which measures what the closed
 * forms of the bubble predict: the tests hold the two to each other. The
 * regions the book prints are kept within 76 columns, so that no listing
 * wraps. */
#include "pipelining.h"

#include <limits.h>
#include <math.h>

/* The smallest whole number at or above x, where an x within a relative
 * 1e-9 of a whole number counts as that number (the contract's rounding
 * rule): 7 * 5e-3 / 5e-3 is 7.000000000000001, and 7 micro-batches, not 8.
 */
static double whole_ceil(double x)
{
    double near = round(x);
    if (fabs(x - near) <= 1e-9 * fabs(x))
        return near;
    return ceil(x);
}

/* The largest whole number at or below x, where an x within a relative
 * 1e-9 of a whole number counts as that number (the contract's rounding
 * rule, rounding down). */
static double whole_floor(double x)
{
    double near = round(x);
    if (fabs(x - near) <= 1e-9 * fabs(x))
        return near;
    return floor(x);
}

/* x as an int, saturating at INT_MAX (a cast of a larger double is
 * undefined). */
static int int_of(double x)
{
    return x < (double)INT_MAX ? (int)x : INT_MAX;
}

/* ---- Exercise 3.1 ---------------------------------------------------- */

/* region: rack-hop */
double pipelining_scaleup_s(const pipelining_hop *h)
{
    COST_ASSERT(h->chips >= 1 && h->experts_per_token >= 1);
    COST_ASSERT(h->layers_per_stage >= 1 && "a stage holds a layer");
    /* out to each chosen expert and back, in every layer: 2 k l */
    double crossings = 2.0 * h->experts_per_token * h->layers_per_stage;
    double token_bytes = h->d_model * h->activation_bytes;
    double bytes = h->tokens * crossings * token_bytes;
    return cost_transfer_s(bytes, h->chips * h->scaleup_bytes_per_s);
}

double pipelining_scaleout_s(const pipelining_hop *h)
{
    COST_ASSERT(h->chips >= 1 && "need a GPU");
    /* each token's activation crosses to the next rack once */
    double bytes = h->tokens * h->d_model * h->activation_bytes;
    return cost_transfer_s(bytes, h->chips * h->scaleout_bytes_per_s);
}

double pipelining_alltoall_bytes_per_s(double scaleup_bytes_per_s,
                                       double bisection_bytes_per_s,
                                       int chips)
{
    COST_ASSERT(scaleup_bytes_per_s > 0.0 && chips >= 1);
    COST_ASSERT(bisection_bytes_per_s >= 0.0 && "0: a switched network");
    /* switched (bisection 0): the bisection never binds */
    if (bisection_bytes_per_s == 0.0)
        return scaleup_bytes_per_s;
    /* half the chips send half their bytes across the cut: n D / 4 bytes
     * through bisection_bytes_per_s, so each chip's D goes at 4 W / n */
    double cut = 4.0 * bisection_bytes_per_s / chips;
    return fmin(scaleup_bytes_per_s, cut);
}
/* endregion: rack-hop */

/* ---- Exercise 3.2 ---------------------------------------------------- */

/* region: hop-condition */
double pipelining_hop_ratio(double bandwidth_ratio, int experts_per_token,
                            int layers_per_stage)
{
    COST_ASSERT(bandwidth_ratio > 0.0 && experts_per_token >= 1);
    COST_ASSERT(layers_per_stage >= 1 && "a stage holds a layer");
    double k = experts_per_token, layers = layers_per_stage;
    return 2.0 * k * layers / bandwidth_ratio;
}

int pipelining_min_layers_per_stage(double bandwidth_ratio,
                                    int experts_per_token)
{
    COST_ASSERT(bandwidth_ratio > 0.0 && experts_per_token >= 1);
    double k = experts_per_token;
    double layers = whole_ceil(bandwidth_ratio / (2.0 * k));
    if (layers < 1.0)
        return 1; /* a stage holds at least one layer */
    return int_of(layers);
}
/* endregion: hop-condition */

/* ---- Exercise 3.3 ---------------------------------------------------- */

/* region: bubble */
double pipelining_bubble_fraction(int stages, int microbatches, int chunks)
{
    COST_ASSERT(stages >= 1 && microbatches >= 1 && chunks >= 1);
    /* in slots of one chunk's pass: ideal v m, fill and drain p - 1 */
    double ideal = (double)chunks * microbatches;
    return (stages - 1) / (ideal + stages - 1);
}

double pipelining_bubble_over_ideal(int stages, int microbatches,
                                    int chunks)
{
    COST_ASSERT(stages >= 1 && microbatches >= 1 && chunks >= 1);
    return (stages - 1) / ((double)chunks * microbatches);
}

double pipelining_speedup(int stages, int microbatches, int chunks)
{
    /* the P stages do the work of P(1 - f) stages that never idle */
    double idle = pipelining_bubble_fraction(stages, microbatches, chunks);
    return stages * (1 - idle);
}
/* endregion: bubble */

/* ---- passes -----------------------------------------------------------
 */

static pipelining_op op_of(int stage, int microbatch, int chunk,
                           pipelining_pass pass)
{
    pipelining_op op = {.stage = stage,
                        .microbatch = microbatch,
                        .chunk = chunk,
                        .pass = pass,
                        .start_s = 0.0,
                        .end_s = 0.0};
    return op;
}

/* ---- Exercise 3.4 ---------------------------------------------------- */

/* region: gpipe-order */
pipelining_op pipelining_gpipe_op(const pipelining_plan *plan, int stage,
                                  int index)
{
    int m = plan->microbatches;
    COST_ASSERT(stage >= 0 && stage < plan->stages);
    COST_ASSERT(index >= 0 && index < 2 * m && "a stage runs 2m passes");
    if (index < m)
        return op_of(stage, index, 0, PIPELINING_FORWARD);
    int last_first = 2 * m - 1 - index; /* backwards from the last */
    return op_of(stage, last_first, 0, PIPELINING_BACKWARD);
}
/* endregion: gpipe-order */

/* The pass at position `index` of a one-forward-one-backward order with
 * `warmup` forwards first: forwards and backwards are each numbered 0, 1,
 * ... in the order they run. */
static void one_f_one_b(int total, int warmup, int index,
                        pipelining_pass *pass, int *number)
{
    int steady = total - warmup; /* forward-backward pairs */
    if (index < warmup) {
        *pass = PIPELINING_FORWARD;
        *number = index;
    } else if (index < warmup + 2 * steady) {
        int i = index - warmup;
        *pass = i % 2 == 0 ? PIPELINING_FORWARD : PIPELINING_BACKWARD;
        *number = i % 2 == 0 ? warmup + i / 2 : i / 2;
    } else {
        *pass = PIPELINING_BACKWARD;
        *number = steady + (index - warmup - 2 * steady);
    }
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

/* region: 1f1b-order */
pipelining_op pipelining_1f1b_op(const pipelining_plan *plan, int stage,
                                 int index)
{
    int m = plan->microbatches;
    COST_ASSERT(stage >= 0 && stage < plan->stages);
    COST_ASSERT(index >= 0 && index < 2 * m && "a stage runs 2m passes");
    /* stage s gets p - s - 1 forwards ahead: the time for its first
     * backward to come back from the last stage */
    int warmup = min_int(plan->stages - stage - 1, m);
    pipelining_pass kind;
    int number;
    one_f_one_b(m, warmup, index, &kind, &number);
    return op_of(stage, number, 0, kind);
}
/* endregion: 1f1b-order */

/* ---- Exercise 3.5 ---------------------------------------------------- */

/* region: interleaved-order */
pipelining_op pipelining_interleaved_op(const pipelining_plan *plan,
                                        int stage, int index)
{
    int p = plan->stages, v = plan->chunks;
    int total = plan->microbatches * v; /* chunk passes of each kind */
    COST_ASSERT(stage >= 0 && stage < p);
    COST_ASSERT(index >= 0 && index < 2 * total);
    int warmup = min_int(2 * (p - stage - 1) + (v - 1) * p, total);
    pipelining_pass kind;
    int j;
    one_f_one_b(total, warmup, index, &kind, &j);
    /* micro-batches in groups of p, each group through chunks 0..v-1 */
    int microbatch = (j / (p * v)) * p + j % p;
    int chunk = (j / p) % v;
    if (kind == PIPELINING_BACKWARD)
        chunk = v - 1 - chunk; /* backwards come down the chunks */
    return op_of(stage, microbatch, chunk, kind);
}
/* endregion: interleaved-order */

/* ---- Exercise 3.6 ---------------------------------------------------- */

static pipelining_op order_op(const pipelining_plan *plan, int stage,
                              int index)
{
    if (plan->schedule == PIPELINING_GPIPE)
        return pipelining_gpipe_op(plan, stage, index);
    if (plan->schedule == PIPELINING_1F1B)
        return pipelining_1f1b_op(plan, stage, index);
    return pipelining_interleaved_op(plan, stage, index);
}

/* region: simulate */
/* region: simulate-inputs */
/* The pass (mb, virtual stage j, pass) in ops[], or NULL. It is sought in
 * its stage's passes outwards from position `near`: an input usually runs
 * at about the same place in its own stage's order, so the search is short,
 * whatever order the order functions produce. */
static const pipelining_op *find_op(const pipelining_plan *plan,
                                    const pipelining_op *ops, int mb, int j,
                                    pipelining_pass pass, int near)
{
    int per_stage = pipelining_ops_per_stage(plan);
    int stage = j % plan->stages, chunk = j / plan->stages;
    const pipelining_op *first = ops + (size_t)stage * per_stage;
    for (int d = 0; d < per_stage; d++)
        for (int side = 0; side < 2; side++) {
            int k = side == 0 ? near + d : near - d - 1;
            if (k < 0 || k >= per_stage)
                continue;
            const pipelining_op *o = first + k;
            if (o->microbatch == mb && o->chunk == chunk && o->pass == pass)
                return o;
        }
    return NULL;
}

/* The pass that must end before `op`, the k-th pass of its stage, can
 * start; NULL for the first forward of a micro-batch. */
static const pipelining_op *input_of(const pipelining_plan *plan,
                                     const pipelining_op *ops,
                                     const pipelining_op *op, int k)
{
    int last = plan->stages * plan->chunks - 1;
    int j = op->chunk * plan->stages + op->stage, mb = op->microbatch;
    pipelining_pass forward = PIPELINING_FORWARD;
    if (op->pass == forward)
        return j == 0 ? NULL : find_op(plan, ops, mb, j - 1, forward, k);
    if (j == last)
        return find_op(plan, ops, mb, j, forward, k);
    return find_op(plan, ops, mb, j + 1, PIPELINING_BACKWARD, k);
}
/* endregion: simulate-inputs */

/* region: simulate-run */
bool pipelining_simulate(const pipelining_plan *plan, pipelining_op *ops,
                         size_t capacity, pipelining_timeline *out)
{
    if (!pipelining_plan_valid(plan))
        return false;
    int p = plan->stages, per_stage = pipelining_ops_per_stage(plan);
    int total = p * per_stage;
    if (capacity < (size_t)total)
        return false;
    double f = plan->forward_s / plan->chunks;
    double b = plan->backward_s / plan->chunks;

    /* every stage's passes in its order, none run yet (end_s < 0) */
    for (int s = 0; s < p; s++)
        for (int k = 0; k < per_stage; k++) {
            pipelining_op *op = ops + (size_t)s * per_stage + k;
            *op = order_op(plan, s, k);
            op->start_s = op->end_s = -1.0;
        }

    /* run: each stage runs its next passes, in order, while their inputs
     * have ended; next[s] counts the passes stage s has run */
    int next[PIPELINING_MAX_STAGES] = {0};
    int done = 0;
    while (done < total) {
        int progress = 0;
        for (int s = 0; s < p; s++) {
            pipelining_op *first = ops + (size_t)s * per_stage;
            for (; next[s] < per_stage; next[s]++, done++, progress++) {
                int k = next[s];
                pipelining_op *op = first + k;
                const pipelining_op *in = input_of(plan, ops, op, k);
                if (in != NULL && in->end_s < 0.0)
                    break; /* the stage waits for this pass's input */
                double ready = k > 0 ? first[k - 1].end_s : 0.0;
                op->start_s = in != NULL ? fmax(ready, in->end_s) : ready;
                double length = op->pass == PIPELINING_FORWARD ? f : b;
                op->end_s = op->start_s + length;
            }
        }
        if (progress == 0)
            return false; /* every stage waits on another: a deadlock */
    }
    /* endregion: simulate-run */

    /* region: simulate-measure */
    /* measure: the makespan, and the activations each stage holds, from a
     * forward's start to its backward's end */
    double makespan = 0.0, peak = 0.0;
    for (int s = 0; s < p; s++) {
        const pipelining_op *first = ops + (size_t)s * per_stage;
        int held = 0;
        for (int k = 0; k < per_stage; k++) {
            makespan = fmax(makespan, first[k].end_s);
            if (first[k].pass == PIPELINING_FORWARD)
                peak = fmax(peak, (double)++held / plan->chunks);
            else
                held--;
        }
    }
    double pair_s = plan->forward_s + plan->backward_s;
    double busy = plan->microbatches * pair_s;
    out->ops = total;
    out->makespan_s = makespan;
    out->busy_s = busy;
    out->idle_s = makespan - busy;
    out->bubble_fraction = 1.0 - busy / makespan;
    out->bubble_over_ideal = makespan / busy - 1.0;
    out->peak_microbatches_in_flight = peak;
    return true;
}
/* endregion: simulate-measure */
/* endregion: simulate */

/* ---- Exercise 3.7 ---------------------------------------------------- */

/* region: decode-loop */
double pipelining_decode_token_s(int stages, double stage_s, double hop_s)
{
    COST_ASSERT(stages >= 1 && stage_s > 0.0 && hop_s >= 0.0);
    if (stages == 1)
        return stage_s; /* one rack: no network to cross */
    /* P stages, P hops: the last hop takes the token back to stage 0 */
    return stages * (stage_s + hop_s);
}

int pipelining_decode_microbatches(int stages, double stage_s, double hop_s)
{
    double loop_s = pipelining_decode_token_s(stages, stage_s, hop_s);
    return int_of(whole_ceil(loop_s / stage_s));
}

pipelining_decode_loop pipelining_decode_loop_at(int stages, double step_s,
                                                 double hop_s,
                                                 double microbatch_seqs)
{
    pipelining_decode_loop l;
    l.stage_s = step_s / stages;
    l.token_s = pipelining_decode_token_s(stages, l.stage_s, hop_s);
    l.hops_s = l.token_s - step_s;
    l.microbatches = pipelining_decode_microbatches(stages, l.stage_s, hop_s);
    l.sequences_in_flight = l.microbatches * microbatch_seqs;
    /* the last stage hands back a micro-batch every stage_s; one more
     * than the trip needs waits in front of a stage: latency, not tokens */
    l.tokens_per_s = microbatch_seqs / l.stage_s;
    return l;
}
/* endregion: decode-loop */

/* ---- Exercise 3.8 ---------------------------------------------------- */

/* region: capacity */
double pipelining_weight_bytes_per_gpu(const pipelining_memory *m)
{
    COST_ASSERT(m->chips >= 1 && m->stages >= 1 && "need GPUs");
    return m->weight_bytes / ((double)m->chips * m->stages);
}

double pipelining_kv_bytes_per_gpu(const pipelining_memory *m)
{
    COST_ASSERT(m->chips >= 1 && m->stages >= 1 && "need GPUs");
    double sequences = (double)m->microbatches * m->microbatch_seqs;
    double bytes = sequences * m->context_tokens * m->kv_bytes_per_token;
    return bytes / ((double)m->chips * m->stages);
}

pipelining_fit pipelining_min_stages_to_fit(const pipelining_memory *m,
                                            double hbm_bytes)
{
    COST_ASSERT(hbm_bytes > 0.0 && m->chips >= 1 && "need HBM and GPUs");
    pipelining_fit fit = {.exists = false, .stages = 0};
    /* with M = P micro-batches the KV per GPU does not depend on P */
    double seq_bytes = m->context_tokens * m->kv_bytes_per_token;
    double kv = m->microbatch_seqs * seq_bytes / m->chips;
    if (m->weight_bytes == 0.0 && kv <= hbm_bytes) {
        fit.exists = true; /* no weights to spread: one stage holds the KV */
        fit.stages = 1;
        return fit;
    }
    double room = hbm_bytes - kv;
    if (room <= 0.0)
        return fit; /* the KV cache fills the HBM: no P helps */
    double stages = whole_ceil(m->weight_bytes / (m->chips * room));
    if (stages >= (double)INT_MAX)
        return fit;
    fit.exists = true;
    fit.stages = stages < 1.0 ? 1 : (int)stages;
    return fit;
}
/* endregion: capacity */

/* ---- Exercise 3.9 ---------------------------------------------------- */

/* region: split */
pipelining_split pipelining_best_split(const pipelining_deployment *d)
{
    COST_ASSERT(d->layers >= 1 && d->chips >= 1 && d->max_stages >= 1);
    COST_ASSERT(d->step_s > 0.0 && d->hop_s >= 0.0 && d->hbm_bytes > 0.0);
    COST_ASSERT(d->min_layers_per_stage >= 1 && d->microbatch_seqs > 0.0);
    pipelining_split none = {.exists = false};
    int most = d->max_stages < d->layers ? d->max_stages : d->layers;
    double seq_kv_bytes = d->context_tokens * d->kv_bytes_per_token;
    for (int p = 1; p <= most; p++) {
        int emptiest = d->layers / p, fullest = (d->layers + p - 1) / p;
        if (p > 1 && emptiest < d->min_layers_per_stage)
            break; /* thinner still for every larger p */
        /* the fullest stage: the largest share of everything, and the
         * busiest, so it sets the pace of the loop */
        double share = (double)fullest / d->layers;
        double loop_s = d->step_s + (p > 1 ? p * d->hop_s : 0.0);
        int m = int_of(whole_ceil(loop_s / (share * d->step_s)));
        double kv = m * d->microbatch_seqs * seq_kv_bytes;
        double bytes = share * (d->weight_bytes + kv) / d->chips;
        if (bytes > d->hbm_bytes * (1.0 + 1e-9))
            continue; /* a larger p may still fit, or may not */
        pipelining_split s = {.exists = true,
                              .stages = p,
                              .max_layers_per_stage = fullest,
                              .microbatches = m,
                              .token_s = loop_s,
                              .bytes_per_gpu = bytes};
        return s;
    }
    return none;
}
/* endregion: split */

/* ---- Exercise 3.10 --------------------------------------------------- */

/* region: balance */
/* True when the layers can be cut into at most `stages` runs of at most
 * limit_ns each: a run takes layers while the next one fits, which uses
 * the fewest runs. */
static bool fits_in_stages(const long long *layer_ns, int layers,
                           int stages, long long limit_ns)
{
    int runs = 1;
    long long run_ns = 0;
    for (int i = 0; i < layers; i++) {
        if (layer_ns[i] > limit_ns)
            return false; /* a layer is never cut */
        if (run_ns + layer_ns[i] > limit_ns) {
            runs++;
            run_ns = 0;
        }
        run_ns += layer_ns[i];
    }
    return runs <= stages;
}

pipelining_cuts pipelining_balanced_cuts(const long long *layer_ns,
                                         int layers, int stages,
                                         int *first_layer)
{
    pipelining_cuts none = {.exists = false, .slowest_stage_ns = 0};
    if (layers < 1 || stages < 1 || stages > layers)
        return none;
    long long lo = 1, hi = 0;
    for (int i = 0; i < layers; i++) {
        COST_ASSERT(layer_ns[i] >= 1 && "a layer takes time");
        hi += layer_ns[i];
    }
    /* a limit that fits stays fitting as it grows: bisect for the least */
    while (lo < hi) {
        long long mid = lo + (hi - lo) / 2;
        if (fits_in_stages(layer_ns, layers, stages, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    /* the ties: each stage as full as the limit allows, leaving a layer
     * for each stage after it; what is left still fits the rest */
    int next = 0;
    for (int s = 0; s < stages; s++) {
        int last_free = layers - (stages - s - 1);
        first_layer[s] = next;
        long long stage_ns = 0;
        while (next < last_free && stage_ns + layer_ns[next] <= lo)
            stage_ns += layer_ns[next++];
    }
    pipelining_cuts cuts = {.exists = true, .slowest_stage_ns = lo};
    return cuts;
}
/* endregion: balance */

/* ---- Exercise 3.11 --------------------------------------------------- */

/* region: max-microbatch */
pipelining_batch pipelining_max_microbatch(const pipelining_memory *m,
                                           double hbm_bytes, double step_s,
                                           double hop_s)
{
    COST_ASSERT(m->stages >= 1 && m->chips >= 1 && hbm_bytes > 0.0);
    COST_ASSERT(m->kv_bytes_per_token > 0.0 && m->context_tokens > 0.0);
    COST_ASSERT(step_s > 0.0 && hop_s >= 0.0 && m->weight_bytes >= 0.0);
    pipelining_batch none = {.exists = false};
    int p = m->stages;
    double gpus = (double)m->chips * p;
    /* the weights: 1/P of them on each stage, over its n GPUs */
    double room = hbm_bytes - m->weight_bytes / gpus;
    /* the loop: enough micro-batches to cover every stage and hop */
    int mb = pipelining_decode_microbatches(p, step_s / p, hop_s);
    /* the cache: 1/P of every sequence's, for all mb micro-batches */
    double seq_bytes = m->context_tokens * m->kv_bytes_per_token / gpus;
    double seqs = whole_floor(room / (mb * seq_bytes));
    if (!(seqs >= 1.0))
        return none; /* not one sequence a micro-batch fits */
    pipelining_batch b = {.exists = true,
                          .microbatches = mb,
                          .microbatch_seqs = seqs,
                          .sequences_in_flight = mb * seqs};
    return b;
}
/* endregion: max-microbatch */
