/* The join engine's tables (join_tables.c), which every worker of a count shares, and
 * the buffers half-boards are written to.
 *
 * Row h splits the board. For even n, h = n / 2 and the bottom side starts at row h; for
 * odd n, h = (n - 1) / 2 is the middle row, whose one queen a task fixes, and the two
 * sides are the h rows above and below it. A half-board is a placement of one side's
 * rows, one queen per row, no two attacking. Its mask holds the diagonals it reaches at
 * row h, where the sides meet: bit j for the diagonal r - c = h - j through (h, j), bit
 * n + j for r + c = h + j, j = 0..n-1, then renamed (join_renaming). A top and a bottom
 * half-board with complementary column sets (bar the middle queen's) form a solution
 * exactly when their masks are disjoint and neither meets the middle queen. */
#ifndef NQ_JOIN_TABLES_H
#define NQ_JOIN_TABLES_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/join_renaming.h"

enum { JOIN_TOP = 0, JOIN_BOTTOM = 1 };

/* All placements of one block of k consecutive rows, grouped by column set, from which
 * half-boards are made: each side is a near block (next to row h) and a far block. */
typedef struct join_block {
    int k;            /* rows */
    uint32_t *start;  /* by colex rank of the column set: entries start[r]..start[r+1]-1 */
    uint64_t *rel;    /* per entry: bits c + i (low half) and c - i + k (high half) */
    uint64_t entries; /* placements in all */
} join_block;

/* A block's entries as one side places them (near or far block), per entry: its
 * diagonals where the side's other block can meet them (join_block_diagonals), and its
 * part of the half-board mask at row h, renamed. Both arrays have JOIN_VIEW_SLACK
 * entries past the last, which the vector loops may read (and then ignore). */
typedef struct join_view {
    uint64_t *diag, *mask;
} join_view;
#define JOIN_VIEW_SLACK 8

/* What every worker of a count shares: the board, the split, the block tables. */
typedef struct join_tables {
    int n, h;            /* board; row h is where the sides meet */
    int rows[2];         /* rows per side */
    int d0[2];           /* distance from row h of each side's nearest row */
    int near[2];         /* rows of each side's near block; the far block has the rest */
    join_block block[4]; /* distinct block sizes, see join_tables_block */
    int n_blocks;
    uint32_t binom[33][33];
    join_renaming rn;                 /* applied to every half-board mask join_halves writes */
    join_view view[2][2];             /* by side and near/far: each block entry as placed */
    join_renaming turn;               /* a top half-board's mask to that of its image under the half
                                         turn, a bottom half-board (renamed to renamed) */
    const struct join_kernel *kernel; /* the hot loops this count runs */
} join_tables;

/* Tables for board n, whose half-boards kernel makes (join_kernel_find): 0, or -1 without
 * memory or once stop (core/stop.h; NULL: none) is seen, seconds sooner from n = 22 on. */
int join_tables_init(join_tables *jt, int n, const struct join_kernel *kernel,
                     const atomic_int *stop);
/* The bytes join_tables_init allocates for board n, found without making them (a walk
 * over the block placements, a fraction of a second at n = 24); *far_entries gets the
 * placements of the larger block, which bound a side's half-boards per column set. */
uint64_t join_tables_bytes(int n, uint64_t *far_entries);
void join_tables_free(join_tables *jt);
/* The block table for k rows. */
const join_block *join_tables_block(const join_tables *jt, int k);

/* Where a block lies: its rows are at distance d0, d0 + 1, ... from row h. */
static inline int join_block_d0(const join_tables *jt, int side, int far)
{
    return jt->d0[side] + (far ? jt->near[side] : 0);
}

/* The colex rank of a column set among those of its size: a block table's index. */
static inline uint32_t join_colex_rank(const join_tables *jt, uint32_t cols)
{
    uint32_t rank = 0;
    for (int i = 1; cols; cols &= cols - 1, i++)
        rank += jt->binom[__builtin_ctz(cols)][i];
    return rank;
}

/* A block placement's diagonals as the other block of its side can meet them, from its
 * entry rel (k rows from distance d0; the side's far block starts at distance w): its
 * queen at distance t from row h in column c is on diagonals c + t and c - t. The two
 * blocks share only the n - 1 diagonals c + t = w .. w + n - 2 and c - t = 1 - w ..
 * n - 1 - w, kept as bits 0..n-2 and 32..32+n-2, so that one AND tests both ways. */
static inline uint64_t join_block_diagonals(int n, int k, int d0, int w, uint64_t rel)
{
    uint64_t keep = ((uint64_t)1 << (n - 1)) - 1;
    uint64_t up = (rel & 0xffffffffu) >> (w - d0);   /* bit c + i from c + t - w */
    uint64_t down = (rel >> 32) >> (k + d0 + 1 - w); /* bit c - i + k from c - t + w - 1 */
    return (up & keep) | (down & keep) << 32;
}

/* What a task pairs up: the column sets of its two sides, and the renamed mask bits a
 * half-board must not have (those of the middle queen on odd boards; else 0). */
typedef struct join_sides {
    uint32_t cols[2];
    uint64_t forbid;
} join_sides;
join_sides join_task_sides(const join_tables *jt, uint32_t top, int middle);

/* A buffer of masks, of cap entries, reserved before a count's first task: nothing
 * grows while the hot loops run, only between them when a list is longer than any a
 * measured count made (join.c, list_reserve). */
typedef struct join_buf {
    uint64_t *v;
    size_t cap;
} join_buf;

/* Whether out has room for k more masks past its first used ones (and the slack below):
 * 0, or -1 when it is too short. */
int join_buf_room(const join_buf *out, size_t used, size_t k);
/* Make b hold k masks and the slack below (it may move): 0, or -1 without memory. */
int join_buf_reserve(join_buf *b, size_t k);
/* The same when b is too short, to at least twice its size, so that longer and longer
 * lists move it a few times only. */
int join_buf_need(join_buf *b, size_t k);

/* jt's kernel's halves, growing out until they fit; SIZE_MAX without memory. */
size_t join_halves_growing(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                           join_buf *out);

/* Of the top half-boards top[0..k) of a task whose bottom columns are its top columns
 * reversed, those that form a solution with their image under the half turn. */
uint64_t join_half_turn_fixed(const join_tables *jt, const uint64_t *top, size_t k);

#endif
