/* bench/gpu-model N [ROWS]: what the GPU engine asks of a GPU, counted on the CPU, for
 * sessions without one. Runs every sub-task of the engine's expansion with the search of
 * src/gpu/search.h in 32 lanes kept in lock-step as a warp runs them (a lane that ends
 * takes the next sub-task, as the kernel does) and prints:
 *   - lane steps: search_step calls, one queen placed per call;
 *   - warp iterations: loop turns of a warp, the figure that sets the kernel's time, and
 *     how often the grab and the going-back paths are live in them (a warp pays for
 *     a path if one of its lanes takes it);
 *   - the loop turns of a classic mirror-halving bitmask search (one placement or one
 *     backtrack per turn, one subproblem per thread), the design of the published GPU
 *     counters, so their time can be scaled to this engine's.
 * Both totals are checked against the library's OEIS table. ROWS: the host depth, default
 * the engine's own choice for one GPU. Built by the bench/gpu-model script. */
#include <stdio.h>
#include <stdlib.h>

#include "engines/d4.h"
#include "gpu/gpu_expand.h"
#include "gpu/gpu_plan.h"
#include "nqueens/nqueens.h"

typedef struct growing {
    void *at;
    size_t n, cap, size;
} growing;

static void *grow(growing *g)
{
    if (g->n == g->cap) {
        void *at;
        g->cap = g->cap ? 2 * g->cap : 1024;
        at = realloc(g->at, g->cap * g->size);
        if (!at) {
            fprintf(stderr, "gpu-model: out of memory\n");
            exit(1);
        }
        g->at = at;
    }
    return (char *)g->at + g->n++ * g->size;
}

static int keep_task(void *user, const task *t)
{
    *(task *)grow(user) = *t;
    return 0;
}

static int keep_sub(void *user, const search_sub *s)
{
    *(search_sub *)grow(user) = *s;
    return 0;
}

/* Loop turns of a classic search with mirror halving: the first queen in the left half
 * of row 0 (and the middle column once for odd n), each turn places or backtracks. */
static uint64_t classic_turns(int n, uint64_t *solutions)
{
    uint32_t all = (1u << n) - 1, st[32][4];
    uint64_t turns = 0;

    *solutions = 0;
    for (int first = 0; first < (n + 1) / 2; first++) {
        uint32_t bit = 1u << first, cols = bit, ld = bit << 1, rd = bit >> 1;
        uint32_t avail = all & ~(cols | ld | rd);
        uint64_t found = 0;
        int d = 1;
        for (;;) {
            turns++;
            if (avail) {
                uint32_t b = avail & (0u - avail);
                avail ^= b;
                if (d == n - 1) {
                    found++;
                    continue;
                }
                st[d][0] = avail, st[d][1] = cols, st[d][2] = ld, st[d][3] = rd;
                cols |= b, ld = (ld | b) << 1, rd = (rd | b) >> 1;
                avail = all & ~(cols | ld | rd);
                d++;
            } else {
                if (d == 1)
                    break;
                d--;
                avail = st[d][0], cols = st[d][1], ld = st[d][2], rd = st[d][3];
            }
        }
        *solutions += (n % 2 && first == n / 2) || n == 1 ? found : 2 * found;
    }
    return turns;
}

int main(int argc, char **argv)
{
    enum { LANES = 32 };
    growing tasks = {.size = sizeof(task)}, subs = {.size = sizeof(search_sub)};
    search_plan *plans;
    search_walk w[LANES];
    uint32_t stack[4 * 32 * LANES];
    uint64_t weight[LANES], next = 0, iters = 0, steps = 0, total = 0, classic, classic_sum;
    uint64_t live_grab = 0, live_back = 0;
    int n = argc > 1 ? atoi(argv[1]) : 0, rows, busy[LANES] = {0}, ended[LANES] = {0};
    nq_u128 want;

    if (argc < 2 || argc > 3 || n < 4 || n > 20) {
        fprintf(stderr, "usage: bench/gpu-model N [ROWS] (N 4..20)\n");
        return 2;
    }
    rows = argc > 2 ? atoi(argv[2]) : gpu_plan_auto_rows(n, 1, NULL);
    d4_enumerate(n, keep_task, &tasks);
    plans = calloc(tasks.n, sizeof(*plans));
    if (!plans)
        return 1;
    for (size_t i = 0; i < tasks.n; i++) {
        const task *t = (const task *)tasks.at + i;
        gpu_plan_build(n, t, &plans[i]);
        gpu_expand(&plans[i], (uint32_t)i, rows, keep_sub, &subs);
    }
    for (int live = 1; live;) {
        int grab = 0, back = 0;
        live = 0;
        for (int l = 0; l < LANES; l++) {
            const search_sub *s;
            if (ended[l])
                continue;
            live = 1;
            if (!busy[l]) {
                grab = 1;
                if (next == subs.n) {
                    ended[l] = 1;
                    continue;
                }
                s = (const search_sub *)subs.at + next++;
                weight[l] = ((const task *)tasks.at)[s->plan_depth >> 5].weight;
                busy[l] = search_start(&w[l], &plans[s->plan_depth >> 5], (int)(s->plan_depth & 31),
                                       s->cols, s->ld, s->rd);
                if (!busy[l]) {
                    total += w[l].count * weight[l];
                    continue;
                }
            }
            back |= !w[l].avail;
            steps++;
            busy[l] = search_step(&w[l], stack + l, LANES);
            if (!busy[l])
                total += w[l].count * weight[l];
        }
        iters += live;
        live_grab += grab;
        live_back += back;
    }
    classic = classic_turns(n, &classic_sum);
    if (nq_known_total(n, &want) != NQ_OK || want.hi || want.lo != total ||
        want.lo != classic_sum) {
        fprintf(stderr, "gpu-model: n=%d counted %llu and %llu, OEIS says %llu\n", n,
                (unsigned long long)total, (unsigned long long)classic_sum,
                (unsigned long long)want.lo);
        return 1;
    }
    printf("n=%d: %zu tasks, host depth %d, %zu sub-tasks; total %llu (OEIS ok)\n", n, tasks.n,
           rows, subs.n, (unsigned long long)total);
    printf("  lane steps        %14llu  (%.0f per sub-task)\n", (unsigned long long)steps,
           (double)steps / (double)subs.n);
    printf("  warp iterations   %14llu  (lanes busy %.1f%%; live: grab %.0f%%, back %.0f%%)\n",
           (unsigned long long)iters, 100.0 * (double)steps / (double)iters / LANES,
           100.0 * (double)live_grab / (double)iters, 100.0 * (double)live_back / (double)iters);
    printf("  classic turns     %14llu  (%.2fx the lane steps)\n", (unsigned long long)classic,
           (double)classic / (double)steps);
    free(plans);
    free(tasks.at);
    free(subs.at);
    return 0;
}
