/* Test helper: the --progress=json lines that nqueens count, nqueens list and nqueens-mpi
 * write on stderr, parsed and checked the same way for all three. */
#ifndef NQ_TEST_PROGRESS_JSON_H
#define NQ_TEST_PROGRESS_JSON_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oeis_data.h"

/* One --progress=json line: its numbers, or 0 if the line is not in the format. */
typedef struct progress_line {
    unsigned long long done, total, solutions;
    double percent, sol_rate, task_rate, seconds;
    int final;
} progress_line;

static inline int parse_progress(const char *line, progress_line *p)
{
    char eta[32], final[8];
    int used = 0;
    if (sscanf(line,
               "{\"progress\": {\"schema\": 2, \"tasks_done\": %llu, \"tasks_total\": %llu, "
               "\"percent\": %lf, \"solutions_so_far\": %llu, \"solutions_per_second\": %lf, "
               "\"tasks_per_second\": %lf, \"seconds\": %lf, \"eta_seconds\": %31[^,], "
               "\"final\": %7[a-z]}}%n",
               &p->done, &p->total, &p->percent, &p->solutions, &p->sol_rate, &p->task_rate,
               &p->seconds, eta, final, &used) != 9 ||
        used == 0)
        return 0;
    if (strcmp(eta, "null") != 0 && strtod(eta, NULL) < 0)
        return 0;
    p->final = strcmp(final, "true") == 0;
    return p->final || strcmp(final, "false") == 0;
}

/* Every line of err that is progress: parses, never goes back, and the last one is final
 * with every task done and the whole total of board n. Returns the number of lines;
 * the last one goes to *last_out unless it is NULL. */
static inline int expect_progress(const char *err, int n, progress_line *last_out)
{
    progress_line p, last = {0};
    int lines = 0;
    for (const char *l = strstr(err, "{\"progress\""); l; l = strstr(l + 1, "{\"progress\"")) {
        cr_assert(parse_progress(l, &p), "not a progress line: %.200s", l);
        cr_expect_geq(p.done, last.done, "tasks done went back: %.200s", l);
        cr_expect_leq(p.done, p.total, "%.200s", l);
        cr_expect_geq(p.solutions, last.solutions, "%.200s", l);
        cr_expect_geq(p.percent, last.percent, "the share done went back: %.200s", l);
        /* the share of the work is the share of the published total found so far */
        cr_expect_float_eq(p.percent,
                           100.0 * (double)p.solutions / (double)oeis_value("A000170", n), 0.006,
                           "%.200s", l);
        cr_expect(!last.final, "a line after the final one: %.200s", l);
        last = p;
        lines++;
    }
    cr_assert_gt(lines, 0, "no progress in: %s", err);
    cr_expect(last.final, "the last line is not final: %s", err);
    cr_expect_eq(last.done, last.total, "%s", err);
    cr_expect_eq(last.solutions, oeis_value("A000170", n), "%s", err);
    cr_expect_float_eq(last.percent, 100.0, 1e-9, "%s", err);
    if (last_out)
        *last_out = last;
    return lines;
}

#endif
