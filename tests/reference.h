/* The reference engine for the tests: n-queens enumerated the textbook way, written
 * apart from the library so that the fast engines have something independent to match.
 * Every test that needs a brute force (the listing, the task sources, the kernels, the
 * symmetric solutions) takes it from here. */
#ifndef NQ_TEST_REFERENCE_H
#define NQ_TEST_REFERENCE_H

#include <stdint.h>

/* Receives each placement, q[r] = 0-based column of row r for the rows placed (n of
 * them: the whole board for reference_list); nonzero return stops. */
typedef int (*reference_fn)(void *user, const int *q, int n);

/* Every solution of the n x n board in lexicographic order (row 0 first), n <= 32;
 * fn may be NULL to only count. Returns the number of solutions reported. */
uint64_t reference_list(int n, reference_fn fn, void *user);

/* Every legal placement of rows 0..to-1 of the n x n board (to <= n <= 32) that keeps
 * the queens preset (preset[r] the column of row r's queen, -1 for a row to fill; NULL:
 * none), in lexicographic order; fn (NULL: only count) sees each as rows 0..to-1.
 * Returns how many: 0 if two preset queens attack each other. */
uint64_t reference_fill(int n, int to, const int *preset, reference_fn fn, void *user);

/* 1 if a queen may stand at (row, col) beside every queen of q[0..rows) but row's own
 * (q[r] = -1: none in row r). */
int reference_safe(const int *q, int rows, int row, int col);

/* The 8 symmetries of the square, in the order of the library's (engines/d4.h), so that
 * a test can compare them one by one: the identity, quarter turns clockwise by 90, 180
 * and 270 degrees, then the mirrors left-right, top-bottom, main and anti diagonal. */
enum { REF_ID, REF_ROT90, REF_ROT180, REF_ROT270, REF_FLIP_LR, REF_FLIP_UD, REF_DIAG, REF_ANTI };

/* img <- the solution q of the n x n board seen through symmetry g. */
void reference_image(int n, int g, const int *q, int *img);

/* 1 if no image of the solution q is a smaller column vector: one board per class. */
int reference_canonical(const int *q, int n);

/* The symmetry classes of the n x n board (A002562), one canonical solution each. */
uint64_t reference_unique(int n);

#endif
