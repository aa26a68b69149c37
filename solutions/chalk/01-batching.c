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

#include "01-batching.h"
#include "chalk.h"

/* ---- this chapter's own flags ------------------------------------------------------------ */

#define WORKLOAD "workload"

/* clang-format off */
static const chalk_flag F_SPEEDUP = {"--speedup", "S", "speedup", CHALK_U_RATIO, 1, 1e6, 0, "how many times faster, >= 1", WORKLOAD,
    "how many times faster the fast step is (>= 1); may be a sweep"};
static const chalk_flag F_BALANCE_MULTIPLE = {"--balance-multiple", "X", "balance_multiple", CHALK_U_RATIO, 0, 1e3, CHALK_ABOVE_MIN, "normal batch over the balance batch", WORKLOAD,
    "the normal batch as X times the balance batch at --context (instead of --batch)"};
/* clang-format on */
#define F_TARGET CHALK_F_TARGET_STEP

/* The routed experts' idle share at which a batch counts as reading every expert. */
#define IDLE_SHARE 0.01

enum { SHORT_CHARS = 40 };

/* The most offers a cheapest search compares (every hardware preset fits). */
enum { MAX_OFFERS = 16 };

/* ---- a deployment and the workload ---------------------------------------------------------- */

batching_deploy chalk_batching_deploy(const chalk_deploy *d)
{
    batching_deploy bd = {
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
        bd.experts_routed = d->model->experts_routed;
        bd.experts_per_token = d->model->experts_active;
    }
    return bd;
}

/* A context above 0 needs the KV bytes per token. */
static int check_kv(const chalk_point *p)
{
    if (p->d->has_kv || !(chalk_in(p, &CHALK_F_CONTEXT) > 0.0))
        return CHALK_OK;
    return chalk_fail("%s needs --kv-bytes-per-token X (or --model NAME) when --context > 0",
                      p->cmd->name);
}

enum { ECHO_BATCH = 1u << 8, ECHO_CONTEXT = 1u << 9 };

/* The deployment's echo with the batch and the context in their place. */
static void put_setup(chalk_record *r, const chalk_point *p, double batch, unsigned echo)
{
    chalk_deploy_echo_head(r, p->d);
    if (echo & ECHO_BATCH)
        chalk_put_number(r, "batch", "batch", CHALK_U_SEQUENCES, CHALK_INPUT, batch);
    if (echo & ECHO_CONTEXT)
        chalk_put_maybe(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT,
                        chalk_has(p, &CHALK_F_CONTEXT), chalk_in(p, &CHALK_F_CONTEXT));
    chalk_deploy_echo_tail(r, p->d, echo);
}

/* Bytes resident in HBM: the weights and `batch` KV caches (batching_step). */
static double resident_bytes(const batching_deploy *d, double batch, double context_tokens)
{
    return batching_step_at(d, batch, context_tokens).hbm_bytes;
}

/* fits_hbm: whether the weights and `batch` KV caches fit in the HBM of all chips;
 * null, with a reason, when the HBM capacity is unknown. */
static void put_fits_hbm(chalk_record *r, const chalk_point *p, double batch, unsigned flags)
{
    batching_deploy d = chalk_batching_deploy(p->d);
    double context = chalk_in(p, &CHALK_F_CONTEXT);
    chalk_put_bool_result(r, "fits_hbm", "fits in HBM", flags, p->d->has_hbm,
                          resident_bytes(&d, batch, context) <= d.chips * d.hbm_bytes,
                          "no HBM capacity: pass --hbm-bytes X (or --hw NAME)");
}

/* The step if only the experts some token wants are read (exercise 1.3): the same
 * roofline with the expected weights read in place of every weight. Null, with a
 * reason, for an MoE given by flags alone (its expert counts are unknown) and below
 * a batch of one. */
static void put_fetched(chalk_record *r, const chalk_point *p, double batch, double context)
{
    const batching_deploy d = chalk_batching_deploy(p->d);
    bool known =
        d.experts_routed > 0 || p->d->active_is_total || d.params_active >= d.params_total;
    bool ok = known && batch >= 1.0;
    const char *why = !known ? "no expert counts: pass --model NAME for an MoE's routing"
                             : "a step holds at least one sequence: pass --batch >= 1";
    batching_deploy read = d;
    if (ok)
        read.params_total = batching_params_fetched(&d, batch);
    batching_step st = ok ? batching_step_at(&read, batch, context) : (batching_step){0};
    chalk_put_result(r, "params_fetched", "params read, expected", CHALK_U_PARAMS, CHALK_DETAIL, ok,
                     read.params_total, why);
    chalk_put_result(r, "fetched_weights_s", "weight fetch, expected", CHALK_U_SECONDS,
                     CHALK_DETAIL, ok, st.weights_s, why);
    chalk_put_result(r, "fetched_step_s", "step, expected weights", CHALK_U_SECONDS, CHALK_DETAIL,
                     ok, st.step_s, why);
    bool priced = ok && p->d->has_price;
    chalk_put_result(r, "fetched_usd_per_mtok", "cost, expected weights", CHALK_U_USD_PER_MTOK,
                     CHALK_DETAIL, priced,
                     priced ? batching_usd_per_mtok(&read, batch, context) : 0.0,
                     ok ? "no price: pass --usd-per-chip-hour" : why);
    chalk_put_result(r, "all_experts_batch", "batch reading 99% of experts", CHALK_U_SEQUENCES,
                     CHALK_DETAIL, known,
                     known ? (double)batching_all_experts_batch(&d, IDLE_SHARE) : 0.0, why);
}

/* ---- decode ---------------------------------------------------------------------------------- */

static void build_decode(const chalk_point *p, chalk_record *r)
{
    const batching_deploy d = chalk_batching_deploy(p->d);
    double batch = chalk_in(p, &CHALK_F_BATCH), context = chalk_in(p, &CHALK_F_CONTEXT);
    chalk_clear(r);
    put_setup(r, p, batch,
              ECHO_BATCH | ECHO_CONTEXT | CHALK_ECHO_FLOPS | CHALK_ECHO_HBM | CHALK_ECHO_PRICE);

    batching_step st = batching_step_at(&d, batch, context);
    chalk_put_number(r, "compute_s", "compute", CHALK_U_SECONDS, 0, st.compute_s);
    chalk_put_number(r, "weights_s", "weight fetch", CHALK_U_SECONDS, 0, st.weights_s);
    chalk_put_number(r, "kv_s", "KV fetch", CHALK_U_SECONDS, 0, st.kv_s);
    chalk_put_number(r, "memory_s", "memory", CHALK_U_SECONDS, CHALK_DETAIL, st.memory_s);
    chalk_put_number(r, "step_s", "step", CHALK_U_SECONDS, 0, st.step_s);
    chalk_put_string(r, "bound", "bound", 0, cost_bound_name(st.bound));
    /* model FLOPs utilisation on the roofline: the share of the step spent multiplying */
    chalk_put_number(r, "mfu", "MFU (compute / step)", CHALK_U_PLAIN, CHALK_DETAIL, st.mfu);
    chalk_put_number(r, "tokens_per_s", "throughput", CHALK_U_TOKENS_PER_S, 0,
                     batching_tokens_per_s(&d, batch, context));
    chalk_put_number(r, "latency_floor_s", "latency floor", CHALK_U_SECONDS, CHALK_DETAIL,
                     batching_latency_floor_s(&d));
    chalk_put_number(r, "hbm_used_bytes", "HBM used, all chips", CHALK_U_BYTES, 0, st.hbm_bytes);
    put_fits_hbm(r, p, batch, 0);
    bool priced = p->d->has_price;
    const char *why = priced ? NULL
                             : chalk_fmt(r, "no price for %s; pass --usd-per-chip-hour",
                                         p->d->hw ? p->d->hw->name : "this hardware");
    chalk_put_result(r, "usd_per_mtok", "cost", CHALK_U_USD_PER_MTOK, 0, priced,
                     priced ? batching_usd_per_mtok(&d, batch, context) : 0.0, why);
    put_fetched(r, p, batch, context);
}

/* ---- balance-batch ----------------------------------------------------------------------- */

static void build_balance(const chalk_point *p, chalk_record *r)
{
    const batching_deploy d = chalk_batching_deploy(p->d);
    double context = chalk_in(p, &CHALK_F_CONTEXT);
    chalk_clear(r);
    put_setup(r, p, 0.0, ECHO_CONTEXT | CHALK_ECHO_FLOPS);

    double ratio = batching_hw_ratio(d.flops_per_s, d.hbm_bytes_per_s, d.bytes_per_param);
    double sparsity = d.params_total / d.params_active; /* exercise 1.4 */
    chalk_put_number(r, "hw_ratio", "hardware ratio", CHALK_U_PLAIN, 0, ratio);
    chalk_put_number(r, "sparsity", "sparsity", CHALK_U_PLAIN, 0, sparsity);
    chalk_put_number(r, "balance_batch_approx", "balance batch, no KV", CHALK_U_SEQUENCES, 0,
                     batching_balance_batch_approx(ratio, sparsity));
    /* past the knee every token costs its own arithmetic: the most any batch gives */
    chalk_put_number(r, "compute_tokens_per_s", "tokens/s, compute-bound", CHALK_U_TOKENS_PER_S,
                     CHALK_DETAIL, 1.0 / batching_compute_s(&d, 1.0));

    bool has_limit = p->d->has_kv && d.kv_bytes_per_token > 0.0;
    double limit_tokens = has_limit ? batching_max_balanced_context_tokens(&d) : 0.0;
    batching_balance bal = {.exists = false};
    const char *why;
    if (!chalk_has(p, &CHALK_F_CONTEXT)) {
        why = "no --context given: pass --context T for the balance batch with the KV term";
    } else {
        bal = batching_balance_batch(&d, context);
        char kv[SHORT_CHARS], compute[SHORT_CHARS], limit[SHORT_CHARS];
        chalk_human(kv, sizeof kv, CHALK_U_SECONDS, batching_kv_s(&d, 1, context));
        chalk_human(compute, sizeof compute, CHALK_U_SECONDS, batching_compute_s(&d, 1));
        chalk_sig(limit, sizeof limit, limit_tokens);
        why = chalk_fmt(r,
                        "each sequence's KV fetch (%s) outgrows its compute (%s): every batch is "
                        "memory-bound past %s tokens of context",
                        kv, compute, limit);
    }
    chalk_put_result(r, "balance_batch", "balance batch, with KV", CHALK_U_SEQUENCES, 0, bal.exists,
                     bal.batch, why);
    /* a drawn deployment must exist: its weights, and the balance batch's caches */
    put_fits_hbm(r, p, bal.exists ? bal.batch : 0.0, CHALK_DETAIL);
    chalk_put_result(r, "max_balanced_context_tokens", "max balanced context", CHALK_U_TOKENS, 0,
                     has_limit, limit_tokens,
                     p->d->has_kv ? "no KV cache (kv_bytes_per_token is 0): compute always wins"
                                  : "no KV size: pass --kv-bytes-per-token X or --model NAME");
    /* exercise 1.11: how far sparsity can go at this context, active parameters held */
    batching_sparsity sp = {.exists = false};
    const char *why_sp = "no --context given: pass --context T for the largest sparsity";
    if (chalk_has(p, &CHALK_F_CONTEXT)) {
        sp = batching_max_sparsity(&d, context);
        why_sp = bal.exists ? "not even a dense model of the active parameters holds its "
                              "balance batch's caches in HBM"
                            : "no balance batch at this context, at any sparsity";
    }
    chalk_put_result(r, "max_sparsity", "max sparsity that fits", CHALK_U_PLAIN, CHALK_DETAIL,
                     sp.exists, sp.sparsity, why_sp);
}

/* ---- departures ---------------------------------------------------------------------------- */

static void build_departures(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    chalk_clear(r);
    chalk_put_hw_name(r, d->hw);
    chalk_put_number(r, "hbm_bytes", "HBM per chip", CHALK_U_BYTES, CHALK_INPUT, d->hbm_bytes);
    chalk_put_number(r, "hbm_bytes_per_s", "HBM bandwidth", CHALK_U_BYTES_PER_S, CHALK_INPUT,
                     d->hbm_bytes_per_s);
    chalk_put_string(r, "overrides", "overrides", CHALK_INPUT | CHALK_DETAIL,
                     d->overrides[0] ? d->overrides : NULL);
    batching_departures t = batching_train_departures(d->hbm_bytes, d->hbm_bytes_per_s);
    chalk_put_number(r, "step_s", "step (HBM drain)", CHALK_U_SECONDS, 0, t.step_s);
    chalk_put_number(r, "worst_wait_s", "worst wait", CHALK_U_SECONDS, 0, t.worst_wait_s);
    chalk_put_number(r, "mean_wait_s", "mean wait", CHALK_U_SECONDS, 0, t.mean_wait_s);
    chalk_put_number(r, "worst_latency_s", "worst latency", CHALK_U_SECONDS, 0, t.worst_latency_s);
    chalk_put_number(r, "mean_latency_s", "mean latency", CHALK_U_SECONDS, 0, t.mean_latency_s);
}

/* ---- max-batch ------------------------------------------------------------------------------- */

/* A step target needs the compute slope too. */
static int check_max_batch(const chalk_point *p)
{
    int status = check_kv(p);
    if (!status && chalk_has(p, &F_TARGET))
        status = chalk_deploy_require(p->d, CHALK_NEED_FLOPS);
    return status;
}

static void build_max_batch(const chalk_point *p, chalk_record *r)
{
    const batching_deploy d = chalk_batching_deploy(p->d);
    double context = chalk_in(p, &CHALK_F_CONTEXT), target = chalk_in(p, &F_TARGET);
    bool has_target = chalk_has(p, &F_TARGET);
    chalk_clear(r);
    put_setup(r, p, 0.0, ECHO_CONTEXT | CHALK_ECHO_FLOPS | CHALK_ECHO_HBM);
    chalk_field *f = chalk_put_maybe(r, "target_step_s", "target step", CHALK_U_SECONDS,
                                     CHALK_INPUT, has_target, target);
    if (!has_target)
        chalk_null_words(r, f, "none"); /* JSON: null */

    char need[SHORT_CHARS], have[SHORT_CHARS];
    double capacity_bytes = d.chips * d.hbm_bytes;
    batching_limit hbm = {.exists = false};
    const char *why;
    if (context > 0.0 && d.kv_bytes_per_token > 0.0) {
        hbm = batching_max_batch_hbm(&d, context);
        chalk_human(need, sizeof need, CHALK_U_BYTES, resident_bytes(&d, 1, context));
        chalk_human(have, sizeof have, CHALK_U_BYTES, capacity_bytes);
        why = chalk_fmt(r, "the weights and one sequence's KV cache need %s; %d chips hold %s",
                        need, d.chips, have);
    } else if (resident_bytes(&d, 0, 0) > capacity_bytes) {
        chalk_human(need, sizeof need, CHALK_U_BYTES, resident_bytes(&d, 0, 0));
        chalk_human(have, sizeof have, CHALK_U_BYTES, capacity_bytes);
        why = chalk_fmt(r, "the weights alone need %s; %d chips hold %s", need, d.chips, have);
    } else {
        why = "no KV cache (context or KV bytes 0): HBM capacity sets no limit on the batch";
    }
    chalk_put_result(r, "max_batch_hbm", "max batch, HBM", CHALK_U_SEQUENCES, 0, hbm.exists,
                     (double)hbm.batch, why);

    double floor_s = batching_latency_floor_s(&d);
    batching_limit fast = {.exists = false};
    if (!has_target) {
        why = "no --target-step-s given";
    } else {
        fast = batching_max_batch_latency(&d, context, target);
        char asked[SHORT_CHARS], floor_text[SHORT_CHARS];
        chalk_human(asked, sizeof asked, CHALK_U_SECONDS, target);
        chalk_human(floor_text, sizeof floor_text, CHALK_U_SECONDS, floor_s);
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

/* ---- fast-mode ----------------------------------------------------------------------------- */

/* --batch or --balance-multiple; with the latter, a balance batch at every context. */
static int check_fast(const chalk_point *p)
{
    int status = chalk_not_both(p, &CHALK_F_BATCH, &F_BALANCE_MULTIPLE);
    if (!status && !chalk_has(p, &F_BALANCE_MULTIPLE))
        status = chalk_require(p, &CHALK_F_BATCH);
    if (!status)
        status = check_kv(p);
    const batching_deploy d = chalk_batching_deploy(p->d);
    double context = chalk_in(p, &CHALK_F_CONTEXT);
    if (!status && chalk_has(p, &F_BALANCE_MULTIPLE) &&
        !batching_balance_batch(&d, context).exists)
        status = chalk_fail("fast-mode --balance-multiple: no balance batch at %g tokens of "
                            "context (past %g, every batch is memory-bound)",
                            context, batching_max_balanced_context_tokens(&d));
    /* batching_fast_mode's precondition: a normal batch of at least one sequence */
    double batch = 0.0;
    if (!status)
        batch = chalk_has(p, &F_BALANCE_MULTIPLE)
                    ? chalk_in(p, &F_BALANCE_MULTIPLE) * batching_balance_batch(&d, context).batch
                    : chalk_in(p, &CHALK_F_BATCH);
    if (!status && !(batch >= 1.0))
        status = chalk_fail("fast-mode: the normal batch is %g sequences; it must hold at least one",
                            batch);
    return status;
}

/* A step that reads only the weights its batch fetches (batching_fast_mode's step, 1.9):
 * batching_step_at with batching_params_fetched's parameters in place of every one. */
static batching_step fetched_step(const batching_deploy *d, double batch, double context)
{
    batching_deploy read = *d;
    read.params_total = batching_params_fetched(d, batch);
    return batching_step_at(&read, batch, context);
}

static void build_fast(const chalk_point *p, chalk_record *r)
{
    const batching_deploy d = chalk_batching_deploy(p->d);
    double context = chalk_in(p, &CHALK_F_CONTEXT), speedup = chalk_in(p, &F_SPEEDUP);
    bool by_balance = chalk_has(p, &F_BALANCE_MULTIPLE);
    double multiple = chalk_in(p, &F_BALANCE_MULTIPLE);
    double batch = by_balance ? multiple * batching_balance_batch(&d, context).batch
                              : chalk_in(p, &CHALK_F_BATCH);
    chalk_clear(r);
    put_setup(r, p, batch, ECHO_CONTEXT | CHALK_ECHO_FLOPS | CHALK_ECHO_HBM);
    chalk_put_number(r, "speedup", "speedup", CHALK_U_PLAIN, CHALK_INPUT, speedup);
    chalk_field *m = chalk_put_maybe(r, "balance_multiple", "normal / balance batch", CHALK_U_PLAIN,
                                     CHALK_INPUT, by_balance, multiple);
    if (!by_balance)
        chalk_null_words(r, m, "none"); /* JSON: null */
    chalk_put_number(r, "batch", "normal batch", CHALK_U_SEQUENCES, by_balance ? 0 : CHALK_INPUT,
                     batch);
    put_fits_hbm(r, p, batch, CHALK_DETAIL); /* the normal service must fit */

    batching_fast f = batching_fast_mode(&d, context, batch, speedup);
    double normal_s = fetched_step(&d, batch, context).step_s;
    double floor_s = batching_latency_floor_s(&d);
    double one_s = fetched_step(&d, 1.0, context).step_s; /* the fastest step there is */
    char asked[SHORT_CHARS], one_text[SHORT_CHARS];
    chalk_human(asked, sizeof asked, CHALK_U_SECONDS, normal_s / speedup); /* the asked-for step */
    chalk_human(one_text, sizeof one_text, CHALK_U_SECONDS, one_s);
    const char *why = chalk_fmt(r, "a %s step is shorter than one sequence's step, %s", asked,
                                one_text);
    chalk_put_bool(r, "possible", "possible", 0, f.possible);
    /* left of the knee a token costs more than its arithmetic: fast mode has a price */
    bool fast_memory =
        f.possible && fetched_step(&d, f.batch, context).bound == COST_BOUND_MEMORY;
    chalk_put_bool(r, "fast_memory_bound", "fast step memory-bound", CHALK_DETAIL, fast_memory);
    chalk_put_result(r, "fast_batch", "fast batch", CHALK_U_SEQUENCES, 0, f.possible, f.batch, why);
    chalk_put_result(r, "fast_step_s", "fast step", CHALK_U_SECONDS, 0, f.possible, f.step_s, why);
    chalk_put_number(r, "normal_step_s", "normal step", CHALK_U_SECONDS, 0, normal_s);
    chalk_put_result(r, "cost_ratio", "cost per token vs normal", CHALK_U_PLAIN, 0, f.possible,
                     f.cost_ratio, why);
    chalk_put_number(r, "latency_floor_s", "latency floor", CHALK_U_SECONDS, CHALK_DETAIL, floor_s);
    chalk_put_number(r, "one_sequence_step_s", "step of one sequence", CHALK_U_SECONDS,
                     CHALK_DETAIL, one_s);
    chalk_put_string(r, "reason", "  why not", CHALK_DETAIL, f.possible ? NULL : why);
}

/* ---- cheapest ------------------------------------------------------------------------------ */

/* The offers of a search: the hardware of --hw or of the rate flags alone, up to its
 * --chips (default: its scale-up domain), at its price; without them, every preset
 * with a dense peak at --dtype and a dated price, each up to its scale-up domain. */
typedef struct offers {
    batching_offer offer[MAX_OFFERS];
    int count;
    char names[MAX_OFFERS * 16];
} offers;

static bool one_offer(const chalk_point *p)
{
    return p->d->hw || chalk_has(p, &CHALK_F_FLOPS) || chalk_has(p, &CHALK_F_HBM_BPS);
}

static void offers_of(const chalk_point *p, offers *o)
{
    const chalk_deploy *d = p->d;
    o->count = 0;
    if (one_offer(p)) {
        o->offer[o->count++] = (batching_offer){d->hw ? d->hw->name : "(from flags)",
                                                d->flops_per_s,
                                                d->hbm_bytes_per_s,
                                                d->hbm_bytes,
                                                d->usd_per_chip_hour,
                                                d->chips};
    } else {
        size_t n = 0;
        const cost_hw *const *all = cost_hw_presets(&n);
        for (size_t i = 0; i < n && o->count < MAX_OFFERS; i++) {
            const cost_hw *hw = all[i];
            if (hw->preliminary || !cost_hw_supports(hw, d->dtype) || !cost_hw_has_price(hw))
                continue;
            o->offer[o->count++] = (batching_offer){
                hw->name,     cost_hw_peak_flops_per_s(hw, d->dtype), hw->hbm_bytes_per_s,
                hw->hbm_bytes, hw->usd_per_chip_hour,                  hw->scaleup_domain_chips};
        }
    }
    size_t used = 0;
    o->names[0] = '\0';
    for (int i = 0; i < o->count; i++)
        used += (size_t)snprintf(o->names + used, sizeof o->names - used, "%s%s", i ? " " : "",
                                 o->offer[i].name);
}

static int check_cheapest(const chalk_point *p)
{
    const chalk_deploy *d = p->d;
    if (!(chalk_in(p, &CHALK_F_CONTEXT) > 0.0) || !(d->kv_bytes_per_token > 0.0))
        return chalk_fail("cheapest needs --context > 0 and a KV cache: HBM must hold "
                          "each sequence's");
    if (one_offer(p)) {
        if (!d->has_flops || !d->has_bw || !d->has_hbm)
            return chalk_fail("cheapest needs --hw NAME, or --flops-per-s, --hbm-bytes-per-s "
                              "and --hbm-bytes, for the hardware it prices");
        if (!d->has_price)
            return chalk_fail("cheapest needs --usd-per-chip-hour X (%s has no sourced price)",
                              d->hw ? d->hw->name : "hardware from flags");
        return CHALK_OK;
    }
    if (chalk_has(p, &CHALK_F_CHIPS) || chalk_has(p, &CHALK_F_HBM_BYTES) ||
        chalk_has(p, &CHALK_F_USD))
        return chalk_fail("cheapest: --chips, --hbm-bytes and --usd-per-chip-hour describe "
                          "one offer: pass --hw NAME (or the rate flags) with them");
    offers o;
    offers_of(p, &o);
    if (o.count == 0)
        return chalk_fail("cheapest: no hardware preset has a %s peak and a dated price; "
                          "pass --hw NAME --usd-per-chip-hour X",
                          cost_dtype_name(d->dtype));
    return CHALK_OK;
}

static void build_cheapest(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    const batching_deploy bd = chalk_batching_deploy(d);
    double context = chalk_in(p, &CHALK_F_CONTEXT), target = chalk_in(p, &F_TARGET);
    offers o;
    offers_of(p, &o);
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
    chalk_put_string(r, "offers", "hardware searched", CHALK_INPUT, chalk_fmt(r, "%s", o.names));

    batching_plan plan = batching_cheapest(&bd, context, target, o.offer, o.count);
    const char *why = chalk_fmt(r,
                                "no deployment of %s steps within %g s at %g tokens of context "
                                "(below every latency floor, or the weights fit no domain)",
                                o.names, target, context);
    bool ok = plan.exists;
    chalk_put_bool(r, "found", "found", 0, ok);
    f = chalk_put_string(r, "best_hw", "cheapest hardware", 0,
                         ok ? o.offer[plan.offer].name : NULL);
    if (!ok)
        chalk_null_words(r, f, "none"); /* JSON: null */
    chalk_put_result(r, "best_chips", "chips", CHALK_U_COUNT, 0, ok, plan.chips, why);
    chalk_put_result(r, "best_batch", "batch", CHALK_U_SEQUENCES, 0, ok, (double)plan.batch, why);
    chalk_put_result(r, "step_s", "step", CHALK_U_SECONDS, 0, ok, plan.step_s, why);
    chalk_put_result(r, "usd_per_mtok", "cost", CHALK_U_USD_PER_MTOK, 0, ok, plan.usd_per_mtok,
                     why);
    chalk_put_result(r, "tokens_per_s", "throughput", CHALK_U_TOKENS_PER_S, CHALK_DETAIL, ok,
                     ok ? (double)plan.batch / plan.step_s : 0.0, why);
    chalk_put_result(r, "usd_per_hour", "rent per hour, all chips", CHALK_U_USD, CHALK_DETAIL, ok,
                     ok ? plan.chips * o.offer[plan.offer].usd_per_chip_hour : 0.0, why);
}

/* ---- the commands ---------------------------------------------------------------------------- */

#define REQ CHALK_REQUIRED
#define SWEEPS CHALK_SWEEPS

static const chalk_input DECODE[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS, {&CHALK_F_HBM_BYTES},
                                     {&CHALK_F_USD}, {&CHALK_F_BATCH, REQ | SWEEPS},
                                     {&CHALK_F_CONTEXT, REQ | SWEEPS}, {NULL}};
static const chalk_input BALANCE[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS, {&CHALK_F_HBM_BYTES},
                                      {&CHALK_F_CONTEXT, SWEEPS}, {NULL}};
static const chalk_input DEPARTURES[] = {{&CHALK_F_HW}, {&CHALK_F_HBM_BYTES}, {&CHALK_F_HBM_BPS},
                                         {NULL}};
static const chalk_input MAX_BATCH[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS, {&CHALK_F_HBM_BYTES},
                                        {&CHALK_F_CONTEXT, REQ | SWEEPS}, {&F_TARGET, SWEEPS},
                                        {NULL}};
static const chalk_input FAST[] = {CHALK_MODEL_INPUTS,          CHALK_RATE_INPUTS,
                                   {&CHALK_F_HBM_BYTES},        {&CHALK_F_BATCH, SWEEPS},
                                   {&F_BALANCE_MULTIPLE},       {&CHALK_F_CONTEXT, REQ | SWEEPS},
                                   {&F_SPEEDUP, REQ | SWEEPS},  {NULL}};

static const chalk_input CHEAPEST[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS, {&CHALK_F_HBM_BYTES},
                                       {&CHALK_F_USD}, {&CHALK_F_CONTEXT, REQ | SWEEPS},
                                       {&F_TARGET, REQ | SWEEPS}, {NULL}};

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
    "  max_sparsity         = the largest params_total / params_active, active parameters",
    "                         held, whose balance batch at --context still fits in HBM",
    "                         beside its weights (exercise 1.11); null past the balance",
    "                         context or when not even a dense model fits.",
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
    "A step reads only the weights its batch fetches (an MoE's small batch leaves",
    "experts unread), so an MoE's fast step can go below the latency floor (one read",
    "of every weight). Impossible, with a reason, when that step is shorter than one",
    "sequence's. --batch (>= 1), --context or --speedup may be a sweep.",
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

#define MODEL_ON_HW (CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW)

static const chalk_command CMD_DECODE = {
    .name = "decode",
    .summary = "one decode step: roofline, tokens/s, USD per Mtok (1.2-1.4)",
    .title = "chalk decode: one decode step, lecture 1.2-1.4 (times are lower bounds)",
    .inputs = DECODE, .needs = MODEL_ON_HW, .check = check_kv, .build = build_decode,
    .about = ABOUT_DECODE, .examples = EXAMPLES_DECODE
};
static const chalk_command CMD_BALANCE_BATCH = {
    .name = "balance-batch",
    .summary = "the batch where compute time meets memory time (1.5)",
    .title = "chalk balance-batch: where compute time meets memory time, lecture 1.5",
    .inputs = BALANCE, .needs = MODEL_ON_HW, .check = check_kv, .build = build_balance,
    .about = ABOUT_BALANCE, .examples = EXAMPLES_BALANCE
};
static const chalk_command CMD_DEPARTURES = {
    .name = "departures",
    .summary = "the train schedule: a step drains HBM once (1.6)",
    .title = "chalk departures: a batch leaves every step, full or not (lecture 1.6)",
    .inputs = DEPARTURES, .needs = CHALK_NEED_BW | CHALK_NEED_HBM, .build = build_departures,
    .about = ABOUT_DEPARTURES, .examples = EXAMPLES_DEPARTURES
};
static const chalk_command CMD_MAX_BATCH = {
    .name = "max-batch",
    .summary = "the largest batch HBM or a step-time target allows (1.6)",
    .title = "chalk max-batch: the largest batch HBM and a step target allow (lecture 1.6)",
    .inputs = MAX_BATCH, .needs = CHALK_NEED_PARAMS | CHALK_NEED_BW | CHALK_NEED_HBM,
    .check = check_max_batch, .build = build_max_batch,
    .about = ABOUT_MAX_BATCH, .examples = EXAMPLES_MAX_BATCH
};
static const chalk_command CMD_FAST_MODE = {
    .name = "fast-mode",
    .summary = "a smaller batch for a faster step, and its cost (1.9)",
    .title = "chalk fast-mode: a smaller batch for a faster step (lecture 1.9)",
    .inputs = FAST, .needs = MODEL_ON_HW, .check = check_fast, .build = build_fast,
    .about = ABOUT_FAST, .examples = EXAMPLES_FAST
};

static const chalk_command CMD_CHEAPEST = {
    .name = "cheapest",
    .summary = "the cheapest hardware, chips and batch for a step target (1.10)",
    .title = "chalk cheapest: the cheapest deployment within a step target (lecture 1.10)",
    .inputs = CHEAPEST, .needs = CHALK_DEPLOY | CHALK_NEED_PARAMS | CHALK_NEED_KV,
    .check = check_cheapest, .build = build_cheapest,
    .about = ABOUT_CHEAPEST, .examples = EXAMPLES_CHEAPEST
};

const chalk_chapter chalk_chapter_01_batching = {
    .number = 1,
    .title = "batching: how batch size sets the cost of a token",
    .commands = (const chalk_command *const[]){&CMD_DECODE, &CMD_BALANCE_BATCH, &CMD_DEPARTURES, &CMD_MAX_BATCH, &CMD_FAST_MODE, &CMD_CHEAPEST, NULL},
};
