/* Bounded MPMC ring after the per-cell sequence scheme (D. Vyukov's design): each cell
 * carries a sequence number that says whose turn it is, so producers and consumers only
 * contend on their own position counter and never take a lock.
 *
 * Memory order: a producer claims position p with a relaxed CAS on enqueue_pos, writes
 * the record, then publishes it by storing seq = p + 1 with release; a consumer that
 * reads seq == p + 1 with acquire therefore sees the whole record. A consumer frees the
 * cell for the next lap by storing seq = p + capacity with release.
 *
 * Sleeping: a consumer that found the ring empty announces itself (waiters++), reads the
 * epoch, and tries once more before it sleeps until the epoch moves. A push publishes its
 * record and then reads waiters; seq_cst fences on both sides make it a store-buffering
 * pair, so either the push sees the announcement (and bumps the epoch under the lock,
 * waking one sleeper) or the consumer's last try sees the record. The lock is taken only
 * when someone sleeps: the push of a busy run stays lock-free. */
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
    atomic_init(&q->waiters, 0);
    atomic_init(&q->epoch, 0);
    if (pthread_mutex_init(&q->lock, NULL) != 0) {
        free(q->cells);
        q->cells = NULL;
        return NQ_ENOMEM;
    }
    if (pthread_cond_init(&q->wake, NULL) != 0) {
        pthread_mutex_destroy(&q->lock);
        free(q->cells);
        q->cells = NULL;
        return NQ_ENOMEM;
    }
    return NQ_OK;
}

void queue_free(queue *q)
{
    if (!q->cells)
        return;
    pthread_cond_destroy(&q->wake);
    pthread_mutex_destroy(&q->lock);
    free(q->cells);
    q->cells = NULL;
}

/* Move the epoch on and wake one sleeper, or all of them. */
static void wake(queue *q, int all)
{
    pthread_mutex_lock(&q->lock);
    atomic_fetch_add(&q->epoch, 1);
    if (all)
        pthread_cond_broadcast(&q->wake);
    else
        pthread_cond_signal(&q->wake);
    pthread_mutex_unlock(&q->lock);
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
                atomic_thread_fence(memory_order_seq_cst);
                if (atomic_load_explicit(&q->waiters, memory_order_relaxed))
                    wake(q, 0);
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

/* Records in the ring: racy, for the producer's backoff only. dequeue_pos is read first
 * and never passes enqueue_pos, so the difference cannot wrap. */
static size_t queue_fill(queue *q)
{
    size_t out = atomic_load_explicit(&q->dequeue_pos, memory_order_relaxed);
    size_t in = atomic_load_explicit(&q->enqueue_pos, memory_order_relaxed);
    return in - out;
}

/* The producer finds the ring full on almost every push once the workers are busy, and
 * then the ring holds work for a while. Polling for room every 20 us took a second core
 * 10-15% of the run's CPU time (n = 16, one worker), so after a few yields (tiny tasks
 * free a slot at once) it sleeps, twice as long each time: 50 us up to 1.6 ms. And it
 * waits for half the ring to drain, not one slot: waking once per freed slot still took
 * a tenth of a core with the join engine's short tasks. Half a ring is left to work on
 * when it wakes, and no single sleep is longer than all before it, so it never
 * oversleeps the workers' supply. */
int queue_push(queue *q, const task *t, const atomic_int *stop)
{
    unsigned round = 0;
    while (!queue_try_push(q, t)) {
        do {
            if (stop && atomic_load_explicit(stop, memory_order_relaxed))
                return 0;
            if (round < 4) {
                sched_yield();
            } else {
                struct timespec ts = {0, 50000L << (round < 9 ? round - 4 : 5)};
                nanosleep(&ts, NULL);
            }
            round++;
        } while (queue_fill(q) > (q->mask + 1) / 2);
    }
    return 1;
}

/* Tries before a consumer sleeps: a task that is about to be pushed (a worker between
 * two tasks of a busy run) is taken without the cost of a sleep. */
enum { POP_TRIES = 8, POP_YIELDS = 2 };

int queue_pop(queue *q, task *t)
{
    for (;;) {
        unsigned key;
        for (int i = 0; i < POP_TRIES + POP_YIELDS; i++) {
            if (queue_try_pop(q, t))
                return 1;
            /* closed is set after the last push, so one more try after seeing it cannot
             * miss a record that was published before the close. */
            if (atomic_load_explicit(&q->closed, memory_order_acquire))
                return queue_try_pop(q, t);
            if (i >= POP_TRIES)
                sched_yield();
        }
        atomic_fetch_add_explicit(&q->waiters, 1, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        key = atomic_load(&q->epoch);
        if (queue_try_pop(q, t)) {
            atomic_fetch_sub_explicit(&q->waiters, 1, memory_order_relaxed);
            return 1;
        }
        if (atomic_load(&q->closed)) { /* seq_cst: a close that moved key is seen */
            atomic_fetch_sub_explicit(&q->waiters, 1, memory_order_relaxed);
            return queue_try_pop(q, t);
        }
        pthread_mutex_lock(&q->lock);
        while (atomic_load_explicit(&q->epoch, memory_order_relaxed) == key)
            pthread_cond_wait(&q->wake, &q->lock);
        pthread_mutex_unlock(&q->lock);
        atomic_fetch_sub_explicit(&q->waiters, 1, memory_order_relaxed);
    }
}

void queue_close(queue *q)
{
    atomic_store(&q->closed, 1);
    wake(q, 1); /* always: a consumer may be on its way to sleep */
}
