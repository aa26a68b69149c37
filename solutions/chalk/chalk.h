/*
 * chalk.h -- what every file of the calculator shares (solutions/chalk/README.md).
 *
 * build/chalk is one program whose commands are data:
 *
 *   main.c         help, and argv to a command
 *   core.c         runs a command from its table: reads and checks every input it
 *                  declares, resolves the deployment, walks the sweep, hands each
 *                  point's record to the writers; cross-flag rules for the checks
 *   args.c         errors, numbers and their ranges, sweeps, "did you mean"
 *   flags.c        the flags several chapters share, and the output flags
 *   deploy.c       a model on hardware, from presets and overriding flags; its echo
 *   record.c       records: one point's named values
 *   report.c       records written as JSON or CSV (report.h: what the writers share)
 *   table.c        records written as a table for humans; numbers for humans
 *   number.c       a number as printf's %.*g prints it, faster (README.md, Speed)
 *   presets.c      chalk list, chalk show, chalk flags
 *   check.c        chalk check-answers (reads JSON with cJSON)
 *   NN-topic.c     one chapter's flags, command table and row builders
 *   NN-topic-PART.c, NN-topic.h   a chapter's second file and what the two share:
 *                  02-moe-routing.c, 02-moe.h, 03-pipelining-split.c, 03-pipelining.h,
 *                  04-overtraining-life.c, 04-overtraining.h, 05-long-context-kv.c,
 *                  05-long-context-prices.c, 05-long-context.h, 06-revnets-memory.c,
 *                  06-revnets.h; and 01-batching.h,
 *                  chapter 1's deployment for chapter 3
 *
 * A chapter adds its commands by adding one file, solutions/chalk/NN-topic.c, that
 * defines `const chalk_chapter chalk_chapter_NN_topic` (the file name with '-' as
 * '_'). The Makefile lists those names for main.c (-DCHALK_CHAPTERS); nothing
 * shared names a chapter.
 *
 * The calculator does no physics of its own: numbers come from lib/ (presets,
 * shapes) and from the chapters' reference functions (solutions/NN-topic/). What
 * lives here is plumbing: flags in, records of named values out.
 *
 * Errors in the reader's input get ONE line on stderr, "chalk: error: ...", and
 * exit status 2 (chalk_fail), never a crash or a silent default, and always before
 * anything is printed.
 */
#ifndef CHALK_CHALK_H
#define CHALK_CHALK_H

#include <stdbool.h>
#include <stddef.h>

#include "cost.h"

enum { CHALK_OK = 0, CHALK_USAGE = 2 };

/* Prints ONE line, "chalk: error: ...", to stderr and returns CHALK_USAGE, so that a
 * caller can `return chalk_fail(...)`. Control characters are replaced by '?', so
 * a pasted newline cannot split the line. */
int chalk_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- units: what a number measures ---------------------------------------------------- */

/* How a value is shown to a human; JSON and CSV always carry plain SI numbers. A
 * flag's unit says what it measures: one flag name, one unit, in every command. */
typedef enum chalk_unit {
    CHALK_U_PLAIN,     /* a bare number */
    CHALK_U_COUNT,     /* a count: 2,400 */
    CHALK_U_PARAMS,    /* parameters, shown in billions */
    CHALK_U_SEQUENCES, /* sequences (a batch) */
    CHALK_U_TOKENS,    /* tokens */
    CHALK_U_SECONDS,   /* s, ms, us, ns as it fits */
    CHALK_U_BYTES,     /* bytes, kB, MB, GB, TB as it fits (SI) */
    CHALK_U_BYTES_PER_TOKEN,
    CHALK_U_BYTES_PER_PARAM,
    CHALK_U_BYTES_PER_S,
    CHALK_U_FLOPS, /* a count of FLOPs */
    CHALK_U_FLOPS_PER_S,
    CHALK_U_TOKENS_PER_S,
    CHALK_U_USD,
    CHALK_U_USD_PER_MTOK, /* USD per million tokens */
    CHALK_U_USD_PER_HOUR, /* USD per chip-hour */
    CHALK_U_FRACTION,     /* a share 0..1, shown as a percentage */
    CHALK_U_RATIO,        /* a ratio, shown as 2.5x */
    CHALK_U_BITS,
    CHALK_U_WORD, /* not a number: a name (a preset, a schedule, a cipher) */
    CHALK_U_COUNT_OF_UNITS
} chalk_unit;

/* The unit's name for `chalk flags` ("seconds", "bytes/s"). */
const char *chalk_unit_name(chalk_unit u);

/* ---- flags and inputs ------------------------------------------------------------------- */

/* Rules on a flag's number, beyond its [min, max] range. */
enum {
    CHALK_WHOLE = 1u << 0,     /* a whole number */
    CHALK_ABOVE_MIN = 1u << 1, /* min itself is not allowed: x > min */
};

/* A kind of preset that `chalk list KIND` and `chalk show KIND NAME` print, and that
 * a flag may name (--model, --hw, --api...). The core has hw and models (presets.c);
 * a chapter may add its own (dated API prices...). */
typedef struct chalk_preset_options {
    cost_dtype dtype, kv_dtype;
} chalk_preset_options;

typedef struct chalk_record chalk_record;
typedef struct chalk_point chalk_point;

typedef struct chalk_preset_kind {
    const char *word;  /* "api": chalk list api, chalk show api NAME */
    const char *alias; /* another spelling accepted ("apis"), or NULL */
    const char *about; /* for help: "dated API prices: USD per million tokens" */
    bool takes_dtype;  /* --dtype/--kv-dtype change what put shows */
    size_t (*count)(void);
    const char *(*name)(size_t i); /* the i-th preset's name, for show and suggestions */
    /* Puts the i-th preset's fields into r (chalk_clear first). */
    void (*put)(chalk_record *r, size_t i, const chalk_preset_options *o);
    const char *singular; /* the word in "unknown hw \"x\"" ("model"), or NULL: word */
} chalk_preset_kind;

extern const chalk_preset_kind chalk_kind_hw, chalk_kind_models;

/* One flag: what it measures, once for the whole calculator. A name means one
 * quantity in one unit and is echoed under one JSON key in every command that takes
 * it (tests/chalk/test_core.c checks it over every command's table). A command
 * takes a flag through a chalk_input, which adds that command's rules. */
typedef struct chalk_flag {
    const char *name;  /* "--batch" */
    const char *arg;   /* placeholder for the value, "B"; NULL for a switch */
    const char *key;   /* the JSON key of the input it sets ("batch"); NULL if none */
    chalk_unit unit;   /* what it measures; CHALK_U_WORD for a name */
    double min, max;   /* the allowed range of a number: min <= x <= max */
    unsigned rules;    /* CHALK_WHOLE | CHALK_ABOVE_MIN */
    const char *what;  /* the words after "needs --batch B": "sequences per step"; or NULL */
    const char *group; /* heading it is listed under in help ("workload") */
    const char *help;  /* one sentence */
    const char *const *choices;     /* a word flag: the words it takes, NULL-terminated */
    const chalk_preset_kind *kind;  /* a word flag: the presets it names */
} chalk_flag;

/* A command's rules for one of its flags (besides CHALK_WHOLE and CHALK_ABOVE_MIN,
 * which an input may add to its flag's). */
enum {
    CHALK_REQUIRED = 1u << 4, /* the command cannot run without it */
    CHALK_SWEEPS = 1u << 5,   /* may be a sweep (A:B, A:B:N, a,b,c) here */
};

typedef struct chalk_input {
    const chalk_flag *flag; /* NULL ends a command's list */
    unsigned rules;         /* CHALK_REQUIRED | CHALK_SWEEPS | CHALK_WHOLE | CHALK_ABOVE_MIN */
    double fallback;        /* its value when not given (chalk_in) */
    double max;             /* this command's narrower maximum, or 0: the flag's */
    const char *help;       /* this command's help line for it, or NULL: the flag's */
} chalk_input;

/* The flags several chapters share (flags.c). The model: a preset, flags alone, or
 * a preset with flags overriding it. */
extern const chalk_flag CHALK_F_MODEL, CHALK_F_PARAMS_TOTAL, CHALK_F_PARAMS_ACTIVE,
    CHALK_F_WEIGHT_BYTES, CHALK_F_KV_BYTES;
/* The hardware, per chip. */
extern const chalk_flag CHALK_F_HW, CHALK_F_CHIPS, CHALK_F_FLOPS, CHALK_F_HBM_BPS,
    CHALK_F_HBM_BYTES, CHALK_F_USD;
/* Precision. */
extern const chalk_flag CHALK_F_DTYPE, CHALK_F_KV_DTYPE;
/* The workload most chapters share. */
extern const chalk_flag CHALK_F_BATCH, CHALK_F_CONTEXT;
/* The longest acceptable decode step (chapters 1 and 2). */
extern const chalk_flag CHALK_F_TARGET_STEP;

/* The model and the rates of the hardware, as a command's first inputs:
 *   static const chalk_input DECODE[] = {CHALK_MODEL_INPUTS, CHALK_RATE_INPUTS,
 *                                        {&CHALK_F_BATCH, CHALK_REQUIRED}, {NULL}}; */
#define CHALK_MODEL_INPUTS                                                                         \
    {&CHALK_F_MODEL}, {&CHALK_F_PARAMS_TOTAL}, {&CHALK_F_PARAMS_ACTIVE}, {&CHALK_F_WEIGHT_BYTES},  \
        {&CHALK_F_KV_BYTES}, {&CHALK_F_DTYPE}, {&CHALK_F_KV_DTYPE}
#define CHALK_RATE_INPUTS {&CHALK_F_HW}, {&CHALK_F_CHIPS}, {&CHALK_F_FLOPS}, {&CHALK_F_HBM_BPS}

/* ---- the command line -------------------------------------------------------------------- */

typedef enum chalk_format { CHALK_TABLE, CHALK_JSON, CHALK_CSV } chalk_format;

enum { CHALK_MAX_WORDS = 3, CHALK_MAX_GIVEN = 48, CHALK_MAX_INPUTS = 40 };

/* The command line after the command's name, read but not interpreted. */
typedef struct chalk_args {
    const struct chalk_command *cmd;
    const char *words[CHALK_MAX_WORDS]; /* positional words */
    int nwords;
    const chalk_flag *flag[CHALK_MAX_GIVEN]; /* the flags given, in order */
    const char *value[CHALK_MAX_GIVEN];      /* as typed; "" for a switch */
    int ngiven;
    chalk_format format;
    const char *columns; /* --columns a,b,c: only these keys, in this order; or NULL */
    int digits;          /* --digits N: significant digits in JSON and CSV (17: exact) */
} chalk_args;

/* The output flags every command takes (flags.c), NULL-terminated. */
extern const chalk_flag *const chalk_output_flags[];
extern const chalk_flag CHALK_F_JSON, CHALK_F_CSV, CHALK_F_COLUMNS, CHALK_F_DIGITS,
    CHALK_F_HELP;

/* The text given for `f`, NULL when it was not given ("" for a switch). */
const char *chalk_value(const chalk_args *a, const chalk_flag *f);

/* True when `f` was given. */
bool chalk_given(const chalk_args *a, const chalk_flag *f);

/* Reads the number given for `f` into *x, checked against the flag's range and
 * rules; leaves *x alone when `f` was not given. Returns CHALK_OK or, after printing
 * the error line, CHALK_USAGE. Numbers are plain decimals: 2048, 0.5, 671e9. */
int chalk_number(const chalk_args *a, const chalk_flag *f, double *x);

/* Parses `text` as a number for `f`, within [min, max] and by `rules` (CHALK_WHOLE,
 * CHALK_ABOVE_MIN: the flag's, or an input's narrower ones). Numbers smaller than
 * 1e-300 in size are refused, and -0 is 0. */
int chalk_parse_number(const chalk_flag *f, double min, double max, unsigned rules,
                       const char *text, double *x);

/* Strict decimal syntax: [+-] digits [. digits] [e [+-] digits], nothing else
 * (no hex, inf, nan or blanks). Shared with check-answers: one rule for numbers. */
bool chalk_is_decimal(const char *text);

/* ---- sweeps ------------------------------------------------------------------------------- */

enum { CHALK_SWEEP_DEFAULT_POINTS = 64, CHALK_SWEEP_MAX_POINTS = 100000 };

/* One value, or the points of a sweep. Syntax (every point checked against the
 * flag's range):
 *   2048             one value
 *   A:B              64 points, geometric, A and B included (0 < A < B)
 *   A:B:N            N points, geometric
 *   A:B:N:linear     N points evenly spaced (A may be 0)
 *   a,b,c            a list, in its order; items may be ranges, and a list holding a
 *                    range is sorted ascending without repeats (1:12000:49,7971)
 * Read with chalk_sweep_read; free with chalk_sweep_free (a list is allocated). */
typedef struct chalk_sweep {
    const chalk_flag *flag;
    bool given;
    long points;    /* 1 for a single value */
    double *values; /* a list's points, ascending or as listed; else NULL */
    double one;     /* a single value */
    bool range;     /* a range alone, A:B[:N[:linear]]: each point computed when asked */
    bool linear;
    double lo, hi;
    double min, max; /* the range every point was checked against */
    unsigned rules;  /* and the rules */
} chalk_sweep;

/* Reads the value (or, with CHALK_SWEEPS in `rules`, the sweep) given for `f`,
 * every point within [min, max] and by `rules`. Not given: s->given is false and
 * s->points is 1. */
int chalk_sweep_read(const chalk_args *a, const chalk_flag *f, double min, double max,
                     unsigned rules, chalk_sweep *s);

/* The i-th point (the single value for any i when not a sweep). */
double chalk_sweep_at(const chalk_sweep *s, long i);

/* True when s holds more than one value, or was written as a sweep. */
bool chalk_sweeps(const chalk_sweep *s);

void chalk_sweep_free(chalk_sweep *s);

/* ---- records: what one point of a command computed, as named values ----------------- */

typedef enum chalk_kind {
    CHALK_NUMBER,
    CHALK_STRING,
    CHALK_BOOL,
    CHALK_NULL,
    CHALK_BY_DTYPE
} chalk_kind;

/* Field flags. */
enum {
    CHALK_INPUT = 1u << 0,  /* echoes an input (shown once above a sweep's table) */
    CHALK_DETAIL = 1u << 1, /* left out of column tables (lists and sweeps) */
    CHALK_TEXT = 1u << 2,   /* set by chalk_put_string: a null string needs no reason */
};

enum { CHALK_MAX_FIELDS = 64, CHALK_ARENA_CHARS = 8192 };

typedef struct chalk_field {
    const char *key;   /* JSON key and CSV column: carries its unit (_s, _bytes...) */
    const char *label; /* for humans */
    chalk_kind kind;
    chalk_unit unit;
    unsigned flags;
    double number;
    bool yes;
    double by_dtype[COST_DTYPE_COUNT]; /* CHALK_BY_DTYPE; 0 = none at that precision */
    const char *text;                  /* CHALK_STRING; words for humans beside a null */
    const char *note;                  /* tables only: a remark beside the value */
} chalk_field;

/* One point's named values. Strings are copied into the record's arena. */
struct chalk_record {
    chalk_field fields[CHALK_MAX_FIELDS];
    int count;
    bool no_notes;          /* set by chalk_emit for JSON and CSV, where notes are not shown */
    const char *not_finite; /* the key of the first number that is not finite, or NULL */
    int unexplained;        /* null results put without chalk_put_result, to check */
    bool by_dtype;          /* holds a by-precision field (its numbers are set later) */
    bool overflow;          /* more fields or text than it holds (a bug: reported) */
    size_t used;
    char arena[CHALK_ARENA_CHARS];
};

/* Empties r (a build function starts with it). */
void chalk_clear(chalk_record *r);

/* A number. Non-finite numbers are refused before anything is written. */
chalk_field *chalk_put_number(chalk_record *r, const char *key, const char *label, chalk_unit unit,
                              unsigned flags, double x);

/* A result that may not exist: the number when `known`, else null; and beside it
 * KEY_reason ("why none" for humans): `reason` when !known, null otherwise. Every
 * absent answer carries its reason. */
chalk_field *chalk_put_result(chalk_record *r, const char *key, const char *label, chalk_unit unit,
                              unsigned flags, bool known, double x, const char *reason);

/* A number or null, with no reason beside it: for inputs that were not given. */
chalk_field *chalk_put_maybe(chalk_record *r, const char *key, const char *label, chalk_unit unit,
                             unsigned flags, bool known, double x);

/* A string, or null when s is NULL. `s` is copied. */
chalk_field *chalk_put_string(chalk_record *r, const char *key, const char *label, unsigned flags,
                              const char *s);

chalk_field *chalk_put_bool(chalk_record *r, const char *key, const char *label, unsigned flags,
                            bool yes);

/* A yes/no result that may not exist, as chalk_put_result: null with KEY_reason. */
chalk_field *chalk_put_bool_result(chalk_record *r, const char *key, const char *label,
                                   unsigned flags, bool known, bool yes, const char *reason);

/* One number per precision, e.g. peak FLOP/s: JSON {"bf16": ..}, CSV KEY_bf16, ... */
chalk_field *chalk_put_by_dtype(chalk_record *r, const char *key, const char *label,
                                chalk_unit unit, unsigned flags);

/* A remark shown beside the value in tables ("default: the scale-up domain"). */
void chalk_note(chalk_record *r, chalk_field *f, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Words shown instead of "n/a" for a null in tables ("(from flags)"); JSON: null. */
void chalk_null_words(chalk_record *r, chalk_field *f, const char *words);

/* printf into the record's arena; the text lives as long as the record's contents. */
const char *chalk_fmt(chalk_record *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The value of `key` in r, or NULL. */
const chalk_field *chalk_find(const chalk_record *r, const char *key);

/* ---- reports: one record per point, printed in the chosen format --------------------- */

/* What a command prints: `rows` records, each built on demand by `build`. */
typedef struct chalk_report {
    const char *title;          /* the heading of a table */
    long rows;                  /* 1, or the points of the sweep */
    bool is_list;               /* presets, not a computation: a JSON array, no echo */
    const char *swept_key;      /* the key of the input that varies, or NULL */
    void (*build)(const void *ctx, long row, chalk_record *out);
    const void *ctx;
    /* Says, as one error line, why `row` has no finite result or no reason for a
     * null (names its inputs); NULL: a generic line. Returns CHALK_USAGE. */
    int (*refuse)(const void *ctx, long row, const char *key);
} chalk_report;

/* Prints the report in a->format: a table for humans; one JSON object (a sweep:
 * {"rows": [...]}, a list: an array); or CSV, a header then a row per point. Every
 * row is built and checked (finite numbers, a reason beside every null) before the
 * first byte is printed. Returns CHALK_OK, or CHALK_USAGE after an error line. */
int chalk_emit(const chalk_args *a, const chalk_report *rep);

/* ---- numbers ------------------------------------------------------------------------------ */

enum { CHALK_NUM_CHARS = 48 };

/* Writes x into buf (CHALK_NUM_CHARS) exactly as printf("%.*g", digits, x) would, and
 * returns its length; digits 1..17 (number.c). */
int chalk_format_number(char *buf, double x, int digits);

/* About four significant digits for humans, thousands separated: 14.4, 0.5208, 2,400. */
void chalk_sig(char *buf, size_t size, double x);

/* x in `unit` for humans, scaled to fit: "14.4 ms", "70.3 kB/token", "2.5x". */
void chalk_human(char *buf, size_t size, chalk_unit unit, double x);

/* ---- a model on hardware: presets, then overrides ------------------------------------ */

/* What a command needs before it can compute (chalk_deploy_resolve). */
enum {
    CHALK_NEED_PARAMS = 1u << 0, /* params_total, params_active, bytes per weight */
    CHALK_NEED_FLOPS = 1u << 1,  /* peak FLOP/s per chip at --dtype */
    CHALK_NEED_BW = 1u << 2,     /* HBM bandwidth per chip */
    CHALK_NEED_HBM = 1u << 3,    /* HBM capacity per chip */
    CHALK_NEED_KV = 1u << 4,     /* KV bytes per token (a preset or the flag) */
    CHALK_NEED_PRICE = 1u << 5,  /* USD per chip-hour */
    CHALK_DEPLOY = 1u << 6,      /* resolve the model and hardware flags given, need none */
};

/* A model and the hardware it runs on, resolved from presets and flags. Per-chip
 * figures are per chip; `chips` share the work. */
typedef struct chalk_deploy {
    const char *cmd;         /* the command, for error messages */
    const cost_model *model; /* NULL: the model comes from flags alone */
    const cost_hw *hw;       /* NULL: the hardware comes from flags alone */
    cost_dtype dtype;        /* precision of the math and, by default, of the weights */
    cost_dtype kv_dtype;     /* precision of the KV elements */
    double params_total, params_active, bytes_per_param, kv_bytes_per_token;
    int chips;
    double flops_per_s, hbm_bytes_per_s, hbm_bytes, usd_per_chip_hour;
    bool has_params, has_kv, has_flops, has_bw, has_hbm, has_price;
    bool kv_from_flag;    /* --kv-bytes-per-token: kv_dtype played no part */
    bool active_is_total; /* dense, no --params-active: it follows --params-total */
    bool chips_given;
    char overrides[192]; /* flags that changed a preset's value, for the echo */
} chalk_deploy;

/* Resolves the model (--model, --params-total, --params-active, --weight-bytes,
 * --kv-bytes-per-token, --dtype, --kv-dtype) and the hardware (--hw, --chips,
 * --flops-per-s, --hbm-bytes-per-s, --hbm-bytes, --usd-per-chip-hour), whichever the
 * command takes; then fails, naming the flag, when something in `needs` is missing. */
int chalk_deploy_resolve(const chalk_args *a, unsigned needs, chalk_deploy *d);

/* Fails, naming the flag to pass, when something in `needs` is missing from d. */
int chalk_deploy_require(const chalk_deploy *d, unsigned needs);

/* The precisions only (for commands that take --dtype without a deployment). */
int chalk_dtypes_resolve(const chalk_args *a, cost_dtype *dtype, cost_dtype *kv_dtype);

/* What the echo of a deployment shows besides the model and the chips. */
enum {
    CHALK_ECHO_FLOPS = 1u << 0,
    CHALK_ECHO_HBM = 1u << 1,
    CHALK_ECHO_PRICE = 1u << 2,
};

/* The echo of a deployment, in two parts so that a command's own inputs (batch,
 * context) sit between them, as CHALK_INPUT fields:
 *   head: model, hw, chips, dtype, kv_dtype
 *   tail: params_total, params_active, bytes_per_param, kv_bytes_per_token, then
 *         flops_per_s, hbm_bytes_per_s, hbm_bytes, usd_per_chip_hour as `echo` asks
 *         (HBM bandwidth always), and the flags that overrode a preset. */
void chalk_deploy_echo_head(chalk_record *r, const chalk_deploy *d);
void chalk_deploy_echo_tail(chalk_record *r, const chalk_deploy *d, unsigned echo);

/* The hardware name (and its title as a note), or null "(from flags)". */
void chalk_put_hw_name(chalk_record *r, const cost_hw *hw);

/* The model name (and its title as a note), or null "(from flags)". */
void chalk_put_model_name(chalk_record *r, const cost_model *m);

/* The preset --model names at p (the deployment's, or the flag's for a command with
 * no deployment), or NULL. */
const cost_model *chalk_model_at(const chalk_point *p);

/* The preset --hw names at p, or NULL (as chalk_model_at). */
const cost_hw *chalk_hw_at(const chalk_point *p);

/* ---- unknown names ------------------------------------------------------------------ */

/* " (did you mean a, b?)" for the names nearest `query`, or " (known: ...)". */
void chalk_suggest(char *buf, size_t size, const char *query, const char *const *names,
                   size_t count);

/* The index of the preset of `kind` named `name` (ignoring case and '-'/'_'), or,
 * after an error line "unknown KIND \"name\" (did you mean ...?)", -1. */
long chalk_find_preset(const chalk_preset_kind *kind, const char *name);

/* ---- a point: one command's inputs at one row of its sweep ----------------------------- */

/* What a row builder and a check see: the command's inputs at one point of the
 * sweep (the core read and checked every one), and the deployment. */
struct chalk_point {
    const struct chalk_command *cmd;
    const chalk_args *args;
    const chalk_deploy *d; /* the model on hardware (all zero unless the command has one) */
    long row;              /* this point's index in the sweep */
    long rows;             /* the points of the sweep (1 without one) */
    const chalk_sweep *sweep; /* each input's value or sweep, in the command's order */
    const chalk_flag *swept; /* the input that varies, or NULL */
    int n;                   /* the command's inputs, in its order */
    const chalk_flag *flag[CHALK_MAX_INPUTS];
    double x[CHALK_MAX_INPUTS];   /* a number's value here, or the fallback */
    bool given[CHALK_MAX_INPUTS]; /* given on the command line */
    long pick[CHALK_MAX_INPUTS];  /* a word flag: the index of the choice or preset */
};

/* The value of `f` at this point: as given (the sweep's point), or the input's
 * fallback. A flag the command does not declare is a bug (asserted). */
double chalk_in(const chalk_point *p, const chalk_flag *f);

/* The value of `f` at another row of the sweep (a check that sums over it). */
double chalk_in_at(const chalk_point *p, const chalk_flag *f, long row);

/* True when `f` was given. */
bool chalk_has(const chalk_point *p, const chalk_flag *f);

/* True when the command declares `f` at all (a helper several commands share). */
bool chalk_takes(const chalk_point *p, const chalk_flag *f);

/* Long computations (Monte-Carlo, avalanche) have a cap on their work: at most
 * CHALK_MAX_WORK_S seconds on a machine like the one that measured them. Fails,
 * saying the estimate, the cap and `advice` ("fewer --trials"), when `seconds` is
 * over it. */
enum { CHALK_MAX_WORK_S = 10 };
int chalk_cap_work(const chalk_point *p, double seconds, const char *advice);

/* The index of a word flag's choice or preset, or -1 when it was not given. */
long chalk_pick(const chalk_point *p, const chalk_flag *f);

/* The text given for `f`, or NULL. */
const char *chalk_text(const chalk_point *p, const chalk_flag *f);

/* Cross-flag rules for a command's check (each fails with one line, naming flags):
 *   exactly one of a NULL-terminated list was given;
 *   both or neither of two were given;
 *   not both of two were given;
 *   `f` was given (the table's "CMD needs --f ARG (what)"). */
int chalk_exactly_one(const chalk_point *p, const chalk_flag *const *flags);
int chalk_together(const chalk_point *p, const chalk_flag *a, const chalk_flag *b);
int chalk_not_both(const chalk_point *p, const chalk_flag *a, const chalk_flag *b);
int chalk_require(const chalk_point *p, const chalk_flag *f);

/* ---- commands and chapters ---------------------------------------------------------- */

typedef struct chalk_command {
    const char *name;    /* "decode" */
    const char *summary; /* one line for chalk --help */
    const char *title;   /* the heading of its table */
    const chalk_input *inputs; /* its flags and their rules, ended by {NULL};
                                  --json --csv --columns --digits --help implied */
    unsigned needs;            /* CHALK_NEED_* | CHALK_DEPLOY: the deployment, or 0 */
    /* Cross-flag rules: CHALK_OK, or CHALK_USAGE after chalk_fail. Called for every
     * point before anything is printed; NULL: none. */
    int (*check)(const chalk_point *p);
    /* One row from one point: pure (chalk_clear first). */
    void (*build)(const chalk_point *p, chalk_record *r);
    /* Instead of one row per point (a timeline, presets, a grade): prints what the
     * command prints from its first point; CHALK_OK or CHALK_USAGE. */
    int (*run)(const chalk_point *p);
    const char *const *about;    /* description lines, NULL-terminated */
    const char *const *examples; /* NULL-terminated; each must run (tests/chalk) */
    const char *synopsis; /* words after the name ("KIND NAME"), or NULL: flags only */
} chalk_command;

/* Runs a command whose command line was read into `a`. */
int chalk_run(const chalk_args *a);

/* Prints the command's rows, one a point of its sweep, each built by `build`, under
 * `title`: what the core does for a command with a `build`, for a command whose
 * `run` picks its title or its builder from its inputs. */
int chalk_emit_points(const chalk_point *p, const char *title,
                      void (*build)(const chalk_point *p, chalk_record *r));

/* One chapter's commands: solutions/chalk/NN-topic.c defines chalk_chapter_NN_topic.
 * Its commands are listed in the order help shows them; a chapter with many keeps
 * some in solutions/chalk/NN-topic-PART.c, declared in its private NN-topic.h. */
typedef struct chalk_chapter {
    int number;        /* 1 */
    const char *title; /* "batching" */
    const chalk_command *const *commands;    /* NULL-terminated */
    const chalk_preset_kind *const *presets; /* NULL-terminated, or NULL */
} chalk_chapter;

/* Every chapter's commands, in chapter order (main.c, from the Makefile's list). */
extern const chalk_chapter *const chalk_chapters[];

/* The commands every chapter shares (presets.c, check.c). */
extern const chalk_command chalk_cmd_list, chalk_cmd_show, chalk_cmd_flags,
    chalk_cmd_check_answers;

/* The i-th command: the shared ones, then each chapter's in order; NULL past the end. */
const chalk_command *chalk_each_command(size_t i);

#define CHALK_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif /* CHALK_CHALK_H */
