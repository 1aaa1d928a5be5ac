/* The first SIGINT during each setup phase that can last over a second (the prefix
 * source's walk, the join's tables, the slice's cut, estimate's sample): the tool exits
 * 130 within a second of the signal, measured from the kill to the exit, and says how to
 * resume when there is a journal. Each case signals once the phase has begun, so a test
 * takes a couple of seconds (the journal's read, count's and merge's: its file is made
 * first, a few more). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_run.h"
#include "nqueens/nqueens.h"
#include "scratch.h"
#include "store/journal_codec.h"

static cli_out o;

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The bytes process pid has read so far (the rchar of /proc/<pid>/io: read and pread
 * alike), or -1 once it cannot be told (the process is gone). */
static long long bytes_read(pid_t pid)
{
    char path[64], line[128];
    long long got = -1;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
    if (!(f = fopen(path, "r")))
        return -1;
    while (got < 0 && fgets(line, sizeof(line), f))
        if (sscanf(line, "rchar: %lld", &got) != 1)
            got = -1;
    fclose(f);
    return got;
}

/* Wait (at most 30 s) until pid has read at least bytes: a phase that reads a large file
 * has begun, however long the steps before it took on a loaded machine. */
static void wait_until_read(pid_t pid, long long bytes)
{
    long long got = 0;

    for (int i = 0; i < 15000 && got >= 0 && got < bytes; i++) {
        sleep_ms(2);
        got = bytes_read(pid);
    }
    cr_assert_geq(got, bytes, "the tool read %lld bytes, not the %lld of the journal's read", got,
                  bytes);
}

/* Start args, SIGINT delay_ms after it takes the signal (cli_wait_takes_sigint) and,
 * with read_bytes > 0, once it has read read_bytes, and wait at most 30 s: the exit
 * code, with stderr in o.err and the seconds from the signal to the exit in *took. */
static int stop_after(const char *const *args, long delay_ms, long long read_bytes, double *took)
{
    char err_path[SCRATCH_PATH];
    int fe = scratch_file(err_path, sizeof(err_path), "stops-err"), st = -1;
    pid_t pid, got = 0;
    double t0;

    cr_assert(fe >= 0);
    pid = cli_start(args, -1, fe);
    cr_expect(cli_wait_takes_sigint(pid), "the tool never took SIGINT");
    sleep_ms(delay_ms);
    if (read_bytes > 0)
        wait_until_read(pid, read_bytes);
    t0 = now();
    kill(pid, SIGINT);
    for (int i = 0; i < 3000 && got != pid; i++) {
        got = waitpid(pid, &st, WNOHANG);
        if (got != pid)
            sleep_ms(10);
    }
    *took = now() - t0;
    if (got != pid) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
    }
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fe, o.err, sizeof(o.err));
    close(fe);
    unlink(err_path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void expect_prompt_stop(const char *const *args, long delay_ms, long long read_bytes,
                               const char *what)
{
    double took;
    int st = stop_after(args, delay_ms, read_bytes, &took);

    cr_expect_eq(st, 130, "%s: exit %d after %.2f s: %s", what, st, took, o.err);
    cr_expect_lt(took, STOP_BOUND, "%s: stopped %.2f s after the signal", what, took);
    cr_expect_not_null(strstr(o.err, "SIGINT"), "%s: %s", what, o.err);
}

/* A deep prefix's task count walks billions of partial boards before the first task. */
Test(unit, sigint_stops_the_prefix_walk)
{
    const char *const count[] = {"count",         "20", "--engine",  "prefix", "--no-pin",
                                 "--prefix-rows", "12", "--threads", "1",      NULL};
    const char *const estimate[] = {"estimate", "20",        "--engine", "prefix", "--prefix-rows",
                                    "12",       "--threads", "1",        NULL};
    expect_prompt_stop(count, 500, 0, "count 20 --prefix-rows 12");
    expect_prompt_stop(estimate, 500, 0, "estimate 20 --prefix-rows 12");
}

/* The join's tables take seconds from n = 22 on. */
Test(unit, sigint_stops_the_join_tables)
{
    char jpath[SCRATCH_PATH];
    const char *const count[] = {"count", "22",           "--engine", "join",     "--threads",
                                 "1",     "--checkpoint", jpath,      "--no-pin", NULL};
    const char *const estimate[] = {"estimate", "22", "--engine", "join", "--threads", "1", NULL};

    cr_assert_eq(scratch_name(jpath, sizeof(jpath), "stops"), 0);
    expect_prompt_stop(count, 1000, 0, "count 22 --engine join");
    cr_expect_not_null(strstr(o.err, "resume with:"), "%s", o.err);
    expect_prompt_stop(estimate, 1000, 0, "estimate 22 --engine join");
    unlink(jpath);
}

/* A slice is cut by the tasks' costs, which the tables give. */
Test(unit, sigint_stops_the_slice_cut)
{
    const char *const count[] = {"count", "22",        "--engine", "join",     "--slice",
                                 "0/2",   "--threads", "1",        "--no-pin", NULL};
    expect_prompt_stop(count, 1000, 0, "count 22 --engine join --slice 0/2");
}

/* The join's task count walks every column set of the top rows: 6 s at n = 27, before
 * the tables; with a journal it is taken first to describe the task set. */
Test(unit, sigint_stops_the_join_task_count)
{
    char jpath[SCRATCH_PATH];
    const char *const count[] = {"count",     "27", "--engine", "join",
                                 "--threads", "1",  "--no-pin", NULL};
    const char *const journal[] = {"count", "27",       "--engine",     "join", "--threads",
                                   "1",     "--no-pin", "--checkpoint", jpath,  NULL};

    cr_assert_eq(scratch_name(jpath, sizeof(jpath), "stops"), 0);
    expect_prompt_stop(count, 1000, 0, "count 27 --engine join");
    expect_prompt_stop(journal, 1000, 0, "count 27 --engine join --checkpoint");
    cr_expect_not_null(strstr(o.err, "resume with:"), "%s", o.err);
    unlink(jpath);
}

/* A valid journal at path of every task of the prefix engine's task set at n, rows (all
 * recorded, in a scattered order, so that reading it sorts them), made as the library
 * makes one: its header through nq_journal_open, its records encoded with its key. */
static void make_large_journal(const char *path, int n, int rows, nq_task_set *ts)
{
    unsigned char hdr[JOURNAL_HEADER_SIZE], *buf;
    nq_journal_info info;
    nq_journal *j;
    nq_settings s;
    uint64_t step = 1000003;
    int fd;

    nq_default_settings(&s);
    s.n = n;
    s.engine = NQ_ENGINE_PREFIX;
    s.prefix_rows = rows;
    cr_assert_eq(nq_task_set_describe(&s, ts), NQ_OK);
    cr_assert_eq(nq_journal_open(&j, path, ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_assert_eq(nq_journal_close(&j), NQ_OK);
    while (ts->tasks % step == 0) /* a step prime to the count visits every id once */
        step += 2;
    buf = malloc(ts->tasks * JOURNAL_RECORD_SIZE);
    cr_assert_not_null(buf);
    cr_assert((fd = open(path, O_RDWR)) >= 0);
    cr_assert_eq(pread(fd, hdr, sizeof(hdr), 0), (ssize_t)sizeof(hdr));
    for (uint64_t i = 0; i < ts->tasks; i++) {
        uint64_t id = (i * step) % ts->tasks;
        journal_encode_record(journal_record_key(hdr), id, id % 7, buf + i * JOURNAL_RECORD_SIZE);
    }
    size_t size = ts->tasks * JOURNAL_RECORD_SIZE;
    cr_assert_eq(pwrite(fd, buf, size, sizeof(hdr)), (ssize_t)size,
                 "cannot write the %zu MB journal %s (is there room in the scratch folder?): %s",
                 size >> 20, path, strerror(errno));
    close(fd);
    free(buf);
}

/* args, which read the journal at jpath, stopped by a SIGINT once the tool has read 16 MiB
 * of it, so inside the read whatever the steps before it took: exit 130 within the
 * bound, a line that names phase, and the journal as it was. The journal is made here
 * (make_large_journal at n = 19, 7 rows: 13 M records, 318 MB) and removed after. */
static void expect_read_stop(const char *const *args, const char *jpath, const char *what,
                             const char *phase)
{
    nq_task_set ts;
    struct stat before, after;

    make_large_journal(jpath, 19, 7, &ts);
    cr_assert_eq(stat(jpath, &before), 0);
    expect_prompt_stop(args, 0, (long long)16 << 20, what);
    cr_expect_not_null(strstr(o.err, phase), "%s: another phase: %s", what, o.err);
    cr_assert_eq(stat(jpath, &after), 0);
    cr_expect_eq(after.st_size, before.st_size, "%s: the stopped read changed the journal", what);
    cr_expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec &&
                  after.st_mtim.tv_nsec == before.st_mtim.tv_nsec,
              "%s: the stopped read wrote to the journal", what);
    unlink(jpath);
}

/* Reading a journal of 13 million tasks takes seconds before the count (checksums and
 * the sort); its task count reads nothing. */
Test(unit, sigint_stops_the_journal_read)
{
    char jpath[SCRATCH_PATH];
    const char *const count[] = {"count",         "19", "--engine",     "prefix", "--no-pin",
                                 "--prefix-rows", "7",  "--checkpoint", jpath,    NULL};

    cr_assert_eq(scratch_name(jpath, sizeof(jpath), "stops"), 0);
    expect_read_stop(count, jpath, "count 19 --prefix-rows 7 --checkpoint (13 M records)",
                     "while reading the journal");
    cr_expect_not_null(strstr(o.err, "resume with:"), "%s", o.err);
}

/* merge reads each journal in full before it adds anything up (2.8 s for these 13 M
 * records): one line, nothing written; there is nothing to resume. */
Test(unit, sigint_stops_the_merge_read)
{
    char jpath[SCRATCH_PATH];
    const char *const merge[] = {"merge", jpath, NULL};

    cr_assert_eq(scratch_name(jpath, sizeof(jpath), "stops"), 0);
    expect_read_stop(merge, jpath, "merge (13 M records)", "while reading journal ");
    cr_expect_not_null(strstr(o.err, "; nothing was written\n"), "%s", o.err);
    cr_expect_eq(count_lines(o.err), 1, "one line: %s", o.err);
}

/* ---- the library: nq_solver_cancel ends the same phases --------------------------- */

/* Cancels sv every 10 ms from delay_ms on, until done: a cancel applies only to a run in
 * progress, so one that came before the run began would be lost (the tool's signal
 * watcher repeats it the same way). */
typedef struct canceller {
    nq_solver *sv;
    long delay_ms;
    atomic_int done;
    double first; /* when the first cancel was sent */
} canceller;

static void *cancel_until_done(void *p)
{
    canceller *c = p;
    sleep_ms(c->delay_ms);
    c->first = now();
    while (!atomic_load(&c->done)) {
        nq_solver_cancel(c->sv);
        sleep_ms(10);
    }
    return NULL;
}

/* The run expect_prompt_cancel cancels: nq_count, nq_estimate, or nq_count_tasks of
 * task 0. */
enum { RUN_COUNT, RUN_ESTIMATE, RUN_TASK_0 };

/* The run `how` of s, cancelled from delay_ms on: NQ_ECANCELED within a second of the
 * first cancel. */
static void expect_prompt_cancel_at(nq_settings s, int how, const char *what, long delay_ms)
{
    static const uint64_t task_0[] = {0};
    canceller c = {NULL, delay_ms, 0, 0};
    nq_estimate_options eo;
    nq_estimate_result er;
    nq_result r;
    pthread_t t;
    int rc;

    s.n_threads = 1;
    s.pin_threads = 0;
    nq_default_estimate_options(&eo);
    cr_assert_eq(nq_create_solver(&c.sv, &s), NQ_OK);
    cr_assert_eq(pthread_create(&t, NULL, cancel_until_done, &c), 0);
    rc = how == RUN_ESTIMATE ? nq_estimate(c.sv, &eo, &er)
         : how == RUN_TASK_0 ? nq_count_tasks(c.sv, task_0, 1, NULL, &r)
                             : nq_count(c.sv, NULL, &r);
    atomic_store(&c.done, 1);
    pthread_join(t, NULL);
    cr_expect_eq(rc, NQ_ECANCELED, "%s at %ld ms: %s", what, delay_ms, nq_strerror(rc));
    cr_expect_lt(now() - c.first, STOP_BOUND, "%s: returned %.2f s after a cancel at %ld ms", what,
                 now() - c.first, delay_ms);
    nq_destroy_solver(&c.sv);
}

static void expect_prompt_cancel(nq_settings s, int how, const char *what)
{
    expect_prompt_cancel_at(s, how, what, 300);
}

Test(unit, cancel_stops_the_setup_phases)
{
    nq_settings s;

    nq_default_settings(&s);
    s.n = 22;
    s.engine = NQ_ENGINE_JOIN;
    expect_prompt_cancel(s, RUN_COUNT, "count 22 --engine join");
    expect_prompt_cancel(s, RUN_ESTIMATE, "estimate 22 --engine join");
    s.slice_count = 2;
    expect_prompt_cancel(s, RUN_COUNT, "count 22 --engine join --slice 0/2");
    s.slice_count = 0;
    s.n = 27; /* a solver's first nq_count_tasks counts the tasks, then makes the tables */
    expect_prompt_cancel(s, RUN_TASK_0, "nq_count_tasks 27 --engine join");
    /* the tables' later phases at n = 27, one thread: the renaming's sample (8 tasks'
     * whole sides) and the far parts' candidates per column set, which each ran a second
     * or more without a look at the stop (about 1-3.5 s in, AMD EPYC Zen 3) */
    for (long ms = 1000; ms <= 4000; ms += 500)
        expect_prompt_cancel_at(s, RUN_ESTIMATE, "estimate 27 --engine join", ms);
    nq_default_settings(&s);
    s.n = 20;
    s.engine = NQ_ENGINE_PREFIX;
    s.prefix_rows = 12;
    expect_prompt_cancel(s, RUN_COUNT, "count 20 --prefix-rows 12");
    expect_prompt_cancel(s, RUN_ESTIMATE, "estimate 20 --prefix-rows 12");
}

/* ---- the library: nq_stop ends the steps before a solver -------------------------- */

typedef struct stopper {
    nq_stop *stop;
    long delay_ms;
    double when;
} stopper;

static void *request_later(void *p)
{
    stopper *st = p;
    sleep_ms(st->delay_ms);
    st->when = now();
    nq_stop_request(st->stop);
    return NULL;
}

/* st's stop, new, requested from another thread in st->delay_ms (thread *t). */
static void stop_later(stopper *st, pthread_t *t)
{
    st->when = 0;
    cr_assert_eq(nq_stop_create(&st->stop), NQ_OK);
    cr_assert_eq(pthread_create(t, NULL, request_later, st), 0);
}

/* rc, what a step returned under stop_later's stop: NQ_ECANCELED within a second of the
 * request. Ends the thread and frees the stop. */
static void expect_stopped(stopper *st, pthread_t t, int rc, const char *what)
{
    double late = now() - st->when;

    cr_expect_eq(rc, NQ_ECANCELED, "%s: %s", what, nq_strerror(rc));
    pthread_join(t, NULL);
    cr_expect(st->when > 0 && late < STOP_BOUND, "%s returned %.2f s after the stop", what, late);
    nq_stop_destroy(&st->stop);
    cr_expect_null(st->stop);
}

/* A stop requested before describing the join's task set at n = 27 and counting its
 * tasks (0.17 s on one thread since an odd board's top is tested by two middles: a stop
 * from another thread would come after them), and from another thread while opening or
 * reading a journal of 13 M records: NQ_ECANCELED (within a second), nothing to free. */
Test(unit, stop_ends_the_describe_and_the_journal_read)
{
    char jpath[SCRATCH_PATH];
    stopper st = {NULL, 300, 0};
    nq_journal_info info;
    nq_journal *j = NULL;
    nq_task_set ts, big;
    nq_settings s;
    uint64_t tasks;
    pthread_t t;

    cr_assert_eq(scratch_name(jpath, sizeof(jpath), "stops"), 0);
    nq_default_settings(&s);
    s.n = 27;
    s.engine = NQ_ENGINE_JOIN;
    cr_assert_eq(nq_stop_create(&st.stop), NQ_OK);
    nq_stop_request(st.stop);
    cr_expect_eq(nq_task_set_describe_stoppable(&s, st.stop, &ts), NQ_ECANCELED, "describe");
    cr_expect_eq(nq_task_count_stoppable(&s, st.stop, &tasks), NQ_ECANCELED, "task count");
    nq_stop_destroy(&st.stop);

    make_large_journal(jpath, 19, 7, &big);
    stop_later(&st, &t);
    expect_stopped(&st, t, nq_journal_open_stoppable(&j, jpath, &big, 5, st.stop, &info), "open");
    cr_expect_not_null(strstr(info.detail, "stopped while reading"), "open: %s", info.detail);
    cr_expect_null(j);
    stop_later(&st, &t);
    expect_stopped(&st, t, nq_journal_read_stoppable(&j, jpath, NULL, st.stop, &info), "read");
    cr_expect_not_null(strstr(info.detail, "stopped while reading"), "read: %s", info.detail);
    cr_expect_null(j);
    unlink(jpath);
}
