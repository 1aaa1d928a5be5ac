/* Half-boards for the join engine, made from two blocks of rows: the hot loop that
 * join_tables.c's tables feed. A side of the board is a near block next to row h and a
 * far block beyond it, so that the half-boards on the columns C are the compatible pairs
 * of a near placement on some C1 within C and a far one on C \ C1: far cheaper than one
 * search per C, which would redo the shared first rows for every C.
 *
 * Compiled once per vector instruction set (CPU_BUILD, see join_kernel.c). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/cpu.h"
#include "engines/join_columns.h"
#include "engines/join_halves.h"
#include "engines/join_kernel.h"
#include "engines/join_tables.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

/* The entries [lo, hi) of a block's view. */
typedef struct entries {
    const uint64_t *diag, *mask;
    size_t k;
} entries;

static entries view_range(const join_view *v, uint32_t lo, uint32_t hi)
{
    entries r = {v->diag + lo, v->mask + lo, hi - lo};
    return r;
}

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

/* What a pass of fit writes: for each of its outputs w, src[w][i] | add[w] of each entry
 * i that it keeps, in turn into out[w]. */
typedef struct fit_out {
    const uint64_t *src[3];
    uint64_t add[3];
    uint64_t *out[3];
} fit_out;

#if defined(__AVX512F__)
/* One vector of fit_each: the live lanes of entries i..i+7 that are kept, written at
 * out[w] + o; how many. */
static inline __attribute__((always_inline)) size_t
fit_vec(const uint64_t *diag, const uint64_t *const src[3], uint64_t *const out[3], size_t i,
        size_t o, __mmask8 live, __m512i vdiag, __m512i vf, const __m512i add[3], int check_forbid,
        int outs)
{
    __m512i m[3];
    for (int w = 0; w < outs; w++)
        m[w] = _mm512_loadu_si512((const void *)(src[w] + i));
    __mmask8 ok =
        _mm512_mask_testn_epi64_mask(live, _mm512_loadu_si512((const void *)(diag + i)), vdiag);
    if (check_forbid)
        ok = _mm512_mask_testn_epi64_mask(ok, m[0], vf);
    for (int w = 0; w < outs; w++)
        _mm512_storeu_si512((void *)(out[w] + o),
                            _mm512_maskz_compress_epi64(ok, _mm512_or_si512(m[w], add[w])));
    return (size_t)__builtin_popcount(ok);
}
#elif defined(__AVX2__)
/* The same, four entries a vector. */
static inline __attribute__((always_inline)) size_t
fit_vec(const uint64_t *diag, const uint64_t *const src[3], uint64_t *const out[3], size_t i,
        size_t o, unsigned live, __m256i vdiag, __m256i vf, const __m256i add[3], int check_forbid,
        int outs)
{
    __m256i m[3];
    for (int w = 0; w < outs; w++)
        m[w] = _mm256_loadu_si256((const void *)(src[w] + i));
    __m256i hit = _mm256_and_si256(_mm256_loadu_si256((const void *)(diag + i)), vdiag);
    if (check_forbid)
        hit = _mm256_or_si256(hit, _mm256_and_si256(m[0], vf));
    unsigned ok = live & (unsigned)_mm256_movemask_pd(
                             _mm256_castsi256_pd(_mm256_cmpeq_epi64(hit, _mm256_setzero_si256())));
    __m256i idx = _mm256_loadu_si256((const void *)compress_idx[ok]);
    for (int w = 0; w < outs; w++)
        _mm256_storeu_si256((void *)(out[w] + o),
                            _mm256_permutevar8x32_epi32(_mm256_or_si256(m[w], add[w]), idx));
    return (size_t)__builtin_popcount(ok);
}
#endif

/* Of the k entries whose diagonals are diag[0..k), keep those that miss fdiag and, with
 * check_forbid, whose first output's source word (a mask) has none of the bits forbid,
 * written as wo says: how many. The vector forms run whole vectors, only the last one's
 * lanes past k masked off (a mask made for every vector took n = 21's tasks 1.02-1.08x
 * the time, AMD Zen 4), reading past the last entry (the view's slack) and storing past the
 * count: each output needs JOIN_HALVES_SLACK entries of room. The mask is loaded once for
 * the test and the first output, and the outputs' words are broadcast before the loop:
 * either left to the compiler cost the AVX2 path 2-3% at n = 16 (AMD Zen 4). */
static inline __attribute__((always_inline)) size_t fit_each(const uint64_t *diag, size_t k,
                                                             uint64_t fdiag, uint64_t forbid,
                                                             int check_forbid, int outs,
                                                             const fit_out *wo)
{
    const uint64_t *const src[3] = {wo->src[0], wo->src[1], wo->src[2]};
    uint64_t *const out[3] = {wo->out[0], wo->out[1], wo->out[2]};
    size_t o = 0, i = 0;
#if defined(__AVX512F__)
    __m512i vdiag = _mm512_set1_epi64((long long)fdiag), vf = _mm512_set1_epi64((long long)forbid);
    __m512i add[3];
    for (int w = 0; w < outs; w++)
        add[w] = _mm512_set1_epi64((long long)wo->add[w]);
    for (; i + 8 <= k; i += 8)
        o += fit_vec(diag, src, out, i, o, 0xff, vdiag, vf, add, check_forbid, outs);
    if (i < k)
        o += fit_vec(diag, src, out, i, o, (__mmask8)((1u << (k - i)) - 1), vdiag, vf, add,
                     check_forbid, outs);
#elif defined(__AVX2__)
    __m256i vdiag = _mm256_set1_epi64x((long long)fdiag),
            vf = _mm256_set1_epi64x((long long)forbid);
    __m256i add[3];
    for (int w = 0; w < outs; w++)
        add[w] = _mm256_set1_epi64x((long long)wo->add[w]);
    for (; i + 4 <= k; i += 4)
        o += fit_vec(diag, src, out, i, o, 0xf, vdiag, vf, add, check_forbid, outs);
    if (i < k)
        o += fit_vec(diag, src, out, i, o, (1u << (k - i)) - 1, vdiag, vf, add, check_forbid, outs);
#else
    for (; i < k; i++) {
        for (int w = 0; w < outs; w++)
            out[w][o] = src[w][i] | wo->add[w];
        o += ((diag[i] & fdiag) | (check_forbid ? src[0][i] & forbid : 0)) == 0;
    }
#endif
    return o;
}

/* Append to out the masks of the entries of in that fit with placement (fdiag, fm) of
 * the other block and, with check_forbid, have none of the bits forbid (fm has none). */
static inline __attribute__((always_inline)) size_t
fit(entries in, uint64_t fdiag, uint64_t fm, uint64_t forbid, int check_forbid, uint64_t *out)
{
    fit_out wo = {{in.mask}, {fm}, {out}};
    return fit_each(in.diag, in.k, fdiag, forbid, check_forbid, 1, &wo);
}

/* Append to out past its first k masks the half-boards of a near block's entries and a
 * far part's (the test is symmetric: the longer list in the inner loop), from entry
 * pc->j of the shorter on, one entry of it at a time while the list is shorter than
 * limit and out has room for the longer list. Returns the list's length; pc->j is left
 * at the entry to go on from and *stopped set when some are left, else 0. A forbid of 0
 * (even boards) tests the diagonals only. */
static size_t fit_blocks(entries a, entries b, uint64_t forbid, join_piece *pc, size_t k,
                         size_t limit, join_buf *out, int *stopped)
{
    size_t j = pc->j;
    if (a.k < b.k) {
        entries t = a;
        a = b, b = t;
    }
    *stopped = 0;
    if (j == 0 && join_buf_room(out, k, a.k * b.k) == 0) {
        /* the common case: all of them fit, no check per entry (n = 16: 1.6% fewer
         * instructions than one loop with the checks switched off by a flag) */
        if (!forbid) {
            for (; j < b.k; j++)
                k += fit(a, b.diag[j], b.mask[j], 0, 0, out->v + k);
        } else {
            for (; j < b.k; j++)
                if ((b.mask[j] & forbid) == 0)
                    k += fit(a, b.diag[j], b.mask[j], forbid, 1, out->v + k);
        }
        return k;
    }
    if (!forbid) {
        for (; j < b.k && k < limit && join_buf_room(out, k, a.k) == 0; j++)
            k += fit(a, b.diag[j], b.mask[j], 0, 0, out->v + k);
    } else {
        for (; j < b.k && k < limit && join_buf_room(out, k, a.k) == 0; j++)
            if ((b.mask[j] & forbid) == 0)
                k += fit(a, b.diag[j], b.mask[j], forbid, 1, out->v + k);
    }
    *stopped = j < b.k;
    pc->j = *stopped ? j : 0;
    return k;
}

/* Whether some entry of e has none of the bits forbid; *common gets the diagonals that
 * every such entry has. */
static int near_common(entries e, uint64_t forbid, uint64_t *common)
{
    uint64_t all = ~(uint64_t)0;
    int any = 0;
    for (size_t i = 0; i < e.k; i++)
        if (!(e.mask[i] & forbid)) {
            all &= e.diag[i];
            any = 1;
        }
    *common = all;
    return any;
}

/* A far block's entries on one column set that can be part of a kept half-board (see
 * compose), copied with room for the vector loops' slack. */
typedef struct far_kept {
    uint64_t diag2[JOIN_BLOCK_SET_MOST + JOIN_HALVES_SLACK],
        diag[JOIN_BLOCK_SET_MOST + JOIN_HALVES_SLACK],
        mask[JOIN_BLOCK_SET_MOST + JOIN_HALVES_SLACK];
} far_kept;

/* Make f the far part of a three-block side on cols: over the splits of cols between
 * its mid and far blocks, the pairs of their placements that fit each other, with their
 * diagonals where the near block meets them and their part of the mask; but none with a
 * bit of forbid, nor any that meets the diagonals near, which every near entry to be
 * paired with it has (it would fit none). The far block's entries so kept are copied
 * once a split, then each mid entry is one pass over them, which tests the pair on the
 * diagonals where mid and far meet (diag2) and writes both words of each kept one.
 * Tested here, not only on the whole half-board, the forbidden bits halve the far parts
 * a value range makes (n = 26, AMD Zen 4: 1.1e9 entries to 0.55e9, and 0.50e9 with the
 * near entries' diagonals; their time 3.4 s to 2.1 s of a 6-9 s task). How many
 * entries, or SIZE_MAX without memory. */
static size_t compose(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                      uint64_t near, join_far *f)
{
    int km = jt->k[side][1], m = __builtin_popcount(cols);
    const join_block *bm = join_tables_block(jt, km), *bf = join_tables_block(jt, m - km);
    const join_view *vm = &jt->view[side][1], *vf = &jt->view[side][2];
    join_cols cl = join_list_cols(cols);
    uint32_t x = km ? (1u << km) - 1 : 0;
    size_t k = 0;
    far_kept fk;

    assert(jt->parts == 3 && m == jt->k[side][1] + jt->k[side][2]);
    for (;;) {
        uint32_t c2 = join_pick(&cl, x), r2 = join_colex_rank(jt, c2),
                 r3 = join_colex_rank(jt, cols & ~c2);
        uint32_t lo2 = bm->start[r2], hi2 = bm->start[r2 + 1];
        uint32_t lo3 = bf->start[r3], nf = bf->start[r3 + 1] - lo3;
        fit_out keep = {{vf->mask + lo3, vf->diag2 + lo3, vf->diag + lo3},
                        {0, 0, 0},
                        {fk.mask, fk.diag2, fk.diag}};
        assert(nf <= JOIN_BLOCK_SET_MOST);
        nf = fit_each(vf->diag + lo3, nf, near, forbid, 1, 3, &keep);
        if (join_buf_need(&f->diag, k + (size_t)(hi2 - lo2) * nf) != 0 ||
            join_buf_need(&f->mask, k + (size_t)(hi2 - lo2) * nf) != 0)
            return SIZE_MAX;
        for (uint32_t i = lo2; i < hi2 && nf; i++) {
            if ((vm->mask[i] & forbid) | (vm->diag[i] & near))
                continue;
            fit_out wo = {
                {fk.diag, fk.mask}, {vm->diag[i], vm->mask[i]}, {f->diag.v + k, f->mask.v + k}};
            k += fit_each(fk.diag2, nf, vm->diag2[i], 0, 0, 2, &wo);
        }
        if (km == 0 || km == m || (x = join_next_subset(x)) >> m)
            break;
    }
    return k;
}

/* The far part's entries on cols: a block's view, or (three blocks a side) the mid and
 * far blocks' placements that fit, made now into pc->far. */
static int far_part(const join_tables *jt, int side, uint32_t cols, uint64_t forbid, uint64_t near,
                    join_piece *pc, entries *far)
{
    if (jt->parts == 3) {
        size_t k = compose(jt, side, cols, forbid, near, pc->far);
        *far = (entries){pc->far->diag.v, pc->far->mask.v, k};
        return k == SIZE_MAX ? -1 : 0;
    }
    const join_block *bf = join_tables_block(jt, jt->rows[side] - jt->near[side]);
    uint32_t r = join_colex_rank(jt, cols);
    *far = view_range(&jt->view[side][1], bf->start[r], bf->start[r + 1]);
    return 0;
}

size_t CPU_BUILD_NAME(join_halves)(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                                   join_piece *pc, size_t k, size_t limit, join_buf *out)
{
    int kn = jt->near[side], m = __builtin_popcount(cols);
    const join_block *bn = join_tables_block(jt, kn);
    join_cols cl = join_list_cols(cols);

    assert(m == jt->rows[side] && !pc->done);
    while (k < limit) {
        uint32_t c1 = join_pick(&cl, pc->x), r1 = join_colex_rank(jt, c1);
        entries near = view_range(&jt->view[side][0], bn->start[r1], bn->start[r1 + 1]), far;
        uint64_t common = 0;
        int stopped = 0;
        /* three blocks: a near subset none of whose entries is kept has no far part made;
         * two have theirs in a view, and the scan would cost n = 16 7% (AMD Zen 4) */
        if (jt->parts == 2 || near_common(near, forbid, &common)) {
            if (far_part(jt, side, cols & ~c1, forbid, common, pc, &far) != 0)
                return SIZE_MAX;
            k = fit_blocks(near, far, forbid, pc, k, limit, out, &stopped);
        }
        if (stopped)
            break; /* the limit, or no room: the caller grows out or ends the piece */
        if (kn == 0 || kn == m || (pc->x = join_next_subset(pc->x)) >> m) {
            pc->done = 1;
            break;
        }
    }
    return k;
}

/* The masks of the tops that fit a middle queen, once per middle column of a task: fit's
 * loop, each mask its own diagonals (a scalar loop took 3.3% of n = 21's time, AMD Zen 4). */
size_t CPU_BUILD_NAME(join_keep)(const uint64_t *v, size_t k, uint64_t forbid, uint64_t *out)
{
    fit_out wo = {{v}, {0}, {out}};
    return fit_each(v, k, forbid, 0, 0, 1, &wo);
}
