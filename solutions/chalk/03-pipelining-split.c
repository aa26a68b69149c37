/*
 * 03-pipelining-split.c -- chapter 3's commands on a model split over racks, memory per
 * GPU (the chapter's table, solutions/chalk/03-pipelining.c, lists them):
 *
 *   chalk pipeline-memory    weights and KV cache per GPU against the stages (4.2-4.4)
 *   chalk pipeline-split     the fewest racks that serve a model in decode (3.7), by
 *                            pipelining_best_split (exercise 3.9), with the hops between
 *                            them and whole layers per stage
 *
 *   chalk pipeline-split --params-total 1e12 --weight-bytes 1 --kv-bytes-per-token 2048
 *       --layers 60 --expert-parallel 64 --hbm-bytes 20e9 --microbatch 2000
 *       --context 200000 --step-s 0.02 --hop-s 0:0.003:7:linear
 *
 * The one-rack step is --step-s X, or chapter 1's decode step of the micro-batch on
 * the rack's --expert-parallel GPUs (batching_step_at), as decode-pipelined computes it.
 */
#include <stdio.h>

#include "01-batching.h"
#include "03-pipelining.h"

#define G_SPLIT "split"
#define U(x) CHALK_U_##x

/* clang-format off */
static const chalk_flag F_LAYERS     = {"--layers", "L", "layers", U(COUNT), 1, 1e5, CHALK_WHOLE, "layers of the model", G_SPLIT,
    "layers of the model, each an equal share of weights, cache and step (default: the --model's)"};
static const chalk_flag F_MIN_LAYERS = {"--min-layers-per-stage", "L", "min_layers_per_stage", U(COUNT), 1, 1e5, CHALK_WHOLE, "fewest layers a stage", G_SPLIT,
    "fewest layers that hide a stage's hop (chalk rack-hop; default 1)"};
static const chalk_flag F_MAX_STAGES = {"--max-stages", "P", "max_stages", U(COUNT), 1, 1e5, CHALK_WHOLE, "racks available", G_SPLIT,
    "racks available (default 64)"};
/* clang-format on */

#define F_STAGES pipelining_stages_flag
#define F_MICROBATCHES pipelining_microbatches_flag
#define F_EXPERT_PARALLEL pipelining_expert_parallel_flag
#define F_MICROBATCH pipelining_microbatch_flag
#define SWEEPS CHALK_SWEEPS

/* The model's name, or null "(from flags)". */
static void put_model(chalk_record *r, const cost_model *m)
{
    chalk_field *f = chalk_put_string(r, "model", "model", CHALK_INPUT, m ? m->name : NULL);
    if (!m)
        chalk_null_words(r, f, "(from flags)"); /* JSON: null */
}

/* ---- pipeline-memory ------------------------------------------------------------------------- */

/* GPUs per stage: --expert-parallel, or the domain of --hw. */
static double expert_parallel_at(const chalk_point *p)
{
    const cost_hw *hw = p->d->hw;
    return chalk_has(p, &F_EXPERT_PARALLEL) ? chalk_in(p, &F_EXPERT_PARALLEL)
           : hw                             ? hw->scaleup_domain_chips
                                            : 0;
}

static int check_memory(const chalk_point *p)
{
    const char *cmd = p->cmd->name;
    if (!(expert_parallel_at(p) >= 1))
        return chalk_fail("%s needs --expert-parallel E (or --hw NAME for its domain)", cmd);
    if (!chalk_has(p, &F_STAGES) || !chalk_has(p, &F_MICROBATCH) ||
        !chalk_has(p, &CHALK_F_CONTEXT))
        return chalk_fail("%s needs --stages P, --microbatch B and --context T", cmd);
    if (!p->d->has_kv)
        return chalk_fail("%s needs --kv-bytes-per-token X (or --model NAME)", cmd);
    const cost_model *m = p->d->model;
    if (m && chalk_in(p, &F_STAGES) > m->layers)
        return chalk_fail("%s: --stages %g is more than %s's %d layers (a stage holds at least "
                          "one layer)",
                          cmd, chalk_in(p, &F_STAGES), m->name, m->layers);
    return CHALK_OK;
}

static pipelining_memory memory_of(const chalk_point *p)
{
    int stages = (int)(chalk_in(p, &F_STAGES));
    pipelining_memory m = {
        .weight_bytes = p->d->params_total * p->d->bytes_per_param,
        .kv_bytes_per_token = p->d->kv_bytes_per_token,
        .context_tokens = chalk_in(p, &CHALK_F_CONTEXT),
        .microbatch_seqs = chalk_in(p, &F_MICROBATCH),
        .microbatches = chalk_has(p, &F_MICROBATCHES) ? (int)(chalk_in(p, &F_MICROBATCHES)) : stages,
        .chips = (int)(expert_parallel_at(p)),
        .stages = stages,
    };
    return m;
}

static void build_memory(const chalk_point *p, chalk_record *r)
{
    pipelining_memory m = memory_of(p);
    const chalk_deploy *d = p->d;
    chalk_clear(r);
    put_model(r, d->model);
    chalk_put_hw_name(r, d->hw);
    chalk_put_number(r, "expert_parallel", "GPUs per stage", CHALK_U_COUNT, CHALK_INPUT, m.chips);
    chalk_put_number(r, "stages", "stages", CHALK_U_COUNT, CHALK_INPUT, m.stages);
    chalk_put_number(r, "microbatch", "sequences per micro-batch", CHALK_U_SEQUENCES, CHALK_INPUT,
                     m.microbatch_seqs);
    chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, m.context_tokens);
    chalk_put_number(r, "params_total", "params total", CHALK_U_PARAMS, CHALK_INPUT,
                     d->params_total);
    chalk_put_number(r, "bytes_per_param", "bytes per param", CHALK_U_BYTES_PER_PARAM, CHALK_INPUT,
                     d->bytes_per_param);
    chalk_put_number(r, "kv_bytes_per_token", "KV bytes per token", CHALK_U_BYTES_PER_TOKEN,
                     CHALK_INPUT, d->kv_bytes_per_token);
    chalk_put_maybe(r, "hbm_bytes", "HBM per GPU", CHALK_U_BYTES, CHALK_INPUT, d->has_hbm,
                    d->hbm_bytes);
    chalk_put_string(r, "overrides", "overrides", CHALK_INPUT | CHALK_DETAIL,
                     d->overrides[0] ? d->overrides : NULL);

    chalk_put_number(r, "microbatches", "micro-batches in flight", CHALK_U_COUNT, 0,
                     m.microbatches);
    chalk_put_number(r, "sequences", "sequences in flight", CHALK_U_SEQUENCES, 0,
                     (double)m.microbatches * m.microbatch_seqs);
    chalk_put_number(r, "weight_bytes", "weights, all GPUs", CHALK_U_BYTES, 0, m.weight_bytes);
    double weights = pipelining_weight_bytes_per_gpu(&m), kv = pipelining_kv_bytes_per_gpu(&m);
    chalk_put_number(r, "weight_bytes_per_gpu", "weights per GPU", CHALK_U_BYTES, 0, weights);
    chalk_put_number(r, "kv_bytes_per_gpu", "KV cache per GPU", CHALK_U_BYTES, 0, kv);
    chalk_put_number(r, "total_bytes_per_gpu", "total per GPU", CHALK_U_BYTES, 0, weights + kv);

    bool has_hbm = d->has_hbm;
    double hbm = d->hbm_bytes;
    const char *no_hbm = "no HBM capacity: pass --hbm-bytes X (or --hw NAME)";
    chalk_put_bool_result(r, "fits_hbm", "fits in HBM", 0, has_hbm, weights + kv <= hbm, no_hbm);
    pipelining_fit fit = {.exists = false};
    const char *why = no_hbm;
    if (has_hbm) {
        fit = pipelining_min_stages_to_fit(&m, hbm);
        char need[40], have[40];
        pipelining_memory loop = m;
        loop.microbatches = loop.stages = 1; /* with M = P the KV per GPU is this, any P */
        chalk_human(need, sizeof need, CHALK_U_BYTES, pipelining_kv_bytes_per_gpu(&loop));
        chalk_human(have, sizeof have, CHALK_U_BYTES, hbm);
        why = chalk_fmt(r,
                        "the KV cache alone needs %s per GPU of its %s whatever the stages "
                        "(M = P micro-batches in flight)",
                        need, have);
    }
    chalk_put_result(r, "min_stages_to_fit", "fewest stages that fit (M = P)", CHALK_U_COUNT, 0,
                     fit.exists, fit.stages, why);
}

/* ---- pipeline-split ----------------------------------------------------------------- */

/* The model's layers: --layers, else the preset's. */
static double layers_at(const chalk_point *p)
{
    return chalk_has(p, &F_LAYERS) ? chalk_in(p, &F_LAYERS)
           : p->d->model           ? p->d->model->layers
                                   : 0.0;
}

static int check_split(const chalk_point *p)
{
    const char *cmd = p->cmd->name;
    int status = CHALK_OK;
    if (!chalk_has(p, &pipelining_step_flag))
        status = chalk_deploy_require(p->d, CHALK_NEED_FLOPS | CHALK_NEED_BW);
    if (status)
        return status;
    if (!(layers_at(p) >= 1))
        return chalk_fail("%s needs --layers L (or --model NAME)", cmd);
    if (!(expert_parallel_at(p) >= 1))
        return chalk_fail("%s needs --expert-parallel E (or --hw NAME for its domain)", cmd);
    if (!chalk_has(p, &pipelining_microbatch_flag) || !chalk_has(p, &CHALK_F_CONTEXT) ||
        !chalk_has(p, &pipelining_hop_flag))
        return chalk_fail("%s needs --microbatch B, --context T and --hop-s X", cmd);
    if (!(p->d->params_total * p->d->bytes_per_param > 0.0))
        return chalk_fail("%s needs weights: --params-total N (or --model NAME)", cmd);
    return CHALK_OK;
}

static void build_split(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    bool from_model = !chalk_has(p, &pipelining_step_flag);
    double microbatch = chalk_in(p, &pipelining_microbatch_flag);
    double context = chalk_in(p, &CHALK_F_CONTEXT), hop = chalk_in(p, &pipelining_hop_flag);
    int chips = (int)expert_parallel_at(p);
    double step_s = chalk_in(p, &pipelining_step_flag);
    if (from_model) {
        batching_deploy bd = chalk_batching_deploy(d);
        bd.chips = chips;
        step_s = batching_step_at(&bd, microbatch, context).step_s;
    }
    pipelining_deployment dep = {
        .layers = (int)layers_at(p),
        .weight_bytes = d->params_total * d->bytes_per_param,
        .kv_bytes_per_token = d->kv_bytes_per_token,
        .context_tokens = context,
        .microbatch_seqs = microbatch,
        .chips = chips,
        .hbm_bytes = d->hbm_bytes,
        .step_s = step_s,
        .hop_s = hop,
        .min_layers_per_stage = (int)chalk_in(p, &F_MIN_LAYERS),
        .max_stages = (int)chalk_in(p, &F_MAX_STAGES),
    };
    chalk_clear(r);
    put_model(r, d->model);
    chalk_put_hw_name(r, d->hw);
    chalk_put_number(r, "layers", "layers", CHALK_U_COUNT, CHALK_INPUT, dep.layers);
    chalk_put_number(r, "weight_bytes", "weights, all GPUs", CHALK_U_BYTES, CHALK_INPUT,
                     dep.weight_bytes);
    chalk_put_number(r, "kv_bytes_per_token", "KV bytes per token", CHALK_U_BYTES_PER_TOKEN,
                     CHALK_INPUT, dep.kv_bytes_per_token);
    chalk_put_number(r, "expert_parallel", "GPUs per stage", CHALK_U_COUNT, CHALK_INPUT,
                     dep.chips);
    chalk_put_number(r, "hbm_bytes", "HBM per GPU", CHALK_U_BYTES, CHALK_INPUT, dep.hbm_bytes);
    chalk_put_number(r, "microbatch", "sequences per micro-batch", CHALK_U_SEQUENCES, CHALK_INPUT,
                     microbatch);
    chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, context);
    chalk_put_number(r, "step_without_hops_s", "step on one rack", CHALK_U_SECONDS,
                     from_model ? 0 : CHALK_INPUT, step_s);
    chalk_put_number(r, "hop_s", "one hop", CHALK_U_SECONDS, CHALK_INPUT, hop);
    chalk_put_number(r, "min_layers_per_stage", "fewest layers per stage", CHALK_U_COUNT,
                     CHALK_INPUT, dep.min_layers_per_stage);
    chalk_put_number(r, "max_stages", "racks available", CHALK_U_COUNT, CHALK_INPUT,
                     dep.max_stages);

    pipelining_split split = pipelining_best_split(&dep);
    const char *why = chalk_fmt(r,
                                "none of 1 to %d stages both fits in the HBM and hides its "
                                "hops (at least %d layers a stage)",
                                dep.max_stages < dep.layers ? dep.max_stages : dep.layers,
                                dep.min_layers_per_stage);
    bool ok = split.exists;
    chalk_put_bool(r, "exists", "a split fits", 0, ok);
    chalk_put_string(r, "verdict", "verdict", CHALK_DETAIL, ok ? "fits" : "none");
    chalk_put_result(r, "stages", "fewest stages", CHALK_U_COUNT, 0, ok, split.stages, why);
    chalk_put_result(r, "max_layers_per_stage", "layers of the fullest stage", CHALK_U_COUNT, 0,
                     ok, split.max_layers_per_stage, why);
    chalk_put_result(r, "microbatches", "micro-batches in flight", CHALK_U_COUNT, 0, ok,
                     split.microbatches, why);
    chalk_put_result(r, "token_s", "time between tokens", CHALK_U_SECONDS, 0, ok, split.token_s,
                     why);
    chalk_put_result(r, "bytes_per_gpu", "memory per GPU (fullest stage)", CHALK_U_BYTES, 0, ok,
                     split.bytes_per_gpu, why);
}

static const chalk_input SPLIT[] = {CHALK_MODEL_INPUTS,
                                    {&CHALK_F_HW},
                                    {&CHALK_F_HBM_BYTES},
                                    {&CHALK_F_FLOPS},
                                    {&CHALK_F_HBM_BPS},
                                    {&F_LAYERS},
                                    {&pipelining_expert_parallel_flag},
                                    {&pipelining_microbatch_flag, CHALK_SWEEPS},
                                    {&CHALK_F_CONTEXT, CHALK_SWEEPS},
                                    {&pipelining_step_flag},
                                    {&pipelining_hop_flag, CHALK_SWEEPS},
                                    {&F_MIN_LAYERS, 0, 1},
                                    {&F_MAX_STAGES, 0, 64},
                                    {NULL}};
static const char *const ABOUT_SPLIT[] = {
    "The fewest pipeline stages (racks of --expert-parallel GPUs) that serve a model in",
    "decode: its --layers cut into whole layers as evenly as possible, every stage",
    "holding at least --min-layers-per-stage (its hop hidden), the fewest micro-batches",
    "in flight that keep the fullest stage busy round the loop (the step, plus a hop of",
    "--hop-s after each stage when there are two or more), and the fullest stage's share",
    "of the weights and of their KV cache within --hbm-bytes (or the --hw's) per GPU.",
    "Fewer stages are better; null with a reason when none of 1 to --max-stages fits.",
    "The step on one rack is --step-s X, or the model's decode roofline at --microbatch.",
    "One of --microbatch, --context, --hop-s may be a sweep.",
    NULL};
static const char *const EXAMPLES_SPLIT[] = {
    "chalk pipeline-split --params-total 1e12 --weight-bytes 1 --kv-bytes-per-token 2048 "
    "--layers 60 --expert-parallel 64 --hbm-bytes 20e9 --microbatch 2000 --context 200000 "
    "--step-s 0.02 --hop-s 0.002",
    "chalk pipeline-split --model deepseek-v3 --dtype fp8 --kv-dtype bf16 --hw h200 "
    "--microbatch 256 --context 32768 --hop-s 0:0.004:5:linear",
    NULL};

const chalk_command pipelining_split_cmd = {
    .name = "pipeline-split",
    .summary = "the fewest racks that serve a model in decode (3.7)",
    .title = "chalk pipeline-split: the fewest racks that serve a model in decode (3.7)",
    .inputs = SPLIT,
    .needs = CHALK_DEPLOY | CHALK_NEED_PARAMS | CHALK_NEED_HBM | CHALK_NEED_KV,
    .check = check_split,
    .build = build_split,
    .about = ABOUT_SPLIT,
    .examples = EXAMPLES_SPLIT,
};

static const chalk_input MEMORY[] = {
    CHALK_MODEL_INPUTS, {&CHALK_F_HW}, {&CHALK_F_HBM_BYTES}, {&F_EXPERT_PARALLEL},
    {&F_STAGES, SWEEPS},
    {&F_MICROBATCHES, 0, 0, 1e6, "micro-batches in flight (default: --stages, a decode loop without hops)"},
    {&F_MICROBATCH, SWEEPS}, {&CHALK_F_CONTEXT, SWEEPS}, {NULL}};
static const char *const ABOUT_MEMORY[] = {
    "Memory per GPU of a decode deployment: P stages of E GPUs, M micro-batches of B",
    "sequences in flight (M = P unless --microbatches says otherwise):",
    "  weight_bytes_per_gpu = params_total x bytes_per_param / (E P)",
    "  kv_bytes_per_gpu     = M x B x context x kv_bytes_per_token / (E P)",
    "With M = P the stages cancel from the KV term. With --hbm-bytes (or --hw):",
    "fits_hbm, and min_stages_to_fit, null with a reason when the KV cache alone",
    "overflows. --stages, --microbatch or --context may be a sweep.",
    NULL};
static const char *const EXAMPLES_MEMORY[] = {
    "chalk pipeline-memory --params-total 1e12 --weight-bytes 1 --kv-bytes-per-token 2048 "
    "--context 200000 --expert-parallel 64 --microbatch 2000 --stages 1:8:8:linear",
    "chalk pipeline-memory --model deepseek-v3 --dtype fp8 --kv-dtype bf16 --hw gb200-nvl72 "
    "--expert-parallel 64 --microbatch 2048 --context 32768 --stages 2",
    NULL};

const chalk_command pipelining_memory_cmd = {
    .name = "pipeline-memory",
    .summary = "weights and KV cache per GPU against the stages (4.2-4.4)",
    .title = "chalk pipeline-memory: weights and KV cache per GPU (lecture 4.2-4.4)",
    .inputs = MEMORY, .needs = CHALK_NEED_PARAMS, .check = check_memory, .build = build_memory,
    .about = ABOUT_MEMORY, .examples = EXAMPLES_MEMORY
};
