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
 * exercises/06-revnets/revnets.h). This file parses flags, draws the seeded inputs
 * the reference functions take, and prints records. The buffers a RevNet needs are
 * allocated here, once per command, sized before any row is built.
 */
#include <ctype.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chalk.h"
#include "revnets.h"

/* ---- this chapter's own flags ------------------------------------------------------------ */

static const chalk_flag F_CIPHER = {
    .name = "--cipher",
    .arg = "NAME",
    .key = "cipher",
    .group = "cipher",
    .help = "tea, xtea or toy (the chapter's Feistel cipher)",
};
static const chalk_flag F_MIXER = {
    .name = "--cipher",
    .arg = "NAME",
    .key = "cipher",
    .group = "mixer",
    .help = "tea, xtea, toy, mlp or residual-mlp: what maps 64 bits to 64 bits",
};
static const chalk_flag F_KEY = {
    .name = "--key",
    .arg = "HEX",
    .key = "key",
    .group = "cipher",
    .help = "the 128-bit key as 32 hex digits, read as four big-endian words",
};
static const chalk_flag F_BLOCK = {
    .name = "--block",
    .arg = "HEX",
    .key = "input_block",
    .group = "cipher",
    .help = "the 64-bit block as 16 hex digits",
};
static const chalk_flag F_ROUNDS = {
    .name = "--rounds",
    .arg = "R",
    .key = "rounds",
    .group = "cipher",
    .help = "Feistel rounds for toy (default 16), cycles for tea and xtea (default 32)",
    .min = 0,
    .max = 64,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_MIX_ROUNDS = {
    .name = "--rounds",
    .arg = "R",
    .key = "rounds",
    .group = "mixer",
    .help = "rounds (toy, default 16), cycles (tea, xtea, default 32) or layers (mlp, "
            "residual-mlp, default 16); may be a sweep",
    .min = 0,
    .max = 64,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_DEPTH = {
    .name = "--depth",
    .arg = "D",
    .key = "depth",
    .group = "mixer",
    .help = "rounds of the toy cipher and layers of both MLPs; may be a sweep",
    .min = 1,
    .max = 64,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_TRIALS = {
    .name = "--trials",
    .arg = "N",
    .key = "trials",
    .group = "experiment",
    .help = "random inputs, each with all 64 bits flipped in turn (default 256)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_SEED = {
    .name = "--seed",
    .arg = "S",
    .key = "seed",
    .group = "experiment",
    .help = "seeds the generator (SplitMix64) for keys, weights and inputs (default 1)",
    .min = 0,
    .max = 9007199254740992.0, /* 2^53: every whole number up to it is a double */
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_GAIN = {
    .name = "--gain",
    .arg = "G",
    .key = "gain",
    .group = "experiment",
    .help = "weights uniform with variance gain^2 / width (default 1)",
    .min = 0,
    .max = 100,
};
static const chalk_flag F_LAYERS = {
    .name = "--layers",
    .arg = "L",
    .key = "layers",
    .group = "network",
    .help = "reversible blocks in the stack; may be a sweep",
    .min = 1,
    .max = 4096,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_WIDTH = {
    .name = "--width",
    .arg = "W",
    .key = "width",
    .group = "network",
    .help = "numbers in the state, even: two streams of W/2 (default 64)",
    .min = 2,
    .max = 1024,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_REV_DTYPE = {
    .name = "--dtype",
    .arg = "float|double",
    .key = "dtype",
    .group = "network",
    .help = "the precision of every operation (default float)",
};
static const chalk_flag F_SEQ = {
    .name = "--seq",
    .arg = "S",
    .key = "seq_tokens",
    .group = "layer",
    .help = "s: tokens per training sequence; may be a sweep",
    .min = 1,
    .max = 1e7,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_MICROBATCH = {
    .name = "--microbatch",
    .arg = "B",
    .key = "microbatch",
    .group = "layer",
    .help = "b: sequences per micro-batch; may be a sweep",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_HIDDEN = {
    .name = "--hidden",
    .arg = "H",
    .key = "hidden",
    .group = "layer",
    .help = "h: the model width (default: the --model preset's)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_HEADS = {
    .name = "--heads",
    .arg = "A",
    .key = "heads",
    .group = "layer",
    .help = "a: attention heads (default: the --model preset's)",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_MODEL_LAYERS = {
    .name = "--layers",
    .arg = "L",
    .key = "layers",
    .group = "layer",
    .help = "transformer layers for bytes_per_model (default: the --model preset's); may "
            "be a sweep",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_TP = {
    .name = "--tensor-parallel",
    .arg = "T",
    .key = "tensor_parallel",
    .group = "parallelism",
    .help = "t: GPUs each layer is split over (default 1); may be a sweep",
    .min = 1,
    .max = 4096,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_PP = {
    .name = "--pipeline-parallel",
    .arg = "P",
    .key = "pipeline_parallel",
    .group = "parallelism",
    .help = "p: pipeline stages the layers are split into (default 1); divides the model "
            "state, not the first stage's activations",
    .min = 1,
    .max = 4096,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_SP = {
    .name = "--sequence-parallel",
    .key = "sequence_parallel",
    .group = "parallelism",
    .help = "also split the layer norms and dropouts along the sequence",
};
static const chalk_flag F_RECOMPUTE = {
    .name = "--recompute",
    .arg = "none|selective|full",
    .key = "recompute",
    .group = "parallelism",
    .help = "what the backward pass recomputes instead of storing (default none)",
};

/* ---- small readers ----------------------------------------------------------------------- */

enum { HEX_CHARS = 40, DEFAULT_TRIALS = 256, DEFAULT_SEED = 1, DEFAULT_WIDTH = 64 };

/* Reads exactly `digits` hex digits into *out (most significant first). */
static int read_hex(const chalk_args *a, const chalk_flag *f, int digits, uint32_t *out)
{
    const char *text = chalk_value(a, f);
    if (!text)
        return chalk_fail("%s needs %s %s (%d hex digits)", a->cmd->name, f->name, f->arg, digits);
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

/* A whole-number flag with a default. */
static int read_default(const chalk_args *a, const chalk_flag *f, double fallback, double *x)
{
    *x = fallback;
    return chalk_number(a, f, x);
}

/* Matches `text` against `names`; returns the index or, after an error, -1. */
static int pick(const char *flag, const char *text, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(text, names[i]) == 0)
            return i;
    char hint[256];
    chalk_suggest(hint, sizeof hint, text, names, (size_t)n);
    chalk_fail("%s: unknown value \"%s\"%s", flag, text, hint);
    return -1;
}

/* ---- encrypt, decrypt ------------------------------------------------------------------- */

static const char *const CIPHERS[] = {"toy", "tea", "xtea"}; /* revnets_cipher order */
static const char *const MIXERS[] = {"toy", "tea", "xtea", "mlp", "residual-mlp"};
enum { MIXER_MLP = 3, MIXER_RESIDUAL_MLP = 4 };

/* The default rounds: 16 for the toy cipher, 32 cycles for TEA and XTEA, 16 layers. */
static double default_rounds(int mixer)
{
    return mixer == REVNETS_CIPHER_TEA || mixer == REVNETS_CIPHER_XTEA ? REVNETS_TEA_CYCLES : 16;
}

typedef struct crypt_setup {
    revnets_keyed keyed;
    uint32_t input[2];
    bool decrypt;
} crypt_setup;

static void hex_of(char *buf, const uint32_t *words, int n)
{
    for (int i = 0; i < n; i++)
        snprintf(buf + 8 * i, 9, "%08" PRIx32, words[i]);
}

static void build_crypt(const void *ctx, long row, chalk_record *r)
{
    const crypt_setup *s = ctx;
    (void)row;
    chalk_clear(r);
    char key[HEX_CHARS], in[HEX_CHARS], out[HEX_CHARS];
    hex_of(key, s->keyed.key, 4);
    hex_of(in, s->input, 2);
    chalk_put_string(r, "cipher", "cipher", CHALK_INPUT, CIPHERS[s->keyed.cipher]);
    chalk_put_string(r, "key", "key", CHALK_INPUT, key);
    chalk_field *rounds =
        chalk_put_number(r, "rounds", "rounds", CHALK_U_COUNT, CHALK_INPUT, s->keyed.rounds);
    if (s->keyed.cipher != REVNETS_CIPHER_TOY)
        chalk_note(r, rounds, "cycles of two Feistel rounds each");
    chalk_put_string(r, "input_block", s->decrypt ? "ciphertext" : "plaintext", CHALK_INPUT, in);
    uint32_t b[2] = {s->input[0], s->input[1]};
    void (*const encrypt[])(uint32_t[2], const uint32_t[4],
                            int) = {revnets_toy_encrypt, revnets_tea_encrypt, revnets_xtea_encrypt};
    void (*const decrypt[])(uint32_t[2], const uint32_t[4],
                            int) = {revnets_toy_decrypt, revnets_tea_decrypt, revnets_xtea_decrypt};
    (s->decrypt ? decrypt : encrypt)[s->keyed.cipher](b, s->keyed.key, s->keyed.rounds);
    hex_of(out, b, 2);
    chalk_put_string(r, "block", s->decrypt ? "plaintext" : "ciphertext", 0, out);
}

static int run_crypt(const chalk_args *a, bool decrypt)
{
    crypt_setup s = {.decrypt = decrypt};
    const char *name = chalk_value(a, &F_CIPHER);
    if (!name)
        return chalk_fail("%s needs --cipher NAME (tea, xtea or toy)", a->cmd->name);
    int c = pick("--cipher", name, CIPHERS, 3);
    if (c < 0)
        return CHALK_USAGE;
    s.keyed.cipher = (revnets_cipher)c;
    double rounds;
    int status = read_hex(a, &F_KEY, 32, s.keyed.key);
    if (!status)
        status = read_hex(a, &F_BLOCK, 16, s.input);
    if (!status)
        status = read_default(a, &F_ROUNDS, default_rounds(c), &rounds);
    if (status)
        return status;
    s.keyed.rounds = (int)rounds;
    chalk_report rep = {
        .title = decrypt ? "chalk decrypt: a block back through the cipher (chapter 6.2-6.3)"
                         : "chalk encrypt: a block through the cipher (chapter 6.2-6.3)",
        .rows = 1,
        .build = build_crypt,
        .ctx = &s,
    };
    return chalk_emit(a, &rep);
}

static int run_encrypt(const chalk_args *a)
{
    return run_crypt(a, false);
}

static int run_decrypt(const chalk_args *a)
{
    return run_crypt(a, true);
}

/* ---- avalanche -------------------------------------------------------------------------- */

/* The identity on 64 bits: its avalanche is the floor, 1/64. */
static uint64_t identity_mix(uint64_t in, const void *ctx)
{
    (void)ctx;
    return in;
}

/* The weights of a width-64 MLP of `depth` layers with variance gain^2 / 64, drawn
 * from `seed`; NULL after an error line when they cannot be allocated. */
static double *mlp_weights(int depth, double gain, uint64_t seed)
{
    size_t n = (size_t)(depth > 0 ? depth : 1) * REVNETS_MLP_WIDTH * REVNETS_MLP_WIDTH;
    double *w = malloc(n * sizeof *w);
    if (!w) {
        chalk_fail("cannot allocate %zu bytes for the MLP's weights", n * sizeof *w);
        return NULL;
    }
    revnets_fill_uniform(w, n, gain * sqrt(3.0 / REVNETS_MLP_WIDTH), seed);
    return w;
}

typedef struct mix_setup {
    int mixer; /* index in MIXERS; -1 for avalanche-depth (all three) */
    chalk_sweep rounds;
    double trials, seed, gain;
    uint32_t key[4]; /* the ciphers' key, drawn from the seed */
    double *weights; /* the MLPs': as many layers as the largest depth */
} mix_setup;

/* The avalanche of mixer m at `rounds`, from the setup's key and weights; the inputs
 * come from seed + 1, so they never repeat the draws that made the key. */
static double avalanche_of(const mix_setup *s, int m, int rounds)
{
    uint64_t input_seed = (uint64_t)s->seed + 1;
    if (m == MIXER_MLP || m == MIXER_RESIDUAL_MLP) {
        revnets_mlp mlp = {
            .weights = s->weights, .depth = rounds, .residual = m == MIXER_RESIDUAL_MLP};
        return revnets_avalanche(revnets_mlp_mix, &mlp, (long)s->trials, input_seed);
    }
    revnets_keyed c = {.cipher = (revnets_cipher)m, .rounds = rounds};
    memcpy(c.key, s->key, sizeof c.key);
    return revnets_avalanche(revnets_cipher_mix, &c, (long)s->trials, input_seed);
}

static void put_experiment(chalk_record *r, const mix_setup *s)
{
    chalk_put_number(r, "trials", "trials", CHALK_U_COUNT, CHALK_INPUT, s->trials);
    chalk_put_number(r, "seed", "seed", CHALK_U_PLAIN, CHALK_INPUT, s->seed);
}

static void build_avalanche(const void *ctx, long row, chalk_record *r)
{
    const mix_setup *s = ctx;
    int rounds = (int)chalk_sweep_at(&s->rounds, row);
    bool mlp = s->mixer >= MIXER_MLP;
    chalk_clear(r);
    chalk_put_string(r, "cipher", "mixer", CHALK_INPUT, MIXERS[s->mixer]);
    chalk_field *f = chalk_put_number(r, "rounds", mlp ? "layers" : "rounds", CHALK_U_COUNT,
                                      CHALK_INPUT, rounds);
    if (s->mixer == REVNETS_CIPHER_TEA || s->mixer == REVNETS_CIPHER_XTEA)
        chalk_note(r, f, "cycles of two Feistel rounds each");
    put_experiment(r, s);
    chalk_put_maybe(r, "gain", "weight gain", CHALK_U_PLAIN, CHALK_INPUT, mlp, s->gain);
    double share = avalanche_of(s, s->mixer, rounds);
    chalk_put_number(r, "flipped_fraction", "output bits flipped", CHALK_U_FRACTION, 0, share);
    chalk_put_number(r, "flipped_bits", "bits flipped of 64", CHALK_U_PLAIN, CHALK_DETAIL,
                     64.0 * share);
}

static void build_depth(const void *ctx, long row, chalk_record *r)
{
    const mix_setup *s = ctx;
    int depth = (int)chalk_sweep_at(&s->rounds, row);
    chalk_clear(r);
    chalk_put_number(r, "depth", "rounds or layers", CHALK_U_COUNT, CHALK_INPUT, depth);
    put_experiment(r, s);
    chalk_put_number(r, "gain", "weight gain", CHALK_U_PLAIN, CHALK_INPUT, s->gain);
    chalk_put_number(r, "toy_flipped_fraction", "toy cipher", CHALK_U_FRACTION, 0,
                     avalanche_of(s, REVNETS_CIPHER_TOY, depth));
    chalk_put_number(r, "mlp_flipped_fraction", "plain MLP", CHALK_U_FRACTION, 0,
                     avalanche_of(s, MIXER_MLP, depth));
    chalk_put_number(r, "residual_mlp_flipped_fraction", "residual MLP", CHALK_U_FRACTION, 0,
                     avalanche_of(s, MIXER_RESIDUAL_MLP, depth));
    /* the two anchors of section 6.4, as reference lines for a plot */
    chalk_put_number(r, "identity_flipped_fraction", "the identity", CHALK_U_FRACTION, CHALK_DETAIL,
                     revnets_avalanche(identity_mix, NULL, 1, 0));
    chalk_put_number(r, "ideal_flipped_fraction", "an ideal cipher", CHALK_U_FRACTION, CHALK_DETAIL,
                     0.5);
}

/* Reads the experiment's inputs, draws the key and (for the MLPs) the weights of the
 * deepest network the sweep asks for. */
static int mix_read(const chalk_args *a, const chalk_flag *rounds_flag, mix_setup *s)
{
    int status = chalk_sweep_read(a, rounds_flag, &s->rounds);
    if (!status)
        status = read_default(a, &F_TRIALS, DEFAULT_TRIALS, &s->trials);
    if (!status)
        status = read_default(a, &F_SEED, DEFAULT_SEED, &s->seed);
    if (!status)
        status = read_default(a, &F_GAIN, 1.0, &s->gain);
    if (status) {
        chalk_sweep_free(&s->rounds);
        return status;
    }
    if (!s->rounds.given) {
        s->rounds.one = default_rounds(s->mixer);
        s->rounds.points = 1;
    }
    revnets_rng g = revnets_rng_seeded((uint64_t)s->seed);
    for (int i = 0; i < 4; i += 2) {
        uint64_t x = revnets_rng_next(&g);
        s->key[i] = (uint32_t)(x >> 32);
        s->key[i + 1] = (uint32_t)x;
    }
    double deepest = 0;
    for (long i = 0; i < s->rounds.points; i++)
        deepest = fmax(deepest, chalk_sweep_at(&s->rounds, i));
    if (s->mixer < 0 || s->mixer >= MIXER_MLP) {
        s->weights = mlp_weights((int)deepest, s->gain, (uint64_t)s->seed);
        if (!s->weights) {
            chalk_sweep_free(&s->rounds);
            return CHALK_USAGE;
        }
    }
    return CHALK_OK;
}

static int mix_emit(const chalk_args *a, mix_setup *s, const char *title,
                    void (*build)(const void *, long, chalk_record *))
{
    chalk_report rep = {.title = title,
                        .rows = s->rounds.points,
                        .swept = chalk_sweeps(&s->rounds) ? &s->rounds : NULL,
                        .build = build,
                        .ctx = s};
    int status = chalk_emit(a, &rep);
    free(s->weights);
    chalk_sweep_free(&s->rounds);
    return status;
}

static int run_avalanche(const chalk_args *a)
{
    mix_setup s = {0};
    const char *name = chalk_value(a, &F_MIXER);
    if (!name)
        return chalk_fail("avalanche needs --cipher NAME (tea, xtea, toy, mlp or residual-mlp)");
    if ((s.mixer = pick("--cipher", name, MIXERS, 5)) < 0)
        return CHALK_USAGE;
    if (chalk_given(a, &F_GAIN) && s.mixer < MIXER_MLP)
        return chalk_fail("--gain sets an MLP's weights; --cipher %s has none", name);
    int status = mix_read(a, &F_MIX_ROUNDS, &s);
    if (status)
        return status;
    return mix_emit(a, &s, "chalk avalanche: one input bit flipped, how many output bits? (6.4)",
                    build_avalanche);
}

static int run_depth(const chalk_args *a)
{
    mix_setup s = {.mixer = -1};
    if (!chalk_given(a, &F_DEPTH))
        return chalk_fail("avalanche-depth needs --depth D (rounds and layers; may be a sweep)");
    int status = mix_read(a, &F_DEPTH, &s);
    if (status)
        return status;
    return mix_emit(a, &s, "chalk avalanche-depth: a cipher against two MLPs, by depth (6.4)",
                    build_depth);
}

/* ---- revnet ----------------------------------------------------------------------------- */

enum { MAX_REVNET_WEIGHTS = 1 << 23 }; /* 64 MiB of doubles */

typedef struct revnet_setup {
    chalk_sweep layers;
    int width, half;
    double seed, gain;
    revnets_dtype dtype;
    double *weights; /* the deepest stack of the sweep; shallower ones are its prefix */
    double *x;       /* the input, 2 * half numbers uniform in [-1, 1) */
    double *work;    /* 2 * half */
} revnet_setup;

static void build_revnet(const void *ctx, long row, chalk_record *r)
{
    const revnet_setup *s = ctx;
    int layers = (int)chalk_sweep_at(&s->layers, row);
    revnets_net net = {.layers = layers, .half = s->half, .weights = s->weights};
    chalk_clear(r);
    chalk_put_number(r, "layers", "layers", CHALK_U_COUNT, CHALK_INPUT, layers);
    chalk_put_number(r, "width", "width", CHALK_U_COUNT, CHALK_INPUT, s->width);
    chalk_put_string(r, "dtype", "precision", CHALK_INPUT,
                     s->dtype == REVNETS_FLOAT ? "float" : "double");
    chalk_put_number(r, "gain", "weight gain", CHALK_U_PLAIN, CHALK_INPUT, s->gain);
    chalk_put_number(r, "seed", "seed", CHALK_U_PLAIN, CHALK_INPUT, s->seed);

    double ef = revnets_reconstruction_error(&net, s->x, s->x + s->half, REVNETS_FLOAT, s->work);
    double ed = revnets_reconstruction_error(&net, s->x, s->x + s->half, REVNETS_DOUBLE, s->work);
    chalk_put_number(r, "reconstruction_error", "reconstruction error", CHALK_U_PLAIN, 0,
                     s->dtype == REVNETS_FLOAT ? ef : ed);
    chalk_put_number(r, "reconstruction_error_float", "  in float", CHALK_U_PLAIN, CHALK_DETAIL,
                     ef);
    chalk_put_number(r, "reconstruction_error_double", "  in double", CHALK_U_PLAIN, CHALK_DETAIL,
                     ed);
    /* the same errors in units of each format's unit roundoff, 2^-24 and 2^-53 */
    chalk_put_number(r, "reconstruction_error_float_roundoffs", "  in float's roundoffs",
                     CHALK_U_PLAIN, CHALK_DETAIL, ef / (FLT_EPSILON / 2));
    chalk_put_number(r, "reconstruction_error_double_roundoffs", "  in double's roundoffs",
                     CHALK_U_PLAIN, CHALK_DETAIL, ed / (DBL_EPSILON / 2));
    /* the size of the values the error is measured against */
    for (int i = 0; i < 2 * s->half; i++)
        s->work[i] = s->x[i];
    revnets_stack_forward(&net, s->work, s->work + s->half, REVNETS_DOUBLE);
    double largest = 0.0;
    for (int i = 0; i < 2 * s->half; i++)
        largest = fmax(largest, fabs(s->work[i]));
    chalk_put_number(r, "output_max_abs", "largest output", CHALK_U_PLAIN, CHALK_DETAIL, largest);

    double bytes = revnets_dtype_bytes(s->dtype);
    chalk_put_number(r, "activation_bytes_stored", "activations, stored", CHALK_U_BYTES, 0,
                     bytes * (double)revnets_work_stored(layers, s->half));
    chalk_put_number(r, "activation_bytes_reversible", "activations, reversible", CHALK_U_BYTES, 0,
                     bytes * (double)revnets_work_reversible(layers, s->half));
    double stored = revnets_train_flops(layers, s->half, false);
    double reversible = revnets_train_flops(layers, s->half, true);
    chalk_put_number(r, "train_flops_stored", "training FLOPs, stored", CHALK_U_FLOPS, CHALK_DETAIL,
                     stored);
    chalk_put_number(r, "train_flops_reversible", "training FLOPs, reversible", CHALK_U_FLOPS,
                     CHALK_DETAIL, reversible);
    chalk_put_number(r, "extra_forward_flops_fraction", "extra FLOPs, reversible", CHALK_U_FRACTION,
                     0, (reversible - stored) / stored);
}

static void revnet_free(revnet_setup *s)
{
    free(s->weights);
    free(s->x);
    free(s->work);
    chalk_sweep_free(&s->layers);
}

static int run_revnet(const chalk_args *a)
{
    revnet_setup s = {.dtype = REVNETS_FLOAT};
    double width;
    int status = chalk_sweep_read(a, &F_LAYERS, &s.layers);
    if (!status && !s.layers.given)
        status = chalk_fail("revnet needs --layers L (reversible blocks; may be a sweep)");
    if (!status)
        status = read_default(a, &F_WIDTH, DEFAULT_WIDTH, &width);
    if (!status)
        status = read_default(a, &F_SEED, DEFAULT_SEED, &s.seed);
    if (!status)
        status = read_default(a, &F_GAIN, 1.0, &s.gain);
    const char *dt = chalk_value(a, &F_REV_DTYPE);
    if (!status && dt) {
        static const char *const NAMES[] = {"double", "float"}; /* revnets_dtype order */
        int d = pick("--dtype", dt, NAMES, 2);
        status = d < 0 ? CHALK_USAGE : CHALK_OK;
        s.dtype = d == 0 ? REVNETS_DOUBLE : REVNETS_FLOAT;
    }
    if (!status && (int)width % 2 != 0)
        status = chalk_fail("--width must be even: two streams of width/2 (got %g)", width);
    double deepest = 0.0;
    for (long i = 0; !status && i < s.layers.points; i++)
        deepest = fmax(deepest, chalk_sweep_at(&s.layers, i));
    s.width = (int)width;
    s.half = s.width / 2;
    double count = deepest * 2.0 * s.half * s.half;
    if (!status && count > MAX_REVNET_WEIGHTS)
        status = chalk_fail("--layers %g with --width %d needs %.0f weights; at most %d (lower "
                            "layers x width^2 / 2)",
                            deepest, s.width, count, MAX_REVNET_WEIGHTS);
    if (status) {
        chalk_sweep_free(&s.layers);
        return status;
    }
    s.weights = malloc((size_t)count * sizeof *s.weights);
    s.x = malloc((size_t)s.width * sizeof *s.x);
    s.work = malloc((size_t)s.width * sizeof *s.work);
    if (!s.weights || !s.x || !s.work) {
        revnet_free(&s);
        return chalk_fail("cannot allocate the network's %g weights", count);
    }
    revnets_fill_uniform(s.weights, (size_t)count, s.gain * sqrt(3.0 / s.half), (uint64_t)s.seed);
    revnets_fill_uniform(s.x, (size_t)s.width, 1.0, (uint64_t)s.seed + 1);
    chalk_report rep = {.title = "chalk revnet: a reversible stack run forward and back (6.5-6.6)",
                        .rows = s.layers.points,
                        .swept = chalk_sweeps(&s.layers) ? &s.layers : NULL,
                        .build = build_revnet,
                        .ctx = &s};
    status = chalk_emit(a, &rep);
    revnet_free(&s);
    return status;
}

/* ---- activation-memory ------------------------------------------------------------------ */

static const char *const RECOMPUTE[] = {"none", "selective", "full"}; /* revnets_recompute */

typedef struct act_setup {
    const cost_model *model;
    const cost_hw *hw;
    double pp;
    double hidden, heads;
    bool has_layers;
    bool sequence_parallel;
    revnets_recompute recompute;
    chalk_sweep seq, microbatch, layers, tp;
    const chalk_sweep *swept;
} act_setup;

/* Model state per GPU (16 bytes a parameter over t x p GPUs), what the first stage
 * holds in all, and whether the --hw chip's HBM takes it. */
static void put_fit(chalk_record *r, const act_setup *s, double tp, double activation_bytes)
{
    double state =
        s->model ? revnets_model_state_bytes_per_gpu(cost_model_params_total(s->model), tp, s->pp)
                 : 0.0;
    chalk_put_result(r, "model_state_bytes_per_gpu", "model state per GPU", CHALK_U_BYTES, 0,
                     s->model != NULL, state,
                     "no parameter count: pass --model NAME for the model state");
    bool known = s->model && s->has_layers;
    chalk_put_result(r, "total_bytes_per_gpu", "state + activations, first stage", CHALK_U_BYTES, 0,
                     known, state + activation_bytes,
                     s->model ? "no layer count: pass --layers L"
                              : "no parameter count: pass --model NAME");
    chalk_put_bool_result(r, "fits_hbm", "fits in HBM", 0, known && s->hw,
                          s->hw && state + activation_bytes <= s->hw->hbm_bytes,
                          !s->hw ? "no HBM capacity: pass --hw NAME"
                                 : "no total: pass --model NAME (and --layers L)");
}

/* The layer at point `row` of the sweep. */
static revnets_layer act_layer_at(const act_setup *s, long row)
{
    revnets_layer l = {
        .seq_tokens = chalk_sweep_at(&s->seq, row),
        .microbatch = chalk_sweep_at(&s->microbatch, row),
        .hidden = s->hidden,
        .heads = s->heads,
        .tensor_parallel = chalk_sweep_at(&s->tp, row),
        .sequence_parallel = s->sequence_parallel,
        .recompute = s->recompute,
    };
    return l;
}

static void build_act(const void *ctx, long row, chalk_record *r)
{
    const act_setup *s = ctx;
    revnets_layer l = act_layer_at(s, row);
    double layers = chalk_sweep_at(&s->layers, row);
    chalk_clear(r);
    chalk_field *m =
        chalk_put_string(r, "model", "model", CHALK_INPUT, s->model ? s->model->name : NULL);
    if (!s->model)
        chalk_null_words(r, m, "(from flags)");
    chalk_put_number(r, "seq_tokens", "sequence", CHALK_U_TOKENS, CHALK_INPUT, l.seq_tokens);
    chalk_put_number(r, "microbatch", "micro-batch", CHALK_U_SEQUENCES, CHALK_INPUT, l.microbatch);
    chalk_put_number(r, "hidden", "hidden width", CHALK_U_COUNT, CHALK_INPUT, l.hidden);
    chalk_put_number(r, "heads", "heads", CHALK_U_COUNT, CHALK_INPUT, l.heads);
    chalk_put_maybe(r, "layers", "layers", CHALK_U_COUNT, CHALK_INPUT, s->has_layers, layers);
    chalk_put_number(r, "tensor_parallel", "tensor parallel", CHALK_U_COUNT, CHALK_INPUT,
                     l.tensor_parallel);
    chalk_put_bool(r, "sequence_parallel", "sequence parallel", CHALK_INPUT, l.sequence_parallel);
    chalk_put_string(r, "recompute", "recompute", CHALK_INPUT, RECOMPUTE[l.recompute]);
    chalk_put_number(r, "pipeline_parallel", "pipeline stages", CHALK_U_COUNT, CHALK_INPUT, s->pp);
    chalk_field *hbm = chalk_put_maybe(r, "hbm_bytes", "HBM per GPU", CHALK_U_BYTES, CHALK_INPUT,
                                       s->hw != NULL, s->hw ? s->hw->hbm_bytes : 0.0);
    if (!s->hw)
        chalk_null_words(r, hbm, "(no --hw)");

    double per_layer = revnets_act_bytes_per_layer(&l);
    chalk_put_number(r, "bytes_per_layer", "activations per layer", CHALK_U_BYTES, 0, per_layer);
    chalk_put_result(r, "bytes_per_model", "activations, all layers", CHALK_U_BYTES, 0,
                     s->has_layers,
                     s->has_layers ? revnets_act_bytes_per_model(&l, (int)layers) : 0,
                     "no layer count: pass --layers L or --model NAME");
    chalk_put_number(r, "extra_flops_fraction", "extra FLOPs, recomputing", CHALK_U_FRACTION, 0,
                     revnets_recompute_flops_fraction(&l));
    put_fit(r, s, l.tensor_parallel,
            s->has_layers ? revnets_act_bytes_per_model(&l, (int)layers) : 0.0);
    /* the same layer under every recomputation choice, for comparisons and plots */
    for (int k = 0; k < 3; k++) {
        revnets_layer v = l;
        v.recompute = (revnets_recompute)k;
        chalk_put_number(r, chalk_fmt(r, "bytes_per_layer_%s", RECOMPUTE[k]),
                         chalk_fmt(r, "  recompute %s", RECOMPUTE[k]), CHALK_U_BYTES, CHALK_DETAIL,
                         revnets_act_bytes_per_layer(&v));
    }
    /* the share of an undivided layer's bytes in the s^2 attention core */
    revnets_layer whole = l, cut = l;
    whole.tensor_parallel = cut.tensor_parallel = 1;
    whole.recompute = REVNETS_RECOMPUTE_NONE;
    cut.recompute = REVNETS_RECOMPUTE_SELECTIVE;
    double whole_bytes = revnets_act_bytes_per_layer(&whole);
    chalk_put_number(r, "attention_core_share", "share in the s^2 attention core", CHALK_U_FRACTION,
                     CHALK_DETAIL, (whole_bytes - revnets_act_bytes_per_layer(&cut)) / whole_bytes);
}

static void act_free(act_setup *s)
{
    chalk_sweep_free(&s->seq);
    chalk_sweep_free(&s->microbatch);
    chalk_sweep_free(&s->layers);
    chalk_sweep_free(&s->tp);
}

/* Reads activation-memory's flags into *s (which the caller frees with act_free,
 * also after an error). */
static int act_read(const chalk_args *a, act_setup *s)
{
    const char *name = chalk_value(a, &CHALK_F_MODEL);
    if (name && !(s->model = cost_model_find(name)))
        return chalk_unknown_model(name);
    const char *hw = chalk_value(a, &CHALK_F_HW);
    if (hw && !(s->hw = cost_hw_find(hw)))
        return chalk_unknown_hw(hw);
    s->pp = 1;
    int status = chalk_number(a, &F_PP, &s->pp);
    if (status)
        return status;
    if (s->model) {
        s->hidden = s->model->d_model;
        s->heads = s->model->heads;
    }
    chalk_sweep *const sweeps[] = {&s->seq, &s->microbatch, &s->layers, &s->tp};
    const chalk_flag *const flags[] = {&F_SEQ, &F_MICROBATCH, &F_MODEL_LAYERS, &F_TP};
    for (int i = 0; i < 4 && !status; i++)
        status = chalk_sweep_read(a, flags[i], sweeps[i]);
    if (!status)
        status = chalk_one_sweep(sweeps, 4, &s->swept);
    if (!status)
        status = chalk_number(a, &F_HIDDEN, &s->hidden);
    if (!status)
        status = chalk_number(a, &F_HEADS, &s->heads);
    const char *rc = chalk_value(a, &F_RECOMPUTE);
    if (!status && rc) {
        int k = pick("--recompute", rc, RECOMPUTE, 3);
        status = k < 0 ? CHALK_USAGE : CHALK_OK;
        s->recompute = (revnets_recompute)(k < 0 ? 0 : k);
    }
    if (!status && !s->seq.given)
        status = chalk_fail("%s needs --seq S (tokens per sequence)", a->cmd->name);
    if (!status && !s->microbatch.given)
        status = chalk_fail("%s needs --microbatch B (sequences per micro-batch)", a->cmd->name);
    if (!status && s->hidden == 0.0)
        status = chalk_fail("%s needs --hidden H (or --model NAME)", a->cmd->name);
    if (!status && s->heads == 0.0)
        status = chalk_fail("%s needs --heads A (or --model NAME)", a->cmd->name);
    if (status)
        return status;
    if (!s->tp.given)
        s->tp.one = 1;
    s->has_layers = s->layers.given || s->model;
    if (!s->layers.given && s->model)
        s->layers.one = s->model->layers;
    s->sequence_parallel = chalk_given(a, &F_SP);
    return CHALK_OK;
}

static int run_act(const chalk_args *a)
{
    act_setup s = {0};
    int status = act_read(a, &s);
    if (status) {
        act_free(&s);
        return status;
    }
    chalk_report rep = {
        .title = "chalk activation-memory: bytes a layer keeps for the backward pass (6.7)",
        .rows = s.swept ? s.swept->points : 1,
        .swept = s.swept,
        .build = build_act,
        .ctx = &s};
    status = chalk_emit(a, &rep);
    act_free(&s);
    return status;
}

/* ---- checkpoint-plan -------------------------------------------------------------------- */

/* The HBM a GPU has: --hbm-bytes, else the --hw preset's. */
typedef struct plan_setup {
    act_setup act;
    double hbm_bytes;
} plan_setup;

static void build_plan(const void *ctx, long row, chalk_record *r)
{
    const plan_setup *p = ctx;
    const act_setup *s = &p->act;
    revnets_layer l = act_layer_at(s, row);
    int layers = (int)chalk_sweep_at(&s->layers, row);
    revnets_layer input = l;
    input.recompute = REVNETS_RECOMPUTE_FULL;
    double layer_bytes = revnets_act_bytes_per_layer(&l);
    double input_bytes = revnets_act_bytes_per_layer(&input);
    double state = revnets_model_state_bytes_per_gpu(cost_model_params_total(s->model),
                                                     l.tensor_parallel, s->pp);
    double budget = fmax(p->hbm_bytes - state, 0.0);
    revnets_checkpoint_plan plan =
        revnets_plan_checkpoints(layers, layer_bytes, input_bytes, budget);
    const char *none = "no plan fits: even every layer recomputed needs more than the budget";

    chalk_clear(r);
    chalk_put_string(r, "model", "model", CHALK_INPUT, s->model->name);
    chalk_put_number(r, "seq_tokens", "sequence", CHALK_U_TOKENS, CHALK_INPUT, l.seq_tokens);
    chalk_put_number(r, "microbatch", "micro-batch", CHALK_U_SEQUENCES, CHALK_INPUT, l.microbatch);
    chalk_put_number(r, "layers", "layers", CHALK_U_COUNT, CHALK_INPUT, layers);
    chalk_put_number(r, "tensor_parallel", "tensor parallel", CHALK_U_COUNT, CHALK_INPUT,
                     l.tensor_parallel);
    chalk_put_bool(r, "sequence_parallel", "sequence parallel", CHALK_INPUT, l.sequence_parallel);
    chalk_put_string(r, "recompute", "stored layers keep", CHALK_INPUT, RECOMPUTE[l.recompute]);
    chalk_put_number(r, "pipeline_parallel", "pipeline stages", CHALK_U_COUNT, CHALK_INPUT, s->pp);
    chalk_put_number(r, "hbm_bytes", "HBM per GPU", CHALK_U_BYTES, CHALK_INPUT, p->hbm_bytes);
    chalk_put_number(r, "model_state_bytes_per_gpu", "model state per GPU", CHALK_U_BYTES,
                     CHALK_DETAIL, state);
    chalk_put_number(r, "budget_bytes", "activation budget", CHALK_U_BYTES, 0, budget);
    chalk_put_number(r, "layer_bytes", "a stored layer", CHALK_U_BYTES, CHALK_DETAIL, layer_bytes);
    chalk_put_number(r, "input_bytes", "a checkpoint", CHALK_U_BYTES, CHALK_DETAIL, input_bytes);
    chalk_put_bool(r, "plan_exists", "a plan fits", 0, plan.exists);
    chalk_put_bool(r, "needs_recompute", "some layer recomputed", CHALK_DETAIL,
                   plan.exists && plan.stored < layers);
    chalk_put_result(r, "stored_layers", "layers stored", CHALK_U_COUNT, 0, plan.exists,
                     plan.stored, none);
    chalk_put_result(r, "recomputed_layers", "layers recomputed", CHALK_U_COUNT, 0, plan.exists,
                     layers - plan.stored, none);
    chalk_put_result(r, "segment_layers", "layers a segment", CHALK_U_COUNT, 0, plan.exists,
                     plan.segment, none);
    chalk_put_result(r, "segments", "segments", CHALK_U_COUNT, CHALK_DETAIL, plan.exists,
                     plan.segments, none);
    chalk_put_result(r, "peak_bytes", "peak activations", CHALK_U_BYTES, 0, plan.exists,
                     plan.peak_bytes, none);
    /* the plan's segments, plus selective recomputation in the stored layers */
    double stored_share = layers > 0 ? (double)plan.stored / layers : 0.0;
    chalk_put_result(
        r, "extra_flops_fraction", "extra FLOPs, recomputing", CHALK_U_FRACTION, 0, plan.exists,
        plan.extra_flops_fraction + stored_share * revnets_recompute_flops_fraction(&l), none);
}

static int run_plan(const chalk_args *a)
{
    plan_setup p = {0};
    int status = act_read(a, &p.act);
    if (!status && !p.act.model)
        status = chalk_fail("checkpoint-plan needs --model NAME (its parameters and layers)");
    if (!status && p.act.recompute == REVNETS_RECOMPUTE_FULL)
        status = chalk_fail("checkpoint-plan: --recompute is what a stored layer keeps, none or "
                            "selective; full recomputation is what the plan chooses");
    if (!status && !p.act.hw && !chalk_given(a, &CHALK_F_HBM_BYTES))
        status = chalk_fail("checkpoint-plan needs --hw NAME or --hbm-bytes X (the HBM per GPU)");
    if (!status) {
        p.hbm_bytes = p.act.hw ? p.act.hw->hbm_bytes : 0.0;
        status = chalk_number(a, &CHALK_F_HBM_BYTES, &p.hbm_bytes);
    }
    for (long i = 0; !status && i < p.act.layers.points; i++) {
        double n = chalk_sweep_at(&p.act.layers, i);
        if (n > 4096)
            status = chalk_fail("checkpoint-plan: --layers %g is more than 4096", n);
    }
    if (status) {
        act_free(&p.act);
        return status;
    }
    chalk_report rep = {.title =
                            "chalk checkpoint-plan: the fewest recomputed layers that fit (6.8)",
                        .rows = p.act.swept ? p.act.swept->points : 1,
                        .swept = p.act.swept,
                        .build = build_plan,
                        .ctx = &p};
    status = chalk_emit(a, &rep);
    act_free(&p.act);
    return status;
}

/* ---- the commands ------------------------------------------------------------------------- */

static const chalk_flag *const CRYPT_FLAGS[] = {&F_CIPHER, &F_KEY, &F_BLOCK, &F_ROUNDS, NULL};
static const chalk_flag *const AVALANCHE_FLAGS[] = {&F_MIXER, &F_MIX_ROUNDS, &F_TRIALS,
                                                    &F_SEED,  &F_GAIN,       NULL};
static const chalk_flag *const DEPTH_FLAGS[] = {&F_DEPTH, &F_TRIALS, &F_SEED, &F_GAIN, NULL};
static const chalk_flag *const REVNET_FLAGS[] = {&F_LAYERS, &F_WIDTH, &F_REV_DTYPE,
                                                 &F_SEED,   &F_GAIN,  NULL};
static const chalk_flag *const PLAN_FLAGS[] = {&CHALK_F_MODEL,
                                               &F_SEQ,
                                               &F_MICROBATCH,
                                               &F_HIDDEN,
                                               &F_HEADS,
                                               &F_MODEL_LAYERS,
                                               &F_TP,
                                               &F_SP,
                                               &F_RECOMPUTE,
                                               &F_PP,
                                               &CHALK_F_HW,
                                               &CHALK_F_HBM_BYTES,
                                               NULL};
static const chalk_flag *const ACT_FLAGS[] = {
    &CHALK_F_MODEL, &F_SEQ, &F_MICROBATCH, &F_HIDDEN, &F_HEADS,    &F_MODEL_LAYERS,
    &F_TP,          &F_SP,  &F_RECOMPUTE,  &F_PP,     &CHALK_F_HW, NULL};

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

static const char *const ABOUT_ACT[] = {
    "Activation memory of one transformer layer on one GPU, in bytes, as Korthikanti et al.",
    "2022 count it (16-bit activations, 1-byte dropout masks, a 4h GELU MLP):",
    "  none                       sbh (34 + 5as/h)       (t = 1, or divided by t with",
    "                                                     --sequence-parallel)",
    "  none, tensor parallel t    sbh (10 + 24/t + 5as/(ht))",
    "  selective                  the same without the 5as/h term",
    "  full                       2 sbh, each layer's input (2 sbh / t with",
    "                             --sequence-parallel: the input is split along s)",
    "with s = --seq, b = --microbatch, h = --hidden, a = --heads. bytes_per_model is",
    "--layers times that: what the first pipeline stage holds. extra_flops_fraction is",
    "what recomputing adds to a step's 3 forwards: full 1/3, selective 4bs^2h of them.",
    "--model NAME fills --hidden, --heads and --layers, and gives the model state a GPU",
    "holds: 16 bytes a parameter (bf16 weights and gradients, fp32 Adam state; ZeRO),",
    "over t x --pipeline-parallel GPUs; with --hw NAME, fits_hbm says whether state and",
    "activations fit. --seq, --microbatch, --layers or --tensor-parallel may be a sweep.",
    NULL};
static const char *const EXAMPLES_ACT[] = {
    "chalk activation-memory --model gpt3-175b --seq 2048 --microbatch 1",
    "chalk activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --tensor-parallel 8 "
    "--sequence-parallel --recompute selective",
    "chalk activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --tensor-parallel 8 "
    "--pipeline-parallel 8 --hw a100-sxm",
    "chalk activation-memory --seq 2048 --microbatch 1 --hidden 6144 --heads 64 --layers 48", NULL};

static const char *const ABOUT_PLAN[] = {
    "A plan of checkpoints for a model's first pipeline stage (chapter 6, section 6.8):",
    "the last stored_layers layers, nearest the output, keep their activations (as",
    "--recompute says: none or selective); the others are cut into segments of",
    "segment_layers layers, each keeping only its first layer's input and recomputed",
    "from it in the backward pass, after the stored layers are freed. The plan",
    "recomputes the fewest layers whose peak memory,",
    "  segments x input_bytes + layer_bytes x max(stored_layers, segment_layers),",
    "fits the budget: the HBM (--hw, or --hbm-bytes) less the model state of 16 bytes a",
    "parameter over t x --pipeline-parallel GPUs. A stored layer keeps what",
    "activation-memory gives; a checkpoint is the layer's input as the GPU holds it.",
    "Ties: the least peak, then the shorter segment. No plan fits: null, with a reason.",
    "--seq, --microbatch, --layers or --tensor-parallel may be a sweep.",
    NULL};
static const char *const EXAMPLES_PLAN[] = {
    "chalk checkpoint-plan --model gpt3-175b --seq 2048 --microbatch 1 --tensor-parallel 8 "
    "--pipeline-parallel 8 --hw a100-sxm",
    "chalk checkpoint-plan --model gpt3-175b --seq 1024:32768:6 --microbatch 1 "
    "--tensor-parallel 8 --pipeline-parallel 8 --sequence-parallel --recompute selective "
    "--hw a100-sxm --csv",
    NULL};

static const chalk_command COMMANDS[] = {
    {"encrypt", "[flags]", "a block through TEA, XTEA or the toy Feistel cipher (6.2-6.3)",
     CRYPT_FLAGS, ABOUT_ENCRYPT, EXAMPLES_ENCRYPT, run_encrypt},
    {"decrypt", "[flags]", "a block back through the same cipher (6.2-6.3)", CRYPT_FLAGS,
     ABOUT_DECRYPT, EXAMPLES_DECRYPT, run_decrypt},
    {"avalanche", "[flags]", "share of output bits one flipped input bit changes (6.4)",
     AVALANCHE_FLAGS, ABOUT_AVALANCHE, EXAMPLES_AVALANCHE, run_avalanche},
    {"avalanche-depth", "[flags]", "the toy cipher and two MLPs side by side, by depth (6.4)",
     DEPTH_FLAGS, ABOUT_DEPTH, EXAMPLES_DEPTH, run_depth},
    {"revnet", "[flags]", "a reversible stack: reconstruction error, training memory (6.5-6.6)",
     REVNET_FLAGS, ABOUT_REVNET, EXAMPLES_REVNET, run_revnet},
    {"activation-memory", "[flags]", "bytes a transformer layer keeps for backward (6.7)",
     ACT_FLAGS, ABOUT_ACT, EXAMPLES_ACT, run_act},
    {"checkpoint-plan", "[flags]", "the fewest recomputed layers that fit the HBM (6.8)",
     PLAN_FLAGS, ABOUT_PLAN, EXAMPLES_PLAN, run_plan},
};

const chalk_chapter chalk_chapter_06_revnets = {
    .number = 6,
    .title = "revnets: neural nets and ciphers, Feistel networks and reversible networks",
    .commands = COMMANDS,
    .count = sizeof COMMANDS / sizeof COMMANDS[0],
};
