/* The parts of a DFS engine's task, for an estimate that times a share of a task too long
 * to time whole (engine_desc.complete_parts): the placements of the task's next few rows,
 * in the search's own order, each part the subtree below one of them. Shared by prefix
 * (uniform rows) and d4 (a plan's rows), which say how to count below a placement. */
#ifndef NQ_ROW_PARTS_H
#define NQ_ROW_PARTS_H

#include <stdint.h>

#include "core/engine.h"

/* Parts of one level at most: they are walked twice (to count, then to complete every
 * stride-th); a task whose parts at this bound are still too long for its share is
 * parted again below (row_parts_complete). */
#define ROW_PARTS_MAX (1ull << 24)
/* Parts timed per task at least, where the task has that many times the stride: one
 * part's size varies by orders of magnitude, so the timed share is an average of some. */
#define ROW_PARTS_TIMED 16

/* The rows below a task, which its search fills: row d takes the squares free[d] outside
 * cols, ld, rd (which attack row 0), and shift[d] rows lead to the next row. Parts place
 * as many as leave the search its tail (engines/tail.h) and a row above it. */
typedef struct row_parts_rows {
    const uint32_t *free, *shift;
    int rows;
    uint32_t cols, ld, rd;
    uint64_t max_parts; /* parts of one level at most; 0: ROW_PARTS_MAX (tests lower it) */
} row_parts_rows;

/* The completions below one placement of the first placed rows: cols, ld and rd as they
 * stand on the row after them. */
typedef engine_status (*row_part_fn)(void *user, int placed, uint32_t cols, uint32_t ld,
                                     uint32_t rd, uint64_t *subtotal);

/* Complete the parts p names (engine_parts: every p->stride-th from p->draw, the stride
 * lowered to the parts there are) at the shallowest depth of r that has ROW_PARTS_TIMED
 * times the stride, or max_parts at most; their subtotals into *subtotal, the searches
 * for that depth and below parts parted again into p->extra_seconds (the parts' own time
 * is p->timed_seconds). Where that depth holds fewer parts than the
 * stride and a deeper one could hold more (prefix's two-row tasks at n = 27, parts of
 * seconds), ROW_PARTS_TIMED of them are parted again at a depth of their own, one in the
 * rest of the stride: p->stride comes back as the product, every placement below taken
 * with that probability (the offsets are draw's digits, so that draws 0 .. stride-1 take
 * each once). A task without rows to part is one part. */
engine_status row_parts_complete(const row_parts_rows *r, engine_parts *p, row_part_fn part,
                                 void *user, uint64_t *subtotal);

#endif
