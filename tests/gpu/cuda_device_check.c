/* The GPU engine on a real GPU: totals and unique counts for n = 1..19 against OEIS, and
 * per-task subtotals equal to the CPU d4 engine's for n = 12..15, and a run stopped in
 * the middle keeps only right subtotals and resumes to the total. Plain C, no Criterion,
 * so that it builds on the device machine; exits 77 (skipped) without a usable GPU.
 * Usage: cuda_device_check [max_n] (default 19). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_check_settings.h"
#include "nqueens/nqueens.h"
#include "subtotals.h"

#ifndef NQ_OEIS_DIR
#define NQ_OEIS_DIR ""
#endif

/* The published value from the OEIS file when it is there (a developer machine), else
 * the library's table, which the CPU tests check against those files. */
static int published(const char *seq, int n, uint64_t *out, const char **from)
{
    char path[1024], line[256];
    FILE *f;
    nq_u128 v;

    snprintf(path, sizeof(path), "%s/%s.txt", NQ_OEIS_DIR, seq);
    f = fopen(path, "r");
    if (f) {
        while (fgets(line, sizeof(line), f)) {
            int k;
            unsigned long long x;
            if (line[0] != '#' && sscanf(line, "%d %llu", &k, &x) == 2 && k == n) {
                fclose(f);
                *out = x;
                *from = "OEIS file";
                return 0;
            }
        }
        fclose(f);
    }
    *from = "library table";
    if ((strcmp(seq, "A000170") == 0 ? nq_known_total(n, &v) : nq_known_unique(n, &v)) != NQ_OK)
        return -1;
    *out = v.lo;
    return v.hi ? -1 : 0;
}

/* A count of board n with engine at rows inner rows (0: auto), each task's subtotal kept
 * in s when s is not NULL. */
static int count(int n, int engine, int rows, subtotals *s, nq_result *r)
{
    nq_settings st = engine_check_settings(n, engine, 0);
    nq_solver *sv;
    nq_hooks h = s ? subtotals_hooks(s, 0) : (nq_hooks){0};
    int rc;

    st.prefix_rows = rows;
    rc = nq_create_solver(&sv, &st);
    if (rc != NQ_OK)
        return rc;
    rc = nq_count(sv, s ? &h : NULL, r);
    nq_destroy_solver(&sv);
    return rc;
}

/* A stop in the middle of a run, as Ctrl-C makes one: the hook cancels the solver once
 * the first task is in, while a second chunk is still on the GPU. */
typedef struct stopper {
    subtotals kept;
    nq_solver *sv;
    const uint64_t *cpu;
    uint64_t recorded, wrong;
} stopper;

static int stop_keep(void *user, uint64_t id, uint64_t subtotal)
{
    stopper *s = user;
    subtotals_done(&s->kept, id, subtotal);
    s->wrong += id >= s->kept.n || subtotal != s->cpu[id];
    if (++s->recorded == 1)
        nq_solver_cancel(s->sv);
    return 0;
}

static int stop_reuse(void *user, uint64_t id, uint64_t *subtotal)
{
    stopper *s = user;
    return subtotals_reuse(&s->kept, id, subtotal);
}

/* Every task recorded before the stop carries the CPU's subtotal, and the run that
 * reuses them (as a resumed journal does) ends at the published counts. */
static int check_stop(int n, const uint64_t *cpu, uint64_t n_tasks)
{
    stopper s = {0};
    nq_settings st = engine_check_settings(n, NQ_ENGINE_CUDA, 0);
    nq_hooks h = {&s, stop_reuse, stop_keep};
    nq_result r;
    uint64_t want, want_u, first;
    const char *from;
    int rc, rc2, failed = 0;

    s.cpu = cpu;
    if (subtotals_init(&s.kept, n_tasks) || published("A000170", n, &want, &from) ||
        published("A002562", n, &want_u, &from))
        return 1;
    if (nq_create_solver(&s.sv, &st) != NQ_OK)
        return 1;
    rc = nq_count(s.sv, &h, &r);
    first = s.recorded;
    nq_destroy_solver(&s.sv);
    if (nq_create_solver(&s.sv, &st) != NQ_OK)
        return 1;
    rc2 = nq_count(s.sv, &h, &r);
    nq_destroy_solver(&s.sv);
    if (rc != NQ_ECANCELED || rc2 != NQ_OK || s.wrong || atomic_load(&s.kept.bad) ||
        s.recorded != n_tasks || r.total.lo != want || r.unique.lo != want_u) {
        printf("FAIL n=%d stop: first run %s with %llu tasks, rerun %s, %llu wrong subtotals, "
               "total %llu (want %llu)\n",
               n, nq_strerror(rc), (unsigned long long)first, nq_strerror(rc2),
               (unsigned long long)s.wrong, (unsigned long long)r.total.lo,
               (unsigned long long)want);
        failed = 1;
    } else {
        printf("ok   n=%d stop: %llu of %llu tasks kept by the stopped run, all equal to the "
               "CPU's; the rerun ends at %llu\n",
               n, (unsigned long long)first, (unsigned long long)n_tasks, (unsigned long long)want);
    }
    subtotals_free(&s.kept);
    return failed;
}

int main(int argc, char **argv)
{
    int max_n = argc > 1 ? atoi(argv[1]) : 19, failed = 0, rc;
    nq_result r;

    if (nq_engine_from_name("cuda") != NQ_ENGINE_CUDA) {
        printf("cuda_device_check: this build has no CUDA engine: skipped\n");
        return 77;
    }
    rc = count(1, NQ_ENGINE_CUDA, 0, NULL, &r);
    if (rc == NQ_ENODEV) {
        printf("cuda_device_check: %s: skipped\n", nq_strerror(rc));
        return 77;
    }
    for (int n = 1; n <= max_n; n++) {
        uint64_t want, want_u;
        const char *from;
        rc = count(n, NQ_ENGINE_CUDA, 0, NULL, &r);
        if (rc != NQ_OK || published("A000170", n, &want, &from) ||
            published("A002562", n, &want_u, &from)) {
            printf("FAIL n=%d: %s\n", n, rc ? nq_strerror(rc) : "no published value");
            failed++;
            continue;
        }
        if (r.total.lo != want || r.total.hi || r.unique.lo != want_u) {
            printf("FAIL n=%d: total %llu unique %llu, %s says %llu and %llu\n", n,
                   (unsigned long long)r.total.lo, (unsigned long long)r.unique.lo, from,
                   (unsigned long long)want, (unsigned long long)want_u);
            failed++;
            continue;
        }
        printf("ok   n=%-2d total %llu unique %llu (%s) %.3f s, %llu tasks, rows %d\n", n,
               (unsigned long long)want, (unsigned long long)want_u, from, r.seconds,
               (unsigned long long)r.tasks, r.prefix_rows);
    }
    /* Per task: the d4 engine on the CPU against the GPU, at the auto depth and at
     * shallow ones that leave the GPU deep stacks. */
    for (int n = 12; n <= 15 && n <= max_n; n++) {
        static const int rows[] = {0, 1, 2, 4};
        nq_settings st = engine_check_settings(n, NQ_ENGINE_D4, 0);
        nq_task_set ts;
        subtotals cpu, gpu;

        nq_task_set_describe(&st, &ts);
        if (subtotals_init(&cpu, ts.tasks) || subtotals_init(&gpu, ts.tasks) ||
            count(n, NQ_ENGINE_D4, 0, &cpu, &r) != NQ_OK) {
            printf("FAIL n=%d: the CPU d4 run failed\n", n);
            return 1;
        }
        for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
            uint64_t diff;
            subtotals_clear(&gpu);
            rc = count(n, NQ_ENGINE_CUDA, rows[k], &gpu, &r);
            diff = (uint64_t)atomic_load(&gpu.bad); /* ids out of range or twice */
            for (uint64_t i = 0; i < ts.tasks; i++)
                diff += !gpu.seen[i] || cpu.value[i] != gpu.value[i];
            if (rc != NQ_OK || diff) {
                printf("FAIL n=%d rows=%d: %s, %llu of %llu subtotals differ\n", n, rows[k],
                       nq_strerror(rc), (unsigned long long)diff, (unsigned long long)ts.tasks);
                failed++;
            } else {
                printf("ok   n=%d rows=%d: %llu per-task subtotals equal the CPU d4 engine's\n", n,
                       r.prefix_rows, (unsigned long long)ts.tasks);
            }
        }
        if (n == 15)
            failed += check_stop(n, cpu.value, ts.tasks);
        subtotals_free(&cpu);
        subtotals_free(&gpu);
    }
    printf("cuda_device_check: %s\n", failed ? "FAILED" : "all passed");
    return failed ? 1 : 0;
}
