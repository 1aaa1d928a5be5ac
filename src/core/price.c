/* The engines' cost model over a list of tasks, on threads (core/price.h). */
#include "core/price.h"
#include "core/split.h"
#include "core/stop.h"
#include "nqueens/nqueens.h"

typedef struct pricing {
    const engine_desc *e;
    const void *shared;
    const task *tasks;
    const uint64_t *pick; /* cost[i] is task pick[i]'s; NULL: task i's */
    double *cost;
    const atomic_int *stop;
} pricing;

static int price_range(void *user, int part, uint64_t lo, uint64_t hi)
{
    const pricing *pr = user;
    (void)part;
    for (uint64_t i = lo; i < hi; i++) {
        if (stop_poll(pr->stop, i))
            return 1;
        pr->cost[i] = engine_task_cost(pr->e, pr->shared, &pr->tasks[pr->pick ? pr->pick[i] : i]);
    }
    return 0;
}

int engine_prices(const engine_desc *e, const void *shared, const task *tasks, const uint64_t *pick,
                  uint64_t n, int threads, uint64_t grain, double *cost, const atomic_int *stop)
{
    pricing pr = {e, shared, tasks, pick, cost, stop};
    return split_run_shared(threads, n, grain, price_range, &pr) ? NQ_ECANCELED : NQ_OK;
}
