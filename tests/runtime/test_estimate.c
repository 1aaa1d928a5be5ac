/* nqueens estimate: the statistics on populations whose total is known (runtime/sample.c),
 * the library call's checks and exact sample, and the command's errors, seed, JSON and
 * sample file. No assertion on a time. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "core/price.h"
#include "engine_check.h"
#include "engine_table.h"
#include "nqueens/nqueens.h"
#include "runtime/estimate.h"
#include "runtime/sample.h"

/* ---- the statistics ------------------------------------------------------------------ */

Test(unit, estimate_stratify_flat_keeps_id_order)
{
    double cost[100];
    uint64_t idx[100], start[11];
    for (int i = 0; i < 100; i++)
        cost[i] = 1;
    cr_assert_eq(sample_stratify(cost, 100, 10, idx, start), 10);
    for (int i = 0; i < 100; i++)
        cr_assert_eq(idx[i], (uint64_t)i, "a flat model keeps the id order");
    for (int h = 0; h <= 10; h++)
        cr_assert_eq(start[h], (uint64_t)(10 * h), "equal runs of ids");
}

typedef struct ranked {
    double cost;
    uint64_t index;
} ranked;

static int by_cost_then_index(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The order is by cost, ties by index, as a comparison sort puts it: costs over many
 * magnitudes (each of the sort's digits differs somewhere), ties, zeros, and negative and
 * NaN costs, which count as none. */
Test(unit, estimate_stratify_orders_by_cost_then_index)
{
    enum { N = 5000, H = 16 };
    static double cost[N];
    static uint64_t idx[N], start[H + 1];
    static ranked want[N];
    uint64_t state = 11;

    for (int i = 0; i < N; i++) {
        uint64_t r = sample_rand(&state);
        double c = (double)(r % 1000) * pow(2.0, (double)(r >> 20 & 63) - 40);
        cost[i] = r % 13 == 0 ? 5.0 : r % 17 == 0 ? -2.0 : r % 19 == 0 ? NAN : c;
        want[i] = (ranked){cost[i] > 0 ? cost[i] : 0.0, (uint64_t)i};
    }
    qsort(want, N, sizeof(*want), by_cost_then_index);
    cr_assert_gt(sample_stratify(cost, N, H, idx, start), 1);
    for (int i = 0; i < N; i++)
        cr_assert_eq(idx[i], want[i].index, "item %d of the order", i);
}

/* Costs order as floats: costs a float cannot tell apart are ties, in index order (the
 * sort takes eight bytes an item), while costs a float tells apart keep their order;
 * 2^32 items or more are refused before any is read. */
Test(unit, estimate_stratify_orders_by_float_cost)
{
    enum { N = 6 };
    /* 1 + 2^-30 and 1 + 2^-40 round to 1 as floats; 1 + 2^-20 does not */
    double cost[N] = {3, 1 + 0x1p-30, 1, 1 + 0x1p-20, 1 + 0x1p-40, 2};
    uint64_t idx[N], start[N + 1], want[N] = {1, 2, 4, 3, 5, 0};

    cr_assert_eq(sample_stratify(cost, N, 1, idx, start), 1);
    for (int i = 0; i < N; i++)
        cr_assert_eq(idx[i], want[i], "item %d of the order: %llu", i, (unsigned long long)idx[i]);
    cr_assert_eq(sample_stratify(cost, (uint64_t)1 << 32, 1, idx, start), -1);
}

Test(unit, estimate_stratify_equal_cost)
{
    enum { N = 1000, H = 8 };
    double cost[N], total = 0;
    uint64_t idx[N], start[H + 1];
    int strata;

    for (int i = 0; i < N; i++)
        total += cost[i] = (double)((i * 7919) % 97 + 1);
    strata = sample_stratify(cost, N, H, idx, start);
    cr_assert_eq(strata, H);
    for (int h = 0; h < strata; h++) {
        double sum = 0;
        for (uint64_t k = start[h]; k < start[h + 1]; k++) {
            sum += cost[idx[k]];
            if (k > start[0])
                cr_assert_leq(cost[idx[k - 1]], cost[idx[k]], "ordered by predicted cost");
        }
        cr_assert_lt(fabs(sum - total / H), 100, "stratum %d holds %f of %f", h, sum, total / H);
    }
}

Test(unit, estimate_shuffle_is_seeded_and_stays_in_strata)
{
    uint64_t a[50], b[50], c[50], start[] = {0, 20, 50};
    int differ = 0;
    for (int i = 0; i < 50; i++)
        a[i] = b[i] = c[i] = (uint64_t)i;
    sample_shuffle(a, start, 2, 7);
    sample_shuffle(b, start, 2, 7);
    sample_shuffle(c, start, 2, 8);
    for (int i = 0; i < 50; i++) {
        cr_assert_eq(a[i], b[i], "the same seed, the same order");
        differ += a[i] != c[i];
        cr_assert(i < 20 ? a[i] < 20 : a[i] >= 20, "items stay in their stratum");
    }
    cr_assert_gt(differ, 0, "another seed, another order");
}

static int collect_task(void *user, const task *t)
{
    cr_assert_eq(task_list_add(user, t), 0);
    return 0;
}

/* The pricing (core/price.c) on three threads, ranges of seven tasks taken in any order, is
 * each task's cost as the engine gives it, bit for bit, as on one thread; a stop seen
 * before it starts cancels it. */
Test(unit, estimate_pricing_is_the_same_on_any_threads)
{
    static const int engines[] = {NQ_ENGINE_PREFIX, NQ_ENGINE_D4, NQ_ENGINE_JOIN};
    atomic_int stop = 1;

    for (size_t k = 0; k < sizeof(engines) / sizeof(engines[0]); k++) {
        const engine_desc *e = engine_find(engines[k]);
        task_list tl = {0};
        nq_settings s;
        nq_default_settings(&s);
        s.n = 15;
        s.engine = engines[k];
        void *shared = e->shared_init ? e->shared_init(&s, NULL) : NULL;
        cr_assert(!e->shared_init || shared, "%s", e->name);
        cr_assert_eq(e->source(&s, collect_task, &tl), tl.n, "%s", e->name);
        double *one = malloc(tl.n * sizeof(*one)), *three = malloc(tl.n * sizeof(*three));
        uint64_t pick[40], m = tl.n / 2 < 40 ? tl.n / 2 : 40;
        cr_assert(one && three && m > 0);
        cr_assert_eq(engine_prices(e, shared, tl.at, NULL, tl.n, 1, 1 << 20, one, NULL), NQ_OK);
        cr_assert_eq(engine_prices(e, shared, tl.at, NULL, tl.n, 3, 7, three, NULL), NQ_OK);
        for (uint64_t i = 0; i < tl.n; i++)
            cr_expect(one[i] == engine_task_cost(e, shared, &tl.at[i]) && three[i] == one[i],
                      "%s task %llu: %g on three threads, %g on one", e->name,
                      (unsigned long long)i, three[i], one[i]);
        /* a sample of the tasks (the estimate's first phase): each its own cost */
        sample_subset(tl.n, m, 9, pick);
        cr_assert_eq(engine_prices(e, shared, tl.at, pick, m, 3, 7, three, NULL), NQ_OK);
        for (uint64_t i = 0; i < m; i++)
            cr_expect(three[i] == one[pick[i]], "%s pick %llu (task %llu)", e->name,
                      (unsigned long long)i, (unsigned long long)pick[i]);
        cr_expect_eq(engine_prices(e, shared, tl.at, NULL, tl.n, 3, 7, three, &stop), NQ_ECANCELED,
                     "%s", e->name);
        if (shared)
            e->shared_free(shared);
        free(one);
        free(three);
        task_list_free(&tl);
    }
}

Test(unit, estimate_census_is_exact)
{
    sample_stratum st[3] = {{0}};
    sample_estimate e;
    double truth = 0;
    for (int i = 0; i < 30; i++) {
        double x = 1 + i % 4, y = x * (1 + 0.1 * (i % 3));
        st[i / 10].size++;
        st[i / 10].cost += x;
        sample_add(&st[i / 10], x, y);
        truth += y;
    }
    sample_estimate_total(st, 3, &e);
    cr_assert_float_eq(e.total, truth, 1e-9);
    cr_assert_float_eq(e.variance, 0, 1e-12, "no sampling error in a census");
}

Test(unit, estimate_one_sample_has_no_interval)
{
    sample_stratum st = {10, 10, 0, 0, 0, 0, 0, 0, 0};
    sample_estimate e;
    sample_add(&st, 1, 2.5);
    sample_estimate_total(&st, 1, &e);
    cr_assert_float_eq(e.total, 25, 1e-9);
    cr_assert_eq(e.df, 0);
    cr_assert(isnan(e.variance));
}

Test(unit, estimate_t95)
{
    cr_assert_float_eq(sample_t95(1), 12.706, 1e-3);
    cr_assert_float_eq(sample_t95(10), 2.228, 1e-3);
    cr_assert_float_eq(sample_t95(30), 2.042, 2e-3);
    cr_assert_float_eq(sample_t95(100000), 1.960, 1e-3);
}

/* The passes' median and prediction interval: t(k - 1) s sqrt(1 + 1/k). */
Test(unit, estimate_prediction_of_one_more_pass)
{
    static const double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2}, same[] = {5, 5};
    double median;

    /* s = 1, t(2) = 4.303 */
    cr_expect_float_eq(sample_prediction(odd, 3, &median), 4.303 * sqrt(4.0 / 3), 1e-3);
    cr_expect_float_eq(median, 2, 1e-12);
    /* s^2 = 5/3, t(3) = 3.182 */
    cr_expect_float_eq(sample_prediction(even, 4, &median), 3.182 * sqrt(5.0 / 3 * 1.25), 1e-3);
    cr_expect_float_eq(median, 2.5, 1e-12);
    cr_expect_float_eq(sample_prediction(same, 2, &median), 0, 1e-12);
    cr_expect_float_eq(median, 5, 1e-12);
}

/* A skewed population with a known total, sampled many times the way nq_estimate does
 * (strata of equal predicted cost, the first k of each shuffled run): the estimator is
 * unbiased and its 95% interval covers the truth about 95% of the time. */
enum { POP = 2000, STRATA = 16, PER = 12, DRAWS = 400 };

static double population(double *cost, double *y)
{
    uint64_t state = 99;
    double total = 0;
    for (int i = 0; i < POP; i++) {
        double u = (double)(sample_rand(&state) >> 11) / 9007199254740992.0;
        cost[i] = 1 + 50 * u * u * u; /* heavy right tail */
        y[i] = cost[i] * (0.5 + (double)(sample_rand(&state) % 1000) / 1000.0); /* noisy */
        total += y[i];
    }
    return total;
}

/* One draw the way nq_estimate makes it, with the strata cut from priced items of the
 * population: all of them, or a simple random sample (two-phase sampling, what
 * nq_estimate prices where pricing every task would pass the time). */
static void draw(const double *cost, const double *y, uint64_t priced, uint64_t seed,
                 sample_estimate *e)
{
    static uint64_t pick[POP], idx[POP], start[STRATA + 1];
    static double pc[POP];
    sample_stratum st[STRATA] = {{0}};
    int strata;

    if (priced < POP)
        sample_subset(POP, priced, seed, pick);
    for (uint64_t i = 0; i < priced; i++)
        pc[i] = cost[priced < POP ? pick[i] : i];
    strata = sample_stratify(pc, priced, STRATA, idx, start);
    sample_shuffle(idx, start, strata, seed);
    for (int h = 0; h < strata; h++) {
        for (uint64_t k = start[h]; k < start[h + 1]; k++) {
            st[h].size++;
            st[h].cost += pc[idx[k]];
        }
        for (uint64_t k = start[h]; k < start[h] + PER && k < start[h + 1]; k++)
            sample_add(&st[h], pc[idx[k]], y[priced < POP ? pick[idx[k]] : idx[k]]);
    }
    sample_estimate_total(st, strata, e);
    sample_two_phase(e, st, strata, priced, POP);
}

/* DRAWS draws with priced items: their mean within bias of the truth, their intervals
 * covering it 90-99% of the time. */
static void check_coverage(uint64_t priced, double bias)
{
    static double cost[POP], y[POP];
    double truth = population(cost, y), mean = 0;
    int covered = 0;

    for (uint64_t seed = 1; seed <= DRAWS; seed++) {
        sample_estimate e;
        draw(cost, y, priced, seed, &e);
        double half = sample_t95(e.df) * sqrt(e.variance);
        covered += fabs(e.total - truth) <= half;
        mean += e.total / DRAWS;
    }
    cr_assert_lt(fabs(mean / truth - 1), bias, "mean estimate %f, truth %f", mean, truth);
    cr_assert_geq(covered, DRAWS * 90 / 100, "covered %d of %d", covered, DRAWS);
    cr_assert_leq(covered, DRAWS * 99 / 100, "covered %d of %d: too wide", covered, DRAWS);
}

Test(unit, estimate_synthetic_population_coverage)
{
    check_coverage(POP, 0.01);
}

/* The strata cut from a fifth of the population: the total scaled to it is unbiased, and
 * its interval, with the first phase's variance, covers the truth about 95% of the time
 * (373 of 400 draws; without that term 122). */
Test(unit, estimate_two_phase_coverage)
{
    check_coverage(POP / 5, 0.02);
}

/* The first phase's draw: m distinct items in increasing order, the same for a seed, and
 * each item about equally often over many seeds. */
Test(unit, estimate_subset_is_uniform)
{
    enum { N = 50, M = 10, SEEDS = 20000 };
    uint64_t pick[M], again[M];
    int seen[N] = {0};

    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        sample_subset(N, M, seed, pick);
        for (int i = 0; i < M; i++) {
            cr_assert(pick[i] < N && (i == 0 || pick[i] > pick[i - 1]));
            seen[pick[i]]++;
        }
    }
    sample_subset(N, M, 7, pick);
    sample_subset(N, M, 7, again);
    cr_assert_arr_eq(pick, again, sizeof(pick));
    for (int i = 0; i < N; i++) /* expected 4000, sd 57 */
        cr_expect(seen[i] > 3700 && seen[i] < 4300, "item %d taken %d times", i, seen[i]);
    sample_subset(N, N, 3, (uint64_t[N]){0}); /* every item: no draw past the end */
}

/* ---- the library call ---------------------------------------------------------------- */

Test(unit, estimate_api_rejects_bad_options)
{
    nq_solver *sv = engine_check_solver(8, NQ_ENGINE_D4, 1, NQ_SIMD_AUTO);
    nq_estimate_options o;
    nq_estimate_result r;
    const double bad[] = {0, -1, NAN, INFINITY};

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        nq_default_estimate_options(&o);
        o.seconds = bad[i];
        cr_assert_eq(nq_estimate(sv, &o, &r), NQ_EINVAL, "seconds %f", bad[i]);
    }
    nq_default_estimate_options(&o);
    o.timing_error = -0.1;
    cr_assert_eq(nq_estimate(sv, &o, &r), NQ_EINVAL);
    nq_default_estimate_options(&o);
    cr_assert_eq(nq_estimate(sv, NULL, &r), NQ_EINVAL);
    nq_destroy_solver(&sv);
}

typedef struct seen {
    uint64_t sub[4096];
    int have[4096];
    uint64_t n;
} seen;

static int note_done(void *user, uint64_t id, uint64_t subtotal)
{
    seen *s = user;
    s->sub[id] = subtotal;
    s->have[id] = 1;
    return 0;
}

static int note_sampled(void *user, const nq_estimate_task *t)
{
    seen *s = user;
    cr_assert(t->id < 4096 && s->have[t->id]);
    cr_assert_eq(t->subtotal, s->sub[t->id], "task %llu", (unsigned long long)t->id);
    s->n++;
    return 0;
}

/* A solver of board n on engine, one thread, after a full count that noted every task's
 * subtotal into *s. */
static nq_solver *counted(int n, int engine, seen *s, nq_result *full)
{
    nq_solver *sv = engine_check_solver(n, engine, 1, NQ_SIMD_AUTO);
    nq_hooks h = {s, NULL, note_done};

    memset(s, 0, sizeof(*s));
    cr_assert_eq(nq_count(sv, &h, full), NQ_OK);
    return sv;
}

/* Every sampled task's subtotal is the one a full count gives that id, and a sample of
 * every task adds up to the total. */
static void check_exact(int n, int engine)
{
    static seen s;
    nq_result full;
    nq_solver *sv = counted(n, engine, &s, &full);
    nq_estimate_options o;
    nq_estimate_result r;
    nq_u128 want;

    nq_default_estimate_options(&o);
    o.seconds = 600; /* a census: these boards take milliseconds */
    o.sampled = note_sampled;
    o.user = &s;
    cr_assert_eq(nq_estimate(sv, &o, &r), NQ_OK);
    cr_assert_eq(r.sampled, full.tasks);
    cr_assert_eq(s.n, full.tasks);
    nq_known_total(n, &want);
    cr_assert(r.sample_total.lo == want.lo && r.sample_total.hi == want.hi);
    cr_assert_leq(r.cpu_seconds_low, r.cpu_seconds);
    cr_assert_leq(r.cpu_seconds, r.cpu_seconds_high);
    /* the time allowed the census again: timed more than once, reported once */
    cr_assert_geq(r.census_passes, 2, "n=%d: %d passes", n, r.census_passes);
    cr_assert_leq(r.census_passes, 9);
    nq_destroy_solver(&sv);
}

/* Boards with few tasks or none (d4 and prefix have none at n = 2, d4 none at 3): every
 * engine estimates them, the sample a census of what there is (a pilot drawn from no
 * tasks divided by zero). */
Test(unit, estimate_api_boards_without_tasks)
{
    int engines[] = {NQ_ENGINE_PREFIX, NQ_ENGINE_D4, NQ_ENGINE_JOIN};

    for (size_t e = 0; e < sizeof(engines) / sizeof(engines[0]); e++)
        for (int n = 1; n <= 4; n++) {
            nq_solver *sv = engine_check_solver(n, engines[e], 1, NQ_SIMD_AUTO);
            nq_estimate_options o;
            nq_estimate_result r;
            nq_u128 want;

            nq_default_estimate_options(&o);
            o.seconds = 0.05;
            cr_assert_eq(nq_estimate(sv, &o, &r), NQ_OK, "engine %d n=%d", engines[e], n);
            cr_assert_eq(r.sampled, r.tasks, "engine %d n=%d: a census", engines[e], n);
            nq_known_total(n, &want);
            cr_assert(r.sample_total.lo == want.lo && r.sample_total.hi == want.hi,
                      "engine %d n=%d", engines[e], n);
            cr_assert_geq(r.cpu_seconds, r.setup_cpu_seconds);
            cr_assert(r.tasks || r.census_passes == 0, "n=%d: no passes over no tasks", n);
            nq_destroy_solver(&sv);
        }
}

Test(unit, estimate_api_sample_is_exact)
{
    check_exact(11, NQ_ENGINE_D4);
    check_exact(12, NQ_ENGINE_JOIN);
    check_exact(10, NQ_ENGINE_PREFIX);
}

/* The tasks priced where max_priced is set below the task count: the seed's draw of them
 * (sample_subset), in the task ids' terms. */
static int priced_id[4096];

static int note_priced(void *user, const nq_estimate_task *t)
{
    cr_assert(t->id < 4096 && priced_id[t->id], "task %llu was not priced",
              (unsigned long long)t->id);
    return note_sampled(user, t);
}

/* A third of the tasks priced (two-phase sampling): the sample is drawn from those alone,
 * every one of them in the time, each with the full count's subtotal, and that is not a
 * census (no passes again) but has an interval, the first phase's variance in it; with
 * max_priced 0 every task is priced. */
static void check_two_phase(int n, int engine)
{
    static seen s;
    static uint64_t pick[4096];
    nq_result full;
    nq_solver *sv = counted(n, engine, &s, &full);
    nq_estimate_options o;
    nq_estimate_result r;

    nq_default_estimate_options(&o);
    o.seconds = 600;
    o.seed = 5;
    o.max_priced = full.tasks / 3;
    o.sampled = note_priced;
    o.user = &s;
    memset(priced_id, 0, sizeof(priced_id));
    sample_subset(full.tasks, o.max_priced, o.seed, pick);
    for (uint64_t i = 0; i < o.max_priced; i++)
        priced_id[pick[i]] = 1;
    cr_assert_eq(nq_estimate(sv, &o, &r), NQ_OK);
    cr_assert_eq(r.tasks, full.tasks);
    cr_assert_eq(r.priced_tasks, o.max_priced, "n=%d engine %d", n, engine);
    cr_assert_eq(r.sampled, o.max_priced);
    cr_assert_eq(r.census_passes, 0, "a third of the tasks is no census");
    /* every priced task timed whole: the tasks' time is theirs scaled to all the tasks */
    cr_assert_float_eq(r.cpu_seconds - r.setup_cpu_seconds,
                       (double)r.tasks / (double)r.priced_tasks * r.sample_cpu_seconds,
                       1e-9 + 1e-9 * r.cpu_seconds);
    cr_assert(r.cpu_seconds_low < r.cpu_seconds && r.cpu_seconds < r.cpu_seconds_high,
              "%f .. %f .. %f", r.cpu_seconds_low, r.cpu_seconds, r.cpu_seconds_high);
    o.max_priced = 0;
    o.sampled = NULL;
    o.seconds = 0.05;
    cr_assert_eq(nq_estimate(sv, &o, &r), NQ_OK);
    cr_assert_eq(r.priced_tasks, r.tasks);
    nq_destroy_solver(&sv);
}

Test(unit, estimate_api_two_phase)
{
    check_two_phase(11, NQ_ENGINE_D4);
    check_two_phase(12, NQ_ENGINE_JOIN);
    check_two_phase(10, NQ_ENGINE_PREFIX);
}

/* Tasks short enough to sample in blocks of neighbours (join at n = 16: 3,299 tasks of
 * about 30 us) are all priced whatever max_priced asks: the blocks are of id neighbours,
 * which a sample of the tasks does not keep. */
Test(unit, estimate_api_short_tasks_are_all_priced)
{
    nq_solver *sv = engine_check_solver(16, NQ_ENGINE_JOIN, 1, NQ_SIMD_AUTO);
    nq_estimate_options o;
    nq_estimate_result r;

    nq_default_estimate_options(&o);
    o.seconds = 2; /* units of 4 ms: blocks of its 30 us tasks even under ASan */
    o.max_priced = 100;
    o.max_tasks = 1; /* one unit is enough to see */
    cr_assert_eq(nq_estimate(sv, &o, &r), NQ_OK);
    cr_assert_gt(r.tasks, o.max_priced);
    cr_assert_eq(r.priced_tasks, r.tasks);
    nq_destroy_solver(&sv);
}

typedef struct parted_seen {
    seen *full;
    uint64_t parted, whole_total;
} parted_seen;

/* A parted task's subtotal is its parts', at most the task's; a whole one's the task's. */
static int note_parted(void *user, const nq_estimate_task *t)
{
    parted_seen *ps = user;
    cr_assert(t->id < 4096 && ps->full->have[t->id]);
    cr_assert_geq(t->part_stride, 1);
    if (t->part_stride == 1) {
        cr_assert_eq(t->subtotal, ps->full->sub[t->id], "task %llu", (unsigned long long)t->id);
        ps->whole_total += t->subtotal * t->weight;
    } else {
        cr_assert_leq(t->subtotal, ps->full->sub[t->id], "task %llu", (unsigned long long)t->id);
        ps->parted++;
    }
    cr_assert(isfinite(t->cpu_seconds) && t->cpu_seconds >= 0);
    return 0;
}

/* With part_seconds below every task's time, the join's tasks are timed by a share of
 * their parts (an odd board's middle columns), and each part taken by a share of its
 * pieces (its one count of pairs here, which an even board's task is whole): every task
 * is sampled, but that is no census (no passes again, an interval of nonzero width: the
 * parts' sampling error), and sample_total holds the whole tasks only. With part_seconds
 * past every task's time, every task is whole: a census. */
static void check_parted(int n, double part_seconds, int want_parted)
{
    static seen full;
    nq_result count;
    nq_solver *sv = counted(n, NQ_ENGINE_JOIN, &full, &count);
    parted_seen ps = {&full, 0, 0};
    nq_estimate_options o;
    nq_estimate_result r;

    nq_default_estimate_options(&o);
    o.seconds = 600;
    o.part_seconds = part_seconds;
    o.sampled = note_parted;
    o.user = &ps;
    cr_assert_eq(nq_estimate(sv, &o, &r), NQ_OK);
    cr_assert_eq(r.sampled, r.tasks);
    cr_assert_eq(r.sampled_in_parts, ps.parted);
    cr_assert_eq(r.sample_total.lo, ps.whole_total);
    if (!want_parted) {
        cr_expect_eq(ps.parted, 0, "n=%d: one part a task", n);
        cr_expect_geq(r.census_passes, 2, "n=%d: a census", n);
    } else {
        cr_expect_gt(ps.parted, r.tasks / 2, "n=%d: %llu parted", n, (unsigned long long)ps.parted);
        cr_expect_eq(r.census_passes, 0, "n=%d: not a census", n);
        cr_expect_gt(r.cpu_seconds_high - r.cpu_seconds,
                     1.0001 * 1.959964 * o.timing_error * r.cpu_seconds,
                     "n=%d: the parts' error widens the interval past the timing part", n);
    }
    cr_assert_leq(r.cpu_seconds_low, r.cpu_seconds);
    cr_assert_leq(r.cpu_seconds, r.cpu_seconds_high);
    o.part_seconds = -1;
    cr_expect_eq(nq_estimate(sv, &o, &r), NQ_EINVAL);
    nq_destroy_solver(&sv);
}

Test(unit, estimate_api_times_long_tasks_by_parts)
{
    check_parted(15, 1e-9, 1);
    check_parted(14, 1e-9, 1);
    check_parted(14, INFINITY, 0);
}

Test(unit, estimate_api_max_tasks)
{
    nq_solver *sv = engine_check_solver(14, NQ_ENGINE_JOIN, 1, NQ_SIMD_AUTO);
    nq_estimate_options o;
    nq_estimate_result r;
    nq_default_estimate_options(&o);
    o.max_tasks = 25;
    cr_assert_eq(nq_estimate(sv, &o, &r), NQ_OK);
    cr_assert_eq(r.sampled, 25);
    cr_assert_gt(r.tasks, 25);
    cr_assert_eq(r.census_passes, 0, "a sample, not a census");
    nq_destroy_solver(&sv);
}

/* The first sampling unit of prefix n = 14 at seven rows (417,528 tasks), given seconds:
 * stopped after it (max_tasks 1), the sample is that unit. */
static nq_estimate_result first_unit(double seconds)
{
    nq_settings s = engine_check_settings(14, NQ_ENGINE_PREFIX, 1);
    nq_solver *sv;
    nq_estimate_options o;
    nq_estimate_result r;

    s.prefix_rows = 7;
    sv = engine_check_create(&s);
    nq_default_estimate_options(&o);
    o.max_tasks = 1;
    o.seconds = seconds;
    cr_assert_eq(nq_estimate(sv, &o, &r), NQ_OK);
    nq_destroy_solver(&sv);
    return r;
}

/* A sampling unit is at most 16 consecutive tasks however many tasks there are (the
 * sample sees the time only between units). */
Test(unit, estimate_units_are_short)
{
    nq_estimate_result r = first_unit(10);

    cr_assert_gt(r.tasks, 16 * 1024, "%llu tasks: past blocks of 16", (unsigned long long)r.tasks);
    cr_expect_eq(r.sampled, 16);
}

/* A unit is also no longer than two thousandths of the time: with a microsecond to
 * spend, where every task takes longer, a unit is one task. */
Test(unit, estimate_units_fit_the_time)
{
    cr_expect_eq(first_unit(1e-6).sampled, 1);
}

/* ---- the command ----------------------------------------------------------------------- */

static int one_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl && nl[1] == '\0';
}

Test(unit, estimate_cli_usage_errors)
{
    static const char *const cases[] = {
        "estimate",
        "estimate 0",
        "estimate 33",
        "estimate x",
        "estimate 8 --seconds 0",
        "estimate 8 --seconds -1",
        "estimate 8 --seconds 1e9",
        "estimate 8 --seconds nan",
        "estimate 8 --seconds 2x",
        "estimate 8 --seed -1",
        "estimate 8 --seed x",
        "estimate 8 --seed 18446744073709551616",
        "estimate 8 --max-tasks 0",
        "estimate 8 --engine nope",
        "estimate 8 --engine cuda",
        "estimate 8 --devices 0",
        "estimate 8 9",
    };
    cli_expect_usage_errors(cases);
}

/* The task and subtotal columns of a --sample file. */
static void read_sample(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    char line[256];
    size_t len = 0;
    cr_assert(f);
    cr_assert(fgets(line, sizeof(line), f));
    cr_assert_str_eq(line, "task,stratum,subtotal,weight,weighted,part_stride,cpu_seconds\n");
    while (fgets(line, sizeof(line), f)) {
        char *last = strrchr(line, ',');
        cr_assert(last);
        *last = '\0'; /* the time differs run to run */
        len += (size_t)snprintf(buf + len, size - len, "%s\n", line);
    }
    fclose(f);
}

static void sample_with_seed(const char *seed, const char *path, char *buf, size_t size)
{
    const char *const args[] = {"estimate",    "16", "--engine", "d4", "--seed", seed,
                                "--max-tasks", "30", "--sample", path, NULL};
    static cli_out o;
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    read_sample(path, buf, size);
}

Test(unit, estimate_cli_seed_reproduces_the_sample)
{
    char path[SCRATCH_PATH];
    static char a[16384], b[16384], c[16384];
    int fd = scratch_file(path, sizeof(path), "est");
    cr_assert(fd >= 0);
    close(fd);
    sample_with_seed("12345", path, a, sizeof(a));
    sample_with_seed("12345", path, b, sizeof(b));
    sample_with_seed("54321", path, c, sizeof(c));
    unlink(path);
    cr_assert_str_eq(a, b, "the same seed draws the same tasks");
    cr_assert_str_neq(a, c, "another seed draws others");
}

/* With the default time (a part share of 0.31 s), no task of d4 or prefix at n = 16
 * (milliseconds each) is timed by parts, whatever the seed: the pilot's rate comes from
 * enough of its task to be steady. Timed by one part of microseconds in a fresh process
 * and projected over all of them it was off by a factor of hundreds, and parted every
 * task (seed 7), so that the same seed wrote other samples under load. */
Test(unit, estimate_cli_short_tasks_are_whole)
{
    static const char *const engines[] = {"d4", "prefix"};
    static cli_out o;

    for (int e = 0; e < 2; e++)
        for (int seed = 1; seed <= 8; seed++) {
            char line[160];
            cli_argv a;
            snprintf(line, sizeof(line), "estimate 16 --engine %s --seed %d --max-tasks 8 --json",
                     engines[e], seed);
            cli_run(&o, cli_split(&a, line));
            cr_assert_eq(o.status, 0, "%s: %s", line, o.err);
            cr_expect(strstr(o.out, "\"sampled_in_parts\": 0,"), "%s: %s", line, o.out);
        }
}

/* Tasks of seconds (prefix at n = 19, two rows) with a second to spend are timed by
 * parts, whatever the seed, and the sample's CPU time stays within the time (under ASan
 * the pilot takes most of it: one task sampled). The pilot
 * once stopped at one part of microseconds because the walk that found it took its
 * 10 ms (d4 at n = 20: 0.3 s), and such a rate, often tens of times too low, timed
 * these tasks whole: one of four parted, 2.7 to 5.8 s spent (d4 at n = 23: minutes). */
Test(unit, estimate_cli_long_tasks_are_parted)
{
    static cli_out o;

    for (int seed = 1; seed <= 3; seed++) {
        char line[160];
        cli_argv a;
        double sampled, parted, spent;
        snprintf(line, sizeof(line),
                 "estimate 19 --engine prefix --seconds 1 --seed %d --max-tasks 4 --json", seed);
        cli_run(&o, cli_split(&a, line));
        cr_assert_eq(o.status, 0, "%s: %s", line, o.err);
        sampled = cli_json_number(o.out, "sampled_tasks");
        parted = cli_json_number(o.out, "sampled_in_parts");
        spent = cli_json_number(o.out, "sample_cpu_seconds");
        cr_assert(sampled >= 0 && parted >= 0 && spent >= 0, "%s", o.out);
        cr_expect(sampled >= 1 && parted == sampled, "%s: %s", line, o.out);
        cr_expect_lt(spent, 1.0, "%s: %s", line, o.out);
    }
}

Test(unit, estimate_cli_json_fields)
{
    const char *const args[] = {"estimate", "12", "--seed", "3", "--json", NULL};
    static const char *const names[] = {
        "\"schema\": 2",           "\"cpu_seconds\": ",   "\"cpu_seconds_low\": ",
        "\"cpu_seconds_high\": ",  "\"wall_seconds\": ",  "\"seed\": 3,",
        "\"engine\": \"join\"",    "\"sampled_tasks\": ", "\"tasks\": ",
        "\"sample_total\": 14200", "\"census_passes\": "};
    static cli_out o;

    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(one_line(o.out), "%s", o.out);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        cr_assert(strstr(o.out, names[i]), "%s in %s", names[i], o.out);
}

/* Tasks too many to price in a short time (the join's 184,756 at n = 21 past 2^18 a
 * second of 0.05 s, so 65,536 at least): the text says the strata come from a sample of
 * them, and the JSON how many. */
Test(unit, estimate_cli_many_tasks_price_a_sample)
{
    static cli_out o;
    cli_argv a;
    char line[] = "estimate 21 --engine join --threads 1 --seconds 0.05 --max-tasks 1 --seed 2";
    char json[sizeof(line) + 8];

    snprintf(json, sizeof(json), "%s --json", line);
    cli_run(&o, cli_split(&a, line));
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect(strstr(o.out, "strata cut from 65536 tasks drawn and priced"), "%s", o.out);
    cli_run(&o, cli_split(&a, json));
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_eq(cli_json_number(o.out, "priced_tasks"), 65536, "%s", o.out);
    cr_expect_gt(cli_json_number(o.out, "tasks"), 65536, "%s", o.out);
}

/* The sampled subtotals are the count's: every line of the sample is a line of count's
 * --subtotals (task, subtotal, weight, weighted) for that id. */
Test(unit, estimate_cli_sample_matches_count_subtotals)
{
    char sp[SCRATCH_PATH], ep[SCRATCH_PATH], line[256];
    static char subs[1 << 16];
    const char *const count[] = {"count", "13", "--engine", "d4", "--subtotals", sp, NULL};
    const char *const est[] = {"estimate",    "13", "--engine", "d4", "--seed", "9",
                               "--max-tasks", "40", "--sample", ep,   NULL};
    static cli_out o;
    FILE *f;
    int matched = 0;

    close(scratch_file(sp, sizeof(sp), "est-sub"));
    close(scratch_file(ep, sizeof(ep), "est-smp"));
    cli_run(&o, count);
    cr_assert_eq(o.status, 0, "%s", o.err);
    f = fopen(sp, "r");
    subs[fread(subs, 1, sizeof(subs) - 1, f)] = '\0';
    fclose(f);
    cli_run(&o, est);
    cr_assert_eq(o.status, 0, "%s", o.err);
    f = fopen(ep, "r");
    cr_assert(fgets(line, sizeof(line), f));
    while (fgets(line, sizeof(line), f)) {
        unsigned long long id, sub, weighted;
        unsigned weight;
        int stratum;
        char want[128];
        cr_assert_eq(sscanf(line, "%llu,%d,%llu,%u,%llu,", &id, &stratum, &sub, &weight, &weighted),
                     5);
        snprintf(want, sizeof(want), "\n%llu,%llu,%u,%llu\n", id, sub, weight, weighted);
        cr_assert(strstr(subs, want), "task %llu: %s not in count's subtotals", id, line);
        matched++;
    }
    fclose(f);
    unlink(sp);
    unlink(ep);
    cr_assert_eq(matched, 40);
}

/* Ctrl-C ends a long estimate like a count: exit 128 + SIGINT, one line. */
Test(unit, estimate_cli_sigint_stops)
{
    const char *const args[] = {"estimate", "19", "--engine", "d4", "--seconds", "300", NULL};
    char err_path[SCRATCH_PATH];
    int fe = scratch_file(err_path, sizeof(err_path), "est-err");
    pid_t pid = cli_start(args, -1, fe);
    static char err[4096];

    usleep(500 * 1000);
    kill(pid, SIGINT);
    cr_assert_eq(cli_wait(pid), 128 + SIGINT);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fe, err, sizeof(err));
    close(fe);
    unlink(err_path);
    cr_assert(strstr(err, "interrupted by SIGINT"), "%s", err);
}
