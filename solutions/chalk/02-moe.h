/*
 * 02-moe.h -- what chapter 2's calculator files share (02-moe.c holds the chapter's
 * table and its commands on a layer laid out across a rack; 02-moe-routing.c those on
 * random routing, the scale-up domain and the routed scaling law).
 */
#ifndef CHALK_02_MOE_H
#define CHALK_02_MOE_H

#include "chalk.h"
#include "moe.h"

/* --experts and --top-k (02-moe.c) */
#define F_EXPERTS moe_flag_experts
#define F_TOP_K moe_flag_top_k
extern const chalk_flag F_EXPERTS, F_TOP_K;

enum { SHORT_CHARS = 40 }; /* a number for humans, in a reason */

/* ---- routing: experts and top-k from flags or the model ---------------------------------- */

static inline double experts_at(const chalk_point *p)
{
    const cost_model *m = chalk_model_at(p);
    return chalk_has(p, &F_EXPERTS) ? chalk_in(p, &F_EXPERTS) : m ? m->experts_routed : 0;
}

static inline double top_k_at(const chalk_point *p)
{
    const cost_model *m = chalk_model_at(p);
    return chalk_has(p, &F_TOP_K) ? chalk_in(p, &F_TOP_K) : m ? m->experts_active : 1;
}

/* Experts (and, when `with_top_k`, top-k) from flags, else from --model; an error
 * when neither says. */
static inline int check_routing(const chalk_point *p, bool with_top_k)
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

/* moe-imbalance, domain, routed-scaling (02-moe-routing.c) */
extern const chalk_command moe_imbalance_cmd, moe_domain_cmd, moe_routed_scaling_cmd;

#endif /* CHALK_02_MOE_H */
