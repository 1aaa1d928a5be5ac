/* The expansion of a GPU plan's first inner rows into sub-tasks (see gpu_expand.h): the
 * one search loop of engines/search_tmpl.c, over a GPU plan, each placement at the last
 * host row emitted instead of searched further. */
#include <assert.h>

#include "gpu/gpu_expand.h"

typedef struct expand_ctx {
    const search_plan *p;
    uint32_t head; /* plan index and start depth, packed as search_sub has them */
    gpu_sub_fn emit;
    void *user;
    int halt; /* emit asked to stop */
} expand_ctx;

/* A placement at inner row d leaves row n-1 some square (k rows further down). */
static inline int expand_alive(const search_plan *p, int d, uint32_t nc, uint32_t nl, uint32_t nr)
{
    uint32_t k = p->to_last[d + 1];
    return (p->last & ~(nc | (nl << k) | (nr >> k))) != 0;
}

static uint64_t expand_leaf(expand_ctx *x, int d, uint32_t nc, uint32_t nl, uint32_t nr,
                            uint32_t na)
{
    search_sub sub = {x->head, nc, nl, nr};
    if (!na || !expand_alive(x->p, d, nc, nl, nr))
        return 0;
    if (x->emit && x->emit(x->user, &sub))
        x->halt = 1;
    return 1;
}

#define SEARCH_FN expand_search
#define SEARCH_CTX expand_ctx
#define SEARCH_FREE(x, d) ((x)->p->free[d])
#define SEARCH_SHIFT(x, d) ((uint32_t)(x)->p->shift[d])
#define SEARCH_ALIVE(x, d, nc, nl, nr) expand_alive((x)->p, d, nc, nl, nr)
#define SEARCH_SETTLE_ROWS 0
#define SEARCH_SETTLE(x, d, nc, nl, nr, na) expand_leaf(x, d, nc, nl, nr, na)
#define SEARCH_HALTED(x) ((x)->halt)
#define SEARCH_STOP_MASK 0u /* the host's part is short: it never looks */
#define SEARCH_STOPPING(x) 0
#include "engines/search_tmpl.c"

uint64_t gpu_expand(const search_plan *p, uint32_t plan_index, int rows, gpu_sub_fn emit,
                    void *user)
{
    int target = rows < p->depth - 3 ? rows : p->depth - 3;
    expand_ctx x = {p, plan_index << 5 | (uint32_t)(target > 0 ? target : 0), emit, user, 0};

    if (target <= 0) {
        search_sub s = {plan_index << 5, 0, 0, 0};
        if (emit)
            emit(user, &s);
        return 1;
    }
    return expand_search(&x, target, 0, 0, 0);
}
