/* A count's plan and its files, as nqueens count and rank 0 of nqueens-mpi both make
 * them: before the count, a journal adopted, the settings resolved once, a count too
 * large for memory refused, the task set described and every output file opened; after
 * it, what its status means, the journal closed, the files written and the total
 * checked. One implementation, so that a journal one tool started the other finishes
 * with the same checks and messages. */
#ifndef NQ_TOOLS_COUNT_JOB_H
#define NQ_TOOLS_COUNT_JOB_H

#include <stdint.h>

#include "count_opts.h"
#include "count_run.h"
#include "subtotals.h"
#include "task_times.h"

/* What a tool asks of the plan besides its options. */
typedef struct count_job_use {
    int unique;     /* --unique, checked once a resumed journal's engine is known */
    int slices;     /* the tool runs slices (nqueens-mpi counts whole task sets) */
    int workers;    /* this process's workers (0: every CPU), for the memory check: the
                     * settings may be resolved for more (nqueens-mpi's, for every rank's) */
    int need_tasks; /* the task count even where no journal or subtotals need the task
                     * ids (nqueens-mpi's rank 0 hands the tasks out) */
} count_job_use;

typedef struct count_job {
    nq_settings rs;       /* the settings resolved once: what the messages and the task set use */
    nq_task_set ts;       /* with ids, the task set; else ts.tasks alone, with need_tasks */
    int ids;              /* ts is described: a journal or the subtotals need task ids */
    nq_journal *journal;  /* --checkpoint's, or NULL */
    uint64_t done_before; /* tasks the journal held when it was opened */
    subtotals_file sf;
    task_times tt;
} count_job;

/* How a count ended, for count_job_end. */
typedef struct count_end {
    int status;            /* the count's: NQ_OK, NQ_ECANCELED, ... */
    int signal;            /* the signal that stopped it, or 0 */
    const nq_result *out;  /* its result; out->tasks the tasks it made */
    uint64_t computed;     /* the tasks it computed, said where no journal records them */
    const uint64_t *subs;  /* every task's subtotal, by id, for --subtotals; or NULL */
    int refused;           /* the journal refused a subtotal that contradicts its record, */
    uint64_t refused_task; /* that of this task */
} count_end;

/* Before the count of settings s (as asked; a resumed journal's task set is put in *s):
 * everything above, into *j (zeroed by the caller), so that nothing fails after the
 * count but the count. Returns 0 or an exit code (reported); count_job_close releases
 * *j either way. */
int count_job_begin(count_job *j, const char *cmd, const count_run_opts *r, const count_opts *o,
                    const count_job_use *use, nq_settings *s);

/* After the count: a message for anything but a count that completed (a journal that
 * refused or failed a write, a signal, the count's failure), else the journal closed,
 * the subtotals and task times written, and the total checked against the published
 * one. Returns the exit code: 0, 1 (reported), or 128 + the signal. */
int count_job_end(count_job *j, const char *cmd, const count_run_opts *r, const count_end *e);

/* Close the journal and drop the output files that were not written. */
void count_job_close(count_job *j);

#endif
