/* Printing a count's result: the plain line and the JSON object (see count_output.h). */
#include <stdio.h>

#include "args.h"
#include "count_output.h"

static int same(nq_u128 a, nq_u128 b)
{
    return a.lo == b.lo && a.hi == b.hi;
}

static void print_json(int n, const nq_result *r, const char *extra_json)
{
    char total[40], unique[40] = "null";
    nq_u128 known;
    double rate =
        r->seconds > 0
            ? ((double)r->total.hi * 18446744073709551616.0 + (double)r->total.lo) / r->seconds
            : 0.0;
    const char *verified = "null";

    if (nq_known_total(n, &known) == NQ_OK)
        verified = same(known, r->total) ? "true" : "false";
    /* verified covers the unique count too, where the engine gives one */
    if (r->has_unique && nq_known_unique(n, &known) == NQ_OK && !same(known, r->unique))
        verified = "false";
    if (r->has_unique)
        nq_u128_to_string(r->unique, unique, sizeof(unique));
    nq_u128_to_string(r->total, total, sizeof(total));
    printf("{\"n\": %d, \"total\": %s, \"unique\": %s, \"engine\": \"%s\", \"threads\": %d, "
           "\"tasks\": %llu, \"prefix_rows\": %d, \"pinned\": %d, \"seconds\": %.6f, "
           "\"solutions_per_second\": %.0f, \"verified\": %s%s%s}\n",
           n, total, unique, nq_engine_name(r->engine), r->n_threads, (unsigned long long)r->tasks,
           r->prefix_rows, r->n_pinned, r->seconds, rate, verified, extra_json ? ", " : "",
           extra_json ? extra_json : "");
}

int count_output_print(const char *cmd, int n, const nq_result *r, int json, int unique,
                       const char *extra_json)
{
    if (unique && !r->has_unique) /* e.g. a resumed journal of the prefix engine */
        return args_run_error(cmd, "engine %s gives no unique count", nq_engine_name(r->engine));
    if (json) {
        print_json(n, r, extra_json);
    } else {
        char text[40];
        printf("%s\n", nq_u128_to_string(unique ? r->unique : r->total, text, sizeof(text)));
    }
    return fflush(stdout) == 0 ? 0 : args_run_error(cmd, "cannot write the result");
}

int count_output_check(const char *cmd, const count_opts *o, int unique)
{
    if (unique && o->engine == NQ_ENGINE_PREFIX)
        return args_usage_error(cmd, "--unique needs an engine that counts symmetry classes: "
                                     "--engine d4");
    /* d4 places the border rows itself; silently ignoring a depth would mislead */
    if (o->prefix_rows && o->engine == NQ_ENGINE_D4)
        return args_usage_error(cmd, "--prefix-rows applies to --engine prefix or cuda, not d4");
    return 0;
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
    int rc = check_known(cmd, n, r->total, nq_known_total, "total", "A000170", journal);
    if (rc == 0 && r->has_unique)
        rc = check_known(cmd, n, r->unique, nq_known_unique, "unique count", "A002562", journal);
    return rc;
}
