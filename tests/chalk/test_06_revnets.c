/*
 * test_06_revnets.c -- chapter 6's commands (encrypt, decrypt, avalanche,
 * avalanche-depth, revnet, activation-memory, checkpoint-plan), tested from the outside
 * as readers use them.
 *
 * Sources:
 *   TEA, XTEA  BouncyCastle TEATest and XteaTest vectors (reference/specs.md 7.3)
 *   KOR        Korthikanti et al. 2022, arXiv:2205.05198: eq. 1-6, Table 2, Table 3,
 *              section 5 (GPT-3: 5as/h = 80), Appendix A (24Bsh^2 + 4Bs^2h a layer)
 *   contract   exercises/06-revnets/revnets.h (memory and FLOPs of the RevNet stack)
 *   MEG        Megatron-LM, megatron/model/transformer.py: with sequence parallelism a
 *              checkpoint keeps the layer input as split along the sequence, [s/t, b, h]
 *   6.8        the book's model of a checkpoint plan's peak memory (chapter 6, 6.8)
 */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ZERO_KEY "00000000000000000000000000000000"
#define KEY_0123 "0123456712345678234567893456789a"

/* ---- encrypt, decrypt ------------------------------------------------------------------ */

/* TEA and XTEA with a zero key and block, and the 0123... key with block 0102...:
 * BouncyCastle's vectors, 32 cycles, printed in lower-case hex as `block`. */
static void encrypt_reproduces_the_tea_and_xtea_test_vectors(void **state)
{
    (void)state;
    static const struct {
        const char *cipher, *key, *block, *expected;
    } cases[] = {
        {"tea", ZERO_KEY, "0000000000000000", "41ea3a0a94baa940"},
        {"tea", KEY_0123, "0102030405060708", "773dc179878a81c0"},
        {"xtea", ZERO_KEY, "0000000000000000", "dee9d4d8f7131ed9"},
        {"xtea", "0123456712345678234567893456789A", "0102030405060708", "8c67155b2ef91ead"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("encrypt --cipher %s --key %s --block %s --json", cases[i].cipher,
                       cases[i].key, cases[i].block);
        expect_status(r, 0, "encrypt");
        if (!json_string_is(r->out, "block", cases[i].expected))
            fail_msg("%s: expected block %s in %s", cases[i].cipher, cases[i].expected, r->out);
        assert_true(json_number(r->out, "rounds") == 32);
        run_free(r);
    }
}

/* Decryption of the published ciphertexts gives the plaintexts back. */
static void decrypt_inverts_the_published_ciphertexts(void **state)
{
    (void)state;
    run *r = chalk("decrypt --cipher tea --key %s --block 6a2f9cf3fccf3c55 --json", ZERO_KEY);
    expect_status(r, 0, "decrypt");
    assert_true(json_string_is(r->out, "block", "0102030405060708"));
    assert_true(json_string_is(r->out, "input_block", "6a2f9cf3fccf3c55"));
    run_free(r);
    r = chalk("decrypt --cipher xtea --key %s --block 1ff9a0261ac64264 --json", KEY_0123);
    expect_status(r, 0, "decrypt");
    assert_true(json_string_is(r->out, "block", "0000000000000000"));
    run_free(r);
}

/* The toy cipher, zero key and zero block: t = 0 every round, f = 0, so each round
 * only swaps the halves; with one round (L, R) = (0x01234567, 0x89abcdef) becomes
 * (R, L ^ f(R, 0)) with f(R, 0) = rotl32(R * (R | 1), 16), R odd: R^2. */
static void toy_encrypt_is_a_feistel_round_by_hand(void **state)
{
    (void)state;
    run *r = chalk("encrypt --cipher toy --key %s --block 0000000000000000 --json", ZERO_KEY);
    expect_status(r, 0, "encrypt");
    assert_true(json_string_is(r->out, "block", "0000000000000000"));
    assert_true(json_number(r->out, "rounds") == 16);
    run_free(r);
    uint32_t R = 0x89abcdef, sq = R * R, f = (sq << 16) | (sq >> 16);
    char expected[17];
    snprintf(expected, sizeof expected, "89abcdef%08x", 0x01234567u ^ f);
    r = chalk("encrypt --cipher toy --key %s --block 0123456789abcdef --rounds 1 --json", ZERO_KEY);
    expect_status(r, 0, "encrypt");
    if (!json_string_is(r->out, "block", expected))
        fail_msg("expected %s in %s", expected, r->out);
    run_free(r);
}

/* ---- avalanche --------------------------------------------------------------------------- */

/* An ideal cipher changes each output bit with probability 1/2; over 256 x 64 flips
 * the standard error is about (1/16)/128 = 5e-4, so 0.5 +- 0.005 is 10 of them. */
static void tea_and_xtea_flip_half_the_bits(void **state)
{
    (void)state;
    const char *ciphers[] = {"tea", "xtea"};
    for (int i = 0; i < 2; i++) {
        run *r = chalk("avalanche --cipher %s --trials 256 --seed 7 --json", ciphers[i]);
        expect_status(r, 0, "avalanche");
        double share = json_number(r->out, "flipped_fraction");
        if (fabs(share - 0.5) > 0.005)
            fail_msg("%s: flipped_fraction %g, expected 0.5 +- 0.005", ciphers[i], share);
        assert_close(json_number(r->out, "flipped_bits"), 64 * share, TIGHT, "bits");
        run_free(r);
    }
}

/* One Feistel round: a flip in the left half changes one output bit, a flip in the
 * right half one plus at most 32: the share lies in (1/64, (32 + 32 x 33) / 4096]. */
static void one_toy_round_is_far_from_avalanche_and_sixteen_reach_it(void **state)
{
    (void)state;
    run *r = chalk("avalanche --cipher toy --rounds 1,16 --trials 256 --seed 3 --json");
    expect_status(r, 0, "avalanche");
    double one = json_path(r->out, "rows.0.flipped_fraction");
    double sixteen = json_path(r->out, "rows.1.flipped_fraction");
    assert_true(one > 1.0 / 64 && one <= (32.0 + 32.0 * 33.0) / 4096);
    assert_true(fabs(sixteen - 0.5) < 0.005);
    run_free(r);
}

/* A residual MLP of one layer keeps each input's sign (|tanh| < 1 <= |x_j|), so one
 * flipped input bit flips exactly its own output bit: 1/64 exactly. */
static void a_one_layer_residual_mlp_is_exactly_one_bit_in_64(void **state)
{
    (void)state;
    run *r = chalk("avalanche --cipher residual-mlp --rounds 1 --gain 3 --trials 8 --json");
    expect_status(r, 0, "avalanche");
    assert_close(json_number(r->out, "flipped_fraction"), 1.0 / 64, TIGHT, "");
    run_free(r);
    r = chalk("avalanche-depth --depth 1 --gain 3 --trials 8 --json");
    expect_status(r, 0, "avalanche-depth");
    assert_close(json_number(r->out, "residual_mlp_flipped_fraction"), 1.0 / 64, TIGHT, "");
    run_free(r);
}

/* Zero rounds of anything is the identity: 1/64 (and the MLP with 0 layers too). */
static void zero_rounds_flip_one_bit_in_64(void **state)
{
    (void)state;
    const char *mixers[] = {"toy", "tea", "xtea", "mlp", "residual-mlp"};
    for (int i = 0; i < 5; i++) {
        run *r = chalk("avalanche --cipher %s --rounds 0 --trials 4 --json", mixers[i]);
        expect_status(r, 0, "avalanche");
        assert_close(json_number(r->out, "flipped_fraction"), 1.0 / 64, TIGHT, "");
        run_free(r);
    }
}

/* ---- revnet ------------------------------------------------------------------------------ */

/* Contract: stored keeps 4 x (W/2) numbers per block, reversible 3 x (W/2) in all;
 * 4 bytes each in float, 8 in double. Training: 12 against 16 (W/2)^2 FLOPs a block. */
static void revnet_memory_and_flops_are_the_contract_s_closed_forms(void **state)
{
    (void)state;
    run *r = chalk("revnet --layers 96 --width 64 --dtype float --json");
    expect_status(r, 0, "revnet");
    assert_close(json_number(r->out, "activation_bytes_stored"), 4.0 * 32 * 96 * 4, TIGHT, "B");
    assert_close(json_number(r->out, "activation_bytes_reversible"), 3.0 * 32 * 4, TIGHT, "B");
    assert_close(json_number(r->out, "train_flops_stored"), 12.0 * 32 * 32 * 96, TIGHT, "FLOP");
    assert_close(json_number(r->out, "train_flops_reversible"), 16.0 * 32 * 32 * 96, TIGHT, "FLOP");
    assert_close(json_number(r->out, "extra_forward_flops_fraction"), 1.0 / 3, TIGHT, "");
    run_free(r);
    r = chalk("revnet --layers 10 --width 8 --dtype double --json");
    expect_status(r, 0, "revnet");
    assert_close(json_number(r->out, "activation_bytes_stored"), 4.0 * 4 * 10 * 8, TIGHT, "B");
    assert_close(json_number(r->out, "activation_bytes_reversible"), 3.0 * 4 * 8, TIGHT, "B");
    run_free(r);
}

/* Stored activation memory is linear in depth; the reversible stack's is flat. */
static void stored_memory_grows_linearly_and_reversible_memory_stays_flat(void **state)
{
    (void)state;
    run *r = chalk("revnet --layers 1,2,4,8 --width 16 --json");
    expect_status(r, 0, "revnet");
    for (int i = 0; i < 4; i++) {
        char path[64];
        snprintf(path, sizeof path, "rows.%d.activation_bytes_stored", i);
        assert_close(json_path(r->out, path), 4.0 * 8 * (1 << i) * 4, TIGHT, "B");
        snprintf(path, sizeof path, "rows.%d.activation_bytes_reversible", i);
        assert_close(json_path(r->out, path), 3.0 * 8 * 4, TIGHT, "B");
    }
    run_free(r);
}

/* One block forward and back loses a few roundings: within 16 units of 2^-24 (float)
 * or 2^-53 (double) of the output's size; the chosen dtype's error is the one shown. */
static void one_block_reconstructs_to_a_few_roundings_in_either_precision(void **state)
{
    (void)state;
    run *r = chalk("revnet --layers 1 --width 64 --seed 5 --dtype double --json");
    expect_status(r, 0, "revnet");
    double scale = json_number(r->out, "output_max_abs");
    double ef = json_number(r->out, "reconstruction_error_float");
    double ed = json_number(r->out, "reconstruction_error_double");
    assert_true(ef > 0 && ef <= 16 * 0x1p-24 * scale);
    assert_true(ed <= 16 * 0x1p-53 * scale);
    assert_true(json_number(r->out, "reconstruction_error") == ed);
    run_free(r);
}

/* ---- activation-memory ------------------------------------------------------------------- */

/* KOR eq. 1 and section 5: GPT-3 (a 96, h 12288) at s 2048, b 1 stores sbh (34 + 80)
 * bytes a layer; 96 layers hold 96 times that. */
static void gpt3_stores_sbh_times_114_bytes_a_layer(void **state)
{
    (void)state;
    run *r = chalk("activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --json");
    expect_status(r, 0, "activation-memory");
    double sbh = 2048.0 * 12288;
    assert_close(json_number(r->out, "bytes_per_layer"), sbh * 114, TIGHT, "B");
    assert_close(json_number(r->out, "bytes_per_model"), sbh * 114 * 96, TIGHT, "B");
    assert_close(json_number(r->out, "attention_core_share"), 80.0 / 114, TIGHT, "");
    assert_true(json_number(r->out, "extra_flops_fraction") == 0.0);
    run_free(r);
}

/* KOR Table 2 rows for GPT-3 with t = 8 (Table 3): tensor parallel 10 + 3 + 10; with
 * sequence parallelism 114/8; selective 13 and 34/8; full 2, and 2/8 with sequence
 * parallelism, where the layer input is split along the sequence (MEG). */
static void table_2_rows_for_gpt3_on_eight_gpus(void **state)
{
    (void)state;
    static const struct {
        const char *flags;
        double per_sbh;
    } rows[] = {
        {"", 10 + 3 + 10},
        {"--sequence-parallel", 114.0 / 8},
        {"--recompute selective", 10 + 3},
        {"--sequence-parallel --recompute selective", 34.0 / 8},
        {"--recompute full", 2},
        {"--sequence-parallel --recompute full", 2.0 / 8},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        run *r = chalk("activation-memory --model gpt3-175b --seq 2048 --microbatch 1 "
                       "--tensor-parallel 8 %s --json",
                       rows[i].flags);
        expect_status(r, 0, rows[i].flags);
        assert_close(json_number(r->out, "bytes_per_layer"), 2048.0 * 12288 * rows[i].per_sbh,
                     TIGHT, "B");
        run_free(r);
    }
}

/* KOR Appendix A: full recomputation adds one forward of three, 1/3; selective adds
 * the two s^2 products, s / (18h + 3s) of the step (0.9% for GPT-3). */
static void recomputation_costs_a_third_in_full_and_s_over_18h_plus_3s_selectively(void **state)
{
    (void)state;
    run *r = chalk("activation-memory --model gpt3-175b --seq 2048 --microbatch 1 "
                   "--recompute full --json");
    expect_status(r, 0, "activation-memory");
    assert_close(json_number(r->out, "extra_flops_fraction"), 1.0 / 3, TIGHT, "");
    run_free(r);
    r = chalk("activation-memory --model gpt3-175b --seq 2048 --microbatch 1 "
              "--recompute selective --json");
    expect_status(r, 0, "activation-memory");
    assert_close(json_number(r->out, "extra_flops_fraction"), 2048.0 / (18 * 12288.0 + 3 * 2048),
                 TIGHT, "");
    run_free(r);
}

/* From flags alone (KOR Table 3's 22B: a 64, h 6144, 48 layers); without a layer count
 * bytes_per_model is null with its reason. A sweep of --seq shows the s^2 term. */
static void flags_alone_and_a_sequence_sweep(void **state)
{
    (void)state;
    run *r = chalk("activation-memory --seq 2048 --microbatch 4 --hidden 6144 --heads 64 "
                   "--layers 48 --json");
    expect_status(r, 0, "activation-memory");
    double sbh = 2048.0 * 4 * 6144, per = sbh * (34 + 5.0 * 64 * 2048 / 6144);
    assert_close(json_number(r->out, "bytes_per_layer"), per, TIGHT, "B");
    assert_close(json_number(r->out, "bytes_per_model"), 48 * per, TIGHT, "B");
    run_free(r);
    r = chalk("activation-memory --seq 2048 --microbatch 1 --hidden 6144 --heads 64 --json");
    expect_status(r, 0, "activation-memory");
    assert_true(json_is_null(r->out, "bytes_per_model"));
    assert_false(json_is_null(r->out, "bytes_per_model_reason"));
    run_free(r);
    r = chalk("activation-memory --seq 1024,2048 --microbatch 1 --hidden 4096 --heads 32 --json");
    expect_status(r, 0, "activation-memory");
    assert_close(json_path(r->out, "rows.0.bytes_per_layer"),
                 1024.0 * 4096 * (34 + 5.0 * 32 * 1024 / 4096), TIGHT, "B");
    assert_close(json_path(r->out, "rows.1.bytes_per_layer"),
                 2048.0 * 4096 * (34 + 5.0 * 32 * 2048 / 4096), TIGHT, "B");
    run_free(r);
}

/* Korthikanti section 6.1: without sequence parallelism and selective recomputation
 * none of their models fits in memory. GPT-3 on t = 8, p = 8 A100s (Table 3): model
 * state 16 bytes x 175e9 / 64 (ZeRO; the preset's count is within 0.3% of 175e9), plus
 * 96 layers of 23 sbh, is over 80 GB; with both techniques, 96 x 34/8 sbh, it fits. */
static void gpt3_training_fits_an_a100_only_with_sequence_parallelism_and_selective(void **state)
{
    (void)state;
    const char *setup = "activation-memory --model gpt3-175b --seq 2048 --microbatch 1 "
                        "--tensor-parallel 8 --pipeline-parallel 8 --hw a100-sxm --json";
    double sbh = 2048.0 * 12288;
    run *r = chalk("%s", setup);
    expect_status(r, 0, "activation-memory");
    double model_state = json_number(r->out, "model_state_bytes_per_gpu");
    assert_close(model_state, 16 * 175e9 / 64, 0.003, "B");
    assert_close(json_number(r->out, "total_bytes_per_gpu"), model_state + 96 * sbh * 23, TIGHT,
                 "B");
    assert_close(json_number(r->out, "hbm_bytes"), 80e9, TIGHT, "B");
    assert_non_null(strstr(r->out, "\"fits_hbm\": false"));
    run_free(r);
    r = chalk("%s --sequence-parallel --recompute selective", setup);
    expect_status(r, 0, "activation-memory");
    assert_close(json_number(r->out, "total_bytes_per_gpu"), model_state + 96 * sbh * 34 / 8, TIGHT,
                 "B");
    assert_non_null(strstr(r->out, "\"fits_hbm\": true"));
    run_free(r);
}

/* ---- checkpoint-plan ------------------------------------------------------------------- */

/* With sequence parallelism and selective recomputation GPT-3 at s 2048 keeps 96 x
 * 34/8 sbh, within the 80 GB less the model state (KOR section 6.1): every layer is
 * stored, nothing is recomputed but the attention scores, s / (18h + 3s) of a step. */
static void checkpoint_plan_stores_every_gpt3_layer_when_they_fit(void **state)
{
    (void)state;
    run *r = chalk("checkpoint-plan --model gpt3-175b --seq 2048 --microbatch 1 "
                   "--tensor-parallel 8 --pipeline-parallel 8 --sequence-parallel "
                   "--recompute selective --hw a100-sxm --json");
    expect_status(r, 0, "checkpoint-plan");
    double sbh = 2048.0 * 12288;
    assert_close(json_number(r->out, "stored_layers"), 96, TIGHT, "");
    assert_close(json_number(r->out, "segment_layers"), 0, TIGHT, "");
    assert_close(json_number(r->out, "peak_bytes"), 96 * sbh * 34 / 8, TIGHT, "B");
    assert_close(json_number(r->out, "budget_bytes"),
                 80e9 - json_number(r->out, "model_state_bytes_per_gpu"), TIGHT, "B");
    assert_close(json_number(r->out, "extra_flops_fraction"), 2048.0 / (18 * 12288.0 + 3 * 2048),
                 TIGHT, "");
    run_free(r);
}

/* Section 6.8's model, peak = segments c + a max(stored, segment), with a = 114/8 sbh
 * (KOR eq. 4) and c = 2/8 sbh (MEG): an HBM of the model state plus 96 c + a leaves
 * room for one layer stored and 95 recomputed one by one, 95 c + a (two stored need at
 * least 47 c + 2 a). 95 of 96 layers recomputed: 95/288 of a step. Half that HBM: no
 * plan, null with its reason. */
static void checkpoint_plan_recomputes_all_but_one_layer_at_a_tight_budget(void **state)
{
    (void)state;
    const char *setup = "checkpoint-plan --model gpt3-175b --seq 2048 --microbatch 1 "
                        "--tensor-parallel 8 --pipeline-parallel 8 --sequence-parallel";
    double sbh = 2048.0 * 12288, a = sbh * 114 / 8, c = sbh * 2 / 8;
    run *r = chalk("%s --hw a100-sxm --json", setup);
    expect_status(r, 0, "checkpoint-plan");
    double model_state = json_number(r->out, "model_state_bytes_per_gpu");
    run_free(r);
    r = chalk("%s --hbm-bytes %.17g --json", setup, model_state + 96 * c + a);
    expect_status(r, 0, "checkpoint-plan");
    assert_close(json_number(r->out, "stored_layers"), 1, TIGHT, "");
    assert_close(json_number(r->out, "segment_layers"), 1, TIGHT, "");
    assert_close(json_number(r->out, "segments"), 95, TIGHT, "");
    assert_close(json_number(r->out, "peak_bytes"), 95 * c + a, 1e-15, "B");
    assert_close(json_number(r->out, "extra_flops_fraction"), 95.0 / 288, TIGHT, "");
    run_free(r);
    r = chalk("%s --hbm-bytes %.17g --json", setup, model_state + (96 * c + a) / 2);
    expect_status(r, 0, "checkpoint-plan");
    assert_non_null(strstr(r->out, "\"plan_exists\": false"));
    assert_true(json_is_null(r->out, "stored_layers"));
    assert_false(json_is_null(r->out, "stored_layers_reason"));
    run_free(r);
}

/* The anchors of Figure 6.1 (section 6.4): the identity flips 1 bit in 64, an ideal
 * cipher half; and Figure 6.3's errors in units of 2^-24 and 2^-53. */
static void figure_columns_are_the_anchors_and_the_errors_in_roundoffs(void **state)
{
    (void)state;
    run *r = chalk("avalanche-depth --depth 2 --trials 4 --seed 1 --json");
    expect_status(r, 0, "avalanche-depth");
    assert_close(json_number(r->out, "identity_flipped_fraction"), 1.0 / 64, TIGHT, "");
    assert_close(json_number(r->out, "ideal_flipped_fraction"), 0.5, TIGHT, "");
    run_free(r);
    r = chalk("revnet --layers 16 --width 32 --seed 3 --json");
    expect_status(r, 0, "revnet");
    assert_close(json_number(r->out, "reconstruction_error_float_roundoffs"),
                 json_number(r->out, "reconstruction_error_float") / 0x1p-24, TIGHT, "");
    assert_close(json_number(r->out, "reconstruction_error_double_roundoffs"),
                 json_number(r->out, "reconstruction_error_double") / 0x1p-53, TIGHT, "");
    run_free(r);
}

/* ---- bad input --------------------------------------------------------------------------- */

/* Malformed, missing, unknown or out-of-range input: one line, exit 2. */
static void every_bad_input_to_chapter_6_commands_exits_2_with_one_error_line(void **state)
{
    (void)state;
    const char *cases[] = {
        "encrypt --cipher tea --key 0000 --block 0000000000000000",
        "encrypt --cipher tea --key " ZERO_KEY "0 --block 0000000000000000",
        "encrypt --cipher tea --key " ZERO_KEY " --block 00000000000000zz",
        "encrypt --cipher tea --key 0x000000000000000000000000000000 --block 0000000000000000",
        "encrypt --cipher aes --key " ZERO_KEY " --block 0000000000000000",
        "encrypt --cipher mlp --key " ZERO_KEY " --block 0000000000000000",
        "encrypt --key " ZERO_KEY " --block 0000000000000000",
        "encrypt --cipher tea --block 0000000000000000",
        "decrypt --cipher tea --key " ZERO_KEY,
        "encrypt --cipher toy --key " ZERO_KEY " --block 0000000000000000 --rounds 65",
        "encrypt --cipher toy --key " ZERO_KEY " --block 0000000000000000 --rounds 2.5",
        "encrypt --cipher toy --key " ZERO_KEY " --block 0000000000000000 --rounds -1",
        "avalanche --trials 4",
        "avalanche --cipher rot13",
        "avalanche --cipher tea --trials 0",
        "avalanche --cipher tea --trials 1e9",
        "avalanche --cipher tea --seed -1",
        "avalanche --cipher tea --gain 2",
        "avalanche --cipher mlp --gain -1",
        "avalanche-depth --trials 4",
        "avalanche-depth --depth 0",
        "revnet --width 64",
        "revnet --layers 8 --width 63",
        "revnet --layers 8 --width 0",
        "revnet --layers 4096 --width 1024",
        "revnet --layers 8 --dtype bf16",
        "revnet --layers 0",
        "activation-memory --seq 2048 --hidden 12288 --heads 96",
        "activation-memory --microbatch 1 --hidden 12288 --heads 96",
        "activation-memory --seq 2048 --microbatch 1 --heads 96",
        "activation-memory --seq 2048 --microbatch 1 --hidden 12288",
        "activation-memory --model gpt9 --seq 2048 --microbatch 1",
        "activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --recompute some",
        "activation-memory --model gpt3-175b --seq 0 --microbatch 1",
        "activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --tensor-parallel 0",
        "activation-memory --model gpt3-175b --seq 1:2048 --microbatch 1:8",
        "activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --hw tpu9",
        "activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --pipeline-parallel 0",
        "activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --pipeline-parallel 1:8",
        "checkpoint-plan --seq 2048 --microbatch 1 --hidden 12288 --heads 96 --hw a100-sxm",
        "checkpoint-plan --model gpt3-175b --seq 2048 --microbatch 1",
        "checkpoint-plan --model gpt3-175b --seq 2048 --microbatch 1 --hw a100-sxm "
        "--recompute full",
        "checkpoint-plan --model gpt3-175b --seq 2048 --microbatch 1 --hw a100-sxm --layers 200000",
        "checkpoint-plan --model gpt3-175b --seq 2048 --microbatch 1 --hbm-bytes 0",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_one_error_line(r, cases[i]);
        run_free(r);
    }
}

/* A missing input is an error that names the flag to pass. */
static void missing_chapter_6_inputs_are_errors_naming_the_flag(void **state)
{
    (void)state;
    static const struct {
        const char *args, *flag;
    } cases[] = {
        {"encrypt --key " ZERO_KEY " --block 0000000000000000", "--cipher"},
        {"encrypt --cipher tea --block 0000000000000000", "--key"},
        {"decrypt --cipher tea --key " ZERO_KEY, "--block"},
        {"avalanche --trials 4", "--cipher"},
        {"avalanche-depth", "--depth"},
        {"revnet", "--layers"},
        {"activation-memory --microbatch 1 --model gpt3-175b", "--seq"},
        {"activation-memory --seq 1 --model gpt3-175b", "--microbatch"},
        {"activation-memory --seq 1 --microbatch 1 --heads 8", "--hidden"},
        {"checkpoint-plan --seq 2048 --microbatch 1 --hidden 8 --heads 1 --hw a100-sxm",
         "--model"},
        {"checkpoint-plan --model gpt3-175b --seq 2048 --microbatch 1", "--hw"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i].args);
        expect_one_error_line(r, cases[i].args);
        if (!strstr(r->err, cases[i].flag))
            fail_msg("chalk %s: the error does not name %s: %s", cases[i].args, cases[i].flag,
                     r->err);
        run_free(r);
    }
}

const struct CMUnitTest chalk_tests_06_revnets[] = {
    CHALK_TEST(chalk, encrypt_reproduces_the_tea_and_xtea_test_vectors),
    CHALK_TEST(chalk, decrypt_inverts_the_published_ciphertexts),
    CHALK_TEST(chalk, toy_encrypt_is_a_feistel_round_by_hand),
    CHALK_TEST(chalk, tea_and_xtea_flip_half_the_bits),
    CHALK_TEST(chalk, one_toy_round_is_far_from_avalanche_and_sixteen_reach_it),
    CHALK_TEST(chalk, a_one_layer_residual_mlp_is_exactly_one_bit_in_64),
    CHALK_TEST(chalk, zero_rounds_flip_one_bit_in_64),
    CHALK_TEST(chalk, revnet_memory_and_flops_are_the_contract_s_closed_forms),
    CHALK_TEST(chalk, stored_memory_grows_linearly_and_reversible_memory_stays_flat),
    CHALK_TEST(chalk, one_block_reconstructs_to_a_few_roundings_in_either_precision),
    CHALK_TEST(chalk, gpt3_stores_sbh_times_114_bytes_a_layer),
    CHALK_TEST(chalk, table_2_rows_for_gpt3_on_eight_gpus),
    CHALK_TEST(chalk, recomputation_costs_a_third_in_full_and_s_over_18h_plus_3s_selectively),
    CHALK_TEST(chalk, flags_alone_and_a_sequence_sweep),
    CHALK_TEST(chalk, gpt3_training_fits_an_a100_only_with_sequence_parallelism_and_selective),
    CHALK_TEST(chalk, checkpoint_plan_stores_every_gpt3_layer_when_they_fit),
    CHALK_TEST(chalk, checkpoint_plan_recomputes_all_but_one_layer_at_a_tight_budget),
    CHALK_TEST(chalk, figure_columns_are_the_anchors_and_the_errors_in_roundoffs),
    CHALK_TEST(chalk, every_bad_input_to_chapter_6_commands_exits_2_with_one_error_line),
    CHALK_TEST(chalk, missing_chapter_6_inputs_are_errors_naming_the_flag),
};
const size_t chalk_tests_06_revnets_count =
    sizeof chalk_tests_06_revnets / sizeof chalk_tests_06_revnets[0];
