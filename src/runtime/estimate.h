/* nq_estimate's run: a sample of one count's tasks, completed and timed in the calling
 * thread by the engine's own worker_init and complete, and what the times project for
 * the whole count (the statistics are runtime/sample.c's). */
#ifndef NQ_ESTIMATE_H
#define NQ_ESTIMATE_H

#include "core/engine.h"
#include "nqueens/nqueens.h"
#include "runtime/run.h"

/* Estimate the count of resolved settings s (an engine the pool drives) with rs's cancel
 * flag; o is checked. Returns NQ_OK, NQ_ECANCELED, NQ_ECALLBACK or NQ_ENOMEM, and fills
 * out in every case but NQ_ENOMEM. */
int estimate_run(run_state *rs, const engine_desc *e, const nq_settings *s,
                 const nq_estimate_options *o, nq_estimate_result *out);

/* The estimate's pricing: the expected cost (engine_desc.task_cost) of each of
 * tasks[0..n), or with pick of tasks[pick[0..n)], into cost[0..n), on up to `threads`
 * threads taking `grain` tasks at a time (shared: the engine's tables, which task_cost
 * only reads), polling stop. NQ_OK or NQ_ECANCELED; the same costs on any number of
 * threads. */
int estimate_price(const engine_desc *e, const void *shared, const task *tasks,
                   const uint64_t *pick, uint64_t n, int threads, uint64_t grain, double *cost,
                   const atomic_int *stop);

#endif
