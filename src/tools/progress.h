/* The monitor thread of a long count or listing: redraws a progress line (or writes JSON
 * lines) on stderr and gives the journal its periodic fsync; and the options that ask
 * for it. */
#ifndef NQ_TOOLS_PROGRESS_H
#define NQ_TOOLS_PROGRESS_H

#include <pthread.h>
#include <stdint.h>

#include "args_parser.h"
#include "nqueens/nqueens.h"

enum { PROGRESS_AUTO = -1, PROGRESS_OFF = 0, PROGRESS_BAR = 1, PROGRESS_JSON = 2 };

/* What the display shows, taken a few times a second from whoever runs the count (one
 * process's solver in nqueens count, every rank's results in nqueens-mpi). */
typedef struct progress_snapshot {
    uint64_t tasks_done;       /* the journal's included */
    uint64_t tasks_total;      /* 0 until known */
    nq_u128 solutions;         /* weighted total so far, the journal's included */
    uint64_t tasks_computed;   /* by this run, not read from the journal: the rates */
    double solutions_computed; /* weighted, by this run */
} progress_snapshot;

/* Fills *out; called from the progress thread, so it must be safe against the count. */
typedef void (*progress_read_fn)(void *user, progress_snapshot *out);

/* A progress_read_fn for a run whose every task and solution one solver computed (no
 * journal): user is the const nq_solver *. */
void progress_read_solver(void *user, progress_snapshot *out);

typedef struct progress {
    int mode;
    int n;           /* the board: its OEIS total weighs the work done */
    int dumb;        /* bar: TERM=dumb (or none): no escape codes */
    int tty;         /* bar: stderr is a terminal (else plain lines) */
    size_t last_len; /* bar: the length of the line drawn last */
    int shown;       /* bar: a line was drawn (runs under a second draw none) */
    progress_read_fn read;
    void *user;
    nq_journal *journal; /* may be NULL */
    double t0, last_print;
    int stop, journal_failed;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    int started;
} progress;

/* Whether the terminal takes no escape codes (TERM=dumb, or no TERM at all). */
int progress_term_dumb(void);

/* The mode a PROGRESS_AUTO request means here: a bar when stderr is a terminal, else
 * nothing; any other mode is returned as it is. */
int progress_mode(int requested);

/* Start the thread if there is anything to do (a mode other than OFF, or a journal), for
 * a run on board n. The bar appears once the run has taken a second; on a terminal it
 * is a bar and the fields that fit its width whole (80 columns where it does not say),
 * drawn without escape codes where TERM is dumb, and anywhere else a plain line a
 * second. Its ETA comes from the share of the expected total found so far (OEIS,
 * n <= 27), which follows the work done far better than the task count, else from the
 * tasks. */
int progress_start(progress *p, int mode, int n, progress_read_fn read, void *user,
                   nq_journal *journal);
/* Stop it; print the final state in JSON mode and as a plain line; a terminal's bar is
 * erased, so that the result or a message starts on a clean line. */
void progress_stop(progress *p);

/* Take --progress[=bar|json] or --no-progress into *mode: 1 if it was one of them, 0 if
 * not, EXIT_USAGE on a bad value (already reported). */
int progress_take(int *mode, const char *cmd, int id, const char *value);

/* The words --progress= takes, and the option table entries; dflt says what happens
 * without them. */
const char *progress_word(int i, const char **about);
#define PROGRESS_OPTIONS(dflt)                                                                     \
    {OPT_PROGRESS,      "progress",    0,                                                          \
     optional_argument, "[=bar|json]", "progress on stderr (default: " dflt ")",                   \
     progress_word,     NULL},                                                                     \
    {                                                                                              \
        OPT_NO_PROGRESS, "no-progress", 0, no_argument, NULL, "no progress output", NULL, NULL     \
    }

#endif
