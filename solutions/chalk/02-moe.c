/*
 * 02-moe.c -- chapter 2's commands: an MoE layer laid out across a rack.
 *
 *   chalk moe              the layout and the three roofs of a decode step (2.1-2.5)
 *   chalk place            experts on the GPUs of a scale-up domain (2.2)
 *   chalk expert-batch     the batch that keeps every expert compute-bound (2.6)
 *   chalk moe-imbalance    random routing: the busiest expert, drops (2.7)
 *   chalk domain           what a scale-up domain holds; the largest model (2.8)
 *   chalk routed-scaling   the routed scaling law, "64x for 4x" (2.9)
 *
 * Every chapter-2 quantity of the lecture (reference/lecture-notes.md section 10) and
 * the command that reproduces it:
 *   NVL72: 72 GPUs, 64 used, 4 experts each  place --experts 256 --hw gb200-nvl72
 *                                            (moe --model deepseek-v3 --hw gb200-nvl72:
 *                                            gpus_used, experts_per_gpu, gpus_idle)
 *   DeepSeek V3: 256 experts, "32 of 256"    moe --model deepseek-v3 ... -> experts,
 *                                            top_k (8), tokens_per_expert
 *   Scale-out ~8x slower than scale-up      moe ... -> scaleup_over_scaleout (18 for
 *                                            gb200-nvl72; 8 with --scale-out-bytes-per-s
 *                                            112.5e9)
 *   Two racks: half the tokens cross         moe ... --racks 2 -> cross_rack_fraction,
 *                                            slowdown_vs_one_rack (4 at 8x, 4.5 serial)
 *   Rack ~64 GPUs; Hopper 8, Blackwell 72    domain --hw h100-sxm / gb200-nvl72 ->
 *                                            domain_chips; Rubin "500-something":
 *                                            domain --chips 576 --hbm-bytes ...
 *   Hopper domain memory 640 GB              domain --hw h100-sxm -> domain_hbm_bytes
 *   Blackwell domain 10-20 TB; fits 5T + KV  domain --hw gb200-nvl72 [--hbm-bytes 288e9]
 *                                            --dtype fp4 --params-total 5e12 -> fits_weights
 *   GPT-4 > 1T params (bf16) in 640 GB?      domain --hw h100-sxm --params-total 1e12
 *   Active limited by compute, total by      domain ... --params-active N --context T ->
 *   scale-up size: the largest sparsity      largest_params_total, largest_sparsity
 *   Routed scaling: 64 experts 370M ~ 1.3B   routed-scaling --params-active 370e6
 *                                            --experts 64 -> dense_equivalent_params;
 *                                            expert_multiplier (8 for halving)
 *   Expert batch r E / k                     expert-batch --hw ... --experts 256 --top-k 8
 *   Routing imbalance, capacity factor       moe-imbalance --experts 256 --top-k 8 ...
 *
 * Every number comes from the chapter's reference (moe_*, through
 * exercises/02-moe/moe.h) and chapter 1's (batching_hw_ratio), applied to presets
 * and flags (deploy.c).
 */
#include <math.h>
#include <stdio.h>

#include "batching.h"
#include "chalk.h"
#include "moe.h"

/* ---- this chapter's own flags ------------------------------------------------------------ */

#define G_MOE "mixture of experts"
#define G_NET "network (per GPU, one direction)"

static const chalk_flag F_ACT_BYTES = {
    .name = "--act-bytes",
    .arg = "X",
    .key = "act_bytes",
    .group = G_MOE,
    .help = "bytes per activation element sent to and from an expert (default: --dtype's "
            "bytes per element)",
    .min = 0,
    .max = 64,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_RACKS = {
    .name = "--racks",
    .arg = "R",
    .key = "racks",
    .group = G_MOE,
    .help = "racks (scale-up domains) one expert layer spans (default 1); must divide the "
            "experts; may be a list",
    .min = 1,
    .max = 1024,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_SCALEUP = {
    .name = "--scale-up-bytes-per-s",
    .arg = "X",
    .key = "scaleup_bytes_per_s",
    .group = G_NET,
    .help = "scale-up (NVLink, ICI) bandwidth per GPU, one direction (default: --hw's)",
    .min = 1e3,
    .max = 1e18,
};
static const chalk_flag F_SCALEOUT = {
    .name = "--scale-out-bytes-per-s",
    .arg = "X",
    .key = "scaleout_bytes_per_s",
    .group = G_NET,
    .help = "scale-out (NIC) bandwidth per GPU, one direction (default: --hw's)",
    .min = 1e3,
    .max = 1e18,
};
static const chalk_flag F_EXPERTS = {
    .name = "--experts",
    .arg = "E",
    .key = "experts",
    .group = G_MOE,
    .help = "routed experts per MoE layer (default: --model's)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_TOP_K = {
    .name = "--top-k",
    .arg = "K",
    .key = "top_k",
    .group = G_MOE,
    .help = "routed experts each token visits (default: --model's)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_THROUGHPUT = {
    .name = "--throughput-tokens-per-s",
    .arg = "X",
    .key = "throughput_tokens_per_s",
    .group = "workload",
    .help = "tokens per second a deployment makes; with --user-tokens-per-s it sets the "
            "batch (Little's law: sequences in flight = throughput / per-sequence rate)",
    .min = 0,
    .max = 1e15,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_USER_RATE = {
    .name = "--user-tokens-per-s",
    .arg = "X",
    .key = "user_tokens_per_s",
    .group = "workload",
    .help = "tokens per second one sequence receives",
    .min = 1e-3,
    .max = 1e9,
};
static const chalk_flag F_TOKENS = {
    .name = "--batch",
    .arg = "B",
    .key = "batch",
    .group = "workload",
    .help = "tokens routed per step, rounded to a whole number (1 to 1e6); may be a sweep",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_SEED = {
    .name = "--seed",
    .arg = "S",
    .key = "seed",
    .group = "simulation",
    .help = "the generator's starting state (default 1): the same seed, the same result",
    .min = 0,
    .max = 9007199254740992.0, /* 2^53: every whole number below is exact */
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_TRIALS = {
    .name = "--trials",
    .arg = "N",
    .key = "trials",
    .group = "simulation",
    .help = "batches routed (default 100)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_CAPACITY = {
    .name = "--capacity-factor",
    .arg = "X",
    .key = "capacity_factor",
    .group = "simulation",
    .help = "tokens an expert accepts, over the mean load (default 1.25); the rest are dropped",
    .min = 0,
    .max = 1e6,
};
static const chalk_flag F_ACTIVE_RATIO = {
    .name = "--active-ratio",
    .arg = "X",
    .key = "active_ratio",
    .group = G_MOE,
    .help = "active parameters kept, as a share of today's (default 0.5: halved)",
    .min = 1e-6,
    .max = 1,
};
static const chalk_flag F_EXPERTS_SWEEP = {
    .name = "--experts",
    .arg = "E",
    .key = "experts",
    .group = G_MOE,
    .help = "routed experts per layer (>= 1); may be a sweep",
    .min = 1,
    .max = 1e9,
    .rules = CHALK_SWEEPS,
};

/* ---- small shared pieces ---------------------------------------------------------------- */

enum { SHORT_CHARS = 40 };

static void human(char *buf, size_t size, chalk_unit unit, double x)
{
    chalk_human(buf, size, unit, x);
}

/* The model's name (and title), or null "(from flags)". */
static void put_model_name(chalk_record *r, const cost_model *m)
{
    chalk_field *f = chalk_put_string(r, "model", "model", CHALK_INPUT, m ? m->name : NULL);
    if (m)
        chalk_note(r, f, "%s", m->title);
    else
        chalk_null_words(r, f, "(from flags)"); /* JSON: null */
}

/* The number given for `f`, or `fallback`; *given says which. */
static int number_or(const chalk_args *a, const chalk_flag *f, double fallback, double *x,
                     bool *given)
{
    *x = fallback;
    if (given)
        *given = chalk_given(a, f);
    return chalk_number(a, f, x);
}

/* An MoE preset's routing, or an error naming what is missing. */
static int moe_model(const chalk_deploy *d)
{
    if (!d->model)
        return chalk_fail("%s needs --model NAME, an MoE preset (chalk list models: "
                          "deepseek-v3, mixtral-8x7b)",
                          d->cmd);
    if (d->model->experts_routed == 0)
        return chalk_fail("%s is dense: it has no experts to lay out (pick deepseek-v3 or "
                          "mixtral-8x7b)",
                          d->model->name);
    return CHALK_OK;
}

/* Experts and (unless top_k is NULL) top-k from flags, else from --model; an error
 * when neither says. */
static int routing_read(const chalk_args *a, const cost_model *m, int *experts, int *top_k)
{
    double e = m ? m->experts_routed : 0, k = m ? m->experts_active : 1;
    int status;
    if ((status = chalk_number(a, &F_EXPERTS, &e)) ||
        (top_k && (status = chalk_number(a, &F_TOP_K, &k))))
        return status;
    if (e < 1)
        return chalk_fail("%s needs --experts E (or --model NAME, an MoE preset)", a->cmd->name);
    if (top_k && k < 1)
        return chalk_fail("%s needs --top-k K (or --model NAME, an MoE preset)", a->cmd->name);
    if (top_k && !m && !chalk_given(a, &F_TOP_K))
        return chalk_fail("%s needs --top-k K (or --model NAME, an MoE preset)", a->cmd->name);
    if (k > e)
        return chalk_fail("--top-k (%g) cannot exceed --experts (%g): a token visits distinct "
                          "experts",
                          k, e);
    *experts = (int)e;
    if (top_k)
        *top_k = (int)k;
    return CHALK_OK;
}

/* Prints a row per point of `sweep` (one row when it is a single value), unless
 * `status` is already an error; frees the sweep either way. */
static int emit_over(const chalk_args *a, int status, const char *title, chalk_sweep *sweep,
                     void (*build)(const void *, long, chalk_record *), const void *ctx)
{
    if (!status) {
        chalk_report rep = {
            .title = title,
            .rows = chalk_sweeps(sweep) ? sweep->points : 1,
            .swept = chalk_sweeps(sweep) ? sweep : NULL,
            .build = build,
            .ctx = ctx,
        };
        status = chalk_emit(a, &rep);
    }
    chalk_sweep_free(sweep);
    return status;
}

/* ---- moe: the layout and three roofs -------------------------------------------------------- */

typedef struct moe_setup {
    chalk_deploy d;
    chalk_sweep batch, context, racks;
    const chalk_sweep *swept;
    double act_bytes, scaleup, scaleout;
    bool act_given, has_scaleout;
    int moe_layers;
} moe_setup;

static void moe_setup_free(moe_setup *s)
{
    chalk_sweep_free(&s->batch);
    chalk_sweep_free(&s->context);
    chalk_sweep_free(&s->racks);
}

/* The network bandwidths: the preset's, then the flags'. */
static int network_read(const chalk_args *a, moe_setup *s)
{
    const cost_hw *hw = s->d.hw;
    bool up_given = false, out_given = false;
    int status;
    if ((status = number_or(a, &F_SCALEUP, hw ? hw->scaleup_bytes_per_s : 0.0, &s->scaleup,
                            &up_given)) ||
        (status = number_or(a, &F_SCALEOUT, hw ? hw->scaleout_bytes_per_s : 0.0, &s->scaleout,
                            &out_given)))
        return status;
    if (!(s->scaleup > 0.0))
        return chalk_fail("%s needs --scale-up-bytes-per-s X (%s)", s->d.cmd,
                          hw ? "the preset has no scale-up figure" : "or --hw NAME");
    s->has_scaleout = s->scaleout > 0.0;
    for (long i = 0; i < s->racks.points; i++)
        if (chalk_sweep_at(&s->racks, i) > 1 && !s->has_scaleout)
            return chalk_fail("--racks > 1 needs --scale-out-bytes-per-s X (%s)",
                              hw ? "the preset has no scale-out figure" : "or --hw NAME");
    return CHALK_OK;
}

static int moe_setup_read(const chalk_args *a, moe_setup *s)
{
    *s = (moe_setup){0};
    if (!chalk_given(a, &CHALK_F_MODEL))
        return chalk_fail("moe needs --model NAME, an MoE preset (chalk list models: "
                          "deepseek-v3, mixtral-8x7b)");
    int status = chalk_deploy_resolve(
        a, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW | CHALK_NEED_HBM, &s->d);
    if (!status)
        status = moe_model(&s->d);
    chalk_sweep *const inputs[] = {&s->batch, &s->context, &s->racks};
    const chalk_flag *const flags[] = {&CHALK_F_BATCH, &CHALK_F_CONTEXT, &F_RACKS};
    for (int i = 0; i < 3 && !status; i++)
        status = chalk_sweep_read(a, flags[i], inputs[i]);
    if (!status)
        status = chalk_one_sweep(inputs, 3, &s->swept);
    if (!status && !s->batch.given)
        status = chalk_fail("moe needs --batch B (sequences per step)");
    if (!status && !s->context.given)
        status = chalk_fail("moe needs --context T (tokens of context; 0 for none)");
    if (!status && !s->racks.given)
        s->racks.one = 1.0; /* one rack unless told otherwise */
    for (long i = 0; !status && i < s->racks.points; i++) {
        int r = (int)chalk_sweep_at(&s->racks, i);
        if (s->d.model->experts_routed % r != 0)
            status = chalk_fail("--racks %d does not divide %s's %d experts evenly", r,
                                s->d.model->name, s->d.model->experts_routed);
    }
    if (!status)
        status =
            number_or(a, &F_ACT_BYTES, cost_dtype_bytes(s->d.dtype), &s->act_bytes, &s->act_given);
    if (!status)
        status = network_read(a, s);
    if (status) {
        moe_setup_free(s);
        return status;
    }
    s->moe_layers = s->d.model->layers - s->d.model->dense_layers;
    return CHALK_OK;
}

/* The chapter's deployment for `racks` racks: experts placed per rack. */
static moe_deploy moe_deploy_of(const moe_setup *s, int racks, moe_placement *p)
{
    const chalk_deploy *d = &s->d;
    const cost_model *m = d->model;
    *p = moe_place_experts(m->experts_routed / racks, d->chips);
    return (moe_deploy){
        .params_total = d->params_total,
        .params_active = d->params_active,
        .bytes_per_param = d->bytes_per_param,
        .kv_bytes_per_token = d->kv_bytes_per_token,
        .d_model = m->d_model,
        .moe_layers = s->moe_layers,
        .experts = m->experts_routed,
        .top_k = m->experts_active,
        .act_bytes = s->act_bytes,
        .gpus = p->gpus_used,
        .racks = racks,
        .flops_per_s = d->flops_per_s,
        .hbm_bytes_per_s = d->hbm_bytes_per_s,
        .scaleup_bytes_per_s = s->scaleup,
        .scaleout_bytes_per_s = s->has_scaleout ? s->scaleout : s->scaleup,
    };
}

static void put_moe_inputs(chalk_record *r, const moe_setup *s, long row)
{
    chalk_deploy_echo_head(r, &s->d);
    chalk_put_number(r, "batch", "batch", CHALK_U_SEQUENCES, CHALK_INPUT,
                     chalk_sweep_at(&s->batch, row));
    chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT,
                     chalk_sweep_at(&s->context, row));
    chalk_put_number(r, "racks", "racks", CHALK_U_PLAIN, CHALK_INPUT,
                     chalk_sweep_at(&s->racks, row));
    chalk_field *f = chalk_put_number(r, "act_bytes", "bytes per activation", CHALK_U_PLAIN,
                                      CHALK_INPUT, s->act_bytes);
    if (!s->act_given)
        chalk_note(r, f, "default: %s", cost_dtype_name(s->d.dtype));
    chalk_deploy_echo_tail(r, &s->d, CHALK_ECHO_FLOPS | CHALK_ECHO_HBM);
    chalk_put_number(r, "scaleup_bytes_per_s", "scale-up, one way", CHALK_U_BYTES_PER_S,
                     CHALK_INPUT, s->scaleup);
    chalk_put_maybe(r, "scaleout_bytes_per_s", "scale-out, one way", CHALK_U_BYTES_PER_S,
                    CHALK_INPUT, s->has_scaleout, s->scaleout);
}

/* The layer's shape: experts, and what one expert and one layer hold. */
static void put_shape(chalk_record *r, const cost_model *m, int moe_layers)
{
    moe_shape shape = {.d_model = m->d_model,
                       .d_ff = m->d_ff_expert,
                       .experts = m->experts_routed,
                       .experts_shared = m->experts_shared,
                       .top_k = m->experts_active};
    moe_layer_count c = moe_layer_params(&shape);
    chalk_put_number(r, "experts", "routed experts", CHALK_U_COUNT, 0, m->experts_routed);
    chalk_put_number(r, "top_k", "experts per token", CHALK_U_COUNT, CHALK_DETAIL,
                     m->experts_active);
    chalk_put_number(r, "experts_shared", "shared experts", CHALK_U_COUNT, CHALK_DETAIL,
                     m->experts_shared);
    chalk_put_number(r, "moe_layers", "MoE layers", CHALK_U_COUNT, CHALK_DETAIL, moe_layers);
    chalk_put_number(r, "d_model", "d_model", CHALK_U_COUNT, CHALK_DETAIL, m->d_model);
    chalk_put_number(r, "expert_params", "params per expert", CHALK_U_PARAMS, CHALK_DETAIL,
                     moe_expert_params(m->d_model, m->d_ff_expert));
    chalk_put_number(r, "layer_params_total", "params per MoE layer", CHALK_U_PARAMS, CHALK_DETAIL,
                     c.total);
    chalk_put_number(r, "layer_params_active", "active per MoE layer", CHALK_U_PARAMS, CHALK_DETAIL,
                     c.active);
    chalk_put_number(r, "router_params", "router params per layer", CHALK_U_PARAMS, CHALK_DETAIL,
                     (double)m->d_model * m->experts_routed);
    chalk_put_number(r, "params_skipped", "params a token skips", CHALK_U_PARAMS, CHALK_DETAIL,
                     moe_layers * (c.total - c.active));
}

static void put_placement(chalk_record *r, const moe_placement *p, int domain_chips)
{
    chalk_put_number(r, "domain_chips", "GPUs per domain", CHALK_U_COUNT, CHALK_DETAIL,
                     domain_chips);
    chalk_put_number(r, "gpus_used", "GPUs holding experts", CHALK_U_COUNT, 0, p->gpus_used);
    chalk_put_number(r, "experts_per_gpu", "experts per GPU", CHALK_U_COUNT, 0, p->experts_per_gpu);
    chalk_put_number(r, "gpus_idle", "GPUs without experts", CHALK_U_COUNT, CHALK_DETAIL,
                     p->gpus_idle);
    chalk_put_number(r, "experts_on_busiest_if_all", "busiest GPU if all hold experts",
                     CHALK_U_COUNT, CHALK_DETAIL, p->busiest_if_all);
}

/* The knee, or why there is none. */
static void put_knee(chalk_record *r, const moe_deploy *md, double context)
{
    moe_knee k = moe_knee_batch(md, context);
    chalk_put_string(r, "steeper_roof", "steeper of compute, network", CHALK_DETAIL,
                     moe_bound_name(k.after));
    const char *why = "";
    if (!k.exists) {
        moe_step one = moe_step_at(md, 1, context);
        char kv[SHORT_CHARS], grow[SHORT_CHARS];
        human(kv, sizeof kv, CHALK_U_SECONDS, one.kv_s);
        human(grow, sizeof grow, CHALK_U_SECONDS, fmax(one.compute_s, one.a2a_s));
        why = chalk_fmt(r,
                        "each sequence's KV fetch (%s) outgrows its %s time (%s): every batch "
                        "is memory-bound at this context",
                        kv, moe_bound_name(k.after), grow);
    }
    chalk_put_result(r, "knee_batch", "knee (memory ends)", CHALK_U_SEQUENCES, 0, k.exists, k.batch,
                     why);
}

/* Spanning racks: the crossing share and the slowdown per token, or why none. */
static void put_racks(chalk_record *r, const moe_setup *s, int racks)
{
    const char *why = "no scale-out bandwidth: pass --scale-out-bytes-per-s X";
    bool known = s->has_scaleout;
    moe_racks m = known ? moe_span_racks(racks, s->scaleup, s->scaleout) : (moe_racks){0};
    chalk_put_result(r, "scaleup_over_scaleout", "scale-up / scale-out", CHALK_U_RATIO, 0, known,
                     known ? s->scaleup / s->scaleout : 0.0, why);
    chalk_put_number(r, "cross_rack_fraction", "share crossing racks", CHALK_U_FRACTION,
                     CHALK_DETAIL, (racks - 1.0) / racks);
    chalk_put_result(r, "slowdown_vs_one_rack", "all-to-all vs one rack", CHALK_U_RATIO, 0, known,
                     m.slowdown_overlap, why);
    chalk_put_result(r, "slowdown_serial_vs_one_rack", "  halves one after the other",
                     CHALK_U_RATIO, CHALK_DETAIL, known, m.slowdown_serial, why);
}

static void build_moe(const void *ctx, long row, chalk_record *r)
{
    const moe_setup *s = ctx;
    const chalk_deploy *d = &s->d;
    double batch = chalk_sweep_at(&s->batch, row), context = chalk_sweep_at(&s->context, row);
    int racks = (int)chalk_sweep_at(&s->racks, row);
    moe_placement p;
    moe_deploy md = moe_deploy_of(s, racks, &p);
    chalk_clear(r);
    put_moe_inputs(r, s, row);
    put_shape(r, d->model, s->moe_layers);
    put_placement(r, &p, d->chips);
    chalk_put_number(r, "expert_bytes_per_gpu", "expert weights per GPU", CHALK_U_BYTES,
                     CHALK_DETAIL,
                     p.experts_per_gpu * md.moe_layers *
                         moe_expert_params(md.d_model, d->model->d_ff_expert) * d->bytes_per_param);

    double per_layer = moe_a2a_bytes_per_token(md.d_model, md.top_k, md.act_bytes);
    chalk_put_number(r, "a2a_bytes_per_token_per_layer", "all-to-all per token per layer",
                     CHALK_U_BYTES, 0, per_layer);
    chalk_put_number(r, "a2a_bytes_per_token", "  every MoE layer", CHALK_U_BYTES, CHALK_DETAIL,
                     per_layer * md.moe_layers);
    chalk_put_number(r, "a2a_remote_fraction", "  share leaving the GPU", CHALK_U_FRACTION,
                     CHALK_DETAIL, moe_a2a_remote_fraction(racks * p.gpus_used));
    chalk_put_number(r, "sequences_per_gpu", "sequences per GPU", CHALK_U_SEQUENCES, CHALK_DETAIL,
                     batch / ((double)racks * p.gpus_used));
    chalk_put_number(r, "tokens_per_expert", "tokens per expert", CHALK_U_TOKENS, CHALK_DETAIL,
                     moe_tokens_per_expert(batch, md.experts, md.top_k));

    moe_step st = moe_step_at(&md, batch, context);
    chalk_put_number(r, "compute_s", "compute", CHALK_U_SECONDS, 0, st.compute_s);
    chalk_put_number(r, "weights_s", "weight fetch", CHALK_U_SECONDS, CHALK_DETAIL, st.weights_s);
    chalk_put_number(r, "kv_s", "KV fetch", CHALK_U_SECONDS, CHALK_DETAIL, st.kv_s);
    chalk_put_number(r, "memory_s", "memory (weights + KV)", CHALK_U_SECONDS, 0, st.memory_s);
    chalk_put_number(r, "a2a_s", "all-to-all", CHALK_U_SECONDS, 0, st.a2a_s);
    chalk_put_number(r, "a2a_dispatch_s_per_layer", "  one layer, one way", CHALK_U_SECONDS,
                     CHALK_DETAIL, st.a2a_s / (2.0 * md.moe_layers));
    chalk_put_number(r, "step_s", "step", CHALK_U_SECONDS, 0, st.step_s);
    chalk_put_string(r, "bound", "bound", 0, moe_bound_name(st.bound));
    chalk_put_number(r, "network_over_compute", "network / compute", CHALK_U_PLAIN, CHALK_DETAIL,
                     moe_network_over_compute(&md));
    put_knee(r, &md, context);
    put_racks(r, s, racks);

    double gpus = (double)racks * p.gpus_used;
    double used = st.memory_s * gpus * d->hbm_bytes_per_s; /* a step reads it all once */
    chalk_put_number(r, "hbm_used_bytes", "HBM used", CHALK_U_BYTES, CHALK_DETAIL, used);
    chalk_put_bool(r, "fits_hbm", "fits in the GPUs' HBM", CHALK_DETAIL,
                   used <= gpus * d->hbm_bytes);
}

static int run_moe(const chalk_args *a)
{
    moe_setup s;
    int status = moe_setup_read(a, &s);
    if (status)
        return status;
    chalk_report rep = {
        .title = "chalk moe: experts on a rack, three roofs of a decode step (lecture 2.1-2.3)",
        .rows = s.swept ? s.swept->points : 1,
        .swept = s.swept,
        .build = build_moe,
        .ctx = &s,
    };
    status = chalk_emit(a, &rep);
    moe_setup_free(&s);
    return status;
}

/* ---- place: experts on a domain ---------------------------------------------------------- */

typedef struct place_setup {
    const cost_hw *hw;
    int experts, chips;
} place_setup;

static void build_place(const void *ctx, long row, chalk_record *r)
{
    const place_setup *s = ctx;
    (void)row;
    chalk_clear(r);
    chalk_put_hw_name(r, s->hw);
    chalk_put_number(r, "experts", "routed experts", CHALK_U_COUNT, CHALK_INPUT, s->experts);
    moe_placement p = moe_place_experts(s->experts, s->chips);
    put_placement(r, &p, s->chips);
}

static int run_place(const chalk_args *a)
{
    chalk_deploy d;
    int status = chalk_deploy_resolve(a, 0, &d);
    place_setup s = {.hw = d.hw, .chips = d.chips};
    if (!status && !d.hw && !d.chips_given)
        status = chalk_fail("place needs --chips N (GPUs in the domain) or --hw NAME");
    if (!status)
        status = routing_read(a, d.model, &s.experts, NULL);
    if (status)
        return status;
    chalk_report rep = {.title = "chalk place: experts on the GPUs of a scale-up domain (2.2)",
                        .rows = 1,
                        .build = build_place,
                        .ctx = &s};
    return chalk_emit(a, &rep);
}

/* ---- expert-batch ---------------------------------------------------------------------------- */

typedef struct expert_batch_setup {
    chalk_deploy d;
    int experts, top_k;
    chalk_sweep batch;
    double throughput, user_rate;
    bool from_rates;
} expert_batch_setup;

static void build_expert_batch(const void *ctx, long row, chalk_record *r)
{
    const expert_batch_setup *s = ctx;
    const chalk_deploy *d = &s->d;
    chalk_clear(r);
    put_model_name(r, d->model);
    chalk_put_hw_name(r, d->hw);
    chalk_put_string(r, "dtype", "dtype", CHALK_INPUT, cost_dtype_name(d->dtype));
    chalk_put_number(r, "experts", "routed experts", CHALK_U_COUNT, CHALK_INPUT, s->experts);
    chalk_put_number(r, "top_k", "experts per token", CHALK_U_COUNT, CHALK_INPUT, s->top_k);
    chalk_put_maybe(r, "params_total", "params total", CHALK_U_PARAMS, CHALK_INPUT, d->has_params,
                    d->params_total);
    chalk_put_maybe(r, "params_active", "params active", CHALK_U_PARAMS, CHALK_INPUT, d->has_params,
                    d->params_active);
    chalk_put_number(r, "bytes_per_param", "bytes per param", CHALK_U_BYTES_PER_PARAM, CHALK_INPUT,
                     d->bytes_per_param);
    chalk_put_number(r, "flops_per_s", "peak per chip", CHALK_U_FLOPS_PER_S, CHALK_INPUT,
                     d->flops_per_s);
    chalk_put_number(r, "hbm_bytes_per_s", "HBM bandwidth", CHALK_U_BYTES_PER_S, CHALK_INPUT,
                     d->hbm_bytes_per_s);

    double ratio = batching_hw_ratio(d->flops_per_s, d->hbm_bytes_per_s, d->bytes_per_param);
    double min_batch = moe_min_batch(ratio, s->experts, s->top_k);
    chalk_put_number(r, "hw_ratio", "hardware ratio", CHALK_U_PLAIN, 0, ratio);
    chalk_put_number(r, "routed_sparsity", "experts / top-k", CHALK_U_PLAIN, CHALK_DETAIL,
                     (double)s->experts / s->top_k);
    chalk_put_number(r, "min_batch", "smallest batch, experts compute-bound", CHALK_U_SEQUENCES, 0,
                     min_batch);

    bool has_batch = s->batch.given || s->from_rates;
    double batch = s->from_rates ? s->throughput / s->user_rate : chalk_sweep_at(&s->batch, row);
    if (s->from_rates) {
        chalk_put_number(r, "throughput_tokens_per_s", "throughput", CHALK_U_TOKENS_PER_S,
                         CHALK_INPUT, s->throughput);
        chalk_put_number(r, "user_tokens_per_s", "per sequence", CHALK_U_TOKENS_PER_S, CHALK_INPUT,
                         s->user_rate);
    }
    chalk_field *f =
        chalk_put_number(r, "batch", "batch", CHALK_U_SEQUENCES, 0, has_batch ? batch : min_batch);
    if (!has_batch)
        chalk_note(r, f, "no --batch: the smallest batch");
    else if (s->from_rates)
        chalk_note(r, f, "throughput / per-sequence rate");
    chalk_put_number(r, "tokens_per_expert", "tokens per expert", CHALK_U_TOKENS, 0,
                     moe_tokens_per_expert(has_batch ? batch : min_batch, s->experts, s->top_k));
    chalk_put_bool(r, "experts_compute_bound", "experts compute-bound", 0,
                   !has_batch || batch >= min_batch);

    const char *why = "no model: pass --model NAME (or --params-total and --params-active)";
    bool known = d->has_params;
    double sparsity = known ? d->params_total / d->params_active : 0.0;
    double balance = batching_balance_batch_approx(ratio, sparsity);
    chalk_put_result(r, "sparsity", "sparsity (chapter 1)", CHALK_U_PLAIN, CHALK_DETAIL, known,
                     sparsity, why);
    chalk_put_result(r, "balance_batch", "balance batch r s (chapter 1)", CHALK_U_SEQUENCES, 0,
                     known, balance, why);
    chalk_put_result(r, "min_batch_over_balance_batch", "  experts' batch over it", CHALK_U_RATIO,
                     CHALK_DETAIL, known, known ? min_batch / balance : 0.0, why);
    chalk_put_result(r, "tokens_per_expert_at_balance", "  tokens per expert there", CHALK_U_TOKENS,
                     CHALK_DETAIL, known,
                     known ? moe_tokens_per_expert(balance, s->experts, s->top_k) : 0.0, why);
}

static int run_expert_batch(const chalk_args *a)
{
    expert_batch_setup s = {0};
    int status = chalk_deploy_resolve(a, CHALK_NEED_FLOPS | CHALK_NEED_BW, &s.d);
    if (!status)
        status = routing_read(a, s.d.model, &s.experts, &s.top_k);
    if (!status)
        status = chalk_sweep_read(a, &CHALK_F_BATCH, &s.batch);
    bool rate_given = chalk_given(a, &F_THROUGHPUT), user_given = chalk_given(a, &F_USER_RATE);
    if (!status && rate_given != user_given)
        status = chalk_fail("--throughput-tokens-per-s and --user-tokens-per-s go together");
    if (!status && rate_given && s.batch.given)
        status = chalk_fail("give --batch or the two rates, not both");
    if (!status && rate_given) {
        s.from_rates = true;
        if (!(status = chalk_number(a, &F_THROUGHPUT, &s.throughput)))
            status = chalk_number(a, &F_USER_RATE, &s.user_rate);
    }
    return emit_over(a, status,
                     "chalk expert-batch: the batch that keeps every expert compute-bound (2.6)",
                     &s.batch, build_expert_batch, &s);
}

/* ---- moe-imbalance --------------------------------------------------------------------------- */

typedef struct imbalance_setup {
    const cost_model *model;
    int experts, top_k;
    chalk_sweep batch;
    double seed, trials, capacity_factor;
    bool seed_given, trials_given, factor_given;
} imbalance_setup;

/* At most this many token-expert draws per command: a few seconds. */
static const double MAX_DRAWS = 5e8;

static void build_imbalance(const void *ctx, long row, chalk_record *r)
{
    const imbalance_setup *s = ctx;
    int batch = (int)lround(chalk_sweep_at(&s->batch, row));
    chalk_clear(r);
    put_model_name(r, s->model);
    chalk_put_number(r, "experts", "routed experts", CHALK_U_COUNT, CHALK_INPUT, s->experts);
    chalk_put_number(r, "top_k", "experts per token", CHALK_U_COUNT, CHALK_INPUT, s->top_k);
    chalk_put_number(r, "batch", "tokens per step", CHALK_U_TOKENS, CHALK_INPUT, batch);
    chalk_field *f = chalk_put_number(r, "seed", "seed", CHALK_U_PLAIN, CHALK_INPUT, s->seed);
    if (!s->seed_given)
        chalk_note(r, f, "default");
    f = chalk_put_number(r, "trials", "trials", CHALK_U_COUNT, CHALK_INPUT, s->trials);
    if (!s->trials_given)
        chalk_note(r, f, "default");
    f = chalk_put_number(r, "capacity_factor", "capacity factor", CHALK_U_PLAIN, CHALK_INPUT,
                         s->capacity_factor);
    if (!s->factor_given)
        chalk_note(r, f, "default");

    moe_imbalance m = moe_simulate((uint64_t)s->seed, s->experts, s->top_k, batch, (int)s->trials,
                                   s->capacity_factor);
    moe_max_bounds b = moe_expected_max_load(batch, s->experts, s->top_k);
    double mean = moe_tokens_per_expert(batch, s->experts, s->top_k);
    double p = (double)s->top_k / s->experts;
    chalk_put_number(r, "mean_load", "mean load", CHALK_U_TOKENS, 0, mean);
    chalk_put_number(r, "load_sd", "  standard deviation", CHALK_U_TOKENS, CHALK_DETAIL,
                     sqrt(batch * p * (1.0 - p)));
    const char *why = "out of memory for the simulation";
    chalk_put_result(r, "max_load_over_mean", "busiest / mean (simulated)", CHALK_U_PLAIN, 0, m.ok,
                     m.max_load_over_mean, why);
    chalk_put_number(r, "max_load_over_mean_lower", "  closed form, lower bound", CHALK_U_PLAIN, 0,
                     b.lower / mean);
    chalk_put_number(r, "max_load_over_mean_upper", "  closed form, upper bound", CHALK_U_PLAIN,
                     CHALK_DETAIL, b.upper / mean);
    chalk_put_result(r, "capacity_tokens", "capacity per expert", CHALK_U_TOKENS, CHALK_DETAIL,
                     m.ok, m.capacity, why);
    chalk_put_result(r, "drop_fraction", "dropped (simulated)", CHALK_U_FRACTION, 0, m.ok,
                     m.drop_fraction, why);
    chalk_put_number(r, "drop_fraction_exact", "  expected", CHALK_U_FRACTION, CHALK_DETAIL,
                     m.ok ? moe_expected_drop_fraction(batch, s->experts, s->top_k, m.capacity)
                          : 0.0);
    chalk_put_result(r, "capacity_factor_p99", "capacity for < 1% dropped (sim.)", CHALK_U_PLAIN, 0,
                     m.ok, m.capacity_factor_p99, why);
    chalk_put_number(r, "capacity_factor_p99_exact", "  expected", CHALK_U_PLAIN, CHALK_DETAIL,
                     moe_capacity_for_drop(batch, s->experts, s->top_k, 0.01) / mean);
}

static int run_imbalance(const chalk_args *a)
{
    imbalance_setup s = {0};
    const char *name = chalk_value(a, &CHALK_F_MODEL);
    if (name && !(s.model = cost_model_find(name)))
        return chalk_unknown_model(name);
    int status = routing_read(a, s.model, &s.experts, &s.top_k);
    if (!status && s.top_k > MOE_MAX_TOP_K)
        status = chalk_fail("--top-k must be at most %d for the simulation (got %d)", MOE_MAX_TOP_K,
                            s.top_k);
    if (!status)
        status = number_or(a, &F_SEED, 1.0, &s.seed, &s.seed_given);
    if (!status)
        status = number_or(a, &F_TRIALS, 100.0, &s.trials, &s.trials_given);
    if (!status)
        status = number_or(a, &F_CAPACITY, 1.25, &s.capacity_factor, &s.factor_given);
    if (!status)
        status = chalk_sweep_read(a, &F_TOKENS, &s.batch);
    if (!status && !s.batch.given)
        status = chalk_fail("moe-imbalance needs --batch B (tokens routed per step)");
    double draws = 0.0;
    for (long i = 0; !status && i < s.batch.points; i++)
        draws += round(chalk_sweep_at(&s.batch, i)) * s.top_k * s.trials;
    if (!status && draws > MAX_DRAWS)
        status = chalk_fail("batch x top-k x trials adds up to %.3g draws; at most %.0e "
                            "(fewer --trials, or fewer points)",
                            draws, MAX_DRAWS);
    return emit_over(
        a, status, "chalk moe-imbalance: random routing, the busiest expert (lecture 2.2; ch. 2.7)",
        &s.batch, build_imbalance, &s);
}

/* ---- domain: what a scale-up domain holds ---------------------------------------------------- */

typedef struct domain_setup {
    chalk_deploy d;
    chalk_sweep context;
} domain_setup;

static void put_largest(chalk_record *r, const domain_setup *s, double domain_bytes, double context)
{
    const chalk_deploy *d = &s->d;
    const char *why = NULL;
    if (!d->has_params)
        why = "no model: pass --model NAME or --params-active N";
    else if (!s->context.given)
        why = "no --context: pass --context T for the caches of the model's batch";
    else if (!d->has_flops)
        why = "no peak FLOP/s at this --dtype: pass --flops-per-s X";
    else if (!d->has_kv)
        why = "no KV size: pass --kv-bytes-per-token X";
    moe_largest m = {.exists = false};
    double ratio = 0.0;
    if (!why) {
        ratio = batching_hw_ratio(d->flops_per_s, d->hbm_bytes_per_s, d->bytes_per_param);
        m = moe_largest_model(domain_bytes, d->bytes_per_param, ratio, context,
                              d->kv_bytes_per_token, d->params_active);
        if (!m.exists) {
            char act[SHORT_CHARS];
            human(act, sizeof act, CHALK_U_PARAMS, d->params_active);
            why = chalk_fmt(r,
                            "not even %s billion active parameters fit with their batch's "
                            "caches",
                            act);
        }
    }
    chalk_put_result(r, "hw_ratio", "hardware ratio", CHALK_U_PLAIN, CHALK_DETAIL, ratio > 0.0,
                     ratio, why ? why : "");
    chalk_put_result(r, "largest_params_total", "largest model with its caches", CHALK_U_PARAMS, 0,
                     m.exists, m.params_total, why);
    chalk_put_result(r, "largest_sparsity", "  its sparsity", CHALK_U_PLAIN, 0, m.exists,
                     m.sparsity, why);
    chalk_put_result(r, "largest_batch", "  its batch, r s", CHALK_U_SEQUENCES, CHALK_DETAIL,
                     m.exists, m.batch, why);
    chalk_put_result(r, "largest_kv_bytes", "  its caches", CHALK_U_BYTES, CHALK_DETAIL, m.exists,
                     m.kv_bytes, why);
}

static void build_domain(const void *ctx, long row, chalk_record *r)
{
    const domain_setup *s = ctx;
    const chalk_deploy *d = &s->d;
    double context = chalk_sweep_at(&s->context, row);
    chalk_clear(r);
    chalk_deploy_echo_head(r, d);
    chalk_put_maybe(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, s->context.given,
                    context);
    chalk_put_number(r, "hbm_bytes", "HBM per chip", CHALK_U_BYTES, CHALK_INPUT, d->hbm_bytes);
    double domain_bytes = moe_domain_hbm_bytes(d->chips, d->hbm_bytes);
    chalk_put_number(r, "domain_chips", "chips in the domain", CHALK_U_COUNT, 0, d->chips);
    chalk_put_number(r, "domain_hbm_bytes", "HBM of the domain", CHALK_U_BYTES, 0, domain_bytes);
    chalk_put_result(r, "domain_hbm_bytes_per_s", "HBM bandwidth of the domain",
                     CHALK_U_BYTES_PER_S, CHALK_DETAIL, d->has_bw, d->chips * d->hbm_bytes_per_s,
                     "no HBM bandwidth: pass --hbm-bytes-per-s X (or --hw NAME)");
    chalk_put_result(r, "domain_flops_per_s", "peak of the domain", CHALK_U_FLOPS_PER_S,
                     CHALK_DETAIL, d->has_flops, d->chips * d->flops_per_s,
                     chalk_fmt(r, "no %s peak: pick another --dtype or pass --flops-per-s",
                               cost_dtype_name(d->dtype)));
    chalk_put_number(r, "bytes_per_param", "bytes per param", CHALK_U_BYTES_PER_PARAM, CHALK_INPUT,
                     d->bytes_per_param);
    chalk_put_number(r, "max_params_weights_only", "most parameters, weights alone", CHALK_U_PARAMS,
                     0, domain_bytes / d->bytes_per_param);
    const char *why = "no model: pass --model NAME or --params-total N";
    double weights = d->params_total * d->bytes_per_param;
    chalk_put_result(r, "weights_bytes", "the model's weights", CHALK_U_BYTES, 0, d->has_params,
                     weights, why);
    chalk_put_bool_result(r, "fits_weights", "its weights fit", 0, d->has_params,
                          weights <= domain_bytes, why);
    put_largest(r, s, domain_bytes, context);
}

static int run_domain(const chalk_args *a)
{
    domain_setup s = {0};
    int status = chalk_deploy_resolve(a, CHALK_NEED_HBM, &s.d);
    if (!status && !s.d.hw && !s.d.chips_given)
        status = chalk_fail("domain needs --chips N (chips in the domain) or --hw NAME");
    if (!status)
        status = chalk_sweep_read(a, &CHALK_F_CONTEXT, &s.context);
    if (!status && s.context.given && !s.d.has_bw)
        status = chalk_fail("domain needs --hbm-bytes-per-s X (or --hw NAME) with --context");
    return emit_over(a, status, "chalk domain: what one scale-up domain holds (lecture 2.4-2.5)",
                     &s.context, build_domain, &s);
}

/* ---- routed-scaling ---------------------------------------------------------------------- */

typedef struct scaling_setup {
    double params_active, active_ratio;
    chalk_sweep experts;
} scaling_setup;

static void build_scaling(const void *ctx, long row, chalk_record *r)
{
    const scaling_setup *s = ctx;
    double experts = chalk_sweep_at(&s->experts, row);
    chalk_clear(r);
    chalk_put_number(r, "params_active", "params active", CHALK_U_PARAMS, CHALK_INPUT,
                     s->params_active);
    chalk_put_number(r, "experts", "experts", CHALK_U_PLAIN, CHALK_INPUT, experts);
    chalk_put_number(r, "active_ratio", "active parameters kept", CHALK_U_PLAIN, CHALK_INPUT,
                     s->active_ratio);
    /* "64x for 4x": the exponent that turns 64 into 4 */
    chalk_put_number(r, "exponent", "exponent of the expert count", CHALK_U_PLAIN, 0,
                     log(moe_dense_equivalent_params(1.0, 64.0)) / log(64.0));
    chalk_put_number(r, "dense_equivalent_params", "as good as a dense model of", CHALK_U_PARAMS, 0,
                     moe_dense_equivalent_params(s->params_active, experts));
    chalk_put_number(r, "expert_multiplier", "experts needed at that share", CHALK_U_RATIO, 0,
                     moe_expert_multiplier(s->active_ratio));
}

static int run_scaling(const chalk_args *a)
{
    scaling_setup s = {0};
    bool given = false;
    int status = number_or(a, &CHALK_F_PARAMS_ACTIVE, 0.0, &s.params_active, &given);
    if (!status && !given)
        status = chalk_fail("routed-scaling needs --params-active N (parameters one token uses)");
    if (!status)
        status = number_or(a, &F_ACTIVE_RATIO, 0.5, &s.active_ratio, NULL);
    if (!status)
        status = chalk_sweep_read(a, &F_EXPERTS_SWEEP, &s.experts);
    if (!status && !s.experts.given)
        status = chalk_fail("routed-scaling needs --experts E");
    return emit_over(a, status,
                     "chalk routed-scaling: what experts are worth, \"64x for 4x\" (lecture 1.8)",
                     &s.experts, build_scaling, &s);
}

/* ---- the commands ------------------------------------------------------------------------------
 */

static const chalk_flag *const MOE_FLAGS[] = {
    CHALK_MODEL_FLAGS, CHALK_RATE_FLAGS, &CHALK_F_HBM_BYTES, &CHALK_F_BATCH, &CHALK_F_CONTEXT,
    &F_ACT_BYTES,      &F_RACKS,         &F_SCALEUP,         &F_SCALEOUT,    NULL};
static const chalk_flag *const PLACE_FLAGS[] = {&CHALK_F_MODEL, &F_EXPERTS, &CHALK_F_HW,
                                                &CHALK_F_CHIPS, NULL};
static const chalk_flag *const EXPERT_BATCH_FLAGS[] = {
    CHALK_MODEL_FLAGS, &CHALK_F_HW,    &CHALK_F_FLOPS, &CHALK_F_HBM_BPS, &F_EXPERTS,
    &F_TOP_K,          &CHALK_F_BATCH, &F_THROUGHPUT,  &F_USER_RATE,     NULL};
static const chalk_flag *const IMBALANCE_FLAGS[] = {
    &CHALK_F_MODEL, &F_EXPERTS, &F_TOP_K, &F_TOKENS, &F_SEED, &F_TRIALS, &F_CAPACITY, NULL};
static const chalk_flag *const DOMAIN_FLAGS[] = {CHALK_MODEL_FLAGS, CHALK_RATE_FLAGS,
                                                 &CHALK_F_HBM_BYTES, &CHALK_F_CONTEXT, NULL};
static const chalk_flag *const SCALING_FLAGS[] = {&CHALK_F_PARAMS_ACTIVE, &F_EXPERTS_SWEEP,
                                                  &F_ACTIVE_RATIO, NULL};

static const char *const ABOUT_MOE[] = {
    "An MoE model (--model, an MoE preset) decoding on --racks racks of the scale-up",
    "domain of --hw (--chips GPUs each). Each rack holds experts/racks experts on",
    "gpus_used GPUs: the most, at most --chips, that split them evenly. On all",
    "n = racks x gpus_used GPUs,",
    "  compute = batch x 2 x params_active / (n x flops_per_s)",
    "  memory  = (params_total x bytes_per_param + batch x context x kv_bytes)",
    "            / (n x hbm_bytes_per_s)",
    "  a2a     = moe_layers x batch x 2 x top_k x d_model x act_bytes / n",
    "            x max(1 / (racks x W_up), (racks - 1) / (racks x W_out))",
    "  step    = max(compute, memory, a2a)          a lower bound",
    "counting every copy a token sends, also those whose expert is on its own GPU",
    "(a2a_remote_fraction says how many leave). network_over_compute does not depend",
    "on the batch; knee_batch is where memory stops binding. slowdown_vs_one_rack is",
    "the all-to-all over one rack's at the same tokens per GPU (halves overlapped;",
    "_serial: one after the other). --batch, --context or --racks may be a sweep.",
    NULL};
static const char *const EXAMPLES_MOE[] = {
    "chalk moe --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 8192 --context 1024",
    "chalk moe --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 8192 --context 1024 "
    "--racks 2 --scale-out-bytes-per-s 112.5e9",
    "chalk moe --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --act-bytes 2 "
    "--batch 256:32768 --context 1024 --csv",
    NULL};

static const char *const ABOUT_PLACE[] = {
    "Expert parallelism with one copy of each expert and as many experts on every GPU",
    "used: the most GPUs (at most the domain's) that divide the expert count. Also the",
    "busiest GPU's experts if every GPU of the domain held some, ceil(experts / chips).",
    "Experts from --experts or --model; the domain from --hw or --chips.", NULL};
static const char *const EXAMPLES_PLACE[] = {"chalk place --experts 256 --hw gb200-nvl72",
                                             "chalk place --model mixtral-8x7b --chips 8", NULL};

static const char *const ABOUT_EXPERT_BATCH[] = {
    "Each expert's weights are fetched once per step and used by the tokens routed to",
    "it, batch x top_k / experts on average. It is compute-bound when that reaches the",
    "chip's hardware ratio r (chapter 1), so",
    "  min_batch = r x experts / top_k,  r = (flops_per_s / 2) x bytes_per_param / hbm_B/s",
    "With --model (or --params-total/--params-active) it also prints chapter 1's balance",
    "batch r x params_total / params_active, which is smaller: attention, shared experts",
    "and dense layers are used by every token. --batch (or --throughput-tokens-per-s with",
    "--user-tokens-per-s) gives the tokens each expert sees at that batch.",
    NULL};
static const char *const EXAMPLES_EXPERT_BATCH[] = {
    "chalk expert-batch --hw gb200-nvl72 --dtype fp4 --model deepseek-v3",
    "chalk expert-batch --hw tpu-v5e --weight-bytes 1 --experts 256 --top-k 8",
    "chalk expert-batch --hw h100-sxm --dtype fp8 --model deepseek-v3 "
    "--throughput-tokens-per-s 266400 --user-tokens-per-s 21",
    NULL};

static const char *const ABOUT_IMBALANCE[] = {
    "Routes --trials batches of --batch tokens, each token to --top-k distinct experts of",
    "--experts picked uniformly at random by a seeded SplitMix64 generator, and reports",
    "the busiest expert's load over the mean (averaged over trials), the share of",
    "token-expert assignments dropped when each expert accepts floor(capacity_factor x",
    "mean) tokens, and the smallest capacity factor that drops under 1%. Beside each,",
    "its closed form: one expert's load is Binomial(batch, top_k / experts); the",
    "busiest expert's mean lies between max_load_over_mean_lower (independent loads)",
    "and _upper (union bound). --batch may be a sweep.",
    NULL};
static const char *const EXAMPLES_IMBALANCE[] = {
    "chalk moe-imbalance --experts 256 --top-k 8 --batch 4096 --seed 1 --trials 100",
    "chalk moe-imbalance --model deepseek-v3 --batch 64:65536:11 --trials 20 --csv", NULL};

static const char *const ABOUT_DOMAIN[] = {
    "One scale-up domain (--hw, or --chips with --hbm-bytes): its chips, its HBM and the",
    "most parameters its HBM holds at --dtype. With a model, whether the weights fit;",
    "with --context too, the largest model that fits together with the KV caches of",
    "the batch that amortises its weights (chapter 1's r x sparsity sequences), keeping",
    "params_active:",
    "  largest_params_total = domain_hbm / (bytes_per_param",
    "                         + r x context x kv_bytes_per_token / params_active)",
    "--context may be a sweep.",
    NULL};
static const char *const EXAMPLES_DOMAIN[] = {
    "chalk domain --hw h100-sxm",
    "chalk domain --hw gb200-nvl72 --dtype fp4 --params-total 5e12 --params-active 100e9 "
    "--kv-bytes-per-token 2000 --context 32768",
    NULL};

static const char *const ABOUT_SCALING[] = {
    "The routed scaling law as the lecture reads it (Clark et al. 2022): 64 experts at",
    "370M active parameters match a dense 1.3B, \"64x for 4x\", so a model with E experts",
    "is as good as a dense model of params_active x E^(1/3). Keeping quality while active",
    "parameters shrink to --active-ratio takes (1 / active_ratio)^3 times the experts.",
    "--experts may be a sweep.",
    NULL};
static const char *const EXAMPLES_SCALING[] = {
    "chalk routed-scaling --params-active 370e6 --experts 64",
    "chalk routed-scaling --params-active 37e9 --experts 1:1024:11 --csv", NULL};

static const chalk_command COMMANDS[] = {
    {"moe", "[flags]", "experts on a rack and the three roofs of a decode step (2.1-2.5)",
     MOE_FLAGS, ABOUT_MOE, EXAMPLES_MOE, run_moe},
    {"place", "[flags]", "experts on the GPUs of a scale-up domain (2.2)", PLACE_FLAGS, ABOUT_PLACE,
     EXAMPLES_PLACE, run_place},
    {"expert-batch", "[flags]", "the batch that keeps every expert compute-bound (2.6)",
     EXPERT_BATCH_FLAGS, ABOUT_EXPERT_BATCH, EXAMPLES_EXPERT_BATCH, run_expert_batch},
    {"moe-imbalance", "[flags]", "random routing: the busiest expert and dropped tokens (2.7)",
     IMBALANCE_FLAGS, ABOUT_IMBALANCE, EXAMPLES_IMBALANCE, run_imbalance},
    {"domain", "[flags]", "what a scale-up domain holds; the largest model (2.8)", DOMAIN_FLAGS,
     ABOUT_DOMAIN, EXAMPLES_DOMAIN, run_domain},
    {"routed-scaling", "[flags]", "what experts are worth: the routed scaling law (2.9)",
     SCALING_FLAGS, ABOUT_SCALING, EXAMPLES_SCALING, run_scaling},
};

const chalk_chapter chalk_chapter_02_moe = {
    .number = 2,
    .title = "moe: how an MoE layer is laid out across a rack",
    .commands = COMMANDS,
    .count = sizeof COMMANDS / sizeof COMMANDS[0],
};
