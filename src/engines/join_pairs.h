/* Disjoint pairs (join_pairs.c): the number of pairs of renamed masks, one from each
 * side, that share no bit; one build per vector path (join_kernel.h). */
#ifndef NQ_JOIN_PAIRS_H
#define NQ_JOIN_PAIRS_H

#include <stddef.h>
#include <stdint.h>

struct engine_worker;

/* A share of one count, for an estimate that times a large count by a part of it: the
 * chunks c (of the side the counter transposes, 0, 1, ...) with c % every == from, the
 * sides prepared whole. Their loop's CPU seconds come back in seconds, so that the
 * caller projects the count to its preparation plus every times them. The shares
 * 0 .. every - 1 of a count add up to it: a count without chunks (the few pairs that
 * the double loop counts, or every pair fitting) is share 0's whole. */
typedef struct join_pairs_share {
    uint64_t every, from;
    double seconds;
} join_pairs_share;

/* The pair counter's lookup tables: 8 digits x 1,024 values of 32 bytes. */
#define JOIN_PAIRS_WORK (8 * 1024 * 32)
#define JOIN_PAIRS_ALIGN 64
/* A count whose looked-up side holds at least this many masks cuts them into digits of
 * up to ten bits rather than bytes: a chunk's tables cost more, and each mask a lookup
 * less where that drops a digit (2^11 to 2^16 measured alike at n = 18 to 21, AMD Zen 4). */
#define JOIN_PAIRS_WIDE_MIN ((size_t)1 << 12)
/* Entries of tmp for sides of up to k masks: the home of the side that is not the
 * caller's own list (where it ends packed and sorted), a scratch for the packing and the
 * sorts, and past it a quarter list and JOIN_PAIRS_TMP_SMALL entries, which with the
 * scratch then hold the sub-buckets' starts (under a twelfth of a side) and the lookup
 * offsets (two bytes for each digit past the buckets': at most four of up to ten bits,
 * or five past one byte at n = 26 and 27; more only under 2^12 masks, where digits are
 * bytes): nine quarter lists (join_pairs.c, homes). */
#define JOIN_PAIRS_TMP_QUARTERS 9
#define JOIN_PAIRS_TMP_SMALL 8192
#define JOIN_PAIRS_TMP(k) ((JOIN_PAIRS_TMP_QUARTERS * (k) + 3) / 4 + JOIN_PAIRS_TMP_SMALL)

#define JOIN_PAIRS_DECLARE(isa)                                                                    \
    uint64_t join_pairs_count_##isa(const uint64_t *a, size_t na, uint64_t *b, size_t nb,          \
                                    uint64_t *tmp, void *work, const struct engine_worker *w,      \
                                    join_pairs_share *share)
JOIN_PAIRS_DECLARE(scalar);
JOIN_PAIRS_DECLARE(avx2);
JOIN_PAIRS_DECLARE(avx512);
/* The BMI2 builds' own count packs masks by pext; these by tables, as the scalar
 * build's does, for CPUs whose pext is slow (cpu_pext_fast). */
#define JOIN_PAIRS_TABLES_DECLARE(isa)                                                             \
    uint64_t join_pairs_count_tables_##isa(const uint64_t *a, size_t na, uint64_t *b, size_t nb,   \
                                           uint64_t *tmp, void *work,                              \
                                           const struct engine_worker *w, join_pairs_share *share)
JOIN_PAIRS_TABLES_DECLARE(avx2);
JOIN_PAIRS_TABLES_DECLARE(avx512);

#endif
