/*
 * pipelining.c -- Chapter 3 reference solution: rack hops, bubbles, the schedule
 * simulator, the decode loop and memory per GPU.
 *
 * Contract and equations: exercises/03-pipelining/pipelining.h. Everything is a
 * closed form except the simulator, which measures what the closed forms of the
 * bubble predict: the tests hold the two to each other.
 */
#include "pipelining.h"

#include <limits.h>
#include <math.h>

/* ceil() that forgives the last-bit rounding of a quotient meant to be whole, so
 * that 8 / (2 * 2) gives 2 layers and not 3. */
static double whole_ceil(double x)
{
    return ceil(x * (1.0 - 1e-12));
}

/* ---- Exercise 3.1 ------------------------------------------------------------ */

/* region: rack-hop */
double pipelining_scaleup_s(const pipelining_hop *h)
{
    COST_ASSERT(h->chips >= 1 && h->experts_per_token >= 1 && h->layers_per_stage >= 1);
    /* each token goes out to each chosen expert and comes back: 2 crossings */
    double bytes = h->tokens * 2.0 * h->experts_per_token * h->layers_per_stage *
                   h->d_model * h->activation_bytes;
    return cost_transfer_s(bytes, h->chips * h->scaleup_bytes_per_s);
}

double pipelining_scaleout_s(const pipelining_hop *h)
{
    COST_ASSERT(h->chips >= 1 && "need a GPU");
    /* each token's activation crosses to the next rack once */
    double bytes = h->tokens * h->d_model * h->activation_bytes;
    return cost_transfer_s(bytes, h->chips * h->scaleout_bytes_per_s);
}
/* endregion: rack-hop */

/* ---- Exercise 3.2 ------------------------------------------------------------ */

/* region: hop-condition */
double pipelining_hop_ratio(double bandwidth_ratio, int experts_per_token,
                            int layers_per_stage)
{
    COST_ASSERT(bandwidth_ratio > 0.0 && experts_per_token >= 1 && layers_per_stage >= 1);
    return 2.0 * experts_per_token * layers_per_stage / bandwidth_ratio;
}

int pipelining_min_layers_per_stage(double bandwidth_ratio, int experts_per_token)
{
    COST_ASSERT(bandwidth_ratio > 0.0 && experts_per_token >= 1);
    double layers = whole_ceil(bandwidth_ratio / (2.0 * experts_per_token));
    if (layers < 1.0)
        return 1; /* a stage holds at least one layer */
    return layers < (double)INT_MAX ? (int)layers : INT_MAX;
}
/* endregion: hop-condition */

/* ---- Exercise 3.3 ------------------------------------------------------------ */

/* region: bubble */
double pipelining_bubble_fraction(int stages, int microbatches, int chunks)
{
    COST_ASSERT(stages >= 1 && microbatches >= 1 && chunks >= 1);
    /* in units of one chunk's pass: the ideal is v m, the fill and drain p - 1 */
    double ideal = (double)chunks * microbatches;
    return (stages - 1) / (ideal + stages - 1);
}

double pipelining_bubble_over_ideal(int stages, int microbatches, int chunks)
{
    COST_ASSERT(stages >= 1 && microbatches >= 1 && chunks >= 1);
    return (stages - 1) / ((double)chunks * microbatches);
}
/* endregion: bubble */

/* ---- the plan ---------------------------------------------------------------- */

static pipelining_op op_of(int stage, int microbatch, int chunk, pipelining_pass pass)
{
    pipelining_op op = {.stage = stage, .microbatch = microbatch, .chunk = chunk,
                        .pass = pass, .start_s = 0.0, .end_s = 0.0};
    return op;
}

/* ---- Exercise 3.4 ------------------------------------------------------------ */

/* region: gpipe-order */
pipelining_op pipelining_gpipe_op(const pipelining_plan *plan, int stage, int k)
{
    int m = plan->microbatches;
    COST_ASSERT(stage >= 0 && stage < plan->stages && k >= 0 && k < 2 * m);
    if (k < m)
        return op_of(stage, k, 0, PIPELINING_FORWARD);
    return op_of(stage, 2 * m - 1 - k, 0, PIPELINING_BACKWARD); /* m-1 first */
}
/* endregion: gpipe-order */

/* The k-th pass of a one-forward-one-backward order with `warmup` forwards first:
 * forwards and backwards are each numbered 0, 1, ... in the order they run. */
static void one_f_one_b(int total, int warmup, int k, pipelining_pass *pass, int *number)
{
    int steady = total - warmup; /* forward-backward pairs */
    if (k < warmup) {
        *pass = PIPELINING_FORWARD;
        *number = k;
    } else if (k < warmup + 2 * steady) {
        int i = k - warmup;
        *pass = i % 2 == 0 ? PIPELINING_FORWARD : PIPELINING_BACKWARD;
        *number = i % 2 == 0 ? warmup + i / 2 : i / 2;
    } else {
        *pass = PIPELINING_BACKWARD;
        *number = steady + (k - warmup - 2 * steady);
    }
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

/* region: 1f1b-order */
pipelining_op pipelining_1f1b_op(const pipelining_plan *plan, int stage, int k)
{
    int m = plan->microbatches;
    COST_ASSERT(stage >= 0 && stage < plan->stages && k >= 0 && k < 2 * m);
    /* stage s must get p - s - 1 micro-batches ahead before its first backward
     * can arrive from the last stage */
    int warmup = min_int(plan->stages - stage - 1, m);
    pipelining_pass pass;
    int number;
    one_f_one_b(m, warmup, k, &pass, &number);
    return op_of(stage, number, 0, pass);
}
/* endregion: 1f1b-order */

/* ---- Exercise 3.5 ------------------------------------------------------------ */

/* region: interleaved-order */
pipelining_op pipelining_interleaved_op(const pipelining_plan *plan, int stage, int k)
{
    int p = plan->stages, v = plan->chunks, total = plan->microbatches * v;
    COST_ASSERT(stage >= 0 && stage < p && k >= 0 && k < 2 * total);
    int warmup = min_int(2 * (p - stage - 1) + (v - 1) * p, total);
    pipelining_pass pass;
    int j;
    one_f_one_b(total, warmup, k, &pass, &j);
    /* micro-batches in groups of p, each group through chunk 0, 1, ..., v-1 */
    int microbatch = (j / (p * v)) * p + j % p;
    int chunk = (j / p) % v;
    if (pass == PIPELINING_BACKWARD)
        chunk = v - 1 - chunk; /* backwards come down the chunks */
    return op_of(stage, microbatch, chunk, pass);
}
/* endregion: interleaved-order */

/* ---- Exercise 3.6 ------------------------------------------------------------ */

static pipelining_op order_op(const pipelining_plan *plan, int stage, int k)
{
    switch (plan->schedule) {
    case PIPELINING_GPIPE:
        return pipelining_gpipe_op(plan, stage, k);
    case PIPELINING_1F1B:
        return pipelining_1f1b_op(plan, stage, k);
    case PIPELINING_INTERLEAVED:
        break;
    }
    return pipelining_interleaved_op(plan, stage, k);
}

/* region: simulate */
/* Where the pass (mb, virtual stage j, pass) sits in ops[], or NULL. It is looked
 * for in its stage's passes outwards from position `near`: an input usually runs at
 * about the same place in its own stage's order, so the search is short, and any
 * order the order functions produce is still found. */
static const pipelining_op *find_op(const pipelining_plan *plan, const pipelining_op *ops,
                                    int microbatch, int vstage, pipelining_pass pass,
                                    int near)
{
    int per_stage = pipelining_ops_per_stage(plan);
    int stage = vstage % plan->stages, chunk = vstage / plan->stages;
    const pipelining_op *first = ops + (size_t)stage * per_stage;
    for (int d = 0; d < per_stage; d++)
        for (int side = 0; side < 2; side++) {
            int k = side == 0 ? near + d : near - d - 1;
            if (k < 0 || k >= per_stage)
                continue;
            if (first[k].microbatch == microbatch && first[k].chunk == chunk &&
                first[k].pass == pass)
                return first + k;
        }
    return NULL;
}

/* The pass that must end before the k-th pass of its stage, `op`, starts, or NULL
 * when there is none (the first forward of a micro-batch). */
static const pipelining_op *input_of(const pipelining_plan *plan, const pipelining_op *ops,
                                     const pipelining_op *op, int k)
{
    int last = plan->stages * plan->chunks - 1;
    int j = op->chunk * plan->stages + op->stage, mb = op->microbatch;
    if (op->pass == PIPELINING_FORWARD)
        return j == 0 ? NULL : find_op(plan, ops, mb, j - 1, PIPELINING_FORWARD, k);
    if (j == last)
        return find_op(plan, ops, mb, j, PIPELINING_FORWARD, k);
    return find_op(plan, ops, mb, j + 1, PIPELINING_BACKWARD, k);
}

bool pipelining_simulate(const pipelining_plan *plan, pipelining_op *ops, size_t capacity,
                         pipelining_timeline *out)
{
    if (!pipelining_plan_valid(plan))
        return false;
    int p = plan->stages, per_stage = pipelining_ops_per_stage(plan);
    int total = p * per_stage;
    if (capacity < (size_t)total)
        return false;
    double f = plan->forward_s / plan->chunks, b = plan->backward_s / plan->chunks;

    /* lay out every stage's passes in its order, none run yet (end_s < 0) */
    for (int s = 0; s < p; s++)
        for (int k = 0; k < per_stage; k++) {
            pipelining_op *op = ops + (size_t)s * per_stage + k;
            *op = order_op(plan, s, k);
            op->start_s = op->end_s = -1.0;
        }

    /* run: each stage takes its next passes, in order, while their inputs have
     * ended; next[s] counts the passes stage s has run */
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
                op->end_s = op->start_s + (op->pass == PIPELINING_FORWARD ? f : b);
            }
        }
        if (progress == 0)
            return false; /* every stage waits on another: a deadlock */
    }

    /* measure: makespan, and activations held (forward start to backward end) */
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
    out->ops = total;
    out->makespan_s = makespan;
    out->busy_s = plan->microbatches * (plan->forward_s + plan->backward_s);
    out->bubble_fraction = 1.0 - out->busy_s / makespan;
    out->bubble_over_ideal = makespan / out->busy_s - 1.0;
    out->peak_microbatches_in_flight = peak;
    return true;
}
/* endregion: simulate */

/* ---- Exercise 3.7 ------------------------------------------------------------ */

/* region: decode-loop */
double pipelining_decode_token_s(int stages, double stage_s, double hop_s)
{
    COST_ASSERT(stages >= 1 && stage_s > 0.0 && hop_s >= 0.0);
    /* P stages and P hops: the last hop brings the new token back to stage 0 */
    return stages * (stage_s + hop_s);
}

int pipelining_decode_microbatches(int stages, double stage_s, double hop_s)
{
    double loop_s = pipelining_decode_token_s(stages, stage_s, hop_s);
    double m = whole_ceil(loop_s / stage_s);
    return m < (double)INT_MAX ? (int)m : INT_MAX;
}
/* endregion: decode-loop */

/* ---- Exercise 3.8 ------------------------------------------------------------ */

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
    return sequences * m->context_tokens * m->kv_bytes_per_token /
           ((double)m->chips * m->stages);
}

pipelining_fit pipelining_min_stages_to_fit(const pipelining_memory *m, double hbm_bytes)
{
    COST_ASSERT(hbm_bytes > 0.0 && m->chips >= 1 && "need HBM and GPUs");
    pipelining_fit fit = {.exists = false, .stages = 0};
    /* with M = P micro-batches the KV per GPU does not depend on P */
    double kv = m->microbatch_seqs * m->context_tokens * m->kv_bytes_per_token / m->chips;
    double room = hbm_bytes - kv;
    if (room <= 0.0)
        return fit; /* the KV cache alone overflows: no P helps */
    double stages = whole_ceil(m->weight_bytes / (m->chips * room));
    if (stages >= (double)INT_MAX)
        return fit;
    fit.exists = true;
    fit.stages = stages < 1.0 ? 1 : (int)stages;
    return fit;
}
/* endregion: capacity */
