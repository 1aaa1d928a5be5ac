/* Half-boards for the join engine, made from two blocks of rows: the hot loop that
 * join_tables.c's tables feed. A side of the board is a near block next to row h and a
 * far block beyond it, so that the half-boards on the columns C are the compatible pairs
 * of a near placement on some C1 within C and a far one on C \ C1: far cheaper than one
 * search per C, which would redo the shared first rows for every C.
 *
 * Compiled once per vector instruction set (JOIN_ISA, see join_kernel.c). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engines/board.h"
#include "engines/join.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

/* The next subset of the same size of an index set (Gosper), within 32 bits. */
static uint32_t next_subset(uint32_t x)
{
    uint32_t low = x & -x, ripple = x + low;
    return ripple | (((x ^ ripple) >> 2) / low);
}

/* The columns of cols, lowest first, so that a subset of its indices maps to columns
 * with one OR per member (pdep would do it in one instruction, but is slow on AMD
 * before Zen 3). */
typedef struct col_list {
    uint32_t bit[32];
} col_list;

static col_list list_cols(uint32_t cols)
{
    col_list cl;
    for (int i = 0; cols; cols &= cols - 1, i++)
        cl.bit[i] = cols & -cols;
    return cl;
}

/* The members of the listed columns picked by the index bits of x. */
static uint32_t pick(const col_list *cl, uint32_t x)
{
    uint32_t out = 0;
    for (; x; x &= x - 1)
        out |= cl->bit[__builtin_ctz(x)];
    return out;
}

/* Near placements as the side sees them, for the inner loop; rows of at most NEAR_MAX
 * entries (larger ones, if any, go through in parts). */
#define NEAR_MAX 256

#if defined(__AVX2__) && !defined(__AVX512F__)
/* For each 4-bit mask of lanes, the 32-bit lane indices that move those 64-bit lanes to
 * the front (the rest after them): AVX2 has no compress instruction. */
static const uint32_t compress_idx[16][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 2, 3, 4, 5, 6, 7},
    {0, 1, 2, 3, 4, 5, 6, 7}, {4, 5, 2, 3, 4, 5, 6, 7}, {0, 1, 4, 5, 4, 5, 6, 7},
    {2, 3, 4, 5, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {6, 7, 2, 3, 4, 5, 6, 7},
    {0, 1, 6, 7, 4, 5, 6, 7}, {2, 3, 6, 7, 4, 5, 6, 7}, {0, 1, 2, 3, 6, 7, 6, 7},
    {4, 5, 6, 7, 4, 5, 6, 7}, {0, 1, 4, 5, 6, 7, 6, 7}, {2, 3, 4, 5, 6, 7, 6, 7},
    {0, 1, 2, 3, 4, 5, 6, 7},
};
#endif

/* Append to out the masks of the near placements v[0..k) that fit with far placement f.
 * The vector form stores whole vectors: out needs JOIN_HALVES_SLACK entries of room past
 * the count. */
static size_t fit_near(const uint64_t *ve, const uint64_t *vd, const uint64_t *vm, size_t k,
                       join_placed f, uint64_t *out)
{
    size_t o = 0;
#if defined(__AVX512F__)
    __m512i fe = _mm512_set1_epi64((long long)f.e), fd = _mm512_set1_epi64((long long)f.d);
    __m512i fm = _mm512_set1_epi64((long long)f.mask);
    for (size_t i = 0; i < k; i += 8) {
        __mmask8 live = k - i >= 8 ? 0xff : (__mmask8)((1u << (k - i)) - 1);
        __m512i e = _mm512_maskz_loadu_epi64(live, ve + i),
                d = _mm512_maskz_loadu_epi64(live, vd + i);
        __mmask8 fit = _mm512_mask_testn_epi64_mask(_mm512_testn_epi64_mask(e, fe), d, fd) & live;
        __m512i m = _mm512_or_si512(_mm512_maskz_loadu_epi64(live, vm + i), fm);
        _mm512_storeu_si512((void *)(out + o), _mm512_maskz_compress_epi64(fit, m));
        o += (size_t)__builtin_popcount(fit);
    }
#elif defined(__AVX2__)
    __m256i fe = _mm256_set1_epi64x((long long)f.e), fd = _mm256_set1_epi64x((long long)f.d);
    __m256i fm = _mm256_set1_epi64x((long long)f.mask), zero = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 4 <= k; i += 4) {
        __m256i e = _mm256_loadu_si256((const void *)(ve + i)),
                d = _mm256_loadu_si256((const void *)(vd + i));
        __m256i hit = _mm256_or_si256(_mm256_and_si256(e, fe), _mm256_and_si256(d, fd));
        int fit = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(hit, zero)));
        __m256i m = _mm256_or_si256(_mm256_loadu_si256((const void *)(vm + i)), fm);
        __m256i idx = _mm256_loadu_si256((const void *)compress_idx[fit]);
        _mm256_storeu_si256((void *)(out + o), _mm256_permutevar8x32_epi32(m, idx));
        o += (size_t)__builtin_popcount((unsigned)fit);
    }
    for (; i < k; i++) {
        out[o] = vm[i] | f.mask;
        o += ((ve[i] & f.e) | (vd[i] & f.d)) == 0;
    }
#else
    for (size_t i = 0; i < k; i++) {
        out[o] = vm[i] | f.mask;
        o += ((ve[i] & f.e) | (vd[i] & f.d)) == 0;
    }
#endif
    return o;
}

size_t JOIN_ISA_NAME(join_halves)(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                                  join_buf *out)
{
    int kn = jt->near[side], kf = jt->rows[side] - kn;
    const join_block *bn = join_tables_block(jt, kn), *bf = join_tables_block(jt, kf);
    int dn = join_block_d0(jt, side, 0), df = join_block_d0(jt, side, 1);
    int m = __builtin_popcount(cols);
    uint32_t x = kn ? (1u << kn) - 1 : 0;
    uint64_t ve[NEAR_MAX], vd[NEAR_MAX], vm[NEAR_MAX];
    size_t k = 0;
    col_list cl = list_cols(cols);

    assert(m == jt->rows[side]);
    for (;;) {
        uint32_t c1 = pick(&cl, x), r1 = join_colex_rank(jt, c1),
                 r2 = join_colex_rank(jt, cols & ~c1);
        for (uint32_t e0 = bn->start[r1]; e0 < bn->start[r1 + 1]; e0 += NEAR_MAX) {
            uint32_t end = bn->start[r1 + 1] - e0 < NEAR_MAX ? bn->start[r1 + 1] : e0 + NEAR_MAX;
            size_t kk = 0;
            for (uint32_t e = e0; e < end; e++) {
                join_placed p = join_block_diagonals(kn, dn, bn->rel[e]);
                ve[kk] = p.e, vd[kk] = p.d, vm[kk] = jt->view[side][0][e];
                kk += (vm[kk] & forbid) == 0;
            }
            if (join_buf_room(out, k, (size_t)kk * (bf->start[r2 + 1] - bf->start[r2])) != 0)
                return SIZE_MAX;
            for (uint32_t f = bf->start[r2]; f < bf->start[r2 + 1]; f++) {
                join_placed pf = join_block_diagonals(kf, df, bf->rel[f]);
                pf.mask = jt->view[side][1][f];
                if ((pf.mask & forbid) == 0)
                    k += fit_near(ve, vd, vm, kk, pf, out->v + k);
            }
        }
        if (kn == 0 || kn == m)
            break;
        x = next_subset(x);
        if (x >> m)
            break;
    }
    return k;
}
