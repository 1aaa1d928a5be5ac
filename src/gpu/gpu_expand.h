/* The host's part of a GPU sub-task: the first inner rows of a plan placed on the CPU,
 * each placement that survives the walk's pruning emitted as one sub-task. */
#ifndef NQ_GPU_EXPAND_H
#define NQ_GPU_EXPAND_H

#include <stdint.h>

#include "gpu/search.h"

/* Receives one sub-task of the expansion; nonzero stops it. */
typedef int (*gpu_sub_fn)(void *user, const search_sub *sub);

/* Places the first rows inner rows of plan p (index plan_index) on the host and emits
 * one sub-task per placement that survives the same pruning as the walk, in
 * lexicographic order: the CPU search loop (engines/search_tmpl.c), stopped at that
 * depth. Never goes deeper than leaves three rows to the walk, so every sub-task keeps
 * real work for the GPU. emit may be NULL to only count. Returns the number emitted
 * (stops early, returning the count so far, when emit asks). */
uint64_t gpu_expand(const search_plan *p, uint32_t plan_index, int rows, gpu_sub_fn emit,
                    void *user);

#endif
