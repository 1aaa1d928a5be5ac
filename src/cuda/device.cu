/* The CUDA backend of the GPU engine: one persistent kernel in which every thread walks
 * one sub-task at a time with the search of search.h, its stack in shared memory, and
 * takes the next sub-task from one atomic index the moment its walk ends. Errors become
 * NQ_E* codes; nothing here prints. */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <stdlib.h>

#include "cuda/backend.h"
#include "nqueens/nqueens.h"

namespace cg = cooperative_groups;

/* Threads per block: the stack stride. 128 leaves room for several blocks per
 * multiprocessor whatever the stack depth, so the scheduler can fill it. */
#define DEVICE_BLOCK 128

/* Each thread loops: when its walk is done it stores the count and takes a sub-task,
 * otherwise it takes one step. A step is one node, so the threads of a warp stay on the
 * same few instructions whether they are deep in a long walk or starting a short one;
 * the grab is warp-aggregated (one atomic per group of threads that grab together). */
__global__ void __launch_bounds__(DEVICE_BLOCK)
    device_kernel(const search_plan *__restrict__ plans, const search_sub *__restrict__ subs,
                  unsigned long long n_subs, unsigned long long *__restrict__ counts,
                  unsigned long long *next)
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
            if (g.thread_rank() == 0)
                base = atomicAdd(next, (unsigned long long)g.size());
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
    case cudaErrorNoKernelImageForDevice:
        return NQ_ENODEV;
    default:
        return NQ_EDEVICE;
    }
}

static int device_count(void *user)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    (void)user;
    if (e != cudaSuccess)
        return status_of(e) == NQ_EDEVICE ? NQ_ENODEV : status_of(e);
    return n > 0 ? n : NQ_ENODEV;
}

/* Tuning for device sessions: NQ_CUDA_BLOCKS_PER_SM overrides the occupancy figure. */
static int env_int(const char *name)
{
    const char *v = getenv(name);
    return v ? atoi(v) : 0;
}

static int device_run(void *user, int dev, const search_plan *plans, uint32_t n_plans,
                      const search_sub *subs, uint64_t n_subs, int levels, uint64_t *counts)
{
    search_plan *d_plans = NULL;
    search_sub *d_subs = NULL;
    unsigned long long *d_counts = NULL, *d_next = NULL;
    size_t smem = (size_t)(levels > 0 ? levels : 1) * 4 * DEVICE_BLOCK * sizeof(uint32_t);
    int sms = 0, per_sm = 0;
    cudaError_t e;

    (void)user;
#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((e = (call)) != cudaSuccess)                                                           \
            goto done;                                                                             \
    } while (0)
    CHECK(cudaSetDevice(dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaFuncSetAttribute(device_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int)smem));
    CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, device_kernel, DEVICE_BLOCK, smem));
    if (env_int("NQ_CUDA_BLOCKS_PER_SM") > 0 && env_int("NQ_CUDA_BLOCKS_PER_SM") < per_sm)
        per_sm = env_int("NQ_CUDA_BLOCKS_PER_SM");
    if (per_sm < 1) {
        e = cudaErrorInvalidConfiguration;
        goto done;
    }
    CHECK(cudaMalloc(&d_plans, sizeof(*plans) * n_plans));
    CHECK(cudaMalloc(&d_subs, sizeof(*subs) * n_subs));
    CHECK(cudaMalloc(&d_counts, sizeof(*d_counts) * n_subs));
    CHECK(cudaMalloc(&d_next, sizeof(*d_next)));
    CHECK(cudaMemcpy(d_plans, plans, sizeof(*plans) * n_plans, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_subs, subs, sizeof(*subs) * n_subs, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_next, 0, sizeof(*d_next)));
    device_kernel<<<sms * per_sm, DEVICE_BLOCK, smem>>>(d_plans, d_subs, n_subs, d_counts, d_next);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(counts, d_counts, sizeof(*d_counts) * n_subs, cudaMemcpyDeviceToHost));
#undef CHECK
done:
    cudaFree(d_plans);
    cudaFree(d_subs);
    cudaFree(d_counts);
    cudaFree(d_next);
    if (e == cudaSuccess)
        return NQ_OK;
    cudaGetLastError(); /* clear a launch error, so that the next run starts clean */
    if (e == cudaErrorMemoryAllocation)
        return NQ_ENOMEM;
    /* built for other architectures than this GPU's: unusable, not failing */
    return e == cudaErrorNoKernelImageForDevice ? NQ_ENODEV : NQ_EDEVICE;
}

extern "C" const engine_backend device_backend = {NULL, device_count, device_run};
