/*
 * 01-batching.c -- chapter 1's commands: batch size, step time, cost per token.
 *
 *   chalk decode          one decode step: roofline terms, tokens/s, USD/Mtok (1.2-1.4)
 *   chalk balance-batch   the batch where compute meets memory (1.5)
 *   chalk departures      the train schedule: a step drains HBM once (1.6)
 *   chalk max-batch       the largest batch HBM or a step-time target allows (1.6)
 *   chalk fast-mode       a smaller batch for a faster step, and its cost (1.9)
 *   chalk cheapest        the cheapest hardware, chip count and batch for a step target (1.10)
 *
 * Every number comes from the chapter's reference (batching_*, through
 * exercises/01-batching/batching.h) applied to a deployment resolved from presets
 * and flags (deploy.c).
 */
#include <stdio.h>

#include "batching.h"
#include "chalk.h"

/* ---- this chapter's own flags ------------------------------------------------------------ */

static const chalk_flag F_TARGET = {
    .name = "--target-step-s",
    .arg = "S",
    .key = "target_step_s",
    .group = "workload",
    .help = "largest acceptable step time, seconds; may be a sweep",
    .min = 1e-9,
    .max = 1e6,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_SPEEDUP = {
    .name = "--speedup",
    .arg = "S",
    .key = "speedup",
    .group = "workload",
    .help = "how many times faster the fast step is (>= 1); may be a "
            "sweep",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_SWEEPS,
};

static const chalk_flag F_BALANCE_MULTIPLE = {
    .name = "--balance-multiple",
    .arg = "X",
    .key = "balance_multiple",
    .group = "workload",
    .help = "the normal batch as X times the balance batch at --context (instead of "
            "--batch)",
    .min = 0,
    .max = 1e3,
    .rules = CHALK_ABOVE_MIN,
};

/* The routed experts' idle share at which a batch counts as reading every expert. */
#define IDLE_SHARE 0.01

/* The most offers a cheapest search compares (every hardware preset fits). */
enum { MAX_OFFERS = 16 };

/* ---- a deployment and the workload ---------------------------------------------------------- */

/* What each command reads: the deployment and up to four workload inputs, one of
 * which may be a sweep. */
typedef struct setup {
    chalk_deploy d;
    batching_deploy bd; /* the same deployment in the chapter's own type */
    chalk_sweep batch, context, target, speedup;
    const chalk_sweep *swept;
    double balance_multiple; /* fast-mode: the normal batch over the balance batch; 0: --batch */
    batching_offer offers[MAX_OFFERS]; /* cheapest: the hardware it searches */
    int offer_count;
    char offer_names[MAX_OFFERS * 16];
    /* The echo's constant parts, built once for a report (every row repeats them):
     * before the batch and context, and after them, as put_setup(echo) puts them. */
    unsigned echo;
    bool templated;
    chalk_record head, tail;
} setup;

enum { NEED_BATCH = 1u << 0, NEED_CONTEXT = 1u << 1, NEED_SPEEDUP = 1u << 2 };

static bool any_context_positive(const chalk_sweep *context)
{
    for (long i = 0; context->given && i < context->points; i++)
        if (chalk_sweep_at(context, i) > 0.0)
            return true;
    return false;
}

static void setup_free(setup *s)
{
    chalk_sweep_free(&s->batch);
    chalk_sweep_free(&s->context);
    chalk_sweep_free(&s->target);
    chalk_sweep_free(&s->speedup);
}

/* Resolves the deployment, reads the workload, and checks that what the command
 * needs is there. Frees what it read on failure. */
static int setup_read(const chalk_args *a, unsigned deploy_needs, unsigned needs, setup *s)
{
    *s = (setup){0};
    int status = chalk_deploy_resolve(a, deploy_needs, &s->d);
    chalk_sweep *const inputs[] = {&s->batch, &s->context, &s->target, &s->speedup};
    const chalk_flag *const flags[] = {&CHALK_F_BATCH, &CHALK_F_CONTEXT, &F_TARGET, &F_SPEEDUP};
    for (int i = 0; i < 4 && !status; i++)
        status = chalk_sweep_read(a, flags[i], inputs[i]);
    if (!status)
        status = chalk_one_sweep(inputs, 4, &s->swept);
    const char *cmd = a->cmd->name;
    if (!status && (needs & NEED_BATCH) && !s->batch.given)
        status = chalk_fail("%s needs --batch B (sequences per step)", cmd);
    if (!status && (needs & NEED_CONTEXT) && !s->context.given)
        status = chalk_fail("%s needs --context T (tokens of context; 0 for none)", cmd);
    if (!status && (needs & NEED_SPEEDUP) && !s->speedup.given)
        status = chalk_fail("%s needs --speedup S (how many times faster, >= 1)", cmd);
    if (!status && (deploy_needs & CHALK_NEED_PARAMS) && !s->d.has_kv &&
        any_context_positive(&s->context))
        status =
            chalk_fail("%s needs --kv-bytes-per-token X (or --model NAME) when --context > 0", cmd);
    if (status) {
        setup_free(s);
        return status;
    }
    const chalk_deploy *d = &s->d;
    s->bd = (batching_deploy){
        .params_total = d->params_total,
        .params_active = d->params_active,
        .bytes_per_param = d->bytes_per_param,
        .kv_bytes_per_token = d->kv_bytes_per_token,
        .chips = d->chips,
        .flops_per_s = d->flops_per_s,
        .hbm_bytes_per_s = d->hbm_bytes_per_s,
        .hbm_bytes = d->hbm_bytes,
        .usd_per_chip_hour = d->usd_per_chip_hour,
    };
    if (d->model) { /* the expert counts come with a preset model only */
        s->bd.experts_routed = d->model->experts_routed;
        s->bd.experts_per_token = d->model->experts_active;
    }
    return CHALK_OK;
}

enum { ECHO_BATCH = 1u << 8, ECHO_CONTEXT = 1u << 9 };

/* Prints the report, then frees the setup's sweeps. `echo` is what the build's
 * put_setup echoes: its constant parts are built here, once. */
static int setup_emit(const chalk_args *a, setup *s, const char *title, long rows, unsigned echo,
                      void (*build)(const void *, long, chalk_record *))
{
    s->echo = echo;
    s->templated = true;
    chalk_clear(&s->head);
    chalk_deploy_echo_head(&s->head, &s->d);
    chalk_clear(&s->tail);
    chalk_deploy_echo_tail(&s->tail, &s->d, echo);
    chalk_report rep = {.title = title, .rows = rows, .swept = s->swept, .build = build, .ctx = s};
    int status = chalk_emit(a, &rep);
    setup_free(s);
    return status;
}

/* The rows of a report: the swept input's points, or one. */
static long rows_of(const setup *s)
{
    return s->swept ? s->swept->points : 1;
}

/* The deployment's echo with the batch and the context in their place. */
static void put_setup(chalk_record *r, const setup *s, double batch, double context, unsigned echo)
{
    bool templated = s->templated && echo == s->echo;
    if (templated)
        chalk_append(r, &s->head);
    else
        chalk_deploy_echo_head(r, &s->d);
    if (echo & ECHO_BATCH)
        chalk_put_number(r, "batch", "batch", CHALK_U_SEQUENCES, CHALK_INPUT, batch);
    if (echo & ECHO_CONTEXT)
        chalk_put_maybe(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, s->context.given,
                        context);
    if (templated)
        chalk_append(r, &s->tail);
    else
        chalk_deploy_echo_tail(r, &s->d, echo);
}

/* Bytes resident in HBM: the weights and `batch` KV caches. A decode step reads all
 * of it exactly once (lecture 1.6), so it is the memory terms times the aggregate
 * bandwidth; no new formula is needed. */
static double resident_bytes(const batching_deploy *d, double batch, double context_tokens)
{
    double memory_s = batching_weights_s(d) + batching_kv_s(d, batch, context_tokens);
    return memory_s * d->chips * d->hbm_bytes_per_s;
}

/* fits_hbm: whether the weights and `batch` KV caches fit in the HBM of all chips;
 * null, with a reason, when the HBM capacity is unknown. */
static void put_fits_hbm(chalk_record *r, const setup *s, double batch, double context,
                         unsigned flags)
{
    const batching_deploy *d = &s->bd;
    chalk_put_bool_result(r, "fits_hbm", "fits in HBM", flags, s->d.has_hbm,
                          resident_bytes(d, batch, context) <= d->chips * d->hbm_bytes,
                          "no HBM capacity: pass --hbm-bytes X (or --hw NAME)");
}

static void human(char *buf, size_t size, chalk_unit unit, double x)
{
    chalk_human(buf, size, unit, x);
}

enum { SHORT_CHARS = 40 };

/* The step if only the experts some token wants are read (exercise 1.3): the same
 * roofline with the expected weights read in place of every weight. Null, with a
 * reason, for an MoE given by flags alone (its expert counts are unknown) and below
 * a batch of one. */
static void put_fetched(chalk_record *r, const setup *s, double batch, double context)
{
    const batching_deploy *d = &s->bd;
    bool known =
        d->experts_routed > 0 || s->d.active_is_total || d->params_active >= d->params_total;
    bool ok = known && batch >= 1.0;
    const char *why = !known ? "no expert counts: pass --model NAME for an MoE's routing"
                             : "a step holds at least one sequence: pass --batch >= 1";
    batching_deploy read = *d;
    if (ok)
        read.params_total = batching_params_fetched(d, batch);
    batching_step st = ok ? batching_step_at(&read, batch, context) : (batching_step){0};
    chalk_put_result(r, "params_fetched", "params read, expected", CHALK_U_PARAMS, CHALK_DETAIL, ok,
                     read.params_total, why);
    chalk_put_result(r, "fetched_weights_s", "weight fetch, expected", CHALK_U_SECONDS,
                     CHALK_DETAIL, ok, st.weights_s, why);
    chalk_put_result(r, "fetched_step_s", "step, expected weights", CHALK_U_SECONDS, CHALK_DETAIL,
                     ok, st.step_s, why);
    bool priced = ok && s->d.has_price;
    chalk_put_result(r, "fetched_usd_per_mtok", "cost, expected weights", CHALK_U_USD_PER_MTOK,
                     CHALK_DETAIL, priced,
                     priced ? batching_usd_per_mtok(&read, batch, context) : 0.0,
                     ok ? "no price: pass --usd-per-chip-hour" : why);
    chalk_put_result(r, "all_experts_batch", "batch reading 99% of experts", CHALK_U_SEQUENCES,
                     CHALK_DETAIL, known,
                     known ? (double)batching_all_experts_batch(d, IDLE_SHARE) : 0.0, why);
}

/* ---- decode ---------------------------------------------------------------------------------- */

static void build_decode(const void *ctx, long row, chalk_record *r)
{
    const setup *s = ctx;
    const batching_deploy *d = &s->bd;
    double batch = chalk_sweep_at(&s->batch, row), context = chalk_sweep_at(&s->context, row);
    chalk_clear(r);
    put_setup(r, s, batch, context,
              ECHO_BATCH | ECHO_CONTEXT | CHALK_ECHO_FLOPS | CHALK_ECHO_HBM | CHALK_ECHO_PRICE);

    batching_step st = batching_step_at(d, batch, context);
    chalk_put_number(r, "compute_s", "compute", CHALK_U_SECONDS, 0, st.compute_s);
    chalk_put_number(r, "weights_s", "weight fetch", CHALK_U_SECONDS, 0, st.weights_s);
    chalk_put_number(r, "kv_s", "KV fetch", CHALK_U_SECONDS, 0, st.kv_s);
    chalk_put_number(r, "memory_s", "memory", CHALK_U_SECONDS, CHALK_DETAIL, st.memory_s);
    chalk_put_number(r, "step_s", "step", CHALK_U_SECONDS, 0, st.step_s);
    chalk_put_string(r, "bound", "bound", 0, cost_bound_name(st.bound));
    /* model FLOPs utilisation on the roofline: the share of the step spent multiplying */
    chalk_put_number(r, "mfu", "MFU (compute / step)", CHALK_U_PLAIN, CHALK_DETAIL,
                     st.compute_s / st.step_s);
    chalk_put_number(r, "tokens_per_s", "throughput", CHALK_U_TOKENS_PER_S, 0,
                     batching_tokens_per_s(d, batch, context));
    chalk_put_number(r, "latency_floor_s", "latency floor", CHALK_U_SECONDS, CHALK_DETAIL,
                     batching_latency_floor_s(d));
    chalk_put_number(r, "hbm_used_bytes", "HBM used, all chips", CHALK_U_BYTES, 0,
                     resident_bytes(d, batch, context));
    put_fits_hbm(r, s, batch, context, 0);
    const char *why = s->d.has_price ? NULL
                                     : chalk_fmt(r, "no price for %s; pass --usd-per-chip-hour",
                                                 s->d.hw ? s->d.hw->name : "this hardware");
    chalk_put_result(r, "usd_per_mtok", "cost", CHALK_U_USD_PER_MTOK, 0, s->d.has_price,
                     s->d.has_price ? batching_usd_per_mtok(d, batch, context) : 0.0, why);
    put_fetched(r, s, batch, context);
}

static int run_decode(const chalk_args *a)
{
    setup s;
    int status = setup_read(a, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW,
                            NEED_BATCH | NEED_CONTEXT, &s);
    if (status)
        return status;
    return setup_emit(
        a, &s, "chalk decode: one decode step, lecture 1.2-1.4 (times are lower bounds)",
        rows_of(&s),
        ECHO_BATCH | ECHO_CONTEXT | CHALK_ECHO_FLOPS | CHALK_ECHO_HBM | CHALK_ECHO_PRICE,
        build_decode);
}

/* ---- balance-batch ----------------------------------------------------------------------- */

static void build_balance(const void *ctx, long row, chalk_record *r)
{
    const setup *s = ctx;
    const batching_deploy *d = &s->bd;
    double context = chalk_sweep_at(&s->context, row);
    chalk_clear(r);
    put_setup(r, s, 0.0, context, ECHO_CONTEXT | CHALK_ECHO_FLOPS);

    double ratio = batching_hw_ratio(d->flops_per_s, d->hbm_bytes_per_s, d->bytes_per_param);
    double sparsity = d->params_total / d->params_active; /* exercise 1.4 */
    chalk_put_number(r, "hw_ratio", "hardware ratio", CHALK_U_PLAIN, 0, ratio);
    chalk_put_number(r, "sparsity", "sparsity", CHALK_U_PLAIN, 0, sparsity);
    chalk_put_number(r, "balance_batch_approx", "balance batch, no KV", CHALK_U_SEQUENCES, 0,
                     batching_balance_batch_approx(ratio, sparsity));
    /* past the knee every token costs its own arithmetic: the most any batch gives */
    chalk_put_number(r, "compute_tokens_per_s", "tokens/s, compute-bound", CHALK_U_TOKENS_PER_S,
                     CHALK_DETAIL, 1.0 / batching_compute_s(d, 1.0));

    bool has_limit = s->d.has_kv && d->kv_bytes_per_token > 0.0;
    double limit_tokens = has_limit ? batching_max_balanced_context_tokens(d) : 0.0;
    batching_balance bal = {.exists = false};
    const char *why;
    if (!s->context.given) {
        why = "no --context given: pass --context T for the balance batch with the KV term";
    } else {
        bal = batching_balance_batch(d, context);
        char kv[SHORT_CHARS], compute[SHORT_CHARS], limit[SHORT_CHARS];
        human(kv, sizeof kv, CHALK_U_SECONDS, batching_kv_s(d, 1, context));
        human(compute, sizeof compute, CHALK_U_SECONDS, batching_compute_s(d, 1));
        chalk_sig(limit, sizeof limit, limit_tokens);
        why = chalk_fmt(r,
                        "each sequence's KV fetch (%s) outgrows its compute (%s): every batch is "
                        "memory-bound past %s tokens of context",
                        kv, compute, limit);
    }
    chalk_put_result(r, "balance_batch", "balance batch, with KV", CHALK_U_SEQUENCES, 0, bal.exists,
                     bal.batch, why);
    /* a drawn deployment must exist: its weights, and the balance batch's caches */
    put_fits_hbm(r, s, bal.exists ? bal.batch : 0.0, context, CHALK_DETAIL);
    chalk_put_result(r, "max_balanced_context_tokens", "max balanced context", CHALK_U_TOKENS, 0,
                     has_limit, limit_tokens,
                     s->d.has_kv ? "no KV cache (kv_bytes_per_token is 0): compute always wins"
                                 : "no KV size: pass --kv-bytes-per-token X or --model NAME");
}

static int run_balance(const chalk_args *a)
{
    setup s;
    int status = setup_read(a, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW, 0, &s);
    if (status)
        return status;
    return setup_emit(a, &s,
                      "chalk balance-batch: where compute time meets memory time, lecture 1.5",
                      rows_of(&s), ECHO_CONTEXT | CHALK_ECHO_FLOPS, build_balance);
}

/* ---- departures ---------------------------------------------------------------------------- */

static void build_departures(const void *ctx, long row, chalk_record *r)
{
    const setup *s = ctx;
    (void)row;
    chalk_clear(r);
    chalk_put_hw_name(r, s->d.hw);
    chalk_put_number(r, "hbm_bytes", "HBM per chip", CHALK_U_BYTES, CHALK_INPUT, s->bd.hbm_bytes);
    chalk_put_number(r, "hbm_bytes_per_s", "HBM bandwidth", CHALK_U_BYTES_PER_S, CHALK_INPUT,
                     s->bd.hbm_bytes_per_s);
    chalk_put_string(r, "overrides", "overrides", CHALK_INPUT | CHALK_DETAIL,
                     s->d.overrides[0] ? s->d.overrides : NULL);
    batching_departures t = batching_train_departures(s->bd.hbm_bytes, s->bd.hbm_bytes_per_s);
    chalk_put_number(r, "step_s", "step (HBM drain)", CHALK_U_SECONDS, 0, t.step_s);
    chalk_put_number(r, "worst_wait_s", "worst wait", CHALK_U_SECONDS, 0, t.worst_wait_s);
    chalk_put_number(r, "mean_wait_s", "mean wait", CHALK_U_SECONDS, 0, t.mean_wait_s);
    chalk_put_number(r, "worst_latency_s", "worst latency", CHALK_U_SECONDS, 0, t.worst_latency_s);
    chalk_put_number(r, "mean_latency_s", "mean latency", CHALK_U_SECONDS, 0, t.mean_latency_s);
}

static int run_departures(const chalk_args *a)
{
    setup s;
    int status = setup_read(a, CHALK_NEED_BW | CHALK_NEED_HBM, 0, &s);
    if (status)
        return status;
    return setup_emit(a, &s,
                      "chalk departures: a batch leaves every step, full or not (lecture 1.6)", 1,
                      0, build_departures);
}

/* ---- max-batch ------------------------------------------------------------------------------- */

static void build_max_batch(const void *ctx, long row, chalk_record *r)
{
    const setup *s = ctx;
    const batching_deploy *d = &s->bd;
    double context = chalk_sweep_at(&s->context, row), target = chalk_sweep_at(&s->target, row);
    chalk_clear(r);
    put_setup(r, s, 0.0, context, ECHO_CONTEXT | CHALK_ECHO_FLOPS | CHALK_ECHO_HBM);
    chalk_field *f = chalk_put_maybe(r, "target_step_s", "target step", CHALK_U_SECONDS,
                                     CHALK_INPUT, s->target.given, target);
    if (!s->target.given)
        chalk_null_words(r, f, "none"); /* JSON: null */

    char need[SHORT_CHARS], have[SHORT_CHARS];
    double capacity_bytes = d->chips * d->hbm_bytes;
    batching_limit hbm = {.exists = false};
    const char *why;
    if (context > 0.0 && d->kv_bytes_per_token > 0.0) {
        hbm = batching_max_batch_hbm(d, context);
        human(need, sizeof need, CHALK_U_BYTES, resident_bytes(d, 1, context));
        human(have, sizeof have, CHALK_U_BYTES, capacity_bytes);
        why = chalk_fmt(r, "the weights and one sequence's KV cache need %s; %d chips hold %s",
                        need, d->chips, have);
    } else if (resident_bytes(d, 0, 0) > capacity_bytes) {
        human(need, sizeof need, CHALK_U_BYTES, resident_bytes(d, 0, 0));
        human(have, sizeof have, CHALK_U_BYTES, capacity_bytes);
        why = chalk_fmt(r, "the weights alone need %s; %d chips hold %s", need, d->chips, have);
    } else {
        why = "no KV cache (context or KV bytes 0): HBM capacity sets no limit on the batch";
    }
    chalk_put_result(r, "max_batch_hbm", "max batch, HBM", CHALK_U_SEQUENCES, 0, hbm.exists,
                     (double)hbm.batch, why);

    double floor_s = batching_latency_floor_s(d);
    batching_limit fast = {.exists = false};
    if (!s->target.given) {
        why = "no --target-step-s given";
    } else {
        fast = batching_max_batch_latency(d, context, target);
        char asked[SHORT_CHARS], floor_text[SHORT_CHARS];
        human(asked, sizeof asked, CHALK_U_SECONDS, target);
        human(floor_text, sizeof floor_text, CHALK_U_SECONDS, floor_s);
        if (target < floor_s)
            why = chalk_fmt(r, "a %s step is below the latency floor, %s to read every weight once",
                            asked, floor_text);
        else
            why = chalk_fmt(r, "one sequence at this context takes longer than %s", asked);
    }
    chalk_put_result(r, "max_batch_latency", "max batch, step target", CHALK_U_SEQUENCES, 0,
                     fast.exists, (double)fast.batch, why);
    chalk_put_number(r, "latency_floor_s", "latency floor", CHALK_U_SECONDS, 0, floor_s);
}

static int run_max_batch(const chalk_args *a)
{
    setup s;
    unsigned needs = CHALK_NEED_PARAMS | CHALK_NEED_BW | CHALK_NEED_HBM;
    if (chalk_given(a, &F_TARGET))
        needs |= CHALK_NEED_FLOPS; /* the compute slope limits a step too */
    int status = setup_read(a, needs, NEED_CONTEXT, &s);
    if (status)
        return status;
    return setup_emit(
        a, &s, "chalk max-batch: the largest batch HBM and a step target allow (lecture 1.6)",
        rows_of(&s), ECHO_CONTEXT | CHALK_ECHO_FLOPS | CHALK_ECHO_HBM, build_max_batch);
}

/* ---- fast-mode ----------------------------------------------------------------------------- */

static void build_fast(const void *ctx, long row, chalk_record *r)
{
    const setup *s = ctx;
    const batching_deploy *d = &s->bd;
    double context = chalk_sweep_at(&s->context, row);
    double speedup = chalk_sweep_at(&s->speedup, row);
    double batch = s->balance_multiple > 0.0
                       ? s->balance_multiple * batching_balance_batch(d, context).batch
                       : chalk_sweep_at(&s->batch, row);
    chalk_clear(r);
    put_setup(r, s, batch, context, ECHO_CONTEXT | CHALK_ECHO_FLOPS | CHALK_ECHO_HBM);
    chalk_put_number(r, "speedup", "speedup", CHALK_U_PLAIN, CHALK_INPUT, speedup);
    chalk_field *m = chalk_put_maybe(r, "balance_multiple", "normal / balance batch", CHALK_U_PLAIN,
                                     CHALK_INPUT, s->balance_multiple > 0.0, s->balance_multiple);
    if (s->balance_multiple <= 0.0)
        chalk_null_words(r, m, "none"); /* JSON: null */
    chalk_put_number(r, "batch", "normal batch", CHALK_U_SEQUENCES,
                     s->balance_multiple > 0.0 ? 0 : CHALK_INPUT, batch);
    put_fits_hbm(r, s, batch, context, CHALK_DETAIL); /* the normal service must fit */

    batching_fast f = batching_fast_mode(d, context, batch, speedup);
    double normal_s = batching_step_at(d, batch, context).step_s;
    double floor_s = batching_latency_floor_s(d);
    char asked[SHORT_CHARS], floor_text[SHORT_CHARS];
    human(asked, sizeof asked, CHALK_U_SECONDS, normal_s / speedup); /* the asked-for step */
    human(floor_text, sizeof floor_text, CHALK_U_SECONDS, floor_s);
    const char *why =
        normal_s / speedup < floor_s
            ? chalk_fmt(r, "a %s step is below the latency floor, %s to read every weight once",
                        asked, floor_text)
            : chalk_fmt(r, "a %s step is too short for even one sequence", asked);
    chalk_put_bool(r, "possible", "possible", 0, f.possible);
    /* left of the knee a token costs more than its arithmetic: fast mode has a price */
    bool fast_memory =
        f.possible && batching_step_at(d, f.batch, context).bound == COST_BOUND_MEMORY;
    chalk_put_bool(r, "fast_memory_bound", "fast step memory-bound", CHALK_DETAIL, fast_memory);
    chalk_put_result(r, "fast_batch", "fast batch", CHALK_U_SEQUENCES, 0, f.possible, f.batch, why);
    chalk_put_result(r, "fast_step_s", "fast step", CHALK_U_SECONDS, 0, f.possible, f.step_s, why);
    chalk_put_number(r, "normal_step_s", "normal step", CHALK_U_SECONDS, 0, normal_s);
    chalk_put_result(r, "cost_ratio", "cost per token vs normal", CHALK_U_PLAIN, 0, f.possible,
                     f.cost_ratio, why);
    chalk_put_number(r, "latency_floor_s", "latency floor", CHALK_U_SECONDS, CHALK_DETAIL, floor_s);
    chalk_put_string(r, "reason", "  why not", CHALK_DETAIL, f.possible ? NULL : why);
}

static int run_fast(const chalk_args *a)
{
    setup s;
    double multiple = 0.0;
    bool by_balance = chalk_given(a, &F_BALANCE_MULTIPLE);
    if (by_balance && chalk_given(a, &CHALK_F_BATCH))
        return chalk_fail("fast-mode takes --batch B or --balance-multiple X, not both");
    int status = by_balance ? chalk_number(a, &F_BALANCE_MULTIPLE, &multiple) : CHALK_OK;
    if (!status)
        status = setup_read(a, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW,
                            (by_balance ? 0 : NEED_BATCH) | NEED_CONTEXT | NEED_SPEEDUP, &s);
    if (status)
        return status;
    s.balance_multiple = multiple;
    for (long i = 0; by_balance && i < s.context.points; i++) {
        double context = chalk_sweep_at(&s.context, i);
        if (!batching_balance_batch(&s.bd, context).exists) {
            setup_free(&s);
            return chalk_fail("fast-mode --balance-multiple: no balance batch at %g tokens of "
                              "context (past %g, every batch is memory-bound)",
                              context, batching_max_balanced_context_tokens(&s.bd));
        }
    }
    return setup_emit(a, &s, "chalk fast-mode: a smaller batch for a faster step (lecture 1.9)",
                      rows_of(&s), ECHO_CONTEXT | CHALK_ECHO_FLOPS | CHALK_ECHO_HBM, build_fast);
}

/* ---- cheapest ------------------------------------------------------------------------------ */

/* The offers of a search: the hardware of --hw or of the rate flags alone, up to its
 * --chips (default: its scale-up domain), at its price; without them, every preset
 * with a dense peak at --dtype and a dated price, each up to its scale-up domain. */
static int read_offers(const chalk_args *a, setup *s)
{
    const chalk_deploy *d = &s->d;
    bool one = d->hw || chalk_given(a, &CHALK_F_FLOPS) || chalk_given(a, &CHALK_F_HBM_BPS);
    if (one) {
        if (!d->has_flops || !d->has_bw || !d->has_hbm)
            return chalk_fail("cheapest needs --hw NAME, or --flops-per-s, --hbm-bytes-per-s "
                              "and --hbm-bytes, for the hardware it prices");
        if (!d->has_price)
            return chalk_fail("cheapest needs --usd-per-chip-hour X (%s has no sourced price)",
                              d->hw ? d->hw->name : "hardware from flags");
        s->offers[0] = (batching_offer){d->hw ? d->hw->name : "(from flags)",
                                        d->flops_per_s,
                                        d->hbm_bytes_per_s,
                                        d->hbm_bytes,
                                        d->usd_per_chip_hour,
                                        d->chips};
        s->offer_count = 1;
    } else {
        if (chalk_given(a, &CHALK_F_CHIPS) || chalk_given(a, &CHALK_F_HBM_BYTES) ||
            chalk_given(a, &CHALK_F_USD))
            return chalk_fail("cheapest: --chips, --hbm-bytes and --usd-per-chip-hour describe "
                              "one offer: pass --hw NAME (or the rate flags) with them");
        size_t n = 0;
        const cost_hw *const *all = cost_hw_presets(&n);
        for (size_t i = 0; i < n && s->offer_count < MAX_OFFERS; i++) {
            const cost_hw *hw = all[i];
            if (hw->preliminary || !cost_hw_supports(hw, d->dtype) || !cost_hw_has_price(hw))
                continue;
            s->offers[s->offer_count++] = (batching_offer){
                hw->name,     cost_hw_peak_flops_per_s(hw, d->dtype), hw->hbm_bytes_per_s,
                hw->hbm_bytes, hw->usd_per_chip_hour,                  hw->scaleup_domain_chips};
        }
        if (s->offer_count == 0)
            return chalk_fail("cheapest: no hardware preset has a %s peak and a dated price; "
                              "pass --hw NAME --usd-per-chip-hour X",
                              cost_dtype_name(d->dtype));
    }
    size_t used = 0;
    for (int i = 0; i < s->offer_count; i++)
        used += (size_t)snprintf(s->offer_names + used, sizeof s->offer_names - used, "%s%s",
                                 i ? " " : "", s->offers[i].name);
    return CHALK_OK;
}

static void build_cheapest(const void *ctx, long row, chalk_record *r)
{
    const setup *s = ctx;
    const chalk_deploy *d = &s->d;
    double context = chalk_sweep_at(&s->context, row), target = chalk_sweep_at(&s->target, row);
    chalk_clear(r);
    chalk_field *f =
        chalk_put_string(r, "model", "model", CHALK_INPUT, d->model ? d->model->name : NULL);
    if (!d->model)
        chalk_null_words(r, f, "(from flags)"); /* JSON: null */
    chalk_put_string(r, "dtype", "dtype", CHALK_INPUT, cost_dtype_name(d->dtype));
    chalk_put_number(r, "params_total", "params total", CHALK_U_PARAMS, CHALK_INPUT,
                     d->params_total);
    chalk_put_number(r, "bytes_per_param", "bytes per param", CHALK_U_BYTES_PER_PARAM,
                     CHALK_INPUT, d->bytes_per_param);
    chalk_put_number(r, "kv_bytes_per_token", "KV bytes per token", CHALK_U_BYTES_PER_TOKEN,
                     CHALK_INPUT, d->kv_bytes_per_token);
    chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, context);
    chalk_put_number(r, "target_step_s", "target step", CHALK_U_SECONDS, CHALK_INPUT, target);
    chalk_put_string(r, "offers", "hardware searched", CHALK_INPUT, s->offer_names);

    batching_plan p = batching_cheapest(&s->bd, context, target, s->offers, s->offer_count);
    const char *why = chalk_fmt(r,
                                "no deployment of %s steps within %g s at %g tokens of context "
                                "(below every latency floor, or the weights fit no domain)",
                                s->offer_names, target, context);
    chalk_put_bool(r, "found", "found", 0, p.exists);
    f = chalk_put_string(r, "best_hw", "cheapest hardware", 0,
                         p.exists ? s->offers[p.offer].name : NULL);
    if (!p.exists)
        chalk_null_words(r, f, "none"); /* JSON: null */
    chalk_put_result(r, "best_chips", "chips", CHALK_U_COUNT, 0, p.exists, p.chips, why);
    chalk_put_result(r, "best_batch", "batch", CHALK_U_SEQUENCES, 0, p.exists, (double)p.batch,
                     why);
    chalk_put_result(r, "step_s", "step", CHALK_U_SECONDS, 0, p.exists, p.step_s, why);
    chalk_put_result(r, "usd_per_mtok", "cost", CHALK_U_USD_PER_MTOK, 0, p.exists,
                     p.usd_per_mtok, why);
    chalk_put_result(r, "tokens_per_s", "throughput", CHALK_U_TOKENS_PER_S, CHALK_DETAIL,
                     p.exists, p.exists ? (double)p.batch / p.step_s : 0.0, why);
    chalk_put_result(r, "usd_per_hour", "rent per hour, all chips", CHALK_U_USD, CHALK_DETAIL,
                     p.exists, p.exists ? p.chips * s->offers[p.offer].usd_per_chip_hour : 0.0,
                     why);
}

static int run_cheapest(const chalk_args *a)
{
    setup s;
    int status = setup_read(a, CHALK_NEED_PARAMS | CHALK_NEED_KV, NEED_CONTEXT, &s);
    if (status)
        return status;
    if (!s.target.given)
        status = chalk_fail("cheapest needs --target-step-s S (the longest acceptable step)");
    for (long i = 0; !status && i < s.context.points; i++)
        if (!(chalk_sweep_at(&s.context, i) > 0.0) || !(s.bd.kv_bytes_per_token > 0.0))
            status = chalk_fail("cheapest needs --context > 0 and a KV cache: HBM must hold "
                                "each sequence's");
    if (!status)
        status = read_offers(a, &s);
    if (status) {
        setup_free(&s);
        return status;
    }
    return setup_emit(a, &s,
                      "chalk cheapest: the cheapest deployment within a step target (lecture 1.10)",
                      rows_of(&s), 0, build_cheapest);
}

/* ---- the commands -----------------------------------------------------------------------------
 */

static const chalk_flag *const DECODE_FLAGS[] = {CHALK_MODEL_FLAGS,
                                                 CHALK_RATE_FLAGS,
                                                 &CHALK_F_HBM_BYTES,
                                                 &CHALK_F_USD,
                                                 &CHALK_F_BATCH,
                                                 &CHALK_F_CONTEXT,
                                                 NULL};
static const chalk_flag *const BALANCE_FLAGS[] = {CHALK_MODEL_FLAGS, CHALK_RATE_FLAGS,
                                                  &CHALK_F_HBM_BYTES, &CHALK_F_CONTEXT, NULL};
static const chalk_flag *const DEPARTURES_FLAGS[] = {&CHALK_F_HW, &CHALK_F_HBM_BYTES,
                                                     &CHALK_F_HBM_BPS, NULL};
static const chalk_flag *const MAX_BATCH_FLAGS[] = {
    CHALK_MODEL_FLAGS, CHALK_RATE_FLAGS, &CHALK_F_HBM_BYTES, &CHALK_F_CONTEXT, &F_TARGET, NULL};
static const chalk_flag *const CHEAPEST_FLAGS[] = {
    CHALK_MODEL_FLAGS, CHALK_RATE_FLAGS, &CHALK_F_HBM_BYTES, &CHALK_F_USD,
    &CHALK_F_CONTEXT,  &F_TARGET,        NULL};
static const chalk_flag *const FAST_FLAGS[] = {
    CHALK_MODEL_FLAGS,   CHALK_RATE_FLAGS, &CHALK_F_HBM_BYTES, &CHALK_F_BATCH,
    &F_BALANCE_MULTIPLE, &CHALK_F_CONTEXT, &F_SPEEDUP,         NULL};

static const char *const ABOUT_DECODE[] = {
    "One decode step: each of --batch sequences gets one new token. On --chips chips",
    "sharing the work evenly,",
    "  compute = batch x 2 x params_active / (chips x flops_per_s)",
    "  weights = params_total x bytes_per_param / (chips x hbm_bytes_per_s)",
    "  KV      = batch x context x kv_bytes_per_token / (chips x hbm_bytes_per_s)",
    "  step    = max(compute, weights + KV)        a lower bound",
    "and tokens/s = batch / step; USD/Mtok = rent of all chips for a step / batch.",
    "Needs a model, hardware, --batch and --context; one of them may be a sweep.",
    NULL};
static const char *const EXAMPLES_DECODE[] = {
    "chalk decode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 2048 --context 4096",
    "chalk decode --model llama3-70b --hw h100-sxm --batch 1:4096 --context 8192 --csv",
    "chalk decode --params-total 70e9 --flops-per-s 989e12 --hbm-bytes-per-s 3.35e12 "
    "--batch 64 --context 0",
    NULL};

static const char *const ABOUT_BALANCE[] = {
    "The batch at which a step's compute time equals its memory time:",
    "  hw_ratio             = (flops_per_s / 2) x bytes_per_param / hbm_bytes_per_s",
    "                         (the lecture's ~300: multiplies per byte fetched)",
    "  balance_batch_approx = hw_ratio x sparsity, sparsity = params_total / params_active",
    "  balance_batch        = the same with each sequence's KV fetch at --context; null,",
    "                         with a reason, past max_balanced_context_tokens, where KV",
    "                         grows faster than compute and every batch is memory-bound.",
    "--context is optional (without it balance_batch is null); it may be a sweep.",
    NULL};
static const char *const EXAMPLES_BALANCE[] = {
    "chalk balance-batch --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 8192",
    "chalk balance-batch --params-total 8 --params-active 1 --flops-per-s 600e12 "
    "--hbm-bytes-per-s 1e12 --weight-bytes 1",
    NULL};

static const char *const ABOUT_DEPARTURES[] = {
    "The train schedule: a batch departs every step, full or not, and a step reads all",
    "of HBM once, so it lasts capacity / bandwidth. A request waits up to one step",
    "(half on average), then rides one.", NULL};
static const char *const EXAMPLES_DEPARTURES[] = {
    "chalk departures --hw h100-sxm", "chalk departures --hbm-bytes 288e9 --hbm-bytes-per-s 20e12",
    NULL};

static const char *const ABOUT_MAX_BATCH[] = {
    "The largest whole batch whose weights and KV caches fit in the HBM of all chips",
    "(max_batch_hbm) and, with --target-step-s, whose step takes at most that long",
    "(max_batch_latency). Each is null, with a reason, when not even one sequence",
    "fits. --context or --target-step-s may be a sweep.", NULL};
static const char *const EXAMPLES_MAX_BATCH[] = {
    "chalk max-batch --model llama3-70b --hw h100-sxm --context 32768 --target-step-s 0.05",
    "chalk max-batch --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 1024:1e6 --csv",
    NULL};

static const char *const ABOUT_FAST[] = {
    "Fast mode: run a smaller batch so that a step takes 1/--speedup of the step at",
    "--batch, and report what a token then costs relative to normal (cost_ratio).",
    "Impossible, with a reason, when that step is below the latency floor (one read",
    "of every weight) or too short for one sequence. --batch, --context or --speedup",
    "may be a sweep.",
    NULL};
static const char *const EXAMPLES_FAST[] = {
    "chalk fast-mode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 4096 "
    "--batch 6000 --speedup 2",
    NULL};

static const char *const ABOUT_CHEAPEST[] = {
    "The cheapest way to serve a model at --context with a step of at most",
    "--target-step-s: over hardware, chip count (1 up to the scale-up domain, or",
    "--chips) and whole batch, the deployment whose weights and KV caches fit in HBM,",
    "whose step meets the target, and whose USD per million tokens is least (ties:",
    "the fewest chips, then the earlier preset). With --hw NAME (or hardware flags)",
    "it searches that hardware at its price (--usd-per-chip-hour when it has none);",
    "without, every preset with a peak at --dtype and a dated price. Null, with a",
    "reason, when nothing meets the target. --context or --target-step-s may be a sweep.",
    NULL};
static const char *const EXAMPLES_CHEAPEST[] = {
    "chalk cheapest --model llama3-70b --context 8192 --target-step-s 0.03",
    "chalk cheapest --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --usd-per-chip-hour 2 "
    "--context 1024 --target-step-s 0.02",
    NULL};

static const chalk_command COMMANDS[] = {
    {"decode", "[flags]", "one decode step: roofline, tokens/s, USD per Mtok (1.2-1.4)",
     DECODE_FLAGS, ABOUT_DECODE, EXAMPLES_DECODE, run_decode},
    {"balance-batch", "[flags]", "the batch where compute time meets memory time (1.5)",
     BALANCE_FLAGS, ABOUT_BALANCE, EXAMPLES_BALANCE, run_balance},
    {"departures", "[flags]", "the train schedule: a step drains HBM once (1.6)", DEPARTURES_FLAGS,
     ABOUT_DEPARTURES, EXAMPLES_DEPARTURES, run_departures},
    {"max-batch", "[flags]", "the largest batch HBM or a step-time target allows (1.6)",
     MAX_BATCH_FLAGS, ABOUT_MAX_BATCH, EXAMPLES_MAX_BATCH, run_max_batch},
    {"fast-mode", "[flags]", "a smaller batch for a faster step, and its cost (1.9)", FAST_FLAGS,
     ABOUT_FAST, EXAMPLES_FAST, run_fast},
    {"cheapest", "[flags]", "the cheapest hardware, chips and batch for a step target (1.10)",
     CHEAPEST_FLAGS, ABOUT_CHEAPEST, EXAMPLES_CHEAPEST, run_cheapest},
};

const chalk_chapter chalk_chapter_01_batching = {
    .number = 1,
    .title = "batching: how batch size sets the cost of a token",
    .commands = COMMANDS,
    .count = sizeof COMMANDS / sizeof COMMANDS[0],
};
