/* The plan and the files of a count for nqueens count and nqueens-mpi (see count_job.h):
 * each step of the two tools' counts that is not the count itself, and each message
 * that goes with it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args_messages.h"
#include "checkpoint.h"
#include "count_job.h"
#include "count_output.h"
#include "signals.h"

/* ---- before the count ------------------------------------------------------------- */

/* The task set of the run (s: resolved) into *ts, for a journal or the subtotals; found:
 * the journal's (checkpoint_adopt), whose name d4 and cuda keep for each other's. A
 * signal ends the description (the join's task count takes 6 s at n = 27). */
static int describe(const char *cmd, const count_run_opts *r, const nq_settings *s,
                    const nq_task_set *found, nq_task_set *ts)
{
    int rc = nq_task_set_describe_stoppable(s, signals_stop(), ts);
    nq_engine_info info = args_engine_info(s->engine);

    if (rc == NQ_ECANCELED)
        return checkpoint_stopped_early(r->checkpoint, s->n, "while its tasks were counted");
    /* where the prefix rows make the task set (not cuda's, which has d4's) */
    if (rc == NQ_EINVAL && info.takes_prefix_rows && info.task_family == s->engine)
        return args_run_error(cmd,
                              "--prefix-rows %d gives n=%d a task set too large to journal "
                              "or write out (its task source alone would visit more than "
                              "2^26 boards): use fewer rows",
                              s->prefix_rows, s->n);
    if (rc != NQ_OK)
        return args_run_error(cmd, "cannot describe the task set: %s", nq_strerror(rc));
    /* d4 finishing a cuda journal or the reverse: the journal keeps its own name. */
    if (found->n && found->tasks == ts->tasks && strcmp(found->params, ts->params) == 0)
        *ts = *found;
    return 0;
}

/* The task count alone (s: resolved), where no task ids are needed; a signal ends it,
 * as it does the description. */
static int count_tasks(const char *cmd, const nq_settings *s, uint64_t *tasks)
{
    int rc = nq_task_count_stoppable(s, signals_stop(), tasks);

    if (rc == NQ_ECANCELED)
        return checkpoint_stopped_early(NULL, s->n, "while its tasks were counted");
    if (rc != NQ_OK)
        return args_run_error(cmd, "cannot count the tasks: %s", nq_strerror(rc));
    return 0;
}

/* bytes in the unit that suits it: "1.9 GiB". */
static void format_bytes(uint64_t bytes, char *buf, size_t size)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;

    while (v >= 1024 && u < 6)
        v /= 1024, u++;
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

/* A count that would not fit its memory is refused here, before a journal or a table is
 * made, with what it needs: the library would only say NQ_EMEMORY. rs: resolved; workers:
 * this process's (0: every CPU). */
static int memory_check(const char *cmd, const nq_settings *rs, int workers)
{
    nq_settings here = *rs;
    uint64_t need, limit;
    char a[32], b[32];

    here.n_threads = workers;
    workers = nq_resolve_threads(workers);
    if (nq_memory_estimate(&here, &need, &limit) != NQ_OK || need <= limit)
        return 0;
    format_bytes(need, a, sizeof(a));
    format_bytes(limit, b, sizeof(b));
    return args_run_error(cmd,
                          "the %s engine needs about %s for n=%d on %d worker%s, more than the "
                          "%s %s (--max-memory sets the limit%s; --engine d4 needs a few MB)",
                          nq_engine_name(rs->engine), a, rs->n, workers, workers == 1 ? "" : "s", b,
                          rs->memory_limit ? "allowed" : "this machine has",
                          rs->worker_memory ? ", --worker-memory each worker's share" : "");
}

/* Every output file is opened before the count, so that none fails after it. */
static int open_files(count_job *j, const char *cmd, const count_run_opts *r)
{
    int rc;

    if (r->subtotals && (rc = subtotals_open(cmd, r->subtotals, &j->sf)) != 0)
        return rc;
    if (r->task_times && (rc = task_times_open(&j->tt, cmd, r->task_times, &j->rs)) != 0)
        return rc;
    if ((rc = subtotals_check_distinct(cmd, r->checkpoint, NULL, r->subtotals, r->task_times)))
        return rc;
    if (r->checkpoint && (rc = checkpoint_open(r->checkpoint, &j->ts, r->sync_interval, &j->journal,
                                               &j->done_before)) != 0)
        return rc;
    /* After opening, by identity: --subtotals ./nj for --checkpoint nj would replace the
     * journal by the CSV, or unlink it with the abandoned CSV. */
    return subtotals_check_distinct(cmd, r->checkpoint, j->journal, r->subtotals, r->task_times);
}

/* Adopt the journal's task set, then resolve the settings, once: an invalid one is
 * refused here, before any file is opened. Then refuse a count too large for memory,
 * and describe the task set where a journal or the subtotals need task ids. */
int count_job_begin(count_job *j, const char *cmd, const count_run_opts *r, const count_opts *o,
                    const count_job_use *use, nq_settings *s)
{
    checkpoint_use cu = {use->unique, r->subtotals != NULL, use->slices};
    nq_task_set found = {0};
    int rc;

    if (r->checkpoint && (rc = checkpoint_adopt(r->checkpoint, o, &cu, s, &found)) != 0)
        return rc;
    j->rs = *s;
    if ((rc = nq_resolve_settings(&j->rs)) != NQ_OK)
        return args_run_error(cmd, "cannot plan the count: %s", nq_strerror(rc));
    if ((rc = memory_check(cmd, &j->rs, use->workers)) != 0)
        return rc;
    /* A count without task ids takes any prefix depth the engine does. */
    j->ids = r->checkpoint || r->subtotals;
    if (j->ids)
        rc = describe(cmd, r, &j->rs, &found, &j->ts);
    else if (use->need_tasks)
        rc = count_tasks(cmd, &j->rs, &j->ts.tasks);
    return rc ? rc : open_files(j, cmd, r);
}

/* ---- after the count -------------------------------------------------------------- */

/* What to say when the count failed (not a signal, not the journal's disk). */
static int report_failure(const count_job *j, const char *cmd, const count_run_opts *r, int rc,
                          uint64_t recorded, uint64_t tasks)
{
    nq_engine_info info = args_engine_info(j->rs.engine);
    nq_engine_info cpu = args_engine_info(info.task_family);

    /* a GPU engine whose tasks a CPU engine shares: that one can finish the journal */
    if (r->checkpoint && info.takes_devices && !cpu.takes_devices && cpu.built) {
        char *word = args_shell_word(r->checkpoint);
        args_note(cmd, "count failed: %s; %llu of %llu tasks are recorded in %s", nq_strerror(rc),
                  (unsigned long long)recorded, (unsigned long long)tasks, r->checkpoint);
        if (word) /* a line of its own, whole, to paste */
            args_hint(cmd, "resume on the CPUs with: %s count %d --engine %s --checkpoint %s",
                      args_program, j->rs.n, cpu.name, word);
        free(word);
        return EXIT_RUN_FAILED;
    }
    return args_run_error(cmd, "count failed: %s", nq_strerror(rc));
}

/* The journal's verdict on a count that it stopped (NQ_ECALLBACK): a record refused, or a
 * write that failed. */
static int report_journal(const count_job *j, const char *cmd, const count_run_opts *r,
                          const count_end *e, uint64_t recorded, uint64_t tasks)
{
    int err = nq_journal_errno(j->journal);

    if (e->refused)
        return args_run_error(cmd,
                              "journal %s: task %llu finished with a subtotal other than the "
                              "one recorded: the journal or this machine is at fault; count "
                              "again without it",
                              r->checkpoint, (unsigned long long)e->refused_task);
    return args_run_error(cmd,
                          "journal %s: write failed: %s; stopped with %llu of %llu tasks "
                          "recorded (rerun to resume once the disk is fixed)",
                          r->checkpoint, strerror(err ? err : EIO), (unsigned long long)recorded,
                          (unsigned long long)tasks);
}

int count_job_end(count_job *j, const char *cmd, const count_run_opts *r, const count_end *e)
{
    const nq_result *out = e->out;
    uint64_t recorded = j->journal ? j->done_before + nq_journal_appended(j->journal) : 0;
    /* a slice runs its own tasks of the set; without task ids, the run's count is all */
    uint64_t tasks = !j->ids             ? out->tasks
                     : j->ts.slice_count ? j->ts.end_task - j->ts.first_task
                                         : j->ts.tasks;
    int rc;

    if (e->status == NQ_OK && out->tasks != tasks) /* the journal's identity and the run */
        return args_run_error(cmd,
                              "internal error: the run made %llu tasks, the task set says %llu",
                              (unsigned long long)out->tasks, (unsigned long long)tasks);
    if (e->status == NQ_ECALLBACK && j->journal)
        return report_journal(j, cmd, r, e, recorded, tasks);
    if (e->status == NQ_ECANCELED && e->signal)
        return checkpoint_interrupted(r->checkpoint, &j->journal, j->rs.n, e->signal,
                                      j->journal ? recorded : e->computed, tasks);
    if (e->status != NQ_OK)
        return report_failure(j, cmd, r, e->status, recorded, tasks);
    if (j->journal && nq_journal_close(&j->journal) != NQ_OK)
        return args_run_error(cmd, "journal %s: final fsync failed; rerun to resume",
                              r->checkpoint);
    /* The subtotals help find a wrong task, so they are written even when the total
     * contradicts the published one. */
    if (e->subs && (rc = subtotals_write(cmd, &j->sf, &j->ts, e->subs)) != 0)
        return rc;
    if (r->task_times && (rc = task_times_write(&j->tt, cmd, &j->rs)) != 0)
        return rc;
    return count_output_verify(cmd, j->rs.n, out, r->checkpoint);
}

void count_job_close(count_job *j)
{
    if (j->journal)
        nq_journal_close(&j->journal);
    /* after a write these are no-ops: the files are in place */
    subtotals_abandon(&j->sf);
    task_times_abandon(&j->tt);
    task_times_free(&j->tt);
}
