/* bench-crew-start T [REPEAT]: the wall seconds crew_start takes to start T threads whose
 * bodies only wait (runtime/crew.c), REPEAT times (default 5), one line each: the serial
 * part of a pool's start on T cores (docs/scheduling.md). On a machine with fewer cores
 * than T the threads share them, and the figure is of that sharing too.
 * Build: ninja -C build bench/bench-crew-start. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"
#include "runtime/crew.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int go;

static void wait_for_go(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mu);
    while (!go)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 0, repeat = argc > 2 ? atoi(argv[2]) : 5;

    if (threads < 1 || threads > 65536 || repeat < 1) {
        fprintf(stderr, "usage: bench-crew-start T [REPEAT]\n");
        return 2;
    }
    for (int r = 0; r < repeat; r++) {
        crew c;
        go = 0;
        double t0 = clock_seconds();
        int rc = crew_start(&c, threads, "nq-bench", NULL, wait_for_go, NULL, 0);
        double t = clock_seconds() - t0;
        pthread_mutex_lock(&mu);
        go = 1;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&mu);
        crew_join(&c);
        if (rc != 0)
            return 1;
        printf("threads=%d: %.5f s (%.1f us a thread)\n", threads, t, t / threads * 1e6);
    }
    return 0;
}
