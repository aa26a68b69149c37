/*
 * 03-pipelining-split.c -- chapter 3's `chalk pipeline-split` (3.7): the fewest racks a
 * model can be served on in decode, with the hops between them and whole layers per
 * stage, by pipelining_best_split (exercise 3.9). The chapter's table,
 * solutions/chalk/03-pipelining.c, lists the command; this file holds its own flags,
 * its inputs and its row builder.
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

/* The model's layers and the GPUs per stage: the flags, else the presets'. */
static double layers_at(const chalk_point *p)
{
    return chalk_has(p, &F_LAYERS) ? chalk_in(p, &F_LAYERS)
           : p->d->model           ? p->d->model->layers
                                   : 0.0;
}

static double chips_at(const chalk_point *p)
{
    return chalk_has(p, &pipelining_expert_parallel_flag)
               ? chalk_in(p, &pipelining_expert_parallel_flag)
           : p->d->hw ? p->d->hw->scaleup_domain_chips
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
    if (!(chips_at(p) >= 1))
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
    int chips = (int)chips_at(p);
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
    chalk_field *f =
        chalk_put_string(r, "model", "model", CHALK_INPUT, d->model ? d->model->name : NULL);
    if (!d->model)
        chalk_null_words(r, f, "(from flags)"); /* JSON: null */
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
