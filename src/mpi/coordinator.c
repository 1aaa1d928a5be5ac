/* nqueens-mpi, rank 0: hands out batches of task ids on request, records every task's
 * subtotal (and journals it), computes with its own thread pool too, shows progress, and
 * at the end reduces the subtotals into the exact total. A signal on any rank, or a
 * failure, stops the hand-out and every rank's running batch; rank 0 waits a bounded
 * time for what finished and never longer. So does a rank that sends nothing for
 * --worker-timeout, from the plan to its last message: no send or receive of rank 0's
 * waits on a worker, so the watch runs while any of them is in flight.
 *
 * Ownership: the main thread alone calls MPI (MPI_THREAD_FUNNELED); the local compute
 * thread, the progress thread and the main thread share the coordinator state under one
 * mutex. */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coordinator.h"
#include "core/clock.h"
#include "core/u128.h"
#include "mpi_job.h"
#include "tools/progress.h"
#include "tools/signals.h"
#include "worker.h"

/* Guided self-scheduling: a batch is this fraction of the rank's share of what is left,
 * so batches shrink as the run nears its end and the last ones finish close together. */
#define GUIDE_FACTOR 4
/* And at most this many seconds of work at the rank's measured rate, so that a batch's
 * subtotals reach the journal (and a killed run loses) no more than about this much. */
#define BATCH_TARGET_SECONDS 2.0
/* After a stop, how long rank 0 waits for the tasks still running (each stops at its
 * next task boundary) before it gives up on them: a task can take minutes at large n. */
#define STOP_GRACE_SECONDS 10.0

typedef struct coord {
    pthread_mutex_t mu;
    const nq_settings *s;
    nq_hooks store; /* the journal's reuse and task_done, or all NULL */
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
    int failed;      /* first failure */
    int signal;      /* first signal that stopped the run, on any rank */
    int halted;      /* failed or signalled: no more work is handed out */
    double halted_at;
    int abandoned;          /* rank 0 stopped waiting: record nothing more */
    int silent_rank;        /* the first rank that sent nothing for the timeout; 0: none */
    nq_solver *local_sv;    /* rank 0's own solver while it exists */
    int local_finished;     /* the local thread has ended (or never started) */
    int local_in_batch;     /* a task of the local batch has finished: its progress is current */
    uint64_t reused;        /* tasks known from the journal */
    uint64_t computed;      /* tasks recorded during this run */
    u128 reused_weighted;   /* their weighted sums, for the display */
    u128 computed_weighted; /* finished batches only; the local one running is added live */
} coord;

/* Under the mutex. The first stop cancels rank 0's own batch; the main thread sends the
 * workers theirs. */
static void coord_halt(coord *c)
{
    if (c->halted)
        return;
    c->halted = 1;
    c->halted_at = clock_seconds();
    if (c->local_sv)
        nq_solver_cancel(c->local_sv);
}

static void coord_fail(coord *c, int status)
{
    if (c->failed == NQ_OK)
        c->failed = status;
    coord_halt(c);
}

static void coord_interrupt(coord *c, int sig)
{
    if (!c->signal)
        c->signal = sig;
    coord_halt(c);
}

/* Under the mutex. Fills ids with the next batch for rank; returns its length. */
static size_t coord_next_batch(coord *c, int rank, uint64_t *ids)
{
    uint64_t size, k = 0;
    int threads = c->rank_threads[rank];

    if (c->halted || c->left == 0)
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
    if (c->abandoned)
        return; /* the journal is being closed */
    if (id >= c->n_tasks || !c->given[id] || c->have[id]) {
        coord_fail(c, NQ_EINVAL); /* a rank answered for a task it was not given */
        return;
    }
    c->sub[id] = subtotal;
    c->have[id] = 1;
    c->computed++;
    if (c->store.task_done && c->store.task_done(c->store.user, id, subtotal))
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

/* The progress thread's view: tasks finished on every rank, and their weighted sum. */
static void coord_progress(void *user, progress_snapshot *out)
{
    coord *c = user;
    u128 run;

    pthread_mutex_lock(&c->mu);
    out->tasks_total = c->n_tasks;
    out->tasks_done = c->reused + c->computed;
    out->tasks_computed = c->computed;
    run = c->computed_weighted;
    if (c->local_sv && c->local_in_batch) {
        nq_progress np;
        nq_solver_progress(c->local_sv, &np);
        run += u128_unpack(np.partial_total);
    }
    out->solutions = u128_pack(c->reused_weighted + run);
    pthread_mutex_unlock(&c->mu);
    out->solutions_computed = (double)run;
}

/* ---- rank 0's own share of the work ---------------------------------------------- */

static int local_done(void *user, uint64_t id, uint64_t subtotal)
{
    coord *c = user;
    int failed;
    pthread_mutex_lock(&c->mu);
    if (c->halted) /* a stop that came before this batch started reaches it here */
        nq_solver_cancel(c->local_sv);
    coord_record(c, id, subtotal);
    /* The pool reset its counters before its first task, so from now on the solver's
     * progress is this batch's alone. */
    c->local_in_batch = 1;
    failed = c->failed != NQ_OK;
    pthread_mutex_unlock(&c->mu);
    return failed; /* stops the local pool at once */
}

static void *local_main(void *p)
{
    coord *c = p;
    nq_solver *sv = NULL;
    uint64_t *ids = malloc(sizeof(uint64_t) * MPI_BATCH_MAX);
    nq_hooks h = {c, NULL, local_done};
    int status;

    pthread_setname_np(pthread_self(), "nq-mpi-local");
    status = ids ? nq_create_solver(&sv, c->s) : NQ_ENOMEM;
    pthread_mutex_lock(&c->mu);
    c->local_sv = sv;
    pthread_mutex_unlock(&c->mu);
    while (status == NQ_OK) {
        nq_result r = {0};
        size_t k;
        double t0;

        pthread_mutex_lock(&c->mu);
        k = coord_next_batch(c, 0, ids);
        pthread_mutex_unlock(&c->mu);
        if (k == 0)
            break;
        t0 = clock_seconds();
        status = nq_count_tasks(sv, ids, k, &h, &r);
        pthread_mutex_lock(&c->mu);
        c->computed_weighted += u128_unpack(r.total);
        c->local_in_batch = 0;
        coord_measure(c, 0, k, clock_seconds() - t0);
        if (r.n_pinned > c->pinned[0])
            c->pinned[0] = r.n_pinned;
        pthread_mutex_unlock(&c->mu);
    }
    pthread_mutex_lock(&c->mu);
    if (status != NQ_OK && status != NQ_ECANCELED) /* canceled: by a stop, not a failure */
        coord_fail(c, status);
    c->local_sv = NULL;
    c->local_finished = 1;
    pthread_mutex_unlock(&c->mu);
    nq_destroy_solver(&sv);
    free(ids);
    return NULL;
}

/* ---- serving the other ranks ------------------------------------------------------ */

/* A message between rank 0 and a worker that MPI moves in the background: a batch or a
 * stop on its way out (its buffer freed once it is out), or a result on its way in
 * (recorded and answered once it is whole). A blocking send or receive would hold the
 * serving loop, and the watch with it, for as long as the other rank does not take part:
 * a rendezvous-sized batch for a rank that was stopped (SIGSTOP) just after asking for it
 * held rank 0 for ever, whatever --worker-timeout said. */
typedef struct transfer {
    uint64_t *buf; /* NULL for an empty message */
    int rank;
    int result; /* a TAG_RESULT coming in, of count words */
    int count;
} transfer;

typedef struct serve_state {
    int n_ranks;
    int open;       /* workers that may still send a request */
    int running;    /* workers whose TAG_DONE has not come */
    int *requests;  /* per rank: requests received */
    int *handed;    /* per rank: non-empty batches sent */
    uint8_t *stops; /* per rank: TAG_STOP sent */
    uint8_t *done;  /* per rank: its TAG_DONE came, its last message */
    uint8_t *mute;  /* per rank: sent nothing for the timeout; not waited for */
    double *heard;  /* per rank: when a message of it came last */
    double timeout; /* seconds a rank may send nothing; 0: no limit */
    double turn;    /* when the serving loop last looked */
    double cpu;     /* the workers' CPU seconds, from their TAG_DONE */
    uint64_t *ids;  /* the next batch, before it is copied out */
    /* the transfers in flight, the request of each, and room for MPI_Testsome's answer */
    transfer *xfers;
    MPI_Request *reqs;
    int *finished;
    int n_xfers, cap_xfers;
} serve_state;

/* The serving loop's memory: without it a worker could not be answered or released, so a
 * failed allocation aborts the job, as coord_create's do (every record written so far
 * is in the journal). */
static void *serve_alloc(void *old, size_t size)
{
    void *p = realloc(old, size ? size : 1);
    if (!p)
        MPI_Abort(MPI_COMM_WORLD, 1);
    return p;
}

/* Holds t until MPI has moved it; returns the request to start it in. */
static MPI_Request *xfer_add(serve_state *ss, transfer t)
{
    if (ss->n_xfers == ss->cap_xfers) {
        ss->cap_xfers *= 2;
        ss->xfers = serve_alloc(ss->xfers, sizeof(*ss->xfers) * (size_t)ss->cap_xfers);
        ss->reqs = serve_alloc(ss->reqs, sizeof(*ss->reqs) * (size_t)ss->cap_xfers);
        ss->finished = serve_alloc(ss->finished, sizeof(*ss->finished) * (size_t)ss->cap_xfers);
    }
    ss->xfers[ss->n_xfers] = t;
    return &ss->reqs[ss->n_xfers++];
}

/* k ids (a copy: the send outlives this turn), or an empty message, to rank. */
static void serve_send(serve_state *ss, int rank, int tag, const uint64_t *ids, size_t k)
{
    transfer t = {NULL, rank, 0, (int)k};

    if (k) {
        t.buf = serve_alloc(NULL, sizeof(uint64_t) * k);
        memcpy(t.buf, ids, sizeof(uint64_t) * k);
    }
    MPI_Isend(t.buf, t.count, MPI_UINT64_T, rank, tag, MPI_COMM_WORLD, xfer_add(ss, t));
}

static void send_stop(serve_state *ss, int rank)
{
    if (ss->stops[rank])
        return;
    ss->stops[rank] = 1;
    serve_send(ss, rank, TAG_STOP, NULL, 0);
}

/* Under the mutex. What a TAG_RESULT of count words from rank says: its rank's status
 * and every finished task. */
static void serve_record(coord *c, int rank, const uint64_t *msg, int count)
{
    double seconds;
    int status;

    if (count < MPI_RESULT_HEAD || (count - MPI_RESULT_HEAD) % 2 ||
        count > MPI_RESULT_HEAD + 2 * MPI_BATCH_MAX) {
        coord_fail(c, NQ_EINVAL);
        return;
    }
    status = (int)(int64_t)msg[0];
    if (status == NQ_ECANCELED && msg[3])
        coord_interrupt(c, (int)msg[3]); /* that rank was signalled */
    else if (status != NQ_OK && status != NQ_ECANCELED)
        coord_fail(c, status);
    for (int i = MPI_RESULT_HEAD; i + 1 < count; i += 2)
        coord_record(c, msg[i], msg[i + 1]);
    c->computed_weighted += u128_unpack((nq_u128){msg[4], msg[5]});
    memcpy(&seconds, &msg[1], sizeof(double));
    coord_measure(c, rank, (uint64_t)(count - MPI_RESULT_HEAD) / 2, seconds);
    if ((int)msg[2] > c->pinned[rank])
        c->pinned[rank] = (int)msg[2];
}

/* A TAG_RESULT in whole: record it and answer with the next batch. */
static void serve_result(coord *c, serve_state *ss, const transfer *t)
{
    int rank = t->rank;
    size_t k;

    pthread_mutex_lock(&c->mu);
    serve_record(c, rank, t->buf, t->count);
    k = coord_next_batch(c, rank, ss->ids);
    pthread_mutex_unlock(&c->mu);
    /* Replies go out even after a stop (empty), so that every worker ends. */
    serve_send(ss, rank, TAG_WORK, ss->ids, k);
    ss->handed[rank] += k > 0;
    /* A worker sends MPI_PIPELINE opening requests plus one per batch it was given. */
    if (++ss->requests[rank] == MPI_PIPELINE + ss->handed[rank]) {
        ss->open--;
        send_stop(ss, rank);
    }
}

/* Start taking in the next TAG_RESULT, if one has come. Returns 1 if one had. */
static int serve_take(serve_state *ss)
{
    MPI_Message m;
    MPI_Status st;
    transfer t = {NULL, 0, 1, 0};
    int flag = 0;

    MPI_Improbe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &m, &st);
    if (!flag)
        return 0;
    MPI_Get_count(&st, MPI_UINT64_T, &t.count);
    t.rank = st.MPI_SOURCE;
    t.buf = serve_alloc(NULL, sizeof(uint64_t) * (size_t)t.count);
    ss->heard[t.rank] = clock_seconds();
    MPI_Imrecv(t.buf, t.count, MPI_UINT64_T, &m, xfer_add(ss, t));
    return 1;
}

/* Finish the transfers MPI has moved: a result is recorded and answered, a sent buffer
 * freed. Returns how many finished. */
static int serve_transfers(coord *c, serve_state *ss)
{
    int n_done = 0, kept = 0;

    if (ss->n_xfers == 0)
        return 0;
    MPI_Testsome(ss->n_xfers, ss->reqs, &n_done, ss->finished, MPI_STATUSES_IGNORE);
    if (n_done == MPI_UNDEFINED)
        n_done = 0;
    for (int i = 0; i < n_done; i++) {
        transfer t = ss->xfers[ss->finished[i]]; /* a copy: a reply may move the array */
        if (t.result)
            serve_result(c, ss, &t);
        free(t.buf);
    }
    for (int i = 0; i < ss->n_xfers; i++) {
        if (ss->reqs[i] == MPI_REQUEST_NULL)
            continue;
        ss->reqs[kept] = ss->reqs[i];
        ss->xfers[kept++] = ss->xfers[i];
    }
    ss->n_xfers = kept;
    return n_done;
}

/* Take the workers' TAG_DONE: each has ended, and says its CPU seconds. Eight bytes,
 * whole once probed. */
static void serve_goodbyes(serve_state *ss)
{
    int flag = 1;
    MPI_Status st;
    uint64_t word;
    double cpu;

    for (;;) {
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_DONE, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            return;
        MPI_Recv(&word, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_DONE, MPI_COMM_WORLD, &st);
        memcpy(&cpu, &word, sizeof(cpu));
        ss->cpu += cpu;
        ss->done[st.MPI_SOURCE] = 1;
        ss->running--;
    }
}

/* Take the ranks' TAG_ALIVE messages, and stop the run when a rank that has not ended
 * has sent nothing for the timeout. Rank 0 itself stalled (stopped, swapped out) would
 * see every rank silent: a turn that comes late starts every clock afresh. Returns how
 * many ranks that have not ended are still heard from. */
static int serve_watch(coord *c, serve_state *ss)
{
    double now = clock_seconds();
    int flag = 1, live = 0;
    MPI_Status st;

    while (flag) {
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_ALIVE, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            MPI_Recv(NULL, 0, MPI_UINT64_T, st.MPI_SOURCE, TAG_ALIVE, MPI_COMM_WORLD, &st);
            ss->heard[st.MPI_SOURCE] = now;
        }
    }
    if (now - ss->turn > 4 * MPI_ALIVE_SECONDS)
        for (int r = 1; r < ss->n_ranks; r++)
            ss->heard[r] = now;
    ss->turn = now;
    for (int r = 1; r < ss->n_ranks; r++) {
        if (ss->done[r] || ss->mute[r])
            continue;
        if (ss->timeout > 0 && now - ss->heard[r] > ss->timeout) {
            ss->mute[r] = 1;
            pthread_mutex_lock(&c->mu);
            if (!c->silent_rank && !c->halted)
                c->silent_rank = r;
            coord_fail(c, NQ_ECANCELED);
            pthread_mutex_unlock(&c->mu);
            continue;
        }
        live++;
    }
    return live;
}

/* Until every worker has ended, what was sent to them is out and the local thread is
 * done, or the grace after a stop is over. Returns 1 if it gave up waiting. No call here
 * waits on another rank, so the watch runs at every turn. */
static int serve_ranks(coord *c, serve_state *ss)
{
    for (;;) {
        int sig = signals_caught(), halted, local_finished, live, moved;
        double halted_at;

        moved = serve_transfers(c, ss);
        /* before the watch: a worker's last TAG_ALIVE comes before its TAG_DONE */
        serve_goodbyes(ss);
        live = serve_watch(c, ss);
        pthread_mutex_lock(&c->mu);
        if (sig)
            coord_interrupt(c, sig);
        /* A cancel reaches only a batch in progress: made again at every turn, it also
         * stops one that started after the first. */
        if (c->halted && c->local_sv)
            nq_solver_cancel(c->local_sv);
        halted = c->halted;
        halted_at = c->halted_at;
        local_finished = c->local_finished;
        pthread_mutex_unlock(&c->mu);
        if (halted)
            for (int r = 1; r < ss->n_ranks; r++)
                send_stop(ss, r);
        if (ss->running == 0 && ss->n_xfers == 0 && local_finished)
            return 0;
        /* the workers still running are all silent: left to MPI_Abort */
        if (halted && local_finished && ss->running > 0 && live == 0)
            return 1;
        if (halted && clock_seconds() - halted_at > STOP_GRACE_SECONDS)
            return 1;
        if (ss->open > 0)
            moved += serve_take(ss);
        if (moved) {
            continue;
        } else if (ss->running > 0) {
            mpi_job_nap();
        } else {
            /* only the local thread and the signals to watch: no hurry */
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
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

/* A count on one thread that only reuses known subtotals: the engine applies its own
 * task weights (and whatever else it reports) as in a one-process run, so no weight table
 * lives here. ids NULL: every task (the exact reduction); else only those. It makes the
 * engine's tables (minutes for the join at n = 27), so a signal ends it: NQ_ECANCELED. */
static int coord_reduce(coord *c, const uint64_t *ids, size_t n_ids, nq_result *out)
{
    nq_settings rs = *c->s;
    nq_solver *sv = NULL;
    nq_hooks h = {c, coord_reuse, NULL};
    int rc;

    rs.n_threads = 1;
    rs.pin_threads = 0;
    rc = nq_create_solver(&sv, &rs);
    signals_target(sv); /* only the coordinator cancels the local thread's solver */
    if (rc == NQ_OK)
        rc = ids ? nq_count_tasks(sv, ids, n_ids, &h, out) : nq_count(sv, &h, out);
    signals_target(NULL);
    nq_destroy_solver(&sv);
    return rc;
}

/* The journal's tasks: not handed out again, and their weighted sum for the display. */
static int coord_take_journal(coord *c, int weigh)
{
    uint64_t *ids;
    nq_result r = {0};
    int rc;

    for (uint64_t id = 0; id < c->n_tasks; id++) {
        if (c->store.reuse && c->store.reuse(c->store.user, id, &c->sub[id]) == 1) {
            c->have[id] = 1;
            c->reused++;
        }
    }
    if (!weigh || c->reused == 0)
        return NQ_OK;
    ids = malloc(sizeof(uint64_t) * c->reused);
    if (!ids)
        return NQ_ENOMEM;
    for (uint64_t id = 0, k = 0; id < c->n_tasks; id++)
        if (c->have[id])
            ids[k++] = id;
    rc = coord_reduce(c, ids, c->reused, &r);
    c->reused_weighted = u128_unpack(r.total);
    free(ids);
    return rc;
}

static void coord_free(coord *c)
{
    free(c->sub);
    free(c->have);
    free(c->given);
    free(c->rate);
    free(c->pinned);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

/* The serving loop's state for n_ranks; a failed allocation aborts, as in serve_alloc. */
static void serve_state_init(serve_state *ss, int n_ranks)
{
    size_t n = (size_t)n_ranks;

    ss->n_ranks = n_ranks;
    ss->open = ss->running = n_ranks - 1;
    ss->requests = calloc(n, sizeof(*ss->requests));
    ss->handed = calloc(n, sizeof(*ss->handed));
    ss->stops = calloc(n, 1);
    ss->done = calloc(n, 1);
    ss->mute = calloc(n, 1);
    ss->heard = calloc(n, sizeof(*ss->heard));
    ss->ids = malloc(sizeof(uint64_t) * MPI_BATCH_MAX);
    /* to start with, room for each worker's requests, their replies and its stop */
    ss->cap_xfers = n_ranks * (2 * MPI_PIPELINE + 1);
    ss->xfers = malloc(sizeof(*ss->xfers) * (size_t)ss->cap_xfers);
    ss->reqs = malloc(sizeof(*ss->reqs) * (size_t)ss->cap_xfers);
    ss->finished = malloc(sizeof(*ss->finished) * (size_t)ss->cap_xfers);
    if (!ss->requests || !ss->handed || !ss->stops || !ss->done || !ss->mute || !ss->heard ||
        !ss->ids || !ss->xfers || !ss->reqs || !ss->finished)
        MPI_Abort(MPI_COMM_WORLD, 1);
    ss->turn = clock_seconds();
    for (int r = 0; r < n_ranks; r++)
        ss->heard[r] = ss->turn;
}

/* The coordinator's state and the serving loop's, for n_ranks; without them the workers
 * could not be released, so a failed allocation aborts the job. */
static coord *coord_create(const nq_settings *s, const int *rank_threads, int n_ranks,
                           const coordinator_opts *opts, serve_state *ss)
{
    coord *c = calloc(1, sizeof(*c));

    if (!c)
        MPI_Abort(MPI_COMM_WORLD, 1);
    c->s = s;
    if (opts->journal)
        nq_journal_hooks(opts->journal, &c->store);
    c->rank_threads = rank_threads;
    for (int r = 0; r < n_ranks; r++)
        c->total_threads += rank_threads[r];
    c->n_tasks = opts->tasks; /* counted before: the join's count takes 6 s at n = 27 */
    c->sub = calloc(c->n_tasks + 1, sizeof(*c->sub));
    c->have = calloc(c->n_tasks + 1, 1);
    c->given = calloc(c->n_tasks + 1, 1);
    c->rate = calloc((size_t)n_ranks, sizeof(*c->rate));
    c->pinned = calloc((size_t)n_ranks, sizeof(*c->pinned));
    if (!c->sub || !c->have || !c->given || !c->rate || !c->pinned)
        MPI_Abort(MPI_COMM_WORLD, 1);
    pthread_mutex_init(&c->mu, NULL);
    serve_state_init(ss, n_ranks);
    return c;
}

static void serve_state_free(serve_state *ss)
{
    free(ss->requests);
    free(ss->handed);
    free(ss->stops);
    free(ss->done);
    free(ss->mute);
    free(ss->heard);
    free(ss->ids);
    free(ss->xfers);
    free(ss->reqs);
    free(ss->finished);
}

/* Rank 0's own share runs in a thread beside the serving loop; 1 if it started. */
static int local_start(coord *c, pthread_t *th)
{
    c->local_finished = 1;
    if (c->halted)
        return 0;
    c->local_finished = 0;
    if (pthread_create(th, NULL, local_main, c) == 0)
        return 1;
    c->local_finished = 1;
    coord_fail(c, NQ_ETHREAD);
    return 0;
}

/* The run's status once serving ended; only a stop leaves tasks undone, and one after
 * the last task changed nothing. Fills what out tells of the ranks. */
static int coord_outcome(coord *c, int n_ranks, mpi_outcome *out)
{
    int rc;

    pthread_mutex_lock(&c->mu);
    for (int r = 0; r < n_ranks; r++)
        out->pinned += c->pinned[r];
    out->rank0_pinned = c->pinned[0];
    out->computed_total = u128_pack(c->computed_weighted);
    rc = c->failed;
    if (rc == NQ_OK)
        for (uint64_t id = 0; id < c->n_tasks; id++)
            if (!c->have[id]) {
                rc = c->signal ? NQ_ECANCELED : NQ_EINVAL;
                break;
            }
    if (rc == NQ_ECANCELED)
        out->signal = c->signal;
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int coordinator_run(const nq_settings *s, const int *rank_threads, int n_ranks,
                    const coordinator_opts *opts, mpi_outcome *out)
{
    serve_state ss;
    coord *c;
    progress pg;
    pthread_t th;
    int rc, started, gave_up;

    memset(out, 0, sizeof(*out));
    memset(&ss, 0, sizeof(ss));
    c = coord_create(s, rank_threads, n_ranks, opts, &ss);
    ss.timeout = opts->worker_timeout;
    out->r.tasks = c->n_tasks;
    rc = coord_take_journal(c, opts->progress != PROGRESS_OFF);
    if (rc != NQ_OK)
        coord_fail(c, rc);
    out->reused = c->reused;
    c->left = c->n_tasks - c->reused;

    /* Only the display reads the coordinator; the journal's timer needs the thread too. */
    if (progress_start(&pg, opts->progress, c->s->n, coord_progress, c, opts->journal) != 0)
        coord_fail(c, NQ_ETHREAD);
    started = local_start(c, &th);
    gave_up = serve_ranks(c, &ss);
    if (gave_up) {
        /* Ranks still busy past the grace: record nothing more, so that the caller can
         * close the journal, and leave them (and the local thread, which still uses c)
         * to MPI_Abort. */
        pthread_mutex_lock(&c->mu);
        c->abandoned = 1;
        pthread_mutex_unlock(&c->mu);
    } else if (started) {
        pthread_join(th, NULL);
    }
    progress_stop(&pg);

    out->threads = c->total_threads;
    out->abandoned = gave_up;
    out->computed = c->computed;
    out->silent_rank = c->silent_rank;
    out->workers_cpu = ss.cpu;
    rc = coord_outcome(c, n_ranks, out);
    /* After giving up, nothing records any more, so every subtotal stays as it is. */
    if (rc == NQ_OK) {
        nq_result r;
        rc = coord_reduce(c, NULL, 0, &r);
        if (rc == NQ_OK)
            out->r = r;
        else if (rc == NQ_ECANCELED) /* every task is done, and the journal has them */
            out->signal = signals_stopped_by();
        if (rc == NQ_OK && opts->keep_subtotals) {
            out->sub = c->sub;
            c->sub = NULL;
        }
    }
    /* After giving up, the local thread still uses c, and MPI the buffers of the transfers
     * in flight: both are left to MPI_Abort. */
    if (!gave_up) {
        serve_state_free(&ss);
        coord_free(c);
    }
    return rc;
}
