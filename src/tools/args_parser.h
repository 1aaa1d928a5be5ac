/* The parser of every command's arguments: the option tables that getopt_long parses and
 * that the help is printed from (args_help.h), and the walk over argv with this tool's
 * messages for what it refuses. */
#ifndef NQ_TOOLS_ARGS_PARSER_H
#define NQ_TOOLS_ARGS_PARSER_H

#include <getopt.h>
#include <stddef.h>

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
    OPT_WORKER_MEMORY,
    OPT_WORKER_TIMEOUT,
    OPT_SECONDS,
    OPT_SEED,
    OPT_MAX_TASKS,
    OPT_SAMPLE,
    OPT_SLICE,
    OPT_TASK_TIMES,
    OPT_REFUSED, /* an option of other commands that this one explains it does not take */
};

/* A fixed set of words an option takes: word i (from 0), or NULL past the last. about,
 * when not NULL, gets what the word means for the help (NULL: nothing to add). A
 * function, so that a set can be what this build has (its engines) or a table's names
 * (list's formats): one list for the parser, the help and the completions. */
typedef const char *args_words(int i, const char **about);

/* The args_words of a NULL-terminated list: words[i] (about NULL), or NULL past it. */
const char *args_word_at(const char *const *words, int i, const char **about);
/* The head of each row of a table whose rows name words (list's formats, bench's): the
 * table is an args_words through args_row_word, its own rows holding the rest. */
typedef struct args_word_row {
    const char *name;
    const char *about; /* for the help, lines after the first starting with '\n' */
} args_word_row;
/* Row i's word of a table of count rows of size bytes each, every one starting with
 * an args_word_row; NULL past the last. */
const char *args_row_word(const void *rows, size_t size, size_t count, int i, const char **about);

typedef struct args_option {
    int id;            /* enum args_id */
    const char *name;  /* long name, without the dashes */
    int letter;        /* short option, or 0 */
    int has_arg;       /* no_argument, required_argument or optional_argument */
    const char *value; /* the value in the help: "T"; "[=bar|json]" for an optional one */
    /* The help text, lines after the first starting with '\n'; "{engines}" becomes the
     * engines this build knows, "{default_engine}" the library's default,
     * "{max_threads}" NQ_MAX_THREADS and "{words}" the words below, a line each with
     * what they mean. NULL: not shown (OPT_REFUSED entries). */
    const char *help;
    /* The words it takes where they are a fixed set, or NULL (a number, a file): what
     * nqueens --list-values prints for the completions, and for an optional argument
     * the words that get a hint when they come apart ("--progress json", which getopt
     * leaves to the positionals). */
    args_words *words;
    const char *refusal; /* OPT_REFUSED: the message */
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

/* The end of an option table. */
#define ARGS_OPT_END                                                                               \
    {                                                                                              \
        0, NULL, 0, 0, NULL, NULL, NULL, NULL                                                      \
    }

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

/* args_next for a command whose one positional is the board size N: that positional
 * goes to *n_arg and is not returned; a second one is reported and ends the command
 * (ARG_EXIT, p->exit_code EXIT_USAGE). */
int args_next_n(args_parser *p, const char **n_arg);
/* Parse a board size argument (NULL: none was given); 0 on success, else EXIT_USAGE
 * after printing. */
int args_parse_n(const char *cmd, const char *s, int *n);

#endif
