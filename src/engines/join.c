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
#include "core/engine.h"
#include "engines/join.h"
#include "engines/join_halves.h"
#include "engines/join_kernel.h"
#include "engines/join_pairs.h"
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
    join_buf side[2], tmp, fit; /* fit: the top half-boards that fit one middle queen */
    uint64_t fixed_id, fixed;   /* the last task's turn-fixed solutions, for join_unique */
    void *work;                 /* the pair counter's tables (JOIN_PAIRS_WORK bytes) */
} join_scratch;

/* What a count's workers share: the tables, and for the cost model the placements of
 * each block size on every column set, indexed by the set itself, so that a task's cost
 * takes no rank computations (2^n entries per block size; join_task_cost). */
typedef struct join_shared {
    join_tables jt;             /* first: the kernels take it alone */
    uint16_t *placements[2][2]; /* by side and near (0) or far (1) block; may alias */
    size_t reserve;             /* the masks each list of a worker holds before its first task */
} join_shared;

/* Every block has at most 6 rows up to JOIN_MAX_N, so at most 6! = 720 placements on one
 * column set: 16 bits hold the count. A larger board needs wider entries. */
_Static_assert(JOIN_MAX_N <= 25, "join_shared.placements holds counts of up to 6 rows");

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

/* The near x far placement pairs that join_halves tests for one side on columns cols:
 * its work, and an upper bound on the half-boards it makes. */
static uint64_t side_candidates(const join_shared *sh, int side, uint32_t cols)
{
    const uint16_t *near = sh->placements[side][0], *far = sh->placements[side][1];
    int kn = sh->jt.near[side], m = __builtin_popcount(cols);
    uint32_t x = kn ? (1u << kn) - 1 : 0;
    uint64_t sum = 0;
#if !defined(__BMI2__)
    uint32_t col[32];
    for (int i = 0, j = 0; cols >> i; i++) /* the columns, lowest first */
        if (cols >> i & 1)
            col[j++] = 1u << i;
#endif

    for (;;) {
#if defined(__BMI2__)
        uint32_t c1 = _pdep_u32(x, cols); /* the members of cols that x's index bits pick */
#else
        uint32_t c1 = 0;
        for (uint32_t y = x; y; y &= y - 1)
            c1 |= col[__builtin_ctz(y)];
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

/* The masks a worker's lists reserve for a count whose largest block has far
 * placements: a quarter of them. Measured, the longest list of half-boards of a whole
 * count is 0.05 to 0.18 of them at n = 12..22 (docs/join.md), and each kernel call asks
 * room for at most one column set's near x far pairs past it (720^2 at n = 24). */
static size_t list_reserve(uint64_t far)
{
    return far / 4 > 1024 ? (size_t)(far / 4) : 1024;
}

/* The tables, exact, the cost model's placements per column set (two block sizes at
 * most), and each worker's scratch: its pair-counter tables and its lists of
 * half-boards (two sides, the tops that fit a middle queen, and the counter's tmp of
 * four times a side) at their reservation, which no measured count outgrew. */
static uint64_t join_memory_bytes(const nq_settings *s)
{
    uint64_t far, tables = join_tables_bytes(s->n, &far);
    uint64_t lists = (3 + JOIN_PAIRS_TMP(1)) * (list_reserve(far) + JOIN_HALVES_SLACK);
    uint64_t worker = sizeof(join_scratch) + JOIN_PAIRS_WORK + lists * sizeof(uint64_t);
    uint64_t costs = 2 * ((uint64_t)1 << s->n) * sizeof(uint16_t);
    return tables + costs + (uint64_t)s->n_threads * worker;
}

/* The placements of the largest block, near or far, of either side. */
static uint64_t largest_block(const join_tables *jt)
{
    uint64_t most = 0;
    for (int side = 0; side < 2; side++)
        for (int far = 0; far < 2; far++) {
            int k = far ? jt->rows[side] - jt->near[side] : jt->near[side];
            uint64_t e = join_tables_block(jt, k)->entries;
            most = e > most ? e : most;
        }
    return most;
}

static void join_shared_free(void *p)
{
    join_shared *sh = p;
    for (int i = 0; i < 4; i++) {
        uint16_t *q = sh->placements[i / 2][i % 2];
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= sh->placements[j / 2][j % 2] == q;
        if (!seen)
            free(q);
    }
    join_tables_free(&sh->jt);
    free(sh);
}

static void *join_shared_init(const nq_settings *s, const atomic_int *stop)
{
    join_shared *sh = calloc(1, sizeof(*sh));
    const join_kernel *kernel = join_kernel_find(s->simd);

    assert(kernel); /* lib.c refused a path this CPU lacks */
    if (!sh || join_tables_init(&sh->jt, s->n, kernel, stop) != 0) {
        free(sh);
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        int side = i / 2, k = i % 2 ? sh->jt.rows[side] - sh->jt.near[side] : sh->jt.near[side];
        for (int j = 0; j < i && !sh->placements[side][i % 2]; j++) {
            int sj = j / 2, kj = j % 2 ? sh->jt.rows[sj] - sh->jt.near[sj] : sh->jt.near[sj];
            if (kj == k)
                sh->placements[side][i % 2] = sh->placements[sj][j % 2];
        }
        if (!sh->placements[side][i % 2] &&
            !(sh->placements[side][i % 2] = placements_by_set(&sh->jt, k))) {
            join_shared_free(sh);
            return NULL;
        }
    }
    sh->reserve = list_reserve(largest_block(&sh->jt));
    return sh;
}

static void join_worker_free(void *p)
{
    join_scratch *js = p;
    free(js->side[0].v);
    free(js->side[1].v);
    free(js->tmp.v);
    free(js->fit.v);
    free(js->work);
    free(js);
}

/* The lists at their reservation (list_reserve), so that completing a task allocates
 * only when one of its lists is longer than any that a measured count made. */
static void *join_worker_init(const nq_settings *s, const void *shared)
{
    const join_shared *sh = shared;
    join_scratch *js = calloc(1, sizeof(join_scratch));

    (void)s;
    if (!js)
        return NULL;
    if (!(js->work = aligned_alloc(JOIN_PAIRS_ALIGN, JOIN_PAIRS_WORK)) ||
        join_buf_reserve(&js->side[JOIN_TOP], sh->reserve) != 0 ||
        join_buf_reserve(&js->side[JOIN_BOTTOM], sh->reserve) != 0 ||
        join_buf_reserve(&js->fit, sh->reserve) != 0 ||
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

/* The solutions fixed by a turn among those of (top, middle), from the top half-boards
 * that fit the middle queen: the half turn's from their own images, the quarter turn's by
 * the orbit search. */
static uint64_t turn_fixed(const join_tables *jt, uint32_t top, int middle, const uint64_t *tops,
                           size_t k)
{
    if (!turn_may_fix(jt->n, top, middle))
        return 0;
    return join_half_turn_fixed(jt, tops, k) +
           (jt->n % 4 <= 1 ? 2 * join_symmetric(jt->n, 1, top, 0) : 0);
}

/* The pairs of (top, middle) from the top half-boards tops[0..k) made without a middle
 * queen; *fixed gets its turn-fixed solutions. Reorders the buffers, and grows one that
 * is too short; -1 without memory. */
static int count_middle(const join_tables *jt, join_scratch *js, uint32_t top, int middle, size_t k,
                        uint64_t *pairs, uint64_t *fixed)
{
    join_sides sd = join_task_sides(jt, top, middle);
    uint64_t *fit = js->side[JOIN_TOP].v;
    size_t nf = k, nb;

    if (sd.forbid) { /* the ones that fit the middle queen, apart: the next middle needs all */
        if (join_buf_need(&js->fit, k) != 0)
            return -1;
        nf = 0;
        for (size_t i = 0; i < k; i++) {
            js->fit.v[nf] = fit[i];
            nf += (fit[i] & sd.forbid) == 0;
        }
        fit = js->fit.v;
    }
    nb = join_halves_growing(jt, JOIN_BOTTOM, sd.cols[JOIN_BOTTOM], sd.forbid,
                             &js->side[JOIN_BOTTOM]);
    if (nb == SIZE_MAX || join_buf_need(&js->tmp, JOIN_PAIRS_TMP(nf > nb ? nf : nb)) != 0)
        return -1;
    *fixed = turn_fixed(jt, top, middle, fit, nf);
    *pairs = jt->kernel->pairs_count(fit, nf, js->side[JOIN_BOTTOM].v, nb, js->tmp.v, js->work);
    return 0;
}

static engine_status join_complete(const engine_worker *w, const task *t, uint64_t *subtotal)
{
    const join_tables *jt = &((const join_shared *)w->shared)->jt;
    join_scratch *js = w->scratch;
    uint32_t top = (uint32_t)t->payload;
    uint64_t pairs, fixed, sum = 0, fixed_sum = 0;
    size_t k = join_halves_growing(jt, JOIN_TOP, top, 0, &js->side[JOIN_TOP]);

    if (k == SIZE_MAX)
        return ENGINE_FAILED;
    if (jt->n % 2 == 0) {
        if (count_middle(jt, js, top, -1, k, &sum, &fixed_sum) != 0)
            return ENGINE_FAILED;
    } else {
        for (int m = 0; m < jt->n; m++) {
            uint32_t wm = join_orbit_size(jt->n, top, m);
            if (!wm)
                continue;
            if (count_middle(jt, js, top, m, k, &pairs, &fixed) != 0)
                return ENGINE_FAILED;
            sum += wm * pairs;
            fixed_sum += wm * fixed;
        }
    }
    js->fixed = fixed_sum;
    js->fixed_id = t->id + 1;
    *subtotal = sum;
    return ENGINE_DONE;
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
    uint32_t top = (uint32_t)t->payload;
    double ct = (double)side_candidates(sh, JOIN_TOP, top), sum = ct;

    for (int m = jt->n % 2 ? 0 : -1; m < (jt->n % 2 ? jt->n : 0); m++) {
        if (m >= 0 && !join_orbit_size(jt->n, top, m))
            continue;
        uint32_t bottom = board_mask(jt->n) & ~top & ~(m >= 0 ? 1u << m : 0);
        double cb = (double)side_candidates(sh, JOIN_BOTTOM, bottom);
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

static uint64_t join_task_count(const nq_settings *s)
{
    return join_enumerate(s->n, NULL, NULL);
}

static uint64_t join_source(const nq_settings *s, task_emit_fn emit, void *user)
{
    return join_enumerate(s->n, emit, user);
}

static int join_simd(const nq_settings *s)
{
    return join_kernel_find(s->simd)->simd;
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
    .memory_bytes = join_memory_bytes,
    .resolve = prefix_resolve, /* prefix_rows means nothing here; filled as for the others */
    .params_format = join_params_format,
    .params_parse = join_params_parse,
    .task_count = join_task_count,
    .source = join_source,
    .placed_rows = join_placed_rows,
    .shared_init = join_shared_init,
    .shared_free = join_shared_free,
    .worker_init = join_worker_init,
    .worker_free = join_worker_free,
    .complete = join_complete,
    .unique = join_unique,
    .unique_scale = 8,
    .simd = join_simd,
    .task_cost = join_task_cost,
};
