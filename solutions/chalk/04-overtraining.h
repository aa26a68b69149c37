/*
 * 04-overtraining.h -- what chapter 4's calculator files share: the flags (defined in
 * 04-overtraining.c), the lecture's defaults, and small readers of a point.
 * 04-overtraining-life.c holds the commands on a model's life.
 */
#ifndef CHALK_04_OVERTRAINING_H
#define CHALK_04_OVERTRAINING_H

#include "chalk.h"
#include "overtraining.h"

/* The chapter's flags, each a name in this chapter only. */
#define F_FIT ot_flag_fit
#define F_PARAMS ot_flag_params
#define F_TOKENS ot_flag_tokens
#define F_FLOPS ot_flag_flops
#define F_LOSS ot_flag_loss
#define F_MATCH_PARAMS ot_flag_match_params
#define F_MATCH_TOKENS ot_flag_match_tokens
#define F_MATCH_EQUAL_COST ot_flag_match_equal_cost
#define F_INFERENCE_TOKENS ot_flag_inference_tokens
#define F_TOKENS_PER_S ot_flag_tokens_per_s
#define F_DAYS ot_flag_days
#define F_USE_PROBABILITY ot_flag_use_probability
#define F_INFERENCE_EFFICIENCY ot_flag_inference_efficiency
#define F_RL_FLOPS ot_flag_rl_flops
#define F_RL_EFFICIENCY ot_flag_rl_efficiency
#define F_RL_SHARE ot_flag_rl_share
#define F_INFERENCE_SHARE ot_flag_inference_share
#define F_TOKENS_PER_PARAM ot_flag_tokens_per_param
#define F_PRETRAIN_TOKENS ot_flag_pretrain_tokens
#define F_RUN ot_flag_run
#define F_FALLING ot_flag_falling
#define F_RISING ot_flag_rising
extern const chalk_flag F_FIT, F_PARAMS, F_TOKENS, F_FLOPS, F_LOSS, F_MATCH_PARAMS,
    F_MATCH_TOKENS, F_MATCH_EQUAL_COST, F_INFERENCE_TOKENS, F_TOKENS_PER_S, F_DAYS,
    F_USE_PROBABILITY, F_INFERENCE_EFFICIENCY, F_RL_FLOPS, F_RL_EFFICIENCY, F_RL_SHARE,
    F_INFERENCE_SHARE, F_TOKENS_PER_PARAM, F_PRETRAIN_TOKENS, F_RUN, F_FALLING, F_RISING;

/* The flashcards' defaults (lecture notes 5.4, flashcard 18). */
#define DEFAULT_RL_FLOPS_PER_PARAM 3.0
#define DEFAULT_EFFICIENCY (1.0 / 3.0)
#define DEFAULT_SHARE (1.0 / 3.0)
#define CHINCHILLA_TOKENS_PER_PARAM 20.0 /* Hoffmann et al. 2022: 70B on 1.4T tokens */

/* Training FLOPs, 6 N D, from the chapter's cost terms. */
static inline double train_flops(double params, double tokens)
{
    overtraining_plan p = {
        .params_active = params,
        .pretrain_tokens = tokens,
        .factors = {.rl_flops_per_param = 2, .rl_efficiency = 1, .inference_efficiency = 1}};
    return overtraining_cost_terms(&p).pretrain_flops;
}


/* ---- what a point names -------------------------------------------------------------------- */

/* `f` at this point when the command takes it, else `fallback`. */
static inline double in_or(const chalk_point *p, const chalk_flag *f, double fallback)
{
    return chalk_takes(p, f) ? chalk_in(p, f) : fallback;
}

static inline bool has(const chalk_point *p, const chalk_flag *f)
{
    return chalk_takes(p, f) && chalk_has(p, f);
}

/* The fit --fit names, or the default (the first of lib/scaling.c). */
static inline const cost_scaling_fit *fit_at(const chalk_point *p)
{
    size_t n;
    long i = chalk_pick(p, &F_FIT);
    return cost_scaling_fits(&n)[i >= 0 ? i : 0];
}

static inline const cost_training_run *run_at(const chalk_point *p)
{
    size_t n;
    long i = chalk_takes(p, &F_RUN) ? chalk_pick(p, &F_RUN) : -1;
    return i >= 0 ? cost_training_runs(&n)[i] : NULL;
}

static inline const cost_model *model_at(const chalk_point *p)
{
    return chalk_takes(p, &CHALK_F_MODEL) ? chalk_model_at(p) : NULL;
}

/* Active (and total) parameters: --params-active, else --run's, else --model's. */
static inline double params_active_at(const chalk_point *p)
{
    if (has(p, &CHALK_F_PARAMS_ACTIVE))
        return chalk_in(p, &CHALK_F_PARAMS_ACTIVE);
    const cost_training_run *run = run_at(p);
    const cost_model *m = model_at(p);
    return run ? run->params_active : m ? cost_model_params_active(m) : 0.0;
}

static inline double params_total_at(const chalk_point *p)
{
    const cost_training_run *run = run_at(p);
    const cost_model *m = model_at(p);
    return run ? run->params_total : m ? cost_model_params_total(m) : 0.0;
}

static inline void put_fit(chalk_record *r, const cost_scaling_fit *fit)
{
    chalk_put_string(r, "fit", "scaling law", CHALK_INPUT, fit->name);
}

/* Echoes the number given for `f` as an input, under the flag's key. */
static inline void put_input(chalk_record *r, const chalk_point *p, const chalk_flag *f, chalk_unit unit)
{
    if (has(p, f))
        chalk_put_number(r, f->key, f->key, unit, CHALK_INPUT, chalk_in(p, f));
}

/* Why a loss cannot be reached at all. */
static inline const char *unreachable(chalk_record *r, const cost_scaling_fit *fit, double loss)
{
    return chalk_fmt(r,
                     "a loss of %.4g nats is not above the %s fit's irreducible %.4g: no model "
                     "reaches it",
                     loss, fit->name, fit->irreducible);
}

/* The commands of 04-overtraining-life.c. */
extern const chalk_command overtraining_iso_loss_cmd, overtraining_equal_cost_cmd,
    overtraining_overtrain_cmd, overtraining_lifetime_cmd, overtraining_inference_optimal_cmd;

#endif /* CHALK_04_OVERTRAINING_H */
