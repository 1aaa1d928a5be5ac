/* The reference pair counter (join_pairs_naive.c): what the fast counters (join_pairs.c,
 * one build per vector path) are checked against, and what they call for short sides. */
#ifndef NQ_JOIN_PAIRS_NAIVE_H
#define NQ_JOIN_PAIRS_NAIVE_H

#include <stddef.h>
#include <stdint.h>

/* The number of pairs (a[i], b[j]) with a[i] & b[j] == 0 by the plain double loop. The
 * fast count is a kernel's (join_kernel.h). */
uint64_t join_pairs_naive(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

#endif
