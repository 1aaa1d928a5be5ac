/* The GPU engine's run: the d4 border tasks, each cut into sub-tasks by placing a few
 * more rows, handed out in chunks to one host thread per device, and the per-device
 * counts folded back into per-task subtotals, hooks, total and unique count. */
#ifndef NQ_GPU_RUN_H
#define NQ_GPU_RUN_H

#include <stdint.h>

#include "gpu/backend.h"
#include "nqueens/nqueens.h"
#include "runtime/run.h"

typedef struct gpu_job {
    int n;
    uint64_t device_mask; /* bit i selects device i; 0 = every device */
    int expand_rows;      /* inner rows the host places per sub-task; 0 = auto */
    const nq_hooks *hooks;
    run_state *rs;       /* the solver's progress, cancel flag and task filter */
    nq_gpu_settings gpu; /* tuning; 0 members: built-in values */
} gpu_job;

/* Runs the job on the backend's devices. Task ids are the d4 engine's, so subtotals
 * compare task by task. Returns NQ_OK, NQ_ENODEV, NQ_EDEVICE, NQ_ENOMEM, NQ_ETHREAD,
 * NQ_ECANCELED or NQ_ECALLBACK; out holds what was counted in any case. */
int gpu_run(const gpu_job *job, const gpu_backend *be, nq_result *out);

#endif
