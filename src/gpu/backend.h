/* What the GPU engine needs from a device: how many there are, and a way to count
 * batches of sub-tasks on one, two batches in flight at a time so that the end of one
 * overlaps the start of the next. The CUDA backend (device.cu) is one; the tests plug in
 * a CPU one that runs the same search code, so the whole host side is checked without a
 * GPU. Every function returns NQ_OK or a negative NQ_E* status. */
#ifndef NQ_GPU_BACKEND_H
#define NQ_GPU_BACKEND_H

#include <stdint.h>

#include "gpu/search.h"
#include "nqueens/nqueens.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpu_backend {
    void *user;
    /* Devices this backend can use (>= 1), or NQ_ENODEV when there is no device or no
     * driver. */
    int (*devices)(void *user);
    /* Readies device dev for a run over plans[0..n_plans-1] (which stay valid until
     * close) and returns its handle. Called from the device's own host thread while the
     * host is still expanding the sub-tasks, so that starting the device costs no time;
     * submit, wait and close follow from the same thread. */
    int (*open)(void *user, int dev, const search_plan *plans, uint32_t n_plans, void **handle);
    /* Once the sub-tasks exist: no batch will hold more than max_subs, and none needs
     * more stack levels than levels (search_levels); gpu holds the run's tuning. */
    int (*start)(void *handle, uint64_t max_subs, int levels, const nq_gpu_settings *gpu);
    /* Starts counting subs[0..n_subs-1] in slot 0 or 1 (a free one) without waiting for
     * it: counts[i] will get the completions of subs[i]. Both arrays stay valid until
     * the slot's wait returns. */
    int (*submit)(void *handle, int slot, const search_sub *subs, uint64_t n_subs,
                  uint64_t *counts);
    /* Waits until the slot's batch ends, polling stop(arg) meanwhile; when stop says so,
     * the device takes no further sub-task, finishes those it holds and ends early.
     * *done gets the number of leading sub-tasks whose counts are complete: all of
     * them unless stopped. */
    int (*wait)(void *handle, int slot, int (*stop)(void *arg), void *arg, uint64_t *done);
    /* Releases the device; the handle is gone. Safe after any failure above. */
    void (*close)(void *handle);
} gpu_backend;

extern const gpu_backend gpu_cuda_backend;

#ifdef __cplusplus
}
#endif

#endif
