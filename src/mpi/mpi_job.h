/* nqueens-mpi: what rank 0 (the coordinator) and the other ranks (workers) share: the
 * message protocol and the two entry points. */
#ifndef NQ_MPI_JOB_H
#define NQ_MPI_JOB_H

#include <stdint.h>

#include "nqueens/nqueens.h"

/* Protocol, all messages arrays of uint64_t on MPI_COMM_WORLD:
 *   worker -> 0, TAG_RESULT: a finished batch, which also asks for the next one:
 *       [status, seconds (double bits), pinned workers, id0, subtotal0, id1, ...]
 *       (a worker opens with MPI_PIPELINE such messages holding no pairs)
 *   0 -> worker, TAG_WORK: the next batch of task ids, ascending; empty = no more work.
 * Every TAG_RESULT gets exactly one TAG_WORK reply, in order, so a worker always holds
 * its next batch while it computes the current one. */
enum { TAG_RESULT = 1, TAG_WORK = 2 };
enum { MPI_RESULT_HEAD = 3, MPI_PIPELINE = 2 };

/* Largest batch, so that every buffer is allocated once, up front. */
#define MPI_BATCH_MAX 16384

typedef struct mpi_outcome {
    nq_result r;     /* total (and what the engine reports) from the exact reduction */
    int threads;     /* workers over every rank */
    int pinned;      /* of them, pinned */
    uint64_t reused; /* tasks whose subtotal came from the store (journal), not this run */
} mpi_outcome;

/* Rank 0. s is resolved (same task ids on every rank) with this rank's n_threads;
 * rank_threads[r] is rank r's worker count. store (may be NULL) supplies subtotals
 * recorded earlier (reuse) and records every new one (task_done), from this thread
 * only. Returns NQ_OK or the first failure; every worker is released either way. */
int coordinator_run(const nq_settings *s, const int *rank_threads, int n_ranks,
                    const nq_hooks *store, mpi_outcome *out);

/* Every other rank: run batches until rank 0 says there is no more work. Returns the
 * first failure of a local count (already reported to rank 0), or NQ_OK. */
int worker_run(const nq_settings *s);

/* Sleep a little between polls: Open MPI's blocking calls spin a core, and here a core
 * is worth more to the counting threads than a message's microseconds. */
void mpi_job_nap(void);

#endif
