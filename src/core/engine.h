/* The engine interface: every engine is one descriptor, defined in the engine's own
 * file and listed in the engine table (engine_table.h), and the library (lib.c,
 * taskset.c, the runtimes) reaches engines only through it; what an engine can do (the
 * options it takes, its n range, whether auto picks it) is in the descriptor too, and
 * the tools ask nq_engine_describe, never the id. Adding an engine is its file, one row
 * in ENGINE_ROWS (engine_table.c), one enum value in include/nqueens/nqueens.h and its
 * source in meson.build (docs/engines.md).
 *
 * Settings an engine sees are checked (lib_check_settings, lib.h) and, except in
 * resolve, resolved: every automatic parameter (prefix_rows = 0) replaced by its value, so that
 * everything that names tasks (task count, source, task-set parameters) depends only on
 * the settings, never on the thread count of the run.
 *
 * A count runs in one of two ways. Most engines leave run NULL and are driven by the
 * worker pool (runtime/pool.c): the calling thread runs source, each worker makes its
 * scratch with worker_init in its own thread, then completes tasks with complete (and
 * unique) and frees the scratch with worker_free when the run ends. An engine with a
 * runtime of its own (the GPU) sets run instead, and is handed the settings as given,
 * automatic parameters included. */
#ifndef NQ_ENGINE_H
#define NQ_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/cpu.h"
#include "core/task.h"
#include "nqueens/nqueens.h"

struct run_state;

/* What a worker hands to complete and unique: the run's resolved settings, the scratch
 * its worker_init made (NULL without worker_init), and a way to ask whether the run is
 * stopping. */
typedef struct engine_worker {
    const nq_settings *s;
    void *scratch;
    int (*stopping)(const void *run); /* nonzero: the run is stopping */
    const void *run;
    const void *shared; /* what shared_init made for the run (NULL without it) */
} engine_worker;

/* Whether the run that w works for is stopping. A completion that may run for long
 * asks every million nodes or so, so that a stop is seen within a second. */
static inline int engine_stopping(const engine_worker *w)
{
    return w->stopping && w->stopping(w->run);
}

/* What complete returns. */
typedef enum engine_status {
    ENGINE_DONE = 0, /* *subtotal is the task's */
    ENGINE_STOPPED,  /* it saw engine_stopping and gave up: the task is not recorded */
    ENGINE_FAILED    /* it could not finish (no memory): the run fails with NQ_ENOMEM */
} engine_status;

struct engine_lister;

/* Which parts of a task an estimate times (engine_desc.complete_parts): every stride-th
 * in the engine's own order of the task's parts, from offset draw % stride, so that each
 * part is timed with probability 1 / stride. The engine lowers stride to the task's parts
 * where it has fewer (the number of parts is the task's, not chance's, so that keeps the
 * probability exact), counts the parts it completed and times them on the thread's CPU
 * clock, and times apart any work it did only to find its parts; what every part needs
 * (the join's top half-boards) it does whole. */
typedef struct engine_parts {
    /* in: wanted (>= 1); out: used, at most the task's parts (times the pieces' stride
     * where parted again: again_most) */
    uint64_t stride;
    uint64_t draw;        /* in: a random number */
    uint64_t timed;       /* out: the parts completed */
    double timed_seconds; /* out: their CPU time */
    double extra_seconds; /* out: CPU time a count of the task does not spend */
    /* out: the parts' CPU time each over its probability of being taken (stride times
     * timed_seconds where every part has the same; of parts parted again, only their
     * own parts' times, not the walk that found those) */
    double projected_seconds;
    /* in: where stride passes the task's parts, each part taken is parted again, one in
     * up to this many of its own pieces, so that stride comes back up to the parts times
     * this (the join: its bottom half-boards' pieces and blocks; a task of n = 27 has some
     * 20 parts of a second, 12 blocks each). 0 or 1: parts whole. row_parts parts again
     * by its own rule. */
    uint64_t again_most;
} engine_parts;

typedef struct engine_desc {
    const char *name; /* nq_engine_name; also the engine of a task set and journal */
    int id;           /* enum nq_engine: its row in engine_table */
    int built;        /* 0: left out of this build (NQ_EUNSUPPORTED), name and tasks known */

    /* What it can do, which nq_engine_describe reports (nq_engine_info says what each
     * means to a caller). */
    int min_n, max_n;        /* the boards it takes (max_n: its tables' limit); 0: 1, NQ_MAX_N */
    int auto_rank;           /* auto runs the built engine of highest rank whose range holds
                                n; 0: never picked by auto */
    int takes_prefix_rows;   /* settings.prefix_rows means something to it */
    int takes_devices;       /* it runs on the GPUs of settings.devices, not on CPU workers */
    int pins_workers;        /* settings.pin_threads binds its CPU workers */
    int takes_worker_memory; /* settings.worker_memory sizes its workers' working sets */
    /* The engine whose task ids and subtotals it has (a journal of one is the other's);
     * NULL: its own. */
    const struct engine_desc *task_family;
    /* What nq_list's runtime (runtime/list.c) runs for it: the prefixes and their
     * completions (core/lister.h); NULL: no listing. */
    const struct engine_lister *list;

    /* The peak bytes a count of resolved settings s allocates, its tables and every
     * worker's scratch, estimated without making them (nq_memory_estimate). NULL: a few
     * MB at most, never refused. */
    uint64_t (*memory_bytes)(const nq_settings *s);

    /* Fill the automatic parameters of s (those left at 0) as a count on threads workers
     * would choose them. nq_resolve_settings and task sets apply it. */
    void (*resolve)(nq_settings *s, int threads);
    /* The task-set parameters of resolved settings s, "key=value" joined by ','. The text
     * names the enumeration order too: a change of order must change the text. */
    void (*params_format)(const nq_settings *s, char *buf, size_t size);
    /* The reverse: set s's parameters from text, for board s->n; NQ_EINVAL if the text
     * is not one params_format writes (the caller then checks the round trip). */
    int (*params_parse)(const char *params, nq_settings *s);
    /* The number of tasks of resolved settings s; their ids are 0..count-1. */
    uint64_t (*task_count)(const nq_settings *s);
    /* The same within bound (core/board.h: the partial boards it may walk, and a stop),
     * giving up (nonzero) when the budget runs out or the stop comes, for an engine whose
     * count can take long (a deep prefix): a task set read from a journal is checked
     * with a budget, so that a forged header is refused at once, and a count's own walk
     * ends on a cancel. NULL: the count is cheap, task_count serves. */
    int (*task_count_bounded)(const nq_settings *s, board_bound *bound, uint64_t *tasks);
    /* Emit every task of resolved settings s through emit, in id order; stop when emit
     * returns nonzero. Returns the number emitted. Runs in the calling thread. */
    uint64_t (*source)(const nq_settings *s, task_emit_fn emit, void *user);
    /* Rows the source places, which nq_result.prefix_rows reports (NULL with run). */
    int (*placed_rows)(const nq_settings *s);

    /* The pool's part (NULL with run). Per-worker scratch memory, made in the worker's thread
     * before its first task and freed after its last, sized there for the largest task
     * of the run (shared, what shared_init made, tells it), so that complete does not
     * allocate; NULL worker_init: none. A NULL return fails the run with NQ_ENOMEM. */
    void *(*worker_init)(const nq_settings *s, const void *shared);
    void (*worker_free)(void *scratch);
    /* What all workers of one count share read-only (tables): made in the calling thread
     * before the workers start, freed after they end; NULL shared_init: nothing. It polls
     * stop (core/stop.h; NULL: none) if it can take over a second, and gives up on it.
     * A NULL return fails the run: NQ_ECANCELED if stop is set, else NQ_ENOMEM. */
    void *(*shared_init)(const nq_settings *s, const atomic_int *stop);
    void (*shared_free)(void *shared);
    /* Complete task t: its raw, unweighted subtotal into *subtotal, and ENGINE_DONE.
     * ENGINE_STOPPED when it saw engine_stopping(w) and gave up: the task is then not
     * recorded, so a resumed run does it again; ENGINE_FAILED when it could not finish
     * (the run fails with NQ_ENOMEM). Runs in the worker threads, concurrently; it
     * allocates only to grow its scratch past what worker_init sized, where that is a
     * measured reservation and not a bound (the join's lists), failing on no memory. */
    engine_status (*complete)(const engine_worker *w, const task *t, uint64_t *subtotal);
    /* The symmetry classes (OEIS A002562) task t contributes given its subtotal; NULL:
     * the engine does not know them (nq_result.has_unique = 0). Also called in the
     * calling thread for tasks a reuse hook supplies, with w->scratch NULL. */
    uint64_t (*unique)(const engine_worker *w, const task *t, uint64_t subtotal);
    /* complete's twin for an estimate whose tasks take longer than its units may: the
     * parts p names and what they all need, their raw subtotal into *subtotal (the
     * task's when p->stride comes back 1). The task's projected time is then its time
     * less p's extra and parts' seconds plus their projection (an unbiased
     * estimate of complete's time), so a part must be work that complete does once per
     * task, in the same way. NULL: tasks are timed whole. */
    engine_status (*complete_parts)(const engine_worker *w, const task *t, engine_parts *p,
                                    uint64_t *subtotal);
    /* The sum of unique over all tasks is this many times the classes (0 or 1: once).
     * Burnside's lemma gives eight times the classes as a sum over tasks that need not
     * each be a multiple of eight; a run of only some tasks then reports no classes. */
    int unique_scale;
    /* The vector paths (enum nq_simd, a CPU_SIMD_BIT set: core/cpu.h) this build carries
     * of its hot loops; NULL: an engine without vector paths. A count runs the path
     * settings.simd names, or for auto the widest this CPU runs (engine_simd): the
     * library's answers (nq_simd_built, _usable, _auto) are those of every built
     * engine's paths together. */
    unsigned (*simd_paths)(void);

    /* The expected cost of completing task t, in units of the engine's choosing (only
     * ratios between tasks of one task set mean anything), from what is cheap to compute:
     * a count's slices (nq_settings.slice_count) are cut where the running sum reaches
     * each 1/M of the whole, and a sampling estimator may stratify by it. shared is what
     * shared_init made for the same resolved settings (NULL without shared_init). Runs in
     * the calling thread, for every task: it must cost far less than the task (docs/
     * engines.md has the measured correlation and cost). Pure: the same task, the same
     * value, on every machine. NULL: every task costs 1. */
    double (*task_cost)(const void *shared, const task *t);

    /* A runtime of its own instead of the pool; NULL: the pool. It plugs into rs as the
     * pool does (runtime/run.h: progress, a run_stop over its cancel flag, the task
     * filter), and fills out whole. */
    int (*run)(const nq_settings *s, const nq_hooks *hooks, struct run_state *rs, nq_result *out);
} engine_desc;

/* The number of tasks of resolved settings s within bound (task_count_bounded's; an
 * engine whose count is cheap has none and ignores it): 0 and *tasks, or nonzero when
 * the budget ran out or the stop came. */
static inline int engine_task_count(const engine_desc *e, const nq_settings *s, board_bound *bound,
                                    uint64_t *tasks)
{
    if (e->task_count_bounded)
        return e->task_count_bounded(s, bound, tasks);
    *tasks = e->task_count(s);
    return 0;
}

/* The vector path a count of e with settings s runs (nq_result.simd): settings.simd's, or
 * for auto the widest of e's this CPU runs (cpu_simd_pick); NQ_SIMD_AUTO for an engine
 * without vector paths. -1 for a path e lacks or this CPU cannot run, which checked
 * settings never name. */
static inline int engine_simd(const engine_desc *e, const nq_settings *s)
{
    return e->simd_paths ? cpu_simd_pick(e->simd_paths(), s->simd) : NQ_SIMD_AUTO;
}

/* The bytes each worker's working set is sized to: settings.worker_memory, or its
 * default. */
static inline uint64_t engine_worker_bytes(const nq_settings *s)
{
    return s->worker_memory ? s->worker_memory : NQ_WORKER_MEMORY_DEFAULT;
}

/* The same for a count of e (nq_result.worker_memory): 0 for an engine without a working
 * set of its own (takes_worker_memory 0). */
static inline uint64_t engine_worker_memory(const engine_desc *e, const nq_settings *s)
{
    return e->takes_worker_memory ? engine_worker_bytes(s) : 0;
}

/* The expected cost of task t (engine_desc.task_cost), 1 for an engine without a model;
 * never negative. shared as for task_cost. */
static inline double engine_task_cost(const engine_desc *e, const void *shared, const task *t)
{
    double c = e->task_cost ? e->task_cost(shared, t) : 1.0;
    return c > 0 ? c : 0.0; /* a model's NaN or negative value counts as free */
}

#endif
