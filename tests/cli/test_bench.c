/* nqueens bench: the LIST parser, the statistics, the report writers (checked strictly
 * by tests/bench_report_check.py) and the subcommand end to end, Ctrl-C included. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/bench_list.h"
#include "cli/bench_report.h"
#include "cli_run.h"
#include "oeis_data.h"

static int parse(const char *s, int cpus, int *out)
{
    char err[160] = "";
    int k = bench_list_parse(s, 1, 32, cpus, out, BENCH_LIST_MAX, err, sizeof(err));
    if (k < 0)
        cr_expect_neq(err[0], '\0', "'%s': an error needs a reason", s);
    return k;
}

static void expect_list(const char *s, int cpus, const int *want, int n_want)
{
    int out[BENCH_LIST_MAX];
    int k = parse(s, cpus, out);
    cr_assert_eq(k, n_want, "'%s' (cpus %d): %d values, want %d", s, cpus, k, n_want);
    for (int i = 0; i < k; i++)
        cr_expect_eq(out[i], want[i], "'%s' [%d] = %d, want %d", s, i, out[i], want[i]);
}

Test(unit, bench_list_numbers_and_ranges)
{
    expect_list("14,15,16", 0, (const int[]){14, 15, 16}, 3);
    expect_list("14-17", 0, (const int[]){14, 15, 16, 17}, 4);
    expect_list("16,14,14-15,9", 0, (const int[]){9, 14, 15, 16}, 4);
    expect_list("5-5", 0, (const int[]){5}, 1);
    expect_list("1-32", 0,
                (const int[]){1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                              17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32},
                32);
}

Test(unit, bench_list_thread_words)
{
    expect_list("powers", 16, (const int[]){1, 2, 4, 8, 16}, 5);
    expect_list("powers", 6, (const int[]){1, 2, 4, 6}, 4);
    expect_list("powers", 1, (const int[]){1}, 1);
    expect_list("max", 3, (const int[]){3}, 1);
    expect_list("powers,3,max", 2, (const int[]){1, 2, 3}, 3);
}

Test(unit, bench_list_rejects_bad_input)
{
    static const char *const bad[] = {
        "",
        ",",
        "14,",
        ",14",
        "14,,15",
        "14-",
        "-14",
        "17-14",
        "0",
        "33",
        "1-33",
        "x",
        "+5",
        " 5",
        "5 ",
        "5-6-7",
        "max",
        "powers",
        "0x10",
        "1.5",
        "14;15",
        "99999999999999999999",
        "123456789012345678901234567890123456789012345678901234567890123456789"};
    int out[BENCH_LIST_MAX];
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        cr_expect_eq(parse(bad[i], 0, out), -1, "'%s' must be rejected", bad[i]);
    cr_expect_eq(parse("maximum", 4, out), -1);
    cr_expect_eq(parse("power", 4, out), -1);
}

Test(unit, bench_list_caps_its_length)
{
    char err[160];
    int out[BENCH_LIST_MAX];
    cr_expect_eq(bench_list_parse("1-4096", 1, 4096, 0, out, BENCH_LIST_MAX, err, sizeof(err)), -1);
    cr_expect_eq(bench_list_parse("1-256", 1, 4096, 0, out, BENCH_LIST_MAX, err, sizeof(err)), 256);
    cr_expect_eq(
        bench_list_parse("1-200,300-400", 1, 4096, 0, out, BENCH_LIST_MAX, err, sizeof(err)), -1);
}

Test(unit, bench_stats_median_min_max)
{
    double odd[] = {3.0, 1.0, 2.0}, even[] = {4.0, 1.0, 3.0, 2.0};
    bench_result r = {.runs = odd, .n_runs = 3, .total = {92, 0}};
    bench_stats(&r);
    cr_expect_float_eq(r.median, 2.0, 1e-12);
    cr_expect_float_eq(r.min, 1.0, 1e-12);
    cr_expect_float_eq(r.max, 3.0, 1e-12);
    cr_expect_float_eq(r.sum, 6.0, 1e-12);
    cr_expect_float_eq(r.solutions_per_second, 46.0, 1e-9);
    cr_expect_float_eq(odd[0], 3.0, 0, "the runs keep their order");
    cr_expect(isnan(r.cpu_median), "no CPU times, no CPU median");
    /* the mean and the sample standard deviation, as hyperfine gives them */
    cr_expect_float_eq(r.mean, 2.0, 1e-12);
    cr_expect_float_eq(r.stddev, 1.0, 1e-12);
    r.runs = even;
    r.n_runs = 4;
    bench_stats(&r);
    cr_expect_float_eq(r.median, 2.5, 1e-12);
    cr_expect_float_eq(r.mean, 2.5, 1e-12);
    cr_expect_float_eq(r.stddev, sqrt(5.0 / 3.0), 1e-12);
    r.n_runs = 1;
    bench_stats(&r);
    cr_expect_float_eq(r.mean, 4.0, 1e-12);
    cr_expect(isnan(r.stddev), "no standard deviation of one run");
}

/* A report as the command builds it: n = 8 at 1, 2 and 4 threads plus n = 9 at 2
 * threads only (no 1-thread figure, so its speedup is unmeasured: null, not NaN). */
static double runs_buf[4][3] = {
    {0.40, 0.30, 0.35}, {0.20, 0.18, 0.19}, {0.11, 0.10, 0.12}, {0.5, 0.6, 0.7}};
static double cpu_buf[4][3] = {
    {0.40, 0.30, 0.35}, {0.39, 0.36, 0.38}, {0.44, 0.40, 0.48}, {1.0, 1.2, 1.4}};
static double system_buf[4][3], setup_buf[4][3] = {{0.01, 0.01, 0.01}};
static bench_result results[4];
static bench_report rep;

static void make_report(void)
{
    const int ns[] = {8, 8, 8, 9}, ts[] = {1, 2, 4, 2};
    memset(&rep, 0, sizeof(rep));
    strcpy(rep.ctx.date, "2024-01-01T00:00:00Z");
    strcpy(rep.ctx.host, "a \"quoted\" host\\with\ta tab");
    nq_topology_info(&rep.ctx.topo);
    rep.ctx.compiler = "cc 1.0";
    rep.ctx.flags = "-O3";
    rep.ctx.build_type = "release";
    rep.ctx.git_revision = "abc";
    rep.ctx.version = nq_version();
    rep.ctx.repeat = 3;
    rep.ctx.load[0] = 0.5;
    rep.ctx.load[1] = NAN;
    for (int i = 0; i < 4; i++) {
        results[i] = (bench_result){.engine = 0,
                                    .n = ns[i],
                                    .threads = ts[i],
                                    .runs = runs_buf[i],
                                    .cpu_runs = cpu_buf[i],
                                    .user_runs = cpu_buf[i],
                                    .system_runs = system_buf[i],
                                    .setup_runs = setup_buf[i],
                                    .n_runs = 3,
                                    .verified = 1,
                                    .against_oeis = 1};
        results[i].total.lo = oeis_value("A000170", ns[i]);
        bench_stats(&results[i]);
    }
    results[1].simd = NQ_SIMD_AVX2; /* a row of an engine with vector paths */
    rep.results = results;
    rep.n_results = 4;
    bench_speedups(&rep);
}

/* Write rep in format to a file and run the checker on it; returns its exit status. */
static int write_and_check(int format, const char *name)
{
    char path[SCRATCH_PATH], cmd[512];
    int fd = scratch_file(path, sizeof(path), "bench"), st;
    FILE *f;
    cr_assert(fd >= 0);
    f = fdopen(fd, "w");
    cr_assert_eq(bench_write(&rep, format, f), 0);
    fclose(f);
    snprintf(cmd, sizeof(cmd), "python3 '%s/bench_report_check.py' %s '%s' >/dev/null",
             NQ_TESTS_DIR, name, path);
    st = system(cmd);
    unlink(path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(unit, bench_speedups_and_efficiency)
{
    make_report();
    cr_expect_float_eq(results[2].cpu_median, 0.44, 1e-12);
    cr_expect_float_eq(results[0].speedup, 1.0, 1e-12);
    cr_expect_float_eq(results[1].speedup, 0.35 / 0.19, 1e-12);
    cr_expect_float_eq(results[2].efficiency, 0.35 / 0.11 / 4, 1e-12);
    cr_expect(isnan(results[3].speedup) && isnan(results[3].efficiency),
              "no 1-thread run for n=9: speedup not measured");
}

Test(unit, bench_writers_emit_valid_reports)
{
    make_report();
    cr_expect_eq(write_and_check(BENCH_JSON, "json"), 0);
    cr_expect_eq(write_and_check(BENCH_CSV, "csv"), 0);
    cr_expect_eq(write_and_check(BENCH_GOOGLE, "google-benchmark"), 0);
    cr_expect_eq(write_and_check(BENCH_GITHUB, "github"), 0);
    cr_expect_eq(write_and_check(BENCH_BENCHER, "bencher"), 0);
    cr_expect_eq(write_and_check(BENCH_HYPERFINE, "hyperfine"), 0);
}

/* Runs whose spread passes their mean (one slow run among fast ones): Bencher's lower
 * bound of the mean is still a time, never below 0 (issue 29). */
Test(unit, bench_bencher_bounds_are_times)
{
    runs_buf[3][0] = runs_buf[3][1] = 0.01;
    runs_buf[3][2] = 1.0;
    make_report();
    cr_assert_gt(results[3].stddev, results[3].mean);
    cr_expect_eq(write_and_check(BENCH_BENCHER, "bencher"), 0);
}

Test(unit, bench_text_table)
{
    char buf[8192] = "";
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
    make_report();
    results[2].verified = 0;
    cr_assert_eq(bench_write(&rep, BENCH_TEXT, f), 0);
    fclose(f);
    cr_expect(strstr(buf, "median s") && strstr(buf, "solutions/s") && strstr(buf, "speedup"));
    cr_expect(strstr(buf, "PASS") && strstr(buf, "FAIL"));
    cr_expect_null(strstr(buf, "nan"), "no NaN in the table:\n%s", buf);
    cr_expect_not_null(strstr(buf, " avx2 "), "the row's vector path:\n%s", buf);
}

Test(unit, bench_format_names)
{
    cr_expect_eq(bench_format_from_name("text"), BENCH_TEXT);
    cr_expect_eq(bench_format_from_name("json"), BENCH_JSON);
    cr_expect_eq(bench_format_from_name("github"), BENCH_GITHUB);
    cr_expect_eq(bench_format_from_name("bencher"), BENCH_BENCHER);
    cr_expect_eq(bench_format_from_name("csv"), BENCH_CSV);
    cr_expect_eq(bench_format_from_name("google-benchmark"), BENCH_GOOGLE);
    cr_expect_eq(bench_format_from_name("hyperfine"), BENCH_HYPERFINE);
    cr_expect_eq(bench_format_from_name("JSON"), -1);
}

static cli_out o;

Test(unit, bench_cli_runs_and_verifies)
{
    char path[SCRATCH_PATH], cmd[512], line[256];
    const char *const args[] = {"bench",    "--n",  "8-10",     "--threads", "1,2",
                                "--repeat", "2",    "--warmup", "0",         "--no-pin",
                                "--format", "json", "--out",    path,        NULL};
    int fd = scratch_file(path, sizeof(path), "bench-cli"), rows = 0;
    FILE *p;

    cr_assert(fd >= 0);
    close(fd);
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect(strstr(o.out, "PASS") != NULL, "the table goes to stdout with --out:\n%s", o.out);
    snprintf(cmd, sizeof(cmd), "python3 '%s/bench_report_check.py' json '%s'", NQ_TESTS_DIR, path);
    p = popen(cmd, "r");
    cr_assert_not_null(p);
    while (fgets(line, sizeof(line), p)) {
        char engine[32], verified[8], simd[16];
        int n, threads;
        unsigned long long total, unique;
        cr_assert_eq(sscanf(line, "%31s %d %d %llu %7s %15s %llu", engine, &n, &threads, &total,
                            verified, simd, &unique),
                     7, "checker line: %s", line);
        cr_expect_eq(total, oeis_value("A000170", n), "n=%d threads=%d", n, threads);
        cr_expect_eq(unique, oeis_value("A002562", n), "n=%d threads=%d", n, threads);
        cr_expect_str_eq(verified, "true");
        /* the default engine, auto, is named by the engine that ran, as count does */
        cr_expect_str_eq(engine, nq_engine_name(NQ_ENGINE_JOIN), "%s", line);
        rows++;
    }
    cr_expect_eq(pclose(p), 0, "the JSON report is not sound");
    cr_expect_eq(rows, 6);
    unlink(path);
}

Test(unit, bench_cli_bad_arguments_exit_2)
{
    const char *const cases[] = {
        "bench --n 0",
        "bench --n 17-14",
        "bench --threads 0",
        "bench --threads most",
        "bench --engine nope",
        "bench --repeat 0",
        "bench --warmup x",
        "bench --format xml",
        "bench --out",
        "bench --bogus",
        "bench stray",
        "bench --no-pin=1",
        "bench --prefix-rows 3",
        "bench --engine prefix,d4 --prefix-rows 3",
        "bench --devices x",
        "bench --engine prefix,nope",
        "bench --simd bogus",
        "bench --simd",
        "bench --export json",
        "bench --export =r.json",
        "bench --export json=",
        "bench --export xml=r.xml",
        "bench -e all,nope",
        /* auto counts n = 28 with d4, which has no vector paths (issue 29) */
        "bench -n 28 --simd scalar",
    };
    cli_expect_usage_errors(cases);
}

/* One --simd applies to every engine of the list: the join rows say the path they ran
 * (in every format), the rows of an engine without vector paths say none. */
Test(unit, bench_cli_simd_applies_to_every_engine)
{
    static const char *const formats[] = {"json", "csv"};
    for (int simd = NQ_SIMD_SCALAR; simd <= NQ_SIMD_AVX512; simd++) {
        if (!nq_simd_usable(simd))
            continue;
        for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
            char path[SCRATCH_PATH], cmd[512], line[256];
            const char *const args[] = {
                "bench", "-n",       "8",        "-t", "1",       "-r",     "1",
                "-w",    "0",        "--no-pin", "-e", "join,d4", "--simd", nq_simd_name(simd),
                "-f",    formats[i], "-o",       path, NULL};
            int fd = scratch_file(path, sizeof(path), "bench-simd"), rows = 0;
            FILE *p;

            cr_assert(fd >= 0);
            close(fd);
            cli_run(&o, args);
            cr_assert_eq(o.status, 0, "--simd %s: %s", nq_simd_name(simd), o.err);
            cr_expect_not_null(strstr(o.out, nq_simd_name(simd)), "the table names the path:\n%s",
                               o.out);
            snprintf(cmd, sizeof(cmd), "python3 '%s/bench_report_check.py' %s '%s'", NQ_TESTS_DIR,
                     formats[i], path);
            p = popen(cmd, "r");
            cr_assert_not_null(p);
            while (fgets(line, sizeof(line), p)) {
                char engine[32], path_ran[16];
                cr_assert_eq(sscanf(line, "%31s %*d %*d %*u %*s %15s", engine, path_ran), 2, "%s",
                             line);
                cr_expect_str_eq(path_ran, strcmp(engine, "join") == 0 ? nq_simd_name(simd) : "-",
                                 "%s --simd %s, %s", engine, nq_simd_name(simd), formats[i]);
                rows++;
            }
            cr_expect_eq(pclose(p), 0, "the %s report is not sound", formats[i]);
            cr_expect_eq(rows, 2);
            unlink(path);
        }
    }
}

/* 'all' in a list, as the completion offers it (-e d4,all): every engine but the GPU's,
 * each once, in the order given (issue 29). */
Test(unit, bench_cli_all_in_a_list)
{
    const char *const args[] = {"bench", "-n",       "6",  "-t",  "1",  "-r",     "1", "-w",
                                "0",     "--no-pin", "-f", "csv", "-e", "d4,all", NULL};
    const char *row = o.out;
    int rows = 0, d4_rows = 0;

    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    while ((row = strchr(row, '\n')) && *++row) {
        rows++;
        d4_rows += strncmp(row, "d4,", 3) == 0;
    }
    cr_expect_eq(strncmp(strchr(o.out, '\n') + 1, "d4,", 3), 0, "d4 first: %s", o.out);
    cr_expect_eq(d4_rows, 1, "d4 once: %s", o.out);
    cr_expect_geq(rows, 3, "d4 and the other engines: %s", o.out);
}

Test(unit, bench_cli_unwritable_out_fails)
{
    const char *const args[] = {
        "bench",    "--n", "6",        "--threads", "1",
        "--repeat", "1",   "--no-pin", "--out",     "/nonexistent/dir/report.json",
        NULL};
    cli_run(&o, args);
    cr_expect_eq(o.status, 1);
    cr_expect_eq(count_lines(o.err), 1, "stderr: %s", o.err);
}

/* --out is opened before the runs: an unwritable path ends a bench of minutes at once
 * (the bound is generous: this is about not measuring first, not about speed). */
Test(unit, bench_cli_unwritable_out_fails_before_the_runs)
{
    const char *const args[] = {
        "bench",    "--n", "20",       "--threads", "1",
        "--repeat", "1",   "--no-pin", "--out",     "/nonexistent/dir/report.json",
        NULL};
    pid_t pid = cli_start(args, -1, -1);
    int st = -1, ended = 0;

    for (int i = 0; i < 3000 && !ended; i++) {
        ended = waitpid(pid, &st, WNOHANG) == pid;
        if (!ended)
            usleep(10000);
    }
    if (!ended) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        cr_assert_fail("bench ran its measurements before opening --out");
    }
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1);
}

/* --out where standard output goes too (bench -o r.json >>r.json) would hold two
 * reports written over each other: refused before anything is written (issue 22). */
Test(unit, bench_cli_out_on_stdout_is_refused)
{
    char path[SCRATCH_PATH], err_path[SCRATCH_PATH];
    const char *const args[] = {"bench",    "--n", "6",        "--threads", "1",  "--repeat", "1",
                                "--warmup", "0",   "--no-pin", "--out",     path, NULL};
    int fo = scratch_file(path, sizeof(path), "bench-out"),
        fe = scratch_file(err_path, sizeof(err_path), "bench-err"), st;

    cr_assert(fo >= 0 && fe >= 0);
    cr_assert_eq(write(fo, "kept\n", 5), 5);
    st = cli_spawn(args, fo, fe);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fe, o.err, sizeof(o.err));
    lseek(fo, 0, SEEK_SET);
    cli_slurp(fo, o.out, sizeof(o.out));
    cr_expect_eq(st, 2, "exit %d, stderr: %s", st, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "are the same file"), "%s", o.err);
    cr_expect_str_eq(o.out, "kept\n", "the file is untouched");
    close(fo);
    close(fe);
    unlink(path);
    unlink(err_path);
}

/* --out naming a symbolic link would replace its target: refused, target kept. */
Test(unit, bench_cli_out_through_a_link_is_refused)
{
    char target[SCRATCH_PATH], lnk[SCRATCH_PATH_LONGER];
    const char *const args[] = {"bench",    "--n", "6",        "--threads", "1", "--repeat", "1",
                                "--warmup", "0",   "--no-pin", "--out",     lnk, NULL};
    int fd = scratch_file(target, sizeof(target), "bench-target");
    struct stat st;

    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, "kept", 4), 4);
    close(fd);
    snprintf(lnk, sizeof(lnk), "%s.link", target);
    cr_assert_eq(symlink(target, lnk), 0);
    cli_run(&o, args);
    cr_expect_eq(o.status, 1, "exit %d, stderr: %s", o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "symbolic link"), "%s", o.err);
    cr_expect(stat(target, &st) == 0 && st.st_size == 4, "the target is untouched");
    unlink(lnk);
    unlink(target);
}

/* Every format through the command, and an option bench shares with count:
 * --prefix-rows with an engine that has them. */
Test(unit, bench_cli_every_format)
{
    static const char *const formats[] = {"json",   "csv",     "google-benchmark",
                                          "github", "bencher", "hyperfine"};
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        char path[SCRATCH_PATH], cmd[512];
        const char *const args[] = {
            "bench", "-n",       "7,8", "-t",     "1,2",           "-r", "2",  "-w",
            "0",     "--no-pin", "-e",  "prefix", "--prefix-rows", "2",  "-f", formats[i],
            "-o",    path,       NULL};
        int fd = scratch_file(path, sizeof(path), "bench-fmt");
        cr_assert(fd >= 0);
        close(fd);
        cli_run(&o, args);
        cr_expect_eq(o.status, 0, "--format %s: %s", formats[i], o.err);
        snprintf(cmd, sizeof(cmd), "python3 '%s/bench_report_check.py' %s '%s' >/dev/null",
                 NQ_TESTS_DIR, formats[i], path);
        cr_expect_eq(system(cmd), 0, "--format %s: the report is not sound", formats[i]);
        unlink(path);
    }
}

/* Several reports from one run, as hyperfine's --export-json and --export-markdown:
 * --out in --format plus each --export, every one sound, the text table on stdout; the
 * hyperfine export is read by bench/hyperfine-summary.py. Two exports to one file are
 * refused before the runs. */
Test(unit, bench_cli_several_exports)
{
    static const char *const formats[] = {"github", "json", "hyperfine", "csv"};
    char paths[4][SCRATCH_PATH], exports[3][SCRATCH_PATH + 16], cmd[2048];
    const char *const args[] = {
        "bench",    "-n",       "7,8",      "-t",       "1,2",      "-r",       "2",
        "-w",       "0",        "--no-pin", "-f",       formats[0], "-o",       paths[0],
        "--export", exports[0], "--export", exports[1], "--export", exports[2], NULL};
    const char *const twice[] = {"bench",    "-n",       "6",        "-t", "1",
                                 "-r",       "1",        "-w",       "0",  "--export",
                                 exports[0], "--export", exports[0], NULL};

    for (int i = 0; i < 4; i++) {
        int fd;
        fd = scratch_file(paths[i], sizeof(paths[i]), "bench-exp");
        cr_assert(fd >= 0);
        close(fd);
        if (i)
            snprintf(exports[i - 1], sizeof(exports[i - 1]), "%s=%s", formats[i], paths[i]);
    }
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_not_null(strstr(o.out, "mean s +- sd"), "the text table on stdout:\n%s", o.out);
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof(cmd), "python3 '%s/bench_report_check.py' %s '%s' >/dev/null",
                 NQ_TESTS_DIR, formats[i], paths[i]);
        cr_expect_eq(system(cmd), 0, "%s: the report is not sound", formats[i]);
    }
    snprintf(cmd, sizeof(cmd), "python3 '%s/../bench/hyperfine-summary.py' '%s' >/dev/null",
             NQ_TESTS_DIR, paths[2]);
    cr_expect_eq(system(cmd), 0, "hyperfine-summary.py cannot read the export");
    /* the same runs in two formats: bench-compare matches every row, and they agree */
    snprintf(cmd, sizeof(cmd),
             "python3 '%s/../scripts/bench-compare' '%s' '%s' | grep -q '4 compared, 0 failed'",
             NQ_TESTS_DIR, paths[1], paths[2]);
    cr_expect_eq(system(cmd), 0, "bench-compare cannot match the json and hyperfine reports");
    cli_run(&o, twice);
    cr_expect_eq(o.status, 2, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "are the same file"), "%s", o.err);
    for (int i = 0; i < 4; i++)
        unlink(paths[i]);
}

/* CPU seconds of process pid so far (utime + stime from /proc), or -1. */
static double proc_cpu(pid_t pid)
{
    char path[64], buf[1024], *p;
    unsigned long long ut, st;
    FILE *f;
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    f = fopen(path, "r");
    if (!f)
        return -1;
    p = fgets(buf, sizeof(buf), f);
    fclose(f);
    if (!p || !(p = strrchr(buf, ')')) ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* A bench the estimate says takes hours warns before it starts; Ctrl-C in its middle
 * still writes the rows measured by then, to --out and to stdout, and exits 130. The
 * signal is sent once the run has used half a CPU second: n = 8 and 9 take a few
 * milliseconds, so by then only n = 21 is left running (in small tasks, seven rows
 * deep, so that the stop comes at once). */
Test(unit, bench_cli_ctrl_c_writes_what_was_measured)
{
    char path[SCRATCH_PATH], out_path[SCRATCH_PATH], err_path[SCRATCH_PATH], cmd[512], line[256];
    const char *const args[] = {"bench",    "--n",   "8,9,21",   "--threads", "1",
                                "--repeat", "1",     "-w",       "0",         "--no-pin",
                                "-f",       "json",  "--engine", "prefix",    "--prefix-rows",
                                "7",        "--out", path,       NULL};
    int fd = scratch_file(path, sizeof(path), "bench-int"),
        fo = scratch_file(out_path, sizeof(out_path), "bench-out"),
        fe = scratch_file(err_path, sizeof(err_path), "bench-err"), rows = 0;
    pid_t pid;
    FILE *p;

    cr_assert(fd >= 0 && fo >= 0 && fe >= 0);
    close(fd);
    pid = cli_start(args, fo, fe);
    while (proc_cpu(pid) < 0.5) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        cr_assert_geq(proc_cpu(pid), 0, "bench ended before the signal");
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGINT);
    cr_expect_eq(cli_wait(pid), 130);
    lseek(fo, 0, SEEK_SET);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fo, o.out, sizeof(o.out));
    cli_slurp(fe, o.err, sizeof(o.err));
    cr_expect_not_null(strstr(o.err, "warning: this may take"), "%s", o.err);
    cr_expect_not_null(strstr(o.err, "interrupted by SIGINT"), "%s", o.err);
    cr_expect_not_null(strstr(o.out, "interrupted by SIGINT"), "the table says so: %s", o.out);
    cr_expect_eq(count_lines(o.out), 8, "the header and two rows: %s", o.out);
    snprintf(cmd, sizeof(cmd), "python3 '%s/bench_report_check.py' json '%s'", NQ_TESTS_DIR, path);
    p = popen(cmd, "r");
    cr_assert_not_null(p);
    while (fgets(line, sizeof(line), p)) {
        int n;
        unsigned long long total;
        cr_assert_eq(sscanf(line, "%*s %d %*d %llu", &n, &total), 2, "%s", line);
        cr_expect_eq(total, oeis_value("A000170", n));
        cr_expect_eq(n, 8 + rows++);
    }
    cr_expect_eq(pclose(p), 0, "the JSON report is not sound");
    cr_expect_eq(rows, 2);
    close(fo);
    close(fe);
    unlink(path);
    unlink(out_path);
    unlink(err_path);
}
