/* The d4 engine (its totals and unique counts against OEIS: lib/test_oeis.c): agreement
 * with the prefix engine, and the canonical test, weights and symmetric completions checked against
 * the reference engine's solutions (tests/reference.c, an independent engine). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine_check.h"
#include "engines/d4.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"
#include "reference.h"

Test(unit, agrees_with_prefix)
{
    static const int threads[] = {1, 2, 5};
    for (int n = 1; n <= 14; n++)
        for (size_t i = 0; i < sizeof(threads) / sizeof(threads[0]); i++) {
            nq_result d = engine_check_count(n, NQ_ENGINE_D4, threads[i], NQ_SIMD_AUTO);
            nq_result p = engine_check_count(n, NQ_ENGINE_PREFIX, threads[i], NQ_SIMD_AUTO);
            cr_expect_eq(d.total.lo, p.total.lo, "n=%d threads=%d", n, threads[i]);
            cr_expect_eq(p.has_unique, 0);
        }
}

/* The default is auto, which counts with d4 wherever the join engine's tables stop. */
Test(unit, default_engine_is_auto_and_d4_past_the_join)
{
    nq_settings s;
    nq_default_settings(&s);
    cr_expect_eq(s.engine, NQ_ENGINE_AUTO);
    s.n = nq_engine_max_n(NQ_ENGINE_JOIN) + 1;
    cr_assert_eq(nq_resolve_settings(&s), NQ_OK);
    cr_expect_eq(s.engine, NQ_ENGINE_D4);
    s.engine = NQ_ENGINE_AUTO;
    s.n = 12;
    cr_assert_eq(nq_resolve_settings(&s), NQ_OK);
    cr_expect_eq(s.engine, NQ_ENGINE_JOIN);
    cr_expect_str_eq(nq_engine_name(NQ_ENGINE_D4), "d4");
    cr_expect_eq(nq_engine_from_name("d4"), NQ_ENGINE_D4);
    cr_expect_eq(nq_engine_from_name("prefix"), NQ_ENGINE_PREFIX);
}

/* Borders whose symmetry is known by construction. */
Test(unit, stabiliser_of_known_borders)
{
    unsigned stab;
    /* a pinwheel: each side's queen one step from the corner, turning clockwise */
    const uint8_t pin[4] = {[D4_TOP] = 1, [D4_RIGHT] = 1, [D4_BOTTOM] = 6, [D4_LEFT] = 6};
    /* turned by 180 degrees onto itself only */
    const uint8_t half[4] = {[D4_TOP] = 1, [D4_BOTTOM] = 6, [D4_LEFT] = 3, [D4_RIGHT] = 4};
    /* a corner queen: the main diagonal fixes (0,0) but never the rest */
    const uint8_t corner[4] = {[D4_TOP] = 0, [D4_LEFT] = 0, [D4_BOTTOM] = 2, [D4_RIGHT] = 4};

    cr_assert(d4_border_valid(8, pin));
    cr_expect(d4_border_canonical(8, pin, &stab));
    cr_expect_eq(stab, 1u << D4_ID | 1u << D4_ROT90 | 1u << D4_ROT180 | 1u << D4_ROT270);

    cr_assert(d4_border_valid(8, half));
    d4_border_canonical(8, half, &stab);
    cr_expect_eq(stab, 1u << D4_ID | 1u << D4_ROT180);

    cr_assert(d4_border_valid(8, corner));
    cr_expect(d4_border_canonical(8, corner, &stab), "bottom 2 < right 4: the smaller one");
    cr_expect_eq(stab, 1u << D4_ID);

    /* the single square of n = 1 is fixed by all eight */
    const uint8_t one[4] = {0, 0, 0, 0};
    cr_assert(d4_border_valid(1, one));
    cr_expect(d4_border_canonical(1, one, &stab));
    cr_expect_eq(stab, 0xffu);
}

/* Every orbit of legal borders has exactly one canonical member, and |orbit| x |stab|
 * = 8: so the orbit-size weights count every legal border exactly once. */
Test(unit, one_canonical_border_per_orbit)
{
    for (int n = 1; n <= 9; n++) {
        uint64_t legal = 0, weighted = 0;
        uint8_t e[4], img[4];
        for (int i = 0; i < n * n * n * n; i++) {
            unsigned stab, canon = 0, orbit = 0;
            uint32_t seen[8];
            e[0] = (uint8_t)(i % n), e[1] = (uint8_t)(i / n % n);
            e[2] = (uint8_t)(i / n / n % n), e[3] = (uint8_t)(i / n / n / n);
            if (!d4_border_valid(n, e))
                continue;
            legal++;
            if (d4_border_canonical(n, e, &stab))
                weighted += 8u / (unsigned)__builtin_popcount(stab);
            for (int g = 0; g < 8; g++) {
                uint32_t key;
                int dup = 0;
                unsigned s2;
                d4_border_map(n, g, e, img);
                cr_assert(d4_border_valid(n, img), "symmetries keep borders legal");
                key = (uint32_t)img[0] << 24 | (uint32_t)img[1] << 16 | (uint32_t)img[2] << 8 |
                      img[3];
                for (unsigned k = 0; k < orbit; k++)
                    dup |= seen[k] == key;
                if (dup)
                    continue;
                seen[orbit++] = key;
                canon += (unsigned)d4_border_canonical(n, img, &s2);
            }
            cr_expect_eq(canon, 1, "n=%d: one canonical border per orbit", n);
            cr_expect_eq(orbit * (unsigned)__builtin_popcount(stab), 8u, "orbit-stabiliser");
        }
        cr_expect_eq(weighted, legal, "n=%d", n);
    }
}

/* Every solution of a board, from the reference engine (tests/reference.c). */
typedef struct solutions {
    int count;
    int (*q)[12];
} solutions;

static int keep_solution(void *user, const int *q, int n)
{
    solutions *s = user;
    memcpy(s->q[s->count++], q, (size_t)n * sizeof(int));
    return 0;
}

static void solution_border(int n, const int *sol, uint8_t e[4])
{
    e[D4_TOP] = (uint8_t)sol[0];
    e[D4_BOTTOM] = (uint8_t)sol[n - 1];
    for (int r = 0; r < n; r++) {
        if (sol[r] == 0)
            e[D4_LEFT] = (uint8_t)r;
        if (sol[r] == n - 1)
            e[D4_RIGHT] = (uint8_t)r;
    }
}

/* The solutions of board n with border e that symmetry g leaves unchanged. */
static uint64_t fixed_by(const solutions *s, int n, const uint8_t e[4], int g)
{
    uint64_t k = 0;
    for (int j = 0; j < s->count; j++) {
        uint8_t f[4];
        int img[12];
        solution_border(n, s->q[j], f);
        reference_image(n, g, s->q[j], img);
        k += memcmp(e, f, 4) == 0 && memcmp(s->q[j], img, (size_t)n * sizeof(int)) == 0;
    }
    return k;
}

/* The symmetric completions against the reference's: for every border fixed by a
 * symmetry, its completions that the symmetry leaves unchanged. */
Test(unit, symmetric_completions_match_the_reference)
{
    for (int n = 1; n <= 10; n++) {
        solutions s = {0, malloc(1000 * sizeof(int[12]))};
        cr_assert_not_null(s.q);
        cr_assert_leq(reference_list(n, NULL, NULL), 1000);
        reference_list(n, keep_solution, &s);
        cr_expect_eq(reference_unique(n), oeis_value("A002562", n), "reference n=%d", n);
        for (int i = 0; i < s.count; i++) {
            uint8_t e[4];
            unsigned stab;
            solution_border(n, s.q[i], e);
            d4_border_canonical(n, e, &stab);
            for (int g = 1; g < 8; g++)
                if (stab >> g & 1)
                    cr_expect_eq(d4_fixed_completions(n, e, g), fixed_by(&s, n, e, g), "n=%d g=%d",
                                 n, g);
        }
        free(s.q);
    }
}

/* Task ids are dense, in order, and the same in every enumeration; each task's raw
 * subtotal times its weight adds up to the total, its classes to the unique count. */
typedef struct tally {
    int n;
    uint64_t next, total, unique, ids_sum;
} tally;

static int on_task(void *user, const task *t)
{
    tally *y = user;
    uint64_t sub = d4_complete(y->n, t);
    cr_expect_eq(t->id, y->next++);
    cr_expect(t->weight == 8 || t->weight == 4 || t->weight == 2 || t->weight == 1);
    cr_expect_neq(t->last, 0);
    y->total += t->weight * sub;
    y->unique += d4_unique(y->n, t, sub);
    y->ids_sum += t->id ^ ((uint64_t)t->edge[0] << 40 | (uint64_t)t->last << 8);
    return 0;
}

Test(unit, tasks_are_dense_and_deterministic)
{
    for (int n = 1; n <= 12; n++) {
        tally a = {n, 0, 0, 0, 0}, b = {n, 0, 0, 0, 0};
        uint64_t k = d4_enumerate(n, on_task, &a);
        cr_expect_eq(k, a.next);
        cr_expect_eq(d4_enumerate(n, NULL, NULL), k);
        d4_enumerate(n, on_task, &b);
        cr_expect_eq(a.ids_sum, b.ids_sum, "same tasks in the same order");
        cr_expect_eq(a.total, oeis_value("A000170", n), "n=%d", n);
        cr_expect_eq(a.unique, oeis_value("A002562", n), "n=%d", n);
    }
}

/* Hooks see raw subtotals; a resumed run (half the tasks reused) gives the same counts,
 * unique included. */
typedef struct hooked {
    uint64_t sub[4096];
    _Atomic uint64_t calls;
} hooked;

static int record(void *user, uint64_t id, uint64_t sub)
{
    hooked *h = user;
    cr_assert_lt(id, 4096);
    h->sub[id] = sub + 1;
    h->calls++;
    return 0;
}

static int reuse_odd(void *user, uint64_t id, uint64_t *sub)
{
    hooked *h = user;
    if (!(id & 1))
        return 0;
    *sub = h->sub[id] - 1;
    return 1;
}

Test(unit, hooks_and_reuse)
{
    nq_settings s;
    nq_solver *sv;
    nq_result r;
    hooked *h = calloc(1, sizeof(*h));
    nq_hooks hk = {h, NULL, record};

    nq_default_settings(&s);
    s.n = 12;
    s.n_threads = 3;
    s.pin_threads = 0;
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
    cr_assert_eq(nq_count(sv, &hk, &r), NQ_OK);
    cr_expect_eq(h->calls, r.tasks);
    cr_expect_eq(r.unique.lo, oeis_value("A002562", 12));
    hk.reuse = reuse_odd;
    hk.task_done = NULL;
    memset(&r, 0, sizeof(r));
    cr_assert_eq(nq_count(sv, &hk, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", 12));
    cr_expect_eq(r.unique.lo, oeis_value("A002562", 12));
    nq_destroy_solver(&sv);
    free(h);
}

Test(unit, known_unique_table)
{
    nq_u128 v;
    for (int n = 1; n <= 27; n++) {
        cr_assert_eq(nq_known_unique(n, &v), NQ_OK);
        cr_expect_eq(v.lo, oeis_value("A002562", n), "n=%d", n);
    }
    cr_expect_eq(nq_known_unique(28, &v), NQ_EUNKNOWN);
}
