/* Task-set identity: what makes task ids deterministic for a run (board, engine and the
 * engine's resolved parameters), so that a journal can name its run and a resumed run
 * can rebuild exactly the same ids whatever its thread count. It walks the engine
 * table, so it sits beside lib.c, and checks and resolves settings as lib.c does (lib.h). */
#include <stdio.h>
#include <string.h>

#include "core/stop.h"
#include "engine_table.h"
#include "engines/slice.h"
#include "lib.h"
#include "nqueens/nqueens.h"

/* A task set is checked (and described) by walking its task source, so the walk is
 * bounded: a prefix depth whose source alone would place more queens than this is not
 * a task set this library makes. It keeps a forged header from starting an hours-long
 * search before it is refused, and it is far beyond what a count needs: 2^26 partial
 * boards is 67 M tasks, a journal of 1.6 GB. */
#define TASK_SOURCE_MAX_NODES (1ull << 26)

/* A slice's place in the set, once the set is known to be within the bound. */
static int describe_slice(const engine_desc *e, const nq_settings *rs, const atomic_int *stop,
                          nq_task_set *ts)
{
    if (!rs->slice_count)
        return NQ_OK;
    ts->slice_index = (uint32_t)rs->slice_index;
    ts->slice_count = (uint32_t)rs->slice_count;
    return engine_slice_range(e, rs, ts->tasks, stop, &ts->first_task, &ts->end_task);
}

int nq_task_set_describe(const nq_settings *s, nq_task_set *ts)
{
    return nq_task_set_describe_stoppable(s, NULL, ts);
}

int nq_task_set_describe_stoppable(const nq_settings *s, const nq_stop *stop, nq_task_set *ts)
{
    const engine_desc *e;
    nq_settings rs;
    board_bound bound = {TASK_SOURCE_MAX_NODES, stop_flag(stop)};
    int rc;

    if (!s || !ts)
        return NQ_EINVAL;
    /* The settings a solver takes, no others: that also keeps n within the engine's
     * tables, past which its source is not bounded at all (join's walks every column
     * set of the top rows: minutes at n = 31 for a forged header). */
    rc = lib_resolve(s, &rs);
    if (rc != NQ_OK)
        return rc;
    e = engine_of(&rs);
    memset(ts, 0, sizeof(*ts));
    ts->n = s->n;
    snprintf(ts->engine, sizeof(ts->engine), "%s", e->name);
    e->params_format(&rs, ts->params, sizeof(ts->params));
    if (engine_task_count(e, &rs, &bound, &ts->tasks) != 0)
        return stop_seen(bound.stop) ? NQ_ECANCELED : NQ_EINVAL;
    return describe_slice(e, &rs, bound.stop, ts);
}

int nq_task_set_apply(const nq_task_set *ts, nq_settings *s)
{
    return nq_task_set_apply_stoppable(ts, NULL, s);
}

int nq_task_set_apply_stoppable(const nq_task_set *ts, const nq_stop *stop, nq_settings *s)
{
    const engine_desc *e = ts ? engine_by_name(ts->engine) : NULL;
    nq_settings t;
    nq_task_set check;
    int rc;

    if (!ts || !s || ts->n < 1 || ts->n > NQ_MAX_N || !e || !e->built)
        return NQ_EINVAL;
    t = *s;
    t.n = ts->n;
    t.engine = e->id;
    t.slice_index = (int)ts->slice_index;
    t.slice_count = (int)ts->slice_count;
    if (ts->slice_count > NQ_MAX_SLICES || (ts->slice_count && ts->slice_index >= ts->slice_count))
        return NQ_EINVAL;
    if (e->params_parse(ts->params, &t) != NQ_OK)
        return NQ_EINVAL;
    /* Round trip: the settings must describe exactly the recorded set, tasks included
     * (describe walks the source within its bound, so a forged claim costs little). */
    rc = nq_task_set_describe_stoppable(&t, stop, &check);
    if (rc == NQ_ECANCELED)
        return rc;
    if (rc != NQ_OK || !nq_task_set_equal(&check, ts))
        return NQ_EINVAL;
    *s = t;
    return NQ_OK;
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
    return engine_of(&s)->source(&s, take_weight, &k) == ts->tasks ? NQ_OK : NQ_EINVAL;
}
