/* The pieces of the cost models that several engines use (see task_cost.h). */
#include <stdlib.h>

#include "engines/task_cost.h"

void *task_cost_board_init(const nq_settings *s, const atomic_int *stop)
{
    task_cost_board *b = malloc(sizeof(*b));

    (void)stop;
    if (b)
        b->n = s->n;
    return b;
}

void task_cost_board_free(void *shared)
{
    free(shared);
}

uint64_t task_cost_visit(const uint32_t *free, const uint32_t *shift, int rows, uint32_t cols,
                         uint32_t ld, uint32_t rd, task_cost_visit_fn visit, void *user)
{
    uint32_t avail;
    uint64_t sum = 0;

    if (rows == 0)
        return visit && visit(user, cols, ld, rd) ? UINT64_MAX : 1;
    avail = free[0] & ~(cols | ld | rd);
    if (rows == 1 && !visit)
        return (uint64_t)__builtin_popcount(avail);
    for (; avail; avail &= avail - 1) {
        uint32_t bit = avail & -avail;
        uint64_t k = task_cost_visit(free + 1, shift + 1, rows - 1, cols | bit,
                                     (ld | bit) << shift[0], (rd | bit) >> shift[0], visit, user);
        if (k == UINT64_MAX)
            return k;
        sum += k;
    }
    return sum;
}
