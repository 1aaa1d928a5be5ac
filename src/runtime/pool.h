/* The worker pool: runs a task source in the calling thread, feeds the queue, and
 * reduces the workers' weighted subtotals into one 128-bit total. */
#ifndef NQ_POOL_H
#define NQ_POOL_H

#include <stdint.h>

#include "core/engine.h"
#include "nqueens/nqueens.h"
#include "runtime/run.h"

/* One count through an engine of the table (one whose run is NULL). */
typedef struct pool_job {
    const engine_desc *engine;
    const nq_settings *s; /* resolved (engine_resolve): what the engine's calls see */
    int n_threads;
    int pin;
    const nq_hooks *hooks;
    uint64_t n_tasks; /* the engine's task_count, known before the run, for progress */
} pool_job;

/* Runs the job with rs's progress, cancel flag and task filter; fills total, unique
 * (when the engine knows it), tasks, n_threads and n_pinned. Returns NQ_OK,
 * NQ_ECANCELED, NQ_ECALLBACK, NQ_ENOMEM or NQ_ETHREAD. */
int pool_run(run_state *rs, const pool_job *job, nq_result *out);

#endif
