/* Strict parsers of the numbers the tools' options and arguments take: a typo is an
 * error, never a different value. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

int number_parse_size(const char *s, uint64_t *out)
{
    static const char units[] = "KMGT";
    char *end;
    double v, scale = 1;

    if (!s || !isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtod(s, &end);
    if (*end) {
        const char *u = strchr(units, toupper((unsigned char)*end));
        if (!u || end[1] || !*end)
            return -1;
        for (long i = 0; i <= u - units; i++)
            scale *= 1024;
    }
    v *= scale;
    if (errno || !(v >= 1) || v >= 18e18)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int number_parse_long(const char *s, long min, long max, long *out)
{
    char *end;
    long v;
    const char *p = s;

    if (!s || !*s)
        return -1;
    if (*p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return -1; /* strtol would skip spaces and accept '+' */
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int number_parse_u64(const char *s, uint64_t min, uint64_t *out)
{
    char *end;
    unsigned long long v;

    if (!s || *s < '0' || *s > '9')
        return -1; /* strtoull would accept spaces, '+' and a wrapping '-' */
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end != '\0' || v < min)
        return -1;
    *out = (uint64_t)v;
    return 0;
}
