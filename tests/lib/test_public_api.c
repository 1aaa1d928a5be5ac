/* The public API end to end (every engine's totals against OEIS: test_oeis.c): every
 * prefix depth, the settings checks at the API edge, one run at a time and a cancel, and
 * the vector paths' names, checks and reporting. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "engine_check.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"

static uint64_t count_with(int n, int threads, int rows)
{
    nq_settings s = engine_check_settings(n, NQ_ENGINE_PREFIX, threads);
    nq_solver *sv;
    nq_result r;

    s.prefix_rows = rows > n ? n : rows;
    sv = engine_check_create(&s);
    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK, "n=%d threads=%d rows=%d", n, threads, rows);
    nq_destroy_solver(&sv);
    cr_assert_null(sv);
    cr_assert_eq(r.total.hi, 0);
    cr_assert_eq(r.n_threads, threads);
    return r.total.lo;
}

Test(unit, every_prefix_depth_n10)
{
    for (int rows = 1; rows <= 10; rows++)
        cr_expect_eq(count_with(10, 3, rows), oeis_value("A000170", 10), "rows=%d", rows);
}

Test(unit, auto_settings_and_pinning)
{
    nq_settings s;
    nq_solver *sv;
    nq_result r;

    nq_default_settings(&s);
    s.n = 12;
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", 12));
    cr_expect_eq(r.n_threads, nq_available_cpus());
    cr_expect_eq(r.n_threads, nq_resolve_threads(0));
    cr_expect_geq(r.prefix_rows, 2);
    cr_expect_leq(r.n_pinned, r.n_threads);
    /* the same solver counts again, from a clean state */
    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", 12));
    nq_destroy_solver(&sv);
}

/* Where hwloc knows the cores, a count on as many workers as this process has CPUs pins
 * every one, the join's (whose pinning is planned on a thread of its own beside its
 * tables, runtime/pool.c) as d4's; without hwloc none is pinned. */
Test(unit, every_worker_pinned_where_hwloc_is)
{
    static const int engines[] = {NQ_ENGINE_JOIN, NQ_ENGINE_D4};
    nq_topology t;

    cr_assert_eq(nq_topology_info(&t), NQ_OK);
    for (int i = 0; i < 2; i++) {
        nq_settings s;
        nq_solver *sv;
        nq_result r;
        nq_default_settings(&s);
        s.n = 12;
        s.engine = engines[i];
        cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
        cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK);
        nq_destroy_solver(&sv);
        cr_expect_eq(r.total.lo, oeis_value("A000170", 12));
        cr_expect_eq(r.n_pinned, t.physical_cores > 0 ? r.n_threads : 0, "%s: %d of %d pinned",
                     nq_engine_name(engines[i]), r.n_pinned, r.n_threads);
    }
}

/* 0 is every CPU, anything else is itself, and past the limit is no thread count. */
Test(unit, resolve_threads)
{
    cr_expect_eq(nq_resolve_threads(0), nq_available_cpus());
    cr_expect_eq(nq_resolve_threads(1), 1);
    cr_expect_eq(nq_resolve_threads(NQ_MAX_THREADS), NQ_MAX_THREADS);
    cr_expect_eq(nq_resolve_threads(NQ_MAX_THREADS + 1), NQ_EINVAL);
    cr_expect_eq(nq_resolve_threads(-1), NQ_EINVAL);
}

Test(unit, bad_settings_are_rejected)
{
    nq_settings s;
    nq_solver *sv = (nq_solver *)1;
    int bad_n[] = {0, -1, 33, 1000};

    for (size_t i = 0; i < sizeof(bad_n) / sizeof(bad_n[0]); i++) {
        nq_default_settings(&s);
        s.n = bad_n[i];
        cr_expect_eq(nq_create_solver(&sv, &s), NQ_EINVAL, "n=%d", bad_n[i]);
        cr_expect_null(sv);
    }
    nq_default_settings(&s);
    s.n_threads = -1;
    cr_expect_eq(nq_create_solver(&sv, &s), NQ_EINVAL);
    s.n_threads = NQ_MAX_THREADS + 1;
    cr_expect_eq(nq_create_solver(&sv, &s), NQ_EINVAL);
    nq_default_settings(&s);
    s.engine = 99;
    cr_expect_eq(nq_create_solver(&sv, &s), NQ_EINVAL);
    nq_default_settings(&s);
    s.prefix_rows = s.n + 1;
    cr_expect_eq(nq_create_solver(&sv, &s), NQ_EINVAL);
    cr_expect_eq(nq_create_solver(NULL, &s), NQ_EINVAL);
    cr_expect_eq(nq_count(NULL, NULL, NULL), NQ_EINVAL);
    cr_expect_str_eq(nq_strerror(NQ_EINVAL), "invalid argument");
    cr_expect_str_eq(nq_strerror(12345), "unknown status");
}

/* The calls that take settings and answer through pointers refuse a NULL one with
 * NQ_EINVAL, before anything reads the settings, and otherwise give the settings' own
 * status. */
Test(unit, settings_calls_refuse_null_pointers)
{
    nq_settings s, bad;
    uint64_t a, b, tasks;
    double costs[64];

    nq_default_settings(&s);
    s.engine = NQ_ENGINE_PREFIX;
    s.n = 6;
    bad = s;
    bad.n = 0;
    cr_assert_eq(nq_task_count(&s, &tasks), NQ_OK);
    cr_assert_leq(tasks, 64);
    cr_expect_eq(nq_resolve_settings(NULL), NQ_EINVAL);
    cr_expect_eq(nq_memory_estimate(NULL, &a, &b), NQ_EINVAL);
    cr_expect_eq(nq_memory_estimate(&s, NULL, &b), NQ_EINVAL);
    cr_expect_eq(nq_memory_estimate(&s, &a, NULL), NQ_EINVAL);
    cr_expect_eq(nq_memory_estimate(&bad, &a, &b), NQ_EINVAL);
    cr_expect_eq(nq_memory_estimate(&s, &a, &b), NQ_OK);
    cr_expect_eq(nq_task_count(NULL, &a), NQ_EINVAL);
    cr_expect_eq(nq_task_count(&s, NULL), NQ_EINVAL);
    cr_expect_eq(nq_task_count(&bad, &a), NQ_EINVAL);
    cr_expect_eq(nq_slice_range(NULL, &a, &b), NQ_EINVAL);
    cr_expect_eq(nq_slice_range(&s, NULL, &b), NQ_EINVAL);
    cr_expect_eq(nq_slice_range(&s, &a, NULL), NQ_EINVAL);
    cr_expect_eq(nq_slice_range(&bad, &a, &b), NQ_EINVAL);
    cr_expect_eq(nq_slice_range(&s, &a, &b), NQ_OK);
    cr_expect(a == 0 && b == tasks, "no slice: every task, [%llu, %llu)", (unsigned long long)a,
              (unsigned long long)b);
    cr_expect_eq(nq_task_costs(NULL, costs, tasks), NQ_EINVAL);
    cr_expect_eq(nq_task_costs(&s, NULL, tasks), NQ_EINVAL);
    cr_expect_eq(nq_task_costs(&bad, costs, tasks), NQ_EINVAL);
    cr_expect_eq(nq_task_costs(&s, costs, tasks), NQ_OK);
}

Test(unit, known_totals_and_formatting)
{
    nq_u128 v;
    char buf[40];

    for (int n = 1; n <= 27; n++) {
        cr_assert_eq(nq_known_total(n, &v), NQ_OK);
        cr_expect_eq(v.lo, oeis_value("A000170", n), "n=%d", n);
    }
    cr_expect_eq(nq_known_total(28, &v), NQ_EUNKNOWN);
    v.lo = 0;
    v.hi = 1; /* 2^64 */
    cr_expect_str_eq(nq_u128_to_string(v, buf, sizeof(buf)), "18446744073709551616");
    v.lo = ~0ull;
    v.hi = ~0ull; /* 2^128 - 1: the widest value must fit the documented 40 bytes */
    cr_expect_str_eq(nq_u128_to_string(v, buf, sizeof(buf)),
                     "340282366920938463463374607431768211455");
}

/* Hooks: task_done sees every task exactly once and the subtotals add up; reuse
 * replaces work without changing the total. */
typedef struct seen {
    uint64_t n_tasks;
    _Atomic uint64_t calls;
    _Atomic uint64_t subtotal_sum;
    uint64_t *subtotals;
    /* Found in the workers' threads and checked after the run: an assertion there would
     * not fail the test cleanly. */
    _Atomic uint64_t out_of_range, twice;
} seen;

static int on_done(void *user, uint64_t id, uint64_t sub)
{
    seen *s = user;
    if (id >= s->n_tasks) {
        s->out_of_range++;
        return 0;
    }
    if (s->subtotals[id])
        s->twice++;
    s->subtotals[id] = sub + 1; /* +1 so 0 means never seen */
    s->calls++;
    return 0;
}

static int reuse_even(void *user, uint64_t id, uint64_t *sub)
{
    seen *s = user;
    if (id % 2)
        return 0;
    *sub = s->subtotals[id] - 1;
    return 1;
}

static int fail_third(void *user, uint64_t id, uint64_t sub)
{
    (void)id;
    (void)sub;
    return ++((seen *)user)->calls >= 3;
}

Test(unit, hooks_cover_every_task)
{
    nq_settings st;
    nq_solver *sv;
    nq_result r;
    seen s = {0};
    nq_hooks h = {&s, NULL, on_done};

    nq_default_settings(&st);
    st.n = 11;
    st.n_threads = 3;
    st.prefix_rows = 3;
    st.pin_threads = 0;
    cr_assert_eq(nq_create_solver(&sv, &st), NQ_OK);
    s.n_tasks = 1000;
    s.subtotals = calloc(s.n_tasks, sizeof(uint64_t));
    cr_assert_eq(nq_count(sv, &h, &r), NQ_OK);
    cr_expect_eq(s.out_of_range, 0, "task ids past the task count");
    cr_expect_eq(s.twice, 0, "tasks reported twice");
    cr_expect_eq(r.total.lo, oeis_value("A000170", 11));
    cr_expect_eq(s.calls, r.tasks);
    for (uint64_t i = 0; i < r.tasks; i++)
        cr_expect_neq(s.subtotals[i], 0, "task %llu never reported", (unsigned long long)i);

    /* resume-style: even tasks reused from the first run, odd ones recomputed */
    h.reuse = reuse_even;
    h.task_done = NULL;
    cr_assert_eq(nq_count(sv, &h, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", 11));

    /* a hook that fails stops the run with NQ_ECALLBACK and an incomplete total */
    s.calls = 0;
    h.reuse = NULL;
    h.task_done = fail_third;
    cr_expect_eq(nq_count(sv, &h, &r), NQ_ECALLBACK);
    cr_expect_lt(r.total.lo, oeis_value("A000170", 11));
    free(s.subtotals);
    nq_destroy_solver(&sv);
}

/* A resumed count says what the reuse hook supplied, so that a rate can leave it out:
 * the even tasks' subtotals from a first run, times their weights, are reused_total. */
Test(unit, reused_tasks_are_reported_apart)
{
    nq_settings st;
    nq_task_set ts;
    nq_solver *sv;
    nq_result r;
    seen s = {0};
    nq_hooks h = {&s, NULL, on_done};
    uint64_t even_tasks = 0, even_total = 0;
    uint8_t *w;

    nq_default_settings(&st);
    st.n = 11;
    st.n_threads = 2;
    st.pin_threads = 0;
    cr_assert_eq(nq_task_set_describe(&st, &ts), NQ_OK);
    s.n_tasks = ts.tasks;
    s.subtotals = calloc(s.n_tasks, sizeof(uint64_t));
    w = malloc(ts.tasks);
    cr_assert(s.subtotals && w);
    cr_assert_eq(nq_task_set_weights(&ts, w), NQ_OK);
    cr_assert_eq(nq_create_solver(&sv, &st), NQ_OK);
    cr_assert_eq(nq_count(sv, &h, &r), NQ_OK);
    cr_expect_eq(r.tasks_reused, 0);
    cr_expect(r.reused_total.lo == 0 && r.reused_total.hi == 0);
    for (uint64_t i = 0; i < ts.tasks; i += 2) {
        even_tasks++;
        even_total += (s.subtotals[i] - 1) * w[i];
    }
    h.reuse = reuse_even;
    h.task_done = NULL;
    cr_assert_eq(nq_count(sv, &h, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", 11));
    cr_expect_eq(r.tasks_reused, even_tasks);
    cr_expect_eq(r.reused_total.lo, even_total);
    cr_expect_eq(r.reused_total.hi, 0);
    cr_expect_lt(even_total, r.total.lo, "the odd tasks were counted by this run");
    free(w);
    free(s.subtotals);
    nq_destroy_solver(&sv);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The setup (the pinning plan, starting and pinning the workers) is timed apart from the
 * count: both spans are inside the call and do not overlap, and a pool run has one. */
Test(unit, setup_is_timed_apart)
{
    nq_settings st;
    nq_solver *sv;
    nq_result r;

    for (int pin = 0; pin <= 1; pin++) {
        double t0, wall;
        nq_default_settings(&st);
        st.n = 10;
        st.n_threads = 2;
        st.pin_threads = pin;
        cr_assert_eq(nq_create_solver(&sv, &st), NQ_OK);
        t0 = now_seconds();
        cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK);
        wall = now_seconds() - t0;
        nq_destroy_solver(&sv);
        cr_expect_eq(r.total.lo, oeis_value("A000170", 10));
        cr_expect_gt(r.setup_seconds, 0, "pin=%d: starting the workers is setup", pin);
        cr_expect_gt(r.seconds, 0);
        cr_expect_leq(r.seconds + r.setup_seconds, wall, "pin=%d: %g + %g > %g", pin, r.seconds,
                      r.setup_seconds, wall);
        cr_expect(r.user_seconds >= 0 && r.system_seconds >= 0);
    }
}

Test(unit, short_buffer_gives_no_digits)
{
    nq_u128 v = {1234567, 0};
    char buf[8] = "xxxxxxx";

    cr_expect_null(nq_u128_to_string(v, buf, 7), "7 digits and a NUL need 8 bytes");
    cr_expect_str_eq(buf, "", "never the low digits alone");
    cr_expect_str_eq(nq_u128_to_string(v, buf, 8), "1234567");
    cr_expect_null(nq_u128_to_string(v, buf, 0));
}

/* ---- one run at a time, and a cancel for the run in progress only ----------------- */

/* Cancels from the first task it sees: the run stops early. */
static int cancel_on_first(void *user, uint64_t id, uint64_t sub)
{
    (void)id;
    (void)sub;
    nq_solver_cancel(user);
    return 0;
}

static int list_cancel_on_first(void *user, const uint8_t *cols, int n)
{
    (void)cols;
    (void)n;
    nq_solver_cancel(user);
    return 0;
}

Test(unit, cancel_applies_to_the_run_in_progress_only)
{
    nq_solver *sv = engine_check_solver(12, NQ_ENGINE_PREFIX, 2, NQ_SIMD_AUTO);
    nq_hooks stop = {NULL, NULL, cancel_on_first};
    nq_result r;

    /* before any run: it does nothing */
    nq_solver_cancel(sv);
    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK, "a cancel before the run must not stop it");
    cr_expect_eq(r.total.lo, oeis_value("A000170", 12));
    /* during a run: that run stops */
    stop.user = sv;
    cr_expect_eq(nq_count(sv, &stop, &r), NQ_ECANCELED);
    cr_expect_lt(r.total.lo, oeis_value("A000170", 12));
    /* and wears off: the next run counts normally, a listing too */
    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK, "the cancel of the last run stopped this one");
    cr_expect_eq(r.total.lo, oeis_value("A000170", 12));
    cr_expect_eq(nq_list(sv, list_cancel_on_first, sv, 0, &r), NQ_ECANCELED);
    nq_solver_cancel(sv); /* between runs */
    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", 12));
    nq_destroy_solver(&sv);
}

typedef struct busy_run {
    nq_solver *sv;
    atomic_int started;
    int status;
    nq_result r;
} busy_run;

/* Holds the first run inside itself until the main thread has tried a second one. */
static atomic_int second_tried;
static int hold_until_tried(void *user, uint64_t id, uint64_t *sub)
{
    busy_run *b = user;
    (void)id;
    (void)sub;
    atomic_store(&b->started, 1);
    while (!atomic_load(&second_tried))
        sched_yield();
    return 0;
}

static void *first_run(void *p)
{
    busy_run *b = p;
    nq_hooks h = {b, hold_until_tried, NULL};
    b->status = nq_count(b->sv, &h, &b->r);
    return NULL;
}

static int count_none(void *user, const uint8_t *cols, int n)
{
    (void)user;
    (void)cols;
    (void)n;
    return 0;
}

Test(unit, second_concurrent_run_is_busy)
{
    busy_run b = {.sv = engine_check_solver(11, NQ_ENGINE_D4, 2, NQ_SIMD_AUTO)};
    uint64_t ids[1] = {0};
    pthread_t t;
    nq_result r;

    atomic_init(&b.started, 0);
    atomic_store(&second_tried, 0);
    cr_assert_eq(pthread_create(&t, NULL, first_run, &b), 0);
    while (!atomic_load(&b.started))
        sched_yield();
    cr_expect_eq(nq_count(b.sv, NULL, &r), NQ_EBUSY);
    cr_expect_eq(r.total.lo, 0, "no partial total from a run that never started");
    cr_expect_eq(nq_list(b.sv, count_none, NULL, 0, &r), NQ_EBUSY);
    cr_expect_eq(nq_count_tasks(b.sv, ids, 1, NULL, &r), NQ_EBUSY);
    cr_expect_str_eq(nq_strerror(NQ_EBUSY), "the solver is busy with another run");
    atomic_store(&second_tried, 1);
    pthread_join(t, NULL);
    cr_expect_eq(b.status, NQ_OK, "the first run is not disturbed");
    cr_expect_eq(b.r.total.lo, oeis_value("A000170", 11));
    cr_assert_eq(nq_count(b.sv, NULL, &r), NQ_OK, "free again afterwards");
    cr_expect_eq(r.total.lo, oeis_value("A000170", 11));
    nq_destroy_solver(&b.sv);
}

typedef struct canceller {
    nq_solver *sv;
    atomic_int done;
} canceller;

/* Cancels every 50 ms until the count has returned: a cancel reaches only a run in
 * progress, so one sent before nq_count started would be lost. */
static void *cancel_soon(void *p)
{
    canceller *c = p;
    struct timespec nap = {0, 50 * 1000000L};
    while (!atomic_load(&c->done)) {
        nanosleep(&nap, NULL);
        nq_solver_cancel(c->sv);
    }
    return NULL;
}

/* A cancel reaches a task in the middle of its search: on one worker, counts whose
 * tasks each take hours end once canceled, with the task cut short not counted. Before
 * the searches looked at the stop flag, this test ran for hours (and timed out). */
Test(unit, cancel_ends_a_long_task)
{
    static const int engines[] = {NQ_ENGINE_PREFIX, NQ_ENGINE_D4};

    for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
        nq_settings s;
        nq_solver *sv = NULL;
        nq_result r;
        pthread_t th;
        canceller c;

        nq_default_settings(&s);
        s.n = 30;
        s.engine = engines[i];
        s.n_threads = 1;
        s.prefix_rows = 2;
        s.pin_threads = 0;
        cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
        c.sv = sv;
        atomic_init(&c.done, 0);
        cr_assert_eq(pthread_create(&th, NULL, cancel_soon, &c), 0);
        cr_expect_eq(nq_count(sv, NULL, &r), NQ_ECANCELED, "%s", nq_engine_name(s.engine));
        atomic_store(&c.done, 1);
        pthread_join(th, NULL);
        /* no task of n = 30 finishes in 50 ms: anything counted came from a cut one */
        cr_expect(r.total.lo == 0 && r.total.hi == 0, "%s: a partial task was counted",
                  nq_engine_name(s.engine));
        nq_destroy_solver(&sv);
    }
}

/* ---- vector paths ----------------------------------------------------------------------- */

Test(unit, simd_names_round_trip)
{
    static const char *const unknown[] = {"", "AVX2", "avx", "avx512f", "sse2", "neon", "unknown"};

    for (int p = NQ_SIMD_AUTO; p <= NQ_SIMD_AVX512; p++)
        cr_expect_eq(nq_simd_from_name(nq_simd_name(p)), p, "%d is called %s", p, nq_simd_name(p));
    cr_expect_str_eq(nq_simd_name(NQ_SIMD_AUTO), "auto");
    cr_expect_str_eq(nq_simd_name(NQ_SIMD_SCALAR), "scalar");
    cr_expect_str_eq(nq_simd_name(NQ_SIMD_AVX2), "avx2");
    cr_expect_str_eq(nq_simd_name(NQ_SIMD_AVX512), "avx512");
    cr_expect_str_eq(nq_simd_name(-1), "unknown");
    cr_expect_str_eq(nq_simd_name(NQ_SIMD_AVX512 + 1), "unknown");
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
        cr_expect_eq(nq_simd_from_name(unknown[i]), NQ_EINVAL, "'%s'", unknown[i]);
    cr_expect_eq(nq_simd_from_name(NULL), NQ_EINVAL);
}

/* auto and scalar are there on every CPU; a usable path is a built one; auto takes the
 * widest usable one. */
Test(unit, simd_built_usable_and_auto)
{
    int a = nq_simd_auto();

    cr_expect_eq(nq_simd_usable(NQ_SIMD_AUTO), 1);
    cr_expect_eq(nq_simd_built(NQ_SIMD_AUTO), 1);
    cr_expect_eq(nq_simd_usable(NQ_SIMD_SCALAR), 1);
    cr_expect_eq(nq_simd_built(NQ_SIMD_SCALAR), 1);
    for (int p = NQ_SIMD_AUTO; p <= NQ_SIMD_AVX512; p++)
        cr_expect(!nq_simd_usable(p) || nq_simd_built(p), "%s usable but not built",
                  nq_simd_name(p));
    cr_expect_eq(nq_simd_usable(-1), 0);
    cr_expect_eq(nq_simd_built(NQ_SIMD_AVX512 + 1), 0);
    cr_expect_eq(nq_simd_usable(NQ_SIMD_AVX512 + 1), 0);
    cr_expect(a >= NQ_SIMD_SCALAR && a <= NQ_SIMD_AVX512, "auto picks a path: %d", a);
    cr_expect_eq(nq_simd_usable(a), 1, "auto picks %s, which this CPU lacks", nq_simd_name(a));
    for (int p = a + 1; p <= NQ_SIMD_AVX512; p++)
        cr_expect_eq(nq_simd_usable(p), 0, "auto picks %s, but %s is wider and usable",
                     nq_simd_name(a), nq_simd_name(p));
}

static int create_with_simd(int engine, int simd, nq_solver **sv)
{
    nq_settings s = engine_check_settings(10, engine, 1);

    s.simd = simd;
    return nq_create_solver(sv, &s);
}

/* A value past the enum is invalid; a path the CPU lacks is refused, never run. */
Test(unit, simd_settings_checked)
{
    static const int bad[] = {-1, NQ_SIMD_AVX512 + 1, 100};
    nq_settings s;
    nq_solver *sv = (nq_solver *)1;
    int lacking = 0;

    nq_default_settings(&s);
    cr_expect_eq(s.simd, NQ_SIMD_AUTO, "the default is auto");
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cr_expect_eq(create_with_simd(NQ_ENGINE_JOIN, bad[i], &sv), NQ_EINVAL, "simd=%d", bad[i]);
        cr_expect_null(sv);
        s.n = 10;
        s.simd = bad[i];
        cr_expect_eq(nq_resolve_settings(&s), NQ_EINVAL, "simd=%d", bad[i]);
    }
    for (int p = NQ_SIMD_SCALAR; p <= NQ_SIMD_AVX512; p++) {
        if (nq_simd_usable(p))
            continue;
        sv = (nq_solver *)1;
        cr_expect_eq(create_with_simd(NQ_ENGINE_JOIN, p, &sv), NQ_EUNSUPPORTED, "%s",
                     nq_simd_name(p));
        cr_expect_null(sv);
        lacking++;
    }
    if (!lacking)
        cr_log_info("this CPU runs every vector path: no refusal to check");
}

/* nq_result.simd is the path the join engine ran: the one named, or auto's pick; 0 for
 * an engine without vector paths, whatever the setting. */
Test(unit, simd_result_says_the_path_that_ran)
{
    for (int p = NQ_SIMD_AUTO; p <= NQ_SIMD_AVX512; p++) {
        nq_solver *sv = NULL;
        nq_result r;

        if (!nq_simd_usable(p))
            continue;
        cr_assert_eq(create_with_simd(NQ_ENGINE_JOIN, p, &sv), NQ_OK, "%s", nq_simd_name(p));
        cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK);
        nq_destroy_solver(&sv);
        cr_expect_eq(r.total.lo, oeis_value("A000170", 10), "%s", nq_simd_name(p));
        cr_expect_eq(r.simd, p ? p : nq_simd_auto(), "asked for %s, ran %s", nq_simd_name(p),
                     nq_simd_name(r.simd));
        cr_assert_eq(create_with_simd(NQ_ENGINE_D4, p, &sv), NQ_OK, "d4, %s", nq_simd_name(p));
        cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK);
        nq_destroy_solver(&sv);
        cr_expect_eq(r.simd, NQ_SIMD_AUTO, "d4 with %s reports %s", nq_simd_name(p),
                     nq_simd_name(r.simd));
    }
}
