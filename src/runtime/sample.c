/* The sample of nq_estimate: which tasks, and what their times say about the whole (see
 * sample.h). Pure functions: no clock, no engine, no allocation but the sort's. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/huge_alloc.h"
#include "runtime/sample.h"

uint64_t sample_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

uint64_t sample_below(uint64_t *state, uint64_t bound)
{
    /* reject the top values that would make some residues more likely than others */
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound, r;
    do
        r = sample_rand(state);
    while (r >= limit);
    return r % bound;
}

void sample_subset(uint64_t n, uint64_t m, uint64_t seed, uint64_t *pick)
{
    uint64_t state = seed ^ 0x5851f42d4c957f2dull, k = 0;

    assert(m <= n);
    /* item i is taken with probability (items still wanted) / (items left) */
    for (uint64_t i = 0; k < m; i++)
        if (sample_below(&state, n - i) < m - k)
            pick[k++] = i;
}

/* The digits of a cost's key the sort takes a pass at a time. */
#define DIGIT_BITS 16

/* A cost's key: its bits as a float, which order as the costs do (none is negative; a
 * negative or NaN cost counts as none), to a part in 2^24 of each cost, far finer than
 * any cost model; in a sort item, above the item's index. */
static uint64_t cost_item(double c, uint64_t index)
{
    float f = c > 0 ? (float)c : 0.0f;
    uint32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    return (uint64_t)bits << 32 | index;
}

static double item_cost(uint64_t item)
{
    uint32_t bits = (uint32_t)(item >> 32);
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static unsigned item_digit(uint64_t item, int shift)
{
    return (unsigned)(item >> shift) & ((1u << DIGIT_BITS) - 1);
}

/* One stable pass of the sort from k into out on the digit at shift, or 0 where every
 * item has the same digit there (the pass would keep the order). */
static int sort_pass(const uint64_t *k, uint64_t *out, uint64_t n, int shift, uint64_t *at)
{
    memset(at, 0, sizeof(*at) << DIGIT_BITS);
    for (uint64_t i = 0; i < n; i++)
        at[item_digit(k[i], shift)]++;
    if (at[item_digit(k[0], shift)] == n)
        return 0;
    for (uint64_t d = 0, sum = 0; d < (uint64_t)1 << DIGIT_BITS; d++) {
        uint64_t c = at[d];
        at[d] = sum;
        sum += c;
    }
    for (uint64_t i = 0; i < n; i++)
        out[at[item_digit(k[i], shift)]++] = k[i];
    return 1;
}

/* Items in index order into key order, ties in index order: a stable radix sort of the
 * keys, two passes of eight bytes an item, in memory on huge pages (a first touch of a
 * 4 KiB page took some 7 us on a virtual machine). Of n = 27's estimate (10.4 million
 * tasks), qsort of the costs took 3 s, a radix sort of all 64 bits of the costs (four
 * passes of sixteen bytes an item) 0.72-0.75 s, this 0.24 s (bench: the strata of 10.4
 * million costs over four decades, fresh memory each time; Zen 3). */
static int sort_by_cost(uint64_t *k, uint64_t n)
{
    uint64_t *tmp = huge_calloc((n ? n : 1) * sizeof(*tmp)), *from = k, *to = tmp;
    uint64_t *at = malloc(sizeof(*at) << DIGIT_BITS);

    if (!tmp || !at) {
        huge_free(tmp);
        free(at);
        return -1;
    }
    for (int shift = 32; n && shift < 64; shift += DIGIT_BITS)
        if (sort_pass(from, to, n, shift, at)) {
            uint64_t *t = from;
            from = to, to = t;
        }
    if (from != k)
        memcpy(k, from, n * sizeof(*k));
    huge_free(tmp);
    free(at);
    return 0;
}

int sample_stratify(const double *cost, uint64_t n, int max_strata, uint64_t *idx, uint64_t *start)
{
    uint64_t *k = idx; /* the sort's items, each then its index: no more memory to touch */
    double total = 0, before = 0;
    int strata = 0;

    if (n > UINT32_MAX)
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        k[i] = cost_item(cost[i], i);
        total += item_cost(k[i]);
    }
    if (sort_by_cost(k, n) != 0)
        return -1;
    if ((uint64_t)max_strata > n)
        max_strata = (int)n;
    for (uint64_t i = 0; i < n; i++) {
        /* the stratum whose share of the total cost this item starts in; a model
         * without costs (all 0) falls back to equal counts */
        double at = total > 0 ? before / total : (double)i / (double)n;
        int h = (int)(at * max_strata);
        before += item_cost(k[i]);
        idx[i] = (uint32_t)k[i];
        if (i == 0 || (h >= strata && strata < max_strata))
            start[strata++] = i;
    }
    start[strata] = n;
    return strata;
}

void sample_shuffle(uint64_t *idx, const uint64_t *start, int strata, uint64_t seed)
{
    uint64_t state = seed;

    for (int h = 0; h < strata; h++) {
        uint64_t *v = idx + start[h], size = start[h + 1] - start[h];
        for (uint64_t i = 0; i + 1 < size; i++) {
            uint64_t j = i + sample_below(&state, size - i), t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
    }
}

void sample_add(sample_stratum *st, double x, double y)
{
    st->n++;
    st->sx += x;
    st->sy += y;
    st->sxx += x * x;
    st->sxy += x * y;
    st->syy += y * y;
}

static void merge(sample_stratum *g, const sample_stratum *h)
{
    g->size += h->size;
    g->cost += h->cost;
    g->n += h->n;
    g->parted += h->parted;
    g->sx += h->sx;
    g->sy += h->sy;
    g->sxx += h->sxx;
    g->sxy += h->sxy;
    g->syy += h->syy;
}

/* One group's ratio estimate and its variance (NaN with one sample). */
static void group_estimate(const sample_stratum *g, double *total, double *variance)
{
    double r, e2, f;

    if (g->n == 0 || g->sx <= 0) {
        *total = *variance = NAN;
        return;
    }
    r = g->sy / g->sx;
    *total = r * g->cost;
    if (g->n < 2) {
        *variance = NAN;
        return;
    }
    e2 = g->syy - 2 * r * g->sxy + r * r * g->sxx; /* the residuals y - r x, squared */
    if (e2 < 0)
        e2 = 0; /* rounding: a census of equal values */
    f = g->parted ? 0 : (double)g->n / (double)g->size;
    *variance =
        (double)g->size * (double)g->size * (1 - f) / (double)g->n * e2 / (double)(g->n - 1);
}

void sample_estimate_total(const sample_stratum *st, int strata, sample_estimate *out)
{
    sample_stratum g = {0};
    double total = 0, variance = 0, t, v;
    uint64_t samples = 0;
    int groups = 0;

    for (int h = 0; h < strata; h++) {
        int last = h + 1 == strata;
        merge(&g, &st[h]);
        /* close a group at two samples, unless what is left could not make one */
        uint64_t left = 0;
        for (int k = h + 1; k < strata && left < 2; k++)
            left += st[k].n;
        if (!last && (g.n < 2 || left < 2))
            continue;
        group_estimate(&g, &t, &v);
        total += t;
        variance += v;
        samples += g.n;
        groups++;
        g = (sample_stratum){0};
    }
    out->total = total;
    out->groups = groups;
    out->df = samples > (uint64_t)groups && !isnan(variance) ? samples - (uint64_t)groups : 0;
    out->variance = out->df ? variance : NAN;
}

/* The variance of y over the items, from the strata's samples: the mean of y^2 less the
 * squared mean, each stratum's sample mean weighted by its size (strata not yet sampled
 * left out). It is a term of a part in m of the total's variance (n = 27 at one second:
 * m = 262,144), so the small bias of a sample's second moment does not matter. */
static double item_variance(const sample_stratum *st, int strata)
{
    double w = 0, y = 0, yy = 0;

    for (int h = 0; h < strata; h++) {
        if (st[h].n == 0)
            continue;
        w += (double)st[h].size;
        y += (double)st[h].size * st[h].sy / (double)st[h].n;
        yy += (double)st[h].size * st[h].syy / (double)st[h].n;
    }
    return w > 0 ? fmax(yy / w - (y / w) * (y / w), 0) : NAN;
}

void sample_two_phase(sample_estimate *est, const sample_stratum *st, int strata, uint64_t m,
                      uint64_t n)
{
    double f, first;

    assert(m > 0 && m <= n);
    if (m == n)
        return;
    f = (double)n / (double)m;
    first = (double)n * (double)n * (1 / (double)m - 1 / (double)n) * item_variance(st, strata);
    est->total *= f;
    est->variance = est->df ? f * f * est->variance + first : NAN;
}

double sample_t95(uint64_t df)
{
    static const double small[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571,
                                   2.447, 2.365,  2.306, 2.262, 2.228};
    const double z = 1.959964;
    double d = (double)df;

    if (df < sizeof(small) / sizeof(small[0]))
        return small[df];
    /* Cornish-Fisher: within 0.001 of the table from df = 10 on */
    return z + (z * z * z + z) / (4 * d) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sample_prediction(const double *v, int k, double *median)
{
    double p[64], mean = 0, ss = 0;

    assert(k >= 2 && k <= 64);
    memcpy(p, v, (size_t)k * sizeof(*p));
    qsort(p, (size_t)k, sizeof(*p), by_value);
    *median = k % 2 ? p[k / 2] : (p[k / 2 - 1] + p[k / 2]) / 2;
    for (int i = 0; i < k; i++)
        mean += p[i] / k;
    for (int i = 0; i < k; i++)
        ss += (p[i] - mean) * (p[i] - mean);
    return sample_t95((uint64_t)k - 1) * sqrt(ss / (k - 1) * (1 + 1.0 / k));
}
