/* The long-run side of nqueens count: --checkpoint, --sync-interval, --progress and
 * --subtotals, signals, and the exit codes that go with them. */
#ifndef NQ_TOOLS_COUNT_RUN_H
#define NQ_TOOLS_COUNT_RUN_H

#include "args_parser.h"
#include "count_opts.h"
#include "progress.h"

typedef struct count_run_opts {
    const char *checkpoint; /* journal path, or NULL */
    const char *subtotals;  /* CSV path, or NULL */
    const char *task_times; /* nqueens count's --task-times CSV path, or NULL */
    long sync_interval;     /* seconds between journal fsyncs */
    int progress;           /* PROGRESS_* */
} count_run_opts;

void count_run_default(count_run_opts *r);
/* Take option id: 1 if it is one of the above, 0 if not ours, EXIT_USAGE on a bad value
 * (already reported). */
int count_run_take(count_run_opts *r, const char *cmd, int id, const char *value);
/* Run the count for settings s with what r asks for (unique: --unique, for the checks
 * that wait for a journal's engine). Returns the exit code: 0, 1 (run or journal failed,
 * or a total that contradicts the published one; reported), 2, or 128 + the signal
 * that stopped it. */
int count_run(const count_run_opts *r, const char *cmd, const count_opts *o, int unique,
              nq_settings *s, nq_result *out);

/* The option table entries of the options above. */
#define COUNT_RUN_OPTIONS                                                                          \
    {OPT_CHECKPOINT,                                                                               \
     "checkpoint",                                                                                 \
     0,                                                                                            \
     required_argument,                                                                            \
     "FILE",                                                                                       \
     "record each finished task in FILE; the same command\nagain resumes after a crash or "        \
     "Ctrl-C",                                                                                     \
     NULL,                                                                                         \
     NULL},                                                                                        \
        {OPT_SYNC_INTERVAL,                                                                        \
         "sync-interval",                                                                          \
         0,                                                                                        \
         required_argument,                                                                        \
         "S",                                                                                      \
         "fsync the checkpoint at least every S seconds,\n0..86400 (default 5)",                   \
         NULL,                                                                                     \
         NULL},                                                                                    \
        PROGRESS_OPTIONS("a bar when stderr is a\nterminal and the run takes over a second"),      \
    {                                                                                              \
        OPT_SUBTOTALS, "subtotals", 0, required_argument, "FILE",                                  \
            "write a CSV row per task to FILE:\n"                                                  \
            "task,subtotal,weight,weighted (weighted adds up\n"                                    \
            "to the total); '-': stdout, the result to stderr",                                    \
            NULL, NULL                                                                             \
    }

#endif
