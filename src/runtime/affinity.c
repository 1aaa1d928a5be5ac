/* Worker placement. The allowed CPU set is the process's own binding, not the host's
 * CPU list, so taskset and container cpusets are respected. Pinning is best effort:
 * any failure leaves the thread where the scheduler put it. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "nqueens/nqueens.h"
#include "runtime/affinity.h"

int affinity_cpu_count(void)
{
    cpu_set_t set;
    int n;

    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 1;
    n = CPU_COUNT(&set);
    return n > 0 ? n : 1;
}

int nq_available_cpus(void)
{
    return affinity_cpu_count();
}

int nq_resolve_threads(int n_threads)
{
    if (n_threads < 0 || n_threads > NQ_MAX_THREADS)
        return NQ_EINVAL;
    return n_threads ? n_threads : affinity_cpu_count();
}

/* The cgroup v2 limit the process sees at its root (what containers and Slurm's
 * cgroup plugin set): "max" or missing means none. */
static uint64_t cgroup_memory_limit(void)
{
    unsigned long long v = 0;
    FILE *f = fopen("/sys/fs/cgroup/memory.max", "r");
    int got = f ? fscanf(f, "%llu", &v) : 0;

    if (f)
        fclose(f);
    return got == 1 && v > 0 ? (uint64_t)v : UINT64_MAX;
}

uint64_t affinity_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    uint64_t phys = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : UINT64_MAX;
    uint64_t group = cgroup_memory_limit();
    return group < phys ? group : phys;
}

#if NQ_HAVE_HWLOC
#include <hwloc.h>

struct affinity {
    hwloc_topology_t topo;
    int n_workers;
    hwloc_bitmap_t *cpus; /* one single-PU set per worker */
};

affinity *affinity_plan(int n_workers)
{
    affinity *a = calloc(1, sizeof(*a));
    hwloc_bitmap_t allowed = NULL;
    int n_cores, max_pus = 0, w = 0;

    if (!a)
        return NULL;
    if (hwloc_topology_init(&a->topo) != 0) {
        free(a);
        return NULL;
    }
    if (hwloc_topology_load(a->topo) != 0)
        goto error;
    a->n_workers = n_workers;
    a->cpus = calloc((size_t)n_workers, sizeof(*a->cpus));
    allowed = hwloc_bitmap_alloc();
    if (!a->cpus || !allowed || hwloc_get_cpubind(a->topo, allowed, HWLOC_CPUBIND_PROCESS) != 0)
        goto error;
    n_cores = hwloc_get_nbobjs_by_type(a->topo, HWLOC_OBJ_CORE);
    if (n_cores <= 0)
        goto error;
    for (int c = 0; c < n_cores; c++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(a->topo, HWLOC_OBJ_CORE, c);
        int k = hwloc_bitmap_weight(core->cpuset);
        if (k > max_pus)
            max_pus = k;
    }
    /* Round k takes the k-th allowed PU of every core: physical cores before SMT
     * siblings. Workers beyond the allowed PUs wrap around. */
    while (w < n_workers) {
        int placed = 0;
        for (int k = 0; k < max_pus && w < n_workers; k++) {
            for (int c = 0; c < n_cores && w < n_workers; c++) {
                hwloc_obj_t core = hwloc_get_obj_by_type(a->topo, HWLOC_OBJ_CORE, c);
                hwloc_bitmap_t set = hwloc_bitmap_alloc();
                int pu = -1;
                if (!set)
                    goto error;
                hwloc_bitmap_and(set, core->cpuset, allowed);
                for (int i = 0; i <= k && (i == 0 || pu >= 0); i++)
                    pu = hwloc_bitmap_next(set, pu);
                if (pu >= 0) {
                    hwloc_bitmap_only(set, (unsigned)pu);
                    a->cpus[w++] = set;
                    set = NULL;
                    placed++;
                }
                if (set)
                    hwloc_bitmap_free(set);
            }
        }
        if (!placed)
            goto error; /* nothing allowed at all */
    }
    hwloc_bitmap_free(allowed);
    return a;
error:
    if (allowed)
        hwloc_bitmap_free(allowed);
    affinity_free(a);
    return NULL;
}

int affinity_pin_self(affinity *a, int worker)
{
    if (!a || worker < 0 || worker >= a->n_workers || !a->cpus[worker])
        return 0;
    return hwloc_set_cpubind(a->topo, a->cpus[worker], HWLOC_CPUBIND_THREAD) == 0;
}

void affinity_free(affinity *a)
{
    if (!a)
        return;
    if (a->cpus) {
        for (int i = 0; i < a->n_workers; i++)
            if (a->cpus[i])
                hwloc_bitmap_free(a->cpus[i]);
        free(a->cpus);
    }
    hwloc_topology_destroy(a->topo);
    free(a);
}

#else /* no hwloc: the no-op fallback */

affinity *affinity_plan(int n_workers)
{
    (void)n_workers;
    return NULL;
}

int affinity_pin_self(affinity *a, int worker)
{
    (void)a;
    (void)worker;
    return 0;
}

void affinity_free(affinity *a)
{
    (void)a;
}

#endif
