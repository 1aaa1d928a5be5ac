/* The counting searches' entry points (search_level.c): each calls the build of its
 * search (dfs.c, d4tail.c, one per x86-64 level: core/cpu.h) for the highest level this
 * CPU runs. */
#ifndef NQ_SEARCH_LEVEL_H
#define NQ_SEARCH_LEVEL_H

#include <stdint.h>

#include "core/engine.h"
#include "engines/d4tail.h"
#include "engines/dfs.h"

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

/* The completions of d4 plan p, w and *stopped as for dfs_search. */
uint64_t d4tail_search(const d4_plan *p, const engine_worker *w, int *stopped);

/* Whether the build carries the v3 builds and this CPU runs them. */
int search_level_v3(void);

#endif
