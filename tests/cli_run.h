/* Test helper: run the built nqueens tool with arguments and capture what it prints. */
#ifndef NQ_TEST_CLI_RUN_H
#define NQ_TEST_CLI_RUN_H

#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scratch.h"

extern char **environ;

typedef struct cli_out {
    int status; /* exit code, or 128 + signal */
    char out[65536];
    char err[65536]; /* a slow run under a sanitizer writes a progress line a second */
} cli_out;

static inline void cli_slurp(int fd, char *buf, size_t size)
{
    size_t len = 0;
    ssize_t k;
    while ((k = read(fd, buf + len, size - 1 - len)) > 0)
        len += (size_t)k;
    buf[len] = '\0';
}

/* Start the tool with args (argv without argv[0], NULL-terminated), its stdout and stderr
 * on the descriptors fo and fe (a negative one: /dev/null), without waiting for it. */
static inline pid_t cli_start(const char *const *args, int fo, int fe)
{
    const char *argv[64];
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int i = 0;

    argv[i++] = NQ_CLI_PATH;
    for (; args[i - 1] && i < 63; i++)
        argv[i] = args[i - 1];
    argv[i] = NULL;
    posix_spawn_file_actions_init(&fa);
    if (fo >= 0)
        posix_spawn_file_actions_adddup2(&fa, fo, 1);
    else
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (fe >= 0)
        posix_spawn_file_actions_adddup2(&fa, fe, 2);
    else
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    cr_assert_eq(posix_spawn(&pid, NQ_CLI_PATH, &fa, NULL, (char *const *)argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    return pid;
}

/* Wait for a started tool: its exit code, or 128 + the signal that ended it. */
static inline int cli_wait(pid_t pid)
{
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Whether process pid has the tool's SIGINT handling: the signal blocked in its main
 * thread (SigBlk of /proc/PID/status) and caught (SigCgt), as signals_install leaves it.
 * The block alone is not enough: a process between fork and exec can carry a blocked
 * mask it then drops with the default action, which a SIGINT sent then ends silently. */
static inline int takes_sigint(long pid)
{
    char path[64], line[256];
    unsigned long long blocked = 0, caught = 0, bit = 1ull << (SIGINT - 1);
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%ld/status", pid);
    if (!(f = fopen(path, "r")))
        return 0;
    while (fgets(line, sizeof(line), f)) {
        sscanf(line, "SigBlk: %llx", &blocked);
        sscanf(line, "SigCgt: %llx", &caught);
    }
    fclose(f);
    return (blocked & bit) && (caught & bit);
}

/* Wait, at most 30 s, until process pid takes SIGINT as the tool does (takes_sigint): a
 * signal sent before that, on a loaded machine, ends it by the default action. Whether it
 * came to. */
static inline int cli_wait_takes_sigint(pid_t pid)
{
    for (int i = 0; i < 3000; i++) {
        if (takes_sigint((long)pid))
            return 1;
        usleep(10 * 1000);
    }
    return 0;
}

/* Run the tool to its end with stdout and stderr on fo and fe; returns cli_wait's code. */
static inline int cli_spawn(const char *const *args, int fo, int fe)
{
    return cli_wait(cli_start(args, fo, fe));
}

/* stdout and stderr go to temporary files so that a chatty child can never block on a
 * full pipe. */
static inline void cli_run(cli_out *o, const char *const *args)
{
    char out_path[SCRATCH_PATH], err_path[SCRATCH_PATH];
    int fo = scratch_file(out_path, sizeof(out_path), "cli-out"),
        fe = scratch_file(err_path, sizeof(err_path), "cli-err");

    cr_assert(fo >= 0 && fe >= 0);
    o->status = cli_spawn(args, fo, fe);
    lseek(fo, 0, SEEK_SET);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fo, o->out, sizeof(o->out));
    cli_slurp(fe, o->err, sizeof(o->err));
    close(fo);
    close(fe);
    unlink(out_path);
    unlink(err_path);
}

/* The bound on a stop (cli/test_stops.c, mpi/test_mpi.c), from the signal to the exit: a
 * second, as the tool promises; under AddressSanitizer (scripts/sanitize), whose checks
 * make the last chunk of a journal's read take about a second on their own, three: that
 * pass is for memory errors, the plain suite for the time. */
#if defined(__SANITIZE_ADDRESS__)
#define STOP_BOUND 3.0
#else
#define STOP_BOUND 1.0
#endif

static inline int count_lines(const char *s)
{
    int k = 0;
    for (; *s; s++)
        k += *s == '\n';
    return k;
}

/* The tool's rule for bad input, run on args: exit 2, one line on stderr, nothing on
 * stdout. A failure names the words. Returns what the run printed, for a test that looks
 * at the line (valid until the next call). */
static inline const cli_out *cli_expect_usage_error(const char *const *args)
{
    static cli_out o;
    char words[512] = "";

    for (size_t i = 0, k = 0; args[i] && k < sizeof(words); i++)
        k += (size_t)snprintf(words + k, sizeof(words) - k, "%s'%s'", i ? " " : "", args[i]);
    cli_run(&o, args);
    cr_expect_eq(o.status, 2, "%s: exit %d (stderr: %s)", words, o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s: one line on stderr, got: %s", words, o.err);
    cr_expect_str_eq(o.out, "", "%s: nothing on stdout", words);
    return &o;
}

/* A command line cut into the argument list that cli_run takes. */
typedef struct cli_argv {
    char text[512];
    const char *argv[64];
} cli_argv;

/* The words of line, as the shell reads these plain ones: cut at spaces, but not inside
 * single quotes, so that '' is an empty word and ' 8' keeps its space. A table of bad
 * command lines then reads as what a person types. Returns a->argv, NULL-terminated. */
static inline const char *const *cli_split(cli_argv *a, const char *line)
{
    const size_t most = sizeof(a->argv) / sizeof(a->argv[0]) - 1;
    size_t n = 0, k = 0;
    int quoted = 0;

    /* each word's '\0' takes the place of the space after it, or of the end */
    cr_assert_lt(strlen(line), sizeof(a->text), "too long: %s", line);
    for (const char *c = line; *c;) {
        if (*c == ' ') {
            c++;
            continue;
        }
        cr_assert_lt(n, most, "more than %zu words: %s", most, line);
        a->argv[n++] = a->text + k;
        for (; *c && (quoted || *c != ' '); c++) {
            if (*c == '\'')
                quoted = !quoted;
            else
                a->text[k++] = *c;
        }
        a->text[k++] = '\0';
    }
    cr_assert(!quoted, "a quote left open: %s", line);
    a->argv[n] = NULL;
    return a->argv;
}

/* A number after "name": in a tool's one-line JSON, or -1 when it is null or missing. */
static inline double cli_json_number(const char *json, const char *name)
{
    char key[64];
    const char *p;

    snprintf(key, sizeof(key), "\"%s\": ", name);
    p = strstr(json, key);
    if (!p || strncmp(p + strlen(key), "null", 4) == 0)
        return -1;
    return strtod(p + strlen(key), NULL);
}

/* cli_expect_usage_error on a command line written as one string (cli_split). */
static inline const cli_out *cli_expect_usage_error_line(const char *line)
{
    cli_argv a;
    return cli_expect_usage_error(cli_split(&a, line));
}

/* cli_expect_usage_error_line on each line of cases, a table of command lines
 * (const char *const cases[]). */
#define cli_expect_usage_errors(cases)                                                             \
    for (size_t cli_row_ = 0; cli_row_ < sizeof(cases) / sizeof((cases)[0]); cli_row_++)           \
    cli_expect_usage_error_line((cases)[cli_row_])

/* What bash reads back from word: printf %s WORD, run by bash itself. */
static inline size_t cli_shell_reads(const char *word, char *got, size_t size)
{
    char script[4096];
    size_t len;
    FILE *f;

    snprintf(script, sizeof(script), "printf %%s %s", word);
    setenv("NQ_SCRIPT", script, 1);
    f = popen("bash -c \"$NQ_SCRIPT\"", "r");
    cr_assert_not_null(f);
    len = fread(got, 1, size - 1, f);
    got[len] = '\0';
    cr_assert_eq(pclose(f), 0, "bash refused: %s", word);
    return len;
}

#endif
