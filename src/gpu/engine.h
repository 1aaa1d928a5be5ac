/* The GPU engine's host side: the d4 border tasks, each cut into sub-tasks by placing a
 * few more rows, handed out in chunks to one host thread per device, and the per-device
 * counts folded back into per-task subtotals, hooks, total and unique count. */
#ifndef NQ_CUDA_ENGINE_H
#define NQ_CUDA_ENGINE_H

#include <stdint.h>

#include "core/task.h"
#include "gpu/backend.h"
#include "nqueens/nqueens.h"
#include "runtime/run.h"

typedef struct engine_job {
    int n;
    uint64_t device_mask; /* bit i selects device i; 0 = every device */
    int expand_rows;      /* inner rows the host places per sub-task; 0 = auto */
    const nq_hooks *hooks;
    run_state *rs;       /* the solver's progress, cancel flag and task filter */
    nq_gpu_settings gpu; /* tuning; 0 members: built-in values */
} engine_job;

/* Runs the job on the backend's devices. Task ids are the d4 engine's, so subtotals
 * compare task by task. Returns NQ_OK, NQ_ENODEV, NQ_EDEVICE, NQ_ENOMEM, NQ_ETHREAD,
 * NQ_ECANCELED or NQ_ECALLBACK; out holds what was counted in any case. */
int engine_run(const engine_job *job, const engine_backend *be, nq_result *out);

/* The search plan of d4 task t on an n x n board (n >= 2): the d4 engine's plan, with
 * the rows past its depth zeroed and each step's reads packed. */
void engine_plan_build(int n, const task *t, search_plan *p);

/* Receives one sub-task of the expansion; nonzero stops it. */
typedef int (*engine_sub_fn)(void *user, const search_sub *sub);

/* Places the first rows inner rows of plan p (index plan_index) on the host and emits
 * one sub-task per placement that survives the same pruning as the walk, in
 * lexicographic order: the CPU search loop (engines/search_tmpl.c), stopped at that
 * depth. Never goes deeper than leaves three rows to the walk, so every sub-task keeps
 * real work for the GPU. emit may be NULL to only count. Returns the number emitted
 * (stops early, returning the count so far, when emit asks). */
uint64_t engine_expand(const search_plan *p, uint32_t plan_index, int rows, engine_sub_fn emit,
                       void *user);

/* How many chunk buffers the host keeps for n_devices devices: what bounds its memory. */
int engine_ring_size(int n_devices);

/* The expansion depth engine_run chooses for n on n_devices devices (auto rows), with
 * gpu's sub-task target (gpu NULL or its member 0: the built-in one). */
int engine_auto_rows(int n, int n_devices, const nq_gpu_settings *gpu);

#endif
