/* nqueens-mpi, rank 0: hands out batches of task ids on request, records every task's
 * subtotal (and through the store, journals it), computes with its own thread pool too,
 * and at the end reduces the subtotals into the exact total.
 *
 * Ownership: the main thread alone calls MPI (MPI_THREAD_FUNNELED); the local compute
 * thread and the main thread share the coordinator state under one mutex. */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_job.h"

/* Guided self-scheduling: a batch is this fraction of the rank's share of what is left,
 * so batches shrink as the run nears its end and the last ones finish close together. */
#define GUIDE_FACTOR 4
/* And at most this many seconds of work at the rank's measured rate, so that a batch's
 * subtotals reach the journal (and a killed run loses) no more than about this much. */
#define BATCH_TARGET_SECONDS 2.0

typedef struct coord {
    pthread_mutex_t mu;
    const nq_settings *s;
    const nq_hooks *store;
    const int *rank_threads;
    int total_threads;
    uint64_t n_tasks;
    uint64_t *sub;   /* subtotal of each task id, once known */
    uint8_t *have;   /* 1 once sub[id] is known */
    uint8_t *given;  /* 1 once handed out (a result for an id not given is refused) */
    uint64_t cursor; /* ids below it have been handed out or were known */
    uint64_t left;   /* ids neither known nor handed out */
    double *rate;    /* per rank: tasks per second, 0 until measured */
    int *pinned;     /* per rank: most workers a batch ran pinned */
    int failed;      /* first failure; once set, no more work is handed out */
} coord;

static void coord_fail(coord *c, int status)
{
    if (c->failed == NQ_OK)
        c->failed = status;
}

/* Under the mutex. Fills ids with the next batch for rank; returns its length. */
static size_t coord_next_batch(coord *c, int rank, uint64_t *ids)
{
    uint64_t size, k = 0;
    int threads = c->rank_threads[rank];

    if (c->failed != NQ_OK || c->left == 0)
        return 0;
    size = c->left * (uint64_t)threads / ((uint64_t)GUIDE_FACTOR * (uint64_t)c->total_threads);
    if (c->rate[rank] > 0 && (double)size > c->rate[rank] * BATCH_TARGET_SECONDS)
        size = (uint64_t)(c->rate[rank] * BATCH_TARGET_SECONDS);
    if (size < (uint64_t)threads)
        size = (uint64_t)threads; /* one task per worker at least */
    if (size > MPI_BATCH_MAX)
        size = MPI_BATCH_MAX;
    if (size > c->left)
        size = c->left;
    while (k < size) {
        if (!c->have[c->cursor]) {
            c->given[c->cursor] = 1;
            ids[k++] = c->cursor;
        }
        c->cursor++;
    }
    c->left -= k;
    return (size_t)k;
}

/* Under the mutex. */
static void coord_record(coord *c, uint64_t id, uint64_t subtotal)
{
    if (id >= c->n_tasks || !c->given[id] || c->have[id]) {
        coord_fail(c, NQ_EINVAL); /* a rank answered for a task it was not given */
        return;
    }
    c->sub[id] = subtotal;
    c->have[id] = 1;
    if (c->store && c->store->task_done && c->store->task_done(c->store->user, id, subtotal))
        coord_fail(c, NQ_ECALLBACK);
}

static void coord_measure(coord *c, int rank, uint64_t tasks, double seconds)
{
    double r;
    if (tasks == 0 || seconds <= 0)
        return;
    r = (double)tasks / seconds;
    c->rate[rank] = c->rate[rank] > 0 ? 0.5 * (c->rate[rank] + r) : r;
}

/* ---- rank 0's own share of the work ---------------------------------------------- */

typedef struct local {
    coord *c;
    int status;
    int pinned;
} local;

static int local_done(void *user, uint64_t id, uint64_t subtotal)
{
    coord *c = user;
    int failed;
    pthread_mutex_lock(&c->mu);
    coord_record(c, id, subtotal);
    failed = c->failed != NQ_OK;
    pthread_mutex_unlock(&c->mu);
    return failed; /* stops the local pool at once */
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *local_main(void *p)
{
    local *l = p;
    coord *c = l->c;
    nq_solver *sv = NULL;
    uint64_t *ids = malloc(sizeof(uint64_t) * MPI_BATCH_MAX);
    nq_hooks h = {c, NULL, local_done};

    pthread_setname_np(pthread_self(), "nq-mpi-local");
    l->status = ids ? nq_create_solver(&sv, c->s) : NQ_ENOMEM;
    while (l->status == NQ_OK) {
        nq_result r = {0};
        size_t k;
        double t0;

        pthread_mutex_lock(&c->mu);
        k = coord_next_batch(c, 0, ids);
        pthread_mutex_unlock(&c->mu);
        if (k == 0)
            break;
        t0 = seconds_now();
        l->status = nq_count_tasks(sv, ids, k, &h, &r);
        pthread_mutex_lock(&c->mu);
        coord_measure(c, 0, k, seconds_now() - t0);
        pthread_mutex_unlock(&c->mu);
        if (r.n_pinned > l->pinned)
            l->pinned = r.n_pinned;
    }
    if (l->status != NQ_OK) {
        pthread_mutex_lock(&c->mu);
        coord_fail(c, l->status);
        pthread_mutex_unlock(&c->mu);
    }
    nq_destroy_solver(&sv);
    free(ids);
    return NULL;
}

/* ---- serving the other ranks ------------------------------------------------------ */

static void serve_ranks(coord *c, int n_ranks, int *requests, int *handed, uint64_t *msg,
                        uint64_t *ids)
{
    int open = n_ranks - 1;

    while (open > 0) {
        MPI_Status st;
        int flag = 0, count, rank;
        size_t k;
        double seconds;

        MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            mpi_job_nap();
            continue;
        }
        rank = st.MPI_SOURCE;
        MPI_Recv(msg, MPI_RESULT_HEAD + 2 * MPI_BATCH_MAX, MPI_UINT64_T, rank, TAG_RESULT,
                 MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_UINT64_T, &count);
        pthread_mutex_lock(&c->mu);
        if (count < MPI_RESULT_HEAD || (count - MPI_RESULT_HEAD) % 2) {
            coord_fail(c, NQ_EINVAL);
        } else {
            if ((int64_t)msg[0] != NQ_OK)
                coord_fail(c, (int)(int64_t)msg[0]);
            for (int i = MPI_RESULT_HEAD; i + 1 < count; i += 2)
                coord_record(c, msg[i], msg[i + 1]);
            memcpy(&seconds, &msg[1], sizeof(double));
            coord_measure(c, rank, (uint64_t)(count - MPI_RESULT_HEAD) / 2, seconds);
            if ((int)msg[2] > c->pinned[rank])
                c->pinned[rank] = (int)msg[2];
        }
        k = coord_next_batch(c, rank, ids);
        pthread_mutex_unlock(&c->mu);
        /* Replies go out even after a failure (empty), so that every worker ends. */
        MPI_Send(ids, (int)k, MPI_UINT64_T, rank, TAG_WORK, MPI_COMM_WORLD);
        handed[rank] += k > 0;
        /* A worker sends MPI_PIPELINE opening requests plus one per batch it was given. */
        if (++requests[rank] == MPI_PIPELINE + handed[rank])
            open--;
    }
}

/* Reuse hook for the final reduction: every subtotal is known, so nothing runs. */
static int coord_reuse(void *user, uint64_t id, uint64_t *subtotal)
{
    coord *c = user;
    if (!c->have[id])
        return 0;
    *subtotal = c->sub[id];
    return 1;
}

static int store_reuse(const nq_hooks *store, uint64_t id, uint64_t *subtotal)
{
    return store && store->reuse && store->reuse(store->user, id, subtotal) == 1;
}

int coordinator_run(const nq_settings *s, const int *rank_threads, int n_ranks,
                    const nq_hooks *store, mpi_outcome *out)
{
    coord c;
    local l;
    pthread_t th;
    uint64_t *msg, *ids;
    int *requests, *handed, rc, started = 0;

    memset(out, 0, sizeof(*out));
    memset(&c, 0, sizeof(c));
    c.s = s;
    c.store = store;
    c.rank_threads = rank_threads;
    for (int r = 0; r < n_ranks; r++)
        c.total_threads += rank_threads[r];
    rc = nq_task_count(s, &c.n_tasks);
    c.sub = calloc(c.n_tasks + 1, sizeof(*c.sub));
    c.have = calloc(c.n_tasks + 1, 1);
    c.given = calloc(c.n_tasks + 1, 1);
    c.rate = calloc((size_t)n_ranks, sizeof(*c.rate));
    c.pinned = calloc((size_t)n_ranks, sizeof(*c.pinned));
    requests = calloc((size_t)n_ranks, sizeof(*requests));
    handed = calloc((size_t)n_ranks, sizeof(*handed));
    msg = malloc(sizeof(uint64_t) * (MPI_RESULT_HEAD + 2 * (size_t)MPI_BATCH_MAX));
    ids = malloc(sizeof(uint64_t) * MPI_BATCH_MAX);
    if (!c.sub || !c.have || !c.given || !c.rate || !c.pinned || !requests || !handed || !msg ||
        !ids)
        MPI_Abort(MPI_COMM_WORLD, 1); /* without them the workers could not be released */
    pthread_mutex_init(&c.mu, NULL);
    c.failed = rc;

    /* What the store already holds is not handed out again. */
    for (uint64_t id = 0; c.failed == NQ_OK && id < c.n_tasks; id++) {
        if (store_reuse(store, id, &c.sub[id])) {
            c.have[id] = 1;
            out->reused++;
        }
    }
    c.left = c.n_tasks - out->reused;

    l = (local){&c, NQ_OK, 0};
    if (c.failed == NQ_OK) {
        if (pthread_create(&th, NULL, local_main, &l) == 0)
            started = 1;
        else
            coord_fail(&c, NQ_ETHREAD);
    }
    serve_ranks(&c, n_ranks, requests, handed, msg, ids);
    if (started)
        pthread_join(th, NULL);

    out->threads = c.total_threads;
    out->pinned = l.pinned;
    for (int r = 1; r < n_ranks; r++)
        out->pinned += c.pinned[r];
    rc = c.failed;
    for (uint64_t id = 0; rc == NQ_OK && id < c.n_tasks; id++)
        if (!c.have[id])
            rc = NQ_EINVAL; /* cannot happen: every batch handed out comes back */
    if (rc == NQ_OK) {
        /* The exact reduction: a count that reuses every subtotal, so the engine applies
         * its own task weights (and whatever else it reports) as in a one-process run. */
        nq_settings rs = *s;
        nq_solver *sv = NULL;
        nq_hooks h = {&c, coord_reuse, NULL};
        rs.n_threads = 1;
        rs.pin_threads = 0;
        rc = nq_create_solver(&sv, &rs);
        if (rc == NQ_OK)
            rc = nq_count(sv, &h, &out->r);
        nq_destroy_solver(&sv);
    }
    free(c.sub);
    free(c.have);
    free(c.given);
    free(c.rate);
    free(c.pinned);
    free(requests);
    free(handed);
    free(msg);
    free(ids);
    pthread_mutex_destroy(&c.mu);
    return rc;
}
