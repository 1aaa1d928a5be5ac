/* The prefix task source: the weighted prefixes partition the search. Checked against
 * OEIS (sum of weight x subtotal) and against a brute-force count of the prefixes. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "engines/dfs.h"
#include "engines/prefix.h"
#include "oeis_data.h"

typedef struct collect {
    int n;
    uint64_t weighted;
    uint64_t count;
    uint64_t next_id;
    uint64_t (*keys)[3];
} collect;

static int on_task(void *user, const task *t)
{
    collect *c = user;
    uint32_t all = (1u << c->n) - 1;
    cr_expect_eq(t->id, c->next_id++, "ids are dense and in order");
    cr_expect(t->weight == 1 || t->weight == 2);
    c->weighted += t->weight * dfs_count(all, c->n - t->row, t->cols, t->ld, t->rd);
    c->keys[c->count][0] = t->cols;
    c->keys[c->count][1] = t->ld;
    c->keys[c->count][2] = ((uint64_t)t->rd << 8) | t->row;
    c->count++;
    return 0;
}

static int cmp_key(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* Independent list of the prefixes: every placement of the first rows, by the
 * textbook column-array check, keeping those that mirror halving keeps, each turned
 * into the masks a task carries. Returns how many; fills keys when it is not NULL. */
static uint64_t brute_prefixes(int n, int rows, int row, int *col, uint64_t (*keys)[3])
{
    uint64_t k = 0;
    if (row == rows) {
        int mid = n / 2, keep = col[0] < mid;
        if ((n & 1) && col[0] == mid)
            keep = rows == 1 || col[1] < mid;
        if (keep && keys) {
            uint32_t cols = 0, ld = 0, rd = 0;
            for (int r = 0; r < rows; r++) {
                uint32_t bit = 1u << col[r];
                cols |= bit;
                ld = (ld | bit) << 1;
                rd = (rd | bit) >> 1;
            }
            keys[0][0] = cols;
            keys[0][1] = ld;
            keys[0][2] = ((uint64_t)rd << 8) | (uint64_t)rows;
        }
        return (uint64_t)keep;
    }
    for (int c = 0; c < n; c++) {
        int ok = 1;
        for (int r = 0; r < row && ok; r++)
            ok = col[r] != c && abs(col[r] - c) != row - r;
        if (ok) {
            col[row] = c;
            k += brute_prefixes(n, rows, row + 1, col, keys ? keys + k : NULL);
        }
    }
    return k;
}

static void check(int n, int rows)
{
    collect c = {n, 0, 0, 0, NULL};
    int col[32];
    uint64_t expected = brute_prefixes(n, rows, 0, col, NULL);
    uint64_t counted = prefix_enumerate(n, rows, NULL, NULL);
    uint64_t(*want)[3] = calloc(expected + 1, sizeof(*want));

    c.keys = calloc(expected + 1, sizeof(*c.keys));
    cr_assert(c.keys && want);
    brute_prefixes(n, rows, 0, col, want);
    cr_expect_eq(counted, expected, "n=%d rows=%d: task count", n, rows);
    cr_assert_eq(prefix_enumerate(n, rows, on_task, &c), expected);
    cr_expect_eq(c.weighted, oeis_value("A000170", n), "n=%d rows=%d: weighted sum", n, rows);
    /* Different placements can share masks (bits shift out), so compare the multisets:
     * equal multisets mean no prefix is missing and none comes twice. */
    qsort(c.keys, c.count, sizeof(*c.keys), cmp_key);
    qsort(want, expected, sizeof(*want), cmp_key);
    for (uint64_t i = 0; i < expected; i++)
        cr_expect_eq(cmp_key(c.keys[i], want[i]), 0, "n=%d rows=%d: prefix %llu differs", n, rows,
                     (unsigned long long)i);
    free(want);
    free(c.keys);
}

Test(unit, prefixes_partition_even_n)
{
    for (int n = 4; n <= 12; n += 2)
        for (int rows = 1; rows <= 4 && rows <= n; rows++)
            check(n, rows);
}

Test(unit, prefixes_partition_odd_n)
{
    for (int n = 1; n <= 13; n += 2)
        for (int rows = 1; rows <= 4 && rows <= n; rows++)
            check(n, rows);
}

static int stop_after_five(void *user, const task *t)
{
    (void)t;
    return ++*(int *)user == 5;
}

Test(unit, prefix_enumeration_stops_on_request)
{
    int seen = 0;
    cr_expect_eq(prefix_enumerate(12, 3, stop_after_five, &seen), 5);
    cr_expect_eq(seen, 5);
}

Test(unit, auto_rows_gives_enough_tasks)
{
    for (int n = 8; n <= 20; n++) {
        int rows = prefix_auto_rows(n, 16);
        cr_expect(rows >= 2 && rows <= n, "n=%d rows=%d", n, rows);
        if (rows < n - 4)
            cr_expect_geq(prefix_enumerate(n, rows, NULL, NULL), 48 * 16, "n=%d", n);
    }
}

/* The kernel alone against OEIS, from the empty board, for every small n. */
Test(unit, dfs_from_empty_board)
{
    for (int n = 1; n <= 12; n++)
        cr_expect_eq(dfs_count((1u << n) - 1, n, 0, 0, 0), oeis_value("A000170", n), "n=%d", n);
}

Test(slow, totals_16_17_through_prefixes)
{
    for (int n = 16; n <= 17; n++) {
        collect c = {n, 0, 0, 0, NULL};
        c.keys = calloc(prefix_enumerate(n, 2, NULL, NULL) + 1, sizeof(*c.keys));
        prefix_enumerate(n, 2, on_task, &c);
        cr_expect_eq(c.weighted, oeis_value("A000170", n), "n=%d", n);
        free(c.keys);
    }
}
