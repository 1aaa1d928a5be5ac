/* bench-join-setup N THREADS [REPEAT [costs]]: the join engine's shared tables for board
 * N (what a count builds before its workers start: blocks, views, the renaming's sample,
 * the cost model's counts) built on THREADS threads, REPEAT times (default 3): each
 * build's wall seconds and the process's CPU seconds, one line each. The serial part of
 * a count's time on many cores (docs/scheduling.md). With `costs`, then every task's
 * cost by the last build, summed and hashed (FNV-1a over the doubles' bits), so that two
 * revisions' cost models can be compared bit for bit. Build: ninja -C build
 * bench/bench-join-setup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "engine_table.h"

/* The tasks' costs so far: their count, sum and hash. */
typedef struct costs {
    const engine_desc *e;
    const void *shared;
    uint64_t tasks, hash;
    double sum;
} costs;

static int price(void *user, const task *t)
{
    costs *c = user;
    double cost = c->e->task_cost(c->shared, t);
    uint64_t bits;

    memcpy(&bits, &cost, sizeof(bits));
    for (int i = 0; i < 8; i++)
        c->hash = (c->hash ^ (bits >> 8 * i & 0xff)) * 1099511628211u;
    c->tasks++;
    c->sum += cost;
    return 0;
}

int main(int argc, char **argv)
{
    nq_settings s;
    const engine_desc *e = engine_find(NQ_ENGINE_JOIN);
    int repeat = argc > 3 ? atoi(argv[3]) : 3;
    int priced = argc > 4 && strcmp(argv[4], "costs") == 0;

    if (argc < 3 || argc > 5 || repeat < 1 || (argc == 5 && !priced)) {
        fprintf(stderr, "usage: bench-join-setup N THREADS [REPEAT [costs]]\n");
        return 2;
    }
    nq_default_settings(&s);
    s.n = atoi(argv[1]);
    s.engine = NQ_ENGINE_JOIN;
    s.n_threads = atoi(argv[2]);
    if (nq_resolve_settings(&s) != NQ_OK)
        return 2;
    for (int r = 0; r < repeat; r++) {
        double w0 = clock_seconds(), c0 = clock_cpu();
        void *shared = e->shared_init(&s, NULL);
        double wall = clock_seconds() - w0, cpu = clock_cpu() - c0;
        if (!shared)
            return 2;
        printf("n=%d threads=%d: wall %.4f s, cpu %.4f s\n", s.n, s.n_threads, wall, cpu);
        if (priced && r + 1 == repeat) {
            costs c = {e, shared, 0, 14695981039346656037u, 0};
            e->source(&s, price, &c);
            printf("n=%d costs: %llu tasks, sum %.17g, hash %016llx\n", s.n,
                   (unsigned long long)c.tasks, c.sum, (unsigned long long)c.hash);
        }
        e->shared_free(shared);
    }
    return 0;
}
