/* What the counting instantiations of the search loop (engines/search_tmpl.c) share:
 * how a long search sees that the run is stopping. */
#ifndef NQ_SEARCH_H
#define NQ_SEARCH_H

#include "engines/engine.h"

/* Pushes between two looks at the stop flag. A push costs tens of nanoseconds with
 * what is settled below it, so this is some milliseconds: far below the second a stop
 * may take, and the look (two relaxed loads) is lost in the work between. */
#define SEARCH_STOP_MASK_COUNT 0x3ffffu

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
