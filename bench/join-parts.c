/* bench-join-parts N STRIDE[a] ID...: whether an estimate's parts project a join task's
 * time without bias. Each task of board N is completed whole (thread CPU seconds), then by
 * parts once per draw 0 .. S-1 (S: STRIDE, lowered to the task's parts as the engine
 * lowers it; with the suffix a, the parts parted again as a sampled task's are, their
 * bottoms' pieces one in the rest of the stride), each draw's projection the estimate's (whole time
 * less the parts' and the extra, plus S times the parts'). Over all draws every part is timed once,
 * so their mean is the whole time if the parts cost alone what they cost in the task. Prints one
 * line per task (id, S, whole, mean projection, their ratio, the draws' spread) and the
 * sums' ratio. The lowest id runs first and untimed (first-use work).
 * Build: ninja -C build bench/bench-join-parts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "engine_table.h"
#include "engines/join_tasks.h"

typedef struct wanted {
    const uint64_t *ids;
    size_t k;
    task *found;
    uint64_t seen;
} wanted;

static int pick(void *user, const task *t)
{
    wanted *wt = user;
    for (size_t i = 0; i < wt->k; i++)
        if (wt->ids[i] == wt->seen)
            wt->found[i] = *t;
    wt->seen++;
    return 0;
}

/* One draw's projection of t's time, as the estimate makes it; *stride the one used. */
static uint64_t again_most; /* engine_parts.again_most: UINT64_MAX with STRIDEa */

static double projected(const engine_desc *e, const engine_worker *w, const task *t,
                        uint64_t *stride, uint64_t draw)
{
    engine_parts p = {*stride, draw, 0, 0, 0, 0, again_most};
    uint64_t sub;
    double t0 = clock_thread_cpu();

    if (e->complete_parts(w, t, &p, &sub) != ENGINE_DONE)
        exit(2);
    *stride = p.stride;
    return clock_thread_cpu() - t0 - p.extra_seconds - p.timed_seconds + p.projected_seconds;
}

static double whole(const engine_desc *e, const engine_worker *w, const task *t)
{
    uint64_t sub;
    double t0 = clock_thread_cpu();
    if (e->complete(w, t, &sub) != ENGINE_DONE)
        exit(2);
    return clock_thread_cpu() - t0;
}

/* Task t: whole, then every draw; adds to the sums. */
static void one_task(const engine_desc *e, const engine_worker *w, const task *t, uint64_t want,
                     double *sum_whole, double *sum_mean)
{
    double tw = whole(e, w, t), sum = 0, sq = 0, y;
    uint64_t stride = want, d = 0;

    for (; d < stride; d++) {
        uint64_t used = want;
        y = projected(e, w, t, &used, d);
        stride = used;
        sum += y;
        sq += y * y;
    }
    double mean = sum / (double)d, sd = d > 1 ? sqrt((sq - sum * mean) / (double)(d - 1)) : 0;
    printf("%llu %llu %.4f %.4f %.3f %.4f\n", (unsigned long long)t->id, (unsigned long long)stride,
           tw, mean, mean / tw, sd);
    *sum_whole += tw;
    *sum_mean += mean;
}

int main(int argc, char **argv)
{
    nq_settings s;
    size_t k = argc > 3 ? (size_t)argc - 3 : 0;
    uint64_t *ids = malloc((k ? k : 1) * sizeof(*ids)), stride = 0;
    char *end = NULL;
    task *found = calloc(k ? k : 1, sizeof(*found));
    const engine_desc *e = engine_find(NQ_ENGINE_JOIN);
    double sum_whole = 0, sum_mean = 0;

    if (k)
        stride = strtoull(argv[2], &end, 10);
    if (k == 0 || !ids || !found || stride < 1 || (*end && strcmp(end, "a") != 0)) {
        fprintf(stderr, "usage: bench-join-parts N STRIDE[a] ID...\n");
        return 2;
    }
    again_most = *end ? UINT64_MAX : 0;
    for (size_t i = 0; i < k; i++)
        ids[i] = strtoull(argv[i + 3], NULL, 10);
    nq_default_settings(&s);
    s.n = atoi(argv[1]);
    s.engine = NQ_ENGINE_JOIN;
    s.n_threads = 1;
    if (nq_resolve_settings(&s) != NQ_OK)
        return 2;
    wanted wt = {ids, k, found, 0};
    join_enumerate(s.n, pick, &wt, NULL);
    void *shared = e->shared_init(&s, NULL);
    engine_worker w = {
        .s = &s, .shared = shared, .scratch = shared ? e->worker_init(&s, shared) : 0};
    if (!w.scratch)
        return 2;
    (void)whole(e, &w, &found[0]); /* first use, untimed */
    printf("# id stride whole_s mean_projected_s ratio draws_sd_s\n");
    for (size_t i = 0; i < k; i++)
        one_task(e, &w, &found[i], stride, &sum_whole, &sum_mean);
    printf("sum whole %.3f s, mean projected %.3f s, ratio %.4f\n", sum_whole, sum_mean,
           sum_mean / sum_whole);
    e->worker_free(w.scratch);
    e->shared_free(shared);
    return 0;
}
