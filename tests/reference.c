/* Textbook n-queens: one array of queen columns, each new queen checked against every
 * queen already placed, and the symmetries as quarter turns of the grid. Slow on purpose
 * and shares nothing with src/, so that the engines can be cross-checked against it for
 * small n. */
#include "reference.h"

#include <string.h>

typedef struct reference_run {
    int n, to;
    int q[32]; /* -1: no queen yet */
    reference_fn fn;
    void *user;
    uint64_t found;
    int stopped;
} reference_run;

int reference_safe(const int *q, int rows, int row, int col)
{
    for (int r = 0; r < rows; r++) {
        int dc = q[r] - col;
        if (r == row || q[r] < 0)
            continue;
        if (dc == 0 || dc == row - r || dc == r - row)
            return 0;
    }
    return 1;
}

static void reference_place(reference_run *run, int row)
{
    if (row == run->to) {
        run->found++;
        if (run->fn && run->fn(run->user, run->q, run->to) != 0)
            run->stopped = 1;
        return;
    }
    if (run->q[row] >= 0) { /* preset: checked against the queens above it */
        if (reference_safe(run->q, row, row, run->q[row]))
            reference_place(run, row + 1);
        return;
    }
    for (int col = 0; col < run->n && !run->stopped; col++) {
        if (!reference_safe(run->q, run->to, row, col))
            continue;
        run->q[row] = col;
        reference_place(run, row + 1);
        run->q[row] = -1;
    }
}

uint64_t reference_fill(int n, int to, const int *preset, reference_fn fn, void *user)
{
    reference_run run = {.n = n, .to = to, .fn = fn, .user = user};
    if (n < 1 || n > 32 || to < 0 || to > n)
        return 0;
    for (int r = 0; r < to; r++)
        run.q[r] = preset ? preset[r] : -1;
    reference_place(&run, 0);
    return run.found;
}

uint64_t reference_list(int n, reference_fn fn, void *user)
{
    return reference_fill(n, n, NULL, fn, user);
}

/* Each symmetry as a mirror (or none) followed by quarter turns: the mirror left-right
 * turned twice is the mirror top-bottom, three times the main diagonal, once the anti. */
void reference_image(int n, int g, const int *q, int *img)
{
    static const int turns[8] = {0, 1, 2, 3, 0, 2, 3, 1};
    for (int r = 0; r < n; r++) {
        int rr = r, cc = g >= REF_FLIP_LR ? n - 1 - q[r] : q[r];
        for (int k = 0; k < turns[g]; k++) {
            int t = rr; /* (r, c) turned a quarter clockwise is (c, n - 1 - r) */
            rr = cc;
            cc = n - 1 - t;
        }
        img[rr] = cc;
    }
}

int reference_canonical(const int *q, int n)
{
    int img[32], r;
    for (int g = REF_ROT90; g <= REF_ANTI; g++) {
        reference_image(n, g, q, img);
        for (r = 0; r < n && img[r] == q[r]; r++)
            ;
        if (r < n && img[r] < q[r])
            return 0;
    }
    return 1;
}

static int reference_count_canonical(void *user, const int *q, int n)
{
    *(uint64_t *)user += (uint64_t)reference_canonical(q, n);
    return 0;
}

uint64_t reference_unique(int n)
{
    uint64_t classes = 0;
    reference_list(n, reference_count_canonical, &classes);
    return classes;
}
