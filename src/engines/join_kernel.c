/* The join engine's hot loops (join_pairs.c, join_halves.c) are one source compiled once
 * per vector instruction set; this picks the build a count runs, from what the library
 * carries and what the CPU has, so that a portable package runs as fast as a native
 * build. What the CPU has comes from the compiler's builtins, which read cpuid once per
 * process. */
#include "engines/join_kernel.h"
#include "config.h"
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

/* Whether this CPU (and its OS, which must save the wide registers) runs simd's code. */
static int cpu_runs(int simd)
{
    switch (simd) {
    case NQ_SIMD_SCALAR:
        return 1;
#if defined(__x86_64__) || defined(__i386__)
    case NQ_SIMD_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    case NQ_SIMD_AVX512:
        return cpu_runs(NQ_SIMD_AVX2) && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl");
#endif
    default:
        return 0;
    }
}

int join_kernel_built(int simd)
{
    return simd == NQ_SIMD_AUTO || built(simd) != NULL;
}

int join_kernel_usable(int simd)
{
    return simd == NQ_SIMD_AUTO || (built(simd) && cpu_runs(simd));
}

const join_kernel *join_kernel_find(int simd)
{
    if (simd != NQ_SIMD_AUTO)
        return join_kernel_usable(simd) ? built(simd) : NULL;
    for (int i = N_KERNELS - 1; i >= 0; i--)
        if (cpu_runs(kernels[i].simd))
            return &kernels[i];
    return &kernels[0];
}
