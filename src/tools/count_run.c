/* nqueens count for long runs: opens or resumes the checkpoint journal, wires it, the
 * progress thread and the per-task subtotals into the count's hooks, and turns signals
 * and journal failures into messages and exit codes. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args_messages.h"
#include "checkpoint.h"
#include "count_output.h"
#include "count_run.h"
#include "number.h"
#include "progress.h"
#include "signals.h"
#include "subtotals.h"
#include "task_times.h"

/* ---- options ---------------------------------------------------------------------- */

void count_run_default(count_run_opts *r)
{
    memset(r, 0, sizeof(*r));
    r->sync_interval = 5;
    r->progress = PROGRESS_AUTO;
}

int count_run_take(count_run_opts *r, const char *cmd, int id, const char *value)
{
    switch (id) {
    case OPT_CHECKPOINT:
    case OPT_SUBTOTALS:
        if (!*value)
            return args_usage_error(cmd, "--%s needs a file name",
                                    id == OPT_CHECKPOINT ? "checkpoint" : "subtotals");
        *(id == OPT_CHECKPOINT ? &r->checkpoint : &r->subtotals) = value;
        return 1;
    case OPT_SYNC_INTERVAL:
        if (number_parse_long(value, 0, 86400, &r->sync_interval) != 0)
            return args_usage_error(cmd, "invalid --sync-interval '%s': expected seconds 0..86400",
                                    value);
        return 1;
    default:
        return progress_take(&r->progress, cmd, id, value);
    }
}

/* ---- hooks: journal, subtotals and the progress counters in one place ------------- */

/* Counters for the display: tasks taken from the journal and tasks computed by this
 * process, each with its unweighted subtotal sum. */
typedef struct progress_counts {
    atomic_uint_fast64_t reused, reused_sum, computed, computed_sum;
} progress_counts;

typedef struct run_hooks {
    nq_hooks store; /* the journal's reuse and task_done (nq_journal_hooks), or all NULL */
    uint64_t *subs; /* indexed by task id, or NULL */
    task_times *tt; /* --task-times, or NULL */
    uint64_t tasks;
    progress_counts counts;
    nq_solver *sv;         /* for the display and the stop, once created */
    atomic_int refused;    /* the journal refused a record that contradicts it */
    uint64_t refused_task; /* written once, by the one that sets refused */
} run_hooks;

/* A signal that came before the count had started cancelled nothing (a cancel applies
 * to the run in progress only): the hooks run inside the count, so the first one after
 * such a signal stops it. */
static void stop_if_signalled(run_hooks *h)
{
    if (signals_caught())
        nq_solver_cancel(h->sv);
}

static int hook_reuse(void *user, uint64_t id, uint64_t *subtotal)
{
    run_hooks *h = user;
    stop_if_signalled(h);
    if (!h->store.reuse || h->store.reuse(h->store.user, id, subtotal) != 1)
        return 0;
    if (h->subs && id < h->tasks)
        h->subs[id] = *subtotal;
    atomic_fetch_add_explicit(&h->counts.reused, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->counts.reused_sum, *subtotal, memory_order_relaxed);
    return 1;
}

static int hook_done(void *user, uint64_t id, uint64_t subtotal)
{
    run_hooks *h = user;
    uint64_t recorded;
    if (h->tt) /* first: the task's time ends here, before the journal's writes */
        task_times_note(h->tt, id);
    stop_if_signalled(h);
    if (h->store.task_done && h->store.task_done(h->store.user, id, subtotal) != 0) {
        int first = 0;
        /* the journal refuses a record that contradicts the one it holds */
        if (nq_journal_lookup(h->store.user, id, &recorded) && recorded != subtotal &&
            atomic_compare_exchange_strong(&h->refused, &first, 1))
            h->refused_task = id;
        return 1;
    }
    if (h->subs && id < h->tasks)
        h->subs[id] = subtotal; /* each id finishes once, on one thread */
    atomic_fetch_add_explicit(&h->counts.computed, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->counts.computed_sum, subtotal, memory_order_relaxed);
    return 0;
}

/* The display's snapshot: the solver's own progress, and the share of it this process
 * computed. Hooks see unweighted subtotals, so the weighted total is scaled by the
 * computed share of the unweighted sums, so that the rate leaves out the journal. */
static void run_progress(void *user, progress_snapshot *out)
{
    const run_hooks *h = user;
    uint64_t csum = atomic_load(&h->counts.computed_sum);
    uint64_t rsum = atomic_load(&h->counts.reused_sum);

    progress_read_solver(h->sv, out);
    out->tasks_computed = atomic_load(&h->counts.computed);
    out->solutions_computed =
        csum + rsum > 0 ? out->solutions_computed * ((double)csum / (double)(csum + rsum)) : 0.0;
}

/* ---- the run -------------------------------------------------------------------------- */

int count_run_describe(const char *cmd, const count_run_opts *r, const nq_settings *s,
                       const nq_task_set *found, nq_task_set *ts)
{
    int rc = nq_task_set_describe_stoppable(s, signals_stop(), ts);
    nq_engine_info info = args_engine_info(s->engine);

    if (rc == NQ_ECANCELED) /* the join's task count alone takes 6 s at n = 27 */
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
 * made, with what it needs: the library would only say NQ_EMEMORY. rs: resolved. */
static int memory_check(const char *cmd, const nq_settings *rs)
{
    uint64_t need, limit;
    char a[32], b[32];
    int workers = nq_resolve_threads(rs->n_threads);

    if (nq_memory_estimate(rs, &need, &limit) != NQ_OK || need <= limit)
        return 0;
    format_bytes(need, a, sizeof(a));
    format_bytes(limit, b, sizeof(b));
    return args_run_error(cmd,
                          "the %s engine needs about %s for n=%d on %d worker%s, more than the "
                          "%s %s (--max-memory sets the limit; --engine d4 needs a few MB)",
                          nq_engine_name(rs->engine), a, rs->n, workers, workers == 1 ? "" : "s", b,
                          rs->memory_limit ? "allowed" : "this machine has");
}

/* What to say when the count failed (not a signal, not the journal's disk); s: resolved. */
static int report_failure(const char *cmd, const count_run_opts *r, const nq_settings *s, int rc,
                          uint64_t recorded, uint64_t tasks)
{
    nq_engine_info info = args_engine_info(s->engine);
    nq_engine_info cpu = args_engine_info(info.task_family);

    /* a GPU engine whose tasks a CPU engine shares: that one can finish the journal */
    if (r->checkpoint && info.takes_devices && !cpu.takes_devices && cpu.built) {
        char *word = args_shell_word(r->checkpoint);
        args_note(cmd, "count failed: %s; %llu of %llu tasks are recorded in %s", nq_strerror(rc),
                  (unsigned long long)recorded, (unsigned long long)tasks, r->checkpoint);
        if (word) /* a line of its own, whole, to paste */
            args_hint(cmd, "resume on the CPUs with: %s count %d --engine %s --checkpoint %s",
                      args_program, s->n, cpu.name, word);
        free(word);
        return EXIT_RUN_FAILED;
    }
    return args_run_error(cmd, "count failed: %s", nq_strerror(rc));
}

/* What a count holds across its steps, so that count_run releases it in one place. */
typedef struct count_state {
    nq_settings rs; /* the settings resolved once: what the messages and the task set use */
    nq_task_set ts, found;
    nq_journal *journal;
    uint64_t done_before; /* tasks the journal held */
    nq_solver *sv;
    run_hooks h;
    subtotals_file sf;
    task_times tt;
} count_state;

/* Adopt the journal's task set, then resolve the settings, once: an invalid one is
 * refused here, before any file is opened. Then refuse a count too large for memory
 * and, where a journal or the subtotals need task ids, describe the task set. */
static int count_plan(count_state *c, const count_run_opts *r, const char *cmd, const count_opts *o,
                      int unique, nq_settings *s)
{
    checkpoint_use use = {unique, r->subtotals != NULL, 1};
    int rc;

    if (r->checkpoint && (rc = checkpoint_adopt(r->checkpoint, o, &use, s, &c->found)) != 0)
        return rc;
    c->rs = *s;
    if ((rc = nq_resolve_settings(&c->rs)) != NQ_OK)
        return args_run_error(cmd, "cannot create solver: %s", nq_strerror(rc));
    if ((rc = memory_check(cmd, &c->rs)) != 0)
        return rc;
    /* Task ids are only needed by a journal or the subtotals: a count without them
     * takes any prefix depth the engine does. */
    if ((r->checkpoint || r->subtotals) &&
        (rc = count_run_describe(cmd, r, &c->rs, &c->found, &c->ts)) != 0)
        return rc;
    c->h.tasks = c->ts.tasks;
    return 0;
}

/* Every output file is opened before the count, so that none fails after it. */
static int count_open_files(count_state *c, const count_run_opts *r, const char *cmd)
{
    int rc;

    if (r->subtotals) {
        if ((rc = subtotals_open(cmd, r->subtotals, &c->sf)) != 0)
            return rc;
        c->h.subs = calloc(c->ts.tasks, sizeof(*c->h.subs));
        if (!c->h.subs)
            return args_run_error(cmd, "no memory for %llu subtotals",
                                  (unsigned long long)c->ts.tasks);
    }
    if (r->task_times) {
        if ((rc = task_times_open(&c->tt, cmd, r->task_times, &c->rs)) != 0)
            return rc;
        c->h.tt = &c->tt;
    }
    if ((rc = subtotals_check_distinct(cmd, r->checkpoint, NULL, r->subtotals, r->task_times)))
        return rc;
    if (r->checkpoint) {
        rc = checkpoint_open(r->checkpoint, &c->ts, r->sync_interval, &c->journal, &c->done_before);
        if (rc != 0)
            return rc;
        nq_journal_hooks(c->journal, &c->h.store);
    }
    /* After opening, by identity: --subtotals ./nj for --checkpoint nj would replace the
     * journal by the CSV, or unlink it with the abandoned CSV. */
    return subtotals_check_distinct(cmd, r->checkpoint, c->journal, r->subtotals, r->task_times);
}

/* The count itself, with the hooks and the progress display: 0 and the library's status
 * in *status, or an exit code (reported) when it could not start. s is the settings as
 * asked, not c->rs: the GPU engine chooses its own inner rows for a prefix_rows left at
 * 0, where the resolved copy would fix the CPU engines' choice. */
static int count_execute(count_state *c, const count_run_opts *r, const char *cmd,
                         const nq_settings *s, nq_result *out, int *status)
{
    nq_hooks hooks = {&c->h, hook_reuse, hook_done};
    progress pg;
    int rc = nq_create_solver(&c->sv, s);

    if (rc != NQ_OK)
        return args_run_error(cmd, "cannot create solver: %s", nq_strerror(rc));
    signals_target(c->sv);
    c->h.sv = c->sv;
    if (progress_start(&pg, progress_mode(r->progress), s->n, run_progress, &c->h, c->journal) !=
        0) {
        signals_target(NULL); /* the solver goes with the state: no handler may reach it */
        return args_run_error(cmd, "cannot start the progress thread");
    }
    /* a signal while the journal was read, before any solver: no count to cancel */
    memset(out, 0, sizeof(*out));
    if (c->h.tt)
        task_times_start(c->h.tt);
    *status = signals_caught() ? NQ_ECANCELED : nq_count(c->sv, &hooks, out);
    progress_stop(&pg);
    signals_target(NULL);
    return 0;
}

/* What the count's status rc means: the exit code, after a message for anything but a
 * count that completed. *ok: the count is whole and its files are written. */
static int count_verdict(count_state *c, const count_run_opts *r, const char *cmd, int rc,
                         const nq_result *out, int *ok)
{
    int sig = signals_caught();
    uint64_t recorded = c->journal ? c->done_before + nq_journal_appended(c->journal) : 0;
    nq_task_set *ts = &c->ts;

    if (!r->checkpoint && !r->subtotals)
        ts->tasks = out->tasks;
    else if (ts->slice_count) /* a slice runs its own tasks of the set */
        ts->tasks = ts->end_task - ts->first_task;
    if (rc == NQ_OK && out->tasks != ts->tasks) /* the journal's identity and the run disagree */
        return args_run_error(cmd,
                              "internal error: the run made %llu tasks, the task set says %llu",
                              (unsigned long long)out->tasks, (unsigned long long)ts->tasks);
    if (rc == NQ_ECALLBACK && c->journal && atomic_load(&c->h.refused))
        return args_run_error(cmd,
                              "journal %s: task %llu finished with a subtotal other than the "
                              "one recorded: the journal or this machine is at fault; count "
                              "again without it",
                              r->checkpoint, (unsigned long long)c->h.refused_task);
    if (rc == NQ_ECALLBACK && c->journal) {
        int e = nq_journal_errno(c->journal);
        return args_run_error(cmd,
                              "journal %s: write failed: %s; stopped with %llu of %llu tasks "
                              "recorded (rerun to resume once the disk is fixed)",
                              r->checkpoint, strerror(e ? e : EIO), (unsigned long long)recorded,
                              (unsigned long long)ts->tasks);
    }
    if (rc == NQ_ECANCELED && sig)
        return checkpoint_interrupted(
            r->checkpoint, &c->journal, c->rs.n, sig,
            c->journal ? recorded : (uint64_t)atomic_load(&c->h.counts.computed), ts->tasks);
    if (rc != NQ_OK)
        return report_failure(cmd, r, &c->rs, rc, recorded, ts->tasks);
    if (c->journal && nq_journal_close(&c->journal) != NQ_OK)
        return args_run_error(cmd, "journal %s: final fsync failed; rerun to resume",
                              r->checkpoint);
    /* The subtotals help find a wrong task, so they are written even when the total
     * contradicts the published one. */
    if (c->h.subs && (rc = subtotals_write(cmd, &c->sf, ts, c->h.subs)) != 0)
        return rc;
    if (c->h.tt && (rc = task_times_write(c->h.tt, cmd, &c->rs)) != 0)
        return rc;
    *ok = 1;
    return count_output_verify(cmd, c->rs.n, out, r->checkpoint);
}

int count_run(const count_run_opts *r, const char *cmd, const count_opts *o, int unique,
              nq_settings *s, nq_result *out)
{
    count_state c;
    int exit_code, status = NQ_OK, ok = 0;

    memset(&c, 0, sizeof(c));
    signals_install();
    exit_code = count_plan(&c, r, cmd, o, unique, s);
    if (exit_code == 0)
        exit_code = count_open_files(&c, r, cmd);
    if (exit_code == 0)
        exit_code = count_execute(&c, r, cmd, s, out, &status);
    if (exit_code == 0)
        exit_code = count_verdict(&c, r, cmd, status, out, &ok);
    signals_restore();
    if (c.journal)
        nq_journal_close(&c.journal);
    if (!ok) {
        subtotals_abandon(&c.sf);
        task_times_abandon(&c.tt);
    }
    task_times_free(&c.tt);
    nq_destroy_solver(&c.sv);
    free(c.h.subs);
    return exit_code;
}
