/* nqueens: the command-line tool. Dispatches to a subcommand; the library does the work
 * and this program turns its status codes into text and exit codes. Output that cannot
 * be written is a failure, never a silent exit 0. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "tools/args_help.h"
#include "tools/args_messages.h"
#include "tools/args_parser.h"
#include "tools/signals.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const args_command *args;
    const char *summary;
} commands[] = {
    {"count", cmd_count, &count_command, "count the solutions for one board size"},
    {"merge", cmd_merge, &merge_command,
     "add up the journals of a count's slices (count --slice K/M)"},
    {"verify", cmd_verify, &verify_command,
     "count a range of sizes and check them against OEIS A000170/A002562"},
    {"list", cmd_list, &list_command,
     "print the solutions in lexicographic order (several formats)"},
    {"bench", cmd_bench, &bench_command,
     "time counts over engines, sizes and thread counts; verified reports"},
    {"estimate", cmd_estimate, &estimate_command,
     "project a count's CPU and wall time from a timed sample of its tasks"},
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
    fputs("usage: nqueens <command> [arguments]   (nqueens help <command> for more)\n\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("  help     print a command's help: nqueens help count\n"
          "\n  -V, --version  the version and what this build has\n"
          "  -h, --help     this help\n",
          f);
}

/* "count, verify, ..." from the table, so that the error text never goes stale. */
static const char *command_names(void)
{
    static char names[256];
    size_t len = 0;
    for (size_t i = 0; i < N_COMMANDS; i++)
        len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
                                commands[i].name);
    return names;
}

static int find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return (int)i;
    return -1;
}

/* --list-values' lookup: the command's table, or NULL. */
static const args_command *command_args(const char *name)
{
    int i = find_command(name);
    return i < 0 ? NULL : commands[i].args;
}

static int unknown_command(const char *name)
{
    /* A near miss: same letters but one, or two swapped. */
    for (size_t i = 0; i < N_COMMANDS; i++) {
        const char *c = commands[i].name;
        size_t lc = strlen(c), ln = strlen(name), diff = 0;
        if (lc == ln)
            for (size_t k = 0; k < lc; k++)
                diff += c[k] != name[k];
        if (lc == ln && (diff == 1 || (diff == 2 && strspn(name, c) == ln)))
            return args_usage_error(NULL, "unknown command '%s': did you mean %s?", name, c);
    }
    return args_usage_error(NULL, "unknown command '%s': expected one of %s (see 'nqueens --help')",
                            name, command_names());
}

/* The top level: no command, help, the version. -1 when argv[1] is a command to run. */
static int top_level(int argc, char **argv)
{
    const char *a = argc > 1 ? argv[1] : NULL;
    int i, opt;

    if (!a)
        return args_usage_error(NULL, "missing command: expected one of %s (see 'nqueens --help')",
                                command_names());
    if (strcmp(a, "--list-values") == 0) /* for the completions: not in the help */
        return args_list_values(argc, argv, command_args);
    if (strcmp(a, "help") == 0 && argc > 2) {
        if (argc > 3)
            return args_usage_error(NULL, "help takes one command: nqueens help count");
        if (strcmp(argv[2], "help") == 0) {
            usage(stdout);
            return 0;
        }
        if (argv[2][0] == '-') /* help --help, help --version: as they are alone */
            return top_level(argc - 1, argv + 1);
        i = find_command(argv[2]);
        if (i < 0)
            return unknown_command(argv[2]);
        return commands[i].run(2, (char *[]){argv[2], "--help", NULL});
    }
    opt = strcmp(a, "help") == 0 ? OPT_HELP : args_top_option(a, "nqueens --help");
    if (opt < 0)
        return EXIT_USAGE;
    if (opt == OPT_HELP) {
        if (argc > 2)
            return args_usage_error(NULL,
                                    "%s takes no arguments (for a command's help: nqueens "
                                    "help %s)",
                                    a, argv[2]);
        usage(stdout);
        return 0;
    }
    if (opt == OPT_VERSION) {
        if (argc > 2)
            return args_usage_error(NULL, "%s takes no arguments (got '%s')", a, argv[2]);
        args_print_version(stdout);
        return 0;
    }
    return find_command(a) < 0 ? unknown_command(a) : -1;
}

/* Descriptors 0-2 closed by the caller would be taken by the first files opened (a
 * journal written through printf); give them /dev/null, stdout read-only so that writing
 * to it still fails as it did. */
static void guard_std_fds(void)
{
    static const int modes[] = {O_RDONLY, O_RDONLY, O_WRONLY};
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int got = open("/dev/null", modes[fd]);
            if (got >= 0 && got != fd) {
                dup2(got, fd);
                close(got);
            }
        }
}

/* Flush and close stdout: a full disk or a closed descriptor shows up here at the
 * latest, reported as the command's (cmd; NULL: the top level's). A closed pipe ends
 * `list` normally (it reports EPIPE itself, unbuffered); for the rest the last say is
 * SIGPIPE's, as for any tool. */
static int close_stdout(const char *cmd, int rc)
{
    int failed, e;

    errno = 0;
    failed = fflush(stdout) != 0;
    e = errno;
    failed |= ferror(stdout);
    if (fclose(stdout) != 0) {
        failed = 1;
        e = e ? e : errno;
    }
    if (failed && rc == 0)
        return args_run_error(cmd, "cannot write the output: %s", strerror(e ? e : EIO));
    return rc;
}

int main(int argc, char **argv)
{
    const char *cmd = NULL;
    int rc;

    guard_std_fds();
    signals_file_limit_fails_writes();
    rc = top_level(argc, argv);
    if (rc < 0) {
        cmd = commands[find_command(argv[1])].name;
        rc = commands[find_command(argv[1])].run(argc - 1, argv + 1);
    } else if (argc == 3 && strcmp(argv[1], "help") == 0 && find_command(argv[2]) >= 0) {
        cmd = commands[find_command(argv[2])].name; /* help count: count's help */
    }
    return close_stdout(cmd, rc);
}
