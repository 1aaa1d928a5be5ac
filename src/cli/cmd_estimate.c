/* nqueens estimate: before a long count, how long it would take. The library samples and
 * times (nq_estimate); this file parses, picks a seed when none is given, writes the
 * sample as CSV on request, and prints the projection as text or one JSON object. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "tools/args_messages.h"
#include "tools/args_parser.h"
#include "tools/count_opts.h"
#include "tools/count_output.h"
#include "tools/number.h"
#include "tools/output_files.h"
#include "tools/signals.h"

/* Long enough for any sample a person waits for; a typo of many digits is refused. */
#define MAX_SECONDS 86400.0

static const args_option estimate_options[] = {
    ARGS_OPT_THREADS,
    ARGS_OPT_ENGINE,
    ARGS_OPT_PREFIX_ROWS,
    ARGS_OPT_SIMD,
    ARGS_OPT_WORKER_MEMORY,
    {OPT_SECONDS, "seconds", 's', required_argument, "S",
     "sample for about S seconds, more than 0 and at\nmost 86400 (default 10)", NULL, NULL},
    {OPT_SEED, "seed", 0, required_argument, "X",
     "the sample's seed, 0..2^64-1: the same seed draws the\nsame tasks (default: from the "
     "clock, printed)",
     NULL, NULL},
    {OPT_MAX_TASKS, "max-tasks", 0, required_argument, "K",
     "stop after K sampled tasks, K >= 1 (default: only\nthe time limits the sample)", NULL, NULL},
    {OPT_SAMPLE, "sample", 0, required_argument, "FILE",
     "write each sampled task's id, stratum, subtotal,\nweight and CPU time to FILE as CSV", NULL,
     NULL},
    {OPT_JSON, "json", 'j', no_argument, NULL, "print one JSON object (see docs/json.md)", NULL,
     NULL},
    ARGS_OPT_REFUSED_DEVICES("estimate samples on the CPU"),
    ARGS_OPT_END,
};

const args_command estimate_command = {
    "estimate",
    "N [options]",
    "Estimate what 'nqueens count N' with the same engine and threads would take:\n"
    "complete a random sample of its tasks (stratified by the engine's cost model)\n"
    "for about S seconds on one thread, and print the projected CPU time with a 95%\n"
    "interval and the projected wall time on T threads of this machine.\n",
    estimate_options,
    NULL,
};

typedef struct estimate_args {
    int n, json;
    count_opts o;
    nq_estimate_options eo;
    int seed_set;
    const char *sample;
} estimate_args;

static int take_seconds(const char *cmd, const char *value, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(value, &end);
    if (!*value || *end || errno || !(v > 0) || v > MAX_SECONDS)
        return args_usage_error(cmd,
                                "invalid --seconds '%s': expected seconds, more than 0 and at "
                                "most %.0f",
                                value, MAX_SECONDS);
    *out = v;
    return 1;
}

/* One option of estimate's own: 1 taken, EXIT_USAGE after a message. */
static int take_own(estimate_args *a, const char *cmd, int id, const char *value)
{
    switch (id) {
    case OPT_SECONDS:
        return take_seconds(cmd, value, &a->eo.seconds);
    case OPT_SEED:
        if (number_parse_u64(value, 0, &a->eo.seed) != 0)
            return args_usage_error(cmd, "invalid --seed '%s': expected an integer 0..%llu", value,
                                    (unsigned long long)UINT64_MAX);
        a->seed_set = 1;
        return 1;
    case OPT_MAX_TASKS:
        if (number_parse_u64(value, 1, &a->eo.max_tasks) != 0)
            return args_usage_error(cmd, "invalid --max-tasks '%s': expected an integer >= 1",
                                    value);
        return 1;
    case OPT_SAMPLE:
        if (!*value)
            return args_usage_error(cmd, "--sample needs a file name");
        a->sample = value;
        return 1;
    case OPT_JSON:
        a->json = 1;
        return 1;
    }
    return count_opts_take(&a->o, cmd, id, value);
}

/* "auto, prefix, d4 or join": the engines built here that run on CPU workers, whose
 * tasks' CPU time can be sampled. */
static const char *cpu_engine_names(void)
{
    static char names[160];
    const char *last = NULL;
    size_t len = (size_t)snprintf(names, sizeof(names), "%s", nq_engine_name(NQ_ENGINE_AUTO));
    nq_engine_info info;

    for (int e = 0; nq_engine_describe(e, &info) == NQ_OK; e++) {
        if (!info.built || info.takes_devices)
            continue;
        if (last && len < sizeof(names))
            len += (size_t)snprintf(names + len, sizeof(names) - len, ", %s", last);
        last = info.name;
    }
    if (last && len < sizeof(names))
        snprintf(names + len, sizeof(names) - len, " or %s", last);
    return names;
}

/* Returns -1 when the estimate should run, else the exit code. */
static int parse(estimate_args *a, int argc, char **argv)
{
    const char *cmd = estimate_command.name, *n_arg = NULL;
    args_parser p;
    int id;

    memset(a, 0, sizeof(*a));
    count_opts_default(&a->o);
    nq_default_estimate_options(&a->eo);
    args_begin(&p, &estimate_command, argc, argv);
    while ((id = args_next_n(&p, &n_arg)) != ARG_END) {
        if (id == ARG_EXIT)
            return p.exit_code;
        if (take_own(a, cmd, id, p.value) != 1)
            return EXIT_USAGE;
    }
    if (args_parse_n(cmd, n_arg, &a->n) != 0)
        return EXIT_USAGE;
    if (args_engine_info(a->o.engine).takes_devices)
        return args_usage_error(cmd,
                                "--engine %s runs on the GPU, whose tasks have no CPU "
                                "time to sample: estimate %s",
                                nq_engine_name(a->o.engine), cpu_engine_names());
    if (count_opts_check(cmd, &a->o, 0) != 0 || count_opts_check_n(cmd, &a->o, a->o.engine, a->n))
        return EXIT_USAGE;
    return -1;
}

/* The sample's CSV, written as each task is timed; a signal is seen here too. */
typedef struct sample_out {
    FILE *f;
    nq_solver *sv;
} sample_out;

static int on_sampled(void *user, const nq_estimate_task *t)
{
    sample_out *so = user;
    if (signals_caught())
        nq_solver_cancel(so->sv); /* a signal before the run started cancelled nothing */
    if (so->f)
        fprintf(so->f, "%llu,%d,%llu,%u,%llu,%llu,%.9f\n", (unsigned long long)t->id, t->stratum,
                (unsigned long long)t->subtotal, t->weight,
                (unsigned long long)(t->subtotal * t->weight), (unsigned long long)t->part_stride,
                t->cpu_seconds);
    return so->f && ferror(so->f);
}

/* A number that may be unknown (NaN): null in JSON. */
static const char *json_num(double v, char *buf, size_t size)
{
    if (isnan(v))
        return "null";
    snprintf(buf, size, "%.6f", v);
    return buf;
}

static void print_json(const estimate_args *a, const nq_estimate_result *r)
{
    char low[32], high[32], simd[16] = "null", total[40], worker[24];

    if (r->simd != NQ_SIMD_AUTO)
        snprintf(simd, sizeof(simd), "\"%s\"", nq_simd_name(r->simd));
    printf("{\"schema\": %d, \"n\": %d, \"engine\": \"%s\", \"simd\": %s, \"worker_memory\": %s, "
           "\"threads\": %d, "
           "\"usable_threads\": %d, \"tasks\": %llu, \"priced_tasks\": %llu, "
           "\"sampled_tasks\": %llu, \"strata\": %d, \"seed\": %llu, \"sample_total\": %s, "
           "\"sample_cpu_seconds\": %.6f, "
           "\"setup_cpu_seconds\": %.6f, \"max_task_seconds\": %.6f, \"cpu_seconds\": %.6f, "
           "\"cpu_seconds_low\": %s, \"cpu_seconds_high\": %s, \"wall_seconds\": %.6f, "
           "\"census_passes\": %d, \"sampled_in_parts\": %llu, \"seconds\": %.6f}\n",
           NQ_JSON_SCHEMA, a->n, nq_engine_name(r->engine), simd,
           count_output_worker_memory(r->worker_memory, worker, sizeof(worker)), r->n_threads,
           r->usable_threads, (unsigned long long)r->tasks, (unsigned long long)r->priced_tasks,
           (unsigned long long)r->sampled, r->strata, (unsigned long long)a->eo.seed,
           nq_u128_to_string(r->sample_total, total, sizeof(total)), r->sample_cpu_seconds,
           r->setup_cpu_seconds, r->max_task_seconds, r->cpu_seconds,
           json_num(r->cpu_seconds_low, low, sizeof(low)),
           json_num(r->cpu_seconds_high, high, sizeof(high)), r->wall_seconds, r->census_passes,
           (unsigned long long)r->sampled_in_parts, r->seconds);
}

static void print_text(const estimate_args *a, const nq_estimate_result *r)
{
    printf("estimate n=%d, engine %s: %llu of %llu tasks sampled in %.1f s (%d strata, seed "
           "%llu)\n",
           a->n, nq_engine_name(r->engine), (unsigned long long)r->sampled,
           (unsigned long long)r->tasks, r->seconds, r->strata, (unsigned long long)a->eo.seed);
    if (!r->tasks)
        printf("no tasks: a count of n = %d is its setup alone\n", a->n);
    else if (r->census_passes > 1)
        printf("every task sampled: the median of %d timed passes\n", r->census_passes);
    if (r->priced_tasks < r->tasks)
        printf("strata cut from %llu tasks drawn and priced, too many to price all in the time\n",
               (unsigned long long)r->priced_tasks);
    if (r->sampled_in_parts)
        printf("%llu of them timed by a share of their parts, their time projected\n",
               (unsigned long long)r->sampled_in_parts);
    if (isnan(r->cpu_seconds_low))
        printf("cpu   %.3f s (no interval: fewer than two tasks sampled)\n", r->cpu_seconds);
    else
        printf("cpu   %.3f s, 95%% interval %.3f .. %.3f s\n", r->cpu_seconds, r->cpu_seconds_low,
               r->cpu_seconds_high);
    printf("wall  %.3f s on %d thread%s (%d usable here)\n", r->wall_seconds, r->n_threads,
           r->n_threads == 1 ? "" : "s", r->usable_threads);
}

/* The run, with the signals wired to the solver. */
static int run(const char *cmd, estimate_args *a, sample_out *so, nq_estimate_result *r)
{
    nq_settings s;
    int rc, sig;

    count_opts_settings(&a->o, a->n, &s);
    rc = nq_create_solver(&so->sv, &s);
    if (rc != NQ_OK)
        return args_run_error(cmd, "cannot estimate: %s", nq_strerror(rc));
    a->eo.sampled = on_sampled;
    a->eo.user = so;
    signals_install();
    signals_target(so->sv);
    rc = nq_estimate(so->sv, &a->eo, r);
    signals_target(NULL);
    sig = signals_caught();
    signals_restore();
    nq_destroy_solver(&so->sv);
    if (sig) {
        args_note(cmd, "interrupted by %s after %llu sampled tasks", signals_name(sig),
                  (unsigned long long)r->sampled);
        return 128 + sig;
    }
    if (rc == NQ_ECALLBACK)
        return args_run_error(cmd, "cannot write --sample %s: %s", a->sample,
                              strerror(errno ? errno : EIO));
    if (rc != NQ_OK)
        return args_run_error(cmd, "estimate failed: %s", nq_strerror(rc));
    return 0;
}

/* The --sample file, made before the run as every output is (checked, never through a
 * link, under a temporary name), and not where standard output goes: the CSV and the
 * result would be written over each other. */
static int open_sample(const char *cmd, const char *path, output_writer *w)
{
    output_file f[2];
    int rc;

    output_file_path(&f[0], "--sample", path);
    output_file_fd(&f[1], NULL, NULL, STDOUT_FILENO);
    if ((rc = output_files_distinct(cmd, f, 2)) != 0 ||
        (rc = output_writer_open(w, cmd, "--sample", path)) != 0)
        return rc;
    fputs("task,stratum,subtotal,weight,weighted,part_stride,cpu_seconds\n", w->f);
    return 0;
}

int cmd_estimate(int argc, char **argv)
{
    static const char *const cmd = "estimate";
    estimate_args a;
    output_writer w = {0};
    sample_out so = {NULL, NULL};
    nq_estimate_result r;
    int rc = parse(&a, argc, argv);

    if (rc >= 0)
        return rc;
    if (!a.seed_set) /* a fresh sample each time, printed so that it can be drawn again */
        a.eo.seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
    if (a.sample && (rc = open_sample(cmd, a.sample, &w)) != 0)
        return rc;
    so.f = w.f;
    rc = run(cmd, &a, &so, &r);
    /* the tasks sampled before a stop are whole rows, kept as bench keeps its runs */
    if (so.f && (rc == 0 || rc > 128)) {
        int wrc = output_writer_commit(&w, cmd);
        rc = rc ? rc : wrc;
    }
    output_writer_abandon(&w);
    if (rc != 0)
        return rc;
    if (a.json)
        print_json(&a, &r);
    else
        print_text(&a, &r);
    return 0;
}
