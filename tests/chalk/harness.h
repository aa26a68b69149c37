/*
 * harness.h -- what the calculator's tests share: run build/chalk as a reader does
 * and read what it printed.
 *
 * The tests run the real binary (path in $CHALK, default build/chalk) through the
 * shell, read its stdout and its stderr, and check one fact each. Expected values
 * are closed forms with published inputs, or the lecture's own figures, with the
 * source beside them; none is copied from chalk's output.
 *
 * One test binary, build/chalk-test, holds every file tests/chalk/test_*.c: each
 * defines `const struct CMUnitTest chalk_tests_NAME[]` and
 * `const size_t chalk_tests_NAME_count` (NAME from its file name: test_01_batching.c
 * -> chalk_tests_01_batching); the Makefile generates the main that runs them all
 * as one group.
 */
#ifndef CHALK_TESTS_HARNESS_H
#define CHALK_TESTS_HARNESS_H

#include "../test_util.h"

#include <stdbool.h>
#include <stddef.h>

#define TIGHT 1e-12 /* the same closed form: only rounding differs */

enum { ARGS_CHARS = 4096, ERR_CHARS = 4096 };

typedef struct run {
    int status;          /* exit status; -1 when chalk did not exit normally */
    char *out;           /* all of stdout, NUL-terminated */
    size_t out_len;      /* its length */
    char err[ERR_CHARS]; /* all of stderr (truncated) */
} run;

/* $CHALK, or build/chalk. */
const char *chalk_path(void);

/* Runs `chalk ARGS` (ARGS through the shell, so quotes and redirections work).
 * Free with run_free. */
run *chalk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void run_free(run *r);

/* Fails the test, showing the command's output, unless it exited with `status`. */
void expect_status(const run *r, int status, const char *what);

/* One line on stderr that starts "chalk: error: ", nothing on stdout, status 2. */
void expect_one_error_line(const run *r, const char *args);

/* ---- JSON, by key ------------------------------------------------------------------ */

/* Where the value after the `nth` (0-based) "key": starts in the text, or NULL. */
const char *json_at(const char *json, const char *key, int nth);

/* The number after the nth "key": (fails the test when there is none). */
double json_nth(const char *json, const char *key, int nth);
double json_number(const char *json, const char *key);

/* True when "key": is followed by null / by the string `expected`. */
bool json_is_null(const char *json, const char *key);
bool json_string_is(const char *json, const char *key, const char *expected);

/* The number at a dotted path of the parsed JSON ("rows.3.batch", "flops_per_s.bf16";
 * array indexes count from 0). Fails the test when the text is not valid JSON or the
 * path is missing or not a number. */
double json_path(const char *json, const char *path);

/* True when the text is exactly one valid JSON value (cJSON). */
bool json_valid(const char *json);

/* How many times `needle` occurs in `hay`. */
int count_of(const char *hay, const char *needle);

/* ---- CSV ------------------------------------------------------------------------------ */

/* The column of `name` in a CSV header line, or -1. */
int csv_column(const char *header, const char *name);

/* The number in column `col` of a CSV line. */
double csv_number(const char *line, int col);

#endif /* CHALK_TESTS_HARNESS_H */
