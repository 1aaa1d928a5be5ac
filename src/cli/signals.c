/* Signal handling for nqueens count and list (SIGINT, SIGTERM, SIGHUP). The handler only does
 * async-signal-safe things: atomic loads and stores, nq_solver_cancel (one atomic store) and _exit.
 * Everything else (flushing the journal, telling how to resume) happens in the main thread after
 * nq_count has returned NQ_ECANCELED. */
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

#include "signals.h"

static _Atomic(nq_solver *) target;
static atomic_int caught;

static void on_signal(int sig)
{
    int expected = 0;
    /* A second signal: the person wants out now. Records already written are in the
     * file (the kernel has them), only the last fsync is skipped. */
    if (!atomic_compare_exchange_strong(&caught, &expected, sig))
        _exit(128 + sig);
    nq_solver_cancel(atomic_load(&target));
}

void signals_install(void)
{
    struct sigaction sa;
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL); /* the terminal went away: keep what is done, as SIGTERM */
}

void signals_target(nq_solver *s)
{
    atomic_store(&target, s);
}

int signals_caught(void)
{
    return atomic_load(&caught);
}

void signals_restore(void)
{
    struct sigaction sa;
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    atomic_store(&target, NULL);
}

const char *signals_name(int sig)
{
    return sig == SIGINT    ? "SIGINT"
           : sig == SIGTERM ? "SIGTERM"
           : sig == SIGHUP  ? "SIGHUP"
                            : "a signal";
}
