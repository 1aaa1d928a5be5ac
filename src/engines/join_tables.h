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
 * half-boards are made: each side is a near block (next to row h) and a far block, or
 * from n = 25 on, where a far block's table would pass 10 GB, a near, a mid and a far
 * block (join_parts). */
typedef struct join_block {
    int k;            /* rows */
    uint32_t *start;  /* by colex rank of the column set: entries start[r]..start[r+1]-1 */
    uint64_t *rel;    /* per entry: bits c + i (low half) and c - i + k (high half) */
    uint64_t entries; /* placements in all */
} join_block;

/* The most placements of a block on one column set: 6!, a block having at most six rows
 * (two blocks a side up to n = 24; three, of at most five, from 25 to JOIN_MAX_N). */
#define JOIN_BLOCK_SET_MOST 720

/* A block's entries as one side places them (near or far block), per entry: its
 * diagonals where the side's other block can meet them (join_block_diagonals), and its
 * part of the half-board mask at row h, renamed. Both arrays have JOIN_VIEW_SLACK
 * entries past the last, which the vector loops may read (and then ignore). */
typedef struct join_view {
    uint64_t *diag, *mask;
    uint64_t *diag2; /* three blocks a side, mid and far: the diagonals where the other of
                        the two can meet them (NULL otherwise) */
} join_view;
#define JOIN_VIEW_SLACK 8

/* What every worker of a count shares: the board, the split, the block tables. */
typedef struct join_tables {
    int n, h;            /* board; row h is where the sides meet */
    int rows[2];         /* rows per side */
    int d0[2];           /* distance from row h of each side's nearest row */
    int near[2];         /* rows of each side's near block; the far part has the rest */
    int parts;           /* blocks per side: 2 or 3 (join_parts) */
    int k[2][3];         /* rows of each side's blocks, near first (k[side][0] = near) */
    join_block block[4]; /* distinct block sizes, see join_tables_block */
    int n_blocks;
    /* per side: the most masks one step of join_halves adds (the longer of a near
     * subset's two lists), and with three blocks the most entries of a far part
     * (join_halves.c's compose), so that a worker's lists have a bound before any is made */
    uint64_t step_most[2], compose_most[2];
    uint32_t binom[33][33];
    join_renaming rn;                 /* applied to every half-board mask join_halves writes */
    join_view view[2][3];             /* by side and block: each block entry as placed */
    join_renaming turn;               /* a top half-board's mask to that of its image under the half
                                         turn, a bottom half-board (renamed to renamed) */
    const struct join_kernel *kernel; /* the hot loops this count runs */
    int threads;                      /* the threads that may build the views and sample */
} join_tables;

/* The blocks per side for board n: two up to n = 24; from 25 on three, so that no block
 * has more than five rows (the tables of two blocks would pass 10 GB at n = 26). */
/* -DJOIN_TWO_MAX=K builds three-block sides from n = K + 1 on, to measure them against
 * two (docs/join.md: at n = 24 three took 1.15x the CPU of two, for 0.13 GB of tables
 * against 1.9 GB). */
#ifndef JOIN_TWO_MAX
#define JOIN_TWO_MAX 24
#endif
static inline int join_parts(int n)
{
    return n <= JOIN_TWO_MAX ? 2 : 3;
}

/* Tables for board n, whose half-boards kernel makes (join_kernel_find), with
 * join_parts(n) blocks per side, on the calling thread: 0, or -1 without memory or once
 * stop (core/stop.h; NULL: none) is seen, seconds sooner from n = 22 on;
 * join_tables_init_parts with parts (2 or 3) of them (the tests force three blocks on
 * small boards), their views and renaming sample built on up to `threads` threads (a
 * count's workers, before they start: core/split.h). */
int join_tables_init(join_tables *jt, int n, const struct join_kernel *kernel,
                     const atomic_int *stop);
int join_tables_init_parts(join_tables *jt, int n, const struct join_kernel *kernel, int parts,
                           int threads, const atomic_int *stop);

/* What join_tables_init_parts makes for board n, found without making it (a walk over
 * the block placements, a fraction of a second at n = 24): the bytes it allocates, the
 * placements of the largest block, the larger of the sides' step_most and
 * compose_most, and the rows of the top side's blocks (its k). */
typedef struct join_census {
    uint64_t bytes, largest, step_most, compose_most;
    int k[3];
} join_census;
join_census join_tables_census(int n, int parts);
void join_tables_free(join_tables *jt);
/* The block table for k rows. */
const join_block *join_tables_block(const join_tables *jt, int k);

/* Where block b (0 near) of a side lies: its rows are at distance d0, d0 + 1, ... from
 * row h. */
static inline int join_block_d0(const join_tables *jt, int side, int b)
{
    int d0 = jt->d0[side];
    for (int i = 0; i < b; i++)
        d0 += jt->k[side][i];
    return d0;
}

/* The columns of a set, lowest first, so that a subset of its indices maps to columns
 * with one OR per member (pdep would do it in one instruction, but is slow on AMD
 * before Zen 3). */
typedef struct join_cols {
    uint32_t bit[32];
} join_cols;

static inline join_cols join_list_cols(uint32_t cols)
{
    join_cols cl;
    for (int i = 0; cols; cols &= cols - 1, i++)
        cl.bit[i] = cols & -cols;
    return cl;
}

/* The members of the listed columns picked by the index bits of x. */
static inline uint32_t join_pick(const join_cols *cl, uint32_t x)
{
    uint32_t out = 0;
    for (; x; x &= x - 1)
        out |= cl->bit[__builtin_ctz(x)];
    return out;
}

/* n choose k (n <= 33): the column sets of k of n columns. */
static inline uint64_t join_binomial(int n, int k)
{
    uint64_t c = 1;
    for (int j = 0; j < k; j++)
        c = c * (uint64_t)(n - j) / (uint64_t)(j + 1);
    return c;
}

/* The colex rank of a column set among those of its size: a block table's index. */
static inline uint32_t join_colex_rank(const join_tables *jt, uint32_t cols)
{
    uint32_t rank = 0;
    for (int i = 1; cols; cols &= cols - 1, i++)
        rank += jt->binom[__builtin_ctz(cols)][i];
    return rank;
}

/* The colex ranks of set less each of its members in turn, the lowest member first,
 * into less[0 .. its size): the members past the one left out each move down a place, so
 * that a sum of parts before it and one of parts after it make each rank. */
static inline void join_colex_ranks_less_one(const join_tables *jt, uint32_t set, uint32_t *less)
{
    uint32_t col[32], before = 0, after = 0;
    int k = 0;

    for (; set; set &= set - 1)
        col[k++] = (uint32_t)__builtin_ctz(set);
    for (int j = k - 1; j >= 0; j--) {
        less[j] = after;
        after += jt->binom[col[j]][j];
    }
    for (int j = 0; j < k; j++) {
        less[j] += before;
        before += jt->binom[col[j]][j + 1];
    }
}

/* x shifted left by s, or right by -s. */
static inline uint64_t join_shift(uint64_t x, int s)
{
    return s >= 0 ? x << s : x >> -s;
}

/* A block placement's diagonals as a block of its side that starts at distance w can
 * meet them, from its entry rel (k rows from distance d0): its queen at distance t from
 * row h in column c is on diagonals c + t and c - t. Rows nearer row h than w share with
 * the rows from w on only the n - 1 diagonals c + t = w .. w + n - 2 and c - t = 1 - w ..
 * n - 1 - w, kept as bits 0..n-2 and 32..32+n-2, so that one AND tests both ways; rows
 * beyond w keep theirs among those. */
static inline uint64_t join_block_diagonals(int n, int k, int d0, int w, uint64_t rel)
{
    uint64_t keep = ((uint64_t)1 << (n - 1)) - 1;
    uint64_t up = join_shift(rel & 0xffffffffu, d0 - w);   /* bit c + i to c + t - w */
    uint64_t down = join_shift(rel >> 32, w - 1 - k - d0); /* c - i + k to c - t + w - 1 */
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
    size_t most; /* the masks doubling stops at (0: none), so that a worker's lists keep
                    within their share of its memory */
} join_buf;

/* Whether out has room for k more masks past its first used ones (and the slack below):
 * 0, or -1 when it is too short. */
int join_buf_room(const join_buf *out, size_t used, size_t k);
/* Make b hold k masks and the slack below (it may move): 0, or -1 without memory. */
int join_buf_reserve(join_buf *b, size_t k);
/* The same when b is too short, to at least twice its size (or b->most, if less and
 * enough), so that longer and longer lists move it a few times only. */
int join_buf_need(join_buf *b, size_t k);

/* Where the making of one side's half-boards on one column set stands, so that a long
 * list can be made and paired a piece at a time: the index bits (within the column set)
 * of the next near column subset, and whether none is left. */
typedef struct join_far join_far;
typedef struct join_piece {
    uint32_t x;
    size_t j; /* the entry of the shorter of x's two lists to go on from */
    int done;
    join_far *far; /* three blocks a side: the far part's entries, made per near subset */
} join_piece;

static inline join_piece join_piece_first(const join_tables *jt, int side, join_far *far)
{
    int kn = jt->near[side];
    return (join_piece){kn ? (1u << kn) - 1 : 0, 0, 0, far};
}

/* The next piece of side's half-boards on cols without the bits forbid, from pc on, into
 * out from its start: limit masks or more, unless fewer are left (then pc->done). out
 * grows as it must, to limit + jt->step_most[side] masks at most; SIZE_MAX without
 * memory. */
size_t join_halves_piece(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                         size_t limit, join_piece *pc, join_buf *out);
/* All of them, in one piece. */
size_t join_halves_growing(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                           join_buf *out);
/* The bits of all of them (no bit forbidden) counted into cnt (join_bit_counts), made in
 * buf a piece of piece masks at a time, with a look at the stop after each: 0, or -1 on
 * a stop or without memory. What the renaming learns from, a stop at most a piece away. */
int join_side_bit_counts(const join_tables *jt, int side, uint32_t cols, size_t piece,
                         const atomic_int *stop, join_buf *buf, uint64_t cnt[64]);

/* A far part of three blocks' side: the placements of its mid and far blocks on one
 * column set that fit each other, each entry's diagonals where the near block can meet
 * them (diag) and its part of the half-board mask (mask), with JOIN_VIEW_SLACK entries
 * of room past the last. */
struct join_far {
    join_buf diag, mask;
};

void join_far_free(join_far *f);

/* Of the top half-boards top[0..k) of a task whose bottom columns are its top columns
 * reversed, those that form a solution with their image under the half turn. */
uint64_t join_half_turn_fixed(const join_tables *jt, const uint64_t *top, size_t k);

#endif
