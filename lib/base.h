/*
 * base.h -- units, precisions and the assertion macro shared by the cost library.
 *
 * Every physical quantity in Chalk is an SI double: seconds, bytes, FLOPs (a count),
 * FLOP/s (a rate), bytes/s, USD. Units live in names (`_s`, `_bytes`, `_flops_per_s`,
 * `_bytes_per_s`, `_usd`); conversion to ms, GB or TFLOP/s happens only when printing.
 * GB is 1e9 bytes; GiB is 2^30 bytes and is always named as such.
 *
 * FLOPs are counted as 2 per multiply-accumulate, the way spec sheets count them.
 */
#ifndef COST_BASE_H
#define COST_BASE_H

#include <stdbool.h>

/* ---- units --------------------------------------------------------------- */

#define COST_KB_BYTES 1e3
#define COST_MB_BYTES 1e6
#define COST_GB_BYTES 1e9
#define COST_TB_BYTES 1e12
#define COST_GIB_BYTES 1073741824.0 /* 2^30: binary, named as such */
#define COST_MS_S 1e-3
#define COST_HOUR_S 3600.0
#define COST_FLOPS_PER_MAC 2.0 /* one multiply + one add */

/* ---- assertions ----------------------------------------------------------- */

/* Preconditions of the cost functions are programming errors, not run-time
 * conditions: they are checked with COST_ASSERT, which a test build may
 * redefine (e.g. to cmocka's mock_assert). Write the reason into the
 * condition: COST_ASSERT(chips >= 1 && "need at least one chip"). */
#ifndef COST_ASSERT
#include <assert.h>
#define COST_ASSERT(cond) assert(cond)
#endif

/* ---- numeric precisions --------------------------------------------------- */

/* The precision of a matrix multiply, and so of its operands. */
typedef enum cost_dtype {
    COST_BF16 = 0,
    COST_FP8,
    COST_FP4,
    COST_INT8,
    COST_DTYPE_COUNT
} cost_dtype;

/* Bytes per element: bf16 2, fp8 1, fp4 0.5, int8 1. */
double cost_dtype_bytes(cost_dtype dtype);

/* Lower-case name: "bf16", "fp8", "fp4", "int8". */
const char *cost_dtype_name(cost_dtype dtype);

/* Parses a name as printed by cost_dtype_name (case-insensitive).
 * Returns false, leaving *out untouched, when the name is not a precision. */
bool cost_dtype_parse(const char *name, cost_dtype *out);

/* ---- names --------------------------------------------------------------- */

/* True when two preset names are equal, ignoring ASCII case. */
bool cost_name_equal(const char *a, const char *b);

#endif /* COST_BASE_H */
