/* nqueens-mpi, ranks 1..n-1: ask rank 0 for batches of task ids, run each with the local
 * thread pool, send back every task's subtotal. One batch is always in flight, so the
 * pool never waits on the network between batches. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_job.h"

void mpi_job_nap(void)
{
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
}

/* Wait for a request to finish without Open MPI's busy spin. */
static void wait_polling(MPI_Request *req, MPI_Status *st)
{
    int flag = 0;
    for (;;) {
        MPI_Test(req, &flag, st);
        if (flag)
            return;
        mpi_job_nap();
    }
}

typedef struct batch_sink {
    const uint64_t *ids;
    size_t n;
    uint64_t *pairs; /* (id, subtotal) at the task's position in ids */
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

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int worker_run(const nq_settings *s)
{
    uint64_t *buf[2], *res;
    nq_solver *sv = NULL;
    MPI_Request req;
    MPI_Status st;
    int cur = 0, outstanding = 0, status, pinned = 0, failed = NQ_OK;

    buf[0] = malloc(sizeof(uint64_t) * MPI_BATCH_MAX);
    buf[1] = malloc(sizeof(uint64_t) * MPI_BATCH_MAX);
    res = malloc(sizeof(uint64_t) * (MPI_RESULT_HEAD + 2 * (size_t)MPI_BATCH_MAX));
    status = (!buf[0] || !buf[1] || !res) ? NQ_ENOMEM : nq_create_solver(&sv, s);
    if (status != NQ_OK)
        failed = status;

    /* Open the pipeline with empty results; a failed rank reports and takes no work. */
    for (int i = 0; i < MPI_PIPELINE; i++) {
        uint64_t head[MPI_RESULT_HEAD] = {(uint64_t)(int64_t)failed, 0, 0};
        MPI_Send(head, MPI_RESULT_HEAD, MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
        outstanding++;
    }
    MPI_Irecv(buf[cur], MPI_BATCH_MAX, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, &req);
    for (;;) {
        int k;
        nq_result r;
        batch_sink sink;
        nq_hooks h;
        double t0, t1;

        wait_polling(&req, &st);
        outstanding--;
        MPI_Get_count(&st, MPI_UINT64_T, &k);
        if (k == 0)
            break;
        /* the reply to the other open request lands in the other buffer meanwhile */
        MPI_Irecv(buf[!cur], MPI_BATCH_MAX, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, &req);
        sink = (batch_sink){buf[cur], (size_t)k, res + MPI_RESULT_HEAD};
        memset(sink.pairs, 0, sizeof(uint64_t) * 2 * (size_t)k);
        h = (nq_hooks){&sink, NULL, sink_done};
        t0 = seconds_now();
        status = failed ? failed : nq_count_tasks(sv, buf[cur], (size_t)k, &h, &r);
        t1 = seconds_now();
        if (status != NQ_OK) {
            failed = status;
            k = 0; /* report the failure with no subtotals; rank 0 stops handing out work */
        } else if (r.n_pinned > pinned) {
            pinned = r.n_pinned;
        }
        res[0] = (uint64_t)(int64_t)status;
        memcpy(&res[1], &(double){t1 - t0}, sizeof(double));
        res[2] = (uint64_t)pinned;
        MPI_Send(res, MPI_RESULT_HEAD + 2 * k, MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
        outstanding++;
        cur = !cur;
    }
    /* No more work: the replies to the requests still open are empty too. */
    while (outstanding-- > 0) {
        MPI_Irecv(buf[!cur], MPI_BATCH_MAX, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, &req);
        wait_polling(&req, &st);
    }
    nq_destroy_solver(&sv);
    free(buf[0]);
    free(buf[1]);
    free(res);
    return failed;
}
