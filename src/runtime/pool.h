/* The worker pool: runs a task source in the calling thread, feeds the queue, and
 * reduces the workers' weighted subtotals into one 128-bit total. */
#ifndef NQ_POOL_H
#define NQ_POOL_H

#include <stdatomic.h>
#include <stdint.h>

#include "engines/engine.h"
#include "nqueens/nqueens.h"

/* One per worker plus one for the task source (reused subtotals), each on its own
 * cache line so that adding to it never bounces a line between cores. */
typedef struct pool_slot {
    _Alignas(64) atomic_uint_fast64_t lo;
    atomic_uint_fast64_t hi;
    atomic_uint_fast64_t done;
    atomic_uint_fast64_t unique_lo, unique_hi; /* symmetry classes, engines that know them */
} pool_slot;

typedef struct pool_state {
    pool_slot *slots;
    int n_slots;
    atomic_int cancel;
    atomic_uint_fast64_t tasks_total;
    /* When only is set, the next run feeds only these task ids (strictly ascending) and
     * skips the rest of what the source emits: nq_count_tasks sets it around one nq_count,
     * so that a subset runs through whichever engine's source nq_count picks. */
    const uint64_t *only;
    uint64_t n_only;
    struct affinity *aff; /* pinning plan, made by the first pinned run (NULL: none) */
    int aff_planned;
} pool_state;

/* Whether a run over ids in ascending order wants task id (see only): 1 yes, 0 not this
 * one, -1 none from here on. *cursor starts at 0 and is the run's place in only. */
int pool_wants(const pool_state *ps, uint64_t *cursor, uint64_t id);

/* One count through an engine of the table (one whose run is NULL). */
typedef struct pool_job {
    const engine_desc *engine;
    const nq_settings *s; /* resolved (engine_resolve): what the engine's calls see */
    int n_threads;
    int pin;
    const nq_hooks *hooks;
    uint64_t n_tasks; /* the engine's task_count, known before the run, for progress */
} pool_job;

int pool_state_init(pool_state *ps, int n_threads);
void pool_state_free(pool_state *ps);
/* Runs the job; fills total, unique (when the engine knows it), tasks, n_threads and
 * n_pinned. Returns NQ_OK, NQ_ECANCELED, NQ_ECALLBACK, NQ_ENOMEM or NQ_ETHREAD. */
int pool_run(pool_state *ps, const pool_job *job, nq_result *out);
/* Snapshot for progress, racy but monotonic enough for display. */
void pool_progress(const pool_state *ps, nq_progress *p);
/* Start a run's progress from nothing: every slot zero, tasks_total (0: not known yet). */
void pool_progress_reset(pool_state *ps, uint64_t tasks_total);

/* The calling thread's own slot (the task source's), after the workers' ones. */
static inline pool_slot *pool_source_slot(pool_state *ps)
{
    return &ps->slots[ps->n_slots - 1];
}

#endif
