/*
 * numfmt.c -- numbers as text: exact for machines, short for humans.
 *
 * JSON and CSV carry every number as printf's "%.17g", which reads back to the same
 * double. printf takes about 200 ns per number, and a 100,000-row sweep prints a few
 * million of them, so chalk_g17 computes the same digits another way:
 *
 *   x = D x 10^(k-16),  D the 17-digit integer nearest x x 10^(16-k)
 *
 * For 10^(16-k) between 10^-27 and 10^27 the power of ten is exact in an x87 long
 * double (64-bit significand), so x x 10^(16-k) carries one rounding error of at most
 * 2^-64 relative: under 0.01 in the last digit of D. When the fraction of the scaled
 * value is that close to one half (a digit printf might round the other way), or x
 * lies outside that range, or long double is no wider than double, chalk_g17 asks
 * printf. So its output is printf's, byte for byte; the tests compare the two over
 * millions of random doubles.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chalk.h"

enum { G17_DIGITS = 17, POW10_MAX = 27 };

/* 10^0 .. 10^27, each exact in long double (5^27 < 2^64). */
static const long double POW10[POW10_MAX + 1] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};

static int g17_printf(char *buf, double x)
{
    return snprintf(buf, CHALK_NUM_CHARS, "%.17g", x);
}

/* |x| x 10^(16-k), or a negative number when 10^|16-k| is not exact. */
static long double scaled(double ax, int k)
{
    int s = G17_DIGITS - 1 - k;
    if (s >= 0 && s <= POW10_MAX)
        return (long double)ax * POW10[s];
    if (s < 0 && -s <= POW10_MAX)
        return (long double)ax / POW10[-s];
    return -1.0L;
}

static const char PAIRS[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Writes the 8 decimal digits of v (< 10^8), with leading zeros, two at a time. */
static void eight_digits(uint32_t v, char *out)
{
    for (int i = 6; i >= 0; i -= 2) {
        memcpy(out + i, PAIRS + 2 * (v % 100), 2);
        v /= 100;
    }
}

/* Writes the 17 digits of v (10^16 <= v < 10^17). */
static void seventeen_digits(uint64_t v, char *out)
{
    uint64_t hi = v / 100000000u; /* 9 digits */
    out[0] = (char)('0' + hi / 100000000u);
    eight_digits((uint32_t)(hi % 100000000u), out + 1);
    eight_digits((uint32_t)(v % 100000000u), out + 9);
}

int chalk_g17(char *buf, double x)
{
    if (LDBL_MANT_DIG < 64 || !isfinite(x) || x == 0.0)
        return g17_printf(buf, x);
    double ax = fabs(x);
    uint64_t bits;
    memcpy(&bits, &ax, sizeof bits);
    int e2 = (int)(bits >> 52) - 1022; /* ax in [2^(e2-1), 2^e2); subnormals: printf */
    if (e2 < -1000)
        return g17_printf(buf, x);
    /* floor(log10(2^(e2-1))): 78913 / 2^18 is log10(2) to 6 digits, exact for |e| < 1650 */
    int k = (int)(((int64_t)(e2 - 1) * 78913) >> 18);
    long double v = scaled(ax, k);
    if (v >= POW10[G17_DIGITS])
        v = scaled(ax, ++k);
    else if (v >= 0 && v < POW10[G17_DIGITS - 1])
        v = scaled(ax, --k);
    if (v < POW10[G17_DIGITS - 1] || v >= POW10[G17_DIGITS])
        return g17_printf(buf, x); /* outside the exact powers */
    uint64_t d = (uint64_t)v;      /* v > 0: the conversion truncates, a floor */
    long double frac = v - (long double)d;
    if (frac > 0.48L && frac < 0.52L)
        return g17_printf(buf, x); /* too near a tie to be sure which way printf rounds */
    d += frac > 0.5L;
    if (d >= (uint64_t)1e17) { /* 99999999999999999.7 rounded up to 10^17 */
        d /= 10;
        k++;
    }
    char digits[G17_DIGITS];
    seventeen_digits(d, digits);
    int n = G17_DIGITS;
    while (n > 1 && digits[n - 1] == '0') /* %g drops trailing zeros */
        n--;
    char *p = buf;
    if (x < 0)
        *p++ = '-';
    if (k < -4 || k >= G17_DIGITS) { /* d.ddde+XX */
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)(n - 1));
            p += n - 1;
        }
        int ek = k < 0 ? -k : k;
        *p++ = 'e';
        *p++ = k < 0 ? '-' : '+';
        if (ek >= 100)
            *p++ = (char)('0' + ek / 100);
        *p++ = (char)('0' + ek / 10 % 10);
        *p++ = (char)('0' + ek % 10);
    } else if (k < 0) { /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -k - 1; i++)
            *p++ = '0';
        memcpy(p, digits, (size_t)n);
        p += n;
    } else if (n <= k + 1) { /* ddd000 */
        memcpy(p, digits, (size_t)n);
        p += n;
        for (int i = n; i <= k; i++)
            *p++ = '0';
    } else { /* ddd.ddd */
        memcpy(p, digits, (size_t)(k + 1));
        p += k + 1;
        *p++ = '.';
        memcpy(p, digits + k + 1, (size_t)(n - k - 1));
        p += n - k - 1;
    }
    *p = '\0';
    return (int)(p - buf);
}

/* ---- for humans ------------------------------------------------------------------------ */

void chalk_sig(char *buf, size_t size, double x)
{
    double ax = fabs(x);
    if (x == 0.0) {
        snprintf(buf, size, "0");
    } else if (ax >= 1e3 && ax < 1e15) {
        char digits[32];
        snprintf(digits, sizeof digits, "%.0f", ax);
        size_t len = strlen(digits), used = 0;
        if (x < 0 && used + 1 < size)
            buf[used++] = '-';
        for (size_t i = 0; i < len && used + 2 < size; i++) {
            if (i > 0 && (len - i) % 3 == 0)
                buf[used++] = ',';
            buf[used++] = digits[i];
        }
        buf[used] = '\0';
    } else if (ax >= 1e-3 && ax < 1e3) {
        int decimals = 3 - (int)floor(log10(ax));
        snprintf(buf, size, "%.*f", decimals < 0 ? 0 : decimals, x);
        if (strchr(buf, '.')) { /* 14.40 -> 14.4, 2.000 -> 2 */
            char *end = buf + strlen(buf) - 1;
            while (*end == '0')
                *end-- = '\0';
            if (*end == '.')
                *end = '\0';
        }
    } else {
        snprintf(buf, size, "%.4g", x);
    }
}

typedef struct scale_step {
    double scale;
    const char *name;
} scale_step;

static const scale_step TIME_STEPS[] = {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
static const scale_step BYTE_STEPS[] = {
    {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}, {1.0, "bytes"}};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* x in the largest step it reaches, e.g. 0.0144 s -> "14.4 ms". */
static void scaled_text(char *buf, size_t size, double x, const scale_step *steps, size_t n,
                        const char *suffix)
{
    size_t i = 0;
    while (i + 1 < n && fabs(x) < steps[i].scale)
        i++;
    if (x == 0.0)
        i = n - 1;
    char number[CHALK_NUM_CHARS];
    chalk_sig(number, sizeof number, x / steps[i].scale);
    snprintf(buf, size, "%s %s%s", number, steps[i].name, suffix);
}

void chalk_human(char *buf, size_t size, chalk_unit unit, double x)
{
    char number[CHALK_NUM_CHARS];
    switch (unit) {
    case CHALK_U_SECONDS:
        scaled_text(buf, size, x, TIME_STEPS, COUNT_OF(TIME_STEPS), "");
        return;
    case CHALK_U_BYTES:
        scaled_text(buf, size, x, BYTE_STEPS, COUNT_OF(BYTE_STEPS), "");
        return;
    case CHALK_U_BYTES_PER_TOKEN:
        scaled_text(buf, size, x, BYTE_STEPS, COUNT_OF(BYTE_STEPS), "/token");
        return;
    case CHALK_U_BYTES_PER_S:
        scaled_text(buf, size, x, BYTE_STEPS, COUNT_OF(BYTE_STEPS), "/s");
        return;
    case CHALK_U_FRACTION:
        chalk_sig(number, sizeof number, 100.0 * x);
        snprintf(buf, size, "%s%%", number);
        return;
    case CHALK_U_RATIO:
        chalk_sig(number, sizeof number, x);
        snprintf(buf, size, "%sx", number);
        return;
    case CHALK_U_USD:
        chalk_sig(number, sizeof number, x);
        snprintf(buf, size, "$%s", number);
        return;
    default: {
        static const struct {
            double scale;
            const char *word;
        } WORDS[CHALK_U_COUNT_OF_UNITS] = {
            [CHALK_U_PARAMS] = {1e9, "billion"},
            [CHALK_U_SEQUENCES] = {1, "sequences"},
            [CHALK_U_TOKENS] = {1, "tokens"},
            [CHALK_U_BYTES_PER_PARAM] = {1, "bytes/param"},
            [CHALK_U_FLOPS] = {1e9, "GFLOP"},
            [CHALK_U_FLOPS_PER_S] = {1e12, "TFLOP/s"},
            [CHALK_U_TOKENS_PER_S] = {1, "tokens/s"},
            [CHALK_U_USD_PER_MTOK] = {1, "USD/Mtok"},
            [CHALK_U_USD_PER_HOUR] = {1, "USD/chip-hour"},
            [CHALK_U_BITS] = {1, "bits"},
        };
        double scale = WORDS[unit].scale > 0 ? WORDS[unit].scale : 1.0;
        const char *word = WORDS[unit].word ? WORDS[unit].word : "";
        chalk_sig(number, sizeof number, x / scale);
        snprintf(buf, size, "%s%s%s", number, *word ? " " : "", word);
    }
    }
}
