/* nqueens merge: add up the journals of the slices of one count (count N --slice K/M
 * --checkpoint FILE) into its total, after checking that they are of one task set and
 * tile it exactly, every task recorded once. The library recounts nothing: the sum goes
 * through nq_count with every subtotal reused, so that the engine weighs each task and
 * counts the symmetry classes exactly as in a whole count. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "tools/args_messages.h"
#include "tools/args_parser.h"
#include "tools/count_opts.h"
#include "tools/count_output.h"
#include "tools/signals.h"

static const char *const cmd = "merge";

static const args_option merge_options[] = {
    {OPT_JSON, "json", 'j', no_argument, NULL, "print one JSON object (count's)", NULL, NULL},
    {OPT_UNIQUE, "unique", 'u', no_argument, NULL,
     "print the count up to symmetry (OEIS A002562)\ninstead of the total", NULL, NULL},
    ARGS_OPT_END,
};

const args_command merge_command = {
    "merge",
    "JOURNAL... [options]",
    "Add up the checkpoint journals that the slices of one count wrote (see count's\n"
    "help) and print the total, checked against OEIS A000170 (and A002562 where the\n"
    "engine counts classes). Refused, exit 1: journals of different task sets, slices\n"
    "that overlap, a missing slice, an unfinished one.\n",
    merge_options,
    NULL,
};

/* One journal: its path, its task set, the ids it covers, and the journal open for
 * reading only: merge writes, cuts or creates nothing (an archived slice is often
 * read-only, and a slice that vanishes between two looks must stay gone). */
typedef struct slice_file {
    const char *path;
    nq_task_set ts;
    uint64_t first, end;
    nq_journal *j;
} slice_file;

/* The task set without its slice, named after its engine's task family (cuda's journals
 * have d4's ids and subtotals). */
static nq_task_set whole_set(const nq_task_set *ts)
{
    nq_task_set w = *ts;
    int e = args_engine_id(w.engine);
    w.slice_index = w.slice_count = 0;
    w.first_task = w.end_task = 0;
    if (e >= 0)
        snprintf(w.engine, sizeof(w.engine), "%s", nq_engine_name(args_engine_info(e).task_family));
    return w;
}

/* After a signal stopped a step (doing: "while reading journal ", path or NULL): merge
 * prints its one line only at the end and opens every journal read-only, so nothing was
 * written. Returns 128 + the signal. */
static int stopped(const char *doing, const char *path)
{
    int sig = signals_stopped_by();

    args_note(cmd, "interrupted by %s %s%s; nothing was written", signals_name(sig), doing,
              path ? path : "");
    return 128 + sig;
}

/* "slice K/M" or "the whole count", for the messages. */
static const char *slice_name(const slice_file *f, char *buf, size_t size)
{
    if (!f->ts.slice_count)
        return "the whole count";
    snprintf(buf, size, "slice %u/%u", f->ts.slice_index, f->ts.slice_count);
    return buf;
}

/* Open journal i read-only, checked in full, into f[i]; 0 or an exit code. */
static int read_journal(slice_file *f)
{
    nq_journal_info info;
    int rc = nq_journal_read_stoppable(&f->j, f->path, NULL, signals_stop(), &info);

    if (rc == NQ_ECANCELED) /* 13 M records take seconds: checksums and a sort */
        return stopped("while reading journal ", f->path);
    if (rc == NQ_ENOMEM)
        return args_run_error(cmd, "journal %s: %s", f->path, nq_strerror(rc));
    if (rc != NQ_OK)
        return args_run_error(cmd, "journal %s: %s%s", f->path,
                              info.sys_errno == ENOENT ? "no such file" : info.detail,
                              info.sys_errno == EWOULDBLOCK ? " (an unfinished slice)" : "");
    if (info.torn_bytes) /* what a count would cut off and recompute */
        args_note(cmd, "journal %s: %s; the file is left as it was", f->path, info.detail);
    f->ts = info.found;
    f->first = f->ts.slice_count ? f->ts.first_task : 0;
    f->end = f->ts.slice_count ? f->ts.end_task : f->ts.tasks;
    return 0;
}

static int read_journals(slice_file *f, int n)
{
    nq_task_set first, mine;
    int rc;

    for (int i = 0; i < n; i++) {
        if ((rc = read_journal(&f[i])) != 0)
            return rc;
        first = whole_set(&f[0].ts);
        mine = whole_set(&f[i].ts);
        if (!nq_task_set_equal(&first, &mine))
            return args_run_error(cmd,
                                  "journals %s and %s are of different task sets (n=%d %s %s, "
                                  "%llu tasks; n=%d %s %s, %llu tasks)",
                                  f[0].path, f[i].path, first.n, first.engine, first.params,
                                  (unsigned long long)first.tasks, mine.n, mine.engine, mine.params,
                                  (unsigned long long)mine.tasks);
    }
    return 0;
}

static int by_range(const void *a, const void *b)
{
    const slice_file *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

/* The journals, sorted by their first task, must tile 0..tasks-1: no overlap, no gap. */
static int check_tiling(slice_file *f, int n)
{
    uint64_t at = 0, tasks = f[0].ts.tasks;
    char a[48], b[48];

    qsort(f, (size_t)n, sizeof(*f), by_range);
    for (int i = 0; i < n; i++) {
        if (f[i].first == f[i].end)
            continue; /* an empty slice (more slices than tasks) covers nothing */
        if (f[i].first < at)
            return args_run_error(cmd,
                                  "journals %s (%s) and %s (%s) overlap: slices of one count "
                                  "must each be given once",
                                  f[i - 1].path, slice_name(&f[i - 1], a, sizeof(a)), f[i].path,
                                  slice_name(&f[i], b, sizeof(b)));
        if (f[i].first > at)
            break;
        at = f[i].end;
    }
    if (at < tasks) {
        uint32_t m = f[0].ts.slice_count;
        for (uint32_t k = 0; m && k < m; k++) { /* name the first slice not given */
            int seen = 0;
            for (int i = 0; i < n; i++)
                seen |= f[i].ts.slice_count == m && f[i].ts.slice_index == k;
            if (!seen)
                return args_run_error(cmd,
                                      "slice %u/%u is missing: tasks from %llu on are in none of "
                                      "the journals",
                                      k, m, (unsigned long long)at);
        }
        return args_run_error(cmd,
                              "a slice is missing: tasks from %llu on are in none of the "
                              "journals",
                              (unsigned long long)at);
    }
    return 0;
}

/* Every task of each journal's range recorded, into subs; 0 or an exit code. A lookup
 * is a binary search: 0.8 s for 13 M tasks, so a signal is looked for as they go. */
static int collect(const slice_file *f, int n, uint64_t *subs)
{
    for (int i = 0; i < n; i++) {
        uint64_t missing = 0;
        char name[48];

        for (uint64_t id = f[i].first; id < f[i].end; id++) {
            if (id % 65536 == 0 && signals_caught())
                return stopped("while collecting the subtotals", NULL);
            missing += !nq_journal_lookup(f[i].j, id, &subs[id]);
        }
        if (missing) { /* one line, the command to paste whole */
            char *word = args_shell_word(f[i].path);
            args_hint(cmd,
                      "journal %s (%s) is unfinished: %llu of %llu tasks recorded; finish "
                      "it with: %s count %d --checkpoint %s",
                      f[i].path, slice_name(&f[i], name, sizeof(name)),
                      (unsigned long long)(f[i].end - f[i].first - missing),
                      (unsigned long long)(f[i].end - f[i].first), args_program, f[i].ts.n,
                      word ? word : f[i].path);
            free(word);
            return EXIT_RUN_FAILED;
        }
    }
    return 0;
}

typedef struct merged {
    const uint64_t *subs;
    uint64_t tasks;
    int computed; /* a task that was not reused: never, after collect */
} merged;

static int reuse_sub(void *user, uint64_t id, uint64_t *sub)
{
    const merged *m = user;
    if (id >= m->tasks)
        return 0;
    *sub = m->subs[id];
    return 1;
}

static int computed(void *user, uint64_t id, uint64_t sub)
{
    (void)id, (void)sub;
    ((merged *)user)->computed = 1;
    return 1; /* stop: merging counts nothing */
}

/* The sum of the subtotals as the engine weighs them, into r. */
static int sum_up(const nq_task_set *ts, const uint64_t *subs, nq_result *r)
{
    nq_settings s;
    nq_solver *sv = NULL;
    merged m = {subs, ts->tasks, 0};
    nq_hooks h = {&m, reuse_sub, computed};
    int rc;

    nq_default_settings(&s);
    s.n_threads = 1;
    s.pin_threads = 0;
    /* its check describes the set: the join's takes 6 s at n = 27 */
    if ((rc = nq_task_set_apply_stoppable(ts, signals_stop(), &s)) == NQ_ECANCELED)
        return stopped("while checking the task set", NULL);
    if (rc != NQ_OK)
        return args_run_error(cmd,
                              "task set '%s' of engine %s (%llu tasks) is not one this build "
                              "produces for n=%d",
                              ts->params, ts->engine, (unsigned long long)ts->tasks, ts->n);
    rc = nq_create_solver(&sv, &s);
    signals_target(sv); /* the engine's tables and its walk of every task take seconds */
    if (rc == NQ_OK)
        rc = nq_count(sv, &h, r);
    signals_target(NULL);
    nq_destroy_solver(&sv);
    if (rc == NQ_ECANCELED)
        return stopped("while adding up the subtotals", NULL);
    if (rc != NQ_OK || m.computed)
        return args_run_error(cmd, "internal error: the sum failed: %s", nq_strerror(rc));
    return 0;
}

static int parse(int argc, char **argv, const char ***paths, int *n, int *json, int *unique)
{
    args_parser p;
    int id;

    *paths = calloc((size_t)argc, sizeof(**paths));
    if (!*paths)
        return args_run_error(cmd, "out of memory");
    args_begin(&p, &merge_command, argc, argv);
    while ((id = args_next(&p)) != ARG_END) {
        if (id == ARG_EXIT)
            return p.exit_code;
        if (id == ARG_POSITIONAL)
            (*paths)[(*n)++] = p.value;
        else if (id == OPT_JSON)
            *json = 1;
        else if (id == OPT_UNIQUE)
            *unique = 1;
    }
    if (*json && *unique)
        return args_usage_error(cmd, "--json and --unique: the JSON object has both counts");
    if (*n == 0)
        return args_usage_error(cmd, "no journals: give the --checkpoint files of the slices");
    return -1;
}

static int merge(slice_file *f, int n, int json, int unique)
{
    nq_task_set whole;
    nq_result r;
    uint64_t *subs;
    char extra[32], got[40], want[40];
    count_report c = {0, &r, -1.0, extra, NULL};
    int rc;

    if ((rc = read_journals(f, n)) != 0 || (rc = check_tiling(f, n)) != 0)
        return rc;
    whole = whole_set(&f[0].ts);
    subs = calloc(whole.tasks, sizeof(*subs));
    if (!subs)
        return args_run_error(cmd, "no memory for %llu subtotals", (unsigned long long)whole.tasks);
    if ((rc = collect(f, n, subs)) == 0)
        rc = sum_up(&whole, subs, &r);
    free(subs);
    if (rc != 0)
        return rc;
    c.n = whole.n;
    c.cpu_seconds = r.user_seconds + r.system_seconds;
    snprintf(extra, sizeof(extra), "\"journals\": %d", n);
    if (count_output_verified(whole.n, &r) == 0) {
        nq_u128 known;
        nq_known_total(whole.n, &known);
        return args_run_error(cmd,
                              "wrong total %s (or unique count) for n=%d, the published total is "
                              "%s: one of the journals is damaged or forged",
                              nq_u128_to_string(r.total, got, sizeof(got)), whole.n,
                              nq_u128_to_string(known, want, sizeof(want)));
    }
    return count_output_print(cmd, &c, json, unique);
}

int cmd_merge(int argc, char **argv)
{
    const char **paths = NULL;
    slice_file *f = NULL;
    int n = 0, json = 0, unique = 0;
    int rc = parse(argc, argv, &paths, &n, &json, &unique);

    if (rc < 0) {
        f = calloc((size_t)n, sizeof(*f));
        if (!f) {
            rc = args_run_error(cmd, "out of memory");
        } else {
            for (int i = 0; i < n; i++)
                f[i].path = paths[i];
            signals_install(); /* the first signal stops the step in progress */
            rc = merge(f, n, json, unique);
            signals_restore();
            for (int i = 0; i < n; i++)
                if (f[i].j)
                    nq_journal_close(&f[i].j);
        }
    }
    free(f);
    free(paths);
    return rc;
}
