/* Zeroed memory on huge pages where the kernel has them (see huge_alloc.h). */
#define _DEFAULT_SOURCE
#include "core/huge_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The huge page size of x86-64 and arm64 (4 KiB granule); a smaller request is left to
 * calloc, whose pages would not be huge anyway. */
#define HUGE_PAGE ((size_t)2 << 20)

void *huge_calloc(size_t n, size_t size)
{
    size_t bytes, rounded;
    void *p;

    if (size && n > SIZE_MAX / size)
        return NULL;
    bytes = n * size;
    if (bytes < HUGE_PAGE)
        return calloc(1, bytes ? bytes : 1);
    rounded = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (!(p = aligned_alloc(HUGE_PAGE, rounded)))
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice: refused, the pages stay small */
#endif
    memset(p, 0, bytes);
    return p;
}
