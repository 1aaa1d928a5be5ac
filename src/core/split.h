/* A loop over n independent steps split into contiguous ranges, one per thread, for the
 * serial setup before a count's workers start (the join's views and renaming sample):
 * on many cores that setup capped the speedup (docs/scheduling.md), and what it does
 * is mostly touching fresh memory, which the kernel zeroes on as many CPUs as touch it. */
#ifndef NQ_CORE_SPLIT_H
#define NQ_CORE_SPLIT_H

#include <stdatomic.h>
#include <stdint.h>

/* Threads a split takes at most, the caller's included: past this, thread starts cost
 * more than the memory bandwidth they add. */
#define SPLIT_MAX_THREADS 64

/* One range: steps [lo, hi) as part `part` of the split (0 .. parts-1); nonzero to
 * report a failure (no memory, a stop), which does not cut the other ranges short. */
typedef int (*split_fn)(void *user, int part, uint64_t lo, uint64_t hi);

/* The parts split_run makes of n steps on up to `threads` threads, each of grain steps
 * at least (fewer cost more to start a thread for than they save). */
int split_parts(int threads, uint64_t n, uint64_t grain);

/* Run fn over steps 0 .. n-1 in split_parts(threads, n, grain) ranges, each on a thread
 * of its own (the first on the caller's); a thread that cannot start runs its range on
 * the caller. Returns nonzero when any range failed. Every range has ended on return. */
int split_run(int threads, uint64_t n, uint64_t grain, split_fn fn, void *user);

/* Run fn over steps 0 .. n-1 on split_parts(threads, n, grain) threads that take ranges
 * of grain steps (the last one shorter) from a shared counter until none is left, so that
 * a thread slowed down (fresh pages that its kernel must zero, a busy core) leaves more
 * to the others; part is the taking thread's, which sees several ranges in no set order.
 * For loops whose ranges need no order (only sums per part). A failed range does not stop
 * the others; returns nonzero when any failed. */
int split_run_shared(int threads, uint64_t n, uint64_t grain, split_fn fn, void *user);

/* From now until it is set again, the threads that splits run by the calling thread
 * start add their CPU time, in nanoseconds, to *sink as they end (NULL: nowhere); the
 * caller's own range is on the caller's clock. So that an estimate can time a setup
 * built on the count's threads: their CPU time is the count's fixed part. */
void split_cpu_sink(_Atomic uint64_t *sink);

#endif
