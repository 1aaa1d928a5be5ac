/* The join engine: counts a board by matching half-boards instead of visiting every
 * solution. Row h = n / 2 splits the board: the top half (rows 0..h-1) of a solution
 * takes some column set C, the bottom half takes the rest, and the two halves fit
 * exactly when no diagonal meets a queen of each. So Q(n) is the sum over C of the
 * number of disjoint pairs of diagonal masks, one from each side. docs/join.md says why
 * it is right and how each part was chosen.
 *
 * The engine's files, each with its header: join.c (the descriptor: one task's count),
 * join_tasks.c (the tasks), join_tables.c (the block tables a count shares),
 * join_halves.c (half-boards) and join_pairs.c (disjoint pairs), the hot loops built
 * once per vector path and picked by join_kernel.c, join_renaming.c (the mask bits'
 * order), join_pairs_naive.c (the reference pair counter) and join_sym.c (the solutions a
 * turn fixes); join_columns.h holds what they all use, the engine's limit and the walk
 * over column sets. This header is join.c's: its hooks for the tests. */
#ifndef NQ_JOIN_H
#define NQ_JOIN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/join_columns.h"
#include "nqueens/nqueens.h"

/* Boards from this n on, and every board of three blocks a side, have the cost model's
 * table of every side column set's candidates, made in the setup (join.c,
 * costs_by_table). */
#define JOIN_COST_TABLE_FROM 21

/* For the tests: the masks each list of the workers that a count's shared tables (what
 * engine_join.shared_init made) will make reserves, so that completing grows them. */
void join_shared_reserve(void *shared, size_t masks);
/* For the tests: the masks a piece of half-boards reaches (join_halves_piece), so that a
 * small board's lists are made and paired in many pieces. */
void join_shared_pieces(void *shared, size_t masks);
/* For the tests: a count's shared tables (as engine_join.shared_init makes them) with
 * parts (2 or 3) blocks a side, so that three blocks are tried on small boards. */
void *join_shared_make(const nq_settings *s, int parts, const atomic_int *stop);

#endif
