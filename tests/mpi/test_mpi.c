/* nqueens-mpi on loopback: totals for 1..4 ranks against OEIS A000170, bad arguments
 * reported once with exit code 2 from every rank, a count past --max-memory refused once,
 * a job killed mid-run resumed from its journal by nqueens-mpi or nqueens (and the
 * reverse), --subtotals byte for byte as nqueens writes them, --progress=json over every
 * rank, SIGINT / SIGTERM to every rank, to rank 0 alone, to one worker or to mpirun, then
 * resumed, and SIGINT during the task count before the first task (the join's at n = 27).
 * Each mpirun start costs about half a second, so the cases are few and spread over ranks
 * and board sizes. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
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
#include "progress_json.h"
#include "store/journal.h"

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

/* Close and remove the run's stdout and stderr files. */
static void scratch_drop(int fo, int fe, const char *out_path, const char *err_path)
{
    close(fo);
    close(fe);
    unlink(out_path);
    unlink(err_path);
}

static void mpi_run(cli_out *out, int np, const char *const *args)
{
    char out_path[SCRATCH_PATH], err_path[SCRATCH_PATH];
    int fo = scratch_file(out_path, sizeof(out_path), "mpi-out"),
        fe = scratch_file(err_path, sizeof(err_path), "mpi-err");
    cr_assert(fo >= 0 && fe >= 0);
    mpi_wait(out, mpi_spawn(np, args, fo, fe), fo, fe);
    scratch_drop(fo, fe, out_path, err_path);
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

Test(unit, mpi_join_totals_1_to_4_ranks)
{
    for (int np = 1; np <= 4; np++) {
        char n_s[8], want[64];
        int n = 9 + np;
        const char *const args[] = {"count",    n_s,        "--threads", "1",
                                    "--no-pin", "--engine", "join",      NULL};
        snprintf(n_s, sizeof(n_s), "%d", n);
        mpi_run(&o, np, args);
        cr_assert_eq(o.status, 0, "np=%d n=%d: exit %d, stderr: %s", np, n, o.status, o.err);
        snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", n));
        cr_expect_str_eq(o.out, want, "np=%d n=%d join", np, n);
    }
}

/* threads is per rank, as --threads is, with every rank's and the sum beside it; CPU
 * seconds are every rank's, summed: a number, not null. */
Test(unit, mpi_json_like_nqueens)
{
    const char *const args[] = {"count", "11", "--json", "--threads=1", "--no-pin", NULL};
    const char *cpu;
    mpi_run(&o, 3, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_eq(count_lines(o.out), 1, "%s", o.out);
    cr_expect_eq(json_total(o.out), oeis_value("A000170", 11));
    cr_expect_not_null(strstr(o.out, "\"verified\": true"), "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"threads\": 1,"), "workers per rank: %s", o.out);
    cr_expect_not_null(strstr(o.out, "\"ranks\": 3, \"rank_threads\": [1, 1, 1], "
                                     "\"total_threads\": 3, \"total_pinned_threads\": 0}"),
                       "%s", o.out);
    cpu = strstr(o.out, "\"cpu_seconds\": ");
    cr_assert_not_null(cpu, "%s", o.out);
    cr_expect_gt(strtod(cpu + strlen("\"cpu_seconds\": "), NULL), 0, "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"reused_tasks\": 0, \"reused_total\": 0,"), "%s", o.out);
}

/* --simd travels with the settings to every rank; the JSON names the path that ran. */
Test(unit, mpi_simd_like_nqueens)
{
    const char *const args[] = {"count",    "12",     "--json", "--threads=1",
                                "--no-pin", "--simd", "scalar", NULL};
    mpi_run(&o, 2, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_eq(json_total(o.out), oeis_value("A000170", 12));
    cr_expect_not_null(strstr(o.out, "\"simd\": \"scalar\","), "%s", o.out);
}

Test(unit, mpi_bad_arguments_once_exit_2)
{
    const char *const cases[][5] = {
        {"count", "8x", NULL},
        {"count", "8", "--bogus", NULL},
        {"count", "8", "--simd", "bogus", NULL},
        {"count", "8", "--threads", "0", NULL},
        {"--version", "extra", NULL},
        {"count", "8", "-ju", NULL},
        {"count", "8", "--devices", "0", NULL},
        {"-v", NULL},
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

/* A count that needs more memory than allowed is refused by rank 0 before any journal or
 * table is made, one line and exit 1, as nqueens count refuses it
 * (cli_count_past_max_memory_is_refused, with rank 0's workers); every rank once failed
 * in the library instead, with "count failed". */
Test(unit, mpi_count_past_max_memory_is_refused)
{
    char journal[512];
    const char *const args[] = {"count", "22",           "--threads", "2", "--max-memory",
                                "64M",   "--checkpoint", journal,     NULL};

    cr_assert_eq(scratch_name(journal, sizeof(journal), "mpi-journal"), 0);
    mpi_run(&o, 2, args);
    cr_expect_eq(o.status, 1, "exit %d, stderr: %s", o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "one line from rank 0 only, got: %s", o.err);
    cr_expect_not_null(strstr(o.err, "nqueens-mpi count: the join engine needs about"), "%s",
                       o.err);
    cr_expect_not_null(strstr(o.err, "on 2 workers, more than the 64.0 MiB allowed"), "%s", o.err);
    cr_expect_str_eq(o.out, "");
    cr_expect_neq(access(journal, F_OK), 0, "no journal made");
}

/* The top level takes what a command takes: help help, --ver for --version. */
Test(unit, mpi_help_help_and_version_prefix)
{
    const char *const help[] = {"help", "help", NULL};
    const char *const ver[] = {"--ver", NULL};
    mpi_run(&o, 1, help);
    cr_expect_eq(o.status, 0, "%s", o.err);
    cr_expect_not_null(strstr(o.out, "usage: mpirun"), "%s", o.out);
    mpi_run(&o, 1, ver);
    cr_expect_eq(o.status, 0, "%s", o.err);
    cr_expect_eq(strncmp(o.out, "nqueens-mpi ", 12), 0, "%s", o.out);
}

/* The help and the version, written where they cannot be (a full disk), fail with one
 * line, as in nqueens. Run without mpirun (a singleton), so that the rank's own stdout
 * is the full one, not mpirun's pipe. */
Test(unit, mpi_lost_help_fails)
{
    static const char *const cases[][4] = {
        {"--help", NULL}, {"--version", NULL}, {"help", "count", NULL}};
    int full = open("/dev/full", O_WRONLY);
    cr_assert(full >= 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char err_path[SCRATCH_PATH];
        const char *argv[5] = {NQ_MPI_PATH};
        int fe = scratch_file(err_path, sizeof(err_path), "mpi-err"), st;
        posix_spawn_file_actions_t fa;
        pid_t pid;
        for (int k = 0; cases[i][k]; k++)
            argv[k + 1] = cases[i][k];
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, full, 1);
        posix_spawn_file_actions_adddup2(&fa, fe, 2);
        cr_assert_eq(posix_spawn(&pid, NQ_MPI_PATH, &fa, NULL, (char *const *)argv, environ), 0);
        posix_spawn_file_actions_destroy(&fa);
        cr_assert_eq(waitpid(pid, &st, 0), pid);
        lseek(fe, 0, SEEK_SET);
        cli_slurp(fe, o.err, sizeof(o.err));
        cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s > /dev/full: status %d, %s",
                  cases[i][0], st, o.err);
        cr_expect_not_null(strstr(o.err, "cannot write the output"), "%s", o.err);
        close(fe);
        unlink(err_path);
    }
    close(full);
}

/* ---- kill and resume ---------------------------------------------------------------- */

static long journal_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

static long journal_records(const char *path)
{
    long size = journal_size(path);
    return size > JOURNAL_HEADER_SIZE ? (size - JOURNAL_HEADER_SIZE) / JOURNAL_RECORD_SIZE : 0;
}

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

/* The processes whose parent is pid: mpirun's ranks, each in its own process group, so
 * that a signal to mpirun's group never reaches them. Returns how many (at most max). */
static int children_of(pid_t pid, long *kids, int max)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0, ppid;
    cr_assert_not_null(d);
    while ((e = readdir(d)) && n < max) {
        long child;
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        child = atol(e->d_name);
        if (proc_state(child, &ppid) && ppid == pid)
            kids[n++] = child;
    }
    closedir(d);
    return n;
}

/* Wait (at most ms milliseconds) until process pid has really exited, dead or a zombie
 * that mpirun has not reaped yet: its files are closed. */
static void wait_exited(long pid, int ms)
{
    int ppid;
    for (int waited = 0; waited < ms; waited++) {
        char st = proc_state(pid, &ppid);
        struct timespec one = {0, 1000000};
        if (st == 0 || st == 'Z' || st == 'X')
            return;
        nanosleep(&one, NULL);
    }
}

/* SIGKILL every child of pid, then wait until they have really exited: only then is the
 * journal's lock free for the resume. */
static void kill_children(pid_t pid)
{
    long kids[64];
    int n_kids = children_of(pid, kids, 64);
    for (int i = 0; i < n_kids; i++)
        kill((pid_t)kids[i], SIGKILL);
    for (int i = 0; i < n_kids; i++)
        wait_exited(kids[i], 5000);
}

/* Start nqueens-mpi on np ranks (or nqueens when np is 0), wait until its journal holds
 * a few records, then kill -9 every process of the run at once. */
static void start_and_kill(int np, const char *const *args, const char *journal)
{
    char out_path[SCRATCH_PATH], err_path[SCRATCH_PATH];
    int fo = scratch_file(out_path, sizeof(out_path), "mpi-out"),
        fe = scratch_file(err_path, sizeof(err_path), "mpi-err");
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
    scratch_drop(fo, fe, out_path, err_path);
}

/* The resumed run's stderr says how many tasks it found done; they must be some, not all. */
/* A run that resumed a journal some tasks of which were done, and printed want. */
static void expect_partial_resume(const cli_out *r, const char *want)
{
    unsigned long long done = 0, total = 0;
    const char *p = strstr(r->err, "already done");

    cr_assert_eq(r->status, 0, "stderr: %s", r->err);
    cr_expect_str_eq(r->out, want);
    cr_assert_not_null(p, "no resume line in: %s", r->err);
    while (p > r->err && p[-1] != ':')
        p--;
    cr_assert_eq(sscanf(p, " %llu of %llu", &done, &total), 2, "%s", r->err);
    cr_expect(done > 0 && done < total, "resumed with %llu of %llu done", done, total);
}

/* The count the two tests below kill and resume: 17 on one thread a rank, into a new
 * journal (an empty file counts as one), and what it prints. n = 15's whole run (3,432
 * tasks, milliseconds) once ended between the third record and the kill. */
typedef struct resumed_count {
    char journal[SCRATCH_PATH], want[64];
    const char *args[8];
} resumed_count;

static void resumed_count_init(resumed_count *c)
{
    const char *const args[] = {"count",    "17",           "--threads", "1",
                                "--no-pin", "--checkpoint", c->journal,  NULL};
    int fd = scratch_file(c->journal, sizeof(c->journal), "mpi-journal");

    cr_assert(fd >= 0);
    close(fd);
    memcpy(c->args, args, sizeof(args));
    snprintf(c->want, sizeof(c->want), "%llu\n", (unsigned long long)oeis_value("A000170", 17));
}

Test(unit, mpi_killed_job_resumes_exactly)
{
    resumed_count c;

    resumed_count_init(&c);
    start_and_kill(2, c.args, c.journal);
    mpi_run(&o, 3, c.args); /* another rank count: the journal fixes the task ids */
    expect_partial_resume(&o, c.want);
    unlink(c.journal);
}

Test(unit, mpi_and_nqueens_resume_each_other)
{
    resumed_count c;

    resumed_count_init(&c);
    /* nqueens-mpi started it, nqueens finishes it */
    start_and_kill(2, c.args, c.journal);
    cli_run(&o, c.args);
    expect_partial_resume(&o, c.want);

    /* and the reverse, on a fresh journal */
    cr_assert_eq(truncate(c.journal, 0), 0);
    start_and_kill(0, c.args, c.journal);
    mpi_run(&o, 2, c.args);
    expect_partial_resume(&o, c.want);
    unlink(c.journal);
}

/* A slice's journal (nqueens count --slice), which nqueens-mpi does not run (it counts
 * whole task sets): refused on one line before any task, with the journal untouched.
 * It once said it was resuming, then failed with "count failed: invalid argument". */
Test(unit, mpi_slice_journal_is_refused_at_once)
{
    char journal[512];
    const char *const args[] = {"count",    "12",           "--threads", "1",
                                "--no-pin", "--checkpoint", journal,     NULL};
    nq_settings s;
    nq_task_set ts;
    nq_journal *j;
    nq_journal_info info;

    cr_assert_eq(scratch_name(journal, sizeof(journal), "mpi-journal"), 0);
    nq_default_settings(&s);
    s.n = 12;
    s.engine = NQ_ENGINE_D4;
    s.slice_index = 1;
    s.slice_count = 3;
    cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
    cr_assert_eq(nq_journal_open(&j, journal, &ts, 5, &info), NQ_OK, "%s", info.detail);
    nq_journal_close(&j);
    mpi_run(&o, 2, args);
    cr_expect_eq(o.status, 2, "exit %d, stderr: %s", o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "slice 1/3"), "%s", o.err);
    cr_expect_str_eq(o.out, "");
    cr_expect_eq(journal_size(journal), JOURNAL_HEADER_SIZE, "no task ran");
    unlink(journal);
}

/* ---- subtotals and progress like nqueens count ------------------------------------------ */

/* --subtotals naming the journal by another spelling would replace the journal by the
 * CSV at the end (or unlink it with the abandoned CSV): refused before the count, with
 * the journal's bytes untouched, as in nqueens (issue 22). */
Test(unit, mpi_subtotals_on_the_journal_are_refused)
{
    char journal[SCRATCH_PATH], dotted[SCRATCH_PATH], before[8192], after[8192];
    int fd = scratch_file(journal, sizeof(journal), "mpi-journal");
    ssize_t len;
    const char *const make[] = {"count",    "10",           "--threads", "1",
                                "--no-pin", "--checkpoint", journal,     NULL};
    const char *const args[] = {"count",        "10",    "--threads",   "1",    "--no-pin",
                                "--checkpoint", journal, "--subtotals", dotted, NULL};

    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(scratch_dotted(dotted, sizeof(dotted), journal), 0);
    mpi_run(&o, 2, make);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    fd = open(journal, O_RDONLY);
    len = read(fd, before, sizeof(before));
    close(fd);
    cr_assert_gt(len, 0);
    mpi_run(&o, 2, args);
    cr_expect_eq(o.status, 2, "exit %d, stderr: %s", o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "are the same file"), "%s", o.err);
    fd = open(journal, O_RDONLY);
    cr_expect_eq(read(fd, after, sizeof(after)), len);
    close(fd);
    cr_expect_eq(memcmp(before, after, (size_t)len), 0, "the journal is untouched");
    unlink(journal);
}

static void slurp_path(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    cr_assert(fd >= 0, "cannot open %s", path);
    cli_slurp(fd, buf, size);
    close(fd);
}

static void temp_path(char *path, size_t size, const char *what)
{
    int fd;
    char name[32];

    snprintf(name, sizeof(name), "mpi-%s", what);
    fd = scratch_file(path, size, name);
    cr_assert(fd >= 0);
    close(fd);
}

Test(unit, mpi_subtotals_identical_to_nqueens)
{
    /* d4's task set does not depend on the thread count; prefix's automatic depth does,
     * so nqueens runs with as many threads as the job has workers */
    static const struct {
        int n, np;
        const char *engine;
    } cases[] = {{10, 1, "d4"}, {10, 3, "d4"},     {11, 1, "d4"},   {11, 3, "d4"},  {12, 1, "d4"},
                 {12, 3, "d4"}, {12, 3, "prefix"}, {11, 2, "join"}, {12, 3, "join"}};
    static char a[65536], b[65536];
    char mpath[SCRATCH_PATH], cpath[SCRATCH_PATH];

    temp_path(mpath, sizeof(mpath), "subs");
    temp_path(cpath, sizeof(cpath), "subs");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char n_s[8], np_s[8];
        const char *const margs[] = {"count",    n_s,        "--threads",     "1",
                                     "--no-pin", "--engine", cases[i].engine, "--subtotals",
                                     mpath,      NULL};
        const char *const cargs[] = {"count",    n_s,        "--threads",     np_s,
                                     "--no-pin", "--engine", cases[i].engine, "--subtotals",
                                     cpath,      NULL};
        snprintf(n_s, sizeof(n_s), "%d", cases[i].n);
        snprintf(np_s, sizeof(np_s), "%d", cases[i].np);
        cr_assert_eq(truncate(mpath, 0), 0);
        mpi_run(&o, cases[i].np, margs);
        cr_assert_eq(o.status, 0, "np=%d n=%d: exit %d, stderr: %s", cases[i].np, cases[i].n,
                     o.status, o.err);
        cli_run(&o, cargs);
        cr_assert_eq(o.status, 0, "nqueens n=%d: %s", cases[i].n, o.err);
        slurp_path(mpath, a, sizeof(a));
        slurp_path(cpath, b, sizeof(b));
        cr_expect_gt(count_lines(a), 1, "np=%d n=%d: %s", cases[i].np, cases[i].n, a);
        cr_expect_str_eq(a, b, "np=%d n=%d %s: the same bytes as nqueens count", cases[i].np,
                         cases[i].n, cases[i].engine);
    }
    unlink(mpath);
    unlink(cpath);
}

/* --subtotals - as in nqueens: the CSV alone on stdout, the result on stderr. */
Test(unit, mpi_subtotals_to_stdout)
{
    const char *const margs[] = {"count", "10", "--threads",   "1", "--no-pin",
                                 "-e",    "d4", "--subtotals", "-", NULL};
    const char *const cargs[] = {"count", "10", "--threads",   "2", "--no-pin",
                                 "-e",    "d4", "--subtotals", "-", NULL};
    static char csv[65536];
    char want[32];

    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", 10));
    cli_run(&o, cargs);
    cr_assert_eq(o.status, 0, "%s", o.err);
    strcpy(csv, o.out);
    mpi_run(&o, 2, margs);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_str_eq(o.err, want, "the result on stderr");
    cr_expect_eq(strncmp(o.out, "task,", 5), 0, "%.60s", o.out);
    cr_expect_str_eq(o.out, csv, "the same CSV as nqueens count");
}

Test(unit, mpi_progress_json_counts_every_rank)
{
    /* d4: about three seconds on two ranks of one thread, several lines, one a second
     * (join, the default, now takes under one) */
    const char *const args[] = {"count", "17",       "--engine",        "d4", "--threads",
                                "1",     "--no-pin", "--progress=json", NULL};
    mpi_run(&o, 2, args);
    cr_assert_eq(o.status, 0, "stderr: %s", o.err);
    cr_expect_eq(strtoull(o.out, NULL, 10), oeis_value("A000170", 17), "%s", o.out);
    cr_expect_geq(expect_progress(o.err, 17, NULL), 2, "one line a second: %s", o.err);
}

/* ---- signals -------------------------------------------------------------------------- */

/* Which MPI rank process pid is (Open MPI puts it in the environment), or -1. */
static int rank_of(long pid)
{
    char path[64], env[65536];
    size_t len;
    FILE *f;
    snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
    f = fopen(path, "r");
    if (!f)
        return -1;
    len = fread(env, 1, sizeof(env) - 1, f);
    fclose(f);
    env[len] = '\0';
    for (size_t i = 0; i < len; i += strlen(env + i) + 1)
        if (strncmp(env + i, "OMPI_COMM_WORLD_RANK=", 21) == 0)
            return atoi(env + i + 21);
    return -1;
}

enum { TO_EVERY_RANK = -1, TO_MPIRUN = -2 };

/* How start_and_signal signals: sig (twice when twice is set) to rank `to`, every rank or
 * mpirun; freeze >= 0 first stops that rank (SIGSTOP), so that it answers nothing, as a
 * rank deep in a task that does not look at its stop flag would. hold: rank 0 is paused
 * before the freeze until that rank has sent what it owes and waits for rank 0's answers,
 * and let go after it, so that rank 0 goes on by answering a stopped rank. */
typedef struct signal_plan {
    int to, sig, twice;
    int freeze;
    int hold;
} signal_plan;

/* Whether process pid runs a batch: has a thread named nq-mpi-batch (worker.c). */
static int runs_batch(long pid)
{
    char path[64], comm[32];
    struct dirent *e;
    DIR *d;
    int found = 0;

    snprintf(path, sizeof(path), "/proc/%ld/task", pid);
    d = opendir(path);
    while (d && !found && (e = readdir(d))) {
        FILE *f;
        snprintf(path, sizeof(path), "/proc/%ld/task/%.16s/comm", pid, e->d_name);
        f = e->d_name[0] != '.' ? fopen(path, "r") : NULL;
        if (f && fgets(comm, sizeof(comm), f))
            found = strcmp(comm, "nq-mpi-batch\n") == 0;
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return found;
}

/* SIGSTOP rank pid; with rank0 (its pid, else 0), pause rank 0 first: the rank finishes
 * the batches it holds, sends their results and waits for the answers, which a paused
 * rank 0 cannot send; once it has run no batch for 100 ms it is stopped, and rank 0 let
 * go to answer it. */
static void freeze_rank(long pid, long rank0)
{
    if (rank0) {
        int idle = 0;
        kill((pid_t)rank0, SIGSTOP);
        for (int waited = 0; idle < 100 && waited < 20000; waited++) {
            idle = runs_batch(pid) ? 0 : idle + 1;
            nanosleep(&(struct timespec){0, 1000000}, NULL);
        }
        cr_expect_eq(idle, 100, "the rank to freeze still ran a batch after 20 s");
    }
    kill((pid_t)pid, SIGSTOP);
    if (rank0)
        kill((pid_t)rank0, SIGCONT);
}

/* Start nqueens-mpi args on np ranks, wait until its journal holds that many records and
 * then after_ms more, signal as plan says, and wait for the end: o has the exit code and
 * what was printed. With a frozen rank the end must come within deadline seconds; if it
 * does not, the rank is let go (SIGCONT) so that the job can end, and 0 is returned. */
static int start_and_signal(int np, const char *const *args, const char *journal, long records,
                            long after_ms, signal_plan plan, double deadline)
{
    char out_path[SCRATCH_PATH], err_path[SCRATCH_PATH];
    int fo = scratch_file(out_path, sizeof(out_path), "mpi-out"),
        fe = scratch_file(err_path, sizeof(err_path), "mpi-err"), n_kids, n_hit = 0, in_time = 1;
    long kids[64], hit[64], frozen = 0, rank0 = 0;
    pid_t pid;

    cr_assert(fo >= 0 && fe >= 0);
    pid = mpi_spawn(np, args, fo, fe);
    /* records 0: the header is there, so every rank has its handlers */
    for (int waited = 0;
         journal_size(journal) < JOURNAL_HEADER_SIZE + records * JOURNAL_RECORD_SIZE &&
         waited < 20000;
         waited++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    nanosleep(&(struct timespec){after_ms / 1000, after_ms % 1000 * 1000000L}, NULL);
    n_kids = children_of(pid, kids, 64);
    cr_assert_eq(n_kids, np, "mpirun's children: %d", n_kids);
    if (plan.to == TO_MPIRUN)
        hit[n_hit++] = pid;
    for (int i = 0; i < n_kids; i++) {
        int r = rank_of(kids[i]);
        if (plan.to != TO_MPIRUN && (plan.to == TO_EVERY_RANK || r == plan.to))
            hit[n_hit++] = kids[i];
        if (plan.freeze >= 0 && r == plan.freeze)
            frozen = kids[i];
        if (r == 0)
            rank0 = kids[i];
    }
    cr_assert_gt(n_hit, 0, "no rank %d among mpirun's children", plan.to);
    cr_assert(plan.freeze < 0 || frozen, "no rank %d to freeze", plan.freeze);
    if (frozen)
        freeze_rank(frozen, plan.hold ? rank0 : 0);
    for (int k = 0; k < 1 + !!plan.twice; k++) {
        /* past the 200 ms in which a second signal is the same stop as the first */
        struct timespec gap = {0, 300000000};
        if (k)
            nanosleep(&gap, NULL);
        for (int i = 0; i < n_hit; i++)
            kill((pid_t)hit[i], plan.sig);
    }
    if (frozen && deadline > 0) {
        long polls = (long)(deadline * 100);
        int st;
        pid_t got = 0;
        for (long i = 0; i < polls && (got = waitpid(pid, &st, WNOHANG)) == 0; i++)
            nanosleep(&(struct timespec){0, 10000000}, NULL);
        if (got == 0) {
            in_time = 0;
            kill((pid_t)frozen, SIGCONT);
            cr_assert_eq(waitpid(pid, &st, 0), pid);
        }
        o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        lseek(fo, 0, SEEK_SET);
        lseek(fe, 0, SEEK_SET);
        cli_slurp(fo, o.out, sizeof(o.out));
        cli_slurp(fe, o.err, sizeof(o.err));
    } else {
        mpi_wait(&o, pid, fo, fe);
    }
    scratch_drop(fo, fe, out_path, err_path);
    return in_time;
}

static int occurrences(const char *s, const char *what)
{
    int k = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        k++;
    return k;
}

/* The stop as nqueens count reports it, once (rank 0 only), with whole records only. */
static void expect_interrupted(const char *journal, int n, const char *sig_name, int status)
{
    char hint[SCRATCH_PATH + 128], what[64];
    snprintf(hint, sizeof(hint),
             "nqueens-mpi count: resume with: nqueens-mpi count %d "
             "--checkpoint %s\n",
             n, journal);
    snprintf(what, sizeof(what), "nqueens-mpi count: interrupted by %s: ", sig_name);
    cr_expect_eq(o.status, status, "exit %d, stderr: %s", o.status, o.err);
    cr_expect_str_eq(o.out, "", "no total from a stopped run");
    cr_expect_eq(occurrences(o.err, what), 1, "%s", o.err);
    cr_expect_eq(occurrences(o.err, hint), 1, "%s", o.err);
    cr_expect_eq((journal_size(journal) - JOURNAL_HEADER_SIZE) % JOURNAL_RECORD_SIZE, 0,
                 "whole records only");
}

/* Resume the journal (np ranks, or nqueens when np is 0) with --progress=json: the total
 * and the final progress line, which counts the journal's tasks too, are the published.
 * partial: the journal must hold some of the tasks, not all; else any share. */
static void resume_journal(int np, int n, const char *journal, int partial)
{
    char n_s[8], want[64];
    const char *const args[] = {"count",        n_s,     "--threads",       "1", "--no-pin",
                                "--checkpoint", journal, "--progress=json", NULL};
    snprintf(n_s, sizeof(n_s), "%d", n);
    if (np)
        mpi_run(&o, np, args);
    else
        cli_run(&o, args);
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", n));
    if (partial) {
        expect_partial_resume(&o, want);
    } else {
        cr_assert_eq(o.status, 0, "stderr: %s", o.err);
        cr_expect_str_eq(o.out, want);
    }
    expect_progress(o.err, n, NULL);
}

static void expect_resume(int np, int n, const char *journal)
{
    resume_journal(np, n, journal, 1);
}

/* n=16 on three ranks of one thread: about a second, so the signal lands inside the run. */
static void signal_and_resume(int to, int sig, const char *sig_name)
{
    char journal[SCRATCH_PATH];
    const char *const args[] = {"count",    "16",           "--threads", "1",
                                "--no-pin", "--checkpoint", journal,     NULL};
    temp_path(journal, sizeof(journal), "journal");
    start_and_signal(3, args, journal, 5, 0, (signal_plan){to, sig, 0, -1, 0}, 0);
    expect_interrupted(journal, 16, sig_name, 128 + sig);
    expect_resume(2, 16, journal);
    unlink(journal);
}

Test(unit, mpi_sigint_to_every_rank_then_resume)
{
    signal_and_resume(TO_EVERY_RANK, SIGINT, "SIGINT");
}

/* The workers get no signal: rank 0's stop cancels their batches. */
Test(unit, mpi_sigterm_to_rank_0_then_resume)
{
    signal_and_resume(0, SIGTERM, "SIGTERM");
}

/* Rank 0 gets no signal: the worker's report stops the job, and rank 0 says so. */
Test(unit, mpi_sigint_to_one_worker_then_resume)
{
    signal_and_resume(2, SIGINT, "SIGINT");
}

/* One-row prefixes of n on two ranks (tasks of several seconds at n=18), sig sent to
 * rank 0 (twice when twice is set) once the tasks have started, with rank 1 frozen: it
 * answers no stop, so that rank 0 waits for it up to its grace, as it would for a task
 * that does not stop. Returns whether the job ended within deadline seconds (0: any). */
static int signal_frozen_worker(const char *n, const char *journal, int sig, int twice,
                                double deadline)
{
    const char *const args[] = {"count", n,           "--engine", "prefix",   "--prefix-rows",
                                "1",     "--threads", "1",        "--no-pin", "--checkpoint",
                                journal, NULL};
    /* the header is written before any task starts: give the ranks time to start some */
    return start_and_signal(2, args, journal, 0, 300, (signal_plan){0, sig, twice, 1, 0}, deadline);
}

/* A second signal does not wait for the first one's way out, here rank 0 waiting for a
 * rank that does not answer. */
Test(unit, mpi_second_signal_exits_at_once)
{
    char journal[SCRATCH_PATH];
    temp_path(journal, sizeof(journal), "journal");
    signal_frozen_worker("18", journal, SIGINT, 1, 0);
    cr_expect_eq(o.status, 128 + SIGINT, "exit %d, stderr: %s", o.status, o.err);
    cr_expect_null(strstr(o.err, "resume with"), "the first signal's slow path ran: %s", o.err);
    cr_expect_eq((journal_size(journal) - JOURNAL_HEADER_SIZE) % JOURNAL_RECORD_SIZE, 0);
    unlink(journal);
}

/* Ctrl-C on mpirun: Open MPI 4.1's mpirun sends the ranks SIGCONT, a second later SIGTERM
 * and a second after that SIGKILL, and exits 1 whatever they return. n = 19 runs long
 * enough for the SIGTERM to land inside the run (some 3 s on two ranks of one thread);
 * n = 17, a second in all since the join engine, ended before it. */
Test(slow, mpi_sigint_to_mpirun_reaches_the_ranks_as_sigterm)
{
    char journal[SCRATCH_PATH];
    const char *const args[] = {"count",    "19",           "--threads", "1",
                                "--no-pin", "--checkpoint", journal,     NULL};
    temp_path(journal, sizeof(journal), "journal");
    start_and_signal(2, args, journal, 5, 0, (signal_plan){TO_MPIRUN, SIGINT, 0, -1, 0}, 0);
    cr_expect_neq(o.status, 0, "stderr: %s", o.err);
    o.status = 0; /* mpirun's own code, not the tool's */
    expect_interrupted(journal, 19, "SIGTERM", 0);
    expect_resume(0, 19, journal); /* and nqueens finishes it */
    unlink(journal);
}

/* A rank that does not answer after a stop (frozen here; before the searches looked at
 * the stop flag, any rank deep in a long task): rank 0 still reports and ends the job
 * once its grace (10 s) is over, it does not wait for the rank. A coordinator that
 * waited would not end until the rank is let go, past the deadline, and fails this. */
Test(slow, mpi_stop_does_not_wait_for_long_tasks)
{
    char journal[SCRATCH_PATH];
    temp_path(journal, sizeof(journal), "journal");
    cr_expect(signal_frozen_worker("18", journal, SIGTERM, 0, 40.0),
              "rank 0 waited for the frozen rank past its grace");
    expect_interrupted(journal, 18, "SIGTERM", 128 + SIGTERM);
    unlink(journal);
}

/* ---- the steps before the first task -------------------------------------------------- */

/* Seconds since t0. */
static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* Wait (at most 30 s) until the file open at fd holds what. */
static void wait_for_text(int fd, const char *what)
{
    char buf[4096];
    for (int waited = 0; waited < 15000; waited++) {
        ssize_t k = pread(fd, buf, sizeof(buf) - 1, 0);
        buf[k > 0 ? k : 0] = '\0';
        if (strstr(buf, what))
            return;
        nanosleep(&(struct timespec){0, 2000000}, NULL);
    }
}

/* Open MPI's own end of a job whose ranks exit nonzero: the rank that is last in its
 * PMIx_Finalize waits there for mpirun, which is busy with the first one's exit code,
 * about a second (seen on rank 0 and on a worker alike), whatever the tool does. */
#define MPI_TEARDOWN_SECONDS 1.5

/* When sigint_ranks_early's run ended, in seconds from the signal: the note that it
 * stopped on stderr (rank 0, once every rank has stopped its work or waits on rank 0),
 * and every rank gone. */
typedef struct stop_times {
    double noted, gone;
} stop_times;

/* Start nqueens-mpi args on np ranks, SIGINT every rank once each has its handlers and
 * delay_ms more, and wait for the end: o has the exit code and what was printed. */
static stop_times sigint_ranks_early(int np, const char *const *args, long delay_ms)
{
    char out_path[SCRATCH_PATH], err_path[SCRATCH_PATH];
    int fo = scratch_file(out_path, sizeof(out_path), "mpi-out"),
        fe = scratch_file(err_path, sizeof(err_path), "mpi-err"), n_kids = 0, ready = 0;
    long kids[64];
    struct timespec t0;
    stop_times t;
    pid_t pid;

    cr_assert(fo >= 0 && fe >= 0);
    pid = mpi_spawn(np, args, fo, fe);
    for (int waited = 0; (n_kids < np || ready < np) && waited < 20000; waited++) {
        nanosleep(&(struct timespec){0, 1000000}, NULL);
        n_kids = children_of(pid, kids, 64);
        ready = 0;
        for (int i = 0; i < n_kids; i++)
            ready += takes_sigint(kids[i]);
    }
    cr_assert_eq(ready, np, "%d of %d ranks have their handlers", ready, np);
    nanosleep(&(struct timespec){delay_ms / 1000, delay_ms % 1000 * 1000000L}, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < n_kids; i++)
        kill((pid_t)kids[i], SIGINT);
    wait_for_text(fe, "interrupted by");
    t.noted = since(&t0);
    for (int i = 0; i < n_kids; i++)
        wait_exited(kids[i], 30000);
    t.gone = since(&t0);
    mpi_wait(&o, pid, fo, fe);
    scratch_drop(fo, fe, out_path, err_path);
    return t;
}

/* The stop in t as the tool promises it (what: the case): the note within the bound,
 * every rank gone within it and Open MPI's teardown, exit 130. */
static void expect_prompt_mpi_stop(stop_times t, const char *what)
{
    cr_expect_eq(o.status, 130, "%s: exit %d: %s", what, o.status, o.err);
    cr_expect_lt(t.noted, STOP_BOUND, "%s: stopped %.2f s after the signal", what, t.noted);
    cr_expect_lt(t.gone, STOP_BOUND + MPI_TEARDOWN_SECONDS,
                 "%s: the ranks were gone %.2f s after the signal", what, t.gone);
}

/* At n = 27 the join's task count (0.17 s on one thread; 6 s before an odd board's top
 * was tested by two middles), on rank 0 before the coordinator starts, and with a journal
 * to describe the task set first, then the engine's tables (tens of seconds): the first
 * SIGINT, 300 ms after the ranks have their handlers, lands in one or the other with the
 * machine's load, and ends every rank within the bound, one line, exit 130, nothing
 * counted, and with a journal the hint to resume; stopped in the count, the journal is
 * not started (an empty file is a new one). */
Test(unit, mpi_sigint_stops_the_setup)
{
    char journal[SCRATCH_PATH], hint[SCRATCH_PATH + 128];
    const char *const count[] = {"count",     "27", "--engine", "join",
                                 "--threads", "1",  "--no-pin", NULL};
    const char *const resumable[] = {"count", "27",       "--engine",     "join",  "--threads",
                                     "1",     "--no-pin", "--checkpoint", journal, NULL};
    const char *counting = "nqueens-mpi count: interrupted by SIGINT while its tasks were "
                           "counted, before any task ran;";

    expect_prompt_mpi_stop(sigint_ranks_early(2, count, 300), "count 27 --engine join");
    cr_expect_eq(occurrences(o.err, "interrupted by SIGINT"), 1, "%s", o.err);
    cr_expect_eq(count_lines(o.err), 1, "one line: %s", o.err);
    cr_expect_str_eq(o.out, "");

    temp_path(journal, sizeof(journal), "journal");
    expect_prompt_mpi_stop(sigint_ranks_early(2, resumable, 300), "--checkpoint");
    cr_expect_eq(occurrences(o.err, "interrupted by SIGINT"), 1, "%s", o.err);
    snprintf(hint, sizeof(hint), "resume with: nqueens-mpi count 27 --checkpoint %s\n", journal);
    cr_expect_eq(occurrences(o.err, hint), 1, "%s", o.err);
    if (occurrences(o.err, counting))
        cr_expect_eq(journal_size(journal), 0,
                     "stopped in the count, the run wrote to the journal");
    unlink(journal);
}

/* ---- a rank that sends nothing ---------------------------------------------------------- */

/* n = 18 on three ranks with --worker-timeout 2 and a journal, rank 1 stopped (SIGSTOP)
 * once the journal holds `records` records (with hold, as signal_plan says): rank 0 ends
 * the run within 30 s, exit 1, rank 1 named, the journal whole and resumable. Rank 1 may
 * have been stopped before it was given any task: the others may then have recorded
 * every one. */
static void expect_silent_rank_1_ends_the_run(long records, int hold)
{
    char journal[SCRATCH_PATH], hint[SCRATCH_PATH + 128];
    const char *const args[] = {"count",        "18",    "--threads",        "1", "--no-pin",
                                "--checkpoint", journal, "--worker-timeout", "2", NULL};

    temp_path(journal, sizeof(journal), "journal");
    /* signal 0 to rank 1: nothing but the freeze */
    int in_time =
        start_and_signal(3, args, journal, records, 0, (signal_plan){1, 0, 0, 1, hold}, 30.0);
    cr_expect(in_time, "rank 0 waited for ever on the stopped rank: %s", o.err);
    cr_expect_eq(o.status, 1, "exit %d, stderr: %s", o.status, o.err);
    cr_expect_str_eq(o.out, "", "no total from a stopped run");
    cr_expect_not_null(strstr(o.err, "rank 1 sent nothing for 2 s"), "%s", o.err);
    snprintf(hint, sizeof(hint),
             "nqueens-mpi count: resume with: nqueens-mpi count 18 --checkpoint %s\n", journal);
    cr_expect_eq(occurrences(o.err, hint), 1, "%s", o.err);
    cr_expect_eq((journal_size(journal) - JOURNAL_HEADER_SIZE) % JOURNAL_RECORD_SIZE, 0,
                 "whole records only");
    resume_journal(2, 18, journal, 0);
    unlink(journal);
}

/* A rank stopped with SIGSTOP (as a hung or cut-off one) ends the run once it has sent
 * nothing for --worker-timeout, and rank 0 does not wait for the grace of a stop. Rank 1
 * is frozen as soon as the journal has its header, before any task can have run, so that
 * the run cannot end first: frozen after 5 records, n = 18's whole run once had, under
 * load (exit 0). Rank 1 is then anywhere in its start, wherever the load put it: in the
 * plan's broadcast, making its solver, its first requests sent and their answers on
 * their way (which once held rank 0 for ever), or in its first batch. */
Test(unit, mpi_silent_worker_ends_the_run_resumable)
{
    expect_silent_rank_1_ends_the_run(0, 0);
}

/* Rank 1 stopped while rank 0 answers it: rank 0 paused until rank 1 has sent the
 * results of the batches it held, then rank 1 frozen and rank 0 let go, so that the next
 * batch rank 0 sends it (thousands of bytes: a send that waits for the receiver) goes to
 * a stopped rank. Rank 0 once waited in that send for ever, past the timeout and with
 * the watch with it, until rank 1 was let go (exit 0). Rank 0 serves once the journal
 * has a record. */
Test(unit, mpi_worker_stopped_before_its_answer_ends_the_run)
{
    expect_silent_rank_1_ends_the_run(1, 1);
}

/* A rank busy with a batch longer than the timeout is not silent: it says it runs. d4's
 * first batches at n = 18 take seconds; after 3.5 s the run is stopped by SIGINT, and
 * that, not a silent rank, is what ended it. */
Test(slow, mpi_long_batches_are_not_silence)
{
    char journal[SCRATCH_PATH];
    const char *const args[] = {"count", "18",       "--engine",     "d4",    "--threads",
                                "1",     "--no-pin", "--checkpoint", journal, "--worker-timeout",
                                "1",     NULL};
    temp_path(journal, sizeof(journal), "journal");
    start_and_signal(2, args, journal, 0, 3500, (signal_plan){TO_EVERY_RANK, SIGINT, 0, -1, 0}, 0);
    cr_expect_null(strstr(o.err, "sent nothing"), "%s", o.err);
    expect_interrupted(journal, 18, "SIGINT", 128 + SIGINT);
    unlink(journal);
}
