/* The arguments of `count N [options]`, parsed the same way for nqueens count and
 * nqueens-mpi count: board, output, engine and pool options, and the long-run options. */
#ifndef NQ_TOOLS_COUNT_ARGS_H
#define NQ_TOOLS_COUNT_ARGS_H

#include "args_parser.h"
#include "count_opts.h"
#include "count_run.h"

typedef struct count_args {
    int n;
    int json;
    int unique;
    count_opts o;
    count_run_opts r;
    long worker_timeout; /* nqueens-mpi: seconds a rank may send nothing; 0: no limit */
} count_args;

/* The entries of the options that nqueens count and nqueens-mpi count share, for a table. */
#define COUNT_ARGS_OPTIONS                                                                         \
    COUNT_OPTS_OPTIONS, COUNT_RUN_OPTIONS,                                                         \
        {OPT_JSON, "json", 'j', no_argument, NULL, "print one JSON object (see docs/json.md)",     \
         NULL,     NULL},                                                                          \
    {                                                                                              \
        OPT_UNIQUE, "unique", 'u', no_argument, NULL,                                              \
            "print the count up to symmetry (OEIS A002562)\ninstead of the total", NULL, NULL      \
    }
/* nqueens count's --slice (nqueens-mpi runs whole counts). */
#define COUNT_ARGS_OPT_SLICE                                                                       \
    {                                                                                              \
        OPT_SLICE, "slice", 0, required_argument, "K/M",                                           \
            "count only slice K of M (0 <= K < M <= 1000000), cut\n"                               \
            "by expected cost; nqueens merge adds the journals up",                                \
            NULL, NULL                                                                             \
    }
/* nqueens count's --task-times (nqueens-mpi's ranks time nothing). */
#define COUNT_ARGS_OPT_TASK_TIMES                                                                  \
    {                                                                                              \
        OPT_TASK_TIMES, "task-times", 0, required_argument, "FILE",                                \
            "write a CSV row per task run to FILE:\n"                                              \
            "task,predicted,cpu_seconds, and the serial setup\n"                                   \
            "(for bench/scaling-model)",                                                           \
            NULL, NULL                                                                             \
    }
/* count's table: the shared options, --slice and --task-times. */
extern const args_option count_args_slice_options[];

/* nqueens-mpi's --worker-timeout, and its default: minutes, far above the second or
 * two a rank goes between its messages. */
#define COUNT_ARGS_WORKER_TIMEOUT 300
#define COUNT_ARGS_OPT_WORKER_TIMEOUT                                                              \
    {                                                                                              \
        OPT_WORKER_TIMEOUT, "worker-timeout", 0, required_argument, "S",                           \
            "end the run when a rank sends nothing for S seconds\n"                                \
            "(stopped, hung, cut off); 0: no limit (default 300)",                                 \
            NULL, NULL                                                                             \
    }

/* Parse argv (argv[0] is the subcommand) for command c, whose options are
 * COUNT_ARGS_OPTIONS and any of the three above. Returns -1 when the count should run,
 * else the exit code (0 after the help or the version, EXIT_USAGE after a one-line
 * message). */
int count_args_parse(count_args *a, const args_command *c, int argc, char **argv);

#endif
