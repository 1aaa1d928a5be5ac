/* Printing a count's result: the plain line, the JSON object and the verify lines (see
 * count_output.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args_messages.h"
#include "count_output.h"

static int same(nq_u128 a, nq_u128 b)
{
    return a.lo == b.lo && a.hi == b.hi;
}

int count_output_verified(int n, const nq_result *r)
{
    nq_u128 known;

    if (r->partial || nq_known_total(n, &known) != NQ_OK)
        return -1; /* a part of the tasks has no published value */
    if (!same(known, r->total))
        return 0;
    /* verified covers the unique count too, where the engine gives one */
    if (r->has_unique && nq_known_unique(n, &known) == NQ_OK && !same(known, r->unique))
        return 0;
    return 1;
}

static double u128_double(nq_u128 v)
{
    return (double)v.hi * 18446744073709551616.0 + (double)v.lo;
}

/* The rate of what this run counted: a resumed run's journal share took no time here,
 * so it is left out; null when nothing was counted in a measured time. */
static void rate_json(const nq_result *r, char *buf, size_t size)
{
    double counted = u128_double(r->total) - u128_double(r->reused_total);

    if (r->seconds > 0 && (counted > 0 || r->tasks_reused == 0))
        snprintf(buf, size, "%.0f", counted / r->seconds);
    else
        snprintf(buf, size, "null");
}

const char *count_output_worker_memory(uint64_t bytes, char *buf, size_t size)
{
    if (bytes)
        snprintf(buf, size, "%llu", (unsigned long long)bytes);
    else
        snprintf(buf, size, "null");
    return buf;
}

void count_output_json(FILE *f, const count_report *c)
{
    const nq_result *r = c->r;
    char total[40], unique[40] = "null", cpu[32] = "null", simd[16] = "null", reused[40], rate[40];
    char worker[24];
    int v = count_output_verified(c->n, r);
    char slice[160] = "null";

    if (r->slice_count)
        snprintf(slice, sizeof(slice),
                 "{\"k\": %d, \"m\": %d, \"first_task\": %llu, \"end_task\": %llu, "
                 "\"set_tasks\": %llu}",
                 r->slice_index, r->slice_count, (unsigned long long)r->first_task,
                 (unsigned long long)r->end_task, (unsigned long long)r->set_tasks);
    if (r->has_unique)
        nq_u128_to_string(r->unique, unique, sizeof(unique));
    if (r->simd != NQ_SIMD_AUTO) /* an engine with vector paths: the one that ran */
        snprintf(simd, sizeof(simd), "\"%s\"", nq_simd_name(r->simd));
    if (c->cpu_seconds >= 0)
        snprintf(cpu, sizeof(cpu), "%.6f", c->cpu_seconds);
    nq_u128_to_string(r->total, total, sizeof(total));
    nq_u128_to_string(r->reused_total, reused, sizeof(reused));
    rate_json(r, rate, sizeof(rate));
    fprintf(f,
            "{\"schema\": %d, \"n\": %d, \"total\": %s, \"unique\": %s, \"engine\": \"%s\", "
            "\"simd\": %s, \"worker_memory\": %s, \"threads\": %d, \"pinned_threads\": %d, "
            "\"tasks\": %llu, "
            "\"prefix_rows\": %d, \"seconds\": %.6f, \"setup_seconds\": %.6f, "
            "\"cpu_seconds\": %s, \"solutions_per_second\": %s, \"reused_tasks\": %llu, "
            "\"reused_total\": %s, \"verified\": %s, \"partial\": %s, \"slice\": %s%s%s}\n",
            NQ_JSON_SCHEMA, c->n, total, unique, nq_engine_name(r->engine), simd,
            count_output_worker_memory(r->worker_memory, worker, sizeof(worker)), r->n_threads,
            r->n_pinned, (unsigned long long)r->tasks, r->prefix_rows, r->seconds, r->setup_seconds,
            cpu, rate, (unsigned long long)r->tasks_reused, reused,
            v < 0 ? "null"
            : v   ? "true"
                  : "false",
            r->partial ? "true" : "false", slice, c->extra_json ? ", " : "",
            c->extra_json ? c->extra_json : "");
}

int count_output_print(const char *cmd, const count_report *c, int json, int unique)
{
    FILE *f = c->to ? c->to : stdout;

    if (unique && !c->r->has_unique) /* e.g. a resumed journal of the prefix engine */
        return args_run_error(cmd, "engine %s gives no unique count", nq_engine_name(c->r->engine));
    if (json) {
        count_output_json(f, c);
    } else {
        if (c->r->slice_count)
            args_note(cmd,
                      "slice %d/%d: tasks [%llu, %llu) of %llu, a partial total (nqueens merge "
                      "adds up the slices' journals)",
                      c->r->slice_index, c->r->slice_count, (unsigned long long)c->r->first_task,
                      (unsigned long long)c->r->end_task, (unsigned long long)c->r->set_tasks);
        char text[40];
        fprintf(f, "%s\n",
                nq_u128_to_string(unique ? c->r->unique : c->r->total, text, sizeof(text)));
    }
    if (fflush(f) != 0 || ferror(f)) {
        int e = errno ? errno : EIO;
        return args_run_error(cmd, "cannot write the result: %s", strerror(e));
    }
    return 0;
}

void count_output_verify_line(FILE *f, int n, const nq_result *r)
{
    char total[40], unique[40] = "-", want_total[40] = "?", want_unique[40] = "-";
    nq_u128 known;
    int ok = count_output_verified(n, r) == 1;

    nq_u128_to_string(r->total, total, sizeof(total));
    if (r->has_unique)
        nq_u128_to_string(r->unique, unique, sizeof(unique));
    /* n=27, the widest: 9 + 25 + 25 + 13 columns */
    fprintf(f, "%s n=%-2d total %-18s unique %-17s %10.3f s\n", ok ? "PASS" : "FAIL", n, total,
            unique, r->seconds);
    if (ok)
        return;
    if (nq_known_total(n, &known) == NQ_OK)
        nq_u128_to_string(known, want_total, sizeof(want_total));
    if (r->has_unique && nq_known_unique(n, &known) == NQ_OK)
        nq_u128_to_string(known, want_unique, sizeof(want_unique));
    fprintf(f, "%9s total %-18s unique %s\n", "expected", want_total, want_unique);
}

/* One published value against the count's; 0 if they agree or none is published. */
static int check_known(const char *cmd, int n, nq_u128 got, int (*known)(int, nq_u128 *),
                       const char *what, const char *seq, const char *journal)
{
    char g[40], w[40];
    nq_u128 want;

    if (known(n, &want) != NQ_OK || same(want, got))
        return 0;
    nq_u128_to_string(got, g, sizeof(g));
    nq_u128_to_string(want, w, sizeof(w));
    if (journal)
        return args_run_error(cmd,
                              "wrong %s %s for n=%d, the published value is %s (OEIS %s): the "
                              "journal %s may be damaged; count again without it",
                              what, g, n, w, seq, journal);
    return args_run_error(cmd,
                          "wrong %s %s for n=%d, the published value is %s (OEIS %s): this "
                          "build or this machine is at fault",
                          what, g, n, w, seq);
}

int count_output_verify(const char *cmd, int n, const nq_result *r, const char *journal)
{
    int rc;

    if (r->partial)
        return 0;
    rc = check_known(cmd, n, r->total, nq_known_total, "total", "A000170", journal);
    if (rc == 0 && r->has_unique)
        rc = check_known(cmd, n, r->unique, nq_known_unique, "unique count", "A002562", journal);
    return rc;
}
