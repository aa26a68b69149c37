/*
 * test_numfmt.c -- the calculator's number printing (solutions/chalk/numfmt.c),
 * linked in directly: chalk_g17 must print exactly what printf("%.17g") prints,
 * since every JSON and CSV number goes through it and readers parse it back.
 */
#include "harness.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chalk.h"

/* A 64-bit generator (splitmix64): every test run draws the same doubles. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static void expect_same_as_printf(double x)
{
    char mine[CHALK_NUM_CHARS], libc[64];
    int n = chalk_g17(mine, x);
    snprintf(libc, sizeof libc, "%.17g", x);
    if (strcmp(mine, libc) != 0 || n != (int)strlen(libc))
        fail_msg("chalk_g17(%a) = \"%s\", printf gives \"%s\"", x, mine, libc);
}

/* C11 7.21.6.1: %.17g of the values a calculator prints, and of the edges: zero,
 * negatives, exact integers, powers of ten, the switch to exponent form at 1e-5 and
 * 1e17, subnormals, the largest double, infinities and NaN. */
static void g17_prints_what_printf_prints_at_the_edges(void **state)
{
    (void)state;
    const double edges[] = {
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        0.1,
        0.5,
        4.25,
        989e12,
        3.35e12,
        1e-4,
        1e-5,
        9.99e-5,
        1e16,
        1e17,
        99999999999999999.0,
        123456789012345678.0,
        1e-300,
        5e-324,
        1.7976931348623157e308,
        1e27,
        1e-11,
        1e-12,
        1e28,
        0.30000000000000004,
        70553706496.0,
        0.005265201977313433,
        186.3806284341571,
        1.0 / 3.0,
        2.0 / 3.0,
        1e22,
        1e23,
        8.5e-6,
        123.456,
        -0.000123456,
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        expect_same_as_printf(edges[i]);
    char buf[CHALK_NUM_CHARS];
    chalk_g17(buf, 1.0 / 0.0);
    assert_string_equal(buf, "inf");
}

/* Two million doubles drawn from every exponent, and one million in the range the
 * calculator's results live in (1e-9 to 1e16): printf's text, byte for byte. */
static void g17_prints_what_printf_prints_for_random_doubles(void **state)
{
    (void)state;
    uint64_t s = 20261123;
    for (int i = 0; i < 2000000; i++) {
        uint64_t bits = next(&s);
        double x;
        memcpy(&x, &bits, sizeof x);
        if (x != x) /* NaN: its sign and payload print differently across libcs */
            continue;
        expect_same_as_printf(x);
    }
    for (int i = 0; i < 1000000; i++) {
        double u = (double)(next(&s) >> 11) / 9007199254740992.0; /* [0, 1) */
        expect_same_as_printf(1e-9 * pow(1e25, u));
    }
}

/* --digits N: chalk_gn(x, N) is printf's %.Ng for every N from 1 to 17, on random
 * doubles across the calculator's range and on values that round up a digit. */
static void gn_prints_what_printf_prints_at_every_precision(void **state)
{
    (void)state;
    uint64_t s = 6;
    for (int precision = 1; precision <= 17; precision++) {
        const double edges[] = {9.5, 99.5, 999999.5, 0.00095, 1e22, 123456.5, 0.125, 1e-5};
        for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
            char mine[CHALK_NUM_CHARS], libc[64];
            chalk_gn(mine, edges[i], precision);
            snprintf(libc, sizeof libc, "%.*g", precision, edges[i]);
            if (strcmp(mine, libc) != 0)
                fail_msg("chalk_gn(%a, %d) = \"%s\", printf gives \"%s\"", edges[i], precision,
                         mine, libc);
        }
        for (int i = 0; i < 100000; i++) {
            double u = (double)(next(&s) >> 11) / 9007199254740992.0;
            double x = (i % 2 ? -1 : 1) * 1e-9 * pow(1e25, u);
            char mine[CHALK_NUM_CHARS], libc[64];
            chalk_gn(mine, x, precision);
            snprintf(libc, sizeof libc, "%.*g", precision, x);
            if (strcmp(mine, libc) != 0)
                fail_msg("chalk_gn(%a, %d) = \"%s\", printf gives \"%s\"", x, precision, mine,
                         libc);
        }
    }
}

const struct CMUnitTest chalk_tests_numfmt[] = {
    CHALK_TEST(chalk, gn_prints_what_printf_prints_at_every_precision),
    CHALK_TEST(chalk, g17_prints_what_printf_prints_at_the_edges),
    CHALK_TEST(chalk, g17_prints_what_printf_prints_for_random_doubles),
};
const size_t chalk_tests_numfmt_count = sizeof chalk_tests_numfmt / sizeof chalk_tests_numfmt[0];
