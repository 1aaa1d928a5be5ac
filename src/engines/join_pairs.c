/* Counting the disjoint pairs between two sets of masks: the heart of the join engine.
 * The masks come with their bits renamed into the top bits (join_renaming.c). One side's
 * masks, a chunk at a time, are transposed into bit planes and the planes into lookup
 * tables per byte, so that a mask of the other side is tested against a whole chunk by
 * one lookup per byte, ORed: bit-sliced counting. Sorting both sides and splitting them
 * on their top bits (dropping the pairs that share one) was slower with this leaf.
 * docs/join.md compares the alternatives.
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
#if defined(__AVX512F__) || defined(__AVX2__)
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

static inline uint64_t vec_popcount(vec v)
{
    uint64_t s = 0;
    for (int i = 0; i < VEC_WORDS; i++)
        s += (uint64_t)__builtin_popcountll(v[i]);
    return s;
}

/* The lookups cut a mask into digits of DIGIT_BITS bits, from bit 63 down (the renamed
 * masks use the top bits; the lowest digit may overlap the one above it, harmless for an
 * OR). Six bits keep a chunk's tables in the first-level cache (docs/join.md). */
#ifndef DIGIT_BITS
#define DIGIT_BITS 8
#endif
#define DIGIT_VALUES (1 << DIGIT_BITS)
#define MAX_DIGITS ((64 + DIGIT_BITS - 1) / DIGIT_BITS)

/* Lookup tables of one chunk: for each digit that the chunk's masks use, and each value
 * v of that digit, the OR of the planes of v's bits. */
typedef entry digit_tables[MAX_DIGITS][DIGIT_VALUES];
static_assert(sizeof(digit_tables) <= JOIN_PAIRS_WORK, "the caller's work area holds them");
static_assert(MAX_DIGITS * sizeof(uint16_t) <= JOIN_PAIRS_TMP(1) * sizeof(uint64_t),
              "tmp holds a mask's offsets");

static int digit_shift(int q)
{
    return 64 - DIGIT_BITS * (q + 1) > 0 ? 64 - DIGIT_BITS * (q + 1) : 0;
}

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

/* Bit planes of t[0..k) on the bits used, for the bytes of cover: lane bit j of plane
 * i is bit i of mask j (in some fixed order of the lanes, the same for every plane,
 * which is all the lookups need). Eight masks at a time: their bytes transposed, then
 * the bits of each byte. */
static void transpose(const uint64_t *t, size_t k, uint64_t used, uint64_t cover, entry plane[64])
{
    uint8_t(*lane_byte)[sizeof(entry)] = (void *)plane;

    if (k < CHUNK)
        memset(plane, 0, 64 * sizeof(entry));
    for (size_t g = 0; g * 8 < k; g++) {
        uint64_t m[8];
        for (size_t r = 0; r < 8; r++)
            m[r] = 8 * g + r < k ? t[8 * g + r] & used : 0;
        transpose_bytes(m);
        for (int b = 0; b < 8; b++) {
            if (!(cover >> 8 * b & 0xff))
                continue;
            uint64_t o = transpose_bits(m[b]);
            for (int i = 0; i < 8; i++)
                lane_byte[8 * b + i][g] = (uint8_t)(o >> 8 * i);
        }
    }
}

/* The digits that hold bits of used, as shifts; how many. *cover gets their bits. */
static int used_digits(uint64_t used, int shift[MAX_DIGITS], uint64_t *cover)
{
    int d = 0;
    *cover = 0;
    for (int q = 0; q < MAX_DIGITS; q++) {
        uint64_t bits = (uint64_t)(DIGIT_VALUES - 1) << digit_shift(q);
        if (used & bits) {
            shift[d++] = digit_shift(q);
            *cover |= bits;
        }
    }
    return d;
}

/* The table of each used digit: for each value v, the OR of the planes of v's bits. */
static void make_tables(const entry plane[64], const int shift[MAX_DIGITS], int digits,
                        digit_tables tab)
{
    for (int q = 0; q < digits; q++) {
        entry *t = tab[q];
        memset(&t[0], 0, sizeof(t[0]));
        /* by doubling: no entry waits for the one stored just before it */
        for (int i = 0; i < DIGIT_BITS; i++)
            for (int v = 0; v < 1 << i; v++)
                t[(1 << i) + v] = entry_or(t[v], plane[shift[q] + i]);
    }
}

/* The OR of the tables' entries at the byte offsets off[0..bytes): the masks of the
 * chunk that the mask whose bytes they are meets. */
static inline __attribute__((always_inline)) entry met(const digit_tables tab, const uint16_t *off,
                                                       int digits)
{
    entry r = *(const entry *)((const char *)tab[0] + off[0]);
    for (int q = 1; q < digits; q++)
        r = entry_or(r, *(const entry *)((const char *)tab[q] + off[q]));
    return r;
}

/* The byte offsets of each mask of x into the tables of the bytes shift[0..bytes), so
 * that a lookup is one load, whatever the chunk. */
static void digit_offsets(const uint64_t *x, size_t nx, const int shift[MAX_DIGITS], int digits,
                          uint16_t *off)
{
    for (size_t i = 0; i < nx; i++)
        for (int q = 0; q < digits; q++)
            off[i * (size_t)digits + q] =
                (uint16_t)((x[i] >> shift[q] & (DIGIT_VALUES - 1)) * sizeof(entry));
}

/* Carry-save adders (Harley and Seal): the bits of several vectors summed per bit
 * position into binary digits, ones + 2 twos + 4 fours + 8 eights, so that one popcount
 * serves eight vectors instead of one popcount each. */
typedef struct bit_sums {
    vec ones, twos, fours;
    uint64_t eights;
} bit_sums;

#define CSA(high, low, a, b, c)                                                                    \
    do {                                                                                           \
        vec u_ = (a) ^ (b), c_ = (c);                                                              \
        high = ((a) & (b)) | (u_ & c_);                                                            \
        low = u_ ^ c_;                                                                             \
    } while (0)

static inline __attribute__((always_inline)) void bit_sums_add8(bit_sums *s, const vec v[8])
{
    vec twos_a, twos_b, fours_a, fours_b, eights;
    CSA(twos_a, s->ones, s->ones, v[0], v[1]);
    CSA(twos_b, s->ones, s->ones, v[2], v[3]);
    CSA(fours_a, s->twos, s->twos, twos_a, twos_b);
    CSA(twos_a, s->ones, s->ones, v[4], v[5]);
    CSA(twos_b, s->ones, s->ones, v[6], v[7]);
    CSA(fours_b, s->twos, s->twos, twos_a, twos_b);
    CSA(eights, s->fours, s->fours, fours_a, fours_b);
    s->eights += vec_popcount(eights);
}

static inline uint64_t bit_sums_total(const bit_sums *s)
{
    return 8 * s->eights + 4 * vec_popcount(s->fours) + 2 * vec_popcount(s->twos) +
           vec_popcount(s->ones);
}

/* The masks of a chunk that each of x[0..nx) meets, summed: one lookup per used byte,
 * eight vectors per popcount. */
#define X_PER_SUM (8 / ENTRY_VECS)
static inline __attribute__((always_inline)) uint64_t chunk_hits(const uint16_t *off, size_t nx,
                                                                 const digit_tables tab, int digits)
{
    bit_sums s = {{0}, {0}, {0}, 0};
    uint64_t hits = 0;
    size_t i = 0;

    for (; i + X_PER_SUM <= nx; i += X_PER_SUM) {
        vec v[8];
        for (int j = 0; j < X_PER_SUM; j++) {
            entry r = met(tab, off + (i + j) * digits, digits);
            for (int e = 0; e < ENTRY_VECS; e++)
                v[j * ENTRY_VECS + e] = r.v[e];
        }
        bit_sums_add8(&s, v);
    }
    for (; i < nx; i++) {
        entry r = met(tab, off + i * digits, digits);
        for (int e = 0; e < ENTRY_VECS; e++)
            hits += vec_popcount(r.v[e]);
    }
    return hits + bit_sums_total(&s);
}

/* The pairs of t[0..nt) and x[0..nx) that share no bit. CHUNK masks of t at a time
 * become bit planes, and the planes tables per digit, so that the OR of a few lookups
 * has a 1 for every mask of the chunk that a mask x meets. off has room for MAX_DIGITS
 * offsets per mask of x. */
static uint64_t sliced_pairs(const uint64_t *t, size_t nt, const uint64_t *x, size_t nx, void *work,
                             uint16_t *off)
{
    entry plane[64];
    entry(*tab)[DIGIT_VALUES] = work;
    uint64_t used = 0, cover;
    int shift[MAX_DIGITS];

    for (size_t j = 0; j < nt; j++)
        used |= t[j];
    if (!used)
        return (uint64_t)nt * nx; /* every pair fits */
    int digits = used_digits(used, shift, &cover);
    digit_offsets(x, nx, shift, digits, off);
    uint64_t hits = 0;
    for (size_t c = 0; c < nt; c += CHUNK) {
        size_t k = nt - c < CHUNK ? nt - c : CHUNK;
        transpose(t + c, k, used, cover, plane);
        make_tables(plane, shift, digits, tab);
        /* a constant digit count per call, so that the lookups unroll */
        switch (digits) {
#define HITS(digits)                                                                               \
    case digits:                                                                                   \
        hits += chunk_hits(off, nx, (const entry(*)[DIGIT_VALUES])tab, digits);                    \
        break;
            HITS(1)
            HITS(2) HITS(3) HITS(4) HITS(5) HITS(6) HITS(7) HITS(8)
#undef HITS
                default : assert(0);
        }
    }
    return (uint64_t)nt * nx - hits;
}

/* The count: a few pairs by the double loop, the rest bit-sliced, transposing the side
 * that costs less. A chunk's transposition and tables cost about as much as testing a
 * few thousand masks against it (measured: weighing them so took n = 18 from 3.9 s to
 * 3.5 s, AVX2). */
#define CHUNK_COST 3000

uint64_t JOIN_ISA_NAME(join_pairs_count)(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                                         uint64_t *tmp, void *work)
{
    if (na * nb <= 2048)
        return join_pairs_naive(a, na, b, nb);
    size_t cost_a = (na + CHUNK - 1) / CHUNK * (CHUNK_COST + nb);
    size_t cost_b = (nb + CHUNK - 1) / CHUNK * (CHUNK_COST + na);
    uint16_t *off = (uint16_t *)tmp;
    return cost_a <= cost_b ? sliced_pairs(a, na, b, nb, work, off)
                            : sliced_pairs(b, nb, a, na, work, off);
}
