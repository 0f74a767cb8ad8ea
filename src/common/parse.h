/* twinbench: parsing of sizes, numbers, comma-separated lists and ranges. */
#ifndef TB_PARSE_H
#define TB_PARSE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An integer: decimal digits with an optional binary suffix K, M, G or T
 * (2^10 .. 2^40), or 2^k; optionally followed by +c or -c (e.g. 2^22+5);
 * a leading '-' for a negative value. Returns TB_EINVAL with a message for
 * text that is not such a number or overflows 64 bits. */
int tb_parse_int(const char *s, int64_t *out);

/* A size: an integer as above that is at least 1. `what` names it in messages. */
int tb_parse_size(const char *s, const char *what, int64_t *out);

/* A real number (strtod syntax), finite and, unless it is 0, not so small
 * that it underflows to 0; subnormal numbers are accepted. */
int tb_parse_real(const char *s, double *out);

/* The 64-bit FNV-1a hash of a string: fingerprints and keys, not a secret. */
static inline uint64_t tb_fnv1a(const char *s)
{
  uint64_t h = 14695981039346656037ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* Split a comma-separated list into fresh strings; empty items are an error. */
int tb_list_split(const char *s, char ***items, int *n);
void tb_list_free(char **items, int n);

/* The most values a list of integers may expand to: a range asking for more
 * is a typo rather than a sweep anyone would wait for. */
#define TB_LIST_MAX 4096

/* Split a comma-separated list of integers as tb_list_split does, with each
 * range replaced by its values written in decimal:
 *   A:B     A, 2A, 4A, ... (doubling)     2^16:2^24, 1:16
 *   A:B:S   A, A+S, A+2S, ... (step S)    1:16:1, 2:8:2
 *   A:B:*F  A, AF, AF^2, ... (factor F)   1:64:*4
 * A range always ends at B, also where the steps do not reach it exactly
 * (1:12 is 1,2,4,8,12), so the end the user named is measured. Ends, steps
 * and factors are integers as tb_parse_int reads them; A <= B, S >= 1,
 * F >= 2, and A >= 1 where the range multiplies. Items without ':' are kept
 * as they are, for the caller to read (words such as sweep or auto). At most
 * TB_LIST_MAX items in all. `what` names the list in messages (--threads);
 * free with tb_list_free. */
int tb_list_split_ints(const char *s, const char *what, char ***items, int *n);

#ifdef __cplusplus
}
#endif
#endif
