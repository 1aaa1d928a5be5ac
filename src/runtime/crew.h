/* A run's threads, started and joined in one place for the worker pool, the listing
 * runtime and the GPU's host threads: each is named, pins itself to its place of the
 * affinity (when the run pins) before its body runs, and is joined in order. They start
 * as a binary tree, each starting its two children before its body, so that 1,024 of
 * them take ten steps of a pthread_create, not 1,024 (docs/scheduling.md). */
#ifndef NQ_CREW_H
#define NQ_CREW_H

#include <pthread.h>
#include <stddef.h>

#include "runtime/affinity.h"

typedef void (*crew_body_fn)(void *arg);

struct crew;

typedef struct crew_member {
    pthread_t thread;
    const char *name;
    affinity *aff; /* NULL: not pinned */
    int index, pinned;
    int runs; /* its thread started (set under the crew's mu) */
    crew_body_fn body;
    void *arg;
    struct crew *crew;
} crew_member;

typedef struct crew {
    crew_member *m;
    int started; /* the threads that run, once crew_start has returned */
    int n, pending, lost;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} crew;

/* Start n threads named name, thread i running body on args + i * stride (so that each
 * gets its element of the caller's array) once it is pinned to place i of aff; returns
 * once every one has started or is known not to. NQ_OK; NQ_ENOMEM, or NQ_ETHREAD when a
 * thread did not start (nor then the ones it was to start): c->started says how many
 * did, which crew_join joins, and the caller stops its run. */
int crew_start(crew *c, int n, const char *name, affinity *aff, crew_body_fn body, void *args,
               size_t stride);
/* Join the threads started, and free c; returns how many were pinned. */
int crew_join(crew *c);

#endif
