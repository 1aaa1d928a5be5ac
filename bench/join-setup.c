/* bench-join-setup N THREADS [REPEAT]: the join engine's shared tables for board N (what
 * a count builds before its workers start: blocks, views, the renaming's sample) built
 * on THREADS threads, REPEAT times (default 3): each build's wall seconds and the
 * process's CPU seconds, one line each. The serial part of a count's time on many cores
 * (docs/scheduling.md). Build: ninja -C build bench/bench-join-setup. */
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"
#include "engine_table.h"

int main(int argc, char **argv)
{
    nq_settings s;
    const engine_desc *e = engine_find(NQ_ENGINE_JOIN);
    int repeat = argc > 3 ? atoi(argv[3]) : 3;

    if (argc < 3 || repeat < 1) {
        fprintf(stderr, "usage: bench-join-setup N THREADS [REPEAT]\n");
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
        e->shared_free(shared);
    }
    return 0;
}
