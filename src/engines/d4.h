/* The d4 engine: border constellations canonical under the 8 symmetries of the square,
 * weighted by orbit size, completed by a DFS with preset rows and columns. Also yields
 * the count of symmetry classes (OEIS A002562). See docs/d4.md for why it is right. */
#ifndef NQ_D4_H
#define NQ_D4_H

#include <stdint.h>

#include "core/engine.h"
#include "core/task.h"
#include "engines/d4tail.h"
#include "engines/prefix.h"
#include "engines/symmetry.h" /* the symmetries D4_ID..D4_ANTI */
#include "engines/task_cost.h"

/* The border of a board: the column of the queen in row 0 and in row n-1, the row of the
 * queen in column 0 and in column n-1 (a corner queen appears twice). */
enum { D4_TOP, D4_BOTTOM, D4_LEFT, D4_RIGHT };

/* The border e seen through symmetry g. */
void d4_border_map(int n, int g, const uint8_t e[4], uint8_t out[4]);

/* 1 if the border's queens are placed legally (distinct queens never attack). */
int d4_border_valid(int n, const uint8_t e[4]);

/* 1 if e is the smallest member of its orbit (by top, bottom, left, right); *stab gets
 * the bit mask of the symmetries that leave e unchanged (bit 0, identity, always set). */
int d4_border_canonical(int n, const uint8_t e[4], unsigned *stab);

/* Emit one task per canonical legal border, in a fixed order, ids 0..count-1. emit may
 * be NULL to only count. Returns the number of tasks emitted. */
uint64_t d4_enumerate(int n, task_emit_fn emit, void *user);

/* The completions of the task's border: its raw, unweighted subtotal. */
uint64_t d4_complete(int n, const task *t);
/* The same, asking w (NULL: never) now and then whether the run is stopping; if it is,
 * it returns early with *stopped = 1 and a partial count, else *stopped = 0. */
uint64_t d4_search(int n, const task *t, const engine_worker *w, int *stopped);

/* The symmetry classes this task's completions contribute, given its subtotal: the
 * orbits of the border's stabiliser on its completions (Burnside). */
uint64_t d4_unique(int n, const task *t, uint64_t subtotal);

/* What d4_unique adds to a task's subtotal before dividing by the stabiliser's size: the
 * completions fixed by each non-identity symmetry of each of its borders. Independent of
 * the subtotal, so an engine may work it out while the subtotal is still being counted. */
uint64_t d4_fixed_sum(int n, const task *t);

/* Completions of the border e that symmetry g leaves unchanged (g must fix e). */
uint64_t d4_fixed_completions(int n, const uint8_t e[4], int g);

/* The parts of the d4 descriptor (engine_d4) that the GPU engine, which runs the same
 * tasks, shares: its task set is the d4 engine's, so subtotals compare id by id. */
void d4_params_format(const nq_settings *s, char *buf, size_t size);
int d4_params_parse(const char *params, nq_settings *s);
uint64_t d4_task_count(const nq_settings *s);
uint64_t d4_source(const nq_settings *s, task_emit_fn emit, void *user);

/* The d4 cost model (engine_desc.task_cost): the placements of the first inner rows,
 * the border's attacks included; shared is a task_cost_board (engines/task_cost.h). */
double d4_task_cost(const void *shared, const task *t);

/* The symmetry classes a task contributes (engine_desc.unique): d4_unique. */
uint64_t d4_engine_unique(const engine_worker *w, const task *t, uint64_t subtotal);

extern const engine_desc engine_d4;

/* Those members of an engine_desc initializer: the d4 task set, which the engines that
 * have them share (task_family). resolve fills prefix_rows as for the other engines
 * (prefix_resolve, prefix.h): d4 ignores it, the GPU engine places that many inner rows
 * per sub-task (a count left at 0 chooses them by gpu_plan_auto_rows). shared_init is the
 * board the cost model reads (the GPU's runtime makes none). */
#define D4_TASK_SET_MEMBERS                                                                        \
    .task_family = &engine_d4, .resolve = prefix_resolve, .params_format = d4_params_format,       \
    .params_parse = d4_params_parse, .task_count = d4_task_count, .source = d4_source,             \
    .task_cost = d4_task_cost, .unique = d4_engine_unique, .shared_init = task_cost_board_init,    \
    .shared_free = task_cost_board_free

/* Fill p, the search plan of d4tail.h, from the task's border. */
void d4_plan_build(int n, const task *t, d4_plan *p);

#endif
