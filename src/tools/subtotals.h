/* The --subtotals file: every task's subtotal, weight and weighted subtotal as CSV,
 * written the same way by nqueens count and rank 0 of nqueens-mpi, so that equal task
 * sets give identical bytes and the weighted column adds up to the total. */
#ifndef NQ_TOOLS_SUBTOTALS_H
#define NQ_TOOLS_SUBTOTALS_H

#include <stdint.h>

#include "nqueens/nqueens.h"
#include "output_files.h"

typedef struct subtotals_file {
    output_writer w; /* w.f NULL: not open */
} subtotals_file;

/* Whether path is "-", standard output: the CSV alone goes there, and the result of the
 * count to standard error. */
int subtotals_to_stdout(const char *path);

/* Before the count: make the file to write (output_writer_open; "-": standard output),
 * so that a path that cannot be written is an error before any work. path keeps what it
 * holds until the CSV is complete. Returns 0, or EXIT_RUN_FAILED after a one-line
 * message. */
int subtotals_open(const char *cmd, const char *path, subtotals_file *sf);

/* After the count: write "task,subtotal,weight,weighted" and one line per task id
 * 0..ts->tasks-1 (subs[id] is the unweighted subtotal the hooks saw; weighted is
 * subtotal * weight, and those add up to the total), then put the file in place.
 * Returns 0, or EXIT_RUN_FAILED after a one-line message. */
int subtotals_write(const char *cmd, subtotals_file *sf, const nq_task_set *ts,
                    const uint64_t *subs);

/* The run failed: drop what was made; path is left as it was. */
void subtotals_abandon(subtotals_file *sf);

/* Whether the outputs of nqueens count and nqueens-mpi are files of their own: the
 * journal j at checkpoint (NULL: no journal), the subtotals at subtotals (NULL: none;
 * "-": standard output), count's task times (NULL: none) and standard output, where the result
 * goes; 0, or EXIT_USAGE after one line (output_files_distinct). Made once before the journal is
 * opened (j NULL: by the file at the path then, so that a refusal is the only message) and once
 * after (j: by the file it opened). */
int subtotals_check_distinct(const char *cmd, const char *checkpoint, const nq_journal *j,
                             const char *subtotals, const char *task_times);

#endif
