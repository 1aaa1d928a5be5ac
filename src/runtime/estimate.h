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

#endif
