/*
 * batching.c -- Chapter 1 exercises: YOUR implementation.
 *
 * Each function below compiles and returns a placeholder, so the tests run
 * and fail. Replace each body with the formula from
 * chapters/01-batching.md; the contract (units, preconditions) is in
 * batching.h beside this file.
 *
 *   make check CH=01     run the chapter's tests against this file
 *   make hint CH=01      show the next hint for the first failing exercise
 */
#include "batching.h"

#include <math.h>

/* ---- Exercise 1.1 (*) roofline_terms --------------------------------- */

double batching_compute_s(const batching_deploy *d, double batch)
{
    /* TODO(ch1 §1.2): batch * 2 * N_active FLOPs, shared by all chips. */
    (void)d;
    (void)batch;
    return 0.0;
}

double batching_weights_s(const batching_deploy *d)
{
    /* TODO(ch1 §1.2): every weight's bytes, read once, over all chips'
     * bandwidth. */
    (void)d;
    return 0.0;
}

double batching_kv_s(const batching_deploy *d, double batch,
                     double context_tokens)
{
    /* TODO(ch1 §1.2): each sequence reads its whole context's KV cache. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

/* ---- Exercise 1.2 (*) step_time -------------------------------------- */

batching_step batching_step_at(const batching_deploy *d, double batch,
                               double context_tokens)
{
    /* TODO(ch1 §1.3): fill every field; step = max(compute, memory). */
    (void)d;
    (void)batch;
    (void)context_tokens;
    batching_step s = {0};
    return s;
}

double batching_latency_floor_s(const batching_deploy *d)
{
    /* TODO(ch1 §1.3): what is left of the step when the batch shrinks to
     * zero? */
    (void)d;
    return 0.0;
}

/* ---- Exercise 1.3 (**) experts_fetched ------------------------------- */

double batching_params_fetched(const batching_deploy *d, double batch)
{
    /* TODO(ch1 §1.3): N_total less the routed weights no token of the batch
     * wants. */
    (void)d;
    (void)batch;
    return 0.0;
}

long batching_all_experts_batch(const batching_deploy *d, double idle_share)
{
    /* TODO(ch1 §1.3): the first batch with (1 - k/E)^batch <= share. */
    (void)d;
    (void)idle_share;
    return 0;
}

/* ---- Exercise 1.4 (*) throughput_cost -------------------------------- */

double batching_tokens_per_s(const batching_deploy *d, double batch,
                             double context_tokens)
{
    /* TODO(ch1 §1.7): one token per sequence per step. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

double batching_usd_per_mtok(const batching_deploy *d, double batch,
                             double context_tokens)
{
    /* TODO(ch1 §1.4): rent of all chips for a step / tokens it makes. */
    (void)d;
    (void)batch;
    (void)context_tokens;
    return 0.0;
}

/* ---- Exercise 1.5 (*) hardware_ratio --------------------------------- */

double batching_hw_ratio(double flops_per_s, double hbm_bytes_per_s,
                         double bytes_per_param)
{
    /* TODO(ch1 §1.5): multiplies per second x bytes per weight / bytes per
     * second. */
    (void)flops_per_s;
    (void)hbm_bytes_per_s;
    (void)bytes_per_param;
    return 0.0;
}

double batching_balance_batch_approx(double hw_ratio, double sparsity)
{
    /* TODO(ch1 §1.5): the lecture's "300 x sparsity". */
    (void)hw_ratio;
    (void)sparsity;
    return 0.0;
}

/* ---- Exercise 1.6 (**) balance_batch --------------------------------- */

batching_balance batching_balance_batch(const batching_deploy *d,
                                        double context_tokens)
{
    /* TODO(ch1 §1.5): set compute equal to weights + KV and solve for the
     * batch; say plainly when no batch balances. */
    (void)d;
    (void)context_tokens;
    batching_balance b = {0};
    return b;
}

double batching_max_balanced_context_tokens(const batching_deploy *d)
{
    /* TODO(ch1 §1.5): the context where the KV slope equals the compute
     * slope. */
    (void)d;
    return 0.0;
}

/* ---- Exercise 1.7 (*) train_departures ------------------------------- */

batching_departures batching_train_departures(double hbm_bytes,
                                              double hbm_bytes_per_s)
{
    /* TODO(ch1 §1.6): a step is one full read of HBM; trains leave every
     * step. */
    (void)hbm_bytes;
    (void)hbm_bytes_per_s;
    batching_departures t = {0};
    return t;
}

/* ---- Exercise 1.8 (**) batch_limits ---------------------------------- */

batching_limit batching_max_batch_hbm(const batching_deploy *d,
                                      double context_tokens)
{
    /* TODO(ch1 §1.6): weights + batch x KV caches must fit in all chips'
     * HBM. */
    (void)d;
    (void)context_tokens;
    batching_limit l = {0};
    return l;
}

batching_limit batching_max_batch_latency(const batching_deploy *d,
                                          double context_tokens,
                                          double target_step_s)
{
    /* TODO(ch1 §1.6): both the compute line and the memory line must stay
     * under the target. */
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
    /* TODO(ch1 §1.9): find the batch whose step is normal_step / speedup,
     * then compare cost per token (step / batch) with the normal operating
     * point. */
    (void)d;
    (void)context_tokens;
    (void)normal_batch;
    (void)speedup;
    batching_fast f = {0};
    return f;
}
