/* Test helper: the settings every count of the tests starts from. Plain C, apart from
 * engine_check.h (which asserts with Criterion), so that the device check
 * (gpu/cuda_device_check.c, built where Criterion may be missing) starts from them too. */
#ifndef NQ_TEST_ENGINE_CHECK_SETTINGS_H
#define NQ_TEST_ENGINE_CHECK_SETTINGS_H

#include "nqueens/nqueens.h"

/* Board n with engine on threads workers (0: every CPU), unpinned (a test shares the
 * machine), the rest the defaults; a test sets what else it tries (prefix rows, a vector
 * path, a slice) before it makes the solver. */
static inline nq_settings engine_check_settings(int n, int engine, int threads)
{
    nq_settings s;

    nq_default_settings(&s);
    s.n = n;
    s.engine = engine;
    s.n_threads = threads;
    s.pin_threads = 0;
    return s;
}

#endif
