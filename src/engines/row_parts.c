/* Parts of a DFS task by the placements of its next rows (see row_parts.h). */
#include "engines/row_parts.h"

#include <assert.h>

#include "core/clock.h"
#include "engines/tail.h"
#include "engines/task_cost.h"

/* The stride a level below takes at most: it walks ROW_PARTS_TIMED times as many of its
 * own placements, for each of ROW_PARTS_TIMED parts above. A larger one (the pilot's
 * UINT64_MAX: as few as there are) is lowered to it. */
#define ROW_PARTS_REST_MAX (1ull << 16)

/* One level of parts: the placements of r's first `placed` rows, every stride-th from
 * offset completed (rest 1) or parted again, one in rest of their own parts, at a weight
 * of stride (the inverse of a placement's probability of being taken here). */
typedef struct part_level {
    const row_parts_rows *r;
    engine_parts *p;
    row_part_fn part;
    void *user;
    int above;  /* rows placed by the levels above r */
    int placed; /* rows this level places */
    uint64_t index, offset, stride, rest;
    uint64_t draw;    /* the offsets of the levels below: draw / stride */
    double timed;     /* CPU time of the placements taken, with their levels below */
    double projected; /* their completion times over their probability */
    uint64_t sum;
    engine_status status;
} part_level;

static engine_status level_complete(const row_parts_rows *r, engine_parts *p, row_part_fn part,
                                    void *user, int above, uint64_t stride, uint64_t draw, int top,
                                    double *projected, uint64_t *subtotal);

/* The depth to part at and its placements: the shallowest with ROW_PARTS_TIMED parts per
 * stride, no deeper than r's part bound allows. */
static int part_depth(const row_parts_rows *r, uint64_t stride, uint64_t *parts)
{
    const uint64_t most = r->max_parts ? r->max_parts : ROW_PARTS_MAX;
    uint64_t want = stride > most / ROW_PARTS_TIMED ? most : stride * ROW_PARTS_TIMED;
    int depth = 0, deepest = r->rows - (TAIL_ROWS + 2);

    *parts = 1;
    while (depth < deepest && *parts < want) {
        uint64_t next = task_cost_placements(r->free, r->shift, depth + 1, r->cols, r->ld, r->rd);
        if (next > most)
            break;
        depth++;
        *parts = next;
        if (next == 0)
            break; /* no placement: no part below either */
    }
    return depth;
}

/* Whether a deeper level could part r's parts again: its bound, not its tail, stopped
 * part_depth at depth. */
static int can_part_again(const row_parts_rows *r, int depth)
{
    return depth < r->rows - (TAIL_ROWS + 2);
}

/* One placement: completed, or parted again, and timed when its number is drawn. */
static int visit_part(void *user, uint32_t cols, uint32_t ld, uint32_t rd)
{
    part_level *lv = user;
    uint64_t sub;
    double t0, below;

    if (lv->index++ % lv->stride != lv->offset)
        return 0;
    t0 = clock_thread_cpu();
    if (lv->rest > 1) {
        row_parts_rows next = {lv->r->free + lv->placed,
                               lv->r->shift + lv->placed,
                               lv->r->rows - lv->placed,
                               cols,
                               ld,
                               rd,
                               lv->r->max_parts};
        lv->status = level_complete(&next, lv->p, lv->part, lv->user, lv->above + lv->placed,
                                    lv->rest, lv->draw, 0, &below, &sub);
    } else {
        lv->status = lv->part(lv->user, lv->above + lv->placed, cols, ld, rd, &sub);
        below = clock_thread_cpu() - t0;
        lv->p->timed++;
    }
    lv->timed += clock_thread_cpu() - t0;
    lv->projected += (double)lv->stride * below;
    lv->sum += sub;
    return lv->status != ENGINE_DONE;
}

/* The parts of r below `above` placed rows, one in stride of them (the top level: stride
 * lowered to the parts there are, and parted again, the rest of the stride below, where
 * a level cannot hold ROW_PARTS_TIMED parts of it; a level below: the stride as given,
 * so that every placement's probability is the same whatever its subtree holds). Their
 * subtotals into *subtotal, and into *projected r's completion time as they project it:
 * the time spent less that of the parts taken and of finding them, plus the parts'
 * projections. The top level's own times go into p. */
static engine_status level_complete(const row_parts_rows *r, engine_parts *p, row_part_fn part,
                                    void *user, int above, uint64_t stride, uint64_t draw, int top,
                                    double *projected, uint64_t *subtotal)
{
    double t0 = clock_thread_cpu(), found;
    uint64_t parts;
    part_level lv = {r, p, part, user, above, 0, 0, 0, stride, 1, 0, 0, 0, 0, ENGINE_DONE};

    lv.placed = part_depth(r, stride, &parts);
    found = clock_thread_cpu() - t0;
    if (top && parts < stride && parts >= ROW_PARTS_TIMED && can_part_again(r, lv.placed) &&
        stride / (parts / ROW_PARTS_TIMED) > 1) {
        lv.stride = parts / ROW_PARTS_TIMED; /* ROW_PARTS_TIMED here, each parted again */
        lv.rest = stride / lv.stride < ROW_PARTS_REST_MAX ? stride / lv.stride : ROW_PARTS_REST_MAX;
    } else if (top)
        lv.stride = parts == 0 ? 1 : parts < stride ? parts : stride;
    lv.offset = draw % lv.stride;
    lv.draw = draw / lv.stride;
    (void)task_cost_visit(r->free, r->shift, lv.placed, r->cols, r->ld, r->rd, visit_part, &lv);
    if (top) {
        p->stride = lv.stride * lv.rest;
        p->extra_seconds = found;
        p->timed_seconds = lv.timed;
        p->projected_seconds = lv.projected;
    }
    *projected = lv.projected;
    *subtotal = lv.sum;
    return lv.status;
}

engine_status row_parts_complete(const row_parts_rows *r, engine_parts *p, row_part_fn part,
                                 void *user, uint64_t *subtotal)
{
    double projected;

    assert(p->stride > 0 && r->rows >= 0);
    p->timed = 0;
    return level_complete(r, p, part, user, 0, p->stride, p->draw, 1, &projected, subtotal);
}
