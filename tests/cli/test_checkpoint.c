/* nqueens count --checkpoint as a person uses it: kill -9 at random points and resume,
 * SIGINT and SIGTERM, damaged journals, progress output, --subtotals, bad options. */
#define _GNU_SOURCE /* sched_setaffinity */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_run.h"
#include "engine_check_settings.h"
#include "journal_forge.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"
#include "store/journal.h"

static cli_out o;
static char jpath[SCRATCH_PATH], spath[SCRATCH_PATH_LONGER];

static void make_paths(void)
{
    cr_assert_eq(scratch_name(jpath, sizeof(jpath), "ckpt"), 0);
    snprintf(spath, sizeof(spath), "%s.csv", jpath);
}

static void cleanup(void)
{
    scratch_remove_journal(jpath);
    unlink(spath);
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

/* Start args with stdout discarded and stderr kept in a temporary file (*fe, path, of
 * SCRATCH_PATH bytes). */
static pid_t start_keeping_stderr(const char *const *args, int *fe, char *path)
{
    *fe = scratch_file(path, SCRATCH_PATH, "ckpt-err");
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

/* Start args, wait until the journal at journal holds a few records (so that the signal
 * lands inside the run), send sig and wait: the exit code, with stderr in o.err. */
static int interrupt_after_records(const char *const *args, const char *journal, int sig)
{
    char err_path[SCRATCH_PATH];
    int fe;
    pid_t pid = start_keeping_stderr(args, &fe, err_path);

    for (int i = 0; i < 2000 && file_size(journal) < JOURNAL_HEADER_SIZE + 5 * JOURNAL_RECORD_SIZE;
         i++)
        sleep_ms(1);
    kill(pid, sig);
    return finish_keeping_stderr(pid, fe, err_path);
}

/* Start n=16 on one thread, wait for some records, send sig: exit 128 + sig, the hint
 * says how to resume, and resuming gives the exact total. */
static void signal_and_resume(int sig)
{
    /* n=16: long enough (about a second) that the signal lands inside the run */
    const char *const args[] = {"count",     "16", "--checkpoint", jpath,
                                "--threads", "1",  "--no-pin",     NULL};
    int st;

    make_paths();
    st = interrupt_after_records(args, jpath, sig);
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
 * journal. A first signal now stops even a task of hours within milliseconds, so its way
 * out is held up here: stderr is a pipe already full, so that the note on how to resume
 * blocks. The second signal comes 300 ms after the first, past the 200 ms in which
 * signals are one stop. */
Test(unit, second_sigint_exits_at_once)
{
    const char *const args[] = {"count", "18",        "--engine", "prefix",   "--prefix-rows",
                                "1",     "--threads", "1",        "--no-pin", "--checkpoint",
                                jpath,   NULL};
    char fill[4096];
    int pipe_fd[2], st = 0, ended = 0;
    pid_t pid;

    make_paths();
    cr_assert_eq(pipe2(pipe_fd, O_NONBLOCK), 0);
    fcntl(pipe_fd[1], F_SETPIPE_SZ, 4096);
    memset(fill, 'x', sizeof(fill));
    while (write(pipe_fd[1], fill, sizeof(fill)) > 0)
        ;
    fcntl(pipe_fd[1], F_SETFL, 0); /* the count's writes wait, as on a full pipe they do */
    pid = cli_start(args, -1, pipe_fd[1]);
    for (int i = 0; i < 2000 && file_size(jpath) < JOURNAL_HEADER_SIZE; i++)
        sleep_ms(1); /* the header is on disk: the run has started */
    sleep_ms(50);
    kill(pid, SIGINT);
    sleep_ms(300);
    cr_expect_eq(waitpid(pid, &st, WNOHANG), 0, "the first signal's way out did not block");
    kill(pid, SIGTERM);
    for (int i = 0; i < 200 && !ended; i++) {
        ended = waitpid(pid, &st, WNOHANG) == pid;
        sleep_ms(10);
    }
    if (!ended) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        cr_expect_fail("the second signal did not end the count within 2 s");
    } else
        cr_expect(WIFEXITED(st) ? WEXITSTATUS(st) == 128 + SIGTERM : WTERMSIG(st) == SIGTERM,
                  "status %d", st);
    cr_expect_eq((file_size(jpath) - JOURNAL_HEADER_SIZE) % JOURNAL_RECORD_SIZE, 0,
                 "whole records only");
    close(pipe_fd[0]);
    close(pipe_fd[1]);
    cleanup();
}

/* timeout -s INT signals the child and then its process group, and Ctrl-C reaches every
 * process of the terminal's group: one request, two signals within a millisecond or
 * two. They are one stop: the count says how to resume and exits 130 (143). It used to
 * take the second as "exit at once", with no resume hint, in 4 of 4 runs. */
Test(unit, two_signals_together_are_one_stop)
{
    const char *const args[] = {"count", "18",        "--engine", "prefix",   "--prefix-rows",
                                "1",     "--threads", "1",        "--no-pin", "--checkpoint",
                                jpath,   NULL};
    static const int second[] = {SIGTERM, SIGINT};

    for (int k = 0; k < 2; k++) {
        char err_path[SCRATCH_PATH];
        int fe, st;
        pid_t pid;

        make_paths();
        pid = start_keeping_stderr(args, &fe, err_path);
        for (int i = 0; i < 2000 && file_size(jpath) < JOURNAL_HEADER_SIZE; i++)
            sleep_ms(1);
        sleep_ms(50);
        kill(pid, SIGINT);
        if (second[k] == SIGINT)
            sleep_ms(20); /* two of one kind, both pending, would merge into one */
        kill(pid, second[k]);
        st = finish_keeping_stderr(pid, fe, err_path);
        cr_expect(st == 128 + SIGINT || st == 128 + SIGTERM, "case %d: exit %d (%s)", k, st, o.err);
        cr_expect_not_null(strstr(o.err, "resume with"), "case %d: no hint: %s", k, o.err);
        cleanup();
    }
}

/* The resume hint for a path with a newline, a quote and 600 bytes pastes as that
 * path: it is one whole shell word, while the note above it shortens the path. */
Test(unit, resume_hint_pastes_as_the_same_path)
{
    static char path[1024], word[2048], got[2048];
    char dir[SCRATCH_PATH];
    const char *const args[] = {"count",     "16", "--checkpoint", path,
                                "--threads", "1",  "--no-pin",     NULL};
    const char *hint, *end;
    size_t len;
    int st;

    cr_assert_not_null(scratch_mkdir(dir, sizeof(dir), "hint"));
    len = (size_t)snprintf(path, sizeof(path), "%s/", dir);
    for (int d = 0; d < 3; d++) { /* three directories of 200 bytes */
        memset(path + len, 'a' + d, 200);
        path[len + 200] = '\0';
        cr_assert_eq(mkdir(path, 0700), 0);
        len += 200;
        path[len++] = '/';
    }
    strcpy(path + len, "it's\na \\journal");
    st = interrupt_after_records(args, path, SIGINT);
    cr_assert_eq(st, 130, "exit %d, stderr: %s", st, o.err);
    cr_expect_not_null(strstr(o.err, "..."), "the note shortens the path: %s", o.err);
    hint = strstr(o.err, "resume with: nqueens count 16 --checkpoint ");
    cr_assert_not_null(hint, "%s", o.err);
    hint += strlen("resume with: nqueens count 16 --checkpoint ");
    end = strchr(hint, '\n');
    cr_assert_not_null(end);
    cr_assert_lt((size_t)(end - hint), sizeof(word));
    memcpy(word, hint, (size_t)(end - hint));
    word[end - hint] = '\0';
    cli_shell_reads(word, got, sizeof(got));
    cr_expect_str_eq(got, path, "the hint names another file: %s", word);
    cli_run(&o, args); /* and it resumes */
    expect_total(&o, 16);
    cr_expect_not_null(strstr(o.err, "resuming from"), "%s", o.err);
    unlink(path);
    for (int d = 2; d >= 0; d--) {
        *strrchr(path, '/') = '\0';
        rmdir(path);
    }
    rmdir(dir);
}

Test(unit, sigint_then_resume)
{
    signal_and_resume(SIGINT);
}

Test(unit, sigterm_then_resume)
{
    signal_and_resume(SIGTERM);
}

/* A resumed count's rate is of what it counted itself: the journal's share took no time
 * in this run (it used to be divided by this run's seconds all the same). d4, whose
 * first tasks have solutions: the join's first ones have none, so that a journal of a
 * few of them would hold nothing to leave out. */
Test(unit, resumed_rate_leaves_out_the_journal)
{
    const char *const args[] = {"count",     "16", "--checkpoint", jpath,    "--engine", "d4",
                                "--threads", "1",  "--no-pin",     "--json", NULL};
    double total, reused, rate, sec;

    make_paths();
    cr_assert_eq(interrupt_after_records(args, jpath, SIGINT), 130, "%s", o.err);
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    total = cli_json_number(o.out, "total");
    reused = cli_json_number(o.out, "reused_total");
    rate = cli_json_number(o.out, "solutions_per_second");
    sec = cli_json_number(o.out, "seconds");
    cr_expect_eq(total, (double)oeis_value("A000170", 16), "%s", o.out);
    cr_expect_gt(cli_json_number(o.out, "reused_tasks"), 0, "%s", o.out);
    cr_expect(reused > 0 && reused < total, "%s", o.out);
    cr_assert_gt(sec, 0, "%s", o.out);
    cr_expect_float_eq(rate, (total - reused) / sec, 0.01 * rate + 1, "%s", o.out);
    /* everything in the journal: nothing counted, no rate */
    cli_run(&o, args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_expect_eq(cli_json_number(o.out, "reused_total"), total, "%s", o.out);
    cr_expect_not_null(strstr(o.out, "\"solutions_per_second\": null"), "%s", o.out);
    cleanup();
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
        cr_expect_eq(nq_journal_append(j, 7, 101), NQ_ECORRUPT, "the library refuses it");
        nq_journal_close(&j);
        forge_write(jpath, -1, 7, 101, JOURNAL_KIND_TASK); /* so does the reader */
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
    cr_expect_not_null(strstr(o.err, "{\"progress\": {\"schema\": 2, \"tasks_done\": "), "%s",
                       o.err);
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
    cr_expect_eq(strncmp(a, "task,subtotal,weight,weighted\n0,", 32), 0, "%.40s", a);
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
    const char *const cases[] = {
        "count 8 --checkpoint",
        "count 8 --checkpoint=",
        "count 8 --subtotals",
        "count 8 --sync-interval",
        "count 8 --sync-interval -1",
        "count 8 --sync-interval 86401",
        "count 8 --sync-interval 5s",
        "count 8 --sync-interval ''",
        "count 8 --sync-interval=1e3",
        "count 8 --progress=xml",
        "count 8 --progress=",
        "count 8 --no-progress=1",
        "count 8 --checkpoint /tmp/x --subtotals=/tmp/x",
    };
    cli_expect_usage_errors(cases);
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

/* ---- what the hostile test run broke (issue 14) ------------------------------------- */

/* The weighted column of --subtotals adds up to the total, for every engine. */
static void expect_subtotals_sum(const char *path, int n)
{
    static char buf[1 << 20];
    unsigned long long id, sub, weighted, sum = 0;
    unsigned weight;
    char *line;
    int rows = 0;

    slurp_file(path, buf, sizeof(buf));
    cr_assert_eq(strncmp(buf, "task,subtotal,weight,weighted\n", 30), 0, "%.60s", buf);
    for (line = strchr(buf, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        cr_assert_eq(sscanf(line, "%llu,%llu,%u,%llu", &id, &sub, &weight, &weighted), 4, "%.40s",
                     line);
        cr_expect_eq(id, (unsigned long long)rows, "ids in order");
        cr_expect(weight == 1 || weight == 2 || weight == 4 || weight == 8, "weight %u", weight);
        cr_expect_eq(weighted, sub * weight);
        sum += weighted;
        rows++;
    }
    cr_expect_eq(sum, oeis_value("A000170", n), "n=%d: the weighted column sums to %llu", n, sum);
}

Test(unit, subtotals_add_up_to_the_total)
{
    const char *const d4[] = {"count", "12", "--no-pin", "--subtotals", spath, NULL};
    const char *const prefix[] = {"count",    "13",     "--no-pin",      "--subtotals", spath,
                                  "--engine", "prefix", "--prefix-rows", "3",           NULL};
    make_paths();
    cli_run(&o, d4);
    expect_total(&o, 12);
    expect_subtotals_sum(spath, 12);
    cli_run(&o, prefix);
    expect_total(&o, 13);
    expect_subtotals_sum(spath, 13);
    cleanup();
}

/* Wait for pid at most seconds (generous: this is about hanging, never about speed);
 * kill it and fail if it is still running then. Returns its exit code. */
static int wait_within(pid_t pid, int seconds, const char *what)
{
    int st;
    for (int i = 0; i < seconds * 100; i++) {
        pid_t got = waitpid(pid, &st, WNOHANG);
        cr_assert_neq(got, -1);
        if (got == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        sleep_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    cr_assert_fail("%s: still running after %d s", what, seconds);
    return -1;
}

/* Run args; it must end within seconds. stderr is kept in o.err. */
static int run_within(const char *const *args, int seconds, const char *what)
{
    char err_path[SCRATCH_PATH];
    int fe, st;
    pid_t pid = start_keeping_stderr(args, &fe, err_path);
    st = wait_within(pid, seconds, what);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fe, o.err, sizeof(o.err));
    close(fe);
    unlink(err_path);
    return st;
}

/* A subtotal edited with its checksum recomputed passes every check of the file; for
 * n <= 27 the published count catches it: exit 1, one line, no total. */
Test(unit, forged_subtotal_is_caught_by_the_table)
{
    const char *const json[] = {"count",  "12",       "--checkpoint", jpath, "--engine",
                                "prefix", "--no-pin", "--json",       NULL};
    make_paths();
    run_12();
    expect_total(&o, 12);
    forge_edit_subtotal(jpath, 3, 4);
    for (int k = 0; k < 2; k++) {
        if (k == 0)
            run_12();
        else
            cli_run(&o, json);
        cr_expect_eq(o.status, 1, "exit %d, stderr: %s", o.status, o.err);
        cr_expect_str_eq(o.out, "", "no total, not even one marked unverified");
        cr_assert_not_null(strstr(o.err, "wrong total"), "%s", o.err);
        cr_expect_not_null(strstr(o.err, "may be damaged"), "%s", o.err);
        cr_expect_eq(count_lines(strstr(o.err, "wrong total")), 1, "%s", o.err);
    }
    cleanup();
}

/* The records of an n=13 journal behind the header of an n=12 one. */
Test(unit, body_of_another_journal_is_refused)
{
    static unsigned char a[1 << 16], b[1 << 16];
    const char *const args13[] = {"count",  "13",       "--checkpoint",  jpath, "--engine",
                                  "prefix", "--no-pin", "--prefix-rows", "2",   NULL};
    const char *const args12[] = {"count",  "12",       "--checkpoint",  jpath, "--engine",
                                  "prefix", "--no-pin", "--prefix-rows", "2",   NULL};
    ssize_t la, lb;
    int fd;

    make_paths();
    cli_run(&o, args12);
    expect_total(&o, 12);
    fd = open(jpath, O_RDONLY);
    la = read(fd, a, sizeof(a));
    close(fd);
    unlink(jpath);
    cli_run(&o, args13);
    expect_total(&o, 13);
    fd = open(jpath, O_RDONLY);
    lb = read(fd, b, sizeof(b));
    close(fd);
    cr_assert(la > JOURNAL_HEADER_SIZE && lb > la);
    /* a's header, as many of b's records as the n=12 set has ids for */
    fd = open(jpath, O_WRONLY | O_TRUNC);
    cr_assert_eq(write(fd, a, JOURNAL_HEADER_SIZE), JOURNAL_HEADER_SIZE);
    cr_assert_eq(write(fd, b + JOURNAL_HEADER_SIZE, (size_t)la - JOURNAL_HEADER_SIZE),
                 la - JOURNAL_HEADER_SIZE);
    close(fd);
    cli_run(&o, args12);
    expect_journal_error("an n=13 body behind an n=12 header");
    cr_expect_not_null(strstr(o.err, "another journal"), "%s", o.err);
    cleanup();
}

Test(unit, fifo_as_journal_or_subtotals_is_refused_at_once)
{
    const char *const ckpt[] = {"count", "12", "--no-pin", "--checkpoint", jpath, NULL};
    const char *const subs[] = {"count", "12", "--no-pin", "--subtotals", jpath, NULL};
    make_paths();
    cr_assert_eq(mkfifo(jpath, 0644), 0);
    cr_expect_eq(run_within(ckpt, 30, "--checkpoint FIFO"), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "not a regular file"), "%s", o.err);
    cr_expect_eq(run_within(subs, 30, "--subtotals FIFO"), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "FIFO"), "%s", o.err);
    cleanup();
}

/* A header that claims an 18-row prefix of n=18 with 123456789 tasks: checking the
 * claim by walking that source took 299 s; it is refused within the bounded walk. */
Test(unit, forged_header_is_refused_at_once)
{
    const char *const args[] = {"count", "18", "--no-pin", "--checkpoint", jpath, NULL};
    nq_task_set ts = {.n = 18, .engine = "prefix", .params = "prefix_rows=18", .tasks = 123456789};
    unsigned char hdr[JOURNAL_HEADER_SIZE];
    int fd;

    make_paths();
    journal_encode_header(&ts, (const unsigned char *)"forged header id", hdr);
    fd = open(jpath, O_WRONLY | O_CREAT, 0644);
    cr_assert_eq(write(fd, hdr, sizeof(hdr)), (ssize_t)sizeof(hdr));
    close(fd);
    cr_expect_eq(run_within(args, 60, "forged header"), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "not one this build produces"), "%s", o.err);
    cleanup();
}

/* Every output file is opened before the count: a path that cannot be written ends a
 * count of hours at once, without a total. */
Test(unit, unwritable_subtotals_fail_before_the_count)
{
    const char *const args[] = {
        "count", "20", "--no-pin", "--threads", "1", "--subtotals", "/nonexistent-dir/x.csv", NULL};
    cr_expect_eq(run_within(args, 30, "--subtotals in a missing folder"), 1, "%s", o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "/nonexistent-dir/x.csv"), "%s", o.err);
}

/* A signal that lands while the count is being set up (the task set described, the
 * journal opened, the solver made) is not lost: the count stops within a bound, however
 * long it would run. An 8-row prefix of n=18 takes a good tenth of a second to describe,
 * and its tasks are tiny, so that the stop never waits for a long one to end. */
Test(unit, early_signal_is_not_lost)
{
    const char *const args[] = {"count",    "18",           "--threads", "1",
                                "--engine", "prefix",       "--no-pin",  "--prefix-rows",
                                "8",        "--checkpoint", jpath,       NULL};
    static const long delays_us[] = {1000, 5000, 20000, 50000, 100000, 200000};

    for (size_t i = 0; i < sizeof(delays_us) / sizeof(delays_us[0]); i++) {
        struct timespec ts = {0, delays_us[i] * 1000};
        pid_t pid;
        int st;
        make_paths();
        pid = cli_start(args, -1, -1);
        nanosleep(&ts, NULL);
        kill(pid, SIGTERM);
        st = wait_within(pid, 30, "SIGTERM during start-up");
        cr_expect_eq(st, 128 + SIGTERM, "delay %ld us: exit %d", delays_us[i], st);
        cleanup();
    }
}

/* Seconds from a SIGTERM to the exit of a count of 512 d4 workers on one CPU, sent
 * once they have all started. n = 18 takes 40 s of that CPU, so the count cannot end
 * first however late a loaded machine wakes this thread (n = 17, 5 s, once did). */
static double stop_seconds_on_one_cpu(void)
{
    const char *const args[] = {"count",     "18",  "--engine", "d4",
                                "--threads", "512", "--no-pin", NULL};
    cpu_set_t all, one;
    struct timespec t0, t1;
    pid_t pid;
    int st;

    cr_assert_eq(sched_getaffinity(0, sizeof(all), &all), 0);
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &all)) {
            CPU_SET(c, &one);
            break;
        }
    cr_assert_eq(sched_setaffinity(0, sizeof(one), &one), 0);
    pid = cli_start(args, -1, -1); /* the child keeps the one CPU */
    cr_assert_eq(sched_setaffinity(0, sizeof(all), &all), 0);
    sleep_ms(1000);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    kill(pid, SIGTERM);
    st = wait_within(pid, 30, "SIGTERM to 512 workers on one CPU");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_expect_eq(st, 128 + SIGTERM, "exit %d", st);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A stop takes effect within a second even when the workers far outnumber the CPUs. The
 * signal once waited for the sleeping main thread's turn behind every busy worker (0.3-1.4
 * s, median about 1.1 s, for 512 workers on one core); taken by a thread that wakes
 * often, it is milliseconds. The median of five keeps a loaded machine's outlier from
 * failing the test; half a second is twice what the worst stop took after the change. */
Test(unit, stop_with_512_workers_on_one_cpu_takes_under_a_second, .timeout = 120)
{
    enum { TRIES = 5 };
    double took[TRIES];

    for (int i = 0; i < TRIES; i++)
        took[i] = stop_seconds_on_one_cpu();
    qsort(took, TRIES, sizeof(took[0]), by_value);
    cr_expect_lt(took[TRIES / 2], 0.5, "median stop %.3f s (%.3f .. %.3f)", took[TRIES / 2],
                 took[0], took[TRIES - 1]);
}

Test(unit, sighup_then_resume)
{
    signal_and_resume(SIGHUP);
}

/* "The same command resumes": a prefix journal started with --prefix-rows, resumed by the
 * same command line without --engine (the journal's engine is taken). */
Test(unit, prefix_journal_resumes_with_its_own_prefix_rows)
{
    const char *const first[] = {"count",  "12",       "--checkpoint",  jpath, "--engine",
                                 "prefix", "--no-pin", "--prefix-rows", "3",   NULL};
    const char *const again[] = {"count",         "12", "--checkpoint", jpath,
                                 "--prefix-rows", "3",  "--no-pin",     NULL};
    const char *const other[] = {"count",         "12", "--checkpoint", jpath,
                                 "--prefix-rows", "4",  "--no-pin",     NULL};
    const char *const fresh[] = {"count",         "12", "--checkpoint", jpath,
                                 "--prefix-rows", "3",  "--no-pin",     NULL};
    make_paths();
    cli_run(&o, first);
    expect_total(&o, 12);
    cli_run(&o, again);
    expect_total(&o, 12);
    cr_expect_not_null(strstr(o.err, "already done"), "%s", o.err);
    cli_run(&o, other);
    expect_journal_error("another depth");
    cleanup();
    /* A new journal without --engine is d4's, which has no prefix rows: a usage error. */
    make_paths();
    cli_run(&o, fresh);
    cr_expect_eq(o.status, 2, "exit %d: %s", o.status, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cleanup();
}

/* A GPU run that could not finish leaves a journal the CPU engine goes on with, and its
 * message says so. On a machine with a GPU the first run simply finishes. */
Test(unit, failed_cuda_journal_goes_on_with_d4)
{
    const char *const gpu[] = {"count", "11", "--engine", "cuda", "--checkpoint", jpath, NULL};
    const char *const cpu[] = {"count",        "11",  "--engine", "d4",
                               "--checkpoint", jpath, "--no-pin", NULL};
    make_paths();
    cli_run(&o, gpu);
    if (o.status == 2 && strstr(o.err, "not built with CUDA")) {
        cleanup();
        cr_skip_test("built without CUDA");
    }
    if (o.status != 0) {
        cr_expect_eq(o.status, 1, "%s", o.err);
        cr_expect_not_null(strstr(o.err, "--engine d4 --checkpoint"), "%s", o.err);
    }
    cli_run(&o, cpu);
    expect_total(&o, 11);
    cleanup();
}

/* Many counts started at once on one new journal: one runs, every other is told the
 * journal is in use, and each task is recorded once. A start that comes after the
 * winner has finished resumes the finished journal (it counts nothing). */
Test(unit, concurrent_starts_one_runs)
{
    enum { STARTS = 6, ROUNDS = 8 };
    const char *const args[] = {"count",    "14",     "--checkpoint",  jpath, "--threads", "1",
                                "--engine", "prefix", "--prefix-rows", "3",   "--no-pin",  NULL};
    char err_path[STARTS][SCRATCH_PATH];
    int fe[STARTS];
    pid_t pid[STARTS];
    nq_settings s = engine_check_settings(14, NQ_ENGINE_PREFIX, 1);
    nq_task_set ts;

    s.prefix_rows = 3; /* the task set of args */
    cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
    for (int round = 0; round < ROUNDS; round++) {
        int fresh = 0;
        make_paths();
        for (int i = 0; i < STARTS; i++) {
            pid[i] = start_keeping_stderr(args, &fe[i], err_path[i]);
        }
        for (int i = 0; i < STARTS; i++) {
            int st = finish_keeping_stderr(pid[i], fe[i], err_path[i]);
            if (st == 0 && !strstr(o.err, "resuming from"))
                fresh++;
            else if (st == 0)
                cr_expect_not_null(strstr(o.err, "already done"), "%s", o.err);
            else
                cr_expect(st == 1 && strstr(o.err, "in use by another running count"),
                          "round %d: exit %d: %s", round, st, o.err);
        }
        cr_expect_eq(fresh, 1, "round %d: %d counts ran from the start", round, fresh);
        cr_expect_eq(file_size(jpath), JOURNAL_HEADER_SIZE + (off_t)ts.tasks * JOURNAL_RECORD_SIZE,
                     "round %d: every task recorded once", round);
        cleanup();
    }
}

/* Far more workers than cores: idle ones sleep instead of taking the cores from the
 * thread that starts them and feeds the queue, so a small count ends, and a stop is
 * taken, within a bound (generous: this is about hanging, not speed). */
Test(unit, thousands_of_threads_end_promptly)
{
    const char *const args[] = {"count", "8", "--threads", "4096", "--no-pin", NULL};
    char out_path[SCRATCH_PATH], want[32];
    int fo = scratch_file(out_path, sizeof(out_path), "ckpt-out"), st;

    cr_assert(fo >= 0);
    st = wait_within(cli_start(args, fo, -1), 60, "count 8 --threads 4096");
    lseek(fo, 0, SEEK_SET);
    cli_slurp(fo, o.out, sizeof(o.out));
    close(fo);
    unlink(out_path);
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", 8));
    cr_expect_eq(st, 0);
    cr_expect_str_eq(o.out, want);
}

Test(unit, sigterm_with_thousands_of_threads_is_prompt)
{
    const char *const args[] = {"count",         "16", "--threads",    "4096", "--engine", "prefix",
                                "--prefix-rows", "4",  "--checkpoint", jpath,  "--no-pin", NULL};
    pid_t pid;
    int st;

    make_paths();
    pid = cli_start(args, -1, -1);
    for (int i = 0; i < 30000 && file_size(jpath) < JOURNAL_HEADER_SIZE + 5 * JOURNAL_RECORD_SIZE;
         i++)
        sleep_ms(1);
    kill(pid, SIGTERM);
    st = wait_within(pid, 10, "SIGTERM to a count on 4096 threads");
    cr_expect(st == 128 + SIGTERM || st == 0, "exit %d", st);
    cr_expect_eq((file_size(jpath) - JOURNAL_HEADER_SIZE) % JOURNAL_RECORD_SIZE, 0);
    cleanup();
}

/* ---- what a newcomer and a hostile run still broke (issue 22) ---------------------- */

/* Run args with stdout on the file at path, opened for appending (as >>path does). */
static int run_with_stdout_on(const char *const *args, const char *path)
{
    char err_path[SCRATCH_PATH];
    int fo = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644),
        fe = scratch_file(err_path, sizeof(err_path), "ckpt-err"), st;

    cr_assert(fo >= 0 && fe >= 0);
    st = cli_spawn(args, fo, fe);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fe, o.err, sizeof(o.err));
    close(fo);
    close(fe);
    unlink(err_path);
    return st;
}

static ssize_t read_bytes(const char *p, char *buf, size_t size)
{
    int fd = open(p, O_RDONLY);
    ssize_t len;
    cr_assert(fd >= 0, "cannot open %s", p);
    len = read(fd, buf, size);
    close(fd);
    return len;
}

static void expect_same_file_refused(int st, const char *what)
{
    cr_expect_eq(st, 2, "%s: exit %d (%s)", what, st, o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s: %s", what, o.err);
    cr_expect_not_null(strstr(o.err, "are the same file"), "%s: %s", what, o.err);
}

/* --subtotals naming the journal by another spelling (./x, a hard link) or standard
 * output going to it is refused before anything is written: the journal keeps its
 * bytes, and a new journal is not created under the CSV's name either. */
Test(unit, outputs_that_are_one_file_are_refused)
{
    static char before[65536], after[65536];
    char dotted[SCRATCH_PATH_LONGER], linked[SCRATCH_PATH_LONGER];
    const char *const dot[] = {"count", "12",          "--no-pin", "--checkpoint",
                               jpath,   "--subtotals", dotted,     NULL};
    const char *const hard[] = {"count", "12",          "--no-pin", "--checkpoint",
                                jpath,   "--subtotals", linked,     NULL};
    const char *const plain[] = {"count", "12", "--no-pin", "--checkpoint", jpath, NULL};
    const char *const subs[] = {"count", "12", "--no-pin", "--subtotals", spath, NULL};
    ssize_t len;

    make_paths();
    cr_assert_eq(scratch_dotted(dotted, sizeof(dotted), jpath), 0);
    snprintf(linked, sizeof(linked), "%s.link", jpath);
    cli_run(&o, dot);
    expect_same_file_refused(o.status, "a new journal and --subtotals ./it");
    cr_expect_eq(file_size(jpath), -1, "nothing is left behind");

    run_12();
    expect_total(&o, 12);
    len = read_bytes(jpath, before, sizeof(before));
    cr_assert_gt(len, JOURNAL_HEADER_SIZE);
    cli_run(&o, dot);
    expect_same_file_refused(o.status, "--subtotals <folder>/./journal");
    cr_assert_eq(link(jpath, linked), 0);
    cli_run(&o, hard);
    expect_same_file_refused(o.status, "--subtotals a hard link of the journal");
    unlink(linked);
    expect_same_file_refused(run_with_stdout_on(plain, jpath), "the result >>journal");
    cr_expect_eq(read_bytes(jpath, after, sizeof(after)), len);
    cr_expect_eq(memcmp(after, before, (size_t)len), 0, "the journal is untouched");

    expect_same_file_refused(run_with_stdout_on(subs, spath), "the result >>subtotals");
    cleanup();
}

/* Files we create or replace are never reached through a symbolic link, and a journal
 * must be a regular file: --checkpoint or --subtotals naming a link (to a file, or to
 * nothing) fails with one line and leaves the target as it was; --checkpoint
 * /dev/stdout (a link) is refused rather than mixing the journal with the result. */
Test(unit, outputs_through_symbolic_links_are_refused)
{
    char target[SCRATCH_PATH_LONGER], lnk[SCRATCH_PATH_LONGER], dangling[SCRATCH_PATH_LONGER],
        out[SCRATCH_PATH];
    const char *const ck[] = {"count", "8", "--no-pin", "--checkpoint", lnk, NULL};
    const char *const ckd[] = {"count", "8", "--no-pin", "--checkpoint", dangling, NULL};
    const char *const sub[] = {"count", "8", "--no-pin", "--subtotals", lnk, NULL};
    const char *const subd[] = {"count", "8", "--no-pin", "--subtotals", dangling, NULL};
    const char *const dev[] = {"count", "8", "--no-pin", "--checkpoint", "/dev/stdout", NULL};
    const char *const *cases[] = {ck, ckd, sub, subd};
    int fd;

    make_paths();
    snprintf(target, sizeof(target), "%s.target", jpath);
    snprintf(lnk, sizeof(lnk), "%s.link", jpath);
    snprintf(dangling, sizeof(dangling), "%s.dangling", jpath);
    cr_assert_eq(symlink(target, lnk), 0);
    cr_assert_eq(symlink(jpath, dangling), 0); /* jpath does not exist */
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        cr_assert(fd >= 0);
        cr_assert_eq(write(fd, "kept", 4), 4);
        close(fd);
        cli_run(&o, cases[i]);
        cr_expect_eq(o.status, 1, "case %zu: exit %d (%s)", i, o.status, o.err);
        cr_expect_eq(count_lines(o.err), 1, "case %zu: %s", i, o.err);
        cr_expect_not_null(strstr(o.err, "symbolic link"), "case %zu: %s", i, o.err);
        cr_expect_str_eq(o.out, "", "case %zu", i);
        cr_expect_eq(file_size(target), 4, "case %zu: the target is untouched", i);
        cr_expect_eq(file_size(jpath), -1, "case %zu: nothing made where the link points", i);
    }
    fd = scratch_file(out, sizeof(out), "ckpt-out");
    cr_assert(fd >= 0);
    close(fd);
    cr_expect_eq(run_with_stdout_on(dev, out), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "symbolic link"), "%s", o.err);
    cr_expect_eq(file_size(out), 0, "nothing written to standard output's file");
    unlink(out);
    unlink(lnk);
    unlink(dangling);
    unlink(target);
    cleanup();
}
