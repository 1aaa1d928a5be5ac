/* The five-row tail's tables (see tail.h): the permutations of the five free columns,
 * the row tables, and the gap tables, uniform and one per row pattern of d4's plans. */
#include "engines/tail.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

enum {
    STEP_CODES = 81, /* the four steps between tail rows, each 1..3, in base 3 */
    PATTERNS = 15,   /* step codes whose steps skip at most two rows */
};

tail_set tail_row_ok[TAIL_ROWS][1 << TAIL_ROWS];
tail_set tail_uniform_gaps[TAIL_UNIFORM_GAPS];

static int perm[TAIL_PERMS][TAIL_ROWS]; /* perm[s][row] = free column */
static tail_set pair_hit[TAIL_ROWS][TAIL_ROWS][TAIL_ROWS][TAIL_ROWS]; /* [i][j][col a][col b] */
static int8_t pattern_of[STEP_CODES]; /* step code -> pattern, -1 if none */
static pthread_once_t base_once = PTHREAD_ONCE_INIT;

static tail_set plan_gaps[PATTERNS][TAIL_PLAN_GAPS];
static atomic_int plan_ready[PATTERNS];
static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;

static tail_set perm_bit(int s)
{
    tail_set m = {0, 0};
    m[s >> 6] = 1ull << (s & 63);
    return m;
}

/* Every permutation of 0..TAIL_ROWS-1, in lexicographic order. */
static void perms_build(void)
{
    int p[TAIL_ROWS], np = 0;

    for (int i = 0; i < TAIL_ROWS; i++)
        p[i] = i;
    for (;;) {
        int i = TAIL_ROWS - 2, j = TAIL_ROWS - 1, t;
        for (int r = 0; r < TAIL_ROWS; r++)
            perm[np][r] = p[r];
        np++;
        while (i >= 0 && p[i] > p[i + 1])
            i--;
        if (i < 0)
            break;
        while (p[j] < p[i])
            j--;
        t = p[i], p[i] = p[j], p[j] = t;
        for (int a = i + 1, b = TAIL_ROWS - 1; a < b; a++, b--)
            t = p[a], p[a] = p[b], p[b] = t;
    }
    assert(np == TAIL_PERMS);
}

/* The gap table of one row pattern (off: the tail rows' distances from the first), its
 * index the gaps between the free columns, clamped to the span, in base radix: for every
 * index, the permutations in which no two tail queens attack. */
static void gaps_build(tail_set *table, const uint32_t off[TAIL_ROWS], int radix)
{
    int span = (int)off[TAIL_ROWS - 1], size = radix * radix * radix * radix;

    for (int g = 0; g < size; g++) {
        int pos[TAIL_ROWS], x = g, clamped = 1;
        tail_set bad = {0, 0};
        pos[0] = 0;
        for (int j = 1; j < TAIL_ROWS; j++, x /= radix) {
            clamped &= x % radix <= span;
            pos[j] = pos[j - 1] + 1 + x % radix;
        }
        if (!clamped)
            continue; /* an index tail_count never forms */
        for (int i = 0; i < TAIL_ROWS; i++)
            for (int j = i + 1; j < TAIL_ROWS; j++)
                for (int a = 0; a < TAIL_ROWS; a++)
                    for (int b = 0; b < TAIL_ROWS; b++) {
                        int d = pos[a] - pos[b];
                        if ((d < 0 ? -d : d) == (int)(off[j] - off[i]))
                            bad |= pair_hit[i][j][a][b];
                    }
        table[g] = ~bad;
    }
}

static void base_build(void)
{
    static const uint32_t consecutive[TAIL_ROWS] = {0, 1, 2, 3, 4};
    int n_patterns = 0;

    perms_build();
    for (int s = 0; s < TAIL_PERMS; s++)
        for (int i = 0; i < TAIL_ROWS; i++) {
            for (int w = 0; w < 1 << TAIL_ROWS; w++)
                if (w >> perm[s][i] & 1)
                    tail_row_ok[i][w] |= perm_bit(s);
            for (int j = 0; j < TAIL_ROWS; j++)
                pair_hit[i][j][perm[s][i]][perm[s][j]] |= perm_bit(s);
        }
    for (int code = 0; code < STEP_CODES; code++) {
        int skipped = code % 3 + code / 3 % 3 + code / 9 % 3 + code / 27;
        pattern_of[code] = (int8_t)(skipped <= 2 ? n_patterns++ : -1);
    }
    assert(n_patterns == PATTERNS);
    gaps_build(tail_uniform_gaps, consecutive, TAIL_UNIFORM_RADIX);
}

void tail_init(void)
{
    pthread_once(&base_once, base_build);
}

void tail_plan_init(tail_plan *t, const uint32_t *free, const uint32_t *step)
{
    int code = 0, k;

    tail_init();
    t->off[0] = 0;
    for (int r = 0; r < TAIL_ROWS; r++) {
        t->free[r] = free[r];
        if (r)
            t->off[r] = t->off[r - 1] + step[r - 1];
    }
    t->span = t->off[TAIL_ROWS - 1];
    for (int j = TAIL_ROWS - 2; j >= 0; j--) {
        assert(step[j] >= 1 && step[j] <= 3);
        code = code * 3 + (int)step[j] - 1;
    }
    k = pattern_of[code];
    assert(k >= 0); /* at most two preset rows, the left and right queens' */
    if (!atomic_load_explicit(&plan_ready[k], memory_order_acquire)) {
        pthread_mutex_lock(&plan_lock);
        if (!atomic_load_explicit(&plan_ready[k], memory_order_relaxed)) {
            gaps_build(plan_gaps[k], t->off, TAIL_PLAN_RADIX);
            atomic_store_explicit(&plan_ready[k], 1, memory_order_release);
        }
        pthread_mutex_unlock(&plan_lock);
    }
    t->gap = plan_gaps[k];
}
