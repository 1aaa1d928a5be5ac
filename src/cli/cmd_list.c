/* nqueens list: the solutions of one board size, streamed in lexicographic order, as
 * the classic problem statements print them (LeetCode 51, AcWing 843, Luogu P1219) or
 * as plain columns. The library hands over column vectors; all formatting is here. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "clock.h"
#include "commands.h"
#include "progress.h"
#include "signals.h"

enum list_format { FMT_COLUMNS, FMT_LEETCODE, FMT_ACWING, FMT_LUOGU };
static const char *const format_names[] = {"columns", "leetcode", "acwing", "luogu"};

/* Luogu P1219 prints this many solutions, then the total. */
#define LUOGU_SHOWN 3
/* The longest text of one board: a LeetCode board of 32 rows is 32 * 35 + 2 bytes. */
#define BOARD_TEXT_MAX 1200

/* Off by default: stdout is mostly a pipe or a file, and a bar between boards on a
 * terminal would only be in the way. */
#define LIST_PROGRESS_HELP                                                                         \
    PROGRESS_HELP("off: stdout is mostly a\n"                                                      \
                  "                     pipe or a file; bar: solutions listed, tasks done;\n"      \
                  "                     json: nqueens count's lines, one a second; luogu:\n"       \
                  "                     until the total is counted too")

static const char list_help[] =
    "usage: nqueens list N [options]\n"
    "Print the solutions of the N-queens problem (1 <= N <= 32) in lexicographic order\n"
    "of their column vectors, the same for every thread count, streamed as found.\n"
    "\n"
    "  --format F         columns (default): one line per solution, the 1-based column\n"
    "                       of the queen in each row, separated by spaces\n"
    "                     leetcode: one JSON array of boards of \"Q\"/\".\" strings (LeetCode 51)\n"
    "                     acwing: each board as N lines of Q and ., then an empty line\n"
    "                       (AcWing 843)\n"
    "                     luogu: the first 3 solutions as columns, then the total\n"
    "                       (Luogu P1219)\n"
    "  --limit K          stop after K solutions, K >= 1 (luogu: prints min(3, K) and\n"
    "                     still the full total)\n" COUNT_OPTS_HELP LIST_PROGRESS_HELP
    "  -h, --help         this help\n";

/* Output goes through one buffer written with write(2), so that a closed pipe shows
 * up as EPIPE at a known place: the reader having seen enough is a normal end. */
typedef struct list_out {
    int format;
    int tty;    /* flush every board, so that a person watching sees it at once */
    int closed; /* the reader went away */
    int err;    /* errno of any other write failure */
    uint64_t boards;
    double last_flush;
    size_t len;
    char buf[1 << 16];
} list_out;

/* 0, or -1 once the output is unusable (closed or err set). */
static int out_flush(list_out *o)
{
    size_t off = 0;

    if (o->closed || o->err)
        return -1;
    while (off < o->len) {
        ssize_t k = write(STDOUT_FILENO, o->buf + off, o->len - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            if (errno == EPIPE)
                o->closed = 1;
            else
                o->err = errno;
            return -1;
        }
        off += (size_t)k;
    }
    o->len = 0;
    o->last_flush = clock_seconds();
    return 0;
}

static int out_text(list_out *o, const char *s)
{
    size_t k = strlen(s);
    if (sizeof(o->buf) - o->len < k && out_flush(o) != 0)
        return -1;
    memcpy(o->buf + o->len, s, k);
    o->len += k;
    return 0;
}

static char *put_columns(char *p, const uint8_t *cols, int n)
{
    for (int r = 0; r < n; r++) {
        int v = cols[r] + 1;
        if (v >= 10)
            *p++ = (char)('0' + v / 10);
        *p++ = (char)('0' + v % 10);
        *p++ = r + 1 < n ? ' ' : '\n';
    }
    return p;
}

static char *put_row(char *p, int col, int n)
{
    memset(p, '.', (size_t)n);
    p[col] = 'Q';
    return p + n;
}

static int list_board(void *user, const uint8_t *cols, int n)
{
    list_out *o = user;
    char *p;

    if (sizeof(o->buf) - o->len < BOARD_TEXT_MAX && out_flush(o) != 0)
        return 1;
    p = o->buf + o->len;
    switch (o->format) {
    case FMT_LEETCODE:
        if (o->boards)
            *p++ = ',';
        *p++ = '[';
        for (int r = 0; r < n; r++) {
            *p++ = '"';
            p = put_row(p, cols[r], n);
            *p++ = '"';
            if (r + 1 < n)
                *p++ = ',';
        }
        *p++ = ']';
        break;
    case FMT_ACWING:
        for (int r = 0; r < n; r++) {
            p = put_row(p, cols[r], n);
            *p++ = '\n';
        }
        *p++ = '\n';
        break;
    default: /* columns, luogu */
        p = put_columns(p, cols, n);
        break;
    }
    o->len = (size_t)(p - o->buf);
    o->boards++;
    /* Block-buffered on a pipe, but never holding boards back for long. */
    if (o->tty || ((o->boards & 15) == 0 && clock_seconds() - o->last_flush >= 0.1))
        return out_flush(o) != 0;
    return 0;
}

static int parse_format(const char *s)
{
    for (int i = 0; i < (int)(sizeof(format_names) / sizeof(format_names[0])); i++)
        if (strcmp(s, format_names[i]) == 0)
            return i;
    return -1;
}

/* The exit code for a write failure: a closed pipe is how `| head` ends a listing. */
static int out_status(const char *cmd, const list_out *o)
{
    if (o->closed)
        return 0;
    return args_run_error(cmd, "cannot write the output: %s", strerror(o->err));
}

static list_out out;

/* What the command line asks for. */
typedef struct list_args {
    count_opts o;
    int n;
    int format;
    int progress; /* PROGRESS_* */
    uint64_t limit;
} list_args;

#define LIST_GO_ON (-1) /* list_parse: the arguments are good, list */

/* Parse the arguments into a; LIST_GO_ON, or the exit code (help printed, or a usage
 * error reported). */
static int list_parse(int argc, char **argv, list_args *a)
{
    static const char *const cmd = "list";
    args_iter it;
    const char *arg, *n_arg = NULL, *v;
    int kind, rc;
    long k;

    memset(a, 0, sizeof(*a));
    count_opts_default(&a->o);
    a->format = FMT_COLUMNS;
    a->progress = PROGRESS_OFF;
    args_iter_init(&it, argc, argv);
    while ((kind = args_next(&it, &arg)) != ARG_END) {
        if (kind == ARG_POSITIONAL) {
            if (strcmp(arg, "-h") == 0) {
                fputs(list_help, stdout);
                return 0;
            }
            if (n_arg)
                return args_usage_error(cmd, "unexpected argument '%s': list takes one N", arg);
            n_arg = arg;
            continue;
        }
        if (strcmp(it.name, "help") == 0) {
            fputs(list_help, stdout);
            return 0;
        }
        if (strcmp(it.name, "format") == 0 || strcmp(it.name, "limit") == 0) {
            v = args_value(&it);
            if (!v)
                return args_usage_error(cmd, "--%s needs a value", it.name);
            if (it.name[0] == 'f') {
                a->format = parse_format(v);
                if (a->format < 0)
                    return args_usage_error(
                        cmd, "unknown --format '%s': expected columns, leetcode, acwing or luogu",
                        v);
            } else {
                if (args_parse_long(v, 1, 0x7fffffffffffffffL, &k) != 0)
                    return args_usage_error(cmd, "invalid --limit '%s': expected an integer >= 1",
                                            v);
                a->limit = (uint64_t)k;
            }
            continue;
        }
        rc = progress_take(&a->progress, cmd, &it);
        if (rc == 0)
            rc = count_opts_take(&a->o, cmd, &it);
        if (rc == EXIT_USAGE)
            return rc;
        if (rc == 1)
            continue;
        return args_usage_error(cmd, "unknown option '%s' (see 'nqueens list --help')", arg);
    }
    if (!n_arg)
        return args_usage_error(cmd, "missing board size N (1..%d)", NQ_MAX_N);
    if (args_parse_n(cmd, n_arg, &a->n) != 0)
        return EXIT_USAGE;
    if (a->format == FMT_LUOGU && (a->limit == 0 || a->limit > LUOGU_SHOWN))
        a->limit = LUOGU_SHOWN;
    return LIST_GO_ON;
}

/* The listing itself, then Luogu's total, which needs every solution and so comes from
 * the counting engine. *listed gets the solutions listed. Ctrl-C ends the listing
 * between boards, so that the lines already listed reach the output whole and a
 * progress line is finished; a second one exits at once. */
static int list_solve(const list_args *a, nq_solver *sv, uint64_t *listed)
{
    nq_result r;
    int rc;

    signals_install();
    signals_target(sv);
    rc = nq_list(sv, list_board, &out, a->limit, &r);
    *listed = r.total.lo;
    if (rc == NQ_OK)
        args_warn_unpinned(&a->o, &r);
    if (rc == NQ_OK && a->format == FMT_LUOGU) {
        char total[40];
        rc = nq_count(sv, NULL, &r);
        if (rc == NQ_OK) {
            out_text(&out, nq_u128_to_string(r.total, total, sizeof(total)));
            out_text(&out, "\n");
        }
    }
    signals_target(NULL);
    return rc;
}

/* The exit code of a listing that ended with rc (sig: the signal that stopped it, or 0),
 * its output closed and flushed. */
static int list_finish(const char *cmd, const list_args *a, int rc, int sig, uint64_t listed)
{
    if (rc == NQ_ECANCELED && sig) {
        int flushed = out_flush(&out);
        fprintf(stderr, "%s %s: interrupted by %s after %llu solutions\n", args_program, cmd,
                signals_name(sig), (unsigned long long)listed);
        return flushed == 0 || out.closed ? 128 + sig : out_status(cmd, &out);
    }
    if (out.closed || out.err)
        return out_status(cmd, &out);
    if (rc != NQ_OK)
        return args_run_error(cmd, "list failed: %s", nq_strerror(rc));
    if (a->format == FMT_LEETCODE)
        out_text(&out, "]\n");
    if (out_flush(&out) != 0)
        return out_status(cmd, &out);
    return 0;
}

int cmd_list(int argc, char **argv)
{
    static const char *const cmd = "list";
    list_args a;
    int rc, sig;
    uint64_t listed = 0;
    nq_settings s;
    nq_solver *sv;
    progress pg;

    rc = list_parse(argc, argv, &a);
    if (rc != LIST_GO_ON)
        return rc;
    /* A reader that stops early (head) is the normal end: see EPIPE, not a signal. */
    signal(SIGPIPE, SIG_IGN);
    out.format = a.format;
    out.tty = isatty(STDOUT_FILENO);
    out.last_flush = clock_seconds();
    count_opts_settings(&a.o, a.n, &s);
    rc = nq_create_solver(&sv, &s);
    if (rc != NQ_OK)
        return args_run_error(cmd, "cannot create solver: %s", nq_strerror(rc));
    /* Progress reads the solver, so stdout carries the same bytes with it or without. */
    if (progress_start(&pg, a.progress, progress_read_solver, sv, NULL) != 0) {
        nq_destroy_solver(&sv);
        return args_run_error(cmd, "cannot start the progress thread");
    }
    if (a.format == FMT_LEETCODE)
        out_text(&out, "[");
    rc = list_solve(&a, sv, &listed);
    sig = signals_caught();
    progress_stop(&pg);
    signals_restore();
    nq_destroy_solver(&sv);
    return list_finish(cmd, &a, rc, sig, listed);
}
