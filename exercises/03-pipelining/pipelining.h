/*
 * pipelining.h -- Chapter 3: pipelining across racks, and why "pipelining
 * is not wise".
 *
 * The contract for chapter 3. You implement these functions in
 * exercises/03-pipelining/pipelining.c; the tests in tests/03-pipelining/
 * check them. Read the chapter alongside: each function names the section
 * of the book that derives what it computes, by its number in chalk.pdf
 * and its title (chapters/03-pipelining.md's headings carry no numbers).
 *
 * A model is cut along its layers into `stages` pipeline stages, one rack
 * (a scale-up domain of `chips` GPUs) each; inside a rack the experts are
 * spread over the GPUs (expert parallelism). Six questions, six groups of
 * functions:
 *
 *   rack hop     is the scale-out link at a stage boundary a bottleneck?
 *   bubbles      how much of a training batch is idle, in closed form and
 *                measured by a schedule simulator (GPipe, 1F1B and more)
 *   decode loop  what the hops between racks add to a decode step, and how
 *                many micro-batches keep every stage busy
 *   capacity     bytes per GPU of weights and KV cache against the stages
 *   split        the fewest racks a model can be served on, by search,
 *                and the cut of layers of unequal cost that makes the
 *                slowest stage as fast as it can be
 *   micro-batch  the largest micro-batch a decode loop on given racks
 *                can hold at a given context
 *
 * All quantities are SI doubles: seconds, bytes, bytes/s. Counts of stages,
 * micro-batches, chunks, layers and experts are ints. Every pointer
 * parameter points to one object, except `ops` of pipelining_simulate,
 * whose length is `capacity`.
 *
 * Rounding. Where a count is the smallest whole number at or above a
 * quotient, the quotient can be whole in exact arithmetic and land a hair
 * above it in floating point (7 * 5e-3 / 5e-3 is 7.000000000000001). Such a
 * count treats a quotient within a relative 1e-9 of a whole number as that
 * whole number, then rounds up; each function below says where this
 * applies. */
#ifndef CHALK_PIPELINING_H
#define CHALK_PIPELINING_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "cost.h"

/* ---- Exercise 3.1 (*) rack_hop: traffic in and between racks ------ */

/* One decode (or forward) step of `tokens` tokens through one pipeline
 * stage: a rack of `chips` GPUs holding `layers_per_stage` MoE layers, its
 * experts spread over the GPUs. Each token visits `experts_per_token`
 * routed experts per layer: its activation (d_model elements) goes out to
 * each chosen expert's GPU and the result comes back (dispatch and
 * combine). At the end of the stage each token's activation crosses once to
 * the next rack over the scale-out network. */
typedef struct pipelining_hop {
    /* tokens in the step (the batch) */
    double tokens;
    /* width of the residual stream, elements */
    double d_model;
    /* bytes per activation element (2 in bf16) */
    double activation_bytes;
    /* routed experts each token visits per layer */
    int experts_per_token;
    /* MoE layers in one stage (one rack) */
    int layers_per_stage;
    /* GPUs of the rack sharing the traffic */
    int chips;
    /* per GPU, one direction: the rate its all-to-all sends at (NVLink;
     * on a torus, pipelining_alltoall_bytes_per_s) */
    double scaleup_bytes_per_s;
    /* per GPU, one direction (its network card) */
    double scaleout_bytes_per_s;
} pipelining_hop;

/* Seconds the stage's all-to-all traffic (dispatch and combine, to each
 * routed expert a token visits, in every layer of the stage) keeps the
 * rack's scale-up network busy, all `chips` GPUs sending at once: the
 * scale-up time of §3.2 (Is a rack hop a bottleneck?). Every field but
 * scaleout_bytes_per_s is read. Preconditions: every field positive. */
double pipelining_scaleup_s(const pipelining_hop *h);

/* Seconds the hop to the next rack (each token's activation leaving the
 * rack once) keeps the rack's scale-out network busy, all `chips` GPUs
 * sending at once: the scale-out time of
 * §3.2 (Is a rack hop a bottleneck?). experts_per_token,
 * layers_per_stage and scaleup_bytes_per_s are not read. Preconditions: every field positive. */
double pipelining_scaleout_s(const pipelining_hop *h);

/* The rate, bytes/s per chip and direction, at which each of `chips` chips
 * sends its share of a uniform all-to-all among them: the all-to-all rate
 * of §3.2.1 (When the scale-up network is a torus), its own scale-up
 * bandwidth scaleup_bytes_per_s unless the network's bisection carries
 * less, in which case its share of what the bisection carries.
 * bisection_bytes_per_s is what crosses the narrowest cut of the chips into
 * two halves, in one direction; 0 means a switched network whose bisection
 * never binds (an NVLink rack: the rate is scaleup_bytes_per_s; a
 * convention of this contract, not the section's).
 * Preconditions: scaleup_bytes_per_s > 0,
 * bisection_bytes_per_s >= 0, chips >= 1. */
double pipelining_alltoall_bytes_per_s(double scaleup_bytes_per_s,
                                       double bisection_bytes_per_s,
                                       int chips);

/* ---- Exercise 3.2 (*) hop_condition: when the hop is hidden ------- */

/* Scale-up time over scale-out time at a stage boundary: the ratio of the
 * two times of Exercise 3.1, as §3.2 (Is a rack hop a bottleneck?)
 * reduces it to the arguments below (the section shows why nothing else
 * about the step is needed). bandwidth_ratio is the gap between the
 * networks, scale-up over scale-out bandwidth per GPU (the lecture's 8).
 * Dimensionless. At 1 or more the rack hop is not the bottleneck. Preconditions:
 * bandwidth_ratio > 0, experts_per_token >= 1, layers_per_stage >= 1. */
double pipelining_hop_ratio(double bandwidth_ratio, int experts_per_token,
                            int layers_per_stage);

/* The fewest whole layers per stage for which pipelining_hop_ratio is at
 * least 1 (a ratio of exactly 1 is enough), the condition of
 * §3.2 (Is a rack hop a bottleneck?), and never fewer than 1: a stage
 * holds a layer. Rounding as in the file's header: bandwidth_ratio is
 * often a quotient of two bandwidths. Preconditions: bandwidth_ratio > 0,
 * experts_per_token >= 1. */
int pipelining_min_layers_per_stage(double bandwidth_ratio,
                                    int experts_per_token);

/* ---- Exercise 3.3 (*) bubble: the closed forms ------------------ */

/* The bubble of a pipelined training batch: `stages` stages, `microbatches`
 * micro-batches, `chunks` model chunks per stage (1 for GPipe and 1F1B;
 * more for the interleaved schedule), §3.4.1 (The bubble of GPipe) and
 * §3.4.3 (Interleaved stages). Two conventions, both dimensionless and both
 * 0 for one stage; with chunks > 1 each counts the fill and drain in
 * passes of one chunk, as §3.4.3 (Interleaved stages) does.
 *
 * The idle share of the total time (GPipe's convention): a stage's idle
 * time over the batch's time, §3.4.1 (The bubble of GPipe) for one chunk,
 * §3.4.3 (Interleaved stages) for more.
 * Preconditions: stages >= 1, microbatches >= 1, chunks >= 1. */
double pipelining_bubble_fraction(int stages, int microbatches, int chunks);

/* Idle time over the ideal (bubble-free) compute time (Megatron's
 * convention), the same sections: by how much the batch is slower than a
 * bubble-free one, minus one. Unbounded as microbatches shrink, where
 * pipelining_bubble_fraction stays below 1.
 * Preconditions as for pipelining_bubble_fraction. */
double pipelining_bubble_over_ideal(int stages, int microbatches,
                                    int chunks);

/* The stages' throughput over one stage's, dimensionless: the model of
 * the reality check of §3.4.3 (Interleaved stages), which holds it against
 * GPipe's measured throughput; with chunks > 1 the stages' busy share is
 * the one left by pipelining_bubble_fraction with the same chunks (the
 * section states the model for one chunk). 1 for one stage.
 * Preconditions as for pipelining_bubble_fraction. */
double pipelining_speedup(int stages, int microbatches, int chunks);

/* ---- Exercises 3.4-3.6: the schedule simulator ----------------------- */

typedef enum pipelining_schedule {
    /* all forwards, a hard stop, all backwards */
    PIPELINING_GPIPE,
    /* warm up, then one forward one backward, cool down */
    PIPELINING_1F1B,
    /* 1F1B over `chunks` model chunks per stage */
    PIPELINING_INTERLEAVED,
} pipelining_schedule;

typedef enum pipelining_pass {
    PIPELINING_FORWARD,
    PIPELINING_BACKWARD
} pipelining_pass;

/* A training batch to schedule. Stage `stage`, chunk `chunk` holds the
 * layers of virtual stage
 *   j = chunk * stages + stage
 * (Megatron's interleaving): a micro-batch's forward runs through the
 * virtual stages in increasing order, wrapping round the stages `chunks`
 * times, and its backward runs back down. One chunk's pass takes
 * forward_s / chunks or backward_s / chunks; sending activations between
 * stages is free. */
typedef struct pipelining_plan {
    pipelining_schedule schedule;
    int stages;       /* P >= 1 */
    int microbatches; /* M >= 1; interleaved: a multiple of stages */
    int chunks;       /* v: 1 for GPipe and 1F1B, >= 2 for interleaved */
    /* one micro-batch's forward through a whole stage, > 0 */
    double forward_s;
    /* one micro-batch's backward through a whole stage, > 0 */
    double backward_s;
} pipelining_plan;

/* One pass of one micro-batch through one chunk of one stage. The order
 * functions fill stage, microbatch, chunk and pass; the simulator adds
 * start_s and end_s. */
typedef struct pipelining_op {
    int stage;
    int microbatch;
    int chunk;
    pipelining_pass pass;
    double start_s;
    double end_s;
} pipelining_op;

/* The most stages a plan may have (the simulator keeps one counter per
 * stage). */
#define PIPELINING_MAX_STAGES 1024

/* True when the plan can be scheduled: stages from 1 to
 * PIPELINING_MAX_STAGES, microbatches >= 1, both times > 0, chunks == 1
 * for GPipe and 1F1B, and for interleaved chunks >= 2 and microbatches a
 * positive multiple of stages; and no more than INT_MAX / 2 passes in all.
 * (Given: not an exercise.) */
static inline bool pipelining_plan_valid(const pipelining_plan *plan)
{
    if (plan->stages < 1 || plan->stages > PIPELINING_MAX_STAGES)
        return false;
    if (plan->microbatches < 1 || plan->chunks < 1)
        return false;
    if (!(plan->forward_s > 0.0) || !(plan->backward_s > 0.0))
        return false;
    double passes = 2.0 * plan->stages * plan->microbatches * plan->chunks;
    if (passes > INT_MAX / 2)
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

/* Passes each stage runs: a forward and a backward of every micro-batch
 * through every chunk, 2 * microbatches * chunks. (Given.) */
static inline int pipelining_ops_per_stage(const pipelining_plan *plan)
{
    return 2 * plan->microbatches * plan->chunks;
}

/* ---- Exercise 3.4 (**) schedule_order: GPipe and 1F1B ----------- */

/* The pass that stage `stage` runs at position `index` of its order
 * (index 0 is its first pass) under GPipe, §3.4.1 (The bubble of GPipe):
 * every forward, in increasing order of micro-batch, then, after the hard
 * stop, every backward, the last micro-batch's first (the order of GPipe's
 * figure 2). chunk is 0; start_s and end_s are 0. Preconditions: plan
 * valid, schedule GPipe, and
 *   0 <= stage < stages,   0 <= index < 2 * microbatches. */
pipelining_op pipelining_gpipe_op(const pipelining_plan *plan, int stage,
                                  int index);

/* The same under 1F1B (PipeDream-Flush), §3.4.2 (A schedule simulator):
 * each stage runs a warm-up of forwards only, then alternately one forward
 * and one backward (the forward first) until every forward has run, then
 * the backwards that are left. Forwards run in increasing order of
 * micro-batch, and so do backwards. The same section derives the length
 * of each stage's warm-up: the forwards it runs before its steady phase
 * begins. The steady phase opens with a forward, so a stage runs one
 * forward more than its warm-up before its first backward (unless the
 * warm-up has taken every micro-batch). A stage never warms up with more
 * forwards than there are micro-batches. chunk is 0; start_s and end_s
 * are 0. Preconditions: plan valid, schedule 1F1B, and
 *   0 <= stage < stages,   0 <= index < 2 * microbatches. */
pipelining_op pipelining_1f1b_op(const pipelining_plan *plan, int stage,
                                 int index);

/* ---- Exercise 3.5 (**) interleaved_order: Megatron's order ------ */

/* The pass that stage `stage` runs at position `index` of its order under
 * the interleaved schedule of Narayanan et al. (2021), as Megatron-LM
 * orders it, §3.4.3 (Interleaved stages). A stage's forwards take the
 * micro-batches in groups of `stages` consecutive ones: the first group
 * through chunk 0, the same group through chunk 1, and so on to the last
 * chunk, then the next group. Its backwards take the same groups in the
 * same order, each through the chunks in reverse (the last chunk first).
 * The three phases are 1F1B's, over the microbatches * chunks passes of
 * each kind, with the longer warm-up the same section gives, never more
 * than microbatches * chunks forwards. start_s and end_s are 0.
 * Preconditions: plan valid, schedule interleaved, and
 *   0 <= stage < stages,   0 <= index < 2 * microbatches * chunks. */
pipelining_op pipelining_interleaved_op(const pipelining_plan *plan,
                                        int stage, int index);

/* ---- Exercise 3.6 (***) simulate: the timeline, the bubble ------ */

/* What the simulation measured. */
typedef struct pipelining_timeline {
    /* passes simulated: stages * pipelining_ops_per_stage(plan) */
    int ops;
    /* from the first forward's start to the last pass's end */
    double makespan_s;
    /* work per stage: a forward and a backward of every micro-batch
     * through the whole stage */
    double busy_s;
    /* idle per stage: makespan_s - busy_s */
    double idle_s;
    /* idle share of the stages' time: 1 - busy_s / makespan_s */
    double bubble_fraction;
    /* idle time over busy time: makespan_s / busy_s - 1 */
    double bubble_over_ideal;
    /* most micro-batch activations any stage holds at once, counting a
     * chunk's as 1 / chunks of a micro-batch's */
    double peak_microbatches_in_flight;
} pipelining_timeline;

/* Runs the plan's schedule on a simulated pipeline,
 * §3.4.2 (A schedule simulator). Each stage runs its passes in the order
 * of the schedule's order function; a pass starts as soon as its stage
 * has ended the pass before it and its input has ended:
 *   forward of (mb, virtual stage j)   after the forward of (mb, j - 1),
 *                                      if j > 0;
 *   backward of (mb, j)                after the backward of (mb, j + 1),
 *                                      or, on the last virtual stage,
 *                                      after its own forward.
 * The first forward starts at 0. A micro-batch's activations for a chunk
 * are held from the start of its forward to the end of its backward, the
 * end excluded: [start, end). At a tie, release comes first: a backward
 * that ends at the instant its stage's next forward starts has freed its
 * activations before that forward takes its own, so the two are never
 * held at once.
 *
 * Buffers: `plan` and `out` point to one object each; `ops` to an array of
 * `capacity` elements (a count of pipelining_op, not bytes). With
 *   n = stages * pipelining_ops_per_stage(plan)
 * a run that succeeds writes exactly ops[0 .. n-1], stage by stage (stage
 * 0's passes first), each
 * stage's passes in the order it runs them, with start_s and end_s, and the
 * summary into *out, and returns true. Returns false, writing nothing into
 * *out, when the plan is not valid or capacity < n (then nothing is written
 * into ops either), or when the order deadlocks: no stage can run its next
 * pass (ops[0 .. n-1] may then hold a partial timeline). Nothing at or past
 * ops[n] is ever written. */
bool pipelining_simulate(const pipelining_plan *plan, pipelining_op *ops,
                         size_t capacity, pipelining_timeline *out);

/* ---- Exercise 3.7 (*) decode_loop: hops and micro-batches --------- */

/* Seconds between two tokens of one sequence when its decode step runs
 * through `stages` racks, each taking stage_s per micro-batch: one trip
 * round the loop of §3.5 (Decode is a loop), stages and hops in series.
 * The hops are counted as that section counts them, the hop that returns
 * the new token to stage 0 included; one stage crosses no network, so it
 * has no hop at all, whatever hop_s is.
 * Preconditions: stages >= 1, stage_s > 0, hop_s >= 0. */
double pipelining_decode_token_s(int stages, double stage_s, double hop_s);

/* The fewest whole micro-batches in flight that keep every stage busy in
 * decode, with the hops of pipelining_decode_token_s (none for one stage):
 * the count of §3.5 (Decode is a loop), rounded up to a whole number.
 * Boundary: it is `stages` when hop_s is 0.
 * Rounding as in the file's header: a quotient that is whole in exact
 * arithmetic counts as whole.
 * Preconditions: stages >= 1, stage_s > 0, hop_s >= 0. */
int pipelining_decode_microbatches(int stages, double stage_s,
                                   double hop_s);

/* A decode step of `step_s` on one rack, spread over `stages` racks with a hop of
 * `hop_s` after each stage, `microbatch_seqs` sequences a micro-batch: */
typedef struct pipelining_decode_loop {
    /* seconds one stage spends on one micro-batch's step: its share of
     * step_s, each stage holding an equal share of the layers, as in
     * §3.5 (Decode is a loop) */
    double stage_s;
    /* seconds between two tokens of one sequence: one trip round the loop,
     * as pipelining_decode_token_s counts it */
    double token_s;
    /* seconds the network hops add to a token, against the one-rack step */
    double hops_s;
    /* micro-batches in flight, as pipelining_decode_microbatches counts them */
    int microbatches;
    /* sequences decoding at once, all racks */
    double sequences_in_flight;
    /* tokens per second the whole pipeline produces, all sequences, once the
     * loop is full: the rate §3.5 (Decode is a loop) derives, a new token
     * for each sequence of every micro-batch the last stage hands back; the
     * hops do not change it (micro-batches beyond those that keep every
     * stage busy only wait, and add nothing) */
    double tokens_per_s;
} pipelining_decode_loop;

/* The decode loop of `stages` racks, field by field, §3.5 (Decode is a
 * loop). With one stage there is no hop, and hops_s is 0.
 * Preconditions: stages >= 1, step_s > 0, hop_s >= 0, microbatch_seqs >= 0. */
pipelining_decode_loop pipelining_decode_loop_at(int stages, double step_s, double hop_s,
                                                 double microbatch_seqs);

/* ---- Exercise 3.8 (**) capacity: memory per GPU ------------------- */

/* A decode deployment: `stages` racks of `chips` GPUs, with `microbatches`
 * micro-batches of `microbatch_seqs` sequences in flight. What each GPU
 * holds of its bytes is the model of §3.6 (The capacity equation). */
typedef struct pipelining_memory {
    /* bytes of the whole model's weights: all parameters times bytes per
     * parameter */
    double weight_bytes;
    /* bytes of KV cache one sequence keeps per token of its context, all
     * layers */
    double kv_bytes_per_token;
    /* tokens of context per sequence */
    double context_tokens;
    /* sequences per micro-batch (the batch of one step) */
    double microbatch_seqs;
    /* micro-batches in flight */
    int microbatches;
    /* GPUs per stage (the expert-parallel extent) */
    int chips;
    /* pipeline stages (racks) */
    int stages;
} pipelining_memory;

/* Bytes of weights each GPU of the deployment holds, §3.6 (The capacity
 * equation). Preconditions: chips >= 1, stages >= 1. */
double pipelining_weight_bytes_per_gpu(const pipelining_memory *m);

/* Bytes of KV cache each GPU of the deployment holds, all the sequences
 * in flight counted, §3.6 (The capacity equation). Preconditions:
 * chips >= 1, stages >= 1, the rest >= 0. */
double pipelining_kv_bytes_per_gpu(const pipelining_memory *m);

/* The fewest stages whose GPUs, each holding hbm_bytes, fit the weights and
 * the KV cache of a decode loop without hop latency, or the statement that
 * there is none. */
typedef struct pipelining_fit {
    bool exists; /* false when no number of stages fits */
    int stages;  /* the fewest stages that fit; 0 when !exists */
} pipelining_fit;

/* The fewest whole stages, >= 1, for which each GPU's weights and KV
 * cache, as §3.6 (The capacity equation) counts them, fit in hbm_bytes (a
 * total of exactly hbm_bytes fits), with the micro-batches in flight that
 * a decode loop without hop latency needs on those stages, as
 * pipelining_decode_microbatches counts them with hop_s 0; the `stages`
 * and `microbatches` fields of *m are ignored. The same section also says
 * when no number of stages fits: then exists is false and stages 0, as
 * they are when the fewest stages would not fit in an int. Tolerance:
 * the KV cache per GPU is compared with hbm_bytes exactly, with no
 * tolerance (a KV cache of exactly hbm_bytes leaves no room for weights,
 * and any room left, however small, counts as room); the only tolerance
 * is the rounding of the number of stages, as in the file's header. With weight_bytes 0: one stage when
 * the KV cache fits (exactly hbm_bytes fits), no answer when it does not.
 * Preconditions: hbm_bytes > 0, chips >= 1, the rest of *m >= 0. */
pipelining_fit pipelining_min_stages_to_fit(const pipelining_memory *m,
                                            double hbm_bytes);

/* ---- Exercise 3.9 (**) split: the fewest racks for a model -------- */

/* A model to serve in decode on identical racks,
 * §3.7 (The best split of a model over racks). Its `layers` layers hold
 * equal shares of the weights, of every sequence's KV cache and of a
 * decode step's time. */
typedef struct pipelining_deployment {
    /* layers of the model, >= 1 */
    int layers;
    /* all parameters times bytes per parameter, > 0 */
    double weight_bytes;
    /* KV cache per token of context, all layers, >= 0 */
    double kv_bytes_per_token;
    /* tokens of context per sequence, >= 0 */
    double context_tokens;
    /* sequences per micro-batch, > 0 */
    double microbatch_seqs;
    /* GPUs per rack (per stage), >= 1 */
    int chips;
    /* HBM per GPU, > 0 */
    double hbm_bytes;
    /* one micro-batch's decode step through every layer on one rack, > 0 */
    double step_s;
    /* one network hop between racks, >= 0 */
    double hop_s;
    /* the fewest layers that hide a stage's hop (Exercise 3.2), >= 1 */
    int min_layers_per_stage;
    /* racks available, >= 1 */
    int max_stages;
} pipelining_deployment;

/* The split found, or the statement that there is none. */
typedef struct pipelining_split {
    /* false when no number of stages is allowed and fits */
    bool exists;
    /* P, the fewest stages allowed that fit; 0 if !exists */
    int stages;
    /* layers of the fullest stage; 0 if !exists */
    int max_layers_per_stage;
    /* micro-batches in flight; 0 if !exists */
    int microbatches;
    /* seconds between two tokens of one sequence; 0 if !exists */
    double token_s;
    /* weights and KV cache on a GPU of the fullest stage; 0 if !exists */
    double bytes_per_gpu;
} pipelining_split;

/* The fewest stages P a decode deployment can be served on (fewer racks,
 * fewer hops), §3.7 (The best split of a model over racks): the smallest
 * P that meets every condition below.
 *   - P is a whole number from 1 to max_stages, and no more than layers;
 *   - the layers are cut into P stages of whole layers as evenly as
 *     possible (the fullest holding at most one layer more than the
 *     emptiest);
 *   - with two or more stages every stage, the emptiest too, holds at
 *     least min_layers_per_stage layers (its hop stays hidden); one stage
 *     has no hop;
 *   - in flight are the fewest whole micro-batches that keep the busiest
 *     stage always busy round the decode loop of §3.5 (Decode is a loop),
 *     with a hop after every stage when P >= 2, rounded as in the file's
 *     header;
 *   - each GPU of the fullest stage holds its share of that stage's
 *     layers' weights and KV cache, as §3.6 (The capacity equation)
 *     counts them, and that total fits in hbm_bytes: a total of exactly hbm_bytes
 *     fits (compare with a relative tolerance of 1e-9, since the shares
 *     are quotients).
 * Outputs: the fields of pipelining_split for that P, token_s the time
 * of one trip round the loop. No answer (exists false, every other field
 * 0) when no P meets every condition.
 * Preconditions: as in the struct's comments. */
pipelining_split pipelining_best_split(const pipelining_deployment *d);

/* ---- Exercise 3.10 (***) balance: layers of unequal cost ----------- */

/* The cut found, or the statement that there is none. */
typedef struct pipelining_cuts {
    /* false when no cut exists (see below) */
    bool exists;
    /* the slowest stage's time of the cut, ns; 0 if !exists */
    long long slowest_stage_ns;
} pipelining_cuts;

/* Cuts a model's `layers` layers into `stages` pipeline stages,
 * §3.7.1 (Layers of unequal cost). Layer i takes layer_ns[i] nanoseconds
 * of a decode step. Each stage holds a run of consecutive layers, at
 * least one: stage 0 the first run, stage 1 the next, and so on, every
 * layer on exactly one stage. A stage's time is the sum of its layers'.
 *
 * Returns the cut whose slowest stage is the fastest any cut allows
 * (slowest_stage_ns, the least over every cut of its largest stage time)
 * and writes first_layer[s], the index of stage s's first layer, for
 * s = 0 .. stages - 1 (so first_layer[0] is 0).
 * Ties: among the cuts with that least slowest stage, the one whose stage
 * 0 holds the most layers; among those, the one whose stage 1 holds the
 * most; and so on.
 * No answer (exists false, slowest_stage_ns 0, nothing written into
 * first_layer) when layers < 1, stages < 1, or stages > layers.
 *
 * Sizes: the tests cut up to 1,000 layers into up to 32 stages, and a
 * test run gets 2 seconds (CHALK_TIMEOUT); 126 layers have C(125, 15)
 * cuts into 16 stages.
 * Preconditions: layer_ns points to `layers` values, each >= 1, whose
 * sum fits in a long long; first_layer to `stages` ints. */
pipelining_cuts pipelining_balanced_cuts(const long long *layer_ns,
                                         int layers, int stages,
                                         int *first_layer);

/* ---- Exercise 3.11 (**) max_microbatch: the micro-batch that fits ---- */

/* The largest micro-batch a pipelined decode can hold, or the statement
 * that not one sequence fits. */
typedef struct pipelining_batch {
    /* false when not one whole sequence a micro-batch fits */
    bool exists;
    /* micro-batches in flight; 0 if !exists */
    int microbatches;
    /* the most whole sequences a micro-batch can hold; 0 if !exists */
    double microbatch_seqs;
    /* sequences decoding at once, all micro-batches; 0 if !exists */
    double sequences_in_flight;
} pipelining_batch;

/* A model decodes on m->stages racks of m->chips GPUs, each GPU with
 * hbm_bytes of HBM; a decode step takes step_s on one rack, and a hop
 * between racks hop_s. Every stage is to be kept busy round the decode
 * loop of §3.5 (Decode is a loop), hops included and rounded as there;
 * every stage holds an equal share of the layers. Returns the largest
 * whole number of sequences per micro-batch for which every GPU holds
 * what it must under the model of §3.6 (The capacity equation), within
 * hbm_bytes (a total of exactly hbm_bytes fits), with the micro-batches
 * in flight that keep every stage busy, and how many sequences that puts
 * in flight. The fields microbatch_seqs and microbatches of *m are
 * ignored: they are what this function decides.
 * Rounding: a quotient within a relative 1e-9 of a whole number counts
 * as that whole number before it is rounded down.
 * No answer (exists false, every other field 0) when not even one
 * sequence a micro-batch fits, the weights' share alone filling the HBM
 * included.
 * Preconditions: m->stages >= 1, m->chips >= 1, m->weight_bytes >= 0,
 * m->kv_bytes_per_token > 0, m->context_tokens > 0, hbm_bytes > 0,
 * step_s > 0, hop_s >= 0, and the micro-batches in flight fit in an int. */
pipelining_batch pipelining_max_microbatch(const pipelining_memory *m,
                                           double hbm_bytes, double step_s,
                                           double hop_s);

#endif /* CHALK_PIPELINING_H */
