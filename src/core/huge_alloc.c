/* Zeroed memory on huge pages where the kernel has them (see huge_alloc.h). */
#define _DEFAULT_SOURCE
#include "core/huge_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* The huge page size of x86-64 and arm64 (4 KiB granule). */
#define HUGE_PAGE ((uintptr_t)2 << 20)

/* A block of at least a huge page is aligned to one: calloc's mmap is not, and the
 * kernel backs only the aligned 2 MiB ranges wholly inside a block with huge pages (n =
 * 20's blocks of 4 to 8 MiB lost a quarter to a half of them: 3.7 times the page
 * faults, 1.3x of the setup). The padding is address space only, never touched. */
void *huge_calloc(size_t size)
{
    int huge = size >= HUGE_PAGE;
    /* the block rounded up to whole huge pages, so that its last one is huge too */
    size_t span = huge ? (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1) : (size ? size : 1);
    char *base, *p;

    if (size > SIZE_MAX - 2 * HUGE_PAGE - sizeof(void *))
        return NULL;
    if (!(base = calloc(1, span + (huge ? HUGE_PAGE : 0) + sizeof(void *))))
        return NULL;
    p = base + sizeof(void *);
    if (huge)
        p = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
    ((void **)p)[-1] = base; /* huge_free's way back to what calloc returned */
#ifdef MADV_HUGEPAGE
    if (huge) /* advice only: refused, the pages stay small */
        (void)madvise(p, span, MADV_HUGEPAGE);
#endif
    return p;
}

void huge_free(void *p)
{
    if (p)
        free(((void **)p)[-1]);
}
