/* The arguments of `count N [options]`, parsed the same way for nqueens count and
 * nqueens-mpi count: board, output, engine and pool options, and the long-run options. */
#ifndef NQ_CLI_COUNT_ARGS_H
#define NQ_CLI_COUNT_ARGS_H

#include "args.h"
#include "count_run.h"

typedef struct count_args {
    int n;
    int json;
    int unique;
    count_opts o;
    count_run_opts r;
} count_args;

/* The options of count, for a command's table (args_command.options). */
extern const args_option count_args_options[];

/* Parse argv (argv[0] is the subcommand) for command c, whose options are
 * count_args_options. Returns -1 when the count should run, else the exit code (0 after
 * the help or the version, EXIT_USAGE after a one-line message). */
int count_args_parse(count_args *a, const args_command *c, int argc, char **argv);

#endif
