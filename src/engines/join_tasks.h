/* The join engine's tasks (join_tasks.c): one column set of the top rows per orbit of
 * the symmetries that keep the split at row h. */
#ifndef NQ_JOIN_TASKS_H
#define NQ_JOIN_TASKS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/task.h"

/* Column set c of board n (1 <= n <= 32) mirrored: column j to n - 1 - j. The 32 bits
 * reversed by swaps of halves, without a loop over the columns: the setup mirrors n =
 * 27's 20 million column sets, and the estimate's pricing tests the centre's orbit of
 * most of its 10.4 M tasks, where a bit at a time took 2 s and 0.5 s. */
static inline uint32_t join_reversed(int n, uint32_t c)
{
    c = (c >> 1 & 0x55555555u) | (c & 0x55555555u) << 1;
    c = (c >> 2 & 0x33333333u) | (c & 0x33333333u) << 2;
    c = (c >> 4 & 0x0f0f0f0fu) | (c & 0x0f0f0f0fu) << 4;
    return __builtin_bswap32(c) >> (32 - n);
}

/* The column set of colex rank r among the sets of k columns. */
uint32_t join_colex_unrank(uint64_t r, int k);

/* join_orbit_size's pairs on the centre column or without a middle (even boards). */
uint32_t join_orbit_size_centre(int n, uint32_t top, int middle);

/* The size of the orbit of the pair (top columns, middle column) under the mirror and
 * the turn over of the board (middle -1 on even boards), or 0 when it is not the orbit's
 * representative (nor a pair at all: the middle column among the top's). A task's key
 * orders by the middle first, then the top: off the centre, one right of it loses to
 * its mirror image, and one left of it is below both mirrored images, its four images
 * differing (disjoint sides are never equal), so that it is the representative when its
 * top is below its bottom. Inline: the estimate prices n = 27's 10.4 M tasks, every
 * middle of each, and the call took a third of that time. */
static inline uint32_t join_orbit_size(int n, uint32_t top, int middle)
{
    uint32_t bottom = board_mask(n) & ~top & ~(middle >= 0 ? 1u << middle : 0);

    if (middle >= 0 && (top >> middle & 1))
        return 0;
    if (middle < 0 || 2 * middle == n - 1)
        return join_orbit_size_centre(n, top, middle);
    return 2 * middle < n - 1 && bottom > top ? 4 : 0;
}

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
