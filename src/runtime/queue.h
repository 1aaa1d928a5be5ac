/* Bounded lock-free multi-producer multi-consumer ring of task records. */
#ifndef NQ_QUEUE_H
#define NQ_QUEUE_H

#include <stdatomic.h>
#include <stddef.h>

#include "engines/task.h"

typedef struct queue_cell queue_cell;

typedef struct queue {
    queue_cell *cells;
    size_t mask;
    _Alignas(64) atomic_size_t enqueue_pos;
    _Alignas(64) atomic_size_t dequeue_pos;
    _Alignas(64) atomic_int closed;
} queue;

/* capacity is rounded up to a power of two (at least 2). Returns 0 or NQ_ENOMEM. */
int queue_init(queue *q, size_t capacity);
void queue_free(queue *q);

/* Non-blocking: 1 on success, 0 when full / empty. */
int queue_try_push(queue *q, const task *t);
int queue_try_pop(queue *q, task *t);

/* Blocking variants with backoff. queue_pop returns 0 once the queue is closed and
 * drained; queue_push returns 0 if *stop becomes nonzero while waiting for room. */
int queue_push(queue *q, const task *t, const atomic_int *stop);
int queue_pop(queue *q, task *t);

/* No more pushes will come; consumers drain what is left and then see 0. */
void queue_close(queue *q);

#endif
