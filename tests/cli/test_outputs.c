/* Every file the tool writes, and the journals merge reads, as a hostile run finds them:
 * a count stopped while another writes the same --subtotals, counts racing on one
 * journal, a full disk (a file size limit), links, FIFOs and /dev/stdout as the path of
 * each output option, names of up to 255 bytes, and merge on read-only, damaged, empty
 * and vanishing journals (issues 29 and 30; docs/reliability.md, "Outputs and merge"). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_run.h"
#include "oeis_data.h"
#include "scratch.h"

static cli_out o;
static char dir[SCRATCH_PATH];

static void make_dir(void)
{
    cr_assert_not_null(scratch_mkdir(dir, sizeof(dir), "out"));
}

static void remove_dir(void)
{
    char cmd[SCRATCH_PATH + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* dir/name, in one of eight buffers used in turn. */
static const char *at(const char *name)
{
    static char p[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
    return p[k];
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* The bytes of path into buf (NUL-terminated): their count, or -1 if there is none. */
static ssize_t slurp(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    ssize_t len = 0, k;
    if (fd < 0)
        return -1;
    while ((k = read(fd, buf + len, size - 1 - (size_t)len)) > 0)
        len += k;
    buf[len] = '\0';
    close(fd);
    return len;
}

static void put(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0, "%s: %s", path, strerror(errno));
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* The names in dir, space-separated into names: their number. A temporary file that a
 * run left behind shows here. */
static int dir_entries(char *names, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    cr_assert_not_null(d);
    names[0] = '\0';
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            n++;
            strncat(names, e->d_name, size - strlen(names) - 2);
            strcat(names, " ");
        }
    closedir(d);
    return n;
}

static void expect_entries(int want, const char *what)
{
    char names[4096];
    int n = dir_entries(names, sizeof(names));
    cr_expect_eq(n, want, "%s: %d files left (%s)", what, n, names);
}

/* Wait for pid up to seconds, then kill it: its exit code, or -1 if it had to be
 * killed (a run that blocked on a FIFO, say). */
static int wait_within(pid_t pid, int seconds)
{
    int st;
    for (int i = 0; i < seconds * 100; i++) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        sleep_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return -1;
}

/* Run args with stdout and stderr into o, killed after seconds; fsize_limit > 0: under
 * that file size limit (ulimit -f), as on a nearly full disk. Returns o.status. */
static int run(const char *const *args, int seconds, rlim_t fsize_limit)
{
    char out_path[SCRATCH_PATH], err_path[SCRATCH_PATH];
    const char *argv[64] = {NQ_CLI_PATH};
    int fo = scratch_file(out_path, sizeof(out_path), "out-o"),
        fe = scratch_file(err_path, sizeof(err_path), "out-e"), i = 0;
    pid_t pid;

    cr_assert(fo >= 0 && fe >= 0);
    while (args[i] && i < 62) {
        argv[i + 1] = args[i];
        i++;
    }
    pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        struct rlimit rl = {fsize_limit, fsize_limit};
        dup2(fsize_limit ? open("/dev/null", O_WRONLY) : fo, 1); /* the limit spares it */
        dup2(fe, 2);
        if (fsize_limit)
            setrlimit(RLIMIT_FSIZE, &rl);
        execv(NQ_CLI_PATH, (char *const *)argv);
        _exit(127);
    }
    o.status = wait_within(pid, seconds);
    lseek(fo, 0, SEEK_SET);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fo, o.out, sizeof(o.out));
    cli_slurp(fe, o.err, sizeof(o.err));
    close(fo);
    close(fe);
    unlink(out_path);
    unlink(err_path);
    return o.status;
}

/* ---- issue 30 item 1: a stop removes only its own file ------------------------------- */

/* A count stopped by SIGINT while a second count wrote the same --subtotals: the stopped
 * one used to unlink the CSV it had created, by name, though the other had written it
 * since. Now it removes only its temporary file, and the CSV is the second count's. */
Test(unit, a_stopped_count_keeps_the_subtotals_another_count_wrote, .init = make_dir,
     .fini = remove_dir)
{
    static char want[1 << 16], got[1 << 16];
    const char *j = at("a.nqj"), *s = at("s.csv");
    const char *const longrun[] = {"count",     "19",          "--engine", "d4",
                                   "--threads", "1",           "--no-pin", "--checkpoint",
                                   j,           "--subtotals", s,          NULL};
    const char *const quick[] = {"count", "10", "--no-pin", "--subtotals", s, NULL};
    struct stat st;
    pid_t pid;

    pid = cli_start(longrun, -1, -1);
    for (int i = 0; i < 3000 && (stat(j, &st) != 0 || st.st_size == 0); i++)
        sleep_ms(10); /* its journal exists: it has opened its outputs */
    cr_expect_eq(run(quick, 60, 0), 0, "%s", o.err);
    cr_expect_gt(slurp(s, want, sizeof(want)), 0, "the second count's CSV");
    kill(pid, SIGINT);
    cr_expect_eq(wait_within(pid, 60), 128 + SIGINT);
    cr_expect_gt(slurp(s, got, sizeof(got)), 0, "the CSV is gone");
    cr_expect_str_eq(got, want, "the CSV is not the second count's");
    expect_entries(2, "the journal and the CSV");
}

/* Three identical counts started on one journal at once: one runs, the others exit 1
 * ("in use") or, coming after it, resume the finished journal. Whichever exit 0 leave the
 * CSV on disk: a loser that had created the file used to remove it. */
Test(unit, counts_racing_on_one_journal_leave_the_subtotals, .init = make_dir, .fini = remove_dir)
{
    static char want[1 << 16], got[1 << 16];
    const char *j = at("same.nqj"), *s = at("s.csv");
    const char *const args[] = {"count",     "12",          "--engine", "d4",
                                "--threads", "1",           "--no-pin", "--checkpoint",
                                j,           "--subtotals", s,          NULL};

    cr_assert_eq(run(args, 60, 0), 0, "%s", o.err);
    cr_assert_gt(slurp(s, want, sizeof(want)), 0);
    for (int trial = 0; trial < 8; trial++) {
        pid_t pid[3];
        int ok = 0;
        unlink(j);
        unlink(s);
        for (int k = 0; k < 3; k++)
            pid[k] = cli_start(args, -1, -1);
        for (int k = 0; k < 3; k++) {
            int st = wait_within(pid[k], 60);
            cr_expect(st == 0 || st == 1, "trial %d: exit %d", trial, st);
            ok += st == 0;
        }
        cr_expect_geq(ok, 1, "trial %d: none ran", trial);
        cr_expect_gt(slurp(s, got, sizeof(got)), 0, "trial %d: no CSV after exit 0", trial);
        cr_expect_str_eq(got, want, "trial %d", trial);
        expect_entries(2, "the journal and the CSV");
    }
}

/* ---- issue 30 item 3, issue 29 item 4: complete or not at all ------------------------ */

/* What each output option writes, FILE standing for its path. */
static const char *const *output_case(int k, const char *file, char *buf)
{
    static const char *c[4][16];
    const char *const cases[4][16] = {
        {"count", "14", "--engine", "d4", "--no-pin", "--subtotals", file, NULL},
        {"bench", "--n", "6", "--threads", "1", "--repeat", "1", "--warmup", "0", "--no-pin",
         "--out", file, NULL},
        {"bench", "--n", "6", "--threads", "1", "--repeat", "1", "--warmup", "0", "--no-pin",
         "--export", buf, NULL},
        {"estimate", "10", "--threads", "1", "--max-tasks", "40", "--sample", file, NULL},
    };
    snprintf(buf, 600, "json=%s", file);
    memcpy(c[k], cases[k], sizeof(cases[k]));
    return c[k];
}

static const char *const output_names[] = {"count --subtotals", "bench --out",
                                           "bench --export json=", "estimate --sample"};

/* A file size limit of 256 bytes (ulimit -f; a full disk fails the same way, ENOSPC for
 * EFBIG): every output fails with one line and exit 1, and the file it would have
 * replaced keeps its bytes; nothing is left beside it. Each used to cut the old file to
 * nothing first (or, bench, when it opened it), and SIGXFSZ then killed the process. */
Test(unit, a_full_disk_leaves_every_previous_output, .init = make_dir, .fini = remove_dir)
{
    char buf[600], got[256];
    const char *file;

    file = at("previous");
    for (int k = 0; k < 4; k++) {
        put(file, "kept\n");
        run(output_case(k, file, buf), 60, 256);
        cr_expect_eq(o.status, 1, "%s: exit %d (%s)", output_names[k], o.status, o.err);
        cr_expect_eq(count_lines(o.err), 1, "%s: %s", output_names[k], o.err);
        cr_expect_not_null(strstr(o.err, "File too large"), "%s: %s", output_names[k], o.err);
        cr_expect_eq(slurp(file, got, sizeof(got)), 5, "%s", output_names[k]);
        cr_expect_str_eq(got, "kept\n", "%s: the previous file is lost", output_names[k]);
        expect_entries(1, output_names[k]);
    }
}

/* ---- issue 30 item 2: no links, no streams that block, not standard output ----------- */

/* Every output option, given a link to a file, a dangling link, /dev/stdout (a link) or
 * a FIFO no process reads: one line, exit 1, within seconds; the link's target keeps its
 * bytes, a dangling link's target is not created, nothing reaches standard output.
 * estimate --sample used fopen: it wrote through the links, created the missing target,
 * mixed the CSV into the result and blocked on the FIFO for ever. */
Test(unit, outputs_never_go_through_links_or_into_unread_fifos, .init = make_dir,
     .fini = remove_dir)
{
    const char *target = at("target"), *lnk = at("link"), *dangling = at("dangling");
    const char *fifo = at("fifo"), *missing = at("missing");
    const char *const paths[] = {lnk, dangling, "/dev/stdout", fifo};
    const char *const why[] = {"symbolic link", "symbolic link", "symbolic link", "FIFO"};
    char buf[600], got[64];

    cr_assert_eq(symlink(target, lnk), 0);
    cr_assert_eq(symlink(missing, dangling), 0);
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    for (int k = 0; k < 4; k++)
        for (int p = 0; p < 4; p++) {
            put(target, "kept");
            run(output_case(k, paths[p], buf), 20, 0);
            cr_expect_eq(o.status, 1, "%s %s: exit %d (%s)", output_names[k], paths[p], o.status,
                         o.err);
            cr_expect_eq(count_lines(o.err), 1, "%s %s: %s", output_names[k], paths[p], o.err);
            cr_expect_not_null(strstr(o.err, why[p]), "%s %s: %s", output_names[k], paths[p],
                               o.err);
            cr_expect_str_eq(o.out, "", "%s %s", output_names[k], paths[p]);
            cr_expect_eq(slurp(target, got, sizeof(got)), 4, "%s %s", output_names[k], paths[p]);
            cr_expect_eq(access(missing, F_OK), -1, "%s %s: the link's target was made",
                         output_names[k], paths[p]);
        }
    expect_entries(4, "the target, the links and the FIFO");
}

/* An output whose path stands for standard output too (estimate --sample FILE >>FILE)
 * would write the CSV and the result over each other: refused, exit 2. */
Test(unit, a_sample_where_standard_output_goes_is_refused, .init = make_dir, .fini = remove_dir)
{
    const char *file;
    const char *const args[] = {"estimate", "10",       "--threads", "1", "--max-tasks",
                                "40",       "--sample", NULL,        NULL};
    int fo, st;

    file = at("both");
    ((const char **)args)[7] = file;
    put(file, "kept");
    fo = open(file, O_WRONLY | O_APPEND);
    cr_assert(fo >= 0);
    st = cli_spawn(args, fo, -1);
    close(fo);
    cr_expect_eq(st, 2, "exit %d", st);
    cr_expect_eq(slurp(file, o.out, sizeof(o.out)), 4, "%s", o.out);
}

/* ---- issue 30 item 8: names up to 255 bytes ------------------------------------------ */

/* The journal's temporary name was its own name and 17 bytes more, past the 255 a
 * folder takes: journals of 239-255 bytes could not be created. Every output of those
 * lengths now works. */
Test(unit, names_of_up_to_255_bytes_work, .init = make_dir, .fini = remove_dir)
{
    static const int lengths[] = {238, 239, 250, 255};
    char name[256], sname[256];

    for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
        int len = lengths[i];
        memset(name, 'j', (size_t)len);
        name[len] = '\0';
        memset(sname, 's', (size_t)len);
        sname[len] = '\0';
        const char *j = at(name), *s = at(sname);
        const char *const args[] = {"count", "10",          "--no-pin", "--checkpoint",
                                    j,       "--subtotals", s,          NULL};
        cr_expect_eq(run(args, 60, 0), 0, "%d bytes: %s", len, o.err);
        cr_expect_eq(access(j, F_OK), 0, "%d bytes: no journal", len);
        cr_expect_eq(access(s, F_OK), 0, "%d bytes: no subtotals", len);
        unlink(j);
        unlink(s);
    }
    expect_entries(0, "nothing left");
}

/* ---- issue 29 item 3, issue 30 item 7: merge only reads ------------------------------ */

/* count 12 --slice K/2 --checkpoint dir/sK.nqj for K = 0, 1. */
static void two_slices(void)
{
    for (int k = 0; k < 2; k++) {
        char slice[8], name[16];
        snprintf(slice, sizeof(slice), "%d/2", k);
        snprintf(name, sizeof(name), "s%d.nqj", k);
        const char *const args[] = {"count",        "12",     "--slice",  slice,
                                    "--checkpoint", at(name), "--no-pin", NULL};
        cr_assert_eq(run(args, 60, 0), 0, "%s", o.err);
    }
}

/* Make path immutable (chattr +i: not even root may open it for writing) or, where the
 * file system or the user cannot, read-only; undone by set_writable. */
static void set_read_only(const char *path, int on)
{
    int fd = open(path, O_RDONLY), flags = 0;
    cr_assert(fd >= 0);
    if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
        flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
        if (ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0 && on)
            cr_log_warn("no chattr +i here: mode 0444 only (root may still write)");
    }
    close(fd);
    chmod(path, on ? 0444 : 0644);
}

/* A finished slice that may not be written and one with four stray bytes at its end:
 * merge adds them up, says what it ignored, and leaves both byte for byte as they were.
 * It used to open them for writing (refused: "Permission denied") and cut the stray
 * bytes off without a word. */
Test(unit, merge_leaves_read_only_and_torn_journals_as_they_were, .init = make_dir,
     .fini = remove_dir)
{
    static char before[2][1 << 16], after[2][1 << 16];
    ssize_t len[2];
    const char *const args[] = {"merge", at("s0.nqj"), at("s1.nqj"), NULL};
    char want[32];
    int fd;

    two_slices();
    fd = open(at("s1.nqj"), O_WRONLY | O_APPEND);
    cr_assert_eq(write(fd, "abcd", 4), 4);
    close(fd);
    for (int k = 0; k < 2; k++)
        len[k] = slurp(args[1 + k], before[k], sizeof(before[k]));
    set_read_only(args[1], 1);
    run(args, 60, 0);
    set_read_only(args[1], 0);
    snprintf(want, sizeof(want), "%llu\n", (unsigned long long)oeis_value("A000170", 12));
    cr_expect_eq(o.status, 0, "exit %d: %s", o.status, o.err);
    cr_expect_str_eq(o.out, want);
    cr_expect_not_null(strstr(o.err, "ignored a torn last record (4 bytes"), "%s", o.err);
    for (int k = 0; k < 2; k++) {
        cr_expect_eq(slurp(args[1 + k], after[k], sizeof(after[k])), len[k], "journal %d", k);
        cr_expect_eq(memcmp(before[k], after[k], (size_t)len[k]), 0, "journal %d changed", k);
    }
}

/* An empty file is no journal: merge says "empty", not "no such file", in one line. */
Test(unit, merge_calls_an_empty_journal_empty, .init = make_dir, .fini = remove_dir)
{
    const char *const args[] = {"merge", at("s0.nqj"), at("s1.nqj"), NULL};

    two_slices();
    put(args[2], "");
    run(args, 60, 0);
    cr_expect_eq(o.status, 1, "%s", o.err);
    cr_expect_eq(count_lines(o.err), 1, "%s", o.err);
    cr_expect_not_null(strstr(o.err, "empty"), "%s", o.err);
    cr_expect_null(strstr(o.err, "no such file"), "%s", o.err);
    cr_expect_str_eq(o.out, "");
}

/* Moves a journal away and back while merge runs: whenever the name comes back taken,
 * merge made a journal there while it was gone. */
typedef struct vanisher {
    const char *path, *away;
    atomic_int stop, created;
} vanisher;

static void *vanish(void *arg)
{
    vanisher *v = arg;
    while (!atomic_load(&v->stop)) {
        if (rename(v->path, v->away) != 0)
            continue;
        usleep(300);
        if (renameat2(AT_FDCWD, v->away, AT_FDCWD, v->path, RENAME_NOREPLACE) != 0) {
            atomic_fetch_add(&v->created, 1);
            rename(v->away, v->path); /* over the one merge made */
        }
        usleep(300);
    }
    return NULL;
}

/* A journal that disappears while merge reads (an archive being moved): merge refuses or
 * merges, and never creates a journal under the name (it made a fresh 176-byte one in 15
 * of 80 races, between its look at the header and its opening of the file). The slice
 * that vanishes is the last one merge opens, behind many others, so that the gap between
 * the two looks at it was wide. */
Test(unit, merge_creates_no_journal_when_one_vanishes, .init = make_dir, .fini = remove_dir)
{
    const char *names[8];
    const char *args[11] = {"merge"};
    vanisher v = {NULL, NULL, 0, 0};
    pthread_t t;
    int merged = 0, refused = 0;

    for (int k = 0; k < 8; k++) {
        static char buf[8][32];
        char slice[8];
        snprintf(slice, sizeof(slice), "%d/8", k);
        snprintf(buf[k], sizeof(buf[k]), "s%d.nqj", k);
        names[k] = strdup(at(buf[k]));
        const char *const c[] = {"count",  "13",      "--engine", "prefix",   "--prefix-rows",
                                 "5",      "--slice", slice,      "--no-pin", "--checkpoint",
                                 names[k], NULL};
        cr_assert_eq(run(c, 60, 0), 0, "%s", o.err);
        args[1 + k] = names[k];
    }
    v.path = names[7];
    v.away = at("away.nqj");
    cr_assert_eq(pthread_create(&t, NULL, vanish, &v), 0);
    for (int i = 0; i < 60; i++) {
        cli_run(&o, args);
        merged += o.status == 0;
        refused += o.status == 1 && strstr(o.err, "no such file") != NULL;
    }
    atomic_store(&v.stop, 1);
    pthread_join(t, NULL);
    cr_expect_eq(atomic_load(&v.created), 0, "merge created a journal %d times",
                 atomic_load(&v.created));
    cr_expect_eq(merged + refused, 60, "%d merged, %d refused: %s", merged, refused, o.err);
    for (int k = 0; k < 8; k++)
        free((void *)names[k]);
}

/* ---- issue 29 item 4: wrappers' signals ---------------------------------------------- */

/* bench -o with two signals at once (timeout -s INT, which signals the process and its
 * group) before anything was measured: one stop, exit 130 (143), and the report it would
 * have replaced keeps its bytes. It used to cut the file to nothing when it opened it,
 * and the second signal then left it empty (a 0-byte report in 1 of 4 runs). */
Test(unit, bench_stopped_before_a_measurement_keeps_the_report, .init = make_dir,
     .fini = remove_dir)
{
    const char *file = at("r.json");
    const char *const args[] = {"bench",    "--n", "18",       "--threads", "1",  "--repeat", "1",
                                "--warmup", "0",   "--no-pin", "--out",     file, NULL};
    char got[64];
    pid_t pid;
    int st;

    put(file, "kept");
    pid = cli_start(args, -1, -1);
    sleep_ms(300);
    kill(pid, SIGINT);
    kill(pid, SIGTERM);
    st = wait_within(pid, 60);
    cr_expect(st == 128 + SIGINT || st == 128 + SIGTERM, "exit %d", st);
    cr_expect_eq(slurp(file, got, sizeof(got)), 4, "the report was replaced: %s", got);
    expect_entries(1, "the report alone");
}
