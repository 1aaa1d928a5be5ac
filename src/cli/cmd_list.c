/* nqueens list: the solutions of one board size, streamed in lexicographic order, as
 * the classic problem statements print them (LeetCode 51, AcWing 843, Luogu P1219), as
 * plain columns or as boards to read; with --unique one board per symmetry class. The
 * library hands over column vectors; the class filter and all formatting are here. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "core/clock.h"
#include "tools/args_messages.h"
#include "tools/args_parser.h"
#include "tools/count_opts.h"
#include "tools/number.h"
#include "tools/progress.h"
#include "tools/signals.h"

/* Luogu P1219 prints this many solutions, then the total. */
#define LUOGU_SHOWN 3
/* The longest text of one board: a board of 32 rows of ". Q . ..." is 32 * 64 + 1
 * bytes (a LeetCode one 32 * 35 + 2). */
#define BOARD_TEXT_MAX (NQ_MAX_N * (2 * NQ_MAX_N) + 2)

static char *put_row(char *p, int col, int n)
{
    memset(p, '.', (size_t)n);
    p[col] = 'Q';
    return p + n;
}

/* The writers of one board of n queens, cols[r] the column of row r's, at p (room for
 * BOARD_TEXT_MAX bytes); index: the boards written before it. Each returns the end. */
static char *put_columns(char *p, const uint8_t *cols, int n, uint64_t index)
{
    (void)index;
    for (int r = 0; r < n; r++) {
        int v = cols[r] + 1;
        if (v >= 10)
            *p++ = (char)('0' + v / 10);
        *p++ = (char)('0' + v % 10);
        *p++ = r + 1 < n ? ' ' : '\n';
    }
    return p;
}

/* Rows of ". . Q .", then an empty line. */
static char *put_board(char *p, const uint8_t *cols, int n, uint64_t index)
{
    (void)index;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            *p++ = c == cols[r] ? 'Q' : '.';
            *p++ = c + 1 < n ? ' ' : '\n';
        }
    *p++ = '\n';
    return p;
}

/* One element of the JSON array: ["..Q.", ...]. */
static char *put_leetcode(char *p, const uint8_t *cols, int n, uint64_t index)
{
    if (index)
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
    return p;
}

static char *put_acwing(char *p, const uint8_t *cols, int n, uint64_t index)
{
    (void)index;
    for (int r = 0; r < n; r++) {
        p = put_row(p, cols[r], n);
        *p++ = '\n';
    }
    *p++ = '\n';
    return p;
}

/* A format of list: a new one is a row here and its writer. The first is the default. */
typedef struct list_format {
    args_word_row word; /* its name for --format, and the help's line */
    char *(*put)(char *p, const uint8_t *cols, int n, uint64_t index);
    const char *open, *close; /* before the first board and after the last */
    uint64_t shown;           /* > 0: print at most this many boards, then the total (Luogu) */
} list_format;

static const list_format list_formats[] = {
    {{"columns", "one line per solution, the 1-based column\nof the queen in each row, "
                 "space-separated"},
     put_columns,
     "",
     "",
     0},
    {{"board", "each board as rows of '. Q . .', then an empty\nline, for reading"},
     put_board,
     "",
     "",
     0},
    {{"leetcode", "one JSON array of boards of \"Q\"/\".\"\nstrings (LeetCode 51)"},
     put_leetcode,
     "[",
     "]\n",
     0},
    {{"acwing", "each board as N lines of Q and ., then an\nempty line (AcWing 843)"},
     put_acwing,
     "",
     "",
     0},
    {{"luogu", "the first 3 solutions as columns, then the\ntotal (Luogu P1219)"},
     put_columns,
     "",
     "",
     LUOGU_SHOWN},
};

#define N_FORMATS (sizeof(list_formats) / sizeof(list_formats[0]))

static const char *list_format_word(int i, const char **about)
{
    return args_row_word(list_formats, sizeof(list_formats[0]), N_FORMATS, i, about);
}

static const args_option list_options[] = {
    {OPT_FORMAT, "format", 'f', required_argument, "F",
     "how the solutions are written (default: columns):{words}", list_format_word, NULL},
    {OPT_LIMIT, "limit", 'l', required_argument, "K",
     "stop after K solutions, K >= 1 (luogu: prints\nmin(3, K) and still the full total)", NULL,
     NULL},
    {OPT_UNIQUE, "unique", 'u', no_argument, NULL,
     "one board per symmetry class (OEIS A002562), the\nlexicographically smallest of its "
     "class",
     NULL, NULL},
    ARGS_OPT_THREADS,
    {OPT_PREFIX_ROWS, "prefix-rows", 0, required_argument, "K",
     "rows the ordered task source places, 1..32\n(default: from n and the threads)", NULL, NULL},
    ARGS_OPT_NO_PIN,
    /* Off by default: stdout is mostly a pipe or a file, and a bar between boards on a
     * terminal would only be in the way. */
    PROGRESS_OPTIONS("off; bar: solutions\n"
                     "listed and tasks done; json: count's lines, one a\n"
                     "second; luogu: until the total is counted too"),
    {OPT_REFUSED, "engine", 'e', required_argument, NULL, NULL, NULL,
     "list has one engine, its ordered search (--engine is for count, verify and bench)"},
    ARGS_OPT_REFUSED_DEVICES("list runs on the CPU"),
    ARGS_OPT_END,
};

const args_command list_command = {
    "list",
    "N [options]",
    "Print the solutions of the N-queens problem (1 <= N <= 32) in lexicographic\n"
    "order of their column vectors, the same for every thread count, streamed as\n"
    "found.\n",
    list_options,
    NULL,
};

/* Output goes through one buffer written with write(2), so that a closed pipe shows
 * up as EPIPE at a known place: the reader having seen enough is a normal end. */
typedef struct list_out {
    const list_format *format;
    int unique;     /* only the smallest board of each symmetry class */
    uint64_t limit; /* unique: stop after this many boards (0: all) */
    uint64_t shown; /* boards printed before the total (luogu), else UINT64_MAX */
    int at_limit;   /* the callback stopped the listing at limit */
    int tty;        /* flush every board, so that a person watching sees it at once */
    int closed;     /* the reader went away */
    int err;        /* errno of any other write failure */
    uint64_t boards;
    nq_solver *sv; /* stopped from here when a signal came before the listing started */
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

static int list_board(void *user, const uint8_t *cols, int n)
{
    list_out *o = user;
    char *p;

    if (signals_caught()) /* a cancel only reaches a run in progress: this is inside it */
        nq_solver_cancel(o->sv);
    if (o->unique && nq_solution_canonical(cols, n) != 1)
        return 0;
    if (o->boards >= o->shown) {
        o->boards++; /* luogu --unique: counted to the end, the total comes last */
        return 0;
    }
    if (sizeof(o->buf) - o->len < BOARD_TEXT_MAX && out_flush(o) != 0)
        return 1;
    p = o->format->put(o->buf + o->len, cols, n, o->boards);
    o->len = (size_t)(p - o->buf);
    o->boards++;
    if (o->limit && o->boards == o->limit) {
        o->at_limit = 1; /* --unique --limit: the library's limit counts every solution */
        return 1;
    }
    /* Block-buffered on a pipe, but never holding boards back for long. */
    if (o->tty || ((o->boards & 15) == 0 && clock_seconds() - o->last_flush >= 0.1))
        return out_flush(o) != 0;
    return 0;
}

static const list_format *find_format(const char *name)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        if (strcmp(name, list_formats[i].word.name) == 0)
            return &list_formats[i];
    return NULL;
}

/* The exit code for a write failure: a closed pipe is how `| head` ends a listing. */
static int out_status(const char *cmd, const list_out *o)
{
    if (o->closed)
        return 0;
    return args_run_error(cmd, "cannot write the output: %s", strerror(o->err));
}

static list_out out;

/* The luogu total's count: asked before each task, so that a signal which came between
 * the listing and the count stops the count too. */
static int stop_if_signalled(void *user, uint64_t id, uint64_t *subtotal)
{
    (void)id;
    (void)subtotal;
    if (signals_caught())
        nq_solver_cancel(user);
    return 0;
}

typedef struct list_args {
    int n, unique, progress;
    const list_format *format;
    uint64_t limit;
    count_opts o;
} list_args;

/* -1 when the listing should run, else the exit code (reported). */
static int list_parse(list_args *a, int argc, char **argv)
{
    static const char *const cmd = "list";
    const char *n_arg = NULL;
    char names[128];
    args_parser p;
    int id, rc;

    memset(a, 0, sizeof(*a));
    a->format = &list_formats[0];
    a->progress = PROGRESS_OFF;
    count_opts_default(&a->o);
    args_begin(&p, &list_command, argc, argv);
    while ((id = args_next_n(&p, &n_arg)) != ARG_END) {
        switch (id) {
        case ARG_EXIT:
            return p.exit_code;
        case OPT_FORMAT:
            a->format = find_format(p.value);
            if (!a->format)
                return args_usage_error(cmd, "unknown --format '%s': expected %s", p.value,
                                        args_words_text(list_format_word, names, sizeof(names)));
            continue;
        case OPT_LIMIT:
            if (number_parse_u64(p.value, 1, &a->limit) != 0)
                return args_usage_error(cmd,
                                        "invalid --limit '%s': expected an integer "
                                        "1..18446744073709551615",
                                        p.value);
            continue;
        case OPT_UNIQUE:
            a->unique = 1;
            continue;
        }
        rc = progress_take(&a->progress, cmd, id, p.value);
        if (rc == 0)
            rc = count_opts_take(&a->o, cmd, id, p.value);
        if (rc != 1)
            return EXIT_USAGE;
    }
    if (args_parse_n(cmd, n_arg, &a->n) != 0)
        return EXIT_USAGE;
    return -1;
}

/* The listing itself, then Luogu's total, which needs every solution and so comes from
 * the counting engine (--unique: the classes were counted on the way). *listed gets the
 * solutions listed. Ctrl-C ends the listing between boards, so that the lines already
 * listed reach the output whole and a progress line is finished; a second one exits at
 * once. */
static int list_solve(const list_args *a, nq_solver *sv, uint64_t *listed)
{
    nq_result r;
    int rc;

    signals_install();
    signals_target(sv);
    out.sv = sv;
    rc = nq_list(sv, list_board, &out, a->unique ? 0 : a->limit, &r);
    if (rc == NQ_ECALLBACK && out.at_limit)
        rc = NQ_OK;
    *listed = a->unique ? out.boards : r.total.lo;
    if (rc == NQ_OK)
        args_warn_unpinned(&a->o, &r);
    if (rc == NQ_OK && a->format->shown) {
        char total[40];
        if (!a->unique) {
            nq_hooks h = {sv, stop_if_signalled, NULL};
            rc = nq_count(sv, &h, &r);
        } else
            r.total = (nq_u128){out.boards, 0};
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
        int flushed;
        out_text(&out, a->format->close); /* what was listed stays one valid JSON array */
        flushed = out_flush(&out);
        args_note(cmd, "interrupted by %s after %llu solutions", signals_name(sig),
                  (unsigned long long)listed);
        return flushed == 0 || out.closed ? 128 + sig : out_status(cmd, &out);
    }
    if (out.closed || out.err)
        return out_status(cmd, &out);
    if (rc != NQ_OK)
        return args_run_error(cmd, "list failed: %s", nq_strerror(rc));
    out_text(&out, a->format->close);
    if (out_flush(&out) != 0)
        return out_status(cmd, &out);
    return 0;
}

int cmd_list(int argc, char **argv)
{
    static const char *const cmd = "list";
    list_args a;
    int rc, sig;
    uint64_t listed = 0, limit;
    nq_settings s;
    nq_solver *sv;
    progress pg;

    rc = list_parse(&a, argc, argv);
    if (rc >= 0)
        return rc;
    if (a.format->shown && (a.limit == 0 || a.limit > a.format->shown))
        a.limit = a.format->shown; /* the boards luogu prints; its total counts them all */
    limit = a.limit;
    /* A reader that stops early (head) is the normal end: see EPIPE, not a signal. */
    signal(SIGPIPE, SIG_IGN);
    out.format = a.format;
    out.unique = a.unique;
    out.shown = a.format->shown ? limit : UINT64_MAX;
    /* --unique filters the library's stream, so its limit (all solutions) cannot apply;
     * luogu --unique counts its classes to the end. */
    out.limit = a.unique && !a.format->shown ? limit : 0;
    out.tty = isatty(STDOUT_FILENO);
    out.last_flush = clock_seconds();
    count_opts_settings(&a.o, a.n, &s);
    rc = nq_create_solver(&sv, &s);
    if (rc != NQ_OK)
        return args_run_error(cmd, "cannot create solver: %s", nq_strerror(rc));
    /* Progress reads the solver, so stdout carries the same bytes with it or without. */
    if (progress_start(&pg, a.progress, a.n, progress_read_solver, sv, NULL) != 0) {
        nq_destroy_solver(&sv);
        return args_run_error(cmd, "cannot start the progress thread");
    }
    out_text(&out, a.format->open);
    rc = list_solve(&a, sv, &listed);
    sig = signals_caught();
    progress_stop(&pg);
    signals_restore();
    nq_destroy_solver(&sv);
    return list_finish(cmd, &a, rc, sig, listed);
}
