/* nqueens bench: time counts over lists of engines, board sizes and thread counts,
 * verify every run's total, and report in the formats benchmark tooling reads. Ctrl-C
 * ends it with a report of what was measured by then. */
#define _DEFAULT_SOURCE /* getloadavg */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_list.h"
#include "bench_report.h"
#include "commands.h"
#include "config.h"
#include "core/clock.h"
#include "tools/args_help.h"
#include "tools/args_messages.h"
#include "tools/args_parser.h"
#include "tools/build_info.h"
#include "tools/build_vcs.h"
#include "tools/count_opts.h"
#include "tools/number.h"
#include "tools/output_files.h"
#include "tools/progress.h"
#include "tools/signals.h"

/* --engine's words: the engines this build has, then all. */
static const char *bench_engine_word(int i, const char **about)
{
    const char *w = args_engine_word(i, about);
    return w || i == 0 || !args_engine_word(i - 1, NULL) ? w : "all";
}

static const args_option bench_options[] = {
    {OPT_N, "n", 'n', required_argument, "LIST",
     "board sizes, e.g. 14,15,16 or 14-17 (default 14-16)", NULL, NULL},
    {OPT_THREADS, "threads", 't', required_argument, "LIST",
     "worker counts; also 'max' (every allowed CPU) and\n'powers' (1,2,4,... up to max, and "
     "max; the default)",
     bench_list_word, NULL},
    {OPT_ENGINE, "engine", 'e', required_argument, "LIST",
     "engines from {engines};\n'all' is every one but cuda (default: {default_engine})",
     bench_engine_word, NULL},
    {OPT_REPEAT, "repeat", 'r', required_argument, "R",
     "timed runs per measurement, 1..1000 "
     "(default 5)",
     NULL, NULL},
    {OPT_WARMUP, "warmup", 'w', required_argument, "W",
     "untimed runs before them, 0..100 (default 1)", NULL, NULL},
    {OPT_FORMAT, "format", 'f', required_argument, "F",
     "the report's format (default: text):{words}", bench_format_word, NULL},
    {OPT_OUT, "out", 'o', required_argument, "FILE",
     "write the report there; the text table then goes to\nstdout", NULL, NULL},
    {OPT_EXPORT, "export", 0, required_argument, "F=FILE",
     "also write the report in format F to FILE, as\nhyperfine's exports do; repeatable",
     bench_format_word, NULL},
    ARGS_OPT_PREFIX_ROWS,
    ARGS_OPT_NO_PIN,
    ARGS_OPT_DEVICES,
    ARGS_OPT_SIMD,
    ARGS_OPT_MAX_MEMORY,
    ARGS_OPT_WORKER_MEMORY,
    ARGS_OPT_END,
};

const args_command bench_command = {
    "bench",
    "[options]",
    "Time counts for every engine x n x threads in the lists: W warm-up rounds, then\n"
    "R timed rounds, each round running every thread count of an (engine, n) once, so\n"
    "that the speedups are measured side by side. Each run records wall time\n"
    "(monotonic clock) and CPU time (user + system). Every run's total is checked\n"
    "against OEIS A000170 (n <= 27) or the first run (beyond); exit status 1 if any\n"
    "does not match. Ctrl-C stops it and writes the report of the runs measured so\n"
    "far (exit 130).\n",
    bench_options,
    NULL,
};

/* Engine e at the end of out[0..*len), unless it is there already. */
static void bench_add_engine(int *out, int *len, int cap, int e)
{
    int dup = 0;
    for (int i = 0; i < *len; i++)
        dup |= out[i] == e;
    if (!dup && *len < cap)
        out[(*len)++] = e;
}

/* --engine LIST: names separated by commas, where "all" stands for every engine but the
 * GPU's (asked for by name: most hosts have none), each engine once, in the order
 * given. Returns how many, or -1. */
static int bench_parse_engines(const char *s, int *out, int cap)
{
    char item[64];
    int len = 0;

    for (const char *p = s;;) {
        size_t k = strcspn(p, ",");
        int e;
        if (k == 0 || k >= sizeof(item)) {
            args_usage_error("bench", "invalid --engine '%s': expected names from %s, or 'all'", s,
                             args_engine_names());
            return -1;
        }
        memcpy(item, p, k);
        item[k] = '\0';
        if (strcmp(item, "all") == 0) {
            for (e = 0; strcmp(nq_engine_name(e), "unknown") != 0; e++)
                if (!args_engine_info(e).takes_devices &&
                    nq_engine_from_name(nq_engine_name(e)) == e)
                    bench_add_engine(out, &len, cap, e);
        } else {
            e = count_opts_engine("bench", item);
            if (e < 0)
                return -1;
            bench_add_engine(out, &len, cap, e);
        }
        if (p[k] == '\0')
            return len;
        p += k + 1;
    }
}

/* The 1-minute load average: on a shared machine it says how much to trust a report. */
static double bench_load(void)
{
    double l;
    return getloadavg(&l, 1) == 1 ? l : NAN;
}

static void bench_context_fill(bench_context *c, const count_opts *o, int repeat, int warmup)
{
    time_t now = time(NULL);
    struct tm tm;

    memset(c, 0, sizeof(*c));
    if (gmtime_r(&now, &tm))
        strftime(c->date, sizeof(c->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (gethostname(c->host, sizeof(c->host) - 1) != 0)
        strcpy(c->host, "unknown");
    nq_topology_info(&c->topo);
    c->compiler = NQ_BUILD_COMPILER;
    c->flags = NQ_BUILD_FLAGS;
    c->build_type = NQ_BUILD_TYPE;
    c->git_revision = NQ_GIT_REVISION;
    c->version = nq_version();
    c->repeat = repeat;
    c->warmup = warmup;
    c->pin = o->pin;
    c->load[0] = c->load[1] = bench_load();
}

/* One count on a solver of its own, timed by the library: from every worker pinned to
 * the end, the setup before it in r->setup_seconds, so that a small board's figure is
 * the count's and not the milliseconds of loading the topology. A signal cancels it
 * (NQ_ECANCELED). */
static int bench_once(const count_opts *o, int engine, int n, int threads, nq_result *r)
{
    count_opts one = *o;
    nq_settings s;
    nq_solver *sv;
    int rc;

    if (signals_caught())
        return NQ_ECANCELED;
    one.threads = threads;
    one.engine = engine;
    count_opts_settings(&one, n, &s);
    rc = nq_create_solver(&sv, &s);
    if (rc != NQ_OK)
        return rc;
    signals_target(sv);
    rc = nq_count(sv, NULL, r);
    signals_target(NULL);
    nq_destroy_solver(&sv);
    return rc;
}

/* Whether r's counts are br's reference, and its unique count the published one. */
static int bench_matches(const bench_result *br, const nq_result *r)
{
    nq_u128 want;
    if (r->total.lo != br->reference.lo || r->total.hi != br->reference.hi)
        return 0;
    return !r->has_unique || nq_known_unique(br->n, &want) != NQ_OK ||
           (want.lo == r->unique.lo && want.hi == r->unique.hi);
}

/* One run of br, its total checked; run < 0 is a warm-up and is not recorded. */
static int bench_run(const count_opts *o, bench_result *br, int run)
{
    nq_u128 want;
    nq_result r;
    int rc;

    rc = bench_once(o, br->engine, br->n, br->threads, &r);
    if (rc != NQ_OK)
        return rc;
    args_warn_unpinned(o, &r);
    if (!br->have_reference) {
        br->against_oeis = nq_known_total(br->n, &want) == NQ_OK;
        br->reference = br->against_oeis ? want : r.total; /* beyond OEIS: the first run */
        br->have_reference = 1;
        br->verified = 1;
    }
    if (!bench_matches(br, &r))
        br->verified = 0;
    if (run < 0)
        return NQ_OK;
    if (run == 0) {
        br->total = r.total;
        br->tasks = (unsigned long long)r.tasks;
        br->prefix_rows = r.prefix_rows;
        br->pinned = r.n_pinned;
        br->simd = r.simd;
        br->worker_memory = r.worker_memory;
        br->ran = r.engine;
        br->unique = r.unique;
        br->has_unique = r.has_unique;
    }
    br->runs[run] = r.seconds;
    br->user_runs[run] = r.user_seconds;
    br->system_runs[run] = r.system_seconds;
    br->cpu_runs[run] = r.user_seconds + r.system_seconds;
    br->setup_runs[run] = r.setup_seconds;
    br->n_runs = run + 1;
    return NQ_OK;
}

/* The thread counts of one (engine, n) are measured round by round, each round running
 * every count once, so that a neighbour's load on a shared machine falls on all of them
 * alike and the speedups (ratios within the group) hold. Returns the failing result's
 * index through *bad on error; the statistics cover the runs made either way. */
static int bench_group(const count_opts *o, bench_result *g, int n_group, int warmup, int repeat,
                       int *bad)
{
    int rc = NQ_OK;

    for (int run = -warmup; run < repeat && rc == NQ_OK; run++)
        for (int t = 0; t < n_group && rc == NQ_OK; t++) {
            rc = bench_run(o, &g[t], run);
            *bad = t;
        }
    for (int t = 0; t < n_group; t++)
        bench_stats(&g[t]);
    return rc;
}

/* The files a report goes to: --out (in --format) and each --export. */
#define BENCH_MAX_FILES 16

typedef struct bench_file {
    const char *option; /* "--out" or "--export" */
    const char *path;
    int format;
    output_writer w; /* w.f NULL: not open */
} bench_file;

typedef struct bench_opts {
    int ns[BENCH_LIST_MAX], threads[BENCH_LIST_MAX], engines[64];
    int n_ns, n_threads, n_engines;
    int repeat, warmup, format;
    const char *out;
    bench_file files[BENCH_MAX_FILES];
    int n_files;
    count_opts co;
} bench_opts;

/* --export F=FILE: 0 or EXIT_USAGE (reported). */
static int bench_take_export(bench_opts *b, const char *v)
{
    static const char *const cmd = "bench";
    const char *eq = strchr(v, '=');
    char name[32];
    int format;

    if (!eq || eq == v || !eq[1] || (size_t)(eq - v) >= sizeof(name))
        return args_usage_error(cmd,
                                "invalid --export '%s': expected FORMAT=FILE, FORMAT one "
                                "of %s",
                                v, bench_format_names());
    memcpy(name, v, (size_t)(eq - v));
    name[eq - v] = '\0';
    if ((format = bench_format_from_name(name)) < 0)
        return args_usage_error(cmd, "invalid --export format '%s': expected %s", name,
                                bench_format_names());
    if (b->n_files == BENCH_MAX_FILES - 1) /* one is kept for --out */
        return args_usage_error(cmd, "at most %d --export files", BENCH_MAX_FILES - 1);
    b->files[b->n_files++] = (bench_file){"--export", eq + 1, format, {0}};
    return 0;
}

/* Take one of bench's own options; 0 or EXIT_USAGE (reported). */
static int bench_take(bench_opts *b, int id, const char *v, int cpus)
{
    static const char *const cmd = "bench";
    char err[160];
    long l;

    switch (id) {
    case OPT_N:
        b->n_ns = bench_list_parse(v, 1, NQ_MAX_N, 0, b->ns, BENCH_LIST_MAX, err, sizeof(err));
        return b->n_ns < 0 ? args_usage_error(cmd, "invalid --n '%s': %s", v, err) : 0;
    case OPT_THREADS:
        b->n_threads = bench_list_parse(v, 1, NQ_MAX_THREADS, cpus, b->threads, BENCH_LIST_MAX, err,
                                        sizeof(err));
        return b->n_threads < 0 ? args_usage_error(cmd, "invalid --threads '%s': %s", v, err) : 0;
    case OPT_ENGINE:
        b->n_engines = bench_parse_engines(v, b->engines, 64);
        return b->n_engines < 0 ? EXIT_USAGE : 0;
    case OPT_REPEAT:
        if (number_parse_long(v, 1, 1000, &l) != 0)
            return args_usage_error(cmd, "invalid --repeat '%s': expected 1..1000", v);
        b->repeat = (int)l;
        return 0;
    case OPT_WARMUP:
        if (number_parse_long(v, 0, 100, &l) != 0)
            return args_usage_error(cmd, "invalid --warmup '%s': expected 0..100", v);
        b->warmup = (int)l;
        return 0;
    case OPT_FORMAT:
        b->format = bench_format_from_name(v);
        return b->format < 0 ? args_usage_error(cmd, "invalid --format '%s': expected %s", v,
                                                bench_format_names())
                             : 0;
    case OPT_OUT:
        if (!*v)
            return args_usage_error(cmd, "--out needs a file name");
        b->out = v;
        return 0;
    case OPT_EXPORT:
        return bench_take_export(b, v);
    default:
        return count_opts_take(&b->co, cmd, id, v) == 1 ? 0 : EXIT_USAGE;
    }
}

/* -1 for the help or the version (printed), else 0 or EXIT_USAGE (reported). */
static int bench_parse(bench_opts *b, int argc, char **argv, int *exit_code)
{
    static const char *const cmd = "bench";
    char err[160];
    args_parser p;
    int id, cpus = nq_available_cpus();

    memset(b, 0, sizeof(*b));
    count_opts_default(&b->co);
    b->repeat = 5;
    b->warmup = 1;
    b->format = BENCH_TEXT;
    b->n_ns = bench_list_parse("14-16", 1, NQ_MAX_N, 0, b->ns, BENCH_LIST_MAX, err, sizeof(err));
    b->n_threads = bench_list_parse("powers", 1, NQ_MAX_THREADS, cpus, b->threads, BENCH_LIST_MAX,
                                    err, sizeof(err));
    b->engines[0] = b->co.engine;
    b->n_engines = 1;

    args_begin(&p, &bench_command, argc, argv);
    while ((id = args_next(&p)) != ARG_END) {
        if (id == ARG_EXIT) {
            *exit_code = p.exit_code;
            return -1;
        }
        if (id == ARG_POSITIONAL)
            return args_usage_error(cmd, "unexpected argument '%s' (see 'nqueens bench --help')",
                                    p.value);
        if (bench_take(b, id, p.value, cpus) != 0)
            return EXIT_USAGE;
    }
    if (b->out) /* --out writes --format, whichever came first */
        b->files[b->n_files++] = (bench_file){"--out", b->out, b->format, {0}};
    /* one --simd serves the whole list: it must apply to one of its engines */
    count_opts each = b->co;
    int takes_simd = 0;
    each.simd = NQ_SIMD_AUTO;
    for (int e = 0; e < b->n_engines; e++) {
        if (count_opts_check_engine(cmd, &each, b->engines[e]) != 0)
            return EXIT_USAGE;
        for (int i = 0; i < b->n_ns; i++) /* auto: the engine it picks at each n */
            takes_simd |= args_engine_info(args_engine_at(b->engines[e], b->ns[i])).has_simd;
    }
    if (b->co.simd != NQ_SIMD_AUTO && !takes_simd)
        return args_usage_error(cmd, "--simd does not apply to these engines, which have no "
                                     "vector paths (--simd picks the join engine's)");
    for (int e = 0; e < b->n_engines; e++)
        for (int i = 0; i < b->n_ns; i++)
            if (count_opts_check_n(cmd, NULL, b->engines[e], b->ns[i]) != 0)
                return EXIT_USAGE;
    return 0;
}

static void bench_close_files(bench_opts *b)
{
    for (int i = 0; i < b->n_files; i++)
        output_writer_abandon(&b->files[i].w);
}

/* Every report file made before the runs, so that a path that cannot be written fails
 * at once rather than after the measurements; first checked to be files of their own,
 * none where standard output goes (bench -o r.json >>r.json, or --export json=r.json
 * twice, would write two reports into one file). */
static int bench_open_files(bench_opts *b)
{
    output_file f[BENCH_MAX_FILES + 1];
    int n = b->n_files, rc;

    for (int i = 0; i < n; i++)
        output_file_path(&f[i], b->files[i].option, b->files[i].path);
    output_file_fd(&f[n], NULL, NULL, STDOUT_FILENO);
    rc = output_files_distinct("bench", f, n + 1);
    for (int i = 0; i < n && rc == 0; i++)
        rc = output_writer_open(&b->files[i].w, "bench", b->files[i].option, b->files[i].path);
    if (rc != 0)
        bench_close_files(b);
    return rc;
}

/* a(n), or for n past the tables a rough extrapolation: the last ratio, for each row. */
static double bench_expected_total(int n)
{
    nq_u128 a, b;
    int last = n;
    double v;

    while (nq_known_total(last, &a) != NQ_OK)
        last--;
    v = (double)a.hi * 18446744073709551616.0 + (double)a.lo;
    if (last == n || nq_known_total(last - 1, &b) != NQ_OK || b.lo == 0)
        return v;
    for (int k = last; k < n; k++)
        v *= (double)a.lo / (double)b.lo;
    return v;
}

/* What the lists ask for, in seconds, from a rough rate per worker (the CPU engines at
 * one thread: about 1.5e7 solutions/s on a 2024 core; a GPU engine about 3e10): only to warn
 * before a run of hours, never to refuse it. */
static double bench_estimate(const bench_opts *b)
{
    double total = 0;

    for (int e = 0; e < b->n_engines; e++)
        for (int i = 0; i < b->n_ns; i++)
            for (int t = 0; t < b->n_threads; t++) {
                double rate =
                    args_engine_info(b->engines[e]).takes_devices ? 3e10 : 1.5e7 * b->threads[t];
                total += (b->repeat + b->warmup) * bench_expected_total(b->ns[i]) / rate;
            }
    return total;
}

/* The reason a write failed, for the message (stdio leaves it in errno). */
static const char *write_error(void)
{
    return strerror(errno ? errno : EIO);
}

/* Each report file in its format, then standard output: --format, or the text table
 * when --out took the report. A run that measured nothing replaces no report. */
static int bench_emit(bench_opts *b, const bench_report *rep)
{
    int rc = 0;

    for (int i = 0; i < b->n_files; i++) {
        bench_file *bf = &b->files[i];
        if (rep->n_results == 0) {
            output_writer_abandon(&bf->w);
            args_note("bench", "nothing was measured: %s %s is left as it was", bf->option,
                      bf->path);
        } else if (bench_write(rep, bf->format, bf->w.f) != 0) {
            const char *why = write_error();
            output_writer_abandon(&bf->w);
            if (rc == 0)
                rc = args_run_error("bench", "cannot write %s %s: %s (nothing was replaced)",
                                    bf->option, bf->path, why);
        } else if (output_writer_commit(&bf->w, "bench") != 0 && rc == 0) {
            rc = EXIT_RUN_FAILED;
        }
    }
    if (bench_write(rep, b->out ? BENCH_TEXT : b->format, stdout) != 0 && rc == 0)
        rc = args_run_error("bench", "cannot write the %s: %s", b->out ? "table" : "report",
                            write_error());
    return rc;
}

/* The figures kept of each run: wall, CPU, user, system and setup seconds. */
#define BENCH_SERIES 5

/* Measure every (engine, n) group in turn; NQ_OK, or the failure (reported unless it is
 * a signal's NQ_ECANCELED). rep->n_results counts the results with timed runs. */
static int bench_measure(const bench_opts *b, bench_report *rep, double *runs, int show)
{
    size_t total = rep->n_results, k = 0, per = (size_t)b->repeat;
    int rc = NQ_OK;

    rep->n_results = 0;
    for (int e = 0; e < b->n_engines && rc == NQ_OK; e++)
        for (int i = 0; i < b->n_ns && rc == NQ_OK; i++) {
            bench_result *g = &rep->results[k];
            int bad = 0;
            for (int t = 0; t < b->n_threads; t++, k++) {
                bench_result *r = &rep->results[k];
                r->engine = b->engines[e];
                r->n = b->ns[i];
                r->threads = b->threads[t];
                r->runs = runs + BENCH_SERIES * k * per;
                r->cpu_runs = r->runs + per;
                r->user_runs = r->cpu_runs + per;
                r->system_runs = r->user_runs + per;
                r->setup_runs = r->system_runs + per;
            }
            if (show)
                fprintf(stderr, "\r[%zu/%zu] %s n=%d ...%s", k, total, nq_engine_name(g->engine),
                        g->n, progress_term_dumb() ? "        " : "\033[K");
            rc = bench_group(&b->co, g, b->n_threads, b->warmup, b->repeat, &bad);
            if (rc != NQ_OK && show)
                fputc('\n', stderr);
            if (rc != NQ_OK && rc != NQ_ECANCELED)
                args_run_error("bench", "%s n=%d threads=%d failed: %s",
                               nq_engine_name(g[bad].engine), g[bad].n, g[bad].threads,
                               nq_strerror(rc));
            /* what was timed stays, an interrupted group's runs included */
            for (int t = 0; t < b->n_threads; t++)
                if (g[t].n_runs > 0)
                    rep->results[rep->n_results++] = g[t];
        }
    if (show && rc == NQ_OK)
        fputs(progress_term_dumb() ? "\n" : "\r\033[K", stderr);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    bench_opts b;
    bench_report rep;
    double *runs, hours;
    size_t total;
    int rc, exit_code = 0, failed = 0, sig, show = isatty(2);

    rc = bench_parse(&b, argc, argv, &exit_code);
    if (rc < 0)
        return exit_code;
    if (rc)
        return rc;
    /* Before any run, so that a bad path costs nothing and Ctrl-C has a file to write. */
    if ((rc = bench_open_files(&b)) != 0)
        return rc;
    total = (size_t)b.n_engines * (size_t)b.n_ns * (size_t)b.n_threads;
    memset(&rep, 0, sizeof(rep));
    rep.results = calloc(total, sizeof(*rep.results));
    runs = calloc(BENCH_SERIES * total * (size_t)b.repeat, sizeof(*runs));
    if (!rep.results || !runs) {
        free(rep.results);
        free(runs);
        bench_close_files(&b);
        return args_run_error("bench", "out of memory for %zu measurements", total);
    }
    hours = bench_estimate(&b) / 3600;
    if (hours >= 1)
        args_note("bench",
                  "warning: this may take %.0f hours or more (a rough estimate); Ctrl-C writes "
                  "the rows measured by then",
                  hours);
    bench_context_fill(&rep.ctx, &b.co, b.repeat, b.warmup);
    rep.n_results = total;
    signals_install();
    rc = bench_measure(&b, &rep, runs, show);
    sig = signals_caught();
    signals_restore();
    if (rc == NQ_ECANCELED && sig) {
        rep.ctx.interrupted = signals_name(sig);
        args_note("bench", "interrupted by %s: reporting the %zu measurements made",
                  rep.ctx.interrupted, rep.n_results);
    } else if (rc != NQ_OK) {
        exit_code = EXIT_RUN_FAILED; /* reported; the report still has what was measured */
    }
    for (size_t i = 0; i < rep.n_results; i++)
        failed |= !rep.results[i].verified;
    rep.ctx.load[1] = bench_load();
    bench_speedups(&rep);
    rc = bench_emit(&b, &rep);
    if (!rc && failed)
        rc = args_run_error("bench", "a count did not match its reference (see the FAIL rows)");
    free(rep.results);
    free(runs);
    if (sig && rep.ctx.interrupted)
        return rc ? rc : 128 + sig;
    return exit_code ? exit_code : rc;
}
