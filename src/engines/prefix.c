/* Prefix task source. Mirror halving: reflecting a board left-right maps solutions to
 * solutions, so row 0 only takes the left half of the columns and each such prefix
 * stands for two boards (weight 2). For odd n the middle column of row 0 is its own
 * mirror image; there the reflection pairs up the choices of row 1 instead (row 1
 * can never use the middle column next to it), so row 1 takes the left half and the
 * weight is 2 again. Only a prefix of one row on an odd board keeps weight 1. */
#include <stddef.h>
#include <stdio.h>

#include "core/board.h"
#include "core/engine.h"
#include "engines/lex.h"
#include "engines/prefix.h"
#include "engines/row_parts.h"
#include "engines/search_level.h"
#include "engines/task_cost.h"

typedef struct walk {
    uint64_t next_id;
    task_emit_fn emit;
    void *user;
    int weight; /* of the prefixes the walk now makes */
} walk;

static int emit_prefix(void *user, const board_place *p)
{
    walk *w = user;
    task t = board_place_task(p, w->next_id++, w->weight);
    return w->emit && w->emit(w->user, &t);
}

/* The prefixes of rows rows with mirror halving: the first queen in the left half, each
 * prefix standing for its mirror too (weight 2); on an odd board then the middle
 * column, the second queen in the left half (weight 2; 1 for a one-row prefix, which
 * is its own mirror). bound: as board_walk's. */
static uint64_t run_walk(int n, int rows, task_emit_fn emit, void *user, board_bound *bound)
{
    uint32_t all = board_mask(n), half = (1u << (n / 2)) - 1, mid = 1u << (n / 2);
    walk w = {0, emit, user, 2};
    board_place p = {0};

    rows = rows < 1 ? 1 : rows > n ? n : rows;
    if (board_walk(&p, all, rows, half, bound, emit_prefix, &w) || n % 2 == 0)
        return w.next_id;
    p = (board_place){.row = 1, .cols = mid, .ld = mid << 1, .rd = mid >> 1, .q = {n / 2}};
    w.weight = rows == 1 ? 1 : 2;
    board_walk(&p, all, rows, rows == 1 ? all : half, bound, emit_prefix, &w);
    return w.next_id;
}

uint64_t prefix_enumerate(int n, int rows, task_emit_fn emit, void *user)
{
    return run_walk(n, rows, emit, user, NULL);
}

int prefix_count_bounded(int n, int rows, board_bound *bound, uint64_t *tasks)
{
    *tasks = run_walk(n, rows, NULL, NULL, bound);
    /* wrapped: the budget ran out */
    return bound->nodes == UINT64_MAX || stop_seen(bound->stop) ? -1 : 0;
}

int prefix_auto_rows(int n, int threads)
{
    int rows = 2;
    /* Subtrees differ in size by an order of magnitude, so aim for dozens of tasks per
     * worker; the queue hands them out dynamically. */
    while (rows < n - 4 && prefix_enumerate(n, rows, 0, 0) < 48ull * (uint64_t)threads)
        rows++;
    return rows < n ? rows : n;
}

void prefix_resolve(nq_settings *s, int threads)
{
    if (s->prefix_rows == 0)
        s->prefix_rows = prefix_auto_rows(s->n, threads);
}

/* ---- the engine descriptor ------------------------------------------------------------ */

static void prefix_params_format(const nq_settings *s, char *buf, size_t size)
{
    snprintf(buf, size, "prefix_rows=%d", s->prefix_rows);
}

static int prefix_params_parse(const char *params, nq_settings *s)
{
    int rows, used = 0;
    if (sscanf(params, "prefix_rows=%d%n", &rows, &used) != 1 || params[used] != '\0' || rows < 1 ||
        rows > s->n)
        return NQ_EINVAL;
    s->prefix_rows = rows;
    return NQ_OK;
}

static uint64_t prefix_source(const nq_settings *s, task_emit_fn emit, void *user)
{
    return prefix_enumerate(s->n, s->prefix_rows, emit, user);
}

static int prefix_task_count_bounded(const nq_settings *s, board_bound *bound, uint64_t *tasks)
{
    return prefix_count_bounded(s->n, s->prefix_rows, bound, tasks);
}

static uint64_t prefix_task_count(const nq_settings *s)
{
    return prefix_source(s, NULL, NULL);
}

static int prefix_placed_rows(const nq_settings *s)
{
    return s->prefix_rows;
}

static engine_status prefix_complete(const engine_worker *w, const task *t, uint64_t *subtotal)
{
    int stopped;
    *subtotal =
        dfs_search(board_mask(w->s->n), w->s->n - t->row, t->cols, t->ld, t->rd, w, &stopped);
    return stopped ? ENGINE_STOPPED : ENGINE_DONE;
}

typedef struct prefix_parts {
    const engine_worker *w;
    int rows_left; /* below the task's prefix */
} prefix_parts;

static engine_status prefix_part(void *user, int placed, uint32_t cols, uint32_t ld, uint32_t rd,
                                 uint64_t *subtotal)
{
    const prefix_parts *pp = user;
    int stopped;

    *subtotal =
        dfs_search(board_mask(pp->w->s->n), pp->rows_left - placed, cols, ld, rd, pp->w, &stopped);
    return stopped ? ENGINE_STOPPED : ENGINE_DONE;
}

/* A task's parts are the placements of the rows below its prefix, as many as leave the
 * search its tail and a row above it (row_parts.h). */
static engine_status prefix_complete_parts(const engine_worker *w, const task *t, engine_parts *p,
                                           uint64_t *subtotal)
{
    uint32_t free[32], shift[32];
    prefix_parts pp = {w, w->s->n - t->row};
    row_parts_rows r = {free, shift, pp.rows_left, t->cols, t->ld, t->rd, 0};

    for (int d = 0; d < r.rows; d++)
        free[d] = board_mask(w->s->n), shift[d] = 1;
    return row_parts_complete(&r, p, prefix_part, &pp, subtotal);
}

/* A prefix's subtree grows with its placements a few rows deeper: every subtree below
 * is about as deep, so their sizes differ mostly by how many branches survive early. */
static double prefix_task_cost(const void *shared, const task *t)
{
    const task_cost_board *b = shared;
    uint32_t all = board_mask(b->n), free[TASK_COST_ROWS], shift[TASK_COST_ROWS];
    int rows = b->n - t->row < TASK_COST_ROWS ? b->n - t->row : TASK_COST_ROWS;

    for (int d = 0; d < rows; d++)
        free[d] = all, shift[d] = 1;
    return (double)task_cost_placements(free, shift, rows, t->cols, t->ld, t->rd);
}

const engine_desc engine_prefix = {
    .name = "prefix",
    .id = NQ_ENGINE_PREFIX,
    .built = 1,
    .takes_prefix_rows = 1,
    .pins_workers = 1,
    .list = &lex_lister,
    .resolve = prefix_resolve,
    .params_format = prefix_params_format,
    .params_parse = prefix_params_parse,
    .task_count = prefix_task_count,
    .task_count_bounded = prefix_task_count_bounded,
    .source = prefix_source,
    .placed_rows = prefix_placed_rows,
    .shared_init = task_cost_board_init, /* the board, for the cost model */
    .shared_free = task_cost_board_free,
    .complete = prefix_complete,
    .complete_parts = prefix_complete_parts,
    .task_cost = prefix_task_cost,
};
