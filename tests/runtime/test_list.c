/* Listing: nq_list and `nqueens list` against hand-checked files (tests/data), against
 * the textbook reference engine (tests/reference.c) in every format, across thread
 * counts, with --limit, with --progress, on bad input and on a reader that closes the
 * pipe early; nq_solver_progress read from another thread while nq_list runs. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "engine_check.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"
#include "progress_json.h"
#include "reference.h"

static const char *const formats[] = {"columns", "board", "leetcode", "acwing", "luogu"};
#define N_FORMATS 5

/* A growing string: the test's own text of what the tool should print. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void text_add(text *t, const char *fmt, ...)
{
    va_list ap;
    int k;
    va_start(ap, fmt);
    k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)k + 1 > t->cap) {
        t->cap = (t->len + (size_t)k + 1) * 2;
        t->s = realloc(t->s, t->cap);
        cr_assert_not_null(t->s);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)k + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)k;
}

static void text_free(text *t)
{
    free(t->s);
    memset(t, 0, sizeof(*t));
}

/* The boards the reference engine finds, formatted as each problem statement asks.
 * Written independently of src/cli/cmd_list.c: the rules come from the issue text. */
typedef struct ref_text {
    text t;
    const char *format;
    uint64_t seen, limit;
    uint64_t shown; /* luogu: boards printed before the total */
} ref_text;

static void board_row(text *t, int col, int n)
{
    for (int c = 0; c < n; c++)
        text_add(t, "%c", c == col ? 'Q' : '.');
}

static int ref_format_one(void *user, const int *q, int n)
{
    ref_text *rt = user;
    rt->seen++;
    if (strcmp(rt->format, "columns") == 0 || strcmp(rt->format, "luogu") == 0) {
        if (strcmp(rt->format, "luogu") == 0 && rt->seen > rt->shown)
            return 0;
        for (int r = 0; r < n; r++)
            text_add(&rt->t, "%d%s", q[r] + 1, r == n - 1 ? "\n" : " ");
    } else if (strcmp(rt->format, "board") == 0) {
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                text_add(&rt->t, "%c%c", c == q[r] ? 'Q' : '.', c == n - 1 ? '\n' : ' ');
        text_add(&rt->t, "\n");
    } else if (strcmp(rt->format, "acwing") == 0) {
        for (int r = 0; r < n; r++) {
            board_row(&rt->t, q[r], n);
            text_add(&rt->t, "\n");
        }
        text_add(&rt->t, "\n");
    } else {
        text_add(&rt->t, rt->seen == 1 ? "[" : ",[");
        for (int r = 0; r < n; r++) {
            text_add(&rt->t, "\"");
            board_row(&rt->t, q[r], n);
            text_add(&rt->t, r == n - 1 ? "\"]" : "\",");
        }
    }
    return rt->limit && rt->seen == rt->limit;
}

/* ref_format_one for the boards that are the smallest of their symmetry class (by the
 * reference's own turns of the grid), which is what --unique keeps. */
static int ref_format_canonical(void *user, const int *q, int n)
{
    return reference_canonical(q, n) ? ref_format_one(user, q, n) : 0;
}

/* What `nqueens list n --format format [--limit limit] [--unique]` must print (limit 0:
 * none). Luogu prints the first three boards (fewer under a smaller limit) and always
 * the full total, so its limit never stops the enumeration. */
static void reference_text_of(text *out, int n, const char *format, uint64_t limit, int unique)
{
    int luogu = strcmp(format, "luogu") == 0;
    ref_text rt = {{0}, format, 0, luogu ? 0 : limit, limit && limit < 3 ? limit : 3};
    uint64_t total = 0;
    text_add(&rt.t, "%s", strcmp(format, "leetcode") == 0 ? "[" : "");
    if (unique) {
        reference_list(n, ref_format_canonical, &rt);
        total = reference_unique(n);
    } else {
        total = reference_list(n, ref_format_one, &rt);
    }
    if (strcmp(format, "leetcode") == 0)
        text_add(&rt.t, "]\n");
    if (strcmp(format, "luogu") == 0)
        text_add(&rt.t, "%llu\n", (unsigned long long)total);
    *out = rt.t;
}

static void reference_text(text *out, int n, const char *format, uint64_t limit)
{
    reference_text_of(out, n, format, limit, 0);
}

/* Run the built tool; stdout (any size) and stderr come back as strings to free. */
typedef struct run_out {
    int status;
    char *out, *err;
    size_t out_len;
} run_out;

static char *slurp_fd(int fd, size_t *len)
{
    off_t size = lseek(fd, 0, SEEK_END);
    char *buf = malloc((size_t)size + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(pread(fd, buf, (size_t)size, 0), size);
    buf[size] = '\0';
    if (len)
        *len = (size_t)size;
    return buf;
}

static void run_tool(run_out *o, const char *const *args)
{
    char out_path[SCRATCH_PATH], err_path[SCRATCH_PATH];
    int fo = scratch_file(out_path, sizeof(out_path), "list-out"),
        fe = scratch_file(err_path, sizeof(err_path), "list-err");

    cr_assert(fo >= 0 && fe >= 0);
    o->status = cli_spawn(args, fo, fe);
    o->out = slurp_fd(fo, &o->out_len);
    o->err = slurp_fd(fe, NULL);
    close(fo);
    close(fe);
    unlink(out_path);
    unlink(err_path);
}

/* Run `list n --format f --threads t [--limit k] [option]` and return its stdout (to
 * free); its stderr goes to *err (to free), or must be empty when err is NULL. */
static char *list_output_with(int n, const char *format, int threads, uint64_t limit,
                              const char *option, char **err)
{
    char ns[16], ts[16], ls[32];
    const char *args[12] = {"list", ns, "--format", format, "--threads", ts, "--no-pin"};
    int k = 7;
    run_out o;
    snprintf(ns, sizeof(ns), "%d", n);
    snprintf(ts, sizeof(ts), "%d", threads);
    snprintf(ls, sizeof(ls), "%llu", (unsigned long long)limit);
    if (limit) {
        args[k++] = "--limit";
        args[k++] = ls;
    }
    if (option)
        args[k++] = option;
    run_tool(&o, args);
    cr_assert_eq(o.status, 0, "list %d --format %s --threads %d: exit %d, stderr: %s", n, format,
                 threads, o.status, o.err);
    if (err) {
        *err = o.err;
    } else {
        cr_assert_str_eq(o.err, "", "list %d --format %s: stderr not empty", n, format);
        free(o.err);
    }
    return o.out;
}

static char *list_output(int n, const char *format, int threads, uint64_t limit)
{
    return list_output_with(n, format, threads, limit, NULL, NULL);
}

static char *read_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    char *s;
    cr_assert(fd >= 0, "cannot open %s", path);
    s = slurp_fd(fd, NULL);
    close(fd);
    return s;
}

Test(unit, list_formats_match_hand_checked_files)
{
    static const int sizes[] = {1, 4, 5, 6, 8};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        int n = sizes[i];
        for (int f = 0; f < N_FORMATS; f++) {
            char path[1024];
            char *want, *got;
            snprintf(path, sizeof(path), "%s/list-%d.%s.txt", NQ_TEST_DATA_DIR, n, formats[f]);
            want = read_file(path);
            if (strcmp(formats[f], "columns") == 0)
                cr_expect_eq((uint64_t)count_lines(want), oeis_value("A000170", n), "%s", path);
            for (int threads = 1; threads <= 3; threads += 2) {
                got = list_output(n, formats[f], threads, 0);
                cr_expect_str_eq(got, want, "list %d --format %s --threads %d differs from %s", n,
                                 formats[f], threads, path);
                free(got);
            }
            free(want);
        }
    }
}

Test(unit, list_matches_reference_engine_every_format)
{
    for (int n = 1; n <= 10; n++) {
        for (int f = 0; f < N_FORMATS; f++) {
            text want;
            char *got = list_output(n, formats[f], 3, 0);
            reference_text(&want, n, formats[f], 0);
            cr_expect_str_eq(got, want.s, "list %d --format %s differs from the reference", n,
                             formats[f]);
            free(got);
            text_free(&want);
        }
    }
}

Test(unit, list_same_bytes_for_every_thread_count)
{
    for (int n = 10; n <= 11; n++) {
        for (int f = 0; f < N_FORMATS; f++) {
            char *one = list_output(n, formats[f], 1, 0);
            for (int threads = 2; threads <= 5; threads += 3) {
                char *many = list_output(n, formats[f], threads, 0);
                cr_expect(strcmp(one, many) == 0, "list %d --format %s: 1 vs %d threads differ", n,
                          formats[f], threads);
                free(many);
            }
            if (n == 11 && strcmp(formats[f], "columns") == 0) {
                text want;
                reference_text(&want, n, formats[f], 0);
                cr_expect_str_eq(one, want.s, "list 11 differs from the reference");
                text_free(&want);
            }
            free(one);
        }
    }
}

Test(unit, list_limit_is_honoured)
{
    static const uint64_t limits[] = {1, 2, 5, 91, 92, 1000};
    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
        for (int f = 0; f < N_FORMATS; f++) {
            text want;
            char *got = list_output(8, formats[f], 2, limits[i]);
            reference_text(&want, 8, formats[f], limits[i]);
            cr_expect_str_eq(got, want.s, "list 8 --format %s --limit %llu", formats[f],
                             (unsigned long long)limits[i]);
            free(got);
            text_free(&want);
        }
    }
}

/* --limit takes any count a 64-bit counter holds: the largest is "no limit" in effect. */
Test(unit, list_limit_up_to_uint64_max)
{
    text want;
    char *got = list_output(6, "columns", 2, UINT64_MAX);
    reference_text(&want, 6, "columns", 0);
    cr_expect_str_eq(got, want.s);
    free(got);
    text_free(&want);
}

/* --unique: one board per symmetry class, the smallest of each, in order, in every
 * format: against the brute force that turns and mirrors every solution's grid, and
 * the count against OEIS A002562 (12 boards at n=8, 92 at n=10). */
Test(unit, list_unique_matches_brute_force_every_format)
{
    for (int n = 1; n <= 10; n++) {
        for (int f = 0; f < N_FORMATS; f++) {
            text want;
            char *got = list_output_with(n, formats[f], 2, 0, "--unique", NULL);
            reference_text_of(&want, n, formats[f], 0, 1);
            cr_expect_str_eq(got, want.s, "list %d --unique --format %s", n, formats[f]);
            if (strcmp(formats[f], "columns") == 0)
                cr_expect_eq((uint64_t)count_lines(got), oeis_value("A002562", n),
                             "list %d --unique: one line per class", n);
            free(got);
            text_free(&want);
        }
    }
}

Test(unit, list_unique_limit_and_thread_counts)
{
    static const uint64_t limits[] = {1, 5, 12, 13};
    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
        for (int f = 0; f < N_FORMATS; f++) {
            text want;
            char *got = list_output_with(8, formats[f], 2, limits[i], "--unique", NULL);
            reference_text_of(&want, 8, formats[f], limits[i], 1);
            cr_expect_str_eq(got, want.s, "list 8 --unique --format %s --limit %llu", formats[f],
                             (unsigned long long)limits[i]);
            free(got);
            text_free(&want);
        }
    char *one = list_output_with(11, "columns", 1, 0, "--unique", NULL);
    char *many = list_output_with(11, "columns", 3, 0, "--unique", NULL);
    cr_expect_str_eq(one, many, "list 11 --unique: 1 and 3 threads differ");
    cr_expect_eq((uint64_t)count_lines(one), oeis_value("A002562", 11));
    free(one);
    free(many);
}

Test(unit, list_bad_input_exit_2)
{
    const char *const cases[] = {
        "list",
        "list 0",
        "list 33",
        "list -1",
        "list 8x",
        "list 4 5",
        "list 8 --format nope",
        "list 8 --format",
        "list 8 --format=",
        "list 8 --limit -1",
        "list 8 --limit 0",
        "list 8 --limit 3x",
        "list 8 --limit",
        "list 8 --threads 0x2",
        "list 8 --threads 0",
        "list 6 --engine cuda",
        "list 6 --engine d4",
        "list 6 -e prefix",
        "list 6 --devices 0",
        "list 4 --limit 18446744073709551616",
        "list 4 --limit -18446744073709551615",
        "list 4 --unique=yes",
        "list 8 --bogus",
        "list 8 --progress=foo",
        "list 8 --progress=",
        "list 8 --no-progress=1",
    };
    cli_expect_usage_errors(cases);
}

/* Progress goes to stderr only: stdout is the same bytes as the reference's in every
 * format, and the final progress (the last JSON line; the bar's last line, if a run this
 * short drew one at all) has every task done and the published total (luogu's is its
 * count's). */
Test(unit, list_progress_leaves_stdout_alone)
{
    for (int n = 8; n <= 10; n++) {
        char want_bar[64];
        snprintf(want_bar, sizeof(want_bar), "tasks  %llu solutions\n",
                 (unsigned long long)oeis_value("A000170", n));
        for (int f = 0; f < N_FORMATS; f++) {
            text want;
            char *bar_err, *json_err;
            char *bar = list_output_with(n, formats[f], 2, 0, "--progress", &bar_err);
            char *json = list_output_with(n, formats[f], 2, 0, "--progress=json", &json_err);
            reference_text(&want, n, formats[f], 0);
            cr_expect_str_eq(bar, want.s, "list %d --format %s --progress", n, formats[f]);
            cr_expect_str_eq(json, want.s, "list %d --format %s --progress=json", n, formats[f]);
            if (bar_err[0])
                cr_expect(strstr(bar_err, "100.0%") && strstr(bar_err, want_bar),
                          "list %d --format %s: %s", n, formats[f], bar_err);
            expect_progress(json_err, n, NULL);
            free(bar);
            free(bar_err);
            free(json);
            free(json_err);
            text_free(&want);
        }
    }
}

/* A reader that takes three lines and closes the pipe, as `| head -3` does: the tool
 * must end by itself, with exit 0 and nothing on stderr, long before n = 17 is done
 * (and n = 29, whose total nobody knows). */
Test(unit, list_closed_pipe_is_a_normal_end)
{
    static const char *const sizes[] = {"17", "29"};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const char *argv[] = {NQ_CLI_PATH, "list", sizes[i], NULL};
        char err_path[SCRATCH_PATH], c;
        int fds[2], fe = scratch_file(err_path, sizeof(err_path), "list-err"), st, newlines = 0;
        posix_spawn_file_actions_t fa;
        FILE *in;
        pid_t pid;
        char *err;

        cr_assert(fe >= 0);
        cr_assert_eq(pipe(fds), 0);
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
        posix_spawn_file_actions_adddup2(&fa, fe, 2);
        posix_spawn_file_actions_addclose(&fa, fds[0]);
        cr_assert_eq(posix_spawn(&pid, NQ_CLI_PATH, &fa, NULL, (char *const *)argv, environ), 0);
        posix_spawn_file_actions_destroy(&fa);
        close(fds[1]);
        in = fdopen(fds[0], "r");
        while (newlines < 3 && fread(&c, 1, 1, in) == 1)
            newlines += c == '\n';
        fclose(in);
        cr_assert_eq(newlines, 3, "list %s: fewer than three lines", sizes[i]);
        cr_assert_eq(waitpid(pid, &st, 0), pid);
        err = slurp_fd(fe, NULL);
        cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "list %s | head -3: status %d (%s)",
                  sizes[i], st, err);
        cr_expect_str_eq(err, "", "list %s | head -3: stderr", sizes[i]);
        free(err);
        close(fe);
        unlink(err_path);
    }
}

/* The library on its own: the same sequence of boards as the reference engine, for
 * several thread counts and every task-source depth. */
typedef struct collect {
    uint8_t *boards; /* n bytes each */
    uint64_t count, cap, stop_at;
    int n;
    int count_only;
} collect;

static int collect_one(void *user, const uint8_t *cols, int n)
{
    collect *c = user;
    cr_assert_eq(n, c->n);
    if (c->count_only) {
        c->count++;
        return 0;
    }
    if (c->count == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->boards = realloc(c->boards, c->cap * (uint64_t)n);
        cr_assert_not_null(c->boards);
    }
    memcpy(c->boards + c->count * (uint64_t)n, cols, (size_t)n);
    c->count++;
    return c->stop_at && c->count == c->stop_at;
}

static int reference_collect(void *user, const int *q, int n)
{
    collect *c = user;
    uint8_t cols[32];
    for (int r = 0; r < n; r++)
        cols[r] = (uint8_t)q[r];
    return collect_one(c, cols, n);
}

/* An unpinned solver for board n with threads workers and a task source rows deep. */
static nq_solver *list_solver(int n, int threads, int rows)
{
    nq_settings s = engine_check_settings(n, NQ_ENGINE_AUTO, threads);
    s.prefix_rows = rows;
    return engine_check_create(&s);
}

static int list_api(int n, int threads, int rows, uint64_t limit, collect *c, nq_result *r)
{
    nq_solver *sv = list_solver(n, threads, rows);
    int rc = nq_list(sv, collect_one, c, limit, r);
    nq_destroy_solver(&sv);
    return rc;
}

Test(unit, list_api_matches_reference)
{
    for (int n = 1; n <= 9; n++) {
        collect want = {.n = n};
        reference_list(n, reference_collect, &want);
        cr_assert_eq(want.count, oeis_value("A000170", n), "reference n=%d", n);
        for (int threads = 1; threads <= 4; threads += 3) {
            for (int rows = 0; rows <= n; rows++) {
                collect got = {.n = n};
                nq_result r;
                cr_assert_eq(list_api(n, threads, rows, 0, &got, &r), NQ_OK);
                cr_expect_eq(got.count, want.count, "n=%d threads=%d rows=%d", n, threads, rows);
                cr_expect_eq(r.total.lo, got.count);
                cr_expect_eq(r.total.hi, 0);
                cr_expect(got.count == 0 ||
                              memcmp(got.boards, want.boards, got.count * (uint64_t)n) == 0,
                          "n=%d threads=%d rows=%d: boards differ", n, threads, rows);
                free(got.boards);
            }
        }
        free(want.boards);
    }
}

/* One task per column of row 0 on n = 12 is over a thousand boards, more than a task's
 * ring holds, and a callback that pauses now and then lets the rings fill: the workers
 * must wait for room and still hand over every board in order. */
static int collect_slowly(void *user, const uint8_t *cols, int n)
{
    collect *c = user;
    if (c->count % 2000 == 1999)
        usleep(2000);
    return collect_one(user, cols, n);
}

Test(unit, list_api_full_rings)
{
    collect want = {.n = 12};
    reference_list(12, reference_collect, &want);
    for (int threads = 1; threads <= 3; threads += 2) {
        collect got = {.n = 12};
        nq_solver *sv = list_solver(12, threads, 1);
        nq_result r;
        cr_assert_eq(nq_list(sv, collect_slowly, &got, 0, &r), NQ_OK);
        nq_destroy_solver(&sv);
        cr_expect_eq(got.count, oeis_value("A000170", 12));
        cr_expect_eq(r.prefix_rows, 1);
        cr_expect(got.count == want.count && memcmp(got.boards, want.boards, 12 * got.count) == 0,
                  "threads=%d: boards differ from the reference", threads);
        free(got.boards);
    }
    free(want.boards);
}

Test(unit, list_api_counts_match_oeis)
{
    for (int n = 1; n <= 12; n++) {
        collect got = {.n = n};
        nq_result r;
        cr_assert_eq(list_api(n, 2, 0, 0, &got, &r), NQ_OK);
        cr_expect_eq(got.count, oeis_value("A000170", n), "n=%d", n);
        cr_expect_eq(r.total.lo, got.count, "n=%d", n);
        free(got.boards);
    }
}

Test(unit, list_api_limit_stop_and_arguments)
{
    collect all = {.n = 10}, lim = {.n = 10}, stop = {.n = 10, .stop_at = 7};
    nq_result r;
    nq_settings s;
    nq_solver *sv = NULL;

    cr_assert_eq(list_api(10, 2, 0, 0, &all, &r), NQ_OK);
    cr_assert_eq(list_api(10, 3, 0, 25, &lim, &r), NQ_OK);
    cr_expect_eq(lim.count, 25);
    cr_expect_eq(r.total.lo, 25);
    cr_expect_eq(memcmp(lim.boards, all.boards, 25 * 10), 0, "the first 25 boards");
    cr_expect_eq(list_api(10, 3, 0, 0, &stop, &r), NQ_ECALLBACK);
    cr_expect_eq(stop.count, 7);
    cr_expect_eq(r.total.lo, 7, "boards passed to the callback");
    cr_expect_eq(memcmp(stop.boards, all.boards, 7 * 10), 0);
    free(all.boards);
    free(lim.boards);
    free(stop.boards);

    nq_default_settings(&s);
    s.n = 6;
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
    cr_expect_eq(nq_list(sv, NULL, NULL, 0, &r), NQ_EINVAL);
    cr_expect_eq(nq_list(sv, collect_one, NULL, 0, NULL), NQ_EINVAL);
    cr_expect_eq(nq_list(NULL, collect_one, NULL, 0, &r), NQ_EINVAL);
    nq_destroy_solver(&sv);
}

/* nq_solver_cancel from inside the callback (the calling thread) ends the run. */
typedef struct canceller {
    nq_solver *sv;
    uint64_t seen;
} canceller;

static int cancel_after_some(void *user, const uint8_t *cols, int n)
{
    canceller *c = user;
    (void)cols;
    (void)n;
    if (++c->seen == 1000)
        nq_solver_cancel(c->sv);
    return 0;
}

Test(unit, list_api_cancel)
{
    nq_settings s;
    canceller c = {NULL, 0};
    nq_result r;
    nq_default_settings(&s);
    s.n = 16;
    s.n_threads = 2;
    s.pin_threads = 0;
    cr_assert_eq(nq_create_solver(&c.sv, &s), NQ_OK);
    cr_expect_eq(nq_list(c.sv, cancel_after_some, &c, 0, &r), NQ_ECANCELED);
    cr_expect_lt(r.total.lo, oeis_value("A000170", 16));
    cr_expect_eq(r.total.lo, c.seen);
    nq_destroy_solver(&c.sv);
}

/* --progress=json for n = 12: the lines parse, never go back, and the last one has every
 * task of the listing done (as many as nq_list makes with the same threads) and the
 * published total, while stdout has every board. */
Test(unit, list_progress_json_n12)
{
    collect lib = {.n = 12, .count_only = 1};
    progress_line last;
    nq_result r;
    char *err, *got = list_output_with(12, "columns", 2, 0, "--progress=json", &err);

    cr_expect_eq((uint64_t)count_lines(got), oeis_value("A000170", 12));
    expect_progress(err, 12, &last);
    cr_assert_eq(list_api(12, 2, 0, 0, &lib, &r), NQ_OK);
    cr_expect_eq(last.total, r.tasks, "the listing's tasks: %s", err);
    free(got);
    free(err);
}

/* nq_solver_progress read from a second thread while nq_list runs. At one board the
 * callback waits until the reader has taken a sample, so that one sample is surely
 * from the middle of the run. */
typedef struct progress_poll {
    nq_solver *sv;
    atomic_int stop;
    atomic_int asked; /* 1: the callback waits for a sample; 2: it is taken */
    nq_progress mid;  /* that sample */
    uint64_t max_done, max_listed, task_count, went_back, count_changed;
} progress_poll;

static void *poll_progress(void *arg)
{
    progress_poll *pp = arg;
    nq_progress prev = {0}, now;

    while (!atomic_load(&pp->stop)) {
        if (atomic_load(&pp->asked) == 1) {
            nq_solver_progress(pp->sv, &pp->mid);
            atomic_store(&pp->asked, 2);
        }
        nq_solver_progress(pp->sv, &now);
        if (now.tasks_done < prev.tasks_done || now.partial_total.lo < prev.partial_total.lo ||
            now.partial_total.hi != 0)
            pp->went_back++;
        if (now.tasks_total && pp->task_count && now.tasks_total != pp->task_count)
            pp->count_changed++;
        if (now.tasks_total)
            pp->task_count = now.tasks_total;
        if (now.tasks_done > pp->max_done)
            pp->max_done = now.tasks_done;
        if (now.partial_total.lo > pp->max_listed)
            pp->max_listed = now.partial_total.lo;
        prev = now;
    }
    return NULL;
}

typedef struct paced {
    progress_poll *pp;
    uint64_t seen, ask_at;
} paced;

static int wait_for_a_sample(void *user, const uint8_t *cols, int n)
{
    paced *p = user;
    (void)cols;
    (void)n;
    if (++p->seen == p->ask_at) {
        atomic_store(&p->pp->asked, 1);
        while (atomic_load(&p->pp->asked) != 2)
            sched_yield();
    }
    return 0;
}

/* List board n with a reader polling; checks what holds for every run and returns the
 * run's result and the sample from its middle. */
static void list_polled(int n, int threads, int rows, nq_result *r, nq_progress *mid)
{
    const uint64_t total = oeis_value("A000170", n);
    progress_poll pp = {0};
    paced pc = {&pp, 0, total / 2};
    nq_progress end;
    pthread_t reader;

    pp.sv = list_solver(n, threads, rows);
    atomic_init(&pp.stop, 0);
    atomic_init(&pp.asked, 0);
    cr_assert_eq(pthread_create(&reader, NULL, poll_progress, &pp), 0);
    cr_expect_eq(nq_list(pp.sv, wait_for_a_sample, &pc, 0, r), NQ_OK);
    atomic_store(&pp.stop, 1);
    pthread_join(reader, NULL);
    nq_solver_progress(pp.sv, &end);
    nq_destroy_solver(&pp.sv);

    cr_expect_eq(r->total.lo, total, "n=%d threads=%d rows=%d", n, threads, rows);
    cr_expect_eq(end.tasks_done, r->tasks, "n=%d threads=%d rows=%d", n, threads, rows);
    cr_expect_eq(end.tasks_total, r->tasks, "n=%d threads=%d rows=%d", n, threads, rows);
    cr_expect(end.partial_total.lo == total && end.partial_total.hi == 0,
              "n=%d threads=%d rows=%d: %llu listed", n, threads, rows,
              (unsigned long long)end.partial_total.lo);
    cr_expect_eq(pp.went_back, 0, "n=%d threads=%d rows=%d", n, threads, rows);
    cr_expect_eq(pp.count_changed, 0, "n=%d threads=%d rows=%d", n, threads, rows);
    cr_expect_leq(pp.max_done, end.tasks_done);
    cr_expect_leq(pp.max_listed, total);
    /* The middle: some boards listed, not yet every task. */
    cr_expect(pp.mid.partial_total.lo > 0 && pp.mid.partial_total.lo <= pc.ask_at,
              "n=%d threads=%d rows=%d: %llu listed at board %llu", n, threads, rows,
              (unsigned long long)pp.mid.partial_total.lo, (unsigned long long)pc.ask_at);
    cr_expect_lt(pp.mid.tasks_done, r->tasks, "n=%d threads=%d rows=%d", n, threads, rows);
    *mid = pp.mid;
}

Test(unit, list_api_progress_while_listing)
{
    for (int n = 12; n <= 13; n++) {
        for (int threads = 1; threads <= 3; threads += 2) {
            for (int rows = 0; rows <= 3; rows += 3) {
                nq_result r;
                nq_progress mid;
                list_polled(n, threads, rows, &r, &mid);
                /* A depth this shallow is counted before the first board. */
                cr_expect_eq(mid.tasks_total, r.tasks, "n=%d threads=%d rows=%d", n, threads, rows);
            }
        }
    }
}

/* n = 14 placed 9 rows deep makes over four million tasks, too many to count before the
 * first board: the task count may appear only once the source is through, but then it
 * must be there, and it never changes. */
Test(unit, list_api_progress_deep_source)
{
    nq_result r;
    nq_progress mid;
    list_polled(14, 2, 9, &r, &mid);
    cr_expect_gt(r.tasks, 4000000);
    cr_expect(mid.tasks_total == 0 || mid.tasks_total == r.tasks, "%llu",
              (unsigned long long)mid.tasks_total);
}

Test(slow, list_matches_reference_n12_n13)
{
    for (int n = 12; n <= 13; n++) {
        text want;
        char *got = list_output(n, "columns", 2, 0);
        reference_text(&want, n, "columns", 0);
        cr_expect_eq((uint64_t)count_lines(want.s), oeis_value("A000170", n));
        cr_expect_str_eq(got, want.s, "list %d differs from the reference", n);
        free(got);
        text_free(&want);
    }
}

/* `list 16 > /dev/null` passes 14772512 boards (236 MB as bytes) through the window:
 * the process must stay far below that, since it never holds them all. */
Test(slow, list_memory_stays_bounded)
{
    const char *const args[] = {"list", "16", "--no-pin", NULL};
    struct rusage ru;
    pid_t pid = cli_start(args, -1, -1);
    int st;

    cr_assert_eq(wait4(pid, &st, 0, &ru), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    cr_expect_lt(ru.ru_maxrss, 64 * 1024, "max RSS %ld KiB", ru.ru_maxrss);
}

Test(slow, list_api_counts_n13_n15)
{
    for (int n = 13; n <= 15; n++) {
        collect got = {.n = n, .count_only = 1};
        nq_result r;
        cr_assert_eq(list_api(n, 2, 0, 0, &got, &r), NQ_OK);
        cr_expect_eq(got.count, oeis_value("A000170", n), "n=%d", n);
    }
}

/* 1 if the n numbers of line (1-based columns) place n queens that leave each other
 * alone. */
/* nq_solution_canonical, the filter --unique runs on the stream, against the reference's
 * own turns and mirrors on every solution of n <= 10, and its argument checks. */
static int check_canonical(void *user, const int *q, int n)
{
    uint8_t cols[32];
    for (int r = 0; r < n; r++)
        cols[r] = (uint8_t)q[r];
    *(uint64_t *)user += (uint64_t)nq_solution_canonical(cols, n);
    cr_expect_eq(nq_solution_canonical(cols, n), reference_canonical(q, n), "n=%d", n);
    return 0;
}

Test(unit, solution_canonical_matches_the_reference)
{
    static const uint8_t bad[2] = {0, 2};

    for (int n = 1; n <= 10; n++) {
        uint64_t classes = 0;
        reference_list(n, check_canonical, &classes);
        cr_expect_eq(classes, oeis_value("A002562", n), "n=%d", n);
    }
    cr_expect_eq(nq_solution_canonical(NULL, 4), NQ_EINVAL);
    cr_expect_eq(nq_solution_canonical(bad, 0), NQ_EINVAL);
    cr_expect_eq(nq_solution_canonical(bad, NQ_MAX_N + 1), NQ_EINVAL);
    cr_expect_eq(nq_solution_canonical(bad, 2), NQ_EINVAL, "column 2 is off a 2 x 2 board");
}

static int line_is_solution(const char *line, int n, int *cols)
{
    const char *p = line;
    for (int r = 0; r < n; r++) {
        char *end;
        long c = strtol(p, &end, 10);
        if (end == p || c < 1 || c > n)
            return 0;
        cols[r] = (int)c;
        p = end;
        for (int q = 0; q < r; q++)
            if (cols[q] == cols[r] || abs(cols[q] - cols[r]) == r - q)
                return 0;
    }
    return *p == '\n';
}

/* Ctrl-C in the middle of a listing: exit 130 and one line on stderr saying how many
 * solutions were listed, and stdout holds exactly that many whole lines, each a
 * solution, in increasing lexicographic order (the first ones of the listing). */
Test(unit, sigint_ends_a_listing_with_whole_lines)
{
    const char *const args[] = {"list", "16", "--threads", "1", "--no-pin", NULL};
    char out_path[SCRATCH_PATH], err_path[SCRATCH_PATH];
    char line[256], err[1024] = "";
    int fo = scratch_file(out_path, sizeof(out_path), "list-int"),
        fe = scratch_file(err_path, sizeof(err_path), "list-err"), st, prev[16], cols[16];
    unsigned long long said = 0, lines = 0;
    FILE *f;
    pid_t pid;

    cr_assert(fo >= 0 && fe >= 0);
    pid = cli_start(args, fo, fe);
    for (int i = 0; i < 5000 && lseek(fo, 0, SEEK_END) < 200000; i++)
        usleep(1000); /* a few thousand boards out: the listing is under way */
    kill(pid, SIGINT);
    st = cli_wait(pid);
    lseek(fe, 0, SEEK_SET);
    cli_slurp(fe, err, sizeof(err));
    cr_expect_eq(st, 128 + SIGINT, "exit %d, stderr: %s", st, err);
    cr_expect_eq(count_lines(err), 1, "%s", err);
    cr_assert_eq(sscanf(strstr(err, "after ") ? strstr(err, "after ") : "", "after %llu", &said), 1,
                 "%s", err);
    f = fopen(out_path, "r");
    cr_assert_not_null(f);
    while (fgets(line, sizeof(line), f)) {
        cr_assert(line_is_solution(line, 16, cols), "line %llu: %s", lines + 1, line);
        for (int r = 0; lines && r < 16; r++)
            if (cols[r] != prev[r]) {
                cr_assert_gt(cols[r], prev[r], "line %llu is out of order", lines + 1);
                break;
            }
        memcpy(prev, cols, sizeof(cols));
        lines++;
    }
    fclose(f);
    cr_expect_gt(lines, 1000, "the signal landed inside the listing");
    cr_expect_lt(lines, oeis_value("A000170", 16), "stopped before the end");
    cr_expect_eq(lines, said, "stdout has %llu lines, stderr says %llu", lines, said);
    close(fo);
    close(fe);
    unlink(out_path);
    unlink(err_path);
}

/* Ctrl-C in the middle of a LeetCode listing: what was listed is still one JSON array
 * of whole boards, closed by its "]". */
Test(unit, sigint_leaves_leetcode_json_valid)
{
    const char *const args[] = {"list",     "14",       "--threads", "1",
                                "--format", "leetcode", "--no-pin",  NULL};
    char out_path[SCRATCH_PATH], *out;
    int fo = scratch_file(out_path, sizeof(out_path), "list-lc"), st;
    size_t len, boards = 0, depth = 0;
    off_t size;
    pid_t pid;

    cr_assert(fo >= 0);
    pid = cli_start(args, fo, -1);
    for (int i = 0; i < 5000 && lseek(fo, 0, SEEK_END) < 100000; i++)
        usleep(1000);
    kill(pid, SIGINT);
    st = cli_wait(pid);
    cr_expect_eq(st, 128 + SIGINT, "exit %d", st);
    /* Read it all: under load the listing runs on for megabytes before the signal is
     * sent (a fixed 8 MiB buffer cut it mid-board in CI). */
    size = lseek(fo, 0, SEEK_END);
    cr_assert_gt(size, 0);
    out = malloc((size_t)size + 1);
    cr_assert(out);
    lseek(fo, 0, SEEK_SET);
    cli_slurp(fo, out, (size_t)size + 1);
    close(fo);
    unlink(out_path);
    len = strlen(out);
    cr_assert_eq(len, (size_t)size, "read whole");
    cr_assert_gt(len, 3);
    cr_expect_eq(out[0], '[');
    cr_expect_eq(strcmp(out + len - 2, "]\n"), 0, "the array is closed: ...%s", out + len - 8);
    /* Brackets balance and every board is whole (14 rows of 14 cells). */
    for (size_t i = 0; i < len; i++) {
        if (out[i] == '[')
            depth++;
        else if (out[i] == ']') {
            cr_assert_gt(depth, 0, "unbalanced at byte %zu", i);
            if (--depth == 1)
                boards++;
        }
    }
    cr_expect_eq(depth, 0, "unbalanced brackets");
    cr_expect_gt(boards, 100, "the signal landed inside the listing");
    cr_expect_lt(boards, oeis_value("A000170", 14), "stopped before the end");
    free(out);
}
