/* Memory for the large tables built once per count (the join's block tables and
 * views: 64 MiB at n = 20, 0.9 GiB at 22), backed by transparent huge pages where the
 * kernel gives them on request. Their setup is serial, before any worker starts, and on
 * a virtual machine its first touch of 4 KiB pages took most of it (a fault a 4 KiB page,
 * 7 us each here: 0.11 s of n = 20's 0.27 s). Freed with free(). */
#ifndef NQ_CORE_HUGE_ALLOC_H
#define NQ_CORE_HUGE_ALLOC_H

#include <stddef.h>

/* size bytes, unwritten: the caller's first writes touch the pages (on as many threads
 * as write them). */
void *huge_alloc(size_t size);

#endif
