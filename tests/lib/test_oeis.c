/* Every built CPU engine against data/oeis: the totals (A000170) and, for an engine
 * that counts them, the symmetry classes (A002562) of each n of its range up to 15 (16
 * and 17 in the slow suite), on several thread counts, on each vector path this CPU runs
 * and, for an engine that takes them, at two prefix depths. The engines come from the
 * public table (nq_engine_describe), so that a new one is checked without a line here;
 * the GPU engine's counts need a device (gpu/cuda_device_check.c; gpu/test_gpu_host.c
 * checks its host side on the CPU). */
#include <criterion/criterion.h>

#include "engine_check.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"

/* One count of board n by engine e at prefix depth rows (0: the engine's choice) on
 * threads workers (0: every CPU) and vector path simd, checked against OEIS. */
static void check_count(const nq_engine_info *e, int n, int threads, int rows, int simd)
{
    nq_settings s = engine_check_settings(n, e->engine, threads);
    nq_solver *sv;
    nq_result r;

    s.prefix_rows = rows > n ? n : rows;
    s.simd = simd;
    sv = engine_check_create(&s);
    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK, "%s n=%d threads=%d rows=%d simd=%s", e->name, n,
                 threads, rows, nq_simd_name(simd));
    nq_destroy_solver(&sv);
    cr_assert_null(sv);
    cr_expect_eq(r.engine, e->engine, "%s n=%d", e->name, n);
    cr_expect(threads == 0 || r.n_threads == threads, "%s n=%d: %d workers, asked for %d", e->name,
              n, r.n_threads, threads);
    cr_expect(simd == NQ_SIMD_AUTO || r.simd == simd, "%s n=%d: asked for %s, ran %s", e->name, n,
              nq_simd_name(simd), nq_simd_name(r.simd));
    cr_expect(r.total.hi == 0 && r.total.lo == oeis_value("A000170", n),
              "%s total n=%d threads=%d rows=%d simd=%s", e->name, n, threads, rows,
              nq_simd_name(simd));
    cr_expect_eq(r.has_unique, e->has_unique, "%s n=%d", e->name, n);
    if (e->has_unique)
        cr_expect(r.unique.hi == 0 && r.unique.lo == oeis_value("A002562", n),
                  "%s unique n=%d threads=%d rows=%d simd=%s", e->name, n, threads, rows,
                  nq_simd_name(simd));
}

/* n = from..to within e's range, on every vector path and prefix depth e has. */
static void check_engine(const nq_engine_info *e, int from, int to, int threads)
{
    static const int depths[] = {2, 3};
    const int n_depths = e->takes_prefix_rows ? 2 : 1;
    int simd = e->has_simd ? engine_check_next_simd(NQ_SIMD_AUTO) : NQ_SIMD_AUTO;

    if (from < e->min_n)
        from = e->min_n;
    if (to > e->max_n)
        to = e->max_n;
    do {
        for (int d = 0; d < n_depths; d++)
            for (int n = from; n <= to; n++)
                check_count(e, n, threads, e->takes_prefix_rows ? depths[d] : 0, simd);
    } while (e->has_simd && (simd = engine_check_next_simd(simd)) != NQ_SIMD_AUTO);
}

/* Every engine of the table that this build has and this machine can count on. */
static void check_every_engine(int from, int to, int threads)
{
    nq_engine_info e;
    int checked = 0;

    for (int id = 0; nq_engine_describe(id, &e) == NQ_OK; id++) {
        if (!e.built || e.takes_devices)
            continue;
        check_engine(&e, from, to, threads);
        checked++;
    }
    cr_assert_geq(checked, 3, "prefix, d4 and join are in every build: %d engines", checked);
}

Test(unit, every_engine_1_to_15_one_thread)
{
    check_every_engine(1, 15, 1);
}

Test(unit, every_engine_1_to_15_two_threads)
{
    check_every_engine(1, 15, 2);
}

Test(unit, every_engine_1_to_15_three_threads)
{
    check_every_engine(1, 15, 3);
}

Test(unit, every_engine_1_to_15_seven_threads)
{
    check_every_engine(1, 15, 7);
}

Test(slow, every_engine_16_17_every_cpu)
{
    check_every_engine(16, 17, 0);
}
