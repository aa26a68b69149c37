/*
 * 02-moe.c -- chapter 2's commands: an MoE layer laid out across a rack (and its
 * table; 02-moe-routing.c holds the commands on routing and the domain).
 *
 *   chalk moe              the layout and the three roofs of a decode step (2.1-2.5)
 *   chalk place            experts on the GPUs of a scale-up domain (2.2)
 *   chalk expert-batch     the batch that keeps every expert compute-bound (2.6)
 *   chalk moe-imbalance    random routing: the busiest expert, drops (2.7)
 *   chalk domain           what a scale-up domain holds; the largest model (2.8)
 *   chalk routed-scaling   the routed scaling law, "64x for 4x" (2.9)
 *   chalk moe-layout       the cheapest racks, GPUs and batch for a latency target (2.10)
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
 *                                            slowdown_vs_one_rack (4 at 8x, 4.5 serial);
 *                                            scaleout_for_no_slowdown (the NIC at which
 *                                            they cost nothing extra)
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
 *   Routing imbalance, capacity factor       moe-imbalance --experts 256 --top-k 8 --tokens T
 *
 * Every number comes from the chapter's reference (moe_*, through
 * exercises/02-moe/moe.h) and chapter 1's (batching_hw_ratio), applied to presets
 * and flags (deploy.c).
 */
#include <math.h>
#include <stdio.h>

#include "02-moe.h"
#include "batching.h"

/* ---- this chapter's own flags ------------------------------------------------------------ */

#define G_MOE "mixture of experts"
#define G_NET "network (per GPU, one direction)"
#define WORKLOAD "workload"
#define WHOLE CHALK_WHOLE
#define ABOVE CHALK_ABOVE_MIN
#define U(x) CHALK_U_##x

/* clang-format off */
static const chalk_flag F_ACT_BYTES  = {"--act-bytes", "X", "act_bytes", U(PLAIN), 0, 64, ABOVE, "bytes per activation element", G_MOE,
    "bytes per activation element sent to and from an expert (default: --dtype's bytes per element)"};
static const chalk_flag F_RACKS      = {"--racks", "R", "racks", U(COUNT), 1, 1024, WHOLE, "racks", G_MOE,
    "racks (scale-up domains) one expert layer spans (default 1); must divide the experts; may be a list"};
static const chalk_flag F_SCALEUP    = {"--scale-up-bytes-per-s", "X", "scaleup_bytes_per_s", U(BYTES_PER_S), 1e3, 1e18, 0, "scale-up bandwidth per GPU", G_NET,
    "scale-up (NVLink, ICI) bandwidth per GPU, one direction (default: --hw's)"};
static const chalk_flag F_SCALEOUT   = {"--scale-out-bytes-per-s", "X", "scaleout_bytes_per_s", U(BYTES_PER_S), 1e3, 1e18, 0, "scale-out bandwidth per GPU", G_NET,
    "scale-out (NIC) bandwidth per GPU, one direction (default: --hw's)"};
const chalk_flag F_EXPERTS    = {"--experts", "E", "experts", U(COUNT), 1, 1e9, 0, "routed experts per layer", G_MOE,
    "routed experts per MoE layer (default: --model's)"};
const chalk_flag F_TOP_K      = {"--top-k", "K", "top_k", U(COUNT), 1, 1e6, WHOLE, "routed experts per token", G_MOE,
    "routed experts each token visits (default: --model's)"};
static const chalk_flag F_MAX_RACKS  = {"--max-racks", "R", "max_racks", U(COUNT), 1, 1024, WHOLE, "the most racks a layout spans", G_MOE,
    "the most racks a layout may span (default 1)"};
static const chalk_flag F_THROUGHPUT = {"--throughput-tokens-per-s", "X", "throughput_tokens_per_s", U(TOKENS_PER_S), 0, 1e15, ABOVE, "tokens per second, all sequences", WORKLOAD,
    "tokens per second a deployment makes; with --user-tokens-per-s it sets the batch (Little's law: sequences in flight = throughput / per-sequence rate)"};
static const chalk_flag F_USER_RATE  = {"--user-tokens-per-s", "X", "user_tokens_per_s", U(TOKENS_PER_S), 1e-3, 1e9, 0, "tokens per second per sequence", WORKLOAD,
    "tokens per second one sequence receives"};
/* clang-format on */

/* ---- moe: the layout and three roofs -------------------------------------------------------- */

static double act_bytes_at(const chalk_point *p)
{
    return chalk_has(p, &F_ACT_BYTES) ? chalk_in(p, &F_ACT_BYTES) : cost_dtype_bytes(p->d->dtype);
}

static double scaleup_at(const chalk_point *p)
{
    const cost_hw *hw = p->d->hw;
    return chalk_has(p, &F_SCALEUP) ? chalk_in(p, &F_SCALEUP) : hw ? hw->scaleup_bytes_per_s : 0.0;
}

static double scaleout_at(const chalk_point *p)
{
    const cost_hw *hw = p->d->hw;
    return chalk_has(p, &F_SCALEOUT) ? chalk_in(p, &F_SCALEOUT)
           : hw                      ? hw->scaleout_bytes_per_s
                                     : 0.0;
}

/* An MoE preset on hardware with a scale-up figure. */
static int check_moe_model(const chalk_point *p)
{
    const chalk_deploy *d = p->d;
    const cost_hw *hw = d->hw;
    if (!d->model)
        return chalk_fail("%s needs --model NAME, an MoE preset (chalk list models: "
                          "deepseek-v3, mixtral-8x7b)",
                          d->cmd);
    int status =
        chalk_deploy_require(d, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW | CHALK_NEED_HBM);
    if (status)
        return status;
    if (d->model->experts_routed == 0)
        return chalk_fail("%s is dense: it has no experts to lay out (pick deepseek-v3 or "
                          "mixtral-8x7b)",
                          d->model->name);
    if (!(scaleup_at(p) > 0.0))
        return chalk_fail("%s needs --scale-up-bytes-per-s X (%s)", d->cmd,
                          hw ? "the preset has no scale-up figure" : "or --hw NAME");
    return CHALK_OK;
}

static int check_moe(const chalk_point *p)
{
    const chalk_deploy *d = p->d;
    const cost_hw *hw = d->hw;
    int status = check_moe_model(p);
    if (status)
        return status;
    int racks = (int)chalk_in(p, &F_RACKS);
    if (d->model->experts_routed % racks != 0)
        return chalk_fail("--racks %d does not divide %s's %d experts evenly", racks,
                          d->model->name, d->model->experts_routed);
    if (racks > 1 && !(scaleout_at(p) > 0.0))
        return chalk_fail("--racks > 1 needs --scale-out-bytes-per-s X (%s)",
                          hw ? "the preset has no scale-out figure" : "or --hw NAME");
    return CHALK_OK;
}

static int moe_layers_of(const cost_model *m)
{
    return m->layers - m->dense_layers;
}

/* The chapter's deployment for `racks` racks: experts placed per rack. */
static moe_deploy moe_deploy_of(const chalk_point *p, int racks, moe_placement *pl)
{
    const chalk_deploy *d = p->d;
    const cost_model *m = d->model;
    *pl = moe_place_experts(m->experts_routed / racks, d->chips);
    double scaleout = scaleout_at(p);
    return (moe_deploy){
        .params_total = d->params_total,
        .params_active = d->params_active,
        .bytes_per_param = d->bytes_per_param,
        .kv_bytes_per_token = d->kv_bytes_per_token,
        .d_model = m->d_model,
        .moe_layers = moe_layers_of(m),
        .experts = m->experts_routed,
        .top_k = m->experts_active,
        .act_bytes = act_bytes_at(p),
        .gpus = pl->gpus_used,
        .racks = racks,
        .flops_per_s = d->flops_per_s,
        .hbm_bytes_per_s = d->hbm_bytes_per_s,
        .scaleup_bytes_per_s = scaleup_at(p),
        .scaleout_bytes_per_s = scaleout > 0.0 ? scaleout : scaleup_at(p),
    };
}

static void put_moe_inputs(chalk_record *r, const chalk_point *p)
{
    chalk_deploy_echo_head(r, p->d);
    chalk_put_number(r, "batch", "batch", CHALK_U_SEQUENCES, CHALK_INPUT,
                     chalk_in(p, &CHALK_F_BATCH));
    chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT,
                     chalk_in(p, &CHALK_F_CONTEXT));
    chalk_put_number(r, "racks", "racks", CHALK_U_PLAIN, CHALK_INPUT, chalk_in(p, &F_RACKS));
    chalk_field *f = chalk_put_number(r, "act_bytes", "bytes per activation", CHALK_U_PLAIN,
                                      CHALK_INPUT, act_bytes_at(p));
    if (!chalk_has(p, &F_ACT_BYTES))
        chalk_note(r, f, "default: %s", cost_dtype_name(p->d->dtype));
    chalk_deploy_echo_tail(r, p->d, CHALK_ECHO_FLOPS | CHALK_ECHO_HBM);
    chalk_put_number(r, "scaleup_bytes_per_s", "scale-up, one way", CHALK_U_BYTES_PER_S,
                     CHALK_INPUT, scaleup_at(p));
    chalk_put_maybe(r, "scaleout_bytes_per_s", "scale-out, one way", CHALK_U_BYTES_PER_S,
                    CHALK_INPUT, scaleout_at(p) > 0.0, scaleout_at(p));
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
                     c.router);
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
        chalk_human(kv, sizeof kv, CHALK_U_SECONDS, one.kv_s);
        chalk_human(grow, sizeof grow, CHALK_U_SECONDS, fmax(one.compute_s, one.a2a_s));
        why = chalk_fmt(r,
                        "each sequence's KV fetch (%s) outgrows its %s time (%s): every batch "
                        "is memory-bound at this context",
                        kv, moe_bound_name(k.after), grow);
    }
    chalk_put_result(r, "knee_batch", "knee (memory ends)", CHALK_U_SEQUENCES, 0, k.exists, k.batch,
                     why);
}

/* Spanning racks: the crossing share and the slowdown per token, or why none. */
static void put_racks(chalk_record *r, const chalk_point *p, int racks)
{
    const char *why = "no scale-out bandwidth: pass --scale-out-bytes-per-s X";
    double scaleup = scaleup_at(p), scaleout = scaleout_at(p);
    bool known = scaleout > 0.0; /* the crossing share needs no bandwidth */
    moe_racks m = moe_span_racks(racks, scaleup, known ? scaleout : scaleup);
    chalk_put_result(r, "scaleup_over_scaleout", "scale-up / scale-out", CHALK_U_RATIO, 0, known,
                     m.scaleup_over_scaleout, why);
    chalk_put_number(r, "cross_rack_fraction", "share crossing racks", CHALK_U_FRACTION,
                     CHALK_DETAIL, m.cross_fraction);
    chalk_put_result(r, "slowdown_vs_one_rack", "all-to-all vs one rack", CHALK_U_RATIO, 0, known,
                     m.slowdown_overlap, why);
    chalk_put_result(r, "slowdown_serial_vs_one_rack", "  halves one after the other",
                     CHALK_U_RATIO, CHALK_DETAIL, known, m.slowdown_serial, why);
    /* the slowest NIC at which these racks cost nothing extra (needs only W_up) */
    moe_link free_link = moe_scaleout_for_slowdown(racks, scaleup, 1.0, false);
    chalk_put_number(r, "scaleout_for_no_slowdown", "  NIC for no slowdown",
                     CHALK_U_BYTES_PER_S, CHALK_DETAIL, free_link.scaleout_bytes_per_s);
    moe_link free_serial = moe_scaleout_for_slowdown(racks, scaleup, 1.0, true);
    chalk_put_number(r, "scaleout_for_no_slowdown_serial", "    halves one after the other",
                     CHALK_U_BYTES_PER_S, CHALK_DETAIL, free_serial.scaleout_bytes_per_s);
}

static void build_moe(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    double batch = chalk_in(p, &CHALK_F_BATCH), context = chalk_in(p, &CHALK_F_CONTEXT);
    int racks = (int)chalk_in(p, &F_RACKS);
    moe_placement pl;
    moe_deploy md = moe_deploy_of(p, racks, &pl);
    chalk_clear(r);
    put_moe_inputs(r, p);
    put_shape(r, d->model, md.moe_layers);
    put_placement(r, &pl, d->chips);
    chalk_put_number(r, "expert_bytes_per_gpu", "expert weights per GPU", CHALK_U_BYTES,
                     CHALK_DETAIL,
                     moe_expert_bytes_per_gpu(&pl, md.moe_layers, md.d_model,
                                              d->model->d_ff_expert, d->bytes_per_param));
    double per_layer = moe_a2a_bytes_per_token(md.d_model, md.top_k, md.act_bytes);
    chalk_put_number(r, "a2a_bytes_per_token_per_layer", "all-to-all per token per layer",
                     CHALK_U_BYTES, 0, per_layer);
    chalk_put_number(r, "a2a_bytes_per_token", "  every MoE layer", CHALK_U_BYTES, CHALK_DETAIL,
                     per_layer * md.moe_layers);
    chalk_put_number(r, "a2a_remote_fraction", "  share leaving the GPU", CHALK_U_FRACTION,
                     CHALK_DETAIL, moe_a2a_remote_fraction(racks * pl.gpus_used));
    chalk_put_number(r, "sequences_per_gpu", "sequences per GPU", CHALK_U_SEQUENCES, CHALK_DETAIL,
                     batch / ((double)racks * pl.gpus_used));
    chalk_put_number(r, "tokens_per_expert", "tokens per expert", CHALK_U_TOKENS, CHALK_DETAIL,
                     moe_tokens_per_expert(batch, md.experts, md.top_k));

    moe_step st = moe_step_at(&md, batch, context);
    chalk_put_number(r, "compute_s", "compute", CHALK_U_SECONDS, 0, st.compute_s);
    chalk_put_number(r, "weights_s", "weight fetch", CHALK_U_SECONDS, CHALK_DETAIL, st.weights_s);
    chalk_put_number(r, "kv_s", "KV fetch", CHALK_U_SECONDS, CHALK_DETAIL, st.kv_s);
    chalk_put_number(r, "memory_s", "memory (weights + KV)", CHALK_U_SECONDS, 0, st.memory_s);
    chalk_put_number(r, "a2a_s", "all-to-all", CHALK_U_SECONDS, 0, st.a2a_s);
    chalk_put_number(r, "a2a_dispatch_s_per_layer", "  one layer, one way", CHALK_U_SECONDS,
                     CHALK_DETAIL, st.a2a_dispatch_s_per_layer);
    chalk_put_number(r, "step_s", "step", CHALK_U_SECONDS, 0, st.step_s);
    chalk_put_string(r, "bound", "bound", 0, moe_bound_name(st.bound));
    chalk_put_number(r, "network_over_compute", "network / compute", CHALK_U_PLAIN, CHALK_DETAIL,
                     moe_network_over_compute(&md));
    put_knee(r, &md, context);
    put_racks(r, p, racks);

    double gpus = (double)racks * pl.gpus_used;
    chalk_put_number(r, "hbm_used_bytes", "HBM used", CHALK_U_BYTES, CHALK_DETAIL, st.hbm_bytes);
    chalk_put_bool(r, "fits_hbm", "fits in the GPUs' HBM", CHALK_DETAIL,
                   st.hbm_bytes <= gpus * d->hbm_bytes);
}

/* ---- place: experts on a domain ---------------------------------------------------------- */

static int check_place(const chalk_point *p)
{
    if (!p->d->hw && !p->d->chips_given)
        return chalk_fail("place needs --chips N (GPUs in the domain) or --hw NAME");
    return check_routing(p, false);
}

static void build_place(const chalk_point *p, chalk_record *r)
{
    int experts = (int)experts_at(p);
    chalk_clear(r);
    chalk_put_hw_name(r, p->d->hw);
    chalk_put_number(r, "experts", "routed experts", CHALK_U_COUNT, CHALK_INPUT, experts);
    moe_placement pl = moe_place_experts(experts, p->d->chips);
    put_placement(r, &pl, p->d->chips);
}

/* ---- expert-batch ---------------------------------------------------------------------------- */

static int check_expert_batch(const chalk_point *p)
{
    int status = check_routing(p, true);
    if (!status)
        status = chalk_together(p, &F_THROUGHPUT, &F_USER_RATE);
    if (!status && chalk_has(p, &F_THROUGHPUT) && chalk_has(p, &CHALK_F_BATCH))
        status = chalk_fail("give --batch or the two rates, not both");
    return status;
}

static void build_expert_batch(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    int experts = (int)experts_at(p), top_k = (int)top_k_at(p);
    chalk_clear(r);
    chalk_put_model_name(r, d->model);
    chalk_put_hw_name(r, d->hw);
    chalk_put_string(r, "dtype", "dtype", CHALK_INPUT, cost_dtype_name(d->dtype));
    chalk_put_number(r, "experts", "routed experts", CHALK_U_COUNT, CHALK_INPUT, experts);
    chalk_put_number(r, "top_k", "experts per token", CHALK_U_COUNT, CHALK_INPUT, top_k);
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
    double min_batch = moe_min_batch(ratio, experts, top_k);
    chalk_put_number(r, "hw_ratio", "hardware ratio", CHALK_U_PLAIN, 0, ratio);
    chalk_put_number(r, "routed_sparsity", "experts / top-k", CHALK_U_PLAIN, CHALK_DETAIL,
                     (double)experts / top_k);
    chalk_put_number(r, "min_batch", "smallest batch, experts compute-bound", CHALK_U_SEQUENCES, 0,
                     min_batch);

    bool from_rates = chalk_has(p, &F_THROUGHPUT);
    bool has_batch = chalk_has(p, &CHALK_F_BATCH) || from_rates;
    double throughput = chalk_in(p, &F_THROUGHPUT), user_rate = chalk_in(p, &F_USER_RATE);
    double batch = from_rates ? throughput / user_rate : chalk_in(p, &CHALK_F_BATCH);
    if (from_rates) {
        chalk_put_number(r, "throughput_tokens_per_s", "throughput", CHALK_U_TOKENS_PER_S,
                         CHALK_INPUT, throughput);
        chalk_put_number(r, "user_tokens_per_s", "per sequence", CHALK_U_TOKENS_PER_S, CHALK_INPUT,
                         user_rate);
    }
    chalk_field *f =
        chalk_put_number(r, "batch", "batch", CHALK_U_SEQUENCES, 0, has_batch ? batch : min_batch);
    if (!has_batch)
        chalk_note(r, f, "no --batch: the smallest batch");
    else if (from_rates)
        chalk_note(r, f, "throughput / per-sequence rate");
    chalk_put_number(r, "tokens_per_expert", "tokens per expert", CHALK_U_TOKENS, 0,
                     moe_tokens_per_expert(has_batch ? batch : min_batch, experts, top_k));
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
                     known ? moe_tokens_per_expert(balance, experts, top_k) : 0.0, why);
}

/* ---- moe-layout: the cheapest layout for a latency target (exercise 2.12) ------------------ */

static int check_layout(const chalk_point *p)
{
    int status = check_moe_model(p);
    if (!status && !p->d->has_price)
        status = chalk_fail("moe-layout needs --usd-per-chip-hour X (%s has no sourced price)",
                            p->d->hw ? p->d->hw->name : "hardware from flags");
    if (!status && chalk_in(p, &F_MAX_RACKS) > 1 && !(scaleout_at(p) > 0.0))
        status = chalk_fail("--max-racks > 1 needs --scale-out-bytes-per-s X (%s)",
                            p->d->hw ? "the preset has no scale-out figure" : "or --hw NAME");
    return status;
}

static void build_layout(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    moe_placement pl;
    moe_layout_query q = {
        .model = moe_deploy_of(p, 1, &pl), /* its gpus and racks are the search's */
        .context_tokens = chalk_in(p, &CHALK_F_CONTEXT),
        .hbm_bytes = d->hbm_bytes,
        .domain_chips = d->chips,
        .max_racks = (int)chalk_in(p, &F_MAX_RACKS),
        .usd_per_gpu_hour = d->usd_per_chip_hour,
        .max_step_s = chalk_in(p, &CHALK_F_TARGET_STEP),
    };
    chalk_clear(r);
    chalk_deploy_echo_head(r, d);
    chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, q.context_tokens);
    chalk_put_number(r, "target_step_s", "target step", CHALK_U_SECONDS, CHALK_INPUT,
                     q.max_step_s);
    chalk_put_number(r, "max_racks", "racks at most", CHALK_U_COUNT, CHALK_INPUT, q.max_racks);
    chalk_put_number(r, "act_bytes", "bytes per activation", CHALK_U_PLAIN, CHALK_INPUT,
                     q.model.act_bytes);
    chalk_deploy_echo_tail(r, d, CHALK_ECHO_FLOPS | CHALK_ECHO_HBM | CHALK_ECHO_PRICE);
    chalk_put_number(r, "scaleup_bytes_per_s", "scale-up, one way", CHALK_U_BYTES_PER_S,
                     CHALK_INPUT, scaleup_at(p));
    chalk_put_maybe(r, "scaleout_bytes_per_s", "scale-out, one way", CHALK_U_BYTES_PER_S,
                    CHALK_INPUT, scaleout_at(p) > 0.0, scaleout_at(p));

    moe_layout l = moe_cheapest_layout(&q);
    char target[SHORT_CHARS];
    chalk_human(target, sizeof target, CHALK_U_SECONDS, q.max_step_s);
    const char *why = l.why == MOE_LAYOUT_BAD_QUERY
                          ? "an input is out of the contract's range"
                          : chalk_fmt(r,
                                      "no layout of 1 to %d racks steps within %s with the "
                                      "weights and a sequence's cache in its HBM",
                                      q.max_racks, target);
    bool ok = l.exists;
    chalk_put_bool(r, "found", "found", 0, ok);
    chalk_put_result(r, "racks", "racks", CHALK_U_COUNT, 0, ok, l.racks, why);
    chalk_put_result(r, "gpus_per_rack", "GPUs per rack", CHALK_U_COUNT, 0, ok, l.gpus_per_rack,
                     why);
    chalk_put_result(r, "experts_per_gpu", "experts per GPU", CHALK_U_COUNT, 0, ok,
                     l.experts_per_gpu, why);
    chalk_put_result(r, "batch", "batch", CHALK_U_SEQUENCES, 0, ok, l.batch, why);
    chalk_put_result(r, "step_s", "step", CHALK_U_SECONDS, 0, ok, l.step.step_s, why);
    chalk_field *f = chalk_put_string(r, "bound", "bound", 0, ok ? moe_bound_name(l.step.bound)
                                                                 : NULL);
    if (!ok)
        chalk_null_words(r, f, "none"); /* JSON: null */
    chalk_put_result(r, "tokens_per_s", "throughput", CHALK_U_TOKENS_PER_S, 0, ok,
                     l.tokens_per_s, why);
    chalk_put_result(r, "usd_per_mtok", "cost", CHALK_U_USD_PER_MTOK, 0, ok,
                     l.usd_per_token * 1e6, why);
}

/* ---- the commands ------------------------------------------------------------------------------ */

#define REQ CHALK_REQUIRED
#define SWEEPS CHALK_SWEEPS

static const chalk_input MOE[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS, {&CHALK_F_HBM_BYTES},
                                  {&CHALK_F_BATCH, REQ | SWEEPS}, {&CHALK_F_CONTEXT, REQ | SWEEPS},
                                  {&F_ACT_BYTES}, {&F_RACKS, SWEEPS, 1}, {&F_SCALEUP},
                                  {&F_SCALEOUT}, {NULL}};
static const chalk_input PLACE[] = {{&CHALK_F_MODEL}, {&F_EXPERTS, CHALK_WHOLE, 0, 1e6}, {&CHALK_F_HW},
                                    {&CHALK_F_CHIPS}, {NULL}};
static const chalk_input EXPERT_BATCH[] = {CHALK_MODEL_INPUTS, {&CHALK_F_HW}, {&CHALK_F_FLOPS},
                                           {&CHALK_F_HBM_BPS}, {&F_EXPERTS, CHALK_WHOLE, 0, 1e6},
                                           {&F_TOP_K}, {&CHALK_F_BATCH, SWEEPS}, {&F_THROUGHPUT},
                                           {&F_USER_RATE}, {NULL}};
static const chalk_input LAYOUT[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS, {&CHALK_F_HBM_BYTES},
                                     {&CHALK_F_USD}, {&CHALK_F_CONTEXT, REQ | SWEEPS},
                                     {&CHALK_F_TARGET_STEP, REQ | SWEEPS}, {&F_MAX_RACKS, 0, 1},
                                     {&F_ACT_BYTES}, {&F_SCALEUP}, {&F_SCALEOUT}, {NULL}};
static const char *const ABOUT_LAYOUT[] = {
    "The cheapest layout of an MoE model for a latency target (exercise 2.12, section",
    "2.10): over R racks (1 to --max-racks, R divides the experts) of n GPUs (1 to the",
    "domain, n divides experts / R), the largest whole batch whose step (moe's three",
    "roofs) takes at most --target-step-s and whose weights and caches of --context",
    "tokens fit the R n GPUs' HBM; the layout whose tokens cost least at",
    "--usd-per-chip-hour (ties, within a part in 1e9: the fewest GPUs, then the fewest",
    "racks). Null, with a reason, when no layout fits. --context or --target-step-s may",
    "be a sweep.",
    NULL};
static const char *const EXAMPLES_LAYOUT[] = {
    "chalk moe-layout --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --usd-per-chip-hour 2 "
    "--context 1024 --target-step-s 0.05",
    "chalk moe-layout --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --usd-per-chip-hour 2 "
    "--context 1024:1e6 --target-step-s 0.05 --max-racks 4 --csv",
    NULL};
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

static const chalk_command CMD_MOE = {
    .name = "moe",
    .summary = "experts on a rack and the three roofs of a decode step (2.1-2.5)",
    .title = "chalk moe: experts on a rack, three roofs of a decode step (lecture 2.1-2.3)",
    .inputs = MOE, .needs = CHALK_DEPLOY, .check = check_moe, .build = build_moe,
    .about = ABOUT_MOE, .examples = EXAMPLES_MOE
};
static const chalk_command CMD_PLACE = {
    .name = "place",
    .summary = "experts on the GPUs of a scale-up domain (2.2)",
    .title = "chalk place: experts on the GPUs of a scale-up domain (2.2)",
    .inputs = PLACE, .needs = CHALK_DEPLOY, .check = check_place, .build = build_place,
    .about = ABOUT_PLACE, .examples = EXAMPLES_PLACE
};
static const chalk_command CMD_EXPERT_BATCH = {
    .name = "expert-batch",
    .summary = "the batch that keeps every expert compute-bound (2.6)",
    .title = "chalk expert-batch: the batch that keeps every expert compute-bound (2.6)",
    .inputs = EXPERT_BATCH, .needs = CHALK_NEED_FLOPS | CHALK_NEED_BW,
    .check = check_expert_batch, .build = build_expert_batch,
    .about = ABOUT_EXPERT_BATCH, .examples = EXAMPLES_EXPERT_BATCH
};

static const chalk_command CMD_LAYOUT = {
    .name = "moe-layout",
    .summary = "the cheapest racks, GPUs and batch for a latency target (2.10)",
    .title = "chalk moe-layout: the cheapest layout for a latency target (2.10)",
    .inputs = LAYOUT, .needs = CHALK_DEPLOY, .check = check_layout, .build = build_layout,
    .about = ABOUT_LAYOUT, .examples = EXAMPLES_LAYOUT
};

const chalk_chapter chalk_chapter_02_moe = {
    .number = 2,
    .title = "moe: how an MoE layer is laid out across a rack",
    .commands = (const chalk_command *const[]){&CMD_MOE, &CMD_PLACE, &CMD_EXPERT_BATCH,
                                               &moe_imbalance_cmd, &moe_domain_cmd,
                                               &moe_routed_scaling_cmd, &CMD_LAYOUT, NULL},
};
