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
    double timed;     /* CPU time of the parts completed, on this level or below */
    double walked;    /* CPU time of the walks below placements parted again */
    double projected; /* their completion times over their probability */
    uint64_t sum;
    engine_status status;
} part_level;

static void level_walk(part_level *lv, uint64_t draw);

/* The most rows a level may place: the search keeps its tail and a row above it. */
static int deepest_part(const row_parts_rows *r)
{
    return r->rows - (TAIL_ROWS + 2);
}

/* The depth to part at and its placements: the shallowest with ROW_PARTS_TIMED parts per
 * stride, no deeper than r's part bound allows. */
static int part_depth(const row_parts_rows *r, uint64_t stride, uint64_t *parts)
{
    const uint64_t most = r->max_parts ? r->max_parts : ROW_PARTS_MAX;
    uint64_t want = stride > most / ROW_PARTS_TIMED ? most : stride * ROW_PARTS_TIMED;
    int depth = 0, deepest = deepest_part(r);

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
    return depth < deepest_part(r);
}

/* The placement (cols, ld, rd) of lv's level parted again, one in lv->rest of its own
 * placements: the stride as given, so that every placement's probability is the same
 * whatever its subtree holds. Returns its leaves' projected time (not its walk's), and
 * their CPU time into *leaves. */
static double part_below(part_level *lv, uint32_t cols, uint32_t ld, uint32_t rd,
                         uint64_t *subtotal, double *leaves)
{
    const row_parts_rows *r = lv->r;
    row_parts_rows next = {
        r->free + lv->placed, r->shift + lv->placed, r->rows - lv->placed, cols, ld, rd,
        r->max_parts};
    part_level sub = {.r = &next,
                      .p = lv->p,
                      .part = lv->part,
                      .user = lv->user,
                      .above = lv->above + lv->placed,
                      .stride = lv->rest,
                      .rest = 1,
                      .status = ENGINE_DONE};
    uint64_t parts;

    sub.placed = part_depth(&next, sub.stride, &parts);
    level_walk(&sub, lv->draw);
    lv->status = sub.status;
    *subtotal = sub.sum;
    *leaves = sub.timed;
    return sub.projected;
}

/* One placement: completed, or parted again, and timed when its number is drawn. */
static int visit_part(void *user, uint32_t cols, uint32_t ld, uint32_t rd)
{
    part_level *lv = user;
    uint64_t sub;
    double t0, below, leaves;

    if (lv->index++ % lv->stride != lv->offset)
        return 0;
    t0 = clock_thread_cpu();
    if (lv->rest > 1)
        below = part_below(lv, cols, ld, rd, &sub, &leaves);
    else {
        lv->status = lv->part(lv->user, lv->above + lv->placed, cols, ld, rd, &sub);
        below = leaves = clock_thread_cpu() - t0;
        lv->p->timed++;
    }
    lv->timed += leaves;
    lv->walked += clock_thread_cpu() - t0 - leaves;
    lv->projected += (double)lv->stride * below;
    lv->sum += sub;
    return lv->status != ENGINE_DONE;
}

/* Complete lv's level, its placed, stride and rest set: every stride-th placement from
 * the offset that draw's lowest digit (base stride) names, the digits above going to
 * the levels below. */
static void level_walk(part_level *lv, uint64_t draw)
{
    const row_parts_rows *r = lv->r;

    lv->offset = draw % lv->stride;
    lv->draw = draw / lv->stride;
    (void)task_cost_visit(r->free, r->shift, lv->placed, r->cols, r->ld, r->rd, visit_part, lv);
}

/* The top level: its stride lowered to the parts there are, or where it cannot hold
 * ROW_PARTS_TIMED parts of the stride and a deeper level could, ROW_PARTS_TIMED of its
 * parts each parted again, one in the rest of the stride. */
engine_status row_parts_complete(const row_parts_rows *r, engine_parts *p, row_part_fn part,
                                 void *user, uint64_t *subtotal)
{
    double t0 = clock_thread_cpu();
    uint64_t parts, stride = p->stride;
    part_level lv = {
        .r = r, .p = p, .part = part, .user = user, .stride = 1, .rest = 1, .status = ENGINE_DONE};

    assert(p->stride > 0 && r->rows >= 0);
    lv.placed = part_depth(r, stride, &parts);
    p->extra_seconds = clock_thread_cpu() - t0;
    if (parts < stride && parts >= ROW_PARTS_TIMED && can_part_again(r, lv.placed) &&
        stride / (parts / ROW_PARTS_TIMED) > 1) {
        lv.stride = parts / ROW_PARTS_TIMED;
        lv.rest = stride / lv.stride < ROW_PARTS_REST_MAX ? stride / lv.stride : ROW_PARTS_REST_MAX;
    } else
        lv.stride = parts == 0 ? 1 : parts < stride ? parts : stride;
    p->timed = 0;
    level_walk(&lv, p->draw);
    p->stride = lv.stride * lv.rest;
    p->extra_seconds += lv.walked; /* a count finds no parts */
    p->timed_seconds = lv.timed;
    p->projected_seconds = lv.projected;
    *subtotal = lv.sum;
    return lv.status;
}
