/* The one clock helper, for the library and the tools alike: seconds on the monotonic
 * clock (durations, intervals), this process's CPU time, and deadlines for timed waits. */
#ifndef NQ_CLOCK_H
#define NQ_CLOCK_H

#include <sys/resource.h>
#include <time.h>

/* Seconds since an arbitrary start, never going back. */
static inline double clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* This process's CPU time (user + system, every thread) in seconds: the figure that
 * holds on a shared machine, which benchmarks report beside the wall time. */
static inline double clock_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0.0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* The calling thread's CPU time in seconds: one task's cost, which other threads of
 * the process (and, mostly, other users) do not add to. */
static inline double clock_thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The same, user and system apart (hyperfine's "user" and "system"). */
static inline void clock_cpu_split(double *user, double *sys)
{
    struct rusage ru;
    *user = *sys = 0.0;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return;
    *user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
    *sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
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
