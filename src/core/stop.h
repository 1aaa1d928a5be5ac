/* The stop that a long step before the tasks polls (a task source's walk, a table
 * build, a slice's cut, a sample's setup): the run's cancel flag. Those steps have no
 * worker loop that sees a stop between tasks, and some take seconds or, for a deep
 * prefix, hours; each looks at the flag every STOP_POLL_STEPS steps, well under a
 * millisecond of work, gives up, and leaves its caller to report the cancel. */
#ifndef NQ_STOP_H
#define NQ_STOP_H

#include <stdatomic.h>
#include <stdint.h>

#include "nqueens/nqueens.h"

/* Steps between two looks: a power of two, so that the test is a mask. */
#define STOP_POLL_STEPS 4096u

/* Whether stop (NULL: there is none) is set: one relaxed load, from any thread. */
static inline int stop_seen(const atomic_int *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

/* stop_seen on every STOP_POLL_STEPS-th step only (step counts up or down). */
static inline int stop_poll(const atomic_int *stop, uint64_t step)
{
    return (step & (STOP_POLL_STEPS - 1)) == 0 && stop_seen(stop);
}

/* The public stop (nq_stop_create): the flag the steps before a count poll. */
struct nq_stop {
    atomic_int flag;
};

/* stop's flag, or NULL for no stop: what stop_seen and stop_poll take. */
static inline const atomic_int *stop_flag(const nq_stop *stop)
{
    return stop ? &stop->flag : NULL;
}

#endif
