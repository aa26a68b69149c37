/*
 * revnets.c -- Chapter 6 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests run
 * and fail. Replace each body with what chapter 6 of the book derives;
 * the contract (units, buffer sizes, preconditions, tie and no-answer
 * rules) is in revnets.h beside this file, and each TODO names the
 * section of the book to read.
 *
 *   make check CH=06     run the chapter's tests against this file
 *   make hint CH=06      show the next hint for the first failing exercise
 */
#include "revnets.h"

#include <math.h>

/* ---- Exercise 6.1 (*) feistel -------------------------------------- */

void revnets_feistel_encrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f)
{
    /* TODO §6.2 (The Feistel construction): the round of revnets.h, once
     * per round key. */
    (void)block;
    (void)round_keys;
    (void)rounds;
    (void)f;
}

void revnets_feistel_decrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f)
{
    /* TODO §6.2 (The Feistel construction): undo one round at a time,
     * running f forwards. */
    (void)block;
    (void)round_keys;
    (void)rounds;
    (void)f;
}

/* ---- Exercise 6.2 (*) toy_cipher ----------------------------------- */

uint32_t revnets_toy_f(uint32_t half, uint32_t round_key)
{
    /* TODO §6.2 (The Feistel construction): the round function of
     * revnets.h. */
    (void)half;
    (void)round_key;
    return 0;
}

void revnets_toy_encrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds)
{
    /* TODO §6.2 (The Feistel construction): your Feistel network with
     * revnets_toy_f and the toy key schedule. */
    (void)block;
    (void)key;
    (void)rounds;
}

void revnets_toy_decrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds)
{
    /* TODO §6.2 (The Feistel construction): the same round keys,
     * decrypted. */
    (void)block;
    (void)key;
    (void)rounds;
}

/* ---- Exercise 6.3 (*) tea_xtea ------------------------------------- */

void revnets_tea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    /* TODO §6.3 (TEA and XTEA): the three lines of revnets.h, `cycles`
     * times. */
    (void)v;
    (void)k;
    (void)cycles;
}

void revnets_tea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    /* TODO §6.3 (TEA and XTEA): invert each line; what must each line
     * see again? */
    (void)v;
    (void)k;
    (void)cycles;
}

void revnets_xtea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    /* TODO §6.3 (TEA and XTEA): the three lines of revnets.h, `cycles`
     * times. */
    (void)v;
    (void)k;
    (void)cycles;
}

void revnets_xtea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    /* TODO §6.3 (TEA and XTEA): invert each line, as for TEA. */
    (void)v;
    (void)k;
    (void)cycles;
}

/* ---- Exercise 6.4 (*) generator ------------------------------------ */

uint64_t revnets_rng_next(revnets_rng *g)
{
    /* TODO §6.4 (Avalanche, measured): the five lines of revnets.h. */
    (void)g;
    return 0;
}

double revnets_rng_uniform(revnets_rng *g, double lo, double hi)
{
    /* TODO §6.4 (Avalanche, measured): the top 53 bits as a fraction,
     * scaled to [lo, hi). */
    (void)g;
    (void)lo;
    (void)hi;
    return 0.0;
}

void revnets_fill_uniform(double *w, size_t n, double scale, uint64_t seed)
{
    /* TODO §6.4 (Avalanche, measured): n draws in order from one seeded
     * generator. */
    for (size_t i = 0; i < n; i++)
        w[i] = 0.0;
    (void)scale;
    (void)seed;
}

/* ---- Exercise 6.5 (*) avalanche ------------------------------------ */

double revnets_avalanche(revnets_mix_fn mix, const void *ctx, long trials,
                         uint64_t seed)
{
    /* TODO §6.4 (Avalanche, measured): p_flip as revnets.h defines it. */
    (void)mix;
    (void)ctx;
    (void)trials;
    (void)seed;
    return -1.0;
}

uint64_t revnets_cipher_mix(uint64_t in, const void *ctx)
{
    /* TODO §6.4 (Avalanche, measured): two words, encrypted, packed
     * again. */
    (void)ctx;
    return in;
}

uint64_t revnets_mlp_mix(uint64_t in, const void *ctx)
{
    /* TODO §6.4 (Avalanche, measured): bits to +-1, the layers of
     * revnets_mlp, signs back to bits. */
    (void)ctx;
    return ~in;
}

/* ---- Exercise 6.6 (***) rounds_to_avalanche ------------------------ */

int revnets_rounds_to_avalanche(revnets_rounds_fn mix, const void *ctx,
                                int max_rounds, double tolerance,
                                long trials, uint64_t seed)
{
    /* TODO §6.4 (Avalanche, measured): your revnets_avalanche measures one
     * member; mind the sizes the contract names before you choose which
     * rounds to measure. */
    (void)mix;
    (void)ctx;
    (void)max_rounds;
    (void)tolerance;
    (void)trials;
    (void)seed;
    return -1;
}

/* ---- Exercise 6.7 (*) revnet_block --------------------------------- */

void revnets_block_forward(const double *wf, const double *wg, int half,
                           double *x1, double *x2, revnets_dtype dt)
{
    /* TODO §6.5 (RevNets): the two lines of revnets.h, every operation
     * rounded to dt. */
    (void)wf;
    (void)wg;
    (void)half;
    (void)x1;
    (void)x2;
    (void)dt;
}

void revnets_block_inverse(const double *wf, const double *wg, int half,
                           double *x1, double *x2, revnets_dtype dt)
{
    /* TODO §6.5 (RevNets): the forward block undone, last line first. */
    (void)wf;
    (void)wg;
    (void)half;
    (void)x1;
    (void)x2;
    (void)dt;
}

void revnets_lecture_step(const double *w, int half, double *x, double *y,
                          revnets_dtype dt)
{
    /* TODO §6.5 (RevNets): the lecture's step of revnets.h. */
    (void)w;
    (void)half;
    (void)x;
    (void)y;
    (void)dt;
}

/* ---- Exercise 6.8 (*) reconstruction ------------------------------- */

void revnets_stack_forward(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt)
{
    /* TODO §6.5 (RevNets): every block, first to last. */
    (void)net;
    (void)x1;
    (void)x2;
    (void)dt;
}

void revnets_stack_inverse(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt)
{
    /* TODO §6.5 (RevNets): every block's inverse, last to first. */
    (void)net;
    (void)x1;
    (void)x2;
    (void)dt;
}

double revnets_reconstruction_error(const revnets_net *net,
                                    const double *x1, const double *x2,
                                    revnets_dtype dt, double *work)
{
    /* TODO §6.5 (RevNets): forward then inverse on a rounded copy; the
     * largest difference from what you started with. */
    (void)net;
    (void)x1;
    (void)x2;
    (void)dt;
    (void)work;
    return -1.0;
}

/* ---- Exercise 6.9 (*) training_cost -------------------------------- */

size_t revnets_work_stored(int layers, int half)
{
    /* TODO §6.6 (Training memory): what the backward pass reads, kept for
     * every block. */
    (void)layers;
    (void)half;
    return 0;
}

size_t revnets_work_reversible(int layers, int half)
{
    /* TODO §6.6 (Training memory): the state and one scratch vector. */
    (void)layers;
    (void)half;
    return 0;
}

double revnets_train_flops(int layers, int half, bool reversible)
{
    /* TODO §6.6 (Training memory): a block's forward, then the step. */
    (void)layers;
    (void)half;
    (void)reversible;
    return 0.0;
}

double revnets_extra_flops_fraction(int layers, int half)
{
    /* TODO §6.6 (Training memory): what regenerating adds, as a share
     * of the stored step. */
    (void)layers;
    (void)half;
    return 0.0;
}

/* ---- Exercise 6.10 (**) stored_backprop ---------------------------- */

double revnets_backward_stored(const revnets_net *net, const double *x1,
                               const double *x2, double *grad, double *gx1,
                               double *gx2, double *work)
{
    /* TODO §6.6 (Training memory): a forward pass that keeps what the
     * backward pass reads, then the chain rule, block by block. */
    (void)net;
    (void)x1;
    (void)x2;
    (void)grad;
    (void)gx1;
    (void)gx2;
    (void)work;
    return 0.0;
}

/* ---- Exercise 6.11 (**) reversible_backprop ------------------------ */

double revnets_backward_reversible(const revnets_net *net, const double *x1,
                                   const double *x2, double *grad,
                                   double *gx1, double *gx2, double *work)
{
    /* TODO §6.6 (Training memory): the same gradients in the work that
     * revnets_work_reversible(net->layers, net->half) gives (exercise 6.9). */
    (void)net;
    (void)x1;
    (void)x2;
    (void)grad;
    (void)gx1;
    (void)gx2;
    (void)work;
    return 0.0;
}

/* ---- Exercise 6.12 (*) activation_memory -------------------------- */

double revnets_act_bytes_per_layer(const revnets_layer *l)
{
    /* TODO §6.7 (Activation memory of a transformer layer): one case per
     * way of splitting and recomputing. */
    (void)l;
    return 0.0;
}

double revnets_act_bytes_per_model(const revnets_layer *l, int layers)
{
    /* TODO §6.7 (Activation memory of a transformer layer): what the
     * first pipeline stage holds. */
    (void)l;
    (void)layers;
    return 0.0;
}

double revnets_recompute_flops_fraction(const revnets_layer *l)
{
    /* TODO §6.7 (Activation memory of a transformer layer): the FLOPs
     * recomputed over the FLOPs of a step. */
    (void)l;
    return -1.0;
}

double revnets_attention_core_share(const revnets_layer *l)
{
    /* TODO §6.7 (Activation memory of a transformer layer): the bytes
     * selective recomputation drops, over all of an undivided layer's. */
    (void)l;
    return -1.0;
}

double revnets_model_state_bytes_per_gpu(double params,
                                         double tensor_parallel,
                                         double pipeline_parallel)
{
    /* TODO §6.7 (Activation memory of a transformer layer): the state's
     * bytes, and how many GPUs share them. */
    (void)params;
    (void)tensor_parallel;
    (void)pipeline_parallel;
    return 0.0;
}

/* ---- Exercise 6.13 (***) checkpoint_plan --------------------------- */

revnets_checkpoint_plan revnets_plan_checkpoints(int layers,
                                                 double layer_bytes,
                                                 double input_bytes,
                                                 double budget_bytes)
{
    /* TODO §6.8 (Checkpoints under a memory budget): search the plans
     * for the one the contract's rules pick, fast enough for the
     * contract's ten million layers. */
    (void)layers;
    (void)layer_bytes;
    (void)input_bytes;
    (void)budget_bytes;
    revnets_checkpoint_plan none = {0};
    return none;
}

double revnets_activation_budget_bytes(double hbm_bytes,
                                       double model_state_bytes)
{
    /* TODO §6.8 (Checkpoints under a memory budget): the HBM the model
     * state leaves. */
    (void)hbm_bytes;
    (void)model_state_bytes;
    return -1.0;
}

double revnets_plan_flops_fraction(const revnets_checkpoint_plan *plan,
                                   int layers, const revnets_layer *layer)
{
    /* TODO §6.8 (Checkpoints under a memory budget): the segments'
     * recomputation, and the stored layers' own. */
    (void)plan;
    (void)layers;
    (void)layer;
    return -1.0;
}

/* ---- Exercise 6.14 (**) longest_sequence --------------------------- */

long revnets_longest_sequence(const revnets_layer *l, int layers,
                              bool reversible, double budget_bytes)
{
    /* TODO §6.9 (Which way to trade): solve the memory of §6.7
     * (Activation memory of a transformer layer) for S, then settle the
     * rounding on the contract's rule. */
    (void)l;
    (void)layers;
    (void)reversible;
    (void)budget_bytes;
    return -1;
}
