/* The join engine's descriptor and the count of one task. A task (join_tasks.c) is one
 * column set C of the top rows,
 * canonical under the symmetries that keep the split at row h: the mirror (C reversed)
 * and, for even n, the turn over of the board (C to its complement, whose halves swap
 * sides). Its subtotal is the number of solutions whose top rows take C, its weight the
 * size of C's orbit. Unique counts come by Burnside's lemma: classes = (Q + F180 +
 * 2 F90) / 8, with the solutions fixed by a turn counted per task (join_sym.c). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "core/board.h"
#include "core/clock.h"
#include "core/engine.h"
#include "core/split.h"
#include "core/stop.h"
#include "engines/join.h"
#include "engines/join_halves.h"
#include "engines/join_kernel.h"
#include "engines/join_pairs.h"
#include "engines/join_ranges.h"
#include "engines/join_split_sums.h"
#include "engines/join_sym.h"
#include "engines/join_tables.h"
#include "engines/join_tasks.h"
#include "engines/prefix.h"

/* The weight of a candidate pair against a candidate of one side (the fit of docs/
 * engines.md). */
#define JOIN_COST_PAIR 1.0

/* Whether a turn can fix a solution of the task (top, middle): it takes the top's
 * columns to the bottom's, reversed, and keeps an odd board's middle queen in the middle
 * column. */
static int turn_may_fix(int n, uint32_t top, int middle)
{
    uint32_t bottom = board_mask(n) & ~top;
    if (middle >= 0)
        bottom &= ~(1u << middle);
    return n > 1 && join_reversed(n, top) == bottom && (middle < 0 || middle == n / 2);
}

/* ---- counting one task ------------------------------------------------------------------ */

typedef struct join_scratch {
    join_buf side[2], tmp;    /* the two sides' half-boards, the pair counter's tmp */
    join_far far;             /* three blocks a side: a far part's entries */
    size_t piece;             /* the masks a piece of half-boards reaches */
    uint64_t fixed_id, fixed; /* the last task's turn-fixed solutions, for join_unique */
    void *work;               /* the pair counter's tables (JOIN_PAIRS_WORK bytes) */
    /* a task whose tops pass a piece: their values and ranges (join_ranges.h; untouched,
     * and so not resident, until such a task) */
    join_values values;
    join_ranges range;
    /* an estimate's task of such tops: each middle column's ranges and the CPU time of
     * their cut (task_parts), so that a middle none of whose parts is taken is passed
     * over, not cut again, its cut there being the count's */
    uint64_t middle_parts[JOIN_MAX_N];
    double middle_seconds[JOIN_MAX_N];
} join_scratch;

/* What a count's workers share: the tables, and the cost model's counts. Below
 * JOIN_COST_TABLE_FROM (two blocks a side) these are each side's placements of its
 * near and far blocks on every column set, indexed by the set itself, so that a task's
 * cost takes no rank computations (2^n entries each; join_task_cost); sides of the same
 * blocks share them. From there on, and with three blocks, they are the cost table. */
typedef struct join_shared {
    join_tables jt;       /* first: the kernels take it alone */
    uint16_t *near_by[2]; /* at most JOIN_BLOCK_SET_MOST placements on a set */
    uint16_t *far_by[2];
    /* the table (the sides alike): each side column set's candidates, by colex rank, so
     * that a task's cost is a few lookups, not a sum per side and middle column (which
     * took most of a minute of the estimate at n = 25); near_by and far_by are NULL */
    float *cost_by_rank;
    size_t reserve;        /* the masks each list of a worker holds before its first task */
    size_t piece;          /* the masks a piece of half-boards reaches (join_halves_piece) */
    uint64_t step_most;    /* the larger side's jt.step_most */
    uint64_t compose_most; /* the larger side's jt.compose_most */
} join_shared;

_Static_assert(JOIN_MAX_N <= 27 && JOIN_BLOCK_SET_MOST <= UINT16_MAX,
               "a block has at most 6 rows, whose placements on a set near_by counts");

/* The placements of the k-row block on each column set, indexed by the set. */
static uint16_t *placements_by_set(const join_tables *jt, int k)
{
    const join_block *b = join_tables_block(jt, k);
    uint16_t *by = calloc((size_t)1 << jt->n, sizeof(*by));
    uint32_t r = 0;

    /* Gosper's order of the k-sets is colex order: the block's rank order */
    for (uint32_t c = k ? (1u << k) - 1 : 0; by && !(c >> jt->n); r++) {
        by[c] = (uint16_t)(b->start[r + 1] - b->start[r]);
        if (k == 0)
            break;
        c = join_next_subset(c);
    }
    return by;
}

/* The near x far part candidates that join_halves tests for one side on columns cols:
 * its work, and an upper bound on the half-boards it makes. */
static uint64_t side_candidates(const join_shared *sh, int side, uint32_t cols)
{
    const uint16_t *near = sh->near_by[side], *far = sh->far_by[side];
    int kn = sh->jt.near[side], m = __builtin_popcount(cols);
    uint32_t x = kn ? (1u << kn) - 1 : 0;
    uint64_t sum = 0;
#if !defined(__BMI2__)
    join_cols cl = join_list_cols(cols);
#endif

    for (;;) {
#if defined(__BMI2__)
        uint32_t c1 = _pdep_u32(x, cols); /* the members of cols that x's index bits pick */
#else
        uint32_t c1 = join_pick(&cl, x);
#endif
        sum += (uint64_t)near[c1] * far[cols & ~c1];
        if (kn == 0 || kn == m)
            break;
        x = join_next_subset(x);
        if (x >> m)
            break;
    }
    return sum;
}

/* The candidates of a side's column set: side_candidates, or its table (three blocks). */
static double side_cost(const join_shared *sh, int side, uint32_t cols)
{
    if (sh->cost_by_rank)
        return sh->cost_by_rank[join_colex_rank(&sh->jt, cols)];
    return (double)side_candidates(sh, side, cols);
}

/* Whether the cost model reads every side column set's candidates from a table made
 * once (cost_table) rather than summing them per task: with three blocks a side, where
 * the sums took minutes at n = 27, and on every board from n = 21 (JOIN_COST_TABLE_FROM).
 * An odd board's tasks sum a bottom per middle column, each set's 3.3 times over (n = 21:
 * 1,155,044 sums on 352,716 sets): the estimate's costs at n = 23 took 13 s. An even
 * board's sum each set about once, but by set, two misses of the cache a product: the
 * pricing at n = 24 took 9 s of a 5 s estimate, where the table, by rank and a set or
 * its mirror image, takes about a second of the setup. Not below, where the table would
 * add to every count's setup what only an estimate or a slice's cut needs (n = 15: 1.6 ms
 * of a 40 ms count). */
static int costs_by_table(int n, int parts)
{
    return parts == 3 || n >= JOIN_COST_TABLE_FROM;
}

/* The bytes of a worker's far part buffers for far parts of at most compose masks. */
static uint64_t far_bytes(uint64_t compose)
{
    return compose ? 2 * (compose + JOIN_VIEW_SLACK) * sizeof(uint64_t) : 0;
}

/* The lists of a worker: the two sides and the pair counter's tmp (JOIN_PAIRS_TMP), in
 * quarters of a list as long as a side. Their length is what bounds the pieces, and
 * longer pieces prune far better (docs/join.md): nothing else takes a list's room. */
#define WORKER_QUARTERS (2 * 4 + JOIN_PAIRS_TMP_QUARTERS)

/* The masks one list of a worker holds at most: its lists share what the worker's bytes
 * (engine_worker_bytes) leave past the rest. A worker's working set, its lists of
 * half-boards, a far part and the pair counter's tables, is at most those bytes,
 * whatever n: lists longer than their share are made and paired a piece at a time, so
 * that memory grows with the shared tables, not with the threads. */
static size_t list_most(uint64_t bytes, uint64_t compose)
{
    uint64_t lists = bytes - sizeof(join_scratch) - JOIN_PAIRS_WORK -
                     JOIN_PAIRS_TMP_SMALL * sizeof(uint64_t) - far_bytes(compose);

    assert(bytes >= NQ_WORKER_MEMORY_MIN && lists < bytes);
    return (size_t)(lists / sizeof(uint64_t) * 4 / WORKER_QUARTERS) - JOIN_HALVES_SLACK;
}

/* The masks a piece of half-boards reaches: a list's most, less the room one more
 * step of the maker may take past the limit (step_most). */
static size_t piece_limit(uint64_t bytes, uint64_t step_most, uint64_t compose)
{
    size_t most = list_most(bytes, compose);
    return step_most + 1 < most ? most - (size_t)step_most : 1;
}

/* The masks a worker's lists reserve for a count whose largest block has largest
 * placements: a quarter of them, up to a list's most. Measured, the longest list of
 * half-boards of a whole count is 0.05 to 0.18 of them at n = 12..22 (docs/join.md), and
 * each step of the maker asks room for at most step_most masks past it. */
static size_t list_reserve(uint64_t bytes, uint64_t largest, uint64_t compose)
{
    size_t r = largest / 4 > 1024 ? (size_t)(largest / 4) : 1024;
    return r < list_most(bytes, compose) ? r : list_most(bytes, compose);
}

/* The bytes of the cost model's counts for board n of parts blocks a side of k rows:
 * the near and far blocks' by set (two tables of 2^n); or with the table, its floats,
 * and the counts by rank it is summed from: the near block's and the far part's, and
 * while the far part's are summed (three blocks), the mid and far blocks'. */
static uint64_t cost_bytes(int n, int parts, const int k[3])
{
    int rows = k[0] + k[1] + k[2];
    uint64_t counts = join_binomial(n, k[0]) + join_binomial(n, rows - k[0]);

    if (!costs_by_table(n, parts))
        return ((uint64_t)1 << n) * 2 * sizeof(uint16_t);
    if (parts == 3)
        counts += join_binomial(n, k[1]) + join_binomial(n, k[2]);
    return counts * sizeof(uint32_t) + join_binomial(n, rows) * sizeof(float);
}

/* The tables, exact, the cost model's counts (cost_bytes), and each worker's scratch:
 * its pair-counter tables, its far part and its lists (WORKER_QUARTERS) at their
 * reservation, which no measured count of two blocks a side outgrew and none can pass
 * from n = 21 on, where it is the lists' most; or with three blocks (n >= 25), whose
 * lists are a near block times a far part and grow past a quarter of a block to a
 * piece, at their most (engine_worker_bytes in all: n = 27 on 256 workers 16.3 GiB, where
 * the reservation said 14.8, and at n = 25 16.0 GiB, not 1.3). */
static uint64_t join_memory_bytes(const nq_settings *s)
{
    int parts = join_parts(s->n);
    join_census c = join_tables_census(s->n, parts);
    uint64_t reserve = parts == 3 ? list_most(engine_worker_bytes(s), c.compose_most)
                                  : list_reserve(engine_worker_bytes(s), c.largest, c.compose_most);
    uint64_t lists =
        (WORKER_QUARTERS * (reserve + JOIN_HALVES_SLACK) + 3) / 4 + JOIN_PAIRS_TMP_SMALL;
    uint64_t worker = sizeof(join_scratch) + JOIN_PAIRS_WORK + far_bytes(c.compose_most) +
                      lists * sizeof(uint64_t);
    return c.bytes + cost_bytes(s->n, parts, c.k) + (uint64_t)s->n_threads * worker;
}

/* The placements of the largest block of either side. */
static uint64_t largest_block(const join_tables *jt)
{
    uint64_t most = 0;
    for (int side = 0; side < 2; side++)
        for (int b = 0; b < jt->parts; b++) {
            uint64_t e = join_tables_block(jt, jt->k[side][b])->entries;
            most = e > most ? e : most;
        }
    return most;
}

static void join_shared_free(void *p)
{
    join_shared *sh = p;
    for (int side = 0; side < 2; side++) {
        if (side == 0 || sh->near_by[1] != sh->near_by[0])
            free(sh->near_by[side]);
        if (side == 0 || sh->far_by[1] != sh->far_by[0])
            free(sh->far_by[side]);
    }
    free(sh->cost_by_rank);
    join_tables_free(&sh->jt);
    free(sh);
}

/* Whether the two sides have the same blocks, so that they share their counts. */
static int same_blocks(const join_tables *jt)
{
    return memcmp(jt->k[0], jt->k[1], sizeof(jt->k[0])) == 0;
}

/* The column sets a thread of the cost table takes at a time: some 1,300 products each
 * at n = 27, a few milliseconds, so that a stop is seen within a second. */
#define COST_GRAIN ((uint64_t)1 << 12)

/* The cost table, or a far part's counts, under way: the sums it makes (the sides are
 * alike), where they go (by, or else counts), the stop. */
typedef struct cost_fill {
    join_split_sums ss;
    const join_tables *jt;
    float *by;
    uint32_t *counts;
    const atomic_int *stop;
} cost_fill;

/* The sums of a range of sets (with the table's skip_mirrored, of those no lower than
 * their mirror images). */
static int cost_range(void *user, int part, uint64_t lo, uint64_t hi)
{
    const cost_fill *cf = user;
    uint32_t first = join_colex_unrank(lo, cf->ss.size);

    (void)part;
    if (stop_seen(cf->stop))
        return -1;
    if (cf->by)
        join_split_sums_range(&cf->ss, first, hi - lo, cf->by + lo);
    else
        join_split_counts_range(&cf->ss, first, hi - lo, cf->counts + lo);
    return 0;
}

/* The others': their mirror images' (a block's placements on a set and on its image are
 * as many). */
static int mirror_range(void *user, int part, uint64_t lo, uint64_t hi)
{
    const cost_fill *cf = user;
    uint32_t c = join_colex_unrank(lo, cf->ss.size);

    (void)part;
    if (stop_seen(cf->stop))
        return -1;
    for (uint64_t r = lo; r < hi; r++) {
        uint32_t image = join_reversed(cf->ss.n, c);
        if (image < c)
            cf->by[r] = cf->by[join_colex_rank(cf->jt, image)];
        if (r + 1 < hi)
            c = join_next_subset(c);
    }
    return 0;
}

/* The placements of the k-row block on each column set, by colex rank. */
static uint32_t *placements_by_rank(const join_tables *jt, int k)
{
    const join_block *b = join_tables_block(jt, k);
    uint64_t sets = jt->binom[jt->n][k];
    uint32_t *by = malloc(sets * sizeof(*by));

    for (uint64_t r = 0; by && r < sets; r++)
        by[r] = b->start[r + 1] - b->start[r];
    return by;
}

/* A side's far part's candidates on every column set, by colex rank: its far block's
 * placements (two blocks), or its mid x far placement pairs over the splits of the set
 * (three: n = 27's 2.2 M sets of 70 splits each, once 1.5 s of one thread), on the
 * setup's threads. NULL without memory or on a stop. */
static uint32_t *far_by_rank(const join_tables *jt, const atomic_int *stop)
{
    const int *k = jt->k[JOIN_TOP];
    if (jt->parts == 2)
        return placements_by_rank(jt, k[1]);

    uint64_t sets = jt->binom[jt->n][k[1] + k[2]];
    uint32_t *mid = placements_by_rank(jt, k[1]), *far = placements_by_rank(jt, k[2]);
    cost_fill cf = {{jt->n, k[1] + k[2], k[1], mid, far, jt->binom, 0},
                    jt,
                    NULL,
                    malloc(sets * sizeof(uint32_t)),
                    stop};

    if (!mid || !far || !cf.counts ||
        split_run_shared(jt->threads, sets, COST_GRAIN, cost_range, &cf) != 0) {
        free(cf.counts);
        cf.counts = NULL;
    }
    free(mid);
    free(far);
    return cf.counts;
}

/* Every side column set's candidates by colex rank, once (the sides are alike:
 * side_rows' rows each), on the setup's threads (n = 27: 20 million sets of 1,287
 * products each), from the near block's and far part's counts by rank, the sets after
 * their mirror images copied. */
static int cost_table(join_shared *sh, const atomic_int *stop)
{
    const join_tables *jt = &sh->jt;
    int rows = jt->rows[JOIN_TOP], kn = jt->near[JOIN_TOP];
    uint64_t sets = jt->binom[jt->n][rows];
    uint32_t *far = far_by_rank(jt, stop);
    uint32_t *near = far ? placements_by_rank(jt, kn) : NULL;
    cost_fill cf = {{jt->n, rows, kn, near, far, jt->binom, 1},
                    jt,
                    near ? malloc((size_t)sets * sizeof(float)) : NULL,
                    NULL,
                    stop};
    int rc = -1;

    assert(same_blocks(jt) && jt->rows[JOIN_BOTTOM] == rows);
    if (cf.by)
        rc = split_run_shared(jt->threads, sets, COST_GRAIN, cost_range, &cf) ||
             split_run_shared(jt->threads, sets, COST_GRAIN * 64, mirror_range, &cf);
    free(near);
    free(far);
    if (rc != 0) {
        free(cf.by);
        return -1;
    }
    sh->cost_by_rank = cf.by;
    return 0;
}

/* The cost model's counts (the table, or the blocks' counts by set), the limits of the
 * workers' lists within their bytes. */
static int shared_counts(join_shared *sh, uint64_t bytes, const atomic_int *stop)
{
    const join_tables *jt = &sh->jt;
    if (costs_by_table(jt->n, jt->parts)) {
        if (cost_table(sh, stop) != 0)
            return -1;
    } else
        for (int side = 0; side < 2; side++) {
            assert(jt->parts == 2);
            if (side == 1 && same_blocks(jt)) {
                sh->near_by[1] = sh->near_by[0];
                sh->far_by[1] = sh->far_by[0];
            } else if (!(sh->near_by[side] = placements_by_set(jt, jt->near[side])) ||
                       !(sh->far_by[side] = placements_by_set(jt, jt->k[side][1])))
                return -1;
        }
    sh->step_most = jt->step_most[0] > jt->step_most[1] ? jt->step_most[0] : jt->step_most[1];
    sh->compose_most =
        jt->compose_most[0] > jt->compose_most[1] ? jt->compose_most[0] : jt->compose_most[1];
    sh->reserve = list_reserve(bytes, largest_block(jt), sh->compose_most);
    sh->piece = piece_limit(bytes, sh->step_most, sh->compose_most);
    return 0;
}

/* The threads a count's setup may take: a slice's cut and the tests pass settings
 * unresolved, where 0 is one thread. */
static int setup_threads(const nq_settings *s)
{
    return s->n_threads > 0 ? s->n_threads : 1;
}

/* The shared tables of a count of settings s with parts blocks a side. */
void *join_shared_make(const nq_settings *s, int parts, const atomic_int *stop)
{
    join_shared *sh = calloc(1, sizeof(*sh));
    const join_kernel *kernel = join_kernel_find(s->simd);
    int threads = setup_threads(s);

    assert(kernel); /* lib.c refused a path this CPU lacks */
    if (!sh || join_tables_init_parts(&sh->jt, s->n, kernel, parts, threads, stop) != 0) {
        free(sh);
        return NULL;
    }
    if (shared_counts(sh, engine_worker_bytes(s), stop) != 0) {
        join_shared_free(sh);
        return NULL;
    }
    return sh;
}

static void *join_shared_init(const nq_settings *s, const atomic_int *stop)
{
    return join_shared_make(s, join_parts(s->n), stop);
}

static void join_worker_free(void *p)
{
    join_scratch *js = p;
    free(js->side[0].v);
    free(js->side[1].v);
    free(js->tmp.v);
    join_far_free(&js->far);
    free(js->work);
    free(js);
}

/* The lists at their reservation (list_reserve), so that completing a task allocates
 * only when one of its lists is longer than any that a measured count made, and never
 * past a list's most (the piece and the room for one more step of the maker). */
static void *join_worker_init(const nq_settings *s, const void *shared)
{
    const join_shared *sh = shared;
    join_scratch *js = calloc(1, sizeof(join_scratch));
    size_t most = sh->piece + (size_t)sh->step_most;

    (void)s;
    if (!js)
        return NULL;
    js->piece = sh->piece;
    js->side[JOIN_TOP].most = js->side[JOIN_BOTTOM].most = most;
    js->tmp.most = JOIN_PAIRS_TMP(most);
    js->far.diag.most = js->far.mask.most = (size_t)sh->compose_most;
    if (!(js->work = aligned_alloc(JOIN_PAIRS_ALIGN, JOIN_PAIRS_WORK)) ||
        join_buf_reserve(&js->side[JOIN_TOP], sh->reserve) != 0 ||
        join_buf_reserve(&js->side[JOIN_BOTTOM], sh->reserve) != 0 ||
        join_buf_reserve(&js->tmp, JOIN_PAIRS_TMP(sh->reserve)) != 0) {
        join_worker_free(js);
        return NULL;
    }
    return js;
}

void join_shared_reserve(void *shared, size_t masks)
{
    ((join_shared *)shared)->reserve = masks;
}

void join_shared_pieces(void *shared, size_t masks)
{
    ((join_shared *)shared)->piece = masks;
}

/* The solutions fixed by a turn among those of (top, middle), from a piece of the top
 * half-boards that fit the middle queen: the half turn's from their own images, the
 * quarter turn's by the orbit search (of the whole task: with the first piece only). */
static uint64_t turn_fixed(const join_tables *jt, uint32_t top, int middle, const uint64_t *tops,
                           size_t k, int first)
{
    if (!turn_may_fix(jt->n, top, middle))
        return 0;
    return join_half_turn_fixed(jt, tops, k) +
           (first && jt->n % 4 <= 1 ? 2 * join_symmetric(jt->n, 1, top, 0) : 0);
}

/* One task's count under way: its worker, its top column set, an estimate's parts
 * (NULL in a count) and the parts met so far, each part's pieces counted one in again
 * (again_taken) and those counted so far in the part, and its sums. */
typedef struct task_count {
    const engine_worker *w;
    const join_tables *jt;
    join_scratch *js;
    uint32_t top;
    engine_parts *p;
    uint64_t seen, again, again_seen;
    double again_seconds;
    uint64_t sum, fixed_sum;
} task_count;

/* In a part parted again, which one in tc->again of its pieces it counts: the draw's
 * next digit, so that the draws 0 .. stride * again - 1 take each piece of each part
 * once. */
static uint64_t again_from(const task_count *tc)
{
    return tc->p->draw / tc->p->stride % tc->again;
}

/* Whether the next piece of a part (a piece or block of its bottom half-boards) is one to
 * count: every one, but in an estimate's part parted again, one in tc->again. */
static int again_taken(task_count *tc)
{
    if (tc->again <= 1)
        return 1;
    return tc->again_seen++ % tc->again == again_from(tc);
}

/* The clock at a counted piece's start, where the part is parted again (0 where not). */
static double again_clock(const task_count *tc)
{
    return tc->again > 1 ? clock_thread_cpu() : 0;
}

/* A counted piece begun at t0 done: its time to the part's counted pieces'. */
static void again_done(task_count *tc, double t0)
{
    if (tc->again > 1)
        tc->again_seconds += clock_thread_cpu() - t0;
}

/* The maker of side's half-boards of sd, stepping through js->tmp in steps as long as it
 * holds (the pair counter's lists for a piece: a step makes the far part of its
 * first near subset again, which at a step of a piece took the unit tests' pieces of one
 * mask most of their time). */
static join_maker side_maker(const join_tables *jt, join_scratch *js, int side,
                             const join_sides *sd)
{
    size_t step = JOIN_PAIRS_TMP(js->piece + (size_t)jt->step_most[side]);
    return (join_maker){jt, side, sd->cols[side], sd->forbid, step, &js->tmp, &js->far};
}

/* The values of mk's half-boards, cut into ranges of at most a piece in js->range: 0, or
 * -1 without memory. */
static int cut_values(join_scratch *js, const join_maker *mk)
{
    return join_ranges_find(mk, js->piece, &js->values, &js->range) == SIZE_MAX ? -1 : 0;
}

/* The bits that the values of every mask of v[0..k) have. */
static uint32_t values_common(const uint64_t *v, size_t k)
{
    uint64_t all = ~(uint64_t)0;
    for (size_t i = 0; i < k; i++)
        all &= v[i];
    return (uint32_t)(all >> JOIN_RANGE_SHIFT);
}

/* Adds to *pairs those of tops[0..k) with bottoms[0..nb) (which the counter overwrites:
 * a side's home), or of share's chunks of them (NULL: all), then looks at the stop. */
static engine_status count_pairs(task_count *tc, const uint64_t *tops, size_t k, uint64_t *bottoms,
                                 size_t nb, uint64_t *pairs, join_pairs_share *share)
{
    join_scratch *js = tc->js;

    if (join_buf_need(&js->tmp, JOIN_PAIRS_TMP(k > nb ? k : nb)) != 0)
        return ENGINE_FAILED;
    *pairs += tc->jt->kernel->pairs_count(tops, k, bottoms, nb, js->tmp.v, js->work, tc->w, share);
    return engine_stopping(tc->w) ? ENGINE_STOPPED : ENGINE_DONE;
}

/* A list of tops to count each piece of the bottom half-boards against. */
typedef struct piece_pairs {
    task_count *tc;
    const uint64_t *tops;
    size_t k;
    uint64_t pairs;
} piece_pairs;

static int count_bottom_piece(void *user, uint64_t *v, size_t nb)
{
    piece_pairs *pp = user;
    double t0;
    engine_status st;

    if (!again_taken(pp->tc))
        return 0; /* made, as the count makes it: only its count is left out */
    t0 = again_clock(pp->tc);
    st = count_pairs(pp->tc, pp->tops, pp->k, v, nb, &pp->pairs, NULL);
    again_done(pp->tc, t0);
    return st == ENGINE_FAILED ? -1 : st == ENGINE_STOPPED;
}

/* Adds to *pairs those of tops[0..k), whose values all have the bits common, with the
 * bottom half-boards of sd, a piece at a time: the bottoms whose values share a bit with
 * common meet every top, and are dropped as they are made. A look at the stop after each
 * piece (a count takes a second or more from n = 26 on). */
static engine_status pairs_by_piece(task_count *tc, const join_sides *sd, const uint64_t *tops,
                                    size_t k, uint32_t common, uint64_t *pairs)
{
    join_scratch *js = tc->js;
    join_maker mk = side_maker(tc->jt, js, JOIN_BOTTOM, sd);
    piece_pairs pp = {tc, tops, k, 0};
    int rc;

    mk.step = js->piece / 4 ? js->piece / 4 : 1; /* a quarter: the pieces are 3/4 full or more */
    rc = join_pieces_kept(&mk, common, js->piece, &js->side[JOIN_BOTTOM], count_bottom_piece, &pp);
    *pairs += pp.pairs;
    return rc < 0 ? ENGINE_FAILED : rc ? ENGINE_STOPPED : ENGINE_DONE;
}

/* Adds to *pairs those of tops[0..k), one list, with the bottom half-boards of sd when
 * they pass a piece: their values cut into blocks (js->range), each made again and
 * counted against the tops, but those whose common bits meet every top. A block is
 * dense in values, which the counter prunes far better than a piece in the maker's
 * order, and with the tops whole the bottom is made once a block only. */
static engine_status pairs_by_bottom_block(task_count *tc, const join_sides *sd,
                                           const uint64_t *tops, size_t k, uint64_t *pairs)
{
    join_scratch *js = tc->js;
    join_maker mk = side_maker(tc->jt, js, JOIN_BOTTOM, sd);
    uint32_t common = values_common(tops, k);
    engine_status st = cut_values(js, &mk) != 0 ? ENGINE_FAILED : ENGINE_DONE;

    for (uint32_t j = 0; j < js->range.n && st == ENGINE_DONE; j++) {
        if (!js->range.masks[j] || (js->range.common[j] & common) || !again_taken(tc))
            continue;
        double t0 = again_clock(tc);
        size_t nb = join_range_make(&mk, &js->range, j, &js->side[JOIN_BOTTOM]);
        st = nb == SIZE_MAX ? ENGINE_FAILED
                            : count_pairs(tc, tops, k, js->side[JOIN_BOTTOM].v, nb, pairs, NULL);
        again_done(tc, t0);
    }
    return st;
}

/* Adds to *pairs those of tops[0..k) with the bottoms in one list (js->side[JOIN_BOTTOM],
 * nb). In a part parted again, one piece whatever the stride: one in tc->again of the
 * counter's own chunks is counted (an even board's count at n = 26 takes a second or
 * more, which an estimate's one part took whole or not at all), the sides prepared
 * whole, and only the chunks' time is scaled. */
static engine_status one_list_pairs(task_count *tc, const uint64_t *tops, size_t k, size_t nb,
                                    uint64_t *pairs)
{
    uint64_t *bottoms = tc->js->side[JOIN_BOTTOM].v;

    if (tc->again <= 1)
        return count_pairs(tc, tops, k, bottoms, nb, pairs, NULL);
    join_pairs_share share = {tc->again, again_from(tc), 0};
    engine_status st = count_pairs(tc, tops, k, bottoms, nb, pairs, &share);
    tc->again_seconds += share.seconds;
    return st;
}

/* The tops in js->side[JOIN_TOP] (k) that have none of the bits forbid, set apart from
 * them (the next middle column takes them all again): *fit gets them, and their count
 * is returned (SIZE_MAX without memory). Copied past the tops, in the order the maker
 * left them, which the counter prunes best on (in place, n = 21 took 1.035x the time),
 * where the tops' buffer holds both within its most; else moved to its front in place,
 * the others after them in their order by way of the bottoms' buffer, idle until the
 * bottoms are made: no list of a worker is kept for them alone. */
static size_t tops_that_fit(const join_kernel *kn, join_scratch *js, size_t k, uint64_t forbid,
                            uint64_t **fit)
{
    join_buf *tops = &js->side[JOIN_TOP], *others = &js->side[JOIN_BOTTOM];
    size_t nf = 0, no = 0;

    if (!tops->most || 2 * k <= tops->most) {
        if (join_buf_need(tops, 2 * k) != 0) /* with JOIN_HALVES_SLACK past it for keep */
            return SIZE_MAX;
        *fit = tops->v + k;
        return kn->keep(tops->v, k, forbid, *fit);
    }
    if (join_buf_need(others, k) != 0)
        return SIZE_MAX;
    for (size_t i = 0; i < k; i++) { /* without a branch: nf <= i */
        uint64_t x = tops->v[i];
        int fits = (x & forbid) == 0;
        tops->v[nf] = x;
        others->v[no] = x;
        nf += fits;
        no += !fits;
    }
    memcpy(tops->v + nf, others->v, no * sizeof(uint64_t));
    *fit = tops->v;
    return nf;
}

/* The pairs of (top, middle) from the whole list of top half-boards, tops[0..k) (in
 * js->side[JOIN_TOP]), made without a middle queen: against the bottom ones in one
 * list, or by their values when they pass a piece. *fixed gets its turn-fixed
 * solutions. Reorders the buffers, and grows one that is too short. */
static engine_status count_middle(task_count *tc, int middle, size_t k, uint64_t *pairs,
                                  uint64_t *fixed)
{
    const join_tables *jt = tc->jt;
    join_scratch *js = tc->js;
    join_sides sd = join_task_sides(jt, tc->top, middle);
    join_piece pc = join_piece_first(jt, JOIN_BOTTOM, &js->far);
    uint64_t *fit = js->side[JOIN_TOP].v;
    size_t nf = sd.forbid ? tops_that_fit(jt->kernel, js, k, sd.forbid, &fit) : k, nb;

    if (nf == SIZE_MAX)
        return ENGINE_FAILED;
    *fixed = turn_fixed(jt, tc->top, middle, fit, nf, 1);
    *pairs = 0;
    nb = join_halves_piece(jt, JOIN_BOTTOM, sd.cols[JOIN_BOTTOM], sd.forbid, js->piece, &pc,
                           &js->side[JOIN_BOTTOM]);
    if (nb == SIZE_MAX)
        return ENGINE_FAILED;
    if (!pc.done) /* more than a piece */
        return pairs_by_bottom_block(tc, &sd, fit, nf, pairs);
    return one_list_pairs(tc, fit, nf, nb, pairs);
}

/* Whether the next part of a task (a middle column, or one range of its tops) is one to
 * complete: every part in a count, the parts an estimate names (engine_parts) in one. */
static int part_taken(task_count *tc)
{
    return !tc->p || tc->seen++ % tc->p->stride == tc->p->draw % tc->p->stride;
}

/* Whether any part of middle column m (its ranges, which task_parts cut) is one to
 * complete; if none, they are passed, and the cut that found them, which a count makes
 * once, is no longer time a count does not spend. */
static int middle_taken(task_count *tc, int m)
{
    uint64_t stride, first, k;
    int i = m < 0 ? 0 : m;

    if (!tc->p)
        return 1;
    stride = tc->p->stride;
    k = tc->js->middle_parts[i];
    first = tc->seen + (tc->p->draw % stride + stride - tc->seen % stride) % stride;
    if (first < tc->seen + k)
        return 1;
    tc->seen += k;
    tc->p->extra_seconds -= tc->js->middle_seconds[i];
    return 0;
}

/* A part done, of weight wm, begun at t0: its sums, and its time to an estimate's, with
 * its projection: the part, taken one in stride, its pieces counted one in again. */
static void part_done(task_count *tc, uint32_t wm, uint64_t pairs, uint64_t fixed, double t0)
{
    tc->sum += wm * pairs;
    tc->fixed_sum += wm * fixed;
    if (tc->p) {
        double dt = clock_thread_cpu() - t0;
        tc->p->timed++;
        tc->p->timed_seconds += dt;
        tc->p->projected_seconds +=
            (double)tc->p->stride * (dt + (double)(tc->again - 1) * tc->again_seconds);
        tc->again_seconds = 0;
    }
}

/* A task's middle columns: 0 .. the centre on odd boards (one right of it is never its
 * orbit's representative: join_orbit_size), the one -1 on even ones. */
static int middle_first(int n)
{
    return n % 2 ? 0 : -1;
}

static int middle_end(int n)
{
    return n % 2 ? (n + 1) / 2 : 0;
}

/* Middle column m's weight in the task top: its orbit's size (0: not the task's to
 * count), 1 on even boards. */
static uint32_t middle_weight(int n, uint32_t top, int m)
{
    return m < 0 ? 1 : join_orbit_size(n, top, m);
}

/* The pairs of a task whose top half-boards fit one list (tops[0..k)), summed over its
 * middle columns (one, -1, on even boards) with their orbit weights; likewise the
 * turn-fixed solutions. Its parts are its middle columns. */
static engine_status count_whole(task_count *tc, size_t k)
{
    int n = tc->jt->n;
    uint64_t pairs, fixed;

    for (int m = middle_first(n); m < middle_end(n); m++) {
        uint32_t wm = middle_weight(n, tc->top, m);
        if (!wm || !part_taken(tc))
            continue;
        double t0 = tc->p ? clock_thread_cpu() : 0;
        engine_status st = count_middle(tc, m, k, &pairs, &fixed);
        if (st != ENGINE_DONE)
            return st;
        part_done(tc, wm, pairs, fixed, t0);
    }
    return ENGINE_DONE;
}

/* The pairs of (top, middle), of weight wm, when the tops pass a piece: the tops that fit
 * the middle queen a range of their values at a time (each a part), each against the
 * bottom's pieces. */
static engine_status middle_by_values(task_count *tc, int middle, uint32_t wm)
{
    join_scratch *js = tc->js;
    join_sides sd = join_task_sides(tc->jt, tc->top, middle);
    join_maker mk = side_maker(tc->jt, js, JOIN_TOP, &sd);
    const join_ranges *rt = &js->range;

    /* the values, which every part of the middle column needs: untimed, made whole */
    if (cut_values(js, &mk) != 0)
        return ENGINE_FAILED;
    for (uint32_t i = 0; i < rt->n; i++) {
        uint64_t pairs = 0, fixed;
        if (!part_taken(tc))
            continue;
        double t0 = tc->p ? clock_thread_cpu() : 0;
        size_t k = join_range_make(&mk, rt, i, &js->side[JOIN_TOP]);
        if (k == SIZE_MAX)
            return ENGINE_FAILED;
        fixed = turn_fixed(tc->jt, tc->top, middle, js->side[JOIN_TOP].v, k, i == 0);
        engine_status st = pairs_by_piece(tc, &sd, js->side[JOIN_TOP].v, k, rt->common[i], &pairs);
        if (st != ENGINE_DONE)
            return st;
        part_done(tc, wm, pairs, fixed, t0);
    }
    return ENGINE_DONE;
}

/* A task whose tops pass a piece: each middle column by values. */
static engine_status count_by_values(task_count *tc)
{
    int n = tc->jt->n;

    for (int m = middle_first(n); m < middle_end(n); m++) {
        uint32_t wm = middle_weight(n, tc->top, m);
        engine_status st = wm && middle_taken(tc, m) ? middle_by_values(tc, m, wm) : ENGINE_DONE;
        if (st != ENGINE_DONE)
            return st;
    }
    return ENGINE_DONE;
}

/* Task t's count, or with p the parts it names. Its top half-boards in one list are
 * counted against each middle column's bottom ones; tops that pass a piece, by their
 * values, per middle column (the making order would leave each piece every value,
 * thinly, which the pair counter prunes far less). */
static engine_status count_task(const engine_worker *w, const task *t, engine_parts *p,
                                uint64_t again, uint64_t *subtotal)
{
    task_count tc = {.w = w,
                     .jt = &((const join_shared *)w->shared)->jt,
                     .js = w->scratch,
                     .top = (uint32_t)t->payload,
                     .p = p,
                     .again = again};
    join_piece pc = join_piece_first(tc.jt, JOIN_TOP, &tc.js->far);
    size_t k =
        join_halves_piece(tc.jt, JOIN_TOP, tc.top, 0, tc.js->piece, &pc, &tc.js->side[JOIN_TOP]);
    engine_status st = k == SIZE_MAX ? ENGINE_FAILED : ENGINE_DONE;

    if (st == ENGINE_DONE && pc.done)
        st = count_whole(&tc, k);
    else if (st == ENGINE_DONE)
        st = count_by_values(&tc);
    if (st != ENGINE_DONE)
        return st;
    tc.js->fixed = tc.fixed_sum;
    tc.js->fixed_id = p ? 0 : t->id + 1; /* a task's parts do not make its fixed solutions */
    *subtotal = tc.sum;
    return ENGINE_DONE;
}

static engine_status join_complete(const engine_worker *w, const task *t, uint64_t *subtotal)
{
    return count_task(w, t, NULL, 1, subtotal);
}

/* The parts of a task: its middle columns of nonzero orbit weight (one on even boards),
 * or when its tops pass a piece, the ranges of their values in each; 0 without memory. */
static uint64_t task_parts(const join_tables *jt, join_scratch *js, uint32_t top)
{
    uint64_t parts = 0;
    join_piece pc = join_piece_first(jt, JOIN_TOP, &js->far);
    int whole;

    if (join_halves_piece(jt, JOIN_TOP, top, 0, js->piece, &pc, &js->side[JOIN_TOP]) == SIZE_MAX)
        return 0;
    whole = pc.done;
    for (int m = middle_first(jt->n); m < middle_end(jt->n); m++) {
        if (!middle_weight(jt->n, top, m))
            continue;
        if (whole) {
            parts++;
            continue;
        }
        join_sides sd = join_task_sides(jt, top, m);
        join_maker mk = side_maker(jt, js, JOIN_TOP, &sd);
        double t0 = clock_thread_cpu();
        if (cut_values(js, &mk) != 0)
            return 0;
        js->middle_seconds[m < 0 ? 0 : m] = clock_thread_cpu() - t0;
        js->middle_parts[m < 0 ? 0 : m] = js->range.n;
        parts += js->range.n;
    }
    return parts;
}

/* A task's parts are its (middle column, top range) pairs in the order the count takes
 * them: what every part shares is made once per task in the count too (the tops in one
 * list, or each middle column's values), and so is timed whole, not scaled. Where the
 * stride asked passes the parts (p->again_most allowing), each part taken counts one in
 * again of its bottoms' pieces or blocks, again the rest of the stride: at n = 27 a part
 * takes a second, its bottoms in a dozen blocks. */
static engine_status join_complete_parts(const engine_worker *w, const task *t, engine_parts *p,
                                         uint64_t *subtotal)
{
    const join_tables *jt = &((const join_shared *)w->shared)->jt;
    double t0 = clock_thread_cpu();
    uint64_t parts = p->stride > 1 ? task_parts(jt, w->scratch, (uint32_t)t->payload) : 1;
    uint64_t again = 1;
    engine_status st;

    assert(p->stride > 0);
    if (!parts)
        return ENGINE_FAILED;
    p->extra_seconds = p->stride > 1 ? clock_thread_cpu() - t0 : 0;
    if (p->stride / parts > 1 && p->again_most > 1)
        again = p->stride / parts < p->again_most ? p->stride / parts : p->again_most;
    p->stride = parts < p->stride ? parts : p->stride;
    p->timed = 0;
    p->timed_seconds = 0;
    p->projected_seconds = 0;
    st = count_task(w, t, p->stride > 1 || again > 1 ? p : NULL, again, subtotal);
    p->stride *= again;
    return st;
}

/* The solutions of the task's orbit fixed by the half turn and by the quarter turn,
 * weighted as Burnside adds them, plus the orbit's solutions: eight times its classes
 * summed over every task (engine_desc.unique_scale). The worker that completed the task
 * counted its fixed solutions on the way; a task reused from a journal is searched. */
static uint64_t join_unique(const engine_worker *w, const task *t, uint64_t subtotal)
{
    const join_scratch *js = w->scratch;
    int n = w->s->n, centre = n % 2 ? n / 2 : -1;
    uint32_t top = (uint32_t)t->payload;
    uint64_t fixed = 0;

    if (n == 1)
        fixed = 7; /* the one board is fixed by all eight symmetries */
    else if (js && js->fixed_id == t->id + 1)
        fixed = js->fixed;
    else if (turn_may_fix(n, top, centre)) { /* only the centre can hold a turned queen */
        fixed = join_symmetric(n, 2, top, 0);
        if (n % 4 <= 1)
            fixed += 2 * join_symmetric(n, 1, top, 0);
        if (centre >= 0)
            fixed *= join_orbit_size(n, top, centre);
    }
    return t->weight * (subtotal + fixed);
}

/* ---- the cost model ---------------------------------------------------------------------- */

/* A task makes its top half-boards once and, per middle column (one on even boards),
 * its bottom ones, then counts the pairs: the candidates of each side stand for the
 * making, their product for the pair count, which dominates (docs/engines.md has the
 * fit). */
static double join_task_cost(const void *shared, const task *t)
{
    const join_shared *sh = shared;
    const join_tables *jt = &sh->jt;
    uint32_t top = (uint32_t)t->payload, free_cols = board_mask(jt->n) & ~top, left;
    uint32_t less[32]; /* with the table, the ranks of the bottoms, free_cols less one */
    double ct = side_cost(sh, JOIN_TOP, top), cb, sum = ct;

    if (middle_first(jt->n) < 0) { /* an even board: one bottom, all the free columns */
        cb = side_cost(sh, JOIN_BOTTOM, free_cols);
        return sum + cb + JOIN_COST_PAIR * ct * cb;
    }
    /* The middles are the free columns left of the end, the j-th of them free_cols' j-th
     * member. n = 27's 10.4 M tasks, 7 bottoms each, took 2.3 s of rank sums one by one;
     * with every column left of the end tried as a middle, an orbit call each, 1.5-1.9 s
     * of one thread; the free ones only, the orbit test inline, 0.9-1.4 s (Zen 3). */
    if (sh->cost_by_rank)
        join_colex_ranks_less_one(jt, free_cols, less);
    left = free_cols & ((1u << middle_end(jt->n)) - 1);
    for (uint32_t j = 0; left; left &= left - 1, j++) {
        int m = __builtin_ctz(left);
        if (!middle_weight(jt->n, top, m))
            continue;
        cb = sh->cost_by_rank ? sh->cost_by_rank[less[j]]
                              : side_cost(sh, JOIN_BOTTOM, free_cols & ~(1u << m));
        sum += cb + JOIN_COST_PAIR * ct * cb;
    }
    return sum;
}

static void join_params_format(const nq_settings *s, char *buf, size_t size)
{
    (void)s;
    snprintf(buf, size, "halves=v2");
}

static int join_params_parse(const char *params, nq_settings *s)
{
    (void)s;
    return strcmp(params, "halves=v2") == 0 ? NQ_OK : NQ_EINVAL;
}

static uint64_t join_count_tasks(const nq_settings *s)
{
    return join_task_count(s->n, setup_threads(s), NULL);
}

/* The count walks every column set of the top rows (0.17 s at n = 27 on one thread), and
 * ends on a stop (the node budget does not apply: n is within the engine's tables). */
static int join_task_count_bounded(const nq_settings *s, board_bound *bound, uint64_t *tasks)
{
    *tasks = join_task_count(s->n, setup_threads(s), bound ? bound->stop : NULL);
    return bound && stop_seen(bound->stop) ? -1 : 0;
}

static uint64_t join_source(const nq_settings *s, task_emit_fn emit, void *user)
{
    return join_enumerate(s->n, emit, user, NULL); /* emit sees the run's stop */
}

static int join_placed_rows(const nq_settings *s)
{
    return s->n / 2;
}

const engine_desc engine_join = {
    .name = "join",
    .id = NQ_ENGINE_JOIN,
    .built = 1,
    .max_n = JOIN_MAX_N,
    .auto_rank = 2, /* leads d4 more the larger the board (docs/join.md) */
    .pins_workers = 1,
    .takes_worker_memory = 1,
    .memory_bytes = join_memory_bytes,
    .resolve = prefix_resolve, /* prefix_rows means nothing here; filled as for the others */
    .params_format = join_params_format,
    .params_parse = join_params_parse,
    .task_count = join_count_tasks,
    .task_count_bounded = join_task_count_bounded,
    .source = join_source,
    .placed_rows = join_placed_rows,
    .shared_init = join_shared_init,
    .shared_free = join_shared_free,
    .worker_init = join_worker_init,
    .worker_free = join_worker_free,
    .complete = join_complete,
    .unique = join_unique,
    .complete_parts = join_complete_parts,
    .unique_scale = 8,
    .simd_paths = join_kernel_paths,
    .task_cost = join_task_cost,
};
