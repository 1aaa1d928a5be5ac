/* The renaming of mask bits (join_renaming.c). Masks are counted with their bits
 * renamed (one permutation for both sides keeps disjointness): the 2n bits packed from
 * bit 63 down, so that the pair counter's lookups cover as few bytes as possible, the
 * bits where a top and a bottom half-board collide most often first (an order that
 * sorting and splitting once relied on). */
#ifndef NQ_JOIN_RENAMING_H
#define NQ_JOIN_RENAMING_H

#include <stddef.h>
#include <stdint.h>

/* A renaming of bits, as the image of each byte of a mask. */
typedef struct join_renaming {
    uint64_t byte[8][256];
} join_renaming;

static inline uint64_t join_rename(const join_renaming *rn, uint64_t m)
{
    uint64_t img = 0;
    for (int byte = 0; m; byte++, m >>= 8)
        img |= rn->byte[byte][m & 0xff];
    return img;
}

/* The renaming that takes bit j to the mask to[j] (several bits, or none, may do). */
void join_renaming_of_bits(join_renaming *rn, const uint64_t to[64]);
void join_renaming_identity(join_renaming *rn);
/* Add how often each bit is set in v[0..k) to cnt. */
void join_bit_counts(const uint64_t *v, size_t k, uint64_t cnt[64]);
/* order[0..k) (bit numbers) sorted stably by the product of the two sides' counts of
 * each bit, largest first: the likeliest collisions first, ties in the order given. The
 * rule of the renaming (the whole board's) and of a large count's top bytes (its own). */
void join_bits_by_collisions(int *order, int k, const uint64_t ca[64], const uint64_t cb[64]);
/* The renaming for sides whose bit counts are ca and cb. */
void join_renaming_make(join_renaming *rn, const uint64_t ca[64], const uint64_t cb[64]);

#endif
