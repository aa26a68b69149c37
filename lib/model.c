/*
 * model.c -- model presets from their published shapes, and the shape arithmetic.
 *
 * Published totals the presets reproduce (checked in tests/lib/test_lib.c):
 * Llama 3 70B ~70.6e9, Mixtral 8x7B 46.7e9 total / 12.9e9 active,
 * DeepSeek-V3 671e9 total / 37e9 active, GPT-3 175e9, PaLM 540e9.
 */
#include "model.h"

static const cost_model M_LLAMA3_8B = {
    .name = "llama3-8b",
    .title = "Llama 3 8B",
    .source = "meta-llama/Meta-Llama-3-8B config.json",
    .layers = 32, .d_model = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
    .vocab = 128256, .attn = COST_ATTN_GQA, .mlp = COST_MLP_SWIGLU, .d_ff = 14336,
    .dtype = COST_BF16,
};

static const cost_model M_LLAMA3_70B = {
    .name = "llama3-70b",
    .title = "Llama 3 70B",
    .source = "meta-llama/Meta-Llama-3-70B config.json",
    .layers = 80, .d_model = 8192, .heads = 64, .kv_heads = 8, .head_dim = 128,
    .vocab = 128256, .attn = COST_ATTN_GQA, .mlp = COST_MLP_SWIGLU, .d_ff = 28672,
    .dtype = COST_BF16,
};

/* The model of MLPerf Inference's llama2-70b benchmark: Llama 3 70B's shape with a
 * 32,000-token vocabulary. */
static const cost_model M_LLAMA2_70B = {
    .name = "llama2-70b",
    .title = "Llama 2 70B",
    .source = "meta-llama/Llama-2-70b-hf config.json",
    .layers = 80, .d_model = 8192, .heads = 64, .kv_heads = 8, .head_dim = 128,
    .vocab = 32000, .attn = COST_ATTN_GQA, .mlp = COST_MLP_SWIGLU, .d_ff = 28672,
    .dtype = COST_BF16,
};

static const cost_model M_LLAMA3_405B = {
    .name = "llama3-405b",
    .title = "Llama 3.1 405B",
    .source = "meta-llama/Llama-3.1-405B config.json",
    .layers = 126, .d_model = 16384, .heads = 128, .kv_heads = 8, .head_dim = 128,
    .vocab = 128256, .attn = COST_ATTN_GQA, .mlp = COST_MLP_SWIGLU, .d_ff = 53248,
    .dtype = COST_BF16,
};

static const cost_model M_MIXTRAL_8X7B = {
    .name = "mixtral-8x7b",
    .title = "Mixtral 8x7B",
    .source = "mistralai/Mixtral-8x7B-v0.1 config.json",
    .layers = 32, .d_model = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
    .vocab = 32000, .attn = COST_ATTN_GQA, .mlp = COST_MLP_SWIGLU,
    .experts_routed = 8, .experts_active = 2, .d_ff_expert = 14336,
    .dtype = COST_BF16,
};

static const cost_model M_DEEPSEEK_V3 = {
    .name = "deepseek-v3",
    .title = "DeepSeek-V3",
    .source = "deepseek-ai/DeepSeek-V3 inference/configs/config_671B.json",
    .layers = 61, .d_model = 7168, .heads = 128, .head_dim = 128, .vocab = 129280,
    .attn = COST_ATTN_MLA, .q_lora_rank = 1536, .kv_lora_rank = 512,
    .rope_head_dim = 64, .v_head_dim = 128,
    .mlp = COST_MLP_SWIGLU, .d_ff = 18432, .dense_layers = 3,
    .experts_routed = 256, .experts_shared = 1, .experts_active = 8,
    .d_ff_expert = 2048,
    .dtype = COST_FP8, /* config "dtype": "fp8" */
};

static const cost_model M_GPT3_175B = {
    .name = "gpt3-175b",
    .title = "GPT-3 175B",
    .source = "Brown et al. 2020 (arXiv:2005.14165) Table 2.1",
    .layers = 96, .d_model = 12288, .heads = 96, .kv_heads = 96, .head_dim = 128,
    .vocab = 50257, .tied_embeddings = true,
    .attn = COST_ATTN_GQA, .mlp = COST_MLP_GELU, .d_ff = 4 * 12288,
    .dtype = COST_BF16,
};

static const cost_model M_PALM_540B = {
    .name = "palm-540b",
    .title = "PaLM 540B",
    .source = "Chowdhery et al. 2022 (arXiv:2204.02311) Table 1, multi-query",
    .layers = 118, .d_model = 18432, .heads = 48, .kv_heads = 1, .head_dim = 256,
    .vocab = 256000, .tied_embeddings = true,
    .attn = COST_ATTN_GQA, .mlp = COST_MLP_SWIGLU, .d_ff = 4 * 18432,
    .dtype = COST_BF16,
};

/* The paper's shapes give ~64.7e9 parameters by this count, though the model is
 * named 70B; Gopher's shapes fall short of its "280B" by the same ~8%. */
static const cost_model M_CHINCHILLA_70B = {
    .name = "chinchilla-70b",
    .title = "Chinchilla 70B",
    .source = "Hoffmann et al. 2022 (arXiv:2203.15556) Table 4",
    .layers = 80, .d_model = 8192, .heads = 64, .kv_heads = 64, .head_dim = 128,
    .vocab = 32000, .attn = COST_ATTN_GQA, .mlp = COST_MLP_GELU, .d_ff = 4 * 8192,
    .dtype = COST_BF16,
};

static const cost_model *const PRESETS[] = {
    &M_LLAMA3_8B, &M_LLAMA3_70B, &M_LLAMA2_70B, &M_LLAMA3_405B, &M_MIXTRAL_8X7B,
    &M_DEEPSEEK_V3, &M_GPT3_175B, &M_PALM_540B, &M_CHINCHILLA_70B,
};

const cost_model *const *cost_model_presets(size_t *count)
{
    *count = sizeof PRESETS / sizeof PRESETS[0];
    return PRESETS;
}

const cost_model *cost_model_find(const char *name)
{
    size_t n;
    const cost_model *const *all = cost_model_presets(&n);
    for (size_t i = 0; i < n; i++)
        if (cost_name_equal(all[i]->name, name))
            return all[i];
    return NULL;
}

/* ---- shape arithmetic ----------------------------------------------------- */

static double attn_params_per_layer(const cost_model *m)
{
    double d = m->d_model, h = m->heads;
    if (m->attn == COST_ATTN_GQA) {
        double q = d * h * m->head_dim, kv = 2.0 * d * m->kv_heads * m->head_dim;
        return q + kv + h * m->head_dim * d; /* Q, K and V, O */
    }
    double qk_dim = m->head_dim + m->rope_head_dim;
    double q = m->q_lora_rank > 0
                   ? d * m->q_lora_rank + m->q_lora_rank + m->q_lora_rank * h * qk_dim
                   : d * h * qk_dim;
    double kv = d * (m->kv_lora_rank + m->rope_head_dim) + m->kv_lora_rank +
                m->kv_lora_rank * h * (m->head_dim + m->v_head_dim);
    return q + kv + h * m->v_head_dim * d;
}

static double mlp_params(const cost_model *m, int width)
{
    double matrices = m->mlp == COST_MLP_SWIGLU ? 3.0 : 2.0;
    return matrices * m->d_model * width;
}

static bool is_moe(const cost_model *m)
{
    return m->experts_routed > 0;
}

static int moe_layers(const cost_model *m)
{
    return is_moe(m) ? m->layers - m->dense_layers : 0;
}

/* Everything but the routed experts: attention, dense MLPs, shared experts, routers,
 * norms, embeddings. */
static double params_always_used(const cost_model *m)
{
    double d = m->d_model;
    double embed = (m->tied_embeddings ? 1.0 : 2.0) * m->vocab * d;
    double norms = 2.0 * d * m->layers + d;
    double dense_mlp = mlp_params(m, m->d_ff) * (m->layers - moe_layers(m));
    double per_moe_layer = m->experts_shared * mlp_params(m, m->d_ff_expert) +
                           d * m->experts_routed; /* router */
    return m->layers * attn_params_per_layer(m) + dense_mlp +
           moe_layers(m) * per_moe_layer + norms + embed;
}

double cost_model_params_total(const cost_model *m)
{
    double routed = (double)m->experts_routed * mlp_params(m, m->d_ff_expert);
    return params_always_used(m) + moe_layers(m) * routed;
}

double cost_model_params_active(const cost_model *m)
{
    double routed = (double)m->experts_active * mlp_params(m, m->d_ff_expert);
    return params_always_used(m) + moe_layers(m) * routed;
}

double cost_model_sparsity(const cost_model *m)
{
    return cost_model_params_total(m) / cost_model_params_active(m);
}

double cost_model_flops_per_token(const cost_model *m)
{
    return COST_FLOPS_PER_MAC * cost_model_params_active(m);
}

double cost_model_kv_elements_per_token(const cost_model *m)
{
    if (m->attn == COST_ATTN_MLA)
        return (double)m->layers * (m->kv_lora_rank + m->rope_head_dim);
    return 2.0 * m->layers * m->kv_heads * m->head_dim; /* K and V */
}

double cost_model_kv_bytes_per_token(const cost_model *m, cost_dtype dtype)
{
    return cost_model_kv_elements_per_token(m) * cost_dtype_bytes(dtype);
}
