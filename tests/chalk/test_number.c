/*
 * test_number.c -- the calculator's number printing (solutions/chalk/number.c),
 * linked in directly: chalk_format_number must print exactly what printf("%.*g")
 * prints at every precision (C11 7.21.6.1), since every JSON and CSV number goes
 * through it and readers parse it back. Its fast path covers up to 12 digits; the
 * rest is printf's own, checked here all the same.
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

static void expect_same_as_printf(double x, int digits)
{
    char mine[CHALK_NUM_CHARS], libc[64];
    int n = chalk_format_number(mine, x, digits);
    snprintf(libc, sizeof libc, "%.*g", digits, x);
    if (strcmp(mine, libc) != 0 || n != (int)strlen(libc))
        fail_msg("chalk_format_number(%a, %d) = \"%s\", printf gives \"%s\"", x, digits, mine,
                 libc);
}

/* The values a calculator prints, and the edges: zero, negatives, exact integers,
 * powers of ten, the switch to exponent form, subnormals, the largest double,
 * infinity; at 6 digits (make bench's), 12 (the fast path's last) and 17. */
static void numbers_print_what_printf_prints_at_the_edges(void **state)
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
    const int digits[] = {6, 12, 17};
    for (size_t d = 0; d < sizeof digits / sizeof digits[0]; d++)
        for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
            expect_same_as_printf(edges[i], digits[d]);
    char buf[CHALK_NUM_CHARS];
    chalk_format_number(buf, 1.0 / 0.0, 6);
    assert_string_equal(buf, "inf");
}

/* A million doubles drawn from every exponent, and a million in the range the
 * calculator's results live in (1e-9 to 1e16), at 6 and 12 digits: printf's text,
 * byte for byte. */
static void numbers_print_what_printf_prints_for_random_doubles(void **state)
{
    (void)state;
    uint64_t s = 20261123;
    for (int i = 0; i < 1000000; i++) {
        uint64_t bits = next(&s);
        double x;
        memcpy(&x, &bits, sizeof x);
        if (x != x) /* NaN: its sign and payload print differently across libcs */
            continue;
        expect_same_as_printf(x, i % 2 ? 6 : 12);
    }
    for (int i = 0; i < 1000000; i++) {
        double u = (double)(next(&s) >> 11) / 9007199254740992.0; /* [0, 1) */
        expect_same_as_printf(1e-9 * pow(1e25, u), i % 2 ? 6 : 12);
    }
}

/* --digits N: printf's %.Ng for every N from 1 to 17, on random doubles across the
 * calculator's range and on values that round up a digit. */
static void numbers_print_what_printf_prints_at_every_precision(void **state)
{
    (void)state;
    uint64_t s = 6;
    for (int precision = 1; precision <= 17; precision++) {
        const double edges[] = {9.5, 99.5, 999999.5, 0.00095, 1e22, 123456.5, 0.125, 1e-5};
        for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
            expect_same_as_printf(edges[i], precision);
        for (int i = 0; i < 100000; i++) {
            double u = (double)(next(&s) >> 11) / 9007199254740992.0;
            expect_same_as_printf((i % 2 ? -1 : 1) * 1e-9 * pow(1e25, u), precision);
        }
    }
}

const struct CMUnitTest chalk_tests_number[] = {
    CHALK_TEST(chalk, numbers_print_what_printf_prints_at_every_precision),
    CHALK_TEST(chalk, numbers_print_what_printf_prints_at_the_edges),
    CHALK_TEST(chalk, numbers_print_what_printf_prints_for_random_doubles),
};
const size_t chalk_tests_number_count = sizeof chalk_tests_number / sizeof chalk_tests_number[0];
