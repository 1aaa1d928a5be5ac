/* The d4 engine's completion search with its last five inner rows settled by table.
 *
 * The idea is the prefix kernel's (src/engines/dfs.c): with five rows left, five columns are
 * free, and a completion is one of the 5! = 120 permutations of them (one bit each of a
 * 128-bit set). A permutation survives if (a) each row's queen sits on a square still
 * open in that row: an AND of five row tables indexed by the row's open squares,
 * compressed to 5 bits with pext; and (b) the five new queens leave each other alone.
 * d4's rows are not uniform, and both parts take that into account:
 * - a row's open squares come from the plan, which already holds what the border queens
 *   attack and, on row n-1, the bottom columns the canonical test allows (task.last), so
 *   (a) needs nothing new;
 * - preset rows (the left and right queens') are skipped, so the five tail rows are not
 *   always consecutive: two of them k rows apart attack at column distance k, and (b)
 *   depends on the row pattern of the tail as well as on the gaps between the free
 *   columns. The steps between tail rows are 1, 2 or 3 and at most two rows are skipped,
 *   so there are 15 patterns, spanning 4 to 6 rows. Each gets its own gap table (gaps
 *   clamped to span + 1, a wider gap cannot meet a diagonal within the span), built on
 *   first use; a task uses one pattern throughout.
 * Above the tail, the nodes with six rows left are not pushed: their children are settled
 * in place. Without BMI2 the open squares are compressed by reading the five free
 * columns one by one (a software pext); slower, same answer. */
#include "engines/d4tail.h"

#include <pthread.h>
#include <stdatomic.h>

#if defined(__BMI2__) && !defined(NQ_D4_NO_PEXT)
#include <immintrin.h>
#define D4TAIL_PEXT 1
#else
#define D4TAIL_PEXT 0
#endif

enum {
    TAIL = D4TAIL_ROWS,
    PERMS = 120,
    STEP_CODES = 81, /* the four steps between tail rows, each 1..3, in base 3 */
    PATTERNS = 15,   /* step codes whose steps skip at most two rows */
    GAP_BITS = 3,    /* a clamped gap, 0..6, takes three bits of the index */
    MAX_GAPS = 1 << (GAP_BITS * (D4TAIL_ROWS - 1)),
};

/* bit s: permutation s of the free columns; a vector type so that an AND is one
 * instruction on a 128-bit register */
typedef uint64_t perm_set __attribute__((vector_size(16)));

static int perm[PERMS][TAIL];                     /* perm[s][row] = free column (0..4) */
static perm_set row_ok[TAIL][1 << TAIL];          /* [tail row][its open free columns, 5 bits] */
static perm_set pair_hit[TAIL][TAIL][TAIL][TAIL]; /* [row i][row j][col a][col b] */
static int8_t pattern_of[STEP_CODES];             /* step code -> pattern, -1 if none */
static pthread_once_t base_once = PTHREAD_ONCE_INIT;

static perm_set gap_ok[PATTERNS][MAX_GAPS]; /* [pattern][clamped gaps, 3 bits each] */
static atomic_int gap_ready[PATTERNS];
static pthread_mutex_t gap_lock = PTHREAD_MUTEX_INITIALIZER;

static perm_set perm_bit(int s)
{
    perm_set m = {0, 0};
    m[s >> 6] = 1ull << (s & 63);
    return m;
}

static void d4tail_build_base(void)
{
    int p[TAIL], np = 0, n_patterns = 0;

    for (int i = 0; i < TAIL; i++)
        p[i] = i;
    for (;;) { /* every permutation, in lexicographic order */
        int i = TAIL - 2, j = TAIL - 1, t;
        for (int r = 0; r < TAIL; r++)
            perm[np][r] = p[r];
        np++;
        while (i >= 0 && p[i] > p[i + 1])
            i--;
        if (i < 0)
            break;
        while (p[j] < p[i])
            j--;
        t = p[i], p[i] = p[j], p[j] = t;
        for (int a = i + 1, b = TAIL - 1; a < b; a++, b--)
            t = p[a], p[a] = p[b], p[b] = t;
    }
    for (int s = 0; s < PERMS; s++)
        for (int i = 0; i < TAIL; i++) {
            for (int w = 0; w < 1 << TAIL; w++)
                if (w >> perm[s][i] & 1)
                    row_ok[i][w] |= perm_bit(s);
            for (int j = 0; j < TAIL; j++)
                pair_hit[i][j][perm[s][i]][perm[s][j]] |= perm_bit(s);
        }
    for (int code = 0; code < STEP_CODES; code++) {
        int skipped = code % 3 + code / 3 % 3 + code / 9 % 3 + code / 27;
        pattern_of[code] = (int8_t)(skipped <= 2 ? n_patterns++ : -1);
    }
}

/* The gap table of one row pattern (off: the tail rows' distances from the first): for
 * every clamped gap vector, the permutations in which no two tail queens attack. */
static void d4tail_build_gaps(perm_set *table, const uint32_t off[TAIL])
{
    int span = (int)off[TAIL - 1];

    for (int g = 0; g < MAX_GAPS; g++) {
        int pos[TAIL], x = g, clamped = 1;
        perm_set bad = {0, 0};
        pos[0] = 0;
        for (int j = 1; j < TAIL; j++, x >>= GAP_BITS) {
            clamped &= (x & 7) <= span;
            pos[j] = pos[j - 1] + 1 + (x & 7);
        }
        if (!clamped)
            continue; /* an index tail_count never forms */
        for (int i = 0; i < TAIL; i++)
            for (int j = i + 1; j < TAIL; j++)
                for (int a = 0; a < TAIL; a++)
                    for (int b = 0; b < TAIL; b++) {
                        int d = pos[a] - pos[b];
                        if ((d < 0 ? -d : d) == (int)(off[j] - off[i]))
                            bad |= pair_hit[i][j][a][b];
                    }
        table[g] = ~bad;
    }
}

/* What the tail search of one task needs, gathered once per task. */
typedef struct tail_ctx {
    const perm_set *gap;
    uint32_t free[TAIL]; /* the tail rows' squares left free by the border queens */
    uint32_t off[TAIL];  /* each tail row's distance from the first */
    uint32_t span;       /* off[TAIL - 1]: wider gaps are clamped to it */
} tail_ctx;

static const perm_set *d4tail_gaps(const uint32_t off[TAIL], const uint32_t *step)
{
    int code = 0, k;

    for (int j = TAIL - 2; j >= 0; j--)
        code = code * 3 + (int)step[j] - 1;
    k = pattern_of[code];
    if (!atomic_load_explicit(&gap_ready[k], memory_order_acquire)) {
        pthread_mutex_lock(&gap_lock);
        if (!atomic_load_explicit(&gap_ready[k], memory_order_relaxed)) {
            d4tail_build_gaps(gap_ok[k], off);
            atomic_store_explicit(&gap_ready[k], 1, memory_order_release);
        }
        pthread_mutex_unlock(&gap_lock);
    }
    return gap_ok[k];
}

static inline uint64_t perm_count(perm_set m)
{
    return (uint64_t)(__builtin_popcountll(m[0]) + __builtin_popcountll(m[1]));
}

/* Completions of the five tail rows: f holds exactly five free columns, ld and rd attack
 * the first tail row. */
static inline uint64_t tail_count(const tail_ctx *c, uint32_t f, uint32_t ld, uint32_t rd)
{
    unsigned idx = 0, col[TAIL];
#if D4TAIL_PEXT
    uint32_t all = f;
#endif
    perm_set m;

    col[0] = (unsigned)__builtin_ctz(f);
    for (int j = 1; j < TAIL; j++) {
        unsigned g;
        f &= f - 1;
        col[j] = (unsigned)__builtin_ctz(f);
        g = col[j] - col[j - 1] - 1;
        idx |= (g < c->span ? g : c->span) << (GAP_BITS * (j - 1));
    }
    m = c->gap[idx];
#if D4TAIL_PEXT
    for (int r = 0; r < TAIL; r++)
        m &= row_ok[r][_pext_u32(c->free[r] & ~((ld << c->off[r]) | (rd >> c->off[r])), all)];
#else
    for (int r = 0; r < TAIL; r++) {
        uint32_t open = c->free[r] & ~((ld << c->off[r]) | (rd >> c->off[r])), w = 0;
        for (int j = 0; j < TAIL; j++)
            w |= (open >> col[j] & 1) << j;
        m &= row_ok[r][w];
    }
#endif
    return perm_count(m);
}

uint64_t d4tail_count(const d4_plan *p)
{
    uint32_t st_avail[32], st_cols[32], st_ld[32], st_rd[32];
    const uint32_t *fr = p->free, *sh = p->shift;
    uint32_t avail, cols = 0, ld = 0, rd = 0;
    uint64_t count = 0;
    int first = p->depth - TAIL, d = 0, stop;
    tail_ctx c;

    pthread_once(&base_once, d4tail_build_base);
    c.off[0] = 0;
    for (int r = 0; r < TAIL; r++) {
        c.free[r] = fr[first + r];
        if (r)
            c.off[r] = c.off[r - 1] + sh[first + r - 1];
    }
    c.span = c.off[TAIL - 1];
    c.gap = d4tail_gaps(c.off, sh + first);

    if (first == 0)
        return tail_count(&c, p->cols, 0, 0);
    if (first == 1) {
        for (avail = fr[0]; avail; avail &= avail - 1) {
            uint32_t bit = avail & -avail;
            count += tail_count(&c, p->cols & ~bit, bit << sh[0], bit >> sh[0]);
        }
        return count;
    }
    stop = first - 2; /* a placement at this depth leaves six rows: settle its children */
    avail = fr[0];
    for (;;) {
        while (avail) {
            uint32_t bit = avail & -avail, s = sh[d];
            uint32_t nc = cols | bit, nl = (ld | bit) << s, nr = (rd | bit) >> s;
            uint32_t na = fr[d + 1] & ~(nc | nl | nr), k;
            avail ^= bit;
            if (d == stop) {
                uint32_t s2 = sh[d + 1], f = p->cols & ~nc;
                for (; na; na &= na - 1) {
                    uint32_t b2 = na & -na;
                    count += tail_count(&c, f & ~b2, (nl | b2) << s2, (nr | b2) >> s2);
                }
                continue;
            }
            if (!na)
                continue;
            /* Look ahead to row n-1 too: the canonical test leaves its queen only the
             * columns of task.last, so a placement that closes them all is a dead end
             * long before the search would get there. */
            k = p->to_last[d + 1];
            if (!(p->last & ~(nc | (nl << k) | (nr >> k))))
                continue;
            st_avail[d] = avail;
            st_cols[d] = cols;
            st_ld[d] = ld;
            st_rd[d] = rd;
            cols = nc;
            ld = nl;
            rd = nr;
            avail = na;
            d++;
        }
        if (d == 0)
            return count;
        d--;
        avail = st_avail[d];
        cols = st_cols[d];
        ld = st_ld[d];
        rd = st_rd[d];
    }
}
