/* The DFS engines' parts for an estimate (engines/row_parts.c): the placements of a
 * task's next rows, for d4 (a plan's rows, the placed queens folded into the rows below)
 * and prefix (uniform rows). Each task's parts add up to its whole count, which sums,
 * weighted, to the OEIS total. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "engine_check_settings.h"
#include "engine_parts.h"
#include "engine_table.h"
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
            check_parts(e, &w, &ts.at[i], strides[k], whole);
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
