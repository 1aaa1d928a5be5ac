/* Test helper: the check that an engine's parts for an estimate (engine_desc.complete_parts)
 * tile a task, shared by the engines that have parts (the join's pieces, the DFS engines'
 * rows). */
#ifndef NQ_TEST_ENGINE_PARTS_H
#define NQ_TEST_ENGINE_PARTS_H

#include <criterion/criterion.h>
#include <stdint.h>

#include "core/engine.h"

/* The pilot's stride (UINT64_MAX) comes back as the task's parts, one of them timed. */
static inline void check_pilot(const engine_desc *e, const engine_worker *w, const task *t)
{
    engine_parts p = {UINT64_MAX, 12345, 0, 0, 0, 0, 0};
    uint64_t sub;

    cr_assert_eq(e->complete_parts(w, t, &p, &sub), ENGINE_DONE);
    cr_expect(p.stride == 1 || p.timed == 1, "the pilot times one part");
}

/* Task t's parts for an estimate (engine_desc.complete_parts), asked for one in stride,
 * parts parted again up to again_most: the draws 0..stride-1 take every part (or piece of
 * one) once, so that their subtotals add up to the task's and each is timed with
 * probability 1 / stride. The stride comes back at most the task's parts, times
 * again_most where parted again (the pilot's UINT64_MAX: all of them, one timed). */
static inline void check_parts(const engine_desc *e, const engine_worker *w, const task *t,
                               uint64_t stride, uint64_t again_most, uint64_t want)
{
    uint64_t sum = 0, timed = 0, used = 0, sub;

    for (uint64_t d = 0; d < stride && (!used || d < used); d++) {
        engine_parts p = {stride, d, 0, 0, 0, 0, again_most};
        cr_assert_eq(e->complete_parts(w, t, &p, &sub), ENGINE_DONE);
        cr_assert(p.stride >= 1 && p.stride <= stride);
        cr_assert(p.extra_seconds >= 0, "the walk that found the parts, less what a count does");
        cr_assert(!used || p.stride == used, "the task's parts, not chance's");
        used = p.stride;
        sum += sub;
        timed += used == 1 ? 1 : p.timed;
        cr_assert(used == 1 || p.timed >= 1, "a stride of at most the parts times one");
    }
    cr_expect_eq(sum, want, "n=%d task %llu stride %llu (used %llu): %llu", w->s->n,
                 (unsigned long long)t->id, (unsigned long long)stride, (unsigned long long)used,
                 (unsigned long long)sum);
    if (stride == UINT64_MAX)
        check_pilot(e, w, t);
    else
        cr_expect(used == 1 || timed >= used, "every part timed once over the draws");
}

#endif
