/* The checkpoint journal as both tools open it (nqueens count, and rank 0 of nqueens-mpi):
 * one format and one set of messages, so that a job one tool started the other can finish. */
#ifndef NQ_TOOLS_CHECKPOINT_H
#define NQ_TOOLS_CHECKPOINT_H

#include <stdio.h>

#include "count_opts.h"

/* What a run asks of a journal it resumes besides its task ids: a unique count (--unique),
 * the whole set's subtotals (--subtotals), and whether the tool runs a slice at all
 * (nqueens-mpi counts whole task sets). */
typedef struct checkpoint_use {
    int unique, subtotals, slices;
} checkpoint_use;

/* Before the task ids are fixed: if the journal at path exists, make *s run its task
 * set, and put it in *found (found->n = 0: a new journal). --engine d4 may finish a cuda
 * journal and the reverse (the same task ids): *found then keeps the journal's engine
 * name, which the run opens the journal with. A slice's journal resumes the slice, or is
 * refused here, before any work, when the run asks what a slice has not (use). Without
 * --engine, the engine-dependent option checks (count_opts_check with unique) are made
 * here, against the engine that will run. Returns 0 or an exit code (reported). */
int checkpoint_adopt(const char *path, const count_opts *o, const checkpoint_use *use,
                     nq_settings *s, nq_task_set *found);

/* Open (or create) the journal for the task set ts, saying on stderr what a resume found
 * (a torn record, tasks already done: *tasks_done). Returns 0 or an exit code (reported). */
int checkpoint_open(const char *path, const nq_task_set *ts, long sync_interval, nq_journal **j,
                    uint64_t *tasks_done);

/* After a signal stopped a step before the count (the journal's read, the task set's
 * description, what: "while reading the journal"): nothing was counted, a journal
 * (path, or NULL) is as it was, and the same command resumes. Returns 128 + the signal. */
int checkpoint_stopped_early(const char *path, int n, const char *what);

/* After a run that stopped: close the journal *j at path, which syncs it, and say on one
 * line why (NULL: the caller said it) and how many of the tasks it records (done), then
 * the command that resumes. */
void checkpoint_recorded(const char *path, nq_journal **j, int n, const char *why, uint64_t done,
                         uint64_t tasks);

/* After a signal (sig) stopped the run: with a journal (path and *j), close it, which
 * syncs it, and say how many of the tasks are recorded (done) and the command that
 * resumes; without one (path NULL), say that nothing was saved after done tasks.
 * Returns the exit code, 128 + sig. */
int checkpoint_interrupted(const char *path, nq_journal **j, int n, int sig, uint64_t done,
                           uint64_t tasks);

#endif
