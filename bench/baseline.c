/* The speed floor every "x baseline" figure of the project is a ratio against: the plain
 * textbook counter, a bitmask depth-first search over the rows with mirror halving and
 * nothing else (no symmetry classes, no tables, no vectors, one thread). It is kept this
 * plain on purpose, so that a ratio against it says what the engines add; it shares no
 * code with the library, so that it is also an independent check of the small counts.
 *
 *     cc -O3 -march=native -o baseline bench/baseline.c && ./baseline 16   # 14772512
 *
 * Mirror halving: a solution and its mirror image (column c to n-1-c) are different
 * solutions, and exactly one of them has its row-0 queen left of the middle, so the left
 * half of row 0 is searched and counted twice; an odd board's middle column of row 0 is
 * its own mirror and is counted once. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Solutions below one placed row: free is the columns not yet used, and left and right
 * the squares of the next row that the queens above attack along their two diagonals. */
static uint64_t below(uint32_t free, uint32_t left, uint32_t right)
{
    if (!free)
        return 1; /* every column used: one queen per row, a solution */
    uint64_t solutions = 0;
    for (uint32_t open = free & ~(left | right); open;) {
        uint32_t q = open & -open;
        open ^= q;
        solutions += below(free & ~q, (left | q) << 1, (right | q) >> 1);
    }
    return solutions;
}

/* Solutions with row 0's queen on column c. */
static uint64_t from_column(uint32_t all, int c)
{
    uint32_t q = 1u << c;
    return below(all & ~q, q << 1, q >> 1);
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
    if (argc != 2 || *end || n < 1 || n > 31) {
        fprintf(stderr, "usage: baseline N (N from 1 to 31)\n");
        return 2;
    }
    uint32_t all = (uint32_t)((1ull << n) - 1);
    uint64_t total = 0;
    for (int c = 0; c < n / 2; c++)
        total += 2 * from_column(all, c);
    if (n % 2)
        total += from_column(all, (int)(n / 2));
    printf("%llu\n", (unsigned long long)total);
    return 0;
}
