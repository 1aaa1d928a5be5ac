/* Test helper: one count through the public API, and the check of an engine's totals
 * and unique counts against ../shared/oeis, for the engines' tests to share. */
#ifndef NQ_TEST_ENGINE_CHECK_H
#define NQ_TEST_ENGINE_CHECK_H

#include <criterion/criterion.h>

#include "nqueens/nqueens.h"
#include "oeis_data.h"

/* A solver for board n with engine on threads workers (0: every CPU), unpinned. */
static inline nq_solver *engine_check_solver(int n, int engine, int threads)
{
    nq_settings s;
    nq_solver *sv = NULL;

    nq_default_settings(&s);
    s.n = n;
    s.engine = engine;
    s.n_threads = threads;
    s.pin_threads = 0;
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK, "n=%d engine=%d", n, engine);
    return sv;
}

/* One count of board n with engine on threads workers, checked to have succeeded. */
static inline nq_result engine_check_count(int n, int engine, int threads)
{
    nq_solver *sv = engine_check_solver(n, engine, threads);
    nq_result r;

    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK, "n=%d engine=%d threads=%d", n, engine, threads);
    nq_destroy_solver(&sv);
    cr_assert_eq(r.total.hi, 0);
    cr_assert_eq(r.unique.hi, 0);
    return r;
}

/* Totals and unique counts of n = from..to against A000170 and A002562. */
static inline void engine_check_oeis(int engine, int from, int to, int threads)
{
    for (int n = from; n <= to; n++) {
        nq_result r = engine_check_count(n, engine, threads);
        cr_expect_eq(r.engine, engine);
        cr_expect_eq(r.has_unique, 1);
        cr_expect_eq(r.total.lo, oeis_value("A000170", n), "total n=%d threads=%d", n, threads);
        cr_expect_eq(r.unique.lo, oeis_value("A002562", n), "unique n=%d threads=%d", n, threads);
    }
}

#endif
