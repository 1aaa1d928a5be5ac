/* The GPU engine's run (see gpu_run.h), step by step: plan, reuse, start the device
 * threads, lay out, expand into the ring, fold. Plain C, built with or without CUDA: the
 * device work goes through a gpu_backend, so the tests run all of this on the CPU; who
 * owns what while it runs is in gpu_ctx.h. */
#include <stdlib.h>
#include <string.h>

#include "core/u128.h"
#include "engines/d4.h"
#include "gpu/gpu_device.h"
#include "gpu/gpu_expand.h"
#include "gpu/gpu_plan.h"
#include "gpu/gpu_ring.h"
#include "gpu/gpu_run.h"
#include "runtime/crew.h"

/* Reuse: the tasks the run wants (nq_count_tasks' filter), those recorded by an earlier
 * run counted as recorded and never expanded, the others put in order to run. */
static void run_reuse(gpu_ctx *c)
{
    const nq_hooks *h = c->job->hooks;

    for (uint64_t i = 0, k = 0; i < c->n_plans; i++) {
        uint64_t sub;
        int wanted = run_wants(c->job->rs, &k, i);
        if (wanted < 0 || run_canceled(&c->stop))
            break;
        if (!wanted)
            continue;
        if (h && h->reuse && h->reuse(h->user, i, &sub) == 1) {
            c->subtotal[i] = sub;
            c->done[i] = 1;
            run_slot_add(gpu_progress_slot(c), (u128)sub * c->tasks[i].weight, 1);
            run_note_reused(c->job->rs, (u128)sub * c->tasks[i].weight);
            continue;
        }
        c->order[c->m++] = (uint32_t)i;
    }
}

typedef struct sub_sink {
    search_sub *subs;
    uint64_t n;
} sub_sink;

static int sub_store(void *user, const search_sub *s)
{
    sub_sink *k = user;
    k->subs[k->n++] = *s;
    return 0;
}

/* Expansion: chunk by chunk, so that the first GPU starts after one chunk's expansion
 * rather than all of it (about 0.1 s of host time at n = 20), and into the ring, so that
 * host memory stays bounded whatever n. */
static void chunks_expand(gpu_ctx *c)
{
    for (uint32_t k = 0;; k++) {
        gpu_chunk_buf *b = k < c->n_chunks ? gpu_ring_take(c, k) : NULL;
        sub_sink sink;
        if (!b) {
            gpu_ring_set_expanded(c, k, 1); /* all of them, or a stop */
            return;
        }
        sink = (sub_sink){b->subs, 0};
        for (uint32_t j = c->chunk_begin[k]; j < c->chunk_begin[k + 1]; j++)
            gpu_expand(&c->plans[c->order[j]], c->order[j], c->rows, sub_store, &sink);
        gpu_ring_set_expanded(c, k + 1, 0);
    }
}

/* The symmetric part of the unique count of the tasks to run, while the devices run;
 * reused tasks and what a stop cuts short are done in the fold. */
static void fixed_sums(gpu_ctx *c)
{
    for (uint32_t j = 0; j < c->m && !gpu_stopping(c); j++) {
        c->fixed[c->order[j]] = d4_fixed_sum(c->job->n, &c->tasks[c->order[j]]);
        c->fixed_ok[c->order[j]] = 1;
    }
}

/* Fold: everything counted, reused or run, into the result, even after a stop. Returns
 * how many tasks are done. */
static uint64_t run_fold(gpu_ctx *c, nq_result *out)
{
    u128 total = 0, unique = 0;
    uint64_t n_done = 0;

    for (uint64_t i = 0; i < c->n_plans; i++) {
        const task *t = &c->tasks[i];
        if (!c->done[i])
            continue;
        total += (u128)c->subtotal[i] * t->weight;
        if (!c->fixed_ok[i])
            c->fixed[i] = d4_fixed_sum(c->job->n, t);
        unique += (c->subtotal[i] + c->fixed[i]) / (8u / t->weight); /* d4_unique's Burnside */
        n_done++;
    }
    out->total = u128_pack(total);
    out->unique = u128_pack(unique);
    return n_done;
}

/* Once the tasks are planned and the device threads started: the layout, the ring and
 * the expansion, in this thread while the devices count. */
static void run_expand(gpu_ctx *c, int n_devs, nq_result *out)
{
    gpu_plan_layout(c, n_devs);
    out->prefix_rows = c->rows;
    if (gpu_ring_alloc(c, n_devs) != NQ_OK) {
        gpu_ring_fail(c, NQ_ENOMEM);
        gpu_ring_set_ready(c, -1);
        return;
    }
    gpu_ring_set_ready(c, 1);
    chunks_expand(c);
    fixed_sums(c);
}

int gpu_run(const gpu_job *job, const gpu_backend *be, nq_result *out)
{
    gpu_ctx c;
    int devs[64], n_devs, rc;
    crew hosts = {0};
    uint64_t n_tasks, n_wanted;
    gpu_device_thread *threads = NULL;

    memset(out, 0, sizeof(*out));
    memset(&c, 0, sizeof(c));
    out->engine = NQ_ENGINE_CUDA;
    out->has_unique = 1;
    n_devs = gpu_device_pick(job, be, devs);
    if (n_devs < 0)
        return n_devs;
    out->n_threads = n_devs;
    n_tasks = d4_enumerate(job->n, NULL, NULL);
    n_wanted = run_wanted(job->rs, n_tasks);
    out->tasks = n_wanted;
    run_progress_reset(job->rs, n_wanted);
    c.job = job;
    c.be = be;
    run_stop_init(&c.stop, job->rs);
    atomic_init(&c.next_chunk, 0);
    threads = calloc((size_t)n_devs, sizeof(*threads));
    rc = threads ? gpu_plan_tasks(&c, n_tasks) : NQ_ENOMEM;
    if (rc != NQ_OK)
        goto out;
    run_reuse(&c);

    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.cond, NULL);
    gpu_device_start(&c, &hosts, threads, devs, n_devs);
    run_expand(&c, n_devs, out);
    crew_join(&hosts);
    pthread_cond_destroy(&c.cond);
    pthread_mutex_destroy(&c.lock);
    rc = run_outcome(&c.stop, run_fold(&c, out) == n_wanted);
out:
    gpu_ring_free(&c);
    gpu_plan_free(&c);
    free(threads);
    return rc;
}
