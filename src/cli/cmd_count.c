/* nqueens count: one board size, the total on stdout (or one JSON object). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tools/args_parser.h"
#include "tools/count_args.h"
#include "tools/count_opts.h"
#include "tools/count_output.h"
#include "tools/subtotals.h"

const args_command count_command = {
    "count",
    "N [options]",
    "Count the solutions of the N-queens problem (1 <= N <= 32) and print the total.\n",
    count_args_slice_options,
    NULL,
};

int cmd_count(int argc, char **argv)
{
    static const char *const cmd = "count";
    count_args a;
    nq_settings s;
    nq_result r;
    count_report c = {0, &r, 0.0, NULL, NULL};
    int rc = count_args_parse(&a, &count_command, argc, argv);

    if (rc >= 0)
        return rc;
    count_opts_settings(&a.o, a.n, &s);
    c.n = a.n;
    c.to = subtotals_to_stdout(a.r.subtotals) ? stderr : stdout;
    rc = count_run(&a.r, cmd, &a.o, a.unique, &s, &r);
    c.cpu_seconds = r.user_seconds + r.system_seconds; /* the count's, setup apart, as seconds */
    if (rc != 0)
        return rc;
    args_warn_unpinned(&a.o, &r);
    return count_output_print(cmd, &c, a.json, a.unique);
}
