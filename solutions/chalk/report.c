/*
 * report.c -- records of named values, written as an aligned table, JSON or CSV.
 *
 * A command describes what it prints as a chalk_report: a number of rows and a
 * function that fills one row's record. The writers here ask for each row in turn,
 * so a 100,000-point sweep never holds more than one record. Machines get every
 * number exactly (%.17g through chalk_g17), built into a line buffer and written
 * once per row; a column whose value did not change since the previous row (the
 * inputs echoed in every CSV row) reuses its text.
 */
#define _POSIX_C_SOURCE 200809L /* write */

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chalk.h"

/* ---- building a record ------------------------------------------------------------------ */

void chalk_clear(chalk_record *r)
{
    r->count = 0;
    r->used = 0;
    r->not_finite = NULL;
    r->unexplained = 0;
    r->by_dtype = false;
}

/* Copies s into the arena; a record too full to hold it is a bug (raise the arena). */
static const char *keep(chalk_record *r, const char *s)
{
    size_t n = strlen(s) + 1;
    assert(r->used + n <= sizeof r->arena && "raise CHALK_ARENA_CHARS");
    char *p = r->arena + r->used;
    memcpy(p, s, n);
    r->used += n;
    return p;
}

const char *chalk_fmt(chalk_record *r, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return keep(r, text);
}

static chalk_field *put(chalk_record *r, const char *key, const char *label, chalk_kind kind,
                        chalk_unit unit, unsigned flags)
{
    assert(r->count < CHALK_MAX_FIELDS && "raise CHALK_MAX_FIELDS");
    chalk_field *f = &r->fields[r->count++];
    f->key = key;
    f->label = label;
    f->kind = kind;
    f->unit = unit;
    f->flags = flags;
    f->number = 0.0;
    f->yes = false;
    f->text = NULL;
    f->note = NULL;
    return f;
}

chalk_field *chalk_put_number(chalk_record *r, const char *key, const char *label, chalk_unit unit,
                              unsigned flags, double x)
{
    chalk_field *f = put(r, key, label, CHALK_NUMBER, unit, flags);
    f->number = x;
    if (!isfinite(x) && !r->not_finite)
        r->not_finite = key;
    return f;
}

chalk_field *chalk_put_maybe(chalk_record *r, const char *key, const char *label, chalk_unit unit,
                             unsigned flags, bool known, double x)
{
    if (!known) {
        r->unexplained += !(flags & CHALK_INPUT);
        return put(r, key, label, CHALK_NULL, unit, flags);
    }
    return chalk_put_number(r, key, label, unit, flags, x);
}

chalk_field *chalk_put_string(chalk_record *r, const char *key, const char *label, unsigned flags,
                              const char *s)
{
    chalk_field *f =
        put(r, key, label, s ? CHALK_STRING : CHALK_NULL, CHALK_U_PLAIN, flags | CHALK_TEXT);
    if (s)
        f->text = keep(r, s);
    return f;
}

/* KEY_reason after KEY: null when there is a value (the key built without printf). */
static void put_reason(chalk_record *r, const char *key, unsigned flags, const char *reason)
{
    size_t n = strlen(key);
    assert(r->used + n + sizeof "_reason" <= sizeof r->arena && "raise CHALK_ARENA_CHARS");
    char *reason_key = r->arena + r->used;
    memcpy(reason_key, key, n);
    memcpy(reason_key + n, "_reason", sizeof "_reason");
    r->used += n + sizeof "_reason";
    chalk_put_string(r, reason_key, "  why none", CHALK_DETAIL | (flags & CHALK_INPUT), reason);
}

chalk_field *chalk_put_result(chalk_record *r, const char *key, const char *label, chalk_unit unit,
                              unsigned flags, bool known, double x, const char *reason)
{
    chalk_field *f = chalk_put_maybe(r, key, label, unit, flags, known, x);
    r->unexplained -= !known && !(flags & CHALK_INPUT); /* explained right here */
    put_reason(r, key, flags, known ? NULL : reason);
    return f;
}

chalk_field *chalk_put_bool(chalk_record *r, const char *key, const char *label, unsigned flags,
                            bool yes)
{
    chalk_field *f = put(r, key, label, CHALK_BOOL, CHALK_U_PLAIN, flags);
    f->yes = yes;
    return f;
}

chalk_field *chalk_put_bool_result(chalk_record *r, const char *key, const char *label,
                                   unsigned flags, bool known, bool yes, const char *reason)
{
    chalk_field *f = chalk_put_bool(r, key, label, flags, yes);
    if (!known)
        f->kind = CHALK_NULL;
    put_reason(r, key, flags, known ? NULL : reason);
    return f;
}

chalk_field *chalk_put_by_dtype(chalk_record *r, const char *key, const char *label,
                                chalk_unit unit, unsigned flags)
{
    chalk_field *f = put(r, key, label, CHALK_BY_DTYPE, unit, flags);
    r->by_dtype = true;
    for (int d = 0; d < COST_DTYPE_COUNT; d++)
        f->by_dtype[d] = 0.0;
    return f;
}

void chalk_note(chalk_record *r, chalk_field *f, const char *fmt, ...)
{
    if (r->no_notes)
        return;
    if (!strchr(fmt, '%')) {
        f->note = fmt; /* a literal: it outlives the record */
        return;
    }
    if (strcmp(fmt, "%s") == 0) { /* the common case, without printf */
        va_list ap;
        va_start(ap, fmt);
        f->note = keep(r, va_arg(ap, const char *));
        va_end(ap);
        return;
    }
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    f->note = keep(r, text);
}

void chalk_null_words(chalk_record *r, chalk_field *f, const char *words)
{
    f->text = keep(r, words);
}

void chalk_append(chalk_record *r, const chalk_record *from)
{
    assert(r->count + from->count <= CHALK_MAX_FIELDS && "raise CHALK_MAX_FIELDS");
    memcpy(&r->fields[r->count], from->fields, (size_t)from->count * sizeof from->fields[0]);
    r->count += from->count;
    if (!r->not_finite)
        r->not_finite = from->not_finite;
    r->unexplained += from->unexplained;
    r->by_dtype = r->by_dtype || from->by_dtype;
}

const chalk_field *chalk_find(const chalk_record *r, const char *key)
{
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->fields[i].key, key) == 0)
            return &r->fields[i];
    return NULL;
}

/* ---- checks on what a command computed ---------------------------------------------------- */

/* A result that is not finite is refused (its inputs were outside what the flags'
 * ranges should allow); an absent result without a reason is a bug of the command. */
static int check_record(const chalk_record *r)
{
    const char *bad = r->not_finite;
    for (int i = 0; r->by_dtype && i < r->count && !bad; i++) { /* set after their put */
        const chalk_field *f = &r->fields[i];
        for (int d = 0; f->kind == CHALK_BY_DTYPE && d < COST_DTYPE_COUNT; d++)
            if (!isfinite(f->by_dtype[d]))
                bad = f->key;
    }
    if (bad)
        return chalk_fail("%s is out of range for these inputs (try smaller or larger values)",
                          bad);
    for (int i = 0; i < r->count && r->unexplained > 0; i++) {
        const chalk_field *f = &r->fields[i];
        if (f->kind == CHALK_NULL && !(f->flags & (CHALK_INPUT | CHALK_TEXT))) {
            char reason_key[128];
            snprintf(reason_key, sizeof reason_key, "%s_reason", f->key);
            const chalk_field *why = chalk_find(r, reason_key);
            assert(why && why->kind == CHALK_STRING && "an absent result needs its reason");
            (void)why;
        }
    }
    return CHALK_OK;
}

/* ---- a line buffer ------------------------------------------------------------------------ */

/* JSON and CSV are built here and written straight to the file descriptor (stdio is
 * flushed first, so the order holds): a sweep's megabytes are copied once, not twice.
 * A write that fails is remembered and reported once, by chalk_emit. */
enum { LINE_CHARS = 1 << 16 };

typedef struct line {
    int fd; /* where it goes: standard output, or a sweep's second half's file */
    char text[LINE_CHARS];
    size_t len;
    int error;  /* errno of the first failed write, or 0 */
    int digits; /* significant digits of every number (17: they read back exactly) */
} line;

static inline void flush_line(line *l)
{
    for (size_t done = 0; done < l->len && !l->error;) {
        ssize_t n = write(l->fd, l->text + done, l->len - done);
        if (n < 0 && errno != EINTR)
            l->error = errno;
        else if (n > 0)
            done += (size_t)n;
    }
    l->len = 0;
}

static inline void add(line *l, const char *s, size_t n)
{
    if (l->len + n > sizeof l->text)
        flush_line(l);
    if (n > sizeof l->text) { /* longer than the buffer: in pieces */
        for (size_t i = 0; i < n; i += sizeof l->text)
            add(l, s + i, n - i < sizeof l->text ? n - i : sizeof l->text);
        return;
    }
    memcpy(l->text + l->len, s, n);
    l->len += n;
}

static inline void adds(line *l, const char *s)
{
    add(l, s, strlen(s));
}

static inline void addc(line *l, char c)
{
    if (l->len == sizeof l->text)
        flush_line(l);
    l->text[l->len++] = c;
}

static inline void add_number(line *l, double x)
{
    char num[CHALK_NUM_CHARS];
    add(l, num, (size_t)chalk_gn(num, x, l->digits));
}

/* ---- JSON ------------------------------------------------------------------------------- */

static void json_string(line *l, const char *s)
{
    addc(l, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            addc(l, '\\');
            addc(l, (char)c);
        } else if (c < 0x20) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", c);
            adds(l, esc);
        } else {
            addc(l, (char)c);
        }
    }
    addc(l, '"');
}

static void json_value(line *l, const chalk_field *f)
{
    switch (f->kind) {
    case CHALK_NUMBER:
        add_number(l, f->number);
        return;
    case CHALK_STRING:
        json_string(l, f->text);
        return;
    case CHALK_BOOL:
        adds(l, f->yes ? "true" : "false");
        return;
    case CHALK_NULL:
        adds(l, "null");
        return;
    case CHALK_BY_DTYPE: {
        bool first = true;
        addc(l, '{');
        for (int d = 0; d < COST_DTYPE_COUNT; d++) {
            if (f->by_dtype[d] <= 0.0)
                continue;
            if (!first)
                addc(l, ',');
            json_string(l, cost_dtype_name((cost_dtype)d));
            addc(l, ':');
            add_number(l, f->by_dtype[d]);
            first = false;
        }
        addc(l, '}');
        return;
    }
    }
}

/* One object: indented one key a line, or compact on one line. */
static void json_record(line *l, const chalk_record *r, bool indented)
{
    addc(l, '{');
    for (int i = 0; i < r->count; i++) {
        adds(l, i ? (indented ? ",\n  " : ",") : (indented ? "\n  " : ""));
        json_string(l, r->fields[i].key);
        adds(l, indented ? ": " : ":");
        json_value(l, &r->fields[i]);
    }
    adds(l, indented ? "\n}" : "}");
}

/* ---- CSV -------------------------------------------------------------------------------- */

static void csv_text(line *l, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        adds(l, s);
        return;
    }
    addc(l, '"');
    for (; *s; s++) {
        if (*s == '"')
            addc(l, '"');
        addc(l, *s);
    }
    addc(l, '"');
}

/* A by-precision field spreads over one column per precision: key_bf16, key_fp8... */
static void csv_header(line *l, const chalk_record *r)
{
    for (int i = 0; i < r->count; i++) {
        const chalk_field *f = &r->fields[i];
        if (f->kind != CHALK_BY_DTYPE) {
            if (i)
                addc(l, ',');
            adds(l, f->key);
            continue;
        }
        for (int d = 0; d < COST_DTYPE_COUNT; d++) {
            if (i || d)
                addc(l, ',');
            adds(l, f->key);
            addc(l, '_');
            adds(l, cost_dtype_name((cost_dtype)d));
        }
    }
    addc(l, '\n');
}

/* The text of a number column, remembered between rows: inputs repeat in every row. */
typedef struct number_cache {
    double last[CHALK_MAX_FIELDS];
    bool valid[CHALK_MAX_FIELDS];
    char text[CHALK_MAX_FIELDS][CHALK_NUM_CHARS];
    int len[CHALK_MAX_FIELDS];
} number_cache;

static void cached_number(line *l, number_cache *c, int i, double x)
{
    if (!c->valid[i] || memcmp(&c->last[i], &x, sizeof x) != 0) {
        c->len[i] = chalk_gn(c->text[i], x, l->digits);
        c->last[i] = x;
        c->valid[i] = true;
    }
    add(l, c->text[i], (size_t)c->len[i]);
}

static void csv_row(line *l, const chalk_record *r, number_cache *c)
{
    for (int i = 0; i < r->count; i++) {
        const chalk_field *f = &r->fields[i];
        if (i)
            addc(l, ',');
        switch (f->kind) {
        case CHALK_NUMBER:
            if (i < CHALK_MAX_FIELDS)
                cached_number(l, c, i, f->number);
            break;
        case CHALK_STRING:
            csv_text(l, f->text);
            break;
        case CHALK_BOOL:
            adds(l, f->yes ? "true" : "false");
            break;
        case CHALK_NULL:
            break; /* an empty cell */
        case CHALK_BY_DTYPE:
            for (int d = 0; d < COST_DTYPE_COUNT; d++) {
                if (d)
                    addc(l, ',');
                if (f->by_dtype[d] > 0.0)
                    add_number(l, f->by_dtype[d]);
            }
            break;
        }
    }
    addc(l, '\n');
}

/* ---- tables for humans ------------------------------------------------------------------- */

/* The unit of a table column, and the scale of its numbers (SI value / scale). */
static const struct column_unit {
    const char *name;
    double scale;
} COLUMN_UNITS[CHALK_U_COUNT_OF_UNITS] = {
    [CHALK_U_PARAMS] = {"billion", 1e9},
    [CHALK_U_SECONDS] = {"ms", 1e-3},
    [CHALK_U_BYTES] = {"GB", 1e9},
    [CHALK_U_BYTES_PER_TOKEN] = {"kB/token", 1e3},
    [CHALK_U_BYTES_PER_PARAM] = {"bytes", 1},
    [CHALK_U_BYTES_PER_S] = {"GB/s", 1e9},
    [CHALK_U_FLOPS] = {"GFLOP", 1e9},
    [CHALK_U_FLOPS_PER_S] = {"TFLOP/s", 1e12},
    [CHALK_U_TOKENS_PER_S] = {"tokens/s", 1},
    [CHALK_U_USD_PER_MTOK] = {"USD/Mtok", 1},
    [CHALK_U_USD_PER_HOUR] = {"USD/h", 1},
    [CHALK_U_USD] = {"USD", 1},
    [CHALK_U_FRACTION] = {"%", 0.01},
    [CHALK_U_RATIO] = {"x", 1},
    [CHALK_U_BITS] = {"bits", 1},
};

static double column_scale(chalk_unit u)
{
    return COLUMN_UNITS[u].scale > 0 ? COLUMN_UNITS[u].scale : 1.0;
}

static const char *column_unit(chalk_unit u)
{
    return COLUMN_UNITS[u].name ? COLUMN_UNITS[u].name : "";
}

enum { VALUE_CHARS = 1200, CELL_CHARS = 96, MAX_COLUMNS = CHALK_MAX_FIELDS + 3 * COST_DTYPE_COUNT };

/* A field's value for a single-point table. */
static void format_value(char *buf, size_t size, const chalk_field *f)
{
    switch (f->kind) {
    case CHALK_NUMBER:
        chalk_human(buf, size, f->unit, f->number);
        return;
    case CHALK_STRING:
        snprintf(buf, size, "%s", f->text);
        return;
    case CHALK_BOOL:
        snprintf(buf, size, "%s", f->yes ? "yes" : "no");
        return;
    case CHALK_NULL: /* a null may carry words for humans, e.g. "(from flags)" */
        snprintf(buf, size, "%s", f->text ? f->text : "n/a");
        return;
    case CHALK_BY_DTYPE: {
        size_t used = 0;
        buf[0] = '\0';
        for (int d = 0; d < COST_DTYPE_COUNT && used < size; d++) {
            if (f->by_dtype[d] <= 0.0)
                continue;
            char number[CHALK_NUM_CHARS];
            chalk_sig(number, sizeof number, f->by_dtype[d] / column_scale(f->unit));
            used += (size_t)snprintf(buf + used, size - used, "%s%s %s", used ? ", " : "",
                                     cost_dtype_name((cost_dtype)d), number);
        }
        if (used < size && *column_unit(f->unit))
            snprintf(buf + used, size - used, " %s", column_unit(f->unit));
        return;
    }
    }
}

/* A field's value in a table column, in the column's fixed unit. */
static void format_cell(char *buf, size_t size, const chalk_field *f, int dtype)
{
    double scale = column_scale(f->unit);
    switch (f->kind) {
    case CHALK_NUMBER:
        chalk_sig(buf, size, f->number / scale);
        return;
    case CHALK_BY_DTYPE:
        if (f->by_dtype[dtype] > 0.0)
            chalk_sig(buf, size, f->by_dtype[dtype] / scale);
        else
            snprintf(buf, size, "-");
        return;
    case CHALK_NULL:
        snprintf(buf, size, "-");
        return;
    default:
        format_value(buf, size, f);
    }
}

/* A column of a table: a field, and for a by-precision field one precision. */
typedef struct column {
    int field;
    int dtype;
    int width;
    bool left; /* strings read better left-aligned */
    char header[64];
} column;

static bool is_swept(const chalk_report *rep, const chalk_field *f)
{
    return rep->swept && rep->swept->flag->key && strcmp(rep->swept->flag->key, f->key) == 0;
}

/* True for KEY_reason when KEY is a null detail, which tables leave out. */
static bool reason_of_hidden(const chalk_record *r, const chalk_field *f)
{
    size_t n = strlen(f->key), tail = sizeof "_reason" - 1;
    if (n <= tail || strcmp(f->key + n - tail, "_reason") != 0)
        return false;
    for (int i = 0; i < r->count; i++) {
        const chalk_field *base = &r->fields[i];
        if (strlen(base->key) == n - tail && strncmp(base->key, f->key, n - tail) == 0)
            return base->kind == CHALK_NULL && (base->flags & CHALK_DETAIL);
    }
    return false;
}

/* The label and the value (and its note) of every field, one a line. */
static void print_fields(const chalk_record *r, const chalk_report *rep, bool inputs_only)
{
    int label_width = 0, value_width = 0;
    char value[VALUE_CHARS];
    for (int i = 0; i < r->count; i++) {
        const chalk_field *f = &r->fields[i];
        format_value(value, sizeof value, f);
        if ((int)strlen(f->label) > label_width)
            label_width = (int)strlen(f->label);
        if (f->note && (int)strlen(value) > value_width && strlen(value) < 28)
            value_width = (int)strlen(value);
    }
    bool printed = false, in_inputs = true;
    for (int i = 0; i < r->count; i++) {
        const chalk_field *f = &r->fields[i];
        if (inputs_only && (!(f->flags & CHALK_INPUT) || is_swept(rep, f)))
            continue;
        if (f->kind == CHALK_NULL && (f->flags & CHALK_DETAIL))
            continue; /* e.g. a reason when there was a value: nothing to say */
        if (reason_of_hidden(r, f))
            continue; /* the reason for a detail the table leaves out */
        if (in_inputs && !(f->flags & CHALK_INPUT) && printed)
            putchar('\n'); /* inputs, then results */
        in_inputs = f->flags & CHALK_INPUT;
        printed = true;
        format_value(value, sizeof value, f);
        if (f->note)
            printf("  %-*s  %-*s  %s\n", label_width, f->label, value_width, value, f->note);
        else
            printf("  %-*s  %s\n", label_width, f->label, value);
    }
}

/* The columns of a list or sweep table: the swept input first, then every result
 * that is not a detail; a by-precision field gives a column per precision it has. */
static int plan_columns(const chalk_report *rep, const chalk_record *first, column *cols)
{
    int n = 0;
    for (int pass = 0; pass < 3; pass++) /* swept input, results, a title last */
        for (int i = 0; i < first->count; i++) {
            const chalk_field *f = &first->fields[i];
            bool shown = !is_swept(rep, f) && !(f->flags & CHALK_DETAIL) &&
                         (rep->is_list || !(f->flags & CHALK_INPUT));
            bool is_title = strcmp(f->key, "title") == 0;
            bool wanted = pass == 0   ? is_swept(rep, f)
                          : pass == 1 ? shown && !is_title
                                      : shown && is_title;
            if (!wanted)
                continue;
            const char *unit = column_unit(f->unit);
            for (int d = 0; d < (f->kind == CHALK_BY_DTYPE ? COST_DTYPE_COUNT : 1); d++) {
                assert(n < MAX_COLUMNS);
                column *c = &cols[n++];
                c->field = i;
                c->dtype = d;
                c->left = f->kind == CHALK_STRING;
                const char *name =
                    f->kind == CHALK_BY_DTYPE ? cost_dtype_name((cost_dtype)d) : f->label;
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
static bool column_used(const chalk_report *rep, const column *c, chalk_record *scratch)
{
    if (scratch->fields[c->field].kind != CHALK_BY_DTYPE)
        return true;
    for (long row = 0; row < rep->rows; row++) {
        rep->build(rep->ctx, row, scratch);
        if (scratch->fields[c->field].by_dtype[c->dtype] > 0.0)
            return true;
    }
    return false;
}

static int print_columns(const chalk_report *rep, chalk_record *r)
{
    column cols[MAX_COLUMNS];
    rep->build(rep->ctx, 0, r);
    int planned = plan_columns(rep, r, cols), n = 0;
    for (int c = 0; c < planned; c++)
        if (column_used(rep, &cols[c], r))
            cols[n++] = cols[c];
    char cell[CELL_CHARS];
    for (long row = 0; row < rep->rows; row++) { /* pass 1: widths, and the checks */
        rep->build(rep->ctx, row, r);
        int status = check_record(r);
        if (status)
            return status;
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
    return CHALK_OK;
}

/* ---- the report ----------------------------------------------------------------------- */

static int emit_table(const chalk_report *rep, chalk_record *r)
{
    bool many = rep->is_list || rep->swept;
    if (!many || rep->swept) {
        rep->build(rep->ctx, 0, r);
        int status = check_record(r);
        if (status)
            return status;
        printf("%s\n\n", rep->title);
        print_fields(r, rep, many);
        if (!many)
            return CHALK_OK;
        printf("\n");
    }
    return print_columns(rep, r);
}

/* --columns: a view of a report that keeps some keys, in the order asked. */
typedef struct projection {
    const chalk_report *rep;
    chalk_record full;
    int index[CHALK_MAX_FIELDS];           /* fields of the full record, in the order asked */
    char key[CHALK_MAX_FIELDS][64];        /* their keys (the record's own are rewritten) */
    const char *literal[CHALK_MAX_FIELDS]; /* the first row's key pointers */
    int count;
} projection;

/* True when s lies in r's arena (rewritten every row), not in a literal. */
static bool in_arena(const chalk_record *r, const char *s)
{
    return s >= r->arena && s < r->arena + sizeof r->arena;
}

static void build_projected(const void *ctx, long row, chalk_record *out)
{
    projection *p = (projection *)ctx; /* its scratch record is the only thing written */
    p->rep->build(p->rep->ctx, row, &p->full);
    chalk_clear(out);
    for (int i = 0; i < p->count; i++) {
        int at = p->index[i];
        const char *key = at < p->full.count ? p->full.fields[at].key : NULL;
        bool literal = key == p->literal[i] && key && !in_arena(&p->full, key);
        if (!literal && (!key || strcmp(key, p->key[i]) != 0)) {
            const chalk_field *f = chalk_find(&p->full, p->key[i]); /* a row shaped otherwise */
            at = f ? (int)(f - p->full.fields) : -1;
        }
        if (at >= 0)
            out->fields[out->count++] = p->full.fields[at];
    }
}

/* Reads --columns against the first row's keys; an unknown key names the known. */
static int project(const char *columns, const chalk_report *rep, projection *p)
{
    p->rep = rep;
    p->count = 0;
    rep->build(rep->ctx, 0, &p->full);
    for (const char *c = columns; *c;) {
        size_t n = strcspn(c, ",");
        int at = -1;
        for (int i = 0; i < p->full.count && at < 0; i++)
            if (strlen(p->full.fields[i].key) == n && strncmp(p->full.fields[i].key, c, n) == 0)
                at = i;
        if (at < 0) {
            char known[2048] = "";
            size_t used = 0;
            for (int i = 0; i < p->full.count && used < sizeof known; i++)
                used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                         p->full.fields[i].key);
            return chalk_fail("--columns: no column \"%.*s\" here (columns: %s)", (int)n, c, known);
        }
        if (p->count == CHALK_MAX_FIELDS)
            return chalk_fail("--columns: at most %d columns", CHALK_MAX_FIELDS);
        p->index[p->count] = at;
        p->literal[p->count] = p->full.fields[at].key;
        snprintf(p->key[p->count++], sizeof p->key[0], "%s", p->full.fields[at].key);
        c += n + (c[n] == ',');
    }
    return p->count ? CHALK_OK : chalk_fail("--columns needs at least one column");
}

/* Rows [from, to) of a JSON or CSV report (with the header, the opening or the
 * closing text when the range holds the first or the last row). */
static int emit_rows(const chalk_report *rep, chalk_format format, long from, long to, line *l,
                     chalk_record *r, number_cache *cache)
{
    int status = CHALK_OK;
    if (format == CHALK_JSON && from == 0)
        adds(l, rep->is_list ? "[\n" : "{\"rows\":[\n");
    for (long row = from; row < to && !status; row++) {
        rep->build(rep->ctx, row, r);
        if ((status = check_record(r)))
            break;
        if (format == CHALK_JSON) {
            json_record(l, r, false);
            adds(l, row + 1 < rep->rows ? ",\n" : "\n");
        } else {
            if (row == 0)
                csv_header(l, r);
            csv_row(l, r, cache);
        }
    }
    if (!status && format == CHALK_JSON && to == rep->rows)
        adds(l, rep->is_list ? "]\n" : "]}\n");
    flush_line(l);
    return status;
}

/* Copies what fd holds, from its start, to standard output. */
static int copy_to_stdout(int fd, line *l)
{
    if (lseek(fd, 0, SEEK_SET) != 0)
        return errno;
    for (ssize_t n; (n = read(fd, l->text, sizeof l->text)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        l->len = (size_t)n;
        flush_line(l);
        if (l->error)
            return l->error;
    }
    return 0;
}

/* A long sweep on a machine with two cores or more: the second half of the rows is
 * computed by a child process into a temporary file while this one writes the first
 * half, then copied after it, so the bytes are the same as one process writes. Each
 * row is a pure function of its index, so the halves need nothing from each other.
 * Returns -1 when it could not split (no second core, no temporary file, no fork): the
 * caller then writes every row itself. */
enum { SPLIT_ROWS = 20000 };

static int emit_split(const chalk_report *rep, chalk_format format, line *l, chalk_record *r,
                      number_cache *cache)
{
    if (rep->rows < SPLIT_ROWS || sysconf(_SC_NPROCESSORS_ONLN) < 2)
        return -1;
    FILE *tmp = tmpfile();
    if (!tmp)
        return -1;
    long half = rep->rows / 2;
    fflush(stderr);
    pid_t child = fork();
    if (child < 0) {
        fclose(tmp);
        return -1;
    }
    if (child == 0) { /* the second half, into the file */
        l->fd = fileno(tmp);
        int status = emit_rows(rep, format, half, rep->rows, l, r, cache);
        _exit(status ? CHALK_USAGE : l->error ? 3 : 0);
    }
    int status = emit_rows(rep, format, 0, half, l, r, cache);
    int wstatus = 0;
    while (waitpid(child, &wstatus, 0) < 0 && errno == EINTR)
        ;
    bool child_ok = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
    if (!status && !l->error && child_ok) {
        int err = copy_to_stdout(fileno(tmp), l);
        if (err && !l->error)
            l->error = err;
    } else if (!status && !l->error) {
        /* the child said why on stderr, unless it could not write its file */
        status = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == CHALK_USAGE
                     ? CHALK_USAGE
                     : chalk_fail("the second half of the sweep could not be written");
    }
    fclose(tmp);
    return status;
}

int chalk_emit(const chalk_args *a, const chalk_report *full)
{
    static chalk_record r; /* one record at a time; too large for the stack */
    static number_cache cache;
    static line l;
    static projection p;
    chalk_clear(&r);
    r.no_notes = a->format != CHALK_TABLE;
    p.full.no_notes = r.no_notes;
    memset(&cache, 0, sizeof cache);
    l.len = 0;
    l.error = 0;
    l.digits = a->digits >= 1 && a->digits <= 17 ? a->digits : 17;
    chalk_report view = *full;
    const chalk_report *rep = full;
    if (a->columns) {
        int status = project(a->columns, full, &p);
        if (status)
            return status;
        view.build = build_projected;
        view.ctx = &p;
        rep = &view;
    }
    fflush(stdout); /* what stdio holds goes first */
    l.fd = STDOUT_FILENO;
    bool many = rep->is_list || rep->swept;
    int status = CHALK_OK;
    switch (a->format) {
    case CHALK_TABLE:
        return emit_table(rep, &r);
    case CHALK_JSON:
    case CHALK_CSV:
        if (a->format == CHALK_JSON && !many) {
            rep->build(rep->ctx, 0, &r);
            if ((status = check_record(&r)))
                return status;
            json_record(&l, &r, true);
            addc(&l, '\n');
            break;
        }
        status = emit_split(rep, a->format, &l, &r, &cache);
        if (status < 0)
            status = emit_rows(rep, a->format, 0, rep->rows, &l, &r, &cache);
        break;
    }
    flush_line(&l);
    if (l.error && !status)
        status = chalk_fail("cannot write the output: %s", strerror(l.error));
    return status;
}
