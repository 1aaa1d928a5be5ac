/* Running a count in parts (nq_resolve_settings, nq_task_count, nq_count_tasks): the parts
 * add up to the OEIS total, and the subtotals they report rebuild it through reuse. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine_check.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"
#include "subtotals.h"

static nq_solver *make(int n, int threads, int engine, nq_settings *s)
{
    *s = engine_check_settings(n, engine, 8); /* resolve as if for 8 workers, run with fewer */
    cr_assert_eq(nq_resolve_settings(s), NQ_OK);
    cr_assert_gt(s->prefix_rows, 0);
    s->n_threads = threads;
    return engine_check_create(s);
}

/* Split the ids of board n into `parts` interleaved subsets and run each on its own. */
static void check_parts(int n, int threads, int parts, int engine)
{
    nq_settings s;
    nq_solver *sv = make(n, threads, engine, &s);
    uint64_t n_tasks, *ids, sum = 0, unique = 0;
    subtotals c;
    nq_result r;
    nq_hooks h = subtotals_hooks(&c, 0);

    cr_assert_eq(nq_task_count(&s, &n_tasks), NQ_OK);
    ids = calloc(n_tasks, sizeof(*ids));
    cr_assert(ids && subtotals_init(&c, n_tasks) == 0);
    for (int p = 0; p < parts; p++) {
        size_t k = 0;
        for (uint64_t id = (uint64_t)p; id < n_tasks; id += (uint64_t)parts)
            ids[k++] = id;
        cr_assert_eq(nq_count_tasks(sv, ids, k, &h, &r), NQ_OK);
        cr_assert_eq(r.tasks, k);
        sum += r.total.lo;
        unique += r.unique.lo;
    }
    cr_expect_eq(sum, oeis_value("A000170", n), "n=%d parts=%d engine=%d", n, parts, engine);
    if (engine == NQ_ENGINE_D4) /* the classes add up over parts too */
        cr_expect_eq(unique, oeis_value("A002562", n), "n=%d parts=%d", n, parts);
    cr_expect_eq(atomic_load(&c.calls), n_tasks);
    cr_expect_eq(atomic_load(&c.bad), 0, "every task once");

    /* Every subtotal known: a count that reuses them all runs nothing and gives the total. */
    atomic_store(&c.calls, 0);
    h = subtotals_hooks(&c, 1);
    cr_assert_eq(nq_count(sv, &h, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", n));
    cr_expect_eq(atomic_load(&c.calls), 0);
    free(ids);
    subtotals_free(&c);
    nq_destroy_solver(&sv);
}

Test(unit, tasks_parts_add_up)
{
    for (int engine = NQ_ENGINE_PREFIX; engine <= NQ_ENGINE_D4; engine++) {
        for (int n = 4; n <= 12; n++)
            check_parts(n, 2, 3, engine);
        check_parts(13, 1, 1, engine);
        check_parts(13, 3, 7, engine);
    }
}

Test(unit, tasks_empty_and_bad_id_sets)
{
    nq_settings s;
    nq_solver *sv = make(10, 2, NQ_ENGINE_PREFIX, &s);
    uint64_t n_tasks, bad[2];
    nq_result r;

    cr_assert_eq(nq_task_count(&s, &n_tasks), NQ_OK);
    cr_expect_eq(nq_count_tasks(sv, NULL, 0, NULL, &r), NQ_OK);
    cr_expect_eq(r.total.lo, 0);
    cr_expect_eq(r.tasks, 0);
    bad[0] = n_tasks;
    cr_expect_eq(nq_count_tasks(sv, bad, 1, NULL, &r), NQ_EINVAL, "id past the end");
    bad[0] = bad[1] = 1;
    cr_expect_eq(nq_count_tasks(sv, bad, 2, NULL, &r), NQ_EINVAL, "repeated id");
    bad[0] = 2;
    cr_expect_eq(nq_count_tasks(sv, bad, 2, NULL, &r), NQ_EINVAL, "descending ids");
    cr_expect_eq(nq_count_tasks(sv, NULL, 1, NULL, &r), NQ_EINVAL);
    /* the solver still counts in full after the refusals */
    cr_expect_eq(nq_count(sv, NULL, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", 10));
    nq_destroy_solver(&sv);
    s.n = 0;
    cr_expect_eq(nq_resolve_settings(&s), NQ_EINVAL);
    cr_expect_eq(nq_task_count(&s, &n_tasks), NQ_EINVAL);
}

/* A journal header is checked by walking the task source it names; past an engine's
 * tables (join beyond n = 21) that walk would take minutes, so such a header is refused
 * at once, whatever task count it claims. */
Test(unit, task_set_past_an_engines_tables_is_refused)
{
    nq_settings s;
    nq_task_set ts = {.tasks = 1};

    snprintf(ts.engine, sizeof(ts.engine), "join");
    snprintf(ts.params, sizeof(ts.params), "halves=v2");
    for (int n = nq_engine_max_n(NQ_ENGINE_JOIN) + 1; n <= NQ_MAX_N; n++) {
        ts.n = n;
        nq_default_settings(&s);
        cr_expect_eq(nq_task_set_apply(&ts, &s), NQ_EINVAL, "join at n=%d", n);
    }
    nq_default_settings(&s);
    s.n = nq_engine_max_n(NQ_ENGINE_JOIN);
    s.engine = NQ_ENGINE_JOIN;
    cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
    nq_default_settings(&s);
    cr_expect_eq(nq_task_set_apply(&ts, &s), NQ_OK, "join at its largest board");
}
