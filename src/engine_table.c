/* The engine table, and lookups in it. A new engine adds its descriptor's row to
 * ENGINE_ROWS: the row declares the descriptor (engine_NAME, defined in the engine's own
 * file) and puts it in the table. */
#include <assert.h>
#include <string.h>

#include "core/cpu.h"
#include "engine_table.h"

/* In enum nq_engine order: the enum value is the index (tests/lib/test_engine_table.c checks). */
#define ENGINE_ROWS(X) X(prefix) X(d4) X(cuda) X(join)

#define ENGINE_DECLARE(name) extern const engine_desc engine_##name;
#define ENGINE_ROW(name) &engine_##name,
ENGINE_ROWS(ENGINE_DECLARE)
const engine_desc *const engine_table[] = {ENGINE_ROWS(ENGINE_ROW)};
const int engine_count = (int)(sizeof(engine_table) / sizeof(engine_table[0]));

const engine_desc *engine_find(int id)
{
    if (id < 0 || id >= engine_count)
        return NULL;
    assert(engine_table[id]->id == id);
    return engine_table[id];
}

int engine_min_n(const engine_desc *e)
{
    return e->min_n ? e->min_n : 1;
}

int engine_max_n(const engine_desc *e)
{
    return e->max_n ? e->max_n : NQ_MAX_N;
}

const engine_desc *engine_family(const engine_desc *e)
{
    return e->task_family ? e->task_family : e;
}

const engine_desc *engine_pick(int n, int listing)
{
    const engine_desc *best = NULL;

    for (int i = 0; i < engine_count; i++) {
        const engine_desc *e = engine_table[i];
        if (!e->built || e->auto_rank <= 0 || n < engine_min_n(e) || n > engine_max_n(e) ||
            (listing && !e->list))
            continue;
        if (!best || e->auto_rank > best->auto_rank)
            best = e;
    }
    return best;
}

const engine_desc *engine_of(const nq_settings *s)
{
    if (s->engine == NQ_ENGINE_AUTO)
        return engine_pick(s->n, 0);
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
    int threads = nq_resolve_threads(s->n_threads);
    /* the same on every machine a slice may run on; capped so that a prefix depth stays
     * one that a count would choose for a large machine */
    if (s->slice_count)
        threads = s->slice_count < NQ_MAX_THREADS / NQ_SLICE_WORKERS
                      ? NQ_SLICE_WORKERS * s->slice_count
                      : NQ_MAX_THREADS;
    e->resolve(s, threads);
}

unsigned engine_simd_paths(void)
{
    unsigned paths = 0;

    for (int i = 0; i < engine_count; i++)
        if (engine_table[i]->built && engine_table[i]->simd_paths)
            paths |= engine_table[i]->simd_paths();
    return paths;
}

int engine_simd_usable(const engine_desc *e, int simd)
{
    /* An engine without vector paths ignores simd, but a path that no engine could run
     * here is refused all the same: the setting means the same whatever the engine. */
    unsigned paths = e && e->simd_paths ? e->simd_paths() : engine_simd_paths();

    return simd == NQ_SIMD_AUTO || cpu_simd_pick(paths, simd) >= 0;
}
