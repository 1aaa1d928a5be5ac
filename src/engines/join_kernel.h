/* The hot loops, one build per vector instruction set (join_kernel.c picks one).
 * join_pairs.c and join_halves.c are compiled once per path with CPU_BUILD naming it
 * (scalar, avx2, avx512: core/cpu.h) and that path's compiler flags; a count runs the
 * build that settings.simd names, or the widest this CPU has. */
#ifndef NQ_JOIN_KERNEL_H
#define NQ_JOIN_KERNEL_H

#include <stddef.h>
#include <stdint.h>

struct engine_worker;

#include "engines/join_pairs.h"
#include "engines/join_tables.h"

typedef struct join_kernel {
    int simd; /* enum nq_simd */
    int pext; /* whether pairs_count packs masks by BMI2's pext (else by tables) */
    /* The number of pairs (a[i], b[j]) with a[i] & b[j] == 0, for renamed masks.
     * b's masks (apart from a's) are overwritten: its room is one of the counter's
     * homes (join_pairs.c). tmp must have room for JOIN_PAIRS_TMP(max(na, nb))
     * entries, work is JOIN_PAIRS_WORK bytes aligned to JOIN_PAIRS_ALIGN. w (NULL:
     * none) is asked whether its run is stopping after each chunk of one side (a count
     * of two lists of millions takes seconds, n = 24): the count is then cut short, and
     * the caller drops it. share (NULL: the whole count) names a share of its chunks
     * (join_pairs_share). */
    uint64_t (*pairs_count)(const uint64_t *a, size_t na, uint64_t *b, size_t nb, uint64_t *tmp,
                            void *work, const struct engine_worker *w, join_pairs_share *share);
    /* Append to out, past its first at masks, the masks of the half-boards of side on
     * column set cols that have none of the bits forbid, from the near column subset
     * pc->x on: until the list holds limit masks or more, or out has no room for the
     * next subset's near x far placement pairs (join_buf_room), or every subset is made
     * (pc->done). pc->x is left at the next subset; returns the list's length. */
    size_t (*halves)(const join_tables *jt, int side, uint32_t cols, uint64_t forbid,
                     join_piece *pc, size_t at, size_t limit, join_buf *out);
    /* The masks of v[0..k) that have none of the bits forbid, in their order, into out
     * (out == v, or past v + k): how many. v is read, and out written, up to
     * JOIN_HALVES_SLACK entries past k. */
    size_t (*keep)(const uint64_t *v, size_t k, uint64_t forbid, uint64_t *out);
} join_kernel;

/* The paths whose kernels this build carries (a CPU_SIMD_BIT set, core/cpu.h): the
 * engine's engine_desc.simd_paths. */
unsigned join_kernel_paths(void);
/* The kernel for simd (enum nq_simd; auto: the widest usable, cpu_simd_pick), or NULL
 * when this build lacks it or this CPU cannot run it: the one that packs by pext where
 * the path has it and this CPU runs it fast (cpu_pext_fast). */
const join_kernel *join_kernel_find(int simd);
/* The kernel of path simd (not auto) that packs by pext or not, as asked, whether or not
 * this CPU runs pext fast: the tests' way to each. NULL where this build has no such
 * kernel or the CPU cannot run the path. */
const join_kernel *join_kernel_packing(int simd, int pext);

#endif
