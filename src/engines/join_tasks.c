/* The join engine's tasks: the column sets of the top rows, one per orbit of the mirror
 * and (even n) the turn over of the board, in increasing order, each weighted by the
 * size of its orbit (join_tasks.h). */
#include <assert.h>

#include "core/board.h"
#include "core/split.h"
#include "core/stop.h"
#include "engines/join_columns.h"
#include "engines/join_tables.h"
#include "engines/join_tasks.h"

/* A task's key: what orders the tasks and picks each orbit's representative. */
static uint64_t task_key(uint32_t top, int middle)
{
    return (uint64_t)(middle + 1) << 32 | top;
}

/* The size of the orbit of (top, middle) on the centre or without a middle (the four
 * images' keys, with their repeats), or 0 when it is not the orbit's smallest key. The
 * mirror takes column c to n - 1 - c; turning the board over swaps the sides, so that the
 * bottom's columns become the top's. */
uint32_t join_orbit_size_centre(int n, uint32_t top, int middle)
{
    uint32_t all = board_mask(n), bottom = all & ~top;
    int mirrored = middle < 0 ? -1 : n - 1 - middle;
    uint64_t img[4];

    assert(middle < 0 || (2 * middle == n - 1 && !(top >> middle & 1)));
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

/* Whether some middle column makes (top, middle) an orbit's representative. Keys order
 * by the middle first: a middle m right of the centre loses to its mirror image, and one
 * left of it is below both mirrored images, so that (top, m) is the representative
 * exactly when the bottom's columns (all but top's and m) are no smaller than top. That
 * holds for some such m if it holds for the lowest free column, whose bit is the least
 * to take away. The centre takes the whole test. One middle after another, each with a
 * whole test, took about 3 s to count the tasks of n = 27 (0.17 s now), most of it on the
 * late column sets, which are seldom representatives. */
static int has_middle(int n, uint32_t top)
{
    int centre = (n - 1) / 2;
    uint32_t free_cols = board_mask(n) & ~top, low = free_cols & -free_cols;

    if (low && __builtin_ctz(low) < centre && free_cols - low >= top)
        return 1;
    return !(top >> centre & 1) && join_orbit_size(n, top, centre) != 0;
}

/* Its i-th largest column is the largest c with C(c, i) <= what is left of r (the
 * combinatorial number system). */
uint32_t join_colex_unrank(uint64_t r, int k)
{
    uint32_t set = 0;
    int c = 32;

    for (int i = k; i >= 1; i--) {
        do
            c--;
        while (join_binomial(c, i) > r);
        set |= 1u << c;
        r -= join_binomial(c, i);
    }
    return set;
}

/* The tasks of the top column sets of colex ranks [lo, hi), their ids from first_id, in
 * order: join_enumerate's walk over a range. Returns how many. */
static uint64_t enumerate_range(int n, uint64_t lo, uint64_t hi, uint64_t first_id,
                                task_emit_fn emit, void *user, const atomic_int *stop)
{
    int h = n / 2;
    uint64_t id = first_id;

    assert(n >= 1 && n <= JOIN_MAX_N); /* the column sets fit 32 bits with room to spare */
    for (uint32_t c = join_colex_unrank(lo, h), r = 0; lo + r < hi; r++) {
        if (stop_poll(stop, r + 1))
            break;
        uint32_t w = n % 2 ? (uint32_t)has_middle(n, c) : join_orbit_size(n, c, -1);
        if (w) {
            task t = {.id = id++, .payload = c, .weight = w};
            if (emit && emit(user, &t))
                break;
        }
        if (lo + r + 1 < hi) /* Gosper's step has no set after the last (nor of none) */
            c = join_next_subset(c);
    }
    return id - first_id;
}

uint64_t join_enumerate(int n, task_emit_fn emit, void *user, const atomic_int *stop)
{
    return enumerate_range(n, 0, join_binomial(n, n / 2), 0, emit, user, stop);
}

/* ---- on the setup's threads ---------------------------------------------------------- */

/* The top column sets in ranges of their ranks, one per part of a split; a part short
 * of this costs more to start a thread for than it saves (a set takes some 15 ns). */
#define RANKS_GRAIN ((uint64_t)1 << 14)

typedef struct task_split {
    int n;
    uint64_t first[SPLIT_MAX_THREADS]; /* each part's first id */
    uint64_t count[SPLIT_MAX_THREADS];
    uint64_t stride;
    uint32_t *top;
    size_t most;
    const atomic_int *stop;
} task_split;

static int count_range(void *user, int part, uint64_t lo, uint64_t hi)
{
    task_split *ts = user;
    ts->count[part] = enumerate_range(ts->n, lo, hi, 0, NULL, NULL, ts->stop);
    return stop_seen(ts->stop);
}

/* The parts' counts summed, each part's first id set. */
static uint64_t count_split(task_split *ts, int threads)
{
    uint64_t ranks = join_binomial(ts->n, ts->n / 2), sum = 0;
    int parts = split_parts(threads, ranks, RANKS_GRAIN);

    if (split_run(threads, ranks, RANKS_GRAIN, count_range, ts) != 0)
        return 0;
    for (int p = 0; p < parts; p++) {
        ts->first[p] = sum;
        sum += ts->count[p];
    }
    return sum;
}

uint64_t join_task_count(int n, int threads, const atomic_int *stop)
{
    task_split ts = {.n = n, .stop = stop};
    return count_split(&ts, threads);
}

static int pick_every(void *user, const task *t)
{
    const task_split *ts = user;
    if (t->id % ts->stride == 0 && t->id / ts->stride < ts->most)
        ts->top[t->id / ts->stride] = (uint32_t)t->payload;
    return 0;
}

static int pick_range(void *user, int part, uint64_t lo, uint64_t hi)
{
    task_split *ts = user;
    enumerate_range(ts->n, lo, hi, ts->first[part], pick_every, ts, ts->stop);
    return stop_seen(ts->stop);
}

size_t join_tasks_every(int n, uint64_t spread, uint32_t *top, size_t most, int threads,
                        const atomic_int *stop)
{
    task_split ts = {.n = n, .top = top, .most = most, .stop = stop};
    uint64_t tasks = count_split(&ts, threads);

    ts.stride = tasks / (spread ? spread : 1) + 1; /* the parts' first ids are known now */
    if (stop_seen(stop) ||
        split_run(threads, join_binomial(n, n / 2), RANKS_GRAIN, pick_range, &ts) != 0)
        return 0;
    tasks = (tasks + ts.stride - 1) / ts.stride;
    return tasks < most ? (size_t)tasks : most;
}
