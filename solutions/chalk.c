/*
 * chalk.c -- the Chalk calculator: the workbook's reference math behind one command.
 *
 *   chalk list hw|models            the presets, one line each
 *   chalk show hw|model NAME        one preset in full
 *   chalk decode ...                one decode step: roofline terms, tokens/s, USD/Mtok
 *   chalk balance-batch ...         the batch where compute meets memory (lecture 1.5)
 *   chalk departures ...            the train schedule: a step drains HBM once (1.6)
 *   chalk max-batch ...             the largest batch HBM or a step-time target allows
 *   chalk fast-mode ...             a smaller batch for a faster step, and its cost (1.9)
 *   chalk check-answers KEY FILE    grade a reader's practice-problem answers (make problems)
 *
 * The book, its figures and its answer keys are generated from this program, so it
 * does no physics of its own: every number comes from lib/ (presets, shapes) or from
 * the chapter references in solutions/ (batching_*). What lives here is plumbing:
 * flags in; presets and overrides merged into one batching_deploy; one record of
 * named values per point out, as an aligned table, JSON or CSV.
 *
 * A mistake in the input is the reader's, not the program's: it gets ONE line on
 * stderr, "chalk: error: ...", and exit status 2, never a crash or a silent default.
 * Nothing is allocated (a sweep is computed point by point from its text), and the
 * only file-scope data are const tables.
 */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batching.h"
#include "cost.h"

enum { STATUS_OK = 0, STATUS_USAGE = 2 };

/* ---- errors ----------------------------------------------------------------- */

/* Prints ONE line, "chalk: error: ...", and returns the usage status, so that a
 * caller can `return fail(...)`. Control characters from the reader's input are
 * replaced, so a pasted newline cannot split the line. */
static int fail(const char *fmt, ...)
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
    return STATUS_USAGE;
}

/* ---- flags ------------------------------------------------------------------ */

typedef enum opt_id {
    OPT_MODEL,
    OPT_PARAMS_TOTAL,
    OPT_PARAMS_ACTIVE,
    OPT_WEIGHT_BYTES,
    OPT_KV_BYTES,
    OPT_HW,
    OPT_CHIPS,
    OPT_FLOPS,
    OPT_HBM_BPS,
    OPT_HBM_BYTES,
    OPT_USD,
    OPT_DTYPE,
    OPT_KV_DTYPE,
    OPT_BATCH,
    OPT_CONTEXT,
    OPT_TARGET,
    OPT_SPEEDUP,
    OPT_JSON,
    OPT_CSV,
    OPT_HELP,
    OPT_COUNT
} opt_id;

typedef enum opt_group { G_MODEL, G_HW, G_PRECISION, G_WORKLOAD, G_OUTPUT } opt_group;

static const char *const GROUP_TITLES[] = {
    [G_MODEL] = "model (a preset, flags alone, or a preset with flags overriding it)",
    [G_HW] = "hardware (figures are per chip)",
    [G_PRECISION] = "precision",
    [G_WORKLOAD] = "workload (any one of these may be a sweep, see below)",
    [G_OUTPUT] = "output",
};

typedef struct opt_spec {
    const char *flag;
    const char *arg; /* placeholder for its value, NULL for a switch */
    opt_group group;
    const char *help;
} opt_spec;

static const opt_spec OPTS[OPT_COUNT] = {
    [OPT_MODEL] = {"--model", "NAME", G_MODEL, "model preset (chalk list models)"},
    [OPT_PARAMS_TOTAL] = {"--params-total", "N", G_MODEL, "all parameters, fetched every step"},
    [OPT_PARAMS_ACTIVE] = {"--params-active", "N", G_MODEL,
                           "parameters one token multiplies through (flags alone: "
                           "defaults to --params-total, a dense model)"},
    [OPT_WEIGHT_BYTES] = {"--weight-bytes", "X", G_MODEL,
                          "bytes per parameter (default: set by --dtype)"},
    [OPT_KV_BYTES] = {"--kv-bytes-per-token", "X", G_MODEL,
                      "KV cache bytes per token of context, all layers"},
    [OPT_HW] = {"--hw", "NAME", G_HW, "hardware preset (chalk list hw)"},
    [OPT_CHIPS] = {"--chips", "N", G_HW,
                   "chips sharing the work (default: the preset's scale-up domain; "
                   "1 without --hw)"},
    [OPT_FLOPS] = {"--flops-per-s", "X", G_HW, "peak FLOP/s per chip, 2 per MAC"},
    [OPT_HBM_BPS] = {"--hbm-bytes-per-s", "X", G_HW, "HBM bandwidth per chip"},
    [OPT_HBM_BYTES] = {"--hbm-bytes", "X", G_HW, "HBM capacity per chip"},
    [OPT_USD] = {"--usd-per-chip-hour", "X", G_HW, "rental price per chip-hour"},
    [OPT_DTYPE] = {"--dtype", "D", G_PRECISION,
                   "bf16|fp8|fp4|int8 (default bf16): picks the peak FLOP/s and, "
                   "unless overridden, the bytes per weight and per KV element"},
    [OPT_KV_DTYPE] = {"--kv-dtype", "D", G_PRECISION,
                      "precision of the KV cache elements (default: --dtype)"},
    [OPT_BATCH] = {"--batch", "B", G_WORKLOAD, "sequences per decode step (> 0)"},
    [OPT_CONTEXT] = {"--context", "T", G_WORKLOAD,
                     "tokens of context each sequence attends to (>= 0)"},
    [OPT_TARGET] = {"--target-step-s", "S", G_WORKLOAD, "largest acceptable step time, seconds"},
    [OPT_SPEEDUP] = {"--speedup", "S", G_WORKLOAD, "how many times faster the fast step is (>= 1)"},
    [OPT_JSON] = {"--json", NULL, G_OUTPUT,
                  "one JSON object ({\"rows\":[...]} for a sweep, an array for list)"},
    [OPT_CSV] = {"--csv", NULL, G_OUTPUT, "a header row, then one row per point"},
    [OPT_HELP] = {"--help", NULL, G_OUTPUT, "this help, on stdout"},
};

#define BIT(o) (1UL << (o))
#define MODEL_FLAGS                                                                                \
    (BIT(OPT_MODEL) | BIT(OPT_PARAMS_TOTAL) | BIT(OPT_PARAMS_ACTIVE) | BIT(OPT_WEIGHT_BYTES) |     \
     BIT(OPT_KV_BYTES) | BIT(OPT_DTYPE) | BIT(OPT_KV_DTYPE))
#define RATE_FLAGS (BIT(OPT_HW) | BIT(OPT_CHIPS) | BIT(OPT_FLOPS) | BIT(OPT_HBM_BPS))
#define OUTPUT_FLAGS (BIT(OPT_JSON) | BIT(OPT_CSV) | BIT(OPT_HELP))

typedef enum out_format { OUT_TABLE, OUT_JSON, OUT_CSV } out_format;

struct cmd_spec;

/* The command line, read but not yet interpreted. */
typedef struct invocation {
    const struct cmd_spec *cmd;
    const char *words[3]; /* positional words after the command */
    int nwords;
    const char *value[OPT_COUNT]; /* as typed; NULL when absent, "" for a switch */
    out_format format;
} invocation;

typedef struct cmd_spec {
    const char *name;
    const char *synopsis; /* what follows the name in a usage line */
    const char *summary;
    unsigned long flags;         /* BIT(opt) of every flag it accepts */
    const char *const *about;    /* description lines, NULL-terminated */
    const char *const *examples; /* NULL-terminated */
    int (*run)(const invocation *inv);
} cmd_spec;

/* ---- numbers ------------------------------------------------------------------ */

/* True for a plain decimal: [+-] digits [. digits] [e [+-] digits]. strtod alone
 * would also take "nan", "inf", hex and leading blanks. */
static bool is_decimal(const char *s)
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

/* Reads one number for `flag`; fails naming the flag and the text. */
static int parse_number(const char *flag, const char *text, double *out)
{
    if (*text == '\0')
        return fail("%s needs a number, got an empty string", flag);
    if (!is_decimal(text))
        return fail("%s: \"%s\" is not a number (write e.g. 2048, 0.5 or 671e9)", flag, text);
    double x = strtod(text, NULL);
    if (!isfinite(x))
        return fail("%s: \"%s\" is out of range", flag, text);
    *out = x;
    return STATUS_OK;
}

/* What values a flag allows. */
typedef enum range { R_POSITIVE, R_NONNEGATIVE, R_AT_LEAST_ONE, R_WHOLE } range;

static int check_range(const char *flag, double x, range r)
{
    switch (r) {
    case R_POSITIVE:
        return x > 0.0 ? STATUS_OK : fail("%s must be > 0 (got %g)", flag, x);
    case R_NONNEGATIVE:
        return x >= 0.0 ? STATUS_OK : fail("%s must be >= 0 (got %g)", flag, x);
    case R_AT_LEAST_ONE:
        return x >= 1.0 ? STATUS_OK : fail("%s must be >= 1 (got %g)", flag, x);
    case R_WHOLE:
        if (x >= 1.0 && x <= 1e6 && x == floor(x))
            return STATUS_OK;
        return fail("%s must be a whole number from 1 to 1000000 (got %g)", flag, x);
    }
    return STATUS_OK;
}

/* ---- sweeps ------------------------------------------------------------------- */

enum { SWEEP_DEFAULT_POINTS = 64, SWEEP_MAX_POINTS = 100000, ITEM_CHARS = 64 };

typedef enum sweep_kind { SWEEP_ONE, SWEEP_GEOMETRIC, SWEEP_LIST } sweep_kind;

/* One value, or the points of a sweep. A sweep keeps its text and computes the
 * i-th point on demand, so nothing is allocated. */
typedef struct sweep {
    bool given;
    sweep_kind kind;
    double lo, hi; /* SWEEP_ONE: lo is the value; SWEEP_GEOMETRIC: the ends */
    long points;
    const char *text; /* SWEEP_LIST: "a,b,c" as typed */
} sweep;

/* Copies the `i`-th comma-separated item of `text` into `item`; false when the
 * item is longer than the buffer or there is no such item. */
static bool list_item(const char *text, long i, char item[ITEM_CHARS])
{
    for (; i > 0; i--) {
        text = strchr(text, ',');
        if (!text)
            return false;
        text++;
    }
    size_t len = strcspn(text, ",");
    if (len >= ITEM_CHARS)
        return false;
    memcpy(item, text, len);
    item[len] = '\0';
    return true;
}

static double sweep_at(const sweep *s, long i)
{
    switch (s->kind) {
    case SWEEP_ONE:
        return s->lo;
    case SWEEP_GEOMETRIC: {
        if (i <= 0)
            return s->lo;
        if (i >= s->points - 1)
            return s->hi;
        double x = s->lo * pow(s->hi / s->lo, (double)i / (double)(s->points - 1));
        double whole = round(x);
        return fabs(x - whole) <= 1e-9 * x ? whole : x; /* 1:4096:13 gives 2^i */
    }
    case SWEEP_LIST: {
        char item[ITEM_CHARS];
        bool ok = list_item(s->text, i, item);
        assert(ok && "validated by parse_sweep");
        (void)ok;
        return strtod(item, NULL);
    }
    }
    return s->lo;
}

static bool sweeps(const sweep *s)
{
    return s->given && s->kind != SWEEP_ONE;
}

static int sweep_syntax_error(const char *flag, const char *text)
{
    return fail("%s \"%s\": a sweep is A:B (64 points), A:B:N or a list a,b,c", flag, text);
}

static int parse_geometric(const char *flag, const char *text, range r, sweep *s)
{
    char part[3][ITEM_CHARS];
    int parts = 0;
    for (const char *p = text;; parts++) {
        size_t len = strcspn(p, ":");
        if (parts == 3 || len >= ITEM_CHARS)
            return sweep_syntax_error(flag, text);
        memcpy(part[parts], p, len);
        part[parts][len] = '\0';
        if (p[len] == '\0') {
            parts++;
            break;
        }
        p += len + 1;
    }
    if (parts < 2 || !is_decimal(part[0]) || !is_decimal(part[1]))
        return sweep_syntax_error(flag, text);
    double points = parts == 3 && is_decimal(part[2]) ? strtod(part[2], NULL)
                    : parts == 3                      ? 0.0
                                                      : SWEEP_DEFAULT_POINTS;
    if (points != floor(points) || points < 2 || points > SWEEP_MAX_POINTS)
        return fail("%s \"%s\": N must be a whole number of points from 2 to %d", flag, text,
                    SWEEP_MAX_POINTS);
    int status;
    if ((status = parse_number(flag, part[0], &s->lo)) ||
        (status = parse_number(flag, part[1], &s->hi)))
        return status;
    if (!(s->lo > 0.0 && s->lo < s->hi))
        return fail("%s \"%s\": a geometric sweep A:B needs 0 < A < B (for 0, list "
                    "the points: 0,1024,4096)",
                    flag, text);
    if ((status = check_range(flag, s->lo, r)))
        return status;
    s->kind = SWEEP_GEOMETRIC;
    s->points = (long)points;
    return STATUS_OK;
}

static int parse_list(const char *flag, const char *text, range r, sweep *s)
{
    long n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ',';
    if (n > SWEEP_MAX_POINTS)
        return fail("%s: at most %d points", flag, SWEEP_MAX_POINTS);
    for (long i = 0; i < n; i++) {
        char item[ITEM_CHARS];
        double x = 0.0;
        int status;
        if (!list_item(text, i, item) || item[0] == '\0')
            return sweep_syntax_error(flag, text);
        if ((status = parse_number(flag, item, &x)) || (status = check_range(flag, x, r)))
            return status;
    }
    s->kind = SWEEP_LIST;
    s->points = n;
    s->text = text;
    return STATUS_OK;
}

/* Reads a value or a sweep (A:B, A:B:N, a,b,c) for `flag`, checking every point. */
static int parse_sweep(const char *flag, const char *text, range r, sweep *s)
{
    memset(s, 0, sizeof *s);
    if (!text)
        return STATUS_OK;
    s->given = true;
    if (strchr(text, ':'))
        return parse_geometric(flag, text, r, s);
    if (strchr(text, ','))
        return parse_list(flag, text, r, s);
    int status;
    if ((status = parse_number(flag, text, &s->lo)) || (status = check_range(flag, s->lo, r)))
        return status;
    s->kind = SWEEP_ONE;
    s->points = 1;
    return STATUS_OK;
}

/* ---- nearest names ---------------------------------------------------------- */

enum { NAME_CHARS = 64, MAX_NAMES = 64, MAX_SUGGESTIONS = 4 };

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

/* Writes " (did you mean a, b?)" for the names nearest `query`: those containing it
 * (or contained in it), then those at the smallest edit distance if it is small.
 * With no near name, lists them all: " (known: ...)". */
static void suggest(char *buf, size_t size, const char *query, const char *const *names,
                    size_t count)
{
    const char *picks[MAX_SUGGESTIONS];
    size_t npicks = 0;
    bool picked[MAX_NAMES] = {false};
    size_t qlen = strlen(query);
    for (size_t i = 0; i < count && i < MAX_NAMES && npicks < MAX_SUGGESTIONS; i++)
        if (qlen >= 3 && (contains_nocase(names[i], query) || contains_nocase(query, names[i]))) {
            picks[npicks++] = names[i];
            picked[i] = true;
        }
    int best = NAME_CHARS;
    for (size_t i = 0; i < count && i < MAX_NAMES; i++)
        if (!picked[i] && edit_distance(query, names[i]) < best)
            best = edit_distance(query, names[i]);
    int near = qlen / 3 > 2 ? (int)(qlen / 3) : 2;
    for (size_t i = 0; i < count && i < MAX_NAMES && npicks < MAX_SUGGESTIONS; i++)
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

static int unknown_hw(const char *name)
{
    size_t n;
    const cost_hw *const *all = cost_hw_presets(&n);
    const char *names[MAX_NAMES];
    for (size_t i = 0; i < n && i < MAX_NAMES; i++)
        names[i] = all[i]->name;
    char hint[512];
    suggest(hint, sizeof hint, name, names, n < MAX_NAMES ? n : MAX_NAMES);
    return fail("unknown hw \"%s\"%s", name, hint);
}

static int unknown_model(const char *name)
{
    size_t n;
    const cost_model *const *all = cost_model_presets(&n);
    const char *names[MAX_NAMES];
    for (size_t i = 0; i < n && i < MAX_NAMES; i++)
        names[i] = all[i]->name;
    char hint[512];
    suggest(hint, sizeof hint, name, names, n < MAX_NAMES ? n : MAX_NAMES);
    return fail("unknown model \"%s\"%s", name, hint);
}

/* ---- records: what one point of a command computed, as named values ---------- */

/* How a value is shown to a human; JSON and CSV always carry plain SI numbers. */
typedef enum unit_kind {
    U_PLAIN,
    U_PARAMS,
    U_SEQUENCES,
    U_TOKENS,
    U_SECONDS,
    U_BYTES,
    U_BYTES_PER_TOKEN,
    U_BYTES_PER_PARAM,
    U_BYTES_PER_S,
    U_FLOPS,
    U_FLOPS_PER_S,
    U_TOKENS_PER_S,
    U_USD_PER_MTOK,
    U_USD_PER_HOUR,
} unit_kind;

typedef struct unit_spec {
    const char *column;  /* the unit of a table column ("" for a bare number) */
    double column_scale; /* SI value / column_scale = the number in the column */
    const char *word;    /* after a single value, when not scaled automatically */
} unit_spec;

static const unit_spec UNITS[] = {
    [U_PLAIN] = {"", 1.0, ""},
    [U_PARAMS] = {"billion", 1e9, "billion"},
    [U_SEQUENCES] = {"", 1.0, "sequences"},
    [U_TOKENS] = {"", 1.0, "tokens"},
    [U_SECONDS] = {"ms", COST_MS_S, ""},
    [U_BYTES] = {"GB", COST_GB_BYTES, ""},
    [U_BYTES_PER_TOKEN] = {"kB/token", COST_KB_BYTES, ""},
    [U_BYTES_PER_PARAM] = {"bytes", 1.0, "bytes/param"},
    [U_BYTES_PER_S] = {"GB/s", COST_GB_BYTES, ""},
    [U_FLOPS] = {"GFLOP", 1e9, "GFLOP"},
    [U_FLOPS_PER_S] = {"TFLOP/s", 1e12, "TFLOP/s"},
    [U_TOKENS_PER_S] = {"tokens/s", 1.0, "tokens/s"},
    [U_USD_PER_MTOK] = {"USD/Mtok", 1.0, "USD/Mtok"},
    [U_USD_PER_HOUR] = {"USD/h", 1.0, "USD/chip-hour"},
};

typedef enum value_kind { V_NUMBER, V_STRING, V_BOOL, V_NULL, V_BY_DTYPE } value_kind;

enum {
    FL_INPUT = 1u << 0,  /* echoes an input (shown once above a sweep's table) */
    FL_DETAIL = 1u << 1, /* left out of column tables (lists and sweeps) */
};

enum { MAX_FIELDS = 48, TEXT_CHARS = 256 };

typedef struct field {
    const char *key;   /* JSON key and CSV column */
    const char *label; /* for humans */
    value_kind kind;
    unit_kind unit;
    unsigned flags;
    double number;
    bool yes;
    double by_dtype[COST_DTYPE_COUNT]; /* V_BY_DTYPE; 0 = none for that precision */
    char text[TEXT_CHARS];             /* V_STRING */
    char note[TEXT_CHARS];             /* table only: a remark beside the value */
} field;

typedef struct record {
    field fields[MAX_FIELDS];
    int count;
} record;

static field *put(record *r, const char *key, const char *label, value_kind kind, unit_kind unit,
                  unsigned flags)
{
    assert(r->count < MAX_FIELDS && "raise MAX_FIELDS");
    field *f = &r->fields[r->count++];
    memset(f, 0, sizeof *f);
    f->key = key;
    f->label = label;
    f->kind = kind;
    f->unit = unit;
    f->flags = flags;
    return f;
}

static field *put_number(record *r, const char *key, const char *label, unit_kind unit,
                         unsigned flags, double x)
{
    field *f = put(r, key, label, V_NUMBER, unit, flags);
    f->number = x;
    return f;
}

/* A number, or null when `known` is false. */
static field *put_maybe(record *r, const char *key, const char *label, unit_kind unit,
                        unsigned flags, bool known, double x)
{
    if (!known)
        return put(r, key, label, V_NULL, unit, flags);
    return put_number(r, key, label, unit, flags, x);
}

/* A string, or null when `s` is NULL. */
static field *put_string(record *r, const char *key, const char *label, unsigned flags,
                         const char *s)
{
    field *f = put(r, key, label, s ? V_STRING : V_NULL, U_PLAIN, flags);
    if (s)
        snprintf(f->text, sizeof f->text, "%s", s);
    return f;
}

static field *put_bool(record *r, const char *key, const char *label, unsigned flags, bool yes)
{
    field *f = put(r, key, label, V_BOOL, U_PLAIN, flags);
    f->yes = yes;
    return f;
}

static void set_note(field *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->note, sizeof f->note, fmt, ap);
    va_end(ap);
}

/* ---- formatting for humans ------------------------------------------------------ */

/* About four significant digits, no exponent in the usual range, thousands
 * separated: 14.4, 0.5208, 2,400, 128,205. */
static void format_sig(char *buf, size_t size, double x)
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

enum { NUMBER_CHARS = 24, SHORT_CHARS = 40 };

typedef struct scale_step {
    double scale;
    const char *name;
} scale_step;

static const scale_step TIME_STEPS[] = {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
static const scale_step BYTE_STEPS[] = {
    {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}, {1.0, "bytes"}};

/* x in the largest step it reaches, e.g. 0.0144 s -> "14.4 ms". */
static void format_scaled(char *buf, size_t size, double x, const scale_step *steps, size_t nsteps,
                          const char *suffix)
{
    size_t i = 0;
    while (i + 1 < nsteps && fabs(x) < steps[i].scale)
        i++;
    if (x == 0.0)
        i = nsteps - 1;
    char number[NUMBER_CHARS];
    format_sig(number, sizeof number, x / steps[i].scale);
    snprintf(buf, size, "%s %s%s", number, steps[i].name, suffix);
}

/* One number for a single-point table, with a readable unit. */
static void format_auto(char *buf, size_t size, unit_kind unit, double x)
{
    size_t nbytes = sizeof BYTE_STEPS / sizeof BYTE_STEPS[0];
    switch (unit) {
    case U_SECONDS:
        format_scaled(buf, size, x, TIME_STEPS, sizeof TIME_STEPS / sizeof TIME_STEPS[0], "");
        return;
    case U_BYTES:
        format_scaled(buf, size, x, BYTE_STEPS, nbytes, "");
        return;
    case U_BYTES_PER_TOKEN:
        format_scaled(buf, size, x, BYTE_STEPS, nbytes, "/token");
        return;
    case U_BYTES_PER_S:
        format_scaled(buf, size, x, BYTE_STEPS, nbytes, "/s");
        return;
    default: {
        char number[NUMBER_CHARS];
        format_sig(number, sizeof number, x / UNITS[unit].column_scale);
        snprintf(buf, size, "%s%s%s", number, *UNITS[unit].word ? " " : "", UNITS[unit].word);
    }
    }
}

/* A field's value for a single-point table. */
static void format_value(char *buf, size_t size, const field *f)
{
    switch (f->kind) {
    case V_NUMBER:
        format_auto(buf, size, f->unit, f->number);
        return;
    case V_STRING:
        snprintf(buf, size, "%s", f->text);
        return;
    case V_BOOL:
        snprintf(buf, size, "%s", f->yes ? "yes" : "no");
        return;
    case V_NULL: /* a null may carry words for humans, e.g. "(from flags)" */
        snprintf(buf, size, "%s", f->text[0] ? f->text : "n/a");
        return;
    case V_BY_DTYPE: {
        size_t used = 0;
        buf[0] = '\0';
        for (int d = 0; d < COST_DTYPE_COUNT && used < size; d++) {
            if (f->by_dtype[d] <= 0.0)
                continue;
            char number[NUMBER_CHARS];
            format_sig(number, sizeof number, f->by_dtype[d] / UNITS[f->unit].column_scale);
            used += (size_t)snprintf(buf + used, size - used, "%s%s %s", used ? ", " : "",
                                     cost_dtype_name((cost_dtype)d), number);
        }
        if (used < size && *UNITS[f->unit].word)
            snprintf(buf + used, size - used, " %s", UNITS[f->unit].word);
        return;
    }
    }
}

/* A field's value in a table column, in the column's fixed unit. `dtype` picks
 * one entry of a V_BY_DTYPE field. */
static void format_cell(char *buf, size_t size, const field *f, int dtype)
{
    double scale = UNITS[f->unit].column_scale;
    switch (f->kind) {
    case V_NUMBER:
        format_sig(buf, size, f->number / scale);
        return;
    case V_BY_DTYPE:
        if (f->by_dtype[dtype] > 0.0)
            format_sig(buf, size, f->by_dtype[dtype] / scale);
        else
            snprintf(buf, size, "-");
        return;
    case V_NULL:
        snprintf(buf, size, "-");
        return;
    default:
        format_value(buf, size, f);
    }
}

/* ---- JSON and CSV ----------------------------------------------------------------- */

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* %.17g reads back to the same double; JSON has no inf or nan, so those are null. */
static void json_number(double x)
{
    if (isfinite(x))
        printf("%.17g", x);
    else
        printf("null");
}

static void json_value(const field *f)
{
    switch (f->kind) {
    case V_NUMBER:
        json_number(f->number);
        return;
    case V_STRING:
        json_string(f->text);
        return;
    case V_BOOL:
        printf(f->yes ? "true" : "false");
        return;
    case V_NULL:
        printf("null");
        return;
    case V_BY_DTYPE: {
        bool first = true;
        putchar('{');
        for (int d = 0; d < COST_DTYPE_COUNT; d++) {
            if (f->by_dtype[d] <= 0.0)
                continue;
            printf(first ? "" : ",");
            json_string(cost_dtype_name((cost_dtype)d));
            putchar(':');
            json_number(f->by_dtype[d]);
            first = false;
        }
        putchar('}');
        return;
    }
    }
}

/* One object: indented one key a line, or compact on one line. */
static void json_record(const record *r, bool indented)
{
    putchar('{');
    for (int i = 0; i < r->count; i++) {
        printf(i ? (indented ? ",\n  " : ",") : (indented ? "\n  " : ""));
        json_string(r->fields[i].key);
        printf(indented ? ": " : ":");
        json_value(&r->fields[i]);
    }
    printf(indented ? "\n}" : "}");
}

static void csv_text(const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

/* A by-precision field spreads over one column per precision: key_bf16, key_fp8... */
static void csv_header(const record *r)
{
    for (int i = 0; i < r->count; i++) {
        const field *f = &r->fields[i];
        if (f->kind != V_BY_DTYPE) {
            printf("%s%s", i ? "," : "", f->key);
            continue;
        }
        for (int d = 0; d < COST_DTYPE_COUNT; d++)
            printf("%s%s_%s", i || d ? "," : "", f->key, cost_dtype_name((cost_dtype)d));
    }
    putchar('\n');
}

static void csv_row(const record *r)
{
    for (int i = 0; i < r->count; i++) {
        const field *f = &r->fields[i];
        if (i)
            putchar(',');
        switch (f->kind) {
        case V_NUMBER:
            if (isfinite(f->number))
                printf("%.17g", f->number);
            break;
        case V_STRING:
            csv_text(f->text);
            break;
        case V_BOOL:
            printf(f->yes ? "true" : "false");
            break;
        case V_NULL:
            break; /* an empty cell */
        case V_BY_DTYPE:
            for (int d = 0; d < COST_DTYPE_COUNT; d++) {
                if (d)
                    putchar(',');
                if (f->by_dtype[d] > 0.0)
                    printf("%.17g", f->by_dtype[d]);
            }
            break;
        }
    }
    putchar('\n');
}

/* ---- reports: one record per point, printed in the chosen format ------------------- */

/* What a command prints: `rows` records, each built on demand by `build`. */
typedef struct report {
    const char *title; /* the heading of a table */
    long rows;
    bool is_list;      /* presets, not a computation: a JSON array, no echo block */
    const char *swept; /* key of the swept input, NULL when nothing is swept */
    void (*build)(const void *ctx, long row, record *out);
    const void *ctx;
} report;

enum { CELL_CHARS = 96, MAX_COLUMNS = MAX_FIELDS + 3 * COST_DTYPE_COUNT };

/* A column of a table: a field, and for a by-precision field one precision. */
typedef struct column {
    int field;
    int dtype;
    int width;
    bool left; /* strings read better left-aligned */
    char header[64];
} column;

static bool is_swept(const report *rep, const field *f)
{
    return rep->swept && strcmp(rep->swept, f->key) == 0;
}

/* The label and the value (and its note) of every field, one a line. */
static void print_fields(const record *r, const report *rep, bool inputs_only)
{
    int label_width = 0, value_width = 0;
    char value[TEXT_CHARS + 64];
    for (int i = 0; i < r->count; i++) {
        const field *f = &r->fields[i];
        format_value(value, sizeof value, f);
        if ((int)strlen(f->label) > label_width)
            label_width = (int)strlen(f->label);
        if (f->note[0] && (int)strlen(value) > value_width && strlen(value) < 28)
            value_width = (int)strlen(value);
    }
    bool printed = false, in_inputs = true;
    for (int i = 0; i < r->count; i++) {
        const field *f = &r->fields[i];
        if (inputs_only && (!(f->flags & FL_INPUT) || is_swept(rep, f)))
            continue;
        if (f->kind == V_NULL && (f->flags & FL_DETAIL))
            continue; /* e.g. a reason when there was a value: nothing to say */
        if (in_inputs && !(f->flags & FL_INPUT) && printed)
            putchar('\n'); /* inputs, then results */
        in_inputs = f->flags & FL_INPUT;
        printed = true;
        format_value(value, sizeof value, f);
        if (f->note[0])
            printf("  %-*s  %-*s  %s\n", label_width, f->label, value_width, value, f->note);
        else
            printf("  %-*s  %s\n", label_width, f->label, value);
    }
}

/* The columns of a list or sweep table: the swept input first, then every result
 * that is not a detail; a by-precision field gives a column per precision it has. */
static int plan_columns(const report *rep, const record *first, column *cols)
{
    int n = 0;
    for (int pass = 0; pass < 3; pass++) /* swept input, results, a title last */
        for (int i = 0; i < first->count; i++) {
            const field *f = &first->fields[i];
            bool shown = !is_swept(rep, f) && !(f->flags & FL_DETAIL) &&
                         (rep->is_list || !(f->flags & FL_INPUT));
            bool is_title = strcmp(f->key, "title") == 0;
            bool wanted = pass == 0   ? is_swept(rep, f)
                          : pass == 1 ? shown && !is_title
                                      : shown && is_title;
            if (!wanted)
                continue;
            const char *unit = UNITS[f->unit].column;
            for (int d = 0; d < (f->kind == V_BY_DTYPE ? COST_DTYPE_COUNT : 1); d++) {
                assert(n < MAX_COLUMNS);
                column *c = &cols[n++];
                c->field = i;
                c->dtype = d;
                c->left = f->kind == V_STRING;
                const char *name =
                    f->kind == V_BY_DTYPE ? cost_dtype_name((cost_dtype)d) : f->label;
                if (*unit)
                    snprintf(c->header, sizeof c->header, "%s (%s)", name, unit);
                else
                    snprintf(c->header, sizeof c->header, "%s", name);
                c->width = (int)strlen(c->header);
            }
        }
    return n;
}

/* A by-precision column is dropped when no row has that precision. */
static bool column_used(const report *rep, const column *c, record *scratch)
{
    if (scratch->fields[c->field].kind != V_BY_DTYPE)
        return true;
    for (long row = 0; row < rep->rows; row++) {
        rep->build(rep->ctx, row, scratch);
        if (scratch->fields[c->field].by_dtype[c->dtype] > 0.0)
            return true;
    }
    return false;
}

static void print_columns(const report *rep, record *r)
{
    column cols[MAX_COLUMNS];
    rep->build(rep->ctx, 0, r);
    int planned = plan_columns(rep, r, cols), n = 0;
    for (int c = 0; c < planned; c++)
        if (column_used(rep, &cols[c], r))
            cols[n++] = cols[c];
    char cell[CELL_CHARS];
    for (long row = 0; row < rep->rows; row++) { /* pass 1: widths */
        rep->build(rep->ctx, row, r);
        for (int c = 0; c < n; c++) {
            format_cell(cell, sizeof cell, &r->fields[cols[c].field], cols[c].dtype);
            if ((int)strlen(cell) > cols[c].width)
                cols[c].width = (int)strlen(cell);
        }
    }
    for (int c = 0; c < n; c++) {
        int width = cols[c].left ? (c + 1 == n ? 0 : -cols[c].width) : cols[c].width;
        printf(c ? "  %*s" : "%*s", width, cols[c].header);
    }
    putchar('\n');
    for (long row = 0; row < rep->rows; row++) { /* pass 2: the rows */
        rep->build(rep->ctx, row, r);
        for (int c = 0; c < n; c++) {
            format_cell(cell, sizeof cell, &r->fields[cols[c].field], cols[c].dtype);
            bool last = c + 1 == n;
            int width = cols[c].left ? (last ? 0 : -cols[c].width) : cols[c].width;
            printf(c ? "  %*s" : "%*s", width, cell);
        }
        putchar('\n');
    }
}

static void print_report(const report *rep, out_format format)
{
    record r;
    memset(&r, 0, sizeof r);
    bool many = rep->is_list || rep->swept;
    switch (format) {
    case OUT_JSON:
        if (!many) {
            rep->build(rep->ctx, 0, &r);
            json_record(&r, true);
            putchar('\n');
            return;
        }
        printf(rep->is_list ? "[\n" : "{\"rows\":[\n");
        for (long row = 0; row < rep->rows; row++) {
            rep->build(rep->ctx, row, &r);
            json_record(&r, false);
            printf(row + 1 < rep->rows ? ",\n" : "\n");
        }
        printf(rep->is_list ? "]\n" : "]}\n");
        return;
    case OUT_CSV:
        for (long row = 0; row < rep->rows; row++) {
            rep->build(rep->ctx, row, &r);
            if (row == 0)
                csv_header(&r);
            csv_row(&r);
        }
        return;
    case OUT_TABLE:
        if (!many) {
            rep->build(rep->ctx, 0, &r);
            printf("%s\n\n", rep->title);
            print_fields(&r, rep, false);
            return;
        }
        if (rep->swept) {
            rep->build(rep->ctx, 0, &r);
            printf("%s\n\n", rep->title);
            print_fields(&r, rep, true);
            printf("\n");
        }
        print_columns(rep, &r);
        return;
    }
}

/* ---- the deployment: presets, then overrides ------------------------------------- */

/* What a command needs before it can compute. */
enum {
    NEED_PARAMS = 1u << 0, /* params_total, params_active, bytes per weight */
    NEED_FLOPS = 1u << 1,  /* peak FLOP/s per chip */
    NEED_BW = 1u << 2,     /* HBM bandwidth per chip */
    NEED_HBM = 1u << 3,    /* HBM capacity per chip */
    NEED_BATCH = 1u << 4,
    NEED_CONTEXT = 1u << 5,
    NEED_SPEEDUP = 1u << 6,
};

/* A model and the hardware it runs on, resolved from presets and flags. */
typedef struct setup {
    const char *cmd;         /* the command, for error messages */
    const cost_model *model; /* NULL: the model comes from flags alone */
    const cost_hw *hw;       /* NULL: the hardware comes from flags alone */
    cost_dtype dtype;        /* precision of the math and, by default, of the weights */
    cost_dtype kv_dtype;     /* precision of the KV elements */
    batching_deploy d;
    bool has_params, has_kv, has_flops, has_bw, has_hbm, has_price;
    bool kv_from_flag;    /* --kv-bytes-per-token: kv_dtype played no part */
    bool active_is_total; /* dense, no --params-active: it follows --params-total */
    bool chips_given;
    char overrides[192]; /* flags that changed a preset's value, for the echo */
    sweep batch, context, target, speedup;
    const char *swept; /* key of the one swept input, NULL for none */
} setup;

/* Reads the number given for `o`, if any, into *x. A flag that changes a preset's
 * value (`preset_side`) is recorded for the echo. */
static int read_override(const invocation *inv, opt_id o, range r, setup *s, double *x,
                         bool preset_side)
{
    const char *text = inv->value[o];
    if (!text)
        return STATUS_OK;
    int status;
    if ((status = parse_number(OPTS[o].flag, text, x)) ||
        (status = check_range(OPTS[o].flag, *x, r)))
        return status;
    if (preset_side) {
        size_t used = strlen(s->overrides);
        snprintf(s->overrides + used, sizeof s->overrides - used, "%s%s", used ? " " : "",
                 OPTS[o].flag);
    }
    return STATUS_OK;
}

static int parse_dtypes(const invocation *inv, setup *s)
{
    s->dtype = COST_BF16;
    const char *d = inv->value[OPT_DTYPE], *kv = inv->value[OPT_KV_DTYPE];
    if (d && !cost_dtype_parse(d, &s->dtype))
        return fail("--dtype: unknown precision \"%s\" (pick bf16|fp8|fp4|int8)", d);
    s->kv_dtype = s->dtype;
    if (kv && !cost_dtype_parse(kv, &s->kv_dtype))
        return fail("--kv-dtype: unknown precision \"%s\" (pick bf16|fp8|fp4|int8)", kv);
    return STATUS_OK;
}

/* The model's side: the preset's shape, then --params-*, --weight-bytes, --kv-... */
static int resolve_model(const invocation *inv, setup *s)
{
    const char *name = inv->value[OPT_MODEL];
    if (name && !(s->model = cost_model_find(name)))
        return unknown_model(name);
    batching_deploy *d = &s->d;
    d->bytes_per_param = cost_dtype_bytes(s->dtype);
    if (s->model) {
        d->params_total = cost_model_params_total(s->model);
        d->params_active = cost_model_params_active(s->model);
        d->kv_bytes_per_token = cost_model_kv_bytes_per_token(s->model, s->kv_dtype);
        s->has_params = s->has_kv = true;
    }
    bool preset = s->model != NULL;
    int status;
    double x = 0.0;
    if ((status = read_override(inv, OPT_PARAMS_TOTAL, R_POSITIVE, s, &x, preset)))
        return status;
    if (inv->value[OPT_PARAMS_TOTAL]) {
        d->params_total = x;
        s->has_params = true;
    }
    if ((status = read_override(inv, OPT_PARAMS_ACTIVE, R_POSITIVE, s, &x, preset)))
        return status;
    bool dense = !preset || s->model->experts_routed == 0;
    if (inv->value[OPT_PARAMS_ACTIVE]) {
        d->params_active = x;
    } else if (dense && inv->value[OPT_PARAMS_TOTAL]) {
        d->params_active = d->params_total; /* a dense model stays dense */
        s->active_is_total = true;
    }
    if (inv->value[OPT_PARAMS_ACTIVE] && !s->has_params)
        return fail("--params-active needs --params-total (or --model NAME)");
    if (s->has_params && d->params_active > d->params_total)
        return fail("params_active (%g) exceeds params_total (%g)", d->params_active,
                    d->params_total);
    if ((status = read_override(inv, OPT_WEIGHT_BYTES, R_POSITIVE, s, &x, preset)))
        return status;
    if (inv->value[OPT_WEIGHT_BYTES])
        d->bytes_per_param = x;
    if ((status = read_override(inv, OPT_KV_BYTES, R_NONNEGATIVE, s, &x, preset)))
        return status;
    if (inv->value[OPT_KV_BYTES]) {
        d->kv_bytes_per_token = x;
        s->has_kv = s->kv_from_flag = true;
    }
    return STATUS_OK;
}

/* The hardware's side: the preset's per-chip figures at --dtype, then overrides. */
static int resolve_hw(const invocation *inv, setup *s)
{
    const char *name = inv->value[OPT_HW];
    if (name && !(s->hw = cost_hw_find(name)))
        return unknown_hw(name);
    batching_deploy *d = &s->d;
    d->chips = 1;
    if (s->hw) {
        d->chips = s->hw->scaleup_domain_chips;
        d->hbm_bytes_per_s = s->hw->hbm_bytes_per_s;
        d->hbm_bytes = s->hw->hbm_bytes;
        s->has_bw = s->has_hbm = true;
        if (cost_hw_supports(s->hw, s->dtype)) {
            d->flops_per_s = cost_hw_peak_flops_per_s(s->hw, s->dtype);
            s->has_flops = true;
        }
        if (cost_hw_has_price(s->hw)) {
            d->usd_per_chip_hour = s->hw->usd_per_chip_hour;
            s->has_price = true;
        }
    }
    bool preset = s->hw != NULL;
    int status;
    double x = 0.0;
    if ((status = read_override(inv, OPT_CHIPS, R_WHOLE, s, &x, false)))
        return status;
    if (inv->value[OPT_CHIPS]) {
        d->chips = (int)x;
        s->chips_given = true;
    }
    struct {
        opt_id opt;
        double *to;
        bool *has;
    } rates[] = {
        {OPT_FLOPS, &d->flops_per_s, &s->has_flops},
        {OPT_HBM_BPS, &d->hbm_bytes_per_s, &s->has_bw},
        {OPT_HBM_BYTES, &d->hbm_bytes, &s->has_hbm},
        {OPT_USD, &d->usd_per_chip_hour, &s->has_price},
    };
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        if ((status = read_override(inv, rates[i].opt, R_POSITIVE, s, &x, preset)))
            return status;
        if (inv->value[rates[i].opt]) {
            *rates[i].to = x;
            *rates[i].has = true;
        }
    }
    return STATUS_OK;
}

static int resolve_workload(const invocation *inv, setup *s)
{
    struct {
        opt_id opt;
        range r;
        sweep *to;
        const char *key;
    } inputs[] = {
        {OPT_BATCH, R_POSITIVE, &s->batch, "batch"},
        {OPT_CONTEXT, R_NONNEGATIVE, &s->context, "context"},
        {OPT_TARGET, R_POSITIVE, &s->target, "target_step_s"},
        {OPT_SPEEDUP, R_AT_LEAST_ONE, &s->speedup, "speedup"},
    };
    const char *swept_flag = NULL;
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        int status = parse_sweep(OPTS[inputs[i].opt].flag, inv->value[inputs[i].opt], inputs[i].r,
                                 inputs[i].to);
        if (status)
            return status;
        if (!sweeps(inputs[i].to))
            continue;
        if (swept_flag)
            return fail("sweep one variable at a time (both %s and %s are sweeps)", swept_flag,
                        OPTS[inputs[i].opt].flag);
        swept_flag = OPTS[inputs[i].opt].flag;
        s->swept = inputs[i].key;
    }
    return STATUS_OK;
}

/* "bf16|fp8|int8": the precisions the chip has a peak for. */
static void supported_dtypes(const cost_hw *hw, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int d = 0; d < COST_DTYPE_COUNT && used < size; d++)
        if (cost_hw_supports(hw, (cost_dtype)d))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "|" : "",
                                     cost_dtype_name((cost_dtype)d));
}

static bool any_context_positive(const sweep *context)
{
    if (!context->given)
        return false;
    for (long i = 0; i < context->points; i++)
        if (sweep_at(context, i) > 0.0)
            return true;
    return false;
}

/* A needed input that is missing is an error naming the flag, never a default. */
static int check_needs(const setup *s, unsigned needs)
{
    const char *cmd = s->cmd;
    if ((needs & NEED_PARAMS) && !s->has_params)
        return fail("%s needs --params-total N (or --model NAME)", cmd);
    if ((needs & NEED_FLOPS) && !s->has_flops) {
        if (!s->hw)
            return fail("%s needs --flops-per-s X (or --hw NAME)", cmd);
        char choices[64];
        supported_dtypes(s->hw, choices, sizeof choices);
        return fail("%s has no %s peak; pick --dtype %s or pass --flops-per-s", s->hw->name,
                    cost_dtype_name(s->dtype), choices);
    }
    if ((needs & NEED_BW) && !s->has_bw)
        return fail("%s needs --hbm-bytes-per-s X (or --hw NAME)", cmd);
    if ((needs & NEED_HBM) && !s->has_hbm)
        return fail("%s needs --hbm-bytes X (or --hw NAME)", cmd);
    if ((needs & NEED_BATCH) && !s->batch.given)
        return fail("%s needs --batch B (sequences per step)", cmd);
    if ((needs & NEED_CONTEXT) && !s->context.given)
        return fail("%s needs --context T (tokens of context; 0 for none)", cmd);
    if ((needs & NEED_SPEEDUP) && !s->speedup.given)
        return fail("%s needs --speedup S (how many times faster, >= 1)", cmd);
    if ((needs & NEED_PARAMS) && !s->has_kv && any_context_positive(&s->context))
        return fail("%s needs --kv-bytes-per-token X (or --model NAME) when --context > 0", cmd);
    return STATUS_OK;
}

static int resolve(const invocation *inv, unsigned needs, setup *s)
{
    *s = (setup){.cmd = inv->cmd->name};
    int status;
    if ((status = parse_dtypes(inv, s)) || (status = resolve_model(inv, s)) ||
        (status = resolve_hw(inv, s)) || (status = resolve_workload(inv, s)))
        return status;
    return check_needs(s, needs);
}

/* Bytes resident in HBM: the weights and `batch` KV caches. A decode step reads all
 * of it exactly once (lecture 1.6), so it is the memory terms times the aggregate
 * bandwidth; no new formula is needed. */
static double resident_bytes(const batching_deploy *d, double batch, double context_tokens)
{
    double memory_s = batching_weights_s(d) + batching_kv_s(d, batch, context_tokens);
    return memory_s * d->chips * d->hbm_bytes_per_s;
}

/* ---- the input echo shared by the model-and-hardware commands --------------------- */

static void put_hw_name(record *r, const setup *s)
{
    field *f = put_string(r, "hw", "hw", FL_INPUT, s->hw ? s->hw->name : NULL);
    if (s->hw)
        set_note(f, "%s", s->hw->title);
    else
        snprintf(f->text, sizeof f->text, "(from flags)"); /* JSON: null */
}

enum {
    ECHO_BATCH = 1u << 0,
    ECHO_CONTEXT = 1u << 1,
    ECHO_FLOPS = 1u << 2,
    ECHO_HBM = 1u << 3,
    ECHO_PRICE = 1u << 4,
};

static void put_setup(record *r, const setup *s, long row, unsigned echo)
{
    const batching_deploy *d = &s->d;
    field *f = put_string(r, "model", "model", FL_INPUT, s->model ? s->model->name : NULL);
    if (s->model)
        set_note(f, "%s", s->model->title);
    else
        snprintf(f->text, sizeof f->text, "(from flags)"); /* JSON: null */
    put_hw_name(r, s);
    f = put_number(r, "chips", "chips", U_PLAIN, FL_INPUT, d->chips);
    if (!s->chips_given && s->hw)
        set_note(f, "default: the scale-up domain of %s", s->hw->name);
    else if (!s->chips_given)
        set_note(f, "default without --hw: one chip");
    put_string(r, "dtype", "dtype", FL_INPUT, cost_dtype_name(s->dtype));
    f = put_string(r, "kv_dtype", "KV dtype", FL_INPUT | FL_DETAIL,
                   s->kv_from_flag ? NULL : cost_dtype_name(s->kv_dtype));
    if (echo & ECHO_BATCH)
        put_number(r, "batch", "batch", U_SEQUENCES, FL_INPUT, sweep_at(&s->batch, row));
    if (echo & ECHO_CONTEXT)
        put_maybe(r, "context", "context", U_TOKENS, FL_INPUT, s->context.given,
                  sweep_at(&s->context, row));
    put_number(r, "params_total", "params total", U_PARAMS, FL_INPUT, d->params_total);
    f = put_number(r, "params_active", "params active", U_PARAMS, FL_INPUT, d->params_active);
    if (s->active_is_total)
        set_note(f, "dense: follows --params-total");
    put_number(r, "bytes_per_param", "bytes per param", U_BYTES_PER_PARAM, FL_INPUT,
               d->bytes_per_param);
    put_maybe(r, "kv_bytes_per_token", "KV bytes per token", U_BYTES_PER_TOKEN, FL_INPUT, s->has_kv,
              d->kv_bytes_per_token);
    if (echo & ECHO_FLOPS)
        put_maybe(r, "flops_per_s", "peak per chip", U_FLOPS_PER_S, FL_INPUT, s->has_flops,
                  d->flops_per_s);
    put_number(r, "hbm_bytes_per_s", "HBM bandwidth", U_BYTES_PER_S, FL_INPUT, d->hbm_bytes_per_s);
    if (echo & ECHO_HBM)
        put_maybe(r, "hbm_bytes", "HBM per chip", U_BYTES, FL_INPUT, s->has_hbm, d->hbm_bytes);
    if (echo & ECHO_PRICE) {
        f = put_maybe(r, "usd_per_chip_hour", "price", U_USD_PER_HOUR, FL_INPUT, s->has_price,
                      d->usd_per_chip_hour);
        if (!s->has_price)
            snprintf(f->text, sizeof f->text, "unknown"); /* JSON: null */
    }
    put_string(r, "overrides", "overrides", FL_INPUT | FL_DETAIL,
               s->overrides[0] ? s->overrides : NULL);
}

/* ---- decode ------------------------------------------------------------------------ */

static void build_decode(const void *ctx, long row, record *r)
{
    const setup *s = ctx;
    const batching_deploy *d = &s->d;
    double batch = sweep_at(&s->batch, row), context = sweep_at(&s->context, row);
    r->count = 0;
    put_setup(r, s, row, ECHO_BATCH | ECHO_CONTEXT | ECHO_FLOPS | ECHO_HBM | ECHO_PRICE);

    batching_step st = batching_step_at(d, batch, context);
    put_number(r, "compute_s", "compute", U_SECONDS, 0, st.compute_s);
    put_number(r, "weights_s", "weight fetch", U_SECONDS, 0, st.weights_s);
    put_number(r, "kv_s", "KV fetch", U_SECONDS, 0, st.kv_s);
    put_number(r, "memory_s", "memory", U_SECONDS, FL_DETAIL, st.memory_s);
    put_number(r, "step_s", "step", U_SECONDS, 0, st.step_s);
    put_string(r, "bound", "bound", 0, cost_bound_name(st.bound));
    /* model FLOPs utilisation on the roofline: the share of the step spent multiplying */
    put_number(r, "mfu", "MFU (compute / step)", U_PLAIN, FL_DETAIL, st.compute_s / st.step_s);
    put_number(r, "tokens_per_s", "throughput", U_TOKENS_PER_S, 0,
               batching_tokens_per_s(d, batch, context));
    put_number(r, "latency_floor_s", "latency floor", U_SECONDS, FL_DETAIL,
               batching_latency_floor_s(d));
    double used_bytes = resident_bytes(d, batch, context);
    put_number(r, "hbm_used_bytes", "HBM used, all chips", U_BYTES, 0, used_bytes);
    field *f = put(r, "fits_hbm", "fits in HBM", s->has_hbm ? V_BOOL : V_NULL, U_PLAIN, 0);
    f->yes = used_bytes <= d->chips * d->hbm_bytes;
    put_maybe(r, "usd_per_mtok", "cost", U_USD_PER_MTOK, 0, s->has_price,
              s->has_price ? batching_usd_per_mtok(d, batch, context) : 0.0);
    char why[TEXT_CHARS];
    snprintf(why, sizeof why, "no price for %s; pass --usd-per-chip-hour",
             s->hw ? s->hw->name : "this hardware");
    put_string(r, "usd_per_mtok_reason", "  why no cost", FL_DETAIL, s->has_price ? NULL : why);
}

static int run_decode(const invocation *inv)
{
    setup s;
    int status = resolve(inv, NEED_PARAMS | NEED_FLOPS | NEED_BW | NEED_BATCH | NEED_CONTEXT, &s);
    if (status)
        return status;
    long rows = sweeps(&s.batch) ? s.batch.points : s.context.points;
    report rep = {
        .title = "chalk decode: one decode step, lecture 1.2-1.4 (times are lower bounds)",
        .rows = rows,
        .swept = s.swept,
        .build = build_decode,
        .ctx = &s,
    };
    print_report(&rep, inv->format);
    return STATUS_OK;
}

/* ---- balance-batch ------------------------------------------------------------------- */

/* N_total / N_active, the lecture's sparsity (batching.h, exercise 1.4). */
static double sparsity_of(const batching_deploy *d)
{
    return d->params_total / d->params_active;
}

static void build_balance(const void *ctx, long row, record *r)
{
    const setup *s = ctx;
    const batching_deploy *d = &s->d;
    double context = sweep_at(&s->context, row);
    r->count = 0;
    put_setup(r, s, row, ECHO_CONTEXT | ECHO_FLOPS);

    double ratio = batching_hw_ratio(d->flops_per_s, d->hbm_bytes_per_s, d->bytes_per_param);
    put_number(r, "hw_ratio", "hardware ratio", U_PLAIN, 0, ratio);
    put_number(r, "sparsity", "sparsity", U_PLAIN, 0, sparsity_of(d));
    put_number(r, "balance_batch_approx", "balance batch, no KV", U_SEQUENCES, 0,
               batching_balance_batch_approx(ratio, sparsity_of(d)));

    char why[TEXT_CHARS], a[SHORT_CHARS], b[SHORT_CHARS], c[SHORT_CHARS];
    bool has_limit = s->has_kv && d->kv_bytes_per_token > 0.0;
    double limit_tokens = has_limit ? batching_max_balanced_context_tokens(d) : 0.0;
    batching_balance bal = {.exists = false};
    if (!s->context.given) {
        snprintf(why, sizeof why,
                 "no --context given: pass --context T for the balance "
                 "batch with the KV term");
    } else {
        bal = batching_balance_batch(d, context);
        format_auto(a, sizeof a, U_SECONDS, batching_kv_s(d, 1, context));
        format_auto(b, sizeof b, U_SECONDS, batching_compute_s(d, 1));
        format_sig(c, sizeof c, limit_tokens);
        snprintf(why, sizeof why,
                 "each sequence's KV fetch (%s) outgrows its compute (%s): every batch is "
                 "memory-bound past %s tokens of context",
                 a, b, c);
    }
    put_maybe(r, "balance_batch", "balance batch, with KV", U_SEQUENCES, 0, bal.exists, bal.batch);
    put_string(r, "balance_batch_reason", "  why none", FL_DETAIL, bal.exists ? NULL : why);
    put_maybe(r, "max_balanced_context_tokens", "max balanced context", U_TOKENS, 0, has_limit,
              limit_tokens);
    put_string(r, "max_balanced_context_tokens_reason", "  why none", FL_DETAIL,
               has_limit   ? NULL
               : s->has_kv ? "no KV cache (kv_bytes_per_token is 0): compute always wins"
                           : "no KV size: pass --kv-bytes-per-token X or --model NAME");
}

static int run_balance(const invocation *inv)
{
    setup s;
    int status = resolve(inv, NEED_PARAMS | NEED_FLOPS | NEED_BW, &s);
    if (status)
        return status;
    report rep = {
        .title = "chalk balance-batch: where compute time meets memory time, lecture 1.5",
        .rows = s.context.given ? s.context.points : 1,
        .swept = s.swept,
        .build = build_balance,
        .ctx = &s,
    };
    print_report(&rep, inv->format);
    return STATUS_OK;
}

/* ---- departures ---------------------------------------------------------------------- */

static void build_departures(const void *ctx, long row, record *r)
{
    const setup *s = ctx;
    (void)row;
    r->count = 0;
    put_hw_name(r, s);
    put_number(r, "hbm_bytes", "HBM per chip", U_BYTES, FL_INPUT, s->d.hbm_bytes);
    put_number(r, "hbm_bytes_per_s", "HBM bandwidth", U_BYTES_PER_S, FL_INPUT,
               s->d.hbm_bytes_per_s);
    put_string(r, "overrides", "overrides", FL_INPUT | FL_DETAIL,
               s->overrides[0] ? s->overrides : NULL);
    batching_departures t = batching_train_departures(s->d.hbm_bytes, s->d.hbm_bytes_per_s);
    put_number(r, "step_s", "step (HBM drain)", U_SECONDS, 0, t.step_s);
    put_number(r, "worst_wait_s", "worst wait", U_SECONDS, 0, t.worst_wait_s);
    put_number(r, "mean_wait_s", "mean wait", U_SECONDS, 0, t.mean_wait_s);
    put_number(r, "worst_latency_s", "worst latency", U_SECONDS, 0, t.worst_latency_s);
    put_number(r, "mean_latency_s", "mean latency", U_SECONDS, 0, t.mean_latency_s);
}

static int run_departures(const invocation *inv)
{
    setup s;
    int status = resolve(inv, NEED_BW | NEED_HBM, &s);
    if (status)
        return status;
    report rep = {
        .title = "chalk departures: a batch leaves every step, full or not (lecture 1.6)",
        .rows = 1,
        .build = build_departures,
        .ctx = &s,
    };
    print_report(&rep, inv->format);
    return STATUS_OK;
}

/* ---- max-batch ------------------------------------------------------------------------- */

static void build_max_batch(const void *ctx, long row, record *r)
{
    const setup *s = ctx;
    const batching_deploy *d = &s->d;
    double context = sweep_at(&s->context, row), target = sweep_at(&s->target, row);
    r->count = 0;
    put_setup(r, s, row, ECHO_CONTEXT | ECHO_FLOPS | ECHO_HBM);
    field *f =
        put_maybe(r, "target_step_s", "target step", U_SECONDS, FL_INPUT, s->target.given, target);
    if (!s->target.given)
        snprintf(f->text, sizeof f->text, "none"); /* JSON: null */

    char why[TEXT_CHARS], a[SHORT_CHARS], b[SHORT_CHARS];
    double capacity_bytes = d->chips * d->hbm_bytes;
    batching_limit hbm = {.exists = false};
    if (context > 0.0 && d->kv_bytes_per_token > 0.0) {
        hbm = batching_max_batch_hbm(d, context);
        format_auto(a, sizeof a, U_BYTES, resident_bytes(d, 1, context));
        format_auto(b, sizeof b, U_BYTES, capacity_bytes);
        snprintf(why, sizeof why,
                 "the weights and one sequence's KV cache need %s; "
                 "%d chips hold %s",
                 a, d->chips, b);
    } else if (resident_bytes(d, 0, 0) > capacity_bytes) {
        format_auto(a, sizeof a, U_BYTES, resident_bytes(d, 0, 0));
        format_auto(b, sizeof b, U_BYTES, capacity_bytes);
        snprintf(why, sizeof why, "the weights alone need %s; %d chips hold %s", a, d->chips, b);
    } else {
        snprintf(why, sizeof why,
                 "no KV cache (context or KV bytes 0): HBM capacity sets "
                 "no limit on the batch");
    }
    put_maybe(r, "max_batch_hbm", "max batch, HBM", U_SEQUENCES, 0, hbm.exists, (double)hbm.batch);
    put_string(r, "max_batch_hbm_reason", "  why none", FL_DETAIL, hbm.exists ? NULL : why);

    double floor_s = batching_latency_floor_s(d);
    batching_limit fast = {.exists = false};
    if (!s->target.given) {
        snprintf(why, sizeof why, "no --target-step-s given");
    } else {
        fast = batching_max_batch_latency(d, context, target);
        format_auto(a, sizeof a, U_SECONDS, target);
        format_auto(b, sizeof b, U_SECONDS, floor_s);
        if (target < floor_s)
            snprintf(why, sizeof why,
                     "a %s step is below the latency floor, %s to read "
                     "every weight once",
                     a, b);
        else
            snprintf(why, sizeof why, "one sequence at this context takes longer than %s", a);
    }
    put_maybe(r, "max_batch_latency", "max batch, step target", U_SEQUENCES, 0, fast.exists,
              (double)fast.batch);
    put_string(r, "max_batch_latency_reason", "  why none", FL_DETAIL, fast.exists ? NULL : why);
    put_number(r, "latency_floor_s", "latency floor", U_SECONDS, 0, floor_s);
}

static int run_max_batch(const invocation *inv)
{
    setup s;
    unsigned needs = NEED_PARAMS | NEED_BW | NEED_HBM | NEED_CONTEXT;
    if (inv->value[OPT_TARGET])
        needs |= NEED_FLOPS; /* the compute slope limits a step too */
    int status = resolve(inv, needs, &s);
    if (status)
        return status;
    report rep = {
        .title = "chalk max-batch: the largest batch HBM and a step target allow (lecture 1.6)",
        .rows = sweeps(&s.target) ? s.target.points : s.context.points,
        .swept = s.swept,
        .build = build_max_batch,
        .ctx = &s,
    };
    print_report(&rep, inv->format);
    return STATUS_OK;
}

/* ---- fast-mode ------------------------------------------------------------------------- */

static void build_fast(const void *ctx, long row, record *r)
{
    const setup *s = ctx;
    const batching_deploy *d = &s->d;
    double batch = sweep_at(&s->batch, row), context = sweep_at(&s->context, row);
    double speedup = sweep_at(&s->speedup, row);
    r->count = 0;
    put_setup(r, s, row, ECHO_BATCH | ECHO_CONTEXT | ECHO_FLOPS);
    put_number(r, "speedup", "speedup", U_PLAIN, FL_INPUT, speedup);

    batching_fast f = batching_fast_mode(d, context, batch, speedup);
    double normal_s = batching_step_at(d, batch, context).step_s;
    double floor_s = batching_latency_floor_s(d);
    put_bool(r, "possible", "possible", 0, f.possible);
    put_maybe(r, "fast_batch", "fast batch", U_SEQUENCES, 0, f.possible, f.batch);
    put_maybe(r, "fast_step_s", "fast step", U_SECONDS, 0, f.possible, f.step_s);
    put_number(r, "normal_step_s", "normal step", U_SECONDS, 0, normal_s);
    put_maybe(r, "cost_ratio", "cost per token vs normal", U_PLAIN, 0, f.possible, f.cost_ratio);
    put_number(r, "latency_floor_s", "latency floor", U_SECONDS, FL_DETAIL, floor_s);
    char why[TEXT_CHARS], a[SHORT_CHARS], b[SHORT_CHARS];
    format_auto(a, sizeof a, U_SECONDS, normal_s / speedup); /* the asked-for step */
    format_auto(b, sizeof b, U_SECONDS, floor_s);
    if (normal_s / speedup < floor_s)
        snprintf(why, sizeof why,
                 "a %s step is below the latency floor, %s to read every "
                 "weight once",
                 a, b);
    else
        snprintf(why, sizeof why, "a %s step is too short for even one sequence", a);
    put_string(r, "reason", "  why not", FL_DETAIL, f.possible ? NULL : why);
}

static int run_fast(const invocation *inv)
{
    setup s;
    int status = resolve(
        inv, NEED_PARAMS | NEED_FLOPS | NEED_BW | NEED_BATCH | NEED_CONTEXT | NEED_SPEEDUP, &s);
    if (status)
        return status;
    long rows = sweeps(&s.batch)     ? s.batch.points
                : sweeps(&s.speedup) ? s.speedup.points
                                     : s.context.points;
    report rep = {
        .title = "chalk fast-mode: a smaller batch for a faster step (lecture 1.9)",
        .rows = rows,
        .swept = s.swept,
        .build = build_fast,
        .ctx = &s,
    };
    print_report(&rep, inv->format);
    return STATUS_OK;
}

/* ---- list and show ------------------------------------------------------------------- */

static void put_hw(record *r, const cost_hw *hw)
{
    r->count = 0;
    put_string(r, "name", "name", 0, hw->name);
    put_string(r, "title", "title", 0, hw->title);
    field *f = put(r, "flops_per_s", "peak FLOP/s", V_BY_DTYPE, U_FLOPS_PER_S, 0);
    field *ratio = put(r, "hw_ratio", "hardware ratio", V_BY_DTYPE, U_PLAIN, FL_DETAIL);
    for (int d = 0; d < COST_DTYPE_COUNT; d++) {
        if (!cost_hw_supports(hw, (cost_dtype)d))
            continue;
        f->by_dtype[d] = cost_hw_peak_flops_per_s(hw, (cost_dtype)d);
        ratio->by_dtype[d] =
            batching_hw_ratio(f->by_dtype[d], hw->hbm_bytes_per_s, cost_dtype_bytes((cost_dtype)d));
    }
    put_number(r, "hbm_bytes", "HBM", U_BYTES, 0, hw->hbm_bytes);
    put_number(r, "hbm_bytes_per_s", "HBM bandwidth", U_BYTES_PER_S, 0, hw->hbm_bytes_per_s);
    put_maybe(r, "scaleup_bytes_per_s", "scale-up, one way", U_BYTES_PER_S, FL_DETAIL,
              hw->scaleup_bytes_per_s > 0.0, hw->scaleup_bytes_per_s);
    put_maybe(r, "scaleout_bytes_per_s", "scale-out, one way", U_BYTES_PER_S, FL_DETAIL,
              hw->scaleout_bytes_per_s > 0.0, hw->scaleout_bytes_per_s);
    put_number(r, "scaleup_domain_chips", "domain", U_PLAIN, 0, hw->scaleup_domain_chips);
    put_maybe(r, "usd_per_chip_hour", "price", U_USD_PER_HOUR, 0, cost_hw_has_price(hw),
              hw->usd_per_chip_hour);
    put_string(r, "price_source", "price source", FL_DETAIL, hw->price_source);
    put_bool(r, "preliminary", "preliminary", FL_DETAIL, hw->preliminary);
    put_string(r, "source", "source", FL_DETAIL, hw->source);
    put_number(r, "hbm_drain_s", "HBM drain", U_SECONDS, 0, cost_hw_hbm_drain_s(hw));
}

/* The precisions a model is shown at: --dtype for weights, --kv-dtype for KV. */
typedef struct model_view {
    const cost_model *only; /* show: this one; list: NULL for every preset */
    cost_dtype dtype, kv_dtype;
} model_view;

static void put_model(record *r, const cost_model *m, const model_view *v)
{
    bool mla = m->attn == COST_ATTN_MLA, moe = m->experts_routed > 0;
    r->count = 0;
    put_string(r, "name", "name", 0, m->name);
    put_string(r, "title", "title", 0, m->title);
    put_string(r, "source", "source", FL_DETAIL, m->source);
    put_number(r, "params_total", "params total", U_PARAMS, 0, cost_model_params_total(m));
    put_number(r, "params_active", "params active", U_PARAMS, 0, cost_model_params_active(m));
    put_number(r, "sparsity", "sparsity", U_PLAIN, FL_DETAIL, cost_model_sparsity(m));
    put_string(r, "dtype", "dtype", FL_DETAIL, cost_dtype_name(v->dtype));
    put_string(r, "kv_dtype", "KV dtype", FL_DETAIL, cost_dtype_name(v->kv_dtype));
    put_number(r, "bytes_per_param", "bytes per param", U_BYTES_PER_PARAM, FL_DETAIL,
               cost_dtype_bytes(v->dtype));
    put_number(r, "kv_bytes_per_token", "KV per token", U_BYTES_PER_TOKEN, 0,
               cost_model_kv_bytes_per_token(m, v->kv_dtype));
    put_number(r, "kv_elements_per_token", "KV elements per token", U_PLAIN, FL_DETAIL,
               cost_model_kv_elements_per_token(m));
    put_number(r, "flops_per_token", "FLOPs per token", U_FLOPS, FL_DETAIL,
               cost_model_flops_per_token(m));
    put_number(r, "layers", "layers", U_PLAIN, 0, m->layers);
    put_number(r, "d_model", "d_model", U_PLAIN, 0, m->d_model);
    put_number(r, "heads", "query heads", U_PLAIN, FL_DETAIL, m->heads);
    put_maybe(r, "kv_heads", "KV heads", U_PLAIN, FL_DETAIL, !mla, m->kv_heads);
    put_number(r, "head_dim", "head dim", U_PLAIN, FL_DETAIL, m->head_dim);
    put_string(r, "attn", "attention", 0, mla ? "mla" : "gqa");
    put_maybe(r, "kv_lora_rank", "MLA latent width", U_PLAIN, FL_DETAIL, mla, m->kv_lora_rank);
    put_maybe(r, "rope_head_dim", "MLA RoPE key width", U_PLAIN, FL_DETAIL, mla, m->rope_head_dim);
    put_string(r, "mlp", "MLP", FL_DETAIL, m->mlp == COST_MLP_SWIGLU ? "swiglu" : "gelu");
    put_maybe(r, "d_ff", "dense MLP width", U_PLAIN, FL_DETAIL, m->d_ff > 0, m->d_ff);
    put_number(r, "vocab", "vocabulary", U_PLAIN, FL_DETAIL, m->vocab);
    put_number(r, "experts_routed", "routed experts", U_PLAIN, FL_DETAIL, m->experts_routed);
    put_number(r, "experts_active", "experts per token", U_PLAIN, FL_DETAIL, m->experts_active);
    put_number(r, "experts_shared", "shared experts", U_PLAIN, FL_DETAIL, m->experts_shared);
    put_maybe(r, "d_ff_expert", "expert MLP width", U_PLAIN, FL_DETAIL, moe, m->d_ff_expert);
    put_maybe(r, "dense_layers", "dense leading layers", U_PLAIN, FL_DETAIL, moe, m->dense_layers);
    put_string(r, "published_dtype", "published in", FL_DETAIL, cost_dtype_name(m->dtype));
}

static void build_hw_row(const void *ctx, long row, record *r)
{
    const cost_hw *only = ctx;
    size_t n;
    const cost_hw *const *all = cost_hw_presets(&n);
    put_hw(r, only ? only : all[row]);
}

static void build_model_row(const void *ctx, long row, record *r)
{
    const model_view *v = ctx;
    size_t n;
    const cost_model *const *all = cost_model_presets(&n);
    put_model(r, v->only ? v->only : all[row], v);
}

static bool is_word(const char *word, const char *a, const char *b)
{
    return strcmp(word, a) == 0 || strcmp(word, b) == 0;
}

/* list and show share everything but how many presets they print. */
static int print_presets(const invocation *inv, const char *kind, const char *name)
{
    bool is_hw = is_word(kind, "hw", "hardware");
    if (!is_hw && !is_word(kind, "model", "models"))
        return fail("%s what? \"%s\" is neither hw nor models", inv->cmd->name, kind);
    if (is_hw && (inv->value[OPT_DTYPE] || inv->value[OPT_KV_DTYPE]))
        return fail("%s hw shows every precision; --dtype and --kv-dtype apply to models",
                    inv->cmd->name);
    size_t count;
    report rep = {.title = "", .rows = 1, .is_list = name == NULL};
    if (is_hw) {
        const cost_hw *hw = NULL;
        cost_hw_presets(&count);
        if (name && !(hw = cost_hw_find(name)))
            return unknown_hw(name);
        rep.rows = name ? 1 : (long)count;
        rep.title = hw ? hw->title : "";
        rep.build = build_hw_row;
        rep.ctx = hw;
        print_report(&rep, inv->format);
        return STATUS_OK;
    }
    setup s;
    int status = parse_dtypes(inv, &s);
    if (status)
        return status;
    model_view v = {.dtype = s.dtype, .kv_dtype = s.kv_dtype};
    cost_model_presets(&count);
    if (name && !(v.only = cost_model_find(name)))
        return unknown_model(name);
    rep.rows = name ? 1 : (long)count;
    rep.title = v.only ? v.only->title : "";
    rep.build = build_model_row;
    rep.ctx = &v;
    print_report(&rep, inv->format);
    return STATUS_OK;
}

static int run_list(const invocation *inv)
{
    if (inv->nwords != 1)
        return fail("%s", inv->nwords ? "list takes one word: hw or models"
                                      : "list what? try chalk list hw or chalk list models");
    return print_presets(inv, inv->words[0], NULL);
}

static int run_show(const invocation *inv)
{
    if (inv->nwords == 0)
        return fail("show what? try chalk show hw NAME or chalk show model NAME");
    if (inv->nwords == 1)
        return fail("show %s needs a NAME (see chalk list %s)", inv->words[0],
                    is_word(inv->words[0], "hw", "hardware") ? "hw" : "models");
    if (inv->nwords > 2)
        return fail("show takes two words, e.g. chalk show hw h100-sxm");
    return print_presets(inv, inv->words[0], inv->words[1]);
}

/* ---- check-answers: grade a reader's answers against a problem key ------------------- */

/* The key is build/answers-SEED.json, written by make problems (book/problems.md):
 *   { "ID": {"value": 9.09 | "memory", "unit": "ms", "tolerance": 0.02 | null, ...}, ... }
 * The reader's answers are either a JSON object { "ID": 9.1, "ID2": "memory" } or
 * lines "ID VALUE" (blank lines and lines starting with # are skipped; a value may
 * carry thousands commas and a leading $). A number is right when it is within the
 * key's relative tolerance, |got - expected| <= tolerance * |expected|; a word when it
 * matches, ignoring case. Files are read whole into fixed buffers: nothing is allocated. */

enum { KEY_MAX = 256, ID_CHARS = 64, WORD_CHARS = 64, FILE_CHARS = 1 << 17 };

typedef struct answer {
    char id[ID_CHARS];
    bool is_word;
    double number;
    char word[WORD_CHARS];
    char unit[WORD_CHARS];
    double tolerance;
    bool given; /* in the reader's file */
} answer;

typedef struct json_cursor {
    const char *text, *at, *file;
} json_cursor;

/* Reads a whole file into buf (NUL-terminated); nonzero after an error line. */
static int read_whole(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail("cannot read %s", path);
    size_t n = fread(buf, 1, size, f);
    bool more = n == size;
    fclose(f);
    if (more)
        return fail("%s is larger than %d bytes", path, FILE_CHARS - 1);
    buf[n] = '\0';
    if (strlen(buf) != n)
        return fail("%s holds a NUL byte: not a text file", path);
    return STATUS_OK;
}

static void json_skip(json_cursor *c)
{
    while (*c->at == ' ' || *c->at == '\t' || *c->at == '\n' || *c->at == '\r')
        c->at++;
}

static int json_error(const json_cursor *c, const char *what)
{
    long line = 1;
    for (const char *p = c->text; p < c->at; p++)
        line += *p == '\n';
    return fail("%s:%ld: malformed JSON: %s", c->file, line, what);
}

static int json_expect(json_cursor *c, char ch)
{
    json_skip(c);
    if (*c->at != ch) {
        char what[32];
        snprintf(what, sizeof what, "expected '%c'", ch);
        return json_error(c, what);
    }
    c->at++;
    return STATUS_OK;
}

/* A JSON string into out (escapes \" \\ \/ \n \t kept simple; \u is refused). */
static int json_read_string(json_cursor *c, char *out, size_t size)
{
    if (json_expect(c, '"'))
        return STATUS_USAGE;
    size_t n = 0;
    for (;;) {
        char ch = *c->at++;
        if (ch == '\0' || ch == '\n') {
            c->at--;
            return json_error(c, "unterminated string");
        }
        if (ch == '"')
            break;
        if (ch == '\\') {
            char e = *c->at;
            if (e == '\0' || !strchr("\"\\/nt", e))
                return json_error(c, "unsupported escape in a string");
            c->at++;
            ch = e == 'n' ? '\n' : e == 't' ? '\t' : e;
        }
        if (n + 1 >= size)
            return json_error(c, "string too long");
        out[n++] = ch;
    }
    out[n] = '\0';
    return STATUS_OK;
}

static int json_read_number(json_cursor *c, double *x)
{
    json_skip(c);
    char *end;
    *x = strtod(c->at, &end);
    if (end == c->at || !isfinite(*x))
        return json_error(c, "expected a number");
    c->at = end;
    return STATUS_OK;
}

/* Skips one value of any kind (nested up to 32 levels). */
static int json_skip_value(json_cursor *c, int depth)
{
    json_skip(c);
    if (depth > 32)
        return json_error(c, "nested too deeply");
    char scratch[1024];
    double x;
    switch (*c->at) {
    case '"':
        return json_read_string(c, scratch, sizeof scratch);
    case '{':
    case '[': {
        char close = *c->at == '{' ? '}' : ']';
        c->at++;
        json_skip(c);
        if (*c->at == close) {
            c->at++;
            return STATUS_OK;
        }
        for (;;) {
            if (close == '}' &&
                (json_read_string(c, scratch, sizeof scratch) || json_expect(c, ':')))
                return STATUS_USAGE;
            if (json_skip_value(c, depth + 1))
                return STATUS_USAGE;
            json_skip(c);
            if (*c->at == close) {
                c->at++;
                return STATUS_OK;
            }
            if (json_expect(c, ','))
                return STATUS_USAGE;
        }
    }
    default:
        for (const char *const *w = (const char *const[]){"null", "true", "false", NULL}; *w; w++)
            if (strncmp(c->at, *w, strlen(*w)) == 0) {
                c->at += strlen(*w);
                return STATUS_OK;
            }
        return json_read_number(c, &x);
    }
}

/* A number or a string into a. */
static int json_read_answer(json_cursor *c, answer *a)
{
    json_skip(c);
    if (*c->at == '"') {
        a->is_word = true;
        return json_read_string(c, a->word, sizeof a->word);
    }
    a->is_word = false;
    return json_read_number(c, &a->number);
}

static answer *find_answer(answer *list, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].id, id) == 0)
            return &list[i];
    return NULL;
}

/* Calls visit(ctx, cursor, id) for each member of a top-level JSON object. */
static int json_members(json_cursor *c, int (*visit)(void *, json_cursor *, const char *),
                        void *ctx)
{
    if (json_expect(c, '{'))
        return STATUS_USAGE;
    json_skip(c);
    if (*c->at == '}') {
        c->at++;
    } else {
        for (;;) {
            char id[ID_CHARS];
            if (json_read_string(c, id, sizeof id) || json_expect(c, ':') || visit(ctx, c, id))
                return STATUS_USAGE;
            json_skip(c);
            if (*c->at == '}') {
                c->at++;
                break;
            }
            if (json_expect(c, ','))
                return STATUS_USAGE;
        }
    }
    json_skip(c);
    return *c->at ? json_error(c, "text after the closing }") : STATUS_OK;
}

typedef struct answer_list {
    answer *items;
    int n;
    const char *file;
} answer_list;

static answer *new_answer(answer_list *l, const char *id)
{
    if (find_answer(l->items, l->n, id)) {
        fail("%s: \"%s\" appears twice", l->file, id);
        return NULL;
    }
    if (l->n == KEY_MAX) {
        fail("%s: more than %d answers", l->file, KEY_MAX);
        return NULL;
    }
    answer *a = &l->items[l->n++];
    memset(a, 0, sizeof *a);
    snprintf(a->id, sizeof a->id, "%s", id);
    return a;
}

/* One key entry: {"value": ..., "unit": ..., "tolerance": ..., others skipped}. */
static int visit_key(void *ctx, json_cursor *c, const char *id)
{
    answer_list *l = ctx;
    answer *a = new_answer(l, id);
    if (!a || json_expect(c, '{'))
        return STATUS_USAGE;
    bool has_value = false;
    for (;;) {
        char member[ID_CHARS];
        if (json_read_string(c, member, sizeof member) || json_expect(c, ':'))
            return STATUS_USAGE;
        json_skip(c);
        int status;
        if (strcmp(member, "value") == 0) {
            status = json_read_answer(c, a);
            has_value = true;
        } else if (strcmp(member, "unit") == 0) {
            status = json_read_string(c, a->unit, sizeof a->unit);
        } else if (strcmp(member, "tolerance") == 0 && strncmp(c->at, "null", 4) != 0) {
            status = json_read_number(c, &a->tolerance);
            if (!status && a->tolerance < 0)
                status = json_error(c, "negative tolerance");
        } else {
            status = json_skip_value(c, 0);
        }
        if (status)
            return status;
        json_skip(c);
        if (*c->at == '}') {
            c->at++;
            break;
        }
        if (json_expect(c, ','))
            return STATUS_USAGE;
    }
    return has_value ? STATUS_OK : json_error(c, "a key entry without \"value\"");
}

static int visit_reply(void *ctx, json_cursor *c, const char *id)
{
    answer *a = new_answer(ctx, id);
    return a ? json_read_answer(c, a) : STATUS_USAGE;
}

/* "1,234" and "$0.91" -> numbers; anything else that is not a number is a word. */
static void parse_reply(const char *text, answer *a)
{
    char clean[WORD_CHARS];
    size_t n = 0;
    for (const char *p = text + (*text == '$'); *p && n + 1 < sizeof clean; p++)
        if (*p != ',')
            clean[n++] = *p;
    clean[n] = '\0';
    char *end;
    double x = strtod(clean, &end);
    if (n > 0 && *end == '\0' && isfinite(x)) {
        a->is_word = false;
        a->number = x;
    } else {
        a->is_word = true;
        snprintf(a->word, sizeof a->word, "%.*s", (int)sizeof a->word - 1, text);
    }
}

/* The reader's file: a JSON object, or lines "ID VALUE". */
static int read_replies(char *text, answer_list *l)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p == '{') {
        json_cursor c = {text, text, l->file};
        return json_members(&c, visit_reply, l);
    }
    long line = 0;
    for (char *next, *s = text; s && *s; s = next) {
        line++;
        next = strchr(s, '\n');
        if (next)
            *next++ = '\0';
        char id[ID_CHARS + 1], value[WORD_CHARS + 1], extra[2];
        int got = sscanf(s, "%64s %64s %1s", id, value, extra);
        if (got <= 0 || id[0] == '#')
            continue;
        if (got != 2 || strlen(id) >= ID_CHARS || strlen(value) >= WORD_CHARS)
            return fail(
                "%s:%ld: expected \"ID VALUE\" (one answer per line, no unit), got \"%.40s\"",
                l->file, line, s);
        answer *a = new_answer(l, id);
        if (!a)
            return STATUS_USAGE;
        parse_reply(value, a);
    }
    return STATUS_OK;
}

static bool same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

static void describe(char *buf, size_t size, const answer *a)
{
    char num[NUMBER_CHARS];
    if (a->is_word) {
        snprintf(buf, size, "%s", a->word);
        return;
    }
    format_sig(num, sizeof num, a->number);
    snprintf(buf, size, "%s%s%s", num, a->unit[0] ? " " : "", a->unit);
}

static int run_check_answers(const invocation *inv)
{
    if (inv->nwords != 2)
        return fail("usage: chalk check-answers KEY.json FILE (see chalk check-answers --help)");
    static_assert(KEY_MAX * sizeof(answer) < 64 * 1024, "answer tables fit on the stack");
    char text[FILE_CHARS];
    answer key[KEY_MAX], reply[KEY_MAX];
    answer_list keys = {key, 0, inv->words[0]}, replies = {reply, 0, inv->words[1]};

    if (read_whole(keys.file, text, sizeof text))
        return STATUS_USAGE;
    json_cursor c = {text, text, keys.file};
    if (json_members(&c, visit_key, &keys))
        return STATUS_USAGE;
    if (keys.n == 0)
        return fail("%s: the key holds no problems", keys.file);
    if (read_whole(replies.file, text, sizeof text) || read_replies(text, &replies))
        return STATUS_USAGE;

    int right = 0;
    for (int i = 0; i < replies.n; i++)
        if (!find_answer(key, keys.n, reply[i].id))
            printf("%s: not in the key %s (a typo?)\n", reply[i].id, keys.file);
    for (int i = 0; i < keys.n; i++) {
        const answer *want = &key[i];
        answer *got = find_answer(reply, replies.n, want->id);
        char expected[96], actual[96];
        describe(expected, sizeof expected, want);
        if (!got) {
            printf("%-24s missing   expected %s\n", want->id, expected);
            continue;
        }
        if (got->is_word)
            snprintf(actual, sizeof actual, "%s", got->word);
        else /* as given, to 6 digits */
            snprintf(actual, sizeof actual, "%.6g%s%s", got->number, want->unit[0] ? " " : "",
                     want->unit);
        if (want->is_word) {
            if (!got->is_word || !same_word(got->word, want->word)) {
                printf("%-24s off       expected %s, got %s\n", want->id, expected, actual);
                continue;
            }
        } else {
            double err = got->is_word ? INFINITY : fabs(got->number - want->number);
            if (!(err <= want->tolerance * fabs(want->number))) {
                char off[48] = "";
                if (!got->is_word && want->number != 0)
                    snprintf(off, sizeof off, " (%+.1f%%, tolerance %g%%)",
                             100 * (got->number - want->number) / fabs(want->number),
                             100 * want->tolerance);
                printf("%-24s off       expected %s, got %s%s\n", want->id, expected, actual, off);
                continue;
            }
        }
        right++;
    }
    printf("score: %d/%d (%.0f%%)\n", right, keys.n, 100.0 * right / keys.n);
    return right == keys.n ? STATUS_OK : 1;
}

static const char *const ABOUT_CHECK[] = {
    "Grades a reader's answers to `make problems SEED=NAME` against its key,",
    "build/answers-NAME.json: prints each answer that is off or missing, with the",
    "expected and the given value, then the score. FILE is a JSON object",
    "{\"ID\": 9.1, \"ID2\": \"memory\"} or lines \"ID VALUE\" (# starts a comment; no",
    "units; 1,234 and $0.91 read as numbers). A number is right within the key's",
    "relative tolerance, a word when it matches ignoring case. Exit status: 0 all",
    "right, 1 some off or missing, 2 a malformed file (one line on stderr).",
    NULL};
static const char *const EXAMPLES_CHECK[] = {
    "chalk check-answers build/answers-alice.json my-answers.txt", NULL};

/* ---- commands and help --------------------------------------------------------------- */

static const char *const ABOUT_LIST[] = {
    "The presets, one line each: per-chip peak FLOP/s, HBM, scale-up domain, price",
    "for hw; parameters, KV bytes per token (at --dtype/--kv-dtype), layers for models.",
    "With --json, an array of the objects chalk show prints.", NULL};
static const char *const EXAMPLES_LIST[] = {"chalk list hw", "chalk list models --json", NULL};

static const char *const ABOUT_SHOW[] = {
    "One preset in full, every number with its source. For hw, flops_per_s is an",
    "object by precision (only those the chip has) and hbm_drain_s is capacity over",
    "bandwidth. For a model, bytes_per_param follows --dtype and kv_bytes_per_token",
    "follows --kv-dtype (both default bf16).", NULL};
static const char *const EXAMPLES_SHOW[] = {
    "chalk show hw h100-sxm", "chalk show model deepseek-v3 --dtype fp8 --json", NULL};

static const char *const ABOUT_DECODE[] = {
    "One decode step: each of --batch sequences gets one new token. On --chips chips",
    "sharing the work evenly,",
    "  compute = batch x 2 x params_active / (chips x flops_per_s)",
    "  weights = params_total x bytes_per_param / (chips x hbm_bytes_per_s)",
    "  KV      = batch x context x kv_bytes_per_token / (chips x hbm_bytes_per_s)",
    "  step    = max(compute, weights + KV)        a lower bound",
    "and tokens/s = batch / step; USD/Mtok = rent of all chips for a step / batch.",
    "Needs a model, hardware, --batch and --context; one of them may be a sweep.",
    NULL};
static const char *const EXAMPLES_DECODE[] = {
    "chalk decode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 2048 --context 4096",
    "chalk decode --model llama3-70b --hw h100-sxm --batch 1:4096 --context 8192 --csv",
    "chalk decode --params-total 70e9 --flops-per-s 989e12 --hbm-bytes-per-s 3.35e12 "
    "--batch 64 --context 0",
    NULL};

static const char *const ABOUT_BALANCE[] = {
    "The batch at which a step's compute time equals its memory time:",
    "  hw_ratio             = (flops_per_s / 2) x bytes_per_param / hbm_bytes_per_s",
    "                         (the lecture's ~300: multiplies per byte fetched)",
    "  balance_batch_approx = hw_ratio x sparsity, sparsity = params_total / params_active",
    "  balance_batch        = the same with each sequence's KV fetch at --context; null,",
    "                         with a reason, past max_balanced_context_tokens, where KV",
    "                         grows faster than compute and every batch is memory-bound.",
    "--context is optional (without it balance_batch is null); it may be a sweep.",
    NULL};
static const char *const EXAMPLES_BALANCE[] = {
    "chalk balance-batch --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 8192",
    "chalk balance-batch --params-total 8 --params-active 1 --flops-per-s 600e12 "
    "--hbm-bytes-per-s 1e12 --weight-bytes 1",
    NULL};

static const char *const ABOUT_DEPARTURES[] = {
    "The train schedule: a batch departs every step, full or not, and a step reads all",
    "of HBM once, so it lasts capacity / bandwidth. A request waits up to one step",
    "(half on average), then rides one.", NULL};
static const char *const EXAMPLES_DEPARTURES[] = {
    "chalk departures --hw h100-sxm", "chalk departures --hbm-bytes 288e9 --hbm-bytes-per-s 20e12",
    NULL};

static const char *const ABOUT_MAX_BATCH[] = {
    "The largest whole batch whose weights and KV caches fit in the HBM of all chips",
    "(max_batch_hbm) and, with --target-step-s, whose step takes at most that long",
    "(max_batch_latency). Each is null, with a reason, when not even one sequence",
    "fits. --context or --target-step-s may be a sweep.", NULL};
static const char *const EXAMPLES_MAX_BATCH[] = {
    "chalk max-batch --model llama3-70b --hw h100-sxm --context 32768 --target-step-s 0.05",
    "chalk max-batch --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 1024:1e6 --csv",
    NULL};

static const char *const ABOUT_FAST[] = {
    "Fast mode: run a smaller batch so that a step takes 1/--speedup of the step at",
    "--batch, and report what a token then costs relative to normal (cost_ratio).",
    "Impossible, with a reason, when that step is below the latency floor (one read",
    "of every weight) or too short for one sequence. --batch, --context or --speedup",
    "may be a sweep.",
    NULL};
static const char *const EXAMPLES_FAST[] = {
    "chalk fast-mode --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --context 4096 "
    "--batch 6000 --speedup 2",
    NULL};

static const cmd_spec COMMANDS[] = {
    {"list", "hw|models", "the presets, one line each",
     OUTPUT_FLAGS | BIT(OPT_DTYPE) | BIT(OPT_KV_DTYPE), ABOUT_LIST, EXAMPLES_LIST, run_list},
    {"show", "hw|model NAME", "one preset in full",
     OUTPUT_FLAGS | BIT(OPT_DTYPE) | BIT(OPT_KV_DTYPE), ABOUT_SHOW, EXAMPLES_SHOW, run_show},
    {"decode", "[flags]", "one decode step: roofline, tokens/s, USD per Mtok (1.2-1.4)",
     OUTPUT_FLAGS | MODEL_FLAGS | RATE_FLAGS | BIT(OPT_HBM_BYTES) | BIT(OPT_USD) | BIT(OPT_BATCH) |
         BIT(OPT_CONTEXT),
     ABOUT_DECODE, EXAMPLES_DECODE, run_decode},
    {"balance-batch", "[flags]", "the batch where compute time meets memory time (1.5)",
     OUTPUT_FLAGS | MODEL_FLAGS | RATE_FLAGS | BIT(OPT_CONTEXT), ABOUT_BALANCE, EXAMPLES_BALANCE,
     run_balance},
    {"departures", "[flags]", "the train schedule: a step drains HBM once (1.6)",
     OUTPUT_FLAGS | BIT(OPT_HW) | BIT(OPT_HBM_BYTES) | BIT(OPT_HBM_BPS), ABOUT_DEPARTURES,
     EXAMPLES_DEPARTURES, run_departures},
    {"max-batch", "[flags]", "the largest batch HBM or a step-time target allows (1.6)",
     OUTPUT_FLAGS | MODEL_FLAGS | RATE_FLAGS | BIT(OPT_HBM_BYTES) | BIT(OPT_CONTEXT) |
         BIT(OPT_TARGET),
     ABOUT_MAX_BATCH, EXAMPLES_MAX_BATCH, run_max_batch},
    {"fast-mode", "[flags]", "a smaller batch for a faster step, and its cost (1.9)",
     OUTPUT_FLAGS | MODEL_FLAGS | RATE_FLAGS | BIT(OPT_BATCH) | BIT(OPT_CONTEXT) | BIT(OPT_SPEEDUP),
     ABOUT_FAST, EXAMPLES_FAST, run_fast},
    {"check-answers", "KEY FILE", "grade a practice-problem answers FILE (make problems)", 0,
     ABOUT_CHECK, EXAMPLES_CHECK, run_check_answers},
};
enum { COMMAND_COUNT = sizeof COMMANDS / sizeof COMMANDS[0] };

static const cmd_spec *find_command(const char *name)
{
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    const char *names[COMMAND_COUNT + 1];
    for (int i = 0; i < COMMAND_COUNT; i++)
        names[i] = COMMANDS[i].name;
    names[COMMAND_COUNT] = "help";
    char hint[512];
    suggest(hint, sizeof hint, name, names, COMMAND_COUNT + 1);
    return fail("unknown command \"%s\"%s; see chalk --help", name, hint);
}

/* Prints `text` from column `indent`, wrapped before column `width`. */
static void print_wrapped(const char *text, int indent, int width)
{
    int col = indent;
    while (*text) {
        int word = (int)strcspn(text, " ");
        if (col > indent && col + 1 + word > width) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            putchar(' ');
            col++;
        }
        printf("%.*s", word, text);
        col += word;
        text += word;
        while (*text == ' ')
            text++;
    }
    putchar('\n');
}

static void print_flags(unsigned long accepted)
{
    for (int g = G_MODEL; g <= G_OUTPUT; g++) {
        bool header = false;
        for (int o = 0; o < OPT_COUNT; o++) {
            if (OPTS[o].group != (opt_group)g || !(accepted & BIT(o)))
                continue;
            if (!header)
                printf("\n%s:\n", GROUP_TITLES[g]);
            header = true;
            char left[48];
            snprintf(left, sizeof left, "%s%s%s", OPTS[o].flag, OPTS[o].arg ? " " : "",
                     OPTS[o].arg ? OPTS[o].arg : "");
            printf("  %-24s ", left);
            print_wrapped(OPTS[o].help, 27, 80);
        }
    }
}

static void print_conventions(void)
{
    puts("\nsweeps: --batch 1:4096 is 64 points spaced geometrically from 1 to 4096");
    puts("  inclusive; 1:4096:13 is 13 points; 1,2,4,8 is a list. One variable at a time.");
    puts("numbers: 671e9, 2048, 0.5. SI units throughout: seconds, bytes, FLOP/s,");
    puts("  bytes/s, USD; FLOPs count 2 per multiply-accumulate. Flags may come in any");
    puts("  order, as --flag VALUE or --flag=VALUE; an override beats its preset.");
    puts("errors: one line on stderr, \"chalk: error: ...\", and exit status 2.");
}

static void print_command_help(const cmd_spec *c)
{
    printf("usage: chalk %s %s\n\n", c->name, c->synopsis);
    for (const char *const *line = c->about; *line; line++)
        printf("%s\n", *line);
    print_flags(c->flags);
    if (c->flags & (BIT(OPT_BATCH) | BIT(OPT_CONTEXT)))
        print_conventions();
    printf("\nexamples:\n");
    for (const char *const *line = c->examples; *line; line++)
        printf("  %s\n", *line);
}

static void print_top_help(void)
{
    puts("chalk -- the Chalk calculator: the workbook's reference math, one command.");
    puts("Numbers in the book come from here; every one is a lower bound or a preset.");
    puts("\nusage: chalk COMMAND [flags]");
    puts("       chalk help COMMAND   (or chalk COMMAND --help)\n");
    puts("commands:");
    for (int i = 0; i < COMMAND_COUNT; i++) {
        char left[48];
        snprintf(left, sizeof left, "%s %s", COMMANDS[i].name,
                 strcmp(COMMANDS[i].synopsis, "[flags]") ? COMMANDS[i].synopsis : "");
        printf("  %-22s %s\n", left, COMMANDS[i].summary);
    }
    print_flags(~0UL);
    print_conventions();
    puts("\nexamples:");
    for (int i = 0; i < COMMAND_COUNT; i++)
        printf("  %s\n", COMMANDS[i].examples[0]);
}

/* ---- the command line ------------------------------------------------------------------ */

static bool is_help_word(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* Suggests among the flags the command takes. */
static int unknown_flag(const cmd_spec *cmd, const char *flag)
{
    const char *names[OPT_COUNT];
    size_t n = 0;
    for (int o = 0; o < OPT_COUNT; o++)
        if (cmd->flags & BIT(o))
            names[n++] = OPTS[o].flag;
    char hint[512];
    suggest(hint, sizeof hint, flag, names, n);
    return fail("unknown flag %s%s", flag, hint);
}

/* Reads flags and positional words after the command; interprets nothing yet. */
static int parse_args(int argc, char **argv, invocation *inv)
{
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "-", 1) != 0 || strcmp(arg, "-") == 0) {
            if (inv->nwords == (int)(sizeof inv->words / sizeof inv->words[0]))
                return fail("%s: unexpected argument \"%s\"", inv->cmd->name, arg);
            inv->words[inv->nwords++] = arg;
            continue;
        }
        char flag[64];
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        snprintf(flag, sizeof flag, "%.*s", (int)(len < sizeof flag ? len : sizeof flag - 1), arg);
        int o = 0;
        while (o < OPT_COUNT && strcmp(OPTS[o].flag, flag) != 0)
            o++;
        if (o == OPT_COUNT)
            return unknown_flag(inv->cmd, flag);
        if (!(inv->cmd->flags & BIT(o)))
            return fail("%s does not take %s (see chalk %s --help)", inv->cmd->name, flag,
                        inv->cmd->name);
        if (inv->value[o])
            return fail("%s given twice", flag);
        if (!OPTS[o].arg) {
            if (eq)
                return fail("%s takes no value", flag);
            inv->value[o] = "";
        } else if (eq) {
            inv->value[o] = eq + 1;
        } else if (i + 1 < argc) {
            inv->value[o] = argv[++i];
        } else {
            return fail("%s needs a value (%s %s)", flag, flag, OPTS[o].arg);
        }
    }
    if (inv->value[OPT_JSON] && inv->value[OPT_CSV])
        return fail("pick one of --json and --csv");
    inv->format = inv->value[OPT_JSON] ? OUT_JSON : inv->value[OPT_CSV] ? OUT_CSV : OUT_TABLE;
    if (strcmp(inv->cmd->synopsis, "[flags]") == 0 && inv->nwords > 0)
        return fail("%s: unexpected argument \"%s\" (flags start with --)", inv->cmd->name,
                    inv->words[0]);
    return STATUS_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return fail("no command; try chalk --help");
    const char *name = argv[1];
    if (is_help_word(name) || strcmp(name, "help") == 0) {
        if (argc > 2 && strcmp(name, "help") == 0 && !is_help_word(argv[2]) &&
            strcmp(argv[2], "help") != 0) {
            const cmd_spec *c = find_command(argv[2]);
            if (!c)
                return unknown_command(argv[2]);
            print_command_help(c);
        } else {
            print_top_help();
        }
        return STATUS_OK;
    }
    invocation inv = {.cmd = find_command(name)};
    if (!inv.cmd)
        return unknown_command(name);
    for (int i = 2; i < argc; i++)
        if (is_help_word(argv[i])) {
            print_command_help(inv.cmd);
            return STATUS_OK;
        }
    int status = parse_args(argc, argv, &inv);
    if (status)
        return status;
    return inv.cmd->run(&inv);
}
