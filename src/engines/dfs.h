/* The prefix kernel: count the completions of a partly filled board by bitmask DFS. */
#ifndef NQ_DFS_H
#define NQ_DFS_H

#include <stdint.h>

#include "core/engine.h"

/* Count the ways to fill the next rows_left rows of a board whose columns are the bits
 * of all, given the columns taken (cols) and the diagonals attacking the next row (ld,
 * rd, already shifted to it). No allocation, no shared writes. w (NULL: never) is asked
 * now and then whether the run is stopping; if it is, the search returns early with
 * *stopped = 1 and a partial count, else *stopped = 0. */
uint64_t dfs_search(uint32_t all, int rows_left, uint32_t cols, uint32_t ld, uint32_t rd,
                    const engine_worker *w, int *stopped);

/* The whole count, never stopped. */
static inline uint64_t dfs_count(uint32_t all, int rows_left, uint32_t cols, uint32_t ld,
                                 uint32_t rd)
{
    int stopped;
    return dfs_search(all, rows_left, cols, ld, rd, NULL, &stopped);
}

#endif
