/*
 * 06-revnets.c -- chapter 6's commands: ciphers, avalanche, RevNets, activation memory.
 *
 *   chalk encrypt            a block through TEA, XTEA or the toy Feistel cipher (6.2-6.3)
 *   chalk decrypt            and back
 *   chalk avalanche          share of output bits one flipped input bit changes (6.4)
 *   chalk avalanche-depth    the toy cipher and the two MLPs side by side, by depth (6.4)
 *   chalk revnet             a reversible stack: reconstruction error, training memory (6.5-6.6)
 *   chalk activation-memory  bytes a transformer layer keeps for its backward pass (6.7)
 *   chalk checkpoint-plan    the fewest recomputed layers that fit the HBM (6.8)
 *                            (these two in 06-revnets-memory.c)
 *
 * The lecture's chapter-6 quantities (reference/lecture-notes.md section 10) and the
 * command behind each:
 *   "New ciphers ~99% broken"        an opinion the lecture quotes, not a computation:
 *                                    no command (the book cites it)
 *   "RevNets 2017 (arXiv 1707.04585)" a date: no command (the book cites the paper)
 *   "Activation memory linear in layers"
 *                                    chalk activation-memory --model gpt3-175b --seq 2048
 *                                      --microbatch 1 --layers 1:96 -> bytes_per_model;
 *                                    chalk revnet --layers L -> activation_bytes_stored
 *                                      (linear) against activation_bytes_reversible (flat)
 *   "about one extra forward pass, 4F against 3F" (section 7.6)
 *                                    chalk revnet -> extra_forward_flops_fraction;
 *                                    chalk activation-memory --recompute full
 *                                      -> extra_flops_fraction
 *
 * Every number comes from the chapter's reference (revnets_*, through
 * exercises/06-revnets/revnets.h). This file declares the flags, draws the seeded
 * inputs the reference functions take, and builds records; the weights a row needs
 * are drawn for that row (a shallower stack's are a prefix of a deeper one's, from
 * the same seed), and the long experiments have a cap on their work in seconds.
 */
#include <ctype.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "06-revnets.h"

/* ---- this chapter's own flags ------------------------------------------------------------ */

static const char *const CIPHERS[] = {"toy", "tea", "xtea", NULL}; /* revnets_cipher order */
static const char *const MIXERS[] = {"toy", "tea", "xtea", "mlp", "residual-mlp", NULL};
enum { MIXER_MLP = 3, MIXER_RESIDUAL_MLP = 4 };
static const char *const DTYPES[] = {"double", "float", NULL}; /* revnets_dtype order */
#define WHOLE CHALK_WHOLE
#define U(x) CHALK_U_##x
/* clang-format off */
static const chalk_flag F_CIPHER    = {"--cipher", "NAME", "cipher", U(WORD), 0, 0, 0, "tea, xtea or toy", "cipher",
    "tea, xtea or toy (the chapter's Feistel cipher)", .choices = CIPHERS};
static const chalk_flag F_MIXER     = {"--cipher", "NAME", "cipher", U(WORD), 0, 0, 0, "tea, xtea, toy, mlp or residual-mlp", "mixer",
    "tea, xtea, toy, mlp or residual-mlp: what maps 64 bits to 64 bits", .choices = MIXERS};
static const chalk_flag F_KEY       = {"--key", "HEX", "key", U(WORD), 0, 0, 0, "32 hex digits", "cipher",
    "the 128-bit key as 32 hex digits, read as four big-endian words"};
static const chalk_flag F_BLOCK     = {"--block", "HEX", "input_block", U(WORD), 0, 0, 0, "16 hex digits", "cipher",
    "the 64-bit block as 16 hex digits"};
static const chalk_flag F_ROUNDS    = {"--rounds", "R", "rounds", U(COUNT), 0, 64, WHOLE, "rounds", "cipher",
    "Feistel rounds for toy (default 16), cycles for tea and xtea (default 32)"};
static const chalk_flag F_MIX_ROUNDS = {"--rounds", "R", "rounds", U(COUNT), 0, 64, WHOLE, "rounds", "mixer",
    "rounds (toy, default 16), cycles (tea, xtea, default 32) or layers (mlp, residual-mlp, default 16); may be a sweep"};
static const chalk_flag F_DEPTH     = {"--depth", "D", "depth", U(COUNT), 1, 64, WHOLE, "rounds and layers; may be a sweep", "mixer",
    "rounds of the toy cipher and layers of both MLPs; may be a sweep"};
static const chalk_flag F_TRIALS    = {"--trials", "N", "trials", U(COUNT), 1, 1e6, WHOLE, "random trials", "experiment",
    "random inputs, each with all 64 bits flipped in turn (default 256)"};
static const chalk_flag F_SEED      = {"--seed", "S", "seed", U(PLAIN), 0, 9007199254740992.0 /* 2^53 */, WHOLE, "the generator's seed", "experiment",
    "seeds the generator (SplitMix64) for keys, weights and inputs (default 1)"};
static const chalk_flag F_GAIN      = {"--gain", "G", "gain", U(PLAIN), 0, 100, 0, "weight gain", "experiment",
    "weights uniform with variance gain^2 / width (default 1)"};
static const chalk_flag F_REV_LAYERS = {"--layers", "L", "layers", U(COUNT), 1, 4096, WHOLE, "reversible blocks; may be a sweep", "network",
    "reversible blocks in the stack; may be a sweep"};
static const chalk_flag F_WIDTH     = {"--width", "W", "width", U(COUNT), 2, 1024, WHOLE, "numbers in the state", "network",
    "numbers in the state, even: two streams of W/2 (default 64)"};
static const chalk_flag F_REV_DTYPE = {"--dtype", "float|double", "dtype", U(WORD), 0, 0, 0, "float or double", "network",
    "the precision of every operation (default float)", .choices = DTYPES};
/* clang-format on */

enum { HEX_CHARS = 40, DEFAULT_TRIALS = 256, DEFAULT_SEED = 1, DEFAULT_WIDTH = 64 };

/* The long experiments' cost, measured on the machine that builds the book (user
 * time, 2026-11): a cipher round (or TEA cycle) of one trial's 65 evaluations about
 * 2.3e-7 s, an MLP layer of one trial's 65 evaluations about 2.9e-4 s. The caps count
 * twice that, for slower machines. */
#define SECONDS_PER_TRIAL_ROUND 5e-7
#define SECONDS_PER_TRIAL_LAYER 6e-4

/* A number when `ok`, else null with `why` beside it (a row whose buffers could not
 * be allocated). */
static void put_or_none(chalk_record *r, const char *key, const char *label, chalk_unit unit,
                        unsigned flags, bool ok, double x, const char *why)
{
    if (ok)
        chalk_put_number(r, key, label, unit, flags, x);
    else
        chalk_put_result(r, key, label, unit, flags, false, 0.0, why);
}

/* ---- small readers ----------------------------------------------------------------------- */

/* Reads exactly `digits` hex digits of `f` into *out (most significant first). */
static int read_hex(const chalk_point *p, const chalk_flag *f, int digits, uint32_t *out)
{
    const char *text = chalk_text(p, f);
    if (!text)
        return chalk_fail("%s needs %s %s (%d hex digits)", p->cmd->name, f->name, f->arg, digits);
    size_t len = strlen(text);
    bool hex = len == (size_t)digits;
    for (size_t i = 0; hex && i < len; i++)
        hex = isxdigit((unsigned char)text[i]) != 0;
    if (!hex)
        return chalk_fail("%s: expected %d hex digits (%d bits), got \"%s\"", f->name, digits,
                          digits * 4, text);
    for (int w = 0; w < digits / 8; w++) {
        char word[9];
        memcpy(word, text + 8 * w, 8);
        word[8] = '\0';
        out[w] = (uint32_t)strtoul(word, NULL, 16);
    }
    return CHALK_OK;
}

/* ---- encrypt, decrypt ------------------------------------------------------------------- */

/* The default rounds: 16 for the toy cipher, 32 cycles for TEA and XTEA, 16 layers. */
static double default_rounds(long mixer)
{
    return mixer == REVNETS_CIPHER_TEA || mixer == REVNETS_CIPHER_XTEA ? REVNETS_TEA_CYCLES : 16;
}

static int rounds_at(const chalk_point *p, const chalk_flag *rounds_flag, long mixer)
{
    return (int)(chalk_has(p, rounds_flag) ? chalk_in(p, rounds_flag) : default_rounds(mixer));
}

static void hex_of(char *buf, const uint32_t *words, int n)
{
    for (int i = 0; i < n; i++)
        snprintf(buf + 8 * i, 9, "%08" PRIx32, words[i]);
}

static int check_crypt(const chalk_point *p)
{
    uint32_t key[4], block[2];
    if (!chalk_has(p, &F_CIPHER))
        return chalk_fail("%s needs --cipher NAME (tea, xtea or toy)", p->cmd->name);
    int status = read_hex(p, &F_KEY, 32, key);
    return status ? status : read_hex(p, &F_BLOCK, 16, block);
}

static void build_crypt(const chalk_point *p, chalk_record *r, bool decrypt)
{
    revnets_keyed keyed = {.cipher = (revnets_cipher)chalk_pick(p, &F_CIPHER)};
    keyed.rounds = rounds_at(p, &F_ROUNDS, keyed.cipher);
    uint32_t input[2];
    read_hex(p, &F_KEY, 32, keyed.key); /* checked */
    read_hex(p, &F_BLOCK, 16, input);
    chalk_clear(r);
    char key[HEX_CHARS], in[HEX_CHARS], out[HEX_CHARS];
    hex_of(key, keyed.key, 4);
    hex_of(in, input, 2);
    chalk_put_string(r, "cipher", "cipher", CHALK_INPUT, CIPHERS[keyed.cipher]);
    chalk_put_string(r, "key", "key", CHALK_INPUT, key);
    chalk_field *rounds =
        chalk_put_number(r, "rounds", "rounds", CHALK_U_COUNT, CHALK_INPUT, keyed.rounds);
    if (keyed.cipher != REVNETS_CIPHER_TOY)
        chalk_note(r, rounds, "cycles of two Feistel rounds each");
    chalk_put_string(r, "input_block", decrypt ? "ciphertext" : "plaintext", CHALK_INPUT, in);
    uint32_t b[2] = {input[0], input[1]};
    void (*const encrypt[])(uint32_t[2], const uint32_t[4],
                            int) = {revnets_toy_encrypt, revnets_tea_encrypt, revnets_xtea_encrypt};
    void (*const decrypt_with[])(uint32_t[2], const uint32_t[4], int) = {
        revnets_toy_decrypt, revnets_tea_decrypt, revnets_xtea_decrypt};
    (decrypt ? decrypt_with : encrypt)[keyed.cipher](b, keyed.key, keyed.rounds);
    hex_of(out, b, 2);
    chalk_put_string(r, "block", decrypt ? "plaintext" : "ciphertext", 0, out);
}

static void build_encrypt(const chalk_point *p, chalk_record *r)
{
    build_crypt(p, r, false);
}

static void build_decrypt(const chalk_point *p, chalk_record *r)
{
    build_crypt(p, r, true);
}

/* ---- avalanche -------------------------------------------------------------------------- */

/* The identity on 64 bits: its avalanche is the floor, 1/64. */
static uint64_t identity_mix(uint64_t in, const void *ctx)
{
    (void)ctx;
    return in;
}

/* The weights of a width-64 MLP of `depth` layers with variance gain^2 / 64, drawn
 * from `seed` (a shallower MLP's are a prefix of a deeper one's); NULL when they
 * cannot be allocated. Free them. */
static double *mlp_weights(int depth, double gain, uint64_t seed)
{
    size_t n = (size_t)(depth > 0 ? depth : 1) * REVNETS_MLP_WIDTH * REVNETS_MLP_WIDTH;
    double *w = malloc(n * sizeof *w);
    if (w)
        revnets_fill_uniform(w, n, gain * sqrt(3.0 / REVNETS_MLP_WIDTH), seed);
    return w;
}

/* The avalanche of mixer m at `rounds` (the ciphers' key drawn from --seed, the MLPs'
 * weights from it too); the inputs come from seed + 1, so they never repeat the draws
 * that made the key. Negative when the MLP's weights could not be allocated. */
static double avalanche_of(const chalk_point *p, long m, int rounds)
{
    double seed = chalk_in(p, &F_SEED), trials = chalk_in(p, &F_TRIALS);
    uint64_t input_seed = (uint64_t)seed + 1;
    if (m == MIXER_MLP || m == MIXER_RESIDUAL_MLP) {
        double *weights = mlp_weights(rounds, chalk_in(p, &F_GAIN), (uint64_t)seed);
        if (!weights)
            return -1.0;
        revnets_mlp mlp = {.weights = weights, .depth = rounds, .residual = m == MIXER_RESIDUAL_MLP};
        double share = revnets_avalanche(revnets_mlp_mix, &mlp, (long)trials, input_seed);
        free(weights);
        return share;
    }
    revnets_keyed c = {.cipher = (revnets_cipher)m, .rounds = rounds};
    revnets_rng g = revnets_rng_seeded((uint64_t)seed);
    for (int i = 0; i < 4; i += 2) {
        uint64_t x = revnets_rng_next(&g);
        c.key[i] = (uint32_t)(x >> 32);
        c.key[i + 1] = (uint32_t)x;
    }
    return revnets_avalanche(revnets_cipher_mix, &c, (long)trials, input_seed);
}

static const char *const NO_MEMORY = "out of memory for the MLP's weights";

static void put_experiment(chalk_record *r, const chalk_point *p)
{
    chalk_put_number(r, "trials", "trials", CHALK_U_COUNT, CHALK_INPUT, chalk_in(p, &F_TRIALS));
    chalk_put_number(r, "seed", "seed", CHALK_U_PLAIN, CHALK_INPUT, chalk_in(p, &F_SEED));
}

/* The work of every point: trials x rounds (and layers), against the cap. */
static int cap_mixing(const chalk_point *p, const chalk_flag *rounds_flag, long mixer)
{
    double work_s = 0.0, trials = chalk_in(p, &F_TRIALS);
    for (long row = 0; row < p->rows; row++) {
        double rounds = chalk_has(p, rounds_flag) ? chalk_in_at(p, rounds_flag, row)
                                                  : default_rounds(mixer);
        if (mixer < 0) /* avalanche-depth: the toy cipher and both MLPs */
            work_s += trials * rounds * (SECONDS_PER_TRIAL_ROUND + 2 * SECONDS_PER_TRIAL_LAYER);
        else
            work_s += trials * rounds *
                      (mixer >= MIXER_MLP ? SECONDS_PER_TRIAL_LAYER : SECONDS_PER_TRIAL_ROUND);
    }
    return chalk_cap_work(p, work_s, "fewer --trials, fewer rounds or layers, or fewer points");
}

static int check_avalanche(const chalk_point *p)
{
    long mixer = chalk_pick(p, &F_MIXER);
    if (mixer < 0)
        return chalk_fail("avalanche needs --cipher NAME (tea, xtea, toy, mlp or residual-mlp)");
    if (chalk_has(p, &F_GAIN) && mixer < MIXER_MLP)
        return chalk_fail("--gain sets an MLP's weights; --cipher %s has none",
                          chalk_text(p, &F_MIXER));
    return p->row == 0 ? cap_mixing(p, &F_MIX_ROUNDS, mixer) : CHALK_OK;
}

static void build_avalanche(const chalk_point *p, chalk_record *r)
{
    long mixer = chalk_pick(p, &F_MIXER);
    int rounds = rounds_at(p, &F_MIX_ROUNDS, mixer);
    bool mlp = mixer >= MIXER_MLP;
    chalk_clear(r);
    chalk_put_string(r, "cipher", "mixer", CHALK_INPUT, MIXERS[mixer]);
    chalk_field *f = chalk_put_number(r, "rounds", mlp ? "layers" : "rounds", CHALK_U_COUNT,
                                      CHALK_INPUT, rounds);
    if (mixer == REVNETS_CIPHER_TEA || mixer == REVNETS_CIPHER_XTEA)
        chalk_note(r, f, "cycles of two Feistel rounds each");
    put_experiment(r, p);
    chalk_put_maybe(r, "gain", "weight gain", CHALK_U_PLAIN, CHALK_INPUT, mlp,
                    chalk_in(p, &F_GAIN));
    double share = avalanche_of(p, mixer, rounds);
    put_or_none(r, "flipped_fraction", "output bits flipped", CHALK_U_FRACTION, 0, share >= 0,
                share, NO_MEMORY);
    put_or_none(r, "flipped_bits", "bits flipped of 64", CHALK_U_PLAIN, CHALK_DETAIL, share >= 0,
                64.0 * share, NO_MEMORY);
}

static int check_depth(const chalk_point *p)
{
    return p->row == 0 ? cap_mixing(p, &F_DEPTH, -1) : CHALK_OK;
}

static void build_depth(const chalk_point *p, chalk_record *r)
{
    int depth = (int)chalk_in(p, &F_DEPTH);
    chalk_clear(r);
    chalk_put_number(r, "depth", "rounds or layers", CHALK_U_COUNT, CHALK_INPUT, depth);
    put_experiment(r, p);
    chalk_put_number(r, "gain", "weight gain", CHALK_U_PLAIN, CHALK_INPUT, chalk_in(p, &F_GAIN));
    chalk_put_number(r, "toy_flipped_fraction", "toy cipher", CHALK_U_FRACTION, 0,
                     avalanche_of(p, REVNETS_CIPHER_TOY, depth));
    double mlp = avalanche_of(p, MIXER_MLP, depth);
    double residual = avalanche_of(p, MIXER_RESIDUAL_MLP, depth);
    put_or_none(r, "mlp_flipped_fraction", "plain MLP", CHALK_U_FRACTION, 0, mlp >= 0, mlp,
                NO_MEMORY);
    put_or_none(r, "residual_mlp_flipped_fraction", "residual MLP", CHALK_U_FRACTION, 0,
                residual >= 0, residual, NO_MEMORY);
    /* the two anchors of section 6.4, as reference lines for a plot */
    chalk_put_number(r, "identity_flipped_fraction", "the identity", CHALK_U_FRACTION, CHALK_DETAIL,
                     revnets_avalanche(identity_mix, NULL, 1, 0));
    chalk_put_number(r, "ideal_flipped_fraction", "an ideal cipher", CHALK_U_FRACTION, CHALK_DETAIL,
                     0.5);
}

/* ---- revnet ----------------------------------------------------------------------------- */

enum { MAX_REVNET_WEIGHTS = 1 << 23 }; /* 64 MiB of doubles */

static int check_revnet(const chalk_point *p)
{
    double width = chalk_in(p, &F_WIDTH), layers = chalk_in(p, &F_REV_LAYERS);
    if ((int)width % 2 != 0)
        return chalk_fail("--width must be even: two streams of width/2 (got %g)", width);
    double count = layers * 2.0 * (width / 2) * (width / 2);
    if (count > MAX_REVNET_WEIGHTS)
        return chalk_fail("--layers %g with --width %d needs %.0f weights; at most %d (lower "
                          "layers x width^2 / 2)",
                          layers, (int)width, count, MAX_REVNET_WEIGHTS);
    return CHALK_OK;
}

static void build_revnet(const chalk_point *p, chalk_record *r)
{
    int layers = (int)chalk_in(p, &F_REV_LAYERS), width = (int)chalk_in(p, &F_WIDTH);
    int half = width / 2;
    double seed = chalk_in(p, &F_SEED), gain = chalk_in(p, &F_GAIN);
    revnets_dtype dtype = (revnets_dtype)(chalk_has(p, &F_REV_DTYPE) ? chalk_pick(p, &F_REV_DTYPE)
                                                                     : REVNETS_FLOAT);
    size_t count = (size_t)layers * 2 * (size_t)half * (size_t)half;
    double *weights = malloc(count * sizeof *weights), *x = malloc((size_t)width * sizeof *x);
    double *work = malloc((size_t)width * sizeof *work);
    bool ok = weights && x && work;
    if (ok) { /* a shallower stack's weights are a prefix of a deeper one's */
        revnets_fill_uniform(weights, count, gain * sqrt(3.0 / half), (uint64_t)seed);
        revnets_fill_uniform(x, (size_t)width, 1.0, (uint64_t)seed + 1);
    }
    revnets_net net = {.layers = layers, .half = half, .weights = weights};
    chalk_clear(r);
    chalk_put_number(r, "layers", "layers", CHALK_U_COUNT, CHALK_INPUT, layers);
    chalk_put_number(r, "width", "width", CHALK_U_COUNT, CHALK_INPUT, width);
    chalk_put_string(r, "dtype", "precision", CHALK_INPUT,
                     dtype == REVNETS_FLOAT ? "float" : "double");
    chalk_put_number(r, "gain", "weight gain", CHALK_U_PLAIN, CHALK_INPUT, gain);
    chalk_put_number(r, "seed", "seed", CHALK_U_PLAIN, CHALK_INPUT, seed);

    const char *why = "out of memory for the network's weights";
    double ef = ok ? revnets_reconstruction_error(&net, x, x + half, REVNETS_FLOAT, work) : 0.0;
    double ed = ok ? revnets_reconstruction_error(&net, x, x + half, REVNETS_DOUBLE, work) : 0.0;
    put_or_none(r, "reconstruction_error", "reconstruction error", CHALK_U_PLAIN, 0, ok,
                dtype == REVNETS_FLOAT ? ef : ed, why);
    put_or_none(r, "reconstruction_error_float", "  in float", CHALK_U_PLAIN, CHALK_DETAIL, ok, ef,
                why);
    put_or_none(r, "reconstruction_error_double", "  in double", CHALK_U_PLAIN, CHALK_DETAIL, ok,
                ed, why);
    /* the same errors in units of each format's unit roundoff, 2^-24 and 2^-53 */
    put_or_none(r, "reconstruction_error_float_roundoffs", "  in float's roundoffs", CHALK_U_PLAIN,
                CHALK_DETAIL, ok, ef / (FLT_EPSILON / 2), why);
    put_or_none(r, "reconstruction_error_double_roundoffs", "  in double's roundoffs",
                CHALK_U_PLAIN, CHALK_DETAIL, ok, ed / (DBL_EPSILON / 2), why);
    /* the size of the values the error is measured against */
    double largest = 0.0;
    if (ok) {
        for (int i = 0; i < width; i++)
            work[i] = x[i];
        revnets_stack_forward(&net, work, work + half, REVNETS_DOUBLE);
        for (int i = 0; i < width; i++)
            largest = fmax(largest, fabs(work[i]));
    }
    put_or_none(r, "output_max_abs", "largest output", CHALK_U_PLAIN, CHALK_DETAIL, ok, largest,
                why);
    free(weights);
    free(x);
    free(work);

    double bytes = revnets_dtype_bytes(dtype);
    chalk_put_number(r, "activation_bytes_stored", "activations, stored", CHALK_U_BYTES, 0,
                     bytes * (double)revnets_work_stored(layers, half));
    chalk_put_number(r, "activation_bytes_reversible", "activations, reversible", CHALK_U_BYTES, 0,
                     bytes * (double)revnets_work_reversible(layers, half));
    double stored = revnets_train_flops(layers, half, false);
    double reversible = revnets_train_flops(layers, half, true);
    chalk_put_number(r, "train_flops_stored", "training FLOPs, stored", CHALK_U_FLOPS, CHALK_DETAIL,
                     stored);
    chalk_put_number(r, "train_flops_reversible", "training FLOPs, reversible", CHALK_U_FLOPS,
                     CHALK_DETAIL, reversible);
    chalk_put_number(r, "extra_forward_flops_fraction", "extra FLOPs, reversible", CHALK_U_FRACTION,
                     0, revnets_extra_flops_fraction(layers, half));
}

/* ---- the commands ------------------------------------------------------------------------- */

#define REQ CHALK_REQUIRED
#define SWEEPS CHALK_SWEEPS

static const chalk_input CRYPT[] = {{&F_CIPHER}, {&F_KEY}, {&F_BLOCK}, {&F_ROUNDS}, {NULL}};
static const chalk_input AVALANCHE[] = {
    {&F_MIXER},
    {&F_MIX_ROUNDS, SWEEPS},
    {&F_TRIALS, 0, DEFAULT_TRIALS}, {&F_SEED, 0, DEFAULT_SEED}, {&F_GAIN, 0, 1}, {NULL}};
static const chalk_input DEPTH[] = {{&F_DEPTH, REQ | SWEEPS}, {&F_TRIALS, 0, DEFAULT_TRIALS},
                                    {&F_SEED, 0, DEFAULT_SEED}, {&F_GAIN, 0, 1}, {NULL}};
static const chalk_input REVNET[] = {
    {&F_REV_LAYERS, REQ | SWEEPS},
    {&F_WIDTH, 0, DEFAULT_WIDTH}, {&F_REV_DTYPE}, {&F_SEED, 0, DEFAULT_SEED}, {&F_GAIN, 0, 1},
    {NULL}};

static const char *const ABOUT_ENCRYPT[] = {
    "Encrypts one 64-bit block (--block, 16 hex digits) under a 128-bit key (--key,",
    "32 hex digits, four big-endian words) and prints it as `block`, in lower-case hex.",
    "  toy   the chapter's Feistel cipher: (L, R) -> (R, L ^ f(R, K_i)),",
    "        f(h, k) = rotl32(t (t | 1), 16) with t = h ^ k, K_i = key word i mod 4",
    "  tea   Wheeler and Needham 1994; 32 cycles of two additive Feistel rounds",
    "  xtea  Needham and Wheeler 1997; the same shape with a better key schedule",
    "--rounds changes the number of rounds (toy) or cycles (tea, xtea).",
    NULL};
static const char *const EXAMPLES_ENCRYPT[] = {
    "chalk encrypt --cipher tea --key 00000000000000000000000000000000 --block 0000000000000000",
    "chalk encrypt --cipher xtea --key 0123456712345678234567893456789a --block 0102030405060708",
    "chalk encrypt --cipher toy --key 000102030405060708090a0b0c0d0e0f --block 0123456789abcdef "
    "--rounds 4",
    NULL};
static const char *const ABOUT_DECRYPT[] = {
    "Decrypts one 64-bit block: the inverse of chalk encrypt with the same --cipher, --key",
    "and --rounds. A Feistel network is undone by running its round function forwards",
    "with the round keys in reverse order.", NULL};
static const char *const EXAMPLES_DECRYPT[] = {
    "chalk decrypt --cipher tea --key 00000000000000000000000000000000 --block 41ea3a0a94baa940",
    "chalk decrypt --cipher toy --key 000102030405060708090a0b0c0d0e0f --block 0123456789abcdef",
    NULL};

static const char *const ABOUT_AVALANCHE[] = {
    "Avalanche: draw --trials random 64-bit inputs, flip each of their 64 bits in turn, and",
    "report the mean share of the 64 output bits that change (flipped_fraction): 1/64 for",
    "the identity, about 1/2 for a good cipher.",
    "  toy, tea, xtea     under a key drawn from --seed",
    "  mlp                64 units, x <- tanh(W x) per layer, bits in and out as signs",
    "  residual-mlp       the same weights, x <- x + tanh(W x) / sqrt(layers)",
    "The MLPs' weights are uniform with variance gain^2 / 64, drawn from --seed; the",
    "inputs come from --seed + 1. --rounds may be a sweep.",
    NULL};
static const char *const EXAMPLES_AVALANCHE[] = {
    "chalk avalanche --cipher tea --trials 256 --seed 1",
    "chalk avalanche --cipher toy --rounds 1:16:16:linear --trials 256 --seed 1 --csv",
    "chalk avalanche --cipher mlp --rounds 32 --gain 2 --trials 32 --seed 1", NULL};
static const char *const ABOUT_DEPTH[] = {
    "The toy cipher with --depth rounds beside the two MLPs of chalk avalanche with",
    "--depth layers (same weights, with and without the residual connection), each as",
    "the share of output bits one flipped input bit changes. --depth may be a sweep.", NULL};
static const char *const EXAMPLES_DEPTH[] = {
    "chalk avalanche-depth --depth 8 --gain 2 --trials 32 --seed 1",
    "chalk avalanche-depth --depth 1:32:6 --gain 2 --trials 16 --seed 1 --csv", NULL};

static const char *const ABOUT_REVNET[] = {
    "A stack of --layers RevNet blocks on two streams of width/2 numbers,",
    "  y1 = x1 + tanh(W_F x2),   y2 = x2 + tanh(W_G y1)",
    "with weights of variance gain^2 / (width/2) and an input uniform in [-1, 1), drawn",
    "from --seed. The stack runs forward and then inverts itself, every operation",
    "rounded to --dtype; reconstruction_error is the largest |input - what came back|.",
    "Training memory, in --dtype: the stored backward keeps 4 x width/2 numbers per block",
    "(x2, F(x2), y1, G(y1)); the reversible one 3 x width/2 in all. The reversible step",
    "re-runs each block once: one forward more than forward + backward (3 forwards).",
    "--layers may be a sweep.",
    NULL};
static const char *const EXAMPLES_REVNET[] = {
    "chalk revnet --layers 64 --width 64 --seed 1 --dtype float",
    "chalk revnet --layers 1:512:10 --width 64 --seed 1 --dtype double --csv", NULL};

static const chalk_command CMD_ENCRYPT = {
    .name = "encrypt",
    .summary = "a block through TEA, XTEA or the toy Feistel cipher (6.2-6.3)",
    .title = "chalk encrypt: a block through the cipher (chapter 6.2-6.3)",
    .inputs = CRYPT, .check = check_crypt, .build = build_encrypt,
    .about = ABOUT_ENCRYPT, .examples = EXAMPLES_ENCRYPT
};
static const chalk_command CMD_DECRYPT = {
    .name = "decrypt",
    .summary = "a block back through the same cipher (6.2-6.3)",
    .title = "chalk decrypt: a block back through the cipher (chapter 6.2-6.3)",
    .inputs = CRYPT, .check = check_crypt, .build = build_decrypt,
    .about = ABOUT_DECRYPT, .examples = EXAMPLES_DECRYPT
};
static const chalk_command CMD_AVALANCHE = {
    .name = "avalanche",
    .summary = "share of output bits one flipped input bit changes (6.4)",
    .title = "chalk avalanche: one input bit flipped, how many output bits? (6.4)",
    .inputs = AVALANCHE, .check = check_avalanche, .build = build_avalanche,
    .about = ABOUT_AVALANCHE, .examples = EXAMPLES_AVALANCHE
};
static const chalk_command CMD_AVALANCHE_DEPTH = {
    .name = "avalanche-depth",
    .summary = "the toy cipher and two MLPs side by side, by depth (6.4)",
    .title = "chalk avalanche-depth: a cipher against two MLPs, by depth (6.4)",
    .inputs = DEPTH, .check = check_depth, .build = build_depth,
    .about = ABOUT_DEPTH, .examples = EXAMPLES_DEPTH
};
static const chalk_command CMD_REVNET = {
    .name = "revnet",
    .summary = "a reversible stack: reconstruction error, training memory (6.5-6.6)",
    .title = "chalk revnet: a reversible stack run forward and back (6.5-6.6)",
    .inputs = REVNET, .check = check_revnet, .build = build_revnet,
    .about = ABOUT_REVNET, .examples = EXAMPLES_REVNET
};
const chalk_chapter chalk_chapter_06_revnets = {
    .number = 6,
    .title = "revnets: neural nets and ciphers, Feistel networks and reversible networks",
    .commands = (const chalk_command *const[]){&CMD_ENCRYPT, &CMD_DECRYPT, &CMD_AVALANCHE, &CMD_AVALANCHE_DEPTH, &CMD_REVNET, &revnets_activation_memory_cmd, &revnets_checkpoint_plan_cmd, NULL},
};
