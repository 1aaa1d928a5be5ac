/* Bitmask depth-first search, iterative, with the last five rows settled by table.
 *
 * Why it is fast. A plain search spends most of its time near the bottom of the tree,
 * where every node is a hard-to-predict branch (how many children, any at all). Here the
 * last TAIL = 5 rows are never searched. Once five rows are left, five columns are free,
 * and a completion is a permutation of them (5! = 120 of them, one bit each in a 128-bit
 * set). A permutation survives if (a) each row's queen sits on a square the diagonals
 * from above leave open, and (b) the five new queens do not attack each other. (a) is an
 * AND of five row tables indexed by that row's open squares, compressed to 5 bits with
 * pext; (b) depends only on the gaps between the free columns, clamped to 1..5 (a wider
 * gap cannot meet a diagonal within five rows), so it is one more table of 5^4 = 625
 * sets. The count is popcount(AND of six sets): no branch. The tables (about 12 KiB)
 * are built once, on first use.
 * Above the tail, nodes with six rows left are not pushed either: their children are
 * settled in place, and a placement that leaves the next row no square is dropped
 * before it is pushed. Without BMI2 (pext), the open squares are read per column instead
 * (a 5-bit window of each diagonal mask around the column) through two tables per column;
 * slower than pext, still well ahead of the plain search. */
#include <pthread.h>

#include "engines/dfs.h"

#if defined(__BMI2__) && !defined(NQ_DFS_NO_PEXT)
#include <immintrin.h>
#define DFS_PEXT 1
#else
#define DFS_PEXT 0
#endif

enum { TAIL = 5, PERMS = 120, GAPS = 625 /* TAIL^(TAIL-1) */ };

typedef unsigned __int128 perm_set; /* bit s: permutation s of the free columns */

static perm_set gap_ok[GAPS]; /* permutations whose queens leave each other alone */
#if DFS_PEXT
static perm_set row_ok[TAIL][1 << TAIL]; /* [row][open free columns] */
#else
static perm_set ld_ok[TAIL][1 << TAIL], rd_ok[TAIL][1 << TAIL]; /* [column][window] */
#endif
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
    int perm[PERMS][TAIL], p[TAIL], np = 0;

    /* every permutation, perm[s][row] = free column (0..4, left to right) */
    for (int i = 0; i < TAIL; i++)
        p[i] = i;
    for (;;) {
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
    for (int g = 0; g < GAPS; g++) {
        int pos[TAIL], x = g;
        perm_set m = 0;
        pos[0] = 0;
        for (int j = 1; j < TAIL; j++, x /= TAIL)
            pos[j] = pos[j - 1] + 1 + x % TAIL;
        for (int s = 0; s < PERMS; s++) {
            int ok = 1;
            for (int r = 0; r < TAIL; r++)
                for (int r2 = r + 1; r2 < TAIL; r2++) {
                    int d = pos[perm[s][r]] - pos[perm[s][r2]];
                    ok &= (d < 0 ? -d : d) != r2 - r;
                }
            m |= (perm_set)ok << s;
        }
        gap_ok[g] = m;
    }
    for (int k = 0; k < TAIL; k++)
        for (int w = 0; w < 1 << TAIL; w++) {
#if DFS_PEXT
            perm_set m = 0; /* k is a row, w its open free columns */
            for (int s = 0; s < PERMS; s++)
                m |= (perm_set)(w >> perm[s][k] & 1) << s;
            row_ok[k][w] = m;
#else
            perm_set ml = 0, mr = 0; /* k is a free column, w a window of ld or rd */
            for (int s = 0; s < PERMS; s++) {
                int okl = 1, okr = 1;
                for (int r = 0; r < TAIL; r++)
                    if (perm[s][r] == k) {
                        okl = !(w >> (TAIL - 1 - r) & 1); /* ld attacks row r from col-r */
                        okr = !(w >> r & 1);              /* rd attacks row r from col+r */
                    }
                ml |= (perm_set)okl << s;
                mr |= (perm_set)okr << s;
            }
            ld_ok[k][w] = ml;
            rd_ok[k][w] = mr;
#endif
        }
}

static inline uint64_t perm_count(perm_set m)
{
    return (uint64_t)(__builtin_popcountll((uint64_t)m) +
                      __builtin_popcountll((uint64_t)(m >> 64)));
}

/* Index into gap_ok: the gaps between the TAIL free columns of f, each clamped to
 * 1..TAIL, read as a number in base TAIL. */
static inline unsigned gap_index(uint32_t f)
{
    unsigned idx = 0, mul = 1, c = (unsigned)__builtin_ctz(f);
    f &= f - 1;
    for (int j = 1; j < TAIL; j++, mul *= TAIL) {
        unsigned c2 = (unsigned)__builtin_ctz(f), g = c2 - c - 1;
        idx += (g < TAIL - 1 ? g : TAIL - 1) * mul;
        c = c2;
        f &= f - 1;
    }
    return idx;
}

/* Completions of the last TAIL rows: f holds exactly TAIL free columns, ld and rd attack
 * the first of those rows. */
static inline uint64_t tail_count(uint32_t f, uint32_t ld, uint32_t rd)
{
    perm_set m = gap_ok[gap_index(f)];
#if DFS_PEXT
    for (int r = 0; r < TAIL; r++)
        m &= row_ok[r][_pext_u32(~((ld << r) | (rd >> r)), f)];
#else
    /* windows ld bits c-4..c and rd bits c..c+4 around each free column c */
    uint64_t l = (uint64_t)ld << (TAIL - 1), rr = rd;
    for (int j = 0; j < TAIL; j++, f &= f - 1) {
        unsigned c = (unsigned)__builtin_ctz(f);
        m &= ld_ok[j][(l >> c) & 31] & rd_ok[j][(rr >> c) & 31];
    }
#endif
    return perm_count(m);
}

/* Plain iterative search for what the fast path does not take: fewer than TAIL rows,
 * or a board whose free columns outnumber the rows to fill. */
static uint64_t plain_count(uint32_t all, int rows_left, uint32_t cols, uint32_t ld, uint32_t rd)
{
    uint32_t st_avail[32], st_cols[32], st_ld[32], st_rd[32];
    uint32_t avail = all & ~(cols | ld | rd);
    uint64_t count = 0;
    int d = 0;

    for (;;) {
        while (avail) {
            uint32_t bit = avail & -avail;
            avail ^= bit;
            if (d == rows_left - 1) {
                count++;
                continue;
            }
            st_avail[d] = avail;
            st_cols[d] = cols;
            st_ld[d] = ld;
            st_rd[d] = rd;
            cols |= bit;
            ld = (ld | bit) << 1;
            rd = (rd | bit) >> 1;
            avail = all & ~(cols | ld | rd);
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

uint64_t dfs_count(uint32_t all, int rows_left, uint32_t cols, uint32_t ld, uint32_t rd)
{
    uint32_t st_avail[32], st_cols[32], st_ld[32], st_rd[32];
    uint32_t avail = all & ~(cols | ld | rd);
    uint64_t count = 0;
    int d = 0, stop;

    if (rows_left <= 0)
        return 1;
    if (rows_left < TAIL || __builtin_popcount(all & ~cols) != rows_left)
        return plain_count(all, rows_left, cols, ld, rd);
    pthread_once(&tables_once, build_tables);
    if (rows_left == TAIL)
        return tail_count(all & ~cols, ld, rd);
    stop = rows_left - TAIL - 1; /* a node at this depth has TAIL + 1 rows left */
    if (stop == 0) {
        while (avail) {
            uint32_t bit = avail & -avail;
            avail ^= bit;
            count += tail_count(all & ~(cols | bit), (ld | bit) << 1, (rd | bit) >> 1);
        }
        return count;
    }
    for (;;) {
        while (avail) {
            uint32_t bit = avail & -avail;
            uint32_t nc = cols | bit, nl = (ld | bit) << 1, nr = (rd | bit) >> 1;
            uint32_t na = all & ~(nc | nl | nr);
            avail ^= bit;
            if (d + 1 == stop) {
                /* settle the child here rather than pushing it: it is the last level */
                while (na) {
                    uint32_t b2 = na & -na;
                    na ^= b2;
                    count += tail_count(all & ~(nc | b2), (nl | b2) << 1, (nr | b2) >> 1);
                }
                continue;
            }
            if (!na)
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
