/* How a finished count is printed, shared by nqueens count and nqueens-mpi so that the
 * two tools always print the same thing. */
#ifndef NQ_CLI_COUNT_OUTPUT_H
#define NQ_CLI_COUNT_OUTPUT_H

#include "args.h"

/* The total (or, with unique, the A002562 count) alone on one line, or with json one
 * object; extra_json, if not NULL, is appended as further members ("\"ranks\": 3").
 * Returns 0, or EXIT_RUN_FAILED (after a one-line message) when unique is asked of an
 * engine that gives none or stdout cannot be written. */
int count_output_print(const char *cmd, int n, const nq_result *r, int json, int unique,
                       const char *extra_json);

/* After the run, before anything is printed: for the sizes with a published value
 * (n <= 27), a total or unique count that contradicts it is a failure, never output.
 * journal names the checkpoint the total was partly read from (NULL: none). Returns 0,
 * or EXIT_RUN_FAILED after a one-line message naming the wrong number. */
int count_output_verify(const char *cmd, int n, const nq_result *r, const char *journal);

/* Before the run: --unique needs an engine that counts symmetry classes, and
 * --prefix-rows one that has prefix rows. Returns 0 or EXIT_USAGE after a one-line
 * message. */
int count_output_check(const char *cmd, const count_opts *o, int unique);

#endif
