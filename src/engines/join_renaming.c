/* The renaming of mask bits that the join engine's pair counting relies on: the 2n bits
 * a mask can have become the top bits, so that the counter's lookups cover few bytes,
 * those where a top and a bottom half-board collide most often first. */
#include "engines/join_renaming.h"

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

/* Bit-sliced: lane j of acc holds the counts of bits j, j + 8, .. j + 56 in its eight
 * bytes, so a mask costs eight shifts and adds instead of one dependent increment per
 * set bit (the sample's half-boards have about 30: this was a fifth of the join's setup
 * at n = 20). A byte holds 255 masks before it is emptied into cnt. */
void join_bit_counts(const uint64_t *v, size_t k, uint64_t cnt[64])
{
    const uint64_t ones = 0x0101010101010101ull;

    for (size_t i = 0; i < k;) {
        uint64_t acc[8] = {0};
        size_t end = k - i > 255 ? i + 255 : k;
        for (; i < end; i++)
            for (int j = 0; j < 8; j++)
                acc[j] += v[i] >> j & ones;
        for (int j = 0; j < 8; j++)
            for (int b = 0; b < 8; b++)
                cnt[8 * b + j] += acc[j] >> (8 * b) & 0xff;
    }
}

void join_bits_by_collisions(int *order, int k, const uint64_t ca[64], const uint64_t cb[64])
{
    for (int x = 1; x < k; x++) { /* insertion sort, descending; k <= 64, once per count */
        int j = order[x], y = x;
        double v = (double)ca[j] * (double)cb[j];
        while (y > 0 && (double)ca[order[y - 1]] * (double)cb[order[y - 1]] < v) {
            order[y] = order[y - 1];
            y--;
        }
        order[y] = j;
    }
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
    join_bits_by_collisions(order, k, ca, cb);
    for (int x = 0; x < k; x++)
        to[order[x]] = (uint64_t)1 << (63 - x);
    join_renaming_of_bits(rn, to);
}
