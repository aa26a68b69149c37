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
 * 2^-64 relative: v < 2^57, so under half its 2^-7 spacing, 0.004 in the last digit
 * of D. When the fraction of the scaled value is within 0.005 of one half (a digit printf might
 * round the other way), or x lies outside that range, or long double is no wider than double,
 * chalk_g17 asks printf. So its output is printf's, byte for byte; the tests compare the two over
 * millions of random doubles.
 */
#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chalk.h"

enum { G17_DIGITS = 17, POW10_MAX = 27, DOUBLE_DIGITS = 12 };

/* 10^0 .. 10^27, each exact in long double (5^27 < 2^64). */
static const long double POW10[POW10_MAX + 1] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};

/* |x| x 10^(precision-1-k), or a negative number when that power is not exact. */
static long double scaled(double ax, int k, int precision)
{
    int s = precision - 1 - k;
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

/* Writes the n digits of v (10^(n-1) <= v < 10^n), two at a time from the right; in
 * 32-bit arithmetic once what is left fits. */
static void n_digits(uint64_t v, int n, char *out)
{
    int i = n;
    for (; i >= 2 && v >= 4000000000u; i -= 2) {
        out[i - 2] = PAIRS[2 * (v % 100)];
        out[i - 1] = PAIRS[2 * (v % 100) + 1];
        v /= 100;
    }
    uint32_t w = (uint32_t)v;
    for (; i >= 2; i -= 2) {
        uint32_t pair = 2 * (w % 100);
        out[i - 2] = PAIRS[pair];
        out[i - 1] = PAIRS[pair + 1];
        w /= 100;
    }
    if (i == 1)
        out[0] = (char)('0' + w);
}

/* Copies n (at most 17) characters: shorter than a call to memcpy for so few. */
static char *put_chars(char *p, const char *from, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = from[i];
    return p + n;
}

/* D = x x 10^(precision-1-k) rounded to an integer of `precision` digits, from the
 * estimate *k (one too low at most; corrected here). False when the power of ten is
 * not exact or the scaled value is too near a tie: the caller asks printf. */
static bool scaled_long(double ax, int precision, int *k, uint64_t *digits)
{
    const long double lo = POW10[precision - 1], hi = POW10[precision];
    long double v = scaled(ax, *k, precision);
    if (v >= hi)
        v = scaled(ax, ++*k, precision);
    else if (v >= 0 && v < lo)
        v = scaled(ax, --*k, precision);
    if (v < lo || v >= hi)
        return false;
    uint64_t d = (uint64_t)llrintl(v); /* to nearest: 0 < v < 2^57 */
    long double off = v - (long double)d;
    if (fabsl(off) > 0.5L - v * 0x1p-63L) /* v is off by at most v 2^-64 */
        return false;
    if ((long double)d >= hi) { /* 999.7 rounded up to 1000 */
        d /= 10;
        ++*k;
    }
    *digits = d;
    return true;
}

/* The same in double arithmetic, for up to DOUBLE_DIGITS digits: 10^0..10^22 are
 * exact doubles, one product is off by at most v 2^-53, under 2e-4 below 10^12. */
static bool scaled_double(double ax, int precision, int *k, uint64_t *digits)
{
    static const double P[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const int top = (int)(sizeof P / sizeof P[0]) - 1;
    double v = -1.0;
    for (int tries = 0; tries < 2; tries++) {
        int s = precision - 1 - *k;
        if (s > top || -s > top)
            return false;
        v = s >= 0 ? ax * P[s] : ax / P[-s];
        if (v >= P[precision])
            ++*k;
        else if (v < P[precision - 1])
            --*k;
        else
            break;
    }
    if (v < P[precision - 1] || v >= P[precision])
        return false;
    uint64_t d = (uint64_t)llrint(v);
    double off = v - (double)d;
    if (fabs(off) > 0.5 - v * 0x1p-52)
        return false;
    if ((double)d >= P[precision]) {
        d /= 10;
        ++*k;
    }
    *digits = d;
    return true;
}

int chalk_g17(char *buf, double x)
{
    return chalk_gn(buf, x, G17_DIGITS);
}

static int gn_printf(char *buf, double x, int precision)
{
    return snprintf(buf, CHALK_NUM_CHARS, "%.*g", precision, x);
}

int chalk_gn(char *buf, double x, int precision)
{
    if (precision < 1 || precision > G17_DIGITS || LDBL_MANT_DIG < 64 || !isfinite(x) || x == 0.0)
        return gn_printf(buf, x, precision);
    double ax = fabs(x);
    uint64_t bits;
    memcpy(&bits, &ax, sizeof bits);
    int e2 = (int)(bits >> 52) - 1022; /* ax in [2^(e2-1), 2^e2); subnormals: printf */
    if (e2 < -1000)
        return gn_printf(buf, x, precision);
    /* floor(log10(2^(e2-1))): 78913 / 2^18 is log10(2) to 6 digits, within one below */
    int k = (int)(((int64_t)(e2 - 1) * 78913) >> 18);
    uint64_t d = 0;
    if (!(precision <= DOUBLE_DIGITS ? scaled_double(ax, precision, &k, &d)
                                     : scaled_long(ax, precision, &k, &d)))
        return gn_printf(buf, x, precision);
    char digits[G17_DIGITS];
    n_digits(d, precision, digits);
    int n = precision;
    while (n > 1 && digits[n - 1] == '0') /* %g drops trailing zeros */
        n--;
    char *p = buf;
    if (x < 0)
        *p++ = '-';
    if (k < -4 || k >= precision) { /* d.ddde+XX */
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            p = put_chars(p, digits + 1, n - 1);
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
        p = put_chars(p, digits, n);
    } else if (n <= k + 1) { /* ddd000 */
        p = put_chars(p, digits, n);
        for (int i = n; i <= k; i++)
            *p++ = '0';
    } else { /* ddd.ddd */
        p = put_chars(p, digits, k + 1);
        *p++ = '.';
        p = put_chars(p, digits + k + 1, n - k - 1);
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
    } else if (ax >= 1e3 && ax < 1e9) {
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
    } else { /* 5.76e14, not 5.76e+14 or 576,000,000,000,000 */
        char text[32];
        snprintf(text, sizeof text, "%.4g", x);
        char *e = strchr(text, 'e');
        if (e) {
            char *from = e + 1 + (e[1] == '+');
            bool minus = *from == '-';
            from += minus;
            while (from[0] == '0' && from[1])
                from++;
            snprintf(buf, size, "%.*se%s%s", (int)(e - text), text, minus ? "-" : "", from);
        } else {
            snprintf(buf, size, "%s", text);
        }
    }
}

typedef struct scale_step {
    double scale;
    const char *name;
} scale_step;

static const scale_step TIME_STEPS[] = {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
static const scale_step FLOP_STEPS[] = {{1e21, "ZFLOP"}, {1e18, "EFLOP"}, {1e15, "PFLOP"},
                                        {1e12, "TFLOP"}, {1e9, "GFLOP"},  {1e6, "MFLOP"},
                                        {1.0, "FLOP"}};
static const scale_step COUNT_STEPS[] = {
    {1e12, "trillion"}, {1e9, "billion"}, {1e6, "million"}, {1.0, ""}};
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
    snprintf(buf, size, "%s%s%s%s", number, *steps[i].name ? " " : "", steps[i].name, suffix);
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
    case CHALK_U_FLOPS:
        scaled_text(buf, size, x, FLOP_STEPS, COUNT_OF(FLOP_STEPS), "");
        return;
    case CHALK_U_PARAMS:
        scaled_text(buf, size, x, COUNT_STEPS, COUNT_OF(COUNT_STEPS), " params");
        return;
    case CHALK_U_TOKENS:
        scaled_text(buf, size, x, COUNT_STEPS, COUNT_OF(COUNT_STEPS), " tokens");
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
