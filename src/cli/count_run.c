/* nqueens count for long runs: opens or resumes the checkpoint journal, wires it, the
 * progress thread and the per-task subtotals into the count's hooks, and turns signals
 * and journal failures into messages and exit codes. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint.h"
#include "count_run.h"
#include "progress.h"
#include "signals.h"

/* ---- hooks: journal, subtotals and the progress counters in one place ------------- */

typedef struct run_hooks {
    nq_journal *journal;
    uint64_t *subs; /* indexed by task id, or NULL */
    uint64_t tasks;
    progress_counts counts;
} run_hooks;

static int hook_reuse(void *user, uint64_t id, uint64_t *subtotal)
{
    run_hooks *h = user;
    if (!h->journal || !nq_journal_lookup(h->journal, id, subtotal))
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
    if (h->journal && nq_journal_append(h->journal, id, subtotal) != NQ_OK)
        return 1;
    if (h->subs && id < h->tasks)
        h->subs[id] = subtotal; /* each id finishes once, on one thread */
    atomic_fetch_add_explicit(&h->counts.computed, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->counts.computed_sum, subtotal, memory_order_relaxed);
    return 0;
}

/* ---- helpers ------------------------------------------------------------------------ */

/* path as one shell word, for the "resume with" hint. */
static void print_shell_word(FILE *f, const char *s)
{
    if (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/-+=:,") ==
        strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        *s == '\'' ? fputs("'\\''", f) : fputc(*s, f);
    fputc('\'', f);
}

static int write_subtotals(const char *cmd, const char *path, const uint64_t *subs, uint64_t tasks)
{
    FILE *f = fopen(path, "w");
    int ok;
    if (!f)
        return args_run_error(cmd, "cannot write --subtotals %s: %s", path, strerror(errno));
    fputs("task,subtotal\n", f);
    for (uint64_t i = 0; i < tasks; i++)
        fprintf(f, "%llu,%llu\n", (unsigned long long)i, (unsigned long long)subs[i]);
    ok = !ferror(f);
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        return args_run_error(cmd, "cannot write --subtotals %s: %s", path, strerror(errno));
    return 0;
}

static const char *signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
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
    int mode = r->progress, rc, exit_code = 0, sig;
    uint64_t recorded;

    if (r->checkpoint && r->subtotals && strcmp(r->checkpoint, r->subtotals) == 0)
        return args_usage_error(cmd, "--checkpoint and --subtotals name the same file");
    if (mode == PROGRESS_AUTO)
        mode = isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_OFF;
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
        h.journal = journal;
    }
    hooks = (nq_hooks){&h, hook_reuse, hook_done};

    rc = nq_create_solver(&sv, s);
    if (rc != NQ_OK) {
        exit_code = args_run_error(cmd, "cannot create solver: %s", nq_strerror(rc));
        goto done;
    }
    signals_target(sv);
    if (progress_start(&pg, mode, sv, journal, &h.counts) != 0) {
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
        if (journal) {
            int crc = nq_journal_close(&journal);
            fprintf(stderr, "nqueens %s: interrupted by %s: %llu of %llu tasks recorded in %s%s\n",
                    cmd, signal_name(sig), (unsigned long long)recorded,
                    (unsigned long long)ts.tasks, r->checkpoint,
                    crc == NQ_OK ? "" : " (final fsync failed)");
            fprintf(stderr, "nqueens %s: resume with: nqueens count %d --checkpoint ", cmd, s->n);
            print_shell_word(stderr, r->checkpoint);
            fputc('\n', stderr);
        } else {
            fprintf(stderr,
                    "nqueens %s: interrupted by %s after %llu of %llu tasks; nothing was saved "
                    "(--checkpoint FILE makes a run resumable)\n",
                    cmd, signal_name(sig), (unsigned long long)atomic_load(&h.counts.computed),
                    (unsigned long long)ts.tasks);
        }
        exit_code = 128 + sig;
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
        exit_code = write_subtotals(cmd, r->subtotals, h.subs, ts.tasks);
done:
    signals_restore();
    if (journal)
        nq_journal_close(&journal);
    nq_destroy_solver(&sv);
    free(h.subs);
    return exit_code;
}
