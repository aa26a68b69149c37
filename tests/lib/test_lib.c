/*
 * test_lib.c -- tests of the shared cost library (lib/): presets, shape arithmetic,
 * the roofline primitive and the numeric helpers. These hold the presets to the
 * published figures named beside each test.
 */
#include "../test_util.h"

#include <string.h>

#include "cost.h"

#define PUBLISHED 0.02 /* model totals from shapes vs the paper's rounded figure */

static const cost_model *model(const char *name)
{
    const cost_model *m = cost_model_find(name);
    assert_non_null(m);
    return m;
}

static const cost_hw *hw(const char *name)
{
    const cost_hw *h = cost_hw_find(name);
    assert_non_null(h);
    return h;
}

/* ---- models --------------------------------------------------------------- */

/* Meta's model card: 70.6e9 parameters (scaling book derives 70.4e9). */
static void llama3_70b_has_70_6e9_parameters(void **state)
{
    (void)state;
    assert_close(cost_model_params_total(model("llama3-70b")), 70.6e9, PUBLISHED, "params");
    assert_close(cost_model_sparsity(model("llama3-70b")), 1.0, 1e-12, "");
}

/* Meta's model cards: 8.03e9 and 405.9e9 parameters. */
static void llama3_8b_and_405b_match_their_model_cards(void **state)
{
    (void)state;
    assert_close(cost_model_params_total(model("llama3-8b")), 8.03e9, PUBLISHED, "params");
    assert_close(cost_model_params_total(model("llama3-405b")), 405.9e9, PUBLISHED,
                 "params");
}

/* Mistral: 46.7e9 total, 12.9e9 active parameters. */
static void mixtral_has_46_7e9_total_and_12_9e9_active(void **state)
{
    (void)state;
    assert_close(cost_model_params_total(model("mixtral-8x7b")), 46.7e9, PUBLISHED, "params");
    assert_close(cost_model_params_active(model("mixtral-8x7b")), 12.9e9, PUBLISHED,
                 "params");
}

/* DeepSeek-V3 README: 671e9 total, 37e9 activated per token. */
static void deepseek_v3_has_671e9_total_and_37e9_active(void **state)
{
    (void)state;
    assert_close(cost_model_params_total(model("deepseek-v3")), 671e9, PUBLISHED, "params");
    assert_close(cost_model_params_active(model("deepseek-v3")), 37e9, PUBLISHED, "params");
}

/* Brown et al. 2020: 175e9; Chowdhery et al. 2022: 540e9. */
static void gpt3_and_palm_match_their_papers(void **state)
{
    (void)state;
    assert_close(cost_model_params_total(model("gpt3-175b")), 175e9, PUBLISHED, "params");
    assert_close(cost_model_params_total(model("palm-540b")), 540e9, PUBLISHED, "params");
}

/* Closed form for a GELU transformer: 12 L d^2 + 2 L d (norms) + d + V d (two
 * embeddings, untied). Hoffmann et al. name the model 70B; its shapes give less. */
static void chinchilla_follows_the_12_l_d_squared_rule(void **state)
{
    (void)state;
    double L = 80, d = 8192, V = 32000;
    double expected = 12 * L * d * d + 2 * L * d + d + 2 * V * d;
    assert_close(cost_model_params_total(model("chinchilla-70b")), expected, 1e-12, "params");
}

/* 2 FLOPs per multiply-accumulate, one MAC per active weight. */
static void flops_per_token_is_twice_the_active_parameters(void **state)
{
    (void)state;
    const cost_model *m = model("deepseek-v3");
    assert_close(cost_model_flops_per_token(m), 2 * cost_model_params_active(m), 1e-12,
                 "FLOPs");
}

/* config.json: K and V x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 in bf16;
 * the scaling book's int8 figure is 160 kB. */
static void llama3_70b_caches_320_kib_per_token_in_bf16(void **state)
{
    (void)state;
    assert_close(cost_model_kv_bytes_per_token(model("llama3-70b"), COST_BF16),
                 2.0 * 80 * 8 * 128 * 2, 1e-12, "bytes");
    assert_close(cost_model_kv_bytes_per_token(model("llama3-70b"), COST_INT8), 163840,
                 1e-12, "bytes");
}

/* DeepSeek-V3 MLA caches a 512 latent + 64 RoPE key per layer: 61 x 576 x 2 bytes. */
static void deepseek_v3_mla_caches_70272_bytes_per_token_in_bf16(void **state)
{
    (void)state;
    assert_close(cost_model_kv_bytes_per_token(model("deepseek-v3"), COST_BF16), 70272,
                 1e-12, "bytes");
}

/* PaLM's multi-query attention: one K/V head of 256: 2 x 118 x 256 x 2 = 120,832. */
static void palm_multi_query_caches_one_head_per_layer(void **state)
{
    (void)state;
    assert_close(cost_model_kv_bytes_per_token(model("palm-540b"), COST_BF16), 120832,
                 1e-12, "bytes");
}

/* ---- hardware ------------------------------------------------------------- */

/* Scaling book gpus.md: H100 critical intensity 990e12 / 3.35e12 ~ 295 FLOPs/byte. */
static void h100_ridge_point_is_about_295_flops_per_byte(void **state)
{
    (void)state;
    const cost_hw *h = hw("H100-SXM");
    double ridge = cost_ridge_flops_per_byte(cost_hw_peak_flops_per_s(h, COST_BF16),
                                             h->hbm_bytes_per_s);
    assert_close(ridge, 295, 0.005, "FLOPs/byte");
}

/* NVIDIA: NVLink is quoted bidirectional; presets hold one direction (450 GB/s). */
static void nvlink_figures_are_one_direction(void **state)
{
    (void)state;
    assert_close(hw("h100-sxm")->scaleup_bytes_per_s, 900e9 / 2, 1e-12, "B/s");
    assert_close(hw("gb200-nvl72")->scaleup_bytes_per_s, 1.8e12 / 2, 1e-12, "B/s");
}

/* NVIDIA: the NVL72 rack is one 72-GPU scale-up domain; its 720 PF dense fp4 and
 * 576 TB/s are spread over the 72 GPUs. */
static void nvl72_is_one_72_gpu_domain(void **state)
{
    (void)state;
    const cost_hw *h = hw("gb200-nvl72");
    assert_int_equal(h->scaleup_domain_chips, 72);
    assert_close(72 * cost_hw_peak_flops_per_s(h, COST_FP4), 720e15, 1e-12, "FLOP/s");
    assert_close(72 * h->hbm_bytes_per_s, 576e12, 1e-12, "B/s");
}

/* Hopper has no fp4 units and TPU v5e no fp8 (datasheets). */
static void chips_without_a_precision_say_so(void **state)
{
    (void)state;
    assert_false(cost_hw_supports(hw("h100-sxm"), COST_FP4));
    assert_false(cost_hw_supports(hw("tpu-v5e"), COST_FP8));
    assert_true(cost_hw_supports(hw("b200"), COST_FP4));
}

/* Every preset is complete: positive bandwidths and capacity, a source, a domain. */
static void every_hardware_preset_has_its_core_numbers_and_a_source(void **state)
{
    (void)state;
    size_t n;
    const cost_hw *const *all = cost_hw_presets(&n);
    assert_true(n >= 9);
    for (size_t i = 0; i < n; i++) {
        assert_true(all[i]->hbm_bytes > 0 && all[i]->hbm_bytes_per_s > 0);
        assert_true(all[i]->scaleup_domain_chips >= 1);
        assert_non_null(all[i]->source);
        assert_true(!cost_hw_has_price(all[i]) || all[i]->price_source != NULL);
    }
}

/* Lecture §1.6 rule of thumb: HBM drains in ~20 ms (Rubin 288 GB / 20 TB/s = 14.4). */
static void hbm_drain_time_is_capacity_over_bandwidth(void **state)
{
    (void)state;
    assert_close(cost_hw_hbm_drain_s(hw("b200")), 192e9 / 8e12, 1e-12, "s");
}

static void unknown_names_find_nothing(void **state)
{
    (void)state;
    assert_null(cost_hw_find("h1000"));
    assert_null(cost_model_find("llama-9"));
    cost_dtype d = COST_FP8;
    assert_false(cost_dtype_parse("fp16", &d));
    assert_int_equal(d, COST_FP8);
    assert_true(cost_dtype_parse("FP4", &d));
    assert_int_equal(d, COST_FP4);
}

/* ---- roofline and numerics ------------------------------------------------- */

/* Definition: time = max(FLOPs / peak, bytes / BW). A 4096^3 matmul in bf16 on H100:
 * 2 x 4096^3 FLOPs, 3 x 4096^2 x 2 bytes. */
static void roofline_takes_the_slower_engine(void **state)
{
    (void)state;
    double flops = 2.0 * 4096 * 4096 * 4096, bytes = 3.0 * 4096 * 4096 * 2;
    assert_close(cost_roofline_s(flops, 989e12, bytes, 3.35e12), flops / 989e12, 1e-12, "s");
    assert_close(cost_roofline_s(1e6, 989e12, bytes, 3.35e12), bytes / 3.35e12, 1e-12, "s");
    assert_int_equal(cost_bound_of(2.0, 1.0), COST_BOUND_COMPUTE);
    assert_int_equal(cost_bound_of(1.0, 2.0), COST_BOUND_MEMORY);
}

static double square_minus_two(double x, const void *ctx)
{
    (void)ctx;
    return x * x - 2.0;
}

static bool square_at_most_1000(long n, const void *ctx)
{
    (void)ctx;
    return n * n <= 1000;
}

/* sqrt(2) and floor(sqrt(1000)) = 31. */
static void bisection_and_integer_search_find_known_roots(void **state)
{
    (void)state;
    double r = 0;
    assert_true(cost_bisect(square_minus_two, NULL, 0, 2, 1e-12, &r));
    assert_close(r, sqrt(2.0), 1e-11, "");
    assert_false(cost_bisect(square_minus_two, NULL, 2, 3, 1e-12, &r));
    assert_int_equal(cost_last_true(square_at_most_1000, NULL, 1, 1000000), 31);
    assert_int_equal(cost_last_true(square_at_most_1000, NULL, 40, 50), 39);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        CHALK_TEST(models, llama3_70b_has_70_6e9_parameters),
        CHALK_TEST(models, llama3_8b_and_405b_match_their_model_cards),
        CHALK_TEST(models, mixtral_has_46_7e9_total_and_12_9e9_active),
        CHALK_TEST(models, deepseek_v3_has_671e9_total_and_37e9_active),
        CHALK_TEST(models, gpt3_and_palm_match_their_papers),
        CHALK_TEST(models, chinchilla_follows_the_12_l_d_squared_rule),
        CHALK_TEST(models, flops_per_token_is_twice_the_active_parameters),
        CHALK_TEST(models, llama3_70b_caches_320_kib_per_token_in_bf16),
        CHALK_TEST(models, deepseek_v3_mla_caches_70272_bytes_per_token_in_bf16),
        CHALK_TEST(models, palm_multi_query_caches_one_head_per_layer),
        CHALK_TEST(hardware, h100_ridge_point_is_about_295_flops_per_byte),
        CHALK_TEST(hardware, nvlink_figures_are_one_direction),
        CHALK_TEST(hardware, nvl72_is_one_72_gpu_domain),
        CHALK_TEST(hardware, chips_without_a_precision_say_so),
        CHALK_TEST(hardware, every_hardware_preset_has_its_core_numbers_and_a_source),
        CHALK_TEST(hardware, hbm_drain_time_is_capacity_over_bandwidth),
        CHALK_TEST(hardware, unknown_names_find_nothing),
        CHALK_TEST(roofline, roofline_takes_the_slower_engine),
        CHALK_TEST(roofline, bisection_and_integer_search_find_known_roots),
    };
    return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
