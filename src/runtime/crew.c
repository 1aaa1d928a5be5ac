/* A run's threads (crew.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "nqueens/nqueens.h"
#include "runtime/crew.h"

#ifndef CREW_THREAD_CREATE /* the unit test makes some starts fail */
#define CREW_THREAD_CREATE pthread_create
#endif

/* The members of the subtree of member i of n: i, its children 2i + 1 and 2i + 2, theirs,
 * and so on (a binary heap's layout). */
static int subtree_size(int i, int n)
{
    int size = 0;
    for (long lo = i, hi = i; lo < n; lo = 2 * lo + 1, hi = 2 * hi + 2)
        size += (int)((hi < n ? hi : n - 1) - lo + 1);
    return size;
}

/* Member i has started (its handle stored) or, with its subtree, will not (lost): one
 * step nearer the end of crew_start's wait. The one that started it settles it, once
 * pthread_create has returned, so that the handle crew_join reads is written first. */
static void settle(crew *c, int i, int lost)
{
    int members = lost ? subtree_size(i, c->n) : 1;

    pthread_mutex_lock(&c->mu);
    c->m[i].runs = !lost;
    c->lost += lost ? members : 0;
    c->pending -= members;
    if (c->pending == 0)
        pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

static void *crew_main(void *p);

static void start_member(crew *c, int i)
{
    settle(c, i, CREW_THREAD_CREATE(&c->m[i].thread, NULL, crew_main, &c->m[i]) != 0);
}

static void *crew_main(void *p)
{
    crew_member *m = p;
    crew *c = m->crew;

    /* the children first: a crew of T threads starts in log2(T) steps of one
     * pthread_create each (23 us), not T of them one after another */
    for (int j = 2 * m->index + 1; j <= 2 * m->index + 2 && j < c->n; j++)
        start_member(c, j);
    pthread_setname_np(pthread_self(), m->name);
    if (m->aff)
        m->pinned = affinity_pin_self(m->aff, m->index);
    m->body(m->arg);
    return NULL;
}

int crew_start(crew *c, int n, const char *name, affinity *aff, crew_body_fn body, void *args,
               size_t stride)
{
    c->started = c->lost = 0;
    c->n = c->pending = n > 0 ? n : 0;
    c->m = calloc(n > 0 ? (size_t)n : 1, sizeof(*c->m));
    if (!c->m)
        return NQ_ENOMEM;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    for (int i = 0; i < n; i++) {
        c->m[i] = (crew_member){.name = name, .aff = aff, .index = i, .body = body, .crew = c};
        c->m[i].arg = (char *)args + (size_t)i * stride;
    }
    if (n > 0)
        start_member(c, 0);
    pthread_mutex_lock(&c->mu);
    while (c->pending > 0)
        pthread_cond_wait(&c->cv, &c->mu);
    c->started = c->n - c->lost;
    pthread_mutex_unlock(&c->mu);
    return c->lost ? NQ_ETHREAD : NQ_OK;
}

int crew_join(crew *c)
{
    int pinned = 0;

    if (!c->m)
        return 0;
    for (int i = 0; i < c->n; i++)
        if (c->m[i].runs) {
            pthread_join(c->m[i].thread, NULL);
            pinned += c->m[i].pinned;
        }
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
    free(c->m);
    c->m = NULL;
    c->started = c->n = 0;
    return pinned;
}
