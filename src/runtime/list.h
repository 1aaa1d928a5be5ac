/* The listing runtime: every solution an engine's lister finds, streamed in
 * lexicographic order through a bounded window of tasks, however many workers search
 * ahead. */
#ifndef NQ_LIST_H
#define NQ_LIST_H

#include <stdint.h>

#include "core/lister.h"
#include "nqueens/nqueens.h"
#include "runtime/run.h"

typedef struct list_job {
    int n;
    int n_threads;
    int pin;
    int rows; /* rows placed by the lexicographic task source; 0: automatic */
    nq_solution_fn fn;
    void *user;
    uint64_t limit; /* 0 = no limit */
    /* The solver's cancel flag and pinning plan, and where the run shows how far it is,
     * for nq_solver_progress: the task count, and in the source's slot the tasks fully
     * delivered (done) and the boards delivered (lo). */
    run_state *rs;
} list_job;

/* Runs the job with lister's prefixes and completions; fills total (solutions passed to
 * fn), tasks, n_threads, n_pinned and prefix_rows. Returns NQ_OK, NQ_ECALLBACK,
 * NQ_ECANCELED, NQ_ENOMEM or NQ_ETHREAD. */
int list_run(const engine_lister *lister, const list_job *job, nq_result *out);

#endif
