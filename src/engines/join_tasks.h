/* The join engine's tasks (join_tasks.c): one column set of the top rows per orbit of
 * the symmetries that keep the split at row h. */
#ifndef NQ_JOIN_TASKS_H
#define NQ_JOIN_TASKS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/task.h"

/* Column set c of board n mirrored: column j to n - 1 - j. */
static inline uint32_t join_reversed(int n, uint32_t c)
{
    uint32_t r = 0;
    for (; c; c &= c - 1)
        r |= 1u << (n - 1 - __builtin_ctz(c));
    return r;
}

/* The column set of colex rank r among the sets of k columns. */
uint32_t join_colex_unrank(uint64_t r, int k);

/* The size of the orbit of the pair (top columns, middle column) under the mirror and
 * the turn over of the board (middle -1 on even boards), or 0 when it is not the orbit's
 * representative (nor a pair at all: the middle column among the top's). */
uint32_t join_orbit_size(int n, uint32_t top, int middle);

/* The tasks, in increasing order of their column set of the top side (the payload).
 * Even n: one per orbit, weighted by its size. Odd n: one per top column set that is
 * the representative of some (top, middle) orbit, weight 1, its subtotal the weighted
 * sum over those middle columns, so that its top half-boards are made once. emit may be
 * NULL to count them. Polls stop (core/stop.h; NULL: none) as it walks the column sets
 * (tens of millions at n = 27: seconds to count) and ends early once it is set: the
 * caller then tells a stop by stop_seen, the count returned being short. */
uint64_t join_enumerate(int n, task_emit_fn emit, void *user, const atomic_int *stop);

/* join_enumerate's count on up to `threads` threads (core/split.h), each a range of the
 * top column sets' colex ranks: a count precedes every run (n = 27's, 0.17 s on one
 * thread, polls the stop as join_enumerate does; 0 once stopped). */
uint64_t join_task_count(int n, int threads, const atomic_int *stop);

/* The payloads (top column sets) of tasks 0, s, 2 s, ... into top[0 ..), s the tasks /
 * spread + 1 (spread of them or fewer), at most `most`, on up to `threads` threads, the
 * tasks counted once; returns how many (0 once stopped). */
size_t join_tasks_every(int n, uint64_t spread, uint32_t *top, size_t most, int threads,
                        const atomic_int *stop);

#endif
