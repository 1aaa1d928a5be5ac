/* Bitmask depth-first search, iterative. Two things make it faster than the textbook
 * recursion: the last two rows are settled without descending (the two free columns
 * either fit in one order, the other, or neither), and a placement that leaves the
 * next row no square is dropped before it is pushed, so dead ends cost no stack work. */
#include "dfs.h"

/* Two rows left and f holds exactly the two free columns. l, r attack the first of
 * the two rows. Branch-free: these calls are the most frequent thing the search does. */
static inline uint32_t last_two(uint32_t f, uint32_t l, uint32_t r)
{
    uint32_t m0 = f & ~(l | r);
    uint32_t m1 = f & ~((l << 1) | (r >> 1));
    uint32_t p = f & -f, q = f ^ p;
    uint32_t apart = (f & (f >> 1)) == 0; /* adjacent free columns attack each other */
    uint32_t pq = ((m0 & p) != 0) & ((m1 & q) != 0);
    uint32_t qp = ((m0 & q) != 0) & ((m1 & p) != 0);
    return (pq + qp) & -apart;
}

uint64_t dfs_count(uint32_t all, int rows_left, uint32_t cols, uint32_t ld, uint32_t rd)
{
    uint32_t st_avail[32], st_cols[32], st_ld[32], st_rd[32];
    uint32_t avail = all & ~(cols | ld | rd);
    uint64_t count = 0;
    int d = 0;
    int stop;

    if (rows_left <= 0)
        return 1;
    if (rows_left == 1)
        return (uint64_t)__builtin_popcount(avail);
    if (rows_left == 2)
        return last_two(all & ~cols, ld, rd);
    stop = rows_left - 3; /* a placement at this depth leaves two rows */
    for (;;) {
        while (avail) {
            uint32_t bit = avail & -avail;
            uint32_t nc = cols | bit, nl = (ld | bit) << 1, nr = (rd | bit) >> 1;
            uint32_t na;
            avail ^= bit;
            if (d == stop) {
                count += last_two(all & ~nc, nl, nr);
                continue;
            }
            na = all & ~(nc | nl | nr);
            if (!na)
                continue;
            st_avail[d] = avail;
            st_cols[d] = cols;
            st_ld[d] = ld;
            st_rd[d] = rd;
            cols = nc;
            ld = nl;
            rd = nr;
            avail = na;
            d++;
        }
        if (d == 0)
            break;
        d--;
        avail = st_avail[d];
        cols = st_cols[d];
        ld = st_ld[d];
        rd = st_rd[d];
    }
    return count;
}
