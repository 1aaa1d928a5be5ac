/* The reference engine for the tests: n-queens enumerated the textbook way, written
 * apart from the library so that the fast engine has something independent to match. */
#ifndef NQ_TEST_REFERENCE_H
#define NQ_TEST_REFERENCE_H

#include <stdint.h>

/* Receives each solution, q[r] = 0-based column of row r; nonzero return stops. */
typedef int (*reference_fn)(void *user, const int *q, int n);

/* Every solution of the n x n board in lexicographic order (row 0 first), n <= 32;
 * fn may be NULL to only count. Returns the number of solutions reported. */
uint64_t reference_list(int n, reference_fn fn, void *user);

#endif
