/* Prefix task source. Mirror halving: reflecting a board left-right maps solutions to
 * solutions, so row 0 only takes the left half of the columns and each such prefix
 * stands for two boards (weight 2). For odd n the middle column of row 0 is its own
 * mirror image; there the reflection pairs up the choices of row 1 instead (row 1
 * can never use the middle column next to it), so row 1 takes the left half and the
 * weight is 2 again. Only a prefix of one row on an odd board keeps weight 1. */
#include <stddef.h>
#include <stdio.h>

#include "core/engine.h"
#include "engines/dfs.h"
#include "engines/lex.h"
#include "engines/prefix.h"
#include "engines/task_cost.h"

typedef struct walk {
    int n, rows;
    uint32_t all;
    uint64_t next_id;
    task_emit_fn emit;
    void *user;
    int stopped;
    uint64_t nodes_left; /* placements the walk may still make (prefix_count_bounded) */
} walk;

/* Place rows row..rows-1; limit restricts the columns of the row being placed. */
static void place(walk *w, int row, uint32_t cols, uint32_t ld, uint32_t rd, uint32_t limit,
                  int weight)
{
    uint32_t avail;

    if (w->stopped)
        return;
    if (w->nodes_left-- == 0) {
        w->stopped = 1;
        return;
    }
    if (row == w->rows) {
        task t = {.id = w->next_id++,
                  .cols = cols,
                  .ld = ld,
                  .rd = rd,
                  .row = (uint8_t)row,
                  .weight = (uint8_t)weight};
        if (w->emit && w->emit(w->user, &t))
            w->stopped = 1;
        return;
    }
    avail = w->all & ~(cols | ld | rd) & limit;
    while (avail) {
        uint32_t bit = avail & -avail;
        avail ^= bit;
        place(w, row + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1, w->all, weight);
    }
}

static uint64_t run_walk(int n, int rows, task_emit_fn emit, void *user, uint64_t *nodes_left)
{
    walk w = {n, rows, board_mask(n), 0, emit, user, 0, *nodes_left};
    uint32_t half = (1u << (n / 2)) - 1;

    if (rows < 1)
        w.rows = 1;
    if (w.rows > n)
        w.rows = n;
    place(&w, 0, 0, 0, 0, half, 2);
    if (n & 1) {
        uint32_t mid = 1u << (n / 2);
        if (w.rows == 1)
            place(&w, 1, mid, mid << 1, mid >> 1, w.all, 1);
        else {
            /* row 1 in the left half only, each prefix standing for its mirror */
            uint32_t avail = w.all & ~(mid | (mid << 1) | (mid >> 1)) & half;
            while (avail && !w.stopped) {
                uint32_t bit = avail & -avail;
                avail ^= bit;
                place(&w, 2, mid | bit, ((mid << 1) | bit) << 1, ((mid >> 1) | bit) >> 1, w.all, 2);
            }
        }
    }
    *nodes_left = w.nodes_left;
    return w.next_id;
}

uint64_t prefix_enumerate(int n, int rows, task_emit_fn emit, void *user)
{
    uint64_t unlimited = UINT64_MAX;
    return run_walk(n, rows, emit, user, &unlimited);
}

int prefix_count_bounded(int n, int rows, uint64_t max_nodes, uint64_t *tasks)
{
    uint64_t left = max_nodes;
    *tasks = run_walk(n, rows, NULL, NULL, &left);
    return left == UINT64_MAX ? -1 : 0; /* wrapped: the budget ran out */
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

static int prefix_task_count_bounded(const nq_settings *s, uint64_t max_nodes, uint64_t *tasks)
{
    return prefix_count_bounded(s->n, s->prefix_rows, max_nodes, tasks);
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
    .task_cost = prefix_task_cost,
};
