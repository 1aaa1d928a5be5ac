/* What every file of the join engine uses (join.h lists them): the largest board, which
 * bounds its column sets, and the walk over the column sets of one size. A header of
 * its own, so that the parts include it and not the header of join.c, which uses them. */
#ifndef NQ_JOIN_COLUMNS_H
#define NQ_JOIN_COLUMNS_H

#include <stdint.h>

/* Largest board the join engine takes: a(27) is the largest term known. Its block
 * tables grow like the placements of a quarter of the rows up to n = 24 (two blocks a
 * side: 0.6 GB at n = 22, 1.9 GB at n = 24), and of a sixth from n = 25 on (three
 * blocks a side: docs/join.md has the sizes). */
#define JOIN_MAX_N 27

/* The next subset of the same size of an index set (Gosper), within 32 bits; x != 0. */
static inline uint32_t join_next_subset(uint32_t x)
{
    uint32_t low = x & -x, ripple = x + low;
    return ripple | (((x ^ ripple) >> 2) / low);
}

#endif
