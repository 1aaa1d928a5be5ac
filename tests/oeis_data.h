/* Test helper: the published counts, read from data/oeis (never typed in by hand),
 * so that every count a test checks comes from the OEIS files. */
#ifndef NQ_TEST_OEIS_DATA_H
#define NQ_TEST_OEIS_DATA_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Value of sequence file name ("A000170" or "A002562") at n; fails the test if absent. */
static inline uint64_t oeis_value(const char *seq, int n)
{
    char path[1024], line[256];
    FILE *f;
    snprintf(path, sizeof(path), "%s/%s.txt", NQ_OEIS_DIR, seq);
    f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    while (fgets(line, sizeof(line), f)) {
        int k;
        unsigned long long v;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%d %llu", &k, &v) == 2 && k == n) {
            fclose(f);
            return (uint64_t)v;
        }
    }
    fclose(f);
    cr_assert_fail("%s has no value for n=%d", path, n);
    return 0;
}

#endif
