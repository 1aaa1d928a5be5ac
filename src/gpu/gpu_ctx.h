/* The state one GPU run shares between the calling thread and one host thread per
 * device; private to src/gpu/.
 *
 * Ownership: the calling thread enumerates the tasks, asks the reuse hook, lays out the
 * chunks, then expands them in order, each into a free buffer of a small ring (blocking
 * while none is free), publishes each (expanded, under the lock), and joins. One host
 * thread per device opens its device meanwhile, then takes chunks from one atomic
 * counter, waits for each to be expanded, keeps two in flight, and for each that ends
 * writes only its subtotals, calls task_done for its tasks and frees its buffer. The
 * engine plugs into the runtime machinery of runtime/run.h like the worker pool: its
 * stop is a run_stop over the solver's cancel flag (a hook halts it, a device fails it),
 * and it reports progress in the calling thread's slot of the solver's run_state. That
 * slot, the ring and the expansion state are shared under one mutex, taken a few times
 * per chunk (a chunk is thousands of tasks' worth of GPU time, so the lock is never hot);
 * every change a waiter may be waiting for is broadcast on one condition variable, stops
 * and device exits included, so that nothing hangs. */
#ifndef NQ_GPU_CTX_H
#define NQ_GPU_CTX_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/task.h"
#include "gpu/backend.h"
#include "gpu/gpu_run.h"
#include "gpu/search.h"
#include "runtime/run.h"

/* One ring buffer: the sub-tasks of one chunk and their counts. */
typedef struct gpu_chunk_buf {
    search_sub *subs;
    uint64_t *counts;
    uint32_t chunk; /* under lock: the chunk it holds while busy */
    int busy;       /* under lock: holds a chunk not yet finished or abandoned */
} gpu_chunk_buf;

typedef struct gpu_ctx {
    const gpu_job *job;
    const gpu_backend *be;
    /* Made by the calling thread before the device threads read them. */
    task *tasks;
    search_plan *plans;
    uint32_t n_plans;
    uint32_t *order;     /* the tasks to run, by id */
    uint32_t m;          /* how many */
    uint64_t *sub_begin; /* sub-tasks of order[j]: sub_begin[j] .. sub_begin[j+1]-1 */
    uint32_t *chunk_begin;
    uint32_t n_chunks;
    int rows; /* inner rows the host places per sub-task */
    int levels;
    uint64_t max_chunk_subs;
    gpu_chunk_buf *ring;
    int n_ring;
    /* Each task's result, written by the one thread that finishes it. */
    uint64_t *subtotal;
    uint8_t *done;
    uint64_t *fixed; /* d4_fixed_sum, once fixed_ok */
    uint8_t *fixed_ok;
    atomic_uint next_chunk;
    run_stop stop;     /* the solver's cancel; halted by a hook, failed by a device */
    int ready;         /* under lock: 1 once the chunks are laid out, -1 if never */
    uint32_t expanded; /* under lock: chunks whose sub-tasks are written */
    int expand_ended;  /* under lock: no further chunk will be expanded */
    int ring_busy;     /* under lock: buffers holding a chunk */
    int live;          /* under lock: device threads still running */
    pthread_mutex_t lock;
    pthread_cond_t cond; /* any change of the state under lock */
} gpu_ctx;

static inline int gpu_stopping(const gpu_ctx *c)
{
    return run_stopping(&c->stop);
}

/* The progress slot: the calling thread writes it before the device threads start, and
 * they write it under the lock, so it has one writer at a time. */
static inline run_slot *gpu_progress_slot(const gpu_ctx *c)
{
    return run_source_slot(c->job->rs);
}

#endif
