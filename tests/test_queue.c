/* The lock-free queue under contention: several producers and consumers hammer one
 * small ring; every record must come out exactly once. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "runtime/queue.h"

enum { PRODUCERS = 4, CONSUMERS = 4, PER_PRODUCER = 200000 };

static queue q;
static _Atomic unsigned char *seen;
static atomic_int producers_left;
/* Found by the consumers and checked after the join: an assertion in another thread
 * than the test's would not fail the test cleanly. */
static atomic_ulong torn, out_of_range;

static void *produce(void *arg)
{
    uint64_t base = (uint64_t)(uintptr_t)arg * PER_PRODUCER;
    for (uint64_t i = 0; i < PER_PRODUCER; i++) {
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

Test(unit, queue_mpmc_every_item_exactly_once)
{
    pthread_t p[PRODUCERS], c[CONSUMERS];
    uint64_t got[CONSUMERS] = {0}, sum = 0;
    const uint64_t total = (uint64_t)PRODUCERS * PER_PRODUCER;

    cr_assert_eq(queue_init(&q, 64), 0); /* small, so producers often find it full */
    seen = calloc(total, 1);
    cr_assert_not_null(seen);
    atomic_store(&producers_left, PRODUCERS);
    for (int i = 0; i < CONSUMERS; i++)
        pthread_create(&c[i], NULL, consume, &got[i]);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_create(&p[i], NULL, produce, (void *)(uintptr_t)i);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(p[i], NULL);
    for (int i = 0; i < CONSUMERS; i++) {
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
