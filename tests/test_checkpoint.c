/* nqueens count --checkpoint as a person uses it: kill -9 at random points and resume,
 * SIGINT and SIGTERM, damaged journals, progress output, --subtotals, bad options. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_run.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"
#include "store/journal.h"

static cli_out o;
static char jpath[64], spath[64];

static void make_paths(void)
{
    int fd;
    strcpy(jpath, "/tmp/nq-ckpt-XXXXXX");
    fd = mkstemp(jpath);
    cr_assert(fd >= 0);
    close(fd);
    unlink(jpath);
    snprintf(spath, sizeof(spath), "%s.csv", jpath);
}

static void cleanup(void)
{
    char tmp[80];
    unlink(jpath);
    unlink(spath);
    snprintf(tmp, sizeof(tmp), "%s.tmp", jpath);
    unlink(tmp);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static off_t file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? st.st_size : -1;
}

static void expect_total(const cli_out *c, int n)
{
    char want[64];
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", n));
    cr_expect_eq(c->status, 0, "n=%d exit %d, stderr: %s", n, c->status, c->err);
    cr_expect_str_eq(c->out, want, "n=%d", n);
}

/* Kill -9 the count of n up to kills times, each after a random delay below max_ms, then
 * let it finish: the resumed total must be the published one. */
static void kill_and_resume(int n, unsigned seed, int kills, long max_ms)
{
    char n_s[8];
    snprintf(n_s, sizeof(n_s), "%d", n);
    const char *const args[] = {"count", n_s,        "--checkpoint",    jpath, "--threads",
                                "2",     "--no-pin", "--sync-interval", "0",   NULL};

    make_paths();
    for (int k = 0; k < kills; k++) {
        pid_t pid = cli_start(args, -1, -1);
        sleep_ms((long)(rand_r(&seed) % (unsigned)max_ms));
        kill(pid, SIGKILL);
        cli_wait(pid);
    }
    cli_run(&o, args);
    expect_total(&o, n);
    cr_expect_null(strstr(o.err, "error"), "%s", o.err);
    cleanup();
}

Test(unit, kill9_and_resume)
{
    kill_and_resume(13, 1, 3, 40);
    kill_and_resume(14, 2, 3, 150);
    kill_and_resume(15, 3, 2, 700);
}

Test(slow, kill9_and_resume_many_seeds)
{
    for (unsigned seed = 10; seed < 20; seed++) {
        kill_and_resume(13, seed, 4, 40);
        kill_and_resume(14, seed, 4, 150);
        kill_and_resume(15, seed, 4, 900);
    }
}

/* Start args with stdout discarded and stderr kept in a temporary file (*fe, path). */
static pid_t start_keeping_stderr(const char *const *args, int *fe, char *path)
{
    *fe = mkstemp(path);
    cr_assert(*fe >= 0);
    return cli_start(args, -1, *fe);
}

/* Wait for it: its exit code, with what it printed on stderr in o.err. */
static int finish_keeping_stderr(pid_t pid, int fe, const char *path)
{
    int st = cli_wait(pid);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fe, o.err, sizeof(o.err));
    close(fe);
    unlink(path);
    return st;
}

/* Start n=16 on one thread, wait for some records, send sig: exit 128 + sig, the hint
 * says how to resume, and resuming gives the exact total. */
static void signal_and_resume(int sig)
{
    /* n=16: long enough (about a second) that the signal lands inside the run */
    const char *const args[] = {"count",     "16", "--checkpoint", jpath,
                                "--threads", "1",  "--no-pin",     NULL};
    char err_path[] = "/tmp/nq-ckpt-err-XXXXXX";
    int fe, st;
    pid_t pid;

    make_paths();
    pid = start_keeping_stderr(args, &fe, err_path);
    /* Wait for a few records, so the signal lands inside the run. */
    for (int i = 0; i < 2000 && file_size(jpath) < JOURNAL_HEADER_SIZE + 5 * JOURNAL_RECORD_SIZE;
         i++)
        sleep_ms(1);
    kill(pid, sig);
    st = finish_keeping_stderr(pid, fe, err_path);
    cr_expect_eq(st, 128 + sig, "exit %d, stderr: %s", st, o.err);
    cr_expect_not_null(strstr(o.err, "resume with: nqueens count 16 --checkpoint"), "%s", o.err);
    cr_expect_eq((file_size(jpath) - JOURNAL_HEADER_SIZE) % JOURNAL_RECORD_SIZE, 0,
                 "whole records only");
    cli_run(&o, args);
    expect_total(&o, 16);
    cr_expect_not_null(strstr(o.err, "resuming from"), "%s", o.err);
    cleanup();
}

/* A second signal does not wait for the first one's way out (the stop, the final fsync,
 * how to resume): it ends the process at once, and what was recorded stays a valid
 * journal. A first signal now stops even a task of hours within milliseconds, so the two
 * must arrive together: the process is held (SIGSTOP) while SIGINT and SIGTERM are sent
 * (two of one kind would merge into one), then let go; whichever is handled second exits
 * with its code, before the first one's slow path could print anything. */
Test(unit, second_sigint_exits_at_once)
{
    const char *const args[] = {"count", "18",        "--engine", "prefix",   "--prefix-rows",
                                "1",     "--threads", "1",        "--no-pin", "--checkpoint",
                                jpath,   NULL};
    char err_path[] = "/tmp/nq-ckpt-err-XXXXXX";
    int fe, st;
    pid_t pid;

    make_paths();
    pid = start_keeping_stderr(args, &fe, err_path);
    for (int i = 0; i < 2000 && file_size(jpath) < JOURNAL_HEADER_SIZE; i++)
        sleep_ms(1); /* the header is on disk: the run has started */
    sleep_ms(50);
    kill(pid, SIGSTOP);
    kill(pid, SIGINT);
    kill(pid, SIGTERM);
    kill(pid, SIGCONT);
    st = finish_keeping_stderr(pid, fe, err_path);
    cr_expect(st == 128 + SIGINT || st == 128 + SIGTERM, "exit %d, stderr: %s", st, o.err);
    cr_expect_null(strstr(o.err, "resume with"), "the first signal's slow path ran: %s", o.err);
    cr_expect_eq((file_size(jpath) - JOURNAL_HEADER_SIZE) % JOURNAL_RECORD_SIZE, 0,
                 "whole records only");
    cleanup();
}

Test(unit, sigint_then_resume)
{
    signal_and_resume(SIGINT);
}

Test(unit, sigterm_then_resume)
{
    signal_and_resume(SIGTERM);
}

static void run_12(void)
{
    const char *const args[] = {"count",    "12",     "--checkpoint", jpath,
                                "--engine", "prefix", "--no-pin",     NULL};
    cli_run(&o, args);
}

static void append_bytes(const void *b, size_t len)
{
    int fd = open(jpath, O_WRONLY | O_APPEND);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, b, len), (ssize_t)len);
    close(fd);
}

static void expect_journal_error(const char *what)
{
    cr_expect_eq(o.status, 1, "%s: exit %d, stderr: %s", what, o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s: one line, got: %s", what, o.err);
    cr_expect_str_eq(o.out, "", "%s: no total", what);
}

Test(unit, torn_tail_is_reported_and_recomputed)
{
    make_paths();
    run_12();
    expect_total(&o, 12);
    cr_expect_str_eq(o.err, "", "no progress, no notes on a fresh run into a file");
    append_bytes("\x01\x02\x03\x04\x05\x06\x07", 7);
    run_12();
    expect_total(&o, 12);
    cr_expect_not_null(strstr(o.err, "torn"), "%s", o.err);
    cr_expect_eq((file_size(jpath) - JOURNAL_HEADER_SIZE) % JOURNAL_RECORD_SIZE, 0);
    cleanup();
}

Test(unit, damaged_journals_are_errors)
{
    unsigned char b;
    int fd;

    /* A flipped byte in the middle. */
    make_paths();
    run_12();
    fd = open(jpath, O_RDWR);
    cr_assert_eq(pread(fd, &b, 1, JOURNAL_HEADER_SIZE + 3 * JOURNAL_RECORD_SIZE + 8), 1);
    b ^= 1;
    cr_assert_eq(pwrite(fd, &b, 1, JOURNAL_HEADER_SIZE + 3 * JOURNAL_RECORD_SIZE + 8), 1);
    close(fd);
    run_12();
    expect_journal_error("flipped byte");
    cr_expect_not_null(strstr(o.err, "checksum"), "%s", o.err);
    cleanup();

    /* A foreign header: the journal of another n, or another prefix depth. */
    make_paths();
    run_12();
    {
        const char *const args[] = {"count", "11", "--checkpoint", jpath, NULL};
        cli_run(&o, args);
        expect_journal_error("other n");
        const char *const args2[] = {
            "count", "12", "--checkpoint", jpath, "--engine", "prefix", "--prefix-rows", "4", NULL};
        cli_run(&o, args2);
        expect_journal_error("other depth");
    }
    cleanup();

    /* A file that is not a journal. */
    make_paths();
    fd = open(jpath, O_WRONLY | O_CREAT, 0644);
    cr_assert_eq(write(fd, "total,1\n", 8), 8);
    close(fd);
    run_12();
    expect_journal_error("not a journal");
    cleanup();

    /* One task recorded twice with two subtotals. */
    make_paths();
    {
        nq_settings s;
        nq_task_set ts;
        nq_journal *j;
        nq_journal_info info;
        nq_default_settings(&s);
        s.engine = NQ_ENGINE_PREFIX;
        s.n = 12;
        s.n_threads = 2;
        cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
        cr_assert_eq(nq_journal_open(&j, jpath, &ts, 5, &info), NQ_OK);
        nq_journal_append(j, 7, 100);
        nq_journal_append(j, 8, 100);
        nq_journal_append(j, 7, 101);
        nq_journal_close(&j);
    }
    run_12();
    expect_journal_error("conflicting duplicate");
    cr_expect_not_null(strstr(o.err, "task 7"), "%s", o.err);
    cleanup();
}

Test(unit, progress_only_when_asked)
{
    const char *const quiet[] = {"count", "12", "--no-pin", NULL};
    const char *const json[] = {"count", "12", "--no-pin", "--progress=json", NULL};
    const char *const off[] = {"count", "12", "--no-pin", "--progress", "--no-progress", NULL};

    cli_run(&o, quiet);
    expect_total(&o, 12);
    cr_expect_str_eq(o.err, "", "stderr is a file: no progress");
    cli_run(&o, off);
    expect_total(&o, 12);
    cr_expect_str_eq(o.err, "");
    cli_run(&o, json);
    expect_total(&o, 12);
    cr_expect_not_null(strstr(o.err, "{\"progress\": {\"tasks_done\": "), "%s", o.err);
    cr_expect_not_null(strstr(o.err, "\"final\": true}}\n"), "%s", o.err);
}

/* Read a --subtotals file into buf; returns its number of lines. */
static int slurp_file(const char *p, char *buf, size_t size)
{
    int fd = open(p, O_RDONLY);
    cr_assert(fd >= 0, "cannot open %s", p);
    cli_slurp(fd, buf, size);
    close(fd);
    return count_lines(buf);
}

Test(unit, subtotals_agree_across_runs)
{
    static char a[65536], b[65536];
    const char *const one[] = {"count",    "13",          "--threads", "1",
                               "--no-pin", "--subtotals", spath,       "--prefix-rows",
                               "3",        "--engine",    "prefix",    NULL};
    const char *const two[] = {"count",         "13",       "--threads",    "2",   "--no-pin",
                               "--prefix-rows", "3",        "--checkpoint", jpath, "--subtotals",
                               spath,           "--engine", "prefix",       NULL};
    nq_settings s;
    nq_task_set ts;

    make_paths();
    nq_default_settings(&s);
    s.engine = NQ_ENGINE_PREFIX;
    s.n = 13;
    s.prefix_rows = 3;
    cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
    cli_run(&o, one);
    expect_total(&o, 13);
    cr_expect_eq(slurp_file(spath, a, sizeof(a)), (int)ts.tasks + 1, "a header and one per task");
    cr_expect_eq(strncmp(a, "task,subtotal\n0,", 16), 0, "%.40s", a);
    /* Another thread count, through the journal, and again entirely from the journal. */
    for (int k = 0; k < 2; k++) {
        cli_run(&o, two);
        expect_total(&o, 13);
        slurp_file(spath, b, sizeof(b));
        cr_expect_str_eq(a, b, "run %d", k);
    }
    cleanup();
}

Test(unit, bad_long_run_options_exit_2)
{
    const char *const cases[][6] = {
        {"count", "8", "--checkpoint", NULL},
        {"count", "8", "--checkpoint=", NULL},
        {"count", "8", "--subtotals", NULL},
        {"count", "8", "--sync-interval", NULL},
        {"count", "8", "--sync-interval", "-1", NULL},
        {"count", "8", "--sync-interval", "86401", NULL},
        {"count", "8", "--sync-interval", "5s", NULL},
        {"count", "8", "--sync-interval", "", NULL},
        {"count", "8", "--sync-interval=1e3", NULL},
        {"count", "8", "--progress=xml", NULL},
        {"count", "8", "--progress=", NULL},
        {"count", "8", "--no-progress=1", NULL},
        {"count", "8", "--checkpoint", "/tmp/x", "--subtotals=/tmp/x", NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cli_run(&o, cases[i]);
        cr_expect_eq(o.status, 2, "case %zu: exit %d (%s)", i, o.status, o.err);
        cr_expect_eq(count_lines(o.err), 1, "case %zu: %s", i, o.err);
        cr_expect_str_eq(o.out, "", "case %zu", i);
    }
}

Test(unit, unwritable_checkpoint_is_a_run_error)
{
    const char *const args[] = {"count", "8", "--checkpoint", "/nonexistent-dir/j", NULL};
    cli_run(&o, args);
    expect_journal_error("unwritable path");
}

/* "Rerun the same command" must resume whatever engine the journal names: without
 * --engine the journal's engine is taken; with a contradicting --engine it is an error. */
Test(unit, resume_takes_the_journal_engine)
{
    const char *const resume[] = {"count", "12", "--checkpoint", jpath, "--no-pin", NULL};
    const char *const other[] = {"count",    "12", "--checkpoint", jpath,
                                 "--engine", "d4", "--no-pin",     NULL};

    make_paths();
    run_12(); /* --engine prefix */
    expect_total(&o, 12);
    cli_run(&o, resume);
    expect_total(&o, 12);
    cr_expect_not_null(strstr(o.err, "already done"), "%s", o.err);
    cli_run(&o, other);
    expect_journal_error("engine d4 against a prefix journal");
    cleanup();
}
