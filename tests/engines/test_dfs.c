/* The hot loop dfs_count against an independent reference counter (a column array and a
 * conflict check per square) from many random partial boards, and against OEIS from the
 * empty board. Every build of the kernel is checked: the one the library uses, the base
 * one where the library picked the x86-64-v3 one (search_level.c), and the portable one
 * (no pext), compiled into this file under another name. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "engines/search_level.h"
#include "oeis_data.h"
#include "reference.h"

/* The portable kernel: the same source with pext turned off (the tail is inline, so it
 * compiles again here), a build of its own name, dfs_search_portable. */
#define NQ_TAIL_NO_PEXT 1
#define CPU_BUILD portable
DFS_SEARCH_DECLARE(portable);
#include "engines/dfs.c"
#undef CPU_BUILD

static uint64_t dfs_count_portable(uint32_t all, int rows_left, uint32_t cols, uint32_t ld,
                                   uint32_t rd)
{
    int stopped;
    return dfs_search_portable(all, rows_left, cols, ld, rd, NULL, &stopped);
}

static uint32_t board_all(int n)
{
    return n == 32 ? 0xffffffffu : (1u << n) - 1;
}

/* xorshift32: a fixed seed keeps every run checking the same boards */
static uint32_t next_rand(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Random valid placement of rows 0..k-1 (col[]); returns how many rows it managed. */
static int random_rows(int n, int k, int *col, uint32_t *seed)
{
    for (int row = 0; row < k; row++) {
        int open[32], m = 0;
        for (int c = 0; c < n; c++)
            if (reference_safe(col, row, row, c))
                open[m++] = c;
        if (m == 0)
            return row;
        col[row] = open[next_rand(seed) % (uint32_t)m];
    }
    return k;
}

/* dfs_count (both builds) against the reference for the first k rows of col, filling
 * `fill` of the remaining rows. */
static void check_board(int n, int k, int fill, int *col)
{
    uint32_t cols = 0, ld = 0, rd = 0, all = board_all(n);
    uint64_t want, got, got_portable;
    int preset[32];

    for (int r = 0; r < k; r++) {
        uint32_t bit = 1u << col[r];
        cols |= bit;
        ld = (ld | bit) << 1;
        rd = (rd | bit) >> 1;
    }
    for (int r = 0; r < k + fill; r++)
        preset[r] = r < k ? col[r] : -1;
    want = reference_fill(n, k + fill, preset, NULL, NULL);
    got = dfs_count(all, fill, cols, ld, rd);
    got_portable = dfs_count_portable(all, fill, cols, ld, rd);
    cr_expect_eq(got, want, "n=%d k=%d fill=%d: dfs_count %llu, reference %llu", n, k, fill,
                 (unsigned long long)got, (unsigned long long)want);
    cr_expect_eq(got_portable, want, "n=%d k=%d fill=%d: portable %llu, reference %llu", n, k, fill,
                 (unsigned long long)got_portable, (unsigned long long)want);
    if (search_level_v3()) { /* dfs_count ran the v3 build: the base one too */
        int stopped;
        got = dfs_search_base(all, fill, cols, ld, rd, NULL, &stopped);
        cr_expect_eq(got, want, "n=%d k=%d fill=%d: base build %llu, reference %llu", n, k, fill,
                     (unsigned long long)got, (unsigned long long)want);
    }
}

Test(unit, random_partial_boards)
{
    uint32_t seed = 0x9e3779b9u;
    int col[32];

    for (int n = 1; n <= 14; n++)
        for (int trial = 0; trial < 60; trial++) {
            /* at least n-10 rows placed, so the reference counter stays quick */
            int lo = n > 10 ? n - 10 : 0;
            int k = lo + (int)(next_rand(&seed) % (uint32_t)(n - lo + 1));
            k = random_rows(n, k, col, &seed);
            check_board(n, k, n - k, col);
        }
}

/* Wide boards: the shifts near bit 31 and the all-ones mask of n = 32. */
Test(unit, random_partial_boards_wide)
{
    static const int sizes[] = {20, 27, 31, 32};
    uint32_t seed = 12345;
    int col[32];

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (int trial = 0; trial < 40; trial++) {
            int n = sizes[i];
            int k = random_rows(n, n - 1 - (int)(next_rand(&seed) % 8), col, &seed);
            check_board(n, k, n - k, col);
        }
}

/* Filling fewer rows than there are free columns: the search stops early and counts
 * partial placements (the path that cannot use the tail tables). */
Test(unit, partial_fills)
{
    uint32_t seed = 777;
    int col[32];

    for (int n = 4; n <= 12; n++)
        for (int trial = 0; trial < 20; trial++) {
            int k = random_rows(n, (int)(next_rand(&seed) % (uint32_t)(n / 2)), col, &seed);
            int fill;
            if (n - k < 2)
                continue;
            fill = 1 + (int)(next_rand(&seed) % (uint32_t)(n - k - 1)); /* 1..n-k-1 */
            check_board(n, k, fill, col);
        }
}

Test(unit, empty_board_matches_oeis)
{
    for (int n = 1; n <= 14; n++) {
        uint64_t want = oeis_value("A000170", n);
        cr_expect_eq(dfs_count(board_all(n), n, 0, 0, 0), want, "n=%d", n);
        cr_expect_eq(dfs_count_portable(board_all(n), n, 0, 0, 0), want, "n=%d portable", n);
    }
}

Test(unit, no_rows_left_is_one_completion)
{
    cr_expect_eq(dfs_count(board_all(8), 0, 0xff, 0, 0), 1);
    cr_expect_eq(dfs_count_portable(board_all(8), 0, 0xff, 0, 0), 1);
}

Test(slow, empty_board_matches_oeis_to_16)
{
    for (int n = 15; n <= 16; n++) {
        uint64_t want = oeis_value("A000170", n);
        cr_expect_eq(dfs_count(board_all(n), n, 0, 0, 0), want, "n=%d", n);
        cr_expect_eq(dfs_count_portable(board_all(n), n, 0, 0, 0), want, "n=%d portable", n);
    }
}

static int always_stop(const void *run)
{
    (void)run;
    return 1;
}

/* A stop reaches the middle of a search: the tail search (n = 20) and the plain one (a
 * board with more free columns than rows to fill) end early with *stopped set, while a
 * search too small to reach the first look at the flag finishes. */
Test(unit, a_stop_ends_a_long_search)
{
    engine_worker w = {NULL, NULL, always_stop, NULL, NULL};
    int stopped = 0;
    uint64_t got = dfs_search(board_all(20), 20, 0, 0, 0, &w, &stopped);

    cr_expect_eq(stopped, 1);
    cr_expect_lt(got, oeis_value("A000170", 20));
    stopped = 0;
    dfs_search(board_all(24), 18, 0, 0, 0, &w, &stopped);
    cr_expect_eq(stopped, 1, "plain search");
    cr_expect_eq(dfs_search(board_all(8), 8, 0, 0, 0, &w, &stopped), oeis_value("A000170", 8));
    cr_expect_eq(stopped, 0);
}

/* The stop is looked at every SEARCH_STOP_MASK_COUNT + 1 pushes. A stop must reach every
 * worker within a second even with 512 of them on one CPU, one after another, so a
 * worker may go at most 4096 pushes (some tens of microseconds) without a look: at 2^18
 * a stop took 1-5 s (issue 22). The loop is instantiated here with a probe that counts
 * pushes (SEARCH_ALIVE is asked exactly once per push) and the longest run between two
 * looks, over a whole search of n = 14, whose count must still be a(14). */
typedef struct probe_ctx {
    uint32_t all;
    uint64_t pushes, since_look, longest, looks;
} probe_ctx;

static int probe_push(probe_ctx *c)
{
    c->pushes++;
    c->since_look++;
    return 1;
}

static int probe_look(probe_ctx *c)
{
    if (c->since_look > c->longest)
        c->longest = c->since_look;
    c->since_look = 0;
    c->looks++;
    return 0;
}

#define SEARCH_FN probe_search
#define SEARCH_CTX probe_ctx
#define SEARCH_FREE(c, d) ((c)->all)
#define SEARCH_SHIFT(c, d) 1u
#define SEARCH_ALIVE(c, d, nc, nl, nr) probe_push(c)
#define SEARCH_SETTLE_ROWS 1
#define SEARCH_SETTLE(c, d, nc, nl, nr, na) ((uint64_t)__builtin_popcount(na))
#define SEARCH_STOP_MASK SEARCH_STOP_MASK_COUNT
#define SEARCH_STOPPING(c) probe_look(c)
#include "engines/search_tmpl.c"

Test(unit, stop_is_looked_at_every_few_thousand_pushes)
{
    probe_ctx c = {(1u << 14) - 1, 0, 0, 0, 0};
    uint64_t count = probe_search(&c, 14, 0, 0, 0);

    cr_expect_eq(count, oeis_value("A000170", 14));
    cr_assert_gt(c.pushes, 1000000, "a search long enough to tell: %llu pushes",
                 (unsigned long long)c.pushes);
    if (c.since_look > c.longest)
        c.longest = c.since_look;
    cr_expect_leq(c.longest, 4096, "%llu pushes without a look at the stop",
                  (unsigned long long)c.longest);
    cr_expect_geq(c.looks, c.pushes / 4096, "%llu looks in %llu pushes",
                  (unsigned long long)c.looks, (unsigned long long)c.pushes);
}
