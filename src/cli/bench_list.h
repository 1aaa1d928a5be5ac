/* The LIST arguments of nqueens bench: "14,15,16", ranges "14-17", and for thread
 * counts the words "max" and "powers". */
#ifndef NQ_CLI_BENCH_LIST_H
#define NQ_CLI_BENCH_LIST_H

#include <stddef.h>

/* Most values one LIST may expand to: enough for any sweep, small enough that a typo
 * like 1-4096 is caught before it runs for days. */
#define BENCH_LIST_MAX 256

/* Parse s: comma-separated items, each an integer or a range A-B (A <= B), all within
 * [min, max]. When cpus > 0 the words are accepted too: "max" is cpus, "powers" is
 * 1, 2, 4, ... up to cpus plus cpus itself when it is not a power of two. The values
 * come out sorted, without duplicates. Returns how many (>= 1) in out[0..cap), or -1
 * with a one-line reason in err. */
/* The words a thread count LIST takes: max, powers (as args_words). */
const char *bench_list_word(int i, const char **about);

int bench_list_parse(const char *s, int min, int max, int cpus, int *out, int cap, char *err,
                     size_t err_size);

#endif
