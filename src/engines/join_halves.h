/* Half-boards (join_halves.c): the masks of every half-board of one side on one column
 * set, one build per vector path (join_kernel.h). */
#ifndef NQ_JOIN_HALVES_H
#define NQ_JOIN_HALVES_H

#include <stddef.h>
#include <stdint.h>

#include "engines/join_tables.h"

/* Room past the count that join_halves' vector stores need. */
#define JOIN_HALVES_SLACK 8

#define JOIN_HALVES_DECLARE(isa)                                                                   \
    size_t join_halves_##isa(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,      \
                             join_piece *pc, size_t at, size_t limit, join_buf *out)
JOIN_HALVES_DECLARE(scalar);
JOIN_HALVES_DECLARE(avx2);
JOIN_HALVES_DECLARE(avx512);

#define JOIN_KEEP_DECLARE(isa)                                                                     \
    size_t join_keep_##isa(const uint64_t *v, size_t k, uint64_t forbid, uint64_t *out)
JOIN_KEEP_DECLARE(scalar);
JOIN_KEEP_DECLARE(avx2);
JOIN_KEEP_DECLARE(avx512);

#endif
