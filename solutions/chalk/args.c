/*
 * args.c -- errors, numbers and their ranges, sweeps, and the nearest names for a
 * typo.
 *
 * One rule for numbers everywhere: a plain decimal (2048, 0.5, 671e9), inside the
 * range the flag (or the command's input) allows. The range is part of the flag, so
 * that no input can make a result overflow into "inf" and every refusal names what
 * is allowed; numbers too small to compute with (below 1e-300 in size) are refused,
 * and -0 is 0.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chalk.h"

int chalk_fail(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p; p++)
        if (iscntrl((unsigned char)*p))
            *p = '?';
    fprintf(stderr, "chalk: error: %s\n", msg);
    return CHALK_USAGE;
}

/* ---- what was given ------------------------------------------------------------------ */

const char *chalk_value(const chalk_args *a, const chalk_flag *f)
{
    for (int i = 0; i < a->ngiven; i++)
        if (a->flag[i] == f)
            return a->value[i];
    return NULL;
}

bool chalk_given(const chalk_args *a, const chalk_flag *f)
{
    return chalk_value(a, f) != NULL;
}

/* ---- numbers -------------------------------------------------------------------------- */

bool chalk_is_decimal(const char *s)
{
    int digits = 0;
    if (*s == '+' || *s == '-')
        s++;
    for (; isdigit((unsigned char)*s); s++)
        digits++;
    if (*s == '.')
        for (s++; isdigit((unsigned char)*s); s++)
            digits++;
    if (digits == 0)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!isdigit((unsigned char)*s))
            return false;
        while (isdigit((unsigned char)*s))
            s++;
    }
    return *s == '\0';
}

/* "from 1 to 1e+06", "> 0 and at most 1e+12", "whole numbers from 1 to 1e+06". */
static void describe_range(char *buf, size_t size, unsigned rules, double min, double max)
{
    const char *whole = (rules & CHALK_WHOLE) ? "a whole number " : "";
    if (rules & CHALK_ABOVE_MIN)
        snprintf(buf, size, "%s> %g and at most %g", whole, min, max);
    else
        snprintf(buf, size, "%sfrom %g to %g", whole, min, max);
}

/* Below this size a number is noise to every formula here (1e-320 is subnormal: a
 * ratio with it overflows); 0 itself is allowed where the range allows it. */
#define SMALLEST 1e-300

int chalk_parse_number(const chalk_flag *f, double min, double max, unsigned rules,
                       const char *text, double *out)
{
    if (*text == '\0')
        return chalk_fail("%s needs a number, got an empty string", f->name);
    if (!chalk_is_decimal(text))
        return chalk_fail("%s: \"%s\" is not a number (write e.g. 2048, 0.5 or 671e9)", f->name,
                          text);
    double x = strtod(text, NULL);
    if (x == 0.0)
        x = 0.0; /* -0 is 0 */
    bool below = (rules & CHALK_ABOVE_MIN) ? !(x > min) : !(x >= min);
    bool whole = !(rules & CHALK_WHOLE) || x == floor(x);
    if (!isfinite(x) || below || x > max || !whole) {
        char allowed[96];
        describe_range(allowed, sizeof allowed, rules, min, max);
        return chalk_fail("%s must be %s (got %s)", f->name, allowed, text);
    }
    if (x != 0.0 && fabs(x) < SMALLEST)
        return chalk_fail("%s: %s is too small to compute with (0, or at least %g)", f->name, text,
                          SMALLEST);
    *out = x;
    return CHALK_OK;
}

int chalk_number(const chalk_args *a, const chalk_flag *f, double *x)
{
    const char *text = chalk_value(a, f);
    return text ? chalk_parse_number(f, f->min, f->max, f->rules, text, x) : CHALK_OK;
}

/* ---- sweeps --------------------------------------------------------------------------- */

static int sweep_syntax_error(const chalk_flag *f, const char *text)
{
    return chalk_fail("%s \"%s\": a sweep is A:B (64 points), A:B:N, A:B:N:linear or a list "
                      "a,b,c",
                      f->name, text);
}

/* Appends one value to s->values (capacity *cap), growing it. */
static int sweep_push(const chalk_flag *f, chalk_sweep *s, long *cap, double x)
{
    if (s->points == CHALK_SWEEP_MAX_POINTS)
        return chalk_fail("%s: at most %d points", f->name, CHALK_SWEEP_MAX_POINTS);
    if (s->points == *cap) {
        long grown = *cap ? 2 * *cap : 64;
        double *values = realloc(s->values, (size_t)grown * sizeof *values);
        if (!values)
            return chalk_fail("%s: out of memory for %ld points", f->name, grown);
        s->values = values;
        *cap = grown;
    }
    s->values[s->points++] = x;
    return CHALK_OK;
}

/* The i-th of n points from lo to hi, both included: evenly spaced, or geometric. */
static double range_point(double lo, double hi, long n, bool linear, long i)
{
    if (i <= 0)
        return lo;
    if (i >= n - 1)
        return hi;
    if (linear)
        return lo + (hi - lo) * (double)i / (double)(n - 1);
    double x = lo * pow(hi / lo, (double)i / (double)(n - 1));
    double whole = round(x);
    return fabs(x - whole) <= 1e-9 * x ? whole : x; /* 1:4096:13 gives 2^i */
}

/* One item of a sweep, [begin, end): a number, or a range A:B[:N[:linear]]. A range
 * alone (the whole text) is kept as its ends; in a list, its points are pushed. */
static int sweep_item(const chalk_flag *f, const char *text, const char *begin, const char *end,
                      chalk_sweep *s, long *cap, bool *was_range)
{
    char part[4][64];
    int parts = 0;
    for (const char *p = begin;;) {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        const char *stop = colon ? colon : end;
        if (parts == 4 || stop - p >= (long)sizeof part[0])
            return sweep_syntax_error(f, text);
        memcpy(part[parts], p, (size_t)(stop - p));
        part[parts][stop - p] = '\0';
        parts++;
        if (!colon)
            break;
        p = colon + 1;
    }
    double lo = 0.0, hi = 0.0;
    int status;
    if (parts == 1) {
        if (part[0][0] == '\0')
            return sweep_syntax_error(f, text);
        if ((status = chalk_parse_number(f, s->min, s->max, s->rules, part[0], &lo)))
            return status;
        return sweep_push(f, s, cap, lo);
    }
    *was_range = true;
    if (!chalk_is_decimal(part[0]) || !chalk_is_decimal(part[1]))
        return sweep_syntax_error(f, text);
    bool linear = parts == 4 && strcmp(part[3], "linear") == 0;
    if (parts == 4 && !linear)
        return chalk_fail("%s \"%s\": the fourth part of a sweep can only be \"linear\"", f->name,
                          text);
    double n = parts >= 3 && chalk_is_decimal(part[2]) ? strtod(part[2], NULL)
               : parts >= 3                            ? 0.0
                                                       : CHALK_SWEEP_DEFAULT_POINTS;
    if (n != floor(n) || n < 2 || n > CHALK_SWEEP_MAX_POINTS)
        return chalk_fail("%s \"%s\": N must be a whole number of points from 2 to %d", f->name,
                          text, CHALK_SWEEP_MAX_POINTS);
    if ((status = chalk_parse_number(f, s->min, s->max, s->rules, part[0], &lo)) ||
        (status = chalk_parse_number(f, s->min, s->max, s->rules, part[1], &hi)))
        return status;
    if (!(lo < hi))
        return chalk_fail("%s \"%s\": a sweep A:B needs A < B", f->name, text);
    if (!linear && !(lo > 0.0))
        return chalk_fail("%s \"%s\": a geometric sweep A:B needs 0 < A (for 0, use "
                          "A:B:N:linear or list the points: 0,1024,4096)",
                          f->name, text);
    if (!linear && !isfinite(hi / lo))
        return chalk_fail("%s \"%s\": B / A overflows; start a geometric sweep nearer B", f->name,
                          text);
    long points = (long)n;
    if (!s->values && !strchr(text, ',')) { /* one range alone: its points on demand */
        s->range = true;
        s->lo = lo;
        s->hi = hi;
        s->linear = linear;
        s->points = points;
        return CHALK_OK;
    }
    for (long i = 0; i < points; i++) {
        int status2 = sweep_push(f, s, cap, range_point(lo, hi, points, linear, i));
        if (status2)
            return status2;
    }
    return CHALK_OK;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int chalk_sweep_read(const chalk_args *a, const chalk_flag *f, double min, double max,
                     unsigned rules, chalk_sweep *s)
{
    *s = (chalk_sweep){.flag = f, .points = 1, .min = min, .max = max, .rules = rules};
    const char *text = chalk_value(a, f);
    if (!text)
        return CHALK_OK;
    s->given = true;
    if (!strpbrk(text, ":,")) {
        int status = chalk_parse_number(f, min, max, rules, text, &s->one);
        s->values = NULL;
        return status;
    }
    if (!(rules & CHALK_SWEEPS))
        return chalk_fail("%s takes one value here, not a sweep (\"%s\")", f->name, text);
    long cap = 0;
    bool ranges = false;
    s->points = 0;
    int status = CHALK_OK;
    for (const char *p = text;;) { /* each item once: linear in the text */
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        if (end == p)
            status = sweep_syntax_error(f, text);
        else
            status = sweep_item(f, text, p, end, s, &cap, &ranges);
        if (status || !comma)
            break;
        p = comma + 1;
    }
    if (status) {
        chalk_sweep_free(s);
        return status;
    }
    if (ranges && strchr(text, ',')) { /* ranges and points together: ascending, once */
        qsort(s->values, (size_t)s->points, sizeof *s->values, compare_doubles);
        long kept = 0;
        for (long i = 0; i < s->points; i++)
            if (kept == 0 || s->values[i] != s->values[kept - 1])
                s->values[kept++] = s->values[i];
        s->points = kept;
    }
    return CHALK_OK;
}

double chalk_sweep_at(const chalk_sweep *s, long i)
{
    if (s->range)
        return range_point(s->lo, s->hi, s->points, s->linear, i);
    if (!s->values)
        return s->one;
    if (i < 0)
        i = 0;
    if (i >= s->points)
        i = s->points - 1;
    return s->values[i];
}

bool chalk_sweeps(const chalk_sweep *s)
{
    return s->range || s->values != NULL;
}

void chalk_sweep_free(chalk_sweep *s)
{
    free(s->values);
    s->values = NULL;
}

/* ---- nearest names -------------------------------------------------------------------- */

enum { NAME_CHARS = 64, MAX_NAMES = 128, MAX_SUGGESTIONS = 4 };

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return n == 0;
}

/* Levenshtein distance, case-insensitive; long strings count as far apart. */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la >= NAME_CHARS || lb >= NAME_CHARS)
        return NAME_CHARS;
    int row[NAME_CHARS + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int above = row[j];
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            int best = diagonal + !same;
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

void chalk_suggest(char *buf, size_t size, const char *query, const char *const *names,
                   size_t count)
{
    const char *picks[MAX_SUGGESTIONS];
    size_t npicks = 0;
    bool picked[MAX_NAMES] = {false};
    size_t qlen = strlen(query);
    if (count > MAX_NAMES)
        count = MAX_NAMES;
    for (size_t i = 0; i < count && npicks < MAX_SUGGESTIONS; i++)
        if (qlen >= 3 && (contains_nocase(names[i], query) || contains_nocase(query, names[i]))) {
            picks[npicks++] = names[i];
            picked[i] = true;
        }
    int best = NAME_CHARS;
    for (size_t i = 0; i < count; i++)
        if (!picked[i] && edit_distance(query, names[i]) < best)
            best = edit_distance(query, names[i]);
    int near = qlen / 3 > 2 ? (int)(qlen / 3) : 2;
    for (size_t i = 0; i < count && npicks < MAX_SUGGESTIONS; i++)
        if (!picked[i] && best <= near && edit_distance(query, names[i]) == best)
            picks[npicks++] = names[i];
    size_t used = (size_t)snprintf(buf, size, npicks ? " (did you mean " : " (known: ");
    const char *const *list = npicks ? picks : names;
    size_t n = npicks ? npicks : count;
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", list[i]);
    if (used < size)
        snprintf(buf + used, size - used, npicks ? "?)" : ")");
}

long chalk_find_preset(const chalk_preset_kind *kind, const char *name)
{
    size_t n = kind->count();
    for (size_t i = 0; i < n; i++)
        if (cost_name_equal(kind->name(i), name))
            return (long)i;
    const char *names[MAX_NAMES];
    for (size_t i = 0; i < n && i < MAX_NAMES; i++)
        names[i] = kind->name(i);
    char hint[512];
    chalk_suggest(hint, sizeof hint, name, names, n);
    chalk_fail("unknown %s \"%s\"%s", kind->singular ? kind->singular : kind->word, name, hint);
    return -1;
}
