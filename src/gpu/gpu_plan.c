/* The GPU run's plan (see gpu_plan.h): the d4 tasks and their search plans, the depth
 * the host expands to so that each device gets enough sub-tasks to even out, and the
 * chunks, the unit the devices share. The tuning defaults live here. */
#include <stdlib.h>
#include <string.h>

#include "engines/d4.h"
#include "engines/d4tail.h"
#include "gpu/gpu_expand.h"
#include "gpu/gpu_plan.h"

/* Sub-tasks per device the auto depth aims for: enough that the threads resident on a
 * large GPU (about 2^18) each take a few dozen, so that the long ones even out. Beyond
 * GPU_SUBS_FROM_N it doubles per n, so that a sub-task's walk (what a stop waits for,
 * and the tail of a launch) grows more slowly than the work; the ring keeps the host's
 * memory bounded however many there are. */
#define GPU_SUBS_PER_DEVICE (1ull << 22)
#define GPU_SUBS_FROM_N 22
/* Chunks per device: the unit of dynamic sharing between devices, of progress and of
 * what a checkpoint records. A launch ends in a tail where few threads still run, but
 * the next chunk, already launched on the other slot, fills the GPU meanwhile. */
#define GPU_CHUNKS_PER_DEVICE 16
/* Most sub-tasks in one chunk (48 MiB of buffer with their counts), so that host memory
 * stays bounded whatever n; a task with more is a chunk of its own, since a chunk is cut
 * at task boundaries to keep each task's subtotal within one chunk. */
#define GPU_CHUNK_SUBS (1ull << 21)

typedef struct collect {
    task *tasks;
    uint64_t n;
} collect;

static int collect_task(void *user, const task *t)
{
    collect *c = user;
    c->tasks[c->n++] = *t;
    return 0;
}

void gpu_plan_build(int n, const task *t, search_plan *p)
{
    d4_plan q;

    memset(&q, 0, sizeof(q));
    memset(p, 0, sizeof(*p));
    d4_plan_build(n, t, &q);
    p->depth = q.depth;
    p->last = q.last;
    p->cols = q.cols;
    for (int d = 0; d < 32; d++) {
        p->free[d] = d < q.depth ? q.free[d] : 0;
        p->shift[d] = (uint8_t)(d < q.depth ? q.shift[d] : 1);
        p->to_last[d] = (uint8_t)(d < q.depth ? q.to_last[d] : 0);
    }
    for (int d = 0; d < 32; d++) {
        uint64_t next_free = d + 1 < 32 ? p->free[d + 1] : 0;
        uint64_t next_to_last = d + 1 < 32 ? p->to_last[d + 1] : 0;
        p->step[d] = next_free | (uint64_t)p->shift[d] << 32 | next_to_last << 40;
    }
}

static void plans_build(int n, const task *tasks, uint64_t n_tasks, search_plan *plans)
{
    for (uint64_t i = 0; i < n_tasks; i++)
        gpu_plan_build(n, &tasks[i], &plans[i]);
}

/* The sub-task count the auto depth aims for (gpu->subtasks per device overrides the
 * default, growth with n included). */
static uint64_t subs_target(int n, int n_devices, const nq_gpu_settings *gpu)
{
    uint64_t per = GPU_SUBS_PER_DEVICE;
    if (n > GPU_SUBS_FROM_N)
        per <<= n - GPU_SUBS_FROM_N < 16 ? n - GPU_SUBS_FROM_N : 16;
    if (gpu && gpu->subtasks)
        per = gpu->subtasks;
    return per * (uint64_t)(n_devices > 0 ? n_devices : 1);
}

/* The shallowest depth whose sub-tasks reach target, or the deepest that changes
 * anything; sub_begin gets the sub-task offsets of each task at that depth. Counting a
 * depth costs about what expanding it does, and the depths before it shrink
 * geometrically, so this costs about one extra expansion. rows > 0: that depth only. */
static int choose_rows(const search_plan *plans, const uint32_t *order, uint32_t m, uint64_t target,
                       int rows, uint64_t *sub_begin)
{
    uint64_t prev = 0;
    for (int k = rows ? rows : 1;; k++) {
        uint64_t n = 0;
        for (uint32_t j = 0; j < m; j++) {
            if (sub_begin)
                sub_begin[j] = n;
            n += gpu_expand(&plans[order[j]], order[j], k, NULL, NULL);
        }
        if (sub_begin)
            sub_begin[m] = n;
        if (rows || n >= target || (k > 1 && n == prev) || k >= 29)
            return k;
        prev = n;
    }
}

int gpu_plan_auto_rows(int n, int n_devices, const nq_gpu_settings *gpu)
{
    uint64_t n_tasks = d4_enumerate(n, NULL, NULL);
    task *tasks = calloc(n_tasks ? n_tasks : 1, sizeof(*tasks));
    search_plan *plans = calloc(n_tasks ? n_tasks : 1, sizeof(*plans));
    uint32_t *order = calloc(n_tasks ? n_tasks : 1, sizeof(*order));
    collect col = {tasks, 0};
    int rows = 1;

    if (tasks && plans && order) {
        d4_enumerate(n, collect_task, &col);
        plans_build(n, tasks, n_tasks, plans);
        for (uint64_t i = 0; i < n_tasks; i++)
            order[i] = (uint32_t)i;
        rows =
            choose_rows(plans, order, (uint32_t)n_tasks, subs_target(n, n_devices, gpu), 0, NULL);
    }
    free(tasks);
    free(plans);
    free(order);
    return rows;
}

int gpu_plan_tasks(gpu_ctx *c, uint64_t n_tasks)
{
    collect col;

    c->tasks = calloc(n_tasks + 1, sizeof(*c->tasks));
    c->plans = calloc(n_tasks + 1, sizeof(*c->plans));
    c->subtotal = calloc(n_tasks + 1, sizeof(*c->subtotal));
    c->done = calloc(n_tasks + 1, 1);
    c->order = calloc(n_tasks + 1, sizeof(*c->order));
    c->sub_begin = calloc(n_tasks + 1, sizeof(*c->sub_begin));
    c->fixed = calloc(n_tasks + 1, sizeof(*c->fixed));
    c->fixed_ok = calloc(n_tasks + 1, 1);
    c->chunk_begin = calloc(n_tasks + 1, sizeof(*c->chunk_begin)); /* a chunk has a task */
    if (!c->tasks || !c->plans || !c->subtotal || !c->done || !c->order || !c->sub_begin ||
        !c->fixed || !c->fixed_ok || !c->chunk_begin)
        return NQ_ENOMEM;
    col = (collect){c->tasks, 0};
    d4_enumerate(c->job->n, collect_task, &col);
    plans_build(c->job->n, c->tasks, n_tasks, c->plans);
    c->n_plans = (uint32_t)n_tasks;
    return NQ_OK;
}

/* The stack a sub-task needs follows from its plan and the depth it starts at, which is
 * the host depth unless the plan has fewer rows (gpu_expand). */
static int stack_levels(const gpu_ctx *c)
{
    int levels = 0;

    for (uint32_t j = 0; j < c->m; j++) {
        const search_plan *p = &c->plans[c->order[j]];
        int d0 = c->rows < p->depth - 3 ? c->rows : p->depth - 3;
        int l = search_levels(p, d0 > 0 ? d0 : 0);
        if (l > levels)
            levels = l;
    }
    return levels;
}

/* Chunking: chunks of about equal sub-task counts (even of them), cut at task
 * boundaries so that a task's subtotal is complete when its chunk is, and each cut again
 * where it holds more than cap sub-tasks (a task with more is a chunk of its own). */
static void chunks_cut(gpu_ctx *c, uint32_t even, uint64_t cap)
{
    const uint64_t *sub_begin = c->sub_begin, n_subs = sub_begin[c->m];
    uint32_t m = c->m, n_chunks = 0;

    if (even > m)
        even = m;
    for (uint32_t k = 0, j = 0; k < even; k++) {
        uint64_t want = n_subs * (k + 1) / even;
        uint32_t after = even - k - 1; /* chunks still to cut, one task each at least */
        uint32_t from = j;
        c->chunk_begin[n_chunks++] = j;
        do
            j++;
        while (j < m - after && sub_begin[j] < want);
        if (after == 0)
            j = m;
        for (uint32_t t = from + 1; t < j; t++)
            if (sub_begin[t + 1] - sub_begin[from] > cap)
                c->chunk_begin[n_chunks++] = from = t;
    }
    c->chunk_begin[n_chunks] = m;
    c->n_chunks = n_chunks;
    for (uint32_t k = 0; k < n_chunks; k++) {
        uint64_t n = sub_begin[c->chunk_begin[k + 1]] - sub_begin[c->chunk_begin[k]];
        if (n > c->max_chunk_subs)
            c->max_chunk_subs = n;
    }
}

void gpu_plan_layout(gpu_ctx *c, int n_devs)
{
    const gpu_job *job = c->job;

    c->rows = choose_rows(c->plans, c->order, c->m, subs_target(job->n, n_devs, &job->gpu),
                          job->expand_rows, c->sub_begin);
    c->levels = stack_levels(c);
    chunks_cut(
        c, (uint32_t)(job->gpu.chunks ? job->gpu.chunks : GPU_CHUNKS_PER_DEVICE) * (uint32_t)n_devs,
        job->gpu.chunk_subtasks ? job->gpu.chunk_subtasks : GPU_CHUNK_SUBS);
}

void gpu_plan_free(gpu_ctx *c)
{
    free(c->tasks);
    free(c->plans);
    free(c->subtotal);
    free(c->sub_begin);
    free(c->order);
    free(c->chunk_begin);
    free(c->done);
    free(c->fixed);
    free(c->fixed_ok);
}
