/* The bitmask depth-first search, written once: iterative, an explicit stack, no
 * allocation, no shared writes. Each search of the CPU engines is this file included with
 * its own macros (the dav1d *_tmpl.c pattern), so that the compiler specialises the loop
 * for each and the hot ones pay for nothing they do not use:
 *   engines/dfs.c     the prefix kernel (uniform rows, five-row tail; plain below five)
 *   engines/d4tail.c  the d4 completion (a plan's rows, five-row tail; plain below eight)
 *   engines/lex.c     the listing (uniform rows, every solution's columns kept)
 *   gpu/gpu_expand.c  the GPU host's expansion of a plan's first rows into sub-tasks
 * The GPU walk (gpu/search.h, search_step) is the one search kept apart, on purpose: it
 * takes one queen per call so that the 32 threads of a warp stay in step.
 *
 * The search fills inner rows 0..depth-1. A placement at inner row d leaves the
 * diagonals shifted by SEARCH_SHIFT to row d + 1; the rows below a placement at
 * d = depth - 1 - SEARCH_SETTLE_ROWS are not searched but settled by SEARCH_SETTLE, and
 * nodes there are never pushed. With depth == SEARCH_SETTLE_ROWS the root itself is
 * settled (d = -1); a smaller depth is the caller's to handle.
 *
 * Macros, #undef'd at the end:
 *   SEARCH_FN            the name of the function to define (static)
 *   SEARCH_CTX           the type of its context argument c, which the macros read
 *   SEARCH_FREE(c, d)    the squares open in inner row d before any inner queen
 *   SEARCH_SHIFT(c, d)   the rows from inner row d to the next one
 *   SEARCH_ALIVE(c, d, nc, nl, nr)  0 to prune a placement at d (look-ahead); default 1
 *   SEARCH_SETTLE_ROWS   rows SEARCH_SETTLE settles below a placement
 *   SEARCH_SETTLE(c, d, nc, nl, nr, na)  their completions (a uint64_t), given the
 *                        masks after the placement at d and na, the open squares of d + 1
 *   SEARCH_COLUMN(c, d, col)  optional: record that inner row d holds column col, before
 *                        anything below it is settled
 *   SEARCH_HALTED(c)     optional: nonzero after a SEARCH_SETTLE that asks to stop
 *   SEARCH_STOP_MASK     look at SEARCH_STOPPING every SEARCH_STOP_MASK + 1 pushes
 *   SEARCH_STOPPING(c)   nonzero: return now with what was counted (the caller knows the
 *                        count is partial)
 *
 * Signature: uint64_t SEARCH_FN(SEARCH_CTX *c, int depth, uint32_t cols, uint32_t ld,
 * uint32_t rd), cols/ld/rd being the masks the first inner row starts from. */

#ifndef SEARCH_ALIVE
#define SEARCH_ALIVE(c, d, nc, nl, nr) 1
#endif
#ifndef SEARCH_COLUMN
#define SEARCH_COLUMN(c, d, col) ((void)0)
#endif
#ifndef SEARCH_HALTED
#define SEARCH_HALTED(c) 0
#endif

static uint64_t SEARCH_FN(SEARCH_CTX *c, int depth, uint32_t cols, uint32_t ld, uint32_t rd)
{
    uint32_t st_avail[32], st_cols[32], st_ld[32], st_rd[32];
    uint32_t avail = SEARCH_FREE(c, 0) & ~(cols | ld | rd);
    const int settle = depth - 1 - SEARCH_SETTLE_ROWS; /* placements here are settled */
    uint64_t count = 0;
    unsigned pushes = 0;
    int d = 0;

    assert(depth >= SEARCH_SETTLE_ROWS && depth <= 32);
    if (settle < 0)
        return SEARCH_SETTLE(c, -1, cols, ld, rd, avail);
    for (;;) {
        while (avail) {
            uint32_t bit = avail & -avail, s = SEARCH_SHIFT(c, d);
            uint32_t nc = cols | bit, nl = (ld | bit) << s, nr = (rd | bit) >> s, na;
            avail ^= bit;
            SEARCH_COLUMN(c, d, (unsigned)__builtin_ctz(bit));
            na = SEARCH_FREE(c, d + 1) & ~(nc | nl | nr);
            if (d == settle) {
                count += SEARCH_SETTLE(c, d, nc, nl, nr, na);
                if (SEARCH_HALTED(c))
                    return count;
                continue;
            }
            if (!na || !(SEARCH_ALIVE(c, d, nc, nl, nr)))
                continue;
            if ((++pushes & SEARCH_STOP_MASK) == 0 && SEARCH_STOPPING(c))
                return count;
            st_avail[d] = avail;
            st_cols[d] = cols;
            st_ld[d] = ld;
            st_rd[d] = rd;
            cols = nc;
            ld = nl;
            rd = nr;
            avail = na;
            d++;
        }
        if (d == 0)
            return count;
        d--;
        avail = st_avail[d];
        cols = st_cols[d];
        ld = st_ld[d];
        rd = st_rd[d];
    }
}

#undef SEARCH_FN
#undef SEARCH_CTX
#undef SEARCH_FREE
#undef SEARCH_SHIFT
#undef SEARCH_ALIVE
#undef SEARCH_SETTLE_ROWS
#undef SEARCH_SETTLE
#undef SEARCH_COLUMN
#undef SEARCH_HALTED
#undef SEARCH_STOP_MASK
#undef SEARCH_STOPPING
