/* The growing list of tasks (core/task.h). */
#include <stdlib.h>

#include "core/task.h"

int task_list_add(task_list *l, const task *t)
{
    if (l->n == l->cap) {
        uint64_t cap = l->cap ? 2 * l->cap : 1024;
        task *at = realloc(l->at, cap * sizeof(*at));
        if (!at)
            return -1;
        l->at = at;
        l->cap = cap;
    }
    l->at[l->n++] = *t;
    return 0;
}

void task_list_free(task_list *l)
{
    free(l->at);
    *l = (task_list){0};
}
