/* The ring of chunk buffers and the state shared under its lock (see gpu_ring.h).
 *
 * The ring has two buffers per device and two spare: a device holds at most two
 * expanded chunks (in flight, or about to be), so while one waits for a chunk still to
 * be expanded the others hold at most 2 x devices - 1 buffers and the expansion always
 * finds one free; the spares let it run ahead of the devices. */
#include <stdlib.h>

#include "gpu/gpu_ring.h"

/* Ring buffers beyond the two per device that the devices can hold. */
#define GPU_RING_SPARE 2

int gpu_ring_size(int n_devices)
{
    return 2 * n_devices + GPU_RING_SPARE;
}

int gpu_ring_alloc(gpu_ctx *c, int n_devs)
{
    c->n_ring = gpu_ring_size(n_devs);
    if ((uint32_t)c->n_ring > c->n_chunks)
        c->n_ring = (int)c->n_chunks;
    c->ring = calloc((size_t)c->n_ring + 1, sizeof(*c->ring));
    if (!c->ring)
        return NQ_ENOMEM;
    for (int i = 0; i < c->n_ring; i++) {
        c->ring[i].subs = malloc((c->max_chunk_subs + 1) * sizeof(*c->ring[i].subs));
        c->ring[i].counts = calloc(c->max_chunk_subs + 1, sizeof(*c->ring[i].counts));
        if (!c->ring[i].subs || !c->ring[i].counts)
            return NQ_ENOMEM;
    }
    return NQ_OK;
}

void gpu_ring_free(gpu_ctx *c)
{
    for (int i = 0; c->ring && i < c->n_ring; i++) {
        free(c->ring[i].subs);
        free(c->ring[i].counts);
    }
    free(c->ring);
}

gpu_chunk_buf *gpu_ring_take(gpu_ctx *c, uint32_t chunk)
{
    gpu_chunk_buf *b = NULL;
    pthread_mutex_lock(&c->lock);
    while (c->ring_busy == c->n_ring && c->live && !gpu_stopping(c))
        pthread_cond_wait(&c->cond, &c->lock);
    for (int i = 0; !gpu_stopping(c) && !b && i < c->n_ring; i++)
        if (!c->ring[i].busy) {
            b = &c->ring[i];
            b->busy = 1;
            b->chunk = chunk;
            c->ring_busy++;
        }
    pthread_mutex_unlock(&c->lock);
    return b;
}

void gpu_ring_release(gpu_ctx *c, gpu_chunk_buf *b)
{
    pthread_mutex_lock(&c->lock);
    b->busy = 0;
    c->ring_busy--;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

void gpu_ring_set_expanded(gpu_ctx *c, uint32_t expanded, int ended)
{
    pthread_mutex_lock(&c->lock);
    c->expanded = expanded;
    c->expand_ended = ended;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

gpu_chunk_buf *gpu_ring_wait_expanded(gpu_ctx *c, uint32_t chunk)
{
    gpu_chunk_buf *b = NULL;
    pthread_mutex_lock(&c->lock);
    while (c->expanded <= chunk && !c->expand_ended)
        pthread_cond_wait(&c->cond, &c->lock);
    for (int i = 0; c->expanded > chunk && i < c->n_ring; i++)
        if (c->ring[i].busy && c->ring[i].chunk == chunk)
            b = &c->ring[i];
    pthread_mutex_unlock(&c->lock);
    return b;
}

void gpu_ring_set_ready(gpu_ctx *c, int ready)
{
    pthread_mutex_lock(&c->lock);
    c->ready = ready;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

int gpu_ring_wait_ready(gpu_ctx *c)
{
    int ready;
    pthread_mutex_lock(&c->lock);
    while (!c->ready)
        pthread_cond_wait(&c->cond, &c->lock);
    ready = c->ready;
    pthread_mutex_unlock(&c->lock);
    return ready > 0;
}

void gpu_ring_fail(gpu_ctx *c, int rc)
{
    pthread_mutex_lock(&c->lock);
    run_fail(&c->stop, rc);
    pthread_cond_broadcast(&c->cond); /* the expansion may wait for a buffer */
    pthread_mutex_unlock(&c->lock);
}
