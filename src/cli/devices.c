/* Parsing of --devices (see devices.h): strict, so that a typo never quietly selects
 * other GPUs than the ones meant. */
#include <string.h>

#include "args.h"
#include "devices.h"

int devices_parse(const char *s, uint64_t *mask)
{
    char buf[256], *save = NULL;
    uint64_t m = 0;

    if (!s || !*s || strlen(s) >= sizeof(buf))
        return -1;
    if (strcmp(s, "all") == 0) {
        *mask = 0;
        return 0;
    }
    strcpy(buf, s);
    if (buf[strlen(buf) - 1] == ',')
        return -1; /* strtok_r would skip the empty item */
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *dash = strchr(item, '-');
        long lo, hi;
        if (dash == item)
            return -1;
        if (dash)
            *dash = '\0';
        if (args_parse_long(item, 0, 63, &lo) != 0)
            return -1;
        hi = lo;
        if (dash && (args_parse_long(dash + 1, 0, 63, &hi) != 0 || hi < lo))
            return -1;
        for (long d = lo; d <= hi; d++)
            m |= 1ull << d;
    }
    if (!m || s[0] == ',' || strstr(s, ",,"))
        return -1;
    *mask = m;
    return 0;
}
