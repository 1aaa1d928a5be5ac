/* The nqueens tool as a person uses it: exit codes, one-line errors, output format. */
#include <criterion/criterion.h>

#include "cli_run.h"
#include "oeis_data.h"

static cli_out o;

static void expect_usage_error(const char *const *args)
{
    cli_run(&o, args);
    cr_expect_eq(o.status, 2, "'%s %s' exit %d (stderr: %s)", args[0], args[1] ? args[1] : "",
                 o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "one line on stderr, got: %s", o.err);
    cr_expect_str_eq(o.out, "", "nothing on stdout");
}

Test(unit, cli_bad_arguments_exit_2)
{
    const char *const cases[][7] = {
        {NULL},
        {"frobnicate", NULL},
        {"count", NULL},
        {"count", "0", NULL},
        {"count", "33", NULL},
        {"count", "-4", NULL},
        {"count", "8x", NULL},
        {"count", " 8", NULL},
        {"count", "99999999999999999999999", NULL},
        {"count", "8", "9", NULL},
        {"count", "8", "--threads", NULL},
        {"count", "8", "--threads", "0x2", NULL},
        {"count", "8", "--threads=-1", NULL},
        {"count", "8", "--engine", "nope", NULL},
        {"count", "8", "--prefix-rows", "0", NULL},
        {"count", "8", "--prefix-rows", "3", "--engine", "d4", NULL},
        {"count", "8", "--bogus", NULL},
        {"count", "8", "--json=yes", NULL},
        {"verify", "0", NULL},
        {"verify", "5", "28", NULL},
        {"verify", "9", "3", NULL},
        {"verify", "1", "2", "3", NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        expect_usage_error(cases[i]);
}

Test(unit, cli_count_prints_the_total_alone)
{
    char want[64];
    const char *const args[] = {"count", "10", "--threads", "2", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", 10));
    cr_expect_str_eq(o.out, want);
}

Test(unit, cli_count_json)
{
    char want[64];
    const char *const args[] = {"count",           "11", "--json", "--no-pin", "--prefix-rows=3",
                                "--engine=prefix", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_eq(count_lines(o.out), 1);
    snprintf(want, sizeof(want), "\"total\": %llu,", (unsigned long long)oeis_value("A000170", 11));
    cr_expect_not_null(strstr(o.out, want), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"n\": 11,"), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"verified\": true"), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"engine\": \"prefix\""), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"prefix_rows\": 3,"), "%s", o.out);
    cr_expect_str_eq(o.err, "", "--no-pin: no warning");
}

Test(unit, cli_verify_range)
{
    const char *const args[] = {"verify", "4", "9", "--threads", "3", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_eq(count_lines(o.out), 7, "%s", o.out); /* 6 PASS lines and the summary */
    cr_expect_not_null(strstr(o.out, "verify: 6 passed, 0 failed"), "%s", o.out);
    cr_expect_null(strstr(o.out, "FAIL"));
}

Test(unit, cli_help_and_version)
{
    const char *const h[] = {"count", "--help", NULL};
    const char *const v[] = {"--version", NULL};
    cli_run(&o, h);
    cr_expect_eq(o.status, 0);
    cr_expect_not_null(strstr(o.out, "usage: nqueens count N"));
    cli_run(&o, v);
    cr_expect_eq(o.status, 0);
    cr_expect_eq(strncmp(o.out, "nqueens ", 8), 0);
}

Test(unit, cli_unique_alone)
{
    char want[64];
    const char *const args[] = {"count", "10", "--unique", "--no-pin", NULL};
    const char *const bad[] = {"count", "10", "--unique", "--engine", "prefix", NULL};
    const char *const flag[] = {"count", "10", "--unique=1", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A002562", 10));
    cr_expect_str_eq(o.out, want);
    expect_usage_error(bad);
    expect_usage_error(flag);
}

Test(unit, cli_json_carries_unique)
{
    char want[64];
    const char *const d4[] = {"count", "9", "--json", "--no-pin", "--engine", "d4", NULL};
    const char *const px[] = {"count", "9", "--json", "--no-pin", "--engine", "prefix", NULL};
    cli_run(&o, d4);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    snprintf(want, sizeof(want), "\"unique\": %llu,", (unsigned long long)oeis_value("A002562", 9));
    cr_expect_not_null(strstr(o.out, want), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"engine\": \"d4\""), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"verified\": true"), "%s", o.out);
    cli_run(&o, px);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_not_null(strstr(o.out, "\"unique\": null,"), "%s", o.out);
}

Test(unit, cli_verify_checks_unique)
{
    char want[64];
    const char *const args[] = {"verify", "5", "8", "--no-pin", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    snprintf(want, sizeof(want), "unique=%-18llu expected=%llu ",
             (unsigned long long)oeis_value("A002562", 8),
             (unsigned long long)oeis_value("A002562", 8));
    cr_expect_not_null(strstr(o.out, want), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "verify: 4 passed, 0 failed"), "%s", o.out);
}
