/* The d4 engine's completion search (src/engines/d4tail.c, five rows settled by table)
 * against the reference engine (tests/reference.c), on every border of small boards and on random
 * borders with random bottom masks up to n = 14, so that every row pattern of the tail (preset rows
 * skipped once or twice, anywhere in it) is met. Every build is checked: the one the library uses,
 * the base one where the library picked the x86-64-v3 one (search_level.c), and the portable one
 * (no pext), compiled into this file. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "engines/d4.h"
#include "engines/search_level.h"
#include "reference.h"

/* The portable build: the same source with pext turned off, under its own name,
 * d4tail_search_portable. */
#define NQ_TAIL_NO_PEXT 1
#define CPU_BUILD portable
D4TAIL_SEARCH_DECLARE(portable);
#include "engines/d4tail.c"
#undef CPU_BUILD

/* The reference engine's solutions (tests/reference.c) with the preset queens whose
 * queen in row n-1 stands in a column of last. */
typedef struct in_last {
    uint32_t last;
    uint64_t count;
} in_last;

static int count_in_last(void *user, const int *q, int n)
{
    in_last *il = user;
    il->count += il->last >> q[n - 1] & 1;
    return 0;
}

/* The preset queens of (top, left, right) on col[] and preset[]; 0 if two of them
 * attack each other (a corner queen counts once). */
static int place_border(int n, int top, int left, int right, int *col, int *preset)
{
    int sq[3][2] = {{0, top}, {left, 0}, {right, n - 1}};

    for (int r = 0; r < n; r++)
        col[r] = -1, preset[r] = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < i; j++) {
            int dr = sq[i][0] - sq[j][0], dc = sq[i][1] - sq[j][1];
            if (dr == 0 && dc == 0)
                continue;
            if (dr == 0 || dc == 0 || abs(dr) == abs(dc))
                return 0;
        }
    for (int i = 0; i < 3; i++)
        col[sq[i][0]] = sq[i][1], preset[sq[i][0]] = 1;
    return 1;
}

/* Compare both builds with the reference on one border; returns 1 if it was legal. */
static int check_border(int n, int top, int left, int right, uint32_t last)
{
    int col[32], preset[32];
    uint64_t want, fast, portable;
    in_last il = {0, 0};
    task t = {0};
    d4_plan p;

    if (!place_border(n, top, left, right, col, preset))
        return 0;
    if (preset[n - 1])
        last |= 1u << col[n - 1]; /* as the source does: a preset bottom corner is in last */
    il.last = last;
    reference_fill(n, n, col, count_in_last, &il);
    want = il.count;
    t.edge[D4_TOP] = (uint8_t)top;
    t.edge[D4_LEFT] = (uint8_t)left;
    t.edge[D4_RIGHT] = (uint8_t)right;
    t.last = last;
    t.row = 2;
    t.weight = 8;
    fast = d4_complete(n, &t);
    cr_expect_eq(fast, want,
                 "n=%d top=%d left=%d right=%d last=%#x: d4_complete %llu, reference %llu", n, top,
                 left, right, last, (unsigned long long)fast, (unsigned long long)want);
    d4_plan_build(n, &t, &p);
    {
        int stopped;
        portable = d4tail_search_portable(&p, NULL, &stopped);
        cr_expect_eq(portable, want, "n=%d top=%d left=%d right=%d last=%#x: portable %llu", n, top,
                     left, right, last, (unsigned long long)portable);
        cr_expect_eq(stopped, 0);
        if (search_level_v3()) { /* d4_complete ran the v3 build: the base one too */
            uint64_t base = d4tail_search_base(&p, NULL, &stopped);
            cr_expect_eq(base, want, "n=%d top=%d left=%d right=%d last=%#x: base build %llu", n,
                         top, left, right, last, (unsigned long long)base);
        }
    }
    return 1;
}

/* xorshift32: a fixed seed keeps every run checking the same boards */
static uint32_t next_rand(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

Test(unit, every_border_up_to_9)
{
    for (int n = 4; n <= 9; n++) {
        uint32_t all = (1u << n) - 1;
        for (int top = 0; top < n; top++)
            for (int left = 0; left < n; left++)
                for (int right = 0; right < n; right++)
                    check_border(n, top, left, right, all);
    }
}

Test(unit, random_borders_and_bottom_masks_10_to_14)
{
    uint32_t seed = 0x9e3779b9u;
    for (int n = 10; n <= 14; n++) {
        int want = n <= 12 ? 120 : 30, done = 0;
        while (done < want) {
            int top = (int)(next_rand(&seed) % (uint32_t)n);
            int left = (int)(next_rand(&seed) % (uint32_t)n);
            /* the right queen near the bottom half the time, so that the tail skips it */
            int right = next_rand(&seed) & 1 ? n - 2 - (int)(next_rand(&seed) % 7u)
                                             : (int)(next_rand(&seed) % (uint32_t)n);
            uint32_t last = next_rand(&seed) & ((1u << n) - 1);
            if (next_rand(&seed) & 1)
                last = (1u << n) - 1;
            done += check_border(n, top, left, right, last);
        }
    }
}

/* The left and right queens both inside the tail, at every pair of places near the
 * bottom: the tail patterns that skip two rows. */
Test(unit, both_side_queens_near_the_bottom)
{
    int n = 12;
    for (int top = 1; top < n - 1; top += 3)
        for (int left = n - 8; left < n; left++)
            for (int right = n - 8; right < n; right++)
                check_border(n, top, left, right, (1u << n) - 1);
}

static int always_stop(const void *run)
{
    (void)run;
    return 1;
}

/* A stop reaches the middle of a task's search: a task of n = 20 ends early with
 * *stopped set; a small one, which never reaches the first look at the flag, finishes. */
Test(unit, a_stop_ends_a_long_search)
{
    engine_worker w = {NULL, NULL, always_stop, NULL, NULL};
    task t = {0};
    int stopped = 0;

    t.edge[D4_TOP] = 9;
    t.edge[D4_LEFT] = 4;
    t.edge[D4_RIGHT] = 14;
    t.last = (1u << 20) - 1;
    t.row = 2;
    t.weight = 8;
    d4_search(20, &t, &w, &stopped);
    cr_expect_eq(stopped, 1);
    t.last = (1u << 9) - 1;
    cr_expect_eq(d4_search(9, &t, &w, &stopped), d4_complete(9, &t));
    cr_expect_eq(stopped, 0);
}
