/* The --subtotals file: every task's subtotal, weight and weighted subtotal as CSV,
 * written the same way by nqueens count and rank 0 of nqueens-mpi, so that equal task
 * sets give identical bytes and the weighted column adds up to the total. */
#ifndef NQ_TOOLS_SUBTOTALS_H
#define NQ_TOOLS_SUBTOTALS_H

#include <stdint.h>

#include "nqueens/nqueens.h"

typedef struct subtotals_file {
    int fd;      /* -1: not open */
    int created; /* this run made the file: it goes again if the run fails */
    int regular; /* a regular file: cut to nothing before it is written */
    const char *path;
} subtotals_file;

/* Whether path is "-", standard output: the CSV alone goes there, and the result of the
 * count to standard error. */
int subtotals_to_stdout(const char *path);

/* Before the count: open (or create) path for writing ("-": standard output), so that a path that
 * cannot be written is an error before any work. Never blocks (a FIFO without a reader is an error)
 * and never truncates yet. Returns 0, or EXIT_RUN_FAILED after a one-line message. */
int subtotals_open(const char *cmd, const char *path, subtotals_file *sf);

/* After the count: write "task,subtotal,weight,weighted" and one line per task id
 * 0..ts->tasks-1 (subs[id] is the unweighted subtotal the hooks saw; weighted is
 * subtotal * weight, and those add up to the total), then close. Returns 0, or
 * EXIT_RUN_FAILED after a one-line message. */
int subtotals_write(const char *cmd, subtotals_file *sf, const nq_task_set *ts,
                    const uint64_t *subs);

/* The run failed: close, and remove the file if this run created it. */
void subtotals_abandon(subtotals_file *sf);

#endif
