/* Textbook n-queens: one array of queen columns, each new queen checked against every
 * queen already placed. Slow on purpose and shares nothing with src/, so that the
 * listing and counting engines can be cross-checked against it for small n. */
#include "reference.h"

typedef struct reference_run {
    int n;
    int q[32];
    reference_fn fn;
    void *user;
    uint64_t found;
    int stopped;
} reference_run;

/* May a queen stand at (row, col), given the queens of rows 0..row-1? */
static int reference_safe(const reference_run *run, int row, int col)
{
    for (int r = 0; r < row; r++) {
        int dc = run->q[r] - col;
        if (dc == 0 || dc == row - r || dc == r - row)
            return 0;
    }
    return 1;
}

static void reference_place(reference_run *run, int row)
{
    if (row == run->n) {
        run->found++;
        if (run->fn && run->fn(run->user, run->q, run->n) != 0)
            run->stopped = 1;
        return;
    }
    for (int col = 0; col < run->n && !run->stopped; col++) {
        if (!reference_safe(run, row, col))
            continue;
        run->q[row] = col;
        reference_place(run, row + 1);
    }
}

uint64_t reference_list(int n, reference_fn fn, void *user)
{
    reference_run run = {.n = n, .fn = fn, .user = user};
    if (n < 1 || n > 32)
        return 0;
    reference_place(&run, 0);
    return run.found;
}
