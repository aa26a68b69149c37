/*
 * 05-long-context.c -- chapter 5's commands: long context, KV bytes read off prices,
 * cache tiers, price lists.
 *
 *   chalk kv                  KV bytes per token and per sequence, from a model or a shape (5.3)
 *   chalk kv-from-price       KV bytes per token implied by a price step (5.2)
 *   chalk context-cost        time and cost per token against context, the kink (5.1)
 *   chalk context-crossover   where KV meets compute, and attention meets the weights (5.1, 5.6)
 *   chalk pass                time per new token against the pass length (5.4)
 *   chalk price-ratio         output over input price, read as decode's utilisation (5.4)
 *   chalk tier                drain time and the cost of holding a cache, per tier (5.5)
 *   chalk price               a request's bill on a dated price list (5.7)
 *   chalk list api | tier     the dated price presets and the memory-tier presets
 *
 * The chapter's quantities of the lecture notes (section 10), each by one command:
 *   Gemini 3.1 +50% above 200k      chalk show api gemini-3.1-pro (long_*_over_base)
 *   KV bytes/token 1667 B (833 B)    chalk kv-from-price --params-active 1e11 --context 2e5
 *                                      --hw-ratio 300 --weight-bytes 1 (0.5)
 *   1 x 2 x 128 x 8 = 2048           chalk kv --kv-contexts 1 --kv-heads 8 --head-dim 128
 *                                      --kv-dtype fp8; 400 MB per 200k: add --context 200000
 *   output/input 3-5x (use 5)        chalk price-ratio --output-over-input 5
 *   cache: base $5, 5-min $6.25,     chalk show api claude-opus-4.6; chalk price --api ...
 *     hits 10x cheaper                 --cached-tokens C --cache-write 5m|1h
 *   drain times HBM ~20 ms, DDR      chalk tier (every preset), chalk tier --tier NAME,
 *     1-10 s, flash ~1 min, disk ~1 h  chalk tier --capacity-bytes C --bytes-per-s W
 *   context 8k -> 200k, 1M, 100M     chalk context-cost ... --context 1e8 (cost_over_flat),
 *     for a month-long "employee"      chalk kv ... --context 1e8 (kv_bytes_per_sequence)
 *   quadratic term "millions"        chalk context-crossover (attention_parity_tokens)
 *
 * Every number comes from the chapter's reference (context_*, through
 * exercises/05-long-context/context.h) and from lib/ presets (models, hardware, API
 * prices, memory tiers).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chalk.h"
#include "context.h"

/* ---- presets: chalk list api, chalk list tier, which --api and --tier name ----------------- */

static size_t api_count(void)
{
    size_t n;
    cost_api_presets(&n);
    return n;
}

static const char *api_name(size_t i)
{
    size_t n;
    return cost_api_presets(&n)[i]->name;
}

static size_t tier_count(void)
{
    size_t n;
    cost_tier_presets(&n);
    return n;
}

static const char *tier_name(size_t i)
{
    size_t n;
    return cost_tier_presets(&n)[i]->name;
}

static void api_put(chalk_record *r, size_t i, const chalk_preset_options *o);
static void tier_put(chalk_record *r, size_t i, const chalk_preset_options *o);

static const chalk_preset_kind KIND_API = {
    .word = "api",
    .alias = "apis",
    .about = "dated API prices: USD per million tokens, tiers, cache prices",
    .count = api_count,
    .name = api_name,
    .put = api_put,
};

static const chalk_preset_kind KIND_TIER = {
    .word = "tier",
    .alias = "tiers",
    .about = "memory tiers: one HBM, DDR, NVMe or disk device's capacity, bandwidth, cost",
    .count = tier_count,
    .name = tier_name,
    .put = tier_put,
};

/* ---- this chapter's own flags ------------------------------------------------------------- */

#define G_SHAPE "attention shape (instead of --model)"
#define G_PRICE "price list"
#define G_TIER "memory tier"
#define G_WORK "workload"
#define G_MODEL "model (a preset, flags alone, or a preset with flags overriding it)"
#define WHOLE CHALK_WHOLE
#define ABOVE CHALK_ABOVE_MIN
#define U(x) CHALK_U_##x

/* clang-format off */
static const chalk_flag F_PARAMS_ACTIVE = {"--params-active", "N", "params_active", U(PARAMS), 0, 1e16, ABOVE, "parameters one token uses", G_MODEL,
    "parameters one token multiplies through (default: the model's, or --params-total for a dense model)"};
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
static const chalk_flag F_API          = {"--api", "NAME", "api", U(WORD), 0, 0, 0, "a price list", G_PRICE,
    "price preset (chalk list api)", .kind = &KIND_API};
static const chalk_flag F_INPUT        = {"--input-tokens", "I", "input_tokens", U(TOKENS), 0, 1e12, 0, "prompt tokens", G_PRICE,
    "prompt tokens, cached ones included; may be a sweep"};
static const chalk_flag F_OUTPUT       = {"--output-tokens", "O", "output_tokens", U(TOKENS), 0, 1e12, 0, "generated tokens", G_PRICE,
    "generated tokens, thinking included"};
static const chalk_flag F_CACHED       = {"--cached-tokens", "C", "cached_tokens", U(TOKENS), 0, 1e12, 0, "prompt tokens read from the cache", G_PRICE,
    "prompt tokens read from the cache (at most --input-tokens)"};
static const chalk_flag F_CACHE_WRITE  = {"--cache-write", "W", "cache_write", U(WORD), 0, 0, 0, "none, 5m or 1h", G_PRICE,
    "none|5m|1h: write the uncached prompt to a cache entry of that life"};
static const chalk_flag F_RATIO        = {"--output-over-input", "X", "output_over_input", U(RATIO), 0, 1e6, ABOVE, "output price over input price", G_PRICE,
    "output price over input price (or --api NAME)"};
static const chalk_flag F_LONG         = {"--long", NULL, "price_tier", U(WORD), 0, 0, 0, NULL, G_PRICE,
    "with --api: the long-prompt tier's prices"};
static const chalk_flag F_TIER         = {"--tier", "NAME", "tier", U(WORD), 0, 0, 0, "a memory tier", G_TIER,
    "memory-tier preset (chalk list tier); without it and without --capacity-bytes, every preset", .kind = &KIND_TIER};
static const chalk_flag F_CAPACITY     = {"--capacity-bytes", "C", "capacity_bytes", U(BYTES), 1, 1e18, 0, "capacity of one device", G_TIER,
    "capacity of one device"};
static const chalk_flag F_TIER_BPS     = {"--bytes-per-s", "W", "bytes_per_s", U(BYTES_PER_S), 1, 1e18, 0, "read bandwidth of one device", G_TIER,
    "read bandwidth of one device"};
static const chalk_flag F_TIER_USD     = {"--usd-per-hour", "P", "usd_per_hour", U(USD), 0, 1e9, ABOVE, "what one device costs per hour", G_TIER,
    "what one device costs per hour (rent, or price over its life)"};
static const chalk_flag F_HOLD         = {"--hold-s", "T", "hold_s", U(SECONDS), 0, 1e10, 0, "seconds a cache is held", G_WORK,
    "seconds a cache is held before it is read back once; may be a sweep"};
static const chalk_flag F_PASS         = {"--pass-tokens", "P", "pass_tokens", U(TOKENS), 1, 1e9, 0, "new tokens per sequence in a pass", G_WORK,
    "new tokens each sequence adds in one pass (1 = decode); may be a sweep"};
static const chalk_flag F_ATTN_LAYERS  = {"--attn-layers", "N", "attn_layers", U(COUNT), 1, 1e5, WHOLE, "layers that read the long context", G_SHAPE,
    "layers whose attention reads the long context"};
static const chalk_flag F_Q_HEADS      = {"--q-heads", "H", "q_heads", U(COUNT), 1, 1e5, WHOLE, "query heads per layer", G_SHAPE,
    "query heads per layer"};
static const chalk_flag F_QK_DIM       = {"--qk-dim", "D", "qk_dim", U(COUNT), 1, 1e6, WHOLE, "multiply-accumulates to score a key", G_SHAPE,
    "multiply-accumulates per head to score one cached key"};
static const chalk_flag F_V_DIM        = {"--v-dim", "D", "v_dim", U(COUNT), 1, 1e6, WHOLE, "multiply-accumulates to add a value", G_SHAPE,
    "multiply-accumulates per head to add in one cached value"};
/* clang-format on */

enum { SHORT_CHARS = 40 };

static const cost_api_price *api_at(const chalk_point *p)
{
    size_t n;
    long i = chalk_pick(p, &F_API);
    return i >= 0 ? cost_api_presets(&n)[i] : NULL;
}

/* ---- presets: what chalk list api and chalk list tier print ------------------------------- */

/* A price that a list may not have: null with the reason beside it. */
static void put_price(chalk_record *r, const char *key, const char *label, unsigned flags,
                      double usd_per_mtok, const char *why)
{
    chalk_put_result(r, key, label, CHALK_U_USD_PER_MTOK, flags, usd_per_mtok > 0.0, usd_per_mtok,
                     why);
}

static void api_put(chalk_record *r, size_t i, const chalk_preset_options *o)
{
    (void)o;
    size_t n;
    const cost_api_price *p = cost_api_presets(&n)[i];
    bool two = cost_api_has_long_tier(p);
    const char *one_tier = "one tier: no long-prompt price";
    chalk_put_string(r, "name", "name", 0, p->name);
    chalk_put_string(r, "title", "title", CHALK_DETAIL, p->title);
    chalk_put_string(r, "provider", "provider", CHALK_DETAIL, p->provider);
    chalk_put_string(r, "date", "date", 0, p->date);
    chalk_put_number(r, "input_usd_per_mtok", "input", CHALK_U_USD_PER_MTOK, 0,
                     p->base.input_usd_per_mtok);
    chalk_put_number(r, "output_usd_per_mtok", "output", CHALK_U_USD_PER_MTOK, 0,
                     p->base.output_usd_per_mtok);
    chalk_put_number(r, "output_over_input", "output / input", CHALK_U_RATIO, CHALK_DETAIL,
                     p->base.output_usd_per_mtok / p->base.input_usd_per_mtok);
    put_price(r, "cache_read_usd_per_mtok", "cache hit", 0, p->base.cache_read_usd_per_mtok,
              "no sourced cache-read price");
    put_price(r, "cache_write_5m_usd_per_mtok", "5-min write", CHALK_DETAIL,
              p->cache_write_5m_usd_per_mtok, "no 5-minute write price: writes bill as input");
    put_price(r, "cache_write_1h_usd_per_mtok", "1-hour write", CHALK_DETAIL,
              p->cache_write_1h_usd_per_mtok, "no 1-hour write price: writes bill as input");
    chalk_put_result(r, "long_threshold_tokens", "long tier above", CHALK_U_TOKENS, 0, two,
                     p->long_threshold_tokens, one_tier);
    put_price(r, "long_input_usd_per_mtok", "long input", CHALK_DETAIL,
              two ? p->long_prompt.input_usd_per_mtok : 0.0, one_tier);
    put_price(r, "long_output_usd_per_mtok", "long output", CHALK_DETAIL,
              two ? p->long_prompt.output_usd_per_mtok : 0.0, one_tier);
    put_price(r, "long_cache_read_usd_per_mtok", "long cache hit", CHALK_DETAIL,
              two ? p->long_prompt.cache_read_usd_per_mtok : 0.0,
              two ? "no sourced long-tier cache-read price" : one_tier);
    chalk_put_result(r, "long_input_over_base", "long input / base", CHALK_U_RATIO, CHALK_DETAIL,
                     two, two ? p->long_prompt.input_usd_per_mtok / p->base.input_usd_per_mtok : 0,
                     one_tier);
    chalk_put_result(
        r, "long_output_over_base", "long output / base", CHALK_U_RATIO, CHALK_DETAIL, two,
        two ? p->long_prompt.output_usd_per_mtok / p->base.output_usd_per_mtok : 0, one_tier);
    chalk_put_result(r, "cache_storage_usd_per_mtok_hour", "cache storage per hour",
                     CHALK_U_USD_PER_MTOK, CHALK_DETAIL, p->cache_storage_usd_per_mtok_hour > 0.0,
                     p->cache_storage_usd_per_mtok_hour, "no storage charge on this list");
    chalk_put_string(r, "source", "source", CHALK_DETAIL, p->source);
}

static void tier_put(chalk_record *r, size_t i, const chalk_preset_options *o)
{
    (void)o;
    size_t n;
    const cost_tier *t = cost_tier_presets(&n)[i];
    chalk_put_string(r, "name", "name", 0, t->name);
    chalk_put_string(r, "title", "title", 0, t->title);
    chalk_put_number(r, "capacity_bytes", "capacity", CHALK_U_BYTES, 0, t->capacity_bytes);
    chalk_put_number(r, "bytes_per_s", "bandwidth", CHALK_U_BYTES_PER_S, 0, t->bytes_per_s);
    chalk_put_number(r, "drain_s", "drain time", CHALK_U_SECONDS, 0,
                     context_drain_s(t->capacity_bytes, t->bytes_per_s));
    chalk_put_number(r, "usd_per_hour", "USD per device-hour", CHALK_U_USD, 0, t->usd_per_hour);
    chalk_put_string(r, "price_date", "price date", CHALK_DETAIL, t->price_date);
    chalk_put_string(r, "source", "source", CHALK_DETAIL, t->source);
}

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
    k->index_bytes_per_token =
        k->layers * chalk_in(p, &F_INDEX_DIM) * cost_dtype_bytes(k->kv_dtype);
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

/* ---- context-cost, context-crossover, pass: a deployment and its workload ------------- */

/* The deployment, with N_active from --params-active when given (a dense model
 * without --params-total then has N_total = N_active). */
typedef struct serve {
    chalk_deploy d;
    context_deploy cd;
    bool has_total; /* N_total known: the weight share and the kink */
} serve;

static serve serve_of(const chalk_point *p)
{
    serve s = {.d = *p->d, .has_total = p->d->has_params};
    if (chalk_has(p, &F_PARAMS_ACTIVE)) {
        s.d.params_active = chalk_in(p, &F_PARAMS_ACTIVE);
        if (!s.has_total)
            s.d.params_total = s.d.params_active;
    }
    const chalk_deploy *d = &s.d;
    s.cd = (context_deploy){
        .params_total = d->params_total,
        .params_active = d->params_active,
        .bytes_per_param = d->bytes_per_param,
        .kv_bytes_per_token = d->kv_bytes_per_token,
        .chips = d->chips,
        .flops_per_s = d->flops_per_s,
        .hbm_bytes_per_s = d->hbm_bytes_per_s,
    };
    return s;
}

/* The parameters, and the workload inputs each command needs. */
static int check_serve(const chalk_point *p, bool params, bool batch, bool context, bool pass)
{
    const char *cmd = p->cmd->name;
    serve s = serve_of(p);
    if (s.has_total && s.d.params_active > s.d.params_total)
        return chalk_fail("params_active (%g) exceeds params_total (%g)", s.d.params_active,
                          s.d.params_total);
    if (params && !s.has_total)
        return chalk_fail("%s needs --params-total N (or --model NAME)", cmd);
    if (batch && !chalk_has(p, &CHALK_F_BATCH))
        return chalk_fail("%s needs --batch B (sequences per step)", cmd);
    if (context && !chalk_has(p, &CHALK_F_CONTEXT))
        return chalk_fail("%s needs --context T (tokens of context)", cmd);
    if (pass && !chalk_has(p, &F_PASS))
        return chalk_fail("%s needs --pass-tokens P (new tokens per sequence in a pass)", cmd);
    return CHALK_OK;
}

static void put_serve_echo(chalk_record *r, const chalk_point *p, const serve *s, bool pass)
{
    chalk_deploy_echo_head(r, &s->d);
    chalk_put_maybe(r, "batch", "batch", CHALK_U_SEQUENCES, CHALK_INPUT,
                    chalk_has(p, &CHALK_F_BATCH), chalk_in(p, &CHALK_F_BATCH));
    if (chalk_takes(p, &CHALK_F_CONTEXT) && chalk_has(p, &CHALK_F_CONTEXT))
        chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT,
                         chalk_in(p, &CHALK_F_CONTEXT));
    if (pass)
        chalk_put_number(r, "pass_tokens", "pass length", CHALK_U_TOKENS, CHALK_INPUT,
                         chalk_in(p, &F_PASS));
    chalk_deploy_echo_tail(r, &s->d, CHALK_ECHO_FLOPS);
}

/* The kink at `batch` (an unbounded batch for HUGE_VAL), or why there is none. */
static const char *kink_at(chalk_record *r, const serve *s, double batch, context_kink *out)
{
    *out = (context_kink){.exists = false};
    if (!s->d.has_kv || s->cd.kv_bytes_per_token <= 0.0)
        return "no KV cache size: pass --kv-bytes-per-token X or --model NAME";
    if (!s->d.has_flops || !s->d.has_bw)
        return "no chip: pass --hw NAME (or --flops-per-s and --hbm-bytes-per-s)";
    if (!s->has_total && isfinite(batch))
        return "no total parameters: pass --params-total N (or --model NAME)";
    *out = context_kink_tokens(&s->cd, batch);
    if (out->exists)
        return NULL;
    char share[SHORT_CHARS], compute[SHORT_CHARS];
    context_token_time t = context_time_per_token(&s->cd, batch, 0.0);
    chalk_human(share, sizeof share, CHALK_U_SECONDS, t.memory_s);
    chalk_human(compute, sizeof compute, CHALK_U_SECONDS, t.compute_s);
    return chalk_fmt(r,
                     "at this batch each token's share of the weight fetch (%s) already exceeds "
                     "its arithmetic (%s): memory-bound at every context",
                     share, compute);
}

static void put_token_time(chalk_record *r, context_token_time t)
{
    chalk_put_number(r, "compute_s", "compute per token", CHALK_U_SECONDS, 0, t.compute_s);
    chalk_put_number(r, "memory_s", "memory per token", CHALK_U_SECONDS, 0, t.memory_s);
    chalk_put_number(r, "time_s", "time per token", CHALK_U_SECONDS, 0, t.time_s);
    chalk_put_string(r, "bound", "bound", 0, cost_bound_name(t.bound));
}

/* ---- context-cost ---------------------------------------------------------------------- */

static int check_context_cost(const chalk_point *p)
{
    return check_serve(p, true, true, true, false);
}

static void build_context_cost(const chalk_point *p, chalk_record *r)
{
    serve sv = serve_of(p), *s = &sv;
    double batch = chalk_in(p, &CHALK_F_BATCH), context = chalk_in(p, &CHALK_F_CONTEXT);
    chalk_clear(r);
    put_serve_echo(r, p, s, false);
    context_token_time t = context_time_per_token(&s->cd, batch, context);
    put_token_time(r, t);
    chalk_put_number(r, "cost_over_flat", "cost / flat cost", CHALK_U_RATIO, 0,
                     t.time_s / t.compute_s);
    context_kink k;
    const char *why = kink_at(r, s, batch, &k);
    chalk_put_result(r, "kink_tokens", "kink", CHALK_U_TOKENS, CHALK_DETAIL, k.exists, k.tokens,
                     why);
    /* if the tokens read grew as the square root of the context past the kink */
    double sparse_ctx = k.exists && context > k.tokens ? sqrt(context * k.tokens) : context;
    context_token_time sparse = context_time_per_token(&s->cd, batch, sparse_ctx);
    chalk_put_result(r, "sqrt_sparse_cost_over_flat", "cost / flat, reads as sqrt past the kink",
                     CHALK_U_RATIO, CHALK_DETAIL, k.exists, sparse.time_s / sparse.compute_s, why);
    const char *no_price = chalk_fmt(r, "no price for %s; pass --usd-per-chip-hour",
                                     s->d.hw ? s->d.hw->name : "this hardware");
    chalk_put_result(r, "usd_per_mtok", "cost", CHALK_U_USD_PER_MTOK, 0, s->d.has_price,
                     s->d.chips * s->d.usd_per_chip_hour * t.time_s / COST_HOUR_S * 1e6, no_price);
    const cost_api_price *api = api_at(p);
    bool is_long = api && cost_api_has_long_tier(api) && context > api->long_threshold_tokens;
    const cost_price_tier *tier = api ? (is_long ? &api->long_prompt : &api->base) : NULL;
    const char *no_api = "no --api given";
    chalk_put_result(r, "price_input_usd_per_mtok", "input price at this prompt length",
                     CHALK_U_USD_PER_MTOK, CHALK_DETAIL, api != NULL,
                     api ? tier->input_usd_per_mtok : 0.0, no_api);
    chalk_put_result(r, "price_output_usd_per_mtok", "output price at this prompt length",
                     CHALK_U_USD_PER_MTOK, CHALK_DETAIL, api != NULL,
                     api ? tier->output_usd_per_mtok : 0.0, no_api);
    chalk_put_result(r, "price_input_over_base", "input price / short-prompt price", CHALK_U_RATIO,
                     CHALK_DETAIL, api != NULL,
                     api ? tier->input_usd_per_mtok / api->base.input_usd_per_mtok : 0.0, no_api);
    chalk_put_result(r, "price_output_over_base", "output price / short-prompt price",
                     CHALK_U_RATIO, CHALK_DETAIL, api != NULL,
                     api ? tier->output_usd_per_mtok / api->base.output_usd_per_mtok : 0.0, no_api);
}

/* ---- context-crossover ----------------------------------------------------------------- */

/* Attention's shape from the flags, else from the model preset (MLA with absorbed
 * projections scores in latent + RoPE dimensions and sums in the latent). */
typedef struct attention {
    bool known;
    double layers, q_heads, qk_dim, v_dim;
} attention;

static attention attention_of(const chalk_point *p)
{
    const cost_model *m = p->d->model;
    if (chalk_has(p, &F_ATTN_LAYERS))
        return (attention){true, chalk_in(p, &F_ATTN_LAYERS), chalk_in(p, &F_Q_HEADS),
                           chalk_in(p, &F_QK_DIM), chalk_in(p, &F_V_DIM)};
    if (!m)
        return (attention){false, 0, 0, 0, 0};
    bool mla = m->attn == COST_ATTN_MLA;
    return (attention){true, m->layers, m->heads,
                       mla ? m->kv_lora_rank + m->rope_head_dim : m->head_dim,
                       mla ? m->kv_lora_rank : m->head_dim};
}

static int check_crossover(const chalk_point *p)
{
    int status = check_serve(p, false, false, false, false);
    if (status)
        return status;
    if (!p->d->has_params && !chalk_has(p, &F_PARAMS_ACTIVE))
        return chalk_fail("context-crossover needs --params-active N (or --model NAME)");
    if (p->swept)
        return chalk_fail("context-crossover takes single values, not a sweep");
    const chalk_flag *const shape[] = {&F_ATTN_LAYERS, &F_Q_HEADS, &F_QK_DIM, &F_V_DIM};
    int given = 0;
    for (int i = 0; i < 4; i++)
        given += chalk_has(p, shape[i]);
    if (given > 0 && given < 4)
        return chalk_fail("context-crossover: an attention shape needs all of --attn-layers, "
                          "--q-heads, --qk-dim and --v-dim");
    return CHALK_OK;
}

static void build_crossover(const chalk_point *p, chalk_record *r)
{
    serve sv = serve_of(p), *s = &sv;
    attention at = attention_of(p);
    bool has_batch = chalk_has(p, &CHALK_F_BATCH);
    chalk_clear(r);
    put_serve_echo(r, p, s, false);
    context_kink k;
    const char *why = kink_at(r, s, HUGE_VAL, &k);
    chalk_put_result(r, "balance_context_tokens", "KV fetch meets compute (any batch)",
                     CHALK_U_TOKENS, 0, k.exists, k.tokens, why);
    double batch = chalk_in(p, &CHALK_F_BATCH);
    why = has_batch ? kink_at(r, s, batch, &k) : "no --batch given";
    if (!has_batch)
        k.exists = false;
    chalk_put_result(r, "kink_tokens", "kink at this batch", CHALK_U_TOKENS, 0, k.exists, k.tokens,
                     why);
    /* the weights and the batch's caches at the kink, against the chips' HBM */
    bool known = k.exists && s->d.has_hbm;
    double used =
        s->cd.params_total * s->cd.bytes_per_param + batch * k.tokens * s->cd.kv_bytes_per_token;
    const char *no_use = !k.exists ? why : "no HBM capacity: pass --hbm-bytes X (or --hw NAME)";
    chalk_put_result(r, "hbm_used_at_kink_bytes", "HBM used at the kink", CHALK_U_BYTES,
                     CHALK_DETAIL, known, used, no_use);
    chalk_put_bool_result(r, "fits_hbm", "fits in HBM at the kink", CHALK_DETAIL, known,
                          used <= s->d.chips * s->d.hbm_bytes, no_use);
    const char *no_shape = "no attention shape: pass --model NAME or --attn-layers, --q-heads, "
                           "--qk-dim, --v-dim";
    double f = at.known ? context_attention_flops_per_context_token(at.layers, at.q_heads,
                                                                       at.qk_dim, at.v_dim)
                           : 0.0;
    chalk_put_result(r, "attn_flops_per_context_token", "attention FLOPs per context token",
                     CHALK_U_FLOPS, 0, at.known, f, no_shape);
    chalk_put_result(
        r, "attention_parity_tokens", "attention meets the weights", CHALK_U_TOKENS, 0, at.known,
        at.known ? context_attention_parity_tokens(s->d.params_active, f) : 0.0, no_shape);
}

/* ---- pass ---------------------------------------------------------------------------------- */

static int check_pass(const chalk_point *p)
{
    return check_serve(p, true, true, true, true);
}

static void build_pass(const chalk_point *p, chalk_record *r)
{
    serve sv = serve_of(p), *s = &sv;
    double batch = chalk_in(p, &CHALK_F_BATCH), context = chalk_in(p, &CHALK_F_CONTEXT);
    double pass = chalk_in(p, &F_PASS);
    chalk_clear(r);
    put_serve_echo(r, p, s, true);
    context_token_time t = context_pass_time_per_token(&s->cd, batch, context, pass);
    put_token_time(r, t);
    chalk_put_number(r, "mfu", "MFU (compute / time)", CHALK_U_FRACTION, 0, t.compute_s / t.time_s);
    chalk_put_number(r, "crossover_pass_tokens", "balanced pass length", CHALK_U_TOKENS, 0,
                     context_crossover_pass_tokens(&s->cd, batch, context));
}

/* ---- price-ratio ------------------------------------------------------------------------ */

static int check_ratio(const chalk_point *p)
{
    const cost_api_price *api = api_at(p);
    bool long_tier = chalk_has(p, &F_LONG);
    if (!api == !chalk_has(p, &F_RATIO))
        return chalk_fail("price-ratio needs one of --output-over-input X or --api NAME");
    if (!api && long_tier)
        return chalk_fail("price-ratio: --long picks a tier of an --api price list");
    if (api && long_tier && !cost_api_has_long_tier(api))
        return chalk_fail("price-ratio: %s has one tier only (leave out --long)", api->name);
    return CHALK_OK;
}

static void build_ratio(const chalk_point *p, chalk_record *r)
{
    const cost_api_price *api = api_at(p);
    bool long_tier = chalk_has(p, &F_LONG);
    const cost_price_tier *t = api ? (long_tier ? &api->long_prompt : &api->base) : NULL;
    double ratio = api ? t->output_usd_per_mtok / t->input_usd_per_mtok : chalk_in(p, &F_RATIO);
    chalk_clear(r);
    chalk_put_string(r, "api", "price list", CHALK_INPUT, api ? api->name : NULL);
    chalk_put_string(r, "date", "dated", CHALK_INPUT, api ? api->date : NULL);
    chalk_put_string(r, "price_tier", "tier", CHALK_INPUT,
                     api ? (long_tier ? "long" : "base") : NULL);
    chalk_put_number(r, "output_over_input", "output / input price", CHALK_U_RATIO, CHALK_INPUT,
                     ratio);
    context_price_ratio pr = context_read_price_ratio(ratio);
    const char *why = "a ratio below 1 has no reading: on the roofline a decode token never "
                      "costs less than a prefill token";
    chalk_put_result(r, "decode_mfu_over_prefill", "decode MFU / prefill MFU", CHALK_U_FRACTION, 0,
                     pr.exists, pr.decode_mfu_over_prefill, why);
    chalk_put_result(r, "crossover_pass_tokens", "balanced pass length", CHALK_U_TOKENS, 0,
                     pr.exists, pr.crossover_pass_tokens, why);
}

/* ---- tier ------------------------------------------------------------------------------- */

/* The device asked for: --tier (possibly overridden), or --capacity-bytes and
 * --bytes-per-s; `single` is false when every preset is asked for. */
typedef struct tier_setup {
    const cost_tier *preset;
    cost_tier one;
    bool single, has_price;
    bool has_remat;
    double remat_usd_per_byte, kv_bytes_per_token;
} tier_setup;

/* USD per byte to recompute a token's KV: its arithmetic on one chip, at the chip's
 * price, over its bytes (lecture 6.5). */
static double remat_usd_per_byte(const chalk_deploy *d)
{
    double chip_s = COST_FLOPS_PER_MAC * d->params_active / d->flops_per_s;
    return chip_s * d->usd_per_chip_hour / COST_HOUR_S / d->kv_bytes_per_token;
}

static tier_setup tier_of(const chalk_point *p)
{
    const chalk_deploy *d = p->d;
    tier_setup s = {.kv_bytes_per_token = d->has_kv ? d->kv_bytes_per_token : 0.0};
    s.has_remat = d->has_params && d->has_flops && d->has_price && s.kv_bytes_per_token > 0.0;
    if (s.has_remat)
        s.remat_usd_per_byte = remat_usd_per_byte(d);
    size_t n;
    long i = chalk_pick(p, &F_TIER);
    s.preset = i >= 0 ? cost_tier_presets(&n)[i] : NULL;
    bool custom =
        chalk_has(p, &F_CAPACITY) || chalk_has(p, &F_TIER_BPS) || chalk_has(p, &F_TIER_USD);
    s.single = s.preset || custom;
    if (s.preset)
        s.one = *s.preset;
    s.has_price = s.preset || chalk_has(p, &F_TIER_USD);
    if (chalk_has(p, &F_CAPACITY))
        s.one.capacity_bytes = chalk_in(p, &F_CAPACITY);
    if (chalk_has(p, &F_TIER_BPS))
        s.one.bytes_per_s = chalk_in(p, &F_TIER_BPS);
    if (chalk_has(p, &F_TIER_USD))
        s.one.usd_per_hour = chalk_in(p, &F_TIER_USD);
    return s;
}

static int check_tier(const chalk_point *p)
{
    tier_setup s = tier_of(p);
    if (s.single && !s.preset && (!chalk_has(p, &F_CAPACITY) || !chalk_has(p, &F_TIER_BPS)))
        return chalk_fail("tier: a device of your own needs --capacity-bytes C and "
                          "--bytes-per-s W (or pick --tier NAME)");
    return CHALK_OK;
}

static void put_remat(chalk_record *r, const tier_setup *s)
{
    const char *why = "no model on hardware with a price: pass --model, --hw (or --flops-per-s) "
                      "and --usd-per-chip-hour";
    chalk_put_result(r, "remat_usd_per_gb", "recompute, per GB of cache", CHALK_U_USD, 0,
                     s->has_remat, s->remat_usd_per_byte * COST_GB_BYTES, why);
    chalk_put_result(r, "remat_usd_per_mtok", "recompute, per million tokens", CHALK_U_USD, 0,
                     s->has_remat, s->remat_usd_per_byte * s->kv_bytes_per_token * 1e6, why);
}

static void build_tier_one(const chalk_point *p, chalk_record *r)
{
    tier_setup ts = tier_of(p), *s = &ts;
    const cost_tier *t = &s->one;
    bool has_hold = chalk_has(p, &F_HOLD);
    double hold = chalk_in(p, &F_HOLD);
    chalk_clear(r);
    chalk_put_string(r, "tier", "tier", CHALK_INPUT, s->preset ? s->preset->name : NULL);
    chalk_put_string(r, "title", "device", CHALK_DETAIL, s->preset ? t->title : NULL);
    chalk_put_number(r, "capacity_bytes", "capacity", CHALK_U_BYTES, CHALK_INPUT,
                     t->capacity_bytes);
    chalk_put_number(r, "bytes_per_s", "bandwidth", CHALK_U_BYTES_PER_S, CHALK_INPUT,
                     t->bytes_per_s);
    chalk_put_maybe(r, "usd_per_hour", "USD per device-hour", CHALK_U_USD, CHALK_INPUT,
                    s->has_price, t->usd_per_hour);
    chalk_put_maybe(r, "hold_s", "held for", CHALK_U_SECONDS, CHALK_INPUT, has_hold, hold);
    chalk_put_number(r, "drain_s", "drain time", CHALK_U_SECONDS, 0,
                     context_drain_s(t->capacity_bytes, t->bytes_per_s));
    bool known = s->has_price && has_hold;
    const char *why =
        !s->has_price ? "no price for this device: pass --usd-per-hour P" : "no --hold-s given";
    double per_byte = known ? context_tier_usd_per_byte(t, hold) : 0.0;
    chalk_put_result(r, "usd_per_gb", "cost per GB held and read once", CHALK_U_USD, 0, known,
                     per_byte * COST_GB_BYTES, why);
    bool per_token = known && s->kv_bytes_per_token > 0.0;
    chalk_put_result(r, "usd_per_mtok", "cost per million tokens of cache", CHALK_U_USD, 0,
                     per_token, per_byte * s->kv_bytes_per_token * 1e6,
                     known ? "no KV size: pass --model NAME or --kv-bytes-per-token X" : why);
    put_remat(r, s);
}

static void build_tier_all(const chalk_point *p, chalk_record *r)
{
    tier_setup ts = tier_of(p), *s = &ts;
    bool has_hold = chalk_has(p, &F_HOLD);
    double hold = chalk_in(p, &F_HOLD);
    size_t n;
    const cost_tier *const *all = cost_tier_presets(&n);
    chalk_clear(r);
    chalk_put_maybe(r, "hold_s", "held for", CHALK_U_SECONDS, CHALK_INPUT, has_hold, hold);
    const char *no_hold = "no --hold-s given";
    for (size_t i = 0; i < n; i++) {
        chalk_put_number(r, chalk_fmt(r, "%s_drain_s", all[i]->name),
                         chalk_fmt(r, "%s drain time", all[i]->name), CHALK_U_SECONDS, CHALK_DETAIL,
                         context_drain_s(all[i]->capacity_bytes, all[i]->bytes_per_s));
        chalk_put_result(
            r, chalk_fmt(r, "%s_usd_per_gb", all[i]->name),
            chalk_fmt(r, "%s, USD per GB", all[i]->name), CHALK_U_USD, 0, has_hold,
            has_hold ? context_tier_usd_per_byte(all[i], hold) * COST_GB_BYTES : 0.0, no_hold);
    }
    put_remat(r, s);
    context_tier_choice c = {.remat = false};
    if (has_hold)
        c = context_cheapest_tier(all, n, hold, s->has_remat ? s->remat_usd_per_byte : HUGE_VAL);
    chalk_field *f = chalk_put_string(r, "cheapest_tier", "cheapest", 0,
                                      !has_hold ? NULL
                                      : c.remat      ? "remat"
                                                     : all[c.tier]->name);
    (void)f;
    chalk_put_result(r, "cheapest_usd_per_gb", "cheapest, USD per GB", CHALK_U_USD, 0,
                     has_hold, c.usd_per_byte * COST_GB_BYTES, no_hold);
}

static int run_tier(const chalk_point *p)
{
    if (tier_of(p).single)
        return chalk_emit_points(p, "chalk tier: one device's drain time and holding cost "
                                    "(lecture 6.5)",
                                 build_tier_one);
    return chalk_emit_points(p, "chalk tier: holding a cache on each memory tier (lecture 6.5)",
                             build_tier_all);
}

/* ---- price ---------------------------------------------------------------------------- */

static cost_cache_write write_of(const chalk_point *p)
{
    cost_cache_write w = COST_CACHE_WRITE_NONE;
    const char *text = chalk_text(p, &F_CACHE_WRITE);
    if (text)
        cost_cache_write_parse(text, &w);
    return w;
}

static int check_price(const chalk_point *p)
{
    cost_cache_write w;
    const char *write = chalk_text(p, &F_CACHE_WRITE);
    if (!chalk_has(p, &F_API))
        return chalk_fail("price needs --api NAME (chalk list api)");
    if (write && !cost_cache_write_parse(write, &w))
        return chalk_fail("--cache-write: \"%s\" is not none, 5m or 1h", write);
    if (!chalk_has(p, &F_INPUT) || !chalk_has(p, &F_OUTPUT))
        return chalk_fail("price needs --input-tokens I and --output-tokens O");
    double cached = chalk_in(p, &F_CACHED), input = chalk_in(p, &F_INPUT);
    if (cached > input)
        return chalk_fail("--cached-tokens (%g) exceeds --input-tokens (%g): cached "
                          "tokens are part of the prompt",
                          cached, input);
    return CHALK_OK;
}

static void build_price(const chalk_point *p, chalk_record *r)
{
    const cost_api_price *api = api_at(p);
    double input = chalk_in(p, &F_INPUT), output = chalk_in(p, &F_OUTPUT);
    double cached = chalk_in(p, &F_CACHED);
    cost_cache_write write = write_of(p);
    chalk_clear(r);
    chalk_put_string(r, "api", "price list", CHALK_INPUT, api->name);
    chalk_put_string(r, "date", "dated", CHALK_INPUT, api->date);
    chalk_put_number(r, "input_tokens", "prompt tokens", CHALK_U_TOKENS, CHALK_INPUT, input);
    chalk_put_number(r, "cached_tokens", "of which cached", CHALK_U_TOKENS, CHALK_INPUT, cached);
    chalk_put_string(r, "cache_write", "written to cache", CHALK_INPUT,
                     cost_cache_write_name(write));
    chalk_put_number(r, "output_tokens", "output tokens", CHALK_U_TOKENS, CHALK_INPUT, output);
    context_bill b = context_api_usd(api, input, output, cached, write);
    bool is_long = cost_api_has_long_tier(api) && input > api->long_threshold_tokens;
    chalk_put_string(r, "price_tier", "tier", 0, is_long ? "long" : "base");
    const char *why;
    if (write == COST_CACHE_WRITE_5M && api->cache_write_5m_usd_per_mtok <= 0.0)
        why = chalk_fmt(r,
                        "%s has no 5-minute write price (its writes bill as input: leave out "
                        "--cache-write)",
                        api->name);
    else if (write == COST_CACHE_WRITE_1H && api->cache_write_1h_usd_per_mtok <= 0.0)
        why = chalk_fmt(r,
                        "%s has no 1-hour write price (its writes bill as input: leave out "
                        "--cache-write)",
                        api->name);
    else
        why = chalk_fmt(r, "%s has no sourced cache-read price for %s prompts", api->name,
                        is_long ? "long" : "short");
    chalk_put_result(r, "input_usd", "uncached prompt", CHALK_U_USD, 0, b.exists, b.input_usd, why);
    chalk_put_result(r, "cached_usd", "cached prompt", CHALK_U_USD, 0, b.exists, b.cached_usd, why);
    chalk_put_result(r, "output_usd", "output", CHALK_U_USD, 0, b.exists, b.output_usd, why);
    chalk_put_result(r, "usd", "the bill", CHALK_U_USD, 0, b.exists, b.usd, why);
}

/* ---- the commands ---------------------------------------------------------------------------- */

#define SWEEPS CHALK_SWEEPS
#define SERVE_MODEL                                                                                \
    {&CHALK_F_MODEL}, {&CHALK_F_PARAMS_TOTAL}, {&F_PARAMS_ACTIVE}, {&CHALK_F_WEIGHT_BYTES},        \
        {&CHALK_F_KV_BYTES}, {&CHALK_F_DTYPE}, {&CHALK_F_KV_DTYPE}

static const chalk_input KV[] = {{&CHALK_F_MODEL}, {&CHALK_F_KV_BYTES}, {&CHALK_F_KV_DTYPE},
                                 {&F_LAYERS}, {&F_KV_CONTEXTS}, {&F_KV_HEADS}, {&F_HEAD_DIM},
                                 {&F_LATENT_DIM}, {&F_ROPE_DIM}, {&F_LOCAL_LAYERS}, {&F_WINDOW},
                                 {&F_SELECTED}, {&F_INDEX_DIM}, {&CHALK_F_CONTEXT, SWEEPS}, {NULL}};
static const chalk_input IMPLIED[] = {{&CHALK_F_MODEL}, {&F_PARAMS_ACTIVE}, {&CHALK_F_HW},
                                      {&CHALK_F_FLOPS}, {&CHALK_F_HBM_BPS}, {&CHALK_F_DTYPE},
                                      {&CHALK_F_KV_DTYPE}, {&F_HW_RATIO}, {&CHALK_F_WEIGHT_BYTES},
                                      {&F_COMPARE}, {&CHALK_F_CONTEXT, SWEEPS}, {NULL}};
static const chalk_input COST[] = {SERVE_MODEL, CHALK_RATE_INPUTS, {&CHALK_F_USD},
                                   {&CHALK_F_BATCH, SWEEPS}, {&CHALK_F_CONTEXT, SWEEPS}, {&F_API},
                                   {NULL}};
static const chalk_input CROSSOVER[] = {SERVE_MODEL, CHALK_RATE_INPUTS, {&CHALK_F_BATCH, SWEEPS},
                                        {&F_ATTN_LAYERS}, {&F_Q_HEADS}, {&F_QK_DIM}, {&F_V_DIM},
                                        {NULL}};
static const chalk_input PASS[] = {SERVE_MODEL, CHALK_RATE_INPUTS, {&CHALK_F_BATCH, SWEEPS},
                                   {&CHALK_F_CONTEXT, SWEEPS}, {&F_PASS, SWEEPS}, {NULL}};
static const chalk_input RATIO[] = {{&F_RATIO}, {&F_API}, {&F_LONG}, {NULL}};
static const chalk_input TIER[] = {{&F_TIER}, {&F_CAPACITY}, {&F_TIER_BPS}, {&F_TIER_USD},
                                   {&F_HOLD, SWEEPS}, {&CHALK_F_MODEL}, {&CHALK_F_PARAMS_TOTAL},
                                   {&CHALK_F_PARAMS_ACTIVE}, {&CHALK_F_KV_BYTES}, {&CHALK_F_DTYPE},
                                   {&CHALK_F_KV_DTYPE}, {&CHALK_F_HW}, {&CHALK_F_FLOPS},
                                   {&CHALK_F_USD}, {NULL}};
static const chalk_input PRICE[] = {{&F_API}, {&F_INPUT, SWEEPS}, {&F_OUTPUT}, {&F_CACHED},
                                    {&F_CACHE_WRITE}, {NULL}};

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
static const char *const ABOUT_COST[] = {
    "Time per generated token at a batch and context (lecture 6.1): the decode step over",
    "the batch,",
    "  compute = 2 x params_active / (chips x flops_per_s)                 flat",
    "  memory  = (params_total x bytes / batch + context x kv_bytes) / (chips x BW)",
    "and cost_over_flat = max(compute, memory) / compute. kink_tokens is where they meet;",
    "--api NAME adds the list's prices at a prompt of --context tokens.",
    "--context (or --batch) may be a sweep.",
    NULL};
static const char *const EXAMPLES_COST[] = {
    "chalk context-cost --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 "
    "--batch 16384 --context 1024:1e6 --csv",
    NULL};
static const char *const ABOUT_CROSSOVER[] = {
    "Where long context starts to cost (lecture 6.1, 6.6):",
    "  balance_context_tokens  = 2 x params_active x BW / (flops_per_s x kv_bytes)",
    "                            (the KV fetch meets compute, at any large batch)",
    "  kink_tokens             the same at --batch, after the batch's share of weights",
    "  attention_parity_tokens = 2 x params_active / (2 x attn_layers x q_heads x",
    "                            (qk_dim + v_dim)): attention FLOPs meet the weights'",
    NULL};
static const char *const EXAMPLES_CROSSOVER[] = {
    "chalk context-crossover --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 "
    "--batch 16384",
    "chalk context-crossover --params-active 1e11 --attn-layers 60 --q-heads 64 --qk-dim 128 "
    "--v-dim 128",
    NULL};
static const char *const ABOUT_PASS[] = {
    "A forward pass in which each sequence adds --pass-tokens new tokens (1 = decode):",
    "compute per new token is flat, the weights and the existing KV are read once per",
    "pass (lecture 6.4). crossover_pass_tokens is where the pass stops being",
    "memory-bound. --pass-tokens (or --batch, --context) may be a sweep.", NULL};
static const char *const EXAMPLES_PASS[] = {
    "chalk pass --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 --batch 1024 "
    "--context 8192 --pass-tokens 1:256:9",
    NULL};
static const char *const ABOUT_RATIO[] = {
    "An output/input price ratio X read as a cost ratio (lecture 6.4): prefill on the",
    "compute floor, decode paying memory, so decode MFU / prefill MFU = 1/X and a pass",
    "of X tokens would balance. From --output-over-input X or an --api list (--long:",
    "its long-prompt tier).", NULL};
static const char *const EXAMPLES_RATIO[] = {"chalk price-ratio --output-over-input 5",
                                             "chalk price-ratio --api gemini-3.1-pro --long", NULL};
static const char *const ABOUT_TIER[] = {
    "Holding a cache on a memory tier (lecture 6.5). One device of capacity C, bandwidth",
    "W and cost P per hour: drain_s = C / W, and a byte held --hold-s T seconds and read",
    "back once costs (P / 3600) x max(T / C, 1 / W). With --tier NAME or your own",
    "--capacity-bytes/--bytes-per-s/--usd-per-hour, that device; otherwise every preset",
    "and the cheapest. A model on priced hardware adds the cost to recompute instead",
    "(remat). --hold-s may be a sweep.",
    NULL};
static const char *const EXAMPLES_TIER[] = {
    "chalk tier --tier nvme", "chalk tier --hold-s 300", "chalk tier --hold-s 0.001:1e6 --csv",
    "chalk tier --capacity-bytes 2e12 --bytes-per-s 400e9", NULL};
static const char *const ABOUT_PRICE[] = {
    "A request's bill on a dated price list (chalk list api). The prompt's length picks",
    "the tier, and past the threshold EVERY token (input and output) pays the long",
    "price. --cached-tokens of the prompt pay the cache-read price; the rest pays the",
    "input price, or with --cache-write 5m|1h the write price. Null, with the reason,",
    "when the list has no price for what is asked. --input-tokens may be a sweep.",
    NULL};
static const char *const EXAMPLES_PRICE[] = {
    "chalk price --api gemini-3.1-pro --input-tokens 300000 --output-tokens 10000",
    "chalk price --api claude-opus-4.6 --input-tokens 100000 --cached-tokens 90000 "
    "--output-tokens 2000",
    NULL};

#define SERVE_NEEDS (CHALK_DEPLOY | CHALK_NEED_FLOPS | CHALK_NEED_BW | CHALK_NEED_KV)

static const chalk_command COMMANDS[] = {
    {.name = "kv",
     .summary = "KV cache bytes per token and per sequence (6.3)",
     .title = "chalk kv: the KV cache per token and per sequence (lecture 6.3)",
     .inputs = KV, .check = check_kv, .build = build_kv,
     .about = ABOUT_KV, .examples = EXAMPLES_KV},
    {.name = "kv-from-price",
     .summary = "the KV bytes per token a price step implies (6.2)",
     .title = "chalk kv-from-price: the KV bytes per token a price step implies (lecture 6.2)",
     .inputs = IMPLIED, .needs = CHALK_DEPLOY, .check = check_implied, .build = build_implied,
     .about = ABOUT_IMPLIED, .examples = EXAMPLES_IMPLIED},
    {.name = "context-cost",
     .summary = "time and cost per token against context (6.1)",
     .title = "chalk context-cost: time and cost per token against context (lecture 6.1)",
     .inputs = COST, .needs = SERVE_NEEDS, .check = check_context_cost,
     .build = build_context_cost, .about = ABOUT_COST, .examples = EXAMPLES_COST},
    {.name = "context-crossover",
     .summary = "where KV meets compute and attention meets weights (6.1, 6.6)",
     .title = "chalk context-crossover: where KV fetch meets compute, and attention meets the "
              "weights (lecture 6.1, 6.6)",
     .inputs = CROSSOVER, .needs = CHALK_DEPLOY, .check = check_crossover,
     .build = build_crossover, .about = ABOUT_CROSSOVER, .examples = EXAMPLES_CROSSOVER},
    {.name = "pass",
     .summary = "time per new token against the pass length (6.4)",
     .title = "chalk pass: time per new token against the pass length (lecture 6.4)",
     .inputs = PASS, .needs = SERVE_NEEDS, .check = check_pass, .build = build_pass,
     .about = ABOUT_PASS, .examples = EXAMPLES_PASS},
    {.name = "price-ratio",
     .summary = "output over input price, read as decode's utilisation (6.4)",
     .title = "chalk price-ratio: output over input price, read as a cost (lecture 6.4)",
     .inputs = RATIO, .check = check_ratio, .build = build_ratio,
     .about = ABOUT_RATIO, .examples = EXAMPLES_RATIO},
    {.name = "tier",
     .summary = "drain time and the cost of holding a cache, per tier (6.5)",
     .inputs = TIER, .needs = CHALK_DEPLOY, .check = check_tier, .run = run_tier,
     .about = ABOUT_TIER, .examples = EXAMPLES_TIER},
    {.name = "price",
     .summary = "a request's bill on a dated price list (6.7)",
     .title = "chalk price: a request's bill on a dated price list",
     .inputs = PRICE, .check = check_price, .build = build_price,
     .about = ABOUT_PRICE, .examples = EXAMPLES_PRICE},
};

static const chalk_preset_kind *const PRESET_KINDS[] = {&KIND_API, &KIND_TIER, NULL};

const chalk_chapter chalk_chapter_05_long_context = {
    .number = 5,
    .title = "long context: KV bytes read off prices, cache tiers",
    .commands = COMMANDS,
    .count = CHALK_COUNT(COMMANDS),
    .presets = PRESET_KINDS,
};
