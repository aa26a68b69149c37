/*
 * record.c -- building a record: one point's named values (chalk.h, "records").
 *
 * Strings are copied into the record's arena. What is not finite, any null put
 * without its reason, and a record too small for what was put into it are noted as
 * they are put, for chalk_check_record, which the writers call on every row before
 * they print anything.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* ---- building a record ------------------------------------------------------------------ */

void chalk_clear(chalk_record *r)
{
    r->count = 0;
    r->used = 0;
    r->not_finite = NULL;
    r->unexplained = 0;
    r->by_dtype = false;
    r->overflow = false;
}

/* Copies s into the arena; a record too full to hold it is noted (a bug of the
 * command's: chalk_check_record reports it) and the text cut to "". */
static const char *keep(chalk_record *r, const char *s)
{
    size_t n = strlen(s) + 1;
    if (r->used + n > sizeof r->arena) {
        r->overflow = true;
        return "";
    }
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
    static chalk_field spare; /* where a field goes when the record is full */
    chalk_field *f = &spare;
    if (r->count < CHALK_MAX_FIELDS)
        f = &r->fields[r->count++];
    else
        r->overflow = true;
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

/* KEY_reason after KEY: null when there is a value. */
static void put_reason(chalk_record *r, const char *key, unsigned flags, const char *reason)
{
    static const char TAIL[] = "_reason";
    size_t n = strlen(key);
    const char *reason_key = "";
    if (r->used + n + sizeof TAIL <= sizeof r->arena) {
        char *k = r->arena + r->used;
        memcpy(k, key, n);
        memcpy(k + n, TAIL, sizeof TAIL);
        r->used += n + sizeof TAIL;
        reason_key = k;
    } else {
        r->overflow = true;
    }
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

const chalk_field *chalk_find(const chalk_record *r, const char *key)
{
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->fields[i].key, key) == 0)
            return &r->fields[i];
    return NULL;
}

/* ---- checks on what a command computed ---------------------------------------------------- */

const char *chalk_check_record(const chalk_record *r, bool *unexplained)
{
    *unexplained = false;
    if (r->overflow) {
        *unexplained = true;
        return NULL;
    }
    const char *bad = r->not_finite;
    for (int i = 0; r->by_dtype && i < r->count && !bad; i++) { /* set after their put */
        const chalk_field *f = &r->fields[i];
        for (int d = 0; f->kind == CHALK_BY_DTYPE && d < COST_DTYPE_COUNT; d++)
            if (!isfinite(f->by_dtype[d]))
                bad = f->key;
    }
    if (bad)
        return bad;
    for (int i = 0; i < r->count && r->unexplained > 0; i++) {
        const chalk_field *f = &r->fields[i];
        if (f->kind == CHALK_NULL && !(f->flags & (CHALK_INPUT | CHALK_TEXT))) {
            char reason_key[128];
            snprintf(reason_key, sizeof reason_key, "%s_reason", f->key);
            const chalk_field *why = chalk_find(r, reason_key);
            if (!why || why->kind != CHALK_STRING)
                *unexplained = true;
        }
    }
    return NULL;
}
