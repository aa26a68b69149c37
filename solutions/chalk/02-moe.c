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
 *   Routing imbalance, capacity factor       moe-imbalance --experts 256 --top-k 8 --tokens T
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
#define G_SIM "simulation"
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
static const chalk_flag F_EXPERTS    = {"--experts", "E", "experts", U(COUNT), 1, 1e9, 0, "routed experts per layer", G_MOE,
    "routed experts per MoE layer (default: --model's)"};
static const chalk_flag F_TOP_K      = {"--top-k", "K", "top_k", U(COUNT), 1, 1e6, WHOLE, "routed experts per token", G_MOE,
    "routed experts each token visits (default: --model's)"};
static const chalk_flag F_THROUGHPUT = {"--throughput-tokens-per-s", "X", "throughput_tokens_per_s", U(TOKENS_PER_S), 0, 1e15, ABOVE, "tokens per second, all sequences", WORKLOAD,
    "tokens per second a deployment makes; with --user-tokens-per-s it sets the batch (Little's law: sequences in flight = throughput / per-sequence rate)"};
static const chalk_flag F_USER_RATE  = {"--user-tokens-per-s", "X", "user_tokens_per_s", U(TOKENS_PER_S), 1e-3, 1e9, 0, "tokens per second per sequence", WORKLOAD,
    "tokens per second one sequence receives"};
static const chalk_flag F_TOKENS     = {"--tokens", "T", "tokens", U(TOKENS), 1, 1e6, 0, "tokens routed per step", WORKLOAD,
    "tokens routed per step, rounded to a whole number (1 to 1e6); may be a sweep"};
static const chalk_flag F_SEED       = {"--seed", "S", "seed", U(PLAIN), 0, 9007199254740992.0 /* 2^53 */, WHOLE, "the generator's seed", G_SIM,
    "the generator's starting state (default 1): the same seed, the same result"};
static const chalk_flag F_TRIALS     = {"--trials", "N", "trials", U(COUNT), 1, 1e6, WHOLE, "random trials", G_SIM,
    "batches routed (default 100)"};
static const chalk_flag F_CAPACITY   = {"--capacity-factor", "X", "capacity_factor", U(PLAIN), 0, 1e6, 0, "capacity over the mean load", G_SIM,
    "tokens an expert accepts, over the mean load (default 1.25); the rest are dropped"};
static const chalk_flag F_ACTIVE_RATIO = {"--active-ratio", "X", "active_ratio", U(PLAIN), 1e-6, 1, 0, "active parameters kept", G_MOE,
    "active parameters kept, as a share of today's (default 0.5: halved)"};
/* clang-format on */

enum { SHORT_CHARS = 40 };

/* ---- routing: experts and top-k from flags or the model ---------------------------------- */

static double experts_at(const chalk_point *p)
{
    const cost_model *m = chalk_model_at(p);
    return chalk_has(p, &F_EXPERTS) ? chalk_in(p, &F_EXPERTS) : m ? m->experts_routed : 0;
}

static double top_k_at(const chalk_point *p)
{
    const cost_model *m = chalk_model_at(p);
    return chalk_has(p, &F_TOP_K) ? chalk_in(p, &F_TOP_K) : m ? m->experts_active : 1;
}

/* Experts (and, when `with_top_k`, top-k) from flags, else from --model; an error
 * when neither says. */
static int check_routing(const chalk_point *p, bool with_top_k)
{
    double e = experts_at(p), k = with_top_k ? top_k_at(p) : 1;
    const char *cmd = p->cmd->name;
    if (e < 1)
        return chalk_fail("%s needs --experts E (or --model NAME, an MoE preset)", cmd);
    if (with_top_k && (k < 1 || (!chalk_model_at(p) && !chalk_has(p, &F_TOP_K))))
        return chalk_fail("%s needs --top-k K (or --model NAME, an MoE preset)", cmd);
    if (k > e)
        return chalk_fail("--top-k (%g) cannot exceed --experts (%g): a token visits distinct "
                          "experts",
                          k, e);
    return CHALK_OK;
}

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

static int check_moe(const chalk_point *p)
{
    const chalk_deploy *d = p->d;
    const cost_hw *hw = d->hw;
    if (!d->model)
        return chalk_fail("moe needs --model NAME, an MoE preset (chalk list models: "
                          "deepseek-v3, mixtral-8x7b)");
    int status =
        chalk_deploy_require(d, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW | CHALK_NEED_HBM);
    if (status)
        return status;
    if (d->model->experts_routed == 0)
        return chalk_fail("%s is dense: it has no experts to lay out (pick deepseek-v3 or "
                          "mixtral-8x7b)",
                          d->model->name);
    int racks = (int)chalk_in(p, &F_RACKS);
    if (d->model->experts_routed % racks != 0)
        return chalk_fail("--racks %d does not divide %s's %d experts evenly", racks,
                          d->model->name, d->model->experts_routed);
    if (!(scaleup_at(p) > 0.0))
        return chalk_fail("%s needs --scale-up-bytes-per-s X (%s)", d->cmd,
                          hw ? "the preset has no scale-up figure" : "or --hw NAME");
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

/* ---- moe-imbalance --------------------------------------------------------------------------- */

/* A token-expert draw of the simulation takes about 8 ns (measured on the machine
 * that builds the book: 5.2e7 draws in 0.43 s of user time); the cap counts twice
 * that, for slower machines. */
#define SECONDS_PER_DRAW 16e-9

static int check_imbalance(const chalk_point *p)
{
    int status = check_routing(p, true);
    int top_k = (int)top_k_at(p);
    if (!status && top_k > MOE_MAX_TOP_K)
        status = chalk_fail("--top-k must be at most %d for the simulation (got %d)",
                            MOE_MAX_TOP_K, top_k);
    double draws = 0.0; /* every point's */
    for (long row = 0; !status && p->row == 0 && row < p->rows; row++)
        draws += round(chalk_in_at(p, &F_TOKENS, row)) * top_k * chalk_in(p, &F_TRIALS);
    if (!status)
        status = chalk_cap_work(p, draws * SECONDS_PER_DRAW, "fewer --trials, or fewer points");
    return status;
}

static void build_imbalance(const chalk_point *p, chalk_record *r)
{
    int experts = (int)experts_at(p), top_k = (int)top_k_at(p);
    int batch = (int)lround(chalk_in(p, &F_TOKENS));
    double seed = chalk_in(p, &F_SEED), trials = chalk_in(p, &F_TRIALS);
    double capacity_factor = chalk_in(p, &F_CAPACITY);
    chalk_clear(r);
    chalk_put_model_name(r, chalk_model_at(p));
    chalk_put_number(r, "experts", "routed experts", CHALK_U_COUNT, CHALK_INPUT, experts);
    chalk_put_number(r, "top_k", "experts per token", CHALK_U_COUNT, CHALK_INPUT, top_k);
    chalk_put_number(r, "tokens", "tokens per step", CHALK_U_TOKENS, CHALK_INPUT, batch);
    chalk_field *f = chalk_put_number(r, "seed", "seed", CHALK_U_PLAIN, CHALK_INPUT, seed);
    if (!chalk_has(p, &F_SEED))
        chalk_note(r, f, "default");
    f = chalk_put_number(r, "trials", "trials", CHALK_U_COUNT, CHALK_INPUT, trials);
    if (!chalk_has(p, &F_TRIALS))
        chalk_note(r, f, "default");
    f = chalk_put_number(r, "capacity_factor", "capacity factor", CHALK_U_PLAIN, CHALK_INPUT,
                         capacity_factor);
    if (!chalk_has(p, &F_CAPACITY))
        chalk_note(r, f, "default");

    moe_imbalance m =
        moe_simulate((uint64_t)seed, experts, top_k, batch, (int)trials, capacity_factor);
    moe_max_bounds b = moe_expected_max_load(batch, experts, top_k);
    double mean = moe_tokens_per_expert(batch, experts, top_k);
    chalk_put_number(r, "mean_load", "mean load", CHALK_U_TOKENS, 0, mean);
    chalk_put_number(r, "load_sd", "  standard deviation", CHALK_U_TOKENS, CHALK_DETAIL, b.sd);
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
                     m.ok ? moe_expected_drop_fraction(batch, experts, top_k, m.capacity) : 0.0);
    chalk_put_result(r, "capacity_factor_p99", "capacity for < 1% dropped (sim.)", CHALK_U_PLAIN, 0,
                     m.ok, m.capacity_factor_p99, why);
    chalk_put_number(r, "capacity_factor_p99_exact", "  expected", CHALK_U_PLAIN, CHALK_DETAIL,
                     moe_capacity_for_drop(batch, experts, top_k, 0.01) / mean);
}

/* ---- domain: what a scale-up domain holds ---------------------------------------------------- */

static void put_largest(chalk_record *r, const chalk_point *p, double domain_bytes)
{
    const chalk_deploy *d = p->d;
    double context = chalk_in(p, &CHALK_F_CONTEXT);
    const char *why = NULL;
    if (!d->has_params)
        why = "no model: pass --model NAME or --params-active N";
    else if (!chalk_has(p, &CHALK_F_CONTEXT))
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
            chalk_human(act, sizeof act, CHALK_U_PARAMS, d->params_active);
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

static int check_domain(const chalk_point *p)
{
    if (!p->d->hw && !p->d->chips_given)
        return chalk_fail("domain needs --chips N (chips in the domain) or --hw NAME");
    if (chalk_has(p, &CHALK_F_CONTEXT) && !p->d->has_bw)
        return chalk_fail("domain needs --hbm-bytes-per-s X (or --hw NAME) with --context");
    return CHALK_OK;
}

static void build_domain(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    chalk_clear(r);
    chalk_deploy_echo_head(r, d);
    chalk_put_maybe(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT,
                    chalk_has(p, &CHALK_F_CONTEXT), chalk_in(p, &CHALK_F_CONTEXT));
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
    put_largest(r, p, domain_bytes);
}

/* ---- routed-scaling ---------------------------------------------------------------------- */

static void build_scaling(const chalk_point *p, chalk_record *r)
{
    double params_active = chalk_in(p, &CHALK_F_PARAMS_ACTIVE), experts = chalk_in(p, &F_EXPERTS);
    double active_ratio = chalk_in(p, &F_ACTIVE_RATIO);
    chalk_clear(r);
    chalk_put_number(r, "params_active", "params active", CHALK_U_PARAMS, CHALK_INPUT,
                     params_active);
    chalk_put_number(r, "experts", "experts", CHALK_U_PLAIN, CHALK_INPUT, experts);
    chalk_put_number(r, "active_ratio", "active parameters kept", CHALK_U_PLAIN, CHALK_INPUT,
                     active_ratio);
    /* "64x for 4x": the exponent that turns 64 into 4 */
    chalk_put_number(r, "exponent", "exponent of the expert count", CHALK_U_PLAIN, 0,
                     log(moe_dense_equivalent_params(1.0, 64.0)) / log(64.0));
    chalk_put_number(r, "dense_equivalent_params", "as good as a dense model of", CHALK_U_PARAMS, 0,
                     moe_dense_equivalent_params(params_active, experts));
    chalk_put_number(r, "expert_multiplier", "experts needed at that share", CHALK_U_RATIO, 0,
                     moe_expert_multiplier(active_ratio));
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
static const chalk_input IMBALANCE[] = {{&CHALK_F_MODEL}, {&F_EXPERTS, CHALK_WHOLE, 0, 1e6}, {&F_TOP_K},
                                        {&F_TOKENS, REQ | SWEEPS}, {&F_SEED, 0, 1},
                                        {&F_TRIALS, 0, 100}, {&F_CAPACITY, 0, 1.25}, {NULL}};
static const chalk_input DOMAIN[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS, {&CHALK_F_HBM_BYTES},
                                     {&CHALK_F_CONTEXT, SWEEPS}, {NULL}};
static const chalk_input SCALING[] = {
    {&CHALK_F_PARAMS_ACTIVE, REQ},
    {&F_EXPERTS, REQ | SWEEPS, .help = "routed experts per layer (>= 1); may be a sweep"},
    {&F_ACTIVE_RATIO, 0, 0.5}, {NULL}};

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
    "Routes --trials batches of --tokens tokens, each token to --top-k distinct experts of",
    "--experts picked uniformly at random by a seeded SplitMix64 generator, and reports",
    "the busiest expert's load over the mean (averaged over trials), the share of",
    "token-expert assignments dropped when each expert accepts floor(capacity_factor x",
    "mean) tokens, and the smallest capacity factor that drops under 1%. Beside each,",
    "its closed form: one expert's load is Binomial(batch, top_k / experts); the",
    "busiest expert's mean lies between max_load_over_mean_lower (independent loads)",
    "and _upper (union bound). --tokens may be a sweep.",
    NULL};
static const char *const EXAMPLES_IMBALANCE[] = {
    "chalk moe-imbalance --experts 256 --top-k 8 --tokens 4096 --seed 1 --trials 100",
    "chalk moe-imbalance --model deepseek-v3 --tokens 64:65536:11 --trials 20 --csv", NULL};

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
static const chalk_command CMD_MOE_IMBALANCE = {
    .name = "moe-imbalance",
    .summary = "random routing: the busiest expert and dropped tokens (2.7)",
    .title = "chalk moe-imbalance: random routing, the busiest expert (lecture 2.2; ch. 2.7)",
    .inputs = IMBALANCE, .check = check_imbalance, .build = build_imbalance,
    .about = ABOUT_IMBALANCE, .examples = EXAMPLES_IMBALANCE
};
static const chalk_command CMD_DOMAIN = {
    .name = "domain",
    .summary = "what a scale-up domain holds; the largest model (2.8)",
    .title = "chalk domain: what one scale-up domain holds (lecture 2.4-2.5)",
    .inputs = DOMAIN, .needs = CHALK_NEED_HBM, .check = check_domain, .build = build_domain,
    .about = ABOUT_DOMAIN, .examples = EXAMPLES_DOMAIN
};
static const chalk_command CMD_ROUTED_SCALING = {
    .name = "routed-scaling",
    .summary = "what experts are worth: the routed scaling law (2.9)",
    .title = "chalk routed-scaling: what experts are worth, \"64x for 4x\" (lecture 1.8)",
    .inputs = SCALING, .build = build_scaling,
    .about = ABOUT_SCALING, .examples = EXAMPLES_SCALING
};

const chalk_chapter chalk_chapter_02_moe = {
    .number = 2,
    .title = "moe: how an MoE layer is laid out across a rack",
    .commands = (const chalk_command *const[]){&CMD_MOE, &CMD_PLACE, &CMD_EXPERT_BATCH, &CMD_MOE_IMBALANCE, &CMD_DOMAIN, &CMD_ROUTED_SCALING, NULL},
};
