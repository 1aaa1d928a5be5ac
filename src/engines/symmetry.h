/* The 8 symmetries of the square on an n x n board, and the search for the solutions one
 * of them leaves unchanged: what the engines that count symmetry classes by Burnside's
 * lemma (d4, join) and the listing's one board per class (nq_solution_canonical) share. */
#ifndef NQ_SYMMETRY_H
#define NQ_SYMMETRY_H

#include <stdint.h>

/* Symmetries of the square, as indices 0..7: identity, rotations by 90, 180 and 270
 * degrees (clockwise), then the mirrors left-right, top-bottom, main diagonal, anti
 * diagonal. */
enum { D4_ID, D4_ROT90, D4_ROT180, D4_ROT270, D4_FLIP_LR, D4_FLIP_UD, D4_DIAG, D4_ANTI };

/* Where symmetry g takes square (r, c) of an n x n board. Inline: d4's task source maps
 * each candidate border's four queens under all eight (out of line, it was 19% of a
 * count at n = 14). */
static inline void symmetry_map(int n, int g, int *r, int *c)
{
    int a = *r, b = *c, m = n - 1;
    switch (g) {
    case D4_ROT90:
        *r = b, *c = m - a;
        break;
    case D4_ROT180:
        *r = m - a, *c = m - b;
        break;
    case D4_ROT270:
        *r = m - b, *c = a;
        break;
    case D4_FLIP_LR:
        *c = m - b;
        break;
    case D4_FLIP_UD:
        *r = m - a;
        break;
    case D4_DIAG:
        *r = b, *c = a;
        break;
    case D4_ANTI:
        *r = m - b, *c = m - a;
        break;
    default:
        break;
    }
}

/* A board being filled by symmetry_fixed: its queens, and the columns each row may use. */
typedef struct symmetry_board {
    int n;
    int8_t col_of[32];    /* the column of row r's queen, -1: none yet */
    uint32_t allowed[32]; /* the columns row r's queen may take */
    uint32_t cols;
    uint64_t diag, anti; /* diagonals r + c and r - c + n - 1 */
} symmetry_board;

/* An empty n x n board (1 <= n <= 32), every column allowed in every row. */
void symmetry_board_init(symmetry_board *b, int n);

/* Put a queen on (r, c); a square that already holds one is left as it is. Returns 0 if
 * the queen would attack one on the board (nothing placed), else 1. */
int symmetry_board_place(symmetry_board *b, int r, int c);

/* The solutions that fill b's empty rows within their allowed columns and that symmetry g
 * leaves unchanged, the queens already there included (they must be a union of orbits of
 * g). Each queen is placed with its whole orbit under g, so only g-symmetric boards are
 * built: small next to a search of every solution, and written for clarity, not speed. */
uint64_t symmetry_fixed(const symmetry_board *b, int g);

#endif
