/* The statistics of nq_estimate, apart from any engine or clock so that a test can check
 * them on a population whose total it knows: a seeded shuffle, strata of equal predicted
 * cost, and the stratified ratio estimator of a total with its finite-population
 * variance (Cochran, Sampling Techniques, 6.3 and 5A.4). */
#ifndef NQ_SAMPLE_H
#define NQ_SAMPLE_H

#include <stdint.h>

/* The next number of a splitmix64 stream: a seed gives the same stream on every
 * machine, which is what makes a sample reproducible. */
uint64_t sample_rand(uint64_t *state);
/* Uniform in 0..bound-1 (bound > 0), without modulo bias. */
uint64_t sample_below(uint64_t *state, uint64_t bound);

/* A simple random sample of m of the items 0..n-1 (m <= n) into pick, in increasing
 * order, drawn from the seed (selection sampling: Knuth, TAOCP 3.4.2, Algorithm S). */
void sample_subset(uint64_t n, uint64_t m, uint64_t seed, uint64_t *pick);

/* Order items 0..n-1 by predicted cost, each rounded to a float (ties by index, so that
 * a flat cost model keeps the enumeration order, which correlates with cost) into idx,
 * and cut that order into at most max_strata runs of about equal total cost: stratum h
 * is idx[start[h]] .. idx[start[h + 1] - 1]. Returns the number of strata (>= 1 when
 * n > 0; a stratum is never empty), or -1 without memory or for n of 2^32 or more.
 * start has room for max_strata + 1 entries. */
int sample_stratify(const double *cost, uint64_t n, int max_strata, uint64_t *idx, uint64_t *start);

/* Shuffle each stratum's run of idx (Fisher-Yates, seeded): a stratum's first k items are
 * then a simple random sample of it without replacement, for every k. */
void sample_shuffle(uint64_t *idx, const uint64_t *start, int strata, uint64_t seed);

/* What the sample holds about one stratum: its size and total predicted cost, and the
 * sums over its sampled items of x (predicted cost) and y (measured). */
typedef struct sample_stratum {
    uint64_t size; /* N_h, items in the stratum */
    double cost;   /* X_h, their total predicted cost */
    uint64_t n;    /* items sampled */
    double sx, sy, sxx, sxy, syy;
    /* of them, those whose y is itself an estimate (a task timed by a share of its
     * parts): the stratum's variance then has no finite-population correction, since a
     * census of such items still has the parts' sampling error, which the spread of the
     * estimated y's carries only uncorrected (Cochran, 10.2) */
    uint64_t parted;
} sample_stratum;

void sample_add(sample_stratum *st, double x, double y);

/* The estimated total of y over every item. Strata sampled fewer than twice are first
 * merged with their neighbours (in order) into groups of at least two samples, so that
 * each group has a variance; each group's total is its ratio estimate X_g * sy / sx, and
 * its variance N_g^2 (1 - n_g / N_g) s_e^2 / n_g with s_e^2 the residuals' sample
 * variance. df (the samples less the groups) is 0 when the variance is unknown (fewer
 * than two samples); the variance is then NaN. */
typedef struct sample_estimate {
    double total;
    double variance;
    int groups;
    uint64_t df;
} sample_estimate;

void sample_estimate_total(const sample_stratum *st, int strata, sample_estimate *out);

/* Two-phase sampling (Cochran, 12.2): where the strata were cut from a simple random
 * sample of m of n items (sample_subset) and est holds sample_estimate_total's estimate
 * of that sample's total, scale it to the n items, and add the first phase's variance
 * N^2 (1/m - 1/N) S_y^2, S_y^2 the items' variance of y as the strata's samples estimate
 * it (each stratum weighted by its share of the m). m = n leaves est as it is. */
void sample_two_phase(sample_estimate *est, const sample_stratum *st, int strata, uint64_t m,
                      uint64_t n);

/* The two-sided 95% quantile of Student's t with df degrees of freedom (df >= 1). */
double sample_t95(uint64_t df);

/* Of k >= 2 measurements v (at most 64), the median into *median, and the half width of
 * a 95% prediction interval for one more: t(k - 1) s sqrt(1 + 1/k), s their standard
 * deviation. */
double sample_prediction(const double *v, int k, double *median);

#endif
