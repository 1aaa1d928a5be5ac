/* The counting options that several commands share (threads, engine, prefix rows,
 * pinning, devices, vector path, memory): their option table entries, the settings they
 * make, and the checks made before a run of what the engine that runs takes. */
#ifndef NQ_TOOLS_COUNT_OPTS_H
#define NQ_TOOLS_COUNT_OPTS_H

#include <stdint.h>

#include "args_help.h"
#include "args_parser.h"
#include "nqueens/nqueens.h"

/* The words --threads and --max-memory take besides numbers: max, none. */
const char *count_opts_thread_word(int i, const char **about);
const char *count_opts_memory_word(int i, const char **about);

/* The option entries several commands share, so that they read the same everywhere. */
#define ARGS_OPT_THREADS                                                                           \
    {                                                                                              \
        OPT_THREADS, "threads", 't', required_argument, "T",                                       \
            "workers, 1..{max_threads}, or 'max': every CPU this process\nmay use (default)",      \
            count_opts_thread_word, NULL                                                           \
    }
#define ARGS_OPT_ENGINE                                                                            \
    {                                                                                              \
        OPT_ENGINE, "engine", 'e', required_argument, "E",                                         \
            "one of {engines} (default: {default_engine})", args_engine_word, NULL                 \
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
            "vector path of an engine's hot loops, where it has them\n"                            \
            "(join): auto, avx512, avx2 or scalar (default: auto, the\n"                           \
            "widest this CPU has)",                                                                \
            args_simd_word, NULL                                                                   \
    }
#define ARGS_OPT_MAX_MEMORY                                                                        \
    {                                                                                              \
        OPT_MAX_MEMORY, "max-memory", 0, required_argument, "SIZE",                                \
            "refuse a count that needs more memory than SIZE\n"                                    \
            "(512M, 8G, ...; default: this machine's; none: no limit)",                            \
            count_opts_memory_word, NULL                                                           \
    }
#define ARGS_OPT_WORKER_MEMORY                                                                     \
    {                                                                                              \
        OPT_WORKER_MEMORY, "worker-memory", 0, required_argument, "SIZE",                          \
            "memory each worker's lists may take (join): 4M to 16G\n"                              \
            "(default: 64M; more prunes better from n = 25 on)",                                   \
            NULL, NULL                                                                             \
    }
/* --devices in the table of a command that runs on the CPU alone: refused, saying so
 * (what: "list runs on the CPU"). */
#define ARGS_OPT_REFUSED_DEVICES(what)                                                             \
    {                                                                                              \
        OPT_REFUSED, "devices", 0, required_argument, NULL, NULL, NULL,                            \
            what " (--devices is for the cuda engine of count and bench)"                          \
    }

/* Every counting option, for the tables of the commands that count as count does (count,
 * verify, nqueens-mpi count): a new one is added here, and parsed and turned into
 * settings in count_opts.c. */
#define COUNT_OPTS_OPTIONS                                                                         \
    ARGS_OPT_THREADS, ARGS_OPT_ENGINE, ARGS_OPT_PREFIX_ROWS, ARGS_OPT_NO_PIN, ARGS_OPT_DEVICES,    \
        ARGS_OPT_SIMD, ARGS_OPT_MAX_MEMORY, ARGS_OPT_WORKER_MEMORY

typedef struct count_opts {
    int threads;     /* 0 = all allowed CPUs ('max') */
    int engine;      /* enum nq_engine */
    int engine_set;  /* --engine was given (a resumed journal's engine yields to it) */
    int prefix_rows; /* 0 = auto */
    int pin;
    uint64_t devices;       /* cuda engine: bit mask of GPUs, 0 = all */
    int devices_set;        /* --devices was given */
    int simd;               /* enum nq_simd */
    uint64_t memory_limit;  /* settings.memory_limit: 0 = the machine's */
    uint64_t worker_memory; /* settings.worker_memory: 0 = the engine's default */
    int slice_index;        /* --slice K/M: K, and M (0: no slice; count only) */
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
/* The checks made before a run of the options with o->engine: --unique needs an engine
 * that counts symmetry classes, and the options of count_opts_check_engine one that uses
 * them. Returns 0 or EXIT_USAGE after a one-line message. */
int count_opts_check(const char *cmd, const count_opts *o, int unique);
/* Before the run of a slice (slice: where it comes from, "--slice" or "journal F is of
 * slice K/M"): a slice's share is no count of classes, and the subtotals are of a whole
 * set. Returns 0 or EXIT_USAGE after a one-line message. */
int count_opts_check_slice(const char *cmd, const char *slice, int unique, int subtotals);
/* Usage error (reported, EXIT_USAGE) when the engine does not take board n, or when o
 * (NULL: not checked) has a --simd that the engine counting board n (auto's pick
 * included) has no use for. */
int count_opts_check_n(const char *cmd, const count_opts *o, int engine, int n);

/* Warn once on stderr when the workers could not be pinned though pinning was asked and
 * this build can pin (a build without hwloc leaves pinning out on purpose). */
void args_warn_unpinned(const count_opts *o, const nq_result *r);

#endif
