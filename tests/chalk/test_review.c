/*
 * test_review.c -- every row of the calculator review's table of hostile inputs
 * (../shared/reviews/calculator-2026-11.md, "row N" below), each a test: what
 * happened then is what must never happen again. Rows 12 to 15 are the reader's
 * loop's, tested in tests/loop/test_loop.sh.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file holding `text`; unlink and free it. */
static char *temp_file(const char *text)
{
    char *path = strdup("/tmp/chalk-review-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Row 1: a long sweep with stdout closed never ended (the sweep's second process
 * appended to the file it read). Now: exit 2, one line, at once. */
static void row_1_closed_stdout_is_an_error_never_a_loop(void **state)
{
    (void)state;
    const char *cases[] = {
        "decode --model llama3-70b --hw h100-sxm --context 8192 --batch 1:1e6:100000:linear --csv >&-",
        "decode --model llama3-70b --hw h100-sxm --context 8192 --batch 1:1e6:100000:linear --json >&-",
        "bubble --stages 8 --microbatches 1:1e6:100000:linear --csv >&-",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_one_error_line(r, cases[i]);
        assert_non_null(strstr(r->err, "cannot write the output: Bad file descriptor"));
        run_free(r);
    }
}

/* Row 2: a 930 kB answers object of 100,000 members took 21 s (each member compared
 * with every other). Now the names are sorted: a repeat at the very end is found,
 * and a file without repeats stops at the answer limit. */
static void row_2_a_huge_answers_object_is_read_in_one_pass(void **state)
{
    (void)state;
    enum { MEMBERS = 100000 };
    size_t size = 12 * MEMBERS + 64, used = 0; /* "186a0":1, is 10 bytes: under 1 MB */
    char *text = malloc(size), *with_repeat = malloc(size);
    assert_non_null(text);
    assert_non_null(with_repeat);
    used += (size_t)snprintf(text + used, size - used, "{");
    for (int i = 0; i < MEMBERS; i++)
        used += (size_t)snprintf(text + used, size - used, "%s\"%x\":1", i ? "," : "", i);
    memcpy(with_repeat, text, used);
    snprintf(with_repeat + used, size - used, ",\"7\":2}");
    snprintf(text + used, size - used, "}");
    char *key = temp_file("{\"q1\": {\"value\": 1, \"tolerance\": 0.01}}");
    char *big = temp_file(text), *repeat = temp_file(with_repeat);
    run *r = chalk("check-answers %s %s", key, repeat);
    expect_one_error_line(r, "100,000 members, one repeated");
    assert_non_null(strstr(r->err, "\"7\" appears twice"));
    run_free(r);
    r = chalk("check-answers %s %s", key, big);
    expect_one_error_line(r, "100,000 members");
    assert_non_null(strstr(r->err, "more than"));
    run_free(r);
    unlink(key);
    unlink(big);
    unlink(repeat);
    free(key);
    free(big);
    free(repeat);
    free(text);
    free(with_repeat);
}

/* Row 3: an unreachable loss, no traffic, a vanishing efficiency, aborted on the
 * reference's preconditions. Now each is an answer (null with its reason, or the
 * compute-optimal model when nothing is served) or one error line. */
static void row_3_no_assert_is_reachable_from_the_command_line(void **state)
{
    (void)state;
    const char *answers[] = {
        "inference-optimal --loss 0.5 --inference-tokens 1e12 --json",
        "inference-optimal --match-params 13e9 --tokens-per-s 0 --days 30 --json",
        "inference-optimal --match-params 13e9 --tokens-per-s 5e7 --days 0 --json",
        "inference-optimal --match-params 13e9 --inference-tokens 1e22 --inference-efficiency "
        "1e-6 --json",
        "lifetime --loss 0.5 --inference-tokens 1e12 --params 1e9 --json",
    };
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
        run *r = chalk("%s", answers[i]);
        expect_status(r, 0, answers[i]);
        assert_true(json_valid(r->out));
        run_free(r);
    }
    run *r = chalk("inference-optimal --loss 0.5 --inference-tokens 1e12 --json");
    assert_true(json_is_null(r->out, "params"));
    assert_non_null(strstr(r->out, "no model reaches it"));
    run_free(r);
    const char *errors[] = {
        "inference-optimal --match-params 13e9 --inference-tokens 1e12 --inference-efficiency "
        "1e-320",
        "inference-optimal --match-params 13e9 --inference-tokens 1e-320:1",
        "inference-optimal --match-params 100e9 --match-equal-cost --tokens-per-s 0 --days 60",
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        r = chalk("%s", errors[i]);
        expect_one_error_line(r, errors[i]);
        run_free(r);
    }
}

/* Rows 4 and 5: a geometric sweep from a denormal overflowed B/A; a bad point printed
 * a header and rows, then named an output key. Now a sweep whose ratio overflows is
 * refused before anything is printed, and a point with no finite result is an error
 * naming the input flags, with nothing on stdout. */
static void rows_4_and_5_bad_sweeps_are_refused_before_printing_naming_the_inputs(void **state)
{
    (void)state;
    /* 1e12 / 1e-300 overflows a double: the sweep is refused as read */
    run *r = chalk("decode --model llama3-70b --hw h100-sxm --context 8192 --batch 1e-300:1e12:5 "
                   "--json");
    expect_one_error_line(r, "batch 1e-300:1e12:5");
    assert_non_null(strstr(r->err, "--batch"));
    assert_non_null(strstr(r->err, "overflows"));
    run_free(r);
    /* subnormal inputs are refused outright */
    r = chalk("decode --model llama3-70b --hw h100-sxm --context 8192 --batch 1e-320:1");
    expect_one_error_line(r, "batch 1e-320:1");
    assert_non_null(strstr(r->err, "--batch"));
    run_free(r);
    /* 1e-300 sequences share the weight fetch: 1e300 times too much a token, not
     * finite. The third point is as bad as the first: nothing is printed, in any
     * format, and the error names the inputs, not an output key. */
    const char *formats[] = {"", " --json", " --csv"};
    for (size_t i = 0; i < 3; i++) {
        r = chalk("pass --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch 1e-300 "
                  "--context 8192 --pass-tokens 1:256:9%s",
                  formats[i]);
        expect_one_error_line(r, "pass --batch 1e-300");
        assert_non_null(strstr(r->err, "--batch 1e-300"));
        assert_non_null(strstr(r->err, "--pass-tokens"));
        assert_null(strstr(r->err, "time_s"));
        run_free(r);
    }
    /* A long report (over 256 rows, written in one pass) is held back the same way:
     * the 301st of 301 points is bad, and nothing of the 300 good ones is printed. */
    char list[2048] = "";
    for (int b = 1; b <= 300; b++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%d,", b);
    strcat(list, "1e-300");
    for (size_t i = 0; i < 3; i++) {
        r = chalk("pass --model deepseek-v3 --hw gb200-nvl72 --dtype fp4 --batch %s "
                  "--context 8192 --pass-tokens 1%s",
                  list, formats[i]);
        expect_one_error_line(r, "pass --batch 1,...,300,1e-300");
        assert_non_null(strstr(r->err, "--batch 1e-300"));
        run_free(r);
    }
}

/* Row 6: -0 was accepted and printed as -0. It is 0. */
static void row_6_minus_zero_is_zero(void **state)
{
    (void)state;
    run *r = chalk("decode --model llama3-70b --hw h100-sxm --batch 8 --context -0 --json");
    expect_status(r, 0, "--context -0");
    assert_non_null(strstr(r->out, "\"context\": 0,"));
    assert_null(strstr(r->out, "-0"));
    run_free(r);
    r = chalk("bubble --stages 4 --microbatches 8 --chunks 1 --json");
    expect_status(r, 0, "bubble");
    run_free(r);
    r = chalk("tier --tier hbm --hold-s -0 --csv");
    expect_status(r, 0, "--hold-s -0");
    assert_null(strstr(r->out, ",-0"));
    run_free(r);
}

/* Row 7: the optimum against itself showed "saved -8.389 MFLOP". Rounding is no
 * saving: 0. */
static void row_7_rounding_is_not_shown_as_a_saving(void **state)
{
    (void)state;
    run *r = chalk("inference-optimal --match-params 13e9 --inference-tokens 0 --json");
    expect_status(r, 0, "inference-optimal, no demand");
    assert_true(json_number(r->out, "saved_flops") == 0.0);
    assert_non_null(strstr(r->out, "\"saved_flops\": 0,"));
    run_free(r);
}

/* Row 8: check-answers --json printed text. It writes JSON (one record per answer),
 * and --csv writes CSV. */
static void row_8_check_answers_json_writes_json(void **state)
{
    (void)state;
    char *key = temp_file("{\"q1\": {\"value\": 40, \"unit\": \"ms\", \"tolerance\": 0.02}, "
                          "\"q2\": {\"value\": \"memory\"}}");
    char *answers = temp_file("q1 40.5\nq2 compute\nq9 1\n");
    run *r = chalk("check-answers %s %s --json", key, answers);
    expect_status(r, 1, "check-answers --json");
    assert_true(json_valid(r->out));
    assert_true(json_string_is(r->out, "status", "unknown")); /* q9 comes first */
    assert_int_equal(count_of(r->out, "\"status\":\"right\""), 1);
    assert_int_equal(count_of(r->out, "\"status\":\"off\""), 1);
    run_free(r);
    r = chalk("check-answers %s %s --csv", key, answers);
    expect_status(r, 1, "check-answers --csv");
    assert_int_equal(strncmp(r->out, "id,status,expected,", 19), 0);
    assert_int_equal(count_of(r->out, "\n"), 4); /* a header, three answers */
    run_free(r);
    unlink(key);
    unlink(answers);
    free(key);
    free(answers);
}

/* Row 9: impossible set-ups printed impossible figures. Each is now an error naming
 * what cannot be. */
static void row_9_impossible_setups_are_errors(void **state)
{
    (void)state;
    const char *cases[] = {
        "pipeline-memory --model deepseek-v3 --hw gb200-nvl72 --expert-parallel 64 "
        "--microbatch 2048 --context 32768 --stages 1000",
        "activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --tensor-parallel 1000",
        "activation-memory --model gpt3-175b --seq 2048 --microbatch 1 --pipeline-parallel 1000",
        "activation-memory --seq 2048 --microbatch 1 --hidden 6144 --heads 7",
        "kv --layers 10 --kv-contexts 20 --kv-heads 8 --head-dim 128",
        "kv --layers 10 --kv-contexts 2 --local-layers 20 --window 4096 --kv-heads 8 --head-dim 128",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_one_error_line(r, cases[i]);
        run_free(r);
    }
}

/* Row 10: revnet without --layers read an uninitialised width (UBSan). It asks for
 * --layers. */
static void row_10_revnet_without_layers_says_so(void **state)
{
    (void)state;
    run *r = chalk("revnet --width 64");
    expect_one_error_line(r, "revnet --width 64");
    assert_non_null(strstr(r->err, "--layers"));
    run_free(r);
}

/* Row 11: Monte-Carlo and avalanche runs inside the documented ranges took from 17 s
 * to days. Each has a cap on its work in seconds, stated in the error, checked
 * before any of it runs. */
static void row_11_long_experiments_have_a_work_cap_in_seconds(void **state)
{
    (void)state;
    const char *cases[] = {
        "avalanche --cipher tea --trials 1e6",
        "avalanche-depth --depth 64",
        "avalanche-depth --depth 1:64:64:linear --trials 1e6",
        "moe-imbalance --experts 256 --top-k 8 --tokens 1e6 --trials 1000",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_one_error_line(r, cases[i]);
        assert_non_null(strstr(r->err, " s of computing, over the cap of 10 s"));
        run_free(r);
    }
}

/* Row 16: an answers file saved with a UTF-8 byte order mark gave a baffling "expected
 * ID VALUE". The mark is skipped, in both files. */
static void row_16_a_byte_order_mark_is_skipped(void **state)
{
    (void)state;
    char *key = temp_file("\xEF\xBB\xBF{\"q1\": {\"value\": 40, \"tolerance\": 0.02}}");
    char *lines = temp_file("\xEF\xBB\xBFq1 40\n");
    char *json = temp_file("\xEF\xBB\xBF{\"q1\": 40}");
    run *r = chalk("check-answers %s %s", key, lines);
    expect_status(r, 0, "a BOM before ID VALUE lines");
    assert_non_null(strstr(r->out, "score: 1/1"));
    run_free(r);
    r = chalk("check-answers %s %s", key, json);
    expect_status(r, 0, "a BOM before a JSON object");
    run_free(r);
    unlink(key);
    unlink(lines);
    unlink(json);
    free(key);
    free(lines);
    free(json);
}

const struct CMUnitTest chalk_tests_review[] = {
    CHALK_TEST(chalk, row_1_closed_stdout_is_an_error_never_a_loop),
    CHALK_TEST(chalk, row_2_a_huge_answers_object_is_read_in_one_pass),
    CHALK_TEST(chalk, row_3_no_assert_is_reachable_from_the_command_line),
    CHALK_TEST(chalk, rows_4_and_5_bad_sweeps_are_refused_before_printing_naming_the_inputs),
    CHALK_TEST(chalk, row_6_minus_zero_is_zero),
    CHALK_TEST(chalk, row_7_rounding_is_not_shown_as_a_saving),
    CHALK_TEST(chalk, row_8_check_answers_json_writes_json),
    CHALK_TEST(chalk, row_9_impossible_setups_are_errors),
    CHALK_TEST(chalk, row_10_revnet_without_layers_says_so),
    CHALK_TEST(chalk, row_11_long_experiments_have_a_work_cap_in_seconds),
    CHALK_TEST(chalk, row_16_a_byte_order_mark_is_skipped),
};
const size_t chalk_tests_review_count = sizeof chalk_tests_review / sizeof chalk_tests_review[0];
