/* The hot loop: count the completions of a partly filled board by bitmask DFS. */
#ifndef NQ_DFS_H
#define NQ_DFS_H

#include <stdint.h>

/* Count the ways to fill the next rows_left rows of a board whose columns are the bits
 * of all, given the columns taken (cols) and the diagonals attacking the next row (ld,
 * rd, already shifted to it). Iterative, no allocation, no shared writes. */
uint64_t dfs_count(uint32_t all, int rows_left, uint32_t cols, uint32_t ld, uint32_t rd);

#endif
