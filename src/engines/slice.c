/* Slices of a count: contiguous ranges of task ids cut where the running sum of the
 * engine's expected task costs (engine_desc.task_cost) reaches each 1/M of the whole, so
 * that the slices of a job array take about the same time whatever the spread of the
 * tasks. The costs are summed in id order, one double at a time, so that one build
 * always cuts one task set the same way, on any number of threads. */
#include <assert.h>
#include <stdlib.h>

#include "core/price.h"
#include "core/stop.h"
#include "engines/slice.h"

/* The tasks of a source in batches of consecutive ids, each priced on the settings'
 * threads once it is full (n = 27: 10.4 M tasks, about a second of one thread), so that
 * only a batch is held, not the task set (48 bytes a task). */
typedef struct cost_walk {
    const engine_desc *e;
    const nq_settings *s;
    const void *shared;
    double *cost;
    uint64_t n;
    const atomic_int *stop;
    task *batch;
    uint64_t held, room; /* tasks in batch, and its size */
} cost_walk;

/* The held tasks' costs (some are held), into cost from the first one's id: 0, or 1 on
 * a stop. */
static int price_batch(cost_walk *w)
{
    assert(w->held > 0);
    int rc = engine_prices(w->e, w->shared, w->batch, NULL, w->held, w->s->n_threads,
                           SLICE_PRICE_GRAIN, w->cost + w->batch[0].id, w->stop);
    w->held = 0;
    return rc != NQ_OK;
}

static int take_task(void *user, const task *t)
{
    cost_walk *w = user;
    if (t->id >= w->n || stop_poll(w->stop, t->id))
        return 1;
    assert(!w->held || t->id == w->batch[w->held - 1].id + 1); /* dense, in order */
    w->batch[w->held++] = *t;
    return w->held == w->room ? price_batch(w) : 0;
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
                      uint64_t batch, const atomic_int *stop)
{
    cost_walk w = {e, s, NULL, cost, n, stop, NULL, 0, batch ? batch : SLICE_PRICE_BATCH};
    uint64_t made;
    int rc = NQ_OK;

    if (w.room > n)
        w.room = n ? n : 1;
    if (!(w.batch = malloc(w.room * sizeof(*w.batch))))
        return NQ_ENOMEM;
    if (e->shared_init && !(w.shared = e->shared_init(s, stop)))
        rc = stop_seen(stop) ? NQ_ECANCELED : NQ_ENOMEM;
    made = rc == NQ_OK ? e->source(s, take_task, &w) : 0;
    if (rc == NQ_OK && w.held && price_batch(&w))
        made = 0; /* stopped in the last batch */
    if (w.shared)
        e->shared_free((void *)w.shared);
    free(w.batch);
    if (rc == NQ_OK && made != n)
        rc = stop_seen(stop) ? NQ_ECANCELED : NQ_EINVAL;
    return rc;
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
    if ((rc = engine_task_costs(e, s, cost, tasks, 0, stop)) != NQ_OK) {
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
