/* Code built more than once, one copy per CPU path, and the one probe of what this CPU
 * runs, from which every such code picks its copy: the join's hot loops, one copy per
 * vector path (enum nq_simd), and the counting searches, one per x86-64 level
 * (meson.build: join_isas, search_levels), so that a portable package runs as fast as
 * a native build. */
#ifndef NQ_CPU_H
#define NQ_CPU_H

/* In a source compiled once per path, with CPU_BUILD naming the copy (meson.build:
 * -DCPU_BUILD=avx2): name##_##CPU_BUILD, this copy's own name (join_halves_avx2). */
#define CPU_BUILD_CAT2(name, build) name##_##build
#define CPU_BUILD_CAT(name, build) CPU_BUILD_CAT2(name, build)
#define CPU_BUILD_NAME(name) CPU_BUILD_CAT(name, CPU_BUILD)

/* A set of vector paths (enum nq_simd), one bit each: what an engine's build carries
 * (engine_desc.simd_paths). */
#define CPU_SIMD_BIT(simd) (1u << (simd))

/* Whether this CPU, and its OS (which must save the wide registers), runs the code of
 * vector path simd: scalar on any CPU, AVX2 and AVX-512 on x86 CPUs with their sets
 * (enum nq_simd says which); 0 for auto or a value that names no path. */
int cpu_runs_simd(int simd);
/* Whether it runs code built for x86-64-v3 (AVX2, BMI1/2, popcnt, lzcnt, ...); 0 where
 * the build makes no v3 copy (its compiler cannot ask). */
int cpu_runs_x86_64_v3(void);

/* Whether this CPU runs BMI2's pext in a cycle or so, as every Intel CPU with BMI2 and
 * AMD's from Zen 3 on do; AMD's (and Hygon's) before Zen 3 take up to hundreds of
 * cycles, microcoded. 0 where there is no pext. */
int cpu_pext_fast(void);

/* The path that settings.simd = simd runs among the paths of a build (a CPU_SIMD_BIT
 * set): simd itself where the set holds it and this CPU runs it, for auto the widest
 * such; -1 where there is none. */
int cpu_simd_pick(unsigned paths, int simd);

#endif
