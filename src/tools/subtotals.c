/* The --subtotals CSV (see subtotals.h). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args_messages.h"
#include "core/u128.h"
#include "subtotals.h"

int subtotals_to_stdout(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

int subtotals_open(const char *cmd, const char *path, subtotals_file *sf)
{
    if (subtotals_to_stdout(path))
        /* A copy of standard output, which is written and never cut (a file the shell
         * opened for appending keeps what it held) or removed. */
        return output_writer_adopt(&sf->w, cmd, "--subtotals", "- (standard output)",
                                   fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3));
    return output_writer_open(&sf->w, cmd, "--subtotals", path);
}

void subtotals_abandon(subtotals_file *sf)
{
    output_writer_abandon(&sf->w);
}

int subtotals_write(const char *cmd, subtotals_file *sf, const nq_task_set *ts,
                    const uint64_t *subs)
{
    uint8_t *w = malloc(ts->tasks ? ts->tasks : 1);
    FILE *f = sf->w.f;

    if (!w || nq_task_set_weights(ts, w) != NQ_OK) {
        free(w);
        subtotals_abandon(sf);
        return args_run_error(cmd, "cannot write --subtotals %s: no weights for the task set",
                              sf->w.path);
    }
    fputs("task,subtotal,weight,weighted\n", f);
    for (uint64_t i = 0; i < ts->tasks; i++) {
        char weighted[40];
        nq_u128 v = u128_pack((u128)subs[i] * w[i]);
        fprintf(f, "%llu,%llu,%u,%s\n", (unsigned long long)i, (unsigned long long)subs[i],
                (unsigned)w[i], nq_u128_to_string(v, weighted, sizeof(weighted)));
    }
    free(w);
    return output_writer_commit(&sf->w, cmd);
}

int subtotals_check_distinct(const char *cmd, const char *checkpoint, const nq_journal *j,
                             const char *subtotals, const char *task_times)
{
    output_file f[4];
    int n = 0;

    if (checkpoint)
        output_file_journal(&f[n++], checkpoint, j);
    if (subtotals_to_stdout(subtotals)) /* the CSV stands for standard output */
        output_file_fd(&f[n++], "--subtotals", subtotals, STDOUT_FILENO);
    else if (subtotals)
        output_file_path(&f[n++], "--subtotals", subtotals);
    if (task_times)
        output_file_path(&f[n++], "--task-times", task_times);
    if (!subtotals_to_stdout(subtotals))
        output_file_fd(&f[n++], NULL, NULL, STDOUT_FILENO);
    return output_files_distinct(cmd, f, n);
}
