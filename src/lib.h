/* What the library's top shares between its files: the one check of a caller's
 * settings, which nq_create_solver and the task-set identity (taskset.c) both make. */
#ifndef NQ_LIB_H
#define NQ_LIB_H

#include "nqueens/nqueens.h"

/* NQ_OK if a solver takes settings s; NQ_EINVAL for a value out of range (board, threads,
 * prefix depth, the engine's n range, vector path, slice), NQ_EUNSUPPORTED for an engine
 * or vector path this build or CPU lacks. */
int lib_check_settings(const nq_settings *s);

#endif
