/* What the counting instantiations of the search loop (engines/search_tmpl.c) share:
 * how a long search sees that the run is stopping. */
#ifndef NQ_SEARCH_H
#define NQ_SEARCH_H

#include "core/engine.h"

/* Pushes between two looks at the stop flag. It has to be short in time for a stop to
 * be quick when the workers far outnumber the CPUs: each worker must be scheduled and
 * reach its next look, one after another. The look (two relaxed loads behind a call) is
 * still lost in the work between. A push of the plain search costs tens of nanoseconds
 * with what is settled below it, so 2^12 of them are some tens of microseconds. A push
 * above the tail tables settles six rows below it and costs far more: at 2^12, 512 d4
 * workers on one core took 23-52 ms from the cancel to the return, at 2^8 13-16 ms, with
 * no change in the count's time (n = 16, 0.991x). */
#define SEARCH_STOP_MASK_COUNT 0xfffu
#define SEARCH_STOP_MASK_TAIL 0xffu

/* The counting searches (dfs.c, d4tail.c) are built once per x86-64 level in a portable
 * build (meson.build: search_levels), each under its own name (core/cpu.h:
 * CPU_BUILD_NAME), and search_level.c calls the one this CPU runs, so that
 * -Dnative=false counts with popcnt, BMI and pext where the CPU has them; the tail's
 * pext is chosen by the preprocessor, which no ifunc clone can do. */

/* The stop of one search: w (NULL: never stops) is asked; stopped records the answer. */
typedef struct search_stop {
    const engine_worker *w;
    int stopped;
} search_stop;

static inline int search_stopping(search_stop *s)
{
    if (s->w && engine_stopping(s->w))
        s->stopped = 1;
    return s->stopped;
}

#endif
