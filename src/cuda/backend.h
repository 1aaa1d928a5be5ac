/* What the GPU engine needs from a device: how many there are and a way to count a batch
 * of sub-tasks on one. The CUDA backend (device.cu) is one; the tests plug in a CPU one
 * that runs the same search code, so the whole host side is checked without a GPU. */
#ifndef NQ_CUDA_BACKEND_H
#define NQ_CUDA_BACKEND_H

#include <stdint.h>

#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct engine_backend {
    void *user;
    /* Devices this backend can use (>= 1), or a negative NQ_E* status: NQ_ENODEV when
     * there is no device or no driver. */
    int (*devices)(void *user);
    /* On device dev, counts[i] = completions of subs[i] for i < n_subs, whose plans are
     * plans[subs[i].plan_depth >> 5]. levels: the most stack levels a sub-task needs
     * (search_levels). Called from one host thread per device; returns NQ_OK or a
     * negative NQ_E* status. */
    int (*run)(void *user, int dev, const search_plan *plans, uint32_t n_plans,
               const search_sub *subs, uint64_t n_subs, int levels, uint64_t *counts);
} engine_backend;

/* The CUDA backend; defined only in builds with CUDA (NQ_HAVE_CUDA). */
extern const engine_backend device_backend;

#ifdef __cplusplus
}
#endif

#endif
