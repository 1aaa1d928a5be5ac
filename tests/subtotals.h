/* Test helper: each task's subtotal kept by id from a count's task_done hook and given
 * back through its reuse hook, as a journal would. What the hook finds wrong (an id out
 * of range or seen twice) is counted in the workers' threads and checked after the run.
 * Plain C, so that the device check (gpu/cuda_device_check.c) uses it too. */
#ifndef NQ_TEST_SUBTOTALS_H
#define NQ_TEST_SUBTOTALS_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens/nqueens.h"

typedef struct subtotals {
    uint64_t *value;     /* by task id, once seen */
    unsigned char *seen; /* by task id */
    uint64_t n;          /* ids 0 .. n-1 */
    atomic_ulong calls;  /* task_done calls */
    atomic_int bad;      /* ids out of range or seen twice */
} subtotals;

/* Room for n tasks, none seen: 0, or -1 when out of memory (subtotals_free frees it). */
static inline int subtotals_init(subtotals *s, uint64_t n)
{
    s->value = calloc(n ? n : 1, sizeof(*s->value));
    s->seen = calloc(n ? n : 1, 1);
    s->n = n;
    atomic_init(&s->calls, 0);
    atomic_init(&s->bad, 0);
    return s->value && s->seen ? 0 : -1;
}

/* Forgets every task seen, for another run into the same room. */
static inline void subtotals_clear(subtotals *s)
{
    memset(s->value, 0, s->n * sizeof(*s->value));
    memset(s->seen, 0, s->n);
    atomic_store(&s->calls, 0);
    atomic_store(&s->bad, 0);
}

static inline void subtotals_free(subtotals *s)
{
    free(s->value);
    free(s->seen);
}

/* The task_done hook: keeps the subtotal (user is the subtotals). */
static inline int subtotals_done(void *user, uint64_t id, uint64_t subtotal)
{
    subtotals *s = user;

    atomic_fetch_add(&s->calls, 1);
    if (id >= s->n || s->seen[id]) {
        atomic_fetch_add(&s->bad, 1);
        return 0;
    }
    s->value[id] = subtotal;
    s->seen[id] = 1;
    return 0;
}

/* The reuse hook: the subtotal of a task seen before, as recorded. */
static inline int subtotals_reuse(void *user, uint64_t id, uint64_t *subtotal)
{
    const subtotals *s = user;

    if (id >= s->n || !s->seen[id])
        return 0;
    *subtotal = s->value[id];
    return 1;
}

/* The hooks over s: task_done always, reuse when asked. */
static inline nq_hooks subtotals_hooks(subtotals *s, int reuse)
{
    nq_hooks h = {0};

    h.user = s;
    h.task_done = subtotals_done;
    h.reuse = reuse ? subtotals_reuse : NULL;
    return h;
}

#endif
