/* nqueens-mpi's other ranks (worker.c): count the batches rank 0 sends. */
#ifndef NQ_MPI_WORKER_H
#define NQ_MPI_WORKER_H

#include "nqueens/nqueens.h"

/* Every other rank: run batches until rank 0 says there is no more work, then tell it
 * this process's CPU seconds since cpu0 (clock_cpu when the job started). Returns the
 * first failure of a local count (already reported to rank 0), or NQ_OK. */
int worker_run(const nq_settings *s, double cpu0);

/* Sleep a little between polls: Open MPI's blocking calls spin a core, and here a core
 * is worth more to the counting threads than a message's microseconds. */
void mpi_job_nap(void);

#endif
