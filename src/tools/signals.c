/* Signal handling for nqueens count and list (SIGINT, SIGTERM, SIGHUP). A handler only
 * takes async-signal-safe steps (atomic loads and stores, _exit); everything else
 * (flushing the journal, telling how to resume) happens in the main thread after
 * nq_count has returned NQ_ECANCELED.
 *
 * The signals are taken by a watcher thread, not by a handler in whichever thread the
 * kernel picks. The kernel picks a sleeping thread (the main thread, waiting on the
 * workers), and with far more busy workers than CPUs the scheduler let such a thread wait
 * its turn behind all of them: 512 d4 workers on one core ran the handler 0.3-1.4 s after
 * the kill. A thread that wakes every 50 ms stays near the front of the queue and took
 * the signal within a few milliseconds. The handler stays installed for threads that do
 * not block the signals (Open MPI's own, started before signals_install): it records the
 * signal, and the watcher cancels at its next tick. Only the watcher cancels, under the
 * lock signals_target takes, so that a solver is never cancelled after it was untargeted
 * and destroyed (an Open MPI thread's handler once did that, under ThreadSanitizer). */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>

#include "signals.h"

static _Atomic(nq_solver *) target;
/* What the first signal requests for the steps before a count (signals_stop): made once
 * and kept for the process, as caught is; NULL when it could not be made. */
static _Atomic(nq_stop *) stop;
static atomic_int caught;
static atomic_llong caught_ns; /* when the first one came, on the monotonic clock */
static sigset_t watched, saved_mask;
static pthread_t watcher;
static atomic_int watching;
static pthread_mutex_t target_lock = PTHREAD_MUTEX_INITIALIZER;

/* Signals this close to the first are the same stop: timeout -s INT signals the child
 * and then its process group, and a terminal's Ctrl-C reaches every process of the
 * group, so that one request often arrives twice within a millisecond or two. */
#define SIGNALS_SAME_STOP_NS 200000000LL

static long long now_ns(void) /* clock_gettime is async-signal-safe */
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void on_signal(int sig)
{
    int expected = 0;
    long long first;

    if (atomic_compare_exchange_strong(&caught, &expected, sig)) {
        atomic_store(&caught_ns, now_ns());
        nq_stop_request(atomic_load(&stop)); /* an atomic store: safe in a handler */
        if (!atomic_load(&watching))         /* no watcher (it could not start): cancel from here */
            nq_solver_cancel(atomic_load(&target));
        return;
    }
    /* 0: the first is being taken in another thread at this moment */
    first = atomic_load(&caught_ns);
    if (first == 0 || now_ns() - first < SIGNALS_SAME_STOP_NS)
        return;
    /* A later signal: the person wants out now. Records already written are in the file
     * (the kernel has them), only the last fsync is skipped. */
    _exit(128 + sig);
}

static void cancel_target(void)
{
    pthread_mutex_lock(&target_lock);
    nq_solver_cancel(atomic_load(&target));
    pthread_mutex_unlock(&target_lock);
}

/* Takes the blocked signals as they come; cancelled (in sigtimedwait) by signals_restore.
 * A cancel only stops a run in progress, so after a signal each tick cancels the target
 * again: a signal a handler recorded, or one that came while the solver was being made,
 * stops the run within a tick, whatever hooks the run calls (count's look at
 * signals_caught when a task is handed out or ends; an engine with a runtime of its own
 * may call none for long). */
static void *watch(void *unused)
{
    const struct timespec tick = {0, 50L * 1000 * 1000};
    (void)unused;
    for (;;) {
        int sig = sigtimedwait(&watched, NULL, &tick);
        if (sig > 0)
            on_signal(sig);
        if (atomic_load(&caught))
            cancel_target();
    }
    return NULL;
}

static void set_handlers(void (*handler)(int), int flags)
{
    struct sigaction sa;
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL); /* the terminal went away: keep what is done, as SIGTERM */
}

void signals_install(void)
{
    nq_stop *st = NULL;

    if (!atomic_load(&stop) && nq_stop_create(&st) == NQ_OK)
        atomic_store(&stop, st);
    set_handlers(on_signal, SA_RESTART);
    sigemptyset(&watched);
    sigaddset(&watched, SIGINT);
    sigaddset(&watched, SIGTERM);
    sigaddset(&watched, SIGHUP);
    /* blocked here, and so in every thread started from here on: the solver's workers */
    pthread_sigmask(SIG_BLOCK, &watched, &saved_mask);
    atomic_store(&watching, pthread_create(&watcher, NULL, watch, NULL) == 0);
    if (!atomic_load(&watching)) /* no thread: the handler takes them, as it would anyway */
        pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
}

void signals_target(nq_solver *s)
{
    pthread_mutex_lock(&target_lock);
    atomic_store(&target, s);
    pthread_mutex_unlock(&target_lock);
}

const nq_stop *signals_stop(void)
{
    return atomic_load(&stop);
}

int signals_caught(void)
{
    return atomic_load(&caught);
}

int signals_stopped_by(void)
{
    int sig = atomic_load(&caught);
    return sig ? sig : SIGINT;
}

void signals_restore(void)
{
    const struct timespec now = {0, 0};
    int sig;

    if (atomic_load(&watching)) {
        pthread_cancel(watcher);
        pthread_join(watcher, NULL);
        atomic_store(&watching, 0);
        /* one that came since the watcher's last look is still a stop, not a kill */
        while ((sig = sigtimedwait(&watched, NULL, &now)) > 0)
            on_signal(sig);
    }
    set_handlers(SIG_DFL, 0);
    pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
    atomic_store(&target, NULL);
}

void signals_file_limit_fails_writes(void)
{
    signal(SIGXFSZ, SIG_IGN);
}

const char *signals_name(int sig)
{
    return sig == SIGINT    ? "SIGINT"
           : sig == SIGTERM ? "SIGTERM"
           : sig == SIGHUP  ? "SIGHUP"
                            : "a signal";
}
