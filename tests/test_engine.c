/* The engine table (engines/engine.h): every descriptor sits at its enum value, names
 * round-trip through the public API, each source emits task_count tasks with dense ids
 * in order, and the task-set parameters round-trip through parse. */
#include <criterion/criterion.h>
#include <string.h>

#include "engines/engine.h"
#include "nqueens/nqueens.h"

Test(unit, table_rows_sit_at_their_enum_value)
{
    cr_assert_gt(engine_count, 0);
    for (int i = 0; i < engine_count; i++) {
        const engine_desc *e = engine_table[i];
        cr_expect_eq(e->id, i, "%s", e->name);
        cr_expect_eq(engine_find(i), e);
        cr_expect_eq(engine_by_name(e->name), e);
        cr_expect_str_eq(nq_engine_name(i), e->name);
        cr_expect_eq(nq_engine_from_name(e->name), e->built ? i : NQ_EUNSUPPORTED);
        /* the pool's engines complete tasks; the others bring their own runtime, which a
         * build without its toolkit (cuda without nvcc) leaves out */
        cr_expect(!e->built || e->run || (e->complete && e->placed_rows), "%s", e->name);
        cr_expect(e->resolve && e->params_format && e->params_parse && e->task_count && e->source,
                  "%s", e->name);
    }
    cr_expect_null(engine_find(-1));
    cr_expect_null(engine_find(engine_count));
    cr_expect_null(engine_by_name("nope"));
    cr_expect_null(engine_by_name(NULL));
}

typedef struct order {
    uint64_t next;
    int ok;
} order;

static int check_order(void *user, const task *t)
{
    order *o = user;
    o->ok &= t->id == o->next++ && t->weight > 0;
    return 0;
}

Test(unit, sources_emit_task_count_dense_ids)
{
    for (int i = 0; i < engine_count; i++)
        for (int n = 1; n <= 12; n++) {
            const engine_desc *e = engine_table[i];
            nq_settings s;
            order o = {0, 1};
            nq_default_settings(&s);
            s.n = n;
            s.engine = i;
            s.n_threads = 3;
            engine_resolve(e, &s);
            cr_expect_eq(e->source(&s, check_order, &o), e->task_count(&s), "%s n=%d", e->name, n);
            cr_expect_eq(o.next, e->task_count(&s), "%s n=%d", e->name, n);
            cr_expect(o.ok, "%s n=%d: ids out of order or a zero weight", e->name, n);
        }
}

Test(unit, params_round_trip)
{
    for (int i = 0; i < engine_count; i++) {
        const engine_desc *e = engine_table[i];
        nq_settings s, t;
        char a[72], b[72];
        nq_default_settings(&s);
        s.n = 11;
        s.engine = i;
        s.n_threads = 2;
        engine_resolve(e, &s);
        e->params_format(&s, a, sizeof(a));
        nq_default_settings(&t);
        t.n = 11;
        t.engine = i;
        cr_expect_eq(e->params_parse(a, &t), NQ_OK, "%s: %s", e->name, a);
        engine_resolve(e, &t);
        e->params_format(&t, b, sizeof(b));
        cr_expect_str_eq(a, b, "%s", e->name);
        cr_expect_eq(e->params_parse("", &t), NQ_EINVAL, "%s", e->name);
    }
}
