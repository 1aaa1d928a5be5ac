/* Parsing `count N [options]` (see count_args.h), and the long-run options of
 * count_run.h, which only parse here. */
#include <stdio.h>
#include <string.h>

#include "count_args.h"
#include "count_output.h"
#include "progress.h"

void count_run_default(count_run_opts *r)
{
    memset(r, 0, sizeof(*r));
    r->sync_interval = 5;
    r->progress = PROGRESS_AUTO;
}

static int take_path(const char **dst, const char *cmd, args_iter *it)
{
    const char *v = args_value(it);
    if (!v || !*v)
        return args_usage_error(cmd, "--%s needs a file name", it->name);
    *dst = v;
    return 1;
}

int count_run_take(count_run_opts *r, const char *cmd, args_iter *it)
{
    const char *v;

    if (strcmp(it->name, "checkpoint") == 0)
        return take_path(&r->checkpoint, cmd, it);
    if (strcmp(it->name, "subtotals") == 0)
        return take_path(&r->subtotals, cmd, it);
    if (strcmp(it->name, "sync-interval") == 0) {
        v = args_value(it);
        if (!v)
            return args_usage_error(cmd, "--sync-interval needs a value");
        if (args_parse_long(v, 0, 86400, &r->sync_interval) != 0)
            return args_usage_error(cmd, "invalid --sync-interval '%s': expected seconds 0..86400",
                                    v);
        return 1;
    }
    return progress_take(&r->progress, cmd, it);
}

int count_args_parse(count_args *a, const char *cmd, const char *help, int argc, char **argv)
{
    args_iter it;
    const char *arg, *n_arg = NULL;
    int kind, rc;

    memset(a, 0, sizeof(*a));
    count_opts_default(&a->o);
    count_run_default(&a->r);
    args_iter_init(&it, argc, argv);
    while ((kind = args_next(&it, &arg)) != ARG_END) {
        if (kind == ARG_POSITIONAL) {
            if (strcmp(arg, "-h") == 0) {
                fputs(help, stdout);
                return 0;
            }
            if (n_arg)
                return args_usage_error(cmd, "unexpected argument '%s': %s takes one N", arg, cmd);
            n_arg = arg;
            continue;
        }
        if (strcmp(it.name, "help") == 0) {
            fputs(help, stdout);
            return 0;
        }
        if (strcmp(it.name, "json") == 0 && !args_has_inline_value(&it)) {
            a->json = 1;
            continue;
        }
        if (strcmp(it.name, "unique") == 0 && !args_has_inline_value(&it)) {
            a->unique = 1;
            continue;
        }
        rc = count_opts_take(&a->o, cmd, &it);
        if (rc == 0)
            rc = count_run_take(&a->r, cmd, &it);
        if (rc == EXIT_USAGE)
            return rc;
        if (rc == 1)
            continue;
        return args_usage_error(cmd, "unknown option '%s' (see '%s %s --help')", arg, args_program,
                                cmd);
    }
    if (!n_arg)
        return args_usage_error(cmd, "missing board size N (1..%d)", NQ_MAX_N);
    if (args_parse_n(cmd, n_arg, &a->n) != 0)
        return EXIT_USAGE;
    if (a->r.checkpoint && a->r.subtotals && strcmp(a->r.checkpoint, a->r.subtotals) == 0)
        return args_usage_error(cmd, "--checkpoint and --subtotals name the same file");
    /* Resuming without --engine takes the journal's engine: checkpoint_adopt checks the
     * engine's options once it knows it (a prefix journal, resumed with its own
     * --prefix-rows). */
    if (!(a->r.checkpoint && !a->o.engine_set) && count_output_check(cmd, &a->o, a->unique) != 0)
        return EXIT_USAGE;
    return -1;
}
