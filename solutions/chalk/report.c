/*
 * report.c -- a report's rows, checked, then written as JSON or CSV (a table:
 * table.c; records: record.c).
 *
 * A command describes what it prints as a chalk_report: a number of rows and a
 * function that builds one row's record. Every row is built and checked (finite
 * numbers, a reason beside every null) before the first byte is printed, so a bad
 * point is one error line, never half an output. A report of a few rows keeps its
 * records (a Monte-Carlo row is built once); a long one, as JSON or CSV, is written
 * to memory as its rows are built and checked, and printed when all are good
 * (emit_long). Numbers are printed as printf's %.17g (or %.Ng with --digits N)
 * prints them (number.c): 17 digits read back to the same double.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void print_number(FILE *out, double x, int digits)
{
    char buf[CHALK_NUM_CHARS];
    fwrite(buf, 1, (size_t)chalk_format_number(buf, x, digits), out);
}

/* ---- the rows ----------------------------------------------------------------------------- */

enum { KEEP_ROWS = 256 }; /* at most this many records kept (14 kB each) */

struct chalk_rows {
    const chalk_report *rep;
    chalk_record **kept; /* every row's record, or NULL: built again when asked */
    chalk_record full;   /* a row built again */
    bool no_notes;
    /* --columns: the fields kept, in the order asked */
    const char *columns;
    int count;
    int index[CHALK_MAX_FIELDS];           /* where each was in the first row */
    const char *literal[CHALK_MAX_FIELDS]; /* its key there (the same pointer: the same key) */
    char key[CHALK_MAX_FIELDS][64];
    chalk_record projected;
};

static const chalk_record *full_row(chalk_rows *rows, long i)
{
    if (rows->kept)
        return rows->kept[i];
    rows->full.no_notes = rows->no_notes;
    rows->rep->build(rows->rep->ctx, i, &rows->full);
    return &rows->full;
}

/* A built row with --columns applied. */
static const chalk_record *projected(chalk_rows *rows, const chalk_record *r)
{
    if (!rows->columns)
        return r;
    chalk_record *out = &rows->projected;
    chalk_clear(out);
    for (int c = 0; c < rows->count; c++) {
        int at = rows->index[c];
        bool same = at < r->count && (r->fields[at].key == rows->literal[c] ||
                                      strcmp(r->fields[at].key, rows->key[c]) == 0);
        if (!same) {
            const chalk_field *f = chalk_find(r, rows->key[c]); /* a row shaped otherwise */
            at = f ? (int)(f - r->fields) : -1;
        }
        if (at >= 0)
            out->fields[out->count++] = r->fields[at];
    }
    return out;
}

const chalk_record *chalk_row(chalk_rows *rows, long i)
{
    return projected(rows, full_row(rows, i));
}

/* Reads --columns against the first row's keys; an unknown key names the known. */
static int project(chalk_rows *rows)
{
    const chalk_record *first = full_row(rows, 0);
    for (const char *c = rows->columns; *c;) {
        size_t n = strcspn(c, ",");
        int at = -1;
        for (int i = 0; i < first->count && at < 0; i++)
            if (strlen(first->fields[i].key) == n && strncmp(first->fields[i].key, c, n) == 0)
                at = i;
        if (at < 0) {
            char known[2048] = "";
            size_t used = 0;
            for (int i = 0; i < first->count && used < sizeof known; i++)
                used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                         first->fields[i].key);
            return chalk_fail("--columns: no column \"%.*s\" here (columns: %s)", (int)n, c, known);
        }
        if (rows->count == CHALK_MAX_FIELDS)
            return chalk_fail("--columns: at most %d columns", CHALK_MAX_FIELDS);
        rows->index[rows->count] = at;
        const char *key = first->fields[at].key; /* rebuilt rows reuse one arena */
        bool in_arena = key >= first->arena && key < first->arena + sizeof first->arena;
        rows->literal[rows->count] = in_arena ? NULL : key;
        snprintf(rows->key[rows->count++], sizeof rows->key[0], "%s", first->fields[at].key);
        c += n + (c[n] == ',');
    }
    return rows->count ? CHALK_OK : chalk_fail("--columns needs at least one column");
}

/* Builds and checks every row; keeps them when there are few. */
static int prepare(chalk_rows *rows)
{
    const chalk_report *rep = rows->rep;
    if (rep->rows <= KEEP_ROWS) {
        rows->kept = calloc((size_t)rep->rows, sizeof *rows->kept);
        if (!rows->kept)
            return chalk_fail("out of memory for %ld rows", rep->rows);
    }
    for (long i = 0; i < rep->rows; i++) {
        chalk_record *r = &rows->full;
        if (rows->kept && !(r = rows->kept[i] = malloc(sizeof *r)))
            return chalk_fail("out of memory for %ld rows", rep->rows);
        r->no_notes = rows->no_notes;
        rep->build(rep->ctx, i, r);
        bool unexplained;
        const char *bad = chalk_check_record(r, &unexplained);
        if (bad || unexplained) {
            if (rep->refuse)
                return rep->refuse(rep->ctx, i, bad);
            return chalk_fail("%s", bad ? "a result is out of range for these inputs"
                                        : "a result is missing its reason (a bug)");
        }
    }
    return CHALK_OK;
}

static void release(chalk_rows *rows)
{
    for (long i = 0; rows->kept && i < rows->rep->rows; i++)
        free(rows->kept[i]);
    free(rows->kept);
}

/* ---- JSON --------------------------------------------------------------------------------- */

static void json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            putc(c, out);
    }
    putc('"', out);
}

static void json_value(FILE *out, const chalk_field *f, int digits)
{
    switch (f->kind) {
    case CHALK_NUMBER:
        print_number(out, f->number, digits);
        return;
    case CHALK_STRING:
        json_string(out, f->text);
        return;
    case CHALK_BOOL:
        fputs(f->yes ? "true" : "false", out);
        return;
    case CHALK_NULL:
        fputs("null", out);
        return;
    case CHALK_BY_DTYPE: {
        bool first = true;
        putc('{', out);
        for (int d = 0; d < COST_DTYPE_COUNT; d++) {
            if (f->by_dtype[d] <= 0.0)
                continue;
            fprintf(out, "%s\"%s\":", first ? "" : ",", cost_dtype_name((cost_dtype)d));
            print_number(out, f->by_dtype[d], digits);
            first = false;
        }
        putc('}', out);
        return;
    }
    }
}

/* One object: indented one key a line, or compact on one line. */
static void json_record(FILE *out, const chalk_record *r, bool indented, int digits)
{
    putc('{', out);
    for (int i = 0; i < r->count; i++) {
        fputs(i ? (indented ? ",\n  " : ",") : (indented ? "\n  " : ""), out);
        json_string(out, r->fields[i].key);
        fputs(indented ? ": " : ":", out);
        json_value(out, &r->fields[i], digits);
    }
    fputs(indented ? "\n}" : "}", out);
}

/* ---- CSV ---------------------------------------------------------------------------------- */

static void csv_text(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    putc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}

/* A by-precision field spreads over one column per precision: key_bf16, key_fp8... */
static void csv_header(FILE *out, const chalk_record *r)
{
    for (int i = 0; i < r->count; i++) {
        const chalk_field *f = &r->fields[i];
        if (f->kind != CHALK_BY_DTYPE) {
            fprintf(out, "%s%s", i ? "," : "", f->key);
            continue;
        }
        for (int d = 0; d < COST_DTYPE_COUNT; d++)
            fprintf(out, "%s%s_%s", i || d ? "," : "", f->key, cost_dtype_name((cost_dtype)d));
    }
    putc('\n', out);
}

static void csv_row(FILE *out, const chalk_record *r, int digits)
{
    for (int i = 0; i < r->count; i++) {
        const chalk_field *f = &r->fields[i];
        if (i)
            putc(',', out);
        switch (f->kind) {
        case CHALK_NUMBER:
            print_number(out, f->number, digits);
            break;
        case CHALK_STRING:
            csv_text(out, f->text);
            break;
        case CHALK_BOOL:
            fputs(f->yes ? "true" : "false", out);
            break;
        case CHALK_NULL:
            break; /* an empty cell */
        case CHALK_BY_DTYPE:
            for (int d = 0; d < COST_DTYPE_COUNT; d++) {
                if (d)
                    putc(',', out);
                if (f->by_dtype[d] > 0.0)
                    print_number(out, f->by_dtype[d], digits);
            }
            break;
        }
    }
    putc('\n', out);
}

/* ---- the report ----------------------------------------------------------------------------- */

/* Row i of many as JSON (with what comes before it) or CSV (the header first). */
static void many_row(FILE *out, const chalk_args *a, const chalk_report *rep, long i,
                     const chalk_record *r, int digits)
{
    if (a->format == CHALK_JSON) {
        if (i == 0)
            fputs(rep->is_list ? "[\n" : "{\"rows\":[\n", out);
        json_record(out, r, false, digits);
        fputs(i + 1 < rep->rows ? ",\n" : "\n", out);
        if (i + 1 == rep->rows)
            fputs(rep->is_list ? "]\n" : "]}\n", out);
    } else {
        if (i == 0)
            csv_header(out, r);
        csv_row(out, r, digits);
    }
}

enum { BUFFER_BYTES = 16 << 20 }; /* a 100,000-row sweep of 8 columns is 8 MB */

/* A long report as JSON or CSV, each row built once: built, checked and written to
 * memory; the text goes out when every row is good. Past BUFFER_BYTES of text the
 * remaining rows are only checked, then built again as they are written. */
static int emit_long(const chalk_args *a, chalk_rows *rows, int digits)
{
    const chalk_report *rep = rows->rep;
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (!mem)
        return chalk_fail("out of memory for %ld rows", rep->rows);
    long in_memory = 0;
    int status = CHALK_OK;
    for (long i = 0; i < rep->rows && !status; i++) {
        const chalk_record *r = full_row(rows, i);
        bool unexplained;
        const char *bad = chalk_check_record(r, &unexplained);
        if (bad || unexplained)
            status = rep->refuse(rep->ctx, i, bad);
        else if (i == 0 && rows->columns)
            status = project(rows);
        if (!status && in_memory == i && ftell(mem) < BUFFER_BYTES)
            many_row(mem, a, rep, in_memory++, projected(rows, r), digits);
    }
    if (fclose(mem) != 0 && !status)
        status = chalk_fail("out of memory for %ld rows", rep->rows);
    if (!status) {
        fwrite(text, 1, size, stdout);
        for (long i = in_memory; i < rep->rows && !ferror(stdout); i++)
            many_row(stdout, a, rep, i, chalk_row(rows, i), digits);
    }
    free(text);
    return status;
}

int chalk_emit(const chalk_args *a, const chalk_report *rep)
{
    static chalk_rows rows; /* one report a run; too large for the stack */
    rows = (chalk_rows){.rep = rep, .no_notes = a->format != CHALK_TABLE, .columns = a->columns};
    int digits = a->digits >= 1 && a->digits <= 17 ? a->digits : 17;
    bool many = rep->is_list || rep->swept_key;
    if (many && a->format != CHALK_TABLE && rep->rows > KEEP_ROWS && rep->refuse)
        return emit_long(a, &rows, digits);
    int status = prepare(&rows);
    if (!status && rows.columns)
        status = project(&rows);
    if (status) {
        release(&rows);
        return status;
    }
    FILE *out = stdout;
    if (a->format == CHALK_TABLE) {
        chalk_emit_table(rep, &rows);
    } else if (a->format == CHALK_JSON && !many) {
        json_record(out, chalk_row(&rows, 0), true, digits);
        putc('\n', out);
    } else if (rep->rows == 0 && a->format == CHALK_JSON) {
        fputs(rep->is_list ? "[\n]\n" : "{\"rows\":[\n]}\n", out);
    } else {
        for (long i = 0; i < rep->rows && !ferror(out); i++)
            many_row(out, a, rep, i, chalk_row(&rows, i), digits);
    }
    release(&rows);
    return CHALK_OK; /* a failed write is reported once, by main */
}
