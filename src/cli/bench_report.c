/* Statistics and report writers for nqueens bench. Numbers that are not finite (a
 * speedup that was not measured) are written as JSON null (an empty CSV field), never as
 * NaN, so that every consumer's parser accepts the report. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_report.h"
#include "tools/args_help.h"
#include "tools/count_output.h"

/* What a run's times cover, as the reports say it. */
#define BENCH_TIMER                                                                                \
    "CLOCK_MONOTONIC from every worker pinned to the end of the count (nq_result.seconds); "       \
    "the setup before it (the pinning plan, starting and pinning the workers) apart as "           \
    "setup_seconds; CPU: getrusage user + system over the same span"

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double bench_u128_double(nq_u128 v)
{
    return (double)v.hi * 18446744073709551616.0 + (double)v.lo;
}

/* Sorts a copy of v[0..k-1] into s; the median of it. */
static double bench_sorted_median(const double *v, int k, double *s)
{
    memcpy(s, v, (size_t)k * sizeof(*s));
    qsort(s, (size_t)k, sizeof(*s), bench_cmp_double);
    return k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
}

static double bench_mean(const double *v, int k)
{
    double sum = 0;
    if (!v || k <= 0)
        return NAN;
    for (int i = 0; i < k; i++)
        sum += v[i];
    return sum / k;
}

/* The sample standard deviation, as hyperfine gives it; NAN for fewer than 2 values. */
static double bench_stddev(const double *v, int k, double mean)
{
    double ss = 0;
    if (k < 2)
        return NAN;
    for (int i = 0; i < k; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    return sqrt(ss / (k - 1));
}

void bench_stats(bench_result *r)
{
    double *s;
    int k = r->n_runs;

    r->min = r->median = r->max = r->sum = r->cpu_median = NAN;
    r->mean = r->stddev = r->cpu_mean = r->user_mean = r->system_mean = r->setup_median = NAN;
    r->solutions_per_second = NAN;
    if (k <= 0)
        return;
    s = malloc((size_t)k * sizeof(*s));
    if (!s)
        return;
    if (r->cpu_runs)
        r->cpu_median = bench_sorted_median(r->cpu_runs, k, s);
    if (r->setup_runs)
        r->setup_median = bench_sorted_median(r->setup_runs, k, s);
    r->cpu_mean = bench_mean(r->cpu_runs, k);
    r->user_mean = bench_mean(r->user_runs, k);
    r->system_mean = bench_mean(r->system_runs, k);
    r->mean = bench_mean(r->runs, k);
    r->stddev = bench_stddev(r->runs, k, r->mean);
    r->median = bench_sorted_median(r->runs, k, s);
    r->min = s[0];
    r->max = s[k - 1];
    r->sum = 0;
    for (int i = 0; i < k; i++)
        r->sum += s[i];
    free(s);
    if (r->median > 0)
        r->solutions_per_second = bench_u128_double(r->total) / r->median;
}

void bench_speedups(bench_report *rep)
{
    for (size_t i = 0; i < rep->n_results; i++) {
        bench_result *r = &rep->results[i];
        r->speedup = r->efficiency = NAN;
        for (size_t j = 0; j < rep->n_results; j++) {
            const bench_result *one = &rep->results[j];
            if (one->threads == 1 && one->engine == r->engine && one->n == r->n && r->median > 0) {
                r->speedup = one->median / r->median;
                r->efficiency = r->speedup / r->threads;
            }
        }
    }
}

/* A JSON number, or null when it is not finite. */
static void bench_json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

/* A member of a JSON object that holds a number (null when it is not finite). */
typedef struct bench_stat {
    const char *key;
    double v;
} bench_stat;

/* Members s[0..k): the first after sep (", ", or the start of a new line), the rest
 * after ", ". */
static void bench_json_nums(FILE *f, const char *sep, const bench_stat *s, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : sep, s[i].key);
        bench_json_num(f, s[i].v);
    }
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void bench_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* 0 (unknown) is written as null. */
static void bench_json_count(FILE *f, int v)
{
    if (v > 0)
        fprintf(f, "%d", v);
    else
        fputs("null", f);
}

/* A result's vector path, or NULL for an engine without them. */
static const char *bench_simd(const bench_result *r)
{
    return r->simd != NQ_SIMD_AUTO ? nq_simd_name(r->simd) : NULL;
}

/* The name a benchmark tracker keys its series by: each vector path a series of its own,
 * so that a machine that runs another path does not look like a regression. */
static void bench_name(const bench_result *r, char *buf, size_t size)
{
    const char *simd = bench_simd(r);
    snprintf(buf, size, "%s n=%d threads=%d%s%s", nq_engine_name(r->ran), r->n, r->threads,
             simd ? " simd=" : "", simd ? simd : "");
}

/* A run's figure at k, or NAN without the array (a result built by hand). */
static double bench_at(const double *v, int k)
{
    return v ? v[k] : NAN;
}

/* The unique count as a JSON value: null for an engine without symmetry classes. */
static void bench_json_unique(FILE *f, const bench_result *r)
{
    char unique[40];
    fputs(r->has_unique ? nq_u128_to_string(r->unique, unique, sizeof(unique)) : "null", f);
}

/* One member of the "context" object after the first: ",\n    "key": " and the value. */
static void bench_json_key(FILE *f, const char *key)
{
    fprintf(f, ",\n    \"%s\": ", key);
}

/* The machine and build the figures were taken on, and how: the "context" object,
 * without its closing brace. */
static void bench_json_context(FILE *f, const bench_context *c)
{
    const struct {
        const char *key;
        int value;
    } counts[] = {{"logical_cpus", c->topo.logical_cpus},
                  {"physical_cores", c->topo.physical_cores},
                  {"allowed_cpus", c->topo.allowed_cpus}};
    const struct {
        const char *key, *value;
    } build[] = {{"compiler", c->compiler},
                 {"flags", c->flags},
                 {"build_type", c->build_type},
                 {"git_revision", c->git_revision},
                 {"version", c->version}};

    fprintf(f, "{\n  \"schema\": %d,\n  \"context\": {\n    \"date\": ", NQ_JSON_SCHEMA);
    bench_json_str(f, c->date);
    bench_json_key(f, "host");
    bench_json_str(f, c->host);
    bench_json_key(f, "cpu_model");
    bench_json_str(f, c->topo.cpu_model);
    for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
        bench_json_key(f, counts[k].key);
        bench_json_count(f, counts[k].value);
    }
    bench_json_key(f, "allowed_cpu_list");
    bench_json_str(f, c->topo.allowed_list);
    bench_json_key(f, "numa_nodes");
    bench_json_count(f, c->topo.numa_nodes);
    for (size_t k = 0; k < sizeof(build) / sizeof(build[0]); k++) {
        bench_json_key(f, build[k].key);
        bench_json_str(f, build[k].value);
    }
    fprintf(f,
            ",\n    \"repeat\": %d,\n    \"warmup\": %d,\n    \"pinning\": %s,\n"
            "    \"timer\": \"%s\",\n"
            "    \"load_average\": [",
            c->repeat, c->warmup, c->pin ? "true" : "false", BENCH_TIMER);
    bench_json_num(f, c->load[0]);
    fputs(", ", f);
    bench_json_num(f, c->load[1]);
    fputs("],\n    \"interrupted\": ", f);
    if (c->interrupted)
        bench_json_str(f, c->interrupted);
    else
        fputs("null", f);
}

/* Each timed run of r: the "runs" array. */
static void bench_json_runs(FILE *f, const bench_result *r)
{
    fputs(",\n     \"runs\": [", f);
    for (int k = 0; k < r->n_runs; k++) {
        const bench_stat run[] = {{"seconds", r->runs[k]},
                                  {"cpu_seconds", bench_at(r->cpu_runs, k)},
                                  {"user_seconds", bench_at(r->user_runs, k)},
                                  {"system_seconds", bench_at(r->system_runs, k)},
                                  {"setup_seconds", bench_at(r->setup_runs, k)}};
        fputs(k ? ", {" : "{", f);
        bench_json_nums(f, "", run, COUNT(run));
        fputc('}', f);
    }
    fputc(']', f);
}

/* One result object of the "results" array; first: none before it. */
static void bench_json_result(FILE *f, const bench_result *r, int first)
{
    const bench_stat spread[] = {{"min_seconds", r->min},
                                 {"median_seconds", r->median},
                                 {"max_seconds", r->max},
                                 {"sum_seconds", r->sum},
                                 {"median_cpu_seconds", r->cpu_median}};
    const bench_stat means[] = {{"mean_seconds", r->mean},
                                {"stddev_seconds", r->stddev},
                                {"mean_cpu_seconds", r->cpu_mean},
                                {"median_setup_seconds", r->setup_median}};
    const bench_stat rates[] = {{"solutions_per_second", r->solutions_per_second},
                                {"speedup", r->speedup},
                                {"efficiency", r->efficiency}};
    char total[40];

    fprintf(f, "%s\n    {\"engine\": ", first ? "" : ",");
    bench_json_str(f, nq_engine_name(r->ran));
    fputs(", \"engine_asked\": ", f);
    bench_json_str(f, nq_engine_name(r->engine));
    fprintf(f, ", \"n\": %d, \"threads\": %d, \"simd\": ", r->n, r->threads);
    char worker[24];

    if (bench_simd(r))
        bench_json_str(f, bench_simd(r));
    else
        fputs("null", f);
    fprintf(f, ", \"worker_memory\": %s",
            count_output_worker_memory(r->worker_memory, worker, sizeof(worker)));
    bench_json_runs(f, r);
    bench_json_nums(f, ",\n     ", spread, COUNT(spread));
    bench_json_nums(f, ",\n     ", means, COUNT(means));
    fprintf(f, ",\n     \"total\": %s, \"unique\": ",
            nq_u128_to_string(r->total, total, sizeof(total)));
    bench_json_unique(f, r);
    fprintf(f, ", \"verified\": %s, \"verified_against\": \"%s\",\n",
            r->verified ? "true" : "false", r->against_oeis ? "oeis" : "first_run");
    bench_json_nums(f, "     ", rates, COUNT(rates));
    fprintf(f, ",\n     \"tasks\": %llu, \"prefix_rows\": %d, \"pinned_threads\": %d}", r->tasks,
            r->prefix_rows, r->pinned);
}

static void bench_write_json(const bench_report *rep, FILE *f)
{
    bench_json_context(f, &rep->ctx);
    fputs("\n  },\n  \"results\": [", f);
    for (size_t i = 0; i < rep->n_results; i++)
        bench_json_result(f, &rep->results[i], i == 0);
    fputs("\n  ]\n}\n", f);
}

/* A CSV number: empty when it is not finite. */
static void bench_csv_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
}

/* One row per measurement, its statistics; engine names need no quoting. */
static void bench_write_csv(const bench_report *rep, FILE *f)
{
    char total[40];

    /* columns past simd are newer: appended, so that a reader by position still works */
    fputs("engine,n,threads,runs,median_seconds,min_seconds,max_seconds,median_cpu_seconds,"
          "solutions_per_second,speedup,efficiency,total,verified,verified_against,tasks,"
          "prefix_rows,pinned_threads,simd,mean_seconds,stddev_seconds,mean_cpu_seconds,"
          "median_setup_seconds,unique,engine_asked,worker_memory\n",
          f);
    for (size_t i = 0; i < rep->n_results; i++) {
        const bench_result *r = &rep->results[i];
        const double nums[] = {
            r->median,  r->min,       r->max, r->cpu_median, r->solutions_per_second,
            r->speedup, r->efficiency};
        const double more[] = {r->mean, r->stddev, r->cpu_mean, r->setup_median};
        fprintf(f, "%s,%d,%d,%d", nq_engine_name(r->ran), r->n, r->threads, r->n_runs);
        for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
            fputc(',', f);
            bench_csv_num(f, nums[k]);
        }
        fprintf(f, ",%s,%s,%s,%llu,%d,%d,%s", nq_u128_to_string(r->total, total, sizeof(total)),
                r->verified ? "true" : "false", r->against_oeis ? "oeis" : "first_run", r->tasks,
                r->prefix_rows, r->pinned, bench_simd(r) ? bench_simd(r) : "");
        for (size_t k = 0; k < sizeof(more) / sizeof(more[0]); k++) {
            fputc(',', f);
            bench_csv_num(f, more[k]);
        }
        fprintf(f, ",%s,%s,",
                r->has_unique ? nq_u128_to_string(r->unique, total, sizeof(total)) : "",
                nq_engine_name(r->engine));
        if (r->worker_memory) /* empty for an engine without lists, as null in the JSON */
            fprintf(f, "%llu", (unsigned long long)r->worker_memory);
        fputc('\n', f);
    }
}

/* One aggregate of Google Benchmark's JSON for result i ("median", "mean", "stddev"),
 * named as its --benchmark_repetitions runs are: run_name plus "_" and the aggregate. */
static void bench_google_entry(FILE *f, const bench_result *r, size_t i, const char *agg,
                               double real, double cpu, int first)
{
    const char *simd = bench_simd(r);
    char run[96], name[112];

    snprintf(run, sizeof(run), "%s/%d/threads:%d%s%s", nq_engine_name(r->ran), r->n, r->threads,
             simd ? "/simd:" : "", simd ? simd : "");
    snprintf(name, sizeof(name), "%s_%s", run, agg);
    fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
    bench_json_str(f, name);
    fprintf(f, ", \"family_index\": %zu, \"per_family_instance_index\": 0, \"run_name\": ", i);
    bench_json_str(f, run);
    fprintf(f,
            ", \"run_type\": \"aggregate\", \"repetitions\": %d, \"threads\": %d, "
            "\"aggregate_name\": \"%s\", \"aggregate_unit\": \"time\", "
            "\"iterations\": %d, \"real_time\": ",
            r->n_runs, r->threads, agg, r->n_runs);
    bench_json_num(f, real * 1e3);
    fputs(", \"cpu_time\": ", f);
    bench_json_num(f, cpu * 1e3);
    fputs(", \"time_unit\": \"ms\"}", f);
}

/* Google Benchmark's JSON (--benchmark_format=json), which github-action-benchmark's
 * googlecpp tool and Google's compare.py read: one median aggregate per measurement,
 * times in milliseconds. */
static void bench_write_google(const bench_report *rep, FILE *f)
{
    const bench_context *c = &rep->ctx;

    fputs("{\n  \"context\": {\n    \"date\": ", f);
    bench_json_str(f, c->date);
    fputs(",\n    \"host_name\": ", f);
    bench_json_str(f, c->host);
    fputs(",\n    \"executable\": \"nqueens bench\",\n    \"num_cpus\": ", f);
    bench_json_count(f, c->topo.allowed_cpus);
    fputs(",\n    \"mhz_per_cpu\": 0,\n    \"cpu_scaling_enabled\": false,\n"
          "    \"caches\": [],\n    \"load_avg\": [",
          f);
    bench_json_num(f, c->load[0]);
    fputs(", ", f);
    bench_json_num(f, c->load[1]);
    fputs("],\n    \"library_build_type\": ", f);
    bench_json_str(f, c->build_type);
    fputs(",\n    \"library_version\": ", f);
    bench_json_str(f, c->version);
    fputs(",\n    \"git_revision\": ", f);
    bench_json_str(f, c->git_revision);
    fputs("\n  },\n  \"benchmarks\": [", f);
    for (size_t i = 0; i < rep->n_results; i++) {
        const bench_result *r = &rep->results[i];
        double cpu_sd = r->cpu_runs ? bench_stddev(r->cpu_runs, r->n_runs, r->cpu_mean) : NAN;
        bench_google_entry(f, r, i, "median", r->median, r->cpu_median, i == 0);
        bench_google_entry(f, r, i, "mean", r->mean, r->cpu_mean, 0);
        if (isfinite(r->stddev)) /* Google Benchmark too writes it from 2 repetitions on */
            bench_google_entry(f, r, i, "stddev", r->stddev, cpu_sd, 0);
    }
    fputs("\n  ]\n}\n", f);
}

/* The trackers' reports: one entry per result, keyed by bench_name, between open and
 * close; each entry is lead, the quoted name, then what entry writes. */
static void bench_write_named(const bench_report *rep, FILE *f, const char *open, const char *lead,
                              void (*entry)(const bench_result *r, FILE *f), const char *close)
{
    char name[96];

    fputs(open, f);
    for (size_t i = 0; i < rep->n_results; i++) {
        bench_name(&rep->results[i], name, sizeof(name));
        fprintf(f, "%s%s", i ? "," : "", lead);
        bench_json_str(f, name);
        entry(&rep->results[i], f);
    }
    fputs(close, f);
}

/* github-action-benchmark, tool customSmallerIsBetter: value is the median in seconds,
 * range the half-width of min..max. */
static void bench_github_entry(const bench_result *r, FILE *f)
{
    char extra[256];
    char sd[32] = "-";

    fputs(", \"unit\": \"s\", \"value\": ", f);
    bench_json_num(f, r->median);
    fprintf(f, ", \"range\": \"± %.6g\", \"extra\": ",
            isfinite(r->max - r->min) ? (r->max - r->min) / 2 : 0.0);
    if (isfinite(r->stddev))
        snprintf(sd, sizeof(sd), "%.6g", r->stddev);
    snprintf(extra, sizeof(extra),
             "median of %d runs; mean %.6g s, stddev %s s; min %.6g s, max %.6g s; %s", r->n_runs,
             r->mean, sd, r->min, r->max, r->verified ? "verified" : "VERIFICATION FAILED");
    bench_json_str(f, extra);
    fputs("}", f);
}

static void bench_write_github(const bench_report *rep, FILE *f)
{
    bench_write_named(rep, f, "[", "\n  {\"name\": ", bench_github_entry, "\n]\n");
}

/* Bencher Metric Format: the built-in latency measure is in nanoseconds. */
static void bench_bencher_entry(const bench_result *r, FILE *f)
{
    fputs(": {\"latency\": {\"value\": ", f);
    bench_json_num(f, r->median * 1e9);
    fputs(", \"lower_value\": ", f);
    bench_json_num(f, r->min * 1e9);
    fputs(", \"upper_value\": ", f);
    bench_json_num(f, r->max * 1e9);
    /* a measure of its own: Bencher keeps one value and its bounds per measure */
    fputs("}, \"latency-mean\": {\"value\": ", f);
    bench_json_num(f, r->mean * 1e9);
    if (isfinite(r->stddev)) {
        /* a time is never negative, whatever the spread of the runs */
        fputs(", \"lower_value\": ", f);
        bench_json_num(f, fmax(r->mean - r->stddev, 0.0) * 1e9);
        fputs(", \"upper_value\": ", f);
        bench_json_num(f, (r->mean + r->stddev) * 1e9);
    }
    fputs("}}", f);
}

static void bench_write_bencher(const bench_report *rep, FILE *f)
{
    bench_write_named(rep, f, "{", "\n  ", bench_bencher_entry, "\n}\n");
}

/* hyperfine's --export-json: per result the command that counts the same, its times in
 * seconds, and user and system as the means of the runs' CPU times. The times are the
 * library's (the count, the setup apart), not a whole process's as hyperfine's are. */
static void bench_write_hyperfine(const bench_report *rep, FILE *f)
{
    char cmd[160];

    fputs("{\n  \"results\": [", f);
    for (size_t i = 0; i < rep->n_results; i++) {
        const bench_result *r = &rep->results[i];
        const char *simd = bench_simd(r);
        snprintf(cmd, sizeof(cmd), "nqueens count %d --engine %s --threads %d%s%s%s", r->n,
                 nq_engine_name(r->ran), r->threads, simd ? " --simd " : "", simd ? simd : "",
                 rep->ctx.pin ? "" : " --no-pin");
        fprintf(f, "%s\n    {\"command\": ", i ? "," : "");
        bench_json_str(f, cmd);
        const bench_stat stats[] = {
            {"mean", r->mean},      {"stddev", r->stddev},      {"median", r->median},
            {"user", r->user_mean}, {"system", r->system_mean}, {"min", r->min},
            {"max", r->max}};
        bench_json_nums(f, ", ", stats, COUNT(stats));
        fputs(",\n     \"times\": [", f);
        for (int k = 0; k < r->n_runs; k++) {
            fputs(k ? ", " : "", f);
            bench_json_num(f, r->runs[k]);
        }
        fputs("],\n     \"exit_codes\": [", f);
        for (int k = 0; k < r->n_runs; k++)
            fputs(k ? ", 0" : "0", f);
        fprintf(
            f, "],\n     \"parameters\": {\"engine\": \"%s\", \"n\": \"%d\", \"threads\": \"%d\"}}",
            nq_engine_name(r->ran), r->n, r->threads);
    }
    fputs("\n  ]\n}\n", f);
}

static void bench_write_text(const bench_report *rep, FILE *f)
{
    const bench_context *c = &rep->ctx;

    fprintf(f, "nqueens %s (%s), %s, %s\n", c->version, c->git_revision, c->compiler, c->flags);
    fprintf(f, "%s: %s; %d logical CPUs", c->host, c->topo.cpu_model[0] ? c->topo.cpu_model : "?",
            c->topo.logical_cpus);
    if (c->topo.physical_cores)
        fprintf(f, ", %d cores", c->topo.physical_cores);
    fprintf(f, ", %d allowed (%s)", c->topo.allowed_cpus, c->topo.allowed_list);
    if (c->topo.numa_nodes)
        fprintf(f, ", %d NUMA node%s", c->topo.numa_nodes, c->topo.numa_nodes > 1 ? "s" : "");
    fprintf(f, "\n%s; %d warm-up + %d timed runs each, workers %s", c->date, c->warmup, c->repeat,
            c->pin ? "pinned" : "unpinned");
    if (isfinite(c->load[0]) && isfinite(c->load[1]))
        fprintf(f, "; load average %.2f at the start, %.2f at the end", c->load[0], c->load[1]);
    if (c->interrupted)
        fprintf(f, "\ninterrupted by %s: the rows measured until then", c->interrupted);
    fputs("\n\n", f);
    fprintf(f, "%-8s %-6s %3s %7s %11s %19s %23s %10s %12s %8s %6s  %s\n", "engine", "simd", "n",
            "threads", "median s", "mean s +- sd", "min - max s", "cpu s", "solutions/s", "speedup",
            "eff", "check");
    for (size_t i = 0; i < rep->n_results; i++) {
        const bench_result *r = &rep->results[i];
        char range[32], mean[40], speed[16], eff[16], cpu[16] = "-";
        snprintf(range, sizeof(range), "%.4f - %.4f", r->min, r->max);
        if (isfinite(r->stddev))
            snprintf(mean, sizeof(mean), "%.4f +- %.4f", r->mean, r->stddev);
        else
            snprintf(mean, sizeof(mean), "%.4f +- -", r->mean);
        if (isfinite(r->cpu_median))
            snprintf(cpu, sizeof(cpu), "%.4f", r->cpu_median);
        if (isfinite(r->speedup)) {
            snprintf(speed, sizeof(speed), "%.2fx", r->speedup);
            snprintf(eff, sizeof(eff), "%.0f%%", r->efficiency * 100);
        } else {
            snprintf(speed, sizeof(speed), "-");
            snprintf(eff, sizeof(eff), "-");
        }
        fprintf(f, "%-8s %-6s %3d %7d %11.4f %19s %23s %10s %12.4g %8s %6s  %s\n",
                nq_engine_name(r->ran), bench_simd(r) ? bench_simd(r) : "-", r->n, r->threads,
                r->median, mean, range, cpu, r->solutions_per_second, speed, eff,
                r->verified ? "PASS" : "FAIL");
    }
}

/* The report formats: a new one is a row here and its writer. */
typedef struct bench_format_row {
    args_word_row word; /* its name for --format and --export, and the help's line */
    void (*write)(const bench_report *rep, FILE *f);
} bench_format_row;

static const bench_format_row bench_formats[] = {
    [BENCH_TEXT] = {{"text", "a table to read"}, bench_write_text},
    [BENCH_JSON] = {{"json", "every run, and the machine (docs/json.md)"}, bench_write_json},
    [BENCH_CSV] = {{"csv", "a row per measurement"}, bench_write_csv},
    [BENCH_GOOGLE] = {{"google-benchmark", "Google Benchmark's JSON"}, bench_write_google},
    [BENCH_GITHUB] = {{"github", "github-action-benchmark's\ncustomSmallerIsBetter"},
                      bench_write_github},
    [BENCH_BENCHER] = {{"bencher", "Bencher's Metric Format"}, bench_write_bencher},
    [BENCH_HYPERFINE] = {{"hyperfine", "hyperfine's JSON export"}, bench_write_hyperfine},
};

#define N_FORMATS (sizeof(bench_formats) / sizeof(bench_formats[0]))

const char *bench_format_word(int i, const char **about)
{
    return args_row_word(bench_formats, sizeof(bench_formats[0]), N_FORMATS, i, about);
}

int bench_format_from_name(const char *name)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        if (strcmp(name, bench_formats[i].word.name) == 0)
            return (int)i;
    return -1;
}

const char *bench_format_names(void)
{
    static char names[160];
    return names[0] ? names : args_words_text(bench_format_word, names, sizeof(names));
}

int bench_write(const bench_report *rep, int format, FILE *f)
{
    assert(format >= 0 && (size_t)format < N_FORMATS);
    bench_formats[format].write(rep, f);
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
