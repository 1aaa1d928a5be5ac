/* The one helper every search needs: the columns of a board as the bits of a mask. */
#ifndef NQ_BOARD_H
#define NQ_BOARD_H

#include <stdint.h>

/* The columns of an n x n board, 1 <= n <= 32, as the low n bits of a mask. */
static inline uint32_t board_mask(int n)
{
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

#endif
