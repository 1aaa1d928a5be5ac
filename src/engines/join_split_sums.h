/* The join's cost table (join_split_sums.c): for every column set of a side, the sum
 * over its splits into the near block's columns and the far part's of the product of
 * their placements, which is the work of making its half-boards; and the same sums of
 * a far part's two blocks, its candidates. */
#ifndef NQ_JOIN_SPLIT_SUMS_H
#define NQ_JOIN_SPLIT_SUMS_H

#include <stdint.h>

/* The largest column set a side's sum splits: 13 rows at n = 27. */
#define JOIN_SPLIT_MOST 13

/* What the sums read: sets of `size` columns of a board of n, split into near sets of
 * `near_size` and far sets of the rest; near[r] and far[r] by colex rank among the
 * sets of their size; binom[i][j] the binomial coefficients (the ranks' weights). With
 * skip_mirrored, a set whose mirror image (column j to n - 1 - j) is a lower set is
 * skipped: where near and far are alike on mirror images, so are the sums, and the
 * caller copies them (half the work). */
typedef struct join_split_sums {
    int n, size, near_size;
    const uint32_t *near;
    const uint32_t *far;
    const uint32_t (*binom)[33];
    int skip_mirrored;
} join_split_sums;

/* For `count` sets in colex order from the set `first`, sum over the near_size-subsets
 * x of each set c of near[rank x] * far[rank (c \ x)] into out[0 .. count), but for the
 * sets skip_mirrored skips, whose out is left as it was. */
void join_split_sums_range(const join_split_sums *ss, uint32_t first, uint64_t count, float *out);

/* The same sums, exact, saturated at UINT32_MAX: a far part's candidates, its mid x far
 * placement pairs (near: the mid block's placements, far: the far block's), which the
 * cost table then reads as its far counts. */
void join_split_counts_range(const join_split_sums *ss, uint32_t first, uint64_t count,
                             uint32_t *out);

#endif
