/* The design engine's task source: the first rows of the board, with mirror halving. */
#ifndef NQ_PREFIX_H
#define NQ_PREFIX_H

#include <stdint.h>

#include "core/board.h"
#include "core/task.h"
#include "nqueens/nqueens.h"

/* Enumerate the tasks for board n with rows placed rows (1..n). emit may be NULL to
 * only count them. Returns the number of tasks emitted. */
uint64_t prefix_enumerate(int n, int rows, task_emit_fn emit, void *user);

/* Count the tasks of (n, rows) as prefix_enumerate does, within bound (board_walk's:
 * each partial board it visits is a node): 0 and *tasks, or -1 when the budget ran out
 * or the stop came. Lets a task set be checked without an unbounded search, and a deep
 * prefix's count be stopped. */
int prefix_count_bounded(int n, int rows, board_bound *bound, uint64_t *tasks);

/* Rows to place so that every one of threads workers gets enough tasks to balance. */
int prefix_auto_rows(int n, int threads);

/* The automatic prefix_rows rule, written once: prefix_rows = 0 becomes
 * prefix_auto_rows. The engines whose settings carry prefix_rows resolve it this way. */
void prefix_resolve(nq_settings *s, int threads);

#endif
