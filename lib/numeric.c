/*
 * numeric.c -- bisection, monotone integer search, relative comparison.
 */
#include "numeric.h"

#include <math.h>

#include "base.h"

bool cost_bisect(cost_fn f, const void *ctx, double lo, double hi, double tol_x,
                 double *root)
{
    COST_ASSERT(lo <= hi && tol_x > 0.0 && "need lo <= hi and a positive tolerance");
    double flo = f(lo, ctx), fhi = f(hi, ctx);
    if (flo == 0.0) {
        *root = lo;
        return true;
    }
    if (fhi == 0.0) {
        *root = hi;
        return true;
    }
    if ((flo < 0.0) == (fhi < 0.0))
        return false;
    while (hi - lo > tol_x) {
        double mid = lo + (hi - lo) / 2.0, fmid = f(mid, ctx);
        if (fmid == 0.0) {
            lo = hi = mid;
            break;
        }
        if ((fmid < 0.0) == (flo < 0.0)) {
            lo = mid;
            flo = fmid;
        } else {
            hi = mid;
        }
    }
    *root = lo + (hi - lo) / 2.0;
    return true;
}

long cost_last_true(cost_pred ok, const void *ctx, long lo, long hi)
{
    COST_ASSERT(lo <= hi && "empty range");
    if (!ok(lo, ctx))
        return lo - 1;
    while (lo < hi) { /* invariant: ok(lo) */
        long mid = lo + (hi - lo + 1) / 2;
        if (ok(mid, ctx))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

bool cost_close(double a, double b, double rel_tol)
{
    double scale = fmax(fabs(a), fabs(b));
    return fabs(a - b) <= rel_tol * scale;
}
