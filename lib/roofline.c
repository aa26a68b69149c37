/*
 * roofline.c -- time = max(FLOPs / peak, bytes / bandwidth).
 */
#include "roofline.h"

#include "base.h"

const char *cost_bound_name(cost_bound bound)
{
    return bound == COST_BOUND_COMPUTE ? "compute" : "memory";
}

double cost_compute_s(double flops, double flops_per_s)
{
    COST_ASSERT(flops >= 0.0 && flops_per_s > 0.0 && "need flops >= 0, rate > 0");
    return flops / flops_per_s;
}

double cost_transfer_s(double bytes, double bytes_per_s)
{
    COST_ASSERT(bytes >= 0.0 && bytes_per_s > 0.0 && "need bytes >= 0, rate > 0");
    return bytes / bytes_per_s;
}

double cost_roofline_s(double flops, double flops_per_s, double bytes, double bytes_per_s)
{
    double c = cost_compute_s(flops, flops_per_s);
    double m = cost_transfer_s(bytes, bytes_per_s);
    return c > m ? c : m;
}

double cost_ridge_flops_per_byte(double flops_per_s, double bytes_per_s)
{
    COST_ASSERT(flops_per_s > 0.0 && bytes_per_s > 0.0 && "rates must be positive");
    return flops_per_s / bytes_per_s;
}

cost_bound cost_bound_of(double compute_s, double memory_s)
{
    return compute_s >= memory_s ? COST_BOUND_COMPUTE : COST_BOUND_MEMORY;
}
