/* SIGINT / SIGTERM for long counts and listings: the first one stops the workers at the next task
 * boundary (nq_solver_cancel is async-signal-safe); a second one exits at once. */
#ifndef NQ_CLI_SIGNALS_H
#define NQ_CLI_SIGNALS_H

#include "nqueens/nqueens.h"

/* Install the handlers; the count in progress is whatever signals_target last named. */
void signals_install(void);
/* The solver a first signal cancels (NULL: none yet). If a signal already came, cancels
 * s at once so that a signal between "create" and "count" is never lost. */
void signals_target(nq_solver *s);
/* The signal that asked the run to stop (SIGINT, SIGTERM), or 0. */
int signals_caught(void);
/* Back to the default dispositions. */
void signals_restore(void);
/* "SIGINT", "SIGTERM" or "a signal", for messages. */
const char *signals_name(int sig);

#endif
