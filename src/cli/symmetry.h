/* The 8 symmetries of the square on a listed solution, for nqueens list --unique: one
 * board per symmetry class, the lexicographically smallest of its class. */
#ifndef NQ_CLI_SYMMETRY_H
#define NQ_CLI_SYMMETRY_H

#include <stdint.h>

/* cols[r] is the 0-based column of the queen in row r, r < n (a solution: one queen per
 * row and column). Nonzero if no rotation or reflection of the board gives a smaller
 * column vector, so that exactly one board of each class passes. */
int symmetry_is_canonical(const uint8_t *cols, int n);

#endif
