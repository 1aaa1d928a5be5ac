/* What the counting instantiations of the search loop (engines/search_tmpl.c) share:
 * how a long search sees that the run is stopping. */
#ifndef NQ_SEARCH_H
#define NQ_SEARCH_H

#include "engines/engine.h"

/* Pushes between two looks at the stop flag. A push costs tens of nanoseconds with
 * what is settled below it, so this is some tens of microseconds, and the look (two
 * relaxed loads behind a call) is still lost in the work between. It has to be that
 * short for the stop to take a second when the workers far outnumber the CPUs: each
 * worker must be scheduled and reach its next look, one after another, so 512 workers
 * on one core took 512 intervals. At 2^18 pushes (some milliseconds) that was 1-5 s;
 * at 2^12 it is some tens of milliseconds. */
#define SEARCH_STOP_MASK_COUNT 0xfffu

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
