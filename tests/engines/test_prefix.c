/* The prefix task source: the weighted prefixes partition the search. Checked against
 * OEIS (sum of weight x subtotal) and against the reference engine's prefixes. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "engines/prefix.h"
#include "engines/search_level.h"
#include "oeis_data.h"
#include "reference.h"

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

/* Independent list of the prefixes: every placement of the first rows by the reference
 * engine (tests/reference.c), keeping those that mirror halving keeps, each turned into
 * the masks a task carries. */
typedef struct prefixes {
    int n;
    uint64_t count;
    uint64_t (*keys)[3]; /* NULL: only count */
} prefixes;

static int keep_prefix(void *user, const int *col, int rows)
{
    prefixes *p = user;
    int mid = p->n / 2, keep = col[0] < mid;
    uint32_t cols = 0, ld = 0, rd = 0;

    if ((p->n & 1) && col[0] == mid)
        keep = rows == 1 || col[1] < mid;
    if (!keep)
        return 0;
    if (p->keys) {
        for (int r = 0; r < rows; r++) {
            uint32_t bit = 1u << col[r];
            cols |= bit;
            ld = (ld | bit) << 1;
            rd = (rd | bit) >> 1;
        }
        p->keys[p->count][0] = cols;
        p->keys[p->count][1] = ld;
        p->keys[p->count][2] = ((uint64_t)rd << 8) | (uint64_t)rows;
    }
    p->count++;
    return 0;
}

/* The prefixes of rows rows of board n; fills keys when it is not NULL. */
static uint64_t expected_prefixes(int n, int rows, uint64_t (*keys)[3])
{
    prefixes p = {n, 0, keys};
    reference_fill(n, rows, NULL, keep_prefix, &p);
    return p.count;
}

static void check(int n, int rows)
{
    collect c = {n, 0, 0, 0, NULL};
    uint64_t expected = expected_prefixes(n, rows, NULL);
    uint64_t counted = prefix_enumerate(n, rows, NULL, NULL);
    uint64_t(*want)[3] = calloc(expected + 1, sizeof(*want));

    c.keys = calloc(expected + 1, sizeof(*c.keys));
    cr_assert(c.keys && want);
    expected_prefixes(n, rows, want);
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
