/* A run's threads start as a tree (runtime/crew.c): each one runs its body once, started
 * says how many, and where a start fails, the threads below it in the tree do not run
 * either and crew_start says so (NQ_ETHREAD), for crews of 0 to 70 threads with each
 * one's start failing in turn. crew.c is compiled in here with its pthread_create
 * replaced by one that fails for a chosen thread. */
#define _GNU_SOURCE /* crew.c names its threads */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

static int fake_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
#define CREW_THREAD_CREATE fake_create
#include "runtime/crew.c"

enum { MOST = 70 };

static atomic_int failing = -1; /* the thread whose start fails, -1 none */
static atomic_int ran[MOST];

static int fake_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    if (((const crew_member *)arg)->index == atomic_load(&failing))
        return EAGAIN;
    return pthread_create(t, attr, fn, arg);
}

static void body(void *arg)
{
    atomic_fetch_add(&ran[*(const int *)arg], 1);
}

/* Whether thread i is thread j or below it: the parent of i is (i - 1) / 2. */
static int below(int i, int j)
{
    while (i > j)
        i = (i - 1) / 2;
    return i == j;
}

Test(unit, crew_starts_each_thread_once)
{
    static const int sizes[] = {0, 1, 2, 3, 4, 7, 8, 13, 31, 64, MOST};
    int index[MOST];

    for (int i = 0; i < MOST; i++)
        index[i] = i;
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (int f = -1; f < sizes[s]; f++) {
            int n = sizes[s], want = 0;
            crew c;
            for (int i = 0; i < MOST; i++)
                ran[i] = 0;
            failing = f;
            int rc = crew_start(&c, n, "nq-test", NULL, body, index, sizeof(index[0]));
            for (int i = 0; i < n; i++)
                want += f < 0 || !below(i, f);
            cr_assert_eq(rc, f < 0 ? NQ_OK : NQ_ETHREAD, "n=%d failing %d", n, f);
            cr_assert_eq(c.started, want, "n=%d failing %d", n, f);
            cr_assert_eq(crew_join(&c), 0); /* none pinned */
            for (int i = 0; i < n; i++)
                cr_assert_eq(ran[i], f < 0 || !below(i, f), "n=%d failing %d: thread %d", n, f, i);
        }
}
