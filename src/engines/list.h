/* The listing engine: every solution, streamed in lexicographic order through a
 * bounded window of tasks, however many workers search ahead. */
#ifndef NQ_LIST_H
#define NQ_LIST_H

#include <stdint.h>

#include "nqueens/nqueens.h"
#include "runtime/run.h"

typedef struct list_job {
    int n;
    int n_threads;
    int pin;
    int rows; /* rows placed by the lexicographic task source; 0 = list_auto_rows */
    nq_solution_fn fn;
    void *user;
    uint64_t limit; /* 0 = no limit */
    /* The solver's cancel flag and pinning plan, and where the run shows how far it is,
     * for nq_solver_progress: the task count, and in the source's slot the tasks fully
     * delivered (done) and the boards delivered (lo). */
    run_state *rs;
} list_job;

/* Runs the job; fills total (solutions passed to fn), tasks, n_threads, n_pinned and
 * prefix_rows. Returns NQ_OK, NQ_ECALLBACK, NQ_ECANCELED, NQ_ENOMEM or NQ_ETHREAD. */
int list_run(const list_job *job, nq_result *out);

/* Prefixes of rows rows (all columns, no symmetry) on board n: the task count, or cap
 * if there are at least that many (counting stops there). */
uint64_t list_prefix_count(int n, int rows, uint64_t cap);

/* Rows deep enough that there are plenty of tasks per worker and, where the total is
 * known, each task's output fits comfortably in its buffer; *tasks is their count. */
int list_auto_rows(int n, int threads, uint64_t *tasks);

#endif
