/* Symmetric solutions (join_sym.c): Burnside's lemma for the unique count needs the
 * solutions that a half turn or a quarter turn maps onto themselves (no solution of
 * n > 1 is fixed by a reflection). */
#ifndef NQ_JOIN_SYM_H
#define NQ_JOIN_SYM_H

#include <stdint.h>

/* Solutions fixed by the half turn (turn = 2) or the quarter turn (turn = 1) whose top
 * rows 0..h-1 take exactly the columns top (any column set when top_any). */
uint64_t join_symmetric(int n, int turn, uint32_t top, int top_any);

#endif
