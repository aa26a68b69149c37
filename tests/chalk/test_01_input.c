/*
 * test_01_input.c -- chapter 1's commands as a command line: sweeps (ranges, lists,
 * CSV and JSON), how numbers are read, and every bad input refused with one error line.
 * Split from test_01_batching.c, which tests what the commands compute.
 *
 * Sources: as in test_01_batching.c (the lecture's figures, the vendors' datasheets,
 * the model configs cited in lib/model.c).
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --batch 1:4096 is 64 points from 1 to 4096 inclusive, rising; --csv prints a header
 * with the JSON key names, then a row per point. */
static void sweep_csv_has_a_header_and_64_rows_with_batch_rising(void **state)
{
    (void)state;
    run *r = chalk("decode --model llama3-70b --hw h100-sxm --context 8192 --batch 1:4096 --csv");
    expect_status(r, 0, "decode sweep");
    assert_int_equal(count_of(r->out, "\n"), 1 + 64);
    int batch = csv_column(r->out, "batch"), step = csv_column(r->out, "step_s");
    assert_true(batch >= 0 && step >= 0);
    const char *line = strchr(r->out, '\n') + 1;
    double previous = 0;
    for (int row = 0; row < 64; row++, line = strchr(line, '\n') + 1) {
        double b = csv_number(line, batch);
        assert_true(b > previous);
        previous = b;
        if (row == 0)
            assert_close(b, 1, TIGHT, "sequences");
    }
    assert_close(previous, 4096, TIGHT, "sequences");
    run_free(r);
}

/* A:B:N is N geometric points (1:4096:13 lands on the powers of two), a,b,c a list. */
static void sweeps_of_n_points_and_lists_give_exactly_those_points(void **state)
{
    (void)state;
    run *r = chalk("decode --model llama3-8b --hw h100-sxm --context 0 --batch 1:4096:13 --json");
    expect_status(r, 0, "13 points");
    assert_int_equal(count_of(r->out, "\"batch\":"), 13);
    for (int i = 0; i < 13; i++)
        assert_close(json_nth(r->out, "batch", i), ldexp(1.0, i), TIGHT, "sequences");
    run_free(r);
    r = chalk("decode --model llama3-8b --hw h100-sxm --context 0 --batch 1,2,4,8 --csv");
    expect_status(r, 0, "list");
    assert_int_equal(count_of(r->out, "\n"), 1 + 4);
    run_free(r);
}

/* A sweep in JSON is one object, {"rows":[...]}, one row per point. */
static void sweep_json_is_one_object_with_a_rows_array(void **state)
{
    (void)state;
    run *r = chalk("balance-batch --model llama3-70b --hw h100-sxm --context 1024:131072:8 --json");
    expect_status(r, 0, "balance sweep");
    assert_true(strncmp(r->out, "{\"rows\":[", 9) == 0);
    assert_int_equal(count_of(r->out, "\"balance_batch\":"), 8);
    assert_close(json_nth(r->out, "context", 7), 131072, TIGHT, "tokens");
    run_free(r);
}

/* 671e9, 2048, 0.5 and --flag=value are all accepted. */
static void numbers_take_exponents_decimals_and_flag_equals_value(void **state)
{
    (void)state;
    run *r = chalk("decode --params-total 671e9 --params-active=37e9 --flops-per-s 1.0E15 "
                   "--hbm-bytes-per-s=8e12 --kv-bytes-per-token 70272 --batch 2048 "
                   "--context 0.5 --json");
    expect_status(r, 0, "decode");
    assert_close(json_number(r->out, "params_active"), 37e9, TIGHT, "params");
    assert_close(json_number(r->out, "context"), 0.5, TIGHT, "tokens");
    assert_close(json_number(r->out, "hbm_bytes_per_s"), 8e12, TIGHT, "B/s");
    run_free(r);
}

#define GOOD "--model llama3-8b --hw h100-sxm"

/* Every mistake in the input is reported, never crashed on or silently defaulted. */
static void every_bad_input_to_chapter_1_commands_exits_2_with_one_error_line(void **state)
{
    (void)state;
    const char *cases[] = {
        "decode " GOOD " --batch 1 --context 0 --frob 1",            /* unknown flag */
        "decode --model nosuch --hw h100-sxm --batch 1 --context 0", /* unknown preset */
        "decode --model llama3-8b --hw nosuch --batch 1 --context 0",
        "decode " GOOD " --context 0 --batch",     /* a flag missing its value */
        "decode " GOOD " --context 0 --batch 12x", /* malformed numbers */
        "decode " GOOD " --context 0 --batch ''",
        "decode " GOOD " --context 0 --batch nan",
        "decode " GOOD " --context 0 --batch inf",
        "decode " GOOD " --context 0 --batch 0x10",
        "decode " GOOD " --context 0 --batch 1e999",
        "decode " GOOD " --context 0 --batch 0", /* zero or negative */
        "decode " GOOD " --context 0 --batch -3",
        "decode " GOOD " --context -1 --batch 1",
        "decode " GOOD " --context 0 --batch 1 --chips 0",
        "decode " GOOD " --context 0 --batch 1 --chips 2.5",
        "decode " GOOD " --context 0 --batch 1 --params-total -5",
        "decode " GOOD " --context 0 --batch 1 --flops-per-s 0",
        "fast-mode " GOOD " --context 0 --batch 8 --speedup 0.5",
        "max-batch " GOOD " --context 8 --target-step-s 0",
        "decode " GOOD " --context 0 --batch 1 --dtype fp16", /* bad dtype */
        "decode " GOOD " --context 0 --batch 1 --kv-dtype fp64",
        "decode " GOOD " --context 0 --batch 1:", /* bad sweeps */
        "decode " GOOD " --context 0 --batch 4096:1",
        "decode " GOOD " --context 0 --batch 1:10:1",
        "decode " GOOD " --context 0 --batch 1:10:2.5",
        "decode " GOOD " --context 0 --batch 1:2:3:4",
        "decode " GOOD " --context 0 --batch 1,,2",
        "decode " GOOD " --context 0 --batch 1,2,",
        "decode " GOOD " --context 0:4096 --batch 1",
        "decode " GOOD " --context 1,2 --batch 1:8", /* two sweeps */
        "decode " GOOD " --batch 1",                 /* missing inputs */
        "decode " GOOD " --context 0",
        "decode --params-total 1e9 --batch 1 --context 0",
        "max-batch " GOOD,
        "fast-mode " GOOD " --batch 8 --context 0",
        "departures",
        "decode " GOOD " --context 0 --batch 1 --batch 2", /* twice */
        "decode " GOOD " --context 0 --batch 1 --json --csv",
        "decode " GOOD " --context 0 --batch 1 stray",
        "balance-batch " GOOD " --batch 8", /* not this command's flag */
        "decode --model llama3-8b --params-active 9e9 --hw h100-sxm --batch 1 --context 0",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i]);
        expect_one_error_line(r, cases[i]);
        run_free(r);
    }
}

/* A missing input is an error that names the flag to pass. */
static void missing_inputs_are_errors_naming_the_flag(void **state)
{
    (void)state;
    struct {
        const char *args, *flag;
    } cases[] = {
        {"decode " GOOD " --context 0", "--batch"},
        {"decode " GOOD " --batch 1", "--context"},
        {"decode --params-total 1e9 --batch 1 --context 0", "--flops-per-s"},
        {"decode --params-total 1e9 --flops-per-s 1e15 --batch 1 --context 0", "--hbm-bytes-per-s"},
        {"decode --hw h100-sxm --batch 1 --context 0", "--params-total"},
        {"decode --params-total 1e9 --hw h100-sxm --batch 1 --context 5", "--kv-bytes-per-token"},
        {"max-batch --params-total 1e9 --hbm-bytes-per-s 1e12 --context 5 "
         "--kv-bytes-per-token 10",
         "--hbm-bytes"},
        {"fast-mode " GOOD " --batch 8 --context 0", "--speedup"},
        {"departures --hbm-bytes 80e9", "--hbm-bytes-per-s"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("%s", cases[i].args);
        expect_one_error_line(r, cases[i].args);
        if (!strstr(r->err, cases[i].flag))
            fail_msg("chalk %s: the error does not name %s: %s", cases[i].args, cases[i].flag,
                     r->err);
        run_free(r);
    }
}

/* --batch 0:12000:7:linear is 7 evenly spaced points, 0 included (a linear axis);
 * a list holding a range is sorted and holds each point once, so an exact knee can
 * be added to a sweep: 0.5:12000:7:linear,7971,12000 has 8 points (12000 once), and
 * 7971 lies fifth, between 6000.25 and 8000.2. */
static void linear_sweeps_and_ranges_with_extra_points(void **state)
{
    (void)state;
    run *r = chalk("decode --model llama3-8b --hw h100-sxm --context 0 --batch 1:12000:7:linear "
                   "--json");
    expect_status(r, 0, "linear");
    assert_int_equal(count_of(r->out, "\"batch\":"), 7);
    for (int i = 0; i < 7; i++)
        assert_close(json_nth(r->out, "batch", i), 1 + i * (12000 - 1) / 6.0, TIGHT, "sequences");
    run_free(r);
    r = chalk("decode --model llama3-8b --hw h100-sxm --context 0 --batch "
              "0.5:12000:7:linear,7971,12000 --json");
    expect_status(r, 0, "range and points");
    assert_int_equal(count_of(r->out, "\"batch\":"), 8);
    double previous = 0;
    for (int i = 0; i < 8; i++) {
        double b = json_nth(r->out, "batch", i);
        assert_true(b > previous);
        previous = b;
    }
    assert_close(json_path(r->out, "rows.4.batch"), 7971, TIGHT, "sequences");
    run_free(r);
}

/* A list of 65,000 points (the most that fits in one argument: Linux caps one at
 * 128 KiB) is read in one pass, as the quadratic case; a sweep of more than
 * 100,000 points is refused with the limit named. Built here, not typed. */
static void a_list_of_65000_points_is_read_and_too_many_points_refused(void **state)
{
    (void)state;
    enum { N = 65000 };
    char path[] = "/tmp/chalk-list-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    for (int i = 0; i < N; i++)
        fputs(i ? ",1" : "1", f);
    fclose(f);
    run *r = chalk("decode --model llama3-8b --hw h100-sxm --context 0 --batch \"$(cat %s)\" "
                   "--csv | wc -l",
                   path);
    unlink(path);
    expect_status(r, 0, "65000 points");
    assert_int_equal(atoi(r->out), N + 1);
    run_free(r);
    r = chalk("decode --model llama3-8b --hw h100-sxm --context 0 --batch 1:2:100001");
    expect_one_error_line(r, "100001 points");
    assert_non_null(strstr(r->err, "from 2 to 100000"));
    run_free(r);
}

/* A long sweep (long enough to be written by two processes, one half each) comes out
 * whole and in order: 40,000 rows, batch rising, and each row its own closed form
 * (batching.h), on both sides of the middle, in CSV and in JSON. */
static void a_long_sweep_is_whole_and_in_order(void **state)
{
    (void)state;
    const char *deploy = "decode --params-total 1e9 --params-active 5e8 --kv-bytes-per-token 1e5 "
                         "--flops-per-s 1e15 --hbm-bytes-per-s 1e12 --context 1000 "
                         "--batch 1:1e6:40000";
    run *r = chalk("%s --csv --columns batch,step_s", deploy);
    expect_status(r, 0, "40000 rows of CSV");
    assert_int_equal(count_of(r->out, "\n"), 1 + 40000);
    double previous = 0;
    const char *line = strchr(r->out, '\n') + 1;
    for (int row = 0; row < 40000; row++, line = strchr(line, '\n') + 1) {
        double b = csv_number(line, 0), step = csv_number(line, 1);
        if (!(b > previous))
            fail_msg("row %d: batch %g after %g", row, b, previous);
        previous = b;
        double expected_b = pow(1e6, row / 39999.0); /* A:B:N is geometric */
        double compute = b * 2 * 5e8 / 1e15, memory = 1e9 * 2 / 1e12 + b * 1000 * 1e5 / 1e12;
        if (row == 0 || row == 19999 || row == 20000 || row == 39999) {
            assert_close(b, expected_b, 1e-9, "sequences");
            assert_close(step, fmax(compute, memory), 1e-12, "s");
        }
    }
    run_free(r);
    r = chalk("%s --json", deploy);
    expect_status(r, 0, "40000 rows of JSON");
    assert_true(json_valid(r->out));
    assert_close(json_path(r->out, "rows.20000.batch"), pow(1e6, 20000 / 39999.0), 1e-9,
                 "sequences");
    assert_close(json_path(r->out, "rows.39999.batch"), 1e6, TIGHT, "sequences");
    run_free(r);
}

/* Inputs whose results would overflow are refused with the allowed range, never
 * printed as "inf s" or a null without a reason. */
static void inputs_outside_their_range_are_refused_naming_it(void **state)
{
    (void)state;
    const char *cases[] = {
        "--batch 1e308",
        "--batch 1 --hbm-bytes-per-s 1e-320",
        "--batch 1 --usd-per-chip-hour 1e308",
        "--batch 1 --flops-per-s 1e-300",
        "--batch 1 --params-total 1e300",
        "--batch 1 --chips 1e9",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run *r = chalk("decode --model llama3-8b --hw h100-sxm --context 0 %s", cases[i]);
        expect_one_error_line(r, cases[i]);
        if (!strstr(r->err, "must be"))
            fail_msg("%s: the error does not give the range: %s", cases[i], r->err);
        run_free(r);
    }
    run *r = chalk("max-batch --model llama3-8b --hw h100-sxm --context 1e300");
    expect_one_error_line(r, "--context 1e300");
    run_free(r);
}

const struct CMUnitTest chalk_tests_01_input[] = {
    CHALK_TEST(chalk, sweep_csv_has_a_header_and_64_rows_with_batch_rising),
    CHALK_TEST(chalk, sweeps_of_n_points_and_lists_give_exactly_those_points),
    CHALK_TEST(chalk, sweep_json_is_one_object_with_a_rows_array),
    CHALK_TEST(chalk, numbers_take_exponents_decimals_and_flag_equals_value),
    CHALK_TEST(chalk, every_bad_input_to_chapter_1_commands_exits_2_with_one_error_line),
    CHALK_TEST(chalk, missing_inputs_are_errors_naming_the_flag),
    CHALK_TEST(chalk, linear_sweeps_and_ranges_with_extra_points),
    CHALK_TEST(chalk, a_list_of_65000_points_is_read_and_too_many_points_refused),
    CHALK_TEST(chalk, a_long_sweep_is_whole_and_in_order),
    CHALK_TEST(chalk, inputs_outside_their_range_are_refused_naming_it),
};
const size_t chalk_tests_01_input_count =
    sizeof chalk_tests_01_input / sizeof chalk_tests_01_input[0];
