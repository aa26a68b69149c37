/*
 * revnets.c -- Chapter 6 reference solution: ciphers, avalanche, RevNets,
 * training memory.
 *
 * Contract and equations: exercises/06-revnets/revnets.h. Nothing here
 * allocates: every buffer is the caller's, with its size fixed by the
 * contract, which is what lets the tests prove that the reversible backward
 * pass needs the same memory at any depth.
 */
#include "revnets.h"

#include <math.h>

/* ---- Exercise 6.1 feistel ------------------------------------------ */

/* region: feistel */
void revnets_feistel_encrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f)
{
    COST_ASSERT(rounds >= 0 && "need rounds >= 0");
    uint32_t left = block[0], right = block[1];
    for (int i = 0; i < rounds; i++) {
        uint32_t mixed = left ^ f(right, round_keys[i]);
        left = right; /* the swap: next round mixes the other half */
        right = mixed;
    }
    block[0] = left;
    block[1] = right;
}

void revnets_feistel_decrypt(uint32_t block[2], const uint32_t *round_keys,
                             int rounds, revnets_round_fn f)
{
    COST_ASSERT(rounds >= 0 && "need rounds >= 0");
    uint32_t left = block[0], right = block[1];
    for (int i = rounds - 1; i >= 0; i--) {
        uint32_t old_left =
            right ^ f(left, round_keys[i]); /* f runs forwards */
        right = left;
        left = old_left;
    }
    block[0] = left;
    block[1] = right;
}
/* endregion: feistel */

/* ---- Exercise 6.2 toy_cipher --------------------------------------- */

/* region: toy */
uint32_t revnets_toy_f(uint32_t half, uint32_t round_key)
{
    uint32_t t = half ^ round_key;
    uint32_t product = t * (t | 1); /* t^2 for odd t: t and -t collide */
    return (product << 16) | (product >> 16);
}

/* The toy key schedule: round i uses key word i mod 4. */
static void toy_round_keys(const uint32_t key[4], int rounds,
                           uint32_t *round_keys)
{
    for (int i = 0; i < rounds; i++)
        round_keys[i] = key[i % 4];
}

/* The toy cipher one way or the other: its round keys, then the network. */
static void toy_run(uint32_t block[2], const uint32_t key[4], int rounds,
                    bool decrypt)
{
    COST_ASSERT(rounds >= 0 && rounds <= 64 &&
                "toy cipher: 0 to 64 rounds");
    uint32_t round_keys[64];
    toy_round_keys(key, rounds, round_keys);
    if (decrypt)
        revnets_feistel_decrypt(block, round_keys, rounds, revnets_toy_f);
    else
        revnets_feistel_encrypt(block, round_keys, rounds, revnets_toy_f);
}

void revnets_toy_encrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds)
{
    toy_run(block, key, rounds, false);
}

void revnets_toy_decrypt(uint32_t block[2], const uint32_t key[4],
                         int rounds)
{
    toy_run(block, key, rounds, true);
}
/* endregion: toy */

/* ---- Exercise 6.3 tea_xtea ----------------------------------------- */

/* region: tea */
void revnets_tea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    COST_ASSERT(cycles >= 0 && "need cycles >= 0");
    uint32_t v0 = v[0], v1 = v[1], sum = 0;
    for (int i = 0; i < cycles; i++) {
        sum += REVNETS_TEA_DELTA;
        v0 += ((v1 << 4) + k[0]) ^ (v1 + sum) ^ ((v1 >> 5) + k[1]);
        v1 += ((v0 << 4) + k[2]) ^ (v0 + sum) ^ ((v0 >> 5) + k[3]);
    }
    v[0] = v0;
    v[1] = v1;
}

void revnets_tea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    COST_ASSERT(cycles >= 0 && "need cycles >= 0");
    uint32_t v0 = v[0], v1 = v[1];
    uint32_t sum = (uint32_t)cycles * REVNETS_TEA_DELTA; /* its end */
    for (int i = 0; i < cycles; i++) {
        v1 -= ((v0 << 4) + k[2]) ^ (v0 + sum) ^ ((v0 >> 5) + k[3]);
        v0 -= ((v1 << 4) + k[0]) ^ (v1 + sum) ^ ((v1 >> 5) + k[1]);
        sum -= REVNETS_TEA_DELTA;
    }
    v[0] = v0;
    v[1] = v1;
}
/* endregion: tea */

/* region: xtea */
/* XTEA's round function: a shift-xor-add mix of a half, plus a key word */
static uint32_t xtea_mix(uint32_t half, uint32_t sum, uint32_t key_word)
{
    return (((half << 4) ^ (half >> 5)) + half) ^ (sum + key_word);
}

void revnets_xtea_encrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    COST_ASSERT(cycles >= 0 && "need cycles >= 0");
    uint32_t v0 = v[0], v1 = v[1], sum = 0;
    for (int i = 0; i < cycles; i++) {
        v0 += xtea_mix(v1, sum, k[sum & 3]);
        sum += REVNETS_TEA_DELTA;
        v1 += xtea_mix(v0, sum, k[(sum >> 11) & 3]);
    }
    v[0] = v0;
    v[1] = v1;
}

void revnets_xtea_decrypt(uint32_t v[2], const uint32_t k[4], int cycles)
{
    COST_ASSERT(cycles >= 0 && "need cycles >= 0");
    uint32_t v0 = v[0], v1 = v[1];
    uint32_t sum = REVNETS_TEA_DELTA * (uint32_t)cycles;
    for (int i = 0; i < cycles; i++) {
        v1 -= xtea_mix(v0, sum, k[(sum >> 11) & 3]);
        sum -= REVNETS_TEA_DELTA;
        v0 -= xtea_mix(v1, sum, k[sum & 3]);
    }
    v[0] = v0;
    v[1] = v1;
}
/* endregion: xtea */

/* ---- Exercise 6.4 generator ---------------------------------------- */

/* region: splitmix */
uint64_t revnets_rng_next(revnets_rng *g)
{
    g->state += 0x9E3779B97F4A7C15u; /* the golden-ratio increment, odd */
    uint64_t z = g->state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

double revnets_rng_uniform(revnets_rng *g, double lo, double hi)
{
    COST_ASSERT(lo < hi && "need lo < hi");
    double u =
        (double)(revnets_rng_next(g) >> 11) * 0x1p-53; /* [0, 1), 53 bits */
    return lo + (hi - lo) * u;
}
/* endregion: splitmix */

void revnets_fill_uniform(double *w, size_t n, double scale, uint64_t seed)
{
    COST_ASSERT(scale >= 0.0 && "need scale >= 0");
    revnets_rng g = revnets_rng_seeded(seed);
    for (size_t i = 0; i < n; i++)
        w[i] = scale == 0.0 ? 0.0 : revnets_rng_uniform(&g, -scale, scale);
}

/* ---- Exercise 6.5 avalanche ---------------------------------------- */

/* Set bits of a word (C11 has no portable popcount). */
static int popcount64(uint64_t x)
{
    int n = 0;
    for (; x != 0; x &= x - 1)
        n++;
    return n;
}

/* region: avalanche */
double revnets_avalanche(revnets_mix_fn mix, const void *ctx, long trials,
                         uint64_t seed)
{
    COST_ASSERT(trials >= 1 && "need at least one trial");
    revnets_rng g = revnets_rng_seeded(seed);
    double flipped = 0.0;
    for (long t = 0; t < trials; t++) {
        uint64_t x = revnets_rng_next(&g);
        uint64_t y = mix(x, ctx);
        for (int j = 0; j < 64; j++)
            flipped += popcount64(y ^ mix(x ^ ((uint64_t)1 << j), ctx));
    }
    return flipped / ((double)trials * 64.0 * 64.0);
}
/* endregion: avalanche */

uint64_t revnets_cipher_mix(uint64_t in, const void *ctx)
{
    const revnets_keyed *c = ctx;
    uint32_t block[2] = {(uint32_t)(in >> 32), (uint32_t)in};
    switch (c->cipher) {
    case REVNETS_CIPHER_TOY:
        revnets_toy_encrypt(block, c->key, c->rounds);
        break;
    case REVNETS_CIPHER_TEA:
        revnets_tea_encrypt(block, c->key, c->rounds);
        break;
    case REVNETS_CIPHER_XTEA:
        revnets_xtea_encrypt(block, c->key, c->rounds);
        break;
    }
    return (uint64_t)block[0] << 32 | block[1];
}

/* region: mlp */
uint64_t revnets_mlp_mix(uint64_t in, const void *ctx)
{
    const revnets_mlp *m = ctx;
    enum { D = REVNETS_MLP_WIDTH };
    double x[D], z[D];
    /* the residual branch's scale, 1/sqrt(depth) */
    double branch = m->depth > 0 ? 1.0 / sqrt((double)m->depth) : 0.0;
    for (int j = 0; j < D; j++)
        x[j] = (in >> j & 1) ? 1.0 : -1.0;
    for (int l = 0; l < m->depth; l++) {
        const double *w = m->weights + (size_t)l * D * D;
        for (int i = 0; i < D; i++) {
            double s = 0.0;
            for (int j = 0; j < D; j++)
                s += w[i * D + j] * x[j];
            z[i] = tanh(s);
        }
        for (int i = 0; i < D; i++)
            x[i] = m->residual ? x[i] + branch * z[i] : z[i];
    }
    uint64_t out = 0;
    for (int j = 0; j < D; j++)
        if (x[j] > 0.0)
            out |= (uint64_t)1 << j;
    return out;
}
/* endregion: mlp */

/* ---- Exercise 6.6 rounds_to_avalanche ------------------------------ */

/* region: rounds-to-avalanche */
/* One member of a family of mixers, as a revnets_mix_fn sees it. */
typedef struct rounds_member {
    revnets_rounds_fn family;
    int rounds;
    const void *ctx;
} rounds_member;

static uint64_t member_mix(uint64_t in, const void *ctx)
{
    const rounds_member *m = ctx;
    return m->family(in, m->rounds, m->ctx);
}

/* Whether member r of the family is within the tolerance of 1/2, measured
 * on the inputs the seed draws (the same for every r). */
static bool reaches(revnets_rounds_fn mix, const void *ctx, int r,
                    double tolerance, long trials, uint64_t seed)
{
    rounds_member m = {.family = mix, .rounds = r, .ctx = ctx};
    double p = revnets_avalanche(member_mix, &m, trials, seed);
    /* a distance equal to the tolerance counts as reached */
    return fabs(p - 0.5) <= tolerance;
}

int revnets_rounds_to_avalanche(revnets_rounds_fn mix, const void *ctx,
                                int max_rounds, double tolerance,
                                long trials, uint64_t seed)
{
    COST_ASSERT(max_rounds >= 0 && tolerance >= 0.0 && trials >= 1 &&
                "need max_rounds >= 0, tolerance >= 0, trials >= 1");
    if (max_rounds < 1)
        return 0;
    /* Reaching is monotone in r. Double r until it reaches (capped at
     * max_rounds): the rounds measured cost under 4 times the answer's. */
    int below = 0, at = 1; /* below: the largest r known not to reach */
    while (!reaches(mix, ctx, at, tolerance, trials, seed)) {
        if (at == max_rounds)
            return 0; /* none up to max_rounds */
        below = at;
        at = at > max_rounds / 2 ? max_rounds : 2 * at;
    }
    /* The answer is in (below, at]: halve that interval, each
     * measurement costing at most twice the answer's. */
    while (at - below > 1) {
        int mid = below + (at - below) / 2;
        if (reaches(mix, ctx, mid, tolerance, trials, seed))
            at = mid;
        else
            below = mid;
    }
    return at;
}
/* endregion: rounds-to-avalanche */

/* ---- Exercise 6.7 revnet_block ------------------------------------- */

/* tanh(W h)_i in precision dt: the dot product summed in order, every
 * product and partial sum rounded, then tanh rounded. */
static double tanh_row(const double *w, int half, int i, const double *h,
                       revnets_dtype dt)
{
    const double *row = w + (size_t)i * (size_t)half;
    double s = 0.0;
    for (int j = 0; j < half; j++)
        s = revnets_round(
            s + revnets_round(revnets_round(row[j], dt) * h[j], dt), dt);
    return revnets_round(tanh(s), dt);
}

/* region: block */
/* x[i] += sign * tanh(W h)_i for every i, in precision dt; h is not x. */
static void add_branch(const double *w, int half, const double *h,
                       double *x, double sign, revnets_dtype dt)
{
    for (int i = 0; i < half; i++)
        x[i] = revnets_round(x[i] + sign * tanh_row(w, half, i, h, dt), dt);
}

void revnets_block_forward(const double *wf, const double *wg, int half,
                           double *x1, double *x2, revnets_dtype dt)
{
    COST_ASSERT(half >= 1 && "need half >= 1");
    add_branch(wf, half, x2, x1, +1.0, dt); /* y1 = x1 + F(x2) */
    add_branch(wg, half, x1, x2, +1.0, dt); /* y2 = x2 + G(y1) */
}

void revnets_block_inverse(const double *wf, const double *wg, int half,
                           double *x1, double *x2, revnets_dtype dt)
{
    COST_ASSERT(half >= 1 && "need half >= 1");
    add_branch(wg, half, x1, x2, -1.0, dt); /* x2 = y2 - G(y1) */
    add_branch(wf, half, x2, x1, -1.0, dt); /* x1 = y1 - F(x2) */
}

void revnets_lecture_step(const double *w, int half, double *x, double *y,
                          revnets_dtype dt)
{
    COST_ASSERT(half >= 1 && "need half >= 1");
    add_branch(w, half, x, y, +1.0, dt); /* y + f(x), written over y */
    for (int i = 0; i < half; i++) { /* then swap: x' = y + f(x), y' = x */
        double t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}
/* endregion: block */

/* ---- Exercise 6.8 reconstruction ----------------------------------- */

/* region: stack */
void revnets_stack_forward(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt)
{
    for (int l = 0; l < net->layers; l++)
        revnets_block_forward(revnets_wf(net, l), revnets_wg(net, l),
                              net->half, x1, x2, dt);
}

void revnets_stack_inverse(const revnets_net *net, double *x1, double *x2,
                           revnets_dtype dt)
{
    for (int l = net->layers - 1; l >= 0; l--)
        revnets_block_inverse(revnets_wf(net, l), revnets_wg(net, l),
                              net->half, x1, x2, dt);
}

double revnets_reconstruction_error(const revnets_net *net,
                                    const double *x1, const double *x2,
                                    revnets_dtype dt, double *work)
{
    int n = net->half;
    double *h1 = work, *h2 = work + n;
    for (int i = 0; i < n; i++) {
        h1[i] = revnets_round(x1[i], dt);
        h2[i] = revnets_round(x2[i], dt);
    }
    revnets_stack_forward(net, h1, h2, dt);
    revnets_stack_inverse(net, h1, h2, dt);
    double err = 0.0;
    for (int i = 0; i < n; i++) {
        err = fmax(err, fabs(h1[i] - revnets_round(x1[i], dt)));
        err = fmax(err, fabs(h2[i] - revnets_round(x2[i], dt)));
    }
    return err;
}
/* endregion: stack */

/* ---- Exercise 6.9 training_cost ------------------------------------ */

/* region: training-cost */
size_t revnets_work_stored(int layers, int half)
{
    COST_ASSERT(layers >= 0 && half >= 1 && "need layers >= 0, half >= 1");
    return (size_t)4 * (size_t)half * (size_t)layers;
}

size_t revnets_work_reversible(int layers, int half)
{
    COST_ASSERT(layers >= 0 && half >= 1 && "need layers >= 0, half >= 1");
    return (size_t)3 * (size_t)half;
}

double revnets_train_flops(int layers, int half, bool reversible)
{
    COST_ASSERT(layers >= 0 && half >= 1 && "need layers >= 0, half >= 1");
    double forward =
        2.0 * COST_FLOPS_PER_MAC * half * (double)half * layers;
    double backward = 2.0 * forward;
    double regenerate = reversible ? forward : 0.0;
    return forward + backward + regenerate;
}

double revnets_extra_flops_fraction(int layers, int half)
{
    double stored = revnets_train_flops(layers, half, false);
    double reversible = revnets_train_flops(layers, half, true);
    return (reversible - stored) / stored;
}
/* endregion: training-cost */

/* ---- Exercises 6.10 and 6.11: the shared backward step ------------- */

/* a[i] = tanh(W h)_i for every i, in double. */
static void tanh_layer(const double *w, int half, const double *h,
                       double *a)
{
    for (int i = 0; i < half; i++)
        a[i] = tanh_row(w, half, i, h, REVNETS_DOUBLE);
}

/* region: branch-backward */
/* Back through x_out = x_in + tanh(W h): on entry a = tanh(W h) and g_out
 * is the gradient at x_out (which is also the gradient at x_in). Writes dW
 * = z h^T into dw with z = (1 - a^2) g_out (z overwrites a), and adds W^T z
 * to g_h. */
static void branch_backward(const double *w, int half, const double *h,
                            double *a, const double *g_out, double *dw,
                            double *g_h)
{
    for (int i = 0; i < half; i++)
        a[i] = (1.0 - a[i] * a[i]) * g_out[i];
    for (int i = 0; i < half; i++)
        for (int j = 0; j < half; j++)
            dw[(size_t)i * half + j] = a[i] * h[j];
    for (int j = 0; j < half; j++) {
        double s = 0.0;
        for (int i = 0; i < half; i++)
            s += w[(size_t)i * half + j] * a[i];
        g_h[j] += s;
    }
}
/* endregion: branch-backward */

/* The loss 0.5 |y|^2 of the output held in (y1, y2); its gradient is y
 * itself, which is left in place. */
static double half_square(const double *y1, const double *y2, int half)
{
    double loss = 0.0;
    for (int i = 0; i < half; i++)
        loss += 0.5 * (y1[i] * y1[i] + y2[i] * y2[i]);
    return loss;
}

/* grad's block l: its dW_F and dW_G. */
static double *grad_f(const revnets_net *net, double *grad, int l)
{
    return grad + (revnets_wf(net, l) - net->weights);
}
static double *grad_g(const revnets_net *net, double *grad, int l)
{
    return grad + (revnets_wg(net, l) - net->weights);
}

/* ---- Exercise 6.10 stored_backprop --------------------------------- */

/* region: stored-backward */
double revnets_backward_stored(const revnets_net *net, const double *x1,
                               const double *x2, double *grad, double *gx1,
                               double *gx2, double *work)
{
    int n = net->half;
    double *h1 = gx1, *h2 = gx2; /* the running state, then the gradient */
    for (int i = 0; i < n; i++) {
        h1[i] = x1[i];
        h2[i] = x2[i];
    }
    /* forward, keeping 4 vectors a block */
    for (int l = 0; l < net->layers; l++) {
        double *keep = work + (size_t)4 * n * l;
        double *in_f = keep, *a_f = keep + n, *in_g = keep + 2 * n,
               *a_g = keep + 3 * n;
        for (int i = 0; i < n; i++)
            in_f[i] = h2[i];
        tanh_layer(revnets_wf(net, l), n, h2, a_f);
        for (int i = 0; i < n; i++)
            h1[i] += a_f[i];
        for (int i = 0; i < n; i++)
            in_g[i] = h1[i];
        tanh_layer(revnets_wg(net, l), n, h1, a_g);
        for (int i = 0; i < n; i++)
            h2[i] += a_g[i];
    }
    /* dloss/dy = y: (gx1, gx2) already hold it */
    double loss = half_square(h1, h2, n);
    for (int l = net->layers - 1; l >= 0; l--) {
        double *keep = work + (size_t)4 * n * l;
        double *in_f = keep, *a_f = keep + n, *in_g = keep + 2 * n,
               *a_g = keep + 3 * n;
        branch_backward(revnets_wg(net, l), n, in_g, a_g, gx2,
                        grad_g(net, grad, l), gx1);
        branch_backward(revnets_wf(net, l), n, in_f, a_f, gx1,
                        grad_f(net, grad, l), gx2);
    }
    return loss;
}
/* endregion: stored-backward */

/* ---- Exercise 6.11 reversible_backprop ----------------------------- */

/* region: reversible-backward */
double revnets_backward_reversible(const revnets_net *net, const double *x1,
                                   const double *x2, double *grad,
                                   double *gx1, double *gx2, double *work)
{
    int n = net->half;
    double *h1 = work, *h2 = work + n, *a = work + 2 * n;
    for (int i = 0; i < n; i++) {
        h1[i] = x1[i];
        h2[i] = x2[i];
    }
    /* forward, keeping the output only */
    revnets_stack_forward(net, h1, h2, REVNETS_DOUBLE);
    double loss = half_square(h1, h2, n);
    for (int i = 0; i < n; i++) {
        gx1[i] = h1[i];
        gx2[i] = h2[i];
    }
    for (int l = net->layers - 1; l >= 0; l--) {
        /* (h1, h2) = (y1, y2): regenerate x2 = y2 - G(y1), then
         * back through G */
        tanh_layer(revnets_wg(net, l), n, h1, a);
        for (int i = 0; i < n; i++)
            h2[i] -= a[i];
        branch_backward(revnets_wg(net, l), n, h1, a, gx2,
                        grad_g(net, grad, l), gx1);
        /* (h1, h2) = (y1, x2): regenerate x1 = y1 - F(x2), then
         * back through F */
        tanh_layer(revnets_wf(net, l), n, h2, a);
        for (int i = 0; i < n; i++)
            h1[i] -= a[i];
        branch_backward(revnets_wf(net, l), n, h2, a, gx1,
                        grad_f(net, grad, l), gx2);
    }
    return loss;
}
/* endregion: reversible-backward */

/* ---- Exercise 6.12 activation_memory ------------------------------- */

/* region: activation-memory */
/* region: activation-memory-bytes */
double revnets_act_bytes_per_layer(const revnets_layer *l)
{
    COST_ASSERT(l->seq_tokens >= 1 && l->microbatch >= 1 &&
                l->hidden >= 1 && l->heads >= 1 &&
                l->tensor_parallel >= 1 && "need sizes >= 1");
    double s = l->seq_tokens, b = l->microbatch, h = l->hidden,
           a = l->heads;
    double t = l->tensor_parallel;
    double sbh = s * b * h;
    /* the attention scores: softmax output, its dropout mask and output */
    double attention_core = 5.0 * a * s / (h * t);
    /* inside attention and the MLP: what tensor parallelism splits */
    double split = 24.0 / t;
    /* norms, dropout masks, block inputs: split only along the sequence */
    double replicated = l->sequence_parallel ? 10.0 / t : 10.0;
    switch (l->recompute) {
    case REVNETS_RECOMPUTE_NONE:
        return sbh * (replicated + split + attention_core);
    case REVNETS_RECOMPUTE_SELECTIVE:
        return sbh * (replicated + split);
    case REVNETS_RECOMPUTE_FULL:
        /* the layer's 16-bit input as this GPU holds it: split along the
         * sequence with sequence parallelism, whole on every GPU without */
        return l->sequence_parallel ? sbh * 2.0 / t : sbh * 2.0;
    }
    return 0.0;
}

double revnets_act_bytes_per_model(const revnets_layer *l, int layers)
{
    COST_ASSERT(layers >= 1 && "need a layer");
    return layers * revnets_act_bytes_per_layer(l);
}
/* endregion: activation-memory-bytes */

/* region: activation-memory-cost */
double revnets_recompute_flops_fraction(const revnets_layer *l)
{
    double s = l->seq_tokens, h = l->hidden;
    double forward =
        24.0 * s * h * h + 4.0 * s * s * h; /* per sequence, per layer */
    switch (l->recompute) {
    case REVNETS_RECOMPUTE_NONE:
        return 0.0;
    case REVNETS_RECOMPUTE_SELECTIVE:
        return 4.0 * s * s * h / (3.0 * forward);
    case REVNETS_RECOMPUTE_FULL:
        return forward / (3.0 * forward);
    }
    return 0.0;
}

double revnets_attention_core_share(const revnets_layer *l)
{
    /* the same layer undivided, with and without the s^2 core */
    revnets_layer whole = *l, cut = *l;
    whole.tensor_parallel = cut.tensor_parallel = 1;
    whole.recompute = REVNETS_RECOMPUTE_NONE;
    cut.recompute = REVNETS_RECOMPUTE_SELECTIVE;
    double whole_bytes = revnets_act_bytes_per_layer(&whole);
    return (whole_bytes - revnets_act_bytes_per_layer(&cut)) / whole_bytes;
}

double revnets_model_state_bytes_per_gpu(double params,
                                         double tensor_parallel,
                                         double pipeline_parallel)
{
    COST_ASSERT(params > 0 && tensor_parallel >= 1 &&
                pipeline_parallel >= 1 &&
                "need params > 0 and at least one GPU each way");
    double gpus = tensor_parallel * pipeline_parallel;
    return REVNETS_ADAM_BYTES_PER_PARAM * params / gpus;
}
/* endregion: activation-memory-cost */
/* endregion: activation-memory */

/* ---- Exercise 6.13 checkpoint_plan --------------------------------- */

/* region: checkpoint-plan */
/* The peak memory of a plan: its checkpoints, and the larger of the
 * stored layers' activations (held until the backward pass frees them,
 * first) and one segment's (while it is recomputed and differentiated).
 * §6.8 (Checkpoints under a memory budget) */
static double plan_peak(int stored, int segments, int segment,
                        double layer_bytes, double input_bytes)
{
    int held = stored > segment ? stored : segment;
    return segments * input_bytes + held * layer_bytes;
}

revnets_checkpoint_plan revnets_plan_checkpoints(int layers,
                                                 double layer_bytes,
                                                 double input_bytes,
                                                 double budget_bytes)
{
    COST_ASSERT(layers >= 1 && layers <= 10000000 && layer_bytes > 0.0 &&
                input_bytes > 0.0 && input_bytes <= layer_bytes &&
                budget_bytes >= 0.0 && "checkpoint plan: bad sizes");
    /* The peak holds at least max(stored, segment) layers, so neither count
     * passes budget / layer_bytes: the search stays near-linear. The peak is
     * not monotone in the stored count: try each, most first. */
    int most = layers;
    if (most * layer_bytes > budget_bytes)
        most = (int)(budget_bytes / layer_bytes); /* < layers here */
    while (most > 0 && most * layer_bytes > budget_bytes)
        most--;
    for (int stored = most; stored >= 0; stored--) {
        int recomputed = layers - stored;
        revnets_checkpoint_plan best = {0};
        if (recomputed == 0) {
            double peak = plan_peak(stored, 0, 0, layer_bytes, input_bytes);
            if (peak <= budget_bytes)
                best = (revnets_checkpoint_plan){
                    .exists = true, .stored = stored, .peak_bytes = peak};
        }
        for (int k = 1; k <= recomputed && k * layer_bytes <= budget_bytes;
             k++) {
            int segments = (recomputed + k - 1) / k;
            double peak =
                plan_peak(stored, segments, k, layer_bytes, input_bytes);
            if (peak <= budget_bytes &&
                (!best.exists || peak < best.peak_bytes))
                best = (revnets_checkpoint_plan){.exists = true,
                                                 .stored = stored,
                                                 .segment = k,
                                                 .segments = segments,
                                                 .peak_bytes = peak};
        }
        if (best.exists) {
            best.extra_flops_fraction = recomputed / (3.0 * layers);
            return best;
        }
    }
    return (revnets_checkpoint_plan){0}; /* none fits */
}
/* endregion: checkpoint-plan */

/* region: plan-budget */
double revnets_activation_budget_bytes(double hbm_bytes,
                                       double model_state_bytes)
{
    COST_ASSERT(hbm_bytes >= 0.0 && model_state_bytes >= 0.0 &&
                "need sizes >= 0");
    double left = hbm_bytes - model_state_bytes;
    return left > 0.0 ? left : 0.0;
}

double revnets_plan_flops_fraction(const revnets_checkpoint_plan *plan,
                                   int layers, const revnets_layer *layer)
{
    COST_ASSERT(layers >= 1 && "need a layer");
    if (!plan->exists)
        return 0.0;
    return plan->extra_flops_fraction +
           (double)plan->stored / layers * revnets_recompute_flops_fraction(layer);
}
/* endregion: plan-budget */

/* ---- Exercise 6.14 longest_sequence -------------------------------- */

/* region: longest-sequence */
/* The activations the GPU holding the most keeps at sequence length s:
 * every layer of the first stage, or one reversible layer at a time. */
static double held_bytes(const revnets_layer *l, int layers, bool reversible,
                         double s)
{
    revnets_layer at = *l;
    at.seq_tokens = s;
    /* a reversible backward regenerates the whole layer and holds it */
    if (reversible && at.recompute == REVNETS_RECOMPUTE_FULL)
        at.recompute = REVNETS_RECOMPUTE_NONE;
    return revnets_act_bytes_per_model(&at, reversible ? 1 : layers);
}

long revnets_longest_sequence(const revnets_layer *l, int layers,
                              bool reversible, double budget_bytes)
{
    COST_ASSERT(layers >= 1 && budget_bytes >= 0 && "need layers >= 1");
    if (held_bytes(l, layers, reversible, 1.0) > budget_bytes)
        return 0;
    /* held(S) = a S^2 + b S: read a and b off S = 1 and S = 2 */
    double m1 = held_bytes(l, layers, reversible, 1.0);
    double m2 = held_bytes(l, layers, reversible, 2.0);
    double a = (m2 - 2.0 * m1) / 2.0, b = m1 - a;
    if (a < 0.0)
        a = 0.0; /* rounding: the S^2 term is absent, not negative */
    /* the root of a S^2 + b S = budget, in the form that does not cancel */
    double root = 2.0 * budget_bytes /
                  (b + sqrt(b * b + 4.0 * a * budget_bytes));
    long s = (long)floor(root);
    if (s < 1)
        s = 1;
    /* the root is rounded: settle on the exact rule, equal fits */
    while (held_bytes(l, layers, reversible, (double)(s + 1)) <= budget_bytes)
        s++;
    while (s > 1 && held_bytes(l, layers, reversible, (double)s) > budget_bytes)
        s--;
    return s;
}
/* endregion: longest-sequence */
