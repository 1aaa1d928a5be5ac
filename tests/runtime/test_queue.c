/* The lock-free queue under contention: several producers and consumers hammer one
 * small ring, and far more consumers than cores, most of them asleep; every record must
 * come out exactly once, and the close must wake every sleeper. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "runtime/queue.h"

enum { PRODUCERS = 4, CONSUMERS = 4, PER_PRODUCER = 200000 };

static queue q;
static _Atomic unsigned char *seen;
static atomic_int producers_left;
static uint64_t per_item; /* records per producer in the current run */
/* Found by the consumers and checked after the join: an assertion in another thread
 * than the test's would not fail the test cleanly. */
static atomic_ulong torn, out_of_range;

static void *produce(void *arg)
{
    uint64_t base = (uint64_t)(uintptr_t)arg * per_item;
    for (uint64_t i = 0; i < per_item; i++) {
        task t = {0};
        t.id = base + i;
        t.cols = (uint32_t)(t.id * 2654435761u); /* payload checked on the other side */
        queue_push(&q, &t, NULL);
    }
    if (atomic_fetch_sub(&producers_left, 1) == 1)
        queue_close(&q);
    return NULL;
}

static void *consume(void *arg)
{
    task t;
    uint64_t *got = arg;
    while (queue_pop(&q, &t)) {
        if (t.id >= (uint64_t)PRODUCERS * PER_PRODUCER) {
            atomic_fetch_add(&out_of_range, 1);
            continue;
        }
        if (t.cols != (uint32_t)(t.id * 2654435761u))
            atomic_fetch_add(&torn, 1);
        atomic_fetch_add(&seen[t.id], 1);
        (*got)++;
    }
    return NULL;
}

/* producers threads push per_producer records each into a ring of capacity cap while
 * consumers threads take them; each must come out exactly once. */
static void hammer(int producers, int consumers, uint64_t per_producer, size_t cap)
{
    pthread_t *p = calloc((size_t)producers, sizeof(*p)),
              *c = calloc((size_t)consumers, sizeof(*c));
    uint64_t *got = calloc((size_t)consumers, sizeof(*got)), sum = 0;
    const uint64_t total = (uint64_t)producers * per_producer;

    cr_assert(p && c && got);
    per_item = per_producer;
    cr_assert_eq(queue_init(&q, cap), 0);
    seen = calloc(total, 1);
    cr_assert_not_null(seen);
    atomic_store(&producers_left, producers);
    for (int i = 0; i < consumers; i++)
        cr_assert_eq(pthread_create(&c[i], NULL, consume, &got[i]), 0);
    for (int i = 0; i < producers; i++)
        cr_assert_eq(pthread_create(&p[i], NULL, produce, (void *)(uintptr_t)i), 0);
    for (int i = 0; i < producers; i++)
        pthread_join(p[i], NULL);
    for (int i = 0; i < consumers; i++) {
        pthread_join(c[i], NULL);
        sum += got[i];
    }
    cr_expect_eq(atomic_load(&torn), 0, "torn records");
    cr_expect_eq(atomic_load(&out_of_range), 0, "records with ids never pushed");
    cr_expect_eq(sum, total);
    for (uint64_t i = 0; i < total; i++)
        if (seen[i] != 1)
            cr_assert_fail("item %llu seen %d times", (unsigned long long)i, (int)seen[i]);
    free((void *)seen);
    free(p);
    free(c);
    free(got);
    queue_free(&q);
}

Test(unit, queue_mpmc_every_item_exactly_once)
{
    hammer(PRODUCERS, CONSUMERS, PER_PRODUCER, 64); /* small: producers often find it full */
}

/* Hundreds of consumers on a machine of a few cores: they sleep and wake on pushes,
 * none is lost, and the close wakes them all (the test ends). With consumers that
 * polled, the producers starved for the cores. */
Test(unit, queue_many_more_consumers_than_cores, .timeout = 30)
{
    hammer(2, 512, 20000, 64);
    hammer(3, 2048, 300, 4); /* mostly asleep, woken one push at a time */
}

/* Consumers asleep on an empty ring: one push wakes one of them, the close the rest. */
Test(unit, queue_sleepers_wake_on_push_and_close)
{
    enum { SLEEPERS = 64 };
    pthread_t c[SLEEPERS];
    uint64_t got[SLEEPERS] = {0}, sum = 0;
    task t = {0};

    per_item = 1;
    cr_assert_eq(queue_init(&q, 8), 0);
    seen = calloc(1, 1);
    for (int i = 0; i < SLEEPERS; i++)
        pthread_create(&c[i], NULL, consume, &got[i]);
    usleep(100000); /* let them go to sleep */
    t.cols = 0;
    queue_push(&q, &t, NULL);
    while (atomic_load(&seen[0]) == 0)
        usleep(1000); /* would hang if no sleeper woke */
    queue_close(&q);
    for (int i = 0; i < SLEEPERS; i++) {
        pthread_join(c[i], NULL); /* would hang if the close woke none */
        sum += got[i];
    }
    cr_expect_eq(sum, 1);
    free((void *)seen);
    queue_free(&q);
}

Test(unit, queue_full_empty_and_wraparound)
{
    queue small;
    task t = {0}, out;

    cr_assert_eq(queue_init(&small, 3), 0); /* rounded up to 4 */
    for (int lap = 0; lap < 5; lap++) {
        for (uint64_t i = 0; i < 4; i++) {
            t.id = (uint64_t)lap * 10 + i;
            cr_assert_eq(queue_try_push(&small, &t), 1);
        }
        cr_expect_eq(queue_try_push(&small, &t), 0, "a full ring must refuse");
        for (uint64_t i = 0; i < 4; i++) {
            cr_assert_eq(queue_try_pop(&small, &out), 1);
            cr_expect_eq(out.id, (uint64_t)lap * 10 + i, "FIFO order within one producer");
        }
        cr_expect_eq(queue_try_pop(&small, &out), 0, "an empty ring must refuse");
    }
    queue_close(&small);
    cr_expect_eq(queue_pop(&small, &out), 0, "closed and drained");
    queue_free(&small);
}
