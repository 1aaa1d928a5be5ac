/* Decimal formatting of 128-bit counts for the public API. */
#include <string.h>

#include "core/u128.h"

char *nq_u128_to_string(nq_u128 v, char *buf, size_t size)
{
    char tmp[40];
    size_t len = 0;
    u128 x = u128_unpack(v);

    if (!buf || size == 0)
        return NULL;
    do {
        tmp[len++] = (char)('0' + (int)(x % 10));
        x /= 10;
    } while (x);
    if (len + 1 > size) {
        buf[0] = '\0'; /* never a number with digits missing */
        return NULL;
    }
    for (size_t i = 0; i < len; i++)
        buf[i] = tmp[len - 1 - i];
    buf[len] = '\0';
    return buf;
}
