/*
 * batching.c -- Chapter 1 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests run
 * and fail. Replace each body with your own code; the contract (what to
 * compute, units, preconditions, ties and no-answer rules) is batching.h
 * beside this file, and each TODO names the section of the book (chapter
 * 1 of chalk.pdf) that derives it.
 *
 *   make check CH=01     run the chapter's tests against this file
 *   make hint CH=01      one more hint for the first failing exercise
 */
#include "batching.h"

#include <limits.h>
#include <math.h>

/* ---- Exercise 1.1 (*) roofline_terms --------------------------------- */

double batching_compute_s(const batching_deploy *d, double batch)
{
    /* TODO §1.2 (The roofline of one decode step): every token's
     * multiply-accumulates, shared by all chips. */
    (void)d;
    (void)batch;
    return 0.0;
}

double batching_weights_s(const batching_deploy *d)
{
    /* TODO §1.2 (The roofline of one decode step): every weight's bytes,
     * read once, over all chips' bandwidth. */
    (void)d;
    return 0.0;
}

double batching_kv_s(const batching_deploy *d, double batch,
                     double context_tokens)
{
    /* TODO §1.2 (The roofline of one decode step): each sequence reads
     * its whole context's KV cache. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

/* ---- Exercise 1.2 (*) step_time -------------------------------------- */

batching_step batching_step_at(const batching_deploy *d, double batch,
                               double context_tokens)
{
    /* TODO §1.3 (Latency against batch), on the roofline of
     * §1.2 (The roofline of one decode step): fill every field. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    batching_step s = {0};
    return s;
}

double batching_latency_floor_s(const batching_deploy *d)
{
    /* TODO §1.3 (Latency against batch): what is left of the step when
     * the batch shrinks to nothing? */
    (void)d;
    return 0.0;
}

/* ---- Exercise 1.3 (**) experts_fetched ------------------------------- */

double batching_params_fetched(const batching_deploy *d, double batch)
{
    /* TODO §1.3 (Latency against batch): the weights every step reads,
     * and the routed experts at least one token of the batch picks. */
    (void)d;
    (void)batch;
    return 0.0;
}

long batching_all_experts_batch(const batching_deploy *d, double idle_share)
{
    /* TODO §1.3 (Latency against batch): the first batch whose expected
     * idle share of routed experts is at most idle_share. */
    (void)d;
    (void)idle_share;
    return 0;
}

/* ---- Exercise 1.4 (*) throughput_cost -------------------------------- */

double batching_tokens_per_s(const batching_deploy *d, double batch,
                             double context_tokens)
{
    /* TODO §1.4 (Cost against batch): one token per sequence per
     * step. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

double batching_usd_per_mtok(const batching_deploy *d, double batch,
                             double context_tokens)
{
    /* TODO §1.4 (Cost against batch): the rent of all chips for a step,
     * over the tokens the step makes. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

/* ---- Exercise 1.5 (*) hardware_ratio --------------------------------- */

double batching_hw_ratio(double flops_per_s, double hbm_bytes_per_s,
                         double bytes_per_param)
{
    /* TODO §1.5 (The balance batch): multiplies per weight fetched. */
    (void)flops_per_s;
    (void)hbm_bytes_per_s;
    (void)bytes_per_param;
    return 0.0;
}

double batching_balance_batch_approx(double hw_ratio, double sparsity)
{
    /* TODO §1.5 (The balance batch): the balance batch without the KV
     * term. */
    (void)hw_ratio;
    (void)sparsity;
    return 0.0;
}

/* ---- Exercise 1.6 (**) balance_batch --------------------------------- */

batching_balance batching_balance_batch(const batching_deploy *d,
                                        double context_tokens)
{
    /* TODO §1.5.1 (With the KV term: when there is no balance batch):
     * where compute catches up with memory, and when it never does. */
    (void)d;
    (void)context_tokens;
    batching_balance b = {0};
    return b;
}

double batching_max_balanced_context_tokens(const batching_deploy *d)
{
    /* TODO §1.5.1 (With the KV term: when there is no balance batch):
     * the context at which one sequence's KV fetch takes as long as its
     * arithmetic. */
    (void)d;
    return 0.0;
}

/* ---- Exercise 1.7 (*) train_departures ------------------------------- */

batching_departures batching_train_departures(double hbm_bytes,
                                              double hbm_bytes_per_s)
{
    /* TODO §1.6 (Train departures): a step is one full read of HBM;
     * trains leave every step. */
    (void)hbm_bytes;
    (void)hbm_bytes_per_s;
    batching_departures t = {0};
    return t;
}

/* ---- Exercise 1.8 (**) batch_limits ---------------------------------- */

batching_limit batching_max_batch_hbm(const batching_deploy *d,
                                      double context_tokens)
{
    /* TODO §1.6 (Train departures): the weights and every sequence's
     * cache must fit in all chips' HBM. */
    (void)d;
    (void)context_tokens;
    batching_limit l = {0};
    return l;
}

batching_limit batching_max_batch_latency(const batching_deploy *d,
                                          double context_tokens,
                                          double target_step_s)
{
    /* TODO §1.6 (Train departures): the largest whole batch whose step
     * meets the target. */
    (void)d;
    (void)context_tokens;
    (void)target_step_s;
    batching_limit l = {0};
    return l;
}

/* ---- Exercise 1.9 (***) fast_mode ------------------------------------ */

batching_fast batching_fast_mode(const batching_deploy *d,
                                 double context_tokens, double normal_batch,
                                 double speedup)
{
    /* TODO §1.9 (Fast mode): the largest batch whose step is that much
     * shorter, and what its tokens cost against the normal ones. */
    (void)d;
    (void)context_tokens;
    (void)normal_batch;
    (void)speedup;
    batching_fast f = {0};
    return f;
}

/* ---- Exercise 1.10 (***) cheapest ------------------------------------ */

batching_plan batching_cheapest(const batching_deploy *model,
                                double context_tokens, double target_step_s,
                                const batching_offer *offers, int count)
{
    /* TODO §1.10 (The cheapest deployment for a latency target): design
     * the search; the contract gives its rules. */
    (void)model;
    (void)context_tokens;
    (void)target_step_s;
    (void)offers;
    (void)count;
    batching_plan p = {0};
    return p;
}

/* ---- Exercise 1.11 (**) max_sparsity --------------------------------- */

batching_sparsity batching_max_sparsity(const batching_deploy *d,
                                        double context_tokens)
{
    /* TODO §1.8 (How far can sparsity go?): the largest sparsity served at
     * its balance batch of §1.5.1 (With the KV term) within the HBM of
     * §1.6 (Train departures). */
    (void)d;
    (void)context_tokens;
    batching_sparsity s = {0};
    return s;
}
