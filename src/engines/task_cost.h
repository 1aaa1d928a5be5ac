/* What the engines' cost models (engine_desc.task_cost) share: the board a model needs
 * when the engine has no tables of its own, and a count of partial placements a few rows
 * deeper, the proxy for a DFS subtree's size that prefix and d4 use. */
#ifndef NQ_TASK_COST_H
#define NQ_TASK_COST_H

#include <stdatomic.h>
#include <stdint.h>

#include "nqueens/nqueens.h"

/* Rows below a task that its cost model places: deeper follows the subtree better (see
 * docs/engines.md, "Cost models": 4 rows correlate at 0.9 with d4's task times, 3 rows
 * at 0.75) but cost about n times more per row. */
#define TASK_COST_ROWS 4

/* The shared_init of an engine whose cost model needs only the board (instant: it
 * polls no stop). */
typedef struct task_cost_board {
    int n;
} task_cost_board;
void *task_cost_board_init(const nq_settings *s, const atomic_int *stop);
void task_cost_board_free(void *shared);

/* What task_cost_visit calls for each placement: the columns taken and the diagonals
 * attacking the row below the placed ones; nonzero stops the walk. */
typedef int (*task_cost_visit_fn)(void *user, uint32_t cols, uint32_t ld, uint32_t rd);

/* The placements of the next rows rows, row d taking the squares free[d] outside cols
 * and the diagonals ld, rd (attacking row 0 of them), which move by shift[d] rows to the
 * next; each is passed to visit in order (lowest columns first) where visit is not NULL.
 * UINT64_MAX: visit stopped the walk. */
uint64_t task_cost_visit(const uint32_t *free, const uint32_t *shift, int rows, uint32_t cols,
                         uint32_t ld, uint32_t rd, task_cost_visit_fn visit, void *user);

/* Their number: the cost models' proxy. */
static inline uint64_t task_cost_placements(const uint32_t *free, const uint32_t *shift, int rows,
                                            uint32_t cols, uint32_t ld, uint32_t rd)
{
    return task_cost_visit(free, shift, rows, cols, ld, rd, NULL, NULL);
}

#endif
