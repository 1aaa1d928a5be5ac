/* What the library's top shares between its files: the one check of a caller's
 * settings and the one resolution of them, which the solver and the task-set identity
 * (taskset.c) both make. */
#ifndef NQ_LIB_H
#define NQ_LIB_H

#include "nqueens/nqueens.h"

/* NQ_OK if a solver takes settings s; NQ_EINVAL for a value out of range (board, threads,
 * prefix depth, the engine's n range, vector path, slice), NQ_EUNSUPPORTED for an engine
 * or vector path this build or CPU lacks. */
int lib_check_settings(const nq_settings *s);

/* s checked (lib_check_settings's status), then a copy of it resolved into *rs as
 * nq_count runs it: the engine that counts (auto's pick) and its automatic parameters
 * for s->n_threads workers (0: every CPU). */
int lib_resolve(const nq_settings *s, nq_settings *rs);

#endif
