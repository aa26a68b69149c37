/*
 * revnets.h -- Chapter 6: ciphers and neural nets, Feistel networks and
 * RevNets.
 *
 * The contract for chapter 6. You implement these functions in
 * exercises/06-revnets/revnets.c; the tests in tests/06-revnets/ check
 * them, and the reference in solutions/06-revnets/revnets.c is what the
 * book's numbers come from. Read chapters/06-revnets.md alongside.
 *
 * Unlike chapters 1-5, most of this chapter computes with bits and with
 * vectors:
 *
 *   - a seeded generator (SplitMix64), so every "random" experiment is
 * repeatable;
 *   - Feistel ciphers: a generic Feistel network, a toy cipher built on it,
 * and TEA and XTEA, held to their published test vectors;
 *   - avalanche: how many output bits change when one input bit does, for a
 * cipher and for a small neural net with and without its residual
 * connection;
 *   - RevNet blocks (Gomez et al. 2017): y1 = x1 + F(x2), y2 = x2 + G(y1),
 * run forward and backward, in float and in double;
 *   - training memory: backpropagation with stored activations against a
 *     reversible backward pass that regenerates them, and the activation
 * memory of a real transformer layer (Korthikanti et al. 2022).
 *
 * Conventions. A 64-bit block is two 32-bit words: block[0] holds the first
 * four bytes read big-endian (the "left" half), block[1] the last four. As
 * one uint64_t, block[0] is the high word. Word arithmetic is modulo 2^32
 * (uint32_t wraps). Vectors are arrays of double; matrices are row-major.
 * FLOPs count 2 per multiply-accumulate and only the matrix products (the
 * book's convention). Memory is in bytes (SI: GB is 1e9 bytes).
 *
 * Nothing here allocates: buffers are the caller's, and their sizes are
 * part of the contract (that is how the reversible backward pass proves
 * that its memory does not grow with depth).
 */
#ifndef CHALK_REVNETS_H
#define CHALK_REVNETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cost.h"

/* ---- Exercise 6.1 (*) feistel: any round function, always invertible ---
 * §6.2 */

/* A round function: mixes one 32-bit half with a round key. It need not be
 * invertible: the Feistel network around it is. */
typedef uint32_t (*revnets_round_fn)(uint32_t half, uint32_t round_key);

/* Encrypts block = {L, R} in place with `rounds` Feistel rounds; round i
 * maps (L, R) -> (R, L ^ f(R, round_keys[i])) so the halves swap every
 * round (the output is left swapped after the last). Preconditions: rounds
 * >= 0, round_keys holds `rounds` words. */
void revnets_feistel_encrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f);

/* Undoes revnets_feistel_encrypt with the same keys, running f only
 * forwards: from (L', R') = (R, L ^ f(R, K)), R = L' and L = R' ^ f(L', K),
 * keys in reverse. */
void revnets_feistel_decrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f);

/* ---- Exercise 6.2 (*) toy_cipher: a small Feistel cipher ----------------
 * §6.2 */

/* The toy cipher's round function, many-to-one on purpose: with t = half ^
 * key, f(half, key) = rotl32(t * (t | 1), 16) where rotl32(x, 16) = (x <<
 * 16) | (x >> 16) swaps the 16-bit halves. For odd t, t * (t | 1) = t^2,
 * the same for t and -t: f is not invertible. */
uint32_t revnets_toy_f(uint32_t half, uint32_t round_key);

/* The toy cipher: revnets_feistel_encrypt with revnets_toy_f and round keys
 * K_i = key[i % 4], for `rounds` rounds. Precondition: 0 <= rounds <= 64.
 */
void revnets_toy_encrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds);

/* Its inverse, with the same key and rounds. */
void revnets_toy_decrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds);

/* ---- Exercise 6.3 (**) tea_xtea: TEA and XTEA ---------------------------
 * §6.3 */

#define REVNETS_TEA_DELTA                                                  \
    0x9E3779B9u /* (sqrt(5) - 1) * 2^31, the key-schedule constant */
#define REVNETS_TEA_CYCLES                                                 \
    32 /* the published cipher: 32 cycles = 64 rounds */

/* TEA (Wheeler and Needham 1994) on v = {v0, v1} in place, `cycles` cycles
 * of sum <- sum + delta v0  <- v0 + [(v1 shl 4) + k0] xor [v1 + sum] xor
 * [(v1 shr 5) + k1] v1  <- v1 + [(v0 shl 4) + k2] xor [v0 + sum] xor [(v0
 * shr 5) + k3] with + modulo 2^32, shl/shr the shifts, sum starting at 0
 * (chapter 6, equation for TEA). Each line is a Feistel round in the
 * lecture's form (x, y) -> (x, y + f(x)): the halves are combined by
 * addition mod 2^32, not XOR. With a zero key and block, 32 cycles give
 * {0x41EA3A0A, 0x94BAA940}. Precondition: cycles >= 0. */
void revnets_tea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles);

/* Undoes revnets_tea_encrypt: the same lines in reverse, subtracting, with
 * sum starting at delta * cycles (mod 2^32) and falling by delta after each
 * cycle. */
void revnets_tea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles);

/* XTEA (Needham and Wheeler 1997), `cycles` cycles of
 *     v0  <- v0 + [((v1 shl 4) xor (v1 shr 5)) + v1] xor [sum + k(sum mod
 * 4)] sum <- sum + delta v1  <- v1 + [((v0 shl 4) xor (v0 shr 5)) + v0] xor
 * [sum + k(j)] where j is bits 11 and 12 of sum: (sum shr 11) mod 4. With a
 * zero key and block, 32 cycles give {0xDEE9D4D8, 0xF7131ED9}. */
void revnets_xtea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles);

/* Undoes revnets_xtea_encrypt (sum starts at delta * cycles). */
void revnets_xtea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles);

/* ---- Exercise 6.4 (*) generator: SplitMix64 -----------------------------
 * §6.4 */

/* A pseudo-random generator: 64 bits of state, advanced by a fixed odd
 * constant and hashed on the way out (SplitMix64: Steele, Lea and Flood
 * 2014; Vigna's reference splitmix64.c). Same seed, same sequence, on every
 * machine. */
typedef struct revnets_rng {
    uint64_t state;
} revnets_rng;

/* A generator seeded with `seed` (its state is the seed itself). */
static inline revnets_rng revnets_rng_seeded(uint64_t seed)
{
    revnets_rng g = {.state = seed};
    return g;
}

/* The next 64 random bits. In words, all arithmetic modulo 2^64: add
 * 0x9E3779B97F4A7C15 to the state; take z = the new state; replace z by
 * (z xor (z shifted right 30)) times 0xBF58476D1CE4E5B9, then by
 * (z xor (z shifted right 27)) times 0x94D049BB133111EB; return
 * z xor (z shifted right 31).
 * Seeded with 0, the first three outputs are 0xE220A8397B1DCDAF,
 * 0x6E789E6AA1B965F4 and 0x06C45D188009454F. */
uint64_t revnets_rng_next(revnets_rng *g);

/* A double uniform in [lo, hi): the top 53 bits of revnets_rng_next as a
 * fraction u = (next >> 11) * 2^-53 in [0, 1), then lo + (hi - lo) * u.
 * Precondition: lo < hi, both finite. */
double revnets_rng_uniform(revnets_rng *g, double lo, double hi);

/* Fills w[0..n) with numbers uniform in [-scale, scale) from a generator
 * seeded with `seed`, in order. A layer of width d whose weights have
 * variance g^2 / d uses scale = g * sqrt(3 / d). Precondition: scale >= 0.
 */
void revnets_fill_uniform(double *w, size_t n, double scale, uint64_t seed);

/* ---- Exercise 6.5 (**) avalanche: one bit in, how many out? -------------
 * §6.4 */

/* Anything that maps 64 bits to 64 bits, with its own context. */
typedef uint64_t (*revnets_mix_fn)(uint64_t in, const void *ctx);

/* The avalanche of `mix`: the mean share of the 64 output bits that change
 * when one input bit is flipped. Each of `trials` trials draws an input x
 * from a generator seeded with `seed` (one revnets_rng_next per trial) and
 * flips each of its 64 bits in turn: sum over trials t, bits j of
 * popcount(mix(x_t) ^ mix(x_t ^ (1 << j)))
 *     ----------------------------------------------------------------------
 *                            trials * 64 * 64
 * 1/64 for the identity; about 1/2 for a good cipher. Precondition: trials
 * >= 1. */
double revnets_avalanche(revnets_mix_fn mix, const void *ctx, long trials,
                         uint64_t seed);

typedef enum revnets_cipher {
    REVNETS_CIPHER_TOY = 0,
    REVNETS_CIPHER_TEA,
    REVNETS_CIPHER_XTEA,
} revnets_cipher;

/* A cipher with its key, as a mixer: `rounds` is Feistel rounds for the toy
 * cipher and cycles (two rounds each) for TEA and XTEA. */
typedef struct revnets_keyed {
    revnets_cipher cipher;
    uint32_t key[4];
    int rounds;
} revnets_keyed;

/* Encrypts the block {in >> 32, in & 0xFFFFFFFF} with the cipher in ctx (a
 * const revnets_keyed *) and returns it packed the same way. */
uint64_t revnets_cipher_mix(uint64_t in, const void *ctx);

#define REVNETS_MLP_WIDTH 64 /* one unit per bit of the block */

/* A stack of `depth` layers of width 64, each with a 64 x 64 weight matrix
 * W_l (weights: depth * 64 * 64 doubles, layer after layer, row-major):
 *     plain:    x <- tanh(W_l x)
 *     residual: x <- x + tanh(W_l x) / sqrt(depth)
 * (the residual branch scaled by 1/sqrt(depth), as GPT-2 scales its
 * residual layers at initialisation). Bits enter as x_j = +1 (bit j set) or
 * -1, and leave as bit j = (x_j > 0). */
typedef struct revnets_mlp {
    const double *weights;
    int depth;
    bool residual;
} revnets_mlp;

/* Runs the MLP in ctx (a const revnets_mlp *) on the 64 bits of `in`, bit j
 * of the word being unit j. Returns the output bits. */
uint64_t revnets_mlp_mix(uint64_t in, const void *ctx);

/* ---- RevNet blocks: the networks of exercises 6.6 to 6.10
 * ---------------------- */

/* The precision of the arithmetic. With REVNETS_FLOAT every operand and
 * every result (each product, sum, tanh) is rounded to float: for +, -, *
 * this gives exactly IEEE float arithmetic, since double carries more than
 * 2 * 24 + 2 bits. */
typedef enum revnets_dtype {
    REVNETS_DOUBLE = 0,
    REVNETS_FLOAT,
} revnets_dtype;

/* x rounded to the precision dt. */
static inline double revnets_round(double x, revnets_dtype dt)
{
    return dt == REVNETS_FLOAT ? (double)(float)x : x;
}

/* Bytes per number: 4 for float, 8 for double. */
static inline double revnets_dtype_bytes(revnets_dtype dt)
{
    return dt == REVNETS_FLOAT ? 4.0 : 8.0;
}

/* A stack of reversible blocks. The state is two streams x1, x2 of `half`
 * numbers each (width d = 2 * half). Block l has two half x half matrices,
 * F then G: F(h) = tanh(W_F h),  G(h) = tanh(W_G h)   (tanh element by
 * element) weights: layers * 2 * half * half doubles: W_F of block 0, W_G
 * of block 0, W_F of block 1, ... each row-major. */
typedef struct revnets_net {
    int layers;
    int half;
    const double *weights;
} revnets_net;

/* Block l's W_F and W_G. */
static inline const double *revnets_wf(const revnets_net *net, int l)
{
    return net->weights +
           (size_t)(2 * l) * (size_t)net->half * (size_t)net->half;
}
static inline const double *revnets_wg(const revnets_net *net, int l)
{
    return net->weights +
           (size_t)(2 * l + 1) * (size_t)net->half * (size_t)net->half;
}

/* ---- Exercise 6.6 (*) revnet_block: forward, inverse, the lecture's form
 * - §6.5 */

/* One RevNet block in place (Gomez et al. 2017, eq. 2):
 *     x1 <- x1 + F(x2);   then   x2 <- x2 + G(x1)   (G sees the NEW x1,
 * i.e. y1) where F(h)_i = tanh(sum_j wf[i*half + j] h_j), G likewise with
 * wg. In a dot product, each term is added in order j = 0, 1, ...; in float
 * every product and partial sum is rounded (revnets_round). Precondition:
 * half >= 1. */
void revnets_block_forward(const double *wf, const double *wg, int half,
                           double *x1, double *x2, revnets_dtype dt);

/* Undoes revnets_block_forward, running F and G only forwards:
 *     x2 <- x2 - G(x1);   then   x1 <- x1 - F(x2). */
void revnets_block_inverse(const double *wf, const double *wg, int half,
                           double *x1, double *x2, revnets_dtype dt);

/* The lecture's step, in place: (x, y) -> (y + f(x), x) with f(h) = tanh(W
 * h). Two such steps, with f = F then f = G, are one RevNet block with its
 * outputs swapped: starting from (x, y) = (x2, x1) they end at (y2, y1). */
void revnets_lecture_step(const double *w, int half, double *x, double *y,
                          revnets_dtype dt);

/* ---- Exercise 6.7 (**) reconstruction: float against double -------------
 * §6.5 */

/* Every block of the stack, 0 to layers - 1, in place. */
void revnets_stack_forward(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt);

/* Every block's inverse, layers - 1 down to 0, in place. */
void revnets_stack_inverse(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt);

/* How well the stack undoes itself in precision dt: rounds the input to dt,
 * runs the stack forward then inverse, and returns the largest absolute
 * difference between what comes back and the rounded input (0 means exact).
 * work: 2 * half doubles. */
double revnets_reconstruction_error(const revnets_net *net,
                                    const double *x1, const double *x2,
                                    revnets_dtype dt, double *work);

/* ---- Exercise 6.8 (*) training_cost: memory and FLOPs of a training step
 * §6.6 */

/* Doubles of workspace revnets_backward_stored needs: the activations the
 * backward pass reads, kept for every block: x2, F(x2), y1 and G(y1), that
 * is 4 * half per block. Grows with depth. */
size_t revnets_work_stored(int layers, int half);

/* Doubles of workspace revnets_backward_reversible needs: the current state
 * (x1, x2) and one scratch vector, 3 * half, whatever the depth. */
size_t revnets_work_reversible(int layers, int half);

/* Matrix FLOPs of one training step (forward, then backward) for one
 * example: a forward block is two half x half products, 4 * half^2 FLOPs;
 * its backward is twice that (gradients for the input and for the weights).
 * A reversible step also re-runs every block's F and G while inverting: one
 * forward more. Stored: 12 * half^2 * layers; reversible: 16 * half^2 *
 * layers. */
double revnets_train_flops(int layers, int half, bool reversible);

/* What reversibility adds to a training step's FLOPs, as a fraction of the stored
 * step's: (reversible - stored) / stored, a third (16 against 12 half^2 a block).
 * Preconditions: layers >= 1, half >= 1. */
double revnets_extra_flops_fraction(int layers, int half);

/* ---- Exercise 6.9 (**) stored_backprop: the usual backward pass ---------
 * §6.6 */

/* Backpropagation through the whole stack in double, for the loss
 *     loss = (|y1|^2 + |y2|^2) / 2     at the stack's output (y1, y2).
 * Writes dloss/dW into grad (same layout as net->weights, every entry
 * written) and dloss/dx into gx1, gx2; returns the loss. The forward pass
 * keeps every block's x2, F(x2), y1, G(y1) in work, which must hold
 * revnets_work_stored(layers, half) doubles. Block by block, from the top,
 * with g1, g2 the loss gradient at the block's output and a_F = F(x2), a_G
 * = G(y1): z  = (1 - a_G^2) * g2        dW_G = z y1^T     g1 += W_G^T z z'
 * = (1 - a_F^2) * g1        dW_F = z' x2^T    g2 += W_F^T z' after which
 * (g1, g2) is the gradient at the block's input. */
double revnets_backward_stored(const revnets_net *net, const double *x1,
                               const double *x2, double *grad, double *gx1,
                               double *gx2, double *work);

/* ---- Exercise 6.10 (***) reversible_backprop: activations regenerated --
 * §6.6 */

/* The same loss and gradients as revnets_backward_stored, storing no
 * activations: the forward pass keeps only its output, and the backward
 * pass walks down the stack inverting each block to regenerate its input,
 * in lockstep with the gradient. work: revnets_work_reversible(layers,
 * half) doubles. */
double revnets_backward_reversible(const revnets_net *net, const double *x1,
                                   const double *x2, double *grad,
                                   double *gx1, double *gx2, double *work);

/* ---- Exercise 6.11 (**) activation_memory: a real transformer layer -----
 * §6.7 */

typedef enum revnets_recompute {
    REVNETS_RECOMPUTE_NONE =
        0, /* store everything the backward pass reads */
    REVNETS_RECOMPUTE_SELECTIVE, /* recompute the attention core (the s^2
                                    part) */
    REVNETS_RECOMPUTE_FULL,      /* store each layer's input only */
} revnets_recompute;

/* One transformer layer as Korthikanti et al. 2022 count it: 16-bit
 * activations, 1-byte dropout masks, a 4h GELU MLP. */
typedef struct revnets_layer {
    double seq_tokens;      /* s: tokens per sequence */
    double microbatch;      /* b: sequences per micro-batch */
    double hidden;          /* h: model width */
    double heads;           /* a: attention heads */
    double tensor_parallel; /* t: GPUs a layer is split over (1: none) */
    bool sequence_parallel; /* split the layer norms and dropouts along s
                               too */
    revnets_recompute recompute;
} revnets_layer;

/* Activation bytes one GPU stores for one layer (Korthikanti et al., Table
 * 2): none, t = 1 (or t > 1 with sequence parallelism):  sbh (34 + 5as/h) /
 * t none, tensor parallel only:                        sbh (10 + 24/t +
 * 5as/(ht)) selective, with sequence parallelism:              sbh 34/t
 *     selective, tensor parallel only:                   sbh (10 + 24/t)
 *     full:                                              2 sbh
 * Preconditions: every size >= 1. */
double revnets_act_bytes_per_layer(const revnets_layer *l);

/* Activation bytes for `layers` layers: layers * per layer. With pipelining
 * this is what the first stage stores (it holds p micro-batches of L/p
 * layers each, Korthikanti et al. eq. 5). Precondition: layers >= 1. */
double revnets_act_bytes_per_model(const revnets_layer *l, int layers);

/* The FLOPs recomputation adds, as a fraction of a training step's matrix
 * FLOPs (forward + backward = 3 forwards). A layer's forward is 24 b s h^2
 * + 4 b s^2 h (Korthikanti et al., Appendix A): none: 0;   full: one
 * forward more, 1/3; selective: the two s^2 products again, 4 b s^2 h, over
 * 3 forwards. */
double revnets_recompute_flops_fraction(const revnets_layer *l);

/* The share of an undivided layer's activation bytes (t = 1, no recomputation) that
 * sits in the s^2 attention core, the part selective recomputation drops:
 * (5as/h) / (34 + 5as/h). Preconditions: every size >= 1. */
double revnets_attention_core_share(const revnets_layer *l);

/* Bytes of model state per parameter in mixed-precision training with Adam:
 * bf16 weights and gradients (2 + 2), and fp32 master weights, momentum and
 * variance (4 + 4 + 4). Rajbhandari et al. 2020 (ZeRO, arXiv:1910.02054),
 * section 3.1. */
#define REVNETS_ADAM_BYTES_PER_PARAM 16.0

/* Model state one GPU holds when the parameters are split evenly over
 * tensor_parallel x pipeline_parallel GPUs: 16 x params / (t x p), in
 * bytes. Preconditions: params > 0, tensor_parallel >= 1, pipeline_parallel
 * >= 1. */
double revnets_model_state_bytes_per_gpu(double params,
                                         double tensor_parallel,
                                         double pipeline_parallel);

#endif /* CHALK_REVNETS_H */
