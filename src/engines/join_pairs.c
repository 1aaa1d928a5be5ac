/* Counting the disjoint pairs between two sets of masks: the heart of the join engine.
 * The masks come with their bits renamed into the top bits (join_renaming.c), and each
 * count packs the bits that both its sides use to the top first (pack_shared). One side's
 * masks, a chunk at a time, are transposed into bit planes and the planes into lookup
 * tables per byte, so that a mask of the other side is tested against a whole chunk by
 * one lookup per byte, ORed: bit-sliced counting. Large counts sort both sides on the
 * top byte first, so that a whole bucket of one side skips a chunk all of whose masks
 * share a bit with it: that prunes. docs/join.md compares the alternatives.
 *
 * Compiled once per vector instruction set (CPU_BUILD, see join_kernel.c): the vector
 * type below is as wide as the build's registers. */
#include <assert.h>
#include <string.h>

#include "core/clock.h"
#include "core/cpu.h"
#include "core/engine.h"
#include "engines/join_kernel.h"
#include "engines/join_pairs.h"
#include "engines/join_pairs_naive.h"
#include "engines/join_renaming.h"

#if defined(__AVX512VPOPCNTDQ__) || defined(__BMI2__)
#include <immintrin.h>
#endif

/* 256-bit vectors for AVX-512 too: chunks of 512 masks share fewer top bits, which
 * prunes less (n = 20: 136 s against 120 s), and gain nothing at n = 18. */
#if defined(__AVX2__)
#define VEC_WORDS 4
#else
#define VEC_WORDS 2
#endif
typedef uint64_t vec __attribute__((vector_size(VEC_WORDS * 8)));

/* Vectors per lookup: two where registers are narrow, so that one index computation
 * serves more pairs. */
#if defined(__AVX2__)
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

/* The masks of a chunk whose bits entry e has. */
static inline __attribute__((always_inline)) uint64_t entry_popcount(entry e)
{
    uint64_t c = 0;
    for (int i = 0; i < ENTRY_VECS; i++)
        c += vec_popcount(e.v[i]);
    return c;
}

/* The lookups cut a mask into digits from bit 63 down (the renamed masks use the top
 * bits): bytes, or, in a count whose other side is long enough to pay for larger tables,
 * digits of up to WIDE_BITS bits, spread evenly over the bits below the buckets' bytes
 * so that a mask needs a lookup fewer (n = 24: 25 to 28 bits below the top two bytes,
 * three lookups of 9 or 10 bits instead of four bytes). Bytes throughout: six bits
 * (tables in the first-level cache) and five were slower. */
#define DIGIT_BITS 8
#define WIDE_BITS 10
#define MAX_DIGITS ((64 + DIGIT_BITS - 1) / DIGIT_BITS)
static_assert(MAX_DIGITS <= 8, "sliced_pairs unrolls up to eight digits");
/* A table's room: the values of the widest digit. */
#define TABLE_VALUES (1 << WIDE_BITS)

/* Lookup tables of one chunk: for each digit that the chunk's masks use, and each value
 * v of that digit, the OR of the planes of v's bits. Each digit has the room of the
 * widest, so that a table's place is a constant; byte tables so spread load the sets of
 * the first-level cache as evenly as packed ones. */
typedef entry digit_tables[MAX_DIGITS][TABLE_VALUES];
static_assert(sizeof(digit_tables) <= JOIN_PAIRS_WORK, "the caller's work area holds them");
static_assert((TABLE_VALUES - 1) * sizeof(entry) <= UINT16_MAX, "an offset fits 16 bits");
static_assert(JOIN_PAIRS_TMP_QUARTERS >= 9,
              "tmp holds a side's home, a scratch and a quarter list for the offsets");

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
 * the bits of each byte. Not inlined: inside count_pairs it cost the lookups' loops
 * their registers once the digits' widths varied (n = 18 1.06-1.08x, AMD Zen 4;
 * called once a chunk, the call costs nothing). */
static __attribute__((noinline)) void transpose(const uint64_t *t, size_t k, uint64_t used,
                                                uint64_t cover, entry plane[64])
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

/* How a count cuts its masks into digits: digit q is the width[q] bits from shift[q]
 * up; cover is their bits. */
typedef struct digit_plan {
    int count;
    int shift[MAX_DIGITS], width[MAX_DIGITS];
    uint64_t cover;
} digit_plan;

/* The bytes that hold bits of used, the first `first` of them whatever they hold (the
 * buckets' bytes); or with wide, those first bytes and then the bits below them, down
 * to used's lowest, in the fewest digits of at most WIDE_BITS, their widths as equal as
 * they can be. */
static digit_plan digits_of(uint64_t used, int first, int wide)
{
    digit_plan dg = {0};

    if (!wide) {
        for (int q = 0; q < MAX_DIGITS; q++) {
            uint64_t bits = (uint64_t)0xff << digit_shift(q);
            if (q < first || used & bits) {
                dg.shift[dg.count] = digit_shift(q);
                dg.width[dg.count++] = DIGIT_BITS;
                dg.cover |= bits;
            }
        }
        return dg;
    }
    for (; dg.count < first; dg.count++) {
        dg.shift[dg.count] = digit_shift(dg.count);
        dg.width[dg.count] = DIGIT_BITS;
    }
    int top = 64 - DIGIT_BITS * first, low = used ? __builtin_ctzll(used) : top;
    int rest = top > low ? top - low : 0, n = (rest + WIDE_BITS - 1) / WIDE_BITS;
    for (int q = 0; q < n; q++) {
        int w = rest / n + (q < rest % n);
        top -= w;
        dg.shift[dg.count] = top;
        dg.width[dg.count++] = w;
    }
    assert((rest == 0 || top == low) && dg.count <= MAX_DIGITS);
    for (int q = 0; q < dg.count; q++)
        dg.cover |= (((uint64_t)1 << dg.width[q]) - 1) << dg.shift[q];
    return dg;
}

/* t[v] for each value v of the width bits from plane[0] up: the OR of the planes of v's
 * bits, by doubling, so that no entry waits for the one stored just before it. */
static inline __attribute__((always_inline)) void make_table(const entry *plane, int width,
                                                             entry *t)
{
    memset(&t[0], 0, sizeof(t[0]));
    for (int i = 0; i < width; i++) {
        entry p = plane[i]; /* held in a register: the stores to t might alias it */
        for (int v = 0; v < 1 << i; v++)
            t[(1 << i) + v] = entry_or(t[v], p);
    }
}

/* The table of each digit from first on; bytes by a loop of constant bounds (at n = 18
 * a chunk's tables weigh as much as some 3,000 lookups: one loop for every width took
 * n = 16 to 1.02-1.06x, AMD Zen 4). */
static void make_tables(const entry plane[64], const digit_plan *dg, int first, digit_tables tab)
{
    for (int q = first; q < dg->count; q++) {
        if (dg->width[q] == DIGIT_BITS)
            make_table(plane + dg->shift[q], DIGIT_BITS, tab[q]);
        else
            make_table(plane + dg->shift[q], dg->width[q], tab[q]);
    }
}

/* base ORed with the tables' entries of digits first..digits-1 of a mask, at its offsets
 * off[0], off[stride], ...: the masks of the chunk that it meets (base: its top byte's
 * entry when the digits start at 1, else none). */
static inline __attribute__((always_inline)) entry
met(entry base, const digit_tables tab, const uint16_t *off, size_t stride, int digits, int first)
{
    entry r = base;
    for (int q = first; q < digits; q++)
        r = entry_or(r, *(const entry *)((const char *)tab[q] + off[(size_t)(q - first) * stride]));
    return r;
}

/* The offsets of the masks of x into the table of each digit first..digits-1, a row of
 * nx per digit, so that a lookup is one load whatever the chunk, and the rows are made
 * a vector at a time. */
static void digit_offsets(const uint64_t *x, size_t nx, const digit_plan *dg, int first,
                          uint16_t *off)
{
    for (int q = first; q < dg->count; q++) {
        uint16_t *row = off + (size_t)(q - first) * nx;
        int sh = dg->shift[q];
        uint16_t values = (uint16_t)((1u << dg->width[q]) - 1);
        for (size_t i = 0; i < nx; i++)
            row[i] = (uint16_t)(((uint16_t)(x[i] >> sh) & values) * sizeof(entry));
    }
}

#if defined(__AVX512VPOPCNTDQ__) && defined(__AVX512VL__)
/* A popcount per 64-bit lane in the vector unit (AVX-512 VPOPCNTDQ, which the avx512 path
 * requires): the counts add up lane by lane, with neither the carry-save adders below nor
 * a popcount taken out of the vector per eight (n = 20: 0.94x the time, AMD Zen 4). */
typedef struct bit_sums {
    vec lanes;
} bit_sums;

static inline __attribute__((always_inline)) vec lane_popcount(vec v)
{
    return (vec)_mm256_popcnt_epi64((__m256i)v);
}

static inline __attribute__((always_inline)) void bit_sums_add8(bit_sums *s, const vec v[8])
{
    vec a = lane_popcount(v[0]) + lane_popcount(v[1]),
        b = lane_popcount(v[2]) + lane_popcount(v[3]);
    vec c = lane_popcount(v[4]) + lane_popcount(v[5]),
        d = lane_popcount(v[6]) + lane_popcount(v[7]);
    s->lanes += (a + b) + (c + d);
}

/* One vector more, whose count goes to s (or to *hits, below). */
static inline __attribute__((always_inline)) void bit_sums_add1(bit_sums *s, entry e,
                                                                uint64_t *hits)
{
    (void)hits;
    s->lanes += lane_popcount(e.v[0]);
}

static inline uint64_t bit_sums_total(const bit_sums *s)
{
    uint64_t t = 0;
    for (int i = 0; i < VEC_WORDS; i++)
        t += s->lanes[i];
    return t;
}
#else
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

static inline __attribute__((always_inline)) void bit_sums_add1(bit_sums *s, entry e,
                                                                uint64_t *hits)
{
    (void)s;
    *hits += entry_popcount(e);
}

static inline uint64_t bit_sums_total(const bit_sums *s)
{
    return 8 * s->eights + 4 * vec_popcount(s->fours) + 2 * vec_popcount(s->twos) +
           vec_popcount(s->ones);
}
#endif

/* The masks of a chunk that each of x[0..nx) meets, summed: base (see met) ORed with
 * the lookups of the digits, eight vectors at a time into s, the rest returned. */
#define X_PER_SUM (8 / ENTRY_VECS)
static inline __attribute__((always_inline)) uint64_t
bucket_hits(entry base, const uint16_t *off, size_t stride, size_t nx, const digit_tables tab,
            int digits, int first, bit_sums *s)
{
    uint64_t hits = 0;
    size_t i = 0;

    for (; i + X_PER_SUM <= nx; i += X_PER_SUM) {
        vec v[8];
        for (int j = 0; j < X_PER_SUM; j++) {
            entry r = met(base, tab, off + i + j, stride, digits, first);
            for (int e = 0; e < ENTRY_VECS; e++)
                v[j * ENTRY_VECS + e] = r.v[e];
        }
        bit_sums_add8(s, v);
    }
    for (; i < nx; i++) /* a popcount per lane on avx512: small sub-buckets have long tails */
        bit_sums_add1(s, met(base, tab, off + i, stride, digits, first), &hits);
    return hits;
}

/* The two sides of a count: t, transposed a chunk at a time, and x. Large counts sort
 * both on the top byte (bucketed): t's chunks then share most of their top bits, and x
 * comes in buckets of one top byte, whose lookup is one per bucket. Small ones take x
 * as one bucket and look every digit up. */
typedef struct sides {
    const uint64_t *t;
    size_t nt, nx;
    uint64_t used;       /* the bits t's masks have (and the buckets' bytes) */
    digit_plan dg;       /* the digits that hold them */
    int first;           /* 1: bucketed, the top byte is a bucket's; 2: the top two bytes
                            (sub-buckets); 0: one bucket */
    int buckets;         /* nonempty buckets */
    uint8_t value[256];  /* bucket i holds x's masks with top byte value[i] ... */
    uint32_t start[257]; /* ... at start[i]..start[i + 1]-1 */
    /* first = 2: bucket i's sub-buckets are sub[i]..sub[i + 1]-1, one per second byte
     * that seen[i] has, in increasing order; sub-bucket j holds the masks at
     * sub_start[j]..sub_start[j + 1]-1 */
    uint32_t sub[257];
    uint32_t *sub_start;
    uint64_t seen[256][4];
    const uint16_t *off; /* digit_offsets of x */
    const uint64_t *x;   /* x's masks, sorted (and packed) */
} sides;

/* The entry of top byte v: the OR of its bits' planes, made per bucket rather than as a
 * table, since most buckets of a chunk are pruned, and a table more would not fit the
 * first-level cache beside the others (32 KiB on AMD Zen 3). */
static inline entry top_entry(const entry plane[64], uint32_t v)
{
    entry r;
    memset(&r, 0, sizeof(r));
    for (; v; v &= v - 1)
        r = entry_or(r, plane[56 + __builtin_ctz(v)]);
    return r;
}

/* Whether every mask of a chunk of k meets what e is the entry of: then a bucket (or
 * sub-bucket) needs no lookup. It prunes more than the chunk's common bits: a chunk whose
 * masks have one of two top bytes, say, has no common bit, yet a bucket can meet both
 * (at n = 20 and 21 it spared a quarter of the lookups that the common bits left). */
static inline int meets_all(entry e, size_t k)
{
    if (k < CHUNK)
        return entry_popcount(e) == k;
    uint64_t all = ~(uint64_t)0; /* a full chunk: every lane set, without popcounts */
    for (int i = 0; i < ENTRY_VECS; i++)
        for (int j = 0; j < VEC_WORDS; j++)
            all &= e.v[i][j];
    return all == ~(uint64_t)0;
}

/* The pairs of a chunk (k masks) and bucket i that share no bit, but for the hits summed
 * into s, a sub-bucket at a time. A sub-bucket whose second byte meets a bit that every
 * mask of the chunk has meets the whole chunk: only the bucket's second bytes in unmet
 * (those that meet none) are visited, as the set bits of a bitmap, a sub-bucket found
 * by its byte's rank (n = 24: a third of the visits were such, each a branch the CPU
 * could not predict). A sub-bucket whose entry meets every mask (top: the bucket's
 * entry) is skipped too; the others look their second byte up once. */
static inline __attribute__((always_inline)) uint64_t sub_fits(const sides *sd, int i, size_t k,
                                                               const uint64_t unmet[4], entry top,
                                                               const digit_tables tab, int digits,
                                                               bit_sums *s)
{
    uint64_t fits = 0;
    uint32_t j0 = sd->sub[i]; /* the sub-bucket of the lowest second byte of word w */

    for (int w = 0; w < 4; w++) {
        uint64_t seen = sd->seen[i][w];
        for (uint64_t m = seen & unmet[w]; m; m &= m - 1) {
            int b = __builtin_ctzll(m);
            entry e = entry_or(top, tab[1][64 * w + b]);
            if (meets_all(e, k))
                continue;
            uint32_t j = j0 + (uint32_t)__builtin_popcountll(seen & (((uint64_t)1 << b) - 1));
            size_t lo = sd->sub_start[j], nx = sd->sub_start[j + 1] - lo;
            fits += k * nx - bucket_hits(e, sd->off + lo, sd->nx, nx, tab, digits, 2, s);
        }
        j0 += (uint32_t)__builtin_popcountll(seen);
    }
    return fits;
}

/* The second bytes that meet no bit of all, as a bitmap of 256: the submasks of its
 * complement, by doubling over the low six bits, whole words for the top two. */
static inline void unmet_bytes(uint32_t all, uint64_t unmet[4])
{
    uint64_t low = 1;
    for (int i = 0; i < 6; i++)
        if (!(all >> i & 1))
            low |= low << (1 << i);
    for (int w = 0; w < 4; w++)
        unmet[w] = (uint32_t)(w << 6) & all ? 0 : low;
}

/* The pairs of the chunk t[c..c+k) and x that share no bit, but for the hits summed
 * into s, from its tables. A bucket whose top byte meets a bit that every mask of the
 * chunk has meets them all, without a lookup: the sort makes such bits common, and this
 * prunes as splitting the sides on their top bits would, without cutting them into
 * blocks too small for a chunk. So does a bucket whose top byte meets every mask, each
 * by a bit of its own (meets_all). */
static inline __attribute__((always_inline)) uint64_t
chunk_fits(const sides *sd, size_t k, uint64_t common, const entry plane[64],
           const digit_tables tab, int digits, int first, bit_sums *s)
{
    uint32_t all = (uint32_t)(common >> 56);
    entry none;
    uint64_t fits = 0, unmet[4];

    memset(&none, 0, sizeof(none));
    if (first == 2)
        unmet_bytes((uint32_t)(common >> 48 & 0xff), unmet);
    for (int i = 0; i < sd->buckets; i++) {
        uint32_t v = sd->value[i];
        if (first && v & all)
            continue;
        entry top = first ? top_entry(plane, v) : none; /* none: every digit is looked up */
        if (first && meets_all(top, k))
            continue;
        if (first == 2) {
            fits += sub_fits(sd, i, k, unmet, top, tab, digits, s);
        } else {
            size_t lo = sd->start[i], nx = sd->start[i + 1] - lo;
            fits += k * nx - bucket_hits(top, sd->off + lo, sd->nx, nx, tab, digits, first, s);
        }
    }
    return fits;
}

/* The pairs of sd's sides that share no bit. CHUNK masks of t at a time become bit
 * planes, and the planes tables per digit, so that the OR of a few lookups has a 1 for
 * every mask of the chunk that a mask x meets. With share, its chunks only, timed. */
static uint64_t sliced_pairs(const sides *sd, void *work, const engine_worker *w,
                             join_pairs_share *share)
{
    entry plane[64];
    entry(*tab)[TABLE_VALUES] = work;
    bit_sums s;
    uint64_t fits = 0;
    int digits = sd->dg.count;

    memset(&s, 0, sizeof(s));
    assert(!sd->first || sd->dg.shift[0] == 56); /* the top byte is the buckets' */
    assert(sd->first < 2 || (digits >= 2 && sd->dg.shift[1] == 48)); /* the second, sub-buckets' */
    size_t from = share ? (size_t)share->from * CHUNK : 0,
           step = share ? share->every * CHUNK : CHUNK;
    double t0 = share ? clock_thread_cpu() : 0;

    for (size_t c = from; c < sd->nt && !(w && engine_stopping(w)); c += step) {
        size_t k = sd->nt - c < CHUNK ? sd->nt - c : CHUNK;
        uint64_t common = ~(uint64_t)0;
        for (size_t j = 0; j < k; j++)
            common &= sd->t[c + j];
        transpose(sd->t + c, k, sd->used, sd->dg.cover, plane);
        make_tables(plane, &sd->dg, sd->first ? 1 : 0, tab);
        /* a constant digit count per call, so that the lookups unroll */
        /* clang-format off */
        switch (digits) {
#define HITS(d)                                                                                    \
    case d:                                                                                        \
        fits += sd->first == 2 ? chunk_fits(sd, k, common, plane, (const entry(*)[TABLE_VALUES])tab, d, 2, &s) \
              : sd->first ? chunk_fits(sd, k, common, plane, (const entry(*)[TABLE_VALUES])tab, d, 1, &s) \
                          : chunk_fits(sd, k, common, plane, (const entry(*)[TABLE_VALUES])tab, d, 0, &s);\
        break;
        HITS(1) HITS(2) HITS(3) HITS(4) HITS(5) HITS(6) HITS(7) HITS(8)
#undef HITS
        default:
            assert(0);
        }
        /* clang-format on */
    }
    if (share)
        share->seconds = clock_thread_cpu() - t0;
    return fits - bit_sums_total(&s);
}

/* v sorted on its byte at shift into out, stably, with count the start of each byte's
 * masks (count[256] = k). The masks come as SORT_WAYS runs, each with its own counts and
 * its own next places: a run of masks with the same byte would otherwise wait on the
 * store of one place before the load of the next (n = 16: from 11% of the time to 5%,
 * AMD Zen 3). */
#define SORT_WAYS 4
static inline __attribute__((always_inline)) void sort_byte(const uint64_t *v, size_t k, int shift,
                                                            uint64_t *out, uint32_t count[257])
{
    uint32_t at[SORT_WAYS][256];
    size_t run = k / SORT_WAYS, r;

    memset(at, 0, sizeof(at));
    for (r = 0; r < run; r++)
        for (int w = 0; w < SORT_WAYS; w++)
            at[w][v[w * run + r] >> shift & 0xff]++;
    for (r = SORT_WAYS * run; r < k; r++) /* the last run's tail */
        at[SORT_WAYS - 1][v[r] >> shift & 0xff]++;
    count[0] = 0;
    for (int d = 0; d < 256; d++) {
        uint32_t c = count[d];
        for (int w = 0; w < SORT_WAYS; w++) {
            uint32_t n = at[w][d];
            at[w][d] = c;
            c += n;
        }
        count[d + 1] = c;
    }
    for (r = 0; r < run; r++)
        for (int w = 0; w < SORT_WAYS; w++) {
            uint64_t x = v[w * run + r];
            out[at[w][x >> shift & 0xff]++] = x;
        }
    for (r = SORT_WAYS * run; r < k; r++)
        out[at[SORT_WAYS - 1][v[r] >> shift & 0xff]++] = v[r];
}

/* A chunk's transposition and tables cost about as much as testing a few thousand masks
 * against it (measured: weighing them so took n = 18 from 3.9 s to 3.5 s, AVX2), which
 * decides the side to transpose. */
#define CHUNK_COST 3000
/* Counts of at least this many pairs are bucketed (sides): below, the sorts and the
 * small buckets cost more than the pruning gains. */
#ifndef BUCKET_MIN
#define BUCKET_MIN ((size_t)1 << 20)
#endif

/* Counts of at least this many pairs also sort on the second byte and cut each bucket
 * into sub-buckets of one second byte, which prune a second time. */
#ifndef SUB_BUCKET_MIN
#define SUB_BUCKET_MIN ((size_t)1 << 26)
#endif

/* ... and when their sub-buckets hold at least this many masks on average: smaller
 * ones cost more in calls and odd tails than they prune. */
#ifndef SUB_MEAN_MIN
#define SUB_MEAN_MIN 12
#endif

/* The buckets of the sorted x (sd->nx masks, count[v] the start of top byte v), and
 * with first = 2 their sub-buckets, into sub_start (room for nx + 1) and seen. */
static void make_buckets(sides *sd, const uint64_t *x, const uint32_t count[257],
                         uint32_t *sub_start)
{
    uint32_t subs = 0;

    sd->buckets = 0;
    sd->sub_start = sub_start;
    for (int v = 0; v < 256; v++) {
        if (count[v + 1] == count[v])
            continue;
        sd->value[sd->buckets] = (uint8_t)v;
        sd->sub[sd->buckets] = subs;
        sd->start[sd->buckets++] = count[v];
        uint64_t *seen = sd->seen[sd->buckets - 1];
        if (sd->first == 2)
            memset(seen, 0, sizeof(sd->seen[0]));
        /* branch-free: a sub-bucket's start is written at every mask and kept at a new
         * byte (the branch mispredicted at every second one: 8% of n = 20, AMD Zen 4) */
        for (uint32_t i = count[v], prev = 256; sd->first == 2 && i < count[v + 1]; i++) {
            uint32_t b = (uint32_t)(x[i] >> 48 & 0xff);
            sub_start[subs] = i;
            subs += b != prev;
            prev = b;
            seen[b >> 6] |= (uint64_t)1 << (b & 63);
        }
    }
    sd->start[sd->buckets] = (uint32_t)sd->nx;
    sd->sub[sd->buckets] = subs;
    if (sd->first == 2)
        sub_start[subs] = (uint32_t)sd->nx;
}

static_assert(1024 * sizeof(uint64_t) <= JOIN_PAIRS_WORK, "the work area holds the bitmap");
/* The distinct values of the top two bytes of v[0..k): a sub-bucket each once sorted.
 * Counted in a bitmap of 2^16 bits (seen, 8 KiB) before any sort, so that a count whose
 * sub-buckets would be too small sorts on the top byte alone: at n = 20 every count of
 * 2^26 pairs was such, and sorted on both bytes in vain (AMD Zen 4). */
static size_t top_two_bytes(const uint64_t *v, size_t k, uint64_t seen[1024])
{
    size_t d = 0;

    memset(seen, 0, 1024 * sizeof(*seen));
    for (size_t i = 0; i < k; i++)
        seen[v[i] >> 54] |= (uint64_t)1 << (v[i] >> 48 & 63);
    for (int i = 0; i < 1024; i++)
        d += (size_t)__builtin_popcountll(seen[i]);
    return d;
}

/* The bits that some mask of v[0..k) has. */
static uint64_t bits_used(const uint64_t *v, size_t k)
{
    uint64_t used = 0;
    for (size_t i = 0; i < k; i++)
        used |= v[i];
    return used;
}

/* The bytes from bit 63 down that masks of the bits used span (used not 0). */
static int bytes_spanned(uint64_t used)
{
    return (64 - __builtin_ctzll(used) + 7) / 8;
}

/* How a count packs its masks: the bits of group[0] to the top, then those of group[1]
 * below them, then group[2]'s, each group's in their order, the other bits dropped. */
typedef struct packing {
    uint64_t group[3];
    int shift[3]; /* where each group's lowest bit goes */
    int packs;    /* 0: the masks are kept as they are */
} packing;

static packing packing_of(const uint64_t group[3])
{
    packing pk = {.packs = 1};
    int top = 64;
    for (int g = 0; g < 3; g++) {
        pk.group[g] = group[g];
        top -= __builtin_popcountll(group[g]);
        pk.shift[g] = top;
    }
    return pk;
}

/* v[0..k) packed into out by one lookup per byte of the bits kept: t[p][x] is byte lo + p
 * of value x so moved (t: 8 x 256 words, the work area). What CPUs without a fast pext
 * run. */
static void pack_by_tables(const uint64_t *v, size_t k, const packing *pk, uint64_t *out,
                           uint64_t (*t)[256])
{
    uint64_t kept = pk->group[0] | pk->group[1] | pk->group[2], to[64] = {0};
    int lo = __builtin_ctzll(kept) / 8, bytes = 8 - lo;

    for (int g = 0; g < 3; g++)
        for (uint64_t m = pk->group[g], at = pk->shift[g]; m; m &= m - 1)
            to[__builtin_ctzll(m)] = (uint64_t)1 << at++;
    for (int p = 0; p < bytes; p++) {
        t[p][0] = 0;
        for (int i = 0; i < 8; i++) /* by doubling, as the digit tables */
            for (int x = 0; x < 1 << i; x++)
                t[p][(1 << i) + x] = t[p][x] | to[8 * (lo + p) + i];
    }
    for (size_t j = 0; j < k; j++) {
        uint64_t x = v[j] >> 8 * lo, c = 0;
        for (int p = 0; p < bytes; p++)
            c |= t[p][x >> 8 * p & 0xff];
        out[j] = c;
    }
}

/* The same by BMI2's pext, one instruction a group and mask, where the CPU runs it fast. */
static void pack_by_pext(const uint64_t *v, size_t k, const packing *pk, uint64_t *out)
{
#if defined(__BMI2__)
    uint64_t g0 = pk->group[0], g1 = pk->group[1], g2 = pk->group[2];
    int s0 = pk->shift[0], s1 = pk->shift[1], s2 = pk->shift[2];

    if (!g1 && !g2) {
        for (size_t j = 0; j < k; j++)
            out[j] = _pext_u64(v[j], g0) << s0;
        return;
    }
    assert(g1 && g2); /* bits past the top two bytes, or none of them grouped */
    for (size_t j = 0; j < k; j++)
        out[j] = _pext_u64(v[j], g0) << s0 | _pext_u64(v[j], g1) << s1 | _pext_u64(v[j], g2) << s2;
#else
    (void)v, (void)k, (void)pk, (void)out;
    assert(0); /* join_kernel.c pairs only BMI2 builds with pext */
#endif
}

/* The bits of v[0..k) counted in a sample of at most 512 masks spread over it. */
static void sample_bit_counts(const uint64_t *v, size_t k, uint64_t cnt[64])
{
    uint64_t sample[512];
    size_t step = k > 512 ? k / 512 : 1, n = 0;

    for (size_t i = 0; i < k && n < 512; i += step)
        sample[n++] = v[i];
    memset(cnt, 0, 64 * sizeof(cnt[0]));
    join_bit_counts(sample, n, cnt);
}

/* The top byte and the second of a large count, chosen for it: the shared bits where a
 * sample of its two sides collides most often (the largest product of their counts, as
 * the renaming orders bits for the whole board), the rest below. */
static void group_by_collisions(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                                uint64_t shared, uint64_t group[3])
{
    uint64_t ca[64], cb[64];
    int order[64], k = 0;

    sample_bit_counts(a, na, ca);
    sample_bit_counts(b, nb, cb);
    for (int j = 63; j >= 0; j--) /* ties keep the renamed order */
        if (shared >> j & 1)
            order[k++] = j;
    join_bits_by_collisions(order, k, ca, cb);
    group[0] = group[1] = 0;
    for (int x = 0; x < k && x < 16; x++)
        group[x / 8] |= (uint64_t)1 << order[x];
    group[2] = shared & ~group[0] & ~group[1];
    if (!group[2]) { /* at most 16 bits: one group, in their order */
        group[0] = shared;
        group[1] = 0;
    }
}

/* Counts of at least this many pairs choose their top two bytes (group_by_collisions):
 * below, the whole board's order prunes as well (n = 18: 1.15x the time from 2^24). */
#define GROUP_MIN ((size_t)1 << 26)

/* Packing the shared bits. Two masks can meet only on a bit that both sides use: at odd
 * n never the middle queen's two, and every count misses some at the ends of the
 * renamed order. Moved to the top, the shared bits span fewer bytes, so that a lookup
 * is spared per mask and chunk where they drop a byte (n = 23: 38 bits or fewer of 46),
 * and the top byte, which the buckets prune on, holds bits that can meet; large counts
 * choose their top two bytes besides (n = 22 to 24: 0.76-0.81x). *pk is how a count of
 * a and b packs them (pk->packs 0: it keeps them as they are). Returns the bits that a's
 * masks have, packed or not: 0 if no bit is shared. */
static uint64_t packing_plan(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                             packing *pk)
{
    uint64_t used = bits_used(a, na), shared = used & bits_used(b, nb), group[3] = {shared};

    pk->packs = 0;
    if (!shared)
        return 0;
    if (na * nb >= GROUP_MIN)
        group_by_collisions(a, na, b, nb, shared, group);
    else if ((__builtin_popcountll(shared) + 7) / 8 >= bytes_spanned(used))
        return used; /* nothing to spare: the lookups are a's bytes */
    *pk = packing_of(group);
    return ~(uint64_t)0 << (64 - __builtin_popcountll(shared)); /* every shared bit, packed */
}

/* v[0..k) packed by pk into out, or v itself where pk packs nothing. */
static const uint64_t *pack_side(const uint64_t *v, size_t k, const packing *pk, uint64_t *out,
                                 void *work, int pext)
{
    if (!pk->packs)
        return v;
    if (pext)
        pack_by_pext(v, k, pk, out);
    else
        pack_by_tables(v, k, pk, out, work);
    return out;
}

/* v[0..k) sorted into home on its top byte, or (bytes = 2) its top two, through scratch
 * (room for k; v may be home, and is then sorted into scratch and copied back); count as
 * sort_byte's for the top byte. */
static const uint64_t *sort_home(const uint64_t *v, size_t k, int bytes, uint64_t *home,
                                 uint64_t *scratch, uint32_t count[257])
{
    if (bytes == 2) { /* the second byte first, then the top one, both sorts stable */
        sort_byte(v, k, 48, scratch, count);
        v = scratch;
    } else if (v == home) {
        sort_byte(v, k, 56, scratch, count);
        memcpy(home, scratch, k * sizeof(uint64_t));
        return home;
    }
    sort_byte(v, k, 56, home, count);
    return home;
}

/* Where a count's sides end packed and sorted (their homes): the side in the caller's b
 * ("own", which the count may overwrite) in own, the other (the caller's a) in tmp's
 * first list of max(na, nb) masks (a, below), each packed and sorted by way of the
 * second (b). Sorted on one byte, a side is packed into b and sorted home from there;
 * sorted on two, packed in place (own) or into a, and sorted through b. So b and what
 * lies past it (a quarter list more and JOIN_PAIRS_TMP_SMALL) are free for the
 * sub-buckets and the offsets (offsets_room): two lists and a quarter in all
 * (JOIN_PAIRS_TMP), not three. An unpacked own side sorted on one byte stays in b, and
 * goes home by a copy only where the offsets need b; a count of sub-buckets too small,
 * packed before it knew, sorts on one byte by way of b and a copy back. No copy of a
 * side lies idle: the lists a count takes are what bound a worker's pieces (docs/join.md). */
typedef struct homes {
    uint64_t *a, *b, *end; /* tmp's two lists, and the end of tmp */
    size_t subs;           /* where the sub-buckets were weighed: how many */
} homes;

/* The caller's a (c, nc masks) and own (no masks) packed by pk and, from sd->first on,
 * sorted as homes says, into sd->t and sd->x (x: the looked-up side, own where x_own);
 * a count of sub-buckets (sd->first = 2) weighs them on x packed, and sorts on one byte
 * where they are too small. count[0] gets x's top byte's starts. */
static void go_home(const uint64_t *c, size_t nc, uint64_t *own, size_t no, int x_own,
                    const packing *pk, homes *h, sides *sd, uint32_t count[2][257], void *work,
                    int pext)
{
    const uint64_t *o = own;
    int weigh = sd->first == 2;

    if (sd->first == 1) { /* packed into b, then sorted home; own unpacked into b */
        c = sort_home(pack_side(c, nc, pk, h->b, work, pext), nc, 1, h->a, h->b, count[x_own]);
        o = sort_home(pack_side(o, no, pk, h->b, work, pext), no, 1, pk->packs ? own : h->b, h->b,
                      count[!x_own]);
    } else {
        o = pack_side(o, no, pk, own, work, pext);
        c = pack_side(c, nc, pk, h->a, work, pext);
    }
    if (weigh) {
        h->subs = top_two_bytes(x_own ? o : c, sd->nx, work);
        if (h->subs * (uint64_t)SUB_MEAN_MIN > sd->nx)
            sd->first = 1; /* sub-buckets too small to pay their way */
        c = sort_home(c, nc, sd->first, h->a, h->b, count[x_own]);
        o = sort_home(o, no, sd->first, own, h->b, count[!x_own]);
    }
    sd->t = x_own ? c : o;
    sd->x = x_own ? o : c;
}

/* Room for need words that neither side's home takes: b and past it where b is free, else
 * past it, else own (no words) where it is free; else own's side, sorted into b, is
 * copied home. NULL where even that is short (a count that does not sort). */
static uint64_t *offsets_room(homes *h, sides *sd, uint64_t *own, size_t no, size_t need)
{
    uint64_t *past = h->b + (h->b - h->a); /* past the second list, as long as the first */
    int b_taken = sd->t == h->b || sd->x == h->b;
    uint64_t *r = b_taken ? past : h->b;

    if (r + need <= h->end)
        return r;
    if (sd->t != own && sd->x != own && need <= no)
        return own;
    if (!b_taken)
        return NULL;
    memcpy(own, h->b, no * sizeof(uint64_t));
    if (sd->t == h->b)
        sd->t = own;
    else
        sd->x = own;
    return h->b + need <= h->end ? h->b : NULL;
}

/* A count without chunks, of those pairs: share 0's whole, the others' nothing (the
 * shares add up to it, and share 0's time, every times, projects it without bias). */
static uint64_t unchunked(uint64_t pairs, join_pairs_share *share, double t0)
{
    if (!share)
        return pairs;
    share->seconds = share->from == 0 ? clock_thread_cpu() - t0 : 0;
    return share->from == 0 ? pairs : 0;
}

/* The pairs of a[0..na) and b[0..nb) that share no bit; b (apart from a) is overwritten.
 * With share, those of its chunks (join_pairs_share). */
static uint64_t count_pairs(const uint64_t *a, size_t na, uint64_t *own, size_t nb, uint64_t *tmp,
                            void *work, int pext, const engine_worker *w, join_pairs_share *share)
{
    const uint64_t *b = own;
    size_t most = na > nb ? na : nb;
    homes h = {tmp, tmp + most, tmp + JOIN_PAIRS_TMP(most), 0};
    sides sd;
    packing pk;
    uint32_t count[2][257]; /* x's sort's, then t's */

    double t0 = share ? clock_thread_cpu() : 0;

    assert(!share || share->from < share->every);
    if (na * nb <= 2048)
        return unchunked(join_pairs_naive(a, na, b, nb), share, t0);
    if ((na + CHUNK - 1) / CHUNK * (CHUNK_COST + nb) >
        (nb + CHUNK - 1) / CHUNK * (CHUNK_COST + na)) {
        const uint64_t *s = a;
        size_t ns = na;
        a = b, na = nb, b = s, nb = ns;
    }
    uint64_t used = packing_plan(a, na, b, nb, &pk);
    if (!used)
        return unchunked((uint64_t)na * nb, share, t0); /* every pair fits */
    int x_own = b == own;
    sd.nt = na, sd.nx = nb;
    sd.first = na * nb >= SUB_BUCKET_MIN ? 2 : na * nb >= BUCKET_MIN;
    go_home(x_own ? a : b, x_own ? na : nb, own, x_own ? nb : na, x_own, &pk, &h, &sd, count, work,
            pext);
    sd.used = (sd.first == 2   ? (uint64_t)0xffff << 48
               : sd.first == 1 ? (uint64_t)0xff << 56
                               : 0) | /* the buckets' bytes are the first digits */
              used;                   /* sorting moves t's masks, not their bits */
    sd.dg = digits_of(sd.used, sd.first, nb >= JOIN_PAIRS_WIDE_MIN);
    size_t subs = sd.first == 2 ? (4 * h.subs + 4 + 7) / 8 : 0;
    uint64_t *room =
        offsets_room(&h, &sd, own, x_own ? nb : na, subs + (sd.dg.count - sd.first) * nb / 4 + 1);
    if (!room) { /* a count that does not sort, its looked-up side long, the other short */
        assert(sd.first == 0 && na * nb < BUCKET_MIN);
        return unchunked(join_pairs_naive(sd.t, na, sd.x, nb), share, t0);
    }
    uint16_t *off = (uint16_t *)(room + subs);
    if (sd.first) {
        make_buckets(&sd, sd.x, count[0], (uint32_t *)room);
    } else {
        sd.value[0] = 0, sd.start[0] = 0, sd.start[1] = (uint32_t)nb, sd.buckets = 1;
        sd.sub_start = NULL;
    }
    assert(sd.first < 2 || sd.sub[sd.buckets] == h.subs);
    digit_offsets(sd.x, nb, &sd.dg, sd.first, off);
    sd.off = off;
    return sliced_pairs(&sd, work, w, share);
}

uint64_t CPU_BUILD_NAME(join_pairs_count)(const uint64_t *a, size_t na, uint64_t *b, size_t nb,
                                          uint64_t *tmp, void *work, const engine_worker *w,
                                          join_pairs_share *share)
{
#if defined(__BMI2__)
    return count_pairs(a, na, b, nb, tmp, work, 1, w, share);
#else
    return count_pairs(a, na, b, nb, tmp, work, 0, w, share);
#endif
}

#if defined(__BMI2__)
uint64_t CPU_BUILD_NAME(join_pairs_count_tables)(const uint64_t *a, size_t na, uint64_t *b,
                                                 size_t nb, uint64_t *tmp, void *work,
                                                 const engine_worker *w, join_pairs_share *share)
{
    return count_pairs(a, na, b, nb, tmp, work, 0, w, share);
}
#endif
