/* The machinery every runtime shares (see run.h): progress slots, the task filter, the
 * pinning plan, and the stop of a run with the status it returns.
 *
 * Memory order: a slot has one writer at a time (a worker, the calling thread, or the
 * GPU host under its lock) and is read for correctness only after the run's threads are
 * joined, which orders everything; progress readers want an approximate snapshot, so
 * relaxed operations are enough throughout. */
#include <stdlib.h>
#include <string.h>

#include "runtime/affinity.h"
#include "runtime/run.h"

int run_state_init(run_state *rs, int n_threads)
{
    memset(rs, 0, sizeof(*rs));
    rs->n_slots = n_threads + 1;
    rs->slots = aligned_alloc(64, sizeof(run_slot) * (size_t)rs->n_slots);
    if (!rs->slots)
        return NQ_ENOMEM;
    for (int i = 0; i < rs->n_slots; i++) {
        atomic_init(&rs->slots[i].lo, 0);
        atomic_init(&rs->slots[i].hi, 0);
        atomic_init(&rs->slots[i].done, 0);
        atomic_init(&rs->slots[i].unique_lo, 0);
        atomic_init(&rs->slots[i].unique_hi, 0);
    }
    atomic_init(&rs->cancel, 0);
    atomic_init(&rs->tasks_total, 0);
    return NQ_OK;
}

void run_state_free(run_state *rs)
{
    free(rs->slots);
    rs->slots = NULL;
    affinity_free(rs->aff);
    rs->aff = NULL;
}

affinity *run_affinity(run_state *rs, int n_threads)
{
    if (!rs->aff_planned) {
        rs->aff = affinity_plan(n_threads);
        rs->aff_planned = 1;
    }
    return rs->aff;
}

int run_wants(const run_state *rs, uint64_t *cursor, uint64_t id)
{
    if (rs->ranged)
        return id >= rs->end ? -1 : id >= rs->first;
    if (!rs->only)
        return 1;
    if (*cursor == rs->n_only)
        return -1;
    if (id != rs->only[*cursor])
        return 0;
    ++*cursor;
    return 1;
}

uint64_t run_wanted(const run_state *rs, uint64_t n_tasks)
{
    if (rs->ranged)
        return rs->end - rs->first;
    return rs->only ? rs->n_only : n_tasks;
}

int run_filtered(const run_state *rs)
{
    return rs->ranged || rs->only;
}

static void wide_add(atomic_uint_fast64_t *lo_p, atomic_uint_fast64_t *hi_p, u128 v)
{
    uint64_t lo = atomic_load_explicit(lo_p, memory_order_relaxed);
    uint64_t add = (uint64_t)v, hi = (uint64_t)(v >> 64);
    uint64_t sum = lo + add;
    if (sum < lo)
        hi++;
    if (hi)
        atomic_fetch_add_explicit(hi_p, hi, memory_order_relaxed);
    atomic_store_explicit(lo_p, sum, memory_order_relaxed);
}

void run_slot_add(run_slot *s, u128 total, uint64_t done)
{
    wide_add(&s->lo, &s->hi, total);
    atomic_fetch_add_explicit(&s->done, done, memory_order_relaxed);
}

void run_slot_add_unique(run_slot *s, u128 unique)
{
    wide_add(&s->unique_lo, &s->unique_hi, unique);
}

void run_begin_count(run_state *rs)
{
    rs->setup_seconds = rs->setup_user = rs->setup_system = 0;
    rs->reused_tasks = 0;
    rs->reused = 0;
}

void run_note_reused(run_state *rs, u128 weighted)
{
    rs->reused_tasks++;
    rs->reused += weighted;
}

void run_progress_reset(run_state *rs, uint64_t tasks_total)
{
    for (int i = 0; i < rs->n_slots; i++) {
        atomic_store(&rs->slots[i].lo, 0);
        atomic_store(&rs->slots[i].hi, 0);
        atomic_store(&rs->slots[i].done, 0);
        atomic_store(&rs->slots[i].unique_lo, 0);
        atomic_store(&rs->slots[i].unique_hi, 0);
    }
    atomic_store(&rs->tasks_total, tasks_total);
}

void run_progress_total(run_state *rs, uint64_t tasks_total)
{
    atomic_store(&rs->tasks_total, tasks_total);
}

void run_progress(const run_state *rs, nq_progress *p)
{
    u128 total = 0;
    uint64_t done = 0;
    for (int i = 0; i < rs->n_slots; i++) {
        total += ((u128)atomic_load_explicit(&rs->slots[i].hi, memory_order_relaxed) << 64) +
                 atomic_load_explicit(&rs->slots[i].lo, memory_order_relaxed);
        done += atomic_load_explicit(&rs->slots[i].done, memory_order_relaxed);
    }
    p->tasks_done = done;
    p->tasks_total = atomic_load_explicit(&rs->tasks_total, memory_order_relaxed);
    p->partial_total = u128_pack(total);
}

void run_sum(const run_state *rs, u128 *total, u128 *unique, uint64_t *done)
{
    *total = *unique = 0;
    *done = 0;
    for (int i = 0; i < rs->n_slots; i++) {
        *total += ((u128)atomic_load(&rs->slots[i].hi) << 64) + atomic_load(&rs->slots[i].lo);
        *done += atomic_load(&rs->slots[i].done);
        *unique += ((u128)atomic_load(&rs->slots[i].unique_hi) << 64) +
                   atomic_load(&rs->slots[i].unique_lo);
    }
}

void run_stop_init(run_stop *st, run_state *rs)
{
    st->cancel = &rs->cancel;
    atomic_init(&st->halted, 0);
    atomic_init(&st->reason, RUN_NO_REASON);
    atomic_init(&st->failure, NQ_OK);
}

int run_stopping_fn(const void *st)
{
    return run_stopping(st);
}

/* A reason of NQ_OK (a listing's limit) gives way to a later error (a cancel seen after
 * it), as the run is then reported stopped. */
void run_halt(run_stop *st, int status)
{
    int cur = atomic_load(&st->reason);
    while ((cur == RUN_NO_REASON || (cur == NQ_OK && status != NQ_OK)) &&
           !atomic_compare_exchange_weak(&st->reason, &cur, status))
        ;
    atomic_store(&st->halted, 1);
}

void run_fail(run_stop *st, int status)
{
    int none = NQ_OK;
    atomic_compare_exchange_strong(&st->failure, &none, status);
    atomic_store(&st->halted, 1);
}

int run_outcome(const run_stop *st, int complete)
{
    int failure = atomic_load(&st->failure), reason = atomic_load(&st->reason);
    if (failure != NQ_OK)
        return failure;
    if (complete)
        return NQ_OK;
    return reason != RUN_NO_REASON ? reason : NQ_ECANCELED;
}
