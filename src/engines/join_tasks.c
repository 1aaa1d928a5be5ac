/* The join engine's tasks: the column sets of the top rows, one per orbit of the mirror
 * and (even n) the turn over of the board, in increasing order, each weighted by the
 * size of its orbit (join_tasks.h). */
#include <assert.h>

#include "core/board.h"
#include "core/stop.h"
#include "engines/join_columns.h"
#include "engines/join_tasks.h"

/* A task's key: what orders the tasks and picks each orbit's representative. */
static uint64_t task_key(uint32_t top, int middle)
{
    return (uint64_t)(middle + 1) << 32 | top;
}

/* The size of the orbit of (top, middle), or 0 when it is not the orbit's smallest key.
 * The mirror takes column c to n - 1 - c; turning the board over swaps the sides, so
 * that the bottom's columns become the top's. */
uint32_t join_orbit_size(int n, uint32_t top, int middle)
{
    uint32_t all = board_mask(n), bottom = all & ~top;
    int mirrored = middle < 0 ? -1 : n - 1 - middle;
    uint64_t img[4];

    if (middle >= 0 && (top >> middle & 1))
        return 0;
    if (middle >= 0)
        bottom &= ~(1u << middle);
    img[0] = task_key(top, middle);
    img[1] = task_key(join_reversed(n, top), mirrored);
    img[2] = task_key(bottom, middle);
    img[3] = task_key(join_reversed(n, bottom), mirrored);
    uint32_t size = 0;
    for (int i = 0; i < 4; i++) {
        int seen = 0;
        if (img[i] < img[0])
            return 0;
        for (int j = 0; j < i; j++)
            seen |= img[j] == img[i];
        size += !seen;
    }
    return size;
}

/* Whether some middle column makes (top, middle) an orbit's representative. */
static int has_middle(int n, uint32_t top)
{
    for (int m = 0; m < n; m++)
        if (join_orbit_size(n, top, m))
            return 1;
    return 0;
}

uint64_t join_enumerate(int n, task_emit_fn emit, void *user, const atomic_int *stop)
{
    int h = n / 2;
    uint64_t id = 0, sets = 0;

    assert(n >= 1 && n <= JOIN_MAX_N); /* the column sets fit 32 bits with room to spare */

    for (uint32_t c = h ? (1u << h) - 1 : 0; !(c >> n);) {
        if (stop_poll(stop, ++sets))
            return id;
        uint32_t w = n % 2 ? (uint32_t)has_middle(n, c) : join_orbit_size(n, c, -1);
        if (w) {
            task t = {.id = id++, .payload = c, .weight = w};
            if (emit && emit(user, &t))
                return id;
        }
        if (h == 0)
            break;
        c = join_next_subset(c);
    }
    return id;
}
