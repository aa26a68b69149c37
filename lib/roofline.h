/*
 * roofline.h -- the roofline primitive.
 *
 * A kernel that does `flops` of arithmetic and moves `bytes` through memory takes at
 * least
 *
 *     time = max(flops / peak_flops_per_s, bytes / bytes_per_s)
 *
 * seconds: the two engines work in parallel, and whichever is slower sets the pace.
 * It is a lower bound; real kernels reach a fraction of it.
 */
#ifndef COST_ROOFLINE_H
#define COST_ROOFLINE_H

#include <stdbool.h>

/* Which engine a roofline time is set by. */
typedef enum cost_bound {
    COST_BOUND_COMPUTE,
    COST_BOUND_MEMORY,
} cost_bound;

/* "compute" or "memory". */
const char *cost_bound_name(cost_bound bound);

/* Seconds to do `flops` at `flops_per_s`. Preconditions: flops >= 0, rate > 0. */
double cost_compute_s(double flops, double flops_per_s);

/* Seconds to move `bytes` at `bytes_per_s`. Preconditions: bytes >= 0, rate > 0. */
double cost_transfer_s(double bytes, double bytes_per_s);

/* The roofline lower bound, max(compute, transfer), in seconds. */
double cost_roofline_s(double flops, double flops_per_s, double bytes, double bytes_per_s);

/* Arithmetic intensity a kernel needs to be compute-bound: FLOPs per byte at the
 * ridge point, peak_flops_per_s / bytes_per_s. */
double cost_ridge_flops_per_byte(double flops_per_s, double bytes_per_s);

/* COST_BOUND_COMPUTE when compute_s >= memory_s (a tie counts as compute-bound:
 * the machine is balanced and the arithmetic is fully used). */
cost_bound cost_bound_of(double compute_s, double memory_s);

#endif /* COST_ROOFLINE_H */
