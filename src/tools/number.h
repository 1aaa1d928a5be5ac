/* Strict parsers of the numbers the tools take (number.c). */
#ifndef NQ_TOOLS_NUMBER_H
#define NQ_TOOLS_NUMBER_H

#include <stdint.h>

/* Parse a whole decimal integer in [min, max]: no sign other than a leading '-', no
 * spaces, no trailing characters. Returns 0 on success, -1 otherwise. */
int number_parse_long(const char *s, long min, long max, long *out);
/* A size in bytes, with an optional K, M, G or T (powers of 1024; "1.5G" too); 0, or -1
 * when s is not one or is 0. */
int number_parse_size(const char *s, uint64_t *out);
/* The same for an unsigned 64-bit value in [min, UINT64_MAX]: no sign at all. */
int number_parse_u64(const char *s, uint64_t min, uint64_t *out);

#endif
