/* Bounded MPMC ring after the per-cell sequence scheme (D. Vyukov's design): each cell
 * carries a sequence number that says whose turn it is, so producers and consumers only
 * contend on their own position counter and never take a lock.
 *
 * Memory order: a producer claims position p with a relaxed CAS on enqueue_pos, writes
 * the record, then publishes it by storing seq = p + 1 with release; a consumer that
 * reads seq == p + 1 with acquire therefore sees the whole record. A consumer frees the
 * cell for the next lap by storing seq = p + capacity with release. */
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "nqueens/nqueens.h"
#include "runtime/queue.h"

struct queue_cell {
    atomic_size_t seq;
    task t;
};

int queue_init(queue *q, size_t capacity)
{
    size_t cap = 2;
    while (cap < capacity)
        cap <<= 1;
    q->cells = malloc(cap * sizeof(*q->cells));
    if (!q->cells)
        return NQ_ENOMEM;
    for (size_t i = 0; i < cap; i++)
        atomic_init(&q->cells[i].seq, i);
    q->mask = cap - 1;
    atomic_init(&q->enqueue_pos, 0);
    atomic_init(&q->dequeue_pos, 0);
    atomic_init(&q->closed, 0);
    return NQ_OK;
}

void queue_free(queue *q)
{
    free(q->cells);
    q->cells = NULL;
}

int queue_try_push(queue *q, const task *t)
{
    size_t pos = atomic_load_explicit(&q->enqueue_pos, memory_order_relaxed);
    for (;;) {
        queue_cell *c = &q->cells[pos & q->mask];
        size_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
        ptrdiff_t dif = (ptrdiff_t)seq - (ptrdiff_t)pos;
        if (dif == 0) {
            if (atomic_compare_exchange_weak_explicit(&q->enqueue_pos, &pos, pos + 1,
                                                      memory_order_relaxed, memory_order_relaxed)) {
                c->t = *t;
                atomic_store_explicit(&c->seq, pos + 1, memory_order_release);
                return 1;
            }
        } else if (dif < 0) {
            return 0; /* the cell still holds last lap's record: full */
        } else {
            pos = atomic_load_explicit(&q->enqueue_pos, memory_order_relaxed);
        }
    }
}

int queue_try_pop(queue *q, task *t)
{
    size_t pos = atomic_load_explicit(&q->dequeue_pos, memory_order_relaxed);
    for (;;) {
        queue_cell *c = &q->cells[pos & q->mask];
        size_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
        ptrdiff_t dif = (ptrdiff_t)seq - (ptrdiff_t)(pos + 1);
        if (dif == 0) {
            if (atomic_compare_exchange_weak_explicit(&q->dequeue_pos, &pos, pos + 1,
                                                      memory_order_relaxed, memory_order_relaxed)) {
                *t = c->t;
                atomic_store_explicit(&c->seq, pos + q->mask + 1, memory_order_release);
                return 1;
            }
        } else if (dif < 0) {
            return 0; /* nothing published here yet: empty */
        } else {
            pos = atomic_load_explicit(&q->dequeue_pos, memory_order_relaxed);
        }
    }
}

/* A consumer waits rarely (start-up and the very end of a run), so a backoff that yields and
 * then sleeps is enough, and keeps a waiting thread off a core a worker could use. */
static void backoff(unsigned *round)
{
    if (*round < 16) {
        sched_yield();
    } else {
        struct timespec ts = {0, *round < 64 ? 20000 : 200000};
        nanosleep(&ts, NULL);
    }
    (*round)++;
}

/* The producer finds the ring full on almost every push once the workers are busy, and
 * then the ring holds work for a while. Polling for room every 20 us took a second core
 * 10-15% of the run's CPU time (n = 16, one worker), so after a few yields (tiny tasks
 * free a slot at once) it sleeps, twice as long each time: 50 us up to 1.6 ms. */
int queue_push(queue *q, const task *t, const atomic_int *stop)
{
    unsigned round = 0;
    while (!queue_try_push(q, t)) {
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            return 0;
        if (round < 4) {
            sched_yield();
        } else {
            struct timespec ts = {0, 50000L << (round < 9 ? round - 4 : 5)};
            nanosleep(&ts, NULL);
        }
        round++;
    }
    return 1;
}

int queue_pop(queue *q, task *t)
{
    unsigned round = 0;
    for (;;) {
        if (queue_try_pop(q, t))
            return 1;
        /* closed is set after the last push, so one more try after seeing it cannot
         * miss a record that was published before the close. */
        if (atomic_load_explicit(&q->closed, memory_order_acquire))
            return queue_try_pop(q, t);
        backoff(&round);
    }
}

void queue_close(queue *q)
{
    atomic_store_explicit(&q->closed, 1, memory_order_release);
}
