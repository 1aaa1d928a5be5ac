/* The formats of list and bench, each a row of its command's table, and the words
 * nqueens --list-values prints for the completions: every listed format is taken, the
 * help and a bad value's message name each one, and the query answers from the tables. */
#include <criterion/criterion.h>

#include "cli/bench_report.h"
#include "cli_run.h"

#define MAX_WORDS 32

/* What nqueens --list-values CMD OPT prints, a word a line, into words; how many. */
static int list_values(const char *cmd, const char *opt, char words[][32])
{
    static cli_out o;
    int k = 0;

    cli_run(&o, (const char *[]){"--list-values", cmd, opt, NULL});
    cr_assert_eq(o.status, 0, "--list-values %s %s: exit %d (%s)", cmd, opt, o.status, o.err);
    cr_assert_str_eq(o.err, "", "--list-values %s %s writes no message", cmd, opt);
    for (char *line = strtok(o.out, "\n"); line; line = strtok(NULL, "\n")) {
        cr_assert_lt(k, MAX_WORDS);
        cr_assert_lt(strlen(line), 32);
        strcpy(words[k++], line);
    }
    return k;
}

/* "a, b or c", as the usage errors list the words. */
static void words_text(char words[][32], int k, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < k; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                i == 0       ? ""
                                : i + 1 == k ? " or "
                                             : ", ",
                                words[i]);
}

/* The help of cmd names each word at the start of a line of its own: "  word: ...". */
static void expect_help_lists(const char *cmd, char words[][32], int k)
{
    static cli_out o;
    char line[48];

    cli_run(&o, (const char *[]){cmd, "--help", NULL});
    cr_assert_eq(o.status, 0);
    for (int i = 0; i < k; i++) {
        snprintf(line, sizeof(line), " %.31s: ", words[i]);
        cr_expect(strstr(o.out, line), "%s --help has no line for format %s", cmd, words[i]);
    }
}

/* A bad value of option: a usage error whose line names every word. */
static void expect_refused(const char *const *args, char words[][32], int k)
{
    char want[512];
    const cli_out *o = cli_expect_usage_error(args);

    words_text(words, k, want, sizeof(want));
    cr_expect(strstr(o->err, want), "'%s' does not list %s", o->err, want);
}

Test(unit, list_values_of_list_formats)
{
    static const char *const want[] = {"columns", "board", "leetcode", "acwing", "luogu"};
    char words[MAX_WORDS][32], letter[MAX_WORDS][32];
    int k = list_values("list", "--format", words);

    cr_assert_eq(k, 5, "list --format: %d words", k);
    for (int i = 0; i < k; i++)
        cr_expect_str_eq(words[i], want[i]);
    cr_expect_eq(list_values("list", "-f", letter), k, "-f names the same option");
    expect_help_lists("list", words, k);
}

Test(unit, every_list_format_is_taken)
{
    char words[MAX_WORDS][32];
    int k = list_values("list", "--format", words);
    cli_out o;

    for (int i = 0; i < k; i++) {
        cli_run(&o, (const char *[]){"list", "6", "--format", words[i], NULL});
        cr_expect_eq(o.status, 0, "list 6 --format %s: exit %d (%s)", words[i], o.status, o.err);
        cr_expect_neq(o.out[0], '\0', "list 6 --format %s prints nothing", words[i]);
    }
    expect_refused((const char *[]){"list", "6", "--format", "nope", NULL}, words, k);
    expect_refused((const char *[]){"list", "6", "-f", "Columns", NULL}, words, k);
}

Test(unit, list_values_of_bench_formats)
{
    char words[MAX_WORDS][32], exports[MAX_WORDS][32];
    int k = list_values("bench", "--format", words);

    cr_assert_gt(k, 0);
    for (int i = 0; i < k; i++) {
        cr_expect_str_eq(words[i], bench_format_word(i, NULL));
        cr_expect_eq(bench_format_from_name(words[i]), i, "%s is row %d", words[i], i);
    }
    cr_expect_null(bench_format_word(k, NULL), "the table has %d rows", k);
    cr_assert_eq(list_values("bench", "--export", exports), k, "--export takes the formats");
    for (int i = 0; i < k; i++)
        cr_expect_str_eq(exports[i], words[i]);
    expect_help_lists("bench", words, k);
}

Test(unit, every_bench_format_is_taken)
{
    char words[MAX_WORDS][32], path[SCRATCH_PATH], exp[SCRATCH_PATH + 32];
    int k = list_values("bench", "--format", words);
    cli_out o;

    cr_assert_eq(scratch_name(path, sizeof(path), "report"), 0);
    for (int i = 0; i < k; i++) {
        snprintf(exp, sizeof(exp), "%.31s=%s", words[i], path);
        cli_run(&o, (const char *[]){"bench", "--n", "4", "--threads", "1", "--repeat", "1",
                                     "--warmup", "0", "--format", words[i], "--export", exp, NULL});
        cr_expect_eq(o.status, 0, "bench --format %s: exit %d (%s)", words[i], o.status, o.err);
        cr_expect_neq(o.out[0], '\0', "bench --format %s prints nothing", words[i]);
    }
    expect_refused((const char *[]){"bench", "--format", "nope", NULL}, words, k);
    expect_refused((const char *[]){"bench", "--export", "nope=x", NULL}, words, k);
}

/* The shared options' words are what this build has, from the library. */
Test(unit, list_values_of_engines_and_paths)
{
    char words[MAX_WORDS][32];
    int k = list_values("count", "--engine", words), j = 1;

    cr_assert_gt(k, 1);
    cr_expect_str_eq(words[0], "auto");
    for (int e = 0; strcmp(nq_engine_name(e), "unknown") != 0; e++)
        if (nq_engine_from_name(nq_engine_name(e)) == e) {
            cr_assert_lt(j, k, "engine %s is not listed", nq_engine_name(e));
            cr_expect_str_eq(words[j++], nq_engine_name(e));
        }
    cr_expect_eq(j, k, "count --engine lists %d words, the build has %d engines and auto", k, j);
    cr_expect_eq(list_values("bench", "--engine", words), k + 1);
    cr_expect_str_eq(words[k], "all", "bench --engine ends with all");
    k = list_values("verify", "--simd", words);
    j = 1;
    cr_expect_str_eq(words[0], "auto");
    for (int p = NQ_SIMD_SCALAR; p <= NQ_SIMD_AVX512; p++)
        if (nq_simd_built(p) && j < k)
            cr_expect_str_eq(words[j++], nq_simd_name(p));
    cr_expect_eq(j, k, "verify --simd: %d words", k);
    cr_expect_eq(list_values("count", "--prefix-rows", words), 0, "a number has no words");
}

Test(unit, list_values_refuses_what_is_no_option)
{
    static const char *const cases[] = {
        "--list-values",
        "--list-values list",
        "--list-values list --format extra",
        "--list-values lsit --format",
        "--list-values list --formats",
        "--list-values list --engine", /* list refuses --engine */
        "--list-values count -x",
    };
    cli_expect_usage_errors(cases);
}
