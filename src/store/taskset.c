/* Task-set identity: what makes task ids deterministic for a run (board, engine and the
 * engine's resolved parameters), so that a journal can name its run and a resumed run
 * can rebuild exactly the same ids whatever its thread count. */
#include <stdio.h>
#include <string.h>

#include "engines/d4.h"
#include "engines/prefix.h"
#include "nqueens/nqueens.h"
#include "runtime/affinity.h"

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
        ts->tasks = prefix_enumerate(s->n, rows, NULL, NULL);
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
    /* Round trip: the settings must describe exactly the recorded set, tasks included. */
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
