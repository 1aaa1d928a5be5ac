/* The prefix kernel (dfs.c): count the completions of a partly filled board by bitmask
 * DFS, one build per x86-64 level (core/cpu.h: CPU_BUILD); the entry point that calls
 * the one this CPU runs, dfs_search, is search_level.c's. */
#ifndef NQ_DFS_H
#define NQ_DFS_H

#include <stdint.h>

#include "core/engine.h"

/* dfs_search's builds (search_level.h says what they count). */
#define DFS_SEARCH_DECLARE(build)                                                                  \
    uint64_t dfs_search_##build(uint32_t all, int rows_left, uint32_t cols, uint32_t ld,           \
                                uint32_t rd, const engine_worker *w, int *stopped)
DFS_SEARCH_DECLARE(base);
DFS_SEARCH_DECLARE(v3);

#endif
