/* The engine table, and lookups in it. A new engine adds its descriptor's row here. */
#include <assert.h>
#include <string.h>

#include "engines/engine.h"
#include "runtime/affinity.h"

extern const engine_desc engine_prefix, engine_d4, engine_cuda, engine_join;
#include "engines/join.h"

/* In enum nq_engine order: the enum value is the index. */
const engine_desc *const engine_table[] = {
    &engine_prefix,
    &engine_d4,
    &engine_cuda,
    &engine_join,
};
const int engine_count = (int)(sizeof(engine_table) / sizeof(engine_table[0]));

const engine_desc *engine_find(int id)
{
    if (id < 0 || id >= engine_count)
        return NULL;
    assert(engine_table[id]->id == id);
    return engine_table[id];
}

/* auto: the join engine, which leads d4 more the larger the board, wherever its tables
 * fit (docs/join.md has the measurements); d4 beyond. */
const engine_desc *engine_of(const nq_settings *s)
{
    if (s->engine == NQ_ENGINE_AUTO)
        return engine_find(s->n <= JOIN_MAX_N ? NQ_ENGINE_JOIN : NQ_ENGINE_D4);
    return engine_find(s->engine);
}

const engine_desc *engine_by_name(const char *name)
{
    for (int i = 0; name && i < engine_count; i++)
        if (strcmp(name, engine_table[i]->name) == 0)
            return engine_table[i];
    return NULL;
}

void engine_resolve(const engine_desc *e, nq_settings *s)
{
    int threads = s->n_threads ? s->n_threads : affinity_cpu_count();
    /* the same on every machine a slice may run on; capped so that a prefix depth stays
     * one that a count would choose for a large machine */
    if (s->slice_count)
        threads =
            s->slice_count < 4096 / NQ_SLICE_WORKERS ? NQ_SLICE_WORKERS * s->slice_count : 4096;
    e->resolve(s, threads);
}

double engine_task_cost(const engine_desc *e, const void *shared, const task *t)
{
    double c = e->task_cost ? e->task_cost(shared, t) : 1.0;
    return c > 0 ? c : 0.0; /* a model's NaN or negative value counts as free */
}
