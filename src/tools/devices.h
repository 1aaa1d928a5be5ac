/* --devices LIST for the cuda engine: GPU numbers and ranges ("0", "0,2", "1-3") or
 * "all", as the bit mask nq_settings.devices takes; and the engine's tuning knobs, which
 * the tools read from the environment for the library. */
#ifndef NQ_TOOLS_DEVICES_H
#define NQ_TOOLS_DEVICES_H

#include <stdint.h>

#include "nqueens/nqueens.h"

/* 0 on success with *mask set (0 for "all"), -1 on a malformed list or a number past
 * 63. */
int devices_parse(const char *s, uint64_t *mask);

/* The NQ_CUDA_* tuning variables into g (docs/gpu.md); unset or invalid ones
 * leave their member at 0, the library's built-in value. */
void devices_env(nq_gpu_settings *g);

#endif
