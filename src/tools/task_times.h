/* count's --task-times file: each task's id, the cost model's prediction and the CPU
 * seconds its worker spent on it, as CSV, with the serial setup before the first task
 * (the engine's tables, the task source) in a comment line, for bench/scaling-model to
 * replay the queue's hand-out order on many simulated workers (docs/scheduling.md). */
#ifndef NQ_TOOLS_TASK_TIMES_H
#define NQ_TOOLS_TASK_TIMES_H

#include <stdint.h>

#include "nqueens/nqueens.h"
#include "output_files.h"

typedef struct task_times {
    output_writer w;   /* w.f NULL: not open */
    double *predicted; /* by task id: nq_task_costs */
    double *cpu;       /* by task id: the worker thread's CPU seconds; < 0: not run here */
    double *end;       /* by task id: when it ended, seconds from start */
    double start;      /* the monotonic clock when the count began */
    uint64_t tasks;
} task_times;

/* Before the count of resolved settings rs: make the file at path (output_writer_open)
 * and the cost model's predictions. Returns 0, or EXIT_RUN_FAILED after one line. */
int task_times_open(task_times *tt, const char *cmd, const char *path, const nq_settings *rs);
/* Just before nq_count: the clock the setup is measured from. */
void task_times_start(task_times *tt);
/* In a worker thread, from the task_done hook: task id has finished; its time is the
 * thread's CPU time since the previous task it finished (or since it started). */
void task_times_note(task_times *tt, uint64_t id);
/* After a whole count: write "task,predicted,cpu_seconds" for every task that ran, in id
 * order (the queue's), after "# setup_seconds S": the earliest moment a task began, as
 * its end less its CPU time. Returns 0, or EXIT_RUN_FAILED after one line. */
int task_times_write(task_times *tt, const char *cmd, const nq_settings *rs);
/* The run failed or stopped: drop what was made; path is left as it was. Frees. */
void task_times_abandon(task_times *tt);
/* Frees what open made (after write or abandon). */
void task_times_free(task_times *tt);

#endif
