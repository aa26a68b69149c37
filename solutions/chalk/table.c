/*
 * table.c -- a report as a table for humans: one preset or point as "label  value"
 * lines, a list or a sweep as aligned columns in each field's fixed unit.
 */
#include <assert.h>
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
        int status = chalk_check_record(r);
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

int chalk_emit_table(const chalk_report *rep, chalk_record *r)
{
    bool many = rep->is_list || rep->swept;
    if (!many || rep->swept) {
        rep->build(rep->ctx, 0, r);
        int status = chalk_check_record(r);
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
