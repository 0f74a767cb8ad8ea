/* twinbench: parsing of sizes, numbers and comma-separated lists. */
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

/* Split a comma-separated list into fresh strings; empty items are an error. */
int tb_list_split(const char *s, char ***items, int *n);
void tb_list_free(char **items, int n);

#ifdef __cplusplus
}
#endif
#endif
