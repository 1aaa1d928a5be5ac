/* nqueens-mpi's checkpoint, kept by rank 0: the journal of nqueens count --checkpoint,
 * in the same format, so that a job one tool started the other can finish. */
#ifndef NQ_MPI_CHECKPOINT_H
#define NQ_MPI_CHECKPOINT_H

#include "cli/args.h"

/* Before the task ids are fixed: if the journal at path exists, make *s run its task
 * set. Returns 0 or an exit code (reported). */
int checkpoint_adopt(const char *path, const count_opts *o, nq_settings *s);

/* Open (or create) the journal for resolved settings s and fill store with hooks that
 * skip what it holds and record the rest. Returns 0 or an exit code (reported). */
int checkpoint_open(const char *path, const nq_settings *s, long sync_interval, nq_journal **j,
                    nq_hooks *store);

/* After the run: close the journal; status is the run's. Returns 0 or an exit code. */
int checkpoint_close(const char *path, nq_journal **j, int status);

#endif
