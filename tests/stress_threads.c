/* A thread stress test without Criterion, so that it also runs under ThreadSanitizer
 * (Criterion's sandbox crashes under TSan, Snaipe/Criterion#274). It drives the queue,
 * the pool, the reduction and the journal from several threads at once: counts with
 * journal hooks while another thread polls progress and ticks the journal, a cancel from
 * another thread in mid-run, then a resume; listings while another thread polls their
 * progress; and both with far more workers than cores. Exit status 0 when every total
 * matches ../shared/oeis. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nqueens/nqueens.h"

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

typedef struct watcher {
    nq_solver *sv;
    nq_journal *j;
    atomic_int stop;
    long cancel_after_polls; /* <0: never */
} watcher;

static void *watch(void *arg)
{
    watcher *w = arg;
    long polls = 0;
    while (!atomic_load(&w->stop)) {
        nq_progress p;
        nq_solver_progress(w->sv, &p);
        if (w->j)
            nq_journal_tick(w->j);
        if (w->cancel_after_polls >= 0 && ++polls == w->cancel_after_polls)
            nq_solver_cancel(w->sv);
        usleep(200);
    }
    return NULL;
}

static int run(const char *path, int n, int threads, long cancel_after, nq_result *r)
{
    nq_settings s;
    nq_task_set ts;
    nq_journal_info info;
    nq_hooks h;
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
    nq_journal_hooks(w.j, &h);
    w.cancel_after_polls = cancel_after;
    pthread_create(&t, NULL, watch, &w);
    rc = nq_count(w.sv, &h, r);
    atomic_store(&w.stop, 1);
    pthread_join(t, NULL);
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
    w.cancel_after_polls = -1;
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
    char path[] = "/tmp/nq-stress-XXXXXX";
    int fd = mkstemp(path);
    nq_result r;

    if (fd < 0)
        return 1;
    close(fd);
    for (int n = 10; n <= 12; n++) {
        int rc;
        unlink(path);
        rc = run(path, n, 4, 3, &r); /* canceled early, or finished first: both fine */
        if (rc != NQ_OK && rc != NQ_ECANCELED) {
            fprintf(stderr, "stress: n=%d first run: %s\n", n, nq_strerror(rc));
            failures++;
        }
        rc = run(path, n, 3, -1, &r);
        if (rc != NQ_OK || r.total.hi || r.total.lo != oeis(n)) {
            fprintf(stderr, "stress: n=%d resumed total %llu, want %llu (%s)\n", n,
                    (unsigned long long)r.total.lo, oeis(n), nq_strerror(rc));
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
