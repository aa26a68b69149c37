/*
 * harness.c -- running build/chalk and reading what it printed (harness.h).
 */
#define _POSIX_C_SOURCE 200809L /* popen, mkstemp */

#include "harness.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- running chalk --------------------------------------------------------------- */

const char *chalk_path(void)
{
    const char *path = getenv("CHALK");
    return path && *path ? path : "build/chalk";
}

/* Runs `chalk ARGS` (ARGS through the shell, so quotes work). Free with run_free. */
run *chalk(const char *fmt, ...)
{
    char err_path[] = "/tmp/chalk-test-XXXXXX";
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    assert_true(len >= 0);
    char *args = malloc((size_t)len + 1), *command = malloc((size_t)len + 256);
    assert_non_null(args);
    assert_non_null(command);
    va_start(ap, fmt);
    vsnprintf(args, (size_t)len + 1, fmt, ap);
    va_end(ap);
    int fd = mkstemp(err_path);
    assert_true(fd >= 0);
    close(fd);
    snprintf(command, (size_t)len + 256, "'%s' %s 2>%s", chalk_path(), args, err_path);
    free(args);

    run *r = calloc(1, sizeof *r);
    assert_non_null(r);
    FILE *pipe = popen(command, "r");
    assert_non_null(pipe);
    size_t cap = 1 << 16, used = 0;
    r->out = malloc(cap);
    assert_non_null(r->out);
    for (size_t n; (n = fread(r->out + used, 1, cap - used - 1, pipe)) > 0;) {
        used += n;
        if (cap - used - 1 == 0) {
            cap *= 2;
            r->out = realloc(r->out, cap);
            assert_non_null(r->out);
        }
    }
    r->out[used] = '\0';
    r->out_len = used;
    int wait_status = pclose(pipe);
    free(command);
    r->status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;

    FILE *err = fopen(err_path, "r");
    assert_non_null(err);
    used = fread(r->err, 1, ERR_CHARS - 1, err);
    r->err[used] = '\0';
    fclose(err);
    unlink(err_path);
    return r;
}

void run_free(run *r)
{
    free(r->out);
    free(r);
}

/* Fails the test, showing the command's output, unless it exited with `status`. */
void expect_status(const run *r, int status, const char *what)
{
    if (r->status == status)
        return;
    print_error("%s: exit status %d, expected %d\nstderr: %s\nstdout: %.400s\n", what, r->status,
                status, r->err, r->out);
    fail();
}

/* ---- JSON ------------------------------------------------------------------------------ */

/* Where the value after the `nth` (0-based) "key": starts, or NULL. */
const char *json_at(const char *json, const char *key, int nth)
{
    char pattern[128];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = json;
    for (int i = 0; (p = strstr(p, pattern)) != NULL; i++, p += strlen(pattern))
        if (i == nth)
            return p + strlen(pattern) + strspn(p + strlen(pattern), " ");
    return NULL;
}

double json_nth(const char *json, const char *key, int nth)
{
    const char *p = json_at(json, key, nth);
    if (!p)
        fail_msg("no key \"%s\" (#%d) in %.300s", key, nth, json);
    char *end;
    double x = strtod(p, &end);
    if (end == p)
        fail_msg("\"%s\" is not a number: %.40s", key, p);
    return x;
}

double json_number(const char *json, const char *key)
{
    return json_nth(json, key, 0);
}

bool json_is_null(const char *json, const char *key)
{
    const char *p = json_at(json, key, 0);
    if (!p)
        fail_msg("no key \"%s\" in %.300s", key, json);
    return strncmp(p, "null", 4) == 0;
}

/* True when the string value of "key" is `expected`. */
bool json_string_is(const char *json, const char *key, const char *expected)
{
    const char *p = json_at(json, key, 0);
    if (!p)
        fail_msg("no key \"%s\" in %.300s", key, json);
    size_t n = strlen(expected);
    return p[0] == '"' && strncmp(p + 1, expected, n) == 0 && p[n + 1] == '"';
}

int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* The column of `name` in a CSV header line, or -1. */
int csv_column(const char *header, const char *name)
{
    int col = 0;
    size_t n = strlen(name);
    for (const char *p = header; *p && *p != '\n'; col++) {
        size_t len = strcspn(p, ",\n");
        if (len == n && strncmp(p, name, n) == 0)
            return col;
        p += len + (p[len] == ',');
    }
    return -1;
}

/* The number in column `col` of a CSV line. */
double csv_number(const char *line, int col)
{
    for (; col > 0; col--)
        line = strchr(line, ',') + 1;
    return strtod(line, NULL);
}

/* One line on stderr that starts "chalk: error: ", nothing on stdout, status 2. */
void expect_one_error_line(const run *r, const char *args)
{
    size_t len = strlen(r->err);
    bool one_line = len > 0 && r->err[len - 1] == '\n' && strchr(r->err, '\n') == r->err + len - 1;
    if (r->status == 2 && strncmp(r->err, "chalk: error: ", 14) == 0 && one_line &&
        r->out[0] == '\0')
        return;
    print_error("chalk %s\n  status %d, stderr: %s  stdout: %.200s\n", args, r->status, r->err,
                r->out);
    fail();
}

double json_path(const char *json, const char *path)
{
    cJSON *root = cJSON_Parse(json);
    if (!root)
        fail_msg("not valid JSON: %.300s", json);
    const cJSON *at = root;
    char part[128];
    for (const char *p = path; at && *p;) {
        size_t n = strcspn(p, ".");
        snprintf(part, sizeof part, "%.*s", (int)n, p);
        char *end;
        long index = strtol(part, &end, 10);
        at = cJSON_IsArray(at) && *end == '\0' ? cJSON_GetArrayItem(at, (int)index)
                                               : cJSON_GetObjectItemCaseSensitive(at, part);
        p += n + (p[n] == '.');
    }
    if (!cJSON_IsNumber(at)) {
        cJSON_Delete(root);
        fail_msg("no number at \"%s\" in %.300s", path, json);
    }
    double x = at->valuedouble;
    cJSON_Delete(root);
    return x;
}

bool json_valid(const char *json)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(json, &end, false);
    bool ok = root != NULL && end != NULL && end[strspn(end, " \n")] == '\0';
    cJSON_Delete(root);
    return ok;
}
