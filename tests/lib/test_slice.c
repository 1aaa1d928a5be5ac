/* Slices of a count (nq_settings.slice_index of slice_count) and nqueens merge: the
 * slices of every CPU engine tile the task ids and add up to the OEIS total, the cut
 * follows the engines' cost models, a slice journal resumes its slice, and merge refuses
 * what does not add up to one count. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "engine_check.h"
#include "engine_table.h"
#include "engines/slice.h"
#include "journal_forge.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"

static nq_settings slice_settings(int engine, int n, int k, int m)
{
    nq_settings s = engine_check_settings(n, engine, 2);
    s.slice_index = k;
    s.slice_count = m;
    return s;
}

/* The slices' totals and ranges, from one solver per slice. */
static uint64_t sum_of_slices(int engine, int n, int m)
{
    uint64_t sum = 0, at = 0, set_tasks = 0;

    for (int k = 0; k < m; k++) {
        nq_settings s = slice_settings(engine, n, k, m);
        nq_solver *sv = engine_check_create(&s);
        nq_result r;
        cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK, "%s n=%d %d/%d", nq_engine_name(engine), n, k,
                     m);
        nq_destroy_solver(&sv);
        cr_expect_eq(r.first_task, at, "%s n=%d slice %d/%d starts where the last ended",
                     nq_engine_name(engine), n, k, m);
        cr_expect_eq(r.tasks, r.end_task - r.first_task);
        cr_expect_eq(r.slice_index, k);
        cr_expect_eq(r.slice_count, m);
        cr_expect_eq(r.partial, r.tasks < r.set_tasks);
        at = r.end_task;
        set_tasks = r.set_tasks;
        sum += r.total.lo;
    }
    cr_expect_eq(at, set_tasks, "%s n=%d: the last of %d slices ends the set",
                 nq_engine_name(engine), n, m);
    return sum;
}

static const int slice_engines[] = {NQ_ENGINE_PREFIX, NQ_ENGINE_D4, NQ_ENGINE_JOIN};

static void expect_slices_add_up(int engine, int n)
{
    static const int ms[] = {1, 3, 7};
    for (int i = 0; i < 3; i++)
        cr_expect_eq(sum_of_slices(engine, n, ms[i]), oeis_value("A000170", n), "%s n=%d M=%d",
                     nq_engine_name(engine), n, ms[i]);
}

/* n = 16 in the unit suite only where it is cheap (join: a fifth of a second); prefix
 * and d4 take seconds there, three times over, so their n = 16 is in the slow suite. */
Test(unit, slices_of_every_cpu_engine_add_up_to_oeis)
{
    for (int e = 0; e < 3; e++)
        for (int n = 8; n <= (slice_engines[e] == NQ_ENGINE_JOIN ? 16 : 15); n++)
            expect_slices_add_up(slice_engines[e], n);
}

Test(slow, slices_of_prefix_and_d4_add_up_to_oeis_at_16)
{
    expect_slices_add_up(NQ_ENGINE_PREFIX, 16);
    expect_slices_add_up(NQ_ENGINE_D4, 16);
}

typedef struct cost_sum {
    const engine_desc *e;
    const void *shared;
    double *upto; /* costs of ids below each id, upto[0..tasks] */
    double most;
} cost_sum;

static int add_cost(void *user, const task *t)
{
    cost_sum *c = user;
    double x = engine_task_cost(c->e, c->shared, t);
    cr_assert(x >= 0);
    c->upto[t->id + 1] = c->upto[t->id] + x;
    c->most = x > c->most ? x : c->most;
    return 0;
}

/* Each slice's expected cost is 1/M of the whole, within one task's cost: the cut is by
 * cost, not by the number of tasks. */
Test(unit, slices_are_cut_by_expected_cost)
{
    for (int i = 0; i < 3; i++) {
        const int m = 7, n = 15;
        nq_settings s = slice_settings(slice_engines[i], n, 0, m);
        cr_assert_eq(nq_resolve_settings(&s), NQ_OK);
        const engine_desc *e = engine_of(&s);
        uint64_t tasks = e->task_count(&s), first, end, by_count_differs = 0;
        static double upto[1 << 16];
        cost_sum c = {e, e->shared_init ? e->shared_init(&s, NULL) : NULL, upto, 0};

        cr_assert_lt(tasks, sizeof(upto) / sizeof(upto[0]));
        upto[0] = 0;
        e->source(&s, add_cost, &c);
        for (int k = 0; k < m; k++) {
            s.slice_index = k;
            cr_assert_eq(nq_slice_range(&s, &first, &end), NQ_OK);
            double share = upto[end] - upto[first], want = upto[tasks] / m;
            cr_expect(share <= want + c.most + 1e-9 && share >= want - c.most - 1e-9,
                      "%s slice %d/%d: cost %g, 1/M is %g", e->name, k, m, share, want);
            by_count_differs += first != tasks * (uint64_t)k / m;
        }
        cr_expect_gt(by_count_differs, 0, "%s: the cut is not the plain task count's", e->name);
        if (c.shared)
            e->shared_free((void *)c.shared);
    }
}

static int own_cost(void *user, const task *t)
{
    cost_sum *c = user;
    c->upto[t->id] = engine_task_cost(c->e, c->shared, t);
    return 0;
}

/* The costs a slice is cut by are each task's own, bit for bit, whether priced on one
 * thread in one batch or on three in batches of seven (each split into ranges of 4,096
 * and less, taken in any order): the cut cannot depend on the machine. A stop seen
 * before the pricing cancels it. */
Test(unit, slice_costs_are_the_tasks_own_on_any_threads)
{
    static double own[1 << 15], one[1 << 15], three[1 << 15];
    atomic_int stop = 1;

    for (int i = 0; i < 3; i++) {
        nq_settings s = slice_settings(slice_engines[i], 15, 0, 1);
        cr_assert_eq(nq_resolve_settings(&s), NQ_OK);
        const engine_desc *e = engine_of(&s);
        uint64_t tasks = e->task_count(&s);
        cost_sum c = {e, e->shared_init ? e->shared_init(&s, NULL) : NULL, own, 0};

        cr_assert_lt(tasks, sizeof(own) / sizeof(own[0]));
        cr_assert_eq(e->source(&s, own_cost, &c), tasks);
        s.n_threads = 1;
        cr_assert_eq(engine_task_costs(e, &s, one, tasks, tasks, NULL), NQ_OK, "%s", e->name);
        s.n_threads = 3;
        cr_assert_eq(engine_task_costs(e, &s, three, tasks, 7, NULL), NQ_OK, "%s", e->name);
        for (uint64_t k = 0; k < tasks; k++)
            cr_expect(one[k] == own[k] && three[k] == own[k],
                      "%s task %llu: %g on one thread, %g on three, %g its own", e->name,
                      (unsigned long long)k, one[k], three[k], own[k]);
        cr_expect_eq(engine_task_costs(e, &s, three, tasks, 7, &stop), NQ_ECANCELED, "%s", e->name);
        if (c.shared)
            e->shared_free((void *)c.shared);
    }
}

Test(unit, slice_settings_are_checked)
{
    nq_settings s = slice_settings(NQ_ENGINE_D4, 10, 3, 3);
    nq_solver *sv;
    uint64_t a, b, tasks;
    cr_expect_eq(nq_create_solver(&sv, &s), NQ_EINVAL);
    s.slice_index = -1;
    cr_expect_eq(nq_slice_range(&s, &a, &b), NQ_EINVAL);
    s.slice_index = 1, s.slice_count = 0;
    cr_expect_eq(nq_slice_range(&s, &a, &b), NQ_EINVAL);
    s.slice_index = 0, s.slice_count = NQ_MAX_SLICES + 1;
    cr_expect_eq(nq_slice_range(&s, &a, &b), NQ_EINVAL);
    /* more slices than tasks: empty slices, still a tiling */
    s.slice_count = 100000, s.slice_index = 99999;
    cr_expect_eq(nq_slice_range(&s, &a, &b), NQ_OK);
    cr_assert_eq(nq_task_count(&s, &tasks), NQ_OK);
    cr_expect_eq(b, tasks);
    cr_expect_eq(a, tasks, "the last slices are empty, at the end");
}

/* ---- the command line: count --slice, resume, merge ---------------------------------- */

static cli_out o;
static char dir[SCRATCH_PATH];

static const char *jp(int k)
{
    static char p[8][SCRATCH_PATH_LONGER];
    snprintf(p[k], sizeof(p[k]), "%s/s%d.nqj", dir, k);
    return p[k];
}

static void make_dir(void)
{
    cr_assert_not_null(scratch_mkdir(dir, sizeof(dir), "slice"));
}

static void remove_dir(void)
{
    char cmd[SCRATCH_PATH_LONGER];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* count N --slice K/M --checkpoint jp(k), for k in 0..m-1. */
static void count_slices(const char *n, const char *engine, int m)
{
    for (int k = 0; k < m; k++) {
        char slice[16];
        snprintf(slice, sizeof(slice), "%d/%d", k, m);
        const char *const args[] = {"count",        n,     "--engine", engine, "--slice", slice,
                                    "--checkpoint", jp(k), "--no-pin", NULL};
        cli_run(&o, args);
        cr_assert_eq(o.status, 0, "%s", o.err);
    }
}

static void expect_refusal(const char *const *args, const char *what)
{
    cli_run(&o, args);
    cr_expect_eq(o.status, 1, "%s: %s", what, o.err);
    cr_expect_str_eq(o.out, "", "%s", what);
    cr_expect_not_null(strstr(o.err, what), "%s", o.err);
    cr_expect_eq(strchr(o.err, '\n'), o.err + strlen(o.err) - 1, "one line: %s", o.err);
}

Test(unit, merge_adds_the_slices_up_to_oeis)
{
    static const char *const engines[] = {"join", "d4"};
    char want[32];

    make_dir();
    for (int e = 0; e < 2; e++) {
        count_slices("13", engines[e], 3);
        const char *const json[] = {"merge", jp(2), jp(0), jp(1), "--json", NULL};
        cli_run(&o, json);
        cr_expect_eq(o.status, 0, "%s", o.err);
        snprintf(want, sizeof(want), "\"total\": %llu,",
                 (unsigned long long)oeis_value("A000170", 13));
        cr_expect_not_null(strstr(o.out, want), "%s", o.out);
        snprintf(want, sizeof(want), "\"unique\": %llu,",
                 (unsigned long long)oeis_value("A002562", 13));
        cr_expect_not_null(strstr(o.out, want), "%s: %s", engines[e], o.out);
        cr_expect_not_null(strstr(o.out, "\"verified\": true, \"partial\": false, \"slice\": null"),
                           "%s", o.out);
        for (int k = 0; k < 3; k++)
            unlink(jp(k));
    }
    remove_dir();
}

Test(unit, a_slice_prints_a_partial_total_and_resumes_its_slice)
{
    const char *const part[] = {"count", "12", "--slice", "1/3", "--json", "--no-pin", NULL};
    const char *const resume[] = {"count", "12", "--checkpoint", NULL, "--no-pin", NULL};
    const char *const other[] = {"count", "12", "--slice", "2/3", "--checkpoint", NULL, NULL};

    make_dir();
    cli_run(&o, part);
    cr_expect_eq(o.status, 0, "%s", o.err);
    cr_expect_not_null(strstr(o.out, "\"verified\": null, \"partial\": true, \"slice\": {\"k\": 1, "
                                     "\"m\": 3, \"first_task\": "),
                       "%s", o.out);
    count_slices("12", "join", 2);
    /* the journal of slice 1/2 resumes slice 1/2, whatever the command line omits */
    ((const char **)resume)[3] = jp(1);
    cli_run(&o, resume);
    cr_expect_eq(o.status, 0, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "slice 1/2"), "%s", o.err);
    cr_expect_lt(strtoull(o.out, NULL, 10), oeis_value("A000170", 12));
    ((const char **)other)[5] = jp(1);
    expect_refusal(other, "is of slice 1/2, not 2/3");
    remove_dir();
}

Test(unit, merge_refuses_what_is_not_one_count)
{
    char dup[SCRATCH_PATH_LONGER];
    make_dir();
    count_slices("12", "join", 3);
    {
        const char *const args[] = {"merge", jp(0), jp(1), jp(1), jp(2), NULL};
        expect_refusal(args, "overlap");
    }
    {
        const char *const args[] = {"merge", jp(0), jp(2), NULL};
        expect_refusal(args, "slice 1/3 is missing");
    }
    {
        /* a slice of another count of the same board */
        const char *const c[] = {"count", "12",           "--engine", "d4",       "--slice",
                                 "1/3",   "--checkpoint", jp(4),      "--no-pin", NULL};
        cli_run(&o, c);
        cr_assert_eq(o.status, 0, "%s", o.err);
        const char *const args[] = {"merge", jp(0), jp(4), jp(2), NULL};
        expect_refusal(args, "different task sets");
    }
    {
        /* slice 1/3 with its last record cut: unfinished */
        struct stat st;
        snprintf(dup, sizeof(dup), "%s/cut.nqj", dir);
        cr_assert_eq(stat(jp(1), &st), 0);
        cr_assert_eq(truncate(jp(1), st.st_size - JOURNAL_RECORD_SIZE), 0);
        const char *const args[] = {"merge", jp(0), jp(1), jp(2), NULL};
        cli_run(&o, args);
        cr_expect_eq(o.status, 1, "%s", o.err);
        cr_expect_not_null(strstr(o.err, "is unfinished"), "%s", o.err);
        cr_expect_eq(count_lines(o.err), 1, "one line, the hint in it (issue 29): %s", o.err);
        cr_expect_not_null(strstr(o.err, "finish it with: nqueens count 12 --checkpoint"), "%s",
                           o.err);
        cr_expect_str_eq(o.out, "");
    }
    {
        const char *const args[] = {"merge", jp(0), jp(7), NULL};
        expect_refusal(args, "no such file");
    }
    {
        const char *const none[] = {"merge", NULL};
        cli_run(&o, none);
        cr_expect_eq(o.status, 2, "%s", o.err);
        const char *const bad[] = {"count", "12", "--slice", "3/3", NULL};
        cli_run(&o, bad);
        cr_expect_eq(o.status, 2, "%s", o.err);
        cr_expect_not_null(strstr(o.err, "expected K/M with 0 <= K < M"), "%s", o.err);
    }
    remove_dir();
}

/* A journal of slice 1/3 of board 12 with nothing done yet, at path. */
static void make_slice_journal(const char *path, int engine)
{
    nq_settings s = slice_settings(engine, 12, 1, 3);
    nq_task_set ts;
    nq_journal *j;
    nq_journal_info info;

    s.prefix_rows = engine == NQ_ENGINE_PREFIX ? 3 : 0;
    cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    nq_journal_close(&j);
}

static off_t size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : -1;
}

/* A slice's journal resumed without --slice resumes the slice; what a slice has not
 * (a unique count, the whole set's subtotals) is refused on one line before any task
 * runs. d4 once printed the slice's share of the unique count with exit 0, and the
 * subtotals and join's --unique were refused only after the count. */
Test(unit, a_slice_journal_without_slice_is_its_slice_or_refused_at_once)
{
    static const char *const engines[] = {"prefix", "d4", "join"};
    static const int ids[] = {NQ_ENGINE_PREFIX, NQ_ENGINE_D4, NQ_ENGINE_JOIN};
    char csv[300], want[64];

    make_dir();
    snprintf(csv, sizeof(csv), "%s/s.csv", dir);
    for (int e = 0; e < 3; e++) {
        const char *const part[] = {"count",         "12", "--engine", engines[e], "--slice", "1/3",
                                    "--prefix-rows", "3",  "--no-pin", NULL};
        const char *const unique[] = {"count",    "12", "--checkpoint", jp(0), "--unique",
                                      "--no-pin", NULL};
        const char *const subs[] = {"count",       "12", "--checkpoint", jp(0),
                                    "--subtotals", csv,  "--no-pin",     NULL};
        const char *const plain[] = {"count", "12", "--checkpoint", jp(0), "--no-pin", NULL};
        const char *const *refused[] = {unique, subs};

        if (ids[e] != NQ_ENGINE_PREFIX)
            ((const char **)part)[6] = NULL; /* --prefix-rows is the prefix engine's */
        cli_run(&o, part);
        cr_assert_eq(o.status, 0, "%s: %s", engines[e], o.err);
        snprintf(want, sizeof(want), "%.63s", o.out);
        make_slice_journal(jp(0), ids[e]);
        for (int r = 0; r < 2; r++) {
            cli_run(&o, refused[r]);
            cr_expect_eq(o.status, 2, "%s case %d: exit %d: %s", engines[e], r, o.status, o.err);
            cr_expect_str_eq(o.out, "", "%s case %d", engines[e], r);
            cr_expect_not_null(strstr(o.err, "slice 1/3"), "%s case %d: %s", engines[e], r, o.err);
            cr_expect_eq(count_lines(o.err), 1, "%s case %d: %s", engines[e], r, o.err);
            cr_expect_eq(size_of(jp(0)), JOURNAL_HEADER_SIZE, "%s case %d: no task ran", engines[e],
                         r);
            cr_expect_eq(size_of(csv), -1, "%s case %d: no CSV left", engines[e], r);
        }
        cli_run(&o, plain);
        cr_expect_eq(o.status, 0, "%s: %s", engines[e], o.err);
        cr_expect_str_eq(o.out, want, "%s: the slice's partial total", engines[e]);
        cr_expect_not_null(strstr(o.err, "slice 1/3"), "%s: %s", engines[e], o.err);
        unlink(jp(0));
    }
    remove_dir();
}
