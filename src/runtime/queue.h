/* Bounded lock-free multi-producer multi-consumer ring of task records, with an
 * eventcount in front of it so that a consumer with nothing to take sleeps. */
#ifndef NQ_QUEUE_H
#define NQ_QUEUE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "core/task.h"

typedef struct queue_cell queue_cell;

typedef struct queue {
    queue_cell *cells;
    size_t mask;
    _Alignas(64) atomic_size_t enqueue_pos;
    _Alignas(64) atomic_size_t dequeue_pos;
    _Alignas(64) atomic_int closed;
    /* The eventcount: consumers about to sleep (a push only takes the lock when there
     * are some) and the count of wake-ups, changed under lock. */
    _Alignas(64) atomic_uint waiters;
    atomic_uint epoch;
    pthread_mutex_t lock;
    pthread_cond_t wake;
} queue;

/* capacity is rounded up to a power of two (at least 2). Returns 0 or NQ_ENOMEM. */
int queue_init(queue *q, size_t capacity);
void queue_free(queue *q);

/* Non-blocking: 1 on success, 0 when full / empty. A push wakes a sleeping consumer. */
int queue_try_push(queue *q, const task *t);
int queue_try_pop(queue *q, task *t);

/* Blocking variants. queue_pop tries briefly, then sleeps until a push or the close, so
 * that idle consumers never take a core from the producer however many there are; it
 * returns 0 once the queue is closed and drained. queue_push (the producer finds the ring
 * full while the consumers are busy) polls with a backoff and returns 0 if *stop becomes
 * nonzero while waiting for room. */
int queue_push(queue *q, const task *t, const atomic_int *stop);
int queue_pop(queue *q, task *t);

/* No more pushes will come; every consumer wakes, drains what is left and sees 0. */
void queue_close(queue *q);

#endif
