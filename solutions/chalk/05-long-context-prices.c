/*
 * 05-long-context-prices.c -- chapter 5's commands on price lists and memory tiers,
 * and the presets they name (05-long-context.c holds the chapter's table):
 *
 *   chalk price-ratio   output over input price, read as decode's utilisation (5.4)
 *   chalk tier          drain time and the cost of holding a cache, per tier (5.5)
 *   chalk price         a request's bill on a dated price list (5.7)
 *   chalk list api | tier   the dated price presets and the memory-tier presets
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "05-long-context.h"

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

const chalk_preset_kind long_context_api_kind = {
    .word = "api",
    .alias = "apis",
    .about = "dated API prices: USD per million tokens, tiers, cache prices",
    .count = api_count,
    .name = api_name,
    .put = api_put,
};

const chalk_preset_kind long_context_tier_kind = {
    .word = "tier",
    .alias = "tiers",
    .about = "memory tiers: one HBM, DDR, NVMe or disk device's capacity, bandwidth, cost",
    .count = tier_count,
    .name = tier_name,
    .put = tier_put,
};

/* ---- the flags --------------------------------------------------------------------------- */

#define G_PRICE "price list"
#define G_TIER "memory tier"
#define G_WORK "workload"
#define ABOVE CHALK_ABOVE_MIN
#define U(x) CHALK_U_##x

/* clang-format off */
const chalk_flag long_context_api_flag = {"--api", "NAME", "api", U(WORD), 0, 0, 0, "a price list", G_PRICE,
    "price preset (chalk list api)", .kind = &long_context_api_kind};
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
    "memory-tier preset (chalk list tier); without it and without --capacity-bytes, every preset", .kind = &long_context_tier_kind};
static const chalk_flag F_CAPACITY     = {"--capacity-bytes", "C", "capacity_bytes", U(BYTES), 1, 1e18, 0, "capacity of one device", G_TIER,
    "capacity of one device"};
static const chalk_flag F_TIER_BPS     = {"--bytes-per-s", "W", "bytes_per_s", U(BYTES_PER_S), 1, 1e18, 0, "read bandwidth of one device", G_TIER,
    "read bandwidth of one device"};
static const chalk_flag F_TIER_USD     = {"--usd-per-hour", "P", "usd_per_hour", U(USD), 0, 1e9, ABOVE, "what one device costs per hour", G_TIER,
    "what one device costs per hour (rent, or price over its life)"};
static const chalk_flag F_PREFIX       = {"--prefix-tokens", "P", "prefix_tokens", U(TOKENS), 0, 1e12, ABOVE, "tokens every request sends again", G_PRICE,
    "tokens of the prefix every request of the conversation sends again"};
static const chalk_flag F_TIMES        = {"--times-s", "T,T,...", "request_times_s", U(WORD), 0, 0, 0, "when the requests are sent", G_PRICE,
    "when the requests are sent, seconds, comma-separated, not decreasing"};
static const chalk_flag F_HOLD         = {"--hold-s", "T", "hold_s", U(SECONDS), 0, 1e10, 0, "seconds a cache is held", G_WORK,
    "seconds a cache is held before it is read back once; may be a sweep"};
/* clang-format on */

#define F_API long_context_api_flag

const cost_api_price *long_context_api_at(const chalk_point *p)
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

/* ---- price-ratio ------------------------------------------------------------------------ */

static int check_ratio(const chalk_point *p)
{
    const cost_api_price *api = long_context_api_at(p);
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
    const cost_api_price *api = long_context_api_at(p);
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
    bool has_remat, has_context;
    double remat_usd_per_byte, kv_bytes_per_token, context_tokens;
} tier_setup;


static tier_setup tier_of(const chalk_point *p)
{
    const chalk_deploy *d = p->d;
    tier_setup s = {.kv_bytes_per_token = d->has_kv ? d->kv_bytes_per_token : 0.0};
    s.has_context = chalk_has(p, &CHALK_F_CONTEXT);
    s.context_tokens = chalk_in(p, &CHALK_F_CONTEXT);
    s.has_remat = s.has_context && s.context_tokens >= 1 && d->has_params && d->has_flops && d->has_price &&
                  s.kv_bytes_per_token > 0.0;
    if (s.has_remat) {
        /* the prefill that rebuilds the context, attention included (book 5.5) */
        context_deploy cd = {
            .params_total = d->params_total,
            .params_active = d->params_active,
            .bytes_per_param = d->bytes_per_param,
            .kv_bytes_per_token = d->kv_bytes_per_token,
            .attn_flops_per_context_token =
                chalk_has(p, &long_context_attn_flops_flag)
                    ? chalk_in(p, &long_context_attn_flops_flag)
                : d->model ? long_context_model_attn_flops(d->model)
                           : 0.0,
            .chips = d->chips,
            .flops_per_s = d->flops_per_s,
            .hbm_bytes_per_s = d->hbm_bytes_per_s,
        };
        s.remat_usd_per_byte =
            context_remat_usd_per_byte(&cd, s.context_tokens, d->usd_per_chip_hour);
    }
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
    if (s.has_context && s.context_tokens < 1)
        return chalk_fail("tier: --context counts the tokens recomputing rebuilds: at least 1");
    return CHALK_OK;
}

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
    const cost_api_price *api = long_context_api_at(p);
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
    chalk_put_bool(r, "long_tier", "billed at the long tier", CHALK_DETAIL, is_long);
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

/* ---- cache-schedule ------------------------------------------------------------------- */

typedef struct schedule {
    size_t count;
    double times[CONTEXT_SCHEDULE_MAX_REQUESTS];
} schedule;

/* Reads "t0,t1,..." into s->times: numbers, not decreasing, at most the contract's
 * limit. */
static int read_times(const char *text, schedule *s)
{
    const char *p = text;
    s->count = 0;
    while (*p) {
        char *end;
        double t = strtod(p, &end);
        if (end == p || !isfinite(t) || t < 0)
            return chalk_fail("--times-s: \"%s\" is not a list of seconds >= 0 (e.g. 0,240,480)",
                              text);
        if (s->count == CONTEXT_SCHEDULE_MAX_REQUESTS)
            return chalk_fail("--times-s: at most %d requests", CONTEXT_SCHEDULE_MAX_REQUESTS);
        if (s->count > 0 && t < s->times[s->count - 1])
            return chalk_fail("--times-s: %g comes before %g: times must not decrease", t,
                              s->times[s->count - 1]);
        s->times[s->count++] = t;
        p = end;
        if (*p == ',')
            p++;
        else if (*p)
            return chalk_fail("--times-s: \"%s\" is not a list of seconds >= 0 (e.g. 0,240,480)",
                              text);
    }
    if (s->count == 0)
        return chalk_fail("--times-s: no request times");
    return CHALK_OK;
}

static int check_schedule(const chalk_point *p)
{
    schedule s;
    if (!chalk_has(p, &F_API))
        return chalk_fail("cache-schedule needs --api NAME (chalk list api)");
    if (!chalk_has(p, &F_PREFIX) || !chalk_has(p, &F_TIMES))
        return chalk_fail("cache-schedule needs --prefix-tokens P and --times-s T,T,...");
    return read_times(chalk_text(p, &F_TIMES), &s);
}

static const char *const ACTION_WORDS[] = {
    [CONTEXT_SEND_UNCACHED] = "uncached",
    [CONTEXT_READ_CACHE] = "hit",
    [CONTEXT_WRITE_5M] = "write-5m",
    [CONTEXT_WRITE_1H] = "write-1h",
};

static void build_schedule(const chalk_point *p, chalk_record *r)
{
    const cost_api_price *api = long_context_api_at(p);
    double prefix = chalk_in(p, &F_PREFIX);
    schedule s;
    read_times(chalk_text(p, &F_TIMES), &s); /* checked */
    context_cache_action actions[CONTEXT_SCHEDULE_MAX_REQUESTS];
    chalk_clear(r);
    chalk_put_string(r, "api", "price list", CHALK_INPUT, api->name);
    chalk_put_string(r, "date", "dated", CHALK_INPUT, api->date);
    chalk_put_number(r, "prefix_tokens", "prefix", CHALK_U_TOKENS, CHALK_INPUT, prefix);
    chalk_put_number(r, "requests", "requests", CHALK_U_COUNT, CHALK_INPUT, (double)s.count);
    double usd = context_cheapest_cache_schedule(api, prefix, s.times, s.count, actions);
    context_bill one = context_api_usd(api, prefix, 0, 0, COST_CACHE_WRITE_NONE);
    double writes = 0, hits = 0;
    char words[CONTEXT_SCHEDULE_MAX_REQUESTS * 10] = "";
    size_t used = 0;
    for (size_t i = 0; i < s.count; i++) {
        writes += actions[i] == CONTEXT_WRITE_5M || actions[i] == CONTEXT_WRITE_1H;
        hits += actions[i] == CONTEXT_READ_CACHE;
        int n = snprintf(words + used, sizeof words - used, "%s%s", i ? " " : "",
                         ACTION_WORDS[actions[i]]);
        used += n > 0 ? (size_t)n : 0;
    }
    chalk_put_string(r, "schedule", "schedule", 0, chalk_fmt(r, "%s", words));
    chalk_put_number(r, "writes", "cache writes", CHALK_U_COUNT, 0, writes);
    chalk_put_number(r, "hits", "cache hits", CHALK_U_COUNT, 0, hits);
    chalk_put_bool(r, "caches", "the schedule uses the cache", CHALK_DETAIL, writes > 0);
    chalk_put_number(r, "usd", "the prefix's bill", CHALK_U_USD, 0, usd);
    chalk_put_number(r, "uncached_usd", "sent uncached every time", CHALK_U_USD, 0,
                     one.usd * (double)s.count);
}

/* ---- the commands ---------------------------------------------------------------------------- */

#define SWEEPS CHALK_SWEEPS

static const chalk_input RATIO[] = {{&F_RATIO}, {&F_API}, {&F_LONG}, {NULL}};
static const chalk_input TIER[] = {{&F_TIER}, {&F_CAPACITY}, {&F_TIER_BPS}, {&F_TIER_USD},
                                   {&F_HOLD, SWEEPS}, {&CHALK_F_MODEL}, {&CHALK_F_PARAMS_TOTAL},
                                   {&CHALK_F_PARAMS_ACTIVE}, {&CHALK_F_KV_BYTES}, {&CHALK_F_DTYPE},
                                   {&CHALK_F_KV_DTYPE}, {&CHALK_F_HW}, {&CHALK_F_FLOPS},
                                   {&CHALK_F_USD}, {&CHALK_F_CONTEXT},
                                   {&long_context_attn_flops_flag}, {NULL}};
static const chalk_input PRICE[] = {{&F_API}, {&F_INPUT, SWEEPS}, {&F_OUTPUT}, {&F_CACHED},
                                    {&F_CACHE_WRITE}, {NULL}};

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
static const chalk_input SCHEDULE[] = {{&F_API}, {&F_PREFIX}, {&F_TIMES}, {NULL}};
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

const chalk_command long_context_price_ratio_cmd = {
    .name = "price-ratio",
    .summary = "output over input price, read as decode's utilisation (6.4)",
    .title = "chalk price-ratio: output over input price, read as a cost (lecture 6.4)",
    .inputs = RATIO, .check = check_ratio, .build = build_ratio,
    .about = ABOUT_RATIO, .examples = EXAMPLES_RATIO
};
const chalk_command long_context_tier_cmd = {
    .name = "tier",
    .summary = "drain time and the cost of holding a cache, per tier (6.5)",
    .inputs = TIER, .needs = CHALK_DEPLOY, .check = check_tier, .run = run_tier,
    .about = ABOUT_TIER, .examples = EXAMPLES_TIER
};
const chalk_command long_context_price_cmd = {
    .name = "price",
    .summary = "a request's bill on a dated price list (6.7)",
    .title = "chalk price: a request's bill on a dated price list",
    .inputs = PRICE, .check = check_price, .build = build_price,
    .about = ABOUT_PRICE, .examples = EXAMPLES_PRICE
};
const chalk_command long_context_cache_schedule_cmd = {
    .name = "cache-schedule",
    .summary = "the cheapest cache schedule for a conversation (book 5.8)",
    .title = "chalk cache-schedule: the cheapest way to cache a conversation's prefix (book 5.8)",
    .inputs = SCHEDULE, .check = check_schedule, .build = build_schedule,
    .about = ABOUT_SCHEDULE, .examples = EXAMPLES_SCHEDULE
};
