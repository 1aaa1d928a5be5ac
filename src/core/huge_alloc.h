/* Zeroed memory for the large tables built once per count (the join's block tables and
 * views: 64 MiB at n = 20, 0.9 GiB at 22), backed by transparent huge pages where the
 * kernel gives them on request. Their setup comes before any worker starts, and on a
 * virtual machine its first touch of 4 KiB pages took most of it (a fault a 4 KiB page,
 * 7 us each here: 0.11 s of n = 20's 0.27 s). Freed with huge_free(). */
#ifndef NQ_CORE_HUGE_ALLOC_H
#define NQ_CORE_HUGE_ALLOC_H

#include <stddef.h>

/* size zeroed bytes from calloc, which leaves a large block's pages untouched (the
 * kernel zeroes each on its first touch, on whichever thread touches it) and which no
 * MALLOC_PERTURB_ fills; an aligned_alloc that glibc filled took seconds at n = 22,
 * serially and deaf to a stop. */
void *huge_calloc(size_t size);
/* Free what huge_calloc returned (NULL: nothing). */
void huge_free(void *p);

#endif
