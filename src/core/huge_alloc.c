/* Memory on huge pages where the kernel has them (see huge_alloc.h). */
#define _DEFAULT_SOURCE
#include "core/huge_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* The huge page size of x86-64 and arm64 (4 KiB granule); a smaller request is left to
 * malloc, whose pages would not be huge anyway. */
#define HUGE_PAGE ((size_t)2 << 20)

void *huge_alloc(size_t size)
{
    size_t rounded;
    void *p;

    if (size < HUGE_PAGE)
        return malloc(size ? size : 1);
    if (size > SIZE_MAX - HUGE_PAGE)
        return NULL;
    rounded = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (!(p = aligned_alloc(HUGE_PAGE, rounded)))
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice: refused, the pages stay small */
#endif
    return p;
}
