/* The checkpoint journal from the command line: adopts an existing journal's task set,
 * opens it, and turns its failures into one-line messages (see checkpoint.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args_messages.h"
#include "checkpoint.h"
#include "signals.h"

static const char *const cmd = "count";

/* Engines of one task family run the same task ids with the same subtotals (d4 and
 * cuda): either may finish what the other started (a GPU run whose machine lost its GPU,
 * a CPU run moved to one). name: the journal's engine; engine: the one asked for. */
static int same_ids(const char *name, int engine)
{
    int recorded = args_engine_id(name);
    return recorded >= 0 &&
           args_engine_info(recorded).task_family == args_engine_info(engine).task_family;
}

/* A slice's journal resumed without --slice: what the run asks must be what a slice
 * gives, or it is refused now rather than after the count (d4 once printed the slice's
 * share of the unique count with exit 0). */
static int slice_fits(const char *path, const nq_task_set *found, const count_opts *o,
                      const checkpoint_use *use)
{
    char slice[PATH_MAX + 64];

    if (!found->slice_count || o->slice_count)
        return 0; /* --slice asked for it: its checks were made with the options */
    if (!use->slices)
        return args_usage_error(cmd,
                                "journal %s is of slice %u/%u, and %s counts whole task "
                                "sets: resume it with nqueens count %d --checkpoint %s",
                                path, found->slice_index, found->slice_count, args_program,
                                found->n, path);
    snprintf(slice, sizeof(slice), "journal %s is of slice %u/%u,", path, found->slice_index,
             found->slice_count);
    return count_opts_check_slice(cmd, slice, use->unique, use->subtotals);
}

int checkpoint_adopt(const char *path, const count_opts *o, const checkpoint_use *use,
                     nq_settings *s, nq_task_set *found)
{
    nq_journal_info info;
    nq_task_set as;
    nq_settings t = *s;
    count_opts eff = *o;
    int rc = nq_journal_peek(path, found, &info);

    if (rc == NQ_EIO && info.sys_errno == ENOENT) {
        memset(found, 0, sizeof(*found)); /* a new journal */
        if (o->engine_set)
            return 0;
        rc = count_opts_check(cmd, o, use->unique);
        return rc ? rc : count_opts_check_n(cmd, o, o->engine, s->n);
    }
    if (rc != NQ_OK)
        return args_run_error(cmd, "journal %s: %s", path, info.detail);
    if (found->n != s->n)
        return args_run_error(cmd, "journal %s is for n=%d, not n=%d", path, found->n, s->n);
    /* Without --engine, resuming means finishing whatever the journal started. */
    if (o->engine_set && !same_ids(found->engine, s->engine))
        return args_run_error(cmd, "journal %s is for engine %s, not %s (pass --engine %s)", path,
                              found->engine, nq_engine_name(s->engine), found->engine);
    /* Without --slice, resuming a slice's journal resumes the slice. */
    if (o->slice_count &&
        ((int)found->slice_count != o->slice_count || (int)found->slice_index != o->slice_index)) {
        if (!found->slice_count)
            return args_run_error(cmd, "journal %s is of a whole count, not of slice %d/%d", path,
                                  o->slice_index, o->slice_count);
        return args_run_error(cmd, "journal %s is of slice %u/%u, not %d/%d", path,
                              found->slice_index, found->slice_count, o->slice_index,
                              o->slice_count);
    }
    if ((rc = slice_fits(path, found, o, use)) != 0)
        return rc;
    as = *found;
    if (o->engine_set) /* the engine asked for, on the journal's ids (d4 for cuda) */
        snprintf(as.engine, sizeof(as.engine), "%s", nq_engine_name(s->engine));
    if ((rc = nq_task_set_apply_stoppable(&as, signals_stop(), &t)) == NQ_ECANCELED)
        return checkpoint_stopped_early(path, s->n, "while checking the journal's task set");
    if (rc != NQ_OK)
        return args_run_error(cmd,
                              "journal %s: task set '%s' (%llu tasks) is not one this "
                              "build produces for n=%d",
                              path, found->params, (unsigned long long)found->tasks, found->n);
    if (o->prefix_rows && t.prefix_rows != s->prefix_rows)
        return args_run_error(cmd, "journal %s was started with %s; drop --prefix-rows to resume",
                              path, found->params);
    /* The checks of the options that depend on the engine, now that it is known. */
    eff.engine = t.engine;
    if (!o->engine_set && count_opts_check(cmd, &eff, use->unique) != 0)
        return EXIT_USAGE;
    *s = t;
    return 0;
}

int checkpoint_open(const char *path, const nq_task_set *ts, long sync_interval, nq_journal **j,
                    uint64_t *tasks_done)
{
    nq_journal_info info;
    int rc = nq_journal_open_stoppable(j, path, ts, (double)sync_interval, signals_stop(), &info);

    if (rc == NQ_ECANCELED)
        return checkpoint_stopped_early(path, ts->n, "while reading the journal");
    if (rc != NQ_OK)
        return args_run_error(
            cmd, "journal %s: %s%s%s", path, rc == NQ_ENOMEM ? nq_strerror(rc) : info.detail,
            rc == NQ_EMISMATCH ? "; this run is " : "", rc == NQ_EMISMATCH ? ts->params : "");
    if (info.torn_bytes)
        args_note(cmd, "journal %s: %s; that task will be recomputed", path, info.detail);
    if (info.tasks_done) /* of a slice: of its tasks */
        args_note(
            cmd, "resuming from %s: %llu of %llu tasks already done", path,
            (unsigned long long)info.tasks_done,
            (unsigned long long)(ts->slice_count ? ts->end_task - ts->first_task : ts->tasks));
    *tasks_done = info.tasks_done;
    return 0;
}

/* The command that resumes the journal at path, on a line of its own, whole, to paste. */
static void resume_hint(const char *path, int n)
{
    char *word = args_shell_word(path);

    if (word)
        args_hint(cmd, "resume with: %s count %d --checkpoint %s", args_program, n, word);
    free(word);
}

int checkpoint_stopped_early(const char *path, int n, const char *what)
{
    int sig = signals_stopped_by();

    if (!path) {
        args_note(cmd, "interrupted by %s %s, before any task ran; nothing was counted",
                  signals_name(sig), what);
        return 128 + sig;
    }
    args_note(cmd, "interrupted by %s %s, before any task ran; nothing was written to %s",
              signals_name(sig), what, path);
    resume_hint(path, n);
    return 128 + sig;
}

void checkpoint_recorded(const char *path, nq_journal **j, int n, const char *why, uint64_t done,
                         uint64_t tasks)
{
    int crc = nq_journal_close(j);

    args_note(cmd, "%s%s%llu of %llu tasks recorded in %s%s", why ? why : "", why ? ": " : "",
              (unsigned long long)done, (unsigned long long)tasks, path,
              crc == NQ_OK ? "" : " (final fsync failed)");
    resume_hint(path, n);
}

int checkpoint_interrupted(const char *path, nq_journal **j, int n, int sig, uint64_t done,
                           uint64_t tasks)
{
    if (path && *j) {
        char why[64];
        snprintf(why, sizeof(why), "interrupted by %s", signals_name(sig));
        checkpoint_recorded(path, j, n, why, done, tasks);
    } else {
        /* tasks 0: stopped while a deep prefix's tasks were still being counted */
        char when[64] = " before its tasks were counted";
        if (tasks)
            snprintf(when, sizeof(when), " after %llu of %llu tasks", (unsigned long long)done,
                     (unsigned long long)tasks);
        args_note(cmd,
                  "interrupted by %s%s; nothing was saved (--checkpoint FILE makes a run "
                  "resumable)",
                  signals_name(sig), when);
    }
    return 128 + sig;
}
