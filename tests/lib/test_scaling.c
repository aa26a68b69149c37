/*
 * test_scaling.c -- tests of lib/scaling: the scaling-law fits and the published
 * training runs hold the numbers of the sources named beside each test.
 */
#include "../test_util.h"

#include <string.h>

#include "cost.h"

#define EXACT 1e-12

static const cost_scaling_fit *fit(const char *name)
{
    const cost_scaling_fit *f = cost_scaling_fit_find(name);
    assert_non_null(f);
    return f;
}

static const cost_training_run *run(const char *name)
{
    const cost_training_run *r = cost_training_run_find(name);
    assert_non_null(r);
    return r;
}

/* Hoffmann et al. 2022 as printed: E 1.69, A 406.4, B 410.7, alpha 0.34, beta 0.28. */
static void hoffmann_fit_holds_the_printed_constants(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann");
    assert_close(f->irreducible, 1.69, EXACT, "nats");
    assert_close(f->a_params, 406.4, EXACT, "");
    assert_close(f->alpha_params, 0.34, EXACT, "");
    assert_close(f->a_tokens, 410.7, EXACT, "");
    assert_close(f->alpha_tokens, 0.28, EXACT, "");
}

/* Hoffmann's TeX source (via Besiroglu et al.'s code): E, A, B are e^0.5267228,
 * e^6.0073404, e^6.0179186; the slopes 0.33917084 and 0.2849083. */
static void unrounded_fit_is_the_exponential_of_the_tex_offsets(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    assert_close(f->irreducible, exp(0.5267228), 1e-15, "nats");
    assert_close(f->a_params, exp(6.0073404), 1e-15, "");
    assert_close(f->a_tokens, exp(6.0179186), 1e-15, "");
    assert_close(f->alpha_params, 0.33917084, EXACT, "");
    assert_close(f->alpha_tokens, 0.2849083, EXACT, "");
}

/* Besiroglu et al. 2024 Table 1 quotes the unrounded fit to four digits:
 * E 1.6934, alpha 0.3392, beta 0.2849; and A, B round to the printed 406.4, 410.7. */
static void unrounded_fit_rounds_to_besiroglus_quotation_and_to_the_print(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("hoffmann-unrounded");
    assert_close(round(f->irreducible * 1e4) / 1e4, 1.6934, EXACT, "nats");
    assert_close(round(f->alpha_params * 1e4) / 1e4, 0.3392, EXACT, "");
    assert_close(round(f->alpha_tokens * 1e4) / 1e4, 0.2849, EXACT, "");
    assert_close(round(f->a_params * 10) / 10, 406.4, EXACT, "");
    assert_close(round(f->a_tokens * 10) / 10, 410.7, EXACT, "");
    assert_close(round(f->irreducible * 100) / 100, fit("hoffmann")->irreducible, EXACT, "");
}

/* Besiroglu et al. 2024 Table 1: E 1.8172, A 482.01, B 2085.43, alpha 0.3478,
 * beta 0.3658. */
static void besiroglu_fit_holds_table_1(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("besiroglu");
    assert_close(f->irreducible, 1.8172, EXACT, "nats");
    assert_close(f->a_params, 482.01, EXACT, "");
    assert_close(f->alpha_params, 0.3478, EXACT, "");
    assert_close(f->a_tokens, 2085.43, EXACT, "");
    assert_close(f->alpha_tokens, 0.3658, EXACT, "");
}

/* De Vries 2023 as coded in the Harm's-law app (huggingface.co/spaces/lvwerra/
 * harms-law, app.py): E 1.62, A 406.4, B 410.7, alpha 0.336, beta 0.283. */
static void devries_fit_holds_the_harms_law_apps_constants(void **state)
{
    (void)state;
    const cost_scaling_fit *f = fit("devries");
    assert_close(f->irreducible, 1.62, EXACT, "nats");
    assert_close(f->a_params, 406.4, EXACT, "");
    assert_close(f->alpha_params, 0.336, EXACT, "");
    assert_close(f->a_tokens, 410.7, EXACT, "");
    assert_close(f->alpha_tokens, 0.283, EXACT, "");
}

/* Lookup is by name, ignoring case; an unknown name has no fit. The first fit, the
 * calculator's default, is Besiroglu et al.'s refit. */
static void fits_are_found_by_name_and_listed_in_order(void **state)
{
    (void)state;
    size_t n;
    const cost_scaling_fit *const *all = cost_scaling_fits(&n);
    assert_int_equal(n, 4);
    assert_string_equal(all[0]->name, "besiroglu");
    assert_ptr_equal(cost_scaling_fit_find("BESIROGLU"), fit("besiroglu"));
    assert_null(cost_scaling_fit_find("kaplan"));
    for (size_t i = 0; i < n; i++) {
        assert_non_null(all[i]->source);
        assert_true(all[i]->alpha_params > 0 && all[i]->alpha_tokens > 0);
    }
}

/* Hoffmann et al. 2022 Table 1: Chinchilla 70B on 1.4T tokens, Gopher 280B and
 * GPT-3 175B on 300B each. */
static void chinchilla_gopher_and_gpt3_runs_match_hoffmann_table_1(void **state)
{
    (void)state;
    assert_close(run("chinchilla-70b")->params_active, 70e9, EXACT, "params");
    assert_close(run("chinchilla-70b")->tokens, 1.4e12, EXACT, "tokens");
    assert_close(run("gopher-280b")->tokens, 300e9, EXACT, "tokens");
    assert_close(run("gpt3-175b")->tokens, 300e9, EXACT, "tokens");
}

/* Meta's model cards (15T+ tokens) and DeepSeek-V3's README (14.8T tokens; 37B of
 * 671B parameters active). */
static void llama3_and_deepseek_runs_match_their_model_cards(void **state)
{
    (void)state;
    assert_close(run("llama3-8b")->tokens, 15e12, EXACT, "tokens");
    assert_close(run("llama3-70b")->tokens, 15e12, EXACT, "tokens");
    assert_close(run("llama3-405b")->tokens, 15.6e12, EXACT, "tokens");
    assert_close(run("deepseek-v3")->tokens, 14.8e12, EXACT, "tokens");
    assert_close(run("deepseek-v3")->params_active, 37e9, EXACT, "params");
    assert_close(run("deepseek-v3")->params_total, 671e9, EXACT, "params");
}

/* A run that shares a name with a model preset has the parameter counts the preset's
 * shape gives (lib/model.c), within the 2% of a rounded published figure. */
static void runs_agree_with_the_model_presets_of_the_same_name(void **state)
{
    (void)state;
    size_t n, checked = 0;
    const cost_training_run *const *all = cost_training_runs(&n);
    for (size_t i = 0; i < n; i++) {
        const cost_model *m = cost_model_find(all[i]->name);
        if (!m || strcmp(all[i]->name, "chinchilla-70b") == 0)
            continue; /* Chinchilla's printed shape gives 64.7e9 (lib/model.c) */
        assert_close(all[i]->params_active, cost_model_params_active(m), 0.02, "params");
        assert_close(all[i]->params_total, cost_model_params_total(m), 0.02, "params");
        checked++;
    }
    assert_int_equal(checked, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hoffmann_fit_holds_the_printed_constants),
        cmocka_unit_test(unrounded_fit_is_the_exponential_of_the_tex_offsets),
        cmocka_unit_test(unrounded_fit_rounds_to_besiroglus_quotation_and_to_the_print),
        cmocka_unit_test(besiroglu_fit_holds_table_1),
        cmocka_unit_test(devries_fit_holds_the_harms_law_apps_constants),
        cmocka_unit_test(fits_are_found_by_name_and_listed_in_order),
        cmocka_unit_test(chinchilla_gopher_and_gpt3_runs_match_hoffmann_table_1),
        cmocka_unit_test(llama3_and_deepseek_runs_match_their_model_cards),
        cmocka_unit_test(runs_agree_with_the_model_presets_of_the_same_name),
    };
    return cmocka_run_group_tests_name("lib/scaling", tests, NULL, NULL);
}
