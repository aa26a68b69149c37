/*
 * 03-pipelining-split.c -- chapter 3's `chalk pipeline-split` (3.7): the fewest racks a
 * model can be served on in decode, with the hops between them and whole layers per
 * stage, by pipelining_best_split (exercise 3.9). The command's row is in the chapter's
 * table, solutions/chalk/03-pipelining.c; this file holds its flags and its builder.
 *
 *   chalk pipeline-split --params-total 1e12 --weight-bytes 1 --kv-bytes-per-token 2048
 *       --layers 60 --expert-parallel 64 --hbm-bytes 20e9 --microbatch 2000
 *       --context 200000 --step-s 0.02 --hop-s 0:0.003:7:linear
 *
 * The one-rack step is --step-s X, or chapter 1's decode step of the micro-batch on
 * the rack's --expert-parallel GPUs (batching_step_at), as decode-pipelined computes it.
 */
#include <stdio.h>

#include "batching.h"
#include "chalk.h"
#include "pipelining.h"

#define G_SPLIT "split"

/* ---- the command's own flags ------------------------------------------------------------ */

static const chalk_flag F_LAYERS = {
    .name = "--layers",
    .arg = "L",
    .key = "layers",
    .group = G_SPLIT,
    .help = "layers of the model, each an equal share of weights, cache and step (default: "
            "the --model's)",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_EXPERT_PARALLEL = {
    .name = "--expert-parallel",
    .arg = "E",
    .key = "expert_parallel",
    .group = G_SPLIT,
    .help = "GPUs per stage (default: the --hw's scale-up domain)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_MICROBATCH = {
    .name = "--microbatch",
    .arg = "B",
    .key = "microbatch",
    .group = G_SPLIT,
    .help = "sequences per micro-batch; may be a sweep",
    .min = 0,
    .max = 1e9,
    .rules = CHALK_ABOVE_MIN | CHALK_SWEEPS,
};
static const chalk_flag F_STEP = {
    .name = "--step-s",
    .arg = "X",
    .key = "step_without_hops_s",
    .group = G_SPLIT,
    .help = "one micro-batch's decode step on one rack, seconds (default: the model's "
            "roofline on the rack)",
    .min = 0,
    .max = 1e3,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_HOP = {
    .name = "--hop-s",
    .arg = "X",
    .key = "hop_s",
    .group = G_SPLIT,
    .help = "latency of one hop between racks, seconds (>= 0); may be a sweep",
    .min = 0,
    .max = 10,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_MIN_LAYERS = {
    .name = "--min-layers-per-stage",
    .arg = "L",
    .key = "min_layers_per_stage",
    .group = G_SPLIT,
    .help = "fewest layers that hide a stage's hop (chalk rack-hop; default 1)",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_MAX_STAGES = {
    .name = "--max-stages",
    .arg = "P",
    .key = "max_stages",
    .group = G_SPLIT,
    .help = "racks available (default 64)",
    .min = 1,
    .max = 1e5,
    .rules = CHALK_WHOLE,
};

/* ---- the command ------------------------------------------------------------------------ */

typedef struct split_setup {
    chalk_deploy d;
    bool from_model; /* the one-rack step from the model's roofline, not --step-s */
    double step_s, layers, chips, min_layers, max_stages;
    chalk_sweep microbatch, context, hop;
    const chalk_sweep *swept;
} split_setup;

static void build_split(const void *ctx, long row, chalk_record *r)
{
    const split_setup *s = ctx;
    const chalk_deploy *d = &s->d;
    double microbatch = chalk_sweep_at(&s->microbatch, row);
    double context = chalk_sweep_at(&s->context, row), hop = chalk_sweep_at(&s->hop, row);
    double step_s = s->step_s;
    if (s->from_model) {
        batching_deploy bd = {
            .params_total = d->params_total,
            .params_active = d->params_active,
            .bytes_per_param = d->bytes_per_param,
            .kv_bytes_per_token = d->kv_bytes_per_token,
            .chips = (int)s->chips,
            .flops_per_s = d->flops_per_s,
            .hbm_bytes_per_s = d->hbm_bytes_per_s,
            .hbm_bytes = d->hbm_bytes,
        };
        step_s = batching_step_at(&bd, microbatch, context).step_s;
    }
    pipelining_deployment dep = {
        .layers = (int)s->layers,
        .weight_bytes = d->params_total * d->bytes_per_param,
        .kv_bytes_per_token = d->kv_bytes_per_token,
        .context_tokens = context,
        .microbatch_seqs = microbatch,
        .chips = (int)s->chips,
        .hbm_bytes = d->hbm_bytes,
        .step_s = step_s,
        .hop_s = hop,
        .min_layers_per_stage = (int)s->min_layers,
        .max_stages = (int)s->max_stages,
    };
    chalk_clear(r);
    chalk_field *f = chalk_put_string(r, "model", "model", CHALK_INPUT, d->model ? d->model->name : NULL);
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
                     s->from_model ? 0 : CHALK_INPUT, step_s);
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

static int split_read(const chalk_args *a, split_setup *s, chalk_sweep *const *sweeps)
{
    const char *cmd = a->cmd->name;
    s->from_model = !chalk_given(a, &F_STEP);
    unsigned needs = CHALK_NEED_PARAMS | CHALK_NEED_HBM | CHALK_NEED_KV;
    if (s->from_model)
        needs |= CHALK_NEED_FLOPS | CHALK_NEED_BW;
    int status = chalk_deploy_resolve(a, needs, &s->d);
    const chalk_flag *const flags[] = {&F_MICROBATCH, &CHALK_F_CONTEXT, &F_HOP, NULL};
    for (int i = 0; flags[i] && !status; i++)
        status = chalk_sweep_read(a, flags[i], sweeps[i]);
    if (!status)
        status = chalk_one_sweep(sweeps, 3, &s->swept);
    if (status)
        return status;
    s->layers = s->d.model ? s->d.model->layers : 0;
    s->chips = s->d.hw ? s->d.hw->scaleup_domain_chips : 0;
    s->min_layers = 1;
    s->max_stages = 64;
    if ((status = chalk_number(a, &F_STEP, &s->step_s)) ||
        (status = chalk_number(a, &F_LAYERS, &s->layers)) ||
        (status = chalk_number(a, &F_EXPERT_PARALLEL, &s->chips)) ||
        (status = chalk_number(a, &F_MIN_LAYERS, &s->min_layers)) ||
        (status = chalk_number(a, &F_MAX_STAGES, &s->max_stages)))
        return status;
    if (!(s->layers >= 1))
        return chalk_fail("%s needs --layers L (or --model NAME)", cmd);
    if (!(s->chips >= 1))
        return chalk_fail("%s needs --expert-parallel E (or --hw NAME for its domain)", cmd);
    if (!s->microbatch.given || !s->context.given || !s->hop.given)
        return chalk_fail("%s needs --microbatch B, --context T and --hop-s X", cmd);
    if (!(s->d.params_total * s->d.bytes_per_param > 0.0))
        return chalk_fail("%s needs weights: --params-total N (or --model NAME)", cmd);
    return CHALK_OK;
}

int chalk_03_run_split(const chalk_args *a);
int chalk_03_run_split(const chalk_args *a)
{
    split_setup s = {0};
    chalk_sweep *const sweeps[] = {&s.microbatch, &s.context, &s.hop, NULL};
    int status = split_read(a, &s, sweeps);
    if (status) {
        for (int i = 0; sweeps[i]; i++)
            chalk_sweep_free(sweeps[i]);
        return status;
    }
    chalk_report rep = {.title = "chalk pipeline-split: the fewest racks that serve a model in "
                                 "decode (3.7)",
                        .rows = s.swept ? s.swept->points : 1,
                        .swept = s.swept,
                        .build = build_split,
                        .ctx = &s};
    status = chalk_emit(a, &rep);
    for (int i = 0; sweeps[i]; i++)
        chalk_sweep_free(sweeps[i]);
    return status;
}

const chalk_flag *const CHALK_03_SPLIT_FLAGS[] = {
    CHALK_MODEL_FLAGS,  &CHALK_F_HW,     &CHALK_F_HBM_BYTES, &CHALK_F_FLOPS,
    &CHALK_F_HBM_BPS,   &F_LAYERS,       &F_EXPERT_PARALLEL, &F_MICROBATCH,
    &CHALK_F_CONTEXT,   &F_STEP,         &F_HOP,             &F_MIN_LAYERS,
    &F_MAX_STAGES,      NULL};
const char *const CHALK_03_SPLIT_ABOUT[] = {
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
const char *const CHALK_03_SPLIT_EXAMPLES[] = {
    "chalk pipeline-split --params-total 1e12 --weight-bytes 1 --kv-bytes-per-token 2048 "
    "--layers 60 --expert-parallel 64 --hbm-bytes 20e9 --microbatch 2000 --context 200000 "
    "--step-s 0.02 --hop-s 0.002",
    "chalk pipeline-split --model deepseek-v3 --dtype fp8 --kv-dtype bf16 --hw h200 "
    "--microbatch 256 --context 32768 --hop-s 0:0.004:5:linear",
    NULL};
