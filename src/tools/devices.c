/* Parsing of --devices (see devices.h): strict, so that a typo never quietly selects
 * other GPUs than the ones meant. */
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "number.h"

int devices_parse(const char *s, uint64_t *mask)
{
    char buf[256], *save = NULL;
    uint64_t m = 0;

    if (!s || !*s || strlen(s) >= sizeof(buf))
        return -1;
    if (strcmp(s, "all") == 0) {
        *mask = 0;
        return 0;
    }
    strcpy(buf, s);
    if (buf[strlen(buf) - 1] == ',')
        return -1; /* strtok_r would skip the empty item */
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *dash = strchr(item, '-');
        long lo, hi;
        if (dash == item)
            return -1;
        if (dash)
            *dash = '\0';
        if (number_parse_long(item, 0, 63, &lo) != 0)
            return -1;
        hi = lo;
        if (dash && (number_parse_long(dash + 1, 0, 63, &hi) != 0 || hi < lo))
            return -1;
        for (long d = lo; d <= hi; d++)
            m |= 1ull << d;
    }
    if (!m || s[0] == ',' || strstr(s, ",,"))
        return -1;
    *mask = m;
    return 0;
}

/* A positive whole number, or 0 (unset, empty, not a number, trailing text or 0). */
static uint64_t env_count(const char *name)
{
    const char *v = getenv(name);
    char *end;
    unsigned long long x;

    if (!v || !*v)
        return 0;
    x = strtoull(v, &end, 10);
    return *end ? 0 : (uint64_t)x;
}

/* atoi's reading, as the device side always took these two: 0 (unset) or less leaves
 * the driver's figure. */
static int env_int(const char *name)
{
    const char *v = getenv(name);
    return v ? atoi(v) : 0;
}

void devices_env(nq_gpu_settings *g)
{
    g->subtasks = env_count("NQ_CUDA_SUBTASKS");
    g->chunks = env_count("NQ_CUDA_CHUNKS");
    g->chunk_subtasks = env_count("NQ_CUDA_CHUNK_SUBS");
    g->blocks_per_sm = env_int("NQ_CUDA_BLOCKS_PER_SM");
    g->carveout = env_int("NQ_CUDA_CARVEOUT");
}
