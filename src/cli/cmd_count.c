/* nqueens count: one board size, the total on stdout (or one JSON object). */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "count_args.h"
#include "count_output.h"

static const char count_help[] =
    "usage: nqueens count N [options]\n"
    "Count the solutions of the N-queens problem (1 <= N <= 32) and print the total.\n"
    "\n" COUNT_OPTS_HELP COUNT_RUN_HELP
    "  --json             print one JSON object (n, total, unique, engine, threads,\n"
    "                     tasks, seconds, solutions_per_second, verified)\n"
    "  --unique           print the solutions up to symmetry (OEIS A002562) instead\n"
    "  -h, --help         this help\n";

int cmd_count(int argc, char **argv)
{
    static const char *const cmd = "count";
    count_args a;
    nq_settings s;
    nq_result r;
    int rc = count_args_parse(&a, cmd, count_help, argc, argv);

    if (rc >= 0)
        return rc;
    count_opts_settings(&a.o, a.n, &s);
    rc = count_run(&a.r, cmd, &a.o, a.unique, &s, &r);
    if (rc != 0)
        return rc;
    args_warn_unpinned(&a.o, &r);
    return count_output_print(cmd, a.n, &r, a.json, a.unique, NULL);
}
