/* What every search and walk of a board shares: its columns as the bits of a mask, and
 * the one walk over the placements of its first rows that the task sources, the
 * listing and the join's block tables make (the hot searches are search_tmpl.c). */
#ifndef NQ_BOARD_H
#define NQ_BOARD_H

#include <stdint.h>

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

/* Every way to extend *p to `rows` rows on the columns of all, in lexicographic order of
 * the columns, the next row within limit and the later ones anywhere: leaf(user, p) at
 * each (p back as it was when the walk returns). With budget, each row placed and the
 * start cost one of *budget, and the walk stops when it runs out, leaving UINT64_MAX.
 * Nonzero when it stopped. */
int board_walk(board_place *p, uint32_t all, int rows, uint32_t limit, uint64_t *budget,
               board_leaf_fn leaf, void *user);

#endif
