/* nqueens count for long runs: opens or resumes the checkpoint journal, wires it, the
 * progress thread and the per-task subtotals into the count's hooks, and turns signals
 * and journal failures into messages and exit codes. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "count_output.h"
#include "count_run.h"
#include "output_files.h"
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

/* The task set of the run, and a message when the library will not make one. */
static int describe(const char *cmd, const nq_settings *s, const nq_task_set *found,
                    nq_task_set *ts)
{
    int rc = nq_task_set_describe(s, ts);
    nq_engine_info info = args_engine_info(s->engine);

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
 * made, with what it needs: the library would only say NQ_EMEMORY. */
static int memory_check(const char *cmd, const nq_settings *s)
{
    uint64_t need, limit;
    nq_settings rs = *s;
    char a[32], b[32];

    if (nq_memory_estimate(s, &need, &limit) != NQ_OK || need <= limit ||
        nq_resolve_settings(&rs) != NQ_OK)
        return 0;
    format_bytes(need, a, sizeof(a));
    format_bytes(limit, b, sizeof(b));
    return args_run_error(cmd,
                          "the %s engine needs about %s for n=%d on %d workers, more than the %s "
                          "%s (--max-memory sets the limit; --engine d4 needs a few MB)",
                          nq_engine_name(rs.engine), a, s->n,
                          rs.n_threads ? rs.n_threads : nq_available_cpus(), b,
                          s->memory_limit ? "allowed" : "this machine has");
}

/* What to say when the count failed (not a signal, not the journal's disk). */
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

int count_run(const count_run_opts *r, const char *cmd, const count_opts *o, int unique,
              nq_settings *s, nq_result *out)
{
    nq_task_set ts, found;
    nq_journal *journal = NULL;
    uint64_t done_before = 0;
    nq_solver *sv = NULL;
    run_hooks h;
    nq_hooks hooks = {0};
    progress pg;
    subtotals_file sf = {-1, 0, 0, NULL};
    int mode = progress_mode(r->progress), rc, exit_code = 0, sig, ok = 0;
    uint64_t recorded;

    memset(&h, 0, sizeof(h));
    memset(&ts, 0, sizeof(ts));
    memset(&found, 0, sizeof(found));
    signals_install();
    if (r->checkpoint && (exit_code = checkpoint_adopt(r->checkpoint, o, unique, s, &found)) != 0)
        goto done;
    if ((exit_code = memory_check(cmd, s)) != 0)
        goto done;
    /* Task ids are only needed by a journal or the subtotals: a count without them
     * takes any prefix depth the engine does. */
    if ((r->checkpoint || r->subtotals) && (exit_code = describe(cmd, s, &found, &ts)) != 0)
        goto done;
    h.tasks = ts.tasks;
    /* Every output file is opened before the count, so that none fails after it. */
    if (r->subtotals) {
        if ((exit_code = subtotals_open(cmd, r->subtotals, &sf)) != 0)
            goto done;
        h.subs = calloc(ts.tasks, sizeof(*h.subs));
        if (!h.subs) {
            exit_code =
                args_run_error(cmd, "no memory for %llu subtotals", (unsigned long long)ts.tasks);
            goto done;
        }
    }
    if ((exit_code = output_files_check_count(cmd, r->checkpoint, NULL, r->subtotals, sf.fd)))
        goto done;
    if (r->checkpoint) {
        exit_code = checkpoint_open(r->checkpoint, &ts, r->sync_interval, &journal, &done_before);
        if (exit_code != 0)
            goto done;
        nq_journal_hooks(journal, &h.store);
    }
    /* After opening, by identity: --subtotals ./nj for --checkpoint nj would replace the
     * journal by the CSV, or unlink it with the abandoned CSV. */
    if ((exit_code = output_files_check_count(cmd, r->checkpoint, journal, r->subtotals, sf.fd)))
        goto done;
    hooks = (nq_hooks){&h, hook_reuse, hook_done};

    rc = nq_create_solver(&sv, s);
    if (rc != NQ_OK) {
        exit_code = args_run_error(cmd, "cannot create solver: %s", nq_strerror(rc));
        goto done;
    }
    signals_target(sv);
    h.sv = sv;
    if (progress_start(&pg, mode, s->n, run_progress, &h, journal) != 0) {
        exit_code = args_run_error(cmd, "cannot start the progress thread");
        goto done;
    }
    rc = nq_count(sv, &hooks, out);
    progress_stop(&pg);
    signals_target(NULL);
    sig = signals_caught();
    recorded = journal ? done_before + nq_journal_appended(journal) : 0;
    if (!r->checkpoint && !r->subtotals)
        ts.tasks = out->tasks;
    else if (ts.slice_count) /* a slice runs its own tasks of the set */
        ts.tasks = ts.end_task - ts.first_task;

    if (rc == NQ_OK && out->tasks != ts.tasks) {
        /* The journal's identity and the run disagree: never trust such a total. */
        exit_code = args_run_error(cmd,
                                   "internal error: the run made %llu tasks, the task set "
                                   "says %llu",
                                   (unsigned long long)out->tasks, (unsigned long long)ts.tasks);
        goto done;
    }
    if (rc == NQ_ECALLBACK && journal && atomic_load(&h.refused)) {
        exit_code = args_run_error(cmd,
                                   "journal %s: task %llu finished with a subtotal other than "
                                   "the one recorded: the journal or this machine is at fault; "
                                   "count again without it",
                                   r->checkpoint, (unsigned long long)h.refused_task);
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
        exit_code = report_failure(cmd, r, s, rc, recorded, ts.tasks);
        goto done;
    }
    if (journal && (rc = nq_journal_close(&journal)) != NQ_OK) {
        exit_code =
            args_run_error(cmd, "journal %s: final fsync failed; rerun to resume", r->checkpoint);
        goto done;
    }
    /* The subtotals help find a wrong task, so they are written even when the total
     * contradicts the published one. */
    if (h.subs && (exit_code = subtotals_write(cmd, &sf, &ts, h.subs)) != 0)
        goto done;
    ok = 1;
    exit_code = count_output_verify(cmd, s->n, out, r->checkpoint);
done:
    signals_restore();
    if (journal)
        nq_journal_close(&journal);
    if (!ok)
        subtotals_abandon(&sf);
    nq_destroy_solver(&sv);
    free(h.subs);
    return exit_code;
}
