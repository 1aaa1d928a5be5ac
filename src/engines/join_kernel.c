/* The join engine's hot loops (join_pairs.c, join_halves.c) are one source compiled once
 * per vector instruction set; this picks the build a count runs, from what the library
 * carries and what the CPU has, so that a portable package runs as fast as a native
 * build. What the CPU runs is core/cpu.h's one probe. */
#include "engines/join_kernel.h"
#include "config.h"
#include "core/cpu.h"
#include "engines/join_halves.h"
#include "engines/join_pairs.h"
#include "nqueens/nqueens.h"

#define KERNEL(isa, id)                                                                            \
    {                                                                                              \
        id, join_pairs_count_##isa, join_halves_##isa                                              \
    }

/* Narrowest first. */
static const join_kernel kernels[] = {
    KERNEL(scalar, NQ_SIMD_SCALAR),
#if NQ_HAVE_SIMD_AVX2
    KERNEL(avx2, NQ_SIMD_AVX2),
#endif
#if NQ_HAVE_SIMD_AVX512
    KERNEL(avx512, NQ_SIMD_AVX512),
#endif
};
#define N_KERNELS (int)(sizeof(kernels) / sizeof(kernels[0]))

static const join_kernel *built(int simd)
{
    for (int i = 0; i < N_KERNELS; i++)
        if (kernels[i].simd == simd)
            return &kernels[i];
    return NULL;
}

int join_kernel_built(int simd)
{
    return simd == NQ_SIMD_AUTO || built(simd) != NULL;
}

int join_kernel_usable(int simd)
{
    return simd == NQ_SIMD_AUTO || (built(simd) && cpu_runs_simd(simd));
}

const join_kernel *join_kernel_find(int simd)
{
    if (simd != NQ_SIMD_AUTO)
        return join_kernel_usable(simd) ? built(simd) : NULL;
    for (int i = N_KERNELS - 1; i >= 0; i--)
        if (cpu_runs_simd(kernels[i].simd))
            return &kernels[i];
    return &kernels[0];
}
