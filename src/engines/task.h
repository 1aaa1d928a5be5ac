/* The task record that flows from a task source through the queue to the workers:
 * a partially filled board, described by the masks the bitmask DFS resumes from. */
#ifndef NQ_TASK_H
#define NQ_TASK_H

#include <stdint.h>

typedef struct task {
    uint64_t id;     /* dense index in the source's enumeration order */
    uint32_t cols;   /* columns taken by the placed rows */
    uint32_t ld, rd; /* diagonals attacking the next free row (left- and right-going) */
    uint8_t row;     /* rows placed, so the DFS fills rows row..n-1 */
    uint8_t weight;  /* boards this subproblem stands for under the symmetry used */
    uint32_t last;   /* d4: the columns the queen of row n-1 may take */
    uint8_t edge[4]; /* d4: the preset border queens (see d4.h); 0 for other engines */
} task;

#endif
