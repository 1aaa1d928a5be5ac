/* Slices of a count: contiguous ranges of task ids cut where the running sum of the
 * engine's expected task costs (engine_desc.task_cost) reaches each 1/M of the whole, so
 * that the slices of a job array take about the same time whatever the spread of the
 * tasks. The costs are summed in id order, one double at a time, so that one build
 * always cuts one task set the same way. */
#include <stdlib.h>

#include "core/stop.h"
#include "engines/slice.h"

typedef struct cost_walk {
    const engine_desc *e;
    const void *shared;
    double *cost;
    uint64_t n;
    const atomic_int *stop;
} cost_walk;

static int take_cost(void *user, const task *t)
{
    cost_walk *w = user;
    if (t->id >= w->n || stop_poll(w->stop, t->id))
        return 1;
    w->cost[t->id] = engine_task_cost(w->e, w->shared, t);
    return 0;
}

/* The first id of slice j of m: the first whose preceding costs reach j/m of total. */
static uint64_t slice_bound(const double *cost, uint64_t n, double total, int j, int m)
{
    double target = total * j / m, sum = 0;
    uint64_t i = 0;

    if (j == m)
        return n; /* the last slice takes any trailing tasks of cost 0 */
    while (i < n && sum < target)
        sum += cost[i++];
    return i;
}

int engine_task_costs(const engine_desc *e, const nq_settings *s, double *cost, uint64_t n,
                      const atomic_int *stop)
{
    cost_walk w = {e, NULL, cost, n, stop};
    uint64_t made;

    if (e->shared_init && !(w.shared = e->shared_init(s, stop)))
        return stop_seen(stop) ? NQ_ECANCELED : NQ_ENOMEM;
    made = e->source(s, take_cost, &w);
    if (w.shared)
        e->shared_free((void *)w.shared);
    if (made != n)
        return stop_seen(stop) ? NQ_ECANCELED : NQ_EINVAL;
    return NQ_OK;
}

int engine_slice_range(const engine_desc *e, const nq_settings *s, uint64_t tasks,
                       const atomic_int *stop, uint64_t *first, uint64_t *end)
{
    double total = 0, *cost;
    int rc;

    if (!s->slice_count) {
        *first = 0, *end = tasks;
        return NQ_OK;
    }
    if (!(cost = malloc((tasks ? tasks : 1) * sizeof(*cost))))
        return NQ_ENOMEM;
    if ((rc = engine_task_costs(e, s, cost, tasks, stop)) != NQ_OK) {
        free(cost);
        return rc;
    }
    for (uint64_t i = 0; i < tasks; i++)
        total += cost[i];
    *first = slice_bound(cost, tasks, total, s->slice_index, s->slice_count);
    *end = slice_bound(cost, tasks, total, s->slice_index + 1, s->slice_count);
    free(cost);
    return NQ_OK;
}
