/* --devices LIST for the cuda engine: GPU numbers and ranges ("0", "0,2", "1-3") or
 * "all", as the bit mask nq_settings.devices takes. */
#ifndef NQ_CLI_DEVICES_H
#define NQ_CLI_DEVICES_H

#include <stdint.h>

/* 0 on success with *mask set (0 for "all"), -1 on a malformed list or a number past
 * 63. */
int devices_parse(const char *s, uint64_t *mask);

#endif
