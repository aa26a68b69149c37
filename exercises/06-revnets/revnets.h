// clang-format off
/*
 * revnets.h -- Chapter 6: ciphers and neural nets, Feistel networks and
 * RevNets.
 *
 * The contract for chapter 6. You implement these functions in
 * exercises/06-revnets/revnets.c; the tests in tests/06-revnets/ check
 * them. Read chapter 6 of the book alongside: each exercise names the
 * section that explains it by its number and title in the book.
 *
 * Unlike chapters 1-5, most of this chapter computes with bits and with
 * vectors:
 *
 *   - a seeded generator (SplitMix64), so every "random" experiment is
 *     repeatable;
 *   - Feistel ciphers: a generic Feistel network, a toy cipher built on it,
 *     and TEA and XTEA, held to their published test vectors;
 *   - avalanche: how many output bits change when one input bit does, for
 *     a cipher and for a small neural net with and without its residual
 *     connection, and the fewest rounds that reach a target;
 *   - RevNet blocks (Gomez et al. 2017), run forward and backward, in
 *     float and in double;
 *   - training memory: backpropagation with stored activations against a
 *     reversible backward pass that regenerates them, the activation
 *     memory of a real transformer layer (Korthikanti et al. 2022), and a
 *     plan of checkpoints that fits a memory budget.
 *
 * Conventions. A 64-bit block is two 32-bit words: block[0] holds the
 * first four bytes read big-endian (the "left" half), block[1] the last
 * four. As one uint64_t, block[0] is the high word. Word arithmetic is
 * modulo 2^32 (uint32_t wraps). Vectors are arrays of double; matrices are
 * row-major. FLOPs count 2 per multiply-accumulate and only the matrix
 * products (the book's convention). Memory is in bytes (SI: GB is 1e9
 * bytes).
 *
 * Buffers. Nothing here allocates: every buffer is the caller's, and each
 * function's comment gives the size of every buffer it takes, in elements
 * ("x1, x2: half doubles each"). A buffer marked "read" is only read; one
 * marked "written" or "read and written" is changed in place; "scratch"
 * may hold anything on return. The sizes are part of the contract: that is
 * how the reversible backward pass proves that its memory does not grow
 * with depth.
 */
// clang-format on
#ifndef CHALK_REVNETS_H
#define CHALK_REVNETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cost.h"

/* ---- Exercise 6.1 (*) feistel: any round function, always invertible
 * §6.2 (The Feistel construction) */

/* A round function: mixes one 32-bit half with a round key. It need not
 * be invertible: the Feistel network around it is. */
typedef uint32_t (*revnets_round_fn)(uint32_t half, uint32_t round_key);

// clang-format off
/* Encrypts block = {L, R} in place with `rounds` Feistel rounds, round i
 * using round_keys[i]:
 *
 *     (L, R)  ->  (R, L ^ f(R, round_keys[i]))
 *
 * so the halves swap every round (and stay swapped after the last).
 * Buffers: block: 2 words, read and written; round_keys: `rounds` words,
 * read (none when rounds is 0). Preconditions: rounds >= 0; f is a
 * function, called with the right half and a round key. */
// clang-format on
void revnets_feistel_encrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f);

/* Undoes revnets_feistel_encrypt for the same round keys, rounds and f,
 * running f only forwards, as §6.2 (The Feistel construction) derives.
 * Buffers and preconditions as revnets_feistel_encrypt. */
void revnets_feistel_decrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f);

/* ---- Exercise 6.2 (*) toy_cipher: a small Feistel cipher
 * §6.2 (The Feistel construction) */

// clang-format off
/* The toy cipher's round function, many-to-one on purpose. With
 * t = half ^ round_key and all arithmetic modulo 2^32:
 *
 *     f(half, round_key) = rotl32(t * (t | 1), 16)
 *     rotl32(x, 16)      = (x << 16) | (x >> 16)   (swaps the halves)
 *
 * For odd t, t * (t | 1) = t^2, the same for t and -t: f is not
 * invertible. */
// clang-format on
uint32_t revnets_toy_f(uint32_t half, uint32_t round_key);

/* The toy cipher: revnets_feistel_encrypt with revnets_toy_f and round
 * keys K_i = key[i % 4], for `rounds` rounds. Buffers: block: 2 words,
 * read and written; key: 4 words, read. Precondition: 0 <= rounds <= 64.
 */
void revnets_toy_encrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds);

/* Its inverse, with the same key and rounds. Buffers and precondition as
 * revnets_toy_encrypt. */
void revnets_toy_decrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds);

/* ---- Exercise 6.3 (*) tea_xtea: TEA and XTEA
 * §6.3 (TEA and XTEA: Feistel rounds with addition) */

/* The key-schedule constant: floor((sqrt(5) - 1) / 2 * 2^32). */
#define REVNETS_TEA_DELTA 0x9E3779B9u
/* The published ciphers: 32 cycles, each two Feistel rounds. */
#define REVNETS_TEA_CYCLES 32

// clang-format off
/* TEA (Wheeler and Needham 1994) on v = {v0, v1} in place: `cycles`
 * cycles of the three lines below, in this order, with k = {k0, k1, k2,
 * k3}, every operation on 32-bit words (+ modulo 2^32, << and >> logical
 * shifts, ^ exclusive or) and sum starting at 0. The brackets matter: the
 * whole exclusive or of three terms is added to v0 (and to v1), as in
 * Wheeler and Needham's C, `v0 += (v1 << 4) + k0 ^ v1 + sum ^ ...`.
 *
 *     sum <- sum + REVNETS_TEA_DELTA
 *     v0  <- v0 + [ ((v1 << 4) + k0) ^ (v1 + sum) ^ ((v1 >> 5) + k1) ]
 *     v1  <- v1 + [ ((v0 << 4) + k2) ^ (v0 + sum) ^ ((v0 >> 5) + k3) ]
 *
 * With a zero key and block, 32 cycles give {0x41EA3A0A, 0x94BAA940}.
 * Buffers: v: 2 words, read and written; k: 4 words, read.
 * Precondition: cycles >= 0 (0 leaves v as it was). */
// clang-format on
void revnets_tea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles);

/* Undoes revnets_tea_encrypt with the same key and number of cycles, for
 * any cycles >= 0: decrypting what revnets_tea_encrypt gave returns the
 * block it was given. What decryption must replay: §6.3 (TEA and XTEA).
 * Buffers as revnets_tea_encrypt. */
void revnets_tea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles);

// clang-format off
/* XTEA (Needham and Wheeler 1997) on v in place: `cycles` cycles of the
 * three lines below, in this order, sum starting at 0, k(j) the key word
 * k[j] and every operation on 32-bit words as in TEA:
 *
 *     v0  <- v0 + [ (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + k(sum & 3)) ]
 *     sum <- sum + REVNETS_TEA_DELTA
 *     v1  <- v1 + [ (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + k((sum >> 11) & 3)) ]
 *
 * With a zero key and block, 32 cycles give {0xDEE9D4D8, 0xF7131ED9}.
 * Buffers: v: 2 words, read and written; k: 4 words, read.
 * Precondition: cycles >= 0. */
// clang-format on
void revnets_xtea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles);

/* Undoes revnets_xtea_encrypt with the same key and cycles, for any
 * cycles >= 0. Buffers as revnets_xtea_encrypt. */
void revnets_xtea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles);

/* ---- Exercise 6.4 (*) generator: SplitMix64
 * §6.4 (Avalanche, measured) */

/* A pseudo-random generator: 64 bits of state, advanced by a fixed odd
 * constant and hashed on the way out (SplitMix64: Steele, Lea and Flood
 * 2014; Vigna's reference splitmix64.c). Same seed, same sequence, on
 * every machine. */
typedef struct revnets_rng {
    uint64_t state;
} revnets_rng;

/* A generator seeded with `seed` (its state is the seed itself). */
static inline revnets_rng revnets_rng_seeded(uint64_t seed)
{
    revnets_rng g = {.state = seed};
    return g;
}

// clang-format off
/* The next 64 random bits. All arithmetic modulo 2^64, in this order:
 *
 *     state <- state + 0x9E3779B97F4A7C15
 *     z     <- state
 *     z     <- (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
 *     z     <- (z ^ (z >> 27)) * 0x94D049BB133111EB
 *     return   z ^ (z >> 31)
 *
 * Seeded with 0, the first three outputs are 0xE220A8397B1DCDAF,
 * 0x6E789E6AA1B965F4 and 0x06C45D188009454F. Buffers: g: one generator,
 * read and written (its state advances). */
// clang-format on
uint64_t revnets_rng_next(revnets_rng *g);

/* A double uniform in [lo, hi): the top 53 bits of one revnets_rng_next
 * as a fraction u = (next >> 11) * 2^-53 in [0, 1), then
 * lo + (hi - lo) * u. Buffers: g: one generator, read and written.
 * Precondition: lo < hi, both finite. */
double revnets_rng_uniform(revnets_rng *g, double lo, double hi);

/* Fills w[0..n) with revnets_rng_uniform(g, -scale, scale) draws, in
 * order, from one generator g seeded once with `seed`; scale 0 fills
 * zeros (and draws nothing). A layer of width d whose weights have
 * variance gamma^2 / d uses scale = gamma * sqrt(3 / d). Buffers: w: n
 * doubles, written. Precondition: scale >= 0. */
void revnets_fill_uniform(double *w, size_t n, double scale, uint64_t seed);

/* ---- Exercise 6.5 (*) avalanche: one bit in, how many out?
 * §6.4 (Avalanche, measured) */

/* Anything that maps 64 bits to 64 bits, with its own context (which the
 * caller owns and passes through untouched). */
typedef uint64_t (*revnets_mix_fn)(uint64_t in, const void *ctx);

// clang-format off
/* The avalanche p_flip of `mix`: the mean share of the 64 output bits
 * that change when one input bit is flipped. Each of `trials` trials
 * draws an input x_t as one revnets_rng_next of a single generator seeded
 * once with `seed`, and flips each of its 64 bits j in turn:
 *
 *     flips(t, j) = popcount(mix(x_t) ^ mix(x_t ^ (1 << j)))
 *     total       = sum of flips(t, j) over t < trials and j < 64
 *     p_flip      = total / (trials * 64 * 64)
 *
 * with 1 << j a 64-bit word and popcount the number of set bits. p_flip
 * is 1/64 for the identity, 0 for a constant, about 1/2 for a good
 * cipher. ctx is handed to mix unread. Precondition:
 * trials >= 1. */
// clang-format on
double revnets_avalanche(revnets_mix_fn mix, const void *ctx, long trials,
                         uint64_t seed);

typedef enum revnets_cipher {
    REVNETS_CIPHER_TOY = 0,
    REVNETS_CIPHER_TEA,
    REVNETS_CIPHER_XTEA,
} revnets_cipher;

/* A cipher with its key, as a mixer: `rounds` is Feistel rounds for the
 * toy cipher (0 to 64) and cycles (two rounds each, >= 0) for TEA and
 * XTEA. */
typedef struct revnets_keyed {
    revnets_cipher cipher;
    uint32_t key[4];
    int rounds;
} revnets_keyed;

/* Encrypts the block {in >> 32, in & 0xFFFFFFFF} with the cipher in ctx
 * and returns it packed the same way (block[0] the high word). Buffers:
 * ctx: one const revnets_keyed, read. */
uint64_t revnets_cipher_mix(uint64_t in, const void *ctx);

#define REVNETS_MLP_WIDTH 64 /* one unit per bit of the block */

// clang-format off
/* A stack of `depth` layers of width 64, each with a 64 x 64 weight
 * matrix W_l, layer l's at weights + l * 64 * 64, row-major (row i is
 * output unit i). Layer by layer:
 *
 *     plain:    x <- tanh(W_l x)
 *     residual: x <- x + tanh(W_l x) / sqrt(depth)
 *
 * tanh(W_l x) is computed from the whole of the old x before x changes.
 * Bits enter as x_j = +1 (bit j set) or -1, and leave as bit j = 1 when
 * x_j > 0 (0 when x_j <= 0). depth 0 is the identity on signs. */
// clang-format on
typedef struct revnets_mlp {
    const double *weights; /* depth * 64 * 64 doubles */
    int depth;
    bool residual;
} revnets_mlp;

/* Runs the MLP in ctx on the 64 bits of `in`, bit j of the word being
 * unit j, and returns the output bits. Buffers: ctx: one const
 * revnets_mlp, read, whose weights hold depth * 64 * 64 doubles. */
uint64_t revnets_mlp_mix(uint64_t in, const void *ctx);

/* ---- Exercise 6.6 (***) rounds_to_avalanche: how many rounds suffice?
 * §6.4 (Avalanche, measured) */

/* A family of mixers indexed by a number of rounds (a cipher with its
 * key, cut after `rounds` rounds), with its own context. */
typedef uint64_t (*revnets_rounds_fn)(uint64_t in, int rounds,
                                      const void *ctx);

/* The fewest rounds r, 1 <= r <= max_rounds, at which the family reaches
 * avalanche: |p_flip(r) - 1/2| <= tolerance, where p_flip(r) is
 * revnets_avalanche of the mixer "x -> mix(x, r, ctx)" with the given
 * trials and seed (the same seed for every r, so every r sees the same
 * inputs). A distance equal to the tolerance counts as reached. Returns 0
 * when no r up to max_rounds reaches it (and when max_rounds is 0). ctx
 * is handed to mix unread.
 *
 * Preconditions: max_rounds >= 0, tolerance >= 0, trials >= 1, and the
 * family only gains by more rounds: once a round reaches avalanche,
 * every later round up to max_rounds reaches it too.
 *
 * Sizes it must handle, each call within the tests' time limit
 * (CHALK_TIMEOUT, 2 s): max_rounds up to INT_MAX with members that cost
 * the same at any r, the answer anywhere up to max_rounds; and answers up
 * to 10^5 (max_rounds still up to INT_MAX) with members whose cost grows
 * in proportion to r, as a cipher cut after r rounds runs r of them. The
 * tests count what a call measures: past their budget a member reaches
 * avalanche at once, so a search that costs too much returns a wrong
 * round quickly instead of running out of time. */
int revnets_rounds_to_avalanche(revnets_rounds_fn mix, const void *ctx,
                                int max_rounds, double tolerance,
                                long trials, uint64_t seed);

/* ---- RevNet blocks: the networks of exercises 6.7 to 6.11 ------------ */

/* The precision of the arithmetic. With REVNETS_FLOAT every operand and
 * every result (each product, sum, tanh) is rounded to float: for +, -, *
 * this gives exactly IEEE float arithmetic, since double carries more
 * than 2 * 24 + 2 bits. */
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

// clang-format off
/* A stack of reversible blocks. The state is two streams x1, x2 of `half`
 * numbers each (width d = 2 * half). Block l has two half x half
 * matrices, W_F then W_G, and its residual functions are, tanh taken
 * element by element:
 *
 *     F(h) = tanh(W_F h),    G(h) = tanh(W_G h)
 *
 * weights holds layers * 2 * half * half doubles: W_F of block 0, W_G of
 * block 0, W_F of block 1, ..., each row-major. */
// clang-format on
typedef struct revnets_net {
    int layers; /* >= 0 */
    int half;   /* >= 1 */
    const double *weights;
} revnets_net;

/* Block l's W_F and W_G: half * half doubles each. */
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

/* ---- Exercise 6.7 (*) revnet_block: forward, inverse, the lecture's
 * form §6.5 (RevNets: the Feistel trick in a network) */

// clang-format off
/* One RevNet block in place (Gomez et al. 2017, eq. 2):
 *
 *     x1 <- x1 + F(x2);    then    x2 <- x2 + G(x1)
 *     F(h)_i = tanh(sum over j < half of wf[i * half + j] * h_j)
 *     G(h)_i = tanh(sum over j < half of wg[i * half + j] * h_j)
 *
 * (G reads the NEW x1, that is y1.)
 * In a dot product the terms are added in order j = 0, 1, ...; in float
 * every weight, product, partial sum and tanh is rounded (revnets_round),
 * and so is each residual sum x1 + F(x2) and x2 + G(y1), once. The
 * streams are not rounded again on entry: in float they must already hold
 * float values (revnets_round(v, REVNETS_FLOAT) == v), as the rounded
 * copy of revnets_reconstruction_error does. Buffers: wf, wg: half * half
 * doubles each, read; x1, x2: half doubles each, read and written.
 * Precondition: half >= 1; in float, x1 and x2 hold float values. */
// clang-format on
void revnets_block_forward(const double *wf, const double *wg, int half,
                           double *x1, double *x2, revnets_dtype dt);

// clang-format off
/* Undoes revnets_block_forward, running F and G only forwards:
 *
 *     x2 <- x2 - G(x1);    then    x1 <- x1 - F(x2)
 *
 * rounded as revnets_block_forward. Buffers and precondition as
 * revnets_block_forward. */
// clang-format on
void revnets_block_inverse(const double *wf, const double *wg, int half,
                           double *x1, double *x2, revnets_dtype dt);

// clang-format off
/* The lecture's step, in place, with f(h) = tanh(W h) rounded as in
 * revnets_block_forward:
 *
 *     (x, y) -> (y + f(x), x)
 *
 * Two such steps, with f = F then f = G, are one RevNet block with its
 * outputs swapped: starting from (x, y) = (x2, x1) they end at (y2, y1).
 * Buffers: w: half * half doubles, read; x, y: half doubles each, read
 * and written. Precondition: half >= 1. */
// clang-format on
void revnets_lecture_step(const double *w, int half, double *x, double *y,
                          revnets_dtype dt);

/* ---- Exercise 6.8 (*) reconstruction: float against double
 * §6.5 (RevNets: the Feistel trick in a network) */

/* Every block of the stack, 0 to layers - 1, in place. Buffers:
 * net->weights: net->layers * 2 * net->half * net->half doubles, read;
 * x1, x2: net->half doubles each, read and written. */
void revnets_stack_forward(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt);

/* Every block's inverse, layers - 1 down to 0, in place. Buffers as
 * revnets_stack_forward. */
void revnets_stack_inverse(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt);

/* How well the stack undoes itself in precision dt: rounds the input to
 * dt, runs the stack forward and then inverse on that copy, and returns
 * the largest absolute difference between what comes back and the
 * ROUNDED input, over both streams (0 means exact). Buffers: x1, x2:
 * net->half doubles each, read (never written); work: 2 * net->half
 * doubles, scratch. */
double revnets_reconstruction_error(const revnets_net *net,
                                    const double *x1, const double *x2,
                                    revnets_dtype dt, double *work);

/* ---- Exercise 6.9 (*) training_cost: memory and FLOPs of a step
 * §6.6 (Training memory: store or regenerate) */

/* Doubles of workspace revnets_backward_stored needs: the activations its
 * backward pass reads, kept for every one of the `layers` blocks, as
 * §6.6 (Training memory: store or regenerate) counts them. Grows with
 * depth. Preconditions: layers >= 0, half >= 1. */
size_t revnets_work_stored(int layers, int half);

/* Doubles of workspace revnets_backward_reversible needs, as §6.6
 * (Training memory: store or regenerate) counts them: the same whatever
 * the depth. Preconditions as revnets_work_stored. */
size_t revnets_work_reversible(int layers, int half);

/* Matrix FLOPs of one training step (forward, then backward) for one
 * example through `layers` blocks, counted as in §6.6 (Training memory:
 * store or regenerate): only the matrix products, 2 FLOPs per
 * multiply-accumulate; with `reversible`, what regenerating the
 * activations re-runs as well. Preconditions as revnets_work_stored. */
double revnets_train_flops(int layers, int half, bool reversible);

/* What reversibility adds to a training step's FLOPs, as a fraction of
 * the stored step's FLOPs (0.5 would mean half as many again), §6.6
 * (Training memory: store or regenerate). Preconditions: layers >= 1,
 * half >= 1. */
double revnets_extra_flops_fraction(int layers, int half);
/* ---- Exercise 6.10 (**) stored_backprop: the usual backward pass
 * §6.6 (Training memory: store or regenerate) */

// clang-format off
/* Backpropagation through the whole stack, in double, for the loss
 *
 *     loss = (|y1|^2 + |y2|^2) / 2     at the stack's output (y1, y2)
 *
 * computed in double from the input (x1, x2). §6.6 (Training memory:
 * store or regenerate) sets the scene; the gradients are yours to derive.
 * work has room for what the backward pass reads of every block, no
 * more (revnets_work_stored). Returns the loss; writes
 * d loss / d W into grad (the layout of net->weights: grad[k] is the
 * derivative with respect to net->weights[k]; every entry written) and
 * d loss / d x into gx1, gx2. Buffers: x1, x2: net->half doubles each,
 * read (never written); grad: net->layers * 2 * net->half * net->half
 * doubles, written; gx1, gx2: net->half doubles each, written, and free
 * to serve as working space (any values, such as the state while the
 * forward pass runs) until they receive their final values; work:
 * revnets_work_stored(net->layers, net->half) doubles, scratch. */
// clang-format on
double revnets_backward_stored(const revnets_net *net, const double *x1,
                               const double *x2, double *grad, double *gx1,
                               double *gx2, double *work);

/* ---- Exercise 6.11 (**) reversible_backprop: activations regenerated
 * §6.6 (Training memory: store or regenerate) */

/* The same loss and gradients as revnets_backward_stored (equal to
 * rounding), in a workspace that does not grow with depth: no block's
 * activations are kept from the forward pass; why none need be, §6.6
 * (Training memory: store or regenerate). Buffers: x1, x2: net->half
 * doubles each, read (never written); grad:
 * net->layers * 2 * net->half * net->half doubles, written; gx1, gx2:
 * net->half doubles each, written, and free to serve as working space
 * until they receive their final values, as in revnets_backward_stored;
 * work: revnets_work_reversible(net->layers, net->half) doubles
 * (exercise 6.9), scratch, and not one double more, whatever the depth.
 */
double revnets_backward_reversible(const revnets_net *net, const double *x1,
                                   const double *x2, double *grad,
                                   double *gx1, double *gx2, double *work);

/* ---- Exercise 6.12 (*) activation_memory: a real transformer layer
 * §6.7 (Activation memory of a transformer layer) */

/* What the backward pass recomputes instead of storing. */
typedef enum revnets_recompute {
    REVNETS_RECOMPUTE_NONE = 0,  /* store everything it reads */
    REVNETS_RECOMPUTE_SELECTIVE, /* recompute the attention scores */
    REVNETS_RECOMPUTE_FULL,      /* store each layer's input only */
} revnets_recompute;

/* One transformer layer as Korthikanti et al. 2022 count it: 16-bit
 * activations, 1-byte dropout masks, a GELU MLP four times as wide as the
 * model, with the book's symbols (the paper's in brackets). */
typedef struct revnets_layer {
    double seq_tokens;      /* S [s]: tokens per sequence */
    double microbatch;      /* B_micro [b]: sequences per micro-batch */
    double hidden;          /* d_model [h]: model width */
    double heads;           /* n_h [a]: attention heads */
    double tensor_parallel; /* n_TP [t]: GPUs a layer is split over */
    bool sequence_parallel; /* the rest split along the sequence too */
    revnets_recompute recompute;
} revnets_layer;

/* Activation bytes one GPU keeps for one layer for the backward pass,
 * counted as in §6.7 (Activation memory of a transformer layer): tensor
 * parallelism splits what lies inside the attention and MLP blocks over
 * n_TP GPUs and leaves the rest on every GPU; sequence parallelism splits
 * that rest along the sequence; selective recomputation keeps everything
 * but the attention scores; full recomputation keeps only the layer's
 * 16-bit input, as this GPU holds it (split along the sequence with
 * sequence parallelism, whole without). With n_TP = 1 there is nothing to
 * split, with or without sequence parallelism. Buffers: l: one
 * revnets_layer, read. Preconditions: every size >= 1. */
double revnets_act_bytes_per_layer(const revnets_layer *l);

/* Activation bytes for `layers` layers: layers times one layer's. With
 * pipelining this is what the first stage keeps; why:
 * §6.7 (Activation memory of a transformer layer).
 * Buffers: l: one revnets_layer, read. Precondition: layers >= 1. */
double revnets_act_bytes_per_model(const revnets_layer *l, int layers);

/* The matrix FLOPs recomputation adds to a training step, as a fraction
 * of the step's own (forward + backward), counted as in
 * §6.7 (Activation memory of a transformer layer),
 * after Korthikanti et al., Appendix A: the layer's weight products and
 * the two attention products, QK^T and the scores times V. 0 for none.
 * Buffers: l: one revnets_layer, read. Preconditions: every size >= 1.
 */
double revnets_recompute_flops_fraction(const revnets_layer *l);

/* The share of an undivided layer's activation bytes (n_TP = 1, no
 * recomputation) held by the attention core, the part that grows with
 * S^2 and that selective recomputation drops: a number in (0, 1), §6.7
 * (Activation memory of a transformer layer). Only the sizes S, B_micro,
 * d_model and n_h are read. Preconditions: every size >= 1. */
double revnets_attention_core_share(const revnets_layer *l);

/* Bytes of model state per parameter in mixed-precision training with
 * Adam: bf16 weights and gradients (2 + 2), and fp32 master weights,
 * momentum and variance (4 + 4 + 4). Rajbhandari et al. 2020 (ZeRO,
 * arXiv:1910.02054), section 3.1. */
#define REVNETS_ADAM_BYTES_PER_PARAM 16.0

/* The model state (weights, gradients and Adam's state, counted as
 * REVNETS_ADAM_BYTES_PER_PARAM does) that one GPU holds, in bytes, when
 * the `params` parameters of one model copy are split evenly over its
 * tensor_parallel x pipeline_parallel GPUs, §6.7 (Activation memory of a
 * transformer layer). Preconditions: params > 0, tensor_parallel >= 1,
 * pipeline_parallel >= 1. */
double revnets_model_state_bytes_per_gpu(double params,
                                         double tensor_parallel,
                                         double pipeline_parallel);

/* ---- Exercise 6.13 (***) checkpoint_plan: fit a memory budget
 * §6.8 (Checkpoints under a memory budget) */

/* A plan for the activations of a stack of identical layers: the last
 * `stored` layers (nearest the output) keep all their activations; the
 * other layers are cut into `segments` segments of at most `segment`
 * layers, each keeping only its first layer's input (its checkpoint) and
 * recomputed from it during the backward pass. */
typedef struct revnets_checkpoint_plan {
    bool exists;       /* false: no plan fits; every field below is 0 */
    int stored;        /* layers that keep everything: 0 .. layers */
    int segment;       /* layers in the longest segment; 0 if none */
    int segments;      /* segments; 0 when every layer is stored */
    double peak_bytes; /* the plan's peak memory, in bytes */
    double extra_flops_fraction; /* what recomputing adds to a step */
} revnets_checkpoint_plan;

/* The plan for `layers` identical layers, each keeping layer_bytes of
 * activations when stored and input_bytes as a checkpoint, whose peak
 * memory, as §6.8 (Checkpoints under a memory budget) models it, is at
 * most budget_bytes (equal counts as fitting), and which recomputes as
 * few layers as possible. Rules, in order:
 *   - the most stored layers wins;
 *   - among the segment lengths that fit with that many stored layers,
 *     the one with the least peak memory, and on a tie the shortest;
 *   - the segments are as many as that length needs (the last one may be
 *     shorter);
 *   - no plan at all fits (even every layer in segments of the best
 *     length): exists is false, every other field 0.
 * peak_bytes is the plan's peak as the peak-memory equation of §6.8
 * (Checkpoints under a memory budget) writes it (its two terms, the
 * checkpoints' bytes and the held layers' bytes, added in the
 * equation's order), and that same value is what is compared with the
 * budget; extra_flops_fraction is the
 * matrix FLOPs recomputing the plan's layers adds to a training step, as
 * a fraction of the step's, counted as in §6.6 (Training memory: store or
 * regenerate) (0 when every layer is stored). Preconditions:
 * 1 <= layers <= 10^7, layer_bytes > 0, 0 < input_bytes <= layer_bytes,
 * budget_bytes >= 0.
 *
 * Sizes it must handle, each call within the tests' time limit
 * (CHALK_TIMEOUT, 2 s): layers up to 10^7 (a long chain of identical
 * steps, as §6.8 (Checkpoints under a memory budget) motivates), with
 * any budget, the answer anywhere in the range. */
revnets_checkpoint_plan revnets_plan_checkpoints(int layers,
                                                 double layer_bytes,
                                                 double input_bytes,
                                                 double budget_bytes);

/* What a GPU's HBM leaves a plan for activations, §6.8 (Checkpoints under
 * a memory budget): hbm_bytes less the model state it holds
 * (revnets_model_state_bytes_per_gpu), and 0 when the state alone fills
 * it. Preconditions: both >= 0. */
double revnets_activation_budget_bytes(double hbm_bytes,
                                       double model_state_bytes);

/* All that a plan's training step recomputes, as a fraction of the
 * step's matrix FLOPs, §6.8 (Checkpoints under a memory budget): the
 * recomputed segments of `plan`, and what each of its plan->stored
 * layers recomputes itself as `layer` says, counted as
 * revnets_recompute_flops_fraction counts it: nothing for
 * REVNETS_RECOMPUTE_NONE, the attention scores for
 * REVNETS_RECOMPUTE_SELECTIVE, and for REVNETS_RECOMPUTE_FULL the
 * layer's whole forward pass once more (such a stored layer keeps only
 * its input, as revnets_act_bytes_per_layer counts it, and regenerates
 * the rest). `layers` is the whole stack, plan's too. 0 for a plan that
 * does not exist. Preconditions: layers >= 1, the layer's sizes as for
 * revnets_act_bytes_per_layer. */
double revnets_plan_flops_fraction(const revnets_checkpoint_plan *plan,
                                   int layers, const revnets_layer *layer);

/* ---- Exercise 6.14 (**) longest_sequence: how long a sequence fits?
 * §6.9 (Which way to trade) */

/* The longest sequence S, in whole tokens, whose activations fit
 * budget_bytes on the GPU that holds the most of them, a bound §6.9
 * (Which way to trade) derives from §6.7 (Activation memory of a
 * transformer layer):
 *   - reversible false: the first pipeline stage, which keeps `layers`
 *     layers' worth, each as revnets_act_bytes_per_layer counts layer `l`
 *     at sequence length S (its split and recomputation as l says);
 *   - reversible true: reversible layers, which keep no per-layer
 *     activations; the backward pass holds one layer's at a time, as
 *     revnets_act_bytes_per_layer counts l at S, except that l->recompute
 *     REVNETS_RECOMPUTE_FULL counts as REVNETS_RECOMPUTE_NONE there: the
 *     backward regenerates the whole layer and holds all of it.
 * Fitting is judged on those bytes as revnets_act_bytes_per_model (or
 * revnets_act_bytes_per_layer) computes them at S, and equal counts as
 * fitting: S fits and S + 1 does not, even when the bytes at S meet the
 * budget exactly (the tests set such budgets). l->seq_tokens is not read
 * (S is the unknown); the other sizes are. Returns 0 when not even one
 * token fits. Buffers: l: one revnets_layer, read. Preconditions:
 * layers >= 1, budget_bytes >= 0, the sizes other than seq_tokens >= 1,
 * and the answer below 2^50 tokens (the tests go near 2^47). */
long revnets_longest_sequence(const revnets_layer *l, int layers,
                              bool reversible, double budget_bytes);

#endif /* CHALK_REVNETS_H */
