/* The ring of chunk buffers between the expanding thread and the device threads, and the
 * run's state shared under its lock (gpu_ctx.h says who owns what). */
#ifndef NQ_GPU_RING_H
#define NQ_GPU_RING_H

#include <stdint.h>

#include "gpu/gpu_ctx.h"

/* How many chunk buffers the host keeps for n_devices devices: what bounds its memory. */
int gpu_ring_size(int n_devices);

/* The ring for n_devs devices (no more buffers than chunks), each sized for the largest
 * chunk. NQ_OK or NQ_ENOMEM (gpu_ring_free frees what was made). */
int gpu_ring_alloc(gpu_ctx *c, int n_devs);
void gpu_ring_free(gpu_ctx *c);

/* Blocks until a buffer is free and takes it for chunk; NULL after a stop. */
gpu_chunk_buf *gpu_ring_take(gpu_ctx *c, uint32_t chunk);
/* Frees the buffer of a chunk that ended, finished or abandoned. */
void gpu_ring_release(gpu_ctx *c, gpu_chunk_buf *b);

/* Publishes how many chunks are expanded, and whether that is all there will be. */
void gpu_ring_set_expanded(gpu_ctx *c, uint32_t expanded, int ended);
/* Blocks until the sub-tasks of chunk are written and returns their buffer; NULL if
 * they never will be (the expansion stopped). */
gpu_chunk_buf *gpu_ring_wait_expanded(gpu_ctx *c, uint32_t chunk);

/* Publishes that the chunks are laid out (ready 1) or never will be (-1). */
void gpu_ring_set_ready(gpu_ctx *c, int ready);
/* Blocks until the calling thread has laid out the chunks; 0 if it never will. */
int gpu_ring_wait_ready(gpu_ctx *c);

/* Fails the run with rc and wakes every waiter. */
void gpu_ring_fail(gpu_ctx *c, int rc);

#endif
