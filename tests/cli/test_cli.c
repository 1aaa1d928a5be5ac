/* The nqueens tool as a person uses it: exit codes, one-line errors, output format,
 * the option conventions (short options, prefixes, help and version everywhere), lost
 * output, and the JSON vocabulary of count and verify. */
#define _XOPEN_SOURCE 700 /* posix_openpt */
#include <criterion/criterion.h>
#include <errno.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_run.h"
#include "oeis_data.h"
#include "tools/args_messages.h"
#include "tools/count_output.h"

static cli_out o;

Test(unit, cli_bad_arguments_exit_2)
{
    const char *const cases[] = {
        "",
        "frobnicate",
        "count",
        "count 0",
        "count 33",
        "count -4",
        "count 8x",
        "count ' 8'",
        "count 99999999999999999999999",
        "count 8 9",
        "count 8 --threads",
        "count 8 --threads 0x2",
        "count 8 --threads=-1",
        "count 8 --engine nope",
        "count 8 --prefix-rows 0",
        "count 8 --prefix-rows 3 --engine d4",
        "count 8 --bogus",
        "count 8 --json=yes",
        "count 8 --threads 0",
        "count 8 -t 0",
        "count 8 -t",
        "count 8 -x",
        "count 8 --progress json",
        "count 8 --p 3",
        "count 8 --thraeds 2",
        "count 8 --max-memory 0",
        "count 8 --max-memory 12X",
        "count 8 --max-memory -1G",
        "bench -n 8 --max-memory lots",
        "count 8 --worker-memory 1M",
        "count 8 --worker-memory 17G",
        "count 8 --worker-memory none",
        "estimate 8 --worker-memory 0",
        "bench -n 8 --worker-memory",
        "verify --threads 0",
        "verify 5 8 --checkpoint x",
        "--version extra",
        "-V count",
        "--help count",
        "help frobnicate",
        "help count list",
        "cuont 8",
        "--threads 2",
        "verify 0",
        "verify 5 28",
        "verify 9 3",
        "verify 1 2 3",
        "count 28 --engine join",
        "count 8 --engine join --prefix-rows 3",
        "verify 26 28 --engine join",
        "bench --n 28 --engine join",
        "count 8 --simd bogus",
        "count 8 --simd ''",
        "count 8 --simd AVX2",
        "count 8 --simd",
        "verify 5 6 --simd=sse",
    };
    cli_expect_usage_errors(cases);
}

/* The tables of bad command lines mean the words they show: cli_split reads a line as
 * the shell does, cut at spaces, with single quotes that keep an empty word or a space. */
Test(unit, cli_split_reads_as_the_shell)
{
    static const struct {
        const char *line;
        const char *words[5];
    } cases[] = {
        {"", {NULL}},
        {"  count   8 ", {"count", "8", NULL}},
        {"count ' 8'", {"count", " 8", NULL}},
        {"count 8 --simd ''", {"count", "8", "--simd", "", NULL}},
        {"a'b c'd e", {"ab cd", "e", NULL}},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cli_argv a;
        const char *const *got = cli_split(&a, cases[i].line);
        size_t k = 0;
        for (; cases[i].words[k]; k++) {
            cr_assert_not_null(got[k], "[%s]: no word %zu", cases[i].line, k);
            cr_expect_str_eq(got[k], cases[i].words[k], "[%s]: word %zu", cases[i].line, k);
        }
        cr_expect_null(got[k], "[%s]: more than %zu words", cases[i].line, k);
    }
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

/* The JSON that o holds has the published total of n. */
static void expect_json_total(int n)
{
    char want[64];
    snprintf(want, sizeof(want), "\"total\": %llu,", (unsigned long long)oeis_value("A000170", n));
    cr_expect_not_null(strstr(o.out, want), "%s", o.out);
}

Test(unit, cli_count_json)
{
    const char *const args[] = {"count",           "11", "--json", "--no-pin", "--prefix-rows=3",
                                "--engine=prefix", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_eq(count_lines(o.out), 1);
    expect_json_total(11);
    cr_expect_not_null(strstr(o.out, "\"n\": 11,"), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"verified\": true"), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"engine\": \"prefix\""), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"prefix_rows\": 3,"), "%s", o.out);
    cr_expect_str_eq(o.err, "", "--no-pin: no warning");
}

/* auto is the default and names the engine it ran: join up to its limit, d4 past it. */
Test(unit, cli_default_engine_is_auto)
{
    const char *const args[] = {"count", "13", "--json", "--no-pin", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    expect_json_total(13);
    cr_expect_not_null(strstr(o.out, "\"engine\": \"join\""), "%s", o.out);
    cr_expect_eq(nq_engine_max_n(NQ_ENGINE_JOIN) < NQ_MAX_N, 1);
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

/* FROM alone runs to the default end (16) below it and is checked alone past it, and the
 * help says so (issue 29): "verify 14" is 14..16, "verify 17" only 17. */
Test(unit, cli_verify_from_alone)
{
    const char *const below[] = {"verify", "14", NULL};
    const char *const past[] = {"verify", "17", NULL};
    const char *const help[] = {"verify", "--help", NULL};
    cli_run(&o, below);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_not_null(strstr(o.out, "PASS n=14 "), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "PASS n=16 "), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "verify: 3 passed, 0 failed"), "%s", o.out);
    cli_run(&o, past);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_not_null(strstr(o.out, "PASS n=17 "), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "verify: 1 passed, 0 failed"), "%s", o.out);
    cli_run(&o, help);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_not_null(strstr(o.out, "'verify 10' checks 10..16, 'verify 20' checks only 20."),
                       "%s", o.out);
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
    cli_expect_usage_error(bad);
    cli_expect_usage_error(flag);
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
    char want[96];
    const char *const args[] = {"verify", "5", "8", "--no-pin", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    snprintf(want, sizeof(want), "PASS n=8  total %-18llu unique %-17llu ",
             (unsigned long long)oeis_value("A000170", 8),
             (unsigned long long)oeis_value("A002562", 8));
    cr_expect_not_null(strstr(o.out, want), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "verify: 4 passed, 0 failed"), "%s", o.out);
}

/* Every line of s is at most 80 columns; the widest, for the message. */
static size_t widest_line(const char *s)
{
    size_t w = 0;
    for (const char *l = s; *l;) {
        size_t k = strcspn(l, "\n");
        w = k > w ? k : w;
        l += k + (l[k] == '\n');
    }
    return w;
}

/* A verify line for the widest numbers the tables hold (n = 27), passing and failing:
 * 80 columns at most, the FAIL one with the expected numbers under the found ones. */
Test(unit, cli_verify_lines_fit_80_columns)
{
    char buf[1024];
    nq_result r = {0};
    FILE *f;

    nq_known_total(27, &r.total);
    nq_known_unique(27, &r.unique);
    r.has_unique = 1;
    r.seconds = 987654.321;
    f = fmemopen(buf, sizeof(buf), "w");
    count_output_verify_line(f, 27, &r);
    r.total.lo += 1;
    count_output_verify_line(f, 27, &r);
    fclose(f);
    cr_expect_leq(widest_line(buf), 80, "%s", buf);
    cr_expect_eq(count_lines(buf), 3, "PASS, FAIL and the expected line:\n%s", buf);
    cr_expect(strncmp(buf, "PASS n=27 ", 10) == 0, "%s", buf);
    cr_expect_not_null(strstr(buf, "\nFAIL n=27 total 234907967154122529 "), "%s", buf);
    cr_expect_not_null(strstr(buf, "\n expected total 234907967154122528 unique "), "%s", buf);
}

/* One JSON object per n, count's vocabulary plus the expected numbers; no summary. */
Test(unit, cli_verify_json)
{
    const char *const args[] = {"verify", "4", "7", "--json", "--no-pin", NULL};
    const char *line = o.out;
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_eq(count_lines(o.out), 4, "%s", o.out);
    for (int n = 4; n <= 7; n++) {
        char want[160];
        snprintf(want, sizeof(want),
                 "{\"schema\": 2, \"n\": %d, \"total\": %llu, \"unique\": %llu, ", n,
                 (unsigned long long)oeis_value("A000170", n),
                 (unsigned long long)oeis_value("A002562", n));
        cr_expect(strncmp(line, want, strlen(want)) == 0, "want %s in %s", want, line);
        cr_expect_not_null(strstr(line, "\"verified\": true"), "%s", line);
        snprintf(want, sizeof(want), "\"expected_total\": %llu, \"expected_unique\": %llu}",
                 (unsigned long long)oeis_value("A000170", n),
                 (unsigned long long)oeis_value("A002562", n));
        cr_expect_not_null(strstr(line, want), "%s", line);
        line = strchr(line, '\n') + 1;
    }
}

/* The names README "JSON output" documents, in count's object. */
Test(unit, cli_count_json_vocabulary)
{
    static const char *const names[] = {
        "\"schema\": 2,",       "\"n\": 10,",          "\"total\": ",
        "\"unique\": ",         "\"engine\": ",        "\"threads\": 2,",
        "\"pinned_threads\": ", "\"tasks\": ",         "\"prefix_rows\": ",
        "\"seconds\": ",        "\"cpu_seconds\": ",   "\"solutions_per_second\": ",
        "\"verified\": true",   "\"simd\": ",          "\"setup_seconds\": ",
        "\"reused_tasks\": 0,", "\"reused_total\": 0,"};
    const char *const args[] = {"count", "10", "-j", "-t", "2", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        cr_expect_not_null(strstr(o.out, names[i]), "%s not in %s", names[i], o.out);
    cr_expect_null(strstr(o.out, "\"pinned\":"), "%s", o.out);
}

/* --simd picks the join's vector path and the JSON says which ran: each one this CPU
 * runs, auto's pick without the option, none for an engine without vector paths. */
Test(unit, cli_json_says_the_vector_path)
{
    char want[64];
    for (int p = NQ_SIMD_AUTO; p <= NQ_SIMD_AVX512; p++) {
        const char *const args[] = {"count",         "10", "--json", "--no-pin", "--simd",
                                    nq_simd_name(p), NULL};
        if (!nq_simd_usable(p))
            continue;
        cli_run(&o, args);
        cr_assert_eq(o.status, 0, "--simd %s: %s", nq_simd_name(p), o.err);
        snprintf(want, sizeof(want), "\"simd\": \"%s\",",
                 nq_simd_name(p == NQ_SIMD_AUTO ? nq_simd_auto() : p));
        cr_expect_not_null(strstr(o.out, want), "--simd %s: want %s in %s", nq_simd_name(p), want,
                           o.out);
        cr_expect_not_null(strstr(o.out, "\"verified\": true"), "%s", o.out);
    }
    {
        const char *const args[] = {"count", "10", "-j", "--no-pin", "-e", "d4", NULL};
        cli_run(&o, args);
        cr_assert_eq(o.status, 0, "%s", o.err);
        cr_expect_not_null(strstr(o.out, "\"simd\": null,"), "d4 has no vector paths: %s", o.out);
    }
    {
        const char *const args[] = {"verify", "7", "8", "-j", "--simd=scalar", NULL};
        cli_run(&o, args);
        cr_assert_eq(o.status, 0, "%s", o.err);
        cr_expect_eq(count_lines(o.out), 2, "%s", o.out);
        cr_expect_not_null(strstr(strchr(o.out, '\n'), "\"simd\": \"scalar\""), "%s", o.out);
    }
}

/* A path this CPU lacks (or the build does not carry) is a usage error of one line that
 * says why; where the CPU runs every path there is nothing to refuse. */
Test(unit, cli_simd_the_cpu_lacks_is_refused)
{
    int refused = 0;
    for (int p = NQ_SIMD_SCALAR; p <= NQ_SIMD_AVX512; p++) {
        const char *const args[] = {"count", "8", "--simd", nq_simd_name(p), NULL};
        if (nq_simd_usable(p))
            continue;
        const cli_out *u = cli_expect_usage_error(args);
        cr_expect_not_null(strstr(u->err, nq_simd_built(p) ? "this CPU lacks it" : "not built"),
                           "%s", u->err);
        refused++;
    }
    if (!refused)
        cr_skip_test("this CPU runs every vector path the build has");
}

/* getopt_long conventions: short options, attached values, unique prefixes, options
 * before or after N, "--" before N. */
Test(unit, cli_option_spellings)
{
    const char *const cases[][7] = {
        {"count", "9", "-t", "2", NULL},
        {"count", "9", "-t2", NULL},
        {"count", "-t", "2", "9", NULL},
        {"count", "9", "--thr", "2", NULL},
        {"count", "9", "--threads=2", "--engine=prefix", NULL},
        {"count", "9", "-e", "prefix", "--no-pi", NULL},
        {"count", "--", "9", NULL},
        {"count", "9", "-t", "max", NULL},
    };
    char want[32];
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", 9));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cli_run(&o, cases[i]);
        cr_expect_eq(o.status, 0, "case %zu: exit %d, stderr: %s", i, o.status, o.err);
        cr_expect_str_eq(o.out, want, "case %zu", i);
    }
}

/* The one-line messages say what was meant: a near miss, an ambiguous prefix, the '='
 * that --progress needs, every engine name. */
Test(unit, cli_messages_help_the_user)
{
    static const struct {
        const char *args[6];
        const char *says;
    } cases[] = {
        {{"count", "8", "--thraeds", "2", NULL}, "did you mean --threads?"},
        {{"count", "8", "--jsno", NULL}, "did you mean --json?"},
        {{"count", "8", "--p", "3", NULL}, "ambiguous option '--p': --prefix-rows, --progress"},
        {{"count", "8", "--progress", "json", NULL}, "write --progress=json"},
        {{"count", "8", "--engine", "nope", NULL}, "expected one of auto, prefix, d4, cuda"},
        {{"list", "6", "--engine", "cuda", NULL}, "list has one engine"},
        {{"count", "8", "--threads", "0", NULL}, "expected 1..4096, or 'max'"},
        {{"cuont", "8", NULL}, "did you mean count?"},
        {{"--version", "extra", NULL}, "--version takes no arguments"},
        {{"count", "8", "--simd", "bogus", NULL}, "expected auto, avx512, avx2 or scalar"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const cli_out *u = cli_expect_usage_error(cases[i].args);
        cr_expect_not_null(strstr(u->err, cases[i].says), "want '%s' in: %s", cases[i].says,
                           u->err);
    }
}

/* help CMD, CMD --help, CMD -h and help from any position are the same text, listing
 * only what the command takes, in 80 columns; --version works in every command. */
Test(unit, cli_help_everywhere)
{
    static const char *const cmds[] = {"count", "verify", "list", "bench"};
    char version[1024];
    const char *const v[] = {"--version", NULL};
    cli_run(&o, v);
    cr_assert_eq(o.status, 0);
    strcpy(version, o.out);
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        char help[8192];
        const char *const a[] = {cmds[i], "--help", NULL};
        const char *const b[] = {"help", cmds[i], NULL};
        const char *const c[] = {cmds[i], "-t", "2", "-h", NULL};
        const char *const d[] = {cmds[i], "--version", NULL};
        cli_run(&o, a);
        cr_assert_eq(o.status, 0, "%s --help: %s", cmds[i], o.err);
        strcpy(help, o.out);
        cr_expect_leq(widest_line(help), 80, "%s --help is wider than 80 columns", cmds[i]);
        cli_run(&o, b);
        cr_expect_str_eq(o.out, help, "help %s", cmds[i]);
        cli_run(&o, c);
        cr_expect_str_eq(o.out, help, "%s -t 2 -h", cmds[i]);
        cli_run(&o, d);
        cr_expect_eq(o.status, 0);
        cr_expect_str_eq(o.out, version, "%s --version", cmds[i]);
    }
    {
        const char *const l[] = {"list", "--help", NULL};
        cli_run(&o, l);
        cr_expect_null(strstr(o.out, "--engine"), "list takes no --engine:\n%s", o.out);
        cr_expect_null(strstr(o.out, "--devices"), "%s", o.out);
        cr_expect_null(strstr(o.out, "--checkpoint"), "%s", o.out);
        cr_expect_not_null(strstr(o.out, "--unique"), "%s", o.out);
    }
}

/* --version names the release, the git revision and the optional parts. */
Test(unit, cli_version_says_what_is_built)
{
    char first[64];
    const char *const v[] = {"-V", NULL};
    cli_run(&o, v);
    cr_assert_eq(o.status, 0);
    snprintf(first, sizeof(first), "nqueens %d.%d.%d\n", NQ_VERSION_MAJOR, NQ_VERSION_MINOR,
             NQ_VERSION_PATCH);
    cr_expect(strncmp(o.out, first, strlen(first)) == 0, "%s", o.out);
    first[strlen(first) - 1] = '\0';
    cr_expect_str_eq(nq_version(), first + strlen("nqueens "), "the header and the library agree");
    cr_expect_not_null(strstr(o.out, "\ngit revision "), "%s", o.out);
    cr_expect_null(strstr(o.out, "git revision unknown"), "%s", o.out);
    cr_expect(strstr(o.out, "hwloc yes") || strstr(o.out, "hwloc no"), "%s", o.out);
    cr_expect(strstr(o.out, ", cuda ") && strstr(o.out, ", mpi "), "%s", o.out);
}

/* --version lists the join's vector paths built in, narrowest first, and the one auto
 * takes on this CPU. */
Test(unit, cli_version_lists_the_vector_paths)
{
    char want[128];
    size_t len = (size_t)snprintf(want, sizeof(want), "\njoin vector paths: ");
    const char *const v[] = {"--version", NULL};

    for (int p = NQ_SIMD_SCALAR; p <= NQ_SIMD_AVX512; p++)
        if (nq_simd_built(p))
            len += (size_t)snprintf(want + len, sizeof(want) - len, "%s%s",
                                    p > NQ_SIMD_SCALAR ? ", " : "", nq_simd_name(p));
    snprintf(want + len, sizeof(want) - len, " (auto here: %s)\n", nq_simd_name(nq_simd_auto()));
    cli_run(&o, v);
    cr_assert_eq(o.status, 0);
    cr_expect_not_null(strstr(o.out, want), "want '%s' in:\n%s", want + 1, o.out);
}

/* A build without hwloc pins nothing and says nothing about it; with hwloc, pinning on
 * this machine works. Either way a plain count prints the total alone. */
Test(unit, cli_no_pinning_chatter)
{
    const char *const args[] = {"count", "10", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0);
    cr_expect_str_eq(o.err, "", "a plain count says nothing on stderr");
}

/* Run the tool with stdout on fd (-1: closed); the exit status, stderr in o.err. */
static int run_stdout_on(const char *const *args, int fd)
{
    char err_path[SCRATCH_PATH];
    const char *argv[16];
    int fe = scratch_file(err_path, sizeof(err_path), "cli-err"), st, i = 0;
    posix_spawn_file_actions_t fa;
    pid_t pid;

    argv[i++] = NQ_CLI_PATH;
    for (; args[i - 1]; i++)
        argv[i] = args[i - 1];
    argv[i] = NULL;
    posix_spawn_file_actions_init(&fa);
    if (fd >= 0)
        posix_spawn_file_actions_adddup2(&fa, fd, 1);
    else
        posix_spawn_file_actions_addclose(&fa, 1);
    posix_spawn_file_actions_adddup2(&fa, fe, 2);
    cr_assert_eq(posix_spawn(&pid, NQ_CLI_PATH, &fa, NULL, (char *const *)argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fe, o.err, sizeof(o.err));
    close(fe);
    unlink(err_path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Output that cannot be written (a full disk, a closed stdout) is exit 1 with one line,
 * whatever the command; never a silent 0. */
Test(unit, cli_lost_output_fails)
{
    const char *const cases[][6] = {
        {"verify", "1", "5", NULL},
        {"--help", NULL},
        {"--version", NULL},
        {"count", "--help", NULL},
        {"count", "8", NULL},
        {"count", "8", "--json", NULL},
        {"list", "6", NULL},
        {"list", "--help", NULL},
        {"help", "bench", NULL},
        {"verify", "4", "5", "--json", NULL},
        {"bench", "-n", "6", "-r", "1", NULL},
        {"estimate", "8", "-s", "0.1", NULL},
        {"estimate", "--help", NULL},
    };
    int full = open("/dev/full", O_WRONLY);
    cr_assert(full >= 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int st = run_stdout_on(cases[i], full);
        cr_expect_eq(st, 1, "%s %s > /dev/full: exit %d", cases[i][0],
                     cases[i][1] ? cases[i][1] : "", st);
        cr_expect_eq(count_lines(o.err), 1, "%s > /dev/full: %s", cases[i][0], o.err);
        /* the command's name first, as in its other messages (issue 29) */
        if (cases[i][0][0] != '-') {
            const char *cmd = strcmp(cases[i][0], "help") == 0 ? cases[i][1] : cases[i][0];
            char want[64];
            snprintf(want, sizeof(want), "nqueens %s: ", cmd);
            cr_expect_eq(strncmp(o.err, want, strlen(want)), 0, "%s > /dev/full: %s", cases[i][0],
                         o.err);
        }
        /* the message names the cause (issue 22) */
        cr_expect_not_null(strstr(o.err, "No space left on device"), "%s > /dev/full: %s",
                           cases[i][0], o.err);
        st = run_stdout_on(cases[i], -1);
        cr_expect_eq(st, 1, "%s %s >&-: exit %d", cases[i][0], cases[i][1] ? cases[i][1] : "", st);
        cr_expect_eq(count_lines(o.err), 1, "%s >&-: %s", cases[i][0], o.err);
    }
    close(full);
}

/* Control bytes from the command line reach the terminal escaped, never raw. */
Test(unit, cli_control_bytes_are_escaped)
{
    const char *const cases[][5] = {
        {"count", "8", "--checkpoint", "/nonexistent/\033[31mred\a", NULL},
        {"count", "8", "--\033[2Jclear", NULL},
        {"count", "\033]0;title\a", NULL},
        {"count", "8", "--engine", "d4\r\n", NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cli_run(&o, cases[i]);
        cr_expect_neq(o.status, 0, "case %zu", i);
        cr_expect_eq(count_lines(o.err), 1, "case %zu: one line: %s", i, o.err);
        for (const char *p = o.err; *p; p++)
            cr_expect(*p == '\n' || (unsigned char)*p >= 0x20, "case %zu: raw byte 0x%02x in %s", i,
                      (unsigned char)*p, o.err);
        cr_expect_not_null(strstr(o.err, "\\x1b") ? o.err : strstr(o.err, "\\x0d"), "case %zu: %s",
                           i, o.err);
    }
}

/* The notes of a resumed journal name its path escaped too. */
Test(unit, cli_journal_notes_escape_the_path)
{
    char dir[SCRATCH_PATH], path[SCRATCH_PATH_LONGER];
    const char *const args[] = {"count", "10", "--checkpoint", path, NULL};
    cr_assert_not_null(scratch_mkdir(dir, sizeof(dir), "cli"));
    snprintf(path, sizeof(path), "%s/\033[31mj", dir);
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "resuming from "), "%s", o.err);
    cr_expect_not_null(strstr(o.err, "/\\x1b[31mj"), "%s", o.err);
    cr_expect_null(strchr(o.err, '\033'), "%s", o.err);
    unlink(path);
    rmdir(dir);
}

/* A run under a second draws no bar, even when asked for one. The run's own time says
 * whether it was one (on a loaded machine even count 8 can take longer). */
/* The bar waits a second from before the count's setup, so that the whole command is
 * what must be quick: under a heavy load a start of 4 s drew it (and rightly). */
Test(unit, cli_progress_bar_not_for_short_runs)
{
    const char *const args[] = {"count", "8", "--progress", "--json", NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cli_run(&o, args);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert_not_null(strstr(o.out, "\"seconds\": "), "%s", o.out);
    if ((double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9 < 0.9)
        cr_expect_str_eq(o.err, "", "count 8 is over before a bar would be worth it");
}

/* The bar on a 40-column terminal (a pty): every redraw fits in 39 columns, so nothing
 * wraps; with TERM=dumb there are no escape codes, with a real TERM the line is erased
 * with one. The run is stopped with SIGINT after a few redraws. */
static void bar_on_pty(const char *term, char *got, size_t size)
{
    const char *const args[] = {"count",         "17", "--engine", "prefix",     "--threads", "1",
                                "--prefix-rows", "4",  "--no-pin", "--progress", NULL};
    struct winsize ws = {24, 40, 0, 0};
    int master = posix_openpt(O_RDWR | O_NOCTTY), slave, draws = 0;
    size_t len = 0;
    pid_t pid;

    cr_assert(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0);
    slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    cr_assert(slave >= 0);
    cr_assert_eq(ioctl(slave, TIOCSWINSZ, &ws), 0);
    setenv("TERM", term, 1);
    pid = cli_start(args, -1, slave);
    close(slave);
    for (;;) {
        ssize_t k = read(master, got + len, size - 1 - len);
        if (k <= 0)
            break; /* EIO: the tool has closed the terminal */
        for (ssize_t i = 0; i < k; i++)
            draws += got[len + i] == '\r';
        len += (size_t)k;
        if (draws == 3)
            kill(pid, SIGINT);
    }
    got[len] = '\0';
    cr_expect_eq(cli_wait(pid), 130);
    close(master);
}

/* How many fields a redraw (escape codes gone) has after its bar, each one whole; -1
 * when the bar or a field is cut. */
static int whole_fields(const char *line, size_t len)
{
    static const char *const field =
        "^([0-9]+\\.[0-9]%|ETA (\\?|[0-9:dhm]+)|elapsed [0-9:dhm]+|[0-9.]+[kMGTP]? sol/s|"
        "[0-9]+/[0-9]+ tasks|[0-9]+ solutions)$";
    char buf[256], *f = buf, *sep;
    regex_t re;
    int n = 0;

    if (len >= sizeof(buf) || len == 0)
        return len == 0 ? 0 : -1;
    memcpy(buf, line, len);
    buf[len] = '\0';
    if (buf[0] == '[') { /* the bar: '#' and '.' */
        char *end = strchr(buf, ']');
        if (!end || end[1] != ' ' || strspn(buf + 1, "#.") != (size_t)(end - buf - 1))
            return -1;
        f = end + 2;
    }
    cr_assert_eq(regcomp(&re, field, REG_EXTENDED | REG_NOSUB), 0);
    for (;; f = sep + 2) { /* the fields are two spaces apart; a cut one matches none */
        sep = strstr(f, "  ");
        if (sep)
            *sep = '\0';
        if (regexec(&re, f, 0, NULL, 0) != 0) {
            n = -1;
            break;
        }
        n++;
        if (!sep)
            break;
    }
    regfree(&re);
    return n;
}

Test(unit, cli_progress_bar_fits_the_terminal)
{
    static char got[65536];
    static const char *const terms[] = {"dumb", "xterm"};
    for (int t = 0; t < 2; t++) {
        const char *msg;
        bar_on_pty(terms[t], got, sizeof(got));
        cr_expect_not_null(strstr(got, "ETA"), "%s", got);
        cr_expect_not_null(strstr(got, "] "), "a bar: %s", got);
        for (const char *p = got; *p;) {
            size_t k = strcspn(p, "\r\n");
            const char *esc = memchr(p, '\033', k);
            size_t skip = esc == p ? strlen("\033[K") : 0, width = k - skip;
            const char *in = strstr(p, "interrupted");
            if (!in || (size_t)(in - p) > k) {
                cr_expect_leq(width, 39, "TERM=%s: a redraw of %zu columns: %.*s", terms[t], width,
                              (int)k, p);
                if (strspn(p + skip, " ") < width) /* not the padding that erases */
                    cr_expect_gt(whole_fields(p + skip, width), 0, "TERM=%s: a field cut: '%.*s'",
                                 terms[t], (int)width, p + skip);
            }
            cr_expect(t == 1 || !esc, "TERM=dumb: an escape code in %.*s", (int)k, p);
            p += k + (p[k] != '\0');
        }
        cr_expect(t == 0 || strstr(got, "\033[K"), "TERM=xterm erases the line: %s", got);
        /* the bar is gone before the message: it starts a clean line, not under a bar */
        msg = strstr(got, "nqueens count: interrupted");
        cr_assert_not_null(msg, "%s", got);
        cr_expect(t == 0 ? msg > got && msg[-1] == '\r'
                         : msg - got >= 4 && strncmp(msg - 4, "\r\033[K", 4) == 0,
                  "TERM=%s: the bar stays above the message: %s", terms[t], got);
        cr_expect_null(memchr(got, '\n', (size_t)(msg - got)), "a bar line was ended: %s", got);
    }
}

/* --progress=bar into a file (or a pipe) writes plain lines, one a second: every field,
 * no carriage return and no escape code; the last one says where the run ended. */
Test(unit, cli_progress_bar_into_a_file_is_plain_lines)
{
    const char *const args[] = {"count", "17",       "--engine",       "d4", "--threads",
                                "1",     "--no-pin", "--progress=bar", NULL};
    char err_path[SCRATCH_PATH];
    int fe = scratch_file(err_path, sizeof(err_path), "bar-err"), st;
    pid_t pid;

    cr_assert(fe >= 0);
    setenv("TERM", "xterm", 1);
    pid = cli_start(args, -1, fe);
    for (int i = 0; i < 1000; i++) { /* the first line, after a second */
        struct stat sb;
        if (fstat(fe, &sb) == 0 && sb.st_size > 0)
            break;
        usleep(10000);
    }
    usleep(1200000); /* and a second one */
    kill(pid, SIGINT);
    st = cli_wait(pid);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fe, o.err, sizeof(o.err));
    close(fe);
    unlink(err_path);
    cr_expect(st == 130 || st == 0, "exit %d: %s", st, o.err);
    cr_expect_null(strchr(o.err, '\r'), "a carriage return in a file: %s", o.err);
    cr_expect_null(strchr(o.err, '\033'), "an escape code in a file: %s", o.err);
    cr_expect_geq(count_lines(o.err), 2, "%s", o.err);
    for (const char *p = o.err; *p;) {
        size_t k = strcspn(p, "\n");
        if (strncmp(p, "nqueens count: ", 15) != 0) {
            cr_expect_eq(whole_fields(p, k), 6, "not a progress line of every field: '%.*s'",
                         (int)k, p);
        }
        p += k + (p[k] != '\0');
    }
}

/* count --help names the subtotals file's columns as the file has them (issue 29). */
Test(unit, cli_help_names_the_subtotals_columns)
{
    const char *const args[] = {"count", "--help", NULL};
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_not_null(strstr(o.out, "task,subtotal,weight,weighted"), "%s", o.out);
}

/* --subtotals - is standard output: the CSV alone goes there, the result (plain or JSON)
 * to standard error, and no file named '-' appears. */
Test(unit, cli_subtotals_dash_is_stdout)
{
    char dir[SCRATCH_PATH], want[32];
    const char *const plain[] = {"count", "9", "--subtotals", "-", NULL};
    const char *const json[] = {"count", "9", "--subtotals", "-", "--json", NULL};
    unsigned long long sum = 0, task, sub, weight, weighted;

    cr_assert_not_null(scratch_mkdir(dir, sizeof(dir), "dash"));
    cr_assert_eq(chdir(dir), 0); /* each test runs in its own process */
    cli_run(&o, plain);
    cr_assert_eq(o.status, 0, "%s", o.err);
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", 9));
    cr_expect_str_eq(o.err, want, "the result on stderr");
    cr_assert_eq(strncmp(o.out, "task,subtotal,weight,weighted\n", 30), 0, "%s", o.out);
    for (const char *p = strchr(o.out, '\n') + 1; *p; p = strchr(p, '\n') + 1) {
        cr_assert_eq(sscanf(p, "%llu,%llu,%llu,%llu", &task, &sub, &weight, &weighted), 4,
                     "not a CSV row: %.40s", p);
        sum += weighted;
    }
    cr_expect_eq(sum, oeis_value("A000170", 9), "the weighted column adds up to the total");
    cr_expect_neq(access("-", F_OK), 0, "a file named '-' was made");
    cli_run(&o, json);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_eq(o.err[0], '{', "the JSON object on stderr: %s", o.err);
    cr_expect_eq(strncmp(o.out, "task,", 5), 0, "only the CSV on stdout: %.60s", o.out);
    cr_expect_null(strchr(o.out, '{'), "only the CSV on stdout");
    cr_expect_neq(access("-", F_OK), 0, "a file named '-' was made");
    rmdir(dir);
}

/* The edges of the command line: help help, -ju, --ver and -v at the top and in a
 * command, and options that do not apply to the engine. */
Test(unit, cli_command_line_edges)
{
    static const struct {
        const char *args[8];
        const char *says;
    } errors[] = {
        {{"count", "12", "-ju", NULL}, "--json and --unique"},
        {{"count", "12", "-u", "--json", NULL}, "--json and --unique"},
        {{"-v", NULL}, "did you mean -V (--version)?"},
        {{"-H", NULL}, "did you mean -h (--help)?"},
        {{"--vresion", NULL}, "did you mean --version?"},
        {{"--ver=1", NULL}, "--version takes no value"},
        {{"--threads", "2", NULL}, "a command comes first"},
        {{"count", "8", "-v", NULL}, "did you mean -V (--version)?"},
        {{"count", "8", "--devices", "0", NULL}, "--devices does not apply to --engine auto"},
        {{"count", "8", "-e", "d4", "--devices", "all", NULL}, "--devices does not apply"},
        {{"count", "8", "-e", "join", "--devices", "0", NULL}, "--devices does not apply"},
        {{"verify", "4", "6", "--devices", "0", NULL}, "--devices does not apply"},
        {{"bench", "-n", "8", "-e", "prefix", "--devices", "0", NULL}, "--devices does not apply"},
        {{"count", "8", "-e", "d4", "--simd", "scalar", NULL},
         "--simd does not apply to --engine d4"},
        {{"verify", "4", "6", "-e", "prefix", "--simd", "scalar", NULL}, "--simd does not apply"},
        {{"bench", "-n", "8", "-e", "d4,prefix", "--simd", "scalar", NULL},
         "--simd does not apply"},
        /* the engine that runs, auto's pick included, decides --simd (issue 29) */
        {{"count", "28", "--simd", "scalar", NULL}, "auto counts it with d4"},
        {{"count", "28", "--simd", "scalar", "--checkpoint", "never-made.nqj", NULL},
         "auto counts it with d4"},
        {{"estimate", "28", "--simd", "scalar", NULL}, "auto counts it with d4"},
        {{"count", "8", "-e", "d4", "--worker-memory", "256M", NULL},
         "--worker-memory does not apply to --engine d4"},
        {{"count", "28", "--worker-memory", "256M", NULL}, "auto counts it with d4"},
        {{"verify", "4", "6", "-e", "prefix", "--worker-memory", "64M", NULL},
         "--worker-memory does not apply"},
        {{"help", "--hlep", NULL}, "did you mean --help?"},
    };
    static const char *const version[][2] = {{"--ver", NULL}, {"--v", NULL}, {"-V", NULL}};
    static const char *const help[][3] = {{"help", "help", NULL},
                                          {"--he", NULL},
                                          {"help", NULL},
                                          {"help", "--help", NULL},
                                          {"help", "-h", NULL}};

    for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
        const cli_out *u = cli_expect_usage_error(errors[i].args);
        cr_expect_not_null(strstr(u->err, errors[i].says), "want '%s' in: %s", errors[i].says,
                           u->err);
    }
    for (size_t i = 0; i < sizeof(version) / sizeof(version[0]); i++) {
        cli_run(&o, version[i]);
        cr_expect_eq(o.status, 0, "%s: %s", version[i][0], o.err);
        cr_expect_eq(strncmp(o.out, "nqueens ", 8), 0, "%s: %s", version[i][0], o.out);
    }
    for (size_t i = 0; i < sizeof(help) / sizeof(help[0]); i++) {
        cli_run(&o, help[i]);
        cr_expect_eq(o.status, 0, "%s %s: %s", help[i][0], help[i][1] ? help[i][1] : "", o.err);
        cr_expect_not_null(strstr(o.out, "usage: nqueens <command>"), "%s", o.out);
    }
}

/* A path in a command to paste is one shell word that names the same file, whatever its
 * bytes, and it passes the messages' escaping unchanged (no \xHH that would mean
 * another name). */
Test(unit, cli_shell_word_pastes_as_the_same_name)
{
    static const char *const names[] = {
        "plain.nqj",     "",
        "two words",     "it's",
        "a\nb",          "tab\there",
        "back\\slash\n", "\033[31mred",
        "\xff\xfe",      "caf\xc3\xa9 $HOME `x` \"q\"",
        "quote'\nand\\",
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char got[256], *word = args_shell_word(names[i]);
        cr_assert_not_null(word);
        for (const unsigned char *p = (const unsigned char *)word; *p; p++)
            cr_expect(*p >= 0x20 && *p != 0x7f, "name %zu: raw byte 0x%02x in %s", i, *p, word);
        cr_expect_eq(cli_shell_reads(word, got, sizeof(got)), strlen(names[i]), "name %zu: %s", i,
                     word);
        cr_expect_str_eq(got, names[i], "name %zu: %s", i, word);
        free(word);
    }
}

/* A message with a path of 5,000 characters keeps its reason: the path loses its middle
 * to "...", the line stays short. */
Test(unit, cli_long_path_keeps_the_reason)
{
    static char path[6000];
    const char *const args[] = {"count", "8", "--subtotals", path, NULL};
    const char *const cp[] = {"count", "8", "--checkpoint", path, NULL};
    size_t len = (size_t)snprintf(path, sizeof(path), "/nonexistent/");

    for (; len < 5000; len++)
        path[len] = (char)('a' + len % 26);
    strcpy(path + len, "/end.csv");
    cli_run(&o, args);
    cr_expect_eq(o.status, 1, "%s", o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_lt(strlen(o.err), 400, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "--subtotals /nonexistent/nop"), "the start of the path: %s",
                       o.err);
    cr_expect_not_null(strstr(o.err, "..."), "%s", o.err);
    cr_expect_not_null(strstr(o.err, "/end.csv: File name too long\n"), "the reason: %s", o.err);
    cli_run(&o, cp);
    cr_expect_eq(o.status, 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "/end.csv"), "%s", o.err);
    cr_expect_eq(o.err[strlen(o.err) - 1], '\n', "%s", o.err);
    cr_expect_lt(strlen(o.err), 600, "%s", o.err);
}

/* A count that needs more memory than allowed is refused at once, one line that says
 * how much it needs, exit 1, and nothing made: not killed hours in. */
Test(unit, cli_count_past_max_memory_is_refused)
{
    const char *const args[] = {"count", "22", "--threads", "2", "--max-memory", "64M", NULL};
    const char *const fits[] = {"count", "12", "--max-memory", "1G", NULL};
    const char *const none[] = {"count", "12", "--max-memory", "none", "--json", NULL};

    cli_run(&o, args);
    cr_expect_eq(o.status, 1, "exit %d: %s", o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "the join engine needs about"), "%s", o.err);
    cr_expect_not_null(strstr(o.err, "more than the 64.0 MiB allowed"), "%s", o.err);
    cr_expect_str_eq(o.out, "", "no count");
    cli_run(&o, fits);
    cr_expect_eq(o.status, 0, "%s", o.err);
    cr_expect_eq(strtoull(o.out, NULL, 10), oeis_value("A000170", 12), "%s", o.out);
    cli_run(&o, none);
    cr_expect_eq(o.status, 0, "%s", o.err);
}

/* --worker-memory sizes each join worker: 256 workers at n = 25 need 48 GiB more with
 * 256 MiB each than with the default, and the refusal says how much and names the
 * option; a count with it is OEIS's and its JSON says the bytes (null for d4). */
Test(unit, cli_worker_memory_counts_in_the_estimate)
{
    const char *const more[] = {"count",           "25",   "--threads", "256", "--max-memory", "1M",
                                "--worker-memory", "256M", NULL};
    const char *const base[] = {"count", "25", "--threads", "256", "--max-memory", "1M", NULL};
    const char *const counts[] = {"count", "13", "--worker-memory", "4M", "--json", NULL};
    const char *const d4[] = {"count", "13", "--engine", "d4", "--json", NULL};
    double gib_more, gib_base;

    cli_run(&o, more);
    cr_expect_eq(o.status, 1, "exit %d: %s", o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "--worker-memory each worker's share"), "%s", o.err);
    cr_assert_eq(sscanf(strstr(o.err, "about "), "about %lf GiB", &gib_more), 1, "%s", o.err);
    cli_run(&o, base);
    cr_expect_null(strstr(o.err, "--worker-memory"), "%s", o.err);
    cr_assert_eq(sscanf(strstr(o.err, "about "), "about %lf GiB", &gib_base), 1, "%s", o.err);
    cr_expect(gib_more - gib_base > 47.9 && gib_more - gib_base < 48.1, "%.1f against %.1f GiB",
              gib_more, gib_base);
    char total[64];
    snprintf(total, sizeof(total), "\"total\": %llu,",
             (unsigned long long)oeis_value("A000170", 13));
    cli_run(&o, counts);
    cr_expect_eq(o.status, 0, "%s", o.err);
    cr_expect_not_null(strstr(o.out, total), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"verified\": true"), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"worker_memory\": 4194304,"), "%s", o.out);
    cli_run(&o, d4);
    cr_expect_eq(o.status, 0, "%s", o.err);
    cr_expect_not_null(strstr(o.out, "\"worker_memory\": null,"), "%s", o.out);
}

/* --task-times writes one row per task that ran, in id order, each with the cost model's
 * prediction (nq_task_costs) and a CPU time, after the serial setup; a resumed count
 * lists only the tasks it ran. */
static uint64_t check_task_times(const char *path, const nq_settings *s, double *pred,
                                 uint64_t tasks)
{
    FILE *f = fopen(path, "r");
    char line[256];
    uint64_t rows = 0, last = 0;
    double setup = -1;

    cr_assert_not_null(f, "%s", path);
    while (fgets(line, sizeof(line), f)) {
        unsigned long long id;
        double p, cpu;
        if (sscanf(line, "# setup_seconds %lf", &setup) == 1 || line[0] == '#' ||
            strncmp(line, "task,", 5) == 0)
            continue;
        cr_assert_eq(sscanf(line, "%llu,%lf,%lf", &id, &p, &cpu), 3, "%s", line);
        cr_expect(id < tasks && (rows == 0 || id > last), "n=%d: id %llu after %llu", s->n, id,
                  (unsigned long long)last);
        cr_expect(cpu >= 0 && cpu < 60, "task %llu: %g s", id, cpu);
        if (id < tasks) /* written with 9 digits */
            cr_expect((p > pred[id] ? p - pred[id] : pred[id] - p) <= 1e-8 * pred[id],
                      "task %llu: predicted %g, the model %g", id, p, pred[id]);
        last = id;
        rows++;
    }
    fclose(f);
    cr_expect_geq(setup, 0, "a setup_seconds line");
    return rows;
}

Test(unit, count_task_times_lists_every_task_run)
{
    char path[SCRATCH_PATH], journal[SCRATCH_PATH];
    const char *const all[] = {"count", "12",       "--engine",     "join", "--threads",
                               "3",     "--no-pin", "--task-times", path,   NULL};
    const char *const resumed[] = {"count",        "12",    "--engine",     "join", "--no-pin",
                                   "--checkpoint", journal, "--task-times", path,   NULL};
    nq_settings s;
    uint64_t tasks;
    double *pred;

    cr_assert_eq(scratch_name(path, sizeof(path), "task-times"), 0);
    cr_assert_eq(scratch_name(journal, sizeof(journal), "task-times-journal"), 0);
    nq_default_settings(&s);
    s.n = 12;
    s.engine = NQ_ENGINE_JOIN;
    cr_assert_eq(nq_task_count(&s, &tasks), NQ_OK);
    pred = malloc(tasks * sizeof(*pred));
    cr_assert_eq(nq_task_costs(&s, pred, tasks), NQ_OK);
    cli_run(&o, all);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_eq(check_task_times(path, &s, pred, tasks), tasks, "every task once");
    /* a journal that holds every task: the resumed count runs none */
    cli_run(&o, resumed);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cli_run(&o, resumed);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_eq(check_task_times(path, &s, pred, tasks), 0, "a resumed count ran no task");
    free(pred);
}
