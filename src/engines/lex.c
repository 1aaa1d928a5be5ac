/* The lexicographic lister: the prefixes of a board's first rows in lexicographic order
 * of their columns (no mirror halving), and each prefix completed by the search loop on
 * uniform rows, columns kept, every leaf stored in the listing runtime's sink. */
#include <assert.h>
#include <string.h>

#include "core/board.h"
#include "engines/lex.h"
#include "nqueens/nqueens.h"

/* Pushes between two looks at the stop flag in a subtree that yields nothing. */
#define LEX_STOP_CHECK 0xffffu

/* A worker's search of one task: the board's columns so far, and where they go. */
typedef struct lex_search_walk {
    uint32_t all; /* the board, here rather than read through a pointer: a column stored
                   * in q may alias anything that is reached through one */
    const list_sink *sink;
    int first; /* rows the task's prefix placed */
    int halt;  /* put asked to stop */
    uint8_t q[NQ_MAX_N];
} lex_search_walk;

/* A solution: store it, and stop the search if the run is stopping. */
static uint64_t lex_leaf(lex_search_walk *w)
{
    w->halt = w->sink->put(w->sink->ctx, w->q);
    return 1;
}

/* Complete the task's prefix in every way, lowest column first, which is lexicographic
 * order: the search loop on uniform rows, keeping the columns, every leaf stored. */
#define SEARCH_FN lex_search_rows
#define SEARCH_CTX lex_search_walk
#define SEARCH_FREE(w, d) ((w)->all)
#define SEARCH_SHIFT(w, d) 1u
#define SEARCH_SETTLE_ROWS 0
#define SEARCH_SETTLE(w, d, nc, nl, nr, na) lex_leaf(w)
#define SEARCH_COLUMN(w, d, col) ((w)->q[(w)->first + (d)] = (uint8_t)(col))
#define SEARCH_HALTED(w) ((w)->halt)
#define SEARCH_STOP_MASK LEX_STOP_CHECK
#define SEARCH_STOPPING(w) (w)->sink->stopping((w)->sink->ctx)
#include "engines/search_tmpl.c"

static void lex_search(int n, const task *t, const uint8_t *prefix, const list_sink *sink)
{
    lex_search_walk w = {board_mask(n), sink, t->row, 0, {0}};

    assert(t->row <= n);
    memcpy(w.q, prefix, t->row);
    lex_search_rows(&w, n - t->row, t->cols, t->ld, t->rd);
}

typedef struct lex_walk {
    list_emit_fn emit; /* NULL: only count */
    void *user;
    uint64_t next_id;
    uint64_t cap; /* counting stops at this many */
} lex_walk;

static int lex_prefix(void *user, const board_place *p)
{
    lex_walk *w = user;
    task t = board_place_task(p, w->next_id++, 1);
    return w->emit ? w->emit(w->user, &t, p->q) : w->next_id == w->cap;
}

static uint64_t lex_prefix_count(int n, int rows, uint64_t cap)
{
    lex_walk w = {NULL, NULL, 0, cap};
    board_place p = {0};
    if (cap > 0)
        board_walk(&p, board_mask(n), rows, board_mask(n), NULL, lex_prefix, &w);
    return w.next_id;
}

static int lex_source(int n, int rows, list_emit_fn emit, void *user)
{
    lex_walk w = {emit, user, 0, UINT64_MAX};
    board_place p = {0};
    return board_walk(&p, board_mask(n), rows, board_mask(n), NULL, lex_prefix, &w);
}

const engine_lister lex_lister = {
    .prefix_count = lex_prefix_count,
    .source = lex_source,
    .search = lex_search,
};
