/* The GPU engine's host side (see engine.h). Plain C, built with or without CUDA: the
 * device work goes through an engine_backend, so the tests run all of this on the CPU.
 *
 * Ownership: the calling thread enumerates the tasks, asks the reuse hook, lays out the
 * chunks, then expands them in order, each into a free buffer of a small ring (blocking
 * while none is free), publishes each (expanded, under the lock), and joins. One host
 * thread per device opens its device meanwhile, then takes chunks from one atomic
 * counter, waits for each to be expanded, keeps two in flight, and for each that ends
 * writes only its subtotals, calls task_done for its tasks and frees its buffer. The
 * engine plugs into the runtime machinery of runtime/run.h like the worker pool: its
 * stop is a run_stop over the solver's cancel flag (a hook halts it, a device fails it),
 * and it reports progress in the calling thread's slot of the solver's run_state. That
 * slot, the ring and the expansion state are shared under one mutex, taken a few times per chunk (a
 * chunk is thousands of tasks' worth of GPU time, so the lock is never hot); every change a waiter
 * may be waiting for is broadcast on one condition variable, stops and device exits included, so
 * that nothing hangs.
 *
 * The ring has two buffers per device and two spare: a device holds at most two
 * expanded chunks (in flight, or about to be), so while one waits for a chunk still to
 * be expanded the others hold at most 2 x devices - 1 buffers and the expansion always
 * finds one free; the spares let it run ahead of the devices. */
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/u128.h"
#include "engines/d4.h"
#include "engines/d4tail.h"
#include "engines/lex.h"
#include "engines/prefix.h"
#include "gpu/engine.h"
#include "runtime/crew.h"

/* Sub-tasks per device the auto depth aims for: enough that the threads resident on a
 * large GPU (about 2^18) each take a few dozen, so that the long ones even out. Beyond
 * ENGINE_SUBS_FROM_N it doubles per n, so that a sub-task's walk (what a stop waits for,
 * and the tail of a launch) grows more slowly than the work; the ring keeps the host's
 * memory bounded however many there are. */
#define ENGINE_SUBS_PER_DEVICE (1ull << 22)
#define ENGINE_SUBS_FROM_N 22
/* Chunks per device: the unit of dynamic sharing between devices, of progress and of
 * what a checkpoint records. A launch ends in a tail where few threads still run, but
 * the next chunk, already launched on the other slot, fills the GPU meanwhile. */
#define ENGINE_CHUNKS_PER_DEVICE 16
/* Most sub-tasks in one chunk (48 MiB of buffer with their counts), so that host memory
 * stays bounded whatever n; a task with more is a chunk of its own, since a chunk is cut
 * at task boundaries to keep each task's subtotal within one chunk. */
#define ENGINE_CHUNK_SUBS (1ull << 21)
/* Ring buffers beyond the two per device that the devices can hold. */
#define ENGINE_RING_SPARE 2

/* One ring buffer: the sub-tasks of one chunk and their counts. */
typedef struct chunk_buf {
    search_sub *subs;
    uint64_t *counts;
    uint32_t chunk; /* under lock: the chunk it holds while busy */
    int busy;       /* under lock: holds a chunk not yet finished or abandoned */
} chunk_buf;

typedef struct engine_ctx {
    const engine_job *job;
    const engine_backend *be;
    /* Made by the calling thread before the device threads read them. */
    task *tasks;
    search_plan *plans;
    uint32_t n_plans;
    uint32_t *order;     /* the tasks to run, by id */
    uint32_t m;          /* how many */
    uint64_t *sub_begin; /* sub-tasks of order[j]: sub_begin[j] .. sub_begin[j+1]-1 */
    uint32_t *chunk_begin;
    uint32_t n_chunks;
    int rows; /* inner rows the host places per sub-task */
    int levels;
    uint64_t max_chunk_subs;
    chunk_buf *ring;
    int n_ring;
    /* Each task's result, written by the one thread that finishes it. */
    uint64_t *subtotal;
    uint8_t *done;
    uint64_t *fixed; /* d4_fixed_sum, once fixed_ok */
    uint8_t *fixed_ok;
    atomic_uint next_chunk;
    run_stop stop;     /* the solver's cancel; halted by a hook, failed by a device */
    int ready;         /* under lock: 1 once the chunks are laid out, -1 if never */
    uint32_t expanded; /* under lock: chunks whose sub-tasks are written */
    int expand_ended;  /* under lock: no further chunk will be expanded */
    int ring_busy;     /* under lock: buffers holding a chunk */
    int live;          /* under lock: device threads still running */
    pthread_mutex_t lock;
    pthread_cond_t cond; /* any change of the state under lock */
} engine_ctx;

static int stopping(const engine_ctx *c)
{
    return run_stopping(&c->stop);
}

/* The progress slot: the calling thread writes it before the device threads start, and
 * they write it under the lock, so it has one writer at a time. */
static run_slot *progress_slot(const engine_ctx *c)
{
    return run_source_slot(c->job->rs);
}

/* Frees the buffer of a chunk that ended, finished or abandoned. */
static void ring_release(engine_ctx *c, chunk_buf *b)
{
    pthread_mutex_lock(&c->lock);
    b->busy = 0;
    c->ring_busy--;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

/* Records the tasks of chunk whose sub-tasks are all among the first done of it: all of
 * them unless the device was stopped. A task cut by the stop is run again next time.
 * The chunk's buffer b is free again afterwards. */
static void chunk_finish(engine_ctx *c, uint32_t chunk, chunk_buf *b, uint64_t done)
{
    const nq_hooks *h = c->job->hooks;
    uint64_t first = c->sub_begin[c->chunk_begin[chunk]], n_done = 0;
    u128 sum = 0;

    for (uint32_t j = c->chunk_begin[chunk]; j < c->chunk_begin[chunk + 1]; j++) {
        uint32_t id = c->order[j];
        uint64_t sub = 0;
        if (c->sub_begin[j + 1] - first > done)
            break;
        for (uint64_t i = c->sub_begin[j]; i < c->sub_begin[j + 1]; i++)
            sub += b->counts[i - first];
        if (h && h->task_done && h->task_done(h->user, id, sub) != 0) {
            run_halt(&c->stop, NQ_ECALLBACK);
            continue; /* not counted: the hook could not record it */
        }
        c->subtotal[id] = sub;
        c->done[id] = 1;
        sum += (u128)sub * c->tasks[id].weight;
        n_done++;
    }
    pthread_mutex_lock(&c->lock);
    run_slot_add(progress_slot(c), sum, n_done);
    pthread_mutex_unlock(&c->lock);
    ring_release(c, b);
}

static void engine_fail(engine_ctx *c, int rc)
{
    pthread_mutex_lock(&c->lock);
    run_fail(&c->stop, rc);
    pthread_cond_broadcast(&c->cond); /* the expansion may wait for a buffer */
    pthread_mutex_unlock(&c->lock);
}

static int stop_polled(void *arg)
{
    return stopping(arg);
}

/* Blocks until the calling thread has laid out the chunks; 0 if it never will. */
static int wait_ready(engine_ctx *c)
{
    int ready;
    pthread_mutex_lock(&c->lock);
    while (!c->ready)
        pthread_cond_wait(&c->cond, &c->lock);
    ready = c->ready;
    pthread_mutex_unlock(&c->lock);
    return ready > 0;
}

static void set_ready(engine_ctx *c, int ready)
{
    pthread_mutex_lock(&c->lock);
    c->ready = ready;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

/* Blocks until the sub-tasks of chunk are written and returns their buffer; NULL if
 * they never will be (the expansion stopped). */
static chunk_buf *wait_expanded(engine_ctx *c, uint32_t chunk)
{
    chunk_buf *b = NULL;
    pthread_mutex_lock(&c->lock);
    while (c->expanded <= chunk && !c->expand_ended)
        pthread_cond_wait(&c->cond, &c->lock);
    for (int i = 0; c->expanded > chunk && i < c->n_ring; i++)
        if (c->ring[i].busy && c->ring[i].chunk == chunk)
            b = &c->ring[i];
    pthread_mutex_unlock(&c->lock);
    return b;
}

/* Blocks until a ring buffer is free and takes it for chunk; NULL after a stop. */
static chunk_buf *ring_take(engine_ctx *c, uint32_t chunk)
{
    chunk_buf *b = NULL;
    pthread_mutex_lock(&c->lock);
    while (c->ring_busy == c->n_ring && c->live && !stopping(c))
        pthread_cond_wait(&c->cond, &c->lock);
    for (int i = 0; !stopping(c) && !b && i < c->n_ring; i++)
        if (!c->ring[i].busy) {
            b = &c->ring[i];
            b->busy = 1;
            b->chunk = chunk;
            c->ring_busy++;
        }
    pthread_mutex_unlock(&c->lock);
    return b;
}

/* Publishes how many chunks are expanded, and whether that is all there will be. */
static void set_expanded(engine_ctx *c, uint32_t expanded, int ended)
{
    pthread_mutex_lock(&c->lock);
    c->expanded = expanded;
    c->expand_ended = ended;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

typedef struct device_thread {
    engine_ctx *c;
    int dev;
} device_thread;

/* One device: chunks in the order taken, at most two in flight (slots alternate), each
 * finished in turn. After a stop or an error it submits nothing more but still waits
 * for what it submitted, so that nothing runs on after the engine returns and every
 * complete task is recorded; a chunk taken but not submitted is abandoned (its buffer
 * freed, its tasks left for the next run). */
static void device_main(void *p)
{
    device_thread *t = p;
    engine_ctx *c = t->c;
    const engine_backend *be = c->be;
    void *h = NULL;
    uint32_t chunk_in[2];
    chunk_buf *buf_in[2];
    int head = 0, busy = 0, rc;

    rc = be->open(be->user, t->dev, c->plans, c->n_plans, &h);
    if (rc != NQ_OK || !wait_ready(c))
        goto out;
    rc = be->start(h, c->max_chunk_subs, c->levels, &c->job->gpu);
    while (rc == NQ_OK || busy) {
        while (rc == NQ_OK && busy < 2 && !stopping(c)) {
            uint32_t chunk = atomic_fetch_add(&c->next_chunk, 1);
            uint64_t first, n;
            int slot = (head + busy) & 1;
            chunk_buf *b;
            if (chunk >= c->n_chunks)
                break;
            first = c->sub_begin[c->chunk_begin[chunk]];
            n = c->sub_begin[c->chunk_begin[chunk + 1]] - first;
            b = wait_expanded(c, chunk);
            if (!b)
                break; /* the expansion stopped */
            if (!n) {
                chunk_finish(c, chunk, b, 0);
                continue;
            }
            rc = be->submit(h, slot, b->subs, n, b->counts);
            if (rc != NQ_OK) {
                ring_release(c, b);
                break;
            }
            chunk_in[slot] = chunk;
            buf_in[slot] = b;
            busy++;
        }
        if (rc != NQ_OK)
            engine_fail(c, rc); /* the other devices and the expansion stop too */
        if (!busy)
            break;
        {
            uint64_t done = 0;
            int w = be->wait(h, head, stop_polled, c, &done);
            if (w == NQ_OK)
                chunk_finish(c, chunk_in[head], buf_in[head], done);
            else
                ring_release(c, buf_in[head]);
            if (w != NQ_OK && rc == NQ_OK)
                rc = w;
            head ^= 1;
            busy--;
        }
    }
out:
    if (rc != NQ_OK)
        engine_fail(c, rc);
    if (h)
        be->close(h);
    pthread_mutex_lock(&c->lock);
    c->live--;
    pthread_cond_broadcast(&c->cond); /* the expansion may wait for this device's buffers */
    pthread_mutex_unlock(&c->lock);
}

typedef struct collect {
    task *tasks;
    uint64_t n;
} collect;

static int collect_task(void *user, const task *t)
{
    collect *c = user;
    c->tasks[c->n++] = *t;
    return 0;
}

typedef struct sub_sink {
    search_sub *subs;
    uint64_t n;
} sub_sink;

static int sub_store(void *user, const search_sub *s)
{
    sub_sink *k = user;
    k->subs[k->n++] = *s;
    return 0;
}

/* The expansion: the search loop over a GPU plan, each placement at the last host row
 * that survives the pruning emitted as a sub-task. */
typedef struct expand_ctx {
    const search_plan *p;
    uint32_t head; /* plan index and start depth, packed as search_sub has them */
    engine_sub_fn emit;
    void *user;
    int halt; /* emit asked to stop */
} expand_ctx;

/* A placement at inner row d leaves row n-1 some square (k rows further down). */
static inline int expand_alive(const search_plan *p, int d, uint32_t nc, uint32_t nl, uint32_t nr)
{
    uint32_t k = p->to_last[d + 1];
    return (p->last & ~(nc | (nl << k) | (nr >> k))) != 0;
}

static uint64_t expand_leaf(expand_ctx *x, int d, uint32_t nc, uint32_t nl, uint32_t nr,
                            uint32_t na)
{
    search_sub sub = {x->head, nc, nl, nr};
    if (!na || !expand_alive(x->p, d, nc, nl, nr))
        return 0;
    if (x->emit && x->emit(x->user, &sub))
        x->halt = 1;
    return 1;
}

#define SEARCH_FN expand_search
#define SEARCH_CTX expand_ctx
#define SEARCH_FREE(x, d) ((x)->p->free[d])
#define SEARCH_SHIFT(x, d) ((uint32_t)(x)->p->shift[d])
#define SEARCH_ALIVE(x, d, nc, nl, nr) expand_alive((x)->p, d, nc, nl, nr)
#define SEARCH_SETTLE_ROWS 0
#define SEARCH_SETTLE(x, d, nc, nl, nr, na) expand_leaf(x, d, nc, nl, nr, na)
#define SEARCH_HALTED(x) ((x)->halt)
#define SEARCH_STOP_MASK 0u /* the host's part is short: it never looks */
#define SEARCH_STOPPING(x) 0
#include "engines/search_tmpl.c"

uint64_t engine_expand(const search_plan *p, uint32_t plan_index, int rows, engine_sub_fn emit,
                       void *user)
{
    int target = rows < p->depth - 3 ? rows : p->depth - 3;
    expand_ctx x = {p, plan_index << 5 | (uint32_t)(target > 0 ? target : 0), emit, user, 0};

    if (target <= 0) {
        search_sub s = {plan_index << 5, 0, 0, 0};
        if (emit)
            emit(user, &s);
        return 1;
    }
    return expand_search(&x, target, 0, 0, 0);
}

/* The shallowest depth whose sub-tasks reach target, or the deepest that changes
 * anything; sub_begin gets the sub-task offsets of each task at that depth. Counting a
 * depth costs about what expanding it does, and the depths before it shrink
 * geometrically, so this costs about one extra expansion. rows > 0: that depth only. */
static int choose_rows(const search_plan *plans, const uint32_t *order, uint32_t m, uint64_t target,
                       int rows, uint64_t *sub_begin)
{
    uint64_t prev = 0;
    for (int k = rows ? rows : 1;; k++) {
        uint64_t n = 0;
        for (uint32_t j = 0; j < m; j++) {
            if (sub_begin)
                sub_begin[j] = n;
            n += engine_expand(&plans[order[j]], order[j], k, NULL, NULL);
        }
        if (sub_begin)
            sub_begin[m] = n;
        if (rows || n >= target || (k > 1 && n == prev) || k >= 29)
            return k;
        prev = n;
    }
}

void engine_plan_build(int n, const task *t, search_plan *p)
{
    d4_plan q;

    memset(&q, 0, sizeof(q));
    memset(p, 0, sizeof(*p));
    d4_plan_build(n, t, &q);
    p->depth = q.depth;
    p->last = q.last;
    p->cols = q.cols;
    for (int d = 0; d < 32; d++) {
        p->free[d] = d < q.depth ? q.free[d] : 0;
        p->shift[d] = (uint8_t)(d < q.depth ? q.shift[d] : 1);
        p->to_last[d] = (uint8_t)(d < q.depth ? q.to_last[d] : 0);
    }
    for (int d = 0; d < 32; d++) {
        uint64_t next_free = d + 1 < 32 ? p->free[d + 1] : 0;
        uint64_t next_to_last = d + 1 < 32 ? p->to_last[d + 1] : 0;
        p->step[d] = next_free | (uint64_t)p->shift[d] << 32 | next_to_last << 40;
    }
}

static void plans_build(int n, const task *tasks, uint64_t n_tasks, search_plan *plans)
{
    for (uint64_t i = 0; i < n_tasks; i++)
        engine_plan_build(n, &tasks[i], &plans[i]);
}

int engine_ring_size(int n_devices)
{
    return 2 * n_devices + ENGINE_RING_SPARE;
}

/* The sub-task count the auto depth aims for (gpu->subtasks per device overrides the
 * default, growth with n included). */
static uint64_t subs_target(int n, int n_devices, const nq_gpu_settings *gpu)
{
    uint64_t per = ENGINE_SUBS_PER_DEVICE;
    if (n > ENGINE_SUBS_FROM_N)
        per <<= n - ENGINE_SUBS_FROM_N < 16 ? n - ENGINE_SUBS_FROM_N : 16;
    if (gpu && gpu->subtasks)
        per = gpu->subtasks;
    return per * (uint64_t)(n_devices > 0 ? n_devices : 1);
}

int engine_auto_rows(int n, int n_devices, const nq_gpu_settings *gpu)
{
    uint64_t n_tasks = d4_enumerate(n, NULL, NULL);
    task *tasks = calloc(n_tasks ? n_tasks : 1, sizeof(*tasks));
    search_plan *plans = calloc(n_tasks ? n_tasks : 1, sizeof(*plans));
    uint32_t *order = calloc(n_tasks ? n_tasks : 1, sizeof(*order));
    collect col = {tasks, 0};
    int rows = 1;

    if (tasks && plans && order) {
        d4_enumerate(n, collect_task, &col);
        plans_build(n, tasks, n_tasks, plans);
        for (uint64_t i = 0; i < n_tasks; i++)
            order[i] = (uint32_t)i;
        rows =
            choose_rows(plans, order, (uint32_t)n_tasks, subs_target(n, n_devices, gpu), 0, NULL);
    }
    free(tasks);
    free(plans);
    free(order);
    return rows;
}

static int devices_pick(const engine_job *job, const engine_backend *be, int *devs)
{
    int count = be->devices(be->user), n = 0;
    if (count < 0)
        return count;
    for (int d = 0; d < count && d < 64; d++)
        if (!job->device_mask || (job->device_mask >> d & 1))
            devs[n++] = d;
    /* A mask naming devices beyond those present is a request this machine cannot
     * meet: report it rather than quietly running on fewer. */
    if (job->device_mask && (count >= 64 ? 0 : job->device_mask >> count))
        return NQ_ENODEV;
    return n ? n : NQ_ENODEV;
}

/* ---- engine_run, step by step ------------------------------------------------------- */

/* Plan: the d4 tasks with their search plans, and room for each task's results. */
static int engine_plan(engine_ctx *c, uint64_t n_tasks)
{
    collect col;

    c->tasks = calloc(n_tasks + 1, sizeof(*c->tasks));
    c->plans = calloc(n_tasks + 1, sizeof(*c->plans));
    c->subtotal = calloc(n_tasks + 1, sizeof(*c->subtotal));
    c->done = calloc(n_tasks + 1, 1);
    c->order = calloc(n_tasks + 1, sizeof(*c->order));
    c->sub_begin = calloc(n_tasks + 1, sizeof(*c->sub_begin));
    c->fixed = calloc(n_tasks + 1, sizeof(*c->fixed));
    c->fixed_ok = calloc(n_tasks + 1, 1);
    c->chunk_begin = calloc(n_tasks + 1, sizeof(*c->chunk_begin)); /* a chunk has a task */
    if (!c->tasks || !c->plans || !c->subtotal || !c->done || !c->order || !c->sub_begin ||
        !c->fixed || !c->fixed_ok || !c->chunk_begin)
        return NQ_ENOMEM;
    col = (collect){c->tasks, 0};
    d4_enumerate(c->job->n, collect_task, &col);
    plans_build(c->job->n, c->tasks, n_tasks, c->plans);
    c->n_plans = (uint32_t)n_tasks;
    return NQ_OK;
}

/* Reuse: the tasks the run wants (nq_count_tasks' filter), those recorded by an earlier
 * run counted as recorded and never expanded, the others put in order to run. */
static void engine_reuse(engine_ctx *c)
{
    const nq_hooks *h = c->job->hooks;

    for (uint64_t i = 0, k = 0; i < c->n_plans; i++) {
        uint64_t sub;
        int wanted = run_wants(c->job->rs, &k, i);
        if (wanted < 0 || run_canceled(&c->stop))
            break;
        if (!wanted)
            continue;
        if (h && h->reuse && h->reuse(h->user, i, &sub) == 1) {
            c->subtotal[i] = sub;
            c->done[i] = 1;
            run_slot_add(progress_slot(c), (u128)sub * c->tasks[i].weight, 1);
            run_note_reused(c->job->rs, (u128)sub * c->tasks[i].weight);
            continue;
        }
        c->order[c->m++] = (uint32_t)i;
    }
}

/* Start one host thread per device (none without chunks); the devices start (a CUDA
 * context takes a good part of a second) while this thread expands the sub-tasks. A
 * thread that did not start fails the run. */
static void devices_start(engine_ctx *c, crew *hosts, device_thread *threads, const int *devs,
                          int n_devs)
{
    int n = c->m ? n_devs : 0, rc;

    for (int d = 0; d < n; d++)
        threads[d] = (device_thread){.c = c, .dev = devs[d]};
    pthread_mutex_lock(&c->lock);
    c->live = n; /* less those that did not start, below */
    pthread_mutex_unlock(&c->lock);
    rc = crew_start(hosts, n, "nq-gpu", NULL, device_main, threads, sizeof(*threads));
    if (rc != NQ_OK) {
        pthread_mutex_lock(&c->lock);
        c->live -= n - hosts->started;
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
        engine_fail(c, rc);
    }
}

/* The stack a sub-task needs follows from its plan and the depth it starts at, which is
 * the host depth unless the plan has fewer rows (engine_expand). */
static int stack_levels(const engine_ctx *c)
{
    int levels = 0;

    for (uint32_t j = 0; j < c->m; j++) {
        const search_plan *p = &c->plans[c->order[j]];
        int d0 = c->rows < p->depth - 3 ? c->rows : p->depth - 3;
        int l = search_levels(p, d0 > 0 ? d0 : 0);
        if (l > levels)
            levels = l;
    }
    return levels;
}

/* Chunking: chunks of about equal sub-task counts (even of them), cut at task
 * boundaries so that a task's subtotal is complete when its chunk is, and each cut again
 * where it holds more than cap sub-tasks (a task with more is a chunk of its own). */
static void chunks_cut(engine_ctx *c, uint32_t even, uint64_t cap)
{
    const uint64_t *sub_begin = c->sub_begin, n_subs = sub_begin[c->m];
    uint32_t m = c->m, n_chunks = 0;

    if (even > m)
        even = m;
    for (uint32_t k = 0, j = 0; k < even; k++) {
        uint64_t want = n_subs * (k + 1) / even;
        uint32_t after = even - k - 1; /* chunks still to cut, one task each at least */
        uint32_t from = j;
        c->chunk_begin[n_chunks++] = j;
        do
            j++;
        while (j < m - after && sub_begin[j] < want);
        if (after == 0)
            j = m;
        for (uint32_t t = from + 1; t < j; t++)
            if (sub_begin[t + 1] - sub_begin[from] > cap)
                c->chunk_begin[n_chunks++] = from = t;
    }
    c->chunk_begin[n_chunks] = m;
    c->n_chunks = n_chunks;
    for (uint32_t k = 0; k < n_chunks; k++) {
        uint64_t n = sub_begin[c->chunk_begin[k + 1]] - sub_begin[c->chunk_begin[k]];
        if (n > c->max_chunk_subs)
            c->max_chunk_subs = n;
    }
}

/* The ring of chunk buffers, as many as the devices can hold (no more than chunks). */
static int ring_alloc(engine_ctx *c, int n_devs)
{
    c->n_ring = engine_ring_size(n_devs);
    if ((uint32_t)c->n_ring > c->n_chunks)
        c->n_ring = (int)c->n_chunks;
    c->ring = calloc((size_t)c->n_ring + 1, sizeof(*c->ring));
    if (!c->ring)
        return NQ_ENOMEM;
    for (int i = 0; i < c->n_ring; i++) {
        c->ring[i].subs = malloc((c->max_chunk_subs + 1) * sizeof(*c->ring[i].subs));
        c->ring[i].counts = calloc(c->max_chunk_subs + 1, sizeof(*c->ring[i].counts));
        if (!c->ring[i].subs || !c->ring[i].counts)
            return NQ_ENOMEM;
    }
    return NQ_OK;
}

static void ring_free(engine_ctx *c)
{
    for (int i = 0; c->ring && i < c->n_ring; i++) {
        free(c->ring[i].subs);
        free(c->ring[i].counts);
    }
    free(c->ring);
}

/* Expansion: chunk by chunk, so that the first GPU starts after one chunk's expansion
 * rather than all of it (about 0.1 s of host time at n = 20), and into the ring, so that
 * host memory stays bounded whatever n. */
static void chunks_expand(engine_ctx *c)
{
    for (uint32_t k = 0;; k++) {
        chunk_buf *b = k < c->n_chunks ? ring_take(c, k) : NULL;
        sub_sink sink;
        if (!b) {
            set_expanded(c, k, 1); /* all of them, or a stop */
            return;
        }
        sink = (sub_sink){b->subs, 0};
        for (uint32_t j = c->chunk_begin[k]; j < c->chunk_begin[k + 1]; j++)
            engine_expand(&c->plans[c->order[j]], c->order[j], c->rows, sub_store, &sink);
        set_expanded(c, k + 1, 0);
    }
}

/* The symmetric part of the unique count of the tasks to run, while the devices run;
 * reused tasks and what a stop cuts short are done in the fold. */
static void fixed_sums(engine_ctx *c)
{
    for (uint32_t j = 0; j < c->m && !stopping(c); j++) {
        c->fixed[c->order[j]] = d4_fixed_sum(c->job->n, &c->tasks[c->order[j]]);
        c->fixed_ok[c->order[j]] = 1;
    }
}

/* Fold: everything counted, reused or run, into the result, even after a stop. Returns
 * how many tasks are done. */
static uint64_t engine_fold(engine_ctx *c, nq_result *out)
{
    u128 total = 0, unique = 0;
    uint64_t n_done = 0;

    for (uint64_t i = 0; i < c->n_plans; i++) {
        const task *t = &c->tasks[i];
        if (!c->done[i])
            continue;
        total += (u128)c->subtotal[i] * t->weight;
        if (!c->fixed_ok[i])
            c->fixed[i] = d4_fixed_sum(c->job->n, t);
        unique += (c->subtotal[i] + c->fixed[i]) / (8u / t->weight); /* d4_unique's Burnside */
        n_done++;
    }
    out->total = u128_pack(total);
    out->unique = u128_pack(unique);
    return n_done;
}

static void engine_ctx_free(engine_ctx *c)
{
    ring_free(c);
    free(c->tasks);
    free(c->plans);
    free(c->subtotal);
    free(c->sub_begin);
    free(c->order);
    free(c->chunk_begin);
    free(c->done);
    free(c->fixed);
    free(c->fixed_ok);
}

int engine_run(const engine_job *job, const engine_backend *be, nq_result *out)
{
    engine_ctx c;
    int devs[64], n_devs, rc;
    crew hosts = {NULL, 0};
    uint64_t n_tasks, n_wanted;
    device_thread *threads = NULL;

    memset(out, 0, sizeof(*out));
    memset(&c, 0, sizeof(c));
    out->engine = NQ_ENGINE_CUDA;
    out->has_unique = 1;
    n_devs = devices_pick(job, be, devs);
    if (n_devs < 0)
        return n_devs;
    out->n_threads = n_devs;
    n_tasks = d4_enumerate(job->n, NULL, NULL);
    n_wanted = run_wanted(job->rs, n_tasks);
    out->tasks = n_wanted;
    run_progress_reset(job->rs, n_wanted);
    c.job = job;
    c.be = be;
    run_stop_init(&c.stop, job->rs);
    atomic_init(&c.next_chunk, 0);
    threads = calloc((size_t)n_devs, sizeof(*threads));
    rc = threads ? engine_plan(&c, n_tasks) : NQ_ENOMEM;
    if (rc != NQ_OK)
        goto out;
    engine_reuse(&c);

    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.cond, NULL);
    devices_start(&c, &hosts, threads, devs, n_devs);
    c.rows = choose_rows(c.plans, c.order, c.m, subs_target(job->n, n_devs, &job->gpu),
                         job->expand_rows, c.sub_begin);
    out->prefix_rows = c.rows;
    c.levels = stack_levels(&c);
    chunks_cut(&c,
               (uint32_t)(job->gpu.chunks ? job->gpu.chunks : ENGINE_CHUNKS_PER_DEVICE) *
                   (uint32_t)n_devs,
               job->gpu.chunk_subtasks ? job->gpu.chunk_subtasks : ENGINE_CHUNK_SUBS);
    if (ring_alloc(&c, n_devs) != NQ_OK) {
        engine_fail(&c, NQ_ENOMEM);
        set_ready(&c, -1);
    } else {
        set_ready(&c, 1);
        chunks_expand(&c);
        fixed_sums(&c);
    }
    crew_join(&hosts);
    pthread_cond_destroy(&c.cond);
    pthread_mutex_destroy(&c.lock);
    rc = run_outcome(&c.stop, engine_fold(&c, out) == n_wanted);
out:
    engine_ctx_free(&c);
    free(threads);
    return rc;
}

/* ---- the engine descriptor ------------------------------------------------------------ */

#if NQ_HAVE_CUDA
static int engine_cuda_run(const nq_settings *s, const nq_hooks *hooks, run_state *rs,
                           nq_result *out)
{
    engine_job job = {s->n, s->devices, s->prefix_rows, hooks, rs, s->gpu};
    return engine_run(&job, &device_backend, out);
}
#endif

/* The d4 tasks, so that subtotals compare id by id with the d4 engine's. */
const engine_desc engine_cuda = {
    .name = "cuda",
    .id = NQ_ENGINE_CUDA,
    .built = NQ_HAVE_CUDA,
    .takes_prefix_rows = 1, /* inner rows per GPU sub-task; its task set is d4's */
    .takes_devices = 1,
    .list = &lex_lister, /* on the CPU */
    D4_TASK_SET_MEMBERS,
#if NQ_HAVE_CUDA
    .run = engine_cuda_run,
#endif
};
