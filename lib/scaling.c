/*
 * scaling.c -- scaling-law fits and published training runs, each number with its
 * source on its line. Checked in tests/lib/test_scaling.c.
 *
 * Sources:
 *   [CHIN] Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models",
 *          arXiv:2203.15556.
 *   [BES]  Besiroglu, Erdil, Barnett, You 2024, "Chinchilla Scaling: A replication
 *          attempt", arXiv:2404.10102, Table 1; their code (Epoch AI,
 *          epochai.org/code/analyzing-chinchilla-repo) holds [CHIN]'s constants
 *          both ways: `true_params_rounded` as printed, `true_params` from the TeX.
 *   [DV]   H. de Vries 2023, "Go smol or go home" (harmdevries.com/post/
 *          model-size-vs-compute-overhead), as coded in the Harm's-law app that
 *          follows it (huggingface.co/spaces/lvwerra/harms-law, app.py, read 2026-11).
 */
#include "scaling.h"

#include "base.h"

/* ---- fits ------------------------------------------------------------------- */

/* The constants as printed in [CHIN] (and as most later work quotes them). */
static const cost_scaling_fit F_HOFFMANN = {
    .name = "hoffmann",
    .title = "Hoffmann et al. 2022, as printed",
    .irreducible = 1.69,   /* E     [CHIN], printed; [BES] true_params_rounded */
    .a_params = 406.4,     /* A     [CHIN], printed */
    .alpha_params = 0.34,  /* alpha [CHIN], printed */
    .a_tokens = 410.7,     /* B     [CHIN], printed */
    .alpha_tokens = 0.28,  /* beta  [CHIN], printed */
    .source = "Hoffmann et al. 2022 (arXiv:2203.15556), Approach 3 as printed: "
              "E 1.69, A 406.4, B 410.7, alpha 0.34, beta 0.28",
};

/* The same fit before rounding: [CHIN]'s arXiv TeX source keeps the optimiser's
 * output in a comment as natural logs of E, A, B (loss_offset 0.5267228,
 * param_offset 6.0073404, token_offset 6.0179186) and the two slopes; [BES] Table 1
 * quotes them as E 1.6934, alpha 0.3392, beta 0.2849 and its code as
 * true_params = [6.0073404, 6.0179186, 0.5267228, 0.33917084, 0.2849083]. The
 * values below are the exponentials, to 17 digits. */
static const cost_scaling_fit F_HOFFMANN_UNROUNDED = {
    .name = "hoffmann-unrounded",
    .title = "Hoffmann et al. 2022, unrounded",
    .irreducible = 1.6933736809989528,  /* E = e^0.5267228     [CHIN] TeX via [BES] */
    .a_params = 406.4010175194737,      /* A = e^6.0073404     [CHIN] TeX via [BES] */
    .alpha_params = 0.33917084,         /* alpha               [CHIN] TeX via [BES] */
    .a_tokens = 410.7228269450398,      /* B = e^6.0179186     [CHIN] TeX via [BES] */
    .alpha_tokens = 0.2849083,          /* beta                [CHIN] TeX via [BES] */
    .source = "Hoffmann et al. 2022 (arXiv:2203.15556), Approach 3 from the TeX "
              "source, as quoted by Besiroglu et al. 2024 (Table 1 and code): "
              "E 1.6934, A 406.4, B 410.7, alpha 0.33917, beta 0.28491",
};

/* [BES]'s refit of Approach 3 on data read off [CHIN]'s Figure 4, Table 1
 * (standard errors: E 0.03, A 124.58, B 1293.23, alpha 0.02, beta 0.02). */
static const cost_scaling_fit F_BESIROGLU = {
    .name = "besiroglu",
    .title = "Besiroglu et al. 2024 refit",
    .irreducible = 1.8172,  /* E     [BES] Table 1 */
    .a_params = 482.01,     /* A     [BES] Table 1 */
    .alpha_params = 0.3478, /* alpha [BES] Table 1 */
    .a_tokens = 2085.43,    /* B     [BES] Table 1 */
    .alpha_tokens = 0.3658, /* beta  [BES] Table 1 */
    .source = "Besiroglu et al. 2024 (arXiv:2404.10102) Table 1: "
              "E 1.8172, A 482.01, B 2085.43, alpha 0.3478, beta 0.3658",
};

/* [DV]'s constants: [CHIN]'s printed A and B with exponents 0.336 and 0.283 (and E
 * 1.62), as the Harm's-law app codes them. With them the inference-optimal method
 * reproduces Sardana et al. 2024's Figure 1 (7B, 1.7e22 FLOPs, 17%) to every digit
 * it prints, which the other fits do not (chapter 4, the Sardana reality check). */
static const cost_scaling_fit F_DEVRIES = {
    .name = "devries",
    .title = "de Vries 2023's exponents",
    .irreducible = 1.62,    /* E     [DV] app.py */
    .a_params = 406.4,      /* A     [DV] app.py ([CHIN] printed) */
    .alpha_params = 0.336,  /* alpha [DV] app.py */
    .a_tokens = 410.7,      /* B     [DV] app.py ([CHIN] printed) */
    .alpha_tokens = 0.283,  /* beta  [DV] app.py */
    .source = "de Vries 2023 (harmdevries.com, \"Go smol or go home\"), as coded in the "
              "Harm's-law app (huggingface.co/spaces/lvwerra/harms-law): "
              "E 1.62, A 406.4, B 410.7, alpha 0.336, beta 0.283",
};

/* The refit comes first: it is the calculator's default, being the one consistent
 * with Hoffmann's other two approaches and with Chinchilla's own 20 tokens per
 * parameter. */
static const cost_scaling_fit *const FITS[] = {
    &F_BESIROGLU,
    &F_HOFFMANN,
    &F_HOFFMANN_UNROUNDED,
    &F_DEVRIES,
};

const cost_scaling_fit *const *cost_scaling_fits(size_t *count)
{
    *count = sizeof FITS / sizeof FITS[0];
    return FITS;
}

const cost_scaling_fit *cost_scaling_fit_find(const char *name)
{
    size_t n;
    const cost_scaling_fit *const *all = cost_scaling_fits(&n);
    for (size_t i = 0; i < n; i++)
        if (cost_name_equal(all[i]->name, name))
            return all[i];
    return NULL;
}

/* ---- training runs -------------------------------------------------------------- */

static const cost_training_run R_GPT3_175B = {
    .name = "gpt3-175b",
    .title = "GPT-3 175B",
    .params_active = 175e9, /* [CHIN] Table 1; Brown et al. 2020 */
    .params_total = 175e9,  /* dense */
    .tokens = 300e9,        /* [CHIN] Table 1: 300 billion training tokens */
    .source = "Hoffmann et al. 2022 Table 1 (Brown et al. 2020, arXiv:2005.14165)",
};

static const cost_training_run R_GOPHER_280B = {
    .name = "gopher-280b",
    .title = "Gopher 280B",
    .params_active = 280e9, /* [CHIN] Table 1 */
    .params_total = 280e9,  /* dense */
    .tokens = 300e9,        /* [CHIN] Table 1 */
    .source = "Hoffmann et al. 2022 Table 1 (Rae et al. 2021, arXiv:2112.11446)",
};

static const cost_training_run R_CHINCHILLA_70B = {
    .name = "chinchilla-70b",
    .title = "Chinchilla 70B",
    .params_active = 70e9, /* [CHIN] Table 1 */
    .params_total = 70e9,  /* dense */
    .tokens = 1.4e12,      /* [CHIN] Table 1: 1.4 trillion tokens */
    .source = "Hoffmann et al. 2022 (arXiv:2203.15556) Table 1",
};

static const cost_training_run R_LLAMA3_8B = {
    .name = "llama3-8b",
    .title = "Llama 3 8B",
    .params_active = 8.03e9, /* Meta model card; lib/model.c derives it from config.json */
    .params_total = 8.03e9,  /* dense */
    .tokens = 15e12,         /* Meta model card: "over 15T tokens" */
    .source = "meta-llama/Meta-Llama-3-8B model card (8.03B parameters, 15T+ tokens)",
};

static const cost_training_run R_LLAMA3_70B = {
    .name = "llama3-70b",
    .title = "Llama 3 70B",
    .params_active = 70.6e9, /* Meta model card; lib/model.c derives it from config.json */
    .params_total = 70.6e9,  /* dense */
    .tokens = 15e12,         /* Meta model card: "over 15T tokens" */
    .source = "meta-llama/Meta-Llama-3-70B model card (70.6B parameters, 15T+ tokens)",
};

static const cost_training_run R_LLAMA3_405B = {
    .name = "llama3-405b",
    .title = "Llama 3.1 405B",
    .params_active = 405e9, /* Llama 3 paper (arXiv:2407.21783): 405B, dense */
    .params_total = 405e9,  /* dense */
    .tokens = 15.6e12,      /* Llama 3 paper: pre-trained on 15.6T text tokens */
    .source = "Llama Team 2024, The Llama 3 Herd of Models (arXiv:2407.21783)",
};

static const cost_training_run R_DEEPSEEK_V3 = {
    .name = "deepseek-v3",
    .title = "DeepSeek-V3",
    .params_active = 37e9, /* DeepSeek-V3 README: 37B activated per token */
    .params_total = 671e9, /* DeepSeek-V3 README: 671B total */
    .tokens = 14.8e12,     /* DeepSeek-V3 README: pre-trained on 14.8T tokens */
    .source = "DeepSeek-AI 2024, DeepSeek-V3 Technical Report (arXiv:2412.19437) and README",
};

static const cost_training_run *const RUNS[] = {
    &R_GPT3_175B, &R_GOPHER_280B, &R_CHINCHILLA_70B, &R_LLAMA3_8B,
    &R_LLAMA3_70B, &R_LLAMA3_405B, &R_DEEPSEEK_V3,
};

const cost_training_run *const *cost_training_runs(size_t *count)
{
    *count = sizeof RUNS / sizeof RUNS[0];
    return RUNS;
}

const cost_training_run *cost_training_run_find(const char *name)
{
    size_t n;
    const cost_training_run *const *all = cost_training_runs(&n);
    for (size_t i = 0; i < n; i++)
        if (cost_name_equal(all[i]->name, name))
            return all[i];
    return NULL;
}
