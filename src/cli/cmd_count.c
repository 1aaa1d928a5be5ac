/* nqueens count: one board size, the total on stdout (or one JSON object). */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "count_output.h"
#include "count_run.h"

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
    count_opts o;
    count_run_opts cr;
    args_iter it;
    const char *arg, *n_arg = NULL;
    int json = 0, unique = 0, n = 0, kind, rc;
    nq_settings s;
    nq_result r;

    count_opts_default(&o);
    count_run_default(&cr);
    args_iter_init(&it, argc, argv);
    while ((kind = args_next(&it, &arg)) != ARG_END) {
        if (kind == ARG_POSITIONAL) {
            if (strcmp(arg, "-h") == 0) {
                fputs(count_help, stdout);
                return 0;
            }
            if (n_arg)
                return args_usage_error(cmd, "unexpected argument '%s': count takes one N", arg);
            n_arg = arg;
            continue;
        }
        if (strcmp(it.name, "help") == 0) {
            fputs(count_help, stdout);
            return 0;
        }
        if (strcmp(it.name, "json") == 0 && !args_has_inline_value(&it)) {
            json = 1;
            continue;
        }
        if (strcmp(it.name, "unique") == 0 && !args_has_inline_value(&it)) {
            unique = 1;
            continue;
        }
        rc = count_opts_take(&o, cmd, &it);
        if (rc == 0)
            rc = count_run_take(&cr, cmd, &it);
        if (rc == EXIT_USAGE)
            return rc;
        if (rc == 1)
            continue;
        return args_usage_error(cmd, "unknown option '%s' (see 'nqueens count --help')", arg);
    }
    if (!n_arg)
        return args_usage_error(cmd, "missing board size N (1..%d)", NQ_MAX_N);
    if (args_parse_n(cmd, n_arg, &n) != 0)
        return EXIT_USAGE;
    if (count_output_check(cmd, &o, unique) != 0)
        return EXIT_USAGE;
    count_opts_settings(&o, n, &s);
    rc = count_run(&cr, cmd, &o, &s, &r);
    if (rc != 0)
        return rc;
    args_warn_unpinned(&o, &r);
    return count_output_print(cmd, n, &r, json, unique, NULL);
}
