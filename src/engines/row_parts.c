/* Parts of a DFS task by the placements of its next rows (see row_parts.h). */
#include "engines/row_parts.h"

#include <assert.h>

#include "core/clock.h"
#include "engines/tail.h"
#include "engines/task_cost.h"

typedef struct part_walk {
    engine_parts *p;
    row_part_fn part;
    void *user;
    int placed;
    uint64_t index, offset; /* the placement's number; the stride-th ones to complete */
    uint64_t sum;
    engine_status status;
} part_walk;

/* The depth to part at and its placements: the shallowest with ROW_PARTS_TIMED parts per
 * stride, no deeper than ROW_PARTS_MAX parts allow. */
static int part_depth(const row_parts_rows *r, uint64_t stride, uint64_t *parts)
{
    uint64_t want =
        stride > ROW_PARTS_MAX / ROW_PARTS_TIMED ? ROW_PARTS_MAX : stride * ROW_PARTS_TIMED;
    int depth = 0, deepest = r->rows - (TAIL_ROWS + 2);

    *parts = 1;
    while (depth < deepest && *parts < want) {
        uint64_t next = task_cost_placements(r->free, r->shift, depth + 1, r->cols, r->ld, r->rd);
        if (next > ROW_PARTS_MAX)
            break;
        depth++;
        *parts = next;
        if (next == 0)
            break; /* no placement: no part below either */
    }
    return depth;
}

/* One placement: completed and timed when its number is drawn. */
static int visit_part(void *user, uint32_t cols, uint32_t ld, uint32_t rd)
{
    part_walk *pw = user;
    uint64_t sub;
    double t0;

    if (pw->index++ % pw->p->stride != pw->offset)
        return 0;
    t0 = clock_thread_cpu();
    pw->status = pw->part(pw->user, pw->placed, cols, ld, rd, &sub);
    pw->p->timed_seconds += clock_thread_cpu() - t0;
    pw->p->timed++;
    pw->sum += sub;
    return pw->status != ENGINE_DONE;
}

engine_status row_parts_complete(const row_parts_rows *r, engine_parts *p, row_part_fn part,
                                 void *user, uint64_t *subtotal)
{
    double t0 = clock_thread_cpu();
    uint64_t parts;
    part_walk pw = {p, part, user, 0, 0, 0, 0, ENGINE_DONE};

    assert(p->stride > 0 && r->rows >= 0);
    pw.placed = part_depth(r, p->stride, &parts);
    p->extra_seconds = clock_thread_cpu() - t0;
    p->stride = parts == 0 ? 1 : parts < p->stride ? parts : p->stride;
    p->timed = 0;
    p->timed_seconds = 0;
    pw.offset = p->draw % p->stride;
    (void)task_cost_visit(r->free, r->shift, pw.placed, r->cols, r->ld, r->rd, visit_part, &pw);
    *subtotal = pw.sum;
    return pw.status;
}
