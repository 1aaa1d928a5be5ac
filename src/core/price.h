/* The engines' cost model over a list of tasks, on threads: what an estimate prices to
 * cut its strata and a slice to cut its share, one implementation for both. */
#ifndef NQ_CORE_PRICE_H
#define NQ_CORE_PRICE_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/engine.h"
#include "core/task.h"

/* Tasks a pricing thread takes at a time: some 13 ms of the join's (about 0.2 us a task
 * at n = 27), so that a list of a few thousand stays on one thread. */
#define PRICE_GRAIN ((uint64_t)1 << 16)

/* The expected cost (engine_task_cost) of each of tasks[0..n), or with pick of
 * tasks[pick[0..n)], into cost[0..n), on up to `threads` threads taking `grain` tasks at
 * a time (shared: the engine's tables, which task_cost only reads), polling stop
 * (core/stop.h; NULL: none). NQ_OK or NQ_ECANCELED; the same costs, bit for bit, on any
 * number of threads. */
int engine_prices(const engine_desc *e, const void *shared, const task *tasks, const uint64_t *pick,
                  uint64_t n, int threads, uint64_t grain, double *cost, const atomic_int *stop);

#endif
