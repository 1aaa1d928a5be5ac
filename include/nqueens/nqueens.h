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
#define NQ_VERSION_MINOR 2
#define NQ_VERSION_PATCH 0

/* Largest board the engines accept: one bit per column in a 32-bit mask. */
#define NQ_MAX_N 32

/* Most workers a solver takes (nq_settings.n_threads): far beyond any machine, small
 * enough that a typo cannot ask for millions of threads. */
#define NQ_MAX_THREADS 4096

/* Status codes: 0 is success, errors are negative. */
enum nq_status {
    NQ_OK = 0,
    NQ_EINVAL = -1,       /* an argument is out of range */
    NQ_ENOMEM = -2,       /* an allocation failed */
    NQ_ETHREAD = -3,      /* a worker thread could not be started */
    NQ_ECANCELED = -4,    /* the run was stopped by nq_solver_cancel */
    NQ_ECALLBACK = -5,    /* a hook asked the run to stop (e.g. a journal write failed) */
    NQ_EUNKNOWN = -6,     /* no published value is known for this n */
    NQ_EUNSUPPORTED = -7, /* the engine or feature is not built into this library */
    NQ_EIO = -8,          /* a file could not be read or written (nq_journal_info.sys_errno) */
    NQ_ECORRUPT = -9,     /* a journal is damaged, not a journal, or contradicts itself */
    NQ_EMISMATCH = -10,   /* a journal belongs to another run (board, engine or task set) */
    NQ_ENODEV = -11,      /* no usable GPU: no device, no driver, or none of those selected */
    NQ_EDEVICE = -12,     /* the GPU or its driver reported an error during the run */
    NQ_EBUSY = -13,       /* another run (nq_count, nq_count_tasks, nq_list) is in progress
                             on this solver */
    NQ_EMEMORY = -14      /* the count would need more memory than settings.memory_limit
                             (nq_memory_estimate), refused before any is allocated */
};

enum nq_engine {
    NQ_ENGINE_PREFIX = 0, /* first-rows prefixes with mirror halving (the design engine) */
    NQ_ENGINE_D4 = 1,     /* border queens canonical under the square's 8 symmetries */
    NQ_ENGINE_CUDA = 2,   /* the d4 tasks completed on NVIDIA GPUs (builds with CUDA only) */
    NQ_ENGINE_JOIN = 3,   /* half-boards matched by their diagonals, not every solution visited */
    /* Not an engine: the library picks one for the board, the built engine of highest
     * nq_engine_info.auto_rank whose n range holds n (join up to n = 27, d4 beyond);
     * nq_result.engine and task sets name the one that ran. */
    NQ_ENGINE_AUTO = 100
};

/* The vector instruction paths of an engine's hot loops, where it has them (has_simd in
 * nq_engine_info: the join engine's half-boards and pair counting). The library carries
 * every path its compiler could build and picks one at run time, once per count, from
 * what the CPU has: a portable build is as fast as a native one. A path the CPU lacks is
 * refused (NQ_EUNSUPPORTED), never run. */
enum nq_simd {
    NQ_SIMD_AUTO = 0,   /* the fastest path this CPU runs (nq_simd_auto) */
    NQ_SIMD_SCALAR = 1, /* portable 64-bit code: any CPU */
    NQ_SIMD_AVX2 = 2,   /* x86-64 with AVX2, BMI1, BMI2 and POPCNT */
    NQ_SIMD_AVX512 = 3  /* x86-64 with AVX-512 F, BW, DQ, VL and VPOPCNTDQ, and AVX2's set */
};

/* An unsigned 128-bit count: totals past n = 28 no longer fit in 64 bits. */
typedef struct nq_u128 {
    uint64_t lo, hi;
} nq_u128;

/* Tuning of the cuda engine, for device sessions; 0 in a member means its built-in
 * value. The library reads no environment: nqueens and nqueens-mpi fill these from
 * NQ_CUDA_SUBTASKS, NQ_CUDA_CHUNKS, NQ_CUDA_CHUNK_SUBS, NQ_CUDA_BLOCKS_PER_SM and
 * NQ_CUDA_CARVEOUT. */
typedef struct nq_gpu_settings {
    uint64_t subtasks;       /* sub-tasks per GPU the automatic depth aims for (default
                              * 2^22, doubled per n beyond 22; when set, for every n) */
    uint64_t chunks;         /* chunks per GPU (default 16) */
    uint64_t chunk_subtasks; /* most sub-tasks in one chunk (default 2^21) */
    int blocks_per_sm;       /* cap on the resident blocks per multiprocessor */
    int carveout;            /* percent of the unified L1 preferred as shared memory
                              * (default: the driver's choice) */
} nq_gpu_settings;

typedef struct nq_settings {
    int n;           /* board size, 1..NQ_MAX_N */
    int n_threads;   /* workers, 0..NQ_MAX_THREADS; 0 = every CPU this process may run on */
    int engine;      /* enum nq_engine */
    int prefix_rows; /* rows placed by the task source; 0 = chosen from n and threads */
    int pin_threads; /* nonzero: pin one worker per physical core first (hwloc) */
    /* cuda engine: bit i selects GPU i (CUDA's numbering); 0 = every visible GPU. For
     * cuda, prefix_rows is the number of inner rows the host places per GPU sub-task. */
    uint64_t devices;
    nq_gpu_settings gpu; /* cuda engine tuning; all 0 (nq_default_settings): built-in */
    int simd;            /* enum nq_simd: the vector path of the hot loops; 0 = auto */
    /* The most memory a count may take, in bytes: nq_count and nq_count_tasks refuse
     * with NQ_EMEMORY a count whose nq_memory_estimate is larger. 0 = this machine's
     * physical memory; UINT64_MAX = no limit. */
    uint64_t memory_limit;
    /* Count only slice slice_index (0 <= slice_index < slice_count) of slice_count of
     * the tasks: a contiguous range of task ids cut so that every slice has about the
     * same expected cost (nq_slice_range). slice_count 0 (nq_default_settings): every
     * task. With a slice, automatic engine parameters are resolved as for
     * NQ_SLICE_WORKERS x slice_count workers (NQ_MAX_THREADS at most) whatever n_threads
     * says, so that the slices of one count, run anywhere, share one task set. */
    int slice_index, slice_count;
    /* The bytes each worker's own working set may take, where its engine has one
     * (nq_engine_info.takes_worker_memory: the join's lists of half-boards and its pair
     * counter's scratch, made and paired a piece at a time within it). 0 = the engine's
     * default, NQ_WORKER_MEMORY_DEFAULT, near a core's caches on a machine of hundreds
     * of cores; more makes longer pieces, which prune better from n = 25 on (256 MiB:
     * about 0.8x the CPU time at n = 26 and 27, docs/join.md), at that much more memory
     * per worker (nq_memory_estimate counts it). Else NQ_WORKER_MEMORY_MIN up to
     * NQ_WORKER_MEMORY_MAX. The count and its task ids are the same whatever it is. */
    uint64_t worker_memory;
} nq_settings;

#define NQ_WORKER_MEMORY_DEFAULT ((uint64_t)64 << 20)
#define NQ_WORKER_MEMORY_MIN ((uint64_t)4 << 20)
#define NQ_WORKER_MEMORY_MAX ((uint64_t)16 << 30)

/* Most slices of one count, and the workers per slice that automatic parameters are
 * resolved for (see nq_settings.slice_count). */
#define NQ_MAX_SLICES 1000000
#define NQ_SLICE_WORKERS 16

typedef struct nq_result {
    nq_u128 total;   /* solutions on the n x n board (OEIS A000170) */
    uint64_t tasks;  /* subproblems the task source produced */
    double seconds;  /* wall time of the count, monotonic clock */
    int n_threads;   /* workers that ran (cuda: GPUs) */
    int n_pinned;    /* workers bound to a CPU (0 without hwloc or --no-pin) */
    int prefix_rows; /* rows the task source placed (cuda: inner rows per sub-task) */
    int engine;      /* enum nq_engine that ran */
    nq_u128 unique;  /* solutions up to the 8 symmetries (OEIS A002562), if has_unique */
    int has_unique;  /* 1 when the engine counts symmetry classes (d4), 0 (prefix) */
    int simd;        /* enum nq_simd the hot loops ran; NQ_SIMD_AUTO (0) for an engine
                        without vector paths (all but join) */
    /* The start of a run that is not counting: planning the pinning (hwloc loads the
     * machine's topology, milliseconds; made while an engine makes its shared tables,
     * only what outlasts them is here), starting the workers and pinning them. seconds
     * starts once every worker is pinned, so that a small board's time is the count's,
     * not this; the cuda engine and nq_list leave it 0 and time from the call. */
    double setup_seconds;
    double user_seconds;   /* the process's CPU time (all its threads, getrusage) over the */
    double system_seconds; /* span of seconds, in user mode and in the kernel */
    uint64_t tasks_reused; /* tasks whose subtotal came from nq_hooks.reuse (a journal),
                              not counted by this run */
    nq_u128 reused_total;  /* their weighted share of total: this run counted
                              total - reused_total in seconds */
    /* A count of only some of the task set's set_tasks tasks: a slice, or nq_count_tasks
     * with fewer ids. total (and unique, where has_unique) are then that part's sums.
     * A slice ran the ids first_task .. end_task - 1 (tasks of them); a whole count has
     * 0 and set_tasks; nq_count_tasks leaves both 0. */
    int partial;
    uint64_t first_task, end_task, set_tasks;
    int slice_index, slice_count; /* the settings' slice; 0 and 0 without one */
    /* The bytes each worker's working set was sized to (settings.worker_memory, or its
     * default), for an engine that takes it (nq_engine_info.takes_worker_memory); 0
     * for the others. */
    uint64_t worker_memory;
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
/* What the steps before a count poll to give up early (see "Stopping the steps before
 * a count" below). */
typedef struct nq_stop nq_stop;

NQ_API void nq_default_settings(nq_settings *s);
NQ_API int nq_create_solver(nq_solver **out, const nq_settings *s);
NQ_API void nq_destroy_solver(nq_solver **s);

/* Count the solutions. hooks may be NULL. On NQ_ECANCELED or NQ_ECALLBACK, *out holds
 * what was counted before the stop (an incomplete total). One run at a time per solver:
 * while an nq_count, nq_count_tasks or nq_list runs on s, another one on s returns
 * NQ_EBUSY at once, with *out zeroed, and the run in progress is not disturbed. */
NQ_API int nq_count(nq_solver *s, const nq_hooks *hooks, nq_result *out);

/* Receives one solution: cols[r] is the 0-based column of the queen in row r, r < n.
 * cols is only valid during the call. A nonzero return stops the listing. */
typedef int (*nq_solution_fn)(void *user, const uint8_t *cols, int n);

/* List every solution, in lexicographic order of the column vectors (row 0 first),
 * whatever the thread count. fn runs in the calling thread only, one solution at a time,
 * while the workers search ahead; memory stays bounded however many solutions there are.
 * limit > 0 stops after that many solutions (NQ_OK); 0 lists them all. out->total is the
 * number of solutions passed to fn. A nonzero return from fn stops the run with
 * NQ_ECALLBACK; nq_solver_cancel stops it with NQ_ECANCELED. No mirror halving here:
 * settings.prefix_rows is the depth of the lexicographic task source (0 = auto).
 * nq_solver_progress follows the listing from another thread: see there. */
NQ_API int nq_list(nq_solver *s, nq_solution_fn fn, void *user, uint64_t limit, nq_result *out);

/* 1 if no rotation or reflection of the solution cols (as nq_solution_fn has it, n x n)
 * is a smaller column vector, else 0; NQ_EINVAL for cols NULL, n outside 1..NQ_MAX_N or
 * a column past n. Exactly one board of each symmetry class passes, the first of its
 * class in nq_list's order: listing with this filter gives each class once (A002562). */
NQ_API int nq_solution_canonical(const uint8_t *cols, int n);

/* Stop the run in progress on s (nq_count, nq_count_tasks or nq_list): at the next task
 * boundary, or sooner where the engine looks inside a task; it returns NQ_ECANCELED.
 * A cancel applies to the run in progress only. Made while no run is in progress (before
 * the first, or between two), it does nothing: the next run counts normally, and a
 * caller that wants a stop requested early to hold must check its own flag from inside
 * the run (a hook or the solution callback may call nq_solver_cancel). Only a cancel
 * that races with one run's end and the next one's start on the same solver may reach
 * the next run. Async-signal-safe: an atomic load and store, so a handler may call it. */
NQ_API void nq_solver_cancel(nq_solver *s);

/* Progress of the nq_count or nq_list running on s, safe to call from another thread at
 * any time; after the run it holds the run's final values, until the next run on s
 * starts again from zero. Each member only grows during a run.
 * nq_count: tasks finished (or reused through hooks) and their weighted total so far.
 * nq_list: tasks_done is the tasks whose solutions have all been passed to fn (they
 * finish in id order), partial_total the solutions passed to fn so far (updated every
 * few dozen solutions and at each task's end). tasks_total is known from the start,
 * except for an explicit prefix_rows with millions of tasks: 0 until the source has
 * made them all. When the listing completes, tasks_done = tasks_total = out->tasks and
 * partial_total = out->total. */
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
/* nq_task_count that gives up with NQ_ECANCELED once stop (NULL: none) is requested: the
 * join's count walks every column set of its top rows, seconds from n = 25 on. */
NQ_API int nq_task_count_stoppable(const nq_settings *s, const nq_stop *stop, uint64_t *n_tasks);

/* Like nq_count, but run only the tasks ids[0..n_ids-1] (strictly ascending, each below
 * the task count; NQ_EINVAL otherwise). out->total is their weighted sum and out->tasks
 * is n_ids; hooks see only these ids, task_done with each unweighted subtotal. The
 * solver's first run counts its tasks for that check (seconds for the join from n = 25
 * on), and nq_solver_cancel ends that count too; later runs reuse it. */
NQ_API int nq_count_tasks(nq_solver *s, const uint64_t *ids, size_t n_ids, const nq_hooks *hooks,
                          nq_result *out);

/* ---- Estimating a count before running it -----------------------------------------
 *
 * nq_estimate completes a random sample of the count's tasks in the calling thread, with
 * the engine's own completion, timing each on the thread's CPU clock, and projects the
 * CPU time of the whole count (what nq_result's user + system seconds would be) and its
 * wall time on the solver's threads. The tasks are split into strata of equal predicted
 * cost (the engine's cost model; without one, runs of consecutive task ids) and sampled
 * without replacement, round by round across the strata, until the time is up; the total
 * is a stratified ratio estimate with a finite-population variance. docs/estimate.md has
 * the method and how well it did against full counts. */

typedef struct nq_estimate_task {
    uint64_t id;        /* the task id, as in nq_hooks */
    uint64_t subtotal;  /* its unweighted subtotal, as nq_hooks.task_done sees it */
    uint32_t weight;    /* boards it stands for: subtotal * weight adds to the total */
    int stratum;        /* 0..strata-1 */
    double cpu_seconds; /* its completion's CPU time on this thread */
    /* 1: the whole task was completed. k > 1: a task too long for the sample's units,
     * of whose parts (the join's top pieces and middle columns) one in k was completed:
     * subtotal is theirs, cpu_seconds the task's projected time (docs/estimate.md) */
    uint64_t part_stride;
} nq_estimate_task;

typedef struct nq_estimate_options {
    double seconds;     /* wall time to sample for, > 0 (default 10); the tasks started
                           before it ends are finished */
    uint64_t seed;      /* the same seed, settings and max_tasks give the same sample */
    uint64_t max_tasks; /* stop once this many tasks are sampled (checked after each
                           sampling unit: past 1024 tasks, a block of consecutive ids);
                           0: only seconds limits */
    int max_strata;     /* 0: 64 */
    /* Relative uncertainty of the CPU time of a count as such, run to run, on this
     * machine, added to the interval in quadrature (a full count's own time varies
     * under other users' load); 0: none. Default 0.08: docs/estimate.md. */
    double timing_error;
    /* Called in the calling thread after each sampled task, NULL: not; a nonzero
     * return stops the estimate with NQ_ECALLBACK. */
    int (*sampled)(void *user, const nq_estimate_task *t);
    void *user;
    /* A task expected to take longer than this (CPU seconds) is timed by a share of its
     * parts, where the engine has parts (the join); 0: seconds / 32. INFINITY: every
     * task whole. */
    double part_seconds;
    /* Tasks priced and cut into strata at most: past this many, a seeded simple random
     * sample of them, from which the sample is drawn (two-phase sampling); 0: 2^18 a
     * second of seconds, 65,536 at least. Where the engine's tasks are short enough to
     * sample in blocks of neighbours, every task is priced whatever this says. */
    uint64_t max_priced;
} nq_estimate_options;

typedef struct nq_estimate_result {
    double cpu_seconds;        /* projected CPU time of the count: setup + tasks */
    double cpu_seconds_low;    /* 95% interval of it; NaN when the sample is too small */
    double cpu_seconds_high;   /* (fewer than two tasks) */
    double wall_seconds;       /* projected wall time on n_threads workers */
    double setup_cpu_seconds;  /* measured: the engine's shared tables and the task source */
    double max_task_seconds;   /* the largest task, projected (the tail of the wall time) */
    double sample_cpu_seconds; /* the sampled tasks' measured CPU time */
    double seconds;            /* wall time nq_estimate took */
    uint64_t tasks;            /* the count's tasks */
    uint64_t sampled;          /* tasks in the sample */
    nq_u128 sample_total;      /* their weighted subtotals */
    int strata;
    int n_threads;          /* the solver's workers, which the wall time is for */
    int usable_threads;     /* of them, as many as this process has CPUs (and tasks) */
    int engine;             /* enum nq_engine */
    int simd;               /* as nq_result.simd */
    uint64_t worker_memory; /* as nq_result.worker_memory */
    /* 0 for a sample; when every task fitted the time, the censuses timed (up to 9):
     * cpu_seconds takes their median, the interval at least their spread */
    int census_passes;
    uint64_t sampled_in_parts; /* of the sampled tasks, those timed by a share of their
                                  parts (sample_total leaves them out) */
    /* the tasks priced by the cost model and cut into strata: every task, or past
     * max_priced a seeded simple random sample of them, from which the sample is then
     * drawn and the total scaled (two-phase sampling: docs/estimate.md) */
    uint64_t priced_tasks;
} nq_estimate_result;

NQ_API void nq_default_estimate_options(nq_estimate_options *o);
/* Estimate what nq_count on s would take (engines driven by the worker pool: not cuda,
 * NQ_EUNSUPPORTED). A run on s like the others: NQ_EBUSY while one is in progress, and
 * nq_solver_cancel stops it within a task (NQ_ECANCELED, *out holds the estimate from
 * the sample so far). NQ_EINVAL for seconds <= 0 or not finite, timing_error < 0,
 * part_seconds < 0 or NaN. */
NQ_API int nq_estimate(nq_solver *s, const nq_estimate_options *o, nq_estimate_result *out);
/* The task ids of s's slice (nq_settings.slice_index of slice_count): first .. end - 1,
 * where the running sum of the engine's expected task costs reaches slice_index and
 * slice_index + 1 parts of slice_count of the whole; the slices of one count tile the
 * ids exactly, and some may be empty. Without a slice, 0 and the task count. Walks the
 * task source and prices every task, far less than a count (the engine's tables
 * included: the join engine makes them). The cut depends on this build's cost models;
 * a journal records the range, so that merging does not. */
NQ_API int nq_slice_range(const nq_settings *s, uint64_t *first, uint64_t *end);
/* The engine's expected cost of each task of a count with settings s (the model that
 * cuts slices and stratifies estimates: relative units, proportional to the expected
 * CPU time, 1 per task for an engine without a model), by id, into costs[0..n_tasks);
 * n_tasks must be nq_task_count's. The engine's shared tables are made for it (as for
 * nq_slice_range). NQ_EINVAL for another n_tasks. */
NQ_API int nq_task_costs(const nq_settings *s, double *costs, uint64_t n_tasks);

/* The published OEIS A000170 value for n (0..27), or NQ_EUNKNOWN. */
NQ_API int nq_known_total(int n, nq_u128 *out);

/* The published OEIS A002562 value (solutions up to symmetry) for n (0..27), or
 * NQ_EUNKNOWN. */
NQ_API int nq_known_unique(int n, nq_u128 *out);

/* CPUs in this process's affinity mask (taskset, cgroups); at least 1. */
NQ_API int nq_available_cpus(void);

/* The workers that settings with n_threads run (nq_settings.n_threads): n_threads itself,
 * or for 0 every CPU this process may use (nq_available_cpus); NQ_EINVAL outside
 * 0..NQ_MAX_THREADS. The one rule for 0, which the tools use for their messages too. */
NQ_API int nq_resolve_threads(int n_threads);

/* What the machine offers this process, as benchmark reports record it. Counts the
 * build cannot tell (physical cores without hwloc) are 0; strings may be empty. */
typedef struct nq_topology {
    int logical_cpus;       /* hardware threads online on the host */
    int physical_cores;     /* cores (hwloc); 0 if unknown */
    int allowed_cpus;       /* CPUs in this process's affinity mask */
    int numa_nodes;         /* NUMA nodes; 0 if unknown */
    char allowed_list[128]; /* the affinity mask as a CPU list, e.g. "0-3,8" */
    char cpu_model[96];     /* e.g. "AMD EPYC 9654 96-Core Processor" */
} nq_topology;
NQ_API int nq_topology_info(nq_topology *out);

/* Decimal text of v into buf; returns buf. 40 bytes always fit. When size is too small
 * for v's digits and the NUL, returns NULL and leaves buf an empty string (size > 0):
 * never a number with digits missing. */
NQ_API char *nq_u128_to_string(nq_u128 v, char *buf, size_t size);

NQ_API const char *nq_engine_name(int engine);
/* The largest n the engine takes (NQ_MAX_N, or less for an engine whose tables would
 * not fit: join), or NQ_EINVAL for an unknown engine. */
NQ_API int nq_engine_max_n(int engine);

/* What an engine can do, for a tool that offers options per engine: ask this, never
 * the engine's id or name. The ids are 0, 1, 2, ... up to the first that answers
 * NQ_EINVAL, plus NQ_ENGINE_AUTO. */
typedef struct nq_engine_info {
    int engine;       /* enum nq_engine, as asked */
    const char *name; /* nq_engine_name */
    int built;        /* 1: this library has it; 0: known, but nq_create_solver refuses it
                         with NQ_EUNSUPPORTED (its name, tasks and journals still work) */
    int min_n, max_n; /* the boards it takes */
    /* The engine whose task ids and subtotals it has: itself, or another (cuda has
     * d4's), so that a journal or subtotals of one serve the other. Auto: auto. */
    int task_family;
    int takes_prefix_rows;   /* settings.prefix_rows means something to it (the rows its
                                task source places; cuda: inner rows per GPU sub-task) */
    int takes_devices;       /* it runs on GPUs: settings.devices selects them and
                                nq_result.n_threads counts them; 0: CPU workers */
    int pins_workers;        /* settings.pin_threads binds its workers to cores */
    int has_simd;            /* settings.simd picks the vector path of its hot loops */
    int has_unique;          /* its counts report symmetry classes (nq_result.has_unique) */
    int can_list;            /* nq_list accepts it */
    int takes_worker_memory; /* settings.worker_memory sizes its workers' working sets */
    /* Auto's preference: auto counts with the built engine of highest rank whose
     * min_n..max_n holds n (and lists with the highest that can list); 0: only by name. */
    int auto_rank;
} nq_engine_info;

/* The capabilities of engine into *out: NQ_OK, also for an engine this build leaves
 * out (built = 0); NQ_EINVAL for an id that names none. For NQ_ENGINE_AUTO each
 * capability is what some engine auto may pick (a built one of rank > 0) has, the n
 * range their union, and auto_rank 0. */
NQ_API int nq_engine_describe(int engine, nq_engine_info *out);
/* The peak memory a count of s would take, in bytes (its engine's tables and every
 * worker's scratch, estimated without making them: docs/join.md compares it with
 * measured peaks), and into *limit the limit it is held to (settings.memory_limit, or
 * the machine's physical memory). NQ_OK, or the error nq_create_solver gives for s. */
NQ_API int nq_memory_estimate(const nq_settings *s, uint64_t *bytes, uint64_t *limit);
/* The engine called name, or NQ_EINVAL; NQ_EUNSUPPORTED for an engine this build
 * leaves out ("cuda" without CUDA). */
NQ_API int nq_engine_from_name(const char *name);
NQ_API const char *nq_strerror(int status);

/* "auto", "scalar", "avx2" or "avx512"; "unknown" for another value. */
NQ_API const char *nq_simd_name(int simd);
/* The path called name, or NQ_EINVAL. */
NQ_API int nq_simd_from_name(const char *name);
/* 1 when this library carries the path (auto: always), 0 when its compiler could not
 * build it (AVX2 and AVX-512 off x86-64). */
NQ_API int nq_simd_built(int simd);
/* 1 when the path is built and this CPU runs it (auto: always), 0 when not. */
NQ_API int nq_simd_usable(int simd);
/* The path auto picks on this CPU: the widest usable one. */
NQ_API int nq_simd_auto(void);
NQ_API const char *nq_version(void);

/* ---- Stopping the steps before a count -------------------------------------------
 *
 * Reading a large journal, describing some task sets and counting their tasks take
 * seconds before any solver runs, where nq_solver_cancel cannot reach. A stop (nq_stop,
 * declared with nq_solver) is a flag those steps poll (at least every few milliseconds
 * of work): once requested, they give up with NQ_ECANCELED and leave every file as it
 * was. A stop stays requested; make a new one for a new try. */

/* A new stop, not requested: NQ_OK, or NQ_ENOMEM. */
NQ_API int nq_stop_create(nq_stop **out);
/* Request the stop (NULL: nothing). Async-signal-safe: one atomic store, from any
 * thread or a signal handler. */
NQ_API void nq_stop_request(nq_stop *stop);
/* 1 if the stop was requested, 0 if not or for NULL. */
NQ_API int nq_stop_requested(const nq_stop *stop);
/* Free the stop; *stop becomes NULL. Nothing may poll it any more. */
NQ_API void nq_stop_destroy(nq_stop **stop);

/* ---- Task sets and the checkpoint journal ------------------------------------------
 *
 * A task set names everything that makes task ids deterministic: the board, the engine
 * and the engine's resolved parameters (never "auto"), plus the task count as a check.
 * A journal is a file that starts with a task set and then holds one checksummed record
 * per finished task, so that a run can be stopped and resumed, or written by several
 * processes' coordinator. The format is documented in docs/journal.md. */

typedef struct nq_task_set {
    int n;
    char engine[24]; /* nq_engine_name */
    char params[72]; /* engine parameters, "key=value" joined by ',' (e.g. "prefix_rows=3") */
    uint64_t tasks;  /* number of task ids, 0..tasks-1 */
    /* A slice of the set (nq_settings.slice_index of slice_count): its ids are
     * first_task .. end_task - 1. slice_count 0: the whole set, and all three 0. Two
     * slices of one set differ here only (nq_task_set_equal tells them apart). */
    uint32_t slice_index, slice_count;
    uint64_t first_task, end_task;
} nq_task_set;

/* The task set a solver with settings s will run (auto parameters resolved as nq_count
 * would resolve them, with n_threads = 0 meaning every allowed CPU). Describing walks
 * the task source, within a bound: a prefix depth whose source alone would visit more
 * than 2^26 partial boards (67 M tasks or more, or a source that does the search
 * itself, such as prefix_rows = n for n >= 16) is NQ_EINVAL. Settings are checked as
 * nq_create_solver checks them: NQ_EINVAL or NQ_EUNSUPPORTED where it would refuse. */
NQ_API int nq_task_set_describe(const nq_settings *s, nq_task_set *ts);
/* nq_task_set_describe that gives up with NQ_ECANCELED once stop (NULL: none) is
 * requested: the join's task count alone takes seconds from n = 25 on. */
NQ_API int nq_task_set_describe_stoppable(const nq_settings *s, const nq_stop *stop,
                                          nq_task_set *ts);
/* Set s's board, engine and engine parameters to those of ts, so that a resumed run
 * produces the same task ids whatever its thread count. NQ_EINVAL if ts is not one this
 * library can produce; the check costs at most the bounded walk of describe (well under
 * a second), whatever ts claims. */
NQ_API int nq_task_set_apply(const nq_task_set *ts, nq_settings *s);
/* nq_task_set_apply that gives up with NQ_ECANCELED once stop (NULL: none) is requested
 * (its check describes ts: seconds for the join from n = 25 on); s is then unchanged. */
NQ_API int nq_task_set_apply_stoppable(const nq_task_set *ts, const nq_stop *stop, nq_settings *s);
/* The symmetry weight of each task of ts (weights[id], id < ts->tasks): a task's
 * weighted subtotal, the subtotal nq_hooks.task_done reports times its weight, is its
 * share of the total. Weights are 1, 2, 4 or 8. NQ_EINVAL if ts is not a valid set. */
NQ_API int nq_task_set_weights(const nq_task_set *ts, uint8_t *weights);
/* Nonzero if a and b name the same task set, and the same slice of it. */
NQ_API int nq_task_set_equal(const nq_task_set *a, const nq_task_set *b);

/* What opening or reading a journal found; detail is one line of text for a person. */
typedef struct nq_journal_info {
    uint64_t records;    /* valid task records read */
    uint64_t tasks_done; /* distinct task ids among them */
    uint64_t torn_bytes; /* bytes of a torn last record that were cut off (0 if none) */
    uint64_t offset;     /* on NQ_ECORRUPT: byte offset of the bad part */
    int sys_errno;       /* on NQ_EIO: the errno of the failed call */
    nq_task_set found;   /* the task set in the file's header (when it could be read) */
    char detail[160];
} nq_journal_info;

typedef struct nq_journal nq_journal;

/* Read only the header of the journal at path into *ts. NQ_EIO with sys_errno ENOENT
 * when there is no such file; a zero-length file also counts as absent. Never blocks:
 * anything but a regular file (a FIFO, a device) is NQ_EIO with sys_errno EINVAL, and a
 * symbolic link is not followed (NQ_EIO, sys_errno ELOOP). */
NQ_API int nq_journal_peek(const char *path, nq_task_set *ts, nq_journal_info *info);

/* Open the journal at path for task set ts, creating it (atomically, header first) when
 * it is absent or empty. An existing journal is checked in full: a header for another
 * task set is NQ_EMISMATCH; a torn last record (a crash in mid-write) is cut off and
 * reported in info->torn_bytes; any other damage, records copied from another journal,
 * a record of a kind this build does not know, or one task id recorded with two
 * different subtotals, is NQ_ECORRUPT; a journal of another format version is
 * NQ_EUNSUPPORTED. Anything but a regular file is refused (NQ_EIO, sys_errno EINVAL),
 * and path itself is never followed if it is a symbolic link (NQ_EIO, sys_errno ELOOP).
 * The file is locked against a second writer from the moment it has its name: of
 * several processes or threads opening one path at once, one gets it and every other
 * gets NQ_EIO with sys_errno EWOULDBLOCK ("in use by another running count"). A new
 * journal is first written under a unique temporary name in the same folder (created
 * exclusively, never through a symbolic link) and then named path.
 * sync_interval: seconds between fsyncs of appended records (0 = after every record). */
NQ_API int nq_journal_open(nq_journal **out, const char *path, const nq_task_set *ts,
                           double sync_interval, nq_journal_info *info);
/* nq_journal_open that gives up with NQ_ECANCELED once stop (NULL: none) is requested
 * while an existing journal is read and checked (seconds for tens of millions of
 * records), with the file left as it was, info->detail saying so, and nothing to free. */
NQ_API int nq_journal_open_stoppable(nq_journal **out, const char *path, const nq_task_set *ts,
                                     double sync_interval, const nq_stop *stop,
                                     nq_journal_info *info);

/* Open the journal at path for reading only (nqueens merge): checked in full as
 * nq_journal_open checks it, against ts, or with ts NULL against nothing (the file's task
 * set is in info->found), but the file is never created, written or cut: no such file is
 * NQ_EIO with sys_errno ENOENT, an empty one NQ_ECORRUPT, and a torn last record is left
 * in place, reported in info->torn_bytes and info->detail. A writer holding the file is
 * NQ_EIO with sys_errno EWOULDBLOCK, as for nq_journal_open; readers share it. Lookups
 * work as on any handle; nq_journal_append is NQ_EINVAL. */
NQ_API int nq_journal_read(nq_journal **out, const char *path, const nq_task_set *ts,
                           nq_journal_info *info);
/* nq_journal_read that gives up with NQ_ECANCELED once stop (NULL: none) is requested
 * while the journal is read and checked (seconds for tens of millions of records), with
 * info->detail saying so and nothing to free. */
NQ_API int nq_journal_read_stoppable(nq_journal **out, const char *path, const nq_task_set *ts,
                                     const nq_stop *stop, nq_journal_info *info);

/* The subtotal recorded for task id: 1 and *subtotal set, or 0 if it is not recorded. */
NQ_API int nq_journal_lookup(const nq_journal *j, uint64_t id, uint64_t *subtotal);

/* Append one record; safe from several threads at once. fsyncs when the interval has
 * passed. After a write error every later append fails too (NQ_EIO), so a record can
 * never follow a torn one. An id that is recorded already (in the file, or appended
 * through j) with another subtotal is refused with NQ_ECORRUPT and nothing is written
 * (the journal stays usable); the same subtotal again is accepted. NQ_EINVAL: id is
 * not below the task count, or outside the journal's slice. Keeps each appended (id, subtotal) in
 * memory to tell. */
NQ_API int nq_journal_append(nq_journal *j, uint64_t id, uint64_t subtotal);

/* fsync now if anything was appended since the last one. */
NQ_API int nq_journal_sync(nq_journal *j);
/* fsync if records are pending and the interval has passed; for a timer thread, so that
 * a record waits at most about one interval even when no further task finishes. */
NQ_API int nq_journal_tick(nq_journal *j);

/* Hooks that skip recorded tasks and record finished ones; chain them in your own hooks
 * to add more (the CLI does, for --subtotals). */
NQ_API void nq_journal_hooks(nq_journal *j, nq_hooks *h);

/* Records appended by this handle, and the errno of its first failure (0 if none). */
NQ_API uint64_t nq_journal_appended(const nq_journal *j);
NQ_API int nq_journal_errno(const nq_journal *j);

/* The identity of the open journal file (st_dev and st_ino of its descriptor), so that a
 * caller can tell that another path it writes names the same file. NQ_EIO if fstat
 * fails, NQ_EINVAL without a journal. */
NQ_API int nq_journal_file_id(const nq_journal *j, uint64_t *dev, uint64_t *ino);

/* Sync, unlock and close; returns the status of the final sync. *j becomes NULL. */
NQ_API int nq_journal_close(nq_journal **j);

#ifdef __cplusplus
}
#endif

#endif /* NQUEENS_NQUEENS_H */
