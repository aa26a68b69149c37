/*
 * pipelining.h -- Chapter 3: pipelining across racks, and why "pipelining is not wise".
 *
 * The contract for chapter 3. You implement these functions in
 * exercises/03-pipelining/pipelining.c; the tests in tests/03-pipelining/ check them,
 * and the reference in solutions/03-pipelining/pipelining.c is what the book's numbers
 * and Gantt charts come from. Read chapters/03-pipelining.md alongside.
 *
 * A model is cut along its layers into `stages` pipeline stages, one rack (a
 * scale-up domain of `chips` GPUs) each; inside a rack the experts are spread over
 * the GPUs (expert parallelism). Four questions, four groups of functions:
 *
 *   rack hop      is the scale-out link at a stage boundary a bottleneck?
 *   bubbles       how much of a training batch is idle, in closed form and measured
 *                 by a schedule simulator (GPipe, 1F1B, interleaved 1F1B)
 *   decode loop   what the hops between racks add to a decode step, and how many
 *                 micro-batches keep every stage busy
 *   capacity      bytes per GPU of weights and KV cache against the number of stages
 *
 * All quantities are SI doubles: seconds, bytes, bytes/s. Counts of stages,
 * micro-batches, chunks, layers and experts are ints.
 */
#ifndef CHALK_PIPELINING_H
#define CHALK_PIPELINING_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "cost.h"

/* ---- Exercise 3.1 (*) rack_hop: traffic inside and between racks --------- §3.2 */

/* One decode (or forward) step of `tokens` tokens through one pipeline stage: a
 * rack of `chips` GPUs holding `layers_per_stage` MoE layers, its experts spread
 * over the GPUs. Each token visits `experts_per_token` routed experts per layer:
 * its activation (d_model elements) goes out to each chosen expert's GPU and the
 * result comes back (dispatch and combine). At the end of the stage each token's
 * activation crosses once to the next rack over the scale-out network. */
typedef struct pipelining_hop {
    double tokens;               /* tokens in the step (the batch) */
    double d_model;              /* width of the residual stream, elements */
    double activation_bytes;     /* bytes per activation element (2 in bf16) */
    int experts_per_token;       /* routed experts each token visits per layer */
    int layers_per_stage;        /* MoE layers in one stage (one rack) */
    int chips;                   /* GPUs of the rack sharing the traffic */
    double scaleup_bytes_per_s;  /* per GPU, one direction (NVLink) */
    double scaleout_bytes_per_s; /* per GPU, one direction (NIC) */
} pipelining_hop;

/* Seconds the stage's dispatch and combine traffic keeps the scale-up network busy:
 *   tokens * 2 * experts_per_token * layers_per_stage * d_model * activation_bytes
 *   / (chips * scaleup_bytes_per_s).
 * Preconditions: every field positive. */
double pipelining_scaleup_s(const pipelining_hop *h);

/* Seconds the hop to the next rack keeps the scale-out network busy:
 *   tokens * d_model * activation_bytes / (chips * scaleout_bytes_per_s).
 * Preconditions: every field positive. */
double pipelining_scaleout_s(const pipelining_hop *h);

/* ---- Exercise 3.2 (**) hop_condition: when the hop is not the bottleneck -- §3.2 */

/* Scale-up time over scale-out time at a stage boundary, the lecture's ratio:
 *   2 * experts_per_token * layers_per_stage / bandwidth_ratio,
 * where bandwidth_ratio = scale-up bandwidth / scale-out bandwidth per GPU (about 8
 * in the lecture). Tokens, d_model and bytes cancel. At 1 or more the rack hop is
 * not the bottleneck. Preconditions: all arguments positive. */
double pipelining_hop_ratio(double bandwidth_ratio, int experts_per_token,
                            int layers_per_stage);

/* The fewest whole layers per stage for which pipelining_hop_ratio is at least 1:
 * the smallest integer >= bandwidth_ratio / (2 * experts_per_token), and at least 1
 * (a stage holds at least one layer). Exact when the quotient is a whole number.
 * Preconditions: bandwidth_ratio > 0, experts_per_token >= 1. */
int pipelining_min_layers_per_stage(double bandwidth_ratio, int experts_per_token);

/* ---- Exercise 3.3 (*) bubble: the closed forms ---------------------------- §3.5 */

/* The bubble of a pipelined training batch: `stages` stages, `microbatches`
 * micro-batches, `chunks` model chunks per stage (1 for GPipe and 1F1B; v > 1 for
 * the interleaved schedule). Two conventions, both dimensionless:
 *
 * The idle share of the total time (GPipe's convention):
 *   (stages - 1) / (chunks * microbatches + stages - 1).
 * Preconditions: stages >= 1, microbatches >= 1, chunks >= 1. */
double pipelining_bubble_fraction(int stages, int microbatches, int chunks);

/* Idle time over the ideal (bubble-free) compute time (Megatron's convention):
 *   (stages - 1) / (chunks * microbatches).
 * Preconditions as for pipelining_bubble_fraction. */
double pipelining_bubble_over_ideal(int stages, int microbatches, int chunks);

/* The stages' speedup over one stage: `stages` stages that idle a bubble_fraction of
 * the time do the work of stages * (1 - bubble_fraction) stages that never idle.
 * Preconditions as for pipelining_bubble_fraction. */
double pipelining_speedup(int stages, int microbatches, int chunks);

/* ---- Exercises 3.4-3.6: the schedule simulator ---------------------------- §3.5 */

typedef enum pipelining_schedule {
    PIPELINING_GPIPE,       /* all forwards, a hard stop, all backwards */
    PIPELINING_1F1B,        /* warm up, then one forward one backward, cool down */
    PIPELINING_INTERLEAVED, /* 1F1B over `chunks` model chunks per stage */
} pipelining_schedule;

typedef enum pipelining_pass { PIPELINING_FORWARD, PIPELINING_BACKWARD } pipelining_pass;

/* A training batch to schedule. Stage s, chunk c holds the layers of virtual stage
 * c * stages + s (Megatron's interleaving): a micro-batch's forward runs through
 * virtual stages 0, 1, ..., chunks * stages - 1, wrapping round the stages `chunks`
 * times, and its backward runs back down. One chunk's pass takes forward_s / chunks
 * or backward_s / chunks; sending activations between stages is free. */
typedef struct pipelining_plan {
    pipelining_schedule schedule;
    int stages;        /* p >= 1 */
    int microbatches;  /* m >= 1; interleaved: a multiple of stages */
    int chunks;        /* v: 1 for GPipe and 1F1B, >= 2 for interleaved */
    double forward_s;  /* one micro-batch's forward through a whole stage, > 0 */
    double backward_s; /* one micro-batch's backward through a whole stage, > 0 */
} pipelining_plan;

/* One pass of one micro-batch through one chunk of one stage. The order functions
 * fill stage, microbatch, chunk and pass; the simulator adds start_s and end_s. */
typedef struct pipelining_op {
    int stage;
    int microbatch;
    int chunk;
    pipelining_pass pass;
    double start_s;
    double end_s;
} pipelining_op;

/* The most stages a plan may have (the simulator keeps one counter per stage). */
#define PIPELINING_MAX_STAGES 1024

/* True when the plan can be scheduled: 1 <= stages <= PIPELINING_MAX_STAGES,
 * microbatches >= 1, both times > 0, chunks == 1 for GPipe and 1F1B, and for
 * interleaved chunks >= 2 and microbatches a positive multiple of stages; and no
 * more than INT_MAX / 2 passes in all. (Given: not an exercise.) */
static inline bool pipelining_plan_valid(const pipelining_plan *plan)
{
    if (plan->stages < 1 || plan->stages > PIPELINING_MAX_STAGES)
        return false;
    if (plan->microbatches < 1 || plan->chunks < 1)
        return false;
    if (!(plan->forward_s > 0.0) || !(plan->backward_s > 0.0))
        return false;
    if (2.0 * plan->stages * plan->microbatches * plan->chunks > INT_MAX / 2)
        return false;
    switch (plan->schedule) {
    case PIPELINING_GPIPE:
    case PIPELINING_1F1B:
        return plan->chunks == 1;
    case PIPELINING_INTERLEAVED:
        return plan->chunks >= 2 && plan->microbatches % plan->stages == 0;
    }
    return false;
}

/* Passes each stage runs: 2 * microbatches * chunks, a forward and a backward of
 * every micro-batch through every chunk. (Given.) */
static inline int pipelining_ops_per_stage(const pipelining_plan *plan)
{
    return 2 * plan->microbatches * plan->chunks;
}

/* ---- Exercise 3.4 (**) schedule_order: GPipe and 1F1B --------------------- §3.5 */

/* The k-th pass (k = 0, 1, ..., 2 * microbatches - 1) that stage `stage` runs under
 * GPipe: the forwards of micro-batches 0 .. m-1 in order, then the backwards in
 * reverse order, m-1 .. 0 (the order of GPipe's figure 2). chunk is 0; start_s and
 * end_s are 0. Preconditions: plan valid, schedule GPipe, 0 <= stage < stages,
 * 0 <= k < 2 * microbatches. */
pipelining_op pipelining_gpipe_op(const pipelining_plan *plan, int stage, int k);

/* The k-th pass that stage `stage` runs under 1F1B (PipeDream-Flush): a warm-up of
 * w = min(stages - stage - 1, microbatches) forwards, then pairs of one forward and
 * one backward until every forward has run, then the w remaining backwards.
 * Micro-batches run forward and backward in increasing order. chunk is 0.
 * Preconditions: plan valid, schedule 1F1B, 0 <= stage < stages,
 * 0 <= k < 2 * microbatches. */
pipelining_op pipelining_1f1b_op(const pipelining_plan *plan, int stage, int k);

/* ---- Exercise 3.5 (***) interleaved_order: Megatron's interleaved 1F1B ----- §3.5 */

/* The k-th pass that stage `stage` runs under the interleaved schedule of
 * Narayanan et al. (2021), as Megatron-LM orders it. A stage's forwards are
 * numbered j = 0, 1, ..., m*v - 1 and run micro-batches in groups of `stages`:
 *   chunk(j) = (j / stages) % chunks,
 *   microbatch(j) = (j / (stages * chunks)) * stages + j % stages;
 * its backwards are numbered the same way but visit the chunks in reverse,
 *   chunk = chunks - 1 - (j / stages) % chunks.
 * Warm-up: w = min(2 * (stages - stage - 1) + (chunks - 1) * stages, m * v)
 * forwards, then pairs of one forward and one backward, then the w remaining
 * backwards. Preconditions: plan valid, schedule interleaved, 0 <= stage < stages,
 * 0 <= k < 2 * microbatches * chunks. */
pipelining_op pipelining_interleaved_op(const pipelining_plan *plan, int stage, int k);

/* ---- Exercise 3.6 (***) simulate: the timeline and the measured bubble ---- §3.5 */

/* What the simulation measured. */
typedef struct pipelining_timeline {
    int ops;                  /* passes simulated: stages * ops_per_stage */
    double makespan_s;        /* from the first forward's start to the last end */
    double busy_s;            /* work per stage: microbatches * (forward + backward) */
    double idle_s;            /* idle per stage: makespan_s - busy_s */
    double bubble_fraction;   /* idle share of stages * makespan: 1 - busy / makespan */
    double bubble_over_ideal; /* idle time over busy time: makespan / busy - 1 */
    double peak_microbatches_in_flight; /* most micro-batch activations any stage holds
                                           at once, counting a chunk as 1/chunks */
} pipelining_timeline;

/* Runs the plan's schedule on a simulated pipeline. Each stage runs its passes in the
 * order of the schedule's order function; a pass starts as soon as its stage is free
 * and its input is ready:
 *   forward of (mb, virtual stage j)  after the forward of (mb, j - 1), if j > 0;
 *   backward of (mb, j)               after the backward of (mb, j + 1), or for the
 *                                     last virtual stage after its own forward.
 * A micro-batch's activations for a chunk are held from the start of its forward to
 * the end of its backward. Writes every pass into ops[0 .. stages * ops_per_stage - 1],
 * stage by stage, each stage's passes in the order it runs them, with start_s and
 * end_s (the first forward starts at 0), and the summary into *out.
 * Returns false, writing nothing into *out, when the plan is not valid, `capacity`
 * is smaller than the passes to write, or the order deadlocks (no stage can run its
 * next pass). */
bool pipelining_simulate(const pipelining_plan *plan, pipelining_op *ops, size_t capacity,
                         pipelining_timeline *out);

/* ---- Exercise 3.7 (**) decode_loop: hops and micro-batches in decode ------ §4.3 */

/* Seconds between two tokens of one sequence when its decode step runs through
 * `stages` racks, each taking stage_s per micro-batch, with a network hop of hop_s
 * after every stage (the last hop returns the new token to stage 0):
 *   stages * (stage_s + hop_s).
 * Preconditions: stages >= 1, stage_s > 0, hop_s >= 0. */
double pipelining_decode_token_s(int stages, double stage_s, double hop_s);

/* The fewest micro-batches that keep every stage busy in decode: each micro-batch
 * loops round all stages and hops once per token, so a stage sees it once per
 * stages * (stage_s + hop_s) seconds and must have work for all of that time:
 *   ceil(stages * (stage_s + hop_s) / stage_s),
 * which is `stages` when hop_s is 0. Exact when the quotient is whole.
 * Preconditions: stages >= 1, stage_s > 0, hop_s >= 0. */
int pipelining_decode_microbatches(int stages, double stage_s, double hop_s);

/* A decode step of `step_s` on one rack, spread over `stages` racks with a hop of
 * `hop_s` after each stage, `microbatch_seqs` sequences a micro-batch: */
typedef struct pipelining_decode_loop {
    double stage_s;             /* step_s / stages: each stage holds 1/P of the layers */
    double token_s;             /* pipelining_decode_token_s: a token's trip round the loop */
    double hops_s;              /* token_s - step_s: what the hops add */
    int microbatches;           /* pipelining_decode_microbatches */
    double sequences_in_flight; /* microbatches * microbatch_seqs */
    double tokens_per_s;        /* sequences_in_flight / token_s, all racks */
} pipelining_decode_loop;

/* Preconditions: stages >= 1, step_s > 0, hop_s >= 0, microbatch_seqs >= 0. */
pipelining_decode_loop pipelining_decode_loop_at(int stages, double step_s, double hop_s,
                                                 double microbatch_seqs);

/* ---- Exercise 3.8 (**) capacity: what pipelining does to memory per GPU --- §4.4 */

/* A decode deployment: `stages` racks of `chips` GPUs. The weights are spread
 * evenly over all stages * chips GPUs; so is the KV cache of the `microbatches`
 * micro-batches of `microbatch_seqs` sequences in flight (each stage keeps its own
 * layers' share of every sequence's cache). */
typedef struct pipelining_memory {
    double weight_bytes;       /* all parameters times bytes per parameter */
    double kv_bytes_per_token; /* KV cache per token of context, all layers */
    double context_tokens;     /* tokens of context per sequence */
    double microbatch_seqs;    /* sequences per micro-batch (the batch of one step) */
    int microbatches;          /* micro-batches in flight */
    int chips;                 /* GPUs per stage (the expert-parallel extent) */
    int stages;                /* pipeline stages */
} pipelining_memory;

/* Weight bytes each GPU holds: weight_bytes / (chips * stages).
 * Preconditions: chips >= 1, stages >= 1. */
double pipelining_weight_bytes_per_gpu(const pipelining_memory *m);

/* KV-cache bytes each GPU holds:
 *   microbatches * microbatch_seqs * context_tokens * kv_bytes_per_token
 *   / (chips * stages).
 * With microbatches == stages (decode, no hop latency) the stages cancel. */
double pipelining_kv_bytes_per_gpu(const pipelining_memory *m);

/* The fewest stages whose GPUs, each holding hbm_bytes, fit the weights and the KV
 * cache of a decode loop with microbatches == stages, or the reason there is none. */
typedef struct pipelining_fit {
    bool exists; /* false when the KV cache alone overflows the GPUs of one stage */
    int stages;  /* the fewest stages that fit; 0 when !exists */
} pipelining_fit;

/* Solves weight_bytes / (chips * P) + microbatch_seqs * context_tokens *
 * kv_bytes_per_token / chips <= hbm_bytes for the smallest whole P >= 1 (the
 * `stages` and `microbatches` fields of *m are ignored). When the KV term alone is
 * at least hbm_bytes no number of stages fits: pipelining divides the weights, not
 * the KV cache. Preconditions: hbm_bytes > 0, chips >= 1. */
pipelining_fit pipelining_min_stages_to_fit(const pipelining_memory *m, double hbm_bytes);

#endif /* CHALK_PIPELINING_H */
