/* Task-set identity: what makes task ids deterministic for a run (board, engine and the
 * engine's resolved parameters), so that a journal can name its run and a resumed run
 * can rebuild exactly the same ids whatever its thread count. */
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "nqueens/nqueens.h"

int nq_task_set_describe(const nq_settings *s, nq_task_set *ts)
{
    const engine_desc *e = s ? engine_of(s) : NULL;
    nq_settings rs;

    if (!s || !ts || !e || s->n < 1 || s->n > NQ_MAX_N || s->n_threads < 0 || s->prefix_rows < 0 ||
        s->prefix_rows > s->n)
        return NQ_EINVAL;
    /* The same resolution nq_count makes, so the ids match the run's. */
    rs = *s;
    engine_resolve(e, &rs);
    memset(ts, 0, sizeof(*ts));
    ts->n = s->n;
    snprintf(ts->engine, sizeof(ts->engine), "%s", e->name);
    e->params_format(&rs, ts->params, sizeof(ts->params));
    ts->tasks = e->task_count(&rs);
    return NQ_OK;
}

int nq_task_set_apply(const nq_task_set *ts, nq_settings *s)
{
    const engine_desc *e = ts ? engine_by_name(ts->engine) : NULL;
    nq_settings t;
    nq_task_set check;

    if (!ts || !s || ts->n < 1 || ts->n > NQ_MAX_N || !e || !e->built)
        return NQ_EINVAL;
    t = *s;
    t.n = ts->n;
    t.engine = e->id;
    if (e->params_parse(ts->params, &t) != NQ_OK)
        return NQ_EINVAL;
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
