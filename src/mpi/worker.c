/* nqueens-mpi, ranks 1..n-1: ask rank 0 for batches of task ids, run each with the local
 * thread pool, send back every task's subtotal. One batch is always in flight, so the
 * pool never waits on the network between batches.
 *
 * Threads: this (the main) thread alone calls MPI (MPI_THREAD_FUNNELED). Each batch runs
 * on a thread of its own, so that the main thread can watch for rank 0's stop meanwhile
 * and cancel the batch at its next task boundary. A signal to this rank cancels it too,
 * from the handler (tools/signals.c). */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "mpi_job.h"
#include "tools/signals.h"
#include "worker.h"

/* How often the main thread looks for rank 0's stop while a batch runs. */
#define WATCH_MS 5

void mpi_job_nap(void)
{
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
}

typedef struct worker {
    nq_solver *sv;
    int stopped;   /* TAG_STOP received */
    double beaten; /* when it sent TAG_ALIVE last */
} worker;

/* Tell rank 0 this rank still runs (see TAG_ALIVE), at most every MPI_ALIVE_SECONDS. */
static void beat(worker *w)
{
    double now;
    if (w->stopped)
        return;
    now = clock_seconds();
    if (now - w->beaten < MPI_ALIVE_SECONDS)
        return;
    w->beaten = now;
    MPI_Send(NULL, 0, MPI_UINT64_T, 0, TAG_ALIVE, MPI_COMM_WORLD);
}

/* Take rank 0's stop if it has come, and cancel the batch in progress once stopped or
 * signalled: a cancel reaches only a run in progress, so it is made again at every poll
 * (one that came between two batches would otherwise be lost). */
static void poll_stop(worker *w)
{
    int flag = 0;
    MPI_Status st;

    if (w->stopped || signals_caught())
        nq_solver_cancel(w->sv);
    if (w->stopped)
        return;
    beat(w);
    MPI_Iprobe(0, TAG_STOP, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return;
    MPI_Recv(NULL, 0, MPI_UINT64_T, 0, TAG_STOP, MPI_COMM_WORLD, &st);
    w->stopped = 1;
    nq_solver_cancel(w->sv);
}

/* Wait for a request to finish without Open MPI's busy spin. */
static void wait_polling(worker *w, MPI_Request *req, MPI_Status *st)
{
    int flag = 0;
    for (;;) {
        MPI_Test(req, &flag, st);
        if (flag)
            return;
        poll_stop(w);
        mpi_job_nap();
    }
}

typedef struct batch_sink {
    const uint64_t *ids;
    size_t n;
    uint64_t *pairs; /* (id, subtotal) at the task's position in ids; id UINT64_MAX: not done */
} batch_sink;

static int sink_done(void *user, uint64_t id, uint64_t subtotal)
{
    batch_sink *b = user;
    size_t lo = 0, hi = b->n;
    while (lo < hi) { /* ids are ascending: find this task's slot */
        size_t mid = lo + (hi - lo) / 2;
        if (b->ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == b->n || b->ids[lo] != id)
        return 1; /* not ours: cannot happen unless the library breaks its contract */
    b->pairs[2 * lo] = id;
    b->pairs[2 * lo + 1] = subtotal;
    return 0;
}

/* Move the finished pairs to the front; returns how many there are. */
static size_t sink_compact(batch_sink *b)
{
    size_t k = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (b->pairs[2 * i] == UINT64_MAX)
            continue;
        b->pairs[2 * k] = b->pairs[2 * i];
        b->pairs[2 * k + 1] = b->pairs[2 * i + 1];
        k++;
    }
    return k;
}

typedef struct batch_run {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int finished;
    nq_solver *sv;
    const uint64_t *ids;
    size_t n;
    const nq_hooks *h;
    nq_result r;
    int status;
} batch_run;

static void *batch_main(void *p)
{
    batch_run *b = p;
    int status;

    pthread_setname_np(pthread_self(), "nq-mpi-batch");
    status = nq_count_tasks(b->sv, b->ids, b->n, b->h, &b->r);
    pthread_mutex_lock(&b->mu);
    b->status = status;
    b->finished = 1;
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

/* nq_count_tasks on a thread of its own, while this thread takes rank 0's stop. */
static int run_watched(worker *w, const uint64_t *ids, size_t n, const nq_hooks *h, nq_result *r)
{
    batch_run b;
    pthread_t th;

    b = (batch_run){.sv = w->sv, .ids = ids, .n = n, .h = h};
    pthread_mutex_init(&b.mu, NULL);
    pthread_cond_init(&b.cv, NULL);
    if (pthread_create(&th, NULL, batch_main, &b) != 0) {
        b.status = NQ_ETHREAD;
    } else {
        pthread_mutex_lock(&b.mu);
        while (!b.finished) {
            struct timespec until = clock_after(CLOCK_REALTIME, WATCH_MS * 1000000L);
            pthread_cond_timedwait(&b.cv, &b.mu, &until);
            pthread_mutex_unlock(&b.mu);
            poll_stop(w);
            pthread_mutex_lock(&b.mu);
        }
        pthread_mutex_unlock(&b.mu);
        pthread_join(th, NULL);
    }
    pthread_cond_destroy(&b.cv);
    pthread_mutex_destroy(&b.mu);
    *r = b.r;
    return b.status;
}

/* Run the batch of k ids and fill res with what goes back to rank 0: the status, the
 * time, the pinned workers, the signal and the total, then each finished (id, subtotal).
 * *failed (a failure before or now: this rank takes no more work) and *pinned (the most
 * workers pinned so far) carry over between batches. Returns res's length. */
static int run_batch(worker *w, const uint64_t *ids, int k, uint64_t *res, int *failed, int *pinned)
{
    nq_result r = {0};
    batch_sink sink = {ids, (size_t)k, res + MPI_RESULT_HEAD};
    nq_hooks h = {&sink, NULL, sink_done};
    size_t done;
    double t0, t1;
    int status;

    memset(sink.pairs, 0xff, sizeof(uint64_t) * 2 * (size_t)k);
    t0 = clock_seconds();
    /* A batch that arrives after the stop is not started. */
    status = *failed                          ? *failed
             : w->stopped || signals_caught() ? NQ_ECANCELED
                                              : run_watched(w, ids, (size_t)k, &h, &r);
    t1 = clock_seconds();
    /* What finished is sent whatever the status: rank 0 records it. A stop is not a
     * failure of this rank; any other status is, and this rank takes no more work. */
    done = *failed ? 0 : sink_compact(&sink);
    if (status != NQ_OK && status != NQ_ECANCELED)
        *failed = status;
    if (r.n_pinned > *pinned)
        *pinned = r.n_pinned;
    res[0] = (uint64_t)(int64_t)status;
    memcpy(&res[1], &(double){t1 - t0}, sizeof(double));
    res[2] = (uint64_t)*pinned;
    res[3] = status == NQ_ECANCELED ? (uint64_t)signals_caught() : 0;
    res[4] = r.total.lo;
    res[5] = r.total.hi;
    return MPI_RESULT_HEAD + 2 * (int)done;
}

/* After the last batch: the replies to the outstanding requests are empty too, and rank
 * 0's stop is the last message it sends this rank: take them all, so that nothing is left
 * unreceived. */
static void drain(worker *w, uint64_t *buf, int outstanding)
{
    MPI_Request req;
    MPI_Status st;

    while (outstanding-- > 0) {
        MPI_Irecv(buf, MPI_BATCH_MAX, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, &req);
        wait_polling(w, &req, &st);
    }
    while (!w->stopped) {
        poll_stop(w);
        if (!w->stopped)
            mpi_job_nap();
    }
}

int worker_run(const nq_settings *s, double cpu0)
{
    uint64_t *buf[2], *res, cpu;
    worker w = {NULL, 0, 0.0};
    MPI_Request req;
    MPI_Status st;
    int cur = 0, outstanding = 0, status, pinned = 0, failed = NQ_OK;

    buf[0] = malloc(sizeof(uint64_t) * MPI_BATCH_MAX);
    buf[1] = malloc(sizeof(uint64_t) * MPI_BATCH_MAX);
    res = malloc(sizeof(uint64_t) * (MPI_RESULT_HEAD + 2 * (size_t)MPI_BATCH_MAX));
    status = (!buf[0] || !buf[1] || !res) ? NQ_ENOMEM : nq_create_solver(&w.sv, s);
    if (status != NQ_OK)
        failed = status;
    signals_target(w.sv); /* a signal that came before is taken by poll_stop */

    /* Open the pipeline with empty results; a failed rank reports and takes no work. */
    for (int i = 0; i < MPI_PIPELINE; i++) {
        uint64_t head[MPI_RESULT_HEAD] = {(uint64_t)(int64_t)failed, 0, 0, 0, 0, 0};
        MPI_Send(head, MPI_RESULT_HEAD, MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
        outstanding++;
    }
    MPI_Irecv(buf[cur], MPI_BATCH_MAX, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, &req);
    for (;;) {
        int k, len;

        wait_polling(&w, &req, &st);
        outstanding--;
        MPI_Get_count(&st, MPI_UINT64_T, &k);
        if (k == 0)
            break;
        /* the reply to the other open request lands in the other buffer meanwhile */
        MPI_Irecv(buf[!cur], MPI_BATCH_MAX, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, &req);
        len = run_batch(&w, buf[cur], k, res, &failed, &pinned);
        MPI_Send(res, len, MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
        outstanding++;
        cur = !cur;
    }
    drain(&w, buf[!cur], outstanding);
    signals_target(NULL);
    nq_destroy_solver(&w.sv);
    free(buf[0]);
    free(buf[1]);
    free(res);
    memcpy(&cpu, &(double){clock_cpu() - cpu0}, sizeof(cpu));
    MPI_Send(&cpu, 1, MPI_UINT64_T, 0, TAG_DONE, MPI_COMM_WORLD);
    return failed;
}
