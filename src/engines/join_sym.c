/* The solutions a turn of the board leaves unchanged, for Burnside's count of symmetry
 * classes: the orbit search of engines/symmetry.c, each row held to its side's columns
 * (the top rows to the task's column set, the others to the rest). Rare enough (they
 * are 0 for most column sets) to need no speed. */
#include <assert.h>
#include <stdint.h>

#include "engines/join_sym.h"
#include "engines/symmetry.h"

uint64_t join_symmetric(int n, int turn, uint32_t top, int top_any)
{
    symmetry_board b;

    assert(n >= 1 && n <= 32 && (turn == 1 || turn == 2));
    symmetry_board_init(&b, n);
    if (!top_any)
        for (int r = 0; r < n; r++)
            b.allowed[r] &= r < n / 2 ? top : ~top;
    return symmetry_fixed(&b, turn == 1 ? D4_ROT90 : D4_ROT180);
}
