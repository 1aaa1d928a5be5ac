/* SIGINT / SIGTERM / SIGHUP for long counts and listings: the first one stops the workers
 * (nq_solver_cancel is async-signal-safe); more within 200 ms of it are the same stop (a
 * wrapper's signal to the process and to its group); a later one exits at once. */
#ifndef NQ_TOOLS_SIGNALS_H
#define NQ_TOOLS_SIGNALS_H

#include "nqueens/nqueens.h"

/* Install the handlers; the count in progress is whatever signals_target last named. */
void signals_install(void);
/* The solver a first signal cancels (NULL: none yet). A cancel only stops the run in
 * progress, so a signal that comes before the run has started is not lost only if the
 * run's callbacks check signals_caught() and cancel then (count_run's hooks and the
 * listing's board callback do). Once it returns, the solver named before is not
 * touched again: it may be destroyed. */
void signals_target(nq_solver *s);
/* The stop the first signal requests, for the steps before a count that take one
 * (nq_journal_open_stoppable, nq_task_set_describe_stoppable); NULL before
 * signals_install, or when it could not be made (those steps then see no signal). */
const nq_stop *signals_stop(void);
/* The signal that asked the run to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
int signals_caught(void);
/* After a step gave up on signals_stop(): the signal that requested it, SIGINT if none
 * is known yet (only a signal requests it). */
int signals_stopped_by(void);
/* Back to the default dispositions. */
void signals_restore(void);
/* A write past the file size limit (ulimit -f) fails with EFBIG, reported as a full disk
 * is, instead of SIGXFSZ killing the process in the middle of an output. */
void signals_file_limit_fails_writes(void);
/* "SIGINT", "SIGTERM", "SIGHUP" or "a signal", for messages. */
const char *signals_name(int sig);

#endif
