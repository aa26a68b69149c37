/* libm.h -- what the vendored musl routines of this directory need from musl's
 * src/internal/libm.h, and nothing else (see README.md here: which routines, why,
 * from where). The macros and helpers below are musl's own, copied unchanged; the
 * long-double shapes, the float helpers and the declarations of routines not
 * vendored here are left out. MIT licence: LICENSE. */
#ifndef CHALK_MUSL_LIBM_H
#define CHALK_MUSL_LIBM_H

#include <stdint.h>
#include <float.h>
#include <math.h>

/* musl marks its internal symbols hidden; in one executable they are plain symbols,
 * renamed so that they meet no name of the C library (glibc's math.h declares a __sin
 * and a __cos of its own). */
#define hidden
#define __sin chalk_musl_sin
#define __cos chalk_musl_cos
#define __lgamma_r chalk_musl_lgamma_r
#define __math_xflow chalk_musl_math_xflow
#define __math_uflow chalk_musl_math_uflow
#define __math_oflow chalk_musl_math_oflow
#define __math_divzero chalk_musl_math_divzero
#define __math_invalid chalk_musl_math_invalid
#define __exp_data chalk_musl_exp_data
#define __log_data chalk_musl_log_data
#define __pow_log_data chalk_musl_pow_log_data

/* Support non-nearest rounding mode.  */
#define WANT_ROUNDING 1
/* Support signaling NaNs.  */
#define WANT_SNAN 0
#define issignaling_inline(x) 0

#define TOINT_INTRINSICS 0

/* Helps static branch prediction so hot path can be better optimized.  */
#ifdef __GNUC__
#define predict_true(x) __builtin_expect(!!(x), 1)
#define predict_false(x) __builtin_expect(x, 0)
#else
#define predict_true(x) (x)
#define predict_false(x) (x)
#endif

/* Evaluate an expression as the specified type. */
static inline double eval_as_double(double x)
{
	double y = x;
	return y;
}

/* fp_barrier returns its input, but limits code transformations
   as if it had a side-effect (e.g. observable io) and returned
   an arbitrary value.  */
static inline double fp_barrier(double x)
{
	volatile double y = x;
	return y;
}

/* fp_force_eval ensures that the input value is computed when that's
   otherwise unused. */
static inline void fp_force_eval(double x)
{
	volatile double y;
	y = x;
	(void)y;
}

static inline void fp_force_evalf(float x)
{
	volatile float y;
	y = x;
	(void)y;
}

/* (musl's FORCE_EVAL, for the double and float values these routines pass it) */
#define FORCE_EVAL(x) do {                        \
	if (sizeof(x) == sizeof(float)) {         \
		fp_force_evalf((float)(x));       \
	} else {                                  \
		fp_force_eval((double)(x));       \
	}                                         \
} while(0)

#define asuint64(f) ((union{double _f; uint64_t _i;}){f})._i
#define asdouble(i) ((union{uint64_t _i; double _f;}){i})._f

#define EXTRACT_WORDS(hi,lo,d)                    \
do {                                              \
  uint64_t __u = asuint64(d);                     \
  (hi) = __u >> 32;                               \
  (lo) = (uint32_t)__u;                           \
} while (0)

#define GET_HIGH_WORD(hi,d)                       \
do {                                              \
  (hi) = asuint64(d) >> 32;                       \
} while (0)

#define GET_LOW_WORD(lo,d)                        \
do {                                              \
  (lo) = (uint32_t)asuint64(d);                   \
} while (0)

#define INSERT_WORDS(d,hi,lo)                     \
do {                                              \
  (d) = asdouble(((uint64_t)(hi)<<32) | (uint32_t)(lo)); \
} while (0)

#define SET_HIGH_WORD(d,hi)                       \
  INSERT_WORDS(d, hi, (uint32_t)asuint64(d))

#define SET_LOW_WORD(d,lo)                        \
  INSERT_WORDS(d, asuint64(d)>>32, lo)

hidden double __sin(double,double,int);
hidden double __cos(double,double);
hidden double __lgamma_r(double, int *);

/* error handling functions */
hidden double __math_xflow(uint32_t, double);
hidden double __math_uflow(uint32_t);
hidden double __math_oflow(uint32_t);
hidden double __math_divzero(uint32_t);
hidden double __math_invalid(double);

#endif
