/*
 * 05-long-context.c -- chapter 5's commands: long context, KV bytes read off prices,
 * cache tiers, price lists.
 *
 *   chalk kv                  KV bytes per token and per sequence, from a model or a shape (5.3)
 *   chalk kv-from-price       KV bytes per token implied by a price step (5.2)
 *   chalk context-cost        time and cost per token against context, the kink (5.1)
 *   chalk context-crossover   where KV meets compute, and attention meets the weights (5.1, 5.6)
 *   chalk pass                time per new token against the pass length (5.4)
 *   chalk draft               the best draft length for speculative decoding (5.4)
 *   chalk longest-context     the longest context sold within a step target and a price (5.6)
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

#include "05-long-context.h"

/* ---- this chapter's own flags ------------------------------------------------------------- */

#define G_SHAPE "attention shape (instead of --model)"
#define G_WORK "workload"
#define G_MODEL "model (a preset, flags alone, or a preset with flags overriding it)"
#define WHOLE CHALK_WHOLE
#define ABOVE CHALK_ABOVE_MIN
#define U(x) CHALK_U_##x

/* clang-format off */
const chalk_flag long_context_params_active_flag = {"--params-active", "N", "params_active", U(PARAMS), 0, 1e16, ABOVE, "parameters one token uses", G_MODEL,
    "parameters one token multiplies through (default: the model's, or --params-total for a dense model)"};
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
const chalk_flag long_context_attn_flops_flag = {"--attn-flops-per-context-token", "F", "attn_flops_per_context_token", U(FLOPS), 0, 1e15, 0, "attention FLOPs per context token", G_SHAPE,
    "attention FLOPs a new token spends per token of context (default: from --model or the --attn-layers shape; 0 leaves attention's arithmetic out)"};
static const chalk_flag F_ACCEPT       = {"--accept", "A", "accept", U(FRACTION), 0, 1, 0, "the chance a guess is kept", G_WORK,
    "speculation: the chance each drafted token is accepted; may be a sweep"};
static const chalk_flag F_DRAFT_COST   = {"--draft-cost", "C", "draft_cost", U(PLAIN), 0, 1e6, 0, "drafting one token, in plain steps", G_WORK,
    "speculation: drafting one token, as a share of a plain decode step (default 0)"};
static const chalk_flag F_MAX_DRAFT    = {"--max-draft", "Q", "max_draft", U(TOKENS), 0, 4096, WHOLE, "the most tokens drafted ahead", G_WORK,
    "speculation: the most tokens drafted ahead (default 16)"};
static const chalk_flag F_MAX_USD      = {"--max-usd-per-mtok", "X", "max_usd_per_mtok", U(USD_PER_MTOK), 0, 1e9, ABOVE, "the most a generated token may cost", G_WORK,
    "the price: the most a million generated tokens may cost, USD; may be a sweep"};
static const chalk_flag F_MAX_CONTEXT  = {"--max-context", "T", "max_context_tokens", U(TOKENS), 1, 1e12, WHOLE, "the model's context window", G_WORK,
    "the longest context the model takes, tokens (default 1e12: no window)"};
#define F_ATTN_FLOPS long_context_attn_flops_flag
#define F_PARAMS_ACTIVE long_context_params_active_flag
/* clang-format on */

enum { SHORT_CHARS = 40 };


/* ---- context-cost, context-crossover, pass: a deployment and its workload ------------- */

/* The deployment, with N_active from --params-active when given (a dense model
 * without --params-total then has N_total = N_active). */
typedef struct serve {
    chalk_deploy d;
    context_deploy cd;
    bool has_total; /* N_total known: the weight share and the kink */
    bool has_attn;  /* attention's arithmetic known (0 if left out on purpose) */
} serve;

/* A model preset's attention shape (MLA with absorbed projections scores in latent +
 * RoPE dimensions and sums in the latent), as f_attn, the FLOPs per context token. */
double long_context_model_attn_flops(const cost_model *m)
{
    bool mla = m->attn == COST_ATTN_MLA;
    double qk = mla ? m->kv_lora_rank + m->rope_head_dim : m->head_dim;
    double v = mla ? m->kv_lora_rank : m->head_dim;
    return context_attention_flops_per_context_token(m->layers, m->heads, qk, v);
}

/* Attention's arithmetic, f_attn: --attn-flops-per-context-token, else the
 * --attn-layers shape, else the model preset's; none (0, *known false) without any
 * of them: the lecture's model. */
static double attn_flops_of(const chalk_point *p, bool *known)
{
    *known = true;
    if (chalk_takes(p, &F_ATTN_FLOPS) && chalk_has(p, &F_ATTN_FLOPS))
        return chalk_in(p, &F_ATTN_FLOPS);
    if (chalk_takes(p, &F_ATTN_LAYERS) && chalk_has(p, &F_ATTN_LAYERS))
        return context_attention_flops_per_context_token(
            chalk_in(p, &F_ATTN_LAYERS), chalk_in(p, &F_Q_HEADS), chalk_in(p, &F_QK_DIM),
            chalk_in(p, &F_V_DIM));
    *known = p->d->model != NULL;
    return *known ? long_context_model_attn_flops(p->d->model) : 0.0;
}

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
        .attn_flops_per_context_token = attn_flops_of(p, &s.has_attn),
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
    const chalk_flag *const shape[] = {&F_ATTN_LAYERS, &F_Q_HEADS, &F_QK_DIM, &F_V_DIM};
    int given = 0;
    for (int i = 0; i < 4; i++)
        given += chalk_has(p, shape[i]);
    if (given > 0 && given < 4)
        return chalk_fail("%s: an attention shape needs all of --attn-layers, --q-heads, "
                          "--qk-dim and --v-dim",
                          cmd);
    if (given && chalk_has(p, &F_ATTN_FLOPS))
        return chalk_fail("%s: give --attn-flops-per-context-token or an attention shape, "
                          "not both",
                          cmd);
    if (batch && !chalk_has(p, &CHALK_F_BATCH))
        return chalk_fail("%s needs --batch B (sequences per step)", cmd);
    if (context && !chalk_has(p, &CHALK_F_CONTEXT))
        return chalk_fail("%s needs --context T (tokens of context)", cmd);
    if (pass && !chalk_has(p, &F_PASS))
        return chalk_fail("%s needs --pass-tokens P (new tokens per sequence in a pass)", cmd);
    return CHALK_OK;
}

static void put_serve_echo_as(chalk_record *r, const chalk_point *p, const serve *s, bool pass,
                              unsigned echo)
{
    chalk_deploy_echo_head(r, &s->d);
    if (chalk_takes(p, &CHALK_F_BATCH))
        chalk_put_maybe(r, "batch", "batch", CHALK_U_SEQUENCES, CHALK_INPUT,
                        chalk_has(p, &CHALK_F_BATCH), chalk_in(p, &CHALK_F_BATCH));
    if (chalk_takes(p, &CHALK_F_CONTEXT) && chalk_has(p, &CHALK_F_CONTEXT))
        chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT,
                         chalk_in(p, &CHALK_F_CONTEXT));
    if (pass)
        chalk_put_number(r, "pass_tokens", "pass length", CHALK_U_TOKENS, CHALK_INPUT,
                         chalk_in(p, &F_PASS));
    chalk_deploy_echo_tail(r, &s->d, echo);
    chalk_field *f = chalk_put_number(r, "attn_flops_per_context_token",
                                      "attention FLOPs per context token", CHALK_U_FLOPS,
                                      CHALK_INPUT, s->cd.attn_flops_per_context_token);
    if (!s->has_attn)
        chalk_note(r, f, "left out: no --model, attention shape or "
                         "--attn-flops-per-context-token");
}

static void put_serve_echo(chalk_record *r, const chalk_point *p, const serve *s, bool pass)
{
    put_serve_echo_as(r, p, s, pass, CHALK_ECHO_FLOPS);
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
    /* the flat cost: a token's weight arithmetic alone, at zero context */
    double flat_s = context_time_per_token(&s->cd, batch, 0.0).compute_s;
    chalk_put_number(r, "cost_over_flat", "cost / flat cost", CHALK_U_RATIO, 0, t.time_s / flat_s);
    context_kink k;
    const char *why = kink_at(r, s, batch, &k);
    chalk_put_result(r, "kink_tokens", "kink", CHALK_U_TOKENS, CHALK_DETAIL, k.exists, k.tokens,
                     why);
    /* if the tokens read grew as the square root of the context past the kink */
    double sparse_ctx = k.exists ? context_sqrt_read_tokens(context, k.tokens) : context;
    context_token_time sparse = context_time_per_token(&s->cd, batch, sparse_ctx);
    chalk_put_result(r, "sqrt_sparse_cost_over_flat", "cost / flat, reads as sqrt past the kink",
                     CHALK_U_RATIO, CHALK_DETAIL, k.exists, sparse.time_s / flat_s, why);
    const char *no_price = chalk_fmt(r, "no price for %s; pass --usd-per-chip-hour",
                                     s->d.hw ? s->d.hw->name : "this hardware");
    chalk_put_result(r, "usd_per_mtok", "cost", CHALK_U_USD_PER_MTOK, 0, s->d.has_price,
                     context_usd_per_mtok(s->d.chips, s->d.usd_per_chip_hour, t.time_s), no_price);
    const cost_api_price *api = long_context_api_at(p);
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

static int check_crossover(const chalk_point *p)
{
    int status = check_serve(p, false, false, false, false);
    if (status)
        return status;
    if (!p->d->has_params && !chalk_has(p, &F_PARAMS_ACTIVE))
        return chalk_fail("context-crossover needs --params-active N (or --model NAME)");
    if (p->swept)
        return chalk_fail("context-crossover takes single values, not a sweep");
    return CHALK_OK;
}

static void build_crossover(const chalk_point *p, chalk_record *r)
{
    serve sv = serve_of(p), *s = &sv;
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
    double used = context_hbm_bytes(&s->cd, batch, k.tokens);
    const char *no_use = !k.exists ? why : "no HBM capacity: pass --hbm-bytes X (or --hw NAME)";
    chalk_put_result(r, "hbm_used_at_kink_bytes", "HBM used at the kink", CHALK_U_BYTES,
                     CHALK_DETAIL, known, used, no_use);
    chalk_put_bool_result(r, "fits_hbm", "fits in HBM at the kink", CHALK_DETAIL, known,
                          used <= s->d.chips * s->d.hbm_bytes, no_use);
    const char *no_shape = "no attention shape: pass --model NAME or --attn-layers, --q-heads, "
                           "--qk-dim, --v-dim";
    double f = s->cd.attn_flops_per_context_token;
    bool parity = s->has_attn && f > 0.0;
    chalk_put_result(r, "attention_parity_tokens", "attention meets the weights", CHALK_U_TOKENS, 0,
                     parity, parity ? context_attention_parity_tokens(s->d.params_active, f) : 0.0,
                     s->has_attn ? "attention's arithmetic left out (0 FLOPs)" : no_shape);
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

/* ---- draft -------------------------------------------------------------------------------- */

static int check_draft(const chalk_point *p)
{
    int status = check_serve(p, true, true, true, false);
    if (!status && p->swept && p->swept != &F_ACCEPT)
        status = chalk_fail("draft: only --accept may be a sweep");
    return status;
}

static void build_draft(const chalk_point *p, chalk_record *r)
{
    serve sv = serve_of(p), *s = &sv;
    double batch = chalk_in(p, &CHALK_F_BATCH), context = chalk_in(p, &CHALK_F_CONTEXT);
    double accept = chalk_in(p, &F_ACCEPT), cost = chalk_in(p, &F_DRAFT_COST);
    double max_draft = chalk_in(p, &F_MAX_DRAFT);
    chalk_clear(r);
    put_serve_echo(r, p, s, false);
    chalk_put_number(r, "accept", "chance a guess is kept", CHALK_U_FRACTION, CHALK_INPUT, accept);
    chalk_put_number(r, "draft_cost", "draft cost (plain steps)", CHALK_U_PLAIN, CHALK_INPUT, cost);
    chalk_put_number(r, "max_draft", "at most", CHALK_U_TOKENS, CHALK_INPUT, max_draft);
    chalk_put_number(r, "crossover_pass_tokens", "balanced pass length", CHALK_U_TOKENS, 0,
                     context_crossover_pass_tokens(&s->cd, batch, context));
    context_draft_plan d =
        context_best_draft(&s->cd, batch, context, accept, cost, (int)max_draft);
    chalk_put_number(r, "draft_tokens", "best draft length", CHALK_U_TOKENS, 0, d.draft_tokens);
    chalk_put_number(r, "tokens_per_step", "tokens a step keeps", CHALK_U_TOKENS, 0,
                     d.tokens_per_step);
    chalk_put_number(r, "s_per_token", "time between a sequence's tokens", CHALK_U_SECONDS, 0,
                     d.s_per_token);
    chalk_put_number(r, "speedup", "speed-up over plain decode", CHALK_U_RATIO, 0, d.speedup);
    chalk_put_bool(r, "speculation_pays", "drafting beats plain decode", CHALK_DETAIL,
                   d.draft_tokens > 0);
}

/* ---- longest-context ------------------------------------------------------------------------ */

static int check_longest(const chalk_point *p)
{
    int status = check_serve(p, true, false, false, false);
    if (!status && !p->d->has_hbm)
        status = chalk_fail("longest-context needs --hbm-bytes X (or --hw NAME)");
    if (!status && !p->d->has_price)
        status = chalk_fail("longest-context needs --usd-per-chip-hour X (%s has no sourced "
                            "price)",
                            p->d->hw ? p->d->hw->name : "this hardware");
    if (!status && p->swept && p->swept != &F_MAX_USD && p->swept != &CHALK_F_TARGET_STEP)
        status = chalk_fail("longest-context: only --max-usd-per-mtok or --target-step-s may "
                            "be a sweep");
    const cost_api_price *api = status ? NULL : long_context_api_at(p);
    if (!status && !api == !chalk_has(p, &F_MAX_USD))
        status = chalk_fail("longest-context needs one of --max-usd-per-mtok X or --api NAME "
                            "(the list's output price)");
    if (!status && api && cost_api_has_long_tier(api))
        status = chalk_fail("longest-context: %s prices long prompts apart; give "
                            "--max-usd-per-mtok X",
                            api->name);
    if (!status && api && !(api->base.output_usd_per_mtok > 0))
        status = chalk_fail("longest-context: %s has no output price", api->name);
    return status;
}

/* The price limit: --max-usd-per-mtok, or the output price of the --api list. */
static double longest_price(const chalk_point *p)
{
    const cost_api_price *api = long_context_api_at(p);
    return api ? api->base.output_usd_per_mtok : chalk_in(p, &F_MAX_USD);
}

/* Why not even one token of context is served: the first limit one sequence of one
 * token misses, or the price. */
static const char *no_reach_reason(chalk_record *r, const serve *s, double target, double usd)
{
    char have[SHORT_CHARS];
    if (context_hbm_bytes(&s->cd, 1.0, 1.0) > s->d.chips * s->d.hbm_bytes) {
        chalk_human(have, sizeof have, CHALK_U_BYTES, s->d.chips * s->d.hbm_bytes);
        return chalk_fmt(r, "the weights and one token's cache do not fit in %s of HBM", have);
    }
    double step = context_time_per_token(&s->cd, 1.0, 1.0).time_s;
    if (step > target) {
        chalk_human(have, sizeof have, CHALK_U_SECONDS, step);
        return chalk_fmt(r, "one sequence of one token steps %s, over the target", have);
    }
    return chalk_fmt(r, "no batch serves even one token of context at %g USD per million "
                        "tokens or less",
                     usd);
}

static void build_longest(const chalk_point *p, chalk_record *r)
{
    serve sv = serve_of(p), *s = &sv;
    double target = chalk_in(p, &CHALK_F_TARGET_STEP), usd = longest_price(p);
    const cost_api_price *api = long_context_api_at(p);
    double window = chalk_in(p, &F_MAX_CONTEXT);
    chalk_clear(r);
    put_serve_echo_as(r, p, s, false, CHALK_ECHO_FLOPS | CHALK_ECHO_HBM | CHALK_ECHO_PRICE);
    chalk_put_number(r, "target_step_s", "target step", CHALK_U_SECONDS, CHALK_INPUT, target);
    chalk_put_string(r, "api", "price list", CHALK_INPUT, api ? api->name : NULL);
    chalk_put_number(r, "max_usd_per_mtok", "price", CHALK_U_USD_PER_MTOK, CHALK_INPUT, usd);
    chalk_put_number(r, "max_context_tokens", "window", CHALK_U_TOKENS, CHALK_INPUT, window);
    context_reach reach = context_longest_context(&s->cd, s->d.hbm_bytes, s->d.usd_per_chip_hour,
                                                  target, usd, window);
    bool ok = reach.exists;
    const char *why = ok ? NULL : no_reach_reason(r, s, target, usd);
    chalk_put_result(r, "longest_context_tokens", "longest context", CHALK_U_TOKENS, 0, ok,
                     reach.context_tokens, why);
    chalk_put_result(r, "best_batch", "batch", CHALK_U_SEQUENCES, 0, ok, reach.batch, why);
    chalk_put_result(r, "step_s", "step", CHALK_U_SECONDS, 0, ok, reach.step_s, why);
    chalk_put_result(r, "usd_per_mtok", "cost", CHALK_U_USD_PER_MTOK, 0, ok, reach.usd_per_mtok,
                     why);
    chalk_put_result(r, "hbm_used_bytes", "HBM used", CHALK_U_BYTES, CHALK_DETAIL, ok,
                     ok ? context_hbm_bytes(&s->cd, reach.batch, reach.context_tokens) : 0.0,
                     why);
    chalk_put_bool_result(r, "window_binds", "the window is the limit", CHALK_DETAIL, ok,
                          ok && reach.context_tokens >= window, why);
}

/* ---- the commands ---------------------------------------------------------------------------- */

#define SWEEPS CHALK_SWEEPS
#define SERVE_MODEL                                                                                \
    {&CHALK_F_MODEL}, {&CHALK_F_PARAMS_TOTAL}, {&F_PARAMS_ACTIVE}, {&CHALK_F_WEIGHT_BYTES},        \
        {&CHALK_F_KV_BYTES}, {&CHALK_F_DTYPE}, {&CHALK_F_KV_DTYPE}
#define ATTN {&F_ATTN_LAYERS}, {&F_Q_HEADS}, {&F_QK_DIM}, {&F_V_DIM}, {&F_ATTN_FLOPS}

static const chalk_input COST[] = {SERVE_MODEL, ATTN, CHALK_RATE_INPUTS, {&CHALK_F_USD},
                                   {&CHALK_F_BATCH, SWEEPS}, {&CHALK_F_CONTEXT, SWEEPS}, {&long_context_api_flag},
                                   {NULL}};
static const chalk_input CROSSOVER[] = {SERVE_MODEL, ATTN, CHALK_RATE_INPUTS,
                                        {&CHALK_F_BATCH, SWEEPS}, {NULL}};
static const chalk_input PASS[] = {SERVE_MODEL, ATTN, CHALK_RATE_INPUTS, {&CHALK_F_BATCH, SWEEPS},
                                   {&CHALK_F_CONTEXT, SWEEPS}, {&F_PASS, SWEEPS}, {NULL}};
static const chalk_input DRAFT[] = {SERVE_MODEL, ATTN, CHALK_RATE_INPUTS, {&CHALK_F_BATCH},
                                    {&CHALK_F_CONTEXT}, {&F_ACCEPT, CHALK_REQUIRED | SWEEPS},
                                    {&F_DRAFT_COST}, {&F_MAX_DRAFT, 0, 16}, {NULL}};
static const chalk_input LONGEST[] = {SERVE_MODEL, ATTN, CHALK_RATE_INPUTS, {&CHALK_F_HBM_BYTES},
                                      {&CHALK_F_USD}, {&CHALK_F_TARGET_STEP, CHALK_REQUIRED | SWEEPS},
                                      {&F_MAX_USD, SWEEPS}, {&long_context_api_flag},
                                      {&F_MAX_CONTEXT, 0, 1e12}, {NULL}};

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
static const char *const ABOUT_LONGEST[] = {
    "The longest whole context the chips can serve (book 5.6): some whole batch of",
    "sequences of that context fits in HBM with the weights, steps within",
    "--target-step-s, and makes a token cost at most --max-usd-per-mtok (or the output",
    "price of the --api list), up to the model's window --max-context. best_batch is",
    "the cheapest batch there (the smaller on a tie); limits met within a relative",
    "1e-9 count as met.",
    "--max-usd-per-mtok or --target-step-s may be a sweep.",
    NULL};
static const char *const EXAMPLES_LONGEST[] = {
    "chalk longest-context --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 "
    "--usd-per-chip-hour 2 --target-step-s 0.05 --api deepseek-v3",
    "chalk longest-context --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --kv-dtype fp8 "
    "--usd-per-chip-hour 2 --target-step-s 0.05 --max-usd-per-mtok 0.1:10:21",
    NULL};

#define SERVE_NEEDS (CHALK_DEPLOY | CHALK_NEED_FLOPS | CHALK_NEED_BW | CHALK_NEED_KV)

static const chalk_command CMD_CONTEXT_COST = {
    .name = "context-cost",
    .summary = "time and cost per token against context (6.1)",
    .title = "chalk context-cost: time and cost per token against context (lecture 6.1)",
    .inputs = COST, .needs = SERVE_NEEDS, .check = check_context_cost,
    .build = build_context_cost, .about = ABOUT_COST, .examples = EXAMPLES_COST
};
static const chalk_command CMD_CONTEXT_CROSSOVER = {
    .name = "context-crossover",
    .summary = "where KV meets compute and attention meets weights (6.1, 6.6)",
    .title = "chalk context-crossover: where KV fetch meets compute, and attention meets the "
    "weights (lecture 6.1, 6.6)",
    .inputs = CROSSOVER, .needs = CHALK_DEPLOY, .check = check_crossover,
    .build = build_crossover, .about = ABOUT_CROSSOVER, .examples = EXAMPLES_CROSSOVER
};
static const chalk_command CMD_PASS = {
    .name = "pass",
    .summary = "time per new token against the pass length (6.4)",
    .title = "chalk pass: time per new token against the pass length (lecture 6.4)",
    .inputs = PASS, .needs = SERVE_NEEDS, .check = check_pass, .build = build_pass,
    .about = ABOUT_PASS, .examples = EXAMPLES_PASS
};

static const chalk_command CMD_DRAFT = {
    .name = "draft",
    .summary = "the best draft length for speculative decoding (book 5.4)",
    .title = "chalk draft: the draft length that makes speculative decoding fastest (book 5.4)",
    .inputs = DRAFT, .needs = SERVE_NEEDS, .check = check_draft,
    .build = build_draft, .about = ABOUT_DRAFT, .examples = EXAMPLES_DRAFT
};

static const chalk_command CMD_LONGEST = {
    .name = "longest-context",
    .summary = "the longest context sold within a step target and a price (book 5.6)",
    .title = "chalk longest-context: the longest context a deployment sells within a step "
    "target and a price (book 5.6)",
    .inputs = LONGEST, .needs = SERVE_NEEDS | CHALK_NEED_PARAMS | CHALK_NEED_HBM | CHALK_NEED_PRICE,
    .check = check_longest, .build = build_longest, .about = ABOUT_LONGEST,
    .examples = EXAMPLES_LONGEST
};

static const chalk_preset_kind *const PRESET_KINDS[] = {&long_context_api_kind,
                                                        &long_context_tier_kind, NULL};

const chalk_chapter chalk_chapter_05_long_context = {
    .number = 5,
    .title = "long context: KV bytes read off prices, cache tiers",
    .commands = (const chalk_command *const[]){&long_context_kv_cmd, &long_context_kv_from_price_cmd, &CMD_CONTEXT_COST, &CMD_CONTEXT_CROSSOVER, &CMD_PASS, &CMD_DRAFT, &CMD_LONGEST, &long_context_cache_schedule_cmd, &long_context_price_ratio_cmd, &long_context_tier_cmd, &long_context_price_cmd, NULL},
    .presets = PRESET_KINDS,
};
