/*
 * test_core.c -- the calculator's shared machinery, tested from the outside: presets,
 * output formats, numbers and sweeps, errors, help, check-answers, and the rules
 * every chapter's commands follow (examples run, JSON is valid, every absent result
 * has its reason). The chapters' own commands are tested in test_NN_topic.c.
 *
 * Sources:
 *   SB       "How to Scale Your Model" (jax-ml/scaling-book): gpus.md
 *   DS       the vendor's datasheet; model configs as cited in lib/model.c
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "harness.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- every command, from chalk --help ---------------------------------------------------- */

enum { MAX_COMMANDS = 128, NAME_CHARS = 48 };

/* The command names chalk --help lists (the lines "  NAME ..." under "presets and
 * practice:" and each "chapter N, ...:" heading). Returns their number. */
static int command_names(char names[][NAME_CHARS])
{
    run *r = chalk("--help");
    expect_status(r, 0, "--help");
    int n = 0;
    bool in_commands = false;
    for (const char *line = r->out; line && *line; line = strchr(line, '\n'), line += !!line) {
        size_t len = strcspn(line, "\n");
        if (len == 0) {
            in_commands = false;
            continue;
        }
        if (strncmp(line, "presets and practice:", 21) == 0 || strncmp(line, "chapter ", 8) == 0) {
            in_commands = true;
            continue;
        }
        if (in_commands && line[0] == ' ' && line[1] == ' ' && line[2] != ' ' && n < MAX_COMMANDS) {
            size_t word = strcspn(line + 2, " \n");
            snprintf(names[n++], NAME_CHARS, "%.*s", (int)word, line + 2);
        }
    }
    run_free(r);
    return n;
}

/* Calls check(example) for every example line ("  chalk ARGS") of `name`'s help. */
static int each_example(const char *name, void (*check)(const char *args))
{
    run *r = chalk("%s --help", name);
    expect_status(r, 0, name);
    const char *examples = strstr(r->out, "\nexamples:\n");
    if (!examples)
        fail_msg("chalk %s --help has no examples", name);
    int ran = 0;
    for (const char *line = strstr(examples, "  chalk "); line;
         line = strstr(line + 1, "\n  chalk ")) {
        line += line[0] == '\n';
        char args[ARGS_CHARS];
        size_t len = strcspn(line + 8, "\n");
        snprintf(args, sizeof args, "%.*s", (int)len, line + 8);
        check(args);
        ran++;
    }
    run_free(r);
    return ran;
}

/* Commands whose examples name files the reader makes first. */
static bool needs_files(const char *name)
{
    return strcmp(name, "check-answers") == 0;
}

/* An example runs, prints something, and exits 0. */
static void example_runs(const char *args)
{
    run *r = chalk("%s", args);
    expect_status(r, 0, args);
    assert_true(r->out[0] != '\0');
    assert_string_equal(r->err, "");
    run_free(r);
}

/* --json is one valid JSON value and nothing else; every null result carries a
 * string KEY_reason (the asan build asserts it too; this checks the text). */
static void example_json_is_valid_with_reasons(const char *args)
{
    if (strstr(args, "--csv"))
        return;
    run *r = chalk("%s%s", args, strstr(args, "--json") ? "" : " --json");
    expect_status(r, 0, args);
    if (!json_valid(r->out))
        fail_msg("chalk %s --json: not one valid JSON value: %.300s", args, r->out);
    run_free(r);
}

/* Every command listed by chalk --help has its own help, reached two ways, with at
 * least one example, and every example runs. */
static void every_command_has_help_whose_examples_run(void **state)
{
    (void)state;
    char names[MAX_COMMANDS][NAME_CHARS];
    int n = command_names(names);
    assert_true(n >= 8); /* list, show, check-answers and chapter 1's five */
    for (int i = 0; i < n; i++) {
        run *r = chalk("help %s", names[i]);
        expect_status(r, 0, names[i]);
        assert_non_null(strstr(r->out, "examples:"));
        run_free(r);
        if (needs_files(names[i]))
            continue;
        assert_true(each_example(names[i], example_runs) >= 1);
    }
}

/* Every example's --json output is valid JSON (cJSON), whatever the chapter. */
static void every_example_prints_valid_json(void **state)
{
    (void)state;
    char names[MAX_COMMANDS][NAME_CHARS];
    int n = command_names(names);
    for (int i = 0; i < n; i++)
        if (!needs_files(names[i]))
            each_example(names[i], example_json_is_valid_with_reasons);
}

/* chalk --help, chalk help and -h print on stdout and exit 0; a command's help lists
 * every flag it takes, and the output flags. */
static void help_exits_0_on_stdout_and_lists_the_flags(void **state)
{
    (void)state;
    const char *forms[] = {"--help", "help", "-h"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        run *r = chalk("%s", forms[i]);
        expect_status(r, 0, forms[i]);
        assert_string_equal(r->err, "");
        const char *shared[] = {"--model ",   "--hw ",  "--dtype ", "--batch ",
                                "--context ", "--json", "--csv",    "--help"};
        for (size_t f = 0; f < sizeof shared / sizeof shared[0]; f++)
            if (!strstr(r->out, shared[f]))
                fail_msg("chalk %s does not mention %s", forms[i], shared[f]);
        run_free(r);
    }
    run *r = chalk("show --help");
    expect_status(r, 0, "show --help");
    assert_non_null(strstr(r->out, "--dtype D"));
    assert_non_null(strstr(r->out, "--json"));
    run_free(r);
}

/* ---- presets -------------------------------------------------------------------------- */

/* DeepSeek-V3 README: 671e9 total and 37e9 active parameters; so sparsity 671 / 37. */
static void deepseek_v3_preset_has_671b_total_37b_active_within_2_percent(void **state)
{
    (void)state;
    run *r = chalk("show model deepseek-v3 --json");
    expect_status(r, 0, "show model");
    assert_close(json_number(r->out, "params_total"), 671e9, 0.02, "params");
    assert_close(json_number(r->out, "params_active"), 37e9, 0.02, "params");
    assert_close(json_number(r->out, "sparsity"), 671.0 / 37.0, 0.02, "");
    /* config_671B.json: MLA caches 61 layers x (512 + 64) elements, 2 bytes in bf16 */
    assert_close(json_number(r->out, "kv_bytes_per_token"), 61 * (512 + 64) * 2.0, TIGHT, "bytes");
    run_free(r);
}

/* Numbers are printed as %.17g, so they read back to the same double: the H100
 * preset's 989e12 and 3.35e12 (SB gpus.md) survive exactly. */
static void json_numbers_round_trip_exactly(void **state)
{
    (void)state;
    run *r = chalk("show hw h100-sxm --json");
    expect_status(r, 0, "show hw");
    assert_true(json_path(r->out, "hbm_bytes_per_s") == 3.35e12);
    assert_true(json_path(r->out, "flops_per_s.bf16") == 989e12);
    run_free(r);
}

/* SB gpus.md and the datasheet: H100 has bf16, fp8 and int8 peaks and no fp4; only
 * those appear. Rubin's numbers are preliminary and it has no price, and says why. */
static void show_hw_lists_only_the_precisions_the_chip_has(void **state)
{
    (void)state;
    run *r = chalk("show hw h100-sxm --json");
    expect_status(r, 0, "show hw");
    const char *peaks = json_at(r->out, "flops_per_s", 0);
    assert_non_null(peaks);
    size_t len = strcspn(peaks, "}");
    char object[256];
    snprintf(object, sizeof object, "%.*s", (int)len, peaks);
    assert_non_null(strstr(object, "\"bf16\""));
    assert_non_null(strstr(object, "\"fp8\""));
    assert_non_null(strstr(object, "\"int8\""));
    assert_null(strstr(object, "\"fp4\""));
    const char *keys[] = {"name",
                          "title",
                          "hbm_bytes",
                          "hbm_bytes_per_s",
                          "scaleup_bytes_per_s",
                          "scaleout_bytes_per_s",
                          "scaleup_domain_chips",
                          "domain_hbm_bytes",
                          "usd_per_chip_hour",
                          "price_source",
                          "preliminary",
                          "source",
                          "hbm_drain_s"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_non_null(json_at(r->out, keys[i], 0));
    run_free(r);
    r = chalk("show hw rubin-nvl72 --json");
    expect_status(r, 0, "show rubin");
    assert_true(json_is_null(r->out, "usd_per_chip_hour"));
    assert_false(json_is_null(r->out, "usd_per_chip_hour_reason"));
    assert_true(strstr(r->out, "\"preliminary\": true") != NULL);
    run_free(r);
}

/* The HBM of a scale-up domain is chips x HBM per chip: an NVL72 rack holds
 * 72 x 186 GB = 13.4 TB (NVIDIA GB200 NVL72 datasheet: 13.4 TB HBM3e), an 8-GPU H100
 * node 8 x 80 GB = 640 GB (SB gpus.md). */
static void domain_hbm_is_chips_times_hbm_per_chip(void **state)
{
    (void)state;
    run *r = chalk("show hw gb200-nvl72 --json");
    expect_status(r, 0, "show hw gb200-nvl72");
    assert_close(json_path(r->out, "domain_hbm_bytes"), 72 * 186e9, TIGHT, "bytes");
    run_free(r);
    r = chalk("show hw h100-sxm --json");
    expect_status(r, 0, "show hw h100-sxm");
    assert_close(json_path(r->out, "domain_hbm_bytes"), 8 * 80e9, TIGHT, "bytes");
    run_free(r);
}

/* list --json is an array of the objects show prints, one per preset. */
static void list_json_is_an_array_of_presets(void **state)
{
    (void)state;
    run *r = chalk("list hw --json");
    expect_status(r, 0, "list hw");
    assert_true(r->out[0] == '[');
    assert_true(json_valid(r->out));
    assert_non_null(strstr(r->out, "\"name\":\"h100-sxm\""));
    assert_non_null(strstr(r->out, "\"name\":\"rubin-nvl72\""));
    run_free(r);
    r = chalk("list models");
    expect_status(r, 0, "list models");
    assert_non_null(strstr(r->out, "deepseek-v3"));
    assert_non_null(strstr(r->out, "llama3-70b"));
    run_free(r);
}

/* --columns keeps the keys asked for, in that order; --digits sets the significant
 * digits of JSON and CSV numbers (H100: 80e9 / 3.35e12 = 23.88 ms to drain HBM, SB
 * gpus.md; three digits print 0.0239). */
static void columns_and_digits_shape_the_output(void **state)
{
    (void)state;
    run *r = chalk("list hw --csv --columns hbm_drain_s,name");
    expect_status(r, 0, "--columns");
    assert_true(strncmp(r->out, "hbm_drain_s,name\n", 17) == 0);
    assert_non_null(strstr(r->out, ",h100-sxm\n"));
    run_free(r);
    r = chalk("show hw h100-sxm --json --columns hbm_drain_s --digits 3");
    expect_status(r, 0, "--digits");
    assert_string_equal(r->out, "{\n  \"hbm_drain_s\": 0.0239\n}\n");
    run_free(r);
    const char *bad[] = {"list hw --csv --columns nosuch", "list hw --csv --columns ''",
                         "list hw --json --digits 0", "list hw --json --digits 18",
                         "list hw --json --digits 2.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = chalk("%s", bad[i]);
        expect_one_error_line(r, bad[i]);
        run_free(r);
    }
}

/* ---- errors ---------------------------------------------------------------------------- */

/* Every mistake in the input is reported, never crashed on or silently defaulted. */
static void every_bad_input_exits_2_with_one_error_line(void **state)
{
    (void)state;
    const char *cases[] = {
        "",               /* no command */
        "frobnicate",     /* unknown command */
        "show hw nosuch", /* unknown preset */
        "show model nosuch",
        "list", /* list what? */
        "list gpus",
        "list hw models",
        "show hw",
        "show hw h100-sxm extra",
        "list hw --dtype fp8", /* hw shows every precision */
        "show model llama3-8b --dtype fp16",
        "show model llama3-8b --json --csv",
        "show model llama3-8b --frob",
        "list hw --json --json",
        "help decode extra", /* help takes one name */
        "help nosuch",
        "check-answers", /* check-answers needs two files */
        "check-answers /nonexistent/key.json /nonexistent/answers.txt",
        "check-answers . .",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_one_error_line(r, cases[i]);
        run_free(r);
    }
}

/* An unknown preset or command is answered with the nearest names. */
static void unknown_names_suggest_the_nearest(void **state)
{
    (void)state;
    run *r = chalk("show hw h100");
    expect_status(r, 2, "show hw h100");
    assert_string_equal(r->err,
                        "chalk: error: unknown hw \"h100\" (did you mean h100-sxm, h200?)\n");
    run_free(r);
    r = chalk("show model deepseek");
    expect_one_error_line(r, "show model deepseek");
    assert_non_null(strstr(r->err, "deepseek-v3"));
    run_free(r);
    r = chalk("lst hw");
    expect_one_error_line(r, "lst hw");
    assert_non_null(strstr(r->err, "list"));
    run_free(r);
}

/* Output that cannot be written (a full disk, a closed stdout) is an error with a
 * message and a non-zero exit, never lost silently. */
static void output_that_cannot_be_written_is_an_error(void **state)
{
    (void)state;
    const char *cases[] = {"list hw >/dev/full", "list models --json >&-",
                           "show hw b200 --csv >/dev/full"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_status(r, 2, cases[i]);
        assert_non_null(strstr(r->err, "chalk: error: cannot write the output"));
        run_free(r);
    }
}

/* ---- check-answers --------------------------------------------------------------------- */

/* Writes `text` to a new temporary file and returns its path (free it). */
static char *temp_file(const char *text)
{
    char *path = strdup("/tmp/chalk-answers-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

#define KEY                                                                                        \
    "{\"q1\": {\"value\": 40, \"unit\": \"ms\", \"tolerance\": 0.02}, "                            \
    "\"q2\": {\"value\": \"memory\", \"tolerance\": null}}"

/* Runs check-answers on a key and answers given as text; returns the run. */
static run *check_answers(const char *key, const char *answers)
{
    char *k = temp_file(key), *a = temp_file(answers);
    run *r = chalk("check-answers %s %s", k, a);
    unlink(k);
    unlink(a);
    free(k);
    free(a);
    return r;
}

/* One rule for numbers: answers are plain decimals, as flags are. "40" and 40 are the
 * same answer; 0x28 (hex for 40) is not read as a number, and says so. */
static void answers_follow_the_one_rule_for_numbers(void **state)
{
    (void)state;
    run *r = check_answers(KEY, "{\"q1\": \"40\", \"q2\": \"Memory\"}");
    expect_status(r, 0, "a number given as a string");
    assert_non_null(strstr(r->out, "score: 2/2"));
    run_free(r);
    r = check_answers(KEY, "q1 40.5\nq2 memory\n");
    expect_status(r, 0, "lines, within 2%");
    run_free(r);
    r = check_answers(KEY, "q1 0x28\nq2 memory\n");
    expect_status(r, 1, "hex");
    assert_non_null(strstr(r->out, "not a number"));
    run_free(r);
    r = check_answers(KEY, "{\"q1\": \"0x1p-2\", \"q2\": \"memory\"}");
    expect_status(r, 1, "hex float");
    run_free(r);
}

/* A key or answers file with a member twice is refused (no silent choice); so is a
 * file that cannot be read, a directory, or a key that is not a key. */
static void malformed_or_unreadable_answer_files_exit_2(void **state)
{
    (void)state;
    const char *keys[] = {
        "{\"q1\": {\"value\": 40, \"value\": 41}}",           /* a field twice */
        "{\"q1\": {\"value\": 40}, \"q1\": {\"value\": 41}}", /* an id twice */
        "{\"q1\": {\"unit\": \"ms\"}}",                       /* no value */
        "{\"q1\": {\"value\": 40, \"tolerance\": -1}}",       /* negative tolerance */
        "[1, 2]",                                             /* not an object */
        "{\"q1\": {\"value\": 40}",                           /* unterminated */
        "{}",                                                 /* no problems */
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        run *r = check_answers(keys[i], "q1 40\n");
        expect_one_error_line(r, keys[i]);
        run_free(r);
    }
    run *r = check_answers(KEY, "{\"q1\": 40, \"q1\": 41}");
    expect_one_error_line(r, "an answer twice");
    run_free(r);
    char *k = temp_file(KEY);
    r = chalk("check-answers %s /tmp", k);
    expect_one_error_line(r, "a directory as FILE");
    assert_non_null(strstr(r->err, "directory"));
    run_free(r);
    r = chalk("check-answers /tmp %s", k);
    expect_one_error_line(r, "a directory as KEY");
    run_free(r);
    r = chalk("check-answers %s /nonexistent/answers.txt", k);
    expect_one_error_line(r, "a missing file");
    assert_non_null(strstr(r->err, "cannot read"));
    run_free(r);
    unlink(k);
    free(k);
}

/* The expected value is printed as the key's PDF prints it: its "shown" text. */
static void expected_values_are_printed_as_the_key_shows_them(void **state)
{
    (void)state;
    run *r = check_answers("{\"q1\": {\"value\": 418.6, \"unit\": \"ms\", \"tolerance\": 0.02, "
                           "\"shown\": \"419\"}}",
                           "q1 300\n");
    expect_status(r, 1, "off");
    assert_non_null(strstr(r->out, "expected 419 ms"));
    run_free(r);
    r = check_answers("{\"q1\": {\"value\": 418.6, \"unit\": \"ms\", \"tolerance\": 0.02}}", "");
    expect_status(r, 1, "missing");
    assert_non_null(strstr(r->out, "expected 419 ms")); /* 3 figures, as the key */
    run_free(r);
}


/* ---- one name, one meaning; files of a size a reader can hold ---------------------------- */

/* Every flag of every command (chalk flags --json), parsed; free with cJSON_Delete. */
static cJSON *all_flags(void)
{
    run *r = chalk("flags --json");
    expect_status(r, 0, "flags --json");
    cJSON *flags = cJSON_Parse(r->out);
    run_free(r);
    if (!cJSON_IsArray(flags))
        fail_msg("chalk flags --json is not a JSON array");
    return flags;
}

static const char *member(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* DESIGN.md "The calculator": a flag name means one quantity, in one unit, and is
 * echoed under one JSON key in every command that takes it; a key belongs to one
 * flag. (Issue 21: --batch was sequences in one command and tokens in another;
 * --act-bytes wrote act_bytes in one chapter and activation_bytes in another.) */
static void a_flag_name_means_one_quantity_and_one_key_everywhere(void **state)
{
    (void)state;
    cJSON *flags = all_flags();
    const cJSON *a, *b;
    cJSON_ArrayForEach(a, flags)
    {
        cJSON_ArrayForEach(b, flags)
        {
            if (a == b)
                continue;
            const char *na = member(a, "flag"), *nb = member(b, "flag");
            const char *ka = member(a, "key"), *kb = member(b, "key");
            if (strcmp(na, nb) == 0 && !same_text(ka, kb))
                fail_msg("%s writes \"%s\" in %s but \"%s\" in %s", na, ka ? ka : "(none)",
                         member(a, "commands"), kb ? kb : "(none)", member(b, "commands"));
            if (strcmp(na, nb) == 0 && !same_text(member(a, "unit"), member(b, "unit")))
                fail_msg("%s is %s in %s but %s in %s", na, member(a, "unit"),
                         member(a, "commands"), member(b, "unit"), member(b, "commands"));
            if (ka && kb && strcmp(ka, kb) == 0 && strcmp(na, nb) != 0)
                fail_msg("the key \"%s\" is written by both %s and %s", ka, na, nb);
        }
    }
    cJSON_Delete(flags);
}

/* The JSON key `flag` is declared with in chalk flags, or NULL. */
static const char *key_of(const cJSON *flags, const char *flag)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, flags)
    {
        if (strcmp(member(f, "flag"), flag) == 0)
            return member(f, "key");
    }
    return NULL;
}

static cJSON *example_flags; /* for example_echoes_its_flags */
static int unechoed;         /* flags given but not echoed, over every example */

/* Inputs a command computes from but does not echo under their own key (a shape, a
 * model it reads one number of; or folded into another input it echoes: cheapest's
 * offers, pipeline-split's weight_bytes; cheapest's price is main's interface as it
 * came): they write no key at all, so none can drift. Any other flag an
 * example gives must be echoed under its key. */
static bool not_echoed(const char *args, const char *flag)
{
    static const char *const NOT_ECHOED[][2] = {
        {"place ", "--model"},           {"place ", "--chips"},
        {"domain ", "--params-total"},   {"domain ", "--params-active"},
        {"domain ", "--kv-bytes-per-token"},
        {"pipeline-memory ", "--dtype"}, {"pipeline-memory ", "--kv-dtype"},
        {"kv ", "--kv-contexts"},        {"kv ", "--kv-heads"},
        {"kv ", "--head-dim"},           {"kv ", "--selected-tokens"},
        {"kv ", "--index-dim"},          {"context-crossover ", "--attn-layers"},
        {"context-crossover ", "--q-heads"}, {"context-crossover ", "--qk-dim"},
        {"context-crossover ", "--v-dim"},   {"activation-memory ", "--hw"},
        {"checkpoint-plan ", "--hw"},        {"pipeline-split ", "--dtype"},
        {"pipeline-split ", "--kv-dtype"},   {"cache-schedule ", "--times-s"},
        {"pipeline-split ", "--params-total"}, {"pipeline-split ", "--weight-bytes"},
        {"cheapest ", "--hw"},               {"cheapest ", "--usd-per-chip-hour"},
    };
    for (size_t i = 0; i < sizeof NOT_ECHOED / sizeof NOT_ECHOED[0]; i++)
        if (strncmp(args, NOT_ECHOED[i][0], strlen(NOT_ECHOED[i][0])) == 0 &&
            strcmp(flag, NOT_ECHOED[i][1]) == 0)
            return true;
    return false;
}

/* Every flag an example gives, with a key, is echoed under that key. */
static void example_echoes_its_flags(const char *args)
{
    if (strstr(args, "--csv"))
        return;
    run *r = chalk("%s%s", args, strstr(args, "--json") ? "" : " --json");
    expect_status(r, 0, args);
    char copy[ARGS_CHARS];
    snprintf(copy, sizeof copy, "%s", args);
    for (char *word = strtok(copy, " "); word; word = strtok(NULL, " ")) {
        if (strncmp(word, "--", 2) != 0)
            continue;
        const char *key = key_of(example_flags, word);
        char quoted[128];
        snprintf(quoted, sizeof quoted, "\"%s\":", key ? key : "");
        if (key && !strstr(r->out, quoted) && !not_echoed(args, word)) {
            print_error("chalk %s: %s is given but \"%s\" is not in its JSON\n", args, word, key);
            unechoed++;
        }
    }
    run_free(r);
}

static void every_example_echoes_its_flags_under_their_keys(void **state)
{
    (void)state;
    example_flags = all_flags();
    unechoed = 0;
    char names[MAX_COMMANDS][NAME_CHARS];
    int n = command_names(names);
    for (int i = 0; i < n; i++)
        if (!needs_files(names[i]) && strcmp(names[i], "flags") != 0 &&
            strcmp(names[i], "list") != 0 && strcmp(names[i], "show") != 0)
            each_example(names[i], example_echoes_its_flags);
    cJSON_Delete(example_flags);
    assert_int_equal(unechoed, 0);
}

/* A whole file as a string (free it), or NULL. */
static char *chalk_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    for (size_t got; text != NULL && (got = fread(text + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (len + 1 == cap)
            text = realloc(text, cap *= 2);
    }
    fclose(f);
    if (text != NULL)
        text[len] = '\0';
    return text;
}

/* Issue 21: a chapter's calculator file holds its flags, command tables and row
 * builders in at most ~600 lines; past 800 it is too long to read (make test fails).
 * And the file maps (README.md, chalk.h) name every file there is. */
static void no_calculator_file_is_over_800_lines(void **state)
{
    (void)state;
    char *readme = chalk_slurp("solutions/chalk/README.md");
    char *header = chalk_slurp("solutions/chalk/chalk.h");
    assert_non_null(readme);
    assert_non_null(header);
    DIR *dir = opendir("solutions/chalk");
    assert_non_null(dir);
    int files = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 3 || e->d_name[0] == '.' ||
            (strcmp(e->d_name + len - 2, ".c") != 0 && strcmp(e->d_name + len - 2, ".h") != 0))
            continue;
        char path[512];
        snprintf(path, sizeof path, "solutions/chalk/%s", e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        int lines = 0;
        for (int c; (c = getc(f)) != EOF;)
            lines += c == '\n';
        fclose(f);
        files++;
        if (lines > 800)
            fail_msg("%s has %d lines; a calculator file holds at most 800 (aim for 600)", path,
                     lines);
        /* The file maps name every file: a chapter's main file NN-topic.c (its name is
         * a chapter's directory) as the pattern NN-topic.c, any other by its name. */
        char chapter_dir[512];
        snprintf(chapter_dir, sizeof chapter_dir, "solutions/%.*s", (int)(len - 2), e->d_name);
        DIR *is_chapter = strcmp(e->d_name + len - 2, ".c") == 0 ? opendir(chapter_dir) : NULL;
        const char *name = is_chapter ? "NN-topic.c" : e->d_name;
        if (is_chapter)
            closedir(is_chapter);
        if (strstr(readme, name) == NULL || strstr(header, name) == NULL)
            fail_msg("%s is not in the file maps of solutions/chalk/README.md and chalk.h", path);
    }
    closedir(dir);
    free(readme);
    free(header);
    assert_true(files >= 8);
}

const struct CMUnitTest chalk_tests_core[] = {
    CHALK_TEST(chalk, every_command_has_help_whose_examples_run),
    CHALK_TEST(chalk, a_flag_name_means_one_quantity_and_one_key_everywhere),
    CHALK_TEST(chalk, every_example_echoes_its_flags_under_their_keys),
    CHALK_TEST(chalk, no_calculator_file_is_over_800_lines),
    CHALK_TEST(chalk, every_example_prints_valid_json),
    CHALK_TEST(chalk, help_exits_0_on_stdout_and_lists_the_flags),
    CHALK_TEST(chalk, deepseek_v3_preset_has_671b_total_37b_active_within_2_percent),
    CHALK_TEST(chalk, json_numbers_round_trip_exactly),
    CHALK_TEST(chalk, show_hw_lists_only_the_precisions_the_chip_has),
    CHALK_TEST(chalk, domain_hbm_is_chips_times_hbm_per_chip),
    CHALK_TEST(chalk, list_json_is_an_array_of_presets),
    CHALK_TEST(chalk, columns_and_digits_shape_the_output),
    CHALK_TEST(chalk, every_bad_input_exits_2_with_one_error_line),
    CHALK_TEST(chalk, unknown_names_suggest_the_nearest),
    CHALK_TEST(chalk, output_that_cannot_be_written_is_an_error),
    CHALK_TEST(chalk, answers_follow_the_one_rule_for_numbers),
    CHALK_TEST(chalk, malformed_or_unreadable_answer_files_exit_2),
    CHALK_TEST(chalk, expected_values_are_printed_as_the_key_shows_them),
};
const size_t chalk_tests_core_count = sizeof chalk_tests_core / sizeof chalk_tests_core[0];
