/* nqueens: count the solutions of the n-queens problem, fast and verified.
 *
 * The one public header of libnqueens. Handles are opaque; every call returns a status
 * (0 or a negative NQ_E* code, see nq_strerror); the library never prints and never exits.
 */
#ifndef NQUEENS_NQUEENS_H
#define NQUEENS_NQUEENS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(NQ_BUILDING_LIBRARY) && defined(__GNUC__)
#define NQ_API __attribute__((visibility("default")))
#else
#define NQ_API
#endif

#define NQ_VERSION_MAJOR 0
#define NQ_VERSION_MINOR 1
#define NQ_VERSION_PATCH 0

/* Largest board the engines accept: one bit per column in a 32-bit mask. */
#define NQ_MAX_N 32

/* Status codes: 0 is success, errors are negative. */
enum nq_status {
    NQ_OK = 0,
    NQ_EINVAL = -1,      /* an argument is out of range */
    NQ_ENOMEM = -2,      /* an allocation failed */
    NQ_ETHREAD = -3,     /* a worker thread could not be started */
    NQ_ECANCELED = -4,   /* the run was stopped by nq_solver_cancel */
    NQ_ECALLBACK = -5,   /* a hook asked the run to stop (e.g. a journal write failed) */
    NQ_EUNKNOWN = -6,    /* no published value is known for this n */
    NQ_EUNSUPPORTED = -7 /* the engine or feature is not built into this library */
};

enum nq_engine {
    NQ_ENGINE_PREFIX = 0 /* first-rows prefixes with mirror halving (the design engine) */
};

/* An unsigned 128-bit count: totals past n = 28 no longer fit in 64 bits. */
typedef struct nq_u128 {
    uint64_t lo, hi;
} nq_u128;

typedef struct nq_settings {
    int n;           /* board size, 1..NQ_MAX_N */
    int n_threads;   /* workers; 0 = every CPU this process may run on */
    int engine;      /* enum nq_engine */
    int prefix_rows; /* rows placed by the task source; 0 = chosen from n and threads */
    int pin_threads; /* nonzero: pin one worker per physical core first (hwloc) */
} nq_settings;

typedef struct nq_result {
    nq_u128 total;   /* solutions on the n x n board (OEIS A000170) */
    uint64_t tasks;  /* subproblems the task source produced */
    double seconds;  /* wall time of the count, monotonic clock */
    int n_threads;   /* workers that ran */
    int n_pinned;    /* workers bound to a CPU (0 without hwloc or --no-pin) */
    int prefix_rows; /* rows the task source placed */
    int engine;      /* enum nq_engine that ran */
} nq_result;

/* Optional hooks into a count; any member may be NULL. Task ids are dense, 0..tasks-1,
 * and depend only on (n, engine, prefix_rows), so they name the same subproblem in every
 * run: that is what makes journals, resumption and task-by-task cross-checks possible. */
typedef struct nq_hooks {
    void *user;
    /* Asked once per task before it is queued. Return 1 and set *subtotal to reuse a
     * subtotal computed earlier (the task is not run), 0 to run it. */
    int (*reuse)(void *user, uint64_t task_id, uint64_t *subtotal);
    /* Called from the worker threads, concurrently, as each task finishes, with its
     * unweighted subtotal. A nonzero return stops the run with NQ_ECALLBACK. */
    int (*task_done)(void *user, uint64_t task_id, uint64_t subtotal);
} nq_hooks;

typedef struct nq_solver nq_solver;

NQ_API void nq_default_settings(nq_settings *s);
NQ_API int nq_create_solver(nq_solver **out, const nq_settings *s);
NQ_API void nq_destroy_solver(nq_solver **s);

/* Count the solutions. hooks may be NULL. On NQ_ECANCELED or NQ_ECALLBACK, *out holds
 * what was counted before the stop (an incomplete total). */
NQ_API int nq_count(nq_solver *s, const nq_hooks *hooks, nq_result *out);

/* Ask a running nq_count to stop at the next task boundary. Async-signal-safe: it is one
 * atomic store, so a signal handler may call it. */
NQ_API void nq_solver_cancel(nq_solver *s);

/* Progress of the count running on s, safe to call from another thread at any time. */
typedef struct nq_progress {
    uint64_t tasks_done;
    uint64_t tasks_total; /* 0 until the task source has counted its tasks */
    nq_u128 partial_total;
} nq_progress;
NQ_API void nq_solver_progress(const nq_solver *s, nq_progress *p);

/* ---- Running part of a count (several processes or machines) ----------------------
 *
 * Task ids depend only on the board, the engine and its parameters, so processes that
 * agree on resolved settings can each run some of the ids and add up the subtotals. */

/* Replace s's automatic engine parameters (prefix_rows = 0) by what nq_count would pick
 * for s->n_threads workers (0 = every allowed CPU). Solvers made from a resolved copy
 * produce the same task ids whatever their own thread count. */
NQ_API int nq_resolve_settings(nq_settings *s);

/* Number of tasks a count with settings s runs: their ids are 0..*n_tasks-1. */
NQ_API int nq_task_count(const nq_settings *s, uint64_t *n_tasks);

/* Like nq_count, but run only the tasks ids[0..n_ids-1] (strictly ascending, each below
 * the task count; NQ_EINVAL otherwise). out->total is their weighted sum and out->tasks
 * is n_ids; hooks see only these ids, task_done with each unweighted subtotal. */
NQ_API int nq_count_tasks(nq_solver *s, const uint64_t *ids, size_t n_ids, const nq_hooks *hooks,
                          nq_result *out);

/* The published OEIS A000170 value for n (0..27), or NQ_EUNKNOWN. */
NQ_API int nq_known_total(int n, nq_u128 *out);

/* CPUs in this process's affinity mask (taskset, cgroups); at least 1. */
NQ_API int nq_available_cpus(void);

/* Decimal text of v into buf (at least 40 bytes); returns buf. */
NQ_API char *nq_u128_to_string(nq_u128 v, char *buf, size_t size);

NQ_API const char *nq_engine_name(int engine);
/* The engine called name, or NQ_EINVAL. */
NQ_API int nq_engine_from_name(const char *name);
NQ_API const char *nq_strerror(int status);
NQ_API const char *nq_version(void);

#ifdef __cplusplus
}
#endif

#endif /* NQUEENS_NQUEENS_H */
