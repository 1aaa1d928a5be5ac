/* nqueens count for long runs: opens or resumes the checkpoint journal, wires it, the
 * progress thread and the per-task subtotals into the count's hooks, and turns signals
 * and journal failures into messages and exit codes. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "count_run.h"
#include "progress.h"
#include "signals.h"
#include "subtotals.h"

/* ---- hooks: journal, subtotals and the progress counters in one place ------------- */

/* Counters for the display: tasks taken from the journal and tasks computed by this
 * process, each with its unweighted subtotal sum. */
typedef struct progress_counts {
    atomic_uint_fast64_t reused, reused_sum, computed, computed_sum;
} progress_counts;

typedef struct run_hooks {
    nq_hooks store; /* the journal's reuse and task_done (nq_journal_hooks), or all NULL */
    uint64_t *subs; /* indexed by task id, or NULL */
    uint64_t tasks;
    progress_counts counts;
    const nq_solver *sv; /* for the display, once created */
} run_hooks;

static int hook_reuse(void *user, uint64_t id, uint64_t *subtotal)
{
    run_hooks *h = user;
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
    if (h->store.task_done && h->store.task_done(h->store.user, id, subtotal) != 0)
        return 1;
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

    progress_read_solver((void *)h->sv, out);
    out->tasks_computed = atomic_load(&h->counts.computed);
    out->solutions_computed =
        csum + rsum > 0 ? out->solutions_computed * ((double)csum / (double)(csum + rsum)) : 0.0;
}

/* ---- the run -------------------------------------------------------------------------- */

int count_run(const count_run_opts *r, const char *cmd, const count_opts *o, nq_settings *s,
              nq_result *out)
{
    nq_task_set ts;
    nq_journal *journal = NULL;
    uint64_t done_before = 0;
    nq_solver *sv = NULL;
    run_hooks h;
    nq_hooks hooks = {0};
    progress pg;
    int mode = progress_mode(r->progress), rc, exit_code = 0, sig;
    uint64_t recorded;

    memset(&h, 0, sizeof(h));
    signals_install();
    if (r->checkpoint && (rc = checkpoint_adopt(r->checkpoint, o, s)) != 0)
        return rc;
    rc = nq_task_set_describe(s, &ts);
    if (rc != NQ_OK)
        return args_run_error(cmd, "cannot describe the task set: %s", nq_strerror(rc));
    h.tasks = ts.tasks;
    if (r->subtotals) {
        h.subs = calloc(ts.tasks, sizeof(*h.subs));
        if (!h.subs)
            return args_run_error(cmd, "no memory for %llu subtotals",
                                  (unsigned long long)ts.tasks);
    }
    if (r->checkpoint) {
        exit_code = checkpoint_open(r->checkpoint, &ts, r->sync_interval, &journal, &done_before);
        if (exit_code != 0)
            goto done;
        nq_journal_hooks(journal, &h.store);
    }
    hooks = (nq_hooks){&h, hook_reuse, hook_done};

    rc = nq_create_solver(&sv, s);
    if (rc != NQ_OK) {
        exit_code = args_run_error(cmd, "cannot create solver: %s", nq_strerror(rc));
        goto done;
    }
    signals_target(sv);
    h.sv = sv;
    if (progress_start(&pg, mode, run_progress, &h, journal) != 0) {
        exit_code = args_run_error(cmd, "cannot start the progress thread");
        goto done;
    }
    rc = nq_count(sv, &hooks, out);
    progress_stop(&pg);
    signals_target(NULL);
    sig = signals_caught();
    recorded = journal ? done_before + nq_journal_appended(journal) : 0;

    if (rc == NQ_OK && out->tasks != ts.tasks) {
        /* The journal's identity and the run disagree: never trust such a total. */
        exit_code = args_run_error(cmd,
                                   "internal error: the run made %llu tasks, the task set "
                                   "says %llu",
                                   (unsigned long long)out->tasks, (unsigned long long)ts.tasks);
        goto done;
    }
    if (rc == NQ_ECALLBACK && journal) {
        int e = nq_journal_errno(journal);
        exit_code = args_run_error(cmd,
                                   "journal %s: write failed: %s; stopped with %llu of %llu "
                                   "tasks recorded (rerun to resume once the disk is fixed)",
                                   r->checkpoint, strerror(e ? e : EIO),
                                   (unsigned long long)recorded, (unsigned long long)ts.tasks);
        goto done;
    }
    if (rc == NQ_ECANCELED && sig) {
        exit_code = checkpoint_interrupted(
            r->checkpoint, &journal, s->n, sig,
            journal ? recorded : (uint64_t)atomic_load(&h.counts.computed), ts.tasks);
        goto done;
    }
    if (rc != NQ_OK) {
        exit_code = args_run_error(cmd, "count failed: %s", nq_strerror(rc));
        goto done;
    }
    if (journal && (rc = nq_journal_close(&journal)) != NQ_OK) {
        exit_code =
            args_run_error(cmd, "journal %s: final fsync failed; rerun to resume", r->checkpoint);
        goto done;
    }
    if (h.subs)
        exit_code = subtotals_write(cmd, r->subtotals, h.subs, ts.tasks);
done:
    signals_restore();
    if (journal)
        nq_journal_close(&journal);
    nq_destroy_solver(&sv);
    free(h.subs);
    return exit_code;
}
