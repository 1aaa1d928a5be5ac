/* core/split.c: a loop split over threads takes every step once, in ranges of at least
 * the grain, on at most the threads asked (SPLIT_MAX_THREADS), and reports a failed
 * range however many others succeed. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/clock.h"
#include "core/split.h"

typedef struct seen {
    atomic_uchar *step;
    atomic_int parts_seen[SPLIT_MAX_THREADS];
    uint64_t grain;
    int parts, fail_part; /* fail_part -1: none fails */
} seen;

static int mark(void *user, int part, uint64_t lo, uint64_t hi)
{
    seen *s = user;
    cr_assert(part >= 0 && part < SPLIT_MAX_THREADS);
    cr_assert_lt(lo, hi, "an empty range");
    cr_assert(s->parts == 1 || hi - lo >= s->grain, "a range under the grain");
    atomic_fetch_add(&s->parts_seen[part], 1);
    for (uint64_t i = lo; i < hi; i++)
        atomic_fetch_add(&s->step[i], 1);
    return part == s->fail_part;
}

static void check(int threads, uint64_t n, uint64_t grain, int fail_part)
{
    int parts = split_parts(threads, n, grain), rc;
    seen s = {calloc(n ? n : 1, 1), {0}, grain, parts, fail_part};

    cr_assert(s.step);
    cr_assert(parts >= 1 && parts <= SPLIT_MAX_THREADS && parts <= (threads > 1 ? threads : 1));
    rc = split_run(threads, n, grain, mark, &s);
    for (uint64_t i = 0; i < n; i++)
        cr_assert_eq(s.step[i], 1, "threads %d n %llu: step %llu taken %d times", threads,
                     (unsigned long long)n, (unsigned long long)i, s.step[i]);
    for (int p = 0; p < SPLIT_MAX_THREADS; p++)
        cr_assert_eq(s.parts_seen[p], p < parts && n ? 1 : 0, "part %d", p);
    cr_assert_eq(rc != 0, fail_part >= 0 && fail_part < parts && n > 0, "threads %d: rc %d",
                 threads, rc);
    free(s.step);
}

Test(unit, split_takes_every_step_once)
{
    static const int threads[] = {1, 2, 3, 7, 64, 65, 4096};
    static const uint64_t ns[] = {1, 2, 63, 64, 1000, 100003};

    for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++)
        for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
            check(threads[t], ns[k], 1, -1);
            check(threads[t], ns[k], 1000, -1);
        }
}

Test(unit, split_reports_a_failed_range)
{
    check(8, 100000, 1, 0);
    check(8, 100000, 1, 5);
    check(8, 100000, 1, 7);
    check(1, 100000, 1, 0);
}

Test(unit, split_parts_follow_threads_and_grain)
{
    cr_expect_eq(split_parts(8, 100, 1), 8);
    cr_expect_eq(split_parts(8, 100, 50), 2);
    cr_expect_eq(split_parts(8, 100, 1000), 1);
    cr_expect_eq(split_parts(1000, 1u << 20, 1), SPLIT_MAX_THREADS);
    cr_expect_eq(split_parts(0, 100, 1), 1);
}

/* A shared split's ranges: grain steps each but the last, within split_parts' parts;
 * range lo fails where fail_lo (else none). */
typedef struct shared_seen {
    atomic_uchar *step;
    uint64_t grain, n, fail_lo;
    int parts;
} shared_seen;

static int mark_shared(void *user, int part, uint64_t lo, uint64_t hi)
{
    shared_seen *s = user;
    cr_assert(part >= 0 && part < s->parts, "part %d of %d", part, s->parts);
    cr_assert(lo < hi && lo % s->grain == 0, "range %llu..%llu", (unsigned long long)lo,
              (unsigned long long)hi);
    cr_assert_eq(hi, lo + s->grain < s->n ? lo + s->grain : s->n);
    for (uint64_t i = lo; i < hi; i++)
        atomic_fetch_add(&s->step[i], 1);
    return lo == s->fail_lo;
}

static void check_shared(int threads, uint64_t n, uint64_t grain, uint64_t fail_lo)
{
    shared_seen s = {calloc(n ? n : 1, 1), grain, n, fail_lo, split_parts(threads, n, grain)};
    int rc;

    cr_assert(s.step);
    rc = split_run_shared(threads, n, grain, mark_shared, &s);
    for (uint64_t i = 0; i < n; i++)
        cr_assert_eq(s.step[i], 1, "threads %d n %llu grain %llu: step %llu taken %d times",
                     threads, (unsigned long long)n, (unsigned long long)grain,
                     (unsigned long long)i, s.step[i]);
    cr_assert_eq(rc != 0, fail_lo < n, "threads %d n %llu: rc %d", threads, (unsigned long long)n,
                 rc);
    free(s.step);
}

/* split_run_shared: every step once, a grain at a time, a failed range reported while
 * the others still run. */
Test(unit, shared_split_takes_every_step_once)
{
    static const int threads[] = {1, 2, 3, 7, 64, 65};
    static const uint64_t ns[] = {0, 1, 2, 63, 64, 1000, 100003};

    for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++)
        for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
            check_shared(threads[t], ns[k], 1, UINT64_MAX);
            check_shared(threads[t], ns[k], 16, UINT64_MAX);
        }
    check_shared(8, 100000, 10, 0);
    check_shared(8, 100000, 10, 99990);
    check_shared(2, 100000, 1000, 50000);
}

/* Each range spins until its thread has spent 20 ms of CPU. */
static int spin(void *user, int part, uint64_t lo, uint64_t hi)
{
    double t0 = clock_thread_cpu();

    (void)user, (void)part, (void)lo, (void)hi;
    while (clock_thread_cpu() - t0 < 0.02)
        ;
    return 0;
}

/* The threads a split starts add their CPU time to the sink its caller set, and the
 * caller's own range does not (it is on the caller's clock); with no sink set, a split
 * adds nothing to the last one. CPU time, not wall: a thread waiting for a core spends
 * none. */
Test(unit, split_cpu_sink_takes_the_started_threads_time)
{
    _Atomic uint64_t sink = 0;

    split_cpu_sink(&sink);
    cr_assert_eq(split_run(3, 3, 1, spin, NULL), 0);
    split_cpu_sink(NULL);
    cr_assert_geq(atomic_load(&sink), 2 * 20000000u, "%llu ns from two started threads",
                  (unsigned long long)atomic_load(&sink));
    cr_assert_lt(atomic_load(&sink), 2 * 20000000u + 15000000u, "%llu ns: the caller's too?",
                 (unsigned long long)atomic_load(&sink));
    uint64_t before = atomic_load(&sink);
    cr_assert_eq(split_run(3, 3, 1, spin, NULL), 0);
    cr_assert_eq(atomic_load(&sink), before, "a split without a sink added to it");
}
