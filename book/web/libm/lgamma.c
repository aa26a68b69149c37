/* lgamma.c -- musl's lgamma (src/math/lgamma.c) over its __lgamma_r, except that the
 * sign of Gamma(x) is not stored in signgam (the calculator never reads it, and
 * glibc's signgam is not this file's to write). MIT licence: LICENSE. */
#include <math.h>
#include "libm.h"

double lgamma(double x)
{
	int sign;
	return __lgamma_r(x, &sign);
}
