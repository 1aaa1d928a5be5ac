/* nqueens-mpi on loopback: totals for 1..4 ranks against OEIS A000170, bad arguments
 * reported once with exit code 2 from every rank, and a job killed mid-run resumed from
 * its journal by nqueens-mpi or nqueens (and the reverse). Each mpirun start costs about
 * half a second, so the cases are few and spread over ranks and board sizes. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_run.h"
#include "oeis_data.h"

static cli_out o;

/* mpirun -np NP nqueens-mpi ARGS...; -q keeps mpirun's own banners off stderr, and as
 * root on a 2-core machine it needs the two permissions. */
static pid_t mpi_spawn(int np, const char *const *args, int fo, int fe)
{
    char np_s[16];
    const char *argv[64] = {NQ_MPIRUN, "-q",       "--allow-run-as-root", "--oversubscribe", "-np",
                            np_s,      NQ_MPI_PATH};
    int i = 7;
    posix_spawn_file_actions_t fa;
    pid_t pid;

    snprintf(np_s, sizeof(np_s), "%d", np);
    for (int k = 0; args[k] && i < 63; k++)
        argv[i++] = args[k];
    argv[i] = NULL;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fo, 1);
    posix_spawn_file_actions_adddup2(&fa, fe, 2);
    cr_assert_eq(posix_spawn(&pid, NQ_MPIRUN, &fa, NULL, (char *const *)argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    return pid;
}

static void mpi_wait(cli_out *out, pid_t pid, int fo, int fe)
{
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    out->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    lseek(fo, 0, SEEK_SET);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fo, out->out, sizeof(out->out));
    cli_slurp(fe, out->err, sizeof(out->err));
}

static void mpi_run(cli_out *out, int np, const char *const *args)
{
    char out_path[] = "/tmp/nq-mpi-out-XXXXXX", err_path[] = "/tmp/nq-mpi-err-XXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    cr_assert(fo >= 0 && fe >= 0);
    mpi_wait(out, mpi_spawn(np, args, fo, fe), fo, fe);
    close(fo);
    close(fe);
    unlink(out_path);
    unlink(err_path);
}

static unsigned long long json_total(const char *s)
{
    const char *p = strstr(s, "\"total\": ");
    cr_assert_not_null(p, "no total in: %s", s);
    return strtoull(p + 9, NULL, 10);
}

Test(unit, mpi_totals_1_to_4_ranks)
{
    /* every n in 8..14 once, every rank count twice, with 1 or 2 threads per rank */
    static const struct {
        int np, n;
        const char *threads;
    } cases[] = {{1, 8, "1"},  {2, 9, "1"},  {3, 10, "1"}, {4, 11, "1"},
                 {1, 12, "2"}, {2, 13, "2"}, {3, 14, "1"}, {4, 14, "1"}};

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char n_s[8], want[64];
        const char *const args[] = {"count", n_s, "--threads", cases[i].threads, "--no-pin", NULL};
        snprintf(n_s, sizeof(n_s), "%d", cases[i].n);
        mpi_run(&o, cases[i].np, args);
        cr_assert_eq(o.status, 0, "np=%d n=%d: exit %d, stderr: %s", cases[i].np, cases[i].n,
                     o.status, o.err);
        snprintf(want, sizeof(want), "%llu\n",
                 (unsigned long long)oeis_value("A000170", cases[i].n));
        cr_expect_str_eq(o.out, want, "np=%d n=%d: printed once by rank 0", cases[i].np,
                         cases[i].n);
        cr_expect_str_eq(o.err, "", "np=%d n=%d", cases[i].np, cases[i].n);
    }
}

Test(unit, mpi_json_like_nqueens)
{
    const char *const args[] = {"count", "11", "--json", "--threads=1", "--no-pin", NULL};
    mpi_run(&o, 3, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_eq(count_lines(o.out), 1, "%s", o.out);
    cr_expect_eq(json_total(o.out), oeis_value("A000170", 11));
    cr_expect_not_null(strstr(o.out, "\"verified\": true"), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"threads\": 3,"), "all ranks' workers: %s", o.out);
    cr_expect_not_null(strstr(o.out, "\"ranks\": 3}"), "%s", o.out);
}

Test(unit, mpi_bad_arguments_once_exit_2)
{
    const char *const cases[][5] = {
        {"count", "8x", NULL},
        {"count", "8", "--bogus", NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        mpi_run(&o, 3, cases[i]);
        cr_expect_eq(o.status, 2, "'%s %s': exit %d, stderr: %s", cases[i][0],
                     cases[i][1] ? cases[i][1] : "", o.status, o.err);
        cr_expect_eq(count_lines(o.err), 1, "one line from rank 0 only, got: %s", o.err);
        cr_expect_eq(strncmp(o.err, "nqueens-mpi", 11), 0, "%s", o.err);
        cr_expect_str_eq(o.out, "");
    }
}

/* ---- kill and resume ---------------------------------------------------------------- */

/* Journal layout (src/journal.h): a 128-byte header, then 24 bytes per finished task. */
static long journal_records(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 128 ? (long)(st.st_size - 128) / 24 : 0;
}

/* SIGKILL every process whose parent is pid: mpirun's ranks, each in its own process
 * group, so this is the one way to stop them all at the same instant. */
/* State letter of /proc/PID/stat ('Z' zombie, 'R', 'S', ...), or 0 once it is gone. */
static char proc_state(long pid, int *ppid)
{
    char path[64], buf[512], *p, st = 0;
    FILE *f;
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    f = fopen(path, "r");
    if (!f)
        return 0;
    p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
    fclose(f);
    if (!p || sscanf(p, ") %c %d", &st, ppid) != 2)
        return 0;
    return st;
}

/* SIGKILL every child of pid, then wait until they have really exited (dead or zombie):
 * only then are their files closed and the journal's lock free for the resume. */
static void kill_children(pid_t pid)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    long kids[64];
    int n_kids = 0, ppid;
    cr_assert_not_null(d);
    while ((e = readdir(d)) && n_kids < 64) {
        long child;
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        child = atol(e->d_name);
        if (proc_state(child, &ppid) && ppid == pid) {
            kill((pid_t)child, SIGKILL);
            kids[n_kids++] = child;
        }
    }
    closedir(d);
    for (int i = 0; i < n_kids; i++)
        for (int waited = 0; waited < 5000; waited++) {
            char st = proc_state(kids[i], &ppid);
            struct timespec ms = {0, 1000000};
            if (st == 0 || st == 'Z' || st == 'X')
                break;
            nanosleep(&ms, NULL);
        }
}

/* Start nqueens-mpi on np ranks (or nqueens when np is 0), wait until its journal holds
 * a few records, then kill -9 every process of the run at once. */
static void start_and_kill(int np, const char *const *args, const char *journal)
{
    char out_path[] = "/tmp/nq-mpi-out-XXXXXX", err_path[] = "/tmp/nq-mpi-err-XXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    pid_t pid;
    cli_out killed;

    cr_assert(fo >= 0 && fe >= 0);
    if (np > 0) {
        pid = mpi_spawn(np, args, fo, fe);
    } else {
        pid = cli_start(args, fo, fe);
    }
    for (int waited = 0; journal_records(journal) < 3 && waited < 20000; waited++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    if (np > 0)
        kill_children(pid);
    kill(pid, SIGKILL);
    mpi_wait(&killed, pid, fo, fe);
    cr_expect_neq(killed.status, 0, "stopped before the end (stdout: %s)", killed.out);
    close(fo);
    close(fe);
    unlink(out_path);
    unlink(err_path);
}

/* The resumed run's stderr says how many tasks it found done; they must be some, not all. */
static void expect_partial_resume(const char *err)
{
    unsigned long long done = 0, total = 0;
    const char *p = strstr(err, "already done");
    cr_assert_not_null(p, "no resume line in: %s", err);
    while (p > err && p[-1] != ':')
        p--;
    cr_assert_eq(sscanf(p, " %llu of %llu", &done, &total), 2, "%s", err);
    cr_expect(done > 0 && done < total, "resumed with %llu of %llu done", done, total);
}

Test(unit, mpi_killed_job_resumes_exactly)
{
    char journal[] = "/tmp/nq-mpi-journal-XXXXXX", want[64];
    int fd = mkstemp(journal);
    const char *const args[] = {"count",    "15",           "--threads", "1",
                                "--no-pin", "--checkpoint", journal,     NULL};

    cr_assert(fd >= 0);
    close(fd); /* an empty file counts as a new journal */
    start_and_kill(2, args, journal);
    mpi_run(&o, 3, args); /* another rank count: the journal fixes the task ids */
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", 15));
    cr_expect_str_eq(o.out, want);
    expect_partial_resume(o.err);
    unlink(journal);
}

Test(unit, mpi_and_nqueens_resume_each_other)
{
    char journal[] = "/tmp/nq-mpi-journal-XXXXXX", want[64];
    int fd = mkstemp(journal);
    const char *const args[] = {"count",    "15",           "--threads", "1",
                                "--no-pin", "--checkpoint", journal,     NULL};

    cr_assert(fd >= 0);
    close(fd);
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", 15));

    /* nqueens-mpi started it, nqueens finishes it */
    start_and_kill(2, args, journal);
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_str_eq(o.out, want);
    expect_partial_resume(o.err);

    /* and the reverse, on a fresh journal */
    cr_assert_eq(truncate(journal, 0), 0);
    start_and_kill(0, args, journal);
    mpi_run(&o, 2, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_str_eq(o.out, want);
    expect_partial_resume(o.err);
    unlink(journal);
}
