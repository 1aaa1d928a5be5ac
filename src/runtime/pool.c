/* Worker pool.
 *
 * Ownership: the calling thread owns the task source and is the only producer; each
 * worker owns its run_slot and is the only writer of it (the calling thread writes the
 * last one, for reused subtotals); the queue is the only thing they share on the way in. Workers
 * read tasks, run the DFS with no shared writes, and publish each weighted subtotal with relaxed
 * atomic adds into their own slot: nobody reads those slots for correctness until pthread_join,
 * which orders everything, so relaxed is enough (progress readers only want an approximate
 * snapshot). Each worker makes its engine scratch (worker_init) in its own thread and frees it
 * there. The stop is the run's run_stop (runtime/run.h), checked between tasks and, by
 * completions that may run long, inside them (engine_stopping): a task given up half
 * done is not recorded. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "runtime/affinity.h"
#include "runtime/crew.h"
#include "runtime/pool.h"
#include "runtime/queue.h"

/* The workers' start line: each reports once it is pinned, and pool_run waits for all
 * of them before the source runs, so that the planning, thread start and pinning are
 * timed as setup, apart from the count (nq_result.setup_seconds). */
typedef struct start_gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int ready;
} start_gate;

static void gate_arrive(start_gate *g)
{
    pthread_mutex_lock(&g->mu);
    g->ready++;
    pthread_cond_signal(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

static void gate_wait(start_gate *g, int workers)
{
    pthread_mutex_lock(&g->mu);
    while (g->ready < workers)
        pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}

typedef struct worker_arg {
    run_state *rs;
    const pool_job *job;
    queue *q;
    run_stop *stop;
    start_gate *gate;
    int index;
    const void *shared; /* the engine's shared_init for this run */
} worker_arg;

/* Adds one task's weighted subtotal and, where the engine knows them, its classes. */
static void slot_add(run_slot *s, const engine_worker *w, const engine_desc *e, const task *t,
                     uint64_t sub)
{
    run_slot_add(s, (u128)sub * t->weight, 1);
    if (e->unique)
        run_slot_add_unique(s, e->unique(w, t, sub));
}

/* A worker's body (the crew named and pinned it). */
static void worker_main(void *p)
{
    worker_arg *a = p;
    run_slot *slot = run_state_slot(a->rs, a->index);
    const nq_hooks *h = a->job->hooks;
    const engine_desc *e = a->job->engine;
    engine_worker w = {a->job->s, NULL, run_stopping_fn, a->stop, a->shared};
    task t;

    gate_arrive(a->gate);
    if (e->worker_init && !(w.scratch = e->worker_init(a->job->s, a->shared)))
        run_fail(a->stop, NQ_ENOMEM);
    while (queue_pop(a->q, &t)) {
        uint64_t sub;
        engine_status st;
        if (run_stopping(a->stop))
            continue; /* drain without working, so the producer never waits on us */
        st = e->complete(&w, &t, &sub);
        if (st == ENGINE_FAILED)
            run_fail(a->stop, NQ_ENOMEM);
        if (st != ENGINE_DONE)
            continue; /* given up on a stop, or failed: not recorded */
        if (h && h->task_done && h->task_done(h->user, t.id, sub) != 0) {
            run_halt(a->stop, NQ_ECALLBACK);
            continue; /* not counted: the hook could not record it */
        }
        slot_add(slot, &w, e, &t, sub);
    }
    if (w.scratch && e->worker_free)
        e->worker_free(w.scratch);
}

typedef struct feed {
    run_state *rs;
    const pool_job *job;
    queue *q;
    run_stop *stop;
    uint64_t only_next; /* the run's place in rs->only */
    const void *shared;
} feed;

static int feed_emit(void *user, const task *t)
{
    feed *f = user;
    const nq_hooks *h = f->job->hooks;
    uint64_t sub;

    if (run_stopping(f->stop))
        return 1;
    switch (run_wants(f->rs, &f->only_next, t->id)) {
    case -1:
        return 1; /* past the last id asked for: no need to enumerate further */
    case 0:
        return 0;
    }
    if (h && h->reuse && h->reuse(h->user, t->id, &sub) == 1) {
        engine_worker w = {f->job->s, NULL, NULL, NULL, f->shared}; /* unique needs no scratch */
        slot_add(run_source_slot(f->rs), &w, f->job->engine, t, sub);
        run_note_reused(f->rs, (u128)sub * t->weight);
        return 0;
    }
    return !queue_push(f->q, t, run_halt_flag(f->stop));
}

/* The pinning plan, made on a thread of its own while the engine makes its shared
 * tables: it loads the machine's topology (hwloc: 4.5 ms on a 2-core virtual machine,
 * more on a large one), which would otherwise add to the serial start of every count. */
typedef struct planner {
    pthread_t thread;
    int started, pin, n_threads;
    run_state *rs;
} planner;

static void *plan_main(void *p)
{
    planner *pl = p;
    run_affinity(pl->rs, pl->n_threads);
    return NULL;
}

/* Only an engine with a shared_init has a start to hide the plan behind (the join's
 * tables; prefix's board is instant, a thread start more for it); the others make it in
 * plan_end, without a thread. */
static void plan_start(planner *pl, run_state *rs, const pool_job *job)
{
    *pl = (planner){.pin = job->pin, .n_threads = job->n_threads, .rs = rs};
    pl->started = pl->pin && job->engine->shared_init &&
                  pthread_create(&pl->thread, NULL, plan_main, pl) == 0;
}

/* The plan (NULL: none, or not pinned), made here if its thread did not start. */
static affinity *plan_end(planner *pl)
{
    if (pl->started)
        pthread_join(pl->thread, NULL);
    pl->started = 0;
    return pl->pin ? run_affinity(pl->rs, pl->n_threads) : NULL;
}

int pool_run(run_state *rs, const pool_job *job, nq_result *out)
{
    queue q;
    run_stop stop;
    worker_arg *args = NULL;
    crew workers = {0};
    affinity *aff = NULL;
    int rc = NQ_OK;
    u128 total, unique;
    uint64_t done, expected = run_wanted(rs, job->n_tasks);
    const engine_desc *e = job->engine;
    int scale = e->unique_scale > 1 ? e->unique_scale : 1;
    void *shared = NULL;
    start_gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    planner plan;
    double setup_wall, setup_user, setup_system, user, sys;
    feed f;

    if (job->n_threads + 1 > rs->n_slots)
        return NQ_EINVAL;
    run_stop_init(&stop, rs);
    run_progress_reset(rs, expected);
    plan_start(&plan, rs, job);
    /* the join's tables take seconds from n = 22 on: they end on a cancel */
    if (e->shared_init && !(shared = e->shared_init(job->s, stop.cancel))) {
        plan_end(&plan);
        return run_canceled(&stop) ? NQ_ECANCELED : NQ_ENOMEM;
    }
    /* A few records per worker keep everyone busy; the source refills as they drain. */
    if (queue_init(&q, (size_t)job->n_threads * 64) != NQ_OK) {
        plan_end(&plan);
        if (shared)
            e->shared_free(shared);
        return NQ_ENOMEM;
    }
    args = calloc((size_t)job->n_threads, sizeof(*args));
    if (!args) {
        plan_end(&plan);
        rc = NQ_ENOMEM;
        goto done;
    }
    setup_wall = clock_seconds();
    clock_cpu_split(&setup_user, &setup_system);
    aff = plan_end(&plan);
    for (int i = 0; i < job->n_threads; i++)
        args[i] = (worker_arg){rs, job, &q, &stop, &gate, i, shared};
    rc = crew_start(&workers, job->n_threads, "nq-worker", aff, worker_main, args, sizeof(*args));
    if (rc != NQ_OK)
        run_fail(&stop, rc);
    gate_wait(&gate, workers.started);
    rs->setup_seconds = clock_seconds() - setup_wall;
    clock_cpu_split(&user, &sys);
    rs->setup_user = user - setup_user;
    rs->setup_system = sys - setup_system;
    if (!run_stopping(&stop)) {
        f = (feed){rs, job, &q, &stop, 0, shared};
        job->engine->source(job->s, feed_emit, &f);
    }
    queue_close(&q);
    out->n_pinned = crew_join(&workers);
    run_sum(rs, &total, &unique, &done);
    out->total = u128_pack(total);
    /* a scaled sum is a count of classes only over the whole task set */
    out->has_unique = e->unique != NULL && (scale == 1 || !run_filtered(rs));
    out->unique = u128_pack(out->has_unique ? unique / (u128)scale : 0);
    out->tasks = expected;
    out->n_threads = job->n_threads;
    rc = run_outcome(&stop, done == expected);
done:
    free(args);
    queue_free(&q);
    if (shared)
        e->shared_free(shared);
    return rc;
}
