/*
 * report.c -- a report written as JSON or CSV (a table: table.c; records: record.c).
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
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report.h"

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
        if ((status = chalk_check_record(r)))
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

/* Copies to standard output what the child writes into fd, as it writes it (with
 * pread, at an offset of its own: the child's writes move the file's offset), until the
 * child has exited and all is copied. Returns its exit status (waitpid's). */
static int follow_child(pid_t child, int fd, line *l)
{
    off_t done = 0;
    int wstatus = 0;
    bool exited = false;
    for (;;) {
        ssize_t n = pread(fd, l->text, sizeof l->text, done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0) {
            done += n;
            l->len = (size_t)n;
            flush_line(l);
            continue;
        }
        if (n < 0 && !l->error)
            l->error = errno;
        if (exited || n < 0)
            break;
        pid_t w = waitpid(child, &wstatus, WNOHANG);
        if (w == child)
            exited = true; /* one more read: what it wrote last */
        else if (w < 0 && errno != EINTR)
            break;
        else
            nanosleep(&(struct timespec){.tv_nsec = 200000}, NULL); /* 0.2 ms */
    }
    if (!exited)
        while (waitpid(child, &wstatus, 0) < 0 && errno == EINTR)
            ;
    return wstatus;
}

/* A long sweep on a machine with two cores or more: the second half of the rows is
 * computed by a child process into a temporary file while this one writes the first
 * half, then copied after it (as it grows), so the bytes are those one process writes. Each
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
    if (status || l->error) { /* nothing more is written after an error */
        kill(child, SIGKILL);
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
            ;
        fclose(tmp);
        return status;
    }
    int wstatus = follow_child(child, fileno(tmp), l);
    if (!(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) && !l->error)
        /* the child said why on stderr, unless it could not write its file */
        status = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == CHALK_USAGE
                     ? CHALK_USAGE
                     : chalk_fail("the second half of the sweep could not be written");
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
        return chalk_emit_table(rep, &r);
    case CHALK_JSON:
    case CHALK_CSV:
        if (a->format == CHALK_JSON && !many) {
            rep->build(rep->ctx, 0, &r);
            if ((status = chalk_check_record(&r)))
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
