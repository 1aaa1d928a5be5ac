/* Not a test: measures how well an engine's cost model (engine_desc.task_cost) follows
 * its tasks' times, for docs/engines.md. One worker, so that the time between two
 * task_done calls is one task's. Prints "id,cost,seconds" CSV, then on stderr the
 * correlation, the share of the run that computing every cost took, and the CPU time
 * per slice the cost cut would give for M slices.
 *   ninja -C build bench/bench-cost-fit
 *   build/bench/bench-cost-fit ENGINE N [M] > tasks.csv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "engine_table.h"

typedef struct fit {
    double *cost, *secs, last;
    uint64_t n;
} fit;

static int on_done(void *user, uint64_t id, uint64_t sub)
{
    fit *f = user;
    double now = clock_seconds();
    (void)sub;
    f->secs[id] = now - f->last;
    f->last = now;
    return 0;
}

/* The first task queued starts the clock: the setup and the tables are not a task's. */
static int on_queue(void *user, uint64_t id, uint64_t *sub)
{
    fit *f = user;
    (void)id, (void)sub;
    if (f->last == 0)
        f->last = clock_seconds();
    return 0;
}

typedef struct cost_sink {
    const engine_desc *e;
    const void *shared;
    double *cost;
} cost_sink;

static int take_cost(void *user, const task *t)
{
    cost_sink *c = user;
    c->cost[t->id] = engine_task_cost(c->e, c->shared, t);
    return 0;
}

static double correlation(const double *x, const double *y, uint64_t n)
{
    double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
    for (uint64_t i = 0; i < n; i++)
        mx += x[i] / (double)n, my += y[i] / (double)n;
    for (uint64_t i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / sqrt(sxx * syy);
}

int main(int argc, char **argv)
{
    nq_settings s;
    nq_solver *sv;
    nq_result r;
    fit f = {0};
    int m = argc > 3 ? atoi(argv[3]) : 7;
    double t0, total_cost = 0, total_secs = 0;

    if (argc < 3)
        return 2;
    nq_default_settings(&s);
    s.n = atoi(argv[2]);
    s.engine = nq_engine_from_name(argv[1]);
    s.n_threads = 1;
    s.pin_threads = 0;
    nq_resolve_settings(&s);
    const engine_desc *e = engine_of(&s);
    f.n = e->task_count(&s);
    f.cost = calloc(f.n, sizeof(double));
    f.secs = calloc(f.n, sizeof(double));
    t0 = clock_seconds();
    void *shared = e->shared_init ? e->shared_init(&s, NULL) : NULL;
    double t1;
    double tw = clock_seconds();
    e->source(&s, NULL, NULL); /* the walk alone, which any task set check makes too */
    double walk = clock_seconds() - tw;
    t1 = clock_seconds();
    cost_sink cs = {e, shared, f.cost};
    e->source(&s, take_cost, &cs);
    double t2 = clock_seconds();
    if (shared)
        e->shared_free(shared);
    nq_hooks h = {&f, on_queue, on_done};
    nq_create_solver(&sv, &s);
    nq_count(sv, &h, &r);
    nq_destroy_solver(&sv);
    for (uint64_t i = 0; i < f.n; i++) {
        printf("%llu,%g,%.9f\n", (unsigned long long)i, f.cost[i], f.secs[i]);
        total_cost += f.cost[i];
        total_secs += f.secs[i];
    }
    fprintf(stderr,
            "%s n=%d tasks=%llu run=%.3f s costing=%.4f s (the walk alone %.4f s, tables %.4f s) "
            "= %.3f%% of the run, pearson=%.3f\n",
            argv[1], s.n, (unsigned long long)f.n, r.seconds, t2 - t1, walk, tw - t0,
            100 * (t2 - t1) / r.seconds, correlation(f.cost, f.secs, f.n));
    /* the cut the slices make: slice j ends where the running cost reaches (j+1)/M */
    double acc = 0, slice = 0, worst = 0;
    int j = 0;
    fprintf(stderr, "slices of %d, seconds:", m);
    for (uint64_t i = 0; i < f.n; i++) {
        while (j < m - 1 && acc >= total_cost * (j + 1) / m) {
            fprintf(stderr, " %.3f", slice);
            worst = slice > worst ? slice : worst;
            slice = 0, j++;
        }
        acc += f.cost[i];
        slice += f.secs[i];
    }
    worst = slice > worst ? slice : worst;
    fprintf(stderr, " %.3f; the longest is %.2fx the mean\n", slice, worst / (total_secs / m));
    free(f.cost);
    free(f.secs);
    return 0;
}
