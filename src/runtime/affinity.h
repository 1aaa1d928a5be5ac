/* Which CPUs the workers may use, and pinning them there (hwloc when built with it). */
#ifndef NQ_AFFINITY_H
#define NQ_AFFINITY_H

#include <stdint.h>

typedef struct affinity affinity;

/* CPUs in the process's affinity mask; at least 1. */
int affinity_cpu_count(void);
/* The memory this process may take, in bytes: the machine's physical memory, or the
 * limit of its control group where that is lower (a container's, a batch job's), or
 * UINT64_MAX when the system says neither. */
uint64_t affinity_memory_bytes(void);

/* A placement plan for n_workers: one per physical core first, then the second
 * hardware threads of each core. Returns NULL when pinning is unavailable (no hwloc,
 * topology failed); the workers then run unpinned. */
affinity *affinity_plan(int n_workers);
/* Bind the calling thread to worker i's CPU; 1 on success, 0 if the binding failed. */
int affinity_pin_self(affinity *a, int worker);
void affinity_free(affinity *a);

#endif
