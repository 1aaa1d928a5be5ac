/* Value pieces (join_ranges.c): a side's half-boards too many for one list, cut by the
 * value of their masks' top bits instead of in the order they are made, so that each
 * piece is a stretch of the whole side's sorted order. The pair counter prunes by the
 * bits that a chunk of sorted masks shares and by buckets of one top byte of the other
 * side; pieces in making order hold every value thinly and prune far less (n = 24 with
 * 8 MiB pieces took 2.2x the CPU of whole lists). A piece is its side made again,
 * keeping the masks of its range: making is a few percent of a pair count. */
#ifndef NQ_JOIN_RANGES_H
#define NQ_JOIN_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include "engines/join_tables.h"

/* A mask's value: its top 16 bits, the pair counter's two sorted bytes. */
#define JOIN_RANGE_SHIFT 48
#define JOIN_RANGE_VALUES (1u << 16)

/* One side's values cut into n ranges: range i is values start[i] .. start[i + 1] - 1,
 * holding masks[i] masks, every one of which has the bits common[i] (of its value). */
typedef struct join_ranges {
    uint32_t n;
    uint32_t start[JOIN_RANGE_VALUES + 1];
    uint32_t masks[JOIN_RANGE_VALUES];
    uint16_t common[JOIN_RANGE_VALUES];
} join_ranges;

/* One side's half-boards on one column set to make (without the bits forbid), a step
 * of at most step masks at a time into buf, with far for a three-block side's far
 * part. */
typedef struct join_maker {
    const join_tables *jt;
    int side;
    uint32_t cols;
    uint64_t forbid;
    size_t step;
    join_buf *buf;
    join_far *far;
} join_maker;

/* How many masks have each value (fine, zero between calls), and each 256 values
 * (coarse), with the bits every mask of those has (all): the cut looks at the fine
 * counts only where a range ends, so that it costs a few hundred steps, not 65,536 (the
 * unit tests cut sides of a few masks, millions of times). */
typedef struct join_values {
    uint32_t fine[JOIN_RANGE_VALUES];
    uint32_t coarse[256];
    uint16_t all[256];
} join_values;

/* Cut mk's side into ranges of at most most masks each (a value with more is a range of
 * its own), in order, into r: their total, or SIZE_MAX without memory. val->fine is zero
 * before and after. */
size_t join_ranges_find(const join_maker *mk, size_t most, join_values *val, join_ranges *r);

/* The side's masks of range i of r, into out from its start: how many, or SIZE_MAX
 * without memory. */
size_t join_range_make(const join_maker *mk, const join_ranges *r, uint32_t i, join_buf *out);

/* What join_pieces_kept does with each piece (which it may overwrite): 0 to go on. */
typedef int (*join_piece_fn)(void *user, uint64_t *v, size_t k);

/* mk's side, its masks without the bits avoid in their value, a piece at a time into
 * out: fn(user, out, k) on each, of at least most - mk->step masks (bar the last) and at
 * most most plus a step's slack. 0, -1 without memory, or what fn returned. */
int join_pieces_kept(const join_maker *mk, uint32_t avoid, size_t most, join_buf *out,
                     join_piece_fn fn, void *user);

#endif
