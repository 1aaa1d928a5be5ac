/* The d4 engine's completion search: the search loop (engines/search_tmpl.c) over the
 * rows of a plan, with its last five inner rows settled by table (engines/tail.h).
 *
 * d4's rows are not uniform, and the loop and the tail take that into account: a row's
 * open squares come from the plan, which already holds what the border queens attack
 * and, on row n-1, the bottom columns the canonical test allows (task.last); preset rows
 * (the left and right queens') are skipped, so the diagonals shift by 2 or 3 there, and
 * the tail rows need not be consecutive (the tail's row patterns). Above the tail, the
 * nodes with six rows left are not pushed: their children are settled in place. Every
 * placement also looks ahead to row n-1: the canonical test leaves its queen only the
 * columns of task.last, so a placement that closes them all is a dead end long before
 * the search would get there. Plans with fewer than five inner rows (n < 8) take a plain
 * search that settles the last two rows in one branch-free step. */
#include "engines/d4tail.h"

#include <assert.h>

#include "core/cpu.h"
#include "engines/search.h"
#include "engines/tail.h"

typedef struct plan_ctx {
    const d4_plan *p;
    tail_plan tail;
    search_stop stop;
} plan_ctx;

/* Two inner rows left, gap s apart; f holds exactly the two free columns, a and b the
 * squares still open in the first and the second row. Branch-free. The two queens attack
 * each other only diagonally, when the columns are s apart. */
static inline uint32_t last_two(uint32_t f, uint32_t a, uint32_t b, uint32_t s)
{
    uint32_t p = f & -f, q = f ^ p;
    uint32_t pq = ((a & p) != 0) & ((b & q) != 0);
    uint32_t qp = ((a & q) != 0) & ((b & p) != 0);
    uint32_t apart = q != (p << s);
    return (pq + qp) & -apart;
}

/* A placement at inner row d leaves row n-1 some square (k rows further down). */
static inline int plan_alive(const d4_plan *p, int d, uint32_t nc, uint32_t nl, uint32_t nr)
{
    uint32_t k = p->to_last[d + 1];
    return (p->last & ~(nc | (nl << k) | (nr >> k))) != 0;
}

#define SEARCH_FN plan_tail_search
#define SEARCH_CTX plan_ctx
#define SEARCH_FREE(c, d) ((c)->p->free[d])
#define SEARCH_SHIFT(c, d) ((c)->p->shift[d])
#define SEARCH_ALIVE(c, d, nc, nl, nr) plan_alive((c)->p, d, nc, nl, nr)
#define SEARCH_SETTLE_ROWS (TAIL_ROWS + 1)
#define SEARCH_SETTLE(c, d, nc, nl, nr, na)                                                        \
    tail_settle(&(c)->tail, (c)->p->cols & ~(nc), na, nl, nr, (c)->p->shift[(d) + 1], 0)
#define SEARCH_STOP_MASK SEARCH_STOP_MASK_TAIL
#define SEARCH_STOPPING(c) search_stopping(&(c)->stop)
#include "engines/search_tmpl.c"

/* The last two rows of a placement at d: rows d + 1 (open squares na) and d + 2. */
static inline uint64_t plan_last_two(const d4_plan *p, int d, uint32_t nc, uint32_t nl, uint32_t nr,
                                     uint32_t na)
{
    uint32_t s2 = p->shift[d + 1];
    return last_two(p->cols & ~nc, na, p->free[d + 2] & ~((nl << s2) | (nr >> s2)), s2);
}

#define SEARCH_FN plan_plain_search
#define SEARCH_CTX plan_ctx
#define SEARCH_FREE(c, d) ((c)->p->free[d])
#define SEARCH_SHIFT(c, d) ((c)->p->shift[d])
#define SEARCH_ALIVE(c, d, nc, nl, nr) plan_alive((c)->p, d, nc, nl, nr)
#define SEARCH_SETTLE_ROWS 2
#define SEARCH_SETTLE(c, d, nc, nl, nr, na) plan_last_two((c)->p, d, nc, nl, nr, na)
#define SEARCH_STOP_MASK SEARCH_STOP_MASK_COUNT
#define SEARCH_STOPPING(c) search_stopping(&(c)->stop)
#include "engines/search_tmpl.c"

uint64_t CPU_BUILD_NAME(d4tail_search)(const d4_plan *p, const engine_worker *w, int *stopped)
{
    plan_ctx c = {.p = p, .stop = {w, 0}};
    int first = p->depth - TAIL_ROWS; /* the first tail row */
    uint64_t count;

    assert(p->depth >= 0 && p->depth <= 32);
    if (p->depth == 0)
        count = 1;
    else if (p->depth == 1)
        count = (uint64_t)__builtin_popcount(p->free[0] & p->cols);
    else if (first < 0) /* too few rows for the tail tables */
        count = plan_plain_search(&c, p->depth, 0, 0, 0);
    else {
        tail_plan_init(&c.tail, p->free + first, p->shift + first);
        count = first == 0 ? tail_count(&c.tail, p->cols, 0, 0, 0)
                           : plan_tail_search(&c, p->depth, 0, 0, 0);
    }
    *stopped = c.stop.stopped;
    return count;
}
