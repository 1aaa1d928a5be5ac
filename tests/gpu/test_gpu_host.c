/* The GPU engine without a GPU: the search of src/gpu/search.h (the code the kernel
 * runs) against the d4 engine task by task and against OEIS, walks interleaved in one
 * strided stack as a warp runs them, and the whole host side (gpu_run: expansion,
 * chunks, devices, hooks, reduction) driven through a CPU backend. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "config.h"
#include "engine_check_settings.h"
#include "engines/d4.h"
#include "gpu/gpu_expand.h"
#include "gpu/gpu_plan.h"
#include "gpu/gpu_ring.h"
#include "gpu/gpu_run.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"

typedef struct d4_task_list {
    task t[20000];
    uint64_t n;
} d4_task_list;

static int keep_task(void *user, const task *t)
{
    d4_task_list *l = user;
    cr_assert_lt(l->n, 20000);
    l->t[l->n++] = *t;
    return 0;
}

static d4_task_list *tasks_of(int n)
{
    d4_task_list *l = calloc(1, sizeof(*l));
    cr_assert_not_null(l);
    d4_enumerate(n, keep_task, l);
    return l;
}

typedef struct sub_list {
    search_sub s[1 << 16];
    uint64_t n;
} sub_list;

static int keep_sub(void *user, const search_sub *s)
{
    sub_list *l = user;
    cr_assert_lt(l->n, 1 << 16);
    l->s[l->n++] = *s;
    return 0;
}

/* The completions of task t when the host places rows rows first and the walk does the
 * rest, one sub-task at a time with a plain stack. */
static uint64_t complete_by_subs(int n, const task *t, int rows, sub_list *subs)
{
    search_plan p;
    uint32_t stack[4 * 32];
    uint64_t sum = 0;

    gpu_plan_build(n, t, &p);
    subs->n = 0;
    cr_assert_eq(gpu_expand(&p, 7, rows, keep_sub, subs), subs->n);
    cr_assert_eq(gpu_expand(&p, 7, rows, NULL, NULL), subs->n, "counting = emitting");
    for (uint64_t i = 0; i < subs->n; i++) {
        cr_assert_eq(subs->s[i].plan_depth >> 5, 7);
        sum += search_count(&p, &subs->s[i], stack, 1);
    }
    return sum;
}

Test(unit, search_matches_d4_task_by_task_and_oeis)
{
    static const int rows[] = {0, 1, 2, 3, 5, 29};
    sub_list *subs = malloc(sizeof(*subs));

    cr_assert_not_null(subs);
    for (int n = 4; n <= 14; n++) {
        d4_task_list *l = tasks_of(n);
        for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
            uint64_t total = 0, unique = 0;
            for (uint64_t i = 0; i < l->n; i++) {
                uint64_t want = d4_complete(n, &l->t[i]);
                uint64_t got = complete_by_subs(n, &l->t[i], rows[k], subs);
                cr_assert_eq(got, want, "n=%d task %llu rows=%d", n, (unsigned long long)i,
                             rows[k]);
                total += got * l->t[i].weight;
                unique += d4_unique(n, &l->t[i], got);
            }
            cr_assert_eq(total, oeis_value("A000170", n), "n=%d rows=%d", n, rows[k]);
            cr_assert_eq(unique, oeis_value("A002562", n), "n=%d rows=%d", n, rows[k]);
        }
        free(l);
    }
    free(subs);
}

/* The kernel sizes each thread's shared-memory stack by search_levels: a walk that saved
 * more entries would write into another thread's stack and count wrong without a sign.
 * Every walk of n = 4..13, from every host depth, stays within it, and its row after
 * going back (the popcount of cols) is one it saved. */
Test(unit, walks_stay_within_their_stack_levels)
{
    sub_list *subs = malloc(sizeof(*subs));
    uint32_t stack[4 * 32];

    cr_assert_not_null(subs);
    for (int n = 4; n <= 13; n++) {
        d4_task_list *l = tasks_of(n);
        uint64_t total = 0;
        int most = 0;
        for (uint64_t i = 0; i < l->n; i++) {
            search_plan p;
            gpu_plan_build(n, &l->t[i], &p);
            for (int rows = 0; rows <= 4; rows++) {
                uint64_t sum = 0;
                subs->n = 0;
                gpu_expand(&p, 0, rows, keep_sub, subs);
                for (uint64_t j = 0; j < subs->n; j++) {
                    const search_sub *s = &subs->s[j];
                    int d0 = (int)(s->plan_depth & 31), limit = search_levels(&p, d0);
                    search_walk w;
                    int more = search_start(&w, &p, d0, s->cols, s->ld, s->rd);
                    while (more) {
                        more = search_step(&w, stack, 1);
                        cr_assert_leq(w.sp, limit, "n=%d task %llu d0=%d", n, (unsigned long long)i,
                                      d0);
                        cr_assert_eq(search_popcount(w.cols), w.d);
                        most = w.sp > most ? w.sp : most;
                    }
                    sum += w.count;
                }
                if (rows == 0)
                    total += sum * l->t[i].weight;
                cr_assert_eq(sum, d4_complete(n, &l->t[i]), "n=%d task %llu rows=%d", n,
                             (unsigned long long)i, rows);
            }
        }
        cr_assert_eq(total, oeis_value("A000170", n), "n=%d", n);
        if (n >= 10)
            cr_assert_gt(most, 1, "n=%d: the walks saved rows", n);
        free(l);
    }
    free(subs);
}

/* Several walks stepped in turn over one stack with stride = their number, each at its
 * own offset, as the threads of a block share the kernel's shared memory: no walk may
 * see another's levels. Lanes that finish take the next sub-task, as in the kernel. */
Test(unit, interleaved_walks_share_one_strided_stack)
{
    enum { LANES = 7 };
    sub_list *subs = malloc(sizeof(*subs));
    uint32_t stack[4 * 32 * LANES];

    cr_assert_not_null(subs);
    for (int n = 8; n <= 13; n++) {
        d4_task_list *l = tasks_of(n);
        search_plan *plans = calloc(l->n, sizeof(*plans));
        uint64_t total = 0, next = 0;
        search_walk w[LANES];
        uint64_t weight[LANES];
        int busy[LANES] = {0}, live = 1;

        cr_assert_not_null(plans);
        subs->n = 0;
        for (uint64_t i = 0; i < l->n; i++) {
            gpu_plan_build(n, &l->t[i], &plans[i]);
            gpu_expand(&plans[i], (uint32_t)i, 2, keep_sub, subs);
        }
        while (live) {
            live = 0;
            for (int lane = 0; lane < LANES; lane++) {
                if (!busy[lane] && next < subs->n) {
                    const search_sub *s = &subs->s[next++];
                    weight[lane] = l->t[s->plan_depth >> 5].weight;
                    busy[lane] = search_start(&w[lane], &plans[s->plan_depth >> 5],
                                              (int)(s->plan_depth & 31), s->cols, s->ld, s->rd);
                    if (!busy[lane])
                        total += w[lane].count * weight[lane];
                } else if (busy[lane] && !search_step(&w[lane], stack + lane, LANES)) {
                    total += w[lane].count * weight[lane];
                    busy[lane] = 0;
                }
                live |= busy[lane] || next < subs->n;
            }
        }
        cr_assert_eq(total, oeis_value("A000170", n), "n=%d", n);
        free(plans);
        free(l);
    }
    free(subs);
}

/* ---- gpu_run through a CPU backend ---------------------------------------------- */

/* The chunk cap of the runs below (nq_gpu_settings.chunk_subtasks; 0: the built-in one),
 * which a test sets before it runs the engine. */
static uint64_t chunk_cap;

typedef struct cpu_backend {
    int devices;         /* what devices() reports (negative: a status) */
    int fail_at_call;    /* submit returns NQ_EDEVICE on this call (1-based); 0 never */
    int fail_open;       /* open returns NQ_EDEVICE */
    uint64_t stop_after; /* once this many sub-tasks ran, stop the run (the solver's cancel flag); 0
                            never */
    atomic_int *cancel;
    atomic_int calls, opened, closed, most_in_flight;
    atomic_ullong subs_run;
    atomic_int used[8];
    /* The sub-task buffers submitted: the distinct ones of the run, and those in flight
     * by device and slot; gpu_run's ring bounds both. */
    atomic_uintptr_t bufs[64], in_flight[8][2];
    atomic_int n_bufs;
    /* What the engine did wrong, found in its device threads (an assertion there would
     * not fail the test cleanly) and checked by backend_clean after gpu_run. */
    atomic_int violations;
    const char *first_violation;
} cpu_backend;

/* Records a broken rule of the backend interface; NQ_EDEVICE, for the callback to return. */
static int backend_bad(cpu_backend *b, const char *what)
{
    if (atomic_fetch_add(&b->violations, 1) == 0)
        b->first_violation = what;
    return NQ_EDEVICE;
}

#define BACKEND_CHECK(b, cond, what)                                                               \
    do {                                                                                           \
        if (!(cond))                                                                               \
            return backend_bad(b, what);                                                           \
    } while (0)

/* After gpu_run has joined its device threads: the backend saw no broken rule. */
static void backend_clean(const cpu_backend *b)
{
    cr_expect_eq(atomic_load(&b->violations), 0, "the engine broke a backend rule: %s",
                 b->first_violation ? b->first_violation : "");
}

/* One device of the CPU backend: the batch of each slot is run by wait, one sub-task at
 * a time, polling stop between them as the kernel's threads check before each grab. */
typedef struct cpu_device {
    cpu_backend *b;
    int dev, levels, in_flight;
    uint64_t max_subs;
    const search_plan *plans;
    uint32_t n_plans;
    struct {
        const search_sub *subs;
        uint64_t n, *counts;
    } slot[2];
} cpu_device;

static int cpu_devices(void *user)
{
    return ((cpu_backend *)user)->devices;
}

static int cpu_open(void *user, int dev, const search_plan *plans, uint32_t n_plans, void **handle)
{
    cpu_backend *b = user;
    cpu_device *d;

    *handle = NULL;
    BACKEND_CHECK(b, dev < b->devices, "open of a device past devices()");
    if (b->fail_open)
        return NQ_EDEVICE;
    d = calloc(1, sizeof(*d));
    BACKEND_CHECK(b, d, "out of memory");
    *d = (cpu_device){.b = b, .dev = dev, .plans = plans, .n_plans = n_plans, .levels = -1};
    atomic_fetch_add(&b->opened, 1);
    *handle = d;
    return NQ_OK;
}

static int cpu_start(void *handle, uint64_t max_subs, int levels, const nq_gpu_settings *gpu)
{
    (void)gpu;
    cpu_device *d = handle;
    d->max_subs = max_subs;
    d->levels = levels;
    return NQ_OK;
}

/* Notes buffer subs in flight on device dev's slot: no other batch in flight may use it
 * (the engine would be rewriting a buffer a device still reads), and the run may use no
 * more distinct buffers than the engine's ring holds. */
static void buffer_in_flight(cpu_backend *b, int dev, int slot, const search_sub *subs)
{
    uintptr_t p = (uintptr_t)subs;
    int known = 0, n;

    for (int d = 0; d < 8; d++)
        for (int s = 0; s < 2; s++)
            if (atomic_load(&b->in_flight[d][s]) == p)
                backend_bad(b, "a buffer in flight twice");
    atomic_store(&b->in_flight[dev][slot], p);
    n = atomic_load(&b->n_bufs);
    for (int i = 0; i < n && i < 64; i++)
        known |= atomic_load(&b->bufs[i]) == p;
    if (!known) {
        n = atomic_fetch_add(&b->n_bufs, 1);
        if (n < 64)
            atomic_store(&b->bufs[n], p);
    }
}

static int cpu_submit(void *handle, int slot, const search_sub *subs, uint64_t n_subs,
                      uint64_t *counts)
{
    cpu_device *d = handle;
    cpu_backend *b = d->b;

    BACKEND_CHECK(b, d->levels >= 0, "submit before start");
    BACKEND_CHECK(b, slot == 0 || slot == 1, "a slot other than 0 and 1");
    BACKEND_CHECK(b, !d->slot[slot].subs, "a slot submitted twice");
    BACKEND_CHECK(b, n_subs <= d->max_subs, "a batch over start's max_subs");
    /* a chunk over the cap is one task: its sub-tasks share one plan */
    if (chunk_cap && n_subs > chunk_cap)
        for (uint64_t i = 1; i < n_subs; i++)
            BACKEND_CHECK(b, subs[i].plan_depth >> 5 == subs[0].plan_depth >> 5,
                          "a chunk over the cap with more than one task");
    if (atomic_fetch_add(&b->calls, 1) + 1 == b->fail_at_call)
        return NQ_EDEVICE;
    buffer_in_flight(b, d->dev, slot, subs);
    atomic_fetch_add(&b->used[d->dev], 1);
    d->slot[slot].subs = subs;
    d->slot[slot].n = n_subs;
    d->slot[slot].counts = counts;
    if (++d->in_flight > atomic_load(&b->most_in_flight))
        atomic_store(&b->most_in_flight, d->in_flight);
    return NQ_OK;
}

static int cpu_wait(void *handle, int slot, int (*stop)(void *arg), void *arg, uint64_t *done)
{
    cpu_device *d = handle;
    cpu_backend *b = d->b;
    uint32_t stack[4 * 32];
    uint64_t i;

    BACKEND_CHECK(b, d->slot[slot].subs, "wait on an idle slot");
    for (i = 0; i < d->slot[slot].n && !stop(arg); i++) {
        const search_sub *s = &d->slot[slot].subs[i];
        const search_plan *p = &d->plans[s->plan_depth >> 5];
        BACKEND_CHECK(b, s->plan_depth >> 5 < d->n_plans, "a sub-task of a plan past n_plans");
        BACKEND_CHECK(b, search_levels(p, (int)(s->plan_depth & 31)) <= d->levels,
                      "a sub-task deeper than start's levels");
        d->slot[slot].counts[i] = search_count(p, s, stack, 1);
        if (atomic_fetch_add(&b->subs_run, 1) + 1 == b->stop_after)
            atomic_store(b->cancel, 1);
    }
    *done = i;
    atomic_store(&b->in_flight[d->dev][slot], 0);
    d->slot[slot].subs = NULL;
    d->in_flight--;
    return NQ_OK;
}

static void cpu_close(void *handle)
{
    cpu_device *d = handle;
    if (d->in_flight != 0)
        backend_bad(d->b, "closed with a batch in flight");
    atomic_fetch_add(&d->b->closed, 1);
    free(d);
}

static gpu_backend backend_of(cpu_backend *b, int devices)
{
    memset(b, 0, sizeof(*b));
    b->devices = devices;
    return (gpu_backend){b, cpu_devices, cpu_open, cpu_start, cpu_submit, cpu_wait, cpu_close};
}

typedef struct recorder {
    uint64_t *sub;
    uint8_t *seen;
    uint64_t n;
    uint64_t reuse_below; /* reuse tasks with id < this from want[] */
    const uint64_t *want;
    uint64_t fail_id;                  /* task_done fails for this id; UINT64_MAX never */
    const struct recorder *reuse_from; /* rec_reuse_seen: reuse the tasks it saw */
    /* Found in the device threads, checked by recorder_free in the test's. */
    atomic_int out_of_range, twice;
} recorder;

static int rec_done(void *user, uint64_t id, uint64_t subtotal)
{
    recorder *r = user;
    if (id >= r->n) {
        atomic_fetch_add(&r->out_of_range, 1);
        return 0;
    }
    if (r->seen[id])
        atomic_fetch_add(&r->twice, 1);
    if (id == r->fail_id)
        return 1;
    r->seen[id] = 1;
    r->sub[id] = subtotal;
    return 0;
}

static int rec_reuse(void *user, uint64_t id, uint64_t *subtotal)
{
    recorder *r = user;
    if (id >= r->reuse_below)
        return 0;
    *subtotal = r->want[id];
    return 1;
}

static int rec_reuse_seen(void *user, uint64_t id, uint64_t *subtotal)
{
    recorder *r = user;
    if (!r->reuse_from->seen[id])
        return 0;
    *subtotal = r->reuse_from->sub[id];
    return 1;
}

static void recorder_init(recorder *r, uint64_t n)
{
    memset(r, 0, sizeof(*r));
    r->n = n;
    r->sub = calloc(n + 1, sizeof(*r->sub));
    r->seen = calloc(n + 1, 1);
    r->fail_id = UINT64_MAX;
    cr_assert(r->sub && r->seen);
}

static void recorder_free(recorder *r)
{
    cr_expect_eq(atomic_load(&r->out_of_range), 0, "task ids past the task count");
    cr_expect_eq(atomic_load(&r->twice), 0, "tasks reported twice");
    free(r->sub);
    free(r->seen);
}

static int run_engine(int n, int devices, uint64_t mask, int rows, const nq_hooks *h,
                      cpu_backend *b, nq_result *out)
{
    run_state ps;
    gpu_backend be = backend_of(b, devices);
    gpu_job job = {n, mask, rows, h, &ps, {.chunk_subtasks = chunk_cap}};
    int rc;

    cr_assert_eq(run_state_init(&ps, 1), NQ_OK);
    rc = gpu_run(&job, &be, out);
    backend_clean(b);
    run_state_free(&ps);
    return rc;
}

/* gpu_run at n = 11 on a backend that fails at its fail_at_call-th submit or at
 * open, with the solver cancelled from the start if cancel: the status it returns. */
static int run_failing(cpu_backend *b, int devices, int fail_at_call, int fail_open, int cancel)
{
    run_state ps;
    nq_result r;
    gpu_backend be = backend_of(b, devices);
    gpu_job job = {11, 0, 0, NULL, &ps, {.chunk_subtasks = chunk_cap}};
    int rc;

    b->fail_at_call = fail_at_call;
    b->fail_open = fail_open;
    cr_assert_eq(run_state_init(&ps, 1), NQ_OK);
    atomic_store(&ps.cancel, cancel);
    rc = gpu_run(&job, &be, &r);
    backend_clean(b);
    run_state_free(&ps);
    return rc;
}

/* The d4 engine's own per-task subtotals, through the public API and its hooks. */
static uint64_t *d4_subtotals(int n, uint64_t *n_tasks)
{
    nq_settings s;
    nq_solver *sv;
    nq_result r;
    recorder rec;
    nq_hooks h = {0};

    *n_tasks = d4_enumerate(n, NULL, NULL);
    recorder_init(&rec, *n_tasks);
    h.user = &rec;
    h.task_done = rec_done;
    nq_default_settings(&s);
    s.n = n;
    s.engine = NQ_ENGINE_D4;
    s.n_threads = 2;
    s.pin_threads = 0;
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
    cr_assert_eq(nq_count(sv, &h, &r), NQ_OK);
    nq_destroy_solver(&sv);
    free(rec.seen);
    return rec.sub;
}

Test(unit, engine_totals_and_unique_match_oeis)
{
    static const int rows[] = {0, 1, 3};
    for (int n = 1; n <= 14; n++)
        for (int devices = 1; devices <= 3; devices += 2)
            for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
                cpu_backend b;
                nq_result r;
                cr_assert_eq(run_engine(n, devices, 0, rows[k], NULL, &b, &r), NQ_OK);
                cr_assert_eq(r.engine, NQ_ENGINE_CUDA);
                cr_assert_eq(r.has_unique, 1);
                cr_assert_eq(r.n_threads, devices);
                cr_assert_eq(r.tasks, d4_enumerate(n, NULL, NULL));
                cr_assert_eq(r.total.hi, 0);
                cr_assert_eq(r.total.lo, oeis_value("A000170", n), "n=%d devices=%d rows=%d", n,
                             devices, rows[k]);
                cr_assert_eq(r.unique.lo, oeis_value("A002562", n), "n=%d", n);
            }
}

/* Per-task subtotals through gpu_run on 1..max_devices devices equal the d4
 * engine's, n = 12..14, and the run used no more buffers than the ring holds. */
static void subtotals_match_d4(int max_devices)
{
    for (int n = 12; n <= 14; n++) {
        uint64_t n_tasks, *want = d4_subtotals(n, &n_tasks);
        for (int devices = 1; devices <= max_devices; devices++) {
            cpu_backend b;
            nq_result r;
            recorder rec;
            nq_hooks h = {0};
            recorder_init(&rec, n_tasks);
            h.user = &rec;
            h.task_done = rec_done;
            cr_assert_eq(run_engine(n, devices, 0, 0, &h, &b, &r), NQ_OK);
            for (uint64_t i = 0; i < n_tasks; i++) {
                cr_assert_eq(rec.seen[i], 1, "n=%d task %llu", n, (unsigned long long)i);
                cr_assert_eq(rec.sub[i], want[i], "n=%d task %llu", n, (unsigned long long)i);
            }
            /* several devices share the chunks: each takes some when there are enough */
            if (devices > 1)
                cr_assert_gt(atomic_load(&b.calls), 1);
            cr_assert_leq(atomic_load(&b.n_bufs), gpu_ring_size(devices));
            recorder_free(&rec);
        }
        free(want);
    }
}

Test(unit, engine_subtotals_match_the_d4_engine_task_by_task)
{
    subtotals_match_d4(4);
}

Test(unit, engine_reuses_recorded_tasks_without_running_them)
{
    int n = 12;
    uint64_t n_tasks, *want = d4_subtotals(n, &n_tasks), all_subs;
    cpu_backend b;
    nq_result r;
    recorder rec;
    nq_hooks h = {0};

    cr_assert_eq(run_engine(n, 1, 0, 2, NULL, &b, &r), NQ_OK);
    all_subs = atomic_load(&b.subs_run);
    recorder_init(&rec, n_tasks);
    rec.want = want;
    rec.reuse_below = n_tasks / 2;
    h.user = &rec;
    h.task_done = rec_done;
    h.reuse = rec_reuse;
    cr_assert_eq(run_engine(n, 2, 0, 2, &h, &b, &r), NQ_OK);
    cr_assert_eq(r.total.lo, oeis_value("A000170", n));
    cr_assert_eq(r.unique.lo, oeis_value("A002562", n));
    cr_assert_lt(atomic_load(&b.subs_run), all_subs);
    for (uint64_t i = 0; i < n_tasks; i++)
        cr_assert_eq(rec.seen[i], i >= n_tasks / 2, "task %llu", (unsigned long long)i);
    recorder_free(&rec);
    free(want);
}

Test(unit, engine_reports_hook_failures_device_errors_and_missing_devices)
{
    cpu_backend b;
    nq_result r;
    recorder rec;
    nq_hooks h = {0};
    uint64_t n_tasks = d4_enumerate(11, NULL, NULL);

    recorder_init(&rec, n_tasks);
    rec.fail_id = 5;
    h.user = &rec;
    h.task_done = rec_done;
    cr_assert_eq(run_engine(11, 2, 0, 0, &h, &b, &r), NQ_ECALLBACK);
    cr_assert_lt(r.total.lo, oeis_value("A000170", 11));
    recorder_free(&rec);

    cr_assert_eq(run_engine(11, NQ_ENODEV, 0, 0, NULL, &b, &r), NQ_ENODEV);
    cr_assert_eq(run_engine(11, 2, 1u << 2, 0, NULL, &b, &r), NQ_ENODEV, "device 2 of 2");
    cr_assert_eq(run_engine(11, 3, 1u << 2, 0, NULL, &b, &r), NQ_OK);
    cr_assert_eq(atomic_load(&b.used[2]), atomic_load(&b.calls), "only device 2 ran");
    cr_assert_eq(r.total.lo, oeis_value("A000170", 11));

    /* a device error on the second chunk: the run fails with it, not with a total */
    cr_assert_eq(run_failing(&b, 1, 2, 0, 0), NQ_EDEVICE);
    cr_assert_eq(atomic_load(&b.closed), atomic_load(&b.opened));
    cr_assert_eq(run_failing(&b, 1, 2, 0, 1), NQ_ECANCELED, "cancelled before it starts");
    /* a device that cannot be opened: the run fails with it and nothing hangs */
    cr_assert_eq(run_failing(&b, 2, 0, 1, 0), NQ_EDEVICE);
    cr_assert_eq(atomic_load(&b.calls), 0);
}

/* nq_count_tasks (what nqueens-mpi runs on each rank) sets the task filter (run_state.only): the
 * engine runs exactly those ids, the hooks see only them, and the total is their weighted sum. */
Test(unit, engine_runs_only_the_ids_asked_for)
{
    int n = 13;
    uint64_t n_tasks, *want = d4_subtotals(n, &n_tasks), ids[64], n_ids = 0;
    uint64_t sum = 0; /* n = 13: far below 2^64 */
    d4_task_list *l = tasks_of(n);
    cpu_backend b;
    nq_result r;
    recorder rec;
    nq_hooks h = {0};
    run_state ps;
    gpu_backend be = backend_of(&b, 2);
    gpu_job job = {n, 0, 2, &h, &ps, {.chunk_subtasks = chunk_cap}};

    for (uint64_t i = 3; i < n_tasks && n_ids < 64; i += 7) {
        ids[n_ids++] = i;
        sum += want[i] * l->t[i].weight;
    }
    recorder_init(&rec, n_tasks);
    h.user = &rec;
    h.task_done = rec_done;
    cr_assert_eq(run_state_init(&ps, 1), NQ_OK);
    ps.only = ids;
    ps.n_only = n_ids;
    cr_assert_eq(gpu_run(&job, &be, &r), NQ_OK);
    backend_clean(&b);
    run_state_free(&ps);
    cr_assert_eq(r.tasks, n_ids);
    cr_assert_eq(r.total.lo, sum);
    for (uint64_t i = 0, k = 0; i < n_tasks; i++) {
        int asked = k < n_ids && ids[k] == i;
        k += asked;
        cr_assert_eq(rec.seen[i], asked, "task %llu", (unsigned long long)i);
        if (asked)
            cr_assert_eq(rec.sub[i], want[i], "task %llu", (unsigned long long)i);
    }
    recorder_free(&rec);
    free(want);
    free(l);
}

/* Each device keeps two chunks in flight, opens once and closes once, whatever the
 * number of devices. */
Test(unit, engine_keeps_two_chunks_in_flight_per_device)
{
    for (int devices = 1; devices <= 3; devices++) {
        cpu_backend b;
        nq_result r;
        cr_assert_eq(run_engine(13, devices, 0, 2, NULL, &b, &r), NQ_OK);
        cr_assert_eq(r.total.lo, oeis_value("A000170", 13));
        cr_assert_eq(atomic_load(&b.most_in_flight), 2, "devices=%d", devices);
        cr_assert_eq(atomic_load(&b.opened), devices);
        cr_assert_eq(atomic_load(&b.closed), devices);
    }
}

/* A stop in the middle of a chunk (Ctrl-C) keeps every task whose sub-tasks all ended
 * before it, with its right subtotal; the rerun that reuses them runs only the rest and
 * ends with the OEIS counts. */
static void stop_and_resume(int n, int devices)
{
    uint64_t n_tasks, *want = d4_subtotals(n, &n_tasks), all_subs, kept = 0;
    cpu_backend b;
    nq_result r;
    recorder rec;
    nq_hooks h = {0};
    run_state ps;
    gpu_backend be;
    gpu_job job = {n, 0, 2, &h, &ps, {.chunk_subtasks = chunk_cap}};

    cr_assert_eq(run_engine(n, 1, 0, 2, NULL, &b, &r), NQ_OK);
    all_subs = atomic_load(&b.subs_run);
    recorder_init(&rec, n_tasks);
    h.user = &rec;
    h.task_done = rec_done;
    cr_assert_eq(run_state_init(&ps, 1), NQ_OK);
    be = backend_of(&b, devices);
    b.cancel = &ps.cancel;
    b.stop_after = all_subs / 3; /* a third of the way, inside some chunk */
    cr_assert_eq(gpu_run(&job, &be, &r), NQ_ECANCELED, "devices=%d", devices);
    backend_clean(&b);
    run_state_free(&ps);
    for (uint64_t i = 0; i < n_tasks; i++)
        if (rec.seen[i]) {
            cr_assert_eq(rec.sub[i], want[i], "task %llu", (unsigned long long)i);
            kept++;
        }
    cr_assert_gt(kept, n_tasks / 8, "the work done before the stop is kept");
    cr_assert_lt(kept, n_tasks);

    /* the rerun: reuse what was recorded, as a journal does */
    {
        recorder again;
        nq_hooks h2 = {0};
        recorder_init(&again, n_tasks);
        h2.user = &again;
        h2.task_done = rec_done;
        h2.reuse = rec_reuse_seen;
        again.reuse_from = &rec;
        cr_assert_eq(run_engine(n, devices, 0, 2, &h2, &b, &r), NQ_OK);
        cr_assert_eq(r.total.lo, oeis_value("A000170", n));
        cr_assert_eq(r.unique.lo, oeis_value("A002562", n));
        for (uint64_t i = 0; i < n_tasks; i++)
            cr_assert_eq(again.seen[i] + rec.seen[i], 1, "task %llu counted once",
                         (unsigned long long)i);
        cr_assert_lt(atomic_load(&b.subs_run), all_subs);
        recorder_free(&again);
    }
    recorder_free(&rec);
    free(want);
}

Test(unit, engine_stop_keeps_the_tasks_finished_before_it)
{
    stop_and_resume(13, 2);
}

/* With chunks of at most a few dozen sub-tasks (nq_gpu_settings.chunk_subtasks), far more chunks
 * than ring buffers go through the ring: the counts stay right, no more distinct
 * buffers than the ring holds are ever submitted, and none while it is still in flight
 * (the CPU backend counts a batch only when it is waited for, so a buffer rewritten
 * too early would count the wrong sub-tasks). A cap of 1 makes nearly every task a
 * chunk of its own, over the cap. */
Test(unit, engine_ring_holds_many_small_chunks)
{
    static const uint64_t caps[] = {40, 1};
    for (size_t c = 0; c < 2; c++) {
        chunk_cap = caps[c];
        for (int n = 8; n <= 14; n++)
            for (int devices = 1; devices <= 3; devices++) {
                cpu_backend b;
                nq_result r;
                int ring = gpu_ring_size(devices);
                cr_assert_eq(run_engine(n, devices, 0, 0, NULL, &b, &r), NQ_OK);
                cr_assert_eq(r.total.lo, oeis_value("A000170", n), "n=%d devices=%d", n, devices);
                cr_assert_eq(r.unique.lo, oeis_value("A002562", n), "n=%d devices=%d", n, devices);
                cr_assert_leq(atomic_load(&b.n_bufs), ring, "n=%d devices=%d", n, devices);
                if (n >= 11)
                    cr_assert_gt(atomic_load(&b.calls), 4 * ring, "n=%d: many chunks", n);
            }
    }
}

Test(unit, engine_small_chunks_keep_subtotals_task_by_task)
{
    chunk_cap = 40;
    subtotals_match_d4(3);
}

/* The stop, its wake-ups and the rerun with far more chunks than buffers: the
 * expansion blocks on a full ring when the stop comes. */
Test(unit, engine_stop_with_small_chunks)
{
    chunk_cap = 16;
    for (int devices = 1; devices <= 3; devices++)
        stop_and_resume(13, devices);
}

/* Device failures with far more chunks than buffers: nothing hangs, every device that
 * opened closes, and the run reports the failure. */
Test(unit, engine_failures_with_small_chunks)
{
    cpu_backend b;
    chunk_cap = 16;
    for (int devices = 1; devices <= 3; devices++) {
        cr_assert_eq(run_failing(&b, devices, 7, 0, 0), NQ_EDEVICE, "devices=%d", devices);
        cr_assert_eq(atomic_load(&b.closed), atomic_load(&b.opened));
        cr_assert_eq(run_failing(&b, devices, 0, 1, 0), NQ_EDEVICE, "devices=%d", devices);
        cr_assert_eq(run_failing(&b, devices, 0, 0, 1), NQ_ECANCELED, "devices=%d", devices);
    }
}

/* ---- the library and the command line, in this build ------------------------------ */

Test(unit, engine_name_and_build)
{
    nq_settings s = engine_check_settings(10, NQ_ENGINE_CUDA, 0);
    nq_solver *sv = NULL;
    nq_result r;
    int rc;

    if (!NQ_HAVE_CUDA) {
        cr_assert_eq(nq_engine_from_name("cuda"), NQ_EUNSUPPORTED);
        cr_assert_eq(nq_create_solver(&sv, &s), NQ_EUNSUPPORTED);
        return;
    }
    cr_assert_eq(nq_engine_from_name("cuda"), NQ_ENGINE_CUDA);
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
    rc = nq_count(sv, NULL, &r);
    nq_destroy_solver(&sv);
    /* no GPU on most build machines; where there is one, the count must be right */
    cr_assert(rc == NQ_OK || rc == NQ_ENODEV, "rc=%d", rc);
    if (rc == NQ_OK)
        cr_assert_eq(r.total.lo, oeis_value("A000170", 10));
}

Test(unit, cli_engine_cuda_and_devices)
{
    const char *const count[] = {"count", "8", "--engine", "cuda", NULL};
    const char *const bad_devices[] = {"count", "8", "--engine", "d4", "--devices", "0,,1", NULL};
    const char *const bad_range[] = {"count", "8", "--devices", "3-1", NULL};
    static cli_out o;

    cli_run(&o, count);
    if (!NQ_HAVE_CUDA) {
        cr_assert_eq(o.status, 2);
        cr_assert(strstr(o.err, "not built with CUDA"), "%s", o.err);
    } else if (o.status == 1) {
        cr_assert_str_empty(o.out);
        cr_assert(strstr(o.err, "no usable GPU"), "%s", o.err);
        cr_assert_eq(count_lines(o.err), 1, "%s", o.err);
    } else {
        cr_assert_eq(o.status, 0, "%s", o.err);
    }
    cli_run(&o, bad_devices);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "--devices"), "%s", o.err);
    cli_run(&o, bad_range);
    cr_assert_eq(o.status, 2);
}
