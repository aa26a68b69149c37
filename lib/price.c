/*
 * price.c -- API price presets, each with the date and source of its price list.
 *
 * Abbreviations in the source notes:
 *   GOOG  Google's Gemini API pricing page (ai.google.dev/gemini-api/docs/pricing), as
 *         quoted by the third-party pages named beside each number
 *   ANT   Anthropic's pricing page (platform.claude.com/docs/en/about-claude/pricing):
 *         cache writes 1.25x (5 minutes) and 2x (1 hour) base input, hits 0.1x
 *   OAI   OpenAI's API pricing page (developers.openai.com/api/docs/pricing)
 *   DSK   DeepSeek's API pricing page (api-docs.deepseek.com/quick_start/pricing)
 */
#include "price.h"

#include "base.h"

/* Gemini 3.1 Pro Preview. Every number is Google's, read on third-party pages (dates
 * below). The >200k cache-read price was not verified on any page we could read: left
 * out (0). */
static const cost_api_price API_GEMINI_31_PRO = {
    .name = "gemini-3.1-pro",
    .title = "Google Gemini 3.1 Pro (preview)",
    .provider = "Google",
    .date = "2026-03-28",
    .source = "third-party: GOOG as rechecked by blog.laozhang.ai on 2026-03-28; "
              "cache read: the cloudprice.net aggregator "
              "(vertex_ai/gemini-3.1-pro-preview, read 2026-11)",
    .base = {
        .input_usd_per_mtok = 2.00,      /* GOOG: prompts <= 200k tokens */
        .output_usd_per_mtok = 12.00,    /* GOOG: thinking tokens included */
        .cache_read_usd_per_mtok = 0.20, /* cloudprice.net: cache read (input) */
    },
    .long_threshold_tokens = 200e3, /* GOOG: "prompts > 200k tokens" */
    .long_prompt = {
        .input_usd_per_mtok = 4.00,  /* GOOG: input doubles */
        .output_usd_per_mtok = 18.00, /* GOOG: output +50% */
    },
};

static const cost_api_price API_GEMINI_25_PRO = {
    .name = "gemini-2.5-pro",
    .title = "Google Gemini 2.5 Pro",
    .provider = "Google",
    .date = "2026-03",
    .source = "third-party: GOOG token prices as quoted by deploybase.ai (\"as of "
              "March 2026\"); cache reads and storage as quoted from GOOG in a "
              "discuss.ai.google.dev thread (undated; an earlier thread quotes the "
              "launch reads, 0.31 / 0.625)",
    .base = {
        .input_usd_per_mtok = 1.25,
        .output_usd_per_mtok = 10.00,
        .cache_read_usd_per_mtok = 0.125, /* 0.31 at launch, later 0.125 */
    },
    .long_threshold_tokens = 200e3,
    .long_prompt = {
        .input_usd_per_mtok = 2.50,
        .output_usd_per_mtok = 15.00,
        .cache_read_usd_per_mtok = 0.25, /* 0.625 at launch, later 0.25 */
    },
    .cache_storage_usd_per_mtok_hour = 4.50, /* GOOG: explicit context caching */
};

static const cost_api_price API_CLAUDE_OPUS_46 = {
    .name = "claude-opus-4.6",
    .title = "Anthropic Claude Opus 4.6 (also 4.5)",
    .provider = "Anthropic",
    .date = "2026-03-21",
    .source = "ANT (platform.claude.com pricing page; an undated copy read 2026-11 "
              "with this row unchanged); dated by deploybase.ai's guide (third-party, "
              "current as of 2026-03-21)",
    .base = {
        .input_usd_per_mtok = 5.00,
        .output_usd_per_mtok = 25.00,
        .cache_read_usd_per_mtok = 0.50, /* ANT: 0.1x base input */
    },
    .cache_write_5m_usd_per_mtok = 6.25, /* ANT: 1.25x */
    .cache_write_1h_usd_per_mtok = 10.00, /* ANT: 2x */
};

static const cost_api_price API_CLAUDE_SONNET_46 = {
    .name = "claude-sonnet-4.6",
    .title = "Anthropic Claude Sonnet 4.6 (also 4.5, 4)",
    .provider = "Anthropic",
    .date = "2026-03-21",
    .source = "third-party: deploybase.ai's guide (current as of 2026-03-21) for input "
              "and output; cache prices by ANT's multipliers of base input",
    .base = {
        .input_usd_per_mtok = 3.00,
        .output_usd_per_mtok = 15.00,
        .cache_read_usd_per_mtok = 0.30, /* 0.1x */
    },
    .cache_write_5m_usd_per_mtok = 3.75, /* 1.25x */
    .cache_write_1h_usd_per_mtok = 6.00, /* 2x */
};

static const cost_api_price API_CLAUDE_HAIKU_45 = {
    .name = "claude-haiku-4.5",
    .title = "Anthropic Claude Haiku 4.5",
    .provider = "Anthropic",
    .date = "2026-03-21",
    .source = "third-party: deploybase.ai's guide (current as of 2026-03-21) for input "
              "and output; cache prices by ANT's multipliers of base input",
    .base = {
        .input_usd_per_mtok = 1.00,
        .output_usd_per_mtok = 5.00,
        .cache_read_usd_per_mtok = 0.10, /* 0.1x */
    },
    .cache_write_5m_usd_per_mtok = 1.25, /* 1.25x */
    .cache_write_1h_usd_per_mtok = 2.00, /* 2x */
};

static const cost_api_price API_GPT_5 = {
    .name = "gpt-5",
    .title = "OpenAI GPT-5",
    .provider = "OpenAI",
    .date = "2026-04-27",
    .source = "third-party: OAI as quoted by crazyrouter.com (updated 2026-04-27); "
              "launch price of Aug 2025 (reference/specs.md 8.3)",
    .base = {
        .input_usd_per_mtok = 1.25,
        .output_usd_per_mtok = 10.00,
        .cache_read_usd_per_mtok = 0.125, /* OAI: 90% off */
    },
};

/* DeepSeek-V3 behind deepseek-chat, after the promotion ended on 2025-02-08 and until
 * 2025-09-05 (the page's daytime standard price; a night discount also applied). */
static const cost_api_price API_DEEPSEEK_V3 = {
    .name = "deepseek-v3",
    .title = "DeepSeek-V3 (deepseek-chat, 2025)",
    .provider = "DeepSeek",
    .date = "2025-02-08",
    .source = "DSK snapshot: standard price until 2025-09-05 16:00 UTC",
    .base = {
        .input_usd_per_mtok = 0.27,      /* DSK: cache miss */
        .output_usd_per_mtok = 1.10,     /* DSK */
        .cache_read_usd_per_mtok = 0.07, /* DSK: cache hit */
    },
};

/* DeepSeek-V3.2 (DeepSeek Sparse Attention) behind deepseek-chat and -reasoner. */
static const cost_api_price API_DEEPSEEK_V32 = {
    .name = "deepseek-v3.2",
    .title = "DeepSeek-V3.2 (deepseek-chat)",
    .provider = "DeepSeek",
    .date = "2025-09-29",
    .source = "third-party: DSK as quoted by benchlm.ai (2026-04-13) and LiteLLM-style "
              "tables (reference/specs.md 8.4)",
    .base = {
        .input_usd_per_mtok = 0.28,       /* DSK: cache miss */
        .output_usd_per_mtok = 0.42,      /* DSK */
        .cache_read_usd_per_mtok = 0.028, /* DSK: cache hit */
    },
};

static const cost_api_price *const PRESETS[] = {
    &API_GEMINI_31_PRO, &API_GEMINI_25_PRO, &API_CLAUDE_OPUS_46, &API_CLAUDE_SONNET_46,
    &API_CLAUDE_HAIKU_45, &API_GPT_5, &API_DEEPSEEK_V3, &API_DEEPSEEK_V32,
};

const cost_api_price *const *cost_api_presets(size_t *count)
{
    *count = sizeof PRESETS / sizeof PRESETS[0];
    return PRESETS;
}

const cost_api_price *cost_api_find(const char *name)
{
    size_t n;
    const cost_api_price *const *all = cost_api_presets(&n);
    for (size_t i = 0; i < n; i++)
        if (cost_name_equal(all[i]->name, name))
            return all[i];
    return NULL;
}

bool cost_api_has_long_tier(const cost_api_price *p)
{
    return p->long_threshold_tokens > 0.0;
}

static const char *const CACHE_WRITE_NAMES[] = {
    [COST_CACHE_WRITE_NONE] = "none",
    [COST_CACHE_WRITE_5M] = "5m",
    [COST_CACHE_WRITE_1H] = "1h",
};

const char *cost_cache_write_name(cost_cache_write w)
{
    COST_ASSERT(w >= COST_CACHE_WRITE_NONE && w <= COST_CACHE_WRITE_1H && "unknown write");
    return CACHE_WRITE_NAMES[w];
}

bool cost_cache_write_parse(const char *name, cost_cache_write *out)
{
    for (int w = COST_CACHE_WRITE_NONE; w <= COST_CACHE_WRITE_1H; w++) {
        if (cost_name_equal(CACHE_WRITE_NAMES[w], name)) {
            *out = (cost_cache_write)w;
            return true;
        }
    }
    return false;
}
