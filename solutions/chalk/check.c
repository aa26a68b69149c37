/*
 * check.c -- chalk check-answers KEY FILE: grade a reader's practice-problem answers.
 *
 * The key is build/answers-SEED.json, written by make problems (book/problems.md):
 *   { "ID": {"value": 9.09 | "memory", "unit": "ms", "tolerance": 0.02 | null,
 *            "shown": "9.09" (optional: the answer as the key's PDF prints it), ...}, ...}
 * The reader's answers are a JSON object { "ID": 9.1, "ID2": "memory" } or lines
 * "ID VALUE" (blank lines and lines starting with # are skipped). A number follows
 * the calculator's one rule (a plain decimal: 40, 0.5, 671e9; no hex, no inf), and
 * may carry thousands commas and a leading $; a JSON string holding such a number
 * counts as that number. A number is right within the key's relative tolerance,
 * |got - expected| <= tolerance x |expected|; a word when it matches, ignoring case.
 *
 * JSON is read with cJSON (Debian's libcjson-dev); a repeated member anywhere is an
 * error rather than a silent choice between the two (found by sorting the names, so
 * a huge object costs n log n, not n^2). A UTF-8 byte order mark is skipped. The
 * grade is printed as lines for a reader, or with --json / --csv as one record per
 * answer (id, status, expected, unit, tolerance, got). Exit status: 0 all right, 1
 * some off or missing, 2 a file that cannot be read or is malformed (one line).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "chalk.h"

enum { KEY_MAX = 512, ID_CHARS = 64, WORD_CHARS = 64, FILE_MAX_BYTES = 1 << 20 };

typedef struct answer {
    char id[ID_CHARS];
    bool is_word;
    double number;
    char word[WORD_CHARS]; /* a word answer, or the reply as typed */
    char unit[WORD_CHARS];
    char shown[WORD_CHARS]; /* the key's own printing of the value, or "" */
    double tolerance;
} answer;

typedef struct answer_list {
    answer *items;
    int n;
    const char *file;
} answer_list;

/* Reads a whole regular file into a new NUL-terminated buffer (free it), or fails
 * with one line naming the file and the reason. */
static int read_file(const char *path, char **text)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return chalk_fail("cannot read %s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return chalk_fail("%s is a directory, not a file", path);
    if (!S_ISREG(st.st_mode))
        return chalk_fail("%s is not a regular file", path);
    if (st.st_size > FILE_MAX_BYTES)
        return chalk_fail("%s is larger than %d bytes", path, FILE_MAX_BYTES);
    FILE *f = fopen(path, "rb");
    if (!f)
        return chalk_fail("cannot read %s: %s", path, strerror(errno));
    char *buf = malloc((size_t)st.st_size + 1);
    size_t n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
    bool bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return chalk_fail("cannot read %s", path);
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        free(buf);
        return chalk_fail("%s holds a NUL byte: not a text file", path);
    }
    static const char BOM[] = "\xEF\xBB\xBF"; /* a UTF-8 byte order mark: no text */
    if (strncmp(buf, BOM, 3) == 0)
        memmove(buf, buf + 3, n - 2);
    *text = buf;
    return CHALK_OK;
}

static answer *find_answer(const answer_list *l, const char *id)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->items[i].id, id) == 0)
            return &l->items[i];
    return NULL;
}

static answer *new_answer(answer_list *l, const char *id)
{
    if (strlen(id) >= ID_CHARS) {
        chalk_fail("%s: the id \"%.40s...\" is longer than %d characters", l->file, id,
                   ID_CHARS - 1);
        return NULL;
    }
    if (find_answer(l, id)) {
        chalk_fail("%s: \"%s\" appears twice", l->file, id);
        return NULL;
    }
    if (l->n == KEY_MAX) {
        chalk_fail("%s: more than %d answers", l->file, KEY_MAX);
        return NULL;
    }
    answer *a = &l->items[l->n++];
    memset(a, 0, sizeof *a);
    snprintf(a->id, sizeof a->id, "%s", id);
    return a;
}

/* Reads a reply's text: "1,234" and "$0.91" are numbers by the one rule; anything
 * else is a word (kept as typed, so an answer "0x28" is marked off as "0x28"). */
static void parse_reply(const char *text, answer *a)
{
    char clean[WORD_CHARS];
    size_t n = 0;
    for (const char *p = text + (*text == '$'); *p && n + 1 < sizeof clean; p++)
        if (*p != ',')
            clean[n++] = *p;
    clean[n] = '\0';
    snprintf(a->word, sizeof a->word, "%s", text);
    a->is_word = !(n > 0 && chalk_is_decimal(clean) && isfinite(strtod(clean, NULL)));
    if (!a->is_word)
        a->number = strtod(clean, NULL);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A member of `object` whose name repeats another's, or NULL: the names sorted, then
 * neighbours compared. *out_of_memory is set when it could not look. */
static const char *repeated_member(const cJSON *object, bool *out_of_memory)
{
    size_t n = 0;
    for (const cJSON *a = object->child; a; a = a->next)
        n += a->string != NULL;
    *out_of_memory = false;
    if (n < 2)
        return NULL;
    const char **names = malloc(n * sizeof *names);
    if (!names) {
        *out_of_memory = true;
        return NULL;
    }
    n = 0;
    for (const cJSON *a = object->child; a; a = a->next)
        if (a->string)
            names[n++] = a->string;
    qsort(names, n, sizeof *names, compare_names);
    const char *twice = NULL;
    for (size_t i = 1; i < n && !twice; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            twice = names[i];
    free(names);
    return twice;
}

static int parse_json(const char *file, const char *text, cJSON **out)
{
    const char *end = NULL;
    cJSON *json = cJSON_ParseWithOpts(text, &end, true);
    if (!json) {
        long line = 1;
        for (const char *p = text; end && p < end; p++)
            line += *p == '\n';
        return chalk_fail("%s:%ld: malformed JSON", file, line);
    }
    if (!cJSON_IsObject(json)) {
        cJSON_Delete(json);
        return chalk_fail("%s: expected a JSON object { \"ID\": ... }", file);
    }
    bool no_memory;
    const char *twice = repeated_member(json, &no_memory);
    if (twice || no_memory) {
        int status = twice ? chalk_fail("%s: \"%s\" appears twice", file, twice)
                           : chalk_fail("%s: out of memory", file);
        cJSON_Delete(json);
        return status;
    }
    *out = json;
    return CHALK_OK;
}

/* One key entry: {"value": ..., "unit": ..., "tolerance": ..., "shown": ..., ...}. */
static int read_key_entry(answer_list *l, const cJSON *entry)
{
    answer *a = new_answer(l, entry->string);
    if (!a)
        return CHALK_USAGE;
    if (!cJSON_IsObject(entry))
        return chalk_fail("%s: \"%s\" is not an object with a \"value\"", l->file, a->id);
    bool no_memory;
    const char *twice = repeated_member(entry, &no_memory);
    if (twice || no_memory)
        return chalk_fail("%s: \"%s\" has \"%s\" twice", l->file, a->id, twice ? twice : "?");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(entry, "value");
    const cJSON *unit = cJSON_GetObjectItemCaseSensitive(entry, "unit");
    const cJSON *tol = cJSON_GetObjectItemCaseSensitive(entry, "tolerance");
    const cJSON *shown = cJSON_GetObjectItemCaseSensitive(entry, "shown");
    if (cJSON_IsNumber(value) && isfinite(value->valuedouble)) {
        a->number = value->valuedouble;
    } else if (cJSON_IsString(value) && strlen(value->valuestring) < WORD_CHARS) {
        a->is_word = true;
        snprintf(a->word, sizeof a->word, "%s", value->valuestring);
    } else {
        return chalk_fail("%s: \"%s\" needs a \"value\" that is a number or a short word", l->file,
                          a->id);
    }
    if (unit && !(cJSON_IsString(unit) && strlen(unit->valuestring) < WORD_CHARS))
        return chalk_fail("%s: \"%s\": \"unit\" must be a short string", l->file, a->id);
    if (unit)
        snprintf(a->unit, sizeof a->unit, "%s", unit->valuestring);
    if (tol && !cJSON_IsNull(tol) &&
        !(cJSON_IsNumber(tol) && tol->valuedouble >= 0 && tol->valuedouble < 1))
        return chalk_fail("%s: \"%s\": \"tolerance\" must be a number from 0 to 1, or null",
                          l->file, a->id);
    a->tolerance = cJSON_IsNumber(tol) ? tol->valuedouble : 0.0;
    if (shown && cJSON_IsString(shown))
        snprintf(a->shown, sizeof a->shown, "%s", shown->valuestring);
    return CHALK_OK;
}

static int read_key(const char *text, answer_list *l)
{
    cJSON *json = NULL;
    int status = parse_json(l->file, text, &json);
    if (status)
        return status;
    for (const cJSON *e = json->child; e && !status; e = e->next)
        status = read_key_entry(l, e);
    cJSON_Delete(json);
    if (status)
        return status;
    return l->n ? CHALK_OK : chalk_fail("%s: the key holds no problems", l->file);
}

/* The reader's file: a JSON object, or lines "ID VALUE". */
static int read_replies(char *text, answer_list *l)
{
    const char *p = text + strspn(text, " \t\r\n");
    if (*p == '{') {
        cJSON *json;
        int status = parse_json(l->file, text, &json);
        if (status)
            return status;
        for (const cJSON *e = json->child; e && !status; e = e->next) {
            answer *a = new_answer(l, e->string);
            if (!a)
                status = CHALK_USAGE;
            else if (cJSON_IsNumber(e) && isfinite(e->valuedouble))
                a->number = e->valuedouble;
            else if (cJSON_IsString(e))
                parse_reply(e->valuestring, a);
            else
                status = chalk_fail("%s: \"%s\" must be a number or a string", l->file, a->id);
        }
        cJSON_Delete(json);
        return status;
    }
    long line = 0;
    for (char *next, *s = text; s && *s; s = next) {
        line++;
        next = strchr(s, '\n');
        if (next)
            *next++ = '\0';
        char id[ID_CHARS + 1], value[WORD_CHARS + 1], extra[2];
        int got = sscanf(s, "%64s %64s %1s", id, value, extra);
        if (got <= 0 || id[0] == '#')
            continue;
        if (got != 2 || strlen(id) >= ID_CHARS || strlen(value) >= WORD_CHARS)
            return chalk_fail("%s:%ld: expected \"ID VALUE\" (one answer per line, no unit), "
                              "got \"%.40s\"",
                              l->file, line, s);
        answer *a = new_answer(l, id);
        if (!a)
            return CHALK_USAGE;
        parse_reply(value, a);
    }
    return CHALK_OK;
}

static bool same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* The expected value as the key's PDF prints it: its "shown" text, else 3 figures. */
static void describe_expected(char *buf, size_t size, const answer *a)
{
    if (a->is_word) {
        snprintf(buf, size, "%s", a->word);
        return;
    }
    char num[WORD_CHARS];
    if (a->shown[0]) {
        snprintf(num, sizeof num, "%s", a->shown);
    } else { /* 418.6 -> "419": the key's 3 significant figures */
        snprintf(num, sizeof num, "%.3g", a->number);
        chalk_sig(num, sizeof num, strtod(num, NULL));
    }
    snprintf(buf, size, "%s%s%s", num, a->unit[0] ? " " : "", a->unit);
}

/* One line of the grade: an answer of the key, or a reply the key does not hold. */
typedef struct verdict {
    const answer *want; /* NULL: a reply not in the key */
    const answer *got;  /* NULL: missing */
    const char *status; /* right, off, missing, unknown */
    char line[512];     /* as the lines for a reader print it */
} verdict;

/* Grades `got` against `want`; fills v->status and v->line. */
static void grade(verdict *v)
{
    const answer *want = v->want, *got = v->got;
    char expected[128], actual[128];
    describe_expected(expected, sizeof expected, want);
    if (!got) {
        v->status = "missing";
        snprintf(v->line, sizeof v->line, "%-24s missing   expected %s", want->id, expected);
        return;
    }
    if (got->is_word)
        snprintf(actual, sizeof actual, "%s", got->word);
    else /* as given, to 6 digits */
        snprintf(actual, sizeof actual, "%.6g%s%s", got->number, want->unit[0] ? " " : "",
                 want->unit);
    v->status = "off";
    if (want->is_word) {
        if (!got->is_word || !same_word(got->word, want->word)) {
            snprintf(v->line, sizeof v->line, "%-24s off       expected %s, got %s", want->id,
                     expected, actual);
            return;
        }
    } else if (got->is_word) {
        snprintf(v->line, sizeof v->line,
                 "%-24s off       expected %s, got %s (not a number: write a decimal such as "
                 "40, 0.5 or 671e9)",
                 want->id, expected, actual);
        return;
    } else if (!(fabs(got->number - want->number) <= want->tolerance * fabs(want->number))) {
        char off[64] = "";
        if (want->number != 0)
            snprintf(off, sizeof off, " (%+.1f%%, tolerance %g%%)",
                     100 * (got->number - want->number) / fabs(want->number),
                     100 * want->tolerance);
        snprintf(v->line, sizeof v->line, "%-24s off       expected %s, got %s%s", want->id,
                 expected, actual, off);
        return;
    }
    v->status = "right";
}

typedef struct grade_sheet {
    verdict *v;
    long n;
} grade_sheet;

/* An answer's value as a field: its number or its word. */
static void put_value(chalk_record *r, const char *key, const char *label, const answer *a,
                      const char *why_none)
{
    if (a && a->is_word)
        chalk_put_string(r, key, label, 0, a->word);
    else
        chalk_put_result(r, key, label, CHALK_U_PLAIN, 0, a != NULL, a ? a->number : 0.0,
                         why_none);
}

static void build_verdict(const void *ctx, long row, chalk_record *r)
{
    const verdict *v = &((const grade_sheet *)ctx)->v[row];
    const answer *id = v->want ? v->want : v->got;
    chalk_clear(r);
    chalk_put_string(r, "id", "id", 0, id->id);
    chalk_put_string(r, "status", "status", 0, v->status);
    put_value(r, "expected", "expected", v->want, "not in the key (a typo?)");
    chalk_put_string(r, "unit", "unit", 0, v->want ? v->want->unit : NULL);
    chalk_put_result(r, "tolerance", "tolerance", CHALK_U_FRACTION, 0, v->want != NULL,
                     v->want ? v->want->tolerance : 0.0, "not in the key (a typo?)");
    put_value(r, "got", "given", v->got, "no answer given");
}

static int run_check_answers(const chalk_point *p)
{
    const chalk_args *args = p->args;
    if (args->nwords != 2)
        return chalk_fail("usage: chalk check-answers KEY.json FILE (see chalk check-answers "
                          "--help)");
    answer *key = calloc(KEY_MAX, sizeof *key), *reply = calloc(KEY_MAX, sizeof *reply);
    verdict *v = calloc(2 * KEY_MAX, sizeof *v);
    if (!key || !reply || !v) {
        free(key);
        free(reply);
        free(v);
        return chalk_fail("out of memory");
    }
    answer_list keys = {key, 0, args->words[0]}, replies = {reply, 0, args->words[1]};
    char *key_text = NULL, *reply_text = NULL;
    int status = read_file(keys.file, &key_text);
    if (!status)
        status = read_file(replies.file, &reply_text);
    if (!status)
        status = read_key(key_text, &keys);
    if (!status)
        status = read_replies(reply_text, &replies);
    free(key_text);
    free(reply_text);
    int right = 0;
    long n = 0;
    for (int i = 0; !status && i < replies.n; i++)
        if (!find_answer(&keys, reply[i].id)) {
            v[n] = (verdict){.got = &reply[i], .status = "unknown"};
            snprintf(v[n++].line, sizeof v->line, "%s: not in the key %s (a typo?)", reply[i].id,
                     keys.file);
        }
    for (int i = 0; !status && i < keys.n; i++) {
        v[n] = (verdict){.want = &key[i], .got = find_answer(&replies, key[i].id)};
        grade(&v[n]);
        right += strcmp(v[n++].status, "right") == 0;
    }
    if (!status && args->format == CHALK_TABLE) {
        for (long i = 0; i < n; i++)
            if (strcmp(v[i].status, "right") != 0)
                printf("%s\n", v[i].line);
        printf("score: %d/%d (%.0f%%)\n", right, keys.n, 100.0 * right / keys.n);
    } else if (!status) {
        grade_sheet sheet = {v, n};
        chalk_report rep = {.title = "chalk check-answers", .rows = n, .is_list = true,
                            .build = build_verdict, .ctx = &sheet};
        status = chalk_emit(args, &rep);
    }
    free(key);
    free(reply);
    free(v);
    return status ? status : right == keys.n ? CHALK_OK : 1;
}

static const char *const ABOUT_CHECK[] = {
    "Grades a reader's answers to `make problems SEED=NAME` against its key,",
    "build/answers-NAME.json: prints each answer that is off or missing, with the",
    "expected and the given value, then the score. FILE is a JSON object",
    "{\"ID\": 9.1, \"ID2\": \"memory\"} or lines \"ID VALUE\" (# starts a comment; no",
    "units). Numbers are plain decimals (40, 0.5, 671e9; 1,234 and $0.91 read as",
    "numbers; no hex). A number is right within the key's relative tolerance, a word",
    "when it matches ignoring case. Exit status: 0 all right, 1 some off or missing,",
    "2 a file that cannot be read or is malformed (one line on stderr). With --json",
    "or --csv, one record per answer: id, status (right, off, missing or unknown),",
    "expected, unit, tolerance and got.",
    NULL};
static const char *const EXAMPLES_CHECK[] = {
    "chalk check-answers build/answers-alice.json my-answers.txt", NULL};
const chalk_command chalk_cmd_check_answers = {
    .name = "check-answers",
    .summary = "grade a practice-problem answers FILE (make problems)",
    .run = run_check_answers,
    .about = ABOUT_CHECK,
    .examples = EXAMPLES_CHECK,
    .synopsis = "KEY FILE",
};
