/* Time two commands side by side: R rounds, each running both (the order alternating
 * from round to round so that drift on a shared machine hits both alike). Each process
 * is timed twice: wall time (CLOCK_MONOTONIC around spawn and wait) and CPU time (user +
 * system, from wait4), which a machine overloaded by other jobs barely moves.
 * Used by scripts/bench-ci for the baseline check.
 *
 *   interleave ROUNDS WARMUP -- CMD_A [ARGS] -- CMD_B [ARGS]
 *
 * Prints one line per command, "a|b wall_median wall_min wall_max cpu_median cpu_min
 * cpu_max first-line-of-output", then "ratio wall_a/wall_b cpu_a/cpu_b" (of medians).
 * Exit 1 if a command fails or its output changes. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

typedef struct cmd {
    char **argv;
    double *secs, *cpu;
    char first[256]; /* output of the first run; every other run must match it */
} cmd;

static double interleave_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run c once; its stdout lands in out (first line, truncated). Returns wall seconds
 * and the CPU seconds in *cpu, or -1. */
static double interleave_run(const cmd *c, char *out, size_t size, double *cpu)
{
    struct rusage ru;
    char path[] = "/tmp/nq-interleave-XXXXXX";
    int fd = mkstemp(path), st;
    posix_spawn_file_actions_t fa;
    pid_t pid;
    double t0, t;
    ssize_t k;

    if (fd < 0)
        return -1;
    unlink(path);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd, 1);
    t0 = interleave_now();
    if (posix_spawn(&pid, c->argv[0], &fa, NULL, c->argv, environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        close(fd);
        return -1;
    }
    while (wait4(pid, &st, 0, &ru) < 0)
        ;
    t = interleave_now() - t0;
    *cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    posix_spawn_file_actions_destroy(&fa);
    lseek(fd, 0, SEEK_SET);
    k = read(fd, out, size - 1);
    close(fd);
    out[k > 0 ? k : 0] = '\0';
    out[strcspn(out, "\n")] = '\0';
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t : -1;
}

static int interleave_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double interleave_median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof(*v), interleave_cmp);
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

int main(int argc, char **argv)
{
    cmd c[2];
    int rounds, warmup, sep[2], n_sep = 0;
    double med[2], cmed[2];

    for (int i = 3; i < argc && n_sep < 2; i++)
        if (strcmp(argv[i], "--") == 0)
            sep[n_sep++] = i;
    if (argc < 7 || n_sep != 2 || strcmp(argv[3], "--") != 0 || sep[1] == sep[0] + 1 ||
        sep[1] == argc - 1 || (rounds = atoi(argv[1])) < 1 || (warmup = atoi(argv[2])) < 0) {
        fputs("usage: interleave ROUNDS WARMUP -- CMD_A [ARGS] -- CMD_B [ARGS]\n", stderr);
        return 2;
    }
    argv[sep[1]] = NULL; /* ends A's argv; B's is NULL-terminated by main's contract */
    c[0].argv = argv + sep[0] + 1;
    c[1].argv = argv + sep[1] + 1;
    for (int j = 0; j < 2; j++) {
        c[j].secs = calloc((size_t)rounds, sizeof(double));
        c[j].cpu = calloc((size_t)rounds, sizeof(double));
        if (!c[j].secs || !c[j].cpu)
            return 1;
    }
    for (int r = -warmup; r < rounds; r++) {
        for (int s = 0; s < 2; s++) {
            int j = (r & 1) ? 1 - s : s;
            char out[256];
            double cpu = 0;
            double t = interleave_run(&c[j], out, sizeof(out), &cpu);
            if (t < 0) {
                fprintf(stderr, "interleave: '%s' failed\n", c[j].argv[0]);
                return 1;
            }
            if (r == -warmup)
                memcpy(c[j].first, out, sizeof(out));
            else if (strcmp(out, c[j].first) != 0) {
                fprintf(stderr, "interleave: '%s' printed '%s', earlier '%s'\n", c[j].argv[0], out,
                        c[j].first);
                return 1;
            }
            if (r >= 0) {
                c[j].secs[r] = t;
                c[j].cpu[r] = cpu;
            }
        }
    }
    for (int j = 0; j < 2; j++) {
        /* interleave_median sorts: min first, max last */
        med[j] = interleave_median(c[j].secs, rounds);
        cmed[j] = interleave_median(c[j].cpu, rounds);
        printf("%c %.6f %.6f %.6f %.6f %.6f %.6f %s\n", "ab"[j], med[j], c[j].secs[0],
               c[j].secs[rounds - 1], cmed[j], c[j].cpu[0], c[j].cpu[rounds - 1], c[j].first);
    }
    printf("ratio %.4f %.4f\n", med[0] / med[1], cmed[1] > 0 ? cmed[0] / cmed[1] : 0.0);
    return 0;
}
