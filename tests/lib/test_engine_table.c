/* The engine table (engine_table.h): every descriptor sits at its enum value, names
 * round-trip through the public API, each source emits task_count tasks with dense ids
 * in order, the task-set parameters round-trip through parse, what
 * nq_engine_describe says an engine can do is what a count with it does, and the
 * library's vector paths are its engines'. */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "core/cpu.h"
#include "engine_check.h"
#include "engine_table.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"

Test(unit, table_rows_sit_at_their_enum_value)
{
    cr_assert_gt(engine_count, 0);
    for (int i = 0; i < engine_count; i++) {
        const engine_desc *e = engine_table[i];
        cr_expect_eq(e->id, i, "%s", e->name);
        cr_expect_eq(engine_find(i), e);
        cr_expect_eq(engine_by_name(e->name), e);
        cr_expect_str_eq(nq_engine_name(i), e->name);
        cr_expect_eq(nq_engine_from_name(e->name), e->built ? i : NQ_EUNSUPPORTED);
        /* the pool's engines complete tasks; the others bring their own runtime, which a
         * build without its toolkit (cuda without nvcc) leaves out */
        cr_expect(!e->built || e->run || (e->complete && e->placed_rows), "%s", e->name);
        cr_expect(e->resolve && e->params_format && e->params_parse && e->task_count && e->source,
                  "%s", e->name);
    }
    cr_expect_null(engine_find(-1));
    cr_expect_null(engine_find(engine_count));
    cr_expect_null(engine_by_name("nope"));
    cr_expect_null(engine_by_name(NULL));
}

typedef struct order {
    uint64_t next;
    int ok;
} order;

static int check_order(void *user, const task *t)
{
    order *o = user;
    o->ok &= t->id == o->next++ && t->weight > 0;
    return 0;
}

Test(unit, sources_emit_task_count_dense_ids)
{
    for (int i = 0; i < engine_count; i++)
        for (int n = 1; n <= 12; n++) {
            const engine_desc *e = engine_table[i];
            nq_settings s;
            order o = {0, 1};
            nq_default_settings(&s);
            s.n = n;
            s.engine = i;
            s.n_threads = 3;
            engine_resolve(e, &s);
            cr_expect_eq(e->source(&s, check_order, &o), e->task_count(&s), "%s n=%d", e->name, n);
            cr_expect_eq(o.next, e->task_count(&s), "%s n=%d", e->name, n);
            cr_expect(o.ok, "%s n=%d: ids out of order or a zero weight", e->name, n);
        }
}

Test(unit, params_round_trip)
{
    for (int i = 0; i < engine_count; i++) {
        const engine_desc *e = engine_table[i];
        nq_settings s, t;
        char a[72], b[72];
        nq_default_settings(&s);
        s.n = 11;
        s.engine = i;
        s.n_threads = 2;
        engine_resolve(e, &s);
        e->params_format(&s, a, sizeof(a));
        nq_default_settings(&t);
        t.n = 11;
        t.engine = i;
        cr_expect_eq(e->params_parse(a, &t), NQ_OK, "%s: %s", e->name, a);
        engine_resolve(e, &t);
        e->params_format(&t, b, sizeof(b));
        cr_expect_str_eq(a, b, "%s", e->name);
        cr_expect_eq(e->params_parse("", &t), NQ_EINVAL, "%s", e->name);
    }
}

/* ---- nq_engine_describe against what the engines do ---------------------------------- */

/* One count of board n, unpinned, on 2 workers with prefix_rows rows; its status. */
static int count_with(int engine, int n, int prefix_rows, nq_result *r)
{
    nq_settings s = engine_check_settings(n, engine, 2);
    nq_solver *sv;
    int rc;

    s.prefix_rows = prefix_rows;
    sv = engine_check_create(&s);
    rc = nq_count(sv, NULL, r);
    nq_destroy_solver(&sv);
    return rc;
}

static int list_none(void *user, const uint8_t *cols, int n)
{
    (void)user, (void)cols, (void)n;
    return 0;
}

/* What nq_list says for engine on board n. */
static int list_with(int engine, int n)
{
    nq_solver *sv = engine_check_solver(n, engine, 1, NQ_SIMD_AUTO);
    nq_result r;
    int rc;

    rc = nq_list(sv, list_none, NULL, 0, &r);
    nq_destroy_solver(&sv);
    return rc;
}

Test(unit, engine_info_names_every_row)
{
    nq_engine_info info;

    for (int i = 0; i < engine_count; i++) {
        const engine_desc *e = engine_table[i];
        cr_assert_eq(nq_engine_describe(i, &info), NQ_OK, "%s", e->name);
        cr_expect_eq(info.engine, i);
        cr_expect_str_eq(info.name, nq_engine_name(i));
        cr_expect_eq(info.built, nq_engine_from_name(info.name) == i, "%s", info.name);
        cr_expect(info.min_n >= 1 && info.min_n <= info.max_n && info.max_n <= NQ_MAX_N, "%s",
                  info.name);
        cr_expect_eq(info.max_n, nq_engine_max_n(i), "%s", info.name);
        cr_expect(info.task_family >= 0 && info.task_family < engine_count, "%s", info.name);
        cr_expect(!info.takes_devices || !info.pins_workers, "%s: GPUs are not pinned workers",
                  info.name);
    }
    cr_expect_eq(nq_engine_describe(engine_count, &info), NQ_EINVAL);
    cr_expect_eq(nq_engine_describe(-1, &info), NQ_EINVAL);
    cr_expect_eq(nq_engine_describe(0, NULL), NQ_EINVAL);
}

/* Each built CPU engine's counts do what its info says: unique counts, a vector path,
 * prefix rows that change the rows placed (and the tasks), listing, its worker count. */
Test(unit, engine_info_matches_each_count)
{
    for (int i = 0; i < engine_count; i++) {
        nq_engine_info info;
        nq_result a, b;
        int n = 10;

        cr_assert_eq(nq_engine_describe(i, &info), NQ_OK);
        if (!info.built || info.takes_devices)
            continue; /* no GPU here to count on */
        cr_assert_eq(count_with(i, n, 2, &a), NQ_OK, "%s", info.name);
        cr_assert_eq(count_with(i, n, 4, &b), NQ_OK, "%s", info.name);
        cr_expect_eq(a.total.lo, oeis_value("A000170", n), "%s", info.name);
        cr_expect_eq(a.engine, i, "%s", info.name);
        cr_expect_eq(a.has_unique, info.has_unique, "%s", info.name);
        if (info.has_unique)
            cr_expect_eq(a.unique.lo, oeis_value("A002562", n), "%s", info.name);
        cr_expect_eq(a.simd != NQ_SIMD_AUTO, info.has_simd, "%s", info.name);
        cr_expect_eq(a.n_threads, 2, "%s: CPU workers", info.name);
        if (info.takes_prefix_rows)
            cr_expect(a.prefix_rows == 2 && b.prefix_rows == 4 && a.tasks != b.tasks,
                      "%s takes prefix rows: %d and %d rows placed", info.name, a.prefix_rows,
                      b.prefix_rows);
        else
            cr_expect(a.prefix_rows == b.prefix_rows && a.tasks == b.tasks,
                      "%s places its rows itself", info.name);
        cr_expect_eq(list_with(i, 6), info.can_list ? NQ_OK : NQ_EUNSUPPORTED, "%s", info.name);
    }
}

/* Engines of one task family make the same task set, and the family of a family is
 * itself. */
Test(unit, engine_info_task_families_share_tasks)
{
    for (int i = 0; i < engine_count; i++) {
        nq_engine_info info, fam;
        nq_settings s;
        nq_task_set a, b;

        cr_assert_eq(nq_engine_describe(i, &info), NQ_OK);
        cr_assert_eq(nq_engine_describe(info.task_family, &fam), NQ_OK);
        cr_expect_eq(fam.task_family, fam.engine, "%s", info.name);
        if (info.task_family == i || !info.built || !fam.built)
            continue;
        nq_default_settings(&s);
        s.n = 12;
        s.engine = i;
        cr_assert_eq(nq_task_set_describe(&s, &a), NQ_OK);
        s.engine = fam.engine;
        cr_assert_eq(nq_task_set_describe(&s, &b), NQ_OK);
        cr_expect(a.tasks == b.tasks && strcmp(a.params, b.params) == 0, "%s and %s", info.name,
                  fam.name);
    }
}

/* Auto counts with the built engine of highest rank whose range holds n, and its info
 * is what the engines it may pick have. */
Test(unit, engine_info_says_what_auto_picks)
{
    nq_engine_info any, want = {0};

    cr_assert_eq(nq_engine_describe(NQ_ENGINE_AUTO, &any), NQ_OK);
    cr_expect_str_eq(any.name, "auto");
    cr_expect_eq(any.auto_rank, 0);
    want.min_n = NQ_MAX_N + 1;
    for (int i = 0; i < engine_count; i++) {
        nq_engine_info e;
        cr_assert_eq(nq_engine_describe(i, &e), NQ_OK);
        if (!e.built || e.auto_rank <= 0)
            continue;
        want.min_n = e.min_n < want.min_n ? e.min_n : want.min_n;
        want.max_n = e.max_n > want.max_n ? e.max_n : want.max_n;
        want.takes_prefix_rows |= e.takes_prefix_rows;
        want.takes_devices |= e.takes_devices;
        want.has_simd |= e.has_simd;
        want.has_unique |= e.has_unique;
        want.can_list |= e.can_list;
    }
    cr_expect(any.min_n == want.min_n && any.max_n == want.max_n);
    cr_expect(any.takes_prefix_rows == want.takes_prefix_rows &&
              any.takes_devices == want.takes_devices && any.has_simd == want.has_simd &&
              any.has_unique == want.has_unique && any.can_list == want.can_list);
    for (int n = 1; n <= NQ_MAX_N; n++) {
        int best = -1, rank = 0;
        nq_settings s;
        for (int i = 0; i < engine_count; i++) {
            nq_engine_info e;
            cr_assert_eq(nq_engine_describe(i, &e), NQ_OK);
            if (e.built && e.auto_rank > rank && n >= e.min_n && n <= e.max_n)
                best = i, rank = e.auto_rank;
        }
        nq_default_settings(&s);
        s.n = n;
        s.n_threads = 2;
        cr_assert_eq(nq_resolve_settings(&s), NQ_OK, "n=%d", n);
        cr_expect_eq(s.engine, best, "n=%d: auto picked %s", n, nq_engine_name(s.engine));
    }
}

/* The library's vector paths are those of its built engines together
 * (engine_desc.simd_paths): nq_simd_built says which, nq_simd_usable which of them this
 * CPU runs (core/cpu.h's probe) and nq_simd_auto the widest of those; a value that names
 * no path is none of them, and a build's paths give auto only what this CPU runs. */
Test(unit, simd_answers_are_the_engines_paths)
{
    static const int no_path[] = {-1, NQ_SIMD_AVX512 + 1, 31, 32, 1000, INT_MIN, INT_MAX};
    unsigned paths = 0;
    int widest = -1;

    for (int i = 0; i < engine_count; i++)
        if (engine_table[i]->built && engine_table[i]->simd_paths)
            paths |= engine_table[i]->simd_paths();
    cr_expect(paths & CPU_SIMD_BIT(NQ_SIMD_SCALAR), "the scalar path is always built");
    for (int p = NQ_SIMD_SCALAR; p <= NQ_SIMD_AVX512; p++) {
        int built = (paths & CPU_SIMD_BIT(p)) != 0, runs = built && cpu_runs_simd(p);
        cr_expect_eq(nq_simd_built(p), built, "%s", nq_simd_name(p));
        cr_expect_eq(nq_simd_usable(p), runs, "%s", nq_simd_name(p));
        cr_expect_eq(cpu_simd_pick(CPU_SIMD_BIT(p), NQ_SIMD_AUTO), cpu_runs_simd(p) ? p : -1,
                     "auto among %s alone", nq_simd_name(p));
        widest = runs ? p : widest;
    }
    cr_expect_eq(nq_simd_auto(), widest, "auto ran %s, the widest is %s",
                 nq_simd_name(nq_simd_auto()), nq_simd_name(widest));
    cr_expect(nq_simd_built(NQ_SIMD_AUTO) && nq_simd_usable(NQ_SIMD_AUTO));
    cr_expect_eq(cpu_simd_pick(0, NQ_SIMD_AUTO), -1, "no paths, nothing to pick");
    for (size_t i = 0; i < sizeof(no_path) / sizeof(no_path[0]); i++) {
        cr_expect(!nq_simd_built(no_path[i]) && !nq_simd_usable(no_path[i]), "%d", no_path[i]);
        cr_expect_eq(cpu_simd_pick(~0u, no_path[i]), -1, "%d", no_path[i]);
        cr_expect(!cpu_runs_simd(no_path[i]), "%d", no_path[i]);
    }
}
