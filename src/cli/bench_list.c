/* Parsing of the LIST arguments of nqueens bench. Every item is checked in full (range,
 * trailing characters) so that a typo is a usage error, never a surprise sweep. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_list.h"
#include "tools/args_parser.h"
#include "tools/number.h"

static int bench_list_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Append v unless present; -1 when the list is full. */
static int bench_list_add(int *out, int *len, int cap, int v)
{
    for (int i = 0; i < *len; i++)
        if (out[i] == v)
            return 0;
    if (*len >= cap)
        return -1;
    out[(*len)++] = v;
    return 0;
}

static int bench_list_item(const char *item, int min, int max, int cpus, int *out, int *len,
                           int cap, char *err, size_t err_size)
{
    const char *dash = strchr(item, '-');
    long a, b;

    if (cpus > 0 && strcmp(item, "max") == 0)
        return bench_list_add(out, len, cap, cpus);
    if (cpus > 0 && strcmp(item, "powers") == 0) {
        for (long p = 1; p <= cpus; p *= 2)
            bench_list_add(out, len, cap, (int)p);
        return bench_list_add(out, len, cap, cpus);
    }
    if (dash && dash != item) {
        char lo[32];
        size_t k = (size_t)(dash - item);
        if (k >= sizeof(lo) || number_parse_long(dash + 1, min, max, &b) != 0)
            goto bad;
        memcpy(lo, item, k);
        lo[k] = '\0';
        if (number_parse_long(lo, min, max, &a) != 0)
            goto bad;
        if (a > b) {
            snprintf(err, err_size, "range '%s' runs backwards", item);
            return -2;
        }
        if (b - a >= cap) {
            snprintf(err, err_size, "range '%s' has more than %d values", item, cap);
            return -2;
        }
        for (long v = a; v <= b; v++)
            if (bench_list_add(out, len, cap, (int)v) != 0)
                return -1;
        return 0;
    }
    if (number_parse_long(item, min, max, &a) != 0)
        goto bad;
    return bench_list_add(out, len, cap, (int)a);
bad:
    snprintf(err, err_size, "bad item '%s': expected an integer %d..%d or a range A-B%s", item, min,
             max, cpus > 0 ? ", 'max' or 'powers'" : "");
    return -2;
}

const char *bench_list_word(int i, const char **about)
{
    static const char *const words[] = {"max", "powers", NULL};
    return args_word_at(words, i, about);
}

int bench_list_parse(const char *s, int min, int max, int cpus, int *out, int cap, char *err,
                     size_t err_size)
{
    char item[64];
    int len = 0;

    if (!s || !*s) {
        snprintf(err, err_size, "empty list");
        return -1;
    }
    for (const char *p = s;;) {
        size_t k = strcspn(p, ",");
        int rc;
        if (k == 0 || k >= sizeof(item)) {
            snprintf(err, err_size, k ? "item too long in '%s'" : "empty item in '%s'", s);
            return -1;
        }
        memcpy(item, p, k);
        item[k] = '\0';
        rc = bench_list_item(item, min, max, cpus, out, &len, cap, err, err_size);
        if (rc == -2)
            return -1;
        if (rc == -1) {
            snprintf(err, err_size, "'%s' has more than %d values", s, cap);
            return -1;
        }
        if (p[k] == '\0')
            break;
        p += k + 1;
    }
    qsort(out, (size_t)len, sizeof(*out), bench_list_cmp);
    return len;
}
