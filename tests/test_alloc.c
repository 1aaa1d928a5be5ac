/* An allocation that fails anywhere in a count comes back as NQ_ENOMEM, never as a stop
 * or a wrong total. This executable links the library's units with -Wl,--wrap for
 * malloc, calloc, realloc and aligned_alloc (tests/meson.build), so that the library's
 * calls come here: a count is run once for each k, with the k-th call made during it
 * failing, until a count makes fewer than k calls. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>

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

/* Every k until a count runs whole: the k-th allocation fails, and the count says
 * NQ_ENOMEM. Returns how many counts failed so. */
static int fail_each_allocation(int engine, int n, int threads)
{
    nq_settings s;
    int k;

    nq_default_settings(&s);
    s.n = n;
    s.engine = engine;
    s.n_threads = threads;
    s.pin_threads = 0;
    for (k = 0; k < 100000; k++) {
        nq_solver *sv = NULL;
        nq_result r;
        int rc;

        cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
        atomic_store(&failed, 0);
        atomic_store(&calls_left, k);
        atomic_store(&armed, 1);
        rc = nq_count(sv, NULL, &r);
        atomic_store(&armed, 0);
        nq_destroy_solver(&sv);
        if (!atomic_load(&failed)) {
            cr_expect_eq(rc, NQ_OK, "%s: %s", nq_engine_name(engine), nq_strerror(rc));
            cr_expect_eq(r.total.lo, oeis_value("A000170", n), "%s", nq_engine_name(engine));
            return k;
        }
        cr_expect_eq(rc, NQ_ENOMEM, "%s n=%d threads=%d: allocation %d failed, the count said '%s'",
                     nq_engine_name(engine), n, threads, k, nq_strerror(rc));
    }
    cr_assert_fail("%s: a count that allocates without end", nq_engine_name(engine));
    return k;
}

Test(unit, a_failed_allocation_fails_the_count_with_enomem)
{
    nq_engine_info info;

    for (int e = 0; nq_engine_describe(e, &info) == NQ_OK; e++) {
        if (!info.built || info.takes_devices)
            continue; /* the GPU's own runtime needs a device */
        /* one worker: every allocation in turn; two: one worker's may fail as the
         * other runs */
        for (int threads = 1; threads <= 2; threads++) {
            int n = 11 > info.max_n ? info.max_n : 11;
            cr_expect_gt(fail_each_allocation(e, n, threads), 0, "%s allocates nothing?",
                         info.name);
        }
    }
}
