/*
 * pipelining.c -- Chapter 3 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests run
 * and fail. Replace each body with what the chapter derives; the contract
 * (units, preconditions, rounding, what to return when there is no answer)
 * is in pipelining.h beside this file, and each TODO names the section of
 * the book that derives it (numbered in chalk.pdf; by its title in
 * chapters/03-pipelining.md).
 *
 *   make check CH=03         run the chapter's tests against this file
 *   make hint EX=rack_hop    show the next hint for one exercise
 */
#include "pipelining.h"

#include <math.h>

/* ---- Exercise 3.1 (*) rack_hop --------------------------------------- */

double pipelining_scaleup_s(const pipelining_hop *h)
{
    /* TODO(§3.2 (Is a rack hop a bottleneck?)): the all-to-all bytes of
     * every layer in the stage, over the rack's scale-up bandwidth. */
    (void)h;
    return 0.0;
}

double pipelining_scaleout_s(const pipelining_hop *h)
{
    /* TODO(§3.2 (Is a rack hop a bottleneck?)): each token crosses to the
     * next rack once, over the rack's scale-out bandwidth. */
    (void)h;
    return 0.0;
}

double pipelining_alltoall_bytes_per_s(double scaleup_bytes_per_s,
                                       double bisection_bytes_per_s,
                                       int chips)
{
    /* TODO(§3.2.1 (When the scale-up network is a torus)): the chip's own
     * rate, or what its share of the bisection allows. */
    (void)scaleup_bytes_per_s;
    (void)bisection_bytes_per_s;
    (void)chips;
    return 0.0;
}

/* ---- Exercise 3.2 (*) hop_condition ---------------------------------- */

double pipelining_hop_ratio(double bandwidth_ratio, int experts_per_token,
                            int layers_per_stage)
{
    /* TODO(§3.2 (Is a rack hop a bottleneck?)): divide your two times;
     * what is left when tokens, d_model, bytes and GPUs cancel? */
    (void)bandwidth_ratio;
    (void)experts_per_token;
    (void)layers_per_stage;
    return 0.0;
}

int pipelining_min_layers_per_stage(double bandwidth_ratio,
                                    int experts_per_token)
{
    /* TODO(§3.2 (Is a rack hop a bottleneck?)): the smallest whole number
     * of layers with a ratio of at least 1; mind the rounding rule of
     * pipelining.h. */
    (void)bandwidth_ratio;
    (void)experts_per_token;
    return 0;
}

/* ---- Exercise 3.3 (*) bubble ----------------------------------------- */

double pipelining_bubble_fraction(int stages, int microbatches, int chunks)
{
    /* TODO(§3.4.1 (The bubble of GPipe)): idle time over total time. */
    (void)stages;
    (void)microbatches;
    (void)chunks;
    return 0.0;
}

double pipelining_bubble_over_ideal(int stages, int microbatches,
                                    int chunks)
{
    /* TODO(§3.4.1 (The bubble of GPipe)): idle time over the ideal
     * compute time. */
    (void)stages;
    (void)microbatches;
    (void)chunks;
    return 0.0;
}

double pipelining_speedup(int stages, int microbatches, int chunks)
{
    /* TODO(§3.4.3 (Interleaved stages)): the throughput model of the
     * section's reality check, with the idle share of your bubble. */
    (void)stages;
    (void)microbatches;
    (void)chunks;
    return 0.0;
}

/* ---- Exercise 3.4 (**) schedule_order -------------------------------- */

pipelining_op pipelining_gpipe_op(const pipelining_plan *plan, int stage,
                                  int index)
{
    /* TODO(§3.4.1 (The bubble of GPipe)): which pass runs at this
     * position? */
    (void)plan;
    (void)index;
    pipelining_op op = {.stage = stage};
    return op;
}

pipelining_op pipelining_1f1b_op(const pipelining_plan *plan, int stage,
                                 int index)
{
    /* TODO(§3.4.2 (A schedule simulator)): a warm-up of forwards, then
     * pairs of one forward and one backward, then the backwards left. */
    (void)plan;
    (void)index;
    pipelining_op op = {.stage = stage};
    return op;
}

/* ---- Exercise 3.5 (**) interleaved_order ----------------------------- */

pipelining_op pipelining_interleaved_op(const pipelining_plan *plan,
                                        int stage, int index)
{
    /* TODO(§3.4.3 (Interleaved stages)): the same three phases as 1F1B
     * over every chunk pass; number the forwards and the backwards, then
     * turn a number into a micro-batch and a chunk. */
    (void)plan;
    (void)index;
    pipelining_op op = {.stage = stage};
    return op;
}

/* ---- Exercise 3.6 (***) simulate ------------------------------------- */

bool pipelining_simulate(const pipelining_plan *plan, pipelining_op *ops,
                         size_t capacity, pipelining_timeline *out)
{
    /* TODO(§3.4.2 (A schedule simulator)): lay out each stage's passes in
     * order, then run them: a pass starts when its stage is free and its
     * input has ended. */
    (void)plan;
    (void)ops;
    (void)capacity;
    (void)out;
    return false;
}

/* ---- Exercise 3.7 (*) decode_loop ------------------------------------ */

double pipelining_decode_token_s(int stages, double stage_s, double hop_s)
{
    /* TODO(§3.5 (Decode is a loop)): one trip round the loop, its hops
     * counted as the section counts them. */
    (void)stages;
    (void)stage_s;
    (void)hop_s;
    return 0.0;
}

int pipelining_decode_microbatches(int stages, double stage_s, double hop_s)
{
    /* TODO(§3.5 (Decode is a loop)): how many micro-batches fill one trip
     * round the loop? */
    (void)stages;
    (void)stage_s;
    (void)hop_s;
    return 0;
}

pipelining_decode_loop pipelining_decode_loop_at(int stages, double step_s, double hop_s,
                                                 double microbatch_seqs)
{
    /* TODO(§3.5 (Decode is a loop)): a stage's share of the step, then
     * the loop's token time, micro-batches and throughput. */
    (void)stages;
    (void)step_s;
    (void)hop_s;
    (void)microbatch_seqs;
    pipelining_decode_loop l = {0};
    return l;
}

/* ---- Exercise 3.8 (**) capacity -------------------------------------- */

double pipelining_weight_bytes_per_gpu(const pipelining_memory *m)
{
    /* TODO(§3.6 (The capacity equation)): the bytes of weights one GPU
     * holds. */
    (void)m;
    return 0.0;
}

double pipelining_kv_bytes_per_gpu(const pipelining_memory *m)
{
    /* TODO(§3.6 (The capacity equation)): every sequence in flight, every
     * token of its context. */
    (void)m;
    return 0.0;
}

pipelining_fit pipelining_min_stages_to_fit(const pipelining_memory *m,
                                            double hbm_bytes)
{
    /* TODO(§3.6 (The capacity equation)): the fewest stages that fit, or
     * no answer. */
    (void)m;
    (void)hbm_bytes;
    pipelining_fit fit = {0};
    return fit;
}

/* ---- Exercise 3.9 (**) split ----------------------------------------- */

pipelining_split pipelining_best_split(const pipelining_deployment *d)
{
    /* TODO(§3.7 (The best split of a model over racks)): the fewest stages
     * that meet every condition of the contract. */
    (void)d;
    pipelining_split split = {0};
    return split;
}

/* ---- Exercise 3.10 (***) balance ------------------------------------- */

pipelining_cuts pipelining_balanced_cuts(const long long *layer_ns,
                                         int layers, int stages,
                                         int *first_layer)
{
    /* TODO(§3.7.1 (Layers of unequal cost)): the cut whose slowest stage
     * is the fastest, with the contract's ties; too many cuts to try
     * them all. */
    (void)layer_ns;
    (void)layers;
    (void)stages;
    (void)first_layer;
    pipelining_cuts cuts = {0};
    return cuts;
}

/* ---- Exercise 3.11 (**) max_microbatch ------------------------------- */

pipelining_batch pipelining_max_microbatch(const pipelining_memory *m,
                                           double hbm_bytes, double step_s,
                                           double hop_s)
{
    /* TODO(§3.5 (Decode is a loop), §3.6 (The capacity equation)): the
     * micro-batches in flight, the most whole sequences a micro-batch and
     * the sequences in flight, or no answer. */
    (void)m;
    (void)hbm_bytes;
    (void)step_s;
    (void)hop_s;
    pipelining_batch batch = {0};
    return batch;
}
