/* The CUDA backend of the GPU engine: one persistent kernel in which every thread walks
 * one sub-task at a time with the search of search.h, its stack in shared memory, and
 * takes the next sub-task from one atomic index the moment its walk ends. Two batches
 * run at once on two streams, so that while one ends, with only a few long walks still
 * going, the next already fills the multiprocessors. Errors become NQ_E* codes; nothing
 * here prints. */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <stdlib.h>
#include <time.h>

#include "gpu/backend.h"
#include "nqueens/nqueens.h"

namespace cg = cooperative_groups;

/* Threads per block: the stack stride. 128 leaves room for several blocks per
 * multiprocessor whatever the stack depth, so the scheduler can fill it. */
#define DEVICE_BLOCK 128

/* Each thread loops: when its walk is done it stores the count and takes a sub-task,
 * otherwise it takes one step. A step places one queen, so the threads of a warp stay
 * on the same few instructions whether they are deep in a long walk or starting a short
 * one; the grab is warp-aggregated (one atomic per group of threads that grab together). */
__global__ void __launch_bounds__(DEVICE_BLOCK)
    device_kernel(const search_plan *__restrict__ plans, const search_sub *__restrict__ subs,
                  unsigned long long n_subs, unsigned long long *__restrict__ counts,
                  unsigned long long *next, const volatile int *stop)
{
    extern __shared__ uint32_t device_stack[];
    uint32_t *stack = device_stack + threadIdx.x;
    search_walk w;
    unsigned long long i = 0;
    int busy = 0;

    w.count = 0;
    for (;;) {
        if (!busy) {
            cg::coalesced_group g = cg::coalesced_threads();
            unsigned long long base = 0;
            /* Once the host says stop, no thread takes another sub-task: those taken
             * are finished, so *next ends as the count of leading complete ones. */
            if (g.thread_rank() == 0)
                base = *stop ? n_subs : atomicAdd(next, (unsigned long long)g.size());
            i = g.shfl(base, 0) + g.thread_rank();
            if (i >= n_subs)
                break;
            const search_sub s = subs[i];
            busy = search_start(&w, &plans[s.plan_depth >> 5], (int)(s.plan_depth & 31), s.cols,
                                s.ld, s.rd);
            if (!busy) {
                counts[i] = w.count;
                continue;
            }
        }
        busy = search_step(&w, stack, DEVICE_BLOCK);
        if (!busy)
            counts[i] = w.count;
    }
}

typedef struct device_slot {
    cudaStream_t stream;
    cudaEvent_t ended;
    search_sub *subs;
    unsigned long long *counts, *next;
    uint64_t n;
    uint64_t *host_counts;
} device_slot;

typedef struct device_handle {
    int dev, grid;
    size_t smem;
    uint64_t cap;
    search_plan *plans;
    int *stop;            /* the kernel's stop flag, in device memory */
    int *stop_source;     /* pinned host memory holding 1, copied over *stop to stop */
    cudaStream_t control; /* for that copy, which must not wait for the kernels */
    device_slot slot[2];
} device_handle;

static int status_of(cudaError_t e)
{
    switch (e) {
    case cudaSuccess:
        return NQ_OK;
    case cudaErrorMemoryAllocation:
        return NQ_ENOMEM;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
    case cudaErrorInvalidDevice:
    case cudaErrorDevicesUnavailable:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
    case cudaErrorNoKernelImageForDevice: /* built for other GPUs: unusable, not failing */
        return NQ_ENODEV;
    default:
        return NQ_EDEVICE;
    }
}

/* The status of a failed call, with the runtime's sticky last error cleared so that a
 * later run in this process starts clean. */
static int fail(cudaError_t e)
{
    cudaGetLastError();
    return status_of(e);
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return fail(e_);                                                                       \
    } while (0)

static int device_count(void *user)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    (void)user;
    if (e != cudaSuccess) {
        int rc = fail(e);
        return rc == NQ_EDEVICE ? NQ_ENODEV : rc;
    }
    return n > 0 ? n : NQ_ENODEV;
}

static void device_close(void *handle)
{
    device_handle *h = (device_handle *)handle;
    if (!h)
        return;
    cudaSetDevice(h->dev);
    for (int k = 0; k < 2; k++) {
        device_slot *s = &h->slot[k];
        if (s->stream)
            cudaStreamSynchronize(s->stream);
        cudaFree(s->subs);
        cudaFree(s->counts);
        cudaFree(s->next);
        if (s->ended)
            cudaEventDestroy(s->ended);
        if (s->stream)
            cudaStreamDestroy(s->stream);
    }
    if (h->control)
        cudaStreamDestroy(h->control);
    cudaFree(h->plans);
    cudaFree(h->stop);
    cudaFreeHost(h->stop_source);
    cudaGetLastError();
    free(h);
}

static int device_open_into(device_handle *h, const search_plan *plans, uint32_t n_plans)
{
    CHECK(cudaSetDevice(h->dev));
    /* the first call that needs the context creates it: the slow part of starting */
    CHECK(cudaMalloc(&h->plans, sizeof(*plans) * n_plans));
    CHECK(cudaMemcpy(h->plans, plans, sizeof(*plans) * n_plans, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&h->stop, sizeof(int)));
    CHECK(cudaMemset(h->stop, 0, sizeof(int)));
    CHECK(cudaMallocHost(&h->stop_source, sizeof(int)));
    *h->stop_source = 1;
    CHECK(cudaStreamCreateWithFlags(&h->control, cudaStreamNonBlocking));
    for (int k = 0; k < 2; k++) {
        CHECK(cudaStreamCreateWithFlags(&h->slot[k].stream, cudaStreamNonBlocking));
        CHECK(cudaEventCreateWithFlags(&h->slot[k].ended, cudaEventDisableTiming));
        CHECK(cudaMalloc(&h->slot[k].next, sizeof(unsigned long long)));
    }
    return NQ_OK;
}

static int device_open(void *user, int dev, const search_plan *plans, uint32_t n_plans,
                       void **handle)
{
    device_handle *h = (device_handle *)calloc(1, sizeof(*h));
    int rc;

    (void)user;
    *handle = NULL;
    if (!h)
        return NQ_ENOMEM;
    h->dev = dev;
    rc = device_open_into(h, plans, n_plans);
    if (rc != NQ_OK) {
        device_close(h);
        return rc;
    }
    *handle = h;
    return NQ_OK;
}

static int device_start(void *handle, uint64_t max_subs, int levels, const nq_gpu_settings *gpu)
{
    device_handle *h = (device_handle *)handle;
    int sms = 0, per_sm = 0, cap = gpu->blocks_per_sm;

    h->smem = (size_t)(levels > 0 ? levels : 1) * 4 * DEVICE_BLOCK * sizeof(uint32_t);
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, h->dev));
    CHECK(cudaFuncSetAttribute(device_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int)h->smem));
    /* The stacks, not the registers, bound the resident blocks (about 1000 threads per
     * multiprocessor at n = 21); the carveout (percent of the unified L1 given to
     * shared memory) is for device sessions to try whether more of it helps. */
    if (gpu->carveout > 0)
        CHECK(cudaFuncSetAttribute(device_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   gpu->carveout));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, device_kernel, DEVICE_BLOCK,
                                                        h->smem));
    if (cap > 0 && cap < per_sm)
        per_sm = cap;
    if (per_sm < 1)
        return NQ_EDEVICE;
    h->grid = sms * per_sm;
    h->cap = max_subs > 0 ? max_subs : 1;
    for (int k = 0; k < 2; k++) {
        CHECK(cudaMalloc(&h->slot[k].subs, sizeof(search_sub) * h->cap));
        CHECK(cudaMalloc(&h->slot[k].counts, sizeof(unsigned long long) * h->cap));
    }
    return NQ_OK;
}

static int device_submit(void *handle, int slot, const search_sub *subs, uint64_t n_subs,
                         uint64_t *counts)
{
    device_handle *h = (device_handle *)handle;
    device_slot *s = &h->slot[slot];

    if (n_subs > h->cap)
        return NQ_EINVAL;
    s->n = n_subs;
    s->host_counts = counts;
    /* from pageable memory: returns once staged, while the other slot's kernel runs */
    CHECK(
        cudaMemcpyAsync(s->subs, subs, sizeof(*subs) * n_subs, cudaMemcpyHostToDevice, s->stream));
    CHECK(cudaMemsetAsync(s->next, 0, sizeof(*s->next), s->stream));
    device_kernel<<<h->grid, DEVICE_BLOCK, h->smem, s->stream>>>(h->plans, s->subs, n_subs,
                                                                 s->counts, s->next, h->stop);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(s->ended, s->stream));
    return NQ_OK;
}

static int device_wait(void *handle, int slot, int (*stop)(void *arg), void *arg, uint64_t *done)
{
    device_handle *h = (device_handle *)handle;
    device_slot *s = &h->slot[slot];
    unsigned long long taken = 0;
    int stopped = 0;
    cudaError_t e;

    *done = 0;
    /* Poll rather than block, to see a stop within a fraction of a millisecond; the
     * other slot keeps the GPU busy meanwhile. */
    while ((e = cudaEventQuery(s->ended)) == cudaErrorNotReady) {
        struct timespec nap = {0, 200000};
        if (!stopped && stop(arg)) {
            CHECK(cudaMemcpyAsync(h->stop, h->stop_source, sizeof(int), cudaMemcpyHostToDevice,
                                  h->control));
            stopped = 1;
        }
        nanosleep(&nap, NULL);
    }
    CHECK(e);
    /* Always read how far it got: the kernel may have seen the flag that a wait on the
     * other slot set, and ended early before this wait first looked. */
    CHECK(cudaMemcpy(&taken, s->next, sizeof(taken), cudaMemcpyDeviceToHost));
    if (taken > s->n)
        taken = s->n;
    CHECK(
        cudaMemcpy(s->host_counts, s->counts, sizeof(*s->counts) * taken, cudaMemcpyDeviceToHost));
    *done = taken;
    return NQ_OK;
}

#undef CHECK

extern "C" const gpu_backend gpu_cuda_backend = {
    NULL, device_count, device_open, device_start, device_submit, device_wait, device_close};
