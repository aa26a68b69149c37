/*
 * 02-moe-routing.c -- chapter 2's commands on routing and the scale-up domain
 * (02-moe.c holds the chapter's table, its commands on a layer laid out across a
 * rack, and the lecture's quantities with the command for each):
 *
 *   chalk moe-imbalance    random routing: the busiest expert, drops (2.7)
 *   chalk domain           what a scale-up domain holds; the largest model (2.8)
 *   chalk routed-scaling   the routed scaling law, "64x for 4x" (2.9)
 */
#include <math.h>
#include <stdio.h>

#include "02-moe.h"
#include "batching.h"

#define G_SIM "simulation"
#define WORKLOAD "workload"
#define G_MOE "mixture of experts"
#define WHOLE CHALK_WHOLE
#define U(x) CHALK_U_##x

/* clang-format off */
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

static const chalk_input IMBALANCE[] = {{&CHALK_F_MODEL}, {&F_EXPERTS, CHALK_WHOLE, 0, 1e6}, {&F_TOP_K},
                                        {&F_TOKENS, REQ | SWEEPS}, {&F_SEED, 0, 1},
                                        {&F_TRIALS, 0, 100}, {&F_CAPACITY, 0, 1.25}, {NULL}};
static const chalk_input DOMAIN[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS, {&CHALK_F_HBM_BYTES},
                                     {&CHALK_F_CONTEXT, SWEEPS}, {NULL}};
static const chalk_input SCALING[] = {
    {&CHALK_F_PARAMS_ACTIVE, REQ},
    {&F_EXPERTS, REQ | SWEEPS, .help = "routed experts per layer (>= 1); may be a sweep"},
    {&F_ACTIVE_RATIO, 0, 0.5}, {NULL}};

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

const chalk_command moe_imbalance_cmd = {
    .name = "moe-imbalance",
    .summary = "random routing: the busiest expert and dropped tokens (2.7)",
    .title = "chalk moe-imbalance: random routing, the busiest expert (lecture 2.2; ch. 2.7)",
    .inputs = IMBALANCE, .check = check_imbalance, .build = build_imbalance,
    .about = ABOUT_IMBALANCE, .examples = EXAMPLES_IMBALANCE
};
const chalk_command moe_domain_cmd = {
    .name = "domain",
    .summary = "what a scale-up domain holds; the largest model (2.8)",
    .title = "chalk domain: what one scale-up domain holds (lecture 2.4-2.5)",
    .inputs = DOMAIN, .needs = CHALK_NEED_HBM, .check = check_domain, .build = build_domain,
    .about = ABOUT_DOMAIN, .examples = EXAMPLES_DOMAIN
};
const chalk_command moe_routed_scaling_cmd = {
    .name = "routed-scaling",
    .summary = "what experts are worth: the routed scaling law (2.9)",
    .title = "chalk routed-scaling: what experts are worth, \"64x for 4x\" (lecture 1.8)",
    .inputs = SCALING, .build = build_scaling,
    .about = ABOUT_SCALING, .examples = EXAMPLES_SCALING
};
