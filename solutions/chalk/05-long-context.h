/*
 * 05-long-context.h -- what chapter 5's calculator files share (05-long-context.c
 * holds the chapter's table and its commands on context's cost; 05-long-context-kv.c
 * those on the KV cache's size; 05-long-context-prices.c those on price lists and
 * memory tiers, and the presets).
 */
#ifndef CHALK_05_LONG_CONTEXT_H
#define CHALK_05_LONG_CONTEXT_H

#include "chalk.h"
#include "context.h"

/* chalk list api, chalk list tier: the dated price lists and memory tiers of lib/. */
extern const chalk_preset_kind long_context_api_kind, long_context_tier_kind;

/* --api NAME, which context-cost takes too; the list it names at p, or NULL. */
extern const chalk_flag long_context_api_flag;
const cost_api_price *long_context_api_at(const chalk_point *p);

/* kv, kv-from-price (05-long-context-kv.c) */
extern const chalk_command long_context_kv_cmd, long_context_kv_from_price_cmd;

/* --params-active, which kv-from-price and the serving commands take */
extern const chalk_flag long_context_params_active_flag;

/* price-ratio, tier, price, cache-schedule (05-long-context-prices.c) */
extern const chalk_command long_context_price_ratio_cmd, long_context_tier_cmd,
    long_context_price_cmd, long_context_cache_schedule_cmd;

/* --attn-flops-per-context-token, which tier takes too; and a model preset's f_attn,
 * attention's FLOPs per token of context (context_attention_flops_per_context_token
 * of its shape). */
extern const chalk_flag long_context_attn_flops_flag;
double long_context_model_attn_flops(const cost_model *m);

#endif /* CHALK_05_LONG_CONTEXT_H */
