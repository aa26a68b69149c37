/*
 * fixtures.h -- the helpers chapter 4's public test files share: defined once in
 * test_overtraining.c, declared here for the others (one binary). Not static, so
 * named chalk4_..., and called by the short names of the macros below.
 */
#ifndef CHALK_TESTS_04_FIXTURES_H
#define CHALK_TESTS_04_FIXTURES_H

#include "overtraining.h"

/* A fit by its name in lib/scaling.c. */
const cost_scaling_fit *chalk4_fit(const char *name);
/* The loss law written out, independently of the code under test. */
double chalk4_law(const cost_scaling_fit *f, double n, double d);
/* The lecture's factors. */
overtraining_factors chalk4_factors(double k, double eta_rl, double eta_inf);
/* Fails the test unless a double result has no answer (NaN). */
void chalk4_assert_nan(double x, const char *expr, const char *file, int line);

#define fit(name) chalk4_fit(name)
#define law(f, n, d) chalk4_law(f, n, d)
#define factors(k, eta_rl, eta_inf) chalk4_factors(k, eta_rl, eta_inf)
#define assert_nan(x) chalk4_assert_nan((x), #x, __FILE__, __LINE__)

#endif
