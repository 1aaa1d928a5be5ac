/* Slices of a count: the task ids of one slice, cut by the engine's expected task costs. */
#ifndef NQ_SLICE_H
#define NQ_SLICE_H

#include <stdint.h>

#include "core/engine.h"

/* The task ids of resolved settings s's slice (nq_settings.slice_index of slice_count),
 * of the tasks its set has: first .. end - 1, cut by expected cost; 0 and tasks without
 * a slice. Polls stop (core/stop.h; NULL: none), as the cut makes the engine's tables:
 * NQ_ECANCELED once it is seen, NQ_ENOMEM, or NQ_EINVAL when the source makes fewer
 * tasks than it counts. */
int engine_slice_range(const engine_desc *e, const nq_settings *s, uint64_t tasks,
                       const atomic_int *stop, uint64_t *first, uint64_t *end);
/* Tasks held and priced at once (engine_task_costs), and taken by a pricing thread at
 * a time: at n = 27 some 40 batches of 12 MiB, each split over up to 64 threads. */
#define SLICE_PRICE_BATCH ((uint64_t)1 << 18)
#define SLICE_PRICE_GRAIN ((uint64_t)1 << 12)

/* The expected cost (engine_desc.task_cost) of each of the n tasks of resolved settings
 * s, by id, into cost[0..n), on s's threads a batch of that many tasks at a time (0:
 * SLICE_PRICE_BATCH), polling stop as engine_slice_range does; the same costs on any
 * threads and batches. NQ_ECANCELED, NQ_ENOMEM, or NQ_EINVAL when the source makes
 * another number of tasks. */
int engine_task_costs(const engine_desc *e, const nq_settings *s, double *cost, uint64_t n,
                      uint64_t batch, const atomic_int *stop);

#endif
