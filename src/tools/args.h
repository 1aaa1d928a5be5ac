/* Command-line helpers shared by the subcommands: the option tables that getopt_long
 * parses and that the help is printed from, and the one error
 * format (one line on stderr, exit code 2). */
#ifndef NQ_TOOLS_ARGS_H
#define NQ_TOOLS_ARGS_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "nqueens/nqueens.h"

enum { EXIT_RUN_FAILED = 1, EXIT_USAGE = 2 };

/* The program name that starts every message ("nqueens"; nqueens-mpi sets its own). */
extern const char *args_program;

/* Print "nqueens[ cmd]: <message>" on stderr as one line; returns EXIT_USAGE. Control
 * bytes and bytes that are not UTF-8 (from a file name or an argument) are written as
 * \xHH, so that a message never drives the terminal, and a %s argument over 240 bytes
 * (a long path) keeps its first and last bytes around "...", so that the reason after
 * it is never cut. */
int args_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same; returns EXIT_RUN_FAILED. */
int args_run_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same line for a message that is not an error (a warning, a resume hint). */
void args_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same line, with nothing shortened: a command for a person to paste. */
void args_hint(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s as one shell word that a POSIX shell reads back as s: as it is when it needs no
 * quotes, else in '...', or in $'...' with \n, \t and \xHH escapes when it holds a byte
 * that the messages would escape (control bytes, bytes that are not UTF-8 text), since
 * inside '...' the escape would name another file. malloc'd; NULL without memory. */
char *args_shell_word(const char *s);

/* ---- option tables ---------------------------------------------------------------- */

/* Every option any command takes; a table names the ones a command accepts. */
enum args_id {
    OPT_HELP = 1,
    OPT_VERSION,
    OPT_THREADS,
    OPT_ENGINE,
    OPT_PREFIX_ROWS,
    OPT_NO_PIN,
    OPT_DEVICES,
    OPT_JSON,
    OPT_UNIQUE,
    OPT_CHECKPOINT,
    OPT_SYNC_INTERVAL,
    OPT_PROGRESS,
    OPT_NO_PROGRESS,
    OPT_SUBTOTALS,
    OPT_FORMAT,
    OPT_LIMIT,
    OPT_N,
    OPT_REPEAT,
    OPT_WARMUP,
    OPT_OUT,
    OPT_EXPORT,
    OPT_SIMD,
    OPT_MAX_MEMORY,
    OPT_WORKER_TIMEOUT,
    OPT_SECONDS,
    OPT_SEED,
    OPT_MAX_TASKS,
    OPT_SAMPLE,
    OPT_SLICE,
    OPT_TASK_TIMES,
    OPT_REFUSED, /* an option of other commands that this one explains it does not take */
};

typedef struct args_option {
    int id;            /* enum args_id */
    const char *name;  /* long name, without the dashes */
    int letter;        /* short option, or 0 */
    int has_arg;       /* no_argument, required_argument or optional_argument */
    const char *value; /* the value in the help: "T"; "[=bar|json]" for an optional one */
    /* The help text, lines after the first starting with '\n'; "{engines}" becomes the
     * engines this build knows and "{default_engine}" the library's default. NULL: not
     * shown (OPT_REFUSED entries). */
    const char *help;
    /* optional_argument: the words it takes, so that "--progress json" (a separate
     * word, which getopt leaves to the positionals) gets a hint. OPT_REFUSED: the
     * message. */
    const char *const *words;
    const char *refusal;
} args_option;

/* What a command accepts and what its help says. options ends with an entry whose name
 * is NULL; -h/--help and -V/--version are added to every command. */
typedef struct args_command {
    const char *name;  /* "count" */
    const char *usage; /* "N [options]" */
    const char *about; /* the lines between the usage line and the options */
    const args_option *options;
    const char *epilogue; /* after the options, or NULL */
} args_command;

/* Print c's help: the usage line, about, the options as a table and the epilogue. */
void args_print_help(const args_command *c, FILE *f);
/* Print the version, the git revision and the optional parts built in. */
void args_print_version(FILE *f);
/* "prefix, d4, cuda": every engine the library names, from nq_engine_name, with the
 * ones this build leaves out marked (the help lists only the built ones). */
const char *args_engine_names(void);

#define ARGS_MAX_OPTIONS 40

/* getopt_long over one command's table, with the messages of this tool. */
typedef struct args_parser {
    const args_command *cmd;
    int argc;
    char **argv;
    const char *value; /* the option's value (NULL if none), or the positional */
    int exit_code;     /* after ARG_EXIT */
    int rest;          /* after "--": the next positional's index; 0 before */
    int last_index;    /* the option just returned, for the optional-argument hint */
    int last_inline;   /* it came with '=' */
    int n_options;
    const args_option *options[ARGS_MAX_OPTIONS];
    struct option longopts[ARGS_MAX_OPTIONS + 1];
    char shortopts[3 * ARGS_MAX_OPTIONS + 3];
} args_parser;

enum { ARG_END = -1, ARG_POSITIONAL = -2, ARG_EXIT = -3 };

/* The first argument of a tool, before any command: OPT_HELP or OPT_VERSION for -h, -V,
 * --help, --version or a prefix of them (--ver), as after a command; 0 when a is no
 * option (a command, checked by the caller); -1 after a one-line usage message (an
 * unknown option, with a hint: -v is -V; see names the help to read). */
int args_top_option(const char *a, const char *see);

void args_begin(args_parser *p, const args_command *c, int argc, char **argv);
/* The next item: an option id (p->value its value, or NULL), ARG_POSITIONAL (p->value),
 * ARG_END, or ARG_EXIT when the command should end now with p->exit_code: help or the
 * version was printed (0), or a usage error was reported (EXIT_USAGE). Positionals come
 * in order among the options; after "--" everything is positional. */
int args_next(args_parser *p);

/* The option entries several commands share, so that they read the same everywhere. */
#define ARGS_OPT_THREADS                                                                           \
    {                                                                                              \
        OPT_THREADS, "threads", 't', required_argument, "T",                                       \
            "workers, 1..4096, or 'max': every CPU this process\nmay use (default)", NULL, NULL    \
    }
#define ARGS_OPT_ENGINE                                                                            \
    {                                                                                              \
        OPT_ENGINE, "engine", 'e', required_argument, "E",                                         \
            "one of {engines} (default: {default_engine})", NULL, NULL                             \
    }
#define ARGS_OPT_PREFIX_ROWS                                                                       \
    {                                                                                              \
        OPT_PREFIX_ROWS, "prefix-rows", 0, required_argument, "K",                                 \
            "rows the task source places, 1..32 (prefix and cuda\n"                                \
            "engines; default: from n and the threads)",                                           \
            NULL, NULL                                                                             \
    }
#define ARGS_OPT_NO_PIN                                                                            \
    {                                                                                              \
        OPT_NO_PIN, "no-pin", 0, no_argument, NULL, "do not pin workers to cores", NULL, NULL      \
    }
#define ARGS_OPT_DEVICES                                                                           \
    {                                                                                              \
        OPT_DEVICES, "devices", 0, required_argument, "LIST",                                      \
            "GPUs for the cuda engine: 0, 0,2 or 0-3 (default: all)", NULL, NULL                   \
    }
#define ARGS_OPT_SIMD                                                                              \
    {                                                                                              \
        OPT_SIMD, "simd", 0, required_argument, "P",                                               \
            "vector path of the join engine's loops: auto, avx512,\n"                              \
            "avx2 or scalar (default: auto, the widest this CPU has)",                             \
            NULL, NULL                                                                             \
    }
#define ARGS_OPT_MAX_MEMORY                                                                        \
    {                                                                                              \
        OPT_MAX_MEMORY, "max-memory", 0, required_argument, "SIZE",                                \
            "refuse a count that needs more memory than SIZE\n"                                    \
            "(512M, 8G, ...; default: this machine's; none: no limit)",                            \
            NULL, NULL                                                                             \
    }
#define ARGS_OPT_END                                                                               \
    {                                                                                              \
        0, NULL, 0, 0, NULL, NULL, NULL, NULL                                                      \
    }

/* ---- the counting options: threads, engine, prefix rows, pinning, devices ---------- */

typedef struct count_opts {
    int threads;     /* 0 = all allowed CPUs ('max') */
    int engine;      /* enum nq_engine */
    int engine_set;  /* --engine was given (a resumed journal's engine yields to it) */
    int prefix_rows; /* 0 = auto */
    int pin;
    uint64_t devices;      /* cuda engine: bit mask of GPUs, 0 = all */
    int devices_set;       /* --devices was given */
    int simd;              /* enum nq_simd */
    uint64_t memory_limit; /* settings.memory_limit: 0 = the machine's */
    int slice_index;       /* --slice K/M: K, and M (0: no slice; count only) */
    int slice_count;
} count_opts;

void count_opts_default(count_opts *o);
/* Take option id with its value: 1 if it is one of the above, 0 if not, EXIT_USAGE (after
 * the message) on a bad value. */
int count_opts_take(count_opts *o, const char *cmd, int id, const char *value);
/* Parse one engine name; the engine, or -1 after a usage message naming them all. */
int count_opts_engine(const char *cmd, const char *value);
/* Settings for board n from the options. */
void count_opts_settings(const count_opts *o, int n, nq_settings *s);
/* What engine can do (nq_engine_describe), all 0 for an id that names none: the tools
 * decide which options an engine takes from this, never from its id or name. */
nq_engine_info args_engine_info(int engine);
/* The engine called name, whether this build has it or not; NQ_EINVAL if none is. */
int args_engine_id(const char *name);
/* The engine a count of board n runs: engine itself, or for auto the one it picks
 * there (nq_resolve_settings). */
int args_engine_at(int engine, int n);
/* One rule for the options that only some engines use (--prefix-rows, --devices,
 * --simd): given with an engine that does not use them (args_engine_info), they are a
 * usage error, never ignored. Returns 0, or EXIT_USAGE after a one-line message. */
int count_opts_check_engine(const char *cmd, const count_opts *o, int engine);

/* Parse a board size argument; 0 on success, else EXIT_USAGE after printing. */
int args_parse_n(const char *cmd, const char *s, int *n);

/* Warn once on stderr when the workers could not be pinned though pinning was asked and
 * this build can pin (a build without hwloc leaves pinning out on purpose). */
void args_warn_unpinned(const count_opts *o, const nq_result *r);

#endif
