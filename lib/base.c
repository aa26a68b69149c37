/*
 * base.c -- the numeric precisions named in base.h.
 */
#include "base.h"

#include <ctype.h>

static const struct {
    const char *name;
    double bytes; /* per element */
} DTYPES[COST_DTYPE_COUNT] = {
    [COST_BF16] = {"bf16", 2.0},
    [COST_FP8] = {"fp8", 1.0},
    [COST_FP4] = {"fp4", 0.5},
    [COST_INT8] = {"int8", 1.0},
};

double cost_dtype_bytes(cost_dtype dtype)
{
    COST_ASSERT(dtype >= 0 && dtype < COST_DTYPE_COUNT && "unknown precision");
    return DTYPES[dtype].bytes;
}

const char *cost_dtype_name(cost_dtype dtype)
{
    COST_ASSERT(dtype >= 0 && dtype < COST_DTYPE_COUNT && "unknown precision");
    return DTYPES[dtype].name;
}

bool cost_dtype_parse(const char *name, cost_dtype *out)
{
    for (int d = 0; d < COST_DTYPE_COUNT; d++) {
        if (cost_name_equal(DTYPES[d].name, name)) {
            *out = (cost_dtype)d;
            return true;
        }
    }
    return false;
}

bool cost_name_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}
