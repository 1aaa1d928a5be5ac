/* The DFS engines' parts for an estimate (engines/row_parts.c): the placements of a
 * task's next rows, for d4 (a plan's rows, the placed queens folded into the rows below)
 * and prefix (uniform rows). Each task's parts add up to its whole count, which sums,
 * weighted, to the OEIS total. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "engine_check_settings.h"
#include "engine_parts.h"
#include "engine_table.h"
#include "engines/row_parts.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"

#define MAX_TASKS 8192

typedef struct task_set {
    task at[MAX_TASKS];
    uint64_t k;
} task_set;

static int collect(void *user, const task *t)
{
    task_set *ts = user;
    cr_assert_lt(ts->k, MAX_TASKS);
    ts->at[ts->k++] = *t;
    return 0;
}

/* Every task of engine id on board n (prefix rows rows; 0: auto) timed by parts at each
 * stride: the same subtotals as complete, which add up to A000170(n); and the pilot's
 * one part. (The pilot's stride in check_parts would walk a task's parts once per part:
 * thousands at n = 14.) */
static void check_engine(int id, int n, int rows)
{
    static const uint64_t strides[] = {2, 3, 7, 100};
    static task_set ts;
    const engine_desc *e = engine_find(id);
    nq_settings s = engine_check_settings(n, id, 1);
    uint64_t weighted = 0;

    s.prefix_rows = rows;
    cr_assert_eq(nq_resolve_settings(&s), NQ_OK);
    void *shared = e->shared_init ? e->shared_init(&s, NULL) : NULL;
    engine_worker w = {.s = &s, .shared = shared};
    ts.k = 0;
    e->source(&s, collect, &ts);
    for (uint64_t i = 0; i < ts.k; i++) {
        uint64_t whole;
        cr_assert_eq(e->complete(&w, &ts.at[i], &whole), ENGINE_DONE);
        for (size_t k = 0; k < sizeof(strides) / sizeof(strides[0]); k++)
            check_parts(e, &w, &ts.at[i], strides[k], 0, whole);
        check_pilot(e, &w, &ts.at[i]);
        weighted += whole * ts.at[i].weight;
    }
    cr_expect_eq(weighted, oeis_value("A000170", n), "%s n=%d rows=%d", e->name, n, rows);
    if (e->shared_free)
        e->shared_free(shared);
}

/* n = 12..14 leave d4 three to five rows to part by (n <= 9: none, one part a task). */
Test(unit, d4_parts_tile_the_task)
{
    for (int n = 1; n <= 14; n++)
        check_engine(NQ_ENGINE_D4, n, 0);
}

Test(unit, prefix_parts_tile_the_task)
{
    for (int n = 1; n <= 14; n++)
        for (int rows = 1; rows <= 3 && rows <= n; rows++)
            check_engine(NQ_ENGINE_PREFIX, n, rows);
}

/* ---- parts parted again (row_parts_complete on a whole board, a low part bound) ------ */

typedef struct board_rows {
    uint32_t all;
    int rows;
} board_rows;

static uint64_t below(uint32_t all, int rows, uint32_t cols, uint32_t ld, uint32_t rd)
{
    uint64_t sum = 0;

    if (rows == 0)
        return 1;
    for (uint32_t a = all & ~(cols | ld | rd); a; a &= a - 1) {
        uint32_t bit = a & -a;
        sum += below(all, rows - 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    return sum;
}

static engine_status board_part(void *user, int placed, uint32_t cols, uint32_t ld, uint32_t rd,
                                uint64_t *subtotal)
{
    const board_rows *b = user;
    *subtotal = below(b->all, b->rows - placed, cols, ld, rd);
    return ENGINE_DONE;
}

/* With a level bound of 256 parts, a board's stride past its first level's parts is cut
 * into two levels: the stride that comes back is their product (more than one level
 * holds), every draw of it the same, and the draws 0 .. stride-1 take each placement
 * below once, so that their subtotals add up to A000170(n). */
Test(unit, row_parts_part_again_past_the_bound)
{
    static const uint64_t strides[] = {2, 17, 300, 1000, 4099};

    for (int n = 10; n <= 13; n++) {
        uint32_t free[32], shift[32];
        board_rows b = {(1u << n) - 1, n};
        row_parts_rows r = {free, shift, n, 0, 0, 0, 256};

        for (int d = 0; d < n; d++)
            free[d] = b.all, shift[d] = 1;
        for (size_t k = 0; k < sizeof(strides) / sizeof(strides[0]); k++) {
            uint64_t sum = 0, used = 0, sub;
            for (uint64_t d = 0; d < strides[k] && (!used || d < used); d++) {
                engine_parts p = {strides[k], d, 0, 0, 0, 0, 0};
                cr_assert_eq(row_parts_complete(&r, &p, board_part, &b, &sub), ENGINE_DONE);
                cr_assert(!used || p.stride == used, "n=%d stride %llu: one stride", n,
                          (unsigned long long)strides[k]);
                cr_assert(p.projected_seconds >= 0 && p.timed_seconds >= 0);
                used = p.stride;
                sum += sub;
            }
            cr_assert_leq(used, strides[k]);
            if (strides[k] >= 1000)
                cr_expect_gt(used, 256, "n=%d stride %llu: %llu, two levels", n,
                             (unsigned long long)strides[k], (unsigned long long)used);
            cr_expect_eq(sum, oeis_value("A000170", n), "n=%d stride %llu (used %llu)", n,
                         (unsigned long long)strides[k], (unsigned long long)used);
        }
    }
}

static engine_status empty_part(void *user, int placed, uint32_t cols, uint32_t ld, uint32_t rd,
                                uint64_t *subtotal)
{
    (void)user, (void)placed, (void)cols, (void)ld, (void)rd;
    *subtotal = 0;
    return ENGINE_DONE;
}

/* The parts' own time is the leaves' only: the walks below parts parted again are time a
 * count does not spend (extra_seconds). Counted with the parts, they made an estimate's
 * pilot take parts of microseconds for enough of a task (d4 at n = 20: 16 walks of
 * 20 ms, the leaves' microseconds). Here the leaves are empty (1 us each), the walks
 * thousands of placements (0.5 ms in all; 2 ms under ASan). */
Test(unit, row_parts_walks_below_are_not_the_parts)
{
    uint32_t free[32], shift[32];
    const int n = 16;
    row_parts_rows r = {free, shift, n, 0, 0, 0, 4096};

    for (int d = 0; d < n; d++)
        free[d] = (1u << n) - 1, shift[d] = 1;
    for (uint64_t d = 0; d < 4; d++) {
        engine_parts p = {1ull << 40, d * 7919, 0, 0, 0, 0, 0};
        uint64_t sub;
        cr_assert_eq(row_parts_complete(&r, &p, empty_part, NULL, &sub), ENGINE_DONE);
        cr_assert_gt(p.stride, 4096, "two levels");
        cr_expect_lt(4 * p.timed_seconds, p.extra_seconds,
                     "draw %llu: %llu parts in %g s, walks %g s", (unsigned long long)d,
                     (unsigned long long)p.timed, p.timed_seconds, p.extra_seconds);
    }
}
