/* bench/d4-task-times N [REPEAT]: the one-thread time of every d4 task, next to the cheap
 * estimates a scheduler could know before running it, as CSV for bench/d4-schedule.
 * Each task is completed as a worker completes it (d4_complete, then d4_unique) on this
 * thread alone, REPEAT times (default 1) in rounds over all tasks, and the least thread
 * CPU time of the rounds is kept: other users' load adds to wall time and to some rounds,
 * rarely to the best one. The estimates are the partial placements after the first k
 * inner rows (k = 1..4), counted by gpu_expand of src/gpu/gpu_expand.c with the pruning
 * the search itself applies; the time to compute each for all tasks goes in a comment.
 * Built by the bench/d4-task-times script. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/d4.h"
#include "gpu/gpu_expand.h"
#include "gpu/gpu_plan.h"
#include "nqueens/nqueens.h"

enum { MAX_ROWS = 4 };

static int keep(void *user, const task *t)
{
    return task_list_add(user, t) != 0;
}

static double seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    task_list ts = {0};
    int n = argc > 1 ? atoi(argv[1]) : 0, repeat = argc > 2 ? atoi(argv[2]) : 1;
    uint64_t *sub, *est[MAX_ROWS + 1], total = 0, unique = 0;
    double *best, est_seconds[MAX_ROWS + 1], run_seconds = 0;
    nq_u128 want_total, want_unique;

    if (argc < 2 || argc > 3 || n < 8 || n > 27 || repeat < 1 || repeat > 100) {
        fprintf(stderr, "usage: bench/d4-task-times N [REPEAT] (N 8..27, REPEAT 1..100)\n");
        return 2;
    }
    if (d4_enumerate(n, keep, &ts) != ts.n) {
        fprintf(stderr, "d4-task-times: out of memory\n");
        return 1;
    }
    sub = calloc(ts.n, sizeof(*sub));
    best = calloc(ts.n, sizeof(*best));
    for (int k = 1; k <= MAX_ROWS; k++)
        est[k] = calloc(ts.n, sizeof(*est[k]));
    if (!sub || !best || !est[1] || !est[2] || !est[3] || !est[4]) {
        fprintf(stderr, "d4-task-times: out of memory\n");
        return 1;
    }

    /* Estimates first, each timed over all tasks as a producer would compute it:
     * building the plan is part of its cost. */
    for (int k = 1; k <= MAX_ROWS; k++) {
        double t0 = seconds(CLOCK_MONOTONIC);
        for (size_t i = 0; i < ts.n; i++) {
            const task *t = &ts.at[i];
            search_plan p;
            gpu_plan_build(n, t, &p);
            est[k][i] = gpu_expand(&p, 0, k, NULL, NULL);
        }
        est_seconds[k] = seconds(CLOCK_MONOTONIC) - t0;
    }

    for (int r = 0; r < repeat; r++) {
        double r0 = seconds(CLOCK_MONOTONIC);
        for (size_t i = 0; i < ts.n; i++) {
            const task *t = &ts.at[i];
            double t0 = seconds(CLOCK_THREAD_CPUTIME_ID), dt;
            uint64_t s = d4_complete(n, t), u = d4_unique(n, t, s);
            dt = seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
            if (r == 0) {
                sub[i] = s;
                total += s * t->weight;
                unique += u;
            }
            if (r == 0 || dt < best[i])
                best[i] = dt;
        }
        run_seconds += seconds(CLOCK_MONOTONIC) - r0;
    }
    if (nq_known_total(n, &want_total) != NQ_OK || nq_known_unique(n, &want_unique) != NQ_OK ||
        want_total.lo != total || want_unique.lo != unique) {
        fprintf(stderr, "d4-task-times: n=%d counted %llu / %llu, OEIS says %llu / %llu\n", n,
                (unsigned long long)total, (unsigned long long)unique,
                (unsigned long long)want_total.lo, (unsigned long long)want_unique.lo);
        return 1;
    }

    printf("# d4 task times, n=%d, %llu tasks, best thread CPU time of %d round(s); total %llu, "
           "unique %llu (OEIS ok); %.2f s wall for the rounds\n",
           n, (unsigned long long)ts.n, repeat, (unsigned long long)total,
           (unsigned long long)unique, run_seconds);
    printf("# estimate time for all tasks (plan + gpu_expand), ms:");
    for (int k = 1; k <= MAX_ROWS; k++)
        printf(" rows%d %.3f", k, est_seconds[k] * 1e3);
    printf("\n");
    printf("id,weight,seconds,subtotal,rows1,rows2,rows3,rows4\n");
    for (size_t i = 0; i < ts.n; i++)
        printf("%llu,%u,%.9f,%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)ts.at[i].id,
               ts.at[i].weight, best[i], (unsigned long long)sub[i], (unsigned long long)est[1][i],
               (unsigned long long)est[2][i], (unsigned long long)est[3][i],
               (unsigned long long)est[4][i]);
    task_list_free(&ts);
    free(sub);
    free(best);
    for (int k = 1; k <= MAX_ROWS; k++)
        free(est[k]);
    return 0;
}
