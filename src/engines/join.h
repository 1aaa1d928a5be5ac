/* The join engine: counts a board by matching half-boards instead of visiting every
 * solution. Row h = n / 2 splits the board: the top half (rows 0..h-1) of a solution
 * takes some column set C, the bottom half takes the rest, and the two halves fit
 * exactly when no diagonal meets a queen of each. So Q(n) is the sum over C of the
 * number of disjoint pairs of diagonal masks, one from each side. docs/join.md says why
 * it is right and how each part was chosen. */
#ifndef NQ_JOIN_H
#define NQ_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/task.h"

/* Largest board the join engine takes: its half-board tables grow like the number of
 * placements of n/4 rows (join_tables_bytes: 0.6 GB at n = 22, 1.9 GB at n = 24; at
 * n = 26 they would pass 10 GB, and a count would take weeks). */
#define JOIN_MAX_N 24

/* ---- Disjoint pairs (join_pairs.c) -------------------------------------------------
 *
 * Masks are counted with their bits renamed (one permutation for both sides keeps
 * disjointness): the 2n bits packed from bit 63 down, so that the pair counter's
 * lookups cover as few bytes as possible, the bits where a top and a bottom half-board
 * collide most often first (an order that sorting and splitting once relied on). */

/* A renaming of bits, as the image of each byte of a mask. */
typedef struct join_renaming {
    uint64_t byte[8][256];
} join_renaming;

static inline uint64_t join_rename(const join_renaming *rn, uint64_t m)
{
    uint64_t img = 0;
    for (int byte = 0; m; byte++, m >>= 8)
        img |= rn->byte[byte][m & 0xff];
    return img;
}

/* The renaming that takes bit j to the mask to[j] (several bits, or none, may do). */
void join_renaming_of_bits(join_renaming *rn, const uint64_t to[64]);
void join_renaming_identity(join_renaming *rn);
/* Add how often each bit is set in v[0..k) to cnt. */
void join_bit_counts(const uint64_t *v, size_t k, uint64_t cnt[64]);
/* The renaming for sides whose bit counts are ca and cb. */
void join_renaming_make(join_renaming *rn, const uint64_t ca[64], const uint64_t cb[64]);

/* The number of pairs (a[i], b[j]) with a[i] & b[j] == 0 by the plain double loop, for
 * the tests and the short cases. The fast count is a kernel's (join_kernel). */
uint64_t join_pairs_naive(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

/* ---- Half-boards (join_halves.c) ---------------------------------------------------
 *
 * Row h splits the board. For even n, h = n / 2 and the bottom side starts at row h; for
 * odd n, h = (n - 1) / 2 is the middle row, whose one queen a task fixes, and the two
 * sides are the h rows above and below it. A half-board is a placement of one side's
 * rows, one queen per row, no two attacking. Its mask holds the diagonals it reaches at
 * row h, where the sides meet: bit j for the diagonal r - c = h - j through (h, j), bit
 * n + j for r + c = h + j, j = 0..n-1, then renamed (join_renaming). A top and a bottom
 * half-board with complementary column sets (bar the middle queen's) form a solution
 * exactly when their masks are disjoint and neither meets the middle queen. */

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

/* Tables for board n, whose half-boards kernel makes (join_kernel_find). */
int join_tables_init(join_tables *jt, int n, const struct join_kernel *kernel);
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

/* A buffer of masks, of cap entries, sized before a count's first task: nothing grows
 * while the hot loops run. */
typedef struct join_buf {
    uint64_t *v;
    size_t cap;
} join_buf;

/* Whether out has room for k more masks past its first used ones (and the slack below):
 * 0, or -1 when it is too short. */
int join_buf_room(const join_buf *out, size_t used, size_t k);
/* Make b hold k masks and the slack below (it may move): 0, or -1 without memory. */
int join_buf_reserve(join_buf *b, size_t k);

/* Room past the count that join_halves' vector stores need. */
#define JOIN_HALVES_SLACK 8

/* ---- The hot loops, one build per vector instruction set (join_kernel.c) -----------
 *
 * join_pairs.c and join_halves.c are compiled once per path with JOIN_ISA naming it
 * (scalar, avx2, avx512) and that path's compiler flags; a count runs the build that
 * settings.simd names, or the widest this CPU has. */

typedef struct join_kernel {
    int simd; /* enum nq_simd */
    /* The number of pairs (a[i], b[j]) with a[i] & b[j] == 0, for renamed masks.
     * tmp must have room for JOIN_PAIRS_TMP(max(na, nb)) entries, work is
     * JOIN_PAIRS_WORK bytes aligned to JOIN_PAIRS_ALIGN. */
    uint64_t (*pairs_count)(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                            uint64_t *tmp, void *work);
    /* Write the masks of every half-board of side on column set cols that has none of
     * the bits forbid into out; returns how many, or SIZE_MAX when out is too short for
     * the near x far placement pairs it tests (join_buf_room). */
    size_t (*halves)(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                     join_buf *out);
} join_kernel;

/* The kernel for simd (enum nq_simd; auto: the widest usable), or NULL when this build
 * lacks it or this CPU cannot run it. */
const join_kernel *join_kernel_find(int simd);
/* Whether the build carries simd's kernel, and whether this CPU can also run it. */
int join_kernel_built(int simd);
int join_kernel_usable(int simd);

/* The pair counter's lookup tables: 8 bytes x 256 values of 64 bytes. */
#define JOIN_PAIRS_WORK (8 * 256 * 64)
#define JOIN_PAIRS_ALIGN 64
/* Entries of tmp for sides of up to k masks: both sides sorted, and the lookup offsets
 * (two bytes for each of up to 8 digits of a mask). */
#define JOIN_PAIRS_TMP(k) (4 * (k))

#define JOIN_KERNEL_DECLARE(isa)                                                                   \
    uint64_t join_pairs_count_##isa(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,    \
                                    uint64_t *tmp, void *work);                                    \
    size_t join_halves_##isa(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,      \
                             join_buf *out)
JOIN_KERNEL_DECLARE(scalar);
JOIN_KERNEL_DECLARE(avx2);
JOIN_KERNEL_DECLARE(avx512);

/* jt's kernel's halves, growing out until they fit, for what runs before the workers
 * (the renaming's sample, the tests); SIZE_MAX without memory. */
size_t join_halves_growing(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                           join_buf *out);

/* In a kernel's source: name##_##JOIN_ISA, the name of this build's copy. */
#define JOIN_ISA_CAT2(name, isa) name##_##isa
#define JOIN_ISA_CAT(name, isa) JOIN_ISA_CAT2(name, isa)
#define JOIN_ISA_NAME(name) JOIN_ISA_CAT(name, JOIN_ISA)

/* Of the top half-boards top[0..k) of a task whose bottom columns are its top columns
 * reversed, those that form a solution with their image under the half turn. */
uint64_t join_half_turn_fixed(const join_tables *jt, const uint64_t *top, size_t k);

/* ---- Symmetric solutions (join_sym.c) ----------------------------------------------
 *
 * Burnside's lemma for the unique count needs the solutions that a half turn or a
 * quarter turn maps onto themselves (no solution of n > 1 is fixed by a reflection). */

/* Solutions fixed by the half turn (turn = 2) or the quarter turn (turn = 1) whose top
 * rows 0..h-1 take exactly the columns top (any column set when top_any). */
uint64_t join_symmetric(int n, int turn, uint32_t top, int top_any);

/* ---- Tasks (join.c) ----------------------------------------------------------------- */

/* The size of the orbit of the pair (top columns, middle column) under the mirror and
 * the turn over of the board (middle -1 on even boards), or 0 when it is not the orbit's
 * representative (nor a pair at all: the middle column among the top's). */
uint32_t join_orbit_size(int n, uint32_t top, int middle);

/* The tasks, in increasing order of their column set of the top side (the payload).
 * Even n: one per orbit, weighted by its size. Odd n: one per top column set that is
 * the representative of some (top, middle) orbit, weight 1, its subtotal the weighted
 * sum over those middle columns, so that its top half-boards are made once. emit may be
 * NULL to count them. */
uint64_t join_enumerate(int n, task_emit_fn emit, void *user);

/* The next subset of the same size of an index set (Gosper), within 32 bits; x != 0. */
static inline uint32_t join_next_subset(uint32_t x)
{
    uint32_t low = x & -x, ripple = x + low;
    return ripple | (((x ^ ripple) >> 2) / low);
}

#endif
