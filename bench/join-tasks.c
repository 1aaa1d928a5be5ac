/* bench-join-tasks [--worker-memory=SIZE] N ID...: count only the join engine's tasks
 * ID... of board N on one worker (nq_count_tasks) and print each task's id, subtotal and
 * thread CPU seconds, then their sum. The lowest id runs first and untimed (the worker's
 * first-use work). Two builds run on the same ids compare one task set side by side,
 * which a slice or an estimate's sample cannot (both are cut by the cost model, which
 * can differ); so do two worker memories of one build (SIZE as the CLI reads it: 256M,
 * 1G), a wrapper script passing the option being the other "build" (bench/README.md).
 * Build: ninja -C build bench/bench-join-tasks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nqueens/nqueens.h"
#include "tools/number.h"

typedef struct timing {
    double last, sum;
    int seen;
} timing;

static double thread_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One worker runs the tasks in turn, so a task's time is the clock since the last one. */
static int task_done(void *user, uint64_t id, uint64_t subtotal)
{
    timing *tm = user;
    double now = thread_cpu();

    if (tm->seen++) {
        printf("%llu %llu %.4f\n", (unsigned long long)id, (unsigned long long)subtotal,
               now - tm->last);
        tm->sum += now - tm->last;
    }
    tm->last = now;
    return 0;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* --worker-memory=SIZE (a size as the CLI reads it: 256M, 1G, 1.5G, bytes):
 * settings.worker_memory into *out; 0 if arg is not that option, -1 for a bad size. */
static int worker_memory(const char *arg, uint64_t *out)
{
    static const char opt[] = "--worker-memory=";

    if (strncmp(arg, opt, sizeof(opt) - 1) != 0)
        return 0;
    return number_parse_size(arg + sizeof(opt) - 1, out) == 0 ? 1 : -1;
}

int main(int argc, char **argv)
{
    nq_settings s;
    nq_solver *sv;
    nq_result r;
    timing tm = {0, 0, 0};
    nq_hooks h = {&tm, NULL, task_done};
    uint64_t bytes = 0;
    int opt = argc > 1 ? worker_memory(argv[1], &bytes) : 0;
    size_t k = argc > 2 + opt ? (size_t)(argc - 2 - opt) : 0;
    uint64_t *ids = malloc((k ? k : 1) * sizeof(*ids));
    int rc;

    if (opt < 0 || k == 0 || !ids) {
        fprintf(stderr, "usage: bench-join-tasks [--worker-memory=SIZE] N ID...\n");
        return 2;
    }
    argv += opt;
    for (size_t i = 0; i < k; i++)
        ids[i] = strtoull(argv[i + 2], NULL, 10);
    qsort(ids, k, sizeof(*ids), by_value);
    nq_default_settings(&s);
    s.n = atoi(argv[1]);
    s.engine = NQ_ENGINE_JOIN;
    s.n_threads = 1;
    s.pin_threads = 0;
    s.worker_memory = bytes;
    if ((rc = nq_resolve_settings(&s)) != NQ_OK || (rc = nq_create_solver(&sv, &s)) != NQ_OK ||
        (rc = nq_count_tasks(sv, ids, k, &h, &r)) != NQ_OK) {
        fprintf(stderr, "bench-join-tasks: %s\n", nq_strerror(rc));
        return 2;
    }
    printf("sum of the %zu tasks after the first: %.3f s\n", k - 1, tm.sum);
    nq_destroy_solver(&sv);
    free(ids);
    return 0;
}
