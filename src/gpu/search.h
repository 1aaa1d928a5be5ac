/* The search that completes one GPU sub-task, written once for both compilers: plain C
 * that nvcc builds for the device (NQ_HD) and the C compiler builds for the CPU tests,
 * so that the code checked here against OEIS and the d4 engine is the code the GPU runs.
 * A sub-task is one d4 border task (its search plan) plus a few inner rows placed. */
#ifndef NQ_CUDA_SEARCH_H
#define NQ_CUDA_SEARCH_H

#include <stdint.h>

#ifdef __CUDACC__
#define NQ_HD __host__ __device__ __forceinline__
#else
#define NQ_HD static inline
#endif

/* The inner rows of one border task in search order: the squares the three preset
 * border queens (top, left, right) leave open in each, the row gap to the next inner row
 * (1, or 2 and 3 where the left or right queen's row is skipped), and the rows from each
 * down to row n-1, for the look-ahead to the bottom row. The d4 engine's plan
 * (d4_plan_build) in a form the device copies and reads with few loads; the host makes
 * it with gpu_plan_build (gpu_plan.h). */
typedef struct search_plan {
    /* What a step from depth d reads, in one 8-byte load: free[d + 1] in bits 0-31,
     * shift[d] in bits 32-39, to_last[d + 1] in bits 40-47. */
    uint64_t step[32];
    uint32_t free[32];
    uint8_t shift[32];
    uint8_t to_last[32];
    uint32_t last;  /* squares open in row n-1 (every column when a corner presets it) */
    uint32_t cols;  /* the columns no border queen holds */
    int32_t depth;  /* inner rows to fill */
    int32_t unused; /* keeps the size a multiple of 8 for the device copy */
} search_plan;

/* One unit of GPU work: plan index and start depth packed as plan << 5 | depth, then the
 * masks of the inner queens placed so far, shifted to the start row. 16 bytes, so a
 * thread fetches it with one vector load. */
typedef struct search_sub {
    uint32_t plan_depth;
    uint32_t cols, ld, rd;
} search_sub;

/* The number of set bits, with the instruction of either compiler. */
NQ_HD int search_popcount(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return __popc(x);
#else
    return __builtin_popcount(x);
#endif
}

/* One thread's walk through one sub-task. The stack lives outside (shared memory on the
 * GPU): entry e of field j is stack[(4 * e + j) * stride], so that with stride = block
 * size and each thread's base at its own index, a warp's 32 accesses fall in 32 banks.
 * Only rows with squares left to try are saved (sp entries); a row whose last square is
 * being tried is left behind for good, so going back never lands on an empty row. */
typedef struct search_walk {
    const search_plan *p;
    uint32_t avail, cols, ld, rd;
    uint32_t last; /* p->last, kept in a register: every step reads it */
    int32_t d, sp, stop;
    uint64_t count;
} search_walk;

/* The start of sub-task (plan p, depth d0, masks cols/ld/rd). Returns 1 if the walk
 * needs steps, 0 if it is already complete (no row left, or nothing open in the first:
 * w->count is final). */
NQ_HD int search_start(search_walk *w, const search_plan *p, int d0, uint32_t cols, uint32_t ld,
                       uint32_t rd)
{
    w->p = p;
    w->count = 0;
    w->d = d0;
    w->sp = 0;
    w->stop = p->depth - 2; /* a placement at this depth leaves the last row */
    w->cols = cols;
    w->ld = ld;
    w->rd = rd;
    w->last = p->last;
    w->avail = 0;
    if (d0 >= p->depth) {
        w->count = 1;
        return 0;
    }
    w->avail = p->free[d0] & ~(cols | ld | rd);
    if (d0 == p->depth - 1) {
        w->count = w->avail != 0; /* one column is left: at most one square is open */
        return 0;
    }
    return w->avail != 0;
}

/* One step of the walk: go back to the last saved row if this one is spent, then try
 * its next open square. Returns 0 when the sub-task is finished. Every step places a
 * queen, and one step per call keeps the threads of a warp in step with each other
 * however different their trees are. A warp runs each code path that any of its threads
 * takes, so the paths are few and short: going back is fused into the step (a warp ran
 * it in nearly every iteration anyway, now a thread also places in the same one), and
 * the last row needs no path of its own, since the open squares of the next row are
 * computed for every placement anyway (with one column left, a placement in the
 * second-to-last row is a solution exactly when they are not empty). bench/gpu-model
 * counts the warp iterations.
 * The walk keeps cols at exactly one column per inner row placed, so after going back
 * the row is the popcount of the restored cols.
 * This is the one search not generated from the CPU's loop (engines/search_tmpl.c), and
 * on purpose: that loop runs a whole subtree per call, which on a GPU would leave the
 * threads of a warp waiting for the slowest of them, and keeps its stack in registers
 * and local arrays rather than strided through shared memory. */
NQ_HD int search_step(search_walk *w, uint32_t *stack, int stride)
{
    const search_plan *p = w->p;
    uint64_t step;
    uint32_t bit, s, nc, nl, nr, na, k;

    if (!w->avail) {
        const uint32_t *top;
        if (!w->sp)
            return 0;
        top = stack + 4 * --w->sp * stride;
        w->avail = top[0];
        w->cols = top[stride];
        w->ld = top[2 * stride];
        w->rd = top[3 * stride];
        w->d = search_popcount(w->cols);
    }
    step = p->step[w->d];
    bit = w->avail & (0u - w->avail);
    s = (uint32_t)(step >> 32) & 0xff;
    nc = w->cols | bit;
    nl = (w->ld | bit) << s;
    nr = (w->rd | bit) >> s;
    w->avail ^= bit;
    na = (uint32_t)step & ~(nc | nl | nr);
    if (w->d == w->stop) {
        w->count += na != 0;
        return (w->avail | (uint32_t)w->sp) != 0;
    }
    /* The bottom row may only hold the canonical columns of p->last: a placement that
     * closes them all is a dead end long before the walk would get there. */
    k = (uint32_t)(step >> 40) & 0xff;
    if (na && (w->last & ~(nc | (nl << k) | (nr >> k)))) {
        if (w->avail) {
            uint32_t *top = stack + 4 * w->sp++ * stride;
            top[0] = w->avail;
            top[stride] = w->cols;
            top[2 * stride] = w->ld;
            top[3 * stride] = w->rd;
        }
        w->avail = na;
        w->cols = nc;
        w->ld = nl;
        w->rd = nr;
        w->d++;
        return 1;
    }
    return (w->avail | (uint32_t)w->sp) != 0;
}

/* Stack entries a walk from depth d0 of p may save, at most one per row above the
 * last one it places (0 when it needs no stack). */
NQ_HD int search_levels(const search_plan *p, int d0)
{
    int l = p->depth - 2 - d0;
    return l > 0 ? l : 0;
}

/* The completions of one sub-task: the whole walk in one call (the CPU's way to run it;
 * the kernel interleaves the steps with fetching the next sub-task instead). stack holds
 * at least 4 * search_levels(p, d0) words at the given stride. */
NQ_HD uint64_t search_count(const search_plan *p, const search_sub *sub, uint32_t *stack,
                            int stride)
{
    search_walk w;
    if (search_start(&w, p, (int)(sub->plan_depth & 31), sub->cols, sub->ld, sub->rd))
        while (search_step(&w, stack, stride))
            ;
    return w.count;
}

#endif
