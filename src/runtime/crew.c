/* A run's threads (crew.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "nqueens/nqueens.h"
#include "runtime/crew.h"

static void *crew_main(void *p)
{
    crew_member *m = p;

    pthread_setname_np(pthread_self(), m->name);
    if (m->aff)
        m->pinned = affinity_pin_self(m->aff, m->index);
    m->body(m->arg);
    return NULL;
}

int crew_start(crew *c, int n, const char *name, affinity *aff, crew_body_fn body, void *args,
               size_t stride)
{
    c->started = 0;
    c->m = calloc(n > 0 ? (size_t)n : 1, sizeof(*c->m));
    if (!c->m)
        return NQ_ENOMEM;
    for (int i = 0; i < n; i++) {
        c->m[i] = (crew_member){.name = name, .aff = aff, .index = i, .body = body};
        c->m[i].arg = (char *)args + (size_t)i * stride;
        if (pthread_create(&c->m[i].thread, NULL, crew_main, &c->m[i]) != 0)
            return NQ_ETHREAD;
        c->started++;
    }
    return NQ_OK;
}

int crew_join(crew *c)
{
    int pinned = 0;

    for (int i = 0; i < c->started; i++) {
        pthread_join(c->m[i].thread, NULL);
        pinned += c->m[i].pinned;
    }
    free(c->m);
    c->m = NULL;
    c->started = 0;
    return pinned;
}
