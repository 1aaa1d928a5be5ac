/* The lexicographic lister: every solution with no symmetry used, prefixes first (a
 * mirrored board would come out of order), which the engines that list share. */
#ifndef NQ_LEX_H
#define NQ_LEX_H

#include "core/lister.h"

/* The lister of core/lister.h, for engine_desc.list. */
extern const engine_lister lex_lister;

#endif
