/* The walk over the placements of a board's first rows (board.h). Recursive: it makes
 * task lists and tables before a count, never the count itself. */
#include "core/board.h"

int board_walk(board_place *p, uint32_t all, int rows, uint32_t limit, board_bound *bound,
               board_leaf_fn leaf, void *user)
{
    uint32_t cols = p->cols, ld = p->ld, rd = p->rd;

    if (bound && (bound->nodes-- == 0 || stop_poll(bound->stop, bound->nodes)))
        return 1;
    if (p->row == rows)
        return leaf(user, p);
    for (uint32_t avail = all & ~(cols | ld | rd) & limit; avail; avail &= avail - 1) {
        uint32_t bit = avail & -avail;
        int stop;
        p->q[p->row++] = (uint8_t)__builtin_ctz(bit);
        p->cols = cols | bit;
        p->ld = (ld | bit) << 1;
        p->rd = (rd | bit) >> 1;
        stop = board_walk(p, all, rows, all, bound, leaf, user);
        p->row--;
        p->cols = cols, p->ld = ld, p->rd = rd;
        if (stop)
            return 1;
    }
    return 0;
}
