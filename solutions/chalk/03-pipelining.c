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

#include "batching.h"
#include "chalk.h"
#include "pipelining.h"

#define G_PIPE "pipeline"

/* ---- this chapter's flags ------------------------------------------------------------------ */

static const chalk_flag F_STAGES = {
    .name = "--stages",
    .arg = "P",
    .key = "stages",
    .group = G_PIPE,
    .help = "pipeline stages (racks); may be a sweep",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_MICROBATCHES = {
    .name = "--microbatches",
    .arg = "M",
    .key = "microbatches",
    .group = G_PIPE,
    .help = "micro-batches per training batch (or in flight); may be a sweep",
    .min = 1,
    .max = 1e9,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_CHUNKS = {
    .name = "--chunks",
    .arg = "V",
    .key = "chunks",
    .group = G_PIPE,
    .help = "model chunks per stage (interleaved schedule; default 1); may be a sweep",
    .min = 1,
    .max = 1e4,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
/* The simulator's flags: small enough that a timeline stays printable. */
static const chalk_flag F_SIM_STAGES = {
    .name = "--stages",
    .arg = "P",
    .key = "stages",
    .group = G_PIPE,
    .help = "pipeline stages (1 to 64)",
    .min = 1,
    .max = 64,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_SIM_MICROBATCHES = {
    .name = "--microbatches",
    .arg = "M",
    .key = "microbatches",
    .group = G_PIPE,
    .help = "micro-batches per batch (1 to 256; interleaved: a multiple of --stages)",
    .min = 1,
    .max = 256,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_SIM_CHUNKS = {
    .name = "--chunks",
    .arg = "V",
    .key = "chunks",
    .group = G_PIPE,
    .help = "model chunks per stage: 1 for gpipe and 1f1b (the default), 2 to 8 for interleaved",
    .min = 1,
    .max = 8,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_SCHEDULE = {
    .name = "--schedule",
    .arg = "S",
    .key = "schedule",
    .group = G_PIPE,
    .help = "gpipe|1f1b|interleaved",
};
static const chalk_flag F_FORWARD = {
    .name = "--forward-s",
    .arg = "X",
    .key = "forward_s",
    .group = G_PIPE,
    .help = "one micro-batch's forward pass through one stage, seconds (default 1)",
    .min = 0,
    .max = 1e6,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_BACKWARD = {
    .name = "--backward-s",
    .arg = "X",
    .key = "backward_s",
    .group = G_PIPE,
    .help = "its backward pass, seconds (default 2: twice the forward's work)",
    .min = 0,
    .max = 1e6,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_RATIO = {
    .name = "--bandwidth-ratio",
    .arg = "R",
    .key = "bandwidth_ratio",
    .group = G_PIPE,
    .help = "scale-up over scale-out bandwidth per GPU (the lecture's 8); or --hw NAME",
    .min = 0,
    .max = 1e6,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_TOP_K = {
    .name = "--top-k",
    .arg = "K",
    .key = "top_k",
    .group = G_PIPE,
    .help = "routed experts each token visits per layer (default: the --model's); may be a "
            "sweep",
    .min = 1,
    .max = 4096,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_LAYERS = {
    .name = "--layers-per-stage",
    .arg = "L",
    .key = "layers_per_stage",
    .group = G_PIPE,
    .help = "MoE layers in one stage (rack); may be a sweep",
    .min = 1,
    .max = 1e4,
    .rules = CHALK_WHOLE | CHALK_SWEEPS,
};
static const chalk_flag F_BISECTION = {
    .name = "--bisection-bytes-per-s",
    .arg = "X",
    .key = "bisection_bytes_per_s",
    .group = G_PIPE,
    .help = "what crosses the --hw domain's narrowest cut into halves, one way (a torus); "
            "0: switched",
    .min = 0,
    .max = 1e18,
};
static const chalk_flag F_TOKENS = {
    .name = "--tokens",
    .arg = "T",
    .key = "tokens",
    .group = G_PIPE,
    .help = "tokens in one step through the stage, for the two times",
    .min = 0,
    .max = 1e9,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_D_MODEL = {
    .name = "--d-model",
    .arg = "D",
    .key = "d_model",
    .group = G_PIPE,
    .help = "width of the residual stream (default: the --model's)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_ACT_BYTES = {
    .name = "--act-bytes",
    .arg = "X",
    .key = "activation_bytes",
    .group = G_PIPE,
    .help = "bytes per activation element (default 2, bf16)",
    .min = 0,
    .max = 64,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_EXPERT_PARALLEL = {
    .name = "--expert-parallel",
    .arg = "E",
    .key = "expert_parallel",
    .group = G_PIPE,
    .help = "GPUs per stage sharing the weights and KV cache (default: the --hw's scale-up "
            "domain)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_MICROBATCH = {
    .name = "--microbatch",
    .arg = "B",
    .key = "microbatch",
    .group = G_PIPE,
    .help = "sequences per micro-batch; may be a sweep",
    .min = 0,
    .max = 1e9,
    .rules = CHALK_ABOVE_MIN | CHALK_SWEEPS,
};
static const chalk_flag F_MEM_MICROBATCHES = {
    .name = "--microbatches",
    .arg = "M",
    .key = "microbatches",
    .group = G_PIPE,
    .help = "micro-batches in flight (default: --stages, a decode loop without hops)",
    .min = 1,
    .max = 1e6,
    .rules = CHALK_WHOLE,
};
static const chalk_flag F_HOP = {
    .name = "--hop-s",
    .arg = "X",
    .key = "hop_s",
    .group = G_PIPE,
    .help = "latency of one hop between racks, seconds (>= 0); may be a sweep",
    .min = 0,
    .max = 10,
    .rules = CHALK_SWEEPS,
};
static const chalk_flag F_STEP = {
    .name = "--step-s",
    .arg = "X",
    .key = "step_without_hops_s",
    .group = G_PIPE,
    .help = "the decode step on one rack, seconds, instead of a model and hardware",
    .min = 0,
    .max = 1e3,
    .rules = CHALK_ABOVE_MIN,
};
static const chalk_flag F_VERSUS = {
    .name = "--versus",
    .arg = "NAME",
    .key = "versus_hw",
    .group = G_PIPE,
    .help = "a second hardware preset to compare the domain with (chalk list hw)",
};

/* ---- shared plumbing ------------------------------------------------------------------------- */

enum { TEXT_CHARS = 40 };

static void human(char *buf, chalk_unit unit, double x)
{
    chalk_human(buf, TEXT_CHARS, unit, x);
}

/* Frees every sweep of a NULL-terminated list. */
static void free_sweeps(chalk_sweep *const *sweeps)
{
    for (; *sweeps; sweeps++)
        chalk_sweep_free(*sweeps);
}

/* Reads each flag's sweep into its place, then checks that at most one varies.
 * Frees them all on failure. The lists end with NULL. */
static int read_sweeps(const chalk_args *a, const chalk_flag *const *flags,
                       chalk_sweep *const *sweeps, const chalk_sweep **swept)
{
    int n = 0, status = CHALK_OK;
    for (; flags[n] && !status; n++)
        status = chalk_sweep_read(a, flags[n], sweeps[n]);
    if (!status)
        status = chalk_one_sweep(sweeps, n, swept);
    if (status)
        free_sweeps(sweeps);
    return status;
}

static long rows_of(const chalk_sweep *swept)
{
    return swept ? swept->points : 1;
}

/* Prints the report, then frees the sweeps. */
static int emit_and_free(const chalk_args *a, const chalk_report *rep, chalk_sweep *const *sweeps)
{
    int status = chalk_emit(a, rep);
    free_sweeps(sweeps);
    return status;
}

static int whole(double x)
{
    return (int)x; /* the flags' ranges keep every whole number inside an int */
}

/* ---- rack-hop ------------------------------------------------------------------------------- */

typedef struct hop_setup {
    chalk_deploy d;
    chalk_sweep top_k, layers;
    const chalk_sweep *swept;
    double ratio;   /* the all-to-all's rate over scale-out bandwidth */
    bool has_bisection;
    double bisection, alltoall; /* --bisection-bytes-per-s; the all-to-all's rate */
    bool has_times; /* --tokens given: the two times can be computed */
    double tokens, d_model, activation_bytes;
} hop_setup;

static void build_hop(const void *ctx, long row, chalk_record *r)
{
    const hop_setup *s = ctx;
    int top_k = whole(chalk_sweep_at(&s->top_k, row));
    chalk_clear(r);
    if (s->d.model)
        chalk_put_string(r, "model", "model", CHALK_INPUT, s->d.model->name);
    chalk_put_hw_name(r, s->d.hw);
    if (s->d.hw) {
        chalk_put_number(r, "scaleup_bytes_per_s", "scale-up, one way", CHALK_U_BYTES_PER_S,
                         CHALK_INPUT, s->d.hw->scaleup_bytes_per_s);
        chalk_put_number(r, "scaleout_bytes_per_s", "scale-out, one way", CHALK_U_BYTES_PER_S,
                         CHALK_INPUT, s->d.hw->scaleout_bytes_per_s);
    }
    if (s->has_bisection) {
        chalk_put_number(r, "bisection_bytes_per_s", "bisection, one way", CHALK_U_BYTES_PER_S,
                         CHALK_INPUT, s->bisection);
        chalk_put_number(r, "chips", "chips in the all-to-all", CHALK_U_COUNT, CHALK_INPUT,
                         s->d.chips);
        chalk_put_number(r, "alltoall_bytes_per_s", "all-to-all rate per chip",
                         CHALK_U_BYTES_PER_S, 0, s->alltoall);
    }
    chalk_put_number(r, "bandwidth_ratio", "bandwidth gap (up / out)", CHALK_U_PLAIN,
                     s->has_bisection ? 0 : CHALK_INPUT, s->ratio);
    chalk_put_number(r, "top_k", "experts per token", CHALK_U_COUNT, CHALK_INPUT, top_k);
    chalk_put_maybe(r, "layers_per_stage", "layers per stage", CHALK_U_COUNT, CHALK_INPUT,
                    s->layers.given, chalk_sweep_at(&s->layers, row));

    bool has_layers = s->layers.given;
    int layers = has_layers ? whole(chalk_sweep_at(&s->layers, row)) : 1;
    double hop_ratio = pipelining_hop_ratio(s->ratio, top_k, layers);
    const char *no_layers = "no --layers-per-stage given: pass --layers-per-stage L";
    chalk_put_result(r, "scale_up_over_scale_out", "scale-up time / scale-out time", CHALK_U_RATIO,
                     0, has_layers, hop_ratio, no_layers);
    chalk_put_bool_result(r, "hop_hidden", "hop hidden (ratio >= 1)", 0, has_layers,
                          hop_ratio >= 1.0, no_layers);
    chalk_put_number(r, "min_layers_per_stage", "fewest layers per stage", CHALK_U_COUNT, 0,
                     pipelining_min_layers_per_stage(s->ratio, top_k));

    pipelining_hop h = {
        .tokens = s->tokens,
        .d_model = s->d_model,
        .activation_bytes = s->activation_bytes,
        .experts_per_token = top_k,
        .layers_per_stage = layers,
        .chips = s->d.chips,
        .scaleup_bytes_per_s = s->d.hw ? s->alltoall : 0.0,
        .scaleout_bytes_per_s = s->d.hw ? s->d.hw->scaleout_bytes_per_s : 0.0,
    };
    bool times = s->has_times && has_layers;
    const char *why =
        !s->has_times ? "no --tokens given: pass --tokens T for the two times" : no_layers;
    if (times) {
        chalk_put_number(r, "tokens", "tokens", CHALK_U_TOKENS, CHALK_INPUT, s->tokens);
        chalk_put_number(r, "d_model", "d_model", CHALK_U_COUNT, CHALK_INPUT, s->d_model);
        chalk_put_number(r, "activation_bytes", "bytes per activation", CHALK_U_PLAIN, CHALK_INPUT,
                         s->activation_bytes);
        if (!s->has_bisection)
            chalk_put_number(r, "chips", "GPUs per stage", CHALK_U_COUNT, CHALK_INPUT, s->d.chips);
    }
    chalk_put_result(r, "scaleup_s", "all-to-all in the rack", CHALK_U_SECONDS, 0, times,
                     times ? pipelining_scaleup_s(&h) : 0.0, why);
    chalk_put_result(r, "scaleout_s", "hop to the next rack", CHALK_U_SECONDS, 0, times,
                     times ? pipelining_scaleout_s(&h) : 0.0, why);
}

/* The gap from --bandwidth-ratio or the preset; the experts per token from --top-k or
 * the model; the width for the times from --d-model or the model. */
static int hop_read(const chalk_args *a, hop_setup *s)
{
    const char *cmd = a->cmd->name;
    bool has_ratio = chalk_given(a, &F_RATIO);
    if (has_ratio && chalk_given(a, &CHALK_F_HW))
        return chalk_fail("%s takes --bandwidth-ratio R or --hw NAME, not both", cmd);
    int status = chalk_number(a, &F_RATIO, &s->ratio);
    if (!status && s->d.hw) {
        if (!(s->d.hw->scaleout_bytes_per_s > 0.0) || !(s->d.hw->scaleup_bytes_per_s > 0.0))
            return chalk_fail("%s has no sourced scale-up and scale-out bandwidth; pass "
                              "--bandwidth-ratio R",
                              s->d.hw->name);
        s->has_bisection = chalk_given(a, &F_BISECTION);
        if ((status = chalk_number(a, &F_BISECTION, &s->bisection)))
            return status;
        /* the all-to-all's rate: the chip's own, or its share of a torus's cut */
        s->alltoall = pipelining_alltoall_bytes_per_s(s->d.hw->scaleup_bytes_per_s,
                                                      s->bisection, s->d.chips);
        s->ratio = s->alltoall / s->d.hw->scaleout_bytes_per_s;
    } else if (!status && !has_ratio) {
        return chalk_fail("%s needs --bandwidth-ratio R (or --hw NAME)", cmd);
    }
    if (status)
        return status;
    if (!s->d.hw && chalk_given(a, &F_BISECTION))
        return chalk_fail("%s: --bisection-bytes-per-s needs --hw NAME (its chips' own rate)", cmd);
    const cost_model *m = s->d.model;
    if (!s->top_k.given) {
        if (!m)
            return chalk_fail("%s needs --top-k K (or an MoE --model NAME)", cmd);
        if (m->experts_routed == 0)
            return chalk_fail("%s is dense: it has no experts to route to; pass --top-k K",
                              m->name);
        s->top_k.one = m->experts_active;
    }
    s->has_times = chalk_given(a, &F_TOKENS);
    s->activation_bytes = 2.0;
    s->d_model = m ? m->d_model : 0.0;
    if ((status = chalk_number(a, &F_TOKENS, &s->tokens)) ||
        (status = chalk_number(a, &F_D_MODEL, &s->d_model)) ||
        (status = chalk_number(a, &F_ACT_BYTES, &s->activation_bytes)))
        return status;
    if (s->has_times && !(s->d_model > 0.0))
        return chalk_fail("%s needs --d-model D (or --model NAME) for the times of --tokens", cmd);
    if (s->has_times && !s->d.hw)
        return chalk_fail("%s needs --hw NAME for the times of --tokens (the bandwidths)", cmd);
    return CHALK_OK;
}

static int run_hop(const chalk_args *a)
{
    hop_setup s = {0};
    int status = chalk_deploy_resolve(a, 0, &s.d);
    if (status)
        return status;
    chalk_sweep *const sweeps[] = {&s.top_k, &s.layers, NULL};
    const chalk_flag *const flags[] = {&F_TOP_K, &F_LAYERS, NULL};
    if ((status = read_sweeps(a, flags, sweeps, &s.swept)))
        return status;
    if ((status = hop_read(a, &s))) {
        free_sweeps(sweeps);
        return status;
    }
    chalk_report rep = {.title =
                            "chalk rack-hop: scale-up time over scale-out time at a stage boundary "
                            "(lecture 3.2)",
                        .rows = rows_of(s.swept),
                        .swept = s.swept,
                        .build = build_hop,
                        .ctx = &s};
    return emit_and_free(a, &rep, sweeps);
}

/* ---- bubble ------------------------------------------------------------------------------------
 */

typedef struct bubble_setup {
    chalk_sweep stages, microbatches, chunks;
    const chalk_sweep *swept;
} bubble_setup;

static void build_bubble(const void *ctx, long row, chalk_record *r)
{
    const bubble_setup *s = ctx;
    int p = whole(chalk_sweep_at(&s->stages, row));
    int m = whole(chalk_sweep_at(&s->microbatches, row));
    int v = s->chunks.given ? whole(chalk_sweep_at(&s->chunks, row)) : 1;
    chalk_clear(r);
    chalk_put_number(r, "stages", "stages", CHALK_U_COUNT, CHALK_INPUT, p);
    chalk_put_number(r, "microbatches", "micro-batches", CHALK_U_COUNT, CHALK_INPUT, m);
    chalk_put_number(r, "chunks", "chunks per stage", CHALK_U_COUNT, CHALK_INPUT, v);
    double fraction = pipelining_bubble_fraction(p, m, v);
    chalk_put_number(r, "bubble_fraction", "idle / total", CHALK_U_FRACTION, 0, fraction);
    chalk_put_number(r, "bubble_over_ideal", "idle / ideal", CHALK_U_RATIO, 0,
                     pipelining_bubble_over_ideal(p, m, v));
    /* the P stages do the work of P(1 - f) stages that never idle */
    chalk_put_number(r, "speedup", "speedup over one stage", CHALK_U_RATIO, 0, p * (1 - fraction));
}

static int run_bubble(const chalk_args *a)
{
    bubble_setup s = {0};
    chalk_sweep *const sweeps[] = {&s.stages, &s.microbatches, &s.chunks, NULL};
    const chalk_flag *const flags[] = {&F_STAGES, &F_MICROBATCHES, &F_CHUNKS, NULL};
    int status = read_sweeps(a, flags, sweeps, &s.swept);
    if (status)
        return status;
    if (!s.stages.given || !s.microbatches.given) {
        free_sweeps(sweeps);
        return chalk_fail("bubble needs --stages P and --microbatches M");
    }
    chalk_report rep = {.title = "chalk bubble: the pipeline bubble in closed form (lecture 3.5)",
                        .rows = rows_of(s.swept),
                        .swept = s.swept,
                        .build = build_bubble,
                        .ctx = &s};
    return emit_and_free(a, &rep, sweeps);
}

/* ---- schedule ---------------------------------------------------------------------------------
 */

static const char *const SCHEDULE_NAMES[] = {"gpipe", "1f1b", "interleaved"};

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
                     s->t.makespan_s - s->t.busy_s);
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

static int schedule_read(const chalk_args *a, pipelining_plan *p)
{
    const char *name = chalk_value(a, &F_SCHEDULE);
    if (!name)
        return chalk_fail("schedule needs --schedule gpipe|1f1b|interleaved");
    size_t n = sizeof SCHEDULE_NAMES / sizeof SCHEDULE_NAMES[0];
    size_t i = 0;
    while (i < n && !cost_name_equal(name, SCHEDULE_NAMES[i]))
        i++;
    if (i == n) {
        char hint[256];
        chalk_suggest(hint, sizeof hint, name, SCHEDULE_NAMES, n);
        return chalk_fail("unknown schedule \"%s\"%s", name, hint);
    }
    double stages = 0, microbatches = 0, chunks = 1, forward = 1, backward = 2;
    int status;
    if ((status = chalk_number(a, &F_SIM_STAGES, &stages)) ||
        (status = chalk_number(a, &F_SIM_MICROBATCHES, &microbatches)) ||
        (status = chalk_number(a, &F_SIM_CHUNKS, &chunks)) ||
        (status = chalk_number(a, &F_FORWARD, &forward)) ||
        (status = chalk_number(a, &F_BACKWARD, &backward)))
        return status;
    if (!(stages >= 1) || !(microbatches >= 1))
        return chalk_fail("schedule needs --stages P and --microbatches M");
    *p = (pipelining_plan){.schedule = (pipelining_schedule)i,
                           .stages = whole(stages),
                           .microbatches = whole(microbatches),
                           .chunks = whole(chunks),
                           .forward_s = forward,
                           .backward_s = backward};
    if (p->schedule == PIPELINING_INTERLEAVED && p->chunks < 2)
        return chalk_fail("the interleaved schedule needs --chunks V, 2 to 8 model chunks per "
                          "stage");
    if (p->schedule != PIPELINING_INTERLEAVED && p->chunks != 1)
        return chalk_fail("%s runs one chunk per stage; --chunks V is for --schedule interleaved",
                          SCHEDULE_NAMES[i]);
    if (p->schedule == PIPELINING_INTERLEAVED && p->microbatches % p->stages != 0)
        return chalk_fail("the interleaved schedule runs micro-batches in groups of --stages: "
                          "--microbatches %d is not a multiple of %d",
                          p->microbatches, p->stages);
    return CHALK_OK;
}

static int run_schedule(const chalk_args *a)
{
    schedule_setup s = {0};
    int status = schedule_read(a, &s.plan);
    if (status)
        return status;
    size_t n = (size_t)s.plan.stages * (size_t)pipelining_ops_per_stage(&s.plan);
    s.ops = calloc(n, sizeof *s.ops);
    if (!s.ops)
        return chalk_fail("schedule: out of memory for %zu passes", n);
    if (!pipelining_simulate(&s.plan, s.ops, n, &s.t)) {
        free(s.ops);
        return chalk_fail("schedule: the plan cannot be simulated"); /* checked above */
    }
    bool timeline = a->format == CHALK_CSV;
    chalk_report rep = {
        .title = "chalk schedule: a simulated training batch on a pipeline (lecture 3.5)",
        .rows = timeline ? (long)n : 1,
        .build = timeline ? build_timeline : build_schedule,
        .ctx = &s};
    status = chalk_emit(a, &rep);
    if (!status && a->format == CHALK_TABLE)
        print_gantt(&s);
    free(s.ops);
    return status;
}

/* ---- decode-pipelined ------------------------------------------------------------------------ */

typedef struct loop_setup {
    chalk_deploy d;
    batching_deploy bd;
    bool from_model; /* the one-rack step comes from a model on hardware, not --step-s */
    double step_s;   /* --step-s */
    chalk_sweep stages, hop, batch, context;
    const chalk_sweep *swept;
} loop_setup;

static void build_loop(const void *ctx, long row, chalk_record *r)
{
    const loop_setup *s = ctx;
    int p = whole(chalk_sweep_at(&s->stages, row));
    double hop = chalk_sweep_at(&s->hop, row);
    double batch = chalk_sweep_at(&s->batch, row), context = chalk_sweep_at(&s->context, row);
    chalk_clear(r);
    double step_s = s->step_s;
    batching_step st = {0};
    if (s->from_model) {
        chalk_deploy_echo_head(r, &s->d);
        chalk_put_number(r, "batch", "micro-batch (sequences)", CHALK_U_SEQUENCES, CHALK_INPUT,
                         batch);
        chalk_put_number(r, "context", "context", CHALK_U_TOKENS, CHALK_INPUT, context);
        chalk_deploy_echo_tail(r, &s->d, CHALK_ECHO_FLOPS);
        st = batching_step_at(&s->bd, batch, context);
        step_s = st.step_s;
    }
    chalk_put_number(r, "stages", "stages", CHALK_U_COUNT, CHALK_INPUT, p);
    chalk_put_number(r, "hop_s", "one hop", CHALK_U_SECONDS, CHALK_INPUT, hop);

    /* each stage holds 1/P of the layers: 1/P of every roofline term */
    double stage_s = step_s / p;
    double token_s = pipelining_decode_token_s(p, stage_s, hop);
    int microbatches = pipelining_decode_microbatches(p, stage_s, hop);
    chalk_put_number(r, "step_without_hops_s", "step on one rack", CHALK_U_SECONDS, 0, step_s);
    chalk_put_number(r, "stage_s", "one stage", CHALK_U_SECONDS, 0, stage_s);
    chalk_put_number(r, "hops_s", "hops per token", CHALK_U_SECONDS, 0, token_s - step_s);
    chalk_put_number(r, "step_s", "step with hops", CHALK_U_SECONDS, 0, token_s);
    chalk_put_number(r, "microbatches", "micro-batches to fill the loop", CHALK_U_COUNT, 0,
                     microbatches);
    if (s->from_model) {
        chalk_put_string(r, "bound", "bound (each stage)", 0, cost_bound_name(st.bound));
        chalk_put_number(r, "sequences_in_flight", "sequences in flight", CHALK_U_SEQUENCES, 0,
                         microbatches * batch);
        chalk_put_number(r, "tokens_per_s", "throughput, all racks", CHALK_U_TOKENS_PER_S, 0,
                         microbatches * batch / token_s);
    }
}

static int loop_read(const chalk_args *a, loop_setup *s, chalk_sweep *const *sweeps)
{
    const char *cmd = a->cmd->name;
    s->from_model = !chalk_given(a, &F_STEP);
    int status = chalk_number(a, &F_STEP, &s->step_s);
    if (!status && !s->from_model) {
        const chalk_flag *const model_side[] = {CHALK_MODEL_FLAGS, CHALK_RATE_FLAGS, &CHALK_F_BATCH,
                                                &CHALK_F_CONTEXT};
        for (size_t i = 0; i < sizeof model_side / sizeof model_side[0]; i++)
            if (chalk_given(a, model_side[i]))
                return chalk_fail("%s takes --step-s X or a model on hardware (%s), not both", cmd,
                                  model_side[i]->name);
    }
    if (!status && s->from_model)
        status =
            chalk_deploy_resolve(a, CHALK_NEED_PARAMS | CHALK_NEED_FLOPS | CHALK_NEED_BW, &s->d);
    const chalk_flag *const flags[] = {&F_STAGES, &F_HOP, &CHALK_F_BATCH, &CHALK_F_CONTEXT, NULL};
    if (!status)
        status = read_sweeps(a, flags, sweeps, &s->swept);
    if (status)
        return status;
    if (!s->stages.given || !s->hop.given)
        status = chalk_fail("%s needs --stages P and --hop-s X", cmd);
    else if (s->from_model && (!s->batch.given || !s->context.given))
        status = chalk_fail("%s needs --batch B and --context T (or --step-s X alone)", cmd);
    else if (s->from_model && !s->d.has_kv)
        status = chalk_fail("%s needs --kv-bytes-per-token X (or --model NAME)", cmd);
    if (status) {
        free_sweeps(sweeps);
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
    return CHALK_OK;
}

static int run_loop(const chalk_args *a)
{
    loop_setup s = {0};
    chalk_sweep *const sweeps[] = {&s.stages, &s.hop, &s.batch, &s.context, NULL};
    int status = loop_read(a, &s, sweeps);
    if (status)
        return status;
    chalk_report rep = {.title = "chalk decode-pipelined: a decode step through P racks and P hops "
                                 "(lecture 3.6, 4.3, 4.5)",
                        .rows = rows_of(s.swept),
                        .swept = s.swept,
                        .build = build_loop,
                        .ctx = &s};
    return emit_and_free(a, &rep, sweeps);
}

/* ---- pipeline-memory ------------------------------------------------------------------------- */

typedef struct memory_setup {
    chalk_deploy d;
    double chips;        /* --expert-parallel, or the domain */
    double microbatches; /* --microbatches; 0: as many as stages */
    chalk_sweep stages, microbatch, context;
    const chalk_sweep *swept;
} memory_setup;

static pipelining_memory memory_of(const memory_setup *s, long row)
{
    int p = whole(chalk_sweep_at(&s->stages, row));
    pipelining_memory m = {
        .weight_bytes = s->d.params_total * s->d.bytes_per_param,
        .kv_bytes_per_token = s->d.kv_bytes_per_token,
        .context_tokens = chalk_sweep_at(&s->context, row),
        .microbatch_seqs = chalk_sweep_at(&s->microbatch, row),
        .microbatches = s->microbatches > 0 ? whole(s->microbatches) : p,
        .chips = whole(s->chips),
        .stages = p,
    };
    return m;
}

static void build_memory(const void *ctx, long row, chalk_record *r)
{
    const memory_setup *s = ctx;
    pipelining_memory m = memory_of(s, row);
    const chalk_deploy *d = &s->d;
    chalk_clear(r);
    chalk_field *f =
        chalk_put_string(r, "model", "model", CHALK_INPUT, d->model ? d->model->name : NULL);
    if (!d->model)
        chalk_null_words(r, f, "(from flags)"); /* JSON: null */
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

    bool has_hbm = s->d.has_hbm;
    double hbm = s->d.hbm_bytes;
    const char *no_hbm = "no HBM capacity: pass --hbm-bytes X (or --hw NAME)";
    chalk_put_bool_result(r, "fits_hbm", "fits in HBM", 0, has_hbm, weights + kv <= hbm, no_hbm);
    pipelining_fit fit = {.exists = false};
    const char *why = no_hbm;
    if (has_hbm) {
        fit = pipelining_min_stages_to_fit(&m, hbm);
        char need[TEXT_CHARS], have[TEXT_CHARS];
        pipelining_memory loop = m;
        loop.microbatches = loop.stages = 1; /* with M = P the KV per GPU is this, any P */
        human(need, CHALK_U_BYTES, pipelining_kv_bytes_per_gpu(&loop));
        human(have, CHALK_U_BYTES, hbm);
        why = chalk_fmt(r,
                        "the KV cache alone needs %s per GPU of its %s whatever the stages "
                        "(M = P micro-batches in flight)",
                        need, have);
    }
    chalk_put_result(r, "min_stages_to_fit", "fewest stages that fit (M = P)", CHALK_U_COUNT, 0,
                     fit.exists, fit.stages, why);
}

static int memory_read(const chalk_args *a, memory_setup *s, chalk_sweep *const *sweeps)
{
    const char *cmd = a->cmd->name;
    int status = chalk_deploy_resolve(a, CHALK_NEED_PARAMS, &s->d);
    const chalk_flag *const flags[] = {&F_STAGES, &F_MICROBATCH, &CHALK_F_CONTEXT, NULL};
    if (!status)
        status = read_sweeps(a, flags, sweeps, &s->swept);
    if (status)
        return status;
    s->chips = s->d.hw ? s->d.hw->scaleup_domain_chips : 0;
    if ((status = chalk_number(a, &F_EXPERT_PARALLEL, &s->chips)) ||
        (status = chalk_number(a, &F_MEM_MICROBATCHES, &s->microbatches)))
        ;
    else if (!(s->chips >= 1))
        status = chalk_fail("%s needs --expert-parallel E (or --hw NAME for its domain)", cmd);
    else if (!s->stages.given || !s->microbatch.given || !s->context.given)
        status = chalk_fail("%s needs --stages P, --microbatch B and --context T", cmd);
    else if (!s->d.has_kv)
        status = chalk_fail("%s needs --kv-bytes-per-token X (or --model NAME)", cmd);
    if (status)
        free_sweeps(sweeps);
    return status;
}

static int run_memory(const chalk_args *a)
{
    memory_setup s = {0};
    chalk_sweep *const sweeps[] = {&s.stages, &s.microbatch, &s.context, NULL};
    int status = memory_read(a, &s, sweeps);
    if (status)
        return status;
    chalk_report rep = {.title =
                            "chalk pipeline-memory: weights and KV cache per GPU (lecture 4.2-4.4)",
                        .rows = rows_of(s.swept),
                        .swept = s.swept,
                        .build = build_memory,
                        .ctx = &s};
    return emit_and_free(a, &rep, sweeps);
}

/* ---- weight-read -------------------------------------------------------------------------------
 */

typedef struct read_setup {
    chalk_deploy d;
    const cost_hw *versus;
    chalk_sweep stages;
    const chalk_sweep *swept;
} read_setup;

/* The weight read of `chips` GPUs of `hw`: chapter 1's weight term. */
static double weight_read_s(const chalk_deploy *d, int chips, double bytes_per_s)
{
    batching_deploy bd = {.params_total = d->params_total,
                          .bytes_per_param = d->bytes_per_param,
                          .chips = chips,
                          .hbm_bytes_per_s = bytes_per_s};
    return batching_weights_s(&bd);
}

static void build_read(const void *ctx, long row, chalk_record *r)
{
    const read_setup *s = ctx;
    const chalk_deploy *d = &s->d;
    int p = whole(chalk_sweep_at(&s->stages, row));
    chalk_clear(r);
    chalk_deploy_echo_head(r, d);
    chalk_put_number(r, "stages", "stages", CHALK_U_COUNT, CHALK_INPUT, p);
    chalk_deploy_echo_tail(r, d, CHALK_ECHO_HBM);
    const cost_hw *v = s->versus;
    if (v) {
        chalk_field *f = chalk_put_string(r, "versus_hw", "versus", CHALK_INPUT, v->name);
        chalk_note(r, f, "%s", v->title);
    }
    double weight_bytes = d->params_total * d->bytes_per_param;
    double read_s = weight_read_s(d, d->chips, d->hbm_bytes_per_s);
    pipelining_memory m = {.weight_bytes = weight_bytes, .chips = d->chips, .stages = p};
    chalk_put_number(r, "weight_bytes", "weights", CHALK_U_BYTES, 0, weight_bytes);
    chalk_put_number(r, "domain_hbm_bytes_per_s", "HBM bandwidth of the domain",
                     CHALK_U_BYTES_PER_S, 0, d->chips * d->hbm_bytes_per_s);
    chalk_put_maybe(r, "domain_hbm_bytes", "HBM of the domain", CHALK_U_BYTES, 0, d->has_hbm,
                    d->chips * d->hbm_bytes);
    chalk_put_number(r, "weight_read_s", "weight read per token", CHALK_U_SECONDS, 0, read_s);
    chalk_put_number(r, "stage_weight_read_s", "weight read per stage", CHALK_U_SECONDS, 0,
                     read_s / p);
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

static int run_read(const chalk_args *a)
{
    read_setup s = {0};
    int status = chalk_deploy_resolve(a, CHALK_NEED_PARAMS | CHALK_NEED_BW, &s.d);
    if (status)
        return status;
    const char *versus = chalk_value(a, &F_VERSUS);
    if (versus && !(s.versus = cost_hw_find(versus)))
        return chalk_unknown_hw(versus);
    if (versus && !s.d.hw)
        return chalk_fail("weight-read: --versus compares with --hw NAME; pass both");
    chalk_sweep *const sweeps[] = {&s.stages, NULL};
    const chalk_flag *const flags[] = {&F_STAGES, NULL};
    if ((status = read_sweeps(a, flags, sweeps, &s.swept)))
        return status;
    if (!s.stages.given)
        s.stages.one = 1; /* no pipeline: one stage */
    chalk_report rep = {
        .title = "chalk weight-read: the weights read once per token by one scale-up domain "
                 "(lecture 4.6)",
        .rows = rows_of(s.swept),
        .swept = s.swept,
        .build = build_read,
        .ctx = &s};
    return emit_and_free(a, &rep, sweeps);
}

/* ---- the commands -------------------------------------------------------------------------- */

static const chalk_flag *const HOP_FLAGS[] = {
    &CHALK_F_MODEL, &CHALK_F_HW, &CHALK_F_CHIPS, &F_RATIO,   &F_BISECTION, &F_TOP_K,
    &F_LAYERS,      &F_TOKENS,   &F_D_MODEL,     &F_ACT_BYTES, NULL};
static const chalk_flag *const BUBBLE_FLAGS[] = {&F_STAGES, &F_MICROBATCHES, &F_CHUNKS, NULL};
static const chalk_flag *const SCHEDULE_FLAGS[] = {
    &F_SIM_STAGES, &F_SIM_MICROBATCHES, &F_SCHEDULE, &F_SIM_CHUNKS, &F_FORWARD, &F_BACKWARD, NULL};
static const chalk_flag *const LOOP_FLAGS[] = {
    CHALK_MODEL_FLAGS, CHALK_RATE_FLAGS, &CHALK_F_BATCH, &CHALK_F_CONTEXT,
    &F_STAGES,         &F_HOP,           &F_STEP,        NULL};
static const chalk_flag *const MEMORY_FLAGS[] = {
    CHALK_MODEL_FLAGS,  &CHALK_F_HW,      &CHALK_F_HBM_BYTES,
    &F_EXPERT_PARALLEL, &F_STAGES,        &F_MEM_MICROBATCHES,
    &F_MICROBATCH,      &CHALK_F_CONTEXT, NULL};
static const chalk_flag *const READ_FLAGS[] = {
    CHALK_MODEL_FLAGS,  &CHALK_F_HW, &CHALK_F_CHIPS, &CHALK_F_HBM_BPS,
    &CHALK_F_HBM_BYTES, &F_STAGES,   &F_VERSUS,      NULL};

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

/* pipeline-split lives in 03-pipelining-split.c. */
int chalk_03_run_split(const chalk_args *a);
extern const chalk_flag *const CHALK_03_SPLIT_FLAGS[];
extern const char *const CHALK_03_SPLIT_ABOUT[];
extern const char *const CHALK_03_SPLIT_EXAMPLES[];

static const chalk_command COMMANDS[] = {
    {"rack-hop", "[flags]", "scale-up time over scale-out time at a stage boundary (3.2)",
     HOP_FLAGS, ABOUT_HOP, EXAMPLES_HOP, run_hop},
    {"bubble", "[flags]", "the pipeline bubble in closed form, both conventions (3.5)",
     BUBBLE_FLAGS, ABOUT_BUBBLE, EXAMPLES_BUBBLE, run_bubble},
    {"schedule", "[flags]", "simulate GPipe, 1F1B or interleaved; the timeline (3.5)",
     SCHEDULE_FLAGS, ABOUT_SCHEDULE, EXAMPLES_SCHEDULE, run_schedule},
    {"decode-pipelined", "[flags]", "a decode step through P racks with hops (3.6, 4.3, 4.5)",
     LOOP_FLAGS, ABOUT_LOOP, EXAMPLES_LOOP, run_loop},
    {"pipeline-memory", "[flags]", "weights and KV cache per GPU against the stages (4.2-4.4)",
     MEMORY_FLAGS, ABOUT_MEMORY, EXAMPLES_MEMORY, run_memory},
    {"weight-read", "[flags]", "the weight read of a scale-up domain; stages add none (4.6)",
     READ_FLAGS, ABOUT_READ, EXAMPLES_READ, run_read},
    {"pipeline-split", "[flags]", "the fewest racks that serve a model in decode (3.7)",
     CHALK_03_SPLIT_FLAGS, CHALK_03_SPLIT_ABOUT, CHALK_03_SPLIT_EXAMPLES, chalk_03_run_split},
};

const chalk_chapter chalk_chapter_03_pipelining = {
    .number = 3,
    .title = "pipelining: capacity, not speed",
    .commands = COMMANDS,
    .count = sizeof COMMANDS / sizeof COMMANDS[0],
};
