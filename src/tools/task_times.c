/* count's --task-times file (see task_times.h). */
#include <stdlib.h>
#include <string.h>

#include "args_messages.h"
#include "core/clock.h"
#include "task_times.h"

int task_times_open(task_times *tt, const char *cmd, const char *path, const nq_settings *rs)
{
    int rc;

    memset(tt, 0, sizeof(*tt));
    if ((rc = nq_task_count(rs, &tt->tasks)) != NQ_OK)
        return args_run_error(cmd, "cannot write --task-times %s: %s", path, nq_strerror(rc));
    tt->predicted = malloc((tt->tasks ? tt->tasks : 1) * sizeof(double));
    tt->cpu = malloc((tt->tasks ? tt->tasks : 1) * sizeof(double));
    tt->end = malloc((tt->tasks ? tt->tasks : 1) * sizeof(double));
    if (!tt->predicted || !tt->cpu || !tt->end)
        return args_run_error(cmd, "no memory for the times of %llu tasks",
                              (unsigned long long)tt->tasks);
    for (uint64_t i = 0; i < tt->tasks; i++)
        tt->cpu[i] = -1;
    /* the model's walk makes the engine's tables once more: seconds from n = 22 on */
    if ((rc = nq_task_costs(rs, tt->predicted, tt->tasks)) != NQ_OK)
        return args_run_error(cmd, "cannot write --task-times %s: the cost model: %s", path,
                              nq_strerror(rc));
    return output_writer_open(&tt->w, cmd, "--task-times", path);
}

void task_times_start(task_times *tt)
{
    tt->start = clock_seconds();
}

void task_times_note(task_times *tt, uint64_t id)
{
    /* The pool's threads are new in every count, so the first task of each starts from
     * the thread's start (its scratch: milliseconds). */
    static _Thread_local const task_times *run;
    static _Thread_local double last;
    double now = clock_thread_cpu();

    if (run != tt)
        run = tt, last = 0;
    if (id < tt->tasks) { /* each id finishes once, on one thread */
        tt->cpu[id] = now - last;
        tt->end[id] = clock_seconds() - tt->start;
    }
    last = now;
}

int task_times_write(task_times *tt, const char *cmd, const nq_settings *rs)
{
    double setup = -1;
    FILE *f = tt->w.f;

    for (uint64_t i = 0; i < tt->tasks; i++)
        if (tt->cpu[i] >= 0 && (setup < 0 || tt->end[i] - tt->cpu[i] < setup))
            setup = tt->end[i] - tt->cpu[i];
    fprintf(f,
            "# nqueens count %d --engine %s --threads %d: each task's cost model prediction "
            "and CPU seconds on its worker\n",
            rs->n, nq_engine_name(rs->engine), rs->n_threads);
    fprintf(f, "# setup_seconds %.6f\n", setup > 0 ? setup : 0.0);
    fputs("task,predicted,cpu_seconds\n", f);
    for (uint64_t i = 0; i < tt->tasks; i++)
        if (tt->cpu[i] >= 0)
            fprintf(f, "%llu,%.9g,%.6f\n", (unsigned long long)i, tt->predicted[i], tt->cpu[i]);
    return output_writer_commit(&tt->w, cmd);
}

void task_times_abandon(task_times *tt)
{
    output_writer_abandon(&tt->w);
}

void task_times_free(task_times *tt)
{
    free(tt->predicted);
    free(tt->cpu);
    free(tt->end);
    tt->predicted = tt->cpu = tt->end = NULL;
}
