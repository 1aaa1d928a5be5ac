/* The public API: settings, the solver handle, and dispatch to the engines. Checks every
 * argument at this edge so that the engines can assume sane input. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "engines/d4.h"
#include "engines/list.h"
#include "engines/prefix.h"
#include "runtime/affinity.h"
#include "runtime/pool.h"
#include "u128.h"
#if NQ_HAVE_CUDA
#include "gpu/engine.h"
#endif

/* The largest worker count accepted: far beyond any machine, small enough that a typo
 * cannot ask for millions of threads. */
#define MAX_THREADS 4096

struct nq_solver {
    nq_settings s;
    pool_state ps;
    atomic_int running; /* a run is in progress: between run_begin and run_end */
};

/* One run at a time per solver, and a cancel only for the run in progress: a stale
 * cancel from before this run is cleared as it starts. */
static int run_begin(nq_solver *s, nq_result *out)
{
    int idle = 0;
    if (!atomic_compare_exchange_strong(&s->running, &idle, 1)) {
        memset(out, 0, sizeof(*out));
        return NQ_EBUSY;
    }
    atomic_store(&s->ps.cancel, 0);
    return NQ_OK;
}

static void run_end(nq_solver *s)
{
    atomic_store(&s->running, 0);
}

void nq_default_settings(nq_settings *s)
{
    if (!s)
        return;
    memset(s, 0, sizeof(*s));
    s->n = 8;
    s->n_threads = 0;
    s->engine = NQ_ENGINE_D4; /* the fastest; prefix is kept for comparison */
    s->prefix_rows = 0;
    s->pin_threads = 1;
}

static int check_settings(const nq_settings *s)
{
    if (s->n < 1 || s->n > NQ_MAX_N)
        return NQ_EINVAL;
    if (s->n_threads < 0 || s->n_threads > MAX_THREADS)
        return NQ_EINVAL;
    if (s->engine == NQ_ENGINE_CUDA && !NQ_HAVE_CUDA)
        return NQ_EUNSUPPORTED;
    if (s->engine != NQ_ENGINE_PREFIX && s->engine != NQ_ENGINE_D4 && s->engine != NQ_ENGINE_CUDA)
        return NQ_EINVAL;
    if (s->prefix_rows < 0 || s->prefix_rows > s->n)
        return NQ_EINVAL;
    return NQ_OK;
}

int nq_create_solver(nq_solver **out, const nq_settings *s)
{
    nq_solver *sv;
    int rc;

    if (!out || !s)
        return NQ_EINVAL;
    *out = NULL;
    rc = check_settings(s);
    if (rc != NQ_OK)
        return rc;
    sv = calloc(1, sizeof(*sv));
    if (!sv)
        return NQ_ENOMEM;
    sv->s = *s;
    atomic_init(&sv->running, 0);
    if (sv->s.n_threads == 0)
        sv->s.n_threads = affinity_cpu_count();
    rc = pool_state_init(&sv->ps, sv->s.n_threads);
    if (rc != NQ_OK) {
        free(sv);
        return rc;
    }
    *out = sv;
    return NQ_OK;
}

void nq_destroy_solver(nq_solver **s)
{
    if (!s || !*s)
        return;
    pool_state_free(&(*s)->ps);
    free(*s);
    *s = NULL;
}

typedef struct prefix_src {
    int n, rows;
} prefix_src;

static uint64_t prefix_source(void *src, task_emit_fn emit, void *user)
{
    const prefix_src *p = src;
    return prefix_enumerate(p->n, p->rows, emit, user);
}

static uint64_t d4_source(void *src, task_emit_fn emit, void *user)
{
    return d4_enumerate(*(const int *)src, emit, user);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* nq_count's work, inside run_begin / run_end. */
static int count_running(nq_solver *s, const nq_hooks *hooks, nq_result *out)
{
    prefix_src src;
    pool_job job;
    nq_result r;
    double t0;
    int rc;

    memset(&r, 0, sizeof(r));
    t0 = now_seconds();
    src.n = s->s.n;
#if NQ_HAVE_CUDA
    if (s->s.engine == NQ_ENGINE_CUDA) {
        engine_job ej = {s->s.n, s->s.devices, s->s.prefix_rows, hooks, &s->ps};
        rc = engine_run(&ej, &device_backend, &r);
        r.seconds = now_seconds() - t0;
        *out = r;
        return rc;
    }
#endif
    job = (pool_job){.n = s->s.n,
                     .n_threads = s->s.n_threads,
                     .pin = s->s.pin_threads,
                     .hooks = hooks,
                     .source = prefix_source,
                     .src = &src};
    if (s->s.engine == NQ_ENGINE_D4) {
        /* prefix_rows does not apply: the border rows 0 and n-1 are what is placed */
        src.rows = s->s.n > 1 ? 2 : 1;
        job.source = d4_source;
        job.src = &src.n;
        job.complete = d4_complete;
        job.unique = d4_unique;
        job.n_tasks = d4_enumerate(src.n, NULL, NULL);
    } else {
        src.rows = s->s.prefix_rows ? s->s.prefix_rows : prefix_auto_rows(s->s.n, s->s.n_threads);
        job.n_tasks = prefix_enumerate(src.n, src.rows, NULL, NULL);
    }
    rc = pool_run(&s->ps, &job, &r);
    r.seconds = now_seconds() - t0;
    r.prefix_rows = src.rows;
    r.engine = s->s.engine;
    *out = r;
    return rc;
}

int nq_count(nq_solver *s, const nq_hooks *hooks, nq_result *out)
{
    int rc;

    if (!s || !out)
        return NQ_EINVAL;
    rc = run_begin(s, out);
    if (rc != NQ_OK)
        return rc;
    rc = count_running(s, hooks, out);
    run_end(s);
    return rc;
}

int nq_list(nq_solver *s, nq_solution_fn fn, void *user, uint64_t limit, nq_result *out)
{
    list_job job;
    nq_result r;
    double t0;
    int rc;

    if (!s || !fn || !out)
        return NQ_EINVAL;
    rc = run_begin(s, out);
    if (rc != NQ_OK)
        return rc;
    memset(&r, 0, sizeof(r));
    t0 = now_seconds();
    job = (list_job){
        s->s.n,        s->s.n_threads, s->s.pin_threads, s->s.prefix_rows, fn, user, limit,
        &s->ps.cancel, &s->ps};
    rc = list_run(&job, &r);
    run_end(s);
    r.seconds = now_seconds() - t0;
    r.engine = s->s.engine;
    *out = r;
    return rc;
}

void nq_solver_cancel(nq_solver *s)
{
    if (s && atomic_load(&s->running))
        atomic_store_explicit(&s->ps.cancel, 1, memory_order_relaxed);
}

void nq_solver_progress(const nq_solver *s, nq_progress *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    if (s)
        pool_progress(&s->ps, p);
}

int nq_resolve_settings(nq_settings *s)
{
    int rc;

    if (!s)
        return NQ_EINVAL;
    rc = check_settings(s);
    if (rc != NQ_OK)
        return rc;
    /* The same rule nq_count applies, so that a resolved copy names the same task ids. */
    if (s->prefix_rows == 0)
        s->prefix_rows = prefix_auto_rows(s->n, s->n_threads ? s->n_threads : affinity_cpu_count());
    return NQ_OK;
}

int nq_task_count(const nq_settings *s, uint64_t *n_tasks)
{
    nq_task_set ts;
    int rc;

    if (!s || !n_tasks)
        return NQ_EINVAL;
    rc = check_settings(s);
    if (rc == NQ_OK)
        rc = nq_task_set_describe(s, &ts); /* the one place that knows each engine's set */
    if (rc == NQ_OK)
        *n_tasks = ts.tasks;
    return rc;
}

int nq_count_tasks(nq_solver *s, const uint64_t *ids, size_t n_ids, const nq_hooks *hooks,
                   nq_result *out)
{
    uint64_t n_tasks;
    int rc;

    if (!s || !out || (n_ids && !ids))
        return NQ_EINVAL;
    rc = nq_task_count(&s->s, &n_tasks);
    if (rc != NQ_OK)
        return rc;
    /* Ascending ids let the pool filter the source's stream with one cursor. */
    for (size_t i = 0; i < n_ids; i++)
        if (ids[i] >= n_tasks || (i && ids[i] <= ids[i - 1]))
            return NQ_EINVAL;
    static const uint64_t no_ids[1];
    rc = run_begin(s, out);
    if (rc != NQ_OK)
        return rc;
    s->ps.only = n_ids ? ids : no_ids; /* non-NULL: an empty set runs nothing */
    s->ps.n_only = n_ids;
    rc = count_running(s, hooks, out);
    s->ps.only = NULL;
    s->ps.n_only = 0;
    run_end(s);
    return rc;
}

int nq_available_cpus(void)
{
    return affinity_cpu_count();
}

static const char *const engine_names[] = {"prefix", "d4", "cuda"};

const char *nq_engine_name(int engine)
{
    if (engine < 0 || engine >= (int)(sizeof(engine_names) / sizeof(engine_names[0])))
        return "unknown";
    return engine_names[engine];
}

int nq_engine_from_name(const char *name)
{
    for (int i = 0; name && i < (int)(sizeof(engine_names) / sizeof(engine_names[0])); i++)
        if (strcmp(name, engine_names[i]) == 0)
            return i == NQ_ENGINE_CUDA && !NQ_HAVE_CUDA ? NQ_EUNSUPPORTED : i;
    return NQ_EINVAL;
}

/* One table from status to text, so the CLI and every binding say the same thing. */
static const struct {
    int status;
    const char *text;
} status_text[] = {
    {NQ_OK, "success"},
    {NQ_EINVAL, "invalid argument"},
    {NQ_ENOMEM, "out of memory"},
    {NQ_ETHREAD, "could not start a worker thread"},
    {NQ_ECANCELED, "run canceled"},
    {NQ_ECALLBACK, "run stopped by a callback"},
    {NQ_EUNKNOWN, "no published value for this n"},
    {NQ_EUNSUPPORTED, "not supported by this build"},
    {NQ_EIO, "input/output error"},
    {NQ_ECORRUPT, "journal is damaged"},
    {NQ_EMISMATCH, "journal belongs to another run"},
    {NQ_ENODEV, "no usable GPU (no device, no driver, or none of those selected)"},
    {NQ_EDEVICE, "the GPU reported an error"},
    {NQ_EBUSY, "the solver is busy with another run"},
};

const char *nq_strerror(int status)
{
    for (size_t i = 0; i < sizeof(status_text) / sizeof(status_text[0]); i++)
        if (status_text[i].status == status)
            return status_text[i].text;
    return "unknown status";
}

const char *nq_version(void)
{
    return NQ_VERSION_STRING;
}
