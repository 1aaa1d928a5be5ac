/* Counting the disjoint pairs between two sets of masks: the heart of the join engine.
 * The masks come with their bits renamed so that the likeliest collisions are the top
 * bits (join_renaming.c); both sets are sorted on those, then a recursion splits both
 * sets on one bit at a time and drops the pairs that share it (a set bit on both sides),
 * down to blocks that a bit-sliced leaf counts: one side's masks transposed into bit
 * planes, so that one OR per set bit of a mask of the other side tests it against a
 * whole vector of masks at once. docs/join.md compares the alternatives.
 *
 * Compiled once per vector instruction set (JOIN_ISA, see join_kernel.c): the vector
 * type below is as wide as the build's registers. */
#include <assert.h>
#include <string.h>

#include "engines/join.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#if defined(__AVX512F__)
#define VEC_WORDS 8
#elif defined(__AVX2__)
#define VEC_WORDS 4
#else
#define VEC_WORDS 2
#endif
typedef uint64_t vec __attribute__((vector_size(VEC_WORDS * 8)));

/* Vectors per lookup: two where registers are narrow, so that one index computation
 * serves more pairs. */
#if defined(__AVX512F__)
#define ENTRY_VECS 1
#else
#define ENTRY_VECS 2
#endif
typedef struct entry {
    vec v[ENTRY_VECS];
} entry;

static inline entry entry_or(entry a, entry b)
{
    for (int e = 0; e < ENTRY_VECS; e++)
        a.v[e] |= b.v[e];
    return a;
}

/* Masks per bit plane: one bit of each lane of a vector per mask. */
#define CHUNK (VEC_WORDS * 64 * ENTRY_VECS)

/* Bits the sets are sorted on (from bit 63 down), for the blocks too large for one
 * leaf: with the bit-sliced leaf, splitting pays on the largest tasks only. */
#ifndef SORT_BITS
#define SORT_BITS 8
#endif
#define RADIX_BITS 8
/* Pairs up to which a block goes to the leaf whole: splitting smaller ones costs the
 * sort and leaves chunks half empty, for no gain measured at n = 16 and 18 (splits down
 * to blocks of 1,024 masks took 4.13-4.34 s at n = 18 against 4.1 s). */
#ifndef LEAF_PAIRS
#define LEAF_PAIRS 4194304
#endif

static inline uint64_t vec_popcount(vec v)
{
    uint64_t s = 0;
    for (int i = 0; i < VEC_WORDS; i++)
        s += (uint64_t)__builtin_popcountll(v[i]);
    return s;
}

/* Lookup tables of one chunk: for each byte of the masks that the chunk's masks use,
 * and each value v of that byte, the OR of the planes of v's bits. */
typedef entry byte_tables[8][256];
static_assert(sizeof(byte_tables) <= JOIN_PAIRS_WORK, "the caller's work area holds them");

/* Transpose the 8 x 8 matrix of bytes m[row] byte col: m[c] byte r becomes m[r] byte c,
 * by swapping blocks of 4, 2 and 1 bytes. */
static inline void transpose_bytes(uint64_t m[8])
{
    static const uint64_t keep[3] = {0x00000000ffffffffu, 0x0000ffff0000ffffu, 0x00ff00ff00ff00ffu};
    for (int s = 0, d = 4; d; s++, d /= 2)
        for (int r = 0; r < 8; r++) {
            if (r & d)
                continue;
            uint64_t a = m[r], b = m[r + d];
            m[r] = (a & keep[s]) | (b << 8 * d & ~keep[s]);
            m[r + d] = (a >> 8 * d & keep[s]) | (b & ~keep[s]);
        }
}

/* Transpose the 8 x 8 matrix of bits x (byte r bit c): byte c bit r after. */
static inline uint64_t transpose_bits(uint64_t x)
{
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00aa00aa00aa00aau;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000cccc0000ccccu;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000f0f0f0f0u;
    x ^= t ^ (t << 28);
    return x;
}

/* Bit planes of t[0..k) on the bits used, for its bytes shift[0..bytes) / 8: lane bit j
 * of plane i is bit i of mask j (in some fixed order of the lanes, the same for every
 * plane, which is all the lookups need). Eight masks at a time: their bytes transposed,
 * then the bits of each used byte. */
static void transpose(const uint64_t *t, size_t k, uint64_t used, const int shift[8], int bytes,
                      entry plane[64])
{
    uint8_t(*lane_byte)[sizeof(entry)] = (void *)plane;

    if (k < CHUNK)
        memset(plane, 0, 64 * sizeof(entry));
    for (size_t g = 0; g * 8 < k; g++) {
        uint64_t m[8];
        for (size_t r = 0; r < 8; r++)
            m[r] = 8 * g + r < k ? t[8 * g + r] & used : 0;
        transpose_bytes(m);
        for (int q = 0; q < bytes; q++) {
            int b = shift[q] / 8;
            uint64_t o = transpose_bits(m[b]);
            for (int i = 0; i < 8; i++)
                lane_byte[8 * b + i][g] = (uint8_t)(o >> 8 * i);
        }
    }
}

/* The bytes of used, as shifts; how many. */
static int used_bytes(uint64_t used, int shift[8])
{
    int q = 0;
    for (int b = 0; b < 8; b++)
        if (used >> (8 * b) & 0xff)
            shift[q++] = 8 * b;
    return q;
}

/* The table of each used byte: for each value v, the OR of the planes of v's bits. */
static void make_tables(const entry plane[64], const int shift[8], int bytes, byte_tables tab)
{
    for (int q = 0; q < bytes; q++) {
        entry *t = tab[q];
        memset(&t[0], 0, sizeof(t[0]));
        /* by doubling: no entry waits for the one stored just before it */
        for (int i = 0; i < 8; i++)
            for (int v = 0; v < 1 << i; v++)
                t[(1 << i) + v] = entry_or(t[v], plane[shift[q] + i]);
    }
}

/* The OR of the tables' entries for the bytes of m: the masks of the chunk m meets. */
static inline __attribute__((always_inline)) entry met(const byte_tables tab, const int shift[8],
                                                       int bytes, uint64_t m)
{
    entry r = tab[0][m >> shift[0] & 0xff];
    for (int q = 1; q < bytes; q++)
        r = entry_or(r, tab[q][m >> shift[q] & 0xff]);
    return r;
}

#if defined(__AVX512BW__)
typedef __m512i bytes_vec;
#define BYTES_SHUFFLE _mm512_shuffle_epi8
#define BYTES_ADD _mm512_add_epi8
#define BYTES_SAD(v) _mm512_sad_epu8(v, _mm512_setzero_si512())
#define BYTES_NIBBLE(v, shift) _mm512_and_si512(_mm512_srli_epi64(v, shift), _mm512_set1_epi8(15))
#elif defined(__AVX2__)
typedef __m256i bytes_vec;
#define BYTES_SHUFFLE _mm256_shuffle_epi8
#define BYTES_ADD _mm256_add_epi8
#define BYTES_SAD(v) _mm256_sad_epu8(v, _mm256_setzero_si256())
#define BYTES_NIBBLE(v, shift) _mm256_and_si256(_mm256_srli_epi64(v, shift), _mm256_set1_epi8(15))
#endif

#if defined(__AVX2__)
/* The same with the popcounts in the vector unit: per byte, the bits of each nibble
 * from a 16-entry table (a byte shuffle), added up in byte counters that are folded
 * into 64-bit lanes before they can overflow (8 bits per byte and vector of an entry,
 * ROUNDS rounds < 256). */
#define ROUNDS (31 / ENTRY_VECS)
static inline __attribute__((always_inline)) uint64_t
chunk_hits(const uint64_t *x, size_t nx, const byte_tables tab, const int shift[8], int bytes)
{
    static const uint8_t bits16[64] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                       0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                       0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                       0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    bytes_vec lut;
    vec sum = {0};

    memcpy(&lut, bits16, sizeof(lut));
    for (size_t i = 0; i < nx;) {
        size_t end = nx - i < ROUNDS ? nx : i + ROUNDS;
        vec acc = {0};
        for (; i < end; i++) {
            entry r = met(tab, shift, bytes, x[i]);
            for (int e = 0; e < ENTRY_VECS; e++) {
                bytes_vec v = (bytes_vec)r.v[e];
                bytes_vec c = BYTES_ADD(BYTES_SHUFFLE(lut, BYTES_NIBBLE(v, 0)),
                                        BYTES_SHUFFLE(lut, BYTES_NIBBLE(v, 4)));
                acc = (vec)BYTES_ADD((bytes_vec)acc, c);
            }
        }
        sum += (vec)BYTES_SAD((bytes_vec)acc);
    }
    uint64_t hits = 0;
    for (int w = 0; w < VEC_WORDS; w++)
        hits += sum[w];
    return hits;
}
#else
/* The masks of a chunk that each of x[0..nx) meets, summed: one lookup per used byte. */
static inline __attribute__((always_inline)) uint64_t
chunk_hits(const uint64_t *x, size_t nx, const byte_tables tab, const int shift[8], int bytes)
{
    uint64_t hits = 0;
    for (size_t i = 0; i < nx; i++) {
        entry r = met(tab, shift, bytes, x[i]);
        for (int e = 0; e < ENTRY_VECS; e++)
            hits += vec_popcount(r.v[e]);
    }
    return hits;
}
#endif

/* The pairs of t[0..nt) and x[0..nx) that share no bit of live (the bits above it are
 * known to agree). CHUNK masks of t at a time become bit planes, and the planes tables
 * per byte, so that the OR of a few lookups has a 1 for every mask of the chunk that a
 * mask x meets. */
static uint64_t sliced_pairs(const uint64_t *t, size_t nt, const uint64_t *x, size_t nx,
                             uint64_t live, void *work)
{
    entry plane[64];
    entry(*tab)[256] = work;
    uint64_t hits = 0;
    int shift[8];

    for (size_t c = 0; c < nt; c += CHUNK) {
        size_t k = nt - c < CHUNK ? nt - c : CHUNK;
        uint64_t used = 0;
        for (size_t j = 0; j < k; j++)
            used |= t[c + j];
        used &= live;
        if (!used)
            continue; /* every pair fits */
        int bytes = used_bytes(used, shift);
        transpose(t + c, k, used, shift, bytes, plane);
        make_tables(plane, shift, bytes, tab);
        /* a constant byte count per call, so that the lookups unroll */
        switch (bytes) {
#define HITS(bytes)                                                                                \
    case bytes:                                                                                    \
        hits += chunk_hits(x, nx, (const entry(*)[256])tab, shift, bytes);                         \
        break;
            HITS(1) HITS(2) HITS(3) HITS(4) HITS(5) HITS(6) HITS(7) HITS(8)
#undef HITS
        }
    }
    return (uint64_t)nt * nx - hits;
}

/* The leaf: a few pairs by the double loop, the rest bit-sliced, transposing the side
 * that costs less (in rough operations: a chunk's tables cost about 1,000, each mask
 * of the other side a dozen per chunk). */
static uint64_t leaf_count(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                           uint64_t live, void *work)
{
    if (na * nb <= 2048)
        return join_pairs_naive(a, na, b, nb);
    size_t cost_a = (na + CHUNK - 1) / CHUNK * (1000 + nb * 12);
    size_t cost_b = (nb + CHUNK - 1) / CHUNK * (1000 + na * 12);
    return cost_a <= cost_b ? sliced_pairs(a, na, b, nb, live, work)
                            : sliced_pairs(b, nb, a, na, live, work);
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
    void *work;
} pairs_run;

/* Pairs between a[al..ah) and b[bl..bh), which agree (no shared set bit) above bit:
 * those with bit clear on both sides, or set on one side only. */
static uint64_t split_count(const pairs_run *r, size_t al, size_t ah, size_t bl, size_t bh, int bit)
{
    size_t na = ah - al, nb = bh - bl;

    if (na == 0 || nb == 0)
        return 0;
    if (na * nb <= LEAF_PAIRS || bit < 64 - SORT_BITS) {
        uint64_t live = bit == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (bit + 1)) - 1;
        return leaf_count(r->a + al, na, r->b + bl, nb, live, r->work);
    }
    uint64_t m = (uint64_t)1 << bit;
    size_t am = first_with(r->a, al, ah, m), bm = first_with(r->b, bl, bh, m);
    return split_count(r, al, am, bl, bm, bit - 1) + split_count(r, al, am, bm, bh, bit - 1) +
           split_count(r, am, ah, bl, bm, bit - 1);
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

uint64_t JOIN_ISA_NAME(join_pairs_count)(uint64_t *a, size_t na, uint64_t *b, size_t nb,
                                         uint64_t *tmp, void *work)
{
    if (na == 0 || nb == 0)
        return 0;
    if (na * nb <= LEAF_PAIRS)
        return leaf_count(a, na, b, nb, ~(uint64_t)0, work);
    sort_top(a, na, tmp);
    sort_top(b, nb, tmp);
    pairs_run r = {a, b, work};
    return split_count(&r, 0, na, 0, nb, 63);
}
