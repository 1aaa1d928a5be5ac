/* bench-row-parts N MAX_PARTS STRIDE: whether the DFS engines' parts (engines/row_parts.c)
 * project a search's time without bias when they are parted again. The whole board N
 * (every row from an empty one, no mirror halving) is searched whole (thread CPU seconds),
 * then by parts once per draw 0 .. S-1 (S: STRIDE as row_parts_complete lowers it), with
 * MAX_PARTS parts a level at most, so that a small board takes two levels where a large
 * one's task does (prefix at n = 27: ROW_PARTS_MAX). Each draw's projection is the
 * estimate's (its time less the parts' and the extra, plus their projection). Over all
 * draws every placement below is timed once, so the mean projection is the whole time if
 * a part costs alone what it costs in the search, and if the levels' walks are weighted
 * right. Prints the whole time, the mean projection, their ratio and the draws' spread.
 * Build: ninja -C build bench/bench-row-parts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/board.h"
#include "core/clock.h"
#include "engines/row_parts.h"
#include "engines/search_level.h"

typedef struct board_search {
    const engine_worker *w;
    int n;
} board_search;

static engine_status search_part(void *user, int placed, uint32_t cols, uint32_t ld, uint32_t rd,
                                 uint64_t *subtotal)
{
    const board_search *b = user;
    int stopped;

    *subtotal = dfs_search(board_mask(b->n), b->n - placed, cols, ld, rd, b->w, &stopped);
    return stopped ? ENGINE_STOPPED : ENGINE_DONE;
}

int main(int argc, char **argv)
{
    uint32_t free[32], shift[32];
    nq_settings s;
    engine_worker w = {.s = &s};
    board_search b = {&w, argc == 4 ? atoi(argv[1]) : 0};
    uint64_t want = argc == 4 ? strtoull(argv[3], NULL, 10) : 0, stride, d, sub, whole_sub;
    row_parts_rows r = {free, shift, b.n, 0, 0, 0, argc == 4 ? strtoull(argv[2], NULL, 10) : 0};
    double t0, whole, sum = 0, sq = 0;
    int stopped;

    if (b.n < 8 || b.n > 20 || want < 1 || r.max_parts < 1) {
        fprintf(stderr, "usage: bench-row-parts N MAX_PARTS STRIDE (8 <= N <= 20)\n");
        return 2;
    }
    nq_default_settings(&s);
    s.n = b.n;
    for (int k = 0; k < b.n; k++)
        free[k] = board_mask(b.n), shift[k] = 1;
    (void)dfs_search(board_mask(b.n), b.n, 0, 0, 0, &w, &stopped); /* first use, untimed */
    t0 = clock_thread_cpu();
    whole_sub = dfs_search(board_mask(b.n), b.n, 0, 0, 0, &w, &stopped);
    whole = clock_thread_cpu() - t0;
    for (d = 0, stride = want; d < stride; d++) {
        engine_parts p = {want, d, 0, 0, 0, 0, 0};
        double y;
        t0 = clock_thread_cpu();
        if (row_parts_complete(&r, &p, search_part, &b, &sub) != ENGINE_DONE)
            return 2;
        y = clock_thread_cpu() - t0 - p.extra_seconds - p.timed_seconds + p.projected_seconds;
        stride = p.stride;
        sum += y;
        sq += y * y;
        whole_sub -= sub;
    }
    double mean = sum / (double)d, sd = d > 1 ? sqrt((sq - sum * mean) / (double)(d - 1)) : 0;
    printf("n=%d max_parts=%s stride %llu: whole %.4f s, mean projected %.4f s, ratio %.4f, "
           "draws' sd %.4f s, parts' subtotals %s\n",
           b.n, argv[2], (unsigned long long)stride, whole, mean, mean / whole, sd,
           whole_sub == 0 ? "add up" : "DO NOT add up");
    return whole_sub != 0;
}
