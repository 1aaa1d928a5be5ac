/* Worker pool.
 *
 * Ownership: the calling thread owns the task source and is the only producer; each
 * worker owns its pool_slot and is the only writer of it; the queue is the only thing
 * they share on the way in. Workers read tasks, run the DFS with no shared writes, and
 * publish each weighted subtotal with relaxed atomic adds into their own slot: nobody
 * reads those slots for correctness until pthread_join, which orders everything, so
 * relaxed is enough (progress readers only want an approximate snapshot).
 * Each worker makes its engine scratch (worker_init) in its own thread and frees it
 * there. Cancellation is a flag checked between tasks and, by completions that may run
 * long, inside them (engine_stopping): a task given up half done is not recorded. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/affinity.h"
#include "runtime/pool.h"
#include "runtime/queue.h"
#include "u128.h"

typedef struct worker_arg {
    pool_state *ps;
    const pool_job *job;
    queue *q;
    affinity *aff;
    int index;
    int pinned;
    atomic_int *stop;   /* set when a hook or a worker_init failed */
    atomic_int *nomem;  /* set when a worker_init failed */
    const void *shared; /* the engine's shared_init for this run */
} worker_arg;

static int stopping(const pool_state *ps, const atomic_int *stop)
{
    return atomic_load_explicit(stop, memory_order_relaxed) ||
           atomic_load_explicit(&ps->cancel, memory_order_relaxed);
}

static int worker_stopping(const void *arg)
{
    const worker_arg *a = arg;
    return stopping(a->ps, a->stop);
}

static void wide_add(atomic_uint_fast64_t *lo_p, atomic_uint_fast64_t *hi_p, u128 v)
{
    uint64_t lo = atomic_load_explicit(lo_p, memory_order_relaxed);
    uint64_t add = (uint64_t)v, hi = (uint64_t)(v >> 64);
    uint64_t sum = lo + add;
    if (sum < lo)
        hi++;
    if (hi)
        atomic_fetch_add_explicit(hi_p, hi, memory_order_relaxed);
    atomic_store_explicit(lo_p, sum, memory_order_relaxed);
}

/* Adds one task's weighted subtotal and, where the engine knows them, its classes. */
static void slot_add(pool_slot *s, const engine_worker *w, const engine_desc *e, const task *t,
                     uint64_t sub)
{
    wide_add(&s->lo, &s->hi, (u128)sub * t->weight);
    if (e->unique)
        wide_add(&s->unique_lo, &s->unique_hi, e->unique(w, t, sub));
}

static void *worker_main(void *p)
{
    worker_arg *a = p;
    pool_slot *slot = &a->ps->slots[a->index];
    const nq_hooks *h = a->job->hooks;
    const engine_desc *e = a->job->engine;
    engine_worker w = {a->job->s, NULL, worker_stopping, a, a->shared};
    task t;

    pthread_setname_np(pthread_self(), "nq-worker");
    if (a->aff)
        a->pinned = affinity_pin_self(a->aff, a->index);
    if (e->worker_init && !(w.scratch = e->worker_init(a->job->s))) {
        atomic_store(a->nomem, 1);
        atomic_store(a->stop, 1);
    }
    while (queue_pop(a->q, &t)) {
        uint64_t sub;
        if (stopping(a->ps, a->stop))
            continue; /* drain without working, so the producer never waits on us */
        if (e->complete(&w, &t, &sub) != 0)
            continue; /* given up on a stop: not recorded */
        if (h && h->task_done && h->task_done(h->user, t.id, sub) != 0) {
            atomic_store(a->stop, 1);
            continue; /* not counted: the hook could not record it */
        }
        slot_add(slot, &w, e, &t, sub);
        atomic_fetch_add_explicit(&slot->done, 1, memory_order_relaxed);
    }
    if (w.scratch && e->worker_free)
        e->worker_free(w.scratch);
    return NULL;
}

typedef struct feed {
    pool_state *ps;
    const pool_job *job;
    queue *q;
    atomic_int *stop;
    uint64_t only_next; /* index in ps->only of the next id to feed */
    const void *shared;
} feed;

int pool_wants(const pool_state *ps, uint64_t *cursor, uint64_t id)
{
    if (!ps->only)
        return 1;
    if (*cursor == ps->n_only)
        return -1;
    if (id != ps->only[*cursor])
        return 0;
    ++*cursor;
    return 1;
}

static int feed_emit(void *user, const task *t)
{
    feed *f = user;
    const nq_hooks *h = f->job->hooks;
    uint64_t sub;
    pool_slot *own = pool_source_slot(f->ps);

    if (stopping(f->ps, f->stop))
        return 1;
    switch (pool_wants(f->ps, &f->only_next, t->id)) {
    case -1:
        return 1; /* past the last id asked for: no need to enumerate further */
    case 0:
        return 0;
    }
    if (h && h->reuse && h->reuse(h->user, t->id, &sub) == 1) {
        engine_worker w = {f->job->s, NULL, NULL, NULL, f->shared}; /* unique needs no scratch */
        slot_add(own, &w, f->job->engine, t, sub);
        atomic_fetch_add_explicit(&own->done, 1, memory_order_relaxed);
        return 0;
    }
    return !queue_push(f->q, t, f->stop);
}

int pool_state_init(pool_state *ps, int n_threads)
{
    memset(ps, 0, sizeof(*ps));
    ps->n_slots = n_threads + 1;
    ps->slots = aligned_alloc(64, sizeof(pool_slot) * (size_t)ps->n_slots);
    if (!ps->slots)
        return NQ_ENOMEM;
    for (int i = 0; i < ps->n_slots; i++) {
        atomic_init(&ps->slots[i].lo, 0);
        atomic_init(&ps->slots[i].hi, 0);
        atomic_init(&ps->slots[i].done, 0);
        atomic_init(&ps->slots[i].unique_lo, 0);
        atomic_init(&ps->slots[i].unique_hi, 0);
    }
    atomic_init(&ps->cancel, 0);
    atomic_init(&ps->tasks_total, 0);
    return NQ_OK;
}

void pool_state_free(pool_state *ps)
{
    free(ps->slots);
    ps->slots = NULL;
    affinity_free(ps->aff);
    ps->aff = NULL;
}

int pool_run(pool_state *ps, const pool_job *job, nq_result *out)
{
    queue q;
    atomic_int stop, nomem;
    worker_arg *args = NULL;
    pthread_t *threads = NULL;
    affinity *aff = NULL;
    int started = 0, rc = NQ_OK;
    u128 total = 0, unique = 0;
    uint64_t done = 0, expected = ps->only ? ps->n_only : job->n_tasks;
    const engine_desc *e = job->engine;
    int scale = e->unique_scale > 1 ? e->unique_scale : 1;
    void *shared = NULL;
    feed f;

    if (job->n_threads + 1 > ps->n_slots)
        return NQ_EINVAL;
    atomic_init(&stop, 0);
    atomic_init(&nomem, 0);
    pool_progress_reset(ps, expected);
    /* A few records per worker keep everyone busy; the source refills as they drain. */
    if (e->shared_init && !(shared = e->shared_init(job->s)))
        return NQ_ENOMEM;
    if (queue_init(&q, (size_t)job->n_threads * 64) != NQ_OK) {
        if (shared)
            e->shared_free(shared);
        return NQ_ENOMEM;
    }
    args = calloc((size_t)job->n_threads, sizeof(*args));
    threads = calloc((size_t)job->n_threads, sizeof(*threads));
    if (!args || !threads) {
        rc = NQ_ENOMEM;
        goto done;
    }
    /* Loading the topology costs milliseconds: plan once per solver, not per run, since
     * callers such as nqueens-mpi run many short counts (one per batch) on one solver. */
    if (job->pin && !ps->aff_planned) {
        ps->aff = affinity_plan(job->n_threads);
        ps->aff_planned = 1;
    }
    if (job->pin)
        aff = ps->aff;
    for (int i = 0; i < job->n_threads; i++) {
        args[i] = (worker_arg){ps, job, &q, aff, i, 0, &stop, &nomem, shared};
        if (pthread_create(&threads[i], NULL, worker_main, &args[i]) != 0) {
            rc = NQ_ETHREAD;
            atomic_store(&stop, 1);
            break;
        }
        started++;
    }
    if (rc == NQ_OK) {
        f = (feed){ps, job, &q, &stop, 0, shared};
        job->engine->source(job->s, feed_emit, &f);
    }
    queue_close(&q);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    out->n_pinned = 0;
    for (int i = 0; i < started; i++)
        out->n_pinned += args[i].pinned;
    for (int i = 0; i < ps->n_slots; i++) {
        total += ((u128)atomic_load(&ps->slots[i].hi) << 64) + atomic_load(&ps->slots[i].lo);
        done += atomic_load(&ps->slots[i].done);
        unique += ((u128)atomic_load(&ps->slots[i].unique_hi) << 64) +
                  atomic_load(&ps->slots[i].unique_lo);
    }
    out->total = u128_pack(total);
    out->unique = u128_pack(unique / (u128)scale);
    /* a scaled sum is a count of classes only over the whole task set */
    out->has_unique = e->unique != NULL && (scale == 1 || !ps->only);
    if (!out->has_unique)
        out->unique = u128_pack(0);
    out->tasks = expected;
    out->n_threads = job->n_threads;
    /* A stop that came after the last task changed nothing: the total is complete. */
    if (rc == NQ_OK && done != expected)
        rc = atomic_load(&nomem) ? NQ_ENOMEM : atomic_load(&stop) ? NQ_ECALLBACK : NQ_ECANCELED;
done:
    free(args);
    free(threads);
    queue_free(&q);
    if (shared)
        e->shared_free(shared);
    return rc;
}

void pool_progress(const pool_state *ps, nq_progress *p)
{
    u128 total = 0;
    uint64_t done = 0;
    for (int i = 0; i < ps->n_slots; i++) {
        total += ((u128)atomic_load_explicit(&ps->slots[i].hi, memory_order_relaxed) << 64) +
                 atomic_load_explicit(&ps->slots[i].lo, memory_order_relaxed);
        done += atomic_load_explicit(&ps->slots[i].done, memory_order_relaxed);
    }
    p->tasks_done = done;
    p->tasks_total = atomic_load_explicit(&ps->tasks_total, memory_order_relaxed);
    p->partial_total = u128_pack(total);
}

void pool_progress_reset(pool_state *ps, uint64_t tasks_total)
{
    for (int i = 0; i < ps->n_slots; i++) {
        atomic_store(&ps->slots[i].lo, 0);
        atomic_store(&ps->slots[i].hi, 0);
        atomic_store(&ps->slots[i].done, 0);
        atomic_store(&ps->slots[i].unique_lo, 0);
        atomic_store(&ps->slots[i].unique_hi, 0);
    }
    atomic_store(&ps->tasks_total, tasks_total);
}
