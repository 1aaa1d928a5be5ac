/* The host thread of each device (see gpu_device.h), and the choice of devices. The
 * device work itself goes through a gpu_backend, so that the tests run all of this on
 * the CPU. */
#include "gpu/gpu_device.h"
#include "core/u128.h"
#include "gpu/gpu_ring.h"

/* Records the tasks of chunk whose sub-tasks are all among the first done of it: all of
 * them unless the device was stopped. A task cut by the stop is run again next time.
 * The chunk's buffer b is free again afterwards. */
static void chunk_finish(gpu_ctx *c, uint32_t chunk, gpu_chunk_buf *b, uint64_t done)
{
    const nq_hooks *h = c->job->hooks;
    uint64_t first = c->sub_begin[c->chunk_begin[chunk]], n_done = 0;
    u128 sum = 0;

    for (uint32_t j = c->chunk_begin[chunk]; j < c->chunk_begin[chunk + 1]; j++) {
        uint32_t id = c->order[j];
        uint64_t sub = 0;
        if (c->sub_begin[j + 1] - first > done)
            break;
        for (uint64_t i = c->sub_begin[j]; i < c->sub_begin[j + 1]; i++)
            sub += b->counts[i - first];
        if (h && h->task_done && h->task_done(h->user, id, sub) != 0) {
            run_halt(&c->stop, NQ_ECALLBACK);
            continue; /* not counted: the hook could not record it */
        }
        c->subtotal[id] = sub;
        c->done[id] = 1;
        sum += (u128)sub * c->tasks[id].weight;
        n_done++;
    }
    pthread_mutex_lock(&c->lock);
    run_slot_add(gpu_progress_slot(c), sum, n_done);
    pthread_mutex_unlock(&c->lock);
    gpu_ring_release(c, b);
}

static int stop_polled(void *arg)
{
    return gpu_stopping(arg);
}

/* One device: chunks in the order taken, at most two in flight (slots alternate), each
 * finished in turn. After a stop or an error it submits nothing more but still waits
 * for what it submitted, so that nothing runs on after the engine returns and every
 * complete task is recorded; a chunk taken but not submitted is abandoned (its buffer
 * freed, its tasks left for the next run). */
static void device_main(void *p)
{
    gpu_device_thread *t = p;
    gpu_ctx *c = t->c;
    const gpu_backend *be = c->be;
    void *h = NULL;
    uint32_t chunk_in[2];
    gpu_chunk_buf *buf_in[2];
    int head = 0, busy = 0, rc;

    rc = be->open(be->user, t->dev, c->plans, c->n_plans, &h);
    if (rc != NQ_OK || !gpu_ring_wait_ready(c))
        goto out;
    rc = be->start(h, c->max_chunk_subs, c->levels, &c->job->gpu);
    while (rc == NQ_OK || busy) {
        while (rc == NQ_OK && busy < 2 && !gpu_stopping(c)) {
            uint32_t chunk = atomic_fetch_add(&c->next_chunk, 1);
            uint64_t first, n;
            int slot = (head + busy) & 1;
            gpu_chunk_buf *b;
            if (chunk >= c->n_chunks)
                break;
            first = c->sub_begin[c->chunk_begin[chunk]];
            n = c->sub_begin[c->chunk_begin[chunk + 1]] - first;
            b = gpu_ring_wait_expanded(c, chunk);
            if (!b)
                break; /* the expansion stopped */
            if (!n) {
                chunk_finish(c, chunk, b, 0);
                continue;
            }
            rc = be->submit(h, slot, b->subs, n, b->counts);
            if (rc != NQ_OK) {
                gpu_ring_release(c, b);
                break;
            }
            chunk_in[slot] = chunk;
            buf_in[slot] = b;
            busy++;
        }
        if (rc != NQ_OK)
            gpu_ring_fail(c, rc); /* the other devices and the expansion stop too */
        if (!busy)
            break;
        {
            uint64_t done = 0;
            int w = be->wait(h, head, stop_polled, c, &done);
            if (w == NQ_OK)
                chunk_finish(c, chunk_in[head], buf_in[head], done);
            else
                gpu_ring_release(c, buf_in[head]);
            if (w != NQ_OK && rc == NQ_OK)
                rc = w;
            head ^= 1;
            busy--;
        }
    }
out:
    if (rc != NQ_OK)
        gpu_ring_fail(c, rc);
    if (h)
        be->close(h);
    pthread_mutex_lock(&c->lock);
    c->live--;
    pthread_cond_broadcast(&c->cond); /* the expansion may wait for this device's buffers */
    pthread_mutex_unlock(&c->lock);
}

int gpu_device_pick(const gpu_job *job, const gpu_backend *be, int *devs)
{
    int count = be->devices(be->user), n = 0;
    if (count < 0)
        return count;
    for (int d = 0; d < count && d < 64; d++)
        if (!job->device_mask || (job->device_mask >> d & 1))
            devs[n++] = d;
    /* A mask naming devices beyond those present is a request this machine cannot
     * meet: report it rather than quietly running on fewer. */
    if (job->device_mask && (count >= 64 ? 0 : job->device_mask >> count))
        return NQ_ENODEV;
    return n ? n : NQ_ENODEV;
}

/* The devices start (a CUDA context takes a good part of a second) while the calling
 * thread expands the sub-tasks. */
void gpu_device_start(gpu_ctx *c, crew *hosts, gpu_device_thread *threads, const int *devs,
                      int n_devs)
{
    int n = c->m ? n_devs : 0, rc;

    for (int d = 0; d < n; d++)
        threads[d] = (gpu_device_thread){.c = c, .dev = devs[d]};
    pthread_mutex_lock(&c->lock);
    c->live = n; /* less those that did not start, below */
    pthread_mutex_unlock(&c->lock);
    rc = crew_start(hosts, n, "nq-gpu", NULL, device_main, threads, sizeof(*threads));
    if (rc != NQ_OK) {
        pthread_mutex_lock(&c->lock);
        c->live -= n - hosts->started;
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
        gpu_ring_fail(c, rc);
    }
}
