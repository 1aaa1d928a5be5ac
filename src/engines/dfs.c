/* The prefix kernel: the search loop (engines/search_tmpl.c) on uniform rows, its last
 * five rows settled by table (engines/tail.h). Above the tail, the nodes with six rows
 * left are not pushed either: their children are settled in place, and a placement that
 * leaves the next row no square is dropped before it is pushed. A board whose free
 * columns outnumber the rows to fill, or with fewer than five rows to fill, takes the
 * plain search, which counts the last row's open squares. */
#include <assert.h>

#include "core/cpu.h"
#include "engines/dfs.h"
#include "engines/search.h"
#include "engines/tail.h"

typedef struct dfs_ctx {
    uint32_t all;
    search_stop stop;
} dfs_ctx;

#define SEARCH_FN dfs_tail_search
#define SEARCH_CTX dfs_ctx
#define SEARCH_FREE(c, d) ((c)->all)
#define SEARCH_SHIFT(c, d) 1u
#define SEARCH_SETTLE_ROWS (TAIL_ROWS + 1)
#define SEARCH_SETTLE(c, d, nc, nl, nr, na) tail_settle(NULL, (c)->all & ~(nc), na, nl, nr, 1, 1)
#define SEARCH_STOP_MASK SEARCH_STOP_MASK_TAIL
#define SEARCH_STOPPING(c) search_stopping(&(c)->stop)
#include "engines/search_tmpl.c"

#define SEARCH_FN dfs_plain_search
#define SEARCH_CTX dfs_ctx
#define SEARCH_FREE(c, d) ((c)->all)
#define SEARCH_SHIFT(c, d) 1u
#define SEARCH_SETTLE_ROWS 1
#define SEARCH_SETTLE(c, d, nc, nl, nr, na) ((uint64_t)__builtin_popcount(na))
#define SEARCH_STOP_MASK SEARCH_STOP_MASK_COUNT
#define SEARCH_STOPPING(c) search_stopping(&(c)->stop)
#include "engines/search_tmpl.c"

uint64_t CPU_BUILD_NAME(dfs_search)(uint32_t all, int rows_left, uint32_t cols, uint32_t ld,
                                    uint32_t rd, const engine_worker *w, int *stopped)
{
    dfs_ctx c = {all, {w, 0}};
    uint64_t count;

    assert(rows_left <= 32);
    if (rows_left <= 0)
        count = 1;
    else if (rows_left < TAIL_ROWS || __builtin_popcount(all & ~cols) != rows_left)
        count = dfs_plain_search(&c, rows_left, cols, ld, rd);
    else if (rows_left == TAIL_ROWS) {
        tail_init();
        count = tail_count(NULL, all & ~cols, ld, rd, 1);
    } else {
        tail_init();
        count = dfs_tail_search(&c, rows_left, cols, ld, rd);
    }
    *stopped = c.stop.stopped;
    return count;
}
