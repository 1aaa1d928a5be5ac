/* The task record that flows from a task source through the queue to the workers, and
 * the callback a source emits it through. Most engines describe a partly filled board by
 * the masks the bitmask DFS resumes from; an engine with another kind of subproblem
 * keeps what it needs in payload (and, if that is not enough, in a table of its own
 * indexed by id, built by its worker_init: see core/engine.h). */
#ifndef NQ_TASK_H
#define NQ_TASK_H

#include <stdint.h>

typedef struct task {
    uint64_t id;      /* dense index in the source's enumeration order */
    uint64_t payload; /* engine-defined (e.g. a column set); 0 where unused */
    uint32_t cols;    /* columns taken by the placed rows */
    uint32_t ld, rd;  /* diagonals attacking the next free row (left- and right-going) */
    uint32_t weight;  /* boards this subproblem stands for under the symmetry used */
    uint32_t last;    /* d4: the columns the queen of row n-1 may take */
    uint8_t edge[4];  /* d4: the preset border queens (see d4.h); 0 for other engines */
    uint8_t row;      /* rows placed, so the DFS fills rows row..n-1 */
} task;

/* Receives each task in id order; a nonzero return stops the enumeration. */
typedef int (*task_emit_fn)(void *user, const task *t);

/* Tasks kept in the order given (a source's: by id), in room that doubles as it fills. */
typedef struct task_list {
    task *at;
    uint64_t n, cap;
} task_list;

/* Append t to l: 0, or -1 without memory (l as it was). */
int task_list_add(task_list *l, const task *t);
/* Free l's room; l is then empty. */
void task_list_free(task_list *l);

#endif
