/*
 * 06-revnets-memory.c -- chapter 6's commands on a transformer's activation memory
 * (06-revnets.c holds the chapter's table and its other commands):
 *
 *   chalk activation-memory  bytes a transformer layer keeps for its backward pass (6.7)
 *   chalk checkpoint-plan    the fewest recomputed layers that fit the HBM (6.8)
 *
 * Every number comes from the chapter's reference (revnets_act_bytes_per_layer,
 * revnets_plan_checkpoints, ...: exercises/06-revnets/revnets.h).
 */
#include <math.h>
#include <stdio.h>

#include "06-revnets.h"

static const char *const RECOMPUTE[] = {"none", "selective", "full", NULL}; /* revnets_recompute */

#define WHOLE CHALK_WHOLE
#define U(x) CHALK_U_##x
#define G_PAR "parallelism"

/* clang-format off */
static const chalk_flag F_LAYERS    = {"--layers", "L", "layers", U(COUNT), 1, 1e5, WHOLE, "layers", "layer",
    "transformer layers for bytes_per_model (default: the --model preset's); may be a sweep"};
static const chalk_flag F_SEQ       = {"--seq", "S", "seq_tokens", U(TOKENS), 1, 1e7, WHOLE, "tokens per sequence", "layer",
    "s: tokens per training sequence; may be a sweep"};
static const chalk_flag F_MICROBATCH = {"--microbatch", "B", "microbatch", U(SEQUENCES), 1, 1e6, WHOLE, "sequences per micro-batch", "layer",
    "b: sequences per micro-batch; may be a sweep"};
static const chalk_flag F_HIDDEN    = {"--hidden", "H", "hidden", U(COUNT), 1, 1e6, WHOLE, "the model width", "layer",
    "h: the model width (default: the --model preset's)"};
static const chalk_flag F_HEADS     = {"--heads", "A", "heads", U(COUNT), 1, 1e5, WHOLE, "attention heads", "layer",
    "a: attention heads (default: the --model preset's)"};
static const chalk_flag F_TP        = {"--tensor-parallel", "T", "tensor_parallel", U(COUNT), 1, 4096, WHOLE, "GPUs a layer is split over", G_PAR,
    "t: GPUs each layer is split over (default 1); may be a sweep"};
static const chalk_flag F_PP        = {"--pipeline-parallel", "P", "pipeline_parallel", U(COUNT), 1, 4096, WHOLE, "pipeline stages", G_PAR,
    "p: pipeline stages the layers are split into (default 1); divides the model state, not the first stage's activations"};
static const chalk_flag F_SP        = {"--sequence-parallel", NULL, "sequence_parallel", U(WORD), 0, 0, 0, NULL, G_PAR,
    "also split the layer norms and dropouts along the sequence"};
static const chalk_flag F_RECOMPUTE = {"--recompute", "none|selective|full", "recompute", U(WORD), 0, 0, 0, "none, selective or full", G_PAR,
    "what the backward pass recomputes instead of storing (default none)", .choices = RECOMPUTE};
/* clang-format on */

/* ---- activation-memory ------------------------------------------------------------------ */

/* The layer at this point: widths from the flags or the model. */
static revnets_layer layer_at(const chalk_point *p)
{
    const cost_model *m = chalk_model_at(p);
    return (revnets_layer){
        .seq_tokens = chalk_in(p, &F_SEQ),
        .microbatch = chalk_in(p, &F_MICROBATCH),
        .hidden = chalk_has(p, &F_HIDDEN) ? chalk_in(p, &F_HIDDEN) : m ? m->d_model : 0.0,
        .heads = chalk_has(p, &F_HEADS) ? chalk_in(p, &F_HEADS) : m ? m->heads : 0.0,
        .tensor_parallel = chalk_in(p, &F_TP),
        .sequence_parallel = chalk_has(p, &F_SP),
        .recompute = (revnets_recompute)(chalk_has(p, &F_RECOMPUTE) ? chalk_pick(p, &F_RECOMPUTE)
                                                                    : REVNETS_RECOMPUTE_NONE),
    };
}

static int check_act(const chalk_point *p)
{
    revnets_layer l = layer_at(p);
    if (!chalk_has(p, &F_SEQ))
        return chalk_fail("%s needs --seq S (tokens per sequence)", p->cmd->name);
    if (!chalk_has(p, &F_MICROBATCH))
        return chalk_fail("%s needs --microbatch B (sequences per micro-batch)", p->cmd->name);
    if (l.hidden == 0.0)
        return chalk_fail("%s needs --hidden H (or --model NAME)", p->cmd->name);
    if (l.heads == 0.0)
        return chalk_fail("%s needs --heads A (or --model NAME)", p->cmd->name);
    if (fmod(l.hidden, l.heads) != 0.0)
        return chalk_fail("%s: a hidden width of %g does not split into %g heads",
                          p->cmd->name, l.hidden, l.heads);
    if (l.tensor_parallel > l.heads || fmod(l.heads, l.tensor_parallel) != 0.0)
        return chalk_fail("%s: --tensor-parallel %g does not split %g heads evenly "
                          "(each GPU takes whole heads)",
                          p->cmd->name, l.tensor_parallel, l.heads);
    const cost_model *m = chalk_model_at(p);
    double layers = chalk_has(p, &F_LAYERS) ? chalk_in(p, &F_LAYERS) : m ? m->layers : 0.0;
    if (layers > 0.0 && chalk_in(p, &F_PP) > layers)
        return chalk_fail("%s: --pipeline-parallel %g is more stages than the %g "
                          "layers (a stage holds at least one layer)",
                          p->cmd->name, chalk_in(p, &F_PP), layers);
    return CHALK_OK;
}

/* Model state per GPU (16 bytes a parameter over t x p GPUs), what the first stage
 * holds in all, and whether the --hw chip's HBM takes it. */
static void put_fit(chalk_record *r, const chalk_point *p, double tp, bool has_layers,
                    double activation_bytes)
{
    const cost_model *model = chalk_model_at(p);
    const cost_hw *hw = chalk_hw_at(p);
    double pp = chalk_in(p, &F_PP);
    double state =
        model ? revnets_model_state_bytes_per_gpu(cost_model_params_total(model), tp, pp) : 0.0;
    chalk_put_result(r, "model_state_bytes_per_gpu", "model state per GPU", CHALK_U_BYTES, 0,
                     model != NULL, state,
                     "no parameter count: pass --model NAME for the model state");
    bool known = model && has_layers;
    chalk_put_result(r, "total_bytes_per_gpu", "state + activations, first stage", CHALK_U_BYTES, 0,
                     known, state + activation_bytes,
                     model ? "no layer count: pass --layers L"
                           : "no parameter count: pass --model NAME");
    chalk_put_bool_result(r, "fits_hbm", "fits in HBM", 0, known && hw,
                          hw && state + activation_bytes <= hw->hbm_bytes,
                          !hw ? "no HBM capacity: pass --hw NAME"
                              : "no total: pass --model NAME (and --layers L)");
}

static void build_act(const chalk_point *p, chalk_record *r)
{
    const cost_model *model = chalk_model_at(p);
    const cost_hw *hw = chalk_hw_at(p);
    revnets_layer l = layer_at(p);
    bool has_layers = chalk_has(p, &F_LAYERS) || model;
    double layers = chalk_has(p, &F_LAYERS) ? chalk_in(p, &F_LAYERS) : model ? model->layers : 0;
    chalk_clear(r);
    chalk_field *m = chalk_put_string(r, "model", "model", CHALK_INPUT, model ? model->name : NULL);
    if (!model)
        chalk_null_words(r, m, "(from flags)");
    chalk_put_number(r, "seq_tokens", "sequence", CHALK_U_TOKENS, CHALK_INPUT, l.seq_tokens);
    chalk_put_number(r, "microbatch", "micro-batch", CHALK_U_SEQUENCES, CHALK_INPUT, l.microbatch);
    chalk_put_number(r, "hidden", "hidden width", CHALK_U_COUNT, CHALK_INPUT, l.hidden);
    chalk_put_number(r, "heads", "heads", CHALK_U_COUNT, CHALK_INPUT, l.heads);
    chalk_put_maybe(r, "layers", "layers", CHALK_U_COUNT, CHALK_INPUT, has_layers, layers);
    chalk_put_number(r, "tensor_parallel", "tensor parallel", CHALK_U_COUNT, CHALK_INPUT,
                     l.tensor_parallel);
    chalk_put_bool(r, "sequence_parallel", "sequence parallel", CHALK_INPUT, l.sequence_parallel);
    chalk_put_string(r, "recompute", "recompute", CHALK_INPUT, RECOMPUTE[l.recompute]);
    chalk_put_number(r, "pipeline_parallel", "pipeline stages", CHALK_U_COUNT, CHALK_INPUT,
                     chalk_in(p, &F_PP));
    chalk_field *hbm = chalk_put_maybe(r, "hbm_bytes", "HBM per GPU", CHALK_U_BYTES, CHALK_INPUT,
                                       hw != NULL, hw ? hw->hbm_bytes : 0.0);
    if (!hw)
        chalk_null_words(r, hbm, "(no --hw)");

    double per_layer = revnets_act_bytes_per_layer(&l);
    chalk_put_number(r, "bytes_per_layer", "activations per layer", CHALK_U_BYTES, 0, per_layer);
    chalk_put_result(r, "bytes_per_model", "activations, all layers", CHALK_U_BYTES, 0,
                     has_layers,
                     has_layers ? revnets_act_bytes_per_model(&l, (int)layers) : 0,
                     "no layer count: pass --layers L or --model NAME");
    chalk_put_number(r, "extra_flops_fraction", "extra FLOPs, recomputing", CHALK_U_FRACTION, 0,
                     revnets_recompute_flops_fraction(&l));
    put_fit(r, p, l.tensor_parallel, has_layers,
            has_layers ? revnets_act_bytes_per_model(&l, (int)layers) : 0.0);
    /* the same layer under every recomputation choice, for comparisons and plots */
    for (int k = 0; k < 3; k++) {
        revnets_layer v = l;
        v.recompute = (revnets_recompute)k;
        chalk_put_number(r, chalk_fmt(r, "bytes_per_layer_%s", RECOMPUTE[k]),
                         chalk_fmt(r, "  recompute %s", RECOMPUTE[k]), CHALK_U_BYTES, CHALK_DETAIL,
                         revnets_act_bytes_per_layer(&v));
    }
    chalk_put_number(r, "attention_core_share", "share in the s^2 attention core", CHALK_U_FRACTION,
                     CHALK_DETAIL, revnets_attention_core_share(&l));
}

/* ---- checkpoint-plan -------------------------------------------------------------------- */

/* The HBM a GPU has: --hbm-bytes, else the --hw preset's. */
static double plan_hbm_bytes(const chalk_point *p)
{
    const cost_hw *hw = chalk_hw_at(p);
    return chalk_has(p, &CHALK_F_HBM_BYTES) ? chalk_in(p, &CHALK_F_HBM_BYTES)
           : hw                             ? hw->hbm_bytes
                                            : 0.0;
}

static int check_plan(const chalk_point *p)
{
    if (!chalk_model_at(p))
        return chalk_fail("checkpoint-plan needs --model NAME (its parameters and layers)");
    int status = check_act(p);
    if (status)
        return status;
    if (layer_at(p).recompute == REVNETS_RECOMPUTE_FULL)
        return chalk_fail("checkpoint-plan: --recompute is what a stored layer keeps, none or "
                          "selective; full recomputation is what the plan chooses");
    if (!chalk_hw_at(p) && !chalk_has(p, &CHALK_F_HBM_BYTES))
        return chalk_fail("checkpoint-plan needs --hw NAME or --hbm-bytes X (the HBM per GPU)");
    return CHALK_OK;
}

static void build_plan(const chalk_point *p, chalk_record *r)
{
    const cost_model *model = chalk_model_at(p);
    revnets_layer l = layer_at(p);
    int layers = (int)(chalk_has(p, &F_LAYERS) ? chalk_in(p, &F_LAYERS) : model->layers);
    double pp = chalk_in(p, &F_PP), hbm_bytes = plan_hbm_bytes(p);
    revnets_layer input = l;
    input.recompute = REVNETS_RECOMPUTE_FULL;
    double layer_bytes = revnets_act_bytes_per_layer(&l);
    double input_bytes = revnets_act_bytes_per_layer(&input);
    double state = revnets_model_state_bytes_per_gpu(cost_model_params_total(model),
                                                     l.tensor_parallel, pp);
    double budget = revnets_activation_budget_bytes(hbm_bytes, state);
    revnets_checkpoint_plan plan =
        revnets_plan_checkpoints(layers, layer_bytes, input_bytes, budget);
    const char *none = "no plan fits: even every layer recomputed needs more than the budget";

    chalk_clear(r);
    chalk_put_string(r, "model", "model", CHALK_INPUT, model->name);
    chalk_put_number(r, "seq_tokens", "sequence", CHALK_U_TOKENS, CHALK_INPUT, l.seq_tokens);
    chalk_put_number(r, "microbatch", "micro-batch", CHALK_U_SEQUENCES, CHALK_INPUT, l.microbatch);
    chalk_put_number(r, "layers", "layers", CHALK_U_COUNT, CHALK_INPUT, layers);
    chalk_put_number(r, "tensor_parallel", "tensor parallel", CHALK_U_COUNT, CHALK_INPUT,
                     l.tensor_parallel);
    chalk_put_bool(r, "sequence_parallel", "sequence parallel", CHALK_INPUT, l.sequence_parallel);
    chalk_put_string(r, "recompute", "stored layers keep", CHALK_INPUT, RECOMPUTE[l.recompute]);
    chalk_put_number(r, "pipeline_parallel", "pipeline stages", CHALK_U_COUNT, CHALK_INPUT, pp);
    chalk_put_number(r, "hbm_bytes", "HBM per GPU", CHALK_U_BYTES, CHALK_INPUT, hbm_bytes);
    chalk_put_number(r, "model_state_bytes_per_gpu", "model state per GPU", CHALK_U_BYTES,
                     CHALK_DETAIL, state);
    chalk_put_number(r, "budget_bytes", "activation budget", CHALK_U_BYTES, 0, budget);
    chalk_put_number(r, "layer_bytes", "a stored layer", CHALK_U_BYTES, CHALK_DETAIL, layer_bytes);
    chalk_put_number(r, "input_bytes", "a checkpoint", CHALK_U_BYTES, CHALK_DETAIL, input_bytes);
    chalk_put_bool(r, "plan_exists", "a plan fits", 0, plan.exists);
    chalk_put_bool(r, "needs_recompute", "some layer recomputed", CHALK_DETAIL,
                   plan.exists && plan.stored < layers);
    chalk_put_result(r, "stored_layers", "layers stored", CHALK_U_COUNT, 0, plan.exists,
                     plan.stored, none);
    chalk_put_result(r, "recomputed_layers", "layers recomputed", CHALK_U_COUNT, 0, plan.exists,
                     layers - plan.stored, none);
    chalk_put_result(r, "segment_layers", "layers a segment", CHALK_U_COUNT, 0, plan.exists,
                     plan.segment, none);
    chalk_put_result(r, "segments", "segments", CHALK_U_COUNT, CHALK_DETAIL, plan.exists,
                     plan.segments, none);
    chalk_put_result(r, "peak_bytes", "peak activations", CHALK_U_BYTES, 0, plan.exists,
                     plan.peak_bytes, none);
    /* the plan's segments, plus selective recomputation in the stored layers */
    chalk_put_result(r, "extra_flops_fraction", "extra FLOPs, recomputing", CHALK_U_FRACTION, 0,
                     plan.exists, revnets_plan_flops_fraction(&plan, layers, &l), none);
    /* the budget solved for the sequence instead (--seq not read): every layer stored as
     * --recompute says, or reversible layers holding one layer's at a time */
    long longest = revnets_longest_sequence(&l, layers, false, budget);
    long longest_rev = revnets_longest_sequence(&l, layers, true, budget);
    chalk_put_result(r, "longest_seq_tokens", "longest sequence, every layer stored",
                     CHALK_U_TOKENS, CHALK_DETAIL, longest > 0, (double)longest,
                     "not one token's activations fit the budget");
    chalk_put_result(r, "longest_seq_tokens_reversible", "longest sequence, reversible layers",
                     CHALK_U_TOKENS, CHALK_DETAIL, longest_rev > 0, (double)longest_rev,
                     "not one token's activations fit the budget");
}

/* ---- the commands ------------------------------------------------------------------------- */

#define SWEEPS CHALK_SWEEPS

static const chalk_input ACT[] = {{&CHALK_F_MODEL}, {&F_SEQ, SWEEPS}, {&F_MICROBATCH, SWEEPS},
                                  {&F_HIDDEN}, {&F_HEADS}, {&F_LAYERS, SWEEPS},
                                  {&F_TP, SWEEPS, 1}, {&F_SP}, {&F_RECOMPUTE}, {&F_PP, 0, 1},
                                  {&CHALK_F_HW}, {NULL}};

static const char *const ABOUT_ACT[] = {
    "Activation memory of one transformer layer on one GPU, in bytes, as Korthikanti et al.",
    "2022 count it (16-bit activations, 1-byte dropout masks, a 4h GELU MLP):",
    "  none                       sbh (34 + 5as/h)       (t = 1, or divided by t with",
    "                                                     --sequence-parallel)",
    "  none, tensor parallel t    sbh (10 + 24/t + 5as/(ht))",
    "  selective                  the same without the 5as/h term",
    "  full                       2 sbh, each layer's input (2 sbh / t with",
    "                             --sequence-parallel: the input is split along s)",
    "with s = --seq, b = --microbatch, h = --hidden, a = --heads. bytes_per_model is",
    "--layers times that: what the first pipeline stage holds. extra_flops_fraction is",
    "what recomputing adds to a step's 3 forwards: full 1/3, selective 4bs^2h of them.",
    "--model NAME fills --hidden, --heads and --layers, and gives the model state a GPU",
    "holds: 16 bytes a parameter (bf16 weights and gradients, fp32 Adam state; ZeRO),",
    "over t x --pipeline-parallel GPUs; with --hw NAME, fits_hbm says whether state and",
    "activations fit. --seq, --microbatch, --layers or --tensor-parallel may be a sweep.",
    NULL};
static const char *const EXAMPLES_ACT[] = {
    "chalk activation-memory --model gpt3-175b --seq 2048 --microbatch 1",
    "chalk activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --tensor-parallel 8 "
    "--sequence-parallel --recompute selective",
    "chalk activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --tensor-parallel 8 "
    "--pipeline-parallel 8 --hw a100-sxm",
    "chalk activation-memory --seq 2048 --microbatch 1 --hidden 6144 --heads 64 --layers 48", NULL};

const chalk_command revnets_activation_memory_cmd = {
    .name = "activation-memory",
    .summary = "bytes a transformer layer keeps for backward (6.7)",
    .title = "chalk activation-memory: bytes a layer keeps for the backward pass (6.7)",
    .inputs = ACT, .check = check_act, .build = build_act,
    .about = ABOUT_ACT, .examples = EXAMPLES_ACT
};
static const chalk_input PLAN[] = {{&CHALK_F_MODEL}, {&F_SEQ, SWEEPS}, {&F_MICROBATCH, SWEEPS},
                                   {&F_HIDDEN}, {&F_HEADS}, {&F_LAYERS, SWEEPS},
                                   {&F_TP, SWEEPS, 1}, {&F_SP}, {&F_RECOMPUTE}, {&F_PP, 0, 1},
                                   {&CHALK_F_HW}, {&CHALK_F_HBM_BYTES}, {NULL}};
static const char *const ABOUT_PLAN[] = {
    "A plan of checkpoints for a model's first pipeline stage (chapter 6, section 6.8):",
    "the last stored_layers layers, nearest the output, keep their activations (as",
    "--recompute says: none or selective); the others are cut into segments of",
    "segment_layers layers, each keeping only its first layer's input and recomputed",
    "from it in the backward pass, after the stored layers are freed. The plan",
    "recomputes the fewest layers whose peak memory,",
    "  segments x input_bytes + layer_bytes x max(stored_layers, segment_layers),",
    "fits the budget: the HBM (--hw, or --hbm-bytes) less the model state of 16 bytes a",
    "parameter over t x --pipeline-parallel GPUs. A stored layer keeps what",
    "activation-memory gives; a checkpoint is the layer's input as the GPU holds it.",
    "Ties: the least peak, then the shorter segment. No plan fits: null, with a reason.",
    "--seq, --microbatch, --layers or --tensor-parallel may be a sweep.",
    NULL};
static const char *const EXAMPLES_PLAN[] = {
    "chalk checkpoint-plan --model gpt3-175b --seq 2048 --microbatch 1 --tensor-parallel 8 "
    "--pipeline-parallel 8 --hw a100-sxm",
    "chalk checkpoint-plan --model gpt3-175b --seq 1024:32768:6 --microbatch 1 "
    "--tensor-parallel 8 --pipeline-parallel 8 --sequence-parallel --recompute selective "
    "--hw a100-sxm --csv",
    NULL};
const chalk_command revnets_checkpoint_plan_cmd = {
    .name = "checkpoint-plan",
    .summary = "the fewest recomputed layers that fit the HBM (6.8)",
    .title = "chalk checkpoint-plan: the fewest recomputed layers that fit (6.8)",
    .inputs = PLAN, .check = check_plan, .build = build_plan,
    .about = ABOUT_PLAN, .examples = EXAMPLES_PLAN
};
