/* A thread stress test without Criterion, so that it also runs under ThreadSanitizer
 * (Criterion's sandbox crashes under TSan, Snaipe/Criterion#274). It drives the queue,
 * the pool, the reduction and the journal from several threads at once: counts with
 * journal hooks while another thread polls progress and ticks the journal, a cancel from
 * that thread in mid-run (always: the hooks hold the workers until it lands), then a
 * resume that must take the recorded tasks from the journal; listings while another
 * thread polls their progress; and both with far more workers than cores. Exit status 0
 * when every total matches data/oeis. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nqueens/nqueens.h"
#include "scratch.h"

static int failures;

static unsigned long long oeis(int n)
{
    char path[1024], line[256];
    FILE *f;
    snprintf(path, sizeof(path), "%s/A000170.txt", NQ_OEIS_DIR);
    f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "stress: cannot open %s\n", path);
        exit(1);
    }
    while (fgets(line, sizeof(line), f)) {
        int k;
        unsigned long long v;
        if (line[0] != '#' && sscanf(line, "%d %llu", &k, &v) == 2 && k == n) {
            fclose(f);
            return v;
        }
    }
    fprintf(stderr, "stress: no value for n=%d\n", n);
    exit(1);
}

/* The journal's hooks, chained with a count of the tasks reused and done; once cancel_at
 * tasks are done, each further task_done waits until the watcher thread has canceled
 * the run, so that the cancel always lands in mid-run, from another thread. */
typedef struct stress_hooks {
    nq_hooks journal;
    atomic_ulong reused, done;
    unsigned long cancel_at; /* 0: never */
    atomic_int cancel_wanted, canceled;
} stress_hooks;

static int stress_reuse(void *user, uint64_t id, uint64_t *subtotal)
{
    stress_hooks *h = user;
    int rc = h->journal.reuse(h->journal.user, id, subtotal);
    if (rc == 1)
        atomic_fetch_add(&h->reused, 1);
    return rc;
}

static int stress_done(void *user, uint64_t id, uint64_t subtotal)
{
    stress_hooks *h = user;
    if (h->cancel_at && atomic_fetch_add(&h->done, 1) + 1 >= h->cancel_at) {
        atomic_store(&h->cancel_wanted, 1);
        while (!atomic_load(&h->canceled))
            usleep(100);
    }
    return h->journal.task_done(h->journal.user, id, subtotal);
}

typedef struct watcher {
    nq_solver *sv;
    nq_journal *j;
    stress_hooks *h; /* NULL for listings */
    atomic_int stop;
} watcher;

static void *watch(void *arg)
{
    watcher *w = arg;
    while (!atomic_load(&w->stop)) {
        nq_progress p;
        nq_solver_progress(w->sv, &p);
        if (w->j)
            nq_journal_tick(w->j);
        if (w->h && atomic_load(&w->h->cancel_wanted) && !atomic_load(&w->h->canceled)) {
            nq_solver_cancel(w->sv);
            atomic_store(&w->h->canceled, 1);
        }
        usleep(200);
    }
    return NULL;
}

/* A count of n on threads workers with the journal at path; cancel_third: canceled by
 * the watcher once a third of the tasks are done. *appended gets the records this run
 * wrote, *reused the tasks it took from the journal, *tasks the task count. */
static int run(const char *path, int n, int threads, int cancel_third, nq_result *r,
               uint64_t *appended, unsigned long *reused, uint64_t *tasks)
{
    nq_settings s;
    nq_task_set ts;
    nq_journal_info info;
    nq_hooks hooks;
    stress_hooks h = {0};
    watcher w = {0};
    pthread_t t;
    int rc;

    nq_default_settings(&s);
    s.n = n;
    s.n_threads = threads;
    s.prefix_rows = 4;
    s.pin_threads = 0;
    if (nq_task_set_describe(&s, &ts) != NQ_OK ||
        nq_journal_open(&w.j, path, &ts, 0.001, &info) != NQ_OK ||
        nq_create_solver(&w.sv, &s) != NQ_OK) {
        fprintf(stderr, "stress: setup failed: %s\n", info.detail);
        exit(1);
    }
    nq_journal_hooks(w.j, &h.journal);
    h.cancel_at = cancel_third ? (unsigned long)(ts.tasks / 3) + 1 : 0;
    hooks = (nq_hooks){&h, stress_reuse, stress_done};
    w.h = &h;
    pthread_create(&t, NULL, watch, &w);
    rc = nq_count(w.sv, &hooks, r);
    atomic_store(&w.stop, 1);
    pthread_join(t, NULL);
    *appended = nq_journal_appended(w.j);
    *reused = atomic_load(&h.reused);
    *tasks = ts.tasks;
    nq_destroy_solver(&w.sv);
    nq_journal_close(&w.j);
    return rc;
}

static int count_board(void *user, const uint8_t *cols, int n)
{
    (void)cols;
    (void)n;
    (*(unsigned long long *)user)++;
    return 0;
}

/* nq_list with a thread polling its progress; the boards and the final progress must
 * both be the published total. */
static void list_polled(int n, int threads)
{
    nq_settings s;
    watcher w = {0};
    pthread_t t;
    nq_result r;
    nq_progress p;
    unsigned long long boards = 0;
    int rc;

    nq_default_settings(&s);
    s.n = n;
    s.n_threads = threads;
    s.pin_threads = 0;
    if (nq_create_solver(&w.sv, &s) != NQ_OK) {
        fprintf(stderr, "stress: list setup failed\n");
        exit(1);
    }
    pthread_create(&t, NULL, watch, &w);
    rc = nq_list(w.sv, count_board, &boards, 0, &r);
    atomic_store(&w.stop, 1);
    pthread_join(t, NULL);
    nq_solver_progress(w.sv, &p);
    nq_destroy_solver(&w.sv);
    if (rc != NQ_OK || boards != oeis(n) || p.partial_total.lo != boards ||
        p.tasks_done != r.tasks || p.tasks_total != r.tasks) {
        fprintf(stderr, "stress: list n=%d: %llu boards, progress %llu of %llu tasks (%s)\n", n,
                boards, (unsigned long long)p.tasks_done, (unsigned long long)p.tasks_total,
                nq_strerror(rc));
        failures++;
    }
}

int main(void)
{
    char path[SCRATCH_PATH];
    int fd = scratch_file(path, sizeof(path), "stress");
    nq_result r;

    if (fd < 0)
        return 1;
    close(fd);
    /* Every first run is canceled in mid-run: some tasks but not all reach the journal,
     * and the resume takes exactly those from it and computes the rest. */
    for (int n = 10; n <= 12; n++) {
        uint64_t first, second, tasks;
        unsigned long reused;
        int rc;
        unlink(path);
        rc = run(path, n, 4, 1, &r, &first, &reused, &tasks);
        if (rc != NQ_ECANCELED || first == 0 || first >= tasks) {
            fprintf(stderr, "stress: n=%d first run: %s with %llu of %llu tasks recorded\n", n,
                    nq_strerror(rc), (unsigned long long)first, (unsigned long long)tasks);
            failures++;
        }
        rc = run(path, n, 3, 0, &r, &second, &reused, &tasks);
        if (rc != NQ_OK || r.total.hi || r.total.lo != oeis(n) || reused != first ||
            first + second != tasks) {
            fprintf(stderr,
                    "stress: n=%d resumed total %llu, want %llu (%s); %lu reused of %llu "
                    "recorded, %llu computed, %llu tasks\n",
                    n, (unsigned long long)r.total.lo, oeis(n), nq_strerror(rc), reused,
                    (unsigned long long)first, (unsigned long long)second,
                    (unsigned long long)tasks);
            failures++;
        }
    }
    unlink(path);
    for (int n = 11; n <= 12; n++)
        list_polled(n, 3);
    /* Far more workers than cores: most sleep in the queue's eventcount and are woken by
     * pushes and the close (a count and a listing). */
    {
        nq_settings st;
        nq_solver *sv;
        int rc;
        nq_default_settings(&st);
        st.n = 11;
        st.n_threads = 96;
        st.pin_threads = 0;
        rc = nq_create_solver(&sv, &st);
        if (rc == NQ_OK)
            rc = nq_count(sv, NULL, &r);
        nq_destroy_solver(&sv);
        if (rc != NQ_OK || r.total.lo != oeis(11)) {
            fprintf(stderr, "stress: 96 workers: %llu (%s)\n", (unsigned long long)r.total.lo,
                    nq_strerror(rc));
            failures++;
        }
        list_polled(10, 96);
    }
    printf("stress: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
