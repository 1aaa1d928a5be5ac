/* The one clock helper, for the library and the tools alike: seconds on the monotonic
 * clock (durations, intervals), and deadlines for timed waits. */
#ifndef NQ_CLOCK_H
#define NQ_CLOCK_H

#include <time.h>

/* Seconds since an arbitrary start, never going back. */
static inline double clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The time ns nanoseconds (less than a second) from now on clock id: the deadline of a
 * pthread_cond_timedwait whose condition variable runs on that clock. */
static inline struct timespec clock_after(clockid_t id, long ns)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    ts.tv_nsec += ns;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

#endif
