/* The host thread of each device: it opens its device, takes chunks, keeps two in flight
 * and records each task of a chunk that ends. */
#ifndef NQ_GPU_DEVICE_H
#define NQ_GPU_DEVICE_H

#include "gpu/backend.h"
#include "gpu/gpu_ctx.h"
#include "gpu/gpu_run.h"
#include "runtime/crew.h"

typedef struct gpu_device_thread {
    gpu_ctx *c;
    int dev;
} gpu_device_thread;

/* The devices of be that job asks for, into devs[0..63]: their number, or NQ_ENODEV
 * (none, or the mask names one beyond those present), or the backend's error. */
int gpu_device_pick(const gpu_job *job, const gpu_backend *be, int *devs);

/* Starts one host thread per device of devs (none without tasks to run), in hosts, with
 * threads[0..n_devs-1] as their arguments; a thread that did not start fails the run. */
void gpu_device_start(gpu_ctx *c, crew *hosts, gpu_device_thread *threads, const int *devs,
                      int n_devs);

#endif
