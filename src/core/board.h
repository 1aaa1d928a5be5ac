/* What every search and walk of a board shares: its columns as the bits of a mask, and
 * the one walk over the placements of its first rows that the task sources, the
 * listing and the join's block tables make (the hot searches are search_tmpl.c). */
#ifndef NQ_BOARD_H
#define NQ_BOARD_H

#include <stdint.h>

#include "core/stop.h"
#include "core/task.h"

/* The columns of an n x n board, 1 <= n <= 32, as the low n bits of a mask. */
static inline uint32_t board_mask(int n)
{
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* Queens on rows 0 .. row - 1, in columns q[0 .. row - 1], and what they take of the
 * next row: its columns, and the diagonals shifted to it (ld keeps bits past the board,
 * which no mask of open squares lets through). */
typedef struct board_place {
    int row;
    uint32_t cols, ld, rd;
    uint8_t q[32];
} board_place;

/* The task that completes placement p: its id and weight, the rest p's. */
static inline task board_place_task(const board_place *p, uint64_t id, int weight)
{
    return (task){.id = id,
                  .cols = p->cols,
                  .ld = p->ld,
                  .rd = p->rd,
                  .row = (uint8_t)p->row,
                  .weight = (uint32_t)weight};
}

/* What a walk does at each placement of all its rows: nonzero stops the walk. */
typedef int (*board_leaf_fn)(void *user, const board_place *p);

/* What may end a walk early: a budget of nodes (each row placed and the start cost one;
 * it stops when they run out, leaving UINT64_MAX) and a stop, polled as stop_poll says
 * (NULL: none), so that a walk of hours ends within milliseconds of a cancel. */
typedef struct board_bound {
    uint64_t nodes;
    const atomic_int *stop;
} board_bound;

/* A budget that never runs out, for a bound that is only a stop. */
#define BOARD_NODES_UNBOUNDED (UINT64_MAX - 1)

/* Every way to extend *p to `rows` rows on the columns of all, in lexicographic order of
 * the columns, the next row within limit and the later ones anywhere: leaf(user, p) at
 * each (p back as it was when the walk returns), within bound (NULL: none). Nonzero
 * when it stopped, by the leaf, the budget or the stop. */
int board_walk(board_place *p, uint32_t all, int rows, uint32_t limit, board_bound *bound,
               board_leaf_fn leaf, void *user);

#endif
