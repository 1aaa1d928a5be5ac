/* The join's cost table, a column set at a time (join_split_sums.h). The colex rank of
 * a subset of a set is the sum of a part for each of its columns, which depends on the
 * column and on how many of the subset's columns precede it. So the set's columns are
 * cut by position into a low half and a high half, and each half's parts are tabled per
 * subset of it (the high half's per offset, the low columns taken before them): a
 * split's two ranks are then two lookups and an add each. The high half's tables stay
 * while the walk in colex order keeps the set's high columns, which most of Gosper's
 * steps do. Read by the sets themselves instead (2^n entries a count), the near and far
 * counts of n = 27 lay 768 MB apart, two misses of the cache a product, and the table
 * took most of the 201 s setup of an estimate there (one thread, AMD Zen 3); by rank
 * they take 323 KB and 8.9 MB. */
#include <assert.h>
#include <string.h>

#include "engines/join_columns.h"
#include "engines/join_split_sums.h"
#include "engines/join_tasks.h"

#define LOW_MOST ((JOIN_SPLIT_MOST + 1) / 2)
#define HIGH_MOST (JOIN_SPLIT_MOST / 2)

typedef struct split_walk {
    const join_split_sums *ss;
    int low, high;                 /* the positions in each half */
    uint32_t col[JOIN_SPLIT_MOST]; /* the set's columns, in increasing order */
    uint32_t high_cols;            /* the high columns that the high parts are for */
    uint32_t low_part[1 << LOW_MOST];
    uint32_t high_part[1 << HIGH_MOST][LOW_MOST + 1]; /* by subset, then offset */
    /* with a of the near columns in the low half, the high half's near and far parts of
     * each of its splits, side by side */
    uint32_t near_high[LOW_MOST + 1][1 << HIGH_MOST], far_high[LOW_MOST + 1][1 << HIGH_MOST];
    int splits[LOW_MOST + 1];
} split_walk;

static void walk_init(split_walk *w, const join_split_sums *ss)
{
    assert(ss->size >= 0 && ss->size <= JOIN_SPLIT_MOST);
    assert(ss->near_size >= 0 && ss->near_size <= ss->size);
    memset(w, 0, sizeof(*w));
    w->ss = ss;
    w->low = (ss->size + 1) / 2;
    w->high = ss->size / 2;
    w->high_cols = UINT32_MAX; /* no set's: the first set makes the tables */
}

/* Subset y (not empty) of the positions from `first` on less its highest position, and
 * that position's part at offset o: its column is the subset's popcount-th. */
static uint32_t last_part(const split_walk *w, uint32_t y, int first, int o, uint32_t *rest)
{
    int top = 31 - __builtin_clz(y);
    *rest = y ^ 1u << top;
    return w->ss->binom[w->col[first + top]][o + __builtin_popcount(y)];
}

/* The high half's splits for each count a of near columns in the low half: its subsets
 * y of the near columns left (near_size - a), their near part at offset a and the far
 * part of the rest at offset low - a. */
static void high_splits(split_walk *w)
{
    uint32_t high_all = (1u << w->high) - 1;

    for (int a = 0; a <= w->low; a++) {
        int b = w->ss->near_size - a, k = 0;
        for (uint32_t y = 0; b >= 0 && y <= high_all; y++)
            if (__builtin_popcount(y) == b) {
                w->near_high[a][k] = w->high_part[y][a];
                w->far_high[a][k++] = w->high_part[high_all ^ y][w->low - a];
            }
        w->splits[a] = k;
    }
}

/* The walk at set c: its columns and the parts of its halves' subsets. */
static void walk_set(split_walk *w, uint32_t c)
{
    uint32_t rest, high_cols = c;

    for (int i = 0; i < w->ss->size; i++, c &= c - 1) {
        w->col[i] = (uint32_t)__builtin_ctz(c);
        if (i < w->low)
            high_cols &= high_cols - 1;
    }
    for (uint32_t y = 1; y < 1u << w->low; y++)
        w->low_part[y] = last_part(w, y, 0, 0, &rest) + w->low_part[rest];
    if (high_cols == w->high_cols)
        return;
    w->high_cols = high_cols;
    for (uint32_t y = 1; y < 1u << w->high; y++)
        for (int o = 0; o <= w->low; o++)
            w->high_part[y][o] = last_part(w, y, w->low, o, &rest) + w->high_part[rest][o];
    high_splits(w);
}

/* The set's sum: its splits by the near columns' low half x (a of them) and high half,
 * the far columns the rest of each half (offset low - a in the high half). */
static uint64_t split_sum(const split_walk *w)
{
    const join_split_sums *ss = w->ss;
    uint32_t low_all = (1u << w->low) - 1;
    uint64_t sum = 0;

    for (uint32_t x = 0; x <= low_all; x++) {
        int a = __builtin_popcount(x);
        if (!w->splits[a])
            continue; /* more near columns than near_size, or too few to make it up */
        const uint32_t *near = ss->near + w->low_part[x], *near_high = w->near_high[a];
        const uint32_t *far = ss->far + w->low_part[low_all ^ x], *far_high = w->far_high[a];
        for (int i = 0; i < w->splits[a]; i++)
            sum += (uint64_t)near[near_high[i]] * far[far_high[i]];
    }
    return sum;
}

/* The sums of `count` sets from `first` into one of sums or counts (join_split_sums.h). */
static void sums_range(const join_split_sums *ss, uint32_t first, uint64_t count, float *sums,
                       uint32_t *counts)
{
    split_walk w;
    uint32_t c = first;

    assert(!sums != !counts);
    walk_init(&w, ss);
    for (uint64_t r = 0; r < count; r++) {
        if (!ss->skip_mirrored || join_reversed(ss->n, c) >= c) {
            walk_set(&w, c);
            uint64_t sum = split_sum(&w);
            if (sums)
                sums[r] = (float)sum;
            else
                counts[r] = sum < UINT32_MAX ? (uint32_t)sum : UINT32_MAX;
        }
        if (r + 1 < count) /* Gosper's step has no set after the last (nor of none) */
            c = join_next_subset(c);
    }
}

void join_split_sums_range(const join_split_sums *ss, uint32_t first, uint64_t count, float *out)
{
    sums_range(ss, first, count, out, NULL);
}

void join_split_counts_range(const join_split_sums *ss, uint32_t first, uint64_t count,
                             uint32_t *out)
{
    sums_range(ss, first, count, NULL, out);
}
