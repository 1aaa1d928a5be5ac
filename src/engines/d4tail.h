/* The d4 engine's search plan (the inner rows of one task, with what the border queens
 * leave open in each) and the builds of its completion search (d4tail.c). */
#ifndef NQ_D4TAIL_H
#define NQ_D4TAIL_H

#include <stdint.h>

#include "core/engine.h"
#include "core/task.h"

/* The inner rows of a task in order, the squares the border queens leave free in each,
 * and the row distance to the next one (2 or 3 where a preset row is skipped). */
typedef struct d4_plan {
    uint32_t free[32];
    uint32_t shift[32];
    uint32_t to_last[32]; /* rows from this one down to row n-1 */
    uint32_t last;        /* squares open in row n-1, or every column if it is preset */
    uint32_t cols;        /* the columns no border queen holds */
    int depth;            /* inner rows to fill */
} d4_plan;

/* d4tail_search's builds, one per x86-64 level (core/cpu.h: CPU_BUILD; search_level.h
 * says what they count and calls the one this CPU runs). */
#define D4TAIL_SEARCH_DECLARE(build)                                                               \
    uint64_t d4tail_search_##build(const d4_plan *p, const engine_worker *w, int *stopped)
D4TAIL_SEARCH_DECLARE(base);
D4TAIL_SEARCH_DECLARE(v3);

#endif
