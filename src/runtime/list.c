/* The listing runtime: every solution, in lexicographic order of the column vectors,
 * from any number of workers, with memory bounded by a window of tasks. The engine's
 * lister (core/lister.h) makes the prefixes and completes each; this file runs them.
 *
 * The calling thread enumerates the first rows in lexicographic order (the lister's
 * source) and pushes each prefix through the MPMC queue. Task id t owns slot
 * t % n_slots: a single-producer single-consumer ring of solutions, filled by the worker
 * that popped t and emptied by the calling thread, which only ever reads the head slot
 * (the lowest unfinished id) and passes its solutions to the callback. A task id is only
 * pushed once the task n_slots before it is finished, so at most n_slots tasks are in
 * flight, and a worker whose ring is full waits for the consumer: memory is
 * n_slots * LIST_RING boards whatever n is.
 *
 * No deadlock: the single producer pushes in id order and the queue hands records out
 * in push order, so the head task has been taken by a worker before any later one; that
 * worker only waits on its ring, which is the one the consumer drains.
 *
 * Memory order: the calling thread resets a slot and writes its prefix before the push
 * (released by the queue, acquired by the pop). A worker stores a board, then publishes
 * it with a release store of `written`, and finally sets `done` with release; the
 * consumer acquires `done` before `written`, so a finished task's count is final. The
 * consumer releases `read` after copying boards out, and the worker acquires it before
 * reusing their cells.
 *
 * Sleeping: a side with nothing to do sleeps on a condition variable instead of
 * polling, since a polling consumer on a busy machine either burns a core the workers
 * need or oversleeps and starves them. Wake-ups come in batches, not per board or per
 * task, or the two sides would trade a context switch for every one: the consumer
 * sleeps until a task a quarter of the window past its head is done (the queue hands
 * tasks out in order, so by then most tasks before it are done too, and the other
 * three quarters keep the workers busy meanwhile) or until its head task has
 * LIST_WAKE_BATCH boards ready; a worker with a full ring sleeps until half of it is
 * free. The sleeper announces itself (wait_head and wait_target; room_wanted in the
 * slot) under the mutex, issues a full fence and looks again before it waits; the other
 * side publishes, issues a full fence, and takes the mutex to signal only when it sees
 * the announcement. One of the two always sees the other's write, so no wake-up is lost
 * (a worker checks at every multiple of LIST_WAKE_BATCH, and one of them falls in any
 * LIST_WAKE_BATCH boards). The waits are also timed: that bounds how long the boards of
 * a slow head task wait, and notices nq_solver_cancel called from a signal handler. */
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "runtime/affinity.h"
#include "runtime/crew.h"
#include "runtime/list.h"
#include "runtime/queue.h"

/* Boards one task may hold ahead of the consumer before its worker waits. */
#define LIST_RING 1024u
/* Tasks in flight per worker (plus a few, at most a cap): how far the workers may run
 * ahead of the consumer, which must cover the time the consumer takes to wake up. */
#define LIST_WINDOW_PER_WORKER 32
#define LIST_WINDOW_EXTRA 16
#define LIST_WINDOW_MAX 8192
/* The automatic depth stops growing here: counting deeper prefixes costs time. */
#define LIST_AUTO_MAX_TASKS (1u << 20)
/* An explicit depth's tasks are counted before the run only up to here (some 25 ms), so
 * that the first board never waits long; past it the count is known once the source
 * has emitted its last task. */
#define LIST_COUNT_UP_FRONT (1u << 22)
/* Boards a head task accumulates before its worker wakes the consumer. */
#define LIST_WAKE_BATCH 256u
/* The longest a sleeper waits without being signalled. */
#define LIST_WAIT_NS 5000000L
/* wait_head and wait_target while the consumer is awake. */
#define LIST_NOBODY UINT64_MAX

typedef struct list_slot {
    _Alignas(64) atomic_uint_fast64_t written; /* worker: boards stored */
    atomic_int done;                           /* worker: the task is finished */
    atomic_int room_wanted;                    /* worker: asleep on a full ring */
    _Alignas(64) atomic_uint_fast64_t read;    /* consumer: boards delivered */
    uint8_t prefix[NQ_MAX_N];                  /* source: columns of the placed rows */
} list_slot;

typedef struct list_ctx {
    const list_job *job;
    const engine_lister *lister;
    int n;
    list_slot *slots;
    uint8_t *rings; /* n_slots rings of LIST_RING boards of n bytes */
    uint64_t n_slots;
    queue q;
    run_stop stop;
    pthread_mutex_t mu;
    pthread_cond_t more;                         /* the consumer sleeps here */
    pthread_cond_t room;                         /* workers with a full ring sleep here */
    _Alignas(64) atomic_uint_fast64_t wait_head; /* the consumer sleeps on this task's */
    atomic_uint_fast64_t wait_target;            /* batches, or on this task being done */
    /* Owned by the calling thread. */
    uint64_t head;      /* lowest task id not yet fully delivered */
    uint64_t pushed;    /* tasks pushed so far */
    uint64_t delivered; /* boards passed to the callback */
    run_slot *shown;    /* head and delivered as nq_solver_progress reads them */
} list_ctx;

static int list_stopping(const list_ctx *c)
{
    return run_stopping(&c->stop);
}

/* Sleep on cv for at most LIST_WAIT_NS; mu is held. */
static void list_sleep(list_ctx *c, pthread_cond_t *cv)
{
    struct timespec ts = clock_after(CLOCK_MONOTONIC, LIST_WAIT_NS);
    pthread_cond_timedwait(cv, &c->mu, &ts);
}

static void list_signal(list_ctx *c, pthread_cond_t *cv, int all)
{
    pthread_mutex_lock(&c->mu);
    if (all)
        pthread_cond_broadcast(cv);
    else
        pthread_cond_signal(cv);
    pthread_mutex_unlock(&c->mu);
}

/* After a worker published into task id: wake the consumer if it sleeps on that id. */
static void list_wake_consumer(list_ctx *c, const atomic_uint_fast64_t *waiting, uint64_t id)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(waiting, memory_order_relaxed) == id)
        list_signal(c, &c->more, 0);
}

static uint8_t *list_ring(const list_ctx *c, uint64_t id)
{
    return c->rings + (size_t)(id % c->n_slots) * LIST_RING * (size_t)c->n;
}

/* A worker's view of the slot it fills: the ctx of the lister's sink. */
typedef struct list_fill {
    list_ctx *c;
    list_slot *s;
    uint8_t *ring;
    uint64_t id;
    uint64_t w, r; /* written so far; read as last seen */
} list_fill;

/* Wait until the consumer frees a cell of a full ring; 1 when the run is stopping. */
static int list_wait_room(list_ctx *c, list_fill *o)
{
    for (;;) {
        o->r = atomic_load_explicit(&o->s->read, memory_order_acquire);
        if (o->w - o->r < LIST_RING)
            return 0;
        if (list_stopping(c))
            return 1;
        pthread_mutex_lock(&c->mu);
        atomic_store_explicit(&o->s->room_wanted, 1, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        o->r = atomic_load_explicit(&o->s->read, memory_order_acquire);
        if (o->w - o->r > LIST_RING / 2 && !list_stopping(c))
            list_sleep(c, &c->room);
        atomic_store_explicit(&o->s->room_wanted, 0, memory_order_relaxed);
        pthread_mutex_unlock(&c->mu);
    }
}

/* Store one board; 1 when the run is stopping. */
static int list_put(list_ctx *c, list_fill *o, const uint8_t *cols)
{
    assert(o->w - o->r <= LIST_RING); /* the ring never holds more than it has cells */
    if (o->w - o->r == LIST_RING && list_wait_room(c, o))
        return 1;
    memcpy(o->ring + (size_t)(o->w % LIST_RING) * (size_t)c->n, cols, (size_t)c->n);
    o->w++;
    /* Published one by one: the consumer may be polling on exactly this board. */
    atomic_store_explicit(&o->s->written, o->w, memory_order_release);
    if (o->w % LIST_WAKE_BATCH == 0)
        list_wake_consumer(c, &c->wait_head, o->id);
    return list_stopping(c);
}

/* The lister's sink over a worker's slot. */
static int list_sink_put(void *ctx, const uint8_t *cols)
{
    list_fill *o = ctx;
    return list_put(o->c, o, cols);
}

static int list_sink_stopping(void *ctx)
{
    const list_fill *o = ctx;
    return list_stopping(o->c);
}

/* A worker's body (the crew named and pinned it). */
static void list_worker_main(void *p)
{
    list_ctx *c = p;
    task t;

    while (queue_pop(&c->q, &t)) {
        list_fill o = {c, &c->slots[t.id % c->n_slots], list_ring(c, t.id), t.id, 0, 0};
        list_sink sink = {list_sink_put, list_sink_stopping, &o};
        if (!list_stopping(c))
            c->lister->search(c->n, &t, o.s->prefix, &sink);
        atomic_store_explicit(&o.s->done, 1, memory_order_release);
        list_wake_consumer(c, &c->wait_target, t.id);
    }
}

/* Show head and delivered to nq_solver_progress. The calling thread is their only
 * writer and each only grows, so relaxed stores never let a reader see one go back. */
static void list_show(list_ctx *c)
{
    atomic_store_explicit(&c->shown->lo, c->delivered, memory_order_relaxed);
    atomic_store_explicit(&c->shown->done, c->head, memory_order_relaxed);
}

/* Halt the run (rc: a limit, a callback, a cancel), or fail it (rc: a thread). */
static void list_stop(list_ctx *c, int rc)
{
    if (rc == NQ_ETHREAD)
        run_fail(&c->stop, rc);
    else
        run_halt(&c->stop, rc);
    list_signal(c, &c->room, 1); /* workers asleep on a full ring must see it */
}

/* Let the worker of s go on if it sleeps on a full ring and half of it is free now;
 * read was just released as r. */
static void list_wake_worker(list_ctx *c, list_slot *s, uint64_t r)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&s->room_wanted, memory_order_relaxed) &&
        atomic_load_explicit(&s->written, memory_order_relaxed) - r <= LIST_RING / 2)
        list_signal(c, &c->room, 1);
}

/* Pass on what the head task has ready, and move past it once it is finished.
 * Returns 1 if anything happened. */
static int list_deliver(list_ctx *c)
{
    list_slot *s = &c->slots[c->head % c->n_slots];
    const uint8_t *ring = list_ring(c, c->head);
    const list_job *job = c->job;
    uint64_t r0 = atomic_load_explicit(&s->read, memory_order_relaxed), r = r0;
    int done = atomic_load_explicit(&s->done, memory_order_acquire);
    uint64_t w = atomic_load_explicit(&s->written, memory_order_acquire);

    assert(c->head < c->pushed && r <= w && w - r <= LIST_RING);
    while (r < w) {
        const uint8_t *cols = ring + (size_t)(r % LIST_RING) * (size_t)c->n;
        r++;
        c->delivered++;
        if (job->fn(job->user, cols, c->n) != 0) {
            list_stop(c, NQ_ECALLBACK);
            return 1;
        }
        if (job->limit && c->delivered == job->limit) {
            list_stop(c, NQ_OK);
            return 1;
        }
        if ((r & 63) == 0) { /* let a worker with a full ring go on */
            atomic_store_explicit(&s->read, r, memory_order_release);
            list_wake_worker(c, s, r);
            list_show(c);
        }
    }
    atomic_store_explicit(&s->read, r, memory_order_release);
    list_wake_worker(c, s, r);
    if (done && r == w)
        c->head++;
    list_show(c);
    return (done && r == w) || r != r0;
}

/* Is the target task done, or has the head task a batch of boards ready? */
static int list_worth_waking(const list_ctx *c, uint64_t target)
{
    const list_slot *s = &c->slots[c->head % c->n_slots];
    return atomic_load_explicit(&c->slots[target % c->n_slots].done, memory_order_relaxed) ||
           atomic_load_explicit(&s->written, memory_order_relaxed) -
                   atomic_load_explicit(&s->read, memory_order_relaxed) >=
               LIST_WAKE_BATCH;
}

/* One step of the consumer; nonzero once the run is stopping. */
static int list_step(list_ctx *c)
{
    if (run_canceled(&c->stop))
        list_stop(c, NQ_ECANCELED);
    if (run_halted(&c->stop))
        return 1;
    if (!list_deliver(c)) {
        uint64_t ahead;
        assert(c->head < c->pushed);
        ahead = c->pushed - 1 - c->head;
        uint64_t target = c->head + (ahead < c->n_slots / 4 ? ahead : c->n_slots / 4);
        pthread_mutex_lock(&c->mu);
        atomic_store_explicit(&c->wait_head, c->head, memory_order_relaxed);
        atomic_store_explicit(&c->wait_target, target, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        if (!list_worth_waking(c, target))
            list_sleep(c, &c->more);
        atomic_store_explicit(&c->wait_head, LIST_NOBODY, memory_order_relaxed);
        atomic_store_explicit(&c->wait_target, LIST_NOBODY, memory_order_relaxed);
        pthread_mutex_unlock(&c->mu);
    }
    return run_halted(&c->stop);
}

/* The source's hand-off: wait (delivering) for the task's slot, then queue it. */
static int list_emit(list_ctx *c, const task *t, const uint8_t *prefix)
{
    list_slot *s = &c->slots[t->id % c->n_slots];

    assert(t->id == c->pushed); /* the source emits the ids in order */
    while (t->id - c->head >= c->n_slots)
        if (list_step(c))
            return 1;
    /* the slot's last task, n_slots before this one, is delivered: nobody reads it */
    assert(t->id < c->n_slots || t->id - c->n_slots < c->head);
    atomic_store_explicit(&s->written, 0, memory_order_relaxed);
    atomic_store_explicit(&s->read, 0, memory_order_relaxed);
    atomic_store_explicit(&s->done, 0, memory_order_relaxed);
    memcpy(s->prefix, prefix, (size_t)t->row);
    if (!queue_push(&c->q, t, run_halt_flag(&c->stop)))
        return 1;
    c->pushed = t->id + 1;
    return 0;
}

/* The lister's source's hand-off. */
static int list_emit_prefix(void *user, const task *t, const uint8_t *prefix)
{
    return list_emit(user, t, prefix);
}

/* Rows deep enough that there are plenty of tasks per worker and, where the total is
 * known, each task's output fits comfortably in its ring; *tasks is their count. */
static int list_auto_rows(const engine_lister *lx, int n, int threads, uint64_t *tasks)
{
    nq_u128 known;
    int have = nq_known_total(n, &known) == NQ_OK;
    int rows = 1;

    for (; rows < n; rows++) {
        int enough, small;
        *tasks = lx->prefix_count(n, rows, UINT64_MAX);
        if (*tasks == 0)
            break;
        enough = *tasks >= 32ull * (uint64_t)threads;
        /* A task whose output overflows its ring makes its worker wait for the head. */
        small = !have || known.lo / *tasks <= LIST_RING / 4;
        if ((enough && small) || *tasks >= LIST_AUTO_MAX_TASKS)
            break;
    }
    if (rows == n) /* the loop ended without counting this depth */
        *tasks = lx->prefix_count(n, rows, UINT64_MAX);
    return rows;
}

/* The mutex and condition variables; the waits run on the monotonic clock. */
static int list_sync_init(list_ctx *c)
{
    pthread_condattr_t ca;
    int ok;

    if (pthread_condattr_init(&ca) != 0)
        return 0;
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    ok = pthread_mutex_init(&c->mu, NULL) == 0;
    if (ok && pthread_cond_init(&c->more, &ca) != 0) {
        pthread_mutex_destroy(&c->mu);
        ok = 0;
    }
    if (ok && pthread_cond_init(&c->room, &ca) != 0) {
        pthread_cond_destroy(&c->more);
        pthread_mutex_destroy(&c->mu);
        ok = 0;
    }
    pthread_condattr_destroy(&ca);
    return ok;
}

/* What list_run makes besides the context, so that one function undoes whatever part
 * of it was made. */
typedef struct list_setup {
    crew workers;
    int have_queue, have_sync;
} list_setup;

/* The context's fields before anything is allocated: the board, the window's size, the
 * stop and the waits' flags. */
static void list_ctx_init(list_ctx *c, const engine_lister *lister, const list_job *job)
{
    memset(c, 0, sizeof(*c));
    c->job = job;
    c->lister = lister;
    c->n = job->n;
    c->n_slots = (uint64_t)job->n_threads * LIST_WINDOW_PER_WORKER + LIST_WINDOW_EXTRA;
    if (c->n_slots > LIST_WINDOW_MAX)
        c->n_slots = LIST_WINDOW_MAX;
    run_stop_init(&c->stop, job->rs);
    atomic_init(&c->wait_head, LIST_NOBODY);
    atomic_init(&c->wait_target, LIST_NOBODY);
}

/* The depth of the task source, and into *tasks its task count (0: maybe more than are
 * counted up front, known when the source is through). */
static int list_rows(const engine_lister *lx, const list_job *job, uint64_t *tasks)
{
    int rows;

    if (job->rows <= 0)
        return list_auto_rows(lx, job->n, job->n_threads, tasks);
    rows = job->rows < job->n ? job->rows : job->n;
    *tasks = lx->prefix_count(job->n, rows, LIST_COUNT_UP_FRONT);
    if (*tasks == LIST_COUNT_UP_FRONT)
        *tasks = 0;
    return rows;
}

/* The window's slots and rings, the queue and the locks:
 * NQ_ENOMEM when one fails (list_teardown frees what was made). */
static int list_setup_make(list_ctx *c, list_setup *u)
{
    /* Pages of the rings are only touched as boards are stored, so a large window
     * costs address space, not memory, until it is used. */
    c->slots = aligned_alloc(64, sizeof(list_slot) * c->n_slots);
    c->rings = malloc((size_t)c->n_slots * LIST_RING * (size_t)c->n);
    if (!c->slots || !c->rings)
        return NQ_ENOMEM;
    u->have_queue = queue_init(&c->q, c->n_slots) == NQ_OK;
    if (!u->have_queue)
        return NQ_ENOMEM;
    u->have_sync = list_sync_init(c);
    if (!u->have_sync)
        return NQ_ENOMEM;
    for (uint64_t i = 0; i < c->n_slots; i++) {
        atomic_init(&c->slots[i].written, 0);
        atomic_init(&c->slots[i].done, 0);
        atomic_init(&c->slots[i].room_wanted, 0);
        atomic_init(&c->slots[i].read, 0);
    }
    return NQ_OK;
}

static void list_teardown(list_ctx *c, list_setup *u)
{
    if (u->have_sync) {
        pthread_cond_destroy(&c->room);
        pthread_cond_destroy(&c->more);
        pthread_mutex_destroy(&c->mu);
    }
    if (u->have_queue)
        queue_free(&c->q);
    free(c->rings);
    free(c->slots);
}

int list_run(const engine_lister *lister, const list_job *job, nq_result *out)
{
    list_ctx c;
    list_setup u = {0}; /* no crew, queue or wait yet */
    affinity *aff = NULL;
    int rows, rc, stopped = 0;
    uint64_t tasks = 0;

    list_ctx_init(&c, lister, job);
    rows = list_rows(lister, job, &tasks);
    c.shown = run_source_slot(job->rs);
    run_progress_reset(job->rs, tasks);
    if ((rc = list_setup_make(&c, &u)) != NQ_OK) {
        list_teardown(&c, &u);
        return rc;
    }
    if (job->pin)
        aff = run_affinity(job->rs, job->n_threads);
    /* every worker takes the context; one that fails to start stops the run, and the
     * source then places nothing */
    rc = crew_start(&u.workers, job->n_threads, "nq-lister", aff, list_worker_main, &c, 0);
    if (rc != NQ_OK)
        list_stop(&c, rc);
    /* This thread is the source and the consumer: it delivers while it waits for a slot,
     * and after the last prefix until every queued task is delivered. */
    if (rc == NQ_OK) {
        stopped = lister->source(c.n, rows, list_emit_prefix, &c);
        if (!stopped)
            run_progress_total(job->rs, c.pushed);
    }
    while (c.head < c.pushed)
        if (list_step(&c))
            break;
    list_show(&c);
    queue_close(&c.q);
    out->n_pinned = crew_join(&u.workers);
    out->total = (nq_u128){c.delivered, 0};
    out->tasks = c.pushed;
    out->n_threads = job->n_threads;
    out->prefix_rows = rows;
    rc = run_outcome(&c.stop, !stopped && c.head == c.pushed);
    list_teardown(&c, &u);
    return rc;
}
