/* A loop split over threads (see split.h). Each range is written only by its own
 * thread, and the caller reads the results after joining them all, so the ranges need
 * no synchronisation of their own. */
#include "core/split.h"

#include <pthread.h>
#include <stdatomic.h>

#include "core/clock.h"

typedef struct split_part {
    split_fn fn;
    void *user;
    int part, failed;
    uint64_t lo, hi;
    _Atomic uint64_t *sink; /* a started thread's CPU time goes here (split_cpu_sink) */
} split_part;

/* The sink of the splits this thread runs: its own, unseen by other threads. */
static _Thread_local _Atomic uint64_t *cpu_sink;

void split_cpu_sink(_Atomic uint64_t *sink)
{
    cpu_sink = sink;
}

static void *run_part(void *arg)
{
    split_part *p = arg;
    p->failed = p->fn(p->user, p->part, p->lo, p->hi) != 0;
    return NULL;
}

/* A started thread's part, then its CPU time (the whole thread's: it ran nothing else)
 * into the sink. */
static void *run_started(void *arg)
{
    split_part *p = arg;

    run_part(p);
    if (p->sink)
        atomic_fetch_add(p->sink, (uint64_t)(clock_thread_cpu() * 1e9));
    return NULL;
}

int split_parts(int threads, uint64_t n, uint64_t grain)
{
    uint64_t most = n / (grain ? grain : 1);

    if (threads > SPLIT_MAX_THREADS)
        threads = SPLIT_MAX_THREADS;
    if ((uint64_t)threads > most)
        threads = most ? (int)most : 1;
    return threads > 1 ? threads : 1;
}

int split_run(int threads, uint64_t n, uint64_t grain, split_fn fn, void *user)
{
    split_part part[SPLIT_MAX_THREADS];
    pthread_t id[SPLIT_MAX_THREADS];
    int parts = split_parts(threads, n, grain), started[SPLIT_MAX_THREADS] = {0}, failed = 0;

    for (int k = 0; k < parts; k++)
        part[k] = (split_part){fn,
                               user,
                               k,
                               0,
                               n * (uint64_t)k / (uint64_t)parts,
                               n * (uint64_t)(k + 1) / (uint64_t)parts,
                               cpu_sink};
    for (int k = 1; k < parts; k++)
        started[k] = pthread_create(&id[k], NULL, run_started, &part[k]) == 0;
    run_part(&part[0]);
    for (int k = 1; k < parts; k++) {
        if (started[k])
            pthread_join(id[k], NULL);
        else
            run_part(&part[k]); /* no thread: the caller does its range */
        failed |= part[k].failed;
    }
    return failed | part[0].failed;
}

typedef struct split_share {
    split_fn fn;
    void *user;
    uint64_t n, grain;
    _Atomic uint64_t next;
} split_share;

/* Part `part` of a shared split (one step of split_run each): ranges while any is left. */
static int take_ranges(void *user, int part, uint64_t lo, uint64_t hi)
{
    split_share *sh = user;
    int failed = 0;

    (void)lo, (void)hi;
    for (uint64_t a; (a = atomic_fetch_add(&sh->next, sh->grain)) < sh->n;)
        failed |= sh->fn(sh->user, part, a, sh->n - a > sh->grain ? a + sh->grain : sh->n) != 0;
    return failed;
}

int split_run_shared(int threads, uint64_t n, uint64_t grain, split_fn fn, void *user)
{
    split_share sh = {fn, user, n, grain ? grain : 1, 0};
    int parts = split_parts(threads, n, grain);

    return split_run(parts, (uint64_t)parts, 1, take_ranges, &sh);
}
