/* The longest half-board lists of a whole join count, against the placements of its
 * largest block: what the workers' list reservation (engines/join.c, list_reserve) is
 * measured against. Makes every task's lists, without counting pairs (about a fifth
 * of the count's time). Usage: ninja -C build bench/bench-join-lists &&
 * build/bench/bench-join-lists N */
#include <stdio.h>
#include <stdlib.h>

#include "core/task.h"
#include "engines/join.h"
#include "engines/join_kernel.h"
#include "engines/join_tables.h"
#include "engines/join_tasks.h"
#include "nqueens/nqueens.h"

typedef struct longest {
    const join_tables *jt;
    join_buf top, bottom;
    size_t most[2];
} longest;

static void note(longest *l, int side, size_t k)
{
    if (k == SIZE_MAX) {
        fprintf(stderr, "join-lists: out of memory\n");
        exit(1);
    }
    l->most[side] = k > l->most[side] ? k : l->most[side];
}

static int task_lists(void *user, const task *t)
{
    longest *l = user;
    const join_tables *jt = l->jt;
    uint32_t top = (uint32_t)t->payload;

    note(l, JOIN_TOP, join_halves_growing(jt, JOIN_TOP, top, 0, &l->top));
    for (int m = jt->n % 2 ? 0 : -1; m < (jt->n % 2 ? jt->n : 0); m++) {
        if (m >= 0 && !join_orbit_size(jt->n, top, m))
            continue;
        join_sides sd = join_task_sides(jt, top, m);
        note(l, JOIN_BOTTOM,
             join_halves_growing(jt, JOIN_BOTTOM, sd.cols[JOIN_BOTTOM], sd.forbid, &l->bottom));
    }
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc == 2 ? atoi(argv[1]) : 0;
    uint64_t far;
    join_tables jt;
    longest l = {&jt, {NULL, 0, 0}, {NULL, 0, 0}, {0, 0}};

    if (n < 1 || n > JOIN_MAX_N) {
        fprintf(stderr, "usage: bench-join-lists N (1..%d)\n", JOIN_MAX_N);
        return 2;
    }
    far = join_tables_census(n, join_parts(n)).largest;
    if (join_tables_init(&jt, n, join_kernel_find(NQ_SIMD_AUTO), NULL) != 0) {
        fprintf(stderr, "join-lists: out of memory\n");
        return 1;
    }
    join_enumerate(n, task_lists, &l, NULL);
    size_t most = l.most[0] > l.most[1] ? l.most[0] : l.most[1];
    printf("n=%d largest block %llu placements; longest list top %zu, bottom %zu: %.3f of them\n",
           n, (unsigned long long)far, l.most[0], l.most[1], (double)most / (double)far);
    join_tables_free(&jt);
    free(l.top.v);
    free(l.bottom.v);
    return 0;
}
