/* nqueens: the command-line tool. Dispatches to a subcommand; the library does the work
 * and this program turns its status codes into text and exit codes. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"count", cmd_count, "count the solutions for one board size"},
    {"verify", cmd_verify, "count a range of sizes and check them against OEIS A000170/A002562"},
    {"list", cmd_list, "print the solutions in lexicographic order (several formats)"},
    {"bench", cmd_bench, "time counts over engines, sizes and thread counts; verified reports"},
};

static void usage(FILE *f)
{
    fputs("usage: nqueens <command> [arguments]   (nqueens <command> --help for more)\n\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("\n  --version  print the version\n  --help     this help\n", f);
}

/* "count, verify, ..." from the table, so that the error text never goes stale. */
static const char *command_names(void)
{
    static char names[256];
    size_t len = 0;
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
                                commands[i].name);
    return names;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return args_usage_error(NULL, "missing command: expected one of %s (see 'nqueens --help')",
                                command_names());
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("nqueens %s\n", nq_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    return args_usage_error(NULL, "unknown command '%s': expected one of %s (see 'nqueens --help')",
                            argv[1], command_names());
}
