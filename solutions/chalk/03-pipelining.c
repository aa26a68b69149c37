/*
 * 03-pipelining.c -- chapter 3's commands: rack hops, bubbles, the schedule
 * simulator, the decode loop, memory per GPU and the weight read.
 *
 *   chalk rack-hop           scale-up time over scale-out time at a stage boundary (3.2)
 *   chalk bubble             the closed forms of the bubble, both conventions (3.5)
 *   chalk schedule           the simulated timeline of GPipe, 1F1B, interleaved (3.5)
 *   chalk decode-pipelined   a decode step through P racks with hops (3.6, 4.3, 4.5)
 *   chalk pipeline-memory    weights and KV cache per GPU against the stages (4.2-4.4)
 *   chalk weight-read        the weight read of a scale-up domain; stages add none (4.6)
 *   chalk pipeline-split     the fewest racks that serve a model in decode (3.7)
 *   (pipeline-memory and pipeline-split are in 03-pipelining-split.c)
 *
 * Every chapter-3 quantity of lecture-notes §10, and the command that reproduces it:
 *   cut condition (1/8) x 2 x n_act x L >= 1      rack-hop --bandwidth-ratio 8 --top-k 8
 *                                                  --layers-per-stage 1 -> 2x margin
 *   top-2 needs L >= 2                            rack-hop --bandwidth-ratio 8 --top-k 2
 *   4 racks, one inference: 3/4 idle              bubble --stages 4 --microbatches 1
 *   1/4 of the model per rack; 1T params = 1 TB   weight-read --params-total 1e12
 *                                                  --weight-bytes 1 --hw ... --stages 4
 *   spread over 8 racks: less HBM per GPU         weight-read ... --stages 8
 *   E = 64, P = 4; M = P (4)                      pipeline-memory --expert-parallel 64
 *                                                  --stages 4 -> microbatches
 *   weights 15.6/P GB, KV 12.8 GB per GPU         pipeline-memory --params-total 1e12
 *                                                  --weight-bytes 1 --kv-bytes-per-token 2048
 *                                                  --context 200000 --expert-parallel 64
 *                                                  --microbatch 2000 --stages 1:8
 *   hops: 2 ms x 4 = 8 ms; 20 -> 28 ms            decode-pipelined --step-s 0.02 --stages 4
 *                                                  --hop-s 0.002 -> hops_s, step_s
 *   scale-up 8 -> 72 GPUs ("8x", really 9x)       weight-read --hw gb200-nvl72 --versus
 *                                                  h100-sxm -> domain_growth
 *   Blackwell domain memory 10-20 TB              weight-read --hw gb200-nvl72 ->
 *                                                  domain_hbm_bytes
 * (The memory-wall figures, -30% phones and 50% of CapEx, are quotes, not arithmetic.)
 *
 * Every number comes from the chapter's reference (pipelining_*, through
 * exercises/03-pipelining/pipelining.h); the decode step of one rack and the weight
 * read come from chapter 1's (batching_*).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "01-batching.h"
#include "03-pipelining.h"

/* ---- this chapter's flags ------------------------------------------------------------------ */

#define G_PIPE "pipeline"
#define WHOLE CHALK_WHOLE
#define ABOVE CHALK_ABOVE_MIN
#define U(x) CHALK_U_##x

static const char *const SCHEDULE_NAMES[] = {"gpipe", "1f1b", "interleaved", NULL};

/* clang-format off */
const chalk_flag pipelining_stages_flag = {"--stages", "P", "stages", U(COUNT), 1, 1e6, WHOLE, "pipeline stages", G_PIPE,
    "pipeline stages (racks); may be a sweep"};
const chalk_flag pipelining_microbatches_flag = {"--microbatches", "M", "microbatches", U(COUNT), 1, 1e9, WHOLE, "micro-batches", G_PIPE,
    "micro-batches per training batch (or in flight); may be a sweep"};
static const chalk_flag F_CHUNKS       = {"--chunks", "V", "chunks", U(COUNT), 1, 1e4, WHOLE, "model chunks per stage", G_PIPE,
    "model chunks per stage (interleaved schedule; default 1); may be a sweep"};
static const chalk_flag F_SCHEDULE     = {"--schedule", "S", "schedule", U(WORD), 0, 0, 0, "gpipe|1f1b|interleaved", G_PIPE,
    "gpipe|1f1b|interleaved", .choices = SCHEDULE_NAMES};
static const chalk_flag F_FORWARD      = {"--forward-s", "X", "forward_s", U(SECONDS), 0, 1e6, ABOVE, "a forward pass, seconds", G_PIPE,
    "one micro-batch's forward pass through one stage, seconds (default 1)"};
static const chalk_flag F_BACKWARD     = {"--backward-s", "X", "backward_s", U(SECONDS), 0, 1e6, ABOVE, "a backward pass, seconds", G_PIPE,
    "its backward pass, seconds (default 2: twice the forward's work)"};
static const chalk_flag F_RATIO        = {"--bandwidth-ratio", "R", "bandwidth_ratio", U(RATIO), 0, 1e6, ABOVE, "scale-up over scale-out bandwidth", G_PIPE,
    "scale-up over scale-out bandwidth per GPU (the lecture's 8); or --hw NAME"};
static const chalk_flag F_TOP_K        = {"--top-k", "K", "top_k", U(COUNT), 1, 4096, WHOLE, "routed experts per token", G_PIPE,
    "routed experts each token visits per layer (default: the --model's); may be a sweep"};
static const chalk_flag F_LAYERS       = {"--layers-per-stage", "L", "layers_per_stage", U(COUNT), 1, 1e4, WHOLE, "MoE layers per stage", G_PIPE,
    "MoE layers in one stage (rack); may be a sweep"};
static const chalk_flag F_TOKENS       = {"--tokens", "T", "tokens", U(TOKENS), 0, 1e9, ABOVE, "tokens", G_PIPE,
    "tokens in one step through the stage, for the two times"};
static const chalk_flag F_D_MODEL      = {"--d-model", "D", "d_model", U(COUNT), 1, 1e6, WHOLE, "width of the residual stream", G_PIPE,
    "width of the residual stream (default: the --model's)"};
static const chalk_flag F_ACT_BYTES    = {"--act-bytes", "X", "act_bytes", U(PLAIN), 0, 64, ABOVE, "bytes per activation element", G_PIPE,
    "bytes per activation element (default 2, bf16)"};
const chalk_flag pipelining_expert_parallel_flag = {"--expert-parallel", "E", "expert_parallel", U(COUNT), 1, 1e6, WHOLE, "GPUs per stage", G_PIPE,
    "GPUs per stage sharing the weights and KV cache (default: the --hw's scale-up domain)"};
const chalk_flag pipelining_microbatch_flag = {"--microbatch", "B", "microbatch", U(SEQUENCES), 0, 1e9, ABOVE, "sequences per micro-batch", G_PIPE,
    "sequences per micro-batch; may be a sweep"};
static const chalk_flag F_BISECTION    = {"--bisection-bytes-per-s", "X", "bisection_bytes_per_s", U(BYTES_PER_S), 0, 1e18, 0, "the narrowest cut, one way", G_PIPE,
    "what crosses the --hw domain's narrowest cut into halves, one way (a torus); 0: switched"};
const chalk_flag pipelining_hop_flag = {"--hop-s", "X", "hop_s", U(SECONDS), 0, 10, 0, "seconds per hop", G_PIPE,
    "latency of one hop between racks, seconds (>= 0); may be a sweep"};
const chalk_flag pipelining_step_flag = {"--step-s", "X", "step_without_hops_s", U(SECONDS), 0, 1e3, ABOVE, "the step on one rack, seconds", G_PIPE,
    "the decode step on one rack, seconds, instead of a model and hardware"};
static const chalk_flag F_VERSUS       = {"--versus", "NAME", "versus_hw", U(WORD), 0, 0, 0, "a hardware preset", G_PIPE,
    "a second hardware preset to compare the domain with (chalk list hw)", .kind = &chalk_kind_hw};
/* clang-format on */
#define F_HOP pipelining_hop_flag
#define F_STAGES pipelining_stages_flag
#define F_MICROBATCHES pipelining_microbatches_flag
#define F_STEP pipelining_step_flag
#define F_EXPERT_PARALLEL pipelining_expert_parallel_flag
#define F_MICROBATCH pipelining_microbatch_flag

static int whole(double x)
{
    return (int)x; /* the flags' ranges keep every whole number inside an int */
}

/* ---- rack-hop ------------------------------------------------------------------------------- */

/* The all-to-all's rate per chip: the preset's own scale-up, or its share of a
 * torus's cut (--bisection-bytes-per-s). */
static double alltoall_at(const chalk_point *p)
{
    const cost_hw *hw = p->d->hw;
    return pipelining_alltoall_bytes_per_s(hw->scaleup_bytes_per_s, chalk_in(p, &F_BISECTION),
                                           p->d->chips);
}

/* The gap: --bandwidth-ratio, or the all-to-all's rate over the preset's scale-out. */
static double ratio_at(const chalk_point *p)
{
    const cost_hw *hw = p->d->hw;
    return hw ? alltoall_at(p) / hw->scaleout_bytes_per_s : chalk_in(p, &F_RATIO);
}

/* Experts per token: --top-k, or the model's. */
static int top_k_at(const chalk_point *p)
{
    return chalk_has(p, &F_TOP_K) ? whole(chalk_in(p, &F_TOP_K)) : p->d->model->experts_active;
}

/* The gap from --bandwidth-ratio or the preset; the experts per token from --top-k or
 * the model; the width for the times from --d-model or the model. */
static int check_hop(const chalk_point *p)
{
    const char *cmd = p->cmd->name;
    const cost_hw *hw = p->d->hw;
    const cost_model *m = p->d->model;
    int status = chalk_not_both(p, &F_RATIO, &CHALK_F_HW);
    if (status)
        return status;
    if (hw && (!(hw->scaleout_bytes_per_s > 0.0) || !(hw->scaleup_bytes_per_s > 0.0)))
        return chalk_fail("%s has no sourced scale-up and scale-out bandwidth; pass "
                          "--bandwidth-ratio R",
                          hw->name);
    if (!hw && !chalk_has(p, &F_RATIO))
        return chalk_fail("%s needs --bandwidth-ratio R (or --hw NAME)", cmd);
    if (!hw && chalk_has(p, &F_BISECTION))
        return chalk_fail("%s: --bisection-bytes-per-s needs --hw NAME (its chips' own rate)", cmd);
    if (!chalk_has(p, &F_TOP_K) && !m)
        return chalk_fail("%s needs --top-k K (or an MoE --model NAME)", cmd);
    if (!chalk_has(p, &F_TOP_K) && m->experts_routed == 0)
        return chalk_fail("%s is dense: it has no experts to route to; pass --top-k K", m->name);
    bool has_times = chalk_has(p, &F_TOKENS);
    double d_model = chalk_has(p, &F_D_MODEL) ? chalk_in(p, &F_D_MODEL) : m ? m->d_model : 0.0;
    if (has_times && !(d_model > 0.0))
        return chalk_fail("%s needs --d-model D (or --model NAME) for the times of --tokens", cmd);
    if (has_times && !hw)
        return chalk_fail("%s needs --hw NAME for the times of --tokens (the bandwidths)", cmd);
    return CHALK_OK;
}

static void build_hop(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    const cost_hw *hw = d->hw;
    int top_k = top_k_at(p);
    double ratio = ratio_at(p);
    chalk_clear(r);
    if (d->model)
        chalk_put_string(r, "model", "model", CHALK_INPUT, d->model->name);
    chalk_put_hw_name(r, hw);
    if (hw) {
        chalk_put_number(r, "scaleup_bytes_per_s", "scale-up, one way", CHALK_U_BYTES_PER_S,
                         CHALK_INPUT, hw->scaleup_bytes_per_s);
        chalk_put_number(r, "scaleout_bytes_per_s", "scale-out, one way", CHALK_U_BYTES_PER_S,
                         CHALK_INPUT, hw->scaleout_bytes_per_s);
    }
    bool bisection = chalk_has(p, &F_BISECTION);
    if (bisection) {
        chalk_put_number(r, "bisection_bytes_per_s", "bisection, one way", CHALK_U_BYTES_PER_S,
                         CHALK_INPUT, chalk_in(p, &F_BISECTION));
        chalk_put_number(r, "chips", "chips in the all-to-all", CHALK_U_COUNT, CHALK_INPUT,
                         d->chips);
        chalk_put_number(r, "alltoall_bytes_per_s", "all-to-all rate per chip",
                         CHALK_U_BYTES_PER_S, 0, alltoall_at(p));
    }
    chalk_put_number(r, "bandwidth_ratio", "bandwidth gap (up / out)", CHALK_U_PLAIN,
                     bisection ? 0 : CHALK_INPUT, ratio);
    chalk_put_number(r, "top_k", "experts per token", CHALK_U_COUNT, CHALK_INPUT, top_k);
    bool has_layers = chalk_has(p, &F_LAYERS);
    chalk_put_maybe(r, "layers_per_stage", "layers per stage", CHALK_U_COUNT, CHALK_INPUT,
                    has_layers, chalk_in(p, &F_LAYERS));

    int layers = has_layers ? whole(chalk_in(p, &F_LAYERS)) : 1;
    double hop_ratio = pipelining_hop_ratio(ratio, top_k, layers);
    const char *no_layers = "no --layers-per-stage given: pass --layers-per-stage L";
    chalk_put_result(r, "scale_up_over_scale_out", "scale-up time / scale-out time", CHALK_U_RATIO,
                     0, has_layers, hop_ratio, no_layers);
    chalk_put_bool_result(r, "hop_hidden", "hop hidden (ratio >= 1)", 0, has_layers,
                          hop_ratio >= 1.0, no_layers);
    chalk_put_number(r, "min_layers_per_stage", "fewest layers per stage", CHALK_U_COUNT, 0,
                     pipelining_min_layers_per_stage(ratio, top_k));

    bool has_times = chalk_has(p, &F_TOKENS);
    double tokens = chalk_in(p, &F_TOKENS), act_bytes = chalk_in(p, &F_ACT_BYTES);
    double d_model = chalk_has(p, &F_D_MODEL) ? chalk_in(p, &F_D_MODEL)
                     : d->model               ? d->model->d_model
                                              : 0.0;
    pipelining_hop h = {
        .tokens = tokens,
        .d_model = d_model,
        .activation_bytes = act_bytes,
        .experts_per_token = top_k,
        .layers_per_stage = layers,
        .chips = d->chips,
        .scaleup_bytes_per_s = hw ? alltoall_at(p) : 0.0,
        .scaleout_bytes_per_s = hw ? hw->scaleout_bytes_per_s : 0.0,
    };
    bool times = has_times && has_layers;
    const char *why =
        !has_times ? "no --tokens given: pass --tokens T for the two times" : no_layers;
    if (times) {
        chalk_put_number(r, "tokens", "tokens", CHALK_U_TOKENS, CHALK_INPUT, tokens);
        chalk_put_number(r, "d_model", "d_model", CHALK_U_COUNT, CHALK_INPUT, d_model);
        chalk_put_number(r, "act_bytes", "bytes per activation", CHALK_U_PLAIN, CHALK_INPUT,
                         act_bytes);
        if (!bisection)
            chalk_put_number(r, "chips", "GPUs per stage", CHALK_U_COUNT, CHALK_INPUT, d->chips);
    }
    chalk_put_result(r, "scaleup_s", "all-to-all in the rack", CHALK_U_SECONDS, 0, times,
                     times ? pipelining_scaleup_s(&h) : 0.0, why);
    chalk_put_result(r, "scaleout_s", "hop to the next rack", CHALK_U_SECONDS, 0, times,
                     times ? pipelining_scaleout_s(&h) : 0.0, why);
}

/* ---- bubble ------------------------------------------------------------------------------------ */

static int check_bubble(const chalk_point *p)
{
    if (!chalk_has(p, &F_STAGES) || !chalk_has(p, &F_MICROBATCHES))
        return chalk_fail("bubble needs --stages P and --microbatches M");
    return CHALK_OK;
}

static void build_bubble(const chalk_point *p, chalk_record *r)
{
    int stages = whole(chalk_in(p, &F_STAGES)), m = whole(chalk_in(p, &F_MICROBATCHES));
    int v = whole(chalk_in(p, &F_CHUNKS));
    chalk_clear(r);
    chalk_put_number(r, "stages", "stages", CHALK_U_COUNT, CHALK_INPUT, stages);
    chalk_put_number(r, "microbatches", "micro-batches", CHALK_U_COUNT, CHALK_INPUT, m);
    chalk_put_number(r, "chunks", "chunks per stage", CHALK_U_COUNT, CHALK_INPUT, v);
    double fraction = pipelining_bubble_fraction(stages, m, v);
    chalk_put_number(r, "bubble_fraction", "idle / total", CHALK_U_FRACTION, 0, fraction);
    chalk_put_number(r, "bubble_over_ideal", "idle / ideal", CHALK_U_RATIO, 0,
                     pipelining_bubble_over_ideal(stages, m, v));
    chalk_put_number(r, "speedup", "speedup over one stage", CHALK_U_RATIO, 0,
                     pipelining_speedup(stages, m, v));
}

/* ---- schedule ---------------------------------------------------------------------------------- */

typedef struct schedule_setup {
    pipelining_plan plan;
    pipelining_op *ops;
    pipelining_timeline t;
} schedule_setup;

static void put_plan(chalk_record *r, const pipelining_plan *p)
{
    chalk_put_string(r, "schedule", "schedule", CHALK_INPUT, SCHEDULE_NAMES[p->schedule]);
    chalk_put_number(r, "stages", "stages", CHALK_U_COUNT, CHALK_INPUT, p->stages);
    chalk_put_number(r, "microbatches", "micro-batches", CHALK_U_COUNT, CHALK_INPUT,
                     p->microbatches);
    chalk_put_number(r, "chunks", "chunks per stage", CHALK_U_COUNT, CHALK_INPUT, p->chunks);
    chalk_put_number(r, "forward_s", "forward, per stage", CHALK_U_SECONDS, CHALK_INPUT,
                     p->forward_s);
    chalk_put_number(r, "backward_s", "backward, per stage", CHALK_U_SECONDS, CHALK_INPUT,
                     p->backward_s);
}

/* The passes per stage up to which the record names the first stage's order. */
enum { ORDER_MAX_PASSES = 64 };

/* Stage 0's order as text, one word per pass: F or B, then the micro-batch
 * (from 0, as the order functions number them), then ":c" for chunk c when
 * there are chunks: "F0 F1 B0 ...". NULL when a stage runs more than
 * ORDER_MAX_PASSES passes (the CSV has them all). */
static const char *first_stage_order(const schedule_setup *s, char *text, size_t size)
{
    int per_stage = pipelining_ops_per_stage(&s->plan);
    if (per_stage > ORDER_MAX_PASSES)
        return NULL;
    size_t used = 0;
    text[0] = '\0';
    for (int k = 0; k < per_stage && used < size; k++) {
        const pipelining_op *op = s->ops + k;
        char chunk[16] = "";
        if (s->plan.chunks > 1)
            snprintf(chunk, sizeof chunk, ":%d", op->chunk);
        int n = snprintf(text + used, size - used, "%s%c%d%s", k ? " " : "",
                         op->pass == PIPELINING_FORWARD ? 'F' : 'B', op->microbatch, chunk);
        if (n < 0)
            return NULL;
        used += (size_t)n;
    }
    return used < size ? text : NULL;
}

static void build_schedule(const void *ctx, long row, chalk_record *r)
{
    const schedule_setup *s = ctx;
    const pipelining_plan *p = &s->plan;
    (void)row;
    chalk_clear(r);
    put_plan(r, p);
    chalk_put_number(r, "makespan_s", "batch time", CHALK_U_SECONDS, 0, s->t.makespan_s);
    chalk_put_number(r, "busy_s", "work per stage", CHALK_U_SECONDS, 0, s->t.busy_s);
    chalk_put_number(r, "idle_s", "idle per stage", CHALK_U_SECONDS, 0,
                     s->t.idle_s);
    chalk_put_number(r, "bubble_fraction", "idle / total (measured)", CHALK_U_FRACTION, 0,
                     s->t.bubble_fraction);
    chalk_put_number(r, "bubble_over_ideal", "idle / ideal (measured)", CHALK_U_RATIO, 0,
                     s->t.bubble_over_ideal);
    chalk_put_number(r, "bubble_fraction_closed_form", "idle / total (closed form)",
                     CHALK_U_FRACTION, 0,
                     pipelining_bubble_fraction(p->stages, p->microbatches, p->chunks));
    chalk_put_number(r, "peak_microbatches_in_flight", "peak micro-batches held", CHALK_U_PLAIN, 0,
                     s->t.peak_microbatches_in_flight);
    chalk_put_number(r, "passes", "passes simulated", CHALK_U_COUNT, CHALK_DETAIL, s->t.ops);
    char order[ORDER_MAX_PASSES * 16];
    chalk_put_string(r, "first_stage_order", "stage 0's order", CHALK_DETAIL,
                     first_stage_order(s, order, sizeof order));
}

/* One row per pass of the timeline, for --csv. */
static void build_timeline(const void *ctx, long row, chalk_record *r)
{
    const schedule_setup *s = ctx;
    const pipelining_op *op = s->ops + row;
    chalk_clear(r);
    chalk_put_number(r, "stage", "stage", CHALK_U_COUNT, 0, op->stage);
    chalk_put_number(r, "microbatch", "micro-batch", CHALK_U_COUNT, 0, op->microbatch);
    chalk_put_number(r, "chunk", "chunk", CHALK_U_COUNT, 0, op->chunk);
    chalk_put_string(r, "pass", "pass", 0, op->pass == PIPELINING_FORWARD ? "forward" : "backward");
    chalk_put_number(r, "start_s", "start", CHALK_U_SECONDS, 0, op->start_s);
    chalk_put_number(r, "end_s", "end", CHALK_U_SECONDS, 0, op->end_s);
}

/* The timeline as text, one line per stage and one column per chunk's forward time:
 * a forward pass of micro-batch k shows k's last digit, a backward pass the letter
 * 'a' + k % 10, and '.' is idle. */
static void print_gantt(const schedule_setup *s)
{
    const pipelining_plan *p = &s->plan;
    double slot = p->forward_s / p->chunks;
    long width = (long)ceil(s->t.makespan_s / slot - 1e-9);
    if (width > 160) {
        printf("\n(the timeline is %ld columns wide; --csv gives every pass)\n", width);
        return;
    }
    int per_stage = pipelining_ops_per_stage(p);
    printf("\ntimeline, one column per %g s: 0-9 forward of micro-batch k (mod 10), a-j its "
           "backward, . idle\n",
           slot);
    char *line = malloc((size_t)width + 1);
    if (!line)
        return;
    for (int st = 0; st < p->stages; st++) {
        memset(line, '.', (size_t)width);
        line[width] = '\0';
        for (int k = 0; k < per_stage; k++) {
            const pipelining_op *op = s->ops + (size_t)st * per_stage + k;
            long from = lround(op->start_s / slot), to = lround(op->end_s / slot);
            char first = op->pass == PIPELINING_FORWARD ? '0' : 'a';
            for (long c = from; c < to && c < width; c++)
                line[c] = (char)(first + op->microbatch % 10);
        }
        printf("stage %2d |%s|\n", st, line);
    }
    free(line);
}

static pipelining_plan plan_of(const chalk_point *p)
{
    return (pipelining_plan){.schedule = (pipelining_schedule)chalk_pick(p, &F_SCHEDULE),
                             .stages = whole(chalk_in(p, &F_STAGES)),
                             .microbatches = whole(chalk_in(p, &F_MICROBATCHES)),
                             .chunks = whole(chalk_in(p, &F_CHUNKS)),
                             .forward_s = chalk_in(p, &F_FORWARD),
                             .backward_s = chalk_in(p, &F_BACKWARD)};
}

static int check_schedule(const chalk_point *p)
{
    if (!chalk_has(p, &F_SCHEDULE))
        return chalk_fail("schedule needs --schedule gpipe|1f1b|interleaved");
    if (!chalk_has(p, &F_STAGES) || !chalk_has(p, &F_MICROBATCHES))
        return chalk_fail("schedule needs --stages P and --microbatches M");
    pipelining_plan plan = plan_of(p);
    if (plan.schedule == PIPELINING_INTERLEAVED && plan.chunks < 2)
        return chalk_fail("the interleaved schedule needs --chunks V, 2 to 8 model chunks per "
                          "stage");
    if (plan.schedule != PIPELINING_INTERLEAVED && plan.chunks != 1)
        return chalk_fail("%s runs one chunk per stage; --chunks V is for --schedule interleaved",
                          SCHEDULE_NAMES[plan.schedule]);
    if (plan.schedule == PIPELINING_INTERLEAVED && plan.microbatches % plan.stages != 0)
        return chalk_fail("the interleaved schedule runs micro-batches in groups of --stages: "
                          "--microbatches %d is not a multiple of %d",
                          plan.microbatches, plan.stages);
    return CHALK_OK;
}

static int run_schedule(const chalk_point *p)
{
    const chalk_args *a = p->args;
    schedule_setup s = {.plan = plan_of(p)};
    size_t n = (size_t)s.plan.stages * (size_t)pipelining_ops_per_stage(&s.plan);
    s.ops = calloc(n, sizeof *s.ops);
    if (!s.ops)
        return chalk_fail("schedule: out of memory for %zu passes", n);
    if (!pipelining_simulate(&s.plan, s.ops, n, &s.t)) {
        free(s.ops);
        return chalk_fail("schedule: the plan cannot be simulated"); /* checked above */
    }
    bool timeline = a->format == CHALK_CSV;
    chalk_report rep = {.title = p->cmd->title,
                        .rows = timeline ? (long)n : 1,
                        .build = timeline ? build_timeline : build_schedule,
                        .ctx = &s};
    int status = chalk_emit(a, &rep);
    if (!status && a->format == CHALK_TABLE)
        print_gantt(&s);
    free(s.ops);
    return status;
}

/* ---- decode-pipelined ------------------------------------------------------------------------ */

static int check_loop(const chalk_point *p)
{
    const char *cmd = p->cmd->name;
    bool from_model = !chalk_has(p, &F_STEP);
    if (!from_model) {
        const chalk_flag *const model_side[] = {
            &CHALK_F_MODEL, &CHALK_F_PARAMS_TOTAL, &CHALK_F_PARAMS_ACTIVE, &CHALK_F_WEIGHT_BYTES,
            &CHALK_F_KV_BYTES, &CHALK_F_DTYPE, &CHALK_F_KV_DTYPE, &CHALK_F_HW, &CHALK_F_CHIPS,
            &CHALK_F_FLOPS, &CHALK_F_HBM_BPS, &CHALK_F_BATCH, &CHALK_F_CONTEXT};
        for (size_t i = 0; i < CHALK_COUNT(model_side); i++)
            if (chalk_has(p, model_side[i]))
                return chalk_fail("%s takes --step-s X or a model on hardware (%s), not both", cmd,
                                  model_side[i]->name);
    }
    int status = from_model ? chalk_deploy_require(
                                  p->d, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW)
                            : CHALK_OK;
    if (status)
        return status;
    if (!chalk_has(p, &F_STAGES) || !chalk_has(p, &F_HOP))
        return chalk_fail("%s needs --stages P and --hop-s X", cmd);
    if (from_model && (!chalk_has(p, &CHALK_F_BATCH) || !chalk_has(p, &CHALK_F_CONTEXT)))
        return chalk_fail("%s needs --batch B and --context T (or --step-s X alone)", cmd);
    if (from_model && !p->d->has_kv)
        return chalk_fail("%s needs --kv-bytes-per-token X (or --model NAME)", cmd);
    return CHALK_OK;
}

static void build_loop(const chalk_point *p, chalk_record *r)
{
    bool from_model = !chalk_has(p, &F_STEP);
    int stages = whole(chalk_in(p, &F_STAGES));
    double hop = chalk_in(p, &F_HOP);
    double batch = chalk_in(p, &CHALK_F_BATCH), context = chalk_in(p, &CHALK_F_CONTEXT);
    chalk_clear(r);
    double step_s = chalk_in(p, &F_STEP);
    batching_step st = {0};
    if (from_model) {
        chalk_deploy_echo_head(r, p->d);
        chalk_put_number(r, "batch", "micro-batch (sequences)", CHALK_U_SEQUENCES, CHALK_INPUT,
                         batch);
        chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, context);
        chalk_deploy_echo_tail(r, p->d, CHALK_ECHO_FLOPS);
        batching_deploy bd = chalk_batching_deploy(p->d);
        bd.experts_routed = bd.experts_per_token = 0; /* the whole model's roofline */
        st = batching_step_at(&bd, batch, context);
        step_s = st.step_s;
    }
    chalk_put_number(r, "stages", "stages", CHALK_U_COUNT, CHALK_INPUT, stages);
    chalk_put_number(r, "hop_s", "one hop", CHALK_U_SECONDS, CHALK_INPUT, hop);

    /* each stage holds 1/P of the layers: 1/P of every roofline term */
    pipelining_decode_loop l = pipelining_decode_loop_at(stages, step_s, hop, batch);
    chalk_put_number(r, "step_without_hops_s", "step on one rack", CHALK_U_SECONDS, 0, step_s);
    chalk_put_number(r, "stage_s", "one stage", CHALK_U_SECONDS, 0, l.stage_s);
    chalk_put_number(r, "hops_s", "hops per token", CHALK_U_SECONDS, 0, l.hops_s);
    chalk_put_number(r, "step_s", "step with hops", CHALK_U_SECONDS, 0, l.token_s);
    chalk_put_number(r, "microbatches", "micro-batches to fill the loop", CHALK_U_COUNT, 0,
                     l.microbatches);
    if (from_model) {
        chalk_put_string(r, "bound", "bound (each stage)", 0, cost_bound_name(st.bound));
        chalk_put_number(r, "sequences_in_flight", "sequences in flight", CHALK_U_SEQUENCES, 0,
                         l.sequences_in_flight);
        chalk_put_number(r, "tokens_per_s", "throughput, all racks", CHALK_U_TOKENS_PER_S, 0,
                         l.tokens_per_s);
    }
}

/* ---- weight-read ------------------------------------------------------------------------------- */

static int check_read(const chalk_point *p)
{
    if (chalk_has(p, &F_VERSUS) && !p->d->hw)
        return chalk_fail("weight-read: --versus compares with --hw NAME; pass both");
    return CHALK_OK;
}

/* The weight read of `chips` GPUs of `hw`: chapter 1's weight term. */
static double weight_read_s(const chalk_deploy *d, int chips, double bytes_per_s)
{
    batching_deploy bd = {.params_total = d->params_total,
                          .bytes_per_param = d->bytes_per_param,
                          .chips = chips,
                          .hbm_bytes_per_s = bytes_per_s};
    return batching_weights_s(&bd);
}

static void build_read(const chalk_point *p, chalk_record *r)
{
    const chalk_deploy *d = p->d;
    int stages = whole(chalk_in(p, &F_STAGES));
    chalk_clear(r);
    chalk_deploy_echo_head(r, d);
    chalk_put_number(r, "stages", "stages", CHALK_U_COUNT, CHALK_INPUT, stages);
    chalk_deploy_echo_tail(r, d, CHALK_ECHO_HBM);
    size_t count;
    long versus = chalk_pick(p, &F_VERSUS);
    const cost_hw *v = versus >= 0 ? cost_hw_presets(&count)[versus] : NULL;
    if (v) {
        chalk_field *f = chalk_put_string(r, "versus_hw", "versus", CHALK_INPUT, v->name);
        chalk_note(r, f, "%s", v->title);
    }
    double weight_bytes = d->params_total * d->bytes_per_param;
    double read_s = weight_read_s(d, d->chips, d->hbm_bytes_per_s);
    pipelining_memory m = {.weight_bytes = weight_bytes, .chips = d->chips, .stages = stages};
    chalk_put_number(r, "weight_bytes", "weights", CHALK_U_BYTES, 0, weight_bytes);
    chalk_put_number(r, "domain_hbm_bytes_per_s", "HBM bandwidth of the domain",
                     CHALK_U_BYTES_PER_S, 0, d->chips * d->hbm_bytes_per_s);
    chalk_put_maybe(r, "domain_hbm_bytes", "HBM of the domain", CHALK_U_BYTES, 0, d->has_hbm,
                    d->chips * d->hbm_bytes);
    chalk_put_number(r, "weight_read_s", "weight read per token", CHALK_U_SECONDS, 0, read_s);
    chalk_put_number(r, "stage_weight_read_s", "weight read per stage", CHALK_U_SECONDS, 0,
                     read_s / stages);
    chalk_put_number(r, "weight_bytes_per_gpu", "weights per GPU", CHALK_U_BYTES, 0,
                     pipelining_weight_bytes_per_gpu(&m));
    if (!v)
        return;
    double versus_s = weight_read_s(d, v->scaleup_domain_chips, v->hbm_bytes_per_s);
    chalk_put_number(r, "versus_chips", "its domain", CHALK_U_COUNT, 0, v->scaleup_domain_chips);
    chalk_put_number(r, "versus_weight_read_s", "its weight read", CHALK_U_SECONDS, 0, versus_s);
    chalk_put_number(r, "domain_growth", "domain growth", CHALK_U_RATIO, 0,
                     (double)d->chips / v->scaleup_domain_chips);
    chalk_put_number(r, "bandwidth_per_gpu_growth", "HBM bandwidth per GPU growth", CHALK_U_RATIO,
                     0, d->hbm_bytes_per_s / v->hbm_bytes_per_s);
    chalk_put_number(r, "weight_read_speedup", "weight read speedup", CHALK_U_RATIO, 0,
                     versus_s / read_s);
}

/* ---- the commands -------------------------------------------------------------------------- */

#define REQ CHALK_REQUIRED
#define SWEEPS CHALK_SWEEPS

static const chalk_input HOP[] = {{&CHALK_F_MODEL}, {&CHALK_F_HW}, {&CHALK_F_CHIPS}, {&F_RATIO},
                                  {&F_BISECTION}, {&F_TOP_K, SWEEPS}, {&F_LAYERS, SWEEPS}, {&F_TOKENS},
                                  {&F_D_MODEL}, {&F_ACT_BYTES, 0, 2}, {NULL}};
static const chalk_input BUBBLE[] = {{&F_STAGES, SWEEPS}, {&F_MICROBATCHES, SWEEPS},
                                     {&F_CHUNKS, SWEEPS, 1}, {NULL}};
static const chalk_input SCHEDULE[] = {
    {&F_STAGES, 0, 0, 64, "pipeline stages (1 to 64)"},
    {&F_MICROBATCHES, 0, 0, 256,
     "micro-batches per batch (1 to 256; interleaved: a multiple of --stages)"},
    {&F_SCHEDULE},
    {&F_CHUNKS, 0, 1, 8,
     "model chunks per stage: 1 for gpipe and 1f1b (the default), 2 to 8 for interleaved"},
    {&F_FORWARD, 0, 1}, {&F_BACKWARD, 0, 2}, {NULL}};
static const chalk_input LOOP[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS,
                                   {&CHALK_F_BATCH, SWEEPS}, {&CHALK_F_CONTEXT, SWEEPS},
                                   {&F_STAGES, SWEEPS}, {&F_HOP, SWEEPS}, {&F_STEP}, {NULL}};
static const chalk_input READ[] = {CHALK_MODEL_INPUTS, {&CHALK_F_HW}, {&CHALK_F_CHIPS},
                                   {&CHALK_F_HBM_BPS}, {&CHALK_F_HBM_BYTES}, {&F_STAGES, SWEEPS, 1},
                                   {&F_VERSUS}, {NULL}};

static const char *const ABOUT_HOP[] = {
    "Is the hop from one rack to the next a bottleneck? Per step of T tokens of width d,",
    "  scale-up  = T x 2 x top_k x layers x d x bytes / (chips x scaleup_bytes_per_s)",
    "  scale-out = T x d x bytes / (chips x scaleout_bytes_per_s)",
    "  scale_up_over_scale_out = 2 x top_k x layers / bandwidth_ratio   (>= 1: hidden)",
    "  min_layers_per_stage    = ceil(bandwidth_ratio / (2 x top_k)), at least 1",
    "The gap comes from --bandwidth-ratio R or from --hw's one-way NVLink/ICI and NIC",
    "bandwidth; the experts per token from --top-k or --model. On a torus (a TPU pod),",
    "--bisection-bytes-per-s W limits the all-to-all of the --chips to",
    "  alltoall_bytes_per_s = min(scaleup_bytes_per_s, 4 W / chips)",
    "and the gap is that over the scale-out rate. --tokens T (with --hw and a width)",
    "adds the two times. --top-k or --layers-per-stage may be a sweep.",
    NULL};
static const char *const EXAMPLES_HOP[] = {
    "chalk rack-hop --bandwidth-ratio 8 --top-k 8 --layers-per-stage 1",
    "chalk rack-hop --model deepseek-v3 --hw gb200-nvl72 --layers-per-stage 2 --tokens 2048",
    "chalk rack-hop --hw h100-sxm --top-k 2 --layers-per-stage 1:8:8:linear --csv",
    "chalk rack-hop --hw tpu-v5e --bisection-bytes-per-s 1.6e12 --top-k 8", NULL};

static const char *const ABOUT_BUBBLE[] = {
    "The bubble of a pipelined training batch, P stages, M micro-batches, V chunks per",
    "stage (1 for GPipe and 1F1B):",
    "  bubble_fraction   = (P - 1) / (V M + P - 1)    idle share of the total (GPipe)",
    "  bubble_over_ideal = (P - 1) / (V M)            idle over ideal time (Megatron)",
    "  speedup           = P (1 - bubble_fraction)    work done, in stages never idle",
    "One of --stages, --microbatches, --chunks may be a sweep.",
    NULL};
static const char *const EXAMPLES_BUBBLE[] = {
    "chalk bubble --stages 4 --microbatches 1",
    "chalk bubble --stages 8 --microbatches 32 --chunks 4",
    "chalk bubble --stages 8 --microbatches 1:256 --csv", NULL};

static const char *const ABOUT_SCHEDULE[] = {
    "Simulates one training batch on a pipeline: every stage runs its passes in the",
    "schedule's order (gpipe: all forwards, then all backwards; 1f1b: a warm-up, then",
    "one forward one backward; interleaved: 1F1B over --chunks V chunks per stage), each",
    "as soon as the stage is free and its input is ready. Reports the measured batch",
    "time, bubble and peak micro-batches held, beside the closed-form bubble. --csv: the",
    "timeline, one row per stage, micro-batch, chunk and pass with its start and end.",
    NULL};
static const char *const EXAMPLES_SCHEDULE[] = {
    "chalk schedule --stages 4 --microbatches 8 --schedule 1f1b",
    "chalk schedule --stages 4 --microbatches 8 --schedule interleaved --chunks 2 --json",
    "chalk schedule --stages 4 --microbatches 8 --schedule gpipe --forward-s 1 --backward-s 2 "
    "--csv",
    NULL};

static const char *const ABOUT_LOOP[] = {
    "A decode step spread by layers over P racks, with a network hop of --hop-s after",
    "each stage (the last returns the new token to stage 0):",
    "  stage_s      = step_without_hops_s / P",
    "  step_s       = P x (stage_s + hop_s) = step_without_hops_s + hops_s",
    "  microbatches = ceil(P x (stage_s + hop_s) / stage_s)   (= P without hops)",
    "The one-rack step is --step-s X, or chapter 1's decode step of a model on hardware",
    "(--batch is the micro-batch). --stages, --hop-s, --batch or --context may be a sweep.",
    NULL};
static const char *const EXAMPLES_LOOP[] = {
    "chalk decode-pipelined --step-s 0.02 --stages 4 --hop-s 0.002",
    "chalk decode-pipelined --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 2048 "
    "--context 4096 --stages 4 --hop-s 0.002",
    NULL};

static const char *const ABOUT_READ[] = {
    "Every decode step reads every weight once, and only GPUs reading at the same time",
    "add bandwidth:",
    "  weight_read_s = params_total x bytes_per_param / (chips x hbm_bytes_per_s)",
    "whatever the pipeline stages (each reads its 1/P in turn: stage_weight_read_s).",
    "--stages P (default 1) also gives the weights per GPU; --versus NAME compares the",
    "domain with another preset's. --stages may be a sweep.",
    NULL};
static const char *const EXAMPLES_READ[] = {
    "chalk weight-read --params-total 1e12 --weight-bytes 1 --hw gb200-nvl72 --versus h100-sxm",
    "chalk weight-read --model deepseek-v3 --dtype fp8 --hw h100-sxm --stages 1:8:8:linear", NULL};

static const chalk_command CMD_RACK_HOP = {
    .name = "rack-hop",
    .summary = "scale-up time over scale-out time at a stage boundary (3.2)",
    .title = "chalk rack-hop: scale-up time over scale-out time at a stage boundary (lecture 3.2)",
    .inputs = HOP, .needs = CHALK_DEPLOY, .check = check_hop, .build = build_hop,
    .about = ABOUT_HOP, .examples = EXAMPLES_HOP
};
static const chalk_command CMD_BUBBLE = {
    .name = "bubble",
    .summary = "the pipeline bubble in closed form, both conventions (3.5)",
    .title = "chalk bubble: the pipeline bubble in closed form (lecture 3.5)",
    .inputs = BUBBLE, .check = check_bubble, .build = build_bubble,
    .about = ABOUT_BUBBLE, .examples = EXAMPLES_BUBBLE
};
static const chalk_command CMD_SCHEDULE = {
    .name = "schedule",
    .summary = "simulate GPipe, 1F1B or interleaved; the timeline (3.5)",
    .title = "chalk schedule: a simulated training batch on a pipeline (lecture 3.5)",
    .inputs = SCHEDULE, .check = check_schedule, .run = run_schedule,
    .about = ABOUT_SCHEDULE, .examples = EXAMPLES_SCHEDULE
};
static const chalk_command CMD_DECODE_PIPELINED = {
    .name = "decode-pipelined",
    .summary = "a decode step through P racks with hops (3.6, 4.3, 4.5)",
    .title = "chalk decode-pipelined: a decode step through P racks and P hops (lecture 3.6, "
    "4.3, 4.5)",
    .inputs = LOOP, .needs = CHALK_DEPLOY, .check = check_loop, .build = build_loop,
    .about = ABOUT_LOOP, .examples = EXAMPLES_LOOP
};
static const chalk_command CMD_WEIGHT_READ = {
    .name = "weight-read",
    .summary = "the weight read of a scale-up domain; stages add none (4.6)",
    .title = "chalk weight-read: the weights read once per token by one scale-up domain "
    "(lecture 4.6)",
    .inputs = READ, .needs = CHALK_NEED_PARAMS | CHALK_NEED_BW, .check = check_read,
    .build = build_read, .about = ABOUT_READ, .examples = EXAMPLES_READ
};

const chalk_chapter chalk_chapter_03_pipelining = {
    .number = 3,
    .title = "pipelining: capacity, not speed",
    .commands = (const chalk_command *const[]){&CMD_RACK_HOP, &CMD_BUBBLE, &CMD_SCHEDULE, &CMD_DECODE_PIPELINED, &pipelining_memory_cmd, &CMD_WEIGHT_READ, &pipelining_split_cmd, NULL},
};
