/*
 * 05-long-context-kv.c -- chapter 5's commands on the KV cache's size (05-long-context.c
 * holds the chapter's table and its commands on context's cost):
 *
 *   chalk kv                  KV bytes per token and per sequence, from a model or a shape (5.3)
 *   chalk kv-from-price       KV bytes per token implied by a price step (5.2)
 *
 * Every number comes from the chapter's reference (context_*, through
 * exercises/05-long-context/context.h) and from lib/'s model presets.
 */
#include <stdio.h>

#include "05-long-context.h"

#define G_SHAPE "attention shape (instead of --model)"
#define G_MODEL "model (a preset, flags alone, or a preset with flags overriding it)"
#define WHOLE CHALK_WHOLE
#define ABOVE CHALK_ABOVE_MIN
#define U(x) CHALK_U_##x
#define F_PARAMS_ACTIVE long_context_params_active_flag

/* clang-format off */
static const chalk_flag F_LAYERS       = {"--layers", "N", "layers", U(COUNT), 1, 1e5, WHOLE, "layers", G_SHAPE,
    "layers (MLA: each keeps a latent; sparse index: each keeps an index key)"};
static const chalk_flag F_KV_CONTEXTS  = {"--kv-contexts", "N", "kv_contexts", U(COUNT), 0, 1e5, WHOLE, "layers with a full-context cache", G_SHAPE,
    "layers with their own full-context KV cache (default --layers)"};
static const chalk_flag F_KV_HEADS     = {"--kv-heads", "H", "kv_heads", U(COUNT), 1, 1e5, WHOLE, "key/value heads per layer", G_SHAPE,
    "key/value heads per layer (grouped-query; 1 for multi-query)"};
static const chalk_flag F_HEAD_DIM     = {"--head-dim", "D", "head_dim", U(COUNT), 1, 1e5, WHOLE, "width of one head", G_SHAPE,
    "width of one head"};
static const chalk_flag F_LATENT_DIM   = {"--latent-dim", "D", "latent_dim", U(COUNT), 1, 1e6, WHOLE, "width of the latent", G_SHAPE,
    "MLA: width of the cached latent (with --layers)"};
static const chalk_flag F_ROPE_DIM     = {"--rope-dim", "D", "rope_dim", U(COUNT), 0, 1e5, WHOLE, "width of the RoPE key", G_SHAPE,
    "MLA: width of the decoupled RoPE key (default 0)"};
static const chalk_flag F_LOCAL_LAYERS = {"--local-layers", "N", "local_layers", U(COUNT), 0, 1e5, WHOLE, "sliding-window layers", G_SHAPE,
    "sliding-window layers beside the --kv-contexts global ones (with --window)"};
static const chalk_flag F_WINDOW       = {"--window", "T", "window_tokens", U(TOKENS), 1, 1e12, 0, "tokens a local layer keeps", G_SHAPE,
    "tokens a local layer attends to and keeps"};
static const chalk_flag F_SELECTED     = {"--selected-tokens", "K", "selected_tokens", U(TOKENS), 1, 1e12, 0, "tokens each query reads", G_SHAPE,
    "sparse attention: tokens each query reads (DeepSeek-V3.2: 2048)"};
static const chalk_flag F_INDEX_DIM    = {"--index-dim", "D", "index_dim", U(COUNT), 0, 1e6, WHOLE, "index numbers per token and layer", G_SHAPE,
    "sparse attention: index numbers per token and layer, at --kv-dtype (DeepSeek-V3.2: 128)"};
static const chalk_flag F_HW_RATIO     = {"--hw-ratio", "R", "hw_ratio", U(PLAIN), 0, 1e9, ABOVE, "multiplies per weight fetched", "hardware (figures are per chip)",
    "multiplies per weight fetched (the lecture's ~300), with --weight-bytes"};
static const chalk_flag F_COMPARE      = {"--compare-model", "NAME", "compare_model", U(WORD), 0, 0, 0, "a model preset", G_MODEL,
    "a model preset whose cache (at --kv-dtype) to set beside the implied one", .kind = &chalk_kind_models};
/* clang-format on */

/* ---- kv --------------------------------------------------------------------------------- */

/* Where a cache's bytes per token come from, and its layout over the context. */
typedef struct kv_setup {
    const cost_model *model;
    bool from_bytes; /* --kv-bytes-per-token: no shape */
    bool mla;
    cost_dtype kv_dtype;
    double layers;      /* for an MLA latent or a sparse index; 0 = unknown */
    double kv_contexts; /* global caches */
    double local_layers, window_tokens;
    double layer_bytes;        /* one layer's cache per token (global or local alike) */
    double elements_per_token; /* all caching layers, full context */
    double bytes_per_token;    /* all caching layers, full context */
    bool sparse;
    double selected_tokens, index_bytes_per_token;
} kv_setup;

static int kv_from_model(const chalk_point *p, kv_setup *k)
{
    const chalk_flag *const shape[] = {&F_LAYERS,     &F_KV_CONTEXTS, &F_KV_HEADS,     &F_HEAD_DIM,
                                       &F_LATENT_DIM, &F_ROPE_DIM,    &F_LOCAL_LAYERS, &F_WINDOW};
    for (size_t i = 0; i < CHALK_COUNT(shape); i++)
        if (chalk_has(p, shape[i]))
            return chalk_fail("kv takes a shape or --model, not both (%s with --model)",
                              shape[i]->name);
    const cost_model *m = k->model;
    k->mla = m->attn == COST_ATTN_MLA;
    k->layers = m->layers;
    k->kv_contexts = m->layers;
    k->elements_per_token = cost_model_kv_elements_per_token(m);
    k->bytes_per_token = cost_model_kv_bytes_per_token(m, k->kv_dtype);
    k->layer_bytes = k->bytes_per_token / m->layers;
    return CHALK_OK;
}

static int kv_from_shape(const chalk_point *p, kv_setup *k)
{
    double layers = chalk_in(p, &F_LAYERS), contexts = chalk_in(p, &F_KV_CONTEXTS);
    double heads = chalk_in(p, &F_KV_HEADS), dim = chalk_in(p, &F_HEAD_DIM);
    double latent = chalk_in(p, &F_LATENT_DIM), rope = chalk_in(p, &F_ROPE_DIM);
    bool has_layers = chalk_has(p, &F_LAYERS), has_contexts = chalk_has(p, &F_KV_CONTEXTS);
    bool has_heads = chalk_has(p, &F_KV_HEADS), has_dim = chalk_has(p, &F_HEAD_DIM);
    bool has_latent = chalk_has(p, &F_LATENT_DIM), has_rope = chalk_has(p, &F_ROPE_DIM);
    k->local_layers = chalk_in(p, &F_LOCAL_LAYERS);
    k->window_tokens = chalk_in(p, &F_WINDOW);
    if (!has_layers && !has_contexts)
        return chalk_fail("kv needs --model NAME, --kv-bytes-per-token X, or a shape with "
                          "--kv-contexts N or --layers N");
    if (chalk_has(p, &F_LOCAL_LAYERS) != chalk_has(p, &F_WINDOW))
        return chalk_fail("kv: --local-layers and --window go together");
    double element_bytes = cost_dtype_bytes(k->kv_dtype), layer_elements;
    if (has_latent) {
        if (has_heads || has_dim)
            return chalk_fail("kv: --latent-dim (MLA) replaces --kv-heads and --head-dim");
        k->mla = true;
        layer_elements = latent + rope; /* one latent serves K and V */
        k->layer_bytes = context_mla_kv_bytes_per_token(1, latent, rope, element_bytes);
    } else {
        if (!has_heads || !has_dim)
            return chalk_fail("kv: a shape needs --kv-heads H and --head-dim D (or "
                              "--latent-dim D for MLA)");
        if (has_rope)
            return chalk_fail("kv: --rope-dim belongs to an MLA shape (--latent-dim)");
        layer_elements = 2.0 * heads * dim; /* a key and a value per head */
        k->layer_bytes = context_kv_bytes_per_token(1, heads, dim, element_bytes);
    }
    k->kv_contexts = has_contexts ? contexts : layers;
    double caching_layers = k->kv_contexts + k->local_layers;
    if (caching_layers == 0.0)
        return chalk_fail("kv: no layer keeps a cache (--kv-contexts 0 and no local layers)");
    if (has_layers && caching_layers > layers)
        return chalk_fail("kv: %g layers cannot keep %g caches (--kv-contexts %g and "
                          "--local-layers %g)",
                          layers, caching_layers, k->kv_contexts, k->local_layers);
    k->layers = has_layers ? layers : caching_layers;
    k->elements_per_token = caching_layers * layer_elements;
    k->bytes_per_token = caching_layers * k->layer_bytes;
    return CHALK_OK;
}

/* The cache the flags describe; an error line when they do not describe one (the
 * check calls it first, so a build never fails). */
static int kv_of(const chalk_point *p, kv_setup *k)
{
    *k = (kv_setup){0};
    cost_dtype dtype;
    int status = chalk_dtypes_resolve(p->args, &dtype, &k->kv_dtype);
    if (status)
        return status;
    bool has_model = chalk_has(p, &CHALK_F_MODEL), bytes_given = chalk_has(p, &CHALK_F_KV_BYTES);
    if (has_model && bytes_given)
        return chalk_fail("kv takes --model or --kv-bytes-per-token, not both");
    if (has_model) {
        k->model = chalk_model_at(p);
        status = kv_from_model(p, k);
    } else if (bytes_given) {
        k->from_bytes = true;
        k->bytes_per_token = chalk_in(p, &CHALK_F_KV_BYTES);
        if (chalk_has(p, &F_KV_HEADS) || chalk_has(p, &F_LATENT_DIM) ||
            chalk_has(p, &F_LOCAL_LAYERS) || chalk_has(p, &F_KV_CONTEXTS))
            status = chalk_fail("kv takes a shape or --kv-bytes-per-token, not both");
        k->layers = chalk_in(p, &F_LAYERS);
    } else {
        status = kv_from_shape(p, k);
    }
    if (status)
        return status;
    bool has_index = chalk_has(p, &F_INDEX_DIM);
    k->sparse = chalk_has(p, &F_SELECTED);
    k->selected_tokens = chalk_in(p, &F_SELECTED);
    if (has_index && !k->sparse)
        return chalk_fail("kv: --index-dim goes with --selected-tokens");
    if (has_index && k->layers == 0.0)
        return chalk_fail("kv: --index-dim needs the layers (--model or --layers)");
    if (k->sparse && k->local_layers > 0.0)
        return chalk_fail("kv: pick sliding windows or sparse selection, not both");
    k->index_bytes_per_token = context_index_bytes_per_token(k->layers, chalk_in(p, &F_INDEX_DIM),
                                                             cost_dtype_bytes(k->kv_dtype));
    return CHALK_OK;
}

static int check_kv(const chalk_point *p)
{
    kv_setup k;
    return kv_of(p, &k);
}

static void build_kv(const chalk_point *p, chalk_record *r)
{
    kv_setup s, *k = &s;
    kv_of(p, k);
    bool has_context = chalk_has(p, &CHALK_F_CONTEXT);
    double context = chalk_in(p, &CHALK_F_CONTEXT);
    chalk_clear(r);
    chalk_field *f =
        chalk_put_string(r, "model", "model", CHALK_INPUT, k->model ? k->model->name : NULL);
    if (k->model)
        chalk_note(r, f, "%s", k->model->title);
    else
        chalk_null_words(r, f, k->from_bytes ? "(bytes given)" : "(from a shape)");
    chalk_put_string(r, "kv_dtype", "KV dtype", CHALK_INPUT,
                     k->from_bytes ? NULL : cost_dtype_name(k->kv_dtype));
    chalk_put_maybe(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, has_context,
                    context);
    const char *no_shape = "bytes given directly: no shape";
    chalk_put_string(r, "attn", "attention", CHALK_DETAIL,
                     k->from_bytes ? NULL
                     : k->mla      ? "mla"
                                   : "gqa");
    chalk_put_result(r, "kv_elements_per_token", "KV numbers per token", CHALK_U_COUNT,
                     CHALK_DETAIL, !k->from_bytes, k->elements_per_token, no_shape);
    chalk_put_result(r, "bytes_per_element", "bytes per element", CHALK_U_PLAIN, CHALK_DETAIL,
                     !k->from_bytes, cost_dtype_bytes(k->kv_dtype), no_shape);
    chalk_put_number(r, "kv_bytes_per_token", "KV per token", CHALK_U_BYTES_PER_TOKEN, 0,
                     k->bytes_per_token);
    const char *no_context = "no --context given";
    double held = 0.0, read = 0.0;
    if (has_context) {
        held = k->local_layers > 0.0
                   ? context_window_kv_bytes(k->kv_contexts, k->local_layers, k->window_tokens,
                                             k->layer_bytes, context)
                   : context * k->bytes_per_token;
        read = k->sparse ? context_sparse_read_bytes(k->bytes_per_token, k->index_bytes_per_token,
                                                     k->selected_tokens, context)
                         : held;
    }
    chalk_put_result(r, "kv_bytes_per_sequence", "KV of one sequence", CHALK_U_BYTES, 0,
                     has_context, held, no_context);
    chalk_put_result(r, "kv_bytes_per_context_token", "held per context token",
                     CHALK_U_BYTES_PER_TOKEN, CHALK_DETAIL, has_context && context > 0.0,
                     context > 0.0 ? held / context : 0.0,
                     has_context ? "a context of 0 tokens holds nothing" : no_context);
    chalk_put_result(r, "kv_read_bytes", "read per decode step", CHALK_U_BYTES, 0, has_context,
                     read, no_context);
}

/* ---- kv-from-price ---------------------------------------------------------------------- */

/* N_active: --params-active, else the model's. */
static double implied_params_active(const chalk_point *p)
{
    return chalk_has(p, &F_PARAMS_ACTIVE) ? chalk_in(p, &F_PARAMS_ACTIVE) : p->d->params_active;
}

static int check_implied(const chalk_point *p)
{
    const chalk_deploy *d = p->d;
    if (!chalk_has(p, &F_PARAMS_ACTIVE) && !d->has_params)
        return chalk_fail("%s needs --params-active N (or --model NAME)", p->cmd->name);
    if (chalk_has(p, &F_HW_RATIO)) {
        if (d->hw || chalk_has(p, &CHALK_F_FLOPS) || chalk_has(p, &CHALK_F_HBM_BPS))
            return chalk_fail("kv-from-price: give --hw-ratio with --weight-bytes, or the chip "
                              "(--hw, --flops-per-s, --hbm-bytes-per-s), not both");
        if (!chalk_has(p, &CHALK_F_WEIGHT_BYTES))
            return chalk_fail("kv-from-price: --hw-ratio counts multiplies per weight; give "
                              "the bytes per weight with --weight-bytes X");
    } else if (d->hw && !d->has_flops) {
        return chalk_fail("%s has no %s peak; pick another --dtype or pass --flops-per-s",
                          d->hw->name, cost_dtype_name(d->dtype));
    } else if (!d->has_flops || !d->has_bw) {
        return chalk_fail("kv-from-price needs the chip: --hw NAME, or --flops-per-s X and "
                          "--hbm-bytes-per-s X, or --hw-ratio R with --weight-bytes X");
    }
    if (!chalk_has(p, &CHALK_F_CONTEXT))
        return chalk_fail("kv-from-price needs --context L (where the price steps, tokens)");
    if (chalk_in(p, &CHALK_F_CONTEXT) <= 0.0)
        return chalk_fail("kv-from-price: --context must be > 0 (the step's place)");
    return CHALK_OK;
}

static void build_implied(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    double step = chalk_in(p, &CHALK_F_CONTEXT), beta = d->bytes_per_param;
    double params_active = implied_params_active(p);
    bool by_ratio = chalk_has(p, &F_HW_RATIO);
    chalk_clear(r);
    chalk_put_number(r, "params_active", "params active", CHALK_U_PARAMS, CHALK_INPUT,
                     params_active);
    chalk_put_number(r, "context", "price step at", CHALK_U_TOKENS, CHALK_INPUT, step);
    chalk_put_hw_name(r, d->hw);
    chalk_put_string(r, "dtype", "dtype", CHALK_INPUT, by_ratio ? NULL : cost_dtype_name(d->dtype));
    chalk_put_number(r, "bytes_per_param", "bytes per weight", CHALK_U_BYTES_PER_PARAM, CHALK_INPUT,
                     beta);
    double kv, flops_per_byte, ratio;
    if (by_ratio) {
        ratio = chalk_in(p, &F_HW_RATIO);
        flops_per_byte = COST_FLOPS_PER_MAC * ratio / beta; /* r multiplies per beta bytes */
        kv = context_kv_bytes_from_ratio(ratio, beta, params_active, step);
    } else {
        chalk_put_number(r, "flops_per_s", "peak per chip", CHALK_U_FLOPS_PER_S, CHALK_INPUT,
                         d->flops_per_s);
        chalk_put_number(r, "hbm_bytes_per_s", "HBM bandwidth", CHALK_U_BYTES_PER_S, CHALK_INPUT,
                         d->hbm_bytes_per_s);
        flops_per_byte = cost_ridge_flops_per_byte(d->flops_per_s, d->hbm_bytes_per_s);
        ratio = flops_per_byte * beta / COST_FLOPS_PER_MAC;
        kv = context_kv_bytes_from_crossover(params_active, step, d->flops_per_s,
                                             d->hbm_bytes_per_s);
    }
    chalk_put_number(r, "hw_ratio", "hardware ratio (multiplies per weight)", CHALK_U_PLAIN,
                     by_ratio ? CHALK_INPUT : 0, ratio);
    chalk_put_number(r, "flops_per_byte", "FLOPs per byte of bandwidth", CHALK_U_PLAIN, 0,
                     flops_per_byte);
    chalk_put_number(r, "kv_bytes_per_token", "implied KV per token", CHALK_U_BYTES_PER_TOKEN, 0,
                     kv);
    chalk_put_number(r, "kv_bytes_per_sequence", "one context at the step", CHALK_U_BYTES,
                     CHALK_DETAIL, kv * step);
    size_t n;
    long other = chalk_pick(p, &F_COMPARE);
    if (other < 0)
        return;
    const cost_model *compare = cost_model_presets(&n)[other];
    double theirs = cost_model_kv_bytes_per_token(compare, d->kv_dtype);
    chalk_put_string(r, "compare_model", "compared with", CHALK_INPUT, compare->name);
    chalk_put_number(r, "compare_kv_bytes_per_token", "its KV per token", CHALK_U_BYTES_PER_TOKEN,
                     0, theirs);
    chalk_put_number(r, "compare_over_implied", "its KV / implied", CHALK_U_RATIO, 0, theirs / kv);
}

/* ---- the commands ---------------------------------------------------------------------------- */

#define SWEEPS CHALK_SWEEPS

static const chalk_input KV[] = {{&CHALK_F_MODEL}, {&CHALK_F_KV_BYTES}, {&CHALK_F_KV_DTYPE},
                                 {&F_LAYERS}, {&F_KV_CONTEXTS}, {&F_KV_HEADS}, {&F_HEAD_DIM},
                                 {&F_LATENT_DIM}, {&F_ROPE_DIM}, {&F_LOCAL_LAYERS}, {&F_WINDOW},
                                 {&F_SELECTED}, {&F_INDEX_DIM}, {&CHALK_F_CONTEXT, SWEEPS}, {NULL}};
static const chalk_input IMPLIED[] = {{&CHALK_F_MODEL}, {&F_PARAMS_ACTIVE}, {&CHALK_F_HW},
                                      {&CHALK_F_FLOPS}, {&CHALK_F_HBM_BPS}, {&CHALK_F_DTYPE},
                                      {&CHALK_F_KV_DTYPE}, {&F_HW_RATIO}, {&CHALK_F_WEIGHT_BYTES},
                                      {&F_COMPARE}, {&CHALK_F_CONTEXT, SWEEPS}, {NULL}};
static const char *const ABOUT_KV[] = {
    "KV cache bytes per token and per sequence (lecture 6.3). From --model, from",
    "--kv-bytes-per-token, or from a shape:",
    "  grouped-query  kv_contexts x 2 x kv_heads x head_dim x bytes   (2: K and V)",
    "  MLA            layers x (latent_dim + rope_dim) x bytes         (one latent)",
    "bytes per element from --kv-dtype (default bf16). --local-layers S --window T add",
    "sliding-window layers that keep at most T tokens; --selected-tokens K (and",
    "--index-dim D) read K tokens (and every token's index) per decode step.",
    "With --context (may be a sweep): the bytes one sequence holds and reads.",
    NULL};
static const char *const EXAMPLES_KV[] = {
    "chalk kv --kv-contexts 1 --kv-heads 8 --head-dim 128 --kv-dtype fp8 --context 200000",
    "chalk kv --model deepseek-v3 --kv-dtype fp8 --context 1024:1e6 --csv",
    "chalk kv --model deepseek-v3 --kv-dtype fp8 --selected-tokens 2048 --index-dim 128 "
    "--context 131072",
    NULL};
static const char *const ABOUT_IMPLIED[] = {
    "The KV bytes per token that put the compute/KV crossover at --context tokens, the",
    "weight fetch negligible (lecture 6.2):",
    "  kv_bytes_per_token = (hbm_bytes_per_s / flops_per_s) x 2 x params_active / context",
    "  or, from the hardware ratio r (multiplies per weight of --weight-bytes bytes),",
    "  kv_bytes_per_token = weight_bytes x params_active / (r x context).",
    "The lecture's 1667 B reads r = 300 per byte (--weight-bytes 1); in fp4 it is 833 B.",
    NULL};
static const char *const EXAMPLES_IMPLIED[] = {
    "chalk kv-from-price --params-active 1e11 --context 2e5 --hw-ratio 300 --weight-bytes 0.5",
    "chalk kv-from-price --params-active 1e11 --context 2e5 --hw gb200-nvl72 --dtype fp4", NULL};
const chalk_command long_context_kv_cmd = {
    .name = "kv",
    .summary = "KV cache bytes per token and per sequence (6.3)",
    .title = "chalk kv: the KV cache per token and per sequence (lecture 6.3)",
    .inputs = KV, .check = check_kv, .build = build_kv,
    .about = ABOUT_KV, .examples = EXAMPLES_KV
};
const chalk_command long_context_kv_from_price_cmd = {
    .name = "kv-from-price",
    .summary = "the KV bytes per token a price step implies (6.2)",
    .title = "chalk kv-from-price: the KV bytes per token a price step implies (lecture 6.2)",
    .inputs = IMPLIED, .needs = CHALK_DEPLOY, .check = check_implied, .build = build_implied,
    .about = ABOUT_IMPLIED, .examples = EXAMPLES_IMPLIED
};
