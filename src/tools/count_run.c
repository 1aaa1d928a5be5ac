/* nqueens count for long runs: the long-run options, and the count itself, with the
 * journal, the progress thread, the per-task subtotals and the task times wired into
 * its hooks; the plan, the files and the verdict are count_job.c's, as nqueens-mpi's. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "args_messages.h"
#include "count_job.h"
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

/* What a count holds across its steps, so that count_run releases it in one place. */
typedef struct count_state {
    count_job job; /* the plan and the files, as nqueens-mpi makes them */
    nq_solver *sv;
    run_hooks h;
} count_state;

/* The hooks' view of the job: the journal's reuse and records, the subtotals' table by
 * task id and the task times. */
static int count_hooks(count_state *c, const count_run_opts *r, const char *cmd)
{
    c->h.tasks = c->job.ts.tasks;
    if (c->job.journal)
        nq_journal_hooks(c->job.journal, &c->h.store);
    if (r->task_times)
        c->h.tt = &c->job.tt;
    if (r->subtotals && !(c->h.subs = calloc(c->h.tasks, sizeof(*c->h.subs))))
        return args_run_error(cmd, "no memory for %llu subtotals", (unsigned long long)c->h.tasks);
    return 0;
}

/* The count itself, with the hooks and the progress display: 0 and the library's status
 * in *status, or an exit code (reported) when it could not start. s is the settings as
 * asked, not c->job.rs: the GPU engine chooses its own inner rows for a prefix_rows left at
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
    if (progress_start(&pg, progress_mode(r->progress), s->n, run_progress, &c->h,
                       c->job.journal) != 0) {
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

int count_run(const count_run_opts *r, const char *cmd, const count_opts *o, int unique,
              nq_settings *s, nq_result *out)
{
    count_job_use use = {unique, 1, s->n_threads, 0};
    count_state c;
    int exit_code, status = NQ_OK;

    memset(&c, 0, sizeof(c));
    signals_install();
    exit_code = count_job_begin(&c.job, cmd, r, o, &use, s);
    if (exit_code == 0)
        exit_code = count_hooks(&c, r, cmd);
    if (exit_code == 0)
        exit_code = count_execute(&c, r, cmd, s, out, &status);
    if (exit_code == 0) {
        count_end e = {status,
                       signals_caught(),
                       out,
                       atomic_load(&c.h.counts.computed),
                       c.h.subs,
                       atomic_load(&c.h.refused),
                       c.h.refused_task};
        exit_code = count_job_end(&c.job, cmd, r, &e);
    }
    signals_restore();
    count_job_close(&c.job);
    nq_destroy_solver(&c.sv);
    free(c.h.subs);
    return exit_code;
}
