/*
 * core.c -- runs a command from its table (chalk.h, "commands and chapters").
 *
 * For every command the same steps, in order, each stopping at the first bad input
 * with one error line and exit status 2, before anything is printed:
 *   1. the deployment it needs (deploy.c), when it has one;
 *   2. every input it declares: a number in its range, a sweep where it sweeps, a
 *      word among its choices or presets; at most one sweep;
 *   3. the required ones ("CMD needs --X ARG (what)", from the table);
 *   4. its cross-flag check, at every point of the sweep;
 *   5. its rows, one record per point, to the writers (chalk_emit), which build and
 *      check every row before they print the first byte; or its own `run`.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "chalk.h"

typedef struct run_state {
    const chalk_args *a;
    void (*build)(const chalk_point *p, chalk_record *r);
    chalk_deploy d;
    chalk_sweep sweep[CHALK_MAX_INPUTS];
    int swept; /* the input that varies, or -1 */
    long rows;
    chalk_point p; /* moved to each row in turn */
} run_state;

/* ---- a point's inputs ------------------------------------------------------------------- */

static int index_of(const chalk_point *p, const chalk_flag *f)
{
    for (int i = 0; i < p->n; i++)
        if (p->flag[i] == f)
            return i;
    assert(!"a flag the command's table does not declare");
    return -1;
}

double chalk_in(const chalk_point *p, const chalk_flag *f)
{
    return p->x[index_of(p, f)];
}

double chalk_in_at(const chalk_point *p, const chalk_flag *f, long row)
{
    int i = index_of(p, f);
    return p->given[i] ? chalk_sweep_at(&p->sweep[i], row) : p->x[i];
}

int chalk_cap_work(const chalk_point *p, double seconds, const char *advice)
{
    if (!(seconds > CHALK_MAX_WORK_S))
        return CHALK_OK;
    return chalk_fail("%s: this would take about %.2g s of computing, over the cap of %d s (%s)",
                      p->cmd->name, seconds, CHALK_MAX_WORK_S, advice);
}

bool chalk_takes(const chalk_point *p, const chalk_flag *f)
{
    for (int i = 0; i < p->n; i++)
        if (p->flag[i] == f)
            return true;
    return false;
}

bool chalk_has(const chalk_point *p, const chalk_flag *f)
{
    return p->given[index_of(p, f)];
}

long chalk_pick(const chalk_point *p, const chalk_flag *f)
{
    return p->pick[index_of(p, f)];
}

const char *chalk_text(const chalk_point *p, const chalk_flag *f)
{
    return chalk_value(p->args, f);
}

/* ---- cross-flag rules ----------------------------------------------------------------------- */

int chalk_exactly_one(const chalk_point *p, const chalk_flag *const *flags)
{
    int count = 0, n = 0;
    for (; flags[n]; n++)
        count += chalk_given(p->args, flags[n]);
    if (count == 1)
        return CHALK_OK;
    char list[192] = "";
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 i == 0 ? "" : i == n - 1 ? " or " : ", ", flags[i]->name);
    return chalk_fail("%s needs exactly one of %s%s", p->cmd->name, list,
                      count ? " (not several)" : "");
}

int chalk_together(const chalk_point *p, const chalk_flag *a, const chalk_flag *b)
{
    if (chalk_given(p->args, a) == chalk_given(p->args, b))
        return CHALK_OK;
    return chalk_fail("%s: %s and %s go together", p->cmd->name, a->name, b->name);
}

int chalk_not_both(const chalk_point *p, const chalk_flag *a, const chalk_flag *b)
{
    if (!chalk_given(p->args, a) || !chalk_given(p->args, b))
        return CHALK_OK;
    return chalk_fail("%s takes %s %s or %s %s, not both", p->cmd->name, a->name,
                      a->arg ? a->arg : "", b->name, b->arg ? b->arg : "");
}

int chalk_require(const chalk_point *p, const chalk_flag *f)
{
    if (chalk_given(p->args, f))
        return CHALK_OK;
    if (f->what)
        return chalk_fail("%s needs %s %s (%s)", p->cmd->name, f->name, f->arg ? f->arg : "",
                          f->what);
    return chalk_fail("%s needs %s %s", p->cmd->name, f->name, f->arg ? f->arg : "");
}

/* ---- reading the inputs --------------------------------------------------------------------- */

/* A word flag's value: the index of its choice or preset, or an error naming the
 * nearest. */
static int read_word(const chalk_flag *f, const char *text, long *pick)
{
    if (f->kind) {
        *pick = chalk_find_preset(f->kind, text);
        return *pick < 0 ? CHALK_USAGE : CHALK_OK;
    }
    size_t n = 0;
    while (f->choices[n])
        n++;
    for (size_t i = 0; i < n; i++)
        if (cost_name_equal(f->choices[i], text)) {
            *pick = (long)i;
            return CHALK_OK;
        }
    char hint[256];
    chalk_suggest(hint, sizeof hint, text, f->choices, n);
    return chalk_fail("%s: unknown value \"%s\"%s", f->name, text, hint);
}

static int read_inputs(run_state *s)
{
    const chalk_command *cmd = s->a->cmd;
    chalk_point *p = &s->p;
    s->swept = -1;
    for (const chalk_input *in = cmd->inputs; in && in->flag; in++) {
        assert(p->n < CHALK_MAX_INPUTS && "raise CHALK_MAX_INPUTS");
        int i = p->n++;
        const chalk_flag *f = in->flag;
        p->flag[i] = f;
        p->x[i] = in->fallback;
        p->pick[i] = -1;
        const char *text = chalk_value(s->a, f);
        p->given[i] = text != NULL;
        s->sweep[i] = (chalk_sweep){.flag = f, .points = 1, .one = in->fallback};
        int status = CHALK_OK;
        if (f->unit == CHALK_U_WORD) {
            if (text && (f->choices || f->kind))
                status = read_word(f, text, &p->pick[i]);
        } else {
            double max = in->max > 0 ? in->max : f->max;
            status = chalk_sweep_read(s->a, f, f->min, max, f->rules | in->rules, &s->sweep[i]);
            if (!status && p->given[i])
                p->x[i] = chalk_sweep_at(&s->sweep[i], 0);
            else if (!status)
                s->sweep[i].one = in->fallback;
            if (!status && chalk_sweeps(&s->sweep[i])) {
                if (s->swept >= 0)
                    status = chalk_fail("sweep one variable at a time (both %s and %s are sweeps)",
                                        p->flag[s->swept]->name, f->name);
                s->swept = i;
            }
        }
        if (status)
            return status;
    }
    for (const chalk_input *in = cmd->inputs; in && in->flag; in++)
        if ((in->rules & CHALK_REQUIRED) && !chalk_given(s->a, in->flag))
            return chalk_require(p, in->flag);
    p->swept = s->swept >= 0 ? p->flag[s->swept] : NULL;
    s->rows = s->swept >= 0 ? s->sweep[s->swept].points : 1;
    p->rows = s->rows;
    p->sweep = s->sweep;
    return CHALK_OK;
}

/* Moves the point to `row` of the sweep. */
static void point_at(run_state *s, long row)
{
    s->p.row = row;
    if (s->swept >= 0)
        s->p.x[s->swept] = chalk_sweep_at(&s->sweep[s->swept], row);
}

/* ---- rows ------------------------------------------------------------------------------------- */

static void build_row(const void *ctx, long row, chalk_record *r)
{
    run_state *s = (run_state *)ctx; /* the core's own state: only the point moves */
    point_at(s, row);
    s->build(&s->p, r);
}

/* "--batch 1e-300, --context 0": the inputs given, at `row`. */
static void describe_point(run_state *s, long row, char *buf, size_t size)
{
    point_at(s, row);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->p.n && used < size; i++) {
        const chalk_flag *f = s->p.flag[i];
        if (!s->p.given[i] || f->unit == CHALK_U_WORD)
            continue;
        used += (size_t)snprintf(buf + used, size - used, "%s%s %.6g", used ? ", " : "", f->name,
                                 s->p.x[i]);
    }
    if (!used)
        snprintf(buf, size, "these inputs");
}

static int refuse_row(const void *ctx, long row, const char *key)
{
    run_state *s = (run_state *)ctx;
    char inputs[512];
    describe_point(s, row, inputs, sizeof inputs);
    if (!key) /* a null without its reason: the command's bug */
        return chalk_fail("%s at %s: a result is missing its reason (a bug: please report it)",
                          s->p.cmd->name, inputs);
    return chalk_fail("%s: no finite result at %s (a value too large or too small for the "
                      "formulas; try one less extreme)",
                      s->p.cmd->name, inputs);
}

static run_state s; /* one command a run; too large for the stack */

int chalk_emit_points(const chalk_point *p, const char *title,
                      void (*build)(const chalk_point *p, chalk_record *r))
{
    assert(p == &s.p && "the point the core gave");
    s.build = build;
    chalk_report rep = {
        .title = title,
        .rows = s.rows,
        .swept_key = s.p.swept ? s.p.swept->key : NULL,
        .build = build_row,
        .ctx = &s,
        .refuse = refuse_row,
    };
    return chalk_emit(s.a, &rep);
}

int chalk_run(const chalk_args *a)
{
    const chalk_command *cmd = a->cmd;
    s = (run_state){.a = a, .p = {.cmd = cmd, .args = a}};
    s.d.cmd = cmd->name;
    s.p.d = &s.d;
    int status = CHALK_OK;
    if (cmd->needs)
        status = chalk_deploy_resolve(a, cmd->needs & ~(unsigned)CHALK_DEPLOY, &s.d);
    if (!status)
        status = read_inputs(&s);
    for (long row = 0; !status && cmd->check && row < s.rows; row++) {
        point_at(&s, row);
        status = cmd->check(&s.p);
    }
    if (!status) {
        point_at(&s, 0);
        status = cmd->run ? cmd->run(&s.p) : chalk_emit_points(&s.p, cmd->title, cmd->build);
    }
    for (int i = 0; i < s.p.n; i++)
        chalk_sweep_free(&s.sweep[i]);
    return status;
}
