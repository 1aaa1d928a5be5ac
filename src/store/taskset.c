/* Task-set identity: what makes task ids deterministic for a run (board, engine and the
 * engine's resolved parameters), so that a journal can name its run and a resumed run
 * can rebuild exactly the same ids whatever its thread count. */
#include <stdio.h>
#include <string.h>

#include "engines/d4.h"
#include "engines/prefix.h"
#include "nqueens/nqueens.h"
#include "runtime/affinity.h"

/* A task set is checked (and described) by walking its task source, so the walk is
 * bounded: a prefix depth whose source alone would place more queens than this is not
 * a task set this library makes. It keeps a forged header from starting an hours-long
 * search before it is refused, and it is far beyond what a count needs: 2^26 partial
 * boards is 67 M tasks, a journal of 1.6 GB. */
#define TASK_SOURCE_MAX_NODES (1ull << 26)

int nq_task_set_describe(const nq_settings *s, nq_task_set *ts)
{
    int threads, rows;

    if (!s || !ts || s->n < 1 || s->n > NQ_MAX_N || s->n_threads < 0 || s->prefix_rows < 0 ||
        s->prefix_rows > s->n)
        return NQ_EINVAL;
    memset(ts, 0, sizeof(*ts));
    ts->n = s->n;
    switch (s->engine) {
    case NQ_ENGINE_PREFIX:
        /* The same resolution nq_count makes, so the ids match the run's. */
        threads = s->n_threads ? s->n_threads : affinity_cpu_count();
        rows = s->prefix_rows ? s->prefix_rows : prefix_auto_rows(s->n, threads);
        snprintf(ts->engine, sizeof(ts->engine), "%s", nq_engine_name(s->engine));
        snprintf(ts->params, sizeof(ts->params), "prefix_rows=%d", rows);
        if (prefix_count_bounded(s->n, rows, TASK_SOURCE_MAX_NODES, &ts->tasks) != 0)
            return NQ_EINVAL;
        return NQ_OK;
    case NQ_ENGINE_D4:
    case NQ_ENGINE_CUDA: /* the d4 tasks, so subtotals compare id by id */
        /* The border set depends on n alone; the tag names the enumeration order, so a
         * later change of that order must change the tag. */
        snprintf(ts->engine, sizeof(ts->engine), "%s", nq_engine_name(s->engine));
        snprintf(ts->params, sizeof(ts->params), "borders=v1");
        ts->tasks = d4_enumerate(s->n, NULL, NULL);
        return NQ_OK;
    default:
        return NQ_EINVAL;
    }
}

int nq_task_set_apply(const nq_task_set *ts, nq_settings *s)
{
    nq_settings t;
    nq_task_set check;
    int engine, rows, used = 0;

    if (!ts || !s || ts->n < 1 || ts->n > NQ_MAX_N)
        return NQ_EINVAL;
    engine = nq_engine_from_name(ts->engine);
    if (engine < 0)
        return NQ_EINVAL;
    t = *s;
    t.n = ts->n;
    t.engine = engine;
    switch (engine) {
    case NQ_ENGINE_PREFIX:
        if (sscanf(ts->params, "prefix_rows=%d%n", &rows, &used) != 1 || ts->params[used] != '\0' ||
            rows < 1 || rows > ts->n)
            return NQ_EINVAL;
        t.prefix_rows = rows;
        break;
    case NQ_ENGINE_D4:
    case NQ_ENGINE_CUDA:
        if (strcmp(ts->params, "borders=v1") != 0)
            return NQ_EINVAL;
        break;
    default:
        return NQ_EINVAL;
    }
    /* Round trip: the settings must describe exactly the recorded set, tasks included
     * (describe walks the source within its bound, so a forged claim costs little). */
    if (nq_task_set_describe(&t, &check) != NQ_OK || !nq_task_set_equal(&check, ts))
        return NQ_EINVAL;
    *s = t;
    return NQ_OK;
}

int nq_task_set_equal(const nq_task_set *a, const nq_task_set *b)
{
    return a && b && a->n == b->n && a->tasks == b->tasks &&
           strncmp(a->engine, b->engine, sizeof(a->engine)) == 0 &&
           strncmp(a->params, b->params, sizeof(a->params)) == 0;
}

typedef struct weight_sink {
    uint8_t *w;
    uint64_t n;
} weight_sink;

static int take_weight(void *user, const task *t)
{
    weight_sink *k = user;
    if (t->id >= k->n)
        return 1;
    k->w[t->id] = t->weight;
    return 0;
}

int nq_task_set_weights(const nq_task_set *ts, uint8_t *weights)
{
    nq_settings s;
    weight_sink k;

    if (!ts || !weights)
        return NQ_EINVAL;
    nq_default_settings(&s);
    if (nq_task_set_apply(ts, &s) != NQ_OK)
        return NQ_EINVAL;
    k = (weight_sink){weights, ts->tasks};
    if (s.engine == NQ_ENGINE_PREFIX)
        return prefix_enumerate(s.n, s.prefix_rows, take_weight, &k) == ts->tasks ? NQ_OK
                                                                                  : NQ_EINVAL;
    return d4_enumerate(s.n, take_weight, &k) == ts->tasks ? NQ_OK : NQ_EINVAL;
}
