/*
 * price.h -- API price presets: what a provider charged, per million tokens, on a date.
 *
 * Prices move often. Every preset names the date of the price list it was read from
 * and where it was read; treat each as a dated snapshot, never as a current price.
 * All prices are USD per million tokens (`_usd_per_mtok`); storage is USD per million
 * tokens per hour held.
 *
 * The billing rules that matter, as the presets encode them:
 *   - one or two tiers: a prompt longer than long_threshold_tokens is billed WHOLE at
 *     the long tier (input and output alike), not only the tokens above the threshold;
 *     a prompt of exactly long_threshold_tokens is still short (Gemini: "<= 200k");
 *   - cache reads (hits) have their own price; Anthropic also prices cache writes,
 *     1.25x base for a 5-minute entry and 2x for a 1-hour one; the others bill a
 *     write at the base input price (no surcharge) and say nothing of its duration.
 * A price of zero means no sourced price: the service does not offer it, or we could
 * not verify it. A caller must treat it as absent, never as free.
 */
#ifndef COST_PRICE_H
#define COST_PRICE_H

#include <stdbool.h>
#include <stddef.h>

/* How long a prompt's uncached part is written to the cache for, if at all. */
typedef enum cost_cache_write {
    COST_CACHE_WRITE_NONE = 0, /* not written: billed at the base input price */
    COST_CACHE_WRITE_5M,       /* a 5-minute cache entry (Anthropic: 1.25x base) */
    COST_CACHE_WRITE_1H,       /* a 1-hour cache entry (Anthropic: 2x base) */
} cost_cache_write;

/* One price tier: what a prompt of a given length pays. */
typedef struct cost_price_tier {
    double input_usd_per_mtok;      /* uncached prompt tokens */
    double output_usd_per_mtok;     /* generated tokens, thinking included */
    double cache_read_usd_per_mtok; /* prompt tokens read from the cache; 0 = none */
} cost_price_tier;

typedef struct cost_api_price {
    const char *name;     /* preset key, e.g. "gemini-3.1-pro" */
    const char *title;    /* e.g. "Google Gemini 3.1 Pro (preview)" */
    const char *provider; /* "Google", "Anthropic", "OpenAI", "DeepSeek" */
    const char *date;     /* the price list's date, ISO 8601 (YYYY-MM or YYYY-MM-DD) */
    const char *source;   /* where it was read */
    cost_price_tier base;           /* prompts up to long_threshold_tokens */
    double long_threshold_tokens;   /* 0: one tier only */
    cost_price_tier long_prompt;    /* prompts longer than the threshold */
    double cache_write_5m_usd_per_mtok;  /* 0: no 5-minute write price */
    double cache_write_1h_usd_per_mtok;  /* 0: no 1-hour write price */
    double cache_storage_usd_per_mtok_hour; /* 0: none charged or none sourced */
} cost_api_price;

/* Every preset, in a fixed order; *count receives their number. */
const cost_api_price *const *cost_api_presets(size_t *count);

/* The preset named `name` (case-insensitive), or NULL when there is none. */
const cost_api_price *cost_api_find(const char *name);

/* True when the preset has a second, long-prompt tier. */
bool cost_api_has_long_tier(const cost_api_price *p);

/* "none", "5m", "1h". */
const char *cost_cache_write_name(cost_cache_write w);

/* Parses "none", "5m" or "1h" (case-insensitive); false, leaving *out untouched,
 * for anything else. */
bool cost_cache_write_parse(const char *name, cost_cache_write *out);

#endif /* COST_PRICE_H */
