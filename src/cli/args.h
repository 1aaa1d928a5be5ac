/* Command-line helpers shared by the subcommands: strict number parsing and the one
 * error format (one line on stderr, exit code 2). */
#ifndef NQ_CLI_ARGS_H
#define NQ_CLI_ARGS_H

#include <stdint.h>
#include <stdio.h>

#include "nqueens/nqueens.h"

enum { EXIT_RUN_FAILED = 1, EXIT_USAGE = 2 };

/* The program name that starts every message ("nqueens"; nqueens-mpi sets its own). */
extern const char *args_program;

/* Parse a whole decimal integer in [min, max]: no sign other than a leading '-', no
 * spaces, no trailing characters. Returns 0 on success, -1 otherwise. */
int args_parse_long(const char *s, long min, long max, long *out);

/* Print "nqueens[ cmd]: <message>" on stderr as one line; returns EXIT_USAGE. */
int args_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "nqueens[ cmd]: <message>" on stderr as one line; returns EXIT_RUN_FAILED. */
int args_run_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Options every counting subcommand shares. */
typedef struct count_opts {
    int threads;     /* 0 = all allowed CPUs */
    int engine;      /* enum nq_engine */
    int engine_set;  /* --engine was given (a resumed journal's engine yields to it) */
    int prefix_rows; /* 0 = auto */
    int pin;
    uint64_t devices; /* cuda engine: bit mask of GPUs, 0 = all */
} count_opts;

void count_opts_default(count_opts *o);
/* Parse the value of one shared option (name without dashes). Returns 1 if handled,
 * 0 if name is not a shared option, or EXIT_USAGE (after printing) on a bad value. */
int count_opts_parse(count_opts *o, const char *cmd, const char *name, const char *value);
/* Settings for board n from the options. */
void count_opts_settings(const count_opts *o, int n, nq_settings *s);

/* Parse a board size argument; 0 on success, else EXIT_USAGE after printing. */
int args_parse_n(const char *cmd, const char *s, int *n);

/* Warn once on stderr when the workers could not be pinned though pinning was asked. */
void args_warn_unpinned(const count_opts *o, const nq_result *r);

/* A small option walker: "--name value", "--name=value", "--flag", and positionals in
 * any order; "--" ends the options. */
typedef struct args_iter {
    int argc;
    char **argv;
    int i;
    int only_positional;
    char name[48];
    const char *inline_value; /* the part after '=', or NULL */
} args_iter;

enum { ARG_END = -1, ARG_POSITIONAL = 0, ARG_OPTION = 1 };

void args_iter_init(args_iter *it, int argc, char **argv);
/* Next item: ARG_OPTION (it->name set), ARG_POSITIONAL (*arg set), or ARG_END. */
int args_next(args_iter *it, const char **arg);
/* The value of the option just returned: inline or the next argument; NULL if missing. */
const char *args_value(args_iter *it);
/* Nonzero if the option just returned came with "=value" (a flag must not). */
int args_has_inline_value(const args_iter *it);

/* The shared loop for the counting options: returns 1 if handled, 0 if not one of
 * them, EXIT_USAGE on a bad or missing value (already reported). */
int count_opts_take(count_opts *o, const char *cmd, args_iter *it);

#define COUNT_OPTS_HELP                                                                            \
    "  --threads T        workers: 1..4096, or 'max' (default: every CPU this process "            \
    "may use)\n"                                                                                   \
    "  --engine E         d4 (default: all 8 symmetries, also counts unique), prefix, or cuda\n"   \
    "  --prefix-rows K    rows placed by the task source, 1..32 (default: chosen from n "          \
    "and threads)\n"                                                                               \
    "  --no-pin           do not pin workers to cores\n"                                           \
    "  --devices LIST     cuda engine: GPUs to use, e.g. 0 or 0,2 or 0-3 (default: all)\n"

#endif
