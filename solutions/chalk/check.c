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
 * error rather than a silent choice between the two. Exit status: 0 all right, 1
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

/* The first member of `object` whose name repeats an earlier one, or NULL. */
static const char *repeated_member(const cJSON *object)
{
    for (const cJSON *a = object->child; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (a->string && b->string && strcmp(a->string, b->string) == 0)
                return a->string;
    return NULL;
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
    const char *twice = repeated_member(json);
    if (twice) {
        int status = chalk_fail("%s: \"%s\" appears twice", file, twice);
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
    const char *twice = repeated_member(entry);
    if (twice)
        return chalk_fail("%s: \"%s\" has \"%s\" twice", l->file, a->id, twice);
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

static int run_check_answers(const chalk_args *args)
{
    if (args->nwords != 2)
        return chalk_fail("usage: chalk check-answers KEY.json FILE (see chalk check-answers "
                          "--help)");
    answer *key = calloc(KEY_MAX, sizeof *key), *reply = calloc(KEY_MAX, sizeof *reply);
    if (!key || !reply) {
        free(key);
        free(reply);
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
    if (status) {
        free(key);
        free(reply);
        return status;
    }

    int right = 0;
    for (int i = 0; i < replies.n; i++)
        if (!find_answer(&keys, reply[i].id))
            printf("%s: not in the key %s (a typo?)\n", reply[i].id, keys.file);
    for (int i = 0; i < keys.n; i++) {
        const answer *want = &key[i];
        const answer *got = find_answer(&replies, want->id);
        char expected[128], actual[128];
        describe_expected(expected, sizeof expected, want);
        if (!got) {
            printf("%-24s missing   expected %s\n", want->id, expected);
            continue;
        }
        if (got->is_word)
            snprintf(actual, sizeof actual, "%s", got->word);
        else /* as given, to 6 digits */
            snprintf(actual, sizeof actual, "%.6g%s%s", got->number, want->unit[0] ? " " : "",
                     want->unit);
        if (want->is_word) {
            if (!got->is_word || !same_word(got->word, want->word)) {
                printf("%-24s off       expected %s, got %s\n", want->id, expected, actual);
                continue;
            }
        } else if (got->is_word) {
            printf("%-24s off       expected %s, got %s (not a number: write a decimal such as "
                   "40, 0.5 or 671e9)\n",
                   want->id, expected, actual);
            continue;
        } else if (!(fabs(got->number - want->number) <= want->tolerance * fabs(want->number))) {
            char off[64] = "";
            if (want->number != 0)
                snprintf(off, sizeof off, " (%+.1f%%, tolerance %g%%)",
                         100 * (got->number - want->number) / fabs(want->number),
                         100 * want->tolerance);
            printf("%-24s off       expected %s, got %s%s\n", want->id, expected, actual, off);
            continue;
        }
        right++;
    }
    printf("score: %d/%d (%.0f%%)\n", right, keys.n, 100.0 * right / keys.n);
    free(key);
    free(reply);
    return right == keys.n ? CHALK_OK : 1;
}

static const char *const ABOUT_CHECK[] = {
    "Grades a reader's answers to `make problems SEED=NAME` against its key,",
    "build/answers-NAME.json: prints each answer that is off or missing, with the",
    "expected and the given value, then the score. FILE is a JSON object",
    "{\"ID\": 9.1, \"ID2\": \"memory\"} or lines \"ID VALUE\" (# starts a comment; no",
    "units). Numbers are plain decimals (40, 0.5, 671e9; 1,234 and $0.91 read as",
    "numbers; no hex). A number is right within the key's relative tolerance, a word",
    "when it matches ignoring case. Exit status: 0 all right, 1 some off or missing,",
    "2 a file that cannot be read or is malformed (one line on stderr).",
    NULL};
static const char *const EXAMPLES_CHECK[] = {
    "chalk check-answers build/answers-alice.json my-answers.txt", NULL};
static const chalk_flag *const NO_FLAGS[] = {NULL};

const chalk_command chalk_cmd_check_answers = {
    "check-answers",  "KEY FILE",  "grade a practice-problem answers FILE (make problems)",
    NO_FLAGS,         ABOUT_CHECK, EXAMPLES_CHECK,
    run_check_answers};
