/* nq_estimate's run (see estimate.h): the same setup a count makes (the engine's shared
 * tables, the task source), then tasks drawn round by round across the strata, each
 * completed as a pool worker completes it and timed on this thread's CPU clock, until
 * the time is up; then the projection. Runs in the calling thread only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/huge_alloc.h"
#include "core/price.h"
#include "core/split.h"
#include "core/stop.h"
#include "runtime/affinity.h"
#include "runtime/estimate.h"
#include "runtime/sample.h"

#define DEFAULT_STRATA 64
/* Sampling units at least: tasks are grouped into blocks of consecutive ids past this
 * many, so that a sampled block runs with the cache locality its neighbours give it in
 * a count (the join engine's neighbouring tasks share half-boards: timed one by one in
 * random order, its tasks took 10-20% longer than in the count). */
#define MIN_UNITS 1024
/* Tasks in a unit at most: 12-13 fixed the join's locality at n = 17 and 18, and more
 * make a unit long (689 tasks at n = 23 took 44 s, so that an estimate of 60 s ran
 * 148 s, three units a stratum); the sample only looks at the time between units. */
#define MAX_BLOCK 16
/* A unit's expected time at most, as a share of the sample's time: at n = 24 a join task
 * takes 2 s, and 16 of them made a 60 s estimate of two units. 20 ms of the default
 * 10 s, twice what one cold pilot of join n = 18 projects for its 12-task units. */
#define UNIT_SHARE 2e-3
/* A task is timed by a share of its parts (engine_desc.complete_parts) where it is
 * expected to take more than this share of the time (nq_estimate_options.part_seconds
 * unset): one part in k, k its expected time
 * over this much, so that a task's unit takes about this long whatever n (join tasks
 * take minutes from n = 26 on, and the sample looks at the time only between units). */
#define PART_SHARE (1.0 / 32)
/* The pilot's task is timed by more of its parts until they took this share of the time
 * (pilot_time): 10 ms of the default 10 s, 160 ms at most. */
#define PILOT_SHARE 1e-3
/* The pilot's part is parted again, one in this many of its own pieces at most
 * (engine_parts.again_most): a part of the join's cheapest-priced task of 32 at n = 26
 * took 2.4 s whole (seed 1, one thread), 0.9 s one piece in four. More leaves the rate to
 * a part of no counted piece too often (its making alone: with eight, a rate that made
 * the one sampled unit of n = 26 1.6 s, past the time, where it asked 31 ms). */
#define PILOT_AGAIN 4
/* Tasks the pilot draws to time the cheapest of (pilot). An even board's join task
 * whose tops fit one list is one part: at n = 26 the cheapest of eight took the pilot
 * 1.5-1.7 s whole (seeds 1 and 2, one thread), the cheapest of 32 0.5 and 1.2 s. */
#define PILOT_DRAWS 32
/* Tasks priced at most a second of the time: past this many the strata are cut from a
 * seeded simple random sample of this many tasks, which alone are priced (two-phase
 * sampling: sample_two_phase). n = 27's 10.4 M join tasks took a second of one thread to
 * price and another to sort into strata, so that `--seconds 1` ran past twice its time.
 * A quarter of a million is far more than 64 strata need, and its own sampling error a
 * few parts in a thousand of the total (sample_two_phase's first term). */
#define PRICED_PER_SECOND 262144.0
/* ... and at least this many, however short the time (a few hundred units a stratum). */
#define MIN_PRICED 65536.0
/* Censuses timed at most, when every task fits the time (an odd number: one median). */
#define MAX_PASSES 9
_Static_assert(MAX_PASSES <= 64, "sample_prediction takes 64 measurements at most");

/* What one estimate holds: the tasks in id order, the sampling units (blocks of block
 * consecutive tasks) and their predicted costs, the strata of units (idx, start:
 * sample.h), and each stratum's sample so far. */
typedef struct sampler {
    const engine_desc *e;
    const nq_settings *s;
    const nq_estimate_options *o;
    task_list tasks;     /* those priced: the count's, or a sample of them (priced_count) */
    uint64_t population; /* the count's tasks */
    double *cost;        /* per unit */
    uint64_t block, units;
    uint64_t *idx, *start;
    int strata;
    sample_stratum *st;
    double *max_time, *max_cost; /* per stratum: the largest measured and predicted */
    void *shared;
    engine_worker w;
    run_stop stop;
    double setup_cpu;
    /* seconds per predicted cost, the pilot's, then that of it and the tasks sampled so
     * far (rate_time over rate_cost: sample_task); 0: not known (no parts) */
    double rate, rate_time, rate_cost;
    double measured; /* the sample's CPU time as spent (a parted task's is less) */
    uint64_t sampled, parted;
    u128 sample_total;
    double pass[MAX_PASSES]; /* the tasks' CPU time per census, once every task is sampled */
    int passes;
} sampler;

/* Keep t in the sampler's list; a source of millions of tasks ends on a stop. */
static int keep(void *user, const task *t)
{
    sampler *sm = user;
    return stop_poll(sm->stop.cancel, sm->tasks.n) || task_list_add(&sm->tasks, t) != 0;
}

/* The count's fixed part, timed as the count pays it: the shared tables and the task
 * source (what the calling thread of a pool run does besides feeding the queue). The
 * tables are built on the count's threads, as the count builds them (the join's, up to
 * 64: n = 27's took 24-34 s of one thread's wall), and their CPU time is this thread's
 * and that of the threads the setup's splits started (split_cpu_sink). */
static int prepare_setup(sampler *sm)
{
    const engine_desc *e = sm->e;
    double t0 = clock_thread_cpu();
    _Atomic uint64_t helpers = 0; /* nanoseconds */
    uint64_t emitted;

    split_cpu_sink(&helpers);
    if (e->shared_init && !(sm->shared = e->shared_init(sm->s, sm->stop.cancel))) {
        split_cpu_sink(NULL);
        return run_canceled(&sm->stop) ? NQ_ECANCELED : NQ_ENOMEM;
    }
    emitted = e->source(sm->s, keep, sm);
    split_cpu_sink(NULL);
    sm->setup_cpu = clock_thread_cpu() - t0 + (double)atomic_load(&helpers) * 1e-9;
    if (run_canceled(&sm->stop))
        return NQ_ECANCELED; /* the list may be short, but no count follows */
    return emitted == sm->tasks.n ? NQ_OK : NQ_ENOMEM;
}

/* A number drawn for task t from the seed alone, so that the same seed times the same
 * parts of a task. */
static uint64_t part_draw(const sampler *sm, const task *t)
{
    uint64_t state = sm->o->seed ^ (t->id + 1) * 0x9e3779b97f4a7c15ull;
    return sample_rand(&state);
}

/* What timing a task gave (time_task): the stride its parts were timed by (1: whole),
 * the task's projected time, the CPU time spent, and of that the timed parts' own (the
 * whole task's where it ran whole; less the walk that found the parts where not). In:
 * how far its parts may be parted again (engine_parts.again_most): a sampled task's and
 * the untimed first task's without bound, the pilot's a little (PILOT_AGAIN: its rate
 * wants a part's time, not one of a few pieces), a census's not at all. */
typedef struct task_time {
    uint64_t stride;
    double dt, spent, timed;
    uint64_t again_most;
} task_time;

/* Complete task t as a pool worker would (complete, then unique), its raw subtotal into
 * *sub and its time into tt->dt; or where tt->stride > 1 and the engine has parts, one in
 * tt->stride of its parts (engine_parts): tt->dt is then the task's projected time,
 * unbiased, and tt->stride the stride the engine used (1: it completed the task whole).
 * Nonzero when the run is stopping. */
static int time_task(sampler *sm, const task *t, uint64_t *sub, task_time *tt)
{
    const engine_desc *e = sm->e;
    engine_parts p = {tt->stride, part_draw(sm, t), 0, 0, 0, 0, tt->again_most};
    double t0 = clock_thread_cpu();
    engine_status st;

    if (p.stride > 1 && e->complete_parts)
        st = e->complete_parts(&sm->w, t, &p, sub);
    else
        st = (p.stride = 1, e->complete(&sm->w, t, sub));
    switch (st) {
    case ENGINE_DONE:
        break;
    case ENGINE_FAILED:
        run_fail(&sm->stop, NQ_ENOMEM);
        return 1;
    case ENGINE_STOPPED:
        return 1; /* given up on a stop: not in the sample */
    }
    if (p.stride == 1 && e->unique)
        (void)e->unique(&sm->w, t, *sub); /* a part's subtotal is not the task's */
    tt->spent = clock_thread_cpu() - t0;
    tt->dt = tt->spent - p.extra_seconds - p.timed_seconds + p.projected_seconds;
    tt->timed = p.stride > 1 ? p.timed_seconds : tt->spent;
    tt->stride = p.stride;
    return 0;
}

/* The share of a task of predicted cost to time by its parts: one in the returned
 * stride (1: the task whole). */
static uint64_t task_stride(const sampler *sm, double cost)
{
    double limit = sm->o->part_seconds > 0 ? sm->o->part_seconds : PART_SHARE * sm->o->seconds;
    double expected;

    if (!sm->e->complete_parts || sm->rate <= 0)
        return 1;
    expected = sm->rate * cost;
    return expected > limit ? (uint64_t)fmin(expected / limit, 0x1p62) : 1;
}

/* The pilot's next stride after parts of timed seconds at stride: as many more parts as
 * should take twice the wanted time, sixteen times as many at least and 2^20 at most
 * (parts that took no measurable time say only that more are needed). By the parts' time,
 * not their projection: a projection from a few parts is one draw of a heavy tail, often
 * a thousandfold too short (d4 at n = 23: 0.08 s for a task of minutes). */
static uint64_t pilot_stride(uint64_t stride, double timed, double wanted)
{
    double more = timed > 0 ? fmin(fmax(2 * wanted / timed, 16), 0x1p20) : 0x1p20;
    return (double)stride > more ? (uint64_t)((double)stride / more) : 1;
}

/* Time task t for the pilot: by one part first, then by more parts (pilot_stride) while
 * the parts took under PILOT_SHARE of the time, so that a part of a few microseconds
 * (d4 at n = 16), projected over all the task's parts, does not carry its timer's noise
 * and a preemption into the rate (under load it made tasks of milliseconds look like
 * seconds, and parted them). One part of the task is all where a part takes longer. The
 * parts' own time decides, not the call's: the walk that finds 2^24 parts takes 0.3 s
 * (d4 at n = 20), and where it counted, one part in billions set the rate, often tens
 * of times off (d4's tasks at n = 23 were timed whole, minutes past the time; under
 * ASan prefix's at n = 16 were all parted, 6 runs in 120). */
static int pilot_time(sampler *sm, const task *t, double *dt)
{
    uint64_t sub;
    task_time tt = {UINT64_MAX, 0, 0, 0, PILOT_AGAIN}, again;

    for (;;) {
        if (time_task(sm, t, &sub, &tt) != 0)
            return 1;
        if (tt.stride == 1 || tt.timed >= PILOT_SHARE * sm->o->seconds)
            break;
        tt.stride = pilot_stride(tt.stride, tt.timed, PILOT_SHARE * sm->o->seconds);
    }
    *dt = tt.dt;
    /* A projection from a few parts carries one slow part (a spike of load, first
     * touches) times the task's parts: under ASan beside eight test processes it parted
     * every task of prefix at n = 16 (2 runs in 24). Where the parts were cheap next to
     * a unit, they are timed again and the lower projection kept (0 in 60). */
    if (tt.stride > 1 && tt.spent < PART_SHARE * sm->o->seconds) {
        again = tt;
        if (time_task(sm, t, &sub, &again) != 0)
            return 1;
        *dt = fmin(*dt, again.dt);
    }
    return 0;
}

/* The pilot: one seeded task, not in the sample, timed, its time per predicted cost
 * into sm->rate (cost[i] that of the task pick[i], or i without pick, of the m priced), for the
 * units' length and the parts' share: the cheapest of PILOT_DRAWS drawn, since the rate sizes units
 * and parts but is not in the projection, and one part of a large task is long (join, n = 27: a
 * part of 5 s, a fifth of the task's 22, where the sample asked 0.16 s; the time of an estimate of
 * 5 s past its setup then ranged from 5.6 to 11.5 s over three seeds). The cheapest task runs
 * first, untimed, so that what an engine builds on first use (the tail's tables) is not in the
 * pilot's time: under ASan it alone passed the limit; one part of it where the engine has parts
 * (d4's cheapest task at n = 23 took minutes), its count parted again as far as it goes (the join's
 * cheapest at n = 26 took 0.5 s whole, a tenth of it the making, which is what first use builds).
 * An engine with parts times a share of the pilot's (pilot_time; its projection is enough to size
 * units: a whole join task takes minutes at n = 27). Nonzero on a stop: the sample then sees it. */
static int pilot(sampler *sm, const double *cost, const uint64_t *pick, uint64_t m)
{
    uint64_t state = sm->o->seed ^ 0x9e3779b97f4a7c15ull, sub, cheapest = 0;
    uint64_t i = sample_below(&state, m);
    task_time warm = {UINT64_MAX, 0, 0, 0, UINT64_MAX}; /* its count: none of it needed */
    double dt;

    for (int d = 1; d < PILOT_DRAWS; d++) {
        uint64_t j = sample_below(&state, m);
        i = cost[j] > 0 && (cost[j] < cost[i] || cost[i] <= 0) ? j : i;
    }
    for (uint64_t k = 1; k < m; k++)
        cheapest = cost[k] < cost[cheapest] ? k : cheapest;
    if (cost[i] <= 0 ||
        time_task(sm, &sm->tasks.at[pick ? pick[cheapest] : cheapest], &sub, &warm) != 0 ||
        pilot_time(sm, &sm->tasks.at[pick ? pick[i] : i], &dt) != 0)
        return 1;
    sm->rate_time = dt;
    sm->rate_cost = cost[i];
    sm->rate = dt / cost[i];
    return 0;
}

/* Shorten block so that a unit takes at most UNIT_SHARE of the time, by the pilot's rate
 * at the mean cost: a task's expected time. */
static uint64_t pilot_block(const sampler *sm, double mean, uint64_t block)
{
    double unit = sm->rate * mean, limit = UNIT_SHARE * sm->o->seconds;

    if (sm->rate <= 0 || unit * (double)block <= limit)
        return block;
    return unit >= limit ? 1 : (uint64_t)(limit / unit);
}

/* Each unit's cost (the sum of its tasks') into sm->cost and its largest task's into
 * *task_max; with one task a unit (the large boards, whose tasks pass a unit's time),
 * both are the tasks' costs, not copied (n = 27: two arrays of 10.4 M, 0.2 s of copies
 * and first touches). */
static int unit_sums(sampler *sm, double *cost, double **task_max)
{
    uint64_t n = sm->tasks.n, units = sm->units;
    double *most;

    if (sm->block == 1) {
        sm->cost = *task_max = cost;
        return NQ_OK;
    }
    sm->cost = huge_calloc((units ? units : 1) * sizeof(*sm->cost));
    most = calloc(units ? units : 1, sizeof(*most));
    if (!sm->cost || !most) {
        free(most);
        huge_free(cost);
        return NQ_ENOMEM;
    }
    for (uint64_t i = 0; i < n; i++) {
        sm->cost[i / sm->block] += cost[i];
        if (cost[i] > most[i / sm->block])
            most[i / sm->block] = cost[i];
    }
    huge_free(cost);
    *task_max = most;
    return NQ_OK;
}

/* How many of the n tasks to price: every one, or a sample where pricing them all would
 * take much of a short time (PRICED_PER_SECOND) or the options ask for fewer. */
static uint64_t priced_count(const sampler *sm, uint64_t n)
{
    double most = sm->o->max_priced ? (double)sm->o->max_priced
                                    : fmax(PRICED_PER_SECOND * sm->o->seconds, MIN_PRICED);
    return (double)n > most ? (uint64_t)most : n;
}

/* The predicted costs of the m tasks pick names (every task without pick) into *cost,
 * on the count's threads as its setup: n = 27's 10.4 M tasks take about a second of one
 * (join_task_cost), and their sum, in id order whatever the threads, into *total. */
static int price_tasks(sampler *sm, const uint64_t *pick, uint64_t m, double **cost, double *total)
{
    double *c = huge_calloc((m ? m : 1) * sizeof(*c)); /* n = 27: 80 MiB */

    *cost = c;
    if (!c)
        return NQ_ENOMEM;
    if (engine_prices(sm->e, sm->shared, sm->tasks.at, pick, m, sm->s->n_threads, PRICE_GRAIN, c,
                      sm->stop.cancel) != NQ_OK) {
        huge_free(c);
        *cost = NULL;
        return NQ_ECANCELED;
    }
    *total = 0;
    for (uint64_t i = 0; i < m; i++)
        *total += c[i];
    return NQ_OK;
}

/* Tasks a unit: as many as cache locality wants (MAX_BLOCK of n tasks), fewer where the
 * pilot's rate says they would pass the time (pilot_block). */
static uint64_t unit_block(sampler *sm, const double *cost, const uint64_t *pick, uint64_t m,
                           double total)
{
    uint64_t n = sm->population, block = n > MIN_UNITS ? (n + MIN_UNITS - 1) / MIN_UNITS : 1;

    if (block > MAX_BLOCK)
        block = MAX_BLOCK;
    /* a board without tasks (d4 and prefix at n = 2) has no pilot to draw */
    if (m && (block > 1 || sm->e->complete_parts) && pilot(sm, cost, pick, m) == 0)
        block = pilot_block(sm, total / (double)m, block);
    return block;
}

/* The units: blocks of consecutive tasks (unit_block), their predicted costs, and into
 * *task_max each unit's largest (sm->cost itself where a unit is one task). Where the
 * tasks are too many to price in the time, a sample of them is priced, and the list
 * keeps only those; its units are then single tasks, which is what a sample of tasks
 * too long to run in blocks wants anyway (n = 27's take seconds): units of neighbours
 * price every task after all. */
static int unit_costs(sampler *sm, double **task_max)
{
    uint64_t n = sm->tasks.n, m = priced_count(sm, n), *pick = NULL;
    double *cost, total;
    int rc;

    sm->population = n;
    if (m < n && !(pick = huge_calloc(m * sizeof(*pick))))
        return NQ_ENOMEM;
    if (pick)
        sample_subset(n, m, sm->o->seed, pick);
    rc = price_tasks(sm, pick, m, &cost, &total);
    if (rc == NQ_OK)
        sm->block = unit_block(sm, cost, pick, m, total);
    if (rc == NQ_OK && pick && sm->block > 1) { /* short tasks: neighbours, every one priced */
        huge_free(cost);
        huge_free(pick);
        pick = NULL;
        m = n;
        rc = price_tasks(sm, NULL, m, &cost, &total);
    }
    if (rc == NQ_OK && pick) { /* the sample alone, in id order */
        for (uint64_t k = 0; k < m; k++)
            sm->tasks.at[k] = sm->tasks.at[pick[k]];
        sm->tasks.n = m;
    }
    huge_free(pick);
    if (rc != NQ_OK)
        return rc;
    sm->units = (m + sm->block - 1) / sm->block;
    return unit_sums(sm, cost, task_max);
}

/* Costs, strata and the seeded order within each stratum. */
static int prepare_strata(sampler *sm)
{
    uint64_t units;
    int max = sm->o->max_strata ? sm->o->max_strata : DEFAULT_STRATA;
    double *task_max = NULL;
    int rc = unit_costs(sm, &task_max);

    if (rc != NQ_OK)
        return rc;
    units = sm->units;
    sm->idx = huge_calloc((units ? units : 1) * sizeof(*sm->idx)); /* n = 27: 80 MiB */
    sm->start = malloc(((size_t)max + 1) * sizeof(*sm->start));
    rc = sm->idx && sm->start ? NQ_OK : NQ_ENOMEM;
    if (rc == NQ_OK)
        sm->strata = units ? sample_stratify(sm->cost, units, max, sm->idx, sm->start) : 0;
    if (rc == NQ_OK && sm->strata >= 0) {
        sample_shuffle(sm->idx, sm->start, sm->strata, sm->o->seed);
        sm->st = calloc((size_t)sm->strata + 1, sizeof(*sm->st));
        sm->max_time = calloc((size_t)sm->strata + 1, sizeof(*sm->max_time));
        sm->max_cost = calloc((size_t)sm->strata + 1, sizeof(*sm->max_cost));
    }
    if (rc != NQ_OK || sm->strata < 0 || !sm->st || !sm->max_time || !sm->max_cost) {
        if (task_max != sm->cost)
            free(task_max);
        return NQ_ENOMEM;
    }
    for (int h = 0; h < sm->strata; h++)
        for (uint64_t k = sm->start[h]; k < sm->start[h + 1]; k++) {
            sm->st[h].size++;
            sm->st[h].cost += sm->cost[sm->idx[k]];
            if (task_max[sm->idx[k]] > sm->max_cost[h])
                sm->max_cost[h] = task_max[sm->idx[k]];
        }
    if (task_max != sm->cost)
        free(task_max);
    return NQ_OK;
}

/* Task t of stratum h into the sample, its (projected) time added to *time and whether
 * it was timed by parts to *parted; nonzero when the run is stopping. Its time and cost
 * then join the rate that sizes the next tasks' strides: the pilot's task is the
 * cheapest of its draws, whose rate may be far from the others' (join, n = 26: tasks
 * priced under a 32nd of 60 s took some 15 s each, four of them the whole sample). A
 * stride is fixed before its task runs, from the tasks before it, so each projection is
 * still unbiased. */
static int sample_task(sampler *sm, int h, const task *t, double *time, int *parted)
{
    uint64_t sub;
    double cost = engine_task_cost(sm->e, sm->shared, t);
    task_time tt = {task_stride(sm, cost), 0, 0, 0, UINT64_MAX};

    if (time_task(sm, t, &sub, &tt) != 0)
        return 1;
    if (sm->rate > 0 && cost > 0) {
        sm->rate_time += tt.dt;
        sm->rate_cost += cost;
        sm->rate = sm->rate_time / sm->rate_cost;
    }
    *time += tt.dt;
    *parted |= tt.stride > 1;
    sm->measured += tt.spent;
    if (tt.dt > sm->max_time[h])
        sm->max_time[h] = tt.dt;
    sm->sampled++;
    sm->parted += tt.stride > 1;
    if (tt.stride == 1)
        sm->sample_total += (u128)sub * t->weight;
    if (sm->o->sampled) {
        nq_estimate_task et = {t->id, sub, t->weight, h, tt.dt, tt.stride};
        if (sm->o->sampled(sm->o->user, &et) != 0) {
            run_halt(&sm->stop, NQ_ECALLBACK);
            return 1;
        }
    }
    return 0;
}

/* Unit u of stratum h: its tasks in id order, as a count runs neighbours, and their time
 * into the stratum's sample. A unit stopped half way is not in it. */
static int sample_unit(sampler *sm, int h, uint64_t u)
{
    uint64_t first = u * sm->block, end = first + sm->block;
    double time = 0;
    int parted = 0;

    if (end > sm->tasks.n)
        end = sm->tasks.n;
    for (uint64_t i = first; i < end; i++)
        if (sample_task(sm, h, &sm->tasks.at[i], &time, &parted) != 0)
            return 1;
    sample_add(&sm->st[h], sm->cost[u], time);
    sm->st[h].parted += parted;
    return 0;
}

/* Once every task is sampled, the census again in id order while the time allows one
 * more (MAX_PASSES in all): on a shared machine one census of join n = 17 took half as
 * long again as one a few seconds later (docs/estimate.md), so that the passes' median
 * and spread say more about the count than one pass. A pass cut short is dropped. */
static void census_repeat(sampler *sm, double deadline)
{
    double last;

    for (int h = 0; h < sm->strata; h++)
        sm->pass[0] += sm->st[h].sy;
    sm->passes = 1;
    last = sm->pass[0]; /* the first pass's wall time is not its own: its CPU time stands in */
    while (sm->passes < MAX_PASSES && clock_seconds() + last < deadline) {
        double t0 = clock_seconds(), sum = 0;
        uint64_t sub;
        task_time whole = {1, 0, 0, 0, 1};
        for (uint64_t i = 0; i < sm->tasks.n; i++) {
            if (run_stopping(&sm->stop) || time_task(sm, &sm->tasks.at[i], &sub, &whole) != 0)
                return;
            sum += whole.dt;
        }
        sm->pass[sm->passes++] = sum;
        last = clock_seconds() - t0;
    }
}

/* The j-th stratum a round visits, of strata <= 2^bits: j's bits reversed (0, half,
 * a quarter, three quarters, ...), or -1 past the strata. A round cut short by the time
 * (at n = 24 a minute is a third of one) then has strata from the whole range of cost,
 * not only the cheapest. */
static int round_stratum(uint32_t j, int bits, int strata)
{
    uint32_t h = 0;
    for (int b = 0; b < bits; b++)
        h |= (j >> b & 1) << (bits - 1 - b);
    return (int)h < strata ? (int)h : -1;
}

/* Round r takes the r-th unit of every stratum's shuffled run, so that at any moment
 * each stratum's sample is a simple random sample of it and the strata are sampled in
 * proportion to their (equal) predicted cost. */
static void sample_rounds(sampler *sm, double deadline)
{
    uint64_t limit = sm->o->max_tasks;
    int bits = 0;

    while ((1 << bits) < sm->strata)
        bits++;
    for (uint64_t r = 0;; r++) {
        int any = 0;
        for (uint32_t j = 0; j < 1u << bits; j++) {
            int h = round_stratum(j, bits, sm->strata);
            if (h < 0)
                continue;
            uint64_t k = sm->start[h] + r;
            if (k >= sm->start[h + 1])
                continue;
            any = 1;
            if (run_stopping(&sm->stop) || sample_unit(sm, h, sm->idx[k]) != 0)
                return;
            if ((limit && sm->sampled >= limit) || clock_seconds() >= deadline)
                return;
        }
        if (!any) { /* every task sampled: a census, unless some only by parts or none, or
                       only those priced */
            if (!sm->parted && sm->tasks.n && sm->tasks.n == sm->population)
                census_repeat(sm, deadline);
            return;
        }
    }
}

/* The largest task: per stratum the largest time seen, or its largest predicted cost at
 * the stratum's rate, whichever is more. */
static double largest_task(const sampler *sm)
{
    double most = 0;
    for (int h = 0; h < sm->strata; h++) {
        const sample_stratum *st = &sm->st[h];
        double p = sm->max_time[h];
        if (st->n && st->sx > 0 && st->sy / st->sx * sm->max_cost[h] > p)
            p = st->sy / st->sx * sm->max_cost[h];
        if (p > most)
            most = p;
    }
    return most;
}

static void project(const sampler *sm, nq_estimate_result *out)
{
    sample_estimate est;
    double tasks_cpu, half, timing, spread = 0;
    int usable = sm->s->n_threads, cpus = affinity_cpu_count();

    sample_estimate_total(sm->st, sm->strata, &est);
    if (sm->tasks.n) /* the strata's tasks a sample: to all the count's */
        sample_two_phase(&est, sm->st, sm->strata, sm->tasks.n, sm->population);
    tasks_cpu = sm->tasks.n ? est.total : 0.0;
    if (sm->passes >= 2) /* the passes' median, and how far one more may fall from it */
        spread = sample_prediction(sm->pass, sm->passes, &tasks_cpu);
    out->cpu_seconds = sm->setup_cpu + tasks_cpu;
    /* the sample's error and the count's own run-to-run spread, independent; a census
     * has no sampling error, and its passes measured the spread */
    timing = fmax(1.959964 * sm->o->timing_error * out->cpu_seconds, spread);
    half = est.df ? sqrt(pow(sample_t95(est.df), 2) * est.variance + timing * timing) : NAN;
    if (!sm->tasks.n)
        half = 0;
    out->cpu_seconds_low = fmax(out->cpu_seconds - half, sm->setup_cpu);
    out->cpu_seconds_high = out->cpu_seconds + half;
    if (isnan(half))
        out->cpu_seconds_low = out->cpu_seconds_high = NAN;
    if (usable > cpus)
        usable = cpus; /* more workers than CPUs take turns */
    if ((uint64_t)usable > sm->population)
        usable = sm->population ? (int)sm->population : 1;
    out->max_task_seconds = largest_task(sm);
    /* the pool hands out tasks as workers free up: no faster than an even split, nor
     * than the largest task */
    out->wall_seconds = fmax(tasks_cpu / usable, out->max_task_seconds) + sm->setup_cpu;
    out->usable_threads = usable;
    out->n_threads = sm->s->n_threads;
    out->setup_cpu_seconds = sm->setup_cpu;
    out->tasks = sm->population;
    out->priced_tasks = sm->tasks.n;
    out->sampled = sm->sampled;
    out->sample_total = u128_pack(sm->sample_total);
    out->strata = sm->strata;
    out->census_passes = sm->passes;
    out->engine = sm->e->id;
    out->simd = engine_simd(sm->e, sm->s);
    out->worker_memory = engine_worker_memory(sm->e, sm->s);
    out->sample_cpu_seconds = sm->measured;
    out->sampled_in_parts = sm->parted;
}

static void sampler_free(sampler *sm)
{
    if (sm->w.scratch && sm->e->worker_free)
        sm->e->worker_free(sm->w.scratch);
    if (sm->shared)
        sm->e->shared_free(sm->shared);
    task_list_free(&sm->tasks);
    huge_free(sm->cost);
    huge_free(sm->idx);
    free(sm->start);
    free(sm->st);
    free(sm->max_time);
    free(sm->max_cost);
}

int estimate_run(run_state *rs, const engine_desc *e, const nq_settings *s,
                 const nq_estimate_options *o, nq_estimate_result *out)
{
    sampler sm = {.e = e, .s = s, .o = o};
    double t0 = clock_seconds();
    int rc;

    memset(out, 0, sizeof(*out));
    run_stop_init(&sm.stop, rs);
    run_progress_reset(rs, 0);
    rc = prepare_setup(&sm);
    if (rc == NQ_OK && e->worker_init && !(sm.w.scratch = e->worker_init(s, sm.shared)))
        rc = NQ_ENOMEM;
    sm.w = (engine_worker){s, sm.w.scratch, run_stopping_fn, &sm.stop, sm.shared};
    if (rc == NQ_OK)
        rc = prepare_strata(&sm); /* its pilot completes a task: after the scratch */
    if (rc != NQ_OK) {
        sampler_free(&sm);
        return rc;
    }
    sample_rounds(&sm, t0 + o->seconds);
    project(&sm, out);
    out->seconds = clock_seconds() - t0;
    rc = run_outcome(&sm.stop, !run_stopping(&sm.stop));
    sampler_free(&sm);
    return rc;
}
