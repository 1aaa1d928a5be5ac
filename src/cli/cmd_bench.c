/* nqueens bench: time counts over lists of engines, board sizes and thread counts,
 * verify every run's total, and report in the formats benchmark tooling reads. */
#define _DEFAULT_SOURCE /* getloadavg */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "bench_build.h"
#include "bench_list.h"
#include "bench_report.h"
#include "bench_vcs.h"
#include "clock.h"
#include "commands.h"
#include "config.h"

static const char bench_help[] =
    "usage: nqueens bench [options]\n"
    "Time counts for every engine x n x threads in the lists: W warm-up rounds, then R\n"
    "timed rounds, each round running every thread count of an (engine, n) once so that\n"
    "the speedups are measured side by side (monotonic clock). Every run's total is\n"
    "checked against OEIS A000170 (n <= 27) or the first run (beyond); exit status 1 if\n"
    "any does not match.\n"
    "\n"
    "  --n LIST           board sizes, e.g. 14,15,16 or 14-17 (default 14-16)\n"
    "  --threads LIST     worker counts; also 'max' (every allowed CPU) and 'powers'\n"
    "                     (1,2,4,... up to max, and max) (default: powers)\n"
    "  --engine LIST      engine names or 'all' (default: the library's default engine)\n"
    "  --repeat R         timed runs per measurement, 1..1000 (default 5)\n"
    "  --warmup W         untimed runs before them, 0..100 (default 1)\n"
    "  --format F         text (default), json, github (customSmallerIsBetter) or bencher\n"
    "  --out FILE         write the report there; the text table then goes to stdout\n"
    "  --prefix-rows K    rows placed by the task source (default: chosen from n and threads)\n"
    "  --no-pin           do not pin workers to cores\n"
    "  --devices LIST     cuda engine: GPUs, e.g. 0 or 0-3 (default: all); --engine all leaves "
    "cuda out\n"
    "  -h, --help         this help\n";

/* The names the library knows, read from it so that a new engine needs no change here. */
static void bench_engine_names(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int e = 0; nq_engine_from_name(nq_engine_name(e)) == e; e++) {
        int k = snprintf(buf + len, size - len, "%s%s", e ? ", " : "", nq_engine_name(e));
        if (k < 0 || (size_t)k >= size - len)
            break;
        len += (size_t)k;
    }
}

/* --engine LIST: names separated by commas, or "all". Returns how many, or -1. */
static int bench_parse_engines(const char *s, int *out, int cap)
{
    char names[256], item[64];
    int len = 0;

    if (strcmp(s, "all") == 0) {
        for (int e = 0; nq_engine_from_name(nq_engine_name(e)) == e && len < cap; e++)
            if (e != NQ_ENGINE_CUDA) /* the GPU is asked for by name: most hosts have none */
                out[len++] = e;
        return len;
    }
    for (const char *p = s;;) {
        size_t k = strcspn(p, ",");
        int e = -1, dup = 0;
        if (k > 0 && k < sizeof(item)) {
            memcpy(item, p, k);
            item[k] = '\0';
            e = nq_engine_from_name(item);
        }
        if (e == NQ_EUNSUPPORTED) {
            args_usage_error("bench", "--engine %s: not built with CUDA (needs nvcc at build time)",
                             item);
            return -1;
        }
        if (e < 0) {
            bench_engine_names(names, sizeof(names));
            args_usage_error("bench", "unknown engine in --engine '%s': expected %s or 'all'", s,
                             names);
            return -1;
        }
        for (int i = 0; i < len; i++)
            dup |= out[i] == e;
        if (!dup && len < cap)
            out[len++] = e;
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
    c->compiler = NQ_BENCH_COMPILER;
    c->flags = NQ_BUILD_FLAGS;
    c->build_type = NQ_BENCH_BUILD_TYPE;
    c->git_revision = NQ_BENCH_GIT_REVISION;
    c->version = nq_version();
    c->repeat = repeat;
    c->warmup = warmup;
    c->pin = o->pin;
    c->load[0] = c->load[1] = bench_load();
}

/* One timed count: create, count, destroy, so that thread start-up is in the figure
 * just as a caller of the library pays it. */
static int bench_once(const count_opts *o, int engine, int n, int threads, nq_result *r,
                      double *seconds)
{
    count_opts one = *o;
    nq_settings s;
    nq_solver *sv;
    double t0;
    int rc;

    one.threads = threads;
    one.engine = engine;
    count_opts_settings(&one, n, &s);
    t0 = clock_seconds();
    rc = nq_create_solver(&sv, &s);
    if (rc != NQ_OK)
        return rc;
    rc = nq_count(sv, NULL, r);
    nq_destroy_solver(&sv);
    *seconds = clock_seconds() - t0;
    return rc;
}

/* One run of br, its total checked; run < 0 is a warm-up and is not recorded. */
static int bench_run(const count_opts *o, bench_result *br, int run)
{
    nq_u128 want;
    nq_result r;
    double sec;
    int rc;

    rc = bench_once(o, br->engine, br->n, br->threads, &r, &sec);
    if (rc != NQ_OK)
        return rc;
    args_warn_unpinned(o, &r);
    if (!br->have_reference) {
        br->against_oeis = nq_known_total(br->n, &want) == NQ_OK;
        br->reference = br->against_oeis ? want : r.total; /* beyond OEIS: the first run */
        br->have_reference = 1;
        br->verified = 1;
    }
    if (r.total.lo != br->reference.lo || r.total.hi != br->reference.hi)
        br->verified = 0;
    if (run < 0)
        return NQ_OK;
    if (run == 0) {
        br->total = r.total;
        br->tasks = (unsigned long long)r.tasks;
        br->prefix_rows = r.prefix_rows;
        br->pinned = r.n_pinned;
    }
    br->runs[run] = sec;
    return NQ_OK;
}

/* The thread counts of one (engine, n) are measured round by round, each round running
 * every count once, so that a neighbour's load on a shared machine falls on all of them
 * alike and the speedups (ratios within the group) hold. Returns the failing result's
 * index through *bad on error. */
static int bench_group(const count_opts *o, bench_result *g, int n_group, int warmup, int repeat,
                       int *bad)
{
    int rc;

    for (int run = -warmup; run < repeat; run++)
        for (int t = 0; t < n_group; t++) {
            rc = bench_run(o, &g[t], run);
            if (rc != NQ_OK) {
                *bad = t;
                return rc;
            }
        }
    for (int t = 0; t < n_group; t++)
        bench_stats(&g[t]);
    return NQ_OK;
}

typedef struct bench_opts {
    int ns[BENCH_LIST_MAX], threads[BENCH_LIST_MAX], engines[64];
    int n_ns, n_threads, n_engines;
    int repeat, warmup, format;
    const char *out;
    count_opts co;
} bench_opts;

static int bench_parse(bench_opts *b, int argc, char **argv)
{
    static const char *const cmd = "bench";
    char err[160];
    args_iter it;
    const char *arg, *v;
    int kind, rc, cpus = nq_available_cpus();
    long l;

    memset(b, 0, sizeof(*b));
    count_opts_default(&b->co);
    b->repeat = 5;
    b->warmup = 1;
    b->format = BENCH_TEXT;
    b->n_ns = bench_list_parse("14-16", 1, NQ_MAX_N, 0, b->ns, BENCH_LIST_MAX, err, sizeof(err));
    b->n_threads =
        bench_list_parse("powers", 1, 4096, cpus, b->threads, BENCH_LIST_MAX, err, sizeof(err));
    b->engines[0] = b->co.engine;
    b->n_engines = 1;

    args_iter_init(&it, argc, argv);
    while ((kind = args_next(&it, &arg)) != ARG_END) {
        if (kind == ARG_POSITIONAL) {
            if (strcmp(arg, "-h") == 0)
                return -1;
            return args_usage_error(cmd, "unexpected argument '%s' (see 'nqueens bench --help')",
                                    arg);
        }
        if (strcmp(it.name, "help") == 0)
            return -1;
        if (strcmp(it.name, "no-pin") == 0 || strcmp(it.name, "prefix-rows") == 0) {
            rc = count_opts_take(&b->co, cmd, &it);
            if (rc != 1)
                return EXIT_USAGE;
            continue;
        }
        if (strcmp(it.name, "n") && strcmp(it.name, "threads") && strcmp(it.name, "engine") &&
            strcmp(it.name, "repeat") && strcmp(it.name, "warmup") && strcmp(it.name, "format") &&
            strcmp(it.name, "out"))
            return args_usage_error(cmd, "unknown option '%s' (see 'nqueens bench --help')", arg);
        v = args_value(&it);
        if (!v)
            return args_usage_error(cmd, "--%s needs a value", it.name);
        if (strcmp(it.name, "n") == 0) {
            b->n_ns = bench_list_parse(v, 1, NQ_MAX_N, 0, b->ns, BENCH_LIST_MAX, err, sizeof(err));
            if (b->n_ns < 0)
                return args_usage_error(cmd, "invalid --n '%s': %s", v, err);
        } else if (strcmp(it.name, "threads") == 0) {
            b->n_threads =
                bench_list_parse(v, 1, 4096, cpus, b->threads, BENCH_LIST_MAX, err, sizeof(err));
            if (b->n_threads < 0)
                return args_usage_error(cmd, "invalid --threads '%s': %s", v, err);
        } else if (strcmp(it.name, "engine") == 0) {
            b->n_engines = bench_parse_engines(v, b->engines, 64);
            if (b->n_engines < 0)
                return EXIT_USAGE;
        } else if (strcmp(it.name, "repeat") == 0) {
            if (args_parse_long(v, 1, 1000, &l) != 0)
                return args_usage_error(cmd, "invalid --repeat '%s': expected 1..1000", v);
            b->repeat = (int)l;
        } else if (strcmp(it.name, "warmup") == 0) {
            if (args_parse_long(v, 0, 100, &l) != 0)
                return args_usage_error(cmd, "invalid --warmup '%s': expected 0..100", v);
            b->warmup = (int)l;
        } else if (strcmp(it.name, "format") == 0) {
            b->format = bench_format_from_name(v);
            if (b->format < 0)
                return args_usage_error(
                    cmd, "invalid --format '%s': expected text, json, github or bencher", v);
        } else {
            if (!*v)
                return args_usage_error(cmd, "--out needs a file name");
            b->out = v;
        }
    }
    return 0;
}

static int bench_emit(const bench_opts *b, const bench_report *rep)
{
    FILE *f;

    if (b->out) {
        f = fopen(b->out, "w");
        if (!f)
            return args_run_error("bench", "cannot open --out '%s' for writing", b->out);
        if (bench_write(rep, b->format, f) != 0) {
            fclose(f);
            return args_run_error("bench", "cannot write '%s'", b->out);
        }
        if (fclose(f) != 0)
            return args_run_error("bench", "cannot write '%s'", b->out);
        return bench_write(rep, BENCH_TEXT, stdout) == 0
                   ? 0
                   : args_run_error("bench", "cannot write the table");
    }
    return bench_write(rep, b->format, stdout) == 0
               ? 0
               : args_run_error("bench", "cannot write the report");
}

int cmd_bench(int argc, char **argv)
{
    bench_opts b;
    bench_report rep;
    double *runs;
    size_t total, k = 0;
    int rc, failed = 0, progress = isatty(2);

    rc = bench_parse(&b, argc, argv);
    if (rc < 0) {
        fputs(bench_help, stdout);
        return 0;
    }
    if (rc)
        return rc;
    total = (size_t)b.n_engines * (size_t)b.n_ns * (size_t)b.n_threads;
    memset(&rep, 0, sizeof(rep));
    rep.results = calloc(total, sizeof(*rep.results));
    runs = calloc(total * (size_t)b.repeat, sizeof(*runs));
    if (!rep.results || !runs) {
        free(rep.results);
        free(runs);
        return args_run_error("bench", "out of memory for %zu measurements", total);
    }
    bench_context_fill(&rep.ctx, &b.co, b.repeat, b.warmup);
    for (int e = 0; e < b.n_engines; e++)
        for (int i = 0; i < b.n_ns; i++) {
            bench_result *g = &rep.results[k];
            int bad = 0;
            for (int t = 0; t < b.n_threads; t++, k++) {
                bench_result *r = &rep.results[k];
                r->engine = b.engines[e];
                r->n = b.ns[i];
                r->threads = b.threads[t];
                r->runs = runs + k * (size_t)b.repeat;
                r->n_runs = b.repeat;
            }
            if (progress)
                fprintf(stderr, "\r[%zu/%zu] %s n=%d ...\033[K", k, total,
                        nq_engine_name(g->engine), g->n);
            rc = bench_group(&b.co, g, b.n_threads, b.warmup, b.repeat, &bad);
            if (rc != NQ_OK) {
                if (progress)
                    fputc('\n', stderr);
                args_run_error("bench", "%s n=%d threads=%d failed: %s",
                               nq_engine_name(g[bad].engine), g[bad].n, g[bad].threads,
                               nq_strerror(rc));
                free(rep.results); /* after the message, which reads g */
                free(runs);
                return EXIT_RUN_FAILED;
            }
            for (int t = 0; t < b.n_threads; t++)
                failed |= !g[t].verified;
            rep.n_results = k;
        }
    if (progress)
        fputs("\r\033[K", stderr);
    rep.ctx.load[1] = bench_load();
    bench_speedups(&rep);
    rc = bench_emit(&b, &rep);
    if (!rc && failed)
        rc = args_run_error("bench", "a count did not match its reference (see the FAIL rows)");
    free(rep.results);
    free(runs);
    return rc;
}
