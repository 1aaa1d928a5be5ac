/* 128-bit counts: a(29) and beyond overflow 64 bits, so grand totals are kept wide. */
#ifndef NQ_U128_H
#define NQ_U128_H

#include "nqueens/nqueens.h"

typedef unsigned __int128 u128;

static inline nq_u128 u128_pack(u128 v)
{
    nq_u128 r = {(uint64_t)v, (uint64_t)(v >> 64)};
    return r;
}

static inline u128 u128_unpack(nq_u128 v)
{
    return ((u128)v.hi << 64) | v.lo;
}

#endif
