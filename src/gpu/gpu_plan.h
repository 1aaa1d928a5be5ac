/* What a GPU run counts and how it is cut: each d4 task's search plan, the depth the host
 * expands to, and the chunks the devices share. */
#ifndef NQ_GPU_PLAN_H
#define NQ_GPU_PLAN_H

#include <stdint.h>

#include "core/task.h"
#include "gpu/gpu_ctx.h"
#include "gpu/search.h"
#include "nqueens/nqueens.h"

/* The search plan of d4 task t on an n x n board (n >= 2): the d4 engine's plan, with
 * the rows past its depth zeroed and each step's reads packed. */
void gpu_plan_build(int n, const task *t, search_plan *p);

/* The expansion depth gpu_run chooses for n on n_devices devices (auto rows), with gpu's
 * sub-task target (gpu NULL or its member 0: the built-in one). */
int gpu_plan_auto_rows(int n, int n_devices, const nq_gpu_settings *gpu);

/* The run's n_tasks d4 tasks with their search plans, and room for each task's results
 * and for the layout. NQ_OK or NQ_ENOMEM (gpu_plan_free frees what was made). */
int gpu_plan_tasks(gpu_ctx *c, uint64_t n_tasks);

/* Lays out the tasks in c->order for n_devs devices: the host depth (c->rows), each
 * task's sub-task offsets, the stack the walk needs and the chunks. */
void gpu_plan_layout(gpu_ctx *c, int n_devs);

void gpu_plan_free(gpu_ctx *c);

#endif
