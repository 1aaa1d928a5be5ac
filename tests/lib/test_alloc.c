/* An allocation that fails anywhere in a count comes back as NQ_ENOMEM, never as a stop
 * or a wrong total. This executable links the library's units with -Wl,--wrap for
 * malloc, calloc, realloc and aligned_alloc (tests/meson.build), so that the library's
 * calls come here: a count (or an estimate) is run once for each k, with the k-th call
 * made during it failing, until one makes fewer than k calls. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "engine_check_settings.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);

/* Calls left before the one that fails; armed only around a count. */
static atomic_long calls_left;
static atomic_int armed, failed;

static int fail_now(void)
{
    if (!atomic_load(&armed) || atomic_fetch_sub(&calls_left, 1) != 0)
        return 0;
    atomic_store(&failed, 1);
    return 1;
}

void *__wrap_malloc(size_t size)
{
    return fail_now() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return fail_now() ? NULL : __real_realloc(p, size);
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
    return fail_now() ? NULL : __real_aligned_alloc(align, size);
}

/* One count of s with the k-th allocation failing (none if there are fewer): its
 * status, whether an allocation failed, and whether the count has the right total. */
static int count_failing(const nq_settings *s, long k, int *failed_one, int *whole)
{
    nq_solver *sv = NULL;
    nq_result r;
    int rc;

    cr_assert_eq(nq_create_solver(&sv, s), NQ_OK);
    atomic_store(&failed, 0);
    atomic_store(&calls_left, k);
    atomic_store(&armed, 1);
    rc = nq_count(sv, NULL, &r);
    atomic_store(&armed, 0);
    nq_destroy_solver(&sv);
    *failed_one = atomic_load(&failed);
    *whole = r.total.lo == oeis_value("A000170", s->n) && r.total.hi == 0;
    return rc;
}

/* The same for an estimate of a few tasks: whole when it sampled them all. */
static int estimate_failing(const nq_settings *s, long k, int *failed_one, int *whole)
{
    nq_estimate_options o;
    nq_estimate_result r;
    nq_solver *sv = NULL;
    int rc;

    nq_default_estimate_options(&o);
    o.seconds = 60;
    o.max_tasks = 8;
    cr_assert_eq(nq_create_solver(&sv, s), NQ_OK);
    atomic_store(&failed, 0);
    atomic_store(&calls_left, k);
    atomic_store(&armed, 1);
    rc = nq_estimate(sv, &o, &r);
    atomic_store(&armed, 0);
    nq_destroy_solver(&sv);
    *failed_one = atomic_load(&failed);
    *whole = r.sampled == 8;
    return rc;
}

typedef int (*run_fn)(const nq_settings *s, long k, int *failed_one, int *whole);

/* Every k until a run completes: the k-th allocation fails, and the run says
 * NQ_ENOMEM. Returns how many runs failed so. */
static int fail_each_allocation(run_fn run, int engine, int n, int threads)
{
    nq_settings s = engine_check_settings(n, engine, threads);
    int k;

    for (k = 0; k < 100000; k++) {
        int failed_one, whole, rc = run(&s, k, &failed_one, &whole);

        if (!failed_one) {
            cr_expect_eq(rc, NQ_OK, "%s: %s", nq_engine_name(engine), nq_strerror(rc));
            cr_expect(whole, "%s: the run without a failure is whole", nq_engine_name(engine));
            return k;
        }
        cr_expect_eq(rc, NQ_ENOMEM, "%s n=%d threads=%d: allocation %d failed, the run said '%s'",
                     nq_engine_name(engine), n, threads, k, nq_strerror(rc));
    }
    cr_assert_fail("%s: a run that allocates without end", nq_engine_name(engine));
    return k;
}

/* Each built CPU engine, on one worker (every allocation in turn) and two (one worker's
 * may fail as the other runs). */
static void each_engine(run_fn run, int max_threads)
{
    nq_engine_info info;

    for (int e = 0; nq_engine_describe(e, &info) == NQ_OK; e++) {
        if (!info.built || info.takes_devices)
            continue; /* the GPU's own runtime needs a device */
        for (int threads = 1; threads <= max_threads; threads++) {
            int n = 11 > info.max_n ? info.max_n : 11;
            cr_expect_gt(fail_each_allocation(run, e, n, threads), 0, "%s allocates nothing?",
                         info.name);
        }
    }
}

Test(unit, a_failed_allocation_fails_the_count_with_enomem)
{
    each_engine(count_failing, 2);
}

Test(unit, a_failed_allocation_fails_the_estimate_with_enomem)
{
    each_engine(estimate_failing, 1); /* the estimate samples in the calling thread */
}
