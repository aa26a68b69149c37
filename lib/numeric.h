/*
 * numeric.h -- small numeric helpers the chapters share.
 */
#ifndef COST_NUMERIC_H
#define COST_NUMERIC_H

#include <stdbool.h>

/* A function of one variable with caller-supplied context. */
typedef double (*cost_fn)(double x, const void *ctx);

/* Finds x in [lo, hi] with f(x) = 0 by bisection, to within `tol_x`.
 * Precondition: f(lo) and f(hi) have opposite signs (or one is zero).
 * Returns false, leaving *root untouched, when they do not. */
bool cost_bisect(cost_fn f, const void *ctx, double lo, double hi, double tol_x,
                 double *root);

/* A predicate on a positive integer with caller-supplied context. */
typedef bool (*cost_pred)(long n, const void *ctx);

/* The largest n in [lo, hi] with ok(n) true, for a predicate that is true up to
 * some point and false after it (monotone). Returns lo - 1 when ok(lo) is false.
 * Precondition: lo <= hi. */
long cost_last_true(cost_pred ok, const void *ctx, long lo, long hi);

/* |a - b| <= rel_tol * max(|a|, |b|). */
bool cost_close(double a, double b, double rel_tol);

#endif /* COST_NUMERIC_H */
