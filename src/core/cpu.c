/* What this CPU runs, asked of the compiler's builtins, which read cpuid (and for AVX
 * and AVX-512 whether the OS saves the wide registers) once per process: a load and a
 * test per question, cheap enough to ask once per task. Off x86 only scalar runs.
 * Whether pext is fast reads cpuid itself (a trap to the hypervisor in a VM: once per
 * count, when the join picks its kernel). */
#include "core/cpu.h"
#include "config.h"
#include "nqueens/nqueens.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int cpu_runs_simd(int simd)
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
        return cpu_runs_simd(NQ_SIMD_AVX2) && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vpopcntdq");
#endif
    default:
        return 0;
    }
}

int cpu_pext_fast(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("bmi2") || !__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    /* vendor AuthenticAMD or HygonGenuine: the words of ebx are "Auth" and "Hygo" */
    if (b != 0x68747541 && b != 0x6f677948)
        return 1;
    __get_cpuid(1, &a, &b, &c, &d);
    unsigned family = a >> 8 & 0xf;
    if (family == 0xf)
        family += a >> 20 & 0xff;
    return family >= 0x19; /* Zen 3 */
#else
    return 0;
#endif
}

int cpu_runs_x86_64_v3(void)
{
#if NQ_HAVE_SEARCH_V3
    /* the level's name is known to the compilers that build the copy */
    return __builtin_cpu_supports("x86-64-v3");
#else
    return 0;
#endif
}

static int holds(unsigned paths, int simd)
{
    return simd > NQ_SIMD_AUTO && simd <= NQ_SIMD_AVX512 && (paths & CPU_SIMD_BIT(simd));
}

int cpu_simd_pick(unsigned paths, int simd)
{
    if (simd != NQ_SIMD_AUTO)
        return holds(paths, simd) && cpu_runs_simd(simd) ? simd : -1;
    /* enum nq_simd lists the paths narrowest first */
    for (int p = NQ_SIMD_AVX512; p > NQ_SIMD_AUTO; p--)
        if (holds(paths, p) && cpu_runs_simd(p))
            return p;
    return -1;
}
