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
#include <stdlib.h>
#include <string.h>

#include "chalk.h"
#include "context.h"

/* ---- this chapter's own flags ------------------------------------------------------------- */

#define G_SHAPE "attention shape (instead of --model)"
#define G_PRICE "price list"
#define G_TIER "memory tier"
#define G_WORK "workload"

static const chalk_flag F_PARAMS_ACTIVE = {
    .name = "--params-active",
    .arg = "N",
    .key = "params_active",
    .group = "model (a preset, flags alone, or a preset with flags overriding it)",
    .help = "parameters one token multiplies through (default: the model's, or "
            "--params-total for a dense model)",
    .min = 0,
    .max = 1e16,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_LAYERS = {
    .name = "--layers",
    .arg = "N",
    .key = "layers",
    .group = G_SHAPE,
    .help = "layers (MLA: each keeps a latent; sparse index: each keeps an index key)",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_KV_CONTEXTS = {
    .name = "--kv-contexts",
    .arg = "N",
    .key = "kv_contexts",
    .group = G_SHAPE,
    .help = "layers with their own full-context KV cache (default --layers)",
    .min = 0,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_KV_HEADS = {
    .name = "--kv-heads",
    .arg = "H",
    .key = "kv_heads",
    .group = G_SHAPE,
    .help = "key/value heads per layer (grouped-query; 1 for multi-query)",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_HEAD_DIM = {
    .name = "--head-dim",
    .arg = "D",
    .key = "head_dim",
    .group = G_SHAPE,
    .help = "width of one head",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_LATENT_DIM = {
    .name = "--latent-dim",
    .arg = "D",
    .key = "latent_dim",
    .group = G_SHAPE,
    .help = "MLA: width of the cached latent (with --layers)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_ROPE_DIM = {
    .name = "--rope-dim",
    .arg = "D",
    .key = "rope_dim",
    .group = G_SHAPE,
    .help = "MLA: width of the decoupled RoPE key (default 0)",
    .min = 0,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_LOCAL_LAYERS = {
    .name = "--local-layers",
    .arg = "N",
    .key = "local_layers",
    .group = G_SHAPE,
    .help = "sliding-window layers beside the --kv-contexts global ones (with --window)",
    .min = 0,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_WINDOW = {
    .name = "--window",
    .arg = "T",
    .key = "window_tokens",
    .group = G_SHAPE,
    .help = "tokens a local layer attends to and keeps",
    .min = 1,
    .max = 1e12,
};
static const chalk_flag F_SELECTED = {
    .name = "--selected-tokens",
    .arg = "K",
    .key = "selected_tokens",
    .group = G_SHAPE,
    .help = "sparse attention: tokens each query reads (DeepSeek-V3.2: 2048)",
    .min = 1,
    .max = 1e12,
};
static const chalk_flag F_INDEX_DIM = {
    .name = "--index-dim",
    .arg = "D",
    .key = "index_dim",
    .group = G_SHAPE,
    .help = "sparse attention: index numbers per token and layer, at --kv-dtype "
            "(DeepSeek-V3.2: 128)",
    .min = 0,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_HW_RATIO = {
    .name = "--hw-ratio",
    .arg = "R",
    .key = "hw_ratio",
    .group = "hardware (figures are per chip)",
    .help = "multiplies per weight fetched (the lecture's ~300), with --weight-bytes",
    .min = 0,
    .max = 1e9,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_COMPARE = {
    .name = "--compare-model",
    .arg = "NAME",
    .key = "compare_model",
    .group = "model (a preset, flags alone, or a preset with flags overriding it)",
    .help = "a model preset whose cache (at --kv-dtype) to set beside the implied one",
};
static const chalk_flag F_API = {
    .name = "--api",
    .arg = "NAME",
    .key = "api",
    .group = G_PRICE,
    .help = "price preset (chalk list api)",
};
static const chalk_flag F_INPUT = {
    .name = "--input-tokens",
    .arg = "I",
    .key = "input_tokens",
    .group = G_PRICE,
    .help = "prompt tokens, cached ones included; may be a sweep",
    .min = 0,
    .max = 1e12,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_OUTPUT = {
    .name = "--output-tokens",
    .arg = "O",
    .key = "output_tokens",
    .group = G_PRICE,
    .help = "generated tokens, thinking included",
    .min = 0,
    .max = 1e12,
};
static const chalk_flag F_CACHED = {
    .name = "--cached-tokens",
    .arg = "C",
    .key = "cached_tokens",
    .group = G_PRICE,
    .help = "prompt tokens read from the cache (at most --input-tokens)",
    .min = 0,
    .max = 1e12,
};
static const chalk_flag F_CACHE_WRITE = {
    .name = "--cache-write",
    .arg = "W",
    .key = "cache_write",
    .group = G_PRICE,
    .help = "none|5m|1h: write the uncached prompt to a cache entry of that life",
};
static const chalk_flag F_RATIO = {
    .name = "--output-over-input",
    .arg = "X",
    .key = "output_over_input",
    .group = G_PRICE,
    .help = "output price over input price (or --api NAME)",
    .min = 0,
    .max = 1e6,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_LONG = {
    .name = "--long",
    .arg = NULL,
    .key = "long_tier",
    .group = G_PRICE,
    .help = "with --api: the long-prompt tier's prices",
};
static const chalk_flag F_TIER = {
    .name = "--tier",
    .arg = "NAME",
    .key = "tier",
    .group = G_TIER,
    .help = "memory-tier preset (chalk list tier); without it and without "
            "--capacity-bytes, every preset",
};
static const chalk_flag F_CAPACITY = {
    .name = "--capacity-bytes",
    .arg = "C",
    .key = "capacity_bytes",
    .group = G_TIER,
    .help = "capacity of one device",
    .min = 1,
    .max = 1e18,
};
static const chalk_flag F_TIER_BPS = {
    .name = "--bytes-per-s",
    .arg = "W",
    .key = "bytes_per_s",
    .group = G_TIER,
    .help = "read bandwidth of one device",
    .min = 1,
    .max = 1e18,
};
static const chalk_flag F_TIER_USD = {
    .name = "--usd-per-hour",
    .arg = "P",
    .key = "usd_per_hour",
    .group = G_TIER,
    .help = "what one device costs per hour (rent, or price over its life)",
    .min = 0,
    .max = 1e9,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_HOLD = {
    .name = "--hold-s",
    .arg = "T",
    .key = "hold_s",
    .group = G_WORK,
    .help = "seconds a cache is held before it is read back once; may be a sweep",
    .min = 0,
    .max = 1e10,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_PASS = {
    .name = "--pass-tokens",
    .arg = "P",
    .key = "pass_tokens",
    .group = G_WORK,
    .help = "new tokens each sequence adds in one pass (1 = decode); may be a sweep",
    .min = 1,
    .max = 1e9,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_ATTN_LAYERS = {
    .name = "--attn-layers",
    .arg = "N",
    .key = "attn_layers",
    .group = G_SHAPE,
    .help = "layers whose attention reads the long context",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_Q_HEADS = {
    .name = "--q-heads",
    .arg = "H",
    .key = "q_heads",
    .group = G_SHAPE,
    .help = "query heads per layer",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_QK_DIM = {
    .name = "--qk-dim",
    .arg = "D",
    .key = "qk_dim",
    .group = G_SHAPE,
    .help = "multiply-accumulates per head to score one cached key",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_V_DIM = {
    .name = "--v-dim",
    .arg = "D",
    .key = "v_dim",
    .group = G_SHAPE,
    .help = "multiply-accumulates per head to add in one cached value",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};

static const chalk_flag F_ATTN_FLOPS = {
    .name = "--attn-flops-per-context-token",
    .arg = "F",
    .key = "attn_flops_per_context_token",
    .group = G_SHAPE,
    .help = "attention FLOPs a new token spends per token of context (default: from "
            "--model or the --attn-layers shape; 0 leaves attention's arithmetic out)",
    .min = 0,
    .max = 1e15,
};

static const chalk_flag F_ACCEPT = {
    .name = "--accept",
    .arg = "A",
    .key = "accept",
    .group = G_WORK,
    .help = "speculation: the chance each drafted token is accepted; may be a sweep",
    .min = 0,
    .max = 1,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_DRAFT_COST = {
    .name = "--draft-cost",
    .arg = "C",
    .key = "draft_cost",
    .group = G_WORK,
    .help = "speculation: drafting one token, as a share of a plain decode step (default 0)",
    .min = 0,
    .max = 1e6,
};
static const chalk_flag F_MAX_DRAFT = {
    .name = "--max-draft",
    .arg = "Q",
    .key = "max_draft",
    .group = G_WORK,
    .help = "speculation: the most tokens drafted ahead (default 16)",
    .min = 0,
    .max = 4096,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_PREFIX = {
    .name = "--prefix-tokens",
    .arg = "P",
    .key = "prefix_tokens",
    .group = G_PRICE,
    .help = "tokens of the prefix every request of the conversation sends again",
    .min = 0,
    .max = 1e12,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_TIMES = {
    .name = "--times-s",
    .arg = "T,T,...",
    .key = "request_times_s",
    .group = G_PRICE,
    .help = "when the requests are sent, seconds, comma-separated, not decreasing",
};

/* ---- small shared pieces ----------------------------------------------------------------- */

enum { SHORT_CHARS = 40 };

/* Reads a whole-number-or-decimal flag into *x when given; *given says whether it was. */
static int read_opt(const chalk_args *a, const chalk_flag *f, double *x, bool *given)
{
    *given = chalk_given(a, f);
    return *given ? chalk_number(a, f, x) : CHALK_OK;
}

/* The rows of a report: the swept input's points, or one. */
static long rows_of(const chalk_sweep *swept)
{
    return swept ? swept->points : 1;
}

static context_deploy context_of(const chalk_deploy *d, double attn_flops_per_context_token)
{
    return (context_deploy){
        .params_total = d->params_total,
        .params_active = d->params_active,
        .bytes_per_param = d->bytes_per_param,
        .kv_bytes_per_token = d->kv_bytes_per_token,
        .attn_flops_per_context_token = attn_flops_per_context_token,
        .chips = d->chips,
        .flops_per_s = d->flops_per_s,
        .hbm_bytes_per_s = d->hbm_bytes_per_s,
    };
}

/* A model preset's attention shape (MLA with absorbed projections scores in latent +
 * RoPE dimensions and sums in the latent), as f_attn, the FLOPs per context token. */
static double model_attn_flops(const cost_model *m)
{
    bool mla = m->attn == COST_ATTN_MLA;
    double qk = mla ? m->kv_lora_rank + m->rope_head_dim : m->head_dim;
    double v = mla ? m->kv_lora_rank : m->head_dim;
    return context_attention_flops_per_context_token(m->layers, m->heads, qk, v);
}

/* An unknown name of a chapter preset kind, with the nearest names. */
static int unknown_name(const char *kind, const char *name, const char *(*name_of)(size_t),
                        size_t count)
{
    const char *names[64];
    size_t n = count < 64 ? count : 64;
    for (size_t i = 0; i < n; i++)
        names[i] = name_of(i);
    char hint[512];
    chalk_suggest(hint, sizeof hint, name, names, n);
    return chalk_fail("unknown %s \"%s\"%s", kind, name, hint);
}

/* ---- presets: chalk list api, chalk list tier ------------------------------------------- */

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

static int find_api(const char *name, const cost_api_price **out)
{
    if (!(*out = cost_api_find(name)))
        return unknown_name("api", name, api_name, api_count());
    return CHALK_OK;
}

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

static const chalk_preset_kind KIND_API = {
    .word = "api",
    .alias = "apis",
    .about = "dated API prices: USD per million tokens, tiers, cache prices",
    .count = api_count,
    .name = api_name,
    .put = api_put,
};

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

static const chalk_preset_kind KIND_TIER = {
    .word = "tier",
    .alias = "tiers",
    .about = "memory tiers: one HBM, DDR, NVMe or disk device's capacity, bandwidth, cost",
    .count = tier_count,
    .name = tier_name,
    .put = tier_put,
};

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
    chalk_sweep context;
} kv_setup;

static int kv_from_model(const chalk_args *a, kv_setup *k)
{
    const char *shape_flags[] = {"--layers",     "--kv-contexts", "--kv-heads",     "--head-dim",
                                 "--latent-dim", "--rope-dim",    "--local-layers", "--window"};
    const chalk_flag *const shape[] = {&F_LAYERS,     &F_KV_CONTEXTS, &F_KV_HEADS,     &F_HEAD_DIM,
                                       &F_LATENT_DIM, &F_ROPE_DIM,    &F_LOCAL_LAYERS, &F_WINDOW};
    for (size_t i = 0; i < sizeof shape / sizeof shape[0]; i++)
        if (chalk_given(a, shape[i]))
            return chalk_fail("kv takes a shape or --model, not both (%s with --model)",
                              shape_flags[i]);
    const cost_model *m = k->model;
    k->mla = m->attn == COST_ATTN_MLA;
    k->layers = m->layers;
    k->kv_contexts = m->layers;
    k->elements_per_token = cost_model_kv_elements_per_token(m);
    k->bytes_per_token = cost_model_kv_bytes_per_token(m, k->kv_dtype);
    k->layer_bytes = k->bytes_per_token / m->layers;
    return CHALK_OK;
}

static int kv_from_shape(const chalk_args *a, kv_setup *k)
{
    double layers = 0, contexts = 0, heads = 0, dim = 0, latent = 0, rope = 0;
    bool has_layers, has_contexts, has_heads, has_dim, has_latent, has_rope, has_local, has_window;
    int status;
    if ((status = read_opt(a, &F_LAYERS, &layers, &has_layers)) ||
        (status = read_opt(a, &F_KV_CONTEXTS, &contexts, &has_contexts)) ||
        (status = read_opt(a, &F_KV_HEADS, &heads, &has_heads)) ||
        (status = read_opt(a, &F_HEAD_DIM, &dim, &has_dim)) ||
        (status = read_opt(a, &F_LATENT_DIM, &latent, &has_latent)) ||
        (status = read_opt(a, &F_ROPE_DIM, &rope, &has_rope)) ||
        (status = read_opt(a, &F_LOCAL_LAYERS, &k->local_layers, &has_local)) ||
        (status = read_opt(a, &F_WINDOW, &k->window_tokens, &has_window)))
        return status;
    if (!has_layers && !has_contexts)
        return chalk_fail("kv needs --model NAME, --kv-bytes-per-token X, or a shape with "
                          "--kv-contexts N or --layers N");
    if (has_local != has_window)
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
    k->layers = has_layers ? layers : caching_layers;
    k->elements_per_token = caching_layers * layer_elements;
    k->bytes_per_token = caching_layers * k->layer_bytes;
    return CHALK_OK;
}

static int kv_read(const chalk_args *a, kv_setup *k)
{
    *k = (kv_setup){0};
    cost_dtype dtype;
    int status = chalk_dtypes_resolve(a, &dtype, &k->kv_dtype);
    if (status)
        return status;
    const char *name = chalk_value(a, &CHALK_F_MODEL);
    bool bytes_given = chalk_given(a, &CHALK_F_KV_BYTES);
    if (name && bytes_given)
        return chalk_fail("kv takes --model or --kv-bytes-per-token, not both");
    if (name) {
        if (!(k->model = cost_model_find(name)))
            return chalk_unknown_model(name);
        status = kv_from_model(a, k);
    } else if (bytes_given) {
        k->from_bytes = true;
        status = chalk_number(a, &CHALK_F_KV_BYTES, &k->bytes_per_token);
        if (!status && (chalk_given(a, &F_KV_HEADS) || chalk_given(a, &F_LATENT_DIM) ||
                        chalk_given(a, &F_LOCAL_LAYERS) || chalk_given(a, &F_KV_CONTEXTS)))
            status = chalk_fail("kv takes a shape or --kv-bytes-per-token, not both");
        if (!status && chalk_given(a, &F_LAYERS))
            status = chalk_number(a, &F_LAYERS, &k->layers);
    } else {
        status = kv_from_shape(a, k);
    }
    if (status)
        return status;
    bool has_index;
    double index_dim = 0.0;
    if ((status = read_opt(a, &F_SELECTED, &k->selected_tokens, &k->sparse)) ||
        (status = read_opt(a, &F_INDEX_DIM, &index_dim, &has_index)))
        return status;
    if (has_index && !k->sparse)
        return chalk_fail("kv: --index-dim goes with --selected-tokens");
    if (has_index && k->layers == 0.0)
        return chalk_fail("kv: --index-dim needs the layers (--model or --layers)");
    if (k->sparse && k->local_layers > 0.0)
        return chalk_fail("kv: pick sliding windows or sparse selection, not both");
    k->index_bytes_per_token = k->layers * index_dim * cost_dtype_bytes(k->kv_dtype);
    return chalk_sweep_read(a, &CHALK_F_CONTEXT, &k->context);
}

static void build_kv(const void *ctx, long row, chalk_record *r)
{
    const kv_setup *k = ctx;
    double context = chalk_sweep_at(&k->context, row);
    chalk_clear(r);
    chalk_field *f =
        chalk_put_string(r, "model", "model", CHALK_INPUT, k->model ? k->model->name : NULL);
    if (k->model)
        chalk_note(r, f, "%s", k->model->title);
    else
        chalk_null_words(r, f, k->from_bytes ? "(bytes given)" : "(from a shape)");
    chalk_put_string(r, "kv_dtype", "KV dtype", CHALK_INPUT,
                     k->from_bytes ? NULL : cost_dtype_name(k->kv_dtype));
    chalk_put_maybe(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, k->context.given,
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
    if (k->context.given) {
        held = k->local_layers > 0.0
                   ? context_window_kv_bytes(k->kv_contexts, k->local_layers, k->window_tokens,
                                             k->layer_bytes, context)
                   : context * k->bytes_per_token;
        read = k->sparse ? context_sparse_read_bytes(k->bytes_per_token, k->index_bytes_per_token,
                                                     k->selected_tokens, context)
                         : held;
    }
    chalk_put_result(r, "kv_bytes_per_sequence", "KV of one sequence", CHALK_U_BYTES, 0,
                     k->context.given, held, no_context);
    chalk_put_result(r, "kv_bytes_per_context_token", "held per context token",
                     CHALK_U_BYTES_PER_TOKEN, CHALK_DETAIL, k->context.given && context > 0.0,
                     context > 0.0 ? held / context : 0.0,
                     k->context.given ? "a context of 0 tokens holds nothing" : no_context);
    chalk_put_result(r, "kv_read_bytes", "read per decode step", CHALK_U_BYTES, 0, k->context.given,
                     read, no_context);
}

/* Emits a report whose rows are the points of `sweep` (or one row). */
static int emit_over(const chalk_args *a, const char *title, const chalk_sweep *sweep,
                     void (*build)(const void *, long, chalk_record *), const void *ctx)
{
    const chalk_sweep *swept = sweep && chalk_sweeps(sweep) ? sweep : NULL;
    chalk_report rep = {
        .title = title, .rows = rows_of(swept), .swept = swept, .build = build, .ctx = ctx};
    return chalk_emit(a, &rep);
}

static int run_kv(const chalk_args *a)
{
    kv_setup k;
    int status = kv_read(a, &k);
    if (status)
        return status;
    status = emit_over(a, "chalk kv: the KV cache per token and per sequence (lecture 6.3)",
                       &k.context, build_kv, &k);
    chalk_sweep_free(&k.context);
    return status;
}

/* ---- kv-from-price ---------------------------------------------------------------------- */

typedef struct implied_setup {
    chalk_deploy d;
    double params_active;
    bool by_ratio;
    double hw_ratio;
    const cost_model *compare;
    chalk_sweep step;
} implied_setup;

/* N_active: --params-active, else the model's; an error when neither is given. */
static int params_active_of(const chalk_args *a, const chalk_deploy *d, double *out)
{
    if (chalk_given(a, &F_PARAMS_ACTIVE))
        return chalk_number(a, &F_PARAMS_ACTIVE, out);
    if (d->has_params) {
        *out = d->params_active;
        return CHALK_OK;
    }
    return chalk_fail("%s needs --params-active N (or --model NAME)", a->cmd->name);
}

static void build_implied(const void *ctx, long row, chalk_record *r)
{
    const implied_setup *s = ctx;
    const chalk_deploy *d = &s->d;
    double step = chalk_sweep_at(&s->step, row), beta = d->bytes_per_param;
    chalk_clear(r);
    chalk_put_number(r, "params_active", "params active", CHALK_U_PARAMS, CHALK_INPUT,
                     s->params_active);
    chalk_put_number(r, "context", "price step at", CHALK_U_TOKENS, CHALK_INPUT, step);
    chalk_put_hw_name(r, d->hw);
    chalk_put_string(r, "dtype", "dtype", CHALK_INPUT,
                     s->by_ratio ? NULL : cost_dtype_name(d->dtype));
    chalk_put_number(r, "bytes_per_param", "bytes per weight", CHALK_U_BYTES_PER_PARAM, CHALK_INPUT,
                     beta);
    double kv, flops_per_byte, ratio;
    if (s->by_ratio) {
        ratio = s->hw_ratio;
        flops_per_byte = COST_FLOPS_PER_MAC * ratio / beta; /* r multiplies per beta bytes */
        kv = context_kv_bytes_from_ratio(ratio, beta, s->params_active, step);
    } else {
        chalk_put_number(r, "flops_per_s", "peak per chip", CHALK_U_FLOPS_PER_S, CHALK_INPUT,
                         d->flops_per_s);
        chalk_put_number(r, "hbm_bytes_per_s", "HBM bandwidth", CHALK_U_BYTES_PER_S, CHALK_INPUT,
                         d->hbm_bytes_per_s);
        flops_per_byte = cost_ridge_flops_per_byte(d->flops_per_s, d->hbm_bytes_per_s);
        ratio = flops_per_byte * beta / COST_FLOPS_PER_MAC;
        kv = context_kv_bytes_from_crossover(s->params_active, step, d->flops_per_s,
                                             d->hbm_bytes_per_s);
    }
    chalk_put_number(r, "hw_ratio", "hardware ratio (multiplies per weight)", CHALK_U_PLAIN,
                     s->by_ratio ? CHALK_INPUT : 0, ratio);
    chalk_put_number(r, "flops_per_byte", "FLOPs per byte of bandwidth", CHALK_U_PLAIN, 0,
                     flops_per_byte);
    chalk_put_number(r, "kv_bytes_per_token", "implied KV per token", CHALK_U_BYTES_PER_TOKEN, 0,
                     kv);
    chalk_put_number(r, "kv_bytes_per_sequence", "one context at the step", CHALK_U_BYTES,
                     CHALK_DETAIL, kv * step);
    if (!s->compare)
        return;
    double theirs = cost_model_kv_bytes_per_token(s->compare, d->kv_dtype);
    chalk_put_string(r, "compare_model", "compared with", CHALK_INPUT, s->compare->name);
    chalk_put_number(r, "compare_kv_bytes_per_token", "its KV per token", CHALK_U_BYTES_PER_TOKEN,
                     0, theirs);
    chalk_put_number(r, "compare_over_implied", "its KV / implied", CHALK_U_RATIO, 0, theirs / kv);
}

static int run_implied(const chalk_args *a)
{
    implied_setup s = {0};
    int status = chalk_deploy_resolve(a, 0, &s.d);
    if (!status)
        status = params_active_of(a, &s.d, &s.params_active);
    if (status)
        return status;
    s.by_ratio = chalk_given(a, &F_HW_RATIO);
    if (s.by_ratio) {
        if (s.d.hw || chalk_given(a, &CHALK_F_FLOPS) || chalk_given(a, &CHALK_F_HBM_BPS))
            return chalk_fail("kv-from-price: give --hw-ratio with --weight-bytes, or the chip "
                              "(--hw, --flops-per-s, --hbm-bytes-per-s), not both");
        if (!chalk_given(a, &CHALK_F_WEIGHT_BYTES))
            return chalk_fail("kv-from-price: --hw-ratio counts multiplies per weight; give "
                              "the bytes per weight with --weight-bytes X");
        if ((status = chalk_number(a, &F_HW_RATIO, &s.hw_ratio)))
            return status;
    } else if (s.d.hw && !s.d.has_flops) {
        return chalk_fail("%s has no %s peak; pick another --dtype or pass --flops-per-s",
                          s.d.hw->name, cost_dtype_name(s.d.dtype));
    } else if (!s.d.has_flops || !s.d.has_bw) {
        return chalk_fail("kv-from-price needs the chip: --hw NAME, or --flops-per-s X and "
                          "--hbm-bytes-per-s X, or --hw-ratio R with --weight-bytes X");
    }
    const char *other = chalk_value(a, &F_COMPARE);
    if (other && !(s.compare = cost_model_find(other)))
        return chalk_unknown_model(other);
    if ((status = chalk_sweep_read(a, &CHALK_F_CONTEXT, &s.step)))
        return status;
    if (!s.step.given)
        status = chalk_fail("kv-from-price needs --context L (where the price steps, tokens)");
    for (long i = 0; !status && i < s.step.points; i++)
        if (chalk_sweep_at(&s.step, i) <= 0.0)
            status = chalk_fail("kv-from-price: --context must be > 0 (the step's place)");
    if (!status)
        status = emit_over(a,
                           "chalk kv-from-price: the KV bytes per token a price step implies "
                           "(lecture 6.2)",
                           &s.step, build_implied, &s);
    chalk_sweep_free(&s.step);
    return status;
}

/* ---- context-cost, context-crossover, pass: a deployment and its workload ------------- */

typedef struct serve_setup {
    chalk_deploy d;
    context_deploy cd;
    bool has_total; /* N_total known: the weight share and the kink */
    chalk_sweep batch, context, pass;
    const chalk_sweep *swept;
    const cost_api_price *api; /* context-cost --api: the price at each context */
    bool has_attn;     /* attention's arithmetic known (0 if left out on purpose) */
    double attn_flops; /* f_attn, FLOPs per context token */
} serve_setup;

static void serve_free(serve_setup *s)
{
    chalk_sweep_free(&s->batch);
    chalk_sweep_free(&s->context);
    chalk_sweep_free(&s->pass);
}

/* Attention's arithmetic: f_attn from --attn-flops-per-context-token, else from the
 * --attn-layers shape, else from the model preset; none (0, has_attn false) without
 * any of them: the lecture's model. */
static int attention_shape(const chalk_args *a, serve_setup *s)
{
    const chalk_flag *const shape[] = {&F_ATTN_LAYERS, &F_Q_HEADS, &F_QK_DIM, &F_V_DIM};
    double dims[4];
    int given = 0;
    for (int i = 0; i < 4; i++) {
        if (!chalk_given(a, shape[i]))
            continue;
        int status = chalk_number(a, shape[i], &dims[i]);
        if (status)
            return status;
        given++;
    }
    if (given > 0 && given < 4)
        return chalk_fail("%s: an attention shape needs all of --attn-layers, --q-heads, "
                          "--qk-dim and --v-dim",
                          a->cmd->name);
    if (chalk_given(a, &F_ATTN_FLOPS)) {
        if (given)
            return chalk_fail("%s: give --attn-flops-per-context-token or an attention shape, "
                              "not both",
                              a->cmd->name);
        s->has_attn = true;
        return chalk_number(a, &F_ATTN_FLOPS, &s->attn_flops);
    }
    if (given == 4)
        s->attn_flops = context_attention_flops_per_context_token(dims[0], dims[1], dims[2],
                                                                  dims[3]);
    else if (s->d.model)
        s->attn_flops = model_attn_flops(s->d.model);
    s->has_attn = given == 4 || s->d.model != NULL;
    return CHALK_OK;
}

/* The deployment, with N_active from --params-active when given (a dense model
 * without --params-total then has N_total = N_active), and the workload sweeps. */
static int serve_read(const chalk_args *a, unsigned needs, serve_setup *s)
{
    *s = (serve_setup){0};
    int status = chalk_deploy_resolve(a, needs & ~CHALK_NEED_PARAMS, &s->d);
    if (status)
        return status;
    s->has_total = s->d.has_params;
    bool active_given = chalk_given(a, &F_PARAMS_ACTIVE);
    if (active_given && (status = chalk_number(a, &F_PARAMS_ACTIVE, &s->d.params_active)))
        return status;
    if (active_given && !s->has_total)
        s->d.params_total = s->d.params_active;
    if (s->has_total && s->d.params_active > s->d.params_total)
        return chalk_fail("params_active (%g) exceeds params_total (%g)", s->d.params_active,
                          s->d.params_total);
    if ((needs & CHALK_NEED_PARAMS) && !s->has_total)
        return chalk_fail("%s needs --params-total N (or --model NAME)", a->cmd->name);
    if ((status = attention_shape(a, s)))
        return status;
    s->cd = context_of(&s->d, s->attn_flops);
    chalk_sweep *const inputs[] = {&s->batch, &s->context, &s->pass};
    const chalk_flag *const flags[] = {&CHALK_F_BATCH, &CHALK_F_CONTEXT, &F_PASS};
    for (int i = 0; i < 3 && !status; i++)
        status = chalk_sweep_read(a, flags[i], inputs[i]);
    if (!status)
        status = chalk_one_sweep(inputs, 3, &s->swept);
    if (status)
        serve_free(s);
    return status;
}

/* Fails naming the flag when a needed workload input is missing. */
static int need_inputs(const chalk_args *a, serve_setup *s, bool batch, bool context, bool pass)
{
    const char *cmd = a->cmd->name;
    int status = CHALK_OK;
    if (batch && !s->batch.given)
        status = chalk_fail("%s needs --batch B (sequences per step)", cmd);
    else if (context && !s->context.given)
        status = chalk_fail("%s needs --context T (tokens of context)", cmd);
    else if (pass && !s->pass.given)
        status = chalk_fail("%s needs --pass-tokens P (new tokens per sequence in a pass)", cmd);
    if (status)
        serve_free(s);
    return status;
}

static void put_serve_echo(chalk_record *r, const serve_setup *s, long row, bool pass)
{
    chalk_deploy_echo_head(r, &s->d);
    chalk_put_maybe(r, "batch", "batch", CHALK_U_SEQUENCES, CHALK_INPUT, s->batch.given,
                    chalk_sweep_at(&s->batch, row));
    if (s->context.given)
        chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT,
                         chalk_sweep_at(&s->context, row));
    if (pass)
        chalk_put_number(r, "pass_tokens", "pass length", CHALK_U_TOKENS, CHALK_INPUT,
                         chalk_sweep_at(&s->pass, row));
    chalk_deploy_echo_tail(r, &s->d, CHALK_ECHO_FLOPS);
    chalk_field *f = chalk_put_number(r, "attn_flops_per_context_token",
                                      "attention FLOPs per context token", CHALK_U_FLOPS,
                                      CHALK_INPUT, s->attn_flops);
    if (!s->has_attn)
        chalk_note(r, f, "left out: no --model, attention shape or "
                         "--attn-flops-per-context-token");
}

/* The kink at `batch` (an unbounded batch for HUGE_VAL), or why there is none. */
static const char *kink_at(chalk_record *r, const serve_setup *s, double batch, context_kink *out)
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
    if (t.memory_s >= t.compute_s) {
        chalk_human(share, sizeof share, CHALK_U_SECONDS, t.memory_s);
        chalk_human(compute, sizeof compute, CHALK_U_SECONDS, t.compute_s);
        return chalk_fmt(r,
                         "at this batch each token's share of the weight fetch (%s) already "
                         "reaches its arithmetic (%s): memory-bound at every context",
                         share, compute);
    }
    /* the two slopes, per token of context: one more token of context */
    context_token_time t1 = context_time_per_token(&s->cd, batch, 1.0);
    chalk_human(share, sizeof share, CHALK_U_SECONDS, t1.memory_s - t.memory_s);
    chalk_human(compute, sizeof compute, CHALK_U_SECONDS, t1.compute_s - t.compute_s);
    return chalk_fmt(r,
                     "attention's arithmetic for one more token of context (%s) takes at least "
                     "as long as fetching its cache (%s): compute-bound at every context",
                     compute, share);
}

static void put_token_time(chalk_record *r, context_token_time t)
{
    chalk_put_number(r, "compute_s", "compute per token", CHALK_U_SECONDS, 0, t.compute_s);
    chalk_put_number(r, "memory_s", "memory per token", CHALK_U_SECONDS, 0, t.memory_s);
    chalk_put_number(r, "time_s", "time per token", CHALK_U_SECONDS, 0, t.time_s);
    chalk_put_string(r, "bound", "bound", 0, cost_bound_name(t.bound));
}

/* ---- context-cost ---------------------------------------------------------------------- */

static void build_context_cost(const void *ctx, long row, chalk_record *r)
{
    const serve_setup *s = ctx;
    double batch = chalk_sweep_at(&s->batch, row), context = chalk_sweep_at(&s->context, row);
    chalk_clear(r);
    put_serve_echo(r, s, row, false);
    context_token_time t = context_time_per_token(&s->cd, batch, context);
    put_token_time(r, t);
    /* the flat cost: a token's weight arithmetic alone, at zero context */
    double flat_s = context_time_per_token(&s->cd, batch, 0.0).compute_s;
    chalk_put_number(r, "cost_over_flat", "cost / flat cost", CHALK_U_RATIO, 0, t.time_s / flat_s);
    context_kink k;
    const char *why = kink_at(r, s, batch, &k);
    chalk_put_result(r, "kink_tokens", "kink", CHALK_U_TOKENS, CHALK_DETAIL, k.exists, k.tokens,
                     why);
    /* if the tokens read grew as the square root of the context past the kink */
    double sparse_ctx = k.exists && context > k.tokens ? sqrt(context * k.tokens) : context;
    context_token_time sparse = context_time_per_token(&s->cd, batch, sparse_ctx);
    chalk_put_result(r, "sqrt_sparse_cost_over_flat", "cost / flat, reads as sqrt past the kink",
                     CHALK_U_RATIO, CHALK_DETAIL, k.exists, sparse.time_s / flat_s, why);
    const char *no_price = chalk_fmt(r, "no price for %s; pass --usd-per-chip-hour",
                                     s->d.hw ? s->d.hw->name : "this hardware");
    chalk_put_result(r, "usd_per_mtok", "cost", CHALK_U_USD_PER_MTOK, 0, s->d.has_price,
                     s->d.chips * s->d.usd_per_chip_hour * t.time_s / COST_HOUR_S * 1e6, no_price);
    const cost_api_price *p = s->api;
    bool is_long = p && cost_api_has_long_tier(p) && context > p->long_threshold_tokens;
    const cost_price_tier *tier = p ? (is_long ? &p->long_prompt : &p->base) : NULL;
    const char *no_api = "no --api given";
    chalk_put_result(r, "price_input_usd_per_mtok", "input price at this prompt length",
                     CHALK_U_USD_PER_MTOK, CHALK_DETAIL, p != NULL,
                     p ? tier->input_usd_per_mtok : 0.0, no_api);
    chalk_put_result(r, "price_output_usd_per_mtok", "output price at this prompt length",
                     CHALK_U_USD_PER_MTOK, CHALK_DETAIL, p != NULL,
                     p ? tier->output_usd_per_mtok : 0.0, no_api);
    chalk_put_result(r, "price_input_over_base", "input price / short-prompt price", CHALK_U_RATIO,
                     CHALK_DETAIL, p != NULL,
                     p ? tier->input_usd_per_mtok / p->base.input_usd_per_mtok : 0.0, no_api);
    chalk_put_result(r, "price_output_over_base", "output price / short-prompt price",
                     CHALK_U_RATIO, CHALK_DETAIL, p != NULL,
                     p ? tier->output_usd_per_mtok / p->base.output_usd_per_mtok : 0.0, no_api);
}

static int run_context_cost(const chalk_args *a)
{
    serve_setup s;
    int status =
        serve_read(a, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW | CHALK_NEED_KV, &s);
    if (status || (status = need_inputs(a, &s, true, true, false)))
        return status;
    const char *api = chalk_value(a, &F_API);
    if (api && (status = find_api(api, &s.api))) {
        serve_free(&s);
        return status;
    }
    chalk_report rep = {
        .title = "chalk context-cost: time and cost per token against context (lecture 6.1)",
        .rows = rows_of(s.swept),
        .swept = s.swept,
        .build = build_context_cost,
        .ctx = &s,
    };
    status = chalk_emit(a, &rep);
    serve_free(&s);
    return status;
}

/* ---- context-crossover ----------------------------------------------------------------- */

static void build_crossover(const void *ctx, long row, chalk_record *r)
{
    const serve_setup *s = ctx;
    (void)row;
    chalk_clear(r);
    put_serve_echo(r, s, 0, false);
    context_kink k;
    const char *why = kink_at(r, s, HUGE_VAL, &k);
    chalk_put_result(r, "balance_context_tokens", "KV fetch meets compute (any batch)",
                     CHALK_U_TOKENS, 0, k.exists, k.tokens, why);
    double batch = chalk_sweep_at(&s->batch, 0);
    why = s->batch.given ? kink_at(r, s, batch, &k) : "no --batch given";
    if (!s->batch.given)
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
    bool parity = s->has_attn && s->attn_flops > 0.0;
    chalk_put_result(r, "attention_parity_tokens", "attention meets the weights", CHALK_U_TOKENS, 0,
                     parity,
                     parity ? context_attention_parity_tokens(s->d.params_active, s->attn_flops)
                            : 0.0,
                     s->has_attn ? "attention's arithmetic left out (0 FLOPs)" : no_shape);
}

static int run_crossover(const chalk_args *a)
{
    serve_setup s;
    int status = serve_read(a, 0, &s);
    if (status)
        return status;
    if (!s.d.has_params && !chalk_given(a, &F_PARAMS_ACTIVE))
        status = chalk_fail("context-crossover needs --params-active N (or --model NAME)");
    else if (s.swept)
        status = chalk_fail("context-crossover takes single values, not a sweep");
    else if (chalk_given(a, &CHALK_F_CONTEXT) || chalk_given(a, &F_PASS))
        status = chalk_fail("context-crossover computes contexts: it takes no --context");
    if (!status)
        status = emit_over(a,
                           "chalk context-crossover: where KV fetch meets compute, and attention "
                           "meets the weights (lecture 6.1, 6.6)",
                           NULL, build_crossover, &s);
    serve_free(&s);
    return status;
}

/* ---- pass ---------------------------------------------------------------------------------- */

static void build_pass(const void *ctx, long row, chalk_record *r)
{
    const serve_setup *s = ctx;
    double batch = chalk_sweep_at(&s->batch, row), context = chalk_sweep_at(&s->context, row);
    double pass = chalk_sweep_at(&s->pass, row);
    chalk_clear(r);
    put_serve_echo(r, s, row, true);
    context_token_time t = context_pass_time_per_token(&s->cd, batch, context, pass);
    put_token_time(r, t);
    chalk_put_number(r, "mfu", "MFU (compute / time)", CHALK_U_FRACTION, 0, t.compute_s / t.time_s);
    chalk_put_number(r, "crossover_pass_tokens", "balanced pass length", CHALK_U_TOKENS, 0,
                     context_crossover_pass_tokens(&s->cd, batch, context));
}

static int run_pass(const chalk_args *a)
{
    serve_setup s;
    int status =
        serve_read(a, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW | CHALK_NEED_KV, &s);
    if (status || (status = need_inputs(a, &s, true, true, true)))
        return status;
    status = emit_over(a, "chalk pass: time per new token against the pass length (lecture 6.4)",
                       s.swept, build_pass, &s);
    serve_free(&s);
    return status;
}

/* ---- price-ratio ------------------------------------------------------------------------ */

typedef struct ratio_setup {
    const cost_api_price *api;
    bool long_tier;
    double ratio;
} ratio_setup;

static void build_ratio(const void *ctx, long row, chalk_record *r)
{
    const ratio_setup *s = ctx;
    (void)row;
    chalk_clear(r);
    chalk_put_string(r, "api", "price list", CHALK_INPUT, s->api ? s->api->name : NULL);
    chalk_put_string(r, "date", "dated", CHALK_INPUT, s->api ? s->api->date : NULL);
    chalk_put_string(r, "tier", "tier", CHALK_INPUT,
                     s->api ? (s->long_tier ? "long" : "base") : NULL);
    chalk_put_number(r, "output_over_input", "output / input price", CHALK_U_RATIO, CHALK_INPUT,
                     s->ratio);
    context_price_ratio p = context_read_price_ratio(s->ratio);
    const char *why = "a ratio below 1 has no reading: on the roofline a decode token never "
                      "costs less than a prefill token";
    chalk_put_result(r, "decode_mfu_over_prefill", "decode MFU / prefill MFU", CHALK_U_FRACTION, 0,
                     p.exists, p.decode_mfu_over_prefill, why);
    chalk_put_result(r, "crossover_pass_tokens", "balanced pass length", CHALK_U_TOKENS, 0,
                     p.exists, p.crossover_pass_tokens, why);
}

static int run_ratio(const chalk_args *a)
{
    ratio_setup s = {0};
    const char *api = chalk_value(a, &F_API);
    bool given = chalk_given(a, &F_RATIO);
    s.long_tier = chalk_given(a, &F_LONG);
    if (!api == !given)
        return chalk_fail("price-ratio needs one of --output-over-input X or --api NAME");
    if (given) {
        if (s.long_tier)
            return chalk_fail("price-ratio: --long picks a tier of an --api price list");
        int status = chalk_number(a, &F_RATIO, &s.ratio);
        if (status)
            return status;
    } else {
        int status = find_api(api, &s.api);
        if (status)
            return status;
        if (s.long_tier && !cost_api_has_long_tier(s.api))
            return chalk_fail("price-ratio: %s has one tier only (leave out --long)", s.api->name);
        const cost_price_tier *t = s.long_tier ? &s.api->long_prompt : &s.api->base;
        s.ratio = t->output_usd_per_mtok / t->input_usd_per_mtok;
    }
    return emit_over(a, "chalk price-ratio: output over input price, read as a cost (lecture 6.4)",
                     NULL, build_ratio, &s);
}

/* ---- tier ------------------------------------------------------------------------------- */

typedef struct tier_setup {
    const cost_tier *preset; /* --tier, possibly overridden */
    cost_tier one;           /* the one tier asked for */
    bool single, has_price;
    chalk_sweep hold;
    chalk_deploy d;
    bool has_remat, has_context;
    double remat_usd_per_byte, kv_bytes_per_token, context_tokens;
} tier_setup;

static void put_remat(chalk_record *r, const tier_setup *s)
{
    const char *why = !s->has_context
                          ? "no --context: recomputing depends on the context it rebuilds"
                          : "no model on hardware with a price: pass --model, --hw (or "
                            "--flops-per-s) and --usd-per-chip-hour";
    chalk_put_maybe(r, "context", "context rebuilt", CHALK_U_TOKENS, CHALK_INPUT, s->has_context,
                    s->context_tokens);
    chalk_put_result(r, "remat_usd_per_gb", "recompute, per GB of cache", CHALK_U_USD, 0,
                     s->has_remat, s->remat_usd_per_byte * COST_GB_BYTES, why);
    chalk_put_result(r, "remat_usd_per_mtok", "recompute, per million tokens", CHALK_U_USD, 0,
                     s->has_remat, s->remat_usd_per_byte * s->kv_bytes_per_token * 1e6, why);
}

static void build_tier_one(const void *ctx, long row, chalk_record *r)
{
    const tier_setup *s = ctx;
    const cost_tier *t = &s->one;
    double hold = chalk_sweep_at(&s->hold, row);
    chalk_clear(r);
    chalk_put_string(r, "tier", "tier", CHALK_INPUT, s->preset ? s->preset->name : NULL);
    chalk_put_string(r, "title", "device", CHALK_DETAIL, s->preset ? t->title : NULL);
    chalk_put_number(r, "capacity_bytes", "capacity", CHALK_U_BYTES, CHALK_INPUT,
                     t->capacity_bytes);
    chalk_put_number(r, "bytes_per_s", "bandwidth", CHALK_U_BYTES_PER_S, CHALK_INPUT,
                     t->bytes_per_s);
    chalk_put_maybe(r, "usd_per_hour", "USD per device-hour", CHALK_U_USD, CHALK_INPUT,
                    s->has_price, t->usd_per_hour);
    chalk_put_maybe(r, "hold_s", "held for", CHALK_U_SECONDS, CHALK_INPUT, s->hold.given, hold);
    chalk_put_number(r, "drain_s", "drain time", CHALK_U_SECONDS, 0,
                     context_drain_s(t->capacity_bytes, t->bytes_per_s));
    bool known = s->has_price && s->hold.given;
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

static void build_tier_all(const void *ctx, long row, chalk_record *r)
{
    const tier_setup *s = ctx;
    double hold = chalk_sweep_at(&s->hold, row);
    size_t n;
    const cost_tier *const *all = cost_tier_presets(&n);
    chalk_clear(r);
    chalk_put_maybe(r, "hold_s", "held for", CHALK_U_SECONDS, CHALK_INPUT, s->hold.given, hold);
    const char *no_hold = "no --hold-s given";
    for (size_t i = 0; i < n; i++) {
        chalk_put_number(r, chalk_fmt(r, "%s_drain_s", all[i]->name),
                         chalk_fmt(r, "%s drain time", all[i]->name), CHALK_U_SECONDS, CHALK_DETAIL,
                         context_drain_s(all[i]->capacity_bytes, all[i]->bytes_per_s));
        chalk_put_result(
            r, chalk_fmt(r, "%s_usd_per_gb", all[i]->name),
            chalk_fmt(r, "%s, USD per GB", all[i]->name), CHALK_U_USD, 0, s->hold.given,
            s->hold.given ? context_tier_usd_per_byte(all[i], hold) * COST_GB_BYTES : 0.0, no_hold);
    }
    put_remat(r, s);
    context_tier_choice c = {.remat = false};
    if (s->hold.given)
        c = context_cheapest_tier(all, n, hold, s->has_remat ? s->remat_usd_per_byte : HUGE_VAL);
    chalk_field *f = chalk_put_string(r, "cheapest_tier", "cheapest", 0,
                                      !s->hold.given ? NULL
                                      : c.remat      ? "remat"
                                                     : all[c.tier]->name);
    (void)f;
    chalk_put_result(r, "cheapest_usd_per_gb", "cheapest, USD per GB", CHALK_U_USD, 0,
                     s->hold.given, c.usd_per_byte * COST_GB_BYTES, no_hold);
}

static int run_tier(const chalk_args *a)
{
    tier_setup s = {0};
    int status = chalk_deploy_resolve(a, 0, &s.d);
    if (status)
        return status;
    s.kv_bytes_per_token = s.d.has_kv ? s.d.kv_bytes_per_token : 0.0;
    double attn = s.d.model ? model_attn_flops(s.d.model) : 0.0;
    bool attn_given;
    if ((status = read_opt(a, &F_ATTN_FLOPS, &attn, &attn_given)))
        return status;
    if ((status = read_opt(a, &CHALK_F_CONTEXT, &s.context_tokens, &s.has_context)))
        return status;
    if (s.has_context && s.context_tokens < 1)
        return chalk_fail("tier: --context counts the tokens recomputing rebuilds: at least 1");
    s.has_remat = s.has_context && s.d.has_params && s.d.has_flops && s.d.has_price &&
                  s.kv_bytes_per_token > 0.0;
    if (s.has_remat) {
        context_deploy cd = context_of(&s.d, attn);
        s.remat_usd_per_byte =
            context_remat_usd_per_byte(&cd, s.context_tokens, s.d.usd_per_chip_hour);
    }
    const char *name = chalk_value(a, &F_TIER);
    if (name && !(s.preset = cost_tier_find(name)))
        return unknown_name("tier", name, tier_name, tier_count());
    bool custom =
        chalk_given(a, &F_CAPACITY) || chalk_given(a, &F_TIER_BPS) || chalk_given(a, &F_TIER_USD);
    s.single = s.preset || custom;
    if (s.single) {
        if (s.preset)
            s.one = *s.preset;
        else if (!chalk_given(a, &F_CAPACITY) || !chalk_given(a, &F_TIER_BPS))
            return chalk_fail("tier: a device of your own needs --capacity-bytes C and "
                              "--bytes-per-s W (or pick --tier NAME)");
        s.has_price = s.preset || chalk_given(a, &F_TIER_USD);
        if ((status = chalk_number(a, &F_CAPACITY, &s.one.capacity_bytes)) ||
            (status = chalk_number(a, &F_TIER_BPS, &s.one.bytes_per_s)) ||
            (status = chalk_number(a, &F_TIER_USD, &s.one.usd_per_hour)))
            return status;
    }
    if ((status = chalk_sweep_read(a, &F_HOLD, &s.hold)))
        return status;
    status = emit_over(a,
                       s.single ? "chalk tier: one device's drain time and holding cost "
                                  "(lecture 6.5)"
                                : "chalk tier: holding a cache on each memory tier (lecture 6.5)",
                       &s.hold, s.single ? build_tier_one : build_tier_all, &s);
    chalk_sweep_free(&s.hold);
    return status;
}

/* ---- price ---------------------------------------------------------------------------- */

typedef struct price_setup {
    const cost_api_price *api;
    chalk_sweep input;
    double output, cached;
    cost_cache_write write;
} price_setup;

static void build_price(const void *ctx, long row, chalk_record *r)
{
    const price_setup *s = ctx;
    const cost_api_price *p = s->api;
    double input = chalk_sweep_at(&s->input, row);
    chalk_clear(r);
    chalk_put_string(r, "api", "price list", CHALK_INPUT, p->name);
    chalk_put_string(r, "date", "dated", CHALK_INPUT, p->date);
    chalk_put_number(r, "input_tokens", "prompt tokens", CHALK_U_TOKENS, CHALK_INPUT, input);
    chalk_put_number(r, "cached_tokens", "of which cached", CHALK_U_TOKENS, CHALK_INPUT, s->cached);
    chalk_put_string(r, "cache_write", "written to cache", CHALK_INPUT,
                     cost_cache_write_name(s->write));
    chalk_put_number(r, "output_tokens", "output tokens", CHALK_U_TOKENS, CHALK_INPUT, s->output);
    context_bill b = context_api_usd(p, input, s->output, s->cached, s->write);
    bool is_long = cost_api_has_long_tier(p) && input > p->long_threshold_tokens;
    chalk_put_string(r, "tier", "tier", 0, is_long ? "long" : "base");
    chalk_put_bool(r, "long_tier", "billed at the long tier", CHALK_DETAIL, is_long);
    const char *why;
    if (s->write == COST_CACHE_WRITE_5M && p->cache_write_5m_usd_per_mtok <= 0.0)
        why = chalk_fmt(r,
                        "%s has no 5-minute write price (its writes bill as input: leave out "
                        "--cache-write)",
                        p->name);
    else if (s->write == COST_CACHE_WRITE_1H && p->cache_write_1h_usd_per_mtok <= 0.0)
        why = chalk_fmt(r,
                        "%s has no 1-hour write price (its writes bill as input: leave out "
                        "--cache-write)",
                        p->name);
    else
        why = chalk_fmt(r, "%s has no sourced cache-read price for %s prompts", p->name,
                        is_long ? "long" : "short");
    chalk_put_result(r, "input_usd", "uncached prompt", CHALK_U_USD, 0, b.exists, b.input_usd, why);
    chalk_put_result(r, "cached_usd", "cached prompt", CHALK_U_USD, 0, b.exists, b.cached_usd, why);
    chalk_put_result(r, "output_usd", "output", CHALK_U_USD, 0, b.exists, b.output_usd, why);
    chalk_put_result(r, "usd", "the bill", CHALK_U_USD, 0, b.exists, b.usd, why);
}

static int run_price(const chalk_args *a)
{
    price_setup s = {.write = COST_CACHE_WRITE_NONE};
    const char *api = chalk_value(a, &F_API), *write = chalk_value(a, &F_CACHE_WRITE);
    if (!api)
        return chalk_fail("price needs --api NAME (chalk list api)");
    int status = find_api(api, &s.api);
    if (status)
        return status;
    if (write && !cost_cache_write_parse(write, &s.write))
        return chalk_fail("--cache-write: \"%s\" is not none, 5m or 1h", write);
    if (!chalk_given(a, &F_INPUT) || !chalk_given(a, &F_OUTPUT))
        return chalk_fail("price needs --input-tokens I and --output-tokens O");
    if ((status = chalk_number(a, &F_OUTPUT, &s.output)) ||
        (status = chalk_number(a, &F_CACHED, &s.cached)) ||
        (status = chalk_sweep_read(a, &F_INPUT, &s.input)))
        return status;
    for (long i = 0; !status && i < s.input.points; i++)
        if (s.cached > chalk_sweep_at(&s.input, i))
            status = chalk_fail("--cached-tokens (%g) exceeds --input-tokens (%g): cached "
                                "tokens are part of the prompt",
                                s.cached, chalk_sweep_at(&s.input, i));
    if (!status)
        status = emit_over(a, "chalk price: a request's bill on a dated price list", &s.input,
                           build_price, &s);
    chalk_sweep_free(&s.input);
    return status;
}

/* ---- draft ----------------------------------------------------------------------------- */

typedef struct draft_setup {
    serve_setup s;
    chalk_sweep accept;
    double draft_cost, max_draft;
} draft_setup;

static void build_draft(const void *ctx, long row, chalk_record *r)
{
    const draft_setup *g = ctx;
    const serve_setup *s = &g->s;
    double batch = chalk_sweep_at(&s->batch, 0), context = chalk_sweep_at(&s->context, 0);
    double accept = chalk_sweep_at(&g->accept, row);
    chalk_clear(r);
    put_serve_echo(r, s, 0, false);
    chalk_put_number(r, "accept", "chance a guess is kept", CHALK_U_FRACTION, CHALK_INPUT, accept);
    chalk_put_number(r, "draft_cost", "draft cost (plain steps)", CHALK_U_PLAIN, CHALK_INPUT,
                     g->draft_cost);
    chalk_put_number(r, "max_draft", "at most", CHALK_U_TOKENS, CHALK_INPUT, g->max_draft);
    chalk_put_number(r, "crossover_pass_tokens", "balanced pass length", CHALK_U_TOKENS, 0,
                     context_crossover_pass_tokens(&s->cd, batch, context));
    context_draft_plan p =
        context_best_draft(&s->cd, batch, context, accept, g->draft_cost, (int)g->max_draft);
    chalk_put_number(r, "draft_tokens", "best draft length", CHALK_U_TOKENS, 0, p.draft_tokens);
    chalk_put_number(r, "tokens_per_step", "tokens a step keeps", CHALK_U_TOKENS, 0,
                     p.tokens_per_step);
    chalk_put_number(r, "s_per_token", "time between a sequence's tokens", CHALK_U_SECONDS, 0,
                     p.s_per_token);
    chalk_put_number(r, "speedup", "speed-up over plain decode", CHALK_U_RATIO, 0, p.speedup);
    chalk_put_bool(r, "speculation_pays", "drafting beats plain decode", CHALK_DETAIL,
                   p.draft_tokens > 0);
}

static int run_draft(const chalk_args *a)
{
    draft_setup g = {.max_draft = 16};
    int status = serve_read(a, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW |
                                   CHALK_NEED_KV,
                            &g.s);
    if (status || (status = need_inputs(a, &g.s, true, true, false)))
        return status;
    bool given;
    if (g.s.swept)
        status = chalk_fail("draft: only --accept may be a sweep");
    if (!status && (status = read_opt(a, &F_DRAFT_COST, &g.draft_cost, &given)) == CHALK_OK)
        status = read_opt(a, &F_MAX_DRAFT, &g.max_draft, &given);
    if (!status && !chalk_given(a, &F_ACCEPT))
        status = chalk_fail("draft needs --accept A (the chance a guess is kept)");
    if (!status)
        status = chalk_sweep_read(a, &F_ACCEPT, &g.accept);
    if (!status)
        status = emit_over(a,
                           "chalk draft: the draft length that makes speculative decoding "
                           "fastest (book 5.4)",
                           &g.accept, build_draft, &g);
    chalk_sweep_free(&g.accept);
    serve_free(&g.s);
    return status;
}

/* ---- cache-schedule --------------------------------------------------------------------- */

typedef struct schedule_setup {
    const cost_api_price *api;
    double prefix_tokens;
    size_t count;
    double times[CONTEXT_SCHEDULE_MAX_REQUESTS];
} schedule_setup;

static const char *const ACTION_WORDS[] = {
    [CONTEXT_SEND_UNCACHED] = "uncached",
    [CONTEXT_READ_CACHE] = "hit",
    [CONTEXT_WRITE_5M] = "write-5m",
    [CONTEXT_WRITE_1H] = "write-1h",
};

static void build_schedule(const void *ctx, long row, chalk_record *r)
{
    const schedule_setup *g = ctx;
    (void)row;
    context_cache_action actions[CONTEXT_SCHEDULE_MAX_REQUESTS];
    chalk_clear(r);
    chalk_put_string(r, "api", "price list", CHALK_INPUT, g->api->name);
    chalk_put_string(r, "date", "dated", CHALK_INPUT, g->api->date);
    chalk_put_number(r, "prefix_tokens", "prefix", CHALK_U_TOKENS, CHALK_INPUT, g->prefix_tokens);
    chalk_put_number(r, "requests", "requests", CHALK_U_COUNT, CHALK_INPUT, (double)g->count);
    double usd = context_cheapest_cache_schedule(g->api, g->prefix_tokens, g->times, g->count,
                                                 actions);
    context_bill one = context_api_usd(g->api, g->prefix_tokens, 0, 0, COST_CACHE_WRITE_NONE);
    double writes = 0, hits = 0;
    char words[CONTEXT_SCHEDULE_MAX_REQUESTS * 10] = "";
    size_t used = 0;
    for (size_t i = 0; i < g->count; i++) {
        writes += actions[i] == CONTEXT_WRITE_5M || actions[i] == CONTEXT_WRITE_1H;
        hits += actions[i] == CONTEXT_READ_CACHE;
        int n = snprintf(words + used, sizeof words - used, "%s%s", i ? " " : "",
                         ACTION_WORDS[actions[i]]);
        used += n > 0 ? (size_t)n : 0;
    }
    chalk_put_string(r, "schedule", "schedule", 0, words);
    chalk_put_number(r, "writes", "cache writes", CHALK_U_COUNT, 0, writes);
    chalk_put_number(r, "hits", "cache hits", CHALK_U_COUNT, 0, hits);
    chalk_put_bool(r, "caches", "the schedule uses the cache", CHALK_DETAIL, writes > 0);
    chalk_put_number(r, "usd", "the prefix's bill", CHALK_U_USD, 0, usd);
    chalk_put_number(r, "uncached_usd", "sent uncached every time", CHALK_U_USD, 0,
                     one.usd * (double)g->count);
}

/* Reads "t0,t1,..." into g->times: numbers, not decreasing, at most the contract's
 * limit. */
static int read_times(const char *text, schedule_setup *g)
{
    const char *p = text;
    g->count = 0;
    while (*p) {
        char *end;
        double t = strtod(p, &end);
        if (end == p || !isfinite(t) || t < 0)
            return chalk_fail("--times-s: \"%s\" is not a list of seconds >= 0 (e.g. 0,240,480)",
                              text);
        if (g->count == CONTEXT_SCHEDULE_MAX_REQUESTS)
            return chalk_fail("--times-s: at most %d requests", CONTEXT_SCHEDULE_MAX_REQUESTS);
        if (g->count > 0 && t < g->times[g->count - 1])
            return chalk_fail("--times-s: %g comes before %g: times must not decrease", t,
                              g->times[g->count - 1]);
        g->times[g->count++] = t;
        p = end;
        if (*p == ',')
            p++;
        else if (*p)
            return chalk_fail("--times-s: \"%s\" is not a list of seconds >= 0 (e.g. 0,240,480)",
                              text);
    }
    if (g->count == 0)
        return chalk_fail("--times-s: no request times");
    return CHALK_OK;
}

static int run_schedule(const chalk_args *a)
{
    schedule_setup g = {0};
    const char *api = chalk_value(a, &F_API), *times = chalk_value(a, &F_TIMES);
    if (!api)
        return chalk_fail("cache-schedule needs --api NAME (chalk list api)");
    int status = find_api(api, &g.api);
    if (status)
        return status;
    if (!chalk_given(a, &F_PREFIX) || !times)
        return chalk_fail("cache-schedule needs --prefix-tokens P and --times-s T,T,...");
    if ((status = chalk_number(a, &F_PREFIX, &g.prefix_tokens)) || (status = read_times(times, &g)))
        return status;
    return emit_over(a, "chalk cache-schedule: the cheapest way to cache a conversation's prefix "
                        "(book 5.8)",
                     NULL, build_schedule, &g);
}

/* ---- the commands ---------------------------------------------------------------------------- */

static const chalk_flag *const KV_FLAGS[] = {
    &CHALK_F_MODEL, &CHALK_F_KV_BYTES, &CHALK_F_KV_DTYPE, &F_LAYERS,        &F_KV_CONTEXTS,
    &F_KV_HEADS,    &F_HEAD_DIM,       &F_LATENT_DIM,     &F_ROPE_DIM,      &F_LOCAL_LAYERS,
    &F_WINDOW,      &F_SELECTED,       &F_INDEX_DIM,      &CHALK_F_CONTEXT, NULL};
static const chalk_flag *const IMPLIED_FLAGS[] = {
    &CHALK_F_MODEL,        &F_PARAMS_ACTIVE, &CHALK_F_HW,       &CHALK_F_FLOPS,
    &CHALK_F_HBM_BPS,      &CHALK_F_DTYPE,   &CHALK_F_KV_DTYPE, &F_HW_RATIO,
    &CHALK_F_WEIGHT_BYTES, &F_COMPARE,       &CHALK_F_CONTEXT,  NULL};
#define SERVE_MODEL_FLAGS                                                                          \
    &CHALK_F_MODEL, &CHALK_F_PARAMS_TOTAL, &F_PARAMS_ACTIVE, &CHALK_F_WEIGHT_BYTES,                \
        &CHALK_F_KV_BYTES, &CHALK_F_DTYPE, &CHALK_F_KV_DTYPE
#define ATTN_FLAGS &F_ATTN_LAYERS, &F_Q_HEADS, &F_QK_DIM, &F_V_DIM, &F_ATTN_FLOPS
static const chalk_flag *const COST_FLAGS[] = {
    SERVE_MODEL_FLAGS, ATTN_FLAGS, CHALK_RATE_FLAGS, &CHALK_F_USD, &CHALK_F_BATCH,
    &CHALK_F_CONTEXT,  &F_API,     NULL};
static const chalk_flag *const CROSSOVER_FLAGS[] = {SERVE_MODEL_FLAGS, ATTN_FLAGS,
                                                    CHALK_RATE_FLAGS,  &CHALK_F_BATCH, NULL};
static const chalk_flag *const PASS_FLAGS[] = {SERVE_MODEL_FLAGS, ATTN_FLAGS,       CHALK_RATE_FLAGS,
                                               &CHALK_F_BATCH,    &CHALK_F_CONTEXT, &F_PASS,
                                               NULL};
static const chalk_flag *const DRAFT_FLAGS[] = {
    SERVE_MODEL_FLAGS, ATTN_FLAGS,     CHALK_RATE_FLAGS, &CHALK_F_BATCH, &CHALK_F_CONTEXT,
    &F_ACCEPT,         &F_DRAFT_COST, &F_MAX_DRAFT,     NULL};
static const chalk_flag *const SCHEDULE_FLAGS[] = {&F_API, &F_PREFIX, &F_TIMES, NULL};
static const chalk_flag *const RATIO_FLAGS[] = {&F_RATIO, &F_API, &F_LONG, NULL};
static const chalk_flag *const TIER_FLAGS[] = {&F_TIER,
                                               &F_CAPACITY,
                                               &F_TIER_BPS,
                                               &F_TIER_USD,
                                               &F_HOLD,
                                               &CHALK_F_MODEL,
                                               &CHALK_F_PARAMS_TOTAL,
                                               &CHALK_F_PARAMS_ACTIVE,
                                               &CHALK_F_KV_BYTES,
                                               &CHALK_F_DTYPE,
                                               &CHALK_F_KV_DTYPE,
                                               &CHALK_F_HW,
                                               &CHALK_F_FLOPS,
                                               &CHALK_F_USD,
                                               &CHALK_F_CONTEXT,
                                               &F_ATTN_FLOPS,
                                               NULL};
static const chalk_flag *const PRICE_FLAGS[] = {&F_API,    &F_INPUT,       &F_OUTPUT,
                                                &F_CACHED, &F_CACHE_WRITE, NULL};

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
    "Time per generated token at a batch and context (lecture 6.1; book 5.1): the decode",
    "step over the batch,",
    "  compute = (2 x params_active + context x f_attn) / (chips x flops_per_s)",
    "  memory  = (params_total x bytes / batch + context x kv_bytes) / (chips x BW)",
    "f_attn, attention's FLOPs per context token, comes from --model, an attention shape",
    "or --attn-flops-per-context-token (0 leaves it out, as the lecture does).",
    "cost_over_flat = max(compute, memory) / (compute at zero context). kink_tokens is",
    "where they meet; --api NAME adds the list's prices at a prompt of --context tokens.",
    "--context (or --batch) may be a sweep.",
    NULL};
static const char *const EXAMPLES_COST[] = {
    "chalk context-cost --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 "
    "--batch 16384 --context 1024:1e6 --csv",
    NULL};
static const char *const ABOUT_CROSSOVER[] = {
    "Where long context starts to cost (lecture 6.1, 6.6; book 5.1, 5.6):",
    "  balance_context_tokens  where the KV fetch overtakes compute at any large batch:",
    "                          2 x params_active x BW / F / (kv_bytes - f_attn x BW / F)",
    "  kink_tokens             the same at --batch, after the batch's share of weights",
    "  attention_parity_tokens = 2 x params_active / f_attn, f_attn = 2 x attn_layers x",
    "                          q_heads x (qk_dim + v_dim): attention FLOPs meet the weights'",
    "Null, with the reason, where there is no kink. f_attn from --model, a shape or",
    "--attn-flops-per-context-token (0: attention left out, the lecture's model).",
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
static const char *const ABOUT_DRAFT[] = {
    "Speculative decoding priced with the pass of book 5.4: each sequence drafts q tokens",
    "ahead, one pass of q + 1 tokens checks them, and each guess is kept with chance",
    "--accept up to the first rejected one. draft_tokens is the q from 0 to --max-draft",
    "with the least expected time per token (the smaller q on a tie), drafting costing",
    "--draft-cost plain decode steps per token. --accept may be a sweep.",
    NULL};
static const char *const EXAMPLES_DRAFT[] = {
    "chalk draft --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 --batch 1024 "
    "--context 8192 --accept 0.85",
    NULL};
static const char *const ABOUT_SCHEDULE[] = {
    "The cheapest way to bill a prefix of --prefix-tokens that every request of a",
    "conversation sends again, at the --times-s given, on an --api price list: each",
    "request sends it uncached, reads a live cache entry (a hit restarts its life), or",
    "writes a 5-minute or 1-hour entry (book 5.8). An entry exactly its life old is live.",
    "Of equally cheap schedules, the earliest in the order uncached, hit, write-5m,",
    "write-1h wins, request by request.",
    NULL};
static const char *const EXAMPLES_SCHEDULE[] = {
    "chalk cache-schedule --api claude-opus-4.6 --prefix-tokens 100000 --times-s 0,60,2000,2060",
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
    "and the cheapest. A model on priced hardware with --context L adds the cost to",
    "recompute instead (remat): the prefill of L tokens, attention included (book 5.5).",
    "--hold-s may be a sweep.",
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

static const chalk_command COMMANDS[] = {
    {"kv", "[flags]", "KV cache bytes per token and per sequence (6.3)", KV_FLAGS, ABOUT_KV,
     EXAMPLES_KV, run_kv},
    {"kv-from-price", "[flags]", "the KV bytes per token a price step implies (6.2)", IMPLIED_FLAGS,
     ABOUT_IMPLIED, EXAMPLES_IMPLIED, run_implied},
    {"context-cost", "[flags]", "time and cost per token against context (6.1)", COST_FLAGS,
     ABOUT_COST, EXAMPLES_COST, run_context_cost},
    {"context-crossover", "[flags]",
     "where KV meets compute and attention meets weights (6.1, 6.6)", CROSSOVER_FLAGS,
     ABOUT_CROSSOVER, EXAMPLES_CROSSOVER, run_crossover},
    {"pass", "[flags]", "time per new token against the pass length (6.4)", PASS_FLAGS, ABOUT_PASS,
     EXAMPLES_PASS, run_pass},
    {"draft", "[flags]", "the best draft length for speculative decoding (book 5.4)",
     DRAFT_FLAGS, ABOUT_DRAFT, EXAMPLES_DRAFT, run_draft},
    {"cache-schedule", "[flags]", "the cheapest cache schedule for a conversation (book 5.8)",
     SCHEDULE_FLAGS, ABOUT_SCHEDULE, EXAMPLES_SCHEDULE, run_schedule},
    {"price-ratio", "[flags]", "output over input price, read as decode's utilisation (6.4)",
     RATIO_FLAGS, ABOUT_RATIO, EXAMPLES_RATIO, run_ratio},
    {"tier", "[flags]", "drain time and the cost of holding a cache, per tier (6.5)", TIER_FLAGS,
     ABOUT_TIER, EXAMPLES_TIER, run_tier},
    {"price", "[flags]", "a request's bill on a dated price list (6.7)", PRICE_FLAGS, ABOUT_PRICE,
     EXAMPLES_PRICE, run_price},
};

static const chalk_preset_kind *const PRESET_KINDS[] = {&KIND_API, &KIND_TIER, NULL};

const chalk_chapter chalk_chapter_05_long_context = {
    .number = 5,
    .title = "long context: KV bytes read off prices, cache tiers",
    .commands = COMMANDS,
    .count = sizeof COMMANDS / sizeof COMMANDS[0],
    .presets = PRESET_KINDS,
};
