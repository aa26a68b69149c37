/*
 * number.c -- a number as printf("%.*g") prints it, without printf when it can.
 *
 * JSON and CSV carry numbers as printf's %.17g (or %.Ng with --digits N). glibc's
 * printf takes about 0.2 us a number; a 100,000-row sweep of eight columns at 6
 * digits spends most of its time there and runs only 2.5 times as fast as a plain
 * Python loop writing the same CSV (make bench; the goal is 5 times). So up to 12
 * digits the digits come from one multiplication by an exact power of ten, in
 * double, when an error bound proves them right; near a rounding tie, at 13 digits
 * or more, and for subnormals, printf itself. tests/chalk/test_number.c compares the
 * two over the edges and a million random doubles.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chalk.h"

/* 10^0 .. 10^22: every one exact in a double. */
static const double POW10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                               1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
enum { FAST_DIGITS = 12, TOP = 22 };

/* The `digits` significant digits of |x| as an integer D, |x| ~ D x 10^(k-digits+1),
 * when one multiplication by an exact power of ten settles them: the product is off
 * by at most v 2^-53 (under 2e-4 below 10^12), so D is right unless v lies that near
 * a half. False then (or out of range): the caller asks printf. */
static bool scaled_digits(double ax, int digits, int *k, uint64_t *d)
{
    double v = -1.0;
    for (int tries = 0; tries < 2; tries++) {
        int s = digits - 1 - *k;
        if (s > TOP || -s > TOP)
            return false;
        v = s >= 0 ? ax * POW10[s] : ax / POW10[-s];
        if (v >= POW10[digits])
            ++*k;
        else if (v < POW10[digits - 1])
            --*k;
        else
            break;
    }
    if (v < POW10[digits - 1] || v >= POW10[digits])
        return false;
    *d = (uint64_t)llrint(v);
    if (fabs(v - (double)*d) > 0.5 - v * 0x1p-52)
        return false;
    if ((double)*d >= POW10[digits]) { /* 999.97 rounded up to 1000 */
        *d /= 10;
        ++*k;
    }
    return true;
}

int chalk_format_number(char *buf, double x, int digits)
{
    double ax = fabs(x);
    int e2;
    if (digits > FAST_DIGITS || !isfinite(x) || x == 0.0 || frexp(ax, &e2) == 0.0 || e2 < -1000)
        return snprintf(buf, CHALK_NUM_CHARS, "%.*g", digits, x);
    int k = (int)floor((e2 - 1) * 0.30102999566398120); /* floor(log10 ax), or one below */
    uint64_t d;
    if (!scaled_digits(ax, digits, &k, &d))
        return snprintf(buf, CHALK_NUM_CHARS, "%.*g", digits, x);
    char text[FAST_DIGITS + 1];
    for (int i = digits - 1; i >= 0; i--, d /= 10)
        text[i] = (char)('0' + d % 10);
    int n = digits;
    while (n > 1 && text[n - 1] == '0') /* %g drops trailing zeros */
        n--;
    char *p = buf;
    if (x < 0)
        *p++ = '-';
    if (k < -4 || k >= digits) { /* d.ddde+XX */
        *p++ = text[0];
        if (n > 1)
            *p++ = '.';
        memcpy(p, text + 1, (size_t)n - 1);
        p += n - 1;
        int e = k < 0 ? -k : k; /* e-05, e+12, e+308: at least two digits */
        *p++ = 'e';
        *p++ = k < 0 ? '-' : '+';
        if (e >= 100)
            *p++ = (char)('0' + e / 100);
        *p++ = (char)('0' + e / 10 % 10);
        *p++ = (char)('0' + e % 10);
        *p = '\0';
        return (int)(p - buf);
    }
    if (k < 0) { /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -k - 1; i++)
            *p++ = '0';
        memcpy(p, text, (size_t)n);
        p += n;
    } else if (n <= k + 1) { /* ddd000 */
        memcpy(p, text, (size_t)n);
        p += n;
        for (int i = n; i <= k; i++)
            *p++ = '0';
    } else { /* ddd.ddd */
        memcpy(p, text, (size_t)k + 1);
        p += k + 1;
        *p++ = '.';
        memcpy(p, text + k + 1, (size_t)(n - k - 1));
        p += n - k - 1;
    }
    *p = '\0';
    return (int)(p - buf);
}

