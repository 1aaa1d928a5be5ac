/* The --subtotals file: every task's unweighted subtotal as CSV, written the same way by
 * nqueens count and rank 0 of nqueens-mpi, so that equal task sets give identical bytes. */
#ifndef NQ_CLI_SUBTOTALS_H
#define NQ_CLI_SUBTOTALS_H

#include <stdint.h>

/* Write "task,subtotal" and one line per task id 0..tasks-1 (subs[id]) to path. Returns
 * 0, or EXIT_RUN_FAILED after a one-line message. */
int subtotals_write(const char *cmd, const char *path, const uint64_t *subs, uint64_t tasks);

#endif
