/* The join engine's tables, made once per count and shared by its workers: every
 * placement of a block of rows, grouped by column set, and each placement's part of a
 * half-board mask as each side sees it. join_halves.c makes half-boards from them. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/huge_alloc.h"
#include "core/split.h"
#include "engines/join_columns.h"
#include "engines/join_halves.h"
#include "engines/join_kernel.h"
#include "engines/join_tables.h"
#include "engines/join_tasks.h"
#include "engines/task_cost.h"

/* Records, for every placement of a block of k rows, its relative diagonals
 * (join_block_diagonals) under the colex rank of its column set. */
typedef struct block_walk {
    int k;
    uint32_t *count; /* per rank: placements, then the next free entry */
    uint64_t *rel;   /* NULL in the counting pass */
    const join_tables *jt;
} block_walk;

static int block_record(void *user, const board_place *p)
{
    block_walk *w = user;
    uint32_t r = join_colex_rank(w->jt, p->cols);
    uint64_t rel = 0;

    for (int i = 0; i < w->k; i++)
        rel |= (uint64_t)1 << (p->q[i] + i) | (uint64_t)1 << (32 + p->q[i] - i + w->k);
    if (w->rel)
        w->rel[w->count[r]] = rel;
    w->count[r]++;
    return 0;
}

static void fill_binom(join_tables *jt)
{
    for (int i = 0; i <= 32; i++)
        for (int j = 0; j <= i; j++)
            jt->binom[i][j] = j == 0 || j == i ? 1 : jt->binom[i - 1][j - 1] + jt->binom[i - 1][j];
}

/* The placements of k rows on n columns, counted a row short of them (a popcount for the
 * last): the memory estimate's, before every count, and serial (a walk to each
 * placement took 2 ms of n = 20's start and 0.07 s of n = 24's). */
static uint64_t placements(int n, int k)
{
    uint32_t free[32], shift[32];
    for (int i = 0; i < k; i++)
        free[i] = board_mask(n), shift[i] = 1;
    return task_cost_placements(free, shift, k, 0, 0, 0);
}

/* k!: at least the placements of k rows on one column set of k (counting them per set
 * would allocate where the memory estimate may not). */
static uint64_t factorial(int k)
{
    uint64_t f = 1;
    for (int i = 2; i <= k; i++)
        f *= (uint64_t)i;
    return f;
}

/* The rows of each side, as join_tables_init splits the board. */
static int side_rows(int n, int side)
{
    return side == JOIN_TOP || n % 2 ? n / 2 : n - n / 2;
}

/* The rows of side's blocks, near first: two halves, or three thirds with the near
 * block the largest (on fewer than three rows, the far block takes them). A side makes
 * one far part per column set of its near block, the longer the fewer rows the near
 * block takes, and most of a far part fits no near entry: near blocks of five rows of
 * thirteen rather than four took a task of n = 26 to 0.62x the time, n = 27 0.68x
 * (AMD Zen 4; docs/join.md). Twelve rows keep three blocks of four: five near rows
 * gained nothing at n = 25, and cost the setup half again. */
static void split_rows(int n, int side, int parts, int k[3])
{
    int rows = side_rows(n, side);
    if (parts == 2) {
        k[0] = rows / 2;
        k[1] = rows - k[0];
        k[2] = 0;
        return;
    }
    k[1] = rows / 3;
    k[2] = rows < 3 ? rows - k[1] : k[1];
    k[0] = rows - k[1] - k[2];
    /* an entry keeps bit c - i + k of each queen in a 32-bit half (block_record): six rows
     * at n = 27 passed it, and counted wrong */
    assert(n - 1 + k[0] <= 31 && n - 1 + k[1] <= 31 && n - 1 + k[2] <= 31);
}

/* A side's step_most and compose_most (join_tables) from its blocks' rows k, a block
 * of k rows having at most k! placements on one column set: with three blocks, a far
 * part on c columns has at most c! entries, and at most its mid x far pairs; its buffer
 * holds one split's pairs more. */
static void side_bounds(int parts, const int k[3], uint64_t *step, uint64_t *compose)
{
    uint64_t far = factorial(k[1]), pairs = factorial(k[1]) * factorial(k[2]);

    *compose = 0;
    if (parts == 3) {
        uint64_t all = factorial(k[1] + k[2]);
        far = join_binomial(k[1] + k[2], k[1]) * pairs;
        far = far < all ? far : all;
        *compose = far + pairs;
    }
    *step = far > factorial(k[0]) ? far : factorial(k[0]);
}

/* The bytes of the block table for k rows: its entries and its starts per column set. */
static uint64_t block_bytes(int n, int k, uint64_t entries)
{
    return (entries ? entries : 1) * sizeof(uint64_t) +
           (join_binomial(n, k) + 1) * sizeof(uint32_t);
}

/* The words per entry of block b's view: diag and mask, and diag2 for a three blocks'
 * side's mid and far. */
static int view_words(int parts, int b)
{
    return parts == 3 && b > 0 ? 3 : 2;
}

join_census join_tables_census(int n, int parts)
{
    join_census c = {sizeof(join_tables), 0, 0, 0, {0, 0, 0}};
    uint64_t entries[4];
    int sizes[4], blocks = 0;

    assert(n >= 1 && n <= JOIN_MAX_N && (parts == 2 || parts == 3));
    for (int side = 0; side < 2; side++) {
        int k[3];
        uint64_t step, compose;
        split_rows(n, side, parts, k);
        for (int b = 0; b < parts; b++) {
            int x = 0;
            while (x < blocks && sizes[x] != k[b])
                x++;
            if (x == blocks) { /* one table per block size, as join_tables_block finds them */
                sizes[blocks] = k[b];
                entries[blocks] = placements(n, k[b]);
                c.bytes += block_bytes(n, k[b], entries[blocks++]);
            }
            c.bytes += view_words(parts, b) * (entries[x] + JOIN_VIEW_SLACK) * sizeof(uint64_t);
            c.largest = entries[x] > c.largest ? entries[x] : c.largest;
        }
        side_bounds(parts, k, &step, &compose);
        if (side == JOIN_TOP)
            memcpy(c.k, k, sizeof(c.k));
        c.step_most = step > c.step_most ? step : c.step_most;
        c.compose_most = compose > c.compose_most ? compose : c.compose_most;
    }
    return c;
}

/* The blocks' walk split over threads by the first row's column (a part of 0 .. n-1),
 * each part counting, then recording, its placements per rank apart (count: parts rows
 * of ranks). The walk takes the first row's columns in increasing order, so a rank's
 * placements laid out part after part are those of one walk, in its order: the tables
 * are those of one thread, byte for byte. On one thread this walk was a fifth of n = 20's
 * setup, all of it serial (docs/scheduling.md). The parts' counts last only the walk:
 * at most n x C(n, k) words, 13 MB at n = 24 beside its 1.9 GB of tables. */
typedef struct block_split {
    block_walk w; /* count: part 0's row */
    uint32_t ranks;
    const atomic_int *stop;
} block_split;

static int block_range(void *user, int part, uint64_t lo, uint64_t hi)
{
    const block_split *bs = user;
    block_walk w = bs->w;
    uint32_t all = board_mask(w.jt->n);
    board_bound bound = {BOARD_NODES_UNBOUNDED, bs->stop};

    w.count += (size_t)part * bs->ranks;
    for (uint64_t c = lo; c < hi; c++) {
        board_place p = {0};
        /* a block of no rows has one placement, the empty one: a single part */
        if (board_walk(&p, all, w.k, w.k ? 1u << c : all, &bound, block_record, &w))
            return 1; /* stopped */
    }
    return 0;
}

/* Each rank's start from the parts' counts, which become each part's first entry of the
 * rank; the entries in all. */
static uint64_t block_starts(join_block *b, uint32_t *count, uint32_t ranks, int parts)
{
    uint64_t entries = 0;

    for (uint32_t r = 0; r < ranks; r++) {
        b->start[r] = (uint32_t)entries;
        for (int p = 0; p < parts; p++) {
            uint32_t *c = &count[(size_t)p * ranks + r];
            uint32_t placed = *c;
            *c = (uint32_t)entries;
            entries += placed;
        }
    }
    b->start[ranks] = (uint32_t)entries;
    return entries;
}

static int block_init(join_block *b, const join_tables *jt, int k, const atomic_int *stop)
{
    uint32_t ranks = jt->binom[jt->n][k];
    uint64_t firsts = k ? (uint64_t)jt->n : 1;
    int parts = split_parts(jt->threads, firsts, 1); /* split_run's own */
    block_split bs = {{k, NULL, NULL, jt}, ranks, stop};

    b->k = k;
    b->start = calloc((size_t)ranks + 1, sizeof(*b->start));
    bs.w.count = calloc((size_t)ranks * (size_t)parts, sizeof(*bs.w.count));
    if (!b->start || !bs.w.count || split_run(jt->threads, firsts, 1, block_range, &bs))
        goto fail;
    b->entries = block_starts(b, bs.w.count, ranks, parts);
    b->rel = huge_calloc((size_t)(b->entries ? b->entries : 1) * sizeof(*b->rel));
    if (!b->rel)
        goto fail;
    bs.w.rel = b->rel;
    if (split_run(jt->threads, firsts, 1, block_range, &bs))
        goto fail;
    free(bs.w.count);
    return 0;
fail: /* the caller forgets this block, so all of it goes here */
    free(bs.w.count);
    free(b->start);
    huge_free(b->rel);
    b->start = NULL;
    b->rel = NULL;
    return -1;
}

/* A block placement's part of the half-board mask at row h, renamed: its diagonals
 * clipped to the board. */
static uint64_t block_mask(const join_tables *jt, int side, int k, int d0, uint64_t rel)
{
    uint32_t all = board_mask(jt->n);
    uint64_t lo = ((rel & 0xffffffffu) << d0) & all; /* columns c + distance */
    uint64_t hi = ((rel >> 32) >> (k + d0)) & all;   /* columns c - distance */

    /* a top queen reaches row h at c + distance on one diagonal and c - distance on the
     * other; a bottom queen the other way round */
    return join_rename(&jt->rn, side == JOIN_TOP ? lo | hi << jt->n : hi | lo << jt->n);
}

/* Entries a thread fills at a time, taken from a shared counter (split_run_shared): a
 * few microseconds of work each thousand. In contiguous halves, one thread's half could
 * be pages its kernel had never given out: on a virtual machine it zeroed them for 65 ms
 * while the other waited, done in 15 (n = 20, two threads, perf). */
#define VIEW_GRAIN 16384u

/* One view to fill: what its entries share (block b of side, k rows from d0, whose
 * diagonals the blocks from w and w2 meet). */
typedef struct view_job {
    const uint64_t *rel;
    const join_view *v;
    int side, k, d0, w, w2;
} view_job;

/* The views of every side and block, as one run of entries for split_run: view j's
 * entries are steps start[j] .. start[j + 1] - 1. */
typedef struct view_fill {
    const join_tables *jt;
    const atomic_int *stop;
    int views;
    view_job job[6];
    uint64_t start[7];
} view_fill;

/* Entry i of view job j: its diagonals and its renamed mask. */
static void fill_entry(const join_tables *jt, const view_job *j, uint64_t i)
{
    uint64_t rel = j->rel[i];

    j->v->diag[i] = join_block_diagonals(jt->n, j->k, j->d0, j->w, rel);
    j->v->mask[i] = block_mask(jt, j->side, j->k, j->d0, rel);
    if (j->v->diag2) /* mid and far meet each other from the far block's start on */
        j->v->diag2[i] = join_block_diagonals(jt->n, j->k, j->d0, j->w2, rel);
}

static int fill_views(void *user, int part, uint64_t lo, uint64_t hi)
{
    const view_fill *vf = user;

    (void)part;
    for (int j = 0; j < vf->views; j++) {
        uint64_t from = lo > vf->start[j] ? lo : vf->start[j];
        uint64_t to = hi < vf->start[j + 1] ? hi : vf->start[j + 1];
        for (uint64_t g = from; g < to; g++) {
            if (stop_poll(vf->stop, g))
                return -1;
            fill_entry(vf->jt, &vf->job[j], g - vf->start[j]);
        }
    }
    return 0;
}

/* View v's arrays for entries (made once: the renamed views reuse the first ones), their
 * pages untouched until the threads that fill them write them (huge_calloc); the slack
 * past the last entry is zero. A stop is seen between arrays: where malloc fills what it
 * returns (MALLOC_PERTURB_, which meson's tests set), one takes 0.2 s at n = 22. */
static int view_alloc(join_view *v, uint64_t entries, int two, const atomic_int *stop)
{
    size_t size = (size_t)(entries + JOIN_VIEW_SLACK) * sizeof(uint64_t);
    uint64_t **arr[3] = {&v->diag, &v->mask, &v->diag2};

    for (int a = 0; a < (two ? 3 : 2); a++) {
        if (stop_seen(stop) || (!*arr[a] && !(*arr[a] = huge_calloc(size))))
            return -1;
    }
    return 0;
}

/* Each block placement's half-board mask as each side sees it, renamed, and its
 * diagonals as the blocks it meets see them: made once, so that making half-boards only
 * ORs and tests; filled on jt->threads threads. */
static int make_views(join_tables *jt, const atomic_int *stop)
{
    view_fill vf = {jt, stop, 0, {{0}}, {0}};

    for (int side = 0; side < 2; side++)
        for (int b = 0; b < jt->parts; b++) {
            int k = jt->k[side][b];
            const join_block *bl = join_tables_block(jt, k);
            if (view_alloc(&jt->view[side][b], bl->entries, view_words(jt->parts, b) == 3, stop))
                return -1;
            vf.job[vf.views] = (view_job){bl->rel,
                                          &jt->view[side][b],
                                          side,
                                          k,
                                          join_block_d0(jt, side, b),
                                          join_block_d0(jt, side, 1),
                                          join_block_d0(jt, side, 2)};
            vf.start[vf.views + 1] = vf.start[vf.views] + bl->entries;
            vf.views++;
        }
    return split_run_shared(jt->threads, vf.start[vf.views], VIEW_GRAIN, fill_views, &vf);
}

/* Where the half turn takes bit j of a top half-board's mask in its bottom image, or -1:
 * the queen (r, c) goes to (n-1-r, n-1-c). On an even board a top queen at distance d
 * from row h lands at distance d - 1 below it, so diagonal c + d becomes n - (c + d) and
 * c - d becomes n - 2 - (c - d); on an odd one the distance is kept and both become
 * n - 1 - x. Images that leave the board's window meet no top queen and are dropped. */
static int turned_bit(int n, int j)
{
    int half = j >= n, x = j - (half ? n : 0);
    int y = n % 2 ? n - 1 - x : (half ? n - 2 - x : n - x);
    return y >= 0 && y < n ? y + (half ? n : 0) : -1;
}

static void make_turn(join_tables *jt)
{
    uint64_t to[64] = {0};

    for (int j = 0; j < 2 * jt->n; j++) {
        uint64_t from = join_rename(&jt->rn, (uint64_t)1 << j);
        int y = turned_bit(jt->n, j);
        if (from && y >= 0)
            to[__builtin_ctzll(from)] = join_rename(&jt->rn, (uint64_t)1 << y);
    }
    join_renaming_of_bits(&jt->turn, to);
}

uint64_t join_half_turn_fixed(const join_tables *jt, const uint64_t *top, size_t k)
{
    uint64_t fixed = 0;
    for (size_t i = 0; i < k; i++)
        fixed += (top[i] & join_rename(&jt->turn, top[i])) == 0;
    return fixed;
}

/* Which bits collide most often is learnt from the half-boards of a spread of tasks
 * (the same ones every time, so that every run renames alike): 64, or from n = 25 on,
 * where a task's whole lists take seconds (64 of them 140 s of setup at n = 26), 8. */
#define SAMPLE_MOST 64

static uint64_t sample_tasks(int n)
{
    return n <= 24 ? SAMPLE_MOST : 8;
}

/* The sampled tasks' half-boards, their bits counted per part of the split: count[p]
 * is part p's alone, summed once every part has ended. */
typedef struct sample {
    const join_tables *jt;
    const uint32_t *top;
    uint64_t (*count)[2][64];
    const atomic_int *stop;
} sample;

/* The masks of a piece of a sampled side's half-boards: some 2 MB, made in tens of
 * milliseconds, so that a stop waits for one piece, not a task's whole sides (at n = 27
 * some 0.3 s a task, AMD EPYC Zen 3), and the sample holds a piece, not a whole list. */
#define SAMPLE_PIECE ((size_t)1 << 18)

int join_side_bit_counts(const join_tables *jt, int side, uint32_t cols, size_t piece,
                         const atomic_int *stop, join_buf *buf, uint64_t cnt[64])
{
    join_far far = {{NULL, 0, 0}, {NULL, 0, 0}};
    join_piece pc = join_piece_first(jt, side, &far);
    int failed = 0;

    assert(piece > 0);
    while (!failed && !pc.done) {
        size_t k = join_halves_piece(jt, side, cols, 0, piece, &pc, buf);
        failed = k == SIZE_MAX || stop_seen(stop);
        if (k != SIZE_MAX)
            join_bit_counts(buf->v, k, cnt);
    }
    join_far_free(&far);
    return failed ? -1 : 0;
}

static int sample_range(void *user, int part, uint64_t lo, uint64_t hi)
{
    const sample *sm = user;
    join_buf buf = {NULL, 0, 0};
    int failed = 0;

    for (uint64_t i = lo; i < hi && !failed; i++) {
        uint32_t top = sm->top[i], free_cols = board_mask(sm->jt->n) & ~top;
        /* odd n: any middle column will do for the statistics */
        join_sides sd = join_task_sides(sm->jt, top, sm->jt->n % 2 ? __builtin_ctz(free_cols) : -1);
        for (int side = 0; side < 2 && !failed; side++)
            failed = join_side_bit_counts(sm->jt, side, sd.cols[side], SAMPLE_PIECE, sm->stop, &buf,
                                          sm->count[part][side]);
    }
    free(buf.v);
    return failed;
}

/* The renaming from the bit counts of sample_tasks(n) tasks' half-boards, each task on
 * one of jt->threads threads, then the views again, renamed. */
static int make_renaming(join_tables *jt, const atomic_int *stop)
{
    uint32_t top[SAMPLE_MOST];
    uint64_t(*count)[2][64] = calloc(SPLIT_MAX_THREADS, sizeof(*count)), sum[2][64] = {{0}};
    sample sm = {jt, top, count, stop};
    size_t k;
    int failed;

    join_renaming_identity(&jt->rn);
    if (!count || make_views(jt, stop) != 0) {
        free(count);
        return -1;
    }
    /* sample_tasks(n) tasks spread evenly, counted and picked on the setup's threads */
    k = join_tasks_every(jt->n, sample_tasks(jt->n), top, SAMPLE_MOST, jt->threads, stop);
    failed = stop_seen(stop) || split_run(jt->threads, k, 1, sample_range, &sm) != 0;
    for (int p = 0; p < SPLIT_MAX_THREADS; p++)
        for (int side = 0; side < 2; side++)
            for (int j = 0; j < 64; j++)
                sum[side][j] += count[p][side][j];
    free(count);
    if (failed)
        return -1;
    join_renaming_make(&jt->rn, sum[JOIN_TOP], sum[JOIN_BOTTOM]);
    make_turn(jt);
    return make_views(jt, stop);
}

int join_tables_init(join_tables *jt, int n, const join_kernel *kernel, const atomic_int *stop)
{
    return join_tables_init_parts(jt, n, kernel, join_parts(n), 1, stop);
}

/* The block tables of jt's sides, one per distinct size, and each side's bounds. */
static int make_blocks(join_tables *jt, const atomic_int *stop)
{
    for (int side = 0; side < 2; side++) {
        split_rows(jt->n, side, jt->parts, jt->k[side]);
        jt->near[side] = jt->k[side][0];
        for (int b = 0; b < jt->parts; b++) {
            int k = jt->k[side][b];
            if (!join_tables_block(jt, k) &&
                block_init(&jt->block[jt->n_blocks++], jt, k, stop) != 0) {
                jt->n_blocks--;
                return -1;
            }
        }
        side_bounds(jt->parts, jt->k[side], &jt->step_most[side], &jt->compose_most[side]);
    }
    return 0;
}

int join_tables_init_parts(join_tables *jt, int n, const join_kernel *kernel, int parts,
                           int threads, const atomic_int *stop)
{
    assert(n >= 1 && n <= JOIN_MAX_N && (parts == 2 || parts == 3) && threads >= 1);
    memset(jt, 0, sizeof(*jt));
    jt->n = n;
    jt->threads = threads;
    jt->kernel = kernel;
    jt->parts = parts;
    jt->h = n / 2;
    jt->rows[JOIN_TOP] = side_rows(n, JOIN_TOP);
    jt->d0[JOIN_TOP] = 1;
    /* even: row h is the bottom side's first; odd: the middle row, apart from both */
    jt->rows[JOIN_BOTTOM] = side_rows(n, JOIN_BOTTOM);
    jt->d0[JOIN_BOTTOM] = n % 2 ? 1 : 0;
    fill_binom(jt);
    if (make_blocks(jt, stop) != 0 || make_renaming(jt, stop) != 0) {
        join_tables_free(jt);
        return -1;
    }
    return 0;
}

void join_tables_free(join_tables *jt)
{
    for (int side = 0; side < 2; side++)
        for (int b = 0; b < 3; b++) {
            join_view *v = &jt->view[side][b];
            huge_free(v->diag);
            huge_free(v->mask);
            huge_free(v->diag2);
            *v = (join_view){NULL, NULL, NULL};
        }
    for (int i = 0; i < jt->n_blocks; i++) {
        free(jt->block[i].start);
        huge_free(jt->block[i].rel);
    }
    jt->n_blocks = 0;
}

const join_block *join_tables_block(const join_tables *jt, int k)
{
    for (int i = 0; i < jt->n_blocks; i++)
        if (jt->block[i].k == k)
            return &jt->block[i];
    return NULL;
}

join_sides join_task_sides(const join_tables *jt, uint32_t top, int middle)
{
    uint32_t all = board_mask(jt->n);
    join_sides sd = {{top, all & ~top}, 0};

    if (middle >= 0) {
        uint64_t q = (uint64_t)1 << middle | (uint64_t)1 << (jt->n + middle);
        sd.cols[JOIN_BOTTOM] &= ~(1u << middle);
        sd.forbid = join_rename(&jt->rn, q);
    }
    return sd;
}

int join_buf_room(const join_buf *out, size_t used, size_t k)
{
    return used + k + JOIN_HALVES_SLACK <= out->cap ? 0 : -1;
}

int join_buf_reserve(join_buf *b, size_t k)
{
    size_t cap = k + JOIN_HALVES_SLACK;
    uint64_t *v;

    if (cap <= b->cap)
        return 0;
    if (!(v = realloc(b->v, cap * sizeof(*v))))
        return -1;
    b->v = v;
    b->cap = cap;
    return 0;
}

/* Twice b's size, or its most if that is less, but at least k. */
static size_t doubled(const join_buf *b, size_t k)
{
    size_t want = b->cap ? 2 * b->cap : 1024;
    if (b->most && want > b->most)
        want = b->most;
    return want > k ? want : k;
}

int join_buf_need(join_buf *b, size_t k)
{
    if (k + JOIN_HALVES_SLACK <= b->cap)
        return 0;
    return join_buf_reserve(b, doubled(b, k));
}

size_t join_halves_piece(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                         size_t limit, join_piece *pc, join_buf *out)
{
    size_t k = 0;

    assert(jt->parts == 2 || pc->far);
    for (;;) {
        k = jt->kernel->halves(jt, side, cols, forbid, pc, k, limit, out);
        if (k == SIZE_MAX || pc->done || k >= limit)
            return k;
        /* no room for the next step: k + step_most masks are enough */
        if (join_buf_reserve(out, doubled(out, k + (size_t)jt->step_most[side])) != 0)
            return SIZE_MAX;
    }
}

size_t join_halves_growing(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                           join_buf *out)
{
    join_far far = {{NULL, 0, 0}, {NULL, 0, 0}};
    join_piece pc = join_piece_first(jt, side, &far);
    size_t k = join_halves_piece(jt, side, cols, forbid, SIZE_MAX, &pc, out);

    join_far_free(&far);
    return k;
}

void join_far_free(join_far *f)
{
    free(f->diag.v);
    free(f->mask.v);
    f->diag = f->mask = (join_buf){NULL, 0, 0};
}
