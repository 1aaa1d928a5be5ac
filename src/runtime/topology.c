/* What the machine offers this process, for benchmark reports: CPU model, logical CPUs,
 * physical cores, the affinity mask and NUMA nodes. hwloc answers when built in; without
 * it the counts come from sysconf and /sys, and what cannot be told is left 0. */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "nqueens/nqueens.h"
#include "runtime/affinity.h"

#if NQ_HAVE_HWLOC
#include <hwloc.h>
#endif

/* The affinity mask as a CPU list ("0-3,8"), the form taskset and /sys use. */
static void topology_mask_list(char *buf, size_t size)
{
    cpu_set_t set;
    size_t len = 0;

    buf[0] = '\0';
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        int end = c;
        int k;
        if (!CPU_ISSET(c, &set))
            continue;
        while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set))
            end++;
        k = end > c ? snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", c, end)
                    : snprintf(buf + len, size - len, "%s%d", len ? "," : "", c);
        if (k < 0 || (size_t)k >= size - len) {
            buf[len] = '\0'; /* a mask too long for the field is cut at a whole range */
            return;
        }
        len += (size_t)k;
        c = end;
    }
}

static void topology_cpuinfo_model(char *buf, size_t size)
{
    char line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");

    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon)
            continue;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(buf, size, "%s", colon);
        break;
    }
    fclose(f);
}

static int topology_sys_numa_nodes(void)
{
    DIR *d = opendir("/sys/devices/system/node");
    struct dirent *e;
    int n = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9')
            n++;
    closedir(d);
    return n;
}

#if NQ_HAVE_HWLOC
static void topology_from_hwloc(nq_topology *t)
{
    hwloc_topology_t topo;
    hwloc_obj_t pkg;
    int k;

    if (hwloc_topology_init(&topo) != 0)
        return;
    if (hwloc_topology_load(topo) == 0) {
        k = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        if (k > 0)
            t->physical_cores = k;
        k = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
        if (k > 0)
            t->numa_nodes = k;
        pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
        if (pkg) {
            const char *model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
            if (model && *model)
                snprintf(t->cpu_model, sizeof(t->cpu_model), "%s", model);
        }
    }
    hwloc_topology_destroy(topo);
}
#endif

int nq_topology_info(nq_topology *t)
{
    long online;

    if (!t)
        return NQ_EINVAL;
    memset(t, 0, sizeof(*t));
    online = sysconf(_SC_NPROCESSORS_ONLN);
    t->logical_cpus = online > 0 ? (int)online : 1;
    t->allowed_cpus = affinity_cpu_count();
    topology_mask_list(t->allowed_list, sizeof(t->allowed_list));
#if NQ_HAVE_HWLOC
    topology_from_hwloc(t);
#endif
    if (!t->cpu_model[0])
        topology_cpuinfo_model(t->cpu_model, sizeof(t->cpu_model));
    if (!t->numa_nodes)
        t->numa_nodes = topology_sys_numa_nodes();
    return NQ_OK;
}
