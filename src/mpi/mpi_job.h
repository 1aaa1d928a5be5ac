/* nqueens-mpi: what rank 0 (the coordinator, coordinator.h) and the other ranks
 * (workers, worker.h) share: the message protocol. */
#ifndef NQ_MPI_JOB_H
#define NQ_MPI_JOB_H

#include <stdint.h>

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
 *   worker -> 0, TAG_ALIVE: empty, every MPI_ALIVE_SECONDS until the worker's stop, so
 *       that rank 0 tells a long batch from a rank that is stopped, hung or cut off
 *       (--worker-timeout).
 *   worker -> 0, TAG_DONE: [CPU seconds since the job started (double bits)], once, the
 *       worker's last message: it has every reply and its stop, and goes on to
 *       MPI_Finalize. Rank 0 watches a worker until then: a collective in its place
 *       would wait, unwatched, for ever on a worker stopped at the end.
 * Every TAG_RESULT gets exactly one TAG_WORK reply, in order, so a worker always holds
 * its next batch while it computes the current one. */
enum { TAG_RESULT = 1, TAG_WORK = 2, TAG_STOP = 3, TAG_ALIVE = 4, TAG_DONE = 5 };
#define MPI_ALIVE_SECONDS 0.5
enum { MPI_RESULT_HEAD = 6, MPI_PIPELINE = 2 };

/* Largest batch, so that every buffer is allocated once, up front. */
#define MPI_BATCH_MAX 16384

#endif
