/* The five-row tail, written once for the prefix kernel (uniform rows) and the d4 engine
 * (rows of a plan, with preset rows skipped): the last five rows are never searched but
 * settled by table.
 *
 * Why it is fast. A plain search spends most of its time near the bottom of the tree,
 * where every node is a hard-to-predict branch (how many children, any at all). With
 * five rows left, five columns are free, and a completion is one of the 5! = 120
 * permutations of them (one bit each of a 128-bit set). A permutation survives if
 * (a) each row's queen sits on a square still open in that row: an AND of five row
 * tables indexed by the row's open squares, compressed to 5 bits with pext (without
 * BMI2, by reading the five free columns one by one: a software pext; slower, same
 * answer); and (b) the five new queens leave each other alone, which depends only on the
 * gaps between the free columns and on the rows' distances: one more table, indexed by
 * the gaps clamped to the tail's span (a wider gap cannot meet a diagonal within it). The
 * count is popcount(AND of six sets): no branch.
 *
 * The tail rows are consecutive on the prefix kernel's boards. On d4's they need not be:
 * the preset rows of the left and right queens are skipped, so two tail rows k rows apart
 * attack at column distance k. The steps between tail rows are 1, 2 or 3 and at most two
 * rows are skipped: 15 row patterns, spanning 4 to 6 rows, each with its own gap table,
 * built on first use. The uniform tail is the pattern of steps 1, with its gaps in base 5
 * rather than 8 (a 10 KiB table instead of 64 KiB, which the prefix kernel's cache
 * prefers); tail_count specialises on that at compile time. */
#ifndef NQ_TAIL_H
#define NQ_TAIL_H

#include <assert.h>
#include <stdint.h>

#if defined(__BMI2__) && !defined(NQ_TAIL_NO_PEXT)
#include <immintrin.h>
#define TAIL_PEXT 1
#else
#define TAIL_PEXT 0
#endif

enum {
    TAIL_ROWS = 5,
    TAIL_PERMS = 120,         /* 5! */
    TAIL_UNIFORM_RADIX = 5,   /* a uniform gap, clamped to 0..4 */
    TAIL_PLAN_RADIX = 8,      /* a plan's gap, clamped to 0..6, in three bits */
    TAIL_UNIFORM_GAPS = 625,  /* 5^4 */
    TAIL_PLAN_GAPS = 1 << 12, /* 8^4 */
};

/* bit s: permutation s of the free columns; a vector type so that an AND is one
 * instruction on a 128-bit register */
typedef uint64_t tail_set __attribute__((vector_size(16)));

/* The tables are read in the hot loop of other files: hidden, so that position-
 * independent code reaches them directly, not through the GOT (-fvisibility=hidden only
 * marks definitions). */
#define TAIL_TABLE extern __attribute__((visibility("hidden")))

/* [tail row][its open free columns, 5 bits]: the permutations that put that row's queen
 * on an open square (built by tail_init) */
TAIL_TABLE tail_set tail_row_ok[TAIL_ROWS][1 << TAIL_ROWS];
/* [clamped gaps in base 5]: the permutations whose queens leave each other alone, on
 * five consecutive rows (built by tail_init) */
TAIL_TABLE tail_set tail_uniform_gaps[TAIL_UNIFORM_GAPS];

/* Builds the tables above, once; safe from any number of threads. */
void tail_init(void);

/* What the tail of one plan needs, gathered once per task (tail_plan_init). */
typedef struct tail_plan {
    const tail_set *gap;      /* its pattern's gap table, [clamped gaps in base 8] */
    uint32_t free[TAIL_ROWS]; /* the tail rows' squares the preset queens leave open */
    uint32_t off[TAIL_ROWS];  /* each tail row's distance from the first */
    uint32_t span;            /* off[TAIL_ROWS - 1]: wider gaps are clamped to it */
} tail_plan;

/* The tail of rows whose open squares are free[0..4] and whose steps to the next one
 * are step[0..3] (1..3 each, at most two rows skipped in all). Calls tail_init. */
void tail_plan_init(tail_plan *t, const uint32_t *free, const uint32_t *step);

/* The completions of the five tail rows: f holds exactly five free columns, ld and rd
 * attack the first tail row. t is the plan's tail, or NULL with uniform = 1 (rows
 * consecutive, every square open but for ld and rd); uniform must be a constant, so
 * that each caller gets its own specialised copy. */
static inline __attribute__((always_inline)) uint64_t
tail_count(const tail_plan *t, uint32_t f, uint32_t ld, uint32_t rd, const int uniform)
{
    const unsigned radix = uniform ? TAIL_UNIFORM_RADIX : TAIL_PLAN_RADIX;
    const unsigned span = uniform ? TAIL_ROWS - 1 : t->span;
    unsigned idx = 0, mul = 1, col[TAIL_ROWS];
#if TAIL_PEXT
    const uint32_t cols = f;
#endif
    tail_set m;

    assert(__builtin_popcount(f) == TAIL_ROWS);
    col[0] = (unsigned)__builtin_ctz(f);
    for (int j = 1; j < TAIL_ROWS; j++, mul *= radix) {
        unsigned g;
        f &= f - 1;
        col[j] = (unsigned)__builtin_ctz(f);
        g = col[j] - col[j - 1] - 1;
        idx += (g < span ? g : span) * mul;
    }
    m = uniform ? tail_uniform_gaps[idx] : t->gap[idx];
    for (int r = 0; r < TAIL_ROWS; r++) {
        const uint32_t off = uniform ? (uint32_t)r : t->off[r];
        uint32_t open = ~((ld << off) | (rd >> off));
        if (!uniform)
            open &= t->free[r];
#if TAIL_PEXT
        m &= tail_row_ok[r][_pext_u32(open, cols)];
#else
        {
            uint32_t w = 0;
            for (int j = 0; j < TAIL_ROWS; j++)
                w |= (open >> col[j] & 1) << j;
            m &= tail_row_ok[r][w];
        }
#endif
    }
    return (uint64_t)(__builtin_popcountll(m[0]) + __builtin_popcountll(m[1]));
}

/* The completions below one placement that leaves TAIL_ROWS + 1 rows: f holds their
 * TAIL_ROWS + 1 free columns, na the open squares of the first of them, ld and rd the
 * diagonals attacking it, and s is its distance to the first tail row. The tail of each
 * square of na, summed. */
static inline __attribute__((always_inline)) uint64_t tail_settle(const tail_plan *t, uint32_t f,
                                                                  uint32_t na, uint32_t ld,
                                                                  uint32_t rd, uint32_t s,
                                                                  const int uniform)
{
    uint64_t count = 0;
    for (; na; na &= na - 1) {
        uint32_t b = na & -na;
        count += tail_count(t, f & ~b, (ld | b) << s, (rd | b) >> s, uniform);
    }
    return count;
}

#endif
