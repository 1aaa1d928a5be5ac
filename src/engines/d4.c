/* The d4 engine. The task source presets the four border queens (row 0, row n-1,
 * column 0, column n-1) and keeps one border per orbit of the square's symmetry group;
 * the workers fill the inner rows with a bitmask DFS that skips the preset rows
 * (src/engines/d4tail.c, its last five rows settled by table). Why the weights and the unique
 * counts are right: docs/d4.md. */
#include "engines/d4.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "engines/d4tail.h"
#include "engines/lex.h"
#include "engines/prefix.h"
#include "engines/row_parts.h"
#include "engines/search_level.h"

/* The four border queens as squares (row, column); a corner queen appears twice. */
static void border_squares(int n, const uint8_t e[4], int sq[4][2])
{
    sq[0][0] = 0, sq[0][1] = e[D4_TOP];
    sq[1][0] = n - 1, sq[1][1] = e[D4_BOTTOM];
    sq[2][0] = e[D4_LEFT], sq[2][1] = 0;
    sq[3][0] = e[D4_RIGHT], sq[3][1] = n - 1;
}

void d4_border_map(int n, int g, const uint8_t e[4], uint8_t out[4])
{
    int sq[4][2];
    memcpy(out, e, 4);
    border_squares(n, e, sq);
    /* A symmetry takes border squares to border squares, so every side of the image
     * gets its queen from the image of some side. */
    for (int i = 0; i < 4; i++) {
        int r = sq[i][0], c = sq[i][1];
        symmetry_map(n, g, &r, &c);
        if (r == 0)
            out[D4_TOP] = (uint8_t)c;
        if (r == n - 1)
            out[D4_BOTTOM] = (uint8_t)c;
        if (c == 0)
            out[D4_LEFT] = (uint8_t)r;
        if (c == n - 1)
            out[D4_RIGHT] = (uint8_t)r;
    }
}

int d4_border_valid(int n, const uint8_t e[4])
{
    int sq[4][2];
    border_squares(n, e, sq);
    for (int i = 0; i < 4; i++) {
        if (sq[i][0] >= n || sq[i][1] >= n)
            return 0;
        for (int j = 0; j < i; j++) {
            int dr = sq[i][0] - sq[j][0], dc = sq[i][1] - sq[j][1];
            if (dr == 0 && dc == 0)
                continue; /* a corner queen seen from both of its sides */
            /* This also enforces the corners: a queen in (0,0) with the left queen
             * elsewhere shares column 0 with it. */
            if (dr == 0 || dc == 0 || dr == dc || dr == -dc)
                return 0;
        }
    }
    return 1;
}

static uint32_t border_key(const uint8_t e[4])
{
    return (uint32_t)e[0] << 24 | (uint32_t)e[1] << 16 | (uint32_t)e[2] << 8 | e[3];
}

int d4_border_canonical(int n, const uint8_t e[4], unsigned *stab)
{
    uint32_t key = border_key(e);
    unsigned fix = 1;
    int smallest = 1;

    for (int g = 1; g < 8; g++) {
        uint8_t img[4];
        uint32_t k;
        d4_border_map(n, g, e, img);
        k = border_key(img);
        if (k == key)
            fix |= 1u << g;
        else if (k < key)
            smallest = 0;
    }
    if (stab)
        *stab = fix;
    return smallest;
}

uint64_t d4_enumerate(int n, task_emit_fn emit, void *user)
{
    static const uint8_t weights[4] = {8, 4, 2, 1};
    uint64_t id = 0;
    uint8_t e[4];

    /* The bottom queen is not preset: it sits on the last row the DFS fills, where a
     * mask costs nothing, while presetting it would repeat the whole search of the top
     * rows (which its diagonals barely reach) once per column. So a task is a top, left
     * and right queen plus the bottom columns that make the border legal and canonical,
     * one task per orbit size so that each task has one weight. */
    for (int top = 0; top < n; top++)
        for (int left = 0; left < n; left++)
            for (int right = 0; right < n; right++) {
                uint32_t last[4] = {0, 0, 0, 0};
                e[D4_TOP] = (uint8_t)top;
                e[D4_LEFT] = (uint8_t)left;
                e[D4_RIGHT] = (uint8_t)right;
                for (int bottom = 0; bottom < n; bottom++) {
                    unsigned stab;
                    e[D4_BOTTOM] = (uint8_t)bottom;
                    if (!d4_border_valid(n, e) || !d4_border_canonical(n, e, &stab))
                        continue;
                    /* orbit size = |group| / |stabiliser|, so 8, 4, 2 or 1 */
                    assert((stab & 1) &&
                           (__builtin_popcount(stab) & (__builtin_popcount(stab) - 1)) == 0);
                    last[__builtin_ctz((unsigned)__builtin_popcount(stab))] |= 1u << bottom;
                }
                for (int w = 0; w < 4; w++) {
                    task t;
                    if (!last[w])
                        continue;
                    memset(&t, 0, sizeof(t));
                    t.id = id++;
                    t.weight = weights[w];
                    t.row = n > 1 ? 2 : 1; /* the border rows are placed */
                    t.last = last[w];
                    e[D4_BOTTOM] = 0;
                    memcpy(t.edge, e, 4);
                    if (emit && emit(user, &t))
                        return id;
                }
            }
    return id;
}

void d4_plan_build(int n, const task *t, d4_plan *p)
{
    uint32_t all = board_mask(n), taken_cols = 0, taken_rows = 0;
    int sq[3][2], row_of[32];

    /* top, left, right; the bottom queen is placed by the search, within t->last */
    sq[0][0] = 0, sq[0][1] = t->edge[D4_TOP];
    sq[1][0] = t->edge[D4_LEFT], sq[1][1] = 0;
    sq[2][0] = t->edge[D4_RIGHT], sq[2][1] = n - 1;
    for (int i = 0; i < 3; i++) {
        taken_rows |= 1u << sq[i][0];
        taken_cols |= 1u << sq[i][1];
    }
    p->depth = 0;
    for (int r = 0; r < n; r++) {
        uint32_t hit = taken_cols;
        if (taken_rows >> r & 1)
            continue;
        for (int i = 0; i < 3; i++) {
            int d = r > sq[i][0] ? r - sq[i][0] : sq[i][0] - r;
            if (sq[i][1] + d < n)
                hit |= 1u << (sq[i][1] + d);
            if (sq[i][1] - d >= 0)
                hit |= 1u << (sq[i][1] - d);
        }
        if (r == n - 1)
            hit |= ~t->last;
        row_of[p->depth] = r;
        p->free[p->depth++] = all & ~hit;
    }
    /* A corner queen on row n-1 came with the left or right queen; the source only
     * emits such a task when that corner is in t->last, the one legal bottom. */
    assert(t->edge[D4_LEFT] != n - 1 || (t->last & 1));
    assert(t->edge[D4_RIGHT] != n - 1 || (t->last >> (n - 1) & 1));
    p->cols = all & ~taken_cols;
    /* each preset queen takes one row and one column: as many free columns as rows */
    assert(__builtin_popcount(p->cols) == p->depth);
    for (int d = 0; d + 1 < p->depth; d++)
        p->shift[d] = (uint32_t)(row_of[d + 1] - row_of[d]);
    p->last = all;
    if (p->depth && row_of[p->depth - 1] == n - 1)
        p->last = p->free[p->depth - 1];
    for (int d = 0; d < p->depth; d++)
        p->to_last[d] = (uint32_t)(n - 1 - row_of[d]);
    if (p->depth)
        p->shift[p->depth - 1] = 1;
}

uint64_t d4_complete(int n, const task *t)
{
    int stopped;
    return d4_search(n, t, NULL, &stopped);
}

uint64_t d4_search(int n, const task *t, const engine_worker *w, int *stopped)
{
    d4_plan p;
    d4_plan_build(n, t, &p);
    return d4tail_search(&p, w, stopped);
}

/* The border's queens are a union of orbits of g (g fixes the border), so the orbit
 * search (engines/symmetry.c) starts from them. */
uint64_t d4_fixed_completions(int n, const uint8_t e[4], int g)
{
    symmetry_board b;
    int sq[4][2];

    symmetry_board_init(&b, n);
    border_squares(n, e, sq);
    for (int i = 0; i < 4; i++)
        if (!symmetry_board_place(&b, sq[i][0], sq[i][1]))
            return 0;
    return symmetry_fixed(&b, g);
}

uint64_t d4_fixed_sum(int n, const task *t)
{
    uint64_t sum = 0;
    uint8_t e[4];

    if (t->weight == 8)
        return 0; /* trivial stabiliser: no symmetry but the identity fixes a completion */
    memcpy(e, t->edge, 4);
    for (int bottom = 0; bottom < n; bottom++) {
        unsigned stab;
        if (!(t->last >> bottom & 1))
            continue;
        e[D4_BOTTOM] = (uint8_t)bottom;
        d4_border_canonical(n, e, &stab);
        for (int g = 1; g < 8; g++)
            if (stab >> g & 1)
                sum += d4_fixed_completions(n, e, g);
    }
    return sum;
}

uint64_t d4_unique(int n, const task *t, uint64_t subtotal)
{
    assert(t->weight == 1 || t->weight == 2 || t->weight == 4 || t->weight == 8);
    return (subtotal + d4_fixed_sum(n, t)) / (8u / t->weight);
}

/* ---- the engine descriptor ------------------------------------------------------------ */

/* The border set depends on n alone; the tag names the enumeration order, so a later
 * change of that order must change the tag. */
void d4_params_format(const nq_settings *s, char *buf, size_t size)
{
    (void)s;
    snprintf(buf, size, "borders=v1");
}

int d4_params_parse(const char *params, nq_settings *s)
{
    (void)s;
    return strcmp(params, "borders=v1") == 0 ? NQ_OK : NQ_EINVAL;
}

uint64_t d4_source(const nq_settings *s, task_emit_fn emit, void *user)
{
    return d4_enumerate(s->n, emit, user);
}

uint64_t d4_task_count(const nq_settings *s)
{
    return d4_enumerate(s->n, NULL, NULL);
}

/* prefix_rows does not apply: the border rows 0 and n-1 are what is placed */
static int d4_placed_rows(const nq_settings *s)
{
    return s->n > 1 ? 2 : 1;
}

static engine_status d4_engine_complete(const engine_worker *w, const task *t, uint64_t *subtotal)
{
    int stopped;
    *subtotal = d4_search(w->s->n, t, w, &stopped);
    return stopped ? ENGINE_STOPPED : ENGINE_DONE;
}

uint64_t d4_engine_unique(const engine_worker *w, const task *t, uint64_t subtotal)
{
    return d4_unique(w->s->n, t, subtotal);
}

#define D4_COST_ROW_FACTOR 3.0

double d4_task_cost(const void *shared, const task *t)
{
    const task_cost_board *b = shared;
    d4_plan p;
    int rows;

    d4_plan_build(b->n, t, &p);
    rows = p.depth < TASK_COST_ROWS ? p.depth : TASK_COST_ROWS;
    /* the border queens' attacks are in free[]; the inner queens' start from nothing */
    /* A corner queen presets two border rows with one queen: one more inner row to
     * search, which the rows placed here do not see (about D4_COST_ROW_FACTOR times the
     * work, measured at n = 14..16). */
    return (double)task_cost_placements(p.free, p.shift, rows, board_mask(b->n) & ~p.cols, 0, 0) *
           (p.depth > b->n - 3 ? D4_COST_ROW_FACTOR : 1.0);
}

/* The plan of the rows below a placement of p's first placed rows (columns cols, the
 * diagonals ld and rd attacking the next row): the placed queens' attacks folded into
 * the later rows' open squares, so that the completion search runs on it unchanged. */
static void plan_skip(const d4_plan *p, int placed, uint32_t cols, uint32_t ld, uint32_t rd,
                      d4_plan *out)
{
    uint32_t dist = 0;

    assert(placed >= 0 && placed <= p->depth);
    out->depth = p->depth - placed;
    for (int d = 0; d < out->depth; d++) {
        const int r = placed + d;
        out->free[d] = p->free[r] & ~(cols | ld << dist | rd >> dist);
        out->shift[d] = p->shift[r];
        out->to_last[d] = p->to_last[r];
        dist += p->shift[r];
    }
    out->cols = p->cols & ~cols;
    out->last = p->last;
    if (out->depth && out->to_last[out->depth - 1] == 0)
        out->last = out->free[out->depth - 1]; /* row n-1 is searched: its squares left */
}

typedef struct d4_parts {
    const engine_worker *w;
    const d4_plan *plan;
} d4_parts;

static engine_status d4_part(void *user, int placed, uint32_t cols, uint32_t ld, uint32_t rd,
                             uint64_t *subtotal)
{
    const d4_parts *dp = user;
    d4_plan rest;
    int stopped;

    plan_skip(dp->plan, placed, cols, ld, rd, &rest);
    *subtotal = d4tail_search(&rest, dp->w, &stopped);
    return stopped ? ENGINE_STOPPED : ENGINE_DONE;
}

/* A task's parts are the placements of its first inner rows, as many as leave the
 * completion search its tail and a row above it (row_parts.h). */
static engine_status d4_complete_parts(const engine_worker *w, const task *t, engine_parts *p,
                                       uint64_t *subtotal)
{
    d4_plan plan;
    d4_parts dp = {w, &plan};
    row_parts_rows r;

    d4_plan_build(w->s->n, t, &plan);
    r = (row_parts_rows){plan.free, plan.shift, plan.depth, 0, 0, 0, 0};
    return row_parts_complete(&r, p, d4_part, &dp, subtotal);
}

const engine_desc engine_d4 = {
    .name = "d4",
    .id = NQ_ENGINE_D4,
    .built = 1,
    .auto_rank = 1, /* every board; past the join's tables, the fastest */
    .pins_workers = 1,
    .list = &lex_lister,
    D4_TASK_SET_MEMBERS,
    .placed_rows = d4_placed_rows,
    .complete = d4_engine_complete,
    .complete_parts = d4_complete_parts,
};
