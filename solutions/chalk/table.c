/*
 * table.c -- a report as a table for humans: one preset or point as "label  value"
 * lines, a list or a sweep as aligned columns in each field's fixed unit; and numbers
 * for humans (about four significant digits, scaled to a unit).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

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
    return rep->swept_key && strcmp(rep->swept_key, f->key) == 0;
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
                if (n == MAX_COLUMNS)
                    return n;
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
static bool column_used(const chalk_report *rep, const column *c, chalk_rows *rows)
{
    if (chalk_row(rows, 0)->fields[c->field].kind != CHALK_BY_DTYPE)
        return true;
    for (long row = 0; row < rep->rows; row++)
        if (chalk_row(rows, row)->fields[c->field].by_dtype[c->dtype] > 0.0)
            return true;
    return false;
}

static void print_columns(const chalk_report *rep, chalk_rows *rows)
{
    column cols[MAX_COLUMNS];
    int planned = plan_columns(rep, chalk_row(rows, 0), cols), n = 0;
    for (int c = 0; c < planned; c++)
        if (column_used(rep, &cols[c], rows))
            cols[n++] = cols[c];
    char cell[CELL_CHARS];
    for (long row = 0; row < rep->rows; row++) { /* pass 1: widths */
        const chalk_record *r = chalk_row(rows, row);
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
        const chalk_record *r = chalk_row(rows, row);
        for (int c = 0; c < n; c++) {
            format_cell(cell, sizeof cell, &r->fields[cols[c].field], cols[c].dtype);
            bool last = c + 1 == n;
            int width = cols[c].left ? (last ? 0 : -cols[c].width) : cols[c].width;
            printf(c ? "  %*s" : "%*s", width, cell);
        }
        putchar('\n');
    }
}

void chalk_emit_table(const chalk_report *rep, chalk_rows *rows)
{
    bool many = rep->is_list || rep->swept_key;
    if (!many || rep->swept_key) {
        printf("%s\n\n", rep->title);
        print_fields(chalk_row(rows, 0), rep, many);
        if (!many)
            return;
        printf("\n");
    }
    print_columns(rep, rows);
}

/* ---- numbers for humans ------------------------------------------------------------------------ */

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
