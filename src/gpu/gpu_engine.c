/* The GPU engine's descriptor, the row the engine table lists (engine_table.c): d4's
 * tasks, run by gpu_run on the CUDA backend, listed on the CPU. */
#include "config.h"
#include "engines/d4.h"
#include "engines/lex.h"
#include "engines/prefix.h"
#include "gpu/backend.h"
#include "gpu/gpu_run.h"

#if NQ_HAVE_CUDA
static int gpu_engine_run(const nq_settings *s, const nq_hooks *hooks, run_state *rs,
                          nq_result *out)
{
    gpu_job job = {s->n, s->devices, s->prefix_rows, hooks, rs, s->gpu};
    return gpu_run(&job, &gpu_cuda_backend, out);
}
#endif

/* The d4 tasks, so that subtotals compare id by id with the d4 engine's. */
const engine_desc engine_cuda = {
    .name = "cuda",
    .id = NQ_ENGINE_CUDA,
    .built = NQ_HAVE_CUDA,
    .takes_prefix_rows = 1, /* inner rows per GPU sub-task; its task set is d4's */
    .takes_devices = 1,
    .list = &lex_lister, /* on the CPU */
    D4_TASK_SET_MEMBERS,
#if NQ_HAVE_CUDA
    .run = gpu_engine_run,
#endif
};
