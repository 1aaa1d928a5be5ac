/* The symmetries of the square and the orbit search of symmetric solutions (see
 * symmetry.h), written once for the d4 engine's bordered tasks, the join engine's column
 * sets and the listing's class filter. */
#include "engines/symmetry.h"

#include <assert.h>
#include <string.h>

#include "nqueens/nqueens.h"

void symmetry_board_init(symmetry_board *b, int n)
{
    assert(n >= 1 && n <= 32);
    memset(b, 0, sizeof(*b));
    b->n = n;
    for (int r = 0; r < 32; r++) {
        b->col_of[r] = -1;
        b->allowed[r] = n == 32 ? ~0u : (1u << n) - 1;
    }
}

static int board_free(const symmetry_board *b, int r, int c)
{
    return b->col_of[r] < 0 && (b->allowed[r] >> c & 1) && !(b->cols >> c & 1) &&
           !(b->diag >> (r + c) & 1) && !(b->anti >> (r - c + b->n - 1) & 1);
}

static void board_flip(symmetry_board *b, int r, int c, int on)
{
    b->col_of[r] = (int8_t)(on ? c : -1);
    b->cols ^= 1u << c;
    b->diag ^= (uint64_t)1 << (r + c);
    b->anti ^= (uint64_t)1 << (r - c + b->n - 1);
}

int symmetry_board_place(symmetry_board *b, int r, int c)
{
    if (b->col_of[r] == c)
        return 1;
    if (!board_free(b, r, c))
        return 0;
    board_flip(b, r, c, 1);
    return 1;
}

/* From row r on: place the first empty row's queen together with its orbit under g. */
static uint64_t fixed_search(symmetry_board *b, int g, int r)
{
    uint64_t count = 0;

    while (r < b->n && b->col_of[r] >= 0)
        r++;
    if (r == b->n)
        return 1;
    for (int c = 0; c < b->n; c++) {
        int orbit[4][2], k = 0, ok = 1;
        int rr = r, cc = c;
        /* place (r, c) and its images until the orbit closes */
        do {
            if (!board_free(b, rr, cc)) {
                ok = 0;
                break;
            }
            board_flip(b, rr, cc, 1);
            orbit[k][0] = rr, orbit[k][1] = cc, k++;
            symmetry_map(b->n, g, &rr, &cc);
        } while ((rr != r || cc != c) && k < 4);
        /* a symmetry of order <= 4 closes every orbit within four steps */
        assert(!ok || (rr == r && cc == c));
        if (ok && (rr != r || cc != c))
            ok = 0; /* the guard for a release build */
        if (ok)
            count += fixed_search(b, g, r + 1);
        while (k--)
            board_flip(b, orbit[k][0], orbit[k][1], 0);
    }
    return count;
}

uint64_t symmetry_fixed(const symmetry_board *b, int g)
{
    symmetry_board w = *b;

    assert(g >= D4_ID && g <= D4_ANTI);
    return fixed_search(&w, g, 0);
}

/* Every image of a solution is again a solution, so a column vector to compare whole;
 * the identity's needs no look. */
int nq_solution_canonical(const uint8_t *cols, int n)
{
    uint8_t img[NQ_MAX_N];

    if (!cols || n < 1 || n > NQ_MAX_N)
        return NQ_EINVAL;
    for (int r = 0; r < n; r++)
        if (cols[r] >= n)
            return NQ_EINVAL;
    memset(img, 0, sizeof(img));
    for (int g = D4_ROT90; g <= D4_ANTI; g++) {
        for (int r = 0; r < n; r++) {
            int rr = r, cc = cols[r];
            symmetry_map(n, g, &rr, &cc);
            img[rr] = (uint8_t)cc;
        }
        if (memcmp(img, cols, (size_t)n) < 0)
            return 0;
    }
    return 1;
}
