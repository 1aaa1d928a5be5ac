/* Parsing `count N [options]` (see count_args.h), and the long-run options of
 * count_run.h, which only parse here. */
#include <stdio.h>
#include <string.h>

#include "args_messages.h"
#include "count_args.h"
#include "number.h"
#include "progress.h"

const args_option count_args_slice_options[] = {COUNT_ARGS_OPTIONS, COUNT_ARGS_OPT_SLICE,
                                                COUNT_ARGS_OPT_TASK_TIMES, ARGS_OPT_END};

/* "K/M" with 0 <= K < M <= NQ_MAX_SLICES. */
static int parse_slice(const char *cmd, const char *value, count_opts *o)
{
    const char *slash = strchr(value, '/');
    char k[24];
    long kv, mv;

    if (slash && (size_t)(slash - value) < sizeof(k)) {
        memcpy(k, value, (size_t)(slash - value));
        k[slash - value] = '\0';
        if (number_parse_long(k, 0, NQ_MAX_SLICES - 1, &kv) == 0 &&
            number_parse_long(slash + 1, 1, NQ_MAX_SLICES, &mv) == 0 && kv < mv) {
            o->slice_index = (int)kv;
            o->slice_count = (int)mv;
            return 1;
        }
    }
    return args_usage_error(cmd, "invalid --slice '%s': expected K/M with 0 <= K < M <= %d", value,
                            NQ_MAX_SLICES);
}

int count_args_parse(count_args *a, const args_command *c, int argc, char **argv)
{
    const char *cmd = c->name, *n_arg = NULL;
    args_parser p;
    int id, rc;

    memset(a, 0, sizeof(*a));
    count_opts_default(&a->o);
    count_run_default(&a->r);
    a->worker_timeout = COUNT_ARGS_WORKER_TIMEOUT;
    args_begin(&p, c, argc, argv);
    while ((id = args_next_n(&p, &n_arg)) != ARG_END) {
        switch (id) {
        case ARG_EXIT:
            return p.exit_code;
        case OPT_JSON:
            a->json = 1;
            continue;
        case OPT_UNIQUE:
            a->unique = 1;
            continue;
        case OPT_SLICE:
            if (parse_slice(cmd, p.value, &a->o) != 1)
                return EXIT_USAGE;
            continue;
        case OPT_TASK_TIMES:
            if (!*p.value)
                return args_usage_error(cmd, "--task-times needs a file name");
            a->r.task_times = p.value;
            continue;
        case OPT_WORKER_TIMEOUT:
            if (number_parse_long(p.value, 0, 86400, &a->worker_timeout) != 0)
                return args_usage_error(cmd,
                                        "invalid --worker-timeout '%s': expected seconds "
                                        "0..86400 (0: wait for ever)",
                                        p.value);
            continue;
        }
        rc = count_opts_take(&a->o, cmd, id, p.value);
        if (rc == 0)
            rc = count_run_take(&a->r, cmd, id, p.value);
        if (rc != 1)
            return EXIT_USAGE; /* reported; every id of the table is one of the above */
    }
    if (a->json && a->unique)
        return args_usage_error(cmd, "--json and --unique: the JSON object has both counts "
                                     "(\"total\", \"unique\"); give one of them");
    if (a->o.slice_count &&
        count_opts_check_slice(cmd, "--slice", a->unique, a->r.subtotals != NULL) != 0)
        return EXIT_USAGE;
    if (args_parse_n(cmd, n_arg, &a->n) != 0)
        return EXIT_USAGE;
    if (a->r.checkpoint && a->r.subtotals && strcmp(a->r.checkpoint, a->r.subtotals) == 0)
        return args_usage_error(cmd, "--checkpoint and --subtotals name the same file");
    /* Resuming without --engine takes the journal's engine: checkpoint_adopt checks the
     * engine's options once it knows it (a prefix journal, resumed with its own
     * --prefix-rows). */
    if (!(a->r.checkpoint && !a->o.engine_set) &&
        (count_opts_check(cmd, &a->o, a->unique) != 0 ||
         count_opts_check_n(cmd, &a->o, a->o.engine, a->n) != 0))
        return EXIT_USAGE;
    return -1;
}
