/* The builds of the counting searches, one per x86-64 level (search.h; core/cpu.h:
 * CPU_BUILD), and which of them this CPU runs. */
#ifndef NQ_SEARCH_LEVEL_H
#define NQ_SEARCH_LEVEL_H

#include <stdint.h>

#include "core/engine.h"
#include "engines/d4tail.h"

#define SEARCH_LEVEL_DECLARE(level)                                                                \
    uint64_t dfs_search_##level(uint32_t all, int rows_left, uint32_t cols, uint32_t ld,           \
                                uint32_t rd, const engine_worker *w, int *stopped);                \
    uint64_t d4tail_search_##level(const d4_plan *p, const engine_worker *w, int *stopped)
SEARCH_LEVEL_DECLARE(base);
SEARCH_LEVEL_DECLARE(v3);

/* Whether the build carries the v3 builds and this CPU runs them. */
int search_level_v3(void);

#endif
