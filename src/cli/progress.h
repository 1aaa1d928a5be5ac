/* The monitor thread of a long count: redraws a progress line (or writes JSON lines) on
 * stderr and gives the journal its periodic fsync. */
#ifndef NQ_CLI_PROGRESS_H
#define NQ_CLI_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "nqueens/nqueens.h"

enum { PROGRESS_AUTO = -1, PROGRESS_OFF = 0, PROGRESS_BAR = 1, PROGRESS_JSON = 2 };

/* Counters the count's hooks keep for the display: tasks taken from the journal and
 * tasks computed by this process, each with its unweighted subtotal sum. */
typedef struct progress_counts {
    atomic_uint_fast64_t reused, reused_sum, computed, computed_sum;
} progress_counts;

typedef struct progress {
    int mode;
    const nq_solver *sv;
    nq_journal *journal; /* may be NULL */
    const progress_counts *counts;
    double t0, last_print;
    int stop, journal_failed;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    int started;
} progress;

/* Start the thread if there is anything to do (a mode other than OFF, or a journal). */
int progress_start(progress *p, int mode, const nq_solver *sv, nq_journal *journal,
                   const progress_counts *counts);
/* Stop it; in BAR and JSON modes print the final state (and end the bar's line). */
void progress_stop(progress *p);

#endif
