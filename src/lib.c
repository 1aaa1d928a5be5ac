/* The public API: settings, the solver handle, and dispatch to the engines. Checks every
 * argument at this edge so that the engines can assume sane input. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/clock.h"
#include "core/cpu.h"
#include "core/stop.h"
#include "engine_table.h"
#include "engines/slice.h"
#include "lib.h"
#include "runtime/affinity.h"
#include "runtime/estimate.h"
#include "runtime/list.h"
#include "runtime/pool.h"

struct nq_solver {
    nq_settings s;      /* as asked, with n_threads resolved: what nq_list and the GPU take */
    nq_settings rs;     /* s resolved once (resolve_checked): what the CPU runtimes run */
    run_state run;      /* progress, cancel flag and task filter, shared by the runtimes */
    atomic_int running; /* a run is in progress: between run_begin and run_end */
    uint64_t set_tasks; /* the task count, once a run has made it (0: not yet); runs only */
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
    atomic_store(&s->run.cancel, 0);
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
    s->engine = NQ_ENGINE_AUTO; /* the fastest for the board: join, or d4 past its tables */
    s->prefix_rows = 0;
    s->pin_threads = 1;
}

int lib_check_settings(const nq_settings *s)
{
    const engine_desc *e = engine_of(s);

    if (s->n < 1 || s->n > NQ_MAX_N)
        return NQ_EINVAL;
    if (s->n_threads < 0 || s->n_threads > NQ_MAX_THREADS)
        return NQ_EINVAL;
    if (e && !e->built)
        return NQ_EUNSUPPORTED;
    if (!e)
        return NQ_EINVAL;
    if (s->prefix_rows < 0 || s->prefix_rows > s->n)
        return NQ_EINVAL;
    if (s->n < engine_min_n(e) || s->n > engine_max_n(e))
        return NQ_EINVAL;
    if (s->simd < NQ_SIMD_AUTO || s->simd > NQ_SIMD_AVX512)
        return NQ_EINVAL;
    if (!engine_simd_usable(e, s->simd))
        return NQ_EUNSUPPORTED;
    if (s->worker_memory &&
        (s->worker_memory < NQ_WORKER_MEMORY_MIN || s->worker_memory > NQ_WORKER_MEMORY_MAX))
        return NQ_EINVAL;
    if (s->slice_count < 0 || s->slice_count > NQ_MAX_SLICES || s->slice_index < 0 ||
        (s->slice_count ? s->slice_index >= s->slice_count : s->slice_index != 0))
        return NQ_EINVAL;
    return NQ_OK;
}

/* s's engine (auto's pick), and s resolved as nq_count runs it into *rs; s must be
 * checked. The one resolution that every entry point makes, so that the task ids each
 * names are the run's. */
static const engine_desc *resolve_checked(const nq_settings *s, nq_settings *rs)
{
    const engine_desc *e = engine_of(s);

    *rs = *s;
    rs->engine = e->id;
    engine_resolve(e, rs);
    return e;
}

int lib_resolve(const nq_settings *s, nq_settings *rs)
{
    int rc = lib_check_settings(s);

    if (rc == NQ_OK)
        resolve_checked(s, rs);
    return rc;
}

/* The start of every call that takes settings s and answers through pointers:
 * NQ_EINVAL without s or without an answer's pointer (answers 0), else s resolved into
 * *rs with lib_resolve's status. */
static int resolve_call(const nq_settings *s, int answers, nq_settings *rs)
{
    if (!s || !answers)
        return NQ_EINVAL;
    return lib_resolve(s, rs);
}

int nq_create_solver(nq_solver **out, const nq_settings *s)
{
    nq_solver *sv;
    int rc;

    if (!out || !s)
        return NQ_EINVAL;
    *out = NULL;
    rc = lib_check_settings(s);
    if (rc != NQ_OK)
        return rc;
    sv = calloc(1, sizeof(*sv));
    if (!sv)
        return NQ_ENOMEM;
    sv->s = *s;
    sv->s.n_threads = nq_resolve_threads(s->n_threads);
    resolve_checked(&sv->s, &sv->rs);
    atomic_init(&sv->running, 0);
    rc = run_state_init(&sv->run, sv->s.n_threads);
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
    run_state_free(&(*s)->run);
    free(*s);
    *s = NULL;
}

/* The task count of resolved settings rs (the GPU resolves its own, with the same task
 * ids), or NQ_ECANCELED once stop (NULL: none) is set: the join's walks every column set
 * of its top rows, 6 s at n = 27. */
static int task_count_until(const nq_settings *rs, const atomic_int *stop, uint64_t *tasks)
{
    board_bound bound = {BOARD_NODES_UNBOUNDED, stop};

    return engine_task_count(engine_of(rs), rs, &bound, tasks) != 0 ? NQ_ECANCELED : NQ_OK;
}

/* Inside a run: s's task count, made by its first run only (nqueens-mpi runs batch after
 * batch on one solver), and ended by the run's cancel. */
static int run_task_count(nq_solver *s, uint64_t *tasks)
{
    int rc = NQ_OK;

    if (!s->set_tasks)
        rc = task_count_until(&s->rs, &s->run.cancel, &s->set_tasks);
    if (rc != NQ_OK)
        s->set_tasks = 0; /* a count cut short */
    *tasks = s->set_tasks;
    return rc;
}

/* The task set's size and, for a slice, its range, which the run's filter then takes:
 * both go into r. A deep prefix's count and a slice's cut take long: they end on a
 * cancel (NQ_ECANCELED). */
static int slice_begin(nq_solver *s, const engine_desc *e, nq_result *r)
{
    const nq_settings *rs = &s->rs;
    int rc;

    if ((rc = run_task_count(s, &r->set_tasks)) != NQ_OK)
        return rc;
    rc = engine_slice_range(e, rs, r->set_tasks, &s->run.cancel, &r->first_task, &r->end_task);
    if (rc != NQ_OK)
        return rc;
    r->slice_index = rs->slice_index;
    r->slice_count = rs->slice_count;
    s->run.ranged = rs->slice_count > 0;
    s->run.first = r->first_task;
    s->run.end = r->end_task;
    return NQ_OK;
}

/* nq_count's work, inside run_begin / run_end. */
static int count_running(nq_solver *s, const nq_hooks *hooks, nq_result *out)
{
    const engine_desc *e = engine_of(&s->rs);
    const nq_settings *rs = &s->rs;
    nq_result r;
    double t0, u0, s0, u1, s1;
    int rc;

    memset(&r, 0, sizeof(r));
    run_begin_count(&s->run);
    t0 = clock_seconds();
    clock_cpu_split(&u0, &s0);
    if ((rc = slice_begin(s, e, &r)) != NQ_OK) {
        *out = r;
        return rc;
    }
    if (e->run) {
        /* as asked: the GPU chooses its own inner rows for a prefix_rows left at 0 */
        nq_settings as = s->s;
        as.engine = e->id;
        rc = e->run(&as, hooks, &s->run, &r);
    } else {
        pool_job job = {.engine = e,
                        .s = rs,
                        .n_threads = rs->n_threads,
                        .pin = rs->pin_threads,
                        .hooks = hooks,
                        .n_tasks = r.set_tasks}; /* the same resolution as slice_begin's */
        rc = pool_run(&s->run, &job, &r);
        r.prefix_rows = e->placed_rows(rs);
        r.engine = e->id;
        r.simd = engine_simd(e, rs);
        r.worker_memory = engine_worker_memory(e, rs);
    }
    /* the setup is reported apart, not in the count's times */
    r.setup_seconds = s->run.setup_seconds;
    r.seconds = clock_seconds() - t0 - r.setup_seconds;
    clock_cpu_split(&u1, &s1);
    r.user_seconds = u1 - u0 - s->run.setup_user;
    r.system_seconds = s1 - s0 - s->run.setup_system;
    r.tasks_reused = s->run.reused_tasks;
    r.reused_total = u128_pack(s->run.reused);
    r.partial = s->run.only ? r.tasks < r.set_tasks : r.end_task - r.first_task < r.set_tasks;
    if (s->run.only)
        r.first_task = r.end_task = 0;
    s->run.ranged = 0;
    *out = r;
    return rc;
}

/* The peak bytes a count of resolved settings rs takes on its workers (0: every CPU),
 * and the limit it is held to. */
static void memory_of(const nq_settings *rs, uint64_t *bytes, uint64_t *limit)
{
    const engine_desc *e = engine_of(rs);
    nq_settings w = *rs;

    w.n_threads = nq_resolve_threads(rs->n_threads);
    *bytes = e->memory_bytes ? e->memory_bytes(&w) : 0;
    *limit = rs->memory_limit ? rs->memory_limit : affinity_memory_bytes();
}

int nq_memory_estimate(const nq_settings *s, uint64_t *bytes, uint64_t *limit)
{
    nq_settings rs;
    int rc = resolve_call(s, bytes && limit, &rs);

    if (rc == NQ_OK)
        memory_of(&rs, bytes, limit);
    return rc;
}

/* NQ_EMEMORY for a count that would not fit its memory limit: refused before the
 * engine allocates anything, rather than killed (or swapping) hours in. The solver's
 * settings were checked and resolved when it was made. */
static int memory_fits(const nq_solver *s, nq_result *out)
{
    uint64_t bytes, limit;

    memory_of(&s->rs, &bytes, &limit);
    if (bytes > limit) {
        memset(out, 0, sizeof(*out));
        return NQ_EMEMORY;
    }
    return NQ_OK;
}

/* The start of nq_count and nq_count_tasks: a count that would not fit its memory is
 * refused, then the run begins (run_begin: NQ_EBUSY while another is in progress). */
static int count_begin(nq_solver *s, nq_result *out)
{
    int rc = memory_fits(s, out);

    return rc == NQ_OK ? run_begin(s, out) : rc;
}

int nq_count(nq_solver *s, const nq_hooks *hooks, nq_result *out)
{
    int rc;

    if (!s || !out)
        return NQ_EINVAL;
    rc = count_begin(s, out);
    if (rc != NQ_OK)
        return rc;
    rc = count_running(s, hooks, out);
    run_end(s);
    return rc;
}

int nq_list(nq_solver *s, nq_solution_fn fn, void *user, uint64_t limit, nq_result *out)
{
    const engine_desc *e;
    list_job job;
    nq_result r;
    double t0, u0, s0;
    int rc;

    if (!s || !fn || !out)
        return NQ_EINVAL;
    /* auto lists with its preferred engine that lists, whatever it would count with */
    e = s->s.engine == NQ_ENGINE_AUTO ? engine_pick(s->s.n, 1) : engine_find(s->s.engine);
    if (!e || !e->list)
        return NQ_EUNSUPPORTED;
    rc = run_begin(s, out);
    if (rc != NQ_OK)
        return rc;
    memset(&r, 0, sizeof(r));
    t0 = clock_seconds();
    job = (list_job){s->s.n, s->s.n_threads, s->s.pin_threads, s->s.prefix_rows, fn,
                     user,   limit,          &s->run};
    clock_cpu_split(&u0, &s0);
    rc = list_run(e->list, &job, &r);
    run_end(s);
    r.seconds = clock_seconds() - t0;
    clock_cpu_split(&r.user_seconds, &r.system_seconds);
    r.user_seconds -= u0;
    r.system_seconds -= s0;
    r.engine = s->s.engine;
    *out = r;
    return rc;
}

void nq_solver_cancel(nq_solver *s)
{
    if (s && atomic_load(&s->running))
        atomic_store_explicit(&s->run.cancel, 1, memory_order_relaxed);
}

int nq_stop_create(nq_stop **out)
{
    if (!out)
        return NQ_EINVAL;
    *out = malloc(sizeof(**out));
    if (!*out)
        return NQ_ENOMEM;
    atomic_init(&(*out)->flag, 0);
    return NQ_OK;
}

void nq_stop_request(nq_stop *stop)
{
    if (stop)
        atomic_store_explicit(&stop->flag, 1, memory_order_relaxed);
}

int nq_stop_requested(const nq_stop *stop)
{
    return stop_seen(stop_flag(stop));
}

void nq_stop_destroy(nq_stop **stop)
{
    if (!stop)
        return;
    free(*stop);
    *stop = NULL;
}

void nq_solver_progress(const nq_solver *s, nq_progress *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    if (s)
        run_progress(&s->run, p);
}

int nq_resolve_settings(nq_settings *s)
{
    nq_settings rs;
    int rc = resolve_call(s, 1, &rs);

    if (rc == NQ_OK)
        *s = rs;
    return rc;
}

int nq_task_count(const nq_settings *s, uint64_t *n_tasks)
{
    return nq_task_count_stoppable(s, NULL, n_tasks);
}

int nq_task_count_stoppable(const nq_settings *s, const nq_stop *stop, uint64_t *n_tasks)
{
    nq_settings rs;
    int rc = resolve_call(s, n_tasks != NULL, &rs);

    return rc == NQ_OK ? task_count_until(&rs, stop_flag(stop), n_tasks) : rc;
}

/* Ascending ids let the pool filter the source's stream with one cursor. */
static int check_ids(const uint64_t *ids, size_t n_ids, uint64_t n_tasks)
{
    for (size_t i = 0; i < n_ids; i++)
        if (ids[i] >= n_tasks || (i && ids[i] <= ids[i - 1]))
            return NQ_EINVAL;
    return NQ_OK;
}

int nq_count_tasks(nq_solver *s, const uint64_t *ids, size_t n_ids, const nq_hooks *hooks,
                   nq_result *out)
{
    static const uint64_t no_ids[1];
    uint64_t n_tasks;
    int rc;

    /* ids name tasks of the whole set: a slice's solver would make another one */
    if (!s || !out || (n_ids && !ids) || s->s.slice_count)
        return NQ_EINVAL;
    rc = count_begin(s, out);
    if (rc != NQ_OK)
        return rc;
    /* The ids are checked against a count made inside the run, where a cancel ends it. */
    memset(out, 0, sizeof(*out));
    if ((rc = run_task_count(s, &n_tasks)) == NQ_OK &&
        (rc = check_ids(ids, n_ids, n_tasks)) == NQ_OK) {
        s->run.only = n_ids ? ids : no_ids; /* non-NULL: an empty set runs nothing */
        s->run.n_only = n_ids;
        rc = count_running(s, hooks, out);
        s->run.only = NULL;
        s->run.n_only = 0;
    }
    run_end(s);
    return rc;
}

void nq_default_estimate_options(nq_estimate_options *o)
{
    if (!o)
        return;
    /* timing_error: the run-to-run spread of a count's CPU time on the shared development
     * machines (a coefficient of variation of 8%, join n = 17 on an AMD Zen 5):
     * docs/estimate.md */
    *o = (nq_estimate_options){.seconds = 10, .timing_error = 0.08};
}

static int check_estimate_options(const nq_estimate_options *o)
{
    if (!(o->seconds > 0) || !isfinite(o->seconds))
        return NQ_EINVAL;
    if (!(o->timing_error >= 0) || !isfinite(o->timing_error) || o->max_strata < 0 ||
        !(o->part_seconds >= 0))
        return NQ_EINVAL;
    return NQ_OK;
}

int nq_estimate(nq_solver *s, const nq_estimate_options *o, nq_estimate_result *out)
{
    const engine_desc *e;
    nq_result busy;
    int rc;

    if (!s || !o || !out)
        return NQ_EINVAL;
    memset(out, 0, sizeof(*out));
    rc = check_estimate_options(o);
    if (rc != NQ_OK)
        return rc;
    e = engine_of(&s->rs);
    if (e->run)
        return NQ_EUNSUPPORTED; /* a runtime of its own: no per-task CPU time to sample */
    rc = run_begin(s, &busy);
    if (rc != NQ_OK)
        return rc;
    rc = estimate_run(&s->run, e, &s->rs, o, out);
    run_end(s);
    return rc;
}

int nq_slice_range(const nq_settings *s, uint64_t *first, uint64_t *end)
{
    nq_settings rs;
    int rc = resolve_call(s, first && end, &rs);
    const engine_desc *e = rc == NQ_OK ? engine_of(&rs) : NULL;

    return e ? engine_slice_range(e, &rs, e->task_count(&rs), NULL, first, end) : rc;
}

int nq_task_costs(const nq_settings *s, double *costs, uint64_t n_tasks)
{
    nq_settings rs;
    int rc = resolve_call(s, costs || !n_tasks, &rs);

    return rc == NQ_OK ? engine_task_costs(engine_of(&rs), &rs, costs, n_tasks, 0, NULL) : rc;
}

const char *nq_engine_name(int engine)
{
    const engine_desc *e = engine_find(engine);

    if (engine == NQ_ENGINE_AUTO)
        return "auto";
    return e ? e->name : "unknown";
}

int nq_engine_max_n(int engine)
{
    nq_engine_info info;
    int rc = nq_engine_describe(engine, &info);

    return rc == NQ_OK ? info.max_n : rc;
}

static void engine_info_of(const engine_desc *e, nq_engine_info *out)
{
    *out = (nq_engine_info){
        .engine = e->id,
        .name = e->name,
        .built = e->built,
        .min_n = engine_min_n(e),
        .max_n = engine_max_n(e),
        .task_family = engine_family(e)->id,
        .takes_prefix_rows = e->takes_prefix_rows,
        .takes_devices = e->takes_devices,
        .pins_workers = e->pins_workers,
        .has_simd = e->simd_paths != NULL,
        .has_unique = e->unique != NULL,
        .can_list = e->list != NULL,
        .takes_worker_memory = e->takes_worker_memory,
        .auto_rank = e->auto_rank,
    };
}

/* auto: what the engines it may pick have, one flag at a time. */
static void auto_info(nq_engine_info *out)
{
    *out = (nq_engine_info){.engine = NQ_ENGINE_AUTO,
                            .name = "auto",
                            .built = 1,
                            .min_n = NQ_MAX_N + 1,
                            .task_family = NQ_ENGINE_AUTO};
    for (int i = 0; i < engine_count; i++) {
        nq_engine_info c;
        if (!engine_table[i]->built || engine_table[i]->auto_rank <= 0)
            continue;
        engine_info_of(engine_table[i], &c);
        out->min_n = c.min_n < out->min_n ? c.min_n : out->min_n;
        out->max_n = c.max_n > out->max_n ? c.max_n : out->max_n;
        out->takes_prefix_rows |= c.takes_prefix_rows;
        out->takes_devices |= c.takes_devices;
        out->pins_workers |= c.pins_workers;
        out->has_simd |= c.has_simd;
        out->has_unique |= c.has_unique;
        out->can_list |= c.can_list;
        out->takes_worker_memory |= c.takes_worker_memory;
    }
}

int nq_engine_describe(int engine, nq_engine_info *out)
{
    const engine_desc *e = engine_find(engine);

    if (!out)
        return NQ_EINVAL;
    if (engine == NQ_ENGINE_AUTO)
        auto_info(out);
    else if (e)
        engine_info_of(e, out);
    else
        return NQ_EINVAL;
    return NQ_OK;
}

int nq_engine_from_name(const char *name)
{
    const engine_desc *e = engine_by_name(name);

    if (name && strcmp(name, "auto") == 0)
        return NQ_ENGINE_AUTO;
    if (!e)
        return NQ_EINVAL;
    return e->built ? e->id : NQ_EUNSUPPORTED;
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
    {NQ_EMEMORY, "the count needs more memory than its limit"},
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

static const char *const simd_names[] = {"auto", "scalar", "avx2", "avx512"};

const char *nq_simd_name(int simd)
{
    return simd >= NQ_SIMD_AUTO && simd <= NQ_SIMD_AVX512 ? simd_names[simd] : "unknown";
}

int nq_simd_from_name(const char *name)
{
    for (int i = NQ_SIMD_AUTO; name && i <= NQ_SIMD_AVX512; i++)
        if (strcmp(name, simd_names[i]) == 0)
            return i;
    return NQ_EINVAL;
}

int nq_simd_built(int simd)
{
    /* 0 for a value that names no path */
    return simd == NQ_SIMD_AUTO || (simd > NQ_SIMD_AUTO && simd <= NQ_SIMD_AVX512 &&
                                    (engine_simd_paths() & CPU_SIMD_BIT(simd)));
}

int nq_simd_usable(int simd)
{
    return engine_simd_usable(NULL, simd);
}

int nq_simd_auto(void)
{
    return cpu_simd_pick(engine_simd_paths(), NQ_SIMD_AUTO);
}
