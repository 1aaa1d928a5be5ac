/* The solutions a turn of the board leaves unchanged, for Burnside's count of symmetry
 * classes. A search that places whole orbits of queens at once: the queen of row r in
 * column c brings its images under the turn, so only a quarter or half of the choices
 * are made. Rare enough (they are 0 for most column sets) to need no speed. */
#include <assert.h>
#include <stdint.h>

#include "engines/join_sym.h"

typedef struct sym_walk {
    int n, turn, h;
    uint32_t top; /* required columns of rows 0..h-1 */
    int top_any;
    int8_t col_of[32];
    uint32_t cols;
    uint64_t diag, anti; /* r + c and r - c + n - 1 */
} sym_walk;

/* Square (r, c) turned by a quarter: the queen there moves to (c, n - 1 - r). */
static void quarter(int n, int *r, int *c)
{
    int t = *r;
    *r = *c;
    *c = n - 1 - t;
}

static int may_place(const sym_walk *w, int r, int c)
{
    if (w->col_of[r] >= 0 || (w->cols >> c & 1) || (w->diag >> (r + c) & 1) ||
        (w->anti >> (r - c + w->n - 1) & 1))
        return 0;
    return w->top_any || (r < w->h) == ((w->top >> c & 1) != 0);
}

static void set_queen(sym_walk *w, int r, int c, int on)
{
    w->col_of[r] = (int8_t)(on ? c : -1);
    w->cols ^= 1u << c;
    w->diag ^= (uint64_t)1 << (r + c);
    w->anti ^= (uint64_t)1 << (r - c + w->n - 1);
}

static uint64_t sym_search(sym_walk *w, int r)
{
    while (r < w->n && w->col_of[r] >= 0)
        r++;
    if (r == w->n)
        return 1;
    uint64_t sum = 0;
    for (int c = 0; c < w->n; c++) {
        int rr[4], cc[4], placed = 0, ok = 1;
        int steps = w->turn == 1 ? 4 : 2;
        rr[0] = r, cc[0] = c;
        for (int s = 1; s < steps; s++) {
            rr[s] = rr[s - 1], cc[s] = cc[s - 1];
            quarter(w->n, &rr[s], &cc[s]);
            if (w->turn == 2)
                quarter(w->n, &rr[s], &cc[s]);
        }
        for (int s = 0; s < steps && ok; s++) {
            if (s > 0 && rr[s] == rr[0] && cc[s] == cc[0])
                break; /* the centre is its own image */
            ok = may_place(w, rr[s], cc[s]);
            if (ok)
                set_queen(w, rr[s], cc[s], 1), placed++;
        }
        if (ok)
            sum += sym_search(w, r + 1);
        while (placed--)
            set_queen(w, rr[placed], cc[placed], 0);
    }
    return sum;
}

uint64_t join_symmetric(int n, int turn, uint32_t top, int top_any)
{
    sym_walk w = {n, turn, n / 2, top, top_any, {0}, 0, 0, 0};

    assert(n >= 1 && n <= 32 && (turn == 1 || turn == 2));
    for (int r = 0; r < 32; r++)
        w.col_of[r] = -1;
    return sym_search(&w, 0);
}
