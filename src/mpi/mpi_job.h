/* nqueens-mpi: what rank 0 (the coordinator) and the other ranks (workers) share: the
 * message protocol and the two entry points. */
#ifndef NQ_MPI_JOB_H
#define NQ_MPI_JOB_H

#include <stdint.h>

#include "nqueens/nqueens.h"

/* Protocol, all messages arrays of uint64_t on MPI_COMM_WORLD:
 *   worker -> 0, TAG_RESULT: a finished batch, which also asks for the next one:
 *       [status, seconds (double bits), pinned workers, signal, total lo, total hi,
 *        id0, subtotal0, id1, ...]
 *       (a worker opens with MPI_PIPELINE such messages holding no pairs). The pairs are
 *       the tasks that finished: all of the batch, or with status NQ_ECANCELED those done
 *       before the stop. signal is the one this rank caught (0: none); total is the
 *       weighted sum of the pairs, for the progress display.
 *   0 -> worker, TAG_WORK: the next batch of task ids, ascending; empty = no more work.
 *   0 -> worker, TAG_STOP: empty, exactly once per worker: stop what is running (no more
 *       work will come). Sent as soon as rank 0 stops the run (a signal, a failure), or
 *       else once the worker's last request is answered.
 *   worker -> 0, TAG_ALIVE: empty, every MPI_ALIVE_SECONDS while the worker holds work or
 *       waits for it, so that rank 0 tells a long batch from a rank that is stopped,
 *       hung or cut off (--worker-timeout).
 * Every TAG_RESULT gets exactly one TAG_WORK reply, in order, so a worker always holds
 * its next batch while it computes the current one. */
enum { TAG_RESULT = 1, TAG_WORK = 2, TAG_STOP = 3, TAG_ALIVE = 4 };
#define MPI_ALIVE_SECONDS 0.5
enum { MPI_RESULT_HEAD = 6, MPI_PIPELINE = 2 };

/* Largest batch, so that every buffer is allocated once, up front. */
#define MPI_BATCH_MAX 16384

typedef struct coordinator_opts {
    nq_journal *journal;   /* reuse and record subtotals; may be NULL */
    int progress;          /* PROGRESS_OFF, PROGRESS_BAR or PROGRESS_JSON (cli/progress.h) */
    int keep_subtotals;    /* hand every task's subtotal back in mpi_outcome.sub */
    double worker_timeout; /* seconds a rank may send nothing before the run ends; 0: none */
} coordinator_opts;

typedef struct mpi_outcome {
    nq_result r;            /* total (and what the engine reports) from the exact reduction;
                               r.tasks is the task count even when the run stopped early */
    int threads;            /* workers over every rank */
    int pinned;             /* of them, pinned */
    int rank0_pinned;       /* of rank 0's workers, pinned */
    nq_u128 computed_total; /* the weighted share of r.total counted by this run */
    uint64_t reused;        /* tasks whose subtotal came from the journal, not this run */
    uint64_t computed;      /* tasks whose subtotal came back during this run */
    int signal;             /* with NQ_ECANCELED: the signal that stopped the run (any rank's) */
    int abandoned;          /* some rank did not answer in time after the stop: end the job
                               with MPI_Abort once the journal is closed */
    uint64_t *sub;          /* with keep_subtotals and NQ_OK: subtotal of each task id (free it) */
    int silent_rank;        /* the first rank that sent nothing for worker_timeout (the run was
                               stopped, NQ_ECANCELED, and that rank abandoned); 0: none */
} mpi_outcome;

/* Rank 0. s is resolved (same task ids on every rank) with this rank's n_threads;
 * rank_threads[r] is rank r's worker count. Returns NQ_OK, NQ_ECANCELED after a signal
 * on any rank (out->signal) or a rank silent for opts->worker_timeout (out->silent_rank),
 * or the first failure; every worker is released, or, when one does not answer within a
 * grace period after the stop (a silent one is not waited for), out->abandoned is set. */
int coordinator_run(const nq_settings *s, const int *rank_threads, int n_ranks,
                    const coordinator_opts *opts, mpi_outcome *out);

/* Every other rank: run batches until rank 0 says there is no more work. Returns the
 * first failure of a local count (already reported to rank 0), or NQ_OK. */
int worker_run(const nq_settings *s);

/* Sleep a little between polls: Open MPI's blocking calls spin a core, and here a core
 * is worth more to the counting threads than a message's microseconds. */
void mpi_job_nap(void);

#endif
