/*
 * revnets.c -- Chapter 6 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests run
 * and fail. Replace each body with what chapters/06-revnets.md derives; the
 * contract (units, buffer sizes, preconditions) is in revnets.h beside this
 * file.
 *
 *   make check CH=06     run the chapter's tests against this file
 *   make hint CH=06      show the next hint for the first failing exercise
 */
#include "revnets.h"

#include <math.h>

/* ---- Exercise 6.1 (*) feistel
 * ------------------------------------------------- */

void revnets_feistel_encrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f)
{
    /* TODO(ch6 §6.2): (L, R) -> (R, L ^ f(R, K_i)), round after round. */
    (void)block;
    (void)round_keys;
    (void)rounds;
    (void)f;
}

void revnets_feistel_decrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f)
{
    /* TODO(ch6 §6.2): undo one round at a time, last key first, running f
     * forwards. */
    (void)block;
    (void)round_keys;
    (void)rounds;
    (void)f;
}

/* ---- Exercise 6.2 (*) toy_cipher
 * ---------------------------------------------- */

uint32_t revnets_toy_f(uint32_t half, uint32_t round_key)
{
    /* TODO(ch6 §6.2): t = half ^ key; rotate t * (t | 1) by 16 bits. */
    (void)half;
    (void)round_key;
    return 0;
}

void revnets_toy_encrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds)
{
    /* TODO(ch6 §6.2): the Feistel network with revnets_toy_f and K_i =
     * key[i % 4]. */
    (void)block;
    (void)key;
    (void)rounds;
}

void revnets_toy_decrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds)
{
    /* TODO(ch6 §6.2): the same round keys, decrypted. */
    (void)block;
    (void)key;
    (void)rounds;
}

/* ---- Exercise 6.3 (**) tea_xtea
 * ----------------------------------------------- */

void revnets_tea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    /* TODO(ch6 §6.3): each cycle adds delta to sum, then updates v0, then
     * v1. */
    (void)v;
    (void)k;
    (void)cycles;
}

void revnets_tea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    /* TODO(ch6 §6.3): the cycles backwards: v1 first, subtracting; sum
     * starts at delta * cycles. */
    (void)v;
    (void)k;
    (void)cycles;
}

void revnets_xtea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    /* TODO(ch6 §6.3): v0 with key word sum & 3, sum += delta, v1 with (sum
     * >> 11) & 3. */
    (void)v;
    (void)k;
    (void)cycles;
}

void revnets_xtea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    /* TODO(ch6 §6.3): the same three lines in reverse order, subtracting.
     */
    (void)v;
    (void)k;
    (void)cycles;
}

/* ---- Exercise 6.4 (*) generator
 * ----------------------------------------------- */

uint64_t revnets_rng_next(revnets_rng *g)
{
    /* TODO(ch6 §6.4): advance the state by the golden-ratio constant, then
     * hash it (the three lines in revnets.h). */
    (void)g;
    return 0;
}

double revnets_rng_uniform(revnets_rng *g, double lo, double hi)
{
    /* TODO(ch6 §6.4): the top 53 bits as a fraction in [0, 1), scaled to
     * [lo, hi). */
    (void)g;
    (void)lo;
    (void)hi;
    return 0.0;
}

void revnets_fill_uniform(double *w, size_t n, double scale, uint64_t seed)
{
    /* TODO(ch6 §6.4): n draws from revnets_rng_uniform(g, -scale, scale),
     * in order. */
    for (size_t i = 0; i < n; i++)
        w[i] = 0.0;
    (void)scale;
    (void)seed;
}

/* ---- Exercise 6.5 (**) avalanche
 * ---------------------------------------------- */

double revnets_avalanche(revnets_mix_fn mix, const void *ctx, long trials,
                         uint64_t seed)
{
    /* TODO(ch6 §6.4): draw each trial's input from a seeded revnets_rng,
     * flip each of its 64 bits, count changed output bits, divide by trials
     * * 64 * 64. */
    (void)mix;
    (void)ctx;
    (void)trials;
    (void)seed;
    return -1.0;
}

uint64_t revnets_cipher_mix(uint64_t in, const void *ctx)
{
    /* TODO(ch6 §6.4): split into two words (high word first), encrypt with
     * the revnets_keyed cipher, pack again. */
    (void)ctx;
    return in;
}

uint64_t revnets_mlp_mix(uint64_t in, const void *ctx)
{
    /* TODO(ch6 §6.4): bits to +-1, the layers of revnets_mlp, signs back to
     * bits. */
    (void)ctx;
    return ~in;
}

/* ---- Exercise 6.6 (*) revnet_block
 * -------------------------------------------- */

void revnets_block_forward(const double *wf, const double *wg, int half,
                           double *x1, double *x2, revnets_dtype dt)
{
    /* TODO(ch6 §6.5): x1 += F(x2), then x2 += G(x1); round every operation
     * to dt. */
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
    /* TODO(ch6 §6.5): x2 -= G(x1), then x1 -= F(x2). */
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
    /* TODO(ch6 §6.5): (x, y) -> (y + f(x), x). */
    (void)w;
    (void)half;
    (void)x;
    (void)y;
    (void)dt;
}

/* ---- Exercise 6.7 (**) reconstruction
 * ----------------------------------------- */

void revnets_stack_forward(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt)
{
    /* TODO(ch6 §6.5): every block, first to last. */
    (void)net;
    (void)x1;
    (void)x2;
    (void)dt;
}

void revnets_stack_inverse(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt)
{
    /* TODO(ch6 §6.5): every block's inverse, last to first. */
    (void)net;
    (void)x1;
    (void)x2;
    (void)dt;
}

double revnets_reconstruction_error(const revnets_net *net,
                                    const double *x1, const double *x2,
                                    revnets_dtype dt, double *work)
{
    /* TODO(ch6 §6.5): round the input, forward, inverse, largest
     * difference. */
    (void)net;
    (void)x1;
    (void)x2;
    (void)dt;
    (void)work;
    return -1.0;
}

/* ---- Exercise 6.8 (*) training_cost
 * ------------------------------------------- */

size_t revnets_work_stored(int layers, int half)
{
    /* TODO(ch6 §6.6): what the backward pass reads, kept for every block.
     */
    (void)layers;
    (void)half;
    return 0;
}

size_t revnets_work_reversible(int layers, int half)
{
    /* TODO(ch6 §6.6): the state and one scratch vector. */
    (void)layers;
    (void)half;
    return 0;
}

double revnets_train_flops(int layers, int half, bool reversible)
{
    /* TODO(ch6 §6.6): forward + backward (twice forward) + one forward if
     * reversible. */
    (void)layers;
    (void)half;
    (void)reversible;
    return 0.0;
}

double revnets_extra_flops_fraction(int layers, int half)
{
    /* TODO(ch6 §6.6): the reversible step's FLOPs over the stored one's, less 1. */
    (void)layers;
    (void)half;
    return 0.0;
}

/* ---- Exercise 6.9 (**) stored_backprop
 * ---------------------------------------- */

double revnets_backward_stored(const revnets_net *net, const double *x1,
                               const double *x2, double *grad, double *gx1,
                               double *gx2, double *work)
{
    /* TODO(ch6 §6.6): forward keeping x2, F(x2), y1, G(y1) per block; then
     * the chain rule block by block from the top. */
    (void)net;
    (void)x1;
    (void)x2;
    (void)grad;
    (void)gx1;
    (void)gx2;
    (void)work;
    return 0.0;
}

/* ---- Exercise 6.10 (***) reversible_backprop
 * ---------------------------------- */

double revnets_backward_reversible(const revnets_net *net, const double *x1,
                                   const double *x2, double *grad,
                                   double *gx1, double *gx2, double *work)
{
    /* TODO(ch6 §6.6): forward keeping only the output; then, from the top,
     * invert each block to regenerate its input while back-propagating
     * through it. */
    (void)net;
    (void)x1;
    (void)x2;
    (void)grad;
    (void)gx1;
    (void)gx2;
    (void)work;
    return 0.0;
}

/* ---- Exercise 6.11 (**) activation_memory
 * ------------------------------------- */

double revnets_act_bytes_per_layer(const revnets_layer *l)
{
    /* TODO(ch6 §6.7): Korthikanti et al. Table 2, one row per case. */
    (void)l;
    return 0.0;
}

double revnets_act_bytes_per_model(const revnets_layer *l, int layers)
{
    /* TODO(ch6 §6.7): the first pipeline stage holds every layer's worth.
     */
    (void)l;
    (void)layers;
    return 0.0;
}

double revnets_recompute_flops_fraction(const revnets_layer *l)
{
    /* TODO(ch6 §6.7): extra FLOPs over the 3 forwards of a training step.
     */
    (void)l;
    return -1.0;
}

double revnets_attention_core_share(const revnets_layer *l)
{
    /* TODO(ch6 §6.7): the bytes selective recomputation drops, over all of an
     * undivided layer's. */
    (void)l;
    return -1.0;
}

double revnets_model_state_bytes_per_gpu(double params,
                                         double tensor_parallel,
                                         double pipeline_parallel)
{
    /* TODO(ch6 §6.7): 16 bytes per parameter, split over t x p GPUs. */
    (void)params;
    (void)tensor_parallel;
    (void)pipeline_parallel;
    return 0.0;
}
