/* The plain double loop over two sides of masks: the join's reference pair counter. A
 * file of its own, compiled once, outside the per-path builds of join_pairs.c, so that
 * every path's short cases and the tests count with the same code. */
#include "engines/join_pairs_naive.h"

uint64_t join_pairs_naive(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    uint64_t sum = 0;

    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            sum += (a[i] & b[j]) == 0;
    return sum;
}
