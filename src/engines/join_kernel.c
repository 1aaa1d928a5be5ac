/* The join engine's hot loops (join_pairs.c, join_halves.c) are one source compiled once
 * per vector instruction set; this lists the builds the library carries and picks the
 * one a count runs, by the one rule of core/cpu.h (settings.simd's, or the widest this
 * CPU runs), so that a portable package runs as fast as a native build. */
#include "engines/join_kernel.h"
#include "config.h"
#include "core/cpu.h"
#include "engines/join_halves.h"
#include "engines/join_pairs.h"
#include "nqueens/nqueens.h"

#define KERNEL(isa, id, pext, count)                                                               \
    {                                                                                              \
        id, pext, count, join_halves_##isa, join_keep_##isa                                        \
    }

/* The BMI2 paths twice, packing by pext first: join_kernel_find's choice where it is fast */
static const join_kernel kernels[] = {
    KERNEL(scalar, NQ_SIMD_SCALAR, 0, join_pairs_count_scalar),
#if NQ_HAVE_SIMD_AVX2
    KERNEL(avx2, NQ_SIMD_AVX2, 1, join_pairs_count_avx2),
    KERNEL(avx2, NQ_SIMD_AVX2, 0, join_pairs_count_tables_avx2),
#endif
#if NQ_HAVE_SIMD_AVX512
    KERNEL(avx512, NQ_SIMD_AVX512, 1, join_pairs_count_avx512),
    KERNEL(avx512, NQ_SIMD_AVX512, 0, join_pairs_count_tables_avx512),
#endif
};
#define N_KERNELS (int)(sizeof(kernels) / sizeof(kernels[0]))

unsigned join_kernel_paths(void)
{
    unsigned paths = 0;

    for (int i = 0; i < N_KERNELS; i++)
        paths |= CPU_SIMD_BIT(kernels[i].simd);
    return paths;
}

const join_kernel *join_kernel_find(int simd)
{
    int path = cpu_simd_pick(join_kernel_paths(), simd);

    for (int i = 0; i < N_KERNELS; i++)
        if (kernels[i].simd == path && (!kernels[i].pext || cpu_pext_fast()))
            return &kernels[i];
    return NULL;
}

const join_kernel *join_kernel_packing(int simd, int pext)
{
    if (simd == NQ_SIMD_AUTO || cpu_simd_pick(join_kernel_paths(), simd) != simd)
        return NULL;
    for (int i = 0; i < N_KERNELS; i++)
        if (kernels[i].simd == simd && kernels[i].pext == pext)
            return &kernels[i];
    return NULL;
}
