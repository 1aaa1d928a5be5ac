/* The counting searches' entry points: each calls the build of its search for the
 * highest x86-64 level this CPU runs (core/cpu.h asks it). A native build carries one
 * build, the base, made for this CPU already. The check is a load and a test against
 * what the CPU reported at start-up, once per task. */
#include "engines/search_level.h"
#include "config.h"
#include "core/cpu.h"

int search_level_v3(void)
{
    return NQ_HAVE_SEARCH_V3 && cpu_runs_x86_64_v3();
}

uint64_t dfs_search(uint32_t all, int rows_left, uint32_t cols, uint32_t ld, uint32_t rd,
                    const engine_worker *w, int *stopped)
{
#if NQ_HAVE_SEARCH_V3
    if (search_level_v3())
        return dfs_search_v3(all, rows_left, cols, ld, rd, w, stopped);
#endif
    return dfs_search_base(all, rows_left, cols, ld, rd, w, stopped);
}

uint64_t d4tail_search(const d4_plan *p, const engine_worker *w, int *stopped)
{
#if NQ_HAVE_SEARCH_V3
    if (search_level_v3())
        return d4tail_search_v3(p, w, stopped);
#endif
    return d4tail_search_base(p, w, stopped);
}
