/* Test helper: the tests' one solver factory and one count through the public API, each
 * on one vector path, so that an engine with several is checked on every one this CPU
 * runs (engine_check_next_simd); the settings they start from are engine_check_settings.h's. */
#ifndef NQ_TEST_ENGINE_CHECK_H
#define NQ_TEST_ENGINE_CHECK_H

#include <criterion/criterion.h>

#include "engine_check_settings.h"
#include "nqueens/nqueens.h"

/* The next vector path after simd that this CPU runs, narrowest first, or NQ_SIMD_AUTO
 * past the last: for (int p = engine_check_next_simd(0); p; p = engine_check_next_simd(p)). */
static inline int engine_check_next_simd(int simd)
{
    for (int p = simd + 1; p <= NQ_SIMD_AVX512; p++)
        if (nq_simd_usable(p))
            return p;
    return NQ_SIMD_AUTO;
}

/* The one solver factory of the tests: a solver for s, checked to have been made. */
static inline nq_solver *engine_check_create(const nq_settings *s)
{
    nq_solver *sv = NULL;

    cr_assert_eq(nq_create_solver(&sv, s), NQ_OK, "n=%d engine=%s threads=%d rows=%d simd=%s", s->n,
                 nq_engine_name(s->engine), s->n_threads, s->prefix_rows, nq_simd_name(s->simd));
    return sv;
}

/* A solver for board n with engine on threads workers, unpinned, on the vector path
 * simd (enum nq_simd; NQ_SIMD_AUTO for an engine without vector paths). */
static inline nq_solver *engine_check_solver(int n, int engine, int threads, int simd)
{
    nq_settings s = engine_check_settings(n, engine, threads);

    s.simd = simd;
    return engine_check_create(&s);
}

/* One count of board n with engine on threads workers, checked to have succeeded and,
 * for a path named, to have run it: a test of the scalar path that ran another would
 * pass without testing anything. */
static inline nq_result engine_check_count(int n, int engine, int threads, int simd)
{
    nq_solver *sv = engine_check_solver(n, engine, threads, simd);
    nq_result r;

    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK, "n=%d engine=%d threads=%d simd=%s", n, engine,
                 threads, nq_simd_name(simd));
    nq_destroy_solver(&sv);
    cr_assert_eq(r.total.hi, 0);
    cr_assert_eq(r.unique.hi, 0);
    if (simd != NQ_SIMD_AUTO)
        cr_assert_eq(r.simd, simd, "n=%d: asked for %s, ran %s", n, nq_simd_name(simd),
                     nq_simd_name(r.simd));
    return r;
}

#endif
