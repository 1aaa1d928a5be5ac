/* What the three runtimes of a count or listing (the worker pool, the listing, the GPU
 * host) share, so that each plugs into the same machinery instead of keeping its own:
 * - run_state, one per solver: the progress slots nq_solver_progress reads, the cancel
 *   flag nq_solver_cancel sets, the task filter of nq_count_tasks and the pinning plan;
 * - run_stop, one per run: whether the run is stopping (canceled, or halted by itself)
 *   and why, which decides the status the run returns. */
#ifndef NQ_RUN_H
#define NQ_RUN_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/u128.h"
#include "nqueens/nqueens.h"

/* One per worker plus one for the calling thread, each on its own cache line so that
 * adding to it never bounces a line between cores. Each has one writer at a time. */
typedef struct run_slot {
    _Alignas(64) atomic_uint_fast64_t lo;
    atomic_uint_fast64_t hi;
    atomic_uint_fast64_t done;
    atomic_uint_fast64_t unique_lo, unique_hi; /* symmetry classes, engines that know them */
} run_slot;

typedef struct run_state {
    run_slot *slots;
    int n_slots;
    atomic_int cancel;
    atomic_uint_fast64_t tasks_total;
    /* When only is set, the next run takes only these task ids (strictly ascending) and
     * skips the rest of what the source emits: nq_count_tasks sets it around one nq_count,
     * so that a subset runs through whichever runtime the engine uses. */
    const uint64_t *only;
    uint64_t n_only;
    /* A slice (nq_settings.slice_count): the next run takes the ids first..end-1 only.
     * Set around one count, like only, and never together with it. */
    int ranged;
    uint64_t first, end;
    struct affinity *aff; /* pinning plan, made by the first pinned run (NULL: none) */
    int aff_planned;
    /* Of the run in progress, written by the calling thread only (run_begin_count
     * zeroes them): the wall and CPU seconds of its setup (nq_result.setup_seconds),
     * which the count's own times leave out, and the tasks and weighted total that the
     * reuse hook supplied. */
    double setup_seconds, setup_user, setup_system;
    uint64_t reused_tasks;
    u128 reused;
} run_state;

int run_state_init(run_state *rs, int n_threads);
void run_state_free(run_state *rs);

/* The pinning plan for n_threads workers, made once per solver (loading the topology
 * costs milliseconds, and nqueens-mpi runs many short counts on one solver); NULL when
 * pinning is unavailable. */
struct affinity *run_affinity(run_state *rs, int n_threads);

/* Whether a run over ids in ascending order wants task id (see only and first..end): 1
 * yes, 0 not this one, -1 none from here on. *cursor starts at 0 and is the run's place
 * in only. */
int run_wants(const run_state *rs, uint64_t *cursor, uint64_t id);
/* The tasks a run of n_tasks will take: n_tasks, or the filter's size. */
uint64_t run_wanted(const run_state *rs, uint64_t n_tasks);
/* Whether the run takes only some of the tasks (a filter or a range is set). */
int run_filtered(const run_state *rs);

/* Slot i (0..n_slots-2: workers; run_source_slot: the calling thread). */
static inline run_slot *run_state_slot(run_state *rs, int i)
{
    return &rs->slots[i];
}
static inline run_slot *run_source_slot(run_state *rs)
{
    return &rs->slots[rs->n_slots - 1];
}

/* Add a weighted total, and a count of tasks done, to a slot; its one writer calls it. */
void run_slot_add(run_slot *s, u128 total, uint64_t done);
void run_slot_add_unique(run_slot *s, u128 unique);

/* Clear the per-run figures above, before a count. */
void run_begin_count(run_state *rs);
/* Count one task's subtotal as supplied by the reuse hook (calling thread only). */
void run_note_reused(run_state *rs, u128 weighted);

/* Start a run's progress from nothing: every slot zero, tasks_total (0: not known yet). */
void run_progress_reset(run_state *rs, uint64_t tasks_total);
/* The task count, once a source that could not tell it up front knows it. */
void run_progress_total(run_state *rs, uint64_t tasks_total);
/* Snapshot for progress, racy but monotonic enough for display. */
void run_progress(const run_state *rs, nq_progress *p);
/* The slots summed once the run's threads are joined: total, unique and tasks done. */
void run_sum(const run_state *rs, u128 *total, u128 *unique, uint64_t *done);

/* The stop of one run. A cancel comes from the solver (nq_solver_cancel); a run halts by
 * itself through run_halt (a hook refused a task, a listing reached its limit: the
 * status counts only if the run is then incomplete) or run_fail (a thread, an
 * allocation or a device failed: the status counts in any case). The first status of
 * each kind is kept, except that an error replaces a halt's NQ_OK. */
typedef struct run_stop {
    const atomic_int *cancel;
    atomic_int halted;
    atomic_int reason;  /* run_halt's first status, RUN_NO_REASON if none */
    atomic_int failure; /* run_fail's first status, NQ_OK if none */
} run_stop;

#define RUN_NO_REASON 1 /* not a status: those are 0 or negative */

void run_stop_init(run_stop *st, run_state *rs);

/* Whether the run is stopping; cheap (two relaxed loads), for any thread at any time. */
static inline int run_stopping(const run_stop *st)
{
    return atomic_load_explicit(&st->halted, memory_order_relaxed) ||
           atomic_load_explicit(st->cancel, memory_order_relaxed);
}

/* The flag a blocked queue_push gives up on (a halt: the workers drain on a cancel). */
static inline const atomic_int *run_halt_flag(const run_stop *st)
{
    return &st->halted;
}

/* Whether the run halted by itself, and whether the solver canceled it. */
static inline int run_halted(const run_stop *st)
{
    return atomic_load_explicit(&st->halted, memory_order_relaxed);
}
static inline int run_canceled(const run_stop *st)
{
    return atomic_load_explicit(st->cancel, memory_order_relaxed);
}

/* The same through a void pointer, as engine_worker.stopping and the GPU backend's wait
 * take it. */
int run_stopping_fn(const void *st);

void run_halt(run_stop *st, int status);
void run_fail(run_stop *st, int status);

/* The status the run returns: a failure if there was one; NQ_OK if complete (a stop that
 * came after the last task changed nothing); else the halt's reason, or NQ_ECANCELED. */
int run_outcome(const run_stop *st, int complete);

#endif
