/* nqueens-mpi's rank 0 (coordinator.c): hands out batches of task ids, reduces the
 * subtotals exactly, records them in the journal and shows the progress. */
#ifndef NQ_MPI_COORDINATOR_H
#define NQ_MPI_COORDINATOR_H

#include <stdint.h>

#include "nqueens/nqueens.h"

typedef struct coordinator_opts {
    nq_journal *journal;   /* reuse and record subtotals; may be NULL */
    uint64_t tasks;        /* the task count of s (nq_task_count's) */
    int progress;          /* PROGRESS_OFF, PROGRESS_BAR or PROGRESS_JSON (tools/progress.h) */
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
    double workers_cpu;     /* unless abandoned: the other ranks' CPU seconds, summed */
} mpi_outcome;

/* Rank 0. s is resolved (same task ids on every rank) with this rank's n_threads;
 * rank_threads[r] is rank r's worker count. Returns NQ_OK, NQ_ECANCELED after a signal
 * on any rank (out->signal) or a rank silent for opts->worker_timeout (out->silent_rank),
 * or the first failure; every worker is released, or, when one does not answer within a
 * grace period after the stop (a silent one is not waited for), out->abandoned is set. */
int coordinator_run(const nq_settings *s, const int *rank_threads, int n_ranks,
                    const coordinator_opts *opts, mpi_outcome *out);

#endif
