/* The join engine (its totals and unique counts against OEIS: lib/test_oeis.c): each task's
 * subtotal against a brute-force count of the solutions it stands for (tests/reference.c, an
 * independent engine), the disjoint-pair counter against the plain double loop, the half-board
 * makers against the scalar one, the symmetric solutions against the brute force, and a stopped run
 * resumed to the exact total. Every check of a count runs on each vector path this CPU has
 * (engine_check_next_simd), and says which one failed. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine_check.h"
#include "engine_parts.h"
#include "engine_table.h"
#include "engines/join.h"
#include "engines/join_halves.h"
#include "engines/join_kernel.h"
#include "engines/join_pairs.h"
#include "engines/join_pairs_naive.h"
#include "engines/join_ranges.h"
#include "engines/join_renaming.h"
#include "engines/join_split_sums.h"
#include "engines/join_sym.h"
#include "engines/join_tables.h"
#include "engines/join_tasks.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"
#include "reference.h"

/* ---- each task against the brute force ------------------------------------------------ */

#define MAX_TASKS 4096

typedef struct subtotals {
    uint64_t value[MAX_TASKS];
    int seen[MAX_TASKS];
    int duplicate;
} subtotals;

static int record(void *user, uint64_t id, uint64_t subtotal)
{
    subtotals *st = user;
    if (id >= MAX_TASKS || st->seen[id])
        st->duplicate = 1; /* checked after the run: no assert in a worker thread */
    else
        st->value[id] = subtotal, st->seen[id] = 1;
    return 0;
}

static uint64_t run_recording(int n, int threads, int simd, subtotals *st)
{
    nq_solver *sv = engine_check_solver(n, NQ_ENGINE_JOIN, threads, simd);
    nq_hooks h = {st, NULL, record};
    nq_result r;

    memset(st, 0, sizeof(*st));
    cr_assert_eq(nq_count(sv, &h, &r), NQ_OK, "n=%d simd=%s", n, nq_simd_name(simd));
    nq_destroy_solver(&sv);
    cr_assert_eq(r.simd, simd, "n=%d: ran %s", n, nq_simd_name(r.simd));
    cr_assert_eq(st->duplicate, 0, "a task id reported twice or out of range, n=%d simd=%s", n,
                 nq_simd_name(simd));
    return r.tasks;
}

/* The brute force's count per task key: solutions whose top rows take the columns
 * "top" and, on odd boards, whose middle row's queen is in column "middle". */
typedef struct by_key {
    int n;
    uint64_t *keys, *counts;
    size_t k, cap;
} by_key;

static uint64_t key_of(const int *q, int n)
{
    uint32_t top = 0;
    for (int r = 0; r < n / 2; r++)
        top |= 1u << q[r];
    return n % 2 ? (uint64_t)(q[n / 2] + 1) << 32 | top : top;
}

static int tally(void *user, const int *q, int n)
{
    by_key *b = user;
    uint64_t key = key_of(q, n);
    for (size_t i = 0; i < b->k; i++)
        if (b->keys[i] == key) {
            b->counts[i]++;
            return 0;
        }
    if (b->k == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->keys = realloc(b->keys, b->cap * sizeof(uint64_t));
        b->counts = realloc(b->counts, b->cap * sizeof(uint64_t));
        cr_assert(b->keys && b->counts);
    }
    b->keys[b->k] = key;
    b->counts[b->k++] = 1;
    return 0;
}

static uint64_t brute(const by_key *b, uint64_t key)
{
    for (size_t i = 0; i < b->k; i++)
        if (b->keys[i] == key)
            return b->counts[i];
    return 0;
}

/* What a task must count: on an even board the solutions whose top rows take its
 * columns; on an odd one those summed over the middle columns it stands for, each times
 * the size of its (top, middle) orbit. */
static uint64_t expected(const by_key *b, int n, uint32_t top)
{
    uint64_t sum = 0;
    if (n % 2 == 0)
        return brute(b, top);
    for (int m = 0; m < n; m++)
        sum += join_orbit_size(n, top, m) * brute(b, (uint64_t)(m + 1) << 32 | top);
    return sum;
}

typedef struct task_table {
    uint64_t payload[MAX_TASKS];
    uint32_t weight[MAX_TASKS];
    uint64_t k;
} task_table;

static int collect(void *user, const task *t)
{
    task_table *tl = user;
    cr_assert_eq(t->id, tl->k, "ids are dense and in order");
    cr_assert_lt(tl->k, MAX_TASKS);
    tl->payload[tl->k] = t->payload;
    tl->weight[tl->k++] = t->weight;
    return 0;
}

/* Every stride-th task's column set of the top side. */
typedef struct sampled {
    uint64_t stride;
    uint32_t top[64];
    int k;
} sampled;

static int sample(void *user, const task *t)
{
    sampled *sm = user;
    if (t->id % sm->stride == 0 && sm->k < 64)
        sm->top[sm->k++] = (uint32_t)t->payload;
    return 0;
}

/* Column set c of board n mirrored, a column at a time. */
static uint32_t mirrored(int n, uint32_t c)
{
    uint32_t r = 0;
    for (int j = 0; j < n; j++)
        if (c >> j & 1)
            r |= 1u << (n - 1 - j);
    return r;
}

/* The size of the orbit of (top, middle m; -1 on even boards) under the mirror and the
 * turn over, by the definition: its four images as keys (the middle first, then the top's
 * columns), the number of distinct ones where (top, m) has the least key, else 0 (also
 * where m is one of the top's columns). */
static uint32_t orbit_by_definition(int n, uint32_t top, int m)
{
    uint32_t bottom = board_mask(n) & ~top & ~(m >= 0 ? 1u << m : 0), size = 0;
    int mm = m >= 0 ? n - 1 - m : -1;
    uint64_t img[4] = {(uint64_t)(m + 1) << 32 | top, (uint64_t)(mm + 1) << 32 | mirrored(n, top),
                       (uint64_t)(m + 1) << 32 | bottom,
                       (uint64_t)(mm + 1) << 32 | mirrored(n, bottom)};

    if (m >= 0 && top >> m & 1)
        return 0;
    for (int i = 0; i < 4; i++) {
        int seen = 0;
        for (int j = 0; j < 4; j++) {
            if (img[j] < img[0])
                return 0;
            seen |= j < i && img[j] == img[i];
        }
        size += !seen;
    }
    return size;
}

/* join_reversed mirrors a column set as the definition does, on every n the tables take
 * and up to 32, on sets of every density (its swaps reverse all 32 bits, then shift). */
Test(unit, reversed_sets_are_mirrored)
{
    uint64_t state = 5;
    for (int n = 1; n <= 32; n++)
        for (int i = 0; i < 1000; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u; /* an LCG's top bits */
            uint32_t c = (uint32_t)(state >> 32) & board_mask(n);
            c &= i % 3 == 0 ? (uint32_t)(state >> 16) : ~0u; /* sparser sets too */
            cr_assert_eq(join_reversed(n, c), mirrored(n, c), "n=%d set=%#x", n, c);
        }
}

/* join_orbit_size is the definition's, on every top column set and middle of n <= 17
 * (off the centre it tells by the middle and one comparison). */
Test(unit, orbit_sizes_are_those_of_the_definition)
{
    for (int n = 1; n <= 17; n++) {
        uint32_t c = (1u << n / 2) - 1;
        for (;;) {
            for (int m = n % 2 ? 0 : -1; m < (n % 2 ? n : 0); m++)
                cr_assert_eq(join_orbit_size(n, c, m), orbit_by_definition(n, c, m),
                             "n=%d top=%#x middle=%d", n, c, m);
            if (n < 2 || join_next_subset(c) >> n)
                break;
            c = join_next_subset(c);
        }
    }
}

/* The next task of board n from column set *c on (colex order), by the definition: a
 * top column set is a task where some middle column (even n: none) makes it its orbit's
 * representative, each middle tried with the whole orbit test. */
typedef struct task_walk {
    int n;
    uint32_t c;
    int done;
} task_walk;

static int next_by_definition(task_walk *tw, uint32_t *top, uint32_t *weight)
{
    while (!tw->done) {
        uint32_t c = tw->c, w = 0;
        if (tw->n % 2 == 0)
            w = orbit_by_definition(tw->n, c, -1);
        for (int m = 0; tw->n % 2 && m < tw->n && !w; m++)
            w = orbit_by_definition(tw->n, c, m) != 0;
        tw->done = tw->n < 2 || join_next_subset(c) >> tw->n;
        if (!tw->done)
            tw->c = join_next_subset(c);
        if (w) {
            *top = c, *weight = w;
            return 1;
        }
    }
    return 0;
}

static int check_by_definition(void *user, const task *t)
{
    task_walk *tw = user;
    uint32_t top, weight;
    cr_assert(next_by_definition(tw, &top, &weight), "n=%d: task %llu past the last", tw->n,
              (unsigned long long)t->id);
    cr_assert_eq(t->payload, top, "n=%d task %llu", tw->n, (unsigned long long)t->id);
    cr_assert_eq(t->weight, weight, "n=%d task %llu", tw->n, (unsigned long long)t->id);
    return 0;
}

/* The tasks are those of the definition (join_tasks.h), in order, with their weights:
 * the test of odd boards' tops takes the lowest free middle left of the centre and the
 * centre only (join_tasks.c), the definition every middle. */
Test(unit, tasks_are_those_of_the_definition)
{
    for (int n = 1; n <= 21; n++) {
        task_walk tw = {n, n / 2 ? (1u << n / 2) - 1 : 0, 0};
        uint32_t top, weight;
        join_enumerate(n, check_by_definition, &tw, NULL);
        cr_assert_not(next_by_definition(&tw, &top, &weight), "n=%d: a task left out", n);
    }
}

/* The task count and the renaming's sample on the setup's threads (ranges of the top
 * column sets' colex ranks, each from its first set unranked: more than one range from
 * n = 18 on, 21 at n = 21) are join_enumerate's on one: the count, and the payloads of
 * every stride-th task in order. */
Test(unit, tasks_on_threads_are_those_of_one)
{
    static const int threads[3] = {1, 3, 64};

    for (int n = 1; n <= 21; n++) {
        uint64_t tasks = join_enumerate(n, NULL, NULL, NULL);
        uint64_t spreads[3] = {UINT64_MAX, 7, 64}; /* every task, then every (tasks / s + 1)-th */
        for (int t = 0; t < 3; t++)
            cr_assert_eq(join_task_count(n, threads[t], NULL), tasks, "n=%d threads=%d", n,
                         threads[t]);
        for (int i = 0; i < 3; i++) {
            sampled one = {tasks / spreads[i] + 1, {0}, 0};
            join_enumerate(n, sample, &one, NULL);
            for (int t = 0; t < 3; t++) {
                uint32_t top[64];
                size_t k = join_tasks_every(n, spreads[i], top, 64, threads[t], NULL);
                cr_assert_eq(k, (size_t)one.k, "n=%d threads=%d stride %llu", n, threads[t],
                             (unsigned long long)one.stride);
                cr_assert_eq(memcmp(top, one.top, k * sizeof(*top)), 0, "n=%d threads=%d", n,
                             threads[t]);
            }
        }
    }
}

Test(unit, subtotals_match_brute_force)
{
    static subtotals st;
    static task_table tl;

    for (int n = 1; n <= 10; n++) {
        by_key b = {n, NULL, NULL, 0, 0};

        reference_list(n, tally, &b);
        tl.k = 0;
        cr_assert_eq(join_enumerate(n, collect, &tl, NULL), tl.k);
        for (int p = engine_check_next_simd(NQ_SIMD_AUTO); p; p = engine_check_next_simd(p)) {
            const char *path = nq_simd_name(p);
            uint64_t weighted = 0;
            cr_assert_eq(run_recording(n, 2, p, &st), tl.k, "n=%d simd=%s", n, path);
            for (uint64_t id = 0; id < tl.k; id++) {
                cr_assert(st.seen[id], "n=%d simd=%s task %llu not reported", n, path,
                          (unsigned long long)id);
                cr_expect_eq(st.value[id], expected(&b, n, (uint32_t)tl.payload[id]),
                             "n=%d simd=%s task %llu", n, path, (unsigned long long)id);
                weighted += st.value[id] * tl.weight[id];
            }
            cr_expect_eq(weighted, oeis_value("A000170", n), "weighted sum n=%d simd=%s", n, path);
        }
        free(b.keys);
        free(b.counts);
    }
}

/* Beyond the brute force's reach, every path and thread count gives each task the
 * subtotal of the scalar path on one thread. */
Test(unit, subtotals_do_not_depend_on_threads_or_path)
{
    static subtotals one, more;
    static const int threads[] = {1, 2, 5};

    for (int n = 11; n <= 13; n++) {
        uint64_t tasks = run_recording(n, 1, NQ_SIMD_SCALAR, &one);
        for (int p = engine_check_next_simd(NQ_SIMD_AUTO); p; p = engine_check_next_simd(p))
            for (int i = p == NQ_SIMD_SCALAR; i < 3; i++) {
                cr_assert_eq(run_recording(n, threads[i], p, &more), tasks);
                for (uint64_t id = 0; id < tasks; id++)
                    cr_expect_eq(more.value[id], one.value[id], "n=%d task %llu threads=%d simd=%s",
                                 n, (unsigned long long)id, threads[i], nq_simd_name(p));
            }
    }
}

/* ---- a stop, then a run that reuses what was recorded ---------------------------------- */

typedef struct resume {
    subtotals st;
    int stop_after; /* task_done calls before asking the run to stop */
    int calls;
} resume;

static int stop_later(void *user, uint64_t id, uint64_t subtotal)
{
    resume *rs = user;
    if (__atomic_add_fetch(&rs->calls, 1, __ATOMIC_RELAXED) > rs->stop_after)
        return 1;
    return record(&rs->st, id, subtotal);
}

static int reuse_recorded(void *user, uint64_t id, uint64_t *subtotal)
{
    resume *rs = user;
    if (id < MAX_TASKS && rs->st.seen[id]) {
        *subtotal = rs->st.value[id];
        return 1;
    }
    return 0;
}

static void stop_and_resume(int n, int simd)
{
    static resume rs;
    const char *path = nq_simd_name(simd);
    nq_solver *sv = engine_check_solver(n, NQ_ENGINE_JOIN, 2, simd);
    nq_hooks first = {&rs, NULL, stop_later}, second = {&rs, reuse_recorded, record};
    nq_result r;

    memset(&rs, 0, sizeof(rs));
    rs.stop_after = 40;
    cr_assert_eq(nq_count(sv, &first, &r), NQ_ECALLBACK, "simd=%s", path);
    cr_assert_lt(r.total.lo, oeis_value("A000170", n), "simd=%s", path);
    cr_assert_eq(nq_count(sv, &second, &r), NQ_OK, "simd=%s", path);
    nq_destroy_solver(&sv);
    cr_expect_eq(r.simd, simd, "ran %s, asked for %s", nq_simd_name(r.simd), path);
    cr_expect_eq(r.total.lo, oeis_value("A000170", n), "total n=%d simd=%s", n, path);
    cr_expect_eq(r.unique.lo, oeis_value("A002562", n), "unique n=%d simd=%s", n, path);
    cr_expect_eq(rs.st.duplicate, 0, "simd=%s", path);
}

Test(unit, stopped_and_resumed_run_is_exact)
{
    for (int p = engine_check_next_simd(NQ_SIMD_AUTO); p; p = engine_check_next_simd(p))
        stop_and_resume(13, p);
}

/* ---- the disjoint-pair counter ------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Masks with about density/64 of each bit set, in the top bits where the counter sorts. */
static void random_masks(uint64_t *v, size_t k, int density)
{
    for (size_t i = 0; i < k; i++) {
        uint64_t m = 0;
        for (int bit = 20; bit < 64; bit++)
            if ((int)(next_random() % 64) < density)
                m |= (uint64_t)1 << bit;
        v[i] = m;
    }
}

/* Gives the masks of a side their top byte from tops[] in turn, and, with seconds, their
 * second byte from seconds[] in turn. */
typedef struct top_bytes {
    const uint8_t *tops;
    size_t ntops;
    const uint8_t *seconds;
    size_t nseconds;
} top_bytes;

static void set_top_bytes(uint64_t *v, size_t k, const top_bytes *tb)
{
    for (size_t i = 0; tb && i < k; i++) {
        v[i] = (v[i] & ~((uint64_t)0xff << 56)) | (uint64_t)tb->tops[i % tb->ntops] << 56;
        if (tb->nseconds)
            v[i] = (v[i] & ~((uint64_t)0xff << 48)) | (uint64_t)tb->seconds[i % tb->nseconds] << 48;
    }
}

/* Words past the room that a count is given, which it must leave as they were. */
#define GUARD 64
#define GUARD_WORD UINT64_C(0xa5a5a5a5a5a5a5a5)

static void guard(uint64_t *past)
{
    for (int i = 0; i < GUARD; i++)
        past[i] = GUARD_WORD;
}

static int guarded(const uint64_t *past)
{
    for (int i = 0; i < GUARD; i++)
        if (past[i] != GUARD_WORD)
            return 0;
    return 1;
}

/* The shares of a count (join_pairs_share), every one of three, add up to the count
 * (an estimate times a large count by one of them): each on a fresh copy of b. */
static void expect_shares_add_up(const join_kernel *jk, const uint64_t *a, size_t na,
                                 const uint64_t *b, size_t nb, uint64_t *own, uint64_t *tmp,
                                 void *work, uint64_t want)
{
    uint64_t sum = 0;

    for (uint64_t from = 0; from < 3; from++) {
        join_pairs_share share = {3, from, -1};
        memcpy(own, b, nb * sizeof(uint64_t));
        sum += jk->pairs_count(a, na, own, nb, tmp, work, NULL, &share);
        cr_expect(share.seconds >= 0, "%s: share %llu untimed", nq_simd_name(jk->simd),
                  (unsigned long long)from);
    }
    cr_expect_eq(sum, want, "%s, pext %d: %zu x %zu: the shares of three add up to %llu",
                 nq_simd_name(jk->simd), jk->pext, na, nb, (unsigned long long)sum);
}

/* a[0..na) against b[0..nb) by every built path, packing by pext and by tables, against
 * the double loop; each count on a copy of b, which it may overwrite, and a's masks as
 * they were after it (the engine counts one list of tops against many of bottoms); and
 * neither past b's nb masks nor past JOIN_PAIRS_TMP(max(na, nb)) of tmp. */
static void check_pairs_counted(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                                void *work, int density)
{
    uint64_t want = join_pairs_naive(a, na, b, nb);
    size_t room = JOIN_PAIRS_TMP(na > nb ? na : nb);
    uint64_t *own = malloc((nb + GUARD) * sizeof(uint64_t)),
             *was = malloc((na + 1) * sizeof(uint64_t));
    uint64_t *tmp = malloc((room + GUARD) * sizeof(uint64_t));

    cr_assert(own && was && tmp);
    memcpy(was, a, na * sizeof(uint64_t));
    for (int simd = NQ_SIMD_SCALAR; simd <= NQ_SIMD_AVX512; simd++)
        for (int pext = 0; pext <= 1; pext++) {
            const join_kernel *jk = join_kernel_packing(simd, pext);
            if (!jk)
                continue;
            memcpy(own, b, nb * sizeof(uint64_t));
            guard(own + nb);
            guard(tmp + room);
            cr_expect_eq(jk->pairs_count(a, na, own, nb, tmp, work, NULL, NULL), want,
                         "%s, pext %d: %zu x %zu, density %d", nq_simd_name(simd), pext, na, nb,
                         density);
            cr_expect(guarded(own + nb) && guarded(tmp + room),
                      "%s, pext %d: %zu x %zu, density %d: past its room (b's %d, tmp's %d)",
                      nq_simd_name(simd), pext, na, nb, density, !guarded(own + nb),
                      !guarded(tmp + room));
            cr_expect(na == 0 || memcmp(a, was, na * sizeof(uint64_t)) == 0,
                      "%s, pext %d: %zu x %zu, density %d: a's masks kept", nq_simd_name(simd),
                      pext, na, nb, density);
            expect_shares_add_up(jk, a, na, b, nb, own, tmp, work, want);
        }
    free(own);
    free(was);
    free(tmp);
}

/* Random masks of the given density on each side, their top bytes (and second) set from
 * ta and tb where given, counted by every built path against the double loop. */
static void check_pairs_shaped(size_t na, size_t nb, int density, const top_bytes *ta,
                               const top_bytes *tb)
{
    uint64_t *a = malloc((na + 1) * sizeof(uint64_t)), *b = malloc((nb + 1) * sizeof(uint64_t));
    void *work = aligned_alloc(JOIN_PAIRS_ALIGN, JOIN_PAIRS_WORK);

    cr_assert(a && b && work);
    random_masks(a, na, density);
    random_masks(b, nb, density);
    set_top_bytes(a, na, ta);
    set_top_bytes(b, nb, tb);
    check_pairs_counted(a, na, b, nb, work, density);
    free(a);
    free(b);
    free(work);
}

static void check_pairs(size_t na, size_t nb, int density)
{
    check_pairs_shaped(na, nb, density, NULL, NULL);
}

Test(unit, pairs_match_the_double_loop)
{
    static const size_t sizes[] = {0, 1, 7, 8, 9, 63, 500, 3001};
    static const int densities[] = {0, 4, 12, 24, 64};

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (size_t j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++)
            for (size_t d = 0; d < sizeof(densities) / sizeof(densities[0]); d++)
                check_pairs(sizes[i], sizes[j], densities[d]);
}

/* ---- the half-board makers ----------------------------------------------------------- */

static int cmp_mask(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* side's half-boards on cols without the bits forbid, by kernel jk, sorted (each kernel
 * writes them in an order of its own); returns how many. */
static size_t sorted_halves(const join_kernel *jk, const join_tables *jt, int side, uint32_t cols,
                            uint64_t forbid, join_buf *out)
{
    join_tables with = *jt;
    with.kernel = jk;
    size_t k = join_halves_growing(&with, side, cols, forbid, out);
    cr_assert_neq(k, SIZE_MAX, "%s: out of memory", nq_simd_name(jk->simd));
    qsort(out->v, k, sizeof(uint64_t), cmp_mask);
    return k;
}

/* The masks of v[0..k) without the bits forbid, moved to its front: how many. */
static size_t without_bits(uint64_t *v, size_t k, uint64_t forbid)
{
    size_t kept = 0;
    for (size_t i = 0; i < k; i++)
        if (!(v[i] & forbid))
            v[kept++] = v[i];
    return kept;
}

/* Both sides of the task (top, middle) by every usable kernel from the tables of two
 * blocks a side (jt2) and of three (jt3), without the bits forbid: the middle queen's,
 * none, or those and two value bits besides (as a value range's maker forbids them),
 * against the scalar kernel's half-boards from two blocks made without forbidden bits
 * and filtered after, so that the makers' early tests (a near block entry's, and with
 * three blocks a mid or far one's) stand against a plain filter. */
static void check_halves(const join_tables *jt2, const join_tables *jt3, uint32_t top, int middle,
                         join_buf *all, join_buf *want, join_buf *got)
{
    const join_kernel *scalar = join_kernel_find(NQ_SIMD_SCALAR);
    join_sides sd = join_task_sides(jt2, top, middle);
    const uint64_t value_bits = (uint64_t)0x8001 << 48;

    for (int side = 0; side < 2; side++) {
        size_t n_all = sorted_halves(scalar, jt2, side, sd.cols[side], 0, all);
        for (int f = 0; f < 3; f++) {
            uint64_t forbid = f == 0 ? 0 : f == 1 ? sd.forbid : sd.forbid | value_bits;
            cr_assert(join_buf_need(want, n_all) == 0);
            memcpy(want->v, all->v, n_all * sizeof(uint64_t));
            size_t k = without_bits(want->v, n_all, forbid);
            for (int parts = 2; parts <= 3; parts++)
                for (int p = NQ_SIMD_SCALAR; p; p = engine_check_next_simd(p)) {
                    const join_tables *jt = parts == 2 ? jt2 : jt3;
                    size_t kp =
                        sorted_halves(join_kernel_find(p), jt, side, sd.cols[side], forbid, got);
                    cr_expect(kp == k && memcmp(got->v, want->v, k * sizeof(uint64_t)) == 0,
                              "%s, %d blocks: n=%d side %d cols %#x forbid %#llx: %zu "
                              "half-boards, want %zu%s",
                              nq_simd_name(p), parts, jt->n, side, sd.cols[side],
                              (unsigned long long)forbid, kp, k, kp == k ? " (other masks)" : "");
                }
        }
    }
}

/* kernel->keep, the tops that fit a middle queen, on every path against a plain filter:
 * lengths about a vector's, past its input and in place, within its slack. */
Test(unit, keep_drops_the_masks_with_a_forbidden_bit)
{
    enum { MOST = 40, ROOM = 2 * MOST + JOIN_HALVES_SLACK };
    static const uint64_t forbids[] = {0, (uint64_t)1 << 63, UINT64_C(0x00f0000000300000),
                                       ~(uint64_t)0};
    uint64_t v[MOST], want[MOST], buf[ROOM + GUARD];

    for (int simd = NQ_SIMD_SCALAR; simd <= NQ_SIMD_AVX512; simd++) {
        const join_kernel *jk = join_kernel_find(simd);
        if (!jk)
            continue;
        for (size_t k = 0; k <= MOST; k++)
            for (size_t f = 0; f < sizeof(forbids) / sizeof(forbids[0]); f++)
                for (int in_place = 0; in_place < 2; in_place++) {
                    size_t nw = 0;
                    random_masks(v, k, 8);
                    for (size_t i = 0; i < k; i++)
                        if (!(v[i] & forbids[f]))
                            want[nw++] = v[i];
                    memcpy(buf, v, k * sizeof(uint64_t));
                    uint64_t *out = in_place ? buf : buf + k;
                    guard(out + k + JOIN_HALVES_SLACK);
                    size_t got = jk->keep(buf, k, forbids[f], out);
                    cr_expect(got == nw && memcmp(out, want, nw * sizeof(uint64_t)) == 0,
                              "%s: %zu masks, forbid %zu, in place %d: kept %zu of %zu",
                              nq_simd_name(simd), k, f, in_place, got, nw);
                    cr_expect(guarded(out + k + JOIN_HALVES_SLACK), "%s: %zu masks: past its slack",
                              nq_simd_name(simd), k);
                }
    }
}

/* Each kernel makes the same half-boards from two blocks a side and from three, with
 * and without forbidden bits: on the column sets of some tasks of several boards and
 * their mirror images (which are no task's), each middle queen of an odd board in turn. */
Test(unit, halves_agree_on_every_path)
{
    static const int boards[] = {2, 4, 5, 8, 9, 12, 13, 16, 17};
    join_buf all = {NULL, 0, 0}, want = {NULL, 0, 0}, got = {NULL, 0, 0};

    for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
        int n = boards[i];
        sampled sm = {join_enumerate(n, NULL, NULL, NULL) / 24 + 1, {0}, 0};
        const join_kernel *scalar = join_kernel_find(NQ_SIMD_SCALAR);
        join_tables jt2, jt3;

        cr_assert_eq(join_tables_init_parts(&jt2, n, scalar, 2, 1, NULL), 0, "n=%d", n);
        cr_assert_eq(join_tables_init_parts(&jt3, n, scalar, 3, 1, NULL), 0, "n=%d", n);
        join_enumerate(n, sample, &sm, NULL);
        for (int t = 0; t < sm.k; t++)
            for (int mirror = 0; mirror < 2; mirror++) {
                uint32_t top = mirror ? mirrored(n, sm.top[t]) : sm.top[t];
                for (int m = n % 2 ? 0 : -1; m < (n % 2 ? n : 0); m++)
                    if (m < 0 || !(top >> m & 1))
                        check_halves(&jt2, &jt3, top, m, &all, &want, &got);
            }
        join_tables_free(&jt2);
        join_tables_free(&jt3);
    }
    free(all.v);
    free(want.v);
    free(got.v);
}

/* What join_pieces_kept gave: the masks of every piece, and the pieces' sizes. */
typedef struct kept {
    join_buf all;
    size_t k, pieces, small;
    size_t most, step;
} kept;

static int keep_piece(void *user, uint64_t *v, size_t k)
{
    kept *kp = user;
    cr_assert(join_buf_need(&kp->all, kp->k + k) == 0);
    memcpy(kp->all.v + kp->k, v, k * sizeof(uint64_t));
    kp->k += k;
    kp->pieces++;
    kp->small += k + kp->step <= kp->most;
    return 0;
}

/* One side's half-boards cut by value (most masks a range) and each range made: each
 * holds the masks of its values and no other, at most most of them unless it is one
 * value, with the bits its common says; the ranges together are the side, mask for
 * mask. In pieces without the bits 0x8001 in their values, it is the side's masks
 * without them, in pieces past most less a step but the last. */
static void check_ranges(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                         size_t most, join_buf *want, join_buf *got)
{
    static join_values val; /* zero, as join_ranges_find wants it */
    static join_ranges r;
    join_buf buf = {NULL, 0, 0}, range = {NULL, 0, 0};
    join_far far = {{NULL, 0, 0}, {NULL, 0, 0}};
    join_maker mk = {jt, side, cols, forbid, most, &buf, &far};
    size_t k = sorted_halves(jt->kernel, jt, side, cols, forbid, want), at = 0, free_k = 0;
    kept kp = {{NULL, 0, 0}, 0, 0, 0, 4 * most, most};

    cr_assert_eq(join_ranges_find(&mk, most, &val, &r), k, "n=%d cols %#x", jt->n, cols);
    cr_assert(join_buf_reserve(got, k) == 0);
    for (uint32_t i = 0; i < r.n; i++) {
        size_t kr = join_range_make(&mk, &r, i, &range);
        uint32_t low = 0xffff, high = 0;
        cr_assert_eq(kr, r.masks[i]);
        for (size_t j = 0; j < kr; j++) {
            uint32_t v = (uint32_t)(range.v[j] >> JOIN_RANGE_SHIFT);
            cr_expect(v >= r.start[i] && v < r.start[i + 1] && (v & r.common[i]) == r.common[i],
                      "n=%d cols %#x range %u: value %#x", jt->n, cols, i, v);
            low = v < low ? v : low;
            high = v > high ? v : high;
            got->v[at++] = range.v[j];
        }
        cr_expect(kr <= most || low == high, "n=%d cols %#x most %zu: range %u of %zu masks", jt->n,
                  cols, most, i, kr);
    }
    qsort(got->v, at, sizeof(uint64_t), cmp_mask);
    cr_expect(at == k && memcmp(got->v, want->v, k * sizeof(uint64_t)) == 0,
              "n=%d side %d cols %#x most %zu: %zu masks in %u ranges, %zu whole", jt->n, side,
              cols, most, at, r.n, k);
    cr_assert_eq(join_pieces_kept(&mk, 0x8001, kp.most, &range, keep_piece, &kp), 0);
    for (size_t j = 0; j < k; j++)
        if ((want->v[j] >> JOIN_RANGE_SHIFT & 0x8001) == 0)
            want->v[free_k++] = want->v[j];
    if (kp.k) /* none kept: no buffer */
        qsort(kp.all.v, kp.k, sizeof(uint64_t), cmp_mask);
    cr_expect(kp.k == free_k && (!kp.k || memcmp(kp.all.v, want->v, kp.k * sizeof(uint64_t)) == 0),
              "n=%d side %d cols %#x: %zu kept, %zu without the bits", jt->n, side, cols, kp.k,
              free_k);
    cr_expect(kp.pieces == 0 || kp.small <= 1, "n=%d cols %#x: %zu of %zu pieces short", jt->n,
              cols, kp.small, kp.pieces);
    free(kp.all.v);
    free(buf.v);
    free(range.v);
    join_far_free(&far);
}

/* The value ranges of both sides of some tasks, two and three blocks a side, with and
 * without a middle queen (every third column), in ranges of one, 7 and 300 masks. */
Test(unit, value_ranges_hold_the_side)
{
    static const int boards[] = {8, 11, 12, 14};
    static const size_t mosts[] = {1, 7, 300};
    join_buf want = {NULL, 0, 0}, got = {NULL, 0, 0};

    for (size_t b = 0; b < sizeof(boards) / sizeof(boards[0]); b++)
        for (int parts = 2; parts <= 3; parts++) {
            int n = boards[b];
            sampled sm = {join_enumerate(n, NULL, NULL, NULL) / 6 + 1, {0}, 0};
            nq_settings s;
            nq_default_settings(&s);
            s.n = n;
            void *shared = join_shared_make(&s, parts, NULL);
            const join_tables *jt = shared; /* the shared tables come first */
            cr_assert(shared);
            join_enumerate(n, sample, &sm, NULL);
            for (int t = 0; t < sm.k; t++)
                for (int m = n % 2 ? 0 : -1; m < (n % 2 ? n : 0); m += n % 2 ? 3 : 1) {
                    if (m >= 0 && (sm.top[t] >> m & 1))
                        continue; /* no middle queen of the task */
                    join_sides sd = join_task_sides(jt, sm.top[t], m);
                    for (int side = 0; side < 2; side++)
                        for (size_t q = 0; q < sizeof(mosts) / sizeof(mosts[0]); q++)
                            check_ranges(jt, side, sd.cols[side], sd.forbid, mosts[q], &want, &got);
                }
            engine_find(NQ_ENGINE_JOIN)->shared_free(shared);
        }
    free(want.v);
    free(got.v);
}

/* ---- symmetric solutions ------------------------------------------------------------- */

typedef struct fixed {
    uint64_t half, quarter;
} fixed;

static int count_fixed(void *user, const int *q, int n)
{
    fixed *f = user;
    int half[32], quarter[32];
    reference_image(n, REF_ROT180, q, half);
    reference_image(n, REF_ROT90, q, quarter);
    f->half += memcmp(half, q, (size_t)n * sizeof(int)) == 0;
    f->quarter += memcmp(quarter, q, (size_t)n * sizeof(int)) == 0;
    return 0;
}

Test(unit, symmetric_solutions_match_brute_force)
{
    for (int n = 1; n <= 12; n++) {
        fixed f = {0, 0};
        reference_list(n, count_fixed, &f);
        cr_expect_eq(join_symmetric(n, 2, 0, 1), f.half, "half turn n=%d", n);
        cr_expect_eq(join_symmetric(n, 1, 0, 1), f.quarter, "quarter turn n=%d", n);
    }
}

Test(unit, refuses_boards_beyond_its_tables)
{
    nq_settings s;
    nq_solver *sv = NULL;

    nq_default_settings(&s);
    s.n = JOIN_MAX_N + 1;
    s.engine = NQ_ENGINE_JOIN;
    cr_expect_eq(nq_create_solver(&sv, &s), NQ_EINVAL);
    cr_expect_null(sv);
    s.engine = NQ_ENGINE_AUTO;
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK, "auto takes d4 beyond the join's range");
    nq_destroy_solver(&sv);
}

/* ---- memory ------------------------------------------------------------------------- */

/* The bytes the tables will take, found by a walk before any is made, are those that
 * join_tables_init makes: its blocks' entries and starts and the views (two words an
 * entry, three for a mid and far block); so are the bounds of the lists and the top
 * side's blocks. With two blocks a side and with three. */
Test(unit, table_bytes_are_those_the_tables_take)
{
    for (int parts = 2; parts <= 3; parts++)
        for (int n = 1; n <= 16; n++) {
            join_tables jt;
            uint64_t most = 0, step = 0, compose = 0, bytes = sizeof(join_tables);
            cr_assert_eq(
                join_tables_init_parts(&jt, n, join_kernel_find(NQ_SIMD_SCALAR), parts, 1, NULL), 0,
                "n=%d", n);
            for (int i = 0; i < jt.n_blocks; i++) {
                const join_block *b = &jt.block[i];
                bytes += (b->entries ? b->entries : 1) * sizeof(uint64_t) +
                         (jt.binom[n][b->k] + 1) * sizeof(uint32_t);
            }
            for (int side = 0; side < 2; side++) {
                for (int b = 0; b < parts; b++) {
                    uint64_t e = join_tables_block(&jt, jt.k[side][b])->entries;
                    bytes += (parts == 3 && b ? 3 : 2) * (e + JOIN_VIEW_SLACK) * sizeof(uint64_t);
                    most = e > most ? e : most;
                }
                step = jt.step_most[side] > step ? jt.step_most[side] : step;
                compose = jt.compose_most[side] > compose ? jt.compose_most[side] : compose;
            }
            join_census c = join_tables_census(n, parts);
            cr_expect_eq(c.bytes, bytes, "n=%d parts=%d", n, parts);
            cr_expect_eq(c.largest, most, "n=%d parts=%d", n, parts);
            cr_expect_eq(c.step_most, step, "n=%d parts=%d", n, parts);
            cr_expect_eq(c.compose_most, compose, "n=%d parts=%d", n, parts);
            cr_expect_arr_eq(c.k, jt.k[JOIN_TOP], sizeof(c.k), "n=%d parts=%d", n, parts);
            join_tables_free(&jt);
        }
}

/* From n = 25 a side is three blocks, whose lists (a near block times a far part) pass
 * a piece: the estimate counts each worker at the most its lists reach, its share of the
 * 64 MiB a worker (join.c), not at a quarter of the near block (1.3 GiB for 256 workers
 * at n = 25, where they may take 16.4). */
Test(unit, memory_estimate_holds_three_block_lists_at_their_most)
{
    nq_settings s;
    uint64_t one, two, limit;

    nq_default_settings(&s);
    s.engine = NQ_ENGINE_JOIN;
    for (int n = 25; n <= 27; n++) {
        s.n = n;
        s.n_threads = 1;
        cr_assert_eq(nq_memory_estimate(&s, &one, &limit), NQ_OK);
        s.n_threads = 2;
        cr_assert_eq(nq_memory_estimate(&s, &two, &limit), NQ_OK);
        cr_expect(two - one > ((uint64_t)60 << 20) && two - one <= ((uint64_t)64 << 20),
                  "n=%d: a worker %llu bytes", n, (unsigned long long)(two - one));
    }
}

/* settings.worker_memory sizes each worker of three blocks a side (lists at their most):
 * 256 MiB a worker adds 192 MiB a worker to the estimate, less than a list's rounding
 * off; the default's value given outright is the default; a value out of bounds is
 * refused. Seen failing with worker_bytes ignoring the setting. */
Test(unit, worker_memory_sizes_each_worker)
{
    nq_settings s;
    uint64_t base, more, same, limit, extra = (uint64_t)192 << 20;

    nq_default_settings(&s);
    s.engine = NQ_ENGINE_JOIN;
    s.n = 25;
    s.n_threads = 3;
    cr_assert_eq(nq_memory_estimate(&s, &base, &limit), NQ_OK);
    s.worker_memory = NQ_WORKER_MEMORY_DEFAULT;
    cr_assert_eq(nq_memory_estimate(&s, &same, &limit), NQ_OK);
    cr_expect_eq(same, base, "the default given outright");
    s.worker_memory = (uint64_t)256 << 20;
    cr_assert_eq(nq_memory_estimate(&s, &more, &limit), NQ_OK);
    cr_expect(more - base <= 3 * extra && more - base > 3 * (extra - 1024),
              "three workers of 256 MiB: %llu bytes more", (unsigned long long)(more - base));
    for (int i = 0; i < 4; i++) {
        static const uint64_t bad[] = {1, NQ_WORKER_MEMORY_MIN - 1, NQ_WORKER_MEMORY_MAX + 1,
                                       UINT64_MAX};
        s.worker_memory = bad[i];
        cr_expect_eq(nq_resolve_settings(&s), NQ_EINVAL, "worker_memory %llu",
                     (unsigned long long)bad[i]);
        cr_expect_eq(nq_memory_estimate(&s, &more, &limit), NQ_EINVAL);
    }
}

/* Counts with the least and a large worker memory, on three threads, are OEIS's. */
Test(unit, counts_at_any_worker_memory_are_oeis)
{
    static const uint64_t bytes[] = {NQ_WORKER_MEMORY_MIN, (uint64_t)1 << 30};

    for (int i = 0; i < 2; i++)
        for (int n = 12; n <= 15; n++) {
            nq_settings s;
            nq_solver *sv = NULL;
            nq_result r;

            nq_default_settings(&s);
            s.n = n;
            s.n_threads = 3;
            s.engine = NQ_ENGINE_JOIN;
            s.worker_memory = bytes[i];
            cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
            cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK);
            cr_expect_eq(r.total.lo, oeis_value("A000170", n), "n=%d, %llu bytes", n,
                         (unsigned long long)bytes[i]);
            nq_destroy_solver(&sv);
        }
}

Test(unit, count_past_its_memory_limit_is_refused)
{
    nq_settings s;
    nq_solver *sv = NULL;
    nq_result r;
    uint64_t need, limit;

    nq_default_settings(&s);
    s.n = 12;
    s.n_threads = 2;
    s.engine = NQ_ENGINE_JOIN;
    cr_assert_eq(nq_memory_estimate(&s, &need, &limit), NQ_OK);
    cr_expect_gt(limit, need, "the machine holds n=12's tables");
    s.n_threads = 4;
    uint64_t four;
    cr_assert_eq(nq_memory_estimate(&s, &four, &limit), NQ_OK);
    cr_expect_gt(four, need, "each worker has its scratch");
    s.memory_limit = four - 1;
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
    cr_expect_eq(nq_count(sv, NULL, &r), NQ_EMEMORY);
    cr_expect_eq(r.tasks, 0, "nothing ran");
    nq_destroy_solver(&sv);
    s.memory_limit = four;
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
    cr_assert_eq(nq_count(sv, NULL, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", 12));
    nq_destroy_solver(&sv);
    s.engine = NQ_ENGINE_D4;
    s.memory_limit = 1;
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
    cr_expect_eq(nq_count(sv, NULL, &r), NQ_OK, "d4 asks for no tables");
    nq_destroy_solver(&sv);
}

/* Each task's subtotal with every list reserved at one mask, so that completing grows the
 * lists on every path (the two sides, the tops that fit a middle queen past them, the
 * counter's tmp), equals the one with the lists at their reservation, on each vector path; the
 * weighted sum is the OEIS total. With a piece limit, the lists are made and paired a
 * piece at a time; unique[] (if not NULL) gets each task's Burnside term. */
static uint64_t complete_all(const engine_desc *e, const nq_settings *s, int parts, size_t reserve,
                             size_t piece, const task_table *tl, uint64_t *subtotal,
                             uint64_t *unique)
{
    void *shared = join_shared_make(s, parts, NULL);
    uint64_t weighted = 0;

    cr_assert(shared);
    if (reserve)
        join_shared_reserve(shared, reserve);
    if (piece)
        join_shared_pieces(shared, piece);
    void *scratch = e->worker_init(s, shared);
    engine_worker w = {.s = s, .shared = shared, .scratch = scratch};
    cr_assert(scratch);
    for (uint64_t id = 0; id < tl->k; id++) {
        task t = {.id = id, .payload = tl->payload[id], .weight = tl->weight[id]};
        cr_assert_eq(e->complete(&w, &t, &subtotal[id]), ENGINE_DONE, "n=%d task %llu", s->n,
                     (unsigned long long)id);
        if (unique)
            unique[id] = e->unique(&w, &t, subtotal[id]);
        weighted += subtotal[id] * tl->weight[id];
    }
    e->worker_free(scratch);
    e->shared_free(shared);
    return weighted;
}

/* Settings for board n on vector path p, and its tasks into tl. */
static nq_settings board_tasks(int n, int p, task_table *tl)
{
    nq_settings s;
    nq_default_settings(&s);
    s.n = n;
    s.simd = p;
    tl->k = 0;
    join_enumerate(n, collect, tl, NULL);
    return s;
}

Test(unit, lists_grow_past_their_reservation)
{
    static task_table tl;
    static uint64_t want[MAX_TASKS], got[MAX_TASKS];
    const engine_desc *e = engine_find(NQ_ENGINE_JOIN);

    for (int n = 1; n <= 13; n++)
        for (int p = engine_check_next_simd(NQ_SIMD_AUTO); p; p = engine_check_next_simd(p)) {
            nq_settings s = board_tasks(n, p, &tl);
            complete_all(e, &s, 2, 0, 0, &tl, want, NULL);
            cr_expect_eq(complete_all(e, &s, 2, 1, 0, &tl, got, NULL), oeis_value("A000170", n),
                         "n=%d simd=%s", n, nq_simd_name(p));
            for (uint64_t id = 0; id < tl.k; id++)
                cr_expect_eq(got[id], want[id], "n=%d simd=%s task %llu", n, nq_simd_name(p),
                             (unsigned long long)id);
        }
}

/* Lists made and paired in pieces (by their values: of one value each, and a few masks
 * each, up to n = 12, where every value is a piece of its own, made again each time; of
 * 300 masks to n = 14), and sides of three blocks (whole and in pieces), give every task
 * the subtotal and the Burnside term of the whole lists of two blocks, on each vector
 * path; the sums are the OEIS total and eight times the unique count. */
static void check_pieces(const nq_settings *s, int parts, size_t piece, const task_table *tl,
                         const uint64_t *want, const uint64_t *uwant)
{
    static uint64_t got[MAX_TASKS], ugot[MAX_TASKS];
    const engine_desc *e = engine_find(NQ_ENGINE_JOIN);
    const char *path = nq_simd_name(s->simd);
    uint64_t classes = 0;

    cr_expect_eq(complete_all(e, s, parts, 1, piece, tl, got, ugot), oeis_value("A000170", s->n),
                 "n=%d simd=%s parts %d piece %zu", s->n, path, parts, piece);
    for (uint64_t id = 0; id < tl->k; id++) {
        cr_expect(
            got[id] == want[id] && ugot[id] == uwant[id],
            "n=%d simd=%s parts %d piece %zu task %llu: %llu (unique %llu), whole %llu (%llu)",
            s->n, path, parts, piece, (unsigned long long)id, (unsigned long long)got[id],
            (unsigned long long)ugot[id], (unsigned long long)want[id],
            (unsigned long long)uwant[id]);
        classes += ugot[id];
    }
    cr_expect_eq(classes, 8 * oeis_value("A002562", s->n), "n=%d simd=%s parts %d piece %zu", s->n,
                 path, parts, piece);
}

Test(unit, lists_paired_in_pieces)
{
    static const size_t pieces[] = {1, 7, 300};
    static task_table tl;
    static uint64_t want[MAX_TASKS], uwant[MAX_TASKS];
    const engine_desc *e = engine_find(NQ_ENGINE_JOIN);

    for (int n = 1; n <= 14; n++)
        for (int p = engine_check_next_simd(NQ_SIMD_AUTO); p; p = engine_check_next_simd(p)) {
            nq_settings s = board_tasks(n, p, &tl);
            complete_all(e, &s, 2, 0, 0, &tl, want, uwant);
            check_pieces(&s, 3, 0, &tl, want, uwant);
            for (size_t q = 0; q < sizeof(pieces) / sizeof(pieces[0]); q++)
                for (int parts = 2; parts <= 3 && (pieces[q] >= 300 || n <= 12); parts++)
                    check_pieces(&s, parts, pieces[q], &tl, want, uwant);
        }
}

/* Every task's parts, in lists of two and three blocks, whole and (to n = 12) in pieces
 * of a few masks (many top ranges a middle column), on each vector path, each part whole
 * and parted again (its bottoms' pieces and blocks, where the stride passes the parts). */
Test(unit, task_parts_tile_the_task)
{
    static const size_t pieces[] = {0, 5};
    static const uint64_t strides[] = {2, 3, 7,
                                       8}; /* 8: parts and pieces strides of a common factor */
    static task_table tl;
    static uint64_t want[MAX_TASKS];
    const engine_desc *e = engine_find(NQ_ENGINE_JOIN);

    for (int n = 1; n <= 13; n++)
        for (int p = engine_check_next_simd(NQ_SIMD_AUTO); p; p = engine_check_next_simd(p)) {
            nq_settings s = board_tasks(n, p, &tl);
            complete_all(e, &s, 2, 0, 0, &tl, want, NULL);
            for (size_t q = 0; q < sizeof(pieces) / sizeof(pieces[0]) && (!q || n <= 12); q++)
                for (int parts = 2; parts <= 3; parts++) {
                    void *shared = join_shared_make(&s, parts, NULL);
                    if (pieces[q])
                        join_shared_pieces(shared, pieces[q]);
                    engine_worker w = {
                        .s = &s, .shared = shared, .scratch = e->worker_init(&s, shared)};
                    cr_assert(w.scratch);
                    for (uint64_t id = 0; id < tl.k; id++) {
                        task t = {.id = id, .payload = tl.payload[id], .weight = tl.weight[id]};
                        for (size_t k = 0; k < sizeof(strides) / sizeof(strides[0]); k++)
                            for (int a = 0; a < 2; a++)
                                check_parts(e, &w, &t, strides[k], a ? UINT64_MAX : 0, want[id]);
                        check_parts(e, &w, &t, UINT64_MAX, 0, want[id]);
                    }
                    e->worker_free(w.scratch);
                    e->shared_free(shared);
                }
        }
}

/* A worker whose run stops after `after` looks. */
typedef struct stop_after {
    int after, looks;
} stop_after;

static int stopping_after(const void *run)
{
    stop_after *sa = (stop_after *)run;
    return ++sa->looks > sa->after;
}

/* The pair counter looks at the stop after each chunk of 256 masks of the side it
 * transposes (the smaller here), so that a count of millions of masks a side (seconds at
 * n = 24) ends within a chunk of a stop. */
Test(unit, pairs_count_sees_the_stop_per_chunk)
{
    enum { NA = 40 * 256, NB = 30000 };
    uint64_t *a = malloc((NA + 1) * sizeof(uint64_t)), *b = malloc((NB + 1) * sizeof(uint64_t));
    uint64_t *own = malloc((NB + 1) * sizeof(uint64_t));
    uint64_t *tmp = malloc(JOIN_PAIRS_TMP(NB + 1) * sizeof(uint64_t));
    void *work = aligned_alloc(JOIN_PAIRS_ALIGN, JOIN_PAIRS_WORK);

    cr_assert(a && b && own && tmp && work);
    random_masks(a, NA, 6);
    random_masks(b, NB, 6);
    for (int simd = NQ_SIMD_SCALAR; simd <= NQ_SIMD_AVX512; simd++) {
        const join_kernel *jk = join_kernel_find(simd);
        if (!jk)
            continue;
        stop_after never = {1 << 30, 0}, soon = {3, 0};
        engine_worker wn = {.stopping = stopping_after, .run = &never};
        engine_worker ws = {.stopping = stopping_after, .run = &soon};
        memcpy(own, b, NB * sizeof(uint64_t)); /* each count overwrites its b */
        uint64_t whole = jk->pairs_count(a, NA, own, NB, tmp, work, &wn, NULL);
        memcpy(own, b, NB * sizeof(uint64_t));
        cr_expect_eq(whole, jk->pairs_count(a, NA, own, NB, tmp, work, NULL, NULL), "%s",
                     nq_simd_name(simd));
        cr_expect_eq(never.looks, NA / 256, "%s: one look a chunk", nq_simd_name(simd));
        memcpy(own, b, NB * sizeof(uint64_t));
        (void)jk->pairs_count(a, NA, own, NB, tmp, work, &ws, NULL);
        cr_expect_eq(soon.looks, 4, "%s: it stopped at the first look that said so",
                     nq_simd_name(simd));
    }
    free(own);
    free(a);
    free(b);
    free(tmp);
    free(work);
}

/* Masks of density/64 on the bits of set. */
static void masks_on(uint64_t *v, size_t k, uint64_t set, int density)
{
    random_masks(v, k, density);
    for (size_t i = 0; i < k; i++)
        v[i] = (v[i] | v[i] >> 20) & set; /* random_masks fills bits 20 to 63: all 64 */
}

/* Count pairs of masks on the bit sets sa and sb, every size of sizes[0..ns) at every
 * density of densities[0..nd), by every built path against the double loop. */
static void check_pairs_on(uint64_t sa, uint64_t sb, const size_t (*sizes)[2], size_t ns,
                           const int *densities, size_t nd)
{
    size_t most = 0;
    for (size_t i = 0; i < ns; i++)
        for (int side = 0; side < 2; side++)
            most = sizes[i][side] > most ? sizes[i][side] : most;
    uint64_t *a = malloc((most + 1) * sizeof(uint64_t)), *b = malloc((most + 1) * sizeof(uint64_t));
    void *work = aligned_alloc(JOIN_PAIRS_ALIGN, JOIN_PAIRS_WORK);

    cr_assert(a && b && work);
    for (size_t i = 0; i < ns; i++)
        for (size_t d = 0; d < nd; d++) {
            masks_on(a, sizes[i][0], sa, densities[d]);
            masks_on(b, sizes[i][1], sb, densities[d]);
            check_pairs_counted(a, sizes[i][0], b, sizes[i][1], work, densities[d]);
        }
    free(a);
    free(b);
    free(work);
}

/* A pair can meet only on the bits both sides use, and the counter packs those into the
 * top bits when they span fewer bytes than the side it transposes: every size of count
 * (the double loop, one bucket, buckets, sub-buckets), either side transposed, with the
 * shared bits scattered, in one byte, none at all, or spanning as many bytes (no
 * packing); the middle queen's two bits at odd n are such a case. */
Test(unit, shared_bits_packed)
{
    static const size_t sizes[][2] = {{40, 60}, {63, 500}, {3001, 500}, {500, 3001}, {9000, 8000}};
    static const int densities[] = {6, 24, 48};

    for (int shape = 0; shape < 5; shape++) {
        uint64_t sa = 0, sb = 0;
        for (int bit = 10; bit < 64; bit++) {
            uint64_t r = next_random() % 8, m = (uint64_t)1 << bit;
            sa |= shape == 1 ? (bit >= 56 || bit < 30 ? m : 0) : r < 6 ? m : 0;
            sb |= shape == 0   ? (r >= 3 ? m : 0)                  /* 3 in 8 bits shared */
                  : shape == 1 ? (bit >= 56 ? m : 0)               /* the top byte only */
                  : shape == 2 ? (r >= 6 ? m : 0)                  /* none */
                  : shape == 3 ? (r < 6 ? m : 0)                   /* all of a's: no packing */
                               : (bit != 37 && bit != 50 ? m : 0); /* all but two */
        }
        check_pairs_on(sa, sb, sizes, 5, densities, 3);
    }
}

/* A count whose looked-up side holds JOIN_PAIRS_WIDE_MIN masks or more cuts the bits
 * below the buckets' bytes into digits of up to ten bits, as equal as they can be: every
 * span of bits used from 1 to 48 (the top bits, or half of them and the span's lowest
 * bit alone, so that a digit in between holds no bit), in counts of one bucket, of
 * buckets, and of sub-buckets (a few shapes); the side looked up is the longer. */
Test(unit, wide_digits_cover_every_span)
{
    const size_t sizes[][2] = {{100, JOIN_PAIRS_WIDE_MIN + 100}, {300, JOIN_PAIRS_WIDE_MIN + 400}};
    static const int densities[] = {6, 24};

    for (int span = 1; span <= 48; span++)
        for (int shape = 0; shape < 2; shape++) {
            uint64_t set = shape
                               ? ~(uint64_t)0 << (64 - (span + 1) / 2) | (uint64_t)1 << (64 - span)
                               : ~(uint64_t)0 << (64 - span);
            check_pairs_on(set, set, sizes, 2, densities, 2);
        }
    /* sub-buckets: few top two bytes, random bits below them (20 to 47) */
    static const uint8_t tops[] = {0x01, 0x12, 0x40}, seconds[] = {0x01, 0x02, 0x0c, 0x30};
    const top_bytes tb = {tops, 3, seconds, 4};
    check_pairs_shaped(9000, 8000, 6, &tb, &tb);
    check_pairs_shaped(16000, 4500, 24, &tb, &tb);
}

/* The counter keeps to its room (check_pairs_counted's guards) whatever a count's shape:
 * masks of 54 bits (n = 27's, which no count packs here: both sides use every bit), a side
 * of 40,000 against one of 20 (no sort: the offsets of six digits would pass tmp, and the
 * pairs are tested one by one), 30 and 600 (sorted on one byte: the long side's offsets,
 * five digits, take the short side's list of tmp, and the side there goes home first),
 * either side the caller's own. */
Test(unit, pairs_keep_to_their_room)
{
    static const size_t sizes[][2] = {{20, 40000}, {40000, 20},  {30, 40000},
                                      {40000, 30}, {600, 40000}, {40000, 600}};
    static const int densities[] = {24};

    check_pairs_on(~(uint64_t)0 << 10, ~(uint64_t)0 << 10, sizes, 6, densities, 1);
}

/* Counts of 2^26 pairs and more sort on two bytes and prune by sub-buckets too. */
Test(unit, sub_buckets_match_the_double_loop)
{
    static const size_t sizes[][2] = {{9000, 8000}, {5800, 12000}, {16000, 4500}};
    static const int densities[] = {2, 6, 12, 24};

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (size_t d = 0; d < sizeof(densities) / sizeof(densities[0]); d++)
            check_pairs(sizes[i][0], sizes[i][1], densities[d]);
}

/* A chunk whose masks have one of two disjoint top bytes has no common bit, yet a bucket
 * of a top byte that meets both meets every mask of it and is counted without a lookup;
 * one that meets all but one mask is looked up. Full and partial chunks (1,000 masks: three of
 * 256 and one of 232), with buckets (2^20 pairs and more) and sub-buckets (2^26 and more,
 * few second bytes so that they are large); either side may be the one transposed. */
Test(unit, buckets_that_meet_every_mask_of_a_chunk)
{
    static const uint8_t two[] = {0x0f, 0xf0}, three[] = {0x03, 0x0c, 0x30};
    static const uint8_t meet[] = {0x11, 0x01, 0x33, 0x80, 0x00, 0x22, 0x44};
    static const uint8_t seconds[] = {0x01, 0x02, 0x0c, 0x30};
    const top_bytes t2 = {two, 2, NULL, 0}, t3 = {three, 3, NULL, 0}, tm = {meet, 7, NULL, 0};
    const top_bytes t2s = {two, 2, seconds, 4}, tms = {meet, 7, seconds, 4};
    static const int densities[] = {0, 6, 20};
    /* sorted, a first chunk of 255 masks of 0x0f and one of 0xf0: a bucket of 0x01 meets
     * all of them but one */
    uint8_t one_apart[257];
    const top_bytes t1 = {one_apart, 257, NULL, 0};

    /* and with sub-buckets: the 0xf0 masks' second byte 0x02, the others' 0x01; a bucket
     * of 0x01 and its sub-bucket of 0x04 meet all but one */
    uint8_t one_apart_second[257];
    static const uint8_t low[] = {0x01}, fours[] = {0x04, 0x08, 0x05};
    const top_bytes t1s = {one_apart, 257, one_apart_second, 257}, t4s = {low, 1, fours, 3};

    memset(one_apart, 0x0f, sizeof(one_apart));
    one_apart[255] = one_apart[256] = 0xf0;
    memset(one_apart_second, 0x01, sizeof(one_apart_second));
    one_apart_second[255] = one_apart_second[256] = 0x02;
    for (size_t d = 0; d < sizeof(densities) / sizeof(densities[0]); d++) {
        check_pairs_shaped(257, 4096, densities[d], &t1, &tm);
        check_pairs_shaped(257, 1 << 18, densities[d], &t1s, &t4s);
        check_pairs_shaped(1000, 2000, densities[d], &t2, &tm);
        check_pairs_shaped(2000, 1000, densities[d], &tm, &t3);
        check_pairs_shaped(1000, 1100, densities[d], &t3, &tm);
        check_pairs_shaped(9000, 8000, densities[d], &t2s, &tms);
    }
}

/* The renaming's bit counts, bit-sliced in bytes emptied every 255 masks, against one
 * increment per set bit: every length around that boundary, with all-ones masks (a
 * byte at 255) and random ones. */
Test(unit, bit_counts_match_one_count_per_bit)
{
    static const size_t lengths[] = {0, 1, 7, 254, 255, 256, 510, 511, 1000};
    static uint64_t v[1000];
    uint64_t state = 12345;

    for (int fill = 0; fill < 2; fill++)
        for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++) {
            uint64_t got[64] = {0}, want[64] = {0};
            for (size_t i = 0; i < lengths[l]; i++) {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                v[i] = fill ? state ^ state >> 29 : ~0ull;
                for (int b = 0; b < 64; b++)
                    want[b] += v[i] >> b & 1;
            }
            join_bit_counts(v, lengths[l], got);
            for (int b = 0; b < 64; b++)
                cr_assert_eq(got[b], want[b], "%s masks, %zu of them: bit %d",
                             fill ? "random" : "all-ones", lengths[l], b);
        }
}

/* side's bits on cols counted a piece at a time (what the renaming learns from, at most a
 * piece from a stop) are those of its whole list, for pieces of one mask to more than
 * the list; and a stop seen after the first piece ends the count there. */
static void check_side_bit_counts(const join_tables *jt, int side, uint32_t cols, join_buf *buf)
{
    static const size_t pieces[] = {1, 7, 300, 1 << 20};
    uint64_t want[64] = {0}, stopped[64] = {0}, whole = 0, cut = 0;
    size_t k = join_halves_growing(jt, side, cols, 0, buf);
    atomic_int stop = 1;

    cr_assert_neq(k, SIZE_MAX);
    join_bit_counts(buf->v, k, want);
    for (size_t p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++) {
        uint64_t got[64] = {0};
        cr_assert_eq(join_side_bit_counts(jt, side, cols, pieces[p], NULL, buf, got), 0);
        cr_assert_eq(memcmp(got, want, sizeof(want)), 0,
                     "n=%d, %d blocks, side %d, cols %#x, pieces of %zu", jt->n, jt->parts, side,
                     cols, pieces[p]);
    }
    cr_assert_eq(join_side_bit_counts(jt, side, cols, 1, &stop, buf, stopped), -1);
    for (int b = 0; b < 64; b++)
        whole += want[b], cut += stopped[b];
    cr_assert(k <= 1 + (size_t)jt->step_most[side] || cut < whole,
              "n=%d, %d blocks: a stop seen after the first piece of %zu masks counted %llu "
              "bits of %llu",
              jt->n, jt->parts, k, (unsigned long long)cut, (unsigned long long)whole);
}

/* ... on six random column sets a side, with two blocks a side and three. */
Test(unit, side_bit_counts_by_pieces_are_those_of_the_whole_list)
{
    static const int boards[] = {5, 9, 12, 13, 16};
    join_buf buf = {NULL, 0, 0};
    uint64_t state = 99;

    for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++)
        for (int parts = 2; parts <= 3; parts++) {
            const join_kernel *scalar = join_kernel_find(NQ_SIMD_SCALAR);
            join_tables jt;
            cr_assert_eq(join_tables_init_parts(&jt, boards[i], scalar, parts, 1, NULL), 0);
            for (int t = 0; t < 6; t++)
                for (int side = 0; side < 2; side++) {
                    uint32_t cols = 0;
                    while (__builtin_popcount(cols) < jt.rows[side]) {
                        state = state * 6364136223846793005ull + 1442695040888963407ull;
                        cols |= 1u << (state >> 33) % (uint64_t)jt.n;
                    }
                    check_side_bit_counts(&jt, side, cols, &buf);
                }
            join_tables_free(&jt);
        }
    free(buf.v);
}

/* The blocks of one thread's tables and another's: the same placements, ranks and order. */
static void check_blocks_equal(const join_tables *one, const join_tables *many)
{
    cr_assert_eq(one->n_blocks, many->n_blocks);
    for (int i = 0; i < one->n_blocks; i++) {
        const join_block *x = &one->block[i], *y = &many->block[i];
        uint64_t ranks = join_binomial(one->n, x->k);
        cr_assert_eq(x->k, y->k);
        cr_assert_eq(x->entries, y->entries, "n=%d k=%d", one->n, x->k);
        cr_assert_eq(memcmp(x->start, y->start, (ranks + 1) * sizeof(*x->start)), 0,
                     "n=%d k=%d: starts", one->n, x->k);
        cr_assert_eq(memcmp(x->rel, y->rel, x->entries * sizeof(*x->rel)), 0,
                     "n=%d k=%d: placements", one->n, x->k);
    }
}

/* The blocks, the views and the renaming built on several threads (core/split.h: the
 * blocks' walk by its first row's column, ranges of views' entries, and the sample's
 * tasks a part each) are those one thread builds, byte for byte, with two blocks a side
 * (from n = 1, blocks of no rows) and three (from n = 16 on the views are more than one
 * range of 16,384 entries). */
Test(unit, tables_on_threads_are_those_of_one)
{
    for (int parts = 2; parts <= 3; parts++)
        for (int n = parts == 3 ? 4 : 1; n <= 17; n += parts == 3 ? 3 : 1) {
            join_tables one, many;
            const join_kernel *kr = join_kernel_find(NQ_SIMD_SCALAR);
            cr_assert_eq(join_tables_init_parts(&one, n, kr, parts, 1, NULL), 0);
            cr_assert_eq(join_tables_init_parts(&many, n, kr, parts, 7, NULL), 0);
            check_blocks_equal(&one, &many);
            cr_assert_eq(memcmp(&one.rn, &many.rn, sizeof(one.rn)), 0, "n=%d: renaming", n);
            cr_assert_eq(memcmp(&one.turn, &many.turn, sizeof(one.turn)), 0, "n=%d: turn", n);
            for (int side = 0; side < 2; side++)
                for (int b = 0; b < parts; b++) {
                    const join_view *x = &one.view[side][b], *y = &many.view[side][b];
                    size_t bytes =
                        (join_tables_block(&one, one.k[side][b])->entries + JOIN_VIEW_SLACK) *
                        sizeof(uint64_t);
                    cr_assert_eq(memcmp(x->diag, y->diag, bytes), 0, "n=%d side %d block %d", n,
                                 side, b);
                    cr_assert_eq(memcmp(x->mask, y->mask, bytes), 0, "n=%d side %d block %d", n,
                                 side, b);
                    cr_assert_eq(!x->diag2, !y->diag2);
                    if (x->diag2)
                        cr_assert_eq(memcmp(x->diag2, y->diag2, bytes), 0, "n=%d", n);
                }
            join_tables_free(&one);
            join_tables_free(&many);
        }
}

/* The placements of block k on column set c (of no block: one, on no columns). */
static uint64_t placed(const join_tables *jt, int k, uint32_t c)
{
    if (k == 0)
        return c == 0;
    const join_block *b = join_tables_block(jt, k);
    uint32_t r = join_colex_rank(jt, c);
    return b->start[r + 1] - b->start[r];
}

/* The candidates of a side on cols, by the definition: its near, mid and far placements
 * on every split of cols, multiplied (two blocks: no mid block, k[2] = 0). */
static uint64_t candidates(const join_tables *jt, int side, uint32_t cols)
{
    const int *k = jt->k[side];
    uint64_t sum = 0;
    for (uint32_t c1 = cols;; c1 = (c1 - 1) & cols) {
        if (__builtin_popcount(c1) == k[0])
            for (uint32_t rest = cols & ~c1, c2 = rest;; c2 = (c2 - 1) & rest) {
                if (__builtin_popcount(c2) == k[1])
                    sum +=
                        placed(jt, k[0], c1) * placed(jt, k[1], c2) * placed(jt, k[2], rest & ~c2);
                if (!c2)
                    break;
            }
        if (!c1)
            break;
    }
    return sum;
}

/* The cost model's tables against the definition, on each task. */
typedef struct cost_check {
    const void *shared;
    uint64_t tasks;
    uint64_t every; /* the tasks checked: every such one (1: all) */
} cost_check;

/* A task's cost by the model's formula (join.c: the tops once, each middle's bottoms and
 * their product), from candidates counted by the definition, rounded as the table
 * keeps them. */
static double defined_cost(const join_tables *jt, uint32_t top)
{
    double ct = (float)candidates(jt, JOIN_TOP, top), sum = ct;
    for (int m = jt->n % 2 ? 0 : -1; m < (jt->n % 2 ? jt->n : 0); m++) {
        if (m >= 0 && !orbit_by_definition(jt->n, top, m))
            continue;
        join_sides sd = join_task_sides(jt, top, m);
        double cb = (float)candidates(jt, JOIN_BOTTOM, sd.cols[JOIN_BOTTOM]);
        sum += cb + ct * cb;
    }
    return sum;
}

static int check_cost(void *user, const task *t)
{
    cost_check *cc = user;

    if (cc->tasks++ % cc->every)
        return 0;
    double got = engine_find(NQ_ENGINE_JOIN)->task_cost(cc->shared, t),
           want = defined_cost(cc->shared, (uint32_t)t->payload);
    cr_expect(got == want && got > 0, "task %llu: cost %.9g, by the definition %.9g",
              (unsigned long long)t->id, got, want);
    return 0;
}

/* Every task of n, or every every-th, against its definition, with tables of parts
 * blocks a side made on threads; and a stop already set makes no tables. */
static void check_costs(int n, int parts, int threads, uint64_t every)
{
    const engine_desc *e = engine_find(NQ_ENGINE_JOIN);
    atomic_int stop = 1;
    nq_settings s;

    nq_default_settings(&s);
    s.n = n;
    s.n_threads = threads;
    cost_check cc = {join_shared_make(&s, parts, NULL), 0, every};
    cr_assert(cc.shared);
    cr_assert_eq(join_enumerate(n, check_cost, &cc, NULL), cc.tasks);
    e->shared_free((void *)cc.shared);
    cr_expect_null(join_shared_make(&s, parts, &stop), "n=%d: made past a stop", n);
}

/* The cost model of three blocks a side, whose table of every side column set is made
 * on the setup's threads in ranges of colex ranks (n = 16 and 17: three ranges or more),
 * gives every task the cost of its definition, on one thread and on seven (seen failing
 * with each range begun one set early); and a stop already set makes no tables (the
 * blocks see it first: the table's own look at the stop is for the minutes it takes at
 * n = 27, where a count was stopped by hand, docs/reliability.md). */
Test(unit, costs_on_threads_are_those_of_the_definition)
{
    for (int n = 16; n <= 17; n++)
        for (int threads = 1; threads <= 7; threads += 6)
            check_costs(n, 3, threads, 1);
}

/* The colex rank of a set, by the definition: the sets of its size before it. */
static uint64_t rank_by_definition(uint32_t set)
{
    uint64_t r = 0;
    int i = 1;
    for (int c = 0; c < 32; c++)
        if (set >> c & 1)
            r += join_binomial(c, i++);
    return r;
}

/* join_split_sums_range against the sum over each set's splits by the definition, for
 * every size of set up to 13 and of its near part (0 .. size), on boards of 13 to 27
 * columns: runs of sets from some ranks on (Gosper's walk, which keeps or moves the
 * set's high columns), near and far counts made up per set; with skip_mirrored, the
 * same sums but for the sets after their mirror images, left as they were; and
 * join_split_counts_range's, exact up to UINT32_MAX and saturated past it (the made-up
 * counts' products pass it: some sums must saturate). */
Test(unit, split_sums_are_those_of_the_definition)
{
    enum { MADE_UP = 1 << 22, RUN = 100 };
    static const int boards[] = {13, 20, 27};
    uint32_t *near = malloc(MADE_UP * sizeof(*near)), *far = malloc(MADE_UP * sizeof(*far));
    uint32_t binom[33][33], counted[RUN];
    float got[RUN], skipped[RUN];
    uint64_t saturated = 0, exact = 0;

    cr_assert(near && far);
    for (uint32_t v = 0; v < MADE_UP; v++) /* made up: any counts will do */
        near[v] = (uint32_t)(next_random() % 70000), far[v] = (uint32_t)(next_random() % 70000);
    for (int i = 0; i <= 32; i++)
        for (int j = 0; j <= 32; j++)
            binom[i][j] = j <= i ? (uint32_t)join_binomial(i, j) : 0;
    for (int b = 0; b < 3; b++)
        for (int size = 0; size <= JOIN_SPLIT_MOST; size++)
            for (int kn = 0; kn <= size; kn++) {
                int n = boards[b];
                uint64_t sets = join_binomial(n, size), from = sets / 3;
                uint64_t count = sets - from < RUN ? sets - from : RUN;
                if (join_binomial(n, kn) > MADE_UP || join_binomial(n, size - kn) > MADE_UP)
                    continue; /* past the made-up tables */
                join_split_sums ss = {n, size, kn, near, far, (const uint32_t(*)[33])binom, 0};
                uint32_t c = join_colex_unrank(from, size);
                join_split_sums_range(&ss, c, count, got);
                join_split_counts_range(&ss, c, count, counted);
                ss.skip_mirrored = 1;
                for (uint64_t r = 0; r < count; r++)
                    skipped[r] = -1;
                join_split_sums_range(&ss, c, count, skipped);
                for (uint64_t r = 0; r < count; r++) {
                    cr_assert_eq(skipped[r], mirrored(n, c) < c ? -1 : got[r],
                                 "n=%d size %d near %d set %#x, mirror images skipped", n, size, kn,
                                 c);
                    join_cols cl = join_list_cols(c);
                    uint64_t want = 0;
                    for (uint32_t x = 0; x < 1u << size; x++)
                        if (__builtin_popcount(x) == kn) {
                            uint32_t c1 = join_pick(&cl, x);
                            want += (uint64_t)near[rank_by_definition(c1)] *
                                    far[rank_by_definition(c & ~c1)];
                        }
                    cr_assert_eq(got[r], (float)want, "n=%d size %d near %d set %#x", n, size, kn,
                                 c);
                    cr_assert_eq(counted[r], want < UINT32_MAX ? want : UINT32_MAX,
                                 "n=%d size %d near %d set %#x, counted", n, size, kn, c);
                    saturated += want >= UINT32_MAX;
                    exact += want < UINT32_MAX;
                    if (r + 1 < count)
                        c = join_next_subset(c);
                }
            }
    cr_expect(saturated > 0 && exact > 0, "%llu sums saturated, %llu exact",
              (unsigned long long)saturated, (unsigned long long)exact);
    free(near);
    free(far);
}

/* Below JOIN_COST_TABLE_FROM a task sums its sides' candidates itself: every task of an
 * odd board (a bottom per middle column) and of an even one gets the cost of its
 * definition, as with the table. */
Test(unit, costs_below_the_table_are_those_of_the_definition)
{
    check_costs(15, 2, 1, 1);
    check_costs(16, 2, 1, 1);
}

/* Boards of two blocks a side have the cost table from JOIN_COST_TABLE_FROM on: every
 * 997th task of n = 21 gets the cost of its definition, on one thread and on three (seen
 * failing with one more in every set's cost at n = 21). */
Test(unit, costs_of_odd_boards_from_the_table_are_those_of_the_definition)
{
    check_costs(JOIN_COST_TABLE_FROM, 2, 1, 997);
    check_costs(JOIN_COST_TABLE_FROM, 2, 3, 997);
}
