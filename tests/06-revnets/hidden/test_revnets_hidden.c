/*
 * test_revnets_hidden.c -- Chapter 6 instructor-only tests, run by `make grade`
 * beside the public tests and never shipped in a handout. They check the same
 * contract (exercises/06-revnets/revnets.h) on other inputs than the public tests,
 * so an answer shaped to the public tests' inputs does not pass. Expected values are
 * published vectors, paper figures or closed forms, never program output.
 *
 * Sources:
 *   TEA, XTEA   "TeaCrypt" vectors by Logan J. Drews (as carried in the test suites
 *               of several TEA/XTEA libraries): key 00112233 44556677 8899AABB
 *               CCDDEEFF; XTEA key 27F917B1 C1DA8993 60E2ACAA A6EB923D with
 *               plaintext AF20A390 547571AA, 32 cycles (klockstone's teavect page,
 *               carried by ccan's xtea tests and the python xtea package)
 *   SplitMix64  Vigna, splitmix64.c (seed 0)
 *   Memory      Korthikanti et al. 2022, arXiv:2205.05198, Table 2 and Table 3
 *               (22B: a 64, h 6144; 530B: a 128, h 20480; 1T: a 160, h 25600;
 *               s = 2048, t = 8); with sequence parallelism a layer's input is
 *               split along the sequence (Megatron-LM, megatron/model/transformer.py)
 *   Avalanche   linear mixers: XORs of rotations change a known number of bits
 *   Checkpoints the book's model of section 6.8, worked by hand
 */
#include "../../test_util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "revnets.h"

#define TIGHT 1e-12

static void assert_block(const uint32_t got[2], uint32_t hi, uint32_t lo)
{
    if (got[0] == hi && got[1] == lo)
        return;
    fail_msg("block %08x%08x, expected %08x%08x", got[0], got[1], hi, lo);
}

static uint32_t key_only(uint32_t half, uint32_t key)
{
    (void)half;
    return key;
}

static uint64_t complement_mix(uint64_t in, const void *ctx)
{
    (void)ctx;
    return ~in;
}
static uint64_t rotate_mix(uint64_t in, const void *ctx)
{
    (void)ctx;
    return in << 7 | in >> 57;
}
static uint64_t smear_down_mix(uint64_t in, const void *ctx) /* bit j also lands on j - 1 */
{
    (void)ctx;
    return in ^ (in >> 1);
}

/* Test inputs from xorshift64* (not the generator under test). */
static void test_fill(double *v, size_t n, double scale, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15u + 1;
    for (size_t i = 0; i < n; i++) {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        v[i] = scale * ((double)((s * 0x2545F4914F6CDD1Du) >> 11) * 0x1p-52 - 1.0);
    }
}

/* A published vector: key, plaintext, ciphertext as 32-bit words. */
typedef struct cipher_vector {
    uint32_t key[4], plain[2], cipher[2];
} cipher_vector;

typedef void (*cipher_fn)(uint32_t v[2], const uint32_t k[4], int cycles);

/* Each vector through `encrypt` and back through `decrypt`, 32 cycles. */
static void check_both_ways(cipher_fn encrypt, cipher_fn decrypt, const cipher_vector *vs, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t b[2] = {vs[i].plain[0], vs[i].plain[1]};
        encrypt(b, vs[i].key, 32);
        assert_block(b, vs[i].cipher[0], vs[i].cipher[1]);
        decrypt(b, vs[i].key, 32);
        assert_block(b, vs[i].plain[0], vs[i].plain[1]);
    }
}

#define KEY_0011                                                                                   \
    {                                                                                              \
        0x00112233, 0x44556677, 0x8899AABB, 0xCCDDEEFF                                             \
    }

/* TeaCrypt vectors for TEA. */
static void tea_matches_the_teacrypt_vectors(void **state)
{
    (void)state;
    static const cipher_vector vs[2] = {
        {KEY_0011, {0x01020304, 0x05060708}, {0xDEB1C0A2, 0x7E745DB3}},
        {KEY_0011, {0x01234567, 0x89ABCDEF}, {0x126C6B92, 0xC0653A3E}},
    };
    check_both_ways(revnets_tea_encrypt, revnets_tea_decrypt, vs, 2);
}

/* TeaCrypt and klockstone vectors for XTEA. */
static void xtea_matches_the_teacrypt_and_klockstone_vectors(void **state)
{
    (void)state;
    static const cipher_vector vs[3] = {
        {KEY_0011, {0x01020304, 0x05060708}, {0xDCDD7ACD, 0xC1584B79}},
        {KEY_0011, {0x01234567, 0x89ABCDEF}, {0xB8BF2821, 0x622B5B30}},
        {{0x27F917B1, 0xC1DA8993, 0x60E2ACAA, 0xA6EB923D},
         {0xAF20A390, 0x547571AA},
         {0xD26428AF, 0x0A202283}},
    };
    check_both_ways(revnets_xtea_encrypt, revnets_xtea_decrypt, vs, 3);
}

/* Vigna's third output for seed 0, as a uniform draw on [2, 3). */
static void uniform_draw_from_the_third_splitmix_output(void **state)
{
    (void)state;
    revnets_rng g = revnets_rng_seeded(0);
    revnets_rng_next(&g);
    revnets_rng_next(&g);
    double u = (double)(0x06C45D188009454Fu >> 11) * 0x1p-53;
    assert_close(revnets_rng_uniform(&g, 2.0, 3.0), 2.0 + u, TIGHT, "");
}

/* With f = the key, four rounds give (L ^ K0 ^ K2, R ^ K1 ^ K3). */
static void four_feistel_rounds_with_the_key_as_round_function(void **state)
{
    (void)state;
    const uint32_t keys[4] = {0x1, 0x10, 0x100, 0x1000};
    uint32_t b[2] = {0xABCD0000, 0x0000ABCD};
    revnets_feistel_encrypt(b, keys, 4, key_only);
    assert_block(b, 0xABCD0000 ^ 0x1 ^ 0x100, 0x0000ABCD ^ 0x10 ^ 0x1000);
    revnets_feistel_decrypt(b, keys, 4, key_only);
    assert_block(b, 0xABCD0000, 0x0000ABCD);
}

/* t = 6: 6 * 7 = 42 -> 42 << 16; t = 0x8001: odd, t^2 = 0x40010001 mod 2^32, rotated
 * 0x00014001; two toy rounds from (L, R) = (0, 0) with key words 0 and 0: f(0) = 0
 * both times, so (0, 0) comes back. */
static void toy_round_function_on_other_inputs(void **state)
{
    (void)state;
    assert_true(revnets_toy_f(6, 0) == 42u << 16);
    assert_true(revnets_toy_f(0x8001 ^ 0x55, 0x55) == 0x00014001u);
    uint32_t b[2] = {0, 0};
    revnets_toy_encrypt(b, (const uint32_t[4]){0, 0, 0, 0}, 2);
    assert_block(b, 0, 0);
}

/* Complement and rotation move each flipped bit to one output bit: 1/64; x ^ (x >> 1)
 * gives 2 bits per flip except bit 0: (63 * 2 + 1) / 4096. */
static void avalanche_of_other_bit_permutations(void **state)
{
    (void)state;
    assert_close(revnets_avalanche(complement_mix, NULL, 3, 5), 1.0 / 64, TIGHT, "");
    assert_close(revnets_avalanche(rotate_mix, NULL, 3, 6), 1.0 / 64, TIGHT, "");
    assert_close(revnets_avalanche(smear_down_mix, NULL, 3, 7), 127.0 / 4096, TIGHT, "");
}

/* One plain layer with W = -3 I flips every sign: the complement. One residual
 * layer with the same W: x + tanh(-3x) keeps the sign of x (|tanh| < 1). */
static void one_layer_nets_with_a_negated_identity(void **state)
{
    (void)state;
    double *w = calloc(64 * 64, sizeof *w);
    assert_non_null(w);
    for (int j = 0; j < 64; j++)
        w[j * 64 + j] = -3.0;
    revnets_mlp plain = {.weights = w, .depth = 1, .residual = false};
    revnets_mlp resid = {.weights = w, .depth = 1, .residual = true};
    assert_true(revnets_mlp_mix(0x0F1E2D3C4B5A6978u, &plain) == ~0x0F1E2D3C4B5A6978u);
    assert_true(revnets_mlp_mix(0x0F1E2D3C4B5A6978u, &resid) == 0x0F1E2D3C4B5A6978u);
    free(w);
}

/* Three numbers a stream, diagonal weights: y1_i = x1_i + tanh(f_i x2_i),
 * y2_i = x2_i + tanh(g_i y1_i); the inverse brings x back. */
static void block_with_diagonal_weights_by_hand(void **state)
{
    (void)state;
    double wf[9] = {0.5, 0, 0, 0, -2.0, 0, 0, 0, 1.5}, wg[9] = {1.0, 0, 0, 0, 0.25, 0, 0, 0, -0.75};
    double x1[3] = {0.1, -0.2, 0.3}, x2[3] = {0.4, 0.5, -0.6};
    double y1[3], y2[3];
    for (int i = 0; i < 3; i++) {
        y1[i] = x1[i] + tanh(wf[4 * i] * x2[i]);
        y2[i] = x2[i] + tanh(wg[4 * i] * y1[i]);
    }
    revnets_block_forward(wf, wg, 3, x1, x2, REVNETS_DOUBLE);
    for (int i = 0; i < 3; i++) {
        assert_close(x1[i], y1[i], TIGHT, "");
        assert_close(x2[i], y2[i], TIGHT, "");
    }
    revnets_block_inverse(wf, wg, 3, x1, x2, REVNETS_DOUBLE);
    assert_close(x1[2], 0.3, 1e-14, "");
    assert_close(x2[0], 0.4, 1e-14, "");
}

/* Zero branches reconstruct exactly; one block of 8 a stream within a few
 * roundings; the stack forward and inverse of 3 blocks undo each other. */
static void reconstruction_on_another_net(void **state)
{
    (void)state;
    double w[3 * 2 * 64], x[16], y[16], work[16];
    test_fill(w, 3 * 2 * 64, 0.9, 71);
    test_fill(x, 16, 2.0, 72);
    revnets_net net = {.layers = 3, .half = 8, .weights = w};
    memcpy(y, x, sizeof y);
    revnets_stack_forward(&net, y, y + 8, REVNETS_DOUBLE);
    assert_true(fabs(y[3] - x[3]) > 1e-3);
    revnets_stack_inverse(&net, y, y + 8, REVNETS_DOUBLE);
    for (int i = 0; i < 16; i++)
        assert_true(fabs(y[i] - x[i]) < 1e-13);
    revnets_net one = {.layers = 1, .half = 8, .weights = w};
    double ef = revnets_reconstruction_error(&one, x, x + 8, REVNETS_FLOAT, work);
    assert_true(ef >= 0.0 && ef <= 16 * 0x1p-24 * 8.0);
    double zeros[2 * 64] = {0};
    revnets_net flat = {.layers = 1, .half = 8, .weights = zeros};
    assert_true(revnets_reconstruction_error(&flat, x, x + 8, REVNETS_FLOAT, work) == 0.0);
}

/* Contract: 4 half L and 3 half doubles; 12 and 16 half^2 L FLOPs. */
static void training_cost_on_other_sizes(void **state)
{
    (void)state;
    assert_int_equal(revnets_work_stored(1000, 3), 12000);
    assert_int_equal(revnets_work_reversible(1000, 3), 9);
    assert_close(revnets_train_flops(1000, 3, false), 12.0 * 9 * 1000, TIGHT, "FLOP");
    assert_close(revnets_train_flops(1000, 3, true), 16.0 * 9 * 1000, TIGHT, "FLOP");
}

/* Both backward passes against central differences, and against each other, on a
 * 2-block net of 3 numbers a stream. */
static double loss_of(const revnets_net *net, const double *x)
{
    double y[6];
    memcpy(y, x, sizeof y);
    revnets_stack_forward(net, y, y + 3, REVNETS_DOUBLE);
    double loss = 0.0;
    for (int i = 0; i < 6; i++)
        loss += 0.5 * y[i] * y[i];
    return loss;
}

static void gradients_on_another_net(void **state)
{
    (void)state;
    double w[2 * 2 * 9], x[6], gs[36], gr[36], xs[6], xr[6], ws[24], wr[9];
    test_fill(w, 36, 1.1, 81);
    test_fill(x, 6, 1.0, 82);
    revnets_net net = {.layers = 2, .half = 3, .weights = w};
    double ls = revnets_backward_stored(&net, x, x + 3, gs, xs, xs + 3, ws);
    double lr = revnets_backward_reversible(&net, x, x + 3, gr, xr, xr + 3, wr);
    assert_close(ls, loss_of(&net, x), TIGHT, "");
    assert_close(lr, ls, 1e-12, "");
    for (int k = 0; k < 36; k++) {
        double saved = w[k];
        w[k] = saved + 1e-5;
        double up = loss_of(&net, x);
        w[k] = saved - 1e-5;
        double down = loss_of(&net, x);
        w[k] = saved;
        double fd = (up - down) / 2e-5;
        assert_true(fabs(gs[k] - fd) <= 1e-6 * fmax(1.0, fabs(fd)));
        assert_true(fabs(gr[k] - gs[k]) <= 1e-10 * fmax(1.0, fabs(gs[k])));
    }
}

/* Table 3 configurations at s = 2048, b = 1, t = 8. */
static revnets_layer config(double heads, double hidden, bool sp, revnets_recompute r)
{
    revnets_layer l = {.seq_tokens = 2048,
                       .microbatch = 1,
                       .hidden = hidden,
                       .heads = heads,
                       .tensor_parallel = 8,
                       .sequence_parallel = sp,
                       .recompute = r};
    return l;
}

/* Table 2 rows for the 22B, 530B and 1T models. */
static void activation_memory_of_the_other_table_3_models(void **state)
{
    (void)state;
    const double heads[3] = {64, 128, 160}, hidden[3] = {6144, 20480, 25600};
    for (int m = 0; m < 3; m++) {
        double sbh = 2048.0 * hidden[m], core = 5.0 * heads[m] * 2048 / hidden[m];
        revnets_layer tp = config(heads[m], hidden[m], false, REVNETS_RECOMPUTE_NONE);
        revnets_layer sp = config(heads[m], hidden[m], true, REVNETS_RECOMPUTE_NONE);
        revnets_layer sel = config(heads[m], hidden[m], false, REVNETS_RECOMPUTE_SELECTIVE);
        revnets_layer full = config(heads[m], hidden[m], false, REVNETS_RECOMPUTE_FULL);
        assert_close(revnets_act_bytes_per_layer(&tp), sbh * (10 + 3 + core / 8), TIGHT, "B");
        assert_close(revnets_act_bytes_per_layer(&sp), sbh * (34 + core) / 8, TIGHT, "B");
        assert_close(revnets_act_bytes_per_layer(&sel), sbh * (10 + 3), TIGHT, "B");
        assert_close(revnets_act_bytes_per_layer(&full), 2 * sbh, TIGHT, "B");
    }
}

/* Appendix A products for MT-NLG (h = 20480): selective adds s / (18h + 3s). */
static void selective_recompute_cost_for_mt_nlg(void **state)
{
    (void)state;
    revnets_layer sel = config(128, 20480, true, REVNETS_RECOMPUTE_SELECTIVE);
    assert_close(revnets_recompute_flops_fraction(&sel), 2048.0 / (18 * 20480.0 + 3 * 2048.0),
                 TIGHT, "");
    revnets_layer full = config(128, 20480, true, REVNETS_RECOMPUTE_FULL);
    assert_close(revnets_act_bytes_per_model(&full, 105), 105 * 2 * 2048.0 * 20480 / 8, TIGHT,
                 "B");
    full.sequence_parallel = false;
    assert_close(revnets_act_bytes_per_model(&full, 105), 105 * 2 * 2048.0 * 20480, TIGHT, "B");
}

/* rotl64(x, n) for 0 <= n < 64. */
static uint64_t rotl64(uint64_t x, int n)
{
    return n == 0 ? x : (x << n) | (x >> (64 - n));
}

/* A step family: member r is the XOR of the rotations of x by 0..c-1, c = 1 below
 * `at` and c = 32 from `at` on (linear: exact avalanche c / 64 whatever the input).
 * With cost_grows an evaluation also runs r steps of a linear congruential
 * generator, XORed in as a constant (the avalanche is unchanged), so a member costs
 * its rounds. No budget here: the grader's CPU limit (CHALK_TIMEOUT) is the judge. */
typedef struct step_family {
    long long at;
    bool cost_grows;
} step_family;

static uint64_t step_member(uint64_t in, int rounds, const void *ctx)
{
    const step_family *f = ctx;
    int c = rounds >= f->at ? 32 : 1;
    uint64_t out = 0;
    for (int n = 0; n < c; n++)
        out ^= rotl64(in, n);
    if (f->cost_grows) {
        uint64_t z = (uint64_t)f->at;
        for (int i = 0; i < rounds; i++)
            z = z * 6364136223846793005u + 1442695040888963407u;
        out ^= z;
    }
    return out;
}

/* The contract's sizes at their limits. Constant cost: the step at INT_MAX - 1 and at
 * INT_MAX itself, and none up to INT_MAX (a scan measures two billion rounds). Cost
 * growing with r: the step at 99,991 (a prime, no power of two) with max_rounds
 * INT_MAX: a scan costs about 5e9 rounds per evaluation, a halving of 1..INT_MAX
 * starts at a billion; small steps at 1 and 2. */
static void rounds_to_avalanche_at_the_contract_sizes(void **state)
{
    (void)state;
    step_family a = {INT_MAX - 1LL, false}, b = {INT_MAX, false}, none = {1LL << 40, false};
    assert_int_equal(revnets_rounds_to_avalanche(step_member, &a, INT_MAX, 0.01, 1, 21),
                     INT_MAX - 1);
    assert_int_equal(revnets_rounds_to_avalanche(step_member, &b, INT_MAX, 0.01, 1, 21),
                     INT_MAX);
    assert_int_equal(revnets_rounds_to_avalanche(step_member, &none, INT_MAX, 0.01, 1, 21), 0);
    assert_int_equal(revnets_rounds_to_avalanche(step_member, &b, INT_MAX - 1, 0.01, 1, 21), 0);
    step_family costly = {99991, true}, one = {1, true}, two = {2, true};
    assert_int_equal(revnets_rounds_to_avalanche(step_member, &costly, INT_MAX, 0.01, 1, 22),
                     99991);
    assert_int_equal(revnets_rounds_to_avalanche(step_member, &one, INT_MAX, 0.01, 1, 22), 1);
    assert_int_equal(revnets_rounds_to_avalanche(step_member, &two, INT_MAX, 0.01, 1, 22), 2);
}

/* Section 6.8's model, by hand: the peak is n_ckpt M_ckpt + M_layer max(n_stored,
 * n_seg). M_layer = 5, M_ckpt = 1, six layers: all stored = 30. Budget 29: five stored,
 * one recomputed, 1 + 25 = 26. Budget 26 exactly: the same plan. Budget 25: four
 * stored, two recomputed in one segment of 2, 1 + 20 = 21 (segments of 1: 2 + 20 =
 * 22). */
static void checkpoint_plans_by_hand(void **state)
{
    (void)state;
    revnets_checkpoint_plan p = revnets_plan_checkpoints(6, 5, 1, 29);
    assert_true(p.exists && p.stored == 5 && p.segment == 1 && p.segments == 1);
    assert_true(p.peak_bytes == 26 && p.extra_flops_fraction == 1.0 / 18);
    p = revnets_plan_checkpoints(6, 5, 1, 26);
    assert_true(p.exists && p.stored == 5 && p.peak_bytes == 26);
    p = revnets_plan_checkpoints(6, 5, 1, 25);
    assert_true(p.exists && p.stored == 4 && p.segment == 2 && p.segments == 1);
    assert_true(p.peak_bytes == 21 && p.extra_flops_fraction == 2.0 / 18);
    p = revnets_plan_checkpoints(6, 5, 1, 30);
    assert_true(p.exists && p.stored == 6 && p.segment == 0 && p.segments == 0);
}

/* One layer: stored (M_layer) or one segment of one (M_ckpt + M_layer); with both 2,
 * budget 2 stores it and budget 1.99 has no plan. Seven layers, M_layer = M_ckpt = 1,
 * budget 5: 7, 6 or 5 stored need at least 7, 7 and 6; four stored and three
 * recomputed in one segment of 3 peak at 1 + 4 = 5. Ten layers, M_layer = 3,
 * M_ckpt = 1, budget 20: six stored and four recomputed in one segment of 4,
 * 1 + 3 x 6 = 19 (seven stored need at least 1 + 21 = 22). */
static void checkpoint_plan_edges_on_other_inputs(void **state)
{
    (void)state;
    revnets_checkpoint_plan p = revnets_plan_checkpoints(1, 2, 2, 2);
    assert_true(p.exists && p.stored == 1 && p.peak_bytes == 2);
    p = revnets_plan_checkpoints(1, 2, 2, 1.99);
    assert_true(!p.exists && p.stored == 0 && p.segments == 0 && p.peak_bytes == 0);
    p = revnets_plan_checkpoints(7, 1, 1, 5);
    assert_true(p.exists && p.stored == 4 && p.segment == 3 && p.segments == 1);
    assert_true(p.peak_bytes == 5 && p.extra_flops_fraction == 3.0 / 21);
    p = revnets_plan_checkpoints(10, 3, 1, 20);
    assert_true(p.exists && p.stored == 6 && p.segment == 4 && p.segments == 1);
    assert_true(p.peak_bytes == 19 && p.extra_flops_fraction == 4.0 / 30);
}

/* The contract's range: a chain of n^2 = 9 x 10^6 identical steps, checkpoints as
 * large as a step (M = 4096 B), budget (2n - 1) M with n = 3000. Section 6.8's peak
 * ceil((n^2 - s) / g) M + max(s, g) M is at least ((n^2 - s) / m + m) M with
 * m = max(s, g); at most (2n - 1) M only when (m - n)^2 + (m - s) <= 0, so s = n and
 * g = n: 2999 segments, peak 5999 x 4096 B, (n^2 - n) / (3 n^2) of a step. */
static void checkpoint_plan_for_a_chain_of_nine_million_steps(void **state)
{
    (void)state;
    revnets_checkpoint_plan p = revnets_plan_checkpoints(9000000, 4096, 4096, 5999.0 * 4096);
    assert_true(p.exists && p.stored == 3000 && p.segment == 3000 && p.segments == 2999);
    assert_true(p.peak_bytes == 5999.0 * 4096 &&
                p.extra_flops_fraction == (double)(9000000 - 3000) / (3.0 * 9000000));
    p = revnets_plan_checkpoints(9000000, 4096, 4096, 5998.0 * 4096);
    assert_true(!p.exists && p.stored == 0 && p.peak_bytes == 0);
}

/* Full recomputation of the stored layers (the contract of
 * revnets_plan_flops_fraction): each stored layer runs its forward once more, a third
 * of a step (Korthikanti et al. 2022, Appendix A), as each recomputed layer of a
 * segment does, so every layer is recomputed once: 96 layers all stored, and 40 of 96
 * stored beside 56 recomputed (56 / 288), both a third, for Table 3's 22B layer
 * (h = 6144, s = 2048). */
static void plan_flops_with_full_recomputation_of_the_stored_layers(void **state)
{
    (void)state;
    revnets_layer l = {.seq_tokens = 2048, .microbatch = 4, .hidden = 6144, .heads = 64,
                       .tensor_parallel = 8, .recompute = REVNETS_RECOMPUTE_FULL};
    revnets_checkpoint_plan all = {.exists = true, .stored = 96};
    assert_close(revnets_plan_flops_fraction(&all, 96, &l), 1.0 / 3, TIGHT, "all stored");
    revnets_checkpoint_plan some = {.exists = true, .stored = 40, .segment = 8, .segments = 7,
                                    .extra_flops_fraction = 56.0 / 288};
    assert_close(revnets_plan_flops_fraction(&some, 96, &l), 1.0 / 3, TIGHT, "40 stored");
}

/* ---- 6.14 longest_sequence ---------------------------------------------------- */

/* The largest whole S with n (a S^2 + b S) <= budget, by exact integer steps from
 * the quadratic's root (closed form, then settled in integers). */
static long long longest_int(long long a, long long b, long long n, long long budget)
{
    double c = (double)budget / (double)n;
    long long s = (long long)(a > 0 ? (-(double)b + sqrt((double)b * b + 4.0 * a * c)) / (2.0 * a)
                                    : c / (double)b);
    while (n * (a * (s + 1) * (s + 1) + b * (s + 1)) <= budget)
        s++;
    while (s > 0 && n * (a * s * s + b * s) > budget)
        s--;
    return s;
}

/* Korthikanti et al. Table 3's 22B model (a = 64, h = 6144, 48 layers, t = 8) at
 * B_micro = 4, on an A100's 80 GB less 22e9 x 16 / 8 of model state: one layer keeps
 * (10 + 3) 4 x 6144 S + 5 x 64 x 4 S^2 / 8 = 319488 S + 160 S^2 bytes (eq. 2), or
 * 34 / 8 x 4 x 6144 S = 104448 S with sequence parallelism and selective recomputation. */
static void longest_sequence_of_the_22b_model(void **state)
{
    (void)state;
    const long long budget = 80000000000LL - 44000000000LL;
    revnets_layer l = {.seq_tokens = 1, .microbatch = 4, .hidden = 6144, .heads = 64,
                       .tensor_parallel = 8, .sequence_parallel = false,
                       .recompute = REVNETS_RECOMPUTE_NONE};
    assert_int_equal(revnets_longest_sequence(&l, 48, false, (double)budget),
                     longest_int(160, 319488, 48, budget));
    assert_int_equal(revnets_longest_sequence(&l, 48, true, (double)budget),
                     longest_int(160, 319488, 1, budget));
    l.sequence_parallel = true;
    l.recompute = REVNETS_RECOMPUTE_SELECTIVE;
    assert_int_equal(revnets_longest_sequence(&l, 48, false, (double)budget),
                     longest_int(0, 104448, 48, budget));
    assert_int_equal(revnets_longest_sequence(&l, 48, true, (double)budget),
                     longest_int(0, 104448, 1, budget));
}

/* MT-NLG's layer (a = 128, h = 20480, t = 8, Table 3) under full recomputation keeps
 * its 16-bit input: 2 x 20480 S whole, 2 x 20480 S / 8 = 5120 S split along the
 * sequence; a budget of exactly 105 layers' inputs at S = 4096 fits 4096, a byte less
 * 4095; one token's input not fitting gives 0; a reversible backward holds the whole layer. */
static void longest_sequence_under_full_recomputation(void **state)
{
    (void)state;
    revnets_layer l = {.seq_tokens = 1, .microbatch = 1, .hidden = 20480, .heads = 128,
                       .tensor_parallel = 8, .sequence_parallel = true,
                       .recompute = REVNETS_RECOMPUTE_FULL};
    double exact = 105.0 * 5120 * 4096;
    assert_int_equal(revnets_longest_sequence(&l, 105, false, exact), 4096);
    assert_int_equal(revnets_longest_sequence(&l, 105, false, exact - 1), 4095);
    l.sequence_parallel = false;
    assert_int_equal(revnets_longest_sequence(&l, 105, false, 105.0 * 40960 - 1), 0);
    /* reversible: the backward holds the whole layer (full counts as none), eq. 2 at
     * t = 8: 80 S^2 + 266240 S bytes, met exactly at S = 1000 */
    assert_int_equal(revnets_longest_sequence(&l, 105, true, 346240000.0), 1000);
    assert_int_equal(revnets_longest_sequence(&l, 105, true, 346240000.0 - 1), 999);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(tea_xtea, tea_matches_the_teacrypt_vectors),
        CHALK_TEST(tea_xtea, xtea_matches_the_teacrypt_and_klockstone_vectors),
        CHALK_TEST(generator, uniform_draw_from_the_third_splitmix_output),
        CHALK_TEST(feistel, four_feistel_rounds_with_the_key_as_round_function),
        CHALK_TEST(toy_cipher, toy_round_function_on_other_inputs),
        CHALK_TEST(avalanche, avalanche_of_other_bit_permutations),
        CHALK_TEST(avalanche, one_layer_nets_with_a_negated_identity),
        CHALK_TEST(revnet_block, block_with_diagonal_weights_by_hand),
        CHALK_TEST(reconstruction, reconstruction_on_another_net),
        CHALK_TEST(training_cost, training_cost_on_other_sizes),
        CHALK_TEST(reversible_backprop, gradients_on_another_net),
        CHALK_TEST(activation_memory, activation_memory_of_the_other_table_3_models),
        CHALK_TEST(activation_memory, selective_recompute_cost_for_mt_nlg),
        CHALK_TEST(rounds_to_avalanche, rounds_to_avalanche_at_the_contract_sizes),
        CHALK_TEST(checkpoint_plan, checkpoint_plans_by_hand),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_edges_on_other_inputs),
        CHALK_TEST(checkpoint_plan, checkpoint_plan_for_a_chain_of_nine_million_steps),
        CHALK_TEST(checkpoint_plan, plan_flops_with_full_recomputation_of_the_stored_layers),
        CHALK_TEST(longest_sequence, longest_sequence_of_the_22b_model),
        CHALK_TEST(longest_sequence, longest_sequence_under_full_recomputation),
    };
    return cmocka_run_group_tests_name("06-revnets hidden", tests, NULL, NULL);
}
