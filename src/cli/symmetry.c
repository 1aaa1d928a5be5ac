/* The symmetry class filter of nqueens list --unique (see symmetry.h). Every image of a
 * solution is again a solution, and the listing comes in lexicographic order, so keeping
 * the boards that are the smallest of their class gives each class once, in order, with
 * no state kept between boards. */
#include <string.h>

#include "symmetry.h"

int symmetry_is_canonical(const uint8_t *cols, int n)
{
    const int m = n - 1;
    uint8_t img[32];

    /* Bit 0: transpose (r, c) -> (c, r); bit 1: flip the rows; bit 2: flip the columns.
     * The eight combinations are the dihedral group of the square; 0 is the board. */
    for (int t = 1; t < 8; t++) {
        for (int r = 0; r < n; r++) {
            int rr = t & 1 ? cols[r] : r, cc = t & 1 ? r : cols[r];
            if (t & 2)
                rr = m - rr;
            if (t & 4)
                cc = m - cc;
            img[rr] = (uint8_t)cc;
        }
        if (memcmp(img, cols, (size_t)n) < 0)
            return 0;
    }
    return 1;
}
