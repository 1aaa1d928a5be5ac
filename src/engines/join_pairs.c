/* Counting the disjoint pairs between two sets of masks: the heart of the join engine.
 * The masks come with their bits renamed so that the likeliest collisions are the top
 * bits (join_renaming); both sets are sorted on those, then a recursion splits both sets on one bit
 * at a time and drops the pairs that share it (a set bit on both sides), down to blocks small
 * enough for a plain (vectorised) double loop. docs/join.md compares the alternatives. */
#include <assert.h>
#include <string.h>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "engines/join.h"

/* Bits the sets are sorted on (from bit 63 down): enough to split blocks of ~100k masks
 * down to the leaf size; the leaf loop checks every bit anyway. */
#define SORT_BITS 16
#define RADIX_BITS 8
/* Pairs below which a block goes to the double loop: the loop tests 8 pairs per
 * instruction, a split costs two binary searches and a call. */
#define LEAF_PAIRS 8192

uint64_t join_pairs_naive(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    uint64_t sum = 0;

    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            sum += (a[i] & b[j]) == 0;
    return sum;
}

#if defined(__AVX512F__)
/* Pairs of b[0..nb) with each of x0..x3, added per lane into acc[0..3]. */
#define LEAF_LANES(X, k)                                                                           \
    acc[k] = _mm512_mask_sub_epi64(acc[k], _mm512_testn_epi64_mask(X, v), acc[k], minus1)

static uint64_t leaf_count_avx512(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    const __m512i minus1 = _mm512_set1_epi64(-1);
    __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                      _mm512_setzero_si512()};
    size_t full = nb & ~(size_t)7, i = 0;
    __mmask8 tail = (__mmask8)((1u << (nb - full)) - 1);
    __m512i vt = _mm512_maskz_loadu_epi64(tail, b + full);

    /* four masks of a against each vector of b: one load serves four tests */
    for (; i + 4 <= na; i += 4) {
        __m512i x0 = _mm512_set1_epi64((long long)a[i]),
                x1 = _mm512_set1_epi64((long long)a[i + 1]);
        __m512i x2 = _mm512_set1_epi64((long long)a[i + 2]),
                x3 = _mm512_set1_epi64((long long)a[i + 3]);
        for (size_t j = 0; j < full; j += 8) {
            __m512i v = _mm512_loadu_si512((const void *)(b + j));
            LEAF_LANES(x0, 0);
            LEAF_LANES(x1, 1);
            LEAF_LANES(x2, 2);
            LEAF_LANES(x3, 3);
        }
        if (tail) {
            __m512i v = vt;
            acc[0] = _mm512_mask_sub_epi64(acc[0], _mm512_mask_testn_epi64_mask(tail, x0, v),
                                           acc[0], minus1);
            acc[1] = _mm512_mask_sub_epi64(acc[1], _mm512_mask_testn_epi64_mask(tail, x1, v),
                                           acc[1], minus1);
            acc[2] = _mm512_mask_sub_epi64(acc[2], _mm512_mask_testn_epi64_mask(tail, x2, v),
                                           acc[2], minus1);
            acc[3] = _mm512_mask_sub_epi64(acc[3], _mm512_mask_testn_epi64_mask(tail, x3, v),
                                           acc[3], minus1);
        }
    }
    for (; i < na; i++) {
        __m512i x0 = _mm512_set1_epi64((long long)a[i]);
        for (size_t j = 0; j < full; j += 8) {
            __m512i v = _mm512_loadu_si512((const void *)(b + j));
            LEAF_LANES(x0, 0);
        }
        acc[0] = _mm512_mask_sub_epi64(acc[0], _mm512_mask_testn_epi64_mask(tail, x0, vt), acc[0],
                                       minus1);
    }
    __m512i sum =
        _mm512_add_epi64(_mm512_add_epi64(acc[0], acc[1]), _mm512_add_epi64(acc[2], acc[3]));
    return (uint64_t)_mm512_reduce_add_epi64(sum);
}
#endif

/* The leaf loop: the same count as join_pairs_naive, vectorised where the build allows;
 * the longer side runs in the inner loop. */
static uint64_t leaf_count(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    if (na > nb) {
        const uint64_t *t = a;
        a = b, b = t;
        size_t k = na;
        na = nb, nb = k;
    }
#if defined(__AVX512F__)
    return leaf_count_avx512(a, na, b, nb);
#else
    return join_pairs_naive(a, na, b, nb);
#endif
}

/* The first index in [lo, hi) whose mask has bit; the range is sorted on the bits above
 * and including bit, and shares those above. */
static size_t first_with(const uint64_t *v, size_t lo, size_t hi, uint64_t bit)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] & bit)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

typedef struct pairs_run {
    const uint64_t *a, *b;
} pairs_run;

/* Pairs between a[al..ah) and b[bl..bh), which agree (no shared set bit) above bit:
 * those with bit clear on both sides, or set on one side only. */
static uint64_t split_count(const pairs_run *r, size_t al, size_t ah, size_t bl, size_t bh, int bit)
{
    size_t na = ah - al, nb = bh - bl;

    if (na == 0 || nb == 0)
        return 0;
    if (na * nb <= LEAF_PAIRS || bit < 64 - SORT_BITS)
        return leaf_count(r->a + al, na, r->b + bl, nb);
    uint64_t m = (uint64_t)1 << bit;
    size_t am = first_with(r->a, al, ah, m), bm = first_with(r->b, bl, bh, m);
    return split_count(r, al, am, bl, bm, bit - 1) + split_count(r, al, am, bm, bh, bit - 1) +
           split_count(r, am, ah, bl, bm, bit - 1);
}

void join_renaming_of_bits(join_renaming *rn, const uint64_t to[64])
{
    for (int byte = 0; byte < 8; byte++)
        for (int v = 0; v < 256; v++) {
            uint64_t img = 0;
            for (int bit = 0; bit < 8; bit++)
                if (v >> bit & 1)
                    img |= to[byte * 8 + bit];
            rn->byte[byte][v] = img;
        }
}

void join_renaming_identity(join_renaming *rn)
{
    uint64_t to[64];
    for (int j = 0; j < 64; j++)
        to[j] = (uint64_t)1 << j;
    join_renaming_of_bits(rn, to);
}

void join_bit_counts(const uint64_t *v, size_t k, uint64_t cnt[64])
{
    for (size_t i = 0; i < k; i++)
        for (uint64_t m = v[i]; m; m &= m - 1)
            cnt[__builtin_ctzll(m)]++;
}

/* Bits go to bit 63 downwards, the likeliest collision (the largest product of the two
 * counts) first; a bit only one side sets, which never collides, goes after those (it is
 * kept: the middle queen of an odd board is tested on it). */
void join_renaming_make(join_renaming *rn, const uint64_t ca[64], const uint64_t cb[64])
{
    uint64_t to[64] = {0};
    int order[64], k = 0;

    for (int j = 0; j < 64; j++)
        order[k++] = j;
    for (int x = 1; x < k; x++) { /* insertion sort, descending; k <= 64, once per count */
        int j = order[x], y = x;
        double v = (double)ca[j] * (double)cb[j];
        while (y > 0 && (double)ca[order[y - 1]] * (double)cb[order[y - 1]] < v) {
            order[y] = order[y - 1];
            y--;
        }
        order[y] = j;
    }
    for (int x = 0; x < k; x++)
        to[order[x]] = (uint64_t)1 << (63 - x);
    join_renaming_of_bits(rn, to);
}

/* Sort v on its top SORT_BITS bits, least significant digit first; tmp has room for k. */
static void sort_top(uint64_t *v, size_t k, uint64_t *tmp)
{
    static_assert(SORT_BITS % RADIX_BITS == 0, "whole digits");
    uint32_t count[1u << RADIX_BITS];
    uint64_t *from = v, *to = tmp;

    for (int shift = 64 - SORT_BITS; shift < 64; shift += RADIX_BITS) {
        uint32_t sum = 0;
        memset(count, 0, sizeof(count));
        for (size_t i = 0; i < k; i++)
            count[from[i] >> shift & ((1u << RADIX_BITS) - 1)]++;
        for (uint32_t d = 0; d < (1u << RADIX_BITS); d++) {
            uint32_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < k; i++)
            to[count[from[i] >> shift & ((1u << RADIX_BITS) - 1)]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != v)
        memcpy(v, from, k * sizeof(*v));
}

uint64_t join_pairs_count(uint64_t *a, size_t na, uint64_t *b, size_t nb, uint64_t *tmp)
{
    if (na == 0 || nb == 0)
        return 0;
    if (na * nb <= LEAF_PAIRS)
        return leaf_count(a, na, b, nb);
    sort_top(a, na, tmp);
    sort_top(b, nb, tmp);
    pairs_run r = {a, b};
    return split_count(&r, 0, na, 0, nb, 63);
}
