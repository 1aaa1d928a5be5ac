/* How a finished count is printed, shared by nqueens count, verify and nqueens-mpi so
 * that the tools always print the same thing: the plain line, the JSON object (one
 * vocabulary, see docs/json.md) and the verify lines. */
#ifndef NQ_TOOLS_COUNT_OUTPUT_H
#define NQ_TOOLS_COUNT_OUTPUT_H

#include <stdio.h>

#include "nqueens/nqueens.h"

/* The version of the JSON vocabulary that count, verify, bench and the progress lines
 * write as "schema": raised when a name changes meaning or goes away. */
#define NQ_JSON_SCHEMA 2

/* A finished count and what the tool adds to the library's result. */
typedef struct count_report {
    int n;
    const nq_result *r;
    double cpu_seconds;     /* the process's user + system time for the count; < 0: unknown */
    const char *extra_json; /* further members ("\"ranks\": 3"), or NULL */
    FILE *to;               /* where the result goes; NULL: standard output */
} count_report;

/* The total (or, with unique, the A002562 count) alone on one line, or with json one
 * object. Returns 0, or EXIT_RUN_FAILED (after a one-line message) when unique is asked
 * of an engine that gives none or stdout cannot be written. */
int count_output_print(const char *cmd, const count_report *c, int json, int unique);

/* The JSON value of nq_result.worker_memory into buf (at least 24 bytes): its bytes, or
 * null for an engine without a working set of its own (0). Returns buf. */
const char *count_output_worker_memory(uint64_t bytes, char *buf, size_t size);

/* The JSON object of a count, on one line. */
void count_output_json(FILE *f, const count_report *c);

/* Whether the total (and the unique count, where the engine gives one) match the
 * built-in OEIS tables: 1 yes, 0 no, -1 unknown (n beyond them). */
int count_output_verified(int n, const nq_result *r);

/* verify's line for board n: PASS or FAIL, the numbers found and the time, and under a
 * FAIL line the expected numbers; every line fits 80 columns for any n the tables know. */
void count_output_verify_line(FILE *f, int n, const nq_result *r);

/* After the run, before anything is printed: for the sizes with a published value
 * (n <= 27), a total or unique count that contradicts it is a failure, never output.
 * journal names the checkpoint the total was partly read from (NULL: none). Returns 0,
 * or EXIT_RUN_FAILED after a one-line message naming the wrong number. */
int count_output_verify(const char *cmd, int n, const nq_result *r, const char *journal);

#endif
