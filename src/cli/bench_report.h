/* The results of nqueens bench and the writers for its report formats: a text table,
 * JSON, CSV, Google Benchmark's JSON, github-action-benchmark's customSmallerIsBetter
 * array, Bencher's BMF and hyperfine's --export-json. */
#ifndef NQ_CLI_BENCH_REPORT_H
#define NQ_CLI_BENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "nqueens/nqueens.h"
#include "tools/args_parser.h"

/* The rows of the table of formats (bench_report.c) that code names; a new format is
 * a row there and its writer. */
enum bench_format {
    BENCH_TEXT,
    BENCH_JSON,
    BENCH_CSV,
    BENCH_GOOGLE,
    BENCH_GITHUB,
    BENCH_BENCHER,
    BENCH_HYPERFINE,
};

typedef struct bench_context {
    char date[32]; /* ISO 8601, UTC */
    char host[128];
    nq_topology topo;
    const char *compiler, *flags, *build_type, *git_revision, *version;
    int repeat, warmup, pin;
    double load[2];          /* 1-minute load average at the start and the end; NAN if unknown */
    const char *interrupted; /* the signal that cut the run short ("SIGINT"), or NULL */
} bench_context;

/* One (engine, n, threads) measurement: n_runs timed runs so far (at most the repeat
 * count), wall and CPU seconds of each; the statistics and the speedup are filled by
 * bench_stats and bench_speedups. A run's times are the library's (nq_result): from
 * the moment every worker is pinned to the count's end, the setup before it apart. */
typedef struct bench_result {
    int engine; /* as asked (auto too): results group by it */
    int ran;    /* the engine the first timed run ran (nq_result.engine) */
    int n, threads;
    int simd;               /* enum nq_simd the first timed run ran; 0: an engine without them */
    uint64_t worker_memory; /* its nq_result.worker_memory: 0 for an engine without */
    double *runs;           /* wall seconds */
    double *cpu_runs;       /* CPU seconds (user + system, every thread) */
    double *user_runs, *system_runs;
    double *setup_runs; /* wall seconds of each run's setup (nq_result.setup_seconds) */
    int n_runs;
    double min, median, max, sum, cpu_median;
    double mean, stddev; /* of the wall seconds; stddev the sample's, NAN below 2 runs */
    double cpu_mean, user_mean, system_mean, setup_median;
    nq_u128 total;  /* the count of the first timed run */
    nq_u128 unique; /* its count up to symmetry, if has_unique */
    int has_unique;
    int verified;                /* every run matched the reference */
    int against_oeis;            /* the reference was OEIS (else the first run) */
    double solutions_per_second; /* total / median */
    double speedup;              /* 1-thread median / this median; NAN if not measured */
    double efficiency;           /* speedup / threads; NAN if not measured */
    nq_u128 reference;           /* what every run must count: OEIS, or the first run */
    int have_reference;
    unsigned long long tasks;
    int prefix_rows, pinned;
} bench_result;

typedef struct bench_report {
    bench_context ctx;
    bench_result *results;
    size_t n_results;
} bench_report;

/* The formats as args_words: their names and what the help says of each. */
const char *bench_format_word(int i, const char **about);
/* A format's name ("json") -> its row (enum bench_format), or -1. */
int bench_format_from_name(const char *name);
/* The names, for messages: "text, json, ... or hyperfine". */
const char *bench_format_names(void);

/* min, median (the mean of the middle two for an even count), max, sum, mean, standard
 * deviation, rate, and the CPU and setup figures, over the n_runs runs (NAN when there
 * are none). */
void bench_stats(bench_result *r);
/* Speedup and efficiency of every result against the 1-thread result of the same engine
 * and n; NAN where there is none. */
void bench_speedups(bench_report *rep);

/* Write the report; 0 on success, -1 if the stream reported a write error. */
int bench_write(const bench_report *rep, int format, FILE *f);

#endif
